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
        if path.file_name().is_some_and(|n| n == "tournament.txt") {
            // Issue 26: the tournament's first game posted, pinging its players (its board
            // follows in the thread, possibly after the last line).
            assert!(
                transcript.contains("round 1, board 1: **@bob** (White) against **@carol**"),
                "{transcript}"
            );
            assert!(
                transcript.contains("Only members with the Manage Server permission"),
                "{transcript}"
            );
        } else {
            assert!(
                transcript.contains("![board]("),
                "{}: board pictures",
                path.display()
            );
        }
        if path.file_name().is_some_and(|n| n == "quick-mate.txt") {
            // The analysis: the waiting message updated into the result (graph and key
            // moments), then the button's stored result.
            assert_eq!(
                transcript
                    .matches("**Computer analysis of game #1**")
                    .count(),
                2,
                "{transcript}"
            );
            assert!(transcript.contains("makruk-analysis-1.png"), "{transcript}");
            assert!(transcript.contains("Key moments"), "{transcript}");
        }
        if path.file_name().is_some_and(|n| n == "computer.txt") {
            // Four moves of alice's, each answered by the computer in a message of its own
            // (which moves it picks may vary; that it answers each may not).
            assert_eq!(
                transcript.matches("_The bot posts:_").count(),
                4,
                "{transcript}"
            );
        }
        if path.file_name().is_some_and(|n| n == "dm.txt") {
            // Outside a server (issue 22): a DM game to mate, then a group DM against the
            // computer whose replies come as follow-ups, its flag shown with the next command.
            for shown in [
                "_In a DM between **@alice** and **@bob**:_",
                "This game is played outside a server, so it is unrated.",
                "Black wins by checkmate",
                "_In a group DM of **@alice**, **@bob** and **@carol**:_",
                "ran out of time",
                "Black wins by resignation",
            ] {
                assert!(transcript.contains(shown), "{shown}\n{transcript}");
            }
            // Two replies of the computer, the flag after `/rules`, one more reply: follow-ups
            // (the bot is not in those DMs), none posted.
            assert_eq!(
                transcript.matches("_The bot follows up:_").count(),
                4,
                "{transcript}"
            );
            assert!(!transcript.contains("_The bot posts:_"), "{transcript}");
            assert!(
                transcript.contains("Threads exist only in servers"),
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

/// Plays the scenario `text` (written to a file) and returns the result and the transcript.
async fn play_text(text: &str) -> (anyhow::Result<scenario::Played>, String) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("scenario.txt");
    std::fs::write(&path, text).expect("scenario file");
    let out = dir.path().join("out");
    let (_db_dir, db) = temp_database();
    let clock = sim_clock();
    let waits = Arc::clone(&clock);
    let played = scenario::play(&path, &out, launcher_on(&db, &clock), |by| {
        let waits = Arc::clone(&waits);
        async move { waits.advance(by).await }
    })
    .await;
    let transcript = std::fs::read_to_string(out.join("transcript.md")).unwrap_or_default();
    (played, transcript)
}

#[tokio::test]
async fn an_expired_challenge_loses_its_buttons_when_it_expires() {
    let (played, transcript) = play_text(
        "alice: /challenge opponent:@bob\n\
         wait 9m\n\
         wait 2m\n\
         bob: click Accept\n",
    )
    .await;
    // Nine minutes in, the challenge is open (its message unchanged); at eleven it has expired:
    // the message says so and has no buttons left to press.
    let err = played.expect_err("the buttons are gone once the challenge expired");
    assert!(
        format!("{err:#}").contains("line 4"),
        "{err:?}\n{transcript}"
    );
    let nine = transcript.find("9 min pass").expect("the first wait");
    let expired = transcript
        .find("has expired")
        .expect("the message says it expired");
    assert!(nine < expired, "{transcript}");
    assert_eq!(transcript.matches("has expired").count(), 1, "{transcript}");
}

#[tokio::test]
async fn a_failing_scenario_still_writes_its_transcript() {
    let (played, transcript) = play_text(
        "alice: /challenge opponent:@bob\n\
         bob: click Accept\n\
         alice: /move move:e4\n\
         bob: click Nonexistent\n\
         alice: /board\n",
    )
    .await;
    let err = played.expect_err("the missing button fails the scenario");
    assert!(format!("{err:#}").contains("line 4"), "{err:?}");
    // What happened before the failing step is there, and the failure at the end; nothing after.
    assert!(transcript.contains("used `/move move:e4`"), "{transcript}");
    assert!(transcript.contains("![board]("), "{transcript}");
    assert!(
        transcript.contains("**The scenario stopped here:**")
            && transcript.contains("line 4")
            && transcript.contains("Nonexistent"),
        "{transcript}"
    );
    assert!(!transcript.contains("used `/board`"), "{transcript}");
}

#[tokio::test]
async fn the_transcript_shows_disabled_buttons_and_embed_footers() {
    let (played, transcript) = play_text(
        "alice: /challenge opponent:@bob color:white\n\
         bob: click Accept\n\
         alice: /move move:e4\n\
         bob: /move move:e5\n\
         alice: /board\n\
         alice: /replay\n",
    )
    .await;
    played.expect("the scenario plays through");
    // /board's footer lists the last moves; /replay starts at the last ply, where ▶ cannot be
    // pressed (and ◀ can).
    assert!(transcript.contains("<sub>"), "a footer: {transcript}");
    assert!(
        transcript.contains("~~`[ ▶ ]`~~ _(disabled)_"),
        "a disabled button: {transcript}"
    );
    assert!(
        transcript.contains("`[ ◀ ]` "),
        "an enabled one: {transcript}"
    );
}

#[tokio::test]
async fn a_thai_server_and_a_locale_given_after_a_user_was_named() {
    let (played, transcript) = play_text(
        "server language th\n\
         alice: /challenge opponent:@bob color:white\n\
         bob[th]: click รับ\n\
         alice: /move move:e4\n\
         bob: /move move:Nd2\n\
         bob: /move move:d5\n\
         alice: /board\n",
    )
    .await;
    played.expect("the scenario plays through");
    // The server's language: the challenge and the boards are in Thai.
    assert!(
        transcript.contains("server's language is now `th`"),
        "{transcript}"
    );
    assert!(transcript.contains("ท้า"), "a Thai challenge: {transcript}");
    // Bob was named by Alice's challenge first; his own `[th]` still makes his errors Thai,
    // with the move in Thai notation and its SAN beside it.
    assert!(transcript.contains("ง๒ (d2)"), "{transcript}");
    // The last moves under the Thai board: Thai notation with SAN beside it.
    assert!(transcript.contains("จ๔ (e4)"), "{transcript}");
}
