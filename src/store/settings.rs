//! Per-server settings, the thread a challenge asks for, and where a game played in a thread
//! started (migration 0007); the channels the bot may only answer in (migration 0011).

use sqlx::any::AnyRow;
use sqlx::{FromRow, Row as _};

use super::codec::get_flag;
use super::DbConn;
use crate::types::{ChallengeId, ChannelId, GameId, GuildId};

/// A server's settings (a row of `guild_settings`; defaults when the server has none).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GuildSettingsRow {
    /// New challenges and `/play` games open a thread unless told otherwise.
    pub thread_default: bool,
    /// The server's preferred locale as Discord last sent it (`None`: never seen).
    pub locale: Option<String>,
    /// A role whose members may create tournaments (besides Manage Server).
    pub tournament_role: Option<u64>,
}

impl<'r> FromRow<'r, AnyRow> for GuildSettingsRow {
    fn from_row(r: &'r AnyRow) -> sqlx::Result<GuildSettingsRow> {
        Ok(GuildSettingsRow {
            thread_default: get_flag(r, "thread_default")?,
            locale: r.try_get("locale")?,
            tournament_role: r
                .try_get::<Option<i64>, _>("tournament_role")?
                .map(|v| v as u64),
        })
    }
}

/// The settings of server `guild_id` (defaults if it has no row).
#[tracing::instrument(skip(conn))]
pub async fn guild_settings(
    conn: &mut DbConn,
    guild_id: GuildId,
) -> sqlx::Result<GuildSettingsRow> {
    let row = sqlx::query_as(
        "SELECT thread_default, locale, tournament_role FROM guild_settings \
             WHERE guild_id = $1",
    )
    .bind(guild_id)
    .fetch_optional(conn)
    .await?;
    Ok(row.unwrap_or_default())
}

/// Sets whether server `guild_id` plays new games in threads by default.
#[tracing::instrument(skip(conn))]
pub async fn set_thread_default(
    conn: &mut DbConn,
    guild_id: GuildId,
    on: bool,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO guild_settings (guild_id, thread_default) VALUES ($1, $2) \
         ON CONFLICT (guild_id) DO UPDATE SET thread_default = excluded.thread_default",
    )
    .bind(guild_id)
    .bind(i64::from(on))
    .execute(conn)
    .await?;
    Ok(())
}

/// Sets the role whose members may create tournaments on server `guild_id`.
#[tracing::instrument(skip(conn))]
pub async fn set_tournament_role(
    conn: &mut DbConn,
    guild_id: GuildId,
    role: u64,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO guild_settings (guild_id, tournament_role) VALUES ($1, $2) \
         ON CONFLICT (guild_id) DO UPDATE SET tournament_role = excluded.tournament_role",
    )
    .bind(guild_id)
    .bind(role as i64)
    .execute(conn)
    .await?;
    Ok(())
}

/// Records `locale` as server `guild_id`'s preferred locale.
#[tracing::instrument(skip(conn))]
pub async fn set_guild_locale(
    conn: &mut DbConn,
    guild_id: GuildId,
    locale: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO guild_settings (guild_id, locale) VALUES ($1, $2) \
         ON CONFLICT (guild_id) DO UPDATE SET locale = excluded.locale",
    )
    .bind(guild_id)
    .bind(locale)
    .execute(conn)
    .await?;
    Ok(())
}

/// The language game `game_id`'s messages are written in: its server's preferred locale, or
/// outside a server its channel's (`channel_locales`); `None`: never seen.
#[tracing::instrument(skip(conn))]
pub async fn game_guild_locale(conn: &mut DbConn, game_id: GameId) -> sqlx::Result<Option<String>> {
    let locale: Option<Option<String>> = sqlx::query_scalar(
        "SELECT COALESCE(s.locale, c.locale) AS locale FROM games g \
         LEFT JOIN guild_settings s ON s.guild_id = g.guild_id \
         LEFT JOIN channel_locales c ON c.channel_id = g.channel_id AND g.guild_id IS NULL \
         WHERE g.id = $1",
    )
    .bind(game_id)
    .fetch_optional(conn)
    .await?;
    Ok(locale.flatten())
}

/// Sets whether challenge `challenge_id`'s game is to be played in a thread.
#[tracing::instrument(skip(conn))]
pub async fn set_challenge_thread(
    conn: &mut DbConn,
    challenge_id: ChallengeId,
    thread: bool,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE challenges SET thread = $1 WHERE id = $2")
        .bind(i64::from(thread))
        .bind(challenge_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Whether challenge `challenge_id`'s game is to be played in a thread (false for no such
/// challenge).
#[tracing::instrument(skip(conn))]
pub async fn challenge_thread(conn: &mut DbConn, challenge_id: ChallengeId) -> sqlx::Result<bool> {
    let thread: Option<i64> = sqlx::query_scalar("SELECT thread FROM challenges WHERE id = $1")
        .bind(challenge_id)
        .fetch_optional(conn)
        .await?;
    Ok(thread.is_some_and(|t| t != 0))
}

/// Where game `game_id`, played in a thread, started: the parent channel and the message the
/// thread was opened from (a snowflake, stored as the same 64 bits as an i64).
#[tracing::instrument(skip(conn))]
pub async fn set_game_parent(
    conn: &mut DbConn,
    game_id: GameId,
    parent_channel_id: ChannelId,
    parent_message_id: u64,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE games SET parent_channel_id = $1, parent_message_id = $2 WHERE id = $3")
        .bind(parent_channel_id)
        .bind(parent_message_id as i64)
        .bind(game_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// The parent channel and message of game `game_id` if it is played in a thread.
#[tracing::instrument(skip(conn))]
pub async fn game_parent(
    conn: &mut DbConn,
    game_id: GameId,
) -> sqlx::Result<Option<(ChannelId, u64)>> {
    let row: Option<(Option<ChannelId>, Option<i64>)> =
        sqlx::query_as("SELECT parent_channel_id, parent_message_id FROM games WHERE id = $1")
            .bind(game_id)
            .fetch_optional(conn)
            .await?;
    Ok(row.and_then(|(channel, message)| channel.zip(message.map(|m| m as u64))))
}

/// Records `channel_id` as a channel the bot may only answer in (from `since_ms`, Unix
/// milliseconds); a channel already recorded keeps its first time.
#[tracing::instrument(skip(conn))]
pub async fn add_answer_only_channel(
    conn: &mut DbConn,
    channel_id: ChannelId,
    since_ms: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO answer_only_channels (channel_id, since_ms) VALUES ($1, $2) \
         ON CONFLICT (channel_id) DO NOTHING",
    )
    .bind(channel_id)
    .bind(since_ms)
    .execute(conn)
    .await?;
    Ok(())
}

/// Every channel recorded by [`add_answer_only_channel`].
#[tracing::instrument(skip(conn))]
pub async fn answer_only_channels(conn: &mut DbConn) -> sqlx::Result<Vec<ChannelId>> {
    sqlx::query_scalar("SELECT channel_id FROM answer_only_channels")
        .fetch_all(conn)
        .await
}

/// The language of `channel_id`, a channel outside any server: the one recorded first (`locale`
/// if there is none yet, then recorded).
#[tracing::instrument(skip(conn))]
pub async fn channel_locale_or(
    conn: &mut DbConn,
    channel_id: ChannelId,
    locale: &str,
) -> sqlx::Result<String> {
    sqlx::query(
        "INSERT INTO channel_locales (channel_id, locale) VALUES ($1, $2) \
         ON CONFLICT (channel_id) DO NOTHING",
    )
    .bind(channel_id)
    .bind(locale)
    .execute(&mut *conn)
    .await?;
    sqlx::query_scalar("SELECT locale FROM channel_locales WHERE channel_id = $1")
        .bind(channel_id)
        .fetch_one(conn)
        .await
}

/// Forgets that `channel_id` takes only answers (the server added the bot since).
#[tracing::instrument(skip(conn))]
pub async fn remove_answer_only_channel(
    conn: &mut DbConn,
    channel_id: ChannelId,
) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM answer_only_channels WHERE channel_id = $1")
        .bind(channel_id)
        .execute(conn)
        .await?;
    Ok(())
}
