//! Static evaluation, written for Makruk, in centipawns (a Bia is about 100) from the side to
//! move's point of view. The other variants of [`makruk::Variant`] share it with their own Bia
//! terms (ASEAN's Bia promote on the last rank, Sittuyin's on the diagonals), Sittuyin's
//! pieces in hand counted as material, and the no-progress rule and counting of the
//! position's own rule table ([`Position::rules`], [`makruk::count_info`]).
//!
//! - Material as Makruk players value it: Ruea 5, Ma 3, Khon 2.5–3, Met and Bia-ngai about 2,
//!   Bia 1 (a Bia is worth more in the endgame, where it may still become a Bia-ngai).
//! - Piece-square terms: the step pieces and the Ma want the centre; the Khun stays home
//!   while the board is full and walks to the centre in the endgame; the Bia gains as it
//!   nears its sixth rank, where it is promoted. Against a bare Khun neither Khun's
//!   piece-square weights count: the mop-up alone places both Khuns (the tuned Khun tables
//!   pulled the stronger Khun away from the bare one, and with Khun and Ruea against
//!   Khun the count ran out, see engine/README.md "Counting endgames").
//! - Bia structure: a Bia defended by a Bia is good, an isolated or doubled Bia is weak.
//! - Khun safety while the board is full: a shield of Met, Khon and Bia around it, and the
//!   attackers bearing on its squares.
//! - Mobility of the short-range pieces (and the Ruea): squares they reach that no enemy Bia
//!   guards.
//! - Threats: an enemy piece attacked by a Bia, and an enemy piece attacked that nothing
//!   defends.
//! - Endgame knowledge: a side that cannot mate (Fairy-Stockfish's insufficient material)
//!   is not better; with a bare Khun or a large advantage, the stronger side drives the weak
//!   Khun to the edge; a running count does not change the evaluation (the search sees the
//!   draw when it runs out: shrinking the advantage over the count's last moves, as this
//!   evaluation once did, left the stronger side unable to find mates it had in time, see
//!   engine/README.md "Counting endgames"); without Bia on the stronger side, an advantage of at most
//!   a minor piece against a Khun that still has pieces is scaled down as Stockfish does
//!   (Ruea and Met against Ruea is a draw most of the time); nor does the no-progress counter
//!   of `material` and `fifty-move` (for the same reason). Under `traditional` the side
//!   counting a requested board's honour cannot win by mate (that is a draw), so its
//!   advantage counts for little.

use crate::attacks;
use makruk::{count_info, Color, CountKind, CounterMates, Position, Role, Square, Variant};

/// A weight of the evaluation: (middlegame, endgame) centipawns, blended by the game phase.
pub type Weight = (i32, i32);

/// Where each weight of [`WEIGHTS`] sits: the first index of each group (its size in the
/// comment). The Texel tuner (`engine/examples/texel_tune.rs`) tunes them all and writes
/// `engine/src/weights.rs` in this order, naming each line by [`weight_name`].
pub mod layout {
    /// Material, by [`makruk::Role::index`] (6; the Khun's is unused).
    pub const VALUE: usize = 0;
    /// Piece-square weights (6 × 32): by role, then relative rank × 4 + the file folded onto
    /// a–d (a and h are 0, d and e are 3), so that both sides and both wings share them. The
    /// Bia's are Makruk's, Makpong's and Ouk Chaktrang's only.
    pub const PST: usize = VALUE + 6;
    /// Ma mobility: squares it reaches that hold no piece of its own and no enemy Bia guards,
    /// 0..=8 (9).
    pub const MOB_MA: usize = PST + 6 * 32;
    /// Khon mobility, 0..=5 (6).
    pub const MOB_KHON: usize = MOB_MA + 9;
    /// Met (and Bia-ngai) mobility, 0..=4 (5).
    pub const MOB_MET: usize = MOB_KHON + 6;
    /// Ruea mobility, 0..=14 (15).
    pub const MOB_RUEA: usize = MOB_MET + 5;
    /// A Ruea on a file without Bia (1).
    pub const RUEA_OPEN: usize = MOB_RUEA + 15;
    /// A Ruea on a file with enemy Bia only (1).
    pub const RUEA_HALF_OPEN: usize = RUEA_OPEN + 1;
    /// A Bia defended by a Bia (1).
    pub const BIA_DEFENDED: usize = RUEA_HALF_OPEN + 1;
    /// A Bia with no Bia of its side on the files beside it (1).
    pub const BIA_ISOLATED: usize = BIA_DEFENDED + 1;
    /// A Bia with another of its side on its file (1).
    pub const BIA_DOUBLED: usize = BIA_ISOLATED + 1;
    /// ASEAN's Bia by relative rank (8): promoted on the last rank.
    pub const BIA_RANK_ASEAN: usize = BIA_DOUBLED + 1;
    /// Sittuyin's Bia by relative rank (8): promoted on the diagonals, a move of its own.
    pub const BIA_RANK_SITTUYIN: usize = BIA_RANK_ASEAN + 8;
    /// An ASEAN or Sittuyin Bia on the files c–f (1).
    pub const BIA_CENTRE_FILE: usize = BIA_RANK_SITTUYIN + 8;
    /// The Khun's shield: its Met, Khon and Bia next to it, 0..=4 (5).
    pub const SHIELD: usize = BIA_CENTRE_FILE + 1;
    /// The Khun's danger: the weighted attacks on its zone (Ruea 3, Ma and Khon 2, Met 1),
    /// 0..=15 (16).
    pub const KHUN_DANGER: usize = SHIELD + 5;
    /// An enemy piece other than a Bia attacked by a Bia (1).
    pub const THREAT_BY_BIA: usize = KHUN_DANGER + 16;
    /// An enemy piece attacked and not defended (1).
    pub const HANGING: usize = THREAT_BY_BIA + 1;
    /// The number of weights.
    pub const COUNT: usize = HANGING + 1;
}

pub use crate::weights::WEIGHTS;

const _: () = assert!(WEIGHTS.len() == layout::COUNT);

/// The name of weight `i` of [`WEIGHTS`] (the tuner's output names its lines with it), e.g.
/// `value Ruea`, `square Ma d4`, `mobility Ruea 7`.
#[must_use]
pub fn weight_name(i: usize) -> String {
    use layout::*;
    const ROLES: [&str; 6] = ["Khun", "Met", "Khon", "Ma", "Ruea", "Bia"];
    let groups: [(usize, &str); 15] = [
        (MOB_MA, "mobility Ma"),
        (MOB_KHON, "mobility Khon"),
        (MOB_MET, "mobility Met"),
        (MOB_RUEA, "mobility Ruea"),
        (RUEA_OPEN, "Ruea on an open file"),
        (RUEA_HALF_OPEN, "Ruea on a half-open file"),
        (BIA_DEFENDED, "Bia defended by a Bia"),
        (BIA_ISOLATED, "Bia isolated"),
        (BIA_DOUBLED, "Bia doubled"),
        (BIA_RANK_ASEAN, "ASEAN Bia rank"),
        (BIA_RANK_SITTUYIN, "Sittuyin Bia rank"),
        (BIA_CENTRE_FILE, "ASEAN and Sittuyin Bia on files c-f"),
        (SHIELD, "Khun shield"),
        (KHUN_DANGER, "Khun danger"),
        (THREAT_BY_BIA, "piece attacked by a Bia"),
    ];
    if i < PST {
        return format!("value {}", ROLES[i]);
    }
    if i < MOB_MA {
        let k = i - PST;
        let (rank, file) = ((k % 32) / 4, k % 4);
        return format!(
            "square {} {}{}",
            ROLES[k / 32],
            (b'a' + file as u8) as char,
            rank + 1
        );
    }
    if i == HANGING {
        return "piece attacked and undefended".into();
    }
    let (start, name) = groups
        .iter()
        .rev()
        .find(|(start, _)| *start <= i)
        .copied()
        .unwrap_or((0, "?"));
    let next = groups
        .iter()
        .map(|g| g.0)
        .chain([HANGING])
        .find(|&s| s > start)
        .unwrap_or(COUNT);
    if next - start > 1 {
        let k = i - start;
        // Ranks are counted from 1, counts from 0.
        if name.ends_with("rank") {
            format!("{name} {}", k + 1)
        } else {
            format!("{name} {k}")
        }
    } else {
        name.into()
    }
}

/// What the evaluation adds up, for the tuner: `add(c, i, n)` says that side `c` scored
/// weight `i` of [`WEIGHTS`] `n` times. The engine's own evaluation traces nothing (`()`).
pub trait Trace {
    /// Side `c` scored weight `i` `n` times.
    fn add(&mut self, c: Color, i: usize, n: i32);
}

impl Trace for () {
    #[inline(always)]
    fn add(&mut self, _: Color, _: usize, _: i32) {}
}

/// The single value used by move ordering and exchange evaluation.
#[must_use]
#[inline]
pub const fn value(role: Role) -> i32 {
    // Fixed (not the tuned weights): exchange evaluation, ordering, the analysis's and the
    // puzzles' material count on these round values.
    match role {
        Role::Khun => 10_000,
        Role::Met => 180,
        Role::Khon => 270,
        Role::Ma => 310,
        Role::Ruea => 500,
        Role::Bia => 100,
    }
}

/// Game phase weight of each role (the full board is 32).
const PHASE: [i32; 6] = [0, 1, 2, 2, 4, 0];
const PHASE_MAX: i32 = 32;

#[inline]
fn rel_rank(c: Color, sq: Square) -> i32 {
    match c {
        Color::White => i32::from(sq.rank()),
        Color::Black => 7 - i32::from(sq.rank()),
    }
}

/// Sum of file and rank distances from the centre: 0 .. 6.
#[inline]
fn center_distance(sq: Square) -> i32 {
    let f = i32::from(sq.file());
    let r = i32::from(sq.rank());
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    df + dr
}

#[inline]
fn distance(a: Square, b: Square) -> i32 {
    let df = (i32::from(a.file()) - i32::from(b.file())).abs();
    let dr = (i32::from(a.rank()) - i32::from(b.rank())).abs();
    df.max(dr)
}

/// Scores of one side: (middlegame, endgame).
#[derive(Default, Clone, Copy)]
struct Terms {
    mg: i32,
    eg: i32,
}

impl Terms {
    /// Adds weight `i` `n` times for side `c`, and tells `tr`.
    #[inline(always)]
    fn put<T: Trace>(&mut self, tr: &mut T, c: Color, i: usize, n: i32) {
        let (mg, eg) = WEIGHTS[i];
        self.mg += mg * n;
        self.eg += eg * n;
        tr.add(c, i, n);
    }
}

/// The piece-square index of a piece of side `c` on `sq` within its role's 32 (see
/// [`layout::PST`]).
#[inline]
fn pst_index(c: Color, sq: Square) -> usize {
    let f = usize::from(sq.file());
    let folded = if f < 4 { f } else { 7 - f };
    rel_rank(c, sq) as usize * 4 + folded
}

/// The terms of side `c`, the weighted attacks of its pieces on the enemy Khun's zone, and
/// the squares its pieces attack.
#[inline(always)]
fn side_terms<T: Trace>(pos: &Position, c: Color, tr: &mut T) -> (Terms, i32, u64) {
    use layout::*;
    let board = pos.board();
    let their_zone = board
        .khun_of(c.other())
        .map_or(0, |k| attacks::khun(k) | (1u64 << k.index()));
    let mut danger = 0;
    let occ = board.occupied().0;
    let ours = board.by_color(c).0;
    let them = c.other();
    let our_bia = board.by_piece(c, Role::Bia).0;
    let their_bia = board.by_piece(them, Role::Bia).0;
    let guarded_by_their_bia = attacks::bia_span(them, their_bia);
    let mut t = Terms::default();
    let mut attacked = 0u64;
    // ASEAN's and Sittuyin's Bia have their own rank weights; the others use the Bia's
    // piece-square weights.
    let bia_rank = match pos.variant() {
        Variant::Asean => Some(BIA_RANK_ASEAN),
        Variant::Sittuyin => Some(BIA_RANK_SITTUYIN),
        _ => None,
    };
    // Against a bare Khun the mop-up (`endgame`) places both Khuns: the weak one to the edge,
    // the strong one close to it. The Khun's piece-square weights, tuned on positions where
    // it hides or centralizes, would pull the strong Khun away, and the count ran out with
    // Khun and Ruea against Khun (engine/README.md, "Counting endgames"); they do not count.
    let lone_khun = pos.is_bare(c) || pos.is_bare(them);

    for sq in board.by_color(c) {
        let Some(role) = board.role_at(sq) else {
            continue;
        };
        t.put(tr, c, VALUE + role.index(), 1);
        let att = attacks::piece(c, role, sq, occ);
        attacked |= att;
        if att & their_zone != 0 {
            danger += match role {
                Role::Ruea => 3,
                Role::Ma | Role::Khon => 2,
                Role::Met => 1,
                Role::Bia | Role::Khun => 0,
            };
        }
        if !(role == Role::Bia && bia_rank.is_some() || role == Role::Khun && lone_khun) {
            t.put(tr, c, PST + 32 * role.index() + pst_index(c, sq), 1);
        }
        let mob = (att & !ours & !guarded_by_their_bia).count_ones() as usize;
        match role {
            Role::Ma => t.put(tr, c, MOB_MA + mob.min(8), 1),
            Role::Khon => t.put(tr, c, MOB_KHON + mob.min(5), 1),
            Role::Met => t.put(tr, c, MOB_MET + mob.min(4), 1),
            Role::Ruea => {
                let file = 0x0101_0101_0101_0101u64 << sq.file();
                if file & our_bia == 0 {
                    let i = if file & their_bia == 0 {
                        RUEA_OPEN
                    } else {
                        RUEA_HALF_OPEN
                    };
                    t.put(tr, c, i, 1);
                }
                t.put(tr, c, MOB_RUEA + mob.min(14), 1);
            }
            Role::Bia => {
                let f = i32::from(sq.file());
                if let Some(table) = bia_rank {
                    t.put(tr, c, table + rel_rank(c, sq) as usize, 1);
                    if (2..=5).contains(&f) {
                        t.put(tr, c, BIA_CENTRE_FILE, 1);
                    }
                }
                // Defended by a Bia of ours.
                if attacks::bia(them, sq) & our_bia != 0 {
                    t.put(tr, c, BIA_DEFENDED, 1);
                }
                let adjacent = (if f > 0 {
                    0x0101_0101_0101_0101u64 << (f - 1)
                } else {
                    0
                }) | (if f < 7 {
                    0x0101_0101_0101_0101u64 << (f + 1)
                } else {
                    0
                });
                if adjacent & our_bia == 0 {
                    t.put(tr, c, BIA_ISOLATED, 1);
                }
                let file = 0x0101_0101_0101_0101u64 << f;
                if (file & our_bia).count_ones() > 1 {
                    t.put(tr, c, BIA_DOUBLED, 1);
                }
            }
            Role::Khun => {}
        }
    }

    // The Khun's shield.
    if let Some(ksq) = board.khun_of(c) {
        let shield = attacks::khun(ksq)
            & ours
            & (board.by_role(Role::Met).0 | board.by_role(Role::Khon).0 | our_bia);
        t.put(tr, c, SHIELD + (shield.count_ones() as usize).min(4), 1);
    }
    // Sittuyin's pieces in hand are material still to be placed (full value: every one will
    // be dropped); the placement itself is judged by the terms above as the pieces land (the
    // Khun wants its home ranks and a shield).
    if pos.variant() == Variant::Sittuyin {
        for role in [Role::Met, Role::Khon, Role::Ma, Role::Ruea] {
            let n = pos.in_hand(c, role) as i32;
            if n > 0 {
                t.put(tr, c, VALUE + role.index(), n);
            }
        }
    }
    (t, danger, attacked)
}

/// Threats by side `c` (whose pieces attack `ours_att`; the other side's attack
/// `theirs_att`), added to `t`: enemy pieces attacked by a Bia of `c`, and enemy pieces it
/// attacks that nothing defends.
#[inline(always)]
fn threats<T: Trace>(
    pos: &Position,
    c: Color,
    ours_att: u64,
    theirs_att: u64,
    t: &mut Terms,
    tr: &mut T,
) {
    let board = pos.board();
    let them = c.other();
    let targets = board.by_color(them).0 & !board.by_role(Role::Khun).0;
    let by_bia = attacks::bia_span(c, board.by_piece(c, Role::Bia).0);
    let n = (targets & !board.by_role(Role::Bia).0 & by_bia).count_ones() as i32;
    if n > 0 {
        t.put(tr, c, layout::THREAT_BY_BIA, n);
    }
    let hanging = (targets & ours_att & !theirs_att).count_ones() as i32;
    if hanging > 0 {
        t.put(tr, c, layout::HANGING, hanging);
    }
}

/// The side to move's bonus, in centipawns (not tuned).
const TEMPO: i32 = 10;

/// The hand-written evaluation of `pos` ([`WEIGHTS`], the Texel-tuned terms), centipawns
/// from the side to move's point of view: what [`trace`] models, what the playing levels below
/// 8, the analysis and the puzzles search with, and what [`evaluate_network`] falls back to
/// where the network does not apply.
#[must_use]
pub fn evaluate(pos: &Position) -> i32 {
    let (linear, phase) = linear(pos, &mut ());
    finish(pos, linear, phase).0
}

/// The evaluation by the network ([`crate::nnue`]) where it applies (Makruk, no bare Khun:
/// [`crate::nnue::applies`]), with this module's endgame knowledge around it (the mop-up, the
/// drawish endings' scaling, the board's honour); elsewhere [`evaluate`]. Centipawns from
/// the side to move's point of view. Computes the network's accumulator from scratch.
#[must_use]
pub fn evaluate_network(pos: &Position) -> i32 {
    let net = crate::nnue::network();
    evaluate_with(pos, net, &net.accumulate(pos.board()))
}

/// [`evaluate_network`] with the network `net` and `acc`, its accumulator of `pos`'s board,
/// which the search keeps up to date move by move ([`crate::nnue::Accumulator`]).
#[must_use]
pub fn evaluate_with(
    pos: &Position,
    net: &crate::nnue::Network,
    acc: &crate::nnue::Accumulator,
) -> i32 {
    if !crate::nnue::applies(pos) {
        return evaluate(pos);
    }
    let stm = net.evaluate_accumulated(acc, pos.turn(), crate::nnue::bucket(pos));
    let white = match pos.turn() {
        Color::White => stm,
        Color::Black => -stm,
    };
    let score = scale(pos, white + endgame(pos, white));
    match pos.turn() {
        Color::White => score,
        Color::Black => -score,
    }
}

/// The weighted terms of `pos` from White's side, blended by the phase, and that phase
/// (0 = no pieces but Khun and Bia .. 32 = all of them).
#[inline(always)]
fn linear<T: Trace>(pos: &Position, tr: &mut T) -> (i32, i32) {
    let board = pos.board();
    let (mut w, w_danger, w_att) = side_terms(pos, Color::White, tr);
    let (mut b, b_danger, b_att) = side_terms(pos, Color::Black, tr);
    threats(pos, Color::White, w_att, b_att, &mut w, tr);
    threats(pos, Color::Black, b_att, w_att, &mut b, tr);
    // Khun safety: the attacks on a Khun's zone count against its side.
    w.put(
        tr,
        Color::White,
        layout::KHUN_DANGER + (b_danger as usize).min(15),
        1,
    );
    b.put(
        tr,
        Color::Black,
        layout::KHUN_DANGER + (w_danger as usize).min(15),
        1,
    );
    let mut phase = 0;
    let sittuyin = pos.variant() == Variant::Sittuyin;
    for role in [Role::Met, Role::Khon, Role::Ma, Role::Ruea] {
        let in_hand = if sittuyin {
            pos.in_hand(Color::White, role) + pos.in_hand(Color::Black, role)
        } else {
            0
        };
        phase += PHASE[role.index()] * (board.by_role(role).count() + in_hand) as i32;
    }
    let phase = phase.min(PHASE_MAX);
    let mg = w.mg - b.mg;
    let eg = w.eg - b.eg;
    ((mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX, phase)
}

/// The evaluation from the side to move's point of view, from the blended `linear` terms
/// (White's side) and the endgame knowledge; also the mop-up bonus (White's side) and the
/// factor the scaling applied (1 when none), for the tuner.
#[inline(always)]
fn finish(pos: &Position, linear: i32, _phase: i32) -> (i32, i32, f64) {
    let mop_up = endgame(pos, linear);
    let unscaled = linear + mop_up;
    let score = scale(pos, unscaled);
    let factor = if unscaled == 0 {
        1.0
    } else {
        f64::from(score) / f64::from(unscaled)
    };
    let stm = match pos.turn() {
        Color::White => score + TEMPO,
        Color::Black => -score + TEMPO,
    };
    (stm, mop_up, factor)
}

/// What the evaluation of a position adds up, for the Texel tuner: the evaluation is
/// `((Σ coefs·mg)·phase + (Σ coefs·eg)·(32 − phase)) / 32 + mop_up`, times `factor`, plus the
/// tempo for the side to move (White's side, up to integer rounding).
#[derive(Clone, Debug, PartialEq)]
pub struct EvalTrace {
    /// (weight index, White's count − Black's count), the weights that do not cancel out.
    pub coefs: Vec<(u16, i16)>,
    /// The game phase, 0 ..= 32 (32: all pieces on the board).
    pub phase: i32,
    /// The mop-up bonus (White's side), not tuned.
    pub mop_up: i32,
    /// The scaling applied at the current weights (insufficient material, drawish endings,
    /// the count; 1 when none), taken as fixed while tuning.
    pub factor: f64,
    /// The side to move's tempo bonus from White's side (± the tempo).
    pub tempo: i32,
    /// [`evaluate`] from White's side.
    pub eval: i32,
}

/// The trace of `pos`'s evaluation ([`EvalTrace`]).
#[must_use]
pub fn trace(pos: &Position) -> EvalTrace {
    struct Counts([i32; layout::COUNT]);
    impl Trace for Counts {
        fn add(&mut self, c: Color, i: usize, n: i32) {
            self.0[i] += if c == Color::White { n } else { -n };
        }
    }
    let mut counts = Counts([0; layout::COUNT]);
    let (lin, phase) = linear(pos, &mut counts);
    let (stm, mop_up, factor) = finish(pos, lin, phase);
    let white = if pos.turn() == Color::White { 1 } else { -1 };
    EvalTrace {
        coefs: counts
            .0
            .iter()
            .enumerate()
            .filter(|(_, &n)| n != 0)
            .map(|(i, &n)| (i as u16, n as i16))
            .collect(),
        phase,
        mop_up,
        factor,
        tempo: white * TEMPO,
        eval: white * stm,
    }
}

/// Mop-up: with a bare Khun, or no Bia left and one side a Ruea ahead, the stronger side
/// wants the weak Khun on the edge and its own Khun close. White's point of view.
fn endgame(pos: &Position, score: i32) -> i32 {
    let board = pos.board();
    let strong = if score > 0 {
        Color::White
    } else {
        Color::Black
    };
    let weak = strong.other();
    let mop_up = pos.is_bare(weak) || (board.by_role(Role::Bia).is_empty() && score.abs() >= 400);
    if !mop_up {
        return 0;
    }
    let (Some(ks), Some(kw)) = (board.khun_of(strong), board.khun_of(weak)) else {
        return 0;
    };
    // The weak Khun's distance from the centre, and from the nearest corner (the Met and
    // Khon mate only in a corner).
    let f = i32::from(kw.file());
    let r = i32::from(kw.rank());
    let corner = f.min(7 - f) + r.min(7 - r);
    let bonus = 12 * center_distance(kw) + 8 * (6 - corner).max(0) + 6 * (7 - distance(ks, kw));
    match strong {
        Color::White => bonus,
        Color::Black => -bonus,
    }
}

/// Draw-ish scaling (White's point of view): insufficient material, and the count.
fn scale(pos: &Position, score: i32) -> i32 {
    let strong = if score > 0 {
        Color::White
    } else {
        Color::Black
    };
    if score == 0 {
        return 0;
    }
    if pos.has_insufficient_material(strong) {
        return score / 16;
    }
    let board = pos.board();
    let mut score = score;
    // Without Bia the stronger side rarely wins with an advantage of at most a minor piece
    // (a Ma or less) against a Khun that still has pieces: Ruea and Met against Ruea, two
    // Ruea against Ruea and Ma, Ruea against Ma. Stockfish's (and Fairy-Stockfish's) scale
    // factor for that case (material.cpp, pieces without the Bia): 14/64, and 4/64 when the weak side has no more
    // than a minor piece (Stockfish's 0 when the stronger side has less than a Ruea is kept
    // at 4/64 here, so that the sign stays).
    if board.by_piece(strong, Role::Bia).is_empty() && !pos.is_bare(strong.other()) {
        let pieces = |c: Color| -> i32 {
            [Role::Met, Role::Khon, Role::Ma, Role::Ruea]
                .into_iter()
                .map(|r| value(r) * board.by_piece(c, r).count() as i32)
                .sum()
        };
        let (ours, theirs) = (pieces(strong), pieces(strong.other()));
        if ours - theirs <= value(Role::Ma) {
            let factor = if ours < value(Role::Ruea) || theirs <= value(Role::Ma) {
                4
            } else {
                14
            };
            score = score * factor / 64;
        }
    }
    if board.by_role(Role::Bia).any() {
        return score;
    }
    // Without Bia, one minor piece against pieces rarely mates.
    let strong_pieces = board.by_color(strong).count() - 1;
    if strong_pieces <= 1
        && board.by_piece(strong, Role::Ruea).is_empty()
        && !pos.is_bare(strong.other())
    {
        score /= 4;
    }
    if let Some(c) = count_info(pos) {
        let counter_cannot_win = pos.rules().counter_mates == CounterMates::Draws
            && c.kind == CountKind::BoardsHonour
            && c.counting == strong;
        if counter_cannot_win {
            return score / 8;
        }
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use makruk::Ruleset;

    fn eval(fen: &str) -> i32 {
        evaluate(&Position::from_fen(fen, Ruleset::Standard).expect("valid FEN"))
    }

    #[test]
    fn start_position_is_balanced_and_symmetric() {
        let start = eval("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1");
        let black = eval("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR b - - 0 1");
        assert_eq!(start, black, "same value for either side to move");
        assert!(start.abs() < 40, "{start}");
    }

    #[test]
    fn the_trace_adds_up_to_the_evaluation() {
        // The tuner's model: the traced counts times the weights, blended by the phase, plus
        // the mop-up, times the factor, plus the tempo, is the evaluation (White's side) up to
        // the integer rounding of the blend and the scaling.
        for (fen, variant) in [
            (
                "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
                Variant::Makruk,
            ),
            (
                "r3k2r/2s1m3/p1n1psp1/1p1p3p/1P1P1P2/P1NSP1PP/3M4/R2K1S1R b - - 0 20",
                Variant::Makruk,
            ),
            (
                "8/3k4/2p1s3/1pP1p3/1P2P3/3S1K2/8/8 w - - 0 40",
                Variant::Makruk,
            ),
            ("3R4/8/3r4/1K2k3/8/2M5/8/8 w - - 5 63", Variant::Makruk),
            ("4k3/8/8/8/8/8/8/R3K3 b - - 0 1", Variant::Makruk),
            (
                "rnbqkbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBQKBNR w - - 0 1",
                Variant::Asean,
            ),
            (
                "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1",
                Variant::Sittuyin,
            ),
        ] {
            let pos = Position::from_fen_variant(fen, variant).expect("valid FEN");
            let t = trace(&pos);
            let (mut mg, mut eg) = (0i64, 0i64);
            for &(i, n) in &t.coefs {
                mg += i64::from(WEIGHTS[usize::from(i)].0) * i64::from(n);
                eg += i64::from(WEIGHTS[usize::from(i)].1) * i64::from(n);
            }
            let ph = i64::from(t.phase);
            let blended = (mg * ph + eg * (32 - ph)) as f64 / 32.0;
            let model = (blended + f64::from(t.mop_up)) * t.factor + f64::from(t.tempo);
            let white = if pos.turn() == Color::White { 1 } else { -1 };
            assert_eq!(t.eval, white * evaluate(&pos), "{fen}");
            assert!(
                (model - f64::from(t.eval)).abs() <= 1.5,
                "{fen}: {model} {}",
                t.eval
            );
        }
    }

    #[test]
    fn every_weight_has_its_name() {
        assert_eq!(
            weight_name(layout::VALUE + Role::Ruea.index()),
            "value Ruea"
        );
        assert_eq!(
            weight_name(layout::PST + 32 * Role::Ma.index() + 3 * 4 + 3),
            "square Ma d4"
        );
        assert_eq!(weight_name(layout::MOB_RUEA + 7), "mobility Ruea 7");
        assert_eq!(weight_name(layout::BIA_RANK_ASEAN), "ASEAN Bia rank 1");
        assert_eq!(weight_name(layout::KHUN_DANGER + 15), "Khun danger 15");
        assert_eq!(weight_name(layout::RUEA_OPEN), "Ruea on an open file");
        assert_eq!(
            weight_name(layout::HANGING),
            "piece attacked and undefended"
        );
        let names: std::collections::HashSet<String> =
            (0..layout::COUNT).map(weight_name).collect();
        assert_eq!(names.len(), layout::COUNT, "names are unique");
    }

    #[test]
    fn material_counts() {
        // White without its Ruea a1: clearly worse.
        let e = eval("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/1NSKMSNR w - - 0 1");
        assert!(e < -350, "{e}");
    }

    #[test]
    fn a_side_that_cannot_mate_is_not_better() {
        // Khun and Ma against a bare Khun: Fairy-Stockfish's insufficient material.
        let e = eval("8/8/3k4/8/8/2N5/8/4K3 w - - 0 1");
        assert!(e.abs() < 40, "{e}");
    }

    #[test]
    fn the_no_progress_counter_leaves_the_advantage_as_it_is() {
        let at = |h: u32| {
            let fen = format!("4k3/8/8/8/8/8/8/R3K3 w - - {h} 60");
            evaluate(&Position::from_fen(&fen, Ruleset::FiftyMove).expect("valid FEN"))
        };
        assert!(at(0) > 300, "{}", at(0));
        assert_eq!(at(0), at(98));
    }

    #[test]
    fn a_minor_piece_ahead_without_bia_is_drawish() {
        // Khun, Ruea and Met against Khun and Ruea (PlayOK game-08, ply 124), no count: a
        // draw most of the time, so only a small edge (it was over two Bia before).
        let e = eval("3R4/8/3r4/1K2k3/8/2M5/8/8 w - - 5 63");
        assert!(e > 0 && e < 80, "{e}");
        // Ruea against Ma: less still.
        let e = eval("3R4/8/3n4/1K2k3/8/8/8/8 w - - 5 63");
        assert!(e > 0 && e < 40, "{e}");
        // A whole Ruea ahead, or a Bia on the stronger side, is not scaled.
        assert!(eval("3R4/8/3r4/1K2k3/8/8/8/R7 w - - 5 63") > 400);
        assert!(eval("3R4/8/3r4/1K2k3/8/1PM5/8/8 w - - 5 63") > 250);
    }

    #[test]
    fn the_count_leaves_the_advantage_as_it_is() {
        // Khun and Ruea against Khun and Met, board's honour: early in the count and late, the
        // same evaluation (the search, not the evaluation, sees the count run out).
        let early = eval("8/3km3/8/8/8/8/R7/4K3 w - 128 3 40");
        let late = eval("8/3km3/8/8/8/8/R7/4K3 w - 128 126 40");
        assert!(early > 300, "{early}");
        assert_eq!(early, late);
    }
}
