//! Clock rules the store writes a second time in SQL, checked against their owner in Rust
//! ([`ClockState`]) on a table of cases, on SQLite or on PostgreSQL (`MAKRUK_TEST_POSTGRES_URL`):
//! the downtime given back at start-up (`store::resume_clocks` against `ClockState::resume`),
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
        let changed = store::resume_clocks(&mut tx, since, now)
            .await
            .expect("resume");
        tx.commit().await.expect("commit");
        let mut moved: u64 = 0;
        for (_, clock) in &mut expected {
            if clock.resume(since, now) > 0 {
                moved += 1;
            }
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
        assert_eq!(changed, moved, "games changed at {now} (heartbeat {since})");
    }
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
    // Just before, at and after each flag and each reminder, and long before and after.
    let mut times = vec![0, start, i64::MAX / 2];
    for &(_, control, stored) in &games {
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
        for &(id, control, stored) in &games {
            assert_eq!(
                found.contains(&id),
                due(control, stored, at),
                "{control:?} {stored:?} at {at}"
            );
        }
    }
}
