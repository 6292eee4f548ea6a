//! The [`Brain`] the bot plays with: our engine, the `makruk-engine` crate.
//!
//! NOT YET IN THE MODULE TREE: the engine crate is written in parallel. To enable it at merge:
//! 1. Cargo.toml: `makruk-engine = { path = "engine" }` under `[dependencies]` (and `engine`
//!    in the workspace members);
//! 2. src/computer/mod.rs: `mod engine_brain;` and `pub use engine_brain::engine_pool;`.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use makruk::{Game, Move};
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

    fn accepts_draw(&mut self, game: &Game, level: u8) -> bool {
        Level::new(level)
            .is_some_and(|level| makruk_engine::accepts_draw(&mut self.engine, game, level))
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
