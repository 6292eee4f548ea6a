//! SAN and Thai SAN against Fairy-Stockfish: every move of `games-public.jsonl.gz` and
//! `games-mates-public.jsonl.gz` (tests/data/) is written exactly as Fairy-Stockfish
//! wrote it, and reading the SAN and the Thai SAN back gives the same move.

use makruk::san::{to_san, to_thai_san};
use makruk::{parse_move, parse_uci};
use makruk::{uci, MoveInputError, Position, Ruleset};
use serde_json::Value;

#[derive(Default)]
struct Tally {
    san: usize,
    thai: usize,
    read_back: usize,
    thai_same_text: usize,
    failures: Vec<String>,
}

impl Tally {
    fn fail(&mut self, msg: String) {
        if self.failures.len() < 30 {
            self.failures.push(msg);
        } else if self.failures.len() == 30 {
            self.failures.push("…".into());
        }
    }
}

fn check_file(name: &str) -> Tally {
    let path = makruk_conformance::data::path(name);
    let text = makruk_conformance::data::read_text(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut t = Tally::default();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let game: Value = serde_json::from_str(line).expect("JSON line");
        let id = game["id"].as_str().unwrap_or("?").to_string();
        let start = game["start"].as_str().expect("start FEN");
        let mut pos = Position::from_fen(start, Ruleset::Standard)
            .unwrap_or_else(|e| panic!("{id}: start FEN {start}: {e}"));
        let plies = game["plies"].as_array().expect("plies");
        for (i, ply) in plies.iter().enumerate() {
            let Some(u) = ply["uci"].as_str() else {
                break;
            };
            let m = match parse_uci(&pos, u) {
                Ok(m) => m,
                Err(e) => {
                    t.fail(format!("{id} ply {i}: UCI {u} not accepted: {e}"));
                    break;
                }
            };
            assert_eq!(uci::to_uci(&m), u, "{id} ply {i}: UCI round trip");
            let want_san = ply["san"].as_str().expect("san");
            let want_thai = ply["thai_san"].as_str().expect("thai_san");
            let san = to_san(&pos, &m);
            let thai = to_thai_san(&pos, &m);
            if san == want_san {
                t.san += 1;
            } else {
                t.fail(format!(
                    "{id} ply {i} {}: SAN want {want_san} got {san}",
                    pos.fen()
                ));
            }
            if thai == want_thai {
                t.thai += 1;
            } else {
                t.fail(format!(
                    "{id} ply {i} {}: Thai SAN want {want_thai} got {thai}",
                    pos.fen()
                ));
            }
            match parse_move(&pos, want_san) {
                Ok(back) if back == m => t.read_back += 1,
                other => t.fail(format!("{id} ply {i}: reading {want_san} gave {other:?}")),
            }
            match parse_move(&pos, want_thai) {
                Ok(back) if back == m => t.read_back += 1,
                // ข, ค and ง are letters and files: Fairy-Stockfish can write two moves alike.
                Err(MoveInputError::Ambiguous { candidates, .. })
                    if candidates.contains(&san)
                        && pos
                            .legal_moves()
                            .iter()
                            .filter(|l| to_thai_san(&pos, l) == want_thai)
                            .count()
                            > 1 =>
                {
                    t.thai_same_text += 1;
                }
                other => t.fail(format!("{id} ply {i}: reading {want_thai} gave {other:?}")),
            }
            pos.play_unchecked(&m);
        }
    }
    t
}

fn run(name: &str, min_moves: usize) {
    let t = check_file(name);
    println!(
        "{name}: {} SAN, {} Thai SAN exact; {} texts read back; {} Thai texts shared by two moves",
        t.san, t.thai, t.read_back, t.thai_same_text
    );
    assert!(t.failures.is_empty(), "{}", t.failures.join("\n"));
    assert!(t.san >= min_moves, "only {} moves checked", t.san);
}

#[test]
fn games_public_san_and_thai_san() {
    run("games-public.jsonl.gz", 50_000);
}

#[test]
fn games_mates_public_san_and_thai_san() {
    run("games-mates-public.jsonl.gz", 5_000);
}
