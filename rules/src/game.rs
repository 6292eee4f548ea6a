//! [`Game`]: a whole game — start position, moves, history, count requests — and the
//! game-end rules of its ruleset.

use crate::count::{CountInfo, CountRequestError};
use crate::position::{PlayError, Position};
use crate::ruleset::{CounterMates, Ruleset};
use crate::types::{Color, Move, Role};

/// Why a game was won by the rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The loser is checkmated.
    Checkmate,
}

/// Why a game was drawn by the rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// The count ran past its limit.
    Counting,
    /// The same position (placement and side to move) for the third time.
    Repetition,
    /// Neither side can mate (Fairy-Stockfish `has_insufficient_material`, both sides).
    InsufficientMaterial,
    /// Only the two Khun are left.
    KhunVsKhun,
    /// The no-progress rule (50 moves / 100 plies without capture or Bia move).
    FiftyMove,
    /// Traditional: the side counting board's honour gave checkmate — a draw.
    CountingSideMated,
}

/// How a game ended by the rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `winner` won.
    Decisive {
        /// The side that won.
        winner: Color,
        /// How.
        reason: WinReason,
    },
    /// Drawn.
    Draw {
        /// Why.
        reason: DrawReason,
    },
}

/// Something the players should be told about.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Warning {
    /// The count is nearly out: `remaining` moves of the counting side left.
    CountNearlyOut {
        /// The side that counts.
        counting: Color,
        /// Its moves left before the count runs out ([`CountInfo::remaining`]).
        remaining: u32,
    },
    /// The no-progress counter: `plies` played without capture or Bia move, of `limit`.
    NoProgress {
        /// Plies (not moves) played without a capture or a Bia move.
        plies: u32,
        /// The plies that draw (100 = 50 moves).
        limit: u32,
    },
}

/// A count request (traditional board's honour).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CountAction {
    /// Start counting board's honour.
    Start,
    /// Stop the count.
    Stop,
}

/// A count request and the ply at which it was made: it happened in the position after
/// `ply` moves, before the next move (as in `traditional-public.jsonl`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CountEvent {
    /// Number of plies (moves of either side) played when the request was made.
    pub ply: u32,
    /// Start or stop.
    pub action: CountAction,
    /// The side that made it (for a start, the side to move; it counts).
    pub by: Color,
}

/// A whole game: start position, moves and the positions after each, count requests.
#[derive(Clone, Debug)]
pub struct Game {
    positions: Vec<Position>,
    moves: Vec<Move>,
    events: Vec<CountEvent>,
}

impl Game {
    /// A new game from the start position under `ruleset`.
    #[must_use]
    pub fn new(ruleset: Ruleset) -> Game {
        Game::from_position(Position::start(ruleset))
    }

    /// A game starting from `start` (its ruleset is `start.ruleset()`).
    #[must_use]
    pub fn from_position(start: Position) -> Game {
        Game {
            positions: vec![start],
            moves: Vec::new(),
            events: Vec::new(),
        }
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        self.positions
            .last()
            .unwrap_or_else(|| unreachable!("never empty"))
    }

    /// The start position.
    #[must_use]
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The moves played, in order.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The positions: `positions()[i]` is the position after `i` moves.
    #[must_use]
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The ruleset.
    #[must_use]
    pub fn ruleset(&self) -> Ruleset {
        self.start().ruleset()
    }

    /// The count requests made, in order.
    #[must_use]
    pub fn events(&self) -> &[CountEvent] {
        &self.events
    }

    /// Plays a legal move.
    ///
    /// # Errors
    /// [`PlayError::GameOver`] when [`Game::outcome`] is already set, [`PlayError::Illegal`]
    /// for an illegal move.
    pub fn play(&mut self, m: &Move) -> Result<(), PlayError> {
        if self.outcome().is_some() {
            return Err(PlayError::GameOver);
        }
        self.play_on(m)
    }

    /// Plays a legal move even when the game is over by the rules (for replaying records
    /// that go on after a draw, and for conformance checks).
    ///
    /// # Errors
    /// [`PlayError::Illegal`] for an illegal move.
    pub fn play_on(&mut self, m: &Move) -> Result<(), PlayError> {
        if !self.position().is_legal(m) {
            return Err(PlayError::Illegal {
                from: m.from,
                to: m.to,
            });
        }
        self.play_legal(m);
        Ok(())
    }

    /// Plays a move known to be legal here (one of `legal_moves`, or from
    /// [`crate::parse_move`]), even when the game is over by the rules.
    pub(crate) fn play_legal(&mut self, m: &Move) {
        let p = self.position().after(m);
        self.positions.push(p);
        self.moves.push(*m);
    }

    /// Takes back the last move (and the count requests made after it); returns it.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        let n = self.moves.len() as u32;
        self.events.retain(|e| e.ply <= n);
        Some(m)
    }

    fn current_mut(&mut self) -> &mut Position {
        self.positions
            .last_mut()
            .unwrap_or_else(|| unreachable!("never empty"))
    }

    /// Traditional: the side to move starts counting board's honour (the ruleset's
    /// [`crate::RuleTable::board_honour_moves`] of its moves; docs/RULES.md "Ruleset
    /// `traditional`").
    ///
    /// # Errors
    /// [`CountRequestError`] when the ruleset does not count on request, a Bia is left, a
    /// side has only its Khun, or a count runs already. It does not check whether the game
    /// is over (the caller does; replays of records may go on after a draw).
    pub fn start_count(&mut self) -> Result<(), CountRequestError> {
        let ply = self.moves.len() as u32;
        let p = self.current_mut();
        let by = p.turn;
        p.count.request(&p.board, by, p.ruleset)?;
        self.events.push(CountEvent {
            ply,
            action: CountAction::Start,
            by,
        });
        Ok(())
    }

    /// Traditional: stops the requested board's honour count. Accepted also when the
    /// requested count has since been replaced by pieces' honour (which runs on by itself),
    /// as pychess does. The event names the side that had requested the count.
    ///
    /// # Errors
    /// [`CountRequestError::NotOnRequest`] or [`CountRequestError::NotCounting`].
    pub fn stop_count(&mut self) -> Result<(), CountRequestError> {
        let ply = self.moves.len() as u32;
        let p = self.current_mut();
        let by = p.count.stop_request(p.ruleset)?;
        self.events.push(CountEvent {
            ply,
            action: CountAction::Stop,
            by,
        });
        Ok(())
    }

    /// The running count, if any.
    #[must_use]
    pub fn count(&self) -> Option<CountInfo> {
        count_info(self.position())
    }

    /// Threefold repetition as Fairy-Stockfish decides it: the current placement and side to
    /// move occurred twice before, looking back (two plies at a time) no further than the last
    /// capture or Bia move.
    #[must_use]
    pub fn is_repetition(&self) -> bool {
        let i = self.positions.len() - 1;
        let cur = &self.positions[i];
        let end = (cur.halfmoves() as usize).min(i);
        let mut cnt = 0;
        let mut k = 4;
        while k <= end {
            if self.positions[i - k].zobrist() == cur.zobrist() {
                cnt += 1;
                if cnt >= 2 {
                    return true;
                }
            }
            k += 2;
        }
        false
    }

    /// The game's end by the rules at the current position, if reached. Looked at in this order,
    /// each as the ruleset's [`crate::RuleTable`] says (docs/RULES.md, one "Ruleset" section per
    /// ruleset): checkmate (a draw instead when the side counting a requested board's honour mates,
    /// `traditional`), stalemate, the count run out (`ply > limit`), threefold repetition, Khun
    /// against Khun, insufficient material on both sides (Fairy-Stockfish's rule), the no-progress
    /// rule (`material`, `fifty-move`).
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        let rules = self.position().rules();
        if !pos.has_legal_move() {
            if pos.is_check() {
                let winner = pos.turn().other();
                if rules.counter_mates == CounterMates::Draws
                    && pos.count.requester(&pos.board, pos.ruleset) == Some(winner)
                {
                    return Some(Outcome::Draw {
                        reason: DrawReason::CountingSideMated,
                    });
                }
                return Some(Outcome::Decisive {
                    winner,
                    reason: WinReason::Checkmate,
                });
            }
            return Some(Outcome::Draw {
                reason: DrawReason::Stalemate,
            });
        }
        if pos.is_promotion_stalemate() {
            // Sittuyin: only promotions left to a Khun and a Bia (Fairy-Stockfish's
            // "stalemate due to optional promotion").
            return Some(Outcome::Draw {
                reason: DrawReason::Stalemate,
            });
        }
        let draw = |reason| Some(Outcome::Draw { reason });
        if counting_draw(pos) {
            return draw(DrawReason::Counting);
        }
        if rules.repetition && self.is_repetition() {
            return draw(DrawReason::Repetition);
        }
        if rules.khun_vs_khun && pos.board().occupied().count() == 2 {
            return draw(DrawReason::KhunVsKhun);
        }
        if rules.insufficient_material
            && pos.has_insufficient_material(Color::White)
            && pos.has_insufficient_material(Color::Black)
        {
            return draw(DrawReason::InsufficientMaterial);
        }
        if let Some(np) = rules.no_progress {
            if pos.halfmoves() >= np.plies
                && (!np.only_with_bia || pos.board().by_role(Role::Bia).any())
            {
                return draw(DrawReason::FiftyMove);
            }
        }
        None
    }

    /// Warnings for the players at the current position: the count nearly out, the
    /// no-progress counter from its warning threshold (e.g. 100-ply counter from ply 80).
    #[must_use]
    pub fn warnings(&self) -> Vec<Warning> {
        let pos = self.position();
        let rules = self.position().rules();
        let mut w = Vec::new();
        if let Some(c) = self.count() {
            if c.remaining <= rules.count_warn_moves {
                w.push(Warning::CountNearlyOut {
                    counting: c.counting,
                    remaining: c.remaining,
                });
            }
        }
        if let Some(np) = rules.no_progress {
            if pos.halfmoves() >= np.warn_from
                && (!np.only_with_bia || pos.board().by_role(Role::Bia).any())
            {
                w.push(Warning::NoProgress {
                    plies: pos.halfmoves(),
                    limit: np.plies,
                });
            }
        }
        w
    }
}

/// True when the count in `pos` ran past its limit (Fairy-Stockfish: `ply > limit`), unless
/// the side to move is checkmated (mate comes first). The counting rule: [`crate::count`].
#[must_use]
pub fn counting_draw(pos: &Position) -> bool {
    pos.count.is_run_out(&pos.board, pos.ruleset) && (!pos.is_check() || pos.has_legal_move())
}

/// The running count of `pos`, if any (see [`CountInfo`]; the counting rule:
/// [`crate::count`]).
#[must_use]
pub fn count_info(pos: &Position) -> Option<CountInfo> {
    pos.count.info(&pos.board, pos.turn, pos.ruleset)
}
