//! Clocks through the game service, on a fake clock: flags (loss, draw, abort), increments,
//! the correspondence reminder, a restart with the downtime given back, a move racing the
//! flag, takebacks.

use std::sync::Arc;
use std::time::Duration;

use makruk::{Color, Ruleset};
use makruk_bot::clock::{FakeTime, TimeControl, TimeSource as _};
use makruk_bot::game::Terms;
use makruk_bot::game::{
    Announcement, ChannelId, ClockStatus, ColorChoice, EndReason, GameResult, GameService,
    OfferKind, Reply, ServiceError,
};
use makruk_bot::i18n::Locale;
use testkit::service::{drain, mention, start_from_fen, timed_out, Env, BLACK, WHITE};
use tokio::sync::mpsc::UnboundedReceiver;

const T0: i64 = 1_800_000_000_000;
const SEC: Duration = Duration::from_secs(1);
const MIN: Duration = Duration::from_secs(60);
const HOUR: Duration = Duration::from_secs(3600);
const DAY: Duration = Duration::from_secs(86_400);

/// A service on a fake clock with its clocks started, and its announcements.
struct Clocked {
    env: Env,
    time: Arc<FakeTime>,
    svc: GameService,
    said: UnboundedReceiver<Announcement>,
}

impl Clocked {
    async fn new() -> Clocked {
        let env = Env::new().await;
        let time = Arc::new(FakeTime::new(T0));
        let svc = env.svc.clone().with_time(time.clone());
        svc.start_clocks().await.expect("clocks start");
        let said = svc.announcements().expect("announcements");
        Clocked {
            env,
            time,
            svc,
            said,
        }
    }

    /// Moves the fake clock forward and lets the scheduler act.
    async fn wait(&self, by: Duration) {
        self.time.advance(by);
        self.svc.settled().await;
    }

    /// The announcements made so far.
    fn said(&mut self) -> Vec<Announcement> {
        drain(&mut self.said)
    }

    /// A game between WHITE (White) and BLACK with `time`, started now.
    async fn start(&self, ch: ChannelId, time: TimeControl) -> Reply {
        let c = self
            .svc
            .challenge(
                ch,
                WHITE,
                BLACK,
                false,
                Terms {
                    color: ColorChoice::White,
                    time_control: time,
                    ..Terms::default()
                },
            )
            .await
            .expect("challenge");
        self.svc
            .accept(ch, BLACK, Some(c.id))
            .await
            .expect("accept")
    }
}

fn live(minutes: u16, increment_secs: u16) -> TimeControl {
    TimeControl::Live {
        minutes,
        increment_secs,
    }
}

fn live_clock(r: &Reply) -> (i64, i64, i64) {
    match r.status.clock {
        ClockStatus::Live {
            white_ms,
            black_ms,
            flag_at_ms,
            ..
        } => (white_ms, black_ms, flag_at_ms),
        other => panic!("not a live clock: {other:?}"),
    }
}

#[tokio::test]
async fn live_loss_on_time_even_with_a_draw_offer_standing() {
    let mut c = Clocked::new().await;
    let ch = ChannelId(1);
    c.start(ch, live(3, 2)).await;
    c.wait(SEC).await;
    c.svc.play(ch, WHITE, "e4").await.unwrap();
    c.wait(SEC).await;
    c.svc.play(ch, BLACK, "e5").await.unwrap();
    // A draw offer does not stop White's clock.
    c.svc.offer(ch, WHITE, OfferKind::Draw).await.unwrap();
    // White has 3:00 − 1 s + 2 s = 3:01.
    c.wait(3 * MIN).await;
    assert!(c.said().is_empty(), "not yet");
    c.wait(SEC).await;
    let said = c.said();
    assert_eq!(
        timed_out(&said),
        [(GameResult::BlackWins, EndReason::Timeout)]
    );
    let Announcement::TimedOut { channel, reply, .. } = &said[0] else {
        unreachable!()
    };
    assert_eq!(*channel, ch);
    let text = reply.text(Locale::En, &mention);
    assert!(text.contains("ran out of time"), "{text}");
    // The old game's buttons and commands are told it is over.
    let late = c.svc.accept_offer(ch, BLACK, OfferKind::Draw).await;
    assert!(matches!(late, Err(ServiceError::TimedOut(_))), "{late:?}");
    let msg = late.unwrap_err().message(Locale::En, &mention);
    assert!(msg.contains("over") && msg.contains("time"), "{msg}");
    assert_eq!(c.svc.scheduled().await, 0, "a finished game has no entries");
}

#[tokio::test]
async fn correspondence_one_reminder_per_move_then_loss_on_time() {
    let mut c = Clocked::new().await;
    let ch = ChannelId(2);
    c.start(ch, TimeControl::Correspondence { days: 1 }).await;
    c.svc.play(ch, WHITE, "e4").await.unwrap();
    c.wait(HOUR).await;
    c.svc.play(ch, BLACK, "e5").await.unwrap();
    // White's day: the reminder comes with less than 4 h left, once.
    c.wait(20 * HOUR - SEC).await;
    assert!(c.said().is_empty());
    c.wait(SEC).await;
    let said = c.said();
    assert_eq!(said.len(), 1, "{said:?}");
    let Announcement::Reminder {
        user, deadline_ms, ..
    } = &said[0]
    else {
        panic!("{said:?}")
    };
    assert_eq!(*user, WHITE);
    assert_eq!(*deadline_ms, T0 + 3_600_000 + 86_400_000);
    c.wait(HOUR).await;
    c.wait(HOUR).await;
    assert!(c.said().is_empty(), "one reminder per move");
    // A move: the next turn has its own reminder.
    c.svc.play(ch, WHITE, "d4").await.unwrap();
    c.wait(20 * HOUR).await;
    let said = c.said();
    assert!(
        matches!(said.as_slice(), [Announcement::Reminder { user, .. }] if *user == BLACK),
        "{said:?}"
    );
    c.wait(4 * HOUR).await;
    assert_eq!(
        timed_out(&c.said()),
        [(GameResult::WhiteWins, EndReason::Timeout)]
    );
}

#[tokio::test]
async fn live_games_have_no_reminder() {
    let mut c = Clocked::new().await;
    let ch = ChannelId(3);
    c.start(ch, live(30, 20)).await;
    c.svc.play(ch, WHITE, "e4").await.unwrap();
    for _ in 0..29 {
        c.wait(MIN).await;
    }
    assert!(c.said().is_empty());
}

#[tokio::test]
async fn flag_against_a_bare_khun_is_a_draw() {
    let mut c = Clocked::new().await;
    let ch = ChannelId(4);
    // Correspondence, 3 days (the default of games written straight to the store).
    start_from_fen(
        &c.svc,
        ch,
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        Ruleset::Standard,
    )
    .await;
    c.svc.play(ch, WHITE, "Ra2").await.unwrap();
    c.svc.play(ch, BLACK, "Kd8").await.unwrap();
    c.wait(3 * DAY).await;
    let said = c.said();
    assert_eq!(
        timed_out(&said),
        [(GameResult::Draw, EndReason::TimeoutDraw)],
        "{said:?}"
    );
}

#[tokio::test]
async fn flag_before_a_sides_first_move_aborts() {
    let mut c = Clocked::new().await;
    c.start(ChannelId(5), live(5, 3)).await;
    c.wait(5 * MIN).await;
    assert_eq!(
        timed_out(&c.said()),
        [(GameResult::Aborted, EndReason::TimeoutAborted)]
    );
    // White moved, Black did not.
    let ch = ChannelId(6);
    c.start(ch, live(5, 3)).await;
    c.svc.play(ch, WHITE, "e4").await.unwrap();
    c.wait(5 * MIN).await;
    assert_eq!(
        timed_out(&c.said()),
        [(GameResult::Aborted, EndReason::TimeoutAborted)]
    );
}

#[tokio::test]
async fn increment_is_added_after_each_move() {
    let c = Clocked::new().await;
    let ch = ChannelId(7);
    c.start(ch, live(10, 5)).await;
    c.wait(10 * SEC).await;
    let r = c.svc.play(ch, WHITE, "e4").await.unwrap();
    assert_eq!(live_clock(&r).0, 595_000);
    c.wait(20 * SEC).await;
    let r = c.svc.play(ch, BLACK, "e5").await.unwrap();
    assert_eq!(live_clock(&r).1, 585_000);
    c.wait(30 * SEC).await;
    let board = c.svc.board(ch).await.unwrap();
    let (white, black, flag) = live_clock(&board);
    assert_eq!((white, black), (565_000, 585_000));
    assert_eq!(flag, T0 + 60_000 + 565_000);
    let text = board.text(Locale::En, &mention);
    let flag_secs = flag / 1000;
    assert!(
        text.contains("9:25")
            && text.contains("9:45")
            && text.contains(&format!("<t:{flag_secs}:R>")),
        "{text}"
    );
}

#[tokio::test]
async fn correspondence_status_gives_the_deadline() {
    let c = Clocked::new().await;
    let ch = ChannelId(8);
    let r = c.start(ch, TimeControl::Correspondence { days: 7 }).await;
    let deadline = (T0 + 7 * 86_400_000) / 1000;
    let text = r.text(Locale::En, &mention);
    assert!(
        text.contains(&format!("<t:{deadline}:f> (<t:{deadline}:R>)")),
        "{text}"
    );
    let thai = r.text(Locale::Th, &mention);
    assert!(thai.contains(&format!("<t:{deadline}:R>")), "{thai}");
}

#[tokio::test]
async fn takeback_restores_the_clocks_of_the_taken_back_move() {
    let c = Clocked::new().await;
    let ch = ChannelId(9);
    c.start(ch, live(10, 5)).await;
    c.wait(10 * SEC).await;
    c.svc.play(ch, WHITE, "e4").await.unwrap(); // White 9:55
    c.wait(20 * SEC).await;
    c.svc.play(ch, BLACK, "e5").await.unwrap(); // Black 9:45
    c.wait(10 * SEC).await;
    c.svc.offer(ch, BLACK, OfferKind::Takeback).await.unwrap();
    c.wait(10 * SEC).await;
    let r = c
        .svc
        .accept_offer(ch, WHITE, OfferKind::Takeback)
        .await
        .unwrap();
    // Both clocks as when Black's turn began; Black's turn starts again now.
    let now = T0 + 50_000;
    assert_eq!(live_clock(&r), (595_000, 600_000, now + 600_000));
    assert_eq!(r.status.turn, Color::Black);
    // White's 20 s spent meanwhile are given back too; the restored turn runs.
    c.wait(5 * MIN).await;
    let r = c.svc.play(ch, BLACK, "d5").await.unwrap();
    assert_eq!(live_clock(&r).1, 305_000);
    // And the first ply too: back to the initial clocks, White's turn restarting.
    let ch2 = ChannelId(10);
    c.start(ch2, live(3, 2)).await;
    c.wait(30 * SEC).await;
    c.svc.play(ch2, WHITE, "e4").await.unwrap();
    c.svc.offer(ch2, WHITE, OfferKind::Takeback).await.unwrap();
    let r = c
        .svc
        .accept_offer(ch2, BLACK, OfferKind::Takeback)
        .await
        .unwrap();
    let now = c.svc.time().now_ms();
    assert_eq!(live_clock(&r), (180_000, 180_000, now + 180_000));
}

#[tokio::test]
async fn a_deadline_passed_while_the_bot_was_down_is_never_announced() {
    let env = Env::new().await;
    let time = Arc::new(FakeTime::new(T0));
    let svc = env.svc.clone().with_time(time.clone());
    svc.start_clocks().await.unwrap();
    let ch = ChannelId(11);
    let c = svc
        .challenge(
            ch,
            WHITE,
            BLACK,
            false,
            Terms {
                color: ColorChoice::White,
                time_control: live(3, 2),
                ..Terms::default()
            },
        )
        .await
        .unwrap();
    svc.accept(ch, BLACK, Some(c.id)).await.unwrap();
    svc.play(ch, WHITE, "e4").await.unwrap();
    svc.play(ch, BLACK, "e5").await.unwrap(); // both have moved: a flag now loses
    time.advance(20 * SEC);
    svc.settled().await;
    svc.play(ch, WHITE, "d4").await.unwrap(); // after the heartbeats at +5 s … +20 s
    time.advance(30 * SEC); // Black thinks 30 s; heartbeats at +25 … +50 s
    svc.settled().await;
    tokio::task::yield_now().await;
    svc.close().await;
    // Down for an hour: Black's flag would have fallen.
    time.advance(HOUR);
    let svc = GameService::open(&env.url)
        .await
        .unwrap()
        .with_time(time.clone());
    let mut said = svc.announcements().unwrap();
    let started = svc.start_clocks().await.unwrap();
    assert_eq!(started.games, 1);
    assert!(
        started.downtime_ms >= HOUR.as_millis() as i64,
        "{started:?}"
    );
    svc.settled().await;
    assert!(said.try_recv().is_err(), "nothing announced at start-up");
    let (white, black, flag) = live_clock(&svc.board(ch).await.unwrap());
    assert_eq!(white, 164_000);
    // Black had used 30 s at most (up to the last heartbeat, the rest is given back).
    assert!((152_000..=182_000).contains(&black), "{black}");
    let now = time.now_ms();
    assert_eq!(flag, now + black);
    time.advance(Duration::from_millis(black as u64 - 1));
    svc.settled().await;
    assert!(said.try_recv().is_err());
    time.advance(Duration::from_millis(1));
    svc.settled().await;
    let Ok(Announcement::TimedOut { reply, .. }) = said.try_recv() else {
        panic!("the flag falls after the restart");
    };
    assert_eq!(reply.status.end.unwrap().result, GameResult::WhiteWins);
    svc.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_racing_the_flag_applies_or_loses_never_both() {
    let mut c = Clocked::new().await;
    let (mut moved, mut flagged) = (0, 0);
    for i in 0..60 {
        let ch = ChannelId(1000 + i);
        c.start(ch, live(3, 2)).await;
        c.svc.play(ch, WHITE, "e4").await.unwrap();
        c.svc.play(ch, BLACK, "e5").await.unwrap();
        // White's deadline: 3:00 + 2 s after its first move (all at one instant).
        let deadline = c.svc.time().now_ms() + 182_000;
        c.time.set(deadline - 1);
        let svc = c.svc.clone();
        let mover = tokio::spawn(async move { svc.play(ch, WHITE, "d4").await });
        if i % 2 == 0 {
            tokio::task::yield_now().await;
        }
        c.time.set(deadline);
        c.svc.settled().await;
        let result = mover.await.unwrap();
        c.svc.settled().await;
        let board = c.svc.board(ch).await.unwrap();
        let flags = timed_out(&c.said());
        match result {
            Ok(_) => {
                moved += 1;
                assert!(flags.is_empty(), "moved and flagged: {flags:?}");
                assert!(board.status.end.is_none());
                assert_eq!(board.status.plies, 3);
                // End the game for the next round.
                c.svc.resign(ch, BLACK).await.unwrap();
            }
            Err(ServiceError::TimedOut(_)) => {
                flagged += 1;
                assert_eq!(flags, [(GameResult::BlackWins, EndReason::Timeout)]);
                assert_eq!(board.status.plies, 2, "the move was not stored");
            }
            Err(e) => panic!("round {i}: {e:?}"),
        }
    }
    assert_eq!(moved + flagged, 60);
    let dump = c.env.svc.store().dump().await.unwrap();
    assert!(!dump.is_empty());
}

#[test]
fn an_unknown_time_control_lists_the_choices() {
    let e = GameService::time_control(Some("2d")).unwrap_err();
    let msg = e.message(Locale::En, &mention);
    for choice in TimeControl::CHOICES {
        assert!(msg.contains(&format!("`{choice}`")), "{msg}");
    }
    assert!(e.is_user_error());
    assert_eq!(
        GameService::time_control(None).unwrap(),
        TimeControl::DEFAULT
    );
    assert_eq!(
        GameService::time_control(Some("10+5")).unwrap(),
        live(10, 5)
    );
}
