//! Reads that change nothing: the board, move suggestions, the channel's history, PGN export,
//! a game's record (replay, GIF), the rules.

use anyhow::anyhow;

use super::loaded::{game_end, Loaded};
use super::persist::{load, load_active, load_current_or_last};
use super::{
    text, ChannelId, Event, GameAnalysis, GameEnd, GameId, GameService, GameSummary, MoveChoice,
    PgnExport, PlyReview, Position, Reply, RulesTopic, Ruleset, ServiceError, UserId, Variant,
    MAX_SUGGESTIONS,
};
use crate::i18n::Locale;
use crate::store;
use crate::tr;

impl GameService {
    /// The channel's game as it stands (event [`Event::Shown`]). If no game is active, the
    /// channel's last finished game.
    ///
    /// # Errors
    /// [`ServiceError::NoGameHere`], `Internal`.
    #[tracing::instrument(skip(self))]
    pub async fn board(&self, channel: ChannelId) -> Result<Reply, ServiceError> {
        let mut tx = self.store.begin_read().await?;
        let mut g = load_current_or_last(&self.cache, &mut tx, channel).await?;
        tx.commit().await?;
        g.now_ms = self.now_ms();
        Ok(g.reply(Event::Shown, None, None))
    }

    /// Legal moves for autocomplete: only for the player to move, those whose SAN, Thai SAN or
    /// UCI starts with `prefix` (case-insensitive; empty = all), checks first, then captures,
    /// at most [`MAX_SUGGESTIONS`], each in SAN and in Thai notation ([`MoveChoice`]: the
    /// adapter shows the Thai one, SAN beside it, to Thai players). Empty on any error.
    pub async fn legal_move_choices(
        &self,
        channel: ChannelId,
        user: UserId,
        prefix: &str,
    ) -> Vec<MoveChoice> {
        match self.try_legal_move_choices(channel, user, prefix).await {
            Ok(v) => v,
            Err(e) => {
                if !e.is_user_error() {
                    tracing::error!(error = %e, "listing legal moves");
                }
                Vec::new()
            }
        }
    }

    /// [`GameService::legal_move_choices`] as one string each: SAN, or Thai SAN (`ม-ง๒`) when
    /// `prefix` is written in Thai letters.
    pub async fn legal_moves_san(
        &self,
        channel: ChannelId,
        user: UserId,
        prefix: &str,
    ) -> Vec<String> {
        let thai = !prefix.trim().is_ascii();
        self.legal_move_choices(channel, user, prefix)
            .await
            .into_iter()
            .map(|c| if thai { c.thai } else { c.san })
            .collect()
    }

    async fn try_legal_move_choices(
        &self,
        channel: ChannelId,
        user: UserId,
        prefix: &str,
    ) -> Result<Vec<MoveChoice>, ServiceError> {
        let mut tx = self.store.begin_read().await?;
        let g = load_active(&self.cache, &mut tx, channel).await?;
        tx.commit().await?;
        let side = g.side_of(user)?;
        let pos = g.m.position();
        if pos.turn() != side {
            return Err(ServiceError::NotYourTurn);
        }
        Ok(move_choices(pos, prefix, false))
    }

    /// The rules of `ruleset` on `topic`, in `locale` (Markdown, from `i18n/*/rules.ftl`); for a
    /// variant other than Makruk, that variant's one explanation whatever the topic.
    #[must_use]
    pub fn rules_text(
        &self,
        variant: Variant,
        ruleset: Ruleset,
        topic: RulesTopic,
        locale: Locale,
    ) -> String {
        if variant != Variant::Makruk {
            return tr!(locale, &format!("rules-variant-{}", variant.name()));
        }
        text::rules_text(ruleset, topic, locale)
    }

    /// The last `limit` finished games of `channel`, newest first.
    ///
    /// # Errors
    /// `Internal` only.
    #[tracing::instrument(skip(self))]
    pub async fn recent_games(
        &self,
        channel: ChannelId,
        limit: u32,
    ) -> Result<Vec<GameSummary>, ServiceError> {
        let mut tx = self.store.begin_read().await?;
        let rows = store::finished_games(&mut tx, channel, i64::from(limit)).await?;
        tx.commit().await?;
        rows.iter()
            .map(|r| {
                let end = game_end(r)
                    .ok_or_else(|| anyhow!("finished game {} without result", r.id.0))?;
                Ok(GameSummary {
                    id: r.id,
                    white: r.white_id,
                    black: r.black_id,
                    ruleset: r.ruleset,
                    variant: r.variant,
                    time_control: r.time_control,
                    result: end.result,
                    reason: end.reason,
                    plies: u32::try_from(r.plies).unwrap_or(0),
                    started_at: r.created_at,
                    finished_at: r.finished_at.unwrap_or(r.updated_at),
                })
            })
            .collect()
    }

    /// PGN (pychess form) and analysis link of game `game` of `channel` (or of one of its
    /// threads), or of the channel's current (else last) game when `game` is `None`. The
    /// players are written as `names` gives them (the White and Black tags, as lichess writes
    /// its players' names). A game with a stored analysis ([`GameService::stored_analysis`])
    /// has after each move its judgement's NAG (`$6` `$2` `$4`) and its `[%eval …]` comment,
    /// as lichess writes evals ([`super::GameAnalysis::pgn_annotations`]).
    ///
    /// # Errors
    /// [`ServiceError::NoGameHere`], [`ServiceError::GameNotFound`] (no such game in this
    /// channel), `Internal`.
    #[tracing::instrument(skip(self, names))]
    pub async fn pgn(
        &self,
        channel: ChannelId,
        game: Option<GameId>,
        names: &(dyn Fn(UserId) -> String + Sync),
    ) -> Result<PgnExport, ServiceError> {
        let g = self.load_game(channel, game).await?;
        let end = game_end(&g.row);
        let result = end.map_or("*", |e| e.result.pgn());
        let termination = end.map_or("unterminated", |e| e.reason.pgn_termination());
        let tags = makruk::pgn::PgnTags {
            event: if g.m.start().variant() == Variant::Makruk {
                format!("Makruk ({})", g.m.ruleset().name())
            } else {
                text::variant_name(Locale::En, g.m.start().variant())
            },
            site: "Discord".into(),
            date: text::pgn_date(g.row.created_at),
            round: "-".into(),
            white: names(g.white()),
            black: names(g.black()),
            result: Some(result.into()),
            // The variant's rules are its own: a Ruleset tag only for Makruk (the rules
            // crate writes pychess's Variant tag).
            extra: [
                (g.m.start().variant() == Variant::Makruk)
                    .then(|| ("Ruleset".into(), g.m.ruleset().name().into())),
                Some(("TimeControl".into(), g.row.time_control.pgn_tag())),
                Some(("Termination".into(), termination.into())),
            ]
            .into_iter()
            .flatten()
            .collect(),
        };
        // An analysed game carries its evals and judgements as lichess exports them; any
        // other game's text is the plain one.
        let notes = self
            .stored_analysis(g.row.id)
            .await?
            .and_then(|a| a.pgn_annotations(g.m.moves().len()))
            .unwrap_or_default();
        let pgn = makruk::pgn::write_pgn_annotated(&g.m, &tags, &notes);
        Ok(PgnExport {
            game_id: g.row.id,
            pgn,
            analysis_url: makruk::analysis_url(g.m.position()),
        })
    }

    /// Game `game` of `channel` (its moves and the positions after each, for `/replay`, `/gif`
    /// and `/board`'s move list), or the channel's current (else last) game when `None`.
    ///
    /// # Errors
    /// As [`GameService::pgn`].
    #[tracing::instrument(skip(self))]
    pub async fn record(
        &self,
        channel: ChannelId,
        game: Option<GameId>,
    ) -> Result<GameRecord, ServiceError> {
        let g = self.load_game(channel, game).await?;
        let analysis = self.stored_analysis(g.row.id).await?;
        Ok(GameRecord {
            analysis,
            game_id: g.row.id,
            white: g.white(),
            black: g.black(),
            ruleset: g.m.ruleset(),
            end: game_end(&g.row),
            game: g.m,
        })
    }

    async fn load_game(
        &self,
        channel: ChannelId,
        game: Option<GameId>,
    ) -> Result<Loaded, ServiceError> {
        let mut tx = self.store.begin_read().await?;
        let g = match game {
            Some(id) => match store::game_of_channel(&mut tx, channel, id).await? {
                Some(row) => load(&self.cache, &mut tx, row).await?,
                None => return Err(ServiceError::GameNotFound),
            },
            None => load_current_or_last(&self.cache, &mut tx, channel).await?,
        };
        tx.commit().await?;
        Ok(g)
    }
}

/// A whole game as played so far: what `/replay` and `/gif` show.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub game_id: GameId,
    pub white: UserId,
    pub black: UserId,
    pub ruleset: Ruleset,
    /// `None` while the game is being played.
    pub end: Option<GameEnd>,
    /// Start position, moves and the position after each ply.
    pub game: makruk::Game,
    /// The game's stored computer analysis, if it has one (see [`GameRecord::review`]).
    pub analysis: Option<GameAnalysis>,
}

impl GameRecord {
    /// The SAN of ply `ply` (1 = White's first move), Fairy-Stockfish form; `None` outside the
    /// game.
    #[must_use]
    pub fn san(&self, ply: usize) -> Option<String> {
        let i = ply.checked_sub(1)?;
        let m = self.game.moves().get(i)?;
        Some(makruk::san::to_san(&self.game.positions()[i], m))
    }

    /// The Thai SAN of ply `ply` (`ม-ง๒`, [`makruk::san::to_thai_san`]); `None` outside the
    /// game.
    #[must_use]
    pub fn thai_san(&self, ply: usize) -> Option<String> {
        let i = ply.checked_sub(1)?;
        let m = self.game.moves().get(i)?;
        Some(makruk::san::to_thai_san(&self.game.positions()[i], m))
    }

    /// What the stored analysis says of ply `ply` (1 = White's first move, as
    /// [`GameRecord::san`]): the eval after it, the engine's best move before it and the
    /// judgement. `None` without an analysis, outside the game, or if the analysis has no row
    /// for that ply.
    #[must_use]
    pub fn review(&self, ply: usize) -> Option<PlyReview> {
        let i = ply.checked_sub(1)?;
        let played = self.game.moves().get(i)?;
        let analysed = self
            .analysis
            .as_ref()?
            .plies
            .iter()
            .find(|p| p.ply as usize == i)?;
        Some(PlyReview::of(analysed, &self.game.positions()[i], played))
    }

    /// Plies `from + 1 ..= to` numbered as in PGN (`12. Nc3 Rd8 13. …`; a Black ply first is
    /// `12... Rd8`), the move number counted from the start position's. Always SAN: PGN's.
    #[must_use]
    pub fn numbered(&self, from: usize, to: usize) -> String {
        self.numbered_with(from, to, |ply| self.san(ply))
    }

    /// [`GameRecord::numbered`] as a reader of `locale` reads moves: in Thai, each ply in Thai
    /// notation with its SAN beside it (`12. ม-ค๓ (Nc3) ร-ง๘ (Rd8)`), as the move announcement
    /// shows it; otherwise SAN (issue 21: Thai players saw only SAN under `/board` and in
    /// `/replay`).
    #[must_use]
    pub fn numbered_for(&self, from: usize, to: usize, locale: Locale) -> String {
        match locale {
            Locale::Th => self.numbered_with(from, to, |ply| {
                let choice = MoveChoice {
                    san: self.san(ply)?,
                    thai: self.thai_san(ply)?,
                };
                Some(choice.thai_with_san())
            }),
            _ => self.numbered(from, to),
        }
    }

    fn numbered_with(
        &self,
        from: usize,
        to: usize,
        write: impl Fn(usize) -> Option<String>,
    ) -> String {
        // Plies since the start of the game the start position says (its fullmove number).
        let start = u64::from(self.game.start().game_ply());
        let mut out = Vec::new();
        for ply in from + 1..=to.min(self.game.moves().len()) {
            let Some(san) = write(ply) else { break };
            let k = start + ply as u64 - 1;
            let number = k / 2 + 1;
            if k.is_multiple_of(2) {
                out.push(format!("{number}. {san}"));
            } else if ply == from + 1 {
                out.push(format!("{number}... {san}"));
            } else {
                out.push(san);
            }
        }
        out.join(" ")
    }
}

/// The legal moves of `pos` whose SAN, Thai SAN or UCI starts with `prefix` (any case), as
/// autocomplete offers them: checks and mates first, then captures, then the rest, each by
/// SAN (by Thai SAN when `prefix` is Thai); at most [`MAX_SUGGESTIONS`]. `hide_checks` (a
/// puzzle's answer): no `+`/`#` shown and checks not put first, which would give the answer
/// away; captures still first.
pub(crate) fn move_choices(pos: &Position, prefix: &str, hide_checks: bool) -> Vec<MoveChoice> {
    let prefix = prefix.trim().to_lowercase();
    // Thai letters sort the Thai way; Latin ones by SAN.
    let thai = !prefix.is_ascii();
    let mut moves: Vec<(u8, String, MoveChoice)> = pos
        .legal_moves()
        .into_iter()
        .filter_map(|mv| {
            let mut choice = MoveChoice {
                san: makruk::san::to_san(pos, &mv),
                thai: makruk::san::to_thai_san(pos, &mv),
            };
            if hide_checks {
                for text in [&mut choice.san, &mut choice.thai] {
                    let kept = text.trim_end_matches(['+', '#']).len();
                    text.truncate(kept);
                }
            }
            let rank = if choice.san.ends_with('#') || choice.san.ends_with('+') {
                0
            } else if mv.is_capture() {
                1
            } else {
                2
            };
            let uci = makruk::uci::to_uci_in(&mv, pos.variant()).to_lowercase();
            let matches = choice.san.to_lowercase().starts_with(&prefix)
                || choice.thai.to_lowercase().starts_with(&prefix)
                || uci.starts_with(&prefix);
            // Drops (Sittuyin's placement) by square, every piece at each: the first
            // suggestions then show all the pieces to place, not only the first letters'.
            let key = if mv.is_drop() {
                format!("{:02}{}", mv.to.index(), choice.san)
            } else if thai {
                choice.thai.clone()
            } else {
                choice.san.clone()
            };
            matches.then_some((rank, key, choice))
        })
        .collect();
    moves.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    moves
        .into_iter()
        .take(MAX_SUGGESTIONS)
        .map(|(_, _, c)| c)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(fen: Option<&str>, sans: &[&str]) -> GameRecord {
        let start = fen.map_or_else(makruk::Position::new, |f| {
            makruk::Position::from_fen(f, Ruleset::Standard).expect("FEN")
        });
        let mut game = makruk::Game::from_position(start);
        for san in sans {
            let m = makruk::parse_move(game.position(), san).expect("legal");
            game.play(&m).expect("legal");
        }
        GameRecord {
            game_id: GameId(1),
            white: UserId(1),
            black: UserId(2),
            ruleset: Ruleset::Standard,
            end: None,
            game,
            analysis: None,
        }
    }

    #[test]
    fn moves_are_numbered_as_in_pgn() {
        let r = record(None, &["Rh2", "Ne7", "Rh1", "Nd5", "Nd2"]);
        assert_eq!(r.numbered(0, 5), "1. Rh2 Ne7 2. Rh1 Nd5 3. Nd2");
        assert_eq!(r.numbered(1, 3), "1... Ne7 2. Rh1");
        assert_eq!(r.numbered(3, 99), "2... Nd5 3. Nd2");
        assert_eq!(r.numbered(5, 5), "");
        assert_eq!(r.san(0), None);
        assert_eq!(r.san(5).as_deref(), Some("Nd2"));
        assert_eq!(r.san(6), None);
        // From a FEN with Black to move at move 24.
        let r = record(Some("4k3/8/8/8/8/8/8/K3R3 b - - 0 24"), &["Kd8", "Kb1"]);
        assert_eq!(r.numbered(0, 2), "24... Kd8 25. Kb1");
    }

    #[test]
    fn a_thai_reader_gets_thai_notation_with_san_beside_it() {
        let r = record(None, &["Nd2", "Ne7", "e4"]);
        assert_eq!(
            r.numbered_for(0, 3, Locale::Th),
            "1. ม-ง๒ (Nd2) ม-จ๗ (Ne7) 2. จ๔ (e4)"
        );
        assert_eq!(r.thai_san(1).as_deref(), Some("ม-ง๒"));
        assert_eq!(r.thai_san(4), None);
        // English readers, and PGN, keep SAN.
        assert_eq!(r.numbered_for(1, 3, Locale::En), "1... Ne7 2. e4");
        assert_eq!(r.numbered(1, 3), "1... Ne7 2. e4");
    }
}
