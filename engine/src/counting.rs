//! `traditional`: when to start or stop counting board's honour (docs/RULES.md "Ruleset
//! `traditional`"). The count is requested by the side to move once no Bia is left and both
//! sides still have pieces besides the Khun; it draws the game when it runs out, and a mate
//! given by the counting side is only a draw. So the side that would be glad of a draw (the
//! weaker one) starts it, and stops it once it is the one about to win.

use crate::evaluate::{evaluate, value};
use crate::search::Engine;
use crate::{Limits, Score};
use makruk::{count_info, BoardHonour, Color, CountAction, CountKind, Game, Position, Role};
use std::sync::atomic::AtomicBool;

/// Material of `c` by the engine's piece values (Khun excluded).
pub(crate) fn material(pos: &Position, c: Color) -> i32 {
    let b = pos.board();
    [Role::Met, Role::Khon, Role::Ma, Role::Ruea, Role::Bia]
        .into_iter()
        .map(|r| value(r) * b.by_piece(c, r).count() as i32)
        .sum()
}

/// Under `traditional`, what the side to move should do about the board's honour count before
/// its move: [`CountAction::Start`] when it may start one (no Bia left, neither side bare,
/// none requested) and it is the weaker side (less material, or an evaluation at least a
/// Bia and a half against it); [`CountAction::Stop`] when it is counting and has become the
/// stronger side (more material, or a short search finds a mate for it once the count is
/// stopped). `None` otherwise, under the other rulesets, in the variants other than Makruk
/// (their counting is automatic: [`Position::rules`]), and when the game is over.
#[must_use]
pub fn count_decision(game: &Game) -> Option<CountAction> {
    let pos = game.position();
    if pos.rules().board_honour != BoardHonour::OnRequest || game.outcome().is_some() {
        return None;
    }
    if pos.board().by_role(Role::Bia).any()
        || pos.is_bare(Color::White)
        || pos.is_bare(Color::Black)
    {
        return None;
    }
    let us = pos.turn();
    let (ours, theirs) = (material(pos, us), material(pos, us.other()));
    match count_info(pos) {
        None => (ours < theirs || evaluate(pos) <= -150).then_some(CountAction::Start),
        Some(c) if c.kind == CountKind::BoardsHonour && c.counting == us => {
            if ours > theirs || mates_without_count(game) {
                Some(CountAction::Stop)
            } else {
                None
            }
        }
        Some(_) => None,
    }
}

/// True when a short search, with the count stopped, finds a mate for the side to move.
fn mates_without_count(game: &Game) -> bool {
    let mut g = game.clone();
    if g.stop_count().is_err() {
        return false;
    }
    let mut engine = Engine::new(1);
    let limits = Limits {
        depth: Some(7),
        nodes: Some(200_000),
        ..Limits::default()
    };
    let r = engine.search(&g, &limits, &AtomicBool::new(false), &mut |_| {});
    matches!(r.score, Score::Mate(n) if n > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use makruk::Ruleset;

    fn game(fen: &str, ruleset: Ruleset) -> Game {
        Game::from_position(Position::from_fen(fen, ruleset).expect("valid FEN"))
    }

    #[test]
    fn the_weaker_side_starts_the_count() {
        // White: Khun and Met; Black: Khun, Ruea. White to move starts; Black would not.
        let fen = "4k3/8/3r4/8/8/8/3M4/4K3 w - - 0 30";
        assert_eq!(
            count_decision(&game(fen, Ruleset::Traditional)),
            Some(CountAction::Start)
        );
        let fen_b = "4k3/8/3r4/8/8/8/3M4/4K3 b - - 0 30";
        assert_eq!(count_decision(&game(fen_b, Ruleset::Traditional)), None);
        // Other rulesets never count on request; Bia left: not yet.
        assert_eq!(count_decision(&game(fen, Ruleset::Standard)), None);
        let with_bia = "4k3/8/3r4/8/8/1P6/3M4/4K3 w - - 0 30";
        assert_eq!(count_decision(&game(with_bia, Ruleset::Traditional)), None);
    }

    #[test]
    fn the_counting_side_stops_when_it_can_mate() {
        // White counts (requested), then wins a Ruea: Black's Khun h8, White's Ruea about to
        // mate along the eighth rank.
        let mut g = game("7k/8/6K1/8/8/8/r7/R2M4 w - - 0 30", Ruleset::Traditional);
        g.start_count().expect("count starts");
        assert_eq!(
            count_decision(&g),
            Some(CountAction::Stop),
            "{:?}",
            g.count()
        );
        // Not when the mate is the opponent's.
        let mut g = game("4k3/8/8/8/8/8/7r/M3K3 w - - 0 30", Ruleset::Traditional);
        g.start_count().expect("count starts");
        assert_eq!(count_decision(&g), None);
    }
}
