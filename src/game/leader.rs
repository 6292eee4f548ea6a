//! Work that exactly one of several bot processes on one database must do, claimed through a
//! lease row (`store::acquire_lease`, migration `0006_leases.sql`).
//!
//! Every process still does its own work in memory: its scheduler fires the deadlines of the
//! games it changed or loaded at start-up, its computer driver moves the turns its commits
//! handed out. Those writes are version-checked, so two processes doing the same one apply it
//! once. What this adds is for the work of a process that died: the holder of the `leader`
//! lease (renewed every [`LeaderSettings::every`], held for [`LeaderSettings::lease`]) sweeps
//! at each renewal for
//! - flags and correspondence reminders overdue by more than [`LeaderSettings::grace`]: they
//!   are armed on its own scheduler (due at once; the scheduler's versioned write decides);
//! - games left on the computer's turn for longer than the level's think time plus the grace:
//!   the turn is handed to its own driver (once per game version);
//! - challenges that expired, or were answered by `/accept` or `/decline`, whose message still
//!   shows its buttons: each is announced once, for the adapter to edit the message
//!   ([`GameService::close_challenge_messages`]; the challenge itself expires in the database,
//!   read by whichever process is asked);
//!
//! and only the holder re-posts the stored moves that never reached their channel (the Discord
//! adapter asks [`GameService::is_leader`]), so that two processes do not post them twice.
//!
//! With one process nobody else asks for the lease: it holds it from the start, and the sweep
//! finds nothing its own scheduler and driver have not done already. A process that stops
//! cleanly gives the lease up ([`GameService::close`]); one that dies keeps it until it
//! expires, then the next renewal of another process takes it over.
//!
//! Time is the service's time source (a fake one in tests), in Unix milliseconds.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::task::JoinHandle;

use super::computer::computer_turn;
use super::persist::{load, stored_clock};
use super::{ComputerLevel, GameService, ServiceError};
use crate::clock::{DueHandler as _, DueKind};
use crate::store;

/// The name of the lease row of the leader.
pub const LEADER_LEASE: &str = "leader";

/// The lease's timing and the sweep's patience.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaderSettings {
    /// How long a taken or renewed lease is held (default 15 s): a dead holder's work waits
    /// up to this long (plus [`LeaderSettings::every`]) for another process.
    pub lease: Duration,
    /// How often the lease is renewed (or tried for) and the holder sweeps (default 5 s).
    /// Well under [`LeaderSettings::lease`], so that a slow renewal does not lose it.
    pub every: Duration,
    /// How late work must be before the sweep picks it up (default 10 s): the process that
    /// armed it has had its chance.
    pub grace: Duration,
    /// The most the computer may think at each level, levels 1 to 9 (`think[level - 1]`): a
    /// turn waiting longer (plus the grace) is taken as orphaned. Default: zero (a turn is
    /// orphaned after the grace alone); the bot gives the computer's think times
    /// (`crate::computer::Settings::leader_settings`, through [`LeaderSettings::new`]).
    pub think: [Duration; 9],
}

impl Default for LeaderSettings {
    fn default() -> LeaderSettings {
        LeaderSettings::new(|_| Duration::ZERO)
    }
}

impl LeaderSettings {
    /// The default timing (a 15 s lease renewed every 5 s, 10 s of grace), with `think` the
    /// most the computer thinks at each level.
    #[must_use]
    pub fn new(think: impl Fn(ComputerLevel) -> Duration) -> LeaderSettings {
        let mut times = [Duration::ZERO; 9];
        for (time, level) in times.iter_mut().zip(ComputerLevel::all()) {
            *time = think(level);
        }
        LeaderSettings {
            lease: Duration::from_secs(15),
            every: Duration::from_secs(5),
            grace: Duration::from_secs(10),
            think: times,
        }
    }

    fn think_ms(&self, level: ComputerLevel) -> i64 {
        let i = usize::from(level.number()).saturating_sub(1);
        self.think.get(i).map_or(0, |&d| ms(d))
    }
}

fn ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// What one [`GameService::leader_tick`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sweep {
    /// This process holds the lease (after the tick); nothing else is done otherwise.
    pub leader: bool,
    /// Games with an overdue flag or reminder, handed to the scheduler.
    pub clocks: usize,
    /// Orphaned computer turns handed to the driver.
    pub computer_turns: usize,
    /// Challenge messages whose buttons are to go (the challenge expired or was answered by a
    /// command), announced ([`GameService::close_challenge_messages`]).
    pub challenge_messages: usize,
}

/// The service's side of the lease: its holder id, until when it holds it, the turns the sweep
/// handed out, the renewal task.
pub(super) struct Leader {
    /// This process's id in the lease row (random, with the process id for the logs).
    id: String,
    settings: LeaderSettings,
    /// Unix milliseconds until which the lease is ours (`i64::MIN`: not held).
    held_until: AtomicI64,
    /// Held at the last tick (for logging the changes).
    holding: AtomicBool,
    /// Game → the version whose computer turn the sweep handed out (each once).
    handed: Mutex<HashMap<i64, i64>>,
    /// Held through a tick: one at a time (the renewal task's and one called by hand, as the
    /// simulator does after moving its clock, whose caller then sees every announcement the
    /// sweep made).
    ticking: tokio::sync::Mutex<()>,
    task: Mutex<Option<JoinHandle<()>>>,
}

impl Leader {
    pub(super) fn new(settings: LeaderSettings) -> Leader {
        Leader {
            id: format!("{}-{:016x}", std::process::id(), rand::random::<u64>()),
            settings,
            held_until: AtomicI64::new(i64::MIN),
            holding: AtomicBool::new(false),
            handed: Mutex::default(),
            ticking: tokio::sync::Mutex::default(),
            task: Mutex::default(),
        }
    }
}

impl Default for Leader {
    fn default() -> Leader {
        Leader::new(LeaderSettings::default())
    }
}

impl GameService {
    /// The same service with other lease timings and think times (a new holder id). Call it
    /// before [`GameService::start_leader`].
    #[must_use]
    pub fn with_leader_settings(mut self, settings: LeaderSettings) -> GameService {
        self.leader = Arc::new(Leader::new(settings));
        self
    }

    /// This service's id in the lease row.
    #[must_use]
    pub fn holder_id(&self) -> &str {
        &self.leader.id
    }

    /// Whether this service holds the leader lease now (by its time source).
    #[must_use]
    pub fn is_leader(&self) -> bool {
        self.now_ms() < self.leader.held_until.load(Ordering::SeqCst)
    }

    /// Tries for the lease (or renews it) now, and sweeps if it is ours (see the module
    /// documentation). The renewal task calls it every [`LeaderSettings::every`]; tests call
    /// it by hand.
    ///
    /// # Errors
    /// Database errors (the lease then counts as not renewed: it lapses at its expiry).
    pub async fn leader_tick(&self) -> Result<Sweep, ServiceError> {
        let leader = &self.leader;
        let _one_at_a_time = leader.ticking.lock().await;
        let now_ms = self.now_ms();
        let until = now_ms.saturating_add(ms(leader.settings.lease));
        let mut tx = self.store.begin_write().await?;
        let held = store::acquire_lease(&mut tx, LEADER_LEASE, &leader.id, now_ms, until).await?;
        tx.commit().await?;
        leader
            .held_until
            .store(if held { until } else { i64::MIN }, Ordering::SeqCst);
        if leader.holding.swap(held, Ordering::SeqCst) != held {
            if held {
                tracing::info!(holder = %leader.id, "this process leads: it sweeps for orphaned work");
            } else {
                tracing::info!(holder = %leader.id, "another process leads now");
            }
        }
        if !held {
            leader
                .handed
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clear();
            return Ok(Sweep::default());
        }
        let clocks = self.sweep_clocks(now_ms).await?;
        let computer_turns = self.sweep_computer(now_ms).await?;
        let challenge_messages = self.close_challenge_messages().await?;
        Ok(Sweep {
            leader: true,
            clocks,
            computer_turns,
            challenge_messages,
        })
    }

    /// Arms every flag and reminder overdue by more than the grace (on this process's
    /// scheduler, or done at once when its clocks are not started). Returns how many games.
    async fn sweep_clocks(&self, now_ms: i64) -> Result<usize, ServiceError> {
        let before = now_ms.saturating_sub(ms(self.leader.settings.grace));
        let rows = {
            let mut conn = self.store.read_conn().await?;
            store::clock_candidates(&mut conn, before).await?
        };
        let mut overdue = 0;
        for row in rows {
            let clock = stored_clock(&row);
            let flag = clock.deadline_ms() <= before;
            let reminder = clock.reminder_due_at_ms().is_some_and(|at| at <= before);
            if !flag && !reminder {
                continue;
            }
            overdue += 1;
            tracing::debug!(game = row.id.0, flag, reminder, "an overdue clock");
            match self.clocks.scheduler() {
                Some(scheduler) => scheduler.arm(row.id.0, row.version, &clock),
                None => {
                    let kind = if flag {
                        DueKind::Flag
                    } else {
                        DueKind::Reminder
                    };
                    self.on_due(row.id.0, kind, row.version).await;
                }
            }
        }
        Ok(overdue)
    }

    /// Hands to the driver every computer turn left waiting longer than its level's think time
    /// plus the grace, each game version once. Returns how many.
    async fn sweep_computer(&self, now_ms: i64) -> Result<usize, ServiceError> {
        let settings = &self.leader.settings;
        let before = now_ms.saturating_sub(ms(settings.grace));
        let mut tx = self.store.begin_read().await?;
        let rows = store::computer_candidates(&mut tx, before).await?;
        let mut waiting = Vec::new();
        for row in rows {
            let Some(seat) = row.computer else { continue };
            if row
                .clock
                .turn_started_ms
                .saturating_add(settings.think_ms(seat.level))
                > before
            {
                continue;
            }
            let g = load(&self.cache, &mut tx, row).await?;
            waiting.extend(computer_turn(&g));
        }
        tx.commit().await?;
        let mut handed = self
            .leader
            .handed
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let live: HashSet<i64> = waiting.iter().map(|t| t.game_id.0).collect();
        handed.retain(|game, _| live.contains(game));
        let mut count = 0;
        for turn in waiting {
            if handed.insert(turn.game_id.0, turn.version) == Some(turn.version) {
                continue;
            }
            tracing::info!(
                game = turn.game_id.0,
                "a computer turn left waiting: taken up"
            );
            let _ = self.turns.tx.send(turn);
            count += 1;
        }
        Ok(count)
    }

    /// Starts the lease: one [`GameService::leader_tick`] now, then one every
    /// [`LeaderSettings::every`] by the service's time source, until
    /// [`GameService::close`]. Call it after [`GameService::start_clocks`]. Returns whether
    /// this process leads from the start.
    ///
    /// # Errors
    /// The first tick's database error (nothing is started then).
    pub async fn start_leader(&self) -> Result<bool, ServiceError> {
        let first = self.leader_tick().await?;
        let svc = self.clone();
        let task = tokio::spawn(async move {
            let every = ms(svc.leader.settings.every).max(1);
            let time = Arc::clone(&svc.time);
            let mut next = time.now_ms().saturating_add(every);
            loop {
                time.sleep_until(next).await;
                next = time.now_ms().saturating_add(every);
                if let Err(e) = svc.leader_tick().await {
                    tracing::warn!(error = %e, "cannot renew the leader lease");
                }
            }
        });
        let old = self
            .leader
            .task
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .replace(task);
        if let Some(old) = old {
            old.abort();
        }
        Ok(first.leader)
    }

    /// Stops the renewals and gives the lease up if held (a failure is logged: the lease then
    /// lapses at its expiry).
    pub(super) async fn stop_leader(&self) {
        let task = self
            .leader
            .task
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        let Some(task) = task else { return };
        task.abort();
        // The task may be in the middle of a tick: let it end before the lease is released.
        let _ = task.await;
        self.leader.held_until.store(i64::MIN, Ordering::SeqCst);
        let released = async {
            let mut tx = self.store.begin_write().await?;
            let held = store::release_lease(&mut tx, LEADER_LEASE, &self.leader.id).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(held)
        };
        match released.await {
            Ok(true) => tracing::info!(holder = %self.leader.id, "the leader lease is given up"),
            Ok(false) => {}
            Err(e) => tracing::warn!(error = %e, "cannot give the leader lease up"),
        }
    }
}
