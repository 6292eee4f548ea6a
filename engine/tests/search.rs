//! Behaviour of the search through the public API: mates found at their distance, legal
//! moves only, the rules' draws (and only those) in the score.

use makruk::{Game, Outcome, Position, Ruleset};
use makruk_engine::{Engine, Limits, Score};
use std::sync::atomic::AtomicBool;

fn game(fen: &str, ruleset: Ruleset) -> Game {
    Game::from_position(Position::from_fen(fen, ruleset).expect("valid FEN"))
}

fn search(game: &Game, limits: &Limits) -> makruk_engine::SearchResult {
    Engine::new(16).search(game, limits, &AtomicBool::new(false), &mut |_| {})
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// White to move mates in `n` (moves). Each position was found by a random search over
/// small endgames and verified with Fairy-Stockfish 11.1 (`go depth 12` reports `score mate
/// n`); our engine, searching `2n + 3` plies, must report the same distance and its
/// principal variation must end in checkmate. (Four plies beyond the mate's `2n − 1`, three
/// before: the search's pruning and reductions follow the evaluation, and with the network of
/// 2026-12-07 the last position shows mate in 5 at depth 8 and mate in 3 from depth 9.)
const MATES: [(&str, i32); 9] = [
    ("8/3N4/8/3R4/8/8/8/5K1k w - - 0 1", 1),
    ("8/8/2R5/8/8/4K3/1R6/3k3m w - - 0 1", 1),
    ("5p2/2R5/8/8/8/k1K5/4S3/8 w - - 0 1", 1),
    ("k2K4/2R3m1/8/5R2/8/8/8/8 w - - 0 1", 2),
    ("8/7k/1R6/5m2/5K2/8/R7/8 w - - 0 1", 2),
    ("4K3/6k1/8/8/8/m7/5R2/R7 w - - 0 1", 2),
    ("8/5k2/7K/6S1/8/8/3R4/8 w - - 0 1", 3),
    ("8/8/8/3K4/8/k1S3R1/8/8 w - - 0 1", 3),
    ("8/8/1k5m/8/K1R5/8/8/4R3 w - - 0 1", 3),
];

#[test]
fn finds_mates_at_their_distance() {
    // With either evaluation: the hand-written one, and level 8's network (where a side has
    // more than a bare Khun).
    for ((fen, n), network) in MATES.iter().flat_map(|m| [(*m, false), (*m, true)]) {
        let g = game(fen, Ruleset::Standard);
        let mut engine = Engine::new(16);
        engine.set_network(network);
        let r = engine.search(
            &g,
            &depth(2 * n as u32 + 3),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        assert_eq!(r.score, Score::Mate(n), "{fen}");
        assert_eq!(r.pv.len(), 2 * n as usize - 1, "{fen}: pv {:?}", r.pv);
        let mut line = g.clone();
        for m in &r.pv {
            line.play(m).expect("the pv is legal");
        }
        assert!(line.position().is_checkmate(), "{fen}: pv does not mate");
    }
}

#[test]
fn mated_side_sees_its_mate() {
    // Black to move: the Khun h8 has only g8 (the white Khun covers g7 and h7), then Ruea a8
    // mates: mated in 1 (Fairy-Stockfish, UCI_Variant makruk: `score mate -1`).
    let g = game("7k/8/6K1/8/8/8/8/R7 b - - 0 1", Ruleset::Standard);
    let r = search(&g, &depth(4));
    assert_eq!(r.score, Score::Mate(-1));
}

/// A small xorshift generator for reproducible random playouts.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[test]
fn never_plays_an_illegal_move() {
    // Positions from random playouts under every ruleset (captures favoured, so endgames and
    // counts appear); the engine's move must be legal in each.
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut engine = Engine::new(8);
    let mut searched = 0;
    for ruleset in Ruleset::ALL {
        for _ in 0..12 {
            let mut g = Game::new(ruleset);
            let plies = rng.below(160);
            for _ in 0..plies {
                if g.outcome().is_some() {
                    break;
                }
                if ruleset == Ruleset::Traditional && rng.below(10) == 0 {
                    let _ = g.start_count();
                }
                let moves = g.position().legal_moves();
                let caps: Vec<_> = moves.iter().filter(|m| m.is_capture()).collect();
                let m = if !caps.is_empty() && rng.below(2) == 0 {
                    *caps[rng.below(caps.len())]
                } else {
                    moves[rng.below(moves.len())]
                };
                g.play(&m).expect("legal");
            }
            let limits = Limits {
                depth: Some(1 + rng.below(5) as u32),
                nodes: Some(20_000),
                ..Limits::default()
            };
            // Either evaluation, in turn on one engine (one table).
            engine.set_network(rng.below(2) == 0);
            let r = engine.search(&g, &limits, &AtomicBool::new(false), &mut |_| {});
            match r.best {
                Some(m) => {
                    assert!(
                        g.position().is_legal(&m),
                        "{ruleset} {}: {m:?}",
                        g.position().fen()
                    );
                    let mut p = g.position().clone();
                    for m in &r.pv {
                        assert!(p.is_legal(m), "pv move {m:?} illegal in {}", p.fen());
                        p.play_unchecked(m);
                    }
                    searched += 1;
                }
                None => assert!(!g.position().has_legal_move()),
            }
        }
    }
    assert!(searched > 30);
}

#[test]
fn the_count_running_out_is_a_draw_but_mate_comes_first() {
    // Pieces' honour, Ruea and Met against a bare Khun, the count at its last number (limit
    // 16 moves, ply 32): White cannot mate in one, so every line ends drawn: score 0.
    let g = game("4k3/8/8/8/8/8/8/R2MK3 w - 32 32 60", Ruleset::Standard);
    assert!(g.outcome().is_none());
    let r = search(&g, &depth(6));
    assert_eq!(r.score, Score::Cp(0), "{:?}", g.count());
    // The same count with a mate in one on the board: the mate wins.
    let g = game("7k/8/6K1/8/8/8/8/R7 w - 32 32 60", Ruleset::Standard);
    assert!(g.outcome().is_none());
    let r = search(&g, &depth(4));
    assert_eq!(r.score, Score::Mate(1));
}

#[test]
fn traditional_mate_by_the_counting_side_is_a_draw() {
    // White (Ruea and Met against a Ruea) has a mate in one (Ruea a8, as `standard` shows)
    // but counts a requested board's honour: that mate only draws.
    let fen = "7k/8/6K1/8/8/8/7r/R2M4 w - - 0 30";
    let standard = search(&game(fen, Ruleset::Standard), &depth(3));
    assert_eq!(standard.score, Score::Mate(1));
    let mut g = game(fen, Ruleset::Traditional);
    g.start_count().expect("a count may start");
    let r = search(&g, &depth(3));
    assert!(!matches!(r.score, Score::Mate(n) if n > 0), "{:?}", r.score);
}

#[test]
fn repetition_is_a_draw_for_the_side_that_needs_it() {
    // The rules' threefold repetition at the root: the Khun go back and forth; the third time
    // the position arises the game is drawn, and the search (which sees the game's history)
    // scores the repeating move as 0.
    let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", Ruleset::Standard);
    for uci in ["e1f1", "e8f8", "f1e1", "f8e8", "e1f1", "e8f8", "f1e1"] {
        let m = makruk_engine::uci::parse_move(g.position(), uci).expect("legal");
        g.play(&m).expect("legal");
    }
    // Black to move: f8e8 repeats the start position a third time.
    let back = makruk_engine::uci::parse_move(g.position(), "f8e8").expect("legal");
    let mut after = g.clone();
    after.play(&back).expect("legal");
    assert!(matches!(after.outcome(), Some(Outcome::Draw { .. })));
    // A Ruea down, Black takes the draw.
    let r = search(&g, &depth(4));
    assert_eq!(r.best, Some(back));
    assert_eq!(r.score, Score::Cp(0));
}

/// The node budgets (a move) at which the counting endings are played out. One play-out is
/// chaotic in its budget: a few nodes more or less give another tree, another move, and now
/// and then another result (with the lazy move picker the engine failed to mate the naive
/// defence in time at 100,000 nodes, a draw, and mated it at 80,000, 120,000 and 150,000;
/// engine/README.md, "A lazy move picker"), so each ending is played at up to three budgets
/// and the tests ask for the expected result at most of them.
const BUDGETS: [u64; 3] = [60_000, 100_000, 160_000];

/// Whether `expected` holds for the outcome of [`play_out`] at most of the [`BUDGETS`]
/// (it stops as soon as the majority is known).
fn in_most_budgets(fen: &str, naive_defence: bool, expected: fn(&Option<Outcome>) -> bool) -> bool {
    let majority = BUDGETS.len() / 2 + 1;
    let (mut yes, mut no) = (0, 0);
    for &n in &BUDGETS {
        if expected(&play_out(fen, naive_defence, n)) {
            yes += 1;
        } else {
            no += 1;
        }
        if yes == majority || no == majority {
            break;
        }
    }
    yes >= majority
}

/// White won.
fn white_won(o: &Option<Outcome>) -> bool {
    matches!(
        o,
        Some(Outcome::Decisive {
            winner: makruk::Color::White,
            ..
        })
    )
}

/// Drawn (here: the count ran out).
fn drawn(o: &Option<Outcome>) -> bool {
    matches!(o, Some(Outcome::Draw { .. }))
}

/// Plays `fen` (`standard`, White to move) to its end: White is our engine (`nodes` a move);
/// Black is our engine too, or with `naive_defence` a Khun that steps toward the nearest
/// corner (the defence that loses fastest). One engine for both sides, as in a self-play
/// match. Returns the outcome.
fn play_out(fen: &str, naive_defence: bool, nodes: u64) -> Option<Outcome> {
    let mut g = game(fen, Ruleset::Standard);
    let mut engine = Engine::new(16);
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let corner = |sq: makruk::Square| {
        let (f, r) = (i32::from(sq.file()), i32::from(sq.rank()));
        f.min(7 - f) + r.min(7 - r)
    };
    while g.outcome().is_none() && g.moves().len() < 100 {
        let m = if naive_defence && g.position().turn() == makruk::Color::Black {
            let moves = g.position().legal_moves();
            *moves.iter().min_by_key(|m| corner(m.to)).expect("a move")
        } else {
            engine
                .search(&g, &limits, &AtomicBool::new(false), &mut |_| {})
                .best
                .expect("a move")
        };
        g.play(&m).expect("legal");
    }
    g.outcome()
}

#[test]
fn the_stronger_side_mates_before_the_count_runs_out() {
    // Khun and Ruea against a bare Khun, pieces' honour (limit 16 moves) with 12 or 13 of
    // Black's counted moves left: a mate in 10–12 moves is there, and the engine must play
    // it against its own defence. Each of these was drawn by the count while the evaluation
    // shrank the advantage over the count's last ten moves (engine/README.md, "Counting
    // endgames").
    for fen in [
        "8/8/k7/8/8/3R4/8/5K2 w - 32 8 60",
        "6k1/8/5R2/8/1K6/8/8/8 w - 32 8 60",
        "4K3/8/8/8/8/8/4R3/6k1 w - 32 8 60",
        "K7/8/8/R7/8/8/8/5k2 w - 32 6 60",
    ] {
        assert!(in_most_budgets(fen, false, white_won), "{fen}");
    }
}

#[test]
fn the_weaker_side_defends_until_the_count_runs_out() {
    // The same ending with 8 or 9 counted moves left: a Khun that runs to the corner is mated
    // in time, the engine's defence reaches the end of the count (a draw).
    for fen in [
        "8/8/k7/8/8/3R4/8/5K2 w - 32 16 60",
        "4K3/8/8/8/8/8/4R3/6k1 w - 32 16 60",
        "K7/8/8/R7/8/8/8/5k2 w - 32 14 60",
    ] {
        assert!(
            in_most_budgets(fen, true, white_won),
            "{fen}: the naive defence should lose"
        );
        assert!(
            in_most_budgets(fen, false, drawn),
            "{fen}: the engine's defence should reach the count's end"
        );
    }
}

#[test]
fn the_stronger_side_mates_before_the_no_progress_rule() {
    // `fifty-move`: 17 moves left before the no-progress draw, a mate in 10–12 there. These
    // were drawn while the evaluation shrank the advantage over the rule's last twenty plies.
    for fen in [
        "6k1/8/5R2/8/1K6/8/8/8 w - - 66 60",
        "4K3/8/8/8/8/8/4R3/6k1 w - - 68 60",
        "8/8/k7/8/8/3R4/8/5K2 w - - 70 60",
    ] {
        let mut g = game(fen, Ruleset::FiftyMove);
        let mut engine = Engine::new(16);
        let limits = Limits {
            nodes: Some(100_000),
            ..Limits::default()
        };
        while g.outcome().is_none() && g.moves().len() < 100 {
            let r = engine.search(&g, &limits, &AtomicBool::new(false), &mut |_| {});
            g.play(&r.best.expect("a move")).expect("legal");
        }
        assert!(
            matches!(
                g.outcome(),
                Some(Outcome::Decisive {
                    winner: makruk::Color::White,
                    ..
                })
            ),
            "{fen}: {:?}",
            g.outcome()
        );
    }
}
