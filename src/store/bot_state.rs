//! The `bot_state` table: one row, the bot's last heartbeat (the downtime given back at
//! start-up is measured from it).

use super::DbConn;

/// The bot's last heartbeat (Unix milliseconds), if one was stored.
#[tracing::instrument(skip(conn))]
pub async fn last_alive(conn: &mut DbConn) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar("SELECT last_alive_ms FROM bot_state WHERE id = 1")
        .fetch_optional(conn)
        .await
}

/// Stores the bot's heartbeat `now_ms`.
#[tracing::instrument(skip(conn))]
pub async fn set_last_alive(conn: &mut DbConn, now_ms: i64) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO bot_state (id, last_alive_ms) VALUES (1, $1) \
         ON CONFLICT (id) DO UPDATE SET last_alive_ms = $1",
    )
    .bind(now_ms)
    .execute(conn)
    .await?;
    Ok(())
}
