//! UCI (long algebraic) moves: `e3e4`, and `d5c6m` for a move that promotes a Bia to a
//! Bia-ngai (the suffix Fairy-Stockfish uses for Makruk; docs/RULES.md "Notation"). This module
//! is the syntax only; the legal move a UCI text names in a position is
//! [`crate::notation::parse_uci`].
//!
//! ```
//! use makruk::{parse_uci, uci, Position};
//!
//! let pos = Position::new();
//! let m = parse_uci(&pos, "e3e4")?;
//! assert_eq!(uci::to_uci(&m), "e3e4");
//! assert_eq!(uci::parse_uci_squares("e3-e4"), Some((m.from, m.to, false)));
//! # Ok::<(), makruk::MoveInputError>(())
//! ```

use crate::types::{Move, Role, Square};
use crate::variant::Variant;

/// The UCI form of `m`: origin square, target square, and `m` when the move promotes
/// (`e3e4`, `d5c6m`), as Fairy-Stockfish writes it for Makruk (the `Display` of [`Move`]).
#[must_use]
pub fn to_uci(m: &Move) -> String {
    m.to_string()
}

/// The UCI form of `m` in `variant`, as Fairy-Stockfish writes it there: as [`to_uci`], but a
/// drop is `R@a1` (Sittuyin), and a promotion's suffix is the new piece's letter in lower case
/// (ASEAN `e7e8r`, `e7e8n`, `e7e8b`, `e7e8q`; Sittuyin `e4e4f`, `d4e5f`; Makruk-like `m`).
#[must_use]
pub fn to_uci_in(m: &Move, variant: Variant) -> String {
    if m.is_drop() {
        return format!("{}@{}", variant.role_char(m.role), m.to);
    }
    let mut s = format!("{}{}", m.from, m.to);
    if let Some(r) = m.promotion_role() {
        s.push(variant.role_char(r).to_ascii_lowercase());
    }
    s
}

/// Reads a drop `R@a1` (a letter of `variant`, `@`, a square): the role and the square.
#[must_use]
pub fn parse_drop(s: &str, variant: Variant) -> Option<(Role, Square)> {
    let (piece, sq) = s.trim().split_once('@')?;
    let mut chars = piece.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        return None;
    };
    Some((variant.role_from_char(c)?, sq.parse().ok()?))
}

/// The squares of a UCI-like text: `e3e4`, `e3-e4`, `e3xe4`, with an optional promotion suffix
/// (`m`, `=m`, `M`) — without looking at any position. Returns `(from, to, promotion suffix
/// written)`, or `None` if `s` is not of that form.
#[must_use]
pub fn parse_uci_squares(s: &str) -> Option<(Square, Square, bool)> {
    let b = s.trim().as_bytes();
    if b.len() < 4 || b.len() > 7 {
        return None;
    }
    let from: Square = std::str::from_utf8(&b[..2]).ok()?.parse().ok()?;
    let mut rest = &b[2..];
    if let Some((&sep, tail)) = rest.split_first() {
        if matches!(sep, b'-' | b'x' | b':') {
            rest = tail;
        }
    }
    if rest.len() < 2 {
        return None;
    }
    let to: Square = std::str::from_utf8(&rest[..2]).ok()?.parse().ok()?;
    let promo = match &rest[2..] {
        [] => false,
        [p] | [b'=', p] if matches!(p, b'm' | b'M') => true,
        _ => return None,
    };
    Some((from, to, promo))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().expect("square")
    }

    #[test]
    fn squares_of_uci_forms() {
        assert_eq!(parse_uci_squares("e3e4"), Some((sq("e3"), sq("e4"), false)));
        assert_eq!(
            parse_uci_squares("e3-e4"),
            Some((sq("e3"), sq("e4"), false))
        );
        assert_eq!(parse_uci_squares("d5c6m"), Some((sq("d5"), sq("c6"), true)));
        assert_eq!(
            parse_uci_squares("d5c6=M"),
            Some((sq("d5"), sq("c6"), true))
        );
        assert_eq!(parse_uci_squares("e3e9"), None);
        assert_eq!(parse_uci_squares("e3e4q"), None);
        assert_eq!(parse_uci_squares("e3"), None);
        assert_eq!(parse_uci_squares("ก๓ก๔"), None);
    }
}
