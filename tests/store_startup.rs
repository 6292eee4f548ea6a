//! Start-up refusals of the store: a database URL it cannot use, a database it cannot write, a
//! damaged file. Each is refused by `Store::open` with a message that says what is wrong and
//! what to do, and the file is left as it was.

use std::path::{Path, PathBuf};

use makruk_bot::store::{Store, StoreOptions};

/// The WAL file SQLite keeps beside `db` while a connection has it open.
fn wal_of(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push("-wal");
    PathBuf::from(name)
}

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
        ("::::", "must start with `sqlite:` or `postgres://`"),
        ("bot.db", "must start with `sqlite:` or `postgres://`"),
        ("", "must start with `sqlite:` or `postgres://`"),
        ("mysql://u:p@host/db", "unsupported database `mysql://`"),
        // PostgreSQL URLs are taken; one of a server that is not there says so (port 1:
        // nothing listens there).
        (
            "postgres://u:p@127.0.0.1:1/db",
            "cannot connect to the database",
        ),
        (
            "postgresql://u:p@127.0.0.1:1/db",
            "cannot connect to the database",
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
    let told = |text: &str| {
        assert!(text.contains("damaged"), "{text}");
        assert!(
            text.contains(".recover") && text.contains("backup"),
            "{text}"
        );
    };
    // The last process closed the file cleanly: the check is left for after start-up, and
    // then finds the damage.
    let store = Store::open(&url).await.expect("a clean file opens at once");
    assert!(store.integrity_deferred());
    let found = store.check_integrity().await.expect_err("damage not found");
    told(&format!("{found:#}"));
    store.close().await;
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the file was changed"
    );
    // Asked to check at open: refused.
    let options = StoreOptions {
        check_at_open: true,
        ..StoreOptions::default()
    };
    match Store::open_with(&url, options).await {
        Ok(_) => panic!("opened with check_at_open"),
        Err(e) => told(&format!("{e:#}")),
    }
    // The file still open elsewhere (its WAL file there, as after a crash): refused at open.
    let mut other = sqlx::SqliteConnection::connect(&url).await.unwrap();
    let _: i64 = sqlx::query_scalar("SELECT count(*) FROM sqlite_schema")
        .fetch_one(&mut other)
        .await
        .unwrap();
    assert!(
        wal_of(&path).exists(),
        "no WAL file while a connection is open"
    );
    told(&refusal(&url).await);
    other.close().await.unwrap();
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

#[tokio::test]
async fn a_missing_directory_is_refused_and_not_created() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-dir");
    let url = format!("sqlite://{}", missing.join("bot.db").display());
    let text = refusal(&url).await;
    assert!(
        text.contains("does not exist") && text.contains(&missing.display().to_string()),
        "{text}"
    );
    assert!(!missing.exists(), "the directory was created");

    // The binary: a non-zero exit with that message, before any connection to Discord.
    let (status, logs) = bot_binary(&url, None).await;
    assert!(!status.success(), "{status:?}\n{logs}");
    assert!(logs.contains("does not exist"), "{logs}");
    assert!(!missing.exists(), "the directory was created");
}

/// Runs the bot binary on the database `url` against a Discord nobody listens at (the database
/// is opened first), with its file size limited to `limit_kb` KiB if given (`ulimit -f`, with
/// SIGXFSZ ignored so that a write past the limit fails with EFBIG as on a full disk instead of
/// killing the process); its exit status and output, once it stops (at most 30 s).
async fn bot_binary(url: &str, limit_kb: Option<u64>) -> (std::process::ExitStatus, String) {
    let output = tokio::time::timeout(
        std::time::Duration::from_secs(30),
        limited_bot(url, "http://127.0.0.1:9", limit_kb)
            .stdin(std::process::Stdio::null())
            .output(),
    )
    .await
    .expect("the bot stops by itself")
    .expect("the bot runs");
    let mut logs = String::from_utf8_lossy(&output.stdout).into_owned();
    logs.push_str(&String::from_utf8_lossy(&output.stderr));
    (output.status, logs)
}

/// The bot binary's command on the database `url` and the Discord API at `api_url`, its file
/// size limited to `limit_kb` KiB if given (see [`bot_binary`]).
fn limited_bot(url: &str, api_url: &str, limit_kb: Option<u64>) -> tokio::process::Command {
    // `ulimit -f` counts 512-byte blocks (POSIX, dash); bash counts 1024-byte blocks, a limit
    // twice as large, which the tests do not depend on.
    let script = match limit_kb {
        Some(kb) => format!("trap '' XFSZ; ulimit -f {}; exec \"$0\"", kb * 2),
        None => "exec \"$0\"".to_owned(),
    };
    let mut cmd = tokio::process::Command::new("sh");
    cmd.arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_makruk-bot"))
        .env("DISCORD_TOKEN", discord_standin::TOKEN)
        .env("DISCORD_API_URL", api_url)
        .env("DISCORD_GUILD_ID", discord_standin::GUILD_ID.to_string())
        .env("DATABASE_URL", url)
        .env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true);
    cmd
}

#[tokio::test]
async fn a_full_disk_at_start_up_stops_the_bot_with_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    // A new database: the migrations do not fit in 8 KiB.
    let fresh = dir.path().join("fresh.db");
    let (status, logs) = bot_binary(&format!("sqlite://{}", fresh.display()), Some(8)).await;
    assert!(!status.success(), "{status:?}\n{logs}");
    assert!(logs.contains("database"), "{logs}");
    assert!(
        logs.contains("full") || logs.contains("I/O"),
        "the cause is named: {logs}"
    );
    assert!(!logs.contains("panicked"), "{logs}");
}

/// Plays random legal moves in one game through the bot binary, its files limited to
/// `limit_kb` KiB, until a move is refused with the private apology (the WAL cannot grow): the
/// other requests go on being answered, and every move answered with a board is stored.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_at_run_time_gets_an_apology_for_that_request_and_loses_nothing() {
    use discord_standin::{Opt, Standin};
    use rand::seq::IndexedRandom as _;
    use rand::SeedableRng as _;
    const CH: u64 = 1_300_000_000_000_000_031;

    let dir = tempfile::tempdir().unwrap();
    let path = made_database(dir.path()).await;
    let url = format!("sqlite://{}", path.display());
    let discord = Standin::start().await;
    let limit = std::fs::metadata(&path).unwrap().len() / 1024 + 96;
    let mut child = limited_bot(&url, &discord.base_url, Some(limit))
        .spawn()
        .expect("the bot starts");
    discord.wait_ready(1).await;
    let alice = discord.user("alice", "en-US");
    let bob = discord.user("bob", "en-US");
    let challenge = discord
        .run(
            &alice,
            CH,
            "challenge",
            &[("opponent", "@bob"), ("color", "white")],
        )
        .await;
    assert!(!challenge.is_ephemeral(), "{}", challenge.text());
    let accepted = discord.click_label(&bob, CH, "Accept").await;
    assert!(!accepted.is_ephemeral(), "{}", accepted.text());

    let mut rng = rand::rngs::StdRng::seed_from_u64(31);
    let mut position = makruk::Position::new();
    let mut played: Vec<String> = Vec::new();
    let mut apology = None;
    for _ in 0..400 {
        let Some(m) = position.legal_moves().choose(&mut rng).copied() else {
            break;
        };
        let uci = makruk::uci::to_uci(&m);
        let player = if played.len().is_multiple_of(2) {
            &alice
        } else {
            &bob
        };
        let outcome = discord
            .command(player, CH, "move", &[("move", Opt::Str(uci.clone()))])
            .await;
        if outcome.is_ephemeral() {
            apology = Some(outcome.text());
            break;
        }
        assert!(outcome.png().is_some(), "{uci}: {}", outcome.text());
        position.play(&m).unwrap();
        played.push(uci);
    }
    let apology = apology.unwrap_or_else(|| panic!("{} moves and no write failed", played.len()));
    assert!(
        apology.contains("went wrong") || apology.contains("try again"),
        "the private apology: {apology}"
    );
    // Reading goes on: the board is shown, privately or not.
    let board = discord.command(&alice, CH, "board", &[]).await;
    assert!(board.png().is_some(), "{}", board.text());
    let _ = child.start_kill();
    let _ = child.wait().await;

    // Without the limit: every move answered with a board is stored, the refused one is not,
    // and the file is whole.
    use sqlx::Connection as _;
    let mut conn = sqlx::SqliteConnection::connect(&url).await.unwrap();
    let stored: Vec<String> = sqlx::query_scalar("SELECT uci FROM moves ORDER BY ply")
        .fetch_all(&mut conn)
        .await
        .unwrap();
    assert_eq!(stored, played);
    let check: Vec<String> = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_all(&mut conn)
        .await
        .unwrap();
    assert_eq!(check, ["ok"]);
    conn.close().await.unwrap();
    assert!(discord.errors().is_empty(), "{:?}", discord.errors());
}

/// The connections to `db` this process has open (Linux: its open files).
#[cfg(target_os = "linux")]
fn open_files_of(db: &Path) -> usize {
    std::fs::read_dir("/proc/self/fd")
        .expect("/proc/self/fd")
        .filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
        .filter(|l| l.starts_with(db) || l.to_string_lossy().starts_with(&*db.to_string_lossy()))
        .count()
}

/// A closed store leaves the file at rest, every time: no connection outlives `close` (sqlx's
/// `Pool::close` alone may return with a connection still being given back, and never close
/// it; before the fix about one close in ten left one open), so nothing writes the file once
/// `close` returned.
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_store_leaves_the_file_at_rest() {
    use makruk_bot::game::{ChannelId, GameService, ServiceError};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rest.db");
    let url = format!("sqlite://{}", path.display());
    for round in 0..60 {
        let svc = GameService::open(&url).await.unwrap();
        // Reads whose connections are being given back as the store closes.
        for ch in 0..10 {
            match svc.board(ChannelId(7_000 + ch)).await {
                Err(ServiceError::NoGameHere) => {}
                other => panic!("channel {ch}: {:?}", other.map(|_| ())),
            }
        }
        svc.close().await;
        assert_eq!(
            open_files_of(&path),
            0,
            "round {round}: a connection is still open after close"
        );
    }
}
