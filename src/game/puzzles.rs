//! Puzzles (issue 24): a puzzle served near the player's puzzle rating, its moves judged
//! against the solution line, Glicko-2 ratings of players and puzzles, hints, the solution,
//! votes, and each server's daily puzzle. The puzzles' pure side (the shipped set, the line,
//! the calendar) is `crate::puzzles`.
//!
//! An attempt is one user's try at one puzzle in one channel (at most one in progress per
//! user and channel: a unique index); it never touches the channel's game. Every step is one
//! write transaction that moves the attempt on only from the step it read (`progress`), so a
//! double-click's second move changes nothing and is told so ([`ServiceError::Conflict`]).
//! A daily puzzle is claimed in the database before it is posted, so it is posted once, and a
//! claim a crash left unposted is posted at the next start.
//!
//! Ratings (pychess's way): a player's first try at a puzzle, without a hint, is a rated game
//! between the player and the puzzle: solved is a win for the player, a wrong move or the
//! solution asked for a loss; both Glicko-2 ratings move ([`crate::rating::rate`]). A new
//! player starts at 1500 ± 350; a new puzzle at the rating the generator gave it, ± 350.

use makruk::{Color, Move, Position, Role, Square};
use rand::seq::IndexedRandom as _;

use super::queries::move_choices;
use super::{ChannelId, GameService, GuildId, MoveChoice, ServiceError, UserId, MAX_INPUT_LEN};
use crate::puzzles::{daily, Line, ShippedPuzzle, Verdict, NOT_DAILY_THEME};
use crate::rating::{rate, Glicko, DEVIATION_MAX};
use crate::store::{self, AttemptRow, AttemptState, DailyRow, PuzzleFilter, PuzzleRow};

/// How many puzzles nearest the player's rating one is drawn from.
const NEAREST: i64 = 12;

/// What the solver sees: the position to answer, whose side, what the opponent just played.
#[derive(Clone, Debug)]
pub struct PuzzleView {
    /// The attempt's id (the buttons carry it).
    pub attempt: i64,
    pub puzzle_id: String,
    /// The position the solver is to move in.
    pub position: Position,
    /// The solver's side (the board is drawn from it).
    pub solver: Color,
    /// The opponent's last move of the line (`None` at the start).
    pub last_move: Option<Move>,
    /// The opponent's last move: (SAN, Thai SAN).
    pub last_san: Option<(String, String)>,
    /// The puzzle's themes, shown only when a theme was asked for.
    pub themes: Option<Vec<String>>,
    /// The puzzle's rating, as shown.
    pub puzzle_rating: i64,
    /// The player's puzzle rating (shown) and whether it is provisional.
    pub player_rating: (i64, bool),
    /// Moves of the solver still to find (this one included).
    pub moves_left: usize,
    /// A daily puzzle: its server and day.
    pub daily: Option<(GuildId, String)>,
    /// The attempt counts for the ratings.
    pub rated: bool,
    /// Every puzzle of the theme asked for was seen: this one is a repeat (unrated).
    pub repeat: bool,
    /// A puzzle from the server's own game: the player who missed the win there, and when the
    /// game ended (Unix seconds).
    pub origin: Option<(UserId, i64)>,
    /// The rated puzzle the player left unanswered here for this one counted as failed: their
    /// rating before and after.
    pub left: Option<(i64, i64)>,
}

/// How an attempt ended.
#[derive(Clone, Debug)]
pub struct PuzzleEnd {
    pub attempt: i64,
    pub puzzle_id: String,
    pub solved: bool,
    /// The solver's move that ended it (SAN, Thai SAN); `None` when the solution was asked
    /// for.
    pub played: Option<(String, String)>,
    /// The whole solution line from the start position, each move (SAN, Thai SAN).
    pub solution: Vec<(String, String)>,
    /// The start position (for the solution's board).
    pub start: Position,
    /// The position at the end of the solution line.
    pub end: Position,
    /// The last move of the solution (highlighted).
    pub last_move: Option<Move>,
    /// The player's rating before and after, when the attempt was rated.
    pub rating: Option<(i64, i64)>,
    /// The puzzle's rating now (after this attempt, if it was rated).
    pub puzzle_rating: i64,
    /// A hint was asked for (why an attempt was not rated: else it was tried before).
    pub hinted: bool,
    /// The player's streak of rated puzzles solved in a row.
    pub streak: i64,
    /// A daily puzzle: how it stands now and the player's streak on the server.
    pub daily: Option<DailyProgress>,
    /// The theme asked for (Next serves the same).
    pub theme: Option<String>,
}

/// What the answer to a move says.
#[derive(Clone, Debug)]
pub enum SolveOutcome {
    /// Right: the opponent replied; the solver is to move again.
    Continue {
        /// The solver's move (SAN, Thai SAN).
        played: (String, String),
        view: Box<PuzzleView>,
    },
    /// Solved, or failed on a wrong move.
    Done(Box<PuzzleEnd>),
}

/// A daily puzzle as it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DailyProgress {
    pub guild: GuildId,
    /// The server's date, `YYYY-MM-DD`.
    pub day: String,
    pub channel: ChannelId,
    /// The posted message (`None`: not yet posted).
    pub message: Option<u64>,
    pub puzzle_id: String,
    pub solvers: i64,
    pub tries: i64,
    pub first_solver: Option<UserId>,
    /// The answering user's streak of daily puzzles solved on consecutive days here (0 when
    /// this answer is not a solve).
    pub streak: i64,
}

/// A daily puzzle to post.
#[derive(Clone, Debug)]
pub struct DailyPost {
    pub progress: DailyProgress,
    /// The start position; the solver is to move.
    pub position: Position,
    pub solver: Color,
    pub puzzle_rating: i64,
}

/// A player's puzzle rating and record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzleStats {
    pub rating: i64,
    pub provisional: bool,
    pub solved: i64,
    pub failed: i64,
    pub streak: i64,
    pub best_streak: i64,
    /// Daily puzzles of the server asked about solved on consecutive days: (now, best); `None`
    /// when none was solved there.
    pub daily_streak: Option<(i64, i64)>,
}

/// A server's daily puzzle settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DailySettings {
    /// `None`: no daily puzzle.
    pub channel: Option<ChannelId>,
    /// Minutes after the server's midnight.
    pub minute: i64,
    /// Minutes east of UTC.
    pub utc_offset: i64,
}

/// A change of the daily puzzle settings (`None`: unchanged).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DailyChange {
    /// `Some(None)`: no daily puzzle any more.
    pub channel: Option<Option<ChannelId>>,
    pub minute: Option<i64>,
    pub utc_offset: Option<i64>,
}

fn puzzle_line(p: &PuzzleRow) -> Result<Line, ServiceError> {
    let moves: Vec<&str> = p.moves.split_whitespace().collect();
    Line::new(&p.fen, &moves).map_err(|e| ServiceError::Internal(e.context(p.id.clone())))
}

/// Starts an attempt; another request that started one at the same moment (a second
/// `/puzzle`, a first answer to the daily puzzle) is a [`ServiceError::Conflict`].
async fn insert_attempt(
    tx: &mut store::DbConn,
    a: &store::NewAttempt<'_>,
) -> Result<i64, ServiceError> {
    store::insert_attempt(tx, a).await.map_err(|e| {
        if store::is_unique_violation(&e) {
            ServiceError::Conflict
        } else {
            e.into()
        }
    })
}

/// The id of a puzzle from server `guild`'s game whose position and line give `id`: `g` and
/// six base-36 digits of an FNV-1a hash of both.
fn game_puzzle_id(guild: GuildId, id: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in guild.0.to_le_bytes().iter().chain(id.as_bytes()) {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    let digits = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut n = h % 36u64.pow(6);
    let mut out = vec![b'g'];
    let mut tail = [b'0'; 6];
    for c in tail.iter_mut().rev() {
        *c = digits[(n % 36) as usize];
        n /= 36;
    }
    out.extend_from_slice(&tail);
    String::from_utf8_lossy(&out).into_owned()
}

fn themes(p: &PuzzleRow) -> Vec<String> {
    p.themes.split_whitespace().map(str::to_string).collect()
}

fn player_glicko(row: Option<&store::PuzzlePlayerRow>) -> Glicko {
    row.map_or(Glicko::START, |r| r.glicko)
}

impl GameService {
    /// Stores the puzzles of `set` that are not stored yet (at start-up; their ratings and votes
    /// in the database are kept). Returns how many were added.
    ///
    /// # Errors
    /// `Internal` only.
    pub async fn install_puzzles(&self, set: &[ShippedPuzzle]) -> Result<usize, ServiceError> {
        // Every id is offered (a set of the same size but other puzzles is still added);
        // those stored already are left as they are.
        let mut tx = self.store.begin_write().await?;
        let mut added = 0;
        for p in set {
            let new = store::NewPuzzle {
                id: &p.id,
                fen: &p.fen,
                moves: p.moves.join(" "),
                themes: p.themes.join(" "),
                glicko: Glicko {
                    rating: f64::from(p.rating),
                    deviation: DEVIATION_MAX,
                    volatility: Glicko::START.volatility,
                },
                source: &p.source,
                guild_id: None,
                from_game: None,
            };
            added += usize::from(store::insert_puzzle(&mut tx, &new).await?);
        }
        tx.commit().await?;
        Ok(added)
    }

    /// Stores the puzzles found in finished game `game` (`crate::puzzles::from_games`) as
    /// puzzles of its server, each naming the player who missed the win and when. A game
    /// without a server gives none. Returns how many were new.
    ///
    /// # Errors
    /// `GameNotFound`; `Internal`.
    pub async fn add_game_puzzles(
        &self,
        game: super::GameId,
        found: &[crate::puzzles::from_games::GamePuzzle],
    ) -> Result<usize, ServiceError> {
        let mut tx = self.store.begin_write().await?;
        let row = store::game(&mut tx, game)
            .await?
            .ok_or(ServiceError::GameNotFound)?;
        let Some(guild) = row.guild_id else {
            return Ok(0);
        };
        let played_at = row.finished_at.unwrap_or(row.updated_at);
        let mut added = 0;
        for f in found {
            // The computer's misses are not a person's game to learn from.
            if row.computer.is_some_and(|c| c.side == f.mover) {
                continue;
            }
            let player = match f.mover {
                Color::White => row.white_id,
                Color::Black => row.black_id,
            };
            // `g` keeps them apart from the shipped set's ids; the server is in the hash, so
            // that the same position in two servers' games is a puzzle of each.
            let id = game_puzzle_id(guild, &f.puzzle.id());
            let source = format!("game:{}:{}", game.0, f.ply);
            let themes: Vec<String> = f.puzzle.themes.iter().map(|t| t.key()).collect();
            let new = store::NewPuzzle {
                id: &id,
                fen: &f.puzzle.fen,
                moves: f.puzzle.moves.join(" "),
                themes: themes.join(" "),
                glicko: Glicko {
                    rating: f64::from(f.puzzle.rating),
                    deviation: DEVIATION_MAX,
                    volatility: Glicko::START.volatility,
                },
                source: &source,
                guild_id: Some(guild),
                from_game: Some((game, player, played_at)),
            };
            added += usize::from(store::insert_puzzle(&mut tx, &new).await?);
        }
        tx.commit().await?;
        Ok(added)
    }

    /// Serves user `user` a puzzle in `channel` (of server `guild`, whose own puzzles may be
    /// served too): one near their puzzle rating that they have not tried, of `theme` if
    /// given. Ends their puzzle in progress in the channel, if any (unrated).
    ///
    /// # Errors
    /// `UnknownPuzzleTheme`; `NoPuzzles` when none is stored; `DailyInProgress` when their
    /// attempt here is the server's daily puzzle (answer or reveal it first).
    #[tracing::instrument(skip(self))]
    pub async fn start_puzzle(
        &self,
        user: UserId,
        channel: ChannelId,
        guild: Option<GuildId>,
        theme: Option<&str>,
    ) -> Result<PuzzleView, ServiceError> {
        if let Some(t) = theme {
            if !crate::puzzles::THEMES.contains(&t) {
                return Err(ServiceError::UnknownPuzzleTheme);
            }
        }
        let now = self.now_ms();
        let mut tx = self.store.begin_write().await?;
        let mut left = None;
        if let Some(old) = store::solving_attempt(&mut tx, user, channel).await? {
            if self.daily_is_today(&mut tx, &old).await? {
                return Err(ServiceError::DailyInProgress);
            }
            // Leaving a puzzle for another ends it as failed: a rated one is a loss, so that a
            // hard puzzle cannot be dodged (an unrated one changes nothing).
            left = self.abandon(&mut tx, &old).await?;
        }
        let player = store::puzzle_player(&mut tx, user).await?;
        let glicko = player_glicko(player.as_ref());
        let mut filter = PuzzleFilter {
            theme,
            guild,
            unseen_by: Some(user),
            // The server's daily puzzles are answered in public, once: never served privately.
            not_daily_of: guild,
            ..PuzzleFilter::default()
        };
        let mut ids = store::puzzles_near(&mut tx, &filter, glicko.rating, NEAREST).await?;
        let repeat = ids.is_empty();
        if repeat {
            filter.unseen_by = None;
            ids = store::puzzles_near(&mut tx, &filter, glicko.rating, NEAREST).await?;
        }
        let Some(id) = ids.choose(&mut rand::rng()).cloned() else {
            return Err(ServiceError::NoPuzzles);
        };
        let p = store::puzzle(&mut tx, &id)
            .await?
            .ok_or_else(|| ServiceError::Internal(anyhow::anyhow!("puzzle {id} vanished")))?;
        let line = puzzle_line(&p)?;
        let rated = !repeat && !store::has_tried(&mut tx, user, &id).await?;
        let attempt = insert_attempt(
            &mut tx,
            &store::NewAttempt {
                user,
                channel,
                puzzle_id: &id,
                rated,
                theme,
                guild,
                daily_day: None,
                now_ms: now,
            },
        )
        .await?;
        tx.commit().await?;
        Ok(PuzzleView {
            attempt,
            puzzle_id: id,
            solver: line.start.turn(),
            position: line.start.clone(),
            last_move: None,
            last_san: None,
            themes: theme.map(|_| themes(&p)),
            puzzle_rating: p.glicko.shown(),
            player_rating: (glicko.shown(), glicko.provisional()),
            moves_left: line.solver_moves(),
            daily: None,
            rated,
            repeat,
            origin: p.origin,
            left,
        })
    }

    /// Whether attempt `a` is a daily puzzle of today (its server's date).
    async fn daily_is_today(
        &self,
        tx: &mut store::DbConn,
        a: &AttemptRow,
    ) -> Result<bool, ServiceError> {
        let (Some(guild), Some(day)) = (a.guild_id, a.daily_day.as_deref()) else {
            return Ok(false);
        };
        let s = store::daily_settings(tx, guild).await?;
        Ok(daily::local_date(self.now_ms(), s.utc_offset_minutes) == day)
    }

    /// Ends attempt `a`, left unanswered, as failed.
    /// Returns the player's rating before and after, if it was rated.
    async fn abandon(
        &self,
        tx: &mut store::DbConn,
        a: &AttemptRow,
    ) -> Result<Option<(i64, i64)>, ServiceError> {
        let p = store::puzzle(tx, &a.puzzle_id).await?.ok_or_else(|| {
            ServiceError::Internal(anyhow::anyhow!("puzzle {} vanished", a.puzzle_id))
        })?;
        let line = puzzle_line(&p)?;
        Ok(self.finish(tx, a, &p, &line, false, None).await?.rating)
    }

    /// The puzzle user `user` is solving in `channel`: theirs, or else the channel's daily
    /// puzzle of today (its attempt started now, if they have not tried it). A daily puzzle of
    /// an earlier day left unanswered is ended (failed) first.
    async fn current_attempt(
        &self,
        tx: &mut store::DbConn,
        user: UserId,
        channel: ChannelId,
        start_daily: bool,
    ) -> Result<(AttemptRow, PuzzleRow, Line), ServiceError> {
        let mut solving = store::solving_attempt(tx, user, channel).await?;
        if let Some(a) = solving.as_ref().filter(|a| a.daily_day.is_some()) {
            if !self.daily_is_today(tx, a).await? {
                if start_daily {
                    self.abandon(tx, a).await?;
                }
                solving = None;
            }
        }
        let attempt = match solving {
            Some(a) => a,
            None => {
                let daily = self.todays_daily(tx, channel).await?;
                let Some(d) = daily else {
                    return Err(ServiceError::NoPuzzle);
                };
                if let Some(a) = store::daily_attempt(tx, d.guild_id, &d.day, user).await? {
                    if a.state != AttemptState::Solving {
                        return Err(ServiceError::DailyDone);
                    }
                    a
                } else if start_daily {
                    let rated = !store::has_tried(tx, user, &d.puzzle_id).await?;
                    let id = insert_attempt(
                        tx,
                        &store::NewAttempt {
                            user,
                            channel,
                            puzzle_id: &d.puzzle_id,
                            rated,
                            theme: None,
                            guild: Some(d.guild_id),
                            daily_day: Some(&d.day),
                            now_ms: self.now_ms(),
                        },
                    )
                    .await?;
                    store::attempt(tx, id).await?.ok_or_else(|| {
                        ServiceError::Internal(anyhow::anyhow!("attempt {id} vanished"))
                    })?
                } else {
                    // Autocomplete before the first answer: the daily's start position.
                    let p = store::puzzle(tx, &d.puzzle_id).await?.ok_or_else(|| {
                        ServiceError::Internal(anyhow::anyhow!("puzzle {} vanished", d.puzzle_id))
                    })?;
                    let line = puzzle_line(&p)?;
                    let a = AttemptRow {
                        id: 0,
                        user_id: user,
                        channel_id: channel,
                        puzzle_id: p.id.clone(),
                        state: AttemptState::Solving,
                        progress: 0,
                        hinted: false,
                        rated: false,
                        theme: None,
                        guild_id: Some(d.guild_id),
                        daily_day: Some(d.day),
                        rating_change: None,
                    };
                    return Ok((a, p, line));
                }
            }
        };
        let p = store::puzzle(tx, &attempt.puzzle_id)
            .await?
            .ok_or_else(|| {
                ServiceError::Internal(anyhow::anyhow!("puzzle {} vanished", attempt.puzzle_id))
            })?;
        let line = puzzle_line(&p)?;
        Ok((attempt, p, line))
    }

    /// The daily puzzle posted in `channel` today (the server's date), if any.
    async fn todays_daily(
        &self,
        tx: &mut store::DbConn,
        channel: ChannelId,
    ) -> Result<Option<DailyRow>, ServiceError> {
        // The channel's server is not known here: try the dates of today's time zones in use.
        let now = self.now_ms();
        for offset in [-14 * 60, 0, 14 * 60] {
            let day = daily::local_date(now, offset);
            if let Some(d) = store::daily_in_channel(tx, channel, &day).await? {
                let s = store::daily_settings(tx, d.guild_id).await?;
                if daily::local_date(now, s.utc_offset_minutes) == d.day {
                    return Ok(Some(d));
                }
            }
        }
        Ok(None)
    }

    /// Plays `text` (any notation the bot reads) as user `user`'s answer to their puzzle in
    /// `channel`, or to the channel's daily puzzle.
    ///
    /// # Errors
    /// `NoPuzzle` (none in progress here, no daily puzzle today), `DailyDone` (tried today's
    /// already), `InputTooLong`, `BadMove` (unreadable or illegal: the attempt is unchanged),
    /// `Conflict` (another answer moved it on at the same moment).
    #[tracing::instrument(skip(self))]
    pub async fn solve_puzzle(
        &self,
        user: UserId,
        channel: ChannelId,
        text: &str,
    ) -> Result<SolveOutcome, ServiceError> {
        if text.chars().count() > MAX_INPUT_LEN {
            return Err(ServiceError::InputTooLong);
        }
        let mut tx = self.store.begin_write().await?;
        let (a, p, line) = self.current_attempt(&mut tx, user, channel, true).await?;
        let progress = usize::try_from(a.progress).unwrap_or(0);
        let pos = line.position_after(progress);
        let m = makruk::parse_move(&pos, text).map_err(ServiceError::BadMove)?;
        let played = (
            makruk::san::to_san(&pos, &m),
            makruk::san::to_thai_san(&pos, &m),
        );
        let outcome = match line.judge(progress, &m) {
            Verdict::Right => {
                let next = progress + 2;
                if !store::advance_attempt(&mut tx, a.id, a.progress, next as i64).await? {
                    return Err(ServiceError::Conflict);
                }
                let reply = line.moves[progress + 1];
                let after = line.position_after(progress + 1);
                let glicko = player_glicko(store::puzzle_player(&mut tx, user).await?.as_ref());
                SolveOutcome::Continue {
                    played,
                    view: Box::new(PuzzleView {
                        attempt: a.id,
                        puzzle_id: p.id.clone(),
                        position: line.position_after(next),
                        solver: line.start.turn(),
                        last_move: Some(reply),
                        last_san: Some((
                            makruk::san::to_san(&after, &reply),
                            makruk::san::to_thai_san(&after, &reply),
                        )),
                        themes: a.theme.as_ref().map(|_| themes(&p)),
                        puzzle_rating: p.glicko.shown(),
                        player_rating: (glicko.shown(), glicko.provisional()),
                        moves_left: line.moves.len().saturating_sub(next).div_ceil(2),
                        daily: a.guild_id.zip(a.daily_day.clone()),
                        rated: a.rated,
                        repeat: false,
                        origin: p.origin,
                        left: None,
                    }),
                }
            }
            Verdict::Solved => SolveOutcome::Done(Box::new(
                self.finish(&mut tx, &a, &p, &line, true, Some(played))
                    .await?,
            )),
            Verdict::Wrong => SolveOutcome::Done(Box::new(
                self.finish(&mut tx, &a, &p, &line, false, Some(played))
                    .await?,
            )),
        };
        tx.commit().await?;
        Ok(outcome)
    }

    /// Ends attempt `a` (solved or failed): the ratings of a rated one, the streaks, a daily
    /// puzzle's counts.
    async fn finish(
        &self,
        tx: &mut store::DbConn,
        a: &AttemptRow,
        p: &PuzzleRow,
        line: &Line,
        solved: bool,
        played: Option<(String, String)>,
    ) -> Result<PuzzleEnd, ServiceError> {
        let now = self.now_ms();
        let player = store::puzzle_player(tx, a.user_id).await?;
        // The RD grows with the time since the last rated puzzle, as a game's does.
        let before = player.as_ref().map_or(Glicko::START, |r| {
            r.glicko.idle((now - r.last_ms).div_euclid(1000))
        });
        let mut record = player.unwrap_or(store::PuzzlePlayerRow {
            glicko: before,
            solved: 0,
            failed: 0,
            streak: 0,
            best_streak: 0,
            last_ms: now,
        });
        let mut rating = None;
        let mut change = None;
        let mut puzzle_rating = p.glicko.shown();
        if a.rated {
            let (after, puzzle_after) = rate(before, p.glicko, if solved { 1.0 } else { 0.0 });
            // Written only over the rating read (another solver's at the same moment would
            // otherwise be lost): a conflict is tried again by the user.
            if !store::rate_puzzle(tx, &p.id, p.plays, puzzle_after).await? {
                return Err(ServiceError::Conflict);
            }
            puzzle_rating = puzzle_after.shown();
            record.glicko = after;
            if solved {
                record.solved += 1;
                record.streak += 1;
                record.best_streak = record.best_streak.max(record.streak);
            } else {
                record.failed += 1;
                record.streak = 0;
            }
            record.last_ms = now;
            store::put_puzzle_player(tx, a.user_id, &record).await?;
            rating = Some((before.shown(), after.shown()));
            change = Some(after.rating - before.rating);
        }
        let state = if solved {
            AttemptState::Solved
        } else {
            AttemptState::Failed
        };
        if !store::end_attempt(tx, a.id, a.progress, a.progress, state, change, now).await? {
            return Err(ServiceError::Conflict);
        }
        let daily = match (a.guild_id, a.daily_day.as_deref()) {
            (Some(guild), Some(day)) => {
                // A solve counts (and may be the first) only at a first try without a hint:
                // one who saw the solution elsewhere, or asked for a hint, is not a solver.
                let counted = solved && a.rated;
                let solver = counted.then_some(a.user_id);
                store::count_daily_try(tx, guild, day, solver).await?;
                let mut streak = 0;
                if counted {
                    let old = store::daily_streak(tx, guild, a.user_id).await?;
                    let yesterday = daily::previous_date(day);
                    let (s, best) = match old {
                        Some((s, best, last)) if Some(&last) == yesterday.as_ref() => (s + 1, best),
                        Some((s, best, last)) if last == day => (s, best),
                        Some((_, best, _)) => (1, best),
                        None => (1, 0),
                    };
                    streak = s;
                    store::put_daily_streak(tx, guild, a.user_id, s, best.max(s), day).await?;
                }
                store::daily(tx, guild, day).await?.map(|d| DailyProgress {
                    guild,
                    day: d.day,
                    channel: d.channel_id,
                    message: d.message_id.map(|m| m as u64),
                    puzzle_id: d.puzzle_id,
                    solvers: d.solvers,
                    tries: d.tries,
                    first_solver: d.first_solver,
                    streak,
                })
            }
            _ => None,
        };
        let end = line.position_after(line.moves.len());
        Ok(PuzzleEnd {
            attempt: a.id,
            puzzle_id: p.id.clone(),
            solved,
            played,
            solution: line.san_from(0),
            start: line.start.clone(),
            end,
            last_move: line.moves.last().copied(),
            rating,
            puzzle_rating,
            hinted: a.hinted,
            streak: record.streak,
            daily,
            theme: a.theme.clone(),
        })
    }

    /// Attempt `id` of user `user`, still in progress.
    async fn own_attempt(
        &self,
        tx: &mut store::DbConn,
        user: UserId,
        id: i64,
        solving: bool,
    ) -> Result<(AttemptRow, PuzzleRow, Line), ServiceError> {
        let a = store::attempt(tx, id)
            .await?
            .ok_or(ServiceError::NoPuzzle)?;
        if a.user_id != user {
            return Err(ServiceError::NotYourPuzzle);
        }
        if solving && a.state != AttemptState::Solving {
            return Err(ServiceError::PuzzleOver);
        }
        let p = store::puzzle(tx, &a.puzzle_id).await?.ok_or_else(|| {
            ServiceError::Internal(anyhow::anyhow!("puzzle {} vanished", a.puzzle_id))
        })?;
        let line = puzzle_line(&p)?;
        Ok((a, p, line))
    }

    /// A hint for attempt `attempt`: the piece the solution moves now (its role and square).
    /// The attempt is no longer rated.
    ///
    /// # Errors
    /// `NoPuzzle`, `NotYourPuzzle`, `PuzzleOver`.
    pub async fn puzzle_hint(
        &self,
        user: UserId,
        attempt: i64,
    ) -> Result<(Role, Square), ServiceError> {
        let mut tx = self.store.begin_write().await?;
        let (a, _, line) = self.own_attempt(&mut tx, user, attempt, true).await?;
        let progress = usize::try_from(a.progress).unwrap_or(0);
        let pos = line.position_after(progress);
        let m = line.moves[progress.min(line.moves.len() - 1)];
        let role = pos
            .piece_at(m.from)
            .map(|p| p.role)
            .ok_or_else(|| ServiceError::Internal(anyhow::anyhow!("no piece on {}", m.from)))?;
        store::hint_attempt(&mut tx, a.id).await?;
        tx.commit().await?;
        Ok((role, m.from))
    }

    /// Shows the solution of attempt `attempt`: the attempt fails (a rated one counts as a
    /// loss).
    ///
    /// # Errors
    /// `NoPuzzle`, `NotYourPuzzle`, `PuzzleOver`.
    pub async fn puzzle_solution(
        &self,
        user: UserId,
        attempt: i64,
    ) -> Result<PuzzleEnd, ServiceError> {
        let mut tx = self.store.begin_write().await?;
        let (a, p, line) = self.own_attempt(&mut tx, user, attempt, true).await?;
        let end = self.finish(&mut tx, &a, &p, &line, false, None).await?;
        tx.commit().await?;
        Ok(end)
    }

    /// The next puzzle after attempt `attempt` (the same theme), in the same channel.
    ///
    /// # Errors
    /// As [`GameService::start_puzzle`]; `NotYourPuzzle`.
    pub async fn next_puzzle(
        &self,
        user: UserId,
        attempt: i64,
        guild: Option<GuildId>,
    ) -> Result<PuzzleView, ServiceError> {
        let a = {
            let mut conn = self.store.read_conn().await?;
            store::attempt(&mut conn, attempt)
                .await?
                .ok_or(ServiceError::NoPuzzle)?
        };
        if a.user_id != user {
            return Err(ServiceError::NotYourPuzzle);
        }
        self.start_puzzle(user, a.channel_id, guild, a.theme.as_deref())
            .await
    }

    /// User `user`'s vote on the puzzle of their finished attempt `attempt` (`up`: 👍). A
    /// puzzle voted down enough is served no more.
    ///
    /// # Errors
    /// `NoPuzzle`, `NotYourPuzzle`, `PuzzleNotOver` (vote once it is over).
    pub async fn vote_puzzle(
        &self,
        user: UserId,
        attempt: i64,
        up: bool,
    ) -> Result<(), ServiceError> {
        let mut tx = self.store.begin_write().await?;
        let (a, p, _) = self.own_attempt(&mut tx, user, attempt, false).await?;
        if a.state == AttemptState::Solving {
            return Err(ServiceError::PuzzleNotOver);
        }
        store::vote_puzzle(&mut tx, user, &p.id, up).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The legal moves of user `user`'s puzzle in `channel` (or of the channel's daily
    /// puzzle) matching `prefix`, for autocomplete; empty when there is none.
    pub async fn puzzle_move_choices(
        &self,
        user: UserId,
        channel: ChannelId,
        prefix: &str,
    ) -> Vec<MoveChoice> {
        let found = async {
            let mut tx = self.store.begin_read().await?;
            let (a, _, line) = self.current_attempt(&mut tx, user, channel, false).await?;
            tx.commit().await?;
            Ok::<_, ServiceError>(line.position_after(usize::try_from(a.progress).unwrap_or(0)))
        }
        .await;
        match found {
            Ok(pos) => move_choices(&pos, prefix, true),
            Err(e) => {
                if !e.is_user_error() {
                    tracing::error!(error = %e, "listing a puzzle's moves");
                }
                Vec::new()
            }
        }
    }

    /// User `user`'s puzzle rating and record (`None`: no rated puzzle yet), with their daily
    /// puzzle streak on server `guild`. A streak whose last day is before yesterday (the
    /// server's date) is shown as 0 now.
    ///
    /// # Errors
    /// `Internal` only.
    pub async fn puzzle_stats(
        &self,
        user: UserId,
        guild: Option<GuildId>,
    ) -> Result<Option<PuzzleStats>, ServiceError> {
        let mut conn = self.store.read_conn().await?;
        let daily_streak = match guild {
            Some(g) => match store::daily_streak(&mut conn, g, user).await? {
                Some((streak, best, last)) => {
                    let s = store::daily_settings(&mut conn, g).await?;
                    let today = daily::local_date(self.now_ms(), s.utc_offset_minutes);
                    let yesterday = daily::previous_date(&today);
                    let alive = last == today || Some(&last) == yesterday.as_ref();
                    Some((if alive { streak } else { 0 }, best))
                }
                None => None,
            },
            None => None,
        };
        Ok(store::puzzle_player(&mut conn, user)
            .await?
            .map(|r| PuzzleStats {
                daily_streak,
                rating: r.glicko.shown(),
                provisional: r.glicko.provisional(),
                solved: r.solved,
                failed: r.failed,
                streak: r.streak,
                best_streak: r.best_streak,
            }))
    }

    /// Server `guild`'s daily puzzle settings.
    ///
    /// # Errors
    /// `Internal` only.
    pub async fn daily_settings(&self, guild: GuildId) -> Result<DailySettings, ServiceError> {
        let mut conn = self.store.read_conn().await?;
        let s = store::daily_settings(&mut conn, guild).await?;
        Ok(DailySettings {
            channel: s.channel_id,
            minute: s.minute,
            utc_offset: s.utc_offset_minutes,
        })
    }

    /// Changes server `guild`'s daily puzzle settings; returns them as they are now. A change
    /// of time or zone takes effect from the next day whose puzzle is not yet posted.
    ///
    /// # Errors
    /// `Internal` only (the adapter reads the time and zone: `crate::puzzles::daily`).
    pub async fn set_daily_settings(
        &self,
        guild: GuildId,
        change: DailyChange,
    ) -> Result<DailySettings, ServiceError> {
        let mut tx = self.store.begin_write().await?;
        let mut s = store::daily_settings(&mut tx, guild).await?;
        if let Some(c) = change.channel {
            s.channel_id = c;
        }
        if let Some(m) = change.minute {
            s.minute = m.clamp(0, 24 * 60 - 1);
        }
        if let Some(o) = change.utc_offset {
            s.utc_offset_minutes = o.clamp(-14 * 60, 14 * 60);
        }
        store::put_daily_settings(&mut tx, &s).await?;
        tx.commit().await?;
        Ok(DailySettings {
            channel: s.channel_id,
            minute: s.minute,
            utc_offset: s.utc_offset_minutes,
        })
    }

    /// Claims the daily puzzles that are due (once per server and day, in the database) and
    /// returns every claimed one not yet posted, today's for its server; an older one a crash
    /// left unposted is dropped (marked posted without a message: a new day has its own).
    /// The puzzle: one made from the server's own games if it has any left, else one of the
    /// shipped set; never a mate in one, never one the server had.
    ///
    /// # Errors
    /// `Internal` only.
    pub async fn claim_due_dailies(&self) -> Result<Vec<DailyPost>, ServiceError> {
        let now = self.now_ms();
        let mut tx = self.store.begin_write().await?;
        for s in store::daily_servers(&mut tx).await? {
            let (Some(channel), Some(day)) = (
                s.channel_id,
                daily::due_day(now, s.minute, s.utc_offset_minutes),
            ) else {
                continue;
            };
            let date = daily::date_text(day);
            if store::daily(&mut tx, s.guild_id, &date).await?.is_some() {
                continue;
            }
            // The server's own puzzles (from its games) first, then the shipped set.
            let mut id = None;
            for own_only in [true, false] {
                let filter = PuzzleFilter {
                    without_theme: Some(NOT_DAILY_THEME),
                    guild: Some(s.guild_id),
                    own_only,
                    not_daily_of: Some(s.guild_id),
                    ..PuzzleFilter::default()
                };
                let n = store::count_puzzles(&mut tx, &filter).await?;
                if n > 0 {
                    let pick = daily::pick(s.guild_id.0, day, n);
                    id = store::nth_puzzle(&mut tx, &filter, pick).await?;
                    break;
                }
            }
            let Some(id) = id else {
                tracing::warn!(guild = s.guild_id.0, "no puzzle left for the daily puzzle");
                continue;
            };
            store::claim_daily(&mut tx, s.guild_id, &date, &id, channel, now).await?;
        }
        let mut posts = Vec::new();
        for d in store::unposted_dailies(&mut tx).await? {
            let s = store::daily_settings(&mut tx, d.guild_id).await?;
            if daily::local_date(now, s.utc_offset_minutes) != d.day {
                store::daily_posted(&mut tx, d.guild_id, &d.day, 0).await?;
                continue;
            }
            let Some(p) = store::puzzle(&mut tx, &d.puzzle_id).await? else {
                continue;
            };
            let line = puzzle_line(&p)?;
            posts.push(DailyPost {
                position: line.start.clone(),
                solver: line.start.turn(),
                puzzle_rating: p.glicko.shown(),
                progress: DailyProgress {
                    guild: d.guild_id,
                    day: d.day,
                    channel: d.channel_id,
                    message: None,
                    puzzle_id: d.puzzle_id,
                    solvers: d.solvers,
                    tries: d.tries,
                    first_solver: d.first_solver,
                    streak: 0,
                },
            });
        }
        tx.commit().await?;
        Ok(posts)
    }

    /// Server `guild`'s daily puzzle of `day` as it stands (`streak` 0).
    ///
    /// # Errors
    /// `Internal` only.
    pub async fn daily_progress(
        &self,
        guild: GuildId,
        day: &str,
    ) -> Result<Option<DailyProgress>, ServiceError> {
        let mut conn = self.store.read_conn().await?;
        Ok(store::daily(&mut conn, guild, day)
            .await?
            .map(|d| DailyProgress {
                guild,
                day: d.day,
                channel: d.channel_id,
                message: d.message_id.map(|m| m as u64),
                puzzle_id: d.puzzle_id,
                solvers: d.solvers,
                tries: d.tries,
                first_solver: d.first_solver,
                streak: 0,
            }))
    }

    /// Records the message a daily puzzle was posted as (answers to it count from then).
    ///
    /// # Errors
    /// `Internal` only.
    pub async fn daily_posted(
        &self,
        guild: GuildId,
        day: &str,
        message: u64,
    ) -> Result<(), ServiceError> {
        let mut tx = self.store.begin_write().await?;
        store::daily_posted(&mut tx, guild, day, message as i64).await?;
        tx.commit().await?;
        Ok(())
    }

    /// When the next daily puzzle of any server is due (Unix ms; `None`: no server has one).
    ///
    /// # Errors
    /// `Internal` only.
    pub async fn next_daily_due_ms(&self) -> Result<Option<i64>, ServiceError> {
        let now = self.now_ms();
        let mut conn = self.store.read_conn().await?;
        let mut next: Option<i64> = None;
        for s in store::daily_servers(&mut conn).await? {
            let date = daily::local_date(now, s.utc_offset_minutes);
            // A day already due but not claimed had no puzzle left to claim (the poster claims
            // what is due before it asks): its next chance is tomorrow's.
            let claimed = store::daily(&mut conn, s.guild_id, &date).await?.is_some()
                || daily::due_day(now, s.minute, s.utc_offset_minutes).is_some();
            let at = daily::next_due_ms(now, s.minute, s.utc_offset_minutes, claimed);
            next = Some(next.map_or(at, |n| n.min(at)));
        }
        Ok(next)
    }
}
