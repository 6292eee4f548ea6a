//! The crash proof, full run: the real bot binary against the stand-in server, many games at
//! once, SIGKILL at random moments, restarts; prints kills done, moves acknowledged, moves lost,
//! duplicates, unannounced moves and the integrity check (`testkit/src/crash.rs` says what
//! each means). Exits non-zero if a guarantee failed.
//!
//! ```text
//! cargo run --release --example crash -- [--kills 100] [--games 8] [--seed N] [--keep DIR]
//!     [--postgres URL]
//! ```
//!
//! `--postgres URL` (a database on a PostgreSQL server, e.g.
//! `postgres://makruk@127.0.0.1:55432/postgres`; `.ci/postgres start DIR` starts one): the run
//! makes a fresh database on that server and plays on it with two bot processes, one per
//! gateway shard, killing one of the two at random each time while the other plays on.
//!
//! It runs `target/release/makruk-bot` and `target/release/standin-server` as the workspace's
//! test build leaves them (`cargo test --release --workspace --no-run`: the features the tests
//! use, so nothing is built twice); build them first after a change. `--keep DIR`: the
//! database and the bot's log stay in `DIR`.

use testkit::crash as crash_driver;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut kills = 100;
    let mut games = 8;
    let mut seed = 1;
    let mut keep: Option<PathBuf> = None;
    let mut postgres: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args
            .next()
            .with_context(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--kills" => kills = value.parse()?,
            "--games" => games = value.parse()?,
            "--seed" => seed = value.parse()?,
            "--keep" => keep = Some(PathBuf::from(value)),
            "--postgres" => postgres = Some(value),
            other => {
                bail!("unknown option {other} (--kills, --games, --seed, --keep, --postgres)")
            }
        }
    }
    // target/release/examples/crash → target/release/
    let bin_dir = std::env::current_exe()?
        .parent()
        .and_then(|p| p.parent())
        .context("the target directory")?
        .to_owned();
    let bot = bin_dir.join("makruk-bot");
    let standin = bin_dir.join("standin-server");
    for exe in [&bot, &standin] {
        if !exe.exists() {
            bail!(
                "{} is missing: cargo test --release --workspace --no-run builds it",
                exe.display()
            );
        }
    }
    let temp = tempfile::tempdir()?;
    let dir = keep.unwrap_or_else(|| temp.path().to_owned());
    let cfg = crash_driver::Config {
        kills,
        games,
        alive_ms: (200, 3_000),
        settle: Duration::from_secs(2),
        seed,
        bot,
        standin,
        dir,
        postgres,
    };
    let started = Instant::now();
    let report = crash_driver::run(&cfg).await?;
    println!("{report}");
    println!(
        "wall time:                  {:.1} s",
        started.elapsed().as_secs_f64()
    );
    if !report.ok() {
        bail!("a guarantee failed");
    }
    Ok(())
}
