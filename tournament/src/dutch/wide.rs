//! A fixed-width signed integer of `N` 64-bit limbs (two's complement), for the edge weights
//! of the Dutch system, whose criteria are packed side by side into one very wide number.
//!
//! The width needed grows with the bracket (a few hundred bits for a club event, some thousands
//! for a 200-player one), so the pairing picks `N` per bracket (see `super::bracket`).

use std::cmp::Ordering;

use super::matching::Weight;

/// A signed integer of `64 × N` bits in two's complement, limbs least significant first.
///
/// Arithmetic wraps modulo `2^(64N)`: callers choose `N` so that no value they form overflows.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Wide<const N: usize>(pub [u64; N]);

impl<const N: usize> Wide<N> {
    /// Zero.
    pub const ZERO: Self = Self([0; N]);

    /// The value of a signed 64-bit integer.
    #[must_use]
    pub fn from_i64(v: i64) -> Self {
        let fill = if v < 0 { u64::MAX } else { 0 };
        let mut limbs = [fill; N];
        limbs[0] = v as u64;
        Self(limbs)
    }

    /// `2^bits` (wrapping to zero when `bits >= 64 N`).
    #[must_use]
    pub fn pow2(bits: u32) -> Self {
        let mut limbs = [0; N];
        let i = (bits / 64) as usize;
        if i < N {
            limbs[i] = 1 << (bits % 64);
        }
        Self(limbs)
    }

    /// Whether the value is negative.
    #[must_use]
    pub fn is_negative(&self) -> bool {
        self.0[N - 1] >> 63 == 1
    }

    /// `self << bits` (bits shifted out at the top are lost).
    #[must_use]
    pub fn shift_left(self, bits: u32) -> Self {
        let words = (bits / 64) as usize;
        let rest = bits % 64;
        let mut out = [0u64; N];
        for (i, o) in out.iter_mut().enumerate().skip(words) {
            let mut v = self.0[i - words] << rest;
            if rest > 0 && i > words {
                v |= self.0[i - words - 1] >> (64 - rest);
            }
            *o = v;
        }
        Self(out)
    }

    /// Wrapping addition.
    #[must_use]
    pub fn wrapping_add(self, other: Self) -> Self {
        let mut out = [0u64; N];
        let mut carry = false;
        for (i, o) in out.iter_mut().enumerate() {
            let (s1, c1) = self.0[i].overflowing_add(other.0[i]);
            let (s2, c2) = s1.overflowing_add(u64::from(carry));
            *o = s2;
            carry = c1 || c2;
        }
        Self(out)
    }

    /// Wrapping subtraction.
    #[must_use]
    pub fn wrapping_sub(self, other: Self) -> Self {
        let mut out = [0u64; N];
        let mut borrow = false;
        for (i, o) in out.iter_mut().enumerate() {
            let (s1, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (s2, b2) = s1.overflowing_sub(u64::from(borrow));
            *o = s2;
            borrow = b1 || b2;
        }
        Self(out)
    }

    /// Arithmetic shift right by one (floor division by two).
    #[must_use]
    pub fn sar1(self) -> Self {
        let mut out = [0u64; N];
        let sign = self.0[N - 1] & (1 << 63);
        for (i, o) in out.iter_mut().enumerate() {
            let hi = if i + 1 < N { self.0[i + 1] << 63 } else { sign };
            *o = (self.0[i] >> 1) | hi;
        }
        Self(out)
    }
}

impl<const N: usize> Ord for Wide<N> {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.is_negative(), other.is_negative()) {
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        for i in (0..N).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => {}
                o => return o,
            }
        }
        Ordering::Equal
    }
}

impl<const N: usize> PartialOrd for Wide<N> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const N: usize> Weight for Wide<N> {
    fn zero() -> Self {
        Self::ZERO
    }
    fn plus(self, other: Self) -> Self {
        self.wrapping_add(other)
    }
    fn minus(self, other: Self) -> Self {
        self.wrapping_sub(other)
    }
    fn half(self) -> Self {
        self.sar1()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn to_i128(w: Wide<2>) -> i128 {
        (u128::from(w.0[0]) | (u128::from(w.0[1]) << 64)) as i128
    }

    #[test]
    fn agrees_with_i128() {
        let vals: [i128; 9] = [
            0,
            1,
            -1,
            5,
            -7,
            1 << 70,
            -(1 << 90),
            i128::from(u64::MAX),
            123_456_789_012_345,
        ];
        let from = |v: i128| Wide::<2>([v as u64, (v >> 64) as u64]);
        for &a in &vals {
            for &b in &vals {
                assert_eq!(to_i128(from(a).wrapping_add(from(b))), a.wrapping_add(b));
                assert_eq!(to_i128(from(a).wrapping_sub(from(b))), a.wrapping_sub(b));
                assert_eq!(from(a).cmp(&from(b)), a.cmp(&b), "{a} vs {b}");
            }
            assert_eq!(to_i128(from(a).sar1()), a >> 1);
            for s in [0, 1, 13, 63, 64, 65, 100] {
                assert_eq!(to_i128(from(a).shift_left(s)), a.wrapping_shl(s));
            }
        }
        assert_eq!(to_i128(Wide::<2>::pow2(70)), 1 << 70);
        assert_eq!(to_i128(Wide::<2>::from_i64(-3)), -3);
    }
}
