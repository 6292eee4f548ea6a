//! All SQL, behind typed functions (sqlx; SQLite by default, or PostgreSQL): one file per table
//! (`games`, `moves`, `count_events`, `challenges`, `bot_state`, `ratings` with its history,
//! `settings`, `leases`, `puzzles`, `tournaments`); this one opens the store and hands out its connections and
//! transactions.
//!
//! One code path for both: every query function takes a [`DbConn`] (sqlx's `AnyConnection`),
//! and a [`Tx`] or [`Conn`] of either backend derefs to one. Portability: queries use
//! `$1`-style binds (sqlx-sqlite reads `$N` as parameter N; PostgreSQL needs that form),
//! `RETURNING`, `ON CONFLICT` and partial unique indexes, which both databases have; where the
//! SQL must differ, the one function concerned branches on [`Backend::of`]. The migrations
//! differ only in column types (`migrations/` is SQLite's, `migrations/postgres/` PostgreSQL's,
//! with the same numbers and names).
//!
//! Write transactions: SQLite has one writer connection, so they run one at a time
//! (`BEGIN IMMEDIATE`, with group commit: each request in a savepoint of a shared transaction
//! committed once for all that were waiting, see [`conn::WriterConn`]). PostgreSQL runs them at
//! once (`READ COMMITTED`), each locking only what it changes: a game's row by its version check
//! (`UPDATE … WHERE version = $n`: of two writers of one game the second waits for the first's
//! row lock, then finds the version changed, writes nothing and the request is tried again on
//! the new state); a channel's one active game and one open challenge by their partial unique
//! indexes, and the channel itself while a challenge or game is created in it; a rated game's
//! two ratings by advisory locks taken in a fixed order; the leader lease by its one
//! statement ([`locks`] says which and why). A deadlock or serialization failure PostgreSQL
//! reports is a conflict, tried again like a stale version ([`is_retryable`]).
//!
//! Ids are typed in rows and arguments ([`crate::types`]): users, channels and servers (u64
//! snowflakes) are stored as BIGINT, the same 64 bits as i64; games and challenges are their
//! rows' ids ([`ids`]). Rows are read with `query_as` (each row type implements `FromRow`).
//! Enums (states, results, sides, rulesets) are stored as TEXT and decoded into their types when a
//! row is read ([`codec`]): rows hold no state strings, and the SQL's state literals are written
//! from the same enums.

use std::str::FromStr;

use anyhow::{bail, Context as _};
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{AnyPool, ConnectOptions as _, Connection as _, Executor as _, Row};

mod analyses;
mod bot_state;
mod challenges;
mod codec;
mod conn;
mod count_events;
mod games;
mod ids;
mod leases;
mod locks;
mod moves;
mod puzzles;
mod ratings;
mod settings;
mod tournaments;

pub use analyses::*;
pub use bot_state::*;
pub use challenges::*;
pub use codec::{GameState, Stored};
pub use conn::{Backend, Conn, Tx, WriterConn, WriterTx};
pub use count_events::*;
pub use games::*;
pub use leases::*;
pub use locks::*;
pub use moves::*;
pub use puzzles::*;
pub use ratings::*;
pub use settings::*;
pub use tournaments::*;

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

/// How a PostgreSQL write transaction begins (see the module docs for what it locks).
const POSTGRES_BEGIN_WRITE: &str = "BEGIN ISOLATION LEVEL READ COMMITTED";

/// How a PostgreSQL write transaction began before each locked only what it changes: with one
/// advisory lock for all, held by one transaction of all processes at a time. Only for
/// comparing the two ([`StoreOptions::global_write_lock`], `service_bench`).
const POSTGRES_BEGIN_WRITE_GLOBAL: &str = "BEGIN ISOLATION LEVEL READ COMMITTED; \
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
    /// PostgreSQL: all of them, half (at least one) for write transactions, the rest for reads
    /// (default 8).
    pub max_connections: Option<u32>,
    /// The longest a statement may run, in milliseconds (default 10 000). PostgreSQL: its
    /// `statement_timeout` (waiting for the write lock included); SQLite: the busy timeout (how
    /// long a writer of another process is waited for).
    pub statement_timeout_ms: Option<u64>,
    /// Refuse to create a SQLite file that does not exist (a tool such as `recompute`, which
    /// should never start from an empty database because of a mistyped path).
    pub existing_only: bool,
    /// SQLite: how the writer syncs its commits (default [`Synchronous::Full`]).
    pub synchronous: Synchronous,
    /// SQLite: commit every write transaction alone instead of in groups (see
    /// [`conn::WriterConn`]): only for comparing the two (`service_bench`).
    pub commit_alone: bool,
    /// PostgreSQL: every write transaction takes one lock for all, as before write
    /// transactions ran at once (see the module docs): only for comparing the two
    /// (`service_bench`).
    pub global_write_lock: bool,
    /// SQLite: run `PRAGMA quick_check` while opening even after a clean stop (by default it
    /// then runs after start-up: [`Store::integrity_deferred`]).
    pub check_at_open: bool,
}

/// SQLite's `synchronous` setting of the writer connection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Synchronous {
    /// The WAL is synced at every commit: a confirmed write survives a power cut. The bot's.
    #[default]
    Full,
    /// The WAL is synced only at checkpoints: a confirmed write survives a crash of the
    /// process but maybe not a power cut. For benchmarks.
    Normal,
}

impl Synchronous {
    fn pragma(self) -> &'static str {
        match self {
            Synchronous::Full => "FULL",
            Synchronous::Normal => "NORMAL",
        }
    }
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
    /// How a PostgreSQL write transaction begins.
    begin_write: &'static str,
    /// SQLite: `PRAGMA quick_check` was left for after start-up ([`Store::integrity_deferred`]).
    integrity_deferred: bool,
    /// SQLite on a file: the file, and how to connect to it (for [`Store::close`]).
    sqlite_file: Option<(std::path::PathBuf, AnyConnectOptions)>,
}

/// True when `e` is a unique-constraint violation (e.g. the one-active-game-per-channel index).
#[must_use]
pub fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

/// True when `e` is PostgreSQL's answer to transactions that cannot all go on: a deadlock it
/// broke (40P01) or a serialization failure (40001). The transaction was rolled back; the
/// request may be tried again (the game service counts it as a conflict).
#[must_use]
pub fn is_retryable(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.code().is_some_and(|c| matches!(&*c, "40P01" | "40001")))
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
    /// can be written (migrations of `migrations/`) and, when the last process using it did not
    /// close it (its `-wal` file is there: a crash, a kill, a power cut, or another process has
    /// it open) or [`StoreOptions::check_at_open`] says so, that it passes `PRAGMA
    /// quick_check`; after a clean stop that check is left for after start-up (it reads the
    /// whole file: about 0.85 s for 240 MB from the page cache), see
    /// [`Store::integrity_deferred`]; a
    /// `postgres://` URL connects to a PostgreSQL database (migrations of
    /// `migrations/postgres/`, under sqlx's advisory lock, so two processes starting at once
    /// apply them once).
    ///
    /// Durability (SQLite): the writer commits with `synchronous=FULL` (the WAL is synced at
    /// every commit), so a write whose commit returned survives a crash of the process and a
    /// power failure; the readers, which never commit a write, keep `NORMAL`. Write
    /// transactions are committed in groups, one sync for all the requests waiting (see
    /// [`conn::WriterConn`]); none is confirmed before its group's commit is on disk.
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
                Store::open_sqlite(url, readers, timeout_ms, options).await
            }
            Backend::Postgres => {
                let total = options
                    .max_connections
                    .unwrap_or(POSTGRES_CONNECTIONS)
                    .max(2);
                let begin = if options.global_write_lock {
                    POSTGRES_BEGIN_WRITE_GLOBAL
                } else {
                    POSTGRES_BEGIN_WRITE
                };
                Store::open_postgres(url, total, timeout_ms, begin).await
            }
        }
    }

    async fn open_sqlite(
        url: &str,
        readers: u32,
        timeout_ms: u64,
        store: StoreOptions,
    ) -> anyhow::Result<Store> {
        let existing = store.existing_only;
        let options = SqliteConnectOptions::from_str(url).with_context(|| "bad database URL")?;
        let in_memory = url.contains(":memory:") || url.contains("mode=memory");
        if !in_memory {
            let file = options.get_filename();
            if existing && !file.exists() {
                bail!(
                    "there is no database at {}: check the path (DATABASE_URL or \
                     --database-url); nothing was created",
                    file.display()
                );
            }
            conn::check_directory(file)?;
        }
        // SQLite deletes the WAL file when the last connection to the database closes; one
        // left behind means that did not happen (or that another process has the file open).
        let closed_cleanly = !in_memory && !conn::wal_path(options.get_filename()).exists();
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
                 PRAGMA synchronous = {}",
                store.synchronous.pragma()
            ))
            .await
            .map_err(conn::open_error)?;
        conn::check_writable(&mut writer).await?;
        let integrity_deferred = closed_cleanly && !store.check_at_open;
        if !integrity_deferred {
            conn::check_integrity(&mut writer).await?;
        }
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
                .connect_with(any.clone())
                .await;
            Some(pool.with_context(|| "cannot open the database")?)
        };
        Ok(Store {
            backend: Backend::Sqlite,
            pool,
            write_pool: None,
            writer: Some(conn::writer(writer, !store.commit_alone)),
            begin_write: POSTGRES_BEGIN_WRITE,
            integrity_deferred,
            sqlite_file: (!in_memory).then(|| (options.get_filename().to_owned(), any.clone())),
        })
    }

    async fn open_postgres(
        url: &str,
        total: u32,
        timeout_ms: u64,
        begin_write: &'static str,
    ) -> anyhow::Result<Store> {
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
        // Half for write transactions, which run at once (each waits only for the writers of
        // what it changes), half for reads.
        let writers = (total / 2).max(1);
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
            begin_write,
            integrity_deferred: false,
            sqlite_file: None,
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

    /// True when opening left `PRAGMA quick_check` for after start-up (a SQLite file its last
    /// process closed cleanly): run [`Store::check_integrity`] once the bot answers, and stop
    /// it if that fails.
    #[must_use]
    pub fn integrity_deferred(&self) -> bool {
        self.integrity_deferred
    }

    /// `PRAGMA quick_check` of a SQLite file on a read connection (the writer goes on
    /// meanwhile); PostgreSQL: nothing. The bot runs it after start-up when
    /// [`Store::integrity_deferred`].
    ///
    /// # Errors
    /// The file is damaged (the message says how to recover), or a database error.
    pub async fn check_integrity(&self) -> anyhow::Result<()> {
        if self.backend != Backend::Sqlite {
            return Ok(());
        }
        let mut conn = self.read_conn().await?;
        conn::check_integrity(&mut conn).await
    }

    /// Closes the pools and the writer connection, waiting for requests in progress. Later
    /// requests fail with `PoolClosed`. On SQLite, once it returns, every connection is closed
    /// (the last one checkpointed the WAL and deleted it), so the file is at rest: the next
    /// start finds it closed cleanly, and a copy taken now is whole.
    pub async fn close(&self) {
        if let Some(writer) = &self.writer {
            // The open group commit is committed first.
            if let Some(conn) = conn::take_to_close(writer).await {
                if let Err(e) = conn.close().await {
                    tracing::warn!(error = %e, "closing the writer connection");
                }
            }
        }
        for pool in self.write_pool.iter().chain(&self.pool) {
            close_pool(pool).await;
        }
        // Two connections that close at the same instant (one given back late, see
        // `close_pool`) each see the other open, and neither checkpoints and deletes the WAL:
        // one more connection, alone, does.
        if let Some((file, connect)) = &self.sqlite_file {
            if conn::wal_path(file).exists() {
                match connect.connect().await {
                    Ok(c) => {
                        if let Err(e) = c.close().await {
                            tracing::warn!(error = %e, "closing the database");
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "closing the database"),
                }
            }
        }
    }

    /// Starts a transaction that will write. SQLite: `BEGIN IMMEDIATE` (see the module docs)
    /// on the writer connection, which it holds until it is committed or dropped. PostgreSQL:
    /// a `READ COMMITTED` transaction that locks what it changes (see the module docs); a
    /// connection found lost when the transaction begins is replaced (a few times).
    ///
    /// # Errors
    /// Database errors (a busy database past the busy timeout, or a lock not had within the
    /// statement timeout, included).
    pub async fn begin_write(&self) -> sqlx::Result<Tx> {
        match (&self.writer, &self.write_pool) {
            (Some(writer), _) => Ok(Tx::Writer(
                conn::begin_on_writer(writer, "BEGIN IMMEDIATE").await?,
            )),
            (None, Some(pool)) => begin_pooled(pool, self.begin_write).await,
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

/// Closes `pool` for good. sqlx's `Pool::close` may return with a connection still open
/// (sqlx issue 3217: a connection being given back when it runs is neither waited for
/// nor, when it lands in the idle queue afterwards, ever closed); for SQLite that connection
/// would keep the WAL until it is dropped, on its worker thread, at an instant no one chose.
/// So the close is repeated (each round closes what came back idle) until no connection is
/// left, for at most a few seconds.
async fn close_pool(pool: &AnyPool) {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        pool.close().await;
        if pool.size() == 0 {
            return;
        }
        if tokio::time::Instant::now() >= deadline {
            tracing::warn!(
                open = pool.size(),
                "a database connection is still open after the pool closed"
            );
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
}
