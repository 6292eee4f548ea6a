//! The analysis of finished games through the game service and the runner (issue 23): asked
//! for, queued with its place in line, run on the thinking pool, stored one row per ply, then
//! answered at once; a restart finds a queued analysis and runs it; a game in progress is not
//! analysed.

use std::sync::Arc;
use std::time::Duration;

use makruk::Ruleset;
use makruk_bot::analysis::{AnalysisRunner, ENGINE};
use makruk_bot::computer::{engine_pool, Settings};
use makruk_bot::game::{parse_eval, AnalysisStatus, ChannelId, GameId, ServiceError};
use testkit::service::{start, Env, BLACK, WHITE};

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
