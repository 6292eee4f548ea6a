//! [`Variant`]: Makruk and the other games of its family as Fairy-Stockfish defines them
//! (`src/variant.cpp`, functions `makruk_variant`, `makpong_variant`, `cambodian_variant`,
//! `asean_variant`, `sittuyin_variant`; the names are Fairy-Stockfish's `UCI_Variant` names).
//!
//! Makruk is the default and the only variant the [`crate::Ruleset`]s apply to: the other
//! variants count and draw by their own rules, as Fairy-Stockfish does (a position of another
//! variant always has [`crate::Ruleset::Standard`], which there means "Fairy-Stockfish's rules of
//! that variant"). What each variant changes:
//!
//! - [`Variant::Makpong`]: Makruk, but a Khun in check may only capture the (single) checker
//!   (Fairy-Stockfish `makpongRule`: a Khun move in check is legal only when its target is the
//!   checking piece's square), so a double check is mate. Counting is Makruk's.
//! - [`Variant::Cambodian`]: Ouk Chaktrang, Makruk plus a first move of the Khun (a Ma's jump
//!   one rank forward, two files aside; not in check) and of the Met (Neang: two squares
//!   straight forward, over a piece), neither capturing; a piece that has moved (or is taken)
//!   loses its jump, and so does the Khun when an enemy Ruea moves to its file or rank, blockers
//!   or not (Fairy-Stockfish `cambodianMoves`, its gates shown as the FEN's castling field
//!   `DEde`; the Ruea's rule since Fairy-Stockfish commit 685a446c, 2022). Counting is
//!   Fairy-Stockfish's `CAMBODIAN_COUNTING` (board's honour 63 moves, only while the counting
//!   side has at most three pieces; pieces' honour 7, 15, 21, 31, 43, 63).
//! - [`Variant::Asean`]: ASEAN chess (aseanchess.org, "Laws of ASEAN chess"): the chess start
//!   `rnbqkbnr` with Makruk's pieces (letters `B` Khon, `Q` Met), Bia promote on the last rank
//!   to a Ruea, Ma, Khon or Met (chosen), the 50-move rule, and counting only for a bare Khun
//!   with no Bia on the board (Fairy-Stockfish `ASEAN_COUNTING`).
//! - [`Variant::Sittuyin`]: Burmese chess (Fairy-Stockfish `sittuyin_variant`): the Bia stand
//!   staggered from the start, the other pieces are placed first, one a move, as drops (UCI
//!   `R@a1`; the FEN's hand `[KFRRSSNNkfrrssnn]`; Met letter `F`) on the own three first ranks,
//!   a Ruea only on the first, as long as a drop is possible; then Makruk's moves, without the
//!   sixth-rank promotion: while a side has no Met, a Bia on a main diagonal of the opponent's
//!   half (or its only Bia anywhere) may become a Met as a move of its own, in place (`e4e4f`)
//!   or one diagonal step to an empty square (`d4e5f`), attacking no enemy piece and giving no
//!   check. The 50-move rule, ASEAN's counting, and a draw when a Khun and Bia have only
//!   promotions left ([`crate::Position::is_promotion_stalemate`]).
//!
//! Moves of the variants keep [`crate::Move`]'s fields: a drop has `from == to` and no promotion
//! ([`crate::Move::is_drop`]); an ASEAN promotion's `role` is the role chosen
//! ([`crate::Move::promotion_role`], [`crate::Move::moving_role`]). [`crate::Move`]'s `Display`
//! stays Makruk's UCI; a variant's UCI is [`crate::uci::to_uci_in`].

use std::fmt;
use std::str::FromStr;

use crate::types::Role;

/// A game of the Makruk family, as Fairy-Stockfish defines it (module docs).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Makruk, Thai chess (`makruk`); counting and draws by the position's [`crate::Ruleset`].
    #[default]
    Makruk,
    /// Makpong, "defensive chess" (`makpong`): the Khun may not move out of check.
    Makpong,
    /// Ouk Chaktrang, Cambodian chess (`cambodian`).
    Cambodian,
    /// ASEAN chess (`asean`).
    Asean,
    /// Sittuyin, Burmese chess (`sittuyin`).
    Sittuyin,
}

/// Error reading a variant name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant {0:?}: expected makruk, makpong, cambodian, asean or sittuyin")]
pub struct ParseVariantError(pub String);

impl Variant {
    /// Every variant, Makruk first.
    pub const ALL: [Variant; 5] = [
        Variant::Makruk,
        Variant::Makpong,
        Variant::Cambodian,
        Variant::Asean,
        Variant::Sittuyin,
    ];

    /// Fairy-Stockfish's name: `"makruk"`, `"makpong"`, `"cambodian"`, `"asean"` or
    /// `"sittuyin"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Makruk => "makruk",
            Variant::Makpong => "makpong",
            Variant::Cambodian => "cambodian",
            Variant::Asean => "asean",
            Variant::Sittuyin => "sittuyin",
        }
    }

    /// The name of a PGN `Variant` tag: `Makruk`, `Makpong`, `Cambodian`, `ASEAN`, `Sittuyin`
    /// (read back by [`Variant::from_str`], case-insensitively).
    #[must_use]
    pub const fn pgn_name(self) -> &'static str {
        match self {
            Variant::Makruk => "Makruk",
            Variant::Makpong => "Makpong",
            Variant::Cambodian => "Cambodian",
            Variant::Asean => "ASEAN",
            Variant::Sittuyin => "Sittuyin",
        }
    }

    /// The start position's FEN, as Fairy-Stockfish's `startFen` of the variant.
    #[must_use]
    pub const fn start_fen(self) -> &'static str {
        match self {
            Variant::Makruk | Variant::Makpong => {
                "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"
            }
            Variant::Cambodian => "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1",
            Variant::Asean => "rnbqkbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBQKBNR w - - 0 1",
            Variant::Sittuyin => "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1",
        }
    }

    /// The variant's (upper-case) letter for `role` in FEN, SAN and UCI promotions: Makruk's
    /// `K M S N R P`, except ASEAN's `B` (Khon) and `Q` (Met) and Sittuyin's `F` (Met)
    /// (Fairy-Stockfish `add_piece` of each variant).
    #[must_use]
    pub const fn role_char(self, role: Role) -> char {
        match (self, role) {
            (Variant::Asean, Role::Khon) => 'B',
            (Variant::Asean, Role::Met) => 'Q',
            (Variant::Sittuyin, Role::Met) => 'F',
            _ => role.char(),
        }
    }

    /// The role of a letter in this variant (either case), the inverse of
    /// [`Variant::role_char`].
    #[must_use]
    pub fn role_from_char(self, c: char) -> Option<Role> {
        Role::ALL
            .into_iter()
            .find(|&r| self.role_char(r) == c.to_ascii_uppercase())
    }

    /// True for the variants that are Makruk's board and pieces with a rule of their own
    /// (Makruk, Makpong, Ouk Chaktrang): promotion on the sixth rank to a Met, Thai SAN.
    #[must_use]
    pub const fn is_makruk_like(self) -> bool {
        matches!(
            self,
            Variant::Makruk | Variant::Makpong | Variant::Cambodian
        )
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = ParseVariantError;

    /// Reads a name of [`Variant::name`], case-insensitively; `thai` reads as Makruk,
    /// `ouk` and `ouk-chaktrang` as Ouk Chaktrang.
    fn from_str(s: &str) -> Result<Variant, ParseVariantError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "makruk" | "thai" => Ok(Variant::Makruk),
            "makpong" => Ok(Variant::Makpong),
            "cambodian" | "ouk" | "ouk-chaktrang" | "ouk_chaktrang" => Ok(Variant::Cambodian),
            "asean" => Ok(Variant::Asean),
            "sittuyin" => Ok(Variant::Sittuyin),
            _ => Err(ParseVariantError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_letters_round_trip() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>(), Ok(v));
            for r in Role::ALL {
                assert_eq!(v.role_from_char(v.role_char(r)), Some(r));
            }
        }
        assert_eq!(Variant::default(), Variant::Makruk);
        assert!("chess".parse::<Variant>().is_err());
    }
}
