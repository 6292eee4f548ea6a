//! The other variants of the Makruk family against the cases of Fairy-Stockfish's own Python
//! tests (`test.py` of Fairy-Stockfish, commit c19b5f6: `get_fen`, `legal_moves`, `get_san`,
//! `has_insufficient_material`, each with the default `countStarted`), and the variant API.

use makruk::uci::to_uci_in;
use makruk::{san, Position, Ruleset, Variant};

fn pos(variant: Variant, fen: &str) -> Position {
    Position::from_fen_variant(fen, variant).unwrap_or_else(|e| panic!("{variant} {fen}: {e}"))
}

/// The FEN after playing `moves` (UCI) from `fen`, as `get_fen` gives it.
fn fen_after(variant: Variant, fen: &str, moves: &[&str]) -> String {
    let mut p = pos(variant, fen);
    for uci in moves {
        let m = makruk::parse_uci(&p, uci).unwrap_or_else(|e| panic!("{uci} in {p:?}: {e}"));
        p.play(&m).expect("legal");
    }
    p.fen()
}

fn legal(p: &Position) -> Vec<String> {
    p.legal_moves()
        .iter()
        .map(|m| to_uci_in(m, p.variant()))
        .collect()
}

#[test]
fn names_start_positions_and_the_default() {
    for v in Variant::ALL {
        let p = Position::start_variant(v, Ruleset::Standard);
        assert_eq!(p.variant(), v);
        assert_eq!(v.name().parse::<Variant>(), Ok(v));
        if v == Variant::Sittuyin {
            // Fairy-Stockfish writes the hand in its own order of pieces.
            assert_eq!(
                p.fen(),
                "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRRNNkssfrrnn] w - - 0 1"
            );
        } else {
            assert_eq!(p.fen(), v.start_fen());
        }
    }
    // Makruk stays the default; a ruleset applies to Makruk only.
    assert_eq!(Position::new().variant(), Variant::Makruk);
    assert_eq!(
        Position::start_variant(Variant::Makruk, Ruleset::Traditional).ruleset(),
        Ruleset::Traditional
    );
    assert_eq!(
        Position::start_variant(Variant::Asean, Ruleset::Traditional).ruleset(),
        Ruleset::Standard
    );
}

#[test]
fn makpong_insufficient_material() {
    for (fen, expected) in [
        ("8/8/8/4k2K/5m~2/4m~3/8/8 w - 128 8 58", (true, false)),
        ("k7/n7/8/8/8/8/8/K7 w - - 0 1", (true, false)),
        ("k7/8/8/8/8/8/8/K7 w - - 0 1", (true, true)),
    ] {
        let p = pos(Variant::Makpong, fen);
        let got = (
            p.has_insufficient_material(makruk::Color::White),
            p.has_insufficient_material(makruk::Color::Black),
        );
        assert_eq!(got, expected, "{fen}");
    }
}

#[test]
fn asean_counting_and_promotion() {
    let a = Variant::Asean;
    let cases: [(&str, &str, &str); 5] = [
        (
            "4k3/3r4/2K5/8/3R4/8/8/8 w - - 0 1",
            "d4d7",
            "4k3/3R4/2K5/8/8/8/8/8 b - 32 0 1",
        ),
        (
            "4k3/3r4/2K5/8/3R4/1P6/8/8 w - - 0 1",
            "d4d7",
            "4k3/3R4/2K5/8/8/1P6/8/8 b - - 0 1",
        ),
        (
            "8/2P1k3/2K5/8/8/8/8/8 w - - 0 1",
            "c7c8b",
            "2B5/4k3/2K5/8/8/8/8/8 b - 88 0 1",
        ),
        (
            "8/8/4K3/3Q4/1k1N4/5b2/8/8 w - - 0 1",
            "d4f3",
            "8/8/4K3/3Q4/1k6/5N2/8/8 b - 128 0 1",
        ),
        (
            "3Q4/4P3/4K3/3Q4/1k6/8/8/8 w - - 0 1",
            "e7e8q",
            "3QQ3/8/4K3/3Q4/1k6/8/8/8 b - - 0 1",
        ),
    ];
    for (fen, m, expected) in cases {
        // test.py asks without the promoted markers (`showPromoted` false).
        assert_eq!(
            fen_after(a, fen, &[m]).replace('~', ""),
            expected,
            "{fen} {m}"
        );
    }
    // Four promotions for each Bia move to the last rank, named by their letter.
    let p = pos(a, "8/2P1k3/2K5/8/8/8/8/8 w - - 0 1");
    let promotions: Vec<String> = legal(&p).into_iter().filter(|u| u.len() == 5).collect();
    assert_eq!(promotions, ["c7c8r", "c7c8n", "c7c8b", "c7c8q"]);
    let m = makruk::parse_uci(&p, "c7c8n").expect("legal");
    assert_eq!(san::to_san(&p, &m), "c8=N+");
}

#[test]
fn cambodian_special_moves_and_counting() {
    let c = Variant::Cambodian;
    // The Met's jump cannot capture, and the Khun cannot jump out of check.
    let start = Position::start_variant(c, Ruleset::Standard);
    let mut p = start.clone();
    for uci in ["b1d2", "g8e7", "d2e4", "d6d5", "e4d6"] {
        let m = makruk::parse_uci(&p, uci).expect("legal");
        p.play(&m).expect("legal");
    }
    let l = legal(&p);
    for jump in ["d8d6", "e8g7", "e8c7"] {
        assert!(!l.iter().any(|u| u == jump), "{jump} in {l:?}");
    }
    // From the start the Khun (d1) may jump to b2 and f2; the Met (e1) may not: e3 is taken.
    let l = legal(&start);
    for jump in ["d1b2", "d1f2"] {
        assert!(l.iter().any(|u| u == jump), "{jump} not in {l:?}");
    }
    assert!(!l.iter().any(|u| u == "e1e3"));
    // The Met jumps over a piece to an empty square.
    let p = pos(
        c,
        "rnsmksnr/8/pppppppp/8/8/PPPP1PPP/8/RNSKMSNR w DEde - 0 1",
    );
    assert!(legal(&p).iter().any(|u| u == "e1e3"));
    let cases: [(&str, &str, &str); 8] = [
        (
            "8/3k4/8/2K1S1P1/8/8/8/8 w - - 0 1",
            "g5g6m",
            "8/3k4/6M~1/2K1S3/8/8/8/8 b - 86 8 1",
        ),
        (
            "8/2K3k1/5m2/4S1S1/8/8/8/8 w - 128 97 1",
            "e5f6",
            "8/2K3k1/5S2/6S1/8/8/8/8 b - 42 8 1",
        ),
        (
            "3k4/2m5/8/4MP2/3KS3/8/8/8 w - - 0 1",
            "f5f6m",
            "3k4/2m5/5M~2/4M3/3KS3/8/8/8 b - 126 0 1",
        ),
        (
            "3k4/2m5/5M~2/4M3/3KS3/8/8/8 w - 126 0 33",
            "d4d5",
            "3k4/2m5/5M~2/3KM3/4S3/8/8/8 b - 126 1 33",
        ),
        (
            "3k4/2m5/5M~2/4M3/3KS3/8/8/8 w - 126 36 1",
            "d4d5",
            "3k4/2m5/5M~2/3KM3/4S3/8/8/8 b - 126 37 1",
        ),
        // The Khun loses its jump when an enemy Ruea moves to its file or rank, blockers or not.
        (
            "rnsmk1nr/4s3/pppppppp/8/8/PPPPPPPP/R7/1NSKMSNR w DEde - 2 2",
            "a2e2",
            "rnsmk1nr/4s3/pppppppp/8/8/PPPPPPPP/4R3/1NSKMSNR b DEd - 3 2",
        ),
        (
            "1nsmksnr/r7/pppppppp/8/8/PPPPPPPP/2SN4/R2KMSNR b DEde - 3 2",
            "a7d7",
            "1nsmksnr/3r4/pppppppp/8/8/PPPPPPPP/2SN4/R2KMSNR w Ede - 4 3",
        ),
        (
            "rnsmksnr/8/1ppppppp/8/8/1PPPPPPP/8/RNSKMSNR w DEde - 0 1",
            "a1a8",
            "Rnsmksnr/8/1ppppppp/8/8/1PPPPPPP/8/1NSKMSNR b DEd - 0 1",
        ),
    ];
    for (fen, m, expected) in cases {
        assert_eq!(fen_after(c, fen, &[m]), expected, "{fen} {m}");
    }
    for (fen, expected) in [
        (
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde 0 0 1",
            (false, false),
        ),
        (
            "1ns1ksn1/r6r/pppmpppp/3p4/8/PPPPPPPP/RK2N2R/1NS1MS2 w Ee - 6 5",
            (false, false),
        ),
    ] {
        let p = pos(c, fen);
        let got = (
            p.has_insufficient_material(makruk::Color::White),
            p.has_insufficient_material(makruk::Color::Black),
        );
        assert_eq!(got, expected, "{fen}");
    }
}

#[test]
fn sittuyin_placement_promotion_and_draws() {
    let s = Variant::Sittuyin;
    let start = Position::start_variant(s, Ruleset::Standard);
    let m = makruk::parse_uci(&start, "R@a1").expect("a Ruea drop on the first rank");
    assert!(m.is_drop());
    assert_eq!(san::to_san(&start, &m), "R@a1");
    // While pieces are in hand only drops are legal; a Ruea only on the first rank.
    let l = legal(&start);
    assert!(l.iter().all(|u| u.contains('@')), "{l:?}");
    assert!(!l.iter().any(|u| u == "R@a2"));
    assert!(l.iter().any(|u| u == "N@a2"));
    for (fen, uci, expected) in [
        (
            "3rr3/1kn3n1/1ss1p1pp/1pPpP3/6PP/p3KN2/2SSFN2/3R3R[] b - - 0 14",
            "c6c5",
            "Scxc5",
        ),
        (
            "7R/1r6/3k1np1/3s2N1/3s3P/4n3/6p1/2R3K1[] w - - 2 55",
            "h4h4f",
            "h4=F",
        ),
        ("k7/2K3P1/8/4P3/8/8/8/1R6[] w - - 0 1", "e5f6f", "e5f6=F"),
    ] {
        let p = pos(s, fen);
        let m = makruk::parse_uci(&p, uci).unwrap_or_else(|e| panic!("{uci}: {e}"));
        assert_eq!(san::to_san(&p, &m), expected, "{fen} {uci}");
    }
    // An in-place promotion captures nothing.
    let p = pos(s, "8/2k5/8/4P3/4P1N1/5K2/8/8[] w - - 0 1");
    let m = makruk::parse_uci(&p, "e5e5f").expect("legal");
    assert!(m.promotion && !m.is_capture() && !m.is_drop());
    // Stalemate due to optional promotion: a draw.
    let p = pos(s, "1k4PK/3r4/8/8/8/8/8/8[] w - - 0 1");
    assert!(p.is_promotion_stalemate());
    let game = makruk::Game::from_position(p);
    assert!(matches!(game.outcome(), Some(makruk::Outcome::Draw { .. })));
    for (fen, expected) in [
        (
            "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1",
            (false, false),
        ),
        ("k7/8/8/8/8/8/8/K7[] w - - 0 1", (true, true)),
        ("k6P/8/8/8/8/8/8/K7[] w - - 0 1", (true, true)),
        ("k6P/8/8/8/8/8/8/K6p[] w - - 0 1", (false, false)),
        ("k7/8/8/8/8/8/8/KFF5[] w - - 0 1", (false, true)),
        ("k7/8/8/8/8/8/8/KS6[] w - - 0 1", (false, true)),
    ] {
        let p = pos(s, fen);
        let got = (
            p.has_insufficient_material(makruk::Color::White),
            p.has_insufficient_material(makruk::Color::Black),
        );
        assert_eq!(got, expected, "{fen}");
    }
    // A Khun missing from board and hand is refused, as Fairy-Stockfish's validate_fen does.
    assert!(Position::from_fen_variant(
        "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[FRRSSNNkfrrssnn] w - - 0 1",
        s
    )
    .is_err());
}

#[test]
fn moves_are_read_in_each_variants_notation() {
    let s = Position::start_variant(Variant::Sittuyin, Ruleset::Standard);
    for text in ["R@a1", "r@a1"] {
        let m = makruk::parse_move(&s, text).expect("a drop");
        assert_eq!(to_uci_in(&m, Variant::Sittuyin), "R@a1");
    }
    let a = pos(Variant::Asean, "8/2P1k3/2K5/8/8/8/8/8 w - - 0 1");
    for (text, uci) in [
        ("c8=N", "c7c8n"),
        ("c8=N+", "c7c8n"),
        ("c7c8b", "c7c8b"),
        ("c8=Q", "c7c8q"),
    ] {
        let m = makruk::parse_move(&a, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(to_uci_in(&m, Variant::Asean), uci, "{text}");
    }
    let p = pos(
        Variant::Sittuyin,
        "7R/1r6/3k1np1/3s2N1/3s3P/4n3/6p1/2R3K1[] w - - 2 55",
    );
    let m = makruk::parse_move(&p, "h4=F").expect("a promotion in place");
    assert_eq!(to_uci_in(&m, Variant::Sittuyin), "h4h4f");
    // Plain Makruk-style input still reads in the other variants.
    let c = Position::start_variant(Variant::Cambodian, Ruleset::Standard);
    let m = makruk::parse_move(&c, "Kb2").expect("the Khun's jump");
    assert_eq!(to_uci_in(&m, Variant::Cambodian), "d1b2");
    let m = makruk::parse_move(&c, "e3e4").expect("a Bia move");
    assert_eq!(to_uci_in(&m, Variant::Cambodian), "e3e4");
}

#[test]
fn pgn_of_a_variant_game_reads_back() {
    let mut game = makruk::Game::from_position(Position::start_variant(
        Variant::Sittuyin,
        Ruleset::Standard,
    ));
    for text in ["R@a1", "R@h8", "K@d2"] {
        let m = makruk::parse_move(game.position(), text).expect("legal");
        game.play(&m).expect("legal");
    }
    let text = makruk::pgn::write_pgn(&game, &makruk::pgn::PgnTags::default());
    assert!(text.contains("[Variant \"Sittuyin\"]"), "{text}");
    assert!(text.contains("1. R@a1 R@h8 2. K@d2"), "{text}");
    let read = makruk::pgn::read_pgn(&text).expect("reads");
    let moves = read.replay_moves(Ruleset::Standard).expect("replays");
    assert_eq!(moves, game.moves());
    assert!(makruk::analysis_url(game.position())
        .starts_with("https://www.pychess.org/analysis/sittuyin?fen="));
}

/// A refused Ouk Chaktrang first-move jump names why (issue 25): the jump is gone, the Khun is
/// in check, a jump never captures, the target holds one's own piece, or the Khun would land
/// attacked; the same jumps are legal while allowed.
#[test]
fn ouk_chaktrangs_refused_jumps_are_explained() {
    use makruk::{parse_move, IllegalMove, MoveInputError, OukJumpBar, Role};
    let why = |fen: &str, text: &str| match parse_move(&pos(Variant::Cambodian, fen), text) {
        Err(MoveInputError::Illegal(why)) => why,
        other => panic!("{text} in {fen}: {other:?}"),
    };
    let bar = |fen: &str, text: &str| match why(fen, text) {
        IllegalMove::OukJump {
            why, piece, from, ..
        } => (piece.role, from.to_string(), why),
        other => panic!("{text} in {fen}: {other:?}"),
    };
    let start = Variant::Cambodian.start_fen();
    let start_ok = pos(Variant::Cambodian, start);
    for text in ["Kb2", "d1f2"] {
        assert!(parse_move(&start_ok, text).is_ok(), "{text} from the start");
    }
    // Gates gone (the FEN's castling field empty).
    let moved = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1";
    assert_eq!(
        bar(moved, "Kb2"),
        (Role::Khun, "d1".into(), OukJumpBar::Used)
    );
    assert_eq!(
        bar(moved, "d1f2"),
        (Role::Khun, "d1".into(), OukJumpBar::Used)
    );
    let open = "rnsmksnr/8/pppppppp/8/8/PPPP1PPP/8/RNSKMSNR w - - 0 1";
    assert_eq!(bar(open, "Me3"), (Role::Met, "e1".into(), OukJumpBar::Used));
    // In check from the Ruea on d2.
    let check = "rnsmk1nr/8/pppppppp/8/8/PPPP1PPP/3r4/RNSKMSNR w DEde - 0 1";
    assert_eq!(
        bar(check, "Kf2"),
        (Role::Khun, "d1".into(), OukJumpBar::InCheck)
    );
    // A black Khon on b2 (no check): the Khun's jump there would capture.
    let capture = "rnsmksnr/8/ppppppp1/8/8/PPPPPPPP/1s6/RNSKMSNR w DEde - 0 1";
    assert_eq!(
        bar(capture, "Kxb2"),
        (Role::Khun, "d1".into(), OukJumpBar::Capture)
    );
    // The Met's jump onto its own Bia.
    assert!(matches!(
        why(start, "Me3"),
        IllegalMove::OwnPieceOnTarget { piece, .. } if piece.role == Role::Bia
    ));
    // The Khun would land on f2, attacked by the Ruea on f5.
    let attacked = "rnsmksn1/8/pppppppp/5r2/8/PPPPP1PP/8/RNSKMSNR w DEde - 0 1";
    assert!(matches!(
        why(attacked, "d1f2"),
        IllegalMove::LeavesKhunInCheck { attacker, .. } if attacker.role == Role::Ruea
    ));
    // Not a jump's shape: Makruk's reason.
    assert!(matches!(
        why(start, "d1c3"),
        IllegalMove::CannotMoveThatWay { .. }
    ));
}

/// ASEAN's promotion letters (issue 25): a letter other than R, N, B, Q on a move to the last
/// rank, and a letter on a Bia move that does not promote, are named as ASEAN's rules; the
/// letter is read in either case; a move to the last rank without one lists the choices.
#[test]
fn aseans_promotion_letters_are_explained() {
    use makruk::{parse_move, IllegalMove, MoveInputError};
    let p = pos(Variant::Asean, "4k3/P7/1P6/8/8/8/8/4K3 w - - 0 1");
    for text in ["a7a8k", "a8=K", "a8=M", "a7a8m"] {
        assert!(
            matches!(
                parse_move(&p, text),
                Err(MoveInputError::Illegal(
                    IllegalMove::AseanPromotionLetter { .. }
                ))
            ),
            "{text}: {:?}",
            parse_move(&p, text)
        );
    }
    for text in ["b6b7q", "b7=Q"] {
        assert!(
            matches!(
                parse_move(&p, text),
                Err(MoveInputError::Illegal(
                    IllegalMove::AseanNotAPromotion { .. }
                ))
            ),
            "{text}: {:?}",
            parse_move(&p, text)
        );
    }
    for (text, uci) in [
        ("a8=Q", "a7a8q"),
        ("a8=q", "a7a8q"),
        ("a7a8Q", "a7a8q"),
        ("a8=N", "a7a8n"),
        ("a7a8=Q", "a7a8q"),
        ("a7-a8=r", "a7a8r"),
        ("a8Q", "a7a8q"),
        ("a7a8=B+", "a7a8b"),
    ] {
        let m = parse_move(&p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(to_uci_in(&m, Variant::Asean), uci, "{text}");
    }
    // A capture that promotes, written with its file.
    let capture = pos(Variant::Asean, "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    let m = parse_move(&capture, "axb8q").expect("axb8q");
    assert_eq!(to_uci_in(&m, Variant::Asean), "a7b8q");
    assert!(matches!(
        parse_move(&p, "a8"),
        Err(MoveInputError::Ambiguous { candidates, .. }) if candidates.len() == 4
    ));
    assert!(parse_move(&p, "b7").is_ok());
}

/// `Position::null_move` (an engine's pass) hands the turn over and changes nothing else: the
/// same position as the FEN with the other side to move, in every variant (Ouk Chaktrang's
/// gates kept); none in check.
#[test]
fn a_null_move_only_hands_the_turn_over() {
    let cases = [
        (
            Variant::Makruk,
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
        ),
        (
            Variant::Makpong,
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
        ),
        (
            Variant::Cambodian,
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1",
        ),
        (
            Variant::Asean,
            "rnbqkbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBQKBNR w - - 0 1",
        ),
        (
            Variant::Sittuyin,
            "1ks2rrs/4f3/n2npppp/pppp4/4PPPP/PPPPFN2/N2S1K2/R5SR[] w - - 0 9",
        ),
    ];
    for (variant, fen) in cases {
        let p = pos(variant, fen);
        let passed = p.null_move().expect("not in check");
        let other = pos(variant, &fen.replacen(" w ", " b ", 1));
        assert_eq!(passed.fen(), other.fen(), "{variant}");
        assert_eq!(passed.zobrist(), other.zobrist(), "{variant}");
        let mut a = legal(&passed);
        let mut b = legal(&other);
        a.sort();
        b.sort();
        assert_eq!(a, b, "{variant}");
        assert_eq!(
            passed.null_move().expect("back").fen(),
            p.fen(),
            "{variant}"
        );
    }
    let check = pos(Variant::Makruk, "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
    assert!(check.null_move().is_none());
}
