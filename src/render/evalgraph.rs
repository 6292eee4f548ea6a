//! The eval graph of an analysed game (issue 23): White's winning chances after each ply, as
//! PNG bytes, with the judged moves marked.
//!
//! The curve is lichess's: White's win% (0–100, from the engine's eval by the lichess
//! formula, computed by the caller) after each ply, the area under it light (White's share)
//! and above it dark (Black's); a line at 50%. A move judged an inaccuracy, mistake or blunder
//! gets a dot on the curve (yellow, orange, red); the start of each count (board's or pieces'
//! honour) is a blue dashed line at its position. The ply axis is labelled at its ends with
//! the board's stroke digits (as the rating chart), so no font is needed.
//!
//! CPU-bound (about a millisecond): from async code call it inside
//! `tokio::task::spawn_blocking`.

use std::fmt::Write as _;

use super::chart::{number, svg_to_png};
use super::RenderError;

/// Width of the graph, in pixels.
pub const GRAPH_WIDTH: u32 = 640;
/// Height of the graph, in pixels.
pub const GRAPH_HEIGHT: u32 = 240;

const LEFT: f32 = 12.0;
const RIGHT: f32 = 12.0;
const TOP: f32 = 12.0;
const BOTTOM: f32 = 30.0;

/// How a move was judged, for its mark on the graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// `?!`
    Inaccuracy,
    /// `?`
    Mistake,
    /// `??`
    Blunder,
}

impl Mark {
    fn colour(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "#e5b800",
            Mark::Mistake => "#e07b12",
            Mark::Blunder => "#d12b2b",
        }
    }
}

/// One point of the graph: the position after a ply.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GraphPoint {
    /// White's winning chances after the ply, 0–100 (values outside are clamped, NaN is 50).
    pub white_win: f64,
    /// The judgement of the ply that led here, if any.
    pub mark: Option<Mark>,
}

/// The colour of a count's start.
const COUNT_COLOUR: &str = "#3d7cc9";

/// The graph's SVG: `start_win` (White's win% in the start position) then one point per ply;
/// `count_starts` are the positions (after that many plies, 0..=`points.len()`) where a count
/// started (larger ones are ignored).
#[must_use]
pub fn eval_graph_svg(start_win: f64, points: &[GraphPoint], count_starts: &[usize]) -> String {
    let (w, h) = (GRAPH_WIDTH as f32, GRAPH_HEIGHT as f32);
    let (pw, ph) = (w - LEFT - RIGHT, h - TOP - BOTTOM);
    let n = points.len();
    let x_of = |i: usize| LEFT + pw * i as f32 / n.max(1) as f32;
    let y_of = |win: f64| {
        let win = if win.is_nan() {
            50.0
        } else {
            win.clamp(0.0, 100.0)
        };
        TOP + ((100.0 - win) / 100.0) as f32 * ph
    };
    let mut out = String::with_capacity(2048 + 32 * n);
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}"><rect width="{w}" height="{h}" fill="#fbf8f0"/><rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}" fill="#3b3329"/>"##
    );
    // White's area: from the bottom up to the curve.
    let bottom = TOP + ph;
    let _ = write!(out, r##"<path fill="#efe6d2" d="M{LEFT},{bottom:.1}"##);
    let _ = write!(out, "L{LEFT},{:.1}", y_of(start_win));
    for (i, p) in points.iter().enumerate() {
        let _ = write!(out, "L{:.1},{:.1}", x_of(i + 1), y_of(p.white_win));
    }
    let _ = write!(out, r#"L{:.1},{bottom:.1}Z"/>"#, x_of(n));
    let mid = y_of(50.0);
    let _ = write!(
        out,
        r##"<path d="M{LEFT},{mid:.1}H{:.1}" stroke="#9b8c74" stroke-width="1" stroke-dasharray="4 3"/>"##,
        w - RIGHT
    );
    for &i in count_starts.iter().filter(|&&i| i <= n) {
        let x = x_of(i);
        let _ = write!(
            out,
            r##"<path d="M{x:.1},{TOP}V{bottom:.1}" stroke="{COUNT_COLOUR}" stroke-width="2" stroke-dasharray="5 3"/><path d="M{:.1},{bottom:.1}h8l-4,6Z" fill="{COUNT_COLOUR}"/>"##,
            x - 4.0
        );
    }
    for (i, p) in points.iter().enumerate() {
        if let Some(mark) = p.mark {
            let _ = write!(
                out,
                r##"<circle cx="{:.1}" cy="{:.1}" r="4" fill="{}" stroke="#fbf8f0" stroke-width="1.2"/>"##,
                x_of(i + 1),
                y_of(p.white_win),
                mark.colour()
            );
        }
    }
    out.push_str(r##"<g fill="none" stroke="#5a4a36" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round">"##);
    let label_top = h - BOTTOM + 8.0;
    number(&mut out, 0, LEFT, label_top, false);
    if n > 0 {
        number(&mut out, n as u64, w - RIGHT, label_top, true);
    }
    out.push_str("</g></svg>");
    out
}

/// The graph (see [`eval_graph_svg`]) as an RGBA PNG of [`GRAPH_WIDTH`] × [`GRAPH_HEIGHT`]
/// pixels.
///
/// # Errors
/// [`RenderError::Artwork`] if the SVG does not parse (a bug) or the PNG cannot be encoded.
pub fn eval_graph_png(
    start_win: f64,
    points: &[GraphPoint],
    count_starts: &[usize],
) -> Result<Vec<u8>, RenderError> {
    svg_to_png(
        &eval_graph_svg(start_win, points, count_starts),
        GRAPH_WIDTH,
        GRAPH_HEIGHT,
        "graph",
    )
}
