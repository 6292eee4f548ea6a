//! The puzzle tables (migration 0012): `puzzles`, `puzzle_players`, `puzzle_attempts`,
//! `puzzle_votes`, `daily_puzzles`, `daily_streaks`, and the daily puzzle's settings in
//! `guild_settings`.

use sqlx::any::AnyRow;
use sqlx::{FromRow, Row as _};

use super::DbConn;
use crate::rating::Glicko;
use crate::types::{ChannelId, GameId, GuildId, UserId};

/// A puzzle row. `moves` and `themes` are space-separated (UCI moves; theme keys).
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRow {
    pub id: String,
    /// The start position (Fairy-Stockfish's FEN form), the solver to move.
    pub fen: String,
    pub moves: String,
    pub themes: String,
    pub glicko: Glicko,
    /// Rated attempts so far.
    pub plays: i64,
    pub votes_up: i64,
    pub votes_down: i64,
    pub source: String,
    /// `None`: the shipped set; else made from this server's games.
    pub guild_id: Option<GuildId>,
    /// A puzzle from a server's game: the player who missed the win, and when the game ended
    /// (Unix seconds).
    pub origin: Option<(UserId, i64)>,
}

impl<'r> FromRow<'r, AnyRow> for PuzzleRow {
    fn from_row(r: &'r AnyRow) -> sqlx::Result<PuzzleRow> {
        Ok(PuzzleRow {
            id: r.try_get("id")?,
            fen: r.try_get("fen")?,
            moves: r.try_get("moves")?,
            themes: r.try_get("themes")?,
            glicko: Glicko {
                rating: r.try_get("rating")?,
                deviation: r.try_get("deviation")?,
                volatility: r.try_get("volatility")?,
            },
            plays: r.try_get("plays")?,
            votes_up: r.try_get("votes_up")?,
            votes_down: r.try_get("votes_down")?,
            source: r.try_get("source")?,
            guild_id: r.try_get("guild_id")?,
            origin: r
                .try_get::<Option<UserId>, _>("player_id")?
                .zip(r.try_get::<Option<i64>, _>("played_at")?),
        })
    }
}

const PUZZLE_COLUMNS: &str = "id, fen, moves, themes, rating, deviation, volatility, plays, \
     votes_up, votes_down, source, guild_id, player_id, played_at";

/// A puzzle to store: the shipped set's entries, and those made from a server's games.
#[derive(Clone, Debug, PartialEq)]
pub struct NewPuzzle<'a> {
    pub id: &'a str,
    pub fen: &'a str,
    pub moves: String,
    pub themes: String,
    pub glicko: Glicko,
    pub source: &'a str,
    pub guild_id: Option<GuildId>,
    /// A server's game's puzzle: the game, the player who missed the win, when it ended (Unix
    /// seconds).
    pub from_game: Option<(GameId, UserId, i64)>,
}

/// How many puzzles of the shipped set (no server) are stored.
pub async fn shipped_puzzle_count(conn: &mut DbConn) -> sqlx::Result<i64> {
    sqlx::query_scalar("SELECT COUNT(*) FROM puzzles WHERE guild_id IS NULL")
        .fetch_one(conn)
        .await
}

/// Stores `p` unless a puzzle with its id is stored (its rating and votes are kept). Returns
/// whether it was new.
pub async fn insert_puzzle(conn: &mut DbConn, p: &NewPuzzle<'_>) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "INSERT INTO puzzles (id, fen, moves, themes, rating, deviation, volatility, source, \
         guild_id, game_id, player_id, played_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (id) DO NOTHING",
    )
    .bind(p.id)
    .bind(p.fen)
    .bind(&p.moves)
    .bind(&p.themes)
    .bind(p.glicko.rating)
    .bind(p.glicko.deviation)
    .bind(p.glicko.volatility)
    .bind(p.source)
    .bind(p.guild_id)
    .bind(p.from_game.map(|g| g.0))
    .bind(p.from_game.map(|g| g.1))
    .bind(p.from_game.map(|g| g.2))
    .execute(conn)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// The puzzle `id`.
pub async fn puzzle(conn: &mut DbConn, id: &str) -> sqlx::Result<Option<PuzzleRow>> {
    sqlx::query_as(&format!(
        "SELECT {PUZZLE_COLUMNS} FROM puzzles WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// What a puzzle to serve must be.
#[derive(Clone, Debug, Default)]
pub struct PuzzleFilter<'a> {
    /// A theme key the puzzle has.
    pub theme: Option<&'a str>,
    /// A theme key it must not have (the daily puzzle: `mateIn1`).
    pub without_theme: Option<&'a str>,
    /// The server whose own puzzles may be served too (the shipped set always may).
    pub guild: Option<GuildId>,
    /// Only the server's own puzzles (from its games), not the shipped set.
    pub own_only: bool,
    /// Leave out the puzzles this user has tried.
    pub unseen_by: Option<UserId>,
    /// Leave out the puzzles this server had as its daily puzzle.
    pub not_daily_of: Option<GuildId>,
}

/// The condition under which a puzzle is voted down enough to be served no more: at least
/// [`VOTED_DOWN_MIN`] votes down and more than twice as many down as up.
const VOTED_OUT: &str = "(votes_down >= 5 AND votes_down > 2 * votes_up)";

/// Votes down a puzzle needs before it can be voted out (the 5 of `VOTED_OUT`).
pub const VOTED_DOWN_MIN: i64 = 5;

fn filter_sql(f: &PuzzleFilter<'_>, first_bind: usize) -> (String, Vec<String>) {
    let mut sql = format!("NOT {VOTED_OUT}");
    let mut texts = Vec::new();
    let mut n = first_bind;
    match (f.guild, f.own_only) {
        (Some(g), true) => sql.push_str(&format!(" AND guild_id = {}", g.0 as i64)),
        (Some(g), false) => {
            sql.push_str(&format!(
                " AND (guild_id IS NULL OR guild_id = {})",
                g.0 as i64
            ));
        }
        (None, _) => sql.push_str(" AND guild_id IS NULL"),
    }
    if let Some(t) = f.theme {
        sql.push_str(&format!(" AND (' ' || themes || ' ') LIKE ${n}"));
        texts.push(format!("% {t} %"));
        n += 1;
    }
    if let Some(t) = f.without_theme {
        sql.push_str(&format!(" AND (' ' || themes || ' ') NOT LIKE ${n}"));
        texts.push(format!("% {t} %"));
    }
    if let Some(u) = f.unseen_by {
        sql.push_str(&format!(
            " AND id NOT IN (SELECT puzzle_id FROM puzzle_attempts WHERE user_id = {})",
            u.0 as i64
        ));
    }
    if let Some(g) = f.not_daily_of {
        sql.push_str(&format!(
            " AND id NOT IN (SELECT puzzle_id FROM daily_puzzles WHERE guild_id = {})",
            g.0 as i64
        ));
    }
    (sql, texts)
}

/// Up to `limit` ids of puzzles allowed by `f`, nearest to `rating` first.
pub async fn puzzles_near(
    conn: &mut DbConn,
    f: &PuzzleFilter<'_>,
    rating: f64,
    limit: i64,
) -> sqlx::Result<Vec<String>> {
    let (cond, texts) = filter_sql(f, 3);
    let sql = format!("SELECT id FROM puzzles WHERE {cond} ORDER BY ABS(rating - $1), id LIMIT $2");
    let mut q = sqlx::query_scalar(&sql).bind(rating).bind(limit);
    for t in texts {
        q = q.bind(t);
    }
    q.fetch_all(conn).await
}

/// How many puzzles `f` allows.
pub async fn count_puzzles(conn: &mut DbConn, f: &PuzzleFilter<'_>) -> sqlx::Result<i64> {
    let (cond, texts) = filter_sql(f, 1);
    let sql = format!("SELECT COUNT(*) FROM puzzles WHERE {cond}");
    let mut q = sqlx::query_scalar(&sql);
    for t in texts {
        q = q.bind(t);
    }
    q.fetch_one(conn).await
}

/// The `n`-th (0-based, by id) of the puzzles `f` allows.
pub async fn nth_puzzle(
    conn: &mut DbConn,
    f: &PuzzleFilter<'_>,
    n: i64,
) -> sqlx::Result<Option<String>> {
    let (cond, texts) = filter_sql(f, 2);
    let sql = format!("SELECT id FROM puzzles WHERE {cond} ORDER BY id LIMIT 1 OFFSET $1");
    let mut q = sqlx::query_scalar(&sql).bind(n);
    for t in texts {
        q = q.bind(t);
    }
    q.fetch_optional(conn).await
}

/// Sets a puzzle's rating after a rated attempt (and counts the play), if it still has the
/// `plays` it had when its rating was read. Returns false when another attempt rated it in
/// between (nothing written).
pub async fn rate_puzzle(conn: &mut DbConn, id: &str, plays: i64, g: Glicko) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "UPDATE puzzles SET rating = $1, deviation = $2, volatility = $3, plays = plays + 1 \
         WHERE id = $4 AND plays = $5",
    )
    .bind(g.rating)
    .bind(g.deviation)
    .bind(g.volatility)
    .bind(id)
    .bind(plays)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A player's puzzle rating and record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzlePlayerRow {
    pub glicko: Glicko,
    pub solved: i64,
    pub failed: i64,
    /// Rated puzzles solved in a row, up to now.
    pub streak: i64,
    pub best_streak: i64,
    /// Unix ms of the last rated attempt.
    pub last_ms: i64,
}

impl<'r> FromRow<'r, AnyRow> for PuzzlePlayerRow {
    fn from_row(r: &'r AnyRow) -> sqlx::Result<PuzzlePlayerRow> {
        Ok(PuzzlePlayerRow {
            glicko: Glicko {
                rating: r.try_get("rating")?,
                deviation: r.try_get("deviation")?,
                volatility: r.try_get("volatility")?,
            },
            solved: r.try_get("solved")?,
            failed: r.try_get("failed")?,
            streak: r.try_get("streak")?,
            best_streak: r.try_get("best_streak")?,
            last_ms: r.try_get("last_ms")?,
        })
    }
}

/// User `user`'s puzzle rating, if they have finished a rated puzzle.
pub async fn puzzle_player(
    conn: &mut DbConn,
    user: UserId,
) -> sqlx::Result<Option<PuzzlePlayerRow>> {
    sqlx::query_as(
        "SELECT rating, deviation, volatility, solved, failed, streak, best_streak, last_ms \
         FROM puzzle_players WHERE user_id = $1",
    )
    .bind(user)
    .fetch_optional(conn)
    .await
}

/// Stores user `user`'s puzzle rating and record.
pub async fn put_puzzle_player(
    conn: &mut DbConn,
    user: UserId,
    p: &PuzzlePlayerRow,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO puzzle_players (user_id, rating, deviation, volatility, solved, failed, \
         streak, best_streak, last_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
         ON CONFLICT (user_id) DO UPDATE SET rating = excluded.rating, \
         deviation = excluded.deviation, volatility = excluded.volatility, \
         solved = excluded.solved, failed = excluded.failed, streak = excluded.streak, \
         best_streak = excluded.best_streak, last_ms = excluded.last_ms",
    )
    .bind(user)
    .bind(p.glicko.rating)
    .bind(p.glicko.deviation)
    .bind(p.glicko.volatility)
    .bind(p.solved)
    .bind(p.failed)
    .bind(p.streak)
    .bind(p.best_streak)
    .bind(p.last_ms)
    .execute(conn)
    .await?;
    Ok(())
}

/// Where an attempt stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttemptState {
    Solving,
    Solved,
    Failed,
}

impl AttemptState {
    fn name(self) -> &'static str {
        match self {
            AttemptState::Solving => "solving",
            AttemptState::Solved => "solved",
            AttemptState::Failed => "failed",
        }
    }
}

/// An attempt row.
#[derive(Clone, Debug, PartialEq)]
pub struct AttemptRow {
    pub id: i64,
    pub user_id: UserId,
    pub channel_id: ChannelId,
    pub puzzle_id: String,
    pub state: AttemptState,
    /// Plies of the solution played.
    pub progress: i64,
    pub hinted: bool,
    pub rated: bool,
    pub theme: Option<String>,
    pub guild_id: Option<GuildId>,
    /// A daily puzzle's day (`YYYY-MM-DD`, the server's date).
    pub daily_day: Option<String>,
    pub rating_change: Option<f64>,
}

impl<'r> FromRow<'r, AnyRow> for AttemptRow {
    fn from_row(r: &'r AnyRow) -> sqlx::Result<AttemptRow> {
        let state: String = r.try_get("state")?;
        let state = match state.as_str() {
            "solving" => AttemptState::Solving,
            "solved" => AttemptState::Solved,
            "failed" => AttemptState::Failed,
            other => {
                return Err(sqlx::Error::ColumnDecode {
                    index: "state".into(),
                    source: format!("unknown attempt state {other:?}").into(),
                })
            }
        };
        Ok(AttemptRow {
            id: r.try_get("id")?,
            user_id: r.try_get("user_id")?,
            channel_id: r.try_get("channel_id")?,
            puzzle_id: r.try_get("puzzle_id")?,
            state,
            progress: r.try_get("progress")?,
            hinted: r.try_get::<i64, _>("hinted")? != 0,
            rated: r.try_get::<i64, _>("rated")? != 0,
            theme: r.try_get("theme")?,
            guild_id: r.try_get("guild_id")?,
            daily_day: r.try_get("daily_day")?,
            rating_change: r.try_get("rating_change")?,
        })
    }
}

const ATTEMPT_COLUMNS: &str = "id, user_id, channel_id, puzzle_id, state, progress, hinted, \
     rated, theme, guild_id, daily_day, rating_change";

/// A new attempt.
#[derive(Clone, Debug)]
pub struct NewAttempt<'a> {
    pub user: UserId,
    pub channel: ChannelId,
    pub puzzle_id: &'a str,
    pub rated: bool,
    pub theme: Option<&'a str>,
    pub guild: Option<GuildId>,
    pub daily_day: Option<&'a str>,
    pub now_ms: i64,
}

/// Starts an attempt (the caller has ended the user's attempt in progress in the channel).
/// Returns its id.
pub async fn insert_attempt(conn: &mut DbConn, a: &NewAttempt<'_>) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO puzzle_attempts (user_id, channel_id, puzzle_id, state, progress, rated, \
         theme, guild_id, daily_day, started_ms) VALUES ($1, $2, $3, 'solving', 0, $4, $5, $6, \
         $7, $8) RETURNING id",
    )
    .bind(a.user)
    .bind(a.channel)
    .bind(a.puzzle_id)
    .bind(i64::from(a.rated))
    .bind(a.theme)
    .bind(a.guild)
    .bind(a.daily_day)
    .bind(a.now_ms)
    .fetch_one(conn)
    .await
}

/// The attempt `id`.
pub async fn attempt(conn: &mut DbConn, id: i64) -> sqlx::Result<Option<AttemptRow>> {
    sqlx::query_as(&format!(
        "SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// User `user`'s attempt in progress in `channel`, if any.
pub async fn solving_attempt(
    conn: &mut DbConn,
    user: UserId,
    channel: ChannelId,
) -> sqlx::Result<Option<AttemptRow>> {
    sqlx::query_as(&format!(
        "SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts \
         WHERE user_id = $1 AND channel_id = $2 AND state = 'solving'"
    ))
    .bind(user)
    .bind(channel)
    .fetch_optional(conn)
    .await
}

/// User `user`'s attempt at server `guild`'s daily puzzle of `day`, if any.
pub async fn daily_attempt(
    conn: &mut DbConn,
    guild: GuildId,
    day: &str,
    user: UserId,
) -> sqlx::Result<Option<AttemptRow>> {
    sqlx::query_as(&format!(
        "SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts \
         WHERE guild_id = $1 AND daily_day = $2 AND user_id = $3"
    ))
    .bind(guild)
    .bind(day)
    .bind(user)
    .fetch_optional(conn)
    .await
}

/// Whether user `user` has tried puzzle `puzzle` before.
pub async fn has_tried(conn: &mut DbConn, user: UserId, puzzle: &str) -> sqlx::Result<bool> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM puzzle_attempts WHERE user_id = $1 AND puzzle_id = $2",
    )
    .bind(user)
    .bind(puzzle)
    .fetch_one(conn)
    .await?;
    Ok(n > 0)
}

/// Moves an attempt in progress on to `progress` plies, if it is still at `from` (a second
/// request on the same step changes nothing). Returns whether it moved.
pub async fn advance_attempt(
    conn: &mut DbConn,
    id: i64,
    from: i64,
    progress: i64,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "UPDATE puzzle_attempts SET progress = $1 \
         WHERE id = $2 AND progress = $3 AND state = 'solving'",
    )
    .bind(progress)
    .bind(id)
    .bind(from)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Ends an attempt in progress at `from` plies (`state` solved or failed). Returns whether it
/// was still in progress there.
pub async fn end_attempt(
    conn: &mut DbConn,
    id: i64,
    from: i64,
    progress: i64,
    state: AttemptState,
    rating_change: Option<f64>,
    now_ms: i64,
) -> sqlx::Result<bool> {
    // A NULL double bound through sqlx's Any driver reaches PostgreSQL in a binary form it
    // refuses: the "no change" case writes the NULL in the SQL.
    let change_sql = if rating_change.is_some() {
        "$3"
    } else {
        "NULL + $3"
    };
    let done = sqlx::query(&format!(
        "UPDATE puzzle_attempts SET state = $1, progress = $2, rating_change = {change_sql}, \
         finished_ms = $4 WHERE id = $5 AND progress = $6 AND state = 'solving'"
    ))
    .bind(state.name())
    .bind(progress)
    .bind(rating_change.unwrap_or(0.0))
    .bind(now_ms)
    .bind(id)
    .bind(from)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Marks an attempt in progress as helped by a hint: it is no longer rated.
pub async fn hint_attempt(conn: &mut DbConn, id: i64) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE puzzle_attempts SET hinted = 1, rated = 0 WHERE id = $1 AND state = 'solving'",
    )
    .bind(id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Records user `user`'s vote on puzzle `puzzle` (replacing an earlier one); the puzzle's
/// counters are counted again from the votes (so two votes at once are both counted).
pub async fn vote_puzzle(
    conn: &mut DbConn,
    user: UserId,
    puzzle: &str,
    up: bool,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO puzzle_votes (user_id, puzzle_id, up) VALUES ($1, $2, $3) \
         ON CONFLICT (user_id, puzzle_id) DO UPDATE SET up = excluded.up",
    )
    .bind(user)
    .bind(puzzle)
    .bind(i64::from(up))
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "UPDATE puzzles SET \
         votes_up = (SELECT COUNT(*) FROM puzzle_votes WHERE puzzle_id = $1 AND up = 1), \
         votes_down = (SELECT COUNT(*) FROM puzzle_votes WHERE puzzle_id = $1 AND up = 0) \
         WHERE id = $1",
    )
    .bind(puzzle)
    .execute(conn)
    .await?;
    Ok(())
}

/// A server's daily puzzle settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DailySettingsRow {
    pub guild_id: GuildId,
    /// `None`: no daily puzzle.
    pub channel_id: Option<ChannelId>,
    /// Minutes after the server's midnight.
    pub minute: i64,
    /// Minutes east of UTC.
    pub utc_offset_minutes: i64,
}

impl<'r> FromRow<'r, AnyRow> for DailySettingsRow {
    fn from_row(r: &'r AnyRow) -> sqlx::Result<DailySettingsRow> {
        Ok(DailySettingsRow {
            guild_id: r.try_get("guild_id")?,
            channel_id: r.try_get("puzzle_channel_id")?,
            minute: r.try_get("puzzle_minute")?,
            utc_offset_minutes: r.try_get("utc_offset_minutes")?,
        })
    }
}

/// Server `guild`'s daily puzzle settings (the defaults if it has none).
pub async fn daily_settings(conn: &mut DbConn, guild: GuildId) -> sqlx::Result<DailySettingsRow> {
    let row = sqlx::query_as(
        "SELECT guild_id, puzzle_channel_id, puzzle_minute, utc_offset_minutes \
         FROM guild_settings WHERE guild_id = $1",
    )
    .bind(guild)
    .fetch_optional(conn)
    .await?;
    Ok(row.unwrap_or(DailySettingsRow {
        guild_id: guild,
        channel_id: None,
        minute: crate::puzzles::daily::DEFAULT_MINUTE,
        utc_offset_minutes: crate::puzzles::daily::DEFAULT_OFFSET,
    }))
}

/// Stores server `guild`'s daily puzzle settings.
pub async fn put_daily_settings(conn: &mut DbConn, s: &DailySettingsRow) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO guild_settings (guild_id, puzzle_channel_id, puzzle_minute, \
         utc_offset_minutes) VALUES ($1, $2, $3, $4) ON CONFLICT (guild_id) DO UPDATE SET \
         puzzle_channel_id = excluded.puzzle_channel_id, puzzle_minute = excluded.puzzle_minute, \
         utc_offset_minutes = excluded.utc_offset_minutes",
    )
    .bind(s.guild_id)
    .bind(s.channel_id)
    .bind(s.minute)
    .bind(s.utc_offset_minutes)
    .execute(conn)
    .await?;
    Ok(())
}

/// Every server with a daily puzzle channel.
pub async fn daily_servers(conn: &mut DbConn) -> sqlx::Result<Vec<DailySettingsRow>> {
    sqlx::query_as(
        "SELECT guild_id, puzzle_channel_id, puzzle_minute, utc_offset_minutes \
         FROM guild_settings WHERE puzzle_channel_id IS NOT NULL ORDER BY guild_id",
    )
    .fetch_all(conn)
    .await
}

/// A daily puzzle row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DailyRow {
    pub guild_id: GuildId,
    pub day: String,
    pub puzzle_id: String,
    pub channel_id: ChannelId,
    /// `None` until its message is sent.
    pub message_id: Option<i64>,
    pub solvers: i64,
    pub tries: i64,
    pub first_solver: Option<UserId>,
}

impl<'r> FromRow<'r, AnyRow> for DailyRow {
    fn from_row(r: &'r AnyRow) -> sqlx::Result<DailyRow> {
        Ok(DailyRow {
            guild_id: r.try_get("guild_id")?,
            day: r.try_get("day")?,
            puzzle_id: r.try_get("puzzle_id")?,
            channel_id: r.try_get("channel_id")?,
            message_id: r.try_get("message_id")?,
            solvers: r.try_get("solvers")?,
            tries: r.try_get("tries")?,
            first_solver: r.try_get("first_solver")?,
        })
    }
}

const DAILY_COLUMNS: &str =
    "guild_id, day, puzzle_id, channel_id, message_id, solvers, tries, first_solver";

/// Server `guild`'s daily puzzle of `day`.
pub async fn daily(conn: &mut DbConn, guild: GuildId, day: &str) -> sqlx::Result<Option<DailyRow>> {
    sqlx::query_as(&format!(
        "SELECT {DAILY_COLUMNS} FROM daily_puzzles WHERE guild_id = $1 AND day = $2"
    ))
    .bind(guild)
    .bind(day)
    .fetch_optional(conn)
    .await
}

/// The daily puzzle posted (or being posted) in `channel` on `day`.
pub async fn daily_in_channel(
    conn: &mut DbConn,
    channel: ChannelId,
    day: &str,
) -> sqlx::Result<Option<DailyRow>> {
    sqlx::query_as(&format!(
        "SELECT {DAILY_COLUMNS} FROM daily_puzzles WHERE channel_id = $1 AND day = $2 \
         AND message_id IS NOT NULL"
    ))
    .bind(channel)
    .bind(day)
    .fetch_optional(conn)
    .await
}

/// Claims `day`'s daily puzzle of server `guild` (before posting it). Returns false when it
/// was claimed already.
pub async fn claim_daily(
    conn: &mut DbConn,
    guild: GuildId,
    day: &str,
    puzzle: &str,
    channel: ChannelId,
    now_ms: i64,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "INSERT INTO daily_puzzles (guild_id, day, puzzle_id, channel_id, claimed_ms) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (guild_id, day) DO NOTHING",
    )
    .bind(guild)
    .bind(day)
    .bind(puzzle)
    .bind(channel)
    .bind(now_ms)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The daily puzzles claimed but not yet posted.
pub async fn unposted_dailies(conn: &mut DbConn) -> sqlx::Result<Vec<DailyRow>> {
    sqlx::query_as(&format!(
        "SELECT {DAILY_COLUMNS} FROM daily_puzzles WHERE message_id IS NULL \
         ORDER BY claimed_ms, guild_id"
    ))
    .fetch_all(conn)
    .await
}

/// Records the message of a daily puzzle.
pub async fn daily_posted(
    conn: &mut DbConn,
    guild: GuildId,
    day: &str,
    message: i64,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE daily_puzzles SET message_id = $1 WHERE guild_id = $2 AND day = $3")
        .bind(message)
        .bind(guild)
        .bind(day)
        .execute(conn)
        .await?;
    Ok(())
}

/// Counts a finished try at a daily puzzle; a solve by `solver` counts as solved, and the
/// first one is remembered.
pub async fn count_daily_try(
    conn: &mut DbConn,
    guild: GuildId,
    day: &str,
    solver: Option<UserId>,
) -> sqlx::Result<()> {
    let solved = i64::from(solver.is_some());
    sqlx::query(
        "UPDATE daily_puzzles SET tries = tries + 1, solvers = solvers + $1, \
         first_solver = COALESCE(first_solver, $2) WHERE guild_id = $3 AND day = $4",
    )
    .bind(solved)
    .bind(solver)
    .bind(guild)
    .bind(day)
    .execute(conn)
    .await?;
    Ok(())
}

/// A user's daily streak on a server: (streak, best, last day solved).
pub async fn daily_streak(
    conn: &mut DbConn,
    guild: GuildId,
    user: UserId,
) -> sqlx::Result<Option<(i64, i64, String)>> {
    let row = sqlx::query(
        "SELECT streak, best, last_day FROM daily_streaks WHERE guild_id = $1 AND user_id = $2",
    )
    .bind(guild)
    .bind(user)
    .fetch_optional(conn)
    .await?;
    row.map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?)))
        .transpose()
}

/// Stores a user's daily streak on a server.
pub async fn put_daily_streak(
    conn: &mut DbConn,
    guild: GuildId,
    user: UserId,
    streak: i64,
    best: i64,
    day: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO daily_streaks (guild_id, user_id, streak, best, last_day) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (guild_id, user_id) DO UPDATE SET \
         streak = excluded.streak, best = excluded.best, last_day = excluded.last_day",
    )
    .bind(guild)
    .bind(user)
    .bind(streak)
    .bind(best)
    .bind(day)
    .execute(conn)
    .await?;
    Ok(())
}
