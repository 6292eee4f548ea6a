//! End to end (real bot, stand-in): `/replay` and its buttons, `/gif` and the end-of-game GIF
//! button, `/board`'s last moves, the end-of-game message's first line.

use discord_standin::Message;
use testkit::table::Table;

const CH: u64 = 1_300_000_000_000_000_077;

/// A checkmate in 8 plies of the conformance data (`s4-engine-g97`, Black mates with `Nxe3#`).
const MATE: [&str; 8] = ["Rh2", "Ne7", "Rh1", "Nd5", "Nd2", "Nd7", "Ne2", "Nxe3#"];

/// The custom id of the button labelled `label` on `message`.
fn button(message: &Message, label: &str) -> (String, bool) {
    message
        .buttons()
        .into_iter()
        .find(|b| b.0 == label)
        .map(|b| (b.1, b.2))
        .unwrap_or_else(|| panic!("no button {label}: {:?}", message.buttons()))
}

/// A GIF frame as decoded: rectangle, delay (1/100 s), pixels not transparent.
#[derive(Debug, PartialEq, Eq)]
struct Frame {
    rect: (u16, u16, u16, u16),
    delay: u16,
    drawn: usize,
}

/// The decoded frames of a GIF, and its canvas size.
fn gif_frames(bytes: &[u8]) -> (Vec<Frame>, (u16, u16)) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(bytes).expect("a GIF");
    let size = (decoder.width(), decoder.height());
    let mut frames = Vec::new();
    while let Some(f) = decoder.read_next_frame().expect("a frame") {
        frames.push(Frame {
            rect: (f.left, f.top, f.width, f.height),
            delay: f.delay,
            drawn: f
                .buffer
                .iter()
                .filter(|&&i| Some(i) != f.transparent)
                .count(),
        });
    }
    (frames, size)
}

#[tokio::test]
async fn replay_steps_through_the_game_and_is_only_for_its_owner() {
    let mut t = Table::new().await;
    t.start_game(CH, &[]).await;
    t.play(CH, &MATE[..4]).await;

    // The running game, at its current ply.
    let opened = t.discord.run(&t.carol, CH, "replay", &[]).await;
    assert_eq!(opened.callback_type(), 4);
    assert!(opened.is_ephemeral(), "a replay is private");
    let message = opened.message().expect("replay message").clone();
    assert!(message.png().is_some());
    let text = message.text();
    assert!(
        text.contains("2... Nd5") && text.contains("ply 4 of 4"),
        "{text}"
    );
    let labels: Vec<String> = message.buttons().into_iter().map(|b| b.0).collect();
    assert_eq!(labels, ["⏮", "◀", "▶", "⏭", "Flip"]);
    assert!(button(&message, "▶").1, "nothing after the last ply");
    assert!(!button(&message, "⏭").1, "a running game may move on");

    // ◀ updates the same message (callback 7) to ply 3 and another picture.
    let back = t
        .discord
        .click(&t.carol, message.id, &button(&message, "◀").0)
        .await;
    assert_eq!(back.callback_type(), 7);
    let after = back.message().expect("updated").clone();
    assert_eq!(after.id, message.id, "the same message");
    assert!(
        after.text().contains("2. Rh1 (ply 3 of 4)"),
        "{}",
        after.text()
    );
    assert_ne!(after.png(), message.png(), "another position");
    assert_eq!(
        after.attachments.len(),
        1,
        "the picture is replaced, not added"
    );

    // ⏮: the start position, ⏮ and ◀ disabled; flip keeps the ply.
    let first = t
        .discord
        .click(&t.carol, message.id, &button(&after, "⏮").0)
        .await;
    let start = first.message().expect("start").clone();
    assert!(start.text().contains("Start position"), "{}", start.text());
    assert!(button(&start, "⏮").1 && button(&start, "◀").1);
    let start_png = makruk_bot::render::render_position(
        &makruk::Position::new(),
        &makruk_bot::render::RenderOptions::default(),
    )
    .expect("renders");
    assert_eq!(
        start.png(),
        Some(start_png.as_slice()),
        "the start, White below"
    );
    let flipped = t
        .discord
        .click(&t.carol, message.id, &button(&start, "Flip").0)
        .await;
    let flipped = flipped.message().expect("flipped").clone();
    assert!(flipped.text().contains("Start position"));
    let black_below = makruk_bot::render::render_position(
        &makruk::Position::new(),
        &makruk_bot::render::RenderOptions {
            orientation: makruk::Color::Black,
            ..makruk_bot::render::RenderOptions::default()
        },
    )
    .expect("renders");
    assert_eq!(flipped.png(), Some(black_below.as_slice()), "Black below");

    // Another user pressing Carol's buttons: a private refusal naming her, nothing changed.
    let foreign = t
        .discord
        .click(&t.alice, message.id, &button(&flipped, "▶").0)
        .await;
    assert_eq!(foreign.callback_type(), 4);
    assert!(foreign.is_ephemeral());
    assert!(
        foreign.text().contains(&t.carol.mention()),
        "{}",
        foreign.text()
    );
    let unchanged = t.discord.message(message.id).expect("still there");
    assert!(unchanged.text().contains("Start position"));

    // The game goes on; ⏭ catches up with it.
    t.discord
        .run(&t.alice, CH, "move", &[("move", MATE[4])])
        .await;
    let last = t
        .discord
        .click(&t.carol, message.id, &button(&flipped, "⏭").0)
        .await;
    assert!(
        last.text().contains("3. Nd2 (ply 5 of 5)"),
        "{}",
        last.text()
    );

    // A takeback removes ply 5: the button that shows it is stale.
    let shown = last.message().expect("ply 5").clone();
    t.discord.run(&t.alice, CH, "takeback", &[]).await;
    t.discord.click_label(&t.bob, CH, "Accept").await;
    let stale = t
        .discord
        .click(&t.carol, message.id, &button(&shown, "◀").0)
        .await;
    assert!(stale.is_ephemeral());
    assert!(stale.text().contains("out of date"), "{}", stale.text());

    // Forged ids and a game of another channel: private answers, no panic.
    for forged in [
        format!("mk:replay-next:999:0:w:{}", t.carol.id),
        format!("mk:replay-next:1:0:q:{}", t.carol.id),
        "mk:replay-next".to_owned(),
    ] {
        let answer = t.discord.click(&t.carol, message.id, &forged).await;
        assert!(answer.is_ephemeral(), "{forged}: {}", answer.text());
    }
    t.assert_clean();
    t.stop().await;
}

#[tokio::test]
async fn the_end_says_what_happened_offers_the_gif_and_board_lists_the_moves() {
    let mut t = Table::new().await;
    t.start_game(CH, &[]).await;

    // /board: the last moves, numbered, in SAN.
    t.play(CH, &MATE[..7]).await;
    let board = t.discord.run(&t.carol, CH, "board", &[]).await;
    let text = board.text();
    assert!(
        text.contains("Last moves: 1. Rh2 Ne7 2. Rh1 Nd5 3. Nd2 Nd7 4. Ne2"),
        "{text}"
    );

    // The mate: the first line says it.
    let end = t
        .discord
        .run(&t.bob, CH, "move", &[("move", MATE[7])])
        .await;
    let message = end.message().expect("end message").clone();
    let first_line = message.content.lines().next().unwrap_or("");
    assert!(
        first_line.starts_with("Black wins by checkmate"),
        "{first_line}"
    );
    assert!(first_line.contains(&t.alice.mention()) && first_line.contains(&t.bob.mention()));

    // Its GIF button: a private GIF of all 9 positions, 1 s each and 3 s on the last.
    let (gif_id, disabled) = button(&message, "Animated GIF");
    assert!(!disabled);
    let pressed = t.discord.click(&t.carol, message.id, &gif_id).await;
    assert!(pressed.is_ephemeral(), "{}", pressed.text());
    let file = pressed
        .message()
        .and_then(|m| m.attachments.iter().find(|a| a.filename.ends_with(".gif")))
        .expect("a GIF attached")
        .bytes
        .clone();
    let (frames, size) = gif_frames(&file);
    assert_eq!(size, (384, 384));
    assert_eq!(
        frames.len(),
        MATE.len() + 1,
        "the start and one frame per ply"
    );
    assert_eq!(frames[0].rect, (0, 0, 384, 384), "a whole first frame");
    assert_eq!(frames[0].drawn, 384 * 384);
    assert!(frames[..8].iter().all(|f| f.delay == 100));
    assert_eq!(frames[8].delay, 300, "the last position stays 3 s");
    // A ply redraws at most its two squares, the previous ply's two and a checked Khun's.
    assert!(
        frames[1..]
            .iter()
            .all(|f| f.drawn > 0 && f.drawn < 384 * 384 / 10),
        "later frames draw only what changed: {frames:?}"
    );

    // /gif: the same, publicly, for the last game of the channel or by number.
    let public = t.discord.run(&t.carol, CH, "gif", &[]).await;
    assert!(!public.is_ephemeral());
    let same = public
        .message()
        .and_then(|m| m.attachments.iter().find(|a| a.filename.ends_with(".gif")))
        .expect("a GIF attached");
    assert_eq!(same.bytes, file);
    let missing = t.discord.run(&t.carol, CH, "gif", &[("game", "99")]).await;
    assert!(missing.is_ephemeral(), "{}", missing.text());

    // A draw says so in its first line.
    t.start_game(CH, &[]).await;
    t.discord.run(&t.alice, CH, "draw", &[]).await;
    let agreed = t.discord.click_label(&t.bob, CH, "Accept").await;
    let first_line = agreed
        .message()
        .map(|m| m.content.lines().next().unwrap_or("").to_owned())
        .unwrap_or_default();
    assert!(first_line.starts_with("Draw by agreement"), "{first_line}");
    // A game that ended before its first move offers no GIF: nothing to animate.
    t.start_game(CH, &[]).await;
    let resigned = t.discord.run(&t.alice, CH, "resign", &[]).await;
    let message = resigned.message().expect("the end posted");
    assert!(message.content.contains("resign"), "{}", message.content);
    assert!(
        message.buttons().iter().all(|b| b.0 != "Animated GIF"),
        "{:?}",
        message.buttons()
    );
    t.assert_clean();
    t.stop().await;
}

/// A Thai user's replay is in Thai (plies as ครั้ง, the flip button, the refusal naming the Thai
/// command), whatever the server's language: a replay is private.
#[tokio::test]
async fn a_thai_users_replay_is_in_thai() {
    let mut t = Table::new().await;
    let somchai = t.discord.user("somchai", "th");
    let anong = t.discord.user("anong", "th");
    t.start_game(CH, &[]).await;
    t.play(CH, &MATE).await;

    let opened = t.discord.run(&somchai, CH, "replay", &[]).await;
    assert!(opened.is_ephemeral());
    let message = opened.message().expect("replay message").clone();
    let text = message.text();
    assert!(text.contains("ครั้งที่ 8 จาก 8"), "{text}");
    assert!(text.contains("เกม #"), "{text}");
    let labels: Vec<String> = message.buttons().into_iter().map(|b| b.0).collect();
    assert_eq!(labels, ["⏮", "◀", "▶", "⏭", "กลับด้านกระดาน"]);

    let back = t
        .discord
        .click(&somchai, message.id, &button(&message, "◀").0)
        .await;
    assert_eq!(back.callback_type(), 7);
    let after = back.message().expect("updated").clone();
    assert!(after.text().contains("ครั้งที่ 7 จาก 8"), "{}", after.text());
    let first = t
        .discord
        .click(&somchai, message.id, &button(&after, "⏮").0)
        .await;
    let start = first.message().expect("start").clone();
    assert!(
        start.text().contains("ตำแหน่งเริ่มต้น (ทั้งเกมเดิน 8 ครั้ง)"),
        "{}",
        start.text()
    );

    // Another Thai user: refused in Thai, pointed at the Thai command.
    let foreign = t
        .discord
        .click(&anong, message.id, &button(&start, "▶").0)
        .await;
    assert!(foreign.is_ephemeral());
    let refusal = foreign.text();
    assert!(refusal.contains("/ดูย้อนหลัง"), "{refusal}");
    assert!(refusal.contains(&somchai.mention()), "{refusal}");
    assert!(!refusal.contains("/replay"), "{refusal}");
    t.assert_clean();
    t.stop().await;
}

/// Stores a finished analysis of game `game` straight in the bot's database (chosen evals,
/// not the engine's, so that the texts are known): `plies` as `(eval, best, judgement)`, the stored forms.
async fn store_analysis(db: &str, game: i64, plies: &[(&str, Option<&str>, Option<&str>)]) {
    use sqlx::Connection as _;
    let mut conn = sqlx::SqliteConnection::connect(db).await.expect("database");
    let summary = serde_json::to_string(&makruk_bot::game::AnalysisSummary::default()).unwrap();
    sqlx::query(
        "INSERT INTO analyses (game_id, state, requested_ms, channel_id, engine, nodes, summary, \
         finished_ms) VALUES (?, 'done', 0, NULL, 'test', 1, ?, 0)",
    )
    .bind(game)
    .bind(summary)
    .execute(&mut conn)
    .await
    .expect("analysis");
    for (ply, (eval, best, judgement)) in plies.iter().enumerate() {
        sqlx::query(
            "INSERT INTO analysis_plies (game_id, ply, eval, best, judgement, accuracy, cp_loss) \
             VALUES (?, ?, ?, ?, ?, 50.0, 0)",
        )
        .bind(game)
        .bind(ply as i64)
        .bind(*eval)
        .bind(*best)
        .bind(*judgement)
        .execute(&mut conn)
        .await
        .expect("ply");
    }
    conn.close().await.expect("close");
}

#[tokio::test]
async fn an_analysed_game_shows_its_analysis_in_replay_and_pgn() {
    // Alice reads Thai.
    let t = Table::with(|_| {}, "th").await;
    t.start_game(CH, &[]).await;
    t.play(CH, &MATE).await;
    let uci = t.stored_moves().await;
    let mut plies = vec![("cp:-135", Some("e3e4"), Some("mistake"))];
    plies.extend(uci[1..7].iter().map(|_| ("cp:20", None, None)));
    plies.push(("checkmate:black", Some(uci[7].as_str()), None));
    store_analysis(&t.db, 1, &plies).await;

    // The last ply: checkmate, and Nxe3 was the engine's move.
    let opened = t.discord.run(&t.carol, CH, "replay", &[]).await;
    let message = opened.message().expect("replay message").clone();
    assert!(
        message
            .text()
            .contains("Nxe3# (ply 8 of 8)\nCheckmate · the best move"),
        "{}",
        message.text()
    );
    // The first ply: the eval after it, the best move before it, the judgement.
    let first = t
        .discord
        .click(&t.carol, message.id, &button(&message, "⏮").0)
        .await;
    let first = first.message().expect("updated").clone();
    assert!(!first.text().contains("Eval"), "the start has no move");
    let next = t
        .discord
        .click(&t.carol, first.id, &button(&first, "▶").0)
        .await;
    let text = next.message().expect("updated").text();
    assert!(
        text.contains("1. Rh2 (ply 1 of 8)\nEval \u{2212}1.35 · best was e4 · mistake"),
        "{text}"
    );
    // In Thai, for Alice.
    let thai = t.discord.run(&t.alice, CH, "replay", &[]).await;
    let text = thai.message().expect("replay message").text();
    assert!(text.contains("\nรุกจน · เป็นตาที่ดีที่สุด"), "{text}");

    // The PGN carries the evals and the mistake's NAG.
    let pgn = t.discord.run(&t.carol, CH, "pgn", &[]).await;
    let file = pgn
        .message()
        .expect("pgn message")
        .attachments
        .iter()
        .find(|a| a.filename.ends_with(".pgn"))
        .expect("a .pgn attachment")
        .bytes
        .clone();
    let pgn_text = String::from_utf8_lossy(&file);
    assert!(
        pgn_text.contains("1. Rh2 $2 { [%eval -1.35] } 1... Ne7 { [%eval 0.2] }"),
        "{pgn_text}"
    );
    assert!(
        pgn_text.contains("Nxe3# { [%eval #0] } 0-1\n"),
        "{pgn_text}"
    );
}
