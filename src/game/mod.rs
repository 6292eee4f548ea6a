//! The game service: challenges, moves, offers, counting, explanations; one transaction per request.
//!
//! Plain Rust types only (no Discord types): the adapter in `crate::discord` turns commands into
//! calls on [`GameService`] and its answers ([`Reply`], [`ChallengeView`], [`ServiceError`]) into
//! messages. Every request that changes a game runs in one database transaction and bumps the
//! game's `version`; a request that loses a race gets [`ServiceError::Conflict`] and changes nothing.
//!
//! Times are Unix seconds from the service's clock ([`GameService::with_clock`] for tests).

mod error;
mod rules;
mod text;
mod types;

use std::sync::Arc;

pub use error::{ServiceError, MAX_INPUT_LEN};
pub use makruk::{Color, Move};
pub use rules::{CountRequestError, LimitReason, MoveInputError, Position, Ruleset};
pub use types::{
    ChallengeId, ChallengeState, ChallengeView, ChannelId, ColorChoice, CountKind, CountStatus,
    EndReason, Event, GameEnd, GameId, GameResult, GameSummary, Locale, PgnExport, Reply,
    RulesTopic, Status, StatusWarning, UserId,
};

use crate::store::Store;

/// How long a challenge stays open by default: 10 minutes, in seconds.
pub const DEFAULT_CHALLENGE_TTL_SECS: i64 = 600;

/// A source of the current Unix time in seconds.
pub type Clock = Arc<dyn Fn() -> i64 + Send + Sync>;

/// The game service. Cheap to clone (holds the connection pool and the clock).
#[derive(Clone)]
pub struct GameService {
    store: Store,
    clock: Clock,
    challenge_ttl_secs: i64,
}

impl std::fmt::Debug for GameService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameService")
            .field("challenge_ttl_secs", &self.challenge_ttl_secs)
            .finish_non_exhaustive()
    }
}

fn system_clock() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

fn not_yet() -> ServiceError {
    ServiceError::Internal(anyhow::anyhow!("not implemented yet"))
}

impl GameService {
    /// Opens (creating if missing) the database at `database_url` (e.g. `sqlite://bot.db` or
    /// `sqlite::memory:`), switches SQLite to WAL, and applies the migrations in `migrations/`.
    ///
    /// # Errors
    /// When the database cannot be opened or migrated.
    pub async fn open(database_url: &str) -> anyhow::Result<GameService> {
        let store = Store::open(database_url).await?;
        Ok(GameService {
            store,
            clock: Arc::new(system_clock),
            challenge_ttl_secs: DEFAULT_CHALLENGE_TTL_SECS,
        })
    }

    /// The same service with another clock (tests: expiry without waiting).
    #[must_use]
    pub fn with_clock(mut self, clock: Clock) -> GameService {
        self.clock = clock;
        self
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

    /// Closes the connection pool (waits for running requests).
    pub async fn close(&self) {
        self.store.close().await;
    }

    fn now(&self) -> i64 {
        (self.clock)()
    }

    /// `challenger` challenges `opponent` in `channel`, asking for `color`, under `ruleset`.
    /// The challenge expires after 10 minutes (see [`GameService::with_challenge_ttl`]).
    ///
    /// # Errors
    /// [`ServiceError::ChallengeSelf`], [`ServiceError::ChallengeBot`] (`opponent_is_bot`),
    /// [`ServiceError::ChannelBusy`] (a game is being played here),
    /// [`ServiceError::ChallengePending`] (another challenge is open here), `Internal`.
    pub async fn challenge(
        &self,
        channel: ChannelId,
        challenger: UserId,
        opponent: UserId,
        opponent_is_bot: bool,
        color: ColorChoice,
        ruleset: Ruleset,
    ) -> Result<ChallengeView, ServiceError> {
        let _ = (
            channel,
            challenger,
            opponent,
            opponent_is_bot,
            color,
            ruleset,
        );
        let _ = self.now();
        Err(not_yet())
    }

    /// The open challenge of `channel`, if any (expired ones are not returned).
    ///
    /// # Errors
    /// `Internal` only.
    pub async fn open_challenge(
        &self,
        channel: ChannelId,
    ) -> Result<Option<ChallengeView>, ServiceError> {
        let _ = channel;
        Err(not_yet())
    }

    /// `user` accepts the open challenge of `channel` (the one with id `challenge`, if given,
    /// e.g. from a button): the game starts, colours are assigned.
    ///
    /// # Errors
    /// [`ServiceError::NoChallenge`], [`ServiceError::NotYourChallenge`] (only the challenged user
    /// may accept), [`ServiceError::ChallengeExpired`], [`ServiceError::ChannelBusy`], `Conflict`.
    pub async fn accept(
        &self,
        channel: ChannelId,
        user: UserId,
        challenge: Option<ChallengeId>,
    ) -> Result<Reply, ServiceError> {
        let _ = (channel, user, challenge);
        Err(not_yet())
    }

    /// `user` declines the open challenge (only the challenged user may).
    ///
    /// # Errors
    /// [`ServiceError::NoChallenge`], [`ServiceError::NotYourChallenge`], `Conflict`.
    pub async fn decline(
        &self,
        channel: ChannelId,
        user: UserId,
        challenge: Option<ChallengeId>,
    ) -> Result<ChallengeView, ServiceError> {
        let _ = (channel, user, challenge);
        Err(not_yet())
    }

    /// The challenger withdraws their open challenge in `channel`.
    ///
    /// # Errors
    /// [`ServiceError::NoChallenge`], [`ServiceError::NotYourChallenge`], `Conflict`.
    pub async fn withdraw(
        &self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<ChallengeView, ServiceError> {
        let _ = (channel, user);
        Err(not_yet())
    }

    /// `user` plays `input` (any notation the rules crate reads: SAN, PlayOK, Thai, UCI) in the
    /// channel's game. Ends the game when the rules say it is over; a standing draw offer of the
    /// other side lapses; a standing takeback request lapses.
    ///
    /// # Errors
    /// [`ServiceError::NoGameHere`] / [`ServiceError::GameOver`], [`ServiceError::NotAPlayer`],
    /// [`ServiceError::NotYourTurn`], [`ServiceError::InputTooLong`], [`ServiceError::BadMove`],
    /// [`ServiceError::Conflict`].
    pub async fn play(
        &self,
        channel: ChannelId,
        user: UserId,
        input: &str,
    ) -> Result<Reply, ServiceError> {
        let _ = (channel, user, input);
        Err(not_yet())
    }

    /// `user` resigns: the opponent wins.
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, `Conflict`.
    pub async fn resign(&self, channel: ChannelId, user: UserId) -> Result<Reply, ServiceError> {
        let _ = (channel, user);
        Err(not_yet())
    }

    /// `user` offers a draw (either player, at any time). If the opponent's offer stands, this
    /// accepts it. The offer lapses when the opponent moves.
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, [`ServiceError::DrawAlreadyOffered`], `Conflict`.
    pub async fn offer_draw(
        &self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<Reply, ServiceError> {
        let _ = (channel, user);
        Err(not_yet())
    }

    /// `user` accepts the opponent's standing draw offer: the game is drawn by agreement.
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, [`ServiceError::NoDrawOffer`], `Conflict`.
    pub async fn accept_draw(
        &self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<Reply, ServiceError> {
        let _ = (channel, user);
        Err(not_yet())
    }

    /// `user` declines the opponent's standing draw offer.
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, [`ServiceError::NoDrawOffer`], `Conflict`.
    pub async fn decline_draw(
        &self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<Reply, ServiceError> {
        let _ = (channel, user);
        Err(not_yet())
    }

    /// `user` asks to take back their last move (one ply: the last ply must be theirs).
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, [`ServiceError::NothingToTakeBack`],
    /// [`ServiceError::TakebackAlreadyRequested`], `Conflict`.
    pub async fn request_takeback(
        &self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<Reply, ServiceError> {
        let _ = (channel, user);
        Err(not_yet())
    }

    /// `user` agrees to the opponent's takeback request: the last ply is undone.
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, [`ServiceError::NoTakebackRequest`], `Conflict`.
    pub async fn accept_takeback(
        &self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<Reply, ServiceError> {
        let _ = (channel, user);
        Err(not_yet())
    }

    /// `user` refuses the opponent's takeback request.
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, [`ServiceError::NoTakebackRequest`], `Conflict`.
    pub async fn decline_takeback(
        &self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<Reply, ServiceError> {
        let _ = (channel, user);
        Err(not_yet())
    }

    /// `user` aborts the game; allowed only before both sides have moved. No result.
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, [`ServiceError::TooLateToAbort`], `Conflict`.
    pub async fn abort(&self, channel: ChannelId, user: UserId) -> Result<Reply, ServiceError> {
        let _ = (channel, user);
        Err(not_yet())
    }

    /// `traditional`: the player to move starts counting board's honour (RULES.md).
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, `NotYourTurn`, [`ServiceError::NotTraditional`],
    /// [`ServiceError::Count`] (the rules refuse it now), `Conflict`.
    pub async fn count_start(
        &self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<Reply, ServiceError> {
        let _ = (channel, user);
        Err(not_yet())
    }

    /// `traditional`: the counting player stops their board's-honour count.
    ///
    /// # Errors
    /// As [`GameService::count_start`].
    pub async fn count_stop(
        &self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<Reply, ServiceError> {
        let _ = (channel, user);
        Err(not_yet())
    }

    /// The channel's game as it stands (event [`Event::Shown`]). If no game is active, the
    /// channel's last finished game.
    ///
    /// # Errors
    /// [`ServiceError::NoGameHere`], `Internal`.
    pub async fn board(&self, channel: ChannelId) -> Result<Reply, ServiceError> {
        let _ = channel;
        Err(not_yet())
    }

    /// Legal moves in SAN for autocomplete: only for the player to move, those starting with
    /// `prefix` (case-insensitive), checks and captures first, at most 25. Empty on any error.
    pub async fn legal_moves_san(
        &self,
        channel: ChannelId,
        user: UserId,
        prefix: &str,
    ) -> Vec<String> {
        let _ = (channel, user, prefix);
        Vec::new()
    }

    /// The running count of the channel's game explained in sentences: who counts, why from that
    /// number, why that limit, how many moves remain (or why no count runs).
    ///
    /// # Errors
    /// [`ServiceError::NoGameHere`], `Internal`.
    pub async fn explain_count(
        &self,
        channel: ChannelId,
        locale: Locale,
    ) -> Result<String, ServiceError> {
        let _ = (channel, locale);
        Err(not_yet())
    }

    /// The rules of `ruleset` on `topic`, in `locale` (Markdown, from `i18n/*/rules.ftl`).
    #[must_use]
    pub fn rules_text(&self, ruleset: Ruleset, topic: RulesTopic, locale: Locale) -> String {
        text::rules_text(ruleset, topic, locale)
    }

    /// The last `limit` finished games of `channel`, newest first.
    ///
    /// # Errors
    /// `Internal` only.
    pub async fn recent_games(
        &self,
        channel: ChannelId,
        limit: u32,
    ) -> Result<Vec<GameSummary>, ServiceError> {
        let _ = (channel, limit);
        Err(not_yet())
    }

    /// PGN (pychess form) and analysis link of game `game` of `channel`, or of the channel's
    /// current (else last) game when `game` is `None`.
    ///
    /// # Errors
    /// [`ServiceError::NoGameHere`], [`ServiceError::GameNotFound`], `Internal`.
    pub async fn pgn(
        &self,
        channel: ChannelId,
        game: Option<GameId>,
    ) -> Result<PgnExport, ServiceError> {
        let _ = (channel, game);
        Err(not_yet())
    }
}

impl Reply {
    /// The status in `locale`: what happened (e.g. "White played Sd2."), whose turn, check,
    /// the count ("Black counts 11 of 16."), warnings, offers, and the end with its reason.
    #[must_use]
    pub fn text(&self, locale: Locale) -> String {
        text::reply_text(self, locale)
    }
}

impl ChallengeView {
    /// The challenge in `locale`, e.g. "<@1> challenges <@2> (standard, <@1> plays White)…".
    /// Users are written as Discord mentions `<@id>`.
    #[must_use]
    pub fn text(&self, locale: Locale) -> String {
        text::challenge_text(self, locale)
    }
}
