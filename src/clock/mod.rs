//! Clocks and deadlines: every game has a clock, and no game is held hostage.
//!
//! - [`control`]: the time controls players choose (`3d`, `10+5`) and their storage form.
//! - [`state`]: a game's clock as plain integers, and the pure rules on it (a move, a flag, a
//!   takeback, the bot's downtime, the engine's budget).
//! - [`time`]: where the time comes from (the system, or a fake clock for tests and the
//!   simulator).
//! - [`scheduler`]: the task that wakes for the earliest deadline and calls a handler, which
//!   does the versioned database update.
//!
//! Times are Unix milliseconds (`i64`); durations of the clock are milliseconds too.

pub mod control;
pub mod scheduler;
pub mod state;
pub mod time;

pub use control::{BadStoredTimeControl, Kind, Speed, TimeControl, UnknownTimeControl};
pub use scheduler::{DueHandler, DueKind, SchedulerHandle};
pub use state::{ClockError, ClockState, ClockStatus, FlagOutcome, Snapshot, StoredClock};
pub use time::{heartbeat, BoxFuture, FakeTime, SystemTimeSource, TimeSource};
