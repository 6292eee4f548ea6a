//! The Texel tuner's data (issue 27): positions of Makruk games of our engine against itself,
//! each labelled with the game's result, written as `FEN;result;score` lines (from White's
//! side: the result `1`, `0.5` or `0`, and the search's score in centipawns).
//!
//! ```text
//! cargo run --release -p makruk-engine --example texel_data -- --out data.txt \
//!     [--games 3000] [--nodes 4000] [--seed 1] [--random-plies 6] [--network] [--fsf PATH]
//! cargo run --release -p makruk-engine --example texel_data -- --relabel IN --out data.txt \
//!     [--nodes 4000] [--part K/N] [--network]
//! ```
//!
//! With `--relabel IN` no games are played: each line of IN (a file of this program's
//! `FEN;result;score` lines, read through gzip when its name ends in `.gz`) is searched
//! again by ours at `--nodes` and written with the new
//! score and its old result (labels from a deeper search); `--part K/N` takes only lines
//! K, K + N, K + 2N, ... (from 0), so that N processes share a file. The table is kept from one
//! line to the next (a file's lines run through its games in order); a line whose new score
//! is a mate, whose position has no legal move, or that does not parse is left out. Each
//! position is searched from its FEN alone (no earlier positions for repetitions), and the
//! quietness test below is not made again. `--games`, `--seed`, `--random-plies` and `--fsf`
//! do not apply.
//!
//! With `--fsf PATH` both sides are that UCI engine (Fairy-Stockfish: `go nodes N`, its score
//! read from its last `info`) instead of ours. With `--network` ours evaluates with the
//! network (`Engine::set_network`, level 8's evaluation) instead of the hand-written terms.
//!
//! Game n starts from position n mod 50 of engine/openings.txt, then 0..=`--random-plies`
//! plies chosen at random (so that games from one opening differ), then both sides search
//! `--nodes` nodes a move (machine-independent: the same seed gives the same file), under
//! `standard` (the count, the rules' draws); a game still running after 300 plies is a draw.
//! A position is kept when it is quiet enough for a static evaluation: the side to move is
//! not in check, the search's move is neither a capture nor a promotion, its score is not a
//! mate, and no count runs (the count's own scaling is not tuned). Progress goes to stderr.

mod common;

use makruk::{Color, Game, Outcome};
use makruk_engine::uci::{move_to_uci, parse_move};
use makruk_engine::{Engine, Limits, Score};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::AtomicBool;

const MAX_PLIES: usize = 300;

/// A UCI engine playing both sides.
struct Uci {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Uci {
    fn start(path: &str) -> Uci {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut u = Uci {
            child,
            stdin,
            stdout,
        };
        u.send("uci");
        u.read_until("uciok");
        u.send("setoption name UCI_Variant value makruk");
        u.send("isready");
        u.read_until("readyok");
        u
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write to the engine");
        self.stdin.flush().expect("flush");
    }

    fn read_until(&mut self, prefix: &str) -> (String, Option<Score>) {
        let mut score = None;
        loop {
            let mut line = String::new();
            if self.stdout.read_line(&mut line).expect("read") == 0 {
                panic!("the engine quit");
            }
            let w: Vec<&str> = line.split_whitespace().collect();
            if let Some(i) = w.iter().position(|&x| x == "score") {
                match (w.get(i + 1), w.get(i + 2).and_then(|v| v.parse().ok())) {
                    (Some(&"cp"), Some(v)) => score = Some(Score::Cp(v)),
                    (Some(&"mate"), Some(v)) => score = Some(Score::Mate(v)),
                    _ => {}
                }
            }
            if line.starts_with(prefix) {
                return (line, score);
            }
        }
    }

    /// The engine's move and score in `g`'s current position.
    fn best(&mut self, g: &Game, nodes: u64) -> Option<(makruk::Move, Score)> {
        let moves: Vec<String> = g.moves().iter().map(move_to_uci).collect();
        let start = g.start().fen();
        if moves.is_empty() {
            self.send(&format!("position fen {start}"));
        } else {
            self.send(&format!("position fen {start} moves {}", moves.join(" ")));
        }
        self.send(&format!("go nodes {nodes}"));
        let (line, score) = self.read_until("bestmove");
        let m = parse_move(g.position(), line.split_whitespace().nth(1)?)?;
        Some((m, score.unwrap_or(Score::Cp(0))))
    }
}

fn main() {
    let mut out = None;
    let mut games = 3000usize;
    let mut nodes = 4000u64;
    let mut seed = 1u64;
    let mut random_plies = 6usize;
    let mut fsf = None;
    let mut network = false;
    let mut relabel = None;
    let mut part = (0usize, 1usize);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--out" => out = Some(val()),
            "--games" => games = val().parse().expect("--games N"),
            "--nodes" => nodes = val().parse().expect("--nodes N"),
            "--seed" => seed = val().parse().expect("--seed N"),
            "--random-plies" => random_plies = val().parse().expect("--random-plies N"),
            "--fsf" => fsf = Some(Uci::start(&val())),
            "--network" => network = true,
            "--relabel" => relabel = Some(val()),
            "--part" => {
                let v = val();
                let (k, n) = v.split_once('/').expect("--part K/N");
                part = (
                    k.parse().expect("--part K/N"),
                    n.parse().expect("--part K/N"),
                );
                assert!(part.0 < part.1, "--part K/N needs K < N");
            }
            _ => panic!("unknown argument {a}"),
        }
    }
    let out = out.expect("--out FILE");
    let openings = common::openings();
    let mut file = std::io::BufWriter::new(std::fs::File::create(&out).expect("create --out"));
    let mut rng = StdRng::seed_from_u64(seed);
    let mut engine = Engine::new(16);
    engine.set_network(network);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    if let Some(input) = relabel {
        let mut kept = 0usize;
        for (i, line) in common::data_lines(&input).enumerate() {
            if i % part.1 != part.0 {
                continue;
            }
            let mut fields = line.split(';');
            let (Some(fen), Some(result)) = (fields.next(), fields.next()) else {
                continue;
            };
            let Ok(pos) = makruk::Position::from_fen(fen, makruk::Ruleset::Standard) else {
                continue;
            };
            let g = Game::from_position(pos);
            let r = engine.search(&g, &limits, &stop, &mut |_| {});
            if let (Some(_), Score::Cp(cp)) = (r.best, r.score) {
                let white = white_cp(g.position().turn(), cp);
                writeln!(file, "{fen};{result};{white}").expect("write");
                kept += 1;
                if kept % 10_000 == 0 {
                    eprintln!("{} lines read, {kept} written", i + 1);
                }
            }
        }
        file.flush().expect("flush");
        eprintln!("{kept} positions in {out}");
        return;
    }
    let (mut kept, mut scores) = (0usize, [0usize; 3]);
    for n in 0..games {
        let mut g = Game::from_position(openings[n % openings.len()].clone());
        let plies = rng.random_range(0..=random_plies);
        common::play_random(&mut g, plies, &mut rng);
        engine.new_game();
        let mut fens = Vec::new();
        // A game the engine and our rules disagree on is left out.
        let mut void = false;
        while g.outcome().is_none() && g.moves().len() < MAX_PLIES {
            let (m, score) = match &mut fsf {
                Some(u) => match u.best(&g, nodes) {
                    Some(x) => x,
                    None => {
                        void = true;
                        break;
                    }
                },
                None => {
                    let r = engine.search(&g, &limits, &stop, &mut |_| {});
                    let Some(m) = r.best else { break };
                    (m, r.score)
                }
            };
            let pos = g.position();
            let quiet = !pos.is_check()
                && m.capture.is_none()
                && !m.promotion
                && matches!(score, Score::Cp(_))
                && makruk::count_info(pos).is_none();
            if let (true, Score::Cp(cp)) = (quiet, score) {
                let white = white_cp(pos.turn(), cp);
                fens.push(format!("{};{white}", pos.fen()));
            }
            if g.play(&m).is_err() {
                void = true;
                break;
            }
        }
        if void {
            eprintln!("game {n} void: a move our rules refuse");
            continue;
        }
        let result = match g.outcome() {
            Some(Outcome::Decisive { winner, .. }) => {
                if winner == Color::White {
                    "1"
                } else {
                    "0"
                }
            }
            _ => "0.5",
        };
        scores[match result {
            "1" => 0,
            "0.5" => 1,
            _ => 2,
        }] += 1;
        for f in &fens {
            let (fen, score) = f.rsplit_once(';').expect("fen;score");
            writeln!(file, "{fen};{result};{score}").expect("write");
        }
        kept += fens.len();
        if n % 50 == 49 {
            eprintln!(
                "{} games (White +{} ={} -{}), {kept} positions",
                n + 1,
                scores[0],
                scores[1],
                scores[2]
            );
        }
    }
    file.flush().expect("flush");
    if let Some(mut u) = fsf {
        u.send("quit");
        u.child.wait().ok();
    }
    eprintln!("{games} games, {kept} positions in {out}");
}

/// A score in centipawns from the side to move's view (`turn`), turned to White's view,
/// as the data files store it.
fn white_cp(turn: Color, cp: i32) -> i32 {
    if turn == Color::White {
        cp
    } else {
        -cp
    }
}
