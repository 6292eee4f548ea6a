//! The conformance checker of `makruk`'s `tests/conformance.rs` and `examples/conformance.rs`:
//! replays the games of a conformance file (`tests/data/*.jsonl.gz`, README.md there) and lists
//! every mismatch with Fairy-Stockfish's data.

use makruk::uci::to_uci_in;
use makruk::{counting_draw, Color, Game, Move, Position, Ruleset, Variant};
use serde_json::Value;

/// One disagreement with the data.
#[derive(Debug, Clone)]
pub struct Mismatch {
    /// The game's `id` in the file.
    pub game: String,
    /// The ply (0: the start position) where it differs.
    pub ply: usize,
    /// What differs (`fen`, `legal`, `check`, a draw flag…).
    pub field: &'static str,
    /// Fairy-Stockfish's value.
    pub expected: String,
    /// The rules crate's value.
    pub got: String,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} ply {} {}: expected {}, got {}",
            self.game, self.ply, self.field, self.expected, self.got
        )
    }
}

/// Result of checking a file.
#[derive(Debug, Default)]
pub struct Report {
    /// Games that matched at every ply.
    pub passed: usize,
    /// Games with at least one mismatch.
    pub failed: usize,
    /// Plies checked, in all games.
    pub plies: usize,
    /// Every mismatch, in file order.
    pub mismatches: Vec<Mismatch>,
}

fn find_move(pos: &Position, s: &str) -> Option<Move> {
    pos.legal_moves()
        .iter()
        .copied()
        .find(|m| to_uci_in(m, pos.variant()) == s)
}

/// The position's draw by the no-progress rule of its variant (ASEAN's and Sittuyin's 50-move
/// rule), as Fairy-Stockfish offers it: not when the side to move is mated.
fn no_progress_draw(pos: &Position) -> bool {
    pos.variant() != Variant::Makruk
        && pos.rules().no_progress.is_some_and(|np| {
            pos.halfmoves() >= np.plies && (!pos.is_check() || pos.has_legal_move())
        })
}

fn flag(v: &Value) -> Option<bool> {
    v.get(0).and_then(Value::as_bool)
}

/// Checks one game (either format); pushes mismatches; returns true if it matched fully.
pub fn check_game(g: &Value, out: &mut Vec<Mismatch>, plies_checked: &mut usize) -> bool {
    let id = g["id"].as_str().unwrap_or("?").to_string();
    let traditional = g.get("events").is_some();
    let ruleset = if traditional {
        Ruleset::Traditional
    } else {
        Ruleset::Standard
    };
    let before = out.len();
    let mut mm = |ply: usize, field: &'static str, expected: String, got: String| {
        out.push(Mismatch {
            game: id.clone(),
            ply,
            field,
            expected,
            got,
        })
    };
    let variant = match g.get("variant").and_then(Value::as_str) {
        None => Variant::Makruk,
        Some(name) => match name.parse::<Variant>() {
            Ok(v) => v,
            Err(e) => {
                mm(0, "variant", name.to_string(), format!("error {e}"));
                return false;
            }
        },
    };
    let start = g["start"].as_str().unwrap_or("");
    let pos = if variant == Variant::Makruk {
        Position::from_fen(start, ruleset)
    } else {
        Position::from_fen_variant(start, variant)
    };
    let pos = match pos {
        Ok(p) => p,
        Err(e) => {
            mm(0, "start", start.to_string(), format!("error {e}"));
            return false;
        }
    };
    let mut game = Game::from_position(pos);
    let empty = Vec::new();
    let plies = g["plies"].as_array().unwrap_or(&empty);
    if plies.is_empty() {
        mm(0, "plies", "a list of plies".into(), "none".into());
        return false;
    }
    let moves = g["moves"].as_array().unwrap_or(&empty);
    let events = g.get("events").and_then(Value::as_array).unwrap_or(&empty);
    for (i, p) in plies.iter().enumerate() {
        *plies_checked += 1;
        for e in events
            .iter()
            .filter(|e| e["ply"].as_u64() == Some(i as u64))
        {
            let r = match e["action"].as_str() {
                Some("start") => game.start_count(),
                Some("stop") => game.stop_count(),
                _ => Ok(()),
            };
            if let Err(err) = r {
                mm(i, "event", e.to_string(), format!("refused: {err}"));
            }
        }
        let pos = game.position().clone();
        let fen = pos.fen();
        let efen = p["fen"].as_str().unwrap_or("");
        if fen != efen {
            mm(i, "fen", efen.to_string(), fen);
        }
        let mut legal: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|m| to_uci_in(m, variant))
            .collect();
        legal.sort();
        let mut elegal: Vec<String> = p["legal"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        elegal.sort();
        if legal != elegal {
            mm(i, "legal", elegal.join(" "), legal.join(" "));
        }
        // perft's leaf count takes shortcuts of its own: it must agree with the move list.
        if pos.count_legal() != elegal.len() {
            mm(
                i,
                "count",
                elegal.len().to_string(),
                pos.count_legal().to_string(),
            );
        }
        if let Some(c) = p.get("check").and_then(Value::as_bool) {
            if c != pos.is_check() {
                mm(i, "check", c.to_string(), pos.is_check().to_string());
            }
        }
        if let Some(v) = p.get("immediate").and_then(flag) {
            // Fairy-Stockfish never ends a Makruk game immediately (mate/stalemate are
            // found by the move generator, draws are "optional").
            if v {
                mm(i, "immediate", "true".into(), "false".into());
            }
        }
        if let Some(v) = p.get("optional").and_then(flag) {
            let got = counting_draw(&pos)
                || game.is_repetition()
                || no_progress_draw(&pos)
                || pos.is_promotion_stalemate();
            if v != got {
                mm(i, "optional", v.to_string(), got.to_string());
            }
        }
        if let Some(ins) = p.get("insufficient").and_then(Value::as_array) {
            let e = (
                ins.first().and_then(Value::as_bool),
                ins.get(1).and_then(Value::as_bool),
            );
            let got = (
                pos.has_insufficient_material(Color::White),
                pos.has_insufficient_material(Color::Black),
            );
            if e != (Some(got.0), Some(got.1)) {
                mm(i, "insufficient", format!("{e:?}"), format!("{got:?}"));
            }
        }
        let Some(mv) = moves.get(i).and_then(Value::as_str) else {
            continue;
        };
        let Some(m) = find_move(&pos, mv) else {
            mm(i, "move", mv.to_string(), "not legal".into());
            break;
        };
        if let Some(es) = p.get("san").and_then(Value::as_str) {
            let san = makruk::san::to_san(&pos, &m);
            if es != san {
                mm(i, "san", es.to_string(), san);
            }
        }
        if let Some(et) = p.get("thai_san").and_then(Value::as_str) {
            let thai = makruk::san::to_thai_san(&pos, &m);
            if et != thai {
                mm(i, "thai_san", et.to_string(), thai);
            }
        }
        if let Err(e) = game.play_on(&m) {
            mm(i, "move", mv.to_string(), format!("refused: {e}"));
            break;
        }
    }
    if let (Some(result), Some(end)) = (g.get("result").and_then(Value::as_i64), g.get("end")) {
        let pos = game.position();
        let last = plies.len().saturating_sub(1);
        // Fairy-Stockfish's game_result says -32000 for any position in check, mate or not
        // (s1-g231 ends in check with legal moves, by max_plies): mate only counts when the
        // game ended for lack of legal moves.
        let no_moves = end.as_str() == Some("no_legal_moves");
        let mate = result == -32000 && no_moves;
        if mate != pos.is_checkmate() {
            mm(
                last,
                "mate",
                mate.to_string(),
                pos.is_checkmate().to_string(),
            );
        }
        let stalemate = result == 0 && no_moves;
        if stalemate != pos.is_stalemate() {
            mm(
                last,
                "stalemate",
                stalemate.to_string(),
                pos.is_stalemate().to_string(),
            );
        }
    }
    out.len() == before
}

/// Checks every game (one JSON object a line) of `text`.
pub fn check_text(text: &str) -> Report {
    let mut r = Report::default();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(line) {
            Ok(g) => {
                if check_game(&g, &mut r.mismatches, &mut r.plies) {
                    r.passed += 1;
                } else {
                    r.failed += 1;
                }
            }
            Err(e) => {
                r.failed += 1;
                r.mismatches.push(Mismatch {
                    game: format!("line {}", n + 1),
                    ply: 0,
                    field: "json",
                    expected: "a game".into(),
                    got: e.to_string(),
                });
            }
        }
    }
    r
}
