//! Interactions that do not fit the registered commands (a stale client, a forged request):
//! each gets a private answer that says what could not be read, never the internal-error
//! apology, and changes nothing.

use discord_standin::{Bot, Opt, Standin};
use testkit::bot::{launcher, temp_database};

const CHANNEL: u64 = 1_300_000_000_000_000_077;

#[tokio::test]
async fn bad_options_unknown_commands_and_unreadable_buttons_get_private_answers() {
    let discord = Standin::start().await;
    let (_dir, db) = temp_database();
    let bot = Bot::start(&discord, launcher(&db, |_| {})).await;
    let alice = discord.user("alice", "en-US");
    let bob = discord.user("bob", "th");
    let bad_option = "I could not read that option";
    let apology = "something went wrong on our side";

    // An integer for /move's text, /move without its required option, a choice out of range.
    let int_move = [("move", Opt::Int(5))];
    let bob_opt = Opt::User(bob.clone());
    let color_99 = [("opponent", bob_opt.clone()), ("color", Opt::Int(99))];
    let no_opponent = [("color", Opt::Int(0))];
    let cases: [(&str, &[(&str, Opt)]); 4] = [
        ("move", &int_move),
        ("move", &[]),
        ("challenge", &color_99),
        ("challenge", &no_opponent),
    ];
    for (name, options) in cases {
        let outcome = discord.command(&alice, CHANNEL, name, options).await;
        let text = outcome.text();
        assert!(outcome.is_ephemeral(), "/{name}: {text}");
        assert!(text.contains(bad_option), "/{name} {options:?}: {text}");
        assert!(!text.contains(apology), "/{name}: {text}");
    }

    // A command the bot never registered, in English and Thai.
    let outcome = discord.command(&alice, CHANNEL, "withdraw", &[]).await;
    assert!(outcome.is_ephemeral(), "{}", outcome.text());
    assert!(
        outcome.text().contains("I do not know that command"),
        "{}",
        outcome.text()
    );
    let outcome = discord.command(&bob, CHANNEL, "history", &[]).await;
    assert!(outcome.text().contains("ไม่รู้จักคำสั่งนั้น"), "{}", outcome.text());

    // Button ids that cannot be read, pressed on a real challenge message.
    let challenge = discord
        .command(&alice, CHANNEL, "challenge", &[("opponent", bob_opt)])
        .await;
    let message = challenge.message().expect("the challenge message").id;
    for custom_id in ["mk:accept:99999999999999999999", "mk:fly:1", "other:1"] {
        let press = discord.click(&bob, message, custom_id).await;
        assert!(press.is_ephemeral(), "{custom_id}: {}", press.text());
        assert!(
            press.text().contains("ปุ่มนี้ใช้ไม่ได้"),
            "{custom_id}: {}",
            press.text()
        );
    }
    // The challenge still stands: its own Accept button works.
    let accepted = discord.click_label(&bob, CHANNEL, "Accept").await;
    assert!(!accepted.is_ephemeral(), "{}", accepted.text());

    assert!(discord.errors().is_empty(), "{:?}", discord.errors());
    bot.stop().await;
}
