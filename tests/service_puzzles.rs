//! Puzzles through the game service (issue 24): the shipped set stored once, a puzzle served
//! and answered move by move, wrong moves, hints, the solution, ratings of both sides, votes,
//! themes, and the daily puzzle: claimed once when due, never a mate in one, never twice in a
//! server, answered once per user, counted, and all of it across a restart.

use std::sync::Arc;
use std::time::Duration;

use makruk_bot::clock::FakeTime;
use makruk_bot::game::{
    ChannelId, DailyChange, GameService, GuildId, PuzzleView, ServiceError, SolveOutcome, UserId,
};
use makruk_bot::puzzles::{self, Line};
use makruk_bot::store::{self, PuzzleFilter};
use testkit::service::Env;

const CH: ChannelId = ChannelId(500);
const GUILD: GuildId = GuildId(9000);
const ALICE: UserId = UserId(11);
const BOB: UserId = UserId(12);

async fn env() -> Env {
    let env = Env::new().await;
    let added = env
        .svc
        .install_puzzles(puzzles::shipped())
        .await
        .expect("install");
    assert_eq!(added, puzzles::shipped().len());
    env
}

/// The solution line of the puzzle `view` shows, in UCI.
fn solution(id: &str) -> Vec<String> {
    puzzles::shipped()
        .iter()
        .find(|p| p.id == id)
        .expect("a shipped puzzle")
        .moves
        .clone()
}

async fn puzzle_rating(svc: &GameService, id: &str) -> (f64, i64) {
    let mut conn = svc.store().read_conn().await.expect("conn");
    let p = store::puzzle(&mut conn, id)
        .await
        .expect("read")
        .expect("stored");
    (p.glicko.rating, p.plays)
}

/// Plays the whole solution of `view` as `user`; returns the end.
async fn solve_all(
    svc: &GameService,
    user: UserId,
    channel: ChannelId,
    view: &PuzzleView,
) -> makruk_bot::game::PuzzleEnd {
    let line = solution(&view.puzzle_id);
    let mut i = 0;
    loop {
        match svc
            .solve_puzzle(user, channel, &line[i])
            .await
            .expect("a right move")
        {
            SolveOutcome::Continue { view: next, .. } => {
                assert_eq!(
                    next.last_move.map(|m| makruk::uci::to_uci(&m)),
                    Some(line[i + 1].clone())
                );
                i += 2;
                assert_eq!(next.moves_left, (line.len() - i).div_ceil(2));
            }
            SolveOutcome::Done(end) => {
                assert_eq!(i + 1, line.len(), "done at the solution's last move");
                return *end;
            }
        }
    }
}

#[tokio::test]
async fn the_shipped_set_is_stored_once_and_kept_across_a_restart() {
    let mut env = env().await;
    assert_eq!(
        env.svc
            .install_puzzles(puzzles::shipped())
            .await
            .expect("again"),
        0
    );
    env.restart().await;
    assert_eq!(
        env.svc
            .install_puzzles(puzzles::shipped())
            .await
            .expect("after restart"),
        0
    );
    let mut conn = env.svc.store().read_conn().await.expect("conn");
    let n = store::shipped_puzzle_count(&mut conn).await.expect("count");
    assert_eq!(n, puzzles::shipped().len() as i64);
}

#[tokio::test]
async fn a_puzzle_solved_move_by_move_raises_the_players_rating_and_lowers_the_puzzles() {
    let env = env().await;
    let view = env
        .svc
        .start_puzzle(ALICE, CH, Some(GUILD), None)
        .await
        .expect("a puzzle");
    assert!(view.rated && !view.repeat);
    assert_eq!(view.player_rating, (1500, true));
    let line = solution(&view.puzzle_id);
    let p = puzzles::shipped()
        .iter()
        .find(|p| p.id == view.puzzle_id)
        .unwrap();
    let start = Line::new(&p.fen, &p.moves).expect("line").start;
    assert_eq!(view.position.fen(), start.fen());
    assert_eq!(view.solver, start.turn());
    assert_eq!(view.moves_left, line.len().div_ceil(2));
    let (before, plays) = puzzle_rating(&env.svc, &view.puzzle_id).await;
    let end = solve_all(&env.svc, ALICE, CH, &view).await;
    assert!(end.solved);
    let (from, to) = end.rating.expect("rated");
    assert_eq!(from, 1500);
    assert!(to > from, "{from} → {to}");
    assert_eq!(end.streak, 1);
    assert_eq!(end.solution.len(), line.len());
    let (after, plays_after) = puzzle_rating(&env.svc, &view.puzzle_id).await;
    assert!(after < before, "the puzzle lost: {before} → {after}");
    assert_eq!(plays_after, plays + 1);
    let stats = env
        .svc
        .puzzle_stats(ALICE, None)
        .await
        .expect("stats")
        .expect("some");
    assert_eq!((stats.solved, stats.failed, stats.streak), (1, 0, 1));
    // It is over: another answer finds no puzzle.
    assert!(matches!(
        env.svc.solve_puzzle(ALICE, CH, &line[0]).await,
        Err(ServiceError::NoPuzzle)
    ));
}

#[tokio::test]
async fn a_wrong_move_fails_the_puzzle_and_bad_input_changes_nothing() {
    let env = env().await;
    let view = env
        .svc
        .start_puzzle(ALICE, CH, None, None)
        .await
        .expect("a puzzle");
    let line = solution(&view.puzzle_id);
    // Unreadable and illegal moves are refused; the puzzle stays where it was.
    for bad in ["", "zz9", "Ka1a8", &"x".repeat(500)] {
        let e = env.svc.solve_puzzle(ALICE, CH, bad).await.expect_err(bad);
        assert!(
            matches!(e, ServiceError::BadMove(_) | ServiceError::InputTooLong),
            "{bad}: {e}"
        );
    }
    // Another user has no puzzle here.
    assert!(matches!(
        env.svc.solve_puzzle(BOB, CH, &line[0]).await,
        Err(ServiceError::NoPuzzle)
    ));
    let wrong = view
        .position
        .legal_moves()
        .into_iter()
        .map(|m| makruk::uci::to_uci(&m))
        .find(|m| {
            *m != line[0]
                && !view
                    .position
                    .after(&makruk::parse_move(&view.position, m).unwrap())
                    .is_checkmate()
        })
        .expect("another move");
    let SolveOutcome::Done(end) = env
        .svc
        .solve_puzzle(ALICE, CH, &wrong)
        .await
        .expect("judged")
    else {
        panic!("a wrong move ends the puzzle");
    };
    assert!(!end.solved);
    let (from, to) = end.rating.expect("rated");
    assert!(to < from);
    assert_eq!(end.streak, 0);
    assert_eq!(end.solution.len(), line.len());
    let stats = env
        .svc
        .puzzle_stats(ALICE, None)
        .await
        .expect("stats")
        .expect("some");
    assert_eq!((stats.solved, stats.failed), (0, 1));
}

#[tokio::test]
async fn a_hint_unrates_the_puzzle_and_the_solution_fails_it() {
    let env = env().await;
    let view = env
        .svc
        .start_puzzle(ALICE, CH, None, None)
        .await
        .expect("a puzzle");
    let line = solution(&view.puzzle_id);
    // Only its solver may press its buttons.
    assert!(matches!(
        env.svc.puzzle_hint(BOB, view.attempt).await,
        Err(ServiceError::NotYourPuzzle)
    ));
    let (role, square) = env
        .svc
        .puzzle_hint(ALICE, view.attempt)
        .await
        .expect("hint");
    let first = makruk::parse_move(&view.position, &line[0]).expect("legal");
    assert_eq!(square, first.from);
    assert_eq!(view.position.piece_at(square).map(|p| p.role), Some(role));
    let end = solve_all(&env.svc, ALICE, CH, &view).await;
    assert!(end.solved);
    assert_eq!(end.rating, None, "a hinted puzzle is unrated");
    assert_eq!(
        env.svc.puzzle_stats(ALICE, None).await.expect("stats"),
        None
    );

    // The solution: the attempt fails (rated: a loss), and cannot be asked twice.
    let view = env
        .svc
        .start_puzzle(ALICE, CH, None, None)
        .await
        .expect("next");
    assert_ne!(view.puzzle_id, end.puzzle_id, "a puzzle not tried yet");
    let end = env
        .svc
        .puzzle_solution(ALICE, view.attempt)
        .await
        .expect("solution");
    assert!(!end.solved && end.played.is_none());
    assert!(end.rating.is_some_and(|(a, b)| b < a));
    assert!(matches!(
        env.svc.puzzle_solution(ALICE, view.attempt).await,
        Err(ServiceError::PuzzleOver)
    ));
}

async fn by_id(svc: &GameService, id: &str) -> store::PuzzleRow {
    let mut conn = svc.store().read_conn().await.expect("conn");
    store::puzzle(&mut conn, id)
        .await
        .expect("read")
        .expect("stored")
}

#[tokio::test]
async fn votes_count_once_per_user_and_a_puzzle_voted_down_is_served_no_more() {
    let env = env().await;
    let mut attempts = Vec::new();
    let first = env
        .svc
        .start_puzzle(UserId(100), CH, None, None)
        .await
        .expect("a puzzle");
    assert!(matches!(
        env.svc.vote_puzzle(UserId(100), first.attempt, false).await,
        Err(ServiceError::PuzzleNotOver)
    ));
    env.svc
        .puzzle_solution(UserId(100), first.attempt)
        .await
        .expect("over");
    attempts.push((UserId(100), first.attempt));
    // Four more users finish puzzles of their own; their votes on the first one go to the
    // store below (the service lets only its solver vote through its attempt).
    for u in 101..105 {
        let v = env
            .svc
            .start_puzzle(UserId(u), CH, None, None)
            .await
            .expect("a puzzle");
        env.svc
            .puzzle_solution(UserId(u), v.attempt)
            .await
            .expect("over");
        attempts.push((UserId(u), v.attempt));
    }
    let id = first.puzzle_id.clone();
    // The same vote twice counts once; a changed vote moves from one side to the other.
    env.svc
        .vote_puzzle(UserId(100), first.attempt, true)
        .await
        .expect("vote");
    env.svc
        .vote_puzzle(UserId(100), first.attempt, true)
        .await
        .expect("again");
    let p = by_id(&env.svc, &id).await;
    assert_eq!((p.votes_up, p.votes_down), (1, 0));
    env.svc
        .vote_puzzle(UserId(100), first.attempt, false)
        .await
        .expect("changed");
    let p = by_id(&env.svc, &id).await;
    assert_eq!((p.votes_up, p.votes_down), (0, 1));
    assert!(matches!(
        env.svc.vote_puzzle(UserId(101), first.attempt, false).await,
        Err(ServiceError::NotYourPuzzle)
    ));
    // Five votes down on one puzzle take it out of what is served.
    let mut conn = env.svc.store().begin_write().await.expect("tx");
    for u in 101..105 {
        store::vote_puzzle(&mut conn, UserId(u), &id, false)
            .await
            .expect("vote");
    }
    conn.commit().await.expect("commit");
    let mut conn = env.svc.store().read_conn().await.expect("conn");
    let all = store::count_puzzles(&mut conn, &PuzzleFilter::default())
        .await
        .expect("count");
    assert_eq!(all, puzzles::shipped().len() as i64 - 1);
    let near = store::puzzles_near(
        &mut conn,
        &PuzzleFilter::default(),
        by_id(&env.svc, &id).await.glicko.rating,
        5000,
    )
    .await
    .expect("near");
    assert!(!near.contains(&id));
}

#[tokio::test]
async fn a_theme_asked_for_is_served_and_shown() {
    let env = env().await;
    for theme in ["mateIn2", "counting", "winMaterial"] {
        let view = env
            .svc
            .start_puzzle(ALICE, CH, None, Some(theme))
            .await
            .unwrap_or_else(|e| panic!("{theme}: {e}"));
        let themes = view.themes.expect("shown when asked for");
        assert!(themes.iter().any(|t| t == theme), "{theme}: {themes:?}");
    }
    assert!(matches!(
        env.svc
            .start_puzzle(ALICE, CH, None, Some("nonsense"))
            .await,
        Err(ServiceError::UnknownPuzzleTheme)
    ));
    // Without a theme, none is shown (it would give the answer away).
    let view = env
        .svc
        .start_puzzle(ALICE, CH, None, None)
        .await
        .expect("any");
    assert!(view.themes.is_none());
}

#[tokio::test]
async fn puzzles_are_per_user_and_channel() {
    let env = env().await;
    let a = env
        .svc
        .start_puzzle(ALICE, CH, None, None)
        .await
        .expect("alice");
    let b = env
        .svc
        .start_puzzle(BOB, CH, None, None)
        .await
        .expect("bob");
    let a2 = env
        .svc
        .start_puzzle(ALICE, ChannelId(501), None, None)
        .await
        .expect("alice 2");
    // Each answers their own.
    let la = solution(&a.puzzle_id);
    let la2 = solution(&a2.puzzle_id);
    env.svc
        .solve_puzzle(ALICE, CH, &la[0])
        .await
        .expect("alice's move");
    env.svc
        .solve_puzzle(ALICE, ChannelId(501), &la2[0])
        .await
        .expect("alice's other");
    assert_ne!(a.attempt, b.attempt);
    // A new /puzzle in a channel replaces the one in progress there.
    let a3 = env
        .svc
        .start_puzzle(ALICE, CH, None, None)
        .await
        .expect("replaced");
    let l3 = solution(&a3.puzzle_id);
    env.svc
        .solve_puzzle(ALICE, CH, &l3[0])
        .await
        .expect("the new one is answered");
}

/// 2026-12-04 00:00 UTC in Unix ms.
const DAY0: i64 = 20_791 * 86_400_000;

#[tokio::test]
async fn the_daily_puzzle_is_claimed_once_when_due_and_answered_once_per_user() {
    let mut env = env().await;
    let time = Arc::new(FakeTime::new(DAY0));
    env.svc = env.svc.clone().with_time(time.clone());
    // No server has a daily puzzle yet.
    assert!(env.svc.claim_due_dailies().await.expect("claim").is_empty());
    assert_eq!(env.svc.next_daily_due_ms().await.expect("next"), None);
    let daily_ch = ChannelId(600);
    let settings = env
        .svc
        .set_daily_settings(
            GUILD,
            DailyChange {
                channel: Some(Some(daily_ch)),
                minute: Some(9 * 60),
                utc_offset: Some(7 * 60),
            },
        )
        .await
        .expect("set");
    assert_eq!(settings.channel, Some(daily_ch));
    // 00:00 UTC is 07:00 in UTC+7: due at 09:00 there, 02:00 UTC.
    assert!(env.svc.claim_due_dailies().await.expect("claim").is_empty());
    assert_eq!(
        env.svc.next_daily_due_ms().await.expect("next"),
        Some(DAY0 + 2 * 3_600_000)
    );
    // Nobody can answer before it is posted.
    assert!(matches!(
        env.svc.solve_puzzle(ALICE, daily_ch, "e4").await,
        Err(ServiceError::NoPuzzle)
    ));
    time.advance(Duration::from_secs(2 * 3600));
    let posts = env.svc.claim_due_dailies().await.expect("claim");
    assert_eq!(posts.len(), 1);
    let post = &posts[0];
    assert_eq!(post.progress.day, "2026-12-04");
    assert_eq!(post.progress.channel, daily_ch);
    let p = puzzles::shipped()
        .iter()
        .find(|p| p.id == post.progress.puzzle_id)
        .expect("shipped");
    assert!(
        !p.themes.iter().any(|t| t == "mateIn1"),
        "never a mate in one"
    );
    // A restart before the message went: the claim is posted then, the same puzzle.
    env.restart().await;
    env.svc = env.svc.clone().with_time(time.clone());
    let again = env.svc.claim_due_dailies().await.expect("claim");
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].progress.puzzle_id, post.progress.puzzle_id);
    env.svc
        .daily_posted(GUILD, &post.progress.day, 777)
        .await
        .expect("posted");
    assert!(env.svc.claim_due_dailies().await.expect("claim").is_empty());
    assert_eq!(
        env.svc.next_daily_due_ms().await.expect("next"),
        Some(DAY0 + 26 * 3_600_000),
        "tomorrow's"
    );

    // Alice solves it through /solve in the channel; Bob fails it; neither tries twice.
    let line = p.moves.clone();
    let mut i = 0;
    let end = loop {
        match env
            .svc
            .solve_puzzle(ALICE, daily_ch, &line[i])
            .await
            .expect("right")
        {
            SolveOutcome::Continue { view, .. } => {
                assert_eq!(view.daily, Some((GUILD, "2026-12-04".to_string())));
                i += 2;
            }
            SolveOutcome::Done(end) => break end,
        }
    };
    assert!(end.solved);
    let d = end.daily.expect("a daily puzzle");
    assert_eq!((d.solvers, d.tries, d.first_solver), (1, 1, Some(ALICE)));
    assert_eq!(d.message, Some(777));
    assert_eq!(d.streak, 1);
    assert!(matches!(
        env.svc.solve_puzzle(ALICE, daily_ch, &line[0]).await,
        Err(ServiceError::DailyDone)
    ));
    let start = Line::new(&p.fen, &p.moves).expect("line").start;
    let wrong = start
        .legal_moves()
        .into_iter()
        .find(|m| makruk::uci::to_uci(m) != line[0] && !start.after(m).is_checkmate())
        .map(|m| makruk::uci::to_uci(&m))
        .expect("a wrong move");
    let SolveOutcome::Done(bob) = env
        .svc
        .solve_puzzle(BOB, daily_ch, &wrong)
        .await
        .expect("judged")
    else {
        panic!("a wrong move ends it");
    };
    let d = bob.daily.expect("daily");
    assert_eq!((d.solvers, d.tries, d.first_solver), (1, 2, Some(ALICE)));

    // Carol starts it and leaves it half done (when the line is long enough).
    const CAROL: UserId = UserId(13);
    let carol_started = line.len() >= 3;
    if carol_started {
        let SolveOutcome::Continue { .. } = env
            .svc
            .solve_puzzle(CAROL, daily_ch, &line[0])
            .await
            .expect("right")
        else {
            panic!("the line goes on");
        };
    }

    // The next day: another puzzle; Alice's streak grows.
    time.advance(Duration::from_secs(24 * 3600));
    let next = env.svc.claim_due_dailies().await.expect("claim");
    assert_eq!(next.len(), 1);
    assert_eq!(next[0].progress.day, "2026-12-05");
    assert_ne!(next[0].progress.puzzle_id, post.progress.puzzle_id);
    env.svc
        .daily_posted(GUILD, "2026-12-05", 778)
        .await
        .expect("posted");
    let p2 = puzzles::shipped()
        .iter()
        .find(|p| p.id == next[0].progress.puzzle_id)
        .expect("shipped");
    let mut i = 0;
    let end = loop {
        match env
            .svc
            .solve_puzzle(ALICE, daily_ch, &p2.moves[i])
            .await
            .expect("right")
        {
            SolveOutcome::Continue { .. } => i += 2,
            SolveOutcome::Done(end) => break end,
        }
    };
    assert_eq!(end.daily.expect("daily").streak, 2);
    let stats = env
        .svc
        .puzzle_stats(ALICE, Some(GUILD))
        .await
        .expect("stats");
    assert_eq!(stats.and_then(|s| s.daily_streak), Some((2, 2)));
    // Carol's unfinished puzzle of yesterday does not hold her: her answer goes to today's.
    if carol_started {
        let outcome = env
            .svc
            .solve_puzzle(CAROL, daily_ch, &p2.moves[0])
            .await
            .expect("today's puzzle");
        let daily = match outcome {
            SolveOutcome::Continue { view, .. } => view.daily,
            SolveOutcome::Done(end) => end.daily.map(|d| (d.guild, d.day)),
        };
        assert_eq!(daily, Some((GUILD, "2026-12-05".to_string())));
    }

    // Turned off: nothing more is claimed.
    env.svc
        .set_daily_settings(
            GUILD,
            DailyChange {
                channel: Some(None),
                ..DailyChange::default()
            },
        )
        .await
        .expect("off");
    time.advance(Duration::from_secs(24 * 3600));
    assert!(env.svc.claim_due_dailies().await.expect("claim").is_empty());
}

/// A win missed in a server's game becomes a puzzle of that server, naming the player: found
/// after the game's analysis, stored with its origin, served only there.
#[tokio::test]
async fn a_missed_win_in_a_servers_game_becomes_its_puzzle() {
    use makruk_bot::puzzles::from_games::{missed_wins, puzzles_of_game};
    use makruk_engine::analysis::analyse;
    use makruk_engine::puzzle::FindConfig;
    use testkit::service::{start_from_fen, WHITE};

    // No shipped set here: the game's puzzle is the only one.
    let env = Env::new().await;
    // White can take Black's undefended Ruea (Rxa8); any other move leaves its own Ruea to
    // Black's. White plays Ke2 instead, then resigns.
    let fen = "r3k3/8/8/8/8/8/8/R3K3 w - - 0 1";
    let start = makruk::Position::from_fen(fen, makruk::Ruleset::Standard).expect("FEN");
    let mut engine = makruk_engine::Engine::new(16);
    let id = start_from_fen(&env.svc, CH, fen, makruk::Ruleset::Standard).await;
    let mut conn = env.svc.store().begin_write().await.expect("tx");
    sqlx::query("UPDATE games SET guild_id = $1 WHERE id = $2")
        .bind(GUILD.0 as i64)
        .bind(id.0)
        .execute(&mut *conn)
        .await
        .expect("a server's game");
    conn.commit().await.expect("commit");
    env.svc.play(CH, WHITE, "Ke2").await.expect("played");
    env.svc.resign(CH, WHITE).await.expect("over");
    let record = env.svc.record(CH, Some(id)).await.expect("record");
    let analysis = analyse(&mut engine, &record.game, 40_000, &mut |_| {});
    assert_eq!(missed_wins(&analysis, |_| true), [0]);
    assert!(missed_wins(&analysis, |c| c == makruk::Color::Black).is_empty());
    let missed = WHITE;
    let cfg = FindConfig {
        nodes: 100_000,
        ..FindConfig::default()
    };
    let found = puzzles_of_game(&mut engine, &record.game, &analysis, |_| true, &cfg);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].ply, 0);
    assert_eq!(found[0].puzzle.moves[0], "a1a8", "Rxa8");
    assert_eq!(found[0].mover, makruk::Color::White);
    let added = env
        .svc
        .add_game_puzzles(record.game_id, &found)
        .await
        .expect("stored");
    assert_eq!(added, 1);
    assert_eq!(
        env.svc
            .add_game_puzzles(record.game_id, &found)
            .await
            .expect("again"),
        0
    );

    // Served on its server, with its origin; not elsewhere.
    let view = env
        .svc
        .start_puzzle(ALICE, ChannelId(700), Some(GUILD), None)
        .await
        .expect("the server's puzzle");
    let (player, at) = view.origin.expect("from a game");
    assert_eq!(player, missed);
    assert!(at >= 0);
    assert_eq!(view.position.fen(), start.fen());
    assert!(matches!(
        env.svc
            .start_puzzle(BOB, ChannelId(700), Some(GuildId(1)), None)
            .await,
        Err(ServiceError::NoPuzzles)
    ));
    assert!(matches!(
        env.svc.start_puzzle(BOB, ChannelId(700), None, None).await,
        Err(ServiceError::NoPuzzles)
    ));

    // The server's daily puzzle is its own game's before any of the shipped set.
    env.svc
        .install_puzzles(puzzles::shipped())
        .await
        .expect("install");
    env.svc
        .set_daily_settings(
            GUILD,
            DailyChange {
                channel: Some(Some(ChannelId(701))),
                minute: Some(0),
                utc_offset: Some(0),
            },
        )
        .await
        .expect("set");
    let posts = env.svc.claim_due_dailies().await.expect("claim");
    assert_eq!(posts.len(), 1);
    assert_eq!(posts[0].progress.puzzle_id, view.puzzle_id);
}

/// Leaving a rated puzzle for another counts as failing it: a hard puzzle cannot be dodged.
#[tokio::test]
async fn a_rated_puzzle_left_for_another_is_a_loss() {
    let env = env().await;
    let first = env
        .svc
        .start_puzzle(ALICE, CH, None, None)
        .await
        .expect("first");
    assert!(first.rated);
    let (before, plays) = puzzle_rating(&env.svc, &first.puzzle_id).await;
    let second = env
        .svc
        .start_puzzle(ALICE, CH, None, None)
        .await
        .expect("second");
    // Its answer says so.
    let (from, to) = second.left.expect("the puzzle left counted");
    assert!(from == 1500 && to < from);
    let stats = env
        .svc
        .puzzle_stats(ALICE, None)
        .await
        .expect("stats")
        .expect("rated");
    assert_eq!((stats.solved, stats.failed), (0, 1));
    assert!(stats.rating < 1500);
    let (after, plays_after) = puzzle_rating(&env.svc, &first.puzzle_id).await;
    assert!(after > before && plays_after == plays + 1);
}

/// A server whose daily puzzle cannot be claimed (no puzzle left) is next due tomorrow, not
/// at once again (the poster would spin).
#[tokio::test]
async fn a_daily_puzzle_that_cannot_be_claimed_is_tried_again_tomorrow() {
    let mut env = Env::new().await; // no puzzles at all
    let time = Arc::new(FakeTime::new(DAY0 + 12 * 3_600_000));
    env.svc = env.svc.clone().with_time(time.clone());
    env.svc
        .set_daily_settings(
            GUILD,
            DailyChange {
                channel: Some(Some(ChannelId(600))),
                minute: Some(0),
                utc_offset: Some(0),
            },
        )
        .await
        .expect("set");
    assert!(env.svc.claim_due_dailies().await.expect("claim").is_empty());
    assert_eq!(
        env.svc.next_daily_due_ms().await.expect("next"),
        Some(DAY0 + 24 * 3_600_000)
    );
}
