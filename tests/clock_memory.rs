//! The scheduler's memory grows with the number of games, not with the number of re-arms
//! (every move re-arms its game). Counted by a global allocator, so this file is its own test
//! binary with one test: nothing else allocates meanwhile.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};
use std::sync::Arc;

use makruk_bot::clock::{scheduler, DueHandler, DueKind, FakeTime, TimeSource};

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

struct Nothing;

impl DueHandler for Nothing {
    async fn on_due(&self, _: i64, _: DueKind, _: i64) {}
}

const T0: i64 = 1_700_000_000_000;
const GAMES: i64 = 10_000;

#[tokio::test]
async fn ten_thousand_games_cost_a_few_hundred_bytes_each_however_often_re_armed() {
    let time: Arc<dyn TimeSource> = Arc::new(FakeTime::new(T0));
    let (h, _task) = scheduler::spawn(time, Arc::new(Nothing));
    h.settled().await;
    let before = LIVE.load(Ordering::Relaxed);
    let arm = |version: i64| {
        for game in 0..GAMES {
            let at = T0 + 86_400_000 + (game * 7919) % 1_000_000 + version;
            h.schedule(game, DueKind::Flag, at, version);
            h.schedule(game, DueKind::Reminder, at - 43_200_000, version);
        }
    };
    arm(0);
    assert_eq!(h.pending().await, 2 * GAMES as usize);
    let armed = LIVE.load(Ordering::Relaxed) - before;
    for version in 1..=20 {
        arm(version);
    }
    assert_eq!(h.pending().await, 2 * GAMES as usize);
    let rearmed = LIVE.load(Ordering::Relaxed) - before;
    let per_game = armed / GAMES as isize;
    eprintln!(
        "scheduler: {armed} bytes for {GAMES} games with a flag and a reminder each \
         ({per_game} per game); {rearmed} bytes after 20 more re-arms of every game"
    );
    assert!(per_game <= 400, "{per_game} bytes per game");
    assert!(
        rearmed <= armed + armed / 2,
        "{rearmed} bytes after re-arms, {armed} before"
    );
    for game in 0..GAMES {
        h.cancel(game);
    }
    assert_eq!(h.pending().await, 0);
}
