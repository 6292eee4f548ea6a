//! [`Board`]: piece placement only (no side to move, no counting).

use crate::bitboard::Bitboard;
use crate::types::{Color, Piece, Role, Square};

const NO_ROLE: u8 = 0xff;

/// Piece placement: one bitboard per colour and per role, the set of promoted Bia (Bia-ngai,
/// role [`Role::Met`]) and a square-indexed role table for fast look-up.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    by_color: [Bitboard; 2],
    by_role: [Bitboard; 6],
    promoted: Bitboard,
    roles: [u8; 64],
}

impl Default for Board {
    fn default() -> Board {
        Board::empty()
    }
}

impl Board {
    /// The empty board.
    #[must_use]
    pub fn empty() -> Board {
        Board {
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; 6],
            promoted: Bitboard::EMPTY,
            roles: [NO_ROLE; 64],
        }
    }

    /// The start position: `rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR` (White Khun d1,
    /// White Met e1; Black Met d8, Black Khun e8; Bia on ranks 3 and 6).
    #[must_use]
    pub fn start() -> Board {
        let mut b = Board::empty();
        let back = [
            Role::Ruea,
            Role::Ma,
            Role::Khon,
            Role::Khun,
            Role::Met,
            Role::Khon,
            Role::Ma,
            Role::Ruea,
        ];
        let black_back = [
            Role::Ruea,
            Role::Ma,
            Role::Khon,
            Role::Met,
            Role::Khun,
            Role::Khon,
            Role::Ma,
            Role::Ruea,
        ];
        for f in 0..8u8 {
            let sq = |r: u8| Square::from_coords(f, r).unwrap_or(Square::from_index(0));
            b.set_piece_at(sq(0), Piece::new(Color::White, back[f as usize]));
            b.set_piece_at(sq(2), Piece::new(Color::White, Role::Bia));
            b.set_piece_at(sq(5), Piece::new(Color::Black, Role::Bia));
            b.set_piece_at(sq(7), Piece::new(Color::Black, black_back[f as usize]));
        }
        b
    }

    /// The piece on `sq`, with [`Piece::promoted`] set for a Bia-ngai.
    #[must_use]
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let r = self.roles[sq.index()];
        if r == NO_ROLE {
            return None;
        }
        let color = if self.by_color[1].contains(sq) {
            Color::Black
        } else {
            Color::White
        };
        Some(Piece {
            color,
            role: Role::ALL[r as usize],
            promoted: self.promoted.contains(sq),
        })
    }

    /// The role of the piece on `sq`.
    #[must_use]
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        let r = self.roles[sq.index()];
        if r == NO_ROLE {
            None
        } else {
            Some(Role::ALL[r as usize])
        }
    }

    /// Puts `p` on `sq`, replacing whatever stood there. A `promoted` flag on a piece other
    /// than a Met is ignored.
    pub fn set_piece_at(&mut self, sq: Square, p: Piece) {
        self.remove_piece_at(sq);
        self.by_color[p.color.index()].add(sq);
        self.by_role[p.role.index()].add(sq);
        if p.promoted && p.role == Role::Met {
            self.promoted.add(sq);
        }
        self.roles[sq.index()] = p.role.index() as u8;
    }

    /// Removes and returns the piece on `sq`.
    pub fn remove_piece_at(&mut self, sq: Square) -> Option<Piece> {
        let p = self.piece_at(sq)?;
        self.by_color[p.color.index()].discard(sq);
        self.by_role[p.role.index()].discard(sq);
        self.promoted.discard(sq);
        self.roles[sq.index()] = NO_ROLE;
        Some(p)
    }

    /// Fast move of a piece known to stand on `from` to an empty `to` (internal).
    #[inline]
    pub(crate) fn move_piece(&mut self, from: Square, to: Square, color: Color, role: Role) {
        let mask = Bitboard(1 << from.index() | 1 << to.index());
        self.by_color[color.index()] ^= mask;
        self.by_role[role.index()] ^= mask;
        if self.promoted.contains(from) {
            self.promoted ^= mask;
        }
        self.roles[to.index()] = self.roles[from.index()];
        self.roles[from.index()] = NO_ROLE;
    }

    /// Fast removal of a piece known to stand on `sq` (internal).
    #[inline]
    pub(crate) fn remove_known(&mut self, sq: Square, color: Color, role: Role) {
        self.by_color[color.index()].discard(sq);
        self.by_role[role.index()].discard(sq);
        self.promoted.discard(sq);
        self.roles[sq.index()] = NO_ROLE;
    }

    /// Turns the Bia on `sq` into a Bia-ngai (internal).
    /// Marks the piece on `sq` as promoted (ASEAN's and Sittuyin's promoted pieces, which need
    /// not be Met).
    pub(crate) fn mark_promoted(&mut self, sq: Square) {
        if self.roles[sq.index()] != NO_ROLE {
            self.promoted.add(sq);
        }
    }

    /// The Bia on `sq` becomes a promoted `role` (ASEAN's choice; Makruk's is [`Board::promote`]).
    #[inline]
    pub(crate) fn promote_to(&mut self, sq: Square, role: Role) {
        self.by_role[Role::Bia.index()].discard(sq);
        self.by_role[role.index()].add(sq);
        self.promoted.add(sq);
        self.roles[sq.index()] = role.index() as u8;
    }

    /// Puts a piece from the hand on the empty square `sq` (Sittuyin's placement).
    #[inline]
    pub(crate) fn drop_piece(&mut self, sq: Square, color: Color, role: Role) {
        self.by_color[color.index()].add(sq);
        self.by_role[role.index()].add(sq);
        self.roles[sq.index()] = role.index() as u8;
    }

    #[inline]
    pub(crate) fn promote(&mut self, sq: Square) {
        self.by_role[Role::Bia.index()].discard(sq);
        self.by_role[Role::Met.index()].add(sq);
        self.promoted.add(sq);
        self.roles[sq.index()] = Role::Met.index() as u8;
    }

    /// Squares of the pieces of `c`.
    #[must_use]
    #[inline]
    pub fn by_color(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    /// Squares of the pieces of role `r`, both colours (Met includes Bia-ngai).
    #[must_use]
    #[inline]
    pub fn by_role(&self, r: Role) -> Bitboard {
        self.by_role[r.index()]
    }

    /// Squares of the pieces of `c` with role `r`.
    #[must_use]
    #[inline]
    pub fn by_piece(&self, c: Color, r: Role) -> Bitboard {
        self.by_color[c.index()] & self.by_role[r.index()]
    }

    /// Squares of the Bia-ngai (promoted Bia), both colours.
    #[must_use]
    #[inline]
    pub fn promoted(&self) -> Bitboard {
        self.promoted
    }

    /// All occupied squares.
    #[must_use]
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The square of the Khun of `c` (the lowest one if a bad setup has several).
    #[must_use]
    #[inline]
    pub fn khun_of(&self, c: Color) -> Option<Square> {
        self.by_piece(c, Role::Khun).first()
    }

    /// True when `c` has only its Khun (the side counted in pieces' honour).
    #[must_use]
    #[inline]
    pub fn is_bare(&self, c: Color) -> bool {
        self.by_color(c).count() <= 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_board_fen() {
        assert_eq!(
            Board::start().board_fen(),
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR"
        );
        assert_eq!(Board::start().occupied().count(), 32);
        assert_eq!(
            Board::start().khun_of(Color::White).map(|s| s.to_string()),
            Some("d1".to_string())
        );
    }

    #[test]
    fn promoted_marker() {
        let mut b = Board::empty();
        let c6: Square = "c6".parse().unwrap();
        b.set_piece_at(c6, Piece::bia_ngai(Color::White));
        assert_eq!(b.board_fen(), "8/8/2M~5/8/8/8/8/8");
        assert_eq!(b.piece_at(c6), Some(Piece::bia_ngai(Color::White)));
        assert_eq!(b.remove_piece_at(c6), Some(Piece::bia_ngai(Color::White)));
        assert!(b.promoted().is_empty());
    }
}
