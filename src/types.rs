//! Plain request/answer types of the game service: ids, challenge and game views.
//! No Discord types here: the adapter converts its own ids into these. The store decodes its
//! rows into these enums (see `crate::store`), so the service never reads a stored string.

use makruk::{Color, CountInfo, Move, Position, Ruleset, Variant, Warning};

use crate::clock::{ClockStatus, TimeControl};

/// A legal move offered by `/move`'s autocomplete, in both notations (the service's
/// `legal_move_choices`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveChoice {
    /// SAN, Fairy-Stockfish form (`Nd2`): the value sent back when it is picked.
    pub san: String,
    /// Thai SAN (`ม-ง๒`, Fairy-Stockfish `NOTATION_THAI_SAN`).
    pub thai: String,
}

impl MoveChoice {
    /// The move as Thai readers are shown it: Thai notation with the SAN beside it
    /// (`ม-ง๒ (Nd2)`), or once where both are the same (a UCI fallback).
    #[must_use]
    pub fn thai_with_san(&self) -> String {
        if self.thai == self.san {
            self.san.clone()
        } else {
            format!("{} ({})", self.thai, self.san)
        }
    }
}

/// A user (a Discord user id / snowflake, or any other platform's numeric id).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UserId(pub u64);

/// A channel (a Discord channel or thread id). At most one game is active per channel.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChannelId(pub u64);

/// A server (a Discord guild id). Ratings and leaderboards are per server.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GuildId(pub u64);

/// Where a challenge is made and whether its game is to be rated: a game counts for the
/// ratings only on a server (see `crate::rating` for the rest).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Ladder {
    /// The server; `None`: outside any server (never rated).
    pub guild: Option<GuildId>,
    /// The players asked for a rated game (`/challenge rated:`, default true).
    pub rated: bool,
}

/// One player's rating after a rated game, as shown (`1512 (+12)`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RatingChange {
    /// The new rating, rounded.
    pub rating: i64,
    /// The new rounded rating minus the old rounded one.
    pub change: i64,
    /// Still provisional (RD above 110): shown with `?`.
    pub provisional: bool,
}

/// Both players' ratings after a rated game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameRatings {
    pub white: RatingChange,
    pub black: RatingChange,
}

/// A stored game (database row id).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(pub i64);

/// A stored challenge (database row id).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChallengeId(pub i64);

/// How a text writes a user, chosen by whoever shows the text (the Discord adapter writes a
/// mention `<@id>`; a test or another platform may write a name). The service's texts see users
/// only through it: they never format a user themselves.
pub type UserName<'a> = &'a dyn Fn(UserId) -> String;

/// The colour the challenger asks to play.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum ColorChoice {
    White,
    Black,
    /// Drawn at random when the challenge is accepted.
    #[default]
    Random,
}

impl ColorChoice {
    /// `"white"`, `"black"` or `"random"` (the stored form).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ColorChoice::White => "white",
            ColorChoice::Black => "black",
            ColorChoice::Random => "random",
        }
    }
}

/// Where a challenge stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ChallengeState {
    /// Waiting for the challenged user.
    Open,
    /// Accepted: a game was started from it.
    Accepted,
    Declined,
    /// Taken back by the challenger.
    Withdrawn,
    /// Nobody answered before `expires_at`.
    Expired,
}

impl ChallengeState {
    /// `"open"`, `"accepted"`, `"declined"`, `"withdrawn"` or `"expired"` (the stored form).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ChallengeState::Open => "open",
            ChallengeState::Accepted => "accepted",
            ChallengeState::Declined => "declined",
            ChallengeState::Withdrawn => "withdrawn",
            ChallengeState::Expired => "expired",
        }
    }
}

/// A challenge as the channel should see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeView {
    pub id: ChallengeId,
    pub channel: ChannelId,
    pub challenger: UserId,
    pub opponent: UserId,
    /// The colour the challenger asked for.
    pub color: ColorChoice,
    pub ruleset: Ruleset,
    /// The game of the Makruk family its game is.
    pub variant: Variant,
    /// Unix time, seconds.
    pub created_at: i64,
    /// Unix time, seconds; after it the challenge can no longer be accepted.
    pub expires_at: i64,
    pub state: ChallengeState,
    /// The time control of the game it starts.
    pub time_control: TimeControl,
    /// The server it was made in, and whether its game is to be rated.
    pub ladder: Ladder,
}

/// What a player may propose to the opponent, who accepts or declines it. At most one of each
/// kind stands per game (the side that made it); [`Status::offer`] tells which.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum OfferKind {
    /// A draw by agreement. Lapses when the opponent moves (not a running `traditional`
    /// board's-honour count, which is a standing draw offer of the counting side).
    Draw,
    /// Taking back the requester's last ply (the last ply on the board must be theirs).
    /// Lapses with any move.
    Takeback,
}

impl OfferKind {
    /// Both kinds.
    pub const ALL: [OfferKind; 2] = [OfferKind::Draw, OfferKind::Takeback];

    /// `"draw"` or `"takeback"` (the command's name).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            OfferKind::Draw => "draw",
            OfferKind::Takeback => "takeback",
        }
    }
}

/// What a request did, so the adapter can pick a picture/highlight and the text can say it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// A challenge was accepted: the game starts.
    Started,
    /// A move was played (see [`Reply::san`]).
    Moved,
    Resigned,
    /// A draw was offered or a takeback requested.
    Offered(OfferKind),
    /// The opponent's offer was accepted: the game is drawn, or one ply was taken back.
    OfferAccepted(OfferKind),
    OfferDeclined(OfferKind),
    Aborted,
    /// `traditional`: board's honour counting started by the side to move.
    CountStarted,
    /// `traditional`: board's honour counting stopped by the counting side.
    CountStopped,
    /// Nothing changed: the current state was asked for (`board`).
    Shown,
    /// The side to move's time ran out (see [`EndReason::Timeout`] and its siblings); nobody
    /// asked: the scheduler, or a request arriving after the flag fell.
    TimedOut,
}

/// The result of a finished game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
    /// Aborted before both sides moved: no result.
    Aborted,
}

impl GameResult {
    /// PGN result: `"1-0"`, `"0-1"`, `"1/2-1/2"`, or `"*"` for an aborted game.
    #[must_use]
    pub const fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Aborted => "*",
        }
    }

    /// A win for `color`.
    #[must_use]
    pub const fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

/// Why a game ended: by the rules (from the rules crate's outcome) or by the players.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    Checkmate,
    Resignation,
    /// Both players agreed to a draw.
    Agreement,
    Aborted,
    Stalemate,
    /// The count ran past its limit.
    Counting,
    /// `traditional`: the counting side mated while counting board's honour (a draw).
    CountingSideMated,
    /// The same position the third time.
    Repetition,
    InsufficientMaterial,
    /// Only the two Khun are left.
    KhunVsKhun,
    /// 100 plies without capture or Bia move (`fifty-move`, `material`).
    FiftyMove,
    /// The side to move's time ran out: it loses.
    Timeout,
    /// The side to move's time ran out, but its opponent cannot possibly mate with what it
    /// has left: a draw.
    TimeoutDraw,
    /// A side's time ran out before it made its first move: aborted, no result.
    TimeoutAborted,
}

impl EndReason {
    /// The PGN `Termination` tag (PGN standard, section 9.8.1): `time forfeit` for a flag,
    /// `abandoned` for an aborted game, else `normal` (mate, resignation, the draws).
    #[must_use]
    pub const fn pgn_termination(self) -> &'static str {
        match self {
            EndReason::Timeout | EndReason::TimeoutDraw => "time forfeit",
            EndReason::Aborted | EndReason::TimeoutAborted => "abandoned",
            _ => "normal",
        }
    }

    /// Every reason.
    pub const ALL: [EndReason; 14] = [
        EndReason::Checkmate,
        EndReason::Resignation,
        EndReason::Agreement,
        EndReason::Aborted,
        EndReason::Stalemate,
        EndReason::Counting,
        EndReason::CountingSideMated,
        EndReason::Repetition,
        EndReason::InsufficientMaterial,
        EndReason::KhunVsKhun,
        EndReason::FiftyMove,
        EndReason::Timeout,
        EndReason::TimeoutDraw,
        EndReason::TimeoutAborted,
    ];

    /// A stable lower-case name, used in the database and as a Fluent key suffix.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "agreement",
            EndReason::Aborted => "aborted",
            EndReason::Stalemate => "stalemate",
            EndReason::Counting => "counting",
            EndReason::CountingSideMated => "counting-side-mated",
            EndReason::Repetition => "repetition",
            EndReason::InsufficientMaterial => "insufficient-material",
            EndReason::KhunVsKhun => "khun-vs-khun",
            EndReason::FiftyMove => "fifty-move",
            EndReason::Timeout => "timeout",
            EndReason::TimeoutDraw => "timeout-draw",
            EndReason::TimeoutAborted => "timeout-aborted",
        }
    }
}

/// The computer's seat in a game against it: the side it plays and its level. It plays as the
/// bot's own user (that side's player id is the bot's user id).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ComputerSeat {
    /// The side the computer plays.
    pub side: Color,
    /// Our engine's level, or Fairy-Stockfish.
    pub level: ComputerLevel,
}

/// The strength the computer plays at: our engine's levels 1 to 8 (weakest first), or 9,
/// Fairy-Stockfish (over UCI, ruleset `standard` only). Checked once, where the user's (or the
/// stored) number is read ([`ComputerLevel::new`]); everything after holds a valid level.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ComputerLevel(u8);

/// A number that is not a [`ComputerLevel`] (not 1 to 9).
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("level {0} is not one of 1 to 9")]
pub struct UnknownComputerLevel(pub u8);

impl ComputerLevel {
    /// Our engine's levels, as numbers (the levels of `makruk_engine::Level`).
    pub const ENGINE: std::ops::RangeInclusive<u8> = 1..=8;

    /// Fairy-Stockfish, level 9 (above our engine's).
    pub const FAIRY_STOCKFISH: ComputerLevel = ComputerLevel(9);

    /// The level of `/play` without one: 3.
    pub const DEFAULT: ComputerLevel = ComputerLevel(3);

    /// Level `n`: 1 to 8 our engine, 9 Fairy-Stockfish.
    ///
    /// # Errors
    /// [`UnknownComputerLevel`] for any other number.
    pub const fn new(n: u8) -> Result<ComputerLevel, UnknownComputerLevel> {
        match n {
            1..=9 => Ok(ComputerLevel(n)),
            _ => Err(UnknownComputerLevel(n)),
        }
    }

    /// Every level, weakest first (1 to 9).
    pub fn all() -> impl Iterator<Item = ComputerLevel> {
        (1..=Self::FAIRY_STOCKFISH.0).map(ComputerLevel)
    }

    /// The level's number, 1 to 9 (as stored and shown).
    #[must_use]
    pub const fn number(self) -> u8 {
        self.0
    }

    /// Our engine's level, 1 to 8; `None` for Fairy-Stockfish.
    #[must_use]
    pub const fn engine_level(self) -> Option<u8> {
        if self.0 == Self::FAIRY_STOCKFISH.0 {
            None
        } else {
            Some(self.0)
        }
    }

    /// Whether the computer plays `ruleset` at this level (Fairy-Stockfish: `standard` only).
    #[must_use]
    pub fn plays(self, ruleset: Ruleset) -> bool {
        self.engine_level().is_some() || ruleset == Ruleset::Standard
    }
}

impl Default for ComputerLevel {
    fn default() -> ComputerLevel {
        ComputerLevel::DEFAULT
    }
}

impl TryFrom<u8> for ComputerLevel {
    type Error = UnknownComputerLevel;

    fn try_from(n: u8) -> Result<ComputerLevel, UnknownComputerLevel> {
        ComputerLevel::new(n)
    }
}

/// The terms of a new game, as asked for in `/challenge` or `/play`: the colour, the rules,
/// the variant, the clocks, the server and whether it is rated, and (a challenge) whether its
/// game gets a thread of its own. [`Default`]: a random colour, `standard`, Makruk,
/// [`TimeControl::DEFAULT`] (3 days a move), outside any server (unrated), no thread.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Terms {
    /// The colour the challenger (or the player against the computer) asks for.
    pub color: ColorChoice,
    /// Makruk's ruleset; any other variant takes only [`Ruleset::Standard`] (its own rules,
    /// as Fairy-Stockfish's), else [`crate::game::ServiceError::VariantRuleset`].
    pub ruleset: Ruleset,
    /// The game of the Makruk family to play (issue 25).
    pub variant: Variant,
    pub time_control: TimeControl,
    /// The server and the rating (a game against the computer is never rated).
    pub ladder: Ladder,
    /// A challenge's game is to be played in a thread of its own, opened when it is accepted.
    /// (A game against the computer is given its thread, already opened, in the `Place` of
    /// `GameService::play_computer`; this flag is for challenges.)
    pub thread: bool,
}

/// The end of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameEnd {
    pub result: GameResult,
    pub reason: EndReason,
}

/// The state of a game after a request, as data (the text is [`Reply::text`]).
#[derive(Clone, Debug)]
pub struct Status {
    /// The side to move.
    pub turn: Color,
    /// The player to move.
    pub to_move: UserId,
    /// The player to move is the computer (a game against it, on its turn, not over).
    pub computer_to_move: bool,
    /// The side to move is in check.
    pub check: bool,
    /// Plies played so far.
    pub plies: u32,
    /// The running count (board's or pieces' honour), if any, from `makruk::Game::count`.
    pub count: Option<CountInfo>,
    /// Warnings (count nearly out, 100-ply counter from ply 80, …) from
    /// `makruk::Game::warnings`; empty once the game is over.
    pub warnings: Vec<Warning>,
    /// The side whose draw offer stands, if any.
    pub draw_offer: Option<Color>,
    /// The side whose takeback request stands, if any.
    pub takeback_request: Option<Color>,
    /// Set when the game is over.
    pub end: Option<GameEnd>,
    /// The game's time control.
    pub time_control: TimeControl,
    /// The clock at the time of the answer (for a finished game: as it stood at the end).
    pub clock: ClockStatus,
}

impl Status {
    /// The side whose offer of `kind` stands, if any.
    #[must_use]
    pub const fn offer(&self, kind: OfferKind) -> Option<Color> {
        match kind {
            OfferKind::Draw => self.draw_offer,
            OfferKind::Takeback => self.takeback_request,
        }
    }
}

/// What the channel should see after a request on a game.
#[derive(Clone, Debug)]
pub struct Reply {
    pub game_id: GameId,
    /// What this request did.
    pub event: Event,
    /// Who made the request (the mover, the resigner, …).
    pub actor: Option<UserId>,
    pub ruleset: Ruleset,
    pub white: UserId,
    pub black: UserId,
    /// The position now (for the board picture).
    pub position: Position,
    /// The last move on the board now (for highlights); `None` before the first move.
    pub last_move: Option<Move>,
    /// The SAN of the move this request played (Fairy-Stockfish form), if it played one.
    pub san: Option<String>,
    /// The same move in Thai SAN (`ม-ง๒`, Fairy-Stockfish `NOTATION_THAI_SAN`; docs/RULES.md
    /// "Notation"), which Thai messages show first.
    pub thai_san: Option<String>,
    pub status: Status,
    /// Set in the answer to the request that ended a rated game: both players' new ratings.
    pub ratings: Option<GameRatings>,
}

/// A finished game in a channel's history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    pub id: GameId,
    pub white: UserId,
    pub black: UserId,
    pub ruleset: Ruleset,
    pub variant: Variant,
    pub time_control: TimeControl,
    pub result: GameResult,
    pub reason: EndReason,
    /// Plies played.
    pub plies: u32,
    /// Unix time, seconds.
    pub started_at: i64,
    /// Unix time, seconds.
    pub finished_at: i64,
}

/// A PGN export of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnExport {
    pub game_id: GameId,
    /// pychess-importable PGN.
    pub pgn: String,
    /// pychess analysis link of the game's current (or final) position.
    pub analysis_url: String,
}

/// A topic of the rules explanation (`/rules`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RulesTopic {
    Overview,
    Pieces,
    Promotion,
    Counting,
    Draws,
    /// Clocks: time controls, increments, the reminder, flags, takebacks, downtime.
    Time,
}

impl RulesTopic {
    /// All topics, in the order of a full explanation.
    pub const ALL: [RulesTopic; 6] = [
        RulesTopic::Overview,
        RulesTopic::Pieces,
        RulesTopic::Promotion,
        RulesTopic::Counting,
        RulesTopic::Draws,
        RulesTopic::Time,
    ];

    /// `"overview"`, `"pieces"`, `"promotion"`, `"counting"`, `"draws"`, `"time"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            RulesTopic::Overview => "overview",
            RulesTopic::Pieces => "pieces",
            RulesTopic::Promotion => "promotion",
            RulesTopic::Counting => "counting",
            RulesTopic::Draws => "draws",
            RulesTopic::Time => "time",
        }
    }
}

/// A stored tournament (database row id).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TournamentId(pub i64);

/// How a tournament pairs its players (issue 26).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TournamentFormat {
    /// The FIDE Dutch system (C.04.3): a fixed number of rounds, each paired when the last
    /// game of the one before ends.
    Swiss,
    /// Everyone meets everyone once, by the FIDE Berger tables (C.05 Annex 1).
    RoundRobin,
    /// Lichess's arena: a fixed duration, players paired as soon as they are free, points
    /// with win streaks.
    Arena,
}

/// Where a tournament stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TournamentState {
    /// Taking players; not started.
    Open,
    /// Rounds being played.
    Running,
    /// Every round played: the standings are final.
    Finished,
    /// Called off before its end.
    Cancelled,
}

/// The result of one pairing of a tournament, from White's side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PairingResult {
    /// White won the game (`1-0`).
    WhiteWins,
    /// Black won the game (`0-1`).
    BlackWins,
    /// A draw (`1/2-1/2`).
    Draw,
    /// Black did not play: White wins by forfeit (`+-`).
    WhiteForfeitWin,
    /// White did not play: Black wins by forfeit (`-+`).
    BlackForfeitWin,
    /// Neither played (`--`): both lose by forfeit.
    DoubleForfeit,
    /// The pairing-allocated bye (no opponent): a win (FIDE C.04.1).
    Bye,
}
