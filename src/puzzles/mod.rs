//! Puzzles (issue 24): the shipped set, a puzzle's solution line and how a move is judged
//! against it, the themes a player may ask for, and the daily puzzle's time of day. Pure: the
//! game service (`crate::game`, its `puzzles` file) keeps the attempts, ratings and daily
//! puzzles in the database, and the Discord adapter presents them.
//!
//! The shipped set is `puzzles/puzzles.jsonl.gz`, made by our engine's generator
//! (`engine/examples/puzzle_gen.rs`; provenance, acceptance rule and Fairy-Stockfish's
//! agreement in `puzzles/README.md`), compiled into the binary and stored in the database at
//! start-up ([`crate::game::GameService::install_puzzles`]).

pub mod cli;
pub mod daily;
pub mod from_games;

use std::io::{BufRead, BufReader};
use std::sync::OnceLock;

use makruk::{Move, Position, Ruleset};
use serde::{Deserialize, Serialize};

/// The shipped set, gzipped JSON lines (see `puzzles/README.md`).
const SHIPPED_GZ: &[u8] = include_bytes!("../../puzzles/puzzles.jsonl.gz");

/// One puzzle of the shipped set, as a line of `puzzles/puzzles.jsonl.gz`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShippedPuzzle {
    /// A stable short id (unique in the set).
    pub id: String,
    /// The start position, Fairy-Stockfish's FEN form; the solver is to move.
    pub fen: String,
    /// The solution line in UCI: the solver's move first, the opponent's replies between.
    pub moves: Vec<String>,
    /// The puzzle's starting rating (Glicko scale), from its depth and theme.
    pub rating: i32,
    /// Theme keys (`mate`, `mateIn2`, `winMaterial`, `counting`, `defend`), derived by the
    /// generator.
    pub themes: Vec<String>,
    /// Where it comes from (`selfplay:…`, `fsf-mates:…`, `counting:…`).
    #[serde(default)]
    pub source: String,
}

/// The shipped set, read once from the binary. A line that cannot be read is left out and
/// logged (the unit tests read every line).
pub fn shipped() -> &'static [ShippedPuzzle] {
    static SET: OnceLock<Vec<ShippedPuzzle>> = OnceLock::new();
    SET.get_or_init(|| {
        let reader = BufReader::new(flate2::read::GzDecoder::new(SHIPPED_GZ));
        let mut set = Vec::new();
        for (i, line) in reader.lines().enumerate() {
            match line
                .map_err(anyhow::Error::from)
                .and_then(|l| Ok(serde_json::from_str::<ShippedPuzzle>(&l)?))
            {
                Ok(p) => set.push(p),
                Err(e) => tracing::error!(line = i + 1, "a shipped puzzle cannot be read: {e}"),
            }
        }
        set
    })
}

/// The themes a player may ask `/puzzle` for (keys as the generator writes them).
pub const THEMES: &[&str] = &[
    "mate",
    "mateIn1",
    "mateIn2",
    "mateIn3",
    "winMaterial",
    "counting",
    "defend",
];

/// The theme the daily puzzle never has.
pub const NOT_DAILY_THEME: &str = "mateIn1";

/// A puzzle's solution line, read and checked: every move legal in turn.
#[derive(Clone, Debug)]
pub struct Line {
    /// The start position (the solver to move).
    pub start: Position,
    /// The solution line (solver's moves at even indices).
    pub moves: Vec<Move>,
}

/// How a move compares with the solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The solution's move (or another move that mates at once); the line goes on with the
    /// opponent's reply.
    Right,
    /// The solution's move, and the line is done.
    Solved,
    /// Another legal move: the puzzle is failed.
    Wrong,
}

impl Line {
    /// Reads `fen` (under `standard`: the puzzles' counting is standard's) and the UCI moves.
    ///
    /// # Errors
    /// A text naming what is wrong: the FEN, a move that is not legal in turn, an empty line or
    /// one that ends on the opponent's move.
    pub fn new<S: AsRef<str>>(fen: &str, moves: &[S]) -> anyhow::Result<Line> {
        let start = Position::from_fen(fen, Ruleset::Standard)
            .map_err(|e| anyhow::anyhow!("bad puzzle FEN {fen:?}: {e}"))?;
        let mut pos = start.clone();
        let mut line = Vec::with_capacity(moves.len());
        for text in moves {
            let text = text.as_ref();
            let m = makruk::parse_move(&pos, text)
                .map_err(|e| anyhow::anyhow!("puzzle move {text:?} is not legal: {e}"))?;
            pos.play(&m)
                .map_err(|e| anyhow::anyhow!("puzzle move {text:?}: {e}"))?;
            line.push(m);
        }
        if line.is_empty() || line.len() % 2 == 0 {
            anyhow::bail!("a puzzle line must end on the solver's move");
        }
        Ok(Line { start, moves: line })
    }

    /// The position after the first `plies` moves of the line.
    #[must_use]
    pub fn position_after(&self, plies: usize) -> Position {
        let mut pos = self.start.clone();
        for m in self.moves.iter().take(plies) {
            pos.play_unchecked(m);
        }
        pos
    }

    /// The solver's moves in the line.
    #[must_use]
    pub fn solver_moves(&self) -> usize {
        self.moves.len().div_ceil(2)
    }

    /// Judges `m`, played in the position after `progress` plies (the solver to move).
    #[must_use]
    pub fn judge(&self, progress: usize, m: &Move) -> Verdict {
        let Some(expected) = self.moves.get(progress) else {
            return Verdict::Wrong;
        };
        let last = progress + 1 >= self.moves.len();
        if m == expected {
            return if last {
                Verdict::Solved
            } else {
                Verdict::Right
            };
        }
        // Another mate at once is as good as the solution's (lichess accepts it too).
        let after = self.position_after(progress).after(m);
        if after.is_checkmate() {
            return Verdict::Solved;
        }
        Verdict::Wrong
    }

    /// The line from ply `from` on, each move as (SAN, Thai SAN).
    #[must_use]
    pub fn san_from(&self, from: usize) -> Vec<(String, String)> {
        let mut pos = self.position_after(from);
        self.moves[from.min(self.moves.len())..]
            .iter()
            .map(|m| {
                let san = makruk::san::to_san(&pos, m);
                let thai = makruk::san::to_thai_san(&pos, m);
                pos.play_unchecked(m);
                (san, thai)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_set_reads_whole_and_every_line_is_legal() {
        let gz = BufReader::new(flate2::read::GzDecoder::new(SHIPPED_GZ));
        let lines = gz.lines().count();
        let set = shipped();
        assert_eq!(set.len(), lines, "every line reads");
        assert!(set.len() >= 1000, "{} puzzles", set.len());
        let mut ids = std::collections::HashSet::new();
        for p in set {
            assert!(ids.insert(p.id.as_str()), "duplicate id {}", p.id);
            let line = Line::new(&p.fen, &p.moves).unwrap_or_else(|e| panic!("{}: {e}", p.id));
            assert!(!p.themes.is_empty(), "{} has no theme", p.id);
            if p.themes.iter().any(|t| t == "mate") {
                let end = line.position_after(line.moves.len());
                assert!(end.is_checkmate(), "{}: a mate puzzle ends in mate", p.id);
            }
        }
        assert!(
            set.iter()
                .filter(|p| p.themes.iter().any(|t| t == "counting"))
                .count()
                >= 100
        );
    }

    #[test]
    fn a_move_is_judged_against_the_line() {
        let p = shipped()
            .iter()
            .find(|p| p.moves.len() >= 3)
            .expect("a puzzle of two moves or more");
        let line = Line::new(&p.fen, &p.moves).expect("legal");
        assert_eq!(line.judge(0, &line.moves[0]), Verdict::Right);
        let last = line.moves.len() - 1;
        assert_eq!(line.judge(last, &line.moves[last]), Verdict::Solved);
        let other = line
            .start
            .legal_moves()
            .into_iter()
            .find(|m| *m != line.moves[0] && !line.start.after(m).is_checkmate())
            .expect("another move");
        assert_eq!(line.judge(0, &other), Verdict::Wrong);
        assert_eq!(line.san_from(0).len(), line.moves.len());
    }

    #[test]
    fn a_line_ending_on_the_opponents_move_is_refused() {
        let p = shipped()
            .iter()
            .find(|p| p.moves.len() >= 3)
            .expect("puzzle");
        assert!(Line::new(&p.fen, &p.moves[..2]).is_err());
        assert!(Line::new(&p.fen, &["a1a1"]).is_err());
        assert!(Line::new("not a fen", &p.moves).is_err());
    }
}
