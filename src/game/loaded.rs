//! [`Loaded`]: a game read from the store and replayed, and the game's pure steps on it (a
//! move, the offers lapsing with it, an offer accepted or declined, a takeback against the
//! computer, a count started or stopped, a flag falling, the game ending). No database and no
//! clock of the service here: the request files (`play`, `offers`, `count`, `computer`) load a
//! game, call one of these steps and save it; the steps are unit-tested on a game built in
//! memory.

use anyhow::anyhow;
use makruk::{Color, CountKind, DrawReason, Game, Move, Outcome, WinReason};

use super::{
    ChannelId, EndReason, Event, GameEnd, OfferKind, Reply, Ruleset, ServiceError, Status, UserId,
};
use crate::clock::{ClockState, FlagOutcome, Snapshot};
use crate::store::{GameRow, GameState};
use crate::types::{GameRatings, GameResult};

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
    /// Moves and count events as stored when read (for `save` to write only the difference).
    pub(super) stored_moves: usize,
    pub(super) stored_events: usize,
    /// The stored row is still being played: a save that finishes it rates it.
    pub(super) stored_active: bool,
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

    /// Stored game `row` replayed as `m`, with the clocks stored with its moves.
    pub(super) fn new(row: GameRow, m: Game, clocks: Vec<Snapshot>) -> Loaded {
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

    /// The channel the game is played in.
    pub(super) fn channel(&self) -> ChannelId {
        self.row.channel_id
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
        self.row.white_id
    }

    pub(super) fn black(&self) -> UserId {
        self.row.black_id
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
        if user == self.row.white_id {
            Ok(Color::White)
        } else if user == self.row.black_id {
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

    /// `side` (to move) plays the legal move `mv` at `now_ms`: the clock charges the mover,
    /// offers lapse ([`Loaded::lapse_on_move`]), the game ends when the rules say it is over.
    /// Returns the move's SAN. A human's move and the computer's both come here.
    ///
    /// # Errors
    /// `Internal` when the clock or the rules refuse the move (the caller checked it: a bug).
    pub(super) fn apply_move(
        &mut self,
        side: Color,
        mv: &Move,
        now_ms: i64,
    ) -> Result<String, ServiceError> {
        let san = makruk::san::to_san(self.m.position(), mv);
        // `with_game` has ended the game instead if the mover's flag had fallen.
        self.clock
            .on_move(now_ms)
            .map_err(|e| anyhow!("the clock refused a move in time: {e}"))?;
        self.m
            .play(mv)
            .map_err(|e| anyhow!("a move checked as legal was refused: {e}"))?;
        self.clocks.push(self.clock.snapshot());
        self.lapse_on_move(side);
        if let Some(outcome) = self.m.outcome() {
            self.finish(rules_end(outcome), now_ms);
        }
        Ok(san)
    }

    /// True when the last ply on the board is `side`'s (what a takeback undoes).
    pub(super) fn last_ply_is(&self, side: Color) -> bool {
        !self.m.moves().is_empty() && self.m.position().turn() != side
    }

    /// `traditional`: a running board's-honour count is a standing draw offer of the counting
    /// side (docs/RULES.md, "Ruleset `traditional`"); it does not lapse with the opponent's
    /// moves.
    pub(super) fn count_offer_stands(&self, offerer: Color) -> bool {
        self.m.ruleset() == Ruleset::Traditional
            && self
                .m
                .count()
                .is_some_and(|c| c.kind == CountKind::BoardsHonour && c.counting == offerer)
    }

    /// What a move by `mover` does to the offers: the opponent's draw offer lapses (unless it
    /// is a running count, see [`Loaded::count_offer_stands`]), and a takeback request lapses
    /// whoever made it.
    fn lapse_on_move(&mut self, mover: Color) {
        let opponent = mover.other();
        if self.offer(OfferKind::Draw) == Some(opponent) && !self.count_offer_stands(opponent) {
            self.set_offer(OfferKind::Draw, None);
        }
        self.set_offer(OfferKind::Takeback, None);
    }

    /// Undoes the last ply at `now_ms`, the clocks given back as lichess does: both as when
    /// the taken-back ply's turn started, that turn starting again now (see
    /// `crate::clock::state`).
    fn undo_ply(&mut self, now_ms: i64) -> Result<(), ServiceError> {
        let before = self.clocks_before_last_ply();
        self.clock
            .take_back(before, now_ms)
            .map_err(|e| anyhow!("the clock refused a takeback in time: {e}"))?;
        self.m.undo();
        self.clocks.pop();
        Ok(())
    }

    /// `side` offers a draw or asks to take back its last ply, at `now_ms`; if the opponent's
    /// offer of the same kind stands, this accepts it. Returns [`Event::Offered`] or
    /// [`Event::OfferAccepted`].
    ///
    /// # Errors
    /// [`ServiceError::NothingToTakeBack`] (a takeback, the last ply not `side`'s),
    /// [`ServiceError::AlreadyOffered`].
    pub(super) fn make_offer(
        &mut self,
        kind: OfferKind,
        side: Color,
        now_ms: i64,
    ) -> Result<Event, ServiceError> {
        if kind == OfferKind::Takeback && !self.last_ply_is(side) {
            return Err(ServiceError::NothingToTakeBack);
        }
        match self.offer(kind) {
            Some(c) if c == side => Err(ServiceError::AlreadyOffered(kind)),
            Some(_) => {
                self.accept(kind, side, now_ms)?;
                Ok(Event::OfferAccepted(kind))
            }
            None => {
                self.set_offer(kind, Some(side));
                Ok(Event::Offered(kind))
            }
        }
    }

    /// `side` accepts the opponent's standing offer of `kind` at `now_ms`: a draw by
    /// agreement, or the opponent's last ply undone.
    ///
    /// # Errors
    /// [`ServiceError::NoOffer`] (none stands, or the last ply is no longer the offerer's).
    pub(super) fn accept(
        &mut self,
        kind: OfferKind,
        side: Color,
        now_ms: i64,
    ) -> Result<(), ServiceError> {
        let offerer = side.other();
        if self.offer(kind) != Some(offerer) {
            return Err(ServiceError::NoOffer(kind));
        }
        match kind {
            OfferKind::Draw => self.finish(
                GameEnd {
                    result: GameResult::Draw,
                    reason: EndReason::Agreement,
                },
                now_ms,
            ),
            OfferKind::Takeback => {
                if !self.last_ply_is(offerer) {
                    return Err(ServiceError::NoOffer(kind));
                }
                self.undo_ply(now_ms)?;
                self.set_offer(kind, None);
            }
        }
        Ok(())
    }

    /// `side` declines the opponent's standing offer of `kind`.
    ///
    /// # Errors
    /// [`ServiceError::NoOffer`].
    pub(super) fn decline(&mut self, kind: OfferKind, side: Color) -> Result<(), ServiceError> {
        if self.offer(kind) != Some(side.other()) {
            return Err(ServiceError::NoOffer(kind));
        }
        self.set_offer(kind, None);
        Ok(())
    }

    /// A takeback in a game against the computer, asked by `human` at `now_ms`: undoes the
    /// human's last move and the computer's reply to it, if made, so that it is the human's
    /// turn again, and gives the clocks back as for a takeback between people (ply by ply).
    /// Standing offers lapse (a running count's offer stays while its count runs).
    ///
    /// # Errors
    /// [`ServiceError::NothingToTakeBack`] (the human has no move on the board).
    pub(super) fn take_back_from_computer(
        &mut self,
        human: Color,
        now_ms: i64,
    ) -> Result<(), ServiceError> {
        let plies = if self.m.position().turn() == human {
            2
        } else {
            1
        };
        if self.m.moves().len() < plies {
            return Err(ServiceError::NothingToTakeBack);
        }
        for _ in 0..plies {
            self.undo_ply(now_ms)?;
        }
        self.set_offer(OfferKind::Takeback, None);
        if let Some(side) = self.offer(OfferKind::Draw) {
            if !self.count_offer_stands(side) {
                self.set_offer(OfferKind::Draw, None);
            }
        }
        Ok(())
    }

    /// `traditional`: `side` starts (`start`, on its turn) or stops its board's-honour count.
    /// A running count is the counting side's standing draw offer. A player's request and the
    /// computer's both come here.
    ///
    /// # Errors
    /// [`ServiceError::NotTraditional`], [`ServiceError::NotYourTurn`] (a start off turn),
    /// [`ServiceError::Count`] (the rules refuse it now), [`ServiceError::NotYourCount`] (a
    /// stop of the opponent's count).
    pub(super) fn apply_count(&mut self, side: Color, start: bool) -> Result<(), ServiceError> {
        if self.m.ruleset() != Ruleset::Traditional {
            return Err(ServiceError::NotTraditional);
        }
        if start {
            if self.m.position().turn() != side {
                return Err(ServiceError::NotYourTurn);
            }
            self.m.start_count().map_err(ServiceError::Count)?;
        } else {
            // The count belongs to the side that started it; only that side stops it. Stopped
            // on a copy, so that a refusal leaves the game as it was.
            let mut stopped = self.m.clone();
            stopped.stop_count().map_err(ServiceError::Count)?;
            if stopped.events().last().is_some_and(|e| e.by != side) {
                return Err(ServiceError::NotYourCount);
            }
            self.m = stopped;
        }
        if start {
            self.set_offer(OfferKind::Draw, Some(side));
        } else if self.offer(OfferKind::Draw) == Some(side) {
            self.set_offer(OfferKind::Draw, None);
        }
        Ok(())
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
            game_id: self.row.id,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::TimeControl;
    use crate::types::{ComputerLevel, ComputerSeat, GameId};
    use makruk::Position;

    const T0: i64 = 1_800_000_000_000;
    const WHITE: UserId = UserId(1);
    const BLACK: UserId = UserId(2);

    /// A game of White (user 1) and Black (user 2) from `fen`, as just started at `T0`.
    fn game(fen: &str, ruleset: Ruleset) -> Loaded {
        let start = Position::from_fen(fen, ruleset).expect("FEN");
        let time_control = TimeControl::DEFAULT;
        let row = GameRow {
            id: GameId(7),
            channel_id: ChannelId(70),
            white_id: WHITE,
            black_id: BLACK,
            ruleset,
            variant: makruk::Variant::Makruk,
            start_fen: start.fen(),
            fen: start.fen(),
            plies: 0,
            state: GameState::Active,
            result: None,
            end_reason: None,
            draw_offer: None,
            takeback_request: None,
            version: 1,
            created_at: T0 / 1000,
            updated_at: T0 / 1000,
            finished_at: None,
            computer: None,
            time_control,
            clock: ClockState::new(time_control, start.turn(), T0).stored(),
            guild_id: None,
            rated: false,
            downtimes_applied: 0,
        };
        Loaded::started(row, Game::from_position(start), T0)
    }

    fn standard() -> Loaded {
        game(&Position::start(Ruleset::Standard).fen(), Ruleset::Standard)
    }

    /// Plays `uci` for the side to move, a second after `T0` per ply already played.
    fn play(g: &mut Loaded, uci: &str) -> String {
        let side = g.m.position().turn();
        let mv = makruk::parse_move(g.m.position(), uci).expect("a legal move");
        let now = T0 + 1000 * (g.m.moves().len() as i64 + 1);
        g.apply_move(side, &mv, now).expect("played")
    }

    #[test]
    fn a_move_is_played_clocked_and_lapses_the_offers_it_should() {
        let mut g = standard();
        assert!(matches!(
            g.make_offer(OfferKind::Draw, Color::Black, T0),
            Ok(Event::Offered(OfferKind::Draw))
        ));
        g.set_offer(OfferKind::Takeback, Some(Color::Black));
        let san = play(&mut g, "e3e4");
        assert_eq!(san, "e4");
        assert_eq!(g.m.moves().len(), 1);
        assert_eq!(g.clocks.len(), 1, "one clock snapshot per move");
        assert_eq!(
            g.offer(OfferKind::Draw),
            None,
            "the opponent's draw offer lapses"
        );
        assert_eq!(
            g.offer(OfferKind::Takeback),
            None,
            "a takeback request lapses"
        );
        assert_eq!(g.row.state, GameState::Active);
        // The mover's own draw offer stands through its move.
        g.set_offer(OfferKind::Draw, Some(Color::Black));
        play(&mut g, "e6e5");
        assert_eq!(g.offer(OfferKind::Draw), Some(Color::Black));
    }

    #[test]
    fn offers_are_made_once_and_accepted_by_the_opponent() {
        let mut g = standard();
        assert!(matches!(
            g.make_offer(OfferKind::Draw, Color::White, T0),
            Ok(Event::Offered(OfferKind::Draw))
        ));
        assert!(matches!(
            g.make_offer(OfferKind::Draw, Color::White, T0),
            Err(ServiceError::AlreadyOffered(OfferKind::Draw))
        ));
        assert!(matches!(
            g.decline(OfferKind::Draw, Color::White),
            Err(ServiceError::NoOffer(OfferKind::Draw))
        ));
        // The opponent's own offer accepts the standing one.
        assert!(matches!(
            g.make_offer(OfferKind::Draw, Color::Black, T0),
            Ok(Event::OfferAccepted(OfferKind::Draw))
        ));
        assert_eq!(g.row.state, GameState::Finished);
        assert_eq!(
            game_end(&g.row),
            Some(GameEnd {
                result: GameResult::Draw,
                reason: EndReason::Agreement
            })
        );
        assert_eq!(g.row.finished_at, Some(T0 / 1000));
    }

    #[test]
    fn a_takeback_undoes_the_offerers_last_ply_and_its_clock() {
        let mut g = standard();
        assert!(matches!(
            g.make_offer(OfferKind::Takeback, Color::White, T0),
            Err(ServiceError::NothingToTakeBack)
        ));
        play(&mut g, "e3e4");
        assert!(matches!(
            g.make_offer(OfferKind::Takeback, Color::Black, T0),
            Err(ServiceError::NothingToTakeBack)
        ));
        assert!(matches!(
            g.make_offer(OfferKind::Takeback, Color::White, T0 + 2000),
            Ok(Event::Offered(OfferKind::Takeback))
        ));
        g.accept(OfferKind::Takeback, Color::Black, T0 + 3000)
            .expect("accepted");
        assert!(g.m.moves().is_empty());
        assert!(g.clocks.is_empty());
        assert_eq!(g.m.position().turn(), Color::White);
        assert_eq!(g.offer(OfferKind::Takeback), None);
        assert!(matches!(
            g.accept(OfferKind::Takeback, Color::Black, T0 + 3000),
            Err(ServiceError::NoOffer(OfferKind::Takeback))
        ));
    }

    #[test]
    fn a_takeback_against_the_computer_gives_the_human_the_turn_again() {
        let mut g = standard();
        g.row.computer = Some(ComputerSeat {
            side: Color::Black,
            level: ComputerLevel::DEFAULT,
        });
        assert!(matches!(
            g.take_back_from_computer(Color::White, T0),
            Err(ServiceError::NothingToTakeBack)
        ));
        play(&mut g, "e3e4");
        // The computer has not replied yet: one ply.
        g.take_back_from_computer(Color::White, T0 + 2000)
            .expect("taken back");
        assert!(g.m.moves().is_empty());
        play(&mut g, "e3e4");
        play(&mut g, "e6e5");
        g.set_offer(OfferKind::Draw, Some(Color::White));
        // The computer replied: both plies, and the standing offer lapses.
        g.take_back_from_computer(Color::White, T0 + 5000)
            .expect("taken back");
        assert!(g.m.moves().is_empty());
        assert!(g.clocks.is_empty());
        assert_eq!(g.m.position().turn(), Color::White);
        assert_eq!(g.offer(OfferKind::Draw), None);
    }

    #[test]
    fn a_count_is_a_standing_draw_offer_of_the_counting_side() {
        assert!(matches!(
            standard().apply_count(Color::White, true),
            Err(ServiceError::NotTraditional)
        ));
        // No Bia left, Khun and two Ruea against Khun and Met: the side to move may count
        // board's honour.
        let mut g = game("4k3/3m4/8/8/8/8/8/RR2K3 w - - 0 30", Ruleset::Traditional);
        assert!(matches!(
            g.apply_count(Color::Black, true),
            Err(ServiceError::NotYourTurn)
        ));
        g.apply_count(Color::White, true).expect("count started");
        assert_eq!(g.offer(OfferKind::Draw), Some(Color::White));
        assert!(g.count_offer_stands(Color::White));
        play(&mut g, "a1a2");
        play(&mut g, "e8f8");
        assert_eq!(
            g.offer(OfferKind::Draw),
            Some(Color::White),
            "the count's offer does not lapse with the opponent's move"
        );
        assert!(matches!(
            g.apply_count(Color::Black, false),
            Err(ServiceError::NotYourCount)
        ));
        assert!(
            g.m.count().is_some(),
            "a refused stop leaves the count running"
        );
        g.apply_count(Color::White, false).expect("count stopped");
        assert!(g.m.count().is_none());
        assert_eq!(g.offer(OfferKind::Draw), None);
    }

    #[test]
    fn a_fallen_flag_ends_the_game_on_time() {
        let mut g = standard();
        play(&mut g, "e3e4");
        play(&mut g, "e6e5");
        // White, to move, let its three days run out.
        let late = T0 + 4 * 24 * 3600 * 1000;
        assert!(g.clock.is_out_of_time(late));
        g.flag(late);
        assert_eq!(
            game_end(&g.row),
            Some(GameEnd {
                result: GameResult::win_for(Color::Black),
                reason: EndReason::Timeout
            })
        );
        assert_eq!(
            g.reply(Event::TimedOut, None, None).status.end,
            game_end(&g.row)
        );
    }
}
