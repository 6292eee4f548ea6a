//! The [`Brain`] the bot plays with: our engine, the `makruk-engine` crate.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use makruk::{Color, Game, Move};
use makruk_engine::{Engine, Level};
use rand::rngs::StdRng;
use rand::SeedableRng;

use super::{Brain, Pool, Settings};

/// One worker's engine: its transposition table, and the randomness that varies the lower
/// levels' play.
struct EngineBrain {
    engine: Engine,
    rng: StdRng,
}

impl Brain for EngineBrain {
    fn choose(
        &mut self,
        game: &Game,
        level: u8,
        budget: Duration,
        stop: &AtomicBool,
    ) -> Option<Move> {
        let level = Level::new(level)?;
        makruk_engine::choose_move(&mut self.engine, game, level, budget, stop, &mut self.rng)
    }

    fn accepts_draw(&mut self, game: &Game, level: u8, side: Color) -> bool {
        // The level only has to exist: the judgement is the same at every level.
        Level::new(level).is_some() && makruk_engine::accepts_draw(&mut self.engine, game, side)
    }
}

/// The thinking pool of the bot: `settings.threads` workers, each with an engine whose
/// transposition table takes `settings.hash_mb` MiB (allocated on the worker's first request).
///
/// # Errors
/// The operating system's error when a thread cannot be started.
pub fn engine_pool(settings: &Settings) -> std::io::Result<Pool> {
    let hash_mb = settings.hash_mb;
    Pool::new(settings, move || EngineBrain {
        engine: Engine::new(hash_mb),
        rng: StdRng::from_os_rng(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::computer::Request;
    use makruk::Ruleset;

    /// The real engine behind the pool: every level answers a legal move, and a Khun that can
    /// be mated in one is mated at full strength.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_engine_answers_through_the_pool() {
        let settings = Settings {
            threads: 2,
            hash_mb: 1,
            ..Settings::default()
        };
        let pool = engine_pool(&settings).expect("pool");
        let game = Game::new(Ruleset::Standard);
        for level in [1, 4, 8] {
            let m = pool.choose_move(game.clone(), level).await.expect("a move");
            assert!(game.position().is_legal(&m), "level {level}: {m:?}");
        }
        // Two Ruea against a bare Khun on the back rank: Rb8# (the assertion checks the mate).
        let pos = makruk::Position::from_fen("4k3/R7/8/8/8/8/8/1R2K3 w - - 0 1", Ruleset::Standard)
            .expect("fen");
        let game = Game::from_position(pos);
        let m = pool.choose_move(game.clone(), 8).await.expect("a move");
        assert!(game.position().after(&m).is_checkmate(), "{m:?}");
        assert!(matches!(
            pool.think(Request::Draw {
                game,
                level: 8,
                side: makruk::Color::White
            })
            .await,
            Ok(crate::computer::Reply::Draw(false))
        ));
    }
}
