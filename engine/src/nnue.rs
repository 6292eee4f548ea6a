//! The evaluation network (issue 27): a small NNUE of our own, trained on positions of our
//! engine's and Fairy-Stockfish's games labelled by their searches (engine/README.md, "The
//! network"; the trainer is `engine/examples/nnue_train.rs`).
//!
//! Shape: 768 inputs per perspective (own or enemy × role × square, the square turned by
//! 180° for Black, so that either side sees its own pieces as White sees White's: Makruk's
//! start position is symmetric under that turn) → a feature transformer of [`HIDDEN`]
//! clipped-ReLU units, shared by both perspectives → one output per bucket of
//! `2 × HIDDEN` weights (the side to move's half first), the bucket chosen by the number of
//! pieces on the board ([`bucket`]). The output is centipawns from the side to move's point
//! of view, on the scale of [`crate::evaluate`] (the trainer fits it to the same curve).
//!
//! Integers as Stockfish's networks use them: the feature transformer's weights and biases
//! are `i16` scaled by [`QA`], the output weights `i16` scaled by [`QB`], the output bias
//! `i32` scaled by `QA × QB`; an accumulator is an `i16` sum, clipped to `0 ..= QA`.
//!
//! The network applies to Makruk only (the other variants keep the hand-written terms; their
//! rules and piece sets differ), and [`crate::evaluate::evaluate_with`] keeps the hand-written
//! evaluation's endgame knowledge around it: the mop-up against a bare Khun, the scaling of
//! drawish endings and of insufficient material, the `traditional` board's honour. The search
//! keeps one [`Accumulator`] a ply up to date with [`Network::update`] (a move changes two or
//! three of its features), so an evaluation costs one output layer, not a whole network.
//! Which searches use it is the engine's choice ([`crate::Engine::set_network`]: level 8 and
//! `makruk-uci`).

use makruk::{Board, Color, Position, Role, Variant};
use std::sync::atomic::{AtomicPtr, Ordering};

/// Inputs per perspective: 2 sides (own, enemy) × 6 roles × 64 squares.
pub const INPUTS: usize = 768;
/// Units of the feature transformer, per perspective.
pub const HIDDEN: usize = 128;
/// Output buckets (by the number of pieces on the board, [`bucket`]).
pub const BUCKETS: usize = 8;
/// The feature transformer's scale: a float weight `w` is stored as `round(w × QA)`.
pub const QA: i32 = 255;
/// The output layer's scale. 512 (format version 2): at 64 (version 1, Stockfish's) a step
/// of an output weight is 6.25 cp a fully active unit, and rounding lost 42% of what
/// training a network further gained on held-out positions (engine/README.md, "Training the
/// network further"). An output weight is then at most ±64 in float units (`i16`); the
/// output's sum cannot overflow `i32` for any weights, and is under 2²⁷ for weights below 4.
pub const QB: i32 = 512;
/// Version 1's output scale: such files are read with their output layer scaled up exactly.
const QB_V1: i32 = 64;
/// A network's output is held within ±this many centipawns (far from the search's mate
/// scores, whatever a network file holds).
pub const MAX_OUTPUT: i32 = 20_000;
/// Centipawns per unit of the network's float output.
pub const SCALE: i32 = 400;

/// The file's first bytes.
const MAGIC: &[u8; 4] = b"MKNN";
/// The format's version (2: the output layer scaled by [`QB`] = 512; 1: by 64).
const VERSION: u32 = 2;

/// The committed network (engine/README.md, "The network", says how it was made).
static EMBEDDED: &[u8] = include_bytes!("../nets/makruk.nnue");

/// A network's weights, quantized.
pub struct Network {
    /// `INPUTS × HIDDEN`, by feature then unit.
    ft_w: Vec<i16>,
    /// `HIDDEN`.
    ft_b: Vec<i16>,
    /// `BUCKETS × 2·HIDDEN`: the side to move's units, then the other side's.
    out_w: Vec<i16>,
    /// `BUCKETS`.
    out_b: Vec<i32>,
}

/// Why a network file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetError {
    /// Not a network file of this format (its magic or version).
    Format,
    /// A version 1 file whose output weights or biases do not fit at version 2's scale
    /// ([`QB`]).
    Range,
    /// Another shape than this build's ([`HIDDEN`], [`BUCKETS`]).
    Shape {
        /// The file's hidden size.
        hidden: u32,
        /// The file's bucket count.
        buckets: u32,
    },
    /// Too short or too long for its shape.
    Length,
}

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetError::Format => {
                f.write_str("not a makruk network file (magic MKNN, version 1 or 2)")
            }
            NetError::Shape { hidden, buckets } => write!(
                f,
                "network of {hidden} hidden units and {buckets} buckets; this build reads \
                 {HIDDEN} and {BUCKETS}"
            ),
            NetError::Length => f.write_str("network file of the wrong length"),
            NetError::Range => f.write_str(
                "version 1 network whose output layer does not fit version 2's scale (512)",
            ),
        }
    }
}

impl std::error::Error for NetError {}

impl Network {
    /// Reads a network file: `MKNN`, version, hidden size, buckets (u32 each, little-endian),
    /// then the feature transformer's weights and biases (i16), the output weights (i16) and
    /// biases (i32), as [`Network::to_bytes`] writes them. A version 1 file (output scale 64)
    /// is read as the same network at this version's [`QB`].
    ///
    /// # Errors
    /// [`NetError`] when the bytes are not such a file of this build's shape;
    /// [`NetError::Range`] when a version 1 file's output weight or bias, times 8, does not
    /// fit `i16` or `i32`.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let u32_at = |i: usize| -> Option<u32> {
            bytes
                .get(i..i + 4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        let version = u32_at(4);
        if bytes.get(..4) != Some(MAGIC.as_slice()) || !matches!(version, Some(1 | 2)) {
            return Err(NetError::Format);
        }
        let up = if version == Some(1) { QB / QB_V1 } else { 1 };
        let (hidden, buckets) = (u32_at(8).unwrap_or(0), u32_at(12).unwrap_or(0));
        if hidden as usize != HIDDEN || buckets as usize != BUCKETS {
            return Err(NetError::Shape { hidden, buckets });
        }
        let n16 = INPUTS * HIDDEN + HIDDEN + BUCKETS * 2 * HIDDEN;
        if bytes.len() != 16 + 2 * n16 + 4 * BUCKETS {
            return Err(NetError::Length);
        }
        let mut i16s = bytes[16..16 + 2 * n16]
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]));
        let mut take = |n: usize| -> Vec<i16> { i16s.by_ref().take(n).collect() };
        let ft_w = take(INPUTS * HIDDEN);
        let ft_b = take(HIDDEN);
        let out_w = take(BUCKETS * 2 * HIDDEN)
            .into_iter()
            .map(|w| i16::try_from(i32::from(w) * up).map_err(|_| NetError::Range))
            .collect::<Result<Vec<i16>, NetError>>()?;
        let out_b = bytes[16 + 2 * n16..]
            .chunks_exact(4)
            .map(|b| {
                i32::from_le_bytes([b[0], b[1], b[2], b[3]])
                    .checked_mul(up)
                    .ok_or(NetError::Range)
            })
            .collect::<Result<Vec<i32>, NetError>>()?;
        Ok(Network {
            ft_w,
            ft_b,
            out_w,
            out_b,
        })
    }

    /// A network from float weights (the trainer's): `ft_w` is `INPUTS × HIDDEN` by feature,
    /// `ft_b` `HIDDEN`, `out_w` `BUCKETS × 2·HIDDEN`, `out_b` `BUCKETS`, in the units of a
    /// float network whose output times [`SCALE`] is centipawns. Weights are rounded to the
    /// integer scales and clamped to what `i16` holds (an output weight to ±64).
    #[must_use]
    pub fn quantize(ft_w: &[f32], ft_b: &[f32], out_w: &[f32], out_b: &[f32]) -> Network {
        let q16 = |v: &[f32], s: i32| -> Vec<i16> {
            v.iter()
                .map(|&x| (x * s as f32).round().clamp(-32767.0, 32767.0) as i16)
                .collect()
        };
        Network {
            ft_w: q16(ft_w, QA),
            ft_b: q16(ft_b, QA),
            out_w: q16(out_w, QB),
            out_b: out_b
                .iter()
                .map(|&x| (x * (QA * QB) as f32).round() as i32)
                .collect(),
        }
    }

    /// The float weights this network was quantized from, within a rounding step: the
    /// inverse of [`Network::quantize`], in its shapes and units (`ft_w`, `ft_b`, `out_w`,
    /// `out_b`). The trainer starts from them to train a network further (`--init`).
    #[must_use]
    pub fn dequantize(&self) -> (Vec<f32>, Vec<f32>, Vec<f32>, Vec<f32>) {
        let f32s = |v: &[i16], s: i32| -> Vec<f32> {
            v.iter().map(|&x| f32::from(x) / s as f32).collect()
        };
        (
            f32s(&self.ft_w, QA),
            f32s(&self.ft_b, QA),
            f32s(&self.out_w, QB),
            self.out_b
                .iter()
                .map(|&x| x as f32 / (QA * QB) as f32)
                .collect(),
        )
    }

    /// The file's bytes ([`Network::from_bytes`] reads them).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(16 + 2 * self.ft_w.len() + 4 * BUCKETS);
        out.extend_from_slice(MAGIC);
        for v in [VERSION, HIDDEN as u32, BUCKETS as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in self.ft_w.iter().chain(&self.ft_b).chain(&self.out_w) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in &self.out_b {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// The network's output for `pos` in centipawns from the side to move's point of view
    /// (no endgame knowledge: [`crate::evaluate::evaluate_with`] adds it). Computes the
    /// accumulator from scratch; the search keeps one up to date instead ([`Accumulator`]).
    #[must_use]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.evaluate_accumulated(&self.accumulate(pos.board()), pos.turn(), bucket(pos))
    }

    /// The network's output in centipawns for the side to move's features `stm_features`
    /// ([`features`]; the other side's are their [`mirror`]) and output bucket `bucket`
    /// (`0..BUCKETS`): the trainer's view of a position.
    ///
    /// # Panics
    /// Panics when a feature is not below [`INPUTS`] or the bucket not below [`BUCKETS`].
    #[must_use]
    pub fn evaluate_features(
        &self,
        stm_features: impl IntoIterator<Item = usize>,
        bucket: usize,
    ) -> i32 {
        // The side to move's features are White's perspective's (its own pieces first) of a
        // board in which the side to move is White.
        let mut acc = Accumulator::empty(self);
        for f in stm_features {
            assert!(f < INPUTS, "feature {f} out of range");
            add_row(&mut acc.sums[0], self.row(f));
            add_row(&mut acc.sums[1], self.row(mirror(f)));
        }
        self.evaluate_accumulated(&acc, Color::White, bucket)
    }

    /// The accumulator of `board`, from scratch: every piece's feature for both perspectives.
    #[must_use]
    pub fn accumulate(&self, board: &Board) -> Accumulator {
        let mut acc = Accumulator::empty(self);
        self.update(&mut acc, &Board::empty(), board);
        acc
    }

    /// Turns `acc`, the accumulator of `before`, into the accumulator of `after`: only the
    /// pieces that differ are added or taken away (a move changes two or three), so this
    /// costs a few rows of [`HIDDEN`] sums instead of one per piece. Any two boards work
    /// (a null move's are equal, a promotion changes a role).
    pub fn update(&self, acc: &mut Accumulator, before: &Board, after: &Board) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above).
            return unsafe { self.update_avx2(acc, before, after) };
        }
        self.update_body(acc, before, after);
    }

    /// [`Network::update`] compiled for AVX2 (16 `i16` lanes a step instead of SSE2's 8).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn update_avx2(&self, acc: &mut Accumulator, before: &Board, after: &Board) {
        self.update_body(acc, before, after);
    }

    #[inline(always)]
    fn update_body(&self, acc: &mut Accumulator, before: &Board, after: &Board) {
        for color in Color::ALL {
            for role in Role::ALL {
                let (old, new) = (before.by_piece(color, role), after.by_piece(color, role));
                if old == new {
                    continue;
                }
                for sq in old & !new {
                    for persp in Color::ALL {
                        let f = feature(persp, color, role, sq.index());
                        sub_row(&mut acc.sums[persp.index()], self.row(f));
                    }
                }
                for sq in new & !old {
                    for persp in Color::ALL {
                        let f = feature(persp, color, role, sq.index());
                        add_row(&mut acc.sums[persp.index()], self.row(f));
                    }
                }
            }
        }
    }

    /// Feature `f`'s weights in the feature transformer.
    #[inline(always)]
    fn row(&self, f: usize) -> &[i16; HIDDEN] {
        self.ft_w[f * HIDDEN..(f + 1) * HIDDEN]
            .try_into()
            .expect("HIDDEN weights a feature")
    }

    /// The network's output in centipawns from `stm`'s point of view for a position whose
    /// accumulator is `acc` and whose output bucket is `bucket` (`0..BUCKETS`, [`bucket`]).
    ///
    /// # Panics
    /// Panics when the bucket is not below [`BUCKETS`].
    #[must_use]
    pub fn evaluate_accumulated(&self, acc: &Accumulator, stm: Color, bucket: usize) -> i32 {
        assert!(bucket < BUCKETS, "bucket {bucket} out of range");
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above).
            return unsafe { self.output_avx2(acc, stm, bucket) };
        }
        self.output_body(acc, stm, bucket)
    }

    /// [`Network::evaluate_accumulated`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn output_avx2(&self, acc: &Accumulator, stm: Color, bucket: usize) -> i32 {
        self.output_body(acc, stm, bucket)
    }

    #[inline(always)]
    fn output_body(&self, acc: &Accumulator, stm: Color, bucket: usize) -> i32 {
        let (us, them) = (&acc.sums[stm.index()], &acc.sums[stm.other().index()]);
        let w = &self.out_w[bucket * 2 * HIDDEN..(bucket + 1) * 2 * HIDDEN];
        let sum = dot_crelu(us, &w[..HIDDEN]) + dot_crelu(them, &w[HIDDEN..]);
        let out = i64::from(sum) + i64::from(self.out_b[bucket]);
        // Centipawns: the float output times SCALE.
        (out * i64::from(SCALE) / i64::from(QA * QB))
            .clamp(-i64::from(MAX_OUTPUT), i64::from(MAX_OUTPUT)) as i32
    }
}

/// The feature transformer's sums of one board for both perspectives (White's, then
/// Black's): what the network's first layer makes of a position before the side to move is
/// known. [`Network::accumulate`] makes one, [`Network::update`] carries it from a board to
/// the next, as Stockfish's accumulator (the "efficiently updatable" of NNUE).
#[derive(Clone, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Accumulator {
    sums: [[i16; HIDDEN]; 2],
}

impl Accumulator {
    /// The biases alone (no piece).
    fn empty(net: &Network) -> Accumulator {
        let mut sums = [[0i16; HIDDEN]; 2];
        sums[0].copy_from_slice(&net.ft_b);
        sums[1].copy_from_slice(&net.ft_b);
        Accumulator { sums }
    }
}

/// The feature of a piece of `color` and `role` on square `sq` (0..64, a1 = 0) in `persp`'s
/// perspective: `(own or enemy) × 6 + role`, times 64, plus the square (turned by 180° for
/// Black's perspective).
#[inline]
#[must_use]
pub fn feature(persp: Color, color: Color, role: Role, sq: usize) -> usize {
    let side = usize::from(color != persp);
    let s = if persp == Color::White { sq } else { 63 - sq };
    (side * 6 + role.index()) * 64 + s
}

/// The other side's feature for the side to move's feature `f` (own and enemy swapped, the
/// square turned by 180°): the same piece seen from the other side.
#[inline]
#[must_use]
pub fn mirror(f: usize) -> usize {
    let (kind, sq) = (f / 64, f % 64);
    let (side, role) = (kind / 6, kind % 6);
    ((1 - side) * 6 + role) * 64 + (63 - sq)
}

/// The features of a piece of `color` and `role` on square `sq` (0..64, a1 = 0) seen from
/// `stm` and from the other side ([`feature`]).
#[inline]
#[must_use]
pub fn features(stm: Color, color: Color, role: Role, sq: usize) -> (usize, usize) {
    (
        feature(stm, color, role, sq),
        feature(stm.other(), color, role, sq),
    )
}

/// The output bucket of `pos`: the pieces on the board (Khuns included, 2..=32), in eight
/// groups of four.
#[inline]
#[must_use]
pub fn bucket(pos: &Position) -> usize {
    let n = pos.board().occupied().count() as usize;
    (n.saturating_sub(1) / 4).min(BUCKETS - 1)
}

// The accumulator's arithmetic: inlined into the callers above, which are compiled for AVX2
// where the CPU has it (16 `i16` lanes a step) and for the baseline (SSE2's 8).

#[inline(always)]
fn add_row(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(w);
    }
}

#[inline(always)]
fn sub_row(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(w);
    }
}

#[inline(always)]
fn dot_crelu(acc: &[i16; HIDDEN], w: &[i16]) -> i32 {
    acc.iter()
        .zip(w)
        .map(|(&a, &w)| i32::from(a.clamp(0, QA as i16)) * i32::from(w))
        .sum()
}

static ACTIVE: AtomicPtr<Network> = AtomicPtr::new(std::ptr::null_mut());

/// The network in use: the committed one, or the one [`set_network`] gave.
#[must_use]
pub fn network() -> &'static Network {
    let p = ACTIVE.load(Ordering::Acquire);
    if !p.is_null() {
        // SAFETY: only `set_network` and the line below store into ACTIVE, always a pointer
        // from `Box::leak`, never freed.
        return unsafe { &*p };
    }
    let net = Box::leak(Box::new(
        Network::from_bytes(EMBEDDED).expect("the committed network matches this build"),
    ));
    match ACTIVE.compare_exchange(
        std::ptr::null_mut(),
        net,
        Ordering::AcqRel,
        Ordering::Acquire,
    ) {
        Ok(_) => net,
        // Another thread was first (this copy is leaked once, harmlessly).
        // SAFETY: as above.
        Err(p) => unsafe { &*p },
    }
}

/// Replaces the network for the whole process (UCI `EvalFile`). The old one is kept (leaked)
/// so that searches running on it are unaffected.
pub fn set_network(net: Network) {
    ACTIVE.store(Box::leak(Box::new(net)), Ordering::Release);
}

/// Whether the network evaluates `pos`: the variant is Makruk, and neither side has a bare
/// Khun (the mop-up's endings, which the hand-written terms handle).
#[inline]
#[must_use]
pub fn applies(pos: &Position) -> bool {
    pos.variant() == Variant::Makruk && !pos.is_bare(Color::White) && !pos.is_bare(Color::Black)
}

#[cfg(test)]
mod tests {
    use super::*;
    use makruk::Ruleset;

    #[test]
    fn the_file_round_trips() {
        let net = network();
        let bytes = net.to_bytes();
        assert_eq!(bytes, EMBEDDED);
        assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(matches!(
            Network::from_bytes(b"XXXX"),
            Err(NetError::Format)
        ));
    }

    #[test]
    fn a_version_1_file_reads_as_the_same_network() {
        // A network whose output layer version 1 can hold (steps of 1/64), written both ways.
        let (ft_w, ft_b, out_w, out_b) = network().dequantize();
        let coarse =
            |v: &[f32], s: f32| -> Vec<f32> { v.iter().map(|x| (x * s).round() / s).collect() };
        let net = Network::quantize(
            &ft_w,
            &ft_b,
            &coarse(&out_w, QB_V1 as f32),
            &coarse(&out_b, (QA * QB_V1) as f32),
        );
        let v2 = net.to_bytes();
        let mut v1 = v2.clone();
        v1[4..8].copy_from_slice(&1u32.to_le_bytes());
        let up = QB / QB_V1;
        let out_w_at = 16 + 2 * (INPUTS * HIDDEN + HIDDEN);
        let out_b_at = out_w_at + 2 * BUCKETS * 2 * HIDDEN;
        for b in v1[out_w_at..out_b_at].chunks_exact_mut(2) {
            let w = i16::from_le_bytes([b[0], b[1]]);
            assert_eq!(w % up as i16, 0);
            b.copy_from_slice(&(w / up as i16).to_le_bytes());
        }
        for b in v1[out_b_at..].chunks_exact_mut(4) {
            let x = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            assert_eq!(x % up, 0);
            b.copy_from_slice(&(x / up).to_le_bytes());
        }
        assert_ne!(v1[out_w_at..], v2[out_w_at..]);
        let read = Network::from_bytes(&v1).expect("a version 1 file");
        assert_eq!(read.to_bytes(), v2);
        // An output weight of 4096 or a bias above i32::MAX / 8 does not fit at 512.
        let set_w = |bytes: &mut Vec<u8>, w: i16| {
            bytes[out_w_at..out_w_at + 2].copy_from_slice(&w.to_le_bytes());
        };
        let mut edge = v1.clone();
        set_w(&mut edge, -4096);
        assert!(Network::from_bytes(&edge).is_ok());
        set_w(&mut edge, 4096);
        assert_eq!(Network::from_bytes(&edge).err(), Some(NetError::Range));
        let mut edge = v1.clone();
        edge[out_b_at..out_b_at + 4].copy_from_slice(&(i32::MAX / up + 1).to_le_bytes());
        assert_eq!(Network::from_bytes(&edge).err(), Some(NetError::Range));
        // Version 3 is not a format of this build.
        let mut v3 = v2;
        v3[4..8].copy_from_slice(&3u32.to_le_bytes());
        assert!(matches!(Network::from_bytes(&v3), Err(NetError::Format)));
    }

    #[test]
    fn the_dequantized_weights_compute_the_networks_output() {
        // What the trainer's `--init` relies on: a float forward pass over the dequantized
        // weights (by feature then unit; the side to move's half of the output first) is the
        // integer network's output, up to its truncation to whole centipawns.
        let net = network();
        let (ft_w, ft_b, out_w, out_b) = net.dequantize();
        for fen in [
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
            "r3k2r/2s1m3/p1n1psp1/1p1p3p/1P1P1P2/P1NSP1PP/3M4/R2K1S1R b - - 0 20",
            "8/3k4/2p5/4M3/3K4/8/8/6r1 w - - 0 50",
        ] {
            let pos = Position::from_fen(fen, Ruleset::Standard).expect("valid FEN");
            let board = pos.board();
            let sums = Color::ALL.map(|persp| {
                let mut acc = ft_b.clone();
                for color in Color::ALL {
                    for role in Role::ALL {
                        for sq in board.by_piece(color, role) {
                            let f = feature(persp, color, role, sq.index());
                            for (a, w) in acc.iter_mut().zip(&ft_w[f * HIDDEN..(f + 1) * HIDDEN]) {
                                *a += w;
                            }
                        }
                    }
                }
                acc
            });
            let b = bucket(&pos);
            let w = &out_w[b * 2 * HIDDEN..(b + 1) * 2 * HIDDEN];
            let (us, them) = (pos.turn().index(), pos.turn().other().index());
            let mut out = out_b[b];
            for (h, side) in [us, them].into_iter().enumerate() {
                for (a, w) in sums[side].iter().zip(&w[h * HIDDEN..(h + 1) * HIDDEN]) {
                    out += a.clamp(0.0, 1.0) * w;
                }
            }
            let float_cp = f64::from(out) * f64::from(SCALE);
            let int_cp = f64::from(net.evaluate(&pos));
            assert!(
                (float_cp - int_cp).abs() <= 1.01,
                "{fen}: float {float_cp}, integer {int_cp}"
            );
        }
    }

    #[test]
    fn dequantized_weights_quantize_back_to_the_same_network() {
        let net = network();
        let (ft_w, ft_b, out_w, out_b) = net.dequantize();
        assert_eq!(ft_w.len(), INPUTS * HIDDEN);
        assert_eq!(out_w.len(), BUCKETS * 2 * HIDDEN);
        let again = Network::quantize(&ft_w, &ft_b, &out_w, &out_b);
        assert_eq!(again.to_bytes(), EMBEDDED);
    }

    #[test]
    fn the_turned_position_evaluates_the_same() {
        // The position turned by 180° with the colours swapped is the same position for the
        // other side: the network sees the same features.
        let fen = "r3k2r/2s1m3/p1n1psp1/1p1p3p/1P1P1P2/P1NSP1PP/3M4/R2K1S1R b - - 0 20";
        let pos = Position::from_fen(fen, Ruleset::Standard).expect("valid FEN");
        let turned = turn_fen(fen);
        let other = Position::from_fen(&turned, Ruleset::Standard).expect("valid FEN");
        assert_eq!(network().evaluate(&pos), network().evaluate(&other));
    }

    #[test]
    fn the_updated_accumulator_is_the_one_from_scratch() {
        // Random games (captures, promotions, null moves): the accumulator carried move by
        // move equals the one computed anew, and so does the evaluation.
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};
        let net = network();
        let mut rng = StdRng::seed_from_u64(7);
        let mut promotions = 0;
        for _ in 0..40 {
            let mut pos = Position::start(Ruleset::Standard);
            let mut acc = net.accumulate(pos.board());
            for _ in 0..160 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Captures first now and then, so that the games reach endings.
                let captures: Vec<_> = moves.iter().filter(|m| m.is_capture()).collect();
                let m = if !captures.is_empty() && rng.random_bool(0.6) {
                    *captures[rng.random_range(0..captures.len())]
                } else {
                    moves[rng.random_range(0..moves.len())]
                };
                promotions += usize::from(m.promotion);
                let child = if rng.random_bool(0.05) {
                    pos.null_move().unwrap_or_else(|| pos.after(&m))
                } else {
                    pos.after(&m)
                };
                net.update(&mut acc, pos.board(), child.board());
                pos = child;
                assert_eq!(acc, net.accumulate(pos.board()), "{}", pos.fen());
                assert_eq!(
                    net.evaluate_accumulated(&acc, pos.turn(), bucket(&pos)),
                    net.evaluate(&pos)
                );
            }
        }
        assert!(promotions > 0, "no promotion in the random games");
    }

    #[test]
    fn the_trainers_view_is_the_searchs() {
        // evaluate_features (the trainer's features of the side to move) and the accumulator
        // of the board (the search's) give the same output.
        let fen = "r3k2r/2s1m3/p1n1psp1/1p1p3p/1P1P1P2/P1NSP1PP/3M4/R2K1S1R b - - 0 20";
        let pos = Position::from_fen(fen, Ruleset::Standard).expect("valid FEN");
        let board = pos.board();
        let feats: Vec<usize> = board
            .occupied()
            .into_iter()
            .filter_map(|sq| {
                let p = board.piece_at(sq)?;
                Some(features(pos.turn(), p.color, p.role, sq.index()).0)
            })
            .collect();
        assert_eq!(
            network().evaluate_features(feats, bucket(&pos)),
            network().evaluate(&pos)
        );
    }

    /// The FEN of the position turned by 180°, colours swapped, the other side to move.
    fn turn_fen(fen: &str) -> String {
        let mut parts = fen.split(' ');
        let board = parts.next().unwrap_or_default();
        let turn = parts.next().unwrap_or("w");
        let rest: Vec<&str> = parts.collect();
        let swapped: String = board
            .chars()
            .rev()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect();
        let turn = if turn == "w" { "b" } else { "w" };
        format!("{swapped} {turn} {}", rest.join(" "))
    }
}
