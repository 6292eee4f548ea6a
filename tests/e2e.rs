//! End to end: the real bot (start-up code, SQLite file) against the local Discord stand-in.

use discord_standin::{Bot, Opt, Standin, GUILD_ID};
use testkit::bot::{launcher, temp_database};

const CHANNEL: u64 = 1_300_000_000_000_000_001;

#[tokio::test]
async fn the_bot_registers_localised_commands_and_answers_rules() {
    let discord = Standin::start().await;
    let (_dir, db) = temp_database();
    let bot = Bot::start(&discord, launcher(&db, |_| {})).await;

    let commands = discord.commands(Some(GUILD_ID));
    let names: Vec<&str> = commands.iter().filter_map(|c| c["name"].as_str()).collect();
    for expected in [
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
    ] {
        assert!(
            names.contains(&expected),
            "/{expected} missing from {names:?}"
        );
    }
    // Every command, option and choice has its Thai name and description.
    for c in &commands {
        let name = c["name"].as_str().unwrap_or_default();
        assert!(
            c["name_localizations"]["th"].is_string(),
            "/{name}: Thai name"
        );
        assert!(
            c["description_localizations"]["th"].is_string(),
            "/{name}: Thai description"
        );
        for o in c["options"].as_array().into_iter().flatten() {
            let option = o["name"].as_str().unwrap_or_default();
            assert!(
                o["name_localizations"]["th"].is_string(),
                "/{name} {option}: Thai name"
            );
            assert!(
                o["description_localizations"]["th"].is_string(),
                "/{name} {option}: Thai description"
            );
            for choice in o["choices"].as_array().into_iter().flatten() {
                assert!(
                    choice["name_localizations"]["th"].is_string(),
                    "/{name} {option} {}: Thai name",
                    choice["name"]
                );
            }
        }
    }
    let play = commands
        .iter()
        .find(|c| c["name"] == "move")
        .expect("/move");
    assert_eq!(play["name_localizations"]["th"], "เดิน");
    assert_eq!(play["options"][0]["autocomplete"], true);

    let alice = discord.user("alice", "en-US");
    let outcome = discord
        .command(&alice, CHANNEL, "rules", &[("topic", Opt::Int(0))])
        .await;
    assert_eq!(outcome.callback_type(), 4, "answered directly");
    assert!(outcome.is_ephemeral(), "rules are shown only to the asker");
    assert!(
        outcome.text().contains("Makruk") && outcome.text().contains("Khun"),
        "{}",
        outcome.text()
    );

    let somchai = discord.user("somchai", "th");
    let outcome = discord.command(&somchai, CHANNEL, "rules", &[]).await;
    assert!(outcome.text().contains("หมากรุกไทย"), "{}", outcome.text());

    assert!(discord.errors().is_empty(), "{:?}", discord.errors());
    bot.stop().await;
}

#[tokio::test]
async fn without_a_guild_the_commands_are_registered_globally() {
    let discord = Standin::start().await;
    let (_dir, db) = temp_database();
    let bot = Bot::start(&discord, launcher(&db, |c| c.guild_id = None)).await;
    assert!(discord.commands(Some(GUILD_ID)).is_empty());
    let global = discord.commands(None);
    assert!(
        global.iter().any(|c| c["name"] == "challenge"),
        "{global:?}"
    );
    let alice = discord.user("alice", "en-US");
    let outcome = discord.command(&alice, CHANNEL, "board", &[]).await;
    assert!(outcome.is_ephemeral(), "no game yet: {}", outcome.text());
    assert!(discord.errors().is_empty(), "{:?}", discord.errors());
    bot.stop().await;
}
