//! [`Setup`]: the raw fields of a FEN, not yet checked for legality.

use crate::board::Board;
use crate::types::Color;

/// The raw fields of a Fairy-Stockfish / pychess FEN (docs/RULES.md "Notation", FEN). The position
/// may be illegal; [`crate::Position::from_setup`] validates it. [`crate::fen`] reads and
/// writes it (`"…".parse::<Setup>()`, [`Setup::fen`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Piece placement.
    pub board: Board,
    /// Side to move.
    pub turn: Color,
    /// Counting limit in plies (0 = no count runs). FEN field 4 when it is a number.
    pub count_limit: u32,
    /// Counting ply, in plies (FEN field 5 when a count runs).
    pub count_ply: u32,
    /// Halfmove clock in plies (FEN field 5 when no count runs).
    pub halfmoves: u32,
    /// Fullmove number (FEN field 6), at least 1.
    pub fullmoves: u32,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::start()
    }
}

impl Setup {
    /// The start position `rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1`.
    #[must_use]
    pub fn start() -> Setup {
        Setup {
            board: Board::start(),
            turn: Color::White,
            count_limit: 0,
            count_ply: 0,
            halfmoves: 0,
            fullmoves: 1,
        }
    }
}
