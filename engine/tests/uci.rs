//! The `makruk-uci` binary driven through its standard input and output.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

struct Engine {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_makruk-uci"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, s: &str) {
        writeln!(self.stdin, "{s}").expect("write");
        self.stdin.flush().expect("flush");
    }

    /// Lines up to and including the first that starts with `prefix` (10 s at most).
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(10))
                .unwrap_or_else(|_| panic!("no {prefix:?} line; got {seen:?}"));
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

#[test]
fn uci_session() {
    let mut e = Engine::start();
    e.send("uci");
    let hello = e.until("uciok");
    assert!(hello.iter().any(|l| l.starts_with("id name ")));
    assert!(hello
        .iter()
        .any(|l| l.contains("option name UCI_Variant type combo default makruk")));
    assert!(hello
        .iter()
        .any(|l| l == "option name Level type spin default 8 min 1 max 8"));
    e.send("setoption name UCI_Variant value makruk");
    e.send("isready");
    assert_eq!(
        e.until("readyok"),
        ["readyok"],
        "makruk is accepted silently"
    );
    e.send("setoption name UCI_Variant value chess");
    e.send("isready");
    let l = e.until("readyok");
    assert!(
        l[0].starts_with("info string") && l[0].contains("chess"),
        "{l:?}"
    );

    e.send("ucinewgame");
    e.send("position startpos moves e3e4 d6d5");
    e.send("go depth 4");
    let out = e.until("bestmove");
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    assert_eq!(infos.len(), 4, "{out:?}");
    for w in ["score cp", "nodes", "nps", "time", "pv"] {
        assert!(infos[3].contains(w), "{}", infos[3]);
    }
    let best = out
        .last()
        .expect("bestmove")
        .split_whitespace()
        .nth(1)
        .expect("a move");
    // The move is legal after 1. e4 d5 (White to move): check it with the rules crate.
    let mut pos = makruk::Position::new();
    for m in ["e3e4", "d6d5"] {
        let mv = makruk_engine::uci::parse_move(&pos, m).expect("legal");
        pos.play_unchecked(&mv);
    }
    assert!(
        makruk_engine::uci::parse_move(&pos, best).is_some(),
        "{best}"
    );

    // A FEN with counting fields, a mate in one: `score mate 1`, bestmove a1a8.
    e.send("position fen 7k/8/6K1/8/8/8/8/R7 w - 32 10 60");
    e.send("go depth 3");
    let out = e.until("bestmove");
    assert!(out.iter().any(|l| l.contains("score mate 1")), "{out:?}");
    assert_eq!(out.last().map(String::as_str), Some("bestmove a1a8"));

    // `go infinite` answers only after `stop`.
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("isready");
    let l = e.until("readyok");
    assert!(l.iter().all(|x| !x.starts_with("bestmove")), "{l:?}");
    e.send("stop");
    let out = e.until("bestmove");
    assert!(out.last().is_some_and(|l| l.len() > "bestmove ".len()));

    // Level, and a bad one.
    e.send("setoption name Level value 3");
    e.send("setoption name Level value 9");
    e.send("isready");
    let l = e.until("readyok");
    assert_eq!(l.len(), 2, "{l:?}");
    e.send("position startpos");
    e.send("go movetime 100");
    let out = e.until("bestmove");
    assert!(!out.last().expect("line").contains("(none)"));
}

/// `UCI_Variant` for the five variants: the combo is advertised, the variant's start position
/// and moves are read in its own UCI, and the best move comes back in it (Sittuyin's drops
/// `R@a1`), legal by the rules crate.
#[test]
fn uci_variants() {
    let mut e = Engine::start();
    e.send("uci");
    let hello = e.until("uciok");
    assert!(
        hello.iter().any(|l| l
            == "option name UCI_Variant type combo default makruk var makruk var makpong var cambodian var asean var sittuyin"),
        "{hello:?}"
    );
    for (v, moves) in [
        ("makpong", "e3e4 d6d5"),
        ("cambodian", "d1b2 e8g7"),
        ("asean", "e3e4 d6d5"),
        ("sittuyin", "K@d2 k@e7 R@a1"),
    ] {
        let variant: makruk::Variant = v.parse().expect("variant");
        e.send(&format!("setoption name UCI_Variant value {v}"));
        e.send("ucinewgame");
        e.send(&format!("position startpos moves {moves}"));
        e.send("go depth 3");
        let out = e.until("bestmove");
        assert!(!out.iter().any(|l| l.contains("illegal")), "{v}: {out:?}");
        let best = out
            .last()
            .and_then(|l| l.split_whitespace().nth(1))
            .expect("a move")
            .to_string();
        let mut pos = makruk::Position::start_variant(variant, makruk::Ruleset::Standard);
        for m in moves.split(' ') {
            let mv = makruk_engine::uci::parse_move(&pos, m).expect("legal");
            pos.play_unchecked(&mv);
        }
        let mv = makruk_engine::uci::parse_move(&pos, &best)
            .unwrap_or_else(|| panic!("{v}: {best} illegal at {}", pos.fen()));
        assert_eq!(makruk::uci::to_uci_in(&mv, variant), best);
        if v == "sittuyin" {
            assert!(best.contains('@'), "a drop: {best}");
        }
        // A FEN of the variant.
        e.send(&format!("position fen {} moves {best}", pos.fen()));
        e.send("go depth 2");
        let out = e.until("bestmove");
        assert!(
            !out.iter()
                .any(|l| l.contains("illegal") || l.contains("bad FEN")),
            "{v}: {out:?}"
        );
    }
}
