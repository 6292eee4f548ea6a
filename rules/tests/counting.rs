//! Counting and draw rules of each ruleset (RULES.md), including the seeds' own examples.

use makruk::{Color, CountRequestError};
use makruk::{
    CountInfo, CountKind, DrawReason, Game, LimitReason, Move, Outcome, Position, Ruleset, Warning,
    WinReason,
};

fn game(fen: &str, rules: Ruleset) -> Game {
    Game::from_position(Position::from_fen(fen, rules).expect("valid test FEN"))
}

fn mv(g: &Game, uci: &str) -> Move {
    makruk::uci::parse_uci(g.position(), uci)
        .unwrap_or_else(|e| panic!("{uci} in {}: {e}", g.position().fen()))
}

fn play(g: &mut Game, uci: &str) {
    let m = mv(g, uci);
    g.play(&m)
        .unwrap_or_else(|e| panic!("{uci} refused in {}: {e}", g.position().fen()));
}

fn count(g: &Game) -> CountInfo {
    g.count()
        .unwrap_or_else(|| panic!("no count in {}", g.position().fen()))
}

/// Seed "How to play Makruk": White's Khun and two Ruea against a lone black Khun, 4 pieces
/// on the board: Black counts 5, 6, 7, 8 and the game is drawn when Black would reach 9.
/// Fairy-Stockfish counts pieces' honour the same way, so this holds for every ruleset with
/// pieces' honour.
#[test]
fn two_ruea_against_lone_khun_counts_5_to_8() {
    for rules in [Ruleset::Standard, Ruleset::Traditional, Ruleset::Material] {
        let mut g = game("4k3/8/8/n7/8/8/1R6/R3K3 w - - 0 1", rules);
        assert_eq!(g.count(), None, "{rules}: no count before the capture");
        play(&mut g, "a1a5"); // Black is left with a bare Khun; 4 pieces on the board
        let c = count(&g);
        assert_eq!(c.kind, CountKind::PiecesHonour);
        assert_eq!(c.counting, Color::Black);
        assert_eq!(c.started_from, 5);
        assert_eq!(c.limit, 8);
        assert_eq!(c.limit_reason, LimitReason::TwoRuea { side: Color::White });
        assert!(
            g.position().fen().contains(" 16 8 "),
            "{}",
            g.position().fen()
        );
        let black = ["e8d8", "d8c8", "c8c7", "c7d7", "d7e7"];
        let white = ["e1f1", "f1g1", "g1h1", "h1h2"];
        for (i, b) in black.iter().enumerate() {
            play(&mut g, b);
            if i < 4 {
                assert_eq!(count(&g).current, 5 + i as u32, "{rules} after {b}");
                assert_eq!(g.outcome(), None);
                play(&mut g, white[i]);
                assert_eq!(g.outcome(), None, "{rules}: not drawn at 8");
            }
        }
        assert_eq!(
            g.outcome(),
            Some(Outcome::Draw {
                reason: DrawReason::Counting
            }),
            "{rules}: drawn when Black would reach 9"
        );
    }
}

/// RULES.md FEN example: a bare black Khun against Met and Khon — one Khon: 44 moves.
#[test]
fn fen_counting_fields() {
    let p = Position::from_fen("8/3k4/6M~1/2K1S3/8/8/8/8 b - 88 8 1", Ruleset::Standard)
        .expect("valid");
    assert_eq!(p.fen(), "8/3k4/6M~1/2K1S3/8/8/8/8 b - 88 8 1");
    let c = Game::from_position(p).count().expect("count");
    assert_eq!(c.limit, 44);
    assert_eq!(c.counting, Color::Black);
    assert_eq!(c.current, 4);
    assert_eq!(c.remaining, 40);
    assert_eq!(c.limit_reason, LimitReason::OneKhon { side: Color::White });
}

/// Standard: board's honour starts by itself when the last Bia goes; the side to move counts.
#[test]
fn standard_boards_honour_is_automatic() {
    let mut g = game("1n4k1/8/8/8/4p3/4R3/8/3K4 w - - 0 1", Ruleset::Standard);
    play(&mut g, "e3e4");
    assert_eq!(g.position().fen(), "1n4k1/8/8/8/4R3/8/8/3K4 b - 128 0 1");
    let c = count(&g);
    assert_eq!(c.kind, CountKind::BoardsHonour);
    assert_eq!(c.counting, Color::Black);
    assert_eq!((c.current, c.limit), (0, 64));
    play(&mut g, "b8c6");
    assert_eq!(count(&g).current, 1);
    assert_eq!(count(&g).counting, Color::Black);
}

/// Traditional: board's honour only on request; a counting side that mates gets a draw
/// (Wikipedia seed); a mate by the other side still wins.
#[test]
fn traditional_counting_side_that_mates_draws() {
    let fen = "7k/8/6K1/8/3n4/8/8/R7 w - - 0 1";
    let mut g = game(fen, Ruleset::Traditional);
    assert_eq!(g.count(), None, "not counting until requested");
    assert_eq!(g.position().fen(), "7k/8/6K1/8/3n4/8/8/R7 w - - 0 1");
    g.start_count().expect("White may start board's honour");
    assert_eq!(g.start_count(), Err(CountRequestError::AlreadyCounting));
    assert_eq!(count(&g).counting, Color::White);
    play(&mut g, "a1a8");
    assert!(g.position().is_checkmate());
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::CountingSideMated
        })
    );
    // Without the count, the same mate wins.
    let mut g = game(fen, Ruleset::Traditional);
    play(&mut g, "a1a8");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Decisive {
            winner: Color::White,
            reason: WinReason::Checkmate
        })
    );
    // Stopped count: the mate wins again.
    let mut g = game(fen, Ruleset::Traditional);
    g.start_count().expect("start");
    g.stop_count().expect("stop");
    play(&mut g, "a1a8");
    assert!(matches!(g.outcome(), Some(Outcome::Decisive { .. })));
    // Standard: a mate is a mate.
    let mut g = game(fen, Ruleset::Standard);
    assert_eq!(
        g.start_count(),
        Err(CountRequestError::NotOnRequest(Ruleset::Standard))
    );
    play(&mut g, "a1a8");
    assert!(matches!(g.outcome(), Some(Outcome::Decisive { .. })));
}

/// Traditional: counting runs 64 moves of the requester; the FEN shows plies since the
/// request (pychess `countStarted`).
#[test]
fn traditional_count_runs_out() {
    let mut g = game("n6k/8/8/8/8/8/8/N6K w - - 0 1", Ruleset::Traditional);
    assert_eq!(
        Game::from_position(
            Position::from_fen("n6k/8/p7/8/8/8/8/N6K w - - 0 1", Ruleset::Traditional)
                .expect("valid")
        )
        .start_count(),
        Err(CountRequestError::BiaLeft)
    );
    g.start_count().expect("start");
    let shuffle = [
        "a1b3", "a8b6", "b3a1", "b6a8", "a1c2", "a8c7", "c2a1", "c7a8",
    ];
    let mut n = 0;
    // Repetition would end the game first; look only at the count's own flag.
    while n < 129 {
        let m = mv(&g, shuffle[n % shuffle.len()]);
        g.play_on(&m).expect("legal");
        n += 1;
        let c = count(&g);
        assert_eq!(c.current, (n as u32).div_ceil(2));
        assert_eq!(makruk::counting_draw(g.position()), n > 128, "ply {n}");
    }
}

/// Material: the side with less material counts; when a capture gives the counting side
/// more material, the count passes to the other side and restarts.
#[test]
fn material_count_passes_on_capture() {
    let mut g = game("ks6/8/6n1/8/7R/2M5/8/K7 w - - 0 1", Ruleset::Material);
    play(&mut g, "c3d2");
    let c = count(&g);
    assert_eq!(c.kind, CountKind::BoardsHonour);
    assert_eq!(
        c.counting,
        Color::Black,
        "Black has less material (Ma+Khon vs Ruea+Met)"
    );
    assert_eq!(c.current, 0);
    play(&mut g, "a8a7");
    assert_eq!((count(&g).counting, count(&g).current), (Color::Black, 1));
    play(&mut g, "d2c3");
    assert_eq!((count(&g).counting, count(&g).current), (Color::Black, 1));
    play(&mut g, "g6h4"); // Black takes the Ruea and now has more material
    let c = count(&g);
    assert_eq!(c.counting, Color::White, "the count passed to White");
    assert_eq!(c.current, 0, "and restarted");
    play(&mut g, "a1b2");
    assert_eq!((count(&g).counting, count(&g).current), (Color::White, 1));
}

/// Material: equal material — the side to move counts; 64 moves, drawn on reaching 65.
#[test]
fn material_equal_side_to_move_counts_to_65() {
    let mut g = game("n6k/8/8/8/8/8/8/N6K w - - 0 1", Ruleset::Material);
    let shuffle = [
        "a1b3", "a8b6", "b3a1", "b6a8", "a1c2", "a8c7", "c2a1", "c7a8",
    ];
    let mut n = 0;
    while n < 131 {
        let m = mv(&g, shuffle[n % shuffle.len()]);
        g.play_on(&m).expect("legal");
        n += 1;
        if n == 1 {
            assert_eq!(count(&g).counting, Color::Black);
        }
        // Black counts its own moves: after Black's k-th move, k.
        let black_moves = (n / 2) as u32;
        assert_eq!(count(&g).current, black_moves, "ply {n}");
        assert_eq!(
            makruk::counting_draw(g.position()),
            black_moves >= 65,
            "ply {n}"
        );
    }
}

/// Material pieces' honour follows the seed's table: one Khon (44) before two Ma (32).
#[test]
fn material_pieces_honour_table_order() {
    let fen = "4k3/8/8/8/3r4/1N6/2S5/N3K3 w - - 0 1";
    for (rules, limit) in [(Ruleset::Standard, 32), (Ruleset::Material, 44)] {
        let mut g = game(fen, rules);
        play(&mut g, "b3d4");
        // the capture left Black bare
        assert_eq!(count(&g).limit, limit, "{rules}");
    }
}

/// Material: the 100-ply counter (no capture, no Bia move, Bia on the board) warns from
/// ply 80 and draws at 100. Fifty-move: the same counter without the Bia condition.
#[test]
fn no_progress_counter() {
    let fen79 = "4k3/8/p7/8/8/P7/8/4K3 w - - 79 60";
    let mut g = game(fen79, Ruleset::Material);
    assert!(g.warnings().is_empty());
    play(&mut g, "e1d1");
    assert_eq!(
        g.warnings(),
        vec![Warning::NoProgress {
            plies: 80,
            limit: 100
        }]
    );
    let mut g = game("4k3/8/p7/8/8/P7/8/4K3 w - - 99 60", Ruleset::Material);
    play(&mut g, "e1d1");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::FiftyMove
        })
    );
    // Standard has no such rule.
    let mut g = game("4k3/8/p7/8/8/P7/8/4K3 w - - 99 60", Ruleset::Standard);
    play(&mut g, "e1d1");
    assert_eq!(g.outcome(), None);
    assert!(g.warnings().is_empty());
    // Fifty-move: no counting, counter applies without Bia too.
    let mut g = game("4k3/8/8/8/8/8/R7/4K2r w - - 99 60", Ruleset::FiftyMove);
    play(&mut g, "e1d2");
    assert_eq!(g.count(), None);
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::FiftyMove
        })
    );
    // Material without Bia: no 100-ply rule (counting governs).
    let mut g = game("4k3/8/8/8/8/8/R7/4K2r w - - 99 60", Ruleset::Material);
    play(&mut g, "e1d2");
    assert_ne!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::FiftyMove
        })
    );
}

/// Threefold repetition, Khun against Khun, insufficient material, stalemate.
#[test]
fn other_draws() {
    let mut g = game("n6k/8/8/8/8/8/8/N6K w - - 0 1", Ruleset::FiftyMove);
    for (i, m) in [
        "a1b3", "a8b6", "b3a1", "b6a8", "a1b3", "a8b6", "b3a1", "b6a8",
    ]
    .iter()
    .enumerate()
    {
        assert_eq!(g.outcome(), None, "before move {i}");
        play(&mut g, m);
    }
    assert!(g.is_repetition());
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::Repetition
        })
    );
    assert!(g.play(&mv(&g, "a1b3")).is_err(), "no move after the end");
    assert_eq!(g.undo().map(|m| m.to.to_string()), Some("a8".to_string()));
    assert_eq!(g.outcome(), None);

    let mut g2 = game("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", Ruleset::Material);
    play(&mut g2, "e1e2");
    assert_eq!(
        g2.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::KhunVsKhun
        })
    );

    // Met against Met on the same square colour: neither side can mate.
    let p =
        Position::from_fen("4k3/8/8/8/8/2m5/8/M3K3 w - - 0 1", Ruleset::Standard).expect("valid");
    assert!(p.has_insufficient_material(Color::White));
    assert!(p.has_insufficient_material(Color::Black));
    assert_eq!(
        Game::from_position(p).outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::InsufficientMaterial
        })
    );
    // A Ruea can mate.
    let p = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", Ruleset::Standard).expect("valid");
    assert!(!p.has_insufficient_material(Color::White));
    assert!(p.has_insufficient_material(Color::Black));

    // Stalemate: Black Khun a8, White Met b6? (Met c7 and Khun b6 leave a8 no move)
    let p = Position::from_fen("k7/2M5/1K6/8/8/8/8/8 b - - 0 1", Ruleset::Standard).expect("valid");
    assert!(p.is_stalemate());
    assert_eq!(
        Game::from_position(p).outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::Stalemate
        })
    );
}

/// The count warning when few moves are left.
#[test]
fn count_nearly_out_warning() {
    let g = game("4k3/8/8/8/8/8/1R6/R3K3 b - 16 14 1", Ruleset::Standard);
    let c = count(&g);
    assert_eq!((c.current, c.limit, c.remaining), (7, 8, 1));
    assert_eq!(
        g.warnings(),
        vec![Warning::CountNearlyOut {
            counting: Color::Black,
            remaining: 1
        }]
    );
}

/// Pieces' honour: the limit is fixed when the count starts (RULES.md "The limit never
/// changes once set"); when the bare Khun then captures one of two Ruea, the limit stays 8 and
/// the count still names the rule that set it, and the number it started from stays too.
#[test]
fn limit_and_its_reason_stay_when_the_bare_khun_captures() {
    for rules in [Ruleset::Standard, Ruleset::Traditional, Ruleset::Material] {
        let mut g = game("Rk6/8/8/8/8/8/8/2R1K3 b - 16 8 1", rules);
        let before = count(&g);
        assert_eq!(
            (before.limit, before.limit_reason, before.started_from),
            (8, LimitReason::TwoRuea { side: Color::White }, 5),
            "{rules}"
        );
        play(&mut g, "b8a8");
        let after = count(&g);
        assert_eq!(after.limit, 8, "{rules}: the limit does not change");
        assert_eq!(
            after.limit_reason,
            LimitReason::TwoRuea { side: Color::White },
            "{rules}"
        );
        assert_eq!(after.limit_reason.moves(), after.limit, "{rules}");
        assert_eq!(after.started_from, 5, "{rules}");
        assert_eq!(after.current, 5, "{rules}");
    }
}
