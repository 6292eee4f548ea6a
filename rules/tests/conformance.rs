//! Every ply of every game in `../shared/conformance/*.jsonl` must match Fairy-Stockfish's
//! data exactly (FEN, legal move set, check, draw flags, insufficient material, final
//! mate/stalemate; traditional games with their count requests).

mod support {
    pub mod conformance_check;
}

use support::conformance_check::check_text;

fn data(name: &str) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/conformance/").to_string() + name;
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

fn check(name: &str, min_games: usize) {
    let r = check_text(&data(name));
    for m in r.mismatches.iter().take(20) {
        eprintln!("{m}");
    }
    assert!(
        r.passed >= min_games,
        "{name}: only {} games passed",
        r.passed
    );
    assert_eq!(r.failed, 0, "{name}: {} games failed", r.failed);
    assert!(r.plies > min_games, "{name}: too few plies checked");
}

#[test]
fn games_public() {
    check("games-public.jsonl", 300);
}

#[test]
fn games_mates_public() {
    check("games-mates-public.jsonl", 120);
}

#[test]
fn traditional_public() {
    check("traditional-public.jsonl", 60);
}
