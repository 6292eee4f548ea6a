//! Migration 0013 on a database that already holds ratings (SQLite rebuilds `ratings`,
//! PostgreSQL alters its primary key): every row is kept, as Makruk's, and the new key lets a
//! player have a rating per variant. On SQLite, or on PostgreSQL when
//! `MAKRUK_TEST_POSTGRES_URL` is set.

use std::borrow::Cow;
use std::path::Path;

use makruk::Variant;
use makruk_bot::game::{GameService, Kind, UserId};
use makruk_bot::rating::Glicko;
use makruk_bot::store::{self, RatingRow};
use sqlx::migrate::Migrator;
use sqlx::Connection as _;
use testkit::service::{fresh_db_url, GUILD};

#[tokio::test]
async fn ratings_stored_before_0013_are_kept_as_makruks() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = fresh_db_url(dir.path()).await;
    let postgres = url.starts_with("postgres");
    // The schema as of migration 0012, with two ratings and a history row in it.
    let folder = if postgres {
        "migrations/postgres"
    } else {
        "migrations"
    };
    let mut migrator = Migrator::new(Path::new(env!("CARGO_MANIFEST_DIR")).join(folder))
        .await
        .expect("migrations");
    let upto: Vec<_> = migrator
        .migrations
        .iter()
        .filter(|m| m.version <= 12)
        .cloned()
        .collect();
    assert_eq!(upto.len(), 12);
    migrator.migrations = Cow::Owned(upto);
    sqlx::any::install_default_drivers();
    let create = if postgres {
        url.clone()
    } else {
        format!("{url}?mode=rwc")
    };
    let mut conn = sqlx::AnyConnection::connect(&create)
        .await
        .expect("connect");
    migrator.run(&mut conn).await.expect("migrate to 0012");
    for (user, rating) in [(1_i64, 1612.5_f64), (2, 1433.0)] {
        sqlx::query(
            "INSERT INTO ratings (guild_id, user_id, speed, rating, deviation, volatility, games, \
             wins, draws, losses, last_game_at) VALUES ($1, $2, 'live', $3, 80.0, 0.06, 7, 4, 1, \
             2, 1000)",
        )
        .bind(GUILD.0 as i64)
        .bind(user)
        .bind(rating)
        .execute(&mut conn)
        .await
        .expect("a rating of 0012");
    }
    conn.close().await.expect("close");

    // The bot starts: 0013 runs.
    let svc = GameService::open(&url).await.expect("open and migrate");
    let mut c = svc.store().read_conn().await.expect("conn");
    let row = store::rating(&mut c, GUILD, UserId(1), Variant::Makruk, Kind::Live)
        .await
        .expect("read")
        .expect("kept as Makruk's");
    assert_eq!(row.glicko.rating, 1612.5);
    assert_eq!((row.games, row.wins, row.draws, row.losses), (7, 4, 1, 2));
    assert!(
        store::rating(&mut c, GUILD, UserId(1), Variant::Makpong, Kind::Live)
            .await
            .expect("read")
            .is_none()
    );
    drop(c);
    // The new key: the same player, server and speed in another variant is another row.
    let mut tx = svc.store().begin_write().await.expect("begin");
    store::put_rating(
        &mut tx,
        &RatingRow {
            guild_id: GUILD,
            user_id: UserId(1),
            variant: Variant::Makpong,
            speed: Kind::Live,
            glicko: Glicko::START,
            games: 1,
            wins: 1,
            draws: 0,
            losses: 0,
            last_game_at: 2000,
        },
    )
    .await
    .expect("a Makpong rating beside the Makruk one");
    tx.commit().await.expect("commit");
    let mut c = svc.store().read_conn().await.expect("conn");
    let all = store::all_ratings(&mut c).await.expect("all");
    assert_eq!(all.len(), 3);
    let makruk = store::leaderboard(&mut c, GUILD, Variant::Makruk, Kind::Live, 0, 10)
        .await
        .expect("leaderboard");
    assert_eq!(
        makruk.iter().map(|r| r.user_id).collect::<Vec<_>>(),
        [UserId(1), UserId(2)]
    );
}
