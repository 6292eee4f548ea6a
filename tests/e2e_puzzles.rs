//! End to end (real bot, stand-in): puzzles (issue 24). `/puzzle` answers privately with the
//! board and the Hint and Solution buttons; `/solve` (with autocomplete) plays the line; the
//! Solution button shows it; votes; Next; `/settings daily-puzzle:on` posts the daily puzzle
//! in the channel, which anyone answers privately with `/solve`, its message counting the
//! solvers; a restart posts nothing again.

use discord_standin::Opt;
use sqlx::Connection as _;
use testkit::table::Table;

const CH: u64 = 1_300_000_000_000_002_401;
/// Discord's Manage Server permission bit.
const MANAGE_GUILD: u64 = 1 << 5;

/// The solution (UCI) of shipped puzzle `id`.
fn solution(id: &str) -> Vec<String> {
    makruk_bot::puzzles::shipped()
        .iter()
        .find(|p| p.id == id)
        .unwrap_or_else(|| panic!("no shipped puzzle {id}"))
        .moves
        .clone()
}

/// The puzzle id in a puzzle's title ("Puzzle abc123 · rated 1500").
fn puzzle_id(text: &str) -> String {
    let rest = text.split("Puzzle ").nth(1).expect("a puzzle title");
    rest.split_whitespace().next().expect("an id").to_string()
}

/// A value stored by the bot: the first column of the first row of `sql`.
async fn stored(db: &str, sql: &str) -> String {
    let mut conn = sqlx::SqliteConnection::connect(db)
        .await
        .expect("open the db");
    let v: String = sqlx::query_scalar(sql)
        .fetch_one(&mut conn)
        .await
        .expect("query");
    conn.close().await.ok();
    v
}

#[tokio::test]
async fn a_puzzle_is_answered_privately_move_by_move_with_hint_solution_votes_and_next() {
    let mut t = Table::new().await;
    let p = t.discord.run(&t.alice, CH, "puzzle", &[]).await;
    assert!(p.is_ephemeral(), "a puzzle is private");
    assert!(p.png().is_some(), "with its board");
    let text = p.text();
    assert!(text.contains("to move"), "{text}");
    assert!(text.contains("/solve"), "{text}");
    let labels: Vec<String> = p
        .message()
        .expect("a message")
        .buttons()
        .into_iter()
        .map(|b| b.0)
        .collect();
    assert_eq!(labels, ["Hint", "Solution"]);
    let id = puzzle_id(&text);
    let line = solution(&id);

    // Autocomplete lists the legal moves, the solution's among them; nothing for Bob.
    let choices = t
        .discord
        .autocomplete(
            &t.alice,
            CH,
            "solve",
            &[("move", Opt::Str(String::new()))],
            "move",
        )
        .await
        .choice_names();
    assert!(!choices.is_empty() && choices.len() <= 25, "{choices:?}");
    let none = t
        .discord
        .autocomplete(
            &t.bob,
            CH,
            "solve",
            &[("move", Opt::Str(String::new()))],
            "move",
        )
        .await
        .choice_names();
    assert!(none.is_empty(), "{none:?}");

    // A hint: the piece to move, privately.
    let hint = t.discord.click_label(&t.alice, CH, "Hint").await;
    assert!(hint.is_ephemeral());
    assert!(hint.text().contains("Hint: move your"), "{}", hint.text());

    // The whole line through /solve.
    let mut last = None;
    for (i, mv) in line.iter().enumerate().step_by(2) {
        let answer = t.discord.run(&t.alice, CH, "solve", &[("move", mv)]).await;
        assert!(answer.is_ephemeral());
        let text = answer.text();
        if i + 1 < line.len() {
            assert!(text.contains("is right"), "{text}");
        } else {
            assert!(text.contains("solved"), "{text}");
            assert!(text.contains("Solution:"), "{text}");
            // Hinted: unrated.
            assert!(text.contains("did not change"), "{text}");
        }
        last = Some(answer);
    }
    let done = last.expect("an answer");
    let labels: Vec<String> = done
        .message()
        .expect("a message")
        .buttons()
        .into_iter()
        .map(|b| b.0)
        .collect();
    assert_eq!(labels, ["Next puzzle", "👍", "👎"]);
    let voted = t.discord.click_label(&t.alice, CH, "👍").await;
    assert!(voted.text().contains("is counted"), "{}", voted.text());

    // Next: another puzzle, in place; its Solution fails it and shows the line.
    let next = t.discord.click_label(&t.alice, CH, "Next puzzle").await;
    assert_eq!(next.callback_type(), 7, "the message is updated");
    let next_id = puzzle_id(&next.text());
    assert_ne!(next_id, id);
    let shown = t.discord.click_label(&t.alice, CH, "Solution").await;
    assert_eq!(shown.callback_type(), 7);
    assert!(
        shown.text().contains("Here is the solution"),
        "{}",
        shown.text()
    );
    assert!(
        shown.text().contains("Puzzle rating: 1500 →"),
        "{}",
        shown.text()
    );

    // A wrong move ends a puzzle too.
    let third = t.discord.run(&t.alice, CH, "puzzle", &[]).await;
    let third_line = solution(&puzzle_id(&third.text()));
    let board_moves = t
        .discord
        .autocomplete(
            &t.alice,
            CH,
            "solve",
            &[("move", Opt::Str(String::new()))],
            "move",
        )
        .await
        .choice_names();
    let first = makruk_bot::puzzles::Line::new(
        &makruk_bot::puzzles::shipped()
            .iter()
            .find(|p| p.moves == third_line)
            .expect("shipped")
            .fen,
        &third_line,
    )
    .expect("line");
    // The list gives nothing away: no check or mate marks.
    assert!(
        board_moves
            .iter()
            .all(|m| !m.contains('+') && !m.contains('#')),
        "{board_moves:?}"
    );
    let wrong = board_moves
        .iter()
        .find(|m| {
            let mv = makruk::parse_move(&first.start, m).expect("a legal move");
            mv != first.moves[0] && !first.start.after(&mv).is_checkmate()
        })
        .expect("another move");
    let failed = t
        .discord
        .run(&t.alice, CH, "solve", &[("move", wrong)])
        .await;
    assert!(
        failed.text().contains("is not the answer"),
        "{}",
        failed.text()
    );
    assert!(
        failed.text().contains("(-") || failed.text().contains("(−"),
        "{}",
        failed.text()
    );

    // /stats shows the puzzle rating (Alice has no rated game: the puzzles alone).
    let stats = t
        .discord
        .run(&t.bob, CH, "stats", &[("player", "@alice")])
        .await;
    let text = stats.text();
    assert!(text.contains("Puzzle rating"), "{text}");
    assert!(text.contains("solved 0, failed 2"), "{text}");
    t.assert_clean();
    t.stop().await;
}

#[tokio::test]
async fn the_daily_puzzle_is_posted_once_answered_privately_and_counted() {
    let mut t = Table::new().await;
    // A time zone in which it is now about noon, and a daily time just past.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_secs() as i64;
    let utc_hour = (now / 3600) % 24;
    let offset = 12 - utc_hour;
    let zone = format!("UTC{}{}", if offset < 0 { '-' } else { '+' }, offset.abs());

    // Alice may not; Bob, with Manage Server, may.
    let refused = t
        .discord
        .run(&t.alice, CH, "settings", &[("daily-puzzle", "on")])
        .await;
    assert!(
        refused.text().contains("Manage Server"),
        "{}",
        refused.text()
    );
    t.discord.set_permissions(&t.bob, MANAGE_GUILD);
    let seen = t.discord.posted_messages(CH).len();
    let set = t
        .discord
        .run(
            &t.bob,
            CH,
            "settings",
            &[
                ("daily-puzzle", "on"),
                ("puzzle-time", "12:00"),
                ("timezone", &zone),
            ],
        )
        .await;
    assert!(set.is_ephemeral());
    assert!(
        set.text().contains(&format!("<#{CH}> at 12:00")),
        "{}",
        set.text()
    );
    let bad = t
        .discord
        .run(&t.bob, CH, "settings", &[("puzzle-time", "25:00")])
        .await;
    assert!(bad.text().contains("HH:MM"), "{}", bad.text());

    let daily = t.discord.wait_posted(CH, seen).await;
    assert!(daily.text().contains("Daily puzzle"), "{}", daily.text());
    assert!(
        daily.text().contains("Nobody has solved it yet"),
        "{}",
        daily.text()
    );
    assert!(daily.png().is_some());
    let id = stored(&t.db, "SELECT puzzle_id FROM daily_puzzles").await;
    let line = solution(&id);

    // Alice answers privately, to the end.
    let mut text = String::new();
    for mv in line.iter().step_by(2) {
        let answer = t.discord.run(&t.alice, CH, "solve", &[("move", mv)]).await;
        assert!(answer.is_ephemeral(), "answers are private");
        text = answer.text();
    }
    assert!(text.contains("solved"), "{text}");
    assert!(
        text.contains("Daily puzzles solved in a row on this server: 1"),
        "{text}"
    );
    let edited = t.discord.wait_edited(daily.id, 0).await;
    assert!(edited.content.contains("Solved by 1"), "{}", edited.content);
    assert!(
        edited.content.contains(&t.alice.mention()),
        "{}",
        edited.content
    );
    // Once a day.
    let again = t
        .discord
        .run(&t.alice, CH, "solve", &[("move", &line[0])])
        .await;
    assert!(again.text().contains("already tried"), "{}", again.text());

    // A restart posts nothing more today.
    t.restart().await;
    let count = t.discord.posted_messages(CH).len();
    let shown = t.discord.run(&t.bob, CH, "settings", &[]).await;
    assert!(shown.text().contains("at 12:00"), "{}", shown.text());
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(t.discord.posted_messages(CH).len(), count);
    // One claim, posted (its message recorded): nothing left for a poster to send.
    let posted = stored(
        &t.db,
        "SELECT COUNT(*) || '/' || COUNT(message_id) FROM daily_puzzles",
    )
    .await;
    assert_eq!(posted, "1/1");
    t.assert_clean();
    t.stop().await;
}
