//! The `moves` table: a game's moves in order, with both clocks after each and whether a board
//! showing it reached the channel.

use sqlx::any::{AnyArguments, AnyRow};
use sqlx::query::Query;
use sqlx::{Any, FromRow, Row as _};

use super::games::{bind_game_update, UPDATE_GAME};
use super::{Backend, DbConn, GameRow};
use crate::clock::Snapshot;
use crate::types::GameId;

/// A stored move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRow {
    /// 0-based index of the move in the game.
    pub ply: i64,
    pub uci: String,
    pub san: String,
    /// Both sides' remaining milliseconds after the move (`None` for moves stored before
    /// clocks existed).
    pub clocks: Option<Snapshot>,
}

impl<'r> FromRow<'r, AnyRow> for MoveRow {
    fn from_row(r: &'r AnyRow) -> sqlx::Result<MoveRow> {
        let white: Option<i64> = r.try_get("white_ms")?;
        let black: Option<i64> = r.try_get("black_ms")?;
        Ok(MoveRow {
            ply: r.try_get("ply")?,
            uci: r.try_get("uci")?,
            san: r.try_get("san")?,
            clocks: white
                .zip(black)
                .map(|(white_ms, black_ms)| Snapshot { white_ms, black_ms }),
        })
    }
}

/// Appends move `mv` (number `mv.ply`, 0-based) to game `g.id` and writes the changeable fields of `g`
/// (as [`super::update_game`]), both only if the stored version is still `expected_version`; the
/// version becomes `expected_version + 1`. Returns false when it was not (a lost race):
/// nothing is written then. Call it inside a write transaction.
///
/// On SQLite the two statements go as one query (one round trip to the connection's worker
/// thread instead of two). The move is inserted first, guarded by the same version condition
/// as the update that follows; SQLite's one writer runs one transaction at a time, so both
/// see the same version and both apply or neither does. On PostgreSQL, where writers of one
/// game run at once (and two statements with binds do not go in one query), the update comes
/// first: it takes the game's row lock, so a second writer waits for the first to end, then
/// finds the version changed and changes nothing; the move is inserted after it.
#[tracing::instrument(skip(conn, g, mv), fields(game = g.id.0))]
pub async fn append_move(
    conn: &mut DbConn,
    g: &GameRow,
    expected_version: i64,
    mv: &MoveRow,
) -> sqlx::Result<bool> {
    const INSERT_MOVE: &str = "INSERT INTO moves (game_id, ply, uci, san, created_at, white_ms, \
         black_ms, announced) \
         SELECT $10, $17, $18, $19, $8, $20, $21, 0 FROM games WHERE id = $10 AND version = $11";
    /// Binds the move's $17-$21 after the update's.
    fn bind_move<'q>(
        q: Query<'q, Any, AnyArguments<'q>>,
        mv: &'q MoveRow,
    ) -> Query<'q, Any, AnyArguments<'q>> {
        q.bind(mv.ply)
            .bind(&mv.uci)
            .bind(&mv.san)
            .bind(mv.clocks.map(|c| c.white_ms))
            .bind(mv.clocks.map(|c| c.black_ms))
    }
    let changed = match Backend::of(conn) {
        Backend::Sqlite => {
            let sql = format!("{INSERT_MOVE}; {UPDATE_GAME}");
            bind_move(bind_game_update(sqlx::query(&sql), g, expected_version), mv)
                .execute(&mut *conn)
                .await?
                .rows_affected()
        }
        Backend::Postgres => {
            let updated = bind_game_update(sqlx::query(UPDATE_GAME), g, expected_version)
                .execute(&mut *conn)
                .await?
                .rows_affected();
            if updated == 0 {
                0
            } else {
                insert_move(conn, g.id, mv, g.updated_at).await?;
                updated + 1
            }
        }
    };
    match changed {
        2 => Ok(true),
        0 => Ok(false),
        n => Err(sqlx::Error::Protocol(format!(
            "appending a move changed {n} rows, not 0 or 2"
        ))),
    }
}

/// The moves of game `game_id`, in order.
#[tracing::instrument(skip(conn))]
pub async fn moves(conn: &mut DbConn, game_id: GameId) -> sqlx::Result<Vec<MoveRow>> {
    sqlx::query_as(
        "SELECT ply, uci, san, white_ms, black_ms FROM moves WHERE game_id = $1 ORDER BY ply",
    )
    .bind(game_id)
    .fetch_all(conn)
    .await
}

/// Appends move `mv` (number `mv.ply`, 0-based) to game `game_id`.
#[tracing::instrument(skip(conn))]
pub async fn insert_move(
    conn: &mut DbConn,
    game_id: GameId,
    mv: &MoveRow,
    now: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO moves (game_id, ply, uci, san, created_at, white_ms, black_ms, announced) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, 0)",
    )
    .bind(game_id)
    .bind(mv.ply)
    .bind(&mv.uci)
    .bind(&mv.san)
    .bind(now)
    .bind(mv.clocks.map(|c| c.white_ms))
    .bind(mv.clocks.map(|c| c.black_ms))
    .execute(conn)
    .await?;
    Ok(())
}

/// Marks the moves of game `game_id` before ply `plies` (a board after `plies` moves reached the
/// channel) as announced. Returns how many moves were still unmarked.
#[tracing::instrument(skip(conn))]
pub async fn mark_announced(conn: &mut DbConn, game_id: GameId, plies: i64) -> sqlx::Result<u64> {
    let done = sqlx::query(
        "UPDATE moves SET announced = 1 WHERE game_id = $1 AND ply < $2 AND announced = 0",
    )
    .bind(game_id)
    .bind(plies)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// Whether game `game_id` has a move before ply `plies` that is not yet announced.
#[tracing::instrument(skip(conn))]
pub async fn has_unannounced(conn: &mut DbConn, game_id: GameId, plies: i64) -> sqlx::Result<bool> {
    let row = sqlx::query(
        // CASE: EXISTS is an integer on SQLite, a boolean on PostgreSQL.
        "SELECT CASE WHEN EXISTS (SELECT 1 FROM moves WHERE game_id = $1 AND ply < $2 \
         AND announced = 0) THEN 1 ELSE 0 END AS pending",
    )
    .bind(game_id)
    .bind(plies)
    .fetch_one(conn)
    .await?;
    Ok(row.try_get::<i64, _>("pending")? != 0)
}

/// The games with a move not yet announced, oldest game first.
#[tracing::instrument(skip(conn))]
pub async fn unannounced_games(conn: &mut DbConn) -> sqlx::Result<Vec<GameId>> {
    sqlx::query_scalar("SELECT DISTINCT game_id FROM moves WHERE announced = 0 ORDER BY game_id")
        .fetch_all(conn)
        .await
}

/// Deletes the moves of game `game_id` from index `ply` on (a takeback).
#[tracing::instrument(skip(conn))]
pub async fn delete_moves_from(conn: &mut DbConn, game_id: GameId, ply: i64) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
        .bind(game_id)
        .bind(ply)
        .execute(conn)
        .await?;
    Ok(())
}
