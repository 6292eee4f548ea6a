//! SVG text of the board: frame, squares, grid lines, coordinates, highlights and pieces.

use std::fmt::Write as _;

use makruk::{Color, Piece, Role, Square};

use super::{piece_svg, Layout, Placement, RenderError, RenderOptions, Theme};

/// Colours of a theme.
pub(crate) struct Palette {
    pub frame: &'static str,
    pub light: &'static str,
    pub dark: &'static str,
    pub grid: &'static str,
    pub glyph: &'static str,
}

pub(crate) fn palette(theme: Theme) -> Palette {
    match theme {
        // A carved teak board with one square colour and dark grid lines (seeds: "an 8 × 8
        // board whose squares are all the same colour").
        Theme::Plain => Palette {
            frame: "#6b4226",
            light: "#e6c590",
            dark: "#e6c590",
            grid: "#4a2c16",
            glyph: "#f6e7c8",
        },
        Theme::Checkered => Palette {
            frame: "#5a4330",
            light: "#f0dab0",
            dark: "#b98a5c",
            grid: "#3c2a1a",
            glyph: "#f6e7c8",
        },
    }
}

/// Last-move highlight, part 1: a translucent blue-teal wash over the square. A cool tint reads well
/// on the warm board for red-green colour-blind players too; in grey-scale it darkens the square
/// a little, and the outline ([`LAST_MOVE_EDGE_RGB`]) carries the mark.
pub(crate) const LAST_MOVE_RGBA: (u8, u8, u8, u8) = (0, 140, 190, 115);

/// Last-move highlight, part 2: a solid dark-teal outline just inside the square's edge, so the
/// highlight cannot be mistaken for a dark square of the checkered board, in colour or grey-scale.
pub(crate) const LAST_MOVE_EDGE_RGB: (u8, u8, u8) = (0, 78, 118);

/// A pixel rectangle: `(x, y, width, height)`.
pub(crate) type Rect = (u32, u32, u32, u32);

/// Where a last-move highlight of `sq` is drawn: the washed rectangle (inside the grid lines of
/// the plain board) and the four sides of the outline along its inner edge (top, bottom, left,
/// right). Whole pixels, so the fast path and the whole-board SVG draw the same thing.
pub(crate) fn last_move_rects(layout: &Layout, theme: Theme, sq: Square) -> (Rect, [Rect; 4]) {
    let (x, y) = layout.square_origin(sq);
    let inset = highlight_inset(layout, theme);
    let (x, y, side) = (x + inset, y + inset, layout.square - 2 * inset);
    // About 7 % of the square: 4 px at 512 px, 3 px on a 320 px phone picture.
    let t = ((layout.square * 7 + 50) / 100).max(2).min(side / 4);
    let edges = [
        (x, y, side, t),
        (x, y + side - t, side, t),
        (x, y + t, t, side - 2 * t),
        (x + side - t, y + t, t, side - 2 * t),
    ];
    ((x, y, side, side), edges)
}

/// A red glow and a red ring, 100 × 100 units, drawn under a Khun in check. The ring keeps the
/// mark clear in grey-scale, where the glow alone becomes a grey smudge.
pub(crate) const CHECK_GLOW: &str = r##"<defs><radialGradient id="check-glow" cx="50" cy="50" r="50" gradientUnits="userSpaceOnUse"><stop offset="0" stop-color="#ff3a1c" stop-opacity="0.95"/><stop offset="0.6" stop-color="#f02a12" stop-opacity="0.7"/><stop offset="1" stop-color="#e02010" stop-opacity="0.25"/></radialGradient></defs><circle cx="50" cy="50" r="47" fill="url(#check-glow)"/><circle cx="50" cy="50" r="44.5" fill="none" stroke="#c80a0a" stroke-width="7"/>"##;

/// The check glow and ring as a standalone SVG document (rasterised once per size).
pub(crate) fn check_glow_document() -> String {
    format!(r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{CHECK_GLOW}</svg>"#)
}

/// Grid line width in pixels for a square of `square` pixels.
pub(crate) fn grid_width(square: u32) -> f32 {
    (square as f32 / 30.0).max(1.0)
}

/// The empty board: frame, squares, grid and coordinates, without highlights or pieces.
pub(crate) fn background_svg(layout: &Layout, theme: Theme) -> String {
    let mut out = String::with_capacity(8 * 1024);
    let size = layout.size;
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}">"#
    );
    background_body(&mut out, layout, theme);
    out.push_str("</svg>");
    out
}

fn background_body(out: &mut String, layout: &Layout, theme: Theme) {
    let p = palette(theme);
    let (size, o, sq) = (layout.size, layout.origin, layout.square);
    let side = 8 * sq;
    let _ = write!(
        out,
        r#"<rect width="{size}" height="{size}" fill="{}"/><rect x="{o}" y="{o}" width="{side}" height="{side}" fill="{}"/>"#,
        p.frame, p.light
    );
    if p.dark != p.light {
        let _ = write!(out, r#"<g fill="{}">"#, p.dark);
        for s in Square::all().filter(|s| s.is_dark()) {
            let (x, y) = layout.square_origin(s);
            let _ = write!(out, r#"<rect x="{x}" y="{y}" width="{sq}" height="{sq}"/>"#);
        }
        out.push_str("</g>");
    }
    let line = grid_width(sq);
    match theme {
        Theme::Plain => {
            let _ = write!(
                out,
                r#"<g stroke="{}" stroke-width="{line}" stroke-linecap="square"><path d=""#,
                p.grid
            );
            for i in 1..8 {
                let at = o + i * sq;
                let _ = write!(out, "M{at},{o}v{side}M{o},{at}h{side}");
            }
            out.push_str(r#""/></g>"#);
        }
        Theme::Checkered => {}
    }
    // The board's outer edge, a little bolder than the grid.
    let edge = line * 1.6;
    let half = edge / 2.0;
    let _ = write!(
        out,
        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{}" stroke-width="{edge}"/>"#,
        o as f32 - half,
        o as f32 - half,
        side as f32 + edge,
        side as f32 + edge,
        p.grid
    );
    coordinates(out, layout, p.glyph);
}

/// File letters under the board and rank digits left of it, as stroked paths.
fn coordinates(out: &mut String, layout: &Layout, colour: &str) {
    let (o, sq) = (layout.origin as f32, layout.square as f32);
    let frame = o;
    // Glyphs are 10 units tall; make them a little over half the frame high, with a bold stroke
    // so they stay readable on a 320 px phone picture (the tail of `g` still fits the frame).
    let scale = frame * 0.56 / 10.0;
    let stroke = 2.0;
    let _ = write!(
        out,
        r#"<g fill="none" stroke="{colour}" stroke-width="{stroke}" stroke-linecap="round" stroke-linejoin="round">"#
    );
    for i in 0..8u8 {
        let file_sq = Square::from_coords(i, 0).unwrap_or(Square::from_index(0));
        let rank_sq = Square::from_coords(0, i).unwrap_or(Square::from_index(0));
        let (col, _) = layout.cell(file_sq);
        let (_, row) = layout.cell(rank_sq);
        // File letter, centred under its column in the bottom frame.
        let x = o + (col as f32 + 0.5) * sq - GLYPH_WIDTH / 2.0 * scale;
        let y = o + 8.0 * sq + (frame - 10.0 * scale) / 2.0 - 0.5 * scale;
        glyph(out, FILES[usize::from(i)], x, y, scale);
        // Rank digit, centred left of its row.
        let x = (frame - GLYPH_WIDTH * scale) / 2.0;
        let y = o + (row as f32 + 0.5) * sq - 5.0 * scale;
        glyph(out, RANKS[usize::from(i)], x, y, scale);
    }
    out.push_str("</g>");
}

fn glyph(out: &mut String, d: &str, x: f32, y: f32, scale: f32) {
    let _ = write!(
        out,
        r#"<path transform="translate({x:.2},{y:.2}) scale({scale:.3})" d="{d}"/>"#
    );
}

/// Width of the coordinate glyphs, in glyph units (height is 10: digits and ascenders 0–10,
/// x-height 4–10, the tail of `g` to 12.5).
pub(crate) const GLYPH_WIDTH: f32 = 5.5;

/// A tiny stroke font for `a`–`h`, drawn for this project.
const FILES: [&str; 8] = [
    "M5,7A2.5,3 0 1 1 0,7A2.5,3 0 1 1 5,7M5,4V10",
    "M0,0V10M0,7A2.5,3 0 1 1 5,7A2.5,3 0 1 1 0,7",
    "M5,5.2A2.6,3 0 1 0 5,8.8",
    "M5,0V10M5,7A2.5,3 0 1 1 0,7A2.5,3 0 1 1 5,7",
    "M0.2,7H5.2A2.6,3 0 1 0 4.3,9.3",
    "M5,1C4,-0.3 2,0 2,2.5V10M0,4.5H4.5",
    "M5,7A2.5,3 0 1 1 0,7A2.5,3 0 1 1 5,7M5,4V11C5,13.5 1,13.5 0.3,11.8",
    "M0,0V10M0,6.5C0,3.5 5,3.5 5,6.5V10",
];

/// A tiny stroke font for `1`–`8`, drawn for this project.
pub(crate) const RANKS: [&str; 8] = [
    "M1,2L3,0V10M1,10H5",
    "M0.3,2.5C0.5,-0.8 5.5,-0.8 5.2,2.8C5,5 0.3,7.5 0.2,10H5.5",
    "M0.3,1.5C1.5,-0.5 5.5,0 5,2.5C4.7,4.2 3,4.6 2,4.6C4,4.6 5.5,5.5 5.5,7.3C5.5,10.5 0.8,10.8 0,8.5",
    "M4,10V0L0,7H5.8",
    "M5,0H1L0.5,4.5C2,3.5 5.5,3.5 5.5,7C5.5,10.5 1,10.5 0,8.8",
    "M5,1.2C3.5,-0.3 0.1,0 0.1,6.5M0.1,7A2.7,2.9 0 1 0 5.5,7A2.7,2.9 0 1 0 0.1,7",
    "M0,0H5.5L2,10",
    "M2.75,4.8A2.3,2.4 0 1 1 2.75,0A2.3,2.4 0 1 1 2.75,4.8A2.7,2.6 0 1 1 2.75,10A2.7,2.6 0 1 1 2.75,4.8",
];

/// The inside of a piece's SVG file (without the outer `<svg>` element), to place in `<defs>`.
fn svg_inner(doc: &str) -> &str {
    let start = doc
        .find("<svg")
        .and_then(|i| doc[i..].find('>').map(|j| i + j + 1))
        .unwrap_or(0);
    let end = doc.rfind("</svg>").unwrap_or(doc.len());
    doc.get(start..end).unwrap_or("")
}

/// The whole picture as one SVG document: board, highlights and pieces (each piece kind in
/// `<defs>` once, placed with `<use>`). Rendered by [`super::render_via_svg`].
///
/// # Errors
/// [`RenderError::Size`] if `options.size` is out of range.
pub fn board_svg(placement: &Placement, options: &RenderOptions) -> Result<String, RenderError> {
    board_doc(placement, options, None)
}

/// The picture of [`board_svg`] with each side's pieces in hand (Sittuyin's placement) in a
/// strip above the board (the side at the top) and one below it (the side at the bottom):
/// `options.size` wide, `options.size + 2 ×` [`hand_strip`] high. Each role in hand is drawn
/// once, followed by `×n` when there are several.
///
/// # Errors
/// [`RenderError::Size`] if `options.size` is out of range.
pub fn board_with_hands_svg(
    placement: &Placement,
    options: &RenderOptions,
    hands: &Hands,
) -> Result<String, RenderError> {
    board_doc(placement, options, Some(hands))
}

/// The height in pixels of a hand's strip on a picture `size` pixels wide.
#[must_use]
pub fn hand_strip(size: u32) -> u32 {
    size / 10
}

/// The order the pieces in hand are drawn in: the Khun, then the others by value.
const HAND_ORDER: [Role; 6] = [
    Role::Khun,
    Role::Ruea,
    Role::Ma,
    Role::Khon,
    Role::Met,
    Role::Bia,
];

/// A stroke `×`, in glyph units (see [`GLYPH_WIDTH`]).
const TIMES: &str = "M0.5,3.5L5,9M5,3.5L0.5,9";

/// One side's strip of pieces in hand, its top at `top`.
fn hand_row(
    out: &mut String,
    hand: &[u32; 6],
    color: Color,
    top: u32,
    layout: &Layout,
    glyph_colour: &str,
) {
    let strip = hand_strip(layout.size) as f32;
    let piece = strip * 0.92;
    let y = top as f32 + (strip - piece) / 2.0;
    let mut x = layout.origin as f32;
    let scale = strip * 0.42 / 10.0;
    let glyph_top = top as f32 + (strip - 10.0 * scale) / 2.0;
    for role in HAND_ORDER {
        let n = hand[role.index()];
        if n == 0 {
            continue;
        }
        let _ = write!(
            out,
            r##"<use xlink:href="#{}" transform="translate({x:.2},{y:.2}) scale({:.4})"/>"##,
            piece_id(Piece::new(color, role)),
            piece / 100.0
        );
        x += piece;
        if n > 1 {
            let _ = write!(
                out,
                r#"<g fill="none" stroke="{glyph_colour}" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">"#
            );
            glyph(out, TIMES, x, glyph_top, scale);
            x += (GLYPH_WIDTH + 1.5) * scale;
            for d in n.to_string().chars().filter_map(|c| c.to_digit(10)) {
                glyph(out, super::chart::digit_path(d), x, glyph_top, scale);
                x += (GLYPH_WIDTH + 1.5) * scale;
            }
            out.push_str("</g>");
        }
        x += strip * 0.3;
    }
}

/// How many pieces of each role (by [`Role::index`]) each side (by [`Color::index`]) has in
/// hand.
pub type Hands = [[u32; 6]; 2];

fn board_doc(
    placement: &Placement,
    options: &RenderOptions,
    hands: Option<&Hands>,
) -> Result<String, RenderError> {
    let layout = Layout::new(options.size, options.orientation)?;
    let sq = layout.square;
    let size = layout.size;
    let strip = if hands.is_some() { hand_strip(size) } else { 0 };
    let height = size + 2 * strip;
    let mut out = String::with_capacity(32 * 1024);
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="{size}" height="{height}" viewBox="0 0 {size} {height}">"#
    );
    if strip > 0 {
        let _ = write!(
            out,
            r#"<rect width="{size}" height="{height}" fill="{}"/><g transform="translate(0,{strip})">"#,
            palette(options.theme).frame
        );
    }
    background_body(&mut out, &layout, options.theme);

    if let Some((from, to)) = options.last_move {
        let (r, g, b, a) = LAST_MOVE_RGBA;
        let (er, eg, eb) = LAST_MOVE_EDGE_RGB;
        for s in [from, to] {
            let ((x, y, w, h), edges) = last_move_rects(&layout, options.theme, s);
            let _ = write!(
                out,
                r#"<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="rgb({r},{g},{b})" fill-opacity="{:.4}"/><g fill="rgb({er},{eg},{eb})">"#,
                f32::from(a) / 255.0
            );
            for (x, y, w, h) in edges {
                let _ = write!(out, r#"<rect x="{x}" y="{y}" width="{w}" height="{h}"/>"#);
            }
            out.push_str("</g>");
        }
    }
    if let Some(s) = options.check {
        let (x, y) = layout.square_origin(s);
        let scale = sq as f32 / 100.0;
        let _ = write!(
            out,
            r#"<g transform="translate({x},{y}) scale({scale})">{CHECK_GLOW}</g>"#
        );
    }

    let mut used = [[false; super::Kind::COUNT]; 2];
    for p in placement.iter().flatten() {
        used[p.color.index()][super::Kind::of(*p).0] = true;
    }
    for (c, hand) in hands
        .into_iter()
        .flat_map(|h| Color::ALL.map(|c| (c, h[c.index()])))
    {
        for role in Role::ALL {
            if hand[role.index()] > 0 {
                used[c.index()][super::Kind::of(Piece::new(c, role)).0] = true;
            }
        }
    }
    out.push_str("<defs>");
    for p in super::all_pieces() {
        if used[p.color.index()][super::Kind::of(p).0] {
            let _ = write!(
                out,
                r#"<g id="{}">{}</g>"#,
                piece_id(p),
                svg_inner(piece_svg(p))
            );
        }
    }
    out.push_str("</defs>");
    let scale = sq as f32 / 100.0;
    for (i, p) in placement.iter().enumerate() {
        if let (Some(p), Some(s)) = (p, u8::try_from(i).ok().and_then(Square::new)) {
            let (x, y) = layout.square_origin(s);
            let _ = write!(
                out,
                r##"<use xlink:href="#{}" transform="translate({x},{y}) scale({scale})"/>"##,
                piece_id(*p)
            );
        }
    }
    if let Some(hands) = hands {
        out.push_str("</g>");
        let glyph_colour = palette(options.theme).glyph;
        let top = options.orientation.other();
        hand_row(&mut out, &hands[top.index()], top, 0, &layout, glyph_colour);
        let bottom = options.orientation;
        hand_row(
            &mut out,
            &hands[bottom.index()],
            bottom,
            size + strip,
            &layout,
            glyph_colour,
        );
    }
    out.push_str("</svg>");
    Ok(out)
}

/// Pixels left untouched around a highlighted square so the grid lines stay visible.
fn highlight_inset(layout: &Layout, theme: Theme) -> u32 {
    match theme {
        Theme::Plain => (grid_width(layout.square) / 2.0).ceil() as u32,
        Theme::Checkered => 0,
    }
}

fn piece_id(p: makruk::Piece) -> String {
    let colour = match p.color {
        Color::White => "w",
        Color::Black => "b",
    };
    let kind = if p.promoted && p.role == makruk::Role::Met {
        'B'
    } else {
        p.role.char()
    };
    format!("piece-{colour}{kind}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use makruk::{Piece, Role};

    #[test]
    fn svg_inner_strips_the_outer_element() {
        let doc = r#"<svg xmlns="x" viewBox="0 0 100 100"><g id="a"/></svg>"#;
        assert_eq!(svg_inner(doc), r#"<g id="a"/>"#);
        assert_eq!(svg_inner("no svg here"), "no svg here");
    }

    #[test]
    fn each_used_piece_kind_is_defined_once_and_placed_per_square() {
        let mut placement: Placement = [None; 64];
        let bia = Piece::new(Color::White, Role::Bia);
        for slot in &mut placement[16..24] {
            *slot = Some(bia);
        }
        placement[60] = Some(Piece::bia_ngai(Color::Black));
        let svg = board_svg(&placement, &RenderOptions::default()).expect("valid size");
        assert_eq!(svg.matches(r#"<g id="piece-wP">"#).count(), 1);
        assert_eq!(svg.matches(r##"href="#piece-wP""##).count(), 8);
        assert_eq!(svg.matches(r##"href="#piece-bB""##).count(), 1);
        assert!(!svg.contains("piece-wK"), "unused kinds are not defined");
    }

    #[test]
    fn coordinates_have_eight_glyphs_each() {
        let layout = Layout::new(512, Color::White).expect("size");
        let mut out = String::new();
        coordinates(&mut out, &layout, "#000");
        assert_eq!(out.matches("<path").count(), 16);
        for d in FILES.iter().chain(RANKS.iter()) {
            assert!(out.contains(d));
        }
    }
}
