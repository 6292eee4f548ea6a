//! Makruk (Thai chess) rules: bitboards, legal move generation, FEN/SAN/UCI/PGN, counting and
//! draws under the four rulesets of `RULES.md`. No async, no I/O.

pub mod attacks;
mod bitboard;
mod board;
pub mod count;
pub mod fen;
mod game;
mod position;
mod ruleset;
mod setup;
mod types;
mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use count::{BoardHonour, CounterMates, LimitReason, NoProgressRule, RuleTable};
pub use fen::ParseFenError;
pub use game::{
    count_info, counting_draw, CountAction, CountEvent, CountInfo, CountKind, CountRequestError,
    DrawReason, Game, Outcome, Warning, WinReason,
};
pub use position::{FenError, MoveList, PlayError, Position, PositionError, MAX_MOVES};
pub use ruleset::{ParseRulesetError, Ruleset};
pub use setup::Setup;
pub use types::{Color, Move, ParseSquareError, Piece, Role, Square};
