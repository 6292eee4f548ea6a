//! The puzzle generator (issue 24): runs [`makruk_engine::puzzle::find`] over the positions of
//! three sources and writes the puzzles it accepts as JSON lines.
//!
//! ```text
//! cargo run --release -p makruk-engine --example puzzle_gen -- --out puzzles.jsonl \
//!     [--seed 1] [--counting 130] [--counting-tries 20000] [--fsf-games 120] [--games 40] \
//!     [--max-level 4] [--prefilter-nodes 20000] [--nodes 150000] [--min-gap-cp 150] \
//!     [--min-gap-chances 0.3] [--fen FEN]...
//! ```
//!
//! Sources, in this order (the licence of each: puzzles/README.md):
//! 1. `counting:<i>`: random counting endgames, Khun and Ruea (and one of Khon, Met, Ma,
//!    Bia-ngai, Ruea or nothing) against a bare Khun (pieces' honour) or a Khun with one
//!    piece (board's honour), the side with the Ruea to move. A search without the count
//!    (ruleset `fifty-move`, `--prefilter-nodes`) gives the fastest mate, n ≤ 5 moves; the
//!    count is then set so that it runs out right after a mate in n (counting ply = limit −
//!    2n + 2, in plies), and `find` runs on that position under `standard`. Tries stop after
//!    `--counting` puzzles with the `counting` theme or `--counting-tries` positions. Every
//!    puzzle found is kept, with or without that theme; `<i>` is the try's number.
//! 2. `fsf-mates:<game id>:ply<k>`: every position of the games of
//!    rules/tests/data/games-mates-public.jsonl.gz (Fairy-Stockfish against a weaker side),
//!    the game replayed under `standard` up to its end by our rules; `<k>` is the number of
//!    moves played before the position.
//! 3. `selfplay:g<n>:ply<k>`: `--games` games of our engine against itself from the 50
//!    positions of engine/openings.txt (game n from opening n mod 50), each side at a level
//!    drawn from 1..=`--max-level` (default 4) (`makruk_engine::choose_move`: depth-capped
//!    levels with a random pick among the best moves, so that mistakes happen; the time cap
//!    is set far above what the depth caps need, so the games do not depend on the machine's
//!    speed), at most 300 plies; every position from the opening on is a candidate.
//!
//! After a puzzle at ply k the positions of its line (k + 1 …) are skipped. Puzzles are
//! deduplicated by position (placement, side to move and counting fields: the FEN without its
//! last field, and without the halfmove clock), and by id. Everything is seeded by `--seed`
//! (a `StdRng` per source) and searched with node budgets, so a run is reproducible on any
//! machine. `--fen FEN` (repeatable) only tries those positions under `standard` and prints
//! the result. Progress goes to stderr.

mod common;

use makruk::count::pieces_honour_reason;
use makruk::{Color, Game, Piece, Position, Role, Ruleset, Setup, Square};
use makruk_engine::puzzle::{find, FindConfig, Puzzle, Theme};
use makruk_engine::uci::parse_move;
use makruk_engine::{choose_move, Engine, Level, Limits, Score};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

const MAX_PLIES: usize = 300;

struct Args {
    out: Option<String>,
    seed: u64,
    counting: usize,
    counting_tries: usize,
    fsf_games: usize,
    games: usize,
    max_level: u8,
    cfg: FindConfig,
    fens: Vec<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        out: None,
        seed: 1,
        counting: 130,
        counting_tries: 20_000,
        fsf_games: usize::MAX,
        games: 40,
        max_level: 4,
        cfg: FindConfig {
            prefilter_nodes: 20_000,
            nodes: 150_000,
            ..FindConfig::default()
        },
        fens: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut val = || it.next().ok_or(format!("{flag} needs a value"));
        let num = |v: String| v.parse::<u64>().map_err(|e| format!("{flag}: {e}"));
        match flag.as_str() {
            "--out" => a.out = Some(val()?),
            "--seed" => a.seed = num(val()?)?,
            "--counting" => a.counting = num(val()?)? as usize,
            "--counting-tries" => a.counting_tries = num(val()?)? as usize,
            "--fsf-games" => a.fsf_games = num(val()?)? as usize,
            "--games" => a.games = num(val()?)? as usize,
            "--prefilter-nodes" => a.cfg.prefilter_nodes = num(val()?)?,
            "--nodes" => a.cfg.nodes = num(val()?)?,
            "--max-level" => a.max_level = num(val()?)?.clamp(1, 8) as u8,
            "--min-gap-cp" => a.cfg.min_gap_cp = num(val()?)? as i32,
            "--min-gap-chances" => {
                a.cfg.min_gap_chances = val()?.parse().map_err(|e| format!("{flag}: {e}"))?;
            }
            "--fen" => a.fens.push(val()?),
            _ => return Err(format!("unknown argument {flag}")),
        }
    }
    Ok(a)
}

/// Collects the accepted puzzles, deduplicated, and writes them as they come.
struct Sink {
    out: Box<dyn Write>,
    seen: HashSet<String>,
    ids: HashSet<String>,
    written: usize,
    themes: std::collections::BTreeMap<String, usize>,
}

/// The position part of a FEN: placement, side to move and the counting fields (the halfmove
/// clock and the fullmove number left out).
fn position_key(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    match f.as_slice() {
        [p, t, _, "-", ..] => format!("{p} {t}"),
        [p, t, _, limit, ply, ..] => format!("{p} {t} {limit} {ply}"),
        _ => fen.to_string(),
    }
}

impl Sink {
    /// Writes `p` unless its position or id was seen; true when written.
    fn add(&mut self, p: &Puzzle, source: &str) -> bool {
        let id = p.id();
        if !self.seen.insert(position_key(&p.fen)) || !self.ids.insert(id.clone()) {
            return false;
        }
        let themes: Vec<String> = p.themes.iter().map(Theme::key).collect();
        for t in &themes {
            *self.themes.entry(t.clone()).or_default() += 1;
        }
        // By hand, to keep the fields in this order (FENs, UCI moves and sources need no
        // escaping).
        let quoted = |v: &[String]| {
            v.iter()
                .map(|x| format!("\"{x}\""))
                .collect::<Vec<_>>()
                .join(",")
        };
        let line = format!(
            "{{\"id\":\"{id}\",\"fen\":\"{}\",\"moves\":[{}],\"rating\":{},\"themes\":[{}],\"source\":\"{source}\"}}",
            p.fen,
            quoted(&p.moves),
            p.rating,
            quoted(&themes)
        );
        let _ = writeln!(self.out, "{line}");
        let _ = self.out.flush();
        self.written += 1;
        true
    }
}

fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

/// A random square, on the edge with probability `edge`.
fn random_square(rng: &mut StdRng, edge: f64) -> Square {
    loop {
        let sq = Square::from_index(rng.random_range(0..64u8));
        let on_edge = matches!(sq.file(), 0 | 7) || matches!(sq.rank(), 0 | 7);
        if on_edge || !rng.random_bool(edge) {
            return sq;
        }
    }
}

/// A random counting endgame with the chaser to move and no count yet (see the header).
fn random_endgame(rng: &mut StdRng) -> Option<(Position, Color)> {
    let chaser = if rng.random_bool(0.5) {
        Color::White
    } else {
        Color::Black
    };
    let defender = chaser.other();
    let extra = [
        None,
        Some(Role::Khon),
        Some(Role::Met),
        Some(Role::Ma),
        Some(Role::Bia),
        Some(Role::Ruea),
    ][rng.random_range(0..6)];
    let defence = if rng.random_bool(0.2) {
        Some([Role::Met, Role::Khon, Role::Ma, Role::Bia][rng.random_range(0..4)])
    } else {
        None
    };
    let mut board = makruk::Board::empty();
    let mut pieces = vec![
        (defender, Piece::new(defender, Role::Khun), 0.8),
        (chaser, Piece::new(chaser, Role::Khun), 0.0),
        (chaser, Piece::new(chaser, Role::Ruea), 0.0),
    ];
    // A Bia stands for a Bia-ngai (a promoted Bia: moves like a Met).
    let piece = |c: Color, r: Role| {
        if r == Role::Bia {
            Piece::bia_ngai(c)
        } else {
            Piece::new(c, r)
        }
    };
    if let Some(r) = extra {
        pieces.push((chaser, piece(chaser, r), 0.0));
    }
    if let Some(r) = defence {
        pieces.push((defender, piece(defender, r), 0.0));
    }
    for (_, p, edge) in pieces {
        let mut placed = false;
        for _ in 0..20 {
            let sq = random_square(rng, edge);
            if board.piece_at(sq).is_none() {
                board.set_piece_at(sq, p);
                placed = true;
                break;
            }
        }
        if !placed {
            return None;
        }
    }
    let setup = Setup {
        board,
        turn: chaser,
        count_limit: 0,
        count_ply: 0,
        halfmoves: 0,
        fullmoves: 60,
    };
    let pos = Position::from_setup(setup, Ruleset::FiftyMove).ok()?;
    (!pos.is_check() && pos.count_legal() >= 2).then_some((pos, chaser))
}

/// `pos` under `standard` with the count set to run out right after a mate in `n` moves.
fn with_count(pos: &Position, chaser: Color, n: u32) -> Option<Position> {
    let mut setup = pos.setup();
    let limit = if pos.board().is_bare(chaser.other()) {
        2 * pieces_honour_reason(pos.board(), chaser, Ruleset::Standard).moves(Ruleset::Standard)
    } else {
        2 * Ruleset::Standard.rules().board_honour_moves
    };
    setup.count_limit = limit;
    setup.count_ply = (limit + 2).checked_sub(2 * n)?;
    Position::from_setup(setup, Ruleset::Standard).ok()
}

fn counting_source(args: &Args, engine: &mut Engine, sink: &mut Sink) {
    let mut rng = StdRng::seed_from_u64(args.seed ^ 0xC0_u64);
    let mut found = 0;
    let stop = AtomicBool::new(false);
    for i in 0..args.counting_tries {
        if found >= args.counting {
            break;
        }
        let Some((pos, chaser)) = random_endgame(&mut rng) else {
            continue;
        };
        let free = Game::from_position(pos.clone());
        let r = engine.search(&free, &nodes(args.cfg.prefilter_nodes), &stop, &mut |_| {});
        let Score::Mate(n @ 1..=5) = r.score else {
            continue;
        };
        let Some(counted) = with_count(&pos, chaser, n.unsigned_abs()) else {
            continue;
        };
        if let Some(p) = find(engine, &Game::from_position(counted), &args.cfg) {
            let counting = p.themes.contains(&Theme::Counting);
            if sink.add(&p, &format!("counting:{i}")) && counting {
                found += 1;
            }
        }
        if i % 500 == 0 {
            eprintln!(
                "counting: try {i}, {found} counting puzzles, {} in all",
                sink.written
            );
        }
    }
    eprintln!(
        "counting: {found} counting puzzles, {} in all",
        sink.written
    );
}

/// Runs `find` on every position of `game` from `from` on (skipping puzzle lines).
fn scan(
    engine: &mut Engine,
    start: &Position,
    moves: &[makruk::Move],
    from: usize,
    cfg: &FindConfig,
    sink: &mut Sink,
    source: &dyn Fn(usize) -> String,
) {
    let mut g = Game::from_position(start.clone());
    let mut next = from;
    for k in 0..=moves.len() {
        if g.outcome().is_some() {
            break;
        }
        if k >= next {
            if let Some(p) = find(engine, &g, cfg) {
                if sink.add(&p, &source(k)) {
                    next = k + p.moves.len() + 1;
                }
            }
        }
        let Some(m) = moves.get(k) else { break };
        if g.play(m).is_err() {
            break;
        }
    }
}

fn fsf_source(args: &Args, engine: &mut Engine, sink: &mut Sink) -> Result<(), String> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../rules/tests/data/games-mates-public.jsonl.gz"
    );
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let reader = BufReader::new(flate2::read::MultiGzDecoder::new(file));
    for (n, line) in reader.lines().enumerate().take(args.fsf_games) {
        let line = line.map_err(|e| e.to_string())?;
        let v: serde_json::Value = serde_json::from_str(&line).map_err(|e| e.to_string())?;
        let id = v["id"].as_str().unwrap_or("?").to_string();
        let Some(start) = v["start"]
            .as_str()
            .and_then(|f| Position::from_fen(f, Ruleset::Standard).ok())
        else {
            continue;
        };
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for m in v["moves"].as_array().into_iter().flatten() {
            let Some(m) = m.as_str().and_then(|t| parse_move(&pos, t)) else {
                break;
            };
            pos.play_unchecked(&m);
            moves.push(m);
        }
        scan(engine, &start, &moves, 0, &args.cfg, sink, &|k| {
            format!("fsf-mates:{id}:ply{k}")
        });
        eprintln!(
            "fsf-mates: game {n} ({id}), {} puzzles in all",
            sink.written
        );
    }
    Ok(())
}

fn selfplay_source(args: &Args, engine: &mut Engine, sink: &mut Sink) -> Result<(), String> {
    let openings = common::openings();
    if openings.is_empty() {
        return Err("no openings".into());
    }
    let mut rng = StdRng::seed_from_u64(args.seed ^ 0x5E1F);
    let mut player = Engine::new(16);
    let stop = AtomicBool::new(false);
    for n in 0..args.games {
        let start = openings[n % openings.len()].clone();
        let levels = [
            rng.random_range(1..=args.max_level),
            rng.random_range(1..=args.max_level),
        ];
        let mut g = Game::from_position(start.clone());
        player.new_game();
        while g.outcome().is_none() && g.moves().len() < MAX_PLIES {
            let side = usize::from(g.position().turn() == Color::Black);
            let level = Level::new(levels[side]).unwrap_or(Level::MAX);
            let Some(m) = choose_move(
                &mut player,
                &g,
                level,
                Duration::from_secs(60),
                &stop,
                &mut rng,
            ) else {
                break;
            };
            if g.play(&m).is_err() {
                break;
            }
        }
        scan(engine, &start, g.moves(), 0, &args.cfg, sink, &|k| {
            format!("selfplay:g{n}:ply{k}")
        });
        eprintln!(
            "selfplay: game {n} (levels {} / {}, {} plies), {} puzzles in all",
            levels[0],
            levels[1],
            g.moves().len(),
            sink.written
        );
    }
    Ok(())
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let mut engine = Engine::new(16);
    if !args.fens.is_empty() {
        for fen in &args.fens {
            match Position::from_fen(fen, Ruleset::Standard) {
                Ok(pos) => println!(
                    "{fen}: {:?}",
                    find(&mut engine, &Game::from_position(pos), &args.cfg)
                ),
                Err(e) => println!("{fen}: {e}"),
            }
        }
        return;
    }
    let out: Box<dyn Write> = match &args.out {
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Box::new(std::io::BufWriter::new(f)),
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(1);
            }
        },
        None => Box::new(std::io::stdout()),
    };
    let mut sink = Sink {
        out,
        seen: HashSet::new(),
        ids: HashSet::new(),
        written: 0,
        themes: Default::default(),
    };
    let t = Instant::now();
    counting_source(&args, &mut engine, &mut sink);
    eprintln!(
        "after counting: {} puzzles, {:.0?}",
        sink.written,
        t.elapsed()
    );
    if let Err(e) = fsf_source(&args, &mut engine, &mut sink) {
        eprintln!("fsf-mates: {e}");
    }
    eprintln!(
        "after fsf-mates: {} puzzles, {:.0?}",
        sink.written,
        t.elapsed()
    );
    if let Err(e) = selfplay_source(&args, &mut engine, &mut sink) {
        eprintln!("selfplay: {e}");
    }
    eprintln!(
        "done: {} puzzles in {:.0?}; themes {:?}",
        sink.written,
        t.elapsed(),
        sink.themes
    );
}
