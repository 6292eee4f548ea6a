//! The bot binary: `makruk-bot` runs the bot; `makruk-bot render …` draws one board.

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(version, about = "Play Makruk (Thai chess) on Discord")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    config: makruk_bot::discord::Config,
}

#[derive(Subcommand)]
enum Command {
    /// Run the bot (the default).
    Run {
        #[command(flatten)]
        config: makruk_bot::discord::Config,
    },
    /// Render one board position to a PNG file.
    Render(makruk_bot::render::cli::RenderArgs),
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Render(args)) => makruk_bot::render::cli::run(&args),
        Some(Command::Run { config }) => makruk_bot::discord::run_blocking(config),
        None => makruk_bot::discord::run_blocking(cli.config),
    }
}
