//! SAN: writing moves exactly as Fairy-Stockfish (and so pychess) writes them, in Latin letters
//! ([`to_san`]) and in Thai ([`to_thai_san`], Fairy-Stockfish `NOTATION_THAI_SAN`; docs/RULES.md
//! "Notation"). Reading them (and every other notation) is [`crate::notation`].
//!
//! Fairy-Stockfish's SAN for Makruk (`apiutil.h`, `move_to_san`): piece letters K M S N R (a
//! Bia-ngai is an `M`; a Bia has no letter), `x` for a capture, the origin file (else rank, else
//! square) when another piece of the same kind (Met and Bia-ngai count as one kind) could
//! legally go to the same square, a Bia capture always with its file (`exf4`), `=M` for a
//! promotion, then `+` for check or `#` for mate.
//!
//! ```
//! use makruk::{parse_move, san, Position};
//!
//! let pos = Position::new();
//! let m = parse_move(&pos, "Nd2")?;
//! assert_eq!(san::to_san(&pos, &m), "Nd2");
//! assert_eq!(san::to_thai_san(&pos, &m), "ม-ง๒");
//! # Ok::<(), makruk::MoveInputError>(())
//! ```

use crate::position::Position;
use crate::thai;
use crate::types::{Move, Role, Square};
use crate::variant::Variant;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Notation {
    Latin,
    Thai,
}

/// The SAN of `m` in `pos`, exactly as Fairy-Stockfish writes it (`Nd2`, `exf4`, `Rhe1`,
/// `M5d4`, `gxh6=M`, `Rxd8+`, `Rg4#`).
///
/// `m` should be one of `pos.legal_moves()`; for a move that is not legal the UCI form
/// ([`Move`]'s `Display`) is returned instead.
#[must_use]
pub fn to_san(pos: &Position, m: &Move) -> String {
    write_move(pos, m, Notation::Latin)
}

/// The Thai SAN of `m` in `pos`, as Fairy-Stockfish's `NOTATION_THAI_SAN` writes it: files
/// ก ข ค ง จ ฉ ช ญ, ranks ๑–๘, letters ข (Khun) ม็ (Met) ค (Khon) ม (Ma) ร (Ruea) ง (Bia-ngai);
/// a Bia move is only its square (`จ๔`), a Bia capture its file, `x` and square (`จxฉ๔`), a piece
/// move `letter-square` (`ม-ง๒`) or `letter` `x` square (`ขxง๓`), with the same disambiguation,
/// `=M` and `+`/`#` as [`to_san`].
///
/// `m` should be one of `pos.legal_moves()`; for a move that is not legal the UCI form
/// ([`Move`]'s `Display`) is returned instead.
#[must_use]
pub fn to_thai_san(pos: &Position, m: &Move) -> String {
    write_move(pos, m, Notation::Thai)
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Disambiguation {
    None,
    File,
    Rank,
    Square,
}

/// A square in Thai notation: file letter, Thai digit (`จ๔` for e4), as [`to_thai_san`] writes
/// it (docs/RULES.md "Notation").
#[must_use]
pub fn to_thai_square(sq: Square) -> String {
    file_str(sq, Notation::Thai) + &rank_str(sq, Notation::Thai)
}

fn file_str(sq: Square, n: Notation) -> String {
    match n {
        Notation::Latin => ((b'a' + sq.file()) as char).to_string(),
        Notation::Thai => thai::FILES[sq.file() as usize].to_string(),
    }
}

fn rank_str(sq: Square, n: Notation) -> String {
    match n {
        Notation::Latin => ((b'1' + sq.rank()) as char).to_string(),
        Notation::Thai => thai::RANKS[sq.rank() as usize].to_string(),
    }
}

fn write_move(pos: &Position, m: &Move, n: Notation) -> String {
    let legal = pos.legal_moves();
    let variant = pos.variant();
    // In Makruk a move is named by its squares; the other variants may have several moves
    // between the same squares (ASEAN's promotions, a Sittuyin drop and promotion in place).
    let found = if variant == Variant::Makruk {
        legal.iter().find(|l| l.from == m.from && l.to == m.to)
    } else {
        legal.iter().find(|l| *l == m)
    };
    let Some(m) = found.copied() else {
        return if variant == Variant::Makruk {
            m.to_string()
        } else {
            crate::uci::to_uci_in(m, variant)
        };
    };
    let mover = m.moving_role();
    let promoted = pos.board().piece_at(m.from).is_some_and(|p| p.promoted);
    let mut s = String::new();
    if mover != Role::Bia || m.is_drop() {
        match n {
            Notation::Latin => s.push(variant.role_char(mover)),
            Notation::Thai => s.push_str(thai::piece_letter(mover, promoted)),
        }
    }
    // Fairy-Stockfish `disambiguation_level`: none for a drop; a Bia capture always shows its
    // file, a Sittuyin promotion that moves its square; otherwise look at the other pieces of
    // the same kind that can legally reach the same square with the same kind of move.
    let level = if m.is_drop() {
        Disambiguation::None
    } else if mover == Role::Bia {
        if m.is_capture() {
            Disambiguation::File
        } else if m.promotion && m.from != m.to && variant == Variant::Sittuyin {
            Disambiguation::Square
        } else {
            Disambiguation::None
        }
    } else {
        let others: Vec<Square> = legal
            .iter()
            .filter(|l| {
                l.role == m.role
                    && l.to == m.to
                    && l.from != m.from
                    && l.promotion == m.promotion
                    && !l.is_drop()
            })
            .map(|l| l.from)
            .collect();
        if others.is_empty() {
            Disambiguation::None
        } else if others.iter().all(|o| o.file() != m.from.file()) {
            Disambiguation::File
        } else if others.iter().all(|o| o.rank() != m.from.rank()) {
            Disambiguation::Rank
        } else {
            Disambiguation::Square
        }
    };
    match level {
        Disambiguation::None => {}
        Disambiguation::File => s.push_str(&file_str(m.from, n)),
        Disambiguation::Rank => s.push_str(&rank_str(m.from, n)),
        Disambiguation::Square => {
            s.push_str(&file_str(m.from, n));
            s.push_str(&rank_str(m.from, n));
        }
    }
    if m.is_drop() {
        s.push('@');
    } else if m.is_capture() {
        s.push('x');
    } else if n == Notation::Thai && mover != Role::Bia {
        s.push('-');
    }
    s.push_str(&file_str(m.to, n));
    s.push_str(&rank_str(m.to, n));
    if let Some(r) = m.promotion_role() {
        s.push('=');
        s.push(variant.role_char(r));
    }
    let mut after = pos.clone();
    after.play_unchecked(&m);
    if after.is_check() {
        s.push(if after.legal_moves().is_empty() {
            '#'
        } else {
            '+'
        });
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::Ruleset;

    fn legal(pos: &Position, uci: &str) -> Move {
        pos.legal_moves()
            .iter()
            .copied()
            .find(|m| m.to_string() == uci)
            .unwrap_or_else(|| panic!("{uci} is not legal"))
    }

    #[test]
    fn writes_latin_and_thai_san() {
        let start = Position::new();
        let nd2 = legal(&start, "b1d2");
        assert_eq!(to_san(&start, &nd2), "Nd2");
        assert_eq!(to_thai_san(&start, &nd2), "ม-ง๒");
        assert_eq!(to_thai_square(nd2.to), "ง๒");
        assert_eq!(to_thai_square("a1".parse().expect("a1")), "ก๑");
        assert_eq!(to_thai_square("h8".parse().expect("h8")), "ญ๘");
        let e4 = legal(&start, "e3e4");
        assert_eq!(
            (to_san(&start, &e4), to_thai_san(&start, &e4)),
            ("e4".into(), "จ๔".into())
        );
        // Two Ma reach d2 once the Khon has left c1: the origin file tells them apart.
        let p = Position::from_fen(
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/2S5/RN1KMN1R w - - 0 1",
            Ruleset::Standard,
        )
        .expect("valid FEN");
        assert_eq!(to_san(&p, &legal(&p, "f1d2")), "Nfd2");
        assert_eq!(to_thai_san(&p, &legal(&p, "f1d2")), "มฉ-ง๒");
        // A Bia capture with promotion, and a mate.
        let p = Position::from_fen("4k3/8/7p/6P1/8/8/8/3K4 w - - 0 40", Ruleset::Standard)
            .expect("valid FEN");
        assert_eq!(to_san(&p, &legal(&p, "g5h6m")), "gxh6=M");
        let p = Position::from_fen("7k/8/6K1/8/8/8/8/R7 w - - 0 1", Ruleset::Standard)
            .expect("valid FEN");
        assert_eq!(to_san(&p, &legal(&p, "a1a8")), "Ra8#");
    }

    #[test]
    fn an_illegal_move_is_written_in_uci() {
        let start = Position::new();
        let mut m = legal(&start, "e3e4");
        m.to = "e5".parse().expect("square");
        assert_eq!(to_san(&start, &m), "e3e5");
        assert_eq!(to_thai_san(&start, &m), "e3e5");
    }
}
