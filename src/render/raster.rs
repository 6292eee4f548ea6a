//! Rasterising (resvg), sprite and board caches, compositing (tiny-skia) and PNG encoding.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use makruk::{Color, Square};
use tiny_skia::{Pixmap, Transform};

use super::svg::{self, Rect, LAST_MOVE_EDGE_RGB, LAST_MOVE_RGBA};
use super::{Kind, Layout, Placement, RenderError, RenderOptions, Theme, PIECE_SVG};

/// The piece artwork, parsed once: `[colour][kind]`.
type Trees = [[resvg::usvg::Tree; Kind::COUNT]; 2];

static TREES: LazyLock<Result<Trees, String>> = LazyLock::new(|| {
    let options = resvg::usvg::Options::default();
    let parse = |doc: &str| resvg::usvg::Tree::from_str(doc, &options).map_err(|e| e.to_string());
    let mut sides = Vec::with_capacity(2);
    for docs in &PIECE_SVG {
        let trees: Vec<resvg::usvg::Tree> =
            docs.iter().map(|d| parse(d)).collect::<Result<_, _>>()?;
        sides.push(
            <[resvg::usvg::Tree; Kind::COUNT]>::try_from(trees)
                .map_err(|_| "piece count".to_owned())?,
        );
    }
    <[_; 2]>::try_from(sides).map_err(|_| "side count".to_owned())
});

/// Piece sprites and the check mark (glow and ring), rasterised for one square size.
struct Sprites {
    pieces: [[Pixmap; Kind::COUNT]; 2],
    check: Pixmap,
}

/// Caches keyed by what determines their pixels. A bot uses one or two sizes; the maps are
/// emptied if they ever grow past a few entries so odd sizes cannot use unbounded memory.
static SPRITES: LazyLock<Mutex<HashMap<u32, Arc<Sprites>>>> = LazyLock::new(Default::default);
static BOARDS: LazyLock<Mutex<HashMap<BoardKey, Arc<Picture>>>> = LazyLock::new(Default::default);
/// An empty board's pixels depend on the theme, the orientation (coordinates) and the size.
type BoardKey = (Theme, Color, u32);
const CACHE_LIMIT: usize = 8;

fn trees() -> Result<&'static Trees, RenderError> {
    TREES.as_ref().map_err(|e| RenderError::Artwork(e.clone()))
}

fn new_pixmap(w: u32, h: u32) -> Result<Pixmap, RenderError> {
    Pixmap::new(w, h).ok_or_else(|| RenderError::Artwork(format!("cannot allocate {w}×{h} px")))
}

fn rasterise(tree: &resvg::usvg::Tree, side: u32) -> Result<Pixmap, RenderError> {
    let mut pixmap = new_pixmap(side, side)?;
    let scale = side as f32 / tree.size().width();
    resvg::render(
        tree,
        Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

fn parse(doc: &str) -> Result<resvg::usvg::Tree, RenderError> {
    resvg::usvg::Tree::from_str(doc, &resvg::usvg::Options::default())
        .map_err(|e| RenderError::Artwork(e.to_string()))
}

fn sprites(square: u32) -> Result<Arc<Sprites>, RenderError> {
    if let Some(s) = lock(&SPRITES).get(&square) {
        return Ok(Arc::clone(s));
    }
    let trees = trees()?;
    let mut sides = Vec::with_capacity(2);
    for side in trees {
        let pixmaps: Vec<Pixmap> = side
            .iter()
            .map(|t| rasterise(t, square))
            .collect::<Result<_, _>>()?;
        sides.push(
            <[Pixmap; Kind::COUNT]>::try_from(pixmaps)
                .map_err(|_| RenderError::Artwork("piece count".into()))?,
        );
    }
    let pieces = <[_; 2]>::try_from(sides).map_err(|_| RenderError::Artwork("sides".into()))?;
    let check = rasterise(&parse(&svg::check_glow_document())?, square)?;
    let sprites = Arc::new(Sprites { pieces, check });
    let mut cache = lock(&SPRITES);
    if cache.len() >= CACHE_LIMIT {
        cache.clear();
    }
    cache.insert(square, Arc::clone(&sprites));
    Ok(sprites)
}

fn empty_board(layout: &Layout, theme: Theme) -> Result<Arc<Picture>, RenderError> {
    let key = (theme, layout.orientation, layout.size);
    if let Some(b) = lock(&BOARDS).get(&key) {
        return Ok(Arc::clone(b));
    }
    let tree = parse(&svg::background_svg(layout, theme))?;
    let mut pixmap = new_pixmap(layout.size, layout.size)?;
    resvg::render(&tree, Transform::identity(), &mut pixmap.as_mut());
    let board = Arc::new(Picture::from_pixmap(&pixmap));
    let mut cache = lock(&BOARDS);
    if cache.len() >= CACHE_LIMIT {
        cache.clear();
    }
    cache.insert(key, Arc::clone(&board));
    Ok(board)
}

/// A poisoned cache only means another render panicked mid-insert; the map is still usable.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// An opaque picture: 8-bit RGB, rows top to bottom, `size × size` pixels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// Width and height in pixels.
    pub size: u32,
    /// `3 · size · size` bytes, R G B per pixel, row-major from the top-left corner.
    pub rgb: Vec<u8>,
}

impl Picture {
    /// The colour `[r, g, b]` at pixel (`x`, `y`), or `None` outside the picture.
    #[must_use]
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 3]> {
        if x >= self.size || y >= self.size {
            return None;
        }
        let i = 3 * (y as usize * self.size as usize + x as usize);
        self.rgb.get(i..i + 3).and_then(|p| p.try_into().ok())
    }

    fn from_pixmap(pixmap: &Pixmap) -> Picture {
        // Every pixel of the board is opaque, so premultiplied colour = straight colour.
        let rgb = pixmap
            .data()
            .chunks_exact(4)
            .flat_map(|px| [px[0], px[1], px[2]])
            .collect();
        Picture {
            size: pixmap.width(),
            rgb,
        }
    }

    /// Source-over of a premultiplied RGBA sprite with its top-left corner at (`x`, `y`).
    fn blend(&mut self, x: u32, y: u32, sprite: &Pixmap) {
        let size = self.size as usize;
        let w = sprite.width() as usize;
        let (x, y) = (x as usize, y as usize);
        if x + w > size {
            return;
        }
        for (row, src) in sprite.data().chunks_exact(4 * w).enumerate() {
            let Some(dst) = self
                .rgb
                .get_mut(3 * ((y + row) * size + x)..3 * ((y + row) * size + x + w))
            else {
                return;
            };
            for (d, s) in dst.chunks_exact_mut(3).zip(src.chunks_exact(4)) {
                match s[3] {
                    0 => {}
                    255 => d.copy_from_slice(&s[..3]),
                    a => {
                        let keep = 255 - u32::from(a);
                        for c in 0..3 {
                            d[c] = s[c].saturating_add(div255(u32::from(d[c]) * keep));
                        }
                    }
                }
            }
        }
    }

    /// Source-over of one colour with alpha `a` on the rectangle `(x, y, w, h)`.
    fn wash(&mut self, (x, y, w, h): Rect, (r, g, b, a): (u8, u8, u8, u8)) {
        let size = self.size as usize;
        let keep = 255 - u32::from(a);
        let src = [r, g, b].map(|c| div255(u32::from(c) * u32::from(a)));
        for row in y as usize..(y + h) as usize {
            let from = 3 * (row * size + x as usize);
            let Some(dst) = self.rgb.get_mut(from..from + 3 * w as usize) else {
                return;
            };
            for d in dst.chunks_exact_mut(3) {
                for c in 0..3 {
                    d[c] = src[c].saturating_add(div255(u32::from(d[c]) * keep));
                }
            }
        }
    }
}

/// `x / 255` rounded, for `x <= 255 · 255`.
fn div255(x: u32) -> u8 {
    let x = x + 128;
    ((x + (x >> 8)) >> 8) as u8
}

/// Draws the position with the fast path: the cached empty board, then the highlights, then
/// the cached piece sprites.
///
/// CPU-bound: call from `spawn_blocking` in async code.
///
/// # Errors
/// [`RenderError::Size`] if `options.size` is out of range; [`RenderError::Artwork`] if the
/// built-in artwork is broken (a bug).
pub fn render_picture(
    placement: &Placement,
    options: &RenderOptions,
) -> Result<Picture, RenderError> {
    let layout = Layout::new(options.size, options.orientation)?;
    let board = empty_board(&layout, options.theme)?;
    let sprites = sprites(layout.square)?;
    let mut picture = (*board).clone();

    if let Some((from, to)) = options.last_move {
        let (r, g, b) = LAST_MOVE_EDGE_RGB;
        for s in [from, to] {
            let (inside, edges) = svg::last_move_rects(&layout, options.theme, s);
            picture.wash(inside, LAST_MOVE_RGBA);
            for edge in edges {
                picture.wash(edge, (r, g, b, 255));
            }
        }
    }
    if let Some(s) = options.check {
        let (x, y) = layout.square_origin(s);
        picture.blend(x, y, &sprites.check);
    }
    for (i, p) in placement.iter().enumerate() {
        if let (Some(p), Some(s)) = (p, u8::try_from(i).ok().and_then(Square::new)) {
            let (x, y) = layout.square_origin(s);
            picture.blend(x, y, &sprites.pieces[p.color.index()][Kind::of(*p).0]);
        }
    }
    Ok(picture)
}

/// Draws the position as PNG bytes (8-bit RGB), with the fast path ([`render_picture`]).
///
/// CPU-bound (about 1 ms at 512 px once warm; the first call for a size also rasterises the
/// sprites and the empty board): from async code call it inside
/// `tokio::task::spawn_blocking`.
///
/// # Errors
/// [`RenderError::Size`] if `options.size` is out of range; [`RenderError::Png`] if encoding
/// fails; [`RenderError::Artwork`] if the built-in artwork is broken (a bug).
pub fn render(placement: &Placement, options: &RenderOptions) -> Result<Vec<u8>, RenderError> {
    encode_png(&render_picture(placement, options)?)
}

/// Draws the position by rendering the whole-board SVG of [`super::board_svg`] with resvg and
/// encoding it like [`render`]. Slower; the reference the fast path is tested against.
///
/// # Errors
/// As [`render`].
pub fn render_via_svg(
    placement: &Placement,
    options: &RenderOptions,
) -> Result<Vec<u8>, RenderError> {
    let doc = super::board_svg(placement, options)?;
    let tree = parse(&doc)?;
    let mut pixmap = new_pixmap(options.size, options.size)?;
    resvg::render(&tree, Transform::identity(), &mut pixmap.as_mut());
    encode_png(&Picture::from_pixmap(&pixmap))
}

/// Draws the position with each side's pieces in hand beside the board (Sittuyin's placement):
/// the picture of [`super::svg::board_with_hands_svg`], `options.size` wide and
/// `options.size + 2 ×` [`super::svg::hand_strip`] high, rendered as one SVG through resvg
/// (the slower path of [`render_via_svg`]; only the placement's few plies need it).
///
/// CPU-bound: call from `spawn_blocking` in async code.
///
/// # Errors
/// As [`render`].
pub fn render_with_hands(
    placement: &Placement,
    options: &RenderOptions,
    hands: &super::svg::Hands,
) -> Result<Vec<u8>, RenderError> {
    let (height, rgb) = rgb_with_hands(placement, options, hands)?;
    encode_rgb(options.size, height, &rgb)
}

/// The pixels of [`render_with_hands`]'s picture before encoding: its height
/// (`options.size + 2 ×` [`super::svg::hand_strip`]) and `3 · options.size · height` bytes,
/// R G B per pixel, row-major from the top-left corner.
///
/// # Errors
/// As [`render`].
pub(crate) fn rgb_with_hands(
    placement: &Placement,
    options: &RenderOptions,
    hands: &super::svg::Hands,
) -> Result<(u32, Vec<u8>), RenderError> {
    let doc = super::svg::board_with_hands_svg(placement, options, hands)?;
    let tree = parse(&doc)?;
    let height = options.size + 2 * super::svg::hand_strip(options.size);
    let mut pixmap = new_pixmap(options.size, height)?;
    resvg::render(&tree, Transform::identity(), &mut pixmap.as_mut());
    // Every pixel is opaque (the frame colour under everything): premultiplied = straight.
    let rgb: Vec<u8> = pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|px| [px[0], px[1], px[2]])
        .collect();
    Ok((height, rgb))
}

/// A PNG of a typical middlegame stays under this many bytes (issue: at most 60 KB).
pub const PNG_BUDGET: usize = 60 * 1024;

/// Encodes a picture as an RGB PNG with the Paeth filter (best for the flat board and the
/// pieces' gradients), compressed by flate2 at its fastest level through png's stream writer.
/// flate2's backend is zlib-rs (Cargo.toml), not the default miniz_oxide (issue 28).
///
/// Measured on a 512 px middlegame (issue 28, `cargo bench --bench render` on a loaded 2-core
/// machine): render + encode 1.73 ms with miniz_oxide level 1 (48.4 KB), 0.81–0.93 ms (two runs)
/// with zlib-rs level 1 (51.2 KB; its level 1 is zlib-ng's `deflate_quick`); the compositing alone is
/// 0.15 ms. The encode alone, same input: miniz_oxide 1.66 ms, zlib-rs 0.72–0.86 ms; with zlib-rs
/// the Up and Sub filters or none are no faster (0.66–0.76 ms) and larger (54.6–59.1 KB; the
/// checkered theme's 58 KB unfiltered is too near [`PNG_BUDGET`]); zlib-rs's default level gives
/// 41 KB in 2.2–2.9 ms. Filtering the rows ourselves and deflating 64 KB strips in one IDAT saves
/// a further ~0.1–0.2 ms of the encode (png's stream writer deflates row by row) but was not
/// worth its code.
///
/// Earlier: png's `Compression::Fast` (fdeflate, only for `write_image_data`)
/// takes about 0.3 ms but gives ~69 KB, over [`PNG_BUDGET`], because it finds no repeated
/// pieces; miniz_oxide's default level takes ~5 ms for ~40 KB. An indexed PNG in the GIF's fixed
/// palette (`palette.rs`) was measured too (issue 14), on a loaded machine where this encoder
/// took 5.3 ms: miniz_oxide level 1 on the unfiltered indices gave 24 KB in 4.1 ms, fdeflate
/// 110 KB in 1.5 ms (over [`PNG_BUDGET`]). The picture looked the same side by side: the
/// board's flat colours exact, 10 % of the pixels (the pieces' gradients and edges) off by 0.24
/// levels on average, 0.04 % by more than 16 (at most 45). Lossy, and not under 1 ms: RGB stays.
fn encode_png(picture: &Picture) -> Result<Vec<u8>, RenderError> {
    encode_rgb(picture.size, picture.size, &picture.rgb)
}

/// [`encode_png`] of `rgb`, `width × height` pixels (3 bytes each, rows from the top).
fn encode_rgb(width: u32, height: u32, rgb: &[u8]) -> Result<Vec<u8>, RenderError> {
    let mut out = Vec::with_capacity(PNG_BUDGET);
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    encoder.set_filter(png::FilterType::Paeth);
    encoder.set_adaptive_filter(png::AdaptiveFilterType::NonAdaptive);
    let mut writer = encoder.write_header()?;
    let mut stream = writer.stream_writer()?;
    std::io::Write::write_all(&mut stream, rgb).map_err(png::EncodingError::from)?;
    stream.finish()?;
    writer.finish()?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn div255_rounds_like_the_exact_division() {
        for x in 0..=255 * 255 {
            let exact = (f64::from(x) / 255.0).round() as u8;
            assert_eq!(div255(x), exact, "{x}");
        }
    }

    #[test]
    fn blending_an_opaque_sprite_copies_it_and_a_transparent_one_changes_nothing() {
        let mut pic = Picture {
            size: 4,
            rgb: vec![100; 48],
        };
        let mut sprite = Pixmap::new(2, 2).expect("pixmap");
        sprite.fill(tiny_skia::Color::from_rgba8(10, 20, 30, 255));
        pic.blend(1, 1, &sprite);
        assert_eq!(pic.pixel(1, 1), Some([10, 20, 30]));
        assert_eq!(pic.pixel(2, 2), Some([10, 20, 30]));
        assert_eq!(pic.pixel(0, 0), Some([100, 100, 100]));
        assert_eq!(pic.pixel(3, 3), Some([100, 100, 100]));
        let clear = Pixmap::new(2, 2).expect("pixmap");
        pic.blend(0, 0, &clear);
        assert_eq!(pic.pixel(0, 0), Some([100, 100, 100]));
        // Half-transparent white over grey 100: about halfway to 255.
        let mut half = Pixmap::new(1, 1).expect("pixmap");
        half.fill(tiny_skia::Color::from_rgba8(255, 255, 255, 128));
        pic.blend(3, 0, &half);
        let [r, _, _] = pic.pixel(3, 0).expect("inside");
        assert!((175..=180).contains(&r), "{r}");
        // A sprite that would stick out of the picture is not drawn.
        pic.blend(3, 3, &sprite);
        assert_eq!(pic.pixel(3, 3), Some([100, 100, 100]));
    }
}
