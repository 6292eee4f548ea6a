//! The clocks' side of every game: the scheduler's flags and reminders, its rebuild at
//! start-up with the bot's downtime given back, and the heartbeat that measures the downtime.
//!
//! The scheduler only says when to look; each due entry is a versioned write here
//! ([`GameService::on_due`]): an entry armed at an older version than the stored game's does
//! nothing (the change that bumped the version re-armed the game), and of a flag and a move at
//! once the database applies whichever commits first. Every change of a game re-arms it after
//! its commit ([`GameService::changed`]); a finished game's entries are cancelled.
//!
//! Downtime (docs: `/rules topic:time`): the bot stores a heartbeat every
//! [`HEARTBEAT_EVERY`]; at start-up every active game's current turn is moved by the time since
//! the last heartbeat (stored as one downtime, which every read of a game adds:
//! [`store::record_downtime`]), in one transaction with the heartbeat itself, before the
//! scheduler is armed. So a deadline that would have passed while the bot was down is never announced, and
//! nobody is charged for the downtime.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::task::JoinHandle;

use super::loaded::Loaded;
use super::persist::{save, stored_clock};
use super::{Announcement, GameId, GameService, ServiceError};
use crate::clock::{heartbeat, scheduler, DueHandler, DueKind, SchedulerHandle};
use crate::store::{self, GameState};

/// How often the bot stores that it is alive (the downtime given back at the next start-up is
/// counted from the last beat, so up to this much time before a crash is given back too).
pub const HEARTBEAT_EVERY: Duration = Duration::from_secs(5);

/// How long after a failed flag or reminder (a database error) it is tried again.
const RETRY_AFTER_MS: i64 = 5_000;

/// How often a due entry is tried when a request changed the game meanwhile.
const MAX_ATTEMPTS: usize = 3;

/// The running scheduler and heartbeat (none until [`GameService::start_clocks`]).
#[derive(Default)]
pub(super) struct ClockTasks {
    running: Mutex<Option<Running>>,
}

struct Running {
    scheduler: SchedulerHandle,
    scheduler_task: JoinHandle<()>,
    heartbeat_task: JoinHandle<()>,
}

/// What [`GameService::start_clocks`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockStart {
    /// Active games whose clocks were armed.
    pub games: usize,
    /// Milliseconds the bot was down (since its last heartbeat), given back to every active
    /// game's side to move; 0 on the first start.
    pub downtime_ms: i64,
}

impl ClockTasks {
    pub(super) fn scheduler(&self) -> Option<SchedulerHandle> {
        let running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        running.as_ref().map(|r| r.scheduler.clone())
    }
}

impl GameService {
    /// Starts the clocks: gives every active game the bot's downtime back (since the last
    /// heartbeat) and stores a heartbeat, in one transaction; then starts the scheduler, arms
    /// it from every active game's clock, and starts the heartbeat (every
    /// [`HEARTBEAT_EVERY`]). Call once, on a tokio runtime, before answering requests. Without
    /// it (tests of other things) games keep their clocks but nothing fires.
    ///
    /// # Errors
    /// Database errors (nothing is started then).
    pub async fn start_clocks(&self) -> Result<ClockStart, ServiceError> {
        let now_ms = self.now_ms();
        let mut tx = self.store.begin_write().await?;
        store::lock_clocks(&mut tx).await?;
        let last_alive = store::last_alive(&mut tx).await?;
        let downtime_ms = match last_alive {
            Some(last) => store::record_downtime(&mut tx, last, now_ms).await?,
            None => 0,
        };
        store::set_last_alive(&mut tx, now_ms).await?;
        let games = store::active_games(&mut tx).await?;
        tx.commit().await?;

        let (handle, scheduler_task) =
            scheduler::spawn(Arc::clone(&self.time), Arc::new(self.clone()));
        for row in &games {
            handle.arm(row.id.0, row.version, &stored_clock(row));
        }
        let heartbeat_task = {
            let svc = self.clone();
            tokio::spawn(async move {
                let time = Arc::clone(&svc.time);
                heartbeat(&*time, HEARTBEAT_EVERY, |now| svc.beat(now)).await;
            })
        };
        let old = self
            .clocks
            .running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .replace(Running {
                scheduler: handle,
                scheduler_task,
                heartbeat_task,
            });
        if let Some(old) = old {
            stop(old).await;
        }
        Ok(ClockStart {
            games: games.len(),
            downtime_ms,
        })
    }

    /// Stores a heartbeat at `now_ms` (a failure is logged: the next beat tries again).
    async fn beat(&self, now_ms: i64) {
        let stored = async {
            let mut tx = self.store.begin_write().await?;
            store::set_last_alive(&mut tx, now_ms).await?;
            tx.commit().await
        };
        if let Err(e) = stored.await {
            tracing::warn!(error = %e, "cannot store the heartbeat");
        }
    }

    /// Stops the scheduler and the heartbeat (handler calls in progress finish first).
    pub(super) async fn stop_clocks(&self) {
        let running = self
            .clocks
            .running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(running) = running {
            stop(running).await;
        }
    }

    /// Completes once the scheduler has handled everything due at the time source's current
    /// time, and the announcements of those changes have been queued. Tests and the simulator
    /// call it after moving a fake clock. At once when the clocks are not started.
    pub async fn settled(&self) {
        if let Some(scheduler) = self.clocks.scheduler() {
            scheduler.settled().await;
        }
    }

    /// The number of entries the scheduler holds (0 when the clocks are not started).
    pub async fn scheduled(&self) -> usize {
        match self.clocks.scheduler() {
            Some(scheduler) => scheduler.pending().await,
            None => 0,
        }
    }

    /// After the commit of a change to `g`: re-arms its clock, or cancels its entries when it
    /// is over.
    pub(super) fn changed(&self, g: &Loaded) {
        let Some(scheduler) = self.clocks.scheduler() else {
            return;
        };
        if g.row.state == GameState::Active {
            scheduler.arm(g.row.id.0, g.row.version, &g.clock);
        } else {
            scheduler.cancel(g.row.id.0);
        }
    }

    /// Reads game `id` afresh for a due entry (`None`: gone or over).
    async fn load_for_due(&self, id: i64, now_ms: i64) -> Result<Option<Loaded>, ServiceError> {
        let mut tx = self.store.begin_read().await?;
        let Some(row) = store::game(&mut tx, GameId(id)).await? else {
            return Ok(None);
        };
        if row.state != GameState::Active {
            return Ok(None);
        }
        let mut g = super::persist::load(&self.cache, &mut tx, row).await?;
        tx.commit().await?;
        g.now_ms = now_ms;
        Ok(Some(g))
    }

    /// One attempt at `kind` for game `id` armed at `version`: `Ok(true)` when done (or
    /// nothing to do), `Ok(false)` after a lost race.
    async fn try_due(&self, id: i64, kind: DueKind, version: i64) -> Result<bool, ServiceError> {
        let now_ms = self.now_ms();
        let Some(mut g) = self.load_for_due(id, now_ms).await? else {
            return Ok(true);
        };
        if g.row.version != version {
            // Changed since it was armed: that change armed the game again.
            return Ok(true);
        }
        if g.clock.is_out_of_time(now_ms) {
            // A reminder entry that finds the flag fallen ends the game too: one write.
            return match self.time_out(&mut g, now_ms).await {
                Ok(()) => Ok(true),
                Err(ServiceError::Conflict) => Ok(false),
                Err(e) => Err(e),
            };
        }
        match kind {
            DueKind::Flag => {
                // The deadline moved (downtime given back): look again then.
                self.changed(&g);
                Ok(true)
            }
            DueKind::Reminder => {
                match g.clock.reminder_due_at_ms() {
                    Some(at) if at <= now_ms => {}
                    _ => {
                        self.changed(&g);
                        return Ok(true);
                    }
                }
                g.clock.mark_reminder_sent();
                match save(&self.store, &self.cache, &mut g, now_ms).await {
                    Ok(()) => {}
                    Err(ServiceError::Conflict) => return Ok(false),
                    Err(e) => return Err(e),
                }
                self.changed(&g);
                let turn = g.m.position().turn();
                self.announce(Announcement::Reminder {
                    channel: g.channel(),
                    game: g.row.id,
                    user: g.player(turn),
                    deadline_ms: g.clock.deadline_ms(),
                    locale: self.announcement_locale(g.row.id).await,
                });
                Ok(true)
            }
        }
    }
}

impl DueHandler for GameService {
    /// A flag or a reminder is due: a versioned write, then the announcement (see the module
    /// documentation). A database error is logged and the entry tried again a little later.
    async fn on_due(&self, game_id: i64, kind: DueKind, version: i64) {
        for _ in 0..MAX_ATTEMPTS {
            match self.try_due(game_id, kind, version).await {
                Ok(true) => return,
                Ok(false) => {}
                Err(e) => {
                    tracing::error!(game = game_id, ?kind, error = %e, "a due clock entry failed");
                    if let Some(scheduler) = self.clocks.scheduler() {
                        let at = self.now_ms().saturating_add(RETRY_AFTER_MS);
                        scheduler.schedule(game_id, kind, at, version);
                    }
                    return;
                }
            }
        }
    }
}

async fn stop(running: Running) {
    running.heartbeat_task.abort();
    running.scheduler.shutdown();
    if let Err(e) = running.scheduler_task.await {
        tracing::error!(error = %e, "the scheduler task failed");
    }
}
