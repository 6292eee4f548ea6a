//! Counting and draw rules of each ruleset (docs/RULES.md, the "Ruleset" sections), including the
//! seeds' own examples.

use makruk::{Color, CountAction, CountRequestError, Role};
use makruk::{
    CountInfo, CountKind, DrawReason, Game, LimitReason, Move, Outcome, Position, Ruleset, Warning,
    WinReason,
};

fn game(fen: &str, rules: Ruleset) -> Game {
    Game::from_position(Position::from_fen(fen, rules).expect("valid test FEN"))
}

fn mv(g: &Game, uci: &str) -> Move {
    makruk::parse_uci(g.position(), uci)
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
        if rules == Ruleset::Material {
            // No Bia: board's honour runs already, for Black (less material).
            let c = count(&g);
            assert_eq!(
                (c.kind, c.counting, c.current),
                (CountKind::BoardsHonour, Color::Black, 0)
            );
        } else {
            assert_eq!(g.count(), None, "{rules}: no count before the capture");
        }
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

/// The FEN example of docs/RULES.md "Notation": a bare black Khun against Met and Khon — one Khon:
/// 44 moves.
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

/// Traditional: the side that asked for a count is kept as a side, not read back from the
/// ply. A FEN with a counting ply holds a requested count, asked for by the side that was to
/// move that many plies ago; stopping it names that side, and so does a request in the game.
#[test]
fn traditional_requester_is_the_side_that_asked() {
    for (fen, requester) in [
        ("r3k3/8/8/8/8/8/8/R3K3 w - 128 3 10", Color::Black),
        ("r3k3/8/8/8/8/8/8/R3K3 w - 128 4 10", Color::White),
        ("r3k3/8/8/8/8/8/8/R3K3 b - 128 3 10", Color::White),
    ] {
        let mut g = game(fen, Ruleset::Traditional);
        assert_eq!(g.position().fen(), fen, "the count fields are kept");
        assert_eq!(count(&g).counting, requester, "{fen}");
        let reply = if g.position().turn() == Color::White {
            "a1a2"
        } else {
            "a8a7"
        };
        play(&mut g, reply);
        assert_eq!(count(&g).counting, requester, "{fen}: after a move");
        g.stop_count().expect("a requested count runs");
        let stop = g.events().last().copied().expect("the stop is recorded");
        assert_eq!(
            (stop.action, stop.by, stop.ply),
            (CountAction::Stop, requester, 1),
            "{fen}"
        );
        assert_eq!(g.count(), None, "{fen}: stopped");
        g.start_count().expect("the side to move may ask again");
        let start = g.events().last().copied().expect("the start is recorded");
        assert_eq!(start.by, g.position().turn());
        assert_eq!(count(&g).counting, g.position().turn());
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

/// Material: equal material — the side to move counts; 64 moves, drawn on reaching 65. No Bia is
/// left in the start position, so the count runs from it: White, to move, counts (docs/RULES.md
/// "Ruleset `material`": "equal material: the side to move"), 1 on its first move, and says 65 on
/// its 65th move (ply 129), which draws.
#[test]
fn material_equal_side_to_move_counts_to_65() {
    let mut g = game("n6k/8/8/8/8/8/8/N6K w - - 0 1", Ruleset::Material);
    let shuffle = [
        "a1b3", "a8b6", "b3a1", "b6a8", "a1c2", "a8c7", "c2a1", "c7a8",
    ];
    let c = count(&g);
    assert_eq!(
        (c.kind, c.counting, c.current),
        (CountKind::BoardsHonour, Color::White, 0)
    );
    let mut n = 0;
    while n < 131 {
        let m = mv(&g, shuffle[n % shuffle.len()]);
        g.play_on(&m).expect("legal");
        n += 1;
        // White counts its own moves: after White's k-th move (ply 2k − 1) and after the
        // reply (ply 2k), k.
        let white_moves = (n as u32).div_ceil(2);
        let c = count(&g);
        assert_eq!(c.counting, Color::White, "ply {n}");
        assert_eq!(c.current, white_moves, "ply {n}");
        assert_eq!(
            makruk::counting_draw(g.position()),
            white_moves >= 65,
            "ply {n}"
        );
    }
}

/// One expected count at one ply: (kind, counting side, current number, limit in moves).
type Expected = Option<(CountKind, Color, u32, u32)>;

const BH: CountKind = CountKind::BoardsHonour;
const PH: CountKind = CountKind::PiecesHonour;
const W: Color = Color::White;
const B: Color = Color::Black;

/// Walks `moves` from `fen` under `material` and checks the count at every ply (`expected[i]`
/// after `i` moves; `remaining` = limit − current, 0 past the limit), and that the FEN written at every ply
/// reads back to the same FEN and the same count.
fn walk_material(fen: &str, moves: &[&str], expected: &[Expected]) -> Game {
    assert_eq!(expected.len(), moves.len() + 1, "one expectation per ply");
    let mut g = game(fen, Ruleset::Material);
    for (ply, want) in expected.iter().enumerate() {
        if ply > 0 {
            let m = mv(&g, moves[ply - 1]);
            g.play_on(&m).expect("legal");
        }
        let got = g.count();
        let at = format!("ply {ply} ({})", g.position().fen());
        assert_eq!(
            got.map(|c| (c.kind, c.counting, c.current, c.limit)),
            *want,
            "{at}"
        );
        if let Some(c) = got {
            assert_eq!(c.remaining, c.limit.saturating_sub(c.current), "{at}");
        }
        let written = g.position().fen();
        let again = Position::from_fen(&written, Ruleset::Material).expect("own FEN reads");
        assert_eq!(again.fen(), written, "{at}: FEN round-trip");
        assert_eq!(
            makruk::count_info(&again).map(|c| (
                c.kind,
                c.counting,
                c.current,
                c.limit,
                c.remaining
            )),
            got.map(|c| (c.kind, c.counting, c.current, c.limit, c.remaining)),
            "{at}: the count read back from the FEN"
        );
        assert_eq!(
            makruk::counting_draw(&again),
            makruk::counting_draw(g.position()),
            "{at}"
        );
    }
    g
}

/// Material: the side with less material captures the last Bia itself. From that ply on the
/// count is there at every ply — 0 until the counting side's first move without Bia, then the
/// number it said on its last move — and it draws when Black says 65 (ply 131), not before.
#[test]
fn material_count_at_every_ply_when_the_counting_side_takes_the_last_bia() {
    // Black Ma (3) against White Ruea (5): Black counts.
    let fen = "7k/8/1n6/8/P7/8/8/R6K b - - 0 1";
    let mut moves = vec!["b6a4"]; // Black takes the last Bia
    let black = ["a4b6", "b6a4"];
    let white = ["a1a2", "a2a1"];
    for i in 0..65 {
        moves.push(white[i % 2]);
        moves.push(black[i % 2]);
    }
    // After ply p ≥ 1 Black has made ⌊(p − 1)/2⌋ moves without Bia on the board.
    let mut expected: Vec<Expected> = vec![None];
    for p in 1..=moves.len() as u32 {
        expected.push(Some((BH, B, (p - 1) / 2, 64)));
    }
    let g = walk_material(fen, &moves, &expected);
    assert_eq!(g.moves().len(), 131);
    assert_eq!(
        g.position().fen(),
        "7k/8/1n6/8/8/8/R7/7K w - 128 129 67",
        "65 said, just past the limit"
    );
    assert!(makruk::counting_draw(g.position()));
    // Black said 64 at ply 129 and White replied: not drawn yet.
    assert!(!makruk::counting_draw(&g.positions()[130]));
    // The ply after the capture, in the FEN: Black counts, has not said a number yet.
    assert_eq!(g.positions()[1].fen(), "7k/8/8/8/n7/8/8/R6K w - 128 0 2");
}

/// Material, ply by ply: the count runs from a start position without Bia (Black, less material,
/// not to move: 0); a capture by the counting side that leaves it with equal material keeps the
/// count with it and counts on (docs/RULES.md "Ruleset `material`": it passes only on *more*); then
/// with equal material the side counting stays the one that counted; a capture that leaves Black a
/// bare Khun starts pieces' honour (3 pieces, one Ruea: limit 16, Black says 4 next).
#[test]
fn material_count_at_every_ply_through_equal_material_to_pieces_honour() {
    let moves = [
        "h1g1", // W
        "b8b4", // B 1
        "g1h1", // W
        "b4d4", // B 2: Ruea takes the Met, 5 against 5
        "a1a3", // W
        "d4d5", // B 3
        "a3a5", // W
        "h8g8", // B 4
        "a5d5", // W takes the Ruea: Black is a bare Khun
        "g8f8", // B 4 (pieces' honour: 3 pieces, counts from 4)
        "h1g1", // W
        "f8e8", // B 5
    ];
    let expected = [
        Some((BH, B, 0, 64)),
        Some((BH, B, 0, 64)),
        Some((BH, B, 1, 64)),
        Some((BH, B, 1, 64)),
        Some((BH, B, 2, 64)),
        Some((BH, B, 2, 64)),
        Some((BH, B, 3, 64)),
        Some((BH, B, 3, 64)),
        Some((BH, B, 4, 64)),
        Some((PH, B, 3, 16)),
        Some((PH, B, 4, 16)),
        Some((PH, B, 4, 16)),
        Some((PH, B, 5, 16)),
    ];
    let g = walk_material("1r5k/8/8/8/3M4/8/8/R6K w - - 0 1", &moves, &expected);
    let c = count(&g);
    assert_eq!(c.started_from, 4);
    assert_eq!(c.limit_reason, LimitReason::OneRuea { side: W });
}

/// Material, ply by ply: the count passes on a capture that leaves the counting side with
/// more material, and the new counting side restarts from 0 on its turn.
#[test]
fn material_count_at_every_ply_passes_and_restarts() {
    let moves = [
        "c3d2", "a8a7", "d2c3", "g6h4", // Black's Ma takes the Ruea: 11 against 4
        "a1b2", "h4g6", "b2a1", "g6h4", "a1b2",
    ];
    let expected = [
        Some((BH, B, 0, 64)),
        Some((BH, B, 0, 64)),
        Some((BH, B, 1, 64)),
        Some((BH, B, 1, 64)),
        Some((BH, W, 0, 64)),
        Some((BH, W, 1, 64)),
        Some((BH, W, 1, 64)),
        Some((BH, W, 2, 64)),
        Some((BH, W, 2, 64)),
        Some((BH, W, 3, 64)),
    ];
    walk_material("ks6/8/6n1/8/7R/2M5/8/K7 w - - 0 1", &moves, &expected);
}

/// Material, ply by ply: the last Bia taken with equal material left — the side to move (not
/// the capturer) counts.
#[test]
fn material_equal_material_after_the_last_bia_side_to_move_counts() {
    let moves = ["c3a4", "a8b6", "a4c3", "b6a8"];
    let expected = [
        None,
        Some((BH, B, 0, 64)),
        Some((BH, B, 1, 64)),
        Some((BH, B, 1, 64)),
        Some((BH, B, 2, 64)),
    ];
    walk_material("n6k/8/8/8/p7/2N5/8/7K w - - 0 1", &moves, &expected);
}

/// Material, pieces' honour from a FEN without counting fields (seed: two Ruea, 4 pieces on
/// the board): the count runs from the start, the lone Khun says 5, 6, 7, 8 on its moves, and
/// the game is drawn when it says 9 — whether it is to move in the FEN or not.
#[test]
fn material_pieces_honour_from_a_fen_without_counting_fields() {
    let black = ["e8d8", "d8e8", "e8d8", "d8e8", "e8d8"];
    let white = ["e1f1", "f1e1", "e1f1", "f1e1"];
    // Black to move.
    let mut moves = Vec::new();
    let mut expected = vec![Some((PH, B, 4, 8))];
    for i in 0..5 {
        moves.push(black[i]);
        expected.push(Some((PH, B, 5 + i as u32, 8)));
        if i < 4 {
            moves.push(white[i]);
            expected.push(Some((PH, B, 5 + i as u32, 8)));
        }
    }
    let g = walk_material("4k3/8/8/8/8/8/1R6/R3K3 b - - 0 1", &moves, &expected);
    assert_eq!(count(&g).started_from, 5);
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::Counting
        })
    );
    assert_eq!(
        Game::from_position(g.positions()[8].clone()).outcome(),
        None
    );
    // White to move: the count is shown at 4 until Black's first move, which says 5.
    let moves = ["e1f1", "e8d8", "f1e1", "d8e8"];
    let expected = [
        Some((PH, B, 4, 8)),
        Some((PH, B, 4, 8)),
        Some((PH, B, 5, 8)),
        Some((PH, B, 5, 8)),
        Some((PH, B, 6, 8)),
    ];
    walk_material("4k3/8/8/8/8/8/1R6/R3K3 w - - 0 1", &moves, &expected);
}

/// Material FEN limits: a count in a FEN with unpromoted Bia on the board is dropped (no count
/// runs while Bia remain); a board's honour ply in another form is rewritten (`128 3` with the
/// counting side to move: it said 2, written `128 4`); Khun against Khun has no count.
#[test]
fn material_fen_counting_fields_are_normalised() {
    let p =
        Position::from_fen("4k3/8/p7/8/8/P7/8/R3K3 w - 128 5 1", Ruleset::Material).expect("valid");
    assert_eq!(p.fen(), "4k3/8/p7/8/8/P7/8/R3K3 w - - 0 1");
    let p =
        Position::from_fen("n6k/8/8/8/8/8/8/R6K b - 128 3 9", Ruleset::Material).expect("valid");
    assert_eq!(p.fen(), "n6k/8/8/8/8/8/8/R6K b - 128 4 9");
    let c = makruk::count_info(&p).expect("count");
    assert_eq!((c.counting, c.current, c.remaining), (B, 2, 62));
    let p = Position::from_fen("7k/8/8/8/8/8/8/7K w - 16 3 1", Ruleset::Material).expect("valid");
    assert_eq!(p.fen(), "7k/8/8/8/8/8/8/7K w - - 0 1");
    // Standard reads the same fields as Fairy-Stockfish does, unchanged.
    let p =
        Position::from_fen("n6k/8/8/8/8/8/8/R6K b - 128 3 9", Ruleset::Standard).expect("valid");
    assert_eq!(p.fen(), "n6k/8/8/8/8/8/8/R6K b - 128 3 9");
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

/// Pieces' honour: the limit is fixed when the count starts (docs/RULES.md "Ruleset `standard`":
/// "The limit never changes once set"); when the bare Khun then captures one of two Ruea, the limit
/// stays 8 and the count still names the rule that set it, and the number it started from stays
/// too.
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
        assert_eq!(after.limit_reason.moves(rules), after.limit, "{rules}");
        assert_eq!(after.started_from, 5, "{rules}");
        assert_eq!(after.current, 5, "{rules}");
    }
}

/// A human counter for the `material` ruleset, written from docs/RULES.md "Ruleset `material`"
/// alone and kept as (kind, counting side, number said, limit): used to check [`Game::count`] at
/// every ply of random games.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Counter {
    kind: CountKind,
    side: Color,
    said: u32,
    limit: u32,
}

/// The seed's material values, in half-points (Ruea 5, Ma 3, Khon 2.5, Met / Bia-ngai 2).
fn seed_material(p: &Position, c: Color) -> u32 {
    let n = |r| p.board().by_piece(c, r).count();
    10 * n(Role::Ruea) + 6 * n(Role::Ma) + 5 * n(Role::Khon) + 4 * n(Role::Met)
}

/// The seed's pieces' honour table: the chasing side `c`'s pieces give the limit.
fn seed_pieces_limit(p: &Position, c: Color) -> u32 {
    let n = |r| p.board().by_piece(c, r).count();
    match (n(Role::Ruea), n(Role::Khon), n(Role::Ma)) {
        (r, _, _) if r >= 2 => 8,
        (1, _, _) => 16,
        (0, k, _) if k >= 2 => 22,
        (0, 1, _) => 44,
        (0, 0, m) if m >= 2 => 32,
        _ => 64,
    }
}

/// A count starting in `p` (the first position without Bia, or one where a side has just
/// been left a bare Khun): pieces' honour from the pieces on the board, else board's honour
/// for the side with less material (equal: the side to move), nothing said yet.
fn counter_starts(p: &Position) -> Option<Counter> {
    if p.board().by_role(Role::Bia).any() || p.board().occupied().count() == 2 {
        return None;
    }
    if let Some(bare) = [W, B].into_iter().find(|&c| p.is_bare(c)) {
        return Some(Counter {
            kind: PH,
            side: bare,
            said: p.board().occupied().count(),
            limit: seed_pieces_limit(p, bare.other()),
        });
    }
    let (w, b) = (seed_material(p, W), seed_material(p, B));
    let side = if w < b {
        W
    } else if b < w {
        B
    } else {
        p.turn()
    };
    Some(Counter {
        kind: BH,
        side,
        said: 0,
        limit: 64,
    })
}

/// The human counter after `mover` played from `before` to `after`.
fn counter_after(c: Option<Counter>, before: &Position, after: &Position) -> Option<Counter> {
    let mover = before.turn();
    let captured = after.board().occupied().count() < before.board().occupied().count();
    let Some(c) = c else {
        return counter_starts(after);
    };
    if after.board().occupied().count() == 2 {
        return None;
    }
    if c.kind == BH && (after.is_bare(W) || after.is_bare(B)) {
        return counter_starts(after);
    }
    if mover != c.side {
        return Some(c);
    }
    let said = c.said + 1;
    if c.kind == BH
        && captured
        && seed_material(after, c.side) > seed_material(after, c.side.other())
    {
        return Some(Counter {
            side: c.side.other(),
            said: 0,
            ..c
        });
    }
    Some(Counter { said, ..c })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 200, ..Default::default() })]

    /// Material: at every ply of random games the count is the human counter's — present
    /// from the first position without Bia, the side, the number said on its last move, the
    /// limit, and the draw once the number passes the limit (unless mated).
    #[test]
    fn material_count_is_the_human_counters_at_every_ply(
        start in 0..5usize,
        choices in proptest::collection::vec(0..1000usize, 0..300),
    ) {
        let starts = [
            "r3k3/1p6/2n5/8/8/5S2/1P6/R3K3 w - - 0 1",
            "2s1k3/8/1n1p4/3R4/2p5/1S6/8/4K2m b - - 0 1",
            "8/2s4N/3K4/1n6/8/4R3/6k1/8 w - - 0 1",
            "4R3/8/2Mn4/3M4/6K1/8/1N6/6k1 b - - 0 1",
            "3k4/2m5/8/4MP2/3KS3/8/8/8 w - - 0 1",
        ];
        let mut g = game(starts[start], Ruleset::Material);
        let mut human = counter_starts(g.position());
        for (ply, choice) in choices.into_iter().enumerate() {
            let got = g.count();
            proptest::prop_assert_eq!(
                got.map(|c| (c.kind, c.counting, c.current, c.limit)),
                human.map(|h| (h.kind, h.side, h.said, h.limit)),
                "ply {} {}", ply, g.position().fen()
            );
            proptest::prop_assert_eq!(
                makruk::counting_draw(g.position()),
                human.is_some_and(|h| h.said > h.limit) && !g.position().is_checkmate(),
                "ply {} {}", ply, g.position().fen()
            );
            let moves = g.position().legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[choice % moves.len()];
            let before = g.position().clone();
            g.play_on(&m).expect("legal");
            human = counter_after(human, &before, g.position());
        }
    }
}
