//! The game service under stress: restarts, bad input, concurrent requests; and the database
//! rules under it (one active game per channel, the version check).

use futures::future::join_all;
use makruk::{Color, MoveInputError, Ruleset};
use makruk_bot::game::Terms;
use makruk_bot::game::{
    ChannelId, ColorChoice, GameService, OfferKind, ServiceError, UserId, MAX_INPUT_LEN,
};
use makruk_bot::i18n::Locale;
use makruk_bot::store::{self, NewGame};
use testkit::service::{
    conformance, jsonl, mention, start, start_from_fen, user, Env, BLACK, SPECTATOR, WHITE,
};

fn playok(file: &str) -> Vec<String> {
    let text = std::fs::read_to_string(conformance(&format!("playok/{file}"))).unwrap();
    makruk::pgn::read_pgn(&text).expect("PGN").moves
}

async fn play_all(svc: &GameService, ch: ChannelId, moves: &[String], first_ply: usize) {
    for (i, mv) in moves.iter().enumerate() {
        let mover = if (first_ply + i) & 1 == 0 {
            WHITE
        } else {
            BLACK
        };
        svc.play(ch, mover, mv)
            .await
            .unwrap_or_else(|e| panic!("ply {} {mv}: {e}", first_ply + i));
    }
}

#[tokio::test]
async fn restart_preserves_moves_counting_and_offers() {
    let mut env = Env::new().await;
    // A PlayOK game, half played; White's draw offer and takeback request stand.
    let record = playok("game-02.pgn");
    let ch = ChannelId(1);
    start(&env.svc, ch, Ruleset::Traditional).await;
    play_all(&env.svc, ch, &record[..61], 0).await;
    env.svc.offer(ch, WHITE, OfferKind::Draw).await.unwrap();
    env.svc.offer(ch, WHITE, OfferKind::Takeback).await.unwrap();
    // A traditional endgame with a requested count running.
    let game = jsonl("traditional-public.jsonl.gz")
        .into_iter()
        .find(|g| g["events"][0]["action"] == "start" && g["moves"].as_array().unwrap().len() > 40)
        .expect("a traditional game with a count");
    let start_ply = usize::try_from(game["events"][0]["ply"].as_u64().unwrap()).unwrap();
    let stop_ply = game["events"][1]["ply"]
        .as_u64()
        .map_or(usize::MAX, |p| usize::try_from(p).unwrap());
    let moves: Vec<String> = game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    let plies = game["plies"].as_array().unwrap();
    let ch2 = ChannelId(2);
    start_from_fen(
        &env.svc,
        ch2,
        game["start"].as_str().unwrap(),
        Ruleset::Traditional,
    )
    .await;
    let half = (start_ply + 4).min(stop_ply);
    for (i, mv) in moves.iter().enumerate().take(half) {
        if i == start_ply {
            let turn = env.svc.board(ch2).await.unwrap().position.turn();
            env.svc.count_start(ch2, user(turn)).await.unwrap();
        }
        let turn = env.svc.board(ch2).await.unwrap().position.turn();
        env.svc.play(ch2, user(turn), mv).await.unwrap();
    }
    // An open challenge.
    let ch3 = ChannelId(3);
    let challenge = env
        .svc
        .challenge(
            ch3,
            SPECTATOR,
            WHITE,
            false,
            Terms {
                color: ColorChoice::Black,
                ruleset: Ruleset::Material,
                ..Terms::default()
            },
        )
        .await
        .unwrap();

    let before = [
        env.svc.board(ch).await.unwrap(),
        env.svc.board(ch2).await.unwrap(),
    ];
    let dump = env.svc.store().dump().await.unwrap();
    assert!(
        before[1].status.count.is_some(),
        "a count runs in channel 2"
    );

    env.restart().await;

    assert_eq!(env.svc.store().dump().await.unwrap(), dump);
    for (b, ch) in before.iter().zip([ch, ch2]) {
        let a = env.svc.board(ch).await.unwrap();
        assert_eq!(a.position.fen(), b.position.fen());
        assert_eq!(a.last_move, b.last_move);
        assert_eq!(a.status.count, b.status.count);
        assert_eq!(a.status.draw_offer, b.status.draw_offer);
        assert_eq!(a.status.takeback_request, b.status.takeback_request);
        assert_eq!(a.status.plies, b.status.plies);
        assert_eq!(a.text(Locale::En, &mention), b.text(Locale::En, &mention));
    }
    assert_eq!(before[0].status.draw_offer, Some(Color::White));
    assert_eq!(before[0].status.takeback_request, Some(Color::White));
    assert_eq!(
        env.svc.open_challenge(ch3).await.unwrap().map(|c| c.id),
        Some(challenge.id)
    );

    // Finish everything on the new service.
    let taken = env
        .svc
        .accept_offer(ch, BLACK, OfferKind::Takeback)
        .await
        .unwrap();
    assert_eq!(taken.status.plies, 60);
    assert_eq!(
        taken.status.draw_offer,
        Some(Color::White),
        "the offer survives the takeback"
    );
    play_all(&env.svc, ch, &record[60..], 60).await;
    let last = env.svc.board(ch).await.unwrap();
    assert_eq!(last.status.draw_offer, None, "lapsed when Black moved");
    let expected = std::fs::read_to_string(conformance("playok/expected.txt")).unwrap();
    let line = expected
        .lines()
        .find(|l| l.starts_with("game-02.pgn"))
        .unwrap();
    let f: Vec<&str> = line.split_whitespace().collect();
    let fen = last.position.fen();
    assert_eq!(fen.split(' ').take(2).collect::<Vec<_>>(), [f[2], f[3]]);
    let end = env.svc.resign(ch, BLACK).await.unwrap().status.end.unwrap();
    assert_eq!(end.result.pgn(), "1-0");

    // The traditional game goes on to its end, with its later count requests.
    let mut counter = Some(before[1].status.count.unwrap().counting);
    for (i, mv) in moves.iter().enumerate().skip(half) {
        for e in game["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["ply"] == i)
        {
            let turn = env.svc.board(ch2).await.unwrap().position.turn();
            if e["action"] == "start" {
                env.svc.count_start(ch2, user(turn)).await.unwrap();
                counter = Some(turn);
            } else {
                let c = counter.take().expect("a running count");
                env.svc.count_stop(ch2, user(c)).await.unwrap();
            }
            let shown = env.svc.board(ch2).await.unwrap().position.fen();
            assert_eq!(shown, plies[i]["fen"].as_str().unwrap(), "event at ply {i}");
        }
        let turn = env.svc.board(ch2).await.unwrap().position.turn();
        let r = env.svc.play(ch2, user(turn), mv).await.unwrap();
        if !game["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["ply"] == i + 1)
        {
            assert_eq!(
                r.position.fen(),
                plies[i + 1]["fen"].as_str().unwrap(),
                "ply {i}"
            );
        }
        if r.status.end.is_some() {
            break;
        }
    }
    let accepted = env
        .svc
        .accept(ch3, WHITE, Some(challenge.id))
        .await
        .unwrap();
    assert_eq!((accepted.white, accepted.black), (WHITE, SPECTATOR));
}

/// The expected error of a bad request.
type Check = fn(&ServiceError) -> bool;

#[tokio::test]
async fn bad_input_gets_a_specific_error_and_changes_nothing() {
    let env = Env::new().await;
    let svc = &env.svc;
    let (active, finished, challenged, empty) =
        (ChannelId(10), ChannelId(11), ChannelId(12), ChannelId(13));
    start(svc, active, Ruleset::Standard).await;
    for (i, mv) in ["e4", "e5", "Nd2"].iter().enumerate() {
        svc.play(active, if i & 1 == 0 { WHITE } else { BLACK }, mv)
            .await
            .unwrap();
    }
    start(svc, finished, Ruleset::Standard).await;
    svc.play(finished, WHITE, "e4").await.unwrap();
    let finished_id = svc.resign(finished, BLACK).await.unwrap().game_id;
    svc.challenge(challenged, WHITE, BLACK, false, Terms::default())
        .await
        .unwrap();
    let other_channel_game = {
        start(svc, ChannelId(14), Ruleset::Standard).await;
        svc.board(ChannelId(14)).await.unwrap().game_id
    };

    let long_latin = "a".repeat(10_000);
    let long_thai = "ม".repeat(10_000);
    // Black is to move in `active`.
    let moves: Vec<(&str, ChannelId, UserId, String, Check)> = vec![
        ("empty move", active, BLACK, String::new(), |e| {
            matches!(e, ServiceError::BadMove(MoveInputError::Empty))
        }),
        ("blank move", active, BLACK, "   \t ".into(), |e| {
            matches!(e, ServiceError::BadMove(MoveInputError::Empty))
        }),
        ("garbage", active, BLACK, "hello".into(), |e| {
            matches!(e, ServiceError::BadMove(MoveInputError::Unreadable { .. }))
        }),
        ("no such square", active, BLACK, "e9".into(), |e| {
            matches!(e, ServiceError::BadMove(MoveInputError::Unreadable { .. }))
        }),
        (
            "control characters",
            active,
            BLACK,
            "\0e5\u{7}".into(),
            |e| matches!(e, ServiceError::BadMove(_)),
        ),
        ("10,000 characters", active, BLACK, long_latin, |e| {
            matches!(e, ServiceError::InputTooLong)
        }),
        ("10,000 Thai characters", active, BLACK, long_thai, |e| {
            matches!(e, ServiceError::InputTooLong)
        }),
        (
            "one character too long",
            active,
            BLACK,
            "ม".repeat(MAX_INPUT_LEN + 1),
            |e| matches!(e, ServiceError::InputTooLong),
        ),
        (
            "longest text read",
            active,
            BLACK,
            "ม".repeat(MAX_INPUT_LEN),
            |e| matches!(e, ServiceError::BadMove(_)),
        ),
        ("illegal move", active, BLACK, "Ke6".into(), |e| {
            matches!(e, ServiceError::BadMove(MoveInputError::Illegal(_)))
        }),
        ("blocked Ruea", active, BLACK, "Ra5".into(), |e| {
            matches!(e, ServiceError::BadMove(MoveInputError::Illegal(_)))
        }),
        ("White's piece", active, BLACK, "d2b3".into(), |e| {
            matches!(e, ServiceError::BadMove(MoveInputError::Illegal(_)))
        }),
        ("out of turn", active, WHITE, "f4".into(), |e| {
            matches!(e, ServiceError::NotYourTurn)
        }),
        ("spectator", active, SPECTATOR, "d5".into(), |e| {
            matches!(e, ServiceError::NotAPlayer)
        }),
        ("finished game", finished, WHITE, "e4".into(), |e| {
            matches!(e, ServiceError::GameOver(_))
        }),
        ("no game", empty, WHITE, "e4".into(), |e| {
            matches!(e, ServiceError::NoGameHere)
        }),
        (
            "SQL: drop table",
            active,
            BLACK,
            "'; DROP TABLE games; --".into(),
            |e| matches!(e, ServiceError::BadMove(_)),
        ),
        ("SQL: or 1=1", active, BLACK, "e5' OR '1'='1".into(), |e| {
            matches!(e, ServiceError::BadMove(_))
        }),
        (
            "SQL: delete",
            active,
            BLACK,
            "d5); DELETE FROM moves;--".into(),
            |e| matches!(e, ServiceError::BadMove(_)),
        ),
        (
            "SQL: long",
            active,
            BLACK,
            "x'); UPDATE games SET state='finished' WHERE 1=1; --".into(),
            |e| matches!(e, ServiceError::BadMove(_) | ServiceError::InputTooLong),
        ),
    ];
    for (name, ch, who, input, check) in moves {
        let before = svc.store().dump().await.unwrap();
        let err = svc.play(ch, who, &input).await.expect_err(name);
        assert!(check(&err), "{name}: {err:?}");
        assert!(err.is_user_error(), "{name}");
        for locale in Locale::ALL {
            let msg = err.message(locale, &mention);
            assert!(
                !msg.is_empty() && !msg.contains("error-") && !msg.contains("move-"),
                "{name}: {msg}"
            );
        }
        assert_eq!(
            svc.store().dump().await.unwrap(),
            before,
            "{name} changed the database"
        );
    }

    let over = svc.play(finished, WHITE, "e4").await;
    assert!(
        matches!(over, Err(ServiceError::GameOver(id)) if id == finished_id),
        "{over:?}"
    );

    // Requests other than moves.
    let before = svc.store().dump().await.unwrap();
    let cases: Vec<(&str, Result<(), ServiceError>, Check)> = vec![
        (
            "accept someone else's challenge",
            svc.accept(challenged, SPECTATOR, None).await.map(drop),
            |e| matches!(e, ServiceError::NotYourChallenge { .. }),
        ),
        (
            "challenger accepts own challenge",
            svc.accept(challenged, WHITE, None).await.map(drop),
            |e| matches!(e, ServiceError::NotYourChallenge { .. }),
        ),
        (
            "spectator declines",
            svc.decline(challenged, SPECTATOR, None).await.map(drop),
            |e| matches!(e, ServiceError::NotYourChallenge { .. }),
        ),
        (
            "opponent withdraws",
            svc.withdraw(challenged, BLACK).await.map(drop),
            |e| matches!(e, ServiceError::NotYourChallenge { .. }),
        ),
        (
            "accept where none",
            svc.accept(empty, BLACK, None).await.map(drop),
            |e| matches!(e, ServiceError::NoChallenge),
        ),
        (
            "challenge in a busy channel",
            svc.challenge(active, SPECTATOR, WHITE, false, Terms::default())
                .await
                .map(drop),
            |e| matches!(e, ServiceError::ChannelBusy(_)),
        ),
        (
            "second challenge",
            svc.challenge(challenged, SPECTATOR, WHITE, false, Terms::default())
                .await
                .map(drop),
            |e| matches!(e, ServiceError::ChallengePending(_)),
        ),
        (
            "challenge oneself",
            svc.challenge(empty, WHITE, WHITE, false, Terms::default())
                .await
                .map(drop),
            |e| matches!(e, ServiceError::ChallengeSelf),
        ),
        (
            "challenge a bot",
            svc.challenge(empty, WHITE, BLACK, true, Terms::default())
                .await
                .map(drop),
            |e| matches!(e, ServiceError::ChallengeBot),
        ),
        (
            "spectator resigns",
            svc.resign(active, SPECTATOR).await.map(drop),
            |e| matches!(e, ServiceError::NotAPlayer),
        ),
        (
            "resign a finished game",
            svc.resign(finished, WHITE).await.map(drop),
            |e| matches!(e, ServiceError::GameOver(_)),
        ),
        (
            "accept a draw never offered",
            svc.accept_offer(active, WHITE, OfferKind::Draw)
                .await
                .map(drop),
            |e| matches!(e, ServiceError::NoOffer(OfferKind::Draw)),
        ),
        (
            "decline a draw never offered",
            svc.decline_offer(active, BLACK, OfferKind::Draw)
                .await
                .map(drop),
            |e| matches!(e, ServiceError::NoOffer(OfferKind::Draw)),
        ),
        (
            "accept a takeback never asked",
            svc.accept_offer(active, BLACK, OfferKind::Takeback)
                .await
                .map(drop),
            |e| matches!(e, ServiceError::NoOffer(OfferKind::Takeback)),
        ),
        (
            "take back the opponent's move",
            svc.offer(active, BLACK, OfferKind::Takeback)
                .await
                .map(drop),
            |e| matches!(e, ServiceError::NothingToTakeBack),
        ),
        (
            "abort after both moved",
            svc.abort(active, WHITE).await.map(drop),
            |e| matches!(e, ServiceError::TooLateToAbort),
        ),
        (
            "count in standard",
            svc.count_start(active, BLACK).await.map(drop),
            |e| matches!(e, ServiceError::NotTraditional),
        ),
        (
            "PGN of another channel's game",
            svc.pgn(active, Some(other_channel_game), &testkit::service::mention)
                .await
                .map(drop),
            |e| matches!(e, ServiceError::GameNotFound),
        ),
    ];
    for (name, result, check) in cases {
        let err = result.expect_err(name);
        assert!(check(&err), "{name}: {err:?}");
        for locale in Locale::ALL {
            let msg = err.message(locale, &mention);
            assert!(!msg.is_empty() && !msg.contains("error-"), "{name}: {msg}");
        }
    }
    assert_eq!(
        svc.store().dump().await.unwrap(),
        before,
        "a refused request changed the database"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_moves_exactly_one_applies() {
    let env = Env::new().await;
    let ch = ChannelId(20);
    start(&env.svc, ch, Ruleset::Standard).await;
    // The same move 50 times at once (a double-click storm), then different moves at once.
    for (round, inputs) in [
        vec!["e4"; 50],
        vec!["e5", "d5", "c5", "Nd7", "Ne7", "a5", "h5", "Sc7"],
    ]
    .into_iter()
    .enumerate()
    {
        let mover = if round == 0 { WHITE } else { BLACK };
        let results = join_all(inputs.iter().map(|mv| {
            let svc = env.svc.clone();
            let mv = (*mv).to_string();
            tokio::spawn(async move { svc.play(ch, mover, &mv).await })
        }))
        .await;
        let mut ok = 0;
        for r in results {
            match r.expect("task") {
                Ok(_) => ok += 1,
                Err(ServiceError::NotYourTurn | ServiceError::Conflict) => {}
                Err(e) => panic!("unexpected error {e:?}"),
            }
        }
        assert_eq!(ok, 1, "round {round}");
        let board = env.svc.board(ch).await.unwrap();
        assert_eq!(board.status.plies as usize, round + 1);
    }
    let pgn = env
        .svc
        .pgn(ch, None, &testkit::service::mention)
        .await
        .unwrap();
    assert_eq!(makruk::pgn::read_pgn(&pgn.pgn).unwrap().moves.len(), 2);

    // Both players at once, many times: every applied request is a legal alternation.
    let results = join_all((0..40).map(|i| {
        let svc = env.svc.clone();
        let (who, mv) = if i & 1 == 0 {
            (WHITE, "Nd2")
        } else {
            (BLACK, "Nd7")
        };
        tokio::spawn(async move { svc.play(ch, who, mv).await })
    }))
    .await;
    let applied = results
        .into_iter()
        .filter(|r| matches!(r, Ok(Ok(_))))
        .count();
    let board = env.svc.board(ch).await.unwrap();
    assert_eq!(board.status.plies as usize, 2 + applied);
    assert!((1..=2).contains(&applied));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_accepts_and_challenges_start_one_game() {
    let env = Env::new().await;
    let ch = ChannelId(30);
    let c = env
        .svc
        .challenge(
            ch,
            WHITE,
            BLACK,
            false,
            Terms {
                color: ColorChoice::White,
                ..Terms::default()
            },
        )
        .await
        .unwrap();
    let results = join_all((0..30).map(|_| {
        let svc = env.svc.clone();
        tokio::spawn(async move { svc.accept(ch, BLACK, Some(c.id)).await })
    }))
    .await;
    let ok = results.iter().filter(|r| matches!(r, Ok(Ok(_)))).count();
    assert_eq!(ok, 1);
    for r in results {
        if let Ok(Err(e)) = r {
            assert!(
                matches!(
                    e,
                    ServiceError::NoChallenge
                        | ServiceError::Conflict
                        | ServiceError::ChannelBusy(_)
                ),
                "{e:?}"
            );
        }
    }
    // Many challengers in a fresh channel at once: one challenge is open.
    let ch = ChannelId(31);
    let results = join_all((0..30u64).map(|i| {
        let svc = env.svc.clone();
        tokio::spawn(async move {
            svc.challenge(ch, UserId(5000 + i), BLACK, false, Terms::default())
                .await
        })
    }))
    .await;
    assert_eq!(results.iter().filter(|r| matches!(r, Ok(Ok(_)))).count(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn many_channels_at_once_all_apply() {
    let env = Env::new().await;
    let channels: Vec<ChannelId> = (0..100).map(|i| ChannelId(1000 + i)).collect();
    for &ch in &channels {
        start(&env.svc, ch, Ruleset::Standard).await;
    }
    for (i, mv) in ["e4", "e5", "Nd2", "Nd7"].iter().enumerate() {
        let who = if i & 1 == 0 { WHITE } else { BLACK };
        let results = join_all(channels.iter().map(|&ch| {
            let svc = env.svc.clone();
            tokio::spawn(async move { svc.play(ch, who, mv).await })
        }))
        .await;
        for r in results {
            r.expect("task").expect("every channel's move applies");
        }
    }
}

#[tokio::test]
async fn the_database_enforces_one_active_game_per_channel_and_the_version_check() {
    let env = Env::new().await;
    let ch = ChannelId(40);
    start(&env.svc, ch, Ruleset::Standard).await;
    let mut tx = env.svc.store().begin_write().await.unwrap();
    let second = store::insert_game(
        &mut tx,
        &NewGame {
            channel_id: ch,
            white_id: UserId(1),
            black_id: UserId(2),
            ruleset: Ruleset::Standard,
            variant: makruk::Variant::Makruk,
            start_fen: testkit::service::START_FEN,
            now: 0,
            computer: None,
            time_control: makruk_bot::clock::TimeControl::DEFAULT,
            clock: makruk_bot::clock::ClockState::new(
                makruk_bot::clock::TimeControl::DEFAULT,
                makruk::Color::White,
                0,
            )
            .stored(),
            guild_id: None,
            rated: false,
        },
    )
    .await;
    assert!(
        second.as_ref().is_err_and(store::is_unique_violation),
        "{second:?}"
    );
    drop(tx);

    let mut tx = env.svc.store().begin_write().await.unwrap();
    let row = store::active_game(&mut tx, ch).await.unwrap().unwrap();
    assert!(
        !store::update_game(&mut tx, &row, row.version + 1)
            .await
            .unwrap(),
        "stale version"
    );
    assert!(store::update_game(&mut tx, &row, row.version)
        .await
        .unwrap());
    assert!(
        !store::update_game(&mut tx, &row, row.version)
            .await
            .unwrap(),
        "version moved on"
    );
    tx.commit().await.unwrap();
}

#[tokio::test]
async fn appending_a_move_checks_the_version_for_the_move_and_the_row() {
    let env = Env::new().await;
    let ch = ChannelId(45);
    start(&env.svc, ch, Ruleset::Standard).await;
    let mut tx = env.svc.store().begin_write().await.unwrap();
    let mut row = store::active_game(&mut tx, ch).await.unwrap().unwrap();
    tx.commit().await.unwrap();
    row.plies = 1;
    row.fen = "rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR b - - 0 1".into();
    let before = env.svc.store().dump().await.unwrap();
    for stale in [row.version + 1, row.version - 1] {
        let mut tx = env.svc.store().begin_write().await.unwrap();
        let done = store::append_move(
            &mut tx,
            &row,
            stale,
            &store::MoveRow {
                ply: 0,
                uci: "e3e4".into(),
                san: "e4".into(),
                clocks: None,
            },
        )
        .await
        .unwrap();
        assert!(!done, "stale version {stale}");
        tx.commit().await.unwrap();
        assert_eq!(
            env.svc.store().dump().await.unwrap(),
            before,
            "neither the move nor the row is written"
        );
    }
    let mut tx = env.svc.store().begin_write().await.unwrap();
    assert!(store::append_move(
        &mut tx,
        &row,
        row.version,
        &store::MoveRow {
            ply: 0,
            uci: "e3e4".into(),
            san: "e4".into(),
            clocks: None,
        }
    )
    .await
    .unwrap());
    tx.commit().await.unwrap();
    let mut conn = env.svc.store().read_conn().await.unwrap();
    let stored = store::moves(&mut conn, row.id).await.unwrap();
    assert_eq!(stored.len(), 1);
    assert_eq!(
        (stored[0].uci.as_str(), stored[0].san.as_str()),
        ("e3e4", "e4")
    );
    let now = store::game(&mut conn, row.id).await.unwrap().unwrap();
    assert_eq!((now.version, now.plies), (row.version + 1, 1));
    drop(conn);
    // The service reads the game written behind its back (its cache has the old version).
    let r = env.svc.play(ch, BLACK, "e5").await.unwrap();
    assert_eq!(r.status.plies, 2);
}

#[tokio::test]
async fn cancelled_requests_leave_the_store_consistent_and_usable() {
    // Requests dropped at any point (a timeout, a closed interaction): in the middle of a
    // read, of `BEGIN IMMEDIATE`, of the write, of `COMMIT`. Each one applied entirely or not
    // at all, and the next requests work.
    let mut env = Env::new().await;
    let ch = ChannelId(47);
    start(&env.svc, ch, Ruleset::Standard).await;
    for i in 0..80u64 {
        let shown = env.svc.board(ch).await.unwrap();
        if shown.status.end.is_some() {
            break;
        }
        let who = shown.status.to_move;
        let Some(mv) = env.svc.legal_moves_san(ch, who, "").await.pop() else {
            break;
        };
        let wait = std::time::Duration::from_micros(i % 20 * 25);
        let _ = tokio::time::timeout(wait, env.svc.play(ch, who, &mv)).await;
        if i % 7 == 0 && who == WHITE {
            // Only White offers: the draw is never agreed, the game goes on.
            let wait = std::time::Duration::from_micros(i % 5 * 40);
            let _ = tokio::time::timeout(wait, env.svc.offer(ch, who, OfferKind::Draw)).await;
        }
    }
    // On PostgreSQL the COMMIT of a request dropped while committing may still be on its way
    // to the server (it then applies, entirely): wait until the stored state stays the same.
    let mut dump = env.svc.store().dump().await.unwrap();
    loop {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        let again = env.svc.store().dump().await.unwrap();
        if again == dump {
            break;
        }
        dump = again;
    }
    let before = env.svc.board(ch).await.unwrap();
    env.restart().await;
    assert_eq!(env.svc.store().dump().await.unwrap(), dump);
    let after = env.svc.board(ch).await.unwrap();
    assert_eq!(after.position.fen(), before.position.fen());
    assert_eq!(after.status.plies, before.status.plies);
    if after.status.end.is_none() {
        let who = after.status.to_move;
        let mv = env.svc.legal_moves_san(ch, who, "").await;
        let r = env.svc.play(ch, who, &mv[0]).await.unwrap();
        assert_eq!(r.status.plies, after.status.plies + 1);
    }
}

#[tokio::test]
async fn a_corrupt_stored_game_is_an_internal_error_not_a_panic() {
    let mut env = Env::new().await;
    let ch = ChannelId(50);
    start(&env.svc, ch, Ruleset::Standard).await;
    env.svc.play(ch, WHITE, "e4").await.unwrap();
    sqlx::query("UPDATE moves SET uci = 'zz99'")
        .execute(env.svc.store().pool().unwrap())
        .await
        .unwrap();
    // The running service keeps the game it replayed at this version; a restart reads the
    // stored moves again.
    env.restart().await;
    let err = env.svc.play(ch, BLACK, "e5").await.unwrap_err();
    assert!(!err.is_user_error(), "{err:?}");
    assert!(err.message(Locale::En, &mention).contains("Sorry"));
    assert!(
        !err.message(Locale::En, &mention).contains("zz99"),
        "details stay in the log"
    );
}

#[tokio::test]
async fn an_unknown_stored_name_is_an_internal_error_naming_the_column() {
    let env = Env::new().await;
    let ch = ChannelId(52);
    start(&env.svc, ch, Ruleset::Standard).await;
    env.svc.resign(ch, WHITE).await.unwrap();
    // Neither column has a CHECK constraint: only the decoding at the store boundary stands
    // between a bad name and the service.
    for (column, bad) in [("end_reason", "boredom"), ("ruleset", "chaturanga")] {
        sqlx::query(&format!("UPDATE games SET {column} = '{bad}'"))
            .execute(env.svc.store().pool().unwrap())
            .await
            .unwrap();
        for err in [
            env.svc.recent_games(ch, 10).await.unwrap_err(),
            env.svc.board(ch).await.unwrap_err(),
        ] {
            assert!(!err.is_user_error(), "{err:?}");
            let shown = err.to_string();
            assert!(shown.contains(column) && shown.contains(bad), "{shown}");
        }
    }
}

#[tokio::test]
async fn a_change_by_another_service_on_the_same_file_is_seen() {
    // Two services on one file (e.g. two processes): each one's cache of replayed games must
    // not hide the other's moves, since every change bumps the stored version.
    let env = Env::new().await;
    let other = GameService::open(&env.url).await.unwrap();
    let ch = ChannelId(55);
    start(&env.svc, ch, Ruleset::Standard).await;
    env.svc.play(ch, WHITE, "e4").await.unwrap();
    other.play(ch, BLACK, "e5").await.unwrap();
    let err = env.svc.play(ch, BLACK, "d5").await.unwrap_err();
    assert!(matches!(err, ServiceError::NotYourTurn), "{err:?}");
    let r = env.svc.play(ch, WHITE, "Nd2").await.unwrap();
    assert_eq!(r.status.plies, 3);
    other.offer(ch, WHITE, OfferKind::Takeback).await.unwrap();
    env.svc
        .accept_offer(ch, BLACK, OfferKind::Takeback)
        .await
        .unwrap();
    let shown = other.board(ch).await.unwrap();
    assert_eq!(shown.status.plies, 2);
    assert_eq!(
        shown.position.fen(),
        env.svc.board(ch).await.unwrap().position.fen()
    );
    let err = other.play(ch, BLACK, "Nd7").await.unwrap_err();
    assert!(matches!(err, ServiceError::NotYourTurn), "{err:?}");
    other.close().await;
}

#[tokio::test]
async fn an_in_memory_database_works_too() {
    let svc = GameService::open("sqlite::memory:").await.unwrap();
    let ch = ChannelId(60);
    start(&svc, ch, Ruleset::Standard).await;
    let r = svc.play(ch, WHITE, "e4").await.unwrap();
    assert_eq!(
        svc.board(ch).await.unwrap().position.fen(),
        r.position.fen()
    );
}
