//! End to end with the real binary: configuration from the environment, the database file
//! created, one command answered, a clean stop on SIGTERM, and the token in no log line even at
//! `RUST_LOG=trace`.

use std::process::Stdio;
use std::time::Duration;

use discord_standin::{Opt, Standin, GUILD_ID, TOKEN};
use tokio::io::AsyncReadExt;

#[cfg(unix)]
#[tokio::test]
async fn the_binary_runs_from_the_environment_and_stops_on_sigterm() {
    let discord = Standin::start().await;
    let dir = tempfile::tempdir().expect("temporary directory");
    let db_file = dir.path().join("fresh.sqlite3");
    assert!(!db_file.exists());

    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_makruk-bot"))
        .env("DISCORD_TOKEN", TOKEN)
        .env("DISCORD_API_URL", &discord.base_url)
        .env("DISCORD_GUILD_ID", GUILD_ID.to_string())
        .env("DATABASE_URL", format!("sqlite://{}", db_file.display()))
        .env("RUST_LOG", "trace")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the bot binary starts");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let logs = tokio::spawn(async move {
        let mut out = Vec::new();
        let mut err = Vec::new();
        let _ = tokio::join!(stdout.read_to_end(&mut out), stderr.read_to_end(&mut err));
        out.extend(err);
        String::from_utf8_lossy(&out).into_owned()
    });

    discord.wait_ready(1).await;
    assert!(db_file.exists(), "the database file is created");
    let alice = discord.user("alice", "en-US");
    let outcome = discord
        .command(
            &alice,
            1_300_000_000_000_000_777,
            "rules",
            &[("topic", Opt::Int(1))],
        )
        .await;
    assert!(outcome.is_ephemeral());
    assert!(!outcome.text().is_empty());

    let pid = child.id().expect("running").to_string();
    // The shell's own `kill`: no dependency on a `kill` executable being installed.
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
    assert!(status.success(), "clean exit: {status:?}\n{logs}");

    assert!(!logs.contains(TOKEN), "the token appears in the logs");
    assert!(logs.contains("SIGTERM"), "the shutdown is logged");
    let answered = logs
        .lines()
        .find(|l| l.contains("answered") && l.contains("command=\"rules\""))
        .unwrap_or_else(|| panic!("no log line for the answered command:\n{logs}"));
    assert!(answered.contains("latency_ms="), "{answered}");
    assert!(
        answered.contains(&format!("user={}", alice.id)),
        "{answered}"
    );
    assert!(discord.errors().is_empty(), "{:?}", discord.errors());
}

/// `recompute` on a path where there is no database says so and creates nothing (a mistyped
/// path used to create an empty database and report "0 rated games").
#[test]
fn recompute_refuses_a_missing_database_and_creates_nothing() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let missing = dir.path().join("mistyped.sqlite3");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_makruk-bot"))
        .args(["recompute", "--database-url"])
        .arg(format!("sqlite://{}", missing.display()))
        .env_remove("DATABASE_URL")
        .output()
        .expect("the bot binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "it fails: {stderr}");
    assert!(stderr.contains("there is no database at"), "{stderr}");
    assert!(!missing.exists(), "no file is created");
    let left: Vec<_> = std::fs::read_dir(dir.path()).expect("dir").collect();
    assert!(left.is_empty(), "nothing is created beside it: {left:?}");
}

/// A `DISCORD_GUILD_ID` of a server the bot is not in: Discord refuses the commands, and the bot
/// says what to check and exits (it used to log "poise setup error" and stay up, useless).
#[cfg(unix)]
#[tokio::test]
async fn a_wrong_guild_id_is_explained_and_the_bot_exits() {
    let discord = Standin::start().await;
    let dir = tempfile::tempdir().expect("temporary directory");
    let db_file = dir.path().join("bot.sqlite3");
    let child = tokio::process::Command::new(env!("CARGO_BIN_EXE_makruk-bot"))
        .env("DISCORD_TOKEN", TOKEN)
        .env("DISCORD_API_URL", &discord.base_url)
        .env("DISCORD_GUILD_ID", (GUILD_ID + 1).to_string())
        .env("DATABASE_URL", format!("sqlite://{}", db_file.display()))
        .env_remove("RUST_LOG")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the bot binary starts");
    let out = tokio::time::timeout(Duration::from_secs(60), child.wait_with_output())
        .await
        .expect("the bot exits by itself")
        .expect("output");
    let logs = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!out.status.success(), "a failure exit: {logs}");
    assert!(
        logs.contains("refused to register the commands in the server")
            && logs.contains("DISCORD_GUILD_ID")
            && logs.contains("Missing Access"),
        "{logs}"
    );
    assert!(!logs.contains(TOKEN), "the token appears in the logs");
}
