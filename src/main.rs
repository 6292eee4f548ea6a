//! The bot binary: `makruk-bot` runs the bot; `makruk-bot render …` draws one board;
//! `makruk-bot recompute` rebuilds every rating from the stored games; `makruk-bot puzzles
//! export --json` prints the shipped puzzle set.

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(version, about = "Play Makruk (Thai chess) on Discord")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    config: makruk_bot::app::Config,
}

#[derive(Subcommand)]
enum Command {
    /// Run the bot (the default).
    Run {
        #[command(flatten)]
        config: makruk_bot::app::Config,
    },
    /// Render one board position to a PNG file.
    Render(makruk_bot::render::cli::RenderArgs),
    /// Analyse a game record (PGN) with the engine and print each move's eval, best move and
    /// judgement, and each side's accuracy, as JSON.
    Analyse(makruk_bot::analysis::cli::AnalyseArgs),
    /// The puzzle set shipped with the bot (`puzzles export --json`).
    #[command(subcommand)]
    Puzzles(makruk_bot::puzzles::cli::PuzzlesCommand),
    /// The next round of a Swiss event by the FIDE Dutch system, as bbpPairings' interface:
    /// `pair --dutch <input.trf> -p <output.txt>`.
    Pair(makruk_bot::tournament::cli::PairArgs),
    /// Rebuild every rating from the stored games and report any difference from the stored
    /// ratings (run it while the bot is stopped).
    Recompute {
        #[arg(long, env = "DATABASE_URL", default_value = makruk_bot::app::DEFAULT_DATABASE_URL)]
        database_url: String,
        /// Only report the differences; write nothing.
        #[arg(long)]
        dry_run: bool,
    },
}

/// Runs `recompute`: prints what it found; fails when the database cannot be read or written.
fn recompute(database_url: &str, dry_run: bool) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        // A mistyped path must not create an empty database and report "0 rated games".
        let options = makruk_bot::store::StoreOptions {
            existing_only: true,
            ..Default::default()
        };
        let service = makruk_bot::game::GameService::open_with(database_url, options).await?;
        let report = service.recompute_ratings(dry_run).await?;
        service.close().await;
        for d in &report.differences {
            println!("{d}");
        }
        println!(
            "{} rated games, {} ratings, {} differences{}",
            report.games,
            report.ratings,
            report.differences.len(),
            if report.written {
                "; ratings rebuilt"
            } else {
                " (dry run: nothing written)"
            }
        );
        Ok(())
    })
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Render(args)) => makruk_bot::render::cli::run(&args),
        Some(Command::Analyse(args)) => makruk_bot::analysis::cli::run(&args),
        Some(Command::Puzzles(command)) => makruk_bot::puzzles::cli::run(&command),
        Some(Command::Pair(args)) => makruk_bot::tournament::cli::run(&args),
        Some(Command::Recompute {
            database_url,
            dry_run,
        }) => recompute(&database_url, dry_run),
        Some(Command::Run { config }) => makruk_bot::app::run_blocking(config),
        None => makruk_bot::app::run_blocking(cli.config),
    }
}
