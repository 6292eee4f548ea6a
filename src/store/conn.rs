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
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use sqlx::pool::PoolConnection;
use sqlx::{Any, Executor as _, Transaction};
use tokio::sync::{watch, Mutex, OwnedMutexGuard};

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

/// The WAL file of SQLite database file `db` (`<db>-wal`).
pub(super) fn wal_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push("-wal");
    PathBuf::from(name)
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

/// The writer connection of a [`super::Store`] (`None` once the store is closed), with what may
/// be open on it.
///
/// Group commit: write transactions are not committed one by one. Each request works in a
/// savepoint of one shared transaction (a *batch*, `BEGIN IMMEDIATE`), released when the request
/// commits; the request whose commit finds nobody queued for the connection commits the batch
/// (one `COMMIT`, one WAL sync for every request in it), and every request of the batch is then
/// answered with that commit's result. A request that finds others queued hands the connection
/// on (they join its batch) and waits. Nothing is confirmed before the commit is on disk; a
/// request that fails or is dropped rolls back to its savepoint alone. Idle, a request commits
/// at once: one commit, no waiting for a batch to fill.
#[derive(Debug)]
pub struct WriterConn {
    pub(super) conn: Option<DbConn>,
    /// A transaction may be open on `conn` (set before `BEGIN`, cleared by a successful
    /// `COMMIT` or `ROLLBACK`).
    txn_open: bool,
    /// A request's savepoint may be open (set before `SAVEPOINT`, cleared by its `RELEASE` or
    /// `ROLLBACK TO`): whoever takes the connection next rolls it back first. This covers a
    /// request dropped without commit whose rollback has not run yet, and one cancelled in the
    /// middle of a statement.
    savepoint_open: bool,
    /// The batch open on `conn` (with `txn_open`), if any.
    batch: Option<Batch>,
    /// Batches begun so far (their ids).
    batches: u64,
}

/// A group commit in progress: its id, and the requests released into it waiting for its
/// `COMMIT`.
#[derive(Debug)]
struct Batch {
    id: u64,
    /// How many requests released their savepoint into it.
    members: usize,
    /// The commit's result, sent once (an error's text: `sqlx::Error` is not `Clone`).
    done: watch::Sender<Option<Result<(), String>>>,
}

/// The shared writer connection, and how many are queued for it.
#[derive(Debug, Clone)]
pub(super) struct Writer {
    conn: Arc<Mutex<WriterConn>>,
    /// Tasks waiting for the connection (a committing request that sees none commits the
    /// batch; one that sees some hands the connection on).
    queued: Arc<AtomicUsize>,
    /// Group commit is on (else every write is a transaction of its own: for comparisons).
    grouped: bool,
}

/// The writer connection `conn`, with group commit if `grouped`.
pub(super) fn writer(conn: DbConn, grouped: bool) -> Writer {
    Writer {
        conn: Arc::new(Mutex::new(WriterConn {
            conn: Some(conn),
            txn_open: false,
            savepoint_open: false,
            batch: None,
            batches: 0,
        })),
        queued: Arc::default(),
        grouped,
    }
}

fn closed() -> sqlx::Error {
    sqlx::Error::PoolClosed
}

/// One queued for the writer connection, counted in [`Writer::queued`] until dropped (taken, or
/// cancelled while waiting).
struct Queued(Arc<AtomicUsize>);

impl Queued {
    fn new(n: &Arc<AtomicUsize>) -> Queued {
        n.fetch_add(1, Ordering::SeqCst);
        Queued(Arc::clone(n))
    }
}

impl Drop for Queued {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Writer {
    /// Waits for the connection (first come, first served).
    async fn lock(&self) -> OwnedMutexGuard<WriterConn> {
        let _queued = Queued::new(&self.queued);
        Arc::clone(&self.conn).lock_owned().await
    }

    /// Whether anyone is queued for the connection.
    fn contended(&self) -> bool {
        self.queued.load(Ordering::SeqCst) > 0
    }
}

impl WriterConn {
    fn conn(&mut self) -> sqlx::Result<&mut DbConn> {
        self.conn.as_mut().ok_or_else(closed)
    }

    /// Rolls back a request's savepoint left open (see `savepoint_open`).
    async fn undo_savepoint(&mut self) -> sqlx::Result<()> {
        if self.savepoint_open {
            // "no such savepoint" when it never opened: fine either way.
            let _ = self.conn()?.execute("ROLLBACK TO w; RELEASE w").await;
            self.savepoint_open = false;
        }
        Ok(())
    }

    /// Ends the batch open on the connection: committed if a request was released into it
    /// (its members are told the result), rolled back if none was; a transaction left open
    /// without a batch is rolled back. Returns the commit's result.
    async fn finish(&mut self) -> sqlx::Result<()> {
        self.undo_savepoint().await?;
        let batch = self.batch.take();
        match batch {
            Some(batch) if batch.members > 0 => {
                let committed = self.conn()?.execute("COMMIT").await.map(drop);
                if committed.is_ok() {
                    self.txn_open = false;
                } else {
                    // A failed COMMIT may leave the transaction open: nothing of it is kept.
                    let _ = self.conn()?.execute("ROLLBACK").await;
                    self.txn_open = false;
                }
                let told = match &committed {
                    Ok(()) => Ok(()),
                    Err(e) => Err(e.to_string()),
                };
                batch.done.send_replace(Some(told));
                committed
            }
            _ => {
                if self.txn_open {
                    // "no transaction is active" when it never began: fine either way.
                    let _ = self.conn()?.execute("ROLLBACK").await;
                    self.txn_open = false;
                }
                Ok(())
            }
        }
    }
}

/// Takes the writer connection (waiting for the current user), rolling back a request's
/// savepoint left open. `join`: the taker writes in the open batch; otherwise the batch is
/// finished first (the connection is then free of any transaction).
async fn take_writer(writer: &Writer, join: bool) -> sqlx::Result<OwnedMutexGuard<WriterConn>> {
    let mut guard = writer.lock().await;
    guard.conn()?;
    guard.undo_savepoint().await?;
    if !join || guard.batch.is_none() {
        // A commit error concerns the batch's members, who were told.
        let _ = guard.finish().await;
    }
    Ok(guard)
}

/// Takes the writer connection for [`super::Store::close`]: the open batch is committed
/// first.
pub(super) async fn take_to_close(writer: &Writer) -> Option<DbConn> {
    let mut guard = take_writer(writer, false).await.ok()?;
    guard.conn.take()
}

/// Takes the writer connection and begins a request's work on it: a write (`BEGIN IMMEDIATE`)
/// joins the open batch in a savepoint of its own (beginning a batch if none is open); a read
/// of an in-memory database (`BEGIN`), and a write without group commit, is a transaction of
/// its own.
pub(super) async fn begin_on_writer(writer: &Writer, begin: &str) -> sqlx::Result<WriterTx> {
    let batched = writer.grouped && begin == "BEGIN IMMEDIATE";
    let mut guard = take_writer(writer, batched).await?;
    if !batched {
        guard.txn_open = true;
        guard.conn()?.execute(begin).await?;
        return Ok(WriterTx {
            guard: Some(guard),
            writer: writer.clone(),
            mode: Mode::Alone,
        });
    }
    if guard.batch.is_none() {
        guard.txn_open = true;
        guard.conn()?.execute(begin).await?;
        guard.batches += 1;
        let id = guard.batches;
        guard.batch = Some(Batch {
            id,
            members: 0,
            done: watch::Sender::new(None),
        });
    }
    guard.savepoint_open = true;
    if let Err(e) = guard.conn()?.execute("SAVEPOINT w").await {
        // The batch's earlier requests wait for its commit: do it now unless someone queued
        // will.
        if !writer.contended() {
            let _ = guard.finish().await;
        }
        return Err(e);
    }
    Ok(WriterTx {
        guard: Some(guard),
        writer: writer.clone(),
        mode: Mode::Batched,
    })
}

/// How a [`WriterTx`] ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// A write in a savepoint of the batch.
    Batched,
    /// A transaction of its own (a read of an in-memory database).
    Alone,
    /// Committed.
    Done,
}

/// A request's work on the writer connection: a write in a savepoint of the batch, or a read
/// transaction of its own; rolled back when dropped without [`WriterTx::commit`]. The
/// connection stays taken until the rollback has run.
#[derive(Debug)]
pub struct WriterTx {
    guard: Option<OwnedMutexGuard<WriterConn>>,
    writer: Writer,
    mode: Mode,
}

/// The error of a batch's failed commit, for each of its requests.
fn batch_error(text: &str) -> sqlx::Error {
    sqlx::Error::Protocol(format!("the group commit failed: {text}"))
}

impl WriterTx {
    fn conn_mut(&mut self) -> &mut DbConn {
        self.guard
            .as_mut()
            .and_then(|g| g.conn.as_mut())
            .unwrap_or_else(|| unreachable!("a writer transaction holds an open connection"))
    }

    /// Commits: a read's own transaction at once; a write's savepoint is released into the
    /// batch, which is committed now if nobody is queued for the connection, else by the last
    /// request of the batch (or by this one, once the connection comes back to it). Returns
    /// once the batch's commit is on disk, with its result.
    async fn commit(mut self) -> sqlx::Result<()> {
        let mode = self.mode;
        let mut guard = self
            .guard
            .take()
            .unwrap_or_else(|| unreachable!("a writer transaction holds the connection"));
        if mode == Mode::Alone {
            // On an error `txn_open` stays set: the next taker rolls back.
            guard.conn()?.execute("COMMIT").await?;
            guard.txn_open = false;
            self.mode = Mode::Done;
            return Ok(());
        }
        // Released into the batch: from now on its fate is the batch's (Drop does nothing).
        let released = guard.conn()?.execute("RELEASE w").await;
        if let Err(e) = released {
            self.guard = Some(guard);
            return Err(e);
        }
        self.mode = Mode::Done;
        guard.savepoint_open = false;
        let (id, mut done) = {
            let batch = guard
                .batch
                .as_mut()
                .unwrap_or_else(|| unreachable!("a batched request has its batch"));
            batch.members += 1;
            (batch.id, batch.done.subscribe())
        };
        if !self.writer.contended() {
            return guard.finish().await;
        }
        // Others are queued: they join the batch; the last of them commits it. Should none of
        // them (all cancelled, say), this request commits it when the connection comes back.
        drop(guard);
        loop {
            tokio::select! {
                changed = done.changed() => {
                    if changed.is_err() {
                        // The batch was dropped uncommitted (its committer cancelled mid-way).
                        return Err(batch_error("its outcome is unknown"));
                    }
                }
                mut guard = self.writer.lock() => {
                    if guard.batch.as_ref().is_some_and(|b| b.id == id) {
                        guard.undo_savepoint().await?;
                        return guard.finish().await;
                    }
                }
            }
            if let Some(result) = done.borrow().clone() {
                return result.map_err(|e| batch_error(&e));
            }
        }
    }
}

impl Drop for WriterTx {
    fn drop(&mut self) {
        if self.mode == Mode::Done {
            return;
        }
        let Some(mut guard) = self.guard.take() else {
            return;
        };
        let writer = self.writer.clone();
        let mode = self.mode;
        // Until the rollback below has run, the next taker of the connection rolls back first
        // (`savepoint_open`, `txn_open`), also when no runtime is left to run it.
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            // The task keeps the connection taken until the rollback is done.
            rt.spawn(async move {
                if mode == Mode::Alone {
                    if let Ok(conn) = guard.conn() {
                        if conn.execute("ROLLBACK").await.is_ok() {
                            guard.txn_open = false;
                        }
                    }
                    return;
                }
                let _ = guard.undo_savepoint().await;
                // The batch's earlier requests wait for its commit: do it now unless someone
                // queued will (they join it).
                if !writer.contended() {
                    let _ = guard.finish().await;
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
        Ok(Conn::Writer(take_writer(writer, false).await?))
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
