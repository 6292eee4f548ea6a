//! Perft of the other variants of the Makruk family (`tests/data/perft-variants.txt`,
//! Fairy-Stockfish's counts), at every depth listed. In a debug build depths above 20 million
//! nodes are skipped, as in `perft.rs`.

use makruk::{Position, Ruleset, Variant};

const MAX_NODES: Option<u64> = if cfg!(debug_assertions) {
    Some(20_000_000)
} else {
    None
};

#[test]
fn perft_variants_txt() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft-variants.txt");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let mut variant = Variant::Makruk;
    let mut pos: Option<Position> = None;
    let mut checked = 0;
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("variant ") {
            variant = name.parse().expect("a variant name");
        } else if let Some(fen) = line.strip_prefix("fen ") {
            pos = Some(if fen == "startpos" {
                Position::start_variant(variant, Ruleset::Standard)
            } else {
                Position::from_fen_variant(fen, variant).expect("valid FEN")
            });
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut it = rest.split_whitespace();
            let depth: u32 = it.next().and_then(|d| d.parse().ok()).expect("depth");
            let nodes: u64 = it.next().and_then(|n| n.parse().ok()).expect("nodes");
            if MAX_NODES.is_some_and(|max| nodes > max) {
                continue;
            }
            let p = pos.as_ref().expect("perft line after a fen line");
            assert_eq!(p.variant(), variant);
            assert_eq!(
                p.perft(depth),
                nodes,
                "{variant} perft {depth} of {}",
                p.fen()
            );
            checked += 1;
        }
    }
    assert!(checked >= 8, "only {checked} perft lines checked");
}
