//! Our game analysis ([`makruk_engine::analysis`]) against the same judging of
//! Fairy-Stockfish's evals, game by game.
//!
//! ```text
//! cargo run --release -p makruk-engine --example analysis_vs_fsf -- \
//!     [--nodes N] [--fsf-depth 16] [--fsf /usr/games/fairy-stockfish] [--no-fsf] \
//!     [--ruleset standard] [--games N] [--fsf-cache FILE] [--verbose] FILE...
//! ```
//!
//! Each FILE is PGN (one or more games, e.g. `rules/tests/data/playok/*.pgn`) or JSON lines
//! (`.jsonl`, or `.jsonl.gz` read through `gzip -dc`: `start`, `moves` and, for
//! `traditional`, `events` of rules/tests/data/README.md). Every game is analysed by
//! `analysis::analyse` (one engine, 16 MB) with `--nodes` per position; Fairy-Stockfish
//! (`UCI_Variant makruk`, one thread, 16 MB) searches the same positions with `go depth
//! --fsf-depth`, each with the game's moves from its start (so it sees the repetitions),
//! and its evals go through the same bias removal and judging (`analysis::judge_game`).
//! Fairy-Stockfish plays its own (`standard`) counting; games are replayed under
//! `--ruleset` (default `standard`) up to their first end by the rules.
//!
//! Prints one line per game, then: the share of Fairy-Stockfish's blunders that ours marks a
//! mistake or blunder, the share of our blunders that Fairy-Stockfish marks at least an
//! inaccuracy, the mean |accuracy difference| per side, and CPU time per game of each
//! (user + system time of each process from /proc, 10 ms resolution). `--no-fsf` times our
//! analysis alone. `--fsf-cache FILE` keeps Fairy-Stockfish's answers (and its time per
//! game) in FILE and reuses them on the next run with the same games and depth (its search
//! is deterministic: one thread, `ucinewgame` before each game), to try our node budgets
//! quickly. `--verbose` prints every ply where the two judgements disagree.

use makruk::pgn::read_pgns;
use makruk::{Color, CountAction, Game, Position, Ruleset};
use makruk_engine::analysis::{
    analyse, judge_game, Analysis, Eval, Judged, Judgement, PlyEval, DEFAULT_NODES,
};
use makruk_engine::uci::{move_to_uci, parse_move};
use makruk_engine::Engine;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

struct Args {
    nodes: u64,
    fsf_depth: u32,
    fsf: Option<String>,
    ruleset: Ruleset,
    games: Option<usize>,
    cache: Option<String>,
    verbose: bool,
    files: Vec<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        nodes: DEFAULT_NODES,
        fsf_depth: 16,
        fsf: Some("/usr/games/fairy-stockfish".to_string()),
        ruleset: Ruleset::Standard,
        games: None,
        cache: None,
        verbose: false,
        files: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut val = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--nodes" => a.nodes = val()?.parse().map_err(|e| format!("--nodes: {e}"))?,
            "--fsf-depth" => {
                a.fsf_depth = val()?.parse().map_err(|e| format!("--fsf-depth: {e}"))?;
            }
            "--fsf" => a.fsf = Some(val()?),
            "--no-fsf" => a.fsf = None,
            "--ruleset" => a.ruleset = val()?.parse().map_err(|e| format!("{e}"))?,
            "--games" => a.games = Some(val()?.parse().map_err(|e| format!("--games: {e}"))?),
            "--fsf-cache" => a.cache = Some(val()?),
            "--verbose" => a.verbose = true,
            f if f.starts_with("--") => return Err(format!("unknown flag {f}")),
            f => a.files.push(f.to_string()),
        }
    }
    if a.files.is_empty() {
        return Err("no game file given".into());
    }
    Ok(a)
}

/// The games of one file, named.
fn read_games(path: &str, ruleset: Ruleset) -> Result<Vec<(String, Game)>, String> {
    let text = if path.ends_with(".gz") {
        let out = Command::new("gzip")
            .args(["-dc", path])
            .output()
            .map_err(|e| format!("gzip: {e}"))?;
        String::from_utf8(out.stdout).map_err(|e| format!("{path}: {e}"))?
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?
    };
    let name = path.rsplit('/').next().unwrap_or(path);
    if path.contains(".jsonl") {
        return text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| json_game(l, ruleset))
            .collect();
    }
    let pgns = read_pgns(&text).map_err(|e| format!("{path}: {e}"))?;
    pgns.iter()
        .enumerate()
        .map(|(i, g)| {
            let r = g.replay(ruleset).map_err(|e| format!("{path}: {e}"))?;
            Ok((format!("{name}#{}", i + 1), r.game))
        })
        .collect()
}

/// The string after `"key": "` in `line` (no escapes in these files).
fn json_str<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let at = line.find(&format!("\"{key}\""))?;
    let rest = &line[at + key.len() + 2..];
    let rest = &rest[rest.find('"')? + 1..];
    Some(&rest[..rest.find('"')?])
}

/// The text between the `[` after `"key":` and its `]`.
fn json_list<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let at = line.find(&format!("\"{key}\""))?;
    let rest = &line[at..];
    let open = rest.find('[')?;
    let close = rest.find(']')?;
    Some(&rest[open + 1..close])
}

fn json_game(line: &str, ruleset: Ruleset) -> Result<(String, Game), String> {
    let id = json_str(line, "id").unwrap_or("?").to_string();
    let start = json_str(line, "start").ok_or("no start")?;
    let pos = Position::from_fen(start, ruleset).map_err(|e| format!("{id}: {e}"))?;
    let moves: Vec<&str> = json_list(line, "moves")
        .ok_or("no moves")?
        .split('"')
        .skip(1)
        .step_by(2)
        .collect();
    // Events: {"ply": 10, "action": "start"}, ...
    let mut events: Vec<(usize, CountAction)> = Vec::new();
    if let Some(list) = json_list(line, "events") {
        for obj in list.split('}') {
            let ply = obj
                .split("\"ply\":")
                .nth(1)
                .and_then(|s| s.split(',').next())
                .and_then(|s| s.trim().parse().ok());
            let action = if obj.contains("\"start\"") {
                Some(CountAction::Start)
            } else if obj.contains("\"stop\"") {
                Some(CountAction::Stop)
            } else {
                None
            };
            if let (Some(p), Some(a)) = (ply, action) {
                events.push((p, a));
            }
        }
    }
    let mut game = Game::from_position(pos);
    for (i, text) in moves.iter().enumerate() {
        for &(_, a) in events.iter().filter(|e| e.0 == i) {
            let _ = match a {
                CountAction::Start => game.start_count(),
                CountAction::Stop => game.stop_count(),
            };
        }
        if game.outcome().is_some() {
            break;
        }
        let m = parse_move(game.position(), text).ok_or(format!("{id}: bad move {text}"))?;
        game.play(&m).map_err(|e| format!("{id}: {e}"))?;
    }
    Ok((id, game))
}

/// CPU time (user + system) of process `pid` in seconds, from /proc (clock ticks of 10 ms).
fn cpu_seconds(pid: &str) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

struct Fsf {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Fsf {
    fn start(path: &str) -> std::io::Result<Fsf> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        let mut f = Fsf {
            child,
            stdin,
            stdout,
        };
        f.send("uci")?;
        f.wait_for("uciok")?;
        f.send("setoption name UCI_Variant value makruk")?;
        f.send("setoption name Threads value 1")?;
        f.send("setoption name Hash value 16")?;
        f.send("isready")?;
        f.wait_for("readyok")?;
        Ok(f)
    }

    fn send(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.stdin, "{line}")?;
        self.stdin.flush()
    }

    fn wait_for(&mut self, prefix: &str) -> std::io::Result<String> {
        let mut line = String::new();
        loop {
            line.clear();
            if self.stdout.read_line(&mut line)? == 0 {
                return Err(std::io::Error::other("engine closed its output"));
            }
            if line.starts_with(prefix) {
                return Ok(line.trim().to_string());
            }
        }
    }

    fn new_game(&mut self) -> std::io::Result<()> {
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.wait_for("readyok").map(|_| ())
    }

    /// Searches the position after `moves` of `game` to `depth`: (eval for White, best move).
    fn search(&mut self, game: &Game, moves: usize, depth: u32) -> std::io::Result<(Eval, String)> {
        let ucis: Vec<String> = game.moves()[..moves].iter().map(move_to_uci).collect();
        let fen = game.start().fen();
        if ucis.is_empty() {
            self.send(&format!("position fen {fen}"))?;
        } else {
            self.send(&format!("position fen {fen} moves {}", ucis.join(" ")))?;
        }
        self.send(&format!("go depth {depth}"))?;
        let mut score = makruk_engine::Score::Cp(0);
        let mut line = String::new();
        loop {
            line.clear();
            if self.stdout.read_line(&mut line)? == 0 {
                return Err(std::io::Error::other("engine closed its output"));
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.first() == Some(&"bestmove") {
                let best = words.get(1).unwrap_or(&"(none)").to_string();
                let turn = game.positions()[moves].turn();
                return Ok((Eval::from_score(score, turn), best));
            }
            if words.first() == Some(&"info")
                && !line.contains("lowerbound")
                && !line.contains("upperbound")
            {
                if let Some(i) = words.iter().position(|w| *w == "score") {
                    let v: Option<i32> = words.get(i + 2).and_then(|s| s.parse().ok());
                    match (words.get(i + 1), v) {
                        (Some(&"cp"), Some(v)) => score = makruk_engine::Score::Cp(v),
                        (Some(&"mate"), Some(v)) if v != 0 => score = makruk_engine::Score::Mate(v),
                        _ => {}
                    }
                }
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

/// The first `n` moves of `game`, with its count requests.
fn prefix(game: &Game, n: usize) -> Game {
    let mut g = Game::from_position(game.start().clone());
    for (i, m) in game.moves()[..n].iter().enumerate() {
        for e in game.events().iter().filter(|e| e.ply as usize == i) {
            let _ = match e.action {
                CountAction::Start => g.start_count(),
                CountAction::Stop => g.stop_count(),
            };
        }
        g.play_on(m).expect("the game's own move");
    }
    g
}

/// Fairy-Stockfish's answers kept from earlier runs: `(game, depth, position index)` →
/// (eval, best move), and `(game, depth)` → CPU seconds for the game.
#[derive(Default)]
struct Cache {
    path: Option<String>,
    answers: HashMap<(String, u32, usize), (Eval, String)>,
    seconds: HashMap<(String, u32), f64>,
}

impl Cache {
    /// Lines `a <game> <depth> <k> cp|mate <n> <best>` and `t <game> <depth> <seconds>`.
    fn load(path: Option<String>) -> Cache {
        let mut c = Cache {
            path,
            ..Cache::default()
        };
        let Some(p) = &c.path else { return c };
        let text = std::fs::read_to_string(p).unwrap_or_default();
        for line in text.lines() {
            let w: Vec<&str> = line.split('\t').collect();
            match w.as_slice() {
                ["a", g, d, k, kind, n, best] => {
                    let (Ok(d), Ok(k), Ok(n)) = (d.parse(), k.parse(), n.parse::<i32>()) else {
                        continue;
                    };
                    let e = if *kind == "mate" {
                        Eval::Mate(n)
                    } else {
                        Eval::Cp(n)
                    };
                    c.answers
                        .insert(((*g).to_string(), d, k), (e, (*best).to_string()));
                }
                ["t", g, d, secs] => {
                    if let (Ok(d), Ok(t)) = (d.parse(), secs.parse()) {
                        c.seconds.insert(((*g).to_string(), d), t);
                    }
                }
                _ => {}
            }
        }
        c
    }

    fn append(&self, line: &str) {
        if let Some(p) = &self.path {
            if let Ok(mut f) = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
            {
                let _ = writeln!(f, "{line}");
            }
        }
    }
}

/// Fairy-Stockfish's evals of the plies our analysis covered, judged, and its CPU seconds.
fn fsf_judged(
    fsf: &mut Option<Fsf>,
    cache: &mut Cache,
    name: &str,
    game: &Game,
    ours: &Analysis,
    depth: u32,
) -> std::io::Result<(Judged, f64)> {
    let n = ours.plies.len();
    let g = prefix(game, n);
    let last = if ours.end.is_some() { n - 1 } else { n };
    let cached = (0..=last).all(|k| cache.answers.contains_key(&(name.to_string(), depth, k)))
        && cache.seconds.contains_key(&(name.to_string(), depth));
    let mut secs = 0.0;
    if !cached {
        let fsf = fsf
            .as_mut()
            .ok_or_else(|| std::io::Error::other("no engine"))?;
        let pid = fsf.child.id().to_string();
        let t0 = cpu_seconds(&pid);
        fsf.new_game()?;
        for k in 0..=last {
            let (e, b) = fsf.search(&g, k, depth)?;
            let (kind, v) = match e {
                Eval::Mate(v) => ("mate", v),
                Eval::Cp(v) => ("cp", v),
                Eval::Checkmate { .. } => unreachable!("never searched"),
            };
            cache.append(&format!("a\t{name}\t{depth}\t{k}\t{kind}\t{v}\t{b}"));
            cache.answers.insert((name.to_string(), depth, k), (e, b));
        }
        secs = cpu_seconds(&pid) - t0;
        cache.append(&format!("t\t{name}\t{depth}\t{secs}"));
        cache.seconds.insert((name.to_string(), depth), secs);
    }
    let secs = cache
        .seconds
        .get(&(name.to_string(), depth))
        .copied()
        .unwrap_or(secs);
    let answer = |k: usize| &cache.answers[&(name.to_string(), depth, k)];
    let plies: Vec<PlyEval> = (0..n)
        .map(|k| PlyEval {
            before: answer(k).0,
            // The exact value where the game ended, else Fairy-Stockfish's.
            after: if k + 1 > last {
                ours.plies[k].eval
            } else {
                answer(k + 1).0
            },
            best: parse_move(&g.positions()[k], &answer(k).1),
        })
        .collect();
    Ok((judge_game(&g, &plies), secs))
}

fn fmt_acc(a: Option<f64>) -> String {
    a.map_or("-".into(), |a| format!("{a:.1}"))
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let mut games = Vec::new();
    for f in &args.files {
        match read_games(f, args.ruleset) {
            Ok(g) => games.extend(g),
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        }
    }
    if let Some(n) = args.games {
        games.truncate(n);
    }
    let mut fsf = args.fsf.as_deref().map(|p| {
        Fsf::start(p).unwrap_or_else(|e| {
            eprintln!("{p}: {e}");
            std::process::exit(1);
        })
    });
    let mut cache = Cache::load(args.cache.clone());
    let mut compared = false;
    let mut engine = Engine::new(16);
    let me = std::process::id().to_string();
    let (mut our_cpu, mut fsf_cpu, mut plies_total) = (0.0, 0.0, 0usize);
    // FSF blunders (ours >= mistake), our blunders (FSF >= inaccuracy).
    let (mut fsf_bl, mut fsf_bl_hit, mut our_bl, mut our_bl_hit) = (0u32, 0u32, 0u32, 0u32);
    let mut acc_diff: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    println!(
        "{:<24} {:>5} {:>7} {:>7}  {:>11} {:>11}  {:>9} {:>9}  {:>5} {:>5}",
        "game",
        "plies",
        "ours s",
        "fsf s",
        "acc ours",
        "acc fsf",
        "ib/m/b o",
        "ib/m/b f",
        "bias",
        "fbias"
    );
    for (name, game) in &games {
        let c0 = cpu_seconds(&me);
        let w0 = Instant::now();
        let ours = analyse(&mut engine, game, args.nodes, &mut |_| {});
        let ours_s = cpu_seconds(&me) - c0;
        let _wall = w0.elapsed();
        our_cpu += ours_s;
        plies_total += ours.plies.len();
        let cnt = |j: &makruk_engine::analysis::Summary| {
            let (w, b) = (j.counts.white, j.counts.black);
            format!(
                "{}/{}/{}",
                w.inaccuracies + b.inaccuracies,
                w.mistakes + b.mistakes,
                w.blunders + b.blunders
            )
        };
        if fsf.is_none() && cache.path.is_none() {
            println!(
                "{:<24} {:>5} {:>7.2} {:>7}  {:>5}/{:<5} {:>11}  {:>9} {:>9}  {:>5}",
                name,
                ours.plies.len(),
                ours_s,
                "-",
                fmt_acc(ours.summary.accuracy.white),
                fmt_acc(ours.summary.accuracy.black),
                "-",
                cnt(&ours.summary),
                "-",
                ours.summary.bias_cp
            );
            continue;
        }
        compared = true;
        let (theirs, fsf_s) =
            match fsf_judged(&mut fsf, &mut cache, name, game, &ours, args.fsf_depth) {
                Ok(j) => j,
                Err(e) => {
                    eprintln!("Fairy-Stockfish: {e}");
                    std::process::exit(1);
                }
            };
        fsf_cpu += fsf_s;
        for (o, t) in ours.plies.iter().zip(&theirs.plies) {
            let oj = o.judged.advice.map(|a| a.judgement);
            let tj = t.advice.map(|a| a.judgement);
            if tj == Some(Judgement::Blunder) {
                fsf_bl += 1;
                fsf_bl_hit += u32::from(oj >= Some(Judgement::Mistake));
            }
            if oj == Some(Judgement::Blunder) {
                our_bl += 1;
                our_bl_hit += u32::from(tj.is_some());
            }
            let disagree = (tj == Some(Judgement::Blunder) && oj < Some(Judgement::Mistake))
                || (oj == Some(Judgement::Blunder) && tj.is_none());
            if args.verbose && disagree {
                println!(
                    "  ply {:>3} {:<8} ours {:?} {:?} -> {:?} best {}  fsf {:?} {:?} -> {:?}",
                    o.ply,
                    o.san,
                    oj,
                    o.judged.before,
                    o.judged.after,
                    o.best_san.as_deref().unwrap_or("-"),
                    tj,
                    t.before,
                    t.after
                );
            }
        }
        for c in Color::ALL {
            if let (Some(a), Some(b)) =
                (ours.summary.accuracy.get(c), theirs.summary.accuracy.get(c))
            {
                acc_diff[c.index()].push((a - b).abs());
            }
        }
        println!(
            "{:<24} {:>5} {:>7.2} {:>7.2}  {:>5}/{:<5} {:>5}/{:<5}  {:>9} {:>9}  {:>5} {:>5}",
            name,
            ours.plies.len(),
            ours_s,
            fsf_s,
            fmt_acc(ours.summary.accuracy.white),
            fmt_acc(ours.summary.accuracy.black),
            fmt_acc(theirs.summary.accuracy.white),
            fmt_acc(theirs.summary.accuracy.black),
            cnt(&ours.summary),
            cnt(&theirs.summary),
            ours.summary.bias_cp,
            theirs.summary.bias_cp
        );
    }
    let n = games.len().max(1) as f64;
    println!();
    println!(
        "{} games, {} plies; ours {} nodes a position: {:.2} s CPU a game, {:.1} ms a ply, {:.2} s per 100 plies",
        games.len(),
        plies_total,
        args.nodes,
        our_cpu / n,
        1000.0 * our_cpu / plies_total.max(1) as f64,
        100.0 * our_cpu / plies_total.max(1) as f64
    );
    if compared {
        let share = |hit: u32, all: u32| {
            if all == 0 {
                "-".to_string()
            } else {
                format!(
                    "{:.0}% ({hit}/{all})",
                    100.0 * f64::from(hit) / f64::from(all)
                )
            }
        };
        let mean = |v: &Vec<f64>| v.iter().sum::<f64>() / v.len().max(1) as f64;
        println!(
            "Fairy-Stockfish depth {}: {:.2} s CPU a game",
            args.fsf_depth,
            fsf_cpu / n
        );
        println!(
            "FSF's blunders that ours marks mistake or blunder: {}",
            share(fsf_bl_hit, fsf_bl)
        );
        println!(
            "our blunders that FSF marks at least an inaccuracy: {}",
            share(our_bl_hit, our_bl)
        );
        println!(
            "mean |accuracy difference|: White {:.1}, Black {:.1}",
            mean(&acc_diff[0]),
            mean(&acc_diff[1])
        );
        println!("our time / FSF's time: {:.2}", our_cpu / fsf_cpu.max(1e-9));
    }
}
