//! Reading a game and writing it back: rows decoded, stored moves replayed (or taken from the
//! [`GameCache`]), the difference written under the version check, and the optimistic retry
//! loop that every request on a game goes through ([`GameService::with_game`]), which also runs
//! the game's clock: a request arriving after the side to move's flag fell ends the game on
//! time instead (in the same versioned write as any change).

use crate::store::DbConn;
use anyhow::{anyhow, bail, Context as _};
use makruk::{Color, CountAction, Game, Position};

use super::cache::GameCache;
use super::{
    Announcement, ChannelId, EndReason, Event, GameEnd, GameId, GameService, OfferKind, Reply,
    ServiceError, Status, UserId,
};
use crate::clock::{ClockState, FlagOutcome, Snapshot};
use crate::store::{
    self, from_db_id, to_db_id, CountEventRow, GameRow, GameState, MoveRow, Store, Tx,
};
use crate::types::{GameRatings, GameResult};

/// How often a request on a game is tried when another request changed the game meanwhile.
const MAX_ATTEMPTS: usize = 3;

/// A game read from the store and replayed.
pub(super) struct Loaded {
    pub(super) row: GameRow,
    pub(super) m: Game,
    /// The game's clock (from the row; written back into it by `save`).
    pub(super) clock: ClockState,
    /// Both sides' remaining time after each move, one per move of `m` (what a takeback
    /// restores, see [`Loaded::clocks_before_last_ply`]).
    pub(super) clocks: Vec<Snapshot>,
    /// The instant (Unix milliseconds) the answer describes: the clocks of the status are
    /// shown as of then.
    pub(super) now_ms: i64,
    /// Moves and count events as stored when read (to write only the difference).
    stored_moves: usize,
    stored_events: usize,
    /// The stored row is still being played: a save that finishes it rates it.
    stored_active: bool,
    /// Both players' new ratings, once the save that ended a rated game committed.
    pub(super) ratings: Option<GameRatings>,
}

/// The end of a finished game (`None` while it is being played).
pub(super) fn game_end(row: &GameRow) -> Option<GameEnd> {
    Some(GameEnd {
        result: row.result?,
        reason: row.end_reason?,
    })
}

/// The clock of stored game `row` replayed as `m`.
fn clock_of(row: &GameRow, m: &Game) -> ClockState {
    ClockState::from_stored(
        row.time_control,
        row.clock,
        m.position().turn(),
        u32::try_from(m.moves().len()).unwrap_or(u32::MAX),
    )
}

/// The clock of stored game `row` without replaying it: the side to move from its FEN (what
/// start-up arms the scheduler from).
pub(super) fn stored_clock(row: &GameRow) -> ClockState {
    let turn = match row.fen.split_whitespace().nth(1) {
        Some("b") => Color::Black,
        _ => Color::White,
    };
    ClockState::from_stored(
        row.time_control,
        row.clock,
        turn,
        u32::try_from(row.plies).unwrap_or(0),
    )
}

impl Loaded {
    /// A game just inserted as `row`, at its start `m` (no moves, no count events stored), at
    /// `now_ms`.
    pub(super) fn started(row: GameRow, m: Game, now_ms: i64) -> Loaded {
        Loaded {
            clock: clock_of(&row, &m),
            clocks: Vec::new(),
            now_ms,
            row,
            m,
            stored_moves: 0,
            stored_events: 0,
            stored_active: true,
            ratings: None,
        }
    }

    fn new(row: GameRow, m: Game, clocks: Vec<Snapshot>) -> Loaded {
        Loaded {
            clock: clock_of(&row, &m),
            stored_moves: m.moves().len(),
            stored_events: m.events().len(),
            clocks,
            now_ms: 0,
            stored_active: row.state == GameState::Active,
            ratings: None,
            row,
            m,
        }
    }

    /// The clocks a takeback of the last ply restores: those stored with the ply before it, or
    /// the initial ones when the first ply is taken back.
    pub(super) fn clocks_before_last_ply(&self) -> Snapshot {
        let n = self.clocks.len();
        if n >= 2 {
            self.clocks[n - 2]
        } else {
            Snapshot::initial(self.row.time_control)
        }
    }

    /// The side to move's flag fell at `now_ms`: the game ends on time (lichess's rules,
    /// [`ClockState::flag_outcome`]).
    pub(super) fn flag(&mut self, now_ms: i64) {
        let (result, reason) = match self.clock.flag_outcome(self.m.position()) {
            FlagOutcome::Aborted => (GameResult::Aborted, EndReason::TimeoutAborted),
            FlagOutcome::Draw => (GameResult::Draw, EndReason::TimeoutDraw),
            FlagOutcome::Loss { loser } => (GameResult::win_for(loser.other()), EndReason::Timeout),
        };
        self.finish(GameEnd { result, reason }, now_ms);
    }

    pub(super) fn white(&self) -> UserId {
        UserId(from_db_id(self.row.white_id))
    }

    pub(super) fn black(&self) -> UserId {
        UserId(from_db_id(self.row.black_id))
    }

    /// The player of side `c`.
    pub(super) fn player(&self, c: Color) -> UserId {
        match c {
            Color::White => self.white(),
            Color::Black => self.black(),
        }
    }

    /// The side `user` plays, or [`ServiceError::NotAPlayer`].
    pub(super) fn side_of(&self, user: UserId) -> Result<Color, ServiceError> {
        let id = to_db_id(user.0);
        if id == self.row.white_id {
            Ok(Color::White)
        } else if id == self.row.black_id {
            Ok(Color::Black)
        } else {
            Err(ServiceError::NotAPlayer)
        }
    }

    /// The side whose offer of `kind` stands, if any.
    pub(super) fn offer(&self, kind: OfferKind) -> Option<Color> {
        match kind {
            OfferKind::Draw => self.row.draw_offer,
            OfferKind::Takeback => self.row.takeback_request,
        }
    }

    /// Makes `side`'s offer of `kind` stand (`None`: no offer of that kind stands).
    pub(super) fn set_offer(&mut self, kind: OfferKind, side: Option<Color>) {
        match kind {
            OfferKind::Draw => self.row.draw_offer = side,
            OfferKind::Takeback => self.row.takeback_request = side,
        }
    }

    /// Ends the game with `end` at `now_ms` (Unix milliseconds); standing offers lapse.
    pub(super) fn finish(&mut self, end: GameEnd, now_ms: i64) {
        self.row.state = GameState::Finished;
        self.row.result = Some(end.result);
        self.row.end_reason = Some(end.reason);
        self.row.finished_at = Some(now_ms.div_euclid(1000));
        self.row.draw_offer = None;
        self.row.takeback_request = None;
    }

    fn status(&self) -> Status {
        let pos = self.m.position();
        let end = game_end(&self.row);
        Status {
            turn: pos.turn(),
            to_move: self.player(pos.turn()),
            computer_to_move: end.is_none()
                && self.row.computer.is_some_and(|c| c.side == pos.turn()),
            check: pos.is_check(),
            plies: self.m.moves().len() as u32,
            count: self.m.count(),
            warnings: if end.is_some() {
                Vec::new()
            } else {
                self.m.warnings()
            },
            draw_offer: self.offer(OfferKind::Draw),
            takeback_request: self.offer(OfferKind::Takeback),
            end,
            time_control: self.row.time_control,
            clock: self.clock.status(self.now_ms),
        }
    }

    /// The answer to a request that did `event` (by `actor`, playing `san`).
    pub(super) fn reply(&self, event: Event, actor: Option<UserId>, san: Option<String>) -> Reply {
        // The move just played is the last one, from the position before it.
        let positions = self.m.positions();
        let thai_san = san.as_ref().and_then(|_| {
            let before = positions.len().checked_sub(2).map(|i| &positions[i])?;
            let mv = self.m.moves().last()?;
            Some(makruk::san::to_thai_san(before, mv))
        });
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
            thai_san,
            status: self.status(),
            ratings: self.ratings,
        }
    }
}

/// Replays stored moves (UCI) from `start`, with the counting requests in between (an event
/// at ply `i` happens before move `i`). Moves are replayed with `Game::play_on`, so a game
/// stays readable even if a later rules version ends it earlier.
fn replay(start: Position, moves: &[MoveRow], events: &[CountEventRow]) -> anyhow::Result<Game> {
    let mut game = Game::from_position(start);
    let mut events = events.iter().peekable();
    let mut apply_events = |game: &mut Game, ply: usize| -> anyhow::Result<()> {
        while let Some(e) = events.next_if(|e| usize::try_from(e.ply).is_ok_and(|p| p <= ply)) {
            let done = match e.action {
                CountAction::Start => game.start_count(),
                CountAction::Stop => game.stop_count(),
            };
            done.with_context(|| format!("stored count event {:?} at ply {}", e.action, e.ply))?;
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

/// The stored game `row` replayed: from the cache when it holds the row's version, else by
/// reading its moves and count events on `conn` (the same snapshot as `row`: a transaction)
/// and replaying them. Checks the stored FEN either way.
pub(super) async fn load(
    cache: &GameCache,
    conn: &mut DbConn,
    row: GameRow,
) -> Result<Loaded, ServiceError> {
    if let Some(g) = cached(cache, &row) {
        return Ok(g);
    }
    let moves = store::moves(conn, row.id).await?;
    let events = store::count_events(conn, row.id).await?;
    let start = Position::from_fen(&row.start_fen, row.ruleset)
        .with_context(|| format!("stored game {}: start FEN {:?}", row.id, row.start_fen))?;
    let m = replay(start, &moves, &events)
        .with_context(|| format!("replaying stored game {}", row.id))?;
    let initial = Snapshot::initial(row.time_control);
    let clocks: Vec<Snapshot> = moves
        .iter()
        .map(|mv| mv.clocks.unwrap_or(initial))
        .collect();
    if m.position().fen() != row.fen {
        return Err(anyhow!(
            "stored game {}: FEN {:?} does not match its moves ({:?})",
            row.id,
            row.fen,
            m.position().fen()
        )
        .into());
    }
    cache.put(row.id, row.version, &m, &clocks);
    Ok(Loaded::new(row, m, clocks))
}

/// The stored game `row` from the cache, if it holds the row's version and reaches the row's
/// FEN.
fn cached(cache: &GameCache, row: &GameRow) -> Option<Loaded> {
    let (m, clocks) = cache.get(row.id, row.version)?;
    if m.position().fen() != row.fen || m.ruleset() != row.ruleset {
        return None;
    }
    Some(Loaded::new(row.clone(), m, clocks))
}

/// The active game of `channel`, or why there is none.
pub(super) async fn load_active(
    cache: &GameCache,
    tx: &mut Tx,
    channel: ChannelId,
) -> Result<Loaded, ServiceError> {
    let ch = to_db_id(channel.0);
    match store::active_game(tx, ch).await? {
        Some(row) => load(cache, tx, row).await,
        None => match store::last_game(tx, ch).await? {
            Some(row) => Err(game_over(&row)),
            None => Err(ServiceError::NoGameHere),
        },
    }
}

/// Why nothing can be played in finished game `row`: it is over (on time, if so).
pub(super) fn game_over(row: &GameRow) -> ServiceError {
    let on_time = matches!(
        row.end_reason,
        Some(EndReason::Timeout | EndReason::TimeoutDraw | EndReason::TimeoutAborted)
    );
    if on_time {
        ServiceError::TimedOut(GameId(row.id))
    } else {
        ServiceError::GameOver(GameId(row.id))
    }
}

/// The active game of `channel`, else its last game.
pub(super) async fn load_current_or_last(
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
pub(super) async fn save(
    store: &Store,
    cache: &GameCache,
    g: &mut Loaded,
    now_ms: i64,
) -> Result<(), ServiceError> {
    let id = g.row.id;
    let mut tx = store.begin_write().await?;
    let expected = g.row.version;
    g.row.fen = g.m.position().fen();
    g.row.plies = g.m.moves().len() as i64;
    g.row.updated_at = now_ms.div_euclid(1000);
    g.row.clock = g.clock.stored();
    let moves = g.m.moves();
    let move_row = |i: usize| MoveRow {
        ply: i as i64,
        uci: makruk::uci::to_uci(&moves[i]),
        san: makruk::san::to_san(&g.m.positions()[i], &moves[i]),
        clocks: g.clocks.get(i).copied(),
    };
    // The common case, a move: one query (see `store::append_move`).
    if moves.len() == g.stored_moves + 1 && g.m.events().len() == g.stored_events {
        let mv = move_row(g.stored_moves);
        if !store::append_move(&mut tx, &g.row, expected, &mv).await? {
            return Err(ServiceError::Conflict);
        }
        let ratings = rate_if_ended(&mut tx, g).await?;
        tx.commit().await?;
        g.row.version = expected + 1;
        g.stored_moves = moves.len();
        g.committed_ratings(ratings);
        cache.put(id, g.row.version, &g.m, &g.clocks);
        return Ok(());
    }
    if !store::update_game(&mut tx, &g.row, expected).await? {
        return Err(ServiceError::Conflict);
    }
    if moves.len() < g.stored_moves {
        store::delete_moves_from(&mut tx, id, moves.len() as i64).await?;
    } else {
        for i in g.stored_moves..moves.len() {
            store::insert_move(&mut tx, id, &move_row(i), g.row.updated_at).await?;
        }
    }
    let events = g.m.events();
    if events.len() < g.stored_events {
        store::delete_count_events_from(&mut tx, id, events.len() as i64).await?;
    } else {
        for (seq, e) in events.iter().enumerate().skip(g.stored_events) {
            store::insert_count_event(&mut tx, id, seq as i64, i64::from(e.ply), e.action).await?;
        }
    }
    let ratings = rate_if_ended(&mut tx, g).await?;
    tx.commit().await?;
    g.row.version = expected + 1;
    g.committed_ratings(ratings);
    g.stored_moves = g.m.moves().len();
    g.stored_events = g.m.events().len();
    cache.put(id, g.row.version, &g.m, &g.clocks);
    Ok(())
}

/// The ratings of a game this save ends (it was being played as stored, it is finished now),
/// applied in the save's transaction `tx`: under the version check, so exactly once.
async fn rate_if_ended(tx: &mut Tx, g: &Loaded) -> Result<Option<GameRatings>, ServiceError> {
    if g.stored_active && g.row.state == GameState::Finished {
        Ok(super::ratings::rate_game(tx, &g.row).await?)
    } else {
        Ok(None)
    }
}

impl Loaded {
    /// After the commit of a save: the ratings it applied (if it ended a rated game).
    fn committed_ratings(&mut self, ratings: Option<GameRatings>) {
        if self.row.state == GameState::Finished {
            self.stored_active = false;
        }
        if ratings.is_some() {
            self.ratings = ratings;
        }
    }
}

impl GameService {
    /// Runs `f` on the channel's active game for player `user` (with their side and the time,
    /// Unix milliseconds) and stores the result. Optimistic: the game is read and `f` runs
    /// outside the write lock; the write applies only if the game's version is still the one
    /// read, else the request starts again from a fresh read (at most [`MAX_ATTEMPTS`] times,
    /// then [`ServiceError::Conflict`]). So of two simultaneous requests one applies and the
    /// other is judged on the new state (e.g. a double-click's second move gets `NotYourTurn`).
    ///
    /// The clock first: when the side to move's time has run out, the game ends on time
    /// instead of running `f` (announced, [`Announcement::TimedOut`]) and the request gets
    /// [`ServiceError::TimedOut`]. A flag from the scheduler at the same moment is one more
    /// versioned write: exactly one of the two applies. After the commit the scheduler is
    /// re-armed from the new clock.
    pub(super) async fn with_game<T>(
        &self,
        channel: ChannelId,
        user: UserId,
        f: impl FnMut(&mut Loaded, Color, i64) -> Result<T, ServiceError>,
    ) -> Result<(Loaded, T), ServiceError> {
        self.with_game_as(channel, |g| g.side_of(user), f).await
    }

    /// [`GameService::with_game`] for the side `side_of` finds in the game read (a player's, or
    /// the computer's). After the commit, a game left on the computer's turn is handed out
    /// ([`GameService::computer_turns`]).
    pub(super) async fn with_game_as<T>(
        &self,
        channel: ChannelId,
        side_of: impl Fn(&Loaded) -> Result<Color, ServiceError>,
        mut f: impl FnMut(&mut Loaded, Color, i64) -> Result<T, ServiceError>,
    ) -> Result<(Loaded, T), ServiceError> {
        for _ in 0..MAX_ATTEMPTS {
            let now_ms = self.now_ms();
            let mut g = self.load_active_to_change(channel).await?;
            g.now_ms = now_ms;
            if g.clock.is_out_of_time(now_ms) {
                g.flag(now_ms);
                match save(&self.store, &self.cache, &mut g, now_ms).await {
                    Ok(()) => {
                        self.changed(&g);
                        self.announce(Announcement::TimedOut {
                            channel,
                            reply: g.reply(Event::TimedOut, None, None),
                            locale: self.announcement_locale(GameId(g.row.id)).await,
                        });
                        return Err(ServiceError::TimedOut(GameId(g.row.id)));
                    }
                    Err(ServiceError::Conflict) => continue,
                    Err(e) => return Err(e),
                }
            }
            let side = side_of(&g)?;
            let out = f(&mut g, side, now_ms)?;
            match save(&self.store, &self.cache, &mut g, now_ms).await {
                Ok(()) => {
                    self.changed(&g);
                    self.notify_computer_turn(&g);
                    return Ok((g, out));
                }
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
    pub(super) async fn game_action(
        &self,
        channel: ChannelId,
        user: UserId,
        event: Event,
        f: impl FnMut(&mut Loaded, Color, i64) -> Result<(), ServiceError>,
    ) -> Result<Reply, ServiceError> {
        let (g, ()) = self.with_game(channel, user, f).await?;
        Ok(g.reply(event, Some(user), None))
    }
}
