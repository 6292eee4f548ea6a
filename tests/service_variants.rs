//! The Makruk family through the service (issue 25): a challenge names its variant, its game
//! starts from the variant's position, reads the variant's moves (Sittuyin's drops, ASEAN's
//! promotion by choice, Ouk Chaktrang's first-move jumps), stores them and replays them after a
//! restart; the rulesets stay Makruk's; ratings are kept per variant.

use makruk::{Color, Ruleset, Variant};
use makruk_bot::clock::TimeControl;
use makruk_bot::game::{
    ChannelId, ColorChoice, GameService, Kind, Ladder, Reply, ServiceError, Terms, UserId,
};
use makruk_bot::i18n::Locale;
use makruk_bot::store;
use testkit::service::{mention, start_from_fen_in, Env, BLACK, GUILD, WHITE};

/// The variants other than Makruk.
const OTHERS: [Variant; 4] = [
    Variant::Makpong,
    Variant::Cambodian,
    Variant::Asean,
    Variant::Sittuyin,
];

/// A challenge in `variant` on GUILD (rated as asked), accepted: WHITE plays White.
async fn start_variant(
    svc: &GameService,
    channel: ChannelId,
    variant: Variant,
    rated: bool,
) -> Reply {
    let terms = Terms {
        color: ColorChoice::White,
        variant,
        time_control: TimeControl::DEFAULT,
        ladder: Ladder {
            guild: Some(GUILD),
            rated,
        },
        ..Terms::default()
    };
    let c = svc
        .challenge(channel, WHITE, BLACK, false, terms)
        .await
        .expect("challenge");
    assert_eq!(c.variant, variant);
    svc.accept(channel, BLACK, Some(c.id))
        .await
        .expect("accept")
}

fn mover(reply: &Reply) -> UserId {
    match reply.position.turn() {
        Color::White => WHITE,
        Color::Black => BLACK,
    }
}

#[tokio::test]
async fn every_variant_starts_plays_and_is_the_same_after_a_restart() {
    let mut env = Env::new().await;
    let mut fens = Vec::new();
    for (i, variant) in OTHERS.into_iter().enumerate() {
        let ch = ChannelId(100 + i as u64);
        let mut reply = start_variant(&env.svc, ch, variant, false).await;
        assert_eq!(reply.position.variant(), variant);
        let start = makruk::Position::start_variant(variant, Ruleset::Standard);
        assert_eq!(reply.position.fen(), start.fen(), "{variant}");
        // The title names the variant, not a ruleset.
        let label = makruk_bot::game::rules_label(Locale::En, variant, reply.ruleset);
        assert_eq!(
            label,
            makruk_bot::game::variant_name(Locale::En, variant),
            "{variant}"
        );
        // Ouk Chaktrang: the Khun's first-move jump, by its SAN.
        if variant == Variant::Cambodian {
            reply = env
                .svc
                .play(ch, WHITE, "Kb2")
                .await
                .expect("the Khun's jump");
            assert!(
                reply.position.fen().contains(" Ede "),
                "{}",
                reply.position.fen()
            );
        }
        // Sittuyin: the placement phase, shown in the status and offered by autocomplete.
        if variant == Variant::Sittuyin {
            let text = reply.text(Locale::En, &mention);
            assert!(
                text.contains("White still places: Khun, Met, 2 Ruea"),
                "{text}"
            );
            let offered = env.svc.legal_moves_san(ch, WHITE, "R@").await;
            assert!(!offered.is_empty() && offered.iter().all(|m| m.starts_with("R@")));
            assert!(offered.iter().all(|m| m.ends_with('1')), "{offered:?}");
            reply = env.svc.play(ch, WHITE, "R@a1").await.expect("a drop");
            let text = reply.text(Locale::En, &mention);
            assert!(
                text.contains("White still places: Khun, Met, Ruea"),
                "{text}"
            );
        }
        // Then moves chosen from the autocomplete list, as a user would.
        for _ in 0..6 {
            let who = mover(&reply);
            let offered = env.svc.legal_moves_san(ch, who, "").await;
            let first = offered.first().expect("a legal move is offered").clone();
            reply = env
                .svc
                .play(ch, who, &first)
                .await
                .unwrap_or_else(|e| panic!("{variant}: {first}: {e:?}"));
        }
        fens.push((ch, variant, reply.position.fen()));
    }
    env.restart().await;
    for (ch, variant, fen) in fens {
        let reply = env.svc.board(ch).await.expect("board");
        assert_eq!(reply.position.variant(), variant);
        assert_eq!(reply.position.fen(), fen, "{variant} after a restart");
        let pgn = env
            .svc
            .pgn(ch, None, &|u: UserId| u.0.to_string())
            .await
            .expect("pgn");
        assert!(
            pgn.pgn
                .contains(&format!("[Variant \"{}\"]", variant.pgn_name())),
            "{}",
            pgn.pgn
        );
        assert!(
            pgn.analysis_url.contains(variant.name()),
            "{}",
            pgn.analysis_url
        );
        // The PGN reads back to the same game.
        let read = makruk::pgn::read_pgn(&pgn.pgn)
            .expect("PGN reads")
            .replay(Ruleset::Standard)
            .expect("PGN replays");
        assert_eq!(read.game.position().fen(), fen);
    }
}

#[tokio::test]
async fn an_asean_promotion_is_chosen_and_stored() {
    let mut env = Env::new().await;
    let ch = ChannelId(7);
    start_from_fen_in(
        &env.svc,
        ch,
        "4k3/P7/8/8/8/8/8/4K2R w - - 0 1",
        Variant::Asean,
    )
    .await;
    let offered = env.svc.legal_moves_san(ch, WHITE, "a8").await;
    for piece in ["R", "N", "B", "Q"] {
        assert!(
            offered
                .iter()
                .any(|m| m.starts_with(&format!("a8={piece}"))),
            "{offered:?}"
        );
    }
    let reply = env.svc.play(ch, WHITE, "a8=N").await.expect("promotion");
    assert!(
        reply.position.fen().starts_with("N~3k3/"),
        "{}",
        reply.position.fen()
    );
    env.restart().await;
    let reply = env.svc.board(ch).await.expect("board");
    assert!(
        reply.position.fen().starts_with("N~3k3/"),
        "{}",
        reply.position.fen()
    );
    // The stored move is the variant's UCI, which names the piece.
    let mut conn = env.svc.store().read_conn().await.expect("conn");
    let game = store::active_game(&mut conn, ch)
        .await
        .expect("read")
        .expect("the game");
    assert_eq!(game.variant, Variant::Asean);
    let moves = store::moves(&mut conn, game.id).await.expect("moves");
    assert_eq!(moves[0].uci, "a7a8n");
}

#[tokio::test]
async fn the_rulesets_are_makruks_only() {
    let env = Env::new().await;
    let ch = ChannelId(8);
    for variant in OTHERS {
        for ruleset in [Ruleset::Traditional, Ruleset::Material, Ruleset::FiftyMove] {
            let terms = Terms {
                variant,
                ruleset,
                ..Terms::default()
            };
            let refused = env.svc.challenge(ch, WHITE, BLACK, false, terms).await;
            assert!(
                matches!(refused, Err(ServiceError::VariantRuleset)),
                "{variant} {ruleset}: {refused:?}"
            );
        }
    }
    // Nothing was stored: the channel is free for a Makruk challenge under any ruleset.
    let terms = Terms {
        ruleset: Ruleset::Traditional,
        ..Terms::default()
    };
    let c = env
        .svc
        .challenge(ch, WHITE, BLACK, false, terms)
        .await
        .expect("Makruk takes every ruleset");
    assert_eq!(
        (c.variant, c.ruleset),
        (Variant::Makruk, Ruleset::Traditional)
    );
    let text = ServiceError::VariantRuleset.message(Locale::En, &mention);
    assert!(text.contains("Makruk"), "{text}");
}

#[tokio::test]
async fn ratings_are_kept_per_variant() {
    let env = Env::new().await;
    let svc = &env.svc;
    let ch = ChannelId(9);
    start_variant(svc, ch, Variant::Makpong, true).await;
    for (i, mv) in ["e4", "d5", "a4", "h5"].iter().enumerate() {
        let who = if i % 2 == 0 { WHITE } else { BLACK };
        svc.play(ch, who, mv).await.expect("move");
    }
    let end = svc.resign(ch, BLACK).await.expect("resign");
    assert!(end.ratings.is_some(), "a rated Makpong game is rated");
    let mut conn = svc.store().read_conn().await.expect("conn");
    for (variant, rated) in [(Variant::Makpong, true), (Variant::Makruk, false)] {
        let row = store::rating(&mut conn, GUILD, WHITE, variant, Kind::Correspondence)
            .await
            .expect("read");
        assert_eq!(row.is_some(), rated, "{variant}");
    }
    drop(conn);
    assert!(matches!(
        svc.leaderboard(GUILD, Variant::Makruk, None, 0).await,
        Err(ServiceError::LeaderboardEmpty(Variant::Makruk, _))
    ));
    let board = svc
        .leaderboard(GUILD, Variant::Makpong, None, 0)
        .await
        .expect("the Makpong leaderboard");
    assert_eq!(board.players, 2);
    let text = board.text(Locale::En, &mention);
    assert!(text.contains("Makpong, correspondence"), "{text}");
    let stats = svc
        .stats(GUILD, WHITE, Variant::Makpong, None)
        .await
        .expect("stats");
    assert_eq!((stats.record.wins, stats.variant), (1, Variant::Makpong));
    assert!(svc
        .stats(GUILD, WHITE, Variant::Makruk, None)
        .await
        .is_err());
    // recompute rebuilds the same rows, per variant.
    let report = svc.recompute_ratings(true).await.expect("recompute");
    assert!(report.differences.is_empty(), "{:?}", report.differences);
}

#[tokio::test]
async fn the_count_is_explained_by_the_variants_own_rules() {
    let env = Env::new().await;
    start_variant(&env.svc, ChannelId(11), Variant::Asean, false).await;
    let text = env
        .svc
        .explain_count(ChannelId(11), Locale::En)
        .await
        .expect("count");
    assert!(text.contains("16 moves against a Ruea"), "{text}");
    assert!(!text.contains("unpromoted"), "not Makruk's rule: {text}");
    // A running Ouk Chaktrang count: its own limit (one Ruea: 15 moves), not Makruk's 16.
    start_from_fen_in(
        &env.svc,
        ChannelId(12),
        "4k3/8/8/8/8/8/8/R3K3 b - - 0 1",
        Variant::Cambodian,
    )
    .await;
    let text = env
        .svc
        .explain_count(ChannelId(12), Locale::En)
        .await
        .expect("count");
    assert!(text.contains("Ouk Chaktrang"), "{text}");
}

/// A move that breaks a variant's own rule is refused with that rule, not with Makruk's
/// reasons: a misplaced drop, a move before the pieces are placed, Makpong's Khun in check.
#[tokio::test]
async fn a_variants_own_rule_is_named_when_a_move_breaks_it() {
    let env = Env::new().await;
    let ch = ChannelId(13);
    start_variant(&env.svc, ch, Variant::Sittuyin, false).await;
    let said = |e: ServiceError| e.message(Locale::En, &mention);
    let refused = env
        .svc
        .play(ch, WHITE, "R@a2")
        .await
        .expect_err("a Ruea off rank 1");
    let text = said(refused);
    assert!(text.contains("cannot be placed on a2"), "{text}");
    assert!(text.contains("own first rank"), "{text}");
    let refused = env
        .svc
        .play(ch, WHITE, "K@e5")
        .await
        .expect_err("the opponent's half");
    let text = said(refused);
    assert!(text.contains("cannot be placed on e5"), "{text}");
    assert!(
        !text.contains("Ruea"),
        "only a Ruea's drop names the Ruea: {text}"
    );
    let refused = env
        .svc
        .play(ch, WHITE, "Nd2")
        .await
        .expect_err("a move while placing");
    assert!(said(refused).contains("Place your pieces first"));
    let ch = ChannelId(14);
    start_from_fen_in(
        &env.svc,
        ch,
        "4k3/r7/8/8/8/8/8/4R1K1 b - - 0 1",
        Variant::Makpong,
    )
    .await;
    let refused = env
        .svc
        .play(ch, BLACK, "Kd8")
        .await
        .expect_err("Makpong's rule");
    assert!(said(refused).contains("may not move away"));
    env.svc
        .play(ch, BLACK, "Re7")
        .await
        .expect("a block is legal");
    // Ouk Chaktrang: the Khun's first-move jump is gone once it has moved.
    let ch = ChannelId(15);
    start_from_fen_in(
        &env.svc,
        ch,
        "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
        Variant::Cambodian,
    )
    .await;
    let refused = env.svc.play(ch, WHITE, "Kb2").await.expect_err("no gate");
    assert!(
        said(refused).contains("only the piece's first move"),
        "{}",
        said(env.svc.play(ch, WHITE, "Kb2").await.expect_err("no gate"))
    );
    let thai = env.svc.play(ch, WHITE, "Kb2").await.expect_err("no gate");
    assert!(
        thai.message(Locale::Th, &mention).contains("กระโดด"),
        "{}",
        thai.message(Locale::Th, &mention)
    );
    // ASEAN: a promotion letter of Makruk's.
    let ch = ChannelId(16);
    start_from_fen_in(
        &env.svc,
        ch,
        "4k3/P7/8/8/8/8/8/4K3 w - - 0 1",
        Variant::Asean,
    )
    .await;
    let refused = env
        .svc
        .play(ch, WHITE, "a8=M")
        .await
        .expect_err("not ASEAN's");
    assert!(said(refused).contains("a8=R, a8=N, a8=B or a8=Q"));
    let refused = env
        .svc
        .play(ch, WHITE, "a8=M")
        .await
        .expect_err("not ASEAN's");
    assert!(refused.message(Locale::Th, &mention).contains("a8=Q"));
}

/// Sittuyin's placement: the first suggestions of an empty `/move` name every piece still to
/// place (by square, every piece at each), not only the pieces of the first letters.
#[tokio::test]
async fn placement_suggestions_show_every_piece_to_place() {
    let env = Env::new().await;
    let ch = ChannelId(15);
    start_variant(&env.svc, ch, Variant::Sittuyin, false).await;
    let offered = env.svc.legal_moves_san(ch, WHITE, "").await;
    for piece in ["K@", "F@", "R@", "S@", "N@"] {
        assert!(
            offered.iter().any(|m| m.starts_with(piece)),
            "{piece}: {offered:?}"
        );
    }
}
