//! Rasterising (resvg), sprite and board caches, compositing (tiny-skia) and PNG encoding.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use makruk::{Color, Square};
use tiny_skia::{Pixmap, PixmapPaint, Transform};

use super::svg::{self, LAST_MOVE_RGBA};
use super::{Kind, Layout, Placement, RenderError, RenderOptions, Theme, PIECE_SVG};

/// The piece artwork, parsed once: `[colour][kind]`.
type Trees = [[resvg::usvg::Tree; Kind::COUNT]; 2];

static TREES: LazyLock<Result<Trees, String>> = LazyLock::new(|| {
    let options = resvg::usvg::Options::default();
    let parse = |doc: &str| resvg::usvg::Tree::from_str(doc, &options).map_err(|e| e.to_string());
    let mut sides = Vec::with_capacity(2);
    for docs in &PIECE_SVG {
        let trees: Vec<resvg::usvg::Tree> = docs.iter().map(|d| parse(d)).collect::<Result<_, _>>()?;
        sides.push(
            <[resvg::usvg::Tree; Kind::COUNT]>::try_from(trees).map_err(|_| "piece count".to_owned())?,
        );
    }
    <[_; 2]>::try_from(sides).map_err(|_| "side count".to_owned())
});

/// Piece sprites and the check glow, rasterised for one square size.
struct Sprites {
    pieces: [[Pixmap; Kind::COUNT]; 2],
    check: Pixmap,
}

/// Caches keyed by what determines their pixels. A bot uses one or two sizes; the maps are
/// emptied if they ever grow past a few entries so odd sizes cannot use unbounded memory.
static SPRITES: LazyLock<Mutex<HashMap<u32, Arc<Sprites>>>> = LazyLock::new(Default::default);
static BOARDS: LazyLock<Mutex<HashMap<(Theme, Color, u32), Arc<Pixmap>>>> =
    LazyLock::new(Default::default);
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
    resvg::render(tree, Transform::from_scale(scale, scale), &mut pixmap.as_mut());
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

fn empty_board(layout: &Layout, theme: Theme) -> Result<Arc<Pixmap>, RenderError> {
    let key = (theme, layout.orientation, layout.size);
    if let Some(b) = lock(&BOARDS).get(&key) {
        return Ok(Arc::clone(b));
    }
    let tree = parse(&svg::background_svg(layout, theme))?;
    let mut pixmap = new_pixmap(layout.size, layout.size)?;
    resvg::render(&tree, Transform::identity(), &mut pixmap.as_mut());
    let board = Arc::new(pixmap);
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

/// Draws the position into a pixmap (premultiplied RGBA, fully opaque) with the fast path:
/// cached empty board + highlights + cached piece sprites.
///
/// CPU-bound: call from `spawn_blocking` in async code.
///
/// # Errors
/// [`RenderError::Size`] if `options.size` is out of range; [`RenderError::Artwork`] if the
/// built-in artwork is broken (a bug).
pub fn render_pixmap(placement: &Placement, options: &RenderOptions) -> Result<Pixmap, RenderError> {
    let layout = Layout::new(options.size, options.orientation)?;
    let board = empty_board(&layout, options.theme)?;
    let sprites = sprites(layout.square)?;
    let mut pixmap = (*board).clone();
    let sq = layout.square;

    if let Some((from, to)) = options.last_move {
        let inset = svg::highlight_inset(&layout, options.theme);
        let (r, g, b, a) = LAST_MOVE_RGBA;
        let mut paint = tiny_skia::Paint::default();
        paint.set_color_rgba8(r, g, b, a);
        for s in [from, to] {
            let (x, y) = layout.square_origin(s);
            let side = (sq - 2 * inset) as f32;
            if let Some(rect) =
                tiny_skia::Rect::from_xywh((x + inset) as f32, (y + inset) as f32, side, side)
            {
                pixmap.fill_rect(rect, &paint, Transform::identity(), None);
            }
        }
    }
    let paint = PixmapPaint::default();
    if let Some(s) = options.check {
        let (x, y) = layout.square_origin(s);
        pixmap.draw_pixmap(
            x as i32,
            y as i32,
            sprites.check.as_ref(),
            &paint,
            Transform::identity(),
            None,
        );
    }
    for (i, p) in placement.iter().enumerate() {
        if let (Some(p), Some(s)) = (p, u8::try_from(i).ok().and_then(Square::new)) {
            let (x, y) = layout.square_origin(s);
            let sprite = &sprites.pieces[p.color.index()][Kind::of(*p).0];
            pixmap.draw_pixmap(
                x as i32,
                y as i32,
                sprite.as_ref(),
                &paint,
                Transform::identity(),
                None,
            );
        }
    }
    Ok(pixmap)
}

/// Draws the position as PNG bytes (8-bit RGB), with the fast path ([`render_pixmap`]).
///
/// CPU-bound (about a millisecond at 512 px once warm; the first call for a size also rasterises
/// the sprites and the empty board): from async code call it inside
/// `tokio::task::spawn_blocking`.
///
/// # Errors
/// [`RenderError::Size`] if `options.size` is out of range; [`RenderError::Png`] if encoding
/// fails; [`RenderError::Artwork`] if the built-in artwork is broken (a bug).
pub fn render(placement: &Placement, options: &RenderOptions) -> Result<Vec<u8>, RenderError> {
    encode_png(&render_pixmap(placement, options)?)
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
    encode_png(&pixmap)
}

/// Encodes an opaque pixmap as an RGB PNG. The board has no transparency, so the alpha channel
/// is dropped (a quarter less data) and premultiplied = straight colour.
fn encode_png(pixmap: &Pixmap) -> Result<Vec<u8>, RenderError> {
    let rgb: Vec<u8> = pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|px| [px[0], px[1], px[2]])
        .collect();
    let mut out = Vec::with_capacity(48 * 1024);
    {
        let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Fast);
        encoder.set_filter(png::FilterType::Sub);
        encoder.set_adaptive_filter(png::AdaptiveFilterType::NonAdaptive);
        let mut writer = encoder.write_header()?;
        writer.write_image_data(&rgb)?;
        writer.finish()?;
    }
    Ok(out)
}
