//! Plays a scenario through the real bot and a local Discord stand-in — no Discord account
//! needed — and writes what Discord would show.
//!
//! ```sh
//! cargo run --release --example simulate -- examples/scenarios/quick-mate.txt out/quick-mate
//! ```
//!
//! The example scenarios are `examples/scenarios/quick-mate.txt` (a short game to mate, with
//! the mistakes a player can make), `examples/scenarios/offers-and-restart.txt` (Thai and
//! English players, a draw offer, a takeback, a restart of the bot, a resignation),
//! `examples/scenarios/computer.txt` (a game against the computer at level 2: the simulator
//! waits for each of its replies, a takeback) and `examples/scenarios/timeout.txt` (clocks: a
//! reminder, a flag falling while nobody types). The bot runs on a fake clock that only the
//! scenario's `wait` lines move. The format is described in `standin/src/scenario/mod.rs`
//! (`discord_standin::scenario`).
//!
//! Output: `<out-dir>/transcript.md` and the board pictures as PNG files next to it.

use std::path::Path;

use anyhow::bail;
use discord_standin::scenario;
use makruk_bot::app::{Config, SimClock};
use makruk_bot::clock::{SystemTimeSource, TimeSource as _};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [scenario, out_dir] = args.as_slice() else {
        bail!("usage: simulate <scenario.txt> <out-dir>");
    };
    if std::env::var_os("RUST_LOG").is_some() {
        makruk_bot::app::init_tracing();
    }
    // One database for the whole scenario: a restarted bot finds its games again.
    let dir = tempfile::tempdir()?;
    let db = format!(
        "sqlite://{}",
        dir.path().join("makruk-bot.sqlite3").display()
    );
    // The bot's time starts now and moves only with the scenario's `wait` lines.
    let clock = SimClock::new(SystemTimeSource.now_ms());
    let bot = |launch: discord_standin::Launch| {
        let mut config = Config::with_token(launch.token);
        config.database_url = db.clone();
        config.api_url = Some(launch.api_url);
        // Registered globally, as the real bot: only global commands reach DMs.
        config.guild_id = None;
        config.sim_clock = Some(clock.clone());
        makruk_bot::app::run(config, launch.stop)
    };
    let played = scenario::play(Path::new(scenario), Path::new(out_dir), bot, |by| {
        clock.advance(by)
    })
    .await?;
    println!(
        "wrote {} and {} files",
        played.transcript.display(),
        played.files
    );
    Ok(())
}
