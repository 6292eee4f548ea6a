//! Puzzles (issue 24): finding a tactic in a position, the pure computation, no I/O, no async.
//!
//! [`find`] takes a [`Game`] at a candidate position (its history counts for repetitions and
//! the count) and returns a [`Puzzle`] when the side to move — the *solver* — has one and only
//! one good move, and again at each of its following moves, by this **acceptance rule**:
//!
//! - at every move of the solver, a MultiPV 2 search ([`Engine::best_two`]) with
//!   [`FindConfig::nodes`] nodes finds the solution move *clearly* better than every other
//!   move: either it mates (`score mate n > 0`) and no other move mates, or it is at least
//!   [`MIN_GAP_CP`] centipawns better than the second best **and** at least
//!   [`MIN_GAP_CHANCES`] better in winning chances ([`crate::analysis::winning_chances`],
//!   −1..1). Two mating moves, however fast each mates, reject the position: for a mate
//!   puzzle only moves that mate at all count as good (a mate beyond the count is a draw to
//!   the search, so it does not count as a mate); a mating move is searched again with
//!   [`MATE_CHECK_FACTOR`] times the nodes, since another move's slower mate shows only deeper,
//!   and at the first move no other move may score above [`MATE_ALT_MAX_CP`] (such a move
//!   usually mates too, beyond our horizon);
//! - the opponent's replies are the engine's best at the same budget;
//! - the line ends on a solver move: at a mate, when the material gain is realised (after the
//!   opponent's best reply to that move), or after [`FindConfig::max_solver_moves`] moves
//!   of the solver. A line whose next solver move is no longer unique stops at the solver's
//!   previous move.
//!
//! The themes ([`Theme`]) are derived from the line, never guessed: a line that ends in mate
//! is [`Theme::Mate`] with [`Theme::MateIn`]; with a count running at the start (ruleset
//! `standard`) whose removal would let another first move mate too, also [`Theme::Counting`].
//! A line that does not mate needs a start position without a count (under `standard`: with
//! a Bia on the board; our evaluation of pawnless endings is too unsure). It is
//! [`Theme::Defend`] when the solver is neither winning nor lost after it (eval within
//! ±[`DEFEND_MAX_CP`]) while every other first move is at least [`BEST_TWO_MARGIN`] worse and
//! each side has at least [`DEFEND_MIN_MATERIAL`] (else it is no puzzle), else
//! [`Theme::WinMaterial`] when the material balance moved by at least a minor piece's worth
//! ([`MIN_GAIN`]) for the solver; a line with neither is no puzzle.
//!
//! Units: a *move* of the solver is one of its plies (a mate in 2 is two solver moves and
//! one reply in between, three plies); scores are centipawns (a Bia is about 100) from the
//! solver's point of view unless said otherwise; material is in centipawns by the engine's
//! piece values ([`material`]: Bia 100, Met and Bia-ngai 180, Khon 270, Ma 310, Ruea 500).
//!
//! ```
//! use makruk::{Game, Position, Ruleset};
//! use makruk_engine::puzzle::{find, FindConfig, Theme};
//! use makruk_engine::Engine;
//!
//! // Khun, Ruea and Khon against a bare Khun, the pieces' honour count (16 moves, 32 plies)
//! // at its last ply: only Ra8, mate now, wins; without the count Ra7 would mate in 2 too.
//! let fen = "7k/8/6K1/8/8/8/8/R4S2 w - 32 32 40";
//! let pos = Position::from_fen(fen, Ruleset::Standard).unwrap();
//! let mut engine = Engine::new(4);
//! let cfg = FindConfig { prefilter_nodes: 2_000, nodes: 20_000, ..FindConfig::default() };
//! let puzzle = find(&mut engine, &Game::from_position(pos), &cfg).expect("a mate in 1");
//! assert_eq!(puzzle.moves, ["a1a8"]);
//! assert_eq!(puzzle.themes, [Theme::Mate, Theme::MateIn(1), Theme::Counting]);
//! ```

use crate::analysis::winning_chances;
use crate::evaluate::value;
use crate::search::Engine;
use crate::uci::move_to_uci;
use crate::{Limits, Score};
use makruk::{count_info, Color, Game, Move, Position, Role, Ruleset};
use std::sync::atomic::AtomicBool;

/// The margin of [`Engine::best_two`], in centipawns: every root move within it of the best
/// is scored exactly. At least [`MIN_GAP_CP`], so that a second best outside it is known to
/// be clearly worse; larger, so that the winning-chances test sees more exact scores.
pub const BEST_TWO_MARGIN: i32 = 250;

/// The smallest gap between the solution and the second best move, in centipawns.
pub const MIN_GAP_CP: i32 = 150;

/// The smallest gap between the solution and the second best move in winning chances
/// ([`crate::analysis::winning_chances`], on −1..1).
pub const MIN_GAP_CHANCES: f64 = 0.3;

/// The highest eval (centipawns, for the solver, after the line) of a [`Theme::Defend`]
/// puzzle: the solver is not winning, it only avoids losing; its negative is the lowest (a
/// solver that is lost anyway has nothing to defend).
pub const DEFEND_MAX_CP: i32 = 100;

/// The least material of each side for a [`Theme::Defend`] puzzle, in centipawns
/// ([`material`]): two Ruea's worth. In smaller endings our evaluation is too unsure to tell
/// a lost position from a drawn one (a check against Fairy-Stockfish disagreed on 7 of 28
/// `defend` puzzles with a Ruea's worth as the limit, most of them small endings).
pub const DEFEND_MIN_MATERIAL: i32 = 1000;

/// The material gain of a [`Theme::WinMaterial`] line, in centipawns ([`material`]): a
/// minor piece's worth, the engine's Khon (270; a Ma is 310, so a Khon, a Ma, a Ruea for a
/// Ma, or a Met and a Bia count, two Bia do not).
pub const MIN_GAIN: i32 = 270;

/// The node budget of the search without the count ([`Theme::Counting`]), as a multiple of
/// [`FindConfig::nodes`]: a slower mate needs a deeper search than the fastest.
pub const FREE_NODES_FACTOR: u64 = 2;

/// A move that mates is searched again with this many times [`FindConfig::nodes`] before it
/// is taken as the only mate: another move's slower mate needs a deeper search.
pub const MATE_CHECK_FACTOR: u64 = 4;

/// The most a move other than the first move of a mate may score, in centipawns: where
/// another move still wins by more, a deeper search usually finds that it mates too (a
/// slower mate that our search does not see), so the position is no puzzle.
pub const MATE_ALT_MAX_CP: i32 = 600;

/// The most moves of the solver in a line.
pub const MAX_SOLVER_MOVES: u8 = 5;

/// A puzzle: a position and its only solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The start position in Fairy-Stockfish form ([`Position::fen`]): `<placement> <w|b> -
    /// <limit> <ply> <fullmove>` while a count runs, else `<placement> <w|b> - - <halfmoves>
    /// <fullmove>`. The side to move is the solver.
    pub fen: String,
    /// The solution line in UCI, one entry per ply: the solver's moves at even indices, the
    /// opponent's replies at odd ones; it starts and ends with a solver move (odd length).
    pub moves: Vec<String>,
    /// The puzzle's rating ([`rating`]), 600..=2600.
    pub rating: i32,
    /// The themes derived from the line ([`Theme`]), at least one.
    pub themes: Vec<Theme>,
}

impl Puzzle {
    /// The number of the solver's moves in the line (`(moves.len() + 1) / 2`).
    #[must_use]
    pub fn solver_moves(&self) -> u8 {
        u8::try_from(self.moves.len().div_ceil(2)).unwrap_or(u8::MAX)
    }

    /// A stable short id: six lowercase base-36 characters of the 64-bit FNV-1a hash of the
    /// FEN, a space and the moves joined by spaces.
    #[must_use]
    pub fn id(&self) -> String {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let text = format!("{} {}", self.fen, self.moves.join(" "));
        for b in text.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        let digits = b"0123456789abcdefghijklmnopqrstuvwxyz";
        let mut n = h % 36u64.pow(6);
        let mut id = [b'0'; 6];
        for c in id.iter_mut().rev() {
            *c = digits[(n % 36) as usize];
            n /= 36;
        }
        String::from_utf8_lossy(&id).into_owned()
    }
}

/// What a puzzle is about, derived from its line (module docs).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Theme {
    /// The line ends in checkmate.
    Mate,
    /// Mate in this many moves of the solver, 1..=5 (key `mateIn2`).
    MateIn(u8),
    /// The line wins at least a minor piece's worth of material ([`MIN_GAIN`]), counted after
    /// the opponent's best reply to the last solver move.
    WinMaterial,
    /// A count runs (ruleset `standard`) and only its limit makes the mate unique: without
    /// the count another first move would mate too.
    Counting,
    /// The solver is neither winning nor lost after the line (eval within
    /// ±[`DEFEND_MAX_CP`]), but every other
    /// first move loses clearly (at least [`BEST_TWO_MARGIN`] worse); each side has at least
    /// [`DEFEND_MIN_MATERIAL`].
    Defend,
}

impl Theme {
    /// The theme's key, as stored: `mate`, `mateIn1` … `mateIn5`, `winMaterial`, `counting`,
    /// `defend`.
    #[must_use]
    pub fn key(&self) -> String {
        match self {
            Theme::Mate => "mate".to_string(),
            Theme::MateIn(n) => format!("mateIn{n}"),
            Theme::WinMaterial => "winMaterial".to_string(),
            Theme::Counting => "counting".to_string(),
            Theme::Defend => "defend".to_string(),
        }
    }

    /// The theme of a key written by [`Theme::key`]; `None` for anything else (also
    /// `mateIn0` and `mateIn6` and beyond).
    #[must_use]
    pub fn from_key(key: &str) -> Option<Theme> {
        match key {
            "mate" => Some(Theme::Mate),
            "winMaterial" => Some(Theme::WinMaterial),
            "counting" => Some(Theme::Counting),
            "defend" => Some(Theme::Defend),
            _ => {
                let n: u8 = key.strip_prefix("mateIn")?.parse().ok()?;
                (1..=MAX_SOLVER_MOVES)
                    .contains(&n)
                    .then_some(Theme::MateIn(n))
            }
        }
    }
}

/// The node budgets of [`find`].
#[derive(Clone, Debug, PartialEq)]
pub struct FindConfig {
    /// Nodes of the cheap first test of the candidate position (a [`Engine::best_two`]).
    pub prefilter_nodes: u64,
    /// Nodes of each deep search: every solver move's [`Engine::best_two`] and every
    /// opponent reply's search.
    pub nodes: u64,
    /// The most moves of the solver in a line, 1..=[`MAX_SOLVER_MOVES`].
    pub max_solver_moves: u8,
    /// The smallest centipawn gap between the solution and the second best of a line that
    /// does not mate: at least [`MIN_GAP_CP`] (the rule), at most [`BEST_TWO_MARGIN`] (what
    /// the search proves); a generator may ask for more to be safer.
    pub min_gap_cp: i32,
    /// The smallest gap in winning chances (−1..1) of such a line: at least
    /// [`MIN_GAP_CHANCES`].
    pub min_gap_chances: f64,
}

impl Default for FindConfig {
    /// 20,000 nodes for the first test, 300,000 for each deep search, at most 5 solver moves,
    /// the rule's gaps ([`MIN_GAP_CP`], [`MIN_GAP_CHANCES`]).
    fn default() -> FindConfig {
        FindConfig {
            prefilter_nodes: 20_000,
            nodes: 300_000,
            max_solver_moves: MAX_SOLVER_MOVES,
            min_gap_cp: MIN_GAP_CP,
            min_gap_chances: MIN_GAP_CHANCES,
        }
    }
}

/// The two best root moves of a position ([`Engine::best_two`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BestTwo {
    /// The best move.
    pub best: Move,
    /// Its score, exact, from the side to move's point of view.
    pub best_score: Score,
    /// The second best move and its score: exact when within [`BEST_TWO_MARGIN`] of the best,
    /// else an upper bound (the move is at least the margin worse). `None` with one legal
    /// move.
    pub second: Option<(Move, Score)>,
}

impl Engine {
    /// The two best moves of the current position of `game` (history counts) within
    /// `limits`, by a MultiPV-like root search that scores every move within
    /// [`BEST_TWO_MARGIN`] centipawns of the best exactly; from the last finished iteration.
    /// `None` when the side to move has no legal move.
    ///
    /// The second's score is exact or an upper bound: a root move searched with the floor
    /// `best − margin` that fails low returns at most that floor (an upper bound of its
    /// value), and the best only rises during an iteration, so a bound never exceeds
    /// `best − margin`. A mate is never outside the margin of a non-mate, so two mating moves
    /// are both exact.
    pub fn best_two(&mut self, game: &Game, limits: &Limits) -> Option<BestTwo> {
        let stop = AtomicBool::new(false);
        let (_, mut root) =
            self.search_with(game, limits, &stop, &mut |_| {}, Some(BEST_TWO_MARGIN));
        root.retain(|r| r.1 > -crate::MATE - 1);
        root.sort_by_key(|r| std::cmp::Reverse(r.1));
        let (best, v) = *root.first()?;
        Some(BestTwo {
            best,
            best_score: crate::search::to_score(v),
            second: root
                .get(1)
                .map(|&(m, s)| (m, crate::search::to_score(s.min(v)))),
        })
    }
}

/// True when `bt.best` is the only good move by the acceptance rule (module docs), with its
/// minimum gaps ([`MIN_GAP_CP`], [`MIN_GAP_CHANCES`]). One legal move is unique.
#[must_use]
pub fn is_unique(bt: &BestTwo) -> bool {
    is_unique_by(bt, MIN_GAP_CP, MIN_GAP_CHANCES)
}

/// [`is_unique`] with other gaps for a best move that does not mate: `min_cp` centipawns
/// and `min_chances` winning chances (−1..1). Only stricter gaps than the rule's make sense;
/// a gap beyond [`BEST_TWO_MARGIN`] cannot be proved by [`Engine::best_two`].
#[must_use]
pub fn is_unique_by(bt: &BestTwo, min_cp: i32, min_chances: f64) -> bool {
    let Some((_, second)) = bt.second else {
        return true;
    };
    match (bt.best_score, second) {
        (Score::Mate(n), Score::Mate(m)) if n > 0 => m <= 0,
        (Score::Mate(n), _) => n > 0,
        (Score::Cp(b), s) => {
            let s = s.to_internal().max(-crate::MATE);
            b - s >= min_cp && winning_chances(b) - winning_chances(s) >= min_chances
        }
    }
}

/// The centipawn gap between the best and the second best (an upper bound of the second
/// gives a lower bound of the gap); `i32::MAX` with one legal move.
fn gap(bt: &BestTwo) -> i32 {
    bt.second.map_or(i32::MAX, |(_, s)| {
        bt.best_score.to_internal() - s.to_internal().max(-crate::MATE)
    })
}

/// The rating of a new puzzle with `solver_moves` moves of the solver and these themes:
/// 1000 + 250 per solver move beyond the first; a mate in 1 is 800; +300 for
/// [`Theme::Counting`], +250 for [`Theme::Defend`], +100 for a [`Theme::WinMaterial`] line
/// of three or more solver moves; clamped to 600..=2600.
#[must_use]
pub fn rating(solver_moves: u8, themes: &[Theme]) -> i32 {
    let n = i32::from(solver_moves.max(1));
    let mut r = if themes.contains(&Theme::MateIn(1)) {
        800
    } else {
        1000 + 250 * (n - 1)
    };
    if themes.contains(&Theme::Counting) {
        r += 300;
    }
    if themes.contains(&Theme::Defend) {
        r += 250;
    }
    if themes.contains(&Theme::WinMaterial) && n >= 3 {
        r += 100;
    }
    r.clamp(600, 2600)
}

/// Material of `side` in centipawns by the engine's values ([`crate::evaluate::value`]:
/// Bia 100, Met and Bia-ngai 180, Khon 270, Ma 310, Ruea 500; the Khun not counted).
#[must_use]
pub fn material(pos: &Position, side: Color) -> i32 {
    [Role::Bia, Role::Met, Role::Khon, Role::Ma, Role::Ruea]
        .into_iter()
        .map(|r| value(r) * i32::try_from(pos.board().by_piece(side, r).count()).unwrap_or(0))
        .sum()
}

/// Material of `side` minus its opponent's, in centipawns ([`material`]).
fn balance(pos: &Position, side: Color) -> i32 {
    material(pos, side) - material(pos, side.other())
}

fn limits(nodes: u64) -> Limits {
    Limits {
        nodes: Some(nodes.max(1)),
        ..Limits::default()
    }
}

/// True when the opponent's last move in `game` captured and `m` takes back on that square: a
/// recapture that anyone sees, no puzzle unless it mates.
fn is_recapture(game: &Game, m: &Move) -> bool {
    game.moves()
        .last()
        .is_some_and(|last| last.is_capture() && m.is_capture() && m.to == last.to)
}

/// True when no root move of `game` but the best scores above `cp` centipawns, by a root
/// search whose floor for the other moves is `cp` (those at most `cp` fail low cheaply).
fn others_at_most(engine: &mut Engine, game: &Game, nodes: u64, cp: i32) -> bool {
    let stop = AtomicBool::new(false);
    let (_, mut root) = engine.search_with(
        game,
        &limits(nodes),
        &stop,
        &mut |_| {},
        Some(crate::MATE - cp),
    );
    root.sort_by_key(|r| std::cmp::Reverse(r.1));
    root.get(1).is_none_or(|r| r.1 <= cp)
}

/// The placement of `pos` as a game without any count (ruleset `fifty-move`, clock at 0).
fn without_count(pos: &Position) -> Option<Game> {
    let mut setup = pos.setup();
    setup.count_limit = 0;
    setup.count_ply = 0;
    setup.halfmoves = 0;
    Position::from_setup(setup, Ruleset::FiftyMove)
        .ok()
        .map(Game::from_position)
}

/// The puzzle of the current position of `game`, the side to move solving, or `None` when it
/// has none by the acceptance rule (module docs). First a cheap test
/// ([`FindConfig::prefilter_nodes`]), then the deep line ([`FindConfig::nodes`] per search).
/// The engine's table is cleared before the deep line, so the result does not depend on
/// earlier searches of the same engine once the first test passed. `None` also when the game
/// is over, or the solver has a single legal move.
pub fn find(engine: &mut Engine, game: &Game, cfg: &FindConfig) -> Option<Puzzle> {
    if game.outcome().is_some() || game.position().count_legal() < 2 {
        return None;
    }
    let first = engine.best_two(game, &limits(cfg.prefilter_nodes))?;
    if !is_unique_by(&first, cfg.min_gap_cp, cfg.min_gap_chances)
        || (!matches!(first.best_score, Score::Mate(n) if n > 0) && is_recapture(game, &first.best))
        || matches!(first.best_score, Score::Mate(n) if n > i32::from(cfg.max_solver_moves))
    {
        return None;
    }
    engine.new_game();
    let max = cfg.max_solver_moves.clamp(1, MAX_SOLVER_MOVES);
    let start = game.position().clone();
    let solver = start.turn();
    let mut g = game.clone();
    let mut line: Vec<Move> = Vec::new();
    let mut mate_line = false;
    let mut last_score = Score::Cp(0);
    let mut first_gap = 0;
    // The balance after the opponent's best reply to the last solver move (or after that
    // move when the game ends there).
    let mut gain_after = 0;
    for k in 1..=max {
        let mut bt = engine.best_two(&g, &limits(cfg.nodes))?;
        if matches!(bt.best_score, Score::Mate(n) if n > 0) && is_unique(&bt) {
            // A slower mate by another move is found only deeper: look again.
            let deeper = cfg.nodes.saturating_mul(MATE_CHECK_FACTOR);
            bt = engine.best_two(&g, &limits(deeper))?;
        }
        if !is_unique_by(&bt, cfg.min_gap_cp, cfg.min_gap_chances) {
            if k == 1 {
                return None;
            }
            // The reply before this move goes too: the line ends on a solver move.
            line.pop();
            g.undo();
            break;
        }
        if k == 1 {
            mate_line = matches!(bt.best_score, Score::Mate(n) if n > 0);
            if mate_line && !others_at_most(engine, &g, cfg.nodes, MATE_ALT_MAX_CP) {
                return None;
            }
            if matches!(bt.best_score, Score::Mate(n) if n > i32::from(max))
                || (!mate_line && is_recapture(game, &bt.best))
            {
                return None;
            }
        } else if mate_line != matches!(bt.best_score, Score::Mate(n) if n > 0) {
            return None;
        }
        last_score = bt.best_score;
        if k == 1 {
            first_gap = gap(&bt);
        }
        g.play(&bt.best).ok()?;
        line.push(bt.best);
        if g.position().is_checkmate() || g.outcome().is_some() {
            gain_after = balance(g.position(), solver) - balance(&start, solver);
            break;
        }
        let reply = engine.search(&g, &limits(cfg.nodes), &AtomicBool::new(false), &mut |_| {});
        let reply = reply.best?;
        g.play(&reply).ok()?;
        gain_after = balance(g.position(), solver) - balance(&start, solver);
        if !mate_line && gain_after >= MIN_GAIN {
            g.undo();
            break;
        }
        if k == max || g.outcome().is_some() {
            g.undo();
            break;
        }
        line.push(reply);
    }
    if line.len() % 2 == 0 {
        return None;
    }
    let mated = g.position().is_checkmate();
    let n = u8::try_from(line.len().div_ceil(2)).ok()?;
    let mut themes = Vec::new();
    if mate_line {
        if !mated {
            return None;
        }
        themes.push(Theme::Mate);
        themes.push(Theme::MateIn(n));
        if counting_matters(engine, &start, cfg) {
            themes.push(Theme::Counting);
        }
    } else {
        if count_info(&start).is_some() {
            // A counting ending: our evaluation of those is too unsure for a puzzle that
            // does not mate.
            return None;
        }
        let eval = match last_score {
            Score::Cp(cp) => cp,
            Score::Mate(_) => return None,
        };
        if eval <= DEFEND_MAX_CP {
            if eval < -DEFEND_MAX_CP {
                // Lost anyway: the other moves only lose faster.
                return None;
            }
            // Every other move must lose clearly (beyond the margin), and in a small ending
            // the evaluation is too unsure to tell a loss from a draw.
            let enough = |c| material(&start, c) >= DEFEND_MIN_MATERIAL;
            if first_gap < BEST_TWO_MARGIN || !enough(Color::White) || !enough(Color::Black) {
                return None;
            }
            themes.push(Theme::Defend);
        } else if gain_after >= MIN_GAIN {
            themes.push(Theme::WinMaterial);
        } else {
            return None;
        }
    }
    Some(Puzzle {
        fen: start.fen(),
        moves: line.iter().map(move_to_uci).collect(),
        rating: rating(n, &themes),
        themes,
    })
}

/// True when a count runs in `start` (ruleset `standard`) and, with the count taken away,
/// another first move than the best would mate as well (a search of
/// [`FREE_NODES_FACTOR`] × [`FindConfig::nodes`]): the count is what makes the mate unique.
fn counting_matters(engine: &mut Engine, start: &Position, cfg: &FindConfig) -> bool {
    if start.ruleset() != Ruleset::Standard || count_info(start).is_none() {
        return false;
    }
    let Some(free) = without_count(start) else {
        return false;
    };
    engine.new_game();
    let bt = engine.best_two(&free, &limits(cfg.nodes.saturating_mul(FREE_NODES_FACTOR)));
    engine.new_game();
    let Some(BestTwo {
        best_score: Score::Mate(n),
        second: Some((_, Score::Mate(m))),
        ..
    }) = bt
    else {
        return false;
    };
    n > 0 && m > 0
}
