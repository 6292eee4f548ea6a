//! The Discord adapter (serenity + poise) over the game service.

/// Configuration, from the environment or `--flags`.
#[derive(clap::Args, Debug, Clone)]
pub struct Config {
    /// The bot token. Never logged.
    #[arg(long, env = "DISCORD_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
}

/// Runs the bot until SIGTERM/Ctrl-C.
///
/// # Errors
/// Not implemented yet.
pub fn run_blocking(_config: Config) -> anyhow::Result<()> {
    anyhow::bail!("the bot is not implemented yet")
}
