//! A local stand-in for Discord: the REST API routes and the gateway websocket that the bot
//! (serenity 0.12.5 + poise 0.6) uses, so the real bot can be driven without discord.com.
//!
//! Shared by the end-to-end tests (`tests/e2e*.rs`), the simulator (`examples/simulate.rs`) and
//! the latency measurement (`examples/bot_latency.rs`) via `#[path]`.
//!
//! What it does, as Discord would:
//! - `GET /api/v10/gateway` gives `ws://…/gateway`; the websocket sends HELLO, answers IDENTIFY
//!   with READY and heartbeats with HEARTBEAT_ACK, and carries INTERACTION_CREATE dispatches.
//! - Command registration (`PUT …/commands`) is checked against Discord's limits (names, Thai
//!   localisations, descriptions, options, choices).
//! - Interaction callbacks, edits of `@original`, follow-ups and channel messages are kept as
//!   messages of a channel, each visible to everyone or (ephemeral) to one user. Responses are
//!   checked against Discord's limits (one callback per interaction, 3 seconds, content length,
//!   embeds, buttons, attachments referenced by embeds, ≤ 25 autocomplete choices); a violation
//!   is answered with Discord's error and recorded in [`Standin::errors`].
//! - Every payload it sends the bot is first parsed with serenity's own model types, because
//!   serenity silently drops a malformed event.
#![allow(dead_code)]
// each test binary uses a different part
// Handlers return axum `Response`s as errors, as axum handlers do.
#![allow(clippy::result_large_err)]

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::body::Bytes;
use axum::extract::ws::{Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, FromRequest, Multipart, Path, Request, State};
use axum::http::{header, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, patch, post, put};
use axum::{Json, Router};
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::sync::{mpsc, watch};

use poise::serenity_prelude as serenity;

/// The application (and bot user) id of the stand-in's bot.
pub const APP_ID: u64 = 1_100_000_000_000_000_001;
/// The bot user's id.
pub const BOT_ID: u64 = 1_100_000_000_000_000_002;
/// The one guild the bot is in.
pub const GUILD_ID: u64 = 1_100_000_000_000_000_003;
/// The token the bot must use.
pub const TOKEN: &str = "standin.bot.token";
/// Discord answers an interaction only if the callback comes within 3 seconds.
pub const CALLBACK_DEADLINE: Duration = Duration::from_secs(3);
/// How long a helper waits for the bot before giving up.
pub const WAIT: Duration = Duration::from_secs(20);

const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;

/// A Discord user of the stand-in.
#[derive(Clone, Debug)]
pub struct User {
    pub id: u64,
    pub name: String,
    /// Discord locale code, e.g. `"en-US"` or `"th"`.
    pub locale: String,
    pub bot: bool,
}

impl User {
    /// `<@id>`, as mentions appear in message text.
    pub fn mention(&self) -> String {
        format!("<@{}>", self.id)
    }

    fn json(&self) -> Value {
        json!({
            "id": self.id.to_string(),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": null,
            "bot": self.bot,
        })
    }

    fn member_json(&self, with_user: bool) -> Value {
        let mut m = json!({
            "roles": [],
            "joined_at": "2024-01-01T00:00:00.000000+00:00",
            "deaf": false,
            "mute": false,
            "flags": 0,
            "pending": false,
            "permissions": "2248473465835073",
            "nick": null,
            "avatar": null,
        });
        if with_user {
            m["user"] = self.json();
        }
        m
    }
}

/// An option value of a slash command.
#[derive(Clone, Debug)]
pub enum Opt {
    Str(String),
    Int(i64),
    User(User),
}

/// A file attached to a message.
#[derive(Clone, Debug)]
pub struct Attachment {
    pub filename: String,
    pub bytes: Vec<u8>,
}

/// A message as it stands in a channel.
#[derive(Clone, Debug)]
pub struct Message {
    pub id: u64,
    pub channel_id: u64,
    /// The bot's messages are all we record; `interaction_user` is who triggered it.
    pub interaction_user: Option<u64>,
    pub content: String,
    pub embeds: Vec<Value>,
    pub components: Vec<Value>,
    pub attachments: Vec<Attachment>,
    /// Visible only to this user (an ephemeral interaction response).
    pub ephemeral_for: Option<u64>,
    /// "The bot is thinking…" placeholder of a deferred response, not yet replaced.
    pub thinking: bool,
    pub deleted: bool,
    pub edits: u32,
}

impl Message {
    /// Content, embed titles/descriptions/fields and footers, as one text to search in.
    pub fn text(&self) -> String {
        let mut out = self.content.clone();
        for e in &self.embeds {
            for key in ["title", "description"] {
                if let Some(s) = e.get(key).and_then(Value::as_str) {
                    out.push('\n');
                    out.push_str(s);
                }
            }
            if let Some(fields) = e.get("fields").and_then(Value::as_array) {
                for f in fields {
                    for key in ["name", "value"] {
                        if let Some(s) = f.get(key).and_then(Value::as_str) {
                            out.push('\n');
                            out.push_str(s);
                        }
                    }
                }
            }
            if let Some(s) = e.pointer("/footer/text").and_then(Value::as_str) {
                out.push('\n');
                out.push_str(s);
            }
        }
        out
    }

    /// The buttons: (label, custom_id, disabled).
    pub fn buttons(&self) -> Vec<(String, String, bool)> {
        self.components
            .iter()
            .filter_map(|row| row.get("components").and_then(Value::as_array))
            .flatten()
            .filter(|c| c.get("type").and_then(Value::as_u64) == Some(2))
            .map(|c| {
                (
                    c.get("label")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_owned(),
                    c.get("custom_id")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_owned(),
                    c.get("disabled").and_then(Value::as_bool).unwrap_or(false),
                )
            })
            .collect()
    }

    /// The first PNG attachment.
    pub fn png(&self) -> Option<&[u8]> {
        self.attachments
            .iter()
            .find(|a| a.filename.ends_with(".png"))
            .map(|a| a.bytes.as_slice())
    }

    /// Whether `user` can see this message.
    pub fn visible_to(&self, user: u64) -> bool {
        !self.deleted && self.ephemeral_for.is_none_or(|u| u == user)
    }
}

/// One interaction the stand-in sent, and what the bot did with it.
#[derive(Clone, Debug)]
pub struct Interaction {
    pub id: u64,
    pub token: String,
    /// 2 = command, 3 = component, 4 = autocomplete.
    pub kind: u8,
    pub user: u64,
    pub channel_id: u64,
    /// The message whose button was pressed (kind 3).
    pub component_message: Option<u64>,
    pub sent_at: Instant,
    /// The first callback: its type and when it arrived.
    pub callback: Option<(u8, Instant)>,
    /// When the answer became final (callback, or the deferred answer filled in).
    pub settled_at: Option<Instant>,
    /// The message `@original` refers to.
    pub original: Option<u64>,
    /// Messages created for this interaction (original response, follow-ups), in order.
    pub messages: Vec<u64>,
    /// Autocomplete choices (kind 4): (name, value).
    pub choices: Option<Vec<(String, String)>>,
    /// A deferred answer (callback 5 or 6) not yet filled in.
    pub pending: bool,
}

impl Interaction {
    fn settled(&self) -> bool {
        match self.callback {
            None => false,
            Some((5 | 6, _)) => !self.pending,
            Some(_) => true,
        }
    }
}

/// What came of an interaction, once settled.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub interaction: Interaction,
    /// The messages created or edited by it, as they stand now (deleted ones left out).
    pub messages: Vec<Message>,
}

impl Outcome {
    /// The callback type (4 message, 5 deferred, 6 deferred update, 7 update, 8 autocomplete).
    pub fn callback_type(&self) -> u8 {
        self.interaction.callback.map_or(0, |(t, _)| t)
    }

    /// The main visible message (the last one), if any.
    pub fn message(&self) -> Option<&Message> {
        self.messages.last()
    }

    /// All texts of all messages, joined.
    pub fn text(&self) -> String {
        self.messages
            .iter()
            .map(Message::text)
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// True if every message it produced is ephemeral (visible only to the user).
    pub fn is_ephemeral(&self) -> bool {
        !self.messages.is_empty() && self.messages.iter().all(|m| m.ephemeral_for.is_some())
    }

    /// The first PNG among its messages.
    pub fn png(&self) -> Option<&[u8]> {
        self.messages.iter().find_map(Message::png)
    }

    /// Autocomplete choice names.
    pub fn choice_names(&self) -> Vec<String> {
        self.interaction
            .choices
            .iter()
            .flatten()
            .map(|(n, _)| n.clone())
            .collect()
    }
}

#[derive(Default)]
struct Inner {
    messages: Vec<Message>,
    interactions: Vec<Interaction>,
    /// Registered commands (as stored: with ids), by guild (`None` = global).
    commands: HashMap<Option<u64>, Vec<Value>>,
    registrations: u32,
    identifies: u32,
    errors: Vec<String>,
    users: Vec<User>,
}

struct Shared {
    inner: Mutex<Inner>,
    changed: watch::Sender<u64>,
    session: Mutex<Option<mpsc::UnboundedSender<String>>>,
    seq: AtomicU64,
    counter: AtomicU64,
    base_url: String,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panicking test thread must not hide the stand-in's state from the others.
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn notify(&self) {
        self.changed.send_modify(|v| *v += 1);
    }

    /// A fresh snowflake carrying the current time.
    fn snowflake(&self) -> u64 {
        let ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        ((ms - DISCORD_EPOCH_MS) << 22) | (n & 0x3F_FFFF)
    }

    fn error(&self, what: String) {
        eprintln!("stand-in: {what}");
        self.lock().errors.push(what);
        self.notify();
    }
}

/// The running stand-in. Dropping it stops the server.
pub struct Standin {
    /// `http://127.0.0.1:PORT`: give it to the bot as `DISCORD_API_URL`.
    pub base_url: String,
    shared: Arc<Shared>,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for Standin {
    fn drop(&mut self) {
        self.server.abort();
    }
}

fn discord_error(status: StatusCode, code: u32, message: &str) -> Response {
    (status, Json(json!({ "code": code, "message": message }))).into_response()
}

impl Standin {
    /// Starts the stand-in on a free local port.
    ///
    /// # Panics
    /// If no local port can be bound.
    pub async fn start() -> Standin {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind a local port");
        let addr: SocketAddr = listener.local_addr().expect("local address");
        let base_url = format!("http://{addr}");
        let (changed, _) = watch::channel(0);
        let shared = Arc::new(Shared {
            inner: Mutex::new(Inner::default()),
            changed,
            session: Mutex::new(None),
            seq: AtomicU64::new(0),
            counter: AtomicU64::new(0),
            base_url: base_url.clone(),
        });
        let app = Router::new()
            .route("/api/v10/gateway", get(gateway_url))
            .route("/api/v10/gateway/bot", get(gateway_bot_url))
            .route("/gateway", get(gateway_ws))
            .route("/api/v10/users/@me", get(current_user))
            .route(
                "/api/v10/applications/{app}/commands",
                put(put_global_commands).get(get_global_commands),
            )
            .route(
                "/api/v10/applications/{app}/guilds/{guild}/commands",
                put(put_guild_commands).get(get_guild_commands),
            )
            .route(
                "/api/v10/interactions/{id}/{token}/callback",
                post(callback),
            )
            .route("/api/v10/webhooks/{app}/{token}", post(followup))
            .route(
                "/api/v10/webhooks/{app}/{token}/messages/{message}",
                patch(edit_webhook_message)
                    .get(get_webhook_message)
                    .delete(delete_webhook_message),
            )
            .route(
                "/api/v10/channels/{channel}/messages",
                post(channel_message),
            )
            .fallback(any(unknown_route))
            .layer(DefaultBodyLimit::max(25 * 1024 * 1024))
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
        Standin {
            base_url,
            shared,
            server,
        }
    }

    /// Adds a user (ids are deterministic in the order users are added).
    pub fn user(&self, name: &str, locale: &str) -> User {
        let mut inner = self.shared.lock();
        let user = User {
            id: 1_200_000_000_000_000_000 + inner.users.len() as u64 + 1,
            name: name.to_owned(),
            locale: locale.to_owned(),
            bot: false,
        };
        inner.users.push(user.clone());
        user
    }

    /// The bot itself, as a user others can mention.
    pub fn bot_user(&self) -> User {
        User {
            id: BOT_ID,
            name: "Makruk".to_owned(),
            locale: "en-US".to_owned(),
            bot: true,
        }
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

    /// The message with `id`.
    pub fn message(&self, id: u64) -> Option<Message> {
        self.shared
            .lock()
            .messages
            .iter()
            .find(|m| m.id == id)
            .cloned()
    }

    /// All interactions sent so far.
    pub fn interactions(&self) -> Vec<Interaction> {
        self.shared.lock().interactions.clone()
    }

    /// Waits until `pred` holds on the stand-in's state, or panics after [`WAIT`].
    async fn wait_until<T>(&self, what: &str, mut pred: impl FnMut(&Inner) -> Option<T>) -> T {
        let mut rx = self.shared.changed.subscribe();
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

    /// Waits until a bot is connected and has registered its commands `n` times in total.
    pub async fn wait_ready(&self, registrations: u32) {
        self.wait_until("the bot to connect and register its commands", |inner| {
            (inner.registrations >= registrations).then_some(())
        })
        .await;
        let deadline = tokio::time::Instant::now() + WAIT;
        while self
            .shared
            .session
            .lock()
            .map(|s| s.is_none())
            .unwrap_or(true)
        {
            assert!(tokio::time::Instant::now() < deadline, "no gateway session");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    fn base_interaction(&self, kind: u8, user: &User, channel: u64) -> (u64, String, Value) {
        let id = self.shared.snowflake();
        let token = format!("itoken-{id}");
        let payload = json!({
            "id": id.to_string(),
            "application_id": APP_ID.to_string(),
            "type": kind,
            "token": token,
            "version": 1,
            "guild_id": GUILD_ID.to_string(),
            "channel_id": channel.to_string(),
            "channel": {
                "id": channel.to_string(),
                "type": 0,
                "guild_id": GUILD_ID.to_string(),
                "name": format!("channel-{channel}"),
                "position": 0,
                "permission_overwrites": [],
                "nsfw": false,
                "permissions": "2248473465835073",
                "flags": 0,
            },
            "member": user.member_json(true),
            "locale": user.locale,
            "guild_locale": "en-US",
            "app_permissions": "2248473465835073",
            "entitlements": [],
            "authorizing_integration_owners": { "0": GUILD_ID.to_string() },
            "context": 0,
            "attachment_size_limit": 26_214_400,
        });
        (id, token, payload)
    }

    fn command_data(&self, name: &str, options: &[(&str, Opt)], focused: Option<&str>) -> Value {
        let command_id = self
            .shared
            .lock()
            .commands
            .values()
            .flatten()
            .find(|c| c["name"] == name)
            .and_then(|c| c["id"].as_str().map(str::to_owned))
            .unwrap_or_else(|| "1".to_owned());
        let mut users = serde_json::Map::new();
        let mut members = serde_json::Map::new();
        let opts: Vec<Value> = options
            .iter()
            .map(|(n, v)| {
                let mut o = match v {
                    Opt::Str(s) => json!({"name": n, "type": 3, "value": s}),
                    Opt::Int(i) => json!({"name": n, "type": 4, "value": i}),
                    Opt::User(u) => {
                        users.insert(u.id.to_string(), u.json());
                        members.insert(u.id.to_string(), u.member_json(false));
                        json!({"name": n, "type": 6, "value": u.id.to_string()})
                    }
                };
                if focused == Some(*n) {
                    o["focused"] = json!(true);
                }
                o
            })
            .collect();
        let mut data = json!({
            "id": command_id,
            "name": name,
            "type": 1,
            "options": opts,
            "guild_id": GUILD_ID.to_string(),
        });
        if !users.is_empty() {
            data["resolved"] = json!({"users": users, "members": members});
        }
        data
    }

    /// Sends one interaction over the gateway (after checking that serenity can read it) and
    /// records it. Returns its token.
    fn dispatch_interaction(&self, interaction: Interaction, payload: Value) -> String {
        let parsed: serenity::Interaction = match serde_json::from_value(payload.clone()) {
            Ok(i) => i,
            Err(e) => {
                panic!("stand-in built an interaction serenity cannot read: {e}\n{payload:#}")
            }
        };
        // Without `member` serenity would silently use a default user.
        let user_ok = match &parsed {
            serenity::Interaction::Command(c) | serenity::Interaction::Autocomplete(c) => {
                c.user.id.get() == interaction.user && c.member.is_some()
            }
            serenity::Interaction::Component(c) => {
                c.user.id.get() == interaction.user && c.member.is_some()
            }
            _ => false,
        };
        assert!(user_ok, "stand-in interaction lost its user: {payload:#}");
        let token = interaction.token.clone();
        let frame = json!({
            "op": 0,
            "s": self.shared.seq.fetch_add(1, Ordering::Relaxed) + 1,
            "t": "INTERACTION_CREATE",
            "d": payload,
        })
        .to_string();
        self.shared.lock().interactions.push(interaction);
        self.shared.notify();
        let sent = self
            .shared
            .session
            .lock()
            .ok()
            .and_then(|s| s.as_ref().map(|tx| tx.send(frame).is_ok()))
            .unwrap_or(false);
        assert!(sent, "stand-in: no bot connected to the gateway");
        token
    }

    fn new_interaction(
        &self,
        id: u64,
        token: String,
        kind: u8,
        user: &User,
        channel: u64,
    ) -> Interaction {
        Interaction {
            id,
            token,
            kind,
            user: user.id,
            channel_id: channel,
            component_message: None,
            sent_at: Instant::now(),
            callback: None,
            settled_at: None,
            original: None,
            messages: Vec::new(),
            choices: None,
            pending: false,
        }
    }

    /// The user added under `name` (a leading `@` is ignored).
    pub fn user_named(&self, name: &str) -> Option<User> {
        let name = name.trim_start_matches('@');
        self.shared
            .lock()
            .users
            .iter()
            .find(|u| u.name.eq_ignore_ascii_case(name))
            .cloned()
    }

    /// Reads option values written as text (`color:white`, `opponent:@bob`, `game:3`) the way
    /// Discord's client would send them, using the registered command: a choice's name (or its
    /// localised name) becomes its value, a user option names a user added with [`Standin::user`].
    ///
    /// # Errors
    /// An unknown command, option, choice or user.
    pub fn options(
        &self,
        command: &str,
        text: &[(&str, &str)],
    ) -> Result<Vec<(String, Opt)>, String> {
        let registered = self
            .shared
            .lock()
            .commands
            .values()
            .flatten()
            .find(|c| c["name"] == command)
            .cloned()
            .ok_or_else(|| format!("no command /{command}"))?;
        let schema = registered["options"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let mut out = Vec::new();
        for (name, value) in text {
            let option = schema
                .iter()
                .find(|o| o["name"] == *name)
                .ok_or_else(|| format!("/{command} has no option {name}"))?;
            let opt =
                if let Some(choices) = option["choices"].as_array().filter(|c| !c.is_empty()) {
                    let choice = choices
                        .iter()
                        .find(|c| {
                            c["name"]
                                .as_str()
                                .is_some_and(|n| n.eq_ignore_ascii_case(value))
                                || c["name_localizations"]
                                    .as_object()
                                    .is_some_and(|m| m.values().any(|n| n == value))
                        })
                        .ok_or_else(|| format!("/{command} {name}: no choice {value:?}"))?;
                    match &choice["value"] {
                        Value::Number(n) => Opt::Int(n.as_i64().unwrap_or(0)),
                        v => Opt::Str(v.as_str().unwrap_or("").to_owned()),
                    }
                } else {
                    match option["type"].as_u64() {
                        Some(4) => Opt::Int(value.parse().map_err(|_| {
                            format!("/{command} {name}: {value:?} is not a number")
                        })?),
                        Some(6) => {
                            let user =
                                if value.trim_start_matches('@').eq_ignore_ascii_case("makruk") {
                                    self.bot_user()
                                } else {
                                    self.user_named(value)
                                        .ok_or_else(|| format!("no user {value:?}"))?
                                };
                            Opt::User(user)
                        }
                        _ => Opt::Str((*value).to_owned()),
                    }
                };
            out.push(((*name).to_owned(), opt));
        }
        Ok(out)
    }

    /// Runs `/command` with options written as text (see [`Standin::options`]).
    ///
    /// # Panics
    /// If the options cannot be read.
    pub async fn run(
        &self,
        user: &User,
        channel: u64,
        command: &str,
        text: &[(&str, &str)],
    ) -> Outcome {
        let options = self
            .options(command, text)
            .unwrap_or_else(|e| panic!("{e}"));
        let options: Vec<(&str, Opt)> = options
            .iter()
            .map(|(n, o)| (n.as_str(), o.clone()))
            .collect();
        self.command(user, channel, command, &options).await
    }

    /// Sends the slash command `/name options…` from `user` in `channel`; returns its token.
    pub fn send_command(
        &self,
        user: &User,
        channel: u64,
        name: &str,
        options: &[(&str, Opt)],
    ) -> String {
        let (id, token, mut payload) = self.base_interaction(2, user, channel);
        payload["data"] = self.command_data(name, options, None);
        let interaction = self.new_interaction(id, token, 2, user, channel);
        self.dispatch_interaction(interaction, payload)
    }

    /// Runs the slash command and waits until its answer is final.
    pub async fn command(
        &self,
        user: &User,
        channel: u64,
        name: &str,
        options: &[(&str, Opt)],
    ) -> Outcome {
        let token = self.send_command(user, channel, name, options);
        self.settled(&token).await
    }

    /// Asks for autocomplete of option `focused` of `/name` and returns the choices' names.
    pub async fn autocomplete(
        &self,
        user: &User,
        channel: u64,
        name: &str,
        options: &[(&str, Opt)],
        focused: &str,
    ) -> Outcome {
        let (id, token, mut payload) = self.base_interaction(4, user, channel);
        payload["data"] = self.command_data(name, options, Some(focused));
        let interaction = self.new_interaction(id, token, 4, user, channel);
        let token = self.dispatch_interaction(interaction, payload);
        self.settled(&token).await
    }

    /// Sends a press of the button `custom_id` on message `message_id` by `user`.
    pub fn send_click(&self, user: &User, message_id: u64, custom_id: &str) -> String {
        let message = self
            .message(message_id)
            .unwrap_or_else(|| panic!("no message {message_id}"));
        let (id, token, mut payload) = self.base_interaction(3, user, message.channel_id);
        payload["data"] = json!({ "custom_id": custom_id, "component_type": 2 });
        payload["message"] = message_json(&message);
        let mut interaction = self.new_interaction(id, token, 3, user, message.channel_id);
        interaction.component_message = Some(message_id);
        interaction.original = Some(message_id);
        self.dispatch_interaction(interaction, payload)
    }

    /// Presses the button `custom_id` of message `message_id` and waits for the answer.
    pub async fn click(&self, user: &User, message_id: u64, custom_id: &str) -> Outcome {
        let token = self.send_click(user, message_id, custom_id);
        self.settled(&token).await
    }

    /// The newest message in `channel` visible to `user` with a button labelled `label`:
    /// (message id, custom id).
    pub fn find_button(&self, channel: u64, user: &User, label: &str) -> Option<(u64, String)> {
        let inner = self.shared.lock();
        inner
            .messages
            .iter()
            .rev()
            .filter(|m| m.channel_id == channel && m.visible_to(user.id))
            .find_map(|m| {
                m.buttons()
                    .into_iter()
                    .find(|(l, _, disabled)| !disabled && l.eq_ignore_ascii_case(label))
                    .map(|(_, id, _)| (m.id, id))
            })
    }

    /// Presses the newest enabled button labelled `label` in `channel`.
    ///
    /// # Panics
    /// If there is no such button.
    pub async fn click_label(&self, user: &User, channel: u64, label: &str) -> Outcome {
        let (message, custom_id) = self
            .find_button(channel, user, label)
            .unwrap_or_else(|| panic!("no button {label:?} in channel {channel}"));
        self.click(user, message, &custom_id).await
    }

    /// Waits until the interaction with `token` is answered for good, and returns what came of it.
    pub async fn settled(&self, token: &str) -> Outcome {
        let interaction = self
            .wait_until(&format!("an answer to interaction {token}"), |inner| {
                inner
                    .interactions
                    .iter()
                    .find(|i| i.token == token && i.settled())
                    .cloned()
            })
            .await;
        let inner = self.shared.lock();
        let messages = interaction
            .messages
            .iter()
            .filter_map(|id| inner.messages.iter().find(|m| m.id == *id && !m.deleted))
            .cloned()
            .collect();
        Outcome {
            interaction,
            messages,
        }
    }
}

// ---------- REST ----------

async fn gateway_url(State(s): State<Arc<Shared>>) -> Json<Value> {
    let ws = s.base_url.replacen("http://", "ws://", 1);
    Json(json!({ "url": format!("{ws}/gateway") }))
}

async fn gateway_bot_url(State(s): State<Arc<Shared>>) -> Json<Value> {
    let ws = s.base_url.replacen("http://", "ws://", 1);
    Json(json!({
        "url": format!("{ws}/gateway"),
        "shards": 1,
        "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1},
    }))
}

fn bot_user_json() -> Value {
    json!({
        "id": BOT_ID.to_string(),
        "username": "Makruk",
        "global_name": "Makruk",
        "discriminator": "0",
        "avatar": null,
        "bot": true,
        "verified": true,
        "mfa_enabled": false,
        "flags": 0,
    })
}

async fn current_user() -> Json<Value> {
    Json(bot_user_json())
}

async fn unknown_route(State(s): State<Arc<Shared>>, method: Method, uri: Uri) -> Response {
    s.error(format!("unknown route {method} {uri}"));
    discord_error(StatusCode::NOT_FOUND, 0, "404: Not Found")
}

fn check_auth(s: &Shared, headers: &axum::http::HeaderMap) -> Result<(), Response> {
    let auth = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if auth == format!("Bot {TOKEN}") {
        Ok(())
    } else {
        s.error("request without the bot token".to_owned());
        Err(discord_error(
            StatusCode::UNAUTHORIZED,
            0,
            "401: Unauthorized",
        ))
    }
}

/// Discord's command and option name rule: `^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$`,
/// lower case where the script has case.
fn valid_name(name: &str) -> bool {
    let n = name.chars().count();
    (1..=32).contains(&n)
        && name.chars().all(|c| {
            (c == '-'
                || c == '_'
                || c.is_alphanumeric()
                || ('\u{0E00}'..='\u{0E7F}').contains(&c)
                || ('\u{0900}'..='\u{097F}').contains(&c))
                && !c.is_uppercase()
        })
}

const DISCORD_LOCALES: &[&str] = &[
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
    "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th",
    "zh-CN", "ja", "zh-TW", "ko",
];

fn check_localizations(
    what: &str,
    value: &Value,
    max: usize,
    is_name: bool,
    problems: &mut Vec<String>,
) {
    let Some(map) = value.as_object() else {
        return;
    };
    for (locale, text) in map {
        if !DISCORD_LOCALES.contains(&locale.as_str()) {
            problems.push(format!("{what}: unknown locale {locale}"));
        }
        let text = text.as_str().unwrap_or("");
        let len = text.chars().count();
        if is_name && !valid_name(text) {
            problems.push(format!(
                "{what}: invalid localised name {text:?} ({locale})"
            ));
        }
        if len == 0 || len > max {
            problems.push(format!(
                "{what}: localisation {locale} has {len} characters"
            ));
        }
    }
}

/// Checks one command as Discord would (CHAT_INPUT commands).
fn check_command(c: &Value, problems: &mut Vec<String>) {
    let name = c["name"].as_str().unwrap_or("");
    if !valid_name(name) {
        problems.push(format!("invalid command name {name:?}"));
    }
    let desc = c["description"].as_str().unwrap_or("");
    if desc.is_empty() || desc.chars().count() > 100 {
        problems.push(format!("/{name}: description must be 1-100 characters"));
    }
    check_localizations(
        &format!("/{name}"),
        &c["name_localizations"],
        32,
        true,
        problems,
    );
    check_localizations(
        &format!("/{name} description"),
        &c["description_localizations"],
        100,
        false,
        problems,
    );
    let options = c["options"].as_array().cloned().unwrap_or_default();
    if options.len() > 25 {
        problems.push(format!("/{name}: more than 25 options"));
    }
    let mut seen_optional = false;
    for o in &options {
        let oname = o["name"].as_str().unwrap_or("");
        let what = format!("/{name} {oname}");
        if !valid_name(oname) {
            problems.push(format!("{what}: invalid option name"));
        }
        let odesc = o["description"].as_str().unwrap_or("");
        if odesc.is_empty() || odesc.chars().count() > 100 {
            problems.push(format!("{what}: description must be 1-100 characters"));
        }
        check_localizations(&what, &o["name_localizations"], 32, true, problems);
        check_localizations(&what, &o["description_localizations"], 100, false, problems);
        let required = o["required"].as_bool().unwrap_or(false);
        if required && seen_optional {
            problems.push(format!("{what}: required option after an optional one"));
        }
        seen_optional |= !required;
        let choices = o["choices"].as_array().cloned().unwrap_or_default();
        if choices.len() > 25 {
            problems.push(format!("{what}: more than 25 choices"));
        }
        if !choices.is_empty() && o["autocomplete"].as_bool() == Some(true) {
            problems.push(format!("{what}: choices and autocomplete together"));
        }
        for ch in &choices {
            let cname = ch["name"].as_str().unwrap_or("");
            if cname.is_empty() || cname.chars().count() > 100 {
                problems.push(format!("{what}: choice name must be 1-100 characters"));
            }
            check_localizations(&what, &ch["name_localizations"], 100, false, problems);
        }
    }
}

fn register(s: &Shared, guild: Option<u64>, body: Value) -> Response {
    let Some(list) = body.as_array() else {
        s.error("command registration is not a list".to_owned());
        return discord_error(StatusCode::BAD_REQUEST, 50035, "Invalid Form Body");
    };
    let mut problems = Vec::new();
    if list.len() > 100 {
        problems.push("more than 100 commands".to_owned());
    }
    for c in list {
        check_command(c, &mut problems);
    }
    if !problems.is_empty() {
        s.error(format!("command registration refused: {problems:?}"));
        return discord_error(StatusCode::BAD_REQUEST, 50035, "Invalid Form Body");
    }
    let stored: Vec<Value> = list
        .iter()
        .map(|c| {
            let mut c = c.clone();
            c["id"] = json!(s.snowflake().to_string());
            c["application_id"] = json!(APP_ID.to_string());
            c["version"] = json!(s.snowflake().to_string());
            if c.get("type").is_none() {
                c["type"] = json!(1);
            }
            if let Some(g) = guild {
                c["guild_id"] = json!(g.to_string());
            }
            if c.get("default_member_permissions").is_none() {
                c["default_member_permissions"] = Value::Null;
            }
            c
        })
        .collect();
    for c in &stored {
        if let Err(e) = serde_json::from_value::<serenity::Command>(c.clone()) {
            s.error(format!(
                "stand-in built a command serenity cannot read: {e}"
            ));
        }
    }
    {
        let mut inner = s.lock();
        inner.commands.insert(guild, stored.clone());
        inner.registrations += 1;
    }
    s.notify();
    Json(Value::Array(stored)).into_response()
}

async fn put_global_commands(
    State(s): State<Arc<Shared>>,
    Path(app): Path<String>,
    headers: axum::http::HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if let Err(r) = check_auth(&s, &headers) {
        return r;
    }
    if app != APP_ID.to_string() {
        s.error(format!("commands registered for unknown application {app}"));
        return discord_error(StatusCode::NOT_FOUND, 10002, "Unknown Application");
    }
    register(&s, None, body)
}

async fn get_global_commands(State(s): State<Arc<Shared>>) -> Json<Value> {
    Json(Value::Array(
        s.lock().commands.get(&None).cloned().unwrap_or_default(),
    ))
}

async fn put_guild_commands(
    State(s): State<Arc<Shared>>,
    Path((app, guild)): Path<(String, String)>,
    headers: axum::http::HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if let Err(r) = check_auth(&s, &headers) {
        return r;
    }
    if app != APP_ID.to_string() || guild != GUILD_ID.to_string() {
        s.error(format!(
            "commands registered for unknown app/guild {app}/{guild}"
        ));
        return discord_error(StatusCode::NOT_FOUND, 10004, "Unknown Guild");
    }
    register(&s, Some(GUILD_ID), body)
}

async fn get_guild_commands(State(s): State<Arc<Shared>>) -> Json<Value> {
    Json(Value::Array(
        s.lock()
            .commands
            .get(&Some(GUILD_ID))
            .cloned()
            .unwrap_or_default(),
    ))
}

/// A JSON or multipart (`payload_json` + `files[n]`) body.
struct Body {
    json: Value,
    files: HashMap<u64, Attachment>,
}

async fn read_body(s: &Shared, req: Request) -> Result<Body, Response> {
    let is_multipart = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    let bad = |what: String| {
        s.error(what);
        discord_error(StatusCode::BAD_REQUEST, 50035, "Invalid Form Body")
    };
    if !is_multipart {
        let bytes = Bytes::from_request(req, &())
            .await
            .map_err(|e| bad(format!("unreadable body: {e}")))?;
        let json = if bytes.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&bytes).map_err(|e| bad(format!("body is not JSON: {e}")))?
        };
        return Ok(Body {
            json,
            files: HashMap::new(),
        });
    }
    let mut multipart = Multipart::from_request(req, &())
        .await
        .map_err(|e| bad(format!("bad multipart: {e}")))?;
    let mut json = Value::Null;
    let mut files = HashMap::new();
    while let Some(field) = multipart
        .next_field()
        .await
        .map_err(|e| bad(format!("bad multipart field: {e}")))?
    {
        let name = field.name().unwrap_or("").to_owned();
        if name == "payload_json" {
            let text = field
                .text()
                .await
                .map_err(|e| bad(format!("bad payload_json: {e}")))?;
            json = serde_json::from_str(&text).map_err(|e| bad(format!("payload_json: {e}")))?;
        } else if let Some(n) = name
            .strip_prefix("files[")
            .and_then(|r| r.strip_suffix(']'))
            .and_then(|n| n.parse::<u64>().ok())
        {
            let filename = field.file_name().unwrap_or("").to_owned();
            let bytes = field
                .bytes()
                .await
                .map_err(|e| bad(format!("bad file part: {e}")))?;
            files.insert(
                n,
                Attachment {
                    filename,
                    bytes: bytes.to_vec(),
                },
            );
        } else {
            return Err(bad(format!("unexpected multipart field {name:?}")));
        }
    }
    Ok(Body { json, files })
}

/// Message content as the bot sent it, checked against Discord's limits.
struct Draft {
    content: Option<String>,
    embeds: Option<Vec<Value>>,
    components: Option<Vec<Value>>,
    /// New files (from `files[n]`), and whether the payload replaces the attachment list.
    attachments: Option<Vec<Attachment>>,
    ephemeral: bool,
}

fn check_components(rows: &[Value], problems: &mut Vec<String>) {
    if rows.len() > 5 {
        problems.push("more than 5 action rows".to_owned());
    }
    for row in rows {
        if row["type"] != 1 {
            problems.push("a top-level component is not an action row".to_owned());
        }
        let items = row["components"].as_array().cloned().unwrap_or_default();
        if items.is_empty() || items.len() > 5 {
            problems.push("an action row needs 1-5 components".to_owned());
        }
        for b in items {
            let label = b["label"].as_str().unwrap_or("");
            if label.chars().count() > 80 {
                problems.push("button label over 80 characters".to_owned());
            }
            let style = b["style"].as_u64().unwrap_or(0);
            let custom_id = b["custom_id"].as_str().unwrap_or("");
            if style != 5 && (custom_id.is_empty() || custom_id.len() > 100) {
                problems.push("button custom_id must be 1-100 characters".to_owned());
            }
        }
    }
}

fn check_embeds(embeds: &[Value], problems: &mut Vec<String>) {
    if embeds.len() > 10 {
        problems.push("more than 10 embeds".to_owned());
    }
    let mut total = 0;
    for e in embeds {
        let len = |p: &str| {
            e.pointer(p)
                .and_then(Value::as_str)
                .map_or(0, |s| s.chars().count())
        };
        if len("/title") > 256 {
            problems.push("embed title over 256 characters".to_owned());
        }
        if len("/description") > 4096 {
            problems.push("embed description over 4096 characters".to_owned());
        }
        if len("/footer/text") > 2048 {
            problems.push("embed footer over 2048 characters".to_owned());
        }
        total += len("/title") + len("/description") + len("/footer/text");
        let fields = e["fields"].as_array().cloned().unwrap_or_default();
        if fields.len() > 25 {
            problems.push("more than 25 embed fields".to_owned());
        }
        for f in fields {
            let n = f["name"].as_str().map_or(0, |s| s.chars().count());
            let v = f["value"].as_str().map_or(0, |s| s.chars().count());
            if n == 0 || n > 256 || v == 0 || v > 1024 {
                problems.push("embed field name 1-256 / value 1-1024 characters".to_owned());
            }
            total += n + v;
        }
    }
    if total > 6000 {
        problems.push("embeds over 6000 characters in total".to_owned());
    }
}

fn draft(body: &Body, problems: &mut Vec<String>) -> Draft {
    let d = &body.json;
    let content = d.get("content").and_then(Value::as_str).map(str::to_owned);
    if let Some(c) = &content {
        if c.chars().count() > 2000 {
            problems.push(format!(
                "content over 2000 characters ({})",
                c.chars().count()
            ));
        }
    }
    let embeds = d.get("embeds").and_then(Value::as_array).cloned();
    if let Some(e) = &embeds {
        check_embeds(e, problems);
    }
    let components = d.get("components").and_then(Value::as_array).cloned();
    if let Some(c) = &components {
        check_components(c, problems);
    }
    let attachments = if body.files.is_empty() && d.get("attachments").is_none() {
        None
    } else {
        let mut files: Vec<(u64, Attachment)> =
            body.files.iter().map(|(k, v)| (*k, v.clone())).collect();
        files.sort_by_key(|(k, _)| *k);
        Some(files.into_iter().map(|(_, a)| a).collect::<Vec<_>>())
    };
    // An embed image `attachment://x.png` must name an uploaded file.
    for e in embeds.iter().flatten() {
        if let Some(url) = e.pointer("/image/url").and_then(Value::as_str) {
            if let Some(name) = url.strip_prefix("attachment://") {
                let known = attachments.iter().flatten().any(|a| a.filename == name);
                if !known {
                    problems.push(format!("embed image {url} names no attached file"));
                }
            }
        }
    }
    let flags = d.get("flags").and_then(Value::as_u64).unwrap_or(0);
    Draft {
        content,
        embeds,
        components,
        attachments,
        ephemeral: flags & 64 != 0,
    }
}

fn apply(m: &mut Message, d: Draft) {
    if let Some(c) = d.content {
        m.content = c;
    }
    if let Some(e) = d.embeds {
        m.embeds = e;
    }
    if let Some(c) = d.components {
        m.components = c;
    }
    if let Some(a) = d.attachments {
        m.attachments = a;
    }
}

fn is_empty_message(m: &Message) -> bool {
    m.content.is_empty()
        && m.embeds.is_empty()
        && m.attachments.is_empty()
        && m.components.is_empty()
}

/// The serenity-readable JSON of a message (also checks that it is one).
fn message_json(m: &Message) -> Value {
    let ts = |id: u64| {
        let ms = (id >> 22) + DISCORD_EPOCH_MS;
        let secs = i64::try_from(ms / 1000).unwrap_or(0);
        serenity::Timestamp::from_unix_timestamp(secs)
            .map(|t| t.to_string())
            .unwrap_or_else(|_| "2025-01-01T00:00:00Z".to_owned())
    };
    let attachments: Vec<Value> = m
        .attachments
        .iter()
        .enumerate()
        .map(|(i, a)| {
            json!({
                "id": (m.id + 1 + i as u64).to_string(),
                "filename": a.filename,
                "size": a.bytes.len(),
                "url": format!("https://cdn.discordapp.com/attachments/{}/{}/{}", m.channel_id, m.id, a.filename),
                "proxy_url": format!("https://media.discordapp.net/attachments/{}/{}/{}", m.channel_id, m.id, a.filename),
                "content_type": if a.filename.ends_with(".png") { "image/png" } else { "text/plain" },
            })
        })
        .collect();
    let v = json!({
        "id": m.id.to_string(),
        "channel_id": m.channel_id.to_string(),
        "guild_id": GUILD_ID.to_string(),
        "author": bot_user_json(),
        "content": m.content,
        "timestamp": ts(m.id),
        "edited_timestamp": if m.edits > 0 { json!(ts(m.id)) } else { Value::Null },
        "tts": false,
        "mention_everyone": false,
        "mentions": [],
        "mention_roles": [],
        "attachments": attachments,
        "embeds": m.embeds,
        "components": m.components,
        "pinned": false,
        "type": if m.interaction_user.is_some() { 20 } else { 0 },
        "webhook_id": if m.interaction_user.is_some() { json!(APP_ID.to_string()) } else { Value::Null },
        "application_id": APP_ID.to_string(),
        "flags": if m.ephemeral_for.is_some() { 64 } else { 0 } | if m.thinking { 128 } else { 0 },
    });
    if let Err(e) = serde_json::from_value::<serenity::Message>(v.clone()) {
        panic!("stand-in built a message serenity cannot read: {e}\n{v:#}");
    }
    v
}

async fn callback(
    State(s): State<Arc<Shared>>,
    Path((id, token)): Path<(String, String)>,
    req: Request,
) -> Response {
    let now = Instant::now();
    let body = match read_body(&s, req).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let kind = body.json["type"].as_u64().unwrap_or(0) as u8;
    let mut problems = Vec::new();
    let response = {
        let mut inner = s.lock();
        let Some(idx) = inner
            .interactions
            .iter()
            .position(|i| i.id.to_string() == id && i.token == token)
        else {
            drop(inner);
            s.error(format!("callback for unknown interaction {id}"));
            return discord_error(StatusCode::NOT_FOUND, 10062, "Unknown interaction");
        };
        let ix = inner.interactions[idx].clone();
        if ix.callback.is_some() {
            drop(inner);
            s.error(format!("second callback for interaction {id}"));
            return discord_error(
                StatusCode::BAD_REQUEST,
                40060,
                "Interaction has already been acknowledged.",
            );
        }
        if now.duration_since(ix.sent_at) > CALLBACK_DEADLINE {
            drop(inner);
            s.error(format!("callback for interaction {id} after 3 seconds"));
            return discord_error(StatusCode::NOT_FOUND, 10062, "Unknown interaction");
        }
        let allowed: &[u8] = match ix.kind {
            2 => &[4, 5, 9],
            3 => &[4, 5, 6, 7, 9],
            4 => &[8],
            _ => &[],
        };
        if !allowed.contains(&kind) {
            problems.push(format!(
                "callback type {kind} for interaction type {}",
                ix.kind
            ));
        }
        let data = Body {
            json: body.json.get("data").cloned().unwrap_or(Value::Null),
            files: body.files,
        };
        let draft = draft(&data, &mut problems);
        let mut choices = None;
        if kind == 8 {
            let list = data.json["choices"].as_array().cloned().unwrap_or_default();
            if list.len() > 25 {
                problems.push(format!("{} autocomplete choices (max 25)", list.len()));
            }
            let mut out = Vec::new();
            for c in list {
                let name = c["name"].as_str().unwrap_or("").to_owned();
                let value = c["value"]
                    .as_str()
                    .map_or_else(|| c["value"].to_string(), str::to_owned);
                if name.is_empty() || name.chars().count() > 100 || value.chars().count() > 100 {
                    problems
                        .push("autocomplete choice name/value must be 1-100 characters".to_owned());
                }
                out.push((name, value));
            }
            choices = Some(out);
        }
        let message_id = s.snowflake();
        let mut new_message = Message {
            id: message_id,
            channel_id: ix.channel_id,
            interaction_user: Some(ix.user),
            content: String::new(),
            embeds: Vec::new(),
            components: Vec::new(),
            attachments: Vec::new(),
            ephemeral_for: None,
            thinking: kind == 5,
            deleted: false,
            edits: 0,
        };
        let mut draft = Some(draft);
        if matches!(kind, 4 | 5) {
            new_message.ephemeral_for = draft
                .as_ref()
                .is_some_and(|d| d.ephemeral)
                .then_some(ix.user);
            if let Some(d) = draft.take() {
                apply(&mut new_message, d);
            }
            if kind == 4 && is_empty_message(&new_message) {
                problems.push("Cannot send an empty message".to_owned());
            }
        }
        if problems.is_empty() {
            let ix = &mut inner.interactions[idx];
            ix.callback = Some((kind, now));
            ix.choices = choices;
            match kind {
                4 | 5 => {
                    let m = new_message;
                    ix.original = Some(message_id);
                    ix.messages.push(message_id);
                    ix.pending = kind == 5;
                    if kind == 4 {
                        ix.settled_at = Some(now);
                    }
                    inner.messages.push(m);
                }
                6 => {
                    ix.pending = true;
                }
                7 => {
                    let target = ix.component_message;
                    ix.settled_at = Some(now);
                    if let Some(target) = target {
                        ix.messages.push(target);
                        if let (Some(m), Some(d)) =
                            (inner.messages.iter_mut().find(|m| m.id == target), draft)
                        {
                            apply(m, d);
                            m.edits += 1;
                        }
                    }
                }
                _ => {
                    ix.settled_at = Some(now);
                }
            }
        }
        StatusCode::NO_CONTENT.into_response()
    };
    if !problems.is_empty() {
        s.error(format!(
            "callback for interaction {id} refused: {problems:?}"
        ));
        return discord_error(StatusCode::BAD_REQUEST, 50035, "Invalid Form Body");
    }
    s.notify();
    response
}

fn find_by_token(inner: &Inner, app: &str, token: &str) -> Option<usize> {
    if app != APP_ID.to_string() {
        return None;
    }
    inner.interactions.iter().position(|i| i.token == token)
}

async fn followup(
    State(s): State<Arc<Shared>>,
    Path((app, token)): Path<(String, String)>,
    req: Request,
) -> Response {
    let now = Instant::now();
    let body = match read_body(&s, req).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let mut problems = Vec::new();
    let d = draft(&body, &mut problems);
    let json = {
        let mut inner = s.lock();
        let Some(idx) = find_by_token(&inner, &app, &token) else {
            drop(inner);
            s.error(format!("follow-up for unknown webhook token {token}"));
            return discord_error(StatusCode::NOT_FOUND, 10015, "Unknown Webhook");
        };
        if inner.interactions[idx].callback.is_none() {
            problems.push("follow-up before the interaction was acknowledged".to_owned());
        }
        if !problems.is_empty() {
            drop(inner);
            s.error(format!("follow-up refused: {problems:?}"));
            return discord_error(StatusCode::BAD_REQUEST, 50035, "Invalid Form Body");
        }
        let ix = inner.interactions[idx].clone();
        // Discord: the first follow-up after a deferred message response replaces the
        // "thinking…" placeholder.
        let placeholder = ix.original.filter(|id| {
            ix.pending
                && ix.callback.map(|c| c.0) == Some(5)
                && inner.messages.iter().any(|m| m.id == *id && !m.deleted)
        });
        let message_id = placeholder.unwrap_or_else(|| s.snowflake());
        let ephemeral = d.ephemeral;
        let m = if let Some(pid) = placeholder {
            let m = inner
                .messages
                .iter_mut()
                .find(|m| m.id == pid)
                .expect("placeholder message exists");
            apply(m, d);
            m.thinking = false;
            m.clone()
        } else {
            let mut m = Message {
                id: message_id,
                channel_id: ix.channel_id,
                interaction_user: Some(ix.user),
                content: String::new(),
                embeds: Vec::new(),
                components: Vec::new(),
                attachments: Vec::new(),
                ephemeral_for: ephemeral.then_some(ix.user),
                thinking: false,
                deleted: false,
                edits: 0,
            };
            apply(&mut m, d);
            inner.messages.push(m.clone());
            m
        };
        if is_empty_message(&m) {
            drop(inner);
            s.error("follow-up: Cannot send an empty message".to_owned());
            return discord_error(
                StatusCode::BAD_REQUEST,
                50006,
                "Cannot send an empty message",
            );
        }
        let ix = &mut inner.interactions[idx];
        if !ix.messages.contains(&message_id) {
            ix.messages.push(message_id);
        }
        if ix.pending {
            ix.pending = false;
            ix.settled_at = Some(now);
        }
        message_json(&m)
    };
    s.notify();
    Json(json).into_response()
}

fn target_message(inner: &Inner, idx: usize, message: &str) -> Option<u64> {
    let ix = &inner.interactions[idx];
    if message == "@original" {
        ix.original
    } else {
        message.parse().ok().filter(|id| ix.messages.contains(id))
    }
}

async fn edit_webhook_message(
    State(s): State<Arc<Shared>>,
    Path((app, token, message)): Path<(String, String, String)>,
    req: Request,
) -> Response {
    let now = Instant::now();
    let body = match read_body(&s, req).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let mut problems = Vec::new();
    let d = draft(&body, &mut problems);
    let json = {
        let mut inner = s.lock();
        let Some(idx) = find_by_token(&inner, &app, &token) else {
            drop(inner);
            s.error(format!("edit for unknown webhook token {token}"));
            return discord_error(StatusCode::NOT_FOUND, 10015, "Unknown Webhook");
        };
        let Some(target) = target_message(&inner, idx, &message) else {
            drop(inner);
            s.error(format!("edit of unknown message {message}"));
            return discord_error(StatusCode::NOT_FOUND, 10008, "Unknown Message");
        };
        if !problems.is_empty() {
            drop(inner);
            s.error(format!("edit refused: {problems:?}"));
            return discord_error(StatusCode::BAD_REQUEST, 50035, "Invalid Form Body");
        }
        let Some(m) = inner
            .messages
            .iter_mut()
            .find(|m| m.id == target && !m.deleted)
        else {
            drop(inner);
            s.error(format!("edit of deleted message {message}"));
            return discord_error(StatusCode::NOT_FOUND, 10008, "Unknown Message");
        };
        apply(m, d);
        m.thinking = false;
        m.edits += 1;
        if is_empty_message(m) {
            drop(inner);
            s.error("edit: Cannot send an empty message".to_owned());
            return discord_error(
                StatusCode::BAD_REQUEST,
                50006,
                "Cannot send an empty message",
            );
        }
        let json = message_json(m);
        let ix = &mut inner.interactions[idx];
        if !ix.messages.contains(&target) {
            ix.messages.push(target);
        }
        if ix.pending && message == "@original" {
            ix.pending = false;
            ix.settled_at = Some(now);
        }
        json
    };
    s.notify();
    Json(json).into_response()
}

async fn get_webhook_message(
    State(s): State<Arc<Shared>>,
    Path((app, token, message)): Path<(String, String, String)>,
) -> Response {
    let inner = s.lock();
    let found = find_by_token(&inner, &app, &token)
        .and_then(|idx| target_message(&inner, idx, &message))
        .and_then(|id| inner.messages.iter().find(|m| m.id == id && !m.deleted));
    match found {
        Some(m) => Json(message_json(m)).into_response(),
        None => discord_error(StatusCode::NOT_FOUND, 10008, "Unknown Message"),
    }
}

async fn delete_webhook_message(
    State(s): State<Arc<Shared>>,
    Path((app, token, message)): Path<(String, String, String)>,
) -> Response {
    {
        let mut inner = s.lock();
        let Some(idx) = find_by_token(&inner, &app, &token) else {
            drop(inner);
            s.error(format!("delete for unknown webhook token {token}"));
            return discord_error(StatusCode::NOT_FOUND, 10015, "Unknown Webhook");
        };
        let Some(target) = target_message(&inner, idx, &message) else {
            drop(inner);
            s.error(format!("delete of unknown message {message}"));
            return discord_error(StatusCode::NOT_FOUND, 10008, "Unknown Message");
        };
        if let Some(m) = inner.messages.iter_mut().find(|m| m.id == target) {
            m.deleted = true;
        }
        // A deleted "thinking…" placeholder still awaits the answer, as a follow-up.
    }
    s.notify();
    StatusCode::NO_CONTENT.into_response()
}

async fn channel_message(
    State(s): State<Arc<Shared>>,
    Path(channel): Path<String>,
    req: Request,
) -> Response {
    let body = match read_body(&s, req).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let mut problems = Vec::new();
    let d = draft(&body, &mut problems);
    let Ok(channel_id) = channel.parse::<u64>() else {
        s.error(format!("message to bad channel id {channel}"));
        return discord_error(StatusCode::NOT_FOUND, 10003, "Unknown Channel");
    };
    if !problems.is_empty() {
        s.error(format!("channel message refused: {problems:?}"));
        return discord_error(StatusCode::BAD_REQUEST, 50035, "Invalid Form Body");
    }
    let mut m = Message {
        id: s.snowflake(),
        channel_id,
        interaction_user: None,
        content: String::new(),
        embeds: Vec::new(),
        components: Vec::new(),
        attachments: Vec::new(),
        ephemeral_for: None,
        thinking: false,
        deleted: false,
        edits: 0,
    };
    apply(&mut m, d);
    let json = message_json(&m);
    s.lock().messages.push(m);
    s.notify();
    Json(json).into_response()
}

// ---------- gateway ----------

async fn gateway_ws(State(s): State<Arc<Shared>>, ws: WebSocketUpgrade) -> Response {
    ws.on_upgrade(move |socket| gateway_session(s, socket))
}

async fn gateway_session(s: Arc<Shared>, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<String>();
    let hello = json!({"op": 10, "d": {"heartbeat_interval": 41_250}}).to_string();
    if sink.send(WsMessage::Text(hello.into())).await.is_err() {
        return;
    }
    let mut identified = false;
    loop {
        tokio::select! {
            frame = stream.next() => {
                let Some(Ok(frame)) = frame else { break };
                let text = match frame {
                    WsMessage::Text(t) => t.to_string(),
                    WsMessage::Close(_) => break,
                    _ => continue,
                };
                let Ok(v) = serde_json::from_str::<Value>(&text) else {
                    s.error(format!("gateway: unreadable frame {text}"));
                    continue;
                };
                match v["op"].as_u64() {
                    Some(1) => {
                        let ack = json!({"op": 11}).to_string();
                        if sink.send(WsMessage::Text(ack.into())).await.is_err() { break; }
                    }
                    Some(2) => {
                        if v.pointer("/d/token").and_then(Value::as_str) != Some(TOKEN)
                            && v.pointer("/d/token").and_then(Value::as_str) != Some(&format!("Bot {TOKEN}")) {
                            s.error("gateway: IDENTIFY with a wrong token".to_owned());
                            let _ = sink.send(WsMessage::Close(None)).await;
                            break;
                        }
                        identified = true;
                        let ready = ready_event(&s);
                        if sink.send(WsMessage::Text(ready.into())).await.is_err() { break; }
                        s.lock().identifies += 1;
                        *s.session.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(tx.clone());
                        s.notify();
                    }
                    Some(6) => {
                        // No resuming here: tell the bot to identify afresh.
                        let invalid = json!({"op": 9, "d": false}).to_string();
                        if sink.send(WsMessage::Text(invalid.into())).await.is_err() { break; }
                    }
                    Some(3 | 4 | 8) => {}
                    other => s.error(format!("gateway: unexpected op {other:?}")),
                }
            }
            out = rx.recv(), if identified => {
                let Some(out) = out else { break };
                if sink.send(WsMessage::Text(out.into())).await.is_err() { break; }
            }
        }
    }
    let mut session = s
        .session
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if session.as_ref().is_some_and(|cur| cur.same_channel(&tx)) {
        *session = None;
    }
}

fn ready_event(s: &Shared) -> String {
    let ws = s.base_url.replacen("http://", "ws://", 1);
    let d = json!({
        "v": 10,
        "user": bot_user_json(),
        "guilds": [{"id": GUILD_ID.to_string(), "unavailable": true}],
        "session_id": format!("session-{}", s.snowflake()),
        "resume_gateway_url": format!("{ws}/gateway"),
        "shard": [0, 1],
        "application": {"id": APP_ID.to_string(), "flags": 0},
    });
    if let Err(e) = serde_json::from_value::<serenity::Ready>(d.clone()) {
        panic!("stand-in built a READY serenity cannot read: {e}");
    }
    json!({"op": 0, "s": s.seq.fetch_add(1, Ordering::Relaxed) + 1, "t": "READY", "d": d})
        .to_string()
}

// ---------- the bot under test ----------

/// The real bot (its real start-up code, [`makruk_bot::discord::run`]) connected to a stand-in.
pub struct Bot {
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
}

impl Bot {
    /// Starts the bot against `standin` with the database `database_url`, registering its
    /// commands in the stand-in's guild; returns once the commands are registered.
    pub async fn start(standin: &Standin, database_url: &str) -> Bot {
        Bot::start_with(standin, database_url, |_| {}).await
    }

    /// As [`Bot::start`], with a hook to change the configuration.
    pub async fn start_with(
        standin: &Standin,
        database_url: &str,
        change: impl FnOnce(&mut makruk_bot::discord::Config),
    ) -> Bot {
        let registrations = standin.shared.lock().registrations;
        let mut config = makruk_bot::discord::Config::with_token(TOKEN);
        config.database_url = database_url.to_owned();
        config.api_url = Some(standin.base_url.clone());
        config.guild_id = Some(GUILD_ID);
        change(&mut config);
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(makruk_bot::discord::run(config, async move {
            let _ = stopped.await;
        }));
        let bot = Bot {
            stop: Some(stop),
            task: Some(task),
        };
        standin.wait_ready(registrations + 1).await;
        bot
    }

    /// Stops the bot as SIGTERM would and waits until it has shut down.
    ///
    /// # Panics
    /// If the bot ended with an error.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            let result = tokio::time::timeout(WAIT, task)
                .await
                .expect("the bot stops in time")
                .expect("the bot task did not panic");
            result.expect("the bot stopped cleanly");
        }
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        if let Some(task) = &self.task {
            task.abort();
        }
    }
}

/// A fresh SQLite database file in a temporary directory (kept alive by the returned guard).
pub fn temp_database() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!(
        "sqlite://{}",
        dir.path().join("makruk-bot.sqlite3").display()
    );
    (dir, url)
}
