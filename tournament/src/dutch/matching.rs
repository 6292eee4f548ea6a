//! Maximum-weight matching in a general (non-bipartite) graph.
//!
//! This is the primal–dual blossom algorithm of Edmonds in its O(n³) form (Gabow / Galil),
//! written after the design of J. van Rantwijk's `mwmatching`: vertex and blossom dual
//! variables are kept at twice their value so that integral weights give integral arithmetic,
//! blossoms are numbered `n..2n`, and each stage grows alternating trees from every exposed
//! vertex until an augmenting path is found or a dual update shows none exists.
//!
//! The matching maximises the total weight only (not the number of edges): an edge whose
//! weight is zero or less is never worth taking and is ignored. Weights are any
//! [`Weight`]: `i64` for small graphs, [`super::wide::Wide`] for the pairing weights.

use std::fmt::Debug;

/// A number the matching can compute with: a signed integer type with exact addition,
/// subtraction and halving, totally ordered.
///
/// The matching never produces values much larger than twice the largest edge weight, so a
/// type able to hold `4 × max weight` is enough.
pub trait Weight: Copy + Ord + Debug {
    /// Zero.
    fn zero() -> Self;
    /// `self + other` (must not overflow for the values the matching uses).
    #[must_use]
    fn plus(self, other: Self) -> Self;
    /// `self - other`.
    #[must_use]
    fn minus(self, other: Self) -> Self;
    /// `self / 2`, for an even `self`.
    #[must_use]
    fn half(self) -> Self;
}

impl Weight for i64 {
    fn zero() -> Self {
        0
    }
    fn plus(self, other: Self) -> Self {
        self + other
    }
    fn minus(self, other: Self) -> Self {
        self - other
    }
    fn half(self) -> Self {
        self / 2
    }
}

impl Weight for i128 {
    fn zero() -> Self {
        0
    }
    fn plus(self, other: Self) -> Self {
        self + other
    }
    fn minus(self, other: Self) -> Self {
        self - other
    }
    fn half(self) -> Self {
        self / 2
    }
}

const NONE: usize = usize::MAX;

/// Label of a top-level blossom in the alternating forest.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Label {
    Free,
    S,
    T,
    /// An S-blossom marked while looking for a common base (`scan_blossom`).
    Crumb,
}

/// A maximum-weight matching of the graph with `n` vertices and the given undirected edges
/// `(u, v, weight)` (`u != v`, both `< n`; at most one edge per pair).
///
/// Returns `mate` with `mate[v] = Some(u)` when `v` is matched to `u`, `None` when `v` is left
/// exposed. Among matchings of the same maximum weight, which one is returned is a property of
/// the algorithm (deterministic for a given input).
///
/// # Panics
/// Panics if an edge names a vertex `>= n` or joins a vertex to itself.
#[must_use]
pub fn max_weight_matching<W: Weight>(n: usize, edges: &[(usize, usize, W)]) -> Vec<Option<usize>> {
    let edges: Vec<(usize, usize, W)> = edges.iter().copied().filter(|e| e.2 > W::zero()).collect();
    for &(u, v, _) in &edges {
        assert!(
            u < n && v < n && u != v,
            "bad edge ({u}, {v}) in a graph of {n} vertices"
        );
    }
    if edges.is_empty() {
        return vec![None; n];
    }
    let mut m = Matcher::new(n, edges);
    m.solve();
    (0..n)
        .map(|v| {
            let p = m.mate[v];
            (p != NONE).then(|| m.endpoint[p])
        })
        .collect()
}

struct Matcher<W: Weight> {
    n: usize,
    edges: Vec<(usize, usize, W)>,
    /// `endpoint[2k]`, `endpoint[2k+1]`: the two ends of edge `k`.
    endpoint: Vec<usize>,
    /// For each vertex, the endpoints `p` at the far side of its edges.
    neighbend: Vec<Vec<usize>>,
    /// For each vertex, the endpoint of its mate (`NONE` if exposed).
    mate: Vec<usize>,
    label: Vec<Label>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<W>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
}

impl<W: Weight> Matcher<W> {
    fn new(n: usize, edges: Vec<(usize, usize, W)>) -> Self {
        let nedge = edges.len();
        let maxweight = edges.iter().map(|e| e.2).max().unwrap_or_else(W::zero);
        let mut endpoint = Vec::with_capacity(2 * nedge);
        let mut neighbend = vec![Vec::new(); n];
        for (k, &(i, j, _)) in edges.iter().enumerate() {
            endpoint.push(i);
            endpoint.push(j);
            neighbend[i].push(2 * k + 1);
            neighbend[j].push(2 * k);
        }
        let mut blossombase: Vec<usize> = (0..n).collect();
        blossombase.extend(std::iter::repeat_n(NONE, n));
        let mut dualvar = vec![maxweight; n];
        dualvar.extend(std::iter::repeat_n(W::zero(), n));
        Self {
            n,
            edges,
            endpoint,
            neighbend,
            mate: vec![NONE; n],
            label: vec![Label::Free; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NONE; 2 * n],
            blossomchilds: vec![Vec::new(); 2 * n],
            blossombase,
            blossomendps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            blossombestedges: vec![None; 2 * n],
            unusedblossoms: (n..2 * n).collect(),
            dualvar,
            allowedge: vec![false; nedge],
            queue: Vec::new(),
        }
    }

    /// Twice the slack of edge `k` (the dual variables being stored doubled).
    fn slack(&self, k: usize) -> W {
        let (i, j, w) = self.edges[k];
        self.dualvar[i].plus(self.dualvar[j]).minus(w.plus(w))
    }

    /// The vertices of blossom `b` (itself if a vertex).
    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &t in &self.blossomchilds[b] {
                self.leaves(t, out);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.leaves(b, &mut out);
        out
    }

    /// Label the top-level blossom containing `w` with `t`, reached through endpoint `p`.
    fn assign_label(&mut self, w: usize, t: Label, p: usize) {
        let b = self.inblossom[w];
        debug_assert!(self.label[w] == Label::Free && self.label[b] == Label::Free);
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NONE;
        self.bestedge[b] = NONE;
        if t == Label::S {
            let leaves = self.leaves_of(b);
            self.queue.extend(leaves);
        } else {
            let base = self.blossombase[b];
            debug_assert!(self.mate[base] != NONE);
            let mp = self.mate[base];
            let mv = self.endpoint[mp];
            self.assign_label(mv, Label::S, mp ^ 1);
        }
    }

    /// Trace back from `v` and `w` to find a new blossom's base, or `NONE` for an augmenting
    /// path.
    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] == Label::Crumb {
                base = self.blossombase[b];
                break;
            }
            debug_assert!(self.label[b] == Label::S);
            path.push(b);
            self.label[b] = Label::Crumb;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
                debug_assert!(self.label[b] == Label::T);
                v = self.endpoint[self.labelend[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = Label::S;
        }
        base
    }

    /// Make a new blossom from edge `k` whose ends lie in S-blossoms, with base `base`.
    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self.unusedblossoms.pop().expect("a free blossom number");
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        self.label[b] = Label::S;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = W::zero();
        self.blossomchilds[b] = path.clone();
        self.blossomendps[b] = endps;
        for v in self.leaves_of(b) {
            if self.label[self.inblossom[v]] == Label::T {
                self.queue.push(v);
            }
            self.inblossom[v] = b;
        }
        // Best edges from the new blossom to each other S-blossom.
        let mut bestedgeto = vec![NONE; 2 * self.n];
        for &bv in &path {
            let nblists: Vec<Vec<usize>> = match &self.blossombestedges[bv] {
                Some(list) => vec![list.clone()],
                None => self
                    .leaves_of(bv)
                    .into_iter()
                    .map(|v| self.neighbend[v].iter().map(|&p| p / 2).collect())
                    .collect(),
            };
            for nblist in nblists {
                for k in nblist {
                    let (mut i, mut j, _) = self.edges[k];
                    if self.inblossom[j] == b {
                        std::mem::swap(&mut i, &mut j);
                    }
                    let bj = self.inblossom[j];
                    if bj != b
                        && self.label[bj] == Label::S
                        && (bestedgeto[bj] == NONE || self.slack(k) < self.slack(bestedgeto[bj]))
                    {
                        bestedgeto[bj] = k;
                    }
                }
            }
            self.blossombestedges[bv] = None;
            self.bestedge[bv] = NONE;
        }
        let list: Vec<usize> = bestedgeto.into_iter().filter(|&k| k != NONE).collect();
        let mut best = NONE;
        for &k in &list {
            if best == NONE || self.slack(k) < self.slack(best) {
                best = k;
            }
        }
        self.blossombestedges[b] = Some(list);
        self.bestedge[b] = best;
    }

    /// Undo blossom `b`; at the end of a stage (`endstage`) its sub-blossoms become top-level
    /// and unlabelled, otherwise a T-blossom is relabelled along its path.
    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s] == W::zero() {
                self.expand_blossom(s, endstage);
            } else {
                for v in self.leaves_of(s) {
                    self.inblossom[v] = s;
                }
            }
        }
        if !endstage && self.label[b] == Label::T {
            let len = childs.len() as isize;
            let idx = |i: isize| -> usize { i.rem_euclid(len) as usize };
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let mut j = childs
                .iter()
                .position(|&c| c == entrychild)
                .expect("entry child") as isize;
            let (jstep, endptrick): (isize, usize) = if j & 1 == 1 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let endps = self.blossomendps[b].clone();
            let mut p = self.labelend[b];
            while j != 0 {
                // Relabel the T-sub-blossom.
                let q = if jstep == 1 {
                    endps[idx(j)] ^ endptrick
                } else {
                    endps[idx(j - 1)] ^ endptrick
                };
                // label[endpoint[p ^ 1]] = 0 in the reference, for the vertex.
                self.label[self.endpoint[p ^ 1]] = Label::Free;
                self.label[self.endpoint[q ^ 1]] = Label::Free;
                self.assign_label(self.endpoint[p ^ 1], Label::T, p);
                self.allowedge[q / 2] = true;
                j += jstep;
                p = if jstep == 1 {
                    endps[idx(j)] ^ endptrick
                } else {
                    endps[idx(j - 1)] ^ endptrick
                };
                self.allowedge[p / 2] = true;
                j += jstep;
            }
            let bv = childs[idx(j)];
            self.label[self.endpoint[p ^ 1]] = Label::T;
            self.label[bv] = Label::T;
            self.labelend[self.endpoint[p ^ 1]] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while childs[idx(j)] != entrychild {
                let bv = childs[idx(j)];
                if self.label[bv] == Label::S {
                    j += jstep;
                    continue;
                }
                let leaves = self.leaves_of(bv);
                let found = leaves.into_iter().find(|&v| self.label[v] != Label::Free);
                if let Some(v) = found {
                    debug_assert!(self.label[v] == Label::T);
                    debug_assert!(self.inblossom[v] == bv);
                    self.label[v] = Label::Free;
                    let mb = self.blossombase[bv];
                    self.label[self.endpoint[self.mate[mb]]] = Label::Free;
                    let le = self.labelend[v];
                    self.assign_label(v, Label::T, le);
                }
                j += jstep;
            }
        }
        self.label[b] = Label::Free;
        self.labelend[b] = NONE;
        self.blossomchilds[b] = Vec::new();
        self.blossomendps[b] = Vec::new();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    /// Swap matched and unmatched edges along the path inside blossom `b` from vertex `v` to
    /// the base, making `v` the base.
    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let childs = self.blossomchilds[b].clone();
        let endps = self.blossomendps[b].clone();
        let len = childs.len() as isize;
        let idx = |i: isize| -> usize { i.rem_euclid(len) as usize };
        let i = childs.iter().position(|&c| c == t).expect("child") as isize;
        let mut j = i;
        let (jstep, endptrick): (isize, usize) = if i & 1 == 1 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = childs[idx(j)];
            let p = if jstep == 1 {
                endps[idx(j)] ^ endptrick
            } else {
                endps[idx(j - 1)] ^ endptrick
            };
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += jstep;
            let t = childs[idx(j)];
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        // Rotate so that the new base comes first.
        let iu = i as usize;
        let mut nc = childs[iu..].to_vec();
        nc.extend_from_slice(&childs[..iu]);
        let mut ne = endps[iu..].to_vec();
        ne.extend_from_slice(&endps[..iu]);
        self.blossomchilds[b] = nc;
        self.blossomendps[b] = ne;
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
        debug_assert!(self.blossombase[b] == v);
    }

    /// Augment the matching along the path through edge `k` between two S-vertices.
    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.inblossom[s];
                debug_assert!(self.label[bs] == Label::S);
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.labelend[bs]];
                let bt = self.inblossom[t];
                debug_assert!(self.label[bt] == Label::T);
                s = self.endpoint[self.labelend[bt]];
                let j = self.endpoint[self.labelend[bt] ^ 1];
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }

    fn solve(&mut self) {
        let n = self.n;
        for _stage in 0..n {
            self.label.iter_mut().for_each(|l| *l = Label::Free);
            self.bestedge.iter_mut().for_each(|e| *e = NONE);
            for b in n..2 * n {
                self.blossombestedges[b] = None;
            }
            self.allowedge.iter_mut().for_each(|a| *a = false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.inblossom[v]] == Label::Free {
                    self.assign_label(v, Label::S, NONE);
                }
            }
            let mut augmented = false;
            loop {
                while let Some(v) = self.queue.pop() {
                    if augmented {
                        break;
                    }
                    debug_assert!(self.label[self.inblossom[v]] == Label::S);
                    let neigh = self.neighbend[v].clone();
                    for p in neigh {
                        let k = p / 2;
                        let w = self.endpoint[p];
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let mut kslack = W::zero();
                        if !self.allowedge[k] {
                            kslack = self.slack(k);
                            if kslack <= W::zero() {
                                self.allowedge[k] = true;
                            }
                        }
                        if self.allowedge[k] {
                            let bw = self.inblossom[w];
                            if self.label[bw] == Label::Free {
                                self.assign_label(w, Label::T, p ^ 1);
                            } else if self.label[bw] == Label::S {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == Label::Free {
                                debug_assert!(self.label[bw] == Label::T);
                                self.label[w] = Label::T;
                                self.labelend[w] = p ^ 1;
                            }
                        } else if self.label[self.inblossom[w]] == Label::S {
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE || kslack < self.slack(self.bestedge[b]) {
                                self.bestedge[b] = k;
                            }
                        } else if self.label[w] == Label::Free
                            && (self.bestedge[w] == NONE || kslack < self.slack(self.bestedge[w]))
                        {
                            self.bestedge[w] = k;
                        }
                    }
                    if augmented {
                        break;
                    }
                }
                if augmented {
                    break;
                }
                // No augmenting path with the allowed edges: update the duals.
                // Type 1: the minimum vertex dual (the matching need not be of maximum size).
                let mut deltatype = 1;
                let mut delta = self.dualvar[..n].iter().copied().min().expect("vertices");
                let mut deltaedge = NONE;
                let mut deltablossom = NONE;
                // Type 2: an S-vertex to a free vertex.
                for v in 0..n {
                    if self.label[self.inblossom[v]] == Label::Free && self.bestedge[v] != NONE {
                        let d = self.slack(self.bestedge[v]);
                        if d < delta {
                            delta = d;
                            deltatype = 2;
                            deltaedge = self.bestedge[v];
                        }
                    }
                }
                // Type 3: between two S-blossoms.
                for b in 0..2 * n {
                    if self.blossomparent[b] == NONE
                        && self.label[b] == Label::S
                        && self.bestedge[b] != NONE
                    {
                        let d = self.slack(self.bestedge[b]).half();
                        if d < delta {
                            delta = d;
                            deltatype = 3;
                            deltaedge = self.bestedge[b];
                        }
                    }
                }
                // Type 4: a T-blossom whose dual reaches zero.
                for b in n..2 * n {
                    if self.blossombase[b] != NONE
                        && self.blossomparent[b] == NONE
                        && self.label[b] == Label::T
                        && self.dualvar[b] < delta
                    {
                        delta = self.dualvar[b];
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                for v in 0..n {
                    match self.label[self.inblossom[v]] {
                        Label::S => self.dualvar[v] = self.dualvar[v].minus(delta),
                        Label::T => self.dualvar[v] = self.dualvar[v].plus(delta),
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                        match self.label[b] {
                            Label::S => self.dualvar[b] = self.dualvar[b].plus(delta),
                            Label::T => self.dualvar[b] = self.dualvar[b].minus(delta),
                            _ => {}
                        }
                    }
                }
                match deltatype {
                    1 => break,
                    2 => {
                        self.allowedge[deltaedge] = true;
                        let (mut i, j, _) = self.edges[deltaedge];
                        if self.label[self.inblossom[i]] == Label::Free {
                            i = j;
                        }
                        debug_assert!(self.label[self.inblossom[i]] == Label::S);
                        self.queue.push(i);
                    }
                    3 => {
                        self.allowedge[deltaedge] = true;
                        let (i, _, _) = self.edges[deltaedge];
                        debug_assert!(self.label[self.inblossom[i]] == Label::S);
                        self.queue.push(i);
                    }
                    _ => self.expand_blossom(deltablossom, false),
                }
            }
            if !augmented {
                break;
            }
            // End of stage: expand S-blossoms whose dual is zero.
            for b in n..2 * n {
                if self.blossomparent[b] == NONE
                    && self.blossombase[b] != NONE
                    && self.label[b] == Label::S
                    && self.dualvar[b] == W::zero()
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The best total weight by trying every matching.
    fn brute(n: usize, w: &[Vec<i64>], used: &mut Vec<bool>) -> i64 {
        let Some(v) = (0..n).find(|&v| !used[v]) else {
            return 0;
        };
        used[v] = true;
        let mut best = brute(n, w, used);
        for u in v + 1..n {
            if !used[u] && w[v][u] > 0 {
                used[u] = true;
                best = best.max(w[v][u] + brute(n, w, used));
                used[u] = false;
            }
        }
        used[v] = false;
        best
    }

    fn total(mate: &[Option<usize>], w: &[Vec<i64>]) -> i64 {
        let mut t = 0;
        for (v, m) in mate.iter().enumerate() {
            if let Some(u) = *m {
                assert_eq!(mate[u], Some(v), "mate is symmetric");
                assert!(w[v][u] > 0, "only real edges are used");
                if v < u {
                    t += w[v][u];
                }
            }
        }
        t
    }

    /// A small xorshift generator, so the test needs no crate.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    #[test]
    fn empty_and_single_edge() {
        assert_eq!(max_weight_matching::<i64>(3, &[]), vec![None, None, None]);
        assert_eq!(
            max_weight_matching(2, &[(0, 1, 5i64)]),
            vec![Some(1), Some(0)]
        );
        assert_eq!(max_weight_matching(2, &[(0, 1, 0i64)]), vec![None, None]);
    }

    #[test]
    fn prefers_weight_to_size() {
        // Path 0-1-2-3: the middle edge outweighs the two outer ones together.
        let m = max_weight_matching(4, &[(0, 1, 2i64), (1, 2, 5), (2, 3, 2)]);
        assert_eq!(m, vec![None, Some(2), Some(1), None]);
    }

    #[test]
    fn blossom_is_needed() {
        // A triangle with a pendant edge on each side (the classic S-blossom case).
        let m = max_weight_matching(
            6,
            &[
                (0, 1, 9i64),
                (0, 2, 9),
                (1, 2, 10),
                (1, 3, 8),
                (2, 4, 8),
                (3, 5, 1),
                (4, 5, 1),
            ],
        );
        let w = {
            let mut w = vec![vec![0i64; 6]; 6];
            for &(a, b, x) in &[
                (0, 1, 9),
                (0, 2, 9),
                (1, 2, 10),
                (1, 3, 8),
                (2, 4, 8),
                (3, 5, 1),
                (4, 5, 1),
            ] {
                w[a][b] = x;
                w[b][a] = x;
            }
            w
        };
        assert_eq!(total(&m, &w), brute(6, &w, &mut vec![false; 6]));
    }

    #[test]
    fn random_graphs_against_brute_force() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for case in 0..3000 {
            let n = 1 + (rng.next() % 10) as usize;
            let density = rng.next() % 100;
            let maxw = [3, 10, 1000][case % 3];
            let mut w = vec![vec![0i64; n]; n];
            let mut edges = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if rng.next() % 100 < density {
                        edges.push((a, b, 1 + (rng.next() % maxw) as i64));
                    }
                }
            }
            for &(a, b, x) in &edges {
                w[a][b] = x;
                w[b][a] = x;
            }
            let m = max_weight_matching(n, &edges);
            let best = brute(n, &w, &mut vec![false; n]);
            assert_eq!(total(&m, &w), best, "case {case}: n={n} edges={edges:?}");
        }
    }
}
