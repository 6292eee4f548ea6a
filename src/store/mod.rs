//! All SQL, behind typed functions (sqlx; SQLite by default, or PostgreSQL).
//!
//! One code path for both: every query function takes a [`DbConn`] (sqlx's `AnyConnection`),
//! and a [`Tx`] or [`Conn`] of either backend derefs to one. Portability: queries use
//! `$1`-style binds (sqlx-sqlite reads `$N` as parameter N; PostgreSQL needs that form),
//! `RETURNING`, `ON CONFLICT` and partial unique indexes, which both databases have; where the
//! SQL must differ, the one function concerned branches on [`Backend::of`]. The migrations
//! differ only in column types (`migrations/` is SQLite's, `migrations/postgres/` PostgreSQL's,
//! with the same numbers and names).
//!
//! Transactions that will write are serialized on both: SQLite has one writer connection
//! (`BEGIN IMMEDIATE`, see [`conn`]); on PostgreSQL each write transaction first takes one
//! transaction-scoped advisory lock, held by one transaction of all processes at a time, so
//! every read-then-write (ratings, accepting a challenge, clocks, announced marks) sees what
//! the previous writer committed, as on SQLite, with no serialization failures to retry. The
//! games' version check comes on top (a stale move writes nothing).
//!
//! Ids of users and channels (u64 snowflakes) are stored as BIGINT: the same 64 bits as i64.
//! Enums (states, results, sides, rulesets) are stored as TEXT and decoded into their types when a
//! row is read ([`codec`]): rows hold no state strings, and the SQL's state literals are written
//! from the same enums.

use std::str::FromStr;

use anyhow::Context as _;
use sqlx::any::{AnyArguments, AnyConnectOptions, AnyPoolOptions, AnyRow};
use sqlx::query::Query;
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{Any, AnyPool, ConnectOptions as _, Connection as _, Executor as _, Row};

mod codec;
mod conn;
mod leases;
mod ratings;
mod settings;

pub use codec::{GameState, Stored};
pub use conn::{Backend, Conn, Tx, WriterConn, WriterTx};
pub use leases::*;
pub use ratings::*;
pub use settings::*;

use codec::{db_name, get, get_opt, get_time_control};
use makruk::{Color, CountAction, Ruleset};

use crate::clock::{Snapshot, StoredClock, TimeControl};
use crate::types::{
    ChallengeState, ColorChoice, ComputerLevel, ComputerSeat, EndReason, GameResult,
};

/// The connection every query function takes: SQLite's or PostgreSQL's, behind sqlx's `Any`
/// driver.
pub type DbConn = sqlx::AnyConnection;

/// SQLite's read connections by default. Each SQLite connection of sqlx has its own worker
/// thread, and every statement is a hand-off to it and back; more threads than cores only add
/// switching.
const SQLITE_READERS: u32 = 4;

/// PostgreSQL's connections per process by default (writers and readers together).
const POSTGRES_CONNECTIONS: u32 = 8;

/// The statement timeout by default (SQLite: its busy timeout).
const STATEMENT_TIMEOUT_MS: u64 = 10_000;

/// How a PostgreSQL write transaction begins: it takes the write lock (see the module docs) in
/// the same round trip, a transaction-scoped advisory lock whose key is any fixed number (here
/// the ASCII of "makruk", 0x6d616b72756b).
const POSTGRES_BEGIN_WRITE: &str = "BEGIN ISOLATION LEVEL READ COMMITTED; \
     SELECT pg_advisory_xact_lock(120265181918571)";

/// How a PostgreSQL read transaction begins: one snapshot for all its statements, as SQLite's.
const POSTGRES_BEGIN_READ: &str = "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY";

/// How often opening a PostgreSQL transaction is tried when the connection turns out lost (the
/// pool then opens a new one).
const BEGIN_ATTEMPTS: u32 = 3;

/// Connection settings (`DATABASE_MAX_CONNECTIONS`, `DATABASE_STATEMENT_TIMEOUT_MS`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StoreOptions {
    /// Connections per process. SQLite: read connections beside the one writer (default 4);
    /// PostgreSQL: all of them, a quarter (at least one) for write transactions, the rest for
    /// reads (default 8).
    pub max_connections: Option<u32>,
    /// The longest a statement may run, in milliseconds (default 10 000). PostgreSQL: its
    /// `statement_timeout` (waiting for the write lock included); SQLite: the busy timeout (how
    /// long a writer of another process is waited for).
    pub statement_timeout_ms: Option<u64>,
}

/// The database: its connections for reads and writes. Cheap to clone.
///
/// SQLite: a connection pool for reads and one connection for writes. SQLite has one writer at
/// a time. Writers queue (first come, first served) for the single writer connection instead of
/// contending for the file lock, where SQLite's busy handler would make them sleep and retry;
/// `BEGIN IMMEDIATE` and the busy timeout still protect against other processes on the same
/// file. An in-memory database exists only on its one connection: there reads use the writer
/// connection too, and there is no read pool.
///
/// PostgreSQL: a pool for reads and one for write transactions (so that a writer never waits
/// for a connection held by another writer queued behind it on the write lock).
#[derive(Clone, Debug)]
pub struct Store {
    backend: Backend,
    pool: Option<AnyPool>,
    /// PostgreSQL's pool for write transactions.
    write_pool: Option<AnyPool>,
    /// SQLite's writer connection.
    writer: Option<conn::Writer>,
}

/// u64 id → BIGINT (same bits).
#[must_use]
pub const fn to_db_id(id: u64) -> i64 {
    id as i64
}

/// BIGINT → u64 id (same bits).
#[must_use]
pub const fn from_db_id(id: i64) -> u64 {
    id as u64
}

/// A row of `games`. Users and channels as stored (see [`to_db_id`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: i64,
    pub channel_id: i64,
    pub white_id: i64,
    pub black_id: i64,
    pub ruleset: Ruleset,
    pub start_fen: String,
    /// FEN after all stored moves and count events.
    pub fen: String,
    pub plies: i64,
    pub state: GameState,
    /// Set when finished (together with `end_reason`).
    pub result: Option<GameResult>,
    pub end_reason: Option<EndReason>,
    /// The side whose draw offer stands.
    pub draw_offer: Option<Color>,
    /// The side whose takeback request stands.
    pub takeback_request: Option<Color>,
    pub version: i64,
    pub created_at: i64,
    pub updated_at: i64,
    pub finished_at: Option<i64>,
    /// The computer's side and level in a game against it (`computer_side`, `computer_level`);
    /// set at creation, never updated.
    pub computer: Option<ComputerSeat>,
    /// The game's time control.
    pub time_control: TimeControl,
    /// The clock as of the start of the current turn (Unix milliseconds, milliseconds).
    pub clock: StoredClock,
    /// The server the game is played in (`None`: unknown, never rated).
    pub guild_id: Option<i64>,
    /// The players asked for a rated game (see [`crate::rating`] for when it counts).
    pub rated: bool,
}

const GAME_COLUMNS: &str = "id, channel_id, white_id, black_id, ruleset, start_fen, fen, plies, \
     state, result, end_reason, draw_offer, takeback_request, version, created_at, updated_at, \
     finished_at, computer_side, computer_level, time_control, white_ms, black_ms, \
     turn_started_ms, reminder_sent, guild_id, rated";

/// The computer's seat of a `games` row: both columns set, or both NULL; anything else is a
/// decode error naming the column.
fn computer_seat(r: &AnyRow) -> sqlx::Result<Option<ComputerSeat>> {
    let side: Option<Color> = get_opt(r, "computer_side")?;
    let level: Option<i64> = r.try_get("computer_level")?;
    match (side, level) {
        (None, None) => Ok(None),
        (Some(side), Some(level)) => match u8::try_from(level).ok().map(ComputerLevel::new) {
            Some(Ok(level)) => Ok(Some(ComputerSeat { side, level })),
            _ => Err(codec::unknown("computer_level", &level.to_string())),
        },
        (None, Some(_)) => Err(codec::unknown("computer_side", "NULL")),
        (Some(_), None) => Err(codec::unknown("computer_level", "NULL")),
    }
}

fn game_row(r: &AnyRow) -> sqlx::Result<GameRow> {
    Ok(GameRow {
        id: r.try_get("id")?,
        channel_id: r.try_get("channel_id")?,
        white_id: r.try_get("white_id")?,
        black_id: r.try_get("black_id")?,
        ruleset: get(r, "ruleset")?,
        start_fen: r.try_get("start_fen")?,
        fen: r.try_get("fen")?,
        plies: r.try_get("plies")?,
        state: get(r, "state")?,
        result: get_opt(r, "result")?,
        end_reason: get_opt(r, "end_reason")?,
        draw_offer: get_opt(r, "draw_offer")?,
        takeback_request: get_opt(r, "takeback_request")?,
        version: r.try_get("version")?,
        created_at: r.try_get("created_at")?,
        updated_at: r.try_get("updated_at")?,
        finished_at: r.try_get("finished_at")?,
        computer: computer_seat(r)?,
        time_control: get_time_control(r, "time_control")?,
        clock: StoredClock {
            white_ms: r.try_get("white_ms")?,
            black_ms: r.try_get("black_ms")?,
            turn_started_ms: r.try_get("turn_started_ms")?,
            reminder_sent: r.try_get::<i64, _>("reminder_sent")? != 0,
        },
        guild_id: r.try_get("guild_id")?,
        rated: r.try_get::<i64, _>("rated")? != 0,
    })
}

/// A stored move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRow {
    /// 0-based index of the move in the game.
    pub ply: i64,
    pub uci: String,
    pub san: String,
    /// Both sides' remaining milliseconds after the move (`None` for moves stored before
    /// clocks existed).
    pub clocks: Option<Snapshot>,
}

/// A stored counting request (`traditional`): at `ply` (before the move with that index).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountEventRow {
    pub seq: i64,
    pub ply: i64,
    pub action: CountAction,
}

/// A row of `challenges`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeRow {
    pub id: i64,
    pub channel_id: i64,
    pub challenger_id: i64,
    pub opponent_id: i64,
    /// The challenger's colour.
    pub color: ColorChoice,
    pub ruleset: Ruleset,
    pub state: ChallengeState,
    pub created_at: i64,
    pub expires_at: i64,
    pub answered_at: Option<i64>,
    pub game_id: Option<i64>,
    /// The time control asked for.
    pub time_control: TimeControl,
    /// The server the challenge was made in.
    pub guild_id: Option<i64>,
    /// Its game is to be rated.
    pub rated: bool,
}

const CHALLENGE_COLUMNS: &str = "id, channel_id, challenger_id, opponent_id, color, ruleset, \
     state, created_at, expires_at, answered_at, game_id, time_control, guild_id, rated";

fn challenge_row(r: &AnyRow) -> sqlx::Result<ChallengeRow> {
    Ok(ChallengeRow {
        id: r.try_get("id")?,
        channel_id: r.try_get("channel_id")?,
        challenger_id: r.try_get("challenger_id")?,
        opponent_id: r.try_get("opponent_id")?,
        color: get(r, "color")?,
        ruleset: get(r, "ruleset")?,
        state: get(r, "state")?,
        created_at: r.try_get("created_at")?,
        expires_at: r.try_get("expires_at")?,
        answered_at: r.try_get("answered_at")?,
        game_id: r.try_get("game_id")?,
        time_control: get_time_control(r, "time_control")?,
        guild_id: r.try_get("guild_id")?,
        rated: r.try_get::<i64, _>("rated")? != 0,
    })
}

/// A new game to insert.
#[derive(Clone, Debug)]
pub struct NewGame<'a> {
    pub channel_id: i64,
    pub white_id: i64,
    pub black_id: i64,
    pub ruleset: Ruleset,
    pub start_fen: &'a str,
    pub now: i64,
    /// The computer's seat in a game against it.
    pub computer: Option<ComputerSeat>,
    pub time_control: TimeControl,
    /// The clock at the start (see [`crate::clock::ClockState::new`]).
    pub clock: StoredClock,
    /// The server it is played in.
    pub guild_id: Option<i64>,
    /// To be rated.
    pub rated: bool,
}

/// A new challenge to insert.
#[derive(Clone, Debug)]
pub struct NewChallenge {
    pub channel_id: i64,
    pub challenger_id: i64,
    pub opponent_id: i64,
    pub color: ColorChoice,
    pub ruleset: Ruleset,
    pub now: i64,
    pub expires_at: i64,
    pub time_control: TimeControl,
    /// The server it is made in.
    pub guild_id: Option<i64>,
    /// Its game is to be rated.
    pub rated: bool,
}

/// True when `e` is a unique-constraint violation (e.g. the one-active-game-per-channel index).
#[must_use]
pub fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

/// True when `e` says the connection to the database was lost (PostgreSQL: a network error,
/// class 08 "connection exception", or the server shutting down, 57P01-57P03).
#[must_use]
pub fn is_connection_lost(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Io(_) => true,
        sqlx::Error::Database(d) => d
            .code()
            .is_some_and(|c| c.starts_with("08") || matches!(&*c, "57P01" | "57P02" | "57P03")),
        _ => false,
    }
}

impl Backend {
    /// The backend of connection `conn`.
    #[must_use]
    pub fn of(conn: &DbConn) -> Backend {
        if conn.backend_name() == "PostgreSQL" {
            Backend::Postgres
        } else {
            Backend::Sqlite
        }
    }
}

impl Store {
    /// [`Store::open_with`] with the default settings.
    ///
    /// # Errors
    /// As [`Store::open_with`].
    pub async fn open(url: &str) -> anyhow::Result<Store> {
        Store::open_with(url, StoreOptions::default()).await
    }

    /// Opens the database at `url` and applies its migrations: a `sqlite:` URL opens (creating
    /// it if missing) a SQLite file, in WAL mode with foreign keys on, after checking that it
    /// can be written and passes `PRAGMA quick_check` (migrations of `migrations/`); a
    /// `postgres://` URL connects to a PostgreSQL database (migrations of
    /// `migrations/postgres/`, under sqlx's advisory lock, so two processes starting at once
    /// apply them once).
    ///
    /// Durability (SQLite): the writer commits with `synchronous=FULL` (the WAL is synced at
    /// every commit), so a write whose commit returned survives a crash of the process and a
    /// power failure; the readers, which never commit a write, keep `NORMAL`.
    ///
    /// # Errors
    /// When the URL is bad or of another database, the database cannot be reached, opened or
    /// written, is damaged, or a migration fails; each says what to do.
    pub async fn open_with(url: &str, options: StoreOptions) -> anyhow::Result<Store> {
        sqlx::any::install_default_drivers();
        let timeout_ms = options.statement_timeout_ms.unwrap_or(STATEMENT_TIMEOUT_MS);
        match conn::check_url(url)? {
            Backend::Sqlite => {
                let readers = options.max_connections.unwrap_or(SQLITE_READERS).max(1);
                Store::open_sqlite(url, readers, timeout_ms).await
            }
            Backend::Postgres => {
                let total = options
                    .max_connections
                    .unwrap_or(POSTGRES_CONNECTIONS)
                    .max(2);
                Store::open_postgres(url, total, timeout_ms).await
            }
        }
    }

    async fn open_sqlite(url: &str, readers: u32, timeout_ms: u64) -> anyhow::Result<Store> {
        let options = SqliteConnectOptions::from_str(url).with_context(|| "bad database URL")?;
        let in_memory = url.contains(":memory:") || url.contains("mode=memory");
        if !in_memory {
            conn::check_directory(options.get_filename())?;
        }
        // The Any driver connects by URL: the file and its mode travel in it (`mode=rwc`, create
        // if missing, unless the URL says otherwise), the pragmas are set on each new
        // connection (WAL is the file's, set once by the writer).
        let url = if in_memory || url.contains("mode=") {
            url.to_owned()
        } else {
            let sep = if url.contains('?') { '&' } else { '?' };
            format!("{url}{sep}mode=rwc")
        };
        let any = AnyConnectOptions::from_str(&url).with_context(|| "bad database URL")?;
        // The writer's connection lives as long as the store (an in-memory database lives
        // exactly as long as its connection).
        let mut writer = any.connect().await.map_err(conn::open_error)?;
        writer
            .execute(&*format!(
                "PRAGMA busy_timeout = {timeout_ms}; PRAGMA journal_mode = WAL; \
                 PRAGMA synchronous = FULL"
            ))
            .await
            .map_err(conn::open_error)?;
        conn::check_writable(&mut writer).await?;
        conn::check_integrity(&mut writer).await?;
        sqlx::migrate!()
            .run(&mut writer)
            .await
            .with_context(|| "cannot apply the database migrations")?;
        let pool = if in_memory {
            None
        } else {
            // No ping before each acquire (sqlx's default): a connection to a local file does
            // not go stale, and the ping is one more round trip to the connection's worker
            // thread per request.
            let pool = AnyPoolOptions::new()
                .max_connections(readers)
                .test_before_acquire(false)
                .after_connect(move |conn, _| {
                    Box::pin(async move {
                        conn.execute(&*format!(
                            "PRAGMA busy_timeout = {timeout_ms}; PRAGMA synchronous = NORMAL"
                        ))
                        .await
                        .map(drop)
                    })
                })
                .connect_with(any)
                .await;
            Some(pool.with_context(|| "cannot open the database")?)
        };
        Ok(Store {
            backend: Backend::Sqlite,
            pool,
            write_pool: None,
            writer: Some(conn::writer(writer)),
        })
    }

    async fn open_postgres(url: &str, total: u32, timeout_ms: u64) -> anyhow::Result<Store> {
        let any = AnyConnectOptions::from_str(url).with_context(|| "bad database URL")?;
        // The migrations on a connection of their own, without the statement timeout (a
        // migration of a large table may take long). sqlx's PostgreSQL migrator holds an
        // advisory lock while it checks and applies them: a second process starting at once
        // waits, then finds them applied.
        let mut conn = any
            .connect()
            .await
            .with_context(|| "cannot connect to the database")?;
        sqlx::migrate!("migrations/postgres")
            .run(&mut conn)
            .await
            .with_context(|| "cannot apply the database migrations")?;
        conn.close().await.ok();
        let pool = |n: u32| {
            AnyPoolOptions::new()
                .max_connections(n)
                .after_connect(move |conn, _| {
                    Box::pin(async move {
                        conn.execute(&*format!("SET statement_timeout = {timeout_ms}"))
                            .await
                            .map(drop)
                    })
                })
                .connect_with(any.clone())
        };
        // Writes are serialized by the write lock: a few connections keep the next writers
        // ready; the rest serve reads.
        let writers = (total / 4).max(1);
        let write_pool = pool(writers)
            .await
            .with_context(|| "cannot connect to the database")?;
        let read_pool = pool(total - writers)
            .await
            .with_context(|| "cannot connect to the database")?;
        Ok(Store {
            backend: Backend::Postgres,
            pool: Some(read_pool),
            write_pool: Some(write_pool),
            writer: None,
        })
    }

    /// The database this store uses.
    #[must_use]
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The connection pool for reads (`None` for an in-memory SQLite database, which only the
    /// writer connection sees: use [`Store::read_conn`]).
    #[must_use]
    pub fn pool(&self) -> Option<&AnyPool> {
        self.pool.as_ref()
    }

    /// Closes the pools and the writer connection, waiting for requests in progress. Later
    /// requests fail with `PoolClosed`.
    pub async fn close(&self) {
        if let Some(writer) = &self.writer {
            let conn = writer.lock().await.conn.take();
            if let Some(conn) = conn {
                if let Err(e) = conn.close().await {
                    tracing::warn!(error = %e, "closing the writer connection");
                }
            }
        }
        for pool in self.write_pool.iter().chain(&self.pool) {
            pool.close().await;
        }
    }

    /// Starts a transaction that will write. SQLite: `BEGIN IMMEDIATE` (see the module docs)
    /// on the writer connection, which it holds until it is committed or dropped. PostgreSQL:
    /// a transaction holding the write lock (see the module docs) until it ends; a connection
    /// found lost when the transaction begins is replaced (a few times).
    ///
    /// # Errors
    /// Database errors (a busy database past the busy timeout, or the write lock not had within
    /// the statement timeout, included).
    pub async fn begin_write(&self) -> sqlx::Result<Tx> {
        match (&self.writer, &self.write_pool) {
            (Some(writer), _) => Ok(Tx::Writer(
                conn::begin_on_writer(writer, "BEGIN IMMEDIATE").await?,
            )),
            (None, Some(pool)) => begin_pooled(pool, POSTGRES_BEGIN_WRITE).await,
            (None, None) => Err(sqlx::Error::PoolClosed),
        }
    }

    /// Starts a read-only transaction (a consistent snapshot).
    ///
    /// # Errors
    /// Database errors.
    pub async fn begin_read(&self) -> sqlx::Result<Tx> {
        match (&self.pool, &self.writer) {
            (Some(pool), _) if self.backend == Backend::Postgres => {
                begin_pooled(pool, POSTGRES_BEGIN_READ).await
            }
            (Some(pool), _) => Ok(Tx::Pooled(pool.begin().await?)),
            (None, Some(writer)) => Ok(Tx::Writer(conn::begin_on_writer(writer, "BEGIN").await?)),
            (None, None) => Err(sqlx::Error::PoolClosed),
        }
    }

    /// A connection for reads outside a transaction (each statement is its own snapshot).
    ///
    /// # Errors
    /// Database errors.
    pub async fn read_conn(&self) -> sqlx::Result<Conn> {
        match (&self.pool, &self.writer) {
            (Some(pool), _) => Ok(Conn::Pool(pool.acquire().await?)),
            (None, Some(writer)) => Conn::of_writer(writer).await,
            (None, None) => Err(sqlx::Error::PoolClosed),
        }
    }

    /// Every row of every table, as text, in a fixed order: for tests that check a refused
    /// request changed nothing.
    ///
    /// # Errors
    /// Database errors.
    pub async fn dump(&self) -> sqlx::Result<String> {
        let mut conn = self.read_conn().await?;
        let mut out = String::new();
        for (table, order) in [
            ("games", "id"),
            ("moves", "game_id, ply"),
            ("count_events", "game_id, seq"),
            ("challenges", "id"),
            ("ratings", "guild_id, user_id, speed"),
            ("rating_history", "id"),
        ] {
            out.push_str(table);
            out.push('\n');
            let rows = sqlx::query(&format!("SELECT * FROM {table} ORDER BY {order}"))
                .fetch_all(&mut *conn)
                .await?;
            for row in rows {
                let mut cells = Vec::new();
                for i in 0..row.len() {
                    let cell = if let Ok(v) = row.try_get::<Option<i64>, _>(i) {
                        format!("{v:?}")
                    } else if let Ok(v) = row.try_get::<Option<f64>, _>(i) {
                        format!("{v:?}")
                    } else {
                        format!("{:?}", row.try_get::<Option<String>, _>(i)?)
                    };
                    cells.push(cell);
                }
                out.push_str(&cells.join("|"));
                out.push('\n');
            }
        }
        Ok(out)
    }
}

/// A transaction on a connection of `pool` begun with `begin` (PostgreSQL), retried on a new
/// connection when the one taken turns out lost (nothing was done on it yet).
async fn begin_pooled(pool: &AnyPool, begin: &'static str) -> sqlx::Result<Tx> {
    let mut attempt = 1;
    loop {
        match pool.begin_with(begin).await {
            Ok(tx) => return Ok(Tx::Pooled(tx)),
            Err(e) if attempt < BEGIN_ATTEMPTS && is_connection_lost(&e) => {
                tracing::warn!(error = %e, attempt, "the database connection was lost; retrying");
                attempt += 1;
            }
            Err(e) => return Err(e),
        }
    }
}

/// The active game of `channel`, if any.
#[tracing::instrument(skip(conn))]
pub async fn active_game(conn: &mut DbConn, channel: i64) -> sqlx::Result<Option<GameRow>> {
    sqlx::query(&format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE channel_id = $1 AND state = '{}'",
        GameState::Active.db_name()
    ))
    .bind(channel)
    .fetch_optional(conn)
    .await?
    .map(|r| game_row(&r))
    .transpose()
}

/// The most recent game of `channel` (active or finished), if any.
#[tracing::instrument(skip(conn))]
pub async fn last_game(conn: &mut DbConn, channel: i64) -> sqlx::Result<Option<GameRow>> {
    sqlx::query(&format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE channel_id = $1 ORDER BY id DESC LIMIT 1"
    ))
    .bind(channel)
    .fetch_optional(conn)
    .await?
    .map(|r| game_row(&r))
    .transpose()
}

/// Game `id`, if it exists.
#[tracing::instrument(skip(conn))]
pub async fn game(conn: &mut DbConn, id: i64) -> sqlx::Result<Option<GameRow>> {
    sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
        .bind(id)
        .fetch_optional(conn)
        .await?
        .map(|r| game_row(&r))
        .transpose()
}

/// The last `limit` finished games of `channel`, newest first.
#[tracing::instrument(skip(conn))]
pub async fn finished_games(
    conn: &mut DbConn,
    channel: i64,
    limit: i64,
) -> sqlx::Result<Vec<GameRow>> {
    sqlx::query(&format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE channel_id = $1 AND state = '{}' \
         ORDER BY finished_at DESC, id DESC LIMIT $2",
        GameState::Finished.db_name()
    ))
    .bind(channel)
    .bind(limit)
    .fetch_all(conn)
    .await?
    .iter()
    .map(game_row)
    .collect()
}

/// Inserts a new active game and returns its id. Fails with a unique violation (see
/// [`is_unique_violation`]) when the channel already has an active game.
#[tracing::instrument(skip(conn))]
pub async fn insert_game(conn: &mut DbConn, g: &NewGame<'_>) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO games (channel_id, white_id, black_id, ruleset, start_fen, fen, plies, state, \
         version, created_at, updated_at, computer_side, computer_level, time_control, white_ms, \
         black_ms, turn_started_ms, reminder_sent, guild_id, rated) \
         VALUES ($1, $2, $3, $4, $5, $5, 0, $6, 0, $7, $7, $8, $9, $10, $11, $12, $13, $14, \
         $15, $16) RETURNING id",
    )
    .bind(g.channel_id)
    .bind(g.white_id)
    .bind(g.black_id)
    .bind(g.ruleset.db_name())
    .bind(g.start_fen)
    .bind(GameState::Active.db_name())
    .bind(g.now)
    .bind(db_name(g.computer.map(|c| c.side)))
    .bind(g.computer.map(|c| i64::from(c.level.number())))
    .bind(g.time_control.storage())
    .bind(g.clock.white_ms)
    .bind(g.clock.black_ms)
    .bind(g.clock.turn_started_ms)
    .bind(i64::from(g.clock.reminder_sent))
    .bind(g.guild_id)
    .bind(i64::from(g.rated))
    .fetch_one(conn)
    .await
}

/// The active games in which the computer plays (for start-up: it may be its turn).
#[tracing::instrument(skip(conn))]
pub async fn active_computer_games(conn: &mut DbConn) -> sqlx::Result<Vec<GameRow>> {
    sqlx::query(&format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE state = '{}' AND computer_side IS NOT NULL \
         ORDER BY id",
        GameState::Active.db_name()
    ))
    .fetch_all(conn)
    .await?
    .iter()
    .map(game_row)
    .collect()
}

/// The UPDATE of [`update_game`] and [`append_move`]: the changeable fields of a game ($1-$9,
/// the clock $12-$15), only if the game ($10) still has the expected version ($11), bumping
/// it. Bound by [`bind_game_update`].
const UPDATE_GAME: &str = "UPDATE games SET fen = $1, plies = $2, state = $3, result = $4, \
     end_reason = $5, draw_offer = $6, takeback_request = $7, updated_at = $8, finished_at = $9, \
     white_ms = $12, black_ms = $13, turn_started_ms = $14, reminder_sent = $15, \
     version = version + 1 \
     WHERE id = $10 AND version = $11";

/// Binds $1-$15 of [`UPDATE_GAME`] from `g` and `expected_version`.
fn bind_game_update<'q>(
    query: Query<'q, Any, AnyArguments<'q>>,
    g: &'q GameRow,
    expected_version: i64,
) -> Query<'q, Any, AnyArguments<'q>> {
    query
        .bind(&g.fen)
        .bind(g.plies)
        .bind(g.state.db_name())
        .bind(db_name(g.result))
        .bind(db_name(g.end_reason))
        .bind(db_name(g.draw_offer))
        .bind(db_name(g.takeback_request))
        .bind(g.updated_at)
        .bind(g.finished_at)
        .bind(g.id)
        .bind(expected_version)
        .bind(g.clock.white_ms)
        .bind(g.clock.black_ms)
        .bind(g.clock.turn_started_ms)
        .bind(i64::from(g.clock.reminder_sent))
}

/// Writes the changeable fields of `g` (fen, plies, state, result, end_reason, offers,
/// updated_at, finished_at, clock) and sets `version = expected_version + 1`, only if the stored
/// version is still `expected_version`. Returns false when it was not (a lost race).
#[tracing::instrument(skip(conn, g), fields(game = g.id))]
pub async fn update_game(
    conn: &mut DbConn,
    g: &GameRow,
    expected_version: i64,
) -> sqlx::Result<bool> {
    let done = bind_game_update(sqlx::query(UPDATE_GAME), g, expected_version)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Appends move `mv` (number `mv.ply`, 0-based) to game `g.id` and writes the changeable fields of `g`
/// (as [`update_game`]), both only if the stored version is still `expected_version`; the
/// version becomes `expected_version + 1`. Returns false when it was not (a lost race):
/// nothing is written then. Call it inside a write transaction.
///
/// On SQLite the two statements go as one query (one round trip to the connection's worker
/// thread instead of two). The move is inserted first, guarded by the same version condition
/// as the update that follows; under the transaction's write lock both see the same version,
/// so both apply or neither does. Each statement is portable SQL; PostgreSQL does not take two
/// statements with binds in one query, there they run one after the other in the transaction.
#[tracing::instrument(skip(conn, g, mv), fields(game = g.id))]
pub async fn append_move(
    conn: &mut DbConn,
    g: &GameRow,
    expected_version: i64,
    mv: &MoveRow,
) -> sqlx::Result<bool> {
    const INSERT_MOVE: &str = "INSERT INTO moves (game_id, ply, uci, san, created_at, white_ms, \
         black_ms, announced) \
         SELECT $10, $16, $17, $18, $8, $19, $20, 0 FROM games WHERE id = $10 AND version = $11";
    /// Binds the move's $16-$20 after the update's.
    fn bind_move<'q>(
        q: Query<'q, Any, AnyArguments<'q>>,
        mv: &'q MoveRow,
    ) -> Query<'q, Any, AnyArguments<'q>> {
        q.bind(mv.ply)
            .bind(&mv.uci)
            .bind(&mv.san)
            .bind(mv.clocks.map(|c| c.white_ms))
            .bind(mv.clocks.map(|c| c.black_ms))
    }
    let changed = match Backend::of(conn) {
        Backend::Sqlite => {
            let sql = format!("{INSERT_MOVE}; {UPDATE_GAME}");
            bind_move(bind_game_update(sqlx::query(&sql), g, expected_version), mv)
                .execute(&mut *conn)
                .await?
                .rows_affected()
        }
        Backend::Postgres => {
            // The insert names $10-$20; PostgreSQL wants every parameter up to the highest
            // used, so it gets the update's binds too (unused ones are typed by their value).
            let inserted = bind_move(
                bind_game_update(sqlx::query(INSERT_MOVE), g, expected_version),
                mv,
            )
            .execute(&mut *conn)
            .await?
            .rows_affected();
            if inserted == 0 {
                0
            } else {
                inserted
                    + bind_game_update(sqlx::query(UPDATE_GAME), g, expected_version)
                        .execute(&mut *conn)
                        .await?
                        .rows_affected()
            }
        }
    };
    match changed {
        2 => Ok(true),
        0 => Ok(false),
        n => Err(sqlx::Error::Protocol(format!(
            "appending a move changed {n} rows, not 0 or 2"
        ))),
    }
}

/// The moves of game `game_id`, in order.
#[tracing::instrument(skip(conn))]
pub async fn moves(conn: &mut DbConn, game_id: i64) -> sqlx::Result<Vec<MoveRow>> {
    sqlx::query(
        "SELECT ply, uci, san, white_ms, black_ms FROM moves WHERE game_id = $1 ORDER BY ply",
    )
    .bind(game_id)
    .fetch_all(conn)
    .await?
    .iter()
    .map(|r| {
        let white: Option<i64> = r.try_get("white_ms")?;
        let black: Option<i64> = r.try_get("black_ms")?;
        Ok(MoveRow {
            ply: r.try_get("ply")?,
            uci: r.try_get("uci")?,
            san: r.try_get("san")?,
            clocks: white
                .zip(black)
                .map(|(white_ms, black_ms)| Snapshot { white_ms, black_ms }),
        })
    })
    .collect()
}

/// Appends move `mv` (number `mv.ply`, 0-based) to game `game_id`.
#[tracing::instrument(skip(conn))]
pub async fn insert_move(
    conn: &mut DbConn,
    game_id: i64,
    mv: &MoveRow,
    now: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO moves (game_id, ply, uci, san, created_at, white_ms, black_ms, announced) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, 0)",
    )
    .bind(game_id)
    .bind(mv.ply)
    .bind(&mv.uci)
    .bind(&mv.san)
    .bind(now)
    .bind(mv.clocks.map(|c| c.white_ms))
    .bind(mv.clocks.map(|c| c.black_ms))
    .execute(conn)
    .await?;
    Ok(())
}

/// Marks the moves of game `game_id` before ply `plies` (a board after `plies` moves reached the
/// channel) as announced. Returns how many moves were still unmarked.
#[tracing::instrument(skip(conn))]
pub async fn mark_announced(conn: &mut DbConn, game_id: i64, plies: i64) -> sqlx::Result<u64> {
    let done = sqlx::query(
        "UPDATE moves SET announced = 1 WHERE game_id = $1 AND ply < $2 AND announced = 0",
    )
    .bind(game_id)
    .bind(plies)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// Whether game `game_id` has a move before ply `plies` that is not yet announced.
#[tracing::instrument(skip(conn))]
pub async fn has_unannounced(conn: &mut DbConn, game_id: i64, plies: i64) -> sqlx::Result<bool> {
    let row = sqlx::query(
        // CASE: EXISTS is an integer on SQLite, a boolean on PostgreSQL.
        "SELECT CASE WHEN EXISTS (SELECT 1 FROM moves WHERE game_id = $1 AND ply < $2 \
         AND announced = 0) THEN 1 ELSE 0 END AS pending",
    )
    .bind(game_id)
    .bind(plies)
    .fetch_one(conn)
    .await?;
    Ok(row.try_get::<i64, _>("pending")? != 0)
}

/// The games with a move not yet announced, oldest game first.
#[tracing::instrument(skip(conn))]
pub async fn unannounced_games(conn: &mut DbConn) -> sqlx::Result<Vec<i64>> {
    sqlx::query("SELECT DISTINCT game_id FROM moves WHERE announced = 0 ORDER BY game_id")
        .fetch_all(conn)
        .await?
        .iter()
        .map(|r| r.try_get("game_id"))
        .collect()
}

/// Deletes the moves of game `game_id` from index `ply` on (a takeback).
#[tracing::instrument(skip(conn))]
pub async fn delete_moves_from(conn: &mut DbConn, game_id: i64, ply: i64) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
        .bind(game_id)
        .bind(ply)
        .execute(conn)
        .await?;
    Ok(())
}

/// The counting requests of game `game_id`, in order.
#[tracing::instrument(skip(conn))]
pub async fn count_events(conn: &mut DbConn, game_id: i64) -> sqlx::Result<Vec<CountEventRow>> {
    sqlx::query("SELECT seq, ply, action FROM count_events WHERE game_id = $1 ORDER BY seq")
        .bind(game_id)
        .fetch_all(conn)
        .await?
        .iter()
        .map(|r| {
            Ok(CountEventRow {
                seq: r.try_get("seq")?,
                ply: r.try_get("ply")?,
                action: get(r, "action")?,
            })
        })
        .collect()
}

/// Appends counting request number `seq` (0-based) to game `game_id`.
#[tracing::instrument(skip(conn))]
pub async fn insert_count_event(
    conn: &mut DbConn,
    game_id: i64,
    seq: i64,
    ply: i64,
    action: CountAction,
) -> sqlx::Result<()> {
    sqlx::query("INSERT INTO count_events (game_id, seq, ply, action) VALUES ($1, $2, $3, $4)")
        .bind(game_id)
        .bind(seq)
        .bind(ply)
        .bind(action.db_name())
        .execute(conn)
        .await?;
    Ok(())
}

/// Deletes the counting requests of game `game_id` from number `seq` on (a takeback).
#[tracing::instrument(skip(conn))]
pub async fn delete_count_events_from(
    conn: &mut DbConn,
    game_id: i64,
    seq: i64,
) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM count_events WHERE game_id = $1 AND seq >= $2")
        .bind(game_id)
        .bind(seq)
        .execute(conn)
        .await?;
    Ok(())
}

/// Marks the open challenges of `channel` that expired before `now` as `expired`.
#[tracing::instrument(skip(conn))]
pub async fn expire_challenges(conn: &mut DbConn, channel: i64, now: i64) -> sqlx::Result<u64> {
    let done = sqlx::query(&format!(
        "UPDATE challenges SET state = '{}', answered_at = expires_at \
         WHERE channel_id = $1 AND state = '{}' AND expires_at <= $2",
        ChallengeState::Expired.db_name(),
        ChallengeState::Open.db_name()
    ))
    .bind(channel)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// The open challenge of `channel` (expired or not), if any.
#[tracing::instrument(skip(conn))]
pub async fn open_challenge(conn: &mut DbConn, channel: i64) -> sqlx::Result<Option<ChallengeRow>> {
    sqlx::query(&format!(
        "SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE channel_id = $1 AND state = '{}'",
        ChallengeState::Open.db_name()
    ))
    .bind(channel)
    .fetch_optional(conn)
    .await?
    .map(|r| challenge_row(&r))
    .transpose()
}

/// Challenge `id`, if it exists.
#[tracing::instrument(skip(conn))]
pub async fn challenge(conn: &mut DbConn, id: i64) -> sqlx::Result<Option<ChallengeRow>> {
    sqlx::query(&format!(
        "SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(conn)
    .await?
    .map(|r| challenge_row(&r))
    .transpose()
}

/// Inserts an open challenge and returns its row. Fails with a unique violation when the
/// channel already has an open challenge.
#[tracing::instrument(skip(conn))]
pub async fn insert_challenge(conn: &mut DbConn, c: &NewChallenge) -> sqlx::Result<ChallengeRow> {
    let row = sqlx::query(&format!(
        "INSERT INTO challenges (channel_id, challenger_id, opponent_id, color, ruleset, state, \
         created_at, expires_at, time_control, guild_id, rated) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING {CHALLENGE_COLUMNS}"
    ))
    .bind(c.channel_id)
    .bind(c.challenger_id)
    .bind(c.opponent_id)
    .bind(c.color.db_name())
    .bind(c.ruleset.db_name())
    .bind(ChallengeState::Open.db_name())
    .bind(c.now)
    .bind(c.expires_at)
    .bind(c.time_control.storage())
    .bind(c.guild_id)
    .bind(i64::from(c.rated))
    .fetch_one(conn)
    .await?;
    challenge_row(&row)
}

/// Closes open challenge `id` with `state` (accepted, declined, withdrawn), linking `game_id`.
/// Returns false when the challenge was no longer open (a lost race).
#[tracing::instrument(skip(conn))]
pub async fn close_challenge(
    conn: &mut DbConn,
    id: i64,
    state: ChallengeState,
    now: i64,
    game_id: Option<i64>,
) -> sqlx::Result<bool> {
    let done = sqlx::query(&format!(
        "UPDATE challenges SET state = $1, answered_at = $2, game_id = $3 \
         WHERE id = $4 AND state = '{}'",
        ChallengeState::Open.db_name()
    ))
    .bind(state.db_name())
    .bind(now)
    .bind(game_id)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Every active game (start-up rebuilds the scheduler from their clocks).
#[tracing::instrument(skip(conn))]
pub async fn active_games(conn: &mut DbConn) -> sqlx::Result<Vec<GameRow>> {
    sqlx::query(&format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE state = '{}' ORDER BY id",
        GameState::Active.db_name()
    ))
    .fetch_all(conn)
    .await?
    .iter()
    .map(game_row)
    .collect()
}

/// Moves the current turn's start of every active game by `by_ms` (the bot's downtime,
/// charged to nobody) from `since_ms` on: a turn that started after `since_ms` restarts at
/// `since_ms + by_ms` (see [`crate::clock::ClockState::resume`]). Bumps the versions (stale
/// scheduler entries then do nothing). Returns the number of games changed.
#[tracing::instrument(skip(conn))]
pub async fn resume_clocks(conn: &mut DbConn, since_ms: i64, now_ms: i64) -> sqlx::Result<u64> {
    // turn_started_ms + (now - max(since, turn_started_ms)), written without MAX() (whose
    // two-argument form is SQLite's; PostgreSQL's is GREATEST).
    let done = sqlx::query(&format!(
        "UPDATE games SET turn_started_ms = CASE WHEN turn_started_ms > $1 THEN $2 \
         ELSE turn_started_ms + ($2 - $1) END, version = version + 1 \
         WHERE state = '{}' AND $2 > $1",
        GameState::Active.db_name()
    ))
    .bind(since_ms)
    .bind(now_ms)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// The bot's last heartbeat (Unix milliseconds), if one was stored.
#[tracing::instrument(skip(conn))]
pub async fn last_alive(conn: &mut DbConn) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar("SELECT last_alive_ms FROM bot_state WHERE id = 1")
        .fetch_optional(conn)
        .await
}

/// Stores the bot's heartbeat `now_ms`.
#[tracing::instrument(skip(conn))]
pub async fn set_last_alive(conn: &mut DbConn, now_ms: i64) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO bot_state (id, last_alive_ms) VALUES (1, $1) \
         ON CONFLICT (id) DO UPDATE SET last_alive_ms = $1",
    )
    .bind(now_ms)
    .execute(conn)
    .await?;
    Ok(())
}
