//! The network's trainer (issue 27): fits the evaluation network of `makruk_engine::nnue` to
//! positions labelled by a search and by their games' results, and writes the network file.
//!
//! ```text
//! cargo run --release -p makruk-engine --example nnue_train -- --data d1.txt [--data d2.txt] \
//!     [--scaled-data f1.txt 1.334] [--lambda 0.9] [--k 0.38] [--epochs 30] [--batch 16384] \
//!     [--lr 0.001] [--threads 2] [--val 0.02] [--seed 1] [--init FILE] \
//!     [--out engine/nets/makruk.nnue]
//! ```
//!
//! The data are `texel_data`'s `FEN;result;score` lines (from White's side: the result 1,
//! 0.5 or 0, the search's score in centipawns); `--scaled-data FILE X` multiplies a file's
//! scores by X (Fairy-Stockfish's centipawns put on our scale, engine/README.md). Positions
//! the network does not evaluate (`nnue::applies`: a bare Khun) are left out. A file whose
//! name ends in `.gz` is read through gzip (the committed data of `engine/data/`).
//!
//! The target of a position is `λ·σ(score) + (1 − λ)·result` from the side to move's point of
//! view, with `σ(x) = 1 / (1 + 10^(−K·x/400))`; the model is `σ(factor · (net + mop-up))`,
//! where `net` is the float network's output times `nnue::SCALE` and the mop-up bonus and the
//! scaling factor are the hand-written evaluation's for that position (`evaluate::trace`;
//! the engine puts the same endgame knowledge around the network). The loss is the mean
//! squared error; Adam over mini-batches, the learning rate falling from `--lr` to a
//! twentieth of it along a cosine; the feature transformer's weights are held within ±1.98
//! so that the quantized accumulators fit `i16`. The last `--val` of each file (its last
//! games) is held out and its error printed each epoch. The float network is quantized
//! (`nnue::Network::quantize`) and written to `--out`. `--init FILE` starts from that
//! network file's weights (`nnue::Network::dequantize`) instead of random ones: training a
//! network further on new data.

mod common;

use makruk::{Color, Position, Ruleset};
use makruk_engine::evaluate::trace;
use makruk_engine::nnue::{self, Network, BUCKETS, HIDDEN, INPUTS, SCALE};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// The positions, their features flattened.
#[derive(Default)]
struct Set {
    /// Where each position's features start in `feats`, and (last) where they end.
    start: Vec<u32>,
    /// The side to move's features (the other side's are their `nnue::mirror`).
    feats: Vec<u16>,
    bucket: Vec<u8>,
    target: Vec<f32>,
    factor: Vec<f32>,
    /// The mop-up bonus from the side to move's point of view, centipawns.
    mop_up: Vec<f32>,
    /// The hand-written evaluation from the side to move's point of view (the baseline).
    hce: Vec<f32>,
}

impl Set {
    fn len(&self) -> usize {
        self.target.len()
    }

    fn push(&mut self, pos: &Position, target: f32) {
        if self.start.is_empty() {
            self.start.push(0);
        }
        let stm = pos.turn();
        let board = pos.board();
        for sq in board.occupied() {
            if let Some(p) = board.piece_at(sq) {
                let (f, _) = nnue::features(stm, p.color, p.role, sq.index());
                self.feats.push(f as u16);
            }
        }
        self.start.push(self.feats.len() as u32);
        self.bucket.push(nnue::bucket(pos) as u8);
        let t = trace(pos);
        let white = if stm == Color::White { 1.0 } else { -1.0 };
        self.target.push(target);
        self.factor.push(t.factor as f32);
        self.mop_up.push(white * t.mop_up as f32);
        self.hce.push(white * t.eval as f32);
    }

    fn features(&self, i: usize) -> &[u16] {
        &self.feats[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

/// The float network.
#[derive(Clone)]
struct Net {
    ft_w: Vec<f32>,
    ft_b: Vec<f32>,
    out_w: Vec<f32>,
    out_b: Vec<f32>,
}

impl Net {
    fn zeros() -> Net {
        Net {
            ft_w: vec![0.0; INPUTS * HIDDEN],
            ft_b: vec![0.0; HIDDEN],
            out_w: vec![0.0; BUCKETS * 2 * HIDDEN],
            out_b: vec![0.0; BUCKETS],
        }
    }

    fn random(rng: &mut StdRng) -> Net {
        let mut n = Net::zeros();
        let a = 1.0 / (INPUTS as f32).sqrt();
        for w in &mut n.ft_w {
            *w = rng.random_range(-a..a);
        }
        let b = 1.0 / ((2 * HIDDEN) as f32).sqrt();
        for w in &mut n.out_w {
            *w = rng.random_range(-b..b);
        }
        n
    }

    /// The float weights of an integer network (`Network::dequantize`).
    fn from_network(q: &Network) -> Net {
        let (ft_w, ft_b, out_w, out_b) = q.dequantize();
        Net {
            ft_w,
            ft_b,
            out_w,
            out_b,
        }
    }

    fn params_mut(&mut self) -> [&mut Vec<f32>; 4] {
        [
            &mut self.ft_w,
            &mut self.ft_b,
            &mut self.out_w,
            &mut self.out_b,
        ]
    }

    fn params(&self) -> [&Vec<f32>; 4] {
        [&self.ft_w, &self.ft_b, &self.out_w, &self.out_b]
    }

    /// The accumulators of position `i` (side to move's, other side's) and its output.
    fn forward(&self, set: &Set, i: usize, acc: &mut [[f32; HIDDEN]; 2]) -> f32 {
        acc[0].copy_from_slice(&self.ft_b);
        acc[1].copy_from_slice(&self.ft_b);
        for &f in set.features(i) {
            let f = usize::from(f);
            let o = nnue::mirror(f);
            for (a, w) in acc[0]
                .iter_mut()
                .zip(&self.ft_w[f * HIDDEN..(f + 1) * HIDDEN])
            {
                *a += w;
            }
            for (a, w) in acc[1]
                .iter_mut()
                .zip(&self.ft_w[o * HIDDEN..(o + 1) * HIDDEN])
            {
                *a += w;
            }
        }
        let b = usize::from(set.bucket[i]);
        let w = &self.out_w[b * 2 * HIDDEN..(b + 1) * 2 * HIDDEN];
        let mut out = self.out_b[b];
        for (h, acc) in acc.iter().enumerate() {
            for (a, w) in acc.iter().zip(&w[h * HIDDEN..(h + 1) * HIDDEN]) {
                out += a.clamp(0.0, 1.0) * w;
            }
        }
        out
    }
}

/// σ's slope constant: `σ(x) = 1 / (1 + e^(−c·x))` with `c = K·ln 10 / 400`.
fn sigmoid(x: f32, c: f32) -> f32 {
    1.0 / (1.0 + (-c * x).exp())
}

/// The model's prediction for position `i` from the network's output.
#[inline]
fn predict(set: &Set, i: usize, out: f32, c: f32) -> f32 {
    sigmoid(set.factor[i] * (out * SCALE as f32 + set.mop_up[i]), c)
}

/// Adds the loss gradient of positions `idx` to `g`; returns their summed squared error.
fn gradient(net: &Net, set: &Set, idx: &[u32], c: f32, g: &mut Net) -> f64 {
    let mut acc = [[0.0f32; HIDDEN]; 2];
    let mut loss = 0.0f64;
    for &i in idx {
        let i = i as usize;
        let out = net.forward(set, i, &mut acc);
        let p = predict(set, i, out, c);
        let err = p - set.target[i];
        loss += f64::from(err * err);
        // d loss / d out.
        let d = 2.0 * err * p * (1.0 - p) * c * set.factor[i] * SCALE as f32;
        let b = usize::from(set.bucket[i]);
        g.out_b[b] += d;
        let w = &net.out_w[b * 2 * HIDDEN..(b + 1) * 2 * HIDDEN];
        let gw = &mut g.out_w[b * 2 * HIDDEN..(b + 1) * 2 * HIDDEN];
        let mut dh = [[0.0f32; HIDDEN]; 2];
        for h in 0..2 {
            for j in 0..HIDDEN {
                let a = acc[h][j];
                gw[h * HIDDEN + j] += d * a.clamp(0.0, 1.0);
                if a > 0.0 && a < 1.0 {
                    dh[h][j] = d * w[h * HIDDEN + j];
                }
            }
        }
        for ((gb, d0), d1) in g.ft_b.iter_mut().zip(&dh[0]).zip(&dh[1]) {
            *gb += d0 + d1;
        }
        for &f in set.features(i) {
            let f = usize::from(f);
            let o = nnue::mirror(f);
            for (gw, d) in g.ft_w[f * HIDDEN..(f + 1) * HIDDEN].iter_mut().zip(&dh[0]) {
                *gw += d;
            }
            for (gw, d) in g.ft_w[o * HIDDEN..(o + 1) * HIDDEN].iter_mut().zip(&dh[1]) {
                *gw += d;
            }
        }
    }
    loss
}

/// The mean squared error over `set`'s positions `idx`.
fn error(net: &Net, set: &Set, idx: &[u32], c: f32) -> f64 {
    let mut acc = [[0.0f32; HIDDEN]; 2];
    let mut loss = 0.0f64;
    for &i in idx {
        let i = i as usize;
        let out = net.forward(set, i, &mut acc);
        let err = predict(set, i, out, c) - set.target[i];
        loss += f64::from(err * err);
    }
    loss / idx.len().max(1) as f64
}

struct Adam {
    m: Net,
    v: Net,
    t: i32,
}

impl Adam {
    fn step(&mut self, net: &mut Net, g: &Net, lr: f32, scale: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        let gs = g.params();
        let ms = self.m.params_mut();
        let vs = self.v.params_mut();
        for (k, ((p, g), (m, v))) in net
            .params_mut()
            .into_iter()
            .zip(gs)
            .zip(ms.into_iter().zip(vs))
            .enumerate()
        {
            for j in 0..p.len() {
                let gj = g[j] * scale;
                m[j] = B1 * m[j] + (1.0 - B1) * gj;
                v[j] = B2 * v[j] + (1.0 - B2) * gj * gj;
                p[j] -= lr * (m[j] / c1) / ((v[j] / c2).sqrt() + 1e-8);
                if k == 0 {
                    p[j] = p[j].clamp(-1.98, 1.98);
                }
            }
        }
    }
}

fn main() {
    let mut files: Vec<(String, f32)> = Vec::new();
    let (mut lambda, mut k, mut epochs, mut batch, mut lr) = (0.9f32, 0.38f32, 30, 16384, 0.001f32);
    let (mut threads, mut val, mut seed) = (2usize, 0.02f64, 1u64);
    let mut out = None;
    let mut init = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val_of = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--data" => files.push((val_of(), 1.0)),
            "--scaled-data" => {
                let f = val_of();
                let x = val_of().parse().expect("--scaled-data FILE X");
                files.push((f, x));
            }
            "--lambda" => lambda = val_of().parse().expect("--lambda L"),
            "--k" => k = val_of().parse().expect("--k K"),
            "--epochs" => epochs = val_of().parse().expect("--epochs N"),
            "--batch" => batch = val_of().parse().expect("--batch N"),
            "--lr" => lr = val_of().parse().expect("--lr R"),
            "--threads" => threads = val_of().parse().expect("--threads N"),
            "--val" => val = val_of().parse().expect("--val FRACTION"),
            "--seed" => seed = val_of().parse().expect("--seed N"),
            "--out" => out = Some(val_of()),
            "--init" => init = Some(val_of()),
            _ => panic!("unknown argument {a} (see the doc comment of nnue_train.rs)"),
        }
    }
    assert!(!files.is_empty(), "--data FILE is needed");
    let c = k * std::f32::consts::LN_10 / 400.0;
    let mut set = Set::default();
    let (mut train, mut valid): (Vec<u32>, Vec<u32>) = (Vec::new(), Vec::new());
    for (path, scale) in &files {
        let first = set.len();
        let mut skipped = 0usize;
        for line in common::data_lines(path) {
            let mut fields = line.split(';');
            let (Some(fen), Some(result), Some(score)) =
                (fields.next(), fields.next(), fields.next())
            else {
                skipped += 1;
                continue;
            };
            let (Ok(pos), Ok(result), Ok(score)) = (
                Position::from_fen(fen, Ruleset::Standard),
                result.parse::<f32>(),
                score.parse::<f32>(),
            ) else {
                skipped += 1;
                continue;
            };
            if !nnue::applies(&pos) {
                skipped += 1;
                continue;
            }
            let (result, score) = if pos.turn() == Color::White {
                (result, score * scale)
            } else {
                (1.0 - result, -score * scale)
            };
            set.push(&pos, lambda * sigmoid(score, c) + (1.0 - lambda) * result);
        }
        let n = set.len() - first;
        let cut = first + n - (n as f64 * val) as usize;
        train.extend(first as u32..cut as u32);
        valid.extend(cut as u32..set.len() as u32);
        eprintln!("{path}: {n} positions (x{scale}), {skipped} left out");
    }
    eprintln!(
        "{} positions: {} to train on, {} held out; {} features",
        set.len(),
        train.len(),
        valid.len(),
        set.feats.len()
    );
    let hce = valid
        .iter()
        .map(|&i| {
            let e = sigmoid(set.hce[i as usize], c) - set.target[i as usize];
            f64::from(e * e)
        })
        .sum::<f64>()
        / valid.len().max(1) as f64;
    eprintln!("the hand-written evaluation's error on the held-out positions: {hce:.6}");
    let mut rng = StdRng::seed_from_u64(seed);
    let mut net = match &init {
        None => Net::random(&mut rng),
        Some(path) => {
            let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let q = Network::from_bytes(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
            let net = Net::from_network(&q);
            if !valid.is_empty() {
                eprintln!(
                    "{path}: held-out error {:.6} before training",
                    error(&net, &set, &valid, c)
                );
            }
            net
        }
    };
    let mut adam = Adam {
        m: Net::zeros(),
        v: Net::zeros(),
        t: 0,
    };
    let mut grads: Vec<Net> = (0..threads).map(|_| Net::zeros()).collect();
    let start = std::time::Instant::now();
    let steps = epochs * train.len().div_ceil(batch);
    let mut step = 0usize;
    for epoch in 1..=epochs {
        train.shuffle(&mut rng);
        let mut loss = 0.0f64;
        for chunk in train.chunks(batch) {
            for g in &mut grads {
                for p in g.params_mut() {
                    p.fill(0.0);
                }
            }
            let per = chunk.len().div_ceil(threads);
            let net_ref = &net;
            let set_ref = &set;
            loss += std::thread::scope(|s| {
                let handles: Vec<_> = grads
                    .iter_mut()
                    .zip(chunk.chunks(per))
                    .map(|(g, part)| s.spawn(move || gradient(net_ref, set_ref, part, c, g)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a trainer thread"))
                    .sum::<f64>()
            });
            let (first, rest) = grads.split_at_mut(1);
            for g in rest.iter() {
                for (a, b) in first[0].params_mut().into_iter().zip(g.params()) {
                    for (x, y) in a.iter_mut().zip(b) {
                        *x += y;
                    }
                }
            }
            let progress = step as f32 / steps.max(1) as f32;
            let rate = lr * (0.05 + 0.95 * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
            adam.step(&mut net, &first[0], rate, 1.0 / chunk.len() as f32);
            step += 1;
        }
        let v = if valid.is_empty() {
            String::new()
        } else {
            format!(", held out {:.6}", error(&net, &set, &valid, c))
        };
        eprintln!(
            "epoch {epoch}: train {:.6}{v} ({:.0} s)",
            loss / train.len() as f64,
            start.elapsed().as_secs_f64()
        );
    }
    let q = Network::quantize(&net.ft_w, &net.ft_b, &net.out_w, &net.out_b);
    // The quantized network against the float one on held-out positions (centipawns).
    let mut acc = [[0.0f32; HIDDEN]; 2];
    let mut diff = 0.0f64;
    let sample: Vec<u32> = valid.iter().take(2000).copied().collect();
    for &i in &sample {
        let i = i as usize;
        let f = net.forward(&set, i, &mut acc) * SCALE as f32;
        let qv = q.evaluate_features(
            set.features(i).iter().map(|&f| usize::from(f)),
            usize::from(set.bucket[i]),
        );
        diff += f64::from((f - qv as f32).abs());
    }
    eprintln!(
        "quantization: mean |float - integer| {:.2} cp over {} held-out positions",
        diff / sample.len().max(1) as f64,
        sample.len()
    );
    if !valid.is_empty() {
        // The file's network is the quantized one: its error, through its float weights
        // (before the engine's truncation of the output to whole centipawns).
        let back = Net::from_network(&q);
        eprintln!(
            "the quantized network's held-out error: {:.6}",
            error(&back, &set, &valid, c)
        );
    }
    let start = Position::start(Ruleset::Standard);
    eprintln!("start position: {} cp", q.evaluate(&start));
    if let Some(path) = out {
        std::fs::write(&path, q.to_bytes()).unwrap_or_else(|e| panic!("{path}: {e}"));
        eprintln!("wrote {path}");
    }
}
