//! End to end: Discord's HTTP failures, injected by the stand-in, against the real bot. Every
//! stored move still reaches its channel (issue 13, defect 1): a callback refused with a 5xx or
//! a 429 is tried again as Discord allows; one that cannot get through within the interaction's
//! 3 seconds (failing, or too slow) becomes a channel message; a failed edit of a deferred
//! answer becomes a follow-up, then a channel message; the computer's announced moves are
//! retried and, when Discord fails for longer, posted again by the periodic re-post; a move the
//! bot never got to show is posted at the next start. Each leaves no move unannounced.

use std::time::Duration;

use discord_standin::{Failure, Fault, Match, Message, Opt, Outcome, Route, Standin, User};
use makruk_bot::app::Config;
use testkit::table::Table;

const CH: u64 = 1_300_000_000_000_000_131;

/// The table ([`Table::with`], `change` made to the bot's configuration) with a game started:
/// Alice White to move.
async fn table(change: fn(&mut Config)) -> Table {
    let t = Table::with(change, "en-US").await;
    t.start_game(CH, &[]).await;
    t
}

/// The requests to `route` naming `key` (an interaction id, a token, a channel).
fn requests(discord: &Standin, route: Route, key: &str) -> Vec<discord_standin::RequestLog> {
    discord
        .requests(route)
        .into_iter()
        .filter(|r| r.key == key)
        .collect()
}

/// The public board of game 1 after `plies` plies, pinging `to_move`.
fn assert_board(message: &Message, plies: u32, to_move: &User) {
    let file = format!("makruk-1-{plies}.png");
    assert!(
        message.attachments.iter().any(|a| a.filename == file),
        "{file} in {:?}",
        message
            .attachments
            .iter()
            .map(|a| &a.filename)
            .collect::<Vec<_>>()
    );
    assert!(message.ephemeral_for.is_none(), "public");
    assert!(
        message.content.contains(&to_move.mention()),
        "{} is pinged: {}",
        to_move.name,
        message.content
    );
}

fn assert_answer_board(outcome: &Outcome, plies: u32, to_move: &User) {
    let message = outcome.message().expect("the answer");
    assert_board(message, plies, to_move);
}

/// Waits until `pred` holds, polling (what the stand-in cannot wait on: request counts).
async fn eventually(what: &str, mut pred: impl FnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + discord_standin::WAIT;
    while !pred() {
        assert!(tokio::time::Instant::now() < deadline, "timed out: {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_callback_refused_with_a_5xx_is_tried_again() {
    let mut t = table(|_| {}).await;
    // Not carried out: the second try makes the answer.
    t.discord
        .inject(Fault::on(Route::Callback, 1, Failure::Status(500)));
    let moved = t
        .discord
        .run(&t.alice, CH, "move", &[("move", "e3e4")])
        .await;
    assert_answer_board(&moved, 1, &t.bob);
    let id = moved.interaction.id.to_string();
    let tries = requests(&t.discord, Route::Callback, &id);
    assert_eq!(tries.len(), 2, "{tries:?}");
    assert_eq!(tries[0].fault, Some(Failure::Status(500)));

    // Carried out, but the answer lost (502): the retry hears "already acknowledged", which
    // says the board is there; no second message.
    t.discord
        .inject(Fault::on(Route::Callback, 1, Failure::StatusAfter(502)));
    let moved = t.discord.run(&t.bob, CH, "move", &[("move", "e6e5")]).await;
    assert_answer_board(&moved, 2, &t.alice);
    assert_eq!(moved.messages.len(), 1);
    // The board stands at once; the bot's retry follows (and is answered 40060).
    let id = moved.interaction.id.to_string();
    let discord = &t.discord;
    eventually("the callback tried again", || {
        requests(discord, Route::Callback, &id).len() == 2
    })
    .await;
    assert!(t.discord.posted_messages(CH).is_empty(), "no fallback");
    t.assert_clean();
    assert_eq!(t.unannounced().await, []);
}

#[tokio::test]
async fn a_429_is_waited_out_per_route_and_global() {
    let mut t = table(|_| {}).await;
    let wait = Duration::from_millis(600);
    // The stand-in records any request before `retry_after` as an error (assert_clean).
    t.discord.inject(Fault::on(
        Route::Callback,
        1,
        Failure::RateLimited {
            retry_after: wait,
            global: false,
        },
    ));
    let moved = t
        .discord
        .run(&t.alice, CH, "move", &[("move", "e3e4")])
        .await;
    assert_answer_board(&moved, 1, &t.bob);
    let id = moved.interaction.id.to_string();
    let tries = requests(&t.discord, Route::Callback, &id);
    assert_eq!(tries.len(), 2, "{tries:?}");
    assert!(tries[1].at - tries[0].at >= wait, "{tries:?}");

    t.discord.inject(Fault {
        route: Match::Any,
        times: 1,
        failure: Failure::RateLimited {
            retry_after: wait,
            global: true,
        },
    });
    let moved = t.discord.run(&t.bob, CH, "move", &[("move", "e6e5")]).await;
    assert_answer_board(&moved, 2, &t.alice);
    t.assert_clean();
    assert_eq!(t.unannounced().await, []);
}

#[tokio::test]
async fn a_callback_failing_for_3_seconds_becomes_a_channel_message() {
    let mut t = table(|_| {}).await;
    t.discord
        .inject(Fault::on(Route::Callback, 20, Failure::Status(503)));
    t.discord
        .send_command(&t.alice, CH, "move", &[("move", Opt::Str("e3e4".into()))]);
    let posted = t.discord.wait_posted(CH, 0).await;
    assert_board(&posted, 1, &t.bob);
    t.discord.clear_faults();
    // The game goes on: Bob saw the board and moves.
    let moved = t.discord.run(&t.bob, CH, "move", &[("move", "e6e5")]).await;
    assert_answer_board(&moved, 2, &t.alice);
    t.assert_clean();
    assert_eq!(t.unannounced().await, []);
}

#[tokio::test]
async fn a_callback_too_slow_for_the_3_seconds_becomes_a_channel_message() {
    let mut t = table(|_| {}).await;
    // The callback reaches Discord after the 3 seconds: "Unknown interaction", the token is
    // no good for a follow-up either (never acknowledged); the bot's own message remains.
    t.discord.inject(Fault::on(
        Route::Callback,
        1,
        Failure::Slow(Duration::from_millis(3300)),
    ));
    t.discord
        .send_command(&t.alice, CH, "move", &[("move", Opt::Str("e3e4".into()))]);
    let posted = t.discord.wait_posted(CH, 0).await;
    assert_board(&posted, 1, &t.bob);
    assert!(t.discord.requests(Route::Followup).is_empty());
    t.assert_clean();
    assert_eq!(t.unannounced().await, []);
}

#[tokio::test]
async fn a_deferred_answer_survives_failed_edits_and_follow_ups() {
    // Every answer deferred: acknowledged first, filled in by an edit. The Accept press too:
    // acknowledged silently (6), the challenge message then edited into the game.
    let mut t = Table::with(|c| c.defer_after_ms = 0, "en-US").await;
    let challenge = t.challenge(CH, &[]).await;
    let accepted = t.discord.click_label(&t.bob, CH, "Accept").await;
    assert_eq!(accepted.callback_type(), 6, "a deferred press");
    // Settled: the edit is in.
    let game = t
        .discord
        .message(challenge.id)
        .expect("the challenge message");
    assert!(
        game.buttons().is_empty() && game.png().is_some(),
        "{}",
        game.content
    );
    // One failed edit: tried again.
    t.discord
        .inject(Fault::on(Route::Edit, 1, Failure::Status(500)));
    let moved = t
        .discord
        .run(&t.alice, CH, "move", &[("move", "e3e4")])
        .await;
    assert_eq!(moved.callback_type(), 5);
    assert_answer_board(&moved, 1, &t.bob);
    assert_eq!(
        requests(&t.discord, Route::Edit, &moved.interaction.token).len(),
        2
    );

    // Edits failing for good: a follow-up (the token lasts 15 minutes) replaces "thinking…".
    t.discord
        .inject(Fault::on(Route::Edit, 5, Failure::Status(502)));
    let moved = t.discord.run(&t.bob, CH, "move", &[("move", "e6e5")]).await;
    assert_answer_board(&moved, 2, &t.alice);
    assert_eq!(
        requests(&t.discord, Route::Followup, &moved.interaction.token).len(),
        1
    );
    t.discord.clear_faults();

    // Edits and follow-ups failing: a channel message.
    t.discord
        .inject(Fault::on(Route::Edit, 5, Failure::Status(500)));
    t.discord
        .inject(Fault::on(Route::Followup, 5, Failure::Status(500)));
    t.discord
        .send_command(&t.alice, CH, "move", &[("move", Opt::Str("d3d4".into()))]);
    let posted = t.discord.wait_posted(CH, 0).await;
    assert_board(&posted, 3, &t.bob);
    t.discord.clear_faults();

    // A private answer's follow-up refused once: tried again.
    t.discord
        .inject(Fault::on(Route::Followup, 1, Failure::Status(502)));
    let refused = t
        .discord
        .run(&t.alice, CH, "move", &[("move", "d4d5")])
        .await;
    assert!(refused.is_ephemeral(), "{}", refused.text());
    assert!(
        refused.text().contains("not your turn"),
        "{}",
        refused.text()
    );
    assert_eq!(
        requests(&t.discord, Route::Followup, &refused.interaction.token).len(),
        2
    );
    t.assert_clean();
    assert_eq!(t.unannounced().await, []);
}

/// The table ([`Table::with`], `change` made to the bot's configuration) with Alice playing
/// White against the computer (level 1, quick).
async fn computer_table(change: fn(&mut Config)) -> Table {
    let t = Table::with(change, "en-US").await;
    let start = t
        .discord
        .run(&t.alice, CH, "play", &[("level", "1"), ("color", "white")])
        .await;
    assert!(start.png().is_some(), "{}", start.text());
    t
}

async fn unannounced_in(db: &str) -> usize {
    let service = makruk_bot::game::GameService::open(db)
        .await
        .expect("the database opens");
    let n = service.unannounced().await.expect("unannounced").len();
    service.close().await;
    n
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computers_move_is_posted_through_5xx_and_re_posted_after_longer_failures() {
    let mut t = computer_table(|c| {
        c.engine_max_think_ms = 50;
        c.repost_every = Duration::from_millis(500);
    })
    .await;
    let (discord, alice) = (&t.discord, t.alice.clone());
    // Two failures: the announcement's own retries get it through.
    discord.inject(Fault::on(Route::ChannelMessage, 2, Failure::Status(500)));
    let mine = discord.run(&alice, CH, "move", &[("move", "e3e4")]).await;
    assert!(mine.png().is_some());
    let reply = discord.wait_posted(CH, 0).await;
    assert!(
        reply
            .attachments
            .iter()
            .any(|a| a.filename == "makruk-1-2.png"),
        "the computer's move"
    );
    assert!(
        reply.content.contains(&alice.mention()),
        "{}",
        reply.content
    );
    assert_eq!(discord.requests(Route::ChannelMessage).len(), 3);

    // Failing longer than the retries last (5 tries): the periodic re-post posts it.
    discord.inject(Fault::on(Route::ChannelMessage, 5, Failure::Status(503)));
    let mine = discord.run(&alice, CH, "move", &[("move", "d3d4")]).await;
    assert!(mine.png().is_some());
    let reply = discord.wait_posted(CH, 1).await;
    assert!(
        reply
            .attachments
            .iter()
            .any(|a| a.filename == "makruk-1-4.png"),
        "the computer's second move"
    );
    assert!(discord.requests(Route::ChannelMessage).len() >= 9);
    assert_eq!(discord.posted_messages(CH).len(), 2, "posted once");
    assert!(discord.errors().is_empty(), "{:?}", discord.errors());
    t.stop().await;
    assert_eq!(unannounced_in(&t.db).await, 0);
}

#[tokio::test]
async fn a_move_never_shown_is_posted_at_the_next_start() {
    let mut t = table(|_| {}).await;
    // Discord fails everything for longer than the bot tries: the move is stored, unshown.
    t.discord.inject(Fault {
        route: Match::Any,
        times: 100,
        failure: Failure::Status(503),
    });
    t.discord
        .send_command(&t.alice, CH, "move", &[("move", Opt::Str("e3e4".into()))]);
    let discord = &t.discord;
    eventually("the bot gives up on the channel message", || {
        discord.requests(Route::ChannelMessage).len() >= 5
    })
    .await;
    assert!(t.discord.posted_messages(CH).is_empty());
    assert_eq!(t.unannounced().await, [(1, 1)]);

    t.discord.clear_faults();
    t.restart().await;
    let posted = t.discord.wait_posted(CH, 0).await;
    assert_board(&posted, 1, &t.bob);
    assert!(
        posted.text().contains("e4"),
        "the move is named: {}",
        posted.text()
    );
    // Bob plays on.
    let moved = t.discord.run(&t.bob, CH, "move", &[("move", "e6e5")]).await;
    assert_answer_board(&moved, 2, &t.alice);
    t.assert_clean();
    assert_eq!(t.unannounced().await, []);
    // A restart with nothing unannounced posts nothing.
    t.restart().await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(t.discord.posted_messages(CH).len(), 1);
    t.stop().await;
}

#[tokio::test]
async fn a_board_that_got_through_unconfirmed_is_not_posted_twice() {
    let mut t = table(|_| {}).await;
    // The callback fails; the first channel message is carried out but its answer lost, the
    // next ones fail: the board is in the channel, the bot thinks not and leaves it unmarked.
    t.discord
        .inject(Fault::on(Route::Callback, 20, Failure::Status(503)));
    t.discord.inject(Fault::on(
        Route::ChannelMessage,
        1,
        Failure::StatusAfter(502),
    ));
    t.discord
        .inject(Fault::on(Route::ChannelMessage, 4, Failure::Status(503)));
    t.discord
        .send_command(&t.alice, CH, "move", &[("move", Opt::Str("e3e4".into()))]);
    let discord = &t.discord;
    eventually("the bot gives up on the channel message", || {
        discord.requests(Route::ChannelMessage).len() >= 5
    })
    .await;
    assert_eq!(
        t.discord.posted_messages(CH).len(),
        1,
        "one board got through"
    );
    assert_eq!(t.unannounced().await, [(1, 1)]);

    // At the next start the re-post finds that board in the channel's history: no second
    // board, no second ping; the move is marked.
    t.discord.clear_faults();
    t.restart().await;
    let deadline = tokio::time::Instant::now() + discord_standin::WAIT;
    while unannounced_in(&t.db).await > 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "marked by the re-post"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(t.unannounced().await, []);
    assert_eq!(t.discord.posted_messages(CH).len(), 1, "not posted again");
    t.restart().await;
    let moved = t.discord.run(&t.bob, CH, "move", &[("move", "e6e5")]).await;
    assert_answer_board(&moved, 2, &t.alice);
    assert_eq!(t.discord.posted_messages(CH).len(), 1);
    t.assert_clean();
    assert_eq!(t.unannounced().await, []);
}
