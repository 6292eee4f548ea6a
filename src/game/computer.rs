//! Games against the computer: starting one, the computer's moves and count requests (through
//! the same path as a human's: [`GameService::with_game_as`], the same version check, the same
//! storage), its answer to a draw offer, and takebacks granted at once.
//!
//! The computer plays as the bot's own user: the caller gives that user id (the Discord adapter
//! has it from READY), and the game row stores it as the player of the computer's side, with
//! the side and level in `computer_side` / `computer_level` (migration `0003_computer.sql`).
//! The service does not think: after every committed change that leaves the computer to move it
//! hands out a [`ComputerTurn`] ([`GameService::computer_turns`]); whoever thinks (the bot's
//! driver, `crate::computer::driver`) answers with [`GameService::computer_move`]. A draw offer
//! to the computer is answered at once by the [`DrawJudge`] given with
//! [`GameService::with_draw_judge`].

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};

use anyhow::anyhow;
use makruk::{Color, CountAction, Game, Move, Ruleset};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

use super::challenges::NewGame;
use super::loaded::Loaded;
use super::threads::Place;
use super::{
    Announcement, ChannelId, ColorChoice, ComputerLevel, ComputerSeat, Event, GameId, GameService,
    Ladder, OfferKind, Reply, ServiceError, Terms, UserId,
};
use crate::clock::ClockState;
use crate::store::{self, GameState};
/// It is the computer's turn: what it needs to think, and the game version its move must be
/// made on (a move for an older version does nothing, see [`GameService::computer_move`]).
#[derive(Clone, Debug)]
pub struct ComputerTurn {
    /// Where the game is played.
    pub channel: ChannelId,
    pub game_id: GameId,
    /// The game's version when it became the computer's turn.
    pub version: i64,
    /// The computer's side (the side to move) and level.
    pub seat: ComputerSeat,
    /// The game so far (history included: repetitions and counting depend on it).
    pub game: Game,
    /// The game's clock as of the start of this turn: the computer runs on it like a person
    /// ([`ClockState::engine_budget`]) and can lose on time.
    pub clock: ClockState,
}

/// A boxed future of a [`DrawJudge`]'s answer.
pub type JudgeFuture = Pin<Box<dyn Future<Output = bool> + Send>>;

/// Decides whether the computer accepts a draw offered by its opponent.
pub trait DrawJudge: Send + Sync + 'static {
    /// Whether the computer, playing `seat` in `game` (either side may be to move), accepts its
    /// opponent's draw offer. Must not block the caller: think elsewhere.
    fn accepts_draw(&self, game: Game, seat: ComputerSeat) -> JudgeFuture;
}

/// The sending end of the [`ComputerTurn`]s, shared by the service's clones, and the receiving
/// end until it is taken.
pub(super) struct TurnQueue {
    pub(super) tx: UnboundedSender<ComputerTurn>,
    rx: Mutex<Option<UnboundedReceiver<ComputerTurn>>>,
}

impl Default for TurnQueue {
    fn default() -> Self {
        let (tx, rx) = unbounded_channel();
        TurnQueue {
            tx,
            rx: Mutex::new(Some(rx)),
        }
    }
}

/// The computer's turn in `g`, if the game is active, has a computer and it is to move.
pub(super) fn computer_turn(g: &Loaded) -> Option<ComputerTurn> {
    let seat = g.row.computer?;
    let to_move = g.row.state == GameState::Active
        && g.m.position().turn() == seat.side
        && g.m.position().has_legal_move();
    to_move.then(|| ComputerTurn {
        channel: g.channel(),
        game_id: g.row.id,
        version: g.row.version,
        seat,
        game: g.m.clone(),
        clock: g.clock,
    })
}

/// The computer's side in `g` (the side [`GameService::with_game_as`] acts for), or
/// [`ServiceError::NotAPlayer`] in a game between people.
fn computer_side(g: &Loaded) -> Result<Color, ServiceError> {
    g.row
        .computer
        .map(|c| c.side)
        .ok_or(ServiceError::NotAPlayer)
}

impl GameService {
    /// The same service with `judge` answering draw offers to the computer (without one the
    /// computer declines every offer).
    #[must_use]
    pub fn with_draw_judge(mut self, judge: Arc<dyn DrawJudge>) -> GameService {
        self.judge = Some(judge);
        self
    }

    /// The stream of [`ComputerTurn`]s, in commit order: one after every committed change that
    /// leaves the computer to move (a human's move, a start with the computer as White, a
    /// takeback while the computer was thinking, any other change on its turn). The first call
    /// gets it; later calls get `None` (one thinker per service).
    #[must_use]
    pub fn computer_turns(&self) -> Option<UnboundedReceiver<ComputerTurn>> {
        self.turns
            .rx
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }

    /// Hands out the computer's turn in `g`, if it is one (call after `g` was committed).
    pub(super) fn notify_computer_turn(&self, g: &Loaded) {
        if let Some(turn) = computer_turn(g) {
            // Fails only when the receiver was taken and dropped: nobody thinks any more.
            let _ = self.turns.tx.send(turn);
        }
    }

    /// Every active game in which it is the computer's turn (at start-up: the bot may have
    /// stopped while the computer was thinking).
    ///
    /// # Errors
    /// `Internal` (database, a corrupt stored game).
    pub async fn pending_computer_turns(&self) -> Result<Vec<ComputerTurn>, ServiceError> {
        let mut tx = self.store.begin_read().await?;
        let rows = store::active_computer_games(&mut tx).await?;
        let mut turns = Vec::new();
        for row in rows {
            let g = super::persist::load(&self.cache, &mut tx, row).await?;
            turns.extend(computer_turn(&g));
        }
        tx.commit().await?;
        Ok(turns)
    }

    /// `human` starts a game against the computer at `place` (in its thread if one was opened;
    /// a bare [`ChannelId`] is a place), on `terms` (colour, random: drawn now; ruleset; time
    /// control; the server, for the game's locale [`GameService::game_locale`]: the game stays
    /// unrated; `terms.thread` is for challenges and not read here). The computer plays as user
    /// `computer` (the bot's own user) at `level`. When the computer has White, its first turn
    /// is handed out at once ([`GameService::computer_turns`]). Whether Fairy-Stockfish is
    /// installed is the caller's to check.
    ///
    /// # Errors
    /// [`ServiceError::FairyStockfishRules`] (Fairy-Stockfish under another ruleset than
    /// `standard`), [`ServiceError::VariantRuleset`] (a ruleset in a variant other than Makruk), [`ServiceError::ChallengeSelf`] (`human` is the computer),
    /// [`ServiceError::ChannelBusy`] (the one active game per channel),
    /// [`ServiceError::ChallengePending`] (a challenge between people waits for its answer
    /// here), `Conflict`, `Internal`.
    #[tracing::instrument(skip(self, place))]
    pub async fn play_computer(
        &self,
        place: impl Into<Place>,
        human: UserId,
        computer: UserId,
        level: ComputerLevel,
        terms: Terms,
    ) -> Result<Reply, ServiceError> {
        let place = place.into();
        Self::check_variant_ruleset(terms.variant, terms.ruleset)?;
        Self::check_computer_terms(level, terms.ruleset)?;
        let channel = place.game_channel();
        if human == computer {
            return Err(ServiceError::ChallengeSelf);
        }
        let human_white = match terms.color {
            ColorChoice::White => true,
            ColorChoice::Black => false,
            ColorChoice::Random => rand::random_bool(0.5),
        };
        let (white, black) = if human_white {
            (human, computer)
        } else {
            (computer, human)
        };
        let seat = ComputerSeat {
            side: if human_white {
                Color::Black
            } else {
                Color::White
            },
            level,
        };
        let now_ms = self.now_ms();
        let now = now_ms.div_euclid(1000);
        let ch = channel;
        let mut tx = self.store.begin_write().await?;
        store::lock_channel(&mut tx, ch).await?;
        if let Some(g) = store::active_game(&mut tx, ch).await? {
            return Err(ServiceError::ChannelBusy(g.id));
        }
        store::expire_challenges(&mut tx, ch, now).await?;
        if let Some(c) = store::open_challenge(&mut tx, ch).await? {
            return Err(ServiceError::ChallengePending(c.id));
        }
        let new = NewGame {
            channel,
            white,
            black,
            ruleset: terms.ruleset,
            variant: terms.variant,
            computer: Some(seat),
            time_control: terms.time_control,
            // Games against the computer are unrated.
            ladder: Ladder {
                guild: terms.ladder.guild,
                rated: false,
            },
        };
        let g = self.insert_new_game(&mut tx, new, now_ms).await?;
        if let Some(t) = place.thread {
            super::challenges::set_parent(&mut tx, g.row.id, t).await?;
        }
        tx.commit().await?;
        self.started(&g);
        self.notify_computer_turn(&g);
        Ok(g.reply(Event::Started, Some(human), None))
    }

    /// Whether the computer plays at `level` under `ruleset` (what [`GameService::play_computer`]
    /// checks first, for a caller with work to do before it: opening a thread).
    ///
    /// # Errors
    /// [`ServiceError::FairyStockfishRules`].
    pub fn check_computer_terms(
        level: ComputerLevel,
        ruleset: Ruleset,
    ) -> Result<(), ServiceError> {
        if level.plays(ruleset) {
            Ok(())
        } else {
            Err(ServiceError::FairyStockfishRules)
        }
    }

    /// The computer plays `mv` in the game of `turn`, first starting or stopping its
    /// board's-honour count if `count` says so (`traditional`). The same path as a human's
    /// move: one transaction under the version check, the same rows written, the game ended
    /// when the rules say so. Applies only if the game is still at `turn.version` (otherwise
    /// nothing is written: [`ServiceError::Stale`]). After the commit the move is announced
    /// ([`Announcement::Move`]) and returned.
    ///
    /// # Errors
    /// [`ServiceError::Stale`] (the game changed since the turn was handed out, or is over),
    /// `NotAPlayer` (no computer in the channel's game), [`ServiceError::Count`] (the rules
    /// refuse the count request), `Conflict`, `Internal` (a move that is not legal here).
    #[tracing::instrument(skip(self, turn), fields(game = turn.game_id.0, version = turn.version))]
    pub async fn computer_move(
        &self,
        turn: &ComputerTurn,
        mv: Move,
        count: Option<CountAction>,
    ) -> Result<Reply, ServiceError> {
        let (g, san) = self
            .with_game_as(turn.channel, computer_side, |g, side, now| {
                if g.row.id != turn.game_id || g.row.version != turn.version {
                    return Err(ServiceError::Stale);
                }
                if g.m.position().turn() != side {
                    return Err(ServiceError::Stale);
                }
                if let Some(action) = count {
                    g.apply_count(side, action == CountAction::Start)?;
                }
                if !g.m.position().is_legal(&mv) {
                    let uci = makruk::uci::to_uci_in(&mv, g.m.start().variant());
                    return Err(anyhow!("the computer's move {uci} is not legal here").into());
                }
                g.apply_move(side, &mv, now)
            })
            .await
            .map_err(|e| match e {
                // The game ended (or another began) since the turn was handed out.
                ServiceError::GameOver(_) | ServiceError::NoGameHere => ServiceError::Stale,
                e => e,
            })?;
        let reply = g.reply(
            Event::Moved,
            Some(g.player(g.m.position().turn().other())),
            Some(san),
        );
        self.announce(Announcement::Move {
            channel: turn.channel,
            reply: reply.clone(),
            locale: self.announcement_locale(turn.game_id).await,
        });
        Ok(reply)
    }

    /// The computer answers the draw offer standing in `offered` (just committed by its
    /// opponent): accepts it when the [`DrawJudge`] says so, declines it otherwise, through the
    /// same path as a player's answer. Returns the answer; the offer unanswered when the game
    /// has no computer or changed while the judge thought.
    pub(super) async fn computer_answers_draw(
        &self,
        channel: ChannelId,
        offered: Loaded,
    ) -> Result<Reply, ServiceError> {
        self.computer_judges_draw(channel, offered, Event::Offered(OfferKind::Draw), true)
            .await
    }

    /// The computer judges the draw offer its opponent's request `standing` made in `offered`
    /// (a draw offer, or a started board's-honour count, which is a standing offer under
    /// `traditional`: docs/RULES.md "Ruleset `traditional`"). Accepted when the [`DrawJudge`]
    /// says so; otherwise declined if `may_decline`, else (a count) left standing while the
    /// count runs. Returns the answer, or the request's own reply when nothing was answered.
    pub(super) async fn computer_judges_draw(
        &self,
        channel: ChannelId,
        offered: Loaded,
        standing: Event,
        may_decline: bool,
    ) -> Result<Reply, ServiceError> {
        let Some(seat) = offered.row.computer else {
            return Ok(offered.reply(standing, None, None));
        };
        // If the game changes while the judge thinks, the offer is left as it then stands.
        let unanswered = offered.reply(standing, Some(offered.player(seat.side.other())), None);
        let accepts = match &self.judge {
            Some(judge) => judge.accepts_draw(offered.m.clone(), seat).await,
            None => false,
        };
        if !accepts && !may_decline {
            return Ok(unanswered);
        }
        let version = offered.row.version;
        let event = if accepts {
            Event::OfferAccepted(OfferKind::Draw)
        } else {
            Event::OfferDeclined(OfferKind::Draw)
        };
        let answered = self
            .with_game_as(channel, computer_side, |g, side, now| {
                // Judged on the game as offered; after a change meanwhile (the computer moved,
                // so the offer lapsed) nothing is answered.
                if g.row.version != version {
                    return Err(ServiceError::Stale);
                }
                if accepts {
                    g.accept(OfferKind::Draw, side, now)
                } else {
                    g.decline(OfferKind::Draw, side)
                }
            })
            .await;
        match answered {
            Ok((g, ())) => Ok(g.reply(event, Some(g.player(seat.side)), None)),
            Err(ServiceError::Stale | ServiceError::GameOver(_)) => Ok(unanswered),
            Err(e) => Err(e),
        }
    }
}
