//! Games against the computer through the service and the driver: the computer's replies go
//! through the version check and are announced; a restart on its turn makes it move once; draw
//! offers are judged by the engine; takebacks are granted; level 9 without Fairy-Stockfish and
//! the one-active-game rule refuse clearly. Short think budgets keep the tests fast.

use std::sync::Arc;
use std::time::Duration;

use makruk::{Color, CountKind, Position, Ruleset};
use makruk_bot::clock::{ClockState, TimeControl};
use makruk_bot::computer::{driver, Computer, Settings, UciSettings};
use makruk_bot::game::{
    Announcement, ChannelId, ColorChoice, ComputerSeat, EndReason, Event, GameId, GameService,
    OfferKind, Reply, ServiceError, UserId,
};
use makruk_bot::game::{ComputerLevel, Terms, UnknownComputerLevel};
use makruk_bot::store::{self, NewGame};
use testkit::service::Env;
use tokio::sync::mpsc::UnboundedReceiver;

const HUMAN: UserId = UserId(2001);
const BOT: UserId = UserId(2999);

/// Small and fast: two threads, 20 ms a move, no Fairy-Stockfish.
fn settings() -> Settings {
    Settings {
        threads: 2,
        hash_mb: 1,
        budgets: [Duration::from_millis(20); 8],
        fairy_stockfish: UciSettings {
            path: "/nonexistent/fairy-stockfish".into(),
            ..UciSettings::default()
        },
        ..Settings::default()
    }
}

/// The service of `env` with the computer's draw judge, and the computer.
fn with_computer(env: &Env) -> (GameService, Arc<Computer>) {
    let computer = Arc::new(Computer::new(settings()).expect("engine threads"));
    let svc = env.svc.clone().with_draw_judge(computer.draw_judge());
    (svc, computer)
}

/// The next announcement, within 10 s.
async fn next_move(rx: &mut UnboundedReceiver<Announcement>) -> Reply {
    match tokio::time::timeout(Duration::from_secs(10), rx.recv()).await {
        Ok(Some(Announcement::Move { reply, .. })) => reply,
        other => panic!("no computer move announced: {other:?}"),
    }
}

/// The first legal move of `pos`, in UCI.
fn some_move(pos: &Position) -> String {
    makruk::uci::to_uci(&pos.legal_moves()[0])
}

async fn plies(svc: &GameService, game: GameId) -> i64 {
    let mut tx = svc.store().begin_read().await.unwrap();
    let row = store::game(&mut tx, game).await.unwrap().expect("game");
    tx.commit().await.unwrap();
    row.plies
}

/// A game from `fen` against the computer in `seat`, written straight to the store (the
/// service starts games only from the initial position; these tests need endgames).
async fn insert_computer_game(
    svc: &GameService,
    channel: ChannelId,
    fen: &str,
    ruleset: Ruleset,
    seat: ComputerSeat,
) -> GameId {
    let start = Position::from_fen(fen, ruleset).expect("valid FEN");
    let (white, black) = match seat.side {
        Color::White => (BOT, HUMAN),
        Color::Black => (HUMAN, BOT),
    };
    let mut tx = svc.store().begin_write().await.expect("begin");
    let id = store::insert_game(
        &mut tx,
        &NewGame {
            channel_id: channel,
            white_id: white,
            black_id: black,
            ruleset,
            variant: makruk::Variant::Makruk,
            start_fen: &start.fen(),
            now: 0,
            computer: Some(seat),
            time_control: TimeControl::DEFAULT,
            clock: ClockState::new(TimeControl::DEFAULT, start.turn(), svc.time().now_ms())
                .stored(),
            guild_id: None,
            rated: false,
        },
    )
    .await
    .expect("insert game");
    tx.commit().await.expect("commit");
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_replies_to_each_move_through_the_service() {
    let env = Env::new().await;
    let (svc, computer) = with_computer(&env);
    let mut announced = svc.announcements().expect("announcements");
    let _driver = driver::spawn(svc.clone(), computer).expect("driver");
    let ch = ChannelId(1);
    let start = svc
        .play_computer(
            ch,
            HUMAN,
            BOT,
            ComputerLevel::new(2).expect("level"),
            Terms {
                color: ColorChoice::White,
                ..Terms::default()
            },
        )
        .await
        .expect("start");
    assert_eq!(start.event, Event::Started);
    assert_eq!((start.white, start.black), (HUMAN, BOT));
    let mut pos = start.position;
    for round in 0..4 {
        let mine = svc.play(ch, HUMAN, &some_move(&pos)).await.expect("move");
        assert_eq!(mine.status.to_move, BOT);
        let reply = next_move(&mut announced).await;
        assert_eq!(reply.event, Event::Moved);
        assert_eq!(reply.actor, Some(BOT));
        let m = reply.last_move.expect("a move");
        assert!(mine.position.is_legal(&m), "round {round}: {m:?}");
        assert_eq!(reply.position, mine.position.after(&m));
        assert_eq!(reply.status.to_move, HUMAN);
        assert_eq!(plies(&svc, reply.game_id).await, 2 * (round + 1));
        pos = reply.position;
    }
    // The computer never moves for the human.
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(announced.try_recv().is_err());
}

#[tokio::test]
async fn a_computer_move_applies_only_on_the_version_it_was_thought_for() {
    let env = Env::new().await;
    let svc = env.svc.clone();
    let mut turns = svc.computer_turns().expect("turns");
    let ch = ChannelId(2);
    // The computer has White: its first turn is handed out at the start.
    let start = svc
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
        .expect("start");
    assert_eq!(start.white, BOT);
    let turn = turns.try_recv().expect("the computer's first turn");
    assert_eq!(
        turn.seat,
        ComputerSeat {
            side: Color::White,
            level: ComputerLevel::new(1).expect("level")
        }
    );
    assert_eq!(turn.game_id, start.game_id);
    let mv = turn.game.position().legal_moves()[0];
    // A move that is not legal here writes nothing.
    let before = svc.store().dump().await.unwrap();
    let bad = makruk::Move { to: mv.from, ..mv };
    assert!(matches!(
        svc.computer_move(&turn, bad, None).await,
        Err(ServiceError::Internal(_))
    ));
    assert_eq!(svc.store().dump().await.unwrap(), before);
    // The human cannot move for the computer.
    assert!(matches!(
        svc.play(ch, HUMAN, "e3e4").await,
        Err(ServiceError::NotYourTurn)
    ));
    let reply = svc
        .computer_move(&turn, mv, None)
        .await
        .expect("the computer moves");
    assert_eq!(reply.actor, Some(BOT));
    assert_eq!(reply.last_move, Some(mv));
    assert!(turns.try_recv().is_err(), "now it is the human's turn");
    // The same turn again is stale: nothing is written.
    let after = svc.store().dump().await.unwrap();
    assert!(matches!(
        svc.computer_move(&turn, mv, None).await,
        Err(ServiceError::Stale)
    ));
    assert_eq!(svc.store().dump().await.unwrap(), after);
    // The human's reply hands out the next turn, at the new version.
    let mine = svc
        .play(ch, HUMAN, &some_move(&reply.position))
        .await
        .unwrap();
    let next = turns.try_recv().expect("the computer's next turn");
    assert!(next.version > turn.version);
    assert_eq!(next.game.position(), &mine.position);
    // After a resignation the turn is stale.
    svc.resign(ch, HUMAN).await.unwrap();
    let m = next.game.position().legal_moves()[0];
    assert!(matches!(
        svc.computer_move(&next, m, None).await,
        Err(ServiceError::Stale)
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_restart_on_its_turn_the_computer_moves_once() {
    let mut env = Env::new().await;
    let ch = ChannelId(3);
    // Nobody thinks before the restart: the computer (White) is left to move.
    let start = env
        .svc
        .play_computer(
            ch,
            HUMAN,
            BOT,
            ComputerLevel::new(3).expect("level"),
            Terms {
                color: ColorChoice::Black,
                ..Terms::default()
            },
        )
        .await
        .expect("start");
    assert_eq!(plies(&env.svc, start.game_id).await, 0);
    env.restart().await;
    let (svc, computer) = with_computer(&env);
    let mut announced = svc.announcements().expect("announcements");
    let _driver = driver::spawn(svc.clone(), computer).expect("driver");
    let reply = next_move(&mut announced).await;
    assert_eq!(reply.game_id, start.game_id);
    assert_eq!(reply.actor, Some(BOT));
    assert_eq!(reply.status.to_move, HUMAN);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(announced.try_recv().is_err(), "exactly one move");
    assert_eq!(plies(&svc, start.game_id).await, 1);
    // The game goes on as usual.
    let mine = svc
        .play(ch, HUMAN, &some_move(&reply.position))
        .await
        .unwrap();
    let next = next_move(&mut announced).await;
    assert!(mine.position.is_legal(&next.last_move.unwrap()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_accepts_a_draw_when_losing_and_declines_when_winning() {
    let env = Env::new().await;
    let (svc, _computer) = with_computer(&env);
    // The computer (Black) has a bare Khun against two Ruea; the human offers on their turn.
    let losing = ChannelId(4);
    let seat = ComputerSeat {
        side: Color::Black,
        level: ComputerLevel::new(8).expect("level"),
    };
    insert_computer_game(
        &svc,
        losing,
        "4k3/8/8/8/8/8/8/RR2K3 w - - 0 1",
        Ruleset::Standard,
        seat,
    )
    .await;
    let reply = svc
        .offer(losing, HUMAN, OfferKind::Draw)
        .await
        .expect("offer");
    assert_eq!(reply.event, Event::OfferAccepted(OfferKind::Draw));
    assert_eq!(reply.actor, Some(BOT));
    assert!(reply.status.end.is_some(), "drawn by agreement");
    // The computer (White, to move) has the two Ruea: it declines at once.
    let winning = ChannelId(5);
    let seat = ComputerSeat {
        side: Color::White,
        level: ComputerLevel::new(8).expect("level"),
    };
    insert_computer_game(
        &svc,
        winning,
        "4k3/8/8/8/8/8/8/RR2K3 w - - 0 1",
        Ruleset::Standard,
        seat,
    )
    .await;
    let reply = svc
        .offer(winning, HUMAN, OfferKind::Draw)
        .await
        .expect("offer");
    assert_eq!(reply.event, Event::OfferDeclined(OfferKind::Draw));
    assert_eq!(reply.actor, Some(BOT));
    assert_eq!(reply.status.draw_offer, None);
    assert!(reply.status.end.is_none());
}

#[tokio::test]
async fn a_takeback_is_granted_at_once_and_leaves_the_human_to_move() {
    let env = Env::new().await;
    let svc = env.svc.clone();
    let mut turns = svc.computer_turns().expect("turns");
    let ch = ChannelId(6);
    let start = svc
        .play_computer(
            ch,
            HUMAN,
            BOT,
            ComputerLevel::new(5).expect("level"),
            Terms {
                color: ColorChoice::White,
                ..Terms::default()
            },
        )
        .await
        .unwrap();
    assert!(matches!(
        svc.offer(ch, HUMAN, OfferKind::Takeback).await,
        Err(ServiceError::NothingToTakeBack)
    ));
    // After the computer's reply: both plies are undone.
    svc.play(ch, HUMAN, &some_move(&start.position))
        .await
        .unwrap();
    let turn = turns.try_recv().expect("turn");
    let mv = turn.game.position().legal_moves()[0];
    svc.computer_move(&turn, mv, None).await.unwrap();
    let back = svc
        .offer(ch, HUMAN, OfferKind::Takeback)
        .await
        .expect("takeback");
    assert_eq!(back.event, Event::OfferAccepted(OfferKind::Takeback));
    assert_eq!(back.actor, Some(BOT), "granted by the computer");
    assert_eq!(back.status.plies, 0);
    assert_eq!(back.status.to_move, HUMAN);
    assert_eq!(back.status.takeback_request, None);
    assert!(turns.try_recv().is_err(), "the human is to move");
    // While the computer thinks: the human's move is undone, the computer's turn goes stale.
    svc.play(ch, HUMAN, &some_move(&start.position))
        .await
        .unwrap();
    let turn = turns.try_recv().expect("turn");
    let back = svc
        .offer(ch, HUMAN, OfferKind::Takeback)
        .await
        .expect("takeback");
    assert_eq!(back.status.plies, 0);
    assert_eq!(back.status.to_move, HUMAN);
    let mv = turn.game.position().legal_moves()[0];
    assert!(matches!(
        svc.computer_move(&turn, mv, None).await,
        Err(ServiceError::Stale)
    ));
    assert_eq!(plies(&svc, start.game_id).await, 0);
}

#[tokio::test]
async fn levels_and_the_one_active_game_rule_are_checked() {
    let env = Env::new().await;
    let (svc, computer) = with_computer(&env);
    let ch = ChannelId(7);
    assert!(matches!(
        computer.check_level(ComputerLevel::FAIRY_STOCKFISH),
        Err(ServiceError::FairyStockfishMissing)
    ));
    assert!(computer
        .check_level(ComputerLevel::new(8).expect("level"))
        .is_ok());
    let err = ServiceError::FairyStockfishMissing;
    let text = err.message(makruk_bot::i18n::Locale::En, &testkit::service::mention);
    assert!(
        text.contains("Fairy-Stockfish is not installed on this bot"),
        "{text}"
    );
    for n in [0, 10] {
        let err = ServiceError::from(ComputerLevel::new(n).expect_err("not a level"));
        assert!(matches!(err, ServiceError::ComputerLevel(UnknownComputerLevel(l)) if l == n));
        let text = err.message(makruk_bot::i18n::Locale::En, &testkit::service::mention);
        assert!(text.contains("levels 1 to 8"), "{text}");
    }
    assert!(matches!(
        svc.play_computer(
            ch,
            HUMAN,
            BOT,
            ComputerLevel::new(9).expect("level"),
            Terms {
                color: ColorChoice::White,
                ruleset: Ruleset::Traditional,
                ..Terms::default()
            }
        )
        .await,
        Err(ServiceError::FairyStockfishRules)
    ));
    assert!(matches!(
        svc.play_computer(
            ch,
            BOT,
            BOT,
            ComputerLevel::new(3).expect("level"),
            Terms {
                color: ColorChoice::White,
                ..Terms::default()
            }
        )
        .await,
        Err(ServiceError::ChallengeSelf)
    ));
    let first = svc
        .play_computer(
            ch,
            HUMAN,
            BOT,
            ComputerLevel::new(3).expect("level"),
            Terms {
                color: ColorChoice::White,
                ..Terms::default()
            },
        )
        .await
        .unwrap();
    assert!(matches!(
        svc.play_computer(ch, UserId(2002), BOT, ComputerLevel::new(3).expect("level"), Terms { color: ColorChoice::White, ..Terms::default() })
            .await,
        Err(ServiceError::ChannelBusy(id)) if id == first.game_id
    ));
    assert!(matches!(
        svc.challenge(
            ch,
            UserId(2002),
            UserId(2003),
            false,
            Terms {
                color: ColorChoice::White,
                ..Terms::default()
            }
        )
        .await,
        Err(ServiceError::ChannelBusy(_))
    ));
    // Someone else cannot move in it.
    assert!(matches!(
        svc.play(ch, UserId(2002), "e3e4").await,
        Err(ServiceError::NotAPlayer)
    ));
    // A challenge waiting in another channel keeps the computer out of that channel.
    let other = ChannelId(8);
    svc.challenge(
        other,
        HUMAN,
        UserId(2002),
        false,
        Terms {
            color: ColorChoice::White,
            ..Terms::default()
        },
    )
    .await
    .unwrap();
    assert!(matches!(
        svc.play_computer(
            other,
            HUMAN,
            BOT,
            ComputerLevel::new(3).expect("level"),
            Terms {
                color: ColorChoice::White,
                ..Terms::default()
            }
        )
        .await,
        Err(ServiceError::ChallengePending(_))
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_traditional_the_weaker_computer_starts_the_count_before_its_move() {
    let env = Env::new().await;
    let ch = ChannelId(9);
    // The computer (White: Khun and Met) against Khun and Ruea, no Bia left, White to move:
    // the engine's count decision starts board's honour.
    let seat = ComputerSeat {
        side: Color::White,
        level: ComputerLevel::new(4).expect("level"),
    };
    let fen = "4k3/8/3r4/8/8/8/3M4/4K3 w - - 0 30";
    let game = insert_computer_game(&env.svc, ch, fen, Ruleset::Traditional, seat).await;
    let (svc, computer) = with_computer(&env);
    let mut announced = svc.announcements().expect("announcements");
    let _driver = driver::spawn(svc.clone(), computer).expect("driver");
    let reply = next_move(&mut announced).await;
    assert_eq!(reply.game_id, game);
    let count = reply.status.count.expect("a count runs");
    assert_eq!(count.kind, CountKind::BoardsHonour);
    assert_eq!(count.counting, Color::White);
    assert_eq!(
        reply.status.draw_offer,
        Some(Color::White),
        "the count is a draw offer"
    );
    // The human may take the count's standing offer.
    let drawn = svc
        .accept_offer(ch, HUMAN, OfferKind::Draw)
        .await
        .expect("accept");
    assert!(drawn.status.end.is_some());
}

/// A game against the computer runs on the same clocks: the computer's reply is charged to its
/// clock (with the increment), its think time comes from its clock, and a human who lets the
/// flag fall loses on time to it, announced without anyone typing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_computer_game_runs_on_the_clocks() {
    use makruk_bot::clock::{FakeTime, TimeSource as _};
    use makruk_bot::game::{ClockStatus, GameResult};

    const T0: i64 = 1_800_000_000_000;
    let env = Env::new().await;
    let time = Arc::new(FakeTime::new(T0));
    let computer = Arc::new(Computer::new(settings()).expect("engine threads"));
    let svc = env
        .svc
        .clone()
        .with_time(time.clone())
        .with_draw_judge(computer.draw_judge());
    svc.start_clocks().await.expect("clocks start");
    let mut announced = svc.announcements().expect("announcements");
    let _driver = driver::spawn(svc.clone(), computer).expect("driver");
    let ch = ChannelId(30);
    let live: TimeControl = "3+2".parse().expect("a time control");
    let start = svc
        .play_computer(
            ch,
            HUMAN,
            BOT,
            ComputerLevel::new(2).expect("level"),
            Terms {
                color: ColorChoice::White,
                time_control: live,
                ..Terms::default()
            },
        )
        .await
        .expect("start");
    assert_eq!(start.status.time_control, live);

    let live_ms = |status: &makruk_bot::game::Status| match status.clock {
        ClockStatus::Live {
            white_ms, black_ms, ..
        } => (white_ms, black_ms),
        other => panic!("a live clock: {other:?}"),
    };
    // First moves; the fake time does not move while the computer thinks, so its clock only
    // gains the increment.
    let mine = svc
        .play(ch, HUMAN, &some_move(&start.position))
        .await
        .expect("move");
    let reply = next_move(&mut announced).await;
    let (white_before, black_ms) = live_ms(&reply.status);
    assert_eq!(black_ms, 180_000 + 2_000);
    assert_eq!(white_before, live_ms(&mine.status).0, "White's clock stood");
    // The human thinks 10 s over the second move: charged, plus the increment.
    time.advance(Duration::from_secs(10));
    let mine = svc
        .play(ch, HUMAN, &some_move(&reply.position))
        .await
        .expect("move");
    assert_eq!(live_ms(&mine.status).0, white_before - 10_000 + 2_000);
    let reply = next_move(&mut announced).await;
    assert_eq!(live_ms(&reply.status).1, 180_000 + 2 * 2_000);
    // A takeback (the human's move and the computer's reply) gives both clocks back as they
    // were when the human's turn began: no time lost, no increment kept.
    let back = svc
        .offer(ch, HUMAN, OfferKind::Takeback)
        .await
        .expect("takeback");
    assert_eq!(live_ms(&back.status), (white_before, 180_000 + 2_000));
    let turn_budget = makruk_bot::computer::think_budget(
        &settings(),
        &makruk_bot::game::ComputerTurn {
            channel: ch,
            game_id: reply.game_id,
            version: 0,
            seat: makruk_bot::game::ComputerSeat {
                side: Color::Black,
                level: ComputerLevel::new(8).expect("level"),
            },
            game: makruk::Game::from_position(reply.position.clone()),
            clock: {
                // Half a second left for the side to move: no time to think beyond the reserve.
                let mut c = makruk_bot::clock::ClockState::new(live, Color::White, T0);
                c.on_move(T0).expect("in time");
                c
            },
        },
        T0 + 181_500,
    );
    assert!(turn_budget < Duration::from_millis(20), "{turn_budget:?}");

    // Now the human walks away: the flag falls with nobody typing, and the computer wins.
    time.advance(Duration::from_secs(200));
    svc.settled().await;
    let ended = loop {
        match tokio::time::timeout(Duration::from_secs(10), announced.recv()).await {
            Ok(Some(Announcement::TimedOut { reply, .. })) => break reply,
            Ok(Some(_)) => {}
            other => panic!("no flag announced: {other:?}"),
        }
    };
    let end = ended.status.end.expect("over");
    assert_eq!(end.reason, EndReason::Timeout);
    assert_eq!(end.result, GameResult::win_for(Color::Black));
    assert_eq!(time.now_ms(), T0 + 210_000);
}

/// Under `traditional` a started board's-honour count is a standing draw offer: the computer
/// judges it at once, accepting when it is losing; when winning it plays on and the count runs
/// with the offer standing (it does not "decline" a count).
#[tokio::test]
async fn the_computer_judges_a_started_count_as_a_draw_offer() {
    let env = Env::new().await;
    let (svc, _computer) = with_computer(&env);
    // The computer (Black) has Khun and Met against two Ruea: the human starts the count.
    let losing = ChannelId(21);
    let seat = ComputerSeat {
        side: Color::Black,
        level: ComputerLevel::new(8).expect("level"),
    };
    let fen = "4k3/3m4/8/8/8/8/8/RR2K3 w - - 0 30";
    insert_computer_game(&svc, losing, fen, Ruleset::Traditional, seat).await;
    let reply = svc.count_start(losing, HUMAN).await.expect("count");
    assert_eq!(reply.event, Event::OfferAccepted(OfferKind::Draw));
    assert_eq!(reply.actor, Some(BOT));
    let end = reply.status.end.expect("drawn by agreement");
    assert_eq!(end.reason, EndReason::Agreement);
    // The computer (White) has the two Ruea; the human (Black, Khun and Met) starts counting.
    let winning = ChannelId(22);
    let seat = ComputerSeat {
        side: Color::White,
        level: ComputerLevel::new(8).expect("level"),
    };
    let fen = "4k3/3m4/8/8/8/8/8/RR2K3 b - - 0 30";
    insert_computer_game(&svc, winning, fen, Ruleset::Traditional, seat).await;
    let reply = svc.count_start(winning, HUMAN).await.expect("count");
    assert_eq!(reply.event, Event::CountStarted);
    assert_eq!(reply.actor, Some(HUMAN));
    assert!(reply.status.end.is_none());
    assert_eq!(
        reply.status.draw_offer,
        Some(Color::Black),
        "the offer stands"
    );
    assert_eq!(reply.status.count.expect("counting").counting, Color::Black);
}

/// Issue 25: the computer plays every variant of the family, at the weakest and the strongest
/// of our levels: each reply is a legal move of the game's variant (Sittuyin's placement drops
/// included), announced like any other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_plays_every_variant() {
    use makruk::Variant;
    let env = Env::new().await;
    let (svc, computer) = with_computer(&env);
    let mut announced = svc.announcements().expect("announcements");
    let _driver = driver::spawn(svc.clone(), computer).expect("driver");
    let variants = [
        Variant::Makpong,
        Variant::Cambodian,
        Variant::Asean,
        Variant::Sittuyin,
    ];
    for (i, variant) in variants.into_iter().enumerate() {
        for (j, level) in [1, 8].into_iter().enumerate() {
            let ch = ChannelId(700 + 10 * i as u64 + j as u64);
            let start = svc
                .play_computer(
                    ch,
                    HUMAN,
                    BOT,
                    ComputerLevel::new(level).expect("level"),
                    Terms {
                        color: ColorChoice::White,
                        variant,
                        ..Terms::default()
                    },
                )
                .await
                .expect("start");
            assert_eq!(start.position.variant(), variant);
            let mut pos = start.position;
            // Sittuyin: 16 plies of placement first; the others: a few moves.
            for round in 0..10 {
                if pos.legal_moves().is_empty() {
                    break;
                }
                let mv = makruk::uci::to_uci_in(&pos.legal_moves()[0], variant);
                let mine = svc.play(ch, HUMAN, &mv).await.expect("move");
                if mine.status.end.is_some() {
                    break;
                }
                let reply = next_move(&mut announced).await;
                assert_eq!(reply.game_id, mine.game_id, "{variant} level {level}");
                let m = reply.last_move.expect("a move");
                assert!(
                    mine.position.is_legal(&m),
                    "{variant} level {level} round {round}: {m:?}"
                );
                if reply.status.end.is_some() {
                    break;
                }
                pos = reply.position;
            }
            // Free the channel unless the game already ended (a quick mate at level 8).
            match svc.resign(ch, HUMAN).await {
                Ok(_) | Err(ServiceError::GameOver(_)) => {}
                Err(e) => panic!("{variant} level {level}: resign: {e:?}"),
            }
        }
    }
}
