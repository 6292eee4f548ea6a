//! The analysis runner: works through the game service's queue of analyses
//! ([`GameService::queued_analyses`], oldest first, one at a time), each on the computer's
//! thinking pool below every game's move ([`Pool::analyse`]), and stores each result
//! ([`GameService::finish_analysis`]). At start-up it finds the analyses a restart left
//! unfinished and runs them again from their start (an analysis is never half stored).

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use makruk_engine::analysis::Progress;
use tokio::sync::{broadcast, watch, Notify};
use tokio::task::JoinHandle;

use crate::computer::{Pool, PoolError};
use crate::game::{GameId, GameService};

/// What an analysis is stored as made by: the bot's version, whose engine is built in (a
/// newer one may analyse a game again on request).
pub const ENGINE: &str = concat!("makruk-bot ", env!("CARGO_PKG_VERSION"));

/// How often the queue is looked at when nobody nudges the runner (another process of the
/// same database may have queued an analysis).
const IDLE_LOOK: Duration = Duration::from_secs(30);

/// The running analyses' progress, by game.
type Running = Arc<Mutex<HashMap<GameId, watch::Receiver<Progress>>>>;

/// The runner's handle: nudge it when an analysis was queued, follow a game's progress, hear
/// of finished ones. Dropping it stops the runner (an analysis running then stays queued).
pub struct AnalysisRunner {
    nudge: Arc<Notify>,
    running: Running,
    finished: broadcast::Sender<GameId>,
    task: JoinHandle<()>,
}

impl AnalysisRunner {
    /// Starts the runner on `service`'s queue, searching on `pool`.
    #[must_use]
    pub fn start(service: GameService, pool: Arc<Pool>) -> AnalysisRunner {
        let nudge = Arc::new(Notify::new());
        let running: Running = Arc::default();
        let (finished, _) = broadcast::channel(64);
        let task = tokio::spawn(run(
            service,
            pool,
            Arc::clone(&nudge),
            Arc::clone(&running),
            finished.clone(),
        ));
        AnalysisRunner {
            nudge,
            running,
            finished,
            task,
        }
    }

    /// Looks at the queue now (call it after queueing an analysis).
    pub fn nudge(&self) {
        self.nudge.notify_one();
    }

    /// The progress of `game`'s analysis while it runs (`None`: not running now).
    #[must_use]
    pub fn progress(&self, game: GameId) -> Option<watch::Receiver<Progress>> {
        self.running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&game)
            .cloned()
    }

    /// The games whose analysis is stored from now on, as each is.
    #[must_use]
    pub fn finished(&self) -> broadcast::Receiver<GameId> {
        self.finished.subscribe()
    }
}

impl Drop for AnalysisRunner {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The nodes of each deep search when a finished game's missed wins are tried as puzzles
/// (`crate::puzzles::from_games`); the first test of a position takes 20,000.
const GAME_PUZZLE_NODES: u64 = 200_000;

/// Tries the missed wins of analysed `game` as puzzles of its server and stores those that
/// pass (at most three positions a game, about a second of one core each, on a thread of its
/// own after the analysis; a failure is logged, the analysis stays).
async fn game_puzzles(
    service: &GameService,
    id: GameId,
    game: makruk::Game,
    analysis: makruk_engine::analysis::Analysis,
) {
    let found = tokio::task::spawn_blocking(move || {
        let mut engine = makruk_engine::Engine::new(16);
        let cfg = makruk_engine::puzzle::FindConfig {
            nodes: GAME_PUZZLE_NODES,
            ..makruk_engine::puzzle::FindConfig::default()
        };
        crate::puzzles::from_games::puzzles_of_game(&mut engine, &game, &analysis, |_| true, &cfg)
    })
    .await;
    match found {
        Ok(found) if found.is_empty() => {}
        Ok(found) => match service.add_game_puzzles(id, &found).await {
            Ok(added) => tracing::info!(game = id.0, added, "puzzles from a game"),
            Err(e) => tracing::warn!(game = id.0, error = %e, "storing a game's puzzles"),
        },
        Err(e) => tracing::warn!(game = id.0, "finding a game's puzzles failed: {e}"),
    }
}

async fn run(
    service: GameService,
    pool: Arc<Pool>,
    nudge: Arc<Notify>,
    running: Running,
    finished: broadcast::Sender<GameId>,
) {
    // Analyses that failed in this process (the engine panicked): not tried again until a
    // restart, so one bad game does not keep a worker busy for ever.
    let mut failed: HashSet<(GameId, String, u64)> = HashSet::new();
    loop {
        let queue = match service.queued_analyses().await {
            Ok(q) => q,
            Err(e) => {
                tracing::warn!(error = %e, "reading the analysis queue");
                tokio::time::sleep(Duration::from_secs(5)).await;
                continue;
            }
        };
        let next = queue
            .into_iter()
            .find(|q| !failed.contains(&(q.game_id, q.engine.clone(), q.nodes)));
        let Some(q) = next else {
            let _ = tokio::time::timeout(IDLE_LOOK, nudge.notified()).await;
            continue;
        };
        let analysing = pool.analyse(q.game.clone(), q.nodes);
        running
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(q.game_id, analysing.progress());
        let result = analysing.await;
        // Stays "running" until it is stored (or failed), so that a waiting message never
        // goes back to "in line" in between.
        let stop_running = || {
            running
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .remove(&q.game_id);
        };
        match result {
            Ok(analysis) => {
                let stored = service
                    .finish_analysis(q.game_id, &q.engine, q.nodes, &analysis)
                    .await;
                stop_running();
                match stored {
                    Ok(true) => {
                        tracing::info!(game = q.game_id.0, "game analysed");
                        let _ = finished.send(q.game_id);
                        game_puzzles(&service, q.game_id, q.game.clone(), *analysis).await;
                    }
                    Ok(false) => {}
                    Err(e) => {
                        tracing::warn!(game = q.game_id.0, error = %e, "storing an analysis");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }
            }
            Err(PoolError::Closed) => {
                stop_running();
                return;
            }
            Err(e) => {
                stop_running();
                tracing::warn!(game = q.game_id.0, error = %e, "analysing a game");
                failed.insert((q.game_id, q.engine, q.nodes));
            }
        }
    }
}
