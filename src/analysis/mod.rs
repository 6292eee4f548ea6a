//! Computer analysis of finished games (issue 23): the engine's `analysis` module judges each
//! move; this folder turns its result into what users and tools see: the
//! `makruk-bot analyse` command-line tool ([`cli`]: JSON and the eval graph,
//! `crate::render::evalgraph`), and the [`runner`] that analyses the games players ask for
//! (the game service keeps the queue and the stored results).

pub mod cli;
pub mod report;
pub mod runner;

pub use runner::{AnalysisRunner, ENGINE};
