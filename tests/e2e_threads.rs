//! End to end (real bot, stand-in): games in their own thread (`/challenge … thread:true`,
//! `/play … thread:true`, `/settings thread:on`), the thread refused for lack of permission, and
//! the server's language (public messages) against the user's (private answers).

use discord_standin::{Failure, Fault};
use testkit::table::Table;

const CH: u64 = 1_300_000_000_000_000_501;

/// A checkmate in 8 plies of the conformance data (`s4-engine-g97`, Black mates with `Nxe3#`).
const MATE: [&str; 8] = ["Rh2", "Ne7", "Rh1", "Nd5", "Nd2", "Nd7", "Ne2", "Nxe3#"];

/// Discord's Manage Server permission bit.
const MANAGE_GUILD: u64 = 1 << 5;

/// Whether `text` has Thai letters.
fn is_thai(text: &str) -> bool {
    text.chars().any(|c| ('\u{0E01}'..='\u{0E5B}').contains(&c))
}

#[tokio::test]
async fn an_accepted_thread_challenge_plays_in_its_thread_and_the_parent_gets_the_result() {
    let mut t = Table::new().await;
    let challenge = t.challenge(CH, &[("thread", "true")]).await;
    assert!(
        challenge.text().contains("thread of its own"),
        "{}",
        challenge.text()
    );

    let accepted = t.discord.click_label(&t.bob, CH, "Accept").await;
    assert_eq!(
        accepted.callback_type(),
        7,
        "the challenge message is updated"
    );
    let threads = t.discord.threads();
    assert_eq!(threads.len(), 1, "{threads:?}");
    let thread = &threads[0];
    // Opened from the challenge message, named after the players, archived after a day.
    assert_eq!(thread.id, challenge.id);
    assert_eq!(thread.parent_id, CH);
    assert_eq!(thread.name, "alice vs bob — Makruk");
    assert_eq!(thread.auto_archive_duration, 1440);
    let parent = t
        .discord
        .message(challenge.id)
        .expect("the challenge message");
    assert!(
        parent.content.contains(&format!("<#{}>", thread.id)),
        "{}",
        parent.content
    );
    assert!(parent.buttons().is_empty(), "{:?}", parent.buttons());
    // The board is in the thread, Alice pinged.
    let board = t.discord.wait_posted(thread.id, 0).await;
    assert!(board.png().is_some());
    assert!(
        board.text().contains(&t.alice.mention()),
        "{}",
        board.text()
    );

    // The channel itself is free: a second challenge there, played in the channel.
    t.challenge(CH, &[("thread", "false")]).await;
    let second = t.discord.click_label(&t.bob, CH, "Accept").await;
    assert!(second.png().is_some(), "{}", second.text());
    assert_eq!(t.discord.threads().len(), 1);
    t.play(CH, &["Rh2"]).await;

    // The thread's game is played there to mate; its starting message then says so.
    let edits = t
        .discord
        .message(challenge.id)
        .expect("the challenge message")
        .edits;
    t.play(thread.id, &MATE).await;
    let parent = t.discord.wait_edited(challenge.id, edits).await;
    assert!(parent.content.contains("is over"), "{}", parent.content);
    assert!(parent.content.contains("checkmate"), "{}", parent.content);
    assert!(parent.content.contains(&format!("<#{}>", thread.id)));
    // The channel's own game was not touched by the thread's.
    let board = t.discord.run(&t.alice, CH, "board", &[]).await;
    assert!(!board.text().contains("checkmate"), "{}", board.text());
    t.assert_clean();
    t.stop().await;
}

/// Whether `outcome` carries a `.pgn` file containing `text`.
fn pgn_contains(outcome: &discord_standin::Outcome, text: &str) -> bool {
    outcome
        .messages
        .iter()
        .flat_map(|m| &m.attachments)
        .any(|a| a.filename.ends_with(".pgn") && String::from_utf8_lossy(&a.bytes).contains(text))
}

#[tokio::test]
async fn a_game_played_in_a_thread_is_listed_and_exported_in_its_parent_channel() {
    let mut t = Table::new().await;
    t.challenge(CH, &[("thread", "true")]).await;
    t.discord.click_label(&t.bob, CH, "Accept").await;
    let thread = t.discord.threads().pop().expect("the game's thread");
    t.discord.wait_posted(thread.id, 0).await;
    t.play(thread.id, &MATE).await;

    // In the parent channel, which has no game of its own: /games lists the thread's game, /pgn
    // exports it (the channel's last game, and by its number).
    let games = t.discord.run(&t.carol, CH, "games", &[]).await;
    assert!(
        games.text().contains("#1") && games.text().to_lowercase().contains("checkmate"),
        "{}",
        games.text()
    );
    let pgn = t.discord.run(&t.carol, CH, "pgn", &[]).await;
    assert!(pgn_contains(&pgn, "Nxe3#"), "{}", pgn.text());
    let by_number = t.discord.run(&t.carol, CH, "pgn", &[("game", "1")]).await;
    assert!(pgn_contains(&by_number, "Nxe3#"), "{}", by_number.text());
    // Another channel still does not see it.
    let elsewhere = t
        .discord
        .run(&t.carol, CH + 1, "pgn", &[("game", "1")])
        .await;
    assert!(!pgn_contains(&elsewhere, "Nxe3#"), "{}", elsewhere.text());
    // Nothing can be moved in the parent: its own /move says there is no game there.
    let moved = t.discord.run(&t.alice, CH, "move", &[("move", "e4")]).await;
    assert!(moved.is_ephemeral(), "{}", moved.text());
    t.assert_clean();
    t.stop().await;
}

#[tokio::test]
async fn without_the_thread_permissions_the_game_starts_in_the_channel_with_a_note() {
    let mut t = Table::new().await;
    t.discord.inject(Fault::on(
        discord_standin::Route::Thread,
        1,
        Failure::MissingPermissions,
    ));
    let challenge = t.challenge(CH, &[("thread", "true")]).await;
    let accepted = t.discord.click_label(&t.bob, CH, "Accept").await;
    assert_eq!(accepted.callback_type(), 7);
    assert!(t.discord.threads().is_empty());
    let text = accepted.text();
    assert!(text.contains("Create Public Threads"), "{text}");
    assert!(text.contains("Send Messages in Threads"), "{text}");
    assert!(accepted.png().is_some(), "the board is shown here: {text}");
    assert_eq!(accepted.message().map(|m| m.id), Some(challenge.id));
    // The game is the channel's.
    t.play(CH, &["Rh2", "Ne7"]).await;
    t.assert_clean();
    t.stop().await;
}

#[tokio::test]
async fn settings_need_manage_server_and_make_threads_the_default() {
    let mut t = Table::new().await;
    let registered = t.discord.commands(Some(discord_standin::GUILD_ID));
    let settings = registered
        .iter()
        .find(|c| c["name"] == "settings")
        .expect("/settings registered");
    assert_eq!(
        settings["default_member_permissions"],
        MANAGE_GUILD.to_string()
    );

    // Alice lacks Manage Server: refused privately, nothing changed.
    let refused = t
        .discord
        .run(&t.alice, CH, "settings", &[("thread", "on")])
        .await;
    assert!(refused.is_ephemeral());
    assert!(
        refused.text().contains("Manage Server"),
        "{}",
        refused.text()
    );
    let shown = t.discord.run(&t.bob, CH, "settings", &[]).await;
    assert!(shown.text().contains("Manage Server"), "{}", shown.text());

    t.discord.set_permissions(&t.bob, MANAGE_GUILD);
    let set = t
        .discord
        .run(&t.bob, CH, "settings", &[("thread", "on")])
        .await;
    assert!(set.is_ephemeral());
    assert!(set.text().contains("thread: on"), "{}", set.text());

    // A challenge without the option now opens a thread when accepted.
    let challenge = t.challenge(CH, &[]).await;
    assert!(challenge.text().contains("thread of its own"));
    t.discord.click_label(&t.bob, CH, "Accept").await;
    assert_eq!(t.discord.threads().len(), 1);
    // …and one that says no does not.
    let other = CH + 1;
    t.challenge(other, &[("thread", "false")]).await;
    let accepted = t.discord.click_label(&t.bob, other, "Accept").await;
    assert!(accepted.png().is_some());
    assert_eq!(t.discord.threads().len(), 1);

    let off = t
        .discord
        .run(&t.bob, CH, "settings", &[("thread", "off")])
        .await;
    assert!(off.text().contains("thread: off"), "{}", off.text());
    t.assert_clean();
    t.stop().await;
}

#[tokio::test]
async fn play_and_accept_commands_open_a_thread_from_a_message_of_their_own() {
    let mut t = Table::new().await;
    // /play: the computer (level 1) answers in the thread.
    let play = t
        .discord
        .run(
            &t.alice,
            CH,
            "play",
            &[("level", "1"), ("color", "white"), ("thread", "true")],
        )
        .await;
    assert!(play.is_ephemeral(), "a private pointer: {}", play.text());
    let threads = t.discord.threads();
    assert_eq!(threads.len(), 1);
    let thread = threads[0].clone();
    assert!(play.text().contains(&format!("<#{}>", thread.id)));
    assert_eq!(thread.name, "alice vs the computer — Makruk");
    let starting = t.discord.message(thread.id).expect("the starting message");
    assert_eq!(starting.channel_id, CH);
    assert!(starting.content.contains(&format!("<#{}>", thread.id)));
    assert!(t.discord.wait_posted(thread.id, 0).await.png().is_some());
    let moved = t
        .discord
        .run(&t.alice, thread.id, "move", &[("move", "Rh2")])
        .await;
    assert!(!moved.is_ephemeral(), "{}", moved.text());
    let reply = t.discord.wait_posted(thread.id, 1).await;
    assert!(
        reply.png().is_some(),
        "the computer's reply is in the thread"
    );

    // /accept of a thread challenge: a second thread in the same channel.
    t.challenge(CH, &[("thread", "true")]).await;
    let accepted = t.discord.run(&t.bob, CH, "accept", &[]).await;
    assert!(accepted.is_ephemeral(), "{}", accepted.text());
    assert_eq!(t.discord.threads().len(), 2);
    let second = t.discord.threads()[1].clone();
    assert_eq!(second.name, "alice vs bob — Makruk");
    t.play(second.id, &["Rh2"]).await;
    t.assert_clean();
    t.stop().await;
}

#[tokio::test]
async fn public_messages_follow_the_servers_language_private_ones_the_users() {
    // A Thai server, an English user.
    let mut t = Table::new().await;
    t.discord.set_guild_locale("th");
    let challenge = t.challenge(CH, &[]).await;
    assert!(is_thai(&challenge.text()), "{}", challenge.text());
    let labels: Vec<String> = challenge.buttons().into_iter().map(|b| b.0).collect();
    assert!(labels.iter().all(|l| is_thai(l)), "{labels:?}");
    let private = t.discord.run(&t.alice, CH, "resign", &[]).await;
    assert!(private.is_ephemeral());
    assert!(!is_thai(&private.text()), "{}", private.text());
    t.stop().await;

    // An English server, a Thai user.
    let mut t = Table::with(|_| {}, "th").await;
    t.discord.set_guild_locale("en-US");
    let challenge = t.challenge(CH, &[]).await;
    assert!(!is_thai(&challenge.text()), "{}", challenge.text());
    let private = t.discord.run(&t.alice, CH, "resign", &[]).await;
    assert!(private.is_ephemeral());
    assert!(is_thai(&private.text()), "{}", private.text());
    t.assert_clean();
    t.stop().await;
}

#[tokio::test]
async fn the_computers_reply_is_written_in_the_servers_language() {
    let mut t = Table::new().await;
    t.discord.set_guild_locale("th");
    t.discord
        .run(&t.alice, CH, "play", &[("level", "1"), ("color", "white")])
        .await;
    t.discord
        .run(&t.alice, CH, "move", &[("move", "Rh2")])
        .await;
    let reply = t.discord.wait_posted(CH, 0).await;
    assert!(is_thai(&reply.text()), "{}", reply.text());
    t.assert_clean();
    t.stop().await;
}
