//! Tournaments, their players and pairings (migration 0014).

use sqlx::any::AnyRow;
use sqlx::{FromRow, Row as _};

use super::codec::{get, get_flag, get_opt, get_time_control, Stored as _};
use super::DbConn;
use crate::clock::TimeControl;
use crate::types::{
    ChannelId, GameId, GuildId, PairingResult, TournamentFormat, TournamentId, TournamentState,
    UserId,
};
use makruk::{Ruleset, Variant};

/// A row of `tournaments`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    pub id: TournamentId,
    pub guild_id: Option<GuildId>,
    /// The channel it runs in (its announcement, its games' threads).
    pub channel_id: ChannelId,
    pub creator_id: UserId,
    pub name: String,
    pub format: TournamentFormat,
    pub time_control: TimeControl,
    pub variant: Variant,
    pub ruleset: Ruleset,
    pub rated: bool,
    /// The number of rounds (a round-robin's is known once it starts).
    pub rounds: Option<u32>,
    /// The round being played, 0 before the start (an arena's: its pairing waves so far).
    pub round: u32,
    /// An arena's duration in minutes.
    pub minutes: Option<u32>,
    pub state: TournamentState,
    /// When it starts by itself, Unix seconds (`None`: by hand).
    pub start_at: Option<i64>,
    /// The announcement message (a message id of `channel_id`).
    pub message_id: Option<u64>,
    /// A recurring event: created again this many days later when it finishes.
    pub repeat_days: Option<u32>,
    /// Its players were reminded of its start.
    pub reminded: bool,
    /// Unix seconds.
    pub created_at: i64,
    /// Unix seconds.
    pub finished_at: Option<i64>,
}

fn opt_u32(v: Option<i64>) -> Option<u32> {
    v.and_then(|v| u32::try_from(v).ok())
}

impl<'r> FromRow<'r, AnyRow> for TournamentRow {
    fn from_row(r: &'r AnyRow) -> sqlx::Result<TournamentRow> {
        Ok(TournamentRow {
            id: r.try_get("id")?,
            guild_id: r.try_get("guild_id")?,
            channel_id: r.try_get("channel_id")?,
            creator_id: r.try_get("creator_id")?,
            name: r.try_get("name")?,
            format: get(r, "format")?,
            time_control: get_time_control(r, "time_control")?,
            variant: get(r, "variant")?,
            ruleset: get(r, "ruleset")?,
            rated: get_flag(r, "rated")?,
            rounds: opt_u32(r.try_get("rounds")?),
            round: opt_u32(Some(r.try_get("round")?)).unwrap_or(0),
            minutes: opt_u32(r.try_get("minutes")?),
            state: get(r, "state")?,
            start_at: r.try_get("start_at")?,
            message_id: r.try_get::<Option<i64>, _>("message_id")?.map(|m| m as u64),
            repeat_days: opt_u32(r.try_get("repeat_days")?),
            reminded: get_flag(r, "reminded")?,
            created_at: r.try_get("created_at")?,
            finished_at: r.try_get("finished_at")?,
        })
    }
}

const TOURNAMENT_COLUMNS: &str = "id, guild_id, channel_id, creator_id, name, format, \
     time_control, variant, ruleset, rated, rounds, round, minutes, state, start_at, message_id, \
     repeat_days, reminded, created_at, finished_at";

/// A tournament to insert (state `open`, round 0).
#[derive(Clone, Debug)]
pub struct NewTournament<'a> {
    pub guild_id: Option<GuildId>,
    pub channel_id: ChannelId,
    pub creator_id: UserId,
    pub name: &'a str,
    pub format: TournamentFormat,
    pub time_control: TimeControl,
    pub variant: Variant,
    pub ruleset: Ruleset,
    pub rated: bool,
    pub rounds: Option<u32>,
    pub minutes: Option<u32>,
    pub start_at: Option<i64>,
    pub repeat_days: Option<u32>,
    /// Unix seconds.
    pub now: i64,
}

/// Inserts `t` (open, round 0) and returns its id. A unique violation: the channel already has
/// an open or running tournament.
#[tracing::instrument(skip(conn))]
pub async fn insert_tournament(
    conn: &mut DbConn,
    t: &NewTournament<'_>,
) -> sqlx::Result<TournamentId> {
    let row = sqlx::query(
        "INSERT INTO tournaments (guild_id, channel_id, creator_id, name, format, time_control, \
         variant, ruleset, rated, rounds, round, minutes, state, start_at, repeat_days, \
         created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 0, $11, $12, $13, $14, $15) \
         RETURNING id",
    )
    .bind(t.guild_id)
    .bind(t.channel_id)
    .bind(t.creator_id)
    .bind(t.name)
    .bind(t.format.db_name())
    .bind(t.time_control.storage())
    .bind(t.variant.db_name())
    .bind(t.ruleset.db_name())
    .bind(i64::from(t.rated))
    .bind(t.rounds.map(i64::from))
    .bind(t.minutes.map(i64::from))
    .bind(TournamentState::Open.db_name())
    .bind(t.start_at)
    .bind(t.repeat_days.map(i64::from))
    .bind(t.now)
    .fetch_one(conn)
    .await?;
    row.try_get("id")
}

/// Tournament `id`.
#[tracing::instrument(skip(conn))]
pub async fn tournament(
    conn: &mut DbConn,
    id: TournamentId,
) -> sqlx::Result<Option<TournamentRow>> {
    sqlx::query_as(&format!(
        "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// The open or running tournament of `channel`, if any.
#[tracing::instrument(skip(conn))]
pub async fn current_tournament(
    conn: &mut DbConn,
    channel: ChannelId,
) -> sqlx::Result<Option<TournamentRow>> {
    sqlx::query_as(&format!(
        "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE channel_id = $1 \
         AND state IN ('open', 'running')"
    ))
    .bind(channel)
    .fetch_optional(conn)
    .await
}

/// The last tournament of `channel` (by id), whatever its state.
#[tracing::instrument(skip(conn))]
pub async fn last_tournament(
    conn: &mut DbConn,
    channel: ChannelId,
) -> sqlx::Result<Option<TournamentRow>> {
    sqlx::query_as(&format!(
        "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE channel_id = $1 \
         ORDER BY id DESC LIMIT 1"
    ))
    .bind(channel)
    .fetch_optional(conn)
    .await
}

/// The tournaments that may have work to do at `now` (Unix seconds): running ones, open ones
/// whose start time has come, and open ones starting within `remind_before` seconds whose
/// players were not reminded yet.
#[tracing::instrument(skip(conn))]
pub async fn tournaments_to_advance(
    conn: &mut DbConn,
    now: i64,
    remind_before: i64,
) -> sqlx::Result<Vec<TournamentId>> {
    let rows = sqlx::query(
        "SELECT id FROM tournaments WHERE state = 'running' \
         OR (state = 'open' AND start_at IS NOT NULL AND start_at <= $1) \
         OR (state = 'open' AND start_at IS NOT NULL AND reminded = 0 AND start_at <= $2) \
         ORDER BY id",
    )
    .bind(now)
    .bind(now + remind_before)
    .fetch_all(conn)
    .await?;
    rows.iter().map(|r| r.try_get("id")).collect()
}

/// Moves tournament `id` from state `from` to `to` (and round to `round`); `finished_at` is set
/// when `to` is finished or cancelled. False if it was not in `from` (someone else moved it).
#[tracing::instrument(skip(conn))]
pub async fn set_tournament_state(
    conn: &mut DbConn,
    id: TournamentId,
    from: TournamentState,
    to: TournamentState,
    now: i64,
) -> sqlx::Result<bool> {
    let ended = matches!(to, TournamentState::Finished | TournamentState::Cancelled);
    let done = sqlx::query(
        "UPDATE tournaments SET state = $1, finished_at = $2 WHERE id = $3 AND state = $4",
    )
    .bind(to.db_name())
    .bind(ended.then_some(now))
    .bind(id)
    .bind(from.db_name())
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Claims round `to` of running tournament `id` (its round was `from`), with `rounds` rounds in
/// all: the one statement that makes a round paired exactly once. False if the round moved.
#[tracing::instrument(skip(conn))]
pub async fn claim_round(
    conn: &mut DbConn,
    id: TournamentId,
    from: u32,
    to: u32,
    rounds: u32,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "UPDATE tournaments SET round = $1, rounds = $2 \
         WHERE id = $3 AND round = $4 AND state = 'running'",
    )
    .bind(i64::from(to))
    .bind(i64::from(rounds))
    .bind(id)
    .bind(i64::from(from))
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Records the announcement message of tournament `id`, unless it has one already (false:
/// another request posted one first).
#[tracing::instrument(skip(conn))]
pub async fn set_tournament_message(
    conn: &mut DbConn,
    id: TournamentId,
    message_id: u64,
) -> sqlx::Result<bool> {
    let done =
        sqlx::query("UPDATE tournaments SET message_id = $1 WHERE id = $2 AND message_id IS NULL")
            .bind(message_id as i64)
            .bind(id)
            .execute(conn)
            .await?;
    Ok(done.rows_affected() == 1)
}

/// A row of `tournament_players`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentPlayerRow {
    pub user_id: UserId,
    /// The starting number (given at the start).
    pub number: Option<u32>,
    pub rating: i64,
    /// Unix seconds.
    pub joined_at: i64,
    /// The first round the player could be paired in.
    pub joined_round: u32,
    pub withdrawn: bool,
}

impl<'r> FromRow<'r, AnyRow> for TournamentPlayerRow {
    fn from_row(r: &'r AnyRow) -> sqlx::Result<TournamentPlayerRow> {
        Ok(TournamentPlayerRow {
            user_id: r.try_get("user_id")?,
            number: opt_u32(r.try_get("number")?),
            rating: r.try_get("rating")?,
            joined_at: r.try_get("joined_at")?,
            joined_round: opt_u32(Some(r.try_get("joined_round")?)).unwrap_or(1),
            withdrawn: get_flag(r, "withdrawn")?,
        })
    }
}

/// The players of tournament `id`, in the order they joined.
#[tracing::instrument(skip(conn))]
pub async fn tournament_players(
    conn: &mut DbConn,
    id: TournamentId,
) -> sqlx::Result<Vec<TournamentPlayerRow>> {
    sqlx::query_as(
        "SELECT user_id, number, rating, joined_at, joined_round, withdrawn \
         FROM tournament_players WHERE tournament_id = $1 ORDER BY joined_at, user_id",
    )
    .bind(id)
    .fetch_all(conn)
    .await
}

/// Adds `user` to tournament `id` (or brings a withdrawn player back). False if already in.
#[tracing::instrument(skip(conn))]
pub async fn add_tournament_player(
    conn: &mut DbConn,
    id: TournamentId,
    user: UserId,
    rating: i64,
    number: Option<u32>,
    joined_round: u32,
    now: i64,
) -> sqlx::Result<bool> {
    let back = sqlx::query(
        "UPDATE tournament_players SET withdrawn = 0 \
         WHERE tournament_id = $1 AND user_id = $2 AND withdrawn = 1",
    )
    .bind(id)
    .bind(user)
    .execute(&mut *conn)
    .await?;
    if back.rows_affected() == 1 {
        return Ok(true);
    }
    let done = sqlx::query(
        "INSERT INTO tournament_players (tournament_id, user_id, number, rating, joined_at, \
         joined_round) VALUES ($1, $2, $3, $4, $5, $6) \
         ON CONFLICT (tournament_id, user_id) DO NOTHING",
    )
    .bind(id)
    .bind(user)
    .bind(number.map(i64::from))
    .bind(rating)
    .bind(now)
    .bind(i64::from(joined_round))
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Removes `user` from tournament `id` before its start. False if not in it.
#[tracing::instrument(skip(conn))]
pub async fn remove_tournament_player(
    conn: &mut DbConn,
    id: TournamentId,
    user: UserId,
) -> sqlx::Result<bool> {
    let done =
        sqlx::query("DELETE FROM tournament_players WHERE tournament_id = $1 AND user_id = $2")
            .bind(id)
            .bind(user)
            .execute(conn)
            .await?;
    Ok(done.rows_affected() == 1)
}

/// Marks `user` as withdrawn from running tournament `id`. False if not in it (or already out).
#[tracing::instrument(skip(conn))]
pub async fn withdraw_tournament_player(
    conn: &mut DbConn,
    id: TournamentId,
    user: UserId,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "UPDATE tournament_players SET withdrawn = 1 \
         WHERE tournament_id = $1 AND user_id = $2 AND withdrawn = 0",
    )
    .bind(id)
    .bind(user)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Gives `user` starting number `number` in tournament `id`.
#[tracing::instrument(skip(conn))]
pub async fn set_tournament_number(
    conn: &mut DbConn,
    id: TournamentId,
    user: UserId,
    number: u32,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE tournament_players SET number = $1 WHERE tournament_id = $2 AND user_id = $3",
    )
    .bind(i64::from(number))
    .bind(id)
    .bind(user)
    .execute(conn)
    .await?;
    Ok(())
}

/// A row of `tournament_pairings`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairingRow {
    pub round: u32,
    /// 1 = the top board.
    pub board: u32,
    pub white: UserId,
    /// `None`: `white` has the pairing-allocated bye.
    pub black: Option<UserId>,
    pub game_id: Option<GameId>,
    pub result: Option<PairingResult>,
    /// The game's length in plies once it ended.
    pub plies: Option<u32>,
    /// The message the game's thread opens from, once posted.
    pub message_id: Option<u64>,
    /// White and Black berserked (an arena's game).
    pub white_berserk: bool,
    pub black_berserk: bool,
}

impl<'r> FromRow<'r, AnyRow> for PairingRow {
    fn from_row(r: &'r AnyRow) -> sqlx::Result<PairingRow> {
        Ok(PairingRow {
            round: opt_u32(Some(r.try_get("round")?)).unwrap_or(0),
            board: opt_u32(Some(r.try_get("board")?)).unwrap_or(0),
            white: r.try_get("white_id")?,
            black: r.try_get("black_id")?,
            game_id: r.try_get("game_id")?,
            result: get_opt(r, "result")?,
            plies: opt_u32(r.try_get("plies")?),
            message_id: r.try_get::<Option<i64>, _>("message_id")?.map(|m| m as u64),
            white_berserk: get_flag(r, "white_berserk")?,
            black_berserk: get_flag(r, "black_berserk")?,
        })
    }
}

/// Every pairing of tournament `id`, by round then board.
#[tracing::instrument(skip(conn))]
pub async fn tournament_pairings(
    conn: &mut DbConn,
    id: TournamentId,
) -> sqlx::Result<Vec<PairingRow>> {
    sqlx::query_as(
        "SELECT round, board, white_id, black_id, game_id, result, plies, message_id, \
         white_berserk, black_berserk FROM tournament_pairings \
         WHERE tournament_id = $1 ORDER BY round, board",
    )
    .bind(id)
    .fetch_all(conn)
    .await
}

/// Inserts pairing `p` of tournament `id`.
#[tracing::instrument(skip(conn))]
pub async fn insert_pairing(
    conn: &mut DbConn,
    id: TournamentId,
    p: &PairingRow,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO tournament_pairings (tournament_id, round, board, white_id, black_id, \
         game_id, result, plies) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(id)
    .bind(i64::from(p.round))
    .bind(i64::from(p.board))
    .bind(p.white)
    .bind(p.black)
    .bind(p.game_id)
    .bind(p.result.map(|r| r.db_name()))
    .bind(p.plies.map(i64::from))
    .execute(conn)
    .await?;
    Ok(())
}

/// Records game `game` as the game of pairing (`round`, `board`) of tournament `id`. False if
/// the pairing already has one (another process started it) or the event no longer runs
/// (cancelled meanwhile).
#[tracing::instrument(skip(conn))]
pub async fn set_pairing_game(
    conn: &mut DbConn,
    id: TournamentId,
    round: u32,
    board: u32,
    game: GameId,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "UPDATE tournament_pairings SET game_id = $1 \
         WHERE tournament_id = $2 AND round = $3 AND board = $4 AND game_id IS NULL \
         AND tournament_id IN (SELECT id FROM tournaments WHERE state = 'running')",
    )
    .bind(game)
    .bind(id)
    .bind(i64::from(round))
    .bind(i64::from(board))
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Records the result of pairing (`round`, `board`) of tournament `id`, and its game's length
/// in plies. False if it had one.
#[tracing::instrument(skip(conn))]
pub async fn set_pairing_result(
    conn: &mut DbConn,
    id: TournamentId,
    round: u32,
    board: u32,
    result: PairingResult,
    plies: Option<u32>,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "UPDATE tournament_pairings SET result = $1, plies = $5 \
         WHERE tournament_id = $2 AND round = $3 AND board = $4 AND result IS NULL",
    )
    .bind(result.db_name())
    .bind(id)
    .bind(i64::from(round))
    .bind(i64::from(board))
    .bind(plies.map(i64::from))
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Sets when tournament `id` started (an arena started by hand: its end follows from it).
#[tracing::instrument(skip(conn))]
pub async fn set_tournament_start(
    conn: &mut DbConn,
    id: TournamentId,
    at: i64,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE tournaments SET start_at = $1 WHERE id = $2")
        .bind(at)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Whether game `game` is a pairing of a running tournament (a cancelled event's games are
/// ordinary games).
#[tracing::instrument(skip(conn))]
pub async fn is_tournament_game(conn: &mut DbConn, game: GameId) -> sqlx::Result<bool> {
    let row = sqlx::query(
        "SELECT 1 AS one FROM tournament_pairings p JOIN tournaments t ON t.id = p.tournament_id \
         WHERE p.game_id = $1 AND t.state = 'running'",
    )
    .bind(game)
    .fetch_optional(conn)
    .await?;
    Ok(row.is_some())
}

/// Records `message` as the message pairing (`round`, `board`) of tournament `id` opens its
/// thread from.
#[tracing::instrument(skip(conn))]
pub async fn set_pairing_message(
    conn: &mut DbConn,
    id: TournamentId,
    round: u32,
    board: u32,
    message: u64,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE tournament_pairings SET message_id = $1 \
         WHERE tournament_id = $2 AND round = $3 AND board = $4",
    )
    .bind(message as i64)
    .bind(id)
    .bind(i64::from(round))
    .bind(i64::from(board))
    .execute(conn)
    .await?;
    Ok(())
}

/// Marks open tournament `id`'s players reminded of its start; false if they already were.
#[tracing::instrument(skip(conn))]
pub async fn claim_reminder(conn: &mut DbConn, id: TournamentId) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "UPDATE tournaments SET reminded = 1 WHERE id = $1 AND reminded = 0 AND state = 'open'",
    )
    .bind(id)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Deletes the pairings of tournament `id` whose game never started and that have no result
/// (an arena's, once it is over: they will never be played).
#[tracing::instrument(skip(conn))]
pub async fn delete_unstarted_pairings(conn: &mut DbConn, id: TournamentId) -> sqlx::Result<u64> {
    let done = sqlx::query(
        "DELETE FROM tournament_pairings \
         WHERE tournament_id = $1 AND game_id IS NULL AND result IS NULL",
    )
    .bind(id)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// Records that the player of `white`'s side (else Black's) of game `game` berserks, if the game
/// is a pairing of a running arena and that player has not berserked yet. False otherwise.
#[tracing::instrument(skip(conn))]
pub async fn claim_berserk(conn: &mut DbConn, game: GameId, white: bool) -> sqlx::Result<bool> {
    let column = if white {
        "white_berserk"
    } else {
        "black_berserk"
    };
    let done = sqlx::query(&format!(
        "UPDATE tournament_pairings SET {column} = 1 \
         WHERE game_id = $1 AND {column} = 0 AND tournament_id IN \
         (SELECT id FROM tournaments WHERE format = 'arena' AND state = 'running')"
    ))
    .bind(game)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Gives back a berserk claimed by [`claim_berserk`] that the clock refused.
#[tracing::instrument(skip(conn))]
pub async fn unclaim_berserk(conn: &mut DbConn, game: GameId, white: bool) -> sqlx::Result<()> {
    let column = if white {
        "white_berserk"
    } else {
        "black_berserk"
    };
    sqlx::query(&format!(
        "UPDATE tournament_pairings SET {column} = 0 WHERE game_id = $1"
    ))
    .bind(game)
    .execute(conn)
    .await?;
    Ok(())
}
