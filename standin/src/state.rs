//! The stand-in's shared state: what the REST routes and the gateway record, and what the
//! driving side waits on.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::Value;
use tokio::sync::watch;

use crate::model::{
    Fault, Interaction, Message, PrivateChannel, RequestLog, Route, Thread, User, CONTEXT_GUILD,
    DISCORD_EPOCH_MS,
};
use crate::session::Sessions;

/// Everything recorded, behind one lock.
#[derive(Default)]
pub(crate) struct Inner {
    pub(crate) messages: Vec<Message>,
    pub(crate) interactions: Vec<Interaction>,
    /// Registered commands (as stored: with ids), by guild (`None` = global).
    pub(crate) commands: HashMap<Option<u64>, Vec<Value>>,
    pub(crate) registrations: u32,
    pub(crate) identifies: u32,
    pub(crate) errors: Vec<String>,
    pub(crate) users: Vec<User>,
    /// Armed faults, in the order armed ([`crate::Standin::inject`]).
    pub(crate) faults: Vec<Fault>,
    /// 429s running: until when, for a route (`None`: global).
    pub(crate) limits: HashMap<Option<Route>, std::time::Instant>,
    /// Requests to the fault-injectable routes.
    pub(crate) requests: Vec<RequestLog>,
    /// The guild of each channel placed in another guild than [`crate::GUILD_ID`].
    pub(crate) channel_guilds: HashMap<u64, u64>,
    /// The threads the bot opened, oldest first.
    pub(crate) threads: Vec<Thread>,
    /// The server's preferred locale, sent as `guild_locale` (`None`: `en-US`).
    pub(crate) guild_locale: Option<String>,
    /// Members' permissions in every channel where they differ from [`crate::model`]'s default.
    pub(crate) permissions: HashMap<u64, String>,
    /// The DMs and group DMs, by channel id.
    pub(crate) private: HashMap<u64, PrivateChannel>,
}

impl Inner {
    /// The registered command `name` (guild or global).
    pub(crate) fn command(&self, name: &str) -> Option<&Value> {
        self.commands.values().flatten().find(|c| c["name"] == name)
    }

    /// The thread with (channel) id `id`.
    pub(crate) fn thread(&self, id: u64) -> Option<&Thread> {
        self.threads.iter().find(|t| t.id == id)
    }

    /// The guild of `channel`: [`crate::GUILD_ID`] unless placed elsewhere; `None` for a DM or
    /// group DM.
    pub(crate) fn guild_of(&self, channel: u64) -> Option<u64> {
        if self.private.contains_key(&channel) {
            return None;
        }
        Some(
            self.channel_guilds
                .get(&channel)
                .copied()
                .unwrap_or(crate::GUILD_ID),
        )
    }

    /// The interaction context of `channel` (0 GUILD, 1 BOT_DM, 2 PRIVATE_CHANNEL).
    pub(crate) fn context_of(&self, channel: u64) -> u8 {
        self.private
            .get(&channel)
            .map_or(CONTEXT_GUILD, PrivateChannel::context)
    }

    /// Whether `channel` is a DM or group DM the bot is not in (the app only user-installed):
    /// the bot cannot use the channel routes there.
    pub(crate) fn bot_outside(&self, channel: u64) -> bool {
        self.private.get(&channel).is_some_and(|p| !p.with_bot)
    }
}

/// The state shared by the server's handlers and the [`crate::Standin`] handle.
pub(crate) struct Shared {
    inner: Mutex<Inner>,
    /// Bumped on every change, so waiters re-check their condition.
    changed: watch::Sender<u64>,
    /// The gateway's session (the last identified), its connection and the events it was sent.
    session: Mutex<Sessions>,
    /// The gateway's dispatch sequence number.
    seq: AtomicU64,
    counter: AtomicU64,
    /// `http://127.0.0.1:PORT`.
    pub(crate) base_url: String,
}

impl Shared {
    pub(crate) fn new(base_url: String) -> Shared {
        Shared {
            inner: Mutex::new(Inner::default()),
            changed: watch::channel(0).0,
            session: Mutex::new(Sessions::default()),
            seq: AtomicU64::new(0),
            counter: AtomicU64::new(0),
            base_url,
        }
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panicking test thread must not hide the stand-in's state from the others.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn session(&self) -> MutexGuard<'_, Sessions> {
        self.session.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn notify(&self) {
        self.changed.send_modify(|v| *v += 1);
    }

    pub(crate) fn subscribe(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    /// The next gateway sequence number (`s` of a dispatch).
    pub(crate) fn next_seq(&self) -> u64 {
        self.seq.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// A fresh snowflake carrying the current time.
    pub(crate) fn snowflake(&self) -> u64 {
        let ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        ((ms - DISCORD_EPOCH_MS) << 22) | (n & 0x3F_FFFF)
    }

    /// Every guild the bot is in: [`crate::GUILD_ID`] and those channels were placed in.
    pub(crate) fn guilds(&self) -> Vec<u64> {
        let mut guilds: Vec<u64> = self.lock().channel_guilds.values().copied().collect();
        guilds.push(crate::GUILD_ID);
        guilds.sort_unstable();
        guilds.dedup();
        guilds
    }

    /// The guild of `channel` ([`crate::GUILD_ID`] unless placed elsewhere; `None` for a DM or
    /// group DM).
    pub(crate) fn guild_of(&self, channel: u64) -> Option<u64> {
        self.lock().guild_of(channel)
    }

    /// `ws://127.0.0.1:PORT/gateway`.
    pub(crate) fn gateway_url(&self) -> String {
        let ws = self.base_url.replacen("http://", "ws://", 1);
        format!("{ws}/gateway")
    }

    /// Records a violation of Discord's rules (also printed, to show up in a failing test).
    pub(crate) fn error(&self, what: String) {
        eprintln!("stand-in: {what}");
        self.lock().errors.push(what);
        self.notify();
    }
}
