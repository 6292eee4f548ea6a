//! Nodes per second on one thread: searches a few positions for a fixed time each and prints
//! nodes, depth and nps (compare with Fairy-Stockfish's `go movetime` on the same FENs). On
//! Linux it also prints nps per second of CPU time (from `/proc/self/stat`), which stays
//! meaningful on a loaded machine.
//!
//! ```text
//! cargo run --release -p makruk-engine --example bench -- [movetime-ms] [variant]
//! ```
//!
//! The search evaluates with the network (as level 8 does); `MAKRUK_NNUE=0` in the
//! environment gives the hand-written evaluation's speed instead. With a variant other than
//! `makruk` (`makpong`, `cambodian`, `asean`, `sittuyin`) it searches that variant's start
//! position instead.

use makruk::{Game, Position, Variant};
use makruk_engine::{Engine, Limits};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The start position, two middlegames, an endgame with a count running.
pub const POSITIONS: [&str; 4] = [
    "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
    "rnsm1s1r/4n1k1/1ppppppp/p7/2PPP3/PP3PPP/4N2R/RNSKMS2 b - - 1 5",
    "r1smksnr/3n4/pppp1ppp/4p3/4PP2/PPPP2PP/8/RNSKMSNR w - - 0 1",
    "8/3k4/6M~1/2K1S3/8/8/8/8 b - 88 8 1",
];

/// CPU time of this process (user + system), if the platform tells it.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses): utime is the 12th, stime the
    // 13th, in clock ticks (100 a second on Linux).
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

fn main() {
    let cpu0 = cpu_time();
    let network = std::env::var("MAKRUK_NNUE").map_or(true, |v| v != "0");
    let ms: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let variant: Variant = std::env::args()
        .nth(2)
        .map_or(Ok(Variant::Makruk), |s| s.parse())
        .expect("a variant name");
    let fens: Vec<&str> = if variant == Variant::Makruk {
        POSITIONS.to_vec()
    } else {
        vec![variant.start_fen()]
    };
    let (mut nodes, mut time) = (0u64, Duration::ZERO);
    for fen in fens {
        let pos = Position::from_fen_variant(fen, variant).expect("valid FEN");
        let game = Game::from_position(pos);
        let mut engine = Engine::new(64);
        engine.set_network(network);
        let limits = Limits {
            movetime: Some(Duration::from_millis(ms)),
            ..Limits::default()
        };
        let t = Instant::now();
        let r = engine.search(&game, &limits, &AtomicBool::new(false), &mut |_| {});
        let el = t.elapsed();
        nodes += r.nodes;
        time += el;
        println!(
            "{fen:70} depth {:2} nodes {:9} nps {:8}",
            r.depth,
            r.nodes,
            (r.nodes as f64 / el.as_secs_f64()) as u64
        );
    }
    println!(
        "total nodes {nodes} nps {}",
        (nodes as f64 / time.as_secs_f64()) as u64
    );
    if let (Some(a), Some(b)) = (cpu0, cpu_time()) {
        let cpu = b.saturating_sub(a).as_secs_f64().max(0.01);
        println!(
            "cpu time {cpu:.2} s, nps per cpu second {}",
            (nodes as f64 / cpu) as u64
        );
    }
}
