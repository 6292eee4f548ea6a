//! Attack tables, computed at compile time by `const fn`.
//!
//! Step pieces (Khun, Met, Khon, Ma, Bia) use one table per square (and colour where the
//! piece has a forward direction). The Ruea, the only sliding piece of Makruk, uses
//! "kindergarten" rank and file tables: the six inner occupancy bits of the rank (a shift) or
//! the file (a shift and one constant multiplication) index a table of attack sets. No magic
//! numbers to search for, no PEXT.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::types::{Color, Role, Square};

const FILE_A: u64 = 0x0101_0101_0101_0101;
/// Multiplier gathering the six inner bits of file a (a2..a7) into bits 58..63.
const FILE_MULT: u64 = 0x0080_4020_1008_0400;

const fn step_table(deltas: &[(i8, i8)]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let f = (sq % 8) as i8;
        let r = (sq / 8) as i8;
        let mut i = 0;
        while i < deltas.len() {
            let (df, dr) = deltas[i];
            let nf = f + df;
            let nr = r + dr;
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                t[sq] |= 1u64 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

static KHUN: [u64; 64] = step_table(&[
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
]);
static MET: [u64; 64] = step_table(&[(-1, -1), (1, -1), (-1, 1), (1, 1)]);
static MA: [u64; 64] = step_table(&[
    (-2, -1),
    (-1, -2),
    (1, -2),
    (2, -1),
    (-2, 1),
    (-1, 2),
    (1, 2),
    (2, 1),
]);
static KHON: [[u64; 64]; 2] = [
    step_table(&[(-1, -1), (1, -1), (-1, 1), (1, 1), (0, 1)]),
    step_table(&[(-1, -1), (1, -1), (-1, 1), (1, 1), (0, -1)]),
];
static BIA: [[u64; 64]; 2] = [
    step_table(&[(-1, 1), (1, 1)]),
    step_table(&[(-1, -1), (1, -1)]),
];

/// Slow ray attack along one line of 8 squares: `pos` 0..8, `occ` 8-bit occupancy.
const fn line_attack(pos: u32, occ: u32) -> u32 {
    let mut a = 0u32;
    let mut i = pos as i32 + 1;
    while i < 8 {
        a |= 1 << i;
        if occ & (1 << i) != 0 {
            break;
        }
        i += 1;
    }
    let mut i = pos as i32 - 1;
    while i >= 0 {
        a |= 1 << i;
        if occ & (1 << i) != 0 {
            break;
        }
        i -= 1;
    }
    a
}

/// `RANK[file][inner]`: attacks along the rank (8 bits) from `file`, inner occupancy bits b..g.
static RANK: [[u8; 64]; 8] = {
    let mut t = [[0u8; 64]; 8];
    let mut f = 0;
    while f < 8 {
        let mut o = 0;
        while o < 64 {
            t[f][o] = line_attack(f as u32, (o as u32) << 1) as u8;
            o += 1;
        }
        f += 1;
    }
    t
};

/// `FILE[rank][index]`: attacks along file a from `rank`, indexed by the gathered file bits.
static FILE: [[u64; 64]; 8] = {
    let mut t = [[0u64; 64]; 8];
    let mut r = 0;
    while r < 8 {
        let mut o = 0u32;
        while o < 64 {
            // occupancy of a2..a7 from the 6 bits of `o`
            let mut occ = 0u64;
            let mut k = 0;
            while k < 6 {
                if o & (1 << k) != 0 {
                    occ |= 1u64 << (8 * (k + 1));
                }
                k += 1;
            }
            let idx = (occ.wrapping_mul(FILE_MULT) >> 58) as usize;
            let a = line_attack(r as u32, o << 1);
            let mut bb = 0u64;
            let mut j = 0;
            while j < 8 {
                if a & (1 << j) != 0 {
                    bb |= 1u64 << (8 * j);
                }
                j += 1;
            }
            t[r][idx] = bb;
            o += 1;
        }
        r += 1;
    }
    t
};

/// Squares strictly between two squares on a common rank or file (empty otherwise).
static BETWEEN: [[u64; 64]; 64] = {
    let mut t = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let (fa, ra, fb, rb) = (a % 8, a / 8, b % 8, b / 8);
            if a != b && (fa == fb || ra == rb) {
                let step: i32 = if fa == fb { 8 } else { 1 };
                let (lo, hi) = if a < b {
                    (a as i32, b as i32)
                } else {
                    (b as i32, a as i32)
                };
                let mut s = lo + step;
                while s < hi {
                    t[a][b] |= 1u64 << s;
                    s += step;
                }
            }
            b += 1;
        }
        a += 1;
    }
    t
};

/// Khun (king) attacks from `sq`.
#[must_use]
#[inline]
pub fn khun_attacks(sq: Square) -> Bitboard {
    Bitboard(KHUN[sq.index()])
}

/// Met (and Bia-ngai) attacks from `sq`: one step diagonally.
#[must_use]
#[inline]
pub fn met_attacks(sq: Square) -> Bitboard {
    Bitboard(MET[sq.index()])
}

/// Khon attacks of `color` from `sq`: one step diagonally or straight forward.
#[must_use]
#[inline]
pub fn khon_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(KHON[color.index()][sq.index()])
}

/// Ma (knight) attacks from `sq`.
#[must_use]
#[inline]
pub fn ma_attacks(sq: Square) -> Bitboard {
    Bitboard(MA[sq.index()])
}

/// Bia (unpromoted pawn) capture squares of `color` from `sq`: one step diagonally forward.
#[must_use]
#[inline]
pub fn bia_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(BIA[color.index()][sq.index()])
}

/// Ruea (rook) attacks from `sq` with the pieces `occupied` blocking (blockers included).
#[must_use]
#[inline]
pub fn ruea_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let s = sq.index();
    let f = s & 7;
    let r = s >> 3;
    let rank_idx = ((occupied.0 >> (8 * r + 1)) & 63) as usize;
    let rank = (RANK[f][rank_idx] as u64) << (8 * r);
    let file_idx = (((occupied.0 >> f) & FILE_A).wrapping_mul(FILE_MULT) >> 58) as usize;
    let file = FILE[r][file_idx] << f;
    Bitboard(rank | file)
}

/// The pieces of `by` on `board` that attack `sq`, with `occupied` as the pieces that block a
/// Ruea (pass `board.occupied()`, or less to look through a piece that is about to move).
#[must_use]
#[inline]
pub fn attackers(board: &Board, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
    ((khun_attacks(sq) & board.by_role(Role::Khun))
        | (met_attacks(sq) & board.by_role(Role::Met))
        | (ma_attacks(sq) & board.by_role(Role::Ma))
        | (khon_attacks(by.other(), sq) & board.by_role(Role::Khon))
        | (bia_attacks(by.other(), sq) & board.by_role(Role::Bia))
        | (ruea_attacks(sq, occupied) & board.by_role(Role::Ruea)))
        & board.by_color(by)
}

/// Squares strictly between `a` and `b` when they share a rank or a file; empty otherwise.
#[must_use]
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index()][b.index()])
}

/// The whole rank or file through `a` and `b` if they share one (both included); else empty.
#[must_use]
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    if a == b {
        Bitboard::EMPTY
    } else if a.rank() == b.rank() {
        Bitboard::rank(a.rank())
    } else if a.file() == b.file() {
        Bitboard::file(a.file())
    } else {
        Bitboard::EMPTY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slow_ruea(sq: Square, occ: u64) -> u64 {
        let mut a = 0u64;
        for (df, dr) in [(1i8, 0i8), (-1, 0), (0, 1), (0, -1)] {
            let (mut f, mut r) = (sq.file() as i8, sq.rank() as i8);
            loop {
                f += df;
                r += dr;
                if !(0..8).contains(&f) || !(0..8).contains(&r) {
                    break;
                }
                let b = 1u64 << (r * 8 + f);
                a |= b;
                if occ & b != 0 {
                    break;
                }
            }
        }
        a
    }

    #[test]
    fn ruea_tables_match_slow_rays() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = x & (x >> 3) & (x >> 11);
            for sq in Square::all() {
                assert_eq!(ruea_attacks(sq, Bitboard(occ)).0, slow_ruea(sq, occ));
            }
        }
    }

    #[test]
    fn step_tables() {
        let e4: Square = "e4".parse().unwrap();
        assert_eq!(khun_attacks(e4).count(), 8);
        assert_eq!(met_attacks(e4).count(), 4);
        assert_eq!(ma_attacks(e4).count(), 8);
        assert!(khon_attacks(Color::White, e4).contains("e5".parse().unwrap()));
        assert!(!khon_attacks(Color::White, e4).contains("e3".parse().unwrap()));
        assert!(khon_attacks(Color::Black, e4).contains("e3".parse().unwrap()));
        assert_eq!(bia_attacks(Color::White, "a3".parse().unwrap()).count(), 1);
        assert_eq!(
            between("a1".parse().unwrap(), "a8".parse().unwrap()).count(),
            6
        );
    }
}
