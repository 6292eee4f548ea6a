//! What several examples share (each includes it with `mod common;`).

use makruk::{Position, Ruleset};

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
