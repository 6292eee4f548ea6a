//! The crash proof, CI-sized: the real bot binary against the stand-in server (a process of its
//! own), six games moving at once, killed with SIGKILL at random moments and restarted, six
//! times; after each kill no acknowledged move is lost, none is doubled, the database is whole;
//! at the end every stored move's board is in its channel and every game goes on. The same on
//! PostgreSQL with two bot processes on one database (one per gateway shard, one of the two
//! killed each time while the other plays on) when `MAKRUK_TEST_POSTGRES_URL` is set. The full
//! run is `cargo run --release --example crash -- --kills 100 [--postgres URL]`
//! (`testkit/src/crash.rs` says what is checked).

use testkit::crash as crash_driver;

use std::path::{Path, PathBuf};
use std::time::Duration;

use testkit::service::postgres_url;

/// The bot binary and the stand-in server's.
fn binaries() -> (PathBuf, PathBuf) {
    let bot = Path::new(env!("CARGO_BIN_EXE_makruk-bot"));
    // The stand-in server is another package's binary: built beside the bot by a workspace
    // build (its own integration test needs it).
    let standin = bot.with_file_name("standin-server");
    assert!(
        standin.exists(),
        "{} is missing: cargo build --release -p discord-standin --bin standin-server",
        standin.display()
    );
    (bot.to_owned(), standin)
}

/// A CI-sized run (six kills, six games) with random seed `seed`, on SQLite or on the PostgreSQL
/// server `postgres`; every guarantee must hold. Returns the run's report.
async fn short_run(seed: u64, postgres: Option<String>) -> crash_driver::Report {
    let (bot, standin) = binaries();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let cfg = crash_driver::Config {
        kills: 6,
        games: 6,
        alive_ms: (300, 2_500),
        settle: Duration::from_secs(2),
        seed,
        bot,
        standin,
        dir: dir.path().to_owned(),
        postgres,
    };
    let report = crash_driver::run(&cfg)
        .await
        .expect("the run is carried out");
    println!("{report}");
    assert_guarantees(&report, 6);
    report
}

/// Every guarantee of a run of `kills` kills held.
fn assert_guarantees(report: &crash_driver::Report, kills: u32) {
    assert_eq!(report.kills, kills);
    assert!(report.acked > 0, "no move was acknowledged:\n{report}");
    assert_eq!(report.lost, 0, "{report}");
    assert_eq!(report.duplicates, 0, "{report}");
    assert!(report.integrity.is_empty(), "{report}");
    assert_eq!(report.not_continuing, 0, "{report}");
    assert!(report.standin_errors.is_empty(), "{report}");
    assert_eq!(report.unannounced, 0, "{report}");
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_loses_no_acknowledged_move() {
    short_run(13, None).await;
}

/// Two bot processes on one PostgreSQL database, one per shard, the games in a guild of each:
/// each kill takes one of them, the other keeps playing.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_of_one_of_two_processes_on_postgres_loses_no_acknowledged_move() {
    let Some(server) = postgres_url() else {
        eprintln!(
            "kill_9_of_one_of_two_processes_on_postgres: skipped, MAKRUK_TEST_POSTGRES_URL is \
             not set (a PostgreSQL-only test)"
        );
        return;
    };
    let report = short_run(17, Some(server)).await;
    assert_eq!(report.processes, 2, "{report}");
    assert!(
        report.acked_by_process.iter().all(|&n| n > 0),
        "each process plays games:\n{report}"
    );
}
