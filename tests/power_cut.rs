//! The power-cut proof, CI-sized: the game service (SQLite, `synchronous=FULL`, group commit)
//! writing ten games at once through a VFS shim that keeps only what was synced, killed at 40
//! random instants, its files cut back to what a machine that lost power would find; after
//! each cut every confirmed move is stored, the database is whole and every game can be read.
//! The full run is `cargo run --release --example power_cut -- --cuts 300`.

#![cfg(unix)]

use std::path::PathBuf;

use testkit::powercut;

/// The example binary built beside this test (`target/<profile>/examples/power_cut`).
fn child() -> PathBuf {
    let me = std::env::current_exe().expect("the test binary");
    let profile = me
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>/deps");
    profile.join("examples").join("power_cut")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn power_cuts_lose_no_confirmed_move() {
    let child = child();
    assert!(
        child.exists(),
        "{} is missing: cargo test --workspace builds the examples",
        child.display()
    );
    let dir = tempfile::tempdir().expect("a temporary directory");
    let cfg = powercut::Config {
        cuts: 40,
        games: 10,
        alive_ms: (50, 600),
        seed: 7,
        child,
        dir: dir.path().to_owned(),
    };
    let report = powercut::run(&cfg).await.expect("the run is carried out");
    println!("{report}");
    assert_eq!(report.cuts, 40, "{report}");
    assert!(report.acked > 100, "too few confirmed moves:\n{report}");
    assert!(report.lost.is_empty(), "{report}");
    assert!(report.integrity.is_empty(), "{report}");
    assert!(report.unreadable.is_empty(), "{report}");
}
