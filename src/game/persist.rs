//! Reading a game and writing it back: rows decoded, stored moves replayed (or taken from the
//! [`GameCache`]), the difference written under the version check, and the optimistic retry
//! loop that every request on a game goes through ([`GameService::with_game`]), which also runs
//! the game's clock: a request arriving after the side to move's flag fell ends the game on
//! time instead (in the same versioned write as any change).

use anyhow::{anyhow, bail, Context as _};
use makruk::{Color, CountAction, Game, Position};

use super::cache::GameCache;
use super::loaded::Loaded;
use super::{Announcement, ChannelId, EndReason, Event, GameService, Reply, ServiceError, UserId};
use crate::clock::{ClockState, Snapshot};
use crate::store::{self, CountEventRow, DbConn, GameRow, GameState, MoveRow, Store, Tx};
use crate::types::GameRatings;

/// How often a request on a game is tried when another request changed the game meanwhile.
const MAX_ATTEMPTS: usize = 3;

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
    let start = start_position(&row)
        .with_context(|| format!("stored game {}: start FEN {:?}", row.id.0, row.start_fen))?;
    let m = replay(start, &moves, &events)
        .with_context(|| format!("replaying stored game {}", row.id.0))?;
    let initial = Snapshot::initial(row.time_control);
    let clocks: Vec<Snapshot> = moves
        .iter()
        .map(|mv| mv.clocks.unwrap_or(initial))
        .collect();
    if m.position().fen() != row.fen {
        return Err(anyhow!(
            "stored game {}: FEN {:?} does not match its moves ({:?})",
            row.id.0,
            row.fen,
            m.position().fen()
        )
        .into());
    }
    cache.put(row.id.0, row.version, &m, &clocks);
    Ok(Loaded::new(row, m, clocks))
}

/// The start position of stored game `row`: its start FEN read in its variant (a Makruk game
/// under its ruleset; the other variants under their own rules).
fn start_position(row: &GameRow) -> Result<Position, makruk::FenError> {
    if row.variant == makruk::Variant::Makruk {
        Position::from_fen(&row.start_fen, row.ruleset)
    } else {
        Position::from_fen_variant(&row.start_fen, row.variant)
    }
}

/// The stored game `row` from the cache, if it holds the row's version and reaches the row's
/// FEN.
fn cached(cache: &GameCache, row: &GameRow) -> Option<Loaded> {
    let (m, clocks) = cache.get(row.id.0, row.version)?;
    if m.position().fen() != row.fen
        || m.ruleset() != row.ruleset
        || m.position().variant() != row.variant
    {
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
    let ch = channel;
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
        ServiceError::TimedOut(row.id)
    } else {
        ServiceError::GameOver(row.id)
    }
}

/// The active game of `channel`, else its last game or the last game of one of its threads.
pub(super) async fn load_current_or_last(
    cache: &GameCache,
    tx: &mut Tx,
    channel: ChannelId,
) -> Result<Loaded, ServiceError> {
    let ch = channel;
    match store::active_game(tx, ch).await? {
        Some(row) => load(cache, tx, row).await,
        // The channel's lists include the games of its threads.
        None => match store::last_game_of_channel(tx, ch).await? {
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
        uci: makruk::uci::to_uci_in(&moves[i], g.m.start().variant()),
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
        cache.put(id.0, g.row.version, &g.m, &g.clocks);
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
    cache.put(id.0, g.row.version, &g.m, &g.clocks);
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
                match self.time_out(&mut g, now_ms).await {
                    Ok(()) => return Err(ServiceError::TimedOut(g.row.id)),
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

    /// The side to move's flag fell at `now_ms`: ends `g` on time ([`Loaded::flag`]), saves it
    /// under the version check, cancels its clock's entries ([`GameService::changed`]) and
    /// announces it ([`Announcement::TimedOut`]). The one path of a flag: for a request that
    /// finds it fallen ([`GameService::with_game_as`]) and for the scheduler
    /// (`clocks::try_due`).
    ///
    /// # Errors
    /// [`ServiceError::Conflict`] (the game changed since it was read: nothing written),
    /// database errors.
    pub(super) async fn time_out(&self, g: &mut Loaded, now_ms: i64) -> Result<(), ServiceError> {
        g.flag(now_ms);
        save(&self.store, &self.cache, g, now_ms).await?;
        self.changed(g);
        self.announce(Announcement::TimedOut {
            channel: g.channel(),
            reply: g.reply(Event::TimedOut, None, None),
            locale: self.announcement_locale(g.row.id).await,
        });
        Ok(())
    }

    /// The active game of `channel` for a change: its row in one statement, the replayed game
    /// from the cache when it holds the row's version; else the whole game read in one read
    /// transaction and replayed.
    async fn load_active_to_change(&self, channel: ChannelId) -> Result<Loaded, ServiceError> {
        let mut conn = self.store.read_conn().await?;
        if let Some(row) = store::active_game(&mut conn, channel).await? {
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
