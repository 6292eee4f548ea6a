//! Two service instances on one database, as two bot processes would be (two pools): moves of
//! one game sent to both at once apply once, a deadline is applied once, a computer move is
//! made once, and two processes starting on an empty database apply the migrations once. These
//! need PostgreSQL (`MAKRUK_TEST_POSTGRES_URL`, see `.ci/run`); without it they say so and pass.
//! The `$N` binds are checked on whichever backend the tests run on.

use std::sync::Arc;
use std::time::Duration;

use makruk::Ruleset;
use makruk_bot::clock::{FakeTime, TimeControl};
use makruk_bot::game::{
    Announcement, ChannelId, ColorChoice, EndReason, GameService, ServiceError, UserId,
};
use makruk_bot::game::{ComputerLevel, Terms};
use makruk_bot::store::{Backend, Store};
use testkit::service::{fresh_db_url, fresh_postgres_db, postgres_url, start, Env, BLACK, WHITE};

/// The tests' PostgreSQL server, or `None` after printing why the test does nothing.
fn server(test: &str) -> Option<String> {
    let url = postgres_url();
    if url.is_none() {
        eprintln!("{test}: skipped, MAKRUK_TEST_POSTGRES_URL is not set (a PostgreSQL-only test)");
    }
    url
}

#[tokio::test]
async fn dollar_binds_are_taken_by_number_not_by_position() {
    let dir = tempfile::tempdir().unwrap();
    let url = fresh_db_url(dir.path()).await;
    let store = Store::open(&url).await.unwrap();
    let mut conn = store.read_conn().await.unwrap();
    // Out of order and one used twice, as the store's queries do.
    let row: (i64, String, i64) = sqlx::query_as("SELECT $3 + 0, $1, $2 + $2")
        .bind("first")
        .bind(20_i64)
        .bind(3_i64)
        .fetch_one(&mut *conn)
        .await
        .unwrap();
    assert_eq!(row, (3, "first".to_owned(), 40));
    drop(conn);
    let expected = if postgres_url().is_some() {
        Backend::Postgres
    } else {
        Backend::Sqlite
    };
    assert_eq!(store.backend(), expected);
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_move_sent_to_two_processes_applies_once() {
    let Some(_) = server("the_same_move_sent_to_two_processes_applies_once") else {
        return;
    };
    let env = Env::new().await;
    let a = env.svc.clone();
    let b = GameService::open(&env.url).await.unwrap();
    for round in 0..50_u64 {
        let ch = ChannelId(100 + round);
        start(&a, ch, Ruleset::Standard).await;
        // Both have the game replayed at some version (their caches), then White moves.
        a.play(ch, WHITE, "e4").await.unwrap();
        b.play(ch, BLACK, "e5").await.unwrap();
        let moves = a.legal_moves_san(ch, WHITE, "").await;
        let (first, second) = (moves[0].clone(), moves[moves.len() - 1].clone());
        let (ra, rb) = tokio::join!(
            {
                let a = a.clone();
                async move { a.play(ch, WHITE, &first).await }
            },
            {
                let b = b.clone();
                async move { b.play(ch, WHITE, &second).await }
            }
        );
        let applied = [&ra, &rb].iter().filter(|r| r.is_ok()).count();
        assert_eq!(applied, 1, "round {round}: {ra:?} / {rb:?}");
        for r in [&ra, &rb] {
            if let Err(e) = r {
                assert!(
                    matches!(e, ServiceError::NotYourTurn | ServiceError::Conflict),
                    "round {round}: {e:?}"
                );
            }
        }
        let (sa, sb) = (a.board(ch).await.unwrap(), b.board(ch).await.unwrap());
        assert_eq!(sa.status.plies, 3, "round {round}");
        assert_eq!(sa.position.fen(), sb.position.fen(), "round {round}");
        // The stored moves: exactly three.
        let mut conn = a.store().read_conn().await.unwrap();
        let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM moves WHERE game_id = $1")
            .bind(sa.game_id.0)
            .fetch_one(&mut *conn)
            .await
            .unwrap();
        assert_eq!(stored, 3, "round {round}");
    }
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deadline_both_processes_see_is_applied_once() {
    let Some(_) = server("a_deadline_both_processes_see_is_applied_once") else {
        return;
    };
    const T0: i64 = 1_800_000_000_000;
    const GAMES: u64 = 20;
    let env = Env::new().await;
    let time = Arc::new(FakeTime::new(T0));
    let a = env.svc.clone().with_time(time.clone());
    a.start_clocks().await.unwrap();
    let mut said_a = a.announcements().unwrap();
    let live = TimeControl::Live {
        minutes: 3,
        increment_secs: 0,
    };
    for i in 0..GAMES {
        let ch = ChannelId(200 + i);
        let c = a
            .challenge(
                ch,
                WHITE,
                BLACK,
                false,
                Terms {
                    color: ColorChoice::White,
                    time_control: live,
                    ..Terms::default()
                },
            )
            .await
            .unwrap();
        a.accept(ch, BLACK, Some(c.id)).await.unwrap();
        a.play(ch, WHITE, "e4").await.unwrap();
        a.play(ch, BLACK, "e5").await.unwrap();
    }
    // The second process starts now: it schedules every active game's deadline too.
    let b = GameService::open(&env.url)
        .await
        .unwrap()
        .with_time(time.clone());
    b.start_clocks().await.unwrap();
    let mut said_b = b.announcements().unwrap();
    assert_eq!(b.scheduled().await, a.scheduled().await);
    time.advance(Duration::from_secs(181));
    a.settled().await;
    b.settled().await;
    let mut flagged = Vec::new();
    for rx in [&mut said_a, &mut said_b] {
        while let Ok(said) = rx.try_recv() {
            if let Announcement::TimedOut { channel, reply, .. } = said {
                assert_eq!(reply.status.end.unwrap().reason, EndReason::Timeout);
                flagged.push(channel.0);
            }
        }
    }
    flagged.sort_unstable();
    let expected: Vec<u64> = (0..GAMES).map(|i| 200 + i).collect();
    assert_eq!(flagged, expected, "each game's flag announced exactly once");
    for i in 0..GAMES {
        let board = a.board(ChannelId(200 + i)).await.unwrap();
        assert_eq!(board.status.end.unwrap().reason, EndReason::Timeout);
        assert_eq!(board.status.plies, 2);
    }
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_computer_turn_played_by_both_processes_is_played_once() {
    let Some(_) = server("a_computer_turn_played_by_both_processes_is_played_once") else {
        return;
    };
    const HUMAN: UserId = UserId(2001);
    const BOT: UserId = UserId(2999);
    let env = Env::new().await;
    let a = env.svc.clone();
    let b = GameService::open(&env.url).await.unwrap();
    for round in 0..20_u64 {
        let ch = ChannelId(300 + round);
        // The computer has White: it is to move at once.
        let started = a
            .play_computer(
                ch,
                HUMAN,
                BOT,
                ComputerLevel::new(1).expect("level"),
                Terms {
                    color: ColorChoice::Black,
                    ..Terms::default()
                },
            )
            .await
            .unwrap();
        let turns_a = a.pending_computer_turns().await.unwrap();
        let turns_b = b.pending_computer_turns().await.unwrap();
        let ta = turns_a
            .into_iter()
            .find(|t| t.game_id == started.game_id)
            .expect("the computer's turn, seen by the first process");
        let tb = turns_b
            .into_iter()
            .find(|t| t.game_id == started.game_id)
            .expect("the computer's turn, seen by the second process");
        let moves = ta.game.position().legal_moves();
        let (ma, mb) = (moves[0], moves[moves.len() - 1]);
        let (ra, rb) = tokio::join!(
            {
                let a = a.clone();
                async move { a.computer_move(&ta, ma, None).await }
            },
            {
                let b = b.clone();
                async move { b.computer_move(&tb, mb, None).await }
            }
        );
        let applied = [&ra, &rb].iter().filter(|r| r.is_ok()).count();
        assert_eq!(applied, 1, "round {round}: {ra:?} / {rb:?}");
        for r in [&ra, &rb] {
            if let Err(e) = r {
                assert!(
                    matches!(e, ServiceError::Stale | ServiceError::Conflict),
                    "round {round}: {e:?}"
                );
            }
        }
        assert_eq!(b.board(ch).await.unwrap().status.plies, 1, "round {round}");
        a.resign(ch, HUMAN).await.unwrap();
    }
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_starting_on_an_empty_database_migrate_it_once() {
    let Some(server) = server("two_processes_starting_on_an_empty_database_migrate_it_once") else {
        return;
    };
    let files = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations/postgres"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "sql"))
        })
        .count();
    for _ in 0..5 {
        let url = fresh_postgres_db(&server).await;
        // Both at once on one task (the open future is not `Send`, see `src/discord/mod.rs`):
        // their round trips to the server interleave.
        let (one, two) = tokio::join!(Store::open(&url), Store::open(&url));
        let (one, two) = (one.unwrap(), two.unwrap());
        let mut conn = one.read_conn().await.unwrap();
        let (rows, versions): (i64, i64) = sqlx::query_as(
            "SELECT COUNT(*), COUNT(DISTINCT version) FROM _sqlx_migrations WHERE success",
        )
        .fetch_one(&mut *conn)
        .await
        .unwrap();
        assert_eq!((rows, versions), (files as i64, files as i64));
        drop(conn);
        // Both work on the migrated database.
        for store in [&one, &two] {
            assert!(store.dump().await.unwrap().starts_with("games\n"));
        }
        one.close().await;
        two.close().await;
    }
}

/// `n` processes on `env`'s database: its service and `n - 1` more, each with its own pools.
async fn processes(env: &Env, n: usize) -> Vec<GameService> {
    let mut procs = vec![env.svc.clone()];
    for _ in 1..n {
        procs.push(GameService::open(&env.url).await.unwrap());
    }
    procs
}

/// Many processes (service instances, each with its own pools), many games at once: in every
/// round each process sends a different move for the side to move in every game, all at once.
/// Of each game's conflicting moves exactly one applies (the others get `NotYourTurn` or
/// `Conflict`), every game's stored moves are exactly the plies its row counts, and every process
/// then sees the same position. No lock for all the database: the games' own locks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_processes_moving_in_many_games_at_once_apply_one_move_of_each_conflict() {
    let Some(_) =
        server("many_processes_moving_in_many_games_at_once_apply_one_move_of_each_conflict")
    else {
        return;
    };
    const PROCESSES: usize = 4;
    const GAMES: u64 = 16;
    const ROUNDS: usize = 10;
    let env = Env::new().await;
    let procs = processes(&env, PROCESSES).await;
    let channels: Vec<ChannelId> = (0..GAMES).map(|g| ChannelId(5000 + g)).collect();
    for (i, &ch) in channels.iter().enumerate() {
        start(&procs[i % PROCESSES], ch, Ruleset::Standard).await;
    }
    // The games still being played (a move may end one: mate), and each one's plies.
    let mut live = channels.clone();
    let mut played = std::collections::HashMap::<ChannelId, usize>::new();
    for round in 0..ROUNDS {
        let who = if round % 2 == 0 { WHITE } else { BLACK };
        // Each process's move in each game: different legal moves of the position (the same
        // one when there are fewer, e.g. out of check).
        let mut sends = Vec::new();
        for &ch in &live {
            let legal = procs[0].legal_moves_san(ch, who, "").await;
            assert!(!legal.is_empty(), "round {round}: no legal move");
            for (p, svc) in procs.iter().enumerate() {
                let (svc, mv) = (svc.clone(), legal[p % legal.len()].clone());
                sends.push(tokio::spawn(
                    async move { (ch, svc.play(ch, who, &mv).await) },
                ));
            }
        }
        let mut applied = std::collections::HashMap::<ChannelId, usize>::new();
        let mut over = Vec::new();
        for s in sends {
            let (ch, r) = s.await.unwrap();
            match r {
                Ok(reply) => {
                    *applied.entry(ch).or_default() += 1;
                    if reply.status.end.is_some() {
                        over.push(ch);
                    }
                }
                // Judged after the one that applied: not this side's turn, or the game over.
                Err(
                    ServiceError::NotYourTurn | ServiceError::Conflict | ServiceError::GameOver(_),
                ) => {}
                Err(e) => panic!("round {round}, channel {}: {e:?}", ch.0),
            }
        }
        for &ch in &live {
            assert_eq!(
                applied.get(&ch),
                Some(&1),
                "round {round}, channel {}",
                ch.0
            );
            *played.entry(ch).or_default() += 1;
        }
        live.retain(|ch| !over.contains(ch));
    }
    let mut conn = procs[0].store().read_conn().await.unwrap();
    for &ch in &channels {
        let boards = futures::future::join_all(procs.iter().map(|p| p.board(ch))).await;
        let first = boards[0].as_ref().unwrap();
        let n = played[&ch];
        assert_eq!(first.status.plies as usize, n, "channel {}", ch.0);
        for b in &boards {
            assert_eq!(b.as_ref().unwrap().position.fen(), first.position.fen());
        }
        let plies: Vec<i64> =
            sqlx::query_scalar("SELECT ply FROM moves WHERE game_id = $1 ORDER BY ply")
                .bind(first.game_id.0)
                .fetch_all(&mut *conn)
                .await
                .unwrap();
        assert_eq!(plies, (0..n as i64).collect::<Vec<_>>(), "channel {}", ch.0);
    }
    drop(conn);
    for p in &procs[1..] {
        p.close().await;
    }
}

/// One player's rated games against eight others end at the same moment in four processes:
/// each end reads the player's rating and writes a new one, so they must go one after the other
/// (the ratings' locks). The player's history then has eight rows, each starting from the
/// rating the one before ended with, and their rating row counts eight games.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rated_games_of_one_player_ending_at_once_in_many_processes_are_rated_in_turn() {
    let Some(_) =
        server("rated_games_of_one_player_ending_at_once_in_many_processes_are_rated_in_turn")
    else {
        return;
    };
    use makruk_bot::clock::Kind;
    use makruk_bot::store;
    use testkit::service::{start_on, GUILD};
    const PROCESSES: usize = 4;
    const GAMES: u64 = 8;
    let env = Env::new().await;
    let procs = processes(&env, PROCESSES).await;
    let player = UserId(500);
    for g in 0..GAMES {
        let ch = ChannelId(7000 + g);
        let opponent = UserId(600 + g);
        let svc = &procs[g as usize % PROCESSES];
        start_on(
            svc,
            GUILD,
            ch,
            (player, opponent),
            true,
            TimeControl::DEFAULT,
        )
        .await;
        for (i, mv) in ["e4", "d5", "a4", "h5"].iter().enumerate() {
            let who = if i % 2 == 0 { player } else { opponent };
            svc.play(ch, who, mv).await.unwrap();
        }
    }
    let ends: Vec<_> = (0..GAMES)
        .map(|g| {
            let svc = procs[(g as usize + 1) % PROCESSES].clone();
            tokio::spawn(async move {
                // The player loses the even games and wins the odd ones.
                let loser = if g % 2 == 0 { player } else { UserId(600 + g) };
                svc.resign(ChannelId(7000 + g), loser).await
            })
        })
        .collect();
    for e in ends {
        let reply = e.await.unwrap().expect("resign");
        assert!(reply.ratings.is_some(), "a rated end is rated");
    }
    let mut conn = procs[0].store().read_conn().await.unwrap();
    let history = store::history(
        &mut conn,
        GUILD,
        player,
        makruk::Variant::Makruk,
        Kind::Correspondence,
    )
    .await
    .unwrap();
    assert_eq!(history.len(), GAMES as usize);
    for pair in history.windows(2) {
        assert!(
            (pair[1].rating_before - pair[0].after.rating).abs() < 1e-9,
            "each rating starts where the one before ended: {pair:?}"
        );
    }
    let row = store::rating(
        &mut conn,
        GUILD,
        player,
        makruk::Variant::Makruk,
        Kind::Correspondence,
    )
    .await
    .unwrap()
    .expect("the player's rating");
    assert_eq!(row.games, GAMES as i64);
    assert_eq!((row.wins, row.losses), (GAMES as i64 / 2, GAMES as i64 / 2));
    assert!((row.glicko.rating - history.last().unwrap().after.rating).abs() < 1e-9);
    drop(conn);
    for p in &procs[1..] {
        p.close().await;
    }
}
