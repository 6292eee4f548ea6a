//! The rules-crate types the service's public API uses.
//!
//! TEMPORARY stand-ins: the `makruk` crate does not have `Ruleset`, `Position`, `LimitReason`,
//! `MoveInputError`, `CountRequestError` yet (API.md). As soon as it does, this module
//! becomes `pub use makruk::{...}` and these definitions go away. Adapter code should name them
//! through `makruk_bot::game::` (or `makruk::` once they exist there).

/// Stand-in for `makruk::Ruleset`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Ruleset {
    #[default]
    Standard,
    Traditional,
    Material,
    FiftyMove,
}

/// Stand-in for `makruk::Position`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position;

/// Stand-in for `makruk::LimitReason`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LimitReason {
    BoardsHonour,
    TwoRuea { side: makruk::Color },
    OneRuea { side: makruk::Color },
    TwoKhon { side: makruk::Color },
    TwoMa { side: makruk::Color },
    OneKhon { side: makruk::Color },
    Other { side: makruk::Color },
}

/// Stand-in for `makruk::MoveInputError`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad move")]
pub struct MoveInputError;

/// Stand-in for `makruk::CountRequestError`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("count request refused")]
pub struct CountRequestError;
