//! Time management: how long one search may run, from the [`Limits`].
//!
//! A fixed `movetime` is used to the full, less [`MOVETIME_OVERHEAD`] for answering (the
//! search polls the clock every 1024 nodes, about a millisecond, and a UCI answer takes well
//! under one; Fairy-Stockfish, too, searches its whole `movetime`). With a
//! clock, the search aims at an even share of the remaining time (`movestogo`, else 30
//! moves) plus most of the increment: it starts no new iteration after that "soft" time and
//! stops outright at a "hard" time of a few shares, never more than a third of what is left
//! (all of it but the overhead when one move remains to the time control).

use crate::{Clock, Limits};
use makruk::Color;
use std::time::Duration;

/// Time kept back from a clock for the move to reach the other side (UCI, the bot).
const OVERHEAD: Duration = Duration::from_millis(10);

/// Time kept back from a fixed `movetime`.
const MOVETIME_OVERHEAD: Duration = Duration::from_millis(2);

/// When a search should stop.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct TimeBudget {
    /// Start no new iteration after this.
    pub soft: Option<Duration>,
    /// Stop the search at this.
    pub hard: Option<Duration>,
}

/// The budget for `side` to move under `limits`. Both bounds are `None` when only depth,
/// nodes or nothing (infinite) limit the search.
#[must_use]
pub fn budget(limits: &Limits, side: Color) -> TimeBudget {
    let mut b = TimeBudget::default();
    if let Some(clock) = &limits.clock {
        let (soft, hard) = clock_budget(clock, side);
        b.soft = Some(soft);
        b.hard = Some(hard);
    }
    if let Some(mt) = limits.movetime {
        let t = mt.saturating_sub(MOVETIME_OVERHEAD).max(mt / 2);
        b.soft = Some(b.soft.map_or(t, |s| s.min(t)));
        b.hard = Some(b.hard.map_or(t, |h| h.min(t)));
    }
    b
}

fn clock_budget(clock: &Clock, side: Color) -> (Duration, Duration) {
    let (time, inc) = match side {
        Color::White => (clock.wtime, clock.winc),
        Color::Black => (clock.btime, clock.binc),
    };
    let avail = time.saturating_sub(OVERHEAD);
    let togo = clock.movestogo.unwrap_or(30).max(1);
    if togo == 1 {
        let t = avail.mul_f64(0.9);
        return (t.mul_f64(0.6), t);
    }
    let share = avail / togo + inc.mul_f64(0.75);
    let cap = avail / 3;
    let soft = share.min(cap).mul_f64(0.7);
    let hard = (share * 3).min(cap);
    (soft, hard.max(soft))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(ms: u64, inc: u64) -> Limits {
        Limits {
            clock: Some(Clock {
                wtime: Duration::from_millis(ms),
                btime: Duration::from_millis(ms / 10),
                winc: Duration::from_millis(inc),
                binc: Duration::from_millis(inc),
                movestogo: None,
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn movetime_is_used_almost_fully() {
        let l = Limits {
            movetime: Some(Duration::from_millis(1000)),
            ..Limits::default()
        };
        let b = budget(&l, Color::White);
        assert_eq!(b.hard, Some(Duration::from_millis(998)));
    }

    #[test]
    fn clock_shares_are_sane() {
        let b = budget(&clock(60_000, 0), Color::White);
        let hard = b.hard.expect("hard");
        let soft = b.soft.expect("soft");
        assert!(
            soft < hard && hard <= Duration::from_millis(20_000),
            "{b:?}"
        );
        assert!(soft >= Duration::from_millis(1000), "{b:?}");
        // Black has a tenth of the time: a tenth-ish of the budget.
        let black = budget(&clock(60_000, 0), Color::Black);
        assert!(black.hard.expect("hard") < hard / 5, "{black:?}");
        // Nearly out of time: never more than what is left.
        let b = budget(&clock(30, 0), Color::White);
        assert!(b.hard.expect("hard") <= Duration::from_millis(30));
    }

    #[test]
    fn depth_only_has_no_time_bound() {
        let l = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        assert_eq!(budget(&l, Color::White), TimeBudget::default());
    }
}
