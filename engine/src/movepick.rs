//! Move ordering: the hash move, then promotions and captures that do not lose material
//! (most valuable victim, least valuable attacker, checked by static exchange evaluation),
//! the killer moves of the ply, quiet moves by history, and losing captures last.

use crate::attacks;
use crate::evaluate::value;
use makruk::{Board, Color, Move, MoveList, Role, Square};

/// Static exchange evaluation of `m` on `board` (`us` moves): the material balance of the
/// best sequence of captures on its target square, in centipawns. Pins are ignored; the
/// Ruea's x-rays through pieces that have captured are seen.
#[must_use]
pub fn see(board: &Board, m: &Move, us: Color) -> i32 {
    let to = m.to;
    let mut occ = board.occupied().0 & !(1u64 << m.from.index());
    let mut gain = [0i32; 34];
    gain[0] = m.capture.map_or(0, value);
    let mut on_square = if m.promotion {
        value(Role::Met)
    } else {
        value(m.role)
    };
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

/// A move packed as `from | to << 6` (what the transposition table stores).
#[must_use]
#[inline]
pub fn pack(m: &Move) -> u16 {
    (m.from.index() | (m.to.index() << 6)) as u16
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

const HASH_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
const BAD_CAPTURE: i32 = -(1 << 28);

/// Moves of one node with their ordering scores, handed out best first (selection sort:
/// a cut-off usually comes after the first few moves).
pub struct Picker {
    moves: [(Move, i32); makruk::MAX_MOVES],
    len: usize,
    next: usize,
}

impl Picker {
    /// Orders `moves` for a node of the main search.
    #[must_use]
    pub fn new(
        moves: &MoveList,
        board: &Board,
        us: Color,
        hash_move: u16,
        killers: &[Option<Move>; 2],
        history: &History,
    ) -> Picker {
        let mut p = Picker::empty();
        for m in moves.iter() {
            let score = if pack(m) == hash_move {
                HASH_MOVE
            } else if m.is_capture() || m.promotion {
                capture_score(board, m, us)
            } else if killers[0] == Some(*m) {
                KILLER
            } else if killers[1] == Some(*m) {
                KILLER - 1
            } else {
                history.get(us, m)
            };
            p.moves[p.len] = (*m, score);
            p.len += 1;
        }
        p
    }

    /// The captures and promotions of `moves` that do not lose material by exchange, best
    /// first (for quiescence).
    #[must_use]
    pub fn captures(moves: &MoveList, board: &Board, us: Color) -> Picker {
        let mut p = Picker::empty();
        for m in moves.iter() {
            if m.is_capture() || m.promotion {
                let score = capture_score(board, m, us);
                if score >= GOOD_CAPTURE {
                    p.moves[p.len] = (*m, score);
                    p.len += 1;
                }
            }
        }
        p
    }

    fn empty() -> Picker {
        Picker {
            moves: [(NULL, 0); makruk::MAX_MOVES],
            len: 0,
            next: 0,
        }
    }

    /// The next move, best first, with its ordering score.
    pub fn next(&mut self) -> Option<(Move, i32)> {
        if self.next >= self.len {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..self.len {
            if self.moves[i].1 > self.moves[best].1 {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }
}

const NULL: Move = Move {
    from: Square::from_index(0),
    to: Square::from_index(0),
    role: Role::Khun,
    capture: None,
    promotion: false,
};

/// True when an ordering score is that of a capture losing material by exchange.
#[must_use]
#[inline]
pub fn is_bad_capture(score: i32) -> bool {
    score < KILLER - 1 && score <= BAD_CAPTURE + (1 << 20)
}

/// Ordering score of a capture or promotion: good ones by victim then attacker, losing ones
/// after the quiet moves.
fn capture_score(board: &Board, m: &Move, us: Color) -> i32 {
    let victim = m.capture.map_or(0, value) + if m.promotion { 80 } else { 0 };
    let mvv_lva = victim * 16 - value(m.role).min(1000) / 10;
    if see(board, m, us) >= 0 {
        GOOD_CAPTURE + mvv_lva
    } else {
        BAD_CAPTURE + mvv_lva
    }
}
