//! Board picture tests: reference PNGs, piece placement after flipping, artwork for every piece,
//! highlights, PNG size budget, CLI errors.
//!
//! Reference pictures live in `tests/fixtures/render/`. After a deliberate change of the artwork
//! or layout, regenerate them with `UPDATE_RENDER_FIXTURES=1 cargo test --test render` and look
//! at every picture before committing.

use std::path::PathBuf;

use makruk::{Color, Piece, Position, Role, Ruleset, Square};
use makruk_bot::render::{
    self, cli, placement, render_picture, square_rect, Placement, RenderError, RenderOptions, Theme,
};

const START: &str = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1";
/// Black to move, its Khun on e8 in check from the white Bia-ngai on d7 (which just came from
/// e6); a middlegame otherwise.
const BIA_NGAI_CHECK: &str = "r1s1k2r/3M~2p1/p1pp1s1p/1p2pN2/4P3/PPP1SPP1/4M1KP/R1S3NR b - - 0 24";

fn sq(name: &str) -> Square {
    name.parse().expect("test square name")
}

fn position(fen: &str) -> Position {
    Position::from_fen(fen, Ruleset::Standard).expect("test FEN is valid")
}

fn decode(png_bytes: &[u8]) -> (u32, Vec<u8>) {
    let decoder = png::Decoder::new(png_bytes);
    let mut reader = decoder.read_info().expect("PNG header");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("PNG data");
    assert_eq!(info.color_type, png::ColorType::Rgb, "we write RGB PNGs");
    assert_eq!(info.width, info.height, "the picture is square");
    buf.truncate(info.buffer_size());
    (info.width, buf)
}

/// Pixels (not channels) whose colour differs by more than `tolerance` in some channel.
fn differing_pixels(a: &[u8], b: &[u8], tolerance: u8) -> usize {
    assert_eq!(a.len(), b.len(), "same picture size");
    a.chunks_exact(3)
        .zip(b.chunks_exact(3))
        .filter(|(p, q)| {
            p.iter()
                .zip(q.iter())
                .any(|(x, y)| x.abs_diff(*y) > tolerance)
        })
        .count()
}

fn fixture_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/render")
        .join(format!("{name}.png"))
}

/// Compares a rendering with its committed reference PNG: every channel within 8 levels, except
/// at most 0.1 % of the pixels (anti-aliasing may differ slightly between CPUs).
fn check_fixture(name: &str, fen: &str, options: &RenderOptions) {
    let png_bytes = render::render_position(&position(fen), options).expect("renders");
    let path = fixture_path(name);
    if std::env::var_os("UPDATE_RENDER_FIXTURES").is_some() {
        std::fs::create_dir_all(path.parent().expect("fixture folder")).expect("mkdir");
        std::fs::write(&path, &png_bytes).expect("write fixture");
    }
    let reference = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; regenerate with UPDATE_RENDER_FIXTURES=1",
            path.display()
        )
    });
    let (size, expected) = decode(&reference);
    let (got_size, got) = decode(&png_bytes);
    assert_eq!(got_size, size, "{name}: picture size");
    let bad = differing_pixels(&got, &expected, 8);
    let allowed = (size * size / 1000) as usize;
    assert!(
        bad <= allowed,
        "{name}: {bad} pixels differ from {} (allowed {allowed})",
        path.display()
    );
}

fn options(orientation: Color, theme: Theme) -> RenderOptions {
    RenderOptions {
        orientation,
        theme,
        ..RenderOptions::default()
    }
}

#[test]
fn start_position_from_white_matches_reference() {
    check_fixture("start-white", START, &options(Color::White, Theme::Plain));
}

#[test]
fn start_position_from_black_matches_reference() {
    check_fixture("start-black", START, &options(Color::Black, Theme::Plain));
}

#[test]
fn bia_ngai_and_check_from_white_matches_reference() {
    let o = RenderOptions {
        last_move: Some((sq("e6"), sq("d7"))),
        ..options(Color::White, Theme::Plain)
    };
    check_fixture("bia-ngai-check-white", BIA_NGAI_CHECK, &o);
}

#[test]
fn bia_ngai_and_check_from_black_matches_reference() {
    let o = RenderOptions {
        last_move: Some((sq("e6"), sq("d7"))),
        ..options(Color::Black, Theme::Plain)
    };
    check_fixture("bia-ngai-check-black", BIA_NGAI_CHECK, &o);
}

#[test]
fn checkered_theme_matches_reference() {
    let o = RenderOptions {
        last_move: Some((sq("e6"), sq("d7"))),
        ..options(Color::White, Theme::Checkered)
    };
    check_fixture("bia-ngai-check-checkered", BIA_NGAI_CHECK, &o);
}

#[test]
fn fixture_position_really_has_a_bia_ngai_and_a_check() {
    let pos = position(BIA_NGAI_CHECK);
    assert!(pos.is_check());
    assert_eq!(pos.board().khun_of(Color::Black), Some(sq("e8")));
    assert_eq!(
        pos.board().piece_at(sq("d7")),
        Some(Piece::bia_ngai(Color::White))
    );
    let o = render::position_options(&pos, &RenderOptions::default());
    assert_eq!(o.check, Some(sq("e8")));
    let o = render::position_options(&position(START), &RenderOptions::default());
    assert_eq!(o.check, None);
}

/// The squares whose pixels differ between two pictures drawn with the same orientation.
fn changed_squares(a: &render::Picture, b: &render::Picture, orientation: Color) -> Vec<Square> {
    Square::all()
        .filter(|&s| {
            let (x0, y0, side) = square_rect(a.size, orientation, s).expect("size");
            (y0..y0 + side).any(|y| (x0..x0 + side).any(|x| a.pixel(x, y) != b.pixel(x, y)))
        })
        .collect()
}

fn only(piece: Piece, at: Square) -> Placement {
    let mut p: Placement = [None; 64];
    p[at.index()] = Some(piece);
    p
}

#[test]
fn a_piece_sits_on_its_square_in_both_orientations() {
    let empty: Placement = [None; 64];
    let khun = Piece::new(Color::White, Role::Khun);
    for orientation in Color::ALL {
        let o = options(orientation, Theme::Plain);
        let blank = render_picture(&empty, &o).expect("renders");
        for name in ["a1", "h1", "a8", "h8", "d1", "e8", "c6"] {
            let at = sq(name);
            let pic = render_picture(&only(khun, at), &o).expect("renders");
            assert_eq!(
                changed_squares(&blank, &pic, orientation),
                vec![at],
                "{name} seen from {orientation:?}"
            );
        }
    }
}

#[test]
fn flipping_puts_a1_bottom_left_for_white_and_top_right_for_black() {
    let size = 512;
    let (x, y, side) = square_rect(size, Color::White, sq("a1")).expect("size");
    assert!(x < size / 8 && y + side > size * 7 / 8, "a1 bottom-left");
    let (x, y, side) = square_rect(size, Color::Black, sq("a1")).expect("size");
    assert!(x + side > size * 7 / 8 && y < size / 8, "a1 top-right");
    // The same square drawn from the two sides: its piece pixels are the same, just moved.
    let p = only(Piece::new(Color::Black, Role::Ma), sq("b2"));
    let white = render_picture(&p, &options(Color::White, Theme::Plain)).expect("renders");
    let black = render_picture(&p, &options(Color::Black, Theme::Plain)).expect("renders");
    let (wx, wy, side) = square_rect(size, Color::White, sq("b2")).expect("size");
    let (bx, by, _) = square_rect(size, Color::Black, sq("b2")).expect("size");
    for dy in 0..side {
        for dx in 0..side {
            assert_eq!(white.pixel(wx + dx, wy + dy), black.pixel(bx + dx, by + dy));
        }
    }
}

/// Mean luminance (0–255) of the pixels of `at` that differ from `blank`: the piece itself.
fn piece_luminance(pic: &render::Picture, blank: &render::Picture, at: Square) -> f64 {
    let (x0, y0, side) = square_rect(pic.size, Color::White, at).expect("size");
    let (mut sum, mut n) = (0.0, 0.0);
    for y in y0..y0 + side {
        for x in x0..x0 + side {
            let [r, g, b] = pic.pixel(x, y).expect("inside");
            if Some([r, g, b]) != blank.pixel(x, y) {
                sum += 0.299 * f64::from(r) + 0.587 * f64::from(g) + 0.114 * f64::from(b);
                n += 1.0;
            }
        }
    }
    sum / n
}

#[test]
fn every_piece_has_its_own_artwork_and_sides_differ_in_grey_scale() {
    let pieces = render::all_pieces();
    assert_eq!(pieces.len(), 14, "2 colours × (6 roles + Bia-ngai)");
    for color in Color::ALL {
        for role in Role::ALL {
            assert!(pieces.contains(&Piece::new(color, role)));
        }
        assert!(pieces.contains(&Piece::bia_ngai(color)));
    }
    let at = sq("e4");
    let o = options(Color::White, Theme::Plain);
    let blank = render_picture(&[None; 64], &o).expect("renders");
    let pictures: Vec<_> = pieces
        .iter()
        .map(|&p| {
            let svg = render::piece_svg(p);
            assert!(
                resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default()).is_ok(),
                "{p:?}: artwork parses"
            );
            let pic = render_picture(&only(p, at), &o).expect("renders");
            assert_eq!(
                changed_squares(&blank, &pic, Color::White),
                vec![at],
                "{p:?} is drawn"
            );
            pic
        })
        .collect();
    let (x0, y0, side) = square_rect(512, Color::White, at).expect("size");
    for i in 0..pieces.len() {
        for j in i + 1..pieces.len() {
            let differ = (y0..y0 + side)
                .flat_map(|y| (x0..x0 + side).map(move |x| (x, y)))
                .filter(|&(x, y)| pictures[i].pixel(x, y) != pictures[j].pixel(x, y))
                .count();
            assert!(
                differ > (side * side / 20) as usize,
                "{:?} and {:?} look nearly the same ({differ} pixels differ)",
                pieces[i],
                pieces[j]
            );
        }
    }
    // Grey-scale: each white piece is clearly lighter than the black piece of the same kind.
    for (i, p) in pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| p.color == Color::White)
    {
        let j = pieces
            .iter()
            .position(|q| q.color == Color::Black && q.role == p.role && q.promoted == p.promoted)
            .expect("black counterpart");
        let (lw, lb) = (
            piece_luminance(&pictures[i], &blank, at),
            piece_luminance(&pictures[j], &blank, at),
        );
        assert!(lw > lb + 40.0, "{p:?}: white {lw:.0} vs black {lb:.0}");
    }
}

#[test]
fn last_move_and_check_are_highlighted() {
    let pos = position(BIA_NGAI_CHECK);
    let plain = RenderOptions::default();
    let marked = RenderOptions {
        last_move: Some((sq("e6"), sq("d7"))),
        ..render::position_options(&pos, &plain)
    };
    let p = placement(pos.board());
    let a = render_picture(&p, &plain).expect("renders");
    let b = render_picture(&p, &marked).expect("renders");
    assert_eq!(
        changed_squares(&a, &b, Color::White),
        vec![sq("e6"), sq("d7"), sq("e8")]
    );
    // The check glow is red: beside the Khun on e8 red now dominates.
    let (x, y, side) = square_rect(512, Color::White, sq("e8")).expect("size");
    let (x, y) = (x + side / 5, y + side / 2);
    let [r0, g0, _] = a.pixel(x, y).expect("inside");
    let [r1, g1, _] = b.pixel(x, y).expect("inside");
    assert!(i32::from(r1) - i32::from(g1) > i32::from(r0) - i32::from(g0) + 30);
}

fn luminance([r, g, b]: [u8; 3]) -> f64 {
    0.299 * f64::from(r) + 0.587 * f64::from(g) + 0.114 * f64::from(b)
}

/// The marks must survive a grey-scale screen and red-green colour blindness: the last move gets
/// a dark outline and a cool (blue-green) tint, the Khun in check a dark red ring.
#[test]
fn highlights_stay_clear_in_grey_scale() {
    // e4 and e5 are one light and one dark square of the checkered board.
    let last = (sq("e4"), sq("e5"));
    let khun_at = sq("d1");
    let khun = only(Piece::new(Color::White, Role::Khun), khun_at);
    for size in [320, 512] {
        for theme in Theme::ALL {
            let plain = RenderOptions {
                size,
                ..options(Color::White, theme)
            };
            let marked = RenderOptions {
                last_move: Some(last),
                check: Some(khun_at),
                ..plain.clone()
            };
            let a = render_picture(&khun, &plain).expect("renders");
            let b = render_picture(&khun, &marked).expect("renders");
            let at = |pic: &render::Picture, x: u32, y: u32| pic.pixel(x, y).expect("inside");
            for s in [last.0, last.1] {
                let (x, y, side) = square_rect(size, Color::White, s).expect("size");
                // The outline, just inside the square's left edge.
                let (ex, ey) = (x + side / 16, y + side / 2);
                let (l0, l1) = (luminance(at(&a, ex, ey)), luminance(at(&b, ex, ey)));
                assert!(
                    l1 < l0 - 70.0,
                    "{size} {theme:?} {s}: outline {l1:.0} vs {l0:.0}"
                );
                // The tint, in the middle: bluer than before (a blue-yellow contrast, which
                // red-green colour-blind players see).
                let ([r0, _, b0], [r1, _, b1]) = (
                    at(&a, x + side / 2, y + side / 2),
                    at(&b, x + side / 2, y + side / 2),
                );
                let cool = |r: u8, b: u8| i32::from(b) - i32::from(r);
                assert!(
                    cool(r1, b1) > cool(r0, b0) + 40,
                    "{size} {theme:?} {s}: tint"
                );
            }
            // The check ring, left of the Khun: dark in grey-scale and red in colour.
            let (x, y, side) = square_rect(size, Color::White, khun_at).expect("size");
            let (rx, ry) = (x + side * 6 / 100, y + side / 2);
            let (before, after) = (at(&a, rx, ry), at(&b, rx, ry));
            assert!(
                luminance(after) < luminance(before) - 70.0,
                "{size} {theme:?}: ring {after:?} vs {before:?}"
            );
            assert!(
                i32::from(after[0]) > i32::from(after[1]) + 100,
                "{size} {theme:?}: ring is red"
            );
        }
    }
}

#[test]
fn plain_board_has_one_square_colour_checkered_two() {
    let empty: Placement = [None; 64];
    let centre = |pic: &render::Picture, s: &str| {
        let (x, y, side) = square_rect(512, Color::White, sq(s)).expect("size");
        pic.pixel(x + side / 2, y + side / 2).expect("inside")
    };
    let plain = render_picture(&empty, &options(Color::White, Theme::Plain)).expect("renders");
    assert_eq!(centre(&plain, "a1"), centre(&plain, "b1"));
    let checkered =
        render_picture(&empty, &options(Color::White, Theme::Checkered)).expect("renders");
    assert_ne!(centre(&checkered, "a1"), centre(&checkered, "b1"));
    assert_eq!(centre(&checkered, "a1"), centre(&checkered, "b2"));
    assert_eq!("checkered".parse::<Theme>(), Ok(Theme::Checkered));
    assert_eq!("Plain".parse::<Theme>(), Ok(Theme::Plain));
    assert!("wood".parse::<Theme>().is_err());
}

#[test]
fn fast_path_matches_whole_board_svg() {
    let pos = position(BIA_NGAI_CHECK);
    for orientation in Color::ALL {
        for theme in Theme::ALL {
            let o = render::position_options(
                &pos,
                &RenderOptions {
                    last_move: Some((sq("e6"), sq("d7"))),
                    ..options(orientation, theme)
                },
            );
            let p = placement(pos.board());
            let (_, fast) = decode(&render::render(&p, &o).expect("renders"));
            let (_, slow) = decode(&render::render_via_svg(&p, &o).expect("renders"));
            let bad = differing_pixels(&fast, &slow, 8);
            assert!(
                bad < 512 * 512 / 500,
                "{orientation:?} {theme:?}: {bad} pixels differ"
            );
        }
    }
}

#[test]
fn typical_pictures_fit_the_png_budget() {
    for fen in [START, BIA_NGAI_CHECK] {
        for theme in Theme::ALL {
            let o = RenderOptions {
                last_move: Some((sq("e6"), sq("d7"))),
                ..options(Color::White, theme)
            };
            let bytes = render::render_position(&position(fen), &o).expect("renders");
            assert!(
                bytes.len() <= render::PNG_BUDGET,
                "{fen} {theme:?}: {} bytes",
                bytes.len()
            );
            assert_eq!(decode(&bytes).0, render::DEFAULT_SIZE);
        }
    }
}

/// The PNG is lossless: it decodes to exactly the composited picture, whatever the deflate
/// backend (issue 28 changed it), for every theme and orientation and a size that is not 512.
#[test]
fn png_decodes_to_exactly_the_rendered_pixels() {
    let pos = position(BIA_NGAI_CHECK);
    let p = placement(pos.board());
    for size in [render::DEFAULT_SIZE, 480] {
        for orientation in Color::ALL {
            for theme in Theme::ALL {
                let o = render::position_options(
                    &pos,
                    &RenderOptions {
                        last_move: Some((sq("e6"), sq("d7"))),
                        size,
                        ..options(orientation, theme)
                    },
                );
                let picture = render_picture(&p, &o).expect("renders");
                let (got_size, rgb) = decode(&render::render(&p, &o).expect("renders"));
                assert_eq!(got_size, picture.size, "{size} {orientation:?} {theme:?}");
                assert!(
                    rgb == picture.rgb,
                    "{size} {orientation:?} {theme:?}: decoded pixels differ"
                );
            }
        }
    }
}

#[test]
fn sizes_out_of_range_are_errors() {
    for size in [0, 10, render::MIN_SIZE - 1, render::MAX_SIZE + 1, u32::MAX] {
        let o = RenderOptions {
            size,
            ..RenderOptions::default()
        };
        assert!(matches!(render::render(&[None; 64], &o), Err(RenderError::Size(s)) if s == size));
    }
    for size in [render::MIN_SIZE, 480, 640] {
        let o = RenderOptions {
            size,
            ..RenderOptions::default()
        };
        let (got, _) = decode(&render::render(&[None; 64], &o).expect("renders"));
        assert_eq!(got, size);
    }
}

fn cli_args(fen: &str, out: PathBuf) -> cli::RenderArgs {
    cli::RenderArgs {
        fen: fen.to_owned(),
        variant: makruk::Variant::Makruk,
        black_bottom: false,
        last: None,
        theme: Theme::Plain,
        size: render::DEFAULT_SIZE,
        out,
    }
}

#[test]
fn cli_writes_a_png_and_rejects_bad_input() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("board.png");
    let mut args = cli_args(BIA_NGAI_CHECK, out.clone());
    args.black_bottom = true;
    args.last = Some("e6d7".into());
    cli::run(&args).expect("renders");
    let (size, _) = decode(&std::fs::read(&out).expect("written"));
    assert_eq!(size, render::DEFAULT_SIZE);

    for bad_fen in [
        "",
        "garbage",
        "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8 w",
        "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNX w",
        "8/8/8/8/8/8/8/8 w",
    ] {
        let bad_out = dir.path().join("bad.png");
        let err = cli::run(&cli_args(bad_fen, bad_out.clone())).expect_err(bad_fen);
        assert!(err.to_string().contains("invalid FEN"), "{bad_fen}: {err}");
        assert!(!bad_out.exists(), "nothing written for {bad_fen:?}");
    }
    for bad_last in ["e3", "e3e9", "z1e4", "e3e4xx", ""] {
        let mut args = cli_args(START, dir.path().join("bad.png"));
        args.last = Some(bad_last.into());
        assert!(cli::run(&args).is_err(), "--last {bad_last:?}");
    }
    assert_eq!(
        cli::parse_last_move("e3e4").expect("valid"),
        (sq("e3"), sq("e4"))
    );
    let mut args = cli_args(START, dir.path().join("small.png"));
    args.size = 3;
    assert!(cli::run(&args).is_err());
}

/// A PNG's width, height and RGB bytes, any shape.
fn decode_rect(png_bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(png_bytes);
    let mut reader = decoder.read_info().expect("PNG header");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("PNG data");
    assert_eq!(info.color_type, png::ColorType::Rgb, "we write RGB PNGs");
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// Pixels of rows `rows` of a `width`-wide RGB picture that differ from `colour`.
fn off_colour(rgb: &[u8], width: u32, rows: std::ops::Range<u32>, colour: [u8; 3]) -> usize {
    let w = width as usize * 3;
    rows.flat_map(|r| rgb[r as usize * w..(r as usize + 1) * w].chunks_exact(3))
        .filter(|p| *p != colour)
        .count()
}

/// Sittuyin's placement (issue 25): the pieces still in hand are drawn in a strip above the
/// board (the side at the top) and one below it (the side at the bottom), the board between
/// them as usual; a side with nothing in hand has an empty strip; once both have placed
/// everything the picture is the square board again.
#[test]
fn sittuyin_pieces_in_hand_are_drawn_beside_the_board() {
    let sittuyin = |fen: &str| {
        Position::from_fen_variant(fen, makruk::Variant::Sittuyin).expect("test FEN is valid")
    };
    let options = RenderOptions::default();
    let strip = render::hand_strip(options.size);
    assert!(strip >= 32, "pieces in hand big enough to see: {strip} px");

    // Both hands full: White at the bottom.
    let start = sittuyin("8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1");
    let png = render::render_position(&start, &options).expect("renders");
    let (w, h, rgb) = decode_rect(&png);
    assert_eq!((w, h), (options.size, options.size + 2 * strip));
    let frame = [rgb[0], rgb[1], rgb[2]];
    let top = off_colour(&rgb, w, 0..strip, frame);
    let bottom = off_colour(&rgb, w, h - strip..h, frame);
    assert!(
        top > 2000 && bottom > 2000,
        "both hands drawn: {top}, {bottom} pixels"
    );
    // The board between the strips is the board's own picture (the same SVG, moved down).
    let board = render::render_via_svg(&placement(start.board()), &options).expect("renders");
    let (_, board_rgb) = decode(&board);
    let row = options.size as usize * 3;
    let middle = &rgb[strip as usize * row..(strip + options.size) as usize * row];
    assert_eq!(differing_pixels(middle, &board_rgb, 2), 0);

    // Black still placing, White done: seen from Black, White's empty hand is on top.
    let half = sittuyin("8/8/4pppp/pppp4/4PPPP/PPPP4/8/RNSKFSNR[kfrrssnn] b - - 0 9");
    let seen_by_black = RenderOptions {
        orientation: Color::Black,
        ..RenderOptions::default()
    };
    let (w, h, rgb) = decode_rect(&render::render_position(&half, &seen_by_black).expect("png"));
    assert_eq!(
        off_colour(&rgb, w, 0..strip, frame),
        0,
        "White has nothing in hand"
    );
    assert!(
        off_colour(&rgb, w, h - strip..h, frame) > 1000,
        "Black's hand at the bottom"
    );

    // Everything placed: the usual square picture.
    let placed = sittuyin("rnskfsnr/8/4pppp/pppp4/4PPPP/PPPP4/8/RNSKFSNR[] w - - 0 17");
    assert!(render::hands(&placed).is_none());
    let png = render::render_position(&placed, &options).expect("renders");
    let (size, _) = decode(&png);
    assert_eq!(size, options.size);
}
