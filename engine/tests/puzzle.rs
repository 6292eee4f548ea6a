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
    // From a self-play game of the generator (selfplay:g35:ply39 of a trial run): only
    // …Khon e6 mates (the Khun on f5 has no square), and no other move wins much.
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

#[test]
fn a_combination_wins_material() {
    // …Ruea takes the Ma on g1, the Ruea on h1 takes back, and the other Ruea takes it: a Ma
    // won (puzzle w25acl of the committed set, selfplay:g136:ply23).
    let p = find_fen("1n1mksr1/2s1n3/p1p3r1/R1Pp1p2/3P1P2/1PN4P/1S1MS3/3K2NR b - - 0 16")
        .expect("a puzzle");
    assert_eq!(p.moves, ["g6g1", "h1g1", "g8g1"]);
    assert_eq!(p.themes, [Theme::WinMaterial]);
    check_line(&p);
}

#[test]
fn a_single_saving_move_is_defend() {
    // Against two Ruea on the seventh rank only …Ma d3+ keeps the game level; every other
    // move loses at least 250 cp by our search (selfplay:g36:ply123 of a trial run).
    let p = find_fen("8/R3R3/2pk4/3p4/1P5P/2P5/1Ks2r2/4n3 b - - 4 66").expect("a puzzle");
    assert_eq!(p.moves, ["e1d3"]);
    assert_eq!(p.themes, [Theme::Defend]);
    check_line(&p);
}

/// Black to move; …Khon e6 mates.
const MATE_IN_1: &str = "7r/1s2sk2/1p1m1n1p/p1p2Kp1/P1P3P1/2N1PP2/4NMS1/7R b - - 8 24";
const MATE_IN_1_MOVE: &str = "e7e6";
/// White to move: Ruea h7+, Khun g8, Ma f6 mate (puzzle czxsxn of the committed set,
/// selfplay:g305:ply68).
const MATE_IN_2: &str = "1rs2m1R/6k1/2M~1sp1R/6p1/pnP1N3/8/1S1M4/1K6 w - - 0 39";
const MATE_IN_2_LINE: [&str; 3] = ["h8h7", "g7g8", "e4f6"];
