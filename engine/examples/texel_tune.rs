//! The Texel tuner (issue 27): fits every weight of the evaluation (`evaluate::WEIGHTS`,
//! middlegame and endgame) to the results of games, and writes the weights file.
//!
//! ```text
//! cargo run --release -p makruk-engine --example texel_tune -- --data d1.txt [--data d2.txt] \
//!     [--scaled-data f5.txt 1.334] [--validate d3.txt] [--epochs 3000] [--rate 1.0] \
//!     [--lambda 0] [--k-score 1] [--out engine/src/weights.rs]
//! ```
//!
//! `--scaled-data FILE X` is a data file whose scores are another engine's (texel_data
//! `--fsf`): they are multiplied by X to put them on our scale (X: the ratio of the K that
//! fits each file's scores to its results). A file given twice counts twice.
//!
//! The data are `FEN;result[;score]` lines (`texel_data` writes them; from White's side: the
//! result 1, 0.5 or 0, the search's score in centipawns; a file whose name ends in `.gz` is
//! read through gzip). The target is the result, or with
//! `--lambda L` `L·σ(score) + (1 − L)·result` (σ with `--k-score`). The model is the evaluation itself through `evaluate::trace`: for each position the
//! count of every weight (White's minus Black's), the phase, the mop-up bonus and the scaling
//! factor (both kept as they are at the current weights), so that the model's value equals
//! `evaluate` from White's side up to integer rounding (checked on the data, printed). The
//! loss is the mean squared error between the result and `1 / (1 + 10^(−K·eval/400))`: K is
//! fitted first with the current weights and then held, so the weights stay in centipawns;
//! then full-batch Adam on all weights. The error on `--validate` (positions of other games)
//! is printed before and after. With `--out` the weights are written, rounded, as Rust, one
//! named line each (`evaluate::weight_name`).

mod common;

use makruk::{Position, Ruleset};
use makruk_engine::evaluate::{layout, trace, weight_name, WEIGHTS};
use std::io::Write;

/// The positions of a data set, their traces flattened.
#[derive(Default)]
struct Set {
    /// Where each position's coefficients start in `coefs`, and (last) where they end.
    start: Vec<u32>,
    coefs: Vec<(u16, i16)>,
    /// Per position: phase / 32, mop-up, factor, tempo, result.
    phase: Vec<f64>,
    mop_up: Vec<f64>,
    factor: Vec<f64>,
    tempo: Vec<f64>,
    result: Vec<f64>,
}

impl Set {
    fn len(&self) -> usize {
        self.result.len()
    }

    /// Adds the positions of `path`, their scores multiplied by `scale`.
    fn load(&mut self, path: &str, scale: f64, lambda: f64, k_score: f64) -> (usize, i64) {
        let (mut skipped, mut rounding) = (0usize, 0i64);
        for line in common::data_lines(path) {
            let mut fields = line.split(';');
            let (Some(fen), Some(result)) = (fields.next(), fields.next()) else {
                skipped += 1;
                continue;
            };
            let score = fields
                .next()
                .and_then(|s| s.trim().parse::<f64>().ok())
                .map(|cp| cp * scale);
            let (Ok(pos), Ok(result)) = (
                Position::from_fen(fen, Ruleset::Standard),
                result.trim().parse::<f64>(),
            ) else {
                skipped += 1;
                continue;
            };
            // The target: the result, blended with the search's score when asked.
            let result = match score {
                Some(cp) if lambda > 0.0 => lambda * sigmoid(k_score, cp) + (1.0 - lambda) * result,
                _ => result,
            };
            let t = trace(&pos);
            if self.start.is_empty() {
                self.start.push(0);
            }
            self.coefs.extend_from_slice(&t.coefs);
            self.start.push(self.coefs.len() as u32);
            self.phase.push(f64::from(t.phase) / 32.0);
            self.mop_up.push(f64::from(t.mop_up));
            self.factor.push(t.factor);
            self.tempo.push(f64::from(t.tempo));
            self.result.push(result);
            let i = self.len() - 1;
            let model = self.eval(i, &initial());
            rounding = rounding.max((model - f64::from(t.eval)).abs().round() as i64);
        }
        (skipped, rounding)
    }

    fn coefs(&self, i: usize) -> &[(u16, i16)] {
        &self.coefs[self.start[i] as usize..self.start[i + 1] as usize]
    }

    /// The model's evaluation of position `i` from White's side with weights `w`.
    fn eval(&self, i: usize, w: &[(f64, f64)]) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(k, n) in self.coefs(i) {
            mg += w[k as usize].0 * f64::from(n);
            eg += w[k as usize].1 * f64::from(n);
        }
        let ph = self.phase[i];
        (mg * ph + eg * (1.0 - ph) + self.mop_up[i]) * self.factor[i] + self.tempo[i]
    }

    fn error(&self, w: &[(f64, f64)], k: f64) -> f64 {
        let sum: f64 = (0..self.len())
            .map(|i| (self.result[i] - sigmoid(k, self.eval(i, w))).powi(2))
            .sum();
        sum / self.len().max(1) as f64
    }
}

fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

fn initial() -> Vec<(f64, f64)> {
    WEIGHTS
        .iter()
        .map(|&(m, e)| (f64::from(m), f64::from(e)))
        .collect()
}

/// The K of the least error with weights `w` (a scan, then a finer one).
fn fit_k(set: &Set, w: &[(f64, f64)]) -> f64 {
    let (mut best, mut best_err) = (1.0, f64::MAX);
    let mut step = 0.1;
    let mut lo = 0.1;
    for _ in 0..3 {
        for j in 0..=30 {
            let k = lo + step * f64::from(j);
            let err = set.error(w, k);
            if err < best_err {
                (best, best_err) = (k, err);
            }
        }
        lo = (best - step).max(0.01);
        step /= 15.0;
    }
    best
}

fn main() {
    let (mut data, mut validate, mut out) = (Vec::new(), Vec::new(), None);
    let (mut epochs, mut rate, mut lambda, mut k_score) = (3000usize, 1.0f64, 0.0f64, 1.0f64);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--data" => data.push((val(), 1.0)),
            "--scaled-data" => {
                let path = val();
                let scale = val().parse().expect("--scaled-data FILE X");
                data.push((path, scale));
            }
            "--validate" => validate.push((val(), 1.0)),
            "--out" => out = Some(val()),
            "--epochs" => epochs = val().parse().expect("--epochs N"),
            "--rate" => rate = val().parse().expect("--rate X"),
            "--lambda" => lambda = val().parse().expect("--lambda X"),
            "--k-score" => k_score = val().parse().expect("--k-score X"),
            _ => panic!("unknown argument {a}"),
        }
    }
    let (mut train, mut valid) = (Set::default(), Set::default());
    for (paths, set) in [(&data, &mut train), (&validate, &mut valid)] {
        for (p, scale) in paths {
            let (skipped, rounding) = set.load(p, *scale, lambda, k_score);
            eprintln!(
                "{p}: {} positions so far ({skipped} lines skipped; model vs evaluate: at most {rounding} cp apart)",
                set.len()
            );
        }
    }
    assert!(train.len() > 0, "no training positions (--data FILE)");
    let mut w = initial();
    let k = fit_k(&train, &w);
    // The errors as printed: the validation set's only when there is one.
    let errors = |w: &[(f64, f64)]| {
        let t = format!("training {:.6}", train.error(w, k));
        if valid.len() == 0 {
            t
        } else {
            format!("{t}, validation {:.6}", valid.error(w, k))
        }
    };
    let before = errors(&w);
    eprintln!("K = {k:.4}; error: {before}");

    // Adam, full batch.
    let n = w.len();
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![(0.0, 0.0); n];
    let mut v = vec![(0.0, 0.0); n];
    let ln10 = std::f64::consts::LN_10;
    for epoch in 1..=epochs {
        let mut grad = vec![(0.0f64, 0.0f64); n];
        for i in 0..train.len() {
            let e = train.eval(i, &w);
            let s = sigmoid(k, e);
            // d(r − σ)² / dE
            let d = -2.0 * (train.result[i] - s) * s * (1.0 - s) * k * ln10 / 400.0;
            let d = d * train.factor[i];
            let ph = train.phase[i];
            for &(j, c) in train.coefs(i) {
                let c = f64::from(c);
                grad[j as usize].0 += d * c * ph;
                grad[j as usize].1 += d * c * (1.0 - ph);
            }
        }
        let scale = 1.0 / train.len() as f64;
        let t = epoch as i32;
        for j in 0..n {
            if j == layout::VALUE {
                continue; // the Khun's value: never counted
            }
            let step = |g: f64, mm: &mut f64, vv: &mut f64, ww: &mut f64| {
                let g = g * scale;
                *mm = b1 * *mm + (1.0 - b1) * g;
                *vv = b2 * *vv + (1.0 - b2) * g * g;
                let mh = *mm / (1.0 - b1.powi(t));
                let vh = *vv / (1.0 - b2.powi(t));
                *ww -= rate * mh / (vh.sqrt() + eps);
            };
            step(grad[j].0, &mut m[j].0, &mut v[j].0, &mut w[j].0);
            step(grad[j].1, &mut m[j].1, &mut v[j].1, &mut w[j].1);
        }
        if epoch % 250 == 0 || epoch == epochs {
            eprintln!("epoch {epoch}: {}", errors(&w));
        }
    }
    let rounded: Vec<(f64, f64)> = w.iter().map(|&(a, b)| (a.round(), b.round())).collect();
    eprintln!("rounded: {} (before tuning: {before})", errors(&rounded));
    let mut text = String::new();
    text.push_str(
        "//! The evaluation's weights, (middlegame, endgame) centipawns, in the order of\n\
         //! `evaluate::layout` (each line names its weight). Written by the Texel tuner\n\
         //! (`engine/examples/texel_tune.rs`; engine/README.md, \"Texel tuning\", has the data\n\
         //! and the command).\n\n\
         /// The weights, indexed by `evaluate::layout`.\n",
    );
    text.push_str(&format!(
        "pub const WEIGHTS: [(i32, i32); {}] = [\n",
        layout::COUNT
    ));
    for (i, (a, b)) in rounded.iter().enumerate() {
        text.push_str(&format!(
            "    ({}, {}), // {}\n",
            *a as i32,
            *b as i32,
            weight_name(i)
        ));
    }
    text.push_str("];\n");
    match out {
        Some(path) => {
            std::fs::File::create(&path)
                .and_then(|mut f| f.write_all(text.as_bytes()))
                .unwrap_or_else(|e| panic!("{path}: {e}"));
            eprintln!("written to {path}");
        }
        None => print!("{text}"),
    }
}
