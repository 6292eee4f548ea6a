//! The UCI front end (`makruk-uci`): the engine speaks the Universal Chess Interface as
//! Fairy-Stockfish does for Makruk, so GUIs and match tools can drive it.
//!
//! Commands: `uci`, `isready`, `ucinewgame`, `setoption name <N> value <V>` (`UCI_Variant`:
//! `makruk`, `makpong`, `cambodian`, `asean`, `sittuyin`, Fairy-Stockfish's names; `Level` 1–8; `Hash` in MB; `Ruleset`: the project's four rulesets, default
//! `standard`; `Use NNUE` true (default) or false, level 8's evaluation network on or off;
//! `EvalFile` a network file to use instead of the built-in one, [`crate::nnue`]), `position startpos|fen <FEN> [moves <m>...]` (Fairy-Stockfish FEN with its
//! counting fields), `go [depth N] [nodes N] [movetime ms] [wtime ms] [btime ms] [winc ms]
//! [binc ms] [movestogo N] [infinite]`, `stop`, `quit`. The search runs on its own thread, so
//! `stop` and `isready` are answered while it thinks. Moves are written as the rules crate's
//! UCI of the variant (`e3e4`, `d5c6m` for a move that promotes a Bia in Makruk; ASEAN's
//! `e7e8r`, Sittuyin's drops `R@a1` and promotions `e4e4f`: [`makruk::uci::to_uci_in`]), and
//! FENs are the variant's (Fairy-Stockfish's). The `Ruleset` applies to Makruk only; the other
//! variants follow their own rules.

use crate::{choose_move, Clock, Engine, Level, Limits, Score, SearchInfo};
use makruk::{Game, Move, Position, Ruleset, Square, Variant};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Default transposition table size in MB.
pub const DEFAULT_HASH_MB: usize = 16;

/// The UCI form of `m`: `e3e4`, or `d5c6m` for a move that promotes a Bia (Fairy-Stockfish's
/// form for Makruk).
#[must_use]
pub fn move_to_uci(m: &Move) -> String {
    let mut s = format!("{}{}", m.from, m.to);
    if m.promotion {
        s.push('m');
    }
    s
}

/// The UCI form of `m` in `variant` ([`makruk::uci::to_uci_in`]: drops `R@a1`, ASEAN's
/// promotion letters); Makruk's is [`move_to_uci`].
#[must_use]
pub fn move_to_uci_in(m: &Move, variant: Variant) -> String {
    if variant == Variant::Makruk {
        move_to_uci(m)
    } else {
        makruk::uci::to_uci_in(m, variant)
    }
}

/// The legal move of `pos` that the UCI text `s` names (`e3e4`, `d5c6m`; the promotion
/// suffix may be left out in Makruk, promotion being compulsory), or `None`. In the other
/// variants the text is the variant's UCI ([`move_to_uci_in`], letters in either case).
#[must_use]
pub fn parse_move(pos: &Position, s: &str) -> Option<Move> {
    let s = s.trim();
    if pos.variant() != Variant::Makruk {
        let v = pos.variant();
        return pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| makruk::uci::to_uci_in(m, v).eq_ignore_ascii_case(s));
    }
    let from: Square = s.get(0..2)?.parse().ok()?;
    let to: Square = s.get(2..4)?.parse().ok()?;
    match s.get(4..) {
        Some("" | "m" | "M") => {}
        _ => return None,
    }
    pos.legal_moves()
        .iter()
        .copied()
        .find(|m| m.from == from && m.to == to)
}

/// The `info` line of a finished iteration (Makruk's move notation; [`info_line_in`] for a
/// variant's).
#[must_use]
pub fn info_line(info: &SearchInfo) -> String {
    info_line_in(info, Variant::Makruk)
}

/// The `info` line of a finished iteration, moves in `variant`'s UCI.
#[must_use]
pub fn info_line_in(info: &SearchInfo, variant: Variant) -> String {
    let score = match info.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let pv: Vec<String> = info.pv.iter().map(|m| move_to_uci_in(m, variant)).collect();
    format!(
        "info depth {} score {} nodes {} nps {} time {} pv {}",
        info.depth,
        score,
        info.nodes,
        info.nps,
        info.time.as_millis(),
        pv.join(" ")
    )
}

type Out = Arc<Mutex<dyn Write + Send>>;

fn say(out: &Out, line: &str) {
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

struct Running {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<Engine>,
}

struct State {
    engine: Option<Engine>,
    running: Option<Running>,
    game: Game,
    ruleset: Ruleset,
    variant: Variant,
    level: Level,
    hash_mb: usize,
    /// `Use NNUE`: level 8's searches evaluate with the network.
    network: bool,
    out: Out,
}

impl State {
    /// Waits for a running search (stopping it first if `stop`) and takes the engine back.
    fn finish(&mut self, stop: bool) {
        if let Some(r) = self.running.take() {
            if stop {
                r.stop.store(true, Ordering::Relaxed);
            }
            match r.handle.join() {
                Ok(engine) => self.engine = Some(engine),
                Err(_) => self.engine = None,
            }
        }
    }

    /// The engine, stopping a running search first.
    fn engine(&mut self) -> Engine {
        self.finish(true);
        self.engine
            .take()
            .unwrap_or_else(|| Engine::new(self.hash_mb))
    }
}

/// Runs the UCI protocol on `input` until `quit` or the end of input, writing to `out`.
pub fn run<R: BufRead>(input: R, out: Out) {
    let mut st = State {
        engine: None,
        running: None,
        game: Game::new(Ruleset::Standard),
        ruleset: Ruleset::Standard,
        variant: Variant::Makruk,
        level: Level::MAX,
        hash_mb: DEFAULT_HASH_MB,
        network: true,
        out,
    };
    for line in input.lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                let o = &st.out;
                say(o, "id name makruk-engine 0.1");
                say(o, "id author the makruk-bot authors");
                say(
                    o,
                    "option name UCI_Variant type combo default makruk var makruk var makpong var cambodian var asean var sittuyin",
                );
                say(o, "option name Level type spin default 8 min 1 max 8");
                say(
                    o,
                    &format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max 4096"),
                );
                say(o, "option name Ruleset type combo default standard var standard var traditional var material var fifty-move");
                say(o, "option name Use NNUE type check default true");
                say(o, "option name EvalFile type string default <built-in>");
                say(o, "uciok");
            }
            Some("isready") => say(&st.out, "readyok"),
            Some("ucinewgame") => {
                let mut e = st.engine();
                e.new_game();
                st.engine = Some(e);
                st.game = new_game(&st);
            }
            Some("setoption") => setoption(&mut st, &words),
            Some("position") => position(&mut st, &words),
            Some("go") => go(&mut st, &words),
            Some("stop") => st.finish(true),
            Some("quit") => break,
            Some(other) => say(&st.out, &format!("info string unknown command {other}")),
            None => {}
        }
    }
    st.finish(true);
}

fn setoption(st: &mut State, words: &[&str]) {
    // setoption name <name...> value <value...>
    let text = words[1..].join(" ");
    let Some(rest) = text.strip_prefix("name ") else {
        say(&st.out, "info string setoption needs a name");
        return;
    };
    let (name, value) = match rest.split_once(" value ") {
        Some((n, v)) => (n.trim(), v.trim()),
        None => (rest.trim(), ""),
    };
    match name.to_ascii_lowercase().as_str() {
        "uci_variant" => match value.parse::<Variant>() {
            Ok(v) => {
                st.variant = v;
                st.game = new_game(st);
            }
            Err(e) => say(&st.out, &format!("info string {e}")),
        },
        "level" => match value.parse::<u8>().ok().and_then(Level::new) {
            Some(l) => st.level = l,
            None => say(
                &st.out,
                &format!("info string Level must be 1 to 8, not {value}"),
            ),
        },
        "hash" => match value.parse::<usize>() {
            Ok(mb) if (1..=4096).contains(&mb) => {
                st.finish(true);
                st.hash_mb = mb;
                st.engine = Some(Engine::new(mb));
            }
            _ => say(
                &st.out,
                &format!("info string Hash must be 1 to 4096, not {value}"),
            ),
        },
        "ruleset" => match value.parse::<Ruleset>() {
            Ok(r) => {
                st.ruleset = r;
                st.game = new_game(st);
            }
            Err(e) => say(&st.out, &format!("info string {e}")),
        },
        "use nnue" => match value.to_ascii_lowercase().as_str() {
            "true" => st.network = true,
            "false" => st.network = false,
            _ => say(
                &st.out,
                &format!("info string Use NNUE must be true or false, not {value}"),
            ),
        },
        "evalfile" => {
            if value.is_empty() || value == "<built-in>" {
                return;
            }
            st.finish(true);
            match std::fs::read(value)
                .map_err(|e| e.to_string())
                .and_then(|b| crate::nnue::Network::from_bytes(&b).map_err(|e| e.to_string()))
            {
                Ok(net) => {
                    crate::nnue::set_network(net);
                    say(&st.out, &format!("info string network {value} loaded"));
                }
                Err(e) => say(&st.out, &format!("info string EvalFile {value}: {e}")),
            }
        }
        _ => say(&st.out, &format!("info string unknown option {name}")),
    }
}

/// The start position of the variant chosen (under the ruleset chosen, in Makruk).
fn start_position(st: &State) -> Position {
    if st.variant == Variant::Makruk {
        Position::start(st.ruleset)
    } else {
        Position::start_variant(st.variant, Ruleset::Standard)
    }
}

/// A FEN of the variant chosen.
fn read_fen(st: &State, fen: &str) -> Result<Position, makruk::FenError> {
    if st.variant == Variant::Makruk {
        Position::from_fen(fen, st.ruleset)
    } else {
        Position::from_fen_variant(fen, st.variant)
    }
}

fn new_game(st: &State) -> Game {
    Game::from_position(start_position(st))
}

fn position(st: &mut State, words: &[&str]) {
    let moves_at = words.iter().position(|w| *w == "moves");
    let spec = &words[1..moves_at.unwrap_or(words.len())];
    let start = match spec.first().copied() {
        Some("startpos") => start_position(st),
        Some("fen") => match read_fen(st, &spec[1..].join(" ")) {
            Ok(p) => p,
            Err(e) => {
                say(&st.out, &format!("info string bad FEN: {e}"));
                return;
            }
        },
        _ => {
            say(&st.out, "info string position needs startpos or fen");
            return;
        }
    };
    let mut game = Game::from_position(start);
    if let Some(i) = moves_at {
        for w in &words[i + 1..] {
            match parse_move(game.position(), w) {
                Some(m) => {
                    if game.play_on(&m).is_err() {
                        say(&st.out, &format!("info string illegal move {w}"));
                        break;
                    }
                }
                None => {
                    say(&st.out, &format!("info string illegal move {w}"));
                    break;
                }
            }
        }
    }
    st.game = game;
}

fn go(st: &mut State, words: &[&str]) {
    let mut limits = Limits::default();
    let mut clock = Clock::default();
    let mut has_clock = false;
    let mut infinite = false;
    let ms = |v: Option<&&str>| {
        Duration::from_millis(v.and_then(|s| s.parse::<i64>().ok()).unwrap_or(0).max(0) as u64)
    };
    let mut i = 1;
    while i < words.len() {
        let v = words.get(i + 1);
        match words[i] {
            "depth" => limits.depth = v.and_then(|s| s.parse().ok()),
            "nodes" => limits.nodes = v.and_then(|s| s.parse().ok()),
            "movetime" => limits.movetime = Some(ms(v)),
            "wtime" => (clock.wtime, has_clock) = (ms(v), true),
            "btime" => (clock.btime, has_clock) = (ms(v), true),
            "winc" => clock.winc = ms(v),
            "binc" => clock.binc = ms(v),
            "movestogo" => clock.movestogo = v.and_then(|s| s.parse().ok()),
            "infinite" => {
                infinite = true;
                i -= 1;
            }
            _ => i -= 1,
        }
        i += 2;
    }
    if has_clock {
        limits.clock = Some(clock);
    }
    let mut engine = st.engine();
    let stop = Arc::new(AtomicBool::new(false));
    let game = st.game.clone();
    let out = st.out.clone();
    let level = st.level;
    let variant = game.position().variant();
    let flag = stop.clone();
    engine.set_network(st.network);
    let handle = std::thread::spawn(move || {
        let best = if level == Level::MAX {
            let r = engine.search(&game, &limits, &flag, &mut |info| {
                say(&out, &info_line_in(info, variant))
            });
            r.best
        } else {
            let budget = crate::timeman::budget(&limits, game.position().turn())
                .hard
                .unwrap_or(Duration::from_secs(1));
            choose_move(&mut engine, &game, level, budget, &flag, &mut rand::rng())
        };
        // `go infinite` answers only after `stop`.
        while infinite && !flag.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
        match best {
            Some(m) => say(&out, &format!("bestmove {}", move_to_uci_in(&m, variant))),
            None => say(&out, "bestmove (none)"),
        }
        engine
    });
    st.running = Some(Running { stop, handle });
}
