//! Every ply of every game in `tests/data/*.jsonl.gz` must match Fairy-Stockfish's
//! data exactly (FEN, legal move set, check, draw flags, insufficient material, final
//! mate/stalemate; traditional games with their count requests).

use makruk_conformance::check::check_text;

fn data(name: &str) -> String {
    let path = makruk_conformance::data::path(name);
    makruk_conformance::data::read_text(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
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
    check("games-public.jsonl.gz", 300);
}

#[test]
fn games_mates_public() {
    check("games-mates-public.jsonl.gz", 120);
}

#[test]
fn traditional_public() {
    check("traditional-public.jsonl.gz", 60);
}

#[test]
fn makpong_public() {
    check("makpong-public.jsonl.gz", 60);
}

#[test]
fn asean_public() {
    check("asean-public.jsonl.gz", 60);
}

#[test]
fn cambodian_public() {
    check("cambodian-public.jsonl.gz", 60);
}

#[test]
fn sittuyin_public() {
    check("sittuyin-public.jsonl.gz", 60);
}
