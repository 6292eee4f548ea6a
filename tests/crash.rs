//! The crash proof, CI-sized: the real bot binary against the stand-in server (a process of its
//! own), six games moving at once, killed with SIGKILL at random moments and restarted, six
//! times; after each kill no acknowledged move is lost, none is doubled, the database is whole;
//! at the end every stored move's board is in its channel and every game goes on. The full run
//! is `cargo run --release --example crash -- --kills 100` (`testkit/src/crash.rs` says
//! what is checked).

use testkit::crash as crash_driver;

use std::path::Path;
use std::time::Duration;

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_loses_no_acknowledged_move() {
    let bot = Path::new(env!("CARGO_BIN_EXE_makruk-bot"));
    // The stand-in server is another package's binary: built beside the bot by a workspace
    // build (its own integration test needs it).
    let standin = bot.with_file_name("standin-server");
    assert!(
        standin.exists(),
        "{} is missing: cargo build --release -p discord-standin --bin standin-server",
        standin.display()
    );
    let dir = tempfile::tempdir().expect("a temporary directory");
    let cfg = crash_driver::Config {
        kills: 6,
        games: 6,
        alive_ms: (300, 2_500),
        settle: Duration::from_secs(2),
        seed: 13,
        bot: bot.to_owned(),
        standin,
        dir: dir.path().to_owned(),
    };
    let report = crash_driver::run(&cfg)
        .await
        .expect("the run is carried out");
    println!("{report}");
    assert_eq!(report.kills, 6);
    assert!(report.acked > 0, "no move was acknowledged:\n{report}");
    assert_eq!(report.lost, 0, "{report}");
    assert_eq!(report.duplicates, 0, "{report}");
    assert!(report.integrity.is_empty(), "{report}");
    assert_eq!(report.not_continuing, 0, "{report}");
    assert!(report.standin_errors.is_empty(), "{report}");
    assert_eq!(report.unannounced, 0, "{report}");
}
