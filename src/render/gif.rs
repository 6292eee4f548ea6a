//! A whole game as an animated GIF: one frame for the start position, then one per ply with the
//! last move marked (and a checked Khun), [`FRAME_DELAY_CS`] each and [`LAST_FRAME_DELAY_CS`] on
//! the final position; it loops.
//!
//! The frames are drawn by the fast path ([`super::render_picture`]) and mapped to the one fixed
//! palette of [`super::palette`] (the GIF's global colour table). After the first, a frame holds
//! only the rectangle that changed since the previous one, its unchanged pixels transparent, so
//! a ply costs a few hundred bytes (lila-gif's approach). CPU-bound: call it inside
//! `tokio::task::spawn_blocking` from async code.
//!
//! A game that starts with pieces in hand (Sittuyin's placement) is drawn taller, as
//! [`super::render_position`] draws it: each side's pieces in hand in a strip above and below
//! the board, through resvg while a side has any, and empty strips around the fast path's
//! board once both hands are empty.

use std::borrow::Cow;

use makruk::{Color, Game};

use super::palette::{palette, TRANSPARENT};
use super::raster::{render_picture, rgb_with_hands};
use super::svg::{hand_strip, Hands};
use super::{hands, placement, position_options, RenderError, RenderOptions, Theme};

/// How long each position is shown, in hundredths of a second.
pub const FRAME_DELAY_CS: u16 = 100;
/// How long the final position is shown before the loop starts again, in hundredths of a second.
pub const LAST_FRAME_DELAY_CS: u16 = 300;

/// The animated GIF of `game`: `game.moves().len() + 1` frames, `size` × `size` pixels (`size`
/// wide and `size + 2 ×` [`hand_strip`] high when the game starts with pieces in hand), seen
/// with `orientation` at the bottom.
///
/// # Errors
/// [`RenderError::Size`] if `size` is out of range; [`RenderError::Gif`] if encoding fails;
/// [`RenderError::Artwork`] if the built-in artwork is broken (a bug).
pub fn game_gif(
    game: &Game,
    orientation: Color,
    theme: Theme,
    size: u32,
) -> Result<Vec<u8>, RenderError> {
    let palette = palette()?;
    let positions = game.positions();
    let placing = positions.first().and_then(hands).is_some();
    let strip = if placing { hand_strip(size) } else { 0 };
    let side = u16::try_from(size).map_err(|_| RenderError::Size(size))?;
    let height = u16::try_from(size + 2 * strip).map_err(|_| RenderError::Size(size))?;
    let mut out = Vec::new();
    let mut encoder = ::gif::Encoder::new(&mut out, side, height, &palette.rgb)?;
    encoder.set_repeat(::gif::Repeat::Infinite)?;
    // After the placement: the picture with both hands empty, its board overdrawn each ply.
    let mut empty_hands: Option<Vec<u8>> = None;
    let mut previous: Option<Vec<u8>> = None;
    for (ply, position) in positions.iter().enumerate() {
        let base = RenderOptions {
            orientation,
            last_move: ply
                .checked_sub(1)
                .and_then(|i| game.moves().get(i))
                .map(|m| (m.from, m.to)),
            theme,
            size,
            check: None,
        };
        let options = position_options(position, &base);
        let board = placement(position.board());
        let indices = match (placing, hands(position)) {
            (false, _) => palette.indices(&render_picture(&board, &options)?),
            (true, Some(in_hand)) => {
                palette.indices_of_rgb(&rgb_with_hands(&board, &options, &in_hand)?.1)
            }
            (true, None) => {
                let mut rgb = match empty_hands.take() {
                    Some(rgb) => rgb,
                    None => rgb_with_hands(&board, &options, &Hands::default())?.1,
                };
                let picture = render_picture(&board, &options)?;
                let top = 3 * (size * strip) as usize;
                rgb[top..top + picture.rgb.len()].copy_from_slice(&picture.rgb);
                let indices = palette.indices_of_rgb(&rgb);
                empty_hands = Some(rgb);
                indices
            }
        };
        let delay = if ply + 1 == positions.len() {
            LAST_FRAME_DELAY_CS
        } else {
            FRAME_DELAY_CS
        };
        let frame = match &previous {
            None => ::gif::Frame {
                width: side,
                height,
                buffer: Cow::Borrowed(&indices),
                delay,
                ..::gif::Frame::default()
            },
            Some(before) => changed(before, &indices, side, delay),
        };
        encoder.write_frame(&frame)?;
        previous = Some(indices);
    }
    drop(encoder);
    Ok(out)
}

/// The frame that turns `before` into `after` (both rows of `side` indices, as many rows as
/// they hold): the bounding rectangle of the changed pixels, unchanged ones inside it
/// [`TRANSPARENT`]; one transparent pixel if nothing changed.
fn changed(before: &[u8], after: &[u8], side: u16, delay: u16) -> ::gif::Frame<'static> {
    let w = usize::from(side);
    let (mut left, mut top, mut right, mut bottom) = (w, usize::MAX, 0, 0);
    for (y, (b, a)) in before
        .chunks_exact(w)
        .zip(after.chunks_exact(w))
        .enumerate()
    {
        let Some(first) = b.iter().zip(a).position(|(p, q)| p != q) else {
            continue;
        };
        let last = w - 1 - b.iter().zip(a).rev().position(|(p, q)| p != q).unwrap_or(0);
        left = left.min(first);
        right = right.max(last);
        top = top.min(y);
        bottom = y;
    }
    let mut frame = ::gif::Frame {
        delay,
        transparent: Some(TRANSPARENT),
        ..::gif::Frame::default()
    };
    if left > right {
        frame.width = 1;
        frame.height = 1;
        frame.buffer = Cow::Owned(vec![TRANSPARENT]);
        return frame;
    }
    let mut buffer = Vec::with_capacity((right + 1 - left) * (bottom + 1 - top));
    for y in top..=bottom {
        let row = y * w;
        buffer.extend(
            before[row + left..=row + right]
                .iter()
                .zip(&after[row + left..=row + right])
                .map(|(p, q)| if p == q { TRANSPARENT } else { *q }),
        );
    }
    // Coordinates fit: they are below the picture's width or height, both u16.
    let fit = |v: usize| u16::try_from(v).unwrap_or(u16::MAX);
    frame.left = fit(left);
    frame.top = fit(top);
    frame.width = fit(right + 1 - left);
    frame.height = fit(bottom + 1 - top);
    frame.buffer = Cow::Owned(buffer);
    frame
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_rectangle_covers_exactly_the_changes() {
        let before = vec![1u8; 16];
        let mut after = before.clone();
        after[4 + 1] = 2; // (1, 1)
        after[2 * 4 + 2] = 3; // (2, 2)
        let f = changed(&before, &after, 4, 100);
        assert_eq!((f.left, f.top, f.width, f.height), (1, 1, 2, 2));
        assert_eq!(&*f.buffer, &[2, TRANSPARENT, TRANSPARENT, 3]);
        let same = changed(&before, &before, 4, 100);
        assert_eq!((same.width, same.height), (1, 1));
        assert_eq!(&*same.buffer, &[TRANSPARENT]);
        // Taller than wide: a change below the first `side` rows.
        let tall = vec![1u8; 4 * 6];
        let mut low = tall.clone();
        low[5 * 4 + 3] = 2; // (3, 5)
        let f = changed(&tall, &low, 4, 100);
        assert_eq!((f.left, f.top, f.width, f.height), (3, 5, 1, 1));
    }

    /// How many colours the top and the bottom strip of each frame of `bytes` show, after the
    /// frame is drawn over the ones before it: `(top, bottom)` per frame.
    fn strip_colours(bytes: &[u8], width: usize, strip: usize) -> Vec<(usize, usize)> {
        let mut options = ::gif::DecodeOptions::new();
        options.set_color_output(::gif::ColorOutput::Indexed);
        let mut decoder = options.read_info(bytes).expect("a GIF");
        let height = usize::from(decoder.height());
        assert_eq!(usize::from(decoder.width()), width);
        assert_eq!(height, width + 2 * strip);
        let mut canvas = vec![0u8; width * height];
        let mut out = Vec::new();
        while let Some(f) = decoder.read_next_frame().expect("a frame") {
            for (i, &p) in f.buffer.iter().enumerate() {
                if Some(p) != f.transparent {
                    let x = usize::from(f.left) + i % usize::from(f.width);
                    let y = usize::from(f.top) + i / usize::from(f.width);
                    canvas[y * width + x] = p;
                }
            }
            let colours = |rows: std::ops::Range<usize>| {
                canvas[rows.start * width..rows.end * width]
                    .iter()
                    .collect::<std::collections::HashSet<_>>()
                    .len()
            };
            out.push((colours(0..strip), colours(height - strip..height)));
        }
        out
    }

    #[test]
    fn a_placement_shows_the_pieces_in_hand_then_empty_strips() {
        use makruk::{Position, Ruleset, Variant};
        let start = Position::start_variant(Variant::Sittuyin, Ruleset::Standard);
        let mut game = Game::from_position(start);
        let first = |g: &Game| g.position().legal_moves()[0];
        while super::super::hands(game.position()).is_some() {
            game.play(&first(&game)).expect("legal");
        }
        let placed = game.moves().len();
        assert!(placed > 2, "{placed} plies of placement");
        for _ in 0..2 {
            game.play(&first(&game)).expect("legal");
        }
        let size = 256;
        let bytes = game_gif(&game, Color::White, Theme::Plain, size).expect("a GIF");
        let strips = strip_colours(&bytes, size as usize, hand_strip(size) as usize);
        assert_eq!(strips.len(), game.moves().len() + 1);
        // Both sides start with pieces in hand: drawn in both strips.
        assert!(strips[0].0 > 1 && strips[0].1 > 1, "{:?}", strips[0]);
        // Once both hands are empty, both strips are one flat colour.
        assert!(
            strips[placed..].iter().all(|&s| s == (1, 1)),
            "{:?}",
            &strips[placed..]
        );
        // A Makruk game keeps its square picture.
        let mut makruk = Game::new(Ruleset::Standard);
        makruk.play(&first(&makruk)).expect("legal");
        let bytes = game_gif(&makruk, Color::White, Theme::Plain, size).expect("a GIF");
        let decoder = ::gif::DecodeOptions::new()
            .read_info(bytes.as_slice())
            .expect("a GIF");
        assert_eq!((decoder.width(), decoder.height()), (256, 256));
    }
}
