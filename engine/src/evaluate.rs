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
//!   nears its sixth rank, where it is promoted.
//! - Bia structure: a Bia defended by a Bia is good, an isolated or doubled Bia is weak.
//! - Khun safety while the board is full: a shield of Met, Khon and Bia around it, and the
//!   attackers bearing on its squares.
//! - Mobility of the short-range pieces (and the Ruea): squares they reach that no enemy Bia
//!   guards.
//! - Threats: an enemy piece attacked by a Bia, and an enemy piece attacked that nothing
//!   defends.
//! - Endgame knowledge: a side that cannot mate (Fairy-Stockfish's insufficient material)
//!   is not better; with a bare Khun or a large advantage, the stronger side drives the weak
//!   Khun to the edge; when a count runs, the evaluation shrinks toward 0 over its last ten
//!   moves (a draw when it runs out), so the stronger side hurries to mate and the weaker
//!   side steers toward the count; without Bia on the stronger side, an advantage of at most
//!   a minor piece against a Khun that still has pieces is scaled down as Stockfish does
//!   (Ruea and Met against Ruea is a draw most of the time); so does the no-progress counter of `material` and
//!   `fifty-move` over its last twenty plies. Under `traditional` the side counting a requested board's
//!   honour cannot win by mate (that is a draw), so its advantage counts for little.

use crate::attacks;
use makruk::{count_info, Color, CountKind, CounterMates, Position, Role, Square, Variant};

/// Piece values (middlegame, endgame) in centipawns, indexed by [`Role::index`].
pub const VALUES: [(i32, i32); 6] = [
    (0, 0),     // Khun
    (180, 200), // Met (a Bia-ngai too)
    (270, 280), // Khon
    (310, 320), // Ma
    (500, 520), // Ruea
    (100, 120), // Bia
];

/// The single value used by move ordering and exchange evaluation.
#[must_use]
#[inline]
pub const fn value(role: Role) -> i32 {
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

/// 0 on the edge .. 3 in the four centre squares.
#[inline]
fn centrality(sq: Square) -> i32 {
    let f = i32::from(sq.file());
    let r = i32::from(sq.rank());
    let df = if f < 4 { f } else { 7 - f };
    let dr = if r < 4 { r } else { 7 - r };
    df.min(dr)
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

/// Bia bonus by relative rank in Makruk, Makpong and Ouk Chaktrang (its third rank is the
/// start, the fifth the last before promotion on the sixth).
const BIA_RANK: [(i32, i32); 8] = [
    (0, 0),
    (0, 0),
    (0, 0),
    (8, 12),
    (22, 35),
    (0, 0),
    (0, 0),
    (0, 0),
];

/// Bia bonus by relative rank in ASEAN chess: promotion on the last rank to a piece of the
/// player's choice (a Ruea at best), so the bonus grows all the way.
const BIA_RANK_ASEAN: [(i32, i32); 8] = [
    (0, 0),
    (0, 0),
    (0, 0),
    (6, 10),
    (14, 24),
    (26, 45),
    (45, 80),
    (0, 0),
];

/// Bia bonus by relative rank in Sittuyin: promotion (to a Met, only while the side has none)
/// is on the main diagonals of the opponent's half, a move of its own; an advanced Bia still
/// gains space.
const BIA_RANK_SITTUYIN: [(i32, i32); 8] = [
    (0, 0),
    (0, 0),
    (0, 0),
    (6, 10),
    (16, 26),
    (20, 32),
    (20, 32),
    (20, 32),
];

/// The Bia rank table of `variant` (where its Bia are promoted).
#[inline]
fn bia_rank_table(variant: Variant) -> &'static [(i32, i32); 8] {
    match variant {
        Variant::Asean => &BIA_RANK_ASEAN,
        Variant::Sittuyin => &BIA_RANK_SITTUYIN,
        _ => &BIA_RANK,
    }
}

/// Khun safety penalty by the weighted number of attacks on its zone.
const KHUN_DANGER: [i32; 16] = [
    0, 0, 4, 10, 20, 32, 46, 62, 80, 100, 120, 140, 160, 180, 200, 220,
];

/// Scores of one side: (middlegame, endgame).
#[derive(Default, Clone, Copy)]
struct Terms {
    mg: i32,
    eg: i32,
}

impl Terms {
    fn add(&mut self, (mg, eg): (i32, i32)) {
        self.mg += mg;
        self.eg += eg;
    }
}

/// The terms of side `c`, the weighted attacks of its pieces on the enemy Khun's zone, and
/// the squares its pieces attack.
fn side_terms(pos: &Position, c: Color) -> (Terms, i32, u64) {
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
    let bia_rank = bia_rank_table(pos.variant());

    for sq in board.by_color(c) {
        let Some(role) = board.role_at(sq) else {
            continue;
        };
        t.add(VALUES[role.index()]);
        let cen = centrality(sq);
        let rr = rel_rank(c, sq);
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
        let mob = (att & !ours & !guarded_by_their_bia).count_ones() as i32;
        match role {
            Role::Ma => {
                t.add((8 * cen, 6 * cen));
                t.add((5 * (mob - 4), 4 * (mob - 4)));
            }
            Role::Khon => {
                t.add((6 * cen + 3 * rr.min(5), 5 * cen));
                t.add((4 * (mob - 2), 3 * (mob - 2)));
            }
            Role::Met => {
                t.add((5 * cen + 2 * rr.min(5), 6 * cen));
                t.add((4 * (mob - 2), 4 * (mob - 2)));
            }
            Role::Ruea => {
                let file = 0x0101_0101_0101_0101u64 << sq.file();
                if file & our_bia == 0 {
                    t.add(if file & their_bia == 0 {
                        (22, 12)
                    } else {
                        (10, 6)
                    });
                }
                t.add((2 * (mob - 7), 3 * (mob - 7)));
            }
            Role::Bia => {
                t.add(bia_rank[rr as usize]);
                let f = i32::from(sq.file());
                if (2..=5).contains(&f) {
                    t.add((6, 0));
                }
                // Defended by a Bia of ours.
                if attacks::bia(them, sq) & our_bia != 0 {
                    t.add((8, 10));
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
                    t.add((-8, -12));
                }
                let file = 0x0101_0101_0101_0101u64 << f;
                if (file & our_bia).count_ones() > 1 {
                    t.add((-6, -10));
                }
            }
            Role::Khun => {
                let home = if rr == 0 {
                    12
                } else if rr == 1 {
                    4
                } else {
                    -12 * (rr - 1)
                };
                t.add((home, 10 * cen));
            }
        }
    }

    // The Khun's shield (middlegame only).
    if let Some(ksq) = board.khun_of(c) {
        let shield = attacks::khun(ksq)
            & ours
            & (board.by_role(Role::Met).0 | board.by_role(Role::Khon).0 | our_bia);
        t.mg += 6 * (shield.count_ones() as i32).min(4);
    }
    // Sittuyin's pieces in hand are material still to be placed (full value: every one will
    // be dropped); the placement itself is judged by the terms above as the pieces land (the
    // Khun wants its home ranks and a shield).
    if pos.variant() == Variant::Sittuyin {
        for role in [Role::Met, Role::Khon, Role::Ma, Role::Ruea] {
            let n = pos.in_hand(c, role) as i32;
            if n > 0 {
                let (mg, eg) = VALUES[role.index()];
                t.add((mg * n, eg * n));
            }
        }
    }
    (t, danger, attacked)
}

/// Threats by side `c` (whose pieces attack `ours_att`; the other side's attack
/// `theirs_att`): enemy pieces attacked by a Bia of `c`, and enemy pieces it attacks that
/// nothing defends.
fn threats(pos: &Position, c: Color, ours_att: u64, theirs_att: u64) -> Terms {
    let board = pos.board();
    let them = c.other();
    let targets = board.by_color(them).0 & !board.by_role(Role::Khun).0;
    let by_bia = attacks::bia_span(c, board.by_piece(c, Role::Bia).0);
    let mut t = Terms::default();
    let n = (targets & !board.by_role(Role::Bia).0 & by_bia).count_ones() as i32;
    t.add((55 * n, 35 * n));
    let hanging = (targets & ours_att & !theirs_att).count_ones() as i32;
    t.add((25 * hanging, 20 * hanging));
    t
}

/// The evaluation of `pos` in centipawns from the side to move's point of view.
#[must_use]
pub fn evaluate(pos: &Position) -> i32 {
    let board = pos.board();
    let (mut w, w_danger, w_att) = side_terms(pos, Color::White);
    let (mut b, b_danger, b_att) = side_terms(pos, Color::Black);
    let wt = threats(pos, Color::White, w_att, b_att);
    let bt = threats(pos, Color::Black, b_att, w_att);
    w.add((wt.mg, wt.eg));
    b.add((bt.mg, bt.eg));
    // Khun safety: the attacks on a Khun's zone count against its side.
    w.mg -= KHUN_DANGER[(b_danger as usize).min(15)];
    b.mg -= KHUN_DANGER[(w_danger as usize).min(15)];
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
    let mut score = (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
    score += endgame(pos, score);
    score = scale(pos, score);
    let tempo = 10;
    match pos.turn() {
        Color::White => score + tempo,
        Color::Black => -score + tempo,
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
    // The no-progress rule (`material`, `fifty-move`): the last twenty plies before it draws
    // shrink the advantage too.
    if let Some(np) = pos.rules().no_progress {
        if !np.only_with_bia || board.by_role(Role::Bia).any() {
            let left = np.plies.saturating_sub(pos.halfmoves()).min(20) as i32;
            score = score * (4 + left) / 24;
        }
    }
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
        // Full value while ten or more of the counting side's moves are left, then down to a
        // sixth at the last one.
        let rem = c.remaining.min(10) as i32;
        score = score * (2 + rem) / 12;
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
    fn the_no_progress_counter_shrinks_the_advantage() {
        let at = |h: u32| {
            let fen = format!("4k3/8/8/8/8/8/8/R3K3 w - - {h} 60");
            evaluate(&Position::from_fen(&fen, Ruleset::FiftyMove).expect("valid FEN"))
        };
        assert_eq!(at(0), at(80));
        assert!(at(98) < at(80) / 3, "{} {}", at(98), at(80));
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
    fn the_count_shrinks_the_advantage() {
        // Khun and Ruea against Khun and Met, board's honour: early in the count and late.
        let early = eval("8/3km3/8/8/8/8/R7/4K3 w - 128 3 40");
        let late = eval("8/3km3/8/8/8/8/R7/4K3 w - 128 126 40");
        assert!(early > 2 * late && late > 0, "{early} {late}");
    }
}
