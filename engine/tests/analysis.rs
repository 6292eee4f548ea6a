//! Game analysis (`makruk_engine::analysis`): lichess's formulas against values computed by
//! hand and by an independent port of lila's Scala (list windows and all), the side-to-move
//! bias removal, and the analysis of constructed games — a hung Ruea, a missed mate in 1,
//! counts that limit a mate or run out, a count not started — plus determinism and the
//! edge cases (no move, a game already over).

use makruk::{parse_move, Color, CountKind, Game, Outcome, Position, Role, Ruleset};
use makruk_engine::analysis::{
    advice, analyse, analyse_moves, bias_cp, game_accuracy, judge_game_with_bias, move_accuracy,
    remove_bias, win_percent, winning_chances, Advice, Analysis, CountNote, Eval, Judgement,
    MateSequence, PlyEval, Reason, DEFAULT_NODES,
};
use makruk_engine::{Engine, Limits, Score};
use std::sync::atomic::AtomicBool;

fn close(a: f64, b: f64, eps: f64) -> bool {
    (a - b).abs() <= eps
}

fn game(fen: &str, ruleset: Ruleset, moves: &[&str]) -> Game {
    let mut g = Game::from_position(Position::from_fen(fen, ruleset).expect("valid FEN"));
    for text in moves {
        let m = parse_move(g.position(), text).expect("a legal move");
        g.play(&m).expect("legal");
    }
    g
}

fn run(g: &Game) -> Analysis {
    analyse(&mut Engine::new(16), g, DEFAULT_NODES, &mut |_| {})
}

#[test]
fn win_percent_is_lilas() {
    assert_eq!(win_percent(0), 50.0);
    assert!(close(win_percent(1000), 97.544_743_634, 1e-6));
    assert!(close(win_percent(-1000), 2.455_256_366, 1e-6));
    assert!(close(win_percent(300), 75.112_550_094, 1e-6));
    // Clamped at ±1000 cp.
    assert_eq!(win_percent(5000), win_percent(1000));
    assert_eq!(win_percent(-5000), win_percent(-1000));
    // Winning chances are not clamped first, and are symmetric.
    assert!(winning_chances(5000) > winning_chances(1000));
    assert!(close(winning_chances(-60), -0.110_015_297, 1e-6));
    assert!(close(winning_chances(123), -winning_chances(-123), 1e-12));
    // A mate is ±1000 cp for win%.
    assert_eq!(Eval::Mate(3).win_percent(), win_percent(1000));
    assert_eq!(Eval::Mate(-1).win_percent(), win_percent(-1000));
    assert_eq!(
        Eval::Checkmate {
            winner: Color::Black
        }
        .win_percent(),
        win_percent(-1000)
    );
}

#[test]
fn move_accuracy_is_lilas() {
    assert_eq!(move_accuracy(60.0, 60.0), 100.0);
    assert_eq!(move_accuracy(50.0, 70.0), 100.0);
    assert!(close(move_accuracy(70.0, 50.0), 41.016_818_741, 1e-6));
    assert!(close(move_accuracy(55.0, 50.0), 80.815_299_920, 1e-6));
    assert_eq!(move_accuracy(100.0, 0.0), 0.0);
}

#[test]
fn cp_advice_thresholds() {
    let j =
        |b: i32, a: i32, mover: Color| advice(Eval::Cp(b), Eval::Cp(a), mover).map(|x| x.judgement);
    // Winning chances: 0 → −0.110 (drop 0.110), −0.182, −0.217, −0.502.
    assert_eq!(j(0, -20, Color::White), None);
    assert_eq!(j(0, -60, Color::White), Some(Judgement::Inaccuracy));
    assert_eq!(j(0, -100, Color::White), Some(Judgement::Inaccuracy));
    assert_eq!(j(0, -120, Color::White), Some(Judgement::Mistake));
    assert_eq!(j(0, -300, Color::White), Some(Judgement::Blunder));
    // Black's drop is White's rise.
    assert_eq!(j(0, 300, Color::Black), Some(Judgement::Blunder));
    assert_eq!(j(0, -300, Color::Black), None);
    // Far ahead a drop of 400 cp is little in winning chances.
    assert_eq!(j(1600, 1200, Color::White), None);
    assert_eq!(
        advice(Eval::Cp(0), Eval::Cp(-300), Color::White),
        Some(Advice {
            judgement: Judgement::Blunder,
            mate: None
        })
    );
}

#[test]
fn mate_advice_is_lilas() {
    let a = |b: Eval, af: Eval, mover: Color| advice(b, af, mover);
    let lost = |j| {
        Some(Advice {
            judgement: j,
            mate: Some(MateSequence::Lost),
        })
    };
    let created = |j| {
        Some(Advice {
            judgement: j,
            mate: Some(MateSequence::Created),
        })
    };
    // A lost mate: judged by the eval after (above 999 inaccuracy, above 700 mistake).
    assert_eq!(
        a(Eval::Mate(3), Eval::Cp(500), Color::White),
        lost(Judgement::Blunder)
    );
    assert_eq!(
        a(Eval::Mate(3), Eval::Cp(800), Color::White),
        lost(Judgement::Mistake)
    );
    assert_eq!(
        a(Eval::Mate(3), Eval::Cp(1200), Color::White),
        lost(Judgement::Inaccuracy)
    );
    assert_eq!(
        a(Eval::Mate(2), Eval::Mate(-4), Color::White),
        lost(Judgement::Blunder)
    );
    assert_eq!(
        a(Eval::Mate(-3), Eval::Cp(0), Color::Black),
        lost(Judgement::Blunder)
    );
    // A mate created against the mover: judged by the eval before.
    assert_eq!(
        a(Eval::Cp(0), Eval::Mate(-2), Color::White),
        created(Judgement::Blunder)
    );
    assert_eq!(
        a(Eval::Cp(-800), Eval::Mate(-2), Color::White),
        created(Judgement::Mistake)
    );
    assert_eq!(
        a(Eval::Cp(-1200), Eval::Mate(-2), Color::White),
        created(Judgement::Inaccuracy)
    );
    assert_eq!(
        a(Eval::Cp(0), Eval::Mate(2), Color::Black),
        created(Judgement::Blunder)
    );
    // Slower mates, mates kept, and the mate given are not judged (lila's MateDelayed).
    assert_eq!(a(Eval::Mate(2), Eval::Mate(5), Color::White), None);
    assert_eq!(
        a(
            Eval::Mate(1),
            Eval::Checkmate {
                winner: Color::White
            },
            Color::White
        ),
        None
    );
    assert_eq!(a(Eval::Mate(-2), Eval::Mate(-1), Color::White), None);
}

#[test]
fn game_accuracy_matches_an_independent_port_of_lila() {
    let cps = |v: &[i32]| v.iter().map(|&c| Eval::Cp(c)).collect::<Vec<_>>();
    // Two moves: White blunders (0 → −300 cp), Black keeps it.
    let acc = game_accuracy(Color::White, &cps(&[0, -300, -300]));
    assert!(close(acc.white.expect("white moved"), 32.398_104_253, 1e-6));
    assert_eq!(acc.black, Some(100.0));
    // 22 moves (windows of 2) and 45 moves (windows of 4), from either side first.
    let seq = [
        0, -30, 20, -250, -240, -600, -580, 300, 280, 250, 260, -50, -40, 100, 90, 80, 70, -900,
        -880, -870, -860, -1200, -1100,
    ];
    let acc = game_accuracy(Color::White, &cps(&seq));
    assert!(close(acc.white.unwrap(), 45.356_071_191, 1e-6), "{acc:?}");
    assert!(close(acc.black.unwrap(), 95.560_779_779, 1e-6), "{acc:?}");
    let acc = game_accuracy(Color::Black, &cps(&seq));
    assert!(close(acc.white.unwrap(), 99.047_815_669, 1e-6), "{acc:?}");
    assert!(close(acc.black.unwrap(), 55.006_058_147, 1e-6), "{acc:?}");
    let long: Vec<i32> = (0..46)
        .map(|i: i32| ((i * 37) % 200 - 100) * (i % 7))
        .collect();
    let acc = game_accuracy(Color::White, &cps(&long));
    assert!(close(acc.white.unwrap(), 62.927_385_414, 1e-6), "{acc:?}");
    assert!(close(acc.black.unwrap(), 74.648_943_112, 1e-6), "{acc:?}");
    let acc = game_accuracy(Color::Black, &cps(&long));
    assert!(close(acc.white.unwrap(), 57.883_668_154, 1e-6), "{acc:?}");
    assert!(close(acc.black.unwrap(), 67.239_835_348, 1e-6), "{acc:?}");
    // No move: no accuracy.
    let acc = game_accuracy(Color::White, &cps(&[15]));
    assert_eq!((acc.white, acc.black), (None, None));
}

/// A game of `n` quiet plies from the start (the first legal move that captures nothing,
/// gives no check and repeats no position).
fn quiet_game(n: usize) -> Game {
    let mut g = Game::new(Ruleset::Standard);
    let mut seen = vec![g.position().zobrist()];
    for _ in 0..n {
        let pos = g.position().clone();
        let m = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| {
                let after = pos.after(m);
                !m.is_capture()
                    && !m.promotion
                    && !after.is_check()
                    && !seen.contains(&after.zobrist())
            })
            .expect("a quiet move");
        g.play(&m).expect("legal");
        seen.push(g.position().zobrist());
    }
    g
}

#[test]
fn bias_is_half_the_median_quiet_swing_and_removing_it_leaves_no_loss() {
    let g = quiet_game(12);
    // Evals that favour the side to move by 20 cp around a true 0: White to move +20,
    // Black to move −20 (White's view); one real mistake at ply 5 does not move the median.
    let stm = |k: usize| if k % 2 == 0 { 20 } else { -20 };
    let mut plies: Vec<PlyEval> = (0..12)
        .map(|k| PlyEval {
            before: Eval::Cp(stm(k)),
            after: Eval::Cp(stm(k + 1)),
            best: None,
        })
        .collect();
    plies[5].after = Eval::Cp(250);
    plies[6].before = Eval::Cp(250);
    assert_eq!(bias_cp(&g, &plies), 20);
    assert_eq!(remove_bias(Eval::Cp(20), Color::White, 20), Eval::Cp(0));
    assert_eq!(remove_bias(Eval::Cp(-20), Color::Black, 20), Eval::Cp(0));
    assert_eq!(remove_bias(Eval::Mate(4), Color::White, 20), Eval::Mate(4));

    let judged = judge_game_with_bias(&g, &plies, 20);
    assert_eq!(judged.summary.bias_cp, 20);
    for (k, j) in judged.plies.iter().enumerate() {
        if k != 5 && k != 6 {
            assert_eq!(j.cp_loss, 0, "ply {k}");
            assert_eq!(j.accuracy, 100.0, "ply {k}");
            assert_eq!(j.advice, None, "ply {k}");
        }
    }
    // Black's move 5 lost 230 cp: from 0 (−20 with Black to move, corrected) to +230 (+250
    // with White to move, corrected): a blunder.
    assert_eq!(judged.plies[5].cp_loss, 230);
    assert_eq!(
        judged.plies[5].advice.map(|a| a.judgement),
        Some(Judgement::Blunder)
    );
    // Without the correction every quiet move seems to lose 40 cp.
    let raw = judge_game_with_bias(&g, &plies, 0);
    assert_eq!(raw.plies[0].cp_loss, 40);
    assert_eq!(raw.plies[1].cp_loss, 40);
    assert!(raw.summary.acpl.white > judged.summary.acpl.white);
    // The same function takes any engine's evals; too few quiet plies: no correction.
    assert_eq!(bias_cp(&quiet_game(4), &plies[..4]), 0);
}

#[test]
fn a_hung_ruea_is_a_blunder_and_a_key_moment() {
    // Black's Ruea d5 and White's Ruea d1 attack each other; White plays a Bia move instead
    // of Rxd5, and Black takes the Ruea.
    let g = game(
        "4k3/8/5pp1/3r4/8/5PP1/8/3R3K w - - 0 1",
        Ruleset::Standard,
        &["f4", "Rxd1+"],
    );
    let a = run(&g);
    assert_eq!(a.plies.len(), 2);
    let p = &a.plies[0];
    assert_eq!(p.san, "f4");
    assert_eq!(p.best_uci.as_deref(), Some("d1d5"));
    assert_eq!(
        p.judged.advice.map(|x| x.judgement),
        Some(Judgement::Blunder)
    );
    assert_eq!(a.summary.counts.white.blunders, 1);
    let Eval::Cp(after) = p.eval else {
        panic!("{:?}", p.eval)
    };
    assert!(after < -300, "Black is a Ruea up: {after}");
    // The game's key moment: the best move wins the Ruea, the played one gives it away.
    let k = &a.key_moments[0];
    assert_eq!((k.ply, k.mover), (0, Color::White));
    assert_eq!(k.fen, "4k3/8/5pp1/3r4/8/5PP1/8/3R3K w - - 0 1");
    assert_eq!(k.played_san, "f4");
    assert_eq!(k.best_san, "Rxd5");
    assert_eq!(k.reason, Reason::WinsMaterial(Role::Ruea));
    assert_eq!(k.refutation, Some(Reason::WinsMaterial(Role::Ruea)));
    assert!(k.win_drop > 30.0, "{}", k.win_drop);
    // Black's capture was the engine's best: never judged.
    assert_eq!(a.plies[1].judged.advice, None);
    assert!(a.summary.accuracy.white < a.summary.accuracy.black);
}

#[test]
fn a_missed_mate_in_one_is_a_lost_mate() {
    // Ra8 mates; the black Ma b3 attacks the Ruea a1, so anything else loses it.
    let g = game(
        "7k/8/6K1/8/8/1n6/8/R7 w - - 0 1",
        Ruleset::Standard,
        &["Kf6", "Nxa1"],
    );
    let a = run(&g);
    let p = &a.plies[0];
    assert_eq!(p.eval_before, Eval::Mate(1));
    assert_eq!(p.best_san.as_deref(), Some("Ra8#"));
    let adv = p.judged.advice.expect("judged");
    assert_eq!(adv.judgement, Judgement::Blunder);
    assert_eq!(adv.mate, Some(MateSequence::Lost));
    assert_eq!(a.key_moments[0].reason, Reason::Mate(1));
}

#[test]
fn a_mate_that_ends_the_game_gets_its_exact_value_without_search() {
    let g = game(
        "7k/8/6K1/8/8/1n6/8/R7 w - - 0 1",
        Ruleset::Standard,
        &["Ra8#"],
    );
    let mut searched = 0;
    let a = analyse(&mut Engine::new(16), &g, DEFAULT_NODES, &mut |p| {
        searched = p.searched
    });
    assert_eq!(searched, 1, "only the position before the mate is searched");
    assert_eq!(
        a.plies[0].eval,
        Eval::Checkmate {
            winner: Color::White
        }
    );
    assert_eq!(a.plies[0].judged.advice, None);
    assert!(matches!(
        a.end,
        Some(Outcome::Decisive {
            winner: Color::White,
            ..
        })
    ));
    assert!(a.key_moments.is_empty());
}

#[test]
fn every_position_is_searched_once() {
    let g = quiet_game(6);
    let mut reports = Vec::new();
    let a = analyse(&mut Engine::new(16), &g, 5_000, &mut |p| reports.push(p));
    assert_eq!(reports.len(), 7);
    assert_eq!(reports.last().map(|p| (p.searched, p.total)), Some((7, 7)));
    // The search after ply k is the search before ply k + 1.
    for w in a.plies.windows(2) {
        assert_eq!(w[0].eval, w[1].eval_before);
    }
    assert_eq!(a.start_eval, Some(a.plies[0].eval_before));
}

/// King and Ruea against a bare Khun (pieces' honour, limit 16 moves) with White to move, the
/// counting ply `ply` (odd: Black has just counted).
fn krk(ply: u32) -> String {
    format!("8/6k1/8/4K3/8/8/8/R7 w - 32 {ply} 60")
}

#[test]
fn a_mate_the_count_does_not_allow_is_noted() {
    // Black has said 14 of 16: two counted moves left, so White must mate within 3 moves.
    let fen = krk(27);
    let pos = Position::from_fen(&fen, Ruleset::Standard).expect("valid");
    let count = makruk::count_info(&pos).expect("a count runs");
    assert_eq!(
        (
            count.kind,
            count.counting,
            count.limit,
            count.current,
            count.remaining
        ),
        (CountKind::PiecesHonour, Color::Black, 16, 14, 2)
    );
    // Without the count, White mates (in more than three moves: the position is far from it).
    let g = game(&fen, Ruleset::Standard, &["Ra2"]);
    let a = run(&g);
    let note = a
        .notes
        .iter()
        .find_map(|n| match *n {
            CountNote::MateBeyondCount {
                ply,
                side,
                mate_in,
                moves_left,
                kind,
            } => Some((ply, side, mate_in, moves_left, kind)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no note: {:?}", a.notes));
    assert_eq!(
        (note.0, note.1, note.3, note.4),
        (0, Color::White, 2, CountKind::PiecesHonour)
    );
    assert!(note.2 > 3, "mate in {}", note.2);
    // An independent search of the same placement without a count agrees on the distance.
    let free = Position::from_fen("8/6k1/8/4K3/8/8/8/R7 w - - 0 60", Ruleset::FiftyMove).unwrap();
    let r = Engine::new(16).search(
        &Game::from_position(free),
        &Limits {
            nodes: Some(4 * DEFAULT_NODES),
            ..Limits::default()
        },
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert!(matches!(r.score, Score::Mate(n) if n > 3), "{:?}", r.score);
    // With the count just started there is time: no note.
    let early = game(&krk(7), Ruleset::Standard, &["Ra2"]);
    assert!(
        !run(&early)
            .notes
            .iter()
            .any(|n| matches!(n, CountNote::MateBeyondCount { .. })),
        "time enough"
    );
}

#[test]
fn a_count_that_runs_out_is_noted_and_scored_a_draw() {
    // Black, bare, has said 16 of 16 and is to move: its next move draws.
    let g = game(
        "7k/8/5K2/8/8/8/8/R7 b - 32 32 60",
        Ruleset::Standard,
        &["Kg8"],
    );
    let a = run(&g);
    assert!(matches!(
        a.end,
        Some(Outcome::Draw {
            reason: makruk::DrawReason::Counting
        })
    ));
    assert_eq!(a.plies[0].eval, Eval::Cp(0));
    assert_eq!(
        a.notes.last(),
        Some(&CountNote::CountRanOut {
            ply: 1,
            counting: Color::Black,
            kind: CountKind::PiecesHonour,
            limit: 16
        })
    );
}

#[test]
fn traditional_a_count_not_started_is_noted() {
    // No Bia, Black has a Ma against White's Ruea and Ma: after White's move, Black could
    // start counting board's honour.
    let fen = "4k3/8/3n4/8/8/8/3N4/R3K3 w - - 0 1";
    let g = game(fen, Ruleset::Traditional, &["Ra2", "Ke7", "Ra3"]);
    let a = run(&g);
    let missed: Vec<_> = a
        .notes
        .iter()
        .filter(|n| matches!(n, CountNote::CountNotStarted { .. }))
        .collect();
    assert_eq!(
        missed,
        [&CountNote::CountNotStarted {
            ply: 1,
            side: Color::Black
        }],
        "once per stretch"
    );
    // When Black starts it, no note; the position is searched before and after the request.
    let mut g = game(fen, Ruleset::Traditional, &["Ra2"]);
    g.start_count().expect("Black may count");
    for text in ["Ke7", "Ra3"] {
        let m = parse_move(g.position(), text).unwrap();
        g.play(&m).unwrap();
    }
    let mut searched = 0;
    let a = analyse(&mut Engine::new(16), &g, DEFAULT_NODES, &mut |p| {
        searched = p.searched
    });
    assert!(
        a.notes
            .iter()
            .all(|n| !matches!(n, CountNote::CountNotStarted { .. })),
        "{:?}",
        a.notes
    );
    assert_eq!(searched, 5);
    // The same in the standard ruleset: nothing to start.
    let a = run(&game(fen, Ruleset::Standard, &["Ra2", "Ke7", "Ra3"]));
    assert!(a.notes.is_empty(), "{:?}", a.notes);
}

#[test]
fn the_same_game_gives_the_same_analysis() {
    let g = game(
        "4k3/8/5pp1/3r4/8/5PP1/8/3R3K w - - 0 1",
        Ruleset::Standard,
        &["f4", "Rxd1+", "Kg2", "Rd2+"],
    );
    let mut engine = Engine::new(16);
    let a = analyse(&mut engine, &g, DEFAULT_NODES, &mut |_| {});
    let b = analyse(&mut engine, &g, DEFAULT_NODES, &mut |_| {});
    let c = run(&g);
    assert_eq!(a, b);
    assert_eq!(a, c);
}

#[test]
fn no_move_and_games_already_over() {
    // No move: the start position is searched, nothing judged.
    let a = run(&Game::new(Ruleset::Standard));
    assert!(a.plies.is_empty() && a.key_moments.is_empty() && a.notes.is_empty());
    assert!(matches!(a.start_eval, Some(Eval::Cp(_))));
    assert_eq!(
        (a.summary.accuracy.white, a.summary.acpl.black),
        (None, None)
    );
    // Already mate: nothing searched.
    let mut searched = 0;
    let over = game("R6k/8/6K1/8/8/8/8/8 b - - 0 1", Ruleset::Standard, &[]);
    let a = analyse(&mut Engine::new(16), &over, DEFAULT_NODES, &mut |p| {
        searched = p.searched
    });
    assert_eq!(searched, 0);
    assert!(a.plies.is_empty() && a.start_eval.is_none());
    assert!(matches!(
        a.end,
        Some(Outcome::Decisive {
            winner: Color::White,
            ..
        })
    ));
    // Moves after the end are refused by analyse_moves' game.
    let pos = Position::from_fen("R6k/8/6K1/8/8/8/8/8 b - - 0 1", Ruleset::Standard).unwrap();
    let m = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", Ruleset::Standard)
        .unwrap()
        .legal_moves()[0];
    assert!(analyse_moves(&mut Engine::new(1), pos, &[m], 1_000, &mut |_| {}).is_err());
}

#[test]
fn a_stopped_analysis_gives_nothing_and_an_unstopped_one_the_full_result() {
    let g = game(
        "4k3/8/5pp1/3r4/8/5PP1/8/3R3K w - - 0 1",
        Ruleset::Standard,
        &["f4", "Rxd1+", "Kg2", "Rd2+"],
    );
    let mut engine = Engine::new(16);
    let stop = AtomicBool::new(false);
    let mut seen = 0;
    // Stopped after the second position's search: no half result.
    let stopped =
        makruk_engine::analysis::analyse_until(&mut engine, &g, DEFAULT_NODES, &stop, &mut |p| {
            seen = p.searched;
            if p.searched == 2 {
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        });
    assert!(stopped.is_none());
    assert_eq!(seen, 2, "positions were searched after the stop");
    // Not stopped: the same as `analyse`, the engine's table left as it was no matter.
    let never = AtomicBool::new(false);
    let full =
        makruk_engine::analysis::analyse_until(&mut engine, &g, DEFAULT_NODES, &never, &mut |_| {})
            .expect("finished");
    assert_eq!(full, run(&g));
}
