//! Real PlayOK records (tests/data/playok/): every move of every game is read (PlayOK
//! SAN dialect: Khon `B`, Met `Q`, Bia-ngai `P`, promotion `=P`) and the game replays under
//! `traditional` to the placement, side to move and mate listed in `expected.txt`.

use std::path::PathBuf;

use makruk::pgn::read_pgn;
use makruk::{DrawReason, Outcome, Ruleset};

fn playok_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/playok"))
}

struct Expected {
    file: String,
    plies: usize,
    placement_and_turn: String,
    mate: bool,
}

fn expected() -> Vec<Expected> {
    let path = playok_dir().join("expected.txt");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f.len(), 5, "expected.txt line: {l}");
            Expected {
                file: f[0].to_string(),
                plies: f[1].parse().expect("plies"),
                placement_and_turn: format!("{} {}", f[2], f[3]),
                mate: f[4] == "mate",
            }
        })
        .collect()
}

#[test]
fn every_playok_game_replays_to_its_expected_end() {
    let all = expected();
    assert_eq!(all.len(), 8, "games listed in expected.txt");
    for e in &all {
        let path = playok_dir().join(&e.file);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|err| panic!("cannot read {}: {err}", path.display()));
        let record = read_pgn(&text).unwrap_or_else(|err| panic!("{}: {err}", e.file));
        assert_eq!(record.tag("Site"), Some("PlayOK"), "{}", e.file);
        let replay = record
            .replay(Ruleset::Traditional)
            .unwrap_or_else(|err| panic!("{}: {err}", e.file));
        let game = &replay.game;
        assert_eq!(game.moves().len(), e.plies, "{}: plies", e.file);
        let fen = game.position().fen();
        let got: Vec<&str> = fen.split(' ').take(2).collect();
        assert_eq!(
            got.join(" "),
            e.placement_and_turn,
            "{}: final position",
            e.file
        );
        assert_eq!(game.position().is_checkmate(), e.mate, "{}: mate", e.file);
        if e.mate {
            assert!(
                matches!(game.outcome(), Some(Outcome::Decisive { .. })),
                "{}: outcome {:?}",
                e.file,
                game.outcome()
            );
        }
    }
}

/// The data's README: game-08 reaches insufficient material at ply 126 of 138; the replay
/// reports the draw there and still plays the record to its end.
#[test]
fn game_08_draw_is_reported_where_it_happens() {
    let text = std::fs::read_to_string(playok_dir().join("game-08.pgn")).expect("game-08.pgn");
    let replay = read_pgn(&text)
        .expect("readable")
        .replay(Ruleset::Traditional)
        .expect("replays");
    assert_eq!(
        replay.first_end,
        Some((
            126,
            Outcome::Draw {
                reason: DrawReason::InsufficientMaterial
            }
        ))
    );
    assert_eq!(replay.game.moves().len(), 138);
}
