//! Leases, and the reads of the leader's sweep (migration 0006).
//!
//! A lease is a row of `leases` (name, holder, expiry): whoever holds it does the work that
//! exactly one of several processes on the database must do (see `crate::game::leader`). It is
//! taken and renewed by one statement, `INSERT … ON CONFLICT (name) DO UPDATE … WHERE`, which
//! changes the row only when it is free, expired or already ours; both SQLite and PostgreSQL
//! run it atomically, so two processes can never both hold it.
//!
//! The sweep's reads are coarse filters in SQL (portable: no `MIN`/`MAX` of two values, whose
//! forms differ) that the caller refines with the clock's exact rules.

use sqlx::any::AnyRow;
use sqlx::{FromRow, Row as _};

use super::codec::Stored as _;
use super::games::select_games;
use super::{DbConn, GameRow, GameState};

/// A row of `leases`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaseRow {
    /// What the lease is for.
    pub name: String,
    /// The holding process's id.
    pub holder: String,
    /// Unix milliseconds until which it is held.
    pub expires_ms: i64,
}

impl<'r> FromRow<'r, AnyRow> for LeaseRow {
    fn from_row(r: &'r AnyRow) -> sqlx::Result<LeaseRow> {
        Ok(LeaseRow {
            name: r.try_get("name")?,
            holder: r.try_get("holder")?,
            expires_ms: r.try_get("expires_ms")?,
        })
    }
}

/// Takes or renews lease `name` for `holder` until `expires_ms`, if it is free, expired at
/// `now_ms` (its expiry not after it), or held by `holder` already. Returns whether `holder`
/// holds it now.
#[tracing::instrument(skip(conn))]
pub async fn acquire_lease(
    conn: &mut DbConn,
    name: &str,
    holder: &str,
    now_ms: i64,
    expires_ms: i64,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "INSERT INTO leases (name, holder, expires_ms) VALUES ($1, $2, $3) \
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, \
         expires_ms = excluded.expires_ms \
         WHERE leases.holder = excluded.holder OR leases.expires_ms <= $4",
    )
    .bind(name)
    .bind(holder)
    .bind(expires_ms)
    .bind(now_ms)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Gives lease `name` up if `holder` holds it (a clean shutdown: another process takes over at
/// its next renewal instead of after the expiry). Returns whether it was held.
#[tracing::instrument(skip(conn))]
pub async fn release_lease(conn: &mut DbConn, name: &str, holder: &str) -> sqlx::Result<bool> {
    let done = sqlx::query("DELETE FROM leases WHERE name = $1 AND holder = $2")
        .bind(name)
        .bind(holder)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Lease `name`'s row, if any (expired or not).
#[tracing::instrument(skip(conn))]
pub async fn lease(conn: &mut DbConn, name: &str) -> sqlx::Result<Option<LeaseRow>> {
    sqlx::query_as("SELECT name, holder, expires_ms FROM leases WHERE name = $1")
        .bind(name)
        .fetch_optional(conn)
        .await
}

/// The active games whose flag or correspondence reminder may have been due at `before_ms` or
/// earlier, oldest turn first: a superset, the caller checks each clock. The rules' owner is
/// [`crate::clock::ClockState`] (`is_out_of_time`, `reminder_due_at_ms`); SQL does not know
/// whose turn it is, so it selects the games due for either side, and a test checks that on a
/// table of cases it selects exactly those. A flag is due when the turn's start plus the
/// smaller of both remaining times has passed; a reminder (a sixth of the period before the
/// deadline, not sent yet, correspondence only) when five sixths of it have (in
/// correspondence both sides have the full period at the start of every turn).
#[tracing::instrument(skip(conn))]
pub async fn clock_candidates(conn: &mut DbConn, before_ms: i64) -> sqlx::Result<Vec<GameRow>> {
    let less = "CASE WHEN white_ms < black_ms THEN white_ms ELSE black_ms END";
    sqlx::query_as(&select_games(&format!(
        "state = '{}' AND (clock_started_ms + {less} <= $1 OR (reminder_sent = 0 \
         AND time_control LIKE 'c%' AND clock_started_ms + ({less}) * 5 / 6 <= $1)) \
         ORDER BY clock_started_ms, id",
        GameState::Active.db_name()
    )))
    .bind(before_ms)
    .fetch_all(conn)
    .await
}

/// The active games against the computer whose current turn started at `before_ms` or
/// earlier, oldest first (the caller checks whose turn it is and the level's think time).
#[tracing::instrument(skip(conn))]
pub async fn computer_candidates(conn: &mut DbConn, before_ms: i64) -> sqlx::Result<Vec<GameRow>> {
    sqlx::query_as(&select_games(&format!(
        "state = '{}' AND computer_side IS NOT NULL AND clock_started_ms <= $1 \
         ORDER BY clock_started_ms, id",
        GameState::Active.db_name()
    )))
    .bind(before_ms)
    .fetch_all(conn)
    .await
}
