//! Property tests for the notation readers and writers: no input panics; every legal move of
//! random positions reads back from its SAN, Thai SAN and UCI; PGN write → read round-trips.

use makruk::pgn::{read_pgn, read_pgns, write_pgn, PgnTags};
use makruk::san::{to_san, to_thai_san};
use makruk::{explain_illegal, uci, Game, IllegalMove, MoveInputError, Position, Ruleset, Square};
use makruk::{parse_move, parse_uci};
use proptest::prelude::*;

/// Start positions for random games: the initial position, a middlegame, and endgames with
/// several Met and Bia-ngai (where SAN needs disambiguation), taken from the conformance data.
const STARTS: [&str; 6] = [
    "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
    "2smksnr/3n4/2p1p1pp/3p4/1Pp2P2/3P1PPP/4SM2/R1SK2NR w - - 0 10",
    "5M2/2k5/7M/6N1/5K2/8/8/5M2 w - 128 23 7",
    "8/8/2km1m~2/8/4S3/8/M~7/K7 b - 128 8 67",
    "4km2/1sM~4r/6pn/2p2sN1/2P4P/PK2P1m~1/5SR1/2M5 b - - 5 34",
    "3RS3/8/8/8/8/S5K1/3R4/2k5 w - 16 13 3",
];

/// Plays the moves picked by `picks` (each taken modulo the number of legal moves) from the
/// start position `STARTS[start % STARTS.len()]`, stopping early when no move is left.
fn random_game_from(start: usize, picks: &[u16]) -> Game {
    let fen = STARTS[start % STARTS.len()];
    let pos = Position::from_fen(fen, Ruleset::Standard).expect("valid FEN");
    let mut game = Game::from_position(pos);
    for &p in picks {
        let legal = game.position().legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[usize::from(p) % legal.len()];
        game.play_on(&m).expect("a generated move is legal");
    }
    game
}

fn random_game(picks: &[u16]) -> Game {
    random_game_from(0, picks)
}

/// Strings built from the characters that move texts and PGN use, so that the readers' deeper
/// paths are reached, mixed with arbitrary characters.
fn notation_like() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "K", "M", "S", "N", "R", "B", "Q", "P", "k", "m", "s", "n", "r", "b", "q", "p", "a", "c",
        "d", "e", "f", "g", "h", "1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "x", "-", "=",
        "+", "#", "!", "?", " ", ".", "ก", "ข", "ค", "ง", "จ", "ฉ", "ช", "ญ", "๑", "๔", "๘", "ม็",
        "ม", "ร", "็", "บ", "[", "]", "\"", "{", "}", "(", ")", ";", "%", "$", "\n", "1-0", "*",
        "½", "🙂", "\u{0}",
    ]);
    prop::collection::vec(pieces, 0..40).prop_map(|v| v.concat())
}

fn some_positions() -> Vec<Position> {
    vec![
        Position::new(),
        random_game(&[3, 17, 5, 9, 11, 2, 40, 7, 1, 8, 13, 21])
            .position()
            .clone(),
        Position::from_fen("4k3/8/7p/3M~2P1/8/1M6/8/3K4 w - - 0 40", Ruleset::Standard)
            .expect("valid FEN"),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn move_reader_never_panics_on_any_string(s in any::<String>()) {
        for pos in some_positions() {
            let _ = parse_move(&pos, &s);
            let _ = parse_uci(&pos, &s);
        }
    }

    #[test]
    fn move_reader_never_panics_on_notation_like_strings(s in notation_like()) {
        for pos in some_positions() {
            match parse_move(&pos, &s) {
                Ok(m) => prop_assert!(pos.legal_moves().contains(&m)),
                Err(MoveInputError::Ambiguous { candidates, .. }) => prop_assert!(candidates.len() > 1),
                Err(e) => prop_assert!(!e.to_string().is_empty()),
            }
        }
    }

    #[test]
    fn pgn_reader_never_panics(s in notation_like(), t in any::<String>()) {
        for text in [s.as_str(), t.as_str()] {
            if let Ok(games) = read_pgns(text) {
                for g in games {
                    let _ = g.replay(Ruleset::Traditional);
                }
            }
        }
    }

    #[test]
    fn every_legal_move_reads_back_from_its_notations(
        start in any::<usize>(),
        picks in prop::collection::vec(any::<u16>(), 0..120)
    ) {
        let game = random_game_from(start, &picks);
        let pos = game.position();
        for m in pos.legal_moves().iter() {
            let san = to_san(pos, m);
            prop_assert_eq!(parse_move(pos, &san), Ok(*m), "SAN {} in {}", san, pos.fen());
            let u = uci::to_uci(m);
            prop_assert_eq!(parse_uci(pos, &u), Ok(*m));
            prop_assert_eq!(parse_move(pos, &u), Ok(*m));
            let thai = to_thai_san(pos, m);
            match parse_move(pos, &thai) {
                Ok(back) => prop_assert_eq!(back, *m),
                // ข, ค and ง are letters and files: two moves can share one Thai SAN.
                Err(MoveInputError::Ambiguous { candidates, .. }) => {
                    prop_assert!(candidates.contains(&san));
                    let same = pos.legal_moves().iter().filter(|l| to_thai_san(pos, l) == thai).count();
                    prop_assert!(same > 1, "Thai {} ambiguous in {}", thai, pos.fen());
                }
                Err(e) => prop_assert!(false, "Thai {} in {}: {}", thai, pos.fen(), e),
            }
        }
    }

    /// The explanation agrees with the move generator on every origin/target pair: none for
    /// a legal move, and a concrete reason (never the generic one) for every other.
    #[test]
    fn explanations_agree_with_legal_moves(
        start in any::<usize>(),
        picks in prop::collection::vec(any::<u16>(), 0..80)
    ) {
        let game = random_game_from(start, &picks);
        let pos = game.position();
        let legal = pos.legal_moves();
        for from in Square::all() {
            for to in Square::all() {
                let is_legal = legal.iter().any(|m| m.from == from && m.to == to);
                let why = explain_illegal(pos, from, to);
                prop_assert_eq!(why.is_none(), is_legal, "{} {}{}: {:?}", pos.fen(), from, to, why);
                prop_assert!(
                    !matches!(why, Some(IllegalMove::NoSuchMove { .. })),
                    "{} {}{}: no concrete reason", pos.fen(), from, to
                );
            }
        }
    }

    #[test]
    fn pgn_write_then_read_gives_the_same_game(
        start in any::<usize>(),
        picks in prop::collection::vec(any::<u16>(), 0..200)
    ) {
        let game = random_game_from(start, &picks);
        let text = write_pgn(&game, &PgnTags::default());
        let back = read_pgn(&text).expect("own output is readable");
        let replayed = back.replay(Ruleset::Standard).expect("own output replays").game;
        prop_assert_eq!(replayed.moves(), game.moves());
        prop_assert_eq!(replayed.position().fen(), game.position().fen());
    }
}
