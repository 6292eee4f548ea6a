//! Makruk (Thai chess) rules: bitboards, legal move generation, FEN/SAN/UCI/PGN, counting and
//! draws under the four rulesets of `RULES.md`. No async, no I/O.

pub mod attacks;
mod bitboard;
mod board;
pub mod count;
mod explain;
pub mod fen;
mod game;
pub mod pgn;
mod position;
mod ruleset;
pub mod san;
mod setup;
mod thai;
mod types;
pub mod uci;
mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use count::{
    BoardHonour, CounterMates, LimitReason, NoProgressRule, PiecesHonourTable, RuleTable,
};
pub use explain::{explain_illegal, IllegalMove, Movement, Step, StepShape};
pub use fen::ParseFenError;
pub use game::{
    count_info, counting_draw, CountAction, CountEvent, CountInfo, CountKind, CountRequestError,
    DrawReason, Game, Outcome, Warning, WinReason,
};
pub use pgn::analysis_url;
pub use position::{FenError, MoveList, PlayError, Position, PositionError, MAX_MOVES};
pub use ruleset::{ParseRulesetError, Ruleset};
pub use san::{parse_move, MoveInputError, Unreadable};
pub use setup::Setup;
pub use types::{Color, Move, ParseSquareError, Piece, Role, Square};
