//! All SQL, behind typed functions (sqlx; SQLite by default, portable to PostgreSQL).

use std::str::FromStr;
use std::time::Duration;

use anyhow::Context as _;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;

/// The database: a connection pool. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Store {
    pool: SqlitePool,
}

impl Store {
    /// Opens (creating if missing) the SQLite database at `url`, in WAL mode with a busy
    /// timeout, and applies the migrations of `migrations/`.
    ///
    /// # Errors
    /// When the file cannot be opened or a migration fails.
    pub async fn open(url: &str) -> anyhow::Result<Store> {
        let options = SqliteConnectOptions::from_str(url)
            .with_context(|| "bad database URL")?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            .connect_with(options)
            .await
            .with_context(|| "cannot open the database")?;
        sqlx::migrate!()
            .run(&pool)
            .await
            .with_context(|| "cannot apply the database migrations")?;
        Ok(Store { pool })
    }

    /// The connection pool.
    #[must_use]
    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// Closes the pool, waiting for connections in use.
    pub async fn close(&self) {
        self.pool.close().await;
    }
}
