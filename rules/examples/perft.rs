//! `cargo run --release -p makruk --example perft -- "<FEN>" <depth> [--divide] [--variant V]`
//!
//! `<FEN>` may be `startpos`; `--variant` names a variant of the Makruk family (`makpong`,
//! `cambodian`, `asean`, `sittuyin`; default `makruk`), whose FEN and start position are used. Prints the time taken and the speed, then the node count alone
//! on the last line (bulk counting at the last ply, like Fairy-Stockfish's `go perft`).
//! `--divide` first prints the count under each legal move (`e3e4: 123`).

use makruk::{uci, Position, Ruleset, Variant};
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut variant = Variant::Makruk;
    if let Some(i) = args.iter().position(|a| a == "--variant") {
        let Some(name) = args.get(i + 1) else {
            eprintln!("--variant needs a name");
            return ExitCode::from(2);
        };
        match name.parse() {
            Ok(v) => variant = v,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        }
        args.drain(i..=i + 1);
    }
    let divide = args.iter().any(|a| a == "--divide");
    let rest: Vec<&String> = args.iter().filter(|a| *a != "--divide").collect();
    let (fen, depth) = match rest.as_slice() {
        [fen, depth] => (fen.as_str(), depth.as_str()),
        [depth] => ("startpos", depth.as_str()),
        _ => {
            eprintln!("usage: perft \"<FEN>|startpos\" <depth> [--divide]");
            return ExitCode::from(2);
        }
    };
    let Ok(depth) = depth.parse::<u32>() else {
        eprintln!("depth must be a number, got {depth:?}");
        return ExitCode::from(2);
    };
    let pos = match (fen, variant) {
        ("startpos", Variant::Makruk) => Ok(Position::new()),
        ("startpos", v) => Ok(Position::start_variant(v, Ruleset::Standard)),
        (fen, Variant::Makruk) => Position::from_fen(fen, Ruleset::Standard),
        (fen, v) => Position::from_fen_variant(fen, v),
    };
    let pos = match pos {
        Ok(p) => p,
        Err(e) => {
            eprintln!("bad FEN: {e}");
            return ExitCode::from(2);
        }
    };
    // Output errors (e.g. a closed pipe) are ignored: the count is the result.
    let mut out = std::io::stdout().lock();
    let t = Instant::now();
    let nodes = if divide && depth > 0 {
        let mut total = 0;
        for m in &pos.legal_moves() {
            let n = pos.after(m).perft(depth - 1);
            let _ = writeln!(out, "{}: {n}", uci::to_uci_in(m, variant));
            total += n;
        }
        total
    } else {
        pos.perft(depth)
    };
    let secs = t.elapsed().as_secs_f64();
    let _ = writeln!(
        out,
        "time {:.3} s, {:.1} Mnodes/s",
        secs,
        nodes as f64 / secs.max(1e-9) / 1e6
    );
    let _ = writeln!(out, "{nodes}");
    ExitCode::SUCCESS
}
