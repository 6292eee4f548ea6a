//! The simulator's example scenarios still play through (`examples/scenarios/*.txt`).

use std::path::Path;
use std::sync::Arc;

use discord_standin::scenario;
use testkit::bot::{launcher_on, sim_clock, temp_database};

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
        let clock = sim_clock();
        let waits = Arc::clone(&clock);
        scenario::play(&path, out.path(), launcher_on(&db, &clock), |by| {
            let waits = Arc::clone(&waits);
            async move { waits.advance(by).await }
        })
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
        if path.file_name().is_some_and(|n| n == "timeout.txt") {
            // The flag falls with nobody typing: the bot posts it by itself, pinging both.
            assert!(
                transcript.contains("ran out of time") && transcript.contains("wins"),
                "{}: the flag is posted\n{transcript}",
                path.display()
            );
            assert!(
                transcript.contains("less than a sixth"),
                "{}: the reminder is posted\n{transcript}",
                path.display()
            );
        }
        if path
            .file_name()
            .is_some_and(|n| n == "thread-and-replay.txt")
        {
            // The game goes into a thread; its starting message ends with the result; the
            // replays are shown (English, then Thai).
            for shown in [
                "_In the thread **#alice vs bob — Makruk**:_",
                "is played in **#alice vs bob — Makruk**",
                "_The game's starting message in #makruk:_",
                "wins by checkmate",
                "(ply 7 of 8)",
                "Start position (8 plies played)",
                "ครั้งที่ 8 จาก 8",
            ] {
                assert!(
                    transcript.contains(shown),
                    "{}: {shown:?}\n{transcript}",
                    path.display()
                );
            }
        }
        played += 1;
    }
    assert!(played >= 3, "three example scenarios");
}
