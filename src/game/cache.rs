//! Replayed games kept in memory, keyed by game id and version, so that a request on a game
//! whose stored row still has the cached version does not read and replay all its moves.
//!
//! The database stays the source of truth: an entry is used only when the row just read has
//! exactly the cached version (and the FEN the cached game reaches), and every write is still
//! guarded by the version check in the database. An entry is made only from a replay of the
//! stored moves or after a committed write, so a version's entry is exactly the stored game of
//! that version (every change bumps the version). Nothing lives only here: a restart starts with
//! an empty cache and replays from the database.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use makruk::Game;

use crate::clock::Snapshot;

/// How many games the cache holds at most (about 20 KB each for a long game).
const CAPACITY: usize = 4096;

/// One cached game: its stored version, the replayed game, the clocks stored with each move.
type Entry = (i64, Game, Vec<Snapshot>);

/// A game replayed at a stored version, with the clocks stored with each of its moves.
#[derive(Default)]
pub(super) struct GameCache {
    games: Mutex<HashMap<i64, Entry>>,
}

impl GameCache {
    /// A copy of game `id` as of stored version `version`, if cached.
    pub(super) fn get(&self, id: i64, version: i64) -> Option<(Game, Vec<Snapshot>)> {
        let games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
        games
            .get(&id)
            .filter(|(v, _, _)| *v == version)
            .map(|(_, g, s)| (g.clone(), s.clone()))
    }

    /// Remembers `game` as game `id` at stored version `version`, unless a newer version is
    /// already cached (requests on one game may finish out of order).
    pub(super) fn put(&self, id: i64, version: i64, game: &Game, clocks: &[Snapshot]) {
        let mut games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
        if games.get(&id).is_some_and(|(v, _, _)| *v >= version) {
            return;
        }
        if games.len() >= CAPACITY && !games.contains_key(&id) {
            // Any entry: a dropped entry only costs one replay.
            if let Some(&old) = games.keys().next() {
                games.remove(&old);
            }
        }
        games.insert(id, (version, game.clone(), clocks.to_vec()));
    }
}
