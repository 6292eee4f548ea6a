//! `makruk-bot puzzles export --json`: the shipped set for tools and tests, one JSON object a
//! line: `{"id", "fen", "moves", "rating", "themes"}` (the fields of issue 24; `moves` the
//! solution line in UCI, the solver's move first).

use std::io::Write;

use clap::{Args, Subcommand};
use serde::Serialize;

/// `makruk-bot puzzles …`.
#[derive(Debug, Subcommand)]
pub enum PuzzlesCommand {
    /// Print the shipped puzzle set.
    Export(ExportArgs),
}

/// `makruk-bot puzzles export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// One JSON object a line (the only format).
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct Exported<'a> {
    id: &'a str,
    fen: &'a str,
    moves: &'a [String],
    rating: i32,
    themes: &'a [String],
}

/// Runs a `puzzles` command, writing to standard output.
///
/// # Errors
/// When standard output cannot be written (a closed pipe ends the listing quietly).
pub fn run(command: &PuzzlesCommand) -> anyhow::Result<()> {
    match command {
        PuzzlesCommand::Export(_) => {
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            match export(&mut out).and_then(|()| out.flush()) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                other => Ok(other?),
            }
        }
    }
}

/// Writes the shipped set to `out`, one JSON object a line.
///
/// # Errors
/// When `out` cannot be written.
pub fn export(out: &mut impl Write) -> std::io::Result<()> {
    for p in super::shipped() {
        let line = Exported {
            id: &p.id,
            fen: &p.fen,
            moves: &p.moves,
            rating: p.rating,
            themes: &p.themes,
        };
        serde_json::to_writer(&mut *out, &line)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}
