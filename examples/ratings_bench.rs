//! Ratings at scale: `players` players and `games` rated games of one server in a SQLite file
//! (the games written straight to the store, the ratings and their history built from them by
//! `recompute`, which is timed too); then the service latency of `/leaderboard` (a random page)
//! and `/stats` (a random player, as the command asks it: rating, rank, record, history), and
//! the time to draw the rating chart of a typical and of the most active player.
//!
//! ```sh
//! cargo run --release --example ratings_bench -- [players=10000] [games=200000] [queries=2000]
//! ```
//!
//! Measured on the 2-core development machine (shared with other builds; see the report in the
//! commit that added it), SQLite file, 10,000 players, 200,000 games: see `README.md`'s
//! ratings figures.

use std::time::Instant;

use makruk_bot::game::{GameService, GuildId, Kind, UserId};
use makruk_bot::render::chart::chart_png;
use rand::Rng as _;

const GUILD: u64 = 42;

fn arg(args: &[String], i: usize, default: u64) -> u64 {
    args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// p50 / p99 / max of `samples` (milliseconds), as text.
fn summary(mut samples: Vec<f64>) -> String {
    samples.sort_by(f64::total_cmp);
    format!(
        "p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        percentile(&samples, 50.0),
        percentile(&samples, 99.0),
        samples.last().copied().unwrap_or(0.0)
    )
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let players = arg(&args, 1, 10_000).max(2) as i64;
    let games = arg(&args, 2, 200_000) as i64;
    let queries = arg(&args, 3, 2_000).max(1) as usize;
    let dir = tempfile::tempdir()?;
    let url = format!("sqlite://{}", dir.path().join("bench.db").display());
    let svc = GameService::open(&url).await?;
    let fen = makruk::Position::start(makruk::Ruleset::Standard).fen();

    // The games: random pairs, a game a minute, results 45% White, 45% Black, 10% draws.
    let started = Instant::now();
    let mut rng = rand::rng();
    let mut tx = svc.store().begin_write().await?;
    for id in 1..=games {
        let white = rng.random_range(0..players);
        let mut black = rng.random_range(0..players - 1);
        if black >= white {
            black += 1;
        }
        let result = match rng.random_range(0..20) {
            0..9 => "1-0",
            9..18 => "0-1",
            _ => "1/2-1/2",
        };
        let reason = if result == "1/2-1/2" {
            "agreement"
        } else {
            "resignation"
        };
        let at = 1_700_000_000 + id * 60;
        sqlx::query(
            "INSERT INTO games (id, channel_id, white_id, black_id, ruleset, start_fen, fen, \
             plies, state, result, end_reason, version, created_at, updated_at, finished_at, \
             guild_id, rated) VALUES ($1, $2, $3, $4, 'standard', $5, $5, 40, 'finished', $6, \
             $7, 41, $8, $8, $8, $9, 1)",
        )
        .bind(id)
        .bind(id % 500)
        .bind(1_000 + white)
        .bind(1_000 + black)
        .bind(&fen)
        .bind(result)
        .bind(reason)
        .bind(at)
        .bind(GUILD as i64)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    println!(
        "{games} games of {players} players stored in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let started = Instant::now();
    let report = svc.recompute_ratings(false).await?;
    println!(
        "recompute: {} games, {} ratings, {} differences (none stored before) in {:.1} s",
        report.games,
        report.ratings,
        report.differences.len(),
        started.elapsed().as_secs_f64()
    );

    let guild = GuildId(GUILD);
    let pages = (players as u32).div_ceil(10);
    let mut leaderboard = Vec::with_capacity(queries);
    for _ in 0..queries {
        let page = rng.random_range(0..pages);
        let t = Instant::now();
        let board = svc
            .leaderboard(guild, makruk::Variant::Makruk, None, page)
            .await?;
        leaderboard.push(t.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(board.entries.len().min(1), 1);
    }
    println!("/leaderboard (random page): {}", summary(leaderboard));
    let mut stats = Vec::with_capacity(queries);
    let mut most: (usize, Vec<f64>) = (0, Vec::new());
    let mut typical = Vec::new();
    for i in 0..queries {
        let user = UserId(1_000 + rng.random_range(0..players) as u64);
        let t = Instant::now();
        let s = svc
            .stats(
                guild,
                user,
                makruk::Variant::Makruk,
                Some(Kind::Correspondence),
            )
            .await;
        stats.push(t.elapsed().as_secs_f64() * 1000.0);
        if let Ok(s) = s {
            if i == 0 {
                typical = s.history.clone();
            }
            if s.history.len() > most.0 {
                most = (s.history.len(), s.history);
            }
        }
    }
    println!("/stats (random player): {}", summary(stats));
    for (name, history) in [("typical", &typical), ("most active", &most.1)] {
        let mut times = Vec::with_capacity(200);
        let mut bytes = 0;
        for _ in 0..200 {
            let t = Instant::now();
            bytes = chart_png(history)?.len();
            times.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        println!(
            "chart of a {name} player ({} games, {bytes} bytes): {}",
            history.len().saturating_sub(1),
            summary(times)
        );
    }
    svc.close().await;
    Ok(())
}
