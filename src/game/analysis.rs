//! The computer analysis of finished games (issue 23), as the game service keeps it: asking
//! for one ([`GameService::request_analysis`]: done already, or its place in the queue), the
//! queue the analysis runner works through ([`GameService::queued_analyses`], oldest first,
//! also after a restart), and storing a finished analysis ([`GameService::finish_analysis`]:
//! one row per ply and the totals). The searching itself is the runner's
//! (`crate::analysis::runner`, on the computer's thinking pool): this layer knows no engine
//! but the shape of its result.

use makruk::pgn::MoveAnnotation;
use makruk::{Color, Game, Position};
use makruk_engine::analysis::{Analysis, Eval, Judgement};
use serde::{Deserialize, Serialize};

use super::persist::load;
use super::{GameService, ServiceError};
use crate::store;
use crate::types::{ChannelId, GameId, MoveChoice};

/// What asking for an analysis found.
#[derive(Clone, Debug, PartialEq)]
pub enum AnalysisStatus {
    /// Stored: shown at once.
    Done(GameAnalysis),
    /// Waiting for the runner (or being made): `ahead` analyses were asked for before it.
    Queued {
        /// The game.
        game_id: GameId,
        /// Analyses before it in line (0: it is next, or running).
        ahead: u32,
    },
}

/// A stored analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct GameAnalysis {
    /// The game.
    pub game_id: GameId,
    /// The engine's name and version that made it.
    pub engine: String,
    /// Its search budget per position (nodes).
    pub nodes: u64,
    /// Every analysed ply, in order (ply 0 is the first move).
    pub plies: Vec<AnalysedPly>,
    /// The totals.
    pub summary: AnalysisSummary,
}

/// One analysed ply as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysedPly {
    /// 0-based.
    pub ply: u32,
    /// The position after the move, White's view (bias not removed).
    pub eval: Eval,
    /// The engine's best move (UCI) in the position before the move.
    pub best: Option<String>,
    /// lichess's judgement of the move, if it was one.
    pub judgement: Option<Judgement>,
    /// The move's accuracy (0..100).
    pub accuracy: f64,
    /// The mover's centipawn loss.
    pub cp_loss: u32,
}

/// One side's totals.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SideSummary {
    /// Game accuracy, 0..100 (`None`: no move).
    pub accuracy: Option<f64>,
    /// Average centipawn loss (`None`: no move).
    pub acpl: Option<f64>,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
}

/// An analysis' totals (stored as JSON in `analyses.summary`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AnalysisSummary {
    pub white: SideSummary,
    pub black: SideSummary,
    /// The side-to-move bias removed before judging (centipawns).
    pub bias_cp: i32,
}

impl AnalysisSummary {
    /// The totals of `a`.
    #[must_use]
    pub fn of(a: &Analysis) -> AnalysisSummary {
        let side = |c: Color| {
            let counts = a.summary.counts.get(c);
            SideSummary {
                accuracy: *a.summary.accuracy.get(c),
                acpl: *a.summary.acpl.get(c),
                inaccuracies: counts.inaccuracies,
                mistakes: counts.mistakes,
                blunders: counts.blunders,
            }
        };
        AnalysisSummary {
            white: side(Color::White),
            black: side(Color::Black),
            bias_cp: a.summary.bias_cp,
        }
    }

    /// `side`'s totals.
    #[must_use]
    pub fn side(&self, side: Color) -> &SideSummary {
        match side {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

impl GameAnalysis {
    /// The PGN annotation of every ply of the analysed game, index = ply (0-based, as
    /// [`AnalysedPly::ply`]), `moves` long (the game's number of plies): lichess's eval
    /// comment (`[%eval …]`, [`pgn_eval`]) and the NAG of the move's judgement, if any
    /// ([`judgement_nag`]); a ply the analysis has no row for (it stops at the first end by
    /// the rules) is left bare. `None` when the analysis has a ply the game has not (the
    /// analysis of another game), so that no annotation lands on the wrong move.
    ///
    /// lichess adds the evals in `Annotator.addEvals` (github.com/lichess-org/lila,
    /// `modules/analyse/src/main/Annotator.scala`) and the glyphs of its judgements in
    /// `annotateTurns` there; its textual advice comments and variations are not written here.
    #[must_use]
    pub fn pgn_annotations(&self, moves: usize) -> Option<Vec<MoveAnnotation>> {
        let mut notes = vec![MoveAnnotation::default(); moves];
        for p in &self.plies {
            *notes.get_mut(p.ply as usize)? = MoveAnnotation {
                nag: p.judgement.map(judgement_nag),
                comment: Some(format!("[%eval {}]", pgn_eval(p.eval))),
            };
        }
        Some(notes)
    }
}

/// The NAG of a judgement, lichess's glyph for it (scalachess `Glyph.MoveAssessment`, which
/// lichess's `Advice.Judgement` names): inaccuracy `$6` (`?!`), mistake `$2` (`?`), blunder
/// `$4` (`??`). The PGN writer writes these three as the symbols, as lichess does
/// ([`makruk::pgn::MoveAnnotation`]).
#[must_use]
pub fn judgement_nag(j: Judgement) -> u8 {
    match j {
        Judgement::Inaccuracy => 6,
        Judgement::Mistake => 2,
        Judgement::Blunder => 4,
    }
}

/// The value of a PGN `[%eval …]` comment for `e` (White's view), as lichess writes it
/// (`Info.pgnComment` in github.com/lichess-org/lila, `modules/analyse/src/main/Info.scala`):
///
/// - centipawns as pawns, the way the JVM prints `cp / 100f` (`Float.toString`): the
///   shortest decimal, with at least one digit after the point: `135` → `1.35`, `-130` →
///   `-1.3`, `200` → `2.0`, `0` → `0.0`, `-5` → `-0.05` (exact for any eval under 10⁷ pawns);
/// - a forced mate as `#N`, `N` in **moves**, negative when Black mates (`#3`, `#-3`);
/// - a position that is checkmate on the board as `#0` (lichess's `Score.mated`, exported as
///   mate 0 by `WhiteScore.exportMate` in scalachess's `eval.scala`).
///
/// ```
/// use makruk_bot::game::pgn_eval;
/// use makruk_bot::game::Eval;
/// assert_eq!(pgn_eval(Eval::Cp(-135)), "-1.35");
/// assert_eq!(pgn_eval(Eval::Cp(200)), "2.0");
/// assert_eq!(pgn_eval(Eval::Mate(-3)), "#-3");
/// ```
#[must_use]
pub fn pgn_eval(e: Eval) -> String {
    match e {
        Eval::Cp(cp) => {
            let sign = if cp < 0 { "-" } else { "" };
            let (whole, hundredths) = (cp.unsigned_abs() / 100, cp.unsigned_abs() % 100);
            if hundredths % 10 == 0 {
                format!("{sign}{whole}.{}", hundredths / 10)
            } else {
                format!("{sign}{whole}.{hundredths:02}")
            }
        }
        Eval::Mate(n) => format!("#{n}"),
        Eval::Checkmate { .. } => "#0".to_owned(),
    }
}

/// What the analysis says of one ply, for `/replay` ([`crate::game::GameRecord::review`]).
#[derive(Clone, Debug, PartialEq)]
pub struct PlyReview {
    /// The eval of the position after the move, White's view (as stored, [`AnalysedPly::eval`]).
    pub eval: Eval,
    /// The engine's best move in the position before the move, in SAN and Thai SAN; `None`
    /// when the analysis has none (or one that is not legal there).
    pub best: Option<MoveChoice>,
    /// Whether the move played was that best move.
    pub best_played: bool,
    /// lichess's judgement of the move, if it was one.
    pub judgement: Option<Judgement>,
}

impl PlyReview {
    /// The review of `analysed`, the move `played` from `before`.
    #[must_use]
    pub fn of(analysed: &AnalysedPly, before: &Position, played: &makruk::Move) -> PlyReview {
        let best = analysed
            .best
            .as_deref()
            .and_then(|uci| makruk::parse_move(before, uci).ok());
        PlyReview {
            eval: analysed.eval,
            best: best.as_ref().map(|m| MoveChoice {
                san: makruk::san::to_san(before, m),
                thai: makruk::san::to_thai_san(before, m),
            }),
            best_played: best.as_ref() == Some(played),
            judgement: analysed.judgement,
        }
    }
}

/// A queued analysis for the runner.
#[derive(Clone, Debug)]
pub struct QueuedAnalysis {
    pub game_id: GameId,
    /// The game as played (start, moves, count requests).
    pub game: Game,
    /// Where it was asked for (`None`: nobody waits).
    pub channel: Option<ChannelId>,
    /// The engine and budget it was asked of.
    pub engine: String,
    pub nodes: u64,
}

/// The stored text of an eval (see migration 0010).
#[must_use]
pub fn eval_text(e: Eval) -> String {
    match e {
        Eval::Cp(cp) => format!("cp:{cp}"),
        Eval::Mate(n) => format!("mate:{n}"),
        Eval::Checkmate { winner } => format!("checkmate:{}", color_text(winner)),
    }
}

fn color_text(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The eval of a stored text ([`eval_text`]); `None` for anything else.
#[must_use]
pub fn parse_eval(text: &str) -> Option<Eval> {
    let (kind, value) = text.split_once(':')?;
    match kind {
        "cp" => value.parse().ok().map(Eval::Cp),
        "mate" => value.parse().ok().filter(|&n| n != 0).map(Eval::Mate),
        "checkmate" => match value {
            "white" => Some(Eval::Checkmate {
                winner: Color::White,
            }),
            "black" => Some(Eval::Checkmate {
                winner: Color::Black,
            }),
            _ => None,
        },
        _ => None,
    }
}

/// The stored text of a judgement.
#[must_use]
pub fn judgement_text(j: Judgement) -> &'static str {
    match j {
        Judgement::Inaccuracy => "inaccuracy",
        Judgement::Mistake => "mistake",
        Judgement::Blunder => "blunder",
    }
}

fn parse_judgement(text: &str) -> Option<Judgement> {
    match text {
        "inaccuracy" => Some(Judgement::Inaccuracy),
        "mistake" => Some(Judgement::Mistake),
        "blunder" => Some(Judgement::Blunder),
        _ => None,
    }
}

impl GameService {
    /// Asks for the analysis of game `game` of `channel` (or of one of its threads; `None`:
    /// the channel's last game) by `engine` at `nodes` per position: [`AnalysisStatus::Done`]
    /// when one by that engine and budget is stored, else it is queued (once: asking again
    /// keeps its place) and its place in line is returned. The result will be posted in
    /// `channel`.
    ///
    /// # Errors
    /// [`ServiceError::NoGameHere`], [`ServiceError::GameNotFound`],
    /// [`ServiceError::GameNotOver`] (a game is analysed once it is over), `Internal`.
    #[tracing::instrument(skip(self))]
    pub async fn request_analysis(
        &self,
        channel: ChannelId,
        game: Option<GameId>,
        engine: &str,
        nodes: u64,
    ) -> Result<AnalysisStatus, ServiceError> {
        let row = {
            let mut tx = self.store.begin_read().await?;
            let row = match game {
                Some(id) => store::game_of_channel(&mut tx, channel, id).await?,
                None => store::last_game_of_channel(&mut tx, channel).await?,
            };
            tx.commit().await?;
            row.ok_or(match game {
                Some(_) => ServiceError::GameNotFound,
                None => ServiceError::NoGameHere,
            })?
        };
        if super::loaded::game_end(&row).is_none() {
            return Err(ServiceError::GameNotOver(row.id));
        }
        let nodes_i = i64::try_from(nodes).unwrap_or(i64::MAX);
        let mut tx = self.store.begin_write().await?;
        let existing = store::analysis(&mut tx, row.id).await?;
        let wanted = |a: &store::AnalysisRow| a.engine == engine && a.nodes == nodes_i;
        let a = match existing {
            Some(a) if wanted(&a) && a.done => {
                let plies = store::analysis_plies(&mut tx, row.id).await?;
                tx.commit().await?;
                return Ok(AnalysisStatus::Done(stored(a, plies)?));
            }
            Some(a) if wanted(&a) => a,
            _ => {
                let now = self.now_ms();
                store::queue_analysis(&mut tx, row.id, now, Some(channel), engine, nodes_i).await?;
                store::analysis(&mut tx, row.id)
                    .await?
                    .ok_or_else(|| anyhow::anyhow!("analysis of game {} not queued", row.id.0))?
            }
        };
        let ahead = store::analyses_ahead(&mut tx, &a).await?;
        tx.commit().await?;
        Ok(AnalysisStatus::Queued {
            game_id: row.id,
            ahead: u32::try_from(ahead).unwrap_or(u32::MAX),
        })
    }

    /// The stored analysis of `game`, if one is done (by any engine).
    ///
    /// # Errors
    /// `Internal` (a stored row that cannot be read back).
    pub async fn stored_analysis(
        &self,
        game: GameId,
    ) -> Result<Option<GameAnalysis>, ServiceError> {
        let mut tx = self.store.begin_read().await?;
        let Some(a) = store::analysis(&mut tx, game).await? else {
            return Ok(None);
        };
        if !a.done {
            return Ok(None);
        }
        let plies = store::analysis_plies(&mut tx, game).await?;
        tx.commit().await?;
        Ok(Some(stored(a, plies)?))
    }

    /// The queued analyses, oldest request first, with their games: the runner's work, also
    /// what a restart finds unfinished.
    ///
    /// # Errors
    /// `Internal`.
    pub async fn queued_analyses(&self) -> Result<Vec<QueuedAnalysis>, ServiceError> {
        let mut tx = self.store.begin_read().await?;
        let rows = store::queued_analyses(&mut tx).await?;
        let mut out = Vec::with_capacity(rows.len());
        for a in rows {
            let Some(row) = store::game(&mut tx, a.game_id).await? else {
                continue;
            };
            let g = load(&self.cache, &mut tx, row).await?;
            out.push(QueuedAnalysis {
                game_id: a.game_id,
                game: g.m,
                channel: a.channel_id,
                engine: a.engine,
                nodes: u64::try_from(a.nodes).unwrap_or(0),
            });
        }
        tx.commit().await?;
        Ok(out)
    }

    /// Stores `analysis`, made by `engine` at `nodes` per position, as game `game`'s: one
    /// row per ply and the totals. Only if that analysis is still queued (not stored twice,
    /// and a request for another engine or budget meanwhile keeps its own); returns whether
    /// it was stored.
    ///
    /// # Errors
    /// `Internal`.
    pub async fn finish_analysis(
        &self,
        game: GameId,
        engine: &str,
        nodes: u64,
        analysis: &Analysis,
    ) -> Result<bool, ServiceError> {
        let summary = serde_json::to_string(&AnalysisSummary::of(analysis))
            .map_err(|e| anyhow::anyhow!("analysis summary: {e}"))?;
        let plies: Vec<store::AnalysisPlyRow> = analysis
            .plies
            .iter()
            .map(|p| store::AnalysisPlyRow {
                ply: p.ply as i64,
                eval: eval_text(p.eval),
                best: p.best_uci.clone(),
                judgement: p
                    .judged
                    .advice
                    .map(|a| judgement_text(a.judgement).to_owned()),
                accuracy: p.judged.accuracy,
                cp_loss: i64::from(p.judged.cp_loss),
            })
            .collect();
        let now = self.now_ms();
        let mut tx = self.store.begin_write().await?;
        let done = store::finish_analysis(
            &mut tx,
            game,
            engine,
            i64::try_from(nodes).unwrap_or(i64::MAX),
            &summary,
            now,
            &plies,
        )
        .await?;
        tx.commit().await?;
        Ok(done)
    }
}

/// The stored rows as an analysis.
fn stored(
    a: store::AnalysisRow,
    plies: Vec<store::AnalysisPlyRow>,
) -> Result<GameAnalysis, ServiceError> {
    let game = a.game_id.0;
    let bad = |what: &str| anyhow::anyhow!("stored analysis of game {game}: {what}");
    let summary: AnalysisSummary = serde_json::from_str(a.summary.as_deref().unwrap_or(""))
        .map_err(|e| bad(&format!("summary: {e}")))?;
    let plies = plies
        .into_iter()
        .map(|p| {
            Ok(AnalysedPly {
                ply: u32::try_from(p.ply).map_err(|_| bad("ply"))?,
                eval: parse_eval(&p.eval).ok_or_else(|| bad(&format!("eval {:?}", p.eval)))?,
                best: p.best,
                judgement: match p.judgement.as_deref() {
                    None => None,
                    Some(j) => Some(parse_judgement(j).ok_or_else(|| bad("judgement"))?),
                },
                accuracy: p.accuracy,
                cp_loss: u32::try_from(p.cp_loss).unwrap_or(0),
            })
        })
        .collect::<Result<Vec<_>, anyhow::Error>>()?;
    Ok(GameAnalysis {
        game_id: a.game_id,
        engine: a.engine,
        nodes: u64::try_from(a.nodes).unwrap_or(0),
        plies,
        summary,
    })
}
