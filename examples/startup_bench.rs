//! Start-up to ready with a realistic database: `games` stored games (default 100,000), of which
//! `active` (default 10,000) are being played; each phase of the bot's start-up timed.
//!
//! ```sh
//! cargo run --release --example startup_bench -- [games=100000] [active=10000] [rounds=5]
//! BENCH_DATABASE_URL=postgres://… cargo run --release --example startup_bench   # PostgreSQL
//! ```
//!
//! The database is built once, in bulk SQL inside one transaction (a few seconds): finished
//! games of 40 plies each (real moves: 16 random games of the rules crate, with SAN and the
//! clocks after each move), the accepted challenge of each game between people, two
//! rating-history rows per rated game; active games of 2-8 plies, one in ten with a live clock
//! (10+5), the others 3 days per move, 1% against the computer (a tenth of those on the
//! computer's turn), 0.5% with their last move not yet announced. Then it is closed, and the
//! bot's start-up is run `rounds` times (each on the closed database), as `app::App::start`
//! and the Discord adapter do it, each step timed:
//!
//! - `open`: `GameService::open_with` (the store: connect, WAL, the check that the file can be
//!   written, the migrations' check, the read pool; `PRAGMA quick_check` only after an unclean
//!   stop, see `check`);
//! - `computer`: the computer's search threads (`Computer::new`);
//! - `clocks`: `start_clocks` (the downtime stored, every active game's clock read and armed);
//! - `leader`: `start_leader`, the lease's first tick and its sweep;
//! - `ready`: the sum so far, what the bot awaits before it connects to Discord and answers;
//! - `turns`: the computer driver's first read (`pending_computer_turns`), and `repost`: the
//!   announcer's read of the moves never announced (`unannounced`): both run beside the first
//!   interactions, not before them, and are shown apart; and `check`: after a clean stop (each
//!   round's), the store's `PRAGMA quick_check`, which the bot runs after ready, beside them.
//!
//! Then, once, the parts of `open` alone on a connection of their own: `quick_check`, and the
//! migrations' check (nothing left to apply). The file is in the page cache (it was just
//! written and read): no cold-cache figures. The first round is the first start after the
//! database was built.

use std::time::{Duration, Instant};

use anyhow::Context as _;
use makruk::{Game, Position, Ruleset};
use makruk_bot::app::Config;
use makruk_bot::computer::Computer;
use makruk_bot::game::GameService;
use makruk_bot::store::{Backend, StoreOptions};
use rand::{Rng as _, SeedableRng as _};
use sqlx::{Connection as _, Executor as _};

/// Distinct move sequences the games are made of.
const PATTERNS: usize = 16;
/// Plies of a finished game.
const FINISHED_PLIES: usize = 40;

fn arg(args: &[String], i: usize, default: u64) -> u64 {
    args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default)
}

/// One move of a pattern: ply, UCI, SAN, FEN after it.
struct PatternMove {
    ply: usize,
    uci: String,
    san: String,
    fen_after: String,
}

/// `PATTERNS` random games of `FINISHED_PLIES` plies (none ends earlier: a game that would is
/// drawn again).
fn patterns() -> Vec<Vec<PatternMove>> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(28);
    let mut out = Vec::new();
    while out.len() < PATTERNS {
        let mut game = Game::new(Ruleset::Standard);
        let mut moves = Vec::new();
        for ply in 0..FINISHED_PLIES {
            let pos = game.position().clone();
            let legal = pos.legal_moves();
            if legal.is_empty() || game.outcome().is_some() {
                break;
            }
            let m = legal[rng.random_range(0..legal.len())];
            let san = makruk::san::to_san(&pos, &m);
            game.play(&m).expect("a legal move");
            moves.push(PatternMove {
                ply,
                uci: makruk::uci::to_uci(&m),
                san,
                fen_after: game.position().fen(),
            });
        }
        if moves.len() == FINISHED_PLIES && game.outcome().is_none() {
            out.push(moves);
        }
    }
    out
}

fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// Builds the database at `url`: `games` games, every `games / active`-th of them active.
async fn build(url: &str, games: u64, active: u64, now_ms: i64) -> anyhow::Result<()> {
    let svc = GameService::open(url).await?;
    let store = svc.store();
    let backend = store.backend();
    let every = (games / active.max(1)).max(1);
    let start_fen = Position::start(Ruleset::Standard).fen();
    let pats = patterns();
    // The moves of the patterns, with the clocks after each (a 10+5 game: a few seconds per
    // move; correspondence games store their full period, as the service does).
    let mut rows = Vec::new();
    for (p, moves) in pats.iter().enumerate() {
        for m in moves {
            let used = i64::try_from(m.ply).unwrap_or(0) * 3_000;
            rows.push(format!(
                "({p}, {}, {}, {}, {}, {}, {})",
                m.ply,
                quote(&m.uci),
                quote(&m.san),
                quote(&m.fen_after),
                600_000 - used / 2,
                600_000 - used / 2 + 1_000,
            ));
        }
    }
    let mut tx = store.begin_write().await?;
    tx.execute(
        "CREATE TEMP TABLE bench_pattern (pattern BIGINT, ply BIGINT, uci TEXT, san TEXT, \
         fen TEXT, white_ms BIGINT, black_ms BIGINT, PRIMARY KEY (pattern, ply))",
    )
    .await?;
    tx.execute(&*format!(
        "INSERT INTO bench_pattern VALUES {}",
        rows.join(", ")
    ))
    .await?;
    // The numbers 1..=games.
    tx.execute("CREATE TEMP TABLE bench_n (n BIGINT PRIMARY KEY)")
        .await?;
    tx.execute(&*format!(
        "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < {games}) \
         INSERT INTO bench_n (n) SELECT n FROM c"
    ))
    .await?;
    let now_s = now_ms / 1000;
    let fin_plies = FINISHED_PLIES;
    let pats_n = PATTERNS;
    // Games: n = id. Active: n % every = 0, with 2 + (n / every) % 7 plies; finished: 40 plies.
    // Channels: one per active game (n / every), its finished games before it in the same one.
    let active_sql = format!("(g.n % {every} = 0)");
    let plies_sql =
        format!("CASE WHEN {active_sql} THEN 2 + (g.n / {every}) % 7 ELSE {fin_plies} END");
    tx.execute(&*format!(
        "INSERT INTO games (id, channel_id, white_id, black_id, ruleset, start_fen, fen, plies, \
         state, result, end_reason, version, created_at, updated_at, finished_at, time_control, \
         white_ms, black_ms, turn_started_ms, reminder_sent, computer_side, computer_level, \
         guild_id, rated) \
         SELECT g.n, 1000000 + (g.n + {every} - 1) / {every}, 5000000 + (g.n * 7) % 5000, \
         6000000 + (g.n * 13) % 5000, 'standard', {start}, p.fen, {plies_sql}, \
         CASE WHEN {active_sql} THEN 'active' ELSE 'finished' END, \
         CASE WHEN {active_sql} THEN NULL WHEN g.n % 3 = 0 THEN '1/2-1/2' WHEN g.n % 3 = 1 \
         THEN '1-0' ELSE '0-1' END, \
         CASE WHEN {active_sql} THEN NULL WHEN g.n % 3 = 0 THEN 'agreement' ELSE 'resignation' END, \
         {plies_sql} + 2, \
         {now_s} - ({games} - g.n) * 600, {now_s} - ({games} - g.n) * 600 + 3600, \
         CASE WHEN {active_sql} THEN NULL ELSE {now_s} - ({games} - g.n) * 600 + 3600 END, \
         CASE WHEN g.n % {live_every} = 0 THEN 'l10+5' ELSE 'c3d' END, \
         CASE WHEN g.n % {live_every} = 0 THEN 540000 ELSE 259200000 END, \
         CASE WHEN g.n % {live_every} = 0 THEN 550000 ELSE 259200000 END, \
         CASE WHEN g.n % {live_every} = 0 THEN {now_ms} - 20000 \
         ELSE {now_ms} - (g.n % 86400) * 1000 END, 0, \
         CASE WHEN {active_sql} AND g.n % {computer_every} = 0 THEN \
           CASE WHEN ({plies_sql}) % 2 = 0 THEN \
             CASE WHEN g.n % {computer_turn_every} = 0 THEN 'white' ELSE 'black' END \
           ELSE CASE WHEN g.n % {computer_turn_every} = 0 THEN 'black' ELSE 'white' END END \
         ELSE NULL END, \
         CASE WHEN {active_sql} AND g.n % {computer_every} = 0 THEN 3 ELSE NULL END, \
         42 + g.n % 50, CASE WHEN g.n % 2 = 0 THEN 1 ELSE 0 END \
         FROM bench_n g JOIN bench_pattern p ON p.pattern = g.n % {pats_n} \
         AND p.ply = {plies_sql} - 1 ORDER BY g.n",
        start = quote(&start_fen),
        live_every = every * 10,
        computer_every = every * 100,
        computer_turn_every = every * 1000,
    ))
    .await
    .context("inserting the games")?;
    // Moves, in game order. Announced, except the last move of one active game in 200.
    tx.execute(&*format!(
        "INSERT INTO moves (game_id, ply, uci, san, created_at, white_ms, black_ms, announced) \
         SELECT g.id, p.ply, p.uci, p.san, g.created_at + p.ply * 60, \
         CASE WHEN g.time_control = 'c3d' THEN 259200000 ELSE p.white_ms END, \
         CASE WHEN g.time_control = 'c3d' THEN 259200000 ELSE p.black_ms END, \
         CASE WHEN g.id % {unannounced_every} = 0 AND p.ply = g.plies - 1 THEN 0 ELSE 1 END \
         FROM games g JOIN bench_pattern p ON p.pattern = g.id % {pats_n} AND p.ply < g.plies \
         ORDER BY g.id, p.ply",
        unannounced_every = every * 200,
    ))
    .await
    .context("inserting the moves")?;
    // The accepted challenge of each game between people (its message closed).
    tx.execute(
        "INSERT INTO challenges (channel_id, challenger_id, opponent_id, color, ruleset, state, \
         created_at, expires_at, answered_at, game_id, time_control, guild_id, rated, thread, \
         message_id, message_closed) \
         SELECT channel_id, white_id, black_id, 'random', ruleset, 'accepted', created_at - 60, \
         created_at + 540, created_at, id, time_control, guild_id, rated, 0, 9000000 + id, 1 \
         FROM games WHERE computer_side IS NULL ORDER BY id",
    )
    .await
    .context("inserting the challenges")?;
    // Two rating-history rows per rated finished game.
    tx.execute(
        "INSERT INTO rating_history (game_id, guild_id, user_id, speed, color, opponent_id, \
         score, rating_before, opponent_rating, rating, deviation, volatility, finished_at) \
         SELECT id, guild_id, white_id, CASE WHEN time_control = 'c3d' THEN 'correspondence' \
         ELSE 'live' END, 'white', black_id, CASE WHEN result = '1-0' THEN 1 WHEN result = '0-1' \
         THEN 0 ELSE 0.5 END, 1500, 1500, 1510, 120, 0.06, finished_at \
         FROM games WHERE state = 'finished' AND rated = 1 \
         UNION ALL \
         SELECT id, guild_id, black_id, CASE WHEN time_control = 'c3d' THEN 'correspondence' \
         ELSE 'live' END, 'black', white_id, CASE WHEN result = '0-1' THEN 1 WHEN result = '1-0' \
         THEN 0 ELSE 0.5 END, 1500, 1500, 1490, 120, 0.06, finished_at \
         FROM games WHERE state = 'finished' AND rated = 1 ORDER BY 1, 3",
    )
    .await
    .context("inserting the rating history")?;
    tx.execute("DROP TABLE bench_pattern; DROP TABLE bench_n")
        .await?;
    // The last heartbeat: the build's end.
    tx.execute(&*format!(
        "INSERT INTO bot_state (id, last_alive_ms) VALUES (1, {now_ms}) \
         ON CONFLICT (id) DO UPDATE SET last_alive_ms = excluded.last_alive_ms"
    ))
    .await?;
    tx.commit().await?;
    if backend == Backend::Postgres {
        let mut conn = store.read_conn().await?;
        conn.execute("ANALYZE").await?;
    }
    svc.close().await;
    Ok(())
}

/// The phases of one start-up.
#[derive(Clone, Copy, Default)]
struct Round {
    open: Duration,
    computer: Duration,
    clocks: Duration,
    leader: Duration,
    turns: Duration,
    repost: Duration,
    /// The deferred `PRAGMA quick_check` (SQLite, after a clean stop), after ready.
    check: Duration,
    armed: usize,
    pending_turns: usize,
    unannounced: usize,
}

impl Round {
    fn ready(&self) -> Duration {
        self.open + self.computer + self.clocks + self.leader
    }

    fn total(&self) -> Duration {
        self.ready() + self.turns + self.repost + self.check
    }
}

/// One start-up as the bot's (`app::App::start`, then the driver's and the announcer's first
/// reads), each step timed; then closed.
async fn start_up(url: &str) -> anyhow::Result<Round> {
    let config = Config::with_token("bench");
    let mut round = Round::default();
    let t = Instant::now();
    let service = GameService::open_with(url, StoreOptions::default()).await?;
    round.open = t.elapsed();

    let t = Instant::now();
    let computer = Computer::new(config.computer_settings())?;
    let service = service
        .with_draw_judge(computer.draw_judge())
        .with_leader_settings(config.computer_settings().leader_settings());
    round.computer = t.elapsed();

    let t = Instant::now();
    let clocks = service.start_clocks().await?;
    round.clocks = t.elapsed();
    round.armed = clocks.games;

    let t = Instant::now();
    service.start_leader().await?;
    round.leader = t.elapsed();

    let t = Instant::now();
    round.pending_turns = service.pending_computer_turns().await?.len();
    round.turns = t.elapsed();

    let t = Instant::now();
    round.unannounced = service.unannounced().await?.len();
    round.repost = t.elapsed();

    if service.store().integrity_deferred() {
        let t = Instant::now();
        service.store().check_integrity().await?;
        round.check = t.elapsed();
    }

    service.close().await;
    drop(computer);
    Ok(round)
}

fn ms(d: Duration) -> String {
    format!("{:.0}", d.as_secs_f64() * 1000.0)
}

/// The parts of `open` alone (SQLite), on a connection of their own.
async fn open_parts(url: &str) -> anyhow::Result<(Duration, Duration)> {
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(url).await?;
    let t = Instant::now();
    let found: Vec<String> = sqlx::query_scalar("PRAGMA quick_check")
        .fetch_all(&mut conn)
        .await?;
    let check = t.elapsed();
    anyhow::ensure!(found == ["ok"], "quick_check: {found:?}");
    let t = Instant::now();
    sqlx::migrate!().run(&mut conn).await?;
    let migrations = t.elapsed();
    conn.close().await?;
    Ok((check, migrations))
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games = arg(&args, 0, 100_000);
    let active = arg(&args, 1, 10_000).min(games);
    let rounds = arg(&args, 2, 5).max(1);
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("bench.sqlite3");
    let url = match std::env::var("BENCH_DATABASE_URL") {
        Ok(url) if !url.is_empty() => url,
        _ => format!("sqlite://{}", path.display()),
    };
    let sqlite = url.starts_with("sqlite:");
    let now_ms = i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)?
            .as_millis(),
    )?;
    let t = Instant::now();
    build(&url, games, active, now_ms).await?;
    let size = if sqlite {
        let wal = dir.path().join("bench.sqlite3-wal");
        let bytes = std::fs::metadata(&path)?.len() + std::fs::metadata(wal).map_or(0, |m| m.len());
        format!(", file {:.0} MB", bytes as f64 / 1e6)
    } else {
        String::new()
    };
    println!(
        "{} database: {games} games, {active} active, built in {:.1} s{size}",
        if sqlite { "SQLite" } else { "PostgreSQL" },
        t.elapsed().as_secs_f64()
    );

    println!(
        "round  open  computer  clocks  leader  ready | turns  repost  check | total (ms; armed, pending computer turns, unannounced)"
    );
    let mut all = Vec::new();
    for r in 0..rounds {
        let round = start_up(&url).await?;
        println!(
            "{r:>5} {:>5} {:>9} {:>7} {:>7} {:>6} | {:>5} {:>7} {:>6} | {:>5} ({}, {}, {})",
            ms(round.open),
            ms(round.computer),
            ms(round.clocks),
            ms(round.leader),
            ms(round.ready()),
            ms(round.turns),
            ms(round.repost),
            ms(round.check),
            ms(round.total()),
            round.armed,
            round.pending_turns,
            round.unannounced,
        );
        all.push(round);
    }
    let median = |f: fn(&Round) -> Duration| {
        let mut v: Vec<Duration> = all.iter().map(f).collect();
        v.sort_unstable();
        v[v.len() / 2]
    };
    println!(
        "median {:>5} {:>9} {:>7} {:>7} {:>6} | {:>5} {:>7} {:>6} | {:>5}",
        ms(median(|r| r.open)),
        ms(median(|r| r.computer)),
        ms(median(|r| r.clocks)),
        ms(median(|r| r.leader)),
        ms(median(Round::ready)),
        ms(median(|r| r.turns)),
        ms(median(|r| r.repost)),
        ms(median(|r| r.check)),
        ms(median(Round::total)),
    );
    if sqlite {
        let (check, migrations) = open_parts(&url).await?;
        println!(
            "open's parts alone: PRAGMA quick_check {} ms, migrations' check {} ms (page cache warm)",
            ms(check),
            ms(migrations)
        );
    }
    Ok(())
}
