//! Ratings through the service: a rated game's end rates both players once, in the transaction
//! that stores it; unrated ends; restarts; two games of one player ending at once; recompute;
//! the leaderboard's pages; the stats and their chart.

use makruk_bot::clock::TimeControl;
use makruk_bot::game::ComputerLevel;
use makruk_bot::game::{
    ChannelId, GameService, GuildId, Kind, Reply, ServiceError, UserId, LEADERBOARD_PAGE,
};
use makruk_bot::i18n::Locale;
use makruk_bot::rating::{self, Glicko};
use makruk_bot::store::{self, RatingRow};
use makruk_bot::types::ComputerSeat;
use testkit::service::{mention, start_on, Env, BLACK, GUILD, WHITE};

const CORR: TimeControl = TimeControl::DEFAULT;
const LIVE: TimeControl = TimeControl::Live {
    minutes: 5,
    increment_secs: 3,
};

/// Plays `plies` plies of a fixed opening (at most 4) in `channel` between `white` and `black`.
async fn play(
    svc: &GameService,
    channel: ChannelId,
    (white, black): (UserId, UserId),
    plies: usize,
) {
    for (i, mv) in ["e4", "d5", "a4", "h5"].iter().take(plies).enumerate() {
        let who = if i % 2 == 0 { white } else { black };
        svc.play(channel, who, mv).await.expect("move");
    }
}

/// A rated game on GUILD in `channel`: four plies, then `loser` resigns.
async fn rated_game(
    svc: &GameService,
    channel: ChannelId,
    players: (UserId, UserId),
    loser: UserId,
    time: TimeControl,
) -> Reply {
    start_on(svc, GUILD, channel, players, true, time).await;
    play(svc, channel, players, 4).await;
    svc.resign(channel, loser).await.expect("resign")
}

async fn stored_rating(svc: &GameService, user: UserId, speed: Kind) -> Option<RatingRow> {
    let mut conn = svc.store().read_conn().await.expect("conn");
    store::rating(&mut conn, GUILD, user, makruk::Variant::Makruk, speed)
        .await
        .expect("rating")
}

async fn history_len(svc: &GameService) -> usize {
    let mut conn = svc.store().read_conn().await.expect("conn");
    store::all_history(&mut conn).await.expect("history").len()
}

#[tokio::test]
async fn a_rated_game_rates_both_players_once() {
    let env = Env::new().await;
    let svc = &env.svc;
    let ch = ChannelId(1);
    let reply = rated_game(svc, ch, (WHITE, BLACK), BLACK, CORR).await;
    let (w, b) = rating::rate(Glicko::START, Glicko::START, 1.0);
    let shown = reply
        .ratings
        .expect("the end of a rated game shows the ratings");
    assert_eq!(shown.white.rating, w.shown());
    assert_eq!(shown.white.change, w.shown() - 1500);
    assert_eq!(shown.black.rating, b.shown());
    assert!(shown.white.provisional && shown.white.change > 0 && shown.black.change < 0);
    let text = reply.text(Locale::En, &mention);
    assert!(
        text.contains(&format!("{}? (+{})", w.shown(), w.shown() - 1500)),
        "{text}"
    );
    assert!(
        text.contains(&format!("{}? (−{})", b.shown(), 1500 - b.shown())),
        "{text}"
    );
    let th = reply.text(Locale::Th, &mention);
    assert!(th.contains(&format!("{}? (+", w.shown())), "{th}");

    let white = stored_rating(svc, WHITE, Kind::Correspondence)
        .await
        .expect("white rated");
    let black = stored_rating(svc, BLACK, Kind::Correspondence)
        .await
        .expect("black rated");
    assert_eq!((white.games, white.wins, white.losses), (1, 1, 0));
    assert_eq!((black.games, black.wins, black.losses), (1, 0, 1));
    assert!((white.glicko.rating - w.rating).abs() < 1e-9);
    assert!((black.glicko.deviation - b.deviation).abs() < 1e-9);
    assert!(stored_rating(svc, WHITE, Kind::Live).await.is_none());
    assert_eq!(history_len(svc).await, 2);

    // Whatever comes after the end changes no rating.
    let before = svc.store().dump().await.expect("dump");
    assert!(matches!(
        svc.resign(ch, WHITE).await,
        Err(ServiceError::GameOver(_))
    ));
    assert!(svc.board(ch).await.expect("board").ratings.is_none());
    assert_eq!(svc.store().dump().await.expect("dump"), before);
}

#[tokio::test]
async fn live_games_have_their_own_rating() {
    let env = Env::new().await;
    let svc = &env.svc;
    rated_game(svc, ChannelId(1), (WHITE, BLACK), WHITE, LIVE).await;
    let live = stored_rating(svc, BLACK, Kind::Live)
        .await
        .expect("live rating");
    assert_eq!(live.wins, 1);
    assert!(stored_rating(svc, BLACK, Kind::Correspondence)
        .await
        .is_none());
}

#[tokio::test]
async fn aborted_short_casual_and_serverless_games_are_unrated() {
    let env = Env::new().await;
    let svc = &env.svc;
    // Aborted.
    start_on(svc, GUILD, ChannelId(1), (WHITE, BLACK), true, CORR).await;
    play(svc, ChannelId(1), (WHITE, BLACK), 1).await;
    let r = svc.abort(ChannelId(1), BLACK).await.expect("abort");
    assert!(r.ratings.is_none());
    // Ended before each side made two moves.
    start_on(svc, GUILD, ChannelId(2), (WHITE, BLACK), true, CORR).await;
    play(svc, ChannelId(2), (WHITE, BLACK), 3).await;
    let r = svc.resign(ChannelId(2), BLACK).await.expect("resign");
    assert!(r.ratings.is_none());
    // Asked unrated.
    start_on(svc, GUILD, ChannelId(3), (WHITE, BLACK), false, CORR).await;
    play(svc, ChannelId(3), (WHITE, BLACK), 4).await;
    let r = svc.resign(ChannelId(3), BLACK).await.expect("resign");
    assert!(r.ratings.is_none());
    // Outside any server (the plain `challenge`).
    testkit::service::start(svc, ChannelId(4), makruk::Ruleset::Standard).await;
    play(svc, ChannelId(4), (WHITE, BLACK), 4).await;
    let r = svc.resign(ChannelId(4), BLACK).await.expect("resign");
    assert!(r.ratings.is_none());
    assert!(r.text(Locale::En, &mention).contains("1-0"));
    assert_eq!(history_len(svc).await, 0);
    assert!(stored_rating(svc, WHITE, Kind::Correspondence)
        .await
        .is_none());
}

#[tokio::test]
async fn computer_games_are_unrated() {
    let env = Env::new().await;
    let svc = &env.svc;
    // A game against the computer as stored (the computer's side is BLACK's id here, so both
    // sides can be played through `play`), asked rated on a server: still unrated.
    let start = makruk::Position::start(makruk::Ruleset::Standard);
    let mut tx = svc.store().begin_write().await.expect("begin");
    store::insert_game(
        &mut tx,
        &store::NewGame {
            channel_id: ChannelId(9),
            white_id: WHITE,
            black_id: BLACK,
            ruleset: makruk::Ruleset::Standard,
            variant: makruk::Variant::Makruk,
            start_fen: &start.fen(),
            now: 0,
            computer: Some(ComputerSeat {
                side: makruk::Color::Black,
                level: ComputerLevel::new(1).expect("level"),
            }),
            time_control: CORR,
            clock: makruk_bot::clock::ClockState::new(
                CORR,
                makruk::Color::White,
                svc.time().now_ms(),
            )
            .stored(),
            guild_id: Some(GUILD),
            rated: true,
        },
    )
    .await
    .expect("insert");
    tx.commit().await.expect("commit");
    play(svc, ChannelId(9), (WHITE, BLACK), 4).await;
    let r = svc.resign(ChannelId(9), WHITE).await.expect("resign");
    assert!(r.ratings.is_none());
    assert_eq!(history_len(svc).await, 0);
}

#[tokio::test]
async fn ratings_survive_a_restart() {
    let mut env = Env::new().await;
    rated_game(&env.svc, ChannelId(1), (WHITE, BLACK), BLACK, CORR).await;
    let before = stored_rating(&env.svc, WHITE, Kind::Correspondence).await;
    env.restart().await;
    assert_eq!(
        stored_rating(&env.svc, WHITE, Kind::Correspondence).await,
        before
    );
    let reply = rated_game(&env.svc, ChannelId(1), (WHITE, BLACK), BLACK, CORR).await;
    let after = stored_rating(&env.svc, WHITE, Kind::Correspondence)
        .await
        .expect("rated");
    assert_eq!(after.games, 2);
    let shown = reply.ratings.expect("rated");
    assert_eq!(
        shown.white.change,
        after.glicko.shown() - before.expect("rated").glicko.shown()
    );
}

#[tokio::test]
async fn two_games_of_one_player_ending_at_once_both_count_in_order() {
    let env = Env::new().await;
    let svc = &env.svc;
    let third = UserId(1003);
    start_on(svc, GUILD, ChannelId(1), (WHITE, BLACK), true, CORR).await;
    start_on(svc, GUILD, ChannelId(2), (WHITE, third), true, CORR).await;
    play(svc, ChannelId(1), (WHITE, BLACK), 4).await;
    play(svc, ChannelId(2), (WHITE, third), 4).await;
    let (a, b) = tokio::join!(
        svc.resign(ChannelId(1), BLACK),
        svc.resign(ChannelId(2), third)
    );
    let (a, b) = (a.expect("resign 1"), b.expect("resign 2"));
    let white = stored_rating(svc, WHITE, Kind::Correspondence)
        .await
        .expect("rated");
    assert_eq!((white.games, white.wins), (2, 1 + 1));
    let mut conn = svc.store().read_conn().await.expect("conn");
    let history = store::history(
        &mut conn,
        GUILD,
        WHITE,
        makruk::Variant::Makruk,
        Kind::Correspondence,
    )
    .await
    .expect("history");
    assert_eq!(history.len(), 2);
    // The second rated game starts from the first one's result.
    assert_eq!(history[1].rating_before, history[0].after.rating);
    assert_eq!(history[1].after, white.glicko);
    // Each answer shows the rating after its own game.
    let mut shown = [
        a.ratings.expect("rated").white,
        b.ratings.expect("rated").white,
    ];
    shown.sort_by_key(|c| c.rating);
    assert_eq!(shown[1].rating, white.glicko.shown());
}

#[tokio::test]
async fn recompute_reproduces_the_stored_ratings_and_repairs_a_difference() {
    let env = Env::new().await;
    let svc = &env.svc;
    let third = UserId(1003);
    rated_game(svc, ChannelId(1), (WHITE, BLACK), BLACK, CORR).await;
    rated_game(svc, ChannelId(1), (BLACK, third), BLACK, CORR).await;
    rated_game(svc, ChannelId(2), (third, WHITE), WHITE, LIVE).await;
    rated_game(svc, ChannelId(1), (WHITE, third), third, CORR).await;
    let dump = svc.store().dump().await.expect("dump");
    let report = svc.recompute_ratings(false).await.expect("recompute");
    assert_eq!(report.games, 4);
    assert_eq!(report.ratings, 5);
    assert!(report.differences.is_empty(), "{:?}", report.differences);
    assert_eq!(svc.store().dump().await.expect("dump"), dump);

    // A stored rating that does not follow from the games is reported, and rebuilt.
    let mut conn = svc.store().read_conn().await.expect("conn");
    sqlx::query("UPDATE ratings SET rating = 1000 WHERE user_id = $1 AND speed = 'live'")
        .bind(third)
        .execute(&mut *conn)
        .await
        .expect("tamper");
    drop(conn);
    let dry = svc.recompute_ratings(true).await.expect("dry run");
    assert_eq!(dry.differences.len(), 1, "{:?}", dry.differences);
    assert!(
        dry.differences[0].contains("1000.00"),
        "{:?}",
        dry.differences
    );
    assert_ne!(svc.store().dump().await.expect("dump"), dump);
    let fixed = svc.recompute_ratings(false).await.expect("recompute");
    assert_eq!(fixed.differences.len(), 1);
    assert_eq!(svc.store().dump().await.expect("dump"), dump);
}

/// Rating rows for `n` players of GUILD at `speed`, player i rated 1000 + 10·i, written
/// straight to the store.
async fn seed_ratings(svc: &GameService, n: i64, speed: Kind, now: i64) {
    let mut tx = svc.store().begin_write().await.expect("begin");
    for i in 0..n {
        let row = RatingRow {
            guild_id: GUILD,
            user_id: UserId(5000 + i as u64),
            variant: makruk::Variant::Makruk,
            speed,
            glicko: Glicko {
                rating: 1000.0 + 10.0 * i as f64,
                deviation: if i % 2 == 0 { 60.0 } else { 200.0 },
                volatility: 0.06,
            },
            games: i,
            wins: i,
            draws: 0,
            losses: 0,
            last_game_at: now,
        };
        store::put_rating(&mut tx, &row).await.expect("put");
    }
    tx.commit().await.expect("commit");
}

#[tokio::test]
async fn the_leaderboard_pages_ten_at_a_time() {
    let env = Env::new().await;
    let svc = &env.svc;
    assert!(matches!(
        svc.leaderboard(GUILD, makruk::Variant::Makruk, None, 0)
            .await,
        Err(ServiceError::LeaderboardEmpty(
            makruk::Variant::Makruk,
            Kind::Correspondence
        ))
    ));
    let now = svc.time().now_ms() / 1000;
    seed_ratings(svc, 23, Kind::Live, now).await;
    let first = svc
        .leaderboard(GUILD, makruk::Variant::Makruk, None, 0)
        .await
        .expect("page 1");
    assert_eq!(first.speed, Kind::Live, "the speed with players");
    assert_eq!((first.page, first.pages, first.players), (0, 3, 23));
    assert_eq!(first.entries.len(), LEADERBOARD_PAGE as usize);
    assert_eq!(first.entries[0].rank, 1);
    assert_eq!(first.entries[0].rating, 1220);
    assert!(first.entries.windows(2).all(|w| w[0].rating > w[1].rating));
    // Player 22 has RD 60, player 21 RD 200.
    assert!(!first.entries[0].provisional && first.entries[1].provisional);
    let text = first.text(Locale::En, &mention);
    assert!(text.contains("1. <@5022> **1220**"), "{text}");
    assert!(text.contains("**1210?**"), "{text}");
    assert!(text.contains("Page 1 of 3"), "{text}");
    let last = svc
        .leaderboard(GUILD, makruk::Variant::Makruk, Some(Kind::Live), 2)
        .await
        .expect("page 3");
    assert_eq!(last.entries.len(), 3);
    assert_eq!(last.entries[2].rank, 23);
    assert_eq!(last.entries[2].rating, 1000);
    // An old button past the end shows the last page.
    assert_eq!(
        svc.leaderboard(GUILD, makruk::Variant::Makruk, Some(Kind::Live), 99)
            .await
            .expect("clamped"),
        last
    );
    // Another server, another speed: empty.
    assert!(svc
        .leaderboard(GuildId(5), makruk::Variant::Makruk, None, 0)
        .await
        .is_err());
    let err = svc
        .leaderboard(
            GUILD,
            makruk::Variant::Makruk,
            Some(Kind::Correspondence),
            0,
        )
        .await
        .expect_err("empty");
    assert!(err.message(Locale::Th, &mention).contains("เกมทางไกล"));
}

#[tokio::test]
async fn stats_tell_rating_rank_record_and_draw_a_chart() {
    let env = Env::new().await;
    let svc = &env.svc;
    let third = UserId(1003);
    assert!(matches!(
        svc.stats(GUILD, WHITE, makruk::Variant::Makruk, None).await,
        Err(ServiceError::NoRatedGames(u, _)) if u == WHITE
    ));
    // One game: a chart that still makes sense (the start and the result).
    rated_game(svc, ChannelId(1), (WHITE, BLACK), BLACK, CORR).await;
    let one = svc
        .stats(GUILD, WHITE, makruk::Variant::Makruk, None)
        .await
        .expect("stats");
    assert_eq!(one.history.len(), 2);
    assert_eq!((one.rank, one.players), (1, 2));
    check_chart(&one.history, "one-game");

    rated_game(svc, ChannelId(1), (third, WHITE), third, CORR).await;
    rated_game(svc, ChannelId(1), (WHITE, third), WHITE, CORR).await;
    rated_game(svc, ChannelId(1), (BLACK, WHITE), BLACK, CORR).await;
    let s = svc
        .stats(
            GUILD,
            WHITE,
            makruk::Variant::Makruk,
            Some(Kind::Correspondence),
        )
        .await
        .expect("stats");
    assert_eq!((s.record.wins, s.record.draws, s.record.losses), (3, 0, 1));
    assert_eq!((s.as_white.wins, s.as_white.losses), (1, 1));
    assert_eq!((s.as_black.wins, s.as_black.losses), (2, 0));
    // Won, won, lost, won.
    assert_eq!((s.current_streak, s.best_streak), (1, 2));
    assert_eq!(s.recent.len(), 4);
    assert_eq!(s.recent[0].opponent, BLACK);
    assert_eq!(s.recent[0].outcome, 1);
    assert_eq!(s.recent[1].outcome, -1);
    let best = s.best_win.expect("a best win");
    assert!(best.opponent == BLACK || best.opponent == third);
    assert_eq!(s.history.len(), 5);
    assert_eq!(s.history[0], 1500.0);
    // The rank is the place on the leaderboard.
    let board = svc
        .leaderboard(GUILD, makruk::Variant::Makruk, None, 0)
        .await
        .expect("leaderboard");
    let place = board
        .entries
        .iter()
        .find(|e| e.user == WHITE)
        .expect("listed")
        .rank;
    assert_eq!((s.rank, s.players), (place, 3));
    let text = s.text(Locale::En, &mention);
    assert!(text.contains("4 games: +3 =0 −1"), "{text}");
    assert!(text.contains(&format!("place {place} of 3")), "{text}");
    let th = s.text(Locale::Th, &mention);
    assert!(th.contains(&format!("อันดับ {place} จาก 3")), "{th}");
    check_chart(&s.history, "four-games");
    assert!(matches!(
        svc.stats(GUILD, WHITE, makruk::Variant::Makruk, Some(Kind::Live))
            .await,
        Err(ServiceError::NoRatedGames(..))
    ));
}

/// The chart of `history` is a PNG of the announced size with a line on it; written to the
/// temporary directory to be looked at.
fn check_chart(history: &[f64], name: &str) {
    use makruk_bot::render::chart::{chart_png, CHART_HEIGHT, CHART_WIDTH};
    let png = chart_png(history).expect("chart");
    let decoder = png::Decoder::new(std::io::Cursor::new(&png));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("frame");
    assert_eq!((info.width, info.height), (CHART_WIDTH, CHART_HEIGHT));
    let pixels = &buf[..info.buffer_size()];
    let step = info.color_type.samples();
    // The line's blue and the last point's red are there.
    let has = |rgb: [u8; 3]| pixels.chunks(step).any(|p| p[..3] == rgb);
    assert!(has([0x1f, 0x6f, 0xeb]), "the rating line");
    assert!(has([0xd9, 0x4f, 0x2b]), "the last rating");
    let _ = std::fs::write(
        std::env::temp_dir().join(format!("makruk-chart-{name}.png")),
        &png,
    );
}
