//! The test support of makruk-bot's integration tests (`tests/`) and examples, in one crate
//! (a dev-dependency, never published) instead of modules included into each test binary:
//! - [`service`]: a [`makruk_bot::game::GameService`] on a fresh database (SQLite, or
//!   PostgreSQL when `MAKRUK_TEST_POSTGRES_URL` is set), games started, the conformance data,
//!   what the service announced (`tests/service_*.rs`);
//! - [`bot`]: the real bot started against the Discord stand-in (`tests/e2e_*.rs`);
//! - [`table`]: the end-to-end tests' table: the stand-in, the bot on a fresh database and the
//!   players, with what they do (challenge, accept, move, restart);
//! - [`crash`]: the crash proof's driver (`tests/crash.rs`, `examples/crash.rs`);
//! - [`powercut`]: a power cut for SQLite (a VFS shim keeping what was synced) and its driver
//!   (`tests/power_cut.rs`, `examples/power_cut.rs`).

pub mod bot;
pub mod crash;
#[cfg(unix)]
pub mod powercut;
pub mod service;
pub mod table;
