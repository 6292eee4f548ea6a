//! The Texel tuner's data (issue 27): positions of Makruk games of our engine against itself,
//! each labelled with the game's result, written as `FEN;result;score` lines (from White's
//! side: the result `1`, `0.5` or `0`, and the search's score in centipawns).
//!
//! ```text
//! cargo run --release -p makruk-engine --example texel_data -- --out data.txt \
//!     [--games 3000] [--nodes 4000] [--seed 1] [--random-plies 6]
//! ```
//!
//! Game n starts from position n mod 50 of engine/openings.txt, then 0..=`--random-plies`
//! plies chosen at random (so that games from one opening differ), then both sides search
//! `--nodes` nodes a move (machine-independent: the same seed gives the same file), under
//! `standard` (the count, the rules' draws); a game still running after 300 plies is a draw.
//! A position is kept when it is quiet enough for a static evaluation: the side to move is
//! not in check, the search's move is neither a capture nor a promotion, its score is not a
//! mate, and no count runs (the count's own scaling is not tuned). Progress goes to stderr.

use makruk::{Color, Game, Outcome, Position, Ruleset};
use makruk_engine::{Engine, Limits, Score};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::sync::atomic::AtomicBool;

const MAX_PLIES: usize = 300;

fn main() {
    let mut out = None;
    let mut games = 3000usize;
    let mut nodes = 4000u64;
    let mut seed = 1u64;
    let mut random_plies = 6usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--out" => out = Some(val()),
            "--games" => games = val().parse().expect("--games N"),
            "--nodes" => nodes = val().parse().expect("--nodes N"),
            "--seed" => seed = val().parse().expect("--seed N"),
            "--random-plies" => random_plies = val().parse().expect("--random-plies N"),
            _ => panic!("unknown argument {a}"),
        }
    }
    let out = out.expect("--out FILE");
    let text = include_str!("../openings.txt");
    let openings: Vec<Position> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| Position::from_fen(l, Ruleset::Standard).ok())
        .collect();
    let mut file = std::io::BufWriter::new(std::fs::File::create(&out).expect("create --out"));
    let mut rng = StdRng::seed_from_u64(seed);
    let mut engine = Engine::new(16);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let (mut kept, mut scores) = (0usize, [0usize; 3]);
    for n in 0..games {
        let mut g = Game::from_position(openings[n % openings.len()].clone());
        for _ in 0..rng.random_range(0..=random_plies) {
            let moves = g.position().legal_moves();
            if moves.is_empty() || g.outcome().is_some() {
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            g.play(&m).expect("a legal move");
        }
        engine.new_game();
        let mut fens = Vec::new();
        while g.outcome().is_none() && g.moves().len() < MAX_PLIES {
            let r = engine.search(&g, &limits, &stop, &mut |_| {});
            let Some(m) = r.best else { break };
            let pos = g.position();
            let quiet = !pos.is_check()
                && m.capture.is_none()
                && !m.promotion
                && matches!(r.score, Score::Cp(_))
                && makruk::count_info(pos).is_none();
            if let (true, Score::Cp(cp)) = (quiet, r.score) {
                let white = if pos.turn() == Color::White { cp } else { -cp };
                fens.push(format!("{};{white}", pos.fen()));
            }
            g.play(&m).expect("the engine's move is legal");
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
    eprintln!("{games} games, {kept} positions in {out}");
}
