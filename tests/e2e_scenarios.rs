//! The simulator's example scenarios still play through (`examples/scenarios/*.txt`).

mod real_bot;

use std::path::Path;

use discord_standin::scenario;
use real_bot::{launcher, temp_database};

#[tokio::test]
async fn the_example_scenarios_play_through() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/scenarios");
    let mut played = 0;
    for entry in std::fs::read_dir(&dir).expect("examples/scenarios") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        let out = tempfile::tempdir().expect("temporary directory");
        let (_db_dir, db) = temp_database();
        scenario::play(&path, out.path(), launcher(&db, |_| {}))
            .await
            .unwrap_or_else(|e| panic!("{}: {e:#}", path.display()));
        let transcript = std::fs::read_to_string(out.path().join("transcript.md"))
            .expect("a transcript is written");
        assert!(
            transcript.contains("![board]("),
            "{}: board pictures",
            path.display()
        );
        if path.file_name().is_some_and(|n| n == "computer.txt") {
            // Four moves of alice's, each answered by the computer in a message of its own
            // (which moves it picks may vary; that it answers each may not).
            assert_eq!(
                transcript.matches("_The bot posts:_").count(),
                4,
                "{transcript}"
            );
        }
        played += 1;
    }
    assert!(played >= 3, "three example scenarios");
}
