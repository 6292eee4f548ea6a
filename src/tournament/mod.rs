//! Tournaments (issue 26): Swiss events by the FIDE Dutch system and round-robins by the
//! Berger tables, run by the bot in a channel from the first pairing to the final standings.
//!
//! Beside the game service, never inside it: a tournament keeps its own tables (players,
//! pairings) and asks the game service to start each pairing's game
//! ([`GameService::start_arranged`]) and how a game ended ([`GameService::game_ended`]). The
//! pairing itself is the `makruk-tournament` crate's (pure); this module turns rows into its
//! records and its answers into rows.
//!
//! Requests, each one write transaction: [`Tournaments::create`], [`Tournaments::join`],
//! [`Tournaments::leave`], [`Tournaments::start`], [`Tournaments::cancel`]; the time-driven work
//! is [`Tournaments::advance`] (a due start, the results of finished games, the next round's
//! pairing, the end), called by the leader's loop: a round is claimed by one statement
//! (`round = r + 1 WHERE round = r`) in the transaction that writes its pairings, so it is
//! paired exactly once, after a restart too and with several processes.
//! Queries: [`Tournaments::view`], [`Tournaments::standings`], [`Tournaments::games_to_start`].

mod arena;
pub mod cli;
mod pairing;
mod standings;
mod start;
pub mod text;

use std::collections::HashMap;

use crate::clock::TimeControl;
use crate::game::{Arranged, GameService, Place, ServiceError};
use crate::rating::Glicko;
use crate::store::{self, NewTournament, PairingRow, TournamentPlayerRow, TournamentRow, Tx};
use crate::types::{
    ChannelId, EndReason, GameId, GameResult, GuildId, Ladder, PairingResult, Reply,
    TournamentFormat, TournamentId, TournamentState, UserId,
};
use makruk::{Ruleset, Variant};

pub use pairing::PairingProblem;
pub use standings::{complete_rounds, ArenaScore, Standing, Standings};
pub use start::parse_start;

/// The most rounds a Swiss event may have.
pub const MAX_ROUNDS: u32 = 20;
/// The most players of a round-robin (its rounds grow with them).
pub const MAX_ROUND_ROBIN_PLAYERS: usize = 16;
/// An arena's shortest, default and longest duration, in minutes.
pub const MIN_ARENA_MINUTES: u32 = 10;
pub const DEFAULT_ARENA_MINUTES: u32 = 60;
pub const MAX_ARENA_MINUTES: u32 = 360;
/// How long before a scheduled start its players are reminded, in seconds.
pub const REMIND_BEFORE_SECS: i64 = 5 * 60;
/// The repeats a recurring event may have, in days (daily, weekly).
pub const REPEAT_CHOICES: [u32; 2] = [1, 7];
/// The rating a player without a rated game on the server joins with.
pub const DEFAULT_RATING: i64 = 1500;

/// Why a tournament request was refused (user errors) or failed.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// No tournament is open or running in this channel.
    #[error("no tournament in this channel")]
    NoTournament,
    /// The channel already has an open or running tournament.
    #[error("a tournament is already running in this channel")]
    AlreadyRunning(TournamentId),
    /// Only its organiser (or a server manager, checked by the adapter) may do that.
    #[error("only the organiser may do that")]
    NotOrganiser,
    /// The player is already in the tournament.
    #[error("already joined")]
    AlreadyJoined,
    /// The player is not in the tournament.
    #[error("not in this tournament")]
    NotJoined,
    /// The tournament takes no one any more: a round-robin after its start, a Swiss event
    /// once its last round is paired.
    #[error("the tournament takes no new players")]
    Started,
    /// A recurring event needs a scheduled start (`start:`) to repeat from.
    #[error("a recurring tournament needs a start time")]
    RepeatNeedsStart,
    /// `start` of an event that has already started.
    #[error("the tournament has already started")]
    AlreadyStarted,
    /// Starting needs at least two players (three for a round-robin).
    #[error("not enough players: {have} of {need}")]
    TooFewPlayers { have: usize, need: usize },
    /// A round-robin takes at most [`MAX_ROUND_ROBIN_PLAYERS`].
    #[error("the tournament is full")]
    Full,
    /// Rounds out of 1..=[`MAX_ROUNDS`].
    #[error("rounds must be between 1 and {MAX_ROUNDS}")]
    BadRounds,
    /// An arena is played with a live clock (minutes + increment), not days per move.
    #[error("an arena needs a live time control")]
    ArenaNeedsLiveClock,
    /// An arena's duration out of [`MIN_ARENA_MINUTES`]..=[`MAX_ARENA_MINUTES`].
    #[error("an arena lasts between {MIN_ARENA_MINUTES} and {MAX_ARENA_MINUTES} minutes")]
    BadDuration,
    /// The Dutch system found no pairing that its absolute criteria allow (e.g. everyone
    /// left has met everyone).
    #[error("the next round cannot be paired: {0}")]
    Unpairable(PairingProblem),
    /// The game service refused or failed.
    #[error(transparent)]
    Service(#[from] ServiceError),
}

impl From<sqlx::Error> for TournamentError {
    fn from(e: sqlx::Error) -> Self {
        TournamentError::Service(e.into())
    }
}

impl TournamentError {
    /// The error's text key (`tournament-error-<name>` in `i18n/*/service.ftl`); `None` for an
    /// internal error.
    #[must_use]
    pub fn name(&self) -> Option<&'static str> {
        Some(match self {
            TournamentError::NoTournament => "no-tournament",
            TournamentError::AlreadyRunning(_) => "already-running",
            TournamentError::NotOrganiser => "not-organiser",
            TournamentError::AlreadyJoined => "already-joined",
            TournamentError::NotJoined => "not-joined",
            TournamentError::Started => "started",
            TournamentError::AlreadyStarted => "already-started",
            TournamentError::RepeatNeedsStart => "repeat-needs-start",
            TournamentError::TooFewPlayers { .. } => "too-few-players",
            TournamentError::Full => "full",
            TournamentError::BadRounds => "bad-rounds",
            TournamentError::ArenaNeedsLiveClock => "arena-live",
            TournamentError::BadDuration => "bad-duration",
            TournamentError::Unpairable(_) => "unpairable",
            TournamentError::Service(_) => return None,
        })
    }
}

/// A tournament to create.
#[derive(Clone, Debug)]
pub struct NewEvent {
    pub guild: Option<GuildId>,
    pub channel: ChannelId,
    pub organiser: UserId,
    pub name: String,
    pub format: TournamentFormat,
    pub time_control: TimeControl,
    pub variant: Variant,
    pub ruleset: Ruleset,
    pub rated: bool,
    /// Swiss: the number of rounds (1..=[`MAX_ROUNDS`]); a round-robin's follows from its
    /// players.
    pub rounds: Option<u32>,
    /// An arena's duration in minutes ([`MIN_ARENA_MINUTES`]..=[`MAX_ARENA_MINUTES`], default
    /// [`DEFAULT_ARENA_MINUTES`]).
    pub minutes: Option<u32>,
    /// When it starts by itself, Unix seconds; `None`: when its organiser starts it.
    pub start_at: Option<i64>,
    /// A recurring event: created again this many days after its start when it finishes
    /// (one of [`REPEAT_CHOICES`]; needs `start_at`).
    pub repeat_days: Option<u32>,
}

/// A tournament as shown: its row, players and pairings.
#[derive(Clone, Debug)]
pub struct TournamentView {
    pub row: TournamentRow,
    pub players: Vec<TournamentPlayerRow>,
    pub pairings: Vec<PairingRow>,
}

impl TournamentView {
    /// The pairings of round `round`.
    pub fn round(&self, round: u32) -> impl Iterator<Item = &PairingRow> {
        self.pairings.iter().filter(move |p| p.round == round)
    }

    /// The players still in (not withdrawn).
    pub fn active_players(&self) -> impl Iterator<Item = &TournamentPlayerRow> {
        self.players.iter().filter(|p| !p.withdrawn)
    }
}

/// What [`Tournaments::advance`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Advance {
    /// Nothing was due.
    Nothing,
    /// Results were recorded; the round goes on.
    Results,
    /// Round `round` was paired (its games are to be started: [`Tournaments::games_to_start`]).
    Paired { round: u32 },
    /// The last round ended: the standings are final.
    Finished,
    /// A due start found too few players: the event was cancelled.
    Cancelled,
    /// The event starts in [`REMIND_BEFORE_SECS`] or less: its players are to be reminded
    /// (claimed: once).
    Remind,
}

/// The tournament service, over the game service.
#[derive(Clone, Copy)]
pub struct Tournaments<'a> {
    games: &'a GameService,
}

impl<'a> Tournaments<'a> {
    /// The tournaments of `games`' database.
    #[must_use]
    pub fn new(games: &'a GameService) -> Self {
        Tournaments { games }
    }

    fn now(&self) -> i64 {
        self.games.now_ms().div_euclid(1000)
    }

    async fn begin_write(&self) -> Result<Tx, TournamentError> {
        Ok(self.games.store().begin_write().await?)
    }

    /// Creates a tournament in its channel, open for players.
    ///
    /// # Errors
    /// [`TournamentError::AlreadyRunning`], [`TournamentError::BadRounds`], the variant's
    /// ruleset check ([`ServiceError::VariantRuleset`]), `Internal`.
    #[tracing::instrument(skip(self))]
    pub async fn create(&self, e: NewEvent) -> Result<TournamentView, TournamentError> {
        GameService::check_variant_ruleset(e.variant, e.ruleset)?;
        let rounds = match e.format {
            TournamentFormat::Swiss => {
                let r = e.rounds.unwrap_or(5);
                if !(1..=MAX_ROUNDS).contains(&r) {
                    return Err(TournamentError::BadRounds);
                }
                Some(r)
            }
            TournamentFormat::RoundRobin | TournamentFormat::Arena => None,
        };
        let minutes = match e.format {
            TournamentFormat::Arena => {
                if !matches!(e.time_control, TimeControl::Live { .. }) {
                    return Err(TournamentError::ArenaNeedsLiveClock);
                }
                let m = e.minutes.unwrap_or(DEFAULT_ARENA_MINUTES);
                if !(MIN_ARENA_MINUTES..=MAX_ARENA_MINUTES).contains(&m) {
                    return Err(TournamentError::BadDuration);
                }
                Some(m)
            }
            _ => None,
        };
        if e.repeat_days.is_some_and(|d| !REPEAT_CHOICES.contains(&d))
            || (e.repeat_days.is_some() && e.start_at.is_none())
        {
            return Err(TournamentError::RepeatNeedsStart);
        }
        let mut tx = self.begin_write().await?;
        store::lock_tournament(&mut tx, e.channel).await?;
        if let Some(t) = store::current_tournament(&mut tx, e.channel).await? {
            return Err(TournamentError::AlreadyRunning(t.id));
        }
        let new = NewTournament {
            guild_id: e.guild,
            channel_id: e.channel,
            creator_id: e.organiser,
            name: &e.name,
            format: e.format,
            time_control: e.time_control,
            variant: e.variant,
            ruleset: e.ruleset,
            rated: e.rated && e.guild.is_some(),
            rounds,
            minutes,
            start_at: e.start_at,
            repeat_days: e.repeat_days,
            now: self.now(),
        };
        let id = match store::insert_tournament(&mut tx, &new).await {
            Ok(id) => id,
            Err(err) if store::is_unique_violation(&err) => {
                return Err(TournamentError::Service(ServiceError::Conflict))
            }
            Err(err) => return Err(err.into()),
        };
        let view = read_view(&mut tx, id).await?;
        tx.commit().await?;
        Ok(view)
    }

    /// The open or running tournament of `channel`, else its last one.
    ///
    /// # Errors
    /// [`TournamentError::NoTournament`], `Internal`.
    pub async fn view(&self, channel: ChannelId) -> Result<TournamentView, TournamentError> {
        let mut tx = self
            .games
            .store()
            .begin_read()
            .await
            .map_err(ServiceError::from)?;
        let row = match store::current_tournament(&mut tx, channel).await? {
            Some(t) => t,
            None => store::last_tournament(&mut tx, channel)
                .await?
                .ok_or(TournamentError::NoTournament)?,
        };
        let view = read_view(&mut tx, row.id).await?;
        tx.commit().await.map_err(ServiceError::from)?;
        Ok(view)
    }

    /// Tournament `id`.
    ///
    /// # Errors
    /// [`TournamentError::NoTournament`], `Internal`.
    pub async fn view_of(&self, id: TournamentId) -> Result<TournamentView, TournamentError> {
        let mut tx = self
            .games
            .store()
            .begin_read()
            .await
            .map_err(ServiceError::from)?;
        let view = read_view(&mut tx, id).await?;
        tx.commit().await.map_err(ServiceError::from)?;
        Ok(view)
    }

    /// `user` joins the channel's tournament: before the start with the rating they have on
    /// the server in the event's variant and speed; a Swiss event also takes players after its
    /// start (a late joiner gets a zero-point bye for each round missed). A player who left a
    /// running Swiss event may come back.
    ///
    /// # Errors
    /// [`TournamentError::NoTournament`], [`TournamentError::AlreadyJoined`],
    /// [`TournamentError::Started`] (a round-robin), [`TournamentError::Full`], `Internal`.
    #[tracing::instrument(skip(self))]
    pub async fn join(
        &self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<TournamentView, TournamentError> {
        let mut tx = self.begin_write().await?;
        store::lock_tournament(&mut tx, channel).await?;
        let t = store::current_tournament(&mut tx, channel)
            .await?
            .ok_or(TournamentError::NoTournament)?;
        let players = store::tournament_players(&mut tx, t.id).await?;
        let (number, joined_round) = match (t.state, t.format) {
            (TournamentState::Open, TournamentFormat::RoundRobin)
                if players.len() >= MAX_ROUND_ROBIN_PLAYERS =>
            {
                return Err(TournamentError::Full)
            }
            (TournamentState::Open, _) => (None, 1),
            (_, TournamentFormat::RoundRobin) => return Err(TournamentError::Started),
            (_, TournamentFormat::Swiss) if t.round >= t.rounds.unwrap_or(0) => {
                return Err(TournamentError::Started)
            }
            (_, TournamentFormat::Arena) if arena::end_of(&t).is_some_and(|e| e <= self.now()) => {
                return Err(TournamentError::Started)
            }
            (_, TournamentFormat::Swiss | TournamentFormat::Arena) => {
                let next = players.iter().filter_map(|p| p.number).max().unwrap_or(0) + 1;
                (Some(next), t.round + 1)
            }
        };
        let rating = match t.guild_id {
            Some(guild) => store::rating(&mut tx, guild, user, t.variant, t.time_control.kind())
                .await?
                .map_or(DEFAULT_RATING, |r| rating_points(r.glicko)),
            None => DEFAULT_RATING,
        };
        let now = self.now();
        if !store::add_tournament_player(&mut tx, t.id, user, rating, number, joined_round, now)
            .await?
        {
            return Err(TournamentError::AlreadyJoined);
        }
        let view = read_view(&mut tx, t.id).await?;
        tx.commit().await?;
        Ok(view)
    }

    /// `user` leaves the channel's tournament: before the start they are removed; after it they
    /// withdraw (a game being played goes on and counts; they are not paired again).
    ///
    /// # Errors
    /// [`TournamentError::NoTournament`], [`TournamentError::NotJoined`], `Internal`.
    #[tracing::instrument(skip(self))]
    pub async fn leave(
        &self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<TournamentView, TournamentError> {
        let mut tx = self.begin_write().await?;
        store::lock_tournament(&mut tx, channel).await?;
        let t = store::current_tournament(&mut tx, channel)
            .await?
            .ok_or(TournamentError::NoTournament)?;
        let done = match t.state {
            TournamentState::Open => store::remove_tournament_player(&mut tx, t.id, user).await?,
            _ => store::withdraw_tournament_player(&mut tx, t.id, user).await?,
        };
        if !done {
            return Err(TournamentError::NotJoined);
        }
        let view = read_view(&mut tx, t.id).await?;
        tx.commit().await?;
        Ok(view)
    }

    /// The organiser (`by`, or anyone when `manager`: the adapter says the user manages the
    /// server) starts the channel's open tournament: starting numbers by rating, round 1
    /// paired.
    ///
    /// # Errors
    /// [`TournamentError::NoTournament`], [`TournamentError::NotOrganiser`],
    /// [`TournamentError::Started`], [`TournamentError::TooFewPlayers`],
    /// [`TournamentError::Unpairable`], `Internal`.
    #[tracing::instrument(skip(self))]
    pub async fn start(
        &self,
        channel: ChannelId,
        by: UserId,
        manager: bool,
    ) -> Result<TournamentView, TournamentError> {
        let mut tx = self.begin_write().await?;
        store::lock_tournament(&mut tx, channel).await?;
        let t = store::current_tournament(&mut tx, channel)
            .await?
            .ok_or(TournamentError::NoTournament)?;
        if t.creator_id != by && !manager {
            return Err(TournamentError::NotOrganiser);
        }
        if t.state != TournamentState::Open {
            return Err(TournamentError::AlreadyStarted);
        }
        begin(&mut tx, &t, self.now()).await?;
        let view = read_view(&mut tx, t.id).await?;
        tx.commit().await?;
        Ok(view)
    }

    /// The organiser (or a server manager) cancels the channel's tournament; games being
    /// played go on as ordinary games.
    ///
    /// # Errors
    /// [`TournamentError::NoTournament`], [`TournamentError::NotOrganiser`], `Internal`.
    #[tracing::instrument(skip(self))]
    pub async fn cancel(
        &self,
        channel: ChannelId,
        by: UserId,
        manager: bool,
    ) -> Result<TournamentView, TournamentError> {
        let mut tx = self.begin_write().await?;
        store::lock_tournament(&mut tx, channel).await?;
        let t = store::current_tournament(&mut tx, channel)
            .await?
            .ok_or(TournamentError::NoTournament)?;
        if t.creator_id != by && !manager {
            return Err(TournamentError::NotOrganiser);
        }
        if !store::set_tournament_state(
            &mut tx,
            t.id,
            t.state,
            TournamentState::Cancelled,
            self.now(),
        )
        .await?
        {
            return Err(ServiceError::Conflict.into());
        }
        let view = read_view(&mut tx, t.id).await?;
        tx.commit().await?;
        Ok(view)
    }

    /// The tournaments with time-driven work possibly due now (running ones, open ones whose
    /// start time came), for the leader's loop to [`Tournaments::advance`].
    ///
    /// # Errors
    /// `Internal`.
    pub async fn due(&self) -> Result<Vec<TournamentId>, TournamentError> {
        let mut tx = self
            .games
            .store()
            .begin_read()
            .await
            .map_err(ServiceError::from)?;
        let ids = store::tournaments_to_advance(&mut tx, self.now(), REMIND_BEFORE_SECS).await?;
        tx.commit().await.map_err(ServiceError::from)?;
        Ok(ids)
    }

    /// Does what is due in tournament `id`, in one write transaction: starts it at its start
    /// time (or cancels it for want of players), records the results of its finished games,
    /// and when the round's last result is in, pairs the next round or ends the event. Calling
    /// it again (or from another process) does nothing more.
    ///
    /// # Errors
    /// [`TournamentError::Unpairable`], `Internal`.
    #[tracing::instrument(skip(self))]
    pub async fn advance(&self, id: TournamentId) -> Result<Advance, TournamentError> {
        // The games' ends are read before the write transaction (SQLite has one writer).
        let mut ends = HashMap::new();
        {
            let mut tx = self
                .games
                .store()
                .begin_read()
                .await
                .map_err(ServiceError::from)?;
            let pairings = store::tournament_pairings(&mut tx, id).await?;
            tx.commit().await.map_err(ServiceError::from)?;
            for p in pairings.iter().filter(|p| p.result.is_none()) {
                if let Some(game) = p.game_id {
                    if let Some(ended) = self.games.game_ended(game).await? {
                        ends.insert(game, (result_of(ended), ended.plies));
                    }
                }
            }
        }
        let now = self.now();
        let mut tx = self.begin_write().await?;
        let Some(t) = store::tournament(&mut tx, id).await? else {
            return Ok(Advance::Nothing);
        };
        store::lock_tournament(&mut tx, t.channel_id).await?;
        // Read again under the lock: a command may have changed it meanwhile.
        let Some(t) = store::tournament(&mut tx, id).await? else {
            return Ok(Advance::Nothing);
        };
        let what = match t.state {
            TournamentState::Open
                if t.start_at
                    .is_some_and(|at| at > now && at - now <= REMIND_BEFORE_SECS)
                    && !t.reminded =>
            {
                if store::claim_reminder(&mut tx, id).await? {
                    Advance::Remind
                } else {
                    Advance::Nothing
                }
            }
            TournamentState::Open if t.start_at.is_some_and(|at| at <= now) => {
                match begin(&mut tx, &t, now).await {
                    Ok(()) => Advance::Paired { round: 1 },
                    Err(TournamentError::TooFewPlayers { .. }) => {
                        store::set_tournament_state(
                            &mut tx,
                            id,
                            TournamentState::Open,
                            TournamentState::Cancelled,
                            now,
                        )
                        .await?;
                        // A recurring series goes on with its next edition.
                        next_edition(&mut tx, &t, now).await?;
                        Advance::Cancelled
                    }
                    Err(e) => return Err(e),
                }
            }
            TournamentState::Running => {
                let pairings = store::tournament_pairings(&mut tx, id).await?;
                let mut recorded = false;
                for p in pairings.iter().filter(|p| p.result.is_none()) {
                    if let Some((r, plies)) = p.game_id.and_then(|g| ends.get(&g)) {
                        let done = store::set_pairing_result(
                            &mut tx,
                            id,
                            p.round,
                            p.board,
                            *r,
                            Some(*plies),
                        )
                        .await?;
                        if done && t.format == TournamentFormat::Arena {
                            for user in arena::absent(p, *r) {
                                store::withdraw_tournament_player(&mut tx, id, user).await?;
                            }
                        }
                        recorded |= done;
                    }
                }
                let pairings = store::tournament_pairings(&mut tx, id).await?;
                if t.format == TournamentFormat::Arena {
                    let what = arena::advance(&mut tx, &t, &pairings, now, recorded).await?;
                    if what == Advance::Nothing {
                        return Ok(what);
                    }
                    tx.commit().await?;
                    return Ok(what);
                }
                let open = pairings
                    .iter()
                    .any(|p| p.round == t.round && p.result.is_none());
                let rounds = effective_rounds(&t, &store::tournament_players(&mut tx, id).await?);
                if open {
                    if recorded {
                        Advance::Results
                    } else {
                        Advance::Nothing
                    }
                } else if t.round >= rounds {
                    finish(&mut tx, id, now).await?;
                    Advance::Finished
                } else {
                    let players = store::tournament_players(&mut tx, id).await?;
                    match pair_round(&mut tx, &t, &players, &pairings, t.round + 1, rounds).await {
                        Ok(()) => Advance::Paired { round: t.round + 1 },
                        // No pairing the rules allow (everyone left has met): the event ends
                        // after the rounds played, their results kept.
                        Err(TournamentError::Unpairable(why)) => {
                            tracing::warn!(tournament = id.0, "ends early: {why}");
                            finish(&mut tx, id, now).await?;
                            Advance::Finished
                        }
                        Err(e) => return Err(e),
                    }
                }
            }
            _ => Advance::Nothing,
        };
        if what == Advance::Nothing {
            return Ok(what);
        }
        tx.commit().await?;
        Ok(what)
    }

    /// The pairings of tournament `id`'s current round whose game is still to be started (the
    /// adapter opens a thread for each and calls [`Tournaments::start_game`]).
    ///
    /// # Errors
    /// `Internal`.
    pub async fn games_to_start(
        &self,
        id: TournamentId,
    ) -> Result<Vec<PairingRow>, TournamentError> {
        let view = self.view_of(id).await?;
        if view.row.state != TournamentState::Running {
            return Ok(Vec::new());
        }
        // Any round's (an arena's waves overlap; a Swiss round's come one at a time).
        Ok(view
            .pairings
            .iter()
            .filter(|p| p.black.is_some() && p.game_id.is_none() && p.result.is_none())
            .copied()
            .collect())
    }

    /// Starts the game of `pairing` of tournament `t` in `place` (a thread of the event's
    /// channel).
    ///
    /// # Errors
    /// [`ServiceError::Conflict`] when it has a game already, the game service's errors.
    pub async fn start_game(
        &self,
        t: &TournamentRow,
        pairing: &PairingRow,
        place: Place,
    ) -> Result<Reply, TournamentError> {
        let Some(black) = pairing.black else {
            return Err(ServiceError::Conflict.into());
        };
        let a = Arranged {
            tournament: t.id,
            round: pairing.round,
            board: pairing.board,
            white: pairing.white,
            black,
            ruleset: t.ruleset,
            variant: t.variant,
            time_control: t.time_control,
            ladder: Ladder {
                guild: t.guild_id,
                rated: t.rated,
            },
        };
        Ok(self.games.start_arranged(place, a).await?)
    }

    /// Records `message` (of the event's channel) as tournament `id`'s announcement; false if
    /// it has one already (posted by another request at the same time: this one is extra).
    ///
    /// # Errors
    /// `Internal`.
    pub async fn set_message(
        &self,
        id: TournamentId,
        message: u64,
    ) -> Result<bool, TournamentError> {
        let mut tx = self.begin_write().await?;
        let set = store::set_tournament_message(&mut tx, id, message).await?;
        tx.commit().await?;
        Ok(set)
    }

    /// Records `message` as the message pairing (`round`, `board`) of tournament `id` opens
    /// its game's thread from (posted once: a thread refused is tried again from it).
    ///
    /// # Errors
    /// `Internal`.
    pub async fn set_game_message(
        &self,
        id: TournamentId,
        round: u32,
        board: u32,
        message: u64,
    ) -> Result<(), TournamentError> {
        let mut tx = self.begin_write().await?;
        store::set_pairing_message(&mut tx, id, round, board, message).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The standings of tournament `id`.
    ///
    /// # Errors
    /// [`TournamentError::NoTournament`], `Internal`.
    pub async fn standings_of(
        &self,
        id: TournamentId,
    ) -> Result<(TournamentView, Standings), TournamentError> {
        let view = self.view_of(id).await?;
        let standings = standings::standings(&view);
        Ok((view, standings))
    }

    /// The channel's tournament (the open or running one, else its last) as a FIDE TRF16
    /// report of its complete rounds, each player named as in `names` (else by their id).
    ///
    /// # Errors
    /// [`TournamentError::NoTournament`], `Internal`.
    pub async fn trf(
        &self,
        channel: ChannelId,
        names: &HashMap<UserId, String>,
    ) -> Result<(TournamentView, String), TournamentError> {
        let view = self.view(channel).await?;
        let standings = standings::standings(&view);
        let ranks = standings.rows.iter().map(|s| (s.number, s.place)).collect();
        let name = |u: UserId| names.get(&u).cloned().unwrap_or_else(|| u.0.to_string());
        let report = pairing::trf_of(&view, standings::complete_rounds(&view), &ranks, &name);
        Ok((view, report.to_trf()))
    }

    /// The standings of the channel's tournament (the open or running one, else its last):
    /// score, then Buchholz Cut-1, Buchholz, Sonneborn–Berger and the direct encounter.
    ///
    /// # Errors
    /// [`TournamentError::NoTournament`], `Internal`.
    pub async fn standings(&self, channel: ChannelId) -> Result<Standings, TournamentError> {
        let view = self.view(channel).await?;
        Ok(standings::standings(&view))
    }
}

/// A rating as a whole number of points.
fn rating_points(g: Glicko) -> i64 {
    // Ratings stay within a few thousand points: the cast cannot overflow.
    g.rating.round() as i64
}

/// Reads tournament `id` with its players and pairings.
async fn read_view(tx: &mut Tx, id: TournamentId) -> Result<TournamentView, TournamentError> {
    let row = store::tournament(tx, id)
        .await?
        .ok_or(TournamentError::NoTournament)?;
    let players = store::tournament_players(tx, id).await?;
    let pairings = store::tournament_pairings(tx, id).await?;
    Ok(TournamentView {
        row,
        players,
        pairings,
    })
}

/// Starts open tournament `t`: starting numbers by rating (then who joined first), state
/// running, round 1 paired.
async fn begin(tx: &mut Tx, t: &TournamentRow, now: i64) -> Result<(), TournamentError> {
    let mut players = store::tournament_players(tx, t.id).await?;
    let need = match t.format {
        TournamentFormat::Swiss | TournamentFormat::Arena => 2,
        TournamentFormat::RoundRobin => 3,
    };
    if players.len() < need {
        return Err(TournamentError::TooFewPlayers {
            have: players.len(),
            need,
        });
    }
    // Stable: equal ratings keep the order of joining.
    players.sort_by_key(|p| std::cmp::Reverse(p.rating));
    for (i, p) in players.iter_mut().enumerate() {
        let number = u32::try_from(i + 1).unwrap_or(u32::MAX);
        store::set_tournament_number(tx, t.id, p.user_id, number).await?;
        p.number = Some(number);
    }
    if !store::set_tournament_state(
        tx,
        t.id,
        TournamentState::Open,
        TournamentState::Running,
        now,
    )
    .await?
    {
        return Err(ServiceError::Conflict.into());
    }
    let rounds = match t.format {
        // No more rounds than everyone can play without meeting twice (a Swiss of 3 players
        // has 3 rounds at most, one bye each; of 4, 3 rounds).
        // (The cap is applied when a round ends, `effective_rounds`: the event keeps the
        // rounds asked for, which its next edition, if recurring, asks for again.)
        TournamentFormat::Swiss => t.rounds.unwrap_or(5),
        TournamentFormat::RoundRobin => pairing::round_robin_rounds(players.len()),
        TournamentFormat::Arena => {
            // An arena runs for its minutes from now; its first wave pairs everyone.
            store::set_tournament_start(tx, t.id, now).await?;
            let mut t = t.clone();
            t.start_at = Some(now);
            t.state = TournamentState::Running;
            arena::pair_wave(tx, &t, &players, &[]).await?;
            return Ok(());
        }
    };
    pair_round(tx, t, &players, &[], 1, rounds).await
}

/// The rounds tournament `t` plays: a Swiss event's asked-for rounds, but no more than its
/// players can play without meeting twice (a Swiss of 2 players has 1 round; of 3, 3 rounds
/// with a bye each; of 4, 3 rounds); a round-robin's by its table.
fn effective_rounds(t: &TournamentRow, players: &[TournamentPlayerRow]) -> u32 {
    let numbered = players.iter().filter(|p| p.number.is_some()).count();
    let asked = t.rounds.unwrap_or(t.round);
    match t.format {
        TournamentFormat::Swiss => asked.min(pairing::round_robin_rounds(numbered).max(1)),
        _ => asked,
    }
}

/// Moves running tournament `id` to finished.
///
/// # Errors
/// [`ServiceError::Conflict`] when it was no longer running (cancelled meanwhile).
async fn finish(tx: &mut Tx, id: TournamentId, now: i64) -> Result<(), TournamentError> {
    if !store::set_tournament_state(
        tx,
        id,
        TournamentState::Running,
        TournamentState::Finished,
        now,
    )
    .await?
    {
        return Err(ServiceError::Conflict.into());
    }
    let Some(t) = store::tournament(tx, id).await? else {
        return Ok(());
    };
    next_edition(tx, &t, now).await
}

/// A recurring event that ended (finished, or cancelled at its start for want of players):
/// its next edition, open for players, starting at the first repeat to come.
async fn next_edition(tx: &mut Tx, t: &TournamentRow, now: i64) -> Result<(), TournamentError> {
    if let (Some(days), Some(start)) = (t.repeat_days, t.start_at) {
        let every = i64::from(days.max(1)) * 86_400;
        let mut next = start + every;
        while next <= now {
            next += every;
        }
        let again = NewTournament {
            guild_id: t.guild_id,
            channel_id: t.channel_id,
            creator_id: t.creator_id,
            name: &t.name,
            format: t.format,
            time_control: t.time_control,
            variant: t.variant,
            ruleset: t.ruleset,
            rated: t.rated,
            rounds: match t.format {
                TournamentFormat::Swiss => t.rounds,
                _ => None,
            },
            minutes: t.minutes,
            start_at: Some(next),
            repeat_days: t.repeat_days,
            now,
        };
        store::insert_tournament(tx, &again).await?;
    }
    Ok(())
}

/// Pairs round `round` of running tournament `t` (the round before complete) and claims it.
async fn pair_round(
    tx: &mut Tx,
    t: &TournamentRow,
    players: &[TournamentPlayerRow],
    pairings: &[PairingRow],
    round: u32,
    rounds: u32,
) -> Result<(), TournamentError> {
    let new = match t.format {
        TournamentFormat::Swiss => pairing::swiss(players, pairings, round, rounds),
        TournamentFormat::RoundRobin => Ok(pairing::round_robin(players, round)),
        TournamentFormat::Arena => Ok(Vec::new()),
    }
    .map_err(TournamentError::Unpairable)?;
    if !store::claim_round(tx, t.id, round - 1, round, rounds).await? {
        return Err(ServiceError::Conflict.into());
    }
    for p in &new {
        store::insert_pairing(tx, t.id, p).await?;
    }
    Ok(())
}

/// How a finished game counts in a tournament. A game aborted by a flag before the side to
/// move made its first move is lost by forfeit by that side (White at ply 0, Black at ply 1);
/// a game aborted otherwise (before both moved, by a player) is a double forfeit.
fn result_of(e: crate::game::Ended) -> PairingResult {
    match e.end.result {
        GameResult::WhiteWins => PairingResult::WhiteWins,
        GameResult::BlackWins => PairingResult::BlackWins,
        GameResult::Draw => PairingResult::Draw,
        GameResult::Aborted => match (e.end.reason, e.plies) {
            (EndReason::TimeoutAborted, 0) => PairingResult::BlackForfeitWin,
            (EndReason::TimeoutAborted, _) => PairingResult::WhiteForfeitWin,
            _ => PairingResult::DoubleForfeit,
        },
    }
}

/// Used by the adapter's tests and the simulator: the game ids of a view's current round.
#[must_use]
pub fn current_games(view: &TournamentView) -> Vec<GameId> {
    view.round(view.row.round)
        .filter_map(|p| p.game_id)
        .collect()
}
