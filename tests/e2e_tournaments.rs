//! Tournaments through the Discord stand-in (issue 26): `/tournament create` (Manage Server
//! only), players join, the organiser starts it, the bot posts each game's message (pinging
//! the players), opens its thread and posts the board there; a resignation in the thread
//! makes the next round paired at once; the announcement is edited as the event goes; the
//! final standings are posted when the last round ends.

use std::time::{Duration, Instant};

use discord_standin::Message;
use testkit::table::Table;

const CH: u64 = 1_300_000_000_000_002_601;
const MANAGE_GUILD: u64 = 1 << 5;

/// Polls `f` until it gives something (at most 30 s).
async fn until<T>(what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The game messages the bot posted in CH (those its threads open from), oldest first.
fn game_messages(t: &Table) -> Vec<Message> {
    t.discord
        .posted_messages(CH)
        .into_iter()
        .filter(|m| m.text().contains("Play in this message's thread"))
        .collect()
}

#[tokio::test]
async fn a_round_robin_is_created_joined_played_in_threads_and_finished() {
    let t = Table::new().await;
    // Without Manage Server: refused privately.
    let refused = t
        .discord
        .run(
            &t.bob,
            CH,
            "tournament create",
            &[("format", "round-robin")],
        )
        .await;
    assert!(refused.is_ephemeral());
    assert!(
        refused.text().contains("Manage Server"),
        "{}",
        refused.text()
    );

    t.discord.set_permissions(&t.alice, MANAGE_GUILD);
    let seen = t.discord.posted_messages(CH).len();
    let created = t
        .discord
        .run(
            &t.alice,
            CH,
            "tournament create",
            &[
                ("format", "round-robin"),
                ("time", "3d"),
                ("name", "Club Round Robin"),
            ],
        )
        .await;
    assert!(created.is_ephemeral(), "{}", created.text());
    assert!(created.text().contains("created"), "{}", created.text());
    let announcement = t.discord.wait_posted(CH, seen).await;
    assert!(
        announcement.text().contains("Club Round Robin") && announcement.text().contains("Open"),
        "{}",
        announcement.text()
    );

    for user in [&t.alice, &t.bob, &t.carol] {
        let joined = t.discord.run(user, CH, "tournament join", &[]).await;
        assert!(joined.is_ephemeral());
        assert!(joined.text().contains("You joined"), "{}", joined.text());
    }
    let again = t.discord.run(&t.bob, CH, "tournament join", &[]).await;
    assert!(again.text().contains("already"), "{}", again.text());
    let listed = t.discord.message(announcement.id).expect("announcement");
    assert!(
        listed.text().contains(&t.carol.mention()),
        "the announcement lists the players: {}",
        listed.text()
    );

    // Bob is not the organiser and has no Manage Server.
    let not_yours = t.discord.run(&t.bob, CH, "tournament start", &[]).await;
    assert!(not_yours.is_ephemeral());
    assert!(
        not_yours.text().contains("organiser"),
        "{}",
        not_yours.text()
    );
    let started = t.discord.run(&t.alice, CH, "tournament start", &[]).await;
    assert!(!started.is_ephemeral());
    assert!(started.text().contains("has started"), "{}", started.text());

    // Three players: three rounds of one game each (one player sits out every round).
    for round in 1..=3usize {
        // (Once its game is over, the message says so instead: the thread's starting message.)
        let game = until(&format!("round {round}'s game message"), || {
            game_messages(&t)
                .into_iter()
                .find(|m| m.text().contains(&format!("round {round},")))
        })
        .await;
        assert!(
            game.text().contains(&format!("round {round}")),
            "{}",
            game.text()
        );
        let thread = until("the game's thread", || {
            t.discord.threads().into_iter().find(|th| th.id == game.id)
        })
        .await;
        assert!(thread.name.contains("Club Round Robin"), "{}", thread.name);
        // The first board is posted in the thread.
        until("the first board in the thread", || {
            t.discord
                .channel_messages(thread.id)
                .into_iter()
                .find(|m| m.png().is_some())
        })
        .await;
        // One board, not two (the runner posts it once).
        tokio::time::sleep(Duration::from_millis(300)).await;
        let boards = t
            .discord
            .channel_messages(thread.id)
            .into_iter()
            .filter(|m| m.png().is_some())
            .count();
        assert_eq!(boards, 1, "round {round}: one first board");
        // White (named first) resigns.
        let white = [&t.alice, &t.bob, &t.carol]
            .into_iter()
            .min_by_key(|u| game.text().find(&u.mention()).unwrap_or(usize::MAX))
            .expect("a player");
        let berserk = t
            .discord
            .run(white, thread.id, "tournament berserk", &[])
            .await;
        assert!(
            berserk.is_ephemeral() && berserk.text().contains("arena"),
            "no berserk outside an arena: {}",
            berserk.text()
        );
        let aborted = t.discord.run(white, thread.id, "abort", &[]).await;
        assert!(
            aborted.text().contains("tournament game"),
            "a tournament game cannot be aborted: {}",
            aborted.text()
        );
        let resigned = t.discord.run(white, thread.id, "resign", &[]).await;
        assert!(resigned.text().contains("resign"), "{}", resigned.text());
    }

    let over = until("the final standings", || {
        t.discord
            .posted_messages(CH)
            .into_iter()
            .find(|m| m.text().contains("Club Round Robin** is over"))
    })
    .await;
    assert!(over.text().contains("🥇"), "{}", over.text());
    assert!(over.png().is_some(), "the podium's picture");
    let standings = t
        .discord
        .run(&t.carol, CH, "tournament standings", &[])
        .await;
    assert!(standings.is_ephemeral());
    // Three decisive games: three points in all, shown on three lines.
    let text = standings.text();
    assert!(text.contains("1. "), "{text}");
    assert!(text.contains("3. "), "{text}");
    let pairings = t
        .discord
        .run(&t.carol, CH, "tournament pairings", &[("round", "1")])
        .await;
    assert!(pairings.text().contains("Board 1"), "{}", pairings.text());
    assert!(
        pairings.text().contains("1-0") || pairings.text().contains("0-1"),
        "{}",
        pairings.text()
    );
    let report = t.discord.run(&t.alice, CH, "tournament trf", &[]).await;
    assert!(report.is_ephemeral());
    assert!(report.text().contains("TRF16"), "{}", report.text());
    t.assert_clean();
    if let Some(bot) = t.bot {
        bot.stop().await;
    }
}
