//! The Discord stand-in as a process of its own, so that it outlives the bot it serves (the
//! crash test kills and restarts the real bot against one stand-in).
//!
//! ```text
//! standin-server [--port N] [--control-port N] [--state-dir DIR] [--shards N]
//! ```
//!
//! `--port`: the Discord API and gateway (give `http://127.0.0.1:N` to the bot as
//! `DISCORD_API_URL`); `--control-port`: the control API of `discord_standin::control`. Both
//! default to 0, a free port. `--shards`: the gateway's shard count (default 1, see
//! `Standin::set_shards`): several bot processes, each on its own shards. Once both listen, `DIR/standin.json` (default: the working
//! directory) holds `{"api_url", "control_url"}`, written whole (a driver waits for the file).
//! The server runs until it is killed.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{bail, Context as _};
use discord_standin::Standin;

struct Args {
    port: u16,
    control_port: u16,
    state_dir: PathBuf,
    shards: u32,
}

fn args() -> anyhow::Result<Args> {
    let mut args = Args {
        port: 0,
        control_port: 0,
        state_dir: PathBuf::from("."),
        shards: 1,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().with_context(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--port" => args.port = value.parse().context("--port: a port number")?,
            "--control-port" => {
                args.control_port = value.parse().context("--control-port: a port number")?;
            }
            "--state-dir" => args.state_dir = PathBuf::from(value),
            "--shards" => args.shards = value.parse().context("--shards: a number of shards")?,
            other => {
                bail!("unknown option {other} (--port, --control-port, --state-dir, --shards)")
            }
        }
    }
    Ok(args)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let args = args()?;
    let standin = Arc::new(
        Standin::start_on(args.port)
            .await
            .with_context(|| format!("bind port {}", args.port))?,
    );
    standin.set_shards(args.shards);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", args.control_port))
        .await
        .with_context(|| format!("bind control port {}", args.control_port))?;
    let control_url = format!("http://{}", listener.local_addr()?);
    let about = serde_json::json!({"api_url": standin.base_url, "control_url": control_url});
    // Written aside and renamed: a driver never reads half a file.
    std::fs::create_dir_all(&args.state_dir)?;
    let file = args.state_dir.join("standin.json");
    let partial = args.state_dir.join("standin.json.partial");
    std::fs::write(&partial, about.to_string())?;
    std::fs::rename(&partial, &file)?;
    eprintln!(
        "standin-server: API {}, control {control_url}",
        standin.base_url
    );
    axum::serve(listener, discord_standin::control::routes(standin)).await?;
    Ok(())
}
