//! Counting — board's honour and pieces' honour — under each ruleset: the one home of the
//! counting rule.
//!
//! A crate-private `CountState`, kept in every [`crate::Position`], owns the counting fields,
//! their update after a move, the limit, a count requested under `traditional` (with the side
//! that asked, as a [`Color`]) and the draw when the count runs out. The public views of it are
//! [`crate::count_info`] ([`CountInfo`]), [`crate::counting_draw`] and
//! [`crate::Position::counting`]; requests go through [`crate::Game::start_count`] and
//! [`crate::Game::stop_count`]. What differs between the rulesets is read from their
//! [`crate::RuleTable`] ([`Ruleset::rules`]): how board's honour starts, its limit
//! ([`crate::RuleTable::board_honour_moves`]) and the order of the pieces' honour table.
//!
//! The state is two numbers kept exactly as Fairy-Stockfish keeps them: the counting limit and
//! the counting ply, both in plies (docs/RULES.md "Ruleset `standard`"). The count shown to
//! players (pychess) is `⌊(ply+1)/2⌋` of `limit/2` (moves of the counting side), on the side to
//! move when `ply` is even, else on its opponent. Under `traditional` (docs/RULES.md "Ruleset
//! `traditional`") board's honour counts the plies since the request instead (pychess
//! `countStarted`).
//!
//! The `material` ruleset (docs/RULES.md "Ruleset `material`") keeps the same two numbers with
//! its own meaning for board's honour, so that the count exists at every ply from the first
//! position without an unpromoted Bia:
//! - the counting side is the side with less material ([`material`]); with equal material,
//!   the side to move when `ply` is even, else its opponent;
//! - the current number (the number the counting side said on its last move, 0 before its
//!   first) is `⌈ply/2⌉`;
//! - `ply` is `2k` when the counting side is to move having said `k`, and `2k − 1` when it has
//!   just said `k`; the one state Fairy-Stockfish's form cannot hold — the counting side has
//!   just moved but has not counted yet (it captured the last Bia, or the count has just passed
//!   to it) — is `ply = 0` with the counting side not to move. It is told apart by material:
//!   with equal material the side to move always counts when the count starts or restarts.
//!
//! The draw is Fairy-Stockfish's `ply > limit`: with `limit = 128`, right after the counting
//! side says 65. Pieces' honour is stored exactly as in `standard`. Under `material` a count
//! runs in every position without an unpromoted Bia (and not Khun against Khun), also one read
//! from a FEN without counting fields.

use std::cmp::Ordering;

use crate::board::Board;
use crate::ruleset::{BoardHonour, PiecesHonourTable, Ruleset};
use crate::types::{Color, Role};
use crate::variant::Variant;

/// Which count runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CountKind {
    /// Board's honour: both sides still have pieces besides the Khun; the limit is the
    /// ruleset's [`crate::RuleTable::board_honour_moves`] (64 moves).
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

/// Why a count request was refused (docs/RULES.md "Ruleset `traditional`").
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

/// Why a count's limit is what it is: board's honour, or the chasing side's strongest
/// material for pieces' honour (docs/RULES.md "Ruleset `standard`", the pieces' honour table;
/// Fairy-Stockfish `counting_limit`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LimitReason {
    /// Board's honour: the ruleset's [`crate::RuleTable::board_honour_moves`] (64 moves).
    BoardsHonour,
    /// `side` has two or more Ruea: 8 moves.
    TwoRuea {
        /// The chasing side (the one that is not bare).
        side: Color,
    },
    /// `side` has one Ruea: 16 moves.
    OneRuea {
        /// The chasing side (the one that is not bare).
        side: Color,
    },
    /// `side` has two or more Khon (and no Ruea): 22 moves.
    TwoKhon {
        /// The chasing side (the one that is not bare).
        side: Color,
    },
    /// `side` has two or more Ma (and no Ruea, fewer than two Khon): 32 moves.
    TwoMa {
        /// The chasing side (the one that is not bare).
        side: Color,
    },
    /// `side` has one Khon (and none of the above): 44 moves.
    OneKhon {
        /// The chasing side (the one that is not bare).
        side: Color,
    },
    /// `side` has only a Ma and/or Met / Bia-ngai: 64 moves.
    Other {
        /// The chasing side (the one that is not bare).
        side: Color,
    },
}

impl LimitReason {
    /// The pieces' honour reason that gives a limit of `moves` when `side` is the chasing
    /// side, or `None` for a number that is not in the table. Every entry of the table has its
    /// own number, so the limit alone tells which rule set it.
    #[must_use]
    pub const fn pieces_honour(moves: u32, side: Color) -> Option<LimitReason> {
        let table = [
            LimitReason::TwoRuea { side },
            LimitReason::OneRuea { side },
            LimitReason::TwoKhon { side },
            LimitReason::TwoMa { side },
            LimitReason::OneKhon { side },
            LimitReason::Other { side },
        ];
        let mut i = 0;
        while i < table.len() {
            if let Some(m) = table[i].pieces_honour_moves() {
                if m == moves {
                    return Some(table[i]);
                }
            }
            i += 1;
        }
        None
    }

    /// The limit this reason gives under `ruleset`, in moves of the counting side: the
    /// pieces' honour table's number, or for board's honour the ruleset's
    /// [`crate::RuleTable::board_honour_moves`].
    #[must_use]
    pub const fn moves(self, ruleset: Ruleset) -> u32 {
        match self.pieces_honour_moves() {
            Some(m) => m,
            None => ruleset.rules().board_honour_moves,
        }
    }

    /// The pieces' honour table (the same numbers in every ruleset; only the order of the
    /// rows differs, [`PiecesHonourTable`]); `None` for board's honour.
    const fn pieces_honour_moves(self) -> Option<u32> {
        match self {
            LimitReason::BoardsHonour => None,
            LimitReason::TwoRuea { .. } => Some(8),
            LimitReason::OneRuea { .. } => Some(16),
            LimitReason::TwoKhon { .. } => Some(22),
            LimitReason::TwoMa { .. } => Some(32),
            LimitReason::OneKhon { .. } => Some(44),
            LimitReason::Other { .. } => Some(64),
        }
    }
}

/// The pieces' honour limit reason when `chaser` hunts a bare Khun on `board` (docs/RULES.md
/// pieces' honour table, in the order of `ruleset`'s [`crate::RuleTable::pieces_honour_table`]).
#[must_use]
pub fn pieces_honour_reason(board: &Board, chaser: Color, ruleset: Ruleset) -> LimitReason {
    let n = |r: Role| board.by_piece(chaser, r).count();
    let side = chaser;
    let khon_first = ruleset.rules().pieces_honour_table == PiecesHonourTable::KhonBeforeMa;
    if n(Role::Ruea) >= 2 {
        LimitReason::TwoRuea { side }
    } else if n(Role::Ruea) == 1 {
        LimitReason::OneRuea { side }
    } else if n(Role::Khon) >= 2 {
        LimitReason::TwoKhon { side }
    } else if khon_first && n(Role::Khon) == 1 {
        LimitReason::OneKhon { side }
    } else if n(Role::Ma) >= 2 {
        LimitReason::TwoMa { side }
    } else if n(Role::Khon) == 1 {
        LimitReason::OneKhon { side }
    } else {
        LimitReason::Other { side }
    }
}

/// Fairy-Stockfish `counting_limit(side)` in moves: 0 while an unpromoted Bia stands or when
/// `side`'s opponent has only its Khun; board's honour ([`crate::RuleTable::board_honour_moves`]
/// of `ruleset`) when `side` has more than its Khun; else the pieces' honour limit by the
/// opponent's material.
#[must_use]
pub fn count_limit_moves(board: &Board, side: Color, ruleset: Ruleset) -> u32 {
    if board.by_role(Role::Bia).any() || board.is_bare(side.other()) {
        0
    } else if !board.is_bare(side) {
        ruleset.rules().board_honour_moves
    } else {
        pieces_honour_reason(board, side.other(), ruleset).moves(ruleset)
    }
}

/// The value of one piece in half-points for the `material` ruleset: Ruea 10, Ma 6, Khon 5,
/// Met and Bia-ngai 4 (the seed's 5, 3, 2.5, 2, 2), Bia 2, Khun 0.
#[must_use]
pub const fn material_value(role: Role) -> u32 {
    match role {
        Role::Ruea => 10,
        Role::Ma => 6,
        Role::Khon => 5,
        Role::Met => 4,
        Role::Bia => 2,
        Role::Khun => 0,
    }
}

/// Material of side `c` on `board` in half-points for the `material` ruleset
/// ([`material_value`] of each of its pieces).
#[must_use]
pub fn material(board: &Board, c: Color) -> u32 {
    [Role::Ruea, Role::Ma, Role::Khon, Role::Met, Role::Bia]
        .into_iter()
        .map(|r| material_value(r) * board.by_piece(c, r).count())
        .sum()
}

/// The counting state of a position and every rule that reads or changes it (module docs).
/// Each method takes the position's board, side to move and ruleset, which the position keeps.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct CountState {
    /// Counting limit in plies (0 = no count runs), Fairy-Stockfish `countingLimit`.
    limit: u32,
    /// Counting ply, Fairy-Stockfish `countingPly` (`material` board's honour: the form of the
    /// module docs).
    ply: u32,
    /// Pieces' honour: the number the count started from (pieces on the board + 1); 0 when
    /// unknown.
    from: u32,
    /// `traditional`: the board's honour count requested, if one was.
    request: Option<Request>,
}

/// Fairy-Stockfish's `count_limit(side)`, in moves, for the counting rules of the other
/// variants (`src/position.cpp`, `Position::count_limit`):
/// - Ouk Chaktrang (`CAMBODIAN_COUNTING`): none while `side` has more than three pieces
///   (Khun included) or its opponent only its Khun; board's honour 63 while `side` has more
///   than its Khun; else (none while a Bia stands) pieces' honour by the opponent's pieces: two
///   Ruea 7, one Ruea 15, two Khon 21, two Ma 31, one Khon 43, else 63.
/// - ASEAN and Sittuyin (`ASEAN_COUNTING`): only for a bare `side` with no Bia on the board:
///   Ruea 16, else Khon 44, else Ma 64, else none (Met alone: no count).
///
/// Makruk and Makpong use [`count_limit_moves`].
#[must_use]
pub(crate) fn variant_count_limit(board: &Board, side: Color, variant: Variant) -> u32 {
    let them = side.other();
    let n = |r: Role| board.by_piece(them, r).count();
    let pieces = board.by_color(side).count();
    match variant {
        Variant::Cambodian => {
            if pieces > 3 || board.is_bare(them) {
                0
            } else if pieces > 1 {
                63
            } else if board.by_role(Role::Bia).any() {
                0
            } else if n(Role::Ruea) > 1 {
                7
            } else if n(Role::Ruea) == 1 {
                15
            } else if n(Role::Khon) > 1 {
                21
            } else if n(Role::Ma) > 1 {
                31
            } else if n(Role::Khon) == 1 {
                43
            } else {
                63
            }
        }
        Variant::Asean | Variant::Sittuyin => {
            if board.by_role(Role::Bia).any() || pieces > 1 {
                0
            } else if n(Role::Ruea) > 0 {
                16
            } else if n(Role::Khon) > 0 {
                44
            } else if n(Role::Ma) > 0 {
                64
            } else {
                0
            }
        }
        Variant::Makruk | Variant::Makpong => count_limit_moves(board, side, Ruleset::Standard),
    }
}

/// A requested board's honour count (`traditional`, pychess `countStarted`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Request {
    /// The side that asked (the side to move then): it counts.
    by: Color,
    /// Plies played since the request (pychess `ply − countStarted`): the counting ply shown.
    plies: u32,
}

impl CountState {
    /// The state read from a FEN's counting fields (`limit` and `ply` in plies, both 0 for a
    /// FEN without a count) as Fairy-Stockfish reads them, then made what `ruleset` runs on
    /// `board` with `turn` to move: no count under `fifty-move`; under `material` the count
    /// its rules run there ([`CountState::material_setup`]); for a running pieces' honour count
    /// the number it started from (unknown in a FEN: the pieces on the board now, plus one);
    /// under `traditional` a board's honour count with a counting ply is a requested one, by
    /// the side that was to move `ply` plies ago.
    pub(crate) fn from_fen_fields(
        limit: u32,
        ply: u32,
        board: &Board,
        turn: Color,
        ruleset: Ruleset,
    ) -> CountState {
        let mut count = CountState {
            limit,
            ply: if limit != 0 { ply } else { 0 },
            from: 0,
            request: None,
        };
        let mode = ruleset.rules().board_honour;
        match mode {
            BoardHonour::None => {
                count.limit = 0;
                count.ply = 0;
            }
            BoardHonour::ByMaterial => count.material_setup(board, turn, ruleset),
            BoardHonour::Automatic | BoardHonour::OnRequest => {}
        }
        let a_side_bare = board.is_bare(Color::White) || board.is_bare(Color::Black);
        if count.limit != 0 && a_side_bare {
            count.from = board.occupied().count() + 1;
        }
        if mode == BoardHonour::OnRequest && count.limit != 0 && count.ply != 0 && !a_side_bare {
            count.request = Some(Request {
                by: if count.ply & 1 == 0 {
                    turn
                } else {
                    turn.other()
                },
                plies: count.ply,
            });
        }
        count
    }

    /// The stored (limit, ply), in plies.
    pub(crate) fn stored(&self) -> (u32, u32) {
        (self.limit, self.ply)
    }

    /// The (limit, ply) FEN fields, in plies: (0, 0) when no count runs.
    pub(crate) fn fen_fields(&self, board: &Board, ruleset: Ruleset) -> (u32, u32) {
        if self.limit == 0 {
            return (0, 0);
        }
        (self.limit, self.shown_ply(board, ruleset))
    }

    /// The counting ply that counts for the display and the draw. Traditional board's honour
    /// follows pychess's `countStarted`: 0 until requested, then plies since the request.
    fn shown_ply(&self, board: &Board, ruleset: Ruleset) -> u32 {
        if ruleset.rules().board_honour == BoardHonour::OnRequest
            && !board.is_bare(Color::White)
            && !board.is_bare(Color::Black)
        {
            self.request.map_or(0, |r| r.plies)
        } else {
            self.ply
        }
    }

    /// True when the count ran past its limit (Fairy-Stockfish: `ply > limit`). Mate comes
    /// first; the caller, which can generate moves, checks that.
    pub(crate) fn is_run_out(&self, board: &Board, ruleset: Ruleset) -> bool {
        self.limit != 0 && self.shown_ply(board, ruleset) > self.limit
    }

    /// Traditional: the side that requested the running board's honour count, if one runs.
    pub(crate) fn requester(&self, board: &Board, ruleset: Ruleset) -> Option<Color> {
        if ruleset.rules().board_honour != BoardHonour::OnRequest
            || board.is_bare(Color::White)
            || board.is_bare(Color::Black)
        {
            return None;
        }
        self.request.map(|r| r.by)
    }

    /// Traditional: `turn`, the side to move, starts counting board's honour (pychess
    /// `countStarted`).
    ///
    /// # Errors
    /// [`CountRequestError`] when `ruleset` does not count on request, a Bia is left, a side
    /// has only its Khun, or a requested count runs already.
    pub(crate) fn request(
        &mut self,
        board: &Board,
        turn: Color,
        ruleset: Ruleset,
    ) -> Result<(), CountRequestError> {
        if ruleset.rules().board_honour != BoardHonour::OnRequest {
            return Err(CountRequestError::NotOnRequest(ruleset));
        }
        if board.by_role(Role::Bia).any() {
            return Err(CountRequestError::BiaLeft);
        }
        if board.is_bare(Color::White) || board.is_bare(Color::Black) {
            return Err(CountRequestError::BareKhun);
        }
        if self.request.is_some() {
            return Err(CountRequestError::AlreadyCounting);
        }
        self.request = Some(Request { by: turn, plies: 0 });
        Ok(())
    }

    /// Traditional: stops the requested count and returns the side that had requested it.
    /// Accepted also when pieces' honour has since taken over (it runs on by itself), as
    /// pychess does.
    ///
    /// # Errors
    /// [`CountRequestError::NotOnRequest`] or [`CountRequestError::NotCounting`].
    pub(crate) fn stop_request(&mut self, ruleset: Ruleset) -> Result<Color, CountRequestError> {
        if ruleset.rules().board_honour != BoardHonour::OnRequest {
            return Err(CountRequestError::NotOnRequest(ruleset));
        }
        self.request
            .take()
            .map(|r| r.by)
            .ok_or(CountRequestError::NotCounting)
    }

    /// The running count, if any (see [`CountInfo`]).
    pub(crate) fn info(&self, board: &Board, turn: Color, ruleset: Ruleset) -> Option<CountInfo> {
        let mut limit = self.limit;
        if limit == 0 {
            // Traditional: a count requested in a position read from a FEN without counting
            // fields; Fairy-Stockfish sets the limit with the next move.
            self.requester(board, ruleset)?;
            limit = 2 * ruleset.rules().board_honour_moves;
        }
        let ply = self.shown_ply(board, ruleset);
        let lone = Color::ALL.into_iter().find(|&c| board.is_bare(c));
        let (kind, counting, limit_reason, started_from) = match lone {
            Some(c) => (
                CountKind::PiecesHonour,
                c,
                // The limit was fixed when the count started; name the rule that gives it (a
                // limit read from a FEN that is not in the table: the rule for the material now).
                LimitReason::pieces_honour(limit / 2, c.other())
                    .unwrap_or_else(|| pieces_honour_reason(board, c.other(), ruleset)),
                if self.from != 0 {
                    self.from
                } else {
                    board.occupied().count() + 1
                },
            ),
            None => {
                let counting = match ruleset.rules().board_honour {
                    BoardHonour::OnRequest => self.requester(board, ruleset)?,
                    BoardHonour::ByMaterial => self.material_counter(board, turn),
                    BoardHonour::Automatic | BoardHonour::None => {
                        if ply & 1 == 0 {
                            turn
                        } else {
                            turn.other()
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
            limit_reason,
            remaining: limit.saturating_sub(current),
        })
    }

    /// Updates the state after `mover` played a move that captured `captured` and promoted a
    /// Bia if `promoted`; `board` is the placement after the move. Makruk's counting (by
    /// `ruleset`), also Makpong's; the other variants' is [`CountState::variant_after_move`].
    pub(crate) fn after_move(
        &mut self,
        board: &Board,
        mover: Color,
        captured: Option<Role>,
        promoted: bool,
        ruleset: Ruleset,
    ) {
        if let Some(r) = &mut self.request {
            r.plies = r.plies.saturating_add(1);
        }
        match ruleset.rules().board_honour {
            BoardHonour::Automatic | BoardHonour::OnRequest => {
                self.fsf_after_move(board, mover, captured, promoted, ruleset);
            }
            BoardHonour::ByMaterial => self.material_after_move(board, mover, captured, ruleset),
            BoardHonour::None => {}
        }
    }

    /// docs/RULES.md "Ruleset `standard`", steps 1–3 (Fairy-Stockfish `do_move`).
    fn fsf_after_move(
        &mut self,
        board: &Board,
        mover: Color,
        captured: Option<Role>,
        promoted: bool,
        ruleset: Ruleset,
    ) {
        let s = mover.other();
        let n = board.occupied().count();
        if self.limit != 0 {
            self.ply = self.ply.saturating_add(1);
        }
        if captured == Some(Role::Bia)
            && board.is_bare(mover)
            && board.by_role(Role::Bia).is_empty()
        {
            let l = count_limit_moves(board, mover, ruleset);
            if l != 0 {
                self.limit = 2 * l;
                self.ply = 2 * n - 1;
                self.from = n + 1;
                return;
            }
        }
        if self.limit == 0 || ((captured.is_some() || promoted) && board.is_bare(s)) {
            let l = count_limit_moves(board, s, ruleset);
            if l != 0 {
                let bare = board.is_bare(s);
                self.limit = 2 * l;
                self.ply = if bare { 2 * n } else { 0 };
                self.from = if bare { n + 1 } else { 1 };
            }
        }
    }

    /// The counting rules of Ouk Chaktrang, ASEAN and Sittuyin, as Fairy-Stockfish's `do_move`
    /// runs them: the counting ply grows by one each ply while a count runs; (not ASEAN's rule)
    /// when a bare Khun captures the last Bia, it counts from the pieces on the board (`2n − 1`);
    /// a count starts, with [`variant_count_limit`] of the side to move, when none runs or when
    /// a capture or promotion has just left that side bare, from 0 under ASEAN's rule or for
    /// board's honour, else from the pieces on the board (`2n`). A count once started is never
    /// dropped.
    #[cold]
    pub(crate) fn variant_after_move(
        &mut self,
        board: &Board,
        mover: Color,
        captured: Option<Role>,
        promoted: bool,
        variant: Variant,
    ) {
        let s = mover.other();
        let n = board.occupied().count();
        let asean = variant != Variant::Cambodian;
        if self.limit != 0 {
            self.ply = self.ply.saturating_add(1);
        }
        if !asean
            && captured == Some(Role::Bia)
            && board.is_bare(mover)
            && board.by_role(Role::Bia).is_empty()
        {
            let l = variant_count_limit(board, mover, variant);
            if l != 0 {
                self.limit = 2 * l;
                self.ply = 2 * n - 1;
                self.from = n + 1;
            }
        }
        if self.limit == 0 || ((captured.is_some() || promoted) && board.is_bare(s)) {
            let l = variant_count_limit(board, s, variant);
            if l != 0 {
                let board_honour = !board.is_bare(s);
                self.limit = 2 * l;
                self.ply = if asean || board_honour { 0 } else { 2 * n };
                self.from = if board_honour { 1 } else { n + 1 };
            }
        }
    }

    /// `material` board's honour: the counting side (module docs), less material, else by the
    /// parity of the counting ply. Only while board's honour runs.
    fn material_counter(&self, board: &Board, turn: Color) -> Color {
        match material(board, Color::White).cmp(&material(board, Color::Black)) {
            Ordering::Less => Color::White,
            Ordering::Greater => Color::Black,
            Ordering::Equal if self.ply & 1 == 0 => turn,
            Ordering::Equal => turn.other(),
        }
    }

    /// `material` after reading a FEN: a count runs exactly when no unpromoted Bia is left and
    /// a side has more than its Khun. One that the FEN does not carry starts here: board's
    /// honour from 0 (the side with less material counts; equal: the side to move), pieces'
    /// honour as Fairy-Stockfish starts it (shown count = pieces on the board, the bare side's
    /// next move says one more). A board's honour ply is rewritten in the form
    /// [`CountState::material_after_move`] writes (e.g. `128 3` with the counting side to move
    /// becomes `128 4`: it said 2 and is to move); limits are kept as read.
    fn material_setup(&mut self, board: &Board, turn: Color, ruleset: Ruleset) {
        let (wb, bb) = (board.is_bare(Color::White), board.is_bare(Color::Black));
        if board.by_role(Role::Bia).any() || (wb && bb) {
            self.limit = 0;
            self.ply = 0;
            return;
        }
        let n = board.occupied().count();
        if wb || bb {
            if self.limit == 0 {
                let bare = if wb { Color::White } else { Color::Black };
                self.limit = 2 * pieces_honour_reason(board, bare.other(), ruleset).moves(ruleset);
                self.ply = if bare == turn { 2 * n } else { 2 * n - 1 };
            }
            return;
        }
        if self.limit == 0 {
            self.limit = 2 * ruleset.rules().board_honour_moves;
            self.ply = 0;
            return;
        }
        let counting = self.material_counter(board, turn);
        let said = self.ply.div_ceil(2);
        let twice = said.saturating_mul(2);
        self.ply = if counting == turn {
            twice
        } else {
            twice.saturating_sub(1)
        };
    }

    /// docs/RULES.md "Ruleset `material`", in the stored form of the module docs. Called with
    /// the placement after the move and, before it, the state as this function or
    /// [`CountState::material_setup`] left it: no count while an unpromoted Bia stands, else a
    /// count in every position except Khun against Khun.
    fn material_after_move(
        &mut self,
        board: &Board,
        mover: Color,
        captured: Option<Role>,
        ruleset: Ruleset,
    ) {
        let s = mover.other();
        let n = board.occupied().count();
        if board.by_role(Role::Bia).any() {
            return;
        }
        let s_bare = board.is_bare(s);
        let m_bare = board.is_bare(mover);
        if s_bare && m_bare {
            self.limit = 0;
            self.ply = 0;
            return;
        }
        if s_bare {
            // A capture (or the last Bia leaving) has just made `s` a bare Khun: pieces' honour
            // starts; its first move says pieces on the board + 1.
            if self.limit == 0 || captured.is_some() {
                self.limit = 2 * pieces_honour_reason(board, mover, ruleset).moves(ruleset);
                self.ply = 2 * n;
                self.from = n + 1;
            } else {
                self.ply = self.ply.saturating_add(1);
            }
            return;
        }
        if m_bare {
            // The bare Khun has just captured the last Bia (limit 0), or counts on.
            if self.limit == 0 {
                self.limit = 2 * pieces_honour_reason(board, s, ruleset).moves(ruleset);
                self.ply = 2 * n - 1;
                self.from = n + 1;
            } else {
                self.ply = self.ply.saturating_add(1);
            }
            return;
        }
        if self.limit == 0 {
            // The last Bia has just left the board: board's honour starts at 0, for the side with
            // less material (equal: the side to move), whichever side that is.
            self.limit = 2 * ruleset.rules().board_honour_moves;
            self.ply = 0;
            return;
        }
        // Board's honour runs and ran before this move (a side that is not bare now was not bare
        // before). Who counted before the move: material before the capture, else the parity
        // of the counting ply as it was.
        let before_s = material(board, s) + captured.map_or(0, material_value);
        let now_mover = material(board, mover);
        let counting = match before_s.cmp(&now_mover) {
            Ordering::Less => s,
            Ordering::Greater => mover,
            Ordering::Equal if self.ply & 1 == 0 => mover,
            Ordering::Equal => s,
        };
        let said = self.ply.div_ceil(2);
        self.ply = if counting != mover {
            // The other side moved: the number stands, the counting side is to move.
            said.saturating_mul(2)
        } else if captured.is_some() && now_mover > material(board, s) {
            // The counting side's capture gave it more material: the count passes to `s`, which
            // restarts (its next move says 1).
            0
        } else {
            // The counting side said one more.
            said.saturating_add(1).saturating_mul(2).saturating_sub(1)
        };
    }
}
