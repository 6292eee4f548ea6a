//! The SQLite writer connection, the URL check and start-up checks, and the transaction type of
//! the store.
//!
//! Why not a sqlx pool for the writer: sqlx-sqlite runs each connection on its own worker thread
//! and every command is a round trip to it. A pool adds a round trip on every release (it pings
//! the connection before taking it back) and `begin_with("BEGIN IMMEDIATE")` adds another (it
//! checks the custom statement opened a transaction). On the one writer connection every round
//! trip is paid by all writers in the queue. So the writer is one connection behind an async
//! mutex (first come, first served), and its transactions are opened, committed and rolled back
//! with plain `BEGIN IMMEDIATE` / `COMMIT` / `ROLLBACK` statements, one round trip each.

use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use sqlx::pool::PoolConnection;
use sqlx::{Any, Executor as _, Transaction};
use tokio::sync::{Mutex, OwnedMutexGuard};

use super::DbConn;

/// The database a URL names.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    /// `sqlite:` URLs: one file (or memory), one writer connection.
    Sqlite,
    /// `postgres://` and `postgresql://` URLs: a server shared by several bot processes.
    Postgres,
}

/// The backend of `url`, refusing a database URL this build cannot open, by name, before sqlx
/// reads it: sqlx-sqlite takes any text without a `sqlite:` prefix as a file name (`::::` would
/// create a file of that name, `mysql://…` would fail with "unable to open database file").
pub(super) fn check_url(url: &str) -> anyhow::Result<Backend> {
    if url.starts_with("sqlite:") {
        return Ok(Backend::Sqlite);
    }
    let scheme = url.split_once("://").map(|(s, _)| s).filter(|s| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c))
    });
    match scheme {
        Some("postgres" | "postgresql") => Ok(Backend::Postgres),
        Some(s) => anyhow::bail!(
            "DATABASE_URL: unsupported database `{s}://`; use a SQLite URL such as \
             sqlite://makruk-bot.sqlite3 or a PostgreSQL URL such as \
             postgres://user:password@host/database"
        ),
        None => anyhow::bail!(
            "DATABASE_URL must start with `sqlite:` or `postgres://` (for example \
             sqlite://makruk-bot.sqlite3, sqlite::memory: or postgres://user@host/database)"
        ),
    }
}

/// Refuses a database file whose directory does not exist (SQLite would say only "unable to
/// open database file"); the directory is not created, lest a mistyped path start an empty
/// database beside the real one.
pub(super) fn check_directory(file: &std::path::Path) -> anyhow::Result<()> {
    match file.parent() {
        Some(dir) if !dir.as_os_str().is_empty() && !dir.is_dir() => anyhow::bail!(
            "the database's directory {} does not exist; create it, or point DATABASE_URL at \
             an existing directory",
            dir.display()
        ),
        _ => Ok(()),
    }
}

/// Refuses a database the writer cannot write (`?mode=ro`, `?immutable=1`, a read-only file
/// or file system): such a store would show boards and fail every move. A read-only
/// connection still takes the write lock (`BEGIN IMMEDIATE`), so the check writes for real: a
/// table created in a transaction that is rolled back, which leaves the file as it was.
pub(super) async fn check_writable(conn: &mut DbConn) -> anyhow::Result<()> {
    let wrote = conn
        .execute("BEGIN IMMEDIATE; CREATE TABLE main.makruk_write_check (x)")
        .await;
    // Also after a failed BEGIN: "no transaction is active" is fine.
    let _ = conn.execute("ROLLBACK").await;
    wrote.map(drop).map_err(|e| {
        anyhow::anyhow!(
            "the database cannot be written ({e}); the bot does not start on a read-only \
             database: check the file's and its directory's permissions, and drop `mode=ro` or \
             `immutable=1` from DATABASE_URL"
        )
    })
}

/// What to do with a damaged database file.
const RECOVER: &str = "the bot does not start on a damaged database: stop it, keep the damaged \
     file, and restore the last backup, or salvage what is readable with `sqlite3 damaged.db \
     .recover | sqlite3 recovered.db` and point DATABASE_URL at the recovered file";

/// Refuses a damaged database file: `PRAGMA quick_check` (the b-tree structure of every table
/// and index, without checking that indexes match their tables) must say `ok`. Damage would
/// otherwise show only when the damaged pages are read, in the middle of a game. It reads the
/// whole file: measured on a 1 GB file (about 5 million moves) on a small VM, 2 s with the file
/// in the page cache, 21 s from a cold cache (the disk's ~50 MB/s).
pub(super) async fn check_integrity(conn: &mut DbConn) -> anyhow::Result<()> {
    let found: Vec<String> = sqlx::query_scalar("PRAGMA quick_check")
        .fetch_all(&mut *conn)
        .await
        .map_err(|e| anyhow::anyhow!("the database is damaged ({e}); {RECOVER}"))?;
    if found.len() == 1 && found[0] == "ok" {
        return Ok(());
    }
    let shown = found.iter().take(3).cloned().collect::<Vec<_>>().join("; ");
    anyhow::bail!(
        "the database is damaged (PRAGMA quick_check found {} problem(s): {shown}); {RECOVER}",
        found.len()
    )
}

/// The error of opening the writer connection; a file that is not a database, or whose first
/// pages are damaged, fails here already.
pub(super) fn open_error(e: sqlx::Error) -> anyhow::Error {
    // SQLITE_CORRUPT (11) and SQLITE_NOTADB (26), also as extended codes (low byte).
    let damaged = match &e {
        sqlx::Error::Database(d) => d
            .code()
            .and_then(|c| c.parse::<i32>().ok())
            .is_some_and(|c| matches!(c & 0xff, 11 | 26)),
        _ => false,
    };
    if damaged {
        anyhow::anyhow!("cannot open the database: it is damaged ({e}); {RECOVER}")
    } else {
        anyhow::Error::new(e).context("cannot open the database")
    }
}

/// The writer connection of a [`super::Store`] (`None` once the store is closed).
#[derive(Debug)]
pub struct WriterConn {
    pub(super) conn: Option<DbConn>,
    /// A transaction may be open on `conn` (set before `BEGIN`, cleared by a successful
    /// `COMMIT` or `ROLLBACK`): whoever takes the connection next rolls back first. This covers
    /// a transaction dropped without commit whose rollback has not run yet, and a request
    /// cancelled in the middle of `BEGIN` or `COMMIT`.
    dirty: bool,
}

/// The shared writer connection.
pub(super) type Writer = Arc<Mutex<WriterConn>>;

pub(super) fn writer(conn: DbConn) -> Writer {
    Arc::new(Mutex::new(WriterConn {
        conn: Some(conn),
        dirty: false,
    }))
}

fn closed() -> sqlx::Error {
    sqlx::Error::PoolClosed
}

/// Takes the writer connection (waiting for the current user), rolling back a transaction
/// that may have been left open (see [`WriterConn`]'s `dirty`).
async fn take_writer(writer: &Writer) -> sqlx::Result<OwnedMutexGuard<WriterConn>> {
    let mut guard = Arc::clone(writer).lock_owned().await;
    let dirty = guard.dirty;
    let conn = guard.conn.as_mut().ok_or_else(closed)?;
    if dirty {
        // "no transaction is active" when it was rolled back after all: fine either way.
        let _ = conn.execute("ROLLBACK").await;
    }
    guard.dirty = false;
    Ok(guard)
}

/// Takes the writer connection and opens a transaction on it with `begin` (`BEGIN IMMEDIATE`
/// or `BEGIN`).
pub(super) async fn begin_on_writer(writer: &Writer, begin: &str) -> sqlx::Result<WriterTx> {
    let mut guard = take_writer(writer).await?;
    guard.dirty = true;
    guard
        .conn
        .as_mut()
        .ok_or_else(closed)?
        .execute(begin)
        .await?;
    Ok(WriterTx {
        guard: Some(guard),
        open: true,
    })
}

/// A transaction on the writer connection; rolled back when dropped without
/// [`WriterTx::commit`]. The connection stays taken until the rollback has run.
#[derive(Debug)]
pub struct WriterTx {
    guard: Option<OwnedMutexGuard<WriterConn>>,
    open: bool,
}

impl WriterTx {
    fn conn_mut(&mut self) -> &mut DbConn {
        self.guard
            .as_mut()
            .and_then(|g| g.conn.as_mut())
            .unwrap_or_else(|| unreachable!("a writer transaction holds an open connection"))
    }

    async fn commit(mut self) -> sqlx::Result<()> {
        self.conn_mut().execute("COMMIT").await?;
        self.open = false;
        if let Some(g) = self.guard.as_mut() {
            g.dirty = false;
        }
        Ok(())
    }
}

impl Drop for WriterTx {
    fn drop(&mut self) {
        if !self.open {
            return;
        }
        let Some(mut guard) = self.guard.take() else {
            return;
        };
        // `dirty` is set: until the rollback below has run, the next user of the connection
        // rolls back first (also when no runtime is left to run it).
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            // The task keeps the connection taken until the rollback is done.
            rt.spawn(async move {
                if let Some(conn) = guard.conn.as_mut() {
                    if conn.execute("ROLLBACK").await.is_ok() {
                        guard.dirty = false;
                    }
                }
            });
        }
    }
}

/// A transaction on the store: a transaction on a pool connection (SQLite: a read snapshot;
/// PostgreSQL: every transaction, see [`super::Store::begin_write`]), or a transaction on the
/// SQLite writer connection (all writes; reads too for an in-memory database, which exists only
/// on its one connection). Use it as a `&mut DbConn`. Dropped without [`Tx::commit`], it is
/// rolled back.
#[derive(Debug)]
pub enum Tx {
    /// A transaction on a connection of a pool.
    Pooled(Transaction<'static, Any>),
    /// A transaction on the writer connection.
    Writer(WriterTx),
}

impl Tx {
    /// Commits the transaction.
    ///
    /// # Errors
    /// Database errors; the transaction is then rolled back.
    pub async fn commit(self) -> sqlx::Result<()> {
        match self {
            Tx::Pooled(tx) => tx.commit().await,
            Tx::Writer(tx) => tx.commit().await,
        }
    }
}

impl Deref for Tx {
    type Target = DbConn;

    fn deref(&self) -> &DbConn {
        match self {
            Tx::Pooled(tx) => tx,
            Tx::Writer(tx) => tx
                .guard
                .as_ref()
                .and_then(|g| g.conn.as_ref())
                .unwrap_or_else(|| unreachable!("a writer transaction holds an open connection")),
        }
    }
}

impl DerefMut for Tx {
    fn deref_mut(&mut self) -> &mut DbConn {
        match self {
            Tx::Pooled(tx) => tx,
            Tx::Writer(tx) => tx.conn_mut(),
        }
    }
}

/// A connection for a single read statement: from the read pool, or the writer connection for
/// an in-memory SQLite database. Use it as a `&mut DbConn`.
#[derive(Debug)]
pub enum Conn {
    /// A connection of the read pool.
    Pool(PoolConnection<Any>),
    /// The writer connection (in-memory database).
    Writer(OwnedMutexGuard<WriterConn>),
}

impl Conn {
    pub(super) async fn of_writer(writer: &Writer) -> sqlx::Result<Conn> {
        Ok(Conn::Writer(take_writer(writer).await?))
    }
}

impl Deref for Conn {
    type Target = DbConn;

    fn deref(&self) -> &DbConn {
        match self {
            Conn::Pool(c) => c,
            Conn::Writer(g) => g
                .conn
                .as_ref()
                .unwrap_or_else(|| unreachable!("checked when taken")),
        }
    }
}

impl DerefMut for Conn {
    fn deref_mut(&mut self) -> &mut DbConn {
        match self {
            Conn::Pool(c) => c,
            Conn::Writer(g) => g
                .conn
                .as_mut()
                .unwrap_or_else(|| unreachable!("checked when taken")),
        }
    }
}
