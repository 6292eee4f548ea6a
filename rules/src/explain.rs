//! Why a move is illegal, as data the bot can phrase in any language ([`IllegalMove`]).
//!
//! The piece moves are those of docs/RULES.md ("Board, pieces, moves"); [`Movement`] names them so
//! a message can say how the piece does move.

use std::fmt;

use crate::attacks::{
    attackers, between, bia_attacks, khon_attacks, khun_attacks, ma_attacks, met_attacks,
    ruea_attacks,
};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::position::{promotion_rank, Position};
use crate::types::{Color, Piece, Role, Square};

/// How a piece moves (docs/RULES.md "Board, pieces, moves"), for explaining a wrong move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Movement {
    /// Khun: one square in any direction.
    OneStepAnyDirection,
    /// Met and Bia-ngai: one square diagonally.
    OneStepDiagonally,
    /// Khon: one square diagonally, or one square straight forward (never straight backward
    /// or sideways).
    OneStepDiagonallyOrStraightForward,
    /// Ma: the chess knight's jump (two squares one way, one square across); it jumps over pieces.
    KnightJump,
    /// Ruea: any number of empty squares along a rank or file.
    StraightAnyDistance,
    /// Bia: one square straight forward; captures one square diagonally forward. No double
    /// step, no en passant.
    OneStepForwardCapturesDiagonally,
}

impl Movement {
    /// How `piece` moves (a Bia-ngai moves like a Met).
    #[must_use]
    pub const fn of(piece: Piece) -> Movement {
        match piece.role {
            Role::Khun => Movement::OneStepAnyDirection,
            Role::Met => Movement::OneStepDiagonally,
            Role::Khon => Movement::OneStepDiagonallyOrStraightForward,
            Role::Ma => Movement::KnightJump,
            Role::Ruea => Movement::StraightAnyDistance,
            Role::Bia => Movement::OneStepForwardCapturesDiagonally,
        }
    }
}

impl fmt::Display for Movement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Movement::OneStepAnyDirection => "one square in any direction",
            Movement::OneStepDiagonally => "one square diagonally",
            Movement::OneStepDiagonallyOrStraightForward => {
                "one square diagonally or one square straight forward"
            }
            Movement::KnightJump => "like a knight, jumping",
            Movement::StraightAnyDistance => "any distance along a rank or file",
            Movement::OneStepForwardCapturesDiagonally => {
                "one square forward, capturing one square diagonally forward"
            }
        })
    }
}

/// The shape of an attempted step from one square to another, seen from the mover's side
/// ("forward" is toward the opponent).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum StepShape {
    /// From and to are the same square.
    NoMove,
    /// Along the file, toward the opponent.
    StraightForward,
    /// Along the file, toward one's own side.
    StraightBackward,
    /// Along the rank.
    Sideways,
    /// Along a diagonal, toward the opponent.
    DiagonalForward,
    /// Along a diagonal, toward one's own side.
    DiagonalBackward,
    /// Two squares one way and one across.
    KnightJump,
    /// Any other shape (not on a line, not a knight's jump).
    Irregular,
}

/// An attempted step: its shape and its length in squares.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// The direction of the step, seen from the mover's side.
    pub shape: StepShape,
    /// Chebyshev distance: the larger of the file distance and the rank distance (2 for a
    /// knight's jump).
    pub distance: u8,
}

impl Step {
    /// The step from `from` to `to` for a piece of `color`.
    #[must_use]
    pub fn between(color: Color, from: Square, to: Square) -> Step {
        let df = i32::from(to.file()) - i32::from(from.file());
        let mut dr = i32::from(to.rank()) - i32::from(from.rank());
        if color == Color::Black {
            dr = -dr;
        }
        let (af, ar) = (df.abs(), dr.abs());
        let shape = if af == 0 && ar == 0 {
            StepShape::NoMove
        } else if af == 0 {
            if dr > 0 {
                StepShape::StraightForward
            } else {
                StepShape::StraightBackward
            }
        } else if ar == 0 {
            StepShape::Sideways
        } else if af == ar {
            if dr > 0 {
                StepShape::DiagonalForward
            } else {
                StepShape::DiagonalBackward
            }
        } else if (af == 1 && ar == 2) || (af == 2 && ar == 1) {
            StepShape::KnightJump
        } else {
            StepShape::Irregular
        };
        Step {
            shape,
            distance: af.max(ar) as u8,
        }
    }
}

/// Why a move is illegal. Built by [`explain_illegal`] and by the move readers
/// ([`crate::parse_move`], [`crate::parse_uci`]); the bot turns it into an English or
/// Thai sentence. `Display` gives a short lowercase English text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// There is no piece on the origin square.
    NoPieceOnSquare {
        /// The origin square.
        square: Square,
    },
    /// The piece on the origin square belongs to the opponent.
    NotYourPiece {
        /// The origin square.
        square: Square,
        /// The opponent's piece standing there.
        piece: Piece,
    },
    /// The piece cannot make that step at all: `step` is what was tried, `movement` how the
    /// piece does move (e.g. a Khon tried [`StepShape::StraightBackward`]).
    CannotMoveThatWay {
        /// The piece that was to move.
        piece: Piece,
        /// Its square.
        from: Square,
        /// The target square.
        to: Square,
        /// The step from `from` to `to`, seen from the mover's side.
        step: Step,
        /// How the piece does move.
        movement: Movement,
    },
    /// A Bia tried to capture straight forward; a Bia captures only diagonally forward.
    BiaCapturesOnlyDiagonally {
        /// The Bia's square.
        from: Square,
        /// The square straight ahead.
        to: Square,
        /// The opponent's piece standing there.
        target: Piece,
    },
    /// A Bia tried to step diagonally onto an empty square; it moves diagonally only to capture.
    BiaMovesDiagonallyOnlyToCapture {
        /// The Bia's square.
        from: Square,
        /// The empty square diagonally ahead.
        to: Square,
    },
    /// A Ruea's path is blocked by `blocker_piece` on `blocker` (the first piece in the way).
    PathBlocked {
        /// The Ruea that was to move.
        piece: Piece,
        /// Its square.
        from: Square,
        /// The target square.
        to: Square,
        /// The square of the first piece in the way.
        blocker: Square,
        /// That piece (either side's).
        blocker_piece: Piece,
    },
    /// One's own piece stands on the target square.
    OwnPieceOnTarget {
        /// The target square.
        square: Square,
        /// The mover's own piece standing there.
        piece: Piece,
    },
    /// After the move one's own Khun (standing on `khun`) would be attacked by `attacker`
    /// from `attacker_square`.
    LeavesKhunInCheck {
        /// The piece that was to move (the Khun itself when it walks into check).
        piece: Piece,
        /// Its square.
        from: Square,
        /// The target square.
        to: Square,
        /// Where the mover's Khun would stand after the move.
        khun: Square,
        /// An opponent's piece that would attack it (the first from a1 on).
        attacker: Piece,
        /// The square of that piece.
        attacker_square: Square,
    },
    /// A move named by its piece and target (SAN) that no piece can make: `piece` is the kind
    /// named (with the mover's colour), `candidates` the squares of the mover's pieces of that
    /// kind that fit the written origin (empty: there is none).
    NoSuchMove {
        /// The kind of piece named, with the mover's colour.
        piece: Piece,
        /// The target square.
        to: Square,
        /// The squares of the mover's pieces of that kind that fit the written origin.
        candidates: Vec<Square>,
    },
    /// Sittuyin's placement phase: the side to move still has pieces to place (drops such as
    /// `R@a1`) and may not move a piece before they are all placed (Fairy-Stockfish
    /// `mustDrop`).
    PlaceFirst,
    /// A drop (`R@a1`) that is not legal here: the variant has no drops, the side has no such
    /// piece to place, or the square is not one it may be placed on (Sittuyin: an empty
    /// square of the side's own three first ranks, a Ruea on its first rank only).
    BadDrop {
        /// The piece named, with the mover's colour.
        piece: Piece,
        /// The square named.
        square: Square,
        /// How many of that piece the side still has to place (0: none, or no drops here).
        in_hand: u32,
    },
    /// Makpong: a Khun in check may not move away; it may only capture the checking piece
    /// (Fairy-Stockfish `makpongRule`).
    MakpongKhunInCheck {
        /// The Khun's square.
        from: Square,
        /// The square it tried to go to.
        to: Square,
    },
    /// Ouk Chaktrang: a first-move jump (the Khun's Ma-like jump one rank forward, the Met's
    /// two squares straight forward; Fairy-Stockfish `cambodianMoves`) that may not be made
    /// here, and why.
    OukJump {
        /// The Khun or Met that was to jump.
        piece: Piece,
        /// Its square.
        from: Square,
        /// The square it tried to jump to.
        to: Square,
        /// Why the jump is refused.
        why: OukJumpBar,
    },
    /// ASEAN chess: a Bia reaching the last rank must become a Ruea, Ma, Khon or Met, written
    /// with its letter (`a8=R`, `a8=N`, `a8=B`, `a8=Q`; UCI `a7a8r`); another letter was given
    /// (Fairy-Stockfish `promotionPieceTypes`).
    AseanPromotionLetter {
        /// The Bia's square.
        from: Square,
        /// The last-rank square.
        to: Square,
    },
    /// ASEAN chess: a promotion letter on a Bia move that does not reach the last rank (the
    /// only rank a Bia promotes on in ASEAN).
    AseanNotAPromotion {
        /// The Bia's square.
        from: Square,
        /// Its target, not on the last rank.
        to: Square,
    },
}

/// Why an Ouk Chaktrang first-move jump is refused ([`IllegalMove::OukJump`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OukJumpBar {
    /// The jump is gone: the piece has moved (or is not the one that started there), or, for
    /// the Khun, an enemy Ruea has come to its file or rank, whatever stands between
    /// (Fairy-Stockfish's gates, the FEN's `DEde`).
    Used,
    /// The Khun is in check: its jump is not an answer to a check.
    InCheck,
    /// An enemy piece stands on the target: a jump never captures.
    Capture,
}

fn piece_name(p: Piece) -> String {
    format!("{} {}", p.color.name(), p.name())
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::NoPieceOnSquare { square } => write!(f, "there is no piece on {square}"),
            IllegalMove::PlaceFirst => write!(f, "place your pieces first"),
            IllegalMove::BadDrop {
                piece,
                square,
                in_hand,
            } => write!(
                f,
                "cannot place a {} on {square} ({in_hand} to place)",
                piece_name(*piece)
            ),
            IllegalMove::MakpongKhunInCheck { from, to } => write!(
                f,
                "in Makpong a Khun in check may not move away ({from} to {to})"
            ),
            IllegalMove::OukJump {
                piece,
                from,
                to,
                why,
            } => {
                let why = match why {
                    OukJumpBar::Used => "it is only the piece's first move, while it has it",
                    OukJumpBar::InCheck => "not while the Khun is in check",
                    OukJumpBar::Capture => "a jump does not capture",
                };
                write!(
                    f,
                    "the {} on {from} cannot make its first-move jump to {to}: {why}",
                    piece.name()
                )
            }
            IllegalMove::AseanPromotionLetter { from, to } => write!(
                f,
                "the Bia from {from} to {to} becomes a Ruea, Ma, Khon or Met: write {to}=R, {to}=N, {to}=B or {to}=Q"
            ),
            IllegalMove::AseanNotAPromotion { from, to } => write!(
                f,
                "the Bia from {from} to {to} does not promote: in ASEAN a Bia promotes on the last rank only"
            ),
            IllegalMove::NotYourPiece { square, piece } => {
                write!(f, "the {} on {square} is not yours", piece_name(*piece))
            }
            IllegalMove::CannotMoveThatWay {
                piece,
                from,
                to,
                movement,
                ..
            } => write!(
                f,
                "a {} cannot move from {from} to {to}: it moves {movement}",
                piece.name()
            ),
            IllegalMove::BiaCapturesOnlyDiagonally { from, to, .. } => write!(
                f,
                "the Bia on {from} cannot capture on {to}: a Bia captures only diagonally forward"
            ),
            IllegalMove::BiaMovesDiagonallyOnlyToCapture { from, to } => write!(
                f,
                "the Bia on {from} cannot move to {to}: a Bia moves diagonally only to capture"
            ),
            IllegalMove::PathBlocked {
                piece,
                from,
                to,
                blocker,
                blocker_piece,
            } => write!(
                f,
                "the {} on {from} cannot reach {to}: the {} on {blocker} is in the way",
                piece.name(),
                piece_name(*blocker_piece)
            ),
            IllegalMove::OwnPieceOnTarget { square, piece } => {
                write!(f, "your own {} stands on {square}", piece.name())
            }
            IllegalMove::LeavesKhunInCheck {
                piece,
                khun,
                attacker,
                attacker_square,
                ..
            } => {
                let verb = if piece.role == Role::Khun {
                    "put"
                } else {
                    "leave"
                };
                write!(
                    f,
                    "that would {verb} your Khun on {khun} in check from the {} on {attacker_square}",
                    attacker.name()
                )
            }
            IllegalMove::NoSuchMove {
                piece,
                to,
                candidates,
            } => {
                if candidates.is_empty() {
                    write!(f, "you have no {} that could move to {to}", piece.name())
                } else {
                    let list: Vec<String> = candidates.iter().map(Square::to_string).collect();
                    write!(
                        f,
                        "no {} can move to {to} (yours stand on {})",
                        piece.name(),
                        list.join(", ")
                    )
                }
            }
        }
    }
}

impl std::error::Error for IllegalMove {}

/// Why the move from `from` to `to` is illegal in `pos`, or `None` if it is legal.
///
/// The reasons are checked in this order: no piece, not the mover's piece, the piece cannot
/// move that way, a Ruea's path is blocked, the mover's own piece is on the target, the move
/// leaves the mover's Khun attacked.
///
/// ```
/// use makruk::{explain_illegal, IllegalMove, Position, Square};
///
/// let pos = Position::new();
/// let sq = |s: &str| s.parse::<Square>().unwrap();
/// assert_eq!(explain_illegal(&pos, sq("e3"), sq("e4")), None);
/// assert_eq!(
///     explain_illegal(&pos, sq("e4"), sq("e5")),
///     Some(IllegalMove::NoPieceOnSquare { square: sq("e4") })
/// );
/// ```
#[must_use]
pub fn explain_illegal(pos: &Position, from: Square, to: Square) -> Option<IllegalMove> {
    if pos
        .legal_moves()
        .iter()
        .any(|m| m.from == from && m.to == to)
    {
        return None;
    }
    Some(diagnose(pos.board(), pos.turn(), from, to).unwrap_or_else(|| unexplained(pos, from, to)))
}

/// Fallback when the geometry finds nothing wrong but the move is not in the legal list
/// (should not happen): the move is reported as not available for that piece.
pub(crate) fn unexplained(pos: &Position, from: Square, to: Square) -> IllegalMove {
    let piece = pos
        .board()
        .piece_at(from)
        .unwrap_or(Piece::new(pos.turn(), Role::Bia));
    IllegalMove::NoSuchMove {
        piece,
        to,
        candidates: vec![from],
    }
}

/// The reason a from→to move is illegal on `board` with `turn` to move, or `None` if the
/// geometry, path, target and Khun safety are all fine.
pub(crate) fn diagnose(
    board: &Board,
    turn: Color,
    from: Square,
    to: Square,
) -> Option<IllegalMove> {
    let Some(piece) = board.piece_at(from) else {
        return Some(IllegalMove::NoPieceOnSquare { square: from });
    };
    if piece.color != turn {
        return Some(IllegalMove::NotYourPiece {
            square: from,
            piece,
        });
    }
    let target = board.piece_at(to);
    let step = Step::between(turn, from, to);
    let wrong_way = IllegalMove::CannotMoveThatWay {
        piece,
        from,
        to,
        step,
        movement: Movement::of(piece),
    };
    // The move generator's own tables say whether the piece can make this step at all.
    let reach = match piece.role {
        Role::Khun => khun_attacks(from),
        Role::Met => met_attacks(from),
        Role::Khon => khon_attacks(turn, from),
        Role::Ma => ma_attacks(from),
        // Every square of its rank and file; what stands in the way is looked at below.
        Role::Ruea => ruea_attacks(from, Bitboard::EMPTY),
        // Its captures; the push straight forward is the step below.
        Role::Bia => bia_attacks(turn, from),
    };
    if piece.role == Role::Bia {
        let push = step.shape == StepShape::StraightForward && step.distance == 1;
        match target {
            Some(t) if push && t.color != turn => {
                return Some(IllegalMove::BiaCapturesOnlyDiagonally {
                    from,
                    to,
                    target: t,
                });
            }
            None if reach.contains(to) => {
                return Some(IllegalMove::BiaMovesDiagonallyOnlyToCapture { from, to });
            }
            _ if push || reach.contains(to) => {}
            _ => return Some(wrong_way),
        }
    } else if !reach.contains(to) {
        return Some(wrong_way);
    }
    if piece.role == Role::Ruea {
        // The piece in the way nearest the Ruea.
        let in_way = between(from, to) & board.occupied();
        let blocker = if to > from {
            in_way.first()
        } else {
            in_way.last()
        };
        if let Some((blocker, blocker_piece)) =
            blocker.and_then(|sq| board.piece_at(sq).map(|p| (sq, p)))
        {
            return Some(IllegalMove::PathBlocked {
                piece,
                from,
                to,
                blocker,
                blocker_piece,
            });
        }
    }
    if let Some(t) = target {
        if t.color == turn {
            return Some(IllegalMove::OwnPieceOnTarget {
                square: to,
                piece: t,
            });
        }
    }
    leaves_khun_attacked(board, turn, piece, from, to)
}

/// [`IllegalMove::LeavesKhunInCheck`] when `piece` going from `from` to `to` (a move of its
/// shape, target free of its own pieces) leaves its own Khun attacked; `None` otherwise.
pub(crate) fn leaves_khun_attacked(
    board: &Board,
    turn: Color,
    piece: Piece,
    from: Square,
    to: Square,
) -> Option<IllegalMove> {
    let mut after = board.clone();
    after.remove_piece_at(from);
    let moved = if piece.role == Role::Bia && to.rank() == promotion_rank(turn) {
        Piece::bia_ngai(turn)
    } else {
        piece
    };
    after.set_piece_at(to, moved);
    let khun = after.khun_of(turn)?;
    // The first attacker from a1 on.
    let attacker_square = attackers(&after, khun, turn.other(), after.occupied()).first()?;
    let attacker = after.piece_at(attacker_square)?;
    Some(IllegalMove::LeavesKhunInCheck {
        piece,
        from,
        to,
        khun,
        attacker,
        attacker_square,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().expect("square")
    }

    fn board(pieces: &[(&str, Piece)]) -> Board {
        let mut b = Board::empty();
        for &(s, p) in pieces {
            b.set_piece_at(sq(s), p);
        }
        b
    }

    const WK: Piece = Piece::new(Color::White, Role::Khun);
    const BK: Piece = Piece::new(Color::Black, Role::Khun);

    #[test]
    fn step_shapes_are_relative_to_the_mover() {
        assert_eq!(
            Step::between(Color::White, sq("e3"), sq("e2")).shape,
            StepShape::StraightBackward
        );
        assert_eq!(
            Step::between(Color::Black, sq("e3"), sq("e2")).shape,
            StepShape::StraightForward
        );
        assert_eq!(
            Step::between(Color::White, sq("g1"), sq("f3")),
            Step {
                shape: StepShape::KnightJump,
                distance: 2
            }
        );
        assert_eq!(
            Step::between(Color::White, sq("a1"), sq("c4")).shape,
            StepShape::Irregular
        );
    }

    #[test]
    fn khon_never_steps_straight_backward() {
        let khon = Piece::new(Color::White, Role::Khon);
        let b = board(&[("d1", WK), ("e8", BK), ("c4", khon)]);
        match diagnose(&b, Color::White, sq("c4"), sq("c3")) {
            Some(IllegalMove::CannotMoveThatWay { step, movement, .. }) => {
                assert_eq!(step.shape, StepShape::StraightBackward);
                assert_eq!(movement, Movement::OneStepDiagonallyOrStraightForward);
            }
            other => panic!("unexpected {other:?}"),
        }
        assert_eq!(diagnose(&b, Color::White, sq("c4"), sq("c5")), None);
        assert_eq!(diagnose(&b, Color::White, sq("c4"), sq("b3")), None);
        assert!(matches!(
            diagnose(&b, Color::White, sq("c4"), sq("d4")),
            Some(IllegalMove::CannotMoveThatWay {
                step: Step {
                    shape: StepShape::Sideways,
                    ..
                },
                ..
            })
        ));
    }

    #[test]
    fn ruea_path_blocked_names_the_first_blocker() {
        let ruea = Piece::new(Color::White, Role::Ruea);
        let bia = Piece::new(Color::Black, Role::Bia);
        let b = board(&[
            ("d1", WK),
            ("e8", BK),
            ("a1", ruea),
            ("a4", bia),
            ("a6", bia),
        ]);
        assert_eq!(
            diagnose(&b, Color::White, sq("a1"), sq("a8")),
            Some(IllegalMove::PathBlocked {
                piece: ruea,
                from: sq("a1"),
                to: sq("a8"),
                blocker: sq("a4"),
                blocker_piece: bia
            })
        );
        assert_eq!(diagnose(&b, Color::White, sq("a1"), sq("a4")), None);
        // Toward a1 (lower squares) the nearest piece in the way is the higher one.
        let b = board(&[
            ("d1", WK),
            ("e8", BK),
            ("h5", ruea),
            ("c5", bia),
            ("e5", bia),
        ]);
        assert!(matches!(
            diagnose(&b, Color::White, sq("h5"), sq("a5")),
            Some(IllegalMove::PathBlocked { blocker, .. }) if blocker == sq("e5")
        ));
    }

    #[test]
    fn pinned_piece_and_khun_walking_into_check() {
        let ruea = Piece::new(Color::Black, Role::Ruea);
        let ma = Piece::new(Color::White, Role::Ma);
        let b = board(&[("d1", WK), ("e8", BK), ("d2", ma), ("d7", ruea)]);
        assert_eq!(
            diagnose(&b, Color::White, sq("d2"), sq("f3")),
            Some(IllegalMove::LeavesKhunInCheck {
                piece: ma,
                from: sq("d2"),
                to: sq("f3"),
                khun: sq("d1"),
                attacker: ruea,
                attacker_square: sq("d7")
            })
        );
        let b = board(&[("d1", WK), ("e8", BK), ("e7", ruea)]);
        assert!(matches!(
            diagnose(&b, Color::White, sq("d1"), sq("e1")),
            Some(IllegalMove::LeavesKhunInCheck { khun, .. }) if khun == sq("e1")
        ));
        assert_eq!(diagnose(&b, Color::White, sq("d1"), sq("c2")), None);
    }

    #[test]
    fn bia_rules() {
        let wb = Piece::new(Color::White, Role::Bia);
        let bb = Piece::new(Color::Black, Role::Bia);
        let b = board(&[("d1", WK), ("e8", BK), ("e3", wb), ("e4", bb)]);
        assert!(matches!(
            diagnose(&b, Color::White, sq("e3"), sq("e4")),
            Some(IllegalMove::BiaCapturesOnlyDiagonally { .. })
        ));
        assert!(matches!(
            diagnose(&b, Color::White, sq("e3"), sq("f4")),
            Some(IllegalMove::BiaMovesDiagonallyOnlyToCapture { .. })
        ));
        assert!(matches!(
            diagnose(&b, Color::White, sq("e3"), sq("e5")),
            Some(IllegalMove::CannotMoveThatWay { .. })
        ));
        assert!(matches!(
            diagnose(&b, Color::White, sq("e4"), sq("e3")),
            Some(IllegalMove::NotYourPiece { .. })
        ));
        assert_eq!(
            diagnose(&b, Color::Black, sq("e4"), sq("e3")).map(|e| e.to_string()),
            Some(
                "the Bia on e4 cannot capture on e3: a Bia captures only diagonally forward"
                    .to_string()
            )
        );
    }
}
