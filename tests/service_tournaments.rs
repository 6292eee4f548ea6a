//! Tournaments through the service (issue 26): a round-robin and a Swiss event from creation
//! to the final standings, their games started in threads and their results read from the
//! games; each round paired exactly once (advance twice, after a restart); late joiners,
//! withdrawals, a scheduled start; the refusals. On SQLite, or PostgreSQL when
//! `MAKRUK_TEST_POSTGRES_URL` is set.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use makruk::{Ruleset, Variant};
use makruk_bot::clock::{ClockStatus, FakeTime, TimeControl};
use makruk_bot::game::{ChannelId, GameService, GuildId, Place, ServiceError, Thread, UserId};
use makruk_bot::store::PairingRow;
use makruk_bot::tournament::{Advance, NewEvent, TournamentError, TournamentView, Tournaments};
use makruk_bot::types::{PairingResult, TournamentFormat, TournamentState};
use makruk_tournament::dutch;
use makruk_tournament::trf::Tournament;
use testkit::service::Env;

const GUILD: GuildId = GuildId(7);
const HALL: ChannelId = ChannelId(900);
const ORGANISER: UserId = UserId(1);

fn user(i: u64) -> UserId {
    UserId(100 + i)
}

fn event(format: TournamentFormat, rounds: Option<u32>) -> NewEvent {
    NewEvent {
        guild: Some(GUILD),
        channel: HALL,
        organiser: ORGANISER,
        name: "Thai Chess Thursday".into(),
        format,
        time_control: TimeControl::DEFAULT,
        variant: Variant::Makruk,
        ruleset: Ruleset::Standard,
        rated: true,
        rounds,
        minutes: None,
        start_at: None,
        repeat_days: None,
    }
}

/// Starts every game of the tournament's current round, each in a thread of its own.
async fn start_games(t: &Tournaments<'_>, view: &TournamentView, next_thread: &mut u64) {
    for p in t.games_to_start(view.row.id).await.expect("games to start") {
        *next_thread += 1;
        let place = Place {
            channel: HALL,
            thread: Some(Thread {
                channel: ChannelId(*next_thread),
                parent_channel: HALL,
                parent_message: 1,
            }),
        };
        let reply = t
            .start_game(&view.row, &p, place)
            .await
            .expect("game starts");
        assert_eq!(reply.white, p.white);
        assert_eq!(Some(reply.black), p.black);
        // Starting it again (another process) is refused: one game per pairing.
        assert!(t.start_game(&view.row, &p, place).await.is_err());
    }
}

/// Ends the game of pairing `p` by a resignation of the player with the higher user id (so
/// the lower id wins), or by a draw agreement when `draw`.
async fn finish(svc: &GameService, p: &PairingRow, thread: ChannelId, draw: bool) {
    let black = p.black.expect("a game");
    if draw {
        svc.offer(thread, p.white, makruk_bot::game::OfferKind::Draw)
            .await
            .expect("offer");
        svc.offer(thread, black, makruk_bot::game::OfferKind::Draw)
            .await
            .expect("accept");
    } else {
        let loser = p.white.max(black);
        svc.resign(thread, loser).await.expect("resign");
    }
}

/// The game channel (thread) of every pairing of the current round with a game.
async fn threads(svc: &GameService, view: &TournamentView) -> Vec<(PairingRow, ChannelId)> {
    let mut out = Vec::new();
    for p in view.round(view.row.round) {
        if let Some(g) = p.game_id {
            let thread = svc
                .game_thread(g)
                .await
                .expect("thread")
                .expect("played in a thread");
            out.push((*p, thread.channel));
        }
    }
    out
}

#[tokio::test]
async fn a_round_robin_runs_from_the_first_round_to_the_final_standings() {
    let mut env = Env::new().await;
    let mut next_thread = 5000;
    {
        let t = Tournaments::new(&env.svc);
        t.create(event(TournamentFormat::RoundRobin, None))
            .await
            .expect("create");
        for i in 1..=4 {
            t.join(HALL, user(i)).await.expect("join");
        }
        assert!(matches!(
            t.join(HALL, user(1)).await,
            Err(TournamentError::AlreadyJoined)
        ));
        assert!(matches!(
            t.start(HALL, user(1), false).await,
            Err(TournamentError::NotOrganiser)
        ));
        let view = t.start(HALL, ORGANISER, false).await.expect("start");
        assert_eq!(view.row.state, TournamentState::Running);
        assert_eq!(view.row.rounds, Some(3));
        assert_eq!(view.row.round, 1);
        assert_eq!(view.round(1).count(), 2);
        // Everyone is numbered 1..=4 (equal ratings: in the order they joined).
        let mut numbers: Vec<_> = view.players.iter().map(|p| p.number).collect();
        numbers.sort_unstable();
        assert_eq!(numbers, vec![Some(1), Some(2), Some(3), Some(4)]);
        assert!(matches!(
            t.join(HALL, user(9)).await,
            Err(TournamentError::Started)
        ));
        start_games(&t, &view, &mut next_thread).await;
    }
    for round in 1..=3 {
        let t = Tournaments::new(&env.svc);
        let view = t.view(HALL).await.expect("view");
        assert_eq!(view.row.round, round);
        // Nothing is due while games are played.
        assert_eq!(
            t.advance(view.row.id).await.expect("advance"),
            Advance::Nothing
        );
        let games = threads(&env.svc, &view).await;
        assert_eq!(games.len(), 2, "round {round}: two games");
        // A tournament game counts: it cannot be aborted, even before the first move.
        let (p, thread) = games[0];
        assert!(matches!(
            env.svc.abort(thread, p.white).await,
            Err(ServiceError::TournamentGame)
        ));
        for (p, thread) in &games {
            finish(&env.svc, p, *thread, false).await;
        }
        let id = view.row.id;
        if round == 2 {
            // The process restarts between the games' ends and the pairing.
            env.restart().await;
        }
        let t = Tournaments::new(&env.svc);
        let first = t.advance(id).await.expect("advance");
        let again = t.advance(id).await.expect("advance again");
        assert_eq!(again, Advance::Nothing, "the round moves once");
        if round < 3 {
            assert_eq!(first, Advance::Paired { round: round + 1 });
            let view = t.view(HALL).await.expect("view");
            assert_eq!(view.round(round + 1).count(), 2);
            start_games(&t, &view, &mut next_thread).await;
        } else {
            assert_eq!(first, Advance::Finished);
        }
    }
    let t = Tournaments::new(&env.svc);
    let view = t.view(HALL).await.expect("view");
    assert_eq!(view.row.state, TournamentState::Finished);
    // Everyone met everyone once.
    let mut met = std::collections::HashSet::new();
    for p in &view.pairings {
        let (a, b) = (p.white.min(p.black.unwrap()), p.white.max(p.black.unwrap()));
        assert!(met.insert((a, b)), "{a:?} and {b:?} met twice");
        assert!(p.result.is_some());
    }
    assert_eq!(met.len(), 6);
    // The lower user id won every game: user 1 has 3, user 2 has 2, user 3 has 1, user 4 none.
    let standings = t.standings(HALL).await.expect("standings");
    let order: Vec<_> = standings
        .rows
        .iter()
        .map(|s| (s.user, s.half_points))
        .collect();
    assert_eq!(
        order,
        vec![(user(1), 6), (user(2), 4), (user(3), 2), (user(4), 0)]
    );
    // A new event may now be created in the channel.
    t.create(event(TournamentFormat::Swiss, Some(3)))
        .await
        .expect("a new event after the last one finished");
}

#[tokio::test]
async fn a_swiss_event_pairs_byes_late_joiners_and_withdrawals() {
    let env = Env::new().await;
    let t = Tournaments::new(&env.svc);
    let mut next_thread = 7000;
    assert!(matches!(
        t.create(event(TournamentFormat::Swiss, Some(0))).await,
        Err(TournamentError::BadRounds)
    ));
    t.create(event(TournamentFormat::Swiss, Some(3)))
        .await
        .expect("create");
    assert!(matches!(
        t.create(event(TournamentFormat::Swiss, Some(3))).await,
        Err(TournamentError::AlreadyRunning(_))
    ));
    t.join(HALL, user(1)).await.expect("join");
    assert!(matches!(
        t.start(HALL, ORGANISER, false).await,
        Err(TournamentError::TooFewPlayers { have: 1, need: 2 })
    ));
    for i in 2..=5 {
        t.join(HALL, user(i)).await.expect("join");
    }
    // Leaving before the start removes the player.
    t.join(HALL, user(6)).await.expect("join");
    let view = t.leave(HALL, user(6)).await.expect("leave");
    assert_eq!(view.players.len(), 5);
    let view = t
        .start(HALL, ORGANISER, true)
        .await
        .expect("a manager starts it");
    // Five players: two games and a bye, the bye scored at once.
    let r1: Vec<_> = view.round(1).copied().collect();
    assert_eq!(r1.len(), 3);
    let byes: Vec<_> = r1.iter().filter(|p| p.black.is_none()).collect();
    assert_eq!(byes.len(), 1);
    assert_eq!(byes[0].result, Some(PairingResult::Bye));
    start_games(&t, &view, &mut next_thread).await;
    // A late joiner comes in for round 2; user 5 withdraws.
    t.join(HALL, user(7)).await.expect("late join");
    t.leave(HALL, user(5)).await.expect("withdraw");
    let mut draw = true;
    for round in 1..=3 {
        let view = t.view(HALL).await.expect("view");
        assert_eq!(view.row.round, round);
        for (p, thread) in threads(&env.svc, &view).await {
            finish(&env.svc, &p, thread, draw).await;
            draw = !draw;
        }
        let advanced = t.advance(view.row.id).await.expect("advance");
        if round == 3 {
            assert_eq!(advanced, Advance::Finished);
            break;
        }
        assert_eq!(advanced, Advance::Paired { round: round + 1 });
        let view = t.view(HALL).await.expect("view");
        // The TRF16 report of the rounds played pairs the next round as the bot did (read
        // back and paired by the Dutch system, as an arbiter's tool would).
        let (_, report) = t.trf(HALL, &HashMap::new()).await.expect("trf");
        let parsed = Tournament::parse(&report).expect("the report reads back");
        assert_eq!(parsed.rounds, Some(3));
        let number = |u: UserId| {
            view.players
                .iter()
                .find(|p| p.user_id == u)
                .and_then(|p| p.number)
                .expect("numbered")
        };
        let from_report: Vec<_> = dutch::pair_next_round(&parsed)
            .expect("pairs")
            .iter()
            .map(|p| (p.white, p.black))
            .collect();
        let by_bot: Vec<_> = view
            .round(round + 1)
            .map(|p| (number(p.white), p.black.map(number)))
            .collect();
        assert_eq!(from_report, by_bot, "round {}", round + 1);
        let paired: Vec<_> = view
            .round(round + 1)
            .flat_map(|p| [Some(p.white), p.black])
            .flatten()
            .collect();
        assert!(
            !paired.contains(&user(5)),
            "a withdrawn player is not paired"
        );
        assert!(paired.contains(&user(7)), "the late joiner is paired");
        assert_eq!(paired.len(), 5, "everyone still in is paired once");
        // No one has the bye twice.
        start_games(&t, &view, &mut next_thread).await;
    }
    let view = t.view(HALL).await.expect("view");
    let mut byes: Vec<_> = view
        .pairings
        .iter()
        .filter(|p| p.black.is_none())
        .map(|p| p.white)
        .collect();
    let all = byes.len();
    byes.sort_unstable();
    byes.dedup();
    assert_eq!(
        byes.len(),
        all,
        "no one had the pairing-allocated bye twice"
    );
    let standings = t.standings(HALL).await.expect("standings");
    assert_eq!(standings.rows.len(), 6);
    // The late joiner missed round 1: at most two rounds' points.
    let late = standings.rows.iter().find(|s| s.user == user(7)).unwrap();
    assert!(late.half_points <= 4);
    // Total points: every played game gives 2 half points, every bye 2.
    let total: u32 = standings.rows.iter().map(|s| s.half_points).sum();
    let expected: u32 = view.pairings.iter().map(|_| 2).sum();
    assert_eq!(total, expected);
}

#[tokio::test]
async fn a_scheduled_event_starts_by_itself_once_or_is_cancelled_without_players() {
    let env = Env::new().await;
    let time = Arc::new(FakeTime::new(1_800_000_000_000));
    let svc = env.svc.clone().with_time(time.clone());
    let t = Tournaments::new(&svc);
    let start_at = 1_800_000_000 + 1800;
    let mut e = event(TournamentFormat::Swiss, Some(2));
    e.start_at = Some(start_at);
    let created = t.create(e.clone()).await.expect("create");
    for i in 1..=4 {
        t.join(HALL, user(i)).await.expect("join");
    }
    assert_eq!(t.due().await.expect("due"), Vec::new(), "not yet");
    // Five minutes before: the players are reminded, once.
    time.advance(Duration::from_secs(1500));
    assert_eq!(t.due().await.expect("due"), vec![created.row.id]);
    assert_eq!(
        t.advance(created.row.id).await.expect("advance"),
        Advance::Remind
    );
    assert_eq!(
        t.advance(created.row.id).await.expect("again"),
        Advance::Nothing
    );
    assert_eq!(t.due().await.expect("due"), Vec::new(), "reminded");
    time.advance(Duration::from_secs(300));
    assert_eq!(t.due().await.expect("due"), vec![created.row.id]);
    assert_eq!(
        t.advance(created.row.id).await.expect("advance"),
        Advance::Paired { round: 1 }
    );
    assert_eq!(
        t.advance(created.row.id).await.expect("again"),
        Advance::Nothing
    );
    let view = t.view(HALL).await.expect("view");
    assert_eq!(view.round(1).count(), 2);
    t.cancel(HALL, ORGANISER, false).await.expect("cancel");

    // Nobody joined: the start cancels it.
    let empty = t.create(e).await.expect("create");
    time.advance(Duration::from_secs(3600));
    assert_eq!(
        t.advance(empty.row.id).await.expect("advance"),
        Advance::Cancelled
    );
    assert!(matches!(
        t.join(HALL, user(1)).await,
        Err(TournamentError::NoTournament)
    ));
}

#[tokio::test]
async fn an_arena_pairs_free_players_scores_streaks_and_ends_on_time() {
    let env = Env::new().await;
    let time = Arc::new(FakeTime::new(1_800_000_000_000));
    let svc = env.svc.clone().with_time(time.clone());
    let t = Tournaments::new(&svc);
    let mut next_thread = 9000;
    let mut e = event(TournamentFormat::Arena, None);
    assert!(matches!(
        t.create(e.clone()).await,
        Err(TournamentError::ArenaNeedsLiveClock)
    ));
    e.time_control = "3+2".parse().expect("a live control");
    e.minutes = Some(5);
    assert!(matches!(
        t.create(e.clone()).await,
        Err(TournamentError::BadDuration)
    ));
    e.minutes = Some(30);
    t.create(e).await.expect("create");
    for i in 1..=4 {
        t.join(HALL, user(i)).await.expect("join");
    }
    let view = t.start(HALL, ORGANISER, false).await.expect("start");
    // Everyone is free at the start: two games, the closest in the ranking together.
    let wave: Vec<_> = view.round(1).map(pair_of).collect();
    assert_eq!(wave, vec![(user(1), user(2)), (user(3), user(4))]);
    start_games(&t, &view, &mut next_thread).await;
    let id = view.row.id;

    // The first game ends: its two players are free, but were each other's last opponent.
    let games = threads_of(&svc, &view, 1).await;
    finish(&svc, &games[0].0, games[0].1, false).await;
    assert_eq!(t.advance(id).await.expect("advance"), Advance::Results);
    finish(&svc, &games[1].0, games[1].1, false).await;
    assert_eq!(
        t.advance(id).await.expect("advance"),
        Advance::Paired { round: 2 }
    );
    let view = t.view(HALL).await.expect("view");
    let wave: Vec<_> = view.round(2).map(pair_of).collect();
    // Ranked 1 and 3 (a win each), then 2 and 4.
    assert_eq!(wave, vec![(user(1), user(3)), (user(2), user(4))]);
    start_games(&t, &view, &mut next_thread).await;
    for (p, thread) in threads_of(&svc, &view, 2).await {
        finish(&svc, &p, thread, false).await;
    }
    // Near the end of the 30 minutes, a third wave is still paired.
    time.advance(Duration::from_secs(29 * 60));
    assert_eq!(
        t.advance(id).await.expect("advance"),
        Advance::Paired { round: 3 }
    );
    let view = t.view(HALL).await.expect("view");
    start_games(&t, &view, &mut next_thread).await;
    // The time runs out while the third wave is played: no one is paired any more, and the
    // games being played still count.
    time.advance(Duration::from_secs(2 * 60));
    assert_eq!(t.advance(id).await.expect("advance"), Advance::Nothing);
    for (p, thread) in threads_of(&svc, &view, 3).await {
        finish(&svc, &p, thread, false).await;
    }
    assert_eq!(t.advance(id).await.expect("advance"), Advance::Finished);
    let standings = t.standings(HALL).await.expect("standings");
    let top = &standings.rows[0];
    assert_eq!(top.user, user(1));
    let arena = top.arena.expect("arena points");
    // Three wins in a row: 2 + 2, then 4 on fire.
    assert_eq!((arena.points, arena.games, arena.on_fire), (8, 3, true));
    let last = standings.rows.last().expect("a last");
    assert_eq!(last.user, user(4));
    assert_eq!(last.arena.map(|a| a.points), Some(0));
}

/// White and Black of pairing `p`.
fn pair_of(p: &PairingRow) -> (UserId, UserId) {
    (p.white.min(p.black.unwrap()), p.white.max(p.black.unwrap()))
}

/// The games of wave (round) `round` of `view`, with their threads.
async fn threads_of(
    svc: &GameService,
    view: &TournamentView,
    round: u32,
) -> Vec<(PairingRow, ChannelId)> {
    let fresh = Tournaments::new(svc)
        .view_of(view.row.id)
        .await
        .expect("view");
    let mut out = Vec::new();
    for p in fresh.round(round) {
        if let Some(g) = p.game_id {
            let thread = svc.game_thread(g).await.expect("thread").expect("a thread");
            out.push((*p, thread.channel));
        }
    }
    out
}

#[tokio::test]
async fn withdrawals_forfeit_and_a_cancelled_event_frees_its_games() {
    let env = Env::new().await;
    let t = Tournaments::new(&env.svc);
    let mut next_thread = 11_000;
    t.create(event(TournamentFormat::Swiss, Some(1)))
        .await
        .expect("create");
    t.join(HALL, user(1)).await.expect("join");
    t.join(HALL, user(2)).await.expect("join");
    let view = t.start(HALL, ORGANISER, false).await.expect("start");
    assert!(matches!(
        t.start(HALL, ORGANISER, false).await,
        Err(TournamentError::AlreadyStarted)
    ));
    // The last round is paired: nobody joins any more.
    assert!(matches!(
        t.join(HALL, user(3)).await,
        Err(TournamentError::Started)
    ));
    start_games(&t, &view, &mut next_thread).await;
    let games = threads_of(&env.svc, &view, 1).await;
    // Cancelled: its game is an ordinary game again, which may be aborted.
    t.cancel(HALL, ORGANISER, false).await.expect("cancel");
    let (p, thread) = games[0];
    env.svc
        .abort(thread, p.white)
        .await
        .expect("an ordinary game again");
    assert_eq!(
        t.advance(view.row.id).await.expect("advance"),
        Advance::Nothing
    );

    // A round-robin of four: a withdrawn player's games are lost by forfeit, at once.
    t.create(event(TournamentFormat::RoundRobin, None))
        .await
        .expect("create");
    for i in 1..=4 {
        t.join(HALL, user(i)).await.expect("join");
    }
    let view = t.start(HALL, ORGANISER, false).await.expect("start");
    start_games(&t, &view, &mut next_thread).await;
    t.leave(HALL, user(4)).await.expect("withdraw");
    for (p, thread) in threads_of(&env.svc, &view, 1).await {
        finish(&env.svc, &p, thread, false).await;
    }
    assert_eq!(
        t.advance(view.row.id).await.expect("advance"),
        Advance::Paired { round: 2 }
    );
    let view = t.view(HALL).await.expect("view");
    let against_four: Vec<_> = view
        .round(2)
        .filter(|p| p.white == user(4) || p.black == Some(user(4)))
        .collect();
    assert_eq!(against_four.len(), 1);
    let forfeit = against_four[0];
    assert_eq!(forfeit.game_id, None, "no game is started for a forfeit");
    let expected = if forfeit.white == user(4) {
        PairingResult::BlackForfeitWin
    } else {
        PairingResult::WhiteForfeitWin
    };
    assert_eq!(forfeit.result, Some(expected));
    // Only the other pairing's game is started.
    assert_eq!(
        t.games_to_start(view.row.id).await.expect("to start").len(),
        1
    );
}

#[tokio::test]
async fn a_weekly_event_opens_its_next_edition_when_it_finishes() {
    let env = Env::new().await;
    let time = Arc::new(FakeTime::new(1_800_000_000_000));
    let svc = env.svc.clone().with_time(time.clone());
    let t = Tournaments::new(&svc);
    let mut next_thread = 13_000;
    // Two players cannot play five Swiss rounds without meeting twice: the event ends after
    // one, and its next edition asks for five again.
    let mut e = event(TournamentFormat::Swiss, Some(5));
    e.repeat_days = Some(7);
    assert!(matches!(
        t.create(e.clone()).await,
        Err(TournamentError::RepeatNeedsStart)
    ));
    let start = 1_800_000_000 + 600;
    e.start_at = Some(start);
    let first = t.create(e).await.expect("create");
    t.join(HALL, user(1)).await.expect("join");
    t.join(HALL, user(2)).await.expect("join");
    time.advance(Duration::from_secs(600));
    assert_eq!(
        t.advance(first.row.id).await.expect("start"),
        Advance::Paired { round: 1 }
    );
    let view = t.view(HALL).await.expect("view");
    start_games(&t, &view, &mut next_thread).await;
    for (p, thread) in threads_of(&svc, &view, 1).await {
        finish(&svc, &p, thread, false).await;
    }
    assert_eq!(
        t.advance(first.row.id).await.expect("finish"),
        Advance::Finished
    );
    let next = t.view(HALL).await.expect("the next edition");
    assert_ne!(next.row.id, first.row.id);
    assert_eq!(next.row.state, TournamentState::Open);
    assert_eq!(next.row.start_at, Some(start + 7 * 86_400));
    assert_eq!(next.row.repeat_days, Some(7));
    assert_eq!(next.row.rounds, Some(5));
    // Nobody joins that edition: it is called off at its start, and the series goes on.
    time.advance(Duration::from_secs(7 * 86_400));
    assert_eq!(
        t.advance(next.row.id).await.expect("start"),
        Advance::Cancelled
    );
    let third = t.view(HALL).await.expect("the third edition");
    assert_eq!(third.row.state, TournamentState::Open);
    assert_eq!(third.row.start_at, Some(start + 14 * 86_400));
    assert!(next.players.is_empty());
}

#[tokio::test]
async fn a_server_names_the_role_that_may_create_tournaments() {
    let env = Env::new().await;
    assert_eq!(
        env.svc
            .guild_settings(GUILD)
            .await
            .expect("settings")
            .tournament_role,
        None
    );
    env.svc
        .set_tournament_role(GUILD, 4242)
        .await
        .expect("set the role");
    let settings = env.svc.guild_settings(GUILD).await.expect("settings");
    assert_eq!(settings.tournament_role, Some(4242));
    // The other settings are kept.
    assert!(!settings.thread_default);
    env.svc
        .set_thread_default(GUILD, true)
        .await
        .expect("thread");
    let settings = env.svc.guild_settings(GUILD).await.expect("settings");
    assert_eq!(
        (settings.tournament_role, settings.thread_default),
        (Some(4242), true)
    );
}

#[tokio::test]
async fn an_arena_withdraws_an_absent_player_and_ends_without_its_unstarted_games() {
    let env = Env::new().await;
    let time = Arc::new(FakeTime::new(1_800_000_000_000));
    let svc = env.svc.clone().with_time(time.clone());
    let t = Tournaments::new(&svc);
    let mut e = event(TournamentFormat::Arena, None);
    e.time_control = "3+2".parse().expect("a live control");
    e.minutes = Some(30);
    t.create(e).await.expect("create");
    for i in 1..=4 {
        t.join(HALL, user(i)).await.expect("join");
    }
    let view = t.start(HALL, ORGANISER, false).await.expect("start");
    let id = view.row.id;
    // Only board 1's game starts (board 2's thread, say, was refused).
    let board1 = *view.round(1).next().expect("board 1");
    let place = Place {
        channel: HALL,
        thread: Some(Thread {
            channel: ChannelId(15_001),
            parent_channel: HALL,
            parent_message: 1,
        }),
    };
    t.start_game(&view.row, &board1, place)
        .await
        .expect("game starts");
    // White never moves: after three minutes its flag has fallen.
    time.advance(Duration::from_secs(4 * 60));
    let black = board1.black.expect("a game");
    assert!(matches!(
        svc.resign(ChannelId(15_001), black).await,
        Err(ServiceError::TimedOut(_))
    ));
    t.advance(id).await.expect("advance");
    let view = t.view(HALL).await.expect("view");
    let absent = view
        .players
        .iter()
        .find(|p| p.user_id == board1.white)
        .expect("white");
    assert!(absent.withdrawn, "the player who never moved is withdrawn");
    // After the end, the game that never started is dropped and the arena ends.
    time.advance(Duration::from_secs(30 * 60));
    assert_eq!(t.advance(id).await.expect("advance"), Advance::Finished);
    let view = t.view_of(id).await.expect("view");
    assert_eq!(view.pairings.len(), 1, "{:?}", view.pairings);
    assert_eq!(
        view.pairings[0].result,
        Some(PairingResult::BlackForfeitWin)
    );
    // A game lost before its first move scores for no one.
    let standings = t.standings(HALL).await.expect("standings");
    assert!(standings
        .rows
        .iter()
        .all(|s| s.arena.map(|a| a.points) == Some(0)));
    // Joining after the end is refused... but the channel's event is now finished.
    assert!(matches!(
        t.join(HALL, user(5)).await,
        Err(TournamentError::NoTournament)
    ));
}

#[tokio::test]
async fn a_berserk_halves_the_clock_once_and_scores_a_point_more() {
    let env = Env::new().await;
    let t = Tournaments::new(&env.svc);
    let mut e = event(TournamentFormat::Arena, None);
    e.time_control = "3+2".parse().expect("a live control");
    e.minutes = Some(30);
    t.create(e).await.expect("create");
    t.join(HALL, user(1)).await.expect("join");
    t.join(HALL, user(2)).await.expect("join");
    let view = t.start(HALL, ORGANISER, false).await.expect("start");
    let mut next_thread = 17_000;
    start_games(&t, &view, &mut next_thread).await;
    let (p, thread) = threads_of(&env.svc, &view, 1).await[0];
    let (white, black) = (p.white, p.black.expect("a game"));
    let svc = &env.svc;
    // Not a player of this game: refused.
    assert!(matches!(
        svc.berserk(thread, user(9)).await,
        Err(ServiceError::NotAPlayer)
    ));
    // White moves first, then tries: too late, and nothing is kept.
    let first = svc.legal_moves_san(thread, white, "").await;
    svc.play(thread, white, &first[0]).await.expect("a move");
    assert!(matches!(
        svc.berserk(thread, white).await,
        Err(ServiceError::TooLateToBerserk)
    ));
    // Black has not moved: half its time (3 minutes → 90 s), once.
    let reply = svc.berserk(thread, black).await.expect("berserk");
    match reply.status.clock {
        ClockStatus::Live { black_ms, .. } => assert!(
            (89_000..=90_000).contains(&black_ms),
            "black has {black_ms} ms"
        ),
        other => panic!("a live clock: {other:?}"),
    }
    assert!(matches!(
        svc.berserk(thread, black).await,
        Err(ServiceError::NoBerserk)
    ));
    // Fourteen plies (7 moves each), then White resigns: Black's berserk win scores 3.
    for _ in 1..14 {
        let reply = svc.board(thread).await.expect("board");
        let mover = if reply.position.turn() == makruk::Color::White {
            white
        } else {
            black
        };
        // The quietest move offered (checks come first): no early mate.
        let moves = svc.legal_moves_san(thread, mover, "").await;
        let quiet = moves
            .iter()
            .rev()
            .find(|m| !m.contains('+') && !m.contains('#'))
            .expect("a quiet move");
        svc.play(thread, mover, quiet).await.expect("a move");
    }
    svc.resign(thread, white).await.expect("resign");
    // The two are alone in the arena: they play again, colours swapped.
    assert_eq!(
        t.advance(view.row.id).await.expect("advance"),
        Advance::Paired { round: 2 }
    );
    let again = t.view(HALL).await.expect("view");
    let rematch = again.round(2).next().expect("a rematch");
    assert_eq!((rematch.white, rematch.black), (black, Some(white)));
    let standings = t.standings(HALL).await.expect("standings");
    let top = &standings.rows[0];
    assert_eq!(top.user, black);
    assert_eq!(top.arena.map(|a| a.points), Some(3));
    // Outside an arena's game: no berserk.
    let other = ChannelId(17_999);
    testkit::service::start(svc, other, Ruleset::Standard).await;
    assert!(matches!(
        svc.berserk(other, testkit::service::WHITE).await,
        Err(ServiceError::NoBerserk)
    ));
}
