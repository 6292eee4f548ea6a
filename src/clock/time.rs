//! Where the bot's time comes from: the system clock, or a fake one that tests and the
//! simulator move forward by hand (a scenario's `wait 3d`).
//!
//! Times are Unix milliseconds (`i64`), as the clock state keeps them.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::sync::watch;

/// A boxed future that can move between threads (what [`TimeSource`]'s methods return, so
/// that the time source can be shared as `Arc<dyn TimeSource>`).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A source of the current time and of waiting for an instant.
pub trait TimeSource: Send + Sync + fmt::Debug {
    /// The current Unix time in milliseconds.
    fn now_ms(&self) -> i64;

    /// Completes once [`TimeSource::now_ms`] is at or past `at_ms` (at once if it is already).
    fn sleep_until(&self, at_ms: i64) -> BoxFuture<'_, ()>;
}

/// The system's clock (wall time, through tokio's timer).
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemTimeSource;

/// The longest single timer sleep of [`SystemTimeSource::sleep_until`]: tokio's timer runs on
/// the monotonic clock, so a long sleep would miss a change of the wall clock; waking every
/// minute bounds that error.
const MAX_NAP: Duration = Duration::from_secs(60);

impl TimeSource for SystemTimeSource {
    fn now_ms(&self) -> i64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
    }

    fn sleep_until(&self, at_ms: i64) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            loop {
                let left = at_ms.saturating_sub(self.now_ms());
                if left <= 0 {
                    return;
                }
                let nap = Duration::from_millis(u64::try_from(left).unwrap_or(u64::MAX));
                tokio::time::sleep(nap.min(MAX_NAP)).await;
            }
        })
    }
}

/// A clock that stands still until moved: [`FakeTime::advance`] / [`FakeTime::set`] wake the
/// sleepers whose instant has come. Time never goes back.
#[derive(Debug)]
pub struct FakeTime {
    now: watch::Sender<i64>,
}

impl FakeTime {
    /// A fake clock showing `start_ms`.
    #[must_use]
    pub fn new(start_ms: i64) -> FakeTime {
        FakeTime {
            now: watch::Sender::new(start_ms),
        }
    }

    /// Moves the clock forward by `by` (whole milliseconds).
    pub fn advance(&self, by: Duration) {
        let ms = i64::try_from(by.as_millis()).unwrap_or(i64::MAX);
        self.now.send_modify(|t| *t = t.saturating_add(ms));
    }

    /// Moves the clock forward to `at_ms`; an earlier instant changes nothing.
    pub fn set(&self, at_ms: i64) {
        self.now.send_if_modified(|t| {
            let later = at_ms > *t;
            if later {
                *t = at_ms;
            }
            later
        });
    }
}

impl TimeSource for FakeTime {
    fn now_ms(&self) -> i64 {
        *self.now.borrow()
    }

    fn sleep_until(&self, at_ms: i64) -> BoxFuture<'_, ()> {
        let mut rx = self.now.subscribe();
        Box::pin(async move {
            // The sender lives as long as `self`, which this future borrows: no error.
            let _ = rx.wait_for(|t| *t >= at_ms).await;
        })
    }
}

/// Calls `beat(now_ms)` now and then every `every` (by `time`), forever: the bot's "last alive"
/// heartbeat, whose last stored value tells the next start-up how long the bot was down (see
/// [`super::ClockState::resume`]). A late beat does not make the next ones early.
pub async fn heartbeat<F, Fut>(time: &dyn TimeSource, every: Duration, mut beat: F)
where
    F: FnMut(i64) -> Fut,
    Fut: Future<Output = ()>,
{
    let every_ms = i64::try_from(every.as_millis()).unwrap_or(i64::MAX).max(1);
    loop {
        let now = time.now_ms();
        beat(now).await;
        time.sleep_until(now.saturating_add(every_ms)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// Lets the spawned tasks run until they wait again (a current-thread runtime).
    async fn settle() {
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn fake_time_wakes_sleepers_when_their_instant_comes() {
        let time = Arc::new(FakeTime::new(1_000));
        let woke = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for at in [1_500, 1_200, 3_000] {
            let (time, woke) = (Arc::clone(&time), Arc::clone(&woke));
            tasks.push(tokio::spawn(async move {
                time.sleep_until(at).await;
                woke.lock().unwrap().push((at, time.now_ms()));
            }));
        }
        settle().await;
        assert!(woke.lock().unwrap().is_empty());
        time.advance(Duration::from_millis(300));
        settle().await;
        assert_eq!(*woke.lock().unwrap(), [(1_200, 1_300)]);
        time.set(1_000);
        assert_eq!(time.now_ms(), 1_300);
        time.set(5_000);
        for t in tasks {
            t.await.unwrap();
        }
        let mut got = woke.lock().unwrap().clone();
        got.sort_unstable();
        assert_eq!(got, [(1_200, 1_300), (1_500, 5_000), (3_000, 5_000)]);
        // An instant already past completes at once.
        time.sleep_until(0).await;
    }

    #[tokio::test]
    async fn system_time_sleeps_until_the_instant() {
        let time = SystemTimeSource;
        let start = time.now_ms();
        assert!(start > 1_600_000_000_000);
        time.sleep_until(start + 30).await;
        assert!(time.now_ms() >= start + 30);
        time.sleep_until(i64::MIN).await;
    }

    #[tokio::test]
    async fn heartbeat_beats_at_each_interval_of_the_time_source() {
        let time = Arc::new(FakeTime::new(0));
        let beats = Arc::new(Mutex::new(Vec::new()));
        let task = {
            let (time, beats) = (Arc::clone(&time), Arc::clone(&beats));
            tokio::spawn(async move {
                heartbeat(&*time, Duration::from_secs(10), |now| {
                    beats.lock().unwrap().push(now);
                    async {}
                })
                .await;
            })
        };
        settle().await;
        for _ in 0..3 {
            time.advance(Duration::from_secs(10));
            settle().await;
        }
        time.advance(Duration::from_secs(25));
        settle().await;
        assert_eq!(*beats.lock().unwrap(), [0, 10_000, 20_000, 30_000, 55_000]);
        task.abort();
    }
}
