//! Makruk (Thai chess) rules: bitboards, legal move generation, FEN/SAN/UCI/PGN, counting and
//! draws under the four rulesets of `RULES.md`. No async, no I/O.

mod types;

pub use types::{Color, Move, ParseSquareError, Piece, Role, Square};
