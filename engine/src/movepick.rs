//! Move ordering: the hash move, then promotions and captures that do not lose material
//! (most valuable victim, least valuable attacker, checked by static exchange evaluation),
//! the killer moves of the ply and the counter-move (the quiet reply that last refuted the
//! opponent's move), quiet moves by history and continuation history, and losing captures
//! last.

use crate::attacks;
use crate::evaluate::value;
use makruk::{Board, Color, Move, MoveList, Position, Role, Square, Variant};

/// Static exchange evaluation of `m` on `board` (`us` moves): the material balance of the
/// best sequence of captures on its target square, in centipawns. Pins are ignored; the
/// Ruea's x-rays through pieces that have captured are seen.
#[must_use]
pub fn see(board: &Board, m: &Move, us: Color) -> i32 {
    let to = m.to;
    let mut occ = board.occupied().0 & !(1u64 << m.from.index());
    let mut gain = [0i32; 34];
    gain[0] = m.capture.map_or(0, value);
    let mut on_square = value(m.promotion_role().unwrap_or(m.role));
    let mut side = us.other();
    let mut d = 0;
    loop {
        let att = attacks::attackers_to(board, to, occ) & occ & board.by_color(side).0;
        if att == 0 || d + 1 >= gain.len() {
            break;
        }
        let Some((sq, role)) = least_valuable(board, att) else {
            break;
        };
        d += 1;
        gain[d] = on_square - gain[d - 1];
        if (-gain[d - 1]).max(gain[d]) < 0 {
            break;
        }
        on_square = value(role);
        occ &= !(1u64 << sq.index());
        side = side.other();
    }
    while d > 0 {
        gain[d - 1] = -((-gain[d - 1]).max(gain[d]));
        d -= 1;
    }
    gain[0]
}

fn least_valuable(board: &Board, att: u64) -> Option<(Square, Role)> {
    for role in [
        Role::Bia,
        Role::Met,
        Role::Khon,
        Role::Ma,
        Role::Ruea,
        Role::Khun,
    ] {
        let b = att & board.by_role(role).0;
        if b != 0 {
            return Square::new(b.trailing_zeros() as u8).map(|s| (s, role));
        }
    }
    None
}

/// A move packed as `from | to << 6 | extra << 12` (what the transposition table stores),
/// `extra` telling apart the moves of the variants that share their squares: 0 for an
/// ordinary move, `8 | role` for a promotion to `role` (ASEAN's choice; Sittuyin's promotion
/// in place, `from == to`), `1 + role` for a drop of `role` (Sittuyin, `from == to`). Never
/// [`crate::tt::NO_MOVE`].
#[must_use]
#[inline]
pub fn pack(m: &Move) -> u16 {
    let extra = if m.promotion {
        8 | m.promotion_role().map_or(0, Role::index)
    } else if m.from == m.to {
        1 + m.role.index()
    } else {
        0
    };
    (m.from.index() | (m.to.index() << 6) | (extra << 12)) as u16
}

/// Butterfly history of quiet moves, by side, from and to.
pub struct History(Box<[[[i32; 64]; 64]; 2]>);

impl Default for History {
    fn default() -> History {
        History(Box::new([[[0; 64]; 64]; 2]))
    }
}

/// The largest magnitude of a history entry.
const HISTORY_MAX: i32 = 16_384;

impl History {
    /// The score of a quiet move of `c`.
    #[must_use]
    #[inline]
    pub fn get(&self, c: Color, m: &Move) -> i32 {
        self.0[c.index()][m.from.index()][m.to.index()]
    }

    /// Rewards (`bonus > 0`) or punishes a quiet move; entries saturate at ±16384.
    #[inline]
    pub fn update(&mut self, c: Color, m: &Move, bonus: i32) {
        let e = &mut self.0[c.index()][m.from.index()][m.to.index()];
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *e += b - *e * b.abs() / HISTORY_MAX;
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        *self.0 = [[[0; 64]; 64]; 2];
    }

    /// Halves every entry (between searches: old knowledge fades).
    pub fn age(&mut self) {
        for side in self.0.iter_mut() {
            for row in side.iter_mut() {
                for e in row.iter_mut() {
                    *e /= 2;
                }
            }
        }
    }
}

/// Continuation history: how a quiet move (by side and role, target square) fared after a
/// given earlier move (by side and role, target square) one or two plies before it.
pub struct ContHistory(Box<[[[[i16; 64]; 12]; 64]; 12]>);

impl Default for ContHistory {
    fn default() -> ContHistory {
        ContHistory(
            vec![[[[0i16; 64]; 12]; 64]; 12]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!()),
        )
    }
}

/// The index of a piece (side and role) in the continuation history.
#[inline]
fn piece(c: Color, m: &Move) -> usize {
    c.index() * 6 + m.role.index()
}

/// The part of the continuation history that follows one earlier move, by `pc`
/// ([`ContHistory::get`]; worked out once a node).
#[must_use]
#[inline]
pub fn cont_row((pc, prev): (Color, Move)) -> (usize, usize) {
    (piece(pc, &prev), prev.to.index())
}

impl ContHistory {
    /// The score of `m` by `c` after the earlier move of `row` ([`cont_row`]).
    #[must_use]
    #[inline]
    pub fn get(&self, (p, to): (usize, usize), c: Color, m: &Move) -> i32 {
        i32::from(self.0[p][to][piece(c, m)][m.to.index()])
    }

    /// Rewards or punishes `m` after `prev`; entries saturate at ±16384.
    #[inline]
    pub fn update(&mut self, (pc, prev): (Color, Move), c: Color, m: &Move, bonus: i32) {
        let e = &mut self.0[piece(pc, &prev)][prev.to.index()][piece(c, m)][m.to.index()];
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let v = i32::from(*e);
        *e = (v + b - v * b.abs() / HISTORY_MAX) as i16;
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        for a in self.0.iter_mut() {
            for b in a.iter_mut() {
                *b = [[0; 64]; 12];
            }
        }
    }
}

const HASH_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
const BAD_CAPTURE: i32 = -(1 << 28);

/// Moves of one node with their ordering scores, handed out best first: the first
/// [`SORT_AFTER`] by a scan for the best (a cut-off usually comes after the first few
/// moves), the rest sorted at once. The buffer is recycled from node to
/// node ([`Picker::into_buf`]) so that no node allocates.
///
/// A picker made by [`Picker::lazy`] hands out the table's move before scoring the others
/// ([`Picker::pick_scoring`] scores them when they are first needed): most cut-offs come from
/// the table's move, and scoring every quiet move (its history and continuation history, in
/// large tables) for a node that it cuts is wasted work.
pub struct Picker {
    moves: Vec<(Move, i32)>,
    next: usize,
    /// The moves from `next` on still wait for their scores.
    unscored: bool,
    /// The moves from `next` on are in order ([`SORT_AFTER`]).
    sorted: bool,
}

/// After this many moves handed out, a picker sorts the rest at once instead of finding the
/// best of them for every pick: a node that goes on that far (an all-node) usually takes
/// every move, and one sort costs less than a scan per move.
const SORT_AFTER: usize = 3;

/// How [`score`] orders the moves of a main-search node: `killers` (the ply's killers, then
/// the counter-move) in their order, quiet moves by `quiet` (their history).
pub struct Ordering<'a, F: Fn(&Move) -> i32> {
    /// The board the moves are played on.
    pub board: &'a Board,
    /// The side to move.
    pub us: Color,
    /// The killer moves and the counter-move, best first.
    pub killers: &'a [Option<Move>],
    /// The score of a quiet move that is not a killer.
    pub quiet: F,
}

/// Scores `moves` in place for a node of the main search: good captures and promotions
/// first, the killers, the other quiet moves by history, losing captures last.
pub fn score<F: Fn(&Move) -> i32>(moves: &mut [(Move, i32)], o: &Ordering<'_, F>) {
    for (m, s) in moves.iter_mut() {
        *s = if m.is_capture() || m.promotion {
            capture_score(o.board, m, o.us)
        } else if let Some(k) = o.killers.iter().position(|k| *k == Some(*m)) {
            KILLER - k as i32
        } else {
            (o.quiet)(m)
        };
    }
}

impl Picker {
    /// Orders `moves` for a node of the main search: the move packed as `hash_move` first,
    /// then as [`score`] orders them.
    #[must_use]
    pub fn new<F: Fn(&Move) -> i32>(
        buf: Vec<(Move, i32)>,
        moves: &MoveList,
        hash_move: u16,
        ordering: &Ordering<'_, F>,
    ) -> Picker {
        let mut p = Picker::lazy(buf, moves, hash_move);
        let from = usize::from(p.moves.first().is_some_and(|m| m.1 == HASH_MOVE));
        score(&mut p.moves[from..], ordering);
        p.unscored = false;
        p
    }

    /// `moves` with the move packed as `hash_move` first and the others not yet scored:
    /// hand them out with [`Picker::pick_scoring`].
    #[must_use]
    pub fn lazy(mut buf: Vec<(Move, i32)>, moves: &MoveList, hash_move: u16) -> Picker {
        buf.clear();
        buf.extend(moves.iter().map(|m| (*m, 0)));
        if hash_move != crate::tt::NO_MOVE {
            if let Some(i) = buf.iter().position(|(m, _)| pack(m) == hash_move) {
                buf.swap(0, i);
                buf[0].1 = HASH_MOVE;
            }
        }
        Picker {
            moves: buf,
            next: 0,
            unscored: true,
            sorted: false,
        }
    }

    /// The next move, best first, with its ordering score; the moves not yet scored are
    /// scored by `ordering` first (once, when the table's move, if any, has been handed out).
    pub fn pick_scoring<'a, F: Fn(&Move) -> i32>(
        &mut self,
        ordering: impl FnOnce() -> Ordering<'a, F>,
    ) -> Option<(Move, i32)> {
        if self.unscored {
            let hash_first = self.moves.first().is_some_and(|m| m.1 == HASH_MOVE);
            if self.next > 0 || !hash_first {
                let from = self.next;
                score(&mut self.moves[from..], &ordering());
                self.unscored = false;
            }
        }
        self.pick()
    }

    /// The captures and promotions of the side to move that do not lose material by
    /// exchange, best first (for quiescence when not in check). In Makruk, Makpong and Ouk
    /// Chaktrang they are generated here pseudo-legally, from the engine's attack tables: the
    /// caller must reject a move that leaves its Khun attacked ([`leaves_khun_attacked`]). In
    /// ASEAN and Sittuyin they are the rules crate's legal moves (so that check is harmless
    /// there).
    #[must_use]
    pub fn captures(mut buf: Vec<(Move, i32)>, pos: &Position) -> Picker {
        buf.clear();
        let board = pos.board();
        let us = pos.turn();
        if !matches!(
            pos.variant(),
            Variant::Makruk | Variant::Makpong | Variant::Cambodian
        ) {
            // ASEAN and Sittuyin promote elsewhere (ASEAN: the last rank, to a piece chosen;
            // Sittuyin: a move of its own) and Sittuyin drops: take the captures and
            // promotions from the rules crate's legal moves. (Makpong and Ouk Chaktrang, not
            // in check, capture and promote exactly as Makruk: Makpong's rule is about the
            // Khun in check, Ouk Chaktrang's first-move jumps never capture.)
            for m in pos.legal_moves().iter() {
                if m.is_capture() || m.promotion {
                    let score = capture_score(board, m, us);
                    if score >= GOOD_CAPTURE {
                        buf.push((*m, score));
                    }
                }
            }
            return Picker {
                moves: buf,
                next: 0,
                unscored: false,
                sorted: false,
            };
        }
        let occ = board.occupied().0;
        let theirs = board.by_color(us.other()).0;
        let prom_rank = if us == Color::White { 5 } else { 2 };
        for from in board.by_color(us) {
            let Some(role) = board.role_at(from) else {
                continue;
            };
            let mut targets = attacks::piece(us, role, from, occ) & theirs;
            if role == Role::Bia {
                let to = if us == Color::White {
                    from.index() + 8
                } else {
                    from.index().wrapping_sub(8)
                };
                if to < 64 && (to / 8) as u8 == prom_rank && occ & (1u64 << to) == 0 {
                    targets |= 1u64 << to;
                }
            }
            while targets != 0 {
                let to = Square::from_index(targets.trailing_zeros() as u8);
                targets &= targets - 1;
                let m = Move {
                    from,
                    to,
                    role,
                    capture: board.role_at(to),
                    promotion: role == Role::Bia && to.rank() == prom_rank,
                };
                let score = capture_score(board, &m, us);
                if score >= GOOD_CAPTURE {
                    buf.push((m, score));
                }
            }
        }
        Picker {
            moves: buf,
            next: 0,
            unscored: false,
            sorted: false,
        }
    }

    /// The next move, best first, with its ordering score.
    pub fn pick(&mut self) -> Option<(Move, i32)> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        if !self.sorted && self.next == SORT_AFTER && !self.unscored {
            self.moves[self.next..].sort_unstable_by_key(|m| std::cmp::Reverse(m.1));
            self.sorted = true;
        }
        if self.sorted {
            self.next += 1;
            return Some(self.moves[self.next - 1]);
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.moves[i].1 > self.moves[best].1 {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }

    /// Gives the buffer back for the next node.
    #[must_use]
    pub fn into_buf(self) -> Vec<(Move, i32)> {
        self.moves
    }
}

/// True when `m` (legal in `pos`) gives check: directly from its target square (a promoted
/// Bia as a Met), or by uncovering a Ruea of the mover. Assumes, as in every legal position,
/// that the Khun of the side not to move is not in check already.
#[must_use]
#[inline]
pub fn gives_check(pos: &Position, m: &Move) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let Some(k) = board.khun_of(us.other()) else {
        return false;
    };
    let occ = (board.occupied().0 & !(1u64 << m.from.index())) | (1u64 << m.to.index());
    let role = m.promotion_role().unwrap_or(m.role);
    if attacks::piece(us, role, m.to, occ) & (1u64 << k.index()) != 0 {
        return true;
    }
    // A discovered check: only a Ruea can give one, through the square left, which must
    // then share a rank or a file with the Khun (the Khun was not in check before the move).
    let rueas = board.by_piece(us, Role::Ruea).0 & !(1u64 << m.from.index());
    if rueas == 0 || (m.from.rank() != k.rank() && m.from.file() != k.file()) {
        return false;
    }
    attacks::ruea(k, occ) & rueas != 0
}

/// True when, in `child` (the position after a move), the side that moved has its Khun
/// attacked: the move was not legal.
#[must_use]
#[inline]
pub fn leaves_khun_attacked(child: &Position) -> bool {
    let mover = child.turn().other();
    let board = child.board();
    board.khun_of(mover).is_some_and(|k| {
        attacks::attackers_to(board, k, board.occupied().0) & board.by_color(child.turn()).0 != 0
    })
}

/// True when an ordering score is that of a capture losing material by exchange.
#[must_use]
#[inline]
pub fn is_bad_capture(score: i32) -> bool {
    score <= BAD_CAPTURE + (1 << 20)
}

/// Ordering score of a capture or promotion: good ones by victim then attacker, losing ones
/// after the quiet moves.
fn capture_score(board: &Board, m: &Move, us: Color) -> i32 {
    let victim = m.capture.map_or(0, value)
        + m.promotion_role()
            .map_or(0, |r| value(r) - value(Role::Bia));
    let mvv_lva = victim * 16 - value(m.moving_role()).min(1000) / 10;
    if see(board, m, us) >= 0 {
        GOOD_CAPTURE + mvv_lva
    } else {
        BAD_CAPTURE + mvv_lva
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use makruk::{Game, Ruleset};

    /// The positions of `games` random games of at most `plies` plies each from `new_game`,
    /// drawn with the xorshift state `x`; with `captures`, a capture half the time when
    /// there is one.
    fn random_games(
        new_game: impl Fn() -> Game,
        games: usize,
        plies: usize,
        x: &mut u64,
        captures: bool,
    ) -> Vec<Position> {
        let mut below = |n: usize| {
            *x ^= *x << 13;
            *x ^= *x >> 7;
            *x ^= *x << 17;
            (*x % n as u64) as usize
        };
        let mut out = Vec::new();
        for _ in 0..games {
            let mut g = new_game();
            for _ in 0..plies {
                if g.outcome().is_some() {
                    break;
                }
                let moves = g.position().legal_moves();
                let caps: Vec<_> = if captures {
                    moves.iter().filter(|m| m.is_capture()).collect()
                } else {
                    Vec::new()
                };
                let m = if !caps.is_empty() && below(2) == 0 {
                    *caps[below(caps.len())]
                } else {
                    moves[below(moves.len())]
                };
                g.play(&m).expect("legal");
                out.push(g.position().clone());
            }
        }
        out
    }

    /// Positions from a reproducible random playout with captures favoured.
    fn positions() -> Vec<Position> {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        random_games(|| Game::new(Ruleset::Standard), 60, 120, &mut x, true)
    }

    /// Positions of random games of every variant (drops, promotions by choice, gates).
    fn variant_positions() -> Vec<Position> {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut out = Vec::new();
        for variant in makruk::Variant::ALL {
            let start = Position::from_fen_variant(variant.start_fen(), variant)
                .expect("the variant's start position");
            out.extend(random_games(
                || Game::from_position(start.clone()),
                8,
                150,
                &mut x,
                false,
            ));
        }
        out
    }

    #[test]
    fn gives_check_agrees_with_playing_the_move() {
        for pos in positions().into_iter().chain(variant_positions()) {
            for m in pos.legal_moves().iter() {
                assert_eq!(
                    gives_check(&pos, m),
                    pos.after(m).is_check(),
                    "{} {m:?}",
                    pos.fen()
                );
            }
        }
    }

    #[test]
    fn quiescence_moves_are_the_legal_winning_captures() {
        for pos in positions() {
            if pos.is_check() {
                continue;
            }
            let mut picker = Picker::captures(Vec::new(), &pos);
            let mut ours = Vec::new();
            while let Some((m, _)) = picker.pick() {
                if !leaves_khun_attacked(&pos.after(&m)) {
                    ours.push(m);
                }
            }
            let mut legal: Vec<Move> = pos
                .legal_moves()
                .iter()
                .copied()
                .filter(|m| (m.is_capture() || m.promotion) && see(pos.board(), m, pos.turn()) >= 0)
                .collect();
            let key = |m: &Move| (m.from, m.to);
            ours.sort_by_key(key);
            legal.sort_by_key(key);
            assert_eq!(ours, legal, "{}", pos.fen());
        }
    }

    #[test]
    fn a_lazy_picker_scores_nothing_before_the_tables_move_and_then_orders_as_the_eager_one() {
        use std::cell::Cell;
        for pos in positions() {
            let moves = pos.legal_moves();
            let Some(last) = moves.iter().last() else {
                continue;
            };
            let us = pos.turn();
            // Some made-up history, and the last legal move as the table's.
            let quiet = |m: &Move| (m.from.index() * 7 + m.to.index() * 13) as i32 % 50;
            let killers = [moves.iter().find(|m| !m.is_capture()).copied()];
            let ordering = || Ordering {
                board: pos.board(),
                us,
                killers: &killers,
                quiet,
            };
            let calls = Cell::new(0);
            // The lazy picker's scoring must not look at a move already handed out.
            let rescored = Cell::new(false);
            let lazy_ordering = || {
                calls.set(calls.get() + 1);
                Ordering {
                    board: pos.board(),
                    us,
                    killers: &killers,
                    quiet: |m: &Move| {
                        rescored.set(rescored.get() || m == last);
                        quiet(m)
                    },
                }
            };
            let mut lazy = Picker::lazy(Vec::new(), &moves, pack(last));
            let first = lazy.pick_scoring(lazy_ordering);
            assert_eq!(first, Some((*last, HASH_MOVE)), "{}", pos.fen());
            assert_eq!(
                calls.get(),
                0,
                "scored before the table's move: {}",
                pos.fen()
            );
            let mut eager = Picker::new(Vec::new(), &moves, pack(last), &ordering());
            assert_eq!(eager.pick(), first);
            let mut handed_out = vec![*last];
            loop {
                let l = lazy.pick_scoring(lazy_ordering);
                assert_eq!(l, eager.pick(), "{}", pos.fen());
                let Some((m, _)) = l else {
                    break;
                };
                handed_out.push(m);
            }
            assert_eq!(calls.get(), 1, "scored once: {}", pos.fen());
            assert!(!rescored.get(), "the table's move scored: {}", pos.fen());
            // Every legal move, once.
            let key = |m: &Move| (m.from, m.to, m.promotion_role());
            let mut legal: Vec<Move> = moves.iter().copied().collect();
            legal.sort_by_key(key);
            handed_out.sort_by_key(key);
            assert_eq!(handed_out, legal, "{}", pos.fen());
            // Without a table's move, everything is scored before the first move.
            let mut lazy = Picker::lazy(Vec::new(), &moves, crate::tt::NO_MOVE);
            let mut eager = Picker::new(Vec::new(), &moves, crate::tt::NO_MOVE, &ordering());
            assert_eq!(lazy.pick_scoring(ordering), eager.pick());
        }
    }

    #[test]
    fn a_picker_hands_out_every_move_once_best_first() {
        // The first moves found by a scan each, the rest sorted at once (`SORT_AFTER`): the
        // order by score must not change where one way hands over to the other.
        let mut long = 0;
        for pos in positions() {
            let moves = pos.legal_moves();
            let quiet = |m: &Move| (m.from.index() * 7 + m.to.index() * 13) as i32 % 50;
            let ordering = Ordering {
                board: pos.board(),
                us: pos.turn(),
                killers: &[],
                quiet,
            };
            let mut picker = Picker::new(Vec::new(), &moves, crate::tt::NO_MOVE, &ordering);
            let mut out = Vec::new();
            while let Some(p) = picker.pick() {
                out.push(p);
            }
            long += usize::from(out.len() > SORT_AFTER + 1);
            assert!(
                out.windows(2).all(|w| w[0].1 >= w[1].1),
                "{}: {out:?}",
                pos.fen()
            );
            let key = |m: &Move| (m.from, m.to, m.promotion_role());
            let mut handed: Vec<Move> = out.iter().map(|p| p.0).collect();
            let mut legal: Vec<Move> = moves.iter().copied().collect();
            handed.sort_by_key(key);
            legal.sort_by_key(key);
            assert_eq!(handed, legal, "{}", pos.fen());
        }
        assert!(
            long > 100,
            "{long} positions with more than {SORT_AFTER} moves"
        );
    }

    #[test]
    fn exchange_evaluation() {
        let pos = |fen| Position::from_fen(fen, Ruleset::Standard).expect("valid");
        let find = |p: &Position, from: &str, to: &str| {
            *p.legal_moves()
                .iter()
                .find(|m| m.from.to_string() == from && m.to.to_string() == to)
                .expect("move")
        };
        // Ruea takes a Bia defended by a Bia: loses a Ruea for a Bia.
        let p = pos("4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1");
        assert_eq!(
            see(p.board(), &find(&p, "d1", "d5"), Color::White),
            100 - 500
        );
        // Ruea takes an undefended Ma.
        let p = pos("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1");
        assert_eq!(see(p.board(), &find(&p, "d1", "d5"), Color::White), 310);
        // Two Ruea on the file against one defender Ruea: the x-ray wins the Bia.
        let p = pos("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1");
        assert_eq!(see(p.board(), &find(&p, "d2", "d5"), Color::White), 100);
    }
}
