//! Attack tables of the engine's own (the rules crate keeps its tables behind a module path
//! that may move): step pieces by table, the Ruea by rays. Bit `i` is square index `i`
//! (a1 = 0, index = 8·rank + file), as in [`makruk::Bitboard`].

use makruk::{Board, Color, Role, Square};

const fn step_table(steps: &[(i8, i8)]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        let (f, r) = ((s % 8) as i8, (s / 8) as i8);
        let mut i = 0;
        while i < steps.len() {
            let (nf, nr) = (f + steps[i].0, r + steps[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                t[s] |= 1u64 << (nr * 8 + nf);
            }
            i += 1;
        }
        s += 1;
    }
    t
}

const KING: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];
const DIAG: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

static KHUN: [u64; 64] = step_table(&KING);
static MET: [u64; 64] = step_table(&DIAG);
static MA: [u64; 64] = step_table(&KNIGHT);
static KHON: [[u64; 64]; 2] = [
    step_table(&[(1, 1), (1, -1), (-1, 1), (-1, -1), (0, 1)]),
    step_table(&[(1, 1), (1, -1), (-1, 1), (-1, -1), (0, -1)]),
];
static BIA: [[u64; 64]; 2] = [
    step_table(&[(1, 1), (-1, 1)]),
    step_table(&[(1, -1), (-1, -1)]),
];

/// Khun attacks from `sq`.
#[inline]
pub fn khun(sq: Square) -> u64 {
    KHUN[sq.index()]
}

/// Met (and Bia-ngai) attacks from `sq`.
#[inline]
pub fn met(sq: Square) -> u64 {
    MET[sq.index()]
}

/// Ma attacks from `sq`.
#[inline]
pub fn ma(sq: Square) -> u64 {
    MA[sq.index()]
}

/// Khon attacks of `c` from `sq`: the four diagonal steps and one straight forward.
#[inline]
pub fn khon(c: Color, sq: Square) -> u64 {
    KHON[c.index()][sq.index()]
}

/// Squares a Bia of `c` on `sq` attacks (diagonally forward).
#[inline]
pub fn bia(c: Color, sq: Square) -> u64 {
    BIA[c.index()][sq.index()]
}

const fn ray_table(df: i8, dr: i8) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        let (mut f, mut r) = ((s % 8) as i8 + df, (s / 8) as i8 + dr);
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            t[s] |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
        s += 1;
    }
    t
}

/// Rays toward higher square indices (north, east) and lower ones (south, west).
static RAY_UP: [[u64; 64]; 2] = [ray_table(0, 1), ray_table(1, 0)];
static RAY_DOWN: [[u64; 64]; 2] = [ray_table(0, -1), ray_table(-1, 0)];

/// Ruea attacks from `sq` with `occ` blocking (blockers included): each ray up to its first
/// blocker.
#[inline]
pub fn ruea(sq: Square, occ: u64) -> u64 {
    let s = sq.index();
    let mut a = 0;
    for ray in &RAY_UP {
        let r = ray[s];
        let b = r & occ;
        a |= if b == 0 {
            r
        } else {
            r & !ray[b.trailing_zeros() as usize]
        };
    }
    for ray in &RAY_DOWN {
        let r = ray[s];
        let b = r & occ;
        a |= if b == 0 {
            r
        } else {
            r & !ray[63 - b.leading_zeros() as usize]
        };
    }
    a
}

/// Attacks of a piece of `c` and `role` on `sq` (for a Bia: its capture squares).
#[inline]
pub fn piece(c: Color, role: Role, sq: Square, occ: u64) -> u64 {
    match role {
        Role::Khun => khun(sq),
        Role::Met => met(sq),
        Role::Khon => khon(c, sq),
        Role::Ma => ma(sq),
        Role::Ruea => ruea(sq, occ),
        Role::Bia => bia(c, sq),
    }
}

/// All pieces of both colours on `board` attacking `sq`, with `occ` blocking the Ruea.
#[inline]
pub fn attackers_to(board: &Board, sq: Square, occ: u64) -> u64 {
    let r = |role: Role| board.by_role(role).0;
    let w = board.by_color(Color::White).0;
    let b = board.by_color(Color::Black).0;
    (khun(sq) & r(Role::Khun))
        | (met(sq) & r(Role::Met))
        | (ma(sq) & r(Role::Ma))
        | (ruea(sq, occ) & r(Role::Ruea))
        // A White Khon/Bia attacks `sq` from where a Black one would step to from `sq`.
        | (khon(Color::Black, sq) & r(Role::Khon) & w)
        | (khon(Color::White, sq) & r(Role::Khon) & b)
        | (bia(Color::Black, sq) & r(Role::Bia) & w)
        | (bia(Color::White, sq) & r(Role::Bia) & b)
}

/// Squares attacked by the Bia of `c` in `bia_set`, set-wise.
#[inline]
pub fn bia_span(c: Color, bia_set: u64) -> u64 {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    match c {
        Color::White => ((bia_set & NOT_A) << 7) | ((bia_set & NOT_H) << 9),
        Color::Black => ((bia_set & NOT_A) >> 9) | ((bia_set & NOT_H) >> 7),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use makruk::{Position, Ruleset};

    #[test]
    fn ruea_rays_stop_at_the_first_blocker() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = x & (x >> 5);
            for sq in Square::all() {
                let mut slow = 0u64;
                for (df, dr) in [(1i32, 0i32), (-1, 0), (0, 1), (0, -1)] {
                    let (mut f, mut r) = (i32::from(sq.file()) + df, i32::from(sq.rank()) + dr);
                    while (0..8).contains(&f) && (0..8).contains(&r) {
                        slow |= 1 << (r * 8 + f);
                        if occ & (1 << (r * 8 + f)) != 0 {
                            break;
                        }
                        f += df;
                        r += dr;
                    }
                }
                assert_eq!(ruea(sq, occ), slow, "{sq} {occ:x}");
            }
        }
    }

    #[test]
    fn attackers_agree_with_the_rules_crate() {
        // Every square of a few positions: our attackers equal the rules crate's, per colour.
        for fen in [
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
            "rnsm1s1r/4n1k1/1ppppppp/p7/2PPP3/PP3PPP/4N2R/RNSKMS2 b - - 1 5",
            "r1smksnr/3n4/pppp1ppp/4p3/4PP2/PPPP2PP/8/RNSKMSNR w - - 0 1",
            "8/3k4/6M~1/2K1S3/8/8/8/8 b - 88 8 1",
        ] {
            let pos = Position::from_fen(fen, Ruleset::Standard).expect("valid");
            let board = pos.board();
            let occ = board.occupied().0;
            for sq in Square::all() {
                let ours = attackers_to(board, sq, occ);
                for c in Color::ALL {
                    assert_eq!(
                        ours & board.by_color(c).0,
                        pos.attackers_of(sq, c).0,
                        "{fen} {sq} {c:?}"
                    );
                }
            }
        }
    }
}
