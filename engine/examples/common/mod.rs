//! What several examples share (each includes it with `mod common;` and uses part of it).
#![allow(dead_code)]

use makruk::{Game, Move, Position, Ruleset};
use rand::Rng;

/// The 50 balanced start positions of `engine/openings.txt` (Makruk, standard ruleset), in
/// the file's order; lines that are empty, comments (`#`) or not a FEN are skipped.
#[must_use]
pub fn openings() -> Vec<Position> {
    include_str!("../../openings.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| Position::from_fen(l, Ruleset::Standard).ok())
        .collect()
}

/// Plays up to `plies` random legal plies on `game` (fewer where the game ends first) and
/// returns them; each ply draws one number from `rng`.
pub fn play_random(game: &mut Game, plies: usize, rng: &mut impl Rng) -> Vec<Move> {
    let mut out = Vec::new();
    for _ in 0..plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() || game.outcome().is_some() {
            break;
        }
        let m = moves[rng.random_range(0..moves.len())];
        if game.play(&m).is_err() {
            break;
        }
        out.push(m);
    }
    out
}

/// The lines of a data file, read through gzip when its name ends in `.gz` (the committed
/// training data of `engine/data/`); panics with the path in the message when the file
/// cannot be opened or read.
pub fn data_lines(path: &str) -> impl Iterator<Item = String> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let reader: Box<dyn std::io::Read> = if path.ends_with(".gz") {
        Box::new(flate2::read::MultiGzDecoder::new(file))
    } else {
        Box::new(file)
    };
    let path = path.to_owned();
    std::io::BufRead::lines(std::io::BufReader::new(reader))
        .map(move |l| l.unwrap_or_else(|e| panic!("{path}: {e}")))
}
