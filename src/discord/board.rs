//! The board picture of a reply: from the side to move, its last move highlighted (and a Khun
//! in check, as [`render::render_position`] does), rendered on the blocking pool (CPU-bound);
//! and the last moves shown under it by `/board`.

use anyhow::Context as _;
use makruk::{Move, Position};

use crate::game::{GameRecord, Reply};
use crate::i18n::Locale;
use crate::render::{self, RenderOptions};
use crate::tr;

/// How many plies `/board` lists under the picture.
pub(crate) const LAST_MOVES: usize = 10;

/// "Last moves: 12. Nc3 Rd8 13. …" for the last [`LAST_MOVES`] plies of the first `plies` plies
/// of `record` (numbered; SAN, in Thai the Thai notation with SAN beside it); `None` before the first move or if the record has fewer plies
/// (it was read after a takeback).
pub(crate) fn last_moves(record: &GameRecord, plies: usize, locale: Locale) -> Option<String> {
    if plies == 0 || record.game.moves().len() < plies {
        return None;
    }
    let moves = record.numbered_for(plies.saturating_sub(LAST_MOVES), plies, locale);
    Some(tr!(locale, "discord-last-moves", moves = moves))
}

/// PNG bytes of the reply's position, seen from the side to move.
///
/// # Errors
/// When rendering fails (a bug) or the blocking task is lost.
pub(crate) async fn png(reply: &Reply) -> anyhow::Result<Vec<u8>> {
    let position = reply.position.clone();
    let options = options(&position, reply.last_move);
    tokio::task::spawn_blocking(move || render::render_position(&position, &options))
        .await
        .context("the render task was lost")?
        .context("cannot render the board")
}

/// Renders the start position once, so the renderer's caches (piece sprites, empty boards) are
/// filled before the first real move waits for them.
pub(crate) async fn warm_up() {
    let start = Position::new();
    let mut options = options(&start, None);
    let started = std::time::Instant::now();
    let result = tokio::task::spawn_blocking(move || {
        let white = render::render_position(&start, &options);
        options.orientation = options.orientation.other();
        white.and_then(|_| render::render_position(&start, &options))
    })
    .await;
    match result {
        Ok(Ok(_)) => tracing::debug!(
            ms = started.elapsed().as_secs_f64() * 1000.0,
            "renderer warm"
        ),
        Ok(Err(e)) => tracing::error!("the renderer fails: {e}"),
        Err(e) => tracing::error!("the renderer task was lost: {e}"),
    }
}

/// How to draw `position`: seen from the side to move (a player looks at the board from their
/// own side when it is their turn), `last_move` marked.
fn options(position: &Position, last_move: Option<Move>) -> RenderOptions {
    RenderOptions {
        orientation: position.turn(),
        last_move: last_move.map(|m| (m.from, m.to)),
        ..RenderOptions::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use makruk::{Color, Role, Ruleset};

    #[test]
    fn the_side_to_move_sees_the_board_from_below() {
        let start = Position::new();
        let options = options(&start, None);
        assert_eq!(options.orientation, Color::White);
        assert_eq!(options.last_move, None);

        // Black to move, the last move a Ruea to e1.
        let fen = "4k3/8/8/8/8/8/8/K3R3 b - - 0 1";
        let pos = Position::from_fen(fen, Ruleset::Standard).expect("legal FEN");
        let last = Move {
            from: "a1".parse().expect("a square"),
            to: "e1".parse().expect("a square"),
            role: Role::Ruea,
            capture: None,
            promotion: false,
        };
        let options = super::options(&pos, Some(last));
        assert_eq!(options.orientation, Color::Black);
        assert_eq!(options.last_move, Some((last.from, last.to)));
    }
}
