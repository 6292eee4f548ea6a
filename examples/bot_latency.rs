//! Latency of `/move` with its board image: the time from the interaction being sent over the
//! gateway to the bot's callback arriving (what Discord's 3-second rule measures), with many
//! games running at once. The real bot, the local Discord stand-in, a real SQLite file.
//!
//! ```sh
//! cargo run --release --example bot_latency -- [games=50] [plies=40] [think-ms=0] [computer=0]
//! ```
//!
//! Each game is a loop: the player to move sends `/move`, waits for the answer, and (after
//! thinking 0.5–1.5 × `think-ms`) the other player answers. With `think-ms=0` all games play as fast as the bot
//! answers: the worst case. Moves come from a Fairy-Stockfish game of the conformance data
//! (`s1-g182` of `rules/tests/data/games-public.jsonl.gz`, 108 plies).
//!
//! With `computer` > 0, that many games against the computer (level 8, the longest searches)
//! run beside them, each keeping the computer thinking all the time: its player plays `Nd2`,
//! waits for the computer's reply, takes both back, and plays `Nd2` again. The searches run
//! on the bot's engine threads (`ENGINE_THREADS`, default one less than the cores), the rest
//! wait in its queue; only the human games' `/move` latencies are measured.

use std::io::Read as _;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use discord_standin::{Bot, Opt, Standin};
use makruk_bot::app::Config;

fn sans() -> anyhow::Result<Vec<String>> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/rules/tests/data/games-public.jsonl.gz"
    );
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|f| flate2::read::MultiGzDecoder::new(f).read_to_string(&mut text))
        .with_context(|| format!("cannot read {path}"))?;
    let game: serde_json::Value = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|g| g["id"] == "s1-g182")
        .context("game s1-g182 missing")?;
    Ok(game["plies"]
        .as_array()
        .context("plies")?
        .iter()
        .filter_map(|p| p["san"].as_str().map(str::to_owned))
        .collect())
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().context("arguments are numbers"))
        .collect::<anyhow::Result<_>>()?;
    let games = args.first().copied().unwrap_or(50);
    let plies = args.get(1).copied().unwrap_or(40);
    let think = Duration::from_millis(args.get(2).copied().unwrap_or(0) as u64);
    let computer_games = args.get(3).copied().unwrap_or(0);
    let sans = Arc::new(sans()?);
    let plies = plies.min(sans.len());

    let discord = Arc::new(Standin::start().await);
    // LATENCY_DB_DIR=/dev/shm takes the disk (fsync at WAL checkpoints) out of the picture.
    let dir = match std::env::var_os("LATENCY_DB_DIR") {
        Some(base) => tempfile::tempdir_in(base)?,
        None => tempfile::tempdir()?,
    };
    let db = format!("sqlite://{}", dir.path().join("latency.sqlite3").display());
    let bot = Bot::start(&discord, |launch| {
        let mut config = Config::with_token(launch.token);
        config.database_url = db;
        config.api_url = Some(launch.api_url);
        config.guild_id = Some(launch.guild_id);
        makruk_bot::app::run(config, launch.stop)
    })
    .await;

    // Start all games: challenge + accept.
    let mut players = Vec::new();
    for g in 0..games {
        let white = discord.user(&format!("white{g}"), "en-US");
        let black = discord.user(&format!("black{g}"), "en-US");
        let channel = 1_400_000_000_000_000_000 + g as u64;
        let options = discord
            .options(
                "challenge",
                &[("opponent", &format!("@black{g}")), ("color", "white")],
            )
            .map_err(anyhow::Error::msg)?;
        let options: Vec<(&str, Opt)> = options
            .iter()
            .map(|(n, o)| (n.as_str(), o.clone()))
            .collect();
        discord
            .command(&white, channel, "challenge", &options)
            .await;
        discord.click_label(&black, channel, "Accept").await;
        players.push((channel, white, black));
    }

    // The computer games, thinking until the human games are done.
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut computer_tasks = Vec::new();
    for g in 0..computer_games {
        let player = discord.user(&format!("solo{g}"), "en-US");
        let channel = 1_500_000_000_000_000_000 + g as u64;
        let options = discord
            .options("play", &[("level", "8"), ("color", "white")])
            .map_err(anyhow::Error::msg)?;
        let options: Vec<(&str, Opt)> = options
            .iter()
            .map(|(n, o)| (n.as_str(), o.clone()))
            .collect();
        discord.command(&player, channel, "play", &options).await;
        let discord = Arc::clone(&discord);
        let done = Arc::clone(&done);
        computer_tasks.push(tokio::spawn(async move {
            let mut replies = 0usize;
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                let seen = discord.posted_messages(channel).len();
                let mv = [("move", Opt::Str("Nd2".to_owned()))];
                discord.command(&player, channel, "move", &mv).await;
                // The reply may wait behind the other games' searches: poll, without the
                // stand-in's 20 s limit.
                while discord.posted_messages(channel).len() == seen {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                replies += 1;
                discord.command(&player, channel, "takeback", &[]).await;
            }
            replies
        }));
    }

    let started = Instant::now();
    let mut tasks = Vec::new();
    for (channel, white, black) in players {
        let discord = Arc::clone(&discord);
        let sans = Arc::clone(&sans);
        tasks.push(tokio::spawn(async move {
            let mut out = Vec::new();
            // The games did not all start in the same millisecond either.
            if !think.is_zero() {
                let h = channel.wrapping_mul(0xBF58_476D_1CE4_E5B9);
                let factor = (h >> 11) as f64 / (1u64 << 53) as f64;
                tokio::time::sleep(think.mul_f64(factor)).await;
            }
            for (ply, san) in sans.iter().take(plies).enumerate() {
                let player = if ply & 1 == 0 { &white } else { &black };
                let outcome = discord
                    .command(player, channel, "move", &[("move", Opt::Str(san.clone()))])
                    .await;
                let ix = &outcome.interaction;
                let callback = ix.callback.map(|(_, at)| at.duration_since(ix.sent_at));
                let ok = outcome.png().is_some() && !outcome.is_ephemeral();
                out.push((callback, ok));
                if !think.is_zero() {
                    // Players think 0.5–1.5 × think-ms, so the games drift apart.
                    let h = (channel ^ (ply as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
                        .wrapping_mul(0xBF58_476D_1CE4_E5B9);
                    let factor = 0.5 + (h >> 11) as f64 / (1u64 << 53) as f64;
                    tokio::time::sleep(think.mul_f64(factor)).await;
                }
            }
            out
        }));
    }
    let mut latencies = Vec::new();
    let mut failures = 0;
    for t in tasks {
        for (callback, ok) in t.await? {
            if !ok {
                failures += 1;
            }
            if let Some(c) = callback {
                latencies.push(c);
            }
        }
    }
    let wall = started.elapsed();
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut computer_replies = 0;
    for t in computer_tasks {
        computer_replies += t.await?;
    }
    bot.stop().await;
    latencies.sort();
    println!(
        "/move with image, {games} games at once, {plies} plies each, think time {} ms",
        think.as_millis()
    );
    if computer_games > 0 {
        println!(
            "beside {computer_games} games against the computer at level 8: \
             {computer_replies} computer replies"
        );
    }
    println!(
        "{} answers in {:.1} s ({:.0} moves/s), {failures} without a public board",
        latencies.len(),
        wall.as_secs_f64(),
        latencies.len() as f64 / wall.as_secs_f64()
    );
    println!(
        "interaction → callback: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        ms(percentile(&latencies, 50.0)),
        ms(percentile(&latencies, 90.0)),
        ms(percentile(&latencies, 99.0)),
        ms(percentile(&latencies, 100.0)),
    );
    let errors = discord.errors();
    if !errors.is_empty() {
        anyhow::bail!("protocol errors: {errors:#?}");
    }
    Ok(())
}
