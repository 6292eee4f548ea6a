//! Driving the bot as Discord's users would: adding users, sending slash commands,
//! autocomplete requests and button presses over the gateway, and waiting for their answers.

use serde_json::{json, Map, Value};
use serenity::model::application::Interaction as SerenityInteraction;

use crate::model::{
    bot_user, bot_user_json, Interaction, Opt, Outcome, User, BOT_DM_APP_PERMISSIONS,
    CONTEXT_BOT_DM, CONTEXT_GUILD, PERMISSIONS, PRIVATE_APP_PERMISSIONS,
};
use crate::private::{command_for, command_owners, press_owners};
use crate::{gateway, Standin, APP_ID};

/// Interaction types: APPLICATION_COMMAND, MESSAGE_COMPONENT, APPLICATION_COMMAND_AUTOCOMPLETE.
const COMMAND: u8 = 2;
const COMPONENT: u8 = 3;
const AUTOCOMPLETE: u8 = 4;

impl Standin {
    /// Places `channel` in guild `guild` (another server the bot is in; with several shards,
    /// see [`Standin::set_shards`], its events go to that guild's shard). Channels are in
    /// [`crate::GUILD_ID`] unless placed elsewhere.
    pub fn put_channel_in_guild(&self, channel: u64, guild: u64) {
        self.shared.lock().channel_guilds.insert(channel, guild);
    }

    /// The guild of `channel`: [`crate::GUILD_ID`] unless placed elsewhere; `None` for a DM or
    /// group DM ([`Standin::dm`], [`Standin::group_dm`], [`Standin::bot_dm`]).
    pub fn guild_of(&self, channel: u64) -> Option<u64> {
        self.shared.guild_of(channel)
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

    /// Gives `user` the permission bits `bits` in every channel (default: all but Administrator
    /// and Manage Server), as interactions then carry them in `member.permissions`.
    pub fn set_permissions(&self, user: &User, bits: u64) {
        self.shared
            .lock()
            .permissions
            .insert(user.id, bits.to_string());
    }

    /// Gives user `id` the Discord locale `code` for their next interactions, and returns them.
    ///
    /// # Panics
    /// If there is no such user.
    pub fn set_user_locale(&self, id: u64, code: &str) -> User {
        let mut inner = self.shared.lock();
        let user = inner
            .users
            .iter_mut()
            .find(|u| u.id == id)
            .unwrap_or_else(|| panic!("no user {id}"));
        code.clone_into(&mut user.locale);
        user.clone()
    }

    /// The user added under `name` (a leading `@` is ignored; case-insensitive).
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
    /// localised name) becomes its value, a user option names a user added with
    /// [`Standin::user`] (or `@Makruk`, the bot).
    ///
    /// # Errors
    /// An unknown command, option, choice or user, or a non-number for an integer option.
    pub fn options(
        &self,
        command: &str,
        text: &[(&str, &str)],
    ) -> Result<Vec<(String, Opt)>, String> {
        let (top, sub) = match command.split_once(' ') {
            Some((top, sub)) => (top, Some(sub)),
            None => (command, None),
        };
        let registered = self
            .shared
            .lock()
            .command(top)
            .cloned()
            .ok_or_else(|| format!("no command /{command}"))?;
        let registered = match sub {
            // A subcommand (option type 1): its own options.
            Some(sub) => registered["options"]
                .as_array()
                .and_then(|o| {
                    o.iter()
                        .find(|o| o["type"] == 1 && o["name"] == sub)
                        .cloned()
                })
                .ok_or_else(|| format!("no subcommand /{command}"))?,
            None => registered,
        };
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
                                    bot_user()
                                } else {
                                    self.user_named(value)
                                        .ok_or_else(|| format!("no user {value:?}"))?
                                };
                            Opt::User(user)
                        }
                        Some(5) => Opt::Bool(value.parse().map_err(|_| {
                            format!("/{command} {name}: {value:?} is not true or false")
                        })?),
                        _ => Opt::Str((*value).to_owned()),
                    }
                };
            out.push(((*name).to_owned(), opt));
        }
        Ok(out)
    }

    /// Runs `/command` with options written as text (see [`Standin::options`]) and waits until
    /// its answer is final.
    ///
    /// # Panics
    /// If the options cannot be read, or as [`Standin::command`].
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
        self.command(user, channel, command, &borrowed(&options))
            .await
    }

    /// Sends the slash command `/name options…` from `user` in `channel` without waiting;
    /// returns its token (for [`Standin::settled`]).
    ///
    /// # Panics
    /// If no bot is connected to the gateway.
    pub fn send_command(
        &self,
        user: &User,
        channel: u64,
        name: &str,
        options: &[(&str, Opt)],
    ) -> String {
        self.try_send_command(user, channel, name, options)
            .expect("stand-in: no bot connected to the gateway")
    }

    /// As [`Standin::send_command`], but `None` instead of a panic when no bot is connected
    /// (a bot that may be killed at any moment: the interaction is then lost, as on Discord).
    ///
    /// A registered command that Discord's client would not offer in `channel`
    /// ([`Standin::offered`]) is recorded in [`Standin::errors`] (and sent all the same); see
    /// [`Standin::send_unoffered_command`]. A command never registered is sent without a word,
    /// as a client with a stale command list would.
    pub fn try_send_command(
        &self,
        user: &User,
        channel: u64,
        name: &str,
        options: &[(&str, Opt)],
    ) -> Option<String> {
        self.check_offered(channel, name);
        self.send_command_anyway(user, channel, name, options)
    }

    /// Sends `/name options…` from `user` in `channel` even where Discord's client would not
    /// offer it ([`Standin::offered`]), as an old client with a stale command list still can:
    /// to test the bot's answer then. Returns its token.
    ///
    /// # Panics
    /// If no bot is connected to the gateway.
    pub fn send_unoffered_command(
        &self,
        user: &User,
        channel: u64,
        name: &str,
        options: &[(&str, Opt)],
    ) -> String {
        self.send_command_anyway(user, channel, name, options)
            .expect("stand-in: no bot connected to the gateway")
    }

    /// Records an error if `/name` is registered but not offered in `channel`.
    fn check_offered(&self, channel: u64, name: &str) {
        let unoffered = {
            let inner = self.shared.lock();
            command_for(&inner, name, inner.context_of(channel))
                .is_some_and(|(_, offered)| !offered)
        };
        if unoffered {
            self.shared.error(format!(
                "/{name} sent in channel {channel}, where Discord's client does not offer it \
                 (its integration_types/contexts; Standin::send_unoffered_command sends it anyway)"
            ));
        }
    }

    /// Sends the command without checking that it is offered in `channel`.
    pub(crate) fn send_command_anyway(
        &self,
        user: &User,
        channel: u64,
        name: &str,
        options: &[(&str, Opt)],
    ) -> Option<String> {
        let (interaction, payload) = self.command_payload(user, channel, name, options);
        self.try_dispatch(interaction, payload)
    }

    /// A fresh command interaction `/name options…` from `user` in `channel`, and its payload.
    pub(crate) fn command_payload(
        &self,
        user: &User,
        channel: u64,
        name: &str,
        options: &[(&str, Opt)],
    ) -> (Interaction, Value) {
        let owners = self.command_owners(name, user, channel);
        let (interaction, mut payload) = self.new_interaction(COMMAND, user, channel, owners);
        payload["data"] = self.command_data(name, options, None, channel);
        (interaction, payload)
    }

    /// `authorizing_integration_owners` of `/name` from `user` in `channel`.
    fn command_owners(&self, name: &str, user: &User, channel: u64) -> Vec<(u8, u64)> {
        let inner = self.shared.lock();
        let context = inner.context_of(channel);
        let command = command_for(&inner, name, context).map(|(c, _)| c);
        command_owners(command, context, inner.guild_of(channel), user.id)
    }

    /// Runs the slash command and waits until its answer is final.
    ///
    /// # Panics
    /// If no bot is connected, or the answer does not come within [`crate::WAIT`].
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

    /// Asks for autocomplete of option `focused` of `/name`; the choices are in
    /// [`Outcome::choice_names`].
    ///
    /// # Panics
    /// As [`Standin::command`].
    pub async fn autocomplete(
        &self,
        user: &User,
        channel: u64,
        name: &str,
        options: &[(&str, Opt)],
        focused: &str,
    ) -> Outcome {
        self.check_offered(channel, name);
        let owners = self.command_owners(name, user, channel);
        let (interaction, mut payload) = self.new_interaction(AUTOCOMPLETE, user, channel, owners);
        payload["data"] = self.command_data(name, options, Some(focused), channel);
        let token = self
            .try_dispatch(interaction, payload)
            .expect("stand-in: no bot connected to the gateway");
        self.settled(&token).await
    }

    /// Presses the button `custom_id` of message `message_id` and waits for the answer.
    ///
    /// # Panics
    /// If there is no such message, or as [`Standin::command`].
    pub async fn click(&self, user: &User, message_id: u64, custom_id: &str) -> Outcome {
        assert!(
            self.message(message_id).is_some(),
            "no message {message_id}"
        );
        let token = self
            .try_send_click(user, message_id, custom_id)
            .expect("stand-in: no bot connected to the gateway");
        self.settled(&token).await
    }

    /// Presses the button `custom_id` of message `message_id` without waiting; returns its
    /// token, or `None` if there is no such message or no bot is connected.
    pub fn try_send_click(&self, user: &User, message_id: u64, custom_id: &str) -> Option<String> {
        let (interaction, payload) = self.click_payload(user, message_id, custom_id)?;
        self.try_dispatch(interaction, payload)
    }

    /// A fresh press of button `custom_id` of message `message_id` by `user`, and its payload;
    /// `None` without such a message.
    pub(crate) fn click_payload(
        &self,
        user: &User,
        message_id: u64,
        custom_id: &str,
    ) -> Option<(Interaction, Value)> {
        let message = self.message(message_id)?;
        let owners = {
            let inner = self.shared.lock();
            let channel = message.channel_id;
            let (context, guild) = (inner.context_of(channel), inner.guild_of(channel));
            press_owners(&inner, message_id, context, guild, user.id)
        };
        let (mut interaction, mut payload) =
            self.new_interaction(COMPONENT, user, message.channel_id, owners);
        payload["data"] = json!({ "custom_id": custom_id, "component_type": 2 });
        payload["message"] = message.json();
        interaction.component_message = Some(message_id);
        interaction.original = Some(message_id);
        Some((interaction, payload))
    }

    /// The newest message in `channel` visible to `user` with an enabled button labelled
    /// `label` (case-insensitive): (message id, custom id).
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
    /// If there is no such button, or as [`Standin::click`].
    pub async fn click_label(&self, user: &User, channel: u64, label: &str) -> Outcome {
        let (message, custom_id) = self
            .find_button(channel, user, label)
            .unwrap_or_else(|| panic!("no button {label:?} in channel {channel}"));
        self.click(user, message, &custom_id).await
    }

    /// Waits until the interaction with `token` is answered for good, and returns what came of
    /// it.
    ///
    /// # Panics
    /// If that does not happen within [`crate::WAIT`].
    pub async fn settled(&self, token: &str) -> Outcome {
        self.wait_until(&format!("an answer to interaction {token}"), |inner| {
            inner
                .interactions
                .iter()
                .any(|i| i.token == token && i.settled())
                .then_some(())
        })
        .await;
        self.outcome(token)
            .expect("a settled interaction has an outcome")
    }

    /// What came of the interaction with `token`, if it is answered for good (see
    /// [`Standin::settled`]); `None` while it is not (or never will be: a bot that died).
    pub fn outcome(&self, token: &str) -> Option<Outcome> {
        let inner = self.shared.lock();
        let interaction = inner
            .interactions
            .iter()
            .find(|i| i.token == token && i.settled())
            .cloned()?;
        let messages = interaction
            .messages
            .iter()
            .filter_map(|id| {
                inner
                    .messages
                    .iter()
                    .find(|m| m.id == *id && !m.deleted && !m.after_answer)
            })
            .cloned()
            .collect();
        Some(Outcome {
            interaction,
            messages,
        })
    }

    /// A fresh interaction of `kind` from `user` in `channel`, authorized by `owners`
    /// (`authorizing_integration_owners`), and its payload without `data`.
    fn new_interaction(
        &self,
        kind: u8,
        user: &User,
        channel: u64,
        owners: Vec<(u8, u64)>,
    ) -> (Interaction, Value) {
        let id = self.shared.snowflake();
        let token = format!("itoken-{id}");
        let (guild, context, private, thread, guild_locale, permissions, users) = {
            let inner = self.shared.lock();
            (
                inner.guild_of(channel),
                inner.context_of(channel),
                inner.private.get(&channel).cloned(),
                inner.thread(channel).cloned(),
                inner
                    .guild_locale
                    .clone()
                    .unwrap_or_else(|| "en-US".to_owned()),
                inner.permissions.get(&user.id).cloned(),
                inner.users.clone(),
            )
        };
        let owners_json: Map<String, Value> = owners
            .iter()
            .map(|(t, id)| (t.to_string(), json!(id.to_string())))
            .collect();
        let mut payload = json!({
            "id": id.to_string(),
            "application_id": APP_ID.to_string(),
            "type": kind,
            "token": token,
            "version": 1,
            "channel_id": channel.to_string(),
            "locale": user.locale,
            "entitlements": [],
            "authorizing_integration_owners": owners_json,
            "context": context,
            "attachment_size_limit": 26_214_400,
        });
        if let Some(p) = private {
            // A DM or group DM: the user at the top level, no guild, no member, no guild_locale;
            // the partial channel lists the other recipients.
            let mut recipients: Vec<Value> = p
                .users
                .iter()
                .filter(|u| **u != user.id)
                .filter_map(|u| users.iter().find(|x| x.id == *u).map(User::json))
                .collect();
            if p.with_bot {
                recipients.push(bot_user_json());
            }
            payload["user"] = user.json();
            payload["app_permissions"] = json!(if context == CONTEXT_BOT_DM {
                BOT_DM_APP_PERMISSIONS
            } else {
                PRIVATE_APP_PERMISSIONS
            });
            payload["channel"] = json!({
                "id": channel.to_string(),
                "type": p.kind,
                "recipients": recipients,
                "last_message_id": null,
                "flags": 0,
            });
            if p.kind == 3 {
                payload["channel"]["name"] = Value::Null;
                payload["channel"]["owner_id"] = json!(p.users[0].to_string());
            }
        } else {
            let guild = guild.unwrap_or(crate::GUILD_ID);
            payload["guild_id"] = json!(guild.to_string());
            payload["guild_locale"] = json!(guild_locale);
            payload["app_permissions"] = json!(PERMISSIONS);
            payload["member"] = user.member_json(true);
            payload["channel"] = json!({
                "id": channel.to_string(),
                "type": 0,
                "guild_id": guild.to_string(),
                "name": format!("channel-{channel}"),
                "position": 0,
                "permission_overwrites": [],
                "nsfw": false,
                "permissions": PERMISSIONS,
                "flags": 0,
            });
            if let Some(p) = permissions {
                payload["member"]["permissions"] = json!(p);
            }
            // From a thread: the partial channel is the thread (type 11) with its parent.
            if let Some(t) = thread {
                payload["channel"]["type"] = json!(11);
                payload["channel"]["name"] = json!(t.name);
                payload["channel"]["parent_id"] = json!(t.parent_id.to_string());
                payload["channel"]["thread_metadata"] = t.json()["thread_metadata"].clone();
            }
        }
        let mut interaction = Interaction::new(id, token, kind, user, channel);
        interaction.context = context;
        interaction.owners = owners;
        (interaction, payload)
    }

    /// The `data` of a command or autocomplete interaction in `channel`; `focused` names the
    /// option being typed (autocomplete).
    fn command_data(
        &self,
        name: &str,
        options: &[(&str, Opt)],
        focused: Option<&str>,
        channel: u64,
    ) -> Value {
        let (command_id, guild) = {
            let inner = self.shared.lock();
            let id = command_for(&inner, name, inner.context_of(channel))
                .and_then(|((_, c), _)| c["id"].as_str().map(str::to_owned))
                .unwrap_or_else(|| "1".to_owned());
            (id, inner.guild_of(channel))
        };
        let mut users = Map::new();
        let mut members = Map::new();
        let opts: Vec<Value> = options
            .iter()
            .map(|(n, v)| {
                let mut o = match v {
                    Opt::Str(s) => json!({"name": n, "type": 3, "value": s}),
                    Opt::Int(i) => json!({"name": n, "type": 4, "value": i}),
                    Opt::Bool(b) => json!({"name": n, "type": 5, "value": b}),
                    Opt::User(u) => {
                        users.insert(u.id.to_string(), u.json());
                        // Members only in a server.
                        if guild.is_some() {
                            members.insert(u.id.to_string(), u.member_json(false));
                        }
                        json!({"name": n, "type": 6, "value": u.id.to_string()})
                    }
                };
                if focused == Some(*n) {
                    o["focused"] = json!(true);
                }
                o
            })
            .collect();
        // `"tournament create"`: `/tournament` with subcommand `create` (option type 1)
        // holding the options.
        let (name, opts) = match name.split_once(' ') {
            Some((top, sub)) => (top, vec![json!({"name": sub, "type": 1, "options": opts})]),
            None => (name, opts),
        };
        let mut data = json!({
            "id": command_id,
            "name": name,
            "type": 1,
            "options": opts,
        });
        if let Some(g) = guild {
            data["guild_id"] = json!(g.to_string());
        }
        if !users.is_empty() {
            data["resolved"] = json!({"users": users});
            if !members.is_empty() {
                data["resolved"]["members"] = json!(members);
            }
        }
        data
    }

    /// Records `interaction` and sends it over the gateway, after checking that serenity can
    /// read it. Returns its token, or `None` if no bot is connected.
    ///
    /// # Panics
    /// If serenity cannot read the payload or loses its user (faults of the stand-in).
    pub(crate) fn try_dispatch(&self, interaction: Interaction, payload: Value) -> Option<String> {
        let parsed: SerenityInteraction = match serde_json::from_value(payload.clone()) {
            Ok(i) => i,
            Err(e) => {
                panic!("stand-in built an interaction serenity cannot read: {e}\n{payload:#}")
            }
        };
        // In a server the user comes from `member`, in a DM from `user`; without them serenity
        // would silently use a default user.
        let in_guild = interaction.context == CONTEXT_GUILD;
        let context = Some(u64::from(interaction.context));
        let user_ok = match &parsed {
            SerenityInteraction::Command(c) | SerenityInteraction::Autocomplete(c) => {
                c.user.id.get() == interaction.user
                    && c.member.is_some() == in_guild
                    && c.guild_id.is_some() == in_guild
                    && c.context.map(|x| u64::from(u8::from(x))) == context
            }
            SerenityInteraction::Component(c) => {
                c.user.id.get() == interaction.user
                    && c.member.is_some() == in_guild
                    && c.guild_id.is_some() == in_guild
                    && c.context.map(|x| u64::from(u8::from(x))) == context
            }
            _ => false,
        };
        assert!(user_ok, "stand-in interaction lost its user: {payload:#}");
        let token = interaction.token.clone();
        // Recorded first: the bot's callback may come before `dispatch` returns.
        self.shared.lock().interactions.push(interaction);
        self.shared.notify();
        gateway::dispatch(&self.shared, "INTERACTION_CREATE", payload).then_some(token)
    }
}

/// `(String, Opt)` pairs as the `(&str, Opt)` pairs [`Standin::command`] takes.
pub(crate) fn borrowed(options: &[(String, Opt)]) -> Vec<(&str, Opt)> {
    options
        .iter()
        .map(|(n, o)| (n.as_str(), o.clone()))
        .collect()
}
