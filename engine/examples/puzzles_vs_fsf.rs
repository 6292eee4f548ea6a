//! The puzzles checked against Fairy-Stockfish (issue 24): does a stronger engine agree that
//! every solver move of a puzzle is the only good one?
//!
//! ```text
//! cargo run --release -p makruk-engine --example puzzles_vs_fsf -- puzzles/puzzles.jsonl.gz \
//!     [--engine /usr/games/fairy-stockfish] [--sample 300] [--seed 1] [--depth 16] [--verbose] \
//!     [--filter SOURCE]
//! ```
//!
//! Reads the puzzles (JSON lines, plain or gzipped), draws `--sample` of them at random
//! (seeded; all of them when the file has fewer), and for each solver move sends
//! Fairy-Stockfish (`UCI_Variant makruk`, 1 thread, 16 MB hash, `MultiPV 2`, `ucinewgame` per
//! puzzle) `position fen <fen> moves <the line before that move>` and `go depth <depth>`.
//! A puzzle *agrees* when at every solver move Fairy-Stockfish's best move is the solution's
//! and its second line is clearly worse by the generator's rule
//! ([`makruk_engine::puzzle::is_unique`] on Fairy-Stockfish's two scores: the best mates and
//! the second does not, or the best is at least 150 cp and 0.3 winning chances better); a
//! position with one legal move (no second line) is fine. Prints one line per disagreement
//! (`--verbose`: per puzzle), the totals per theme and per kind of source, and
//! `agree X / N (P%)`. `--filter TEXT` keeps only the puzzles whose source starts with TEXT.

use makruk::{Move, Position, Ruleset};
use makruk_engine::puzzle::{is_unique, BestTwo};
use makruk_engine::uci::parse_move;
use makruk_engine::Score;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

struct Args {
    file: String,
    engine: String,
    sample: usize,
    seed: u64,
    depth: u32,
    verbose: bool,
    filter: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        file: String::new(),
        engine: "/usr/games/fairy-stockfish".into(),
        sample: 300,
        seed: 1,
        depth: 16,
        verbose: false,
        filter: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut val = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--engine" => a.engine = val()?,
            "--sample" => a.sample = val()?.parse().map_err(|e| format!("--sample: {e}"))?,
            "--seed" => a.seed = val()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--depth" => a.depth = val()?.parse().map_err(|e| format!("--depth: {e}"))?,
            "--verbose" => a.verbose = true,
            "--filter" => a.filter = Some(val()?),
            f if !f.starts_with("--") => a.file = f.to_string(),
            _ => return Err(format!("unknown argument {flag}")),
        }
    }
    if a.file.is_empty() {
        return Err("usage: puzzles_vs_fsf FILE [--sample N] [--seed S] [--depth D]".into());
    }
    Ok(a)
}

struct Fsf {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Fsf {
    fn start(path: &str) -> Result<Fsf, String> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("{path}: {e}"))?;
        let input = child.stdin.take().ok_or("no stdin")?;
        let output = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        let mut f = Fsf {
            child,
            input,
            output,
        };
        f.send("uci")?;
        f.wait_for("uciok")?;
        for (name, value) in [
            ("UCI_Variant", "makruk"),
            ("Threads", "1"),
            ("Hash", "16"),
            ("MultiPV", "2"),
        ] {
            f.send(&format!("setoption name {name} value {value}"))?;
        }
        f.send("isready")?;
        f.wait_for("readyok")?;
        Ok(f)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}").map_err(|e| e.to_string())?;
        self.input.flush().map_err(|e| e.to_string())
    }

    fn read_line(&mut self) -> Result<String, String> {
        let mut line = String::new();
        if self
            .output
            .read_line(&mut line)
            .map_err(|e| e.to_string())?
            == 0
        {
            return Err("Fairy-Stockfish closed its output".into());
        }
        Ok(line.trim_end().to_string())
    }

    fn wait_for(&mut self, word: &str) -> Result<(), String> {
        while !self.read_line()?.starts_with(word) {}
        Ok(())
    }

    /// The last `multipv 1` and `multipv 2` lines' first move and score, and `bestmove`.
    fn go(&mut self, depth: u32) -> Result<Lines, String> {
        self.send(&format!("go depth {depth}"))?;
        let mut lines = Lines::default();
        loop {
            let line = self.read_line()?;
            if let Some(rest) = line.strip_prefix("bestmove ") {
                lines.bestmove = rest.split_whitespace().next().unwrap_or("").to_string();
                return Ok(lines);
            }
            let w: Vec<&str> = line.split_whitespace().collect();
            if w.first() != Some(&"info") {
                continue;
            }
            let at = |key: &str| w.iter().position(|x| *x == key);
            let (Some(s), Some(pv)) = (at("score"), at("pv")) else {
                continue;
            };
            let k = at("multipv").and_then(|i| w.get(i + 1)?.parse::<usize>().ok());
            let score = match (w.get(s + 1), w.get(s + 2).and_then(|v| v.parse().ok())) {
                (Some(&"cp"), Some(v)) => Score::Cp(v),
                (Some(&"mate"), Some(v)) => Score::Mate(v),
                _ => continue,
            };
            // A bound reported during an aspiration re-search is not a finished line.
            if w.get(s + 3)
                .is_some_and(|x| *x == "lowerbound" || *x == "upperbound")
            {
                continue;
            }
            let mv = w.get(pv + 1).unwrap_or(&"").to_string();
            match k.unwrap_or(1) {
                1 => lines.first = Some((mv, score)),
                2 => lines.second = Some((mv, score)),
                _ => {}
            }
        }
    }
}

impl Drop for Fsf {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

#[derive(Default)]
struct Lines {
    first: Option<(String, Score)>,
    second: Option<(String, Score)>,
    bestmove: String,
}

struct Puzzle {
    id: String,
    fen: String,
    moves: Vec<String>,
    themes: Vec<String>,
    source: String,
}

fn read_puzzles(path: &str) -> Result<Vec<Puzzle>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let reader: Box<dyn Read> = if path.ends_with(".gz") {
        Box::new(flate2::read::MultiGzDecoder::new(file))
    } else {
        Box::new(file)
    };
    let mut out = Vec::new();
    for line in BufReader::new(reader).lines() {
        let line = line.map_err(|e| e.to_string())?;
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(&line).map_err(|e| e.to_string())?;
        let strings = |key: &str| -> Vec<String> {
            v[key]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        };
        out.push(Puzzle {
            id: v["id"].as_str().unwrap_or("?").to_string(),
            fen: v["fen"].as_str().unwrap_or("").to_string(),
            moves: strings("moves"),
            themes: strings("themes"),
            source: v["source"].as_str().unwrap_or("?").to_string(),
        });
    }
    Ok(out)
}

/// Fairy-Stockfish's verdict at one solver move: `None` when it agrees, else why not.
fn judge(pos: &Position, solution: &str, lines: &Lines) -> Option<String> {
    let best = lines
        .first
        .as_ref()
        .map_or(lines.bestmove.as_str(), |f| f.0.as_str());
    if best != solution {
        return Some(format!(
            "best {best} {:?} (solution {solution}); second {:?}",
            lines.first.as_ref().map(|f| f.1),
            lines.second
        ));
    }
    let (Some((_, best_score)), Some((second, second_score))) = (&lines.first, &lines.second)
    else {
        return (pos.count_legal() > 1).then(|| "no second line".to_string());
    };
    let mv = |t: &str| parse_move(pos, t);
    let (Some(b), Some(s)) = (mv(best), mv(second)) else {
        return Some("unreadable move".into());
    };
    let bt = BestTwo {
        best: b,
        best_score: *best_score,
        second: Some((s, *second_score)),
    };
    (!is_unique(&bt)).then(|| {
        format!("best {best} {best_score:?}, second {second} {second_score:?}: not clearly worse")
    })
}

fn check(fsf: &mut Fsf, p: &Puzzle, depth: u32) -> Result<Option<String>, String> {
    let mut pos = Position::from_fen(&p.fen, Ruleset::Standard).map_err(|e| e.to_string())?;
    fsf.send("ucinewgame")?;
    let mut played: Vec<&str> = Vec::new();
    for (i, text) in p.moves.iter().enumerate() {
        if i % 2 == 0 {
            let cmd = if played.is_empty() {
                format!("position fen {}", p.fen)
            } else {
                format!("position fen {} moves {}", p.fen, played.join(" "))
            };
            fsf.send(&cmd)?;
            let lines = fsf.go(depth)?;
            if let Some(why) = judge(&pos, text, &lines) {
                return Ok(Some(format!("solver move {}: {why}", i / 2 + 1)));
            }
        }
        let m: Move = parse_move(&pos, text).ok_or(format!("{}: illegal {text}", p.id))?;
        pos.play_unchecked(&m);
        played.push(text);
    }
    Ok(None)
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let mut puzzles = match read_puzzles(&args.file) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    if let Some(f) = &args.filter {
        puzzles.retain(|p| p.source.starts_with(f.as_str()));
    }
    puzzles.shuffle(&mut StdRng::seed_from_u64(args.seed));
    puzzles.truncate(args.sample);
    let mut fsf = match Fsf::start(&args.engine) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let mut agree = 0;
    let mut by_theme: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for p in &puzzles {
        let verdict = match check(&mut fsf, p, args.depth) {
            Ok(v) => v,
            Err(e) => Some(format!("error: {e}")),
        };
        let ok = verdict.is_none();
        agree += usize::from(ok);
        let kind = p.source.split(':').next().unwrap_or("?");
        for t in p.themes.iter().chain([&format!("source {kind}")]) {
            let e = by_theme.entry(t.clone()).or_default();
            e.0 += usize::from(ok);
            e.1 += 1;
        }
        match verdict {
            Some(why) => println!(
                "disagree {} [{}] {} {}: {why}",
                p.id,
                p.themes.join(","),
                p.fen,
                p.moves.join(" ")
            ),
            None if args.verbose => println!("agree {} [{}]", p.id, p.themes.join(",")),
            None => {}
        }
    }
    for (t, (a, n)) in &by_theme {
        println!("{t}: {a} / {n}");
    }
    let n = puzzles.len();
    let pct = if n == 0 {
        0.0
    } else {
        100.0 * agree as f64 / n as f64
    };
    println!("agree {agree} / {n} ({pct:.1}%)");
}
