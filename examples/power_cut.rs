//! The power-cut proof, full size: the game service writing through a VFS shim that keeps only
//! what SQLite synced, killed at random instants, its files cut back to what a machine that
//! lost power would find, and every confirmed move checked (`testkit::powercut` says how).
//!
//! ```sh
//! cargo run --release --example power_cut -- [--cuts 300] [--games 20] [--seed 1]
//! ```
//!
//! (It runs itself as the writing child: `power_cut --child <db> <games> <seed>`.)

use anyhow::{bail, Context as _};
use testkit::powercut;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--child") {
        let [_, db, games, seed] = args.as_slice() else {
            bail!("usage: power_cut --child <db> <games> <seed>");
        };
        return powercut::child(db.as_ref(), games.parse()?, seed.parse()?).await;
    }
    let (mut cuts, mut games, mut seed) = (300, 20, 1);
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next().with_context(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--cuts" => cuts = value.parse()?,
            "--games" => games = value.parse()?,
            "--seed" => seed = value.parse()?,
            other => bail!("unknown option {other} (--cuts, --games, --seed)"),
        }
    }
    let dir = tempfile::tempdir()?;
    let cfg = powercut::Config {
        cuts,
        games,
        alive_ms: (50, 800),
        seed,
        child: std::env::current_exe()?,
        dir: dir.path().to_owned(),
    };
    let started = std::time::Instant::now();
    let report = powercut::run(&cfg).await?;
    println!("{report} ({:.0} s)", started.elapsed().as_secs_f64());
    if !report.lost.is_empty() || !report.integrity.is_empty() || !report.unreadable.is_empty() {
        let kept = dir.keep();
        bail!(
            "the power cuts lost data (the files of the last cut are kept in {})",
            kept.join("last-cut").display()
        );
    }
    Ok(())
}
