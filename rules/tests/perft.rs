//! Perft of every position of `tests/data/perft.txt` (Fairy-Stockfish's counts), at
//! every depth listed. In a debug build (`cargo test` without `--release`) depths above 20
//! million nodes are skipped; the README's test command is a release build and runs them all.

use makruk::{Position, Ruleset};

/// The largest node count checked in a debug build; `None` (no limit) in a release build.
const MAX_NODES: Option<u64> = if cfg!(debug_assertions) {
    Some(20_000_000)
} else {
    None
};

#[test]
fn perft_txt() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.txt");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let mut pos: Option<Position> = None;
    let mut checked = 0;
    for line in text.lines() {
        if let Some(fen) = line.strip_prefix("fen ") {
            pos = Some(Position::from_fen(fen, Ruleset::Standard).expect("valid FEN in perft.txt"));
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut it = rest.split_whitespace();
            let depth: u32 = it.next().and_then(|d| d.parse().ok()).expect("depth");
            let nodes: u64 = it.next().and_then(|n| n.parse().ok()).expect("nodes");
            if MAX_NODES.is_some_and(|max| nodes > max) {
                continue;
            }
            let p = pos.as_ref().expect("perft line after a fen line");
            assert_eq!(p.perft(depth), nodes, "perft {depth} of {}", p.fen());
            checked += 1;
        }
    }
    let listed = text.lines().filter(|l| l.starts_with("perft ")).count();
    assert!(checked >= 25, "only {checked} perft lines checked");
    if !cfg!(debug_assertions) {
        assert_eq!(
            checked, listed,
            "every perft line is checked in a release build"
        );
    }
}

#[test]
fn perft_divide_sums_match() {
    // Perft by hand at depth 2 equals the bulk-counted perft.
    let pos = Position::new();
    let total: u64 = pos
        .legal_moves()
        .iter()
        .map(|m| pos.after(m).perft(1))
        .sum();
    assert_eq!(total, pos.perft(2));
    let by_generation: u64 = pos
        .legal_moves()
        .iter()
        .map(|m| pos.after(m).legal_moves().len() as u64)
        .sum();
    assert_eq!(by_generation, 529);
}
