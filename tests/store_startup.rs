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
