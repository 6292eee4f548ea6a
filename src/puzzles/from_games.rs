//! Puzzles from a server's own finished games (issue 24): after a game's computer analysis, the
//! moments where a player missed a win become puzzles for that server ("from @alice's game
//! on 3 May"). Pure and CPU-bound (call it off the async runtime).
//!
//! A candidate is a ply judged a mistake or a blunder (lichess's Advice, see
//! `makruk_engine::analysis`) where the mover was winning before it: the analysis' eval of the
//! position before the move gives the mover at least [`WINNING_CP`] centipawns, or a mate. The
//! position before the move is then put to the generator's own test
//! ([`makruk_engine::puzzle::find`]): only a position whose solution is the one good move at
//! every step becomes a puzzle. Only `standard` games (the puzzles' counting) and only moves of
//! people (never the computer's).

use makruk::{Color, Game, Ruleset};
use makruk_engine::analysis::{Analysis, Eval, Judgement};
use makruk_engine::puzzle::{find, FindConfig, Puzzle};
use makruk_engine::Engine;

/// The least advantage, in centipawns for the mover, that counts as a win to miss.
pub const WINNING_CP: i32 = 300;
/// The most positions of one game put to the test (worst moves first).
pub const MAX_CANDIDATES: usize = 3;

/// A puzzle found in a game: the ply (0-based) whose position before it is the puzzle's start,
/// and the player's side who missed it.
#[derive(Clone, Debug, PartialEq)]
pub struct GamePuzzle {
    pub ply: usize,
    pub mover: Color,
    pub puzzle: Puzzle,
}

/// The plies of `analysis` where the mover missed a win, worst first, at most
/// [`MAX_CANDIDATES`]; `people` says which sides were played by people.
#[must_use]
pub fn missed_wins(analysis: &Analysis, people: impl Fn(Color) -> bool) -> Vec<usize> {
    let mut found: Vec<(f64, usize)> = analysis
        .plies
        .iter()
        .filter(|p| people(p.mover))
        .filter(|p| {
            p.judged
                .advice
                .is_some_and(|a| matches!(a.judgement, Judgement::Mistake | Judgement::Blunder))
        })
        .filter(|p| match p.eval_before.for_side(p.mover) {
            Eval::Cp(cp) => cp >= WINNING_CP,
            Eval::Mate(n) => n > 0,
            Eval::Checkmate { .. } => false,
        })
        .map(|p| (p.judged.win_drop(), p.ply))
        .collect();
    found.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    found
        .into_iter()
        .take(MAX_CANDIDATES)
        .map(|(_, ply)| ply)
        .collect()
}

/// The puzzles of `game` (as played, its `analysis` made): each candidate of [`missed_wins`]
/// that passes [`find`] at `cfg`'s budgets, on `engine`.
#[must_use]
pub fn puzzles_of_game(
    engine: &mut Engine,
    game: &Game,
    analysis: &Analysis,
    people: impl Fn(Color) -> bool,
    cfg: &FindConfig,
) -> Vec<GamePuzzle> {
    // Puzzles are Makruk's (standard): the other variants' games give none.
    if game.ruleset() != Ruleset::Standard || game.start().variant() != makruk::Variant::Makruk {
        return Vec::new();
    }
    let mut out = Vec::new();
    for ply in missed_wins(analysis, people) {
        // The game up to the position before the move (standard counts by itself, so the
        // replay is the game as played).
        let mut before = Game::from_position(game.start().clone());
        if game.moves()[..ply].iter().any(|m| before.play(m).is_err()) {
            continue;
        }
        engine.new_game();
        if let Some(puzzle) = find(engine, &before, cfg) {
            out.push(GamePuzzle {
                ply,
                mover: before.position().turn(),
                puzzle,
            });
        }
    }
    out
}
