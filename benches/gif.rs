//! The animated game (`/gif`): a 100-ply game at 384 px, frames drawn, mapped to the palette and
//! encoded as changed rectangles.
//!
//! Run: `cargo bench --bench gif`. Targets (issue 14): under 300 ms and under 1 MB.

use criterion::{criterion_group, criterion_main, Criterion};
use makruk::{Color, Game, Ruleset};
use makruk_bot::render::{game_gif, Theme};

/// A game of 100 plies, deterministic: at ply `n` the legal move number `7n` (modulo their
/// count), which moves pieces all over the board.
fn hundred_plies() -> Game {
    let mut game = Game::new(Ruleset::Standard);
    for ply in 0..100 {
        let moves = game.position().legal_moves();
        let Some(m) = moves.get(ply * 7 % moves.len().max(1)).copied() else {
            break;
        };
        if game.play(&m).is_err() || game.outcome().is_some() {
            break;
        }
    }
    game
}

fn bench(c: &mut Criterion) {
    let game = hundred_plies();
    assert_eq!(game.moves().len(), 100, "the game ended early");
    let gif = game_gif(&game, Color::White, Theme::Plain, 384).expect("encodes");
    eprintln!(
        "{} plies at 384 px: {} bytes",
        game.moves().len(),
        gif.len()
    );
    c.bench_function("gif 384px whole game", |b| {
        b.iter(|| game_gif(&game, Color::White, Theme::Plain, 384).expect("encodes"));
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
