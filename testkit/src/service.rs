//! The service tests' fixtures (`tests/service_*.rs`): a service on a fresh database (a SQLite
//! file, or a PostgreSQL database when `MAKRUK_TEST_POSTGRES_URL` is set), starting games,
//! reading the conformance data, what the service announced.

use std::path::{Path, PathBuf};

use makruk::{Position, Ruleset, Variant};
use makruk_bot::game::{
    Announcement, ChannelId, ColorChoice, EndReason, GameId, GameResult, GameService, Reply, Terms,
    UserId,
};
use makruk_bot::store::{self, NewGame};
use tempfile::TempDir;
use tokio::sync::mpsc::UnboundedReceiver;

pub const WHITE: UserId = UserId(1001);
pub const BLACK: UserId = UserId(1002);
pub const SPECTATOR: UserId = UserId(1003);

/// The standard start position FEN.
pub const START_FEN: &str = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1";

/// A temporary directory (holding the database file on SQLite), the database's URL, and the
/// service on it.
pub struct Env {
    /// The directory of the test's files (the SQLite database), removed on drop.
    pub dir: TempDir,
    /// The database's URL.
    pub url: String,
    /// The service on it.
    pub svc: GameService,
}

/// The URL of the SQLite file at `path`.
pub fn db_url(path: &Path) -> String {
    format!("sqlite://{}", path.display())
}

/// The PostgreSQL server of the tests (`MAKRUK_TEST_POSTGRES_URL`, a URL of an existing
/// database on it, e.g. `postgres://makruk@127.0.0.1:55432/postgres`), if one is given.
pub fn postgres_url() -> Option<String> {
    std::env::var("MAKRUK_TEST_POSTGRES_URL")
        .ok()
        .filter(|u| !u.is_empty())
}

/// A new, empty PostgreSQL database on the tests' server (see [`postgres_url`]), named for this
/// test alone so that tests stay independent and run in parallel: its URL.
pub async fn fresh_postgres_db(server: &str) -> String {
    use sqlx::{Connection as _, Executor as _};
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock after 1970")
        .subsec_nanos();
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = format!("t_{}_{n}_{nanos}", std::process::id());
    let mut admin = sqlx::PgConnection::connect(server)
        .await
        .unwrap_or_else(|e| panic!("cannot connect to MAKRUK_TEST_POSTGRES_URL: {e}"));
    admin
        .execute(&*format!("CREATE DATABASE {name}"))
        .await
        .expect("create the test database");
    admin.close().await.ok();
    let (base, query) = match server.split_once('?') {
        Some((b, q)) => (b, format!("?{q}")),
        None => (server, String::new()),
    };
    let host = base.rsplit_once('/').map_or(base, |(h, _)| h);
    format!("{host}/{name}{query}")
}

/// The URL of a fresh database for one test: on PostgreSQL when `MAKRUK_TEST_POSTGRES_URL` is
/// set (see [`fresh_postgres_db`]), else a SQLite file in `dir`.
pub async fn fresh_db_url(dir: &Path) -> String {
    match postgres_url() {
        Some(server) => fresh_postgres_db(&server).await,
        None => db_url(&dir.join("bot.db")),
    }
}

impl Env {
    /// A service on a fresh database ([`fresh_db_url`]).
    ///
    /// # Panics
    /// If the database cannot be created or the service not opened on it.
    pub async fn new() -> Env {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = fresh_db_url(dir.path()).await;
        let svc = GameService::open(&url).await.expect("open service");
        Env { dir, url, svc }
    }

    /// The SQLite file (meaningful only when the tests run on SQLite).
    pub fn db_path(&self) -> PathBuf {
        self.dir.path().join("bot.db")
    }

    /// Closes the pool and opens a new service on the same database (a restart).
    pub async fn restart(&mut self) {
        self.svc.close().await;
        self.svc = GameService::open(&self.url).await.expect("reopen service");
    }
}

/// Starts a game in `channel` through a challenge and its acceptance: WHITE plays White.
pub async fn start(svc: &GameService, channel: ChannelId, ruleset: Ruleset) -> Reply {
    let c = svc
        .challenge(
            channel,
            WHITE,
            BLACK,
            false,
            Terms {
                color: ColorChoice::White,
                ruleset,
                ..Terms::default()
            },
        )
        .await
        .expect("challenge");
    svc.accept(channel, BLACK, Some(c.id))
        .await
        .expect("accept")
}

/// Starts a game from `fen` in `channel` (WHITE plays White), written straight to the store:
/// the service only starts games from the initial position, the tests need endgames.
pub async fn start_from_fen(
    svc: &GameService,
    channel: ChannelId,
    fen: &str,
    ruleset: Ruleset,
) -> GameId {
    let start = Position::from_fen(fen, ruleset).expect("valid FEN");
    insert_started(svc, channel, &start).await
}

/// As [`start_from_fen`], in `variant` (its FEN form; the variant's own rules).
pub async fn start_from_fen_in(
    svc: &GameService,
    channel: ChannelId,
    fen: &str,
    variant: Variant,
) -> GameId {
    let start = Position::from_fen_variant(fen, variant).expect("valid FEN");
    insert_started(svc, channel, &start).await
}

/// Inserts a game from `start` (WHITE plays White).
async fn insert_started(svc: &GameService, channel: ChannelId, start: &Position) -> GameId {
    let mut tx = svc.store().begin_write().await.expect("begin");
    let id = store::insert_game(
        &mut tx,
        &NewGame {
            channel_id: channel,
            white_id: WHITE,
            black_id: BLACK,
            ruleset: start.ruleset(),
            variant: start.variant(),
            start_fen: &start.fen(),
            now: 0,
            computer: None,
            time_control: makruk_bot::clock::TimeControl::DEFAULT,
            clock: makruk_bot::clock::ClockState::new(
                makruk_bot::clock::TimeControl::DEFAULT,
                start.turn(),
                svc.time().now_ms(),
            )
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

/// How the tests write a user in a text: as the Discord adapter does, so that texts read as
/// players see them.
pub fn mention(user: UserId) -> String {
    format!("<@{}>", user.0)
}

/// The user who plays `color`.
pub fn user(color: makruk::Color) -> UserId {
    match color {
        makruk::Color::White => WHITE,
        makruk::Color::Black => BLACK,
    }
}

/// The path of `name` in the rules crate's conformance data (`rules/tests/data/`).
pub fn conformance(name: &str) -> PathBuf {
    makruk_conformance::data::path(name)
}

/// The lines of a conformance JSONL file of `rules/tests/data/` (`*.jsonl.gz`), parsed.
///
/// # Panics
/// If the file cannot be read or a line is not JSON.
pub fn jsonl(name: &str) -> Vec<serde_json::Value> {
    let path = conformance(name);
    let text = makruk_conformance::data::read_text(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect()
}

/// The server of the rated test games.
pub const GUILD: makruk_bot::game::GuildId = makruk_bot::game::GuildId(77);

/// Starts a game on server `guild` in `channel` between `white` and `black` (White as asked),
/// rated or not, with time control `time`.
pub async fn start_on(
    svc: &GameService,
    guild: makruk_bot::game::GuildId,
    channel: ChannelId,
    (white, black): (UserId, UserId),
    rated: bool,
    time: makruk_bot::clock::TimeControl,
) -> Reply {
    let ladder = makruk_bot::game::Ladder {
        guild: Some(guild),
        rated,
    };
    let terms = Terms {
        color: ColorChoice::White,
        time_control: time,
        ladder,
        ..Terms::default()
    };
    let c = svc
        .challenge(channel, white, black, false, terms)
        .await
        .expect("challenge");
    svc.accept(channel, black, Some(c.id))
        .await
        .expect("accept")
}

/// Everything announced on `rx` so far, oldest first (without waiting).
pub fn drain(rx: &mut UnboundedReceiver<Announcement>) -> Vec<Announcement> {
    let mut out = Vec::new();
    while let Ok(a) = rx.try_recv() {
        out.push(a);
    }
    out
}

/// The flags that fell among `said`, as (result, reason), in order.
///
/// # Panics
/// If a flag's announcement has no end of the game.
pub fn timed_out(said: &[Announcement]) -> Vec<(GameResult, EndReason)> {
    said.iter()
        .filter_map(|a| match a {
            Announcement::TimedOut { reply, .. } => {
                let end = reply.status.end.expect("a flag ends the game");
                Some((end.result, end.reason))
            }
            _ => None,
        })
        .collect()
}
