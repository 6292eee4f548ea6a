//! The game service: challenges, moves, offers, counting, explanations; one transaction per request.
