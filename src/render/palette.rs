//! One fixed 255-colour palette for the board pictures, built once, and the fast mapping of an
//! RGB [`Picture`] to palette indices (for the animated GIF).
//!
//! Built from sample boards drawn by the fast path (both themes, both colours' pieces and
//! Bia-ngai, last-move and check marks): their most frequent colours (the flat board, squares,
//! grid, coordinates, the pieces' flat fills) enter the palette exactly, NeuQuant (`color_quant`)
//! picks the rest for the pieces' gradients and antialiased edges. A 6-bit-per-channel lookup
//! table maps any colour to its nearest entry, with the exact colours mapped to themselves.
//! Index [`TRANSPARENT`] is left free: GIF frames use it for "unchanged".

use std::collections::HashMap;
use std::sync::LazyLock;

use makruk::{Color, Piece, Role, Square};

use super::raster::{render_picture, Picture};
use super::{Placement, RenderError, RenderOptions, Theme};

/// Colours in the palette (index 255 is [`TRANSPARENT`]).
const COLOURS: usize = 255;
/// Index that no colour uses: "keep the pixel of the previous frame" in GIF frames.
pub(crate) const TRANSPARENT: u8 = 255;
/// How many of the most frequent sample colours enter the palette exactly.
const EXACT: usize = 64;

/// The palette and its lookup table.
pub(crate) struct Palette {
    /// 256 × R G B (entry 255, transparent, is black).
    pub rgb: Vec<u8>,
    /// Palette index by `r >> 2, g >> 2, b >> 2` (18 bits).
    lut: Vec<u8>,
}

static PALETTE: LazyLock<Result<Palette, String>> =
    LazyLock::new(|| build().map_err(|e| e.to_string()));

/// The palette, built on first use (about 0.1 s).
///
/// # Errors
/// [`RenderError::Artwork`] if the sample boards cannot be drawn (a bug).
pub(crate) fn palette() -> Result<&'static Palette, RenderError> {
    PALETTE
        .as_ref()
        .map_err(|e| RenderError::Artwork(e.clone()))
}

fn bucket(r: u8, g: u8, b: u8) -> usize {
    (usize::from(r >> 2) << 12) | (usize::from(g >> 2) << 6) | usize::from(b >> 2)
}

impl Palette {
    /// The palette index of every pixel of `picture`, row-major.
    pub(crate) fn indices(&self, picture: &Picture) -> Vec<u8> {
        self.indices_of_rgb(&picture.rgb)
    }

    /// The palette index of every pixel of `rgb` (R G B per pixel), in order.
    pub(crate) fn indices_of_rgb(&self, rgb: &[u8]) -> Vec<u8> {
        rgb.chunks_exact(3)
            .map(|p| self.lut[bucket(p[0], p[1], p[2])])
            .collect()
    }

    /// The colour of palette entry `i`.
    #[cfg(test)]
    pub(crate) fn colour(&self, i: u8) -> [u8; 3] {
        let i = 3 * usize::from(i);
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }
}

/// Sample boards: every piece kind of both colours on both themes and orientations, with the
/// last-move wash on light and dark squares and the check glow.
fn samples() -> Result<Vec<Picture>, RenderError> {
    let start = super::placement(makruk::Position::new().board());
    let mut promoted = start;
    let sq = |s: &str| s.parse::<Square>().ok();
    for (s, piece) in [
        ("d4", Piece::bia_ngai(Color::White)),
        ("e5", Piece::bia_ngai(Color::Black)),
        ("c5", Piece::new(Color::White, Role::Ma)),
        ("f4", Piece::new(Color::Black, Role::Ruea)),
    ] {
        if let Some(s) = sq(s) {
            promoted[s.index()] = Some(piece);
        }
    }
    let mut out = Vec::new();
    for theme in Theme::ALL {
        for (orientation, placement, check, last) in [
            (Color::White, &start, "e1", ("d3", "d4")),
            (Color::Black, &promoted, "d8", ("e6", "e5")),
        ] {
            let options = RenderOptions {
                orientation,
                last_move: sq(last.0).zip(sq(last.1)),
                check: sq(check),
                theme,
                size: 512,
            };
            out.push(render_picture(placement as &Placement, &options)?);
        }
    }
    Ok(out)
}

fn build() -> Result<Palette, RenderError> {
    let samples = samples()?;
    let mut counts: HashMap<[u8; 3], u32> = HashMap::new();
    for s in &samples {
        for p in s.rgb.chunks_exact(3) {
            *counts.entry([p[0], p[1], p[2]]).or_default() += 1;
        }
    }
    let mut frequent: Vec<([u8; 3], u32)> = counts.into_iter().collect();
    frequent.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let exact: Vec<[u8; 3]> = frequent.iter().take(EXACT).map(|(c, _)| *c).collect();

    // NeuQuant learns the other colours from the pixels the exact ones do not cover.
    let mut rest = Vec::new();
    for s in &samples {
        for p in s.rgb.chunks_exact(3) {
            if !exact.iter().any(|c| c == p) {
                rest.extend_from_slice(&[p[0], p[1], p[2], 255]);
            }
        }
    }
    let mut entries = exact.clone();
    if !rest.is_empty() {
        let nq = color_quant::NeuQuant::new(10, COLOURS - exact.len(), &rest);
        entries.extend(
            nq.color_map_rgb()
                .chunks_exact(3)
                .map(|c| [c[0], c[1], c[2]]),
        );
    }
    entries.truncate(COLOURS);

    let nearest = |r: i32, g: i32, b: i32| -> u8 {
        let mut best = (i32::MAX, 0u8);
        for (i, c) in entries.iter().enumerate() {
            let (dr, dg, db) = (
                r - i32::from(c[0]),
                g - i32::from(c[1]),
                b - i32::from(c[2]),
            );
            // Weighted like the eye (green most, blue least).
            let d = 3 * dr * dr + 4 * dg * dg + 2 * db * db;
            if d < best.0 {
                best = (d, u8::try_from(i).unwrap_or(0));
            }
        }
        best.1
    };
    let mut lut = vec![0u8; 1 << 18];
    for (i, slot) in lut.iter_mut().enumerate() {
        let centre = |shift: usize| (((i >> shift) & 63) as i32) * 4 + 2;
        *slot = nearest(centre(12), centre(6), centre(0));
    }
    // The flat colours of the board map to themselves, never to a neighbour.
    for (i, c) in exact.iter().enumerate() {
        lut[bucket(c[0], c[1], c[2])] = u8::try_from(i).unwrap_or(0);
    }
    let mut rgb: Vec<u8> = entries.iter().flatten().copied().collect();
    rgb.resize(256 * 3, 0);
    Ok(Palette { rgb, lut })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_colours_are_exact_and_nothing_maps_to_transparent() {
        let palette = palette().expect("palette");
        for sample in samples().expect("samples") {
            let indices = palette.indices(&sample);
            assert!(!indices.contains(&TRANSPARENT));
            let (mut total, mut far) = (0u64, 0usize);
            for (p, &i) in sample.rgb.chunks_exact(3).zip(&indices) {
                let c = palette.colour(i);
                let d = (0..3).map(|k| p[k].abs_diff(c[k])).max().unwrap_or(0);
                total += u64::from(d);
                far += usize::from(d > 16);
            }
            // Only a few antialiased edge pixels move visibly.
            let n = indices.len();
            assert!(
                total < n as u64,
                "mean error {} levels",
                total as f64 / n as f64
            );
            assert!(
                far * 1000 < n,
                "{far} of {n} pixels off by more than 16 levels"
            );
            // The corner (frame) and an empty square's middle (a5 or h4) are flat colours: exact.
            for (x, y) in [(0, 0), (52, 226)] {
                let i = 3 * (y * sample.size as usize + x);
                let px = [sample.rgb[i], sample.rgb[i + 1], sample.rgb[i + 2]];
                assert_eq!(palette.colour(indices[i / 3]), px, "({x}, {y})");
            }
        }
    }
}
