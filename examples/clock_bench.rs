//! The clocks at scale, with the real clock: `games` active games with deadlines in a SQLite
//! file; the time from opening the service to clocks ready (downtime given back, every game's
//! entries armed), the memory that start-up keeps (counted by a global allocator), and the
//! delay from each deadline to its announcement for the `due` games whose flags fall in the
//! next `window` seconds (the others' deadlines are hours away).
//!
//! ```sh
//! cargo run --release --example clock_bench -- [games=10000] [due=1000] [window=20]
//! ```
//!
//! Measured on the 2-core development machine (shared with other builds), SQLite file: 10,000
//! games ready in 136–213 ms; 1.1 MB kept (106 bytes per game); 1,000 flags over 20 s: delay p50
//! 2 ms, p99 10 ms, max 28 ms; all 10,000 flags over 20 s: p50 1 ms, p99 8 ms, max 22 ms.

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::HashMap;
use std::sync::atomic::{AtomicIsize, Ordering};
use std::time::{Duration, Instant};

use makruk::{Color, Ruleset};
use makruk_bot::clock::{ClockState, SystemTimeSource, TimeControl, TimeSource as _};
use makruk_bot::game::{Announcement, GameService};
use makruk_bot::store::{self, NewGame};

/// Counts the bytes allocated and not yet freed.
struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: forwards to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's guarantees for `layout` hold for `System` too.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc` above with this `layout`.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn percentile(sorted: &[i64], p: f64) -> i64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn arg(args: &[String], i: usize, default: u64) -> u64 {
    args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games = arg(&args, 0, 10_000);
    let due = arg(&args, 1, 1_000).min(games);
    let window_ms = i64::try_from(arg(&args, 2, 20)).unwrap_or(20) * 1000;
    let dir = tempfile::tempdir()?;
    let url = format!("sqlite://{}", dir.path().join("bench.sqlite3").display());

    // The games: 3+2 live games whose first move is White's, White's turn started so that its
    // flag falls at the chosen instant: `due` of them spread over the window (from 3 s on), the
    // others hours later.
    let svc = GameService::open(&url).await?;
    let control = TimeControl::Live {
        minutes: 3,
        increment_secs: 2,
    };
    let start_fen = makruk::Position::start(Ruleset::Standard).fen();
    let now = SystemTimeSource.now_ms();
    let first = now + 3_000 + 2_000; // the inserts and the start-up take a moment
    let mut deadlines = HashMap::new();
    let mut tx = svc.store().begin_write().await?;
    for i in 0..games {
        let at = if i < due {
            first + window_ms * i64::try_from(i).unwrap_or(0) / i64::try_from(due).unwrap_or(1)
        } else {
            now + 3_600_000 + i64::try_from(i).unwrap_or(0) * 1000
        };
        let clock = ClockState::new(control, Color::White, at - control.initial_ms());
        let channel = 10_000 + i;
        let id = store::insert_game(
            &mut tx,
            &NewGame {
                channel_id: makruk_bot::types::ChannelId(channel),
                white_id: makruk_bot::types::UserId(1),
                black_id: makruk_bot::types::UserId(2),
                ruleset: Ruleset::Standard,
                variant: makruk::Variant::Makruk,
                start_fen: &start_fen,
                now: now / 1000,
                computer: None,
                time_control: control,
                clock: clock.stored(),
                guild_id: None,
                rated: false,
            },
        )
        .await?;
        deadlines.insert(id, at);
    }
    tx.commit().await?;
    svc.close().await;

    // Start-up to ready.
    let before = LIVE.load(Ordering::Relaxed);
    let started = Instant::now();
    let svc = GameService::open(&url).await?;
    let mut said = svc.announcements().expect("announcements");
    let clocks = svc.start_clocks().await?;
    let ready = started.elapsed();
    let pending = svc.scheduled().await;
    let kept = LIVE.load(Ordering::Relaxed) - before;
    println!(
        "{} active games: ready in {:.0} ms ({} scheduler entries); memory kept by the service \
         and its scheduler after start-up: {:.1} MB ({:.0} bytes per game)",
        clocks.games,
        ready.as_secs_f64() * 1000.0,
        pending,
        kept as f64 / 1e6,
        kept as f64 / games.max(1) as f64,
    );

    // Deadline → announcement, with the real clock.
    let mut delays = Vec::new();
    let until =
        Instant::now() + Duration::from_millis(u64::try_from(window_ms).unwrap_or(0) + 15_000);
    while delays.len() < usize::try_from(due).unwrap_or(0) {
        let left = until.saturating_duration_since(Instant::now());
        let Ok(Some(a)) = tokio::time::timeout(left, said.recv()).await else {
            break;
        };
        let got = SystemTimeSource.now_ms();
        if let Announcement::TimedOut { reply, .. } = a {
            if let Some(at) = deadlines.get(&reply.game_id) {
                delays.push(got - at);
            }
        }
    }
    delays.sort_unstable();
    println!(
        "{} flags announced of {due} due in {} s: delay from deadline to announcement p50 {} ms, \
         p99 {} ms, max {} ms",
        delays.len(),
        window_ms / 1000,
        percentile(&delays, 50.0),
        percentile(&delays, 99.0),
        delays.last().copied().unwrap_or(0),
    );
    svc.close().await;
    Ok(())
}
