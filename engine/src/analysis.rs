//! Computer analysis of a finished game (issue 23): the pure computation, no I/O, no async.
//!
//! Three steps, each usable on its own:
//!
//! 1. **Search** ([`analyse`]): every position of the game is searched once with a fixed node
//!    budget ([`DEFAULT_NODES`]), so the result does not depend on the machine's load. The
//!    moves are played on a [`makruk::Game`], so counts, count requests and repetitions are
//!    the real ones of the game. The search of the position after ply `k` is also the search
//!    of the position before ply `k + 1`.
//! 2. **Judging** ([`judge_game`]): the evals of any engine (ours, or a reference engine's for
//!    comparison) are corrected for the side-to-move bias ([`bias_cp`], [`remove_bias`]),
//!    then every move gets lichess's judgement ([`advice`]), its accuracy ([`move_accuracy`]),
//!    its centipawn loss, and each side its game accuracy and average centipawn loss.
//! 3. **Notes** ([`CountNote`]) about the count, which no engine or site gives, and the
//!    three [`KeyMoment`]s of the game.
//!
//! Conventions used throughout:
//! - a *ply* is one move of either side; `ply` fields are 0-based indices into the game's
//!   moves (ply `k` is the move played in the position after `k` moves), and a *position
//!   index* `k` is the position after `k` moves ([`makruk::Game::positions`]);
//! - mate distances are in **moves** of the mating side (UCI's `score mate`), never plies;
//! - an [`Eval`] is from **White's** point of view (positive: good for White); the engine's
//!   [`Score`] is from the side to move's, converted by [`Eval::from_score`];
//! - a *win%* is 0..100 from one side's point of view (lila's `WinPercent`); *winning
//!   chances* are the same on the −1..1 scale (`win% / 50 − 1`).
//!
//! The formulas are lichess's (lila, `modules/tree/src/main/WinPercent.scala`,
//! `modules/tree/src/main/Advice.scala`, `modules/analyse/src/main/AccuracyPercent.scala`,
//! `modules/analyse/src/main/Accuracy.scala`), rewritten here; where this module departs from
//! lila the item's documentation says so.
//!
//! ```
//! use makruk::{parse_move, Game, Ruleset};
//! use makruk_engine::analysis::{analyse, Eval};
//! use makruk_engine::Engine;
//!
//! let mut game = Game::new(Ruleset::Standard);
//! for text in ["e4", "e5", "Nd2"] {
//!     let m = parse_move(game.position(), text)?;
//!     game.play(&m).expect("legal");
//! }
//! let mut engine = Engine::new(16);
//! let analysis = analyse(&mut engine, &game, 2_000, &mut |_| {});
//! assert_eq!(analysis.plies.len(), 3);
//! assert_eq!(analysis.plies[0].san, "e4");
//! assert!(matches!(analysis.plies[2].eval, Eval::Cp(_)));
//! # Ok::<(), makruk::MoveInputError>(())
//! ```

use crate::counting::material;
use crate::evaluate::value;
use crate::search::Engine;
use crate::uci::move_to_uci_in;
use crate::{count_decision, Limits, Score, SearchResult};
use makruk::san::to_san;
use makruk::{
    count_info, Color, CountAction, CountKind, DrawReason, Game, Move, Outcome, PlayError,
    Position, Role, Ruleset, Variant,
};
use std::sync::atomic::AtomicBool;

/// The default node budget per searched position: 100,000 nodes. Measured on the 2-core
/// development VM (release build, one thread, 16 MB table), on the eight PlayOK games of
/// rules/tests/data/playok (1,193 plies under `standard`): 4.9–5.2 s of CPU per 100 plies
/// (about 50 ms a ply), within the target of 10 s for a 100-ply game, and under a fifth of
/// Fairy-Stockfish's time at `go depth 16` (`cargo run --release -p makruk-engine --example
/// analysis_vs_fsf -- rules/tests/data/playok/*.pgn`; engine/README.md has the figures).
/// 40,000 nodes took 2.0 s per 100 plies but agreed less with Fairy-Stockfish.
pub const DEFAULT_NODES: u64 = 100_000;

/// The transposition table of the second engine that searches positions with the count taken
/// away ([`CountNote::MateBeyondCount`]), in MB.
const FREE_HASH_MB: usize = 4;

/// That engine's node budget, as a multiple of the analysis' budget: finding a mate takes
/// more than an eval (at 40,000 nodes our search finds the Khun and Ruea mates in 3, at
/// 160,000 those in 7).
const FREE_NODES_FACTOR: u64 = 4;

/// The count-free search is tried only with fewer counted moves left than this: a mate that
/// is longer than that many moves is beyond that search anyway.
const FREE_MAX_REMAINING: u32 = 16;

/// Centipawns beyond which an evaluation counts as decided: lila's `Cp.CEILING`. Win% and
/// centipawn loss clamp to ±this, and a mate counts as ±this.
pub const CP_CEILING: i32 = 1000;

/// lila's winning-chances multiplier (`WinPercent.scala`, lila pull request 11148).
const WIN_MULTIPLIER: f64 = -0.003_682_08;

/// How few quiet plies [`bias_cp`] needs before it trusts their median (fewer: no correction).
pub const MIN_QUIET_PLIES: usize = 6;

/// What [`bias_cp`] counts as quiet: both evals within this many centipawns of 0.
pub const QUIET_CP: i32 = 300;

/// An evaluation from **White's** point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Eval {
    /// Centipawns (a Bia is about 100); positive is good for White; 0 also for a draw by the
    /// rules.
    Cp(i32),
    /// A forced mate in this many **moves** (never 0): positive when White mates, negative
    /// when Black does.
    Mate(i32),
    /// The position is checkmate on the board (what lichess calls "mate 0"): `winner` has
    /// mated. A separate variant because `Mate(0)` would have no sign.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
}

impl Eval {
    /// The eval of a search [`Score`] (from the side to move's view, `turn`), from White's.
    #[must_use]
    pub fn from_score(score: Score, turn: Color) -> Eval {
        let s = sign(turn);
        match score {
            Score::Cp(cp) => Eval::Cp(s * cp),
            Score::Mate(n) => Eval::Mate(s * n),
        }
    }

    /// The exact value of a position where the game is over by the rules: checkmate, or 0
    /// for any draw (stalemate, count, repetition, material, no progress, and the
    /// `traditional` mate by the counting side).
    #[must_use]
    pub fn of_outcome(outcome: Outcome) -> Eval {
        match outcome {
            Outcome::Decisive { winner, .. } => Eval::Checkmate { winner },
            Outcome::Draw { .. } => Eval::Cp(0),
        }
    }

    /// The same eval from `side`'s point of view (positive: good for `side`); a
    /// [`Eval::Checkmate`] is kept as it is (it names its winner).
    #[must_use]
    pub fn for_side(self, side: Color) -> Eval {
        let s = sign(side);
        match self {
            Eval::Cp(cp) => Eval::Cp(s * cp),
            Eval::Mate(n) => Eval::Mate(s * n),
            e @ Eval::Checkmate { .. } => e,
        }
    }

    /// Centipawns for White clamped to ±[`CP_CEILING`], a mate (forced or on the board) as
    /// ±[`CP_CEILING`] (lila's `forceAsCp` followed by `ceiled`).
    #[must_use]
    pub fn ceiled_cp(self) -> i32 {
        match self {
            Eval::Cp(cp) => cp.clamp(-CP_CEILING, CP_CEILING),
            Eval::Mate(n) => CP_CEILING * n.signum(),
            Eval::Checkmate { winner } => CP_CEILING * sign(winner),
        }
    }

    /// White's win% (0..100): [`win_percent`] of [`Eval::ceiled_cp`].
    #[must_use]
    pub fn win_percent(self) -> f64 {
        win_percent(self.ceiled_cp())
    }

    /// The sign of the mate from White's view (+1: White mates or has mated, −1: Black),
    /// `None` when there is no mate.
    fn mate_sign(self) -> Option<i32> {
        match self {
            Eval::Cp(_) => None,
            Eval::Mate(n) => Some(n.signum()),
            Eval::Checkmate { winner } => Some(sign(winner)),
        }
    }
}

/// +1 for White, −1 for Black.
fn sign(c: Color) -> i32 {
    match c {
        Color::White => 1,
        Color::Black => -1,
    }
}

/// A value for each side.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Sides<T> {
    /// White's.
    pub white: T,
    /// Black's.
    pub black: T,
}

impl<T> Sides<T> {
    /// `side`'s value.
    #[must_use]
    pub fn get(&self, side: Color) -> &T {
        match side {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// `side`'s value, to change it.
    pub fn get_mut(&mut self, side: Color) -> &mut T {
        match side {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }
}

// ---------------------------------------------------------------------------------------
// Formulas (lichess)
// ---------------------------------------------------------------------------------------

/// lila's winning chances of `cp` centipawns (not clamped first): `2 / (1 + e^(−0.00368208 ·
/// cp)) − 1`, in −1..1 (lila `WinPercent.winningChances`, which [`advice`] uses as it is).
#[must_use]
pub fn winning_chances(cp: i32) -> f64 {
    (2.0 / (1.0 + (WIN_MULTIPLIER * f64::from(cp)).exp()) - 1.0).clamp(-1.0, 1.0)
}

/// lila's win% of `cp` centipawns for the side they favour: `50 + 50 · winning_chances(cp)`
/// with `cp` first clamped to ±[`CP_CEILING`] (lila `WinPercent.fromCentiPawns`). 0..100:
/// `win_percent(0) = 50`, `win_percent(1000) ≈ 97.54`.
#[must_use]
pub fn win_percent(cp: i32) -> f64 {
    50.0 + 50.0 * winning_chances(cp.clamp(-CP_CEILING, CP_CEILING))
}

/// lila's accuracy of one move from the mover's win% before and after it (0..100 each):
/// 100 when the win% did not drop, else `103.1668 · e^(−0.04354 · (before − after)) − 3.1669
/// + 1` (the `+ 1` is lila's bonus for imperfect analysis), clamped to 0..100 (lila
/// `AccuracyPercent.fromWinPercents`).
#[must_use]
pub fn move_accuracy(win_before: f64, win_after: f64) -> f64 {
    if win_after >= win_before {
        return 100.0;
    }
    let raw = 103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * (win_before - win_after)).exp()
        - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// How bad a move is, as lichess judges it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Judgement {
    /// `?!`: the mover's winning chances dropped by at least 0.1 (5 points of win%).
    Inaccuracy,
    /// `?`: by at least 0.2.
    Mistake,
    /// `??`: by at least 0.3.
    Blunder,
}

/// A mate that a move made or threw away (lila's `MateSequence`). lila also names
/// `MateDelayed` (a slower mate) but never judges it, so it is not here.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MateSequence {
    /// There was no mate against the mover before the move; now there is ("Checkmate is now
    /// unavoidable").
    Created,
    /// The mover had a forced mate before the move and no longer has ("Lost forced
    /// checkmate sequence").
    Lost,
}

/// lichess's judgement of one move (lila `Advice`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Advice {
    /// How bad.
    pub judgement: Judgement,
    /// Set when the judgement comes from a mate made or lost (lila `MateAdvice`), `None` for
    /// a drop in winning chances (lila `CpAdvice`).
    pub mate: Option<MateSequence>,
}

/// lichess's judgement of a move by `mover` from the evals before and after it (White's view,
/// bias already removed if wanted). `None`: no judgement (a good move).
///
/// As lila's `Advice.apply`: first `CpAdvice` — both evals in centipawns; the drop of the
/// mover's [`winning_chances`] (centipawns not clamped, as lila) ≥ 0.3 blunder, ≥ 0.2
/// mistake, ≥ 0.1 inaccuracy. Otherwise `MateAdvice` — [`MateSequence::Created`] when there
/// was no mate before and now the mover is mated: an inaccuracy when the mover was already
/// below −999 cp, a mistake below −700, else a blunder; [`MateSequence::Lost`] when the mover
/// had a forced mate before and after the move has none or is mated itself: an inaccuracy
/// when the eval after is above 999 cp, a mistake above 700, else a blunder (a mate after
/// counts as 0 cp there, as in lila). An [`Eval::Checkmate`] counts as a mate for its winner.
#[must_use]
pub fn advice(before: Eval, after: Eval, mover: Color) -> Option<Advice> {
    let (b, a) = (before.for_side(mover), after.for_side(mover));
    if let (Eval::Cp(cb), Eval::Cp(ca)) = (b, a) {
        let drop = winning_chances(cb) - winning_chances(ca);
        let judgement = if drop >= 0.3 {
            Judgement::Blunder
        } else if drop >= 0.2 {
            Judgement::Mistake
        } else if drop >= 0.1 {
            Judgement::Inaccuracy
        } else {
            return None;
        };
        return Some(Advice {
            judgement,
            mate: None,
        });
    }
    let mate_b = before.mate_sign().map(|s| s * sign(mover));
    let mate_a = after.mate_sign().map(|s| s * sign(mover));
    let cp = |e: Eval| match e {
        Eval::Cp(cp) => cp,
        _ => 0,
    };
    let (sequence, judgement) = match (mate_b, mate_a) {
        (None, Some(n)) if n < 0 => (
            MateSequence::Created,
            match cp(b) {
                c if c < -999 => Judgement::Inaccuracy,
                c if c < -700 => Judgement::Mistake,
                _ => Judgement::Blunder,
            },
        ),
        (Some(p), None) if p > 0 => (MateSequence::Lost, lost_judgement(cp(a))),
        (Some(p), Some(n)) if p > 0 && n < 0 => (MateSequence::Lost, lost_judgement(cp(a))),
        _ => return None,
    };
    Some(Advice {
        judgement,
        mate: Some(sequence),
    })
}

fn lost_judgement(cp_after: i32) -> Judgement {
    if cp_after > 999 {
        Judgement::Inaccuracy
    } else if cp_after > 700 {
        Judgement::Mistake
    } else {
        Judgement::Blunder
    }
}

/// The population standard deviation of `xs` (lila `Maths.standardDeviation`); 0 for none.
fn standard_deviation(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt()
}

/// The volatility weight of each move (lila `AccuracyPercent.gameAccuracy`): `wins` holds
/// White's win% of the `n + 1` positions of `n` moves; the window size is `n / 10` clamped to
/// 2..8 plies; move `i` takes the window of positions starting at `max(0, i + 2 − size)`
/// (lila: `size − 2` copies of the first window, then the sliding windows), cut at the end
/// of the list; its weight is the window's standard deviation clamped to 0.5..12.
fn volatility_weights(wins: &[f64]) -> Vec<f64> {
    let n = wins.len().saturating_sub(1);
    let size = (n / 10).clamp(2, 8);
    (0..n)
        .map(|i| {
            let start = (i + 2).saturating_sub(size);
            let end = (start + size).min(wins.len());
            standard_deviation(&wins[start..end]).clamp(0.5, 12.0)
        })
        .collect()
}

/// The mean of the volatility-weighted mean and the harmonic mean (lila's harmonic mean
/// takes each accuracy as at least 1) of `(accuracy, weight)` pairs; `None` for none.
fn combine_accuracies(moves: &[(f64, f64)]) -> Option<f64> {
    if moves.is_empty() {
        return None;
    }
    let (sum, weights) = moves
        .iter()
        .fold((0.0, 0.0), |(s, w), &(a, wt)| (s + a * wt, w + wt));
    let harmonic = moves.len() as f64 / moves.iter().map(|&(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
    (weights > 0.0).then(|| (sum / weights + harmonic) / 2.0)
}

/// lila's game accuracy of each side (lila `AccuracyPercent.gameAccuracy`): `evals` are the
/// `n + 1` positions of a game of `n` moves (White's view, `evals[0]` before the first move),
/// `start` the side that made the first move. Each move's accuracy ([`move_accuracy`] of the
/// mover's win%, mates as ±[`CP_CEILING`]) is weighted by the volatility of the win% around it
/// (see the module's source for the windows); a side's accuracy is the mean of its
/// weighted mean and its harmonic mean, `None` for a side without moves.
///
/// lila starts from a fixed +15 cp before the first move; here `evals[0]` is the engine's
/// eval of the start position (a game may start from any position).
#[must_use]
pub fn game_accuracy(start: Color, evals: &[Eval]) -> Sides<Option<f64>> {
    let wins: Vec<f64> = evals.iter().map(|e| e.win_percent()).collect();
    let accuracies: Vec<f64> = wins
        .windows(2)
        .enumerate()
        .map(|(i, w)| {
            let mover = mover_of(start, i);
            let (b, a) = mover_wins(w[0], w[1], mover);
            move_accuracy(b, a)
        })
        .collect();
    accuracy_by_side(start, &wins, &accuracies)
}

/// The side that plays move `i` of a game whose first move is `start`'s.
fn mover_of(start: Color, i: usize) -> Color {
    if i % 2 == 0 {
        start
    } else {
        start.other()
    }
}

/// White's win% before and after a move, as the mover's.
fn mover_wins(before: f64, after: f64, mover: Color) -> (f64, f64) {
    match mover {
        Color::White => (before, after),
        Color::Black => (100.0 - before, 100.0 - after),
    }
}

fn accuracy_by_side(start: Color, wins: &[f64], accuracies: &[f64]) -> Sides<Option<f64>> {
    let weights = volatility_weights(wins);
    let mut by_side: Sides<Vec<(f64, f64)>> = Sides::default();
    for (i, (&a, &w)) in accuracies.iter().zip(&weights).enumerate() {
        by_side.get_mut(mover_of(start, i)).push((a, w));
    }
    Sides {
        white: combine_accuracies(&by_side.white),
        black: combine_accuracies(&by_side.black),
    }
}

// ---------------------------------------------------------------------------------------
// Side-to-move bias
// ---------------------------------------------------------------------------------------

/// One engine's view of one ply: the input of [`judge_game`], from our search or any other
/// engine's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyEval {
    /// The eval of the position before the move (White's view), as the engine gave it.
    pub before: Eval,
    /// The eval of the position after the move (White's view): the engine's, or the exact
    /// value when the move ended the game ([`Eval::of_outcome`]).
    pub after: Eval,
    /// The engine's best move in the position before the move (a move equal to the one
    /// played is never judged, as in lila, where such a ply has no variation).
    pub best: Option<Move>,
}

/// What the judging needs to know of each ply of the game, from the rules.
struct PlyFacts {
    mover: Color,
    /// No capture, no promotion, not in check before, no check given.
    quiet_move: bool,
    /// The game ended with this move (the eval after it is exact).
    ends: bool,
    played: Move,
}

/// Steps through a game from its start, making its count requests at the plies where they
/// were made, so that every position has its real count state.
struct Replay<'a> {
    source: &'a Game,
    game: Game,
}

impl<'a> Replay<'a> {
    fn new(source: &'a Game) -> Replay<'a> {
        Replay {
            source,
            game: Game::from_position(source.start().clone()),
        }
    }

    fn ply(&self) -> usize {
        self.game.moves().len()
    }

    /// Makes the count requests of the source made at the current ply; true if there were.
    fn requests(&mut self) -> bool {
        let ply = self.ply() as u32;
        let mut any = false;
        for e in self.source.events().iter().filter(|e| e.ply == ply) {
            // They were accepted in the source game, in this very state.
            let _ = match e.action {
                CountAction::Start => self.game.start_count(),
                CountAction::Stop => self.game.stop_count(),
            };
            any = true;
        }
        any
    }

    /// The next move of the source, if any is left.
    fn next_move(&self) -> Option<Move> {
        self.source.moves().get(self.ply()).copied()
    }

    /// Plays the next move of the source. False when none is left or it is not legal.
    fn play(&mut self) -> bool {
        self.next_move()
            .is_some_and(|m| self.game.play_on(&m).is_ok())
    }
}

/// The facts of the first `n` plies of `game` (or fewer if it ends by the rules sooner).
fn ply_facts(game: &Game, n: usize) -> Vec<PlyFacts> {
    let mut r = Replay::new(game);
    let mut facts = Vec::with_capacity(n);
    r.requests();
    while facts.len() < n {
        let before = r.game.position().clone();
        let Some(m) = r.next_move() else { break };
        if !r.play() {
            break;
        }
        let after = r.game.position();
        let ends = r.game.outcome().is_some();
        facts.push(PlyFacts {
            mover: before.turn(),
            quiet_move: !m.is_capture() && !m.promotion && !before.is_check() && !after.is_check(),
            ends,
            played: m,
        });
        if ends {
            break;
        }
        r.requests();
    }
    facts
}

/// The side-to-move bias of one engine's evals of a game, in centipawns: half the median
/// swing over its quiet plies (fewer than [`MIN_QUIET_PLIES`]: 0).
///
/// Makruk evals, ours and Fairy-Stockfish's alike, favour the side to move: an eval `v` of a
/// position reads about `v + b` with White to move and `v − b` with Black to move (White's
/// view), so even a perfect quiet move seems to cost its mover `2b`. The *swing* of ply `k`
/// is that apparent cost, the mover's eval before minus its eval after (from the mover's
/// view, in centipawns). A ply is *quiet* when its move captures nothing, promotes nothing,
/// is not played out of check and gives no check, the game goes on after it, and both evals
/// are centipawns within ±[`QUIET_CP`]. The median ignores the real mistakes among them.
/// [`remove_bias`] takes the bias out.
///
/// `plies[k]` is ply `k` of `game` (only the first `plies.len()` are looked at).
#[must_use]
pub fn bias_cp(game: &Game, plies: &[PlyEval]) -> i32 {
    let facts = ply_facts(game, plies.len());
    let mut swings: Vec<i32> = facts
        .iter()
        .zip(plies)
        .filter(|(f, _)| f.quiet_move && !f.ends)
        .filter_map(|(f, p)| match (p.before, p.after) {
            (Eval::Cp(b), Eval::Cp(a)) if b.abs() < QUIET_CP && a.abs() < QUIET_CP => {
                Some(sign(f.mover) * (b - a))
            }
            _ => None,
        })
        .collect();
    if swings.len() < MIN_QUIET_PLIES {
        return 0;
    }
    swings.sort_unstable();
    let n = swings.len();
    // Half the median, rounded to the nearest centipawn: (median · 2) / 4 with the median
    // of an even count the mean of the middle two.
    let twice_median = if n % 2 == 1 {
        2 * swings[n / 2]
    } else {
        swings[n / 2 - 1] + swings[n / 2]
    };
    (f64::from(twice_median) / 4.0).round() as i32
}

/// `eval` (White's view) of a position with `turn` to move, with the side-to-move bias
/// `bias` centipawns ([`bias_cp`]) taken out: `bias` is subtracted from the side to move's
/// centipawns (White to move: `cp − bias`; Black to move: `cp + bias`). Mates are kept as
/// they are. So a quiet move played at the engine's own eval no longer seems to lose `2 ·
/// bias`. Not to be used on exact values (a position where the game is over).
#[must_use]
pub fn remove_bias(eval: Eval, turn: Color, bias: i32) -> Eval {
    match eval {
        Eval::Cp(cp) => Eval::Cp(cp - sign(turn) * bias),
        e => e,
    }
}

// ---------------------------------------------------------------------------------------
// Judging a game
// ---------------------------------------------------------------------------------------

/// One ply as judged by [`judge_game`].
#[derive(Clone, Debug, PartialEq)]
pub struct JudgedPly {
    /// The side that played it.
    pub mover: Color,
    /// The eval before the move with the bias removed (White's view).
    pub before: Eval,
    /// The eval after the move with the bias removed (White's view; exact values as they are).
    pub after: Eval,
    /// The mover's win% before the move (0..100).
    pub win_before: f64,
    /// The mover's win% after the move (0..100).
    pub win_after: f64,
    /// The move's accuracy ([`move_accuracy`], 0..100).
    pub accuracy: f64,
    /// The mover's centipawn loss: its eval before minus its eval after, both clamped to
    /// ±[`CP_CEILING`] (mates as ±1000), at least 0 (lila `Accuracy.diffsList`).
    pub cp_loss: i32,
    /// lichess's judgement ([`advice`]); `None` for a good move and for the engine's own best
    /// move.
    pub advice: Option<Advice>,
}

impl JudgedPly {
    /// The drop of the mover's win% (percentage points, 0 when it rose).
    #[must_use]
    pub fn win_drop(&self) -> f64 {
        (self.win_before - self.win_after).max(0.0)
    }
}

/// How many moves of each judgement one side made.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct JudgementCounts {
    /// Inaccuracies.
    pub inaccuracies: u32,
    /// Mistakes.
    pub mistakes: u32,
    /// Blunders.
    pub blunders: u32,
}

/// The totals of a judged game.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// The side-to-move bias removed before judging, in centipawns ([`bias_cp`]).
    pub bias_cp: i32,
    /// Each side's game accuracy (0..100; `None` for a side that made no move).
    pub accuracy: Sides<Option<f64>>,
    /// Each side's average centipawn loss per move (`None` for a side that made no move).
    pub acpl: Sides<Option<f64>>,
    /// Each side's inaccuracies, mistakes and blunders.
    pub counts: Sides<JudgementCounts>,
}

/// The output of [`judge_game`]: every ply judged, and the totals.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// One per ply judged, in order.
    pub plies: Vec<JudgedPly>,
    /// The totals.
    pub summary: Summary,
}

/// Judges one engine's evals of `game`: the side-to-move bias is estimated ([`bias_cp`]) and
/// removed, then every ply is judged as [`judge_game_with_bias`] does. `plies[k]` is ply `k`
/// (at most as many plies as the game has up to its end by the rules are judged).
#[must_use]
pub fn judge_game(game: &Game, plies: &[PlyEval]) -> Judged {
    judge_game_with_bias(game, plies, bias_cp(game, plies))
}

/// Judges one engine's evals of `game` with the side-to-move bias `bias` ([`remove_bias`]) taken
/// out of every eval except the exact ones (the position after a move that ended the game).
/// Then, per ply: the mover's win% before and after, the move's accuracy and centipawn loss,
/// lichess's [`advice`] (none when the engine's best move was played); per side: the game
/// accuracy (as [`game_accuracy`], but each move's accuracy from its own pair of evals: they
/// differ from the previous ply's "after" only where a count was requested between the
/// moves), the average centipawn loss, and the count of each judgement.
#[must_use]
pub fn judge_game_with_bias(game: &Game, plies: &[PlyEval], bias: i32) -> Judged {
    let facts = ply_facts(game, plies.len());
    let start = game.start().turn();
    let mut judged = Vec::with_capacity(facts.len());
    let mut wins = Vec::with_capacity(facts.len() + 1);
    let mut counts: Sides<JudgementCounts> = Sides::default();
    let mut losses: Sides<Vec<i32>> = Sides::default();
    for (f, p) in facts.iter().zip(plies) {
        let mover = f.mover;
        let before = remove_bias(p.before, mover, bias);
        let after = if f.ends {
            p.after
        } else {
            remove_bias(p.after, mover.other(), bias)
        };
        if wins.is_empty() {
            wins.push(before.win_percent());
        }
        wins.push(after.win_percent());
        let (win_before, win_after) = mover_wins(before.win_percent(), after.win_percent(), mover);
        let cp_loss = (sign(mover) * (before.ceiled_cp() - after.ceiled_cp())).max(0);
        let advice = if p.best == Some(f.played) {
            None
        } else {
            advice(before, after, mover)
        };
        if let Some(a) = advice {
            let c = counts.get_mut(mover);
            match a.judgement {
                Judgement::Inaccuracy => c.inaccuracies += 1,
                Judgement::Mistake => c.mistakes += 1,
                Judgement::Blunder => c.blunders += 1,
            }
        }
        losses.get_mut(mover).push(cp_loss);
        judged.push(JudgedPly {
            mover,
            before,
            after,
            win_before,
            win_after,
            accuracy: move_accuracy(win_before, win_after),
            cp_loss,
            advice,
        });
    }
    let accuracies: Vec<f64> = judged.iter().map(|j| j.accuracy).collect();
    let mean = |v: &Vec<i32>| {
        (!v.is_empty()).then(|| v.iter().map(|&x| f64::from(x)).sum::<f64>() / v.len() as f64)
    };
    Judged {
        plies: judged,
        summary: Summary {
            bias_cp: bias,
            accuracy: accuracy_by_side(start, &wins, &accuracies),
            acpl: Sides {
                white: mean(&losses.white),
                black: mean(&losses.black),
            },
            counts,
        },
    }
}

// ---------------------------------------------------------------------------------------
// Counting notes and key moments
// ---------------------------------------------------------------------------------------

/// Something about the count worth telling the players, which no engine or site tells them.
/// Positions are position indices (the position after `ply` moves).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CountNote {
    /// `side`, to move, had a forced mate in `mate_in` moves (found with the count taken
    /// away) but the running count lets the game go on only `moves_left` more moves of the
    /// counting side (`CountInfo::remaining`): the count draws first, e.g. "mate in 9 with
    /// 4 counted moves left is a draw". A mate in `n` moves by the side to move is in time
    /// when `n ≤ moves_left + 1` (the counting side moves `n − 1` times before it). Given
    /// once per count, at the first position where it happens.
    MateBeyondCount {
        /// The position index.
        ply: usize,
        /// The side that had the mate (the side to move, not the counting side).
        side: Color,
        /// The mate's distance in moves of `side`.
        mate_in: u32,
        /// Moves the counting side may still make before the count runs out.
        moves_left: u32,
        /// Board's or pieces' honour.
        kind: CountKind,
    },
    /// `traditional`: `side`, to move, was the weaker side and could have started counting
    /// board's honour (no Bia left, neither side bare, no count running: see
    /// [`count_decision`]) but did not. Given once per stretch of positions where it could.
    CountNotStarted {
        /// The position index (the first of the stretch).
        ply: usize,
        /// The side that could have started the count.
        side: Color,
    },
    /// The game ended as a draw because the count ran out, after `ply` moves.
    CountRanOut {
        /// The position index of the final position.
        ply: usize,
        /// The side that counted (and so escaped).
        counting: Color,
        /// Board's or pieces' honour.
        kind: CountKind,
        /// The count's limit, in moves of the counting side.
        limit: u32,
    },
}

/// Why the engine's best move was better, or what the played move allowed (for the bot to
/// put in words).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The line leads to mate in this many moves (of the side it is good for).
    Mate(i32),
    /// The line wins this piece: the most valuable piece captured, net of the pieces given
    /// back, within its first three plies.
    WinsMaterial(Role),
    /// Only a better position: by `cp` centipawns for the mover (evals clamped to ±1000,
    /// bias removed).
    Better {
        /// The mover's eval after the best move minus after the played one.
        cp: i32,
    },
}

/// One of the game's worst moves.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyMoment {
    /// The ply (0-based index of the move).
    pub ply: usize,
    /// The side that played it.
    pub mover: Color,
    /// The position before the move, as FEN.
    pub fen: String,
    /// The move played.
    pub played: Move,
    /// Its SAN.
    pub played_san: String,
    /// The engine's best move there.
    pub best: Move,
    /// Its SAN.
    pub best_san: String,
    /// The drop of the mover's win% (percentage points).
    pub win_drop: f64,
    /// The move's judgement, if it has one.
    pub advice: Option<Advice>,
    /// Why the best move was better.
    pub reason: Reason,
    /// What the opponent's best reply to the played move does: mates ([`Reason::Mate`]) or
    /// wins material ([`Reason::WinsMaterial`]); `None` otherwise.
    pub refutation: Option<Reason>,
}

/// The most valuable piece `side` wins net in the first three plies of `pv` from `pos`
/// (`side` moving first or second): the pieces `side` captures, less those it loses of the
/// same kind, when what it captures is worth more than what it loses.
fn net_capture(pos: &Position, pv: &[Move], side: Color) -> Option<Role> {
    let mut p = pos.clone();
    let (mut won, mut lost): (Vec<Role>, Vec<Role>) = (Vec::new(), Vec::new());
    for m in pv.iter().take(3) {
        if !p.is_legal(m) {
            break;
        }
        if let Some(r) = m.capture {
            if p.turn() == side {
                won.push(r);
            } else {
                lost.push(r);
            }
        }
        p = p.after(m);
    }
    let gain: i32 =
        won.iter().map(|&r| value(r)).sum::<i32>() - lost.iter().map(|&r| value(r)).sum::<i32>();
    if gain <= 0 {
        return None;
    }
    for r in &lost {
        if let Some(i) = won.iter().position(|w| w == r) {
            won.swap_remove(i);
        }
    }
    won.into_iter().max_by_key(|&r| value(r))
}

// ---------------------------------------------------------------------------------------
// The analysis
// ---------------------------------------------------------------------------------------

/// Progress of [`analyse`], reported after each search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Positions searched so far.
    pub searched: usize,
    /// Positions of the game (moves + 1); the analysis may search a few more (a position is
    /// searched twice where a count was requested in it) or fewer (it stops where the game
    /// ends by the rules).
    pub total: usize,
}

/// One analysed ply: what the search said about it, and its judgement.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyAnalysis {
    /// The ply (0-based index of the move).
    pub ply: usize,
    /// The side that played it.
    pub mover: Color,
    /// The move played.
    pub played: Move,
    /// Its SAN.
    pub san: String,
    /// Its UCI form.
    pub uci: String,
    /// The engine's best move in the position before the move (`None` only if the search
    /// found none).
    pub best: Option<Move>,
    /// Its UCI form.
    pub best_uci: Option<String>,
    /// Its SAN.
    pub best_san: Option<String>,
    /// The engine's eval of the position before the move (White's view, bias not removed).
    pub eval_before: Eval,
    /// The eval of the position after the move (White's view, bias not removed): the exact
    /// value when the move ended the game.
    pub eval: Eval,
    /// The depth the search before the move reached.
    pub depth: u32,
    /// The judgement ([`judge_game`]).
    pub judged: JudgedPly,
}

/// The analysis of a game ([`analyse`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The ruleset the game was analysed under.
    pub ruleset: Ruleset,
    /// The game's variant of the Makruk family (its moves' UCI is that variant's).
    pub variant: Variant,
    /// The node budget per searched position.
    pub nodes_per_position: u64,
    /// The engine's eval of the start position (White's view), `None` when it is over.
    pub start_eval: Option<Eval>,
    /// Every ply analysed: all the game's moves, or those up to its first end by the rules
    /// (a record may go on past a draw the rules declare).
    pub plies: Vec<PlyAnalysis>,
    /// The game's end by the rules at the last analysed position, if reached.
    pub end: Option<Outcome>,
    /// Bias, accuracy, average centipawn loss and judgements of each side.
    pub summary: Summary,
    /// The count's notes, in the order of the game.
    pub notes: Vec<CountNote>,
    /// The three worst moves (largest drop of the mover's win%, not the engine's best
    /// move), worst first; fewer when fewer moves lost anything.
    pub key_moments: Vec<KeyMoment>,
    /// Nodes searched in all.
    pub nodes: u64,
}

/// One position's search.
struct Searched {
    result: SearchResult,
    eval: Eval,
}

fn search(engine: &mut Engine, game: &Game, nodes: u64) -> Searched {
    search_until(engine, game, nodes, &AtomicBool::new(false))
}

fn search_until(engine: &mut Engine, game: &Game, nodes: u64, stop: &AtomicBool) -> Searched {
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let result = engine.search(game, &limits, stop, &mut |_| {});
    let eval = Eval::from_score(result.score, game.position().turn());
    Searched { result, eval }
}

/// Watches the count through the game for the [`CountNote`]s.
struct CountWatch {
    /// An engine for positions with the count taken away (made on first need).
    free: Option<Engine>,
    /// The count (kind, counting side) already given a [`CountNote::MateBeyondCount`].
    noted_count: Option<(CountKind, Color)>,
    /// Per side: a [`CountNote::CountNotStarted`] stretch is open.
    open: Sides<bool>,
    notes: Vec<CountNote>,
}

impl CountWatch {
    /// Looks at the position `game` is in (before its count requests at this ply, which are
    /// `requested`).
    fn before_requests(&mut self, game: &Game, requested: Option<CountAction>) {
        let side = game.position().turn();
        if requested == Some(CountAction::Start) {
            self.open = Sides::default();
            return;
        }
        // No count running: `count_decision` only weighs starting one (with a count running it
        // may search whether to stop it, which is not wanted here).
        let could = game.count().is_none() && count_decision(game) == Some(CountAction::Start);
        let open = self.open.get_mut(side);
        if could && !*open {
            self.notes.push(CountNote::CountNotStarted {
                ply: game.moves().len(),
                side,
            });
        }
        *open = could;
    }

    /// Looks at the position `game` is in after its count requests, searched as `s`.
    fn after_search(&mut self, game: &Game, s: &Searched, nodes: u64) {
        let pos = game.position();
        let Some(count) = count_info(pos) else {
            self.noted_count = None;
            return;
        };
        let side = pos.turn();
        let key = (count.kind, count.counting);
        if self.noted_count.is_some_and(|k| k != key) {
            self.noted_count = None;
        }
        if self.noted_count.is_some()
            || side == count.counting
            || count.remaining >= FREE_MAX_REMAINING
            || pos.has_insufficient_material(side)
            || matches!(s.result.score, Score::Mate(n) if n > 0)
            || material(pos, side) <= material(pos, side.other())
        {
            return;
        }
        let Some(free_game) = without_count(pos) else {
            return;
        };
        let engine = self.free.get_or_insert_with(|| Engine::new(FREE_HASH_MB));
        engine.new_game();
        let free = search(engine, &free_game, nodes.saturating_mul(FREE_NODES_FACTOR));
        if let Score::Mate(n @ 1..) = free.result.score {
            let n = n.unsigned_abs();
            if n > count.remaining + 1 {
                self.notes.push(CountNote::MateBeyondCount {
                    ply: game.moves().len(),
                    side,
                    mate_in: n,
                    moves_left: count.remaining,
                    kind: count.kind,
                });
                self.noted_count = Some(key);
            }
        }
    }
}

/// The placement of `pos` as a game without any count (ruleset `fifty-move` with its clock
/// at 0: no counting, 50 moves before its own draw).
fn without_count(pos: &Position) -> Option<Game> {
    let mut setup = pos.setup();
    setup.count_limit = 0;
    setup.count_ply = 0;
    setup.halfmoves = 0;
    Position::from_setup(setup, Ruleset::FiftyMove)
        .ok()
        .map(Game::from_position)
}

/// A searched position's facts kept for the plies and key moments.
struct Before {
    pos: Position,
    searched: Searched,
}

/// Analyses `game` (its start position, ruleset, moves and count requests) with `engine`,
/// `nodes` nodes per position ([`DEFAULT_NODES`] is the default), calling `progress` after
/// each search.
///
/// Every position is searched once, under the game's own ruleset (its counting and draws),
/// with the game's history before it (repetitions): before each move, and after the last
/// one unless the game is over there. A position where the game is over gets its exact
/// value ([`Eval::of_outcome`]) without search. The analysis stops at the first end by the
/// rules (the plies after it are not analysed). Where a count was requested (`traditional`),
/// the position is searched before the request (the eval after the previous move) and after
/// it (the eval before, and best move of, the next one).
///
/// `engine` is cleared first ([`Engine::new_game`]) and its table kept from move to move;
/// the result depends only on the game, `nodes` and the engine's table size (16 MB is what
/// the figures were measured with). Then [`judge_game`] judges the evals, the count is
/// watched for [`CountNote`]s, and the three worst moves become [`KeyMoment`]s.
pub fn analyse(
    engine: &mut Engine,
    game: &Game,
    nodes: u64,
    progress: &mut dyn FnMut(Progress),
) -> Analysis {
    let never = AtomicBool::new(false);
    analyse_until(engine, game, nodes, &never, progress)
        .expect("an analysis that is never stopped finishes")
}

/// [`analyse`], given up when `stop` becomes true: the search running then returns soon, the
/// positions left are not searched, and the answer is `None` (a stopped analysis is never
/// half a result). `progress` is called after each search, on the calling thread, so the
/// caller may do other work between two positions (the bot's thinking pool answers a game's
/// move there).
pub fn analyse_until(
    engine: &mut Engine,
    game: &Game,
    nodes: u64,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Option<Analysis> {
    engine.new_game();
    let total = game.moves().len() + 1;
    let mut searched = 0usize;
    let mut total_nodes = 0u64;
    let mut step = |engine: &mut Engine, g: &Game| {
        let s = search_until(engine, g, nodes, stop);
        searched += 1;
        total_nodes += s.result.nodes;
        progress(Progress { searched, total });
        s
    };
    let mut watch = CountWatch {
        free: None,
        noted_count: None,
        open: Sides::default(),
        notes: Vec::new(),
    };
    let mut r = Replay::new(game);
    let requested = |r: &Replay| -> Option<CountAction> {
        let ply = r.ply() as u32;
        r.source
            .events()
            .iter()
            .rev()
            .find(|e| e.ply == ply)
            .map(|e| e.action)
    };

    let mut plies: Vec<PlyEval> = Vec::new();
    let mut befores: Vec<Before> = Vec::new();
    let mut afters_pv: Vec<Vec<Move>> = Vec::new();
    let mut end = r.game.outcome();
    let mut start_eval = None;
    if end.is_none() {
        watch.before_requests(&r.game, requested(&r));
        r.requests();
        let s = step(engine, &r.game);
        watch.after_search(&r.game, &s, nodes);
        start_eval = Some(s.eval);
        let mut cur = Before {
            pos: r.game.position().clone(),
            searched: s,
        };
        while r.play() {
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                return None;
            }
            let outcome = r.game.outcome();
            let (after, after_pv, next) = match outcome {
                Some(o) => (Eval::of_outcome(o), Vec::new(), None),
                None => {
                    let req = requested(&r);
                    watch.before_requests(&r.game, req);
                    let pre = step(engine, &r.game);
                    let (eval, pv) = (pre.eval, pre.result.pv.clone());
                    let post = if r.requests() {
                        step(engine, &r.game)
                    } else {
                        pre
                    };
                    watch.after_search(&r.game, &post, nodes);
                    (eval, pv, Some(post))
                }
            };
            plies.push(PlyEval {
                before: cur.searched.eval,
                after,
                best: cur.searched.result.best,
            });
            afters_pv.push(after_pv);
            let Some(next) = next else {
                befores.push(cur);
                end = outcome;
                break;
            };
            befores.push(std::mem::replace(
                &mut cur,
                Before {
                    pos: r.game.position().clone(),
                    searched: next,
                },
            ));
        }
    }

    if let Some(Outcome::Draw {
        reason: DrawReason::Counting,
    }) = end
    {
        if let Some(c) = r.game.count() {
            watch.notes.push(CountNote::CountRanOut {
                ply: r.ply(),
                counting: c.counting,
                kind: c.kind,
                limit: c.limit,
            });
        }
    }

    let judged = judge_game(&r.game, &plies);
    let moves = r.game.moves();
    let out: Vec<PlyAnalysis> = judged
        .plies
        .iter()
        .zip(&plies)
        .zip(&befores)
        .enumerate()
        .map(|(k, ((j, p), b))| {
            let played = moves[k];
            PlyAnalysis {
                ply: k,
                mover: j.mover,
                played,
                san: to_san(&b.pos, &played),
                uci: move_to_uci_in(&played, b.pos.variant()),
                best: p.best,
                best_uci: p.best.as_ref().map(|m| move_to_uci_in(m, b.pos.variant())),
                best_san: p.best.as_ref().map(|m| to_san(&b.pos, m)),
                eval_before: p.before,
                eval: p.after,
                depth: b.searched.result.depth,
                judged: j.clone(),
            }
        })
        .collect();
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return None;
    }
    let key_moments = key_moments(&out, &befores, &afters_pv);
    Some(Analysis {
        ruleset: game.ruleset(),
        variant: game.start().variant(),
        nodes_per_position: nodes,
        start_eval,
        plies: out,
        end,
        summary: judged.summary,
        notes: watch.notes,
        key_moments,
        nodes: total_nodes,
    })
}

/// [`analyse`] of the game of `moves` from `start` (under `start`'s ruleset, no count
/// requests).
///
/// # Errors
/// [`PlayError`] for the first move that is not legal (or comes after the game's end by the
/// rules).
pub fn analyse_moves(
    engine: &mut Engine,
    start: Position,
    moves: &[Move],
    nodes: u64,
    progress: &mut dyn FnMut(Progress),
) -> Result<Analysis, PlayError> {
    let mut game = Game::from_position(start);
    for m in moves {
        game.play(m)?;
    }
    Ok(analyse(engine, &game, nodes, progress))
}

/// The three worst moves of `plies` (largest win% drop of the mover, not the engine's best
/// move, drop > 0), worst first (ties: the earlier first).
fn key_moments(
    plies: &[PlyAnalysis],
    befores: &[Before],
    afters_pv: &[Vec<Move>],
) -> Vec<KeyMoment> {
    let mut order: Vec<usize> = (0..plies.len())
        .filter(|&k| {
            let p = &plies[k];
            p.best.is_some_and(|b| b != p.played) && p.judged.win_drop() > 0.0
        })
        .collect();
    order.sort_by(|&a, &b| {
        plies[b]
            .judged
            .win_drop()
            .total_cmp(&plies[a].judged.win_drop())
            .then(a.cmp(&b))
    });
    order
        .into_iter()
        .take(3)
        .filter_map(|k| {
            let p = &plies[k];
            let b = &befores[k];
            let best = p.best?;
            let mover = p.mover;
            let reason = match b.searched.result.score {
                Score::Mate(n) if n > 0 => Reason::Mate(n),
                _ => match net_capture(&b.pos, &b.searched.result.pv, mover) {
                    Some(role) => Reason::WinsMaterial(role),
                    None => Reason::Better {
                        cp: sign(mover)
                            * (p.judged.before.ceiled_cp() - p.judged.after.ceiled_cp()),
                    },
                },
            };
            let after_pos = b.pos.after(&p.played);
            let refutation = match p.judged.after.for_side(mover.other()) {
                Eval::Mate(n) if n > 0 => Some(Reason::Mate(n)),
                _ => {
                    net_capture(&after_pos, &afters_pv[k], mover.other()).map(Reason::WinsMaterial)
                }
            };
            Some(KeyMoment {
                ply: k,
                mover,
                fen: b.pos.fen(),
                played: p.played,
                played_san: p.san.clone(),
                best,
                best_san: to_san(&b.pos, &best),
                win_drop: p.judged.win_drop(),
                advice: p.judged.advice,
                reason,
                refutation,
            })
        })
        .collect()
}
