//! Reading moves: one reader above the three notations (SAN, Thai SAN, UCI), which names the
//! legal move a text means in a position, and the one error it gives ([`MoveInputError`],
//! [`Unreadable`]). docs/RULES.md "Notation" lists what is read.
//!
//! As shakmaty separates `San::from_ascii` from `San::to_move`, reading is in two steps: the
//! text alone gives its readings (a `Reading`: which piece, what is known of its origin, the
//! target; Latin letters or Thai characters), then `resolve` finds the legal move of the
//! position that fits, or explains why none does ([`crate::IllegalMove`]). The notation
//! modules ([`crate::san`], [`crate::uci`], the Thai alphabet) know nothing of this one; it
//! uses their writers (to choose between moves that read alike) and their characters.
//!
//! ```
//! use makruk::{parse_move, san, Position};
//!
//! let pos = Position::new();
//! let m = parse_move(&pos, "Nd2")?;
//! assert_eq!(san::to_san(&pos, &m), "Nd2");
//! // The same move in other forms people use:
//! assert_eq!(parse_move(&pos, "b1d2")?, m);
//! assert_eq!(parse_move(&pos, " nd2 ")?, m);
//! assert_eq!(parse_move(&pos, "ม-ง๒")?, m);
//! # Ok::<(), makruk::MoveInputError>(())
//! ```

use crate::board::Board;
use crate::explain::{diagnose, explain_illegal, unexplained, IllegalMove, OukJumpBar};
use crate::position::{MoveList, Position};
use crate::san::{to_san, to_thai_san};
use crate::thai;
use crate::types::{Color, Move, Piece, Role, Square};
use crate::uci::parse_uci_squares;

/// Longest input [`parse_move`] looks at, in characters (the longest real move text is about a
/// dozen).
pub const MAX_MOVE_INPUT_CHARS: usize = 40;

/// Why a move text could not be used. `Display` gives a short lowercase English text; the bot
/// phrases the variants itself in English and Thai.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveInputError {
    /// Nothing but whitespace was given.
    #[error("no move given")]
    Empty,
    /// The text is not a move in any notation we read. `input` is the text as given (cut to
    /// [`MAX_MOVE_INPUT_CHARS`] characters).
    #[error("cannot read the move \"{input}\": {reason}")]
    Unreadable {
        /// The text as given, cut to [`MAX_MOVE_INPUT_CHARS`] characters.
        input: String,
        /// What is wrong with it.
        reason: Unreadable,
    },
    /// More than one legal move fits the text; `candidates` are their SAN (Fairy-Stockfish form).
    #[error("ambiguous move: it could be {}", candidates.join(", "))]
    Ambiguous {
        /// The SAN of every legal move that fits, in move generation order.
        candidates: Vec<String>,
        /// The same moves in Thai notation, in the same order (two may read alike: Thai
        /// notation names no origin, `ขxค๔` for both `Kxc4` and `bxc4`).
        thai: Vec<String>,
    },
    /// The text names a move that is not legal here; the reason is data.
    #[error("illegal move: {0}")]
    Illegal(IllegalMove),
    /// The text has a promotion suffix (`=M`, `=Q`, UCI's `m`, …) but names a legal move that
    /// does not promote; `san` is that move's SAN. Refused rather than guessed: the player may
    /// have meant another move.
    #[error("{san} is not a promotion")]
    NotAPromotion {
        /// The SAN of the legal move the text names without its suffix.
        san: String,
        /// That move in Thai notation.
        thai: String,
    },
}

impl MoveInputError {
    pub(crate) fn unreadable(input: &str, reason: Unreadable) -> MoveInputError {
        MoveInputError::Unreadable {
            input: input.chars().take(MAX_MOVE_INPUT_CHARS).collect(),
            reason,
        }
    }
}

/// What was wrong with an unreadable move text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unreadable {
    /// Longer than [`MAX_MOVE_INPUT_CHARS`] characters.
    #[error("too long ({chars} characters)")]
    TooLong {
        /// The input's length in characters.
        chars: usize,
    },
    /// It does not end with a target square such as `e4` or `จ๔`.
    #[error("no target square at the end")]
    NoTargetSquare,
    /// A character that has no place in a move (an invisible one is shown by
    /// [`invisible_char_name`]).
    #[error("unexpected {}", shown_char(*.0))]
    UnexpectedChar(char),
    /// Two moves or more in one text (`e3e4e5`, `e3e4 e6e5`, `e4 e5` where e4e5 is no legal
    /// move): one move at a time.
    #[error("several moves in one text")]
    SeveralMoves,
    /// A promotion suffix other than `=M` (or PlayOK's `=P`, `=Q`).
    #[error("a Bia can only become a Met (=M)")]
    BadPromotion,
    /// Not of the UCI form `e3e4` / `d5c6m`.
    #[error("not a UCI move like e3e4")]
    NotUci,
}

/// `'c'`, or the code point and name of an invisible character.
fn shown_char(c: char) -> String {
    invisible_char_name(c).unwrap_or_else(|| format!("'{c}'"))
}

/// Names of the invisible characters that get into pasted text (Unicode names).
const INVISIBLE: &[(char, &str)] = &[
    ('\u{00AD}', "SOFT HYPHEN"),
    ('\u{034F}', "COMBINING GRAPHEME JOINER"),
    ('\u{061C}', "ARABIC LETTER MARK"),
    ('\u{180E}', "MONGOLIAN VOWEL SEPARATOR"),
    ('\u{200B}', "ZERO WIDTH SPACE"),
    ('\u{200C}', "ZERO WIDTH NON-JOINER"),
    ('\u{200D}', "ZERO WIDTH JOINER"),
    ('\u{200E}', "LEFT-TO-RIGHT MARK"),
    ('\u{200F}', "RIGHT-TO-LEFT MARK"),
    ('\u{202A}', "LEFT-TO-RIGHT EMBEDDING"),
    ('\u{202B}', "RIGHT-TO-LEFT EMBEDDING"),
    ('\u{202C}', "POP DIRECTIONAL FORMATTING"),
    ('\u{202D}', "LEFT-TO-RIGHT OVERRIDE"),
    ('\u{202E}', "RIGHT-TO-LEFT OVERRIDE"),
    ('\u{2060}', "WORD JOINER"),
    ('\u{2066}', "LEFT-TO-RIGHT ISOLATE"),
    ('\u{2067}', "RIGHT-TO-LEFT ISOLATE"),
    ('\u{2068}', "FIRST STRONG ISOLATE"),
    ('\u{2069}', "POP DIRECTIONAL ISOLATE"),
    ('\u{FE0E}', "VARIATION SELECTOR-15"),
    ('\u{FE0F}', "VARIATION SELECTOR-16"),
    ('\u{FEFF}', "ZERO WIDTH NO-BREAK SPACE"),
    ('\u{0300}', "COMBINING GRAVE ACCENT"),
    ('\u{0301}', "COMBINING ACUTE ACCENT"),
    ('\u{0302}', "COMBINING CIRCUMFLEX ACCENT"),
    ('\u{0303}', "COMBINING TILDE"),
    ('\u{0308}', "COMBINING DIAERESIS"),
];

/// True for characters that show nothing by themselves: controls, format characters
/// (zero-width, direction marks, the byte-order mark), variation selectors and combining marks
/// outside the Thai block (whose marks sit visibly on Thai letters).
fn is_invisible(c: char) -> bool {
    c.is_control()
        || INVISIBLE.iter().any(|&(i, _)| i == c)
        || matches!(c,
            '\u{0300}'..='\u{036F}' // combining diacritical marks
            | '\u{1AB0}'..='\u{1AFF}'
            | '\u{1DC0}'..='\u{1DFF}'
            | '\u{200B}'..='\u{200F}'
            | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{20D0}'..='\u{20FF}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FE20}'..='\u{FE2F}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{E0000}'..='\u{E0FFF}')
}

/// For a character that shows nothing by itself (zero-width space, direction marks, the
/// byte-order mark, a combining accent, a control character): its code point and, when known,
/// its Unicode name, as `U+200B ZERO WIDTH SPACE`; `None` for a visible character. Error texts
/// quote this instead of the invisible character.
///
/// ```
/// assert_eq!(makruk::invisible_char_name('\u{202E}').as_deref(), Some("U+202E RIGHT-TO-LEFT OVERRIDE"));
/// assert_eq!(makruk::invisible_char_name('x'), None);
/// ```
#[must_use]
pub fn invisible_char_name(c: char) -> Option<String> {
    if !is_invisible(c) {
        return None;
    }
    let code = format!("U+{:04X}", u32::from(c));
    Some(match INVISIBLE.iter().find(|&&(i, _)| i == c) {
        Some((_, name)) => format!("{code} {name}"),
        None => code,
    })
}

/// Which pieces a written move may be made with.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum PieceSel {
    /// No letter and a full origin square (UCI-like): any piece.
    Any,
    /// A Bia, pushing or capturing.
    Bia,
    /// A Bia pushing straight forward (plain SAN `e4`).
    BiaPush,
    /// A piece of this role (not used for Met).
    Role(Role),
    /// A Met; `Some(true)` only a Bia-ngai, `Some(false)` only an unpromoted Met.
    Met(Option<bool>),
}

/// One reading of a move text: which piece, what is known of its origin, and its target.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Pattern {
    piece: PieceSel,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to: Square,
}

impl Pattern {
    /// The pattern for `piece` going to `to`, with what is known of its origin.
    fn new(
        piece: PieceSel,
        (from_file, from_rank): (Option<u8>, Option<u8>),
        to: Square,
    ) -> Pattern {
        Pattern {
            piece,
            from_file,
            from_rank,
            to,
        }
    }

    fn fits_piece(&self, p: Piece) -> bool {
        match self.piece {
            PieceSel::Any => true,
            PieceSel::Bia | PieceSel::BiaPush => p.role == Role::Bia,
            PieceSel::Role(r) => p.role == r,
            PieceSel::Met(pr) => p.role == Role::Met && pr.is_none_or(|pr| pr == p.promoted),
        }
    }

    fn fits_from(&self, from: Square) -> bool {
        self.from_file.is_none_or(|f| f == from.file())
            && self.from_rank.is_none_or(|r| r == from.rank())
    }

    fn matches(&self, board: &Board, m: &Move) -> bool {
        m.to == self.to
            && self.fits_from(m.from)
            && (self.piece != PieceSel::BiaPush || !m.is_capture())
            && board.piece_at(m.from).is_some_and(|p| self.fits_piece(p))
    }

    /// The piece kind named, with the mover's colour (for [`IllegalMove::NoSuchMove`]).
    fn named_piece(&self, turn: Color) -> Piece {
        match self.piece {
            PieceSel::Any | PieceSel::Bia | PieceSel::BiaPush => Piece::new(turn, Role::Bia),
            PieceSel::Role(r) => Piece::new(turn, r),
            PieceSel::Met(Some(true)) => Piece::bia_ngai(turn),
            PieceSel::Met(_) => Piece::new(turn, Role::Met),
        }
    }
}

/// Readings of a text, best first: the first tier with a matching legal move decides.
type Tiers = Vec<Vec<Pattern>>;

/// What a move text says: its readings, and whether a promotion suffix (`=M`, `m`) was
/// written (used only to choose between a promotion and a move that looks the same without
/// its suffix, as Thai SAN `งxค๓` and `งxค๓=M`).
struct Reading {
    tiers: Tiers,
    promotion: bool,
}

/// Reads a move typed by a person or taken from a record, in any of the notations we know, and
/// returns the legal move of `pos` it names:
///
/// - SAN in Fairy-Stockfish form (`Nd2`, `exf4`, `Rhe1`, `gxh6=M`, `Rxd8+`);
/// - PlayOK's dialect: Khon `B`, Met `Q`, a Bia-ngai is the piece `P` (`Pd5`, `Pxb4`, `Pd3c2`),
///   promotion `=P`;
/// - Thai SAN (`จ๔`, `ม-ง๒`, `ขxง๓`, `ม็๕-ฉ๖`);
/// - UCI (`e3e4`, `d5c6m`, also `e3-e4` and a promotion without its `m`);
/// - with or without `+`/`#` (and `!`/`?`), surrounding spaces, lower-case piece letters where
///   that is not ambiguous (`nf3`; a lower-case `b` is first read as a file), and a Bia capture
///   written without its file (`xe4`, `e4`) when only one Bia can capture there.
///
/// Promotion is compulsory, so a missing `=M` is fine; a suffix on a move that does not promote
/// is refused. Square letters may be either case (`E3E4`, `SD2`), but a lone capital `B` before
/// the target is the Khon (docs/RULES.md "Notation").
///
/// # Errors
///
/// - [`MoveInputError::Empty`] for blank input;
/// - [`MoveInputError::Unreadable`] when the text is no move in these notations (too long, no
///   target square, stray or invisible characters, several moves: `e3e4e5`, or words that
///   are each a move when together they are no legal move, as `e4 e5` in the initial position);
/// - [`MoveInputError::NotAPromotion`] for a promotion suffix on a move that does not promote;
/// - [`MoveInputError::Ambiguous`] when several legal moves fit, with their SAN;
/// - [`MoveInputError::Illegal`] when none fits, with the reason as data ([`IllegalMove`]).
///
/// ```
/// use makruk::{parse_move, IllegalMove, MoveInputError, Position};
///
/// let pos = Position::new();
/// assert_eq!(parse_move(&pos, "e4")?.to.to_string(), "e4");
/// assert!(matches!(parse_move(&pos, ""), Err(MoveInputError::Empty)));
/// assert!(matches!(parse_move(&pos, "hello"), Err(MoveInputError::Unreadable { .. })));
/// assert!(matches!(
///     parse_move(&pos, "Kc1"),
///     Err(MoveInputError::Illegal(IllegalMove::OwnPieceOnTarget { .. }))
/// ));
/// # Ok::<(), MoveInputError>(())
/// ```
pub fn parse_move(pos: &Position, input: &str) -> Result<Move, MoveInputError> {
    let trimmed = input.trim();
    if trimmed.is_empty() {
        return Err(MoveInputError::Empty);
    }
    let chars = trimmed.chars().count();
    if chars > MAX_MOVE_INPUT_CHARS {
        return Err(MoveInputError::unreadable(
            trimmed,
            Unreadable::TooLong { chars },
        ));
    }
    // An invisible character is named first: whatever else is wrong, it is what the player
    // cannot see.
    if let Some(c) = trimmed.chars().find(|&c| is_invisible(c)) {
        return Err(MoveInputError::unreadable(
            trimmed,
            Unreadable::UnexpectedChar(c),
        ));
    }
    if pos.variant() != crate::Variant::Makruk {
        if let Some(m) = variant_move(pos, trimmed) {
            return Ok(m);
        }
        if let Some(why) = variant_rule_broken(pos, trimmed) {
            return Err(MoveInputError::Illegal(why));
        }
    }
    let text = normalize(trimmed);
    if text.is_empty() {
        return Err(MoveInputError::unreadable(
            trimmed,
            Unreadable::NoTargetSquare,
        ));
    }
    let read = if text.chars().any(thai::is_thai) {
        thai_patterns
    } else {
        latin_patterns
    };
    let reading = read(&text).map_err(|reason| {
        // Two readable halves: two moves written together (`e3e4e5`, `e3e4 e6e5`).
        let several = text
            .char_indices()
            .skip(1)
            .any(|(i, _)| read(&text[..i]).is_ok() && read(&text[i..]).is_ok());
        let reason = if several {
            Unreadable::SeveralMoves
        } else {
            reason
        };
        MoveInputError::unreadable(trimmed, reason)
    })?;
    let written: String = trimmed.chars().filter(|c| !c.is_whitespace()).collect();
    let m = match resolve(pos, &reading, &written) {
        // `e4 e5` reads as the UCI move e4e5 once its space is dropped; when that is no legal
        // move and each word is a move by itself, it is two moves (`e3 e4`, a legal UCI move
        // with a space, stays one).
        Err(MoveInputError::Illegal(_)) if several_words(trimmed) => {
            return Err(MoveInputError::unreadable(
                trimmed,
                Unreadable::SeveralMoves,
            ));
        }
        r => r?,
    };
    if reading.promotion && !m.promotion {
        return Err(MoveInputError::NotAPromotion {
            san: to_san(pos, &m),
            thai: to_thai_san(pos, &m),
        });
    }
    Ok(m)
}

/// True when `text` has two words or more and each reads as a move by itself (`e4 e5`,
/// `ม-ง๒ ม-ง๗`).
fn several_words(text: &str) -> bool {
    let mut words = text.split_whitespace();
    let mut count = 0;
    words.all(|w| {
        count += 1;
        let w = normalize(w);
        if w.chars().any(thai::is_thai) {
            thai_patterns(&w).is_ok()
        } else {
            latin_patterns(&w).is_ok()
        }
    }) && count > 1
}

/// Reads a UCI move (`e3e4`, `d5c6m`; also `e3-e4`, and a promotion without its `m`, since
/// promotion is compulsory) and returns the legal move of `pos` it names.
///
/// # Errors
///
/// [`MoveInputError::Empty`] for blank input, [`MoveInputError::Unreadable`] if the text is
/// not of the UCI form, [`MoveInputError::Illegal`] (with the reason as data) if no legal move
/// goes from that square to that square.
pub fn parse_uci(pos: &Position, s: &str) -> Result<Move, MoveInputError> {
    let t = s.trim();
    if t.is_empty() {
        return Err(MoveInputError::Empty);
    }
    if pos.variant() != crate::Variant::Makruk {
        // The variants' own UCI (drops `R@a1`, ASEAN's promotion letters): exactly as
        // Fairy-Stockfish writes it, the letters in either case.
        let variant = pos.variant();
        if let Some(m) = pos
            .legal_moves()
            .iter()
            .find(|m| crate::uci::to_uci_in(m, variant).eq_ignore_ascii_case(t))
        {
            return Ok(*m);
        }
    }
    let Some((from, to, _)) = parse_uci_squares(t) else {
        return Err(MoveInputError::unreadable(t, Unreadable::NotUci));
    };
    find_legal(pos, from, to)
}

/// The other variants' own notation, as Fairy-Stockfish writes it: the legal move whose UCI
/// ([`crate::uci::to_uci_in`], letters in either case) or SAN ([`crate::san::to_san`], with or
/// without its `+`/`#`) is `text` (drops `R@a1`, ASEAN's `c8=N`, Sittuyin's `e4=F`). Other
/// texts are then read as in Makruk.
fn variant_move(pos: &Position, text: &str) -> Option<Move> {
    let bare = text.trim_end_matches(['+', '#']);
    let variant = pos.variant();
    let legal = pos.legal_moves();
    if variant == crate::Variant::Asean {
        if let Some(m) = asean_promotion(pos, &legal, text) {
            return Some(m);
        }
    }
    legal
        .iter()
        .find(|m| crate::uci::to_uci_in(m, variant).eq_ignore_ascii_case(text))
        .or_else(|| {
            legal.iter().find(|m| {
                // The promotion letter after `=` in either case (`a8=q`); the rest exact
                // (`bxc3` is a Bia's capture, `Bxc3` a Khon's).
                let san = crate::san::to_san(pos, m);
                let san = san.trim_end_matches(['+', '#']);
                match (san.split_once('='), bare.split_once('=')) {
                    (Some((a, x)), Some((b, y))) => a == b && x.eq_ignore_ascii_case(y),
                    _ => san == bare,
                }
            })
        })
        .copied()
}

/// Why `text`, no legal move of `pos` (a variant other than Makruk), breaks that variant's own
/// rule, when it does: a drop that may not be made, any other move during Sittuyin's
/// placement, or (Makpong) a Khun moving out of check, which Makruk would allow. `None`: the
/// reasons Makruk's moves give apply.
fn variant_rule_broken(pos: &Position, text: &str) -> Option<IllegalMove> {
    let us = pos.turn();
    if text.contains('@') {
        let (role, square) = crate::uci::parse_drop(text, pos.variant())?;
        return Some(IllegalMove::BadDrop {
            piece: crate::Piece::new(us, role),
            square,
            in_hand: pos.in_hand(us, role),
        });
    }
    if pos.hand_count(us) > 0 {
        return Some(IllegalMove::PlaceFirst);
    }
    match pos.variant() {
        crate::Variant::Cambodian => {
            if let Some(why) = ouk_jump_refused(pos, text) {
                return Some(why);
            }
        }
        crate::Variant::Asean => {
            if let Some(why) = asean_promotion_refused(pos, text) {
                return Some(why);
            }
        }
        _ => {}
    }
    if pos.variant() == crate::Variant::Makpong && pos.is_check() {
        // The same move under Makruk's rules: a Khun stepping out of check.
        let makruk = Position::from_fen(&pos.fen(), crate::Ruleset::Standard).ok()?;
        let m = parse_move(&makruk, text).ok()?;
        if m.role == crate::Role::Khun {
            return Some(IllegalMove::MakpongKhunInCheck {
                from: m.from,
                to: m.to,
            });
        }
    }
    None
}

/// A move written loosely in Latin letters, as far as the variants' own explanations need it:
/// UCI (`d1b2`, `a7a8k`) or SAN ending in its target square and perhaps a promotion letter
/// (`Kb2`, `Kxb2`, `axb8=K`, `a8K`).
#[derive(Debug, PartialEq, Eq)]
struct Loose {
    /// The piece letter written first (upper case), if any.
    piece: Option<char>,
    /// The origin square, if written in full.
    from: Option<Square>,
    /// The origin file (0–7), if only it is written (`axb8`).
    from_file: Option<u8>,
    /// The target square.
    to: Square,
    /// A letter after the target (a promotion), if any.
    letter: Option<char>,
}

impl Loose {
    /// Whether a move from `from` to `to` fits the written squares: the target, and the origin
    /// square or file when written.
    fn fits_squares(&self, from: Square, to: Square) -> bool {
        self.to == to
            && self.from.is_none_or(|f| f == from)
            && self.from_file.is_none_or(|f| f == from.file())
    }

    /// Whether the Bia move `m` fits the written squares; with no origin written, a Bia's
    /// move must stay on its file (`e8` is e7-e8, never a capture).
    fn fits_bia_move(&self, m: &Move) -> bool {
        self.fits_squares(m.from, m.to)
            && (self.from_file.is_some() || self.from.is_some() || m.from.file() == m.to.file())
    }
}

fn loose(text: &str) -> Option<Loose> {
    let t: Vec<char> = text
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '+' | '#' | '!' | '?' | 'x' | '-' | '='))
        .collect();
    if !t.iter().all(char::is_ascii_alphanumeric) {
        return None;
    }
    let (piece, rest) = match t.split_first() {
        Some((&c, rest)) if c.is_ascii_uppercase() => (Some(c), rest),
        _ => (None, &t[..]),
    };
    let square = |s: &[char]| -> Option<Square> {
        match s {
            [f @ 'a'..='h', r @ '1'..='8'] => Square::from_coords(*f as u8 - b'a', *r as u8 - b'1'),
            _ => None,
        }
    };
    let (body, letter) = match rest.split_last() {
        Some((&c, body)) if c.is_ascii_alphabetic() && body.len() >= 2 => (body, Some(c)),
        _ => (rest, None),
    };
    let (from, from_file, to) = match body.len() {
        2 => (None, None, square(body)?),
        3 => match body[0] {
            f @ 'a'..='h' => (None, Some(f as u8 - b'a'), square(&body[1..])?),
            _ => return None,
        },
        4 => (Some(square(&body[..2])?), None, square(&body[2..])?),
        _ => return None,
    };
    Some(Loose {
        piece,
        from,
        from_file,
        to,
        letter,
    })
}

/// Why `text` names an Ouk Chaktrang first-move jump that may not be made here
/// ([`IllegalMove::OukJump`], or the usual reason when the target holds one's own piece or the
/// jump would leave the Khun attacked); `None` when it names no such jump.
fn ouk_jump_refused(pos: &Position, text: &str) -> Option<IllegalMove> {
    let l = loose(text)?;
    if l.letter.is_some() {
        return None;
    }
    let us = pos.turn();
    let board = pos.board();
    let forward = |from: Square, steps: u8| -> Option<u8> {
        match us {
            Color::White => from.rank().checked_add(steps).filter(|&r| r < 8),
            Color::Black => from.rank().checked_sub(steps),
        }
    };
    let mut jumps: Vec<(Piece, Square, Square)> = Vec::new();
    if let Some(k) = board.khun_of(us) {
        if let Some(r) = forward(k, 1) {
            for to in crate::attacks::ma_attacks(k) & crate::bitboard::Bitboard::rank(r) {
                jumps.push((Piece::new(us, Role::Khun), k, to));
            }
        }
    }
    for from in board.by_piece(us, Role::Met) {
        let Some(p) = board.piece_at(from).filter(|p| !p.promoted) else {
            continue;
        };
        if let Some(to) = forward(from, 2).and_then(|r| Square::from_coords(from.file(), r)) {
            jumps.push((p, from, to));
        }
    }
    let letter = |r: Role| pos.variant().role_char(r).to_ascii_uppercase();
    let (piece, from, to) = jumps.into_iter().find(|&(p, from, to)| {
        l.fits_squares(from, to)
            && (l.from.is_some() || l.piece == Some(letter(p.role)))
            && l.piece.is_none_or(|c| c == letter(p.role))
    })?;
    let why = if !pos.gates().contains(from) {
        OukJumpBar::Used
    } else if piece.role == Role::Khun && pos.is_check() {
        OukJumpBar::InCheck
    } else {
        match board.piece_at(to) {
            Some(t) if t.color == us => {
                return Some(IllegalMove::OwnPieceOnTarget {
                    square: to,
                    piece: t,
                })
            }
            Some(_) => OukJumpBar::Capture,
            None => return crate::explain::leaves_khun_attacked(board, us, piece, from, to),
        }
    };
    Some(IllegalMove::OukJump {
        piece,
        from,
        to,
        why,
    })
}

/// The ASEAN promotion `text` names in any loose form (`e7e8=Q`, `e7-e8=n`, `e8Q`, `exf8q`):
/// the one legal promotion of a Bia that fits its squares and whose letter (R, N, B, Q, either
/// case) it gives; `None` when there is not exactly one.
fn asean_promotion(pos: &Position, legal: &MoveList, text: &str) -> Option<Move> {
    let l = loose(text)?;
    let role = l
        .letter
        .and_then(|c| pos.variant().role_from_char(c))
        .filter(|r| matches!(r, Role::Ruea | Role::Ma | Role::Khon | Role::Met))?;
    if l.piece.is_some_and(|c| c != 'P') {
        return None;
    }
    let mut fitting = legal
        .iter()
        .filter(|m| m.promotion && m.promotion_role() == Some(role) && l.fits_bia_move(m));
    let m = *fitting.next()?;
    fitting.next().is_none().then_some(m)
}

/// Why `text`, a Bia move with a promotion letter, is refused in ASEAN chess: a letter that is
/// none of R, N, B, Q on a move to the last rank ([`IllegalMove::AseanPromotionLetter`]), or a
/// letter on a move that does not reach it ([`IllegalMove::AseanNotAPromotion`]).
fn asean_promotion_refused(pos: &Position, text: &str) -> Option<IllegalMove> {
    let l = loose(text)?;
    let letter = l.letter?.to_ascii_lowercase();
    if l.piece.is_some_and(|c| c != 'P') {
        return None;
    }
    let legal = pos.legal_moves();
    let fits = |m: &&Move| m.moving_role() == Role::Bia && l.fits_bia_move(m);
    if let Some(m) = legal.iter().find(|m| fits(m) && m.promotion) {
        if matches!(letter, 'r' | 'n' | 'b' | 'q') {
            return None;
        }
        return Some(IllegalMove::AseanPromotionLetter {
            from: m.from,
            to: m.to,
        });
    }
    legal
        .iter()
        .find(fits)
        .map(|m| IllegalMove::AseanNotAPromotion {
            from: m.from,
            to: m.to,
        })
}

/// The legal move of `pos` from `from` to `to`, or why there is none.
pub(crate) fn find_legal(pos: &Position, from: Square, to: Square) -> Result<Move, MoveInputError> {
    if let Some(m) = pos
        .legal_moves()
        .iter()
        .find(|m| m.from == from && m.to == to)
    {
        return Ok(*m);
    }
    Err(MoveInputError::Illegal(
        explain_illegal(pos, from, to).unwrap_or_else(|| unexplained(pos, from, to)),
    ))
}

/// Drops whitespace and the check/mate/annotation suffixes, and maps look-alike characters
/// (`×`, dashes) to the ones the grammar uses.
fn normalize(s: &str) -> String {
    let mut t: String = s
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '×' => 'x',
            '–' | '—' | '‐' | '−' => '-',
            _ => c,
        })
        .collect();
    while t.ends_with(['+', '#', '!', '?']) {
        t.pop();
    }
    t
}

/// A Latin file letter, either case, as a file index 0–7.
fn latin_file(c: char) -> Option<u8> {
    match c {
        'a'..='h' => Some(c as u8 - b'a'),
        'A'..='H' => Some(c as u8 - b'A'),
        _ => None,
    }
}

/// A digit 1–8 as a rank index 0–7.
fn latin_rank(c: char) -> Option<u8> {
    match c {
        '1'..='8' => Some(c as u8 - b'1'),
        _ => None,
    }
}

/// A file letter of an origin: either case, but a lone upper-case `B` is always the Khon
/// (PlayOK's letter), never the b-file (`B1d2` is the square b1; see [`latin_patterns`]).
fn latin_origin_file(c: char) -> Option<u8> {
    latin_file(c).filter(|_| c != 'B')
}

/// Parses `[file][rank]` (each optional) that must use all of `rest`.
fn latin_origin(rest: &[char]) -> Option<(Option<u8>, Option<u8>)> {
    match rest {
        [] => Some((None, None)),
        [c] => latin_origin_file(*c)
            .map(|f| (Some(f), None))
            .or_else(|| latin_rank(*c).map(|r| (None, Some(r)))),
        [f, r] => Some((Some(latin_file(*f)?), Some(latin_rank(*r)?))),
        _ => None,
    }
}

fn latin_patterns(text: &str) -> Result<Reading, Unreadable> {
    let mut c: Vec<char> = text.chars().collect();
    if let Some(bad) = c
        .iter()
        .find(|ch| !(ch.is_ascii_alphanumeric() || matches!(ch, '-' | ':' | '=')))
    {
        return Err(Unreadable::UnexpectedChar(*bad));
    }
    // Promotion suffix: `=M` (`=P`, `=Q` from PlayOK), or UCI's bare `m` after the target.
    let promotion = c.contains(&'=');
    if let Some(eq) = c.iter().rposition(|&ch| ch == '=') {
        match &c[eq + 1..] {
            [] => {}
            ['M' | 'm' | 'P' | 'p' | 'Q' | 'q'] => {}
            _ => return Err(Unreadable::BadPromotion),
        }
        c.truncate(eq);
    } else if c.len() >= 3 && matches!(c[c.len() - 1], 'm' | 'M') && c[c.len() - 2].is_ascii_digit()
    {
        c.pop();
        return latin_patterns(&c.iter().collect::<String>()).map(|r| Reading {
            promotion: true,
            ..r
        });
    }
    let (prefix, _, to) = split_target(&c, latin_file, latin_rank)?;
    let make = |piece, o| Pattern::new(piece, o, to);
    let mut tier1 = Vec::new();
    let mut tier2 = Vec::new();
    if let Some(o) = latin_origin(prefix) {
        letterless(o, to, false, &mut tier1, &mut tier2);
    }
    // Reading with a piece letter first.
    if let Some((&letter, rest)) = prefix.split_first() {
        if let Some(o) = latin_origin(rest) {
            match letter {
                'K' | 'k' => tier1.push(make(PieceSel::Role(Role::Khun), o)),
                // `B1d2` is first the square b1 (UCI in capitals), then a Khon on rank 1.
                'B' if o.0.is_none() && o.1.is_some() => {
                    tier2.push(make(PieceSel::Role(Role::Khon), o));
                }
                'S' | 's' | 'B' => tier1.push(make(PieceSel::Role(Role::Khon), o)),
                'b' => tier2.push(make(PieceSel::Role(Role::Khon), o)),
                'N' | 'n' => tier1.push(make(PieceSel::Role(Role::Ma), o)),
                'R' | 'r' => tier1.push(make(PieceSel::Role(Role::Ruea), o)),
                'M' | 'm' => tier1.push(make(PieceSel::Met(None), o)),
                'Q' | 'q' => {
                    tier1.push(make(PieceSel::Met(Some(false)), o));
                    tier2.push(make(PieceSel::Met(None), o));
                }
                'P' | 'p' => {
                    tier1.push(make(PieceSel::Met(Some(true)), o));
                    tier2.push(make(PieceSel::Bia, o));
                }
                _ => {}
            }
        }
    }
    if tier1.is_empty() && tier2.is_empty() {
        let bad = prefix
            .iter()
            .find(|ch| latin_origin_file(**ch).is_none())
            .or(prefix.first())
            .copied()
            .unwrap_or('?');
        return Err(Unreadable::UnexpectedChar(bad));
    }
    Ok(Reading {
        tiers: vec![tier1, tier2],
        promotion,
    })
}

/// A Thai file letter, or a Latin one (mixed texts such as `งc4`).
fn thai_file(c: char) -> Option<u8> {
    thai::file_of_char(c).or_else(|| latin_file(c))
}

/// A Thai digit, or a Latin one.
fn thai_rank(c: char) -> Option<u8> {
    thai::rank_of_char(c).or_else(|| latin_rank(c))
}

/// Parses `[file][rank]` (each optional, Thai or Latin) that must use all of `rest`.
fn thai_origin(rest: &[char]) -> Option<(Option<u8>, Option<u8>)> {
    match rest {
        [] => Some((None, None)),
        [c] => thai_file(*c)
            .map(|f| (Some(f), None))
            .or_else(|| thai_rank(*c).map(|r| (None, Some(r)))),
        [f, r] => Some((Some(thai_file(*f)?), Some(thai_rank(*r)?))),
        _ => None,
    }
}

/// The readings of a Thai move text (already without spaces and `+`/`#`), best tier first.
fn thai_patterns(text: &str) -> Result<Reading, Unreadable> {
    let mut c: Vec<char> = text.chars().collect();
    if let Some(bad) = c
        .iter()
        .find(|&&ch| !(thai::is_thai(ch) || ch.is_ascii_alphanumeric() || "-:=".contains(ch)))
    {
        return Err(Unreadable::UnexpectedChar(*bad));
    }
    let promotion = c.contains(&'=');
    if let Some(eq) = c.iter().rposition(|&ch| ch == '=') {
        let suffix: String = c[eq + 1..].iter().collect();
        if !matches!(
            suffix.as_str(),
            "" | "M" | "m" | "P" | "p" | "Q" | "q" | "ม็" | "ง" | "ม"
        ) {
            return Err(Unreadable::BadPromotion);
        }
        c.truncate(eq);
    }
    let (prefix, separator, to) = split_target(&c, thai_file, thai_rank)?;
    let dash = separator == Some('-');
    let make = |piece, o| Pattern::new(piece, o, to);
    let mut tier1 = Vec::new();
    let mut tier2 = Vec::new();
    if let Some(o) = thai_origin(prefix) {
        letterless(o, to, dash, &mut tier1, &mut tier2);
    }
    // With a piece letter first (ม็ is ม and a mark).
    let lettered = match prefix {
        ['ม', thai::MAI_TAIKHU, rest @ ..] => {
            Some((PieceSel::Met(Some(false)), Some(PieceSel::Met(None)), rest))
        }
        ['ข', rest @ ..] => Some((PieceSel::Role(Role::Khun), None, rest)),
        ['ค', rest @ ..] => Some((PieceSel::Role(Role::Khon), None, rest)),
        ['ม', rest @ ..] => Some((PieceSel::Role(Role::Ma), None, rest)),
        ['ร', rest @ ..] => Some((PieceSel::Role(Role::Ruea), None, rest)),
        ['บ', rest @ ..] => Some((PieceSel::Bia, None, rest)),
        ['ง', rest @ ..] => Some((PieceSel::Met(Some(true)), Some(PieceSel::Met(None)), rest)),
        _ => None,
    };
    if let Some((first, second, rest)) = lettered {
        if let Some(o) = thai_origin(rest) {
            tier1.push(make(first, o));
            if let Some(second) = second {
                tier2.push(make(second, o));
            }
        }
    }
    if tier1.is_empty() && tier2.is_empty() {
        return Err(Unreadable::UnexpectedChar(
            prefix.first().copied().unwrap_or('?'),
        ));
    }
    Ok(Reading {
        tiers: vec![tier1, tier2],
        promotion,
    })
}

/// Splits a move text (its promotion suffix already cut off) into what stands before the
/// target square, the separator written before the target (`-`, `x`, `X` or `:`), and the
/// target square, read with `file` and `rank` (Latin or Thai characters).
fn split_target(
    c: &[char],
    file: impl Fn(char) -> Option<u8>,
    rank: impl Fn(char) -> Option<u8>,
) -> Result<(&[char], Option<char>, Square), Unreadable> {
    let [prefix @ .., f, r] = c else {
        return Err(Unreadable::NoTargetSquare);
    };
    let to = match (file(*f), rank(*r)) {
        (Some(f), Some(r)) => Square::from_coords(f, r),
        _ => None,
    }
    .ok_or(Unreadable::NoTargetSquare)?;
    Ok(match prefix.split_last() {
        Some((&sep @ ('-' | 'x' | 'X' | ':'), rest)) => (rest, Some(sep), to),
        _ => (prefix, None, to),
    })
}

/// The readings of a text without a piece letter, with origin `o` (file and rank, each
/// optional): a full origin square is any piece (UCI-like), else a Bia, and a bare target
/// (`e4`) is first a push. When the text has a `-` before the target (`after_dash`; Thai SAN
/// writes one only after a piece letter), a Bia is only the second choice.
fn letterless(
    o: (Option<u8>, Option<u8>),
    to: Square,
    after_dash: bool,
    tier1: &mut Vec<Pattern>,
    tier2: &mut Vec<Pattern>,
) {
    match o {
        (Some(_), Some(_)) => tier1.push(Pattern::new(PieceSel::Any, o, to)),
        _ if after_dash => tier2.push(Pattern::new(PieceSel::Bia, o, to)),
        (None, None) => {
            tier1.push(Pattern::new(PieceSel::BiaPush, o, to));
            tier2.push(Pattern::new(PieceSel::Bia, o, to));
        }
        _ => tier1.push(Pattern::new(PieceSel::Bia, o, to)),
    }
}

/// Finds the legal move the readings name: the first tier with any match decides. Among
/// several matches, one whose SAN or Thai SAN is exactly `written` wins (Thai SAN can write two
/// moves alike except for `+` or `=M`), else one that agrees with the written promotion suffix.
fn resolve(pos: &Position, reading: &Reading, written: &str) -> Result<Move, MoveInputError> {
    let legal = pos.legal_moves();
    let board = pos.board();
    let tiers = &reading.tiers;
    for tier in tiers {
        let found: Vec<Move> = legal
            .iter()
            .filter(|m| tier.iter().any(|p| p.matches(board, m)))
            .copied()
            .collect();
        match found.as_slice() {
            [] => {}
            [m] => return Ok(*m),
            many => {
                let mut exact = many
                    .iter()
                    .filter(|m| to_san(pos, m) == written || to_thai_san(pos, m) == written);
                if let (Some(m), None) = (exact.next(), exact.next()) {
                    return Ok(*m);
                }
                let mut same_suffix = many.iter().filter(|m| m.promotion == reading.promotion);
                if let (Some(m), None) = (same_suffix.next(), same_suffix.next()) {
                    return Ok(*m);
                }
                return Err(MoveInputError::Ambiguous {
                    candidates: many.iter().map(|m| to_san(pos, m)).collect(),
                    thai: many.iter().map(|m| to_thai_san(pos, m)).collect(),
                });
            }
        }
    }
    let first = tiers.iter().flatten().next();
    Err(MoveInputError::Illegal(match first {
        Some(p) => explain_pattern(pos, p),
        None => IllegalMove::NoSuchMove {
            piece: Piece::new(pos.turn(), Role::Bia),
            to: Square::from_index(0),
            candidates: Vec::new(),
        },
    }))
}

/// Why no legal move fits `p`: the reason for its one plausible piece, else the list of the
/// pieces of that kind.
fn explain_pattern(pos: &Position, p: &Pattern) -> IllegalMove {
    let board = pos.board();
    let turn = pos.turn();
    if let (Some(f), Some(r)) = (p.from_file, p.from_rank) {
        if let Some(from) = Square::from_coords(f, r) {
            let fits = board
                .piece_at(from)
                .is_none_or(|pc| pc.color != turn || p.fits_piece(pc));
            if fits {
                return diagnose(board, turn, from, p.to)
                    .unwrap_or_else(|| unexplained(pos, from, p.to));
            }
        }
    }
    // A plain Bia push (`e5`) can only mean the Bia on the target's file.
    let kind: Vec<Square> = Square::all()
        .filter(|&sq| {
            sq != p.to
                && p.fits_from(sq)
                && (p.piece != PieceSel::BiaPush || sq.file() == p.to.file())
                && board
                    .piece_at(sq)
                    .is_some_and(|pc| pc.color == turn && p.fits_piece(pc))
        })
        .collect();
    let reasons: Vec<(Square, Option<IllegalMove>)> = kind
        .iter()
        .map(|&sq| (sq, diagnose(board, turn, sq, p.to)))
        .collect();
    let plausible: Vec<&(Square, Option<IllegalMove>)> = reasons
        .iter()
        .filter(|(_, r)| {
            !matches!(
                r,
                Some(
                    IllegalMove::CannotMoveThatWay { .. }
                        | IllegalMove::BiaMovesDiagonallyOnlyToCapture { .. }
                )
            )
        })
        .collect();
    // When no piece of the kind could make the move, the one piece standing next to the target
    // is most likely the one meant (e.g. `Sc1` with a Khon on c2: "a Khon never steps straight
    // backward").
    let adjacent: Vec<&(Square, Option<IllegalMove>)> = reasons
        .iter()
        .filter(|(sq, _)| {
            sq.file()
                .abs_diff(p.to.file())
                .max(sq.rank().abs_diff(p.to.rank()))
                == 1
        })
        .collect();
    let single = match (
        plausible.as_slice(),
        reasons.as_slice(),
        adjacent.as_slice(),
    ) {
        ([one], _, _) => Some(*one),
        ([], [one], _) => Some(one),
        ([], _, [one]) => Some(*one),
        _ => None,
    };
    let own_on_target = board.piece_at(p.to).filter(|pc| pc.color == turn);
    match (single, own_on_target) {
        (Some((_, Some(reason))), _) => reason.clone(),
        (_, Some(piece)) if kind.is_empty() => IllegalMove::OwnPieceOnTarget {
            square: p.to,
            piece,
        },
        _ => IllegalMove::NoSuchMove {
            piece: p.named_piece(turn),
            to: p.to,
            candidates: kind,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().expect("square")
    }

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, crate::ruleset::Ruleset::Standard).expect("fen")
    }

    fn san_of(p: &Position, input: &str) -> String {
        let m = parse_move(p, input).unwrap_or_else(|e| panic!("{input}: {e}"));
        to_san(p, &m)
    }

    #[test]
    fn reads_every_notation_of_the_same_move() {
        let p = Position::new();
        for input in [
            "Nd2",
            "nd2",
            "Nbd2",
            "Nb1d2",
            "b1d2",
            "b1-d2",
            "Nd2+",
            " Nd2 ",
            "ม-ง๒",
            "มข-ง๒",
        ] {
            assert_eq!(san_of(&p, input), "Nd2", "{input}");
        }
        for input in ["e4", "e3e4", "e3-e4", "จ๔", "E4"] {
            assert_eq!(san_of(&p, input), "e4", "{input}");
        }
        for input in ["Se2", "Be2", "se2", "f1e2", "ค-จ๒"] {
            assert_eq!(san_of(&p, input), "Se2", "{input}");
        }
        for input in ["Md2", "Qd2", "qd2", "e1d2", "ม็-ง๒"] {
            assert_eq!(san_of(&p, input), "Md2", "{input}");
        }
    }

    #[test]
    fn ambiguous_lists_candidates_in_san() {
        // Two Ma can go to d2 when the Khon on c1 has moved out of the way.
        let p = pos("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/2S5/RN1KMN1R w - - 0 1");
        match parse_move(&p, "Nd2") {
            Err(MoveInputError::Ambiguous { candidates, .. }) => {
                assert_eq!(candidates, vec!["Nbd2".to_string(), "Nfd2".to_string()]);
            }
            other => panic!("unexpected {other:?}"),
        }
        assert_eq!(san_of(&p, "Nfd2"), "Nfd2");
        assert_eq!(san_of(&p, "f1d2"), "Nfd2");
    }

    #[test]
    fn playok_bia_ngai_and_promotion() {
        // White Bia-ngai on d5, Met on b3, Bia on g5 about to promote on h6 by capture.
        let p = pos("4k3/8/7p/3M~2P1/8/1M6/8/3K4 w - - 0 40");
        assert_eq!(san_of(&p, "Pe6"), "Me6");
        assert_eq!(san_of(&p, "Pd5e6"), "Me6");
        assert_eq!(san_of(&p, "Qc4"), "Mbc4");
        assert_eq!(san_of(&p, "gxh6=P"), "gxh6=M");
        assert_eq!(san_of(&p, "gxh6"), "gxh6=M");
        assert_eq!(san_of(&p, "g5h6m"), "gxh6=M");
        assert_eq!(san_of(&p, "g5h6"), "gxh6=M");
        assert_eq!(san_of(&p, "ชxญ๖=M"), "gxh6=M");
        // Both can reach c4: the FSF form needs the file.
        assert!(matches!(
            parse_move(&p, "Mc4"),
            Err(MoveInputError::Ambiguous { .. })
        ));
        assert_eq!(san_of(&p, "งc4"), "Mdc4");
    }

    #[test]
    fn illegal_moves_are_explained() {
        let p = Position::new();
        let ill = |s: &str| match parse_move(&p, s) {
            Err(MoveInputError::Illegal(e)) => e,
            other => panic!("{s}: unexpected {other:?}"),
        };
        assert_eq!(
            ill("e5"),
            IllegalMove::CannotMoveThatWay {
                piece: Piece::new(Color::White, Role::Bia),
                from: sq("e3"),
                to: sq("e5"),
                step: crate::explain::Step {
                    shape: crate::explain::StepShape::StraightForward,
                    distance: 2
                },
                movement: crate::explain::Movement::OneStepForwardCapturesDiagonally,
            }
        );
        assert!(matches!(ill("e4e5"), IllegalMove::NoPieceOnSquare { .. }));
        assert!(matches!(ill("e6e5"), IllegalMove::NotYourPiece { .. }));
        assert!(matches!(ill("Ra4"), IllegalMove::PathBlocked { .. }));
        assert!(
            matches!(ill("Nd3"), IllegalMove::NoSuchMove { ref candidates, .. } if candidates.len() == 2)
        );
        assert!(matches!(ill("Sd3"), IllegalMove::NoSuchMove { .. }));
        // Two Khon, one next to the target: that one's move is explained.
        let two_khon = Position::from_fen(
            "4k3/8/8/8/8/8/2S5/3K1S2 w - - 0 1",
            crate::ruleset::Ruleset::Standard,
        )
        .expect("valid FEN");
        assert!(matches!(
            parse_move(&two_khon, "Sc1"),
            Err(MoveInputError::Illegal(IllegalMove::CannotMoveThatWay {
                from,
                step: crate::explain::Step {
                    shape: crate::explain::StepShape::StraightBackward,
                    ..
                },
                ..
            })) if from == sq("c2")
        ));
        assert_eq!(
            ill("d3"),
            IllegalMove::OwnPieceOnTarget {
                square: sq("d3"),
                piece: Piece::new(Color::White, Role::Bia)
            }
        );
    }

    #[test]
    fn explanations_read_well() {
        // The Ma on d2 is pinned by the Ruea on d7 against the Khun on d1.
        let p = pos("4k3/3r4/8/8/8/8/3N4/3K4 w - - 0 30");
        let err = parse_move(&p, "Nf3").expect_err("pinned");
        assert_eq!(
            err.to_string(),
            "illegal move: that would leave your Khun on d1 in check from the Ruea on d7"
        );
        let err = parse_move(&p, "Ke2").map(|m| to_san(&p, &m));
        assert_eq!(err, Ok("Ke2".to_string()));
        let p = pos("4k3/4r3/8/8/8/8/8/3K4 w - - 0 30");
        assert_eq!(
            parse_move(&p, "Ke1").expect_err("into check").to_string(),
            "illegal move: that would put your Khun on e1 in check from the Ruea on e7"
        );
        let start = Position::new();
        assert_eq!(
            parse_move(&start, "Ra4").expect_err("blocked").to_string(),
            "illegal move: the Ruea on a1 cannot reach a4: the white Bia on a3 is in the way"
        );
        assert_eq!(
            parse_move(&start, "Nd3").expect_err("no Ma").to_string(),
            "illegal move: no Ma can move to d3 (yours stand on b1, g1)"
        );
        assert_eq!(
            parse_move(&start, "Kz9")
                .expect_err("unreadable")
                .to_string(),
            "cannot read the move \"Kz9\": no target square at the end"
        );
    }

    #[test]
    fn thai_text_shared_by_two_moves_is_ambiguous() {
        // ข is the Khun and the b-file: Fairy-Stockfish writes both captures on c4 alike.
        let p = pos("8/8/8/1p6/2N5/1k6/8/4K3 b - - 0 40");
        let khun = parse_move(&p, "Kxc4").expect("legal");
        let bia = parse_move(&p, "bxc4").expect("legal");
        assert_eq!(to_thai_san(&p, &khun), "ขxค๔");
        assert_eq!(to_thai_san(&p, &bia), "ขxค๔");
        match parse_move(&p, "ขxค๔") {
            Err(MoveInputError::Ambiguous { candidates, thai }) => {
                assert_eq!(candidates.len(), 2);
                assert!(candidates.contains(&"Kxc4".to_string()));
                assert!(candidates.contains(&"bxc4".to_string()));
                // The Thai of each, in the same order: alike.
                assert_eq!(thai, vec!["ขxค๔".to_string(), "ขxค๔".to_string()]);
            }
            other => panic!("unexpected {other:?}"),
        }
        // A lower-case b is first the file: bxc4 is the Bia, as in SAN.
        assert_eq!(bia.role, Role::Bia);
    }

    #[test]
    fn unreadable_inputs() {
        let p = Position::new();
        for input in [
            "hello", "Z", "Nz9", "e4=R", "12345", "🙂", "e", "x", "=", "-", "ก", "ม็",
        ] {
            assert!(
                matches!(
                    parse_move(&p, input),
                    Err(MoveInputError::Unreadable { .. })
                ),
                "{input}: {:?}",
                parse_move(&p, input)
            );
        }
        let long = "e".repeat(10_000);
        assert!(matches!(
            parse_move(&p, &long),
            Err(MoveInputError::Unreadable {
                reason: Unreadable::TooLong { chars: 10_000 },
                ..
            })
        ));
        assert_eq!(parse_move(&p, "   "), Err(MoveInputError::Empty));
    }

    fn reason(p: &Position, input: &str) -> Unreadable {
        match parse_move(p, input) {
            Err(MoveInputError::Unreadable { reason, .. }) => reason,
            other => panic!("{input:?}: {other:?}"),
        }
    }

    #[test]
    fn invisible_characters_are_named_and_blamed() {
        let p = Position::new();
        for (c, name) in [
            ('\u{200B}', "U+200B ZERO WIDTH SPACE"),
            ('\u{202E}', "U+202E RIGHT-TO-LEFT OVERRIDE"),
            ('\u{FEFF}', "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
            ('\u{200F}', "U+200F RIGHT-TO-LEFT MARK"),
            ('\u{0301}', "U+0301 COMBINING ACUTE ACCENT"),
        ] {
            assert_eq!(invisible_char_name(c).as_deref(), Some(name));
            for input in [format!("e3{c}e4"), format!("ม{c}-ง๒"), format!("{c}Nd2")] {
                assert_eq!(
                    reason(&p, &input),
                    Unreadable::UnexpectedChar(c),
                    "{input:?}"
                );
            }
        }
        assert_eq!(invisible_char_name('\u{0007}').as_deref(), Some("U+0007"));
        for visible in ['e', 'ม', '็', '้', '🙂', '-'] {
            assert_eq!(invisible_char_name(visible), None, "{visible}");
        }
        // A stray visible character in a Thai text is the one blamed, not the piece letter.
        assert_eq!(reason(&p, "ม!-ง๒"), Unreadable::UnexpectedChar('!'));
        assert!(Unreadable::UnexpectedChar('\u{200B}')
            .to_string()
            .contains("U+200B ZERO WIDTH SPACE"));
    }

    #[test]
    fn two_moves_in_one_text_are_one_move_at_a_time() {
        let p = Position::new();
        for input in [
            "e3e4e5",
            "e3e4 e6e5",
            "Nd2Nd7",
            "e4 Nd2",
            "ม-ง๒ ม-ง๗",
            "e4 e5",
            " e4  e5 ",
            "Nd2 e4",
            "จ๔ จ๕",
        ] {
            assert_eq!(reason(&p, input), Unreadable::SeveralMoves, "{input}");
        }
        // One move with spaces inside is still one move.
        assert_eq!(san_of(&p, "e3 e4"), "e4");
        assert_eq!(san_of(&p, "b1 d2"), "Nd2");
        // After 1. e4 … the same two words are White's legal UCI move e4e5.
        let mut q = p.clone();
        for m in ["e4", "a5"] {
            let mv = parse_move(&q, m).expect("legal");
            q.play(&mv).expect("legal");
        }
        assert_eq!(san_of(&q, "e4 e5"), "e5");
        // A word that is no move keeps its own reason.
        assert!(matches!(
            parse_move(&p, "e4 x5"),
            Err(MoveInputError::Unreadable { .. })
        ));
        assert_eq!(reason(&p, "e3e"), Unreadable::NoTargetSquare);
    }

    #[test]
    fn a_promotion_suffix_on_a_move_that_does_not_promote_is_refused() {
        let p = Position::new();
        for input in ["e3e4m", "e3e4=Q", "e4=M", "e3e4M", "Nd2=M", "จ๔=ม"] {
            assert!(
                matches!(
                    parse_move(&p, input),
                    Err(MoveInputError::NotAPromotion { ref san, .. }) if san == "e4" || san == "Nd2"
                ),
                "{input}: {:?}",
                parse_move(&p, input)
            );
        }
        // On a promoting move the suffix is fine, and so is its absence.
        let q = pos("4k3/8/8/2P5/8/8/8/4K3 w - - 0 1");
        for input in ["c5c6", "c5c6m", "c6=M", "c6", "C5C6M"] {
            assert!(parse_move(&q, input).is_ok_and(|m| m.promotion), "{input}");
        }
    }

    #[test]
    fn squares_may_be_written_in_capitals() {
        let p = Position::new();
        for (input, san) in [
            ("E4", "e4"),
            ("E3E4", "e4"),
            ("E3-E4", "e4"),
            ("H1H2", "Rh2"),
            ("SD2", "Sd2"),
            ("RH2", "Rh2"),
            ("ND2", "Nd2"),
            ("B1D2", "Nd2"),
            ("nD2", "Nd2"),
        ] {
            assert_eq!(san_of(&p, input), san, "{input}");
        }
        // An upper-case B before the target is always the Khon, never the b-file.
        let khon = parse_move(&p, "BD2").expect("Khon c1-d2");
        assert_eq!(
            p.board().piece_at(khon.from).map(|x| x.role),
            Some(Role::Khon)
        );
    }

    #[test]
    fn two_readings_of_a_thai_letter_that_is_also_a_file() {
        let tiers = thai_patterns("ขxค๓").expect("readable").tiers;
        let pieces: Vec<PieceSel> = tiers[0].iter().map(|p| p.piece).collect();
        assert_eq!(pieces, vec![PieceSel::Bia, PieceSel::Role(Role::Khun)]);
        // With a dash only the piece reading is left.
        let tiers = thai_patterns("ข-ค๒").expect("readable").tiers;
        assert_eq!(tiers[0].len(), 1);
        assert_eq!(tiers[0][0].piece, PieceSel::Role(Role::Khun));
        // ม็ is the Met, ม the Ma; ง the Bia-ngai, then any Met.
        assert_eq!(
            thai_patterns("ม็๕-ฉ๖").expect("readable").tiers[0][0].from_rank,
            Some(4)
        );
        assert_eq!(
            thai_patterns("ม-ง๒").expect("readable").tiers[0][0].piece,
            PieceSel::Role(Role::Ma)
        );
        // ง-ค๓: first the Bia-ngai; then any Met, or a Bia on the d-file (ง is also a file).
        let tiers = thai_patterns("ง-ค๓").expect("readable").tiers;
        let pieces = |t: usize| -> Vec<PieceSel> { tiers[t].iter().map(|p| p.piece).collect() };
        assert_eq!(pieces(0), vec![PieceSel::Met(Some(true))]);
        assert_eq!(pieces(1), vec![PieceSel::Bia, PieceSel::Met(None)]);
        assert!(thai_patterns("ก").is_err());
        assert!(thai_patterns("ม็").is_err());
        assert!(thai_patterns("จ๔=ร").is_err());
        assert_eq!(
            thai_patterns("ส-ค๓").map(|r| r.tiers),
            Err(Unreadable::UnexpectedChar('ส'))
        );
    }

    #[test]
    fn thai_texts_may_mix_in_latin_squares() {
        assert_eq!(thai_file('ญ'), Some(7));
        assert_eq!(thai_file('c'), Some(2));
        // Latin squares in either case, as in Latin texts.
        assert_eq!(thai_file('C'), Some(2));
        assert_eq!(thai_rank('๔'), Some(3));
        assert_eq!(thai_rank('4'), Some(3));
    }
}
