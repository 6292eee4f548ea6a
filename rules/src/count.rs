//! Counting (board's honour, pieces' honour) and the per-ruleset rule table.
//!
//! The differences between the rulesets are data ([`RuleTable`], from [`Ruleset::rules`]);
//! the counting state itself is two numbers kept in the [`Position`] exactly as
//! Fairy-Stockfish keeps them: the counting limit and the counting ply, both in plies
//! (RULES.md "Ruleset `standard`"). The count shown to players (pychess) is
//! `⌊(ply+1)/2⌋` of `limit/2`, on the side to move when `ply` is even, else on its opponent.
//!
//! The `material` ruleset (RULES.md "Ruleset `material`") keeps the same two numbers with
//! its own meaning for board's honour, so that the count exists at every ply from the first
//! position without an unpromoted Bia (see [`material_counter`]):
//! - the counting side is the side with less material; with equal material, the side to
//!   move when `ply` is even, else its opponent;
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

use crate::position::Position;
use crate::ruleset::{BoardHonour, PiecesHonourTable};
use crate::types::{Color, Role};

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

/// Material of side `c` in half-points for the `material` ruleset ([`material_value`] of
/// each of its pieces).
#[must_use]
pub fn material(pos: &Position, c: Color) -> u32 {
    let b = pos.board();
    [Role::Ruea, Role::Ma, Role::Khon, Role::Met, Role::Bia]
        .into_iter()
        .map(|r| material_value(r) * b.by_piece(c, r).count())
        .sum()
}

/// `material` board's honour: the counting side and the number it said on its last move (0
/// before its first), decoded from the stored counting ply (module docs). `None` when no count
/// runs, under another ruleset, or when a side has only its Khun (pieces' honour: the bare
/// side counts, `⌈ply/2⌉` as in `standard`).
#[must_use]
pub fn material_counter(pos: &Position) -> Option<(Color, u32)> {
    if pos.ruleset.rules().board_honour != BoardHonour::ByMaterial
        || pos.count_limit == 0
        || pos.is_bare(Color::White)
        || pos.is_bare(Color::Black)
    {
        return None;
    }
    Some((board_counter(pos), pos.count_ply.div_ceil(2)))
}

/// The side counting `material` board's honour (module docs): less material, else by the
/// parity of the counting ply.
fn board_counter(pos: &Position) -> Color {
    let (w, b) = (material(pos, Color::White), material(pos, Color::Black));
    match w.cmp(&b) {
        std::cmp::Ordering::Less => Color::White,
        std::cmp::Ordering::Greater => Color::Black,
        std::cmp::Ordering::Equal if pos.count_ply & 1 == 0 => pos.turn,
        std::cmp::Ordering::Equal => pos.turn.other(),
    }
}

/// The stored `material` board's honour ply for `counting` having said `said` (module docs).
fn board_ply(pos: &Position, counting: Color, said: u32) -> u32 {
    let twice = said.saturating_mul(2);
    if counting == pos.turn {
        twice
    } else {
        twice.saturating_sub(1)
    }
}

/// `material` after reading a FEN: a count runs exactly when no unpromoted Bia is left and a
/// side has more than its Khun. One that the FEN does not carry starts here: board's honour
/// from 0 (the side with less material counts; equal: the side to move), pieces' honour as
/// Fairy-Stockfish starts it (shown count = pieces on the board, the bare side's next move
/// says one more). A board's honour ply is rewritten in the form [`material_after_move`]
/// writes (e.g. `128 3` with the counting side to move becomes `128 4`: it said 2 and is
/// to move); limits are kept as read.
fn material_setup(pos: &mut Position) {
    let (wb, bb) = (pos.is_bare(Color::White), pos.is_bare(Color::Black));
    if pos.board.by_role(Role::Bia).any() || (wb && bb) {
        pos.count_limit = 0;
        pos.count_ply = 0;
        return;
    }
    let n = pos.board.occupied().count();
    if wb || bb {
        if pos.count_limit == 0 {
            let bare = if wb { Color::White } else { Color::Black };
            pos.count_limit = 2 * pieces_honour_reason(pos, bare.other()).moves();
            pos.count_ply = if bare == pos.turn { 2 * n } else { 2 * n - 1 };
        }
        return;
    }
    if pos.count_limit == 0 {
        pos.count_limit = 2 * pos.ruleset.rules().board_honour_moves;
        pos.count_ply = 0;
        return;
    }
    let counting = board_counter(pos);
    pos.count_ply = board_ply(pos, counting, pos.count_ply.div_ceil(2));
}

/// Fixes the state read from a FEN: for `material` the count that must run
/// ([`material_setup`]); the number a running pieces' honour count started from (unknown in a
/// FEN: the pieces on the board now, plus one, kept from here on); for `traditional` whether a
/// board's honour count was requested.
pub(crate) fn after_setup(pos: &mut Position) {
    if pos.ruleset.rules().board_honour == BoardHonour::ByMaterial {
        material_setup(pos);
    }
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

/// RULES.md "Ruleset `material`", in the stored form of the module docs. Called with the
/// position after the move (`pos.turn` is the mover's opponent) and before that the state as
/// [`material_after_move`] or [`material_setup`] left it: no count while an unpromoted Bia
/// stands, else a count in every position except Khun against Khun.
fn material_after_move(pos: &mut Position, mover: Color, captured: Option<Role>) {
    let s = pos.turn;
    let n = pos.board.occupied().count();
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
        // A capture (or the last Bia leaving) has just made `s` a bare Khun: pieces' honour
        // starts; its first move says pieces on the board + 1.
        if pos.count_limit == 0 || captured.is_some() {
            pos.count_limit = 2 * pieces_honour_reason(pos, mover).moves();
            pos.count_ply = 2 * n;
            pos.count_from = n + 1;
        } else {
            pos.count_ply = pos.count_ply.saturating_add(1);
        }
        return;
    }
    if m_bare {
        // The bare Khun has just captured the last Bia (count_limit 0), or counts on.
        if pos.count_limit == 0 {
            pos.count_limit = 2 * pieces_honour_reason(pos, s).moves();
            pos.count_ply = 2 * n - 1;
            pos.count_from = n + 1;
        } else {
            pos.count_ply = pos.count_ply.saturating_add(1);
        }
        return;
    }
    if pos.count_limit == 0 {
        // The last Bia has just left the board: board's honour starts at 0, for the side with
        // less material (equal: the side to move), whichever side that is.
        pos.count_limit = 2 * pos.ruleset.rules().board_honour_moves;
        pos.count_ply = 0;
        return;
    }
    // Board's honour runs and ran before this move (a side that is not bare now was not bare
    // before). Who counted before the move: material before the capture, else the parity
    // of the counting ply as it was.
    let before_s = material(pos, s) + captured.map_or(0, material_value);
    let now_mover = material(pos, mover);
    let counting = match before_s.cmp(&now_mover) {
        std::cmp::Ordering::Less => s,
        std::cmp::Ordering::Greater => mover,
        std::cmp::Ordering::Equal if pos.count_ply & 1 == 0 => mover,
        std::cmp::Ordering::Equal => s,
    };
    let said = pos.count_ply.div_ceil(2);
    pos.count_ply = if counting != mover {
        // The other side moved: the number stands, the counting side is to move.
        said.saturating_mul(2)
    } else if captured.is_some() && now_mover > material(pos, s) {
        // The counting side's capture gave it more material: the count passes to `s`, which
        // restarts (its next move says 1).
        0
    } else {
        // The counting side said one more.
        said.saturating_add(1).saturating_mul(2).saturating_sub(1)
    };
}
