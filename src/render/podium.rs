//! The podium of a finished tournament: three steps (gold in the middle, silver on the left,
//! bronze on the right) with the place on each and the score above it, as PNG bytes. Numbers are
//! drawn with the board's stroke font (as the rating chart's): no font file is needed, so the
//! players' names go in the message beside the picture.
//!
//! CPU-bound (well under a millisecond): from async code call it inside
//! `tokio::task::spawn_blocking`.

use std::fmt::Write as _;

use super::chart::{number, svg_to_png};
use super::svg::GLYPH_WIDTH;
use super::RenderError;

/// Width of the picture, in pixels.
pub const PODIUM_WIDTH: u32 = 480;
/// Height of the picture, in pixels.
pub const PODIUM_HEIGHT: u32 = 300;

/// A score shown above a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// In half points (a Swiss or round-robin score: `5` is 2½).
    HalfPoints(u32),
    /// In whole points (an arena's).
    Points(u32),
}

/// One step: its left edge, top, colour.
struct Step {
    x: f32,
    top: f32,
    fill: &'static str,
}

/// The steps of places 1, 2 and 3.
const STEPS: [Step; 3] = [
    Step {
        x: 175.0,
        top: 110.0,
        fill: "#d4af37",
    },
    Step {
        x: 40.0,
        top: 160.0,
        fill: "#b8bcc4",
    },
    Step {
        x: 310.0,
        top: 200.0,
        fill: "#c0793c",
    },
];
/// Width of a step, and the floor's height, in pixels.
const STEP_WIDTH: f32 = 130.0;
const FLOOR: f32 = 280.0;
/// The stroke font's glyph height (10 units) times the scale number() draws at (1.3).
const GLYPH_PX: f32 = 13.0;

/// Writes `n` centred at `cx`, its top at `top`, `scale` times the chart's size.
fn centred_number(out: &mut String, n: u64, cx: f32, top: f32, scale: f32) {
    let digits = n.to_string().len() as f32;
    let width = ((GLYPH_WIDTH + 2.5) * digits - 2.5) * 1.3 * scale;
    let _ = write!(
        out,
        r#"<g transform="translate({:.2},{top:.2}) scale({scale})">"#,
        cx - width / 2.0
    );
    number(out, n, 0.0, 0.0, false);
    out.push_str("</g>");
}

/// Writes `score` centred at `cx`, its top at `top`: the whole points, then a small ½ for a
/// half point (a `1` over a `2`, with a slash).
fn score(out: &mut String, s: Score, cx: f32, top: f32) {
    let (whole, half) = match s {
        Score::HalfPoints(h) => (h / 2, h % 2 == 1),
        Score::Points(p) => (p, false),
    };
    let scale = 2.0;
    if !half {
        centred_number(out, u64::from(whole), cx, top, scale);
        return;
    }
    // The half sits right of the whole number (or alone for ½).
    let half_w = GLYPH_WIDTH * 1.3 * 2.0 + 4.0;
    let whole_w = if whole > 0 {
        ((GLYPH_WIDTH + 2.5) * whole.to_string().len() as f32) * 1.3 * scale
    } else {
        0.0
    };
    let left = cx - (whole_w + half_w) / 2.0;
    if whole > 0 {
        centred_number(out, u64::from(whole), left + whole_w / 2.0, top, scale);
    }
    let hx = left + whole_w;
    centred_number(out, 1, hx + 5.0, top - 2.0, 1.1);
    let _ = write!(
        out,
        r#"<path d="M{:.1},{:.1}L{:.1},{:.1}"/>"#,
        hx + half_w - 4.0,
        top - 2.0,
        hx + 2.0,
        top + GLYPH_PX * scale
    );
    centred_number(out, 2, hx + half_w - 5.0, top + GLYPH_PX * 0.9, 1.1);
}

/// The podium's SVG: `scores` first place first (one to three are drawn; more are ignored).
#[must_use]
pub fn podium_svg(scores: &[Score]) -> String {
    let (w, h) = (PODIUM_WIDTH as f32, PODIUM_HEIGHT as f32);
    let mut out = String::with_capacity(4096);
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}"><rect width="{w}" height="{h}" fill="#fbf8f0"/><path d="M20,{FLOOR}H{:.0}" stroke="#5a4a36" stroke-width="3"/>"##,
        w - 20.0
    );
    for (i, (step, s)) in STEPS.iter().zip(scores).enumerate() {
        let _ = write!(
            out,
            r##"<rect x="{}" y="{}" width="{STEP_WIDTH}" height="{:.0}" rx="4" fill="{}" stroke="#5a4a36" stroke-width="2"/>"##,
            step.x,
            step.top,
            FLOOR - step.top,
            step.fill
        );
        let cx = step.x + STEP_WIDTH / 2.0;
        // The place, large, on the step.
        out.push_str(r##"<g fill="none" stroke="#fbf8f0" stroke-width="1.4" stroke-linecap="round" stroke-linejoin="round">"##);
        centred_number(&mut out, (i + 1) as u64, cx, step.top + 18.0, 3.5);
        out.push_str("</g>");
        // The score above it.
        out.push_str(r##"<g fill="none" stroke="#5a4a36" stroke-width="1.4" stroke-linecap="round" stroke-linejoin="round">"##);
        score(&mut out, *s, cx, step.top - 40.0);
        out.push_str("</g>");
    }
    out.push_str("</svg>");
    out
}

/// The podium of `scores` (see [`podium_svg`]) as an RGBA PNG of [`PODIUM_WIDTH`] ×
/// [`PODIUM_HEIGHT`] pixels.
///
/// # Errors
/// [`RenderError::Artwork`] if the SVG does not parse (a bug) or the PNG cannot be encoded.
pub fn podium_png(scores: &[Score]) -> Result<Vec<u8>, RenderError> {
    svg_to_png(&podium_svg(scores), PODIUM_WIDTH, PODIUM_HEIGHT, "podium")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_step_per_place_up_to_three() {
        let three = podium_svg(&[Score::HalfPoints(9), Score::HalfPoints(8), Score::Points(3)]);
        assert_eq!(three.matches("<rect x=").count(), 3);
        for colour in ["#d4af37", "#b8bcc4", "#c0793c"] {
            assert!(three.contains(colour), "{colour}");
        }
        let one = podium_svg(&[Score::Points(12)]);
        assert_eq!(one.matches("<rect x=").count(), 1);
        assert!(one.contains("#d4af37") && !one.contains("#b8bcc4"));
        let many = podium_svg(&[Score::Points(1); 5]);
        assert_eq!(many.matches("<rect x=").count(), 3);
    }

    #[test]
    fn a_half_point_is_drawn_as_a_small_half() {
        let mut whole = String::new();
        score(&mut whole, Score::HalfPoints(8), 100.0, 0.0);
        let mut half = String::new();
        score(&mut half, Score::HalfPoints(9), 100.0, 0.0);
        // 4 is one digit; 4½ adds a 1, a slash and a 2.
        assert_eq!(whole.matches("<path").count(), 1);
        assert_eq!(half.matches("<path").count(), 4);
    }

    #[test]
    fn the_picture_is_a_png_of_its_size() {
        let png = podium_png(&[Score::HalfPoints(9), Score::HalfPoints(7)]).expect("png");
        let decoder = png::Decoder::new(std::io::Cursor::new(png));
        let reader = decoder.read_info().expect("a png");
        assert_eq!(
            (reader.info().width, reader.info().height),
            (PODIUM_WIDTH, PODIUM_HEIGHT)
        );
    }
}
