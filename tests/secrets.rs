//! The bot token never leaves the bot except as its `Authorization` header: not in a log line
//! at any level (`RUST_LOG=trace`, with Discord failures logged along the way), not in any text
//! or registration sent to Discord, not in the messages a failed start-up prints.

use std::process::Stdio;
use std::time::Duration;

use discord_standin::{Failure, Fault, Opt, Route, Standin, GUILD_ID, TOKEN};
use tokio::io::AsyncReadExt;

const CH: u64 = 1_300_000_000_000_000_141;

/// The real binary with `env`, its stdout and stderr collected until it exits.
fn spawn_bot(env: &[(&str, String)]) -> (tokio::process::Child, tokio::task::JoinHandle<String>) {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_makruk-bot"));
    command
        .env_remove("DISCORD_TOKEN")
        .env_remove("DATABASE_URL")
        .env_remove("DISCORD_API_URL")
        .env("RUST_LOG", "trace")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = command.spawn().expect("the bot binary starts");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let logs = tokio::spawn(async move {
        let mut out = Vec::new();
        let mut err = Vec::new();
        let _ = tokio::join!(stdout.read_to_end(&mut out), stderr.read_to_end(&mut err));
        out.extend(err);
        String::from_utf8_lossy(&out).into_owned()
    });
    (child, logs)
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_token_is_in_no_log_line_and_no_text_sent_to_discord() {
    let discord = Standin::start().await;
    let dir = tempfile::tempdir().expect("temporary directory");
    let db = format!("sqlite://{}", dir.path().join("bot.sqlite3").display());
    let (mut child, logs) = spawn_bot(&[
        ("DISCORD_TOKEN", TOKEN.to_owned()),
        ("DISCORD_API_URL", discord.base_url.clone()),
        ("DISCORD_GUILD_ID", GUILD_ID.to_string()),
        ("DATABASE_URL", db),
        // Every answer deferred: callbacks, edits and follow-ups all used.
        ("DEFER_AFTER_MS", "0".to_owned()),
    ]);
    discord.wait_ready(1).await;

    let alice = discord.user("alice", "en-US");
    let bob = discord.user("bob", "th");
    let challenge = discord
        .run(
            &alice,
            CH,
            "challenge",
            &[("opponent", "@bob"), ("color", "white")],
        )
        .await;
    assert!(!challenge.is_ephemeral(), "{}", challenge.text());
    discord.click_label(&bob, CH, "Accept").await;
    // Failures on the way, logged with their requests.
    discord.inject(Fault::on(Route::Callback, 1, Failure::Status(500)));
    discord.inject(Fault::on(
        Route::Edit,
        1,
        Failure::RateLimited {
            retry_after: Duration::from_millis(300),
            global: false,
        },
    ));
    let moved = discord
        .command(&alice, CH, "move", &[("move", Opt::Str("e3e4".into()))])
        .await;
    assert!(moved.png().is_some(), "{}", moved.text());
    discord.inject(Fault::on(Route::Followup, 1, Failure::Status(502)));
    let refused = discord
        .command(&alice, CH, "move", &[("move", Opt::Str("e4e5".into()))])
        .await;
    assert!(refused.is_ephemeral(), "{}", refused.text());
    // A move that cannot be read: a private explanation.
    let typed = discord
        .command(&bob, CH, "move", &[("move", Opt::Str("xx".into()))])
        .await;
    assert!(typed.is_ephemeral());
    let pgn = discord.command(&bob, CH, "pgn", &[]).await;
    assert!(!pgn.text().is_empty());

    let pid = child.id().expect("running").to_string();
    let killed = std::process::Command::new("sh")
        .args(["-c", &format!("kill -TERM {pid}")])
        .status()
        .expect("sh runs");
    assert!(killed.success());
    let status = tokio::time::timeout(Duration::from_secs(20), child.wait())
        .await
        .expect("the bot stops after SIGTERM")
        .expect("exit status");
    let logs = logs.await.expect("logs");
    assert!(status.success(), "{status:?}\n{logs}");

    // Trace level really was on, and the failures were logged.
    assert!(logs.contains("TRACE"), "trace lines");
    assert!(logs.contains("trying a request again"), "{logs}");
    assert!(!logs.contains(TOKEN), "the token appears in the logs");
    for message in discord.channel_messages(CH) {
        let sent = format!(
            "{} {:?} {:?} {:?}",
            message.content,
            message.embeds,
            message.components,
            message
                .attachments
                .iter()
                .map(|a| &a.filename)
                .collect::<Vec<_>>()
        );
        assert!(!sent.contains(TOKEN), "sent to Discord: {sent}");
        for a in &message.attachments {
            let bytes = String::from_utf8_lossy(&a.bytes);
            assert!(!bytes.contains(TOKEN), "in the file {}", a.filename);
        }
    }
    let commands = format!("{:?}", discord.commands(Some(GUILD_ID)));
    assert!(!commands.contains(TOKEN), "in the registered commands");
    assert!(discord.errors().is_empty(), "{:?}", discord.errors());
}

#[cfg(unix)]
#[tokio::test]
async fn a_failed_start_up_does_not_print_the_token() {
    let secret = "MTIzNDU2Nzg5.secret-start-up.token";
    let dir = tempfile::tempdir().expect("temporary directory");
    // A database in a directory that does not exist: the bot refuses to start.
    let db = format!(
        "sqlite://{}",
        dir.path().join("missing").join("bot.sqlite3").display()
    );
    let (mut child, logs) = spawn_bot(&[
        ("DISCORD_TOKEN", secret.to_owned()),
        ("DISCORD_API_URL", "http://127.0.0.1:9".to_owned()),
        ("DATABASE_URL", db),
        ("RUST_BACKTRACE", "1".to_owned()),
    ]);
    let status = tokio::time::timeout(Duration::from_secs(20), child.wait())
        .await
        .expect("the bot exits")
        .expect("exit status");
    let logs = logs.await.expect("logs");
    assert!(!status.success(), "{logs}");
    assert!(logs.contains("database"), "says why: {logs}");
    assert!(
        logs.contains("<redacted>"),
        "the configuration is logged, redacted: {logs}"
    );
    assert!(!logs.contains(secret), "the token appears: {logs}");
    assert!(
        !logs.contains("secret-start-up"),
        "part of the token appears: {logs}"
    );
}
