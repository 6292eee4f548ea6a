//! The engine in every variant of the Makruk family ([`makruk::Variant`]): self-play games
//! with every move checked by the rules crate, every level's move legal, the search's
//! principal variations legal, mates in one (Makpong's mate by a check the Khun may not step
//! out of; ASEAN's by promoting to a Ruea), Sittuyin's placement drops, the packing of drops
//! and promotions, the table key of gates and hands, and ASEAN's Khun and Bia against a bare
//! Khun played to the win. Seconds in release (the endgame test, five games at 100,000 nodes
//! a move, about half a minute), no Fairy-Stockfish needed.

use makruk::{Game, Move, Position, Ruleset, Variant};
use makruk_engine::movepick::pack;
use makruk_engine::tt::{self, NO_MOVE};
use makruk_engine::{choose_move, Engine, Level, Limits, Score};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn pos(fen: &str, v: Variant) -> Position {
    Position::from_fen_variant(fen, v).unwrap_or_else(|e| panic!("{v} {fen}: {e}"))
}

fn search(engine: &mut Engine, game: &Game, limits: &Limits) -> makruk_engine::SearchResult {
    engine.search(game, limits, &AtomicBool::new(false), &mut |_| {})
}

/// Every move of `pv` is legal in turn from the current position of `game`.
fn assert_pv_legal(game: &Game, pv: &[Move]) {
    let mut p = game.position().clone();
    for m in pv {
        assert!(
            p.is_legal(m),
            "{}: illegal {m:?} in the PV {pv:?} at {}",
            game.position().variant(),
            p.fen()
        );
        p.play_unchecked(m);
    }
}

/// Self-play from each variant's start position, to the end or 200 plies: a small node budget
/// (alternating with the levels' `choose_move` at a short budget), every move checked legal by
/// the rules crate, every principal variation legal.
#[test]
fn self_play_every_variant_plays_legal_moves() {
    for v in Variant::ALL {
        let mut game = Game::from_position(Position::start_variant(v, Ruleset::Standard));
        let mut engines = [Engine::new(4), Engine::new(4)];
        let mut rng = StdRng::seed_from_u64(7);
        let limits = Limits {
            nodes: Some(1500),
            ..Limits::default()
        };
        while game.outcome().is_none() && game.moves().len() < 200 {
            let ply = game.moves().len();
            let engine = &mut engines[ply % 2];
            let m = if ply % 7 == 3 {
                let level = Level::new((ply % 8 + 1) as u8).expect("level");
                choose_move(
                    engine,
                    &game,
                    level,
                    Duration::from_millis(3),
                    &AtomicBool::new(false),
                    &mut rng,
                )
            } else {
                let r = search(engine, &game, &limits);
                assert_pv_legal(&game, &r.pv);
                r.best
            };
            let m = m.unwrap_or_else(|| panic!("{v}: no move at {}", game.position().fen()));
            let before = game.position().fen();
            game.play(&m)
                .unwrap_or_else(|e| panic!("{v}: engine played illegal {m:?} at {before}: {e}"));
        }
        assert!(game.moves().len() >= 10, "{v}: {:?}", game.outcome());
    }
}

/// `choose_move` at every level 1–8 returns a legal move in every variant, at the start and
/// in a position a few random plies in.
#[test]
fn every_level_plays_a_legal_move_in_every_variant() {
    let mut rng = StdRng::seed_from_u64(11);
    for v in Variant::ALL {
        let mut game = Game::from_position(Position::start_variant(v, Ruleset::Standard));
        for round in 0..2 {
            for n in 1..=8 {
                let mut engine = Engine::new(2);
                let m = choose_move(
                    &mut engine,
                    &game,
                    Level::new(n).expect("level"),
                    Duration::from_millis(15),
                    &AtomicBool::new(false),
                    &mut rng,
                )
                .unwrap_or_else(|| panic!("{v} level {n}: no move"));
                assert!(
                    game.position().is_legal(&m),
                    "{v} level {n}: {m:?} at {}",
                    game.position().fen()
                );
            }
            if round == 0 {
                // Twenty plies on (Sittuyin: past its placement), spread over the legal moves.
                for i in 0..20 {
                    if game.outcome().is_some() {
                        break;
                    }
                    let moves = game.position().legal_moves();
                    let m = moves[(i * 7 + 3) % moves.len()];
                    game.play(&m).expect("legal");
                }
                assert!(game.outcome().is_none(), "{v}: {:?}", game.outcome());
            }
        }
    }
}

/// The engine's move in `fen` of `v` at a small depth; asserts it mates.
fn assert_mates(fen: &str, v: Variant) -> Move {
    let game = Game::from_position(pos(fen, v));
    let mut engine = Engine::new(4);
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let r = search(&mut engine, &game, &limits);
    let m = r.best.expect("a move");
    let after = game.position().after(&m);
    assert!(after.is_checkmate(), "{v} {fen}: {m:?} does not mate");
    assert_eq!(r.score, Score::Mate(1), "{v} {fen}");
    m
}

#[test]
fn mate_in_one_in_every_variant() {
    // Makruk, Ouk Chaktrang, Sittuyin (after its placement): the Ruea b1 mates on the eighth
    // rank while the Ruea a7 holds the seventh.
    for v in [Variant::Makruk, Variant::Cambodian, Variant::Sittuyin] {
        let m = assert_mates("7k/R7/8/8/8/8/8/1R2K3 w - - 0 1", v);
        assert_eq!(makruk::uci::to_uci_in(&m, v), "b1b8", "{v}");
    }
    // Makpong: the Khun in check may only take the checker, so any check from afar mates —
    // here the Khun e5 has eight free squares and no mate in one exists in Makruk.
    let fen = "8/8/8/4k3/8/8/8/R6K w - - 0 1";
    let m = assert_mates(fen, Variant::Makpong);
    let makruk = pos(fen, Variant::Makruk);
    assert!(makruk.is_legal(&m));
    assert!(!makruk.after(&m).is_checkmate(), "not a mate in Makruk");
    assert!(makruk
        .legal_moves()
        .iter()
        .all(|m| !makruk.after(m).is_checkmate()));
    // ASEAN: only the promotion to a Ruea mates (the Khun b6 takes a7 and b7 away).
    let m = assert_mates("k7/4P3/1K6/8/8/8/8/8 w - - 0 1", Variant::Asean);
    assert_eq!(makruk::uci::to_uci_in(&m, Variant::Asean), "e7e8r");
}

/// In Sittuyin's placement phase the engine drops a piece (legally), at every level.
#[test]
fn sittuyin_placement_drops() {
    let mut rng = StdRng::seed_from_u64(3);
    for fen in [
        Variant::Sittuyin.start_fen(),
        "8/8/4pppp/pppp4/4PPPP/PPPP4/8/R2K4[FRSSNNkfrrssnn] b - - 0 2",
        "8/2k5/4pppp/pppp4/4PPPP/PPPP4/3F4/R2K4[RSSNNfrrssnn] w - - 0 3",
    ] {
        let game = Game::from_position(pos(fen, Variant::Sittuyin));
        for n in [1, 4, 8] {
            let mut engine = Engine::new(2);
            let m = choose_move(
                &mut engine,
                &game,
                Level::new(n).expect("level"),
                Duration::from_millis(30),
                &AtomicBool::new(false),
                &mut rng,
            )
            .expect("a move");
            assert!(m.is_drop(), "{fen} level {n}: {m:?}");
            assert!(game.position().is_legal(&m), "{fen} level {n}: {m:?}");
        }
    }
}

/// Drops and promotions (ASEAN's four, Sittuyin's in place) pack to distinct values: no two
/// legal moves of a position share one, and none is `NO_MOVE`.
#[test]
fn packed_moves_are_distinct_in_every_variant() {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut below = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    let mut promotions = 0;
    let mut drops = 0;
    let mut check = |p: &Position| {
        let moves = p.legal_moves();
        let packed: HashSet<u16> = moves.iter().map(pack).collect();
        assert_eq!(packed.len(), moves.len(), "{}", p.fen());
        assert!(!packed.contains(&NO_MOVE));
        promotions += moves.iter().filter(|m| m.promotion).count();
        drops += moves.iter().filter(|m| m.is_drop()).count();
    };
    for v in Variant::ALL {
        for _ in 0..30 {
            let mut g = Game::from_position(Position::start_variant(v, Ruleset::Standard));
            while g.outcome().is_none() && g.moves().len() < 150 {
                check(g.position());
                let moves = g.position().legal_moves();
                let m = moves[below(moves.len())];
                g.play(&m).expect("legal");
            }
        }
    }
    // Positions with the moves that share squares: ASEAN's four promotions, Sittuyin's in place.
    check(&pos("k7/4P3/1K6/8/8/8/8/8 w - - 0 1", Variant::Asean));
    check(&pos("k7/8/8/8/4P3/8/8/K7 w - - 0 1", Variant::Sittuyin));
    assert!(promotions > 0 && drops > 0, "{promotions} {drops}");
}

/// The table key tells apart what the repetition key leaves out: Ouk Chaktrang's gates and
/// Sittuyin's pieces in hand.
#[test]
fn table_key_covers_gates_and_hands() {
    let with = pos(Variant::Cambodian.start_fen(), Variant::Cambodian);
    let without = pos(
        "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
        Variant::Cambodian,
    );
    assert_eq!(with.zobrist(), without.zobrist());
    assert_ne!(tt::key(&with), tt::key(&without));
    let a = pos(
        "8/8/4pppp/pppp4/4PPPP/PPPP4/8/R2K4[FRSSNNkfrrssnn] b - - 0 2",
        Variant::Sittuyin,
    );
    let b = pos(
        "8/8/4pppp/pppp4/4PPPP/PPPP4/8/R2K4[FRSSNkfrrssnn] b - - 0 2",
        Variant::Sittuyin,
    );
    assert_ne!(tt::key(&a), tt::key(&b));
}

/// Quiescence's captures (not in check) are the legal captures and promotions that do not lose
/// material, in every variant: Makpong and Ouk Chaktrang share Makruk's generator, ASEAN and
/// Sittuyin take them from the rules crate.
#[test]
fn quiescence_captures_are_the_legal_ones_in_every_variant() {
    use makruk_engine::movepick::{leaves_khun_attacked, see, Picker};
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    let mut below = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    for v in Variant::ALL {
        let mut seen = 0;
        for _ in 0..40 {
            let mut g = Game::from_position(Position::start_variant(v, Ruleset::Standard));
            while g.outcome().is_none() && g.moves().len() < 120 {
                let p = g.position().clone();
                if !p.is_check() {
                    let mut picker = Picker::captures(Vec::new(), &p);
                    let mut ours = Vec::new();
                    while let Some((m, _)) = picker.pick() {
                        if !leaves_khun_attacked(&p.after(&m)) {
                            ours.push(m);
                        }
                    }
                    let mut legal: Vec<Move> = p
                        .legal_moves()
                        .iter()
                        .copied()
                        .filter(|m| {
                            (m.is_capture() || m.promotion) && see(p.board(), m, p.turn()) >= 0
                        })
                        .collect();
                    let key = |m: &Move| (m.from, m.to, m.role, m.promotion);
                    ours.sort_by_key(key);
                    legal.sort_by_key(key);
                    assert_eq!(ours, legal, "{v} {}", p.fen());
                    seen += ours.len();
                }
                let moves = p.legal_moves();
                let caps: Vec<Move> = moves.iter().copied().filter(|m| m.is_capture()).collect();
                let m = if !caps.is_empty() && below(2) == 0 {
                    caps[below(caps.len())]
                } else {
                    moves[below(moves.len())]
                };
                g.play(&m).expect("legal");
            }
        }
        assert!(seen > 100, "{v}: {seen}");
    }
}

/// ASEAN: Khun and Bia against a bare Khun is won as in chess when the stronger Khun leads
/// its Bia (no count runs while a Bia is on the board; after the promotion to a Ruea, 16
/// moves). Each position was judged won by Fairy-Stockfish 11.1 (`UCI_Variant asean`, `go
/// depth 22`: +53 pawns or more for White). Our engine plays both sides (100,000 nodes a
/// move) and White must win. Against a bare Khun the evaluation drops the Khuns'
/// piece-square weights (`evaluate::side_terms`); this checks that the ending is still won
/// with that rule (engine/README.md, "Counting endgames").
#[test]
fn asean_khun_and_bia_against_a_bare_khun_is_won() {
    for fen in [
        "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1",
        "4k3/8/4K3/4P3/8/8/8/8 b - - 0 1",
        "8/3k4/8/3K4/3P4/8/8/8 b - - 0 1",
        "8/8/3k4/8/8/2K5/2P5/8 w - - 0 1",
        "6k1/8/8/8/8/4K3/4P3/8 w - - 0 1",
    ] {
        let mut game = Game::from_position(pos(fen, Variant::Asean));
        let mut engine = Engine::new(16);
        let limits = Limits {
            nodes: Some(100_000),
            ..Limits::default()
        };
        while game.outcome().is_none() && game.moves().len() < 200 {
            let r = search(&mut engine, &game, &limits);
            game.play(&r.best.expect("a move")).expect("legal");
        }
        assert!(
            matches!(
                game.outcome(),
                Some(makruk::Outcome::Decisive {
                    winner: makruk::Color::White,
                    ..
                })
            ),
            "{fen}: {:?} after {} plies",
            game.outcome(),
            game.moves().len()
        );
    }
}
