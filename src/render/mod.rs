//! The board picture: a Makruk position as PNG bytes.
//!
//! Pipeline: the board (frame, squares, grid, coordinates) and the piece artwork of `assets/` are
//! SVG, built in code with `std::fmt::Write` ([`board_svg`]) and rasterised by resvg. The fast
//! path ([`render`]) rasterises each piece once per square size and each empty board once per
//! theme/orientation/size (both cached in `LazyLock`s), then composites highlights and piece
//! sprites with tiny-skia and encodes an RGB PNG with fast compression. [`render_via_svg`] renders
//! the same picture as one whole-board SVG through resvg: it is the reference the fast path is
//! tested against, and the slower design the benchmark `benches/render.rs` compares with.
//!
//! A whole game as an animated GIF is [`game_gif`] (frames as changed rectangles in one fixed
//! palette; `benches/gif.rs`).
//!
//! Rendering is CPU-bound (about 1.5 ms for a 512 px middlegame once the caches are warm, most
//! of it PNG compression; about 8 ms on the first call for a new size, which parses the artwork
//! and rasterises the sprites and the board): from async code call it inside
//! `tokio::task::spawn_blocking`, never directly on the runtime.

pub mod chart;
pub mod cli;
pub mod evalgraph;
mod gif;
mod palette;
pub mod podium;
mod raster;
mod svg;

use makruk::{Board, Color, Piece, Position, Role, Square};

pub use gif::{game_gif, FRAME_DELAY_CS, LAST_FRAME_DELAY_CS};
pub use raster::{render, render_picture, render_via_svg, render_with_hands, Picture, PNG_BUDGET};
pub use svg::{board_svg, board_with_hands_svg, hand_strip, Hands};

/// What stands on each square, indexed by [`Square::index`] (a1 = 0 … h8 = 63).
pub type Placement = [Option<Piece>; 64];

/// The placement of a [`Board`], Bia-ngai included.
#[must_use]
pub fn placement(board: &Board) -> Placement {
    let mut out = [None; 64];
    for sq in Square::all() {
        out[sq.index()] = board.piece_at(sq);
    }
    out
}

/// Draws a position as PNG bytes: [`render`] of its placement, with the Khun of the side to move
/// highlighted when it is in check ([`Position::is_check`]); `options.check` is ignored. While a
/// side has pieces in hand (Sittuyin's placement) the picture is [`render_with_hands`]'s, taller
/// than wide, with the pieces to place above and below the board.
///
/// CPU-bound: from async code call it inside `tokio::task::spawn_blocking`.
///
/// ```
/// # async fn demo() -> anyhow::Result<()> {
/// use makruk_bot::render::{render_position, RenderOptions};
/// let position = makruk::Position::new();
/// let png = tokio::task::spawn_blocking(move || {
///     render_position(&position, &RenderOptions::default())
/// })
/// .await??;
/// assert!(png.starts_with(b"\x89PNG"));
/// # Ok(())
/// # }
/// # tokio::runtime::Runtime::new().unwrap().block_on(demo()).unwrap();
/// ```
///
/// # Errors
/// As [`render`].
pub fn render_position(
    position: &Position,
    options: &RenderOptions,
) -> Result<Vec<u8>, RenderError> {
    let options = position_options(position, options);
    let placement = placement(position.board());
    match hands(position) {
        Some(hands) => render_with_hands(&placement, &options, &hands),
        None => render(&placement, &options),
    }
}

/// The pieces each side still has in hand (Sittuyin's placement), `None` when no side has any.
#[must_use]
pub fn hands(position: &Position) -> Option<Hands> {
    if Color::ALL.iter().all(|&c| position.hand_count(c) == 0) {
        return None;
    }
    Some(Color::ALL.map(|c| Role::ALL.map(|r| position.in_hand(c, r))))
}

/// `options` with [`RenderOptions::check`] set from the position.
#[must_use]
pub fn position_options(position: &Position, options: &RenderOptions) -> RenderOptions {
    let check = if position.is_check() {
        position.board().khun_of(position.turn())
    } else {
        None
    };
    RenderOptions {
        check,
        ..options.clone()
    }
}

/// Smallest accepted picture size, in pixels.
pub const MIN_SIZE: u32 = 128;
/// Largest accepted picture size, in pixels.
pub const MAX_SIZE: u32 = 2048;
/// Default picture size, in pixels (square).
pub const DEFAULT_SIZE: u32 = 512;

/// The look of the squares.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Theme {
    /// The traditional Makruk board: all squares one colour, separated by grid lines.
    #[default]
    Plain,
    /// Alternating light and dark squares, as on a western chess board.
    Checkered,
}

impl Theme {
    /// Both themes, the default first.
    pub const ALL: [Theme; 2] = [Theme::Plain, Theme::Checkered];

    /// `"plain"` or `"checkered"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Theme::Plain => "plain",
            Theme::Checkered => "checkered",
        }
    }
}

/// Error reading a theme name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown board theme (expected \"plain\" or \"checkered\")")]
pub struct ParseThemeError;

impl std::str::FromStr for Theme {
    type Err = ParseThemeError;
    fn from_str(s: &str) -> Result<Theme, ParseThemeError> {
        Theme::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(s.trim()))
            .ok_or(ParseThemeError)
    }
}

/// How to draw a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderOptions {
    /// The side shown at the bottom (a player sees their own side there).
    pub orientation: Color,
    /// The last move, as (from, to) squares: both are highlighted with a translucent teal wash
    /// and a dark-teal outline.
    pub last_move: Option<(Square, Square)>,
    /// The square of a Khun in check: drawn with a red glow and a red ring under it.
    pub check: Option<Square>,
    /// Square colours.
    pub theme: Theme,
    /// Width and height of the picture in pixels, [`MIN_SIZE`]`..=`[`MAX_SIZE`].
    pub size: u32,
}

impl Default for RenderOptions {
    fn default() -> RenderOptions {
        RenderOptions {
            orientation: Color::White,
            last_move: None,
            check: None,
            theme: Theme::Plain,
            size: DEFAULT_SIZE,
        }
    }
}

/// Why a picture could not be made.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// [`RenderOptions::size`] is outside [`MIN_SIZE`]`..=`[`MAX_SIZE`].
    #[error("board size {0} px is out of range ({MIN_SIZE}..={MAX_SIZE} px)")]
    Size(u32),
    /// The built-in artwork did not parse (a bug, caught by the tests).
    #[error("board artwork is broken: {0}")]
    Artwork(String),
    /// PNG encoding failed.
    #[error("cannot encode the PNG: {0}")]
    Png(#[from] png::EncodingError),
    /// GIF encoding failed.
    #[error("cannot encode the GIF: {0}")]
    Gif(#[from] ::gif::EncodingError),
}

/// The artwork of one piece kind: Khun, Met, Khon, Ma, Ruea, Bia or Bia-ngai.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Kind(usize);

impl Kind {
    /// Number of piece kinds drawn: the six roles plus the Bia-ngai.
    pub(crate) const COUNT: usize = 7;
    const BIA_NGAI: usize = 6;

    /// A promoted Bia is drawn as the Bia-ngai when it became a Met (Makruk's promotion); a
    /// piece an ASEAN Bia became (a Ruea, a Ma, a Khon) is drawn as that piece.
    pub(crate) fn of(piece: Piece) -> Kind {
        if piece.promoted && piece.role == Role::Met {
            Kind(Kind::BIA_NGAI)
        } else {
            Kind(piece.role.index())
        }
    }
}

/// The SVG source of a piece's artwork (`assets/pieces/<colour>-<name>.svg`), for a Bia-ngai
/// when `piece.promoted` is set.
#[must_use]
pub fn piece_svg(piece: Piece) -> &'static str {
    PIECE_SVG[piece.color.index()][Kind::of(piece).0]
}

/// `PIECE_SVG[colour][kind]`, kinds in [`Role::ALL`] order then the Bia-ngai.
const PIECE_SVG: [[&str; Kind::COUNT]; 2] = [
    [
        include_str!("../../assets/pieces/white-khun.svg"),
        include_str!("../../assets/pieces/white-met.svg"),
        include_str!("../../assets/pieces/white-khon.svg"),
        include_str!("../../assets/pieces/white-ma.svg"),
        include_str!("../../assets/pieces/white-ruea.svg"),
        include_str!("../../assets/pieces/white-bia.svg"),
        include_str!("../../assets/pieces/white-bia-ngai.svg"),
    ],
    [
        include_str!("../../assets/pieces/black-khun.svg"),
        include_str!("../../assets/pieces/black-met.svg"),
        include_str!("../../assets/pieces/black-khon.svg"),
        include_str!("../../assets/pieces/black-ma.svg"),
        include_str!("../../assets/pieces/black-ruea.svg"),
        include_str!("../../assets/pieces/black-bia.svg"),
        include_str!("../../assets/pieces/black-bia-ngai.svg"),
    ],
];

/// Every piece that has its own artwork: both colours × (six roles + Bia-ngai).
#[must_use]
pub fn all_pieces() -> Vec<Piece> {
    let mut out = Vec::with_capacity(2 * Kind::COUNT);
    for color in Color::ALL {
        for role in Role::ALL {
            out.push(Piece::new(color, role));
        }
        out.push(Piece::bia_ngai(color));
    }
    out
}

/// Where things are on the picture, in pixels.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    pub size: u32,
    /// Left/top edge of the board (inside the frame that carries the coordinates).
    pub origin: u32,
    /// Side of one square.
    pub square: u32,
    pub orientation: Color,
}

impl Layout {
    pub(crate) fn new(size: u32, orientation: Color) -> Result<Layout, RenderError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(RenderError::Size(size));
        }
        // The frame takes about 4.5 % per side: room for coordinates readable on a phone.
        let frame = (size * 45).div_ceil(1000);
        let square = (size - 2 * frame) / 8;
        let origin = (size - 8 * square) / 2;
        Ok(Layout {
            size,
            origin,
            square,
            orientation,
        })
    }

    /// Column (0 = left) and row (0 = top) of `sq` on the picture.
    pub(crate) fn cell(&self, sq: Square) -> (u32, u32) {
        let (file, rank) = (u32::from(sq.file()), u32::from(sq.rank()));
        match self.orientation {
            Color::White => (file, 7 - rank),
            Color::Black => (7 - file, rank),
        }
    }

    /// Top-left pixel of `sq`.
    pub(crate) fn square_origin(&self, sq: Square) -> (u32, u32) {
        let (col, row) = self.cell(sq);
        (
            self.origin + col * self.square,
            self.origin + row * self.square,
        )
    }
}

/// Pixel rectangle `(x, y, side)` of `sq` on a picture drawn with `size` and `orientation`.
///
/// # Errors
/// [`RenderError::Size`] if `size` is out of range.
pub fn square_rect(
    size: u32,
    orientation: Color,
    sq: Square,
) -> Result<(u32, u32, u32), RenderError> {
    let layout = Layout::new(size, orientation)?;
    let (x, y) = layout.square_origin(sq);
    Ok((x, y, layout.square))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An ASEAN Bia promoted to a Ruea (FEN `R~`) is drawn as a Ruea; only a Bia become a
    /// Met is the Bia-ngai.
    #[test]
    fn a_promoted_piece_is_drawn_as_what_it_became() {
        let pos = makruk::Position::from_fen_variant(
            "R~3k3/8/8/8/8/8/8/4K3 b - - 0 1",
            makruk::Variant::Asean,
        )
        .expect("ASEAN FEN");
        let sq: Square = "a8".parse().expect("square");
        let ruea = pos.board().piece_at(sq).expect("a piece");
        assert!(ruea.promoted);
        assert_eq!(
            Kind::of(ruea),
            Kind::of(Piece::new(Color::White, Role::Ruea))
        );
        assert_eq!(Kind::of(Piece::bia_ngai(Color::White)).0, Kind::BIA_NGAI);
        let options = RenderOptions::default();
        let promoted = render_position(&pos, &options).expect("renders");
        let plain = makruk::Position::from_fen_variant(
            "R3k3/8/8/8/8/8/8/4K3 b - - 0 1",
            makruk::Variant::Asean,
        )
        .expect("ASEAN FEN");
        assert_eq!(
            promoted,
            render_position(&plain, &options).expect("renders")
        );
    }

    #[test]
    fn layout_fits_the_board_and_frame_in_the_picture() {
        for size in [MIN_SIZE, 480, 500, DEFAULT_SIZE, 640, MAX_SIZE] {
            let l = Layout::new(size, Color::White).expect("valid size");
            assert!(l.origin >= size * 4 / 100, "{size}: room for coordinates");
            assert!(l.origin + 8 * l.square <= size, "{size}: board inside");
            assert!(
                size - (l.origin + 8 * l.square) - l.origin <= 1,
                "{size}: centred"
            );
        }
        assert!(Layout::new(MIN_SIZE - 1, Color::White).is_err());
    }

    #[test]
    fn orientation_maps_corners() {
        let w = Layout::new(512, Color::White).expect("size");
        let b = Layout::new(512, Color::Black).expect("size");
        let a1 = Square::from_coords(0, 0).expect("a1");
        let h8 = Square::from_coords(7, 7).expect("h8");
        assert_eq!(w.cell(a1), (0, 7));
        assert_eq!(w.cell(h8), (7, 0));
        assert_eq!(b.cell(a1), (7, 0));
        assert_eq!(b.cell(h8), (0, 7));
    }

    #[test]
    fn theme_names_round_trip() {
        for t in Theme::ALL {
            assert_eq!(t.name().parse::<Theme>(), Ok(t));
        }
        assert_eq!(" CHECKERED ".parse::<Theme>(), Ok(Theme::Checkered));
        assert_eq!("".parse::<Theme>(), Err(ParseThemeError));
    }

    #[test]
    fn each_piece_kind_has_its_own_file() {
        let mut seen = std::collections::HashSet::new();
        for p in all_pieces() {
            assert!(seen.insert(piece_svg(p)), "{p:?} shares its artwork");
            let colour = p.color.name();
            assert!(
                piece_svg(p).contains(&format!("id=\"{colour}-")),
                "{p:?} colour"
            );
        }
        assert!(piece_svg(Piece::bia_ngai(Color::White)).contains("white-bia-ngai"));
        assert!(piece_svg(Piece::new(Color::Black, Role::Khun)).contains("black-khun"));
        assert!(piece_svg(Piece::new(Color::White, Role::Met)).contains("white-met"));
    }
}
