//! The clock of one game: pure functions on plain integers (Unix milliseconds, remaining
//! milliseconds), no I/O. The service changes it in the same transaction as the move.
//!
//! The state is the clock as of the start of the current turn: each side's remaining time, the
//! side to move and the instant its turn started. Only the side to move's time runs; draw
//! offers, takeback requests and counting requests do not stop it (only a move or an accepted
//! takeback changes the clock).
//!
//! The clock runs from the moment the game starts, the first move included. A side whose flag
//! falls before it has made its first move has its game aborted, not lost
//! ([`ClockState::flag_outcome`]).
//!
//! Takebacks (the rule chosen here, after lichess, which gives the time of a taken-back move
//! back): taking back the last ply restores both sides' remaining times to what they were when
//! that ply's turn started (the [`Snapshot`] stored with the ply before it, or the initial
//! times), and the turn of the side that played it starts again at the moment of the
//! takeback. So the mover gets back the time the move took and loses the increment it earned;
//! the opponent gets back the time it spent since. In correspondence the mover gets a fresh
//! period, as after any move.

use std::time::Duration;

use makruk::{Color, Position};

use super::control::{Kind, TimeControl};

/// Milliseconds kept back from the engine's budget for storing and posting its move.
const ENGINE_RESERVE_MS: i64 = 1000;

/// Both sides' remaining time at the start of a turn, in milliseconds. The store keeps one per
/// move (after that move, increment included): a takeback restores the one before the
/// taken-back move ([`ClockState::take_back`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// White's remaining milliseconds.
    pub white_ms: i64,
    /// Black's remaining milliseconds.
    pub black_ms: i64,
}

impl Snapshot {
    /// Both sides' time when a game with `control` starts (before its first ply).
    #[must_use]
    pub fn initial(control: TimeControl) -> Snapshot {
        let ms = control.initial_ms();
        Snapshot {
            white_ms: ms,
            black_ms: ms,
        }
    }

    /// The remaining milliseconds of `c`.
    #[must_use]
    pub const fn of(self, c: Color) -> i64 {
        match c {
            Color::White => self.white_ms,
            Color::Black => self.black_ms,
        }
    }

    fn set(&mut self, c: Color, ms: i64) {
        match c {
            Color::White => self.white_ms = ms,
            Color::Black => self.black_ms = ms,
        }
    }
}

/// What the store keeps of a game's clock (columns of the game's row), besides its
/// [`TimeControl`] and what the game row knows already (side to move, plies).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredClock {
    /// White's remaining milliseconds at the start of the current turn.
    pub white_ms: i64,
    /// Black's remaining milliseconds at the start of the current turn.
    pub black_ms: i64,
    /// Unix milliseconds at which the current turn started (its clock runs from then).
    pub turn_started_ms: i64,
    /// The correspondence reminder of the current turn has been sent.
    pub reminder_sent: bool,
}

/// The clock of a game (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockState {
    control: TimeControl,
    remaining: Snapshot,
    turn: Color,
    turn_started_ms: i64,
    plies: u32,
    reminder_sent: bool,
}

/// What a clock refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    /// The side to move's time had run out: the game ends by [`ClockState::flag_outcome`]
    /// instead.
    #[error("the side to move has run out of time")]
    OutOfTime,
    /// Berserk comes before one's first move, in a live game only.
    #[error("too late to berserk")]
    TooLateToBerserk,
    /// No ply has been played on this clock.
    #[error("no ply to take back")]
    NothingToTakeBack,
}

/// How a game ends when the side to move's time runs out (lichess's rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlagOutcome {
    /// That side had not made its first move: the game is aborted, with no result.
    Aborted,
    /// The opponent cannot possibly mate with what it has left
    /// ([`Position::has_insufficient_material`]): a draw.
    Draw,
    /// That side loses on time.
    Loss {
        /// The side whose time ran out.
        loser: Color,
    },
}

/// What a status shows of the clock at a given instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockStatus {
    /// A live game: both sides' remaining time now and the moment the side to move's flag
    /// falls (divide by 1000 for a Discord `<t:UNIX:R>` timestamp).
    Live {
        /// White's remaining milliseconds now (0 when run out).
        white_ms: i64,
        /// Black's remaining milliseconds now (0 when run out).
        black_ms: i64,
        /// The side whose time runs.
        turn: Color,
        /// Unix milliseconds at which `turn`'s flag falls.
        flag_at_ms: i64,
    },
    /// A correspondence game: the side to move must move by `move_by_ms`.
    Correspondence {
        /// The side that must move.
        turn: Color,
        /// Unix milliseconds by which `turn` must move.
        move_by_ms: i64,
    },
}

impl ClockState {
    /// The clock of a new game whose first move is `turn`'s, starting at `now_ms`.
    #[must_use]
    pub fn new(control: TimeControl, turn: Color, now_ms: i64) -> ClockState {
        ClockState {
            control,
            remaining: Snapshot::initial(control),
            turn,
            turn_started_ms: now_ms,
            plies: 0,
            reminder_sent: false,
        }
    }

    /// The clock from what the store keeps, with the game's side to move and number of plies
    /// (from its row: the FEN's turn and `plies`).
    #[must_use]
    pub fn from_stored(
        control: TimeControl,
        stored: StoredClock,
        turn: Color,
        plies: u32,
    ) -> ClockState {
        ClockState {
            control,
            remaining: Snapshot {
                white_ms: stored.white_ms,
                black_ms: stored.black_ms,
            },
            turn,
            turn_started_ms: stored.turn_started_ms,
            plies,
            reminder_sent: stored.reminder_sent,
        }
    }

    /// What the store keeps (see [`StoredClock`]).
    #[must_use]
    pub fn stored(&self) -> StoredClock {
        StoredClock {
            white_ms: self.remaining.white_ms,
            black_ms: self.remaining.black_ms,
            turn_started_ms: self.turn_started_ms,
            reminder_sent: self.reminder_sent,
        }
    }

    /// The game's time control.
    #[must_use]
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// The side whose time runs.
    #[must_use]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Plies played on this clock.
    #[must_use]
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Unix milliseconds at which the current turn started.
    #[must_use]
    pub fn turn_started_ms(&self) -> i64 {
        self.turn_started_ms
    }

    /// Both sides' remaining time at the start of the current turn: what the store keeps with
    /// the ply just played, for a later takeback of the ply after it.
    #[must_use]
    pub fn snapshot(&self) -> Snapshot {
        self.remaining
    }

    /// Berserk (arenas, as lichess): `c`'s time is halved (the time it had at the start of its
    /// turn, when it is to move). Only in a live game and before `c`'s first move.
    ///
    /// # Errors
    /// [`ClockError::TooLateToBerserk`] when `c` has moved or the game is correspondence; the
    /// clock is unchanged.
    pub fn berserk(&mut self, c: Color) -> Result<(), ClockError> {
        if self.has_moved(c) || self.control.kind() != Kind::Live {
            return Err(ClockError::TooLateToBerserk);
        }
        self.remaining.set(c, self.remaining.of(c) / 2);
        Ok(())
    }

    /// True when `c` has played at least one ply on this clock.
    #[must_use]
    pub fn has_moved(&self, c: Color) -> bool {
        self.plies >= 2 || (self.plies == 1 && c != self.turn)
    }

    /// Unix milliseconds at which the side to move's flag falls (its time is out from then on).
    #[must_use]
    pub fn deadline_ms(&self) -> i64 {
        self.turn_started_ms
            .saturating_add(self.remaining.of(self.turn))
    }

    /// True when the side to move's time has run out at `now_ms`.
    #[must_use]
    pub fn is_out_of_time(&self, now_ms: i64) -> bool {
        now_ms >= self.deadline_ms()
    }

    /// The remaining milliseconds of `c` at `now_ms` (never negative; only the side to move's
    /// time runs).
    #[must_use]
    pub fn remaining_ms(&self, c: Color, now_ms: i64) -> i64 {
        let at_start = self.remaining.of(c);
        if c == self.turn {
            at_start.saturating_sub(self.elapsed_ms(now_ms)).max(0)
        } else {
            at_start.max(0)
        }
    }

    /// Milliseconds since the turn started (0 if `now_ms` is before it: a clock set back).
    fn elapsed_ms(&self, now_ms: i64) -> i64 {
        now_ms.saturating_sub(self.turn_started_ms).max(0)
    }

    /// The side to move moves at `now_ms`: its time is charged (live: the increment is added
    /// after), and the opponent's turn starts at `now_ms`; in correspondence the opponent gets
    /// the full period per move. The correspondence reminder is due again.
    ///
    /// # Errors
    /// [`ClockError::OutOfTime`] when the mover's time had run out (at or after
    /// [`ClockState::deadline_ms`]); the clock is unchanged.
    pub fn on_move(&mut self, now_ms: i64) -> Result<(), ClockError> {
        if self.is_out_of_time(now_ms) {
            return Err(ClockError::OutOfTime);
        }
        let mover = self.turn;
        match self.control.kind() {
            Kind::Live => {
                let left = self.remaining_ms(mover, now_ms);
                self.remaining
                    .set(mover, left.saturating_add(self.control.increment_ms()));
            }
            Kind::Correspondence => {
                self.remaining = Snapshot::initial(self.control);
            }
        }
        self.turn = mover.other();
        self.turn_started_ms = now_ms;
        self.plies = self.plies.saturating_add(1);
        self.reminder_sent = false;
        Ok(())
    }

    /// An accepted takeback of the last ply at `now_ms`: the clock stands as `before` (the
    /// [`Snapshot`] stored with the ply before the taken-back one, or [`Snapshot::initial`] when
    /// the first ply is taken back) and the taken-back ply's side starts its turn again at
    /// `now_ms` (see the module documentation).
    ///
    /// # Errors
    /// [`ClockError::OutOfTime`] when the side to move (the one accepting) had run out of time
    /// at `now_ms`; [`ClockError::NothingToTakeBack`] with no ply played. The clock is unchanged.
    pub fn take_back(&mut self, before: Snapshot, now_ms: i64) -> Result<(), ClockError> {
        if self.plies == 0 {
            return Err(ClockError::NothingToTakeBack);
        }
        if self.is_out_of_time(now_ms) {
            return Err(ClockError::OutOfTime);
        }
        self.remaining = before;
        self.turn = self.turn.other();
        self.turn_started_ms = now_ms;
        self.plies -= 1;
        self.reminder_sent = false;
        Ok(())
    }

    /// Unix milliseconds from which the current turn's reminder is due (correspondence only:
    /// once less than a sixth of the period is left, e.g. 12 h of 3 days); `None` in live games
    /// and once it has been sent ([`ClockState::mark_reminder_sent`]).
    #[must_use]
    pub fn reminder_due_at_ms(&self) -> Option<i64> {
        if self.reminder_sent || self.control.kind() != Kind::Correspondence {
            return None;
        }
        Some(
            self.deadline_ms()
                .saturating_sub(self.control.initial_ms() / 6),
        )
    }

    /// The current turn's reminder has been sent: no other until the next move.
    pub fn mark_reminder_sent(&mut self) {
        self.reminder_sent = true;
    }

    /// How the game ends when the side to move has run out of time, in `position` (the game's
    /// current position: its material decides). lichess's rules: aborted when that side has
    /// not made its first move; else a draw when the opponent cannot possibly mate
    /// ([`Position::has_insufficient_material`], Fairy-Stockfish's test, which lichess uses);
    /// else that side loses.
    #[must_use]
    pub fn flag_outcome(&self, position: &Position) -> FlagOutcome {
        let side = self.turn;
        if !self.has_moved(side) {
            FlagOutcome::Aborted
        } else if position.has_insufficient_material(side.other()) {
            FlagOutcome::Draw
        } else {
            FlagOutcome::Loss { loser: side }
        }
    }

    /// Gives the side to move `by_ms` milliseconds back (a time nobody is charged for, such as
    /// the bot's downtime): the turn's start, so every deadline and the reminder, move later by
    /// `by_ms`. A negative `by_ms` changes nothing (time is never taken away).
    pub fn shift(&mut self, by_ms: i64) {
        self.turn_started_ms = self.turn_started_ms.saturating_add(by_ms.max(0));
    }

    /// At start-up: charges nobody for the time the bot was down, from its last heartbeat
    /// `last_alive_ms` until `now_ms`. The turn's start moves by the downtime this turn saw:
    /// `now_ms - max(last_alive_ms, turn_started_ms)` (a turn that started after the last
    /// heartbeat was running when the bot stopped, at an unknown moment: it restarts at
    /// `now_ms`). Returns the milliseconds given back.
    pub fn resume(&mut self, last_alive_ms: i64, now_ms: i64) -> i64 {
        let down = now_ms
            .saturating_sub(last_alive_ms.max(self.turn_started_ms))
            .max(0);
        self.shift(down);
        down
    }

    /// How long the engine may think for its move at `now_ms` when it is the side to move,
    /// at most `max`. Live: a thirtieth of the usable time plus three quarters of the
    /// increment, never more than half the usable time (usable: the remaining time less a
    /// second for storing and posting the move). Correspondence: `max` unless the period is
    /// nearly over.
    #[must_use]
    pub fn engine_budget(&self, now_ms: i64, max: Duration) -> Duration {
        let usable = (self.remaining_ms(self.turn, now_ms) - ENGINE_RESERVE_MS).max(0);
        let ms = match self.control.kind() {
            Kind::Live => (usable / 30 + self.control.increment_ms() * 3 / 4).min(usable / 2),
            Kind::Correspondence => usable / 2,
        };
        Duration::from_millis(u64::try_from(ms).unwrap_or(0)).min(max)
    }

    /// The clock as a status shows it at `now_ms`.
    #[must_use]
    pub fn status(&self, now_ms: i64) -> ClockStatus {
        match self.control.kind() {
            Kind::Live => ClockStatus::Live {
                white_ms: self.remaining_ms(Color::White, now_ms),
                black_ms: self.remaining_ms(Color::Black, now_ms),
                turn: self.turn,
                flag_at_ms: self.deadline_ms(),
            },
            Kind::Correspondence => ClockStatus::Correspondence {
                turn: self.turn,
                move_by_ms: self.deadline_ms(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use makruk::Ruleset;

    const SEC: i64 = 1000;
    const MIN: i64 = 60 * SEC;
    const HOUR: i64 = 60 * MIN;
    const DAY: i64 = 24 * HOUR;
    const T0: i64 = 1_700_000_000_000;

    fn live(minutes: u16, increment_secs: u16) -> TimeControl {
        TimeControl::Live {
            minutes,
            increment_secs,
        }
    }

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, Ruleset::Standard).unwrap()
    }

    #[test]
    fn live_move_charges_the_mover_adds_the_increment_and_starts_the_opponent() {
        let mut c = ClockState::new(live(3, 2), Color::White, T0);
        assert_eq!(c.deadline_ms(), T0 + 3 * MIN);
        c.on_move(T0 + 10 * SEC).unwrap();
        assert_eq!(c.turn(), Color::Black);
        assert_eq!(c.turn_started_ms(), T0 + 10 * SEC);
        assert_eq!(
            c.snapshot(),
            Snapshot {
                white_ms: 3 * MIN - 10 * SEC + 2 * SEC,
                black_ms: 3 * MIN
            }
        );
        assert_eq!(c.deadline_ms(), T0 + 10 * SEC + 3 * MIN);
        // Black thinks 40 s; meanwhile White's time stands still.
        assert_eq!(
            c.remaining_ms(Color::Black, T0 + 50 * SEC),
            3 * MIN - 40 * SEC
        );
        assert_eq!(c.remaining_ms(Color::White, T0 + 50 * SEC), 172 * SEC);
        c.on_move(T0 + 50 * SEC).unwrap();
        assert_eq!(c.snapshot().black_ms, 3 * MIN - 40 * SEC + 2 * SEC);
        assert_eq!(c.deadline_ms(), T0 + 50 * SEC + 172 * SEC);
        assert_eq!(c.plies(), 2);
    }

    #[test]
    fn a_move_at_or_after_the_deadline_is_out_of_time_and_changes_nothing() {
        let mut c = ClockState::new(live(3, 2), Color::White, T0);
        let before = c;
        assert!(!c.is_out_of_time(T0 + 3 * MIN - 1));
        assert!(c.is_out_of_time(T0 + 3 * MIN));
        assert_eq!(c.on_move(T0 + 3 * MIN), Err(ClockError::OutOfTime));
        assert_eq!(c, before);
        assert_eq!(c.remaining_ms(Color::White, T0 + 10 * MIN), 0);
        c.on_move(T0 + 3 * MIN - 1).unwrap();
        assert_eq!(c.snapshot().white_ms, 1 + 2 * SEC);
    }

    #[test]
    fn correspondence_time_resets_each_move_and_does_not_carry_over() {
        let mut c = ClockState::new(TimeControl::DEFAULT, Color::White, T0);
        assert_eq!(c.deadline_ms(), T0 + 3 * DAY);
        c.on_move(T0 + 5 * MIN).unwrap();
        assert_eq!(c.deadline_ms(), T0 + 5 * MIN + 3 * DAY);
        c.on_move(T0 + 2 * DAY).unwrap();
        assert_eq!(c.deadline_ms(), T0 + 5 * DAY);
        assert_eq!(
            c.status(T0 + 3 * DAY),
            ClockStatus::Correspondence {
                turn: Color::White,
                move_by_ms: T0 + 5 * DAY
            }
        );
        assert_eq!(c.on_move(T0 + 5 * DAY), Err(ClockError::OutOfTime));
    }

    #[test]
    fn live_status_gives_both_times_now_and_the_flag_moment() {
        let mut c = ClockState::new(live(5, 3), Color::White, T0);
        c.on_move(T0 + 20 * SEC).unwrap();
        assert_eq!(
            c.status(T0 + 80 * SEC),
            ClockStatus::Live {
                white_ms: 5 * MIN - 17 * SEC,
                black_ms: 4 * MIN,
                turn: Color::Black,
                flag_at_ms: T0 + 20 * SEC + 5 * MIN,
            }
        );
    }

    #[test]
    fn one_reminder_per_correspondence_move_at_a_sixth_of_the_period_none_live() {
        let mut c = ClockState::new(TimeControl::DEFAULT, Color::White, T0);
        assert_eq!(c.reminder_due_at_ms(), Some(T0 + 3 * DAY - 12 * HOUR));
        c.mark_reminder_sent();
        assert_eq!(c.reminder_due_at_ms(), None);
        c.on_move(T0 + 3 * DAY - HOUR).unwrap();
        assert_eq!(
            c.reminder_due_at_ms(),
            Some(T0 + 3 * DAY - HOUR + 3 * DAY - 12 * HOUR)
        );
        let one_day = ClockState::new(TimeControl::Correspondence { days: 1 }, Color::Black, T0);
        assert_eq!(one_day.reminder_due_at_ms(), Some(T0 + DAY - 4 * HOUR));
        assert_eq!(
            ClockState::new(live(30, 20), Color::White, T0).reminder_due_at_ms(),
            None
        );
    }

    #[test]
    fn flag_before_the_first_move_aborts_then_loses_unless_the_opponent_cannot_mate() {
        let start = Position::new();
        let mut c = ClockState::new(live(3, 2), Color::White, T0);
        assert_eq!(c.flag_outcome(&start), FlagOutcome::Aborted);
        c.on_move(T0 + SEC).unwrap();
        // Black has not moved yet either.
        assert_eq!(c.flag_outcome(&start), FlagOutcome::Aborted);
        c.on_move(T0 + 2 * SEC).unwrap();
        assert_eq!(
            c.flag_outcome(&start),
            FlagOutcome::Loss {
                loser: Color::White
            }
        );
        c.on_move(T0 + 3 * SEC).unwrap();
        assert_eq!(
            c.flag_outcome(&start),
            FlagOutcome::Loss {
                loser: Color::Black
            }
        );
    }

    #[test]
    fn flag_against_a_bare_khun_or_a_lone_met_is_a_draw_against_a_ruea_a_loss() {
        let mut c = ClockState::new(live(3, 2), Color::White, T0);
        c.on_move(T0 + SEC).unwrap();
        c.on_move(T0 + 2 * SEC).unwrap();
        assert_eq!(c.turn(), Color::White);
        let loss = FlagOutcome::Loss {
            loser: Color::White,
        };
        // White (to move) flags; what Black has left decides.
        for (fen, outcome) in [
            // Black has a bare Khun.
            ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", FlagOutcome::Draw),
            // A lone Met cannot mate a bare Khun...
            ("4k3/3m4/8/8/8/8/8/4K3 w - - 0 1", FlagOutcome::Draw),
            // ...but it can when White has a piece that may block its Khun in.
            ("4k3/3m4/8/8/8/8/8/R3K3 w - - 0 1", loss),
            // Nor can two Mets on squares of one colour.
            ("4k3/3m1m2/8/8/8/8/8/4K3 w - - 0 1", FlagOutcome::Draw),
            // Met and Bia can.
            ("4k3/3m4/8/8/p7/8/8/4K3 w - - 0 1", loss),
            // A Ruea can.
            ("4k3/8/8/8/8/8/8/r3K3 w - - 0 1", loss),
            // A Khon can.
            ("4k3/8/8/8/8/8/8/s3K3 w - - 0 1", loss),
            // A lone Ma cannot; a Ma beside a white Bia can (the Bia may block the Khun).
            ("4k3/8/8/8/8/8/8/n3K3 w - - 0 1", FlagOutcome::Draw),
            ("4k3/8/8/8/8/P7/8/n3K3 w - - 0 1", loss),
        ] {
            assert_eq!(c.flag_outcome(&pos(fen)), outcome, "{fen}");
        }
    }

    #[test]
    fn takeback_gives_both_sides_the_time_back_and_restarts_the_movers_turn() {
        let tc = live(10, 5);
        let mut c = ClockState::new(tc, Color::White, T0);
        c.on_move(T0 + 30 * SEC).unwrap();
        let after_first = c.snapshot();
        c.on_move(T0 + 90 * SEC).unwrap();
        // Black's move (60 s, +5 s) is taken back 20 s later, White accepting.
        c.take_back(after_first, T0 + 110 * SEC).unwrap();
        assert_eq!(c.turn(), Color::Black);
        assert_eq!(c.plies(), 1);
        assert_eq!(c.snapshot(), after_first);
        assert_eq!(c.snapshot().black_ms, 10 * MIN);
        assert_eq!(c.turn_started_ms(), T0 + 110 * SEC);
        assert_eq!(c.deadline_ms(), T0 + 110 * SEC + 10 * MIN);
        // Then the first ply: back to the start, White to move.
        c.take_back(Snapshot::initial(tc), T0 + 120 * SEC).unwrap();
        assert_eq!(c.plies(), 0);
        assert_eq!(c.turn(), Color::White);
        assert!(!c.has_moved(Color::White));
        assert_eq!(
            c.take_back(Snapshot::initial(tc), T0 + 121 * SEC),
            Err(ClockError::NothingToTakeBack)
        );
    }

    #[test]
    fn takeback_after_the_acceptors_flag_fell_is_refused() {
        let mut c = ClockState::new(live(3, 2), Color::White, T0);
        c.on_move(T0 + SEC).unwrap();
        let before = c;
        assert_eq!(
            c.take_back(Snapshot::initial(c.control()), T0 + SEC + 3 * MIN),
            Err(ClockError::OutOfTime)
        );
        assert_eq!(c, before);
    }

    #[test]
    fn correspondence_takeback_resets_the_reminder() {
        let tc = TimeControl::Correspondence { days: 7 };
        let mut c = ClockState::new(tc, Color::White, T0);
        c.on_move(T0 + HOUR).unwrap();
        c.mark_reminder_sent();
        c.take_back(Snapshot::initial(tc), T0 + 2 * HOUR).unwrap();
        assert_eq!(c.deadline_ms(), T0 + 2 * HOUR + 7 * DAY);
        assert_eq!(
            c.reminder_due_at_ms(),
            Some(T0 + 2 * HOUR + 7 * DAY - 28 * HOUR)
        );
    }

    #[test]
    fn downtime_is_charged_to_nobody() {
        let mut c = ClockState::new(live(3, 2), Color::White, T0);
        c.on_move(T0 + 10 * SEC).unwrap();
        let deadline = c.deadline_ms();
        c.shift(5 * MIN);
        assert_eq!(c.deadline_ms(), deadline + 5 * MIN);
        c.shift(-MIN);
        assert_eq!(c.deadline_ms(), deadline + 5 * MIN);

        // Black's turn started at T0+10 s; the last heartbeat at T0+60 s; back at T0+1 h.
        let mut c = ClockState::new(TimeControl::DEFAULT, Color::White, T0);
        c.on_move(T0 + 10 * SEC).unwrap();
        let (deadline, reminder) = (c.deadline_ms(), c.reminder_due_at_ms().unwrap());
        assert_eq!(c.resume(T0 + 60 * SEC, T0 + HOUR), HOUR - 60 * SEC);
        assert_eq!(c.deadline_ms(), deadline + HOUR - 60 * SEC);
        assert_eq!(c.reminder_due_at_ms(), Some(reminder + HOUR - 60 * SEC));
        // A turn that started after the last heartbeat restarts at start-up.
        let mut c = ClockState::new(live(3, 2), Color::White, T0 + 90 * SEC);
        assert_eq!(c.resume(T0 + 60 * SEC, T0 + HOUR), HOUR - 90 * SEC);
        assert_eq!(c.deadline_ms(), T0 + HOUR + 3 * MIN);
        // No downtime (or a clock set back): nothing moves.
        assert_eq!(c.resume(T0 + 2 * HOUR, T0 + HOUR), 0);
        assert_eq!(c.deadline_ms(), T0 + HOUR + 3 * MIN);
    }

    #[test]
    fn stored_form_round_trips_with_the_rows_turn_and_plies() {
        let mut c = ClockState::new(live(15, 10), Color::Black, T0);
        c.on_move(T0 + 7 * SEC).unwrap();
        c.on_move(T0 + 9 * SEC).unwrap();
        c.on_move(T0 + 19 * SEC).unwrap();
        let s = c.stored();
        assert_eq!(
            s,
            StoredClock {
                white_ms: 15 * MIN - 2 * SEC + 10 * SEC,
                black_ms: 15 * MIN - 7 * SEC + 10 * SEC - 10 * SEC + 10 * SEC,
                turn_started_ms: T0 + 19 * SEC,
                reminder_sent: false,
            }
        );
        let back = ClockState::from_stored(c.control(), s, Color::White, 3);
        assert_eq!(back, c);
        assert!(back.has_moved(Color::White) && back.has_moved(Color::Black));
    }

    #[test]
    fn engine_budget_follows_remaining_time_and_increment() {
        let max = Duration::from_secs(10);
        let c = ClockState::new(live(3, 2), Color::White, T0);
        // (180 s − 1 s) / 30 + 1.5 s.
        assert_eq!(c.engine_budget(T0, max), Duration::from_millis(5966 + 1500));
        assert_eq!(
            c.engine_budget(T0, Duration::from_secs(2)),
            Duration::from_secs(2)
        );
        // 2 s left: half of the usable second.
        assert_eq!(
            c.engine_budget(T0 + 178 * SEC, max),
            Duration::from_millis(500)
        );
        assert_eq!(c.engine_budget(T0 + 179_500, max), Duration::ZERO);
        assert_eq!(c.engine_budget(T0 + 10 * MIN, max), Duration::ZERO);
        let corr = ClockState::new(TimeControl::DEFAULT, Color::White, T0);
        assert_eq!(corr.engine_budget(T0, max), max);
        assert_eq!(
            corr.engine_budget(T0 + 3 * DAY - 3 * SEC, max),
            Duration::from_secs(1)
        );
    }

    #[test]
    fn garbage_from_the_store_never_panics() {
        let s = StoredClock {
            white_ms: i64::MAX,
            black_ms: i64::MIN,
            turn_started_ms: i64::MAX,
            reminder_sent: false,
        };
        let mut c = ClockState::from_stored(live(3, 2), s, Color::White, u32::MAX);
        assert_eq!(c.deadline_ms(), i64::MAX);
        c.shift(i64::MAX);
        let _ = c.status(i64::MIN);
        let _ = c.engine_budget(i64::MAX, Duration::MAX);
        assert!(c.on_move(0).is_ok());
        assert_eq!(c.remaining_ms(Color::Black, i64::MAX), 0);
        assert!(c.is_out_of_time(i64::MIN));
    }
}
