//! Property tests: random legal move sequences through `Game`/`Position` under every ruleset
//! (FEN round-trip, incremental state equal to a fresh read at every step), and random text
//! into the FEN reader (never panics).

use makruk::{Color, Game, Position, Ruleset, Setup};
use proptest::prelude::*;

fn ruleset() -> impl Strategy<Value = Ruleset> {
    prop_oneof![
        Just(Ruleset::Standard),
        Just(Ruleset::Traditional),
        Just(Ruleset::Material),
        Just(Ruleset::FiftyMove),
    ]
}

const STARTS: [&str; 5] = [
    "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
    "r1smksnr/3n4/pppp1ppp/4p3/4PP2/PPPP2PP/8/RNSKMSNR w - - 0 1",
    "8/2s4N/3K4/1n6/8/4R3/6k1/8 w - - 0 1",
    "4R3/8/2Mn4/3M4/6K1/8/1N6/6k1 b - - 0 1",
    "3k4/2m5/8/4MP2/3KS3/8/8/8 w - - 0 1",
];

fn check_step(pos: &Position) -> Result<(), TestCaseError> {
    let fen = pos.fen();
    let again = Position::from_fen(&fen, pos.ruleset())
        .map_err(|e| TestCaseError::fail(format!("own FEN {fen} rejected: {e}")))?;
    prop_assert_eq!(again.fen(), fen.clone());
    prop_assert_eq!(again.zobrist(), pos.zobrist(), "incremental key in {}", fen);
    prop_assert_eq!(again.checkers(), pos.checkers());
    let setup: Setup = fen
        .parse()
        .map_err(|e| TestCaseError::fail(format!("{e}")))?;
    prop_assert_eq!(setup.fen(), fen.clone());
    let moves = pos.legal_moves();
    prop_assert_eq!(moves.len(), pos.count_legal());
    // A list refilled (the engine keeps one a ply) holds the same moves, nothing left over.
    let mut reused = Position::new().legal_moves();
    pos.legal_moves_into(&mut reused);
    prop_assert_eq!(&reused[..], &moves[..]);
    let mut a: Vec<_> = moves.iter().map(|m| (m.from, m.to)).collect();
    let mut b: Vec<_> = again.legal_moves().iter().map(|m| (m.from, m.to)).collect();
    a.sort();
    b.sort();
    prop_assert_eq!(a, b);
    for m in moves.iter() {
        prop_assert!(pos.is_legal(m));
        // A legal move never leaves the mover's Khun attacked.
        let after = pos.after(m);
        let k = after.board().khun_of(pos.turn());
        prop_assert!(k.is_some());
        if let Some(k) = k {
            prop_assert!(after.attackers_of(k, after.turn()).is_empty());
        }
    }
    prop_assert_eq!(
        pos.is_checkmate(),
        pos.is_check() && moves.is_empty(),
        "checkmate in {}",
        fen
    );
    for c in [Color::White, Color::Black] {
        let _ = pos.has_insufficient_material(c);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_games_round_trip(
        rules in ruleset(),
        start in 0..STARTS.len(),
        choices in proptest::collection::vec(any::<u32>(), 0..250),
    ) {
        let pos = Position::from_fen(STARTS[start], rules).expect("valid start");
        let mut game = Game::from_position(pos);
        for c in choices {
            check_step(game.position())?;
            let _ = game.count();
            let _ = game.outcome();
            let _ = game.warnings();
            if rules == Ruleset::Traditional {
                match c % 16 {
                    0 => { let _ = game.start_count(); }
                    1 => { let _ = game.stop_count(); }
                    _ => {}
                }
                check_step(game.position())?;
            }
            let moves = game.position().legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(c as usize / 16) % moves.len()];
            game.play_on(&m).map_err(|e| TestCaseError::fail(format!("{e}")))?;
        }
        // Undo all the way back gives the start again.
        let start_fen = game.start().fen();
        while game.undo().is_some() {}
        prop_assert_eq!(game.position().fen(), start_fen);
    }

    #[test]
    fn fen_reader_never_panics(s in "\\PC{0,100}") {
        let _ = s.parse::<Setup>();
        let _ = Position::from_fen(&s, Ruleset::Standard);
    }

    #[test]
    fn fen_like_text_never_panics(
        s in "[rnsmkpRNSMKP1-9/~]{0,70}( [wbWBx-]{0,2}( [-0-9]{0,12}){0,5})?",
        rules in ruleset(),
    ) {
        if let Ok(setup) = s.parse::<Setup>() {
            let written = setup.fen();
            let again: Setup = written.parse().expect("own output reads back");
            prop_assert_eq!(again.fen(), written);
        }
        if let Ok(p) = Position::from_fen(&s, rules) {
            let _ = p.legal_moves();
            let _ = p.fen();
            let _ = Game::from_position(p).outcome();
        }
    }
}

#[test]
fn huge_numbers_in_fen_do_not_overflow() {
    for fen in [
        "4k3/8/8/8/8/8/8/R3K3 w - - 4294967295 4294967295",
        "4k3/8/8/8/8/8/8/R3K3 b - 4294967295 4294967295 4294967295",
        "4k3/8/8/8/8/8/8/R3K3 w - 2 4294967295 1",
    ] {
        for rules in Ruleset::ALL {
            let Ok(p) = Position::from_fen(fen, rules) else {
                continue;
            };
            let mut g = Game::from_position(p);
            for _ in 0..3 {
                let _ = g.count();
                let _ = g.outcome();
                let _ = g.warnings();
                let moves = g.position().legal_moves();
                let Some(m) = moves.first().copied() else {
                    break;
                };
                g.play_on(&m).expect("legal");
            }
        }
    }
}
