//! The `games` table: one row per game, its position, state, offers, clock and seat of the
//! computer (migrations 0001 on).

use makruk::{Color, Ruleset, Variant};
use sqlx::any::{AnyArguments, AnyRow};
use sqlx::query::Query;
use sqlx::{Any, FromRow, Row as _};

use super::codec::{self, db_name, get, get_flag, get_opt, get_time_control, Stored as _};
use super::{DbConn, GameState};
use crate::clock::{StoredClock, TimeControl};
use crate::rating::MIN_RATED_PLIES;
use crate::types::{
    ChannelId, ComputerLevel, ComputerSeat, EndReason, GameId, GameResult, GuildId, UserId,
};

/// A row of `games`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: GameId,
    /// The channel (or thread) it is played in.
    pub channel_id: ChannelId,
    pub white_id: UserId,
    pub black_id: UserId,
    /// The ruleset (Makruk's counting and draws; [`Ruleset::Standard`] in the other variants).
    pub ruleset: Ruleset,
    /// The game of the Makruk family it is (migration 0013; `makruk` before).
    pub variant: Variant,
    /// The FEN the game started from, in the variant's form.
    pub start_fen: String,
    /// FEN after all stored moves and count events.
    pub fen: String,
    pub plies: i64,
    pub state: GameState,
    /// Set when finished (together with `end_reason`).
    pub result: Option<GameResult>,
    pub end_reason: Option<EndReason>,
    /// The side whose draw offer stands.
    pub draw_offer: Option<Color>,
    /// The side whose takeback request stands.
    pub takeback_request: Option<Color>,
    pub version: i64,
    pub created_at: i64,
    pub updated_at: i64,
    pub finished_at: Option<i64>,
    /// The computer's side and level in a game against it (`computer_side`, `computer_level`);
    /// set at creation, never updated.
    pub computer: Option<ComputerSeat>,
    /// The game's time control.
    pub time_control: TimeControl,
    /// The clock as of the start of the current turn (Unix milliseconds, milliseconds).
    pub clock: StoredClock,
    /// The server the game is played in (`None`: unknown, never rated).
    pub guild_id: Option<GuildId>,
    /// The players asked for a rated game (see [`crate::rating`] for when it counts).
    pub rated: bool,
    /// The store's bookkeeping of the downtimes given back ([`record_downtime`]): the last one
    /// (its `since_ms`) that `clock.turn_started_ms` includes, as read; written back with the
    /// clock, so that a later read adds only those after it. 0 for a new game.
    pub downtimes_applied: i64,
}

impl GameRow {
    /// True when this finished game counts for the ratings: it was asked rated (`/challenge
    /// rated:`, default true), was played on a server (a NULL `guild_id`, older rows included,
    /// never counts), between two people (not against the computer, not against oneself), was
    /// not aborted, and each side made two moves ([`MIN_RATED_PLIES`]). The only statement of
    /// this rule: the live rating update and `recompute` ([`super::rated_games`]) both ask it.
    #[must_use]
    pub fn counts_for_ratings(&self) -> bool {
        self.rated
            && self.guild_id.is_some()
            && self.computer.is_none()
            && self.white_id != self.black_id
            && self.plies >= MIN_RATED_PLIES
            && self.result.is_some_and(|r| r != GameResult::Aborted)
    }
}

/// The columns [`GameRow`] is read from, of the view `games_now` (migration 0009): the turn's
/// start as the clocks see it, every downtime since it given back ([`record_downtime`]).
const GAME_COLUMNS: &str =
    "id, channel_id, white_id, black_id, ruleset, variant, start_fen, fen, plies, \
     state, result, end_reason, draw_offer, takeback_request, version, created_at, updated_at, \
     finished_at, computer_side, computer_level, time_control, white_ms, black_ms, \
     clock_started_ms AS turn_started_ms, reminder_sent, guild_id, rated, \
     clock_downtimes_applied";

/// The computer's seat of a `games` row: both columns set, or both NULL; anything else is a
/// decode error naming the column.
fn computer_seat(r: &AnyRow) -> sqlx::Result<Option<ComputerSeat>> {
    let side: Option<Color> = get_opt(r, "computer_side")?;
    let level: Option<i64> = r.try_get("computer_level")?;
    match (side, level) {
        (None, None) => Ok(None),
        (Some(side), Some(level)) => match u8::try_from(level).ok().map(ComputerLevel::new) {
            Some(Ok(level)) => Ok(Some(ComputerSeat { side, level })),
            _ => Err(codec::unknown("computer_level", &level.to_string())),
        },
        (None, Some(_)) => Err(codec::unknown("computer_side", "NULL")),
        (Some(_), None) => Err(codec::unknown("computer_level", "NULL")),
    }
}

/// The query of the [`GameRow`]s matching `filter` (SQL after `WHERE`, with its `ORDER BY`;
/// the current turn's start as the clocks see it is `clock_started_ms` there, the stored one
/// `turn_started_ms`).
pub(super) fn select_games(filter: &str) -> String {
    format!("SELECT {GAME_COLUMNS} FROM games_now WHERE {filter}")
}

impl<'r> FromRow<'r, AnyRow> for GameRow {
    fn from_row(r: &'r AnyRow) -> sqlx::Result<GameRow> {
        Ok(GameRow {
            id: r.try_get("id")?,
            channel_id: r.try_get("channel_id")?,
            white_id: r.try_get("white_id")?,
            black_id: r.try_get("black_id")?,
            ruleset: get(r, "ruleset")?,
            variant: get(r, "variant")?,
            start_fen: r.try_get("start_fen")?,
            fen: r.try_get("fen")?,
            plies: r.try_get("plies")?,
            state: get(r, "state")?,
            result: get_opt(r, "result")?,
            end_reason: get_opt(r, "end_reason")?,
            draw_offer: get_opt(r, "draw_offer")?,
            takeback_request: get_opt(r, "takeback_request")?,
            version: r.try_get("version")?,
            created_at: r.try_get("created_at")?,
            updated_at: r.try_get("updated_at")?,
            finished_at: r.try_get("finished_at")?,
            computer: computer_seat(r)?,
            time_control: get_time_control(r, "time_control")?,
            clock: StoredClock {
                white_ms: r.try_get("white_ms")?,
                black_ms: r.try_get("black_ms")?,
                turn_started_ms: r.try_get("turn_started_ms")?,
                reminder_sent: get_flag(r, "reminder_sent")?,
            },
            guild_id: r.try_get("guild_id")?,
            rated: get_flag(r, "rated")?,
            downtimes_applied: r.try_get("clock_downtimes_applied")?,
        })
    }
}

/// A new game to insert.
#[derive(Clone, Debug)]
pub struct NewGame<'a> {
    pub channel_id: ChannelId,
    pub white_id: UserId,
    pub black_id: UserId,
    pub ruleset: Ruleset,
    pub variant: Variant,
    pub start_fen: &'a str,
    pub now: i64,
    /// The computer's seat in a game against it.
    pub computer: Option<ComputerSeat>,
    pub time_control: TimeControl,
    /// The clock at the start (see [`crate::clock::ClockState::new`]).
    pub clock: StoredClock,
    /// The server it is played in.
    pub guild_id: Option<GuildId>,
    /// To be rated.
    pub rated: bool,
}

/// The active game of `channel`, if any.
#[tracing::instrument(skip(conn))]
pub async fn active_game(conn: &mut DbConn, channel: ChannelId) -> sqlx::Result<Option<GameRow>> {
    sqlx::query_as(&select_games(&format!(
        "channel_id = $1 AND state = '{}'",
        GameState::Active.db_name()
    )))
    .bind(channel)
    .fetch_optional(conn)
    .await
}

/// Games "of" a channel in its lists (`/games`, `/pgn`, `/replay`): those played in it and
/// those played in a thread opened from it (`parent_channel_id`), the channel being `$1`.
const OF_CHANNEL: &str = "(channel_id = $1 OR parent_channel_id = $1)";

/// The most recent game played in `channel` itself (active or finished), if any.
#[tracing::instrument(skip(conn))]
pub async fn last_game(conn: &mut DbConn, channel: ChannelId) -> sqlx::Result<Option<GameRow>> {
    sqlx::query_as(&select_games("channel_id = $1 ORDER BY id DESC LIMIT 1"))
        .bind(channel)
        .fetch_optional(conn)
        .await
}

/// The most recent game of `channel` or of one of its threads (active or finished), if any.
#[tracing::instrument(skip(conn))]
pub async fn last_game_of_channel(
    conn: &mut DbConn,
    channel: ChannelId,
) -> sqlx::Result<Option<GameRow>> {
    sqlx::query_as(&select_games(&format!(
        "{OF_CHANNEL} ORDER BY id DESC LIMIT 1"
    )))
    .bind(channel)
    .fetch_optional(conn)
    .await
}

/// Game `id` if it was played in `channel` or in a thread opened from it.
#[tracing::instrument(skip(conn))]
pub async fn game_of_channel(
    conn: &mut DbConn,
    channel: ChannelId,
    id: GameId,
) -> sqlx::Result<Option<GameRow>> {
    sqlx::query_as(&select_games(&format!("{OF_CHANNEL} AND id = $2")))
        .bind(channel)
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// Game `id`, if it exists.
#[tracing::instrument(skip(conn))]
pub async fn game(conn: &mut DbConn, id: GameId) -> sqlx::Result<Option<GameRow>> {
    sqlx::query_as(&select_games("id = $1"))
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// The last `limit` finished games of `channel` and of its threads, newest first.
#[tracing::instrument(skip(conn))]
pub async fn finished_games(
    conn: &mut DbConn,
    channel: ChannelId,
    limit: i64,
) -> sqlx::Result<Vec<GameRow>> {
    sqlx::query_as(&select_games(&format!(
        "{OF_CHANNEL} AND state = '{}' ORDER BY finished_at DESC, id DESC LIMIT $2",
        GameState::Finished.db_name()
    )))
    .bind(channel)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// Inserts a new active game and returns its id. Fails with a unique violation (see
/// [`super::is_unique_violation`]) when the channel already has an active game.
#[tracing::instrument(skip(conn))]
pub async fn insert_game(conn: &mut DbConn, g: &NewGame<'_>) -> sqlx::Result<GameId> {
    sqlx::query_scalar(
        "INSERT INTO games (channel_id, white_id, black_id, ruleset, start_fen, fen, plies, state, \
         version, created_at, updated_at, computer_side, computer_level, time_control, white_ms, \
         black_ms, turn_started_ms, reminder_sent, guild_id, rated, variant) \
         VALUES ($1, $2, $3, $4, $5, $5, 0, $6, 0, $7, $7, $8, $9, $10, $11, $12, $13, $14, \
         $15, $16, $17) RETURNING id",
    )
    .bind(g.channel_id)
    .bind(g.white_id)
    .bind(g.black_id)
    .bind(g.ruleset.db_name())
    .bind(g.start_fen)
    .bind(GameState::Active.db_name())
    .bind(g.now)
    .bind(db_name(g.computer.map(|c| c.side)))
    .bind(g.computer.map(|c| i64::from(c.level.number())))
    .bind(g.time_control.storage())
    .bind(g.clock.white_ms)
    .bind(g.clock.black_ms)
    .bind(g.clock.turn_started_ms)
    .bind(i64::from(g.clock.reminder_sent))
    .bind(g.guild_id)
    .bind(i64::from(g.rated))
    .bind(g.variant.db_name())
    .fetch_one(conn)
    .await
}

/// The active games in which the computer plays (for start-up: it may be its turn).
#[tracing::instrument(skip(conn))]
pub async fn active_computer_games(conn: &mut DbConn) -> sqlx::Result<Vec<GameRow>> {
    sqlx::query_as(&select_games(&format!(
        "state = '{}' AND computer_side IS NOT NULL ORDER BY id",
        GameState::Active.db_name()
    )))
    .fetch_all(conn)
    .await
}

/// The UPDATE of [`update_game`] and [`append_move`]: the changeable fields of a game ($1-$9,
/// the clock $12-$15 and the downtimes it includes $16), only if the game ($10) still has the
/// expected version ($11), bumping it. Bound by [`bind_game_update`].
pub(super) const UPDATE_GAME: &str =
    "UPDATE games SET fen = $1, plies = $2, state = $3, result = $4, \
     end_reason = $5, draw_offer = $6, takeback_request = $7, updated_at = $8, finished_at = $9, \
     white_ms = $12, black_ms = $13, turn_started_ms = $14, reminder_sent = $15, \
     downtimes_applied = $16, version = version + 1 \
     WHERE id = $10 AND version = $11";

/// Binds $1-$16 of [`UPDATE_GAME`] from `g` and `expected_version`.
pub(super) fn bind_game_update<'q>(
    query: Query<'q, Any, AnyArguments<'q>>,
    g: &'q GameRow,
    expected_version: i64,
) -> Query<'q, Any, AnyArguments<'q>> {
    query
        .bind(&g.fen)
        .bind(g.plies)
        .bind(g.state.db_name())
        .bind(db_name(g.result))
        .bind(db_name(g.end_reason))
        .bind(db_name(g.draw_offer))
        .bind(db_name(g.takeback_request))
        .bind(g.updated_at)
        .bind(g.finished_at)
        .bind(g.id)
        .bind(expected_version)
        .bind(g.clock.white_ms)
        .bind(g.clock.black_ms)
        .bind(g.clock.turn_started_ms)
        .bind(i64::from(g.clock.reminder_sent))
        .bind(g.downtimes_applied)
}

/// Writes the changeable fields of `g` (fen, plies, state, result, end_reason, offers,
/// updated_at, finished_at, clock) and sets `version = expected_version + 1`, only if the stored
/// version is still `expected_version`. Returns false when it was not (a lost race).
#[tracing::instrument(skip(conn, g), fields(game = g.id.0))]
pub async fn update_game(
    conn: &mut DbConn,
    g: &GameRow,
    expected_version: i64,
) -> sqlx::Result<bool> {
    let done = bind_game_update(sqlx::query(UPDATE_GAME), g, expected_version)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Every active game (start-up rebuilds the scheduler from their clocks).
#[tracing::instrument(skip(conn))]
pub async fn active_games(conn: &mut DbConn) -> sqlx::Result<Vec<GameRow>> {
    sqlx::query_as(&select_games(&format!(
        "state = '{}' ORDER BY id",
        GameState::Active.db_name()
    )))
    .fetch_all(conn)
    .await
}

/// Gives every active game back the bot's downtime, from its last heartbeat `since_ms` until
/// `now_ms`, as [`crate::clock::ClockState::resume`] does (the rule's owner; a test checks the
/// store against it on a table of cases): a turn that started before `since_ms` moves by
/// `now_ms - since_ms`, one that started later (running when the bot stopped) restarts at
/// `now_ms`, one that starts at `now_ms` or later (a clock set back) is left alone, and nothing
/// changes unless `now_ms > since_ms`.
///
/// No game's row is written: the downtime is stored as one row of `downtimes`, and every read
/// of a game ([`GameRow::clock`], the sweeps' filters) sees its turn's start through the view
/// `games_now` (migration 0009), which gives back every downtime after the last one the
/// stored start includes ([`GameRow::downtimes_applied`]); the next write of the game stores
/// the moved start and that mark. So start-up writes one row, however many games are active.
/// A downtime is clipped to start after the stored ones end (the view needs them apart and in
/// order; only a clock set back could make them overlap). Rows no active game needs any more
/// (they ended before every active turn's stored start) are deleted.
///
/// Returns the milliseconds stored as downtime (0: none).
#[tracing::instrument(skip(conn))]
pub async fn record_downtime(conn: &mut DbConn, since_ms: i64, now_ms: i64) -> sqlx::Result<i64> {
    let last_end: Option<i64> = sqlx::query_scalar("SELECT MAX(until_ms) FROM downtimes")
        .fetch_one(&mut *conn)
        .await?;
    let since_ms = since_ms.max(last_end.unwrap_or(i64::MIN));
    let stored = if now_ms > since_ms {
        sqlx::query("INSERT INTO downtimes (since_ms, until_ms) VALUES ($1, $2)")
            .bind(since_ms)
            .bind(now_ms)
            .execute(&mut *conn)
            .await?;
        now_ms - since_ms
    } else {
        0
    };
    sqlx::query(&format!(
        "DELETE FROM downtimes WHERE until_ms <= COALESCE((SELECT MIN(turn_started_ms) \
         FROM games WHERE state = '{}'), until_ms)",
        GameState::Active.db_name()
    ))
    .execute(&mut *conn)
    .await?;
    Ok(stored)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ClockState;

    /// A finished game that counts: rated, on a server, two people, decisive, four plies.
    fn counting() -> GameRow {
        let control = TimeControl::DEFAULT;
        GameRow {
            id: GameId(1),
            channel_id: ChannelId(2),
            white_id: UserId(3),
            black_id: UserId(4),
            ruleset: Ruleset::Standard,
            variant: makruk::Variant::Makruk,
            start_fen: String::new(),
            fen: String::new(),
            plies: MIN_RATED_PLIES,
            state: GameState::Finished,
            result: Some(GameResult::WhiteWins),
            end_reason: Some(EndReason::ALL[0]),
            draw_offer: None,
            takeback_request: None,
            version: 5,
            created_at: 0,
            updated_at: 0,
            finished_at: Some(0),
            computer: None,
            time_control: control,
            clock: ClockState::new(control, Color::White, 0).stored(),
            guild_id: Some(GuildId(5)),
            rated: true,
            downtimes_applied: 0,
        }
    }

    #[test]
    fn a_game_counts_for_ratings_unless_one_condition_fails() {
        assert!(counting().counts_for_ratings());
        let draw = GameRow {
            result: Some(GameResult::Draw),
            ..counting()
        };
        assert!(draw.counts_for_ratings());
        type Change = fn(&mut GameRow);
        let failing: [(&str, Change); 7] = [
            ("not asked rated", |g| g.rated = false),
            ("no server", |g| g.guild_id = None),
            ("against the computer", |g| {
                g.computer = Some(ComputerSeat {
                    side: Color::Black,
                    level: ComputerLevel::DEFAULT,
                });
            }),
            ("against oneself", |g| g.black_id = g.white_id),
            ("too short", |g| g.plies = MIN_RATED_PLIES - 1),
            ("aborted", |g| g.result = Some(GameResult::Aborted)),
            ("no result", |g| g.result = None),
        ];
        for (why, change) in failing {
            let mut g = counting();
            change(&mut g);
            assert!(!g.counts_for_ratings(), "{why}");
        }
    }
}
