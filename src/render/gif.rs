//! A whole game as an animated GIF: one frame for the start position, then one per ply with the
//! last move marked (and a checked Khun), [`FRAME_DELAY_CS`] each and [`LAST_FRAME_DELAY_CS`] on
//! the final position; it loops.
//!
//! The frames are drawn by the fast path ([`super::render_picture`]) and mapped to the one fixed
//! palette of [`super::palette`] (the GIF's global colour table). After the first, a frame holds
//! only the rectangle that changed since the previous one, its unchanged pixels transparent, so
//! a ply costs a few hundred bytes (lila-gif's approach). CPU-bound: call it inside
//! `tokio::task::spawn_blocking` from async code.

use std::borrow::Cow;

use makruk::{Color, Game};

use super::palette::{palette, TRANSPARENT};
use super::raster::render_picture;
use super::{placement, position_options, RenderError, RenderOptions, Theme};

/// How long each position is shown, in hundredths of a second.
pub const FRAME_DELAY_CS: u16 = 100;
/// How long the final position is shown before the loop starts again, in hundredths of a second.
pub const LAST_FRAME_DELAY_CS: u16 = 300;

/// The animated GIF of `game`: `game.moves().len() + 1` frames, `size` × `size` pixels, seen with
/// `orientation` at the bottom.
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
    let side = u16::try_from(size).map_err(|_| RenderError::Size(size))?;
    let mut out = Vec::new();
    let mut encoder = ::gif::Encoder::new(&mut out, side, side, &palette.rgb)?;
    encoder.set_repeat(::gif::Repeat::Infinite)?;
    let positions = game.positions();
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
        let picture = render_picture(
            &placement(position.board()),
            &position_options(position, &base),
        )?;
        let indices = palette.indices(&picture);
        let delay = if ply + 1 == positions.len() {
            LAST_FRAME_DELAY_CS
        } else {
            FRAME_DELAY_CS
        };
        let frame = match &previous {
            None => ::gif::Frame {
                width: side,
                height: side,
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

/// The frame that turns `before` into `after` (both `side` × `side` indices): the bounding
/// rectangle of the changed pixels, unchanged ones inside it [`TRANSPARENT`]; one transparent
/// pixel if nothing changed.
fn changed(before: &[u8], after: &[u8], side: u16, delay: u16) -> ::gif::Frame<'static> {
    let w = usize::from(side);
    let (mut left, mut top, mut right, mut bottom) = (w, w, 0, 0);
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
    // Coordinates fit: they are below `side`, a u16.
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
    }
}
