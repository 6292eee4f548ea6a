//! Ratings, their history, the leaderboard (migration 0004; per variant since 0013).

use makruk::{Color, Variant};
use sqlx::any::AnyRow;
use sqlx::{FromRow, Row as _};

use super::codec::{get, Stored as _};
use super::games::select_games;
use super::{Backend, DbConn, GameRow, GameState};
use crate::clock::Kind;
use crate::rating::Glicko;
use crate::types::{GameId, GuildId, UserId};

/// A player's rating on one server in one variant at one speed (a row of `ratings`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingRow {
    pub guild_id: GuildId,
    pub user_id: UserId,
    /// Ratings are kept per variant of the Makruk family, as pychess keeps them.
    pub variant: Variant,
    pub speed: Kind,
    /// As of the end of the last rated game (the RD grows from then on).
    pub glicko: Glicko,
    /// Rated games, and how they ended for this player.
    pub games: i64,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
    /// Unix seconds: the end of the last rated game.
    pub last_game_at: i64,
}

/// The columns [`RatingRow`] is read from.
const RATING_COLUMNS: &str =
    "guild_id, user_id, variant, speed, rating, deviation, volatility, games, \
     wins, draws, losses, last_game_at";

impl<'r> FromRow<'r, AnyRow> for RatingRow {
    fn from_row(r: &'r AnyRow) -> sqlx::Result<RatingRow> {
        Ok(RatingRow {
            guild_id: r.try_get("guild_id")?,
            user_id: r.try_get("user_id")?,
            variant: get(r, "variant")?,
            speed: get(r, "speed")?,
            glicko: Glicko {
                rating: r.try_get("rating")?,
                deviation: r.try_get("deviation")?,
                volatility: r.try_get("volatility")?,
            },
            games: r.try_get("games")?,
            wins: r.try_get("wins")?,
            draws: r.try_get("draws")?,
            losses: r.try_get("losses")?,
            last_game_at: r.try_get("last_game_at")?,
        })
    }
}

/// One player's side of one rated game (a row of `rating_history`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HistoryRow {
    /// The order ratings were applied in (0 before it is inserted).
    pub id: i64,
    pub game_id: GameId,
    pub guild_id: GuildId,
    pub user_id: UserId,
    pub variant: Variant,
    pub speed: Kind,
    pub color: Color,
    pub opponent_id: UserId,
    /// 1, 0.5 or 0 from this player's side.
    pub score: f64,
    /// This player's rating (the number) before the game.
    pub rating_before: f64,
    /// The opponent's rating (the number) before the game.
    pub opponent_rating: f64,
    /// This player's rating after the game.
    pub after: Glicko,
    /// Unix seconds.
    pub finished_at: i64,
}

/// The columns [`HistoryRow`] is read from.
const HISTORY_COLUMNS: &str =
    "id, game_id, guild_id, user_id, variant, speed, color, opponent_id, score, \
     rating_before, opponent_rating, rating, deviation, volatility, finished_at";

impl<'r> FromRow<'r, AnyRow> for HistoryRow {
    fn from_row(r: &'r AnyRow) -> sqlx::Result<HistoryRow> {
        Ok(HistoryRow {
            id: r.try_get("id")?,
            game_id: r.try_get("game_id")?,
            guild_id: r.try_get("guild_id")?,
            user_id: r.try_get("user_id")?,
            variant: get(r, "variant")?,
            speed: get(r, "speed")?,
            color: get(r, "color")?,
            opponent_id: r.try_get("opponent_id")?,
            score: r.try_get("score")?,
            rating_before: r.try_get("rating_before")?,
            opponent_rating: r.try_get("opponent_rating")?,
            after: Glicko {
                rating: r.try_get("rating")?,
                deviation: r.try_get("deviation")?,
                volatility: r.try_get("volatility")?,
            },
            finished_at: r.try_get("finished_at")?,
        })
    }
}

/// The rating of `user` on `guild` in `variant` at `speed`, if they played a rated game there.
#[tracing::instrument(skip(conn))]
pub async fn rating(
    conn: &mut DbConn,
    guild: GuildId,
    user: UserId,
    variant: Variant,
    speed: Kind,
) -> sqlx::Result<Option<RatingRow>> {
    sqlx::query_as(&format!(
        "SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = $1 AND user_id = $2 AND speed = $3 \
         AND variant = $4"
    ))
    .bind(guild)
    .bind(user)
    .bind(speed.db_name())
    .bind(variant.db_name())
    .fetch_optional(conn)
    .await
}

/// Inserts or replaces the rating row of `r`'s player, server, variant and speed.
#[tracing::instrument(skip(conn))]
pub async fn put_rating(conn: &mut DbConn, r: &RatingRow) -> sqlx::Result<()> {
    sqlx::query(&format!(
        "INSERT INTO ratings ({RATING_COLUMNS}) VALUES ($1, $2, $12, $3, $4, $5, $6, $7, $8, $9, \
         $10, $11) ON CONFLICT (guild_id, user_id, variant, speed) DO UPDATE SET rating = $4, \
         deviation = $5, volatility = $6, games = $7, wins = $8, draws = $9, losses = $10, \
         last_game_at = $11"
    ))
    .bind(r.guild_id)
    .bind(r.user_id)
    .bind(r.speed.db_name())
    .bind(r.glicko.rating)
    .bind(r.glicko.deviation)
    .bind(r.glicko.volatility)
    .bind(r.games)
    .bind(r.wins)
    .bind(r.draws)
    .bind(r.losses)
    .bind(r.last_game_at)
    .bind(r.variant.db_name())
    .execute(conn)
    .await?;
    Ok(())
}

/// Appends history row `h` (its `id` is assigned). Fails with a unique violation when this
/// player's side of the game is already rated.
#[tracing::instrument(skip(conn))]
pub async fn insert_history(conn: &mut DbConn, h: &HistoryRow) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO rating_history (game_id, guild_id, user_id, speed, color, opponent_id, \
         score, rating_before, opponent_rating, rating, deviation, volatility, finished_at, \
         variant) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
    )
    .bind(h.game_id)
    .bind(h.guild_id)
    .bind(h.user_id)
    .bind(h.speed.db_name())
    .bind(h.color.db_name())
    .bind(h.opponent_id)
    .bind(h.score)
    .bind(h.rating_before)
    .bind(h.opponent_rating)
    .bind(h.after.rating)
    .bind(h.after.deviation)
    .bind(h.after.volatility)
    .bind(h.finished_at)
    .bind(h.variant.db_name())
    .execute(conn)
    .await?;
    Ok(())
}

/// Players `offset..offset + limit` of the leaderboard of `guild` in `variant` at `speed`: best
/// rating first (ties: the lower user id first, so pages never overlap).
#[tracing::instrument(skip(conn))]
pub async fn leaderboard(
    conn: &mut DbConn,
    guild: GuildId,
    variant: Variant,
    speed: Kind,
    offset: i64,
    limit: i64,
) -> sqlx::Result<Vec<RatingRow>> {
    // The page's players are found on the leaderboard index alone (the OFFSET walks index
    // entries, not rows); only the page's rows are read.
    sqlx::query_as(&format!(
        "SELECT {RATING_COLUMNS} FROM ratings JOIN (SELECT user_id AS page_user FROM ratings \
         WHERE guild_id = $1 AND variant = $5 AND speed = $2 ORDER BY rating DESC, user_id \
         LIMIT $3 OFFSET $4) AS page ON user_id = page_user \
         WHERE guild_id = $1 AND variant = $5 AND speed = $2 ORDER BY rating DESC, user_id"
    ))
    .bind(guild)
    .bind(speed.db_name())
    .bind(limit)
    .bind(offset)
    .bind(variant.db_name())
    .fetch_all(conn)
    .await
}

/// How many players the leaderboard of `guild` in `variant` at `speed` has.
#[tracing::instrument(skip(conn))]
pub async fn leaderboard_size(
    conn: &mut DbConn,
    guild: GuildId,
    variant: Variant,
    speed: Kind,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM ratings WHERE guild_id = $1 AND variant = $3 AND speed = $2",
    )
    .bind(guild)
    .bind(speed.db_name())
    .bind(variant.db_name())
    .fetch_one(conn)
    .await
}

/// The leaderboard place of a player rated `rating` (with user id `user`) on `guild` in
/// `variant` at `speed` (1 + the players listed before them, in the order of [`leaderboard`]),
/// and the leaderboard's size, in one query.
#[tracing::instrument(skip(conn))]
pub async fn rank(
    conn: &mut DbConn,
    guild: GuildId,
    variant: Variant,
    speed: Kind,
    rating: f64,
    user: UserId,
) -> sqlx::Result<(i64, i64)> {
    // Two index ranges (an OR of both would not use the index).
    let (before, size): (i64, i64) = sqlx::query_as(
        "SELECT (SELECT COUNT(*) FROM ratings WHERE guild_id = $1 AND variant = $5 \
         AND speed = $2 AND rating > $3) \
         + (SELECT COUNT(*) FROM ratings WHERE guild_id = $1 AND variant = $5 AND speed = $2 \
         AND rating = $3 AND user_id < $4), \
         (SELECT COUNT(*) FROM ratings WHERE guild_id = $1 AND variant = $5 AND speed = $2)",
    )
    .bind(guild)
    .bind(speed.db_name())
    .bind(rating)
    .bind(user)
    .bind(variant.db_name())
    .fetch_one(conn)
    .await?;
    Ok((before + 1, size))
}

/// The rated games of `user` on `guild` in `variant` at `speed`, in the order they were rated.
#[tracing::instrument(skip(conn))]
pub async fn history(
    conn: &mut DbConn,
    guild: GuildId,
    user: UserId,
    variant: Variant,
    speed: Kind,
) -> sqlx::Result<Vec<HistoryRow>> {
    sqlx::query_as(&format!(
        "SELECT {HISTORY_COLUMNS} FROM rating_history \
         WHERE guild_id = $1 AND user_id = $2 AND variant = $4 AND speed = $3 ORDER BY id"
    ))
    .bind(guild)
    .bind(user)
    .bind(speed.db_name())
    .bind(variant.db_name())
    .fetch_all(conn)
    .await
}

/// Every history row, in the order the ratings were applied (`recompute`).
#[tracing::instrument(skip(conn))]
pub async fn all_history(conn: &mut DbConn) -> sqlx::Result<Vec<HistoryRow>> {
    sqlx::query_as(&format!(
        "SELECT {HISTORY_COLUMNS} FROM rating_history ORDER BY id"
    ))
    .fetch_all(conn)
    .await
}

/// Every rating row (`recompute`).
#[tracing::instrument(skip(conn))]
pub async fn all_ratings(conn: &mut DbConn) -> sqlx::Result<Vec<RatingRow>> {
    sqlx::query_as(&format!(
        "SELECT {RATING_COLUMNS} FROM ratings ORDER BY guild_id, user_id, variant, speed"
    ))
    .fetch_all(conn)
    .await
}

/// The finished games that count for the ratings ([`GameRow::counts_for_ratings`], the one
/// statement of the rule: SQL only narrows the rows read to finished games asked rated), by id.
#[tracing::instrument(skip(conn))]
pub async fn rated_games(conn: &mut DbConn) -> sqlx::Result<Vec<GameRow>> {
    let mut games: Vec<GameRow> = sqlx::query_as(&select_games(&format!(
        "state = '{}' AND rated = 1 ORDER BY id",
        GameState::Finished.db_name()
    )))
    .fetch_all(conn)
    .await?;
    games.retain(GameRow::counts_for_ratings);
    Ok(games)
}

/// Deletes every rating and history row (`recompute` writes them again); the history's ids
/// start again from 1, as the first time.
#[tracing::instrument(skip(conn))]
pub async fn clear_ratings(conn: &mut DbConn) -> sqlx::Result<()> {
    // SQLite's row ids restart by themselves on an empty table; PostgreSQL's identity does not.
    let clear = match Backend::of(conn) {
        Backend::Sqlite => "DELETE FROM rating_history",
        Backend::Postgres => "TRUNCATE rating_history RESTART IDENTITY",
    };
    sqlx::query(clear).execute(&mut *conn).await?;
    sqlx::query("DELETE FROM ratings").execute(conn).await?;
    Ok(())
}
