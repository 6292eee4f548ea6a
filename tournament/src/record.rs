//! Players and their rounds, as a Swiss or round-robin event records them.
//!
//! Scores are kept in half points (`u32`, a win = 2) so that sums are exact.

/// The colour a player had in a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Colour {
    /// White (moves first; in Makruk the side at the bottom, moving first).
    White,
    /// Black.
    Black,
}

impl Colour {
    /// The other colour.
    #[must_use]
    pub const fn flip(self) -> Self {
        match self {
            Self::White => Self::Black,
            Self::Black => Self::White,
        }
    }
}

/// What one round gave a player, with the TRF16 result codes it stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Won a played game (`1`, or `W` for a game not rated).
    Win,
    /// Drew a played game (`=`, or `D`).
    Draw,
    /// Lost a played game (`0`, or `L`).
    Loss,
    /// Won by forfeit (`+`): the opponent did not play.
    ForfeitWin,
    /// Lost by forfeit (`-`).
    ForfeitLoss,
    /// The pairing-allocated bye (`U`, opponent `0000`): scores a win (FIDE C.04.1).
    PairingBye,
    /// A full-point bye not allocated by the pairing (`F`).
    FullBye,
    /// A half-point bye asked for (`H`).
    HalfBye,
    /// A zero-point bye: absent, e.g. a late joiner's missed rounds or a withdrawal (`Z`, or blank).
    ZeroBye,
}

impl Outcome {
    /// Points in half points: 2 for a win (played, forfeit or bye), 1 for a draw or half-point
    /// bye, 0 otherwise.
    #[must_use]
    pub const fn half_points(self) -> u32 {
        match self {
            Self::Win | Self::ForfeitWin | Self::PairingBye | Self::FullBye => 2,
            Self::Draw | Self::HalfBye => 1,
            Self::Loss | Self::ForfeitLoss | Self::ZeroBye => 0,
        }
    }

    /// Whether a game was actually played over the board (not a forfeit or a bye).
    #[must_use]
    pub const fn is_played(self) -> bool {
        matches!(self, Self::Win | Self::Draw | Self::Loss)
    }
}

/// One round of one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Round {
    /// The opponent's starting number (1-based), `None` for a bye or an absence.
    pub opponent: Option<u32>,
    /// The colour played, `None` when no game was played with a colour (byes).
    pub colour: Option<Colour>,
    /// What the round gave.
    pub outcome: Outcome,
}

/// A player of an event: starting number, name, rating and the rounds so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    /// Starting number, 1-based (the TRF's pairing number).
    pub number: u32,
    /// The name shown in standings.
    pub name: String,
    /// Rating used for the initial order (0 when unrated).
    pub rating: u32,
    /// Rounds played so far, the first round first.
    pub rounds: Vec<Round>,
}

impl Player {
    /// The player's score in half points.
    #[must_use]
    pub fn half_points(&self) -> u32 {
        self.rounds.iter().map(|r| r.outcome.half_points()).sum()
    }
}
