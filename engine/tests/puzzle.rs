//! Puzzles (issue 24): `makruk_engine::puzzle::find` on known positions. Small node budgets,
//! so that the tests stay fast in debug builds too.

use makruk::{Game, Position, Ruleset};
use makruk_engine::puzzle::{find, is_unique, rating, FindConfig, Puzzle, Theme};
use makruk_engine::uci::parse_move;
use makruk_engine::{Engine, Limits, Score};

fn cfg() -> FindConfig {
    FindConfig {
        prefilter_nodes: 5_000,
        nodes: 40_000,
        ..FindConfig::default()
    }
}

fn find_fen(fen: &str) -> Option<Puzzle> {
    let pos = Position::from_fen(fen, Ruleset::Standard).expect("valid FEN");
    find(&mut Engine::new(4), &Game::from_position(pos), &cfg())
}

/// Plays the line move by move on the puzzle's FEN: every move legal, the solver's moves at
/// even indices, and the position after the last move checkmate when the theme says so.
fn check_line(p: &Puzzle) {
    let mut pos = Position::from_fen(&p.fen, Ruleset::Standard).expect("the puzzle's FEN");
    assert_eq!(p.fen, pos.fen(), "the FEN is written back unchanged");
    assert_eq!(p.moves.len() % 2, 1, "the line ends on a solver move");
    for text in &p.moves {
        let m = parse_move(&pos, text).unwrap_or_else(|| panic!("{text} legal in {}", pos.fen()));
        pos.play(&m).expect("legal");
    }
    assert_eq!(pos.is_checkmate(), p.themes.contains(&Theme::Mate));
    assert_eq!(p.rating, rating(p.solver_moves(), &p.themes));
    assert!((600..=2600).contains(&p.rating));
}

#[test]
fn mate_in_one_is_found() {
    // From a game of Fairy-Stockfish (rules/tests/data/games-mates-public.jsonl.gz): only
    // one move mates.
    let p = find_fen(MATE_IN_1).expect("a puzzle");
    assert_eq!(p.moves, [MATE_IN_1_MOVE]);
    assert_eq!(p.themes, [Theme::Mate, Theme::MateIn(1)]);
    assert_eq!(p.rating, 800);
    check_line(&p);
}

#[test]
fn mate_in_two_is_found() {
    let p = find_fen(MATE_IN_2).expect("a puzzle");
    assert_eq!(p.moves, MATE_IN_2_LINE);
    assert_eq!(p.themes, [Theme::Mate, Theme::MateIn(2)]);
    assert_eq!(p.solver_moves(), 2);
    assert_eq!(p.rating, 1250);
    check_line(&p);
}

#[test]
fn two_mating_moves_are_no_puzzle() {
    // Khun and Ruea against a bare Khun, no count: Kg6 and Kf7 both mate in 2.
    let fen = "7k/8/5K2/8/8/8/8/R7 w - - 0 1";
    let pos = Position::from_fen(fen, Ruleset::Standard).expect("valid FEN");
    let game = Game::from_position(pos);
    let mut engine = Engine::new(4);
    let limits = Limits {
        nodes: Some(40_000),
        ..Limits::default()
    };
    let bt = engine.best_two(&game, &limits).expect("legal moves");
    assert!(matches!(bt.best_score, Score::Mate(2)));
    assert!(matches!(bt.second, Some((_, Score::Mate(2)))));
    assert!(!is_unique(&bt));
    assert_eq!(find(&mut engine, &game, &cfg()), None);
    // Ra8 mates at once, but Ra7 mates in 2 as well.
    assert_eq!(find_fen("7k/8/6K1/8/8/8/8/R7 w - - 0 1"), None);
}

#[test]
fn the_count_makes_the_mate_unique() {
    // Khun, Ruea and Khon against a bare Khun: pieces' honour, 16 moves (32 plies), at ply
    // 30: only a mate in 2 wins in time; Khon g4 (then Rc6) is the only one.
    let counted = "6K1/8/7k/8/8/6S1/2R5/8 w - 32 30 60";
    let p = find_fen(counted).expect("a puzzle");
    assert_eq!(p.moves, ["g3g4", "h6g6", "c2c6"]);
    assert_eq!(p.themes, [Theme::Mate, Theme::MateIn(2), Theme::Counting]);
    assert_eq!(p.rating, 1550);
    check_line(&p);
    // Without the count, slower mates are as good: no puzzle.
    assert_eq!(find_fen("6K1/8/7k/8/8/6S1/2R5/8 w - - 0 60"), None);
}

#[test]
fn an_equal_position_is_no_puzzle() {
    assert_eq!(
        find_fen("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"),
        None
    );
}

#[test]
fn themes_round_trip() {
    let all = [
        Theme::Mate,
        Theme::MateIn(1),
        Theme::MateIn(5),
        Theme::WinMaterial,
        Theme::Counting,
        Theme::Defend,
    ];
    for t in all {
        assert_eq!(Theme::from_key(&t.key()), Some(t));
    }
    assert_eq!(Theme::MateIn(2).key(), "mateIn2");
    assert_eq!(Theme::WinMaterial.key(), "winMaterial");
    assert_eq!(Theme::from_key("mateIn0"), None);
    assert_eq!(Theme::from_key("mateIn6"), None);
    assert_eq!(Theme::from_key("fork"), None);
}

#[test]
fn ratings_follow_the_formula() {
    assert_eq!(rating(1, &[Theme::Mate, Theme::MateIn(1)]), 800);
    assert_eq!(rating(3, &[Theme::Mate, Theme::MateIn(3)]), 1500);
    assert_eq!(rating(1, &[Theme::Defend]), 1250);
    assert_eq!(
        rating(5, &[Theme::Mate, Theme::MateIn(5), Theme::Counting]),
        2300
    );
    assert_eq!(rating(3, &[Theme::WinMaterial]), 1600);
}

/// Black to move; …Rd1 mates (fsf-mates:s4-engine-g5:ply47 of the generator).
const MATE_IN_1: &str = "3m1s1r/3s1k2/4ppp1/2p1n3/7P/m~P1rn2P/6S1/2K1M2R b - - 4 24";
const MATE_IN_1_MOVE: &str = "d3d1";
/// White to move: Rg8+ Kd8 (forced) Rxd8 mate (fsf-mates:s4-engine-g28:ply40).
const MATE_IN_2: &str = "r1k5/1sm2M~2/3pNN1p/pp6/1P6/2PKP2P/8/R1S1MSR1 w - - 1 21";
const MATE_IN_2_LINE: [&str; 3] = ["g1g8", "c7d8", "g8d8"];
