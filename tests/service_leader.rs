//! Two game services on one database (a SQLite file, or PostgreSQL when
//! `MAKRUK_TEST_POSTGRES_URL` is set; two pools, as two bot processes would have), on one
//! fake clock: the leader lease is held by one at a time, passes on when its holder dies (after
//! the expiry) or stops (at once), and its holder picks up what a dead process left: an overdue
//! flag, a computer turn. A deadline both processes would fire applies once.

use std::sync::Arc;
use std::time::Duration;

use makruk::Color;
use makruk_bot::clock::{FakeTime, TimeControl};
use makruk_bot::computer::{driver, Computer, Settings, UciSettings};
use makruk_bot::game::{
    Announcement, ChallengeState, ChannelId, ColorChoice, EndReason, GameResult, GameService,
    LeaderSettings, Sweep, LEADER_LEASE,
};
use makruk_bot::game::{ComputerLevel, Terms};
use makruk_bot::store;
use tempfile::TempDir;
use testkit::service::{drain, fresh_db_url, timed_out, BLACK, WHITE};

const T0: i64 = 1_800_000_000_000;
const SEC: Duration = Duration::from_secs(1);

/// The default lease (15 s, renewed every 5 s, 10 s grace) with 1 s of thinking at every level.
fn leader_settings() -> LeaderSettings {
    LeaderSettings {
        think: [SEC; 9],
        ..LeaderSettings::default()
    }
}

/// A database and a fake clock shared by the "processes".
struct Shared {
    _dir: TempDir,
    url: String,
    time: Arc<FakeTime>,
}

impl Shared {
    async fn new() -> Shared {
        let dir = tempfile::tempdir().expect("temp dir");
        Shared {
            url: fresh_db_url(dir.path()).await,
            _dir: dir,
            time: Arc::new(FakeTime::new(T0)),
        }
    }

    /// One more process: its own service (its own pools) on the file.
    async fn process(&self) -> GameService {
        GameService::open(&self.url)
            .await
            .expect("open")
            .with_time(self.time.clone())
            .with_leader_settings(leader_settings())
    }

    fn wait(&self, by: Duration) {
        self.time.advance(by);
    }
}

const ONE_MINUTE: TimeControl = TimeControl::Live {
    minutes: 1,
    increment_secs: 0,
};

/// A one-minute game in `ch` where both have moved: White's 60 s run from now.
async fn white_to_move(svc: &GameService, ch: ChannelId) {
    let c = svc
        .challenge(
            ch,
            WHITE,
            BLACK,
            false,
            Terms {
                color: ColorChoice::White,
                time_control: ONE_MINUTE,
                ..Terms::default()
            },
        )
        .await
        .expect("challenge");
    svc.accept(ch, BLACK, Some(c.id)).await.expect("accept");
    svc.play(ch, WHITE, "e4").await.expect("move");
    svc.play(ch, BLACK, "e5").await.expect("move");
}

async fn holder(svc: &GameService) -> Option<String> {
    let mut conn = svc.store().read_conn().await.expect("conn");
    store::lease(&mut conn, LEADER_LEASE)
        .await
        .expect("lease")
        .map(|l| l.holder)
}

fn led() -> Sweep {
    Sweep {
        leader: true,
        ..Sweep::default()
    }
}

#[tokio::test]
async fn one_process_holds_the_lease_at_a_time_and_it_passes_on_expiry_or_release() {
    let shared = Shared::new().await;
    let a = shared.process().await;
    let b = shared.process().await;
    assert_ne!(a.holder_id(), b.holder_id());

    assert_eq!(a.leader_tick().await.unwrap(), led());
    assert_eq!(b.leader_tick().await.unwrap(), Sweep::default());
    assert!(a.is_leader() && !b.is_leader());
    assert_eq!(holder(&b).await.as_deref(), Some(a.holder_id()));

    // Renewed before it expires, it stays A's however often B asks.
    for _ in 0..5 {
        shared.wait(5 * SEC);
        assert!(a.leader_tick().await.unwrap().leader);
        assert!(!b.leader_tick().await.unwrap().leader);
    }
    // A stops renewing: still A's until the expiry, then B's.
    shared.wait(14 * SEC);
    assert!(!b.leader_tick().await.unwrap().leader);
    assert!(a.is_leader());
    shared.wait(SEC);
    assert!(!a.is_leader(), "A's own view expires with the lease");
    assert!(b.leader_tick().await.unwrap().leader);
    assert!(
        !a.leader_tick().await.unwrap().leader,
        "A may not take it back"
    );
    assert!(b.is_leader() && !a.is_leader());
    assert_eq!(holder(&a).await.as_deref(), Some(b.holder_id()));

    // A clean stop gives it up at once.
    b.start_leader().await.unwrap();
    b.close().await;
    assert_eq!(holder(&a).await, None);
    assert!(a.leader_tick().await.unwrap().leader);
    a.close().await;
}

#[tokio::test]
async fn a_dead_leaders_overdue_flag_is_fired_once_by_the_next_leader() {
    let shared = Shared::new().await;
    // B runs its clocks from before the game existed: its scheduler never hears of the game.
    let b = shared.process().await;
    b.start_clocks().await.unwrap();
    let mut b_said = b.announcements().unwrap();
    let a = shared.process().await;
    assert!(a.leader_tick().await.unwrap().leader);
    let ch = ChannelId(7);
    white_to_move(&a, ch).await;
    shared.wait(10 * SEC);
    assert!(a.leader_tick().await.unwrap().leader);
    // A dies here (its clocks were never started: nobody will fire White's flag at T0 + 60 s).
    drop(a);
    assert!(
        !b.leader_tick().await.unwrap().leader,
        "A's lease still runs"
    );
    shared.wait(15 * SEC);
    assert_eq!(b.leader_tick().await.unwrap(), led(), "nothing overdue yet");
    // White's flag falls at T0 + 60 s; the sweep waits for the 10 s grace.
    shared.wait(44 * SEC);
    assert_eq!(b.leader_tick().await.unwrap(), led());
    b.settled().await;
    assert!(drain(&mut b_said).is_empty());
    shared.wait(2 * SEC);
    let sweep = b.leader_tick().await.unwrap();
    assert_eq!(sweep.clocks, 1, "{sweep:?}");
    b.settled().await;
    assert_eq!(
        timed_out(&drain(&mut b_said)),
        [(GameResult::BlackWins, EndReason::Timeout)]
    );
    // Once: the game is over, later sweeps find nothing.
    for _ in 0..3 {
        shared.wait(5 * SEC);
        assert_eq!(b.leader_tick().await.unwrap(), led());
        b.settled().await;
    }
    assert!(drain(&mut b_said).is_empty());
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_computer_turn_orphaned_by_a_dead_process_is_moved_once_by_the_leader() {
    let shared = Shared::new().await;
    let computer = Arc::new(
        Computer::new(Settings {
            threads: 1,
            hash_mb: 1,
            budgets: [Duration::from_millis(20); 8],
            fairy_stockfish: UciSettings {
                path: "/nonexistent/fairy-stockfish".into(),
                ..UciSettings::default()
            },
            ..Settings::default()
        })
        .expect("engine threads"),
    );
    // B's driver runs from before the game: its start-up look at waiting games finds nothing.
    let b = shared.process().await;
    let mut b_said = b.announcements().unwrap();
    let _driver = driver::spawn(b.clone(), computer).expect("driver");
    // Let the driver's start-up look happen before the game exists.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(b.leader_tick().await.unwrap().leader);
    // A (no driver: it dies before thinking) starts a game where the computer has White.
    let a = shared.process().await;
    let ch = ChannelId(9);
    let start = a
        .play_computer(
            ch,
            WHITE,
            makruk_bot::game::UserId(4242),
            ComputerLevel::new(1).expect("level"),
            Terms {
                color: ColorChoice::Black,
                ..Terms::default()
            },
        )
        .await
        .expect("start");
    assert_eq!(start.position.turn(), Color::White);
    drop(a);
    // Not orphaned before the level's think time (1 s) and the grace (10 s).
    shared.wait(10 * SEC);
    assert_eq!(b.leader_tick().await.unwrap(), led());
    shared.wait(2 * SEC);
    assert_eq!(b.leader_tick().await.unwrap().computer_turns, 1);
    // Handed out once: the next sweep does not hand out the same turn again.
    assert_eq!(b.leader_tick().await.unwrap().computer_turns, 0);
    let moved = match tokio::time::timeout(Duration::from_secs(10), b_said.recv()).await {
        Ok(Some(Announcement::Move { reply, .. })) => reply,
        other => panic!("no computer move announced: {other:?}"),
    };
    assert_eq!(moved.status.plies, 1);
    shared.wait(30 * SEC);
    assert_eq!(
        b.leader_tick().await.unwrap(),
        led(),
        "the human's turn now"
    );
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(drain(&mut b_said).is_empty(), "moved once");
    let mut conn = b.store().read_conn().await.unwrap();
    let row = store::active_game(&mut conn, ChannelId(9))
        .await
        .unwrap()
        .expect("game");
    assert_eq!(row.plies, 1);
    drop(conn);
    b.close().await;
}

#[tokio::test]
async fn a_deadline_both_processes_would_fire_applies_once() {
    let shared = Shared::new().await;
    let a = shared.process().await;
    let games = 8;
    for ch in 1..=games {
        white_to_move(&a, ChannelId(ch)).await;
    }
    // Both load every game at start-up, so both schedulers hold every flag.
    let b = shared.process().await;
    a.start_clocks().await.unwrap();
    b.start_clocks().await.unwrap();
    assert_eq!(a.scheduled().await, b.scheduled().await);
    let mut a_said = a.announcements().unwrap();
    let mut b_said = b.announcements().unwrap();
    assert!(a.leader_tick().await.unwrap().leader);
    shared.wait(61 * SEC);
    tokio::join!(a.settled(), b.settled());
    // The leader's sweep after the grace finds nothing left to do.
    shared.wait(15 * SEC);
    let sweep = a.leader_tick().await.unwrap();
    tokio::join!(a.settled(), b.settled());
    assert_eq!(sweep, led());
    let mut flags = timed_out(&drain(&mut a_said));
    flags.extend(timed_out(&drain(&mut b_said)));
    assert_eq!(
        flags,
        vec![(GameResult::BlackWins, EndReason::Timeout); usize::try_from(games).unwrap()]
    );
    let mut conn = a.store().read_conn().await.unwrap();
    assert!(store::active_games(&mut conn).await.unwrap().is_empty());
    drop(conn);
    a.close().await;
    b.close().await;
}

/// The challenges whose message the sweep closed among `said`: (challenge, message, state).
fn closed(said: &[Announcement]) -> Vec<(i64, u64, ChallengeState)> {
    said.iter()
        .filter_map(|a| match a {
            Announcement::ChallengeClosed { closed, .. } => {
                Some((closed.view.id.0, closed.message, closed.view.state))
            }
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn challenge_messages_lose_their_buttons_once_when_the_challenge_closes_without_a_press() {
    let shared = Shared::new().await;
    let a = shared.process().await;
    let b = shared.process().await;
    let mut a_said = a.announcements().unwrap();
    let mut b_said = b.announcements().unwrap();
    assert_eq!(a.leader_tick().await.unwrap(), led());
    // Three challenges with their messages: one will expire, one is accepted by `/accept`, one
    // declined by `/decline`; a fourth is declined by its button (its press replaces the
    // message: nothing to do); a fifth has no message known.
    let (expiring, accepted, declined, pressed, unknown) = (
        ChannelId(10),
        ChannelId(11),
        ChannelId(12),
        ChannelId(13),
        ChannelId(14),
    );
    let mut ids = Vec::new();
    for (i, ch) in [expiring, accepted, declined, pressed, unknown]
        .into_iter()
        .enumerate()
    {
        let c = b
            .challenge(ch, WHITE, BLACK, false, Terms::default())
            .await
            .expect("challenge");
        if ch != unknown {
            b.set_challenge_message(c.id, 500 + i as u64).await.unwrap();
        }
        ids.push(c.id);
    }
    b.accept(accepted, BLACK, None).await.expect("/accept");
    b.decline(declined, BLACK, None).await.expect("/decline");
    b.decline(pressed, BLACK, Some(ids[3]))
        .await
        .expect("the button");
    // The leader's sweep edits the two answered by a command, and only those.
    let sweep = a.leader_tick().await.unwrap();
    assert_eq!(sweep.challenge_messages, 2);
    let mut got = closed(&drain(&mut a_said));
    got.sort_unstable_by_key(|c| (c.0, c.1));
    assert_eq!(
        got,
        vec![
            (ids[1].0, 501, ChallengeState::Accepted),
            (ids[2].0, 502, ChallengeState::Declined),
        ]
    );
    // Nine minutes in, the open one is left alone; after ten it has expired: closed once.
    shared.wait(Duration::from_secs(9 * 60));
    assert_eq!(a.leader_tick().await.unwrap().challenge_messages, 0);
    shared.wait(Duration::from_secs(61));
    assert_eq!(a.leader_tick().await.unwrap().challenge_messages, 1);
    assert_eq!(
        closed(&drain(&mut a_said)),
        vec![(ids[0].0, 500, ChallengeState::Expired)]
    );
    assert!(b.open_challenge(expiring).await.unwrap().is_none());
    assert_eq!(a.leader_tick().await.unwrap().challenge_messages, 0);
    // The process that is not the leader never sweeps.
    assert_eq!(b.leader_tick().await.unwrap(), Sweep::default());
    assert!(closed(&drain(&mut b_said)).is_empty());
    assert!(closed(&drain(&mut a_said)).is_empty());
}
