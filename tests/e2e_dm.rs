//! End to end: the bot as an app installed to users' accounts (issue 22), used in a DM and a
//! group DM where it is not a member. Discord (the stand-in) refuses its channel messages there
//! (50001, recorded as an error) and takes at most 5 follow-ups per interaction, for 15
//! minutes: every test ends with no error recorded, so the bot never tried to post there.

use std::time::Duration;

use discord_standin::{Bot, Failure, Fault, Opt, Route, Standin, BOT_ID};
use testkit::bot::{launcher, launcher_on, sim_clock, temp_database};

/// The commands registered for servers, DMs and group DMs alike (issue 22's list, and the
/// others that make sense there).
const EVERYWHERE: &[&str] = &[
    "challenge",
    "accept",
    "decline",
    "play",
    "move",
    "board",
    "resign",
    "draw",
    "takeback",
    "abort",
    "count",
    "rules",
    "games",
    "pgn",
    "replay",
    "gif",
    "analyse",
    "puzzle",
    "solve",
];

/// The commands of a server only: its ratings, settings and tournaments.
const SERVER_ONLY: &[&str] = &["leaderboard", "stats", "settings", "tournament"];

fn numbers(v: &serde_json::Value) -> Vec<u64> {
    v.as_array()
        .map(|a| a.iter().filter_map(serde_json::Value::as_u64).collect())
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_are_registered_for_where_they_work() {
    let discord = Standin::start().await;
    let (_dir, db) = temp_database();
    let clock = sim_clock();
    let bot = Bot::start(&discord, launcher_on(&db, &clock)).await;
    let global = discord.commands(None);
    assert_eq!(global.len(), EVERYWHERE.len() + SERVER_ONLY.len());
    for c in &global {
        let name = c["name"].as_str().expect("a name");
        let (install, contexts) = (numbers(&c["integration_types"]), numbers(&c["contexts"]));
        if EVERYWHERE.contains(&name) {
            assert_eq!((install, contexts), (vec![0, 1], vec![0, 1, 2]), "/{name}");
        } else {
            assert!(SERVER_ONLY.contains(&name), "/{name} is placed");
            assert_eq!((install, contexts), (vec![0], vec![0]), "/{name}");
        }
    }
    let alice = discord.user("alice", "en-US");
    let bob = discord.user("bob", "th");
    let dm = discord.dm(&alice, &bob);
    assert!(discord.offered(dm, "move") && discord.offered(dm, "challenge"));
    assert!(!discord.offered(dm, "leaderboard") && !discord.offered(dm, "settings"));
    // Puzzles work in a DM too (issue 24): privately, as everywhere.
    assert!(discord.offered(dm, "puzzle") && discord.offered(dm, "solve"));
    let puzzle = discord.run(&alice, dm, "puzzle", &[]).await;
    assert!(
        puzzle.is_ephemeral() && puzzle.png().is_some(),
        "{}",
        puzzle.text()
    );

    // An old client that still sends a server's command in a DM is told why, privately, in the
    // user's language.
    for (user, name, why) in [
        (&alice, "leaderboard", "belong to a server"),
        (&bob, "stats", "เป็นของแต่ละเซิร์ฟเวอร์"),
    ] {
        let token = discord.send_unoffered_command(user, dm, name, &[]);
        let answer = discord.settled(&token).await;
        assert!(answer.is_ephemeral(), "/{name}: {}", answer.text());
        assert!(answer.text().contains(why), "/{name}: {}", answer.text());
    }
    assert_eq!(discord.errors(), Vec::<String>::new());
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_friends_play_a_game_in_a_dm_to_the_end() {
    let discord = Standin::start().await;
    let (_dir, db) = temp_database();
    let bot = Bot::start(&discord, launcher(&db, |c| c.guild_id = None)).await;
    let alice = discord.user("alice", "en-US");
    let bob = discord.user("bob", "en-US");
    let dm = discord.dm(&alice, &bob);

    let challenge = discord
        .run(
            &alice,
            dm,
            "challenge",
            &[("opponent", "@bob"), ("color", "white"), ("thread", "true")],
        )
        .await;
    assert!(!challenge.is_ephemeral(), "{}", challenge.text());
    let text = challenge.text();
    assert!(text.contains("so it is unrated"), "{text}");
    assert!(
        text.contains("I can only answer commands and buttons"),
        "{text}"
    );
    let accepted = discord.click_label(&bob, dm, "Accept").await;
    assert!(accepted.png().is_some(), "{}", accepted.text());
    // No thread outside a server: the game is played in the DM.
    assert!(discord.threads().is_empty());

    // Fairy-Stockfish game s4-engine-g97: Black mates on its fourth move.
    let moves = [
        (&alice, "Rh2"),
        (&bob, "Ne7"),
        (&alice, "Rh1"),
        (&bob, "Nd5"),
        (&alice, "Nd2"),
        (&bob, "Nd7"),
        (&alice, "Ne2"),
        (&bob, "Nxe3#"),
    ];
    for (user, mv) in moves {
        let answer = discord.run(user, dm, "move", &[("move", mv)]).await;
        assert!(!answer.is_ephemeral(), "{mv}: {}", answer.text());
        assert!(answer.png().is_some(), "{mv}: the board");
    }
    let board = discord.run(&alice, dm, "board", &[]).await;
    assert!(
        board.text().contains("wins by checkmate"),
        "{}",
        board.text()
    );
    let pgn = discord.run(&bob, dm, "pgn", &[]).await;
    assert!(pgn.text().contains("PGN of game #1"), "{}", pgn.text());
    let gif = discord.run(&bob, dm, "gif", &[]).await;
    assert!(gif.text().contains("animated GIF"), "{}", gif.text());
    // Nothing posted by the bot on its own in the DM (it cannot): every board was an answer.
    assert!(
        discord.posted_messages(dm).is_empty(),
        "nothing posted by itself: {:#?}",
        discord
            .posted_messages(dm)
            .iter()
            .map(|m| m.text())
            .collect::<Vec<_>>()
    );
    assert_eq!(discord.errors(), Vec::<String>::new());
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_answers_in_follow_ups_and_a_flag_shows_at_the_next_command() {
    let discord = Standin::start().await;
    let (_dir, db) = temp_database();
    let clock = sim_clock();
    let bot = Bot::start(&discord, launcher_on(&db, &clock)).await;
    let alice = discord.user("alice", "en-US");
    let bob = discord.user("bob", "en-US");
    let carol = discord.user("carol", "en-US");
    let group = discord.group_dm(&[&alice, &bob, &carol]);
    let bot_mention = format!("<@{BOT_ID}>");

    let start = discord
        .run(
            &carol,
            group,
            "play",
            &[("level", "1"), ("color", "white"), ("time", "3+2")],
        )
        .await;
    assert!(
        start
            .text()
            .contains("I can only answer commands and buttons"),
        "{}",
        start.text()
    );
    for (i, mv) in ["Nd2", "Ne2"].into_iter().enumerate() {
        let mine = discord.run(&carol, group, "move", &[("move", mv)]).await;
        assert!(
            mine.messages[0].content.starts_with(&bot_mention),
            "{mv}: {}",
            mine.text()
        );
        // The computer's reply: a follow-up of carol's move (the bot cannot post here).
        let reply = discord.wait_posted(group, i).await;
        assert!(reply.after_answer, "a follow-up");
        assert!(reply.png().is_some(), "{}", reply.content);
        assert!(
            reply.content.contains(&carol.mention()) && reply.content.contains("your move"),
            "{}",
            reply.content
        );
    }
    assert_eq!(
        discord.posted_messages(group).len(),
        2,
        "one reply per move"
    );

    // Nobody types for 20 minutes: carol's flag falls, no interaction can carry it (their
    // tokens expired)...
    discord.expire_tokens();
    clock.advance(Duration::from_secs(20 * 60)).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        discord.posted_messages(group).len(),
        2,
        "nothing could be sent"
    );
    // ... and it is shown with the next command's answer, whatever it is.
    let rules = discord.run(&bob, group, "rules", &[]).await;
    assert!(
        !rules.text().contains("ran out of time"),
        "{}",
        rules.text()
    );
    let flag = discord.wait_posted(group, 2).await;
    assert!(flag.after_answer, "a follow-up of /rules");
    assert!(
        flag.text().contains("ran out of time") && flag.text().contains("Black wins"),
        "{}",
        flag.text()
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(discord.posted_messages(group).len(), 3, "shown once");
    assert_eq!(discord.errors(), Vec::<String>::new());
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_lost_in_a_dm_waits_for_the_next_command_across_a_restart() {
    let discord = Standin::start().await;
    let (_dir, db) = temp_database();
    let start = || launcher(&db, |c| c.guild_id = None);
    let bot = Bot::start(&discord, start()).await;
    let alice = discord.user("alice", "en-US");
    let bob = discord.user("bob", "en-US");
    let dm = discord.dm(&alice, &bob);
    discord
        .run(
            &alice,
            dm,
            "challenge",
            &[("opponent", "@bob"), ("color", "white")],
        )
        .await;
    discord.click_label(&bob, dm, "Accept").await;

    // Alice's answer reaches Discord after its 3 seconds: refused, and the bot cannot post the
    // board in the DM instead. The move is stored, its board never shown.
    discord.inject(Fault::on(
        Route::Callback,
        1,
        Failure::Slow(Duration::from_millis(3300)),
    ));
    discord.send_command(&alice, dm, "move", &[("move", Opt::Str("Rh2".into()))]);
    tokio::time::sleep(Duration::from_millis(4500)).await;
    assert!(discord.posted_messages(dm).is_empty());

    // A restart knows the DM takes only answers: it does not try to post there (that would be
    // recorded as a 50001)...
    bot.stop().await;
    let bot = Bot::start(&discord, start()).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(discord.posted_messages(dm).is_empty());
    // ... and bob's next command brings the board, as a follow-up of its answer.
    // (`/rules` answers privately; its token carries a public follow-up all the same.)
    discord.run(&bob, dm, "rules", &[]).await;
    let board = discord.wait_posted(dm, 0).await;
    assert!(board.after_answer);
    assert!(
        board.text().contains("played **Rh2**") && board.text().contains(&bob.mention()),
        "{}",
        board.text()
    );
    assert!(board.visible_to(alice.id), "a public follow-up");
    assert!(board.png().is_some());
    assert_eq!(discord.errors(), Vec::<String>::new());
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bots_own_dm_posts_and_speaks_the_users_language() {
    let discord = Standin::start().await;
    let (_dir, db) = temp_database();
    let bot = Bot::start(&discord, launcher(&db, |c| c.guild_id = None)).await;
    let somchai = discord.user("somchai", "th");
    let friend = discord.user("friend", "th");
    let mine = discord.bot_dm(&somchai);

    // Nobody else is in one's DM with the bot: a challenge there is refused, with why.
    let refused = discord
        .run(&somchai, mine, "challenge", &[("opponent", "@friend")])
        .await;
    assert!(refused.is_ephemeral());
    assert!(refused.text().contains("มีแค่คุณกับบอท"), "{}", refused.text());

    // The computer's reply there is a plain message of the bot's (it is in that DM), in Thai,
    // without the note of the DMs it may only answer in.
    let start = discord
        .run(
            &somchai,
            mine,
            "play",
            &[("level", "1"), ("color", "white")],
        )
        .await;
    assert!(
        !start.text().contains("ที่นี่บอทตอบได้เฉพาะ"),
        "{}",
        start.text()
    );
    discord
        .run(&somchai, mine, "move", &[("move", "Nd2")])
        .await;
    let reply = discord.wait_posted(mine, 0).await;
    assert!(!reply.after_answer, "a channel message");
    assert!(reply.text().contains("ถึงตาคุณเดินแล้ว"), "{}", reply.text());

    // In a DM of two Thai users (the bot not in it), the computer's follow-up is Thai too.
    let dm = discord.dm(&somchai, &friend);
    discord
        .run(&friend, dm, "play", &[("level", "1"), ("color", "white")])
        .await;
    discord.run(&friend, dm, "move", &[("move", "Nd2")]).await;
    let reply = discord.wait_posted(dm, 0).await;
    assert!(reply.after_answer, "a follow-up");
    assert!(reply.text().contains("ถึงตาคุณเดินแล้ว"), "{}", reply.text());
    assert_eq!(discord.errors(), Vec::<String>::new());
    bot.stop().await;
}
