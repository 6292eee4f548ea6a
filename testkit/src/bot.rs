//! The real bot (its real start-up code, [`makruk_bot::app::run`]) against the Discord
//! stand-in, on a fresh SQLite file: shared by the end-to-end tests (`tests/e2e_*.rs`).

use std::sync::Arc;

use discord_standin::Launch;
use futures::future::BoxFuture;
use makruk_bot::app::{Config, SimClock};

/// The bot's log on stderr when `RUST_LOG` is set (to read why an end-to-end test failed:
/// `RUST_LOG=debug cargo test --test e2e_game -- --nocapture`); silent otherwise.
fn log_if_asked() {
    if std::env::var_os("RUST_LOG").is_some() {
        makruk_bot::app::init_tracing();
    }
}

/// A fresh SQLite database file in a temporary directory (kept alive by the returned guard):
/// the guard and the database URL.
pub fn temp_database() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!(
        "sqlite://{}",
        dir.path().join("makruk-bot.sqlite3").display()
    );
    (dir, url)
}

/// Starts the real bot on the database `database_url`, registering its commands in the
/// stand-in's guild, with `change` applied to its configuration: the launcher for
/// [`discord_standin::Bot::start`] and [`discord_standin::scenario::play`].
pub fn launcher(
    database_url: &str,
    change: fn(&mut Config),
) -> impl Fn(Launch) -> BoxFuture<'static, anyhow::Result<()>> {
    let database_url = database_url.to_owned();
    log_if_asked();
    move |launch| {
        let mut config = Config::with_token(launch.token);
        config.database_url = database_url.clone();
        config.api_url = Some(launch.api_url);
        config.guild_id = Some(launch.guild_id);
        change(&mut config);
        Box::pin(makruk_bot::app::run(config, launch.stop))
    }
}

/// As [`launcher`], the bot's time being `clock` (moved by hand: a scenario's `wait`).
pub fn launcher_on(
    database_url: &str,
    clock: &Arc<SimClock>,
) -> impl Fn(Launch) -> BoxFuture<'static, anyhow::Result<()>> {
    let database_url = database_url.to_owned();
    let clock = Arc::clone(clock);
    log_if_asked();
    move |launch| {
        let mut config = Config::with_token(launch.token);
        config.database_url = database_url.clone();
        config.api_url = Some(launch.api_url);
        // Registered globally, as the real bot: only global commands reach DMs.
        config.guild_id = None;
        config.sim_clock = Some(Arc::clone(&clock));
        Box::pin(makruk_bot::app::run(config, launch.stop))
    }
}

/// A [`SimClock`] starting at the system's time (so that the transcripts' relative times read
/// right until the first `wait`).
pub fn sim_clock() -> Arc<SimClock> {
    use makruk_bot::clock::TimeSource as _;
    SimClock::new(makruk_bot::clock::SystemTimeSource.now_ms())
}
