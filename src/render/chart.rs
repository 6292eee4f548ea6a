//! The rating-history chart of `/stats`: a line through a player's rating after each rated
//! game, on horizontal grid lines labelled with ratings, as PNG bytes.
//!
//! Built like the board: an SVG document written in code, rasterised by resvg into a tiny-skia
//! pixmap. Numbers are drawn with the board's own stroke font (its rank digits `1`–`8`, plus
//! `0` and `9` drawn here in the same style), so no font file or system font is needed.
//!
//! CPU-bound (about a millisecond; see `examples/ratings_bench.rs`): from async code call it
//! inside `tokio::task::spawn_blocking`.

use std::fmt::Write as _;

use resvg::tiny_skia::{Color, Pixmap, Transform};

use super::svg::{GLYPH_WIDTH, RANKS};
use super::RenderError;

/// Width of the chart, in pixels.
pub const CHART_WIDTH: u32 = 640;
/// Height of the chart, in pixels.
pub const CHART_HEIGHT: u32 = 320;

/// `0` and `9` in the stroke font of the board's coordinates (see `svg::RANKS`).
const ZERO: &str = "M2.75,0A2.75,5 0 1 1 2.75,10A2.75,5 0 1 1 2.75,0";
const NINE: &str = "M0.5,8.8C2,10.3 5.4,10 5.4,3.5M5.4,3A2.7,2.9 0 1 0 0,3A2.7,2.9 0 1 0 5.4,3";

/// The stroke path of digit `d` (0–9).
pub(super) fn digit_path(d: u32) -> &'static str {
    match d {
        0 => ZERO,
        1..=8 => RANKS[d as usize - 1],
        _ => NINE,
    }
}

/// Left margin (rating labels), other margins, in pixels.
const LEFT: f32 = 56.0;
const RIGHT: f32 = 16.0;
const TOP: f32 = 16.0;
const BOTTOM: f32 = 32.0;
/// Glyph scale: 10 glyph units tall → 13 px.
const SCALE: f32 = 1.3;

/// Writes `n` in the stroke font, its right end at `right` (or starting at `left` if
/// `right_aligned` is false), its top at `top`.
pub(super) fn number(out: &mut String, n: u64, x: f32, top: f32, right_aligned: bool) {
    let digits: Vec<u32> = n
        .to_string()
        .chars()
        .filter_map(|c| c.to_digit(10))
        .collect();
    let advance = (GLYPH_WIDTH + 2.5) * SCALE;
    let width = advance * digits.len() as f32 - 2.5 * SCALE;
    let start = if right_aligned { x - width } else { x };
    for (i, d) in digits.iter().enumerate() {
        let gx = start + advance * i as f32;
        let _ = write!(
            out,
            r#"<path transform="translate({gx:.2},{top:.2}) scale({SCALE})" d="{}"/>"#,
            digit_path(*d)
        );
    }
}

/// A grid step (in rating points) that gives at most six lines over `span`.
fn grid_step(span: f64) -> f64 {
    [10.0, 25.0, 50.0, 100.0, 200.0, 250.0, 500.0, 1000.0]
        .into_iter()
        .find(|s| span / s <= 6.0)
        .unwrap_or(2000.0)
}

/// The chart's SVG: `ratings` in order (the first is the rating before the first game, so one
/// game gives a line from the start to the result; a single value gives one dot).
#[must_use]
pub fn chart_svg(ratings: &[f64]) -> String {
    let (w, h) = (CHART_WIDTH as f32, CHART_HEIGHT as f32);
    let finite: Vec<f64> = ratings.iter().copied().filter(|r| r.is_finite()).collect();
    let lo = finite.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = finite.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if finite.is_empty() {
        (1500.0, 1500.0)
    } else {
        (lo, hi)
    };
    // At least 100 points of range, centred on the data, with room above and below.
    let mid = (lo + hi) / 2.0;
    let half = ((hi - lo) / 2.0).max(50.0) * 1.15;
    let step = grid_step(2.0 * half);
    let (y0, y1) = (
        ((mid - half) / step).floor() * step,
        ((mid + half) / step).ceil() * step,
    );
    let (pw, ph) = (w - LEFT - RIGHT, h - TOP - BOTTOM);
    let y_of = |r: f64| TOP + ((y1 - r) / (y1 - y0)) as f32 * ph;
    let n = finite.len();
    let x_of = |i: usize| {
        if n <= 1 {
            LEFT + pw / 2.0
        } else {
            LEFT + pw * i as f32 / (n - 1) as f32
        }
    };

    let mut out = String::with_capacity(4096 + 24 * n);
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}"><rect width="{w}" height="{h}" fill="#fbf8f0"/>"##
    );
    // Grid lines and their ratings.
    out.push_str(r##"<g stroke="#d9d2c3" stroke-width="1">"##);
    let mut r = y0;
    while r <= y1 + 0.5 {
        let y = y_of(r);
        let _ = write!(out, r#"<path d="M{LEFT},{y:.1}H{:.1}"/>"#, w - RIGHT);
        r += step;
    }
    out.push_str("</g>");
    out.push_str(r##"<g fill="none" stroke="#5a4a36" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round">"##);
    let mut r = y0;
    while r <= y1 + 0.5 {
        let top = y_of(r) - 5.0 * SCALE;
        number(&mut out, r.max(0.0) as u64, LEFT - 8.0, top, true);
        r += step;
    }
    // Games played, under both ends of the line.
    let games = n.saturating_sub(1) as u64;
    let label_top = h - BOTTOM + 8.0;
    number(&mut out, 0, LEFT, label_top, false);
    if games > 0 {
        number(&mut out, games, w - RIGHT, label_top, true);
    }
    out.push_str("</g>");
    // The rating line, a dot per game, the last one larger.
    if n > 1 {
        out.push_str(
            r##"<path fill="none" stroke="#1f6feb" stroke-width="2.5" stroke-linejoin="round" d=""##,
        );
        for (i, r) in finite.iter().enumerate() {
            let _ = write!(
                out,
                "{}{:.1},{:.1}",
                if i == 0 { "M" } else { "L" },
                x_of(i),
                y_of(*r)
            );
        }
        out.push_str(r#""/>"#);
    }
    if n <= 60 {
        out.push_str(r##"<g fill="#1f6feb">"##);
        for (i, r) in finite.iter().enumerate() {
            let _ = write!(
                out,
                r#"<circle cx="{:.1}" cy="{:.1}" r="3"/>"#,
                x_of(i),
                y_of(*r)
            );
        }
        out.push_str("</g>");
    }
    if let Some(last) = finite.last() {
        let _ = write!(
            out,
            r##"<circle cx="{:.1}" cy="{:.1}" r="5" fill="#d94f2b" stroke="#fbf8f0" stroke-width="1.5"/>"##,
            x_of(n - 1),
            y_of(*last)
        );
    }
    out.push_str("</svg>");
    out
}

/// The chart of `ratings` (see [`chart_svg`]) as an RGBA PNG of
/// [`CHART_WIDTH`] × [`CHART_HEIGHT`] pixels.
///
/// # Errors
/// [`RenderError::Artwork`] if the SVG does not parse (a bug), [`RenderError::Png`] if the
/// encoding fails.
pub fn chart_png(ratings: &[f64]) -> Result<Vec<u8>, RenderError> {
    svg_to_png(&chart_svg(ratings), CHART_WIDTH, CHART_HEIGHT, "chart")
}

/// Rasterises the picture `doc` (`width` × `height` pixels, on white) and encodes it as PNG;
/// `what` names it in errors. Shared by the charts of this folder.
///
/// # Errors
/// [`RenderError::Artwork`] if the SVG does not parse or the PNG cannot be encoded.
pub(super) fn svg_to_png(
    doc: &str,
    width: u32,
    height: u32,
    what: &str,
) -> Result<Vec<u8>, RenderError> {
    let tree = resvg::usvg::Tree::from_str(doc, &resvg::usvg::Options::default())
        .map_err(|e| RenderError::Artwork(e.to_string()))?;
    let mut pixmap =
        Pixmap::new(width, height).ok_or_else(|| RenderError::Artwork(format!("empty {what}")))?;
    pixmap.fill(Color::WHITE);
    resvg::render(&tree, Transform::identity(), &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|e| RenderError::Artwork(format!("cannot encode the {what}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_steps_fit() {
        assert_eq!(grid_step(100.0), 25.0);
        assert_eq!(grid_step(600.0), 100.0);
        assert_eq!(grid_step(1e9), 2000.0);
    }

    #[test]
    fn numbers_are_drawn_digit_by_digit() {
        let mut out = String::new();
        number(&mut out, 1509, 100.0, 0.0, true);
        assert_eq!(out.matches("<path").count(), 4);
        assert!(out.contains(ZERO) && out.contains(NINE) && out.contains(RANKS[4]));
    }
}
