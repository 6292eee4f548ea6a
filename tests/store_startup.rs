//! Start-up refusals of the store: a database URL it cannot use, a database it cannot write, a
//! damaged file. Each is refused by `Store::open` with a message that says what is wrong and
//! what to do, and the file is left as it was.

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
