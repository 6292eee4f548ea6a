//! End to end (real bot, stand-in): `/analyse` and the Analyse button under a finished game —
//! refused while the game runs, a waiting message that becomes the result (the eval graph, each
//! side's totals, the key moments with their boards), the stored result shown at once when
//! asked again, the button's waiting message followed the same way, the last finished game
//! taken while another runs, a game without moves refused, each result shown once, and an
//! analysis asked for before a restart posted in its channel after it.

use discord_standin::{Message, Standin};
use makruk_bot::analysis::ENGINE;
use makruk_bot::game::{AnalysisStatus, ChannelId, GameService};
use testkit::table::Table;

const CH: u64 = 1_300_000_000_000_000_091;

/// A checkmate in 8 plies of the conformance data (`s4-engine-g97`, Black mates with `Nxe3#`).
const MATE: [&str; 8] = ["Rh2", "Ne7", "Rh1", "Nd5", "Nd2", "Nd7", "Ne2", "Nxe3#"];

/// A small budget: the analysis of these short games takes milliseconds.
const NODES: u64 = 3000;

fn small_budget(c: &mut makruk_bot::app::Config) {
    c.analysis_nodes = NODES;
}

/// The size of PNG `bytes`.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let reader = decoder.read_info().expect("a PNG");
    let info = reader.info();
    (info.width, info.height)
}

/// The message `id` as the stand-in has it now.
fn message(discord: &Standin, id: u64) -> Message {
    discord.message(id).expect("the message exists")
}

/// How many messages of the channel show game `game`'s analysis.
fn results(discord: &Standin, game: i64) -> usize {
    discord
        .channel_messages(CH)
        .iter()
        .filter(|m| is_result(m, game))
        .count()
}

fn is_result(m: &Message, game: i64) -> bool {
    m.text()
        .contains(&format!("Computer analysis of game #{game}"))
}

/// Checks a result message: the graph (640 × 240) and one board per key moment, each side's
/// totals, the key moments, the engine line.
fn check_result(m: &Message, game: i64) {
    let text = m.text();
    assert!(is_result(m, game), "{text}");
    assert!(m.ephemeral_for.is_none(), "the result is public");
    let graph = m
        .attachments
        .iter()
        .find(|a| a.filename == format!("makruk-analysis-{game}.png"))
        .expect("the eval graph");
    assert_eq!(png_size(&graph.bytes), (640, 240));
    assert!(
        text.contains("**White**") && text.contains("**Black**"),
        "{text}"
    );
    assert!(text.contains("accuracy **"), "{text}");
    assert!(text.contains("average loss"), "{text}");
    assert!(text.contains("3,000 nodes a position"), "{text}");
    assert!(text.contains("Key moments"), "{text}");
    let boards = m
        .attachments
        .iter()
        .filter(|a| a.filename.starts_with(&format!("makruk-analysis-{game}-")))
        .count();
    // The key moments, each with its board (the mated side's moves lost everything).
    assert!(
        boards >= 1,
        "{:?}",
        m.attachments
            .iter()
            .map(|a| &a.filename)
            .collect::<Vec<_>>()
    );
    assert_eq!(boards, text.matches("Best was **").count(), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_analysed_and_shown_in_the_channel() {
    let mut t = Table::with(small_budget, "en-US").await;
    t.start_game(CH, &[]).await;
    t.play(CH, &MATE[..4]).await;

    // A game still being played is not analysed.
    let early = t.discord.run(&t.carol, CH, "analyse", &[]).await;
    assert!(early.is_ephemeral(), "{}", early.text());
    assert!(
        early.text().contains("still being played"),
        "{}",
        early.text()
    );

    let end = t.play(CH, &MATE[4..]).await;
    let end_message = end.message().expect("the end").clone();
    let buttons = end_message.buttons();
    let analyse_button = buttons
        .iter()
        .find(|b| b.0 == "Analyse")
        .unwrap_or_else(|| panic!("no Analyse button: {buttons:?}"))
        .1
        .clone();

    // /analyse: a public waiting message ("in line" or "analysing… N%") that becomes the result.
    let asked = t.discord.run(&t.carol, CH, "analyse", &[]).await;
    assert!(!asked.is_ephemeral(), "{}", asked.text());
    let first = asked.message().expect("an answer").clone();
    let waiting = first.text();
    assert!(
        is_result(&first, 1)
            || waiting.contains("in line for analysis")
            || waiting.contains("Analysing game #1"),
        "{waiting}"
    );
    t.wait_for("the analysis result", |d| {
        is_result(&message(d, first.id), 1)
    })
    .await;
    let result = message(&t.discord, first.id);
    check_result(&result, 1);

    // The button: stored, so the result at once, as a new public message.
    let pressed = t
        .discord
        .click(&t.bob, end_message.id, &analyse_button)
        .await;
    let shown = pressed.message().expect("a message").clone();
    check_result(&shown, 1);
    assert_ne!(shown.id, end_message.id, "the game's board stays");
    // The same analysis: the same totals.
    assert_eq!(
        shown
            .text()
            .lines()
            .filter(|l| l.contains("accuracy"))
            .collect::<Vec<_>>(),
        result
            .text()
            .lines()
            .filter(|l| l.contains("accuracy"))
            .collect::<Vec<_>>()
    );
    // Another game number of this channel that does not exist.
    let missing = t
        .discord
        .run(&t.carol, CH, "analyse", &[("game", "99")])
        .await;
    assert!(missing.is_ephemeral(), "{}", missing.text());

    // The button under a game not analysed yet: its answer is the waiting message, followed
    // into the result (the pressed board unchanged).
    t.start_game(CH, &[]).await;
    let end = t.play(CH, &MATE).await;
    let board = end.message().expect("the end").clone();
    let (_, analyse_id, _) = board
        .buttons()
        .into_iter()
        .find(|b| b.0 == "Analyse")
        .expect("an Analyse button");
    let pressed = t.discord.click(&t.carol, board.id, &analyse_id).await;
    let waiting = pressed.message().expect("a message").clone();
    assert_ne!(waiting.id, board.id, "a new message, the board stays");
    t.wait_for("the pressed analysis' result", |d| {
        is_result(&message(d, waiting.id), 2)
    })
    .await;
    check_result(&message(&t.discord, waiting.id), 2);
    assert!(
        message(&t.discord, board.id)
            .text()
            .contains("wins by checkmate"),
        "the board is untouched"
    );

    // While a new game runs, /analyse takes the channel's last finished game (stored: at once).
    t.start_game(CH, &[]).await;
    let last = t.discord.run(&t.carol, CH, "analyse", &[]).await;
    assert!(
        is_result(last.message().expect("a result"), 2),
        "{}",
        last.text()
    );
    // A game that ended before its first move has nothing to analyse.
    t.discord.run(&t.alice, CH, "resign", &[]).await;
    let empty = t.discord.run(&t.carol, CH, "analyse", &[]).await;
    assert!(empty.is_ephemeral(), "{}", empty.text());
    assert!(
        empty.text().contains("before its first move"),
        "{}",
        empty.text()
    );

    // Each result was shown exactly once per request: game 1 by /analyse and the button, game
    // 2 by the button and the /analyse above.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;

    assert_eq!((results(&t.discord, 1), results(&t.discord, 2)), (2, 2));

    // An analysis asked for while the bot was down (queued in the database) is made after the
    // restart and posted in its channel, nobody's message waiting for it.
    t.start_game(CH, &[]).await;
    t.play(CH, &MATE).await;
    t.stop().await;
    let service = GameService::open(&t.db).await.expect("the database opens");
    let status = service
        .request_analysis(ChannelId(CH), None, ENGINE, NODES)
        .await
        .expect("queued");
    assert!(
        matches!(status, AnalysisStatus::Queued { .. }),
        "{status:?}"
    );
    service.close().await;
    let before = t.discord.channel_messages(CH).len();
    t.restart().await;
    t.wait_for("the resumed analysis posted", |d| {
        d.channel_messages(CH)
            .iter()
            .skip(before)
            .any(|m| is_result(m, 4))
    })
    .await;
    let posted = t
        .discord
        .channel_messages(CH)
        .into_iter()
        .skip(before)
        .find(|m| is_result(m, 4))
        .expect("posted");
    check_result(&posted, 4);
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(results(&t.discord, 4), 1, "posted once");
    t.assert_clean();
    t.stop().await;
}
