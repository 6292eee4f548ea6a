//! What the stand-in records — users, messages as they stand in a channel, interactions and
//! what came of them, requests to the fault-injectable routes — and their JSON as Discord sends
//! it; the faults a test arms (`faults.rs` applies them).

use std::time::{Duration, Instant};

use serde_json::{json, Value};
use serenity::model::channel::Message as SerenityMessage;
use serenity::model::Timestamp;

use crate::{APP_ID, BOT_ID, GUILD_ID};

/// Discord's epoch (2015-01-01T00:00:00Z) in Unix milliseconds: snowflakes count from it.
pub(crate) const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;

/// Permissions of every member and of the bot in every channel (all but Administrator and Manage
/// Server; [`crate::Standin::set_permissions`] changes a member's).
pub(crate) const PERMISSIONS: &str = "2248473465835073";

/// `app_permissions` of an interaction from a DM or group DM between users (the app is not in
/// it): ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE, as Discord documents for "(G)DMs with
/// other users" (<https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object>).
pub(crate) const PRIVATE_APP_PERMISSIONS: &str = "180224";
/// `app_permissions` in the DM with the app's bot user: those of [`PRIVATE_APP_PERMISSIONS`]
/// and USE_EXTERNAL_EMOJIS (same source).
pub(crate) const BOT_DM_APP_PERMISSIONS: &str = "442368";

/// Interaction context types (`context` of an interaction, `contexts` of a command):
/// GUILD, in a server.
pub(crate) const CONTEXT_GUILD: u8 = 0;
/// BOT_DM: in the DM with the app's bot user.
pub(crate) const CONTEXT_BOT_DM: u8 = 1;
/// PRIVATE_CHANNEL: in a DM or group DM other than the one with the bot user.
pub(crate) const CONTEXT_PRIVATE: u8 = 2;

/// Application integration types (`integration_types` of a command, keys of
/// `authorizing_integration_owners`): GUILD_INSTALL.
pub(crate) const GUILD_INSTALL: u8 = 0;
/// USER_INSTALL.
pub(crate) const USER_INSTALL: u8 = 1;

/// A DM (Discord channel type 1) or group DM (type 3) of the stand-in.
#[derive(Clone, Debug)]
pub(crate) struct PrivateChannel {
    /// 1: DM, 3: group DM.
    pub(crate) kind: u8,
    /// Its users (not the bot), in the order given.
    pub(crate) users: Vec<u64>,
    /// Whether the bot user is in it (the DM with the bot itself): it may then post there.
    pub(crate) with_bot: bool,
}

impl PrivateChannel {
    /// The interaction context of the channel: BOT_DM with the bot, else PRIVATE_CHANNEL.
    pub(crate) fn context(&self) -> u8 {
        if self.with_bot {
            CONTEXT_BOT_DM
        } else {
            CONTEXT_PRIVATE
        }
    }
}

/// A Discord user of the stand-in.
#[derive(Clone, Debug)]
pub struct User {
    /// The user's snowflake.
    pub id: u64,
    /// Username and display name.
    pub name: String,
    /// Discord locale code, e.g. `"en-US"` or `"th"`.
    pub locale: String,
    /// Whether the user is a bot.
    pub bot: bool,
}

impl User {
    /// `<@id>`, as mentions appear in message text.
    pub fn mention(&self) -> String {
        format!("<@{}>", self.id)
    }

    pub(crate) fn json(&self) -> Value {
        json!({
            "id": self.id.to_string(),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": null,
            "bot": self.bot,
        })
    }

    pub(crate) fn member_json(&self, with_user: bool) -> Value {
        let mut m = json!({
            "roles": [],
            "joined_at": "2024-01-01T00:00:00.000000+00:00",
            "deaf": false,
            "mute": false,
            "flags": 0,
            "pending": false,
            "permissions": PERMISSIONS,
            "nick": null,
            "avatar": null,
        });
        if with_user {
            m["user"] = self.json();
        }
        m
    }
}

/// The bot itself, as a user others can mention.
pub(crate) fn bot_user() -> User {
    User {
        id: BOT_ID,
        name: "Makruk".to_owned(),
        locale: "en-US".to_owned(),
        bot: true,
    }
}

/// The bot's own user object (`GET /users/@me`, READY, message authors).
pub(crate) fn bot_user_json() -> Value {
    let mut user = bot_user().json();
    user["verified"] = json!(true);
    user["mfa_enabled"] = json!(false);
    user["flags"] = json!(0);
    user
}

/// An option value of a slash command.
#[derive(Clone, Debug)]
pub enum Opt {
    /// A string option (type 3), or a string choice's value.
    Str(String),
    /// An integer option (type 4), or an integer choice's value.
    Int(i64),
    /// A user option (type 6).
    User(User),
    /// A boolean option (type 5), written `true` or `false`.
    Bool(bool),
}

/// A file attached to a message.
#[derive(Clone, Debug)]
pub struct Attachment {
    /// The file name the bot gave it.
    pub filename: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
}

/// A message as it stands in a channel.
#[derive(Clone, Debug)]
pub struct Message {
    /// The message's snowflake.
    pub id: u64,
    /// The channel it is in.
    pub channel_id: u64,
    /// The server of that channel; `None` in a DM or group DM.
    pub guild_id: Option<u64>,
    /// The bot's messages are all we record; `interaction_user` is who triggered it.
    pub interaction_user: Option<u64>,
    /// The text content (at most 2000 characters).
    pub content: String,
    /// The embeds, as the bot sent them.
    pub embeds: Vec<Value>,
    /// The action rows, as the bot sent them.
    pub components: Vec<Value>,
    /// The uploaded files.
    pub attachments: Vec<Attachment>,
    /// Visible only to this user (an ephemeral interaction response).
    pub ephemeral_for: Option<u64>,
    /// "The bot is thinking…" placeholder of a deferred response, not yet replaced.
    pub thinking: bool,
    /// Deleted by the bot.
    pub deleted: bool,
    /// How many times the bot edited it.
    pub edits: u32,
    /// A follow-up the bot sent after its interaction was answered for good: a message of its
    /// own accord sent through the interaction's webhook (e.g. the computer's move in a DM
    /// where the bot, installed by a user, cannot post itself). Such messages count among
    /// [`crate::Standin::posted_messages`], not in the interaction's [`Outcome`].
    pub after_answer: bool,
}

impl Message {
    /// An empty message of the bot in `channel_id`, of server `guild_id` (`None`: a DM).
    pub(crate) fn new(id: u64, channel_id: u64, guild_id: Option<u64>) -> Message {
        Message {
            id,
            channel_id,
            guild_id,
            interaction_user: None,
            content: String::new(),
            embeds: Vec::new(),
            components: Vec::new(),
            attachments: Vec::new(),
            ephemeral_for: None,
            thinking: false,
            deleted: false,
            edits: 0,
            after_answer: false,
        }
    }

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

    /// Whether the bot posted it of its own accord: a channel message, or a follow-up sent
    /// after its interaction was answered.
    pub(crate) fn posted(&self) -> bool {
        self.interaction_user.is_none() || self.after_answer
    }

    /// Whether `user` can see this message.
    pub fn visible_to(&self, user: u64) -> bool {
        !self.deleted && self.ephemeral_for.is_none_or(|u| u == user)
    }

    /// Whether Discord would refuse it as "Cannot send an empty message".
    pub(crate) fn is_empty(&self) -> bool {
        self.content.is_empty()
            && self.embeds.is_empty()
            && self.attachments.is_empty()
            && self.components.is_empty()
    }

    /// The serenity-readable JSON of the message.
    ///
    /// # Panics
    /// If serenity cannot read it: a fault of the stand-in, which must not go unnoticed because
    /// serenity would drop the payload silently.
    pub(crate) fn json(&self) -> Value {
        let ts = |id: u64| {
            let ms = (id >> 22) + DISCORD_EPOCH_MS;
            let secs = i64::try_from(ms / 1000).unwrap_or(0);
            Timestamp::from_unix_timestamp(secs)
                .map(|t| t.to_string())
                .unwrap_or_else(|_| "2025-01-01T00:00:00Z".to_owned())
        };
        let attachments: Vec<Value> = self
            .attachments
            .iter()
            .enumerate()
            .map(|(i, a)| {
                json!({
                    "id": (self.id + 1 + i as u64).to_string(),
                    "filename": a.filename,
                    "size": a.bytes.len(),
                    "url": format!("https://cdn.discordapp.com/attachments/{}/{}/{}", self.channel_id, self.id, a.filename),
                    "proxy_url": format!("https://media.discordapp.net/attachments/{}/{}/{}", self.channel_id, self.id, a.filename),
                    "content_type": if a.filename.ends_with(".png") { "image/png" } else { "text/plain" },
                })
            })
            .collect();
        let mut v = json!({
            "id": self.id.to_string(),
            "channel_id": self.channel_id.to_string(),
            "author": bot_user_json(),
            "content": self.content,
            "timestamp": ts(self.id),
            "edited_timestamp": if self.edits > 0 { json!(ts(self.id)) } else { Value::Null },
            "tts": false,
            "mention_everyone": false,
            "mentions": [],
            "mention_roles": [],
            "attachments": attachments,
            "embeds": self.embeds,
            "components": self.components,
            "pinned": false,
            "type": if self.interaction_user.is_some() { 20 } else { 0 },
            "webhook_id": if self.interaction_user.is_some() { json!(APP_ID.to_string()) } else { Value::Null },
            "application_id": APP_ID.to_string(),
            "flags": if self.ephemeral_for.is_some() { 64 } else { 0 } | if self.thinking { 128 } else { 0 },
        });
        // A message in a DM has no `guild_id`.
        if let Some(g) = self.guild_id {
            v["guild_id"] = json!(g.to_string());
        }
        if let Err(e) = serde_json::from_value::<SerenityMessage>(v.clone()) {
            panic!("stand-in built a message serenity cannot read: {e}\n{v:#}");
        }
        v
    }
}

/// One interaction the stand-in sent, and what the bot did with it.
#[derive(Clone, Debug)]
pub struct Interaction {
    /// The interaction's snowflake.
    pub id: u64,
    /// Its token, which names it in callbacks and webhook routes.
    pub token: String,
    /// 2 = command, 3 = component, 4 = autocomplete.
    pub kind: u8,
    /// Who triggered it.
    pub user: u64,
    /// Where.
    pub channel_id: u64,
    /// The message whose button was pressed (kind 3).
    pub component_message: Option<u64>,
    /// When the stand-in sent it over the gateway.
    pub sent_at: Instant,
    /// The first callback: its type and when it arrived.
    pub callback: Option<(u8, Instant)>,
    /// The message `@original` refers to.
    pub original: Option<u64>,
    /// Messages created for this interaction (original response, follow-ups), in order.
    pub messages: Vec<u64>,
    /// Autocomplete choices (kind 4): (name, value).
    pub choices: Option<Vec<(String, String)>>,
    /// A deferred answer (callback 5 or 6) not yet filled in.
    pub pending: bool,
    /// Its interaction context: 0 GUILD, 1 BOT_DM, 2 PRIVATE_CHANNEL (a DM or group DM
    /// without the bot).
    pub context: u8,
    /// `authorizing_integration_owners` as sent: (integration type, id) pairs, 0 GUILD_INSTALL
    /// with the guild's id (`0` in the bot's DM), 1 USER_INSTALL with the authorizing user's.
    pub owners: Vec<(u8, u64)>,
    /// Follow-up messages created with its token (`POST /webhooks/{app}/{token}`).
    pub followups: u32,
    /// Its token is older than 15 minutes ([`crate::Standin::expire_tokens`]): the webhook
    /// routes refuse it.
    pub expired: bool,
}

impl Interaction {
    /// A fresh interaction of `kind`, just sent.
    pub(crate) fn new(id: u64, token: String, kind: u8, user: &User, channel: u64) -> Interaction {
        Interaction {
            id,
            token,
            kind,
            user: user.id,
            channel_id: channel,
            component_message: None,
            sent_at: Instant::now(),
            callback: None,
            original: None,
            messages: Vec::new(),
            choices: None,
            pending: false,
            context: CONTEXT_GUILD,
            owners: Vec::new(),
            followups: 0,
            expired: false,
        }
    }

    /// Whether only a user installation authorized it (`authorizing_integration_owners` has
    /// only the USER_INSTALL key): Discord then allows at most [`MAX_USER_APP_FOLLOWUPS`]
    /// follow-ups.
    pub fn user_install_only(&self) -> bool {
        !self.owners.is_empty() && self.owners.iter().all(|(t, _)| *t == USER_INSTALL)
    }

    /// Whether its answer is final: a callback, and a deferred answer filled in.
    pub(crate) fn settled(&self) -> bool {
        match self.callback {
            None => false,
            Some((5 | 6, _)) => !self.pending,
            Some(_) => true,
        }
    }
}

/// "Apps are limited to 5 followup messages per interaction if it was initiated from a
/// user-installed app and isn't installed in the server (meaning the authorizing integration
/// owners object only contains USER_INSTALL)"
/// (<https://discord.com/developers/docs/interactions/receiving-and-responding#create-followup-message>);
/// the next one is refused with 400, code 40094.
pub const MAX_USER_APP_FOLLOWUPS: u32 = 5;

/// What came of an interaction, once settled.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The interaction as the stand-in recorded it.
    pub interaction: Interaction,
    /// The messages created or edited by it, as they stand now (deleted ones and those sent
    /// after the answer, [`Message::after_answer`], left out).
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

/// A public thread the bot opened from a message (`POST /channels/{id}/messages/{id}/threads`).
/// As on Discord, the thread's id is the id of the message it was opened from; it is a channel:
/// messages can be posted in it and interactions come from it.
#[derive(Clone, Debug)]
pub struct Thread {
    /// The thread's (channel) id: the starting message's id.
    pub id: u64,
    /// The channel it was opened in.
    pub parent_id: u64,
    /// Its name (1 to 100 characters).
    pub name: String,
    /// Minutes of inactivity before Discord archives it (60, 1440, 4320 or 10080).
    pub auto_archive_duration: u64,
}

impl Thread {
    /// The channel object Discord answers with (type 11, a public thread).
    ///
    /// # Panics
    /// If serenity cannot read it (a fault of the stand-in).
    pub(crate) fn json(&self) -> Value {
        let v = json!({
            "id": self.id.to_string(),
            "type": 11,
            "guild_id": GUILD_ID.to_string(),
            "parent_id": self.parent_id.to_string(),
            "owner_id": BOT_ID.to_string(),
            "name": self.name,
            "last_message_id": null,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 1,
            "flags": 0,
            "total_message_sent": 0,
            "thread_metadata": {
                "archived": false,
                "auto_archive_duration": self.auto_archive_duration,
                "archive_timestamp": "2025-01-01T00:00:00Z",
                "locked": false,
            },
        });
        if let Err(e) = serde_json::from_value::<serenity::model::channel::GuildChannel>(v.clone())
        {
            panic!("stand-in built a thread serenity cannot read: {e}\n{v:#}");
        }
        v
    }
}

/// A REST route the bot answers through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Route {
    /// `POST /interactions/{id}/{token}/callback`: the first answer to an interaction.
    Callback,
    /// `POST /webhooks/{app}/{token}`: a follow-up message.
    Followup,
    /// `PATCH /webhooks/{app}/{token}/messages/{message}`: an edit (of `@original`).
    Edit,
    /// `POST /channels/{channel}/messages`: a plain channel message.
    ChannelMessage,
    /// `POST /channels/{channel}/messages/{message}/threads`: a thread opened from a message.
    Thread,
}

/// Which requests a [`Fault`] meets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Match {
    /// Requests to this route.
    Route(Route),
    /// Requests to any of the routes.
    Any,
}

impl Match {
    /// Whether requests to `route` meet the fault.
    pub(crate) fn matches(self, route: Route) -> bool {
        match self {
            Match::Route(r) => r == route,
            Match::Any => true,
        }
    }
}

/// What a faulty request meets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// Answered with this status (500, 502, 503…) without being carried out.
    Status(u16),
    /// Carried out, then answered with this status anyway (the answer was lost on the way:
    /// the bot cannot know the request took effect).
    StatusAfter(u16),
    /// 429 Too Many Requests with `retry_after`, for the route or (`global`) for every route.
    RateLimited {
        /// How long the bot must wait.
        retry_after: Duration,
        /// Discord's global limit (all routes) rather than the route's.
        global: bool,
    },
    /// Refused as Discord refuses a bot without a permission it needs (Create Public Threads,
    /// Send Messages in Threads…): 403 with error code 50013 "Missing Permissions".
    MissingPermissions,
    /// Carried out only after this delay (a slow network): a callback then arrives after the
    /// interaction's 3 seconds and is refused as Discord would ("Unknown interaction"), which
    /// is not recorded as the bot's violation.
    Slow(Duration),
}

/// The next `times` requests matching `route` meet `failure`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Which requests.
    pub route: Match,
    /// How many of them.
    pub times: u32,
    /// What they meet.
    pub failure: Failure,
}

impl Fault {
    /// The next `times` requests to `route` meet `failure`.
    #[must_use]
    pub fn on(route: Route, times: u32, failure: Failure) -> Fault {
        Fault {
            route: Match::Route(route),
            times,
            failure,
        }
    }
}

/// One request to a route of [`Route`], as the stand-in answered it.
#[derive(Clone, Debug)]
pub struct RequestLog {
    /// The route.
    pub route: Route,
    /// What it names: the interaction id (callback), the webhook token (follow-up, edit) or the
    /// channel id (a thread: the message id).
    pub key: String,
    /// When it arrived.
    pub at: Instant,
    /// The fault it met, if any.
    pub fault: Option<Failure>,
}
