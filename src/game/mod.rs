//! The game service: challenges, moves, offers, counting, explanations; one transaction per request.
//!
//! Plain Rust types only (no Discord types): the adapter in `crate::discord` turns commands into
//! calls on [`GameService`] and its answers ([`Reply`], [`ChallengeView`], [`ServiceError`]) into
//! messages.
//!
//! A request on a game reads the game (one snapshot: row, moves, count requests), replays it with
//! `makruk::Game`, decides, and writes the result in one transaction that bumps the game's
//! `version` only if it is still the version read (`UPDATE … WHERE version = $n`). If another
//! request got there first, the request starts again from a fresh read (a double-click's second
//! move then gets [`ServiceError::NotYourTurn`]); after three lost races it gives up with
//! [`ServiceError::Conflict`]. A refused request writes nothing: the database stays as it was.
//! Challenges run in one write transaction each. The one-active-game-per-channel and
//! one-open-challenge-per-channel rules are unique indexes in the database.
//!
//! One file per concern, each an `impl GameService` block, over one file of pure steps:
//! - `loaded`: the game read and replayed (`Loaded`) and its steps, without a database (a move,
//!   offers made, accepted, declined and lapsing, takebacks, counts, a flag, the game's end,
//!   the answer);
//! - `persist`: reading a game (replay, cache), writing it back, the optimistic retry loop, the
//!   one path of a flag falling (`time_out`);
//! - `challenges`: challenge, accept, decline, withdraw;
//! - `arranged`: games the bot arranges without a challenge (a tournament's pairings), and how
//!   a game ended;
//! - `play`: moves, resignation, abort (load, call `Loaded`'s step, save: as every request file);
//! - `offers`: draw offers and takeback requests ([`OfferKind`]), one code path for both;
//! - `count`: `traditional` count requests and the count explained;
//! - `queries`: the board, move suggestions, history, PGN, the rules;
//! - `announce`: what the bot says without being asked ([`Announcement`]), in commit order;
//! - `computer`: games against the computer ([`ComputerTurn`]s handed out, its moves applied);
//! - `clocks`: the clocks' side of every game: flags and reminders from the scheduler, the
//!   start-up that rebuilds it and gives the downtime back, the heartbeat;
//! - `threads`: games in their own thread, the servers' settings and preferred locales;
//! - `reach`: the channels the bot may only answer in (no message of its own: a DM the app is
//!   installed in by a user), remembered across restarts;
//! - `puzzles`: puzzles served, answered, rated and voted on, and the servers' daily puzzles
//!   (the pure side is `crate::puzzles`);
//! - `ratings`: Glicko-2 ratings applied in the save that ends a rated game, the leaderboard,
//!   a player's stats, `recompute`;
//! - `leader`: the lease that lets one of several processes on the database pick up the work of
//!   a process that died (overdue clocks, computer turns left waiting), and re-post unannounced
//!   moves.
//!
//! The service's time comes from a [`TimeSource`] in Unix milliseconds (the system's, or a
//! [`crate::clock::FakeTime`] for tests and the simulator: [`GameService::with_time`]). The
//! clocks count in milliseconds; the rows' `created_at`/`updated_at`/`finished_at` and the
//! challenges' times are Unix seconds of the same source.

mod analysis;
mod announce;
mod arranged;
mod cache;
mod challenges;
mod clocks;
mod computer;
mod count;
mod error;
mod leader;
mod loaded;
mod offers;
mod persist;
mod play;
mod puzzles;
mod queries;
mod ratings;
mod reach;
mod text;
mod threads;

use std::sync::Arc;

pub use crate::clock::{ClockStatus, Kind, TimeControl};
pub use crate::types::{
    ChallengeId, ChallengeState, ChallengeView, ChannelId, ColorChoice, ComputerLevel,
    ComputerSeat, EndReason, Event, GameEnd, GameId, GameRatings, GameResult, GameSummary, GuildId,
    Ladder, MoveChoice, OfferKind, PgnExport, RatingChange, Reply, RulesTopic, Status, Terms,
    UnknownComputerLevel, UserId, UserName,
};
pub use analysis::{
    eval_text, judgement_nag, judgement_text, parse_eval, pgn_eval, AnalysedPly, AnalysisStatus,
    AnalysisSummary, GameAnalysis, Moment, Note, PlyReview, QueuedAnalysis, SideSummary, Why,
};
pub use announce::Announcement;
pub use arranged::{Arranged, Ended};
pub use challenges::ClosedChallenge;
pub use clocks::ClockStart;
pub use computer::{ComputerTurn, DrawJudge, JudgeFuture};
pub use error::{ServiceError, MAX_INPUT_LEN};
pub use leader::{LeaderSettings, Sweep, LEADER_LEASE};
/// Rules-crate types that appear in this API, re-exported for the adapter's convenience.
pub use makruk::{
    Color, CountInfo, CountKind, CountRequestError, LimitReason, Move, MoveInputError, Position,
    Ruleset, Variant, Warning,
};
/// The engine's eval and judgement types, as stored analyses ([`GameAnalysis`]) give them.
pub use makruk_engine::analysis::{Eval, Judgement};
pub use puzzles::{
    DailyChange, DailyPost, DailyProgress, DailySettings, PuzzleEnd, PuzzleStats, PuzzleView,
    SolveOutcome,
};
pub use queries::GameRecord;
pub use ratings::{
    BestWin, Leaderboard, LeaderboardEntry, PlayerStats, RecentResult, RecomputeReport, Record,
    LEADERBOARD_PAGE, RECENT_RESULTS,
};
pub(crate) use text::role_key;
pub use text::{reminder_text, rules_label, ruleset_name, time_control_name, variant_name};
pub use threads::{GuildSettings, Place, Thread};

use crate::clock::{SystemTimeSource, TimeSource};
use crate::i18n::Locale;
use crate::store::{Store, StoreOptions};
use announce::Announcer;
use cache::GameCache;
use clocks::ClockTasks;
use computer::TurnQueue;
use leader::Leader;

/// How long a challenge stays open by default: 10 minutes, in seconds.
pub const DEFAULT_CHALLENGE_TTL_SECS: i64 = 600;

/// The most moves [`GameService::legal_moves_san`] returns (Discord's autocomplete limit).
pub const MAX_SUGGESTIONS: usize = 25;

/// The game service. Cheap to clone (holds the database connections, the time source, the
/// cache of replayed games and the clocks' scheduler, shared by the clones).
#[derive(Clone)]
pub struct GameService {
    store: Store,
    cache: Arc<GameCache>,
    time: Arc<dyn TimeSource>,
    challenge_ttl_secs: i64,
    announcer: Arc<Announcer>,
    /// The computer's turns, handed out after each commit that leaves it to move.
    turns: Arc<TurnQueue>,
    /// Answers draw offers to the computer (none: it declines them).
    judge: Option<Arc<dyn DrawJudge>>,
    clocks: Arc<ClockTasks>,
    /// The leader lease: holder id, renewal task, the sweep's memory.
    leader: Arc<Leader>,
    /// The servers' locales already stored.
    locales: Arc<threads::LocaleMemo>,
    /// The locales of channels outside a server already stored.
    channel_locales: Arc<threads::LocaleMemo>,
}

impl std::fmt::Debug for GameService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameService")
            .field("challenge_ttl_secs", &self.challenge_ttl_secs)
            .finish_non_exhaustive()
    }
}

impl GameService {
    /// Opens (creating if missing) the database at `database_url` (e.g. `sqlite://bot.db`,
    /// `sqlite::memory:` or `postgres://user@host/db`) with the default connection settings and
    /// applies its migrations (see [`Store::open_with`]).
    ///
    /// # Errors
    /// When the database cannot be opened or migrated.
    pub async fn open(database_url: &str) -> anyhow::Result<GameService> {
        GameService::open_with(database_url, StoreOptions::default()).await
    }

    /// [`GameService::open`] with connection settings (pool size, statement timeout).
    ///
    /// # Errors
    /// When the database cannot be opened or migrated.
    pub async fn open_with(
        database_url: &str,
        options: StoreOptions,
    ) -> anyhow::Result<GameService> {
        let store = Store::open_with(database_url, options).await?;
        Ok(GameService {
            store,
            cache: Arc::default(),
            time: Arc::new(SystemTimeSource),
            challenge_ttl_secs: DEFAULT_CHALLENGE_TTL_SECS,
            announcer: Arc::default(),
            turns: Arc::default(),
            judge: None,
            clocks: Arc::default(),
            leader: Arc::default(),
            locales: Arc::default(),
            channel_locales: Arc::default(),
        })
    }

    /// The same service on another time source (tests and the simulator: a
    /// [`crate::clock::FakeTime`], moved by hand). Call it before
    /// [`GameService::start_clocks`].
    #[must_use]
    pub fn with_time(mut self, time: Arc<dyn TimeSource>) -> GameService {
        self.time = time;
        self
    }

    /// The service's time source.
    #[must_use]
    pub fn time(&self) -> &Arc<dyn TimeSource> {
        &self.time
    }

    /// The same service with challenges open for `secs` seconds instead of 10 minutes.
    #[must_use]
    pub fn with_challenge_ttl(mut self, secs: i64) -> GameService {
        self.challenge_ttl_secs = secs;
        self
    }

    /// The store under the service (for tests and tools).
    #[must_use]
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Stops the leader lease's renewals (giving the lease up), the clocks' scheduler and
    /// heartbeat, then closes the database connections (waits for running requests).
    pub async fn close(&self) {
        self.stop_leader().await;
        self.stop_clocks().await;
        self.store.close().await;
    }

    /// The current Unix time in seconds (rows' and challenges' times).
    fn now(&self) -> i64 {
        self.now_ms().div_euclid(1000)
    }

    /// The current Unix time in milliseconds (the clocks).
    pub fn now_ms(&self) -> i64 {
        self.time.now_ms()
    }
}

impl Reply {
    /// The status in `locale`: what happened (e.g. "White played Sd2."), whose turn, check,
    /// the count ("Black counts 11 of 16."), warnings, offers, and the end with its reason.
    /// Users are written by `user` (the Discord adapter: mentions).
    #[must_use]
    pub fn text(&self, locale: Locale, user: UserName<'_>) -> String {
        text::reply_text(self, locale, user)
    }
}

impl ChallengeView {
    /// The challenge in `locale`: who challenges whom, ruleset, colour, how to answer, or
    /// what became of it. Users are written by `user` (the Discord adapter: mentions).
    #[must_use]
    pub fn text(&self, locale: Locale, user: UserName<'_>) -> String {
        text::challenge_text(self, locale, user)
    }
}
