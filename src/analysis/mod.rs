//! Computer analysis of finished games (issue 23): the engine's `analysis` module judges each
//! move; this folder turns its result into what users and tools see. So far: the
//! `makruk-bot analyse` command-line tool ([`cli`]): JSON and the eval graph
//! (`crate::render::evalgraph`).

pub mod cli;
