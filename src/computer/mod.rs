//! Play against the computer: the thinking [`pool`] that runs our engine (levels 1 to 8) on its
//! own OS threads, and the [`uci`] client for Fairy-Stockfish (level 9, ruleset `standard`
//! only). The levels are [`ComputerLevel`]s, checked where they are read.
//!
//! This layer sits above the game service: it uses the service's types (turns, seats, the
//! [`crate::game::DrawJudge`] it implements), and the service never uses it.
//!
//! Neither knows Discord or SQL: the game service hands them a [`makruk::Game`] and gets a
//! [`makruk::Move`] (or a yes/no to a draw offer) back. The [`driver`] connects them to the game
//! service: it thinks about every computer turn the service hands out and submits the move.
//! [`Settings`] gathers what an operator may tune; the binary fills it from flags and
//! environment variables.

pub mod driver;
mod engine_brain;
pub mod pool;
pub mod uci;

use std::time::Duration;

use crate::game::{ComputerLevel, LeaderSettings};

pub use driver::{think_budget, Computer};
pub use engine_brain::engine_pool;
pub use pool::{Analysing, Brain, Canceller, Pool, PoolError, Reply, Request, Thinking};
pub use uci::{FairyStockfish, UciError, UciSettings};

/// The default think-time budgets of levels 1 to 8, in milliseconds. Levels 1 to 6 follow
/// pychess's movetimes for its Fairy-Stockfish levels (50 to 500 ms); levels 7 and 8 get more
/// because they are meant to be the strongest our engine plays, with 2 s as the ceiling a
/// player waits for a reply in chat.
pub const DEFAULT_BUDGETS_MS: [u64; 8] = [50, 100, 150, 200, 300, 500, 1000, 2000];

/// What an operator may tune about the computer opponent. [`Default`] gives values fit for a
/// small host; the binary overrides them from `ENGINE_THREADS`, `ENGINE_HASH_MB`,
/// `ENGINE_MAX_THINK_MS` (level 8's budget, capping the others) and `FAIRY_STOCKFISH_PATH` (or
/// the matching flags; see `crate::app::Config`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// How many searches run at once, each on its own OS thread (`ENGINE_THREADS`). Further
    /// requests wait in a FIFO queue. Default: [`default_threads`]. 0 is taken as 1.
    pub threads: usize,
    /// The transposition table of each worker, in MiB (`ENGINE_HASH_MB`); the pool uses up to
    /// `threads × hash_mb`. Default 16.
    pub hash_mb: usize,
    /// The most a search of level `n` (1 to 8) may take: `budgets[n - 1]`. Default
    /// [`DEFAULT_BUDGETS_MS`]. The engine may answer sooner (a forced move, a shallow level).
    pub budgets: [Duration; 8],
    /// How many requests may wait for a free worker before [`Pool::think`] refuses with
    /// [`PoolError::Busy`]. Default 256: every game waits for at most one reply at a time, so
    /// this only bounds a flood.
    pub max_queued: usize,
    /// Fairy-Stockfish for level 9.
    pub fairy_stockfish: UciSettings,
}

impl Settings {
    /// These settings with level 8 thinking at most `max` a move, and no level longer than it.
    #[must_use]
    pub fn with_max_think(mut self, max: Duration) -> Settings {
        self.budgets = self.budgets.map(|b| b.min(max));
        self.budgets[7] = max;
        self
    }

    /// The most the computer thinks a move at `level`: our engine's level budget
    /// ([`Settings::budgets`]), Fairy-Stockfish's `movetime`. The one place the think time of a
    /// level is decided (the clock may cut it shorter: [`think_budget`]).
    #[must_use]
    pub fn think_time(&self, level: ComputerLevel) -> Duration {
        match level.engine_level() {
            Some(n) => self.budgets[usize::from(n - 1)],
            None => self.fairy_stockfish.movetime,
        }
    }

    /// The leader lease's default timing with these think times (the sweep's patience with a
    /// computer turn: [`LeaderSettings::think`]).
    #[must_use]
    pub fn leader_settings(&self) -> LeaderSettings {
        LeaderSettings::new(|level| self.think_time(level))
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            threads: default_threads(),
            hash_mb: 16,
            budgets: DEFAULT_BUDGETS_MS.map(Duration::from_millis),
            max_queued: 256,
            fairy_stockfish: UciSettings::default(),
        }
    }
}

/// The default number of search threads: one less than the CPU cores, at least one (so 1 on a
/// 1- or 2-core host, 3 on 4 cores). The core left over keeps the async runtime, the renderer
/// and the database responsive while every worker is busy.
#[must_use]
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .saturating_sub(1)
        .max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_by_level() {
        let s = Settings::default();
        let level = |n| ComputerLevel::new(n).expect("a level");
        assert_eq!(s.think_time(level(1)), Duration::from_millis(50));
        assert_eq!(s.think_time(level(8)), Duration::from_secs(2));
        assert_eq!(
            s.think_time(ComputerLevel::FAIRY_STOCKFISH),
            s.fairy_stockfish.movetime
        );
        let leader = s.leader_settings();
        assert_eq!(leader.think[0], Duration::from_millis(50));
        assert_eq!(leader.think[8], s.fairy_stockfish.movetime);
        assert!(
            s.budgets.windows(2).all(|w| w[0] < w[1]),
            "stronger levels think longer"
        );
    }

    #[test]
    fn default_threads_leaves_a_core() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let t = default_threads();
        assert!(t >= 1);
        assert_eq!(t, if cores <= 2 { 1 } else { cores - 1 });
    }
}
