//! A local stand-in for Discord: the REST API routes and the gateway websocket that a bot on
//! serenity 0.12 (+ poise 0.6) uses, so the real bot can be driven without discord.com.
//!
//! Used by the bot's end-to-end tests (`tests/e2e*.rs`), its simulator (`examples/simulate.rs`,
//! through [`scenario`]) and its latency measurement (`examples/bot_latency.rs`).
//!
//! What it does, as Discord would:
//! - `GET /api/v10/gateway` gives `ws://…/gateway`; the websocket sends HELLO, answers
//!   IDENTIFY with READY and heartbeats with HEARTBEAT_ACK, and carries INTERACTION_CREATE
//!   dispatches.
//! - Command registration (`PUT …/commands`) is checked against Discord's limits (names, Thai
//!   localisations, descriptions, options, choices).
//! - Threads opened from a message (`POST /channels/{id}/messages/{id}/threads`, checked
//!   against Discord's limits; refused with 50013 when told to, [`Failure::MissingPermissions`])
//!   become channels: the bot posts in them, interactions come from them. Interactions carry the
//!   server's `guild_locale` ([`Standin::set_guild_locale`]).
//! - Interaction callbacks, edits of `@original`, follow-ups and channel messages are kept as
//!   messages of a channel, each visible to everyone or (ephemeral) to one user. Responses are
//!   checked against Discord's limits (one callback per interaction, 3 seconds, content length,
//!   embeds, buttons, attachments referenced by embeds, ≤ 25 autocomplete choices); a violation
//!   is answered with Discord's error and recorded in [`Standin::errors`].
//! - Every payload it sends the bot is first parsed with serenity's own model types, because
//!   serenity silently drops a malformed event.
//! - DMs and group DMs where the app is user-installed ([`Standin::dm`],
//!   [`Standin::group_dm`]) and the DM with the bot ([`Standin::bot_dm`]): interactions shaped
//!   as Discord sends them there (no guild, no member, `context` 2 or 1, a user installation in
//!   `authorizing_integration_owners`), and Discord's rules for an app that is not in the
//!   channel (no channel routes: 50001; at most 5 follow-ups: 40094), for tokens older than 15
//!   minutes ([`Standin::expire_tokens`]: 50027) and for which commands are offered where
//!   ([`Standin::offered`]).
//!
//! # Layout
//! - `rest.rs`: the REST routes; `gateway.rs`: the gateway websocket;
//! - `limits.rs`: Discord's limits and validation rules; `faults.rs`: injected failures
//!   ([`Standin::inject`]);
//! - `model.rs`: what is recorded ([`Message`], [`Interaction`], …) and its JSON, and the
//!   faults a test arms ([`Fault`]); `session.rs`: the gateway's sessions; `state.rs`: the state
//!   shared by the server and the [`Standin`] handle (it imports only those two);
//! - `interact.rs`: driving the bot as users would ([`Standin::command`], [`Standin::click`],
//!   …); `private.rs`: DMs and group DMs, and the rules of a user-installed app there;
//!   `bot.rs`: running a bot against the stand-in ([`Bot`]);
//! - [`scenario`]: scenario files played into a Markdown transcript;
//! - [`control`]: an HTTP API over a [`Standin`] for a driver in another process, served by the
//!   `standin-server` binary (`src/bin/standin-server.rs`), which can outlive the bot.
//!
//! The stand-in knows nothing of the bot's code: the caller starts the bot, given a
//! [`Launch`] (API URL, token, guild and a stop signal).

mod bot;
pub mod control;
mod faults;
mod gateway;
mod interact;
mod limits;
mod model;
mod private;
mod rest;
pub mod scenario;
mod session;
mod state;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tokio::task::JoinHandle;

pub use bot::{Bot, Launch, Stop};
pub use gateway::shard_of;
pub use model::{
    Attachment, Failure, Fault, Interaction, Match, Message, Opt, Outcome, RequestLog, Route,
    Thread, User, MAX_USER_APP_FOLLOWUPS,
};
use state::{Inner, Shared};

/// The application (and bot user) id of the stand-in's bot.
pub const APP_ID: u64 = 1_100_000_000_000_000_001;
/// The bot user's id.
pub const BOT_ID: u64 = 1_100_000_000_000_000_002;
/// The one guild the bot is in.
pub const GUILD_ID: u64 = 1_100_000_000_000_000_003;
/// The token the bot must use.
pub const TOKEN: &str = "standin.bot.token";
/// How long a helper waits for the bot before giving up.
pub const WAIT: Duration = Duration::from_secs(20);

/// The running stand-in. Dropping it stops the server.
pub struct Standin {
    /// `http://127.0.0.1:PORT`: give it to the bot as `DISCORD_API_URL`.
    pub base_url: String,
    shared: Arc<Shared>,
    server: JoinHandle<()>,
}

impl Drop for Standin {
    fn drop(&mut self) {
        self.server.abort();
    }
}

impl Standin {
    /// Starts the stand-in on a free local port.
    ///
    /// # Panics
    /// If no local port can be bound.
    pub async fn start() -> Standin {
        Standin::start_on(0).await.expect("bind a local port")
    }

    /// Starts the stand-in on local port `port` (0: a free one).
    ///
    /// # Errors
    /// If the port cannot be bound.
    pub async fn start_on(port: u16) -> std::io::Result<Standin> {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
        let addr: SocketAddr = listener.local_addr()?;
        let base_url = format!("http://{addr}");
        let shared = Arc::new(Shared::new(base_url.clone()));
        let app = rest::routes()
            .merge(gateway::routes())
            .with_state(Arc::clone(&shared));
        // Without TCP_NODELAY, back-to-back gateway frames wait for delayed ACKs (40 ms).
        let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
            let _ = tcp.set_nodelay(true);
        });
        let server = tokio::spawn(async move {
            if let Err(e) = axum::serve(listener, app).await {
                eprintln!("stand-in server stopped: {e}");
            }
        });
        Ok(Standin {
            base_url,
            shared,
            server,
        })
    }

    /// Protocol violations and unknown routes seen so far (should stay empty).
    pub fn errors(&self) -> Vec<String> {
        self.shared.lock().errors.clone()
    }

    /// The registered commands of `guild` (`None` = global), as the bot sent them (plus ids).
    pub fn commands(&self, guild: Option<u64>) -> Vec<Value> {
        self.shared
            .lock()
            .commands
            .get(&guild)
            .cloned()
            .unwrap_or_default()
    }

    /// Arms `fault`: the next matching REST requests fail as it says (see [`Fault`]).
    pub fn inject(&self, fault: Fault) {
        self.shared.lock().faults.push(fault);
    }

    /// Disarms the faults not yet met and ends running 429s.
    pub fn clear_faults(&self) {
        let mut inner = self.shared.lock();
        inner.faults.clear();
        inner.limits.clear();
    }

    /// The requests to `route` so far, oldest first, with the fault each met.
    pub fn requests(&self, route: Route) -> Vec<RequestLog> {
        self.shared
            .lock()
            .requests
            .iter()
            .filter(|r| r.route == route)
            .cloned()
            .collect()
    }

    /// The threads the bot opened (`POST /channels/{id}/messages/{id}/threads`), oldest first.
    pub fn threads(&self) -> Vec<Thread> {
        self.shared.lock().threads.clone()
    }

    /// Sets the server's preferred locale (a Discord locale code, e.g. `"th"`), sent as
    /// `guild_locale` with every interaction from now on (default `en-US`).
    pub fn set_guild_locale(&self, code: &str) {
        self.shared.lock().guild_locale = Some(code.to_owned());
    }

    /// How many IDENTIFYs the gateway has seen (one per bot start).
    pub fn identifies(&self) -> u32 {
        self.shared.lock().identifies
    }

    /// All messages of `channel` (including ephemeral and deleted ones), oldest first.
    pub fn channel_messages(&self, channel: u64) -> Vec<Message> {
        self.shared
            .lock()
            .messages
            .iter()
            .filter(|m| m.channel_id == channel)
            .cloned()
            .collect()
    }

    /// The messages the bot posted in `channel` of its own accord (not answers to an
    /// interaction: e.g. the computer's moves), oldest first: channel messages, and follow-ups
    /// sent after their interaction was answered ([`Message::after_answer`], the way to post in
    /// a DM the bot is not in).
    pub fn posted_messages(&self, channel: u64) -> Vec<Message> {
        self.shared
            .lock()
            .messages
            .iter()
            .filter(|m| m.channel_id == channel && m.posted())
            .cloned()
            .collect()
    }

    /// Waits until the bot has posted more than `seen` messages of its own accord in `channel`
    /// (see [`Standin::posted_messages`]) and returns the first new one.
    ///
    /// # Panics
    /// After [`WAIT`] without one.
    pub async fn wait_posted(&self, channel: u64, seen: usize) -> Message {
        self.wait_until("a message the bot posts", |inner| {
            inner
                .messages
                .iter()
                .filter(|m| m.channel_id == channel && m.posted())
                .nth(seen)
                .cloned()
        })
        .await
    }

    /// Waits until message `id` has been edited more than `edits` times, and returns it.
    ///
    /// # Panics
    /// After [`WAIT`] without that.
    pub async fn wait_edited(&self, id: u64, edits: u32) -> Message {
        self.wait_until(&format!("an edit of message {id}"), |inner| {
            inner
                .messages
                .iter()
                .find(|m| m.id == id && m.edits > edits)
                .cloned()
        })
        .await
    }

    /// The message with `id`.
    pub fn message(&self, id: u64) -> Option<Message> {
        self.shared
            .lock()
            .messages
            .iter()
            .find(|m| m.id == id)
            .cloned()
    }

    /// Waits until `pred` holds on the stand-in's state, or panics after [`WAIT`].
    async fn wait_until<T>(&self, what: &str, mut pred: impl FnMut(&Inner) -> Option<T>) -> T {
        let mut rx = self.shared.subscribe();
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            if let Some(v) = pred(&self.shared.lock()) {
                return v;
            }
            if tokio::time::timeout_at(deadline, rx.changed())
                .await
                .is_err()
            {
                let errors = self.errors();
                panic!("stand-in: timed out waiting for {what}; errors so far: {errors:?}");
            }
        }
    }

    /// Waits until a bot is connected and has registered its commands `registrations` times
    /// in total.
    ///
    /// # Panics
    /// After [`WAIT`] without that.
    pub async fn wait_ready(&self, registrations: u32) {
        self.wait_until("the bot to connect and register its commands", |inner| {
            (inner.registrations >= registrations).then_some(())
        })
        .await;
        let deadline = tokio::time::Instant::now() + WAIT;
        while !gateway::connected(&self.shared) {
            assert!(tokio::time::Instant::now() < deadline, "no gateway session");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// How many times commands have been registered so far.
    fn registrations(&self) -> u32 {
        self.shared.lock().registrations
    }
}
