//! A finished analysis as players read it (issue 23): the eval graph with its marks (judged
//! moves, the start of each count), each side's totals, the key moments and the count notes,
//! in the reader's language (`i18n/*/service.ftl`, `analysis-*`). The Discord adapter lays
//! these out as a message; the command-line tool draws the same graph.
//!
//! Nothing here knows a chat platform: players are written as the caller's `names` gives them.

use makruk::{count_info, Color, CountKind, Game, Position, Role};
use makruk_engine::analysis::{Eval, Judgement};

use crate::game::{AnalysisSummary, GameAnalysis, GameRecord, Moment, MoveChoice, Note, Why};
use crate::i18n::Locale;
use crate::render::evalgraph::{eval_graph_png, GraphPoint, Mark};
use crate::render::RenderError;
use crate::tr;

/// The graph's mark of a judgement.
#[must_use]
pub fn mark(j: Judgement) -> Mark {
    match j {
        Judgement::Inaccuracy => Mark::Inaccuracy,
        Judgement::Mistake => Mark::Mistake,
        Judgement::Blunder => Mark::Blunder,
    }
}

/// The positions of `game` (index = plies played, `0..=moves`) where a count starts: one
/// runs there ([`count_info`]) and none ran in the position before, or another (other kind or
/// other counting side) did.
#[must_use]
pub fn count_starts(game: &Game) -> Vec<usize> {
    let key = |p: &Position| count_info(p).map(|c| (c.kind, c.counting));
    let mut before = None;
    let mut out = Vec::new();
    for (i, p) in game.positions().iter().enumerate() {
        let now = key(p);
        if now.is_some() && now != before {
            out.push(i);
        }
        before = now;
    }
    out
}

/// The eval graph of stored `analysis` of `game`: White's win% after each analysed ply (its
/// eval as searched), judged moves marked, the starts of counts marked; a PNG.
///
/// # Errors
/// [`RenderError`] if the graph cannot be drawn (a bug).
pub fn graph_png(game: &Game, analysis: &GameAnalysis) -> Result<Vec<u8>, RenderError> {
    let start = analysis
        .summary
        .start_eval
        .as_deref()
        .and_then(crate::game::parse_eval)
        .map_or(50.0, Eval::win_percent);
    let points: Vec<GraphPoint> = analysis
        .plies
        .iter()
        .map(|p| GraphPoint {
            white_win: p.eval.win_percent(),
            mark: p.judgement.map(mark),
        })
        .collect();
    eval_graph_png(start, &points, &count_starts(game))
}

fn side_name(locale: Locale, side: Color) -> String {
    match side {
        Color::White => tr!(locale, "color-white"),
        Color::Black => tr!(locale, "color-black"),
    }
}

fn piece_name(locale: Locale, role: Role) -> String {
    tr!(locale, crate::game::role_key(role))
}

fn count_name(locale: Locale, kind: CountKind) -> String {
    tr!(
        locale,
        match kind {
            CountKind::BoardsHonour => "analysis-count-boards-honour",
            CountKind::PiecesHonour => "analysis-count-pieces-honour",
        }
    )
}

/// `summary`'s totals, one line a side: accuracy, average centipawn loss, and the counts of
/// inaccuracies, mistakes and blunders (`players` names White and Black).
#[must_use]
pub fn totals_text(summary: &AnalysisSummary, players: [&str; 2], locale: Locale) -> String {
    [Color::White, Color::Black]
        .into_iter()
        .zip(players)
        .map(|(side, player)| {
            let s = summary.side(side);
            match (s.accuracy, s.acpl) {
                (Some(accuracy), Some(acpl)) => tr!(
                    locale,
                    "analysis-side",
                    side = side_name(locale, side),
                    player = player,
                    accuracy = format!("{accuracy:.0}"),
                    acpl = format!("{acpl:.0}"),
                    inaccuracies = s.inaccuracies,
                    mistakes = s.mistakes,
                    blunders = s.blunders
                ),
                _ => tr!(
                    locale,
                    "analysis-side-no-moves",
                    side = side_name(locale, side),
                    player = player
                ),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Move `uci` in `pos` as `locale` reads moves (Thai notation with SAN beside it in Thai,
/// SAN otherwise); the UCI text itself if it is not a legal move there.
fn move_text(pos: &Position, uci: &str, locale: Locale) -> String {
    let Ok(m) = makruk::notation::parse_uci(pos, uci) else {
        return uci.to_owned();
    };
    let choice = MoveChoice {
        san: makruk::san::to_san(pos, &m),
        thai: makruk::san::to_thai_san(pos, &m),
    };
    match locale {
        Locale::Th => choice.thai_with_san(),
        Locale::En => choice.san,
    }
}

fn why_text(why: Why, locale: Locale, refutation: bool) -> String {
    let prefix = if refutation {
        "analysis-refutation"
    } else {
        "analysis-why"
    };
    match why {
        Why::Mate { moves } => tr!(
            locale,
            &format!("{prefix}-mate"),
            moves = moves.unsigned_abs()
        ),
        Why::WinsMaterial { piece } => tr!(
            locale,
            &format!("{prefix}-wins"),
            piece = piece_name(locale, piece)
        ),
        Why::Better { cp } => tr!(
            locale,
            &format!("{prefix}-better"),
            pawns = format!("{:.1}", f64::from(cp.max(0)) / 100.0)
        ),
    }
}

/// A key moment in a few words: the move as numbered in the game, its judgement and the drop
/// of the mover's winning chances, the best move and why, and what the played move allowed.
#[must_use]
pub fn moment_text(record: &GameRecord, m: &Moment, locale: Locale) -> String {
    let ply = m.ply as usize;
    let played = record.numbered_for(ply, ply + 1, locale);
    let before = record
        .game
        .positions()
        .get(ply)
        .cloned()
        .or_else(|| Position::from_fen(&m.fen, record.ruleset).ok());
    let best = before.as_ref().map_or_else(
        || m.best_san.clone(),
        |pos| move_text(pos, &m.best_uci, locale),
    );
    let judgement = match m.mate.as_deref() {
        Some("created") => tr!(locale, "analysis-mate-created"),
        Some("lost") => tr!(locale, "analysis-mate-lost"),
        _ => m.judgement().map_or_else(
            || tr!(locale, "analysis-judgement-none"),
            |j| {
                tr!(
                    locale,
                    &format!("analysis-judgement-{}", crate::game::judgement_text(j))
                )
            },
        ),
    };
    // A move that allowed a mate: what the best move did is avoid it.
    let why = match (m.why_best, m.refutation) {
        (Why::Better { .. }, Some(Why::Mate { .. })) => tr!(locale, "analysis-why-avoids-mate"),
        (why, _) => why_text(why, locale, false),
    };
    let mut text = tr!(
        locale,
        "analysis-moment",
        played = played,
        judgement = judgement,
        side = side_name(locale, m.mover),
        drop = format!("{:.0}", m.win_drop),
        best = best,
        why = why
    );
    if let Some(r) = m.refutation {
        text.push('\n');
        text.push_str(&tr!(
            locale,
            "analysis-refuted",
            refutation = why_text(r, locale, true)
        ));
    }
    text
}

/// Where a note is: after the move that led to position `ply` (numbered), or the start.
fn at_text(record: &GameRecord, ply: u32, locale: Locale) -> String {
    match (ply as usize).checked_sub(1) {
        Some(last) => tr!(
            locale,
            "analysis-after",
            moves = record.numbered_for(last, last + 1, locale)
        ),
        None => tr!(locale, "analysis-at-start"),
    }
}

/// A count note in a sentence.
#[must_use]
pub fn note_text(record: &GameRecord, n: &Note, locale: Locale) -> String {
    match *n {
        Note::MateBeyondCount {
            ply,
            side,
            mate_in,
            moves_left,
            kind,
        } => tr!(
            locale,
            "analysis-note-mate-beyond-count",
            at = at_text(record, ply, locale),
            side = side_name(locale, side),
            mate = mate_in,
            left = moves_left,
            count = count_name(locale, kind)
        ),
        Note::CountNotStarted { ply, side } => tr!(
            locale,
            "analysis-note-count-not-started",
            at = at_text(record, ply, locale),
            side = side_name(locale, side)
        ),
        Note::CountRanOut {
            counting,
            kind,
            limit,
            ..
        } => tr!(
            locale,
            "analysis-note-count-ran-out",
            side = side_name(locale, counting),
            count = count_name(locale, kind),
            limit = limit
        ),
    }
}

/// The line under the analysis: which engine, at what budget.
#[must_use]
pub fn engine_text(analysis: &GameAnalysis, locale: Locale) -> String {
    tr!(
        locale,
        "analysis-engine",
        engine = analysis.engine.clone(),
        nodes = grouped(analysis.nodes)
    )
}

/// `n` with its thousands grouped by commas (`100,000`), as English and Thai write numbers.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// "Analysing game #12… 40%": `searched` of `total` positions.
#[must_use]
pub fn running_text(game: i64, searched: usize, total: usize, locale: Locale) -> String {
    let percent = (searched * 100).checked_div(total).unwrap_or(0).min(100);
    tr!(locale, "analysis-running", id = game, percent = percent)
}

/// "Game #12 is #3 in line for analysis": `ahead` analyses wait before it.
#[must_use]
pub fn queued_text(game: i64, ahead: u32, locale: Locale) -> String {
    if ahead == 0 {
        tr!(locale, "analysis-next", id = game)
    } else {
        tr!(
            locale,
            "analysis-queued",
            id = game,
            place = ahead.saturating_add(1)
        )
    }
}

#[cfg(test)]
mod tests {
    use makruk::{Game, Ruleset};

    use super::{count_starts, grouped};

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(3000), "3,000");
        assert_eq!(grouped(100_000), "100,000");
        assert_eq!(grouped(1_234_567), "1,234,567");
    }

    /// A game where White's Ruea takes Black's last piece: pieces' honour starts in the
    /// position after that capture; none in the opening.
    #[test]
    fn count_starts_where_a_count_begins() {
        let opening = Game::new(Ruleset::Standard);
        assert!(count_starts(&opening).is_empty());
        let pos =
            makruk::Position::from_fen("8/8/4k3/8/3p4/8/3R4/3K4 w - - 0 1", Ruleset::Standard)
                .expect("a position");
        let mut game = Game::from_position(pos);
        assert!(count_starts(&game).is_empty(), "Black still has a Bia");
        for uci in ["d2d4", "e6e7", "d4d5"] {
            let m = makruk::notation::parse_uci(game.position(), uci).expect("legal");
            game.play(&m).expect("played");
        }
        assert_eq!(
            count_starts(&game),
            vec![1],
            "from the capture on, one count"
        );
    }
}
