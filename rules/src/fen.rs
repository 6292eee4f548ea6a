//! FEN reading and writing in the Fairy-Stockfish / pychess form (docs/RULES.md "Notation", FEN).
//!
//! Fields: placement, side to move, castling (always `-`), then either `- <halfmove clock>`
//! when no count runs or `<counting limit in plies> <counting ply>` when one runs, then the
//! fullmove number. Example: `8/3k4/6M~1/2K1S3/8/8/8/8 b - 88 8 1`.
//!
//! This module is the one place that reads and writes FEN text: [`parse`] gives a [`Setup`]
//! (also `"…".parse::<Setup>()`), [`write()`] and [`Setup::fen`] give the text back.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::setup::Setup;
use crate::types::{Color, Piece, Role, Square};
use crate::variant::Variant;
use std::fmt::{self, Write};
use std::str::FromStr;

/// Why a FEN could not be read. The reader never panics.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseFenError {
    /// The string is empty.
    #[error("empty FEN")]
    Empty,
    /// The placement field is malformed (ranks, files, letters).
    #[error("bad piece placement in FEN: {0}")]
    Board(String),
    /// The side-to-move field is not `w` or `b`.
    #[error("bad side to move {0:?} in FEN (expected w or b)")]
    Turn(String),
    /// A numeric field is not a number.
    #[error("bad number {value:?} in FEN field {field}")]
    Number {
        /// The field's name, e.g. `fullmove number`.
        field: &'static str,
        /// The text found there.
        value: String,
    },
    /// Extra fields after the fullmove number.
    #[error("unexpected text {0:?} after the FEN")]
    Trailing(String),
}

/// Reads the placement field (`rnsmksnr/8/…`). Letters K M S N R P in either case (upper =
/// White), `~` after a Met marks a Bia-ngai. Ranks must total 8 squares; 8 ranks.
///
/// # Errors
/// [`ParseFenError::Board`] with the reason.
pub fn parse_board(s: &str) -> Result<Board, ParseFenError> {
    parse_board_in(s, Variant::Makruk)
}

/// [`parse_board`] with the letters of `variant` ([`Variant::role_char`]); outside Makruk,
/// Makpong and Ouk Chaktrang a `~` may follow any piece but a Khun or a Bia (ASEAN promotes to
/// four roles; Fairy-Stockfish marks every promoted piece).
fn parse_board_in(s: &str, variant: Variant) -> Result<Board, ParseFenError> {
    let mut board = Board::empty();
    let ranks: Vec<&str> = s.split('/').collect();
    if ranks.len() != 8 {
        return Err(ParseFenError::Board(format!(
            "{} ranks instead of 8",
            ranks.len()
        )));
    }
    for (i, rank_str) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file: u8 = 0;
        let mut chars = rank_str.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 || file as u32 + d > 8 {
                    return Err(ParseFenError::Board(format!(
                        "rank {} is longer than 8 squares",
                        rank + 1
                    )));
                }
                file += d as u8;
                continue;
            }
            let role = variant.role_from_char(c).ok_or_else(|| {
                ParseFenError::Board(format!("unknown piece letter {c:?} on rank {}", rank + 1))
            })?;
            if file >= 8 {
                return Err(ParseFenError::Board(format!(
                    "rank {} is longer than 8 squares",
                    rank + 1
                )));
            }
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let mut promoted = false;
            if chars.peek() == Some(&'~') {
                chars.next();
                let promotable = if variant.is_makruk_like() {
                    role == Role::Met
                } else {
                    !matches!(role, Role::Khun | Role::Bia)
                };
                if !promotable {
                    return Err(ParseFenError::Board(format!(
                        "promoted marker ~ after {c:?}: only a Met (Bia-ngai) can be promoted"
                    )));
                }
                promoted = true;
            }
            let sq = Square::from_coords(file, rank)
                .ok_or_else(|| ParseFenError::Board("square out of range".into()))?;
            board.set_piece_at(
                sq,
                Piece {
                    color,
                    role,
                    promoted,
                },
            );
            if promoted {
                board.mark_promoted(sq);
            }
            file += 1;
        }
        if file != 8 {
            return Err(ParseFenError::Board(format!(
                "rank {} has {} squares instead of 8",
                rank + 1,
                file
            )));
        }
    }
    Ok(board)
}

impl Board {
    /// The placement field of a FEN, rank 8 first, with `~` after a Bia-ngai
    /// (`M~` / `m~`), e.g. `rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR`.
    #[must_use]
    pub fn board_fen(&self) -> String {
        self.board_fen_in(Variant::Makruk)
    }

    /// [`Board::board_fen`] with the letters of `variant` ([`Variant::role_char`]).
    #[must_use]
    pub fn board_fen_in(&self, variant: Variant) -> String {
        let mut s = String::with_capacity(40);
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                let sq = Square::from_index(rank * 8 + file);
                match self.piece_at(sq) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        let c = variant.role_char(p.role);
                        s.push(match p.color {
                            Color::White => c,
                            Color::Black => c.to_ascii_lowercase(),
                        });
                        if p.promoted {
                            s.push('~');
                        }
                    }
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s
    }
}

/// Shows the placement field of the FEN: `Board(rnsmksnr/8/…)`.
impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.board_fen())
    }
}

fn number(field: &'static str, v: &str) -> Result<u32, ParseFenError> {
    v.parse::<u32>().map_err(|_| ParseFenError::Number {
        field,
        value: v.to_string(),
    })
}

/// Reads a whole FEN, as Fairy-Stockfish does for Makruk. Missing trailing fields take their
/// start values (`w - - 0 1`). The 4th field is `-` (then the 5th is the halfmove clock) or the
/// counting limit in plies (then the 5th is the counting ply); a chess en-passant square there
/// is ignored like `-`. The castling field is ignored (Makruk has none). cutechess's `w - 0 0 1` is read
/// as "no count". Accepted with and without `~` promoted markers; an unpromoted Met written
/// where a Bia-ngai stands cannot be told apart and is read as a Met.
///
/// # Errors
/// [`ParseFenError`] saying which field is wrong.
pub fn parse(s: &str) -> Result<Setup, ParseFenError> {
    parse_in(s, Variant::Makruk).map(|(setup, _)| setup)
}

/// What a FEN of another variant holds besides a [`Setup`]: Ouk Chaktrang's unused first-move
/// jumps and Sittuyin's pieces in hand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct VariantFields {
    /// Ouk Chaktrang: the squares of the Khun and Met that may still make their first-move jump
    /// (Fairy-Stockfish's gates, the castling field `DEde`: a file letter, upper case for
    /// White's first rank, lower case for Black's eighth).
    pub gates: Bitboard,
    /// Sittuyin: the pieces in hand, the FEN's `[KFRRSSNNkfrrssnn]`: four bits a count, at
    /// bit `4 · (6 · colour + role)` (packed, so that a position stays small to copy).
    pub hands: u64,
}

impl VariantFields {
    /// How many `role` pieces `c` has in hand.
    #[inline]
    pub fn in_hand(&self, c: Color, role: Role) -> u32 {
        ((self.hands >> Self::shift(c, role)) & 0xf) as u32
    }

    /// How many pieces `c` has in hand.
    #[inline]
    pub fn hand_count(&self, c: Color) -> u32 {
        Role::ALL.into_iter().map(|r| self.in_hand(c, r)).sum()
    }

    /// One more `role` in `c`'s hand (at most 15).
    pub fn add_to_hand(&mut self, c: Color, role: Role) {
        if self.in_hand(c, role) < 15 {
            self.hands += 1 << Self::shift(c, role);
        }
    }

    /// One `role` less in `c`'s hand (none: nothing changes).
    #[inline]
    pub fn take_from_hand(&mut self, c: Color, role: Role) {
        if self.in_hand(c, role) > 0 {
            self.hands -= 1 << Self::shift(c, role);
        }
    }

    #[inline]
    const fn shift(c: Color, role: Role) -> u32 {
        4 * (6 * c.index() as u32 + role.index() as u32)
    }
}

/// Reads a FEN of `variant` (Fairy-Stockfish's form of that variant): [`parse`], with the
/// variant's letters, Sittuyin's pieces in hand in brackets after the placement, and Ouk
/// Chaktrang's gates in the castling field (ignored for the other variants).
pub(crate) fn parse_in(s: &str, variant: Variant) -> Result<(Setup, VariantFields), ParseFenError> {
    let mut extra = VariantFields::default();
    let mut fields = s.split_whitespace();
    let mut placement = fields.next().ok_or(ParseFenError::Empty)?;
    if let Some(open) = placement.find('[') {
        let hand = placement[open + 1..]
            .strip_suffix(']')
            .ok_or_else(|| ParseFenError::Board("unclosed [ of the pieces in hand".into()))?;
        if variant != Variant::Sittuyin && !hand.is_empty() && hand != "-" {
            return Err(ParseFenError::Board(format!(
                "pieces in hand [{hand}] in a {variant} FEN"
            )));
        }
        for c in hand.chars().filter(|&c| c != '-') {
            let role = variant.role_from_char(c).ok_or_else(|| {
                ParseFenError::Board(format!("unknown piece letter {c:?} in hand"))
            })?;
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            extra.add_to_hand(color, role);
        }
        placement = &placement[..open];
    }
    let board = parse_board_in(placement, variant)?;
    let turn = match fields.next() {
        None => Color::White,
        Some(t) => match t {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            _ => return Err(ParseFenError::Turn(t.to_string())),
        },
    };
    // castling: ignored (Makruk has none), except Ouk Chaktrang's gates
    let castling = fields.next();
    if variant == Variant::Cambodian {
        for c in castling.unwrap_or("-").chars().filter(|&c| c != '-') {
            let file = c.to_ascii_lowercase() as u8;
            if !(b'a'..=b'h').contains(&file) {
                return Err(ParseFenError::Board(format!(
                    "bad gate {c:?} in the castling field"
                )));
            }
            let rank = if c.is_ascii_uppercase() { 0 } else { 7 };
            if let Some(sq) = Square::from_coords(file - b'a', rank) {
                extra.gates.add(sq);
            }
        }
    }
    let mut setup = Setup {
        board,
        turn,
        count_limit: 0,
        count_ply: 0,
        halfmoves: 0,
        fullmoves: 1,
    };
    let f4 = fields.next();
    let f5 = fields.next();
    let f6 = fields.next();
    let counting = matches!(f4, Some(v) if v.starts_with(|c: char| c.is_ascii_digit()));
    if counting {
        setup.count_limit = number("counting limit", f4.unwrap_or("0"))?;
    } else if let Some(v) = f4.filter(|v| *v != "-" && v.parse::<Square>().is_err()) {
        // Besides `-`, only a chess en-passant square (from a generic FEN writer) is let pass.
        return Err(ParseFenError::Number {
            field: "counting limit",
            value: v.to_string(),
        });
    }
    if let Some(v) = f5 {
        let n = number("halfmove clock / counting ply", v)?;
        if setup.count_limit != 0 {
            setup.count_ply = n;
        } else {
            setup.halfmoves = n;
        }
    }
    if let Some(v) = f6 {
        setup.fullmoves = number("fullmove number", v)?.max(1);
    }
    if let Some(rest) = fields.next() {
        return Err(ParseFenError::Trailing(rest.to_string()));
    }
    Ok((setup, extra))
}

/// Writes a FEN in Fairy-Stockfish form: `<placement> <w|b> - <limit> <ply> <fullmove>` when
/// `count_limit ≠ 0`, else `<placement> <w|b> - - <halfmoves> <fullmove>`.
#[must_use]
pub fn write(setup: &Setup) -> String {
    write_in(setup, Variant::Makruk, &VariantFields::default())
}

/// [`write()`] for `variant`: its letters, Sittuyin's pieces in hand (`[…]`, White first, each
/// side's in Fairy-Stockfish's order of piece types: Khun, Khon, Met, Ruea, Ma, Bia, e.g.
/// `[KSSFRRNNkssfrrnn]`), Ouk Chaktrang's gates as the castling field.
pub(crate) fn write_in(setup: &Setup, variant: Variant, extra: &VariantFields) -> String {
    let mut s = setup.board.board_fen_in(variant);
    if variant == Variant::Sittuyin {
        s.push('[');
        for c in Color::ALL {
            for r in [
                Role::Khun,
                Role::Khon,
                Role::Met,
                Role::Ruea,
                Role::Ma,
                Role::Bia,
            ] {
                let ch = variant.role_char(r);
                let ch = if c == Color::White {
                    ch
                } else {
                    ch.to_ascii_lowercase()
                };
                for _ in 0..extra.in_hand(c, r) {
                    s.push(ch);
                }
            }
        }
        s.push(']');
    }
    s.push(' ');
    s.push(setup.turn.char());
    s.push(' ');
    if extra.gates.any() {
        for (rank, base) in [(0u8, b'A'), (7, b'a')] {
            for file in 0..8u8 {
                if Square::from_coords(file, rank).is_some_and(|sq| extra.gates.contains(sq)) {
                    s.push(char::from(base + file));
                }
            }
        }
    } else {
        s.push('-');
    }
    if setup.count_limit != 0 {
        let _ = write!(s, " {} {}", setup.count_limit, setup.count_ply);
    } else {
        let _ = write!(s, " - {}", setup.halfmoves);
    }
    let _ = write!(s, " {}", setup.fullmoves.max(1));
    s
}

impl Setup {
    /// The FEN of these fields in Fairy-Stockfish form (see [`write()`]).
    #[must_use]
    pub fn fen(&self) -> String {
        write(self)
    }
}

impl FromStr for Setup {
    type Err = ParseFenError;

    /// Reads a FEN; see [`parse`].
    fn from_str(s: &str) -> Result<Setup, ParseFenError> {
        parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for fen in [
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
            "8/3k4/6M~1/2K1S3/8/8/8/8 b - 88 8 1",
            "rnsmksnr/8/1pM~1pppp/p7/8/PPPP1PPP/8/RNSKMSNR b - - 0 3",
        ] {
            assert_eq!(write(&parse(fen).unwrap()), fen);
        }
    }

    #[test]
    fn accepts_variants() {
        let cute = parse("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - 0 0 1").unwrap();
        assert_eq!(cute.count_limit, 0);
        assert_eq!(
            write(&cute),
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"
        );
        let no_marker = parse("8/3k4/6M1/2K1S3/8/8/8/8 b - 88 8 1").unwrap();
        assert_eq!(no_marker.count_ply, 8);
        assert!(parse("8/8/8/8/8/8/8/8 x").is_err());
        assert!(parse("9/8/8/8/8/8/8/8").is_err());
        assert!(parse("8/8/8/8/8/8/8").is_err());
        assert!(parse("R~7/8/8/8/8/8/8/8").is_err());
        let start = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR";
        assert!(matches!(
            parse(&format!("{start} w - xyz 0 1")),
            Err(ParseFenError::Number { .. })
        ));
        assert_eq!(
            parse(&format!("{start} w - e3 0 1")).map(|s| s.count_limit),
            Ok(0)
        );
        assert!(parse("").is_err());
    }
}
