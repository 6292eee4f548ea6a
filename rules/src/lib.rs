//! Makruk (Thai chess) rules: bitboards, legal move generation, FEN/SAN/UCI/PGN, counting and
//! draws under the four rulesets of docs/RULES.md. No async, no I/O.
//!
//! [`Position`] is one validated position (placement, side to move, counting state), of Makruk
//! or of another game of its family ([`Variant`]: Makpong, Ouk Chaktrang, ASEAN chess,
//! Sittuyin, as Fairy-Stockfish defines them; `variant.rs`, [`Position::start_variant`],
//! [`Position::from_fen_variant`]). Makruk is the default, and the rulesets apply to it only.
//! [`Game`] is a whole game with its history, count requests and end by the rules.
//! What differs between the rulesets is data: [`Ruleset::rules`] gives a [`RuleTable`].
//!
//! Where each thing lives (one place each):
//! - the rulesets and their rule table: `ruleset.rs` ([`Ruleset`], [`RuleTable`]);
//! - the counting rule (board's honour, pieces' honour, requests, the limit, the draw):
//!   [`count`], read through [`count_info`], [`counting_draw`], [`Game::start_count`];
//! - FEN text, read and written: [`fen`] (into and from a [`Setup`]);
//! - writing moves: [`san`] (SAN and Thai SAN), [`uci`] (also the `Display` of [`Move`]);
//! - reading moves in every notation, and its error: [`notation`] ([`parse_move`],
//!   [`parse_uci`], [`MoveInputError`]);
//! - the game-end rules: `game.rs` ([`Game::outcome`]); PGN: [`pgn`].
//!
//! Modules depend only on modules before them in this order (no cycles; each file's
//! `use crate::` lines name its dependencies): `types`; `bitboard`; `board`; `attacks`,
//! `zobrist`; `variant`; `ruleset`; `count`; `setup`; `fen`; `position`; `explain`; `game`; `thai`, `uci`;
//! `san`; `notation`; `pgn`.
//!
//! ```
//! use makruk::{CountKind, DrawReason, Game, Outcome, Position, Ruleset};
//!
//! // Two Ruea against a bare Khun: pieces' honour, limit 8 moves, counting from 5.
//! let pos = Position::from_fen("4k3/8/8/R7/8/8/1R6/4K3 b - 16 8 1", Ruleset::Standard)?;
//! let mut game = Game::from_position(pos);
//! let count = game.count().expect("a count runs");
//! assert_eq!((count.kind, count.limit, count.current), (CountKind::PiecesHonour, 8, 4));
//! let m = game.position().legal_moves()[0];
//! game.play(&m)?;
//! assert_eq!(game.count().map(|c| c.current), Some(5));
//! assert_eq!(game.outcome(), None);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

pub mod attacks;
mod bitboard;
mod board;
pub mod count;
mod explain;
pub mod fen;
mod game;
pub mod notation;
pub mod pgn;
mod position;
mod ruleset;
pub mod san;
mod setup;
mod thai;
mod types;
pub mod uci;
mod variant;
mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use count::{CountInfo, CountKind, CountRequestError, LimitReason};
pub use explain::{explain_illegal, IllegalMove, Movement, OukJumpBar, Step, StepShape};
pub use fen::ParseFenError;
pub use game::{
    count_info, counting_draw, CountAction, CountEvent, DrawReason, Game, Outcome, Warning,
    WinReason,
};
pub use notation::{
    invisible_char_name, parse_move, parse_uci, MoveInputError, Unreadable, MAX_MOVE_INPUT_CHARS,
};
pub use pgn::analysis_url;
pub use position::{FenError, MoveList, PlayError, Position, PositionError, MAX_MOVES};
pub use ruleset::{
    BoardHonour, CounterMates, NoProgressRule, ParseRulesetError, PiecesHonourTable, RuleTable,
    Ruleset,
};
pub use setup::Setup;
pub use types::{Color, Move, ParseSquareError, Piece, Role, Square};
pub use variant::{ParseVariantError, Variant};
