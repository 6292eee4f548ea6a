//! End to end: a game against the computer with the real bot and the Discord stand-in. The
//! human's move is answered at once by the interaction; the computer's reply comes as a message
//! of its own (board and status); level 9 without Fairy-Stockfish, and `/challenge` of the bot.

use discord_standin::{Bot, Standin, BOT_ID};
use testkit::bot::{launcher, temp_database};

const CHANNEL: u64 = 1_300_000_000_000_000_201;
const OTHER: u64 = 1_300_000_000_000_000_202;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_replies_in_a_message_of_its_own() {
    let discord = Standin::start().await;
    let (_dir, db) = temp_database();
    let bot = Bot::start(
        &discord,
        launcher(&db, |c| {
            c.fairy_stockfish_path = "/nonexistent/fairy-stockfish".into();
            c.engine_max_think_ms = 100;
        }),
    )
    .await;
    let alice = discord.user("alice", "en-US");
    let bot_mention = format!("<@{BOT_ID}>");

    // Level 9 is refused privately when Fairy-Stockfish is missing, and under other rules.
    let missing = discord
        .run(&alice, CHANNEL, "play", &[("level", "Fairy-Stockfish")])
        .await;
    assert!(missing.is_ephemeral());
    assert!(
        missing
            .text()
            .contains("Fairy-Stockfish is not installed on this bot"),
        "{}",
        missing.text()
    );

    let start = discord
        .run(
            &alice,
            CHANNEL,
            "play",
            &[("level", "1"), ("color", "white")],
        )
        .await;
    assert!(!start.is_ephemeral(), "{}", start.text());
    assert!(start.png().is_some(), "the board");
    assert!(start.text().contains(&alice.mention()), "{}", start.text());
    assert!(
        discord.posted_messages(CHANNEL).is_empty(),
        "alice moves first"
    );

    for (i, mv) in ["Nd2", "Ne2", "Rh2"].into_iter().enumerate() {
        let mine = discord.run(&alice, CHANNEL, "move", &[("move", mv)]).await;
        assert!(!mine.is_ephemeral(), "{mv}: {}", mine.text());
        assert!(
            mine.messages[0].content.starts_with(&bot_mention)
                && mine.messages[0].content.contains("is thinking")
                && !mine.messages[0].content.contains("your move"),
            "the computer is to move, and not pinged: {}",
            mine.text()
        );
        let reply = discord.wait_posted(CHANNEL, i).await;
        assert!(
            reply.png().is_some(),
            "the computer's reply shows the board"
        );
        assert!(
            reply.content.starts_with(&alice.mention()),
            "alice is to move again: {}",
            reply.text()
        );
    }
    // One reply per move, and the game is one: a second /play here is refused.
    assert_eq!(discord.posted_messages(CHANNEL).len(), 3);
    let busy = discord.run(&alice, CHANNEL, "play", &[]).await;
    assert!(busy.is_ephemeral(), "{}", busy.text());
    let back = discord.run(&alice, CHANNEL, "takeback", &[]).await;
    assert!(!back.is_ephemeral(), "{}", back.text());
    assert!(back.messages[0].content.starts_with(&alice.mention()));

    // `/challenge` of the bot starts a game against it (level 3); as Black alice waits for
    // the computer's first move.
    let challenge = discord
        .run(
            &alice,
            OTHER,
            "challenge",
            &[("opponent", "@Makruk"), ("color", "black")],
        )
        .await;
    assert!(challenge.png().is_some(), "{}", challenge.text());
    let first = discord.wait_posted(OTHER, 0).await;
    assert!(
        first.content.starts_with(&alice.mention()),
        "{}",
        first.text()
    );

    assert!(discord.errors().is_empty(), "{:?}", discord.errors());
    bot.stop().await;
}
