//! Zobrist keys for repetition detection. As in Fairy-Stockfish, the key covers the placement
//! (by colour and role; a Bia-ngai hashes as a Met) and the side to move, not the counting state.

use crate::types::{Color, Role, Square};

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

static PIECE_KEYS: [[[u64; 64]; 6]; 2] = {
    let mut t = [[[0u64; 64]; 6]; 2];
    let mut c = 0;
    while c < 2 {
        let mut r = 0;
        while r < 6 {
            let mut s = 0;
            while s < 64 {
                t[c][r][s] = splitmix(((c * 6 + r) * 64 + s) as u64 + 1);
                s += 1;
            }
            r += 1;
        }
        c += 1;
    }
    t
};

/// Key toggled when Black is to move.
pub(crate) const SIDE_KEY: u64 = splitmix(0xDEAD_BEEF);

/// The key of a piece of `color` and `role` on `sq`.
#[inline]
pub(crate) fn piece_key(color: Color, role: Role, sq: Square) -> u64 {
    PIECE_KEYS[color.index()][role.index()][sq.index()]
}
