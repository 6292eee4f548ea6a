//! Criterion benchmark: legal move generation and play on a few positions.
//! Run with `cargo bench -p makruk`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use makruk::{Position, Ruleset};

const POSITIONS: [&str; 4] = [
    "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
    "rnsm1s1r/4n1k1/1ppppppp/p7/2PPP3/PP3PPP/4N2R/RNSKMS2 b - - 1 5",
    "r1smksnr/3n4/pppp1ppp/4p3/4PP2/PPPP2PP/8/RNSKMSNR w - - 0 1",
    "8/3k4/6M~1/2K1S3/8/8/8/8 b - 88 8 1",
];

fn movegen(c: &mut Criterion) {
    let positions: Vec<Position> = POSITIONS
        .iter()
        .map(|f| Position::from_fen(f, Ruleset::Standard).expect("valid FEN"))
        .collect();
    c.bench_function("legal_moves (4 positions)", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| black_box(p).legal_moves().len())
                .sum::<usize>()
        })
    });
    c.bench_function("legal_moves + play each (4 positions)", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &positions {
                for m in &p.legal_moves() {
                    let mut q = p.clone();
                    q.play_unchecked(m);
                    n += usize::from(q.is_check());
                }
            }
            black_box(n)
        })
    });
    c.bench_function("play (checked) first move (4 positions)", |b| {
        b.iter(|| {
            for p in &positions {
                let moves = p.legal_moves();
                if let Some(m) = moves.first() {
                    let mut q = p.clone();
                    let _ = black_box(q.play(m));
                }
            }
        })
    });
}

criterion_group!(benches, movegen);
criterion_main!(benches);
