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
//! Times are Unix seconds from the service's clock ([`GameService::with_clock`] for tests).

mod cache;
mod error;
mod text;
mod types;

use std::sync::Arc;

pub use error::{ServiceError, MAX_INPUT_LEN};
/// Rules-crate types that appear in this API, re-exported for the adapter's convenience.
pub use makruk::{
    Color, CountInfo, CountKind, CountRequestError, LimitReason, Move, MoveInputError, Position,
    Ruleset, Warning,
};
pub use types::{
    ChallengeId, ChallengeState, ChallengeView, ChannelId, ColorChoice, EndReason, Event, GameEnd,
    GameId, GameResult, GameSummary, Locale, PgnExport, Reply, RulesTopic, Status, UserId,
};

use anyhow::{anyhow, bail, Context as _};
use makruk::{CountAction, DrawReason, Game, Outcome, WinReason};

use crate::store::{
    self, from_db_id, to_db_id, ChallengeRow, CountEventRow, GameRow, MoveRow, Store, Tx,
};
use cache::GameCache;
use sqlx::SqliteConnection;

/// How long a challenge stays open by default: 10 minutes, in seconds.
pub const DEFAULT_CHALLENGE_TTL_SECS: i64 = 600;

/// How often a request on a game is tried when another request changed the game meanwhile.
const MAX_ATTEMPTS: usize = 3;

/// The most moves [`GameService::legal_moves_san`] returns (Discord's autocomplete limit).
pub const MAX_SUGGESTIONS: usize = 25;

/// A source of the current Unix time in seconds.
pub type Clock = Arc<dyn Fn() -> i64 + Send + Sync>;

/// The game service. Cheap to clone (holds the database connections, the clock and the cache of
/// replayed games, shared by the clones).
#[derive(Clone)]
pub struct GameService {
    store: Store,
    cache: Arc<GameCache>,
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

/// A game read from the store and replayed.
struct Loaded {
    row: GameRow,
    m: Game,
    /// Moves and count events as stored when read (to write only the difference).
    stored_moves: usize,
    stored_events: usize,
}

fn parse_color(s: Option<&str>) -> Option<Color> {
    match s {
        Some("white") => Some(Color::White),
        Some("black") => Some(Color::Black),
        _ => None,
    }
}

fn parse_ruleset(s: &str) -> Result<Ruleset, ServiceError> {
    s.parse::<Ruleset>()
        .map_err(|_| ServiceError::Internal(anyhow!("stored ruleset {s:?}")))
}

fn parse_result(s: &str) -> Option<GameResult> {
    match s {
        "1-0" => Some(GameResult::WhiteWins),
        "0-1" => Some(GameResult::BlackWins),
        "1/2-1/2" => Some(GameResult::Draw),
        "*" => Some(GameResult::Aborted),
        _ => None,
    }
}

fn parse_end_reason(s: &str) -> Option<EndReason> {
    EndReason::ALL.into_iter().find(|r| r.name() == s)
}

fn game_end(row: &GameRow) -> Option<GameEnd> {
    Some(GameEnd {
        result: parse_result(row.result.as_deref()?)?,
        reason: parse_end_reason(row.end_reason.as_deref()?)?,
    })
}

impl Loaded {
    fn white(&self) -> UserId {
        UserId(from_db_id(self.row.white_id))
    }

    fn black(&self) -> UserId {
        UserId(from_db_id(self.row.black_id))
    }

    fn user_of(&self, c: Color) -> UserId {
        match c {
            Color::White => self.white(),
            Color::Black => self.black(),
        }
    }

    /// The side `user` plays, or [`ServiceError::NotAPlayer`].
    fn side_of(&self, user: UserId) -> Result<Color, ServiceError> {
        let id = to_db_id(user.0);
        if id == self.row.white_id {
            Ok(Color::White)
        } else if id == self.row.black_id {
            Ok(Color::Black)
        } else {
            Err(ServiceError::NotAPlayer)
        }
    }

    fn finish(&mut self, end: GameEnd, now: i64) {
        self.row.state = "finished".into();
        self.row.result = Some(end.result.pgn().into());
        self.row.end_reason = Some(end.reason.name().into());
        self.row.finished_at = Some(now);
        self.row.draw_offer = None;
        self.row.takeback_request = None;
    }

    fn status(&self) -> Status {
        let pos = self.m.position();
        let end = game_end(&self.row);
        Status {
            turn: pos.turn(),
            to_move: self.user_of(pos.turn()),
            check: pos.is_check(),
            plies: self.m.moves().len() as u32,
            count: self.m.count(),
            warnings: if end.is_some() {
                Vec::new()
            } else {
                self.m.warnings()
            },
            draw_offer: parse_color(self.row.draw_offer.as_deref()),
            takeback_request: parse_color(self.row.takeback_request.as_deref()),
            end,
        }
    }

    fn reply(&self, event: Event, actor: Option<UserId>, san: Option<String>) -> Reply {
        Reply {
            game_id: GameId(self.row.id),
            event,
            actor,
            ruleset: self.m.ruleset(),
            white: self.white(),
            black: self.black(),
            position: self.m.position().clone(),
            last_move: self.m.moves().last().copied(),
            san,
            status: self.status(),
        }
    }
}

fn challenge_view(row: &ChallengeRow) -> Result<ChallengeView, ServiceError> {
    let color = ColorChoice::from_name(&row.color)
        .ok_or_else(|| anyhow!("stored challenge colour {:?}", row.color))?;
    let state = match row.state.as_str() {
        "open" => ChallengeState::Open,
        "accepted" => ChallengeState::Accepted,
        "declined" => ChallengeState::Declined,
        "withdrawn" => ChallengeState::Withdrawn,
        "expired" => ChallengeState::Expired,
        other => return Err(anyhow!("stored challenge state {other:?}").into()),
    };
    Ok(ChallengeView {
        id: ChallengeId(row.id),
        channel: ChannelId(from_db_id(row.channel_id)),
        challenger: UserId(from_db_id(row.challenger_id)),
        opponent: UserId(from_db_id(row.opponent_id)),
        color,
        ruleset: parse_ruleset(&row.ruleset)?,
        created_at: row.created_at,
        expires_at: row.expires_at,
        state,
    })
}

/// Replays stored moves (UCI) from `start`, with the counting requests in between (an event
/// at ply `i` happens before move `i`). Moves are replayed with `Game::play_on`, so a game
/// stays readable even if a later rules version ends it earlier.
fn replay(start: Position, moves: &[MoveRow], events: &[CountEventRow]) -> anyhow::Result<Game> {
    let mut game = Game::from_position(start);
    let mut events = events.iter().peekable();
    let mut apply_events = |game: &mut Game, ply: usize| -> anyhow::Result<()> {
        while let Some(e) = events.next_if(|e| usize::try_from(e.ply).is_ok_and(|p| p <= ply)) {
            let done = match e.action.as_str() {
                "start" => game.start_count(),
                "stop" => game.stop_count(),
                other => bail!("stored count event {other:?}"),
            };
            done.with_context(|| format!("stored count event {} at ply {}", e.action, e.ply))?;
        }
        Ok(())
    };
    for (i, mv) in moves.iter().enumerate() {
        if usize::try_from(mv.ply).ok() != Some(i) {
            bail!("stored move number {} where {i} was expected", mv.ply);
        }
        apply_events(&mut game, i)?;
        let m = makruk::parse_uci(game.position(), &mv.uci)
            .map_err(|e| anyhow!("stored move {i} {:?}: {e}", mv.uci))?;
        game.play_on(&m)
            .with_context(|| format!("stored move {i} {:?}", mv.uci))?;
    }
    apply_events(&mut game, moves.len())?;
    Ok(game)
}

/// The end of a game by the rules, in the service's terms.
fn rules_end(outcome: Outcome) -> GameEnd {
    match outcome {
        Outcome::Decisive {
            winner,
            reason: WinReason::Checkmate,
        } => GameEnd {
            result: GameResult::win_for(winner),
            reason: EndReason::Checkmate,
        },
        Outcome::Draw { reason } => GameEnd {
            result: GameResult::Draw,
            reason: match reason {
                DrawReason::Stalemate => EndReason::Stalemate,
                DrawReason::Counting => EndReason::Counting,
                DrawReason::Repetition => EndReason::Repetition,
                DrawReason::InsufficientMaterial => EndReason::InsufficientMaterial,
                DrawReason::KhunVsKhun => EndReason::KhunVsKhun,
                DrawReason::FiftyMove => EndReason::FiftyMove,
                DrawReason::CountingSideMated => EndReason::CountingSideMated,
            },
        },
    }
}

/// `traditional`: a running board's-honour count is a standing draw offer of the counting
/// side (RULES.md); it does not lapse with the opponent's moves.
fn count_offer_stands(g: &Loaded, offerer: Color) -> bool {
    g.m.ruleset() == Ruleset::Traditional
        && g.m
            .count()
            .is_some_and(|c| c.kind == CountKind::BoardsHonour && c.counting == offerer)
}

/// The stored game `row` replayed: from the cache when it holds the row's version, else by
/// reading its moves and count events on `conn` (the same snapshot as `row`: a transaction)
/// and replaying them. Checks the stored FEN either way.
async fn load(
    cache: &GameCache,
    conn: &mut SqliteConnection,
    row: GameRow,
) -> Result<Loaded, ServiceError> {
    if let Some(g) = cached(cache, &row) {
        return Ok(g);
    }
    let ruleset = parse_ruleset(&row.ruleset)?;
    let moves = store::moves(conn, row.id).await?;
    let events = store::count_events(conn, row.id).await?;
    let start = Position::from_fen(&row.start_fen, ruleset)
        .with_context(|| format!("stored game {}: start FEN {:?}", row.id, row.start_fen))?;
    let m = replay(start, &moves, &events)
        .with_context(|| format!("replaying stored game {}", row.id))?;
    if m.position().fen() != row.fen {
        return Err(anyhow!(
            "stored game {}: FEN {:?} does not match its moves ({:?})",
            row.id,
            row.fen,
            m.position().fen()
        )
        .into());
    }
    cache.put(row.id, row.version, &m);
    Ok(Loaded {
        stored_moves: moves.len(),
        stored_events: events.len(),
        row,
        m,
    })
}

/// The stored game `row` from the cache, if it holds the row's version and reaches the row's
/// FEN.
fn cached(cache: &GameCache, row: &GameRow) -> Option<Loaded> {
    let m = cache.get(row.id, row.version)?;
    if m.position().fen() != row.fen || m.ruleset().name() != row.ruleset {
        return None;
    }
    Some(Loaded {
        stored_moves: m.moves().len(),
        stored_events: m.events().len(),
        row: row.clone(),
        m,
    })
}

/// The active game of `channel`, or why there is none.
async fn load_active(
    cache: &GameCache,
    tx: &mut Tx,
    channel: ChannelId,
) -> Result<Loaded, ServiceError> {
    let ch = to_db_id(channel.0);
    match store::active_game(tx, ch).await? {
        Some(row) => load(cache, tx, row).await,
        None => match store::last_game(tx, ch).await? {
            Some(row) => Err(ServiceError::GameOver(GameId(row.id))),
            None => Err(ServiceError::NoGameHere),
        },
    }
}

/// The active game of `channel`, else its last game.
async fn load_current_or_last(
    cache: &GameCache,
    tx: &mut Tx,
    channel: ChannelId,
) -> Result<Loaded, ServiceError> {
    let ch = to_db_id(channel.0);
    match store::active_game(tx, ch).await? {
        Some(row) => load(cache, tx, row).await,
        None => match store::last_game(tx, ch).await? {
            Some(row) => load(cache, tx, row).await,
            None => Err(ServiceError::NoGameHere),
        },
    }
}

/// Writes what changed in `g` in one write transaction: first the row, only if its version
/// is still the one read ([`ServiceError::Conflict`] otherwise, nothing written), then the
/// new or undone moves and count events. One new move alone (the common case) is written with
/// the row in one query, under the same version condition. After the commit the game is
/// cached at its new version.
async fn save(
    store: &Store,
    cache: &GameCache,
    g: &mut Loaded,
    now: i64,
) -> Result<(), ServiceError> {
    let id = g.row.id;
    let mut tx = store.begin_write().await?;
    let expected = g.row.version;
    g.row.fen = g.m.position().fen();
    g.row.plies = g.m.moves().len() as i64;
    g.row.updated_at = now;
    let moves = g.m.moves();
    // The common case, a move: one query (see `store::append_move`).
    if moves.len() == g.stored_moves + 1 && g.m.events().len() == g.stored_events {
        let i = g.stored_moves;
        let san = makruk::san::to_san(&g.m.positions()[i], &moves[i]);
        let uci = makruk::uci::to_uci(&moves[i]);
        if !store::append_move(&mut tx, &g.row, expected, i as i64, &uci, &san).await? {
            return Err(ServiceError::Conflict);
        }
        tx.commit().await?;
        g.row.version = expected + 1;
        g.stored_moves = moves.len();
        cache.put(id, g.row.version, &g.m);
        return Ok(());
    }
    if !store::update_game(&mut tx, &g.row, expected).await? {
        return Err(ServiceError::Conflict);
    }
    if moves.len() < g.stored_moves {
        store::delete_moves_from(&mut tx, id, moves.len() as i64).await?;
    } else {
        let positions = g.m.positions();
        for (i, mv) in moves.iter().enumerate().skip(g.stored_moves) {
            let san = makruk::san::to_san(&positions[i], mv);
            let uci = makruk::uci::to_uci(mv);
            store::insert_move(&mut tx, id, i as i64, &uci, &san, now).await?;
        }
    }
    let events = g.m.events();
    if events.len() < g.stored_events {
        store::delete_count_events_from(&mut tx, id, events.len() as i64).await?;
    } else {
        for (seq, e) in events.iter().enumerate().skip(g.stored_events) {
            let action = match e.action {
                CountAction::Start => "start",
                CountAction::Stop => "stop",
            };
            store::insert_count_event(&mut tx, id, seq as i64, i64::from(e.ply), action).await?;
        }
    }
    tx.commit().await?;
    g.row.version = expected + 1;
    g.stored_moves = g.m.moves().len();
    g.stored_events = g.m.events().len();
    cache.put(id, g.row.version, &g.m);
    Ok(())
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
            cache: Arc::default(),
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

    /// Closes the database connections (waits for running requests).
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
    #[tracing::instrument(skip(self))]
    pub async fn challenge(
        &self,
        channel: ChannelId,
        challenger: UserId,
        opponent: UserId,
        opponent_is_bot: bool,
        color: ColorChoice,
        ruleset: Ruleset,
    ) -> Result<ChallengeView, ServiceError> {
        if challenger == opponent {
            return Err(ServiceError::ChallengeSelf);
        }
        if opponent_is_bot {
            return Err(ServiceError::ChallengeBot);
        }
        let now = self.now();
        let ch = to_db_id(channel.0);
        let mut tx = self.store.begin_write().await?;
        if let Some(g) = store::active_game(&mut tx, ch).await? {
            return Err(ServiceError::ChannelBusy(GameId(g.id)));
        }
        store::expire_challenges(&mut tx, ch, now).await?;
        if let Some(c) = store::open_challenge(&mut tx, ch).await? {
            return Err(ServiceError::ChallengePending(ChallengeId(c.id)));
        }
        let new = store::NewChallenge {
            channel_id: ch,
            challenger_id: to_db_id(challenger.0),
            opponent_id: to_db_id(opponent.0),
            color: color.name(),
            ruleset: ruleset.name(),
            now,
            expires_at: now.saturating_add(self.challenge_ttl_secs),
        };
        let row = match store::insert_challenge(&mut tx, &new).await {
            Ok(row) => row,
            Err(e) if store::is_unique_violation(&e) => return Err(ServiceError::Conflict),
            Err(e) => return Err(e.into()),
        };
        tx.commit().await?;
        challenge_view(&row)
    }

    /// The open challenge of `channel`, if any (expired ones are not returned).
    ///
    /// # Errors
    /// `Internal` only.
    pub async fn open_challenge(
        &self,
        channel: ChannelId,
    ) -> Result<Option<ChallengeView>, ServiceError> {
        let now = self.now();
        let mut tx = self.store.begin_read().await?;
        let row = store::open_challenge(&mut tx, to_db_id(channel.0)).await?;
        tx.commit().await?;
        row.filter(|c| c.expires_at > now)
            .map(|c| challenge_view(&c))
            .transpose()
    }

    /// The open challenge of `channel` (matching `id` if given), checked for expiry.
    async fn find_open_challenge(
        &self,
        tx: &mut Tx,
        channel: ChannelId,
        id: Option<ChallengeId>,
    ) -> Result<ChallengeRow, ServiceError> {
        let ch = to_db_id(channel.0);
        let open = store::open_challenge(tx, ch).await?;
        match open {
            Some(c) if id.is_none_or(|id| id.0 == c.id) => Ok(c),
            _ => {
                // A button of an old challenge: say what became of it.
                if let Some(id) = id {
                    if let Some(c) = store::challenge(tx, id.0).await? {
                        if c.channel_id == ch && c.state == "expired" {
                            return Err(ServiceError::ChallengeExpired);
                        }
                    }
                }
                Err(ServiceError::NoChallenge)
            }
        }
    }

    /// `user` accepts the open challenge of `channel` (the one with id `challenge`, if given,
    /// e.g. from a button): the game starts, colours are assigned.
    ///
    /// # Errors
    /// [`ServiceError::NoChallenge`], [`ServiceError::NotYourChallenge`] (only the challenged user
    /// may accept), [`ServiceError::ChallengeExpired`], [`ServiceError::ChannelBusy`], `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn accept(
        &self,
        channel: ChannelId,
        user: UserId,
        challenge: Option<ChallengeId>,
    ) -> Result<Reply, ServiceError> {
        let now = self.now();
        let mut tx = self.store.begin_write().await?;
        let c = self
            .find_open_challenge(&mut tx, channel, challenge)
            .await?;
        if to_db_id(user.0) != c.opponent_id {
            return Err(ServiceError::NotYourChallenge {
                challenger: UserId(from_db_id(c.challenger_id)),
                opponent: UserId(from_db_id(c.opponent_id)),
            });
        }
        if c.expires_at <= now {
            store::expire_challenges(&mut tx, c.channel_id, now).await?;
            tx.commit().await?;
            return Err(ServiceError::ChallengeExpired);
        }
        if let Some(g) = store::active_game(&mut tx, c.channel_id).await? {
            return Err(ServiceError::ChannelBusy(GameId(g.id)));
        }
        let view = challenge_view(&c)?;
        let challenger_white = match view.color {
            ColorChoice::White => true,
            ColorChoice::Black => false,
            ColorChoice::Random => rand::random_bool(0.5),
        };
        let (white, black) = if challenger_white {
            (c.challenger_id, c.opponent_id)
        } else {
            (c.opponent_id, c.challenger_id)
        };
        let start = Position::start(view.ruleset);
        let start_fen = start.fen();
        let new = store::NewGame {
            channel_id: c.channel_id,
            white_id: white,
            black_id: black,
            ruleset: view.ruleset.name(),
            start_fen: &start_fen,
            now,
        };
        let game_id = match store::insert_game(&mut tx, &new).await {
            Ok(id) => id,
            Err(e) if store::is_unique_violation(&e) => return Err(ServiceError::Conflict),
            Err(e) => return Err(e.into()),
        };
        if !store::close_challenge(&mut tx, c.id, "accepted", now, Some(game_id)).await? {
            return Err(ServiceError::Conflict);
        }
        let row = store::game(&mut tx, game_id)
            .await?
            .ok_or_else(|| anyhow!("game {game_id} vanished"))?;
        tx.commit().await?;
        let g = Loaded {
            row,
            m: Game::from_position(start),
            stored_moves: 0,
            stored_events: 0,
        };
        self.cache.put(g.row.id, g.row.version, &g.m);
        Ok(g.reply(Event::Started, Some(user), None))
    }

    /// `user` declines the open challenge (only the challenged user may).
    ///
    /// # Errors
    /// [`ServiceError::NoChallenge`], [`ServiceError::NotYourChallenge`], `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn decline(
        &self,
        channel: ChannelId,
        user: UserId,
        challenge: Option<ChallengeId>,
    ) -> Result<ChallengeView, ServiceError> {
        let now = self.now();
        let mut tx = self.store.begin_write().await?;
        let c = self
            .find_open_challenge(&mut tx, channel, challenge)
            .await?;
        if to_db_id(user.0) != c.opponent_id {
            return Err(ServiceError::NotYourChallenge {
                challenger: UserId(from_db_id(c.challenger_id)),
                opponent: UserId(from_db_id(c.opponent_id)),
            });
        }
        if !store::close_challenge(&mut tx, c.id, "declined", now, None).await? {
            return Err(ServiceError::Conflict);
        }
        let row = store::challenge(&mut tx, c.id)
            .await?
            .ok_or_else(|| anyhow!("challenge {} vanished", c.id))?;
        tx.commit().await?;
        challenge_view(&row)
    }

    /// The challenger withdraws their open challenge in `channel`.
    ///
    /// # Errors
    /// [`ServiceError::NoChallenge`], [`ServiceError::NotYourChallenge`], `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn withdraw(
        &self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<ChallengeView, ServiceError> {
        let now = self.now();
        let mut tx = self.store.begin_write().await?;
        let c = self.find_open_challenge(&mut tx, channel, None).await?;
        if to_db_id(user.0) != c.challenger_id {
            return Err(ServiceError::NotYourChallenge {
                challenger: UserId(from_db_id(c.challenger_id)),
                opponent: UserId(from_db_id(c.opponent_id)),
            });
        }
        if !store::close_challenge(&mut tx, c.id, "withdrawn", now, None).await? {
            return Err(ServiceError::Conflict);
        }
        let row = store::challenge(&mut tx, c.id)
            .await?
            .ok_or_else(|| anyhow!("challenge {} vanished", c.id))?;
        tx.commit().await?;
        challenge_view(&row)
    }

    /// `user` plays `input` (any notation the rules crate reads: SAN, PlayOK, Thai, UCI) in the
    /// channel's game. Ends the game when the rules say it is over. A draw offer of the other
    /// side lapses; a takeback request lapses.
    ///
    /// # Errors
    /// [`ServiceError::InputTooLong`] (checked first, before the database),
    /// [`ServiceError::NoGameHere`] / [`ServiceError::GameOver`], [`ServiceError::NotAPlayer`],
    /// [`ServiceError::NotYourTurn`], [`ServiceError::BadMove`], [`ServiceError::Conflict`].
    #[tracing::instrument(skip(self, input), fields(input_len = input.len()))]
    pub async fn play(
        &self,
        channel: ChannelId,
        user: UserId,
        input: &str,
    ) -> Result<Reply, ServiceError> {
        if input.chars().nth(MAX_INPUT_LEN).is_some() {
            return Err(ServiceError::InputTooLong);
        }
        let (g, san) = self
            .with_game(channel, user, |g, side, now| {
                if g.m.position().turn() != side {
                    return Err(ServiceError::NotYourTurn);
                }
                let mv =
                    makruk::parse_move(g.m.position(), input).map_err(ServiceError::BadMove)?;
                let san = makruk::san::to_san(g.m.position(), &mv);
                g.m.play(&mv)
                    .map_err(|e| anyhow!("parse_move gave an illegal move: {e}"))?;
                if parse_color(g.row.draw_offer.as_deref()) == Some(side.other())
                    && !count_offer_stands(g, side.other())
                {
                    g.row.draw_offer = None;
                }
                g.row.takeback_request = None;
                if let Some(outcome) = g.m.outcome() {
                    g.finish(rules_end(outcome), now);
                }
                Ok(san)
            })
            .await?;
        Ok(g.reply(Event::Moved, Some(user), Some(san)))
    }

    /// Runs `f` on the channel's active game for player `user` (with their side and the time)
    /// and stores the result. Optimistic: the game is read and `f` runs outside the write
    /// lock; the write applies only if the game's version is still the one read, else the
    /// request starts again from a fresh read (at most [`MAX_ATTEMPTS`] times, then
    /// [`ServiceError::Conflict`]). So of two simultaneous requests one applies and the other is
    /// judged on the new state (e.g. a double-click's second move gets `NotYourTurn`).
    async fn with_game<T>(
        &self,
        channel: ChannelId,
        user: UserId,
        mut f: impl FnMut(&mut Loaded, Color, i64) -> Result<T, ServiceError>,
    ) -> Result<(Loaded, T), ServiceError> {
        for _ in 0..MAX_ATTEMPTS {
            let now = self.now();
            let mut g = self.load_active_to_change(channel).await?;
            let side = g.side_of(user)?;
            let out = f(&mut g, side, now)?;
            match save(&self.store, &self.cache, &mut g, now).await {
                Ok(()) => return Ok((g, out)),
                Err(ServiceError::Conflict) => continue,
                Err(e) => return Err(e),
            }
        }
        Err(ServiceError::Conflict)
    }

    /// The active game of `channel` for a change: its row in one statement, the replayed game
    /// from the cache when it holds the row's version; else the whole game read in one read
    /// transaction and replayed.
    async fn load_active_to_change(&self, channel: ChannelId) -> Result<Loaded, ServiceError> {
        let mut conn = self.store.read_conn().await?;
        if let Some(row) = store::active_game(&mut conn, to_db_id(channel.0)).await? {
            if let Some(g) = cached(&self.cache, &row) {
                return Ok(g);
            }
        }
        drop(conn);
        let mut tx = self.store.begin_read().await?;
        let g = load_active(&self.cache, &mut tx, channel).await?;
        tx.commit().await?;
        Ok(g)
    }

    /// Runs `f` on the channel's active game for a player (see [`GameService::with_game`]) and
    /// answers with `event`.
    async fn game_action(
        &self,
        channel: ChannelId,
        user: UserId,
        event: Event,
        f: impl FnMut(&mut Loaded, Color, i64) -> Result<(), ServiceError>,
    ) -> Result<Reply, ServiceError> {
        let (g, ()) = self.with_game(channel, user, f).await?;
        Ok(g.reply(event, Some(user), None))
    }

    /// `user` resigns: the opponent wins.
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn resign(&self, channel: ChannelId, user: UserId) -> Result<Reply, ServiceError> {
        self.game_action(channel, user, Event::Resigned, |g, side, now| {
            let end = GameEnd {
                result: GameResult::win_for(side.other()),
                reason: EndReason::Resignation,
            };
            g.finish(end, now);
            Ok(())
        })
        .await
    }

    /// `user` offers a draw (either player, at any time). If the opponent's offer stands, this
    /// accepts it. The offer lapses when the opponent moves.
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, [`ServiceError::DrawAlreadyOffered`], `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn offer_draw(
        &self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<Reply, ServiceError> {
        let mut event = Event::DrawOffered;
        let reply = self
            .game_action(
                channel,
                user,
                Event::DrawOffered,
                |g, side, now| match parse_color(g.row.draw_offer.as_deref()) {
                    Some(c) if c == side => Err(ServiceError::DrawAlreadyOffered),
                    Some(_) => {
                        event = Event::DrawAccepted;
                        g.finish(
                            GameEnd {
                                result: GameResult::Draw,
                                reason: EndReason::Agreement,
                            },
                            now,
                        );
                        Ok(())
                    }
                    None => {
                        g.row.draw_offer = Some(side.name().into());
                        Ok(())
                    }
                },
            )
            .await?;
        Ok(Reply { event, ..reply })
    }

    /// `user` accepts the opponent's standing draw offer: the game is drawn by agreement.
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, [`ServiceError::NoDrawOffer`], `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn accept_draw(
        &self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<Reply, ServiceError> {
        self.game_action(channel, user, Event::DrawAccepted, |g, side, now| {
            if parse_color(g.row.draw_offer.as_deref()) != Some(side.other()) {
                return Err(ServiceError::NoDrawOffer);
            }
            g.finish(
                GameEnd {
                    result: GameResult::Draw,
                    reason: EndReason::Agreement,
                },
                now,
            );
            Ok(())
        })
        .await
    }

    /// `user` declines the opponent's standing draw offer.
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, [`ServiceError::NoDrawOffer`], `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn decline_draw(
        &self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<Reply, ServiceError> {
        self.game_action(channel, user, Event::DrawDeclined, |g, side, _| {
            if parse_color(g.row.draw_offer.as_deref()) != Some(side.other()) {
                return Err(ServiceError::NoDrawOffer);
            }
            g.row.draw_offer = None;
            Ok(())
        })
        .await
    }

    /// `user` asks to take back their last move (one ply: the last ply must be theirs).
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, [`ServiceError::NothingToTakeBack`],
    /// [`ServiceError::TakebackAlreadyRequested`], `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn request_takeback(
        &self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<Reply, ServiceError> {
        self.game_action(channel, user, Event::TakebackRequested, |g, side, _| {
            if g.m.moves().is_empty() || g.m.position().turn() == side {
                return Err(ServiceError::NothingToTakeBack);
            }
            if parse_color(g.row.takeback_request.as_deref()) == Some(side) {
                return Err(ServiceError::TakebackAlreadyRequested);
            }
            g.row.takeback_request = Some(side.name().into());
            Ok(())
        })
        .await
    }

    /// `user` agrees to the opponent's takeback request: the last ply is undone.
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, [`ServiceError::NoTakebackRequest`], `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn accept_takeback(
        &self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<Reply, ServiceError> {
        self.game_action(channel, user, Event::TakebackAccepted, |g, side, _| {
            let requester = side.other();
            if parse_color(g.row.takeback_request.as_deref()) != Some(requester)
                || g.m.moves().is_empty()
                || g.m.position().turn() == requester
            {
                return Err(ServiceError::NoTakebackRequest);
            }
            g.m.undo();
            g.row.takeback_request = None;
            Ok(())
        })
        .await
    }

    /// `user` refuses the opponent's takeback request.
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, [`ServiceError::NoTakebackRequest`], `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn decline_takeback(
        &self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<Reply, ServiceError> {
        self.game_action(channel, user, Event::TakebackDeclined, |g, side, _| {
            if parse_color(g.row.takeback_request.as_deref()) != Some(side.other()) {
                return Err(ServiceError::NoTakebackRequest);
            }
            g.row.takeback_request = None;
            Ok(())
        })
        .await
    }

    /// `user` aborts the game; allowed only before both sides have moved. No result.
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, [`ServiceError::TooLateToAbort`], `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn abort(&self, channel: ChannelId, user: UserId) -> Result<Reply, ServiceError> {
        self.game_action(channel, user, Event::Aborted, |g, _, now| {
            if g.m.moves().len() >= 2 {
                return Err(ServiceError::TooLateToAbort);
            }
            g.finish(
                GameEnd {
                    result: GameResult::Aborted,
                    reason: EndReason::Aborted,
                },
                now,
            );
            Ok(())
        })
        .await
    }

    /// `traditional`: the player to move starts counting board's honour (RULES.md). The
    /// running count is a standing draw offer to the opponent.
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, `NotYourTurn`, [`ServiceError::NotTraditional`],
    /// [`ServiceError::Count`] (the rules refuse it now), `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn count_start(
        &self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<Reply, ServiceError> {
        self.count_request(channel, user, true).await
    }

    /// `traditional`: the counting player stops their board's-honour count (at any time, as
    /// pychess allows).
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, [`ServiceError::NotTraditional`],
    /// [`ServiceError::NotYourCount`], [`ServiceError::Count`] (no count runs), `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn count_stop(
        &self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<Reply, ServiceError> {
        self.count_request(channel, user, false).await
    }

    async fn count_request(
        &self,
        channel: ChannelId,
        user: UserId,
        start: bool,
    ) -> Result<Reply, ServiceError> {
        let event = if start {
            Event::CountStarted
        } else {
            Event::CountStopped
        };
        self.game_action(channel, user, event, |g, side, _| {
            if g.m.ruleset() != Ruleset::Traditional {
                return Err(ServiceError::NotTraditional);
            }
            if start {
                if g.m.position().turn() != side {
                    return Err(ServiceError::NotYourTurn);
                }
                g.m.start_count().map_err(ServiceError::Count)?;
            } else {
                g.m.stop_count().map_err(ServiceError::Count)?;
                // The count belongs to the side that started it; only that side stops it.
                if g.m.events().last().is_some_and(|e| e.by != side) {
                    return Err(ServiceError::NotYourCount);
                }
            }
            let offer = parse_color(g.row.draw_offer.as_deref());
            if start {
                g.row.draw_offer = Some(side.name().into());
            } else if offer == Some(side) {
                g.row.draw_offer = None;
            }
            Ok(())
        })
        .await
    }

    /// The channel's game as it stands (event [`Event::Shown`]). If no game is active, the
    /// channel's last finished game.
    ///
    /// # Errors
    /// [`ServiceError::NoGameHere`], `Internal`.
    #[tracing::instrument(skip(self))]
    pub async fn board(&self, channel: ChannelId) -> Result<Reply, ServiceError> {
        let mut tx = self.store.begin_read().await?;
        let g = load_current_or_last(&self.cache, &mut tx, channel).await?;
        tx.commit().await?;
        Ok(g.reply(Event::Shown, None, None))
    }

    /// Legal moves in SAN for autocomplete: only for the player to move, those whose SAN or UCI
    /// starts with `prefix` (case-insensitive; empty = all), checks first, then captures, at
    /// most [`MAX_SUGGESTIONS`]. A prefix in Thai letters matches and gives Thai SAN
    /// (`ม-ง๒`). Empty on any error.
    pub async fn legal_moves_san(
        &self,
        channel: ChannelId,
        user: UserId,
        prefix: &str,
    ) -> Vec<String> {
        match self.try_legal_moves_san(channel, user, prefix).await {
            Ok(v) => v,
            Err(e) => {
                if !e.is_user_error() {
                    tracing::error!(error = %e, "listing legal moves");
                }
                Vec::new()
            }
        }
    }

    async fn try_legal_moves_san(
        &self,
        channel: ChannelId,
        user: UserId,
        prefix: &str,
    ) -> Result<Vec<String>, ServiceError> {
        let mut tx = self.store.begin_read().await?;
        let g = load_active(&self.cache, &mut tx, channel).await?;
        tx.commit().await?;
        let side = g.side_of(user)?;
        let pos = g.m.position();
        if pos.turn() != side {
            return Err(ServiceError::NotYourTurn);
        }
        let prefix = prefix.trim().to_lowercase();
        // Someone typing Thai gets Thai SAN back; the rules crate reads both.
        let thai = !prefix.is_ascii();
        let mut moves: Vec<(u8, String)> = pos
            .legal_moves()
            .into_iter()
            .filter_map(|mv| {
                let san = makruk::san::to_san(pos, &mv);
                let rank = if san.ends_with('#') || san.ends_with('+') {
                    0
                } else if mv.is_capture() {
                    1
                } else {
                    2
                };
                let shown = if thai {
                    makruk::san::to_thai_san(pos, &mv)
                } else {
                    san
                };
                let uci = makruk::uci::to_uci(&mv);
                (shown.to_lowercase().starts_with(&prefix) || uci.starts_with(&prefix))
                    .then_some((rank, shown))
            })
            .collect();
        moves.sort();
        Ok(moves
            .into_iter()
            .take(MAX_SUGGESTIONS)
            .map(|(_, s)| s)
            .collect())
    }

    /// The count of the channel's game explained in sentences: who counts, why from that
    /// number, why that limit, how many moves remain (or why no count runs).
    ///
    /// # Errors
    /// [`ServiceError::NoGameHere`], `Internal`.
    #[tracing::instrument(skip(self))]
    pub async fn explain_count(
        &self,
        channel: ChannelId,
        locale: Locale,
    ) -> Result<String, ServiceError> {
        let mut tx = self.store.begin_read().await?;
        let g = load_current_or_last(&self.cache, &mut tx, channel).await?;
        tx.commit().await?;
        Ok(text::explain_count(
            g.m.ruleset(),
            g.m.position(),
            g.m.count(),
            locale,
        ))
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
    #[tracing::instrument(skip(self))]
    pub async fn recent_games(
        &self,
        channel: ChannelId,
        limit: u32,
    ) -> Result<Vec<GameSummary>, ServiceError> {
        let mut tx = self.store.begin_read().await?;
        let rows = store::finished_games(&mut tx, to_db_id(channel.0), i64::from(limit)).await?;
        tx.commit().await?;
        rows.iter()
            .map(|r| {
                let end =
                    game_end(r).ok_or_else(|| anyhow!("finished game {} without result", r.id))?;
                Ok(GameSummary {
                    id: GameId(r.id),
                    white: UserId(from_db_id(r.white_id)),
                    black: UserId(from_db_id(r.black_id)),
                    ruleset: parse_ruleset(&r.ruleset)?,
                    result: end.result,
                    reason: end.reason,
                    plies: u32::try_from(r.plies).unwrap_or(0),
                    started_at: r.created_at,
                    finished_at: r.finished_at.unwrap_or(r.updated_at),
                })
            })
            .collect()
    }

    /// PGN (pychess form) and analysis link of game `game` of `channel`, or of the channel's
    /// current (else last) game when `game` is `None`. Players are written as their user ids.
    ///
    /// # Errors
    /// [`ServiceError::NoGameHere`], [`ServiceError::GameNotFound`] (no such game in this
    /// channel), `Internal`.
    #[tracing::instrument(skip(self))]
    pub async fn pgn(
        &self,
        channel: ChannelId,
        game: Option<GameId>,
    ) -> Result<PgnExport, ServiceError> {
        let mut tx = self.store.begin_read().await?;
        let g = match game {
            Some(id) => match store::game(&mut tx, id.0).await? {
                Some(row) if row.channel_id == to_db_id(channel.0) => {
                    load(&self.cache, &mut tx, row).await?
                }
                _ => return Err(ServiceError::GameNotFound),
            },
            None => load_current_or_last(&self.cache, &mut tx, channel).await?,
        };
        tx.commit().await?;
        let result = game_end(&g.row).map_or("*", |e| e.result.pgn());
        let tags = makruk::pgn::PgnTags {
            event: format!("Makruk ({})", g.m.ruleset().name()),
            site: "Discord".into(),
            date: text::pgn_date(g.row.created_at),
            round: "-".into(),
            white: g.white().0.to_string(),
            black: g.black().0.to_string(),
            result: Some(result.into()),
            extra: vec![("Ruleset".into(), g.m.ruleset().name().into())],
        };
        let pgn = makruk::pgn::write_pgn(&g.m, &tags);
        Ok(PgnExport {
            game_id: GameId(g.row.id),
            pgn,
            analysis_url: makruk::analysis_url(g.m.position()),
        })
    }
}

impl Reply {
    /// The status in `locale`: what happened (e.g. "White played Sd2."), whose turn, check,
    /// the count ("Black counts 11 of 16."), warnings, offers, and the end with its reason.
    /// Users are written as Discord mentions `<@id>`.
    #[must_use]
    pub fn text(&self, locale: Locale) -> String {
        text::reply_text(self, locale)
    }
}

impl ChallengeView {
    /// The challenge in `locale`: who challenges whom, ruleset, colour, how to answer, or
    /// what became of it. Users are written as Discord mentions `<@id>`.
    #[must_use]
    pub fn text(&self, locale: Locale) -> String {
        text::challenge_text(self, locale)
    }
}
