//! The `challenges` table: open challenges (at most one per channel) and how each was closed.

use makruk::{Ruleset, Variant};
use sqlx::any::AnyRow;
use sqlx::{FromRow, Row as _};

use super::codec::{get, get_flag, get_time_control, Stored as _};
use super::DbConn;
use crate::clock::TimeControl;
use crate::types::{ChallengeId, ChallengeState, ChannelId, ColorChoice, GameId, GuildId, UserId};

/// A row of `challenges`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeRow {
    pub id: ChallengeId,
    pub channel_id: ChannelId,
    pub challenger_id: UserId,
    pub opponent_id: UserId,
    /// The challenger's colour.
    pub color: ColorChoice,
    pub ruleset: Ruleset,
    /// The variant of its game (migration 0013).
    pub variant: Variant,
    pub state: ChallengeState,
    pub created_at: i64,
    pub expires_at: i64,
    pub answered_at: Option<i64>,
    /// The game it started (accepted challenges).
    pub game_id: Option<GameId>,
    /// The time control asked for.
    pub time_control: TimeControl,
    /// The server the challenge was made in.
    pub guild_id: Option<GuildId>,
    /// Its game is to be rated.
    pub rated: bool,
}

/// The columns [`ChallengeRow`] is read from.
const CHALLENGE_COLUMNS: &str = "id, channel_id, challenger_id, opponent_id, color, ruleset, \
     state, created_at, expires_at, answered_at, game_id, time_control, guild_id, rated, variant";

impl<'r> FromRow<'r, AnyRow> for ChallengeRow {
    fn from_row(r: &'r AnyRow) -> sqlx::Result<ChallengeRow> {
        Ok(ChallengeRow {
            id: r.try_get("id")?,
            channel_id: r.try_get("channel_id")?,
            challenger_id: r.try_get("challenger_id")?,
            opponent_id: r.try_get("opponent_id")?,
            color: get(r, "color")?,
            ruleset: get(r, "ruleset")?,
            variant: get(r, "variant")?,
            state: get(r, "state")?,
            created_at: r.try_get("created_at")?,
            expires_at: r.try_get("expires_at")?,
            answered_at: r.try_get("answered_at")?,
            game_id: r.try_get("game_id")?,
            time_control: get_time_control(r, "time_control")?,
            guild_id: r.try_get("guild_id")?,
            rated: get_flag(r, "rated")?,
        })
    }
}

/// A new challenge to insert.
#[derive(Clone, Debug)]
pub struct NewChallenge {
    pub channel_id: ChannelId,
    pub challenger_id: UserId,
    pub opponent_id: UserId,
    pub color: ColorChoice,
    pub ruleset: Ruleset,
    pub variant: Variant,
    pub now: i64,
    pub expires_at: i64,
    pub time_control: TimeControl,
    /// The server it is made in.
    pub guild_id: Option<GuildId>,
    /// Its game is to be rated.
    pub rated: bool,
}

/// Marks the open challenges of `channel` that expired before `now` as `expired`.
#[tracing::instrument(skip(conn))]
pub async fn expire_challenges(
    conn: &mut DbConn,
    channel: ChannelId,
    now: i64,
) -> sqlx::Result<u64> {
    let done = sqlx::query(&format!(
        "UPDATE challenges SET state = '{}', answered_at = expires_at \
         WHERE channel_id = $1 AND state = '{}' AND expires_at <= $2",
        ChallengeState::Expired.db_name(),
        ChallengeState::Open.db_name()
    ))
    .bind(channel)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// The open challenge of `channel` (expired or not), if any.
#[tracing::instrument(skip(conn))]
pub async fn open_challenge(
    conn: &mut DbConn,
    channel: ChannelId,
) -> sqlx::Result<Option<ChallengeRow>> {
    sqlx::query_as(&format!(
        "SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE channel_id = $1 AND state = '{}'",
        ChallengeState::Open.db_name()
    ))
    .bind(channel)
    .fetch_optional(conn)
    .await
}

/// Challenge `id`, if it exists.
#[tracing::instrument(skip(conn))]
pub async fn challenge(conn: &mut DbConn, id: ChallengeId) -> sqlx::Result<Option<ChallengeRow>> {
    sqlx::query_as(&format!(
        "SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// Inserts an open challenge and returns its row. Fails with a unique violation when the
/// channel already has an open challenge.
#[tracing::instrument(skip(conn))]
pub async fn insert_challenge(conn: &mut DbConn, c: &NewChallenge) -> sqlx::Result<ChallengeRow> {
    sqlx::query_as(&format!(
        "INSERT INTO challenges (channel_id, challenger_id, opponent_id, color, ruleset, state, \
         created_at, expires_at, time_control, guild_id, rated, variant) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING {CHALLENGE_COLUMNS}"
    ))
    .bind(c.channel_id)
    .bind(c.challenger_id)
    .bind(c.opponent_id)
    .bind(c.color.db_name())
    .bind(c.ruleset.db_name())
    .bind(ChallengeState::Open.db_name())
    .bind(c.now)
    .bind(c.expires_at)
    .bind(c.time_control.storage())
    .bind(c.guild_id)
    .bind(i64::from(c.rated))
    .bind(c.variant.db_name())
    .fetch_one(conn)
    .await
}

/// Closes open challenge `id` with `state` (accepted, declined, withdrawn), linking `game_id`.
/// Returns false when the challenge was no longer open (a lost race).
#[tracing::instrument(skip(conn))]
pub async fn close_challenge(
    conn: &mut DbConn,
    id: ChallengeId,
    state: ChallengeState,
    now: i64,
    game_id: Option<GameId>,
) -> sqlx::Result<bool> {
    let done = sqlx::query(&format!(
        "UPDATE challenges SET state = $1, answered_at = $2, game_id = $3 \
         WHERE id = $4 AND state = '{}'",
        ChallengeState::Open.db_name()
    ))
    .bind(state.db_name())
    .bind(now)
    .bind(game_id)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Stores `message` as the Discord message challenge `id` was posted as.
#[tracing::instrument(skip(conn))]
pub async fn set_challenge_message(
    conn: &mut DbConn,
    id: ChallengeId,
    message: i64,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE challenges SET message_id = $1 WHERE id = $2")
        .bind(message)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Marks the message of challenge `id` as no longer showing it open (a press replaced it, or
/// the sweep edited it). Returns false when it was marked already (someone else did it).
#[tracing::instrument(skip(conn))]
pub async fn close_challenge_message(conn: &mut DbConn, id: ChallengeId) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "UPDATE challenges SET message_closed = 1 WHERE id = $1 AND message_closed = 0",
    )
    .bind(id)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The challenges whose message still shows their buttons although they are closed (answered by
/// a command) or expired by `now` (Unix seconds), at most `limit`, oldest first, with their
/// message ids.
#[tracing::instrument(skip(conn))]
pub async fn challenge_messages_to_close(
    conn: &mut DbConn,
    now: i64,
    limit: i64,
) -> sqlx::Result<Vec<(ChallengeRow, i64)>> {
    let rows: Vec<AnyRow> = sqlx::query(&format!(
        "SELECT {CHALLENGE_COLUMNS}, message_id FROM challenges \
         WHERE message_id IS NOT NULL AND message_closed = 0 \
         AND (state <> '{}' OR expires_at <= $1) ORDER BY expires_at, id LIMIT $2",
        ChallengeState::Open.db_name()
    ))
    .bind(now)
    .bind(limit)
    .fetch_all(conn)
    .await?;
    rows.iter()
        .map(|r| Ok((ChallengeRow::from_row(r)?, r.try_get("message_id")?)))
        .collect()
}
