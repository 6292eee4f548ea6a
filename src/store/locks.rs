//! Locks of a write transaction on what it reads before it writes, where no row of its own
//! serializes two writers (PostgreSQL; on SQLite, whose one writer runs one write transaction at
//! a time, every function here does nothing).
//!
//! A game's own changes need no lock of this kind: its row's version check serializes them (the
//! `UPDATE … WHERE version = $n` of two writers waits for the first's row lock, then finds the
//! version changed and writes nothing). What remains:
//! - a channel: creating a challenge or a game there first checks that it has no active game and
//!   no open challenge ([`lock_channel`]); the partial unique indexes would refuse a second
//!   active game or open challenge anyway, but not a challenge beside a game;
//! - a player's rating at one speed on one server: a game's end reads both ratings and writes
//!   new ones ([`lock_ratings`]); the rows may not exist yet, so the lock is not a row lock but a
//!   transaction-scoped advisory lock per (server, player, speed), the two taken in a fixed order
//!   (so two games ending at once never deadlock), under a shared lock of all ratings that
//!   rebuilding them all takes alone ([`lock_all_ratings`]);
//! - the clocks' start-up ([`lock_clocks`]): the downtime given back to every game is read from
//!   the last heartbeat, and two processes starting at once must not both give it.
//!
//! Each lock is PostgreSQL's `pg_advisory_xact_lock(kind, key)`: the two-number form (a key space
//! of its own, apart from the one-number locks sqlx's migrator takes), `kind` one per kind of
//! lock and `key` a 32-bit hash of the ids (two ids with one hash only wait for each other).
//! Held until the transaction ends.

use super::{Backend, DbConn};
use crate::clock::Kind;
use crate::types::{ChannelId, GuildId, UserId};

/// The kinds of lock: the first number of the advisory lock.
#[derive(Clone, Copy)]
#[repr(i32)]
enum LockKind {
    Channel = 1,
    Rating = 2,
    AllRatings = 3,
    Clocks = 4,
    Tournament = 5,
}

/// A 32-bit key from 64-bit ids (FNV-1a over their bytes).
fn key(parts: &[u64]) -> i32 {
    let mut h: u32 = 0x811c_9dc5;
    for p in parts {
        for b in p.to_le_bytes() {
            h ^= u32::from(b);
            h = h.wrapping_mul(0x0100_0193);
        }
    }
    i32::from_ne_bytes(h.to_ne_bytes())
}

/// Takes advisory lock (`kind`, `key`) until the end of the transaction `conn` is in
/// (PostgreSQL; nothing on SQLite). `shared`: a shared lock (many holders, none exclusive).
async fn advisory(conn: &mut DbConn, kind: LockKind, key: i32, shared: bool) -> sqlx::Result<()> {
    if Backend::of(conn) != Backend::Postgres {
        return Ok(());
    }
    let sql = if shared {
        "SELECT pg_advisory_xact_lock_shared($1, $2)::TEXT"
    } else {
        "SELECT pg_advisory_xact_lock($1, $2)::TEXT"
    };
    sqlx::query(sql)
        .bind(kind as i32)
        .bind(key)
        .execute(conn)
        .await?;
    Ok(())
}

/// Locks `channel` for creating a challenge or a game in it, until the transaction ends: call it
/// before reading whether the channel has an active game or an open challenge.
///
/// # Errors
/// Database errors (the statement timeout, waiting, included).
pub async fn lock_channel(conn: &mut DbConn, channel: ChannelId) -> sqlx::Result<()> {
    advisory(conn, LockKind::Channel, key(&[channel.0]), false).await
}

/// Locks the tournaments of `channel` (its one open or running event, its players and pairings)
/// until the transaction ends: every tournament write takes it before reading, so that a join,
/// a start, a withdrawal, a cancel and the pairing of a round never interleave.
///
/// # Errors
/// Database errors (the statement timeout, waiting, included).
pub async fn lock_tournament(conn: &mut DbConn, channel: ChannelId) -> sqlx::Result<()> {
    advisory(conn, LockKind::Tournament, key(&[channel.0]), false).await
}

/// Locks the ratings at speed `speed` on `guild` of `players` (in a fixed order, whatever the
/// order given), and all ratings shared, until the transaction ends: call it before reading them
/// to rate a game.
///
/// # Errors
/// Database errors (a deadlock PostgreSQL found, which [`super::is_retryable`] recognises,
/// included).
pub async fn lock_ratings(
    conn: &mut DbConn,
    guild: GuildId,
    speed: Kind,
    players: [UserId; 2],
) -> sqlx::Result<()> {
    advisory(conn, LockKind::AllRatings, 0, true).await?;
    let speed = match speed {
        Kind::Live => 0,
        Kind::Correspondence => 1,
    };
    let mut keys = players.map(|p| key(&[guild.0, p.0, speed]));
    keys.sort_unstable();
    let [first, second] = keys;
    advisory(conn, LockKind::Rating, first, false).await?;
    if second != first {
        advisory(conn, LockKind::Rating, second, false).await?;
    }
    Ok(())
}

/// Locks every rating (no game is rated meanwhile) until the transaction ends: for rebuilding
/// them all (`recompute`).
///
/// # Errors
/// Database errors.
pub async fn lock_all_ratings(conn: &mut DbConn) -> sqlx::Result<()> {
    advisory(conn, LockKind::AllRatings, 0, false).await
}

/// Locks the clocks' start-up (the last heartbeat and the downtime given back) until the
/// transaction ends.
///
/// # Errors
/// Database errors.
pub async fn lock_clocks(conn: &mut DbConn) -> sqlx::Result<()> {
    advisory(conn, LockKind::Clocks, 0, false).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_depend_on_every_id_and_their_order() {
        assert_ne!(key(&[1, 2, 0]), key(&[2, 1, 0]));
        assert_ne!(key(&[1, 2, 0]), key(&[1, 2, 1]));
        assert_eq!(key(&[7]), key(&[7]));
    }
}
