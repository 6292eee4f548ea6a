//! Tournament pairing and scoring for makruk-bot, with no I/O and no async.
//!
//! - [`record`]: players and their rounds (opponent, colour, result), shared by every module.
//! - [`trf`]: the FIDE TRF16 report (read and write), with `XXR` (number of rounds).
//! - [`dutch`]: the next round of a Swiss event by the FIDE Dutch system (C.04.3).
//! - [`berger`]: round-robin tables (FIDE C.05 Annex 1, Berger tables).
//! - [`tiebreak`]: Buchholz Cut-1, Buchholz, Sonneborn–Berger, direct encounter.
//! - [`arena`]: lichess-style arena pairing and scoring (streaks, berserk).

pub mod arena;
pub mod berger;
pub mod dutch;
pub mod record;
pub mod tiebreak;
pub mod trf;
