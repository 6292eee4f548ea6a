//! The rules' draws on the search path, exactly as [`makruk::Game::outcome`] declares them,
//! so that the search scores a line as drawn only when the game would end there.
//!
//! The one deliberate difference is inside the search tree: a position that repeats one
//! reached earlier *after the root* is scored as a draw at once (the side that could repeat
//! once can repeat again, and waiting for the third occurrence would hide the draw beyond the
//! horizon). Before the root only the rules' threefold repetition counts.

use makruk::{count_info, counting_draw, Color, CountKind, CounterMates, Position, Role, Variant};

/// One position of the game or search path, for repetition.
#[derive(Copy, Clone, Debug)]
pub struct PathEntry {
    /// The position's Zobrist key (placement and side to move).
    pub key: u64,
    /// Plies since the last null move of the search (a null move breaks repetition).
    pub since_null: u32,
}

/// Threefold repetition as [`makruk::Game::is_repetition`] decides it — the current key
/// (the last of `path`) occurred twice before, looking back two plies at a time from four
/// plies, no further than `halfmoves` plies (the last capture or Bia move) — except that one
/// earlier occurrence at an index after `root` already counts as a repetition.
#[must_use]
pub fn is_repetition(path: &[PathEntry], halfmoves: u32, root: usize) -> bool {
    let Some(i) = path.len().checked_sub(1) else {
        return false;
    };
    let cur = path[i];
    let end = (halfmoves as usize).min(i).min(cur.since_null as usize);
    let mut count = 0;
    let mut k = 4;
    while k <= end {
        if path[i - k].key == cur.key {
            if i - k > root {
                return true;
            }
            count += 1;
            if count >= 2 {
                return true;
            }
        }
        k += 2;
    }
    false
}

/// True when the rules declare `pos` drawn other than by stalemate (which the search sees
/// as "no legal move"): the count run out, repetition ([`is_repetition`]), Khun against Khun,
/// insufficient material on both sides, the no-progress rule — each only where the
/// position's rule table has it ([`Position::rules`]: the ruleset's in Makruk, the variant's
/// own elsewhere; docs/RULES.md, one section per ruleset), and Sittuyin's draw when only
/// promotions are left ([`Position::is_promotion_stalemate`]). A checkmate comes first, as in
/// [`makruk::Game::outcome`].
#[must_use]
pub fn is_rule_draw(pos: &Position, path: &[PathEntry], root: usize) -> bool {
    if counting_draw(pos) {
        return true;
    }
    if pos.variant() == Variant::Sittuyin && pos.is_promotion_stalemate() {
        return true;
    }
    let rules = pos.rules();
    let board = pos.board();
    let draw = (rules.repetition && is_repetition(path, pos.halfmoves(), root))
        || (rules.khun_vs_khun && board.occupied().count() == 2)
        || (rules.insufficient_material
            && pos.has_insufficient_material(Color::White)
            && pos.has_insufficient_material(Color::Black))
        || rules.no_progress.is_some_and(|np| {
            pos.halfmoves() >= np.plies && (!np.only_with_bia || board.by_role(Role::Bia).any())
        });
    draw && (!pos.is_check() || pos.has_legal_move())
}

/// True when the side to move in `pos` is checkmated but the game is drawn: under
/// `traditional` the side counting a requested board's honour gave the mate (docs/RULES.md
/// "Ruleset `traditional`").
#[must_use]
pub fn mate_is_draw(pos: &Position) -> bool {
    pos.rules().counter_mates == CounterMates::Draws
        && count_info(pos)
            .is_some_and(|c| c.kind == CountKind::BoardsHonour && c.counting == pos.turn().other())
}

#[cfg(test)]
mod tests {
    use super::*;
    use makruk::{DrawReason, Game, Outcome, Ruleset};

    fn path_of(game: &Game) -> Vec<PathEntry> {
        game.positions()
            .iter()
            .map(|p| PathEntry {
                key: p.zobrist(),
                since_null: u32::MAX,
            })
            .collect()
    }

    /// A small xorshift generator, so the test needs no seed handling.
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    /// Random games under every ruleset, with a bias toward captures (so that counts start and
    /// run out) and toward moving back and forth (so that positions repeat): at every position
    /// our draw detection (root at the current position, so only the rules' threefold counts)
    /// and mate handling agree with `Game::outcome`.
    #[test]
    fn draw_detection_agrees_with_game_outcome() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let mut seen = [0usize; 8];
        for ruleset in Ruleset::ALL {
            for g in 0..200 {
                // Every other game moves back and forth now and then (repetitions); the
                // others play on (counts and the no-progress rule).
                let shuffle = g % 2 == 0;
                let mut game = Game::new(ruleset);
                for _ in 0..600 {
                    let pos = game.position().clone();
                    let path = path_of(&game);
                    let root = path.len() - 1;
                    let ours = if pos.has_legal_move() {
                        is_rule_draw(&pos, &path, root).then_some("draw")
                    } else if pos.is_check() {
                        Some(if mate_is_draw(&pos) { "draw" } else { "mate" })
                    } else {
                        Some("draw")
                    };
                    let theirs = match game.outcome() {
                        None => None,
                        Some(Outcome::Decisive { .. }) => Some("mate"),
                        Some(Outcome::Draw { reason }) => {
                            seen[reason as usize] += 1;
                            Some("draw")
                        }
                    };
                    assert_eq!(ours, theirs, "{ruleset} {}", pos.fen());
                    if theirs.is_some() {
                        break;
                    }
                    // Traditional: request the count now and then so that it runs.
                    if ruleset == Ruleset::Traditional && rng.below(8) == 0 {
                        let _ = game.start_count();
                    }
                    let moves = pos.legal_moves();
                    let captures: Vec<_> = moves.iter().filter(|m| m.is_capture()).collect();
                    let m = if !captures.is_empty() && rng.below(3) == 0 {
                        *captures[rng.below(captures.len())]
                    } else if shuffle && game.moves().len() >= 4 && rng.below(4) == 0 {
                        // Undo our own move of two plies ago if it is legal: repetitions.
                        let back = game.moves()[game.moves().len() - 2];
                        moves
                            .iter()
                            .copied()
                            .find(|m| m.from == back.to && m.to == back.from)
                            .unwrap_or(moves[rng.below(moves.len())])
                    } else {
                        moves[rng.below(moves.len())]
                    };
                    game.play(&m).expect("legal");
                }
            }
        }
        // The test saw the draws it is about.
        for reason in [
            DrawReason::Counting,
            DrawReason::Repetition,
            DrawReason::InsufficientMaterial,
            DrawReason::FiftyMove,
        ] {
            assert!(
                seen[reason as usize] > 0,
                "no {reason:?} draw seen: {seen:?}"
            );
        }
    }

    #[test]
    fn repetition_after_the_root_counts_once() {
        let k = |key| PathEntry {
            key,
            since_null: u32::MAX,
        };
        // a b c d a: the earlier `a` is before the root (index 0, root 1): no draw yet.
        let path = [k(1), k(2), k(3), k(4), k(1)];
        assert!(!is_repetition(&path, 10, 1));
        // The same with the root at 0: the earlier occurrence is the root itself, not after it.
        assert!(!is_repetition(&path, 10, 0));
        // x a b c d a with root 0: the first `a` is after the root.
        let path = [k(9), k(1), k(2), k(3), k(4), k(1)];
        assert!(is_repetition(&path, 10, 0));
        // ... but not beyond the last capture.
        assert!(!is_repetition(&path, 3, 0));
        // Threefold before the root.
        let path = [k(1), k(2), k(3), k(4), k(1), k(2), k(3), k(4), k(1)];
        assert!(is_repetition(&path, 10, 8));
    }
}
