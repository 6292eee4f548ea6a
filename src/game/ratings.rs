//! Ratings: the rating update of a game's end (in the transaction that stores the result, see
//! `persist::save`), the leaderboard, a player's stats, and `recompute`, which rebuilds every
//! rating from the stored games. The maths and its constants are in [`crate::rating`].
//!
//! A game counts when it was asked rated (`/challenge rated:`, default true), was played on a
//! server (games whose `guild_id` is NULL, older rows included, never count), between people,
//! was not aborted, and each side made two moves ([`GameRow::counts_for_ratings`]).

use std::collections::HashMap;

use makruk::{Color, Variant};

use super::{GameId, GameService, ServiceError, UserId, UserName};
use crate::clock::Kind;
use crate::i18n::Locale;
use crate::rating::{self, Glicko};
use crate::store::{self, GameRow, HistoryRow, RatingRow, Tx};
use crate::tr;
use crate::types::{GameRatings, GuildId, RatingChange};

/// Players per leaderboard page.
pub const LEADERBOARD_PAGE: u32 = 10;

/// The most recent results [`PlayerStats::recent`] holds.
pub const RECENT_RESULTS: usize = 5;

/// One rated game applied: both players' new rating rows and their history rows.
struct Step {
    white: RatingRow,
    black: RatingRow,
    history: [HistoryRow; 2],
}

/// Rates finished game `row` from both players' ratings before it (`None`: their first rated
/// game there); `None` when the game does not count. The one computation of both the live
/// update and `recompute`.
fn step(row: &GameRow, white: Option<RatingRow>, black: Option<RatingRow>) -> Option<Step> {
    let guild = row.guild_id.filter(|_| row.counts_for_ratings())?;
    let white_score = rating::white_score(row.result?)?;
    let speed = row.time_control.kind();
    let at = row.finished_at.unwrap_or(row.updated_at);
    let variant = row.variant;
    let fresh = |user_id| RatingRow {
        guild_id: guild,
        user_id,
        variant,
        speed,
        glicko: Glicko::START,
        games: 0,
        wins: 0,
        draws: 0,
        losses: 0,
        last_game_at: at,
    };
    let white = white.unwrap_or_else(|| fresh(row.white_id));
    let black = black.unwrap_or_else(|| fresh(row.black_id));
    let w_before = white.glicko.idle(at - white.last_game_at);
    let b_before = black.glicko.idle(at - black.last_game_at);
    let (w_after, b_after) = rating::rate(w_before, b_before, white_score);
    let next = |r: RatingRow, after: Glicko, score: f64| RatingRow {
        glicko: after,
        games: r.games + 1,
        wins: r.wins + i64::from(score > 0.75),
        draws: r.draws + i64::from((0.25..=0.75).contains(&score)),
        losses: r.losses + i64::from(score < 0.25),
        last_game_at: at,
        ..r
    };
    let hist =
        |color: Color, me: &RatingRow, opp: &RatingRow, after: Glicko, score: f64| HistoryRow {
            id: 0,
            game_id: row.id,
            guild_id: guild,
            user_id: me.user_id,
            variant,
            speed,
            color,
            opponent_id: opp.user_id,
            score,
            rating_before: me.glicko.rating,
            opponent_rating: opp.glicko.rating,
            after,
            finished_at: at,
        };
    let history = [
        hist(Color::White, &white, &black, w_after, white_score),
        hist(Color::Black, &black, &white, b_after, 1.0 - white_score),
    ];
    Some(Step {
        white: next(white, w_after, white_score),
        black: next(black, b_after, 1.0 - white_score),
        history,
    })
}

/// The change shown for a player whose rating went from `before` to `after`.
fn change(before: f64, after: Glicko) -> RatingChange {
    RatingChange {
        rating: after.shown(),
        change: after.shown() - before.round() as i64,
        provisional: after.provisional(),
    }
}

/// Rates finished game `row` inside `tx`, the transaction that stores its result: reads both
/// players' ratings there (so two games of one player ending at once are rated one after the
/// other, in commit order), writes the new ones and the history rows. `None` when the game does
/// not count. A second rating of the same game fails on the history's unique key.
pub(super) async fn rate_game(tx: &mut Tx, row: &GameRow) -> sqlx::Result<Option<GameRatings>> {
    let Some(guild) = row.guild_id.filter(|_| row.counts_for_ratings()) else {
        return Ok(None);
    };
    let speed = row.time_control.kind();
    store::lock_ratings(tx, guild, speed, [row.white_id, row.black_id]).await?;
    let white = store::rating(tx, guild, row.white_id, row.variant, speed).await?;
    let black = store::rating(tx, guild, row.black_id, row.variant, speed).await?;
    let Some(s) = step(row, white, black) else {
        return Ok(None);
    };
    store::put_rating(tx, &s.white).await?;
    store::put_rating(tx, &s.black).await?;
    for h in &s.history {
        store::insert_history(tx, h).await?;
    }
    Ok(Some(GameRatings {
        white: change(s.history[0].rating_before, s.white.glicko),
        black: change(s.history[1].rating_before, s.black.glicko),
    }))
}

/// One line of a leaderboard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaderboardEntry {
    /// 1-based place.
    pub rank: u32,
    pub user: UserId,
    /// Rounded.
    pub rating: i64,
    /// Provisional (shown with `?`): RD above 110 now (inactivity included).
    pub provisional: bool,
    pub games: i64,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
}

/// One page of a server's leaderboard at one speed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leaderboard {
    /// The variant of the Makruk family it ranks.
    pub variant: Variant,
    pub speed: Kind,
    /// 0-based page shown (a page past the end shows the last one).
    pub page: u32,
    /// Pages in all (at least 1).
    pub pages: u32,
    /// Rated players on the leaderboard.
    pub players: u32,
    /// At most [`LEADERBOARD_PAGE`] lines, best first.
    pub entries: Vec<LeaderboardEntry>,
}

/// Wins, draws and losses.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Record {
    fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }
}

/// A rated game's result from one player's side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RecentResult {
    pub game: GameId,
    pub opponent: UserId,
    /// 1 win, 0 draw, -1 loss.
    pub outcome: i8,
    /// The rating after it, rounded, and its change.
    pub change: RatingChange,
}

/// The best win: over the highest-rated opponent (their rating before the game).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BestWin {
    pub game: GameId,
    pub opponent: UserId,
    pub opponent_rating: i64,
}

/// A player's rating and record on one server at one speed.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerStats {
    pub user: UserId,
    /// The variant of the Makruk family the stats are of.
    pub variant: Variant,
    pub speed: Kind,
    /// Rounded.
    pub rating: i64,
    /// The RD now (grown with inactivity since the last game), rounded.
    pub deviation: i64,
    pub provisional: bool,
    /// The place on the server's leaderboard, and its size.
    pub rank: u32,
    pub players: u32,
    /// All rated games, then as White and as Black.
    pub record: Record,
    pub as_white: Record,
    pub as_black: Record,
    /// Wins in a row up to the last game, and the longest run of wins.
    pub current_streak: u32,
    pub best_streak: u32,
    pub best_win: Option<BestWin>,
    /// Newest first, at most [`RECENT_RESULTS`].
    pub recent: Vec<RecentResult>,
    /// The rating before the first rated game (1500), then after each, oldest first: the
    /// chart's points.
    pub history: Vec<f64>,
    /// The highest rating after a game, rounded.
    pub peak: i64,
}

/// What `recompute` found and did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecomputeReport {
    /// Rated games replayed.
    pub games: usize,
    /// Rating rows rebuilt.
    pub ratings: usize,
    /// Each difference between the stored and the recomputed rows, in words.
    pub differences: Vec<String>,
    /// The rebuilt rows were written (not a dry run).
    pub written: bool,
}

/// Two stored numbers that should be equal (the same computation on the same inputs, so
/// equal up to the database's float round trip).
fn differs(a: f64, b: f64) -> bool {
    (a - b).abs() > 1e-6
}

impl GameService {
    /// Page `page` (0-based; past the end: the last page) of the leaderboard of `guild` in
    /// `variant` at `speed` (`None`: the speed with more players).
    ///
    /// # Errors
    /// [`ServiceError::LeaderboardEmpty`] when nobody has a rated game there; `Internal`.
    #[tracing::instrument(skip(self))]
    pub async fn leaderboard(
        &self,
        guild: GuildId,
        variant: Variant,
        speed: Option<Kind>,
        page: u32,
    ) -> Result<Leaderboard, ServiceError> {
        let g = guild;
        let now = self.now();
        let mut conn = self.store.read_conn().await?;
        let (speed, players) = match speed {
            Some(s) => (s, store::leaderboard_size(&mut conn, g, variant, s).await?),
            // The speed with more rated players (correspondence on a tie).
            None => {
                let live = store::leaderboard_size(&mut conn, g, variant, Kind::Live).await?;
                let corr =
                    store::leaderboard_size(&mut conn, g, variant, Kind::Correspondence).await?;
                if live > corr {
                    (Kind::Live, live)
                } else {
                    (Kind::Correspondence, corr)
                }
            }
        };
        let players = u32::try_from(players).unwrap_or(u32::MAX);
        if players == 0 {
            return Err(ServiceError::LeaderboardEmpty(variant, speed));
        }
        let pages = players.div_ceil(LEADERBOARD_PAGE);
        let page = page.min(pages - 1);
        let rows = store::leaderboard(
            &mut conn,
            g,
            variant,
            speed,
            i64::from(page * LEADERBOARD_PAGE),
            i64::from(LEADERBOARD_PAGE),
        )
        .await?;
        let entries = rows
            .iter()
            .zip(page * LEADERBOARD_PAGE + 1..)
            .map(|(r, rank)| LeaderboardEntry {
                rank,
                user: r.user_id,
                rating: r.glicko.shown(),
                provisional: r.glicko.idle(now - r.last_game_at).provisional(),
                games: r.games,
                wins: r.wins,
                draws: r.draws,
                losses: r.losses,
            })
            .collect();
        Ok(Leaderboard {
            variant,
            speed,
            page,
            pages,
            players,
            entries,
        })
    }

    /// The stats of `user` on `guild` in `variant` at `speed` (`None`: the speed they played
    /// more rated games at).
    ///
    /// # Errors
    /// [`ServiceError::NoRatedGames`] when they have no rated game there; `Internal`.
    #[tracing::instrument(skip(self))]
    pub async fn stats(
        &self,
        guild: GuildId,
        user: UserId,
        variant: Variant,
        speed: Option<Kind>,
    ) -> Result<PlayerStats, ServiceError> {
        let (g, u) = (guild, user);
        let now = self.now();
        let mut tx = self.store.begin_read().await?;
        let row = match speed {
            Some(s) => store::rating(&mut tx, g, u, variant, s).await?,
            None => {
                let live = store::rating(&mut tx, g, u, variant, Kind::Live).await?;
                let corr = store::rating(&mut tx, g, u, variant, Kind::Correspondence).await?;
                match (live, corr) {
                    (Some(l), Some(c)) if l.games > c.games => Some(l),
                    (l, None) => l,
                    (_, c) => c,
                }
            }
        };
        let Some(row) = row else {
            return Err(ServiceError::NoRatedGames(user, variant));
        };
        let speed = row.speed;
        let (rank, players) = store::rank(&mut tx, g, variant, speed, row.glicko.rating, u).await?;
        let history = store::history(&mut tx, g, u, variant, speed).await?;
        tx.commit().await?;
        let now_glicko = row.glicko.idle(now - row.last_game_at);
        let mut stats = PlayerStats {
            user,
            variant,
            speed,
            rating: row.glicko.shown(),
            deviation: now_glicko.deviation.round() as i64,
            provisional: now_glicko.provisional(),
            rank: u32::try_from(rank).unwrap_or(u32::MAX),
            players: u32::try_from(players).unwrap_or(u32::MAX),
            record: Record::default(),
            as_white: Record::default(),
            as_black: Record::default(),
            current_streak: 0,
            best_streak: 0,
            best_win: None,
            recent: Vec::new(),
            history: Vec::with_capacity(history.len() + 1),
            peak: row.glicko.shown(),
        };
        stats.history.push(
            history
                .first()
                .map_or(Glicko::START.rating, |h| h.rating_before),
        );
        let mut best_win_rating = f64::NEG_INFINITY;
        for h in &history {
            stats.record.add(h.score);
            match h.color {
                Color::White => stats.as_white.add(h.score),
                Color::Black => stats.as_black.add(h.score),
            }
            if h.score > 0.75 {
                stats.current_streak += 1;
                stats.best_streak = stats.best_streak.max(stats.current_streak);
                if h.opponent_rating > best_win_rating {
                    best_win_rating = h.opponent_rating;
                    stats.best_win = Some(BestWin {
                        game: h.game_id,
                        opponent: h.opponent_id,
                        opponent_rating: h.opponent_rating.round() as i64,
                    });
                }
            } else {
                stats.current_streak = 0;
            }
            stats.history.push(h.after.rating);
            stats.peak = stats.peak.max(h.after.shown());
        }
        stats.recent = history
            .iter()
            .rev()
            .take(RECENT_RESULTS)
            .map(|h| RecentResult {
                game: h.game_id,
                opponent: h.opponent_id,
                outcome: if h.score > 0.75 {
                    1
                } else if h.score < 0.25 {
                    -1
                } else {
                    0
                },
                change: change(h.rating_before, h.after),
            })
            .collect();
        Ok(stats)
    }

    /// Rebuilds every rating from the stored games: replays the games that count (see the
    /// module docs) in the order they were rated (the history's order; games without a history
    /// row after them, by end time), compares the result with the stored ratings and history,
    /// and, unless `dry_run`, writes the rebuilt rows in one transaction.
    ///
    /// # Errors
    /// `Internal` (database errors).
    pub async fn recompute_ratings(&self, dry_run: bool) -> Result<RecomputeReport, ServiceError> {
        let mut tx = self.store.begin_write().await?;
        store::lock_all_ratings(&mut tx).await?;
        let mut games = store::rated_games(&mut tx).await?;
        let stored_history = store::all_history(&mut tx).await?;
        let stored_ratings = store::all_ratings(&mut tx).await?;
        let mut order: HashMap<GameId, i64> = HashMap::new();
        let mut by_side: HashMap<(GameId, UserId), HistoryRow> = HashMap::new();
        for h in &stored_history {
            order.entry(h.game_id).or_insert(h.id);
            by_side.insert((h.game_id, h.user_id), *h);
        }
        games.sort_by_key(|g| {
            (
                order.get(&g.id).copied().unwrap_or(i64::MAX),
                g.finished_at,
                g.id,
            )
        });
        let mut ratings: HashMap<(GuildId, UserId, Variant, Kind), RatingRow> = HashMap::new();
        let mut history = Vec::with_capacity(stored_history.len());
        let mut differences = Vec::new();
        for game in &games {
            let (Some(guild), speed) = (game.guild_id, game.time_control.kind()) else {
                continue;
            };
            let white = ratings
                .get(&(guild, game.white_id, game.variant, speed))
                .copied();
            let black = ratings
                .get(&(guild, game.black_id, game.variant, speed))
                .copied();
            let Some(s) = step(game, white, black) else {
                continue;
            };
            for h in &s.history {
                match by_side.remove(&(h.game_id, h.user_id)) {
                    None => differences.push(format!(
                        "game {}: user {} was not rated",
                        h.game_id.0, h.user_id.0
                    )),
                    Some(old) => {
                        if differs(old.after.rating, h.after.rating)
                            || differs(old.after.deviation, h.after.deviation)
                            || differs(old.after.volatility, h.after.volatility)
                            || differs(old.rating_before, h.rating_before)
                            || differs(old.score, h.score)
                        {
                            differences.push(format!(
                                "game {}: user {}: stored {:.2} -> {:.2}, recomputed {:.2} -> {:.2}",
                                h.game_id.0,
                                h.user_id.0,
                                old.rating_before,
                                old.after.rating,
                                h.rating_before,
                                h.after.rating
                            ));
                        }
                    }
                }
            }
            history.extend(s.history);
            ratings.insert((guild, s.white.user_id, game.variant, speed), s.white);
            ratings.insert((guild, s.black.user_id, game.variant, speed), s.black);
        }
        let mut extra: Vec<&HistoryRow> = by_side.values().collect();
        extra.sort_by_key(|h| h.id);
        for h in extra {
            differences.push(format!(
                "game {}: user {} is rated but the game does not count",
                h.game_id.0, h.user_id.0
            ));
        }
        for old in &stored_ratings {
            match ratings.get(&(old.guild_id, old.user_id, old.variant, old.speed)) {
                None => differences.push(format!(
                    "server {} user {} {}: stored {:.2}, no rated game",
                    old.guild_id.0,
                    old.user_id.0,
                    rating::speed_name(old.speed),
                    old.glicko.rating
                )),
                Some(new)
                    if differs(old.glicko.rating, new.glicko.rating)
                        || differs(old.glicko.deviation, new.glicko.deviation)
                        || old.games != new.games =>
                {
                    differences.push(format!(
                        "server {} user {} {}: stored {:.2} ({} games), recomputed {:.2} ({} games)",
                        old.guild_id.0,
                        old.user_id.0,
                        rating::speed_name(old.speed),
                        old.glicko.rating,
                        old.games,
                        new.glicko.rating,
                        new.games
                    ));
                }
                Some(_) => {}
            }
        }
        let known: std::collections::HashSet<_> = stored_ratings
            .iter()
            .map(|r| (r.guild_id, r.user_id, r.variant, r.speed))
            .collect();
        let mut missing: Vec<_> = ratings.keys().filter(|k| !known.contains(k)).collect();
        missing.sort_by_key(|k| (k.0, k.1, k.2.name(), rating::speed_name(k.3)));
        for (guild, user, variant, speed) in missing {
            differences.push(format!(
                "server {} user {} {} {}: no stored rating",
                guild.0,
                user.0,
                variant,
                rating::speed_name(*speed)
            ));
        }
        let report = RecomputeReport {
            games: games.len(),
            ratings: ratings.len(),
            differences,
            written: !dry_run,
        };
        if dry_run {
            return Ok(report);
        }
        store::clear_ratings(&mut tx).await?;
        for h in &history {
            store::insert_history(&mut tx, h).await?;
        }
        for r in ratings.values() {
            store::put_rating(&mut tx, r).await?;
        }
        tx.commit().await?;
        Ok(report)
    }
}

/// A rating change as shown: `1512 (+12)`, `1488? (−12)` while provisional, `1500 (±0)`.
pub(crate) fn change_text(c: RatingChange) -> String {
    let mark = if c.provisional { "?" } else { "" };
    let change = match c.change {
        0 => "±0".to_owned(),
        d if d > 0 => format!("+{d}"),
        d => format!("−{}", d.unsigned_abs()),
    };
    format!("{}{mark} ({change})", c.rating)
}

/// The name of speed `speed` in `locale`.
pub(crate) fn speed_text(speed: Kind, locale: Locale) -> String {
    tr!(locale, &format!("speed-{}", rating::speed_name(speed)))
}

/// The name of a rating list: its speed for Makruk ("live"), the variant and the speed for the
/// others ("Makpong, live").
fn ladder_text(variant: Variant, speed: Kind, locale: Locale) -> String {
    if variant == Variant::Makruk {
        speed_text(speed, locale)
    } else {
        tr!(
            locale,
            "ladder-variant",
            variant = super::text::variant_name(locale, variant),
            speed = speed_text(speed, locale)
        )
    }
}

impl Leaderboard {
    /// The page in `locale`: a title, one line per player (`1. @user 1612 · 20 games +12 =3 −5`,
    /// provisional ratings with `?`), and the page number. Users are written by `user`.
    #[must_use]
    pub fn text(&self, locale: Locale, user: UserName<'_>) -> String {
        let mut lines = vec![tr!(
            locale,
            "leaderboard-title",
            speed = ladder_text(self.variant, self.speed, locale),
            players = self.players
        )];
        for e in &self.entries {
            let mark = if e.provisional { "?" } else { "" };
            lines.push(tr!(
                locale,
                "leaderboard-line",
                rank = e.rank,
                player = user(e.user),
                rating = format!("{}{mark}", e.rating),
                games = e.games,
                wins = e.wins,
                draws = e.draws,
                losses = e.losses
            ));
        }
        if self.entries.iter().any(|e| e.provisional) {
            lines.push(tr!(locale, "leaderboard-provisional"));
        }
        lines.push(tr!(
            locale,
            "leaderboard-page",
            page = self.page + 1,
            pages = self.pages
        ));
        lines.join("\n")
    }
}

impl PlayerStats {
    /// The stats in `locale`: rating ± RD and place, record (all, as White, as Black),
    /// streaks, best win, recent results. Users are written by `user`.
    #[must_use]
    pub fn text(&self, locale: Locale, user: UserName<'_>) -> String {
        let record = |r: Record| {
            tr!(
                locale,
                "stats-record",
                wins = r.wins,
                draws = r.draws,
                losses = r.losses
            )
        };
        let mark = if self.provisional { "?" } else { "" };
        let mut lines = vec![
            tr!(
                locale,
                "stats-title",
                player = user(self.user),
                speed = ladder_text(self.variant, self.speed, locale)
            ),
            tr!(
                locale,
                "stats-rating",
                rating = format!("{}{mark}", self.rating),
                deviation = self.deviation,
                rank = self.rank,
                players = self.players,
                peak = self.peak
            ),
        ];
        if self.provisional {
            lines.push(tr!(locale, "stats-provisional"));
        }
        lines.push(tr!(
            locale,
            "stats-games",
            games = self.record.wins + self.record.draws + self.record.losses,
            record = record(self.record),
            white = record(self.as_white),
            black = record(self.as_black)
        ));
        lines.push(tr!(
            locale,
            "stats-streaks",
            current = self.current_streak,
            best = self.best_streak
        ));
        if let Some(b) = self.best_win {
            lines.push(tr!(
                locale,
                "stats-best-win",
                opponent = user(b.opponent),
                rating = b.opponent_rating,
                game = b.game.0
            ));
        }
        let recent: Vec<String> = self
            .recent
            .iter()
            .map(|r| {
                let key = match r.outcome {
                    1 => "stats-recent-win",
                    -1 => "stats-recent-loss",
                    _ => "stats-recent-draw",
                };
                tr!(
                    locale,
                    key,
                    opponent = user(r.opponent),
                    rating = change_text(r.change)
                )
            })
            .collect();
        lines.push(tr!(locale, "stats-recent", results = recent.join(" · ")));
        lines.join("\n")
    }
}
