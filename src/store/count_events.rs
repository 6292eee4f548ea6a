//! The `count_events` table: a `traditional` game's counting requests, in order.

use makruk::CountAction;
use sqlx::any::AnyRow;
use sqlx::{FromRow, Row as _};

use super::codec::{get, Stored as _};
use super::DbConn;
use crate::types::GameId;

/// A stored counting request (`traditional`): at `ply` (before the move with that index).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountEventRow {
    pub seq: i64,
    pub ply: i64,
    pub action: CountAction,
}

impl<'r> FromRow<'r, AnyRow> for CountEventRow {
    fn from_row(r: &'r AnyRow) -> sqlx::Result<CountEventRow> {
        Ok(CountEventRow {
            seq: r.try_get("seq")?,
            ply: r.try_get("ply")?,
            action: get(r, "action")?,
        })
    }
}

/// The counting requests of game `game_id`, in order.
#[tracing::instrument(skip(conn))]
pub async fn count_events(conn: &mut DbConn, game_id: GameId) -> sqlx::Result<Vec<CountEventRow>> {
    sqlx::query_as("SELECT seq, ply, action FROM count_events WHERE game_id = $1 ORDER BY seq")
        .bind(game_id)
        .fetch_all(conn)
        .await
}

/// Appends counting request number `seq` (0-based) to game `game_id`.
#[tracing::instrument(skip(conn))]
pub async fn insert_count_event(
    conn: &mut DbConn,
    game_id: GameId,
    seq: i64,
    ply: i64,
    action: CountAction,
) -> sqlx::Result<()> {
    sqlx::query("INSERT INTO count_events (game_id, seq, ply, action) VALUES ($1, $2, $3, $4)")
        .bind(game_id)
        .bind(seq)
        .bind(ply)
        .bind(action.db_name())
        .execute(conn)
        .await?;
    Ok(())
}

/// Deletes the counting requests of game `game_id` from number `seq` on (a takeback).
#[tracing::instrument(skip(conn))]
pub async fn delete_count_events_from(
    conn: &mut DbConn,
    game_id: GameId,
    seq: i64,
) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM count_events WHERE game_id = $1 AND seq >= $2")
        .bind(game_id)
        .bind(seq)
        .execute(conn)
        .await?;
    Ok(())
}
