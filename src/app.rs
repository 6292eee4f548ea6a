//! The application, built in one place: the store and its pool, the game service with its
//! clocks' scheduler and the leader lease, the computer's search threads and its driver, and the
//! time (the system's, or a [`SimClock`] in tests and the simulator). [`run`] builds it from the
//! [`Config`], hands it to the Discord adapter ([`crate::discord::run`]) and closes it when the
//! adapter is done; the binary calls [`run_blocking`], tests and the simulator call [`run`]
//! against a local stand-in.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use tokio::task::JoinHandle;
use tracing::{error, info, warn};

use crate::analysis::AnalysisRunner;
use crate::computer::Computer;
use crate::game::GameService;

/// The default database: a SQLite file in the working directory, created if missing.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://makruk-bot.sqlite3";

/// Configuration, from the environment or `--flags`.
#[derive(clap::Args, Clone)]
pub struct Config {
    /// The bot token (Discord developer portal → Bot → Token). Required to run; never logged.
    #[arg(long, env = "DISCORD_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// Where games are stored: a sqlx SQLite URL (the file is created if missing) or a
    /// PostgreSQL URL (`postgres://user:password@host/database`, the database must exist).
    #[arg(long, env = "DATABASE_URL", default_value = DEFAULT_DATABASE_URL)]
    pub database_url: String,
    /// Database connections of this process: SQLite's readers beside its one writer (default
    /// 4); PostgreSQL's pool, half of it (at least one) for writes (default 8).
    #[arg(long, env = "DATABASE_MAX_CONNECTIONS",
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub database_max_connections: Option<u32>,
    /// The longest a database statement may take, in milliseconds (default 10000): PostgreSQL's
    /// `statement_timeout`, SQLite's busy timeout.
    #[arg(long, env = "DATABASE_STATEMENT_TIMEOUT_MS",
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub database_statement_timeout_ms: Option<u64>,
    /// Register the slash commands in this guild only (updates are instant); otherwise globally.
    #[arg(long, env = "DISCORD_GUILD_ID")]
    pub guild_id: Option<u64>,
    /// A Discord-compatible REST base URL, e.g. an HTTP rate-limit proxy
    /// (`http://127.0.0.1:3000`). Requests go to `<url>/api/v10/…`; serenity's own rate limiter
    /// is then turned off (the proxy is expected to do it).
    #[arg(long, env = "DISCORD_API_URL")]
    pub api_url: Option<String>,
    /// If a command has not been answered after this many milliseconds, the bot defers (Discord
    /// shows "thinking…") and edits the answer in when it is ready. Discord allows 3000 ms, so
    /// at most 2500.
    #[arg(long, env = "DEFER_AFTER_MS", default_value_t = 1500,
          value_parser = clap::value_parser!(u64).range(0..=2500))]
    pub defer_after_ms: u64,
    /// How many computer searches run at once, each on its own thread; more wait in a queue.
    /// Default: one less than the CPU cores, at least 1.
    #[arg(long, env = "ENGINE_THREADS", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub engine_threads: Option<u16>,
    /// The transposition table of each search thread, in MiB.
    #[arg(long, env = "ENGINE_HASH_MB", default_value_t = 16,
          value_parser = clap::value_parser!(u16).range(1..=4096))]
    pub engine_hash_mb: u16,
    /// The most the computer thinks about a move at level 8, in milliseconds (lower levels think
    /// less, never more than this).
    #[arg(long, env = "ENGINE_MAX_THINK_MS", default_value_t = 2000,
          value_parser = clap::value_parser!(u64).range(10..=60_000))]
    pub engine_max_think_ms: u64,
    /// The computer analysis' search budget per position, in nodes (`/analyse`): 100,000 takes
    /// about 5 s of one core for a 100-ply game. A stored analysis made at another budget is
    /// made again when asked for.
    #[arg(long, env = "ANALYSIS_NODES", default_value_t = makruk_engine::analysis::DEFAULT_NODES,
          value_parser = clap::value_parser!(u64).range(100..=100_000_000))]
    pub analysis_nodes: u64,
    /// Fairy-Stockfish, for `/play level:Fairy-Stockfish` (level 9, standard rules only); when
    /// nothing is there, level 9 says it is not installed.
    #[arg(long, env = "FAIRY_STOCKFISH_PATH", default_value = DEFAULT_FAIRY_STOCKFISH_PATH)]
    pub fairy_stockfish_path: std::path::PathBuf,
    /// The gateway shards this process runs, `<first>..<last>/<total>` (inclusive, e.g.
    /// `0..1/4` and `2..3/4` in two processes on one database). Default: the one shard of an
    /// unsharded bot (Discord requires sharding from 2,500 servers).
    #[arg(long, env = "SHARDS")]
    pub shards: Option<crate::discord::ShardRange>,
    /// The bot's time: the system's clock when `None` (production); tests and the simulator
    /// give a [`SimClock`] and move it by hand.
    #[arg(skip)]
    pub sim_clock: Option<Arc<SimClock>>,
    /// How often stored moves whose board never reached their channel (Discord failing longer
    /// than the retries last) are posted again; also done once at start-up. Tests shorten it.
    #[arg(skip = DEFAULT_REPOST_EVERY)]
    pub repost_every: Duration,
}

/// The default of [`Config::repost_every`]: a minute.
pub const DEFAULT_REPOST_EVERY: Duration = Duration::from_secs(60);

/// Where Debian's `fairy-stockfish` package installs the engine.
pub const DEFAULT_FAIRY_STOCKFISH_PATH: &str = "/usr/games/fairy-stockfish";

// Hand-written so the token can never end up in a log line through `{:?}`.
impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("token", &self.token.as_ref().map(|_| "<redacted>"))
            .field("database_url", &redact_password(&self.database_url))
            .field("database_max_connections", &self.database_max_connections)
            .field(
                "database_statement_timeout_ms",
                &self.database_statement_timeout_ms,
            )
            .field("guild_id", &self.guild_id)
            .field("api_url", &self.api_url)
            .field("defer_after_ms", &self.defer_after_ms)
            .field("engine_threads", &self.engine_threads)
            .field("engine_hash_mb", &self.engine_hash_mb)
            .field("engine_max_think_ms", &self.engine_max_think_ms)
            .field("analysis_nodes", &self.analysis_nodes)
            .field("fairy_stockfish_path", &self.fairy_stockfish_path)
            .field("shards", &self.shards.map(|s| s.to_string()))
            .field("sim_clock", &self.sim_clock)
            .field("repost_every", &self.repost_every)
            .finish_non_exhaustive()
    }
}

/// `scheme://user:password@host/…` → `scheme://user:***@host/…` (other URLs unchanged).
fn redact_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let Some(at) = rest[..authority_end].rfind('@') else {
        return url.to_owned();
    };
    match rest[..at].split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***{}", &rest[at..]),
        None => url.to_owned(),
    }
}

impl Config {
    /// A configuration with defaults and the given token (for tests and the simulator).
    #[must_use]
    pub fn with_token(token: impl Into<String>) -> Config {
        Config {
            token: Some(token.into()),
            database_url: DEFAULT_DATABASE_URL.to_owned(),
            database_max_connections: None,
            database_statement_timeout_ms: None,
            guild_id: None,
            api_url: None,
            defer_after_ms: 1500,
            engine_threads: None,
            engine_hash_mb: 16,
            engine_max_think_ms: 2000,
            analysis_nodes: makruk_engine::analysis::DEFAULT_NODES,
            fairy_stockfish_path: DEFAULT_FAIRY_STOCKFISH_PATH.into(),
            shards: None,
            sim_clock: None,
            repost_every: DEFAULT_REPOST_EVERY,
        }
    }

    /// The computer opponent's settings: threads, hash and the level budgets from the flags,
    /// the other values from [`crate::computer::Settings::default`].
    #[must_use]
    pub fn computer_settings(&self) -> crate::computer::Settings {
        let defaults = crate::computer::Settings::default();
        let mut settings = crate::computer::Settings {
            threads: self.engine_threads.map_or(defaults.threads, usize::from),
            hash_mb: usize::from(self.engine_hash_mb),
            ..defaults
        }
        .with_max_think(Duration::from_millis(self.engine_max_think_ms));
        settings
            .fairy_stockfish
            .path
            .clone_from(&self.fairy_stockfish_path);
        settings
    }
}

/// A fake clock for the bot (tests and the simulator's `wait 3d`): it stands still until
/// [`SimClock::advance`] moves it, which then waits until the bot has acted on the new time
/// (its scheduler has handled what became due and the announcements are posted). Survives
/// restarts of the bot: each start attaches its new service.
#[derive(Debug)]
pub struct SimClock {
    time: Arc<crate::clock::FakeTime>,
    /// The running bot's service, and how many of its announcements have been posted.
    attached: std::sync::Mutex<Option<(crate::game::GameService, Arc<tokio::sync::RwLock<()>>)>>,
    posted: tokio::sync::watch::Sender<u64>,
}

/// How long [`SimClock::advance`] waits for the bot's announcements to be posted.
const POSTED_WAIT: Duration = Duration::from_secs(10);

impl SimClock {
    /// A fake clock showing Unix milliseconds `start_ms`.
    #[must_use]
    pub fn new(start_ms: i64) -> Arc<SimClock> {
        Arc::new(SimClock {
            time: Arc::new(crate::clock::FakeTime::new(start_ms)),
            attached: std::sync::Mutex::new(None),
            posted: tokio::sync::watch::Sender::new(0),
        })
    }

    /// The fake time itself.
    #[must_use]
    pub fn time(&self) -> &Arc<crate::clock::FakeTime> {
        &self.time
    }

    /// Moves the bot's clock forward by `by` and completes once the bot's scheduler and the
    /// leader's sweep (run once more here, as its renewal would within seconds: expired
    /// challenges lose their buttons) have acted on it and every announcement is posted (or
    /// after 10 s, logged).
    pub async fn advance(&self, by: Duration) {
        self.time.advance(by);
        let service = self
            .attached
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        let Some((service, in_flight)) = service else {
            return;
        };
        // The answers of the steps before are done (a challenge's message stored).
        drop(in_flight.write().await);
        service.settled().await;
        if let Err(e) = service.leader_tick().await {
            warn!(error = %e, "the leader's sweep failed");
        }
        let announced = service.announced();
        let mut posted = self.posted.subscribe();
        if tokio::time::timeout(POSTED_WAIT, posted.wait_for(|p| *p >= announced))
            .await
            .is_err()
        {
            warn!("announcements not posted within {POSTED_WAIT:?}");
        }
    }

    /// A (re)started bot's service: announcements are counted from 0 again.
    fn attach(&self, service: &crate::game::GameService, in_flight: &Arc<tokio::sync::RwLock<()>>) {
        self.posted.send_replace(0);
        *self
            .attached
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) =
            Some((service.clone(), Arc::clone(in_flight)));
    }

    /// One more announcement was posted (or failed to be).
    fn posted_one(&self) {
        self.posted.send_modify(|p| *p += 1);
    }
}

/// The application while it runs: the service (clocks and leader lease started), the computer
/// and the driver that plays its turns.
struct App {
    service: GameService,
    computer: Arc<Computer>,
    /// Takes up the computer's turns; `None` when the service has no turns to hand out.
    driver: Option<JoinHandle<()>>,
    /// Works through the queue of game analyses on the computer's pool.
    analysis: Arc<AnalysisRunner>,
    analysis_nodes: u64,
    /// Subscribed to as the runner started; handed to the adapter by [`App::backend`].
    analysis_finished:
        std::sync::Mutex<Option<tokio::sync::broadcast::Receiver<crate::game::GameId>>>,
    sim_clock: Option<Arc<SimClock>>,
    /// The interactions being answered (see `crate::discord::Backend::in_flight`).
    in_flight: Arc<tokio::sync::RwLock<()>>,
}

impl App {
    /// Opens the service (creating the database if missing) on the configured time, with the
    /// computer's draw judge; starts the clocks (the downtime given back, the scheduler armed
    /// from the database), the leader lease and the computer's driver.
    async fn start(config: &Config) -> anyhow::Result<App> {
        let options = crate::store::StoreOptions {
            max_connections: config.database_max_connections,
            statement_timeout_ms: config.database_statement_timeout_ms,
            ..crate::store::StoreOptions::default()
        };
        let mut service = open(&config.database_url, options).await.with_context(|| {
            format!(
                "cannot open the database {}",
                redact_password(&config.database_url)
            )
        })?;
        if let Some(sim) = &config.sim_clock {
            service = service.with_time(sim.time.clone());
        }
        let computer = Arc::new(
            Computer::new(config.computer_settings())
                .context("cannot start the computer's threads")?,
        );
        service = service
            .with_draw_judge(computer.draw_judge())
            .with_leader_settings(config.computer_settings().leader_settings());
        // Before any request: the downtime is given back and the scheduler armed from the database.
        let clocks = service
            .start_clocks()
            .await
            .context("cannot start the clocks")?;
        info!(
            games = clocks.games,
            downtime_ms = clocks.downtime_ms,
            "clocks started"
        );
        // The shipped puzzles (issue 24): those not stored yet are added, keeping the ratings
        // and votes of those that are.
        let added = service
            .install_puzzles(crate::puzzles::shipped())
            .await
            .context("cannot store the shipped puzzles")?;
        info!(added, total = crate::puzzles::shipped().len(), "puzzles");
        let in_flight = Arc::new(tokio::sync::RwLock::new(()));
        if let Some(sim) = &config.sim_clock {
            sim.attach(&service, &in_flight);
        }
        // With several processes on the database, one of them picks up the work of any that dies.
        let leads = service
            .start_leader()
            .await
            .context("cannot take part in the leader lease")?;
        info!(holder = service.holder_id(), leads, "leader lease");
        // The computer thinks from now on: first about the games left on its turn by the last run.
        // Its moves are announced; the announcements wait until the adapter's poster starts.
        let driver = crate::computer::driver::spawn(service.clone(), Arc::clone(&computer));
        // Analyses asked for before a restart and not finished are made again from the start.
        let analysis = Arc::new(AnalysisRunner::start(service.clone(), computer.pool()));
        let analysis_finished = std::sync::Mutex::new(Some(analysis.finished()));
        Ok(App {
            service,
            computer,
            driver,
            analysis,
            analysis_nodes: config.analysis_nodes,
            analysis_finished,
            sim_clock: config.sim_clock.clone(),
            in_flight,
        })
    }

    /// What the Discord adapter serves.
    fn backend(&self) -> crate::discord::Backend {
        let on_posted = self.sim_clock.clone().map(|sim| {
            let told: Arc<dyn Fn() + Send + Sync> = Arc::new(move || sim.posted_one());
            told
        });
        crate::discord::Backend {
            service: self.service.clone(),
            computer: Arc::clone(&self.computer),
            analysis: Arc::clone(&self.analysis),
            analysis_nodes: self.analysis_nodes,
            analysis_finished: self
                .analysis_finished
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .take()
                .unwrap_or_else(|| self.analysis.finished()),
            on_posted,
            in_flight: Arc::clone(&self.in_flight),
        }
    }

    /// Stops taking up the computer's turns and closes the database. A search still running
    /// cannot store its move once the database is closed; its turn is picked up again at the
    /// next start.
    async fn close(self) {
        if let Some(driver) = self.driver {
            driver.abort();
        }
        close(&self.service).await;
    }
}

/// `GameService::open_with`, driven on a blocking thread: its future (sqlx migrations on a
/// `&mut AnyConnection`) cannot be proven `Send` at all, so it must not live inside [`run`]'s.
async fn open(
    database_url: &str,
    options: crate::store::StoreOptions,
) -> anyhow::Result<GameService> {
    let url = database_url.to_owned();
    let runtime = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || runtime.block_on(GameService::open_with(&url, options)))
        .await
        .context("the task opening the database was lost")?
}

// Boxed `Send` future: awaited directly inside [`run`], whose future must be `Send` for any
// caller (`tokio::spawn`), rustc fails to prove it `Send` for every lifetime
// (rust-lang/rust#102211); proving it here, for one lifetime, works.
/// `service.close()`, boxed.
fn close(service: &GameService) -> std::pin::Pin<Box<dyn Future<Output = ()> + Send + '_>> {
    Box::pin(service.close())
}

/// Starts the bot and runs it until `shutdown` resolves (then disconnects cleanly and closes the
/// database) or the gateway fails: builds the application ([`App::start`]), then the Discord
/// adapter serves it ([`crate::discord::run`]: connects to the gateway through
/// `config.api_url` if set and registers the commands in `config.guild_id` or globally).
///
/// # Errors
/// A missing token, an unusable database, or a fatal gateway/HTTP error.
pub async fn run(
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let token = config
        .token
        .clone()
        .filter(|t| !t.trim().is_empty())
        .context("DISCORD_TOKEN is not set (or --token)")?;
    info!(config = ?config, "starting");

    // The shutdown signal is watched from the start, so that SIGTERM also ends a bot that is
    // still connecting (e.g. Discord unreachable), not only a connected one.
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let stop_tx = Arc::new(stop_tx);
    let stop = Arc::clone(&stop_tx);
    tokio::spawn(async move {
        shutdown.await;
        let _ = stop.send(true);
    });

    let app = App::start(&config).await?;
    let integrity = check_integrity_later(&app.service, stop_tx);
    let settings = crate::discord::Settings {
        token,
        guild_id: config.guild_id,
        api_url: config.api_url.clone(),
        defer_after: Duration::from_millis(config.defer_after_ms),
        shards: config.shards,
        repost_every: config.repost_every,
    };
    let served = crate::discord::run(app.backend(), settings, stop_rx).await;
    integrity.task.abort();
    app.close().await;
    let damaged = integrity
        .found
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take();
    if let Some(e) = damaged {
        return Err(e);
    }
    served
}

/// The check of [`check_integrity_later`]: its task, and the damage it found.
struct IntegrityCheck {
    task: JoinHandle<()>,
    /// Set before the task stops the bot.
    found: Arc<std::sync::Mutex<Option<anyhow::Error>>>,
}

/// After a clean stop the store leaves its `PRAGMA quick_check` of the SQLite file for after
/// start-up ([`crate::store::Store::integrity_deferred`]; it reads the whole file): it runs
/// here, on a read connection, while the bot connects and answers. A damaged file stops the
/// bot (through `stop`), [`run`] then returning the error, which says why and how to recover.
/// Nothing to do when the store checked at open (or on PostgreSQL).
fn check_integrity_later(
    service: &GameService,
    stop: Arc<tokio::sync::watch::Sender<bool>>,
) -> IntegrityCheck {
    let found = Arc::new(std::sync::Mutex::new(None));
    let service = service.clone();
    let told = Arc::clone(&found);
    let task = tokio::spawn(async move {
        if !service.store().integrity_deferred() {
            return;
        }
        let started = std::time::Instant::now();
        match service.store().check_integrity().await {
            Ok(()) => info!(
                ms = started.elapsed().as_millis(),
                "database file checked: ok"
            ),
            Err(e) => {
                error!(error = %format!("{e:#}"), "stopping: the database is damaged");
                *told
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e);
                let _ = stop.send(true);
            }
        }
    });
    IntegrityCheck { task, found }
}

/// Sets up logging from `RUST_LOG` (default: `info`, serenity's chatter at `warn`).
///
/// The token must never reach a log line: our spans carry only ids, serenity keeps it out of its
/// spans, and the transport crates, whose `trace` output would show raw frames and headers
/// (the gateway IDENTIFY carries the token), are capped at `info` whatever `RUST_LOG` says.
pub fn init_tracing() {
    let mut filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,serenity=warn,poise=warn"));
    for cap in [
        "tungstenite=info",
        "tokio_tungstenite=info",
        "hyper=info",
        "hyper_util=info",
        "reqwest=info",
        "h2=info",
        "rustls=info",
    ] {
        if let Ok(directive) = cap.parse() {
            filter = filter.add_directive(directive);
        }
    }
    // A second call (tests) keeps the first subscriber.
    // Colours only on a terminal: container logs and files get plain text.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(ansi)
        .with_writer(std::io::stderr)
        .try_init();
}

/// Runs the bot until SIGTERM/Ctrl-C: logging, a Tokio runtime, then [`run`].
///
/// # Errors
/// A missing token, an unusable database, or a fatal gateway error.
pub fn run_blocking(config: Config) -> anyhow::Result<()> {
    init_tracing();
    let runtime = tokio::runtime::Runtime::new().context("cannot start the Tokio runtime")?;
    runtime.block_on(run(config, shutdown_signal()))
}

/// Resolves on Ctrl-C or (on Unix) SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            error!("cannot listen for Ctrl-C: {e}");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(e) => {
                error!("cannot listen for SIGTERM: {e}");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => info!("Ctrl-C: shutting down"),
        () = term => info!("SIGTERM: shutting down"),
    }
}

#[cfg(test)]
mod tests {
    use super::Config;

    #[test]
    fn the_token_never_shows_in_debug_output() {
        let config = Config::with_token("secret.token.value");
        let shown = format!("{config:?}");
        assert!(!shown.contains("secret.token.value"), "{shown}");
        assert!(shown.contains("redacted"), "{shown}");
    }

    #[test]
    fn database_passwords_are_redacted() {
        assert_eq!(
            super::redact_password("postgres://bot:hunter2@db:5432/makruk"),
            "postgres://bot:***@db:5432/makruk"
        );
        assert_eq!(
            super::redact_password("sqlite://makruk-bot.sqlite3"),
            "sqlite://makruk-bot.sqlite3"
        );
        assert_eq!(
            super::redact_password("sqlite:///data/a@b.sqlite3"),
            "sqlite:///data/a@b.sqlite3"
        );
    }
}
