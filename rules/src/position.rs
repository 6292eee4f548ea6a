//! [`Position`]: a validated position with its counting state; legal move generation.

use crate::attacks::{
    attackers, between, bia_attacks, khon_attacks, khun_attacks, line, ma_attacks, met_attacks,
    ruea_attacks,
};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::count::CountState;
use crate::fen::{ParseFenError, VariantFields};
use crate::ruleset::Ruleset;
use crate::setup::Setup;
use crate::types::{Color, Move, Piece, Role, Square};
use crate::variant::Variant;
use crate::zobrist;
use std::fmt;
use std::ops::Deref;

/// The largest fullmove number a position holds: a larger one in a FEN is read as this one,
/// and the number stops here as moves are played (see [`Position::from_setup`]).
const MAX_FULLMOVES: u32 = 1_000_000;
/// The game ply of Black to move at [`MAX_FULLMOVES`], the last one counted.
const MAX_GAME_PLY: u32 = 2 * (MAX_FULLMOVES - 1) + 1;

/// Capacity of a [`MoveList`]. A valid position has at most 16 pieces a side, so at most
/// 8 + 15·14 moves.
pub const MAX_MOVES: usize = 256;

/// A list of moves without heap allocation. Derefs to `[Move]`.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

const NULL_MOVE: Move = Move {
    from: Square::from_index(0),
    to: Square::from_index(0),
    role: Role::Khun,
    capture: None,
    promotion: false,
};

impl MoveList {
    /// An empty list.
    #[must_use]
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [NULL_MOVE; MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, m: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Owning iterator over a [`MoveList`].
pub struct MoveListIntoIter {
    list: MoveList,
    pos: usize,
}

impl Iterator for MoveListIntoIter {
    type Item = Move;
    fn next(&mut self) -> Option<Move> {
        if self.pos < self.list.len {
            self.pos += 1;
            Some(self.list.moves[self.pos - 1])
        } else {
            None
        }
    }
}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = MoveListIntoIter;
    fn into_iter(self) -> MoveListIntoIter {
        MoveListIntoIter { list: self, pos: 0 }
    }
}

/// Why a [`Setup`] is not a valid position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A side does not have exactly one Khun.
    #[error("{} must have exactly one Khun, found {count}", .color.name())]
    KhunCount {
        /// The side.
        color: Color,
        /// How many Khun that side has.
        count: u32,
    },
    /// A side has more than 16 pieces.
    #[error("{} has {count} pieces; at most 16 are possible", .color.name())]
    TooManyPieces {
        /// The side.
        color: Color,
        /// How many pieces that side has.
        count: u32,
    },
    /// An unpromoted Bia stands on or beyond its promotion rank (sixth rank).
    #[error("a Bia on {square} should already have been promoted")]
    BiaOnPromotionRank {
        /// The Bia's square.
        square: Square,
    },
    /// The side not to move is in check.
    #[error("the side not to move is in check")]
    OppositeCheck,
}

/// Error from [`Position::from_fen`]: either the text or the position is bad.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is not a FEN.
    #[error(transparent)]
    Parse(#[from] ParseFenError),
    /// The FEN describes an impossible position.
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// Error from [`Position::play`] / [`crate::Game::play`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The move is not legal in the position.
    #[error("illegal move {from}{to}")]
    Illegal {
        /// The move's origin square.
        from: Square,
        /// The move's target square.
        to: Square,
    },
    /// The game is already over (only from [`crate::Game::play`]).
    #[error("the game is over")]
    GameOver,
}

/// A valid position: placement, side to move, counting state (docs/RULES.md, the
/// "Ruleset" sections) and the clocks.
/// Cheap to clone; holds no history (see [`crate::Game`]).
///
/// The counting state is kept exactly as Fairy-Stockfish keeps it for the `standard` rules
/// (`limit`, `ply`, both in plies); the other rulesets reuse the two fields with their own
/// rules. The counting rule itself lives in [`crate::count`].
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    pub(crate) ruleset: Ruleset,
    /// The game of the Makruk family played ([`Variant`]; Makruk by default).
    pub(crate) variant: Variant,
    /// Ouk Chaktrang's gates and Sittuyin's pieces in hand (empty in the other variants).
    pub(crate) extra: VariantFields,
    /// The counting state and its rules ([`crate::count`]).
    pub(crate) count: CountState,
    /// Plies since the last capture or Bia move.
    pub(crate) halfmoves: u32,
    /// Plies since the start of the game (Fairy-Stockfish `gamePly`).
    pub(crate) game_ply: u32,
    checkers: Bitboard,
    hash: u64,
}

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.variant == Variant::Makruk {
            write!(f, "Position({}, {})", self.fen(), self.ruleset)
        } else {
            write!(f, "Position({}, {})", self.fen(), self.variant)
        }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}

/// The rank (0-based) on which a Bia of `c` is promoted: its sixth rank (docs/RULES.md "Board,
/// pieces, moves").
#[inline]
pub(crate) const fn promotion_rank(c: Color) -> u8 {
    match c {
        Color::White => 5,
        Color::Black => 2,
    }
}

/// Sittuyin's drop region of `c` (its own three first ranks) and the rank where its Ruea
/// may be dropped (its first): Fairy-Stockfish `dropRegion`, `sittuyinRookDrop`.
const fn sittuyin_drop_region(c: Color) -> (Bitboard, Bitboard) {
    match c {
        Color::White => (Bitboard(0x00FF_FFFF), Bitboard::rank(0)),
        Color::Black => (Bitboard(0xFFFF_FF00_0000_0000), Bitboard::rank(7)),
    }
}

/// The promotion rank of `variant`: the sixth rank, ASEAN's last rank (Fairy-Stockfish's chess
/// default), Sittuyin's none (its promotion squares are the main diagonals; 8 = no rank).
#[inline]
pub(crate) const fn variant_promotion_rank(variant: Variant, c: Color) -> u8 {
    match (variant, c) {
        (Variant::Asean, Color::White) => 7,
        (Variant::Asean, Color::Black) => 0,
        (Variant::Sittuyin, _) => 8,
        _ => promotion_rank(c),
    }
}

impl Position {
    /// The start position under [`Ruleset::Standard`].
    #[must_use]
    pub fn new() -> Position {
        Position::start(Ruleset::Standard)
    }

    /// The start position under `ruleset`.
    #[must_use]
    pub fn start(ruleset: Ruleset) -> Position {
        match Position::from_setup(Setup::start(), ruleset) {
            Ok(p) => p,
            Err(_) => unreachable!("the start position is valid"),
        }
    }

    /// Validates `setup`: one Khun a side, at most 16 pieces a side, no unpromoted Bia on or
    /// beyond its sixth rank, the side not to move not in check. The counting fields are taken
    /// as Fairy-Stockfish reads them (a halfmove clock is dropped when a count runs); under
    /// `material` the count is then made the one its rules run in that position (see
    /// [`crate::count`]: started when the FEN has none and no Bia is left, dropped while Bia
    /// remain). A
    /// fullmove number above 1,000,000 is read as 1,000,000, and the number stops there as
    /// moves are played (keeps the ply counters far from overflow; no real game gets there).
    ///
    /// # Errors
    /// [`PositionError`] naming the problem.
    pub fn from_setup(setup: Setup, ruleset: Ruleset) -> Result<Position, PositionError> {
        Position::from_setup_in(setup, ruleset, Variant::Makruk, VariantFields::default())
    }

    /// The start position of `variant`. `ruleset` applies to Makruk only; the other variants
    /// count and draw by their own rules (Fairy-Stockfish's), and their positions report
    /// [`Ruleset::Standard`].
    #[must_use]
    pub fn start_variant(variant: Variant, ruleset: Ruleset) -> Position {
        if variant == Variant::Makruk {
            return Position::start(ruleset);
        }
        match Position::from_fen_variant(variant.start_fen(), variant) {
            Ok(p) => p,
            Err(_) => unreachable!("the start position of every variant is valid"),
        }
    }

    /// Reads a FEN of `variant` as Fairy-Stockfish writes it for that variant (its piece
    /// letters; Ouk Chaktrang's gates `DEde` in the castling field; Sittuyin's pieces in hand in
    /// brackets after the placement) and validates the position. Makruk positions get
    /// [`Ruleset::Standard`] (as [`Position::from_fen`] with it); the other variants follow
    /// their own rules ([`Variant`]).
    ///
    /// # Errors
    /// [`FenError::Parse`] for bad text, [`FenError::Position`] for an impossible position.
    pub fn from_fen_variant(fen: &str, variant: Variant) -> Result<Position, FenError> {
        let (setup, extra) = crate::fen::parse_in(fen, variant)?;
        Ok(Position::from_setup_in(
            setup,
            Ruleset::Standard,
            variant,
            extra,
        )?)
    }

    fn from_setup_in(
        setup: Setup,
        ruleset: Ruleset,
        variant: Variant,
        mut extra: VariantFields,
    ) -> Result<Position, PositionError> {
        let ruleset = if variant == Variant::Makruk {
            ruleset
        } else {
            Ruleset::Standard
        };
        let board = setup.board;
        for c in Color::ALL {
            let k = board.by_piece(c, Role::Khun).count() + extra.in_hand(c, Role::Khun);
            if k != 1 {
                return Err(PositionError::KhunCount { color: c, count: k });
            }
            let n = board.by_color(c).count()
                + Role::ALL
                    .into_iter()
                    .map(|r| extra.in_hand(c, r))
                    .sum::<u32>();
            if n > 16 {
                return Err(PositionError::TooManyPieces { color: c, count: n });
            }
            for sq in board.by_piece(c, Role::Bia) {
                let prom = variant_promotion_rank(variant, c);
                let beyond = variant != Variant::Sittuyin
                    && match c {
                        Color::White => sq.rank() >= prom,
                        Color::Black => sq.rank() <= prom,
                    };
                if beyond {
                    return Err(PositionError::BiaOnPromotionRank { square: sq });
                }
            }
        }
        // Fullmove numbers beyond 10^6 are capped (no game is that long; keeps the clocks from
        // overflowing).
        let fullmoves = setup.fullmoves.clamp(1, MAX_FULLMOVES);
        let game_ply = 2 * (fullmoves - 1) + u32::from(setup.turn == Color::Black);
        let count = CountState::from_fen_fields(
            setup.count_limit,
            setup.count_ply,
            &board,
            setup.turn,
            ruleset,
        );
        // Ouk Chaktrang: a gate of the FEN stands only on a square of the side's own piece
        // (Fairy-Stockfish `set`: "only add gates for occupied squares").
        extra.gates &= (Bitboard::rank(0) & board.by_color(Color::White))
            | (Bitboard::rank(7) & board.by_color(Color::Black));
        let mut pos = Position {
            board,
            turn: setup.turn,
            ruleset,
            variant,
            extra,
            count,
            halfmoves: if setup.count_limit != 0 {
                0
            } else {
                setup.halfmoves
            },
            game_ply,
            checkers: Bitboard::EMPTY,
            hash: 0,
        };
        let them = pos.turn.other();
        if let Some(k) = pos.board.khun_of(them) {
            if pos.attackers_of(k, pos.turn).any() {
                return Err(PositionError::OppositeCheck);
            }
        }
        pos.checkers = pos.compute_checkers();
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// Reads a FEN and validates the position.
    ///
    /// # Errors
    /// [`FenError::Parse`] for bad text, [`FenError::Position`] for an impossible position.
    pub fn from_fen(fen: &str, ruleset: Ruleset) -> Result<Position, FenError> {
        let setup: Setup = fen.parse()?;
        Ok(Position::from_setup(setup, ruleset)?)
    }

    /// The raw FEN fields of this position (counting fields as shown in the FEN). A [`Setup`]
    /// has no variant: Ouk Chaktrang's gates and Sittuyin's pieces in hand are not in it, and
    /// the letters of [`Setup::fen`] are Makruk's; [`Position::fen`] writes the variant's FEN.
    #[must_use]
    pub fn setup(&self) -> Setup {
        let (limit, ply) = self.count.fen_fields(&self.board, self.ruleset);
        Setup {
            board: self.board.clone(),
            turn: self.turn,
            count_limit: limit,
            count_ply: ply,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves(),
        }
    }

    /// The FEN, exactly as Fairy-Stockfish writes it (with `~` promoted markers and the
    /// counting fields when a count runs), e.g. `8/3k4/6M~1/2K1S3/8/8/8/8 b - 88 8 1`.
    #[must_use]
    pub fn fen(&self) -> String {
        if self.variant == Variant::Makruk {
            self.setup().fen()
        } else {
            crate::fen::write_in(&self.setup(), self.variant, &self.extra)
        }
    }

    /// The game of the Makruk family this position belongs to.
    #[must_use]
    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Piece placement.
    #[must_use]
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Side to move.
    #[must_use]
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The ruleset this position counts and draws by.
    #[must_use]
    #[inline]
    pub fn ruleset(&self) -> Ruleset {
        self.ruleset
    }

    /// Fullmove number (starts at 1, grows after Black's move).
    #[must_use]
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        1 + (self.game_ply - u32::from(self.turn == Color::Black)) / 2
    }

    /// Plies since the last capture or Bia move (the halfmove clock).
    #[must_use]
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// Plies played since the start of the game, as derived from the fullmove number.
    #[must_use]
    #[inline]
    pub fn game_ply(&self) -> u32 {
        self.game_ply
    }

    /// The counting limit and counting ply in plies (0, 0 when no count runs), as stored
    /// (Fairy-Stockfish's `countingLimit` / `countingPly`).
    #[must_use]
    pub fn counting(&self) -> (u32, u32) {
        self.count.stored()
    }

    /// Squares of the pieces giving check to the side to move.
    #[must_use]
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// True when the side to move is in check.
    #[must_use]
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers.any()
    }

    /// True when the side to move is checkmated.
    #[must_use]
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_move()
    }

    /// True when the side to move has no legal move and is not in check (a draw).
    #[must_use]
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_move()
    }

    /// True when the side to move has at least one legal move.
    #[must_use]
    pub fn has_legal_move(&self) -> bool {
        self.count_legal() > 0
    }

    /// Zobrist key of placement and side to move (for repetition; counting state excluded,
    /// a Bia-ngai hashes as a Met, as in Fairy-Stockfish).
    #[must_use]
    #[inline]
    pub fn zobrist(&self) -> u64 {
        self.hash
    }

    /// Pieces of `by` attacking `sq` (with the current occupancy).
    #[must_use]
    pub fn attackers_of(&self, sq: Square, by: Color) -> Bitboard {
        attackers(&self.board, sq, by, self.board.occupied())
    }

    fn compute_checkers(&self) -> Bitboard {
        match self.board.khun_of(self.turn) {
            Some(k) => self.attackers_of(k, self.turn.other()),
            None => Bitboard::EMPTY,
        }
    }

    fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for sq in self.board.occupied() {
            if let Some(p) = self.board.piece_at(sq) {
                h ^= zobrist::piece_key(p.color, p.role, sq);
            }
        }
        if self.turn == Color::Black {
            h ^= zobrist::SIDE_KEY;
        }
        h
    }

    /// Our pieces pinned to our Khun by an enemy Ruea (only the Ruea slides in Makruk).
    #[inline]
    fn pinned(&self, ksq: Square) -> Bitboard {
        let us = self.turn;
        let occ = self.board.occupied();
        let snipers =
            ruea_attacks(ksq, Bitboard::EMPTY) & self.board.by_piece(us.other(), Role::Ruea);
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let b = between(ksq, s) & occ;
            if b.any() && !b.more_than_one() {
                pinned |= b & self.board.by_color(us);
            }
        }
        pinned
    }

    /// Target squares for non-Khun moves and the pinned set; `None` in double check.
    #[inline]
    fn gen_context(&self, ksq: Square) -> Option<(Bitboard, Bitboard)> {
        let us = self.turn;
        let mut target = !self.board.by_color(us);
        if self.checkers.any() {
            if self.checkers.more_than_one() {
                return None;
            }
            let c = self.checkers.first()?;
            target &= between(ksq, c).with(c);
        }
        Some((target, self.pinned(ksq)))
    }

    #[inline]
    fn khun_targets(&self, ksq: Square) -> Bitboard {
        let us = self.turn;
        let them = us.other();
        let occ = self.board.occupied().without(ksq);
        let mut t = Bitboard::EMPTY;
        for to in khun_attacks(ksq) - self.board.by_color(us) {
            if attackers(&self.board, to, them, occ).is_empty() {
                t.add(to);
            }
        }
        t
    }

    #[inline]
    fn piece_targets(&self, from: Square, role: Role, occ: Bitboard) -> Bitboard {
        let us = self.turn;
        match role {
            Role::Khun => khun_attacks(from),
            Role::Met => met_attacks(from),
            Role::Khon => khon_attacks(us, from),
            Role::Ma => ma_attacks(from),
            Role::Ruea => ruea_attacks(from, occ),
            Role::Bia => {
                let theirs = self.board.by_color(us.other());
                let push = match us {
                    Color::White => Bitboard((1u64 << from.index()) << 8),
                    Color::Black => Bitboard((1u64 << from.index()) >> 8),
                } - occ;
                push | (bia_attacks(us, from) & theirs)
            }
        }
    }

    /// All legal moves of the side to move.
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// The legal moves, as [`Position::legal_moves`] lists them, written into `list` (emptied
    /// first): for a caller that keeps its lists (an engine's search, one a ply) rather than
    /// making a new one of [`MAX_MOVES`] for every position.
    #[inline]
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        list.len = 0;
        if self.variant == Variant::Makruk {
            self.gen_legal::<false>(list, promotion_rank(self.turn));
        } else {
            self.gen_variant(list);
        }
    }

    /// The legal moves of every piece on the board that moves as in Makruk (all the
    /// variants' pieces do), from the check and pin sets: no move is tried on a board.
    /// A Bia reaching rank `prom` promotes: to a Met (a move with `role` Bia), or with
    /// `CHOICES` (ASEAN) to each of Ruea, Ma, Khon and Met; `prom` 8 never promotes
    /// (Sittuyin, whose promotion is a move of its own). In Makpong a Khun in check may only
    /// capture a single checker (Fairy-Stockfish `makpongRule`). Nothing without a Khun.
    #[inline]
    fn gen_legal<const CHOICES: bool>(&self, list: &mut MoveList, prom: u8) {
        let us = self.turn;
        let Some(ksq) = self.board.khun_of(us) else {
            return;
        };
        let mut khun = self.khun_targets(ksq);
        if self.variant == Variant::Makpong && self.checkers.any() {
            khun &= if self.checkers.more_than_one() {
                Bitboard::EMPTY
            } else {
                self.checkers
            };
        }
        for to in khun {
            list.push(Move {
                from: ksq,
                to,
                role: Role::Khun,
                capture: self.board.role_at(to),
                promotion: false,
            });
        }
        let Some((target, pinned)) = self.gen_context(ksq) else {
            return;
        };
        let occ = self.board.occupied();
        for from in self.board.by_color(us).without(ksq) {
            let Some(role) = self.board.role_at(from) else {
                continue;
            };
            let mut t = self.piece_targets(from, role, occ) & target;
            if pinned.contains(from) {
                t &= line(ksq, from);
            }
            for to in t {
                if CHOICES && role == Role::Bia && to.rank() == prom {
                    for r in [Role::Ruea, Role::Ma, Role::Khon, Role::Met] {
                        list.push(Move {
                            from,
                            to,
                            role: r,
                            capture: self.board.role_at(to),
                            promotion: true,
                        });
                    }
                    continue;
                }
                list.push(Move {
                    from,
                    to,
                    role,
                    capture: self.board.role_at(to),
                    promotion: role == Role::Bia && to.rank() == prom,
                });
            }
        }
    }

    /// The number of legal moves (faster than generating them).
    #[must_use]
    pub fn count_legal(&self) -> usize {
        let us = self.turn;
        let makruk_like = match self.variant {
            Variant::Makruk => true,
            // Makpong differs only in a Khun in check.
            Variant::Makpong => self.checkers.is_empty(),
            // Ouk Chaktrang differs only by the first-move jumps from its gates.
            Variant::Cambodian => {
                let gates = self.extra.gates & self.board.by_color(us);
                if gates.any() && self.board.khun_of(us).is_some() {
                    return self.count_makruk_like() + self.count_cambodian_jumps(gates);
                }
                true
            }
            // ASEAN differs only in a Bia's move to the last rank (four promotions).
            Variant::Asean => (self.board.by_piece(us, Role::Bia)
                & Bitboard::rank(if us == Color::White { 6 } else { 1 }))
            .is_empty(),
            // Sittuyin differs in its placement and in promotions, which need no Met.
            Variant::Sittuyin => {
                if self.extra.hand_count(us) > 0 && self.checkers.is_empty() {
                    let n = self.count_sittuyin_drops();
                    if n > 0 {
                        return n;
                    }
                }
                self.extra.hand_count(us) == 0
                    && self.board.by_piece(us, Role::Met).any()
                    && self.board.khun_of(us).is_some()
            }
        };
        if !makruk_like {
            return self.legal_moves().len();
        }
        self.count_makruk_like()
    }

    /// The number of Sittuyin drops of the side to move when it is not in check (then every
    /// drop is legal: a drop only adds a blocker).
    fn count_sittuyin_drops(&self) -> usize {
        let us = self.turn;
        let (region, back) = sittuyin_drop_region(us);
        let empty = region - self.board.occupied();
        Role::ALL
            .into_iter()
            .filter(|&r| self.extra.in_hand(us, r) > 0)
            .map(|r| {
                if r == Role::Ruea {
                    (empty & back).count() as usize
                } else {
                    empty.count() as usize
                }
            })
            .sum()
    }

    /// The number of legal Ouk Chaktrang first-move jumps from `gates` (the side to move's).
    fn count_cambodian_jumps(&self, gates: Bitboard) -> usize {
        let mut n = 0;
        self.cambodian_gate_moves(gates, |_| n += 1);
        n
    }

    /// Each legal Ouk Chaktrang first-move jump from `gates` (the side to move's squares),
    /// given to `f`. The Khun's must land on a square no enemy attacks; the Met's, not in
    /// check and not pinned, is always legal; the other cases are tried on a board.
    fn cambodian_gate_moves(&self, gates: Bitboard, mut f: impl FnMut(Move)) {
        let us = self.turn;
        let Some(ksq) = self.board.khun_of(us) else {
            return;
        };
        let pinned = self.pinned(ksq);
        let occ = self.board.occupied().without(ksq);
        for from in gates {
            let Some(role) = self.board.role_at(from) else {
                continue;
            };
            for to in self.cambodian_jumps(from, role) {
                let m = Move {
                    from,
                    to,
                    role,
                    capture: None,
                    promotion: false,
                };
                let legal = match role {
                    Role::Khun => attackers(&self.board, to, us.other(), occ).is_empty(),
                    _ if self.checkers.is_empty() && !pinned.contains(from) => true,
                    _ => self.leaves_khun_safe(&m, Some(ksq)),
                };
                if legal {
                    f(m);
                }
            }
        }
    }

    /// [`Position::count_legal`] of a position whose moves are Makruk's.
    fn count_makruk_like(&self) -> usize {
        let us = self.turn;
        let Some(ksq) = self.board.khun_of(us) else {
            return 0;
        };
        let mut n = self.khun_targets(ksq).count() as usize;
        let Some((target, pinned)) = self.gen_context(ksq) else {
            return n;
        };
        let occ = self.board.occupied();
        let b = &self.board;
        let ours = b.by_color(us);
        // Unpinned step pieces and Ruea
        let free = ours - pinned;
        for from in free & b.by_role(Role::Met) {
            n += (met_attacks(from) & target).count() as usize;
        }
        for from in free & b.by_role(Role::Khon) {
            n += (khon_attacks(us, from) & target).count() as usize;
        }
        for from in free & b.by_role(Role::Ma) {
            n += (ma_attacks(from) & target).count() as usize;
        }
        for from in free & b.by_role(Role::Ruea) {
            n += (ruea_attacks(from, occ) & target).count() as usize;
        }
        // Bia, set-wise
        let bia = free & b.by_role(Role::Bia);
        let theirs = b.by_color(us.other());
        let (push, cap_l, cap_r) = match us {
            Color::White => (
                (bia.0 << 8) & !occ.0,
                ((bia.0 & !Bitboard::file(0).0) << 7) & theirs.0,
                ((bia.0 & !Bitboard::file(7).0) << 9) & theirs.0,
            ),
            Color::Black => (
                (bia.0 >> 8) & !occ.0,
                ((bia.0 & !Bitboard::file(0).0) >> 9) & theirs.0,
                ((bia.0 & !Bitboard::file(7).0) >> 7) & theirs.0,
            ),
        };
        n += ((push & target.0).count_ones()
            + (cap_l & target.0).count_ones()
            + (cap_r & target.0).count_ones()) as usize;
        // Pinned pieces: along the pin line only
        for from in pinned {
            if let Some(role) = b.role_at(from) {
                n += (self.piece_targets(from, role, occ) & target & line(ksq, from)).count()
                    as usize;
            }
        }
        n
    }

    /// True when `m` is legal here (all fields of `m` must match the generated move).
    #[must_use]
    pub fn is_legal(&self, m: &Move) -> bool {
        if self.variant != Variant::Makruk {
            return self.legal_moves().iter().any(|x| x == m);
        }
        let Some(p) = self.board.piece_at(m.from) else {
            return false;
        };
        if p.color != self.turn || p.role != m.role {
            return false;
        }
        self.legal_moves().iter().any(|x| x == m)
    }

    /// Plays `m` after checking that it is legal.
    ///
    /// # Errors
    /// [`PlayError::Illegal`] when `m` is not one of [`Position::legal_moves`]; the position
    /// is then unchanged.
    pub fn play(&mut self, m: &Move) -> Result<(), PlayError> {
        if !self.is_legal(m) {
            return Err(PlayError::Illegal {
                from: m.from,
                to: m.to,
            });
        }
        self.play_unchecked(m);
        Ok(())
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`]); updates counting
    /// state and clocks. Playing an illegal move leaves a meaningless (but memory-safe) state.
    pub fn play_unchecked(&mut self, m: &Move) {
        // Makpong's moves are played as Makruk's (the same pieces, promotion and counting).
        if !matches!(self.variant, Variant::Makruk | Variant::Makpong) {
            self.play_variant(m);
            return;
        }
        let us = self.turn;
        let them = us.other();
        let captured = self
            .board
            .role_at(m.to)
            .filter(|_| self.board.by_color(them).contains(m.to));
        let role = self.board.role_at(m.from).unwrap_or(m.role);
        if let Some(cap) = captured {
            self.board.remove_known(m.to, them, cap);
            self.hash ^= zobrist::piece_key(them, cap, m.to);
        }
        self.board.move_piece(m.from, m.to, us, role);
        self.hash ^= zobrist::piece_key(us, role, m.from) ^ zobrist::piece_key(us, role, m.to);
        let promoted = role == Role::Bia && m.to.rank() == promotion_rank(us);
        if promoted {
            self.board.promote(m.to);
            self.hash ^=
                zobrist::piece_key(us, Role::Bia, m.to) ^ zobrist::piece_key(us, Role::Met, m.to);
        }
        if captured.is_some() || role == Role::Bia {
            self.halfmoves = 0;
        } else {
            self.halfmoves = self.halfmoves.saturating_add(1);
        }
        // The fullmove number stops at the cap of `from_setup`, so that the FEN of any
        // position reads back as it (a fuzzer found 1,000,001 read back as 1,000,000).
        self.game_ply = (self.game_ply + 1).min(MAX_GAME_PLY);
        self.turn = them;
        self.hash ^= zobrist::SIDE_KEY;
        self.count
            .after_move(&self.board, us, captured, promoted, self.ruleset);
        self.checkers = self.compute_checkers();
    }

    /// The legal moves of the other variants ([`Variant`]): Makruk's generator (pins and
    /// check, no move tried on a board) with each variant's differences, each from
    /// Fairy-Stockfish: Makpong's Khun in check (`makpongRule`), ASEAN's promotion on the last
    /// rank to a Ruea, Ma, Khon or Met (`promotionPieceTypes`, compulsory), the sixth-rank
    /// promotion to a Met in Makpong and Ouk Chaktrang, Ouk Chaktrang's first-move jumps and
    /// Sittuyin's placement and promotions (these few tried on a board).
    fn gen_variant(&self, list: &mut MoveList) {
        let us = self.turn;
        if self.variant == Variant::Sittuyin && self.extra.hand_count(us) > 0 {
            self.gen_sittuyin_drops(list);
            if !list.is_empty() {
                return;
            }
        }
        if self.board.khun_of(us).is_none() {
            // A Sittuyin Khun still in hand that cannot be dropped: try every move on a board.
            self.gen_variant_by_trial(list);
            return;
        }
        match self.variant {
            Variant::Asean => {
                self.gen_legal::<true>(list, variant_promotion_rank(self.variant, us))
            }
            v => self.gen_legal::<false>(list, variant_promotion_rank(v, us)),
        }
        if self.variant == Variant::Cambodian {
            self.cambodian_gate_moves(self.extra.gates & self.board.by_color(us), |m| {
                list.push(m);
            });
        }
        if self.variant == Variant::Sittuyin {
            self.gen_sittuyin_promotions(list);
        }
    }

    /// [`Position::gen_variant`] for a side without a Khun on the board: every piece's moves,
    /// each kept when its own Khun (if any) is not attacked after it.
    #[cold]
    fn gen_variant_by_trial(&self, list: &mut MoveList) {
        let us = self.turn;
        let ksq = self.board.khun_of(us);
        let occ = self.board.occupied();
        let ours = self.board.by_color(us);
        let prom = variant_promotion_rank(self.variant, us);
        let mut push = |from: Square, to: Square, role: Role, promotion: bool| {
            let m = Move {
                from,
                to,
                role,
                capture: self.board.role_at(to).filter(|_| !ours.contains(to)),
                promotion,
            };
            if self.leaves_khun_safe(&m, ksq) {
                list.push(m);
            }
        };
        for from in ours {
            let Some(role) = self.board.role_at(from) else {
                continue;
            };
            let mut targets = self.piece_targets(from, role, occ) - ours;
            if role == Role::Khun && self.variant == Variant::Makpong && self.checkers.any() {
                // Fairy-Stockfish `makpongRule`: a Khun move in check is illegal unless
                // `checkers ^ to` is empty: only the capture of a single checker.
                targets &= if self.checkers.more_than_one() {
                    Bitboard::EMPTY
                } else {
                    self.checkers
                };
            }
            if self.variant == Variant::Cambodian && self.extra.gates.contains(from) {
                targets |= self.cambodian_jumps(from, role);
            }
            for to in targets {
                if role == Role::Bia && to.rank() == prom {
                    if self.variant == Variant::Asean {
                        for r in [Role::Ruea, Role::Ma, Role::Khon, Role::Met] {
                            push(from, to, r, true);
                        }
                    } else {
                        push(from, to, Role::Bia, true);
                    }
                } else {
                    push(from, to, role, false);
                }
            }
        }
        if self.variant == Variant::Sittuyin {
            self.gen_sittuyin_promotions(list);
        }
    }

    /// Sittuyin's placement (Fairy-Stockfish `sittuyin_variant`: `pieceDrops`, `mustDrop`,
    /// `dropRegion`, `sittuyinRookDrop`): while the side to move has pieces in hand it must
    /// drop one (if it can): on an empty square of its own three first ranks, a Ruea only on its
    /// first rank; a drop may give check, and must not leave its own Khun attacked.
    fn gen_sittuyin_drops(&self, list: &mut MoveList) {
        let us = self.turn;
        if self.extra.hand_count(us) == 0 {
            return;
        }
        let ksq = self.board.khun_of(us);
        // Not in check, no drop can leave the Khun attacked: it only adds a blocker.
        let safe = self.checkers.is_empty();
        let (region, back) = sittuyin_drop_region(us);
        let empty = region - self.board.occupied();
        for role in Role::ALL {
            if self.extra.in_hand(us, role) == 0 {
                continue;
            }
            let squares = if role == Role::Ruea {
                empty & back
            } else {
                empty
            };
            for to in squares {
                let m = Move {
                    from: to,
                    to,
                    role,
                    capture: None,
                    promotion: false,
                };
                if safe || self.leaves_khun_safe(&m, ksq) {
                    list.push(m);
                }
            }
        }
    }

    /// Sittuyin's promotion (Fairy-Stockfish `sittuyinPromotion`, `promotionRegion`,
    /// `promotionLimit`, `legal`): while the side has no Met (a promoted one counts), a Bia on
    /// one of its promotion squares (the main diagonals in the opponent's half: White a8 b7 c6
    /// d5 e5 f6 g7 h8, Black a1 b2 c3 d4 e4 f3 g2 h1), or its only Bia anywhere, may become a
    /// Met as a move of its own: on its square or one diagonal step to an empty square, where
    /// the new Met attacks no enemy piece, and the move gives no check.
    fn gen_sittuyin_promotions(&self, list: &mut MoveList) {
        let us = self.turn;
        if self.board.by_piece(us, Role::Met).any() {
            return;
        }
        let zone = match us {
            Color::White => Bitboard(0x8142_2418_0000_0000),
            Color::Black => Bitboard(0x0000_0000_1824_4281),
        };
        let bia = self.board.by_piece(us, Role::Bia);
        let candidates = if bia.more_than_one() { bia & zone } else { bia };
        let ksq = self.board.khun_of(us);
        let theirs = self.board.by_color(us.other());
        let empty = !self.board.occupied();
        for from in candidates {
            for to in (met_attacks(from) & empty).with(from) {
                if (met_attacks(to) & theirs).any() {
                    continue;
                }
                let m = Move {
                    from,
                    to,
                    role: Role::Bia,
                    capture: None,
                    promotion: true,
                };
                if self.leaves_khun_safe(&m, ksq) && !self.gives_check(&m) {
                    list.push(m);
                }
            }
        }
    }

    /// The placement after `m` (a move of the side to move), promotion included.
    fn board_after(&self, m: &Move) -> Board {
        let us = self.turn;
        let mut b = self.board.clone();
        if let Some(cap) = m.capture {
            b.remove_known(m.to, us.other(), cap);
        }
        if m.is_drop() {
            b.drop_piece(m.to, us, m.role);
        } else if m.from != m.to {
            let role = b.role_at(m.from).unwrap_or(m.moving_role());
            b.move_piece(m.from, m.to, us, role);
        }
        if let Some(r) = m.promotion_role() {
            b.promote_to(m.to, r);
        }
        b
    }

    /// True when `m` (a move of the side to move) checks the opponent's Khun.
    fn gives_check(&self, m: &Move) -> bool {
        let b = self.board_after(m);
        b.khun_of(self.turn.other())
            .is_some_and(|k| attackers(&b, k, self.turn, b.occupied()).any())
    }

    /// Sittuyin's "stalemate due to optional promotion" (Fairy-Stockfish
    /// `is_optional_game_end`, from the laws' 3.9 c.7): a draw when the side to move, not in
    /// check, has only its Khun and one Bia and every legal move it has is a promotion.
    #[must_use]
    pub fn is_promotion_stalemate(&self) -> bool {
        let us = self.turn;
        self.variant == Variant::Sittuyin
            && self.board.by_color(us).count() == 2
            && self.board.by_piece(us, Role::Bia).count() == 1
            && !self.is_check()
            && self.legal_moves().iter().all(|m| m.promotion)
    }

    /// Ouk Chaktrang's first-move jumps of the piece on `from`, a gate (Fairy-Stockfish
    /// `cambodianMoves`, `generate_moves`' special moves): the Khun, not in check, to a Ma's
    /// square one rank forward (two files aside); a Met two squares straight forward, over a
    /// piece or not. Neither captures: the target must be empty.
    fn cambodian_jumps(&self, from: Square, role: Role) -> Bitboard {
        let occ = self.board.occupied();
        let forward = |steps: u8| -> Option<u8> {
            match self.turn {
                Color::White => from.rank().checked_add(steps).filter(|&r| r < 8),
                Color::Black => from.rank().checked_sub(steps),
            }
        };
        match role {
            Role::Khun if !self.is_check() => forward(1).map_or(Bitboard::EMPTY, |r| {
                ma_attacks(from) & (Bitboard::rank(r) - occ)
            }),
            Role::Met => forward(2)
                .and_then(|r| Square::from_coords(from.file(), r))
                .map_or(Bitboard::EMPTY, |to| {
                    if occ.contains(to) {
                        Bitboard::EMPTY
                    } else {
                        Bitboard::from_square(to)
                    }
                }),
            _ => Bitboard::EMPTY,
        }
    }

    /// True when `m` (a move of the side to move, pseudo-legal) leaves its Khun unattacked.
    fn leaves_khun_safe(&self, m: &Move, ksq: Option<Square>) -> bool {
        let us = self.turn;
        let b = self.board_after(m);
        let k = if m.moving_role() == Role::Khun && !m.is_drop() {
            Some(m.to)
        } else {
            ksq
        };
        match k {
            Some(k) => attackers(&b, k, us.other(), b.occupied()).is_empty(),
            None => true,
        }
    }

    /// [`Position::play_unchecked`] for the other variants.
    #[cold]
    fn play_variant(&mut self, m: &Move) {
        let us = self.turn;
        let them = us.other();
        let captured = self
            .board
            .role_at(m.to)
            .filter(|_| self.board.by_color(them).contains(m.to) && !m.is_drop());
        if let Some(cap) = captured {
            self.board.remove_known(m.to, them, cap);
            self.hash ^= zobrist::piece_key(them, cap, m.to);
        }
        let mover = m.moving_role();
        if m.is_drop() {
            self.board.drop_piece(m.to, us, m.role);
            self.extra.take_from_hand(us, m.role);
            self.hash ^= zobrist::piece_key(us, m.role, m.to);
        } else if m.from != m.to {
            let role = self.board.role_at(m.from).unwrap_or(mover);
            self.board.move_piece(m.from, m.to, us, role);
            self.hash ^= zobrist::piece_key(us, role, m.from) ^ zobrist::piece_key(us, role, m.to);
        }
        if self.extra.gates.any() {
            // Ouk Chaktrang's gates (Fairy-Stockfish `do_move`, "Remove gates" and "Remove
            // king leaping right when aimed by a rook"): a piece leaving its gate, or captured
            // on it, loses the jump; so does the enemy Khun on its gate when a Ruea moves to its
            // file or rank (on an empty board: blockers do not matter).
            self.extra.gates.discard(m.from);
            self.extra.gates.discard(m.to);
            if mover == Role::Ruea {
                if let Some(k) = self.board.khun_of(them) {
                    if ruea_attacks(m.to, Bitboard::EMPTY).contains(k) {
                        self.extra.gates.discard(k);
                    }
                }
            }
        }
        if let Some(r) = m.promotion_role() {
            self.board.promote_to(m.to, r);
            self.hash ^= zobrist::piece_key(us, Role::Bia, m.to) ^ zobrist::piece_key(us, r, m.to);
        }
        // Fairy-Stockfish resets its rule-50 counter on a capture, a Bia move (a promotion
        // too) and a drop.
        if captured.is_some() || mover == Role::Bia || m.is_drop() {
            self.halfmoves = 0;
        } else {
            self.halfmoves = self.halfmoves.saturating_add(1);
        }
        self.game_ply = (self.game_ply + 1).min(MAX_GAME_PLY);
        self.turn = them;
        self.hash ^= zobrist::SIDE_KEY;
        let promoted = m.promotion;
        if self.variant == Variant::Makpong {
            self.count
                .after_move(&self.board, us, captured, promoted, self.ruleset);
        } else {
            self.count
                .variant_after_move(&self.board, us, captured, promoted, self.variant);
        }
        self.checkers = self.compute_checkers();
    }

    /// This position with the other side to move and nothing else changed (placement,
    /// counting, clocks, gates and hands kept): an engine's "null move". `None` when the side
    /// to move is in check (passing would leave its Khun attacked). Faster than rebuilding
    /// the position from a [`Setup`] or its FEN.
    #[must_use]
    pub fn null_move(&self) -> Option<Position> {
        if self.checkers.any() {
            return None;
        }
        let mut p = self.clone();
        // The same fullmove number: White's pass is the ply after, Black's the ply before.
        p.game_ply = match self.turn {
            Color::White => self.game_ply + 1,
            Color::Black => self.game_ply.saturating_sub(1),
        };
        p.turn = p.turn.other();
        p.hash ^= zobrist::SIDE_KEY;
        p.checkers = p.compute_checkers();
        Some(p)
    }

    /// A copy of this position after `m` (unchecked; see [`Position::play_unchecked`]).
    #[must_use]
    pub fn after(&self, m: &Move) -> Position {
        let mut p = self.clone();
        p.play_unchecked(m);
        p
    }

    /// Fairy-Stockfish's `has_insufficient_material(c)` for Makruk: `c` cannot mate because
    /// it has no Ruea or Khon, its Met/Bia-ngai (colour-bound) stand on one square colour with
    /// no Met of the other colour and no Ma/Bia on the board, and a Ma or Bia of `c` has no
    /// other non-Khun piece (of either side) beside it. The other variants as Fairy-Stockfish
    /// (`src/apiutil.h`) decides for them: Makpong only for a bare Khun (its `makpong()` clause);
    /// ASEAN not while `c` has a Bia (it may become a Ruea or Khon); Sittuyin not while `c`
    /// has a piece in hand.
    #[must_use]
    pub fn has_insufficient_material(&self, c: Color) -> bool {
        let b = &self.board;
        let ours = b.by_color(c);
        if (ours & (b.by_role(Role::Ruea) | b.by_role(Role::Khon))).any() {
            return false;
        }
        match self.variant {
            Variant::Makpong => return ours.count() <= 1,
            Variant::Asean if (ours & b.by_role(Role::Bia)).any() => return false,
            Variant::Sittuyin if self.extra.hand_count(c) > 0 => return false,
            _ => {}
        }
        let restricted = b.by_role(Role::Khun);
        let colorbound = b.by_role(Role::Met);
        let unbound = b.occupied() - restricted - colorbound;
        let dark = Bitboard(0xAA55_AA55_AA55_AA55);
        if (colorbound & ours).any()
            && (((colorbound & dark).any() && (colorbound - dark).any()) || unbound.any())
        {
            return false;
        }
        if (ours & unbound).any() && (b.occupied() - restricted).count() >= 2 {
            return false;
        }
        true
    }

    /// The rule table this position draws by: its ruleset's ([`Ruleset::rules`]) in Makruk;
    /// in the other variants Fairy-Stockfish's rules of the variant, which are `standard`'s
    /// (automatic counting by the variant's own rule, threefold repetition, insufficient
    /// material) plus, in ASEAN and Sittuyin, the 50-move rule (Fairy-Stockfish `nMoveRule`
    /// 50: a draw once 100 plies pass without a capture or Bia move).
    #[must_use]
    pub fn rules(&self) -> crate::RuleTable {
        let mut t = self.ruleset.rules();
        if matches!(self.variant, Variant::Asean | Variant::Sittuyin) {
            t.no_progress = Some(crate::NoProgressRule {
                plies: 100,
                only_with_bia: false,
                warn_from: 80,
            });
        }
        t
    }

    /// How many `role` pieces `c` has in hand (Sittuyin's placement; 0 in the other variants).
    #[must_use]
    #[inline]
    pub fn in_hand(&self, c: Color, role: Role) -> u32 {
        self.extra.in_hand(c, role)
    }

    /// How many pieces `c` has in hand (Sittuyin's placement; 0 in the other variants).
    #[must_use]
    #[inline]
    pub fn hand_count(&self, c: Color) -> u32 {
        self.extra.hand_count(c)
    }

    /// Sittuyin's pieces in hand, packed (four bits a count, as [`Position::in_hand`] reads
    /// them); 0 in the other variants. Not part of [`Position::zobrist`] (the repetition key,
    /// as Fairy-Stockfish's): an engine's table key may mix it in.
    #[must_use]
    #[inline]
    pub fn hands_packed(&self) -> u64 {
        self.extra.hands
    }

    /// Ouk Chaktrang's gates: the squares of the Khun and Met that may still make their
    /// first-move jump (the FEN's `DEde`); empty in the other variants. Not part of
    /// [`Position::zobrist`]: an engine's table key may mix it in.
    #[must_use]
    #[inline]
    pub fn gates(&self) -> Bitboard {
        self.extra.gates
    }

    /// True when `c` has only its Khun.
    #[must_use]
    #[inline]
    pub fn is_bare(&self, c: Color) -> bool {
        self.board.is_bare(c)
    }

    /// The piece on `sq`.
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.piece_at(sq)
    }

    /// Perft: the number of leaf nodes of the legal move tree of depth `depth` (bulk
    /// counting at the last ply).
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal() as u64,
            _ => {
                let mut n = 0;
                for m in &self.legal_moves() {
                    let mut p = self.clone();
                    p.play_unchecked(m);
                    n += p.perft(depth - 1);
                }
                n
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(fen: &str) -> PositionError {
        match Position::from_fen(fen, Ruleset::Standard) {
            Err(FenError::Position(e)) => e,
            other => panic!("expected a position error for {fen}, got {other:?}"),
        }
    }

    #[test]
    fn the_fullmove_number_stops_at_its_cap_so_every_fen_reads_back() {
        // Found by the `fen` fuzz target: Black's move at fullmove 1,000,000 wrote 1,000,001,
        // which read back as 1,000,000.
        let mut pos =
            Position::from_fen("4k3/8/8/8/2p5/8/8/R3K3 b - - 9 9999999", Ruleset::Standard)
                .expect("valid");
        assert_eq!(pos.fullmoves(), 1_000_000);
        for _ in 0..3 {
            let m = pos.legal_moves()[0];
            pos.play(&m).expect("legal");
            assert_eq!(pos.fullmoves(), 1_000_000);
            let back = Position::from_fen(&pos.fen(), Ruleset::Standard).expect("reads");
            assert_eq!(back.fen(), pos.fen());
        }
        // Below the cap the number grows after Black's move as ever.
        let mut pos = Position::from_fen("4k3/8/8/8/2p5/8/8/R3K3 b - - 0 7", Ruleset::Standard)
            .expect("valid");
        let m = pos.legal_moves()[0];
        pos.play(&m).expect("legal");
        assert_eq!(pos.fullmoves(), 8);
    }

    #[test]
    fn rejects_impossible_positions() {
        assert!(matches!(
            err("8/8/8/8/8/8/8/4K3 w - - 0 1"),
            PositionError::KhunCount { count: 0, .. }
        ));
        assert_eq!(
            err("8/8/8/8/8/8/8/4K3 w - - 0 1").to_string(),
            "black must have exactly one Khun, found 0"
        );
        assert_eq!(
            err("RRRRRRRR/RRRRRRRR/8/8/8/8/8/k3K3 w - - 0 1"),
            PositionError::TooManyPieces {
                color: Color::White,
                count: 17
            }
        );
        assert_eq!(
            err("RRRRRRRR/RRRRRRRR/8/8/8/8/8/k3K3 w - - 0 1").to_string(),
            "white has 17 pieces; at most 16 are possible"
        );
        assert!(matches!(
            err("3kk3/8/8/8/8/8/8/4K3 w - - 0 1"),
            PositionError::KhunCount { count: 2, .. }
        ));
        assert!(matches!(
            err("4k3/8/P7/8/8/8/8/4K3 w - - 0 1"),
            PositionError::BiaOnPromotionRank { .. }
        ));
        assert!(matches!(
            err("4k3/8/8/8/8/p7/8/4K3 w - - 0 1"),
            PositionError::BiaOnPromotionRank { .. }
        ));
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1"),
            PositionError::OppositeCheck
        );
        assert!(matches!(
            Position::from_fen("4k3/8/8/8/8/8/8/4R1K1 x - - 0 1", Ruleset::Standard),
            Err(FenError::Parse(_))
        ));
    }

    #[test]
    fn start_position_moves() {
        let p = Position::new();
        assert_eq!(p.legal_moves().len(), 23);
        assert_eq!(p.count_legal(), 23);
        assert!(!p.is_check());
        assert_eq!(
            p.fen(),
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"
        );
        let m = p.legal_moves()[0];
        let mut wrong = m;
        wrong.capture = Some(Role::Ma);
        assert!(p.is_legal(&m));
        assert!(!p.is_legal(&wrong));
        let mut q = p.clone();
        assert!(q.play(&wrong).is_err());
        assert_eq!(q, p, "a refused move leaves the position unchanged");
    }

    #[test]
    fn promotion_is_compulsory_and_marked() {
        // White Bia on c5 captures to d6 or pushes to c6: both promote.
        let p = Position::from_fen("4k3/8/3n4/2P5/8/8/8/4K3 w - - 0 1", Ruleset::Standard)
            .expect("valid");
        let bia: Vec<Move> = p
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| m.role == Role::Bia)
            .collect();
        assert_eq!(bia.len(), 2);
        assert!(bia.iter().all(|m| m.promotion));
        let after = p.after(&bia[0]);
        assert!(after.fen().contains("M~"), "{}", after.fen());
        assert_eq!(after.halfmoves(), 0);
    }

    #[test]
    fn pinned_piece_moves_only_along_the_pin() {
        // White Ruea e2 pinned by the black Ruea e8 against the Khun e1: only e-file moves.
        let p = Position::from_fen("k3r3/8/8/8/8/8/4R3/4K3 w - - 0 1", Ruleset::Standard)
            .expect("valid");
        let ruea: Vec<String> = p
            .legal_moves()
            .iter()
            .filter(|m| m.role == Role::Ruea)
            .map(|m| m.to.to_string())
            .collect();
        assert_eq!(ruea, ["e3", "e4", "e5", "e6", "e7", "e8"]);
        assert_eq!(p.legal_moves().len(), p.count_legal());
    }
}
