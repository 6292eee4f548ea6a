//! Board picture speed: render + PNG encode of a middlegame at 512 px, fast path (cached
//! sprites + compositing) against one whole-board SVG rendered by resvg.
//!
//! Run: `cargo bench --bench render`. Target (issue 3): fast path median under 2 ms.

use criterion::{criterion_group, criterion_main, Criterion};
use makruk::{Position, Ruleset, Square};
use makruk_bot::render::{self, placement, RenderOptions};

/// A middlegame with 26 pieces, a Bia-ngai, a check and a last move to highlight.
const MIDDLEGAME: &str = "r1s1k2r/3M~2p1/p1pp1s1p/1p2pN2/4P3/PPP1SPP1/4M1KP/R1S3NR b - - 0 24";

fn bench(c: &mut Criterion) {
    let position = Position::from_fen(MIDDLEGAME, Ruleset::Standard).expect("valid FEN");
    let board = placement(position.board());
    let last = ("e6".parse::<Square>(), "d7".parse::<Square>());
    let options = render::position_options(
        &position,
        &RenderOptions {
            last_move: last.0.ok().zip(last.1.ok()),
            ..RenderOptions::default()
        },
    );
    // Warm the caches, and show the PNG sizes next to the timings.
    for (name, png) in [
        ("fast path", render::render(&board, &options)),
        ("whole-board SVG", render::render_via_svg(&board, &options)),
    ] {
        let png = png.expect("renders");
        eprintln!("{name}: {} bytes", png.len());
    }

    let mut group = c.benchmark_group("render 512px middlegame");
    group.bench_function("fast path: render + PNG", |b| {
        b.iter(|| render::render(&board, &options).expect("renders"));
    });
    group.bench_function("fast path: compositing only", |b| {
        b.iter(|| render::render_picture(&board, &options).expect("renders"));
    });
    group.bench_function("whole-board SVG via resvg + PNG", |b| {
        b.iter(|| render::render_via_svg(&board, &options).expect("renders"));
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
