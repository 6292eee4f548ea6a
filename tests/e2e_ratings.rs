//! End to end: ratings through the real bot against the Discord stand-in: a rated game's end
//! shows both new ratings, `/leaderboard` and its page buttons (an old button past the end shows
//! the last page), `/stats` with its chart, the refusals, `rated:false`.

use discord_standin::{Bot, Standin, User};
use makruk_bot::clock::Kind;
use makruk_bot::rating::Glicko;
use makruk_bot::store::{self, RatingRow, Store};
use testkit::bot::{launcher, temp_database};

const CH: u64 = 1_300_000_000_000_000_020;

/// Alice (White) and Bob play four plies in `CH`, then Bob resigns; returns the final text.
async fn game(discord: &Standin, alice: &User, bob: &User, extra: &[(&str, &str)]) -> String {
    let mut options = vec![("opponent", "@bob"), ("color", "white")];
    options.extend_from_slice(extra);
    let challenge = discord.run(alice, CH, "challenge", &options).await;
    assert!(!challenge.is_ephemeral(), "{}", challenge.text());
    discord.click_label(bob, CH, "Accept").await;
    for (i, mv) in ["e4", "d5", "a4", "h5"].iter().enumerate() {
        let who = if i % 2 == 0 { alice } else { bob };
        let out = discord.run(who, CH, "move", &[("move", mv)]).await;
        assert!(!out.is_ephemeral(), "{mv}: {}", out.text());
    }
    discord.run(bob, CH, "resign", &[]).await.text()
}

#[tokio::test]
async fn ratings_leaderboard_and_stats_through_discord() {
    let discord = Standin::start().await;
    let (_dir, db) = temp_database();
    let bot = Bot::start(&discord, launcher(&db, |_| {})).await;
    let alice = discord.user("alice", "en-US");
    let bob = discord.user("bob", "en-US");
    let carol = discord.user("carol", "th");

    let empty = discord.run(&alice, CH, "leaderboard", &[]).await;
    assert!(empty.is_ephemeral(), "{}", empty.text());
    assert!(
        empty.text().contains("Nobody has played a rated"),
        "{}",
        empty.text()
    );

    let (w, b) = makruk_bot::rating::rate(Glicko::START, Glicko::START, 1.0);
    let end = game(&discord, &alice, &bob, &[]).await;
    let alice_line = format!("{}? (+{})", w.shown(), w.shown() - 1500);
    let bob_line = format!("{}? (−{})", b.shown(), 1500 - b.shown());
    assert!(
        end.contains(&alice_line) && end.contains(&bob_line),
        "{end}"
    );
    // A casual game changes no rating.
    let casual = game(&discord, &alice, &bob, &[("rated", "false")]).await;
    assert!(!casual.contains("(+"), "{casual}");

    // The leaderboard is public: in the server's language (Thai here), whoever asks.
    discord.set_guild_locale("th");
    let board = discord.run(&alice, CH, "leaderboard", &[]).await;
    discord.set_guild_locale("en-US");
    assert!(!board.is_ephemeral(), "the leaderboard is public");
    let text = board.text();
    assert!(text.contains("อันดับ — เกมทางไกล"), "{text}");
    assert!(
        text.contains(&format!(
            "1. {} **{}?** · 1 เกม",
            alice.mention(),
            w.shown()
        )),
        "{text}"
    );
    let buttons = board.message().expect("message").buttons();
    assert_eq!(buttons.len(), 2);
    assert!(
        buttons.iter().all(|b| b.2),
        "one page: both buttons disabled"
    );

    let stats = discord
        .run(&bob, CH, "stats", &[("player", "@alice")])
        .await;
    assert!(!stats.is_ephemeral());
    let message = stats.message().expect("stats message");
    assert!(
        message.png().is_some_and(|p| p.starts_with(b"\x89PNG")),
        "the chart"
    );
    assert!(
        stats.text().contains("1 game: +1 =0 −0"),
        "{}",
        stats.text()
    );
    let none = discord.run(&carol, CH, "stats", &[]).await;
    assert!(none.is_ephemeral());
    assert!(
        none.text().contains("ยังไม่มีเกมหมากรุกไทยที่นับเรตติ้ง"),
        "{}",
        none.text()
    );

    // Fifteen more players (written beside the running bot): two pages.
    let store = Store::open(&db).await.expect("open the bot's database");
    let mut tx = store.begin_write().await.expect("begin");
    for i in 0..15_u32 {
        let row = RatingRow {
            guild_id: makruk_bot::types::GuildId(discord_standin::GUILD_ID),
            user_id: makruk_bot::types::UserId(7000 + u64::from(i)),
            variant: makruk::Variant::Makruk,
            speed: Kind::Correspondence,
            glicko: Glicko {
                rating: 1200.0 + f64::from(i),
                deviation: 80.0,
                volatility: 0.06,
            },
            games: 3,
            wins: 1,
            draws: 1,
            losses: 1,
            last_game_at: 0,
        };
        store::put_rating(&mut tx, &row).await.expect("put");
    }
    tx.commit().await.expect("commit");
    store.close().await;
    let board = discord
        .run(&alice, CH, "leaderboard", &[("speed", "correspondence")])
        .await;
    let message = board.message().expect("message").clone();
    assert!(message.text().contains("Page 1 of 2"), "{}", message.text());
    let next = message.buttons()[1].clone();
    assert!(!next.2, "▶ works");
    let page2 = discord.click(&bob, message.id, &next.1).await;
    assert_eq!(page2.callback_type(), 7, "the page replaces the message");
    let text = page2.message().expect("page 2").text();
    assert!(
        text.contains("Page 2 of 2") && text.contains("11. <@7006>"),
        "{text}"
    );
    // A button from an old, longer leaderboard: the last page.
    let old = discord
        .click(&bob, message.id, "mk:lb-correspondence:9")
        .await;
    assert!(old.text().contains("Page 2 of 2"), "{}", old.text());
    assert!(discord.errors().is_empty(), "{:?}", discord.errors());
    bot.stop().await;
}
