//! The computer analysis of finished games (issue 23), as the game service keeps it: asking
//! for one ([`GameService::request_analysis`]: done already, or its place in the queue), the
//! queue the analysis runner works through ([`GameService::queued_analyses`], oldest first,
//! also after a restart), and storing a finished analysis ([`GameService::finish_analysis`]:
//! one row per ply and the totals). The searching itself is the runner's
//! (`crate::analysis::runner`, on the computer's thinking pool): this layer knows no engine
//! but the shape of its result.

use makruk::pgn::MoveAnnotation;
use makruk::{Color, CountKind, Game, Position, Role};
use makruk_engine::analysis::{
    Analysis, CountNote, Eval, Judgement, KeyMoment, MateSequence, Reason,
};
use serde::{Deserialize, Serialize};

use super::persist::load;
use super::{GameService, ServiceError};
use crate::store;
use crate::types::{ChannelId, GameId, MoveChoice};

/// What asking for an analysis found.
#[derive(Clone, Debug, PartialEq)]
pub enum AnalysisStatus {
    /// Stored: shown at once.
    Done(Box<GameAnalysis>),
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
    /// Where it was first asked for (where a result nobody waits for is posted).
    pub channel: Option<ChannelId>,
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

/// An analysis' totals (stored as JSON in `analyses.summary`), with its key moments and
/// count notes (an analysis stored before these were kept reads back with none).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AnalysisSummary {
    pub white: SideSummary,
    pub black: SideSummary,
    /// The side-to-move bias removed before judging (centipawns).
    pub bias_cp: i32,
    /// The engine's eval of the start position ([`eval_text`]), if it was searched.
    #[serde(default)]
    pub start_eval: Option<String>,
    /// The game's three worst moves, worst first (fewer when fewer moves lost anything).
    #[serde(default)]
    pub key_moments: Vec<Moment>,
    /// What the count meant, in the order of the game (the engine's `CountNote`s).
    #[serde(default)]
    pub notes: Vec<Note>,
}

/// One of the game's worst moves, as stored (the engine's `KeyMoment`): what was played,
/// what was best, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Moment {
    /// 0-based index of the move.
    pub ply: u32,
    /// The side that played it.
    #[serde(with = "color_serde")]
    pub mover: Color,
    /// The position before the move (FEN).
    pub fen: String,
    /// The move played, SAN and UCI.
    pub played_san: String,
    pub played_uci: String,
    /// The engine's best move there, SAN and UCI.
    pub best_san: String,
    pub best_uci: String,
    /// How much the mover's winning chances dropped (win% points, 0..100).
    pub win_drop: f64,
    /// The move's judgement, if it has one (`"inaccuracy"`, `"mistake"`, `"blunder"`).
    pub judgement: Option<String>,
    /// Set when the judgement comes from a mate: `"created"` (mate against the mover is now
    /// unavoidable) or `"lost"` (the mover had a forced mate and let it go).
    pub mate: Option<String>,
    /// Why the best move was better.
    pub why_best: Why,
    /// What the opponent's best reply to the played move does (mates or wins material).
    pub refutation: Option<Why>,
}

/// A reason, as stored (the engine's `Reason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Why {
    /// The line mates in this many moves (of the side it is good for).
    Mate { moves: i32 },
    /// The line wins this piece.
    WinsMaterial {
        #[serde(with = "role_serde")]
        piece: Role,
    },
    /// Only a better position, by `cp` centipawns for the mover.
    Better { cp: i32 },
}

/// A count note, as stored (the engine's `CountNote`; `ply` is a position index: the
/// position after `ply` moves).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "note", rename_all = "kebab-case")]
pub enum Note {
    /// `side` had a forced mate in `mate_in` moves that the running count (`moves_left` moves
    /// of the counting side) would not allow: the count draws first.
    MateBeyondCount {
        ply: u32,
        #[serde(with = "color_serde")]
        side: Color,
        mate_in: u32,
        moves_left: u32,
        #[serde(with = "count_kind_serde")]
        kind: CountKind,
    },
    /// `traditional`: `side` could have started counting board's honour here and did not.
    CountNotStarted {
        ply: u32,
        #[serde(with = "color_serde")]
        side: Color,
    },
    /// The game was drawn because `counting`'s count ran out (`limit` moves).
    CountRanOut {
        ply: u32,
        #[serde(with = "color_serde")]
        counting: Color,
        #[serde(with = "count_kind_serde")]
        kind: CountKind,
        limit: u32,
    },
}

impl Why {
    fn of(r: Reason) -> Why {
        match r {
            Reason::Mate(moves) => Why::Mate { moves },
            Reason::WinsMaterial(piece) => Why::WinsMaterial { piece },
            Reason::Better { cp } => Why::Better { cp },
        }
    }
}

impl Moment {
    fn of(k: &KeyMoment, variant: makruk::Variant) -> Moment {
        let to_uci = |m: &makruk::Move| makruk::uci::to_uci_in(m, variant);
        Moment {
            ply: u32::try_from(k.ply).unwrap_or(u32::MAX),
            mover: k.mover,
            fen: k.fen.clone(),
            played_san: k.played_san.clone(),
            played_uci: to_uci(&k.played),
            best_san: k.best_san.clone(),
            best_uci: to_uci(&k.best),
            win_drop: k.win_drop,
            judgement: k.advice.map(|a| judgement_text(a.judgement).to_owned()),
            mate: k.advice.and_then(|a| a.mate).map(|m| {
                match m {
                    MateSequence::Created => "created",
                    MateSequence::Lost => "lost",
                }
                .to_owned()
            }),
            why_best: Why::of(k.reason),
            refutation: k.refutation.map(Why::of),
        }
    }

    /// The move's judgement, if it has one.
    #[must_use]
    pub fn judgement(&self) -> Option<Judgement> {
        self.judgement.as_deref().and_then(parse_judgement)
    }
}

impl Note {
    fn of(n: &CountNote) -> Note {
        let ply = |p: usize| u32::try_from(p).unwrap_or(u32::MAX);
        match *n {
            CountNote::MateBeyondCount {
                ply: p,
                side,
                mate_in,
                moves_left,
                kind,
            } => Note::MateBeyondCount {
                ply: ply(p),
                side,
                mate_in,
                moves_left,
                kind,
            },
            CountNote::CountNotStarted { ply: p, side } => {
                Note::CountNotStarted { ply: ply(p), side }
            }
            CountNote::CountRanOut {
                ply: p,
                counting,
                kind,
                limit,
            } => Note::CountRanOut {
                ply: ply(p),
                counting,
                kind,
                limit,
            },
        }
    }
}

/// `Color` as `"white"` / `"black"` in stored JSON.
mod color_serde {
    use makruk::Color;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(super::color_text(*c))
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        match String::deserialize(d)?.as_str() {
            "white" => Ok(Color::White),
            "black" => Ok(Color::Black),
            other => Err(serde::de::Error::custom(format!("not a side: {other:?}"))),
        }
    }
}

/// `CountKind` as `"boards-honour"` / `"pieces-honour"` in stored JSON.
mod count_kind_serde {
    use makruk::CountKind;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(k: &CountKind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match k {
            CountKind::BoardsHonour => "boards-honour",
            CountKind::PiecesHonour => "pieces-honour",
        })
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<CountKind, D::Error> {
        match String::deserialize(d)?.as_str() {
            "boards-honour" => Ok(CountKind::BoardsHonour),
            "pieces-honour" => Ok(CountKind::PiecesHonour),
            other => Err(serde::de::Error::custom(format!("not a count: {other:?}"))),
        }
    }
}

/// `Role` as its English name (`"ruea"`, `"ma"`, …) in stored JSON.
mod role_serde {
    use makruk::Role;
    use serde::{Deserialize, Deserializer, Serializer};

    const NAMES: [(Role, &str); 6] = [
        (Role::Khun, "khun"),
        (Role::Met, "met"),
        (Role::Khon, "khon"),
        (Role::Ma, "ma"),
        (Role::Ruea, "ruea"),
        (Role::Bia, "bia"),
    ];

    pub(super) fn serialize<S: Serializer>(r: &Role, s: S) -> Result<S::Ok, S::Error> {
        let name = NAMES.iter().find(|(x, _)| x == r).map_or("bia", |(_, n)| n);
        s.serialize_str(name)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Role, D::Error> {
        let name = String::deserialize(d)?;
        NAMES
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(r, _)| *r)
            .ok_or_else(|| serde::de::Error::custom(format!("not a piece: {name:?}")))
    }
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
            start_eval: a.start_eval.map(eval_text),
            key_moments: a
                .key_moments
                .iter()
                .map(|k| Moment::of(k, a.variant))
                .collect(),
            notes: a.notes.iter().map(Note::of).collect(),
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
/// `$4` (`??`). The PGN writer writes them as `$N` tokens, PGN's export format
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
    /// the channel's last finished game) by `engine` at `nodes` per position: [`AnalysisStatus::Done`]
    /// when one by that engine and budget is stored, else it is queued (once: asking again
    /// keeps its place) and its place in line is returned. The result will be posted in
    /// `channel`.
    ///
    /// # Errors
    /// [`ServiceError::NoGameHere`], [`ServiceError::GameNotFound`],
    /// [`ServiceError::GameNotOver`] (a game is analysed once it is over),
    /// [`ServiceError::NothingToAnalyse`] (it ended before its first move), `Internal`.
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
                Some(id) => store::game_of_channel(&mut tx, channel, id)
                    .await?
                    .ok_or(ServiceError::GameNotFound)?,
                // The last finished game; a game still running is named only when there is
                // none (then it is refused as not over).
                None => match store::finished_games(&mut tx, channel, 1).await?.pop() {
                    Some(row) => row,
                    None => store::last_game_of_channel(&mut tx, channel)
                        .await?
                        .ok_or(ServiceError::NoGameHere)?,
                },
            };
            tx.commit().await?;
            row
        };
        if super::loaded::game_end(&row).is_none() {
            return Err(ServiceError::GameNotOver(row.id));
        }
        if row.plies == 0 {
            return Err(ServiceError::NothingToAnalyse(row.id));
        }
        let nodes_i = i64::try_from(nodes).unwrap_or(i64::MAX);
        let mut tx = self.store.begin_write().await?;
        let existing = store::analysis(&mut tx, row.id).await?;
        let wanted = |a: &store::AnalysisRow| a.engine == engine && a.nodes == nodes_i;
        let a = match existing {
            Some(a) if wanted(&a) && a.done => {
                let plies = store::analysis_plies(&mut tx, row.id).await?;
                tx.commit().await?;
                return Ok(AnalysisStatus::Done(Box::new(stored(a, plies)?)));
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

    /// Where game `game`'s analysis is: [`AnalysisStatus::Done`] (by any engine),
    /// [`AnalysisStatus::Queued`] with its place in line, or `None` (never asked for). Reads
    /// only: a waiting message follows its analysis with it.
    ///
    /// # Errors
    /// `Internal`.
    pub async fn analysis_state(
        &self,
        game: GameId,
    ) -> Result<Option<AnalysisStatus>, ServiceError> {
        let mut tx = self.store.begin_read().await?;
        let Some(a) = store::analysis(&mut tx, game).await? else {
            return Ok(None);
        };
        let state = if a.done {
            let plies = store::analysis_plies(&mut tx, game).await?;
            AnalysisStatus::Done(Box::new(stored(a, plies)?))
        } else {
            let ahead = store::analyses_ahead(&mut tx, &a).await?;
            AnalysisStatus::Queued {
                game_id: game,
                ahead: u32::try_from(ahead).unwrap_or(u32::MAX),
            }
        };
        tx.commit().await?;
        Ok(Some(state))
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
        channel: a.channel_id,
        engine: a.engine,
        nodes: u64::try_from(a.nodes).unwrap_or(0),
        plies,
        summary,
    })
}
