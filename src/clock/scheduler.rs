//! The scheduler: one tokio task that wakes for the earliest due instant (a flag falling, a
//! correspondence reminder) and hands it to a [`DueHandler`], which does the work in a
//! versioned database update.
//!
//! The scheduler only decides when to look; the database decides what happens. Every change
//! of a game re-arms its entries through the [`SchedulerHandle`] (an entry replaces the
//! game's earlier one of the same kind), so at most one entry per game and kind exists and
//! memory stays proportional to the number of active games. At start-up the service rebuilds
//! the entries from the stored clocks. A fired entry is gone; a handler whose work failed
//! schedules it again.
//!
//! A flag and a move at once never both apply: the entry carries the game's version when it
//! was armed, and the handler's update applies only if the game is still at the version it
//! read (`UPDATE … WHERE version = $n`); whichever of the move and the flag commits first
//! wins, and the other finds the game changed.

use std::collections::{BTreeSet, HashMap};
use std::future::Future;
use std::sync::Arc;

use tokio::sync::{mpsc, oneshot};
use tokio::task::{JoinHandle, JoinSet};

use super::state::ClockState;
use super::time::TimeSource;

/// What is due for a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DueKind {
    /// The side to move's time runs out ([`ClockState::deadline_ms`]).
    Flag,
    /// The correspondence reminder ([`ClockState::reminder_due_at_ms`]).
    Reminder,
}

impl DueKind {
    /// Every kind.
    pub const ALL: [DueKind; 2] = [DueKind::Flag, DueKind::Reminder];
}

/// Does the work of a due entry.
pub trait DueHandler: Send + Sync + 'static {
    /// `kind` is due for game `game_id` (its `games` row id), armed at the game's `version`.
    ///
    /// The handler reads the game afresh and checks what is due from the stored clock
    /// ([`ClockState::is_out_of_time`], [`ClockState::reminder_due_at_ms`]), not from the
    /// entry: a change after `version` may have moved or removed the deadline (and re-armed
    /// it). It writes with the version it read, and on a lost race reads again.
    fn on_due(&self, game_id: i64, kind: DueKind, version: i64) -> impl Future<Output = ()> + Send;
}

/// Handler calls in progress at once, at most: a burst of deadlines (10,000 games) does not
/// start thousands of database transactions together.
const MAX_IN_FLIGHT: usize = 16;

enum Command {
    Schedule {
        game_id: i64,
        kind: DueKind,
        at_ms: i64,
        version: i64,
    },
    Unschedule {
        game_id: i64,
        kind: DueKind,
    },
    Cancel {
        game_id: i64,
    },
    Settled(oneshot::Sender<()>),
    Pending(oneshot::Sender<usize>),
    Shutdown,
}

/// Changes the scheduler's entries. Cheap to clone; the methods queue the change and return
/// at once (the scheduler applies changes in the order sent). After the scheduler has stopped
/// they do nothing.
#[derive(Clone, Debug)]
pub struct SchedulerHandle {
    tx: mpsc::UnboundedSender<Command>,
}

impl SchedulerHandle {
    /// Game `game_id`'s `kind` is due at Unix milliseconds `at_ms` (armed at the game's
    /// `version`), replacing its earlier entry of that kind. An instant already past is due at
    /// once.
    pub fn schedule(&self, game_id: i64, kind: DueKind, at_ms: i64, version: i64) {
        self.send(Command::Schedule {
            game_id,
            kind,
            at_ms,
            version,
        });
    }

    /// Removes game `game_id`'s entry of `kind`, if any.
    pub fn unschedule(&self, game_id: i64, kind: DueKind) {
        self.send(Command::Unschedule { game_id, kind });
    }

    /// Removes all of game `game_id`'s entries (a finished game).
    pub fn cancel(&self, game_id: i64) {
        self.send(Command::Cancel { game_id });
    }

    /// Arms game `game_id` from its clock after a change stored at `version`: the flag at the
    /// deadline and the reminder when one is due this turn (else none).
    pub fn arm(&self, game_id: i64, version: i64, clock: &ClockState) {
        self.schedule(game_id, DueKind::Flag, clock.deadline_ms(), version);
        match clock.reminder_due_at_ms() {
            Some(at_ms) => self.schedule(game_id, DueKind::Reminder, at_ms, version),
            None => self.unschedule(game_id, DueKind::Reminder),
        }
    }

    /// Completes once the scheduler has applied every change sent before, handed every entry
    /// due by the time source's current time to the handler, and those calls (and any they
    /// caused) have returned. Tests and the simulator call it after moving a fake clock.
    pub async fn settled(&self) {
        let (tx, rx) = oneshot::channel();
        self.send(Command::Settled(tx));
        // An error means the scheduler has stopped: nothing more will happen either.
        let _ = rx.await;
    }

    /// The number of entries waiting (0 once the scheduler has stopped).
    pub async fn pending(&self) -> usize {
        let (tx, rx) = oneshot::channel();
        self.send(Command::Pending(tx));
        rx.await.unwrap_or(0)
    }

    /// Stops the scheduler: nothing more fires; handler calls in progress finish first (await
    /// the task's `JoinHandle` for that).
    pub fn shutdown(&self) {
        self.send(Command::Shutdown);
    }

    fn send(&self, command: Command) {
        if self.tx.send(command).is_err() {
            tracing::debug!("the scheduler has stopped");
        }
    }
}

/// Starts the scheduler on the current tokio runtime, with `time` as its clock and `handler`
/// for due entries. It runs until [`SchedulerHandle::shutdown`] or until every handle is
/// dropped; its `JoinHandle` completes when it has stopped.
pub fn spawn<H: DueHandler>(
    time: Arc<dyn TimeSource>,
    handler: Arc<H>,
) -> (SchedulerHandle, JoinHandle<()>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let task = tokio::spawn(run(time, handler, rx));
    (SchedulerHandle { tx }, task)
}

/// The entries, one per game and kind: ordered by instant in a `BTreeSet` (a priority queue
/// that can also remove a replaced entry at once, so replaced entries do not pile up as they
/// would in a lazily cleaned binary heap).
#[derive(Default)]
struct Queue {
    /// (game, kind) → (instant, version).
    by_key: HashMap<(i64, DueKind), (i64, i64)>,
    /// (instant, game, kind): earliest first, ties by game id.
    order: BTreeSet<(i64, i64, DueKind)>,
}

impl Queue {
    fn insert(&mut self, game_id: i64, kind: DueKind, at_ms: i64, version: i64) {
        if let Some((old, _)) = self.by_key.insert((game_id, kind), (at_ms, version)) {
            self.order.remove(&(old, game_id, kind));
        }
        self.order.insert((at_ms, game_id, kind));
    }

    fn remove(&mut self, game_id: i64, kind: DueKind) {
        if let Some((at_ms, _)) = self.by_key.remove(&(game_id, kind)) {
            self.order.remove(&(at_ms, game_id, kind));
        }
    }

    fn next_at(&self) -> Option<i64> {
        self.order.first().map(|e| e.0)
    }

    /// Takes the earliest entry due at `now_ms`: (game, kind, version).
    fn pop_due(&mut self, now_ms: i64) -> Option<(i64, DueKind, i64)> {
        let &(at_ms, game_id, kind) = self.order.first()?;
        if at_ms > now_ms {
            return None;
        }
        self.order.pop_first();
        let (_, version) = self.by_key.remove(&(game_id, kind))?;
        Some((game_id, kind, version))
    }

    fn len(&self) -> usize {
        self.by_key.len()
    }
}

async fn run<H: DueHandler>(
    time: Arc<dyn TimeSource>,
    handler: Arc<H>,
    mut rx: mpsc::UnboundedReceiver<Command>,
) {
    let mut queue = Queue::default();
    let mut running = JoinSet::new();
    let mut waiting: Vec<oneshot::Sender<()>> = Vec::new();
    let mut open = true;
    loop {
        if open {
            let now = time.now_ms();
            while running.len() < MAX_IN_FLIGHT {
                let Some((game_id, kind, version)) = queue.pop_due(now) else {
                    break;
                };
                let handler = Arc::clone(&handler);
                running.spawn(async move { handler.on_due(game_id, kind, version).await });
            }
            let idle =
                running.is_empty() && rx.is_empty() && queue.next_at().is_none_or(|at| at > now);
            if idle {
                for w in waiting.drain(..) {
                    let _ = w.send(());
                }
            }
        } else if running.is_empty() {
            return;
        }
        // With the handler calls at their limit, the next wake-up is a call returning.
        let next = queue
            .next_at()
            .filter(|_| open && running.len() < MAX_IN_FLIGHT);
        tokio::select! {
            command = rx.recv(), if open => match command {
                Some(Command::Schedule { game_id, kind, at_ms, version }) => {
                    queue.insert(game_id, kind, at_ms, version);
                }
                Some(Command::Unschedule { game_id, kind }) => queue.remove(game_id, kind),
                Some(Command::Cancel { game_id }) => {
                    for kind in DueKind::ALL {
                        queue.remove(game_id, kind);
                    }
                }
                Some(Command::Settled(tx)) => waiting.push(tx),
                Some(Command::Pending(tx)) => {
                    let _ = tx.send(queue.len());
                }
                Some(Command::Shutdown) | None => {
                    open = false;
                    queue = Queue::default();
                }
            },
            Some(done) = running.join_next() => {
                if let Err(e) = done {
                    tracing::error!(error = %e, "a scheduled handler call failed");
                }
            }
            () = time.sleep_until(next.unwrap_or(i64::MAX)), if next.is_some() => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::{FakeTime, SystemTimeSource, TimeControl};
    use makruk::Color;
    use std::sync::Mutex;
    use std::time::Duration;

    const T0: i64 = 1_700_000_000_000;

    /// A handler recording (game, kind, version, time of the call), and telling `fired` of
    /// each call's game.
    #[derive(Debug)]
    struct Recorder {
        time: Arc<dyn TimeSource>,
        calls: Mutex<Vec<(i64, DueKind, i64, i64)>>,
        fired: Option<mpsc::UnboundedSender<i64>>,
    }

    impl Recorder {
        fn new(time: &Arc<dyn TimeSource>) -> (Arc<Recorder>, mpsc::UnboundedReceiver<i64>) {
            let (tx, rx) = mpsc::unbounded_channel();
            let rec = Recorder {
                time: Arc::clone(time),
                calls: Mutex::new(Vec::new()),
                fired: Some(tx),
            };
            (Arc::new(rec), rx)
        }

        fn take(&self) -> Vec<(i64, DueKind, i64)> {
            let calls = std::mem::take(&mut *self.calls.lock().unwrap());
            calls.into_iter().map(|(g, k, v, _)| (g, k, v)).collect()
        }
    }

    impl DueHandler for Recorder {
        async fn on_due(&self, game_id: i64, kind: DueKind, version: i64) {
            let now = self.time.now_ms();
            self.calls
                .lock()
                .unwrap()
                .push((game_id, kind, version, now));
            if let Some(fired) = &self.fired {
                let _ = fired.send(game_id);
            }
        }
    }

    fn start() -> (Arc<FakeTime>, Arc<Recorder>, SchedulerHandle) {
        let fake = Arc::new(FakeTime::new(T0));
        let time: Arc<dyn TimeSource> = fake.clone();
        let rec = Arc::new(Recorder {
            time: Arc::clone(&time),
            calls: Mutex::new(Vec::new()),
            fired: None,
        });
        let (handle, _task) = spawn(time, Arc::clone(&rec));
        (fake, rec, handle)
    }

    #[tokio::test]
    async fn moving_the_fake_clock_alone_wakes_the_scheduler() {
        let fake = Arc::new(FakeTime::new(T0));
        let time: Arc<dyn TimeSource> = fake.clone();
        let (rec, mut fired) = Recorder::new(&time);
        let (h, _task) = spawn(time, rec);
        h.schedule(1, DueKind::Flag, T0 + 3 * 86_400_000, 0);
        h.schedule(2, DueKind::Flag, T0 + 4 * 86_400_000, 0);
        assert_eq!(h.pending().await, 2);
        // No command after this: only the clock wakes the scheduler.
        fake.advance(Duration::from_secs(3 * 86_400));
        let first = tokio::time::timeout(Duration::from_secs(10), fired.recv()).await;
        assert_eq!(first, Ok(Some(1)));
        assert_eq!(h.pending().await, 1);
    }

    #[tokio::test]
    async fn fires_in_deadline_order_when_the_clock_reaches_each() {
        let (time, rec, h) = start();
        for (game, at) in [(3, 300), (1, 100), (2, 200), (4, 200)] {
            h.schedule(game, DueKind::Flag, T0 + at, 7);
        }
        h.settled().await;
        assert!(rec.take().is_empty());
        time.set(T0 + 99);
        h.settled().await;
        assert!(rec.take().is_empty());
        time.set(T0 + 100);
        h.settled().await;
        assert_eq!(rec.take(), [(1, DueKind::Flag, 7)]);
        // One wake-up past several instants: earliest first, ties by game id.
        time.set(T0 + 1000);
        h.settled().await;
        assert_eq!(
            rec.take(),
            [
                (2, DueKind::Flag, 7),
                (4, DueKind::Flag, 7),
                (3, DueKind::Flag, 7)
            ]
        );
        assert_eq!(h.pending().await, 0);
        // An instant already past is due at once.
        h.schedule(5, DueKind::Reminder, T0, 1);
        h.settled().await;
        assert_eq!(rec.take(), [(5, DueKind::Reminder, 1)]);
    }

    #[tokio::test]
    async fn rearming_replaces_and_a_replaced_or_cancelled_entry_never_fires() {
        let (time, rec, h) = start();
        h.schedule(1, DueKind::Flag, T0 + 100, 1);
        h.schedule(1, DueKind::Flag, T0 + 200, 2);
        h.schedule(2, DueKind::Flag, T0 + 100, 1);
        h.schedule(2, DueKind::Reminder, T0 + 50, 1);
        h.cancel(2);
        h.schedule(3, DueKind::Flag, T0 + 100, 1);
        h.schedule(3, DueKind::Reminder, T0 + 50, 1);
        h.unschedule(3, DueKind::Reminder);
        // Re-armed earlier also replaces.
        h.schedule(4, DueKind::Flag, T0 + 500, 1);
        h.schedule(4, DueKind::Flag, T0 + 150, 2);
        assert_eq!(h.pending().await, 3);
        time.set(T0 + 199);
        h.settled().await;
        assert_eq!(rec.take(), [(3, DueKind::Flag, 1), (4, DueKind::Flag, 2)]);
        time.set(T0 + 10_000);
        h.settled().await;
        assert_eq!(rec.take(), [(1, DueKind::Flag, 2)]);
        assert_eq!(h.pending().await, 0);
    }

    #[tokio::test]
    async fn arm_schedules_the_flag_and_the_correspondence_reminder() {
        let (time, rec, h) = start();
        let mut clock = ClockState::new(TimeControl::DEFAULT, Color::White, T0);
        h.arm(9, 1, &clock);
        assert_eq!(h.pending().await, 2);
        time.set(clock.reminder_due_at_ms().unwrap());
        h.settled().await;
        assert_eq!(rec.take(), [(9, DueKind::Reminder, 1)]);
        // The reminder was sent; a move re-arms both for the new turn.
        clock.mark_reminder_sent();
        h.arm(9, 2, &clock);
        assert_eq!(h.pending().await, 1);
        clock.on_move(time.now_ms()).unwrap();
        h.arm(9, 3, &clock);
        assert_eq!(h.pending().await, 2);
        time.set(clock.deadline_ms());
        h.settled().await;
        assert_eq!(
            rec.take(),
            [(9, DueKind::Reminder, 3), (9, DueKind::Flag, 3)]
        );
        // A live clock has no reminder.
        let live = TimeControl::Live {
            minutes: 3,
            increment_secs: 2,
        };
        h.schedule(10, DueKind::Reminder, i64::MAX, 1);
        h.arm(10, 2, &ClockState::new(live, Color::White, time.now_ms()));
        assert_eq!(h.pending().await, 1);
    }

    /// Asks for a retry of each reminder as a flag due at once, from inside the handler.
    struct Chaining {
        handle: Mutex<Option<SchedulerHandle>>,
        calls: Mutex<Vec<(i64, DueKind)>>,
    }

    impl DueHandler for Chaining {
        async fn on_due(&self, game_id: i64, kind: DueKind, version: i64) {
            tokio::task::yield_now().await;
            self.calls.lock().unwrap().push((game_id, kind));
            if kind == DueKind::Reminder {
                let handle = self.handle.lock().unwrap().clone().unwrap();
                handle.schedule(game_id, DueKind::Flag, i64::MIN, version);
            }
        }
    }

    #[tokio::test]
    async fn settled_waits_for_the_handlers_and_what_they_schedule() {
        let time = Arc::new(FakeTime::new(T0));
        let handler = Arc::new(Chaining {
            handle: Mutex::new(None),
            calls: Mutex::new(Vec::new()),
        });
        let (h, task) = spawn(time.clone(), Arc::clone(&handler));
        *handler.handle.lock().unwrap() = Some(h.clone());
        for game in 0..40 {
            h.schedule(game, DueKind::Reminder, T0 + 10, 0);
        }
        time.set(T0 + 10);
        h.settled().await;
        let calls = handler.calls.lock().unwrap().clone();
        assert_eq!(calls.len(), 80);
        for game in 0..40 {
            assert!(calls.contains(&(game, DueKind::Flag)));
        }
        h.shutdown();
        handler.handle.lock().unwrap().take();
        task.await.unwrap();
        assert_eq!(h.pending().await, 0);
        h.settled().await;
    }

    #[tokio::test]
    async fn ten_thousand_games_rearmed_keep_one_entry_per_game_and_kind() {
        let (time, rec, h) = start();
        let games = 10_000;
        for version in 0..5 {
            for game in 0..games {
                let at = T0 + 1000 + (game * 7919) % 100_000 + version;
                h.schedule(game, DueKind::Flag, at, version);
                h.schedule(game, DueKind::Reminder, at - 500, version);
            }
        }
        assert_eq!(h.pending().await, 2 * games as usize);
        time.set(T0 + 200_000);
        h.settled().await;
        let calls = rec.calls.lock().unwrap().clone();
        assert_eq!(calls.len(), 2 * games as usize);
        assert!(calls.iter().all(|c| c.2 == 4));
        let mut seen: Vec<(i64, DueKind)> = calls.iter().map(|c| (c.0, c.1)).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 2 * games as usize);
        assert_eq!(h.pending().await, 0);
    }

    #[tokio::test]
    async fn a_panicking_handler_call_does_not_stop_the_scheduler() {
        struct Panicky(Mutex<Vec<i64>>);
        impl DueHandler for Panicky {
            async fn on_due(&self, game_id: i64, _: DueKind, _: i64) {
                assert_ne!(game_id, 1, "game 1");
                self.0.lock().unwrap().push(game_id);
            }
        }
        let time = Arc::new(FakeTime::new(T0));
        let handler = Arc::new(Panicky(Mutex::new(Vec::new())));
        let (h, _task) = spawn(time.clone(), Arc::clone(&handler));
        h.schedule(1, DueKind::Flag, T0 + 1, 0);
        h.schedule(2, DueKind::Flag, T0 + 2, 0);
        time.set(T0 + 2);
        h.settled().await;
        assert_eq!(*handler.0.lock().unwrap(), [2]);
    }

    #[tokio::test]
    async fn stops_when_every_handle_is_dropped() {
        let (h, task) = spawn(
            Arc::new(FakeTime::new(T0)),
            Arc::new(Recorder {
                time: Arc::new(FakeTime::new(T0)),
                calls: Mutex::new(Vec::new()),
                fired: None,
            }),
        );
        h.schedule(1, DueKind::Flag, T0 + 1, 0);
        drop(h);
        task.await.unwrap();
    }

    #[tokio::test]
    async fn on_the_system_clock_the_call_comes_soon_after_the_deadline() {
        let time: Arc<dyn TimeSource> = Arc::new(SystemTimeSource);
        let (rec, mut fired) = Recorder::new(&time);
        let (h, _task) = spawn(Arc::clone(&time), Arc::clone(&rec));
        let at = time.now_ms() + 80;
        h.schedule(1, DueKind::Flag, at, 0);
        h.schedule(2, DueKind::Flag, at + 40, 0);
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(rec.calls.lock().unwrap().is_empty());
        // Waits for the calls without any command: only the timer wakes the scheduler.
        for game in [1, 2] {
            let got = tokio::time::timeout(Duration::from_secs(10), fired.recv()).await;
            assert_eq!(got, Ok(Some(game)));
        }
        let calls = rec.calls.lock().unwrap().clone();
        assert_eq!(calls.len(), 2);
        for ((_, _, _, called), due) in calls.iter().zip([at, at + 40]) {
            let delay = called - due;
            // Not early; late by the timer's granularity (a loaded machine: generous bound).
            assert!((0..1000).contains(&delay), "delay {delay} ms");
        }
    }
}
