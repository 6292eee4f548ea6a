//! End-to-end throughput of the game service: moves applied per second (read the game, parse
//! the move text, validate, store the move and the new version, commit) on a SQLite file, with
//! many games played at once in different channels; and the latency distribution of a move.
//!
//! ```sh
//! cargo run --release --example service_bench -- [games=100] [plies=60] [first channel=0] \
//!     [--synchronous full|normal] [--commit grouped|alone] [--compare]
//! ```
//!
//! SQLite: `--synchronous` is the writer's sync setting (default `full`, the bot's: a confirmed
//! move survives a power cut; `normal` may lose the last ones), `--commit` whether write
//! transactions are committed in groups (default, the bot's) or one by one. `--compare` runs
//! the bench three times in one process, on three new files: `full` grouped (the bot), `full`
//! alone (before group commit) and `normal` grouped, and prints the durable throughput's ratio
//! to `normal`'s.
//!
//! With `BENCH_DATABASE_URL` set (e.g. `postgres://user@host/db`, an existing database) it runs
//! on that database instead of a new SQLite file; two benchmarks at once on one PostgreSQL
//! database (as two bot processes) need different first channels (e.g. 0 and 1000).
//! `--pg-lock global` makes every PostgreSQL write transaction take one lock for all, as before
//! each locked only what it changes (the default, `--pg-lock rows`).
//!
//! `--pg-compare` (with `BENCH_DATABASE_URL` naming a PostgreSQL server's database that may
//! create databases) runs, in one run, this bench as one process and then as two processes at
//! once (each on its own channels, on one new database), first with the one global lock, then
//! with the locks of what each write changes, and prints each process's figures and the ratio
//! of two processes' moves/s (their sum) to one's.
//!
//! The games are Fairy-Stockfish games from `rules/tests/data/games-public.jsonl.gz` that start
//! from the initial position (reused round-robin when fewer than `games`), played by SAN text.

use std::io::Read as _;
use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use makruk_bot::game::Terms;
use makruk_bot::game::{ChannelId, ColorChoice, GameService, UserId};
use makruk_bot::store::{StoreOptions, Synchronous};
use sqlx::{Connection as _, Executor as _};

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// SAN texts of the first `plies` moves of start-position games in which nothing ends earlier.
fn load_games(plies: usize) -> anyhow::Result<Vec<Vec<String>>> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/rules/tests/data/games-public.jsonl.gz"
    );
    let mut text = String::new();
    flate2::read::MultiGzDecoder::new(std::fs::File::open(path)?).read_to_string(&mut text)?;
    let start = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1";
    let mut games = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let g: serde_json::Value = serde_json::from_str(line)?;
        let Some(all) = g["plies"].as_array() else {
            continue;
        };
        if g["start"] != start || all.len() <= plies + 1 {
            continue;
        }
        let quiet = all[..=plies].iter().all(|p| {
            p["optional"][0] != true
                && p["immediate"][0] != true
                && !(p["insufficient"][0] == true && p["insufficient"][1] == true)
        });
        if quiet {
            let sans = all[..plies]
                .iter()
                .filter_map(|p| p["san"].as_str().map(str::to_string))
                .collect();
            games.push(sans);
        }
    }
    anyhow::ensure!(!games.is_empty(), "no game with {plies} quiet plies");
    Ok(games)
}

/// What one run measured.
struct Figures {
    moves_per_s: f64,
    p50_ms: f64,
    p99_ms: f64,
}

/// One run of the bench on `url` with `options`: `n_games` games at once, then one alone.
async fn run(
    url: &str,
    options: StoreOptions,
    games: &[Vec<String>],
    n_games: usize,
    plies: usize,
    first: u64,
    label: &str,
) -> anyhow::Result<Figures> {
    let what = if url.starts_with("sqlite:") {
        format!(
            "SQLite WAL file, synchronous={}, {} commits",
            match options.synchronous {
                Synchronous::Full => "FULL",
                Synchronous::Normal => "NORMAL",
            },
            if options.commit_alone {
                "one-by-one"
            } else {
                "group"
            }
        )
    } else {
        "PostgreSQL".to_owned()
    };
    let svc = GameService::open_with(url, options).await?;
    if !url.starts_with("sqlite:") && options.global_write_lock {
        println!("{label}(PostgreSQL with one write lock for all)");
    }
    let (white, black) = (UserId(1), UserId(2));
    for g in 0..n_games {
        let ch = ChannelId(first + g as u64);
        let c = svc
            .challenge(
                ch,
                white,
                black,
                false,
                Terms {
                    color: ColorChoice::White,
                    ..Terms::default()
                },
            )
            .await?;
        svc.accept(ch, black, Some(c.id)).await?;
    }
    println!(
        "{label}{n_games} games at once, {plies} plies each ({} distinct), {what}, {} worker threads",
        games.len().min(n_games),
        tokio::runtime::Handle::current().metrics().num_workers()
    );
    let started = Instant::now();
    let tasks: Vec<_> = (0..n_games)
        .map(|g| {
            let svc = svc.clone();
            let moves = games[g % games.len()].clone();
            tokio::spawn(async move {
                let ch = ChannelId(first + g as u64);
                let mut latencies = Vec::with_capacity(moves.len());
                for (i, mv) in moves.iter().enumerate() {
                    let who = if i & 1 == 0 { white } else { black };
                    let t = Instant::now();
                    svc.play(ch, who, mv).await?;
                    latencies.push(t.elapsed());
                }
                anyhow::Ok(latencies)
            })
        })
        .collect();
    let mut latencies = Vec::new();
    for t in tasks {
        latencies.extend(t.await??);
    }
    let elapsed = started.elapsed();
    latencies.sort();
    let moves = latencies.len();
    let figures = Figures {
        moves_per_s: moves as f64 / elapsed.as_secs_f64(),
        p50_ms: percentile(&latencies, 50.0).as_secs_f64() * 1e3,
        p99_ms: percentile(&latencies, 99.0).as_secs_f64() * 1e3,
    };
    println!(
        "{label}{moves} moves in {:.2} s: {:.0} moves/s",
        elapsed.as_secs_f64(),
        figures.moves_per_s
    );
    println!(
        "{label}latency per move: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        figures.p50_ms,
        percentile(&latencies, 90.0).as_secs_f64() * 1e3,
        figures.p99_ms,
        latencies.last().map_or(0.0, |d| d.as_secs_f64() * 1e3),
    );
    // For --pg-compare, which reads its children's figures.
    println!(
        "figures: {:.3} {:.3} {:.3}",
        figures.moves_per_s, figures.p50_ms, figures.p99_ms
    );
    // The cost of one move without queueing: one game at a time.
    let ch = ChannelId(u64::MAX - first);
    let c = svc
        .challenge(
            ch,
            white,
            black,
            false,
            Terms {
                color: ColorChoice::White,
                ..Terms::default()
            },
        )
        .await?;
    svc.accept(ch, black, Some(c.id)).await?;
    let mut single = Vec::new();
    for (i, mv) in games[0].iter().enumerate() {
        let who = if i & 1 == 0 { white } else { black };
        let t = Instant::now();
        svc.play(ch, who, mv).await?;
        single.push(t.elapsed());
    }
    single.sort();
    println!(
        "{label}one game alone ({} moves): p50 {:.3} ms, p99 {:.3} ms per move",
        single.len(),
        percentile(&single, 50.0).as_secs_f64() * 1e3,
        percentile(&single, 99.0).as_secs_f64() * 1e3,
    );
    svc.close().await;
    Ok(figures)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut numbers = Vec::new();
    let mut options = StoreOptions::default();
    let mut compare = false;
    let mut pg_compare = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--synchronous" => {
                options.synchronous = match args.next().as_deref() {
                    Some("full") => Synchronous::Full,
                    Some("normal") => Synchronous::Normal,
                    other => anyhow::bail!("--synchronous full|normal, not {other:?}"),
                }
            }
            "--commit" => {
                options.commit_alone = match args.next().as_deref() {
                    Some("grouped") => false,
                    Some("alone") => true,
                    other => anyhow::bail!("--commit grouped|alone, not {other:?}"),
                }
            }
            "--pg-lock" => {
                options.global_write_lock = match args.next().as_deref() {
                    Some("global") => true,
                    Some("rows") => false,
                    other => anyhow::bail!("--pg-lock global|rows, not {other:?}"),
                }
            }
            "--compare" => compare = true,
            "--pg-compare" => pg_compare = true,
            n => numbers.push(n.parse::<usize>()?),
        }
    }
    let n_games = numbers.first().copied().unwrap_or(100);
    let plies = numbers.get(1).copied().unwrap_or(60);
    let first = numbers.get(2).copied().unwrap_or(0) as u64;
    let games = load_games(plies)?;
    let dir = tempfile::tempdir()?;
    let given = std::env::var("BENCH_DATABASE_URL")
        .ok()
        .filter(|u| !u.is_empty());
    let sqlite = |name: &str| format!("sqlite://{}", dir.path().join(name).display());
    if pg_compare {
        let server =
            given.context("--pg-compare needs BENCH_DATABASE_URL (a PostgreSQL server)")?;
        return compare_postgres(&server, n_games, plies).await;
    }
    if !compare {
        let url = given.unwrap_or_else(|| sqlite("bench.db"));
        run(&url, options, &games, n_games, plies, first, "").await?;
        return Ok(());
    }
    anyhow::ensure!(given.is_none(), "--compare runs on new SQLite files only");
    let full = run(
        &sqlite("full-grouped.db"),
        StoreOptions::default(),
        &games,
        n_games,
        plies,
        first,
        "[full, grouped] ",
    )
    .await?;
    let alone = run(
        &sqlite("full-alone.db"),
        StoreOptions {
            commit_alone: true,
            ..StoreOptions::default()
        },
        &games,
        n_games,
        plies,
        first,
        "[full, alone]   ",
    )
    .await?;
    let normal = run(
        &sqlite("normal-grouped.db"),
        StoreOptions {
            synchronous: Synchronous::Normal,
            ..StoreOptions::default()
        },
        &games,
        n_games,
        plies,
        first,
        "[normal]        ",
    )
    .await?;
    println!(
        "durable (FULL, group commit) {:.0} moves/s, p99 {:.1} ms; FULL one by one {:.0} moves/s, \
         p99 {:.1} ms; NORMAL {:.0} moves/s, p99 {:.1} ms; durable / NORMAL = {:.2}; \
         group / one by one = {:.1}",
        full.moves_per_s,
        full.p99_ms,
        alone.moves_per_s,
        alone.p99_ms,
        normal.moves_per_s,
        normal.p99_ms,
        full.moves_per_s / normal.moves_per_s,
        full.moves_per_s / alone.moves_per_s,
    );
    Ok(())
}

/// `--pg-compare`: one process, then two at once, with each way of locking; each on a new
/// database of `server`'s cluster (dropped after).
async fn compare_postgres(server: &str, n_games: usize, plies: usize) -> anyhow::Result<()> {
    let mut admin = sqlx::PgConnection::connect(server).await?;
    let base = server
        .rsplit_once('/')
        .map_or(server, |(base, _)| base)
        .to_owned();
    let mut summary = Vec::new();
    for (lock, label) in [
        ("global", "one lock for all"),
        ("rows", "locks of what changes"),
    ] {
        let name = format!("makruk_bench_{}_{lock}", std::process::id());
        admin
            .execute(&*format!("DROP DATABASE IF EXISTS {name}"))
            .await?;
        admin.execute(&*format!("CREATE DATABASE {name}")).await?;
        let url = format!("{base}/{name}");
        let child = |first: u64| {
            tokio::process::Command::new(std::env::current_exe().expect("the bench's own path"))
                .args([
                    n_games.to_string(),
                    plies.to_string(),
                    first.to_string(),
                    "--pg-lock".to_owned(),
                    lock.to_owned(),
                ])
                .env("BENCH_DATABASE_URL", &url)
                .stdout(Stdio::piped())
                .stderr(Stdio::inherit())
                .output()
        };
        let figures_of = |out: std::process::Output, who: &str| -> anyhow::Result<Figures> {
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            for line in text.lines().filter(|l| !l.starts_with("figures:")) {
                println!("[{lock}, {who}] {line}");
            }
            anyhow::ensure!(out.status.success(), "the bench process failed ({who})");
            let line = text
                .lines()
                .find_map(|l| l.strip_prefix("figures: "))
                .context("no figures printed")?;
            let v: Vec<f64> = line.split(' ').map(str::parse).collect::<Result<_, _>>()?;
            Ok(Figures {
                moves_per_s: v[0],
                p50_ms: v[1],
                p99_ms: v[2],
            })
        };
        let one = figures_of(child(0).await?, "one process")?;
        let (a, b) = tokio::join!(child(1_000_000), child(2_000_000));
        let a = figures_of(a?, "two processes, first")?;
        let b = figures_of(b?, "two processes, second")?;
        let two = a.moves_per_s + b.moves_per_s;
        summary.push(format!(
            "{label}: one process {:.0} moves/s (p99 {:.1} ms); two processes {:.0} + {:.0} = \
             {two:.0} moves/s (p99 {:.1} / {:.1} ms); two / one = {:.2}",
            one.moves_per_s,
            one.p99_ms,
            a.moves_per_s,
            b.moves_per_s,
            a.p99_ms,
            b.p99_ms,
            two / one.moves_per_s
        ));
        admin.execute(&*format!("DROP DATABASE {name}")).await?;
    }
    for line in summary {
        println!("{line}");
    }
    Ok(())
}
