//! PGN: reading pychess exports and PlayOK records, writing in pychess's export form.
//!
//! Reading is in two steps: [`read_pgn`] splits the text into tags and move texts (comments,
//! variations, NAGs, move numbers and the result are skipped), then [`PgnGame::replay`] reads
//! each move with [`crate::parse_move`] (so SAN, PlayOK's dialect, Thai SAN and UCI all
//! work) from the `[FEN]` tag or the start position.
//!
//! ```
//! use makruk::{pgn, Ruleset};
//!
//! let game = pgn::read_pgn("[White \"A\"]\n[Black \"B\"]\n\n1. e4 Bf7 2. Nd2 Qc7 *")?;
//! assert_eq!(game.tag("White"), Some("A"));
//! let moves = game.replay_moves(Ruleset::Traditional)?;
//! assert_eq!(moves.len(), 4);
//! # Ok::<(), pgn::PgnError>(())
//! ```

use std::fmt;

use crate::game::{DrawReason, Game, Outcome};
use crate::notation::{parse_move, MoveInputError};
use crate::position::Position;
use crate::ruleset::Ruleset;
use crate::san::to_san;
use crate::types::{Color, Move};
use crate::variant::Variant;

/// Longest PGN text the reader accepts, in bytes (a long game is about 10 kB).
pub const MAX_PGN_BYTES: usize = 4 << 20;

/// One game as read from PGN: its tags in order, and the move texts as written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// `(name, value)` pairs in the order of the file.
    pub tags: Vec<(String, String)>,
    /// The move texts of the main line, in order (one per ply), without move numbers,
    /// comments, NAGs or variations.
    pub moves: Vec<String>,
    /// The game-termination marker at the end of the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`),
    /// if there is one.
    pub result: Option<String>,
}

/// Why a PGN text could not be read or replayed. Lines are counted from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    /// The text holds no tag and no move.
    #[error("no game in the PGN text")]
    NoGame,
    /// The text is longer than [`MAX_PGN_BYTES`].
    #[error("PGN text too long ({bytes} bytes)")]
    TooLong {
        /// The text's length in bytes.
        bytes: usize,
    },
    /// A tag line that is not `[Name "value"]`.
    #[error("line {line}: bad tag")]
    BadTag {
        /// The line of the tag.
        line: usize,
    },
    /// A `{` comment that is never closed.
    #[error("line {line}: comment not closed")]
    UnterminatedComment {
        /// The line where the comment opens.
        line: usize,
    },
    /// A `(` variation that is never closed.
    #[error("line {line}: variation not closed")]
    UnterminatedVariation {
        /// The line where the outermost open variation starts.
        line: usize,
    },
    /// The `[FEN]` tag does not hold a valid position.
    #[error("bad FEN tag \"{fen}\": {reason}")]
    BadFen {
        /// The tag's value (cut to 120 characters).
        fen: String,
        /// Why it was refused ([`crate::FenError`]'s text).
        reason: String,
    },
    /// A move could not be read or is not legal.
    #[error("{0}")]
    Move(#[from] ReplayError),
}

/// A move of a record that could not be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {move_number}{} {text}: {error}", if *color == Color::White { "." } else { "..." })]
pub struct ReplayError {
    /// Index of the move in the record, 0-based (plies from the start position).
    pub ply: usize,
    /// The full-move number shown in the record (from the start position's FEN).
    pub move_number: u32,
    /// The side that was to play it.
    pub color: Color,
    /// The move text as written.
    pub text: String,
    /// Why it could not be played.
    pub error: MoveInputError,
}

impl PgnGame {
    /// The value of the first tag called `name` (case-sensitive, as PGN specifies).
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The start position: the `[FEN]` tag if present, else the initial position. A `[Variant]`
    /// tag naming another variant of the family ([`Variant`]'s names, e.g. `Cambodian`,
    /// `ASEAN`) gives a position of that variant (`ruleset` then does not apply); any other
    /// (or none) gives Makruk.
    ///
    /// # Errors
    ///
    /// [`PgnError::BadFen`] if the `[FEN]` tag is not a valid position of the variant.
    pub fn start_position(&self, ruleset: Ruleset) -> Result<Position, PgnError> {
        let variant = self
            .tag("Variant")
            .and_then(|v| v.parse::<Variant>().ok())
            .unwrap_or_default();
        if variant != Variant::Makruk {
            return match self.tag("FEN") {
                Some(fen) => {
                    Position::from_fen_variant(fen, variant).map_err(|e| PgnError::BadFen {
                        fen: fen.chars().take(120).collect(),
                        reason: e.to_string(),
                    })
                }
                None => Ok(Position::start_variant(variant, ruleset)),
            };
        }
        match self.tag("FEN") {
            Some(fen) => Position::from_fen(fen, ruleset).map_err(|e| PgnError::BadFen {
                fen: fen.chars().take(120).collect(),
                reason: e.to_string(),
            }),
            None => Ok(Position::start(ruleset)),
        }
    }

    /// Reads every move from the start position under `ruleset` and returns them.
    ///
    /// # Errors
    ///
    /// [`PgnError::BadFen`] for a bad `[FEN]` tag; [`PgnError::Move`] for the first move that
    /// cannot be read or is not legal (with its move number).
    pub fn replay_moves(&self, ruleset: Ruleset) -> Result<Vec<Move>, PgnError> {
        Ok(self.replay(ruleset)?.game.moves().to_vec())
    }
}

/// A record replayed by [`PgnGame::replay`]: the [`Game`] with every move of the record, and
/// the first end by the rules reached on the way (a record may go on after a draw our rules
/// declare, e.g. a PlayOK game past insufficient material).
#[derive(Clone, Debug)]
pub struct Replay {
    /// The game with every move of the record.
    pub game: Game,
    /// `(plies played when it happened, outcome)` for the first position where
    /// [`Game::outcome`] was set, if any.
    pub first_end: Option<(usize, Outcome)>,
}

impl PgnGame {
    /// Replays the record under `ruleset` into a [`Game`], playing on past any end by the
    /// rules (see [`Replay::first_end`]).
    ///
    /// # Errors
    ///
    /// [`PgnError::BadFen`] for a bad `[FEN]` tag; [`PgnError::Move`] for the first move that
    /// cannot be read or is not legal (with its move number).
    pub fn replay(&self, ruleset: Ruleset) -> Result<Replay, PgnError> {
        let mut game = Game::from_position(self.start_position(ruleset)?);
        let mut first_end = game.outcome().map(|o| (0, o));
        for (ply, text) in self.moves.iter().enumerate() {
            let pos = game.position();
            let m = parse_move(pos, text).map_err(|error| ReplayError {
                ply,
                move_number: pos.fullmoves(),
                color: pos.turn(),
                text: text.clone(),
                error,
            })?;
            game.play_legal(&m);
            if first_end.is_none() {
                first_end = game.outcome().map(|o| (ply + 1, o));
            }
        }
        Ok(Replay { game, first_end })
    }
}

/// The PGN result of an outcome: `1-0`, `0-1`, `1/2-1/2`, or `*` for a game not over.
#[must_use]
pub fn result_string(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        Some(Outcome::Decisive {
            winner: Color::White,
            ..
        }) => "1-0",
        Some(Outcome::Decisive {
            winner: Color::Black,
            ..
        }) => "0-1",
        Some(Outcome::Draw { .. }) => "1/2-1/2",
        None => "*",
    }
}

/// A short lowercase English name of why a game ended (`checkmate`, `draw by counting`, …).
#[must_use]
pub fn outcome_reason(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Decisive { .. } => "checkmate",
        Outcome::Draw { reason } => match reason {
            DrawReason::Stalemate => "stalemate",
            DrawReason::Counting => "draw by counting",
            DrawReason::Repetition => "draw by threefold repetition",
            DrawReason::InsufficientMaterial => "draw by insufficient material",
            DrawReason::KhunVsKhun => "draw: Khun against Khun",
            DrawReason::FiftyMove => "draw by the no-progress rule",
            DrawReason::CountingSideMated => "draw: the counting side gave mate",
        },
    }
}

/// Writes `game` in pychess's export form (see [`write_pgn_moves`]); the result is
/// `tags.result`, or else the game's outcome by the rules.
///
/// ```
/// use makruk::{parse_move, pgn, Game, Ruleset};
///
/// let mut game = Game::new(Ruleset::Standard);
/// for text in ["e4", "Sf7", "Nd2"] {
///     let m = parse_move(game.position(), text)?;
///     game.play(&m).expect("legal");
/// }
/// let text = pgn::write_pgn(&game, &pgn::PgnTags::default());
/// assert!(text.contains("[Variant \"Makruk\"]\n"));
/// assert!(text.ends_with("1. e4 Sf7 2. Nd2 *\n"));
/// # Ok::<(), makruk::MoveInputError>(())
/// ```
#[must_use]
pub fn write_pgn(game: &Game, tags: &PgnTags) -> String {
    write_pgn_annotated(game, tags, &[])
}

/// [`write_pgn`] with an annotation after each move: `annotations[i]` belongs to ply `i` (the
/// `i`-th move from the start position, 0-based); a shorter slice leaves the later moves bare,
/// and annotations past the last move are ignored. With no annotation (or only
/// [`MoveAnnotation::default`]s) the text is exactly [`write_pgn`]'s.
///
/// ```
/// use makruk::{parse_move, pgn, Game, Ruleset};
/// use makruk::pgn::MoveAnnotation;
///
/// let mut game = Game::new(Ruleset::Standard);
/// for text in ["e4", "Sf7"] {
///     let m = parse_move(game.position(), text)?;
///     game.play(&m).expect("legal");
/// }
/// let notes = [
///     MoveAnnotation::comment("[%eval 0.17]"),
///     MoveAnnotation { nag: Some(2), comment: Some("[%eval 1.3]".into()) },
/// ];
/// let text = pgn::write_pgn_annotated(&game, &pgn::PgnTags::default(), &notes);
/// assert!(text.ends_with("1. e4 { [%eval 0.17] } 1... Sf7 $2 { [%eval 1.3] } *\n"));
/// # Ok::<(), makruk::MoveInputError>(())
/// ```
#[must_use]
pub fn write_pgn_annotated(game: &Game, tags: &PgnTags, annotations: &[MoveAnnotation]) -> String {
    let result = tags
        .result
        .clone()
        .unwrap_or_else(|| result_string(game.outcome()).to_string());
    write_pgn_moves_annotated(game.start(), game.moves(), tags, &result, annotations)
}

/// What the PGN writer adds after one move ([`write_pgn_annotated`]): a Numeric Annotation
/// Glyph and a comment.
///
/// - The NAG as its own token ` $N` after the move (`12. Rd4 $2`): the PGN standard's export
///   format (section 8.2.3.8: export format uses NAGs, not the suffix symbols `?`, `??`, `?!`
///   that import format allows, and which lichess's own export glues to the move,
///   scalachess `format/pgn/Pgn.scala`); `0` (PGN's null annotation) writes nothing;
/// - then the comment as `{ text }`, as lichess writes its `[%eval …]` comments.
///
/// [`read_pgn`] skips both (`$N` and `{…}` are skipped, as are suffix symbols on import).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveAnnotation {
    /// The NAG (PGN standard section 10: `2` mistake, `4` blunder, `6` dubious move, …).
    pub nag: Option<u8>,
    /// The comment's text, without braces. A `}` (which would end the comment) is left out
    /// and line breaks and other control characters become spaces; a comment empty after
    /// that is not written.
    pub comment: Option<String>,
}

impl MoveAnnotation {
    /// An annotation with only a comment.
    #[must_use]
    pub fn comment(text: impl Into<String>) -> MoveAnnotation {
        MoveAnnotation {
            nag: None,
            comment: Some(text.into()),
        }
    }
}

/// A comment's text as it may stand between `{` and `}` (see [`MoveAnnotation::comment`]).
fn comment_text(text: &str) -> String {
    let cleaned: String = text
        .chars()
        .filter(|&c| c != '}')
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    cleaned.trim().to_string()
}

/// Reads the first game of a PGN text.
///
/// # Errors
///
/// See [`read_pgns`]; also [`PgnError::NoGame`] for a text without any game.
pub fn read_pgn(text: &str) -> Result<PgnGame, PgnError> {
    read_pgns(text)?.into_iter().next().ok_or(PgnError::NoGame)
}

/// Reads every game of a PGN text (games follow each other; a tag line after movetext starts
/// the next game). Accepts tags, `{…}` and `;` comments, `%` escape lines, `(…)` variations
/// (skipped, nested), NAGs (`$1`), `!`/`?` annotations, move numbers with `.` or `...`
/// (also glued to the move, `12.Nf3`), and results `1-0`, `0-1`, `1/2-1/2`, `½-½`, `*`.
///
/// # Errors
///
/// [`PgnError::TooLong`], [`PgnError::BadTag`], [`PgnError::UnterminatedComment`],
/// [`PgnError::UnterminatedVariation`]. Moves are not checked here (see
/// [`PgnGame::replay_moves`]).
pub fn read_pgns(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    if text.len() > MAX_PGN_BYTES {
        return Err(PgnError::TooLong { bytes: text.len() });
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut in_movetext = false;
    let mut comment_from: Option<usize> = None;
    let mut depth = 0usize;
    let mut variation_from = 0usize;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.trim();
        if comment_from.is_none() && depth == 0 {
            if line.starts_with('%') {
                continue;
            }
            if line.starts_with('[') {
                if in_movetext || game.result.is_some() {
                    games.push(std::mem::take(&mut game));
                    in_movetext = false;
                }
                game.tags
                    .push(parse_tag(line).ok_or(PgnError::BadTag { line: line_no })?);
                continue;
            }
        }
        let mut rest = line;
        while !rest.is_empty() {
            if comment_from.is_some() {
                match rest.find('}') {
                    Some(end) => {
                        comment_from = None;
                        rest = &rest[end + 1..];
                        continue;
                    }
                    None => break,
                }
            }
            rest = rest.trim_start();
            let Some(c) = rest.chars().next() else {
                break;
            };
            match c {
                '{' => {
                    comment_from = Some(line_no);
                    rest = &rest[1..];
                }
                ';' => break,
                '(' => {
                    if depth == 0 {
                        variation_from = line_no;
                    }
                    depth += 1;
                    rest = &rest[1..];
                }
                ')' => {
                    depth = depth.saturating_sub(1);
                    rest = &rest[1..];
                }
                _ => {
                    let end = rest
                        .find(|ch: char| ch.is_whitespace() || matches!(ch, '{' | '(' | ')' | ';'))
                        .unwrap_or(rest.len());
                    let token = &rest[..end];
                    rest = &rest[end..];
                    if depth == 0 {
                        in_movetext = true;
                        take_token(&mut game, token);
                    }
                }
            }
        }
    }
    if let Some(line) = comment_from {
        return Err(PgnError::UnterminatedComment { line });
    }
    if depth > 0 {
        return Err(PgnError::UnterminatedVariation {
            line: variation_from,
        });
    }
    if !game.tags.is_empty() || !game.moves.is_empty() || game.result.is_some() {
        games.push(game);
    }
    Ok(games)
}

/// Files a movetext token: a result, a move number (possibly glued to its move), a NAG, or a
/// move text.
fn take_token(game: &mut PgnGame, token: &str) {
    if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*") {
        game.result = Some(if token == "½-½" { "1/2-1/2" } else { token }.to_string());
        return;
    }
    if token.starts_with('$') {
        return;
    }
    let is_dot = |c: char| c == '.' || c == '…';
    let after_digits = token.trim_start_matches(|c: char| c.is_ascii_digit());
    let move_text = if after_digits.len() < token.len() && after_digits.starts_with(is_dot) {
        after_digits.trim_start_matches(is_dot)
    } else {
        token.trim_start_matches(is_dot)
    };
    let move_text = move_text.trim_end_matches(['!', '?']);
    if !move_text.is_empty() {
        game.moves.push(move_text.to_string());
    }
}

/// A PGN tag name: letters, digits and `_`, not empty.
fn is_tag_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// Parses `[Name "value"]` (value with `\"` and `\\` escapes).
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.trim_end().strip_suffix(']')?.trim();
    let name_end = inner.find(|c: char| c.is_whitespace() || c == '"')?;
    let name = &inner[..name_end];
    if !is_tag_name(name) {
        return None;
    }
    let quoted = inner[name_end..].trim();
    let body = quoted.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            value.push(chars.next().unwrap_or('\\'));
        } else {
            value.push(c);
        }
    }
    Some((name.to_string(), value))
}

/// The tags for [`write_pgn`]: the seven-tag roster, and extra tags written after `Result`
/// (where pychess puts `TimeControl`, `WhiteElo`, `BlackElo`). `Default` gives PGN's unknown
/// values (`?`, `????.??.??`), pychess's round `-`, `result: None` and no extra tags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnTags {
    /// `Event`: the event or kind of game.
    pub event: String,
    /// `Site`: where it was played (pychess writes the game's URL).
    pub site: String,
    /// `Date`: `YYYY.MM.DD`.
    pub date: String,
    /// `Round`.
    pub round: String,
    /// `White`: the White player's name.
    pub white: String,
    /// `Black`: the Black player's name.
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`; `None`: from the game's outcome by rules (else `*`).
    pub result: Option<String>,
    /// More `(name, value)` tags, e.g. `("TimeControl", "300+3")`. Tags the writer sets itself
    /// (the roster, `Variant`, `FEN`, `SetUp`) are skipped here.
    pub extra: Vec<(String, String)>,
}

impl Default for PgnTags {
    fn default() -> PgnTags {
        PgnTags {
            event: "?".into(),
            site: "?".into(),
            date: "????.??.??".into(),
            round: "-".into(),
            white: "?".into(),
            black: "?".into(),
            result: None,
            extra: Vec::new(),
        }
    }
}

fn escape(value: &str) -> String {
    value
        .chars()
        .filter(|c| !c.is_control())
        .flat_map(|c| match c {
            '"' => vec!['\\', '"'],
            '\\' => vec!['\\', '\\'],
            _ => vec![c],
        })
        .collect()
}

/// Writes a game in pychess's export form: tags Event, Site, Date, Round, White, Black,
/// Result, then `[Variant "Makruk"]`, `[FEN "…"]`, `[SetUp "1"]`, an empty line, and the
/// movetext in SAN (Fairy-Stockfish form) with move numbers, wrapped before 80 columns,
/// ending with the result. `moves` must be legal in turn from `start` (a move that is not is
/// written in UCI form, see [`to_san`]).
#[must_use]
pub fn write_pgn_moves(start: &Position, moves: &[Move], tags: &PgnTags, result: &str) -> String {
    write_pgn_moves_annotated(start, moves, tags, result, &[])
}

/// [`write_pgn_moves`] with an annotation after each move, `annotations[i]` after ply `i`
/// (see [`write_pgn_annotated`] and [`MoveAnnotation`]). Lines are wrapped between tokens: a
/// move, a ` $N` NAG and a whole `{ … }` comment are each one token
/// (a comment longer than a line stays on one line).
#[must_use]
pub fn write_pgn_moves_annotated(
    start: &Position,
    moves: &[Move],
    tags: &PgnTags,
    result: &str,
    annotations: &[MoveAnnotation],
) -> String {
    let mut out = String::new();
    let roster = [
        ("Event", tags.event.as_str()),
        ("Site", tags.site.as_str()),
        ("Date", tags.date.as_str()),
        ("Round", tags.round.as_str()),
        ("White", tags.white.as_str()),
        ("Black", tags.black.as_str()),
        ("Result", result),
    ];
    const OWN: [&str; 10] = [
        "Event", "Site", "Date", "Round", "White", "Black", "Result", "Variant", "FEN", "SetUp",
    ];
    let extra = tags
        .extra
        .iter()
        .filter(|(n, _)| is_tag_name(n) && !OWN.contains(&n.as_str()))
        .map(|(n, v)| (n.as_str(), v.as_str()));
    for (name, value) in roster
        .into_iter()
        .chain(extra)
        .chain([("Variant", start.variant().pgn_name())])
    {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    }
    out.push_str(&format!("[FEN \"{}\"]\n[SetUp \"1\"]\n\n", start.fen()));
    let mut pos = start.clone();
    let mut tokens = Vec::with_capacity(moves.len() * 3 / 2 + 1);
    // A comment before a Black move: its number is written again (`1... d5`), as PGN's
    // export format asks (section 8.2.2.2) and lichess writes it.
    let mut after_comment = false;
    for (i, m) in moves.iter().enumerate() {
        if pos.turn() == Color::White {
            tokens.push(format!("{}.", pos.fullmoves()));
        } else if i == 0 || after_comment {
            tokens.push(format!("{}...", pos.fullmoves()));
        }
        after_comment = false;
        tokens.push(to_san(&pos, m));
        let note = annotations.get(i);
        if let Some(n) = note.and_then(|a| a.nag).filter(|&n| n != 0) {
            tokens.push(format!("${n}"));
        }
        if let Some(text) = note.and_then(|a| a.comment.as_deref()) {
            let text = comment_text(text);
            if !text.is_empty() {
                tokens.push(format!("{{ {text} }}"));
                after_comment = true;
            }
        }
        pos.play_unchecked(m);
    }
    tokens.push(result.to_string());
    let mut line_len = 0;
    for t in tokens {
        if line_len > 0 && line_len + 1 + t.chars().count() > 79 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        line_len += t.chars().count();
        out.push_str(&t);
    }
    out.push('\n');
    out
}

/// The pychess analysis board for `pos`:
/// `https://www.pychess.org/analysis/makruk?fen=<FEN>` with spaces written `_` and `+` written
/// `.` (pychess's URL form); another variant's board is at its Fairy-Stockfish name
/// (`…/analysis/cambodian?fen=…`).
///
/// ```
/// use makruk::{analysis_url, Position};
/// assert_eq!(
///     analysis_url(&Position::new()),
///     "https://www.pychess.org/analysis/makruk?fen=rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR_w_-_-_0_1"
/// );
/// ```
#[must_use]
pub fn analysis_url(pos: &Position) -> String {
    format!(
        "https://www.pychess.org/analysis/{}?fen={}",
        pos.variant().name(),
        pos.fen().replace(' ', "_").replace('+', ".")
    )
}

impl fmt::Display for PgnGame {
    /// The tags and move texts as read (not re-encoded), one tag per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, v) in &self.tags {
            writeln!(f, "[{n} \"{}\"]", escape(v))?;
        }
        writeln!(f)?;
        write!(f, "{}", self.moves.join(" "))?;
        if let Some(r) = &self.result {
            write!(f, " {r}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tags_comments_variations_numbers_results() {
        let text = "\u{feff}[Event \"Test \\\"quoted\\\"\"]\n[Site \"PlayOK\"]\n% escape line\n\n\
            1. c4 {a comment\nover two lines} c5 2.Nc3 (2. Nd2 Nc6 (2... e5)) Bf7 $1 3. Bf2!? ; rest\n\
            3... Nc6 4…Qc7 ... 1-0\n\n[Event \"second\"]\n\n1... e5 *\n";
        let games = read_pgns(text).expect("readable");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("Event"), Some("Test \"quoted\""));
        assert_eq!(games[0].tag("Site"), Some("PlayOK"));
        assert_eq!(
            games[0].moves,
            vec!["c4", "c5", "Nc3", "Bf7", "Bf2", "Nc6", "Qc7"]
        );
        assert_eq!(games[0].result.as_deref(), Some("1-0"));
        assert_eq!(games[1].moves, vec!["e5"]);
        assert_eq!(games[1].result.as_deref(), Some("*"));
    }

    #[test]
    fn reports_broken_structure() {
        assert_eq!(read_pgn(""), Err(PgnError::NoGame));
        assert_eq!(read_pgn("[Event \"x\n"), Err(PgnError::BadTag { line: 1 }));
        assert_eq!(
            read_pgn("1. e4 {never closed\n"),
            Err(PgnError::UnterminatedComment { line: 1 })
        );
        assert_eq!(
            read_pgn("1. e4\n(1. d4 *"),
            Err(PgnError::UnterminatedVariation { line: 2 })
        );
    }

    #[test]
    fn reports_the_first_bad_move_with_its_number() {
        let game = read_pgn("1. e4 d5 2. Nd2 Kz9 *").expect("readable");
        match game.replay_moves(Ruleset::Standard) {
            Err(PgnError::Move(e)) => {
                assert_eq!((e.ply, e.move_number, e.color), (3, 2, Color::Black));
                assert_eq!(e.text, "Kz9");
                assert!(e.to_string().starts_with("move 2... Kz9: "));
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn writes_pychess_form_and_reads_it_back() {
        let start = Position::new();
        let game = read_pgn("1. e4 d5 2. exd5 cxd5").expect("readable");
        let moves = game.replay_moves(Ruleset::Standard).expect("legal");
        let tags = PgnTags {
            white: "Som\"chai".into(),
            extra: vec![
                ("TimeControl".into(), "300+3".into()),
                ("FEN".into(), "ignored".into()),
                ("Bad Name".into(), "ignored".into()),
            ],
            ..PgnTags::default()
        };
        let text = write_pgn_moves(&start, &moves, &tags, "*");
        assert!(text.starts_with(
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"-\"]\n\
             [White \"Som\\\"chai\"]\n[Black \"?\"]\n[Result \"*\"]\n[TimeControl \"300+3\"]\n\
             [Variant \"Makruk\"]\n\
             [FEN \"rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1\"]\n[SetUp \"1\"]\n\n"
        ));
        assert!(text.ends_with("1. e4 d5 2. exd5 cxd5 *\n"), "{text}");
        let back = read_pgn(&text).expect("readable");
        assert_eq!(back.tag("White"), Some("Som\"chai"));
        assert_eq!(back.replay_moves(Ruleset::Standard).expect("legal"), moves);
    }

    #[test]
    fn annotations_are_written_as_nags_and_comments_and_read_back_skipped() {
        let start = Position::new();
        let game = read_pgn("1. e4 d5 2. exd5 cxd5 3. Nd2").expect("readable");
        let moves = game.replay_moves(Ruleset::Standard).expect("legal");
        let tags = PgnTags::default();
        let notes = vec![
            MoveAnnotation::comment("[%eval 0.17]"),
            MoveAnnotation {
                nag: Some(6),
                comment: Some("[%eval 1.3]".into()),
            },
            MoveAnnotation {
                nag: Some(4),
                comment: Some("[%eval #-3]".into()),
            },
            MoveAnnotation {
                nag: Some(10),
                comment: Some("a } brace\nand a line".into()),
            },
            // Ply 4 bare; nothing for ply 5 (the slice is shorter), and a NAG 0 is nothing.
            MoveAnnotation {
                nag: Some(0),
                comment: Some("  ".into()),
            },
        ];
        let text = write_pgn_moves_annotated(&start, &moves, &tags, "*", &notes);
        let plain = write_pgn_moves(&start, &moves, &tags, "*");
        let header_end = plain.find("\n\n").expect("header") + 2;
        assert_eq!(text[..header_end], plain[..header_end], "same tags");
        assert_eq!(
            &text[header_end..],
            "1. e4 { [%eval 0.17] } 1... d5 $6 { [%eval 1.3] } 2. exd5 $4 { [%eval #-3] }\n\
             2... cxd5 $10 { a  brace and a line } 3. Nd2 *\n"
        );
        let back = read_pgn(&text).expect("readable");
        assert_eq!(back.moves, vec!["e4", "d5", "exd5", "cxd5", "Nd2"]);
        assert_eq!(back.result.as_deref(), Some("*"));
        assert_eq!(back.replay_moves(Ruleset::Standard).expect("legal"), moves);
        // Nothing to annotate: the text of the plain writer, byte for byte.
        assert_eq!(
            write_pgn_moves_annotated(&start, &moves, &tags, "*", &[]),
            plain
        );
        assert_eq!(
            write_pgn_moves_annotated(
                &start,
                &moves,
                &tags,
                "*",
                &vec![MoveAnnotation::default(); 5]
            ),
            plain
        );
    }
}
