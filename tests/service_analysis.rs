//! The analysis of finished games through the game service and the runner (issue 23): asked
//! for, queued with its place in line, run on the thinking pool, stored one row per ply, then
//! answered at once; a restart finds a queued analysis and runs it; a game in progress is not
//! analysed.

use std::sync::Arc;
use std::time::Duration;

use makruk::{Color, Ruleset};
use makruk_bot::analysis::{AnalysisRunner, ENGINE};
use makruk_bot::computer::{engine_pool, Settings};
use makruk_bot::game::{
    parse_eval, AnalysisStatus, ChannelId, Eval, GameId, Judgement, ServiceError, UserId,
};
use makruk_engine::analysis::Advice;
use testkit::service::{start, start_from_fen, Env, BLACK, WHITE};

/// Small, so the tests are quick; the judgements do not matter here.
const NODES: u64 = 3_000;

fn pool() -> Arc<makruk_bot::computer::Pool> {
    let settings = Settings {
        threads: 1,
        hash_mb: 1,
        ..Settings::default()
    };
    Arc::new(engine_pool(&settings).expect("pool"))
}

/// A finished game in `ch`: six moves, then Black resigns.
async fn finished_game(env: &Env, ch: ChannelId) -> GameId {
    let reply = start(&env.svc, ch, Ruleset::Standard).await;
    for (i, san) in ["c4", "f5", "b4", "g5", "Nc3", "Nf6"].iter().enumerate() {
        let user = if i % 2 == 0 { WHITE } else { BLACK };
        env.svc.play(ch, user, san).await.expect(san);
    }
    env.svc.resign(ch, BLACK).await.expect("resign");
    reply.game_id
}

async fn wait_done(env: &Env, ch: ChannelId, game: GameId) -> makruk_bot::game::GameAnalysis {
    for _ in 0..600 {
        if let AnalysisStatus::Done(a) = env
            .svc
            .request_analysis(ch, Some(game), ENGINE, NODES)
            .await
            .expect("request")
        {
            return *a;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("game {} was not analysed in 30 s", game.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_is_queued_run_stored_and_then_instant() {
    let env = Env::new().await;
    let (a, b) = (ChannelId(1), ChannelId(2));
    let first = finished_game(&env, a).await;
    let second = finished_game(&env, b).await;
    // No runner yet: both wait, in the order asked; asking again keeps the place.
    let ask = |ch, g| env.svc.request_analysis(ch, Some(g), ENGINE, NODES);
    assert_eq!(
        ask(a, first).await.unwrap(),
        AnalysisStatus::Queued {
            game_id: first,
            ahead: 0
        }
    );
    assert_eq!(
        ask(b, second).await.unwrap(),
        AnalysisStatus::Queued {
            game_id: second,
            ahead: 1
        }
    );
    assert_eq!(
        ask(b, second).await.unwrap(),
        AnalysisStatus::Queued {
            game_id: second,
            ahead: 1
        }
    );
    // Another channel's game is not found from here.
    assert!(matches!(
        ask(a, second).await,
        Err(ServiceError::GameNotFound)
    ));
    let runner = AnalysisRunner::start(env.svc.clone(), pool());
    runner.nudge();
    let done = wait_done(&env, b, second).await;
    let record = env.svc.record(b, Some(second)).await.unwrap();
    assert_eq!(
        done.plies.len(),
        record.game.moves().len(),
        "one row per ply"
    );
    assert_eq!(done.engine, ENGINE);
    assert_eq!(done.nodes, NODES);
    for (i, p) in done.plies.iter().enumerate() {
        assert_eq!(p.ply as usize, i);
        let best = p.best.as_deref().expect("a best move");
        let pos = &record.game.positions()[i];
        assert!(
            makruk::parse_move(pos, best).is_ok(),
            "ply {i}: best {best} is not legal there"
        );
        assert!((0.0..=100.0).contains(&p.accuracy));
    }
    assert!(done.summary.white.accuracy.is_some() && done.summary.black.accuracy.is_some());
    // The first was analysed too, and the stored one is what the service gives back.
    let first_done = wait_done(&env, a, first).await;
    assert_eq!(
        env.svc.stored_analysis(first).await.unwrap(),
        Some(first_done)
    );
    // The same analysis the engine gives directly.
    let direct = makruk_engine::analysis::analyse(
        &mut makruk_engine::Engine::new(1),
        &record.game,
        NODES,
        &mut |_| {},
    );
    let evals: Vec<_> = done.plies.iter().map(|p| p.eval).collect();
    let direct_evals: Vec<_> = direct.plies.iter().map(|p| p.eval).collect();
    assert_eq!(evals, direct_evals);
    assert!(parse_eval("cp:x").is_none() && parse_eval("mate:0").is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_queued_analysis_survives_a_restart_and_a_game_in_progress_is_refused() {
    let mut env = Env::new().await;
    let ch = ChannelId(5);
    let game = finished_game(&env, ch).await;
    assert!(matches!(
        env.svc
            .request_analysis(ch, None, ENGINE, NODES)
            .await
            .unwrap(),
        AnalysisStatus::Queued { ahead: 0, .. }
    ));
    env.restart().await;
    // The new process's runner finds it without being nudged.
    let _runner = AnalysisRunner::start(env.svc.clone(), pool());
    let done = wait_done(&env, ch, game).await;
    assert_eq!(done.plies.len(), 6);
    // A game in progress.
    let playing = ChannelId(6);
    let live = start(&env.svc, playing, Ruleset::Standard).await;
    assert!(matches!(
        env.svc.request_analysis(playing, None, ENGINE, NODES).await,
        Err(ServiceError::GameNotOver(g)) if g == live.game_id
    ));
}

/// The `[%eval …]` value lichess writes for `e`: the JVM's `Float.toString` of `cp / 100f`
/// (the shortest decimal, at least one digit after the point), `#N` for a mate in N moves,
/// `#0` for checkmate on the board. Written here apart from the service's.
fn lichess_eval(e: Eval) -> String {
    match e {
        Eval::Cp(cp) => {
            let s = format!("{}", cp as f32 / 100.0);
            if s.contains('.') {
                s
            } else {
                format!("{s}.0")
            }
        }
        Eval::Mate(n) => format!("#{n}"),
        Eval::Checkmate { .. } => "#0".into(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysed_games_pgn_and_replay_carry_its_evals_best_moves_and_judgements() {
    let env = Env::new().await;
    let ch = ChannelId(9);
    // Black's Khun a8, White's Khun b6 and Ruea h1: Rh7 (Rh8 mated at once), Kb8, Rh8#.
    let game = start_from_fen(
        &env.svc,
        ch,
        "k7/8/1K6/8/8/8/8/7R w - - 0 1",
        Ruleset::Standard,
    )
    .await;
    for (i, san) in ["Rh7", "Kb8", "Rh8#"].iter().enumerate() {
        let user = if i % 2 == 0 { WHITE } else { BLACK };
        env.svc.play(ch, user, san).await.expect(san);
    }
    let names = |u: UserId| format!("user{}", u.0);
    let plain = env.svc.pgn(ch, Some(game), &names).await.expect("pgn").pgn;
    assert!(plain.ends_with("\n\n1. Rh7 Kb8 2. Rh8# 1-0\n"), "{plain}");
    // Queued is not done: still the plain text.
    env.svc
        .request_analysis(ch, Some(game), ENGINE, NODES)
        .await
        .expect("request");
    assert_eq!(
        env.svc.pgn(ch, Some(game), &names).await.unwrap().pgn,
        plain
    );
    assert!(env
        .svc
        .record(ch, Some(game))
        .await
        .unwrap()
        .review(1)
        .is_none());

    // The engine's analysis, with a judgement on Black's move so that one is shown for sure.
    let record = env.svc.record(ch, Some(game)).await.unwrap();
    let mut analysis = makruk_engine::analysis::analyse(
        &mut makruk_engine::Engine::new(1),
        &record.game,
        NODES,
        &mut |_| {},
    );
    analysis.plies[1].judged.advice = Some(Advice {
        judgement: Judgement::Mistake,
        mate: None,
    });
    assert!(env
        .svc
        .finish_analysis(game, ENGINE, NODES, &analysis)
        .await
        .unwrap());
    let stored = env
        .svc
        .stored_analysis(game)
        .await
        .unwrap()
        .expect("stored");
    assert_eq!(
        stored.plies.last().map(|p| p.eval),
        Some(Eval::Checkmate {
            winner: Color::White
        })
    );

    // The PGN: after each move its judgement's NAG and its eval comment.
    let pgn = env.svc.pgn(ch, Some(game), &names).await.unwrap().pgn;
    let glyph = |j: Option<Judgement>| match j {
        None => "",
        Some(Judgement::Inaccuracy) => " $6",
        Some(Judgement::Mistake) => " $2",
        Some(Judgement::Blunder) => " $4",
    };
    let p = &stored.plies;
    let movetext = format!(
        "1. Rh7{} {{ [%eval {}] }} 1... Kb8{} {{ [%eval {}] }} 2. Rh8#{} {{ [%eval #0] }} 1-0\n",
        glyph(p[0].judgement),
        lichess_eval(p[0].eval),
        glyph(p[1].judgement),
        lichess_eval(p[1].eval),
        glyph(p[2].judgement),
    );
    assert!(pgn.contains("1... Kb8 $2 { [%eval "), "{pgn}");
    let header = &plain[..plain.find("\n\n").unwrap() + 2];
    assert_eq!(pgn, format!("{header}{movetext}"));
    // It reads back: same tags and moves.
    let back = makruk::pgn::read_pgn(&pgn).expect("readable");
    let plain_back = makruk::pgn::read_pgn(&plain).expect("readable");
    assert_eq!(back, plain_back);

    // /replay's data: the eval after each move, the best move before it in SAN, the judgement.
    let record = env.svc.record(ch, Some(game)).await.unwrap();
    for (i, analysed) in stored.plies.iter().enumerate() {
        let review = record.review(i + 1).expect("a review");
        assert_eq!(review.eval, analysed.eval);
        assert_eq!(review.judgement, analysed.judgement);
        let before = &record.game.positions()[i];
        let best = makruk::parse_move(before, analysed.best.as_deref().expect("best")).unwrap();
        let choice = review.best.expect("best move");
        assert_eq!(choice.san, makruk::san::to_san(before, &best));
        assert_eq!(choice.thai, makruk::san::to_thai_san(before, &best));
        assert_eq!(review.best_played, best == record.game.moves()[i]);
    }
    // Rh8 mated at once: that is the best move before Rh7.
    assert_eq!(record.review(1).unwrap().best.unwrap().san, "Rh8#");
    assert!(record.review(0).is_none() && record.review(4).is_none());
    // Another game of the channel, not analysed, keeps the plain text.
    let other = finished_game(&env, ChannelId(10)).await;
    let text = env
        .svc
        .pgn(ChannelId(10), Some(other), &names)
        .await
        .unwrap()
        .pgn;
    let movetext = &text[text.find("\n\n").unwrap()..];
    assert!(!movetext.contains('{') && !movetext.contains('?'), "{text}");
}

/// After the analysis of a server's game, the runner tries its missed wins as puzzles: White
/// could take Black's undefended Ruea (Rxa8) and played Ke2; that position becomes a puzzle
/// of the server (issue 24).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysed_games_missed_win_becomes_a_puzzle_of_its_server() {
    let env = Env::new().await;
    let ch = ChannelId(31);
    let id = start_from_fen(
        &env.svc,
        ch,
        "r3k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        Ruleset::Standard,
    )
    .await;
    let mut tx = env.svc.store().begin_write().await.expect("tx");
    sqlx::query("UPDATE games SET guild_id = 4242 WHERE id = $1")
        .bind(id.0)
        .execute(&mut *tx)
        .await
        .expect("a server's game");
    tx.commit().await.expect("commit");
    env.svc.play(ch, WHITE, "Ke2").await.expect("played");
    env.svc.resign(ch, WHITE).await.expect("over");
    let runner = AnalysisRunner::start(env.svc.clone(), pool());
    env.svc
        .request_analysis(ch, Some(id), ENGINE, 20_000)
        .await
        .expect("queued");
    runner.nudge();
    for _ in 0..600 {
        let mut conn = env.svc.store().read_conn().await.expect("conn");
        let found: Vec<(String, String)> =
            sqlx::query_as("SELECT moves, source FROM puzzles WHERE guild_id = 4242")
                .fetch_all(&mut *conn)
                .await
                .expect("read");
        if let Some((moves, source)) = found.first() {
            assert!(moves.starts_with("a1a8"), "{moves}");
            assert_eq!(source, &format!("game:{}:0", id.0));
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no puzzle from the game in 60 s");
}
