//! The board picture of a reply: from the side to move, last move and check highlighted,
//! rendered on the blocking pool (CPU-bound).
//!
//! TEMPORARY: until the renderer and the rules crate's `Position` land, this draws a blank
//! placeholder PNG so the adapter and its tests can be built.

use anyhow::Context as _;

use crate::game::Reply;

/// PNG bytes of the reply's position, seen from the side to move.
///
/// # Errors
/// When rendering fails (a bug) or the blocking task is lost.
pub(crate) async fn png(reply: &Reply) -> anyhow::Result<Vec<u8>> {
    let _ = reply;
    tokio::task::spawn_blocking(placeholder)
        .await
        .context("the render task was lost")?
}

fn placeholder() -> anyhow::Result<Vec<u8>> {
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, 8, 8);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header()?;
        writer.write_image_data(&[200u8; 8 * 8 * 3])?;
    }
    Ok(out)
}
