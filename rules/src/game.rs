//! [`Game`]: a whole game — start position, moves, history, count requests — and the
//! game-end rules of its ruleset.

use crate::count::{self, LimitReason};
use crate::position::{PlayError, Position};
use crate::ruleset::{BoardHonour, CounterMates, Ruleset};
use crate::types::{Color, Move, Role};

/// Which count runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CountKind {
    /// Board's honour: both sides still have pieces besides the Khun; 64 moves.
    BoardsHonour,
    /// Pieces' honour: a bare Khun counts from the number of pieces on the board.
    PiecesHonour,
}

/// A structured description of the running count, for the bot to phrase.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CountInfo {
    /// Board's or pieces' honour.
    pub kind: CountKind,
    /// The side that counts (and is drawn when the count runs out).
    pub counting: Color,
    /// The number the count started from: 1 for board's honour; for pieces' honour the number
    /// of pieces on the board when it started, plus one (the first counted move's number).
    pub started_from: u32,
    /// The current number shown (pychess: `⌊(ply+1)/2⌋`), in moves of the counting side.
    /// Board's honour: the number the counting side said on its last counted move, 0 before
    /// its first (under `material` also while the count has just passed to it). Pieces'
    /// honour: as pychess shows it, the pieces on the board when the count started until the
    /// bare side's first counted move, which says [`CountInfo::started_from`].
    pub current: u32,
    /// The limit, in moves of the counting side (e.g. 16).
    pub limit: u32,
    /// The rule that set the limit (e.g. `OneRuea { side: White }` → "White has one Ruea:
    /// limit 16"). It tells the chasing side's material when the count started: the limit
    /// stays when the bare Khun later captures one of those pieces.
    pub limit_reason: LimitReason,
    /// Moves of the counting side left before the count runs out (`limit − current`).
    pub remaining: u32,
}

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

/// Why a count request was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CountRequestError {
    /// Only the `traditional` ruleset counts on request.
    #[error("counting is not started on request under the {0} rules")]
    NotOnRequest(Ruleset),
    /// Unpromoted Bia are still on the board.
    #[error("board's honour counting can start only when no Bia is left")]
    BiaLeft,
    /// A side has only its Khun: pieces' honour runs by itself.
    #[error("a side has only its Khun: pieces' honour is counted automatically")]
    BareKhun,
    /// A count already runs.
    #[error("a count is already running")]
    AlreadyCounting,
    /// No requested count runs.
    #[error("no count is running")]
    NotCounting,
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
    /// [`crate::san::parse_move`]), even when the game is over by the rules.
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

    /// Traditional: the side to move starts counting board's honour (64 of its moves).
    ///
    /// # Errors
    /// [`CountRequestError`] when the ruleset does not count on request, a Bia is left, a
    /// side has only its Khun, or a count runs already. It does not check whether the game
    /// is over (the caller does; replays of records may go on after a draw).
    pub fn start_count(&mut self) -> Result<(), CountRequestError> {
        let ruleset = self.ruleset();
        if ruleset.rules().board_honour != BoardHonour::OnRequest {
            return Err(CountRequestError::NotOnRequest(ruleset));
        }
        let pos = self.position();
        if pos.board().by_role(Role::Bia).any() {
            return Err(CountRequestError::BiaLeft);
        }
        if pos.is_bare(Color::White) || pos.is_bare(Color::Black) {
            return Err(CountRequestError::BareKhun);
        }
        if pos.count_started.is_some() {
            return Err(CountRequestError::AlreadyCounting);
        }
        let by = pos.turn();
        let ply = self.moves.len() as u32;
        let p = self.current_mut();
        p.count_started = Some(i64::from(p.game_ply));
        self.events.push(CountEvent {
            ply,
            action: CountAction::Start,
            by,
        });
        Ok(())
    }

    /// Traditional: stops the requested board's honour count. Accepted also when the
    /// requested count has since been replaced by pieces' honour (which runs on by itself),
    /// as pychess does.
    ///
    /// # Errors
    /// [`CountRequestError::NotOnRequest`] or [`CountRequestError::NotCounting`].
    pub fn stop_count(&mut self) -> Result<(), CountRequestError> {
        let ruleset = self.ruleset();
        if ruleset.rules().board_honour != BoardHonour::OnRequest {
            return Err(CountRequestError::NotOnRequest(ruleset));
        }
        let Some(started) = self.position().count_started else {
            return Err(CountRequestError::NotCounting);
        };
        let by = if started.rem_euclid(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let ply = self.moves.len() as u32;
        self.current_mut().count_started = None;
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

    /// The game's end by the rules at the current position, if reached. Looked at in this
    /// order, each as the ruleset's [`crate::RuleTable`] says (RULES.md, one section per
    /// ruleset): checkmate (a draw instead when the side counting a requested board's honour
    /// mates, `traditional`), stalemate, the count run out (`ply > limit`), threefold
    /// repetition, Khun against Khun, insufficient material on both sides (Fairy-Stockfish's
    /// rule), the no-progress rule (`material`, `fifty-move`).
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        let rules = self.ruleset().rules();
        if !pos.has_legal_move() {
            if pos.is_check() {
                let winner = pos.turn().other();
                if rules.counter_mates == CounterMates::Draws && requester(pos) == Some(winner) {
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
        let rules = self.ruleset().rules();
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

/// Traditional: the side that requested the running board's honour count, if one runs.
fn requester(pos: &Position) -> Option<Color> {
    if pos.ruleset().rules().board_honour != BoardHonour::OnRequest
        || pos.is_bare(Color::White)
        || pos.is_bare(Color::Black)
    {
        return None;
    }
    let s = pos.count_started?;
    Some(if s.rem_euclid(2) == 0 {
        Color::White
    } else {
        Color::Black
    })
}

/// True when the count in `pos` ran past its limit (Fairy-Stockfish: `ply > limit`), unless
/// the side to move is checkmated (mate comes first).
#[must_use]
pub fn counting_draw(pos: &Position) -> bool {
    let (limit, _) = pos.counting();
    limit != 0 && count::shown_ply(pos) > limit && (!pos.is_check() || pos.has_legal_move())
}

/// The running count of `pos`, if any (see [`CountInfo`]).
#[must_use]
pub fn count_info(pos: &Position) -> Option<CountInfo> {
    let (mut limit, _) = pos.counting();
    if limit == 0 {
        // Traditional: a count requested in a position read from a FEN without counting
        // fields; Fairy-Stockfish sets the limit with the next move.
        requester(pos)?;
        limit = 2 * pos.ruleset().rules().board_honour_moves;
    }
    let ply = count::shown_ply(pos);
    let lone = [Color::White, Color::Black]
        .into_iter()
        .find(|&c| pos.is_bare(c));
    let (kind, counting, reason, started_from) = match lone {
        Some(c) => (
            CountKind::PiecesHonour,
            c,
            // The limit was fixed when the count started; name the rule that gives it (a
            // limit read from a FEN that is not in the table: the rule for the material now).
            LimitReason::pieces_honour(limit / 2, c.other())
                .unwrap_or_else(|| count::pieces_honour_reason(pos, c.other())),
            if pos.count_from != 0 {
                pos.count_from
            } else {
                pos.board().occupied().count() + 1
            },
        ),
        None => {
            let counting = match pos.ruleset().rules().board_honour {
                BoardHonour::OnRequest => requester(pos)?,
                BoardHonour::ByMaterial => count::material_counter(pos)?.0,
                _ => {
                    if ply & 1 == 0 {
                        pos.turn()
                    } else {
                        pos.turn().other()
                    }
                }
            };
            (
                CountKind::BoardsHonour,
                counting,
                LimitReason::BoardsHonour,
                1,
            )
        }
    };
    let current = ply.div_ceil(2);
    let limit = limit / 2;
    Some(CountInfo {
        kind,
        counting,
        started_from,
        current,
        limit,
        limit_reason: reason,
        remaining: limit.saturating_sub(current),
    })
}
