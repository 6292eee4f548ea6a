//! Pairing one bracket (C.04.3 B): the quality criteria C.5–C.19 as packed edge weights, then
//! the order of generation of candidates (D.1–D.3) decided player by player.
//!
//! A bracket's graph holds its moved-down players (MDPs), its residents and the residents of
//! the next score group ("lower" players, present so that C.7 can look one bracket ahead).
//! Each edge weight is, from the most significant field down: the bye field (PPB / last
//! bracket only: 1 + how many of the two already had a bye, so that the one left out is one
//! who may get it, C.2), then one field per criterion C.5–C.19, each wide enough that the sum
//! over a whole matching cannot spill into the field above, then room for the transposition
//! nudges. Maximising the total weight thus satisfies the criteria in their order of priority.

use std::collections::HashMap;

use super::colour::Strength;
use super::matching::{max_weight_matching, Weight};
use super::wide::Wide;
use super::{colours_for, Entrant, Float, PairingError, Rules, Validity};
use crate::record::Colour;

/// What a bracket needs to know of the round.
pub(crate) struct Context<'a> {
    /// All players of the round, sorted by rank.
    pub players: &'a [Entrant],
    pub rules: &'a Rules,
    /// The round being paired (1 for the first).
    pub round_number: usize,
    /// Whether the lower brackets have collapsed (this bracket is then the PPB, A.9).
    pub collapsed: bool,
    /// The first seed's colour in round 1 (E.5).
    pub first_colour: Colour,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Role {
    Mdp,
    Resident,
    Lower,
}

fn bit_length(x: usize) -> u32 {
    usize::BITS - x.leading_zeros()
}

/// The bracket's shape: what sizes the weight fields need.
struct Info {
    one_round: bool,
    two_rounds: bool,
    ppb: bool,
    lpb: bool,
    min_score: i64,
    bb: u32,
    lbb: u32,
    sd_total: u32,
    /// Bit position of each score difference's sub-field (A.8, C.6).
    sd_pos: HashMap<i64, u32>,
}

impl Info {
    fn new(ctx: &Context<'_>, mdps: &[usize], residents: &[usize], lower: &[usize]) -> Self {
        let p = ctx.players;
        let min_score = p[*residents.last().expect("a bracket has residents")].points;
        // Every score difference that can occur, counted (A.8: one point below the lowest).
        let mut diffs: Vec<i64> = mdps
            .iter()
            .chain(residents)
            .map(|&i| p[i].points - min_score + 10)
            .collect();
        for &m in mdps {
            let mut set: Vec<i64> = residents
                .iter()
                .map(|&r| p[m].points - p[r].points)
                .collect();
            set.sort_unstable();
            set.dedup();
            diffs.extend(set);
        }
        for (i, &r) in residents.iter().enumerate() {
            let mut set: Vec<i64> = residents[i + 1..]
                .iter()
                .map(|&l| p[r].points - p[l].points)
                .collect();
            set.sort_unstable();
            set.dedup();
            diffs.extend(set);
        }
        let mut counts: HashMap<i64, usize> = HashMap::new();
        for d in diffs {
            *counts.entry(d).or_default() += 1;
        }
        let mut keys: Vec<i64> = counts.keys().copied().collect();
        keys.sort_unstable();
        let mut sd_pos = HashMap::new();
        let mut total = 0;
        for k in keys {
            sd_pos.insert(k, total);
            total += bit_length(counts[&k]);
        }
        Self {
            one_round: ctx.round_number > 1,
            two_rounds: ctx.round_number > 2,
            ppb: ctx.collapsed,
            lpb: lower.is_empty(),
            min_score,
            bb: bit_length(residents.len()),
            lbb: bit_length(lower.len()),
            sd_total: total,
            sd_pos,
        }
    }

    fn ppb_or_lpb(&self) -> bool {
        self.ppb || self.lpb
    }

    /// The field widths of C.5 … C.19, in order.
    fn shifts(&self) -> [u32; 15] {
        let (bb, sd) = (self.bb, self.sd_total);
        let one = |x: u32| if self.one_round { x } else { 0 };
        let two = |x: u32| if self.two_rounds { x } else { 0 };
        [
            bb,                                                // C.5
            sd,                                                // C.6
            if self.ppb_or_lpb() { 0 } else { self.lbb + sd }, // C.7
            bb,                                                // C.8
            bb,                                                // C.9
            bb,                                                // C.10
            bb,                                                // C.11
            one(bb),                                           // C.12
            two(bb),                                           // C.13
            one(bb),                                           // C.14
            two(bb),                                           // C.15
            one(sd),                                           // C.16
            one(sd),                                           // C.17
            two(sd),                                           // C.18
            two(sd),                                           // C.19
        ]
    }

    /// Bits of the largest weight (py4swiss's `max_weight`): bye field, criteria, the
    /// transposition room and a margin.
    fn weight_bits(&self) -> u32 {
        self.shifts().iter().sum::<u32>() + 3 * self.bb + 3
    }
}

/// A wide signed number the weights are built with.
pub(crate) trait Big: Weight {
    fn from_i64(v: i64) -> Self;
    fn shift_left(self, bits: u32) -> Self;
    fn pow2(bits: u32) -> Self;
}

impl<const N: usize> Big for Wide<N> {
    fn from_i64(v: i64) -> Self {
        Wide::from_i64(v)
    }
    fn shift_left(self, bits: u32) -> Self {
        Wide::shift_left(self, bits)
    }
    fn pow2(bits: u32) -> Self {
        Wide::pow2(bits)
    }
}

/// The bracket's weighted graph and its current best matching.
struct Matcher<'a, W: Big> {
    ctx: &'a Context<'a>,
    info: &'a Info,
    /// Players (indices into `ctx.players`): MDPs, residents, then lower players.
    list: Vec<usize>,
    roles: Vec<Role>,
    weights: Vec<Vec<W>>,
    max_weight: W,
    /// `matching[i]`: the vertex `i` is matched to, `i` itself when unmatched.
    matching: Vec<usize>,
}

impl<'a, W: Big> Matcher<'a, W> {
    fn p(&self, i: usize) -> &Entrant {
        &self.ctx.players[self.list[i]]
    }

    /// Whether vertex `a`'s player ranks above vertex `b`'s.
    fn above(&self, a: usize, b: usize) -> bool {
        self.p(a).ranks_above(self.p(b))
    }

    fn sd_bit(&self, d: i64) -> W {
        W::pow2(self.info.sd_pos[&d])
    }

    fn sd_bit_or_first(&self, d: i64) -> W {
        W::pow2(self.info.sd_pos.get(&d).copied().unwrap_or(0))
    }

    /// The weight of the edge between vertices `i < j` (zero: no edge).
    fn edge_weight(&self, i: usize, j: usize) -> W {
        let (p1, p2) = (self.p(i), self.p(j));
        if !self.ctx.rules.allowed(p1, p2) {
            return W::zero();
        }
        let info = self.info;
        let lower2 = self.roles[j] == Role::Lower;
        let lower1 = self.roles[i] == Role::Lower;
        let d1 = p1.points - info.min_score + 10;
        let d2 = p2.points - info.min_score + 10;
        let d3 = p1.points - p2.points;
        let one = W::from_i64(1);
        let bit = |b: bool| if b { one } else { W::zero() };
        let mut w = W::zero();
        if info.ppb_or_lpb() {
            w = W::from_i64(1 + i64::from(p1.bye_received) + i64::from(p2.bye_received));
        }
        let shifts = info.shifts();
        let same_side = p1.colour.preference.colour == p2.colour.preference.colour;
        let p1_higher = p1.points > p2.points;
        for (c, &shift) in shifts.iter().enumerate() {
            w = w.shift_left(shift);
            let criterion = c + 5;
            let value = match criterion {
                5 => bit(!lower2),
                6 if lower2 => W::zero(),
                6 => self
                    .sd_bit(d1)
                    .plus(self.sd_bit(d2))
                    .minus(self.sd_bit_or_first(d3)),
                7 if info.ppb_or_lpb() => W::zero(),
                7 => {
                    let mut v = bit(lower2).shift_left(info.sd_total);
                    if !lower1 {
                        v = v.plus(self.sd_bit(d1));
                    }
                    if !lower2 {
                        v = v.plus(self.sd_bit(d2));
                    }
                    v
                }
                _ if lower2 => W::zero(),
                8 => {
                    let top = p1.top_scorer || p2.top_scorer;
                    let wide = p1.colour.difference.abs() > 1 && p2.colour.difference.abs() > 1;
                    bit(!(top && wide && same_side))
                }
                9 => {
                    let top = p1.top_scorer || p2.top_scorer;
                    bit(!(top && p1.colour.double && p2.colour.double && same_side))
                }
                10 => bit(!(same_side && p1.colour.preference.colour.is_some())),
                11 => {
                    let strong = p1.colour.preference.strength >= Strength::Strong
                        && p2.colour.preference.strength >= Strength::Strong;
                    bit(!(strong && same_side && p1.colour.preference.colour.is_some()))
                }
                12 | 14 if !info.one_round => W::zero(),
                12 | 14 => {
                    let (f1, f2) = if criterion == 12 {
                        (p1.float1, p2.float1)
                    } else {
                        (p1.float2, p2.float2)
                    };
                    let n = i64::from(f1 == Float::Down && p1.points <= p2.points)
                        + i64::from(f2 == Float::Down);
                    W::from_i64(n)
                }
                13 | 15 if !info.two_rounds => W::zero(),
                13 | 15 => {
                    let f2 = if criterion == 13 {
                        p2.float1
                    } else {
                        p2.float2
                    };
                    bit(!(f2 == Float::Up && p1_higher))
                }
                16 | 17 if !info.one_round => W::zero(),
                18 | 19 if !info.two_rounds => W::zero(),
                16 | 18 => {
                    let (f1, f2) = if criterion == 16 {
                        (p1.float1, p2.float1)
                    } else {
                        (p1.float2, p2.float2)
                    };
                    let (prev1, prev2) = (f1 == Float::Down, f2 == Float::Down);
                    let mut v = W::zero();
                    if prev1 {
                        v = v.plus(self.sd_bit(d1));
                    }
                    if prev2 {
                        v = v.plus(self.sd_bit(d2));
                    }
                    if prev1 && p1_higher {
                        v = v.minus(self.sd_bit_or_first(d3));
                    }
                    v
                }
                _ => {
                    // C.17 / C.19
                    let f2 = if criterion == 17 {
                        p2.float1
                    } else {
                        p2.float2
                    };
                    if f2 == Float::Up && p1_higher {
                        W::zero().minus(self.sd_bit(d1))
                    } else {
                        W::zero()
                    }
                }
            };
            w = w.plus(value);
        }
        w.shift_left(3 * info.bb + 1)
    }

    fn new(
        ctx: &'a Context<'a>,
        info: &'a Info,
        mdps: &[usize],
        residents: &[usize],
        lower: &[usize],
    ) -> Self {
        let list: Vec<usize> = mdps.iter().chain(residents).chain(lower).copied().collect();
        let roles: Vec<Role> = std::iter::repeat_n(Role::Mdp, mdps.len())
            .chain(std::iter::repeat_n(Role::Resident, residents.len()))
            .chain(std::iter::repeat_n(Role::Lower, lower.len()))
            .collect();
        let n = list.len();
        let bits = info.weight_bits();
        let max_weight = W::pow2(bits).minus(W::from_i64(1));
        let mut m = Self {
            ctx,
            info,
            list,
            roles,
            weights: vec![vec![W::zero(); n]; n],
            max_weight,
            matching: (0..n).collect(),
        };
        for i in 0..n {
            for j in i + 1..n {
                let w = m.edge_weight(i, j);
                m.weights[i][j] = w;
                m.weights[j][i] = w;
            }
        }
        m.update();
        m
    }

    fn len(&self) -> usize {
        self.list.len()
    }

    fn update(&mut self) {
        let n = self.len();
        let mut edges = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if self.weights[i][j] != W::zero() {
                    edges.push((i, j, self.weights[i][j]));
                }
            }
        }
        let mate = max_weight_matching(n, &edges);
        self.matching = mate
            .iter()
            .enumerate()
            .map(|(i, m)| m.unwrap_or(i))
            .collect();
    }

    fn add(&mut self, i: usize, j: usize, value: i64) {
        if self.weights[i][j] == W::zero() {
            return;
        }
        let w = self.weights[i][j].plus(W::from_i64(value));
        self.weights[i][j] = w;
        self.weights[j][i] = w;
    }

    fn add_many(&mut self, p: usize, others: &[usize], mut value: i64, increment: bool) {
        for &o in others {
            self.add(p, o, value);
            if increment {
                value += 1;
            }
        }
    }

    fn remove(&mut self, i: usize, j: usize) {
        self.weights[i][j] = W::zero();
        self.weights[j][i] = W::zero();
    }

    fn remove_many(&mut self, p: usize, others: &[usize]) {
        for &o in others {
            self.remove(p, o);
        }
    }

    fn finalize(&mut self, i: usize, j: usize) {
        for k in 0..self.len() {
            self.remove(i, k);
            self.remove(j, k);
        }
        self.weights[i][j] = self.max_weight;
        self.weights[j][i] = self.max_weight;
    }

    fn match_role(&self, i: usize) -> Role {
        self.roles[self.matching[i]]
    }

    fn in_s1(&self, i: usize) -> bool {
        self.above(i, self.matching[i]) && self.match_role(i) == Role::Resident
    }

    fn in_s2(&self, i: usize) -> bool {
        !self.above(i, self.matching[i]) || self.match_role(i) == Role::Lower
    }
}

/// Pair one bracket. `Ok(None)` when the downfloaters it leaves do not let the round be
/// completed (the caller then collapses the lower brackets, A.9). `validity` learns the pairs
/// fixed on the way (also on failure, as py4swiss does).
pub(crate) fn pair_bracket(
    ctx: &Context<'_>,
    mdps: &[usize],
    residents: &[usize],
    lower: &[usize],
    validity: &mut Validity,
) -> Result<Option<Vec<(usize, usize)>>, PairingError> {
    let info = Info::new(ctx, mdps, residents, lower);
    let needed = info.weight_bits() + 6;
    macro_rules! run {
        ($($n:literal)*) => {
            $(if needed <= 64 * $n {
                return Ok(run::<Wide<$n>>(ctx, &info, mdps, residents, lower, validity));
            })*
        };
    }
    run!(1 2 4 8 16 32 64 128);
    Err(PairingError::TooLarge(needed))
}

fn run<W: Big>(
    ctx: &Context<'_>,
    info: &Info,
    mdps: &[usize],
    residents: &[usize],
    lower: &[usize],
    validity: &mut Validity,
) -> Option<Vec<(usize, usize)>> {
    let mut m: Matcher<'_, W> = Matcher::new(ctx, info, mdps, residents, lower);
    let num = m.len() as i64;
    let mdp_v: Vec<usize> = (0..mdps.len()).collect();
    let res_v: Vec<usize> = (mdps.len()..mdps.len() + residents.len()).collect();
    let low_v: Vec<usize> = (mdps.len() + residents.len()..m.len()).collect();
    let res_rev: Vec<usize> = res_v.iter().rev().copied().collect();

    // D.3: which MDPs go to S1 (lowest BSNs first; the PSD is already minimised by C.6).
    let mut het_s1 = Vec::new();
    for &mdp in &mdp_v {
        if m.match_role(mdp) != Role::Resident {
            m.add_many(mdp, &res_v, 1, false);
            m.update();
        }
        if m.match_role(mdp) == Role::Resident {
            het_s1.push(mdp);
            m.add_many(mdp, &res_v, num, false);
        }
    }
    // D.1: each MDP of S1 meets the highest resident it can.
    let mut het_s2 = Vec::new();
    for &mdp in &het_s1 {
        m.add_many(mdp, &res_rev, 0, true);
        m.update();
        let partner = m.matching[mdp];
        het_s2.push(partner);
        m.finalize(mdp, partner);
        validity.finalize(m.list[mdp], m.list[partner]);
    }
    // D.2.a/b: how many resident exchanges the remainder needs.
    let remainder: Vec<usize> = res_v
        .iter()
        .copied()
        .filter(|r| !het_s2.contains(r))
        .collect();
    let pairs = remainder
        .iter()
        .filter(|&&r| m.match_role(r) == Role::Resident)
        .count()
        / 2;
    let mut s1: Vec<usize> = remainder[..pairs].to_vec();
    let mut s2: Vec<usize> = remainder[pairs..].to_vec();
    for (i, &r) in remainder.iter().enumerate() {
        let value = ((i64::from(i < pairs) << (2 * info.bb)) - i as i64) << 1;
        m.add_many(r, &remainder[i + 1..], value, false);
    }
    m.update();
    let exchanges = s1.iter().filter(|&&r| m.in_s2(r)).count();

    // D.2.c: the highest BSNs move from S1 to S2.
    let mut left = exchanges;
    for i in (0..s1.len()).rev() {
        if left == 0 {
            break;
        }
        let r = s1[i];
        let lower_res: Vec<usize> = s1[i + 1..].iter().chain(&s2).copied().collect();
        let was = m.in_s2(r);
        if !was {
            m.add_many(r, &lower_res, -1, false);
            m.update();
        }
        if m.in_s2(r) {
            left -= 1;
            m.remove_many(r, &lower_res);
        }
        if !was {
            m.add_many(r, &lower_res, 1, false);
        }
    }
    // D.2.d: the lowest BSNs move from S2 to S1.
    let mut left = exchanges;
    for i in 0..s2.len() {
        if left == 0 {
            break;
        }
        let r = s2[i];
        let higher: Vec<usize> = s1.iter().chain(&s2[..i]).copied().collect();
        let was = m.in_s1(r);
        if !was {
            m.add_many(r, &higher, -1, false);
            m.update();
        }
        if !m.in_s2(r) {
            left -= 1;
            let mut gone = higher.clone();
            gone.extend(&low_v);
            m.remove_many(r, &gone);
        }
        if !was {
            m.add_many(r, &higher, 1, false);
        }
    }
    // Perform the exchanges.
    let all: Vec<usize> = s1.iter().chain(&s2).copied().collect();
    s1 = all.iter().copied().filter(|&r| m.in_s1(r)).collect();
    s2 = all.iter().copied().filter(|&r| m.in_s2(r)).collect();
    for i in 0..s1.len() {
        let rest = s1[i + 1..].to_vec();
        m.remove_many(s1[i], &rest);
    }
    for i in 0..s2.len() {
        let rest = s2[i + 1..].to_vec();
        m.remove_many(s2[i], &rest);
    }
    // D.1: each player of S1 meets the highest player of S2 it can.
    let s2_rev: Vec<usize> = s2.iter().rev().copied().collect();
    for &r in &s1 {
        m.add_many(r, &s2_rev, 0, true);
        m.update();
        let partner = m.matching[r];
        m.finalize(r, partner);
        validity.finalize(m.list[r], m.list[partner]);
    }

    if !(info.ppb_or_lpb() || validity.complete()) {
        return None;
    }
    let mut out = Vec::new();
    for i in 0..m.len() {
        let j = m.matching[i];
        if m.roles[i] == Role::Lower || m.roles[j] == Role::Lower {
            continue;
        }
        if m.above(i, j) {
            out.push(colours_for(
                ctx.players,
                m.list[i],
                m.list[j],
                ctx.first_colour,
            ));
        }
        if i == j && info.lpb {
            out.push((m.list[i], m.list[i]));
        }
    }
    Some(out)
}
