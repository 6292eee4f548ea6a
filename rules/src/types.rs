//! Small plain types: [`Color`], [`Role`], [`Piece`], [`Square`], [`Move`].

use std::fmt;
use std::str::FromStr;

/// A side. White moves first (docs/RULES.md "Board, pieces, moves").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Moves first; its Bia start on rank 3 and promote on rank 6.
    White,
    /// Moves second; its Bia start on rank 6 and promote on rank 3.
    Black,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other side.
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black (for indexing arrays).
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `'w'` or `'b'`, as in FEN.
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// Reads `'w'` or `'b'`.
    #[must_use]
    pub const fn from_char(c: char) -> Option<Color> {
        match c {
            'w' => Some(Color::White),
            'b' => Some(Color::Black),
            _ => None,
        }
    }

    /// `"white"` or `"black"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.other()
    }
}

/// A kind of piece. A promoted Bia (Bia-ngai) has the role [`Role::Met`] and is marked
/// promoted on the [`crate::Board`] / in [`Piece::promoted`] (docs/RULES.md "Board, pieces, moves":
/// "moves exactly like a Met").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// King. FEN/SAN letter `K`.
    Khun,
    /// The weak queen: one step diagonally. Letter `M`.
    Met,
    /// One step diagonally or one step straight forward. Letter `S`.
    Khon,
    /// Knight. Letter `N`.
    Ma,
    /// Rook. Letter `R`.
    Ruea,
    /// Pawn. Letter `P` in FEN, none in SAN.
    Bia,
}

impl Role {
    /// All roles, in the order Khun, Met, Khon, Ma, Ruea, Bia.
    pub const ALL: [Role; 6] = [
        Role::Khun,
        Role::Met,
        Role::Khon,
        Role::Ma,
        Role::Ruea,
        Role::Bia,
    ];

    /// Index 0..6 in [`Role::ALL`] order.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Upper-case FEN/SAN letter: K M S N R P.
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            Role::Khun => 'K',
            Role::Met => 'M',
            Role::Khon => 'S',
            Role::Ma => 'N',
            Role::Ruea => 'R',
            Role::Bia => 'P',
        }
    }

    /// Reads a FEN/SAN letter in either case (K M S N R P).
    #[must_use]
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_uppercase() {
            'K' => Some(Role::Khun),
            'M' => Some(Role::Met),
            'S' => Some(Role::Khon),
            'N' => Some(Role::Ma),
            'R' => Some(Role::Ruea),
            'P' => Some(Role::Bia),
            _ => None,
        }
    }

    /// The Thai-transliterated English name: "Khun", "Met", "Khon", "Ma", "Ruea", "Bia".
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Role::Khun => "Khun",
            Role::Met => "Met",
            Role::Khon => "Khon",
            Role::Ma => "Ma",
            Role::Ruea => "Ruea",
            Role::Bia => "Bia",
        }
    }
}

/// A piece on the board. `promoted` is true only for a Bia-ngai (role [`Role::Met`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What it is ([`Role::Met`] also for a Bia-ngai).
    pub role: Role,
    /// A Bia-ngai: a Bia promoted on its sixth rank. Written `M~` in FEN.
    pub promoted: bool,
}

impl Piece {
    /// An unpromoted piece.
    #[must_use]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece {
            color,
            role,
            promoted: false,
        }
    }

    /// The Bia-ngai of `color`.
    #[must_use]
    pub const fn bia_ngai(color: Color) -> Piece {
        Piece {
            color,
            role: Role::Met,
            promoted: true,
        }
    }

    /// FEN letter: upper case for White, lower case for Black (without the `~` marker).
    #[must_use]
    pub const fn char(self) -> char {
        let c = self.role.char();
        match self.color {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// English name: "Khun", …, "Bia", or "Bia-ngai" for a promoted Bia.
    #[must_use]
    pub const fn name(self) -> &'static str {
        if self.promoted {
            "Bia-ngai"
        } else {
            self.role.name()
        }
    }
}

/// A square, `0..64`, a1 = 0, b1 = 1, …, h8 = 63 (index = 8·rank + file).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with index `index` (`0..64`), or `None`.
    #[must_use]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// # Panics
    /// Panics if `index >= 64`.
    #[must_use]
    pub const fn from_index(index: u8) -> Square {
        assert!(index < 64);
        Square(index)
    }

    /// The square on `file` (0 = a … 7 = h) and `rank` (0 = rank 1 … 7 = rank 8), or `None`.
    #[must_use]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// Index `0..64`.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File `0..8` (0 = a).
    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// Rank `0..8` (0 = rank 1).
    #[must_use]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// Every square, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// True for a dark square in the western sense (a1 is dark). Used for the colour
    /// binding of Met and Bia-ngai.
    #[must_use]
    pub const fn is_dark(self) -> bool {
        (self.file() + self.rank()) & 1 == 0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

/// Error reading a square name such as `e3`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid square name")]
pub struct ParseSquareError;

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return Err(ParseSquareError);
        }
        let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'1');
        Square::from_coords(file, rank).ok_or(ParseSquareError)
    }
}

/// A move, with what it needs for notation: the moving role (`Met` also for a Bia-ngai),
/// the captured role if any, and whether a Bia is promoted to a Met (Bia-ngai) by it.
///
/// Moves are produced by [`crate::Position::legal_moves`]; two moves are equal when all
/// fields are.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The square the piece leaves.
    pub from: Square,
    /// The square it goes to (holding the captured piece, if any).
    pub to: Square,
    /// The role of the moving piece before the move.
    pub role: Role,
    /// The role of the captured piece, if any.
    pub capture: Option<Role>,
    /// True when a Bia reaches its sixth rank and becomes a Bia-ngai (compulsory).
    pub promotion: bool,
}

impl Move {
    /// True when the move captures.
    #[must_use]
    pub const fn is_capture(&self) -> bool {
        self.capture.is_some()
    }

    /// True for a drop of a piece from the hand (Sittuyin's placement, UCI `R@a1`): written as
    /// a move with `from == to`, `role` the piece dropped and no promotion.
    #[must_use]
    pub const fn is_drop(&self) -> bool {
        self.from.index() == self.to.index() && !self.promotion
    }

    /// The role the piece has after a promotion, `None` for any other move. A promotion's
    /// `role` is `Bia` where the variant promotes to a Met only (Makruk, Makpong, Ouk
    /// Chaktrang; Sittuyin, whose promotion may also stay on its square, `from == to`), and
    /// the role chosen in ASEAN chess (Ruea, Ma, Khon or Met; the piece moving is then a Bia).
    #[must_use]
    pub const fn promotion_role(&self) -> Option<Role> {
        match (self.promotion, self.role) {
            (false, _) => None,
            (true, Role::Bia) => Some(Role::Met),
            (true, r) => Some(r),
        }
    }

    /// The role of the piece that moves (a Bia for every promotion; see
    /// [`Move::promotion_role`]).
    #[must_use]
    pub const fn moving_role(&self) -> Role {
        if self.promotion {
            Role::Bia
        } else {
            self.role
        }
    }
}

/// The UCI form, as Fairy-Stockfish writes it for Makruk: origin square, target square, and
/// `m` when the move promotes (`e3e4`, `d5c6m`). Reading it back: [`crate::parse_uci`].
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if self.promotion {
            f.write_str("m")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!("e3".parse::<Square>().map(|s| s.index()), Ok(20));
        assert!("i1".parse::<Square>().is_err());
        assert!("a9".parse::<Square>().is_err());
        assert!("".parse::<Square>().is_err());
    }

    #[test]
    fn role_letters_round_trip() {
        for role in Role::ALL {
            assert_eq!(Role::from_char(role.char()), Some(role));
        }
        assert_eq!(Piece::bia_ngai(Color::Black).char(), 'm');
        assert_eq!(Piece::bia_ngai(Color::Black).name(), "Bia-ngai");
    }
}
