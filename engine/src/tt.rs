//! Transposition table.
//!
//! The rules crate's Zobrist key covers only the placement and the side to move (it is the
//! repetition key). Two positions with the same placement can still differ in what the rules
//! will declare later: the running count (how far it is from its limit, who counts, under
//! `traditional` whether one was requested) and, under `material` / `fifty-move`, the
//! halfmove clock. A stored draw score (or a score that depends on a count running out) must
//! not be reused for such a position, so [`key`] mixes those into the table key:
//! - the counting limit and ply as stored in the position (`Position::counting`), which is the
//!   whole counting state under `standard` and `material`;
//! - under `traditional`, the requested count as [`makruk::count_info`] describes it (side,
//!   number, limit), since the stored ply there runs whether or not a count was requested;
//! - under a ruleset with a no-progress rule, the halfmove clock once it is within
//!   [`crate::MAX_PLY`] plies of the limit: no line of the search is longer than
//!   that, so positions further from the limit cannot reach the no-progress draw in any
//!   searched line and may share entries.
//!
//! - in the other variants ([`makruk::Variant`]), what the rules crate's Zobrist key leaves out
//!   although the legal moves depend on it: Ouk Chaktrang's gates (which Khun and Met may
//!   still make their first-move jump) and Sittuyin's pieces in hand. Drops and promotions are
//!   kept apart in the stored move by [`crate::movepick::pack`].
//!
//! Repetition is not in the key (as in every engine: the table is a cache, the path is not);
//! a draw by repetition found in one line may thus leak into another that reaches the same
//! position by a different path. The score is bounded by the search's draw handling at the
//! node itself, which is checked before the table is probed.

use crate::MAX_PLY;
use makruk::{count_info, BoardHonour, Position, Variant};

/// The table key of `pos`: its Zobrist key mixed with its counting and no-progress state (see
/// the module docs).
#[must_use]
pub fn key(pos: &Position) -> u64 {
    let mut k = pos.zobrist();
    let rules = pos.rules();
    match pos.variant() {
        Variant::Cambodian => k ^= mix(0x4761_7465_0000_0000 ^ pos.gates().0),
        Variant::Sittuyin => k ^= mix(0x4861_6e64 ^ pos.hands_packed().rotate_left(17)),
        _ => {}
    }
    let (limit, ply) = pos.counting();
    if limit != 0 {
        k ^= mix(0x436f_756e_7400 ^ (u64::from(limit) << 16) ^ u64::from(ply));
    }
    if rules.board_honour == BoardHonour::OnRequest {
        if let Some(c) = count_info(pos) {
            k ^= mix(0x5472_6164_0000_0000
                ^ (c.counting.index() as u64)
                ^ (u64::from(c.current) << 8)
                ^ (u64::from(c.limit) << 24));
        }
    }
    if let Some(np) = rules.no_progress {
        let h = pos.halfmoves();
        if h + MAX_PLY as u32 >= np.plies {
            k ^= mix(0x4e6f_5072_6f67_0000 ^ u64::from(h));
        }
    }
    k
}

/// A bijective 64-bit mixer (splitmix64 finaliser).
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What a stored score is: exact, a lower bound (the search failed high) or an upper bound.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact.
    Exact,
    /// The true score is at least this (a beta cut-off).
    Lower,
    /// The true score is at most this (no move reached alpha).
    Upper,
}

/// One probe result.
#[derive(Copy, Clone, Debug)]
pub struct Entry {
    /// The best (or refuting) move, packed as `from | to << 6`; 0xffff for none.
    pub mv: u16,
    /// Score relative to the node (mate scores relative to it, see [`crate::search`]).
    pub score: i32,
    /// Static evaluation of the node.
    pub eval: i32,
    /// Remaining depth the score was searched to.
    pub depth: i32,
    /// How the score bounds the true value.
    pub bound: Bound,
}

#[derive(Copy, Clone, Default)]
struct Slot {
    key: u64,
    /// mv (16) | score (16) | eval (16) | depth (8) | bound (2) | generation (6)
    data: u64,
}

/// Asks Linux to back the `len` bytes from `start` (memory not yet touched) with huge pages
/// (2 MB, where the kernel's transparent huge pages are set to `madvise` or `always`), as
/// Stockfish does for its table: a probe lands anywhere in the table, and with 4 KB pages
/// nearly every probe of a 64 MB table also misses the TLB. Only advice: where it is refused,
/// or off Linux, the table works the same on small pages.
fn advise_huge_pages(start: *const u8, len: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let first = (start as usize).next_multiple_of(HUGE);
        let end = (start as usize + len) / HUGE * HUGE;
        if end > first {
            // SAFETY: the range lies within one allocation of this process (page-aligned,
            // rounded inwards); MADV_HUGEPAGE changes how its pages are backed, never their
            // contents, and its failure is harmless.
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, len);
}

/// Two slots: one kept by depth, one always replaced. Aligned to its size, so that a bucket
/// never straddles two cache lines (one prefetch, one miss).
#[derive(Copy, Clone, Default)]
#[repr(C, align(32))]
struct Bucket([Slot; 2]);

const _: () = assert!(std::mem::size_of::<Bucket>() == 32);

/// The table: buckets of two slots.
pub struct Table {
    slots: Vec<Bucket>,
    generation: u8,
}

impl Table {
    /// A table of about `mb` megabytes (at least one bucket).
    #[must_use]
    pub fn new(mb: usize) -> Table {
        let buckets = ((mb.max(1) << 20) / std::mem::size_of::<Bucket>()).max(1);
        // Reserved first and filled after the advice, so that the first touch of each page
        // already takes a huge one.
        let mut slots: Vec<Bucket> = Vec::with_capacity(buckets);
        advise_huge_pages(
            slots.as_ptr().cast(),
            buckets * std::mem::size_of::<Bucket>(),
        );
        slots.resize(buckets, Bucket::default());
        Table {
            slots,
            generation: 0,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|b| *b = Bucket::default());
        self.generation = 0;
    }

    /// Starts a new search: older entries become preferred for replacement.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((u128::from(key) * self.slots.len() as u128) >> 64) as usize
    }

    /// Asks the CPU to bring the bucket of `key` into its cache, so that the
    /// [`Table::probe`] that follows (the child's, after the move is made and the network's
    /// accumulator updated) finds it there: the table is far larger than the caches, and its
    /// probes were an eighth of the search's time (`perf` on `bench`). Only a hint: it changes
    /// no result, and does nothing off x86-64.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket: *const Bucket = &self.slots[self.index(key)];
            // SAFETY: a prefetch never faults and reads nothing into the program; SSE is part
            // of every x86-64 CPU. The address is of a bucket of the table.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    bucket.cast::<i8>(),
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[must_use]
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = &self.slots[self.index(key)].0;
        b.iter()
            .find(|s| s.key == key && s.data != 0)
            .map(|s| unpack(s.data))
    }

    /// Stores a result for `key`, keeping a deeper entry of the current search in the first
    /// slot.
    #[inline]
    pub fn store(&mut self, key: u64, e: Entry) {
        let generation = self.generation;
        let i = self.index(key);
        let b = &mut self.slots[i].0;
        let data = pack(&e, generation);
        let deep = &b[0];
        let deep_gen = (deep.data >> 58) as u8;
        let deep_depth = ((deep.data >> 48) & 0xff) as i32 - 1;
        if deep.key == key || deep.data == 0 || deep_gen != generation || e.depth >= deep_depth {
            // Keep the move of an earlier result for the same key when this one has none.
            let mut data = data;
            if deep.key == key && e.mv == NO_MOVE {
                data = (data & !0xffff) | (deep.data & 0xffff);
            }
            if deep.key != key && deep.data != 0 {
                b[1] = *deep;
            }
            b[0] = Slot { key, data };
        } else {
            b[1] = Slot { key, data };
        }
    }

    /// Permille of the first slots filled in this search (UCI `hashfull`).
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|b| b.0[0].data != 0 && (b.0[0].data >> 58) as u8 == self.generation)
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

/// The packed form of "no move".
pub const NO_MOVE: u16 = 0xffff;

fn pack(e: &Entry, generation: u8) -> u64 {
    let bound = match e.bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    u64::from(e.mv)
        | (u64::from(e.score.clamp(-32767, 32767) as i16 as u16) << 16)
        | (u64::from(e.eval.clamp(-32767, 32767) as i16 as u16) << 32)
        | ((e.depth.clamp(-1, 254) + 1) as u64) << 48
        | (bound << 56)
        | (u64::from(generation & 63) << 58)
}

fn unpack(d: u64) -> Entry {
    Entry {
        mv: (d & 0xffff) as u16,
        score: i32::from(((d >> 16) & 0xffff) as u16 as i16),
        eval: i32::from(((d >> 32) & 0xffff) as u16 as i16),
        depth: ((d >> 48) & 0xff) as i32 - 1,
        bound: match (d >> 56) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        },
    }
}
