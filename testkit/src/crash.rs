//! The crash proof, shared by `tests/crash.rs` (a few kills, in every test run) and
//! `examples/crash.rs` (the full run): the real bot binary against the stand-in running as a
//! process of its own (`standin-server`), many games moving at once, SIGKILL at random moments,
//! a restart, and after each kill the database checked against what Discord was told.
//!
//! Two set-ups ([`Config::postgres`]):
//! - SQLite: one bot process on a SQLite file, killed and restarted;
//! - PostgreSQL: a fresh database on the given server and two bot processes on it, each running
//!   one of the stand-in's two gateway shards (`SHARDS=0..0/2`, `1..1/2`), the games spread over
//!   two guilds, one on each shard, so that each process plays its own half. Each kill takes one
//!   of the two at random; the other (the survivor) keeps running and its games keep moving
//!   while the killed one is checked for and restarted.
//!
//! What is checked, after every kill (the killed bot dead, before its restart):
//! - every move Discord was told about is stored: a `/move` whose answer was a public board
//!   `makruk-{game}-{plies}.png` (the bot's file name of the board after `plies` plies) has its
//!   UCI stored at ply `plies - 1` of that game (else it is *lost*). Only answers the driver had
//!   seen before it read the database count: the survivor's moves under way may be stored and
//!   not yet acknowledged, which is no fault;
//! - no move is applied twice: every stored move is one the driver sent, at the ply it was
//!   sent for (else it is a *duplicate*);
//! - the database is whole: every game's `plies` is the number of its stored moves, and these
//!   are at plies `0..plies`; on SQLite also `PRAGMA integrity_check` is `ok`.
//!
//! Every stored move reaches the channel: a board of its game showing it (`makruk-{game}-{n}.png`
//! with `n` > its ply) is in a message of the game's channel. The driver plays as people do: after
//! a restart it moves in a game only once the channel shows the game's last stored move; if that
//! board has not come [`Config::settle`] after the start of the game's bot process, the move is
//! *unannounced* and the game goes on. At the end every stored move is checked so, and every
//! game still being played takes one more move (else it does not *continue*).

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context as _};
use makruk::{Position, Ruleset};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom as _;
use rand::{Rng as _, SeedableRng as _};
use serde_json::{json, Value};
use sqlx::{AnyConnection, Connection as _};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

/// The stand-in's bot token and guild (as `discord_standin::TOKEN` and `GUILD_ID`).
const TOKEN: &str = discord_standin::TOKEN;
const GUILD_ID: u64 = discord_standin::GUILD_ID;
/// The PostgreSQL set-up's shards, one bot process each, and its second guild: 2^22 ids
/// further than the stand-in's, so on the other shard.
const PG_SHARDS: u32 = 2;
const OTHER_GUILD: u64 = GUILD_ID + (1 << 22);
/// Channel ids of the games: `FIRST_CHANNEL + n`.
const FIRST_CHANNEL: u64 = 1_300_000_000_000_100_000;
/// How long an answer may take before the driver gives up on it (the bot alive).
const ANSWER_WAIT: Duration = Duration::from_secs(15);
/// How long the bot may take to start and register its commands.
const START_WAIT: Duration = Duration::from_secs(30);

/// How a run goes.
#[derive(Clone, Debug)]
pub struct Config {
    /// How many times the bot is killed.
    pub kills: u32,
    /// Games played at once (one channel each).
    pub games: usize,
    /// The bot's time alive between its start and the next kill: a random duration in this
    /// range (milliseconds).
    pub alive_ms: (u64, u64),
    /// How long the bot must have been up before every stored move must have reached its
    /// channel.
    pub settle: Duration,
    /// The random seed (kill moments, moves).
    pub seed: u64,
    /// The bot binary (`target/release/makruk-bot`).
    pub bot: PathBuf,
    /// The stand-in server binary (`target/release/standin-server`).
    pub standin: PathBuf,
    /// Where the database (on SQLite), the stand-in's state file and the bots' logs go.
    pub dir: PathBuf,
    /// A PostgreSQL server: the URL of an existing database on it (e.g.
    /// `postgres://makruk@127.0.0.1:55432/postgres`). The run then makes a fresh database there
    /// ([`crate::service::fresh_postgres_db`]) and plays on it with two bot processes, one per
    /// shard. `None`: one bot process on a SQLite file in [`Config::dir`].
    pub postgres: Option<String>,
}

/// What a run found.
#[derive(Debug, Default)]
pub struct Report {
    /// The database the run played on: `SQLite` or `PostgreSQL`.
    pub backend: &'static str,
    /// Its URL (the PostgreSQL database stays on its server, to be looked into).
    pub database: String,
    /// Bot processes running at once (1 on SQLite, 2 on PostgreSQL).
    pub processes: usize,
    /// Kills done.
    pub kills: u32,
    /// Kills of each process.
    pub kills_by_process: Vec<u32>,
    /// Moves acknowledged while another bot process was dead (the survivor's games moving).
    pub acked_while_other_down: u64,
    /// Moves acknowledged in the games of each process.
    pub acked_by_process: Vec<u64>,
    /// Moves whose public board answer Discord received.
    pub acked: u64,
    /// Acknowledged moves not stored (must be 0).
    pub lost: u64,
    /// Stored moves the driver did not send at that ply (must be 0).
    pub duplicates: u64,
    /// Stored moves whose board did not reach the channel (must be 0): not shown
    /// [`Config::settle`] after a restart, or at the end.
    pub unannounced: u64,
    /// Integrity problems (must be empty): games whose `plies` is not the number of their
    /// stored moves or whose moves are not at plies `0..plies`; on SQLite, `PRAGMA
    /// integrity_check` results other than `ok`.
    pub integrity: Vec<String>,
    /// Moves stored at the end.
    pub stored: u64,
    /// `/move`s sent.
    pub sent: u64,
    /// Accept presses sent (games started, unless the bot died first).
    pub games_started: u64,
    /// Games finished by the rules (mate, counting, …) during the run.
    pub games_finished: u64,
    /// Channels abandoned because an open challenge there had no message to answer.
    pub stuck_challenges: u64,
    /// Games being played at the end that did not take one more move (must be 0).
    pub not_continuing: u64,
    /// The first few problems, described.
    pub problems: Vec<String>,
    /// Protocol errors the stand-in recorded.
    pub standin_errors: Vec<String>,
}

impl Report {
    /// Whether every guarantee held.
    pub fn ok(&self) -> bool {
        self.lost == 0
            && self.duplicates == 0
            && self.unannounced == 0
            && self.integrity.is_empty()
            && self.not_continuing == 0
    }

    fn problem(&mut self, what: String) {
        if self.problems.len() < 20 {
            self.problems.push(what);
        }
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "database:                   {} ({} bot process{})",
            self.backend,
            self.processes,
            if self.processes == 1 { "" } else { "es" }
        )?;
        writeln!(f, "database URL:               {}", self.database)?;
        writeln!(f, "kills done:                 {}", self.kills)?;
        if self.processes > 1 {
            let by: Vec<String> = self.kills_by_process.iter().map(u32::to_string).collect();
            writeln!(f, "kills by process:           {}", by.join(" / "))?;
        }
        writeln!(f, "moves sent:                 {}", self.sent)?;
        writeln!(f, "moves acknowledged:         {}", self.acked)?;
        if self.processes > 1 {
            let by: Vec<String> = self.acked_by_process.iter().map(u64::to_string).collect();
            writeln!(f, "  by process:               {}", by.join(" / "))?;
            writeln!(
                f,
                "  while the other was dead: {}",
                self.acked_while_other_down
            )?;
        }
        writeln!(f, "moves stored:               {}", self.stored)?;
        writeln!(f, "moves lost:                 {}", self.lost)?;
        writeln!(f, "duplicates:                 {}", self.duplicates)?;
        writeln!(f, "unannounced:                {}", self.unannounced)?;
        let integrity = if self.integrity.is_empty() {
            "ok".to_owned()
        } else {
            self.integrity.join("; ")
        };
        writeln!(f, "integrity:                  {integrity}")?;
        writeln!(
            f,
            "games started / finished:   {} / {}",
            self.games_started, self.games_finished
        )?;
        writeln!(f, "stuck challenges:           {}", self.stuck_challenges)?;
        writeln!(f, "games not continuing:       {}", self.not_continuing)?;
        for p in &self.problems {
            writeln!(f, "problem: {p}")?;
        }
        for e in &self.standin_errors {
            writeln!(f, "stand-in error: {e}")?;
        }
        Ok(())
    }
}

/// A minimal HTTP/1.1 client for the stand-in's control API (one request per connection).
async fn http(
    base: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> anyhow::Result<(u16, Value)> {
    let host = base.trim_start_matches("http://");
    let mut tcp = tokio::net::TcpStream::connect(host).await?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    tcp.write_all(request.as_bytes()).await?;
    let mut raw = Vec::new();
    tcp.read_to_end(&mut raw).await?;
    let text = String::from_utf8_lossy(&raw);
    let (head, body) = text.split_once("\r\n\r\n").context("an HTTP answer")?;
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .context("an HTTP status")?;
    let value = if body.trim().is_empty() {
        Value::Null
    } else {
        serde_json::from_str(body)?
    };
    Ok((status, value))
}

/// The stand-in server, as a child process.
struct Discord {
    child: tokio::process::Child,
    api_url: String,
    control: String,
}

impl Discord {
    async fn start(cfg: &Config, shards: u32) -> anyhow::Result<Discord> {
        let state = cfg.dir.join("standin");
        // A stand-in's file of an earlier run (a kept directory) is not this one's.
        let _ = std::fs::remove_file(state.join("standin.json"));
        let child = tokio::process::Command::new(&cfg.standin)
            .arg("--state-dir")
            .arg(&state)
            .arg("--shards")
            .arg(shards.to_string())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("start {}", cfg.standin.display()))?;
        let file = state.join("standin.json");
        let deadline = Instant::now() + START_WAIT;
        let about: Value = loop {
            if let Ok(text) = std::fs::read_to_string(&file) {
                break serde_json::from_str(&text)?;
            }
            if Instant::now() > deadline {
                bail!("the stand-in did not write {}", file.display());
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        Ok(Discord {
            child,
            api_url: about["api_url"].as_str().context("api_url")?.to_owned(),
            control: about["control_url"]
                .as_str()
                .context("control_url")?
                .to_owned(),
        })
    }

    async fn get(&self, path: &str) -> anyhow::Result<Value> {
        let (status, v) = http(&self.control, "GET", path, None).await?;
        if status != 200 {
            bail!("GET {path}: {status} {v}");
        }
        Ok(v)
    }

    /// POST `body` to `path`: the answer, or `None` for a refusal (4xx, 5xx).
    async fn post(&self, path: &str, body: Value) -> anyhow::Result<Option<Value>> {
        let (status, v) = http(&self.control, "POST", path, Some(&body)).await?;
        Ok((status == 200).then_some(v))
    }

    async fn user(&self, name: &str) -> anyhow::Result<u64> {
        let v = self
            .post("/users", json!({"name": name, "locale": "en-US"}))
            .await?
            .context("a user")?;
        v["id"].as_u64().context("a user id")
    }

    /// The token of the interaction sent, or `None` if no bot session took it.
    async fn command(
        &self,
        user: &str,
        channel: u64,
        name: &str,
        options: &[(&str, &str)],
    ) -> anyhow::Result<Option<String>> {
        let options: Vec<[&str; 2]> = options.iter().map(|(a, b)| [*a, *b]).collect();
        let v = self
            .post(
                "/command",
                json!({"user": user, "channel": channel, "name": name, "options": options}),
            )
            .await?;
        Ok(v.and_then(|v| v["token"].as_str().map(str::to_owned)))
    }

    /// The token of the button press sent; `None` without such a button or a bot session.
    async fn click(&self, user: &str, channel: u64, label: &str) -> anyhow::Result<Option<String>> {
        let v = self
            .post(
                "/click",
                json!({"user": user, "channel": channel, "label": label}),
            )
            .await?;
        Ok(v.and_then(|v| v["token"].as_str().map(str::to_owned)))
    }

    async fn outcomes(&self, tokens: &[String]) -> anyhow::Result<HashMap<String, Value>> {
        if tokens.is_empty() {
            return Ok(HashMap::new());
        }
        let v = self
            .post("/outcomes", json!({"tokens": tokens}))
            .await?
            .context("outcomes")?;
        Ok(v.as_object()
            .map(|m| {
                m.iter()
                    .filter(|(_, o)| !o.is_null())
                    .map(|(k, o)| (k.clone(), o.clone()))
                    .collect()
            })
            .unwrap_or_default())
    }

    async fn status(&self) -> anyhow::Result<Value> {
        self.get("/status").await
    }

    /// Whether `shard` has a gateway connection (`None`: any shard, the unsharded bot's).
    fn connected(status: &Value, shard: Option<u32>) -> bool {
        match shard {
            None => status["connected"] == json!(true),
            Some(s) => status["shards_connected"]
                .as_array()
                .is_some_and(|a| a.contains(&json!(s))),
        }
    }

    /// Places `channel` in `guild` (its interactions then go to that guild's shard).
    async fn put_channel_in_guild(&self, channel: u64, guild: u64) -> anyhow::Result<()> {
        self.post(
            "/channel-guild",
            json!({"channel": channel, "guild": guild}),
        )
        .await?
        .context("a channel placed in its guild")?;
        Ok(())
    }

    /// The boards (game, plies) shown in `channel`'s messages (deleted ones left out).
    async fn boards(&self, channel: u64) -> anyhow::Result<HashSet<(i64, i64)>> {
        let messages = self.get(&format!("/messages/{channel}")).await?;
        Ok(messages
            .as_array()
            .into_iter()
            .flatten()
            .filter(|m| m["deleted"] != json!(true))
            .flat_map(boards_of)
            .collect())
    }
}

/// Whether `boards` show the move at `ply` of `game`: a board after more plies than `ply`.
fn shows(boards: &HashSet<(i64, i64)>, game: i64, ply: i64) -> bool {
    boards.iter().any(|&(g, n)| g == game && n > ply)
}

/// The boards (game, plies) a message of the control API carries, by file name.
fn boards_of(message: &Value) -> Vec<(i64, i64)> {
    message["attachments"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| {
            let name = a.as_str()?.strip_prefix("makruk-")?.strip_suffix(".png")?;
            let (game, plies) = name.split_once('-')?;
            Some((game.parse().ok()?, plies.parse().ok()?))
        })
        .collect()
}

/// The real bot binary, as a child process.
struct BotProcess {
    child: tokio::process::Child,
}

impl BotProcess {
    /// Starts the bot on `db` (a database URL), running gateway shard `shard` of [`PG_SHARDS`]
    /// (`None`: unsharded), its output appended to `log` in [`Config::dir`]. It is ready once
    /// the stand-in has seen one more command registration (the count given in
    /// `registrations`) and the shard's connection: see [`BotProcess::ready`].
    fn spawn(
        cfg: &Config,
        discord: &Discord,
        db: &str,
        shard: Option<u32>,
        log: &str,
    ) -> anyhow::Result<BotProcess> {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(cfg.dir.join(log))?;
        let mut command = tokio::process::Command::new(&cfg.bot);
        command
            .env("DISCORD_TOKEN", TOKEN)
            .env("DISCORD_API_URL", &discord.api_url)
            .env("DISCORD_GUILD_ID", GUILD_ID.to_string())
            .env("DATABASE_URL", db)
            .env("RUST_LOG", "warn");
        if let Some(s) = shard {
            command.env("SHARDS", format!("{s}..{s}/{PG_SHARDS}"));
        }
        let child = command
            .stdout(log.try_clone()?)
            .stderr(log)
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("start {}", cfg.bot.display()))?;
        Ok(BotProcess { child })
    }

    /// Whether the bot started when the stand-in had `before` registrations is up: it
    /// registered its commands and `shard` is connected. An error if it exited.
    async fn ready(
        &mut self,
        discord: &Discord,
        before: u64,
        shard: Option<u32>,
    ) -> anyhow::Result<bool> {
        let status = discord.status().await?;
        if status["registrations"].as_u64().unwrap_or(0) > before
            && Discord::connected(&status, shard)
        {
            return Ok(true);
        }
        if let Some(exit) = self.child.try_wait()? {
            bail!("the bot exited at start-up: {exit}");
        }
        Ok(false)
    }

    /// SIGKILL, and wait for the process to be gone.
    async fn kill(mut self) -> anyhow::Result<()> {
        self.child.start_kill()?;
        self.child.wait().await?;
        Ok(())
    }
}

/// One of the run's bot processes: which shard it runs and which guild's games it plays.
struct Process {
    /// Its shard (`None`: the unsharded bot of the SQLite set-up).
    shard: Option<u32>,
    /// The guild of its games' channels.
    guild: u64,
    /// Its log file's name in [`Config::dir`].
    log: String,
    /// The running process; `None` while it is dead.
    bot: Option<BotProcess>,
    /// When it was last started (ready).
    started: Instant,
}

/// One stored game: its id, players and position after its stored moves.
struct StoredGame {
    id: i64,
    white: i64,
    black: i64,
    position: Position,
    plies: i64,
}

/// A connection to the run's database (SQLite or PostgreSQL, through sqlx's `Any` driver;
/// queries use `$N` binds, which both read).
async fn connect(url: &str) -> anyhow::Result<AnyConnection> {
    sqlx::any::install_default_drivers();
    AnyConnection::connect(url)
        .await
        .with_context(|| format!("connect to {url}"))
}

/// The active game of `channel`, if any.
async fn active_game(conn: &mut AnyConnection, channel: u64) -> anyhow::Result<Option<StoredGame>> {
    let row: Option<(i64, String, i64, i64)> = sqlx::query_as(
        "SELECT id, start_fen, white_id, black_id FROM games WHERE channel_id = $1 AND state = 'active'",
    )
    .bind(channel as i64)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((id, fen, white, black)) = row else {
        return Ok(None);
    };
    let moves: Vec<String> =
        sqlx::query_scalar("SELECT uci FROM moves WHERE game_id = $1 ORDER BY ply")
            .bind(id)
            .fetch_all(&mut *conn)
            .await?;
    let mut position =
        Position::from_fen(&fen, Ruleset::Standard).map_err(|e| anyhow!("game {id}: {e}"))?;
    for uci in &moves {
        let m = makruk::parse_uci(&position, uci)
            .map_err(|e| anyhow!("game {id}: stored {uci}: {e:?}"))?;
        position
            .play(&m)
            .map_err(|e| anyhow!("game {id}: stored {uci}: {e:?}"))?;
    }
    Ok(Some(StoredGame {
        id,
        white,
        black,
        position,
        plies: moves.len() as i64,
    }))
}

/// Every stored move: (game, ply) → (UCI, channel).
async fn stored_moves(
    conn: &mut AnyConnection,
) -> anyhow::Result<HashMap<(i64, i64), (String, u64)>> {
    let rows: Vec<(i64, i64, String, i64)> = sqlx::query_as(
        "SELECT m.game_id, m.ply, m.uci, g.channel_id FROM moves m JOIN games g ON g.id = m.game_id",
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(g, p, u, c)| ((g, p), (u, c as u64)))
        .collect())
}

/// The games whose row disagrees with their moves: `plies` is not the number of stored moves,
/// or these are not at plies `0..plies` (one statement: one snapshot, also while another
/// process writes).
async fn inconsistent_games(conn: &mut AnyConnection) -> anyhow::Result<Vec<String>> {
    let rows: Vec<(i64, i64, i64, i64, i64)> = sqlx::query_as(
        "SELECT g.id, g.plies, COUNT(m.ply), COALESCE(MIN(m.ply), 0), COALESCE(MAX(m.ply), -1) \
         FROM games g LEFT JOIN moves m ON m.game_id = g.id GROUP BY g.id, g.plies",
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows
        .into_iter()
        .filter(|&(_, plies, n, min, max)| plies != n || (n > 0 && (min != 0 || max != n - 1)))
        .map(|(id, plies, n, min, max)| {
            format!("game {id}: plies {plies}, {n} moves stored at plies {min}..={max}")
        })
        .collect())
}

/// What one game slot (a channel and its two players) is doing.
enum Slot {
    /// To be read from the database.
    Sync,
    /// A `/challenge` or an Accept press is under way.
    Asking { token: String, since: Instant },
    /// A game is being played; no move under way.
    Ready(StoredGame),
    /// A `/move` is under way.
    Moving {
        game: StoredGame,
        token: String,
        uci: String,
        since: Instant,
    },
}

struct Table {
    channel: u64,
    white: String,
    black: String,
    ids: HashMap<i64, String>,
    /// The bot process that plays this table's games (the one running its guild's shard).
    process: usize,
    slot: Slot,
    /// Acknowledged moves since the last restart.
    acked_now: u64,
    /// Not to be read from the database again before then (waiting for a board).
    next_sync: Instant,
    /// The game's last stored move must be shown in the channel by then: [`Config::settle`]
    /// after its process's start, or after the driver gave up waiting for an answer.
    show_by: Instant,
}

/// The driver's record: what it sent and what Discord was told.
#[derive(Default)]
struct Record {
    /// (game, ply) → UCIs sent for that ply.
    sent: HashMap<(i64, i64), BTreeSet<String>>,
    /// (game, ply) → the UCI acknowledged.
    acked: HashMap<(i64, i64), String>,
    /// Acknowledged moves found missing, at any check.
    lost: BTreeSet<(i64, i64)>,
    /// Stored moves found not sent for their ply, at any check.
    duplicates: BTreeSet<(i64, i64)>,
}

struct Run<'a> {
    cfg: &'a Config,
    discord: Discord,
    /// The database's URL.
    db: String,
    /// The driver's connection, kept between rounds on PostgreSQL (a new one each round on
    /// SQLite, as the SQLite set-up always did).
    kept: Option<AnyConnection>,
    tables: Vec<Table>,
    processes: Vec<Process>,
    record: Record,
    report: Report,
    rng: StdRng,
    next_channel: u64,
    /// Stored moves (game, ply) found unannounced.
    unannounced: BTreeSet<(i64, i64)>,
}

impl Run<'_> {
    fn postgres(&self) -> bool {
        self.cfg.postgres.is_some()
    }

    /// A connection to the database: the kept one, or a new one.
    async fn conn(&mut self) -> anyhow::Result<AnyConnection> {
        match self.kept.take() {
            Some(conn) => Ok(conn),
            None => connect(&self.db).await,
        }
    }

    /// Done with `conn`: kept on PostgreSQL, closed on SQLite.
    async fn release(&mut self, conn: AnyConnection) -> anyhow::Result<()> {
        if self.postgres() {
            self.kept = Some(conn);
        } else {
            conn.close().await?;
        }
        Ok(())
    }

    fn alive(&self, process: usize) -> bool {
        self.processes[process].bot.is_some()
    }

    /// Drives every table of a live process until `until`.
    async fn drive(&mut self, until: Instant) -> anyhow::Result<()> {
        while Instant::now() < until {
            self.step().await?;
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        Ok(())
    }

    /// One round: start what is idle (in the tables of live processes), collect what was
    /// answered.
    async fn step(&mut self) -> anyhow::Result<()> {
        let mut conn = None;
        for i in 0..self.tables.len() {
            if !self.alive(self.tables[i].process) {
                continue;
            }
            match std::mem::replace(&mut self.tables[i].slot, Slot::Sync) {
                Slot::Sync if self.tables[i].next_sync > Instant::now() => {}
                Slot::Sync => {
                    if conn.is_none() {
                        conn = Some(self.conn().await?);
                    }
                    let conn = conn.as_mut().context("a connection")?;
                    self.tables[i].slot = self.sync(i, conn).await?;
                }
                Slot::Ready(game) => self.tables[i].slot = self.send_move(i, game).await?,
                other => self.tables[i].slot = other,
            }
        }
        if let Some(conn) = conn {
            self.release(conn).await?;
        }
        self.collect().await
    }

    /// Reads table `i`'s channel from the database: its game, or what to do to get one.
    async fn sync(&mut self, i: usize, conn: &mut AnyConnection) -> anyhow::Result<Slot> {
        let channel = self.tables[i].channel;
        if let Some(game) = active_game(conn, channel).await? {
            // As a player would: move once the channel shows the last move.
            let last = game.plies - 1;
            if last < 0 || shows(&self.discord.boards(channel).await?, game.id, last) {
                return Ok(Slot::Ready(game));
            }
            if Instant::now() < self.tables[i].show_by {
                self.tables[i].next_sync = Instant::now() + Duration::from_millis(50);
                return Ok(Slot::Sync);
            }
            if self.unannounced.insert((game.id, last)) {
                let settle = self.cfg.settle;
                self.report.problem(format!(
                    "game {} ply {last}: stored, not shown {settle:?} after the restart",
                    game.id
                ));
            }
            return Ok(Slot::Ready(game));
        }
        let open: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM challenges WHERE channel_id = $1 AND state = 'open'",
        )
        .bind(channel as i64)
        .fetch_one(&mut *conn)
        .await?;
        let t = &self.tables[i];
        let shard = self.processes[t.process].shard;
        let token = if open > 0 {
            let token = self.discord.click(&t.black, channel, "Accept").await?;
            if token.is_none() && Discord::connected(&self.discord.status().await?, shard) {
                // The challenge is stored but its message never reached the channel
                // (the bot died between the two): nothing to press; play elsewhere.
                self.report.stuck_challenges += 1;
                self.report.problem(format!(
                    "channel {channel}: an open challenge without its message"
                ));
                let next = self.next_channel;
                self.next_channel += 1;
                if self.postgres() {
                    let guild = self.processes[self.tables[i].process].guild;
                    self.discord.put_channel_in_guild(next, guild).await?;
                }
                self.tables[i].channel = next;
                return Ok(Slot::Sync);
            }
            self.report.games_started += u64::from(token.is_some());
            token
        } else {
            let opponent = format!("@{}", t.black);
            self.discord
                .command(
                    &t.white,
                    channel,
                    "challenge",
                    &[
                        ("opponent", &opponent),
                        ("color", "white"),
                        ("rules", "standard"),
                    ],
                )
                .await?
        };
        Ok(match token {
            Some(token) => Slot::Asking {
                token,
                since: Instant::now(),
            },
            None => Slot::Sync,
        })
    }

    async fn send_move(&mut self, i: usize, game: StoredGame) -> anyhow::Result<Slot> {
        let moves = game.position.legal_moves();
        let Some(m) = moves.choose(&mut self.rng) else {
            // Over by the rules: the database says what comes next.
            return Ok(Slot::Sync);
        };
        let uci = makruk::uci::to_uci(m);
        let t = &self.tables[i];
        let mover_id = if game.plies % 2 == 0 {
            game.white
        } else {
            game.black
        };
        let mover = t
            .ids
            .get(&mover_id)
            .cloned()
            .unwrap_or_else(|| t.white.clone());
        let Some(token) = self
            .discord
            .command(&mover, t.channel, "move", &[("move", &uci)])
            .await?
        else {
            return Ok(Slot::Ready(game));
        };
        self.report.sent += 1;
        self.record
            .sent
            .entry((game.id, game.plies))
            .or_default()
            .insert(uci.clone());
        Ok(Slot::Moving {
            game,
            token,
            uci,
            since: Instant::now(),
        })
    }

    /// Collects the answers that came, and gives up on those that take too long.
    async fn collect(&mut self) -> anyhow::Result<()> {
        let tokens: Vec<String> = self
            .tables
            .iter()
            .filter_map(|t| match &t.slot {
                Slot::Asking { token, .. } | Slot::Moving { token, .. } => Some(token.clone()),
                _ => None,
            })
            .collect();
        let outcomes = self.discord.outcomes(&tokens).await?;
        let someone_down = self.processes.iter().any(|p| p.bot.is_none());
        for i in 0..self.tables.len() {
            let slot = std::mem::replace(&mut self.tables[i].slot, Slot::Sync);
            self.tables[i].slot = match slot {
                Slot::Asking { token, since } => {
                    if outcomes.contains_key(&token) || since.elapsed() > ANSWER_WAIT {
                        Slot::Sync
                    } else {
                        Slot::Asking { token, since }
                    }
                }
                Slot::Moving {
                    mut game,
                    token,
                    uci,
                    since,
                } => match outcomes.get(&token) {
                    Some(outcome) => {
                        if self.acknowledged(&game, &uci, outcome) {
                            self.tables[i].acked_now += 1;
                            self.report.acked_by_process[self.tables[i].process] += 1;
                            if someone_down {
                                self.report.acked_while_other_down += 1;
                            }
                            let m = makruk::parse_uci(&game.position, &uci)
                                .map_err(|e| anyhow!("{e:?}"))?;
                            game.position.play(&m).map_err(|e| anyhow!("{e:?}"))?;
                            game.plies += 1;
                            Slot::Ready(game)
                        } else {
                            // Refused (the game ended, or a stale position): read it again.
                            Slot::Sync
                        }
                    }
                    None if since.elapsed() > ANSWER_WAIT => {
                        self.report.problem(format!(
                            "game {}: /move {uci} unanswered for {ANSWER_WAIT:?}",
                            game.id
                        ));
                        // Its board, if it was stored, may still be on its way.
                        self.tables[i].show_by = Instant::now() + self.cfg.settle;
                        Slot::Sync
                    }
                    None => Slot::Moving {
                        game,
                        token,
                        uci,
                        since,
                    },
                },
                other => other,
            };
        }
        Ok(())
    }

    /// Whether `outcome` (of `/move uci` in `game`) told Discord the move was played; records it.
    fn acknowledged(&mut self, game: &StoredGame, uci: &str, outcome: &Value) -> bool {
        if outcome["ephemeral"] == json!(true) {
            return false;
        }
        let shown = outcome["messages"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(boards_of);
        let acked = shown.into_iter().any(|b| b == (game.id, game.plies + 1));
        if acked {
            self.report.acked += 1;
            self.record
                .acked
                .insert((game.id, game.plies), uci.to_owned());
        }
        acked
    }

    /// SIGKILLs process `p`.
    async fn kill(&mut self, p: usize) -> anyhow::Result<()> {
        if let Some(bot) = self.processes[p].bot.take() {
            bot.kill().await?;
        }
        Ok(())
    }

    /// Starts process `p` and waits until it is up, driving the other processes' tables
    /// meanwhile (the survivors' games keep moving).
    async fn start(&mut self, p: usize) -> anyhow::Result<()> {
        let before = self.discord.status().await?["registrations"]
            .as_u64()
            .unwrap_or(0);
        let process = &self.processes[p];
        let mut bot = BotProcess::spawn(
            self.cfg,
            &self.discord,
            &self.db,
            process.shard,
            &process.log,
        )?;
        let shard = process.shard;
        let deadline = Instant::now() + START_WAIT;
        loop {
            let ready = bot
                .ready(&self.discord, before, shard)
                .await
                .with_context(|| {
                    format!(
                        "see {}",
                        self.cfg.dir.join(&self.processes[p].log).display()
                    )
                })?;
            if ready {
                break;
            }
            if Instant::now() > deadline {
                bail!("bot process {p} did not connect within {START_WAIT:?}");
            }
            self.step().await?;
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let now = Instant::now();
        self.processes[p].bot = Some(bot);
        self.processes[p].started = now;
        for t in self.tables.iter_mut().filter(|t| t.process == p) {
            t.show_by = now + self.cfg.settle;
        }
        Ok(())
    }

    /// After a kill: the answers that reached Discord so far, then the database checked
    /// against the record (moves the survivors are storing now are not yet acknowledged: the
    /// record is what the driver saw before it read).
    async fn check_after_kill(&mut self) -> anyhow::Result<()> {
        self.collect().await?;
        for p in 0..self.processes.len() {
            if self.alive(p) {
                continue;
            }
            for t in self.tables.iter_mut().filter(|t| t.process == p) {
                // Whatever was under way is lost with the bot (as on Discord: "interaction failed").
                t.slot = Slot::Sync;
            }
        }
        let mut conn = self.conn().await?;
        let kill = self.report.kills;
        if !self.postgres() {
            let integrity: Vec<String> = sqlx::query_scalar("PRAGMA integrity_check")
                .fetch_all(&mut conn)
                .await?;
            if integrity != ["ok"] {
                self.report
                    .integrity
                    .push(format!("after kill {kill}: {}", integrity.join(", ")));
            }
        }
        for problem in inconsistent_games(&mut conn).await? {
            self.report
                .integrity
                .push(format!("after kill {kill}: {problem}"));
        }
        let stored = stored_moves(&mut conn).await?;
        self.release(conn).await?;
        self.compare(&stored);
        Ok(())
    }

    /// Lost and duplicate moves against `stored`, added to those found before.
    fn compare(&mut self, stored: &HashMap<(i64, i64), (String, u64)>) {
        let mut problems = Vec::new();
        for (key, uci) in &self.record.acked {
            if stored.get(key).map(|(u, _)| u) != Some(uci) && self.record.lost.insert(*key) {
                problems.push(format!(
                    "after kill {}: acknowledged {uci} at game {} ply {} is not stored (found {:?})",
                    self.report.kills,
                    key.0,
                    key.1,
                    stored.get(key)
                ));
            }
        }
        for (key, (uci, _)) in stored {
            if !self.record.sent.get(key).is_some_and(|s| s.contains(uci))
                && self.record.duplicates.insert(*key)
            {
                problems.push(format!(
                    "after kill {}: stored {uci} at game {} ply {} was not sent for that ply",
                    self.report.kills, key.0, key.1
                ));
            }
        }
        self.report.lost = self.record.lost.len() as u64;
        self.report.duplicates = self.record.duplicates.len() as u64;
        self.report.stored = stored.len() as u64;
        for p in problems {
            self.report.problem(p);
        }
    }

    /// Stored moves (in the database now) that no board in their channel shows.
    async fn unshown(&mut self) -> anyhow::Result<Vec<(i64, i64)>> {
        let mut conn = self.conn().await?;
        let stored = stored_moves(&mut conn).await?;
        self.release(conn).await?;
        let channels: BTreeSet<u64> = stored.values().map(|(_, c)| *c).collect();
        let mut shown = HashSet::new();
        for channel in channels {
            shown.extend(self.discord.boards(channel).await?);
        }
        let mut missing: Vec<(i64, i64)> = stored
            .keys()
            .filter(|(g, p)| !shows(&shown, *g, *p))
            .copied()
            .collect();
        missing.sort_unstable();
        Ok(missing)
    }

    /// Games finished so far.
    async fn finished_games(&mut self) -> anyhow::Result<u64> {
        let mut conn = self.conn().await?;
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games WHERE state = 'finished'")
            .fetch_one(&mut conn)
            .await?;
        self.release(conn).await?;
        Ok(n as u64)
    }
}

/// Runs the crash proof of `cfg` and reports what it found (an `Err` only for a run that could
/// not be carried out: a binary missing, the bot not starting, the database unreachable).
pub async fn run(cfg: &Config) -> anyhow::Result<Report> {
    std::fs::create_dir_all(&cfg.dir)?;
    let (db, processes) = match &cfg.postgres {
        Some(server) => {
            let db = crate::service::fresh_postgres_db(server).await;
            // Process p runs shard p; its games are in the guild of that shard.
            let processes = (0..PG_SHARDS)
                .map(|shard| {
                    let guild = [GUILD_ID, OTHER_GUILD]
                        .into_iter()
                        .find(|g| discord_standin::shard_of(Some(*g), PG_SHARDS) == shard)
                        .context("a guild on each shard")?;
                    Ok(Process {
                        shard: Some(shard),
                        guild,
                        log: format!("bot-{shard}.log"),
                        bot: None,
                        started: Instant::now(),
                    })
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            (db, processes)
        }
        None => {
            let db = format!("sqlite://{}", cfg.dir.join("crash.sqlite3").display());
            let process = Process {
                shard: None,
                guild: GUILD_ID,
                log: "bot.log".to_owned(),
                bot: None,
                started: Instant::now(),
            };
            (db, vec![process])
        }
    };
    let shards = if cfg.postgres.is_some() { PG_SHARDS } else { 1 };
    let discord = Discord::start(cfg, shards).await?;
    let mut tables = Vec::new();
    for n in 0..cfg.games {
        let white = format!("white{n}");
        let black = format!("black{n}");
        let ids = HashMap::from([
            (discord.user(&white).await? as i64, white.clone()),
            (discord.user(&black).await? as i64, black.clone()),
        ]);
        let channel = FIRST_CHANNEL + n as u64;
        // The games alternate between the processes (their guilds).
        let process = n % processes.len();
        if cfg.postgres.is_some() {
            discord
                .put_channel_in_guild(channel, processes[process].guild)
                .await?;
        }
        tables.push(Table {
            channel,
            white,
            black,
            ids,
            process,
            slot: Slot::Sync,
            acked_now: 0,
            next_sync: Instant::now(),
            show_by: Instant::now(),
        });
    }
    let report = Report {
        backend: if cfg.postgres.is_some() {
            "PostgreSQL"
        } else {
            "SQLite"
        },
        database: db.clone(),
        processes: processes.len(),
        kills_by_process: vec![0; processes.len()],
        acked_by_process: vec![0; processes.len()],
        ..Report::default()
    };
    let mut run = Run {
        cfg,
        discord,
        db,
        kept: None,
        tables,
        processes,
        record: Record::default(),
        report,
        rng: StdRng::seed_from_u64(cfg.seed),
        next_channel: FIRST_CHANNEL + 1_000,
        unannounced: BTreeSet::new(),
    };
    for p in 0..run.processes.len() {
        run.start(p).await?;
    }
    while run.report.kills < cfg.kills {
        let alive = Duration::from_millis(run.rng.random_range(cfg.alive_ms.0..=cfg.alive_ms.1));
        run.drive(Instant::now() + alive).await?;
        let victim = run.rng.random_range(0..run.processes.len());
        run.kill(victim).await?;
        run.report.kills += 1;
        run.report.kills_by_process[victim] += 1;
        run.check_after_kill().await?;
        run.start(victim).await?;
    }
    // The last start: let it settle, then every game still being played takes one more move.
    let last_start = run
        .processes
        .iter()
        .map(|p| p.started)
        .max()
        .unwrap_or_else(Instant::now);
    run.drive(last_start + cfg.settle).await?;
    for t in &mut run.tables {
        t.acked_now = 0;
    }
    let deadline = Instant::now() + ANSWER_WAIT;
    while Instant::now() < deadline && run.tables.iter().any(|t| t.acked_now == 0) {
        run.step().await?;
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    run.report.not_continuing = run.tables.iter().filter(|t| t.acked_now == 0).count() as u64;
    for t in run.tables.iter().filter(|t| t.acked_now == 0) {
        let what = format!("channel {}: the game did not take one more move", t.channel);
        run.report.problem(what);
    }
    // Nothing under way any more: answers collected, then the final comparison.
    let quiet = Instant::now() + ANSWER_WAIT;
    while Instant::now() < quiet
        && run
            .tables
            .iter()
            .any(|t| matches!(t.slot, Slot::Moving { .. } | Slot::Asking { .. }))
    {
        run.collect().await?;
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    for (g, p) in run.unshown().await? {
        if run.unannounced.insert((g, p)) {
            run.report.problem(format!(
                "game {g} ply {p}: stored, no board of the channel shows it"
            ));
        }
    }
    run.report.unannounced = run.unannounced.len() as u64;
    for p in 0..run.processes.len() {
        run.kill(p).await?;
    }
    run.check_after_kill().await?;
    run.report.games_finished = run.finished_games().await?;
    if let Some(conn) = run.kept.take() {
        conn.close().await?;
    }
    run.report.standin_errors = run.discord.status().await?["errors"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| e.as_str().map(str::to_owned))
        .collect();
    let _ = run.discord.child.start_kill();
    Ok(run.report)
}
