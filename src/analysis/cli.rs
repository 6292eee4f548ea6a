//! `makruk-bot analyse`: analyse one game record and print the result as JSON.
//!
//! The JSON (one object, printed on one line):
//!
//! ```text
//! {"ruleset": "standard", "nodes": 100000,
//!  "plies": [{"ply": 1, "mover": "white", "san": "c4", "uci": "c3c4",
//!             "eval": {"cp": 35} | {"mate": -3} | {"checkmate": "white"},
//!             "best": "<uci>" | null, "best_san": "<san>" | null,
//!             "judgement": null | "inaccuracy" | "mistake" | "blunder"}, …],
//!  "accuracy": {"white": 81.2, "black": 74.0}, "acpl": {"white": 41, "black": 77},
//!  "counts": {"white": {"inaccuracies": 1, "mistakes": 0, "blunders": 2}, "black": …},
//!  "end": null | "<reason>"}
//! ```
//!
//! `ply` counts from 1 (the first move). `eval` is the engine's value of the position
//! **after** the move, from White's side: centipawns (a Bia is about 100), a forced mate in
//! that many **moves** (negative: Black mates), or the side that has mated on the board.
//! `best` is the engine's move in the position **before** the move (UCI). `accuracy`
//! (0–100) and `acpl` (average centipawn loss, rounded) are `null` for a side that made no
//! move. The judgements are lichess's (the drop of the mover's winning chances, see
//! `makruk_engine::analysis`). The analysis stops at the first end by the rules (`end`).

use std::path::PathBuf;

use anyhow::Context as _;
use makruk::{Color, Ruleset};
use makruk_engine::analysis::{self, Analysis, Eval, DEFAULT_NODES};
use makruk_engine::Engine;
use serde::Serialize;

use super::report::{count_starts, mark};
use crate::render::evalgraph::{eval_graph_png, GraphPoint};

/// The engine's hash table for an analysis, in MB (what the analysis figures were measured
/// with).
const HASH_MB: usize = 16;

/// Arguments of the `analyse` subcommand.
#[derive(clap::Args, Debug)]
pub struct AnalyseArgs {
    /// The game record: a PGN file (the first game in it), moves in any notation the bot
    /// reads (SAN, UCI, PlayOK, Thai).
    pub pgn: PathBuf,
    /// The ruleset the game is replayed and judged under: standard, traditional, material or
    /// fifty-move.
    #[arg(long, default_value = "standard")]
    pub rules: Ruleset,
    /// Nodes searched per position.
    #[arg(long, default_value_t = DEFAULT_NODES)]
    pub nodes: u64,
    /// Print the analysis as JSON.
    #[arg(long)]
    pub json: bool,
    /// Also draw the eval graph (White's win% after each ply, judged moves marked) to this
    /// PNG file.
    #[arg(long, value_name = "PNG")]
    pub graph: Option<PathBuf>,
}

/// One ply of the JSON output.
#[derive(Serialize, Debug)]
pub struct PlyJson {
    /// 1-based ply number.
    pub ply: usize,
    /// `white` or `black`.
    pub mover: &'static str,
    /// The move played, SAN.
    pub san: String,
    /// The move played, UCI.
    pub uci: String,
    /// The value after the move, White's side.
    pub eval: EvalJson,
    /// The engine's move before it, UCI.
    pub best: Option<String>,
    /// The same, SAN.
    pub best_san: Option<String>,
    /// `inaccuracy`, `mistake`, `blunder` or `null`.
    pub judgement: Option<&'static str>,
}

/// An eval in the JSON output: exactly one field is present.
#[derive(Serialize, Debug, Default)]
pub struct EvalJson {
    /// Centipawns, White's side.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    /// Mate in this many moves (negative: Black mates).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
    /// Checkmate on the board: the side that mated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checkmate: Option<&'static str>,
}

/// A value for each side.
#[derive(Serialize, Debug)]
pub struct SidesJson<T> {
    /// White's.
    pub white: T,
    /// Black's.
    pub black: T,
}

/// A side's judgements.
#[derive(Serialize, Debug)]
pub struct CountsJson {
    /// `?!`
    pub inaccuracies: u32,
    /// `?`
    pub mistakes: u32,
    /// `??`
    pub blunders: u32,
}

/// The whole JSON output (see the module's documentation).
#[derive(Serialize, Debug)]
pub struct AnalysisJson {
    /// The ruleset's name.
    pub ruleset: &'static str,
    /// Nodes per position.
    pub nodes: u64,
    /// Every analysed ply.
    pub plies: Vec<PlyJson>,
    /// Each side's accuracy, 0–100, one decimal.
    pub accuracy: SidesJson<Option<f64>>,
    /// Each side's average centipawn loss, rounded.
    pub acpl: SidesJson<Option<i64>>,
    /// Each side's judgements.
    pub counts: SidesJson<CountsJson>,
    /// The end by the rules the analysis stopped at, if any (e.g. `checkmate`).
    pub end: Option<&'static str>,
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn eval_json(e: Eval) -> EvalJson {
    match e {
        Eval::Cp(cp) => EvalJson {
            cp: Some(cp),
            ..EvalJson::default()
        },
        Eval::Mate(n) => EvalJson {
            mate: Some(n),
            ..EvalJson::default()
        },
        Eval::Checkmate { winner } => EvalJson {
            checkmate: Some(color_name(winner)),
            ..EvalJson::default()
        },
    }
}

impl AnalysisJson {
    /// The JSON form of `a`.
    #[must_use]
    pub fn from_analysis(a: &Analysis) -> AnalysisJson {
        let counts = |c: Color| {
            let n = a.summary.counts.get(c);
            CountsJson {
                inaccuracies: n.inaccuracies,
                mistakes: n.mistakes,
                blunders: n.blunders,
            }
        };
        let s = &a.summary;
        AnalysisJson {
            ruleset: a.ruleset.name(),
            nodes: a.nodes_per_position,
            plies: a
                .plies
                .iter()
                .map(|p| PlyJson {
                    ply: p.ply + 1,
                    mover: color_name(p.mover),
                    san: p.san.clone(),
                    uci: p.uci.clone(),
                    eval: eval_json(p.eval),
                    best: p.best_uci.clone(),
                    best_san: p.best_san.clone(),
                    judgement: p
                        .judged
                        .advice
                        .as_ref()
                        .map(|adv| crate::game::judgement_text(adv.judgement)),
                })
                .collect(),
            accuracy: SidesJson {
                white: s
                    .accuracy
                    .get(Color::White)
                    .map(|x| (x * 10.0).round() / 10.0),
                black: s
                    .accuracy
                    .get(Color::Black)
                    .map(|x| (x * 10.0).round() / 10.0),
            },
            #[allow(clippy::cast_possible_truncation)]
            acpl: SidesJson {
                white: s.acpl.get(Color::White).map(|x| x.round() as i64),
                black: s.acpl.get(Color::Black).map(|x| x.round() as i64),
            },
            counts: SidesJson {
                white: counts(Color::White),
                black: counts(Color::Black),
            },
            end: a.end.map(makruk::pgn::outcome_reason),
        }
    }
}

/// Reads the first game of `text` and analyses it under `rules` with `nodes` per position.
///
/// # Errors
/// A record that is not PGN, has a bad `[FEN]`, or a move that cannot be read or is not
/// legal (with its move number).
pub fn analyse_record(text: &str, rules: Ruleset, nodes: u64) -> anyhow::Result<Analysis> {
    let record = makruk::pgn::read_pgn(text).context("not a readable PGN record")?;
    let replay = record.replay(rules).context("the record's moves")?;
    let mut engine = Engine::new(HASH_MB);
    Ok(analysis::analyse(
        &mut engine,
        &replay.game,
        nodes.max(1),
        &mut |_| {},
    ))
}

/// [`analyse_record`] in the JSON form.
///
/// # Errors
/// As [`analyse_record`].
pub fn analyse_pgn(text: &str, rules: Ruleset, nodes: u64) -> anyhow::Result<AnalysisJson> {
    Ok(AnalysisJson::from_analysis(&analyse_record(
        text, rules, nodes,
    )?))
}

/// The eval graph's points of `a`: White's win% after each ply (the eval as searched, bias not
/// removed), each judged ply marked.
#[must_use]
pub fn graph_points(a: &Analysis) -> (f64, Vec<GraphPoint>) {
    let start = a.start_eval.map_or(50.0, Eval::win_percent);
    let points = a
        .plies
        .iter()
        .map(|p| GraphPoint {
            white_win: p.eval.win_percent(),
            mark: p.judged.advice.as_ref().map(|adv| mark(adv.judgement)),
        })
        .collect();
    (start, points)
}

/// Runs the `analyse` subcommand: prints the JSON to standard output.
///
/// # Errors
/// An unreadable file, or any error of [`analyse_pgn`]; `--json` missing.
pub fn run(args: &AnalyseArgs) -> anyhow::Result<()> {
    anyhow::ensure!(
        args.json || args.graph.is_some(),
        "say what to print: --json, --graph <PNG>, or both"
    );
    let text = std::fs::read_to_string(&args.pgn)
        .with_context(|| format!("cannot read {}", args.pgn.display()))?;
    let a = analyse_record(&text, args.rules, args.nodes)?;
    if let Some(path) = &args.graph {
        let (start, points) = graph_points(&a);
        let replay = makruk::pgn::read_pgn(&text)?.replay(args.rules)?;
        let png = eval_graph_png(start, &points, &count_starts(&replay.game))?;
        std::fs::write(path, png).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&AnalysisJson::from_analysis(&a))?
        );
    }
    Ok(())
}
