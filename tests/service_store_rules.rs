//! Clock rules the store writes a second time in SQL, checked against their owner in Rust
//! ([`ClockState`]) on a table of cases, on SQLite or on PostgreSQL (`MAKRUK_TEST_POSTGRES_URL`):
//! the downtime given back at start-up (`store::record_downtime` and the view `games_now`
//! against `ClockState::resume` applied at each start-up),
//! and the leader's sweep for overdue flags and correspondence reminders
//! (`store::clock_candidates` against `ClockState::is_out_of_time` and
//! `ClockState::reminder_due_at_ms`).

use std::collections::HashSet;

use makruk::Color;
use makruk_bot::clock::{ClockState, StoredClock, TimeControl};
use makruk_bot::game::{ChannelId, GameId};
use makruk_bot::store::{self, NewGame, Store};
use testkit::service::{fresh_db_url, BLACK, START_FEN, WHITE};

/// A fresh store (and the directory of its SQLite file).
async fn fresh_store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = fresh_db_url(dir.path()).await;
    let store = Store::open(&url).await.expect("open store");
    (dir, store)
}

/// Inserts an active game in channel `channel` with clock `clock` under `control`.
async fn insert(store: &Store, channel: u64, control: TimeControl, clock: StoredClock) -> GameId {
    let mut tx = store.begin_write().await.expect("begin");
    let id = store::insert_game(
        &mut tx,
        &NewGame {
            channel_id: ChannelId(channel),
            white_id: WHITE,
            black_id: BLACK,
            ruleset: makruk::Ruleset::Traditional,
            variant: makruk::Variant::Makruk,
            start_fen: START_FEN,
            now: 0,
            computer: None,
            time_control: control,
            clock,
            guild_id: None,
            rated: false,
        },
    )
    .await
    .expect("insert game");
    tx.commit().await.expect("commit");
    id
}

/// Each active game's stored turn start, by id.
async fn turn_starts(store: &Store) -> Vec<(GameId, i64)> {
    let mut conn = store.read_conn().await.expect("conn");
    store::active_games(&mut conn)
        .await
        .expect("active games")
        .into_iter()
        .map(|g| (g.id, g.clock.turn_started_ms))
        .collect()
}

#[tokio::test]
async fn the_downtime_given_back_in_sql_is_clock_state_resume() {
    let (_dir, store) = fresh_store().await;
    let control = TimeControl::Live {
        minutes: 5,
        increment_secs: 3,
    };
    // (last heartbeat, now): a downtime, none, and a clock set back.
    let restarts = [
        (10_000, 50_000),
        (60_000, 60_000),
        (90_000, 70_000),
        (100_000, 400_000),
    ];
    // Each restart adds games whose turn started before, at, between, at `now` and after
    // `now`; every game already there is given back each later restart's downtime too.
    let mut expected: Vec<(GameId, ClockState)> = Vec::new();
    let mut channel = 1;
    for (since, now) in restarts {
        for turn_started_ms in [
            since - 5_000,
            since,
            since + 1,
            (since + now) / 2,
            now,
            now + 7_000,
        ] {
            let stored = StoredClock {
                white_ms: 300_000,
                black_ms: 300_000,
                turn_started_ms,
                reminder_sent: false,
            };
            channel += 1;
            let id = insert(&store, channel, control, stored).await;
            expected.push((
                id,
                ClockState::from_stored(control, stored, Color::White, 0),
            ));
        }
        let mut tx = store.begin_write().await.expect("begin");
        let stored = store::record_downtime(&mut tx, since, now)
            .await
            .expect("record the downtime");
        tx.commit().await.expect("commit");
        for (_, clock) in &mut expected {
            clock.resume(since, now);
        }
        let want: Vec<(GameId, i64)> = expected
            .iter()
            .map(|(id, c)| (*id, c.turn_started_ms()))
            .collect();
        assert_eq!(
            turn_starts(&store).await,
            want,
            "after a restart at {now} with the last heartbeat at {since}"
        );
        assert_eq!(
            stored,
            (now - since).max(0),
            "downtime at {now} (heartbeat {since})"
        );
    }
}

/// Game `id` as read.
async fn read(store: &Store, id: GameId) -> store::GameRow {
    let mut conn = store.read_conn().await.expect("conn");
    store::game(&mut conn, id)
        .await
        .expect("read")
        .expect("game")
}

/// Stores downtime `since..now`.
async fn down(store: &Store, since: i64, now: i64) {
    let mut tx = store.begin_write().await.expect("begin");
    store::record_downtime(&mut tx, since, now)
        .await
        .expect("record the downtime");
    tx.commit().await.expect("commit");
}

#[tokio::test]
async fn a_game_written_between_downtimes_is_given_each_back_once() {
    let (_dir, store) = fresh_store().await;
    let control = TimeControl::Correspondence { days: 1 };
    // Turns that started long before the first downtime (given back less than its own start:
    // the moved start is still before it), just before it, and within its heartbeat interval.
    let starts = [0, 9_000, 10_500];
    let mut games = Vec::new();
    for (i, turn_started_ms) in starts.into_iter().enumerate() {
        let stored = StoredClock {
            white_ms: control.initial_ms(),
            black_ms: control.initial_ms(),
            turn_started_ms,
            reminder_sent: false,
        };
        let id = insert(&store, 10 + i as u64, control, stored).await;
        games.push((
            id,
            ClockState::from_stored(control, stored, Color::White, 0),
        ));
    }
    let downtimes = [(10_000, 14_000), (20_000, 21_000), (30_000, 38_000)];
    for (k, (since, now)) in downtimes.into_iter().enumerate() {
        down(&store, since, now).await;
        for (id, clock) in &mut games {
            clock.resume(since, now);
            let row = read(&store, *id).await;
            assert_eq!(
                row.clock.turn_started_ms,
                clock.turn_started_ms(),
                "after {k}"
            );
            // Written back as read (e.g. a draw offer): the stored start now includes the
            // downtimes so far, and no later read gives them back twice.
            let mut conn = store.begin_write().await.expect("begin");
            assert!(store::update_game(&mut conn, &row, row.version)
                .await
                .expect("update"));
            conn.commit().await.expect("commit");
            let again = read(&store, *id).await;
            assert_eq!(again.clock, row.clock, "written back after {k}");
        }
    }
    // A new turn (a move) after every downtime: none of them is given back to it; the rows no
    // active game needs any more are deleted at the next start-up.
    for (id, clock) in &mut games {
        let mut row = read(&store, *id).await;
        row.clock.turn_started_ms = 40_000;
        let mut conn = store.begin_write().await.expect("begin");
        assert!(store::update_game(&mut conn, &row, row.version)
            .await
            .expect("update"));
        conn.commit().await.expect("commit");
        *clock = ClockState::from_stored(control, row.clock, Color::White, 1);
    }
    down(&store, 50_000, 51_000).await;
    for (id, clock) in &mut games {
        clock.resume(50_000, 51_000);
        assert_eq!(read(&store, *id).await.clock.turn_started_ms, 41_000);
        assert_eq!(clock.turn_started_ms(), 41_000);
    }
    let mut conn = store.read_conn().await.expect("conn");
    let left: Vec<i64> = sqlx::query_scalar("SELECT since_ms FROM downtimes ORDER BY since_ms")
        .fetch_all(&mut *conn)
        .await
        .expect("downtimes");
    assert_eq!(
        left,
        [50_000],
        "the downtimes no active game needs are deleted"
    );
}

/// Whether the clock of a game (its side to move unknown to SQL: either) is due at `at`: a
/// flag that fell or a reminder to send.
fn due(control: TimeControl, stored: StoredClock, at: i64) -> bool {
    Color::ALL.into_iter().any(|turn| {
        let clock = ClockState::from_stored(control, stored, turn, 2);
        clock.is_out_of_time(at) || clock.reminder_due_at_ms().is_some_and(|r| r <= at)
    })
}

#[tokio::test]
async fn the_sweeps_overdue_clocks_in_sql_are_the_clock_rules() {
    let (_dir, store) = fresh_store().await;
    let live = TimeControl::Live {
        minutes: 5,
        increment_secs: 3,
    };
    let day = TimeControl::Correspondence { days: 1 };
    let start = 1_000_000;
    let mut games = Vec::new();
    let mut channel = 1;
    // Live clocks, either side shorter; correspondence clocks (both sides have the full period
    // at the start of every turn), the reminder sent or not.
    let mut clocks = Vec::new();
    for (white_ms, black_ms) in [(300_000, 300_000), (1_000, 250_000), (250_000, 1_000)] {
        clocks.push((live, white_ms, black_ms, false));
    }
    for reminder_sent in [false, true] {
        clocks.push((day, day.initial_ms(), day.initial_ms(), reminder_sent));
    }
    for (control, white_ms, black_ms, reminder_sent) in clocks {
        let stored = StoredClock {
            white_ms,
            black_ms,
            turn_started_ms: start,
            reminder_sent,
        };
        channel += 1;
        games.push((
            insert(&store, channel, control, stored).await,
            control,
            stored,
        ));
    }
    check_sweep(&store, &games, start).await;
    // A downtime after the turns started (the bot stopped and started again): the sweep sees
    // every turn's start moved by it, as the clocks do.
    let (since, now) = (start + 1_000, start + 61_000);
    let mut tx = store.begin_write().await.expect("begin");
    store::record_downtime(&mut tx, since, now)
        .await
        .expect("record the downtime");
    tx.commit().await.expect("commit");
    let moved: Vec<(GameId, TimeControl, StoredClock)> = games
        .iter()
        .map(|&(id, control, stored)| {
            let mut clock = ClockState::from_stored(control, stored, Color::White, 2);
            clock.resume(since, now);
            let moved = StoredClock {
                turn_started_ms: clock.turn_started_ms(),
                ..stored
            };
            assert_eq!(moved.turn_started_ms, start + 60_000);
            (id, control, moved)
        })
        .collect();
    check_sweep(&store, &moved, start).await;
}

/// Checks that `store::clock_candidates` selects exactly the `games` (with their clocks as the
/// clocks see them) that are due, just before, at and after each flag and each reminder, and
/// long before and after.
async fn check_sweep(store: &Store, games: &[(GameId, TimeControl, StoredClock)], start: i64) {
    let mut times = vec![0, start, i64::MAX / 2];
    for &(_, control, stored) in games {
        for turn in Color::ALL {
            let clock = ClockState::from_stored(control, stored, turn, 2);
            let mut edges = vec![clock.deadline_ms()];
            edges.extend(clock.reminder_due_at_ms());
            for t in edges {
                times.extend([t - 1, t, t + 1]);
            }
        }
    }
    let mut conn = store.read_conn().await.expect("conn");
    for at in times {
        let found: HashSet<GameId> = store::clock_candidates(&mut conn, at)
            .await
            .expect("candidates")
            .into_iter()
            .map(|g| g.id)
            .collect();
        for &(id, control, stored) in games {
            assert_eq!(
                found.contains(&id),
                due(control, stored, at),
                "{control:?} {stored:?} at {at}"
            );
        }
    }
}
