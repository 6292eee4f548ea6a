//! The `analyses` and `analysis_plies` tables (migration 0010): the computer analysis asked
//! for each finished game, its queue, and once done its plies and totals.

use sqlx::any::AnyRow;
use sqlx::{FromRow, Row as _};

use super::DbConn;
use crate::types::{ChannelId, GameId};

/// A game's analysis row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisRow {
    pub game_id: GameId,
    /// Done (its plies stored) or still queued.
    pub done: bool,
    /// When it was asked for (Unix ms): the queue's order.
    pub requested_ms: i64,
    /// Where it was asked for (`None`: nobody waits for it).
    pub channel_id: Option<ChannelId>,
    /// The engine's name and version.
    pub engine: String,
    /// The search budget per position (nodes).
    pub nodes: i64,
    /// The totals as JSON, when done.
    pub summary: Option<String>,
}

impl<'r> FromRow<'r, AnyRow> for AnalysisRow {
    fn from_row(r: &'r AnyRow) -> sqlx::Result<AnalysisRow> {
        let state: String = r.try_get("state")?;
        Ok(AnalysisRow {
            game_id: GameId(r.try_get("game_id")?),
            done: state == "done",
            requested_ms: r.try_get("requested_ms")?,
            channel_id: r
                .try_get::<Option<i64>, _>("channel_id")?
                .map(|c| ChannelId(c as u64)),
            engine: r.try_get("engine")?,
            nodes: r.try_get("nodes")?,
            summary: r.try_get("summary")?,
        })
    }
}

/// One stored analysed ply (see the migration for the text forms).
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysisPlyRow {
    /// 0-based.
    pub ply: i64,
    /// The eval after the move, White's view: `cp:35`, `mate:-3`, `checkmate:white`.
    pub eval: String,
    /// The engine's best move (UCI) before the move.
    pub best: Option<String>,
    /// `inaccuracy`, `mistake` or `blunder`.
    pub judgement: Option<String>,
    /// The move's accuracy, 0..100.
    pub accuracy: f64,
    /// The mover's centipawn loss.
    pub cp_loss: i64,
}

impl<'r> FromRow<'r, AnyRow> for AnalysisPlyRow {
    fn from_row(r: &'r AnyRow) -> sqlx::Result<AnalysisPlyRow> {
        Ok(AnalysisPlyRow {
            ply: r.try_get("ply")?,
            eval: r.try_get("eval")?,
            best: r.try_get("best")?,
            judgement: r.try_get("judgement")?,
            accuracy: r.try_get("accuracy")?,
            cp_loss: r.try_get("cp_loss")?,
        })
    }
}

const COLUMNS: &str = "game_id, state, requested_ms, channel_id, engine, nodes, summary";

/// The analysis row of `game`, if one was asked for.
pub async fn analysis(conn: &mut DbConn, game: GameId) -> sqlx::Result<Option<AnalysisRow>> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM analyses WHERE game_id = $1"
    ))
    .bind(game)
    .fetch_optional(conn)
    .await
}

/// The stored plies of `game`'s analysis, in order.
pub async fn analysis_plies(conn: &mut DbConn, game: GameId) -> sqlx::Result<Vec<AnalysisPlyRow>> {
    sqlx::query_as(
        "SELECT ply, eval, best, judgement, accuracy, cp_loss FROM analysis_plies \
         WHERE game_id = $1 ORDER BY ply",
    )
    .bind(game)
    .fetch_all(conn)
    .await
}

/// Queues `game`'s analysis (by `engine` at `nodes` per position), replacing a done one
/// (its plies are deleted). Call it in a write transaction.
pub async fn queue_analysis(
    conn: &mut DbConn,
    game: GameId,
    now_ms: i64,
    channel: Option<ChannelId>,
    engine: &str,
    nodes: i64,
) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM analysis_plies WHERE game_id = $1")
        .bind(game)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "INSERT INTO analyses (game_id, state, requested_ms, channel_id, engine, nodes) \
         VALUES ($1, 'queued', $2, $3, $4, $5) \
         ON CONFLICT (game_id) DO UPDATE SET state = 'queued', \
         requested_ms = excluded.requested_ms, channel_id = excluded.channel_id, \
         engine = excluded.engine, nodes = excluded.nodes, summary = NULL, finished_ms = NULL",
    )
    .bind(game)
    .bind(now_ms)
    .bind(channel.map(|c| c.0 as i64))
    .bind(engine)
    .bind(nodes)
    .execute(conn)
    .await?;
    Ok(())
}

/// The queued analyses, oldest request first.
pub async fn queued_analyses(conn: &mut DbConn) -> sqlx::Result<Vec<AnalysisRow>> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM analyses WHERE state = 'queued' ORDER BY requested_ms, game_id"
    ))
    .fetch_all(conn)
    .await
}

/// How many queued analyses were asked for before `row` (its place in line, 0-based).
pub async fn analyses_ahead(conn: &mut DbConn, row: &AnalysisRow) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM analyses WHERE state = 'queued' AND \
         (requested_ms < $1 OR (requested_ms = $1 AND game_id < $2))",
    )
    .bind(row.requested_ms)
    .bind(row.game_id)
    .fetch_one(conn)
    .await
}

/// Stores the finished analysis of `game`: its plies and `summary` (JSON), the row marked
/// done, only if it is still queued for `engine` and `nodes` (a newer request in between
/// keeps its own). Returns whether it was stored. Call it in a write transaction.
pub async fn finish_analysis(
    conn: &mut DbConn,
    game: GameId,
    engine: &str,
    nodes: i64,
    summary: &str,
    now_ms: i64,
    plies: &[AnalysisPlyRow],
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "UPDATE analyses SET state = 'done', summary = $1, finished_ms = $2 \
         WHERE game_id = $3 AND state = 'queued' AND engine = $4 AND nodes = $5",
    )
    .bind(summary)
    .bind(now_ms)
    .bind(game)
    .bind(engine)
    .bind(nodes)
    .execute(&mut *conn)
    .await?
    .rows_affected();
    if done == 0 {
        return Ok(false);
    }
    for p in plies {
        sqlx::query(
            "INSERT INTO analysis_plies (game_id, ply, eval, best, judgement, accuracy, \
             cp_loss) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(game)
        .bind(p.ply)
        .bind(&p.eval)
        .bind(p.best.as_deref())
        .bind(p.judgement.as_deref())
        .bind(p.accuracy)
        .bind(p.cp_loss)
        .execute(&mut *conn)
        .await?;
    }
    Ok(true)
}
