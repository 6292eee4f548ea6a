//! A Makruk engine on the `makruk` rules crate: iterative-deepening alpha-beta search with a
//! transposition table, a Makruk evaluation, time management, playing levels 1–8 for the
//! bot, the `traditional` board's honour count decision, the computer analysis of a finished
//! game ([`analysis`]: evals, lichess's judgements and accuracy, notes on the count), puzzles
//! ([`puzzle`]: the only-move tactics of a position), and a
//! UCI front end (`makruk-uci`). Pure Rust, no async; no I/O outside [`uci`].
//!
//! The search draws exactly where the rules crate's [`makruk::Game::outcome`] does, under
//! each of the four rulesets (docs/RULES.md): see [`draws`].
//!
//! Every variant of the rules crate ([`makruk::Variant`]: Makruk, Makpong, Ouk Chaktrang,
//! ASEAN, Sittuyin) is searched and played at every level: the search takes its moves from
//! the rules crate's legal moves (Makruk's quiescence keeps its own faster generator), draws
//! and counts by the position's own rules ([`makruk::Position::rules`]), and evaluates with
//! the variant's Bia terms and Sittuyin's pieces in hand ([`evaluate`]); `makruk-uci` speaks
//! `UCI_Variant`.
//!
//! ```
//! use makruk::{Game, Ruleset};
//! use makruk_engine::{Engine, Limits};
//! use std::sync::atomic::AtomicBool;
//!
//! let mut engine = Engine::new(16);
//! let game = Game::new(Ruleset::Standard);
//! let limits = Limits { depth: Some(4), ..Limits::default() };
//! let result = engine.search(&game, &limits, &AtomicBool::new(false), &mut |_| {});
//! assert!(result.best.is_some_and(|m| game.position().is_legal(&m)));
//! ```

#![warn(missing_docs)]

pub mod analysis;
mod attacks;
mod counting;
pub mod draws;
pub mod evaluate;
mod level;
pub mod movepick;
pub mod nnue;
pub mod puzzle;
mod search;
pub mod timeman;
pub mod tt;
pub mod uci;
mod weights;

pub use counting::count_decision;
pub use level::{accepts_draw, choose_move, Level};
pub use search::{Engine, MATE};

use std::time::Duration;

/// The longest line the search follows, in plies from the root (quiescence included): the
/// size of the search's per-ply stacks, and the distance from a no-progress limit within which
/// the transposition table keys the halfmove clock ([`tt::key`]).
pub const MAX_PLY: usize = 64;

/// What limits one search. All `None` searches until stopped (UCI `go infinite`). When several
/// are set, the first one reached ends the search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum depth in plies of the iterative deepening.
    pub depth: Option<u32>,
    /// Maximum number of nodes.
    pub nodes: Option<u64>,
    /// Time for this move.
    pub movetime: Option<Duration>,
    /// The players' clocks; the search takes its share ([`timeman`]).
    pub clock: Option<Clock>,
}

/// The players' clocks, as UCI `go wtime btime winc binc movestogo` gives them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// White's remaining time.
    pub wtime: Duration,
    /// Black's remaining time.
    pub btime: Duration,
    /// White's increment per move.
    pub winc: Duration,
    /// Black's increment per move.
    pub binc: Duration,
    /// Moves to the next time control, if any.
    pub movestogo: Option<u32>,
}

/// A search score from the side to move's point of view, as UCI reports it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns (a Bia is about 100); 0 is a draw.
    Cp(i32),
    /// Mate in this many moves (not plies): positive when the side to move mates, negative
    /// when it is mated (`Mate(-1)`: mated after its next move; `Mate(0)` is not used for a
    /// position that is already mate, which has no search).
    Mate(i32),
}

impl Score {
    /// The score in the engine's internal centipawn scale, mates far beyond every
    /// evaluation (for comparisons).
    #[must_use]
    pub fn to_internal(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => MATE - (2 * n - 1),
            Score::Mate(n) => -MATE + 2 * (-n),
        }
    }
}

/// Progress of a search, reported after each finished iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// The iteration's depth in plies.
    pub depth: u32,
    /// The score of the best move.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation, from the side to move.
    pub pv: Vec<makruk::Move>,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best move, `None` only when the side to move has no legal move.
    pub best: Option<makruk::Move>,
    /// Its score (`Cp(0)` with no legal move: mate or stalemate is the caller's to read from
    /// the rules).
    pub score: Score,
    /// The depth of the last finished iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation, starting with `best`.
    pub pv: Vec<makruk::Move>,
}
