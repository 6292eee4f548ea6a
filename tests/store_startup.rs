//! Start-up refusals of the store: a database URL it cannot use, a database it cannot write, a
//! damaged file. Each is refused by `Store::open` with a message that says what is wrong and
//! what to do, and the file is left as it was.

use std::path::{Path, PathBuf};

use makruk_bot::store::Store;

/// The error `Store::open(url)` gives, with its causes, as one line.
async fn refusal(url: &str) -> String {
    match Store::open(url).await {
        Ok(_) => panic!("{url} was opened"),
        Err(e) => format!("{e:#}"),
    }
}

#[tokio::test]
async fn unknown_schemes_and_bare_text_are_refused_by_name() {
    let cwd = std::env::current_dir().unwrap();
    for (url, expected) in [
        ("::::", "must start with `sqlite:`"),
        ("bot.db", "must start with `sqlite:`"),
        ("", "must start with `sqlite:`"),
        ("mysql://u:p@host/db", "unsupported database `mysql://`"),
        (
            "postgres://u@host/db",
            "PostgreSQL (`postgres://`) is not supported yet",
        ),
        (
            "postgresql://u@host/db",
            "PostgreSQL (`postgresql://`) is not supported yet",
        ),
    ] {
        let text = refusal(url).await;
        assert!(text.contains(expected), "{url:?}: {text}");
        assert!(
            !text.contains("p@host"),
            "{url:?} leaks its password: {text}"
        );
    }
    // Nothing was created in the working directory.
    assert!(!cwd.join("::::").exists());
    assert!(!cwd.join("bot.db").exists());
}

/// A database file with the migrations applied (and a game's worth of tables), closed.
async fn made_database(dir: &Path) -> PathBuf {
    let path = dir.join("bot.db");
    let store = Store::open(&format!("sqlite://{}", path.display()))
        .await
        .unwrap();
    store.close().await;
    path
}

#[tokio::test]
async fn a_database_that_cannot_be_written_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = made_database(dir.path()).await;
    let before = std::fs::read(&path).unwrap();
    for query in ["mode=ro", "immutable=1"] {
        let text = refusal(&format!("sqlite://{}?{query}", path.display())).await;
        assert!(text.contains("cannot be written"), "{query}: {text}");
        assert!(text.contains("mode=ro"), "{query}: says what to do: {text}");
    }
    // A read-only file (0444): root may write it anyway, so only where the permission holds.
    let mut perms = std::fs::metadata(&path).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&path, perms.clone()).unwrap();
    if std::fs::OpenOptions::new().write(true).open(&path).is_err() {
        let text = refusal(&format!("sqlite://{}", path.display())).await;
        assert!(text.contains("cannot be written"), "0444: {text}");
    }
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(&path, perms).unwrap();
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the file was changed"
    );
}

/// Overwrites pages `pages` (1-based, of `page_size` bytes) of the file at `path` with noise.
fn overwrite_pages(path: &Path, page_size: u64, pages: &[u64]) {
    use std::io::{Seek as _, SeekFrom, Write as _};
    let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    for &p in pages {
        f.seek(SeekFrom::Start((p - 1) * page_size)).unwrap();
        f.write_all(&vec![0x5a; page_size as usize]).unwrap();
    }
}

#[tokio::test]
async fn a_damaged_database_is_refused_with_how_to_recover() {
    use sqlx::{Connection as _, Executor as _};
    let dir = tempfile::tempdir().unwrap();
    let path = made_database(dir.path()).await;
    // Enough rows for pages in the middle of the file that hold no schema.
    let url = format!("sqlite://{}", path.display());
    let mut conn = sqlx::SqliteConnection::connect(&url).await.unwrap();
    conn.execute(
        "CREATE TABLE filler (x BLOB); WITH RECURSIVE s(v) AS (SELECT 0 UNION ALL SELECT v + 1 \
         FROM s WHERE v < 999) INSERT INTO filler SELECT randomblob(500) FROM s; \
         PRAGMA wal_checkpoint(TRUNCATE);",
    )
    .await
    .unwrap();
    let page_size: i64 = sqlx::query_scalar("PRAGMA page_size")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    let page_count: i64 = sqlx::query_scalar("PRAGMA page_count")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    assert!(page_count > 40, "{page_count} pages");
    // Still a good file: it opens.
    Store::open(&url).await.unwrap().close().await;
    let middle = u64::try_from(page_count / 2).unwrap();
    overwrite_pages(
        &path,
        u64::try_from(page_size).unwrap(),
        &[middle, middle + 1],
    );
    let before = std::fs::read(&path).unwrap();
    let text = refusal(&url).await;
    assert!(text.contains("damaged"), "{text}");
    assert!(
        text.contains(".recover") && text.contains("backup"),
        "{text}"
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the file was changed"
    );

    // A file that is no database at all.
    let junk = dir.path().join("junk.db");
    std::fs::write(&junk, vec![0x5a; 8192]).unwrap();
    let text = refusal(&format!("sqlite://{}", junk.display())).await;
    assert!(
        text.contains("damaged") && text.contains(".recover"),
        "{text}"
    );
}

#[tokio::test]
async fn the_writer_syncs_every_commit() {
    let dir = tempfile::tempdir().unwrap();
    let path = made_database(dir.path()).await;
    let store = Store::open(&format!("sqlite://{}", path.display()))
        .await
        .unwrap();
    let mut tx = store.begin_write().await.unwrap();
    let synchronous: i64 = sqlx::query_scalar("PRAGMA synchronous")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    let journal: String = sqlx::query_scalar("PRAGMA journal_mode")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    // 2 = FULL: the WAL is synced at each commit (NORMAL, 1, syncs only at checkpoints).
    assert_eq!((synchronous, journal.as_str()), (2, "wal"));
    store.close().await;
}
