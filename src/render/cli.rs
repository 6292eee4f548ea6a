//! `makruk-bot render`: draw one position to a PNG file.

use anyhow::Context as _;
use makruk::{Color, Position, Ruleset, Square};

use super::{render_position, RenderOptions, Theme, DEFAULT_SIZE};

/// Arguments of the `render` subcommand.
#[derive(clap::Args, Debug)]
pub struct RenderArgs {
    /// The position, as FEN (Fairy-Stockfish form; `M~` marks a Bia-ngai).
    #[arg(long)]
    pub fen: String,
    /// The FEN's variant of the Makruk family: makruk (default), makpong, cambodian, asean or
    /// sittuyin.
    #[arg(long, default_value = "makruk")]
    pub variant: makruk::Variant,
    /// Draw the board from Black's side (Black at the bottom).
    #[arg(long)]
    pub black_bottom: bool,
    /// Highlight the last move, as UCI squares: `e3e4`.
    #[arg(long, value_name = "FROMTO")]
    pub last: Option<String>,
    /// Board style: `plain` (traditional, one square colour with grid lines) or `checkered`.
    #[arg(long, default_value = "plain")]
    pub theme: Theme,
    /// Picture width and height in pixels.
    #[arg(long, default_value_t = DEFAULT_SIZE)]
    pub size: u32,
    /// Output file.
    #[arg(long)]
    pub out: std::path::PathBuf,
}

/// Reads `e3e4` (optionally with a trailing promotion letter, as UCI writes it) as two squares.
///
/// # Errors
/// If the text is not two square names.
pub fn parse_last_move(s: &str) -> anyhow::Result<(Square, Square)> {
    let s = s.trim();
    let (from, to) = (s.get(0..2), s.get(2..4));
    let rest = s.get(4..).unwrap_or("");
    match (from, to) {
        (Some(from), Some(to)) if rest.len() <= 1 => {
            let from: Square = from.parse().context("bad from-square in --last")?;
            let to: Square = to.parse().context("bad to-square in --last")?;
            Ok((from, to))
        }
        _ => anyhow::bail!("--last expects a move like e3e4, got {s:?}"),
    }
}

/// Runs the `render` subcommand: reads the FEN, draws it and writes the PNG.
///
/// # Errors
/// An invalid FEN, last move or size, or an unwritable output file.
pub fn run(args: &RenderArgs) -> anyhow::Result<()> {
    let position = if args.variant == makruk::Variant::Makruk {
        Position::from_fen(&args.fen, Ruleset::default())
    } else {
        Position::from_fen_variant(&args.fen, args.variant)
    }
    .with_context(|| format!("invalid FEN {:?} of {}", args.fen, args.variant))?;
    let last_move = args.last.as_deref().map(parse_last_move).transpose()?;
    let options = RenderOptions {
        orientation: if args.black_bottom {
            Color::Black
        } else {
            Color::White
        },
        last_move,
        check: None,
        theme: args.theme,
        size: args.size,
    };
    let png = render_position(&position, &options)?;
    std::fs::write(&args.out, &png)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    Ok(())
}
