//! The computer's driver: it takes the [`ComputerTurn`]s the game service hands out (after every
//! committed change that leaves the computer to move, and at start-up every game waiting for the
//! computer), has the move thought of off the async runtime (our engine on the [`Pool`]'s
//! threads, Fairy-Stockfish in its own process), and submits it with
//! [`GameService::computer_move`], which stores it under the version check and announces it.
//!
//! A newer turn of the same game (the player took back or offered a draw meanwhile) cancels the
//! search for the older one; a move that arrives for a version no longer current writes nothing
//! (the service's version check), so each turn is moved at most once.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use makruk::{CountAction, Game, Move, Ruleset};
use tokio::sync::Notify;
use tokio::task::JoinHandle;
use tracing::{debug, warn};

use super::{engine_pool, FairyStockfish, Pool, Settings, UciError};
use crate::game::{
    ComputerLevel, ComputerSeat, ComputerTurn, DrawJudge, GameId, GameService, JudgeFuture,
    ServiceError,
};

/// The computer opponent: our engine's thinking pool and the Fairy-Stockfish client. Share it
/// behind an `Arc`.
pub struct Computer {
    pool: Arc<Pool>,
    fairy_stockfish: FairyStockfish,
    settings: Settings,
}

/// How long the computer may think about `turn`'s move at `now_ms` (Unix milliseconds): the
/// level's budget from [`Settings::budgets`] (level 9: Fairy-Stockfish's `movetime`), less when
/// the computer's clock needs it ([`crate::clock::ClockState::engine_budget`]: a share of the
/// remaining time and the increment in live games). The one place the think time is decided.
#[must_use]
pub fn think_budget(settings: &Settings, turn: &ComputerTurn, now_ms: i64) -> Duration {
    turn.clock
        .engine_budget(now_ms, settings.think_time(turn.seat.level))
}

impl Computer {
    /// The computer of `settings`: `settings.threads` search threads started now.
    ///
    /// # Errors
    /// The operating system's error when a thread cannot be started.
    pub fn new(settings: Settings) -> std::io::Result<Computer> {
        Ok(Computer {
            pool: Arc::new(engine_pool(&settings)?),
            fairy_stockfish: FairyStockfish::new(settings.fairy_stockfish.clone()),
            settings,
        })
    }

    /// The thinking pool (the analysis runner searches on it too, below the games' moves).
    #[must_use]
    pub fn pool(&self) -> Arc<Pool> {
        Arc::clone(&self.pool)
    }

    /// Whether `level` can be played on this host: [`ServiceError::FairyStockfishMissing`] for
    /// Fairy-Stockfish not at its configured path; our engine's levels always can.
    ///
    /// # Errors
    /// [`ServiceError::FairyStockfishMissing`].
    pub fn check_level(&self, level: ComputerLevel) -> Result<(), ServiceError> {
        if level == ComputerLevel::FAIRY_STOCKFISH && !self.fairy_stockfish.is_installed() {
            return Err(ServiceError::FairyStockfishMissing);
        }
        Ok(())
    }

    /// The judge of draw offers to the computer (for [`GameService::with_draw_judge`]): our
    /// engine at the game's level (level 9 at our level 8).
    #[must_use]
    pub fn draw_judge(&self) -> Arc<dyn DrawJudge> {
        Arc::new(Judge(Arc::clone(&self.pool)))
    }

    /// The computer's count request (`traditional`) and move for `turn`.
    /// `now_ms`: when the thinking starts (the clock's time, Unix milliseconds).
    async fn think(
        &self,
        turn: &ComputerTurn,
        now_ms: i64,
    ) -> anyhow::Result<(Move, Option<CountAction>)> {
        let Some(level) = turn.seat.level.engine_level() else {
            return match self.fairy_stockfish.best_move(&turn.game).await {
                Ok(mv) => Ok((mv, None)),
                // A Fairy-Stockfish that does not offer the game's variant, or plays it by
                // other rules (Debian's 11.1: Ouk Chaktrang's Met may capture on its first
                // move), must not stall the game until the computer's flag falls: our
                // strongest level answers instead.
                Err(e @ (UciError::BadMove { .. } | UciError::NoVariant { .. })) => {
                    warn!(
                        game = turn.game_id.0,
                        "Fairy-Stockfish cannot answer ({e}); our level 8 plays this move"
                    );
                    let budget = think_budget(&self.settings, turn, now_ms);
                    let top = *ComputerLevel::ENGINE.end();
                    let mv = self
                        .pool
                        .choose_move_within(turn.game.clone(), top, budget)
                        .await?;
                    Ok((mv, None))
                }
                Err(e) => Err(e.into()),
            };
        };
        let mut game = turn.game.clone();
        let mut count = None;
        if game.ruleset() == Ruleset::Traditional {
            count = self.pool.count_decision(game.clone(), level).await?;
            let done = match count {
                Some(CountAction::Start) => game.start_count(),
                Some(CountAction::Stop) => game.stop_count(),
                None => Ok(()),
            };
            if let Err(e) = done {
                warn!(
                    game = turn.game_id.0,
                    "the engine's count request was refused: {e}"
                );
                game = turn.game.clone();
                count = None;
            }
        }
        let budget = think_budget(&self.settings, turn, now_ms);
        let mv = self.pool.choose_move_within(game, level, budget).await?;
        Ok((mv, count))
    }
}

/// [`DrawJudge`] on our engine's pool.
struct Judge(Arc<Pool>);

impl DrawJudge for Judge {
    fn accepts_draw(&self, game: Game, seat: ComputerSeat) -> JudgeFuture {
        let pool = Arc::clone(&self.0);
        Box::pin(async move {
            let level = seat
                .level
                .engine_level()
                .unwrap_or(*ComputerLevel::ENGINE.end());
            match pool.accepts_draw_as(game, level, seat.side).await {
                Ok(yes) => yes,
                Err(e) => {
                    warn!("cannot judge a draw offer, declining it: {e}");
                    false
                }
            }
        })
    }
}

/// The turn being thought about per game: its version, and how to cancel its search.
type Thinking = Arc<Mutex<HashMap<GameId, (i64, Arc<Notify>)>>>;

/// Starts the driver: first every game waiting for the computer (a restart), then each turn
/// the service hands out, until the service's stream ends. Returns `None` when the service's
/// turns were already taken (one driver per service).
#[must_use]
pub fn spawn(service: GameService, computer: Arc<Computer>) -> Option<JoinHandle<()>> {
    let mut turns = service.computer_turns()?;
    Some(tokio::spawn(async move {
        let thinking = Thinking::default();
        match service.pending_computer_turns().await {
            Ok(pending) => {
                for turn in pending {
                    start(&service, &computer, &thinking, turn);
                }
            }
            Err(e) => warn!("cannot read the games waiting for the computer: {e}"),
        }
        while let Some(turn) = turns.recv().await {
            start(&service, &computer, &thinking, turn);
        }
    }))
}

/// Thinks about `turn` and submits the move, unless that turn (or a newer one) of the game is
/// thought about already; a search for an older turn of the game is cancelled.
fn start(service: &GameService, computer: &Arc<Computer>, thinking: &Thinking, turn: ComputerTurn) {
    let mut map = thinking.lock().unwrap_or_else(PoisonError::into_inner);
    let id = turn.game_id;
    if let Some((version, cancel)) = map.get(&id) {
        if *version >= turn.version {
            return;
        }
        // Only the search is cancelled: a move already being stored is then refused by the
        // version check, never cut off halfway.
        cancel.notify_one();
    }
    let version = turn.version;
    let cancel = Arc::new(Notify::new());
    map.insert(id, (version, Arc::clone(&cancel)));
    let (service, computer, map_ref) =
        (service.clone(), Arc::clone(computer), Arc::clone(thinking));
    tokio::spawn(async move {
        play(&service, &computer, &turn, &cancel).await;
        let mut map = map_ref.lock().unwrap_or_else(PoisonError::into_inner);
        if map
            .get(&turn.game_id)
            .is_some_and(|(v, _)| *v == turn.version)
        {
            map.remove(&turn.game_id);
        }
    });
}

/// One turn: think (unless `cancel` is notified first), submit, log what became of it.
async fn play(service: &GameService, computer: &Computer, turn: &ComputerTurn, cancel: &Notify) {
    // Dropping the thinking future cancels the search.
    let thought = tokio::select! {
        thought = computer.think(turn, service.time().now_ms()) => thought,
        () = cancel.notified() => {
            debug!(game = turn.game_id.0, "a newer turn of the game cancelled this search");
            return;
        }
    };
    let (mv, count) = match thought {
        Ok(answer) => answer,
        Err(e) => {
            warn!(
                game = turn.game_id.0,
                level = turn.seat.level.number(),
                "the computer found no move: {e:#}"
            );
            return;
        }
    };
    match service.computer_move(turn, mv, count).await {
        Ok(_) => debug!(game = turn.game_id.0, "the computer moved"),
        Err(ServiceError::Stale) => {
            debug!(
                game = turn.game_id.0,
                "the game changed while the computer thought"
            );
        }
        Err(e) => warn!(
            game = turn.game_id.0,
            "cannot play the computer's move: {e}"
        ),
    }
}
