//! `makruk-bot pair --dutch <input.trf> -p <output.txt>`: the next round of a Swiss event by the
//! FIDE Dutch system, with bbpPairings' interface, so that an arbiter's tool can check the
//! bot's pairings: a TRF16 file in (with `XXR` for the number of rounds), the pairing out (the
//! number of pairs on the first line, then `white black` starting numbers a line, `N 0` for the
//! pairing-allocated bye).

use std::path::PathBuf;

use anyhow::Context as _;
use makruk_tournament::{dutch, trf};

/// The arguments of `pair`.
#[derive(Debug, clap::Args)]
pub struct PairArgs {
    /// Pair by the FIDE Dutch system (C.04.3); the only system, asked for as bbpPairings does.
    #[arg(long, required = true)]
    pub dutch: bool,
    /// The TRF16 file of the rounds played.
    pub input: PathBuf,
    /// Where to write the pairing (`-` or none: standard output).
    #[arg(short = 'p', long = "pairings")]
    pub output: Option<PathBuf>,
}

/// Runs `pair`.
///
/// # Errors
/// The file cannot be read or written, is not TRF16 (the line is named), or the round cannot be
/// paired (every round played, or no pairing the absolute criteria allow).
pub fn run(args: &PairArgs) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&args.input)
        .with_context(|| format!("cannot read {}", args.input.display()))?;
    let t = trf::Tournament::parse(&text).with_context(|| args.input.display().to_string())?;
    anyhow::ensure!(
        !t.players.is_empty(),
        "{}: no player line (001) in the file",
        args.input.display()
    );
    let pairs = dutch::pair_next_round(&t).context("cannot pair the next round")?;
    let out = trf::write_pairings(&pairs);
    match &args.output {
        Some(path) if path.as_os_str() != "-" => {
            std::fs::write(path, out).with_context(|| format!("cannot write {}", path.display()))?
        }
        _ => print!("{out}"),
    }
    Ok(())
}
