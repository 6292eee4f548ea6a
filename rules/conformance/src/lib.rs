//! The rules crate (`makruk`) against Fairy-Stockfish's conformance data (`rules/tests/data/`,
//! README.md there): [`data`] reads the files (gzipped JSONL), [`check`] replays their games
//! and lists every mismatch.
//!
//! Used by `makruk`'s tests (`tests/conformance.rs`, `notation.rs`, `pgn.rs`), its
//! `conformance` example (a file given on the command line) and the bot's tests that replay the
//! same games through the service and Discord.

pub mod check;
pub mod data;
