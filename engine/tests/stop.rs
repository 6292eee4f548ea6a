//! The search stops promptly when told to. In a test binary of its own, so that no other
//! test of this crate competes for the CPU while it measures.

use makruk::{Game, Ruleset};
use makruk_engine::{Engine, Limits};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[test]
fn stops_promptly() {
    // The median of seven reaction times to `stop` (set while searching an infinite search)
    // is under 20 ms; the search polls the flag every 1024 nodes.
    let mut lags = Vec::new();
    for _ in 0..7 {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let t = std::thread::spawn(move || {
            let mut e = Engine::new(16);
            let g = Game::new(Ruleset::Standard);
            e.search(&g, &Limits::default(), &flag, &mut |_| {});
            Instant::now()
        });
        std::thread::sleep(Duration::from_millis(150));
        let set = Instant::now();
        stop.store(true, Ordering::Relaxed);
        let done = t.join().expect("search thread");
        lags.push(done.saturating_duration_since(set));
    }
    lags.sort();
    assert!(lags[3] < Duration::from_millis(20), "{lags:?}");
}
