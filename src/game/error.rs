//! [`ServiceError`]: what can go wrong with a request. User errors get a short friendly,
//! localised message (ephemeral in Discord; written by the text layer, `text.rs`, from the
//! variant's [`ServiceError::name`]); internal errors are logged and get an apology.

use crate::clock::{Kind, UnknownTimeControl};
use crate::types::{ChallengeId, GameId, OfferKind, UnknownComputerLevel, UserId};
use makruk::{CountRequestError, MoveInputError};

/// The longest move text the service reads, in characters (the rules crate's limit; the
/// longest real move text is about a dozen). Longer input is refused before the database is
/// touched.
pub const MAX_INPUT_LEN: usize = makruk::MAX_MOVE_INPUT_CHARS;

/// Why a request was refused (user errors) or failed (internal errors).
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// No game is being played in this channel (and none finished here yet).
    #[error("no game in this channel")]
    NoGameHere,
    /// The channel's last game is over; nothing can be played in it.
    #[error("the game is over")]
    GameOver(GameId),
    /// The channel's last game ended on time (perhaps just now, instead of this request:
    /// the side to move's flag had fallen).
    #[error("the game is over: time ran out")]
    TimedOut(GameId),
    /// The `time` option is not one of [`crate::clock::TimeControl::CHOICES`].
    #[error("{0}")]
    UnknownTimeControl(UnknownTimeControl),
    /// The requester is not one of the two players.
    #[error("not a player of this game")]
    NotAPlayer,
    /// It is the other player's turn.
    #[error("not your turn")]
    NotYourTurn,
    /// A game is already being played in this channel.
    #[error("a game is already being played in this channel")]
    ChannelBusy(GameId),
    /// A challenge is already open in this channel.
    #[error("a challenge is already open in this channel")]
    ChallengePending(ChallengeId),
    /// One cannot challenge oneself.
    #[error("cannot challenge yourself")]
    ChallengeSelf,
    /// Bots (including this one) cannot be challenged.
    #[error("cannot challenge a bot")]
    ChallengeBot,
    /// No open challenge (with that id) in this channel.
    #[error("no open challenge")]
    NoChallenge,
    /// Only the challenged user may accept or decline; only the challenger may withdraw.
    #[error("not your challenge")]
    NotYourChallenge {
        challenger: UserId,
        opponent: UserId,
    },
    /// The challenge was not answered in time.
    #[error("the challenge has expired")]
    ChallengeExpired,
    /// The move text is longer than [`MAX_INPUT_LEN`] characters.
    #[error("input too long")]
    InputTooLong,
    /// The rules crate could not read the move or the move is illegal (with why).
    #[error("bad move: {0}")]
    BadMove(MoveInputError),
    /// No draw offer / takeback request from the opponent stands.
    #[error("no {} offer from the opponent", .0.name())]
    NoOffer(OfferKind),
    /// The requester's own draw offer / takeback request already stands.
    #[error("{} already offered", .0.name())]
    AlreadyOffered(OfferKind),
    /// The requester has no move of their own on the board to take back (the last ply must be theirs).
    #[error("nothing to take back")]
    NothingToTakeBack,
    /// Both sides have moved: the game can only be resigned or drawn now.
    #[error("too late to abort")]
    TooLateToAbort,
    /// Berserk is for a player of a running arena's game, once.
    #[error("no berserk here")]
    NoBerserk,
    /// Berserk comes before one's first move.
    #[error("too late to berserk")]
    TooLateToBerserk,
    /// A tournament's game cannot be aborted (its result counts): resign or offer a draw.
    #[error("a tournament game cannot be aborted")]
    TournamentGame,
    /// Count start/stop is only for the `traditional` ruleset.
    #[error("counting on request is only in the traditional ruleset")]
    NotTraditional,
    /// Only the player who started the count can stop it.
    #[error("not your count")]
    NotYourCount,
    /// The rules refuse this count start/stop now (with why).
    #[error("count request refused: {0}")]
    Count(CountRequestError),
    /// No such game (PGN export of an unknown id, or of another channel's game).
    #[error("no such game")]
    GameNotFound,
    /// The game is still being played: it is analysed once it is over (an analysis during
    /// the game would help a player).
    #[error("the game is not over")]
    GameNotOver(GameId),
    /// The game ended before its first move: there is nothing to analyse.
    #[error("the game has no moves")]
    NothingToAnalyse(GameId),
    /// A computer game's level is not one of 1 to 9.
    #[error("{0}")]
    ComputerLevel(#[from] UnknownComputerLevel),
    /// A ruleset other than `standard` was asked for in a variant other than Makruk (the
    /// rulesets are Makruk's; the other variants count and draw by their own rules).
    #[error("the rulesets apply to Makruk only")]
    VariantRuleset,
    /// Level 9 (Fairy-Stockfish) plays the `standard` ruleset only.
    #[error("Fairy-Stockfish plays only the standard rules")]
    FairyStockfishRules,
    /// Level 9 was asked for, but Fairy-Stockfish is not installed on this host.
    #[error("Fairy-Stockfish is not installed")]
    FairyStockfishMissing,
    /// The computer's move was for a version of the game that is no longer current (the game
    /// changed or ended meanwhile); nothing was written.
    #[error("the game changed since the computer started thinking")]
    Stale,
    /// Nobody has a rated game on this server at this speed.
    #[error("no rated games on this server")]
    LeaderboardEmpty(makruk::Variant, Kind),
    /// This user has no rated game on this server (at the speed asked for).
    #[error("no rated games")]
    NoRatedGames(UserId, makruk::Variant),
    /// The user has no puzzle in progress in this channel (and it has no daily puzzle today).
    #[error("no puzzle in progress here")]
    NoPuzzle,
    /// The puzzle's buttons belong to another user.
    #[error("not your puzzle")]
    NotYourPuzzle,
    /// The puzzle is solved or failed already.
    #[error("the puzzle is over")]
    PuzzleOver,
    /// A vote is for a puzzle that is over.
    #[error("the puzzle is not over")]
    PuzzleNotOver,
    /// The user has tried today's daily puzzle already.
    #[error("today's daily puzzle was tried already")]
    DailyDone,
    /// The user's puzzle in progress here is the daily puzzle (answer it, or ask for its
    /// solution, before another).
    #[error("the daily puzzle is in progress")]
    DailyInProgress,
    /// No puzzle is stored (of the theme asked for).
    #[error("no puzzle")]
    NoPuzzles,
    /// The theme is not one of `crate::puzzles::THEMES`.
    #[error("unknown puzzle theme")]
    UnknownPuzzleTheme,
    /// Another request on the same game was applied at the same moment; this one was not.
    #[error("another request changed the game at the same moment")]
    Conflict,
    /// Anything else: database trouble, corrupt stored game, bugs. Logged, not shown.
    #[error("internal error: {0:#}")]
    Internal(#[from] anyhow::Error),
}

impl From<sqlx::Error> for ServiceError {
    /// A deadlock or serialization failure PostgreSQL reports ([`crate::store::is_retryable`])
    /// is a [`ServiceError::Conflict`]: nothing was written, and the request may be tried again
    /// on the new state. Every other database error is internal.
    fn from(e: sqlx::Error) -> ServiceError {
        if crate::store::is_retryable(&e) {
            tracing::debug!(error = %e, "a conflict the database found");
            return ServiceError::Conflict;
        }
        ServiceError::Internal(e.into())
    }
}

impl ServiceError {
    /// True for errors caused by the request (shown to the user); false for [`ServiceError::Internal`].
    #[must_use]
    pub fn is_user_error(&self) -> bool {
        !matches!(self, ServiceError::Internal(_))
    }

    /// A stable lower-case name of the variant (the Fluent key is `error-<name>`).
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            ServiceError::NoGameHere => "no-game-here",
            ServiceError::GameOver(_) => "game-over",
            ServiceError::TimedOut(_) => "timed-out",
            ServiceError::UnknownTimeControl(_) => "unknown-time-control",
            ServiceError::NotAPlayer => "not-a-player",
            ServiceError::NotYourTurn => "not-your-turn",
            ServiceError::ChannelBusy(_) => "channel-busy",
            ServiceError::ChallengePending(_) => "challenge-pending",
            ServiceError::ChallengeSelf => "challenge-self",
            ServiceError::ChallengeBot => "challenge-bot",
            ServiceError::NoChallenge => "no-challenge",
            ServiceError::NotYourChallenge { .. } => "not-your-challenge",
            ServiceError::ChallengeExpired => "challenge-expired",
            ServiceError::InputTooLong => "input-too-long",
            ServiceError::BadMove(_) => "bad-move",
            ServiceError::NoOffer(OfferKind::Draw) => "no-draw-offer",
            ServiceError::NoOffer(OfferKind::Takeback) => "no-takeback-request",
            ServiceError::AlreadyOffered(OfferKind::Draw) => "draw-already-offered",
            ServiceError::AlreadyOffered(OfferKind::Takeback) => "takeback-already-requested",
            ServiceError::NothingToTakeBack => "nothing-to-take-back",
            ServiceError::TooLateToAbort => "too-late-to-abort",
            ServiceError::TournamentGame => "tournament-game",
            ServiceError::NoBerserk => "no-berserk",
            ServiceError::TooLateToBerserk => "too-late-to-berserk",
            ServiceError::NotTraditional => "not-traditional",
            ServiceError::NotYourCount => "not-your-count",
            ServiceError::Count(_) => "count",
            ServiceError::GameNotFound => "game-not-found",
            ServiceError::GameNotOver(_) => "game-not-over",
            ServiceError::NothingToAnalyse(_) => "nothing-to-analyse",
            ServiceError::ComputerLevel(_) => "computer-level",
            ServiceError::FairyStockfishRules => "fairy-stockfish-rules",
            ServiceError::VariantRuleset => "variant-ruleset",
            ServiceError::FairyStockfishMissing => "fairy-stockfish-missing",
            ServiceError::Stale => "stale",
            ServiceError::LeaderboardEmpty(..) => "leaderboard-empty",
            ServiceError::NoRatedGames(..) => "no-rated-games",
            ServiceError::NoPuzzle => "no-puzzle",
            ServiceError::NotYourPuzzle => "not-your-puzzle",
            ServiceError::PuzzleOver => "puzzle-over",
            ServiceError::PuzzleNotOver => "puzzle-not-over",
            ServiceError::DailyDone => "daily-done",
            ServiceError::DailyInProgress => "daily-in-progress",
            ServiceError::NoPuzzles => "no-puzzles",
            ServiceError::UnknownPuzzleTheme => "unknown-puzzle-theme",
            ServiceError::Conflict => "conflict",
            ServiceError::Internal(_) => "internal",
        }
    }
}
