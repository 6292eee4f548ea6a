//! `makruk-bot render`: draw one position to a PNG file.

/// Arguments of the `render` subcommand.
#[derive(clap::Args, Debug)]
pub struct RenderArgs {
    /// The position, as FEN.
    #[arg(long)]
    pub fen: String,
    /// Output file.
    #[arg(long)]
    pub out: std::path::PathBuf,
}

/// Runs the `render` subcommand.
///
/// # Errors
/// Not implemented yet.
pub fn run(_args: &RenderArgs) -> anyhow::Result<()> {
    anyhow::bail!("render is not implemented yet")
}
