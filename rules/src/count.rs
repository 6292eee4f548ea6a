//! Counting (board's honour, pieces' honour) and the per-ruleset rule table.
//!
//! The differences between the rulesets are data ([`RuleTable`], from [`Ruleset::rules`]);
//! the counting state itself is two numbers kept in the [`Position`] exactly as
//! Fairy-Stockfish keeps them: the counting limit and the counting ply, both in plies
//! (RULES.md "Ruleset `standard`"). The count shown to players (pychess) is
//! `⌊(ply+1)/2⌋` of `limit/2`, on the side to move when `ply` is even, else on its opponent.

use crate::position::Position;
use crate::ruleset::Ruleset;
use crate::types::{Color, Role};

/// How board's honour (counting when both sides still have pieces) starts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BoardHonour {
    /// Starts by itself when no Bia is left (Fairy-Stockfish; `standard`).
    Automatic,
    /// Started and stopped on request by the side to move (`traditional`, pychess
    /// `countStarted`).
    OnRequest,
    /// Starts by itself when no Bia is left; the side with less material counts and the count
    /// passes on when a capture changes that (`material`).
    ByMaterial,
    /// No counting at all (`fifty-move`).
    None,
}

/// What happens when the counting side checkmates.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CounterMates {
    /// Mate wins, as always.
    Wins,
    /// The game is drawn (traditional board's honour; the Wikipedia seed).
    Draws,
}

/// A "no progress" draw rule: `plies` plies without a capture or a Bia move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct NoProgressRule {
    /// Plies without capture or Bia move that draw (100 = 50 moves).
    pub plies: u32,
    /// The rule applies only while unpromoted Bia remain on the board (`material`).
    pub only_with_bia: bool,
    /// From this many plies on the game warns about the counter.
    pub warn_from: u32,
}

/// The order of the pieces' honour table (RULES.md; the seeds differ from Fairy-Stockfish
/// when the chasing side has one Khon and two Ma).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PiecesHonourTable {
    /// Fairy-Stockfish: two Ruea 8, one Ruea 16, two Khon 22, two Ma 32, one Khon 44, else 64.
    FairyStockfish,
    /// The "How to play Makruk" seed: two Ruea 8, one Ruea 16, two Khon 22, one Khon 44,
    /// (no Ruea or Khon) two Ma 32, else 64.
    KhonBeforeMa,
}

/// Everything in which the rulesets differ, as data. See RULES.md, one section per ruleset.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RuleTable {
    /// How board's honour starts.
    pub board_honour: BoardHonour,
    /// Whether pieces' honour (a bare Khun counting) exists.
    pub pieces_honour: bool,
    /// The pieces' honour limits.
    pub pieces_honour_table: PiecesHonourTable,
    /// Board's honour limit in moves of the counting side (64).
    pub board_honour_moves: u32,
    /// What a mate by the counting side (board's honour) gives.
    pub counter_mates: CounterMates,
    /// Threefold repetition draws (automatically in this project's game layer).
    pub repetition: bool,
    /// Fairy-Stockfish insufficient material (both sides) draws.
    pub insufficient_material: bool,
    /// Khun against Khun draws.
    pub khun_vs_khun: bool,
    /// The 50-move / 100-ply rule, if any.
    pub no_progress: Option<NoProgressRule>,
    /// Warn when this many moves or fewer are left on a count.
    pub count_warn_moves: u32,
}

impl Ruleset {
    /// The rule table of this ruleset.
    #[must_use]
    pub const fn rules(self) -> RuleTable {
        match self {
            Ruleset::Standard => RuleTable {
                board_honour: BoardHonour::Automatic,
                pieces_honour: true,
                pieces_honour_table: PiecesHonourTable::FairyStockfish,
                board_honour_moves: 64,
                counter_mates: CounterMates::Wins,
                repetition: true,
                insufficient_material: true,
                khun_vs_khun: true,
                no_progress: None,
                count_warn_moves: 3,
            },
            Ruleset::Traditional => RuleTable {
                board_honour: BoardHonour::OnRequest,
                pieces_honour: true,
                pieces_honour_table: PiecesHonourTable::FairyStockfish,
                board_honour_moves: 64,
                counter_mates: CounterMates::Draws,
                repetition: true,
                insufficient_material: true,
                khun_vs_khun: true,
                no_progress: None,
                count_warn_moves: 3,
            },
            Ruleset::Material => RuleTable {
                board_honour: BoardHonour::ByMaterial,
                pieces_honour: true,
                pieces_honour_table: PiecesHonourTable::KhonBeforeMa,
                board_honour_moves: 64,
                counter_mates: CounterMates::Wins,
                repetition: true,
                insufficient_material: false,
                khun_vs_khun: true,
                no_progress: Some(NoProgressRule {
                    plies: 100,
                    only_with_bia: true,
                    warn_from: 80,
                }),
                count_warn_moves: 3,
            },
            Ruleset::FiftyMove => RuleTable {
                board_honour: BoardHonour::None,
                pieces_honour: false,
                pieces_honour_table: PiecesHonourTable::FairyStockfish,
                board_honour_moves: 64,
                counter_mates: CounterMates::Wins,
                repetition: true,
                insufficient_material: true,
                khun_vs_khun: true,
                no_progress: Some(NoProgressRule {
                    plies: 100,
                    only_with_bia: false,
                    warn_from: 80,
                }),
                count_warn_moves: 3,
            },
        }
    }
}

/// Why a pieces' honour limit is what it is: the chasing side's strongest material
/// (RULES.md table; Fairy-Stockfish `counting_limit`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LimitReason {
    /// Board's honour: 64 moves.
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
        match moves {
            8 => Some(LimitReason::TwoRuea { side }),
            16 => Some(LimitReason::OneRuea { side }),
            22 => Some(LimitReason::TwoKhon { side }),
            32 => Some(LimitReason::TwoMa { side }),
            44 => Some(LimitReason::OneKhon { side }),
            64 => Some(LimitReason::Other { side }),
            _ => None,
        }
    }

    /// The limit in moves this reason gives.
    #[must_use]
    pub const fn moves(self) -> u32 {
        match self {
            LimitReason::TwoRuea { .. } => 8,
            LimitReason::OneRuea { .. } => 16,
            LimitReason::TwoKhon { .. } => 22,
            LimitReason::TwoMa { .. } => 32,
            LimitReason::OneKhon { .. } => 44,
            LimitReason::BoardsHonour | LimitReason::Other { .. } => 64,
        }
    }
}

/// The pieces' honour limit reason when `chaser` hunts a bare Khun (RULES.md table, in the
/// order of the position's ruleset: [`RuleTable::pieces_honour_table`]).
#[must_use]
pub fn pieces_honour_reason(pos: &Position, chaser: Color) -> LimitReason {
    let b = pos.board();
    let n = |r: Role| b.by_piece(chaser, r).count();
    let side = chaser;
    let khon_first = pos.ruleset().rules().pieces_honour_table == PiecesHonourTable::KhonBeforeMa;
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
/// `side`'s opponent has only its Khun; 64 when `side` has more than its Khun (board's
/// honour); else the pieces' honour limit by the opponent's material.
#[must_use]
pub fn count_limit_moves(pos: &Position, side: Color) -> u32 {
    let b = pos.board();
    if b.by_role(Role::Bia).any() || pos.is_bare(side.other()) {
        0
    } else if !pos.is_bare(side) {
        64
    } else {
        pieces_honour_reason(pos, side.other()).moves()
    }
}

/// Material in half-points for the `material` ruleset: Ruea 10, Ma 6, Khon 5, Met and
/// Bia-ngai 4 (the seed's 5, 3, 2.5, 2, 2), Bia 2.
#[must_use]
pub fn material(pos: &Position, c: Color) -> u32 {
    let b = pos.board();
    let n = |r: Role| b.by_piece(c, r).count();
    10 * n(Role::Ruea) + 6 * n(Role::Ma) + 5 * n(Role::Khon) + 4 * n(Role::Met) + 2 * n(Role::Bia)
}

/// Fixes the state read from a FEN: the number a running pieces' honour count started from
/// (unknown in a FEN: the pieces on the board now, plus one, kept from here on), and for
/// `traditional` whether a board's honour count was requested.
pub(crate) fn after_setup(pos: &mut Position) {
    if pos.count_limit != 0 && (pos.is_bare(Color::White) || pos.is_bare(Color::Black)) {
        pos.count_from = pos.board.occupied().count() + 1;
    }
    if pos.ruleset.rules().board_honour == BoardHonour::OnRequest
        && pos.count_limit != 0
        && pos.count_ply != 0
        && !pos.is_bare(Color::White)
        && !pos.is_bare(Color::Black)
    {
        pos.count_started = Some(i64::from(pos.game_ply) - i64::from(pos.count_ply));
    }
}

/// The (limit, ply) FEN fields of `pos`.
pub(crate) fn fen_fields(pos: &Position) -> (u32, u32) {
    if pos.count_limit == 0 {
        return (0, 0);
    }
    (pos.count_limit, shown_ply(pos))
}

/// The counting ply that counts for the display and the draw. Traditional board's honour
/// follows pychess's `countStarted`: 0 until requested, then plies since the request.
pub(crate) fn shown_ply(pos: &Position) -> u32 {
    if pos.ruleset.rules().board_honour == BoardHonour::OnRequest
        && !pos.is_bare(Color::White)
        && !pos.is_bare(Color::Black)
    {
        match pos.count_started {
            Some(s) => (i64::from(pos.game_ply) - s).max(0) as u32,
            None => 0,
        }
    } else {
        pos.count_ply
    }
}

/// Updates the counting state after `mover` played a move that captured `captured` and
/// promoted a Bia if `promoted`. The side to move in `pos` is already the opponent.
pub(crate) fn after_move(pos: &mut Position, mover: Color, captured: Option<Role>, promoted: bool) {
    match pos.ruleset.rules().board_honour {
        BoardHonour::Automatic | BoardHonour::OnRequest => {
            fsf_after_move(pos, mover, captured, promoted)
        }
        BoardHonour::ByMaterial => material_after_move(pos, mover, captured),
        BoardHonour::None => {}
    }
}

/// RULES.md "Ruleset `standard`", steps 1–3 (Fairy-Stockfish `do_move`).
fn fsf_after_move(pos: &mut Position, mover: Color, captured: Option<Role>, promoted: bool) {
    let s = pos.turn;
    let n = pos.board.occupied().count();
    if pos.count_limit != 0 {
        pos.count_ply = pos.count_ply.saturating_add(1);
    }
    if captured == Some(Role::Bia) && pos.is_bare(mover) && pos.board.by_role(Role::Bia).is_empty()
    {
        let l = count_limit_moves(pos, mover);
        if l != 0 {
            pos.count_limit = 2 * l;
            pos.count_ply = 2 * n - 1;
            pos.count_from = n + 1;
            return;
        }
    }
    if pos.count_limit == 0 || ((captured.is_some() || promoted) && pos.is_bare(s)) {
        let l = count_limit_moves(pos, s);
        if l != 0 {
            pos.count_limit = 2 * l;
            pos.count_ply = if pos.is_bare(s) { 2 * n } else { 0 };
            pos.count_from = if pos.is_bare(s) { n + 1 } else { 1 };
        }
    }
}

/// RULES.md "Ruleset `material`".
fn material_after_move(pos: &mut Position, mover: Color, captured: Option<Role>) {
    let s = pos.turn;
    let n = pos.board.occupied().count();
    if pos.count_limit != 0 {
        pos.count_ply = pos.count_ply.saturating_add(1);
    }
    if pos.board.by_role(Role::Bia).any() {
        return;
    }
    let s_bare = pos.is_bare(s);
    let m_bare = pos.is_bare(mover);
    if s_bare && m_bare {
        pos.count_limit = 0;
        pos.count_ply = 0;
        return;
    }
    if s_bare {
        if pos.count_limit == 0 || captured.is_some() {
            pos.count_limit = 2 * pieces_honour_reason(pos, mover).moves();
            pos.count_ply = 2 * n;
            pos.count_from = n + 1;
        }
        return;
    }
    if m_bare {
        if pos.count_limit == 0 {
            pos.count_limit = 2 * pieces_honour_reason(pos, s).moves();
            pos.count_ply = 2 * n - 1;
            pos.count_from = n + 1;
        }
        return;
    }
    let board_limit = 2 * pos.ruleset.rules().board_honour_moves;
    let (ms, mm) = (material(pos, s), material(pos, mover));
    if pos.count_limit == 0 {
        // The side with less material counts (equal: the side to move), from its turn on.
        if ms <= mm {
            pos.count_limit = board_limit;
            pos.count_ply = 0;
        }
    } else if captured.is_some() {
        let counting = if pos.count_ply & 1 == 0 { s } else { mover };
        if material(pos, counting) > material(pos, counting.other()) {
            if counting.other() == s {
                pos.count_limit = board_limit;
                pos.count_ply = 0;
            } else {
                pos.count_limit = 0;
                pos.count_ply = 0;
            }
        }
    }
}
