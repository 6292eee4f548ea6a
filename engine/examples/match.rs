//! A match between this engine (in-process) and any UCI engine speaking Makruk or another
//! variant of its family, e.g. Fairy-Stockfish, refereed by the rules crate (under `standard`
//! in Makruk, by the variant's own rules otherwise; a game ends as `Game::outcome` says; 400
//! plies without an end are scored a draw).
//!
//! ```text
//! cargo run --release -p makruk-engine --example match -- --engine /usr/games/fairy-stockfish \
//!     [--engine-option "Skill Level=3"]... [--opponent-level N] [--level N] [--movetime 100] \
//!     [--nodes N] [--games N] [--skip N] [--openings engine/openings.txt] [--pgn out.pgn] \
//!     [--variant makruk|makpong|cambodian|asean|sittuyin] [--seed N] [--no-network]
//! ```
//!
//! Our side at full strength (level 8, or `--nodes`) evaluates with the network as level 8
//! does; `--no-network` makes it use the hand-written evaluation instead (then level 8 is
//! its plain search of `--movetime`, as `choose_move` plays it).
//!
//! `--variant` (default `makruk`) sets the opponent's `UCI_Variant` and plays that variant.
//! The openings file is Makruk's: in the other variants each pair of games starts instead from
//! the variant's start position after 2 to 4 plies chosen at random among the legal moves (by
//! a generator seeded with `--seed`, default 1, and the pair's number, so a match is
//! reproducible; Sittuyin's placement drops count as plies); `--games` defaults to 20 there.
//!
//! Every opening is played twice, colours swapped; `--games` caps the number of games and
//! `--skip` starts later in that sequence (to split a match over processes). In Makruk,
//! `--games` beyond twice the openings goes round them again, each later round's pair
//! starting after 2 plies chosen at random from the opening (seeded by `--seed`, the round and
//! the pair), so that node-limited matches, which would repeat their games, stay new. Our side plays
//! `--level` (default 8) with `--movetime` ms a move. `--nodes N` gives both sides a node
//! budget instead (`go nodes N`, our side at full strength): a test that the machine's load
//! does not change, for self-play against an earlier build of `makruk-uci`. `--opponent-level N` makes
//! the opponent pychess's level N (Fairy-Stockfish `Skill Level`, `go movetime` and depth cap
//! of pychess's ladder, see `makruk_engine::Level`); otherwise the opponent thinks
//! `--movetime` ms a move. Prints each result, then W-D-L, the score and an Elo difference
//! with a 95% error bar. A game in which the opponent plays a move the rules crate rejects is
//! void: printed, counted apart, left out of the score.

mod common;

use makruk::{Color, Game, Move, Outcome, Position, Ruleset, Variant};
use makruk_engine::uci::{move_to_uci_in, parse_move};
use makruk_engine::{choose_move, Engine, Level, Limits};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// pychess's ladder for levels 0..=8: Fairy-Stockfish Skill Level, movetime (ms), depth.
const PYCHESS: [(i32, u64, u32); 9] = [
    (-4, 50, 1),
    (0, 50, 1),
    (3, 100, 1),
    (6, 150, 2),
    (10, 200, 3),
    (14, 300, 5),
    (16, 400, 8),
    (18, 500, 13),
    (20, 1000, 22),
];

const MAX_PLIES: usize = 400;

/// The result of a game left out of the score: the opponent played a move the rules crate
/// calls illegal (a disagreement on the rules, e.g. an older Fairy-Stockfish in Ouk
/// Chaktrang), so the game says nothing about strength.
const VOID: f64 = -1.0;

struct Args {
    engine: String,
    options: Vec<(String, String)>,
    opponent_level: Option<usize>,
    level: Level,
    movetime: u64,
    nodes: Option<u64>,
    games: Option<usize>,
    skip: usize,
    openings: String,
    pgn: Option<String>,
    variant: Variant,
    seed: u64,
    no_network: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        engine: String::new(),
        options: Vec::new(),
        opponent_level: None,
        level: Level::MAX,
        movetime: 100,
        nodes: None,
        games: None,
        skip: 0,
        openings: concat!(env!("CARGO_MANIFEST_DIR"), "/openings.txt").to_string(),
        pgn: None,
        variant: Variant::Makruk,
        seed: 1,
        no_network: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut val = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--engine" => a.engine = val()?,
            "--engine-option" => {
                let v = val()?;
                let (n, x) = v
                    .split_once('=')
                    .ok_or("--engine-option takes Name=Value")?;
                a.options.push((n.trim().to_string(), x.trim().to_string()));
            }
            "--opponent-level" => {
                let n: usize = val()?.parse().map_err(|_| "bad --opponent-level")?;
                if n > 8 {
                    return Err("--opponent-level is 0 to 8".into());
                }
                a.opponent_level = Some(n);
            }
            "--level" => {
                let n: u8 = val()?.parse().map_err(|_| "bad --level")?;
                a.level = Level::new(n).ok_or("--level is 1 to 8")?;
            }
            "--movetime" => a.movetime = val()?.parse().map_err(|_| "bad --movetime")?,
            "--nodes" => a.nodes = Some(val()?.parse().map_err(|_| "bad --nodes")?),
            "--games" => a.games = Some(val()?.parse().map_err(|_| "bad --games")?),
            "--skip" => a.skip = val()?.parse().map_err(|_| "bad --skip")?,
            "--openings" => a.openings = val()?,
            "--pgn" => a.pgn = Some(val()?),
            "--variant" => a.variant = val()?.parse().map_err(|e| format!("{e}"))?,
            "--seed" => a.seed = val()?.parse().map_err(|_| "bad --seed")?,
            "--no-network" => a.no_network = true,
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    if a.engine.is_empty() {
        return Err("--engine <path> is required".into());
    }
    Ok(a)
}

struct Uci {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Uci {
    fn start(path: &str, options: &[(String, String)], variant: Variant) -> std::io::Result<Uci> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdin = child.stdin.take().ok_or(std::io::ErrorKind::BrokenPipe)?;
        let stdout = BufReader::new(child.stdout.take().ok_or(std::io::ErrorKind::BrokenPipe)?);
        let mut u = Uci {
            child,
            stdin,
            stdout,
        };
        u.send("uci")?;
        u.wait_for("uciok")?;
        u.send(&format!("setoption name UCI_Variant value {variant}"))?;
        for (n, v) in options {
            u.send(&format!("setoption name {n} value {v}"))?;
        }
        u.send("isready")?;
        u.wait_for("readyok")?;
        Ok(u)
    }

    fn send(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.stdin, "{line}")?;
        self.stdin.flush()
    }

    /// Reads lines until one starts with `prefix`; returns it.
    fn wait_for(&mut self, prefix: &str) -> std::io::Result<String> {
        let mut line = String::new();
        loop {
            line.clear();
            if self.stdout.read_line(&mut line)? == 0 {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
            if line.starts_with(prefix) {
                return Ok(line.trim().to_string());
            }
        }
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

/// Plays one game; returns the result from our side: 1.0, 0.5 or 0.0, and the game.
fn play(
    a: &Args,
    engine: &mut Engine,
    opp: &mut Uci,
    fen: &str,
    opening: &[Move],
    ours: Color,
    rng: &mut impl rand::Rng,
) -> Result<(f64, Game, &'static str), String> {
    let start = if a.variant == Variant::Makruk {
        Position::from_fen(fen, Ruleset::Standard)
    } else {
        Position::from_fen_variant(fen, a.variant)
    }
    .map_err(|e| format!("{fen}: {e}"))?;
    let mut game = Game::from_position(start);
    for m in opening {
        game.play(m).map_err(|e| format!("opening: {e}"))?;
    }
    engine.new_game();
    opp.send("ucinewgame").map_err(|e| e.to_string())?;
    let go = match (a.nodes, a.opponent_level) {
        (Some(n), _) => format!("go nodes {n}"),
        (None, Some(n)) => {
            let (_, ms, d) = PYCHESS[n];
            format!("go movetime {ms} depth {d}")
        }
        (None, None) => format!("go movetime {}", a.movetime),
    };
    let stop = AtomicBool::new(false);
    loop {
        if let Some(o) = game.outcome() {
            let r = match o {
                Outcome::Decisive { winner, .. } if winner == ours => 1.0,
                Outcome::Decisive { .. } => 0.0,
                Outcome::Draw { .. } => 0.5,
            };
            return Ok((r, game, "rules"));
        }
        if game.moves().len() >= MAX_PLIES {
            return Ok((0.5, game, "adjudicated"));
        }
        let pos = game.position().clone();
        let full = a.nodes.is_some() || (a.no_network && a.level == Level::MAX);
        let m = if pos.turn() == ours && full {
            // Level 8 is a plain search of its budget; here with or without the network.
            let limits = match a.nodes {
                Some(n) => Limits {
                    nodes: Some(n),
                    ..Limits::default()
                },
                None => Level::MAX.limits(Duration::from_millis(a.movetime)),
            };
            engine
                .search(&game, &limits, &stop, &mut |_| {})
                .best
                .ok_or("no move from our engine")?
        } else if pos.turn() == ours {
            choose_move(
                engine,
                &game,
                a.level,
                Duration::from_millis(a.movetime),
                &stop,
                rng,
            )
            .ok_or("no move from our engine")?
        } else {
            let moves: Vec<String> = game
                .moves()
                .iter()
                .map(|m| move_to_uci_in(m, a.variant))
                .collect();
            let cmd = if moves.is_empty() {
                format!("position fen {fen}")
            } else {
                format!("position fen {fen} moves {}", moves.join(" "))
            };
            opp.send(&cmd).map_err(|e| e.to_string())?;
            opp.send(&go).map_err(|e| e.to_string())?;
            let line = opp.wait_for("bestmove").map_err(|e| e.to_string())?;
            let text = line.split_whitespace().nth(1).unwrap_or("");
            match parse_move(&pos, text) {
                Some(m) => m,
                None => {
                    eprintln!("opponent played illegal {text:?} in {}", pos.fen());
                    return Ok((VOID, game, "opponent illegal move"));
                }
            }
        };
        game.play(&m).map_err(|e| format!("{e} in {}", pos.fen()))?;
    }
}

fn main() {
    let a = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("match: {e}");
            std::process::exit(2);
        }
    };
    let mut options = a.options.clone();
    if let Some(n) = a.opponent_level {
        options.push(("Skill Level".into(), PYCHESS[n].0.to_string()));
    }
    let openings: Vec<String> = match std::fs::read_to_string(&a.openings) {
        _ if a.variant != Variant::Makruk => {
            let pairs = a.games.map_or(10, |g| (a.skip + g).div_ceil(2));
            vec![a.variant.start_fen().to_string(); pairs]
        }
        Ok(t) => t
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(String::from)
            .collect(),
        Err(e) => {
            eprintln!("match: {}: {e}", a.openings);
            std::process::exit(2);
        }
    };
    let mut opp = match Uci::start(&a.engine, &options, a.variant) {
        Ok(u) => u,
        Err(e) => {
            eprintln!("match: cannot start {}: {e}", a.engine);
            std::process::exit(2);
        }
    };
    let mut engine = Engine::new(64);
    // Our side at full strength evaluates with the network, as level 8 does.
    engine.set_network(!a.no_network);
    let mut rng = rand::rng();
    let rounds_cap = if a.variant == Variant::Makruk { 20 } else { 1 };
    let total = a
        .games
        .map_or(2 * openings.len(), |g| a.skip.saturating_add(g))
        .min(2 * openings.len() * rounds_cap);
    let (mut w, mut d, mut l) = (0u32, 0u32, 0u32);
    let mut void = 0u32;
    let mut pgn = String::new();
    for i in a.skip..total {
        let fen = &openings[(i / 2) % openings.len()];
        let round = i / (2 * openings.len());
        let opening = if round == 0 {
            random_opening(a.variant, a.seed, i / 2)
        } else {
            random_plies(fen, a.seed, i / 2)
        };
        let ours = if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        match play(&a, &mut engine, &mut opp, fen, &opening, ours, &mut rng) {
            Ok((r, game, why)) => {
                if r == VOID {
                    void += 1;
                } else if r == 1.0 {
                    w += 1;
                } else if r == 0.0 {
                    l += 1;
                } else {
                    d += 1;
                }
                println!(
                    "game {:3} opening {:2} as {:5}: {} ({} plies, {why}: {:?})  W-D-L {w}-{d}-{l}",
                    i + 1,
                    i / 2 + 1,
                    ours.name(),
                    r,
                    game.moves().len(),
                    game.outcome()
                );
                if a.pgn.is_some() {
                    let (white, black) = match ours {
                        Color::White => ("makruk-engine", "opponent"),
                        Color::Black => ("opponent", "makruk-engine"),
                    };
                    let tags = makruk::pgn::PgnTags {
                        event: "makruk-engine match".into(),
                        round: (i + 1).to_string(),
                        white: white.into(),
                        black: black.into(),
                        result: (why == "adjudicated").then(|| "1/2-1/2".to_string()),
                        ..makruk::pgn::PgnTags::default()
                    };
                    pgn.push_str(&makruk::pgn::write_pgn(&game, &tags));
                    pgn.push('\n');
                }
            }
            Err(e) => {
                eprintln!("match: game {} aborted: {e}", i + 1);
                break;
            }
        }
    }
    if let Some(path) = &a.pgn {
        if let Err(e) = std::fs::write(path, pgn) {
            eprintln!("match: cannot write {path}: {e}");
        }
    }
    if void > 0 {
        println!("{void} game(s) void: the opponent played a move our rules crate rejects");
    }
    report(w, d, l);
}

/// The opening of pair `pair` in `variant`: none in Makruk (its openings file), otherwise 2 to
/// 4 plies from the start position, chosen at random among the legal moves by a generator
/// seeded with `seed` and `pair`.
fn random_opening(variant: Variant, seed: u64, pair: usize) -> Vec<Move> {
    if variant == Variant::Makruk {
        return Vec::new();
    }
    let mut rng = StdRng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ pair as u64);
    let plies = rng.random_range(2..=4);
    let mut game = Game::from_position(Position::start_variant(variant, Ruleset::Standard));
    common::play_random(&mut game, plies, &mut rng)
}

/// W-D-L, score and Elo difference with a 95% error bar (normal approximation of the
/// per-game score).
fn report(w: u32, d: u32, l: u32) {
    let n = f64::from(w + d + l);
    if n == 0.0 {
        println!("no games");
        return;
    }
    let score = (f64::from(w) + 0.5 * f64::from(d)) / n;
    let var = (f64::from(w) * (1.0 - score).powi(2)
        + f64::from(d) * (0.5 - score).powi(2)
        + f64::from(l) * score.powi(2))
        / n;
    let margin = 1.96 * (var / n).sqrt();
    let elo = |p: f64| -400.0 * (1.0 / p.clamp(1e-3, 1.0 - 1e-3) - 1.0).log10();
    println!(
        "W-D-L {w}-{d}-{l}  score {:.1}%  Elo {:+.0} (95%: {:+.0} .. {:+.0})",
        100.0 * score,
        elo(score),
        elo(score - margin),
        elo(score + margin)
    );
}

/// Two plies chosen at random from the Makruk position `fen` (a later round of the openings),
/// seeded with `seed` and `pair`.
fn random_plies(fen: &str, seed: u64, pair: usize) -> Vec<Move> {
    let Ok(start) = Position::from_fen(fen, Ruleset::Standard) else {
        return Vec::new();
    };
    let mut rng = StdRng::seed_from_u64(seed.wrapping_mul(0xD1B5_4A32_D192_ED03) ^ pair as u64);
    common::play_random(&mut Game::from_position(start), 2, &mut rng)
}
