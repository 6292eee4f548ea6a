//! DMs and group DMs, where the bot is a *user-installed app*
//! (<https://discord.com/developers/docs/resources/application#installation-context>): a user
//! who installed the app to their account runs its commands in a DM or group DM with other
//! users, which the bot user is not in; the DM with the bot user itself is another place.
//!
//! What Discord does there, and the stand-in with it:
//! - Interactions have no `guild_id` (neither in `data`), no `member` and no `guild_locale`,
//!   but a top-level `user`; `context` is 2 (PRIVATE_CHANNEL) in a DM or group DM between users,
//!   1 (BOT_DM) in the DM with the bot; `authorizing_integration_owners` is `{"1": user}` for a
//!   user installation (`{"0": "0"}` for the guild installation in the bot's DM); `channel` is
//!   a partial channel of type 1 (DM) or 3 (group DM) with its `recipients` (the other users);
//!   `app_permissions` is what Discord documents for those places.
//! - The bot cannot use the channel routes of a DM or group DM it is not in (post, edit, read
//!   the history, start a thread): 403 `{"code": 50001, "message": "Missing Access"}`, recorded
//!   in [`Standin::errors`] (the interaction's `context` tells the bot where it is). It answers
//!   through the interaction's webhook instead; a follow-up sent after the answer
//!   ([`crate::Message::after_answer`]) counts as posted of its own accord.
//! - An interaction only a user installation authorized takes at most
//!   [`crate::MAX_USER_APP_FOLLOWUPS`] follow-ups: the next one gets 400 `{"code": 40094,
//!   "message": "This interaction has hit the maximum number of follow up messages"}`, recorded.
//! - Interaction tokens are valid for 15 minutes; [`Standin::expire_tokens`] makes every token
//!   so far that old: its webhook routes answer 401 `{"code": 50027, "message": "Invalid
//!   Webhook Token"}` (not recorded: the bot learns it only by trying).
//! - Which commands the client offers where ([`Standin::offered`]): from the registered
//!   command's `integration_types` (default `[0]`) and `contexts` (default all)
//!   (<https://discord.com/developers/docs/interactions/application-commands#contexts>).

use serde_json::Value;

use crate::model::{PrivateChannel, CONTEXT_GUILD, CONTEXT_PRIVATE, GUILD_INSTALL, USER_INSTALL};
use crate::state::Inner;
use crate::{Standin, User};

/// The first DM's id; the others follow in the order they are made.
const FIRST_PRIVATE_CHANNEL: u64 = 1_050_000_000_000_000_001;
/// Discord's group DMs have at most 10 members.
const MAX_GROUP_DM: usize = 10;

impl Standin {
    /// The DM (Discord channel type 1) between users `a` and `b`, made at the first call (the
    /// same channel afterwards, whatever the order of the two). The bot is not in it: the app is
    /// user-installed there (interactions from it have `context` 2).
    ///
    /// # Panics
    /// If `a` and `b` are the same user.
    pub fn dm(&self, a: &User, b: &User) -> u64 {
        assert_ne!(a.id, b.id, "a DM is between two users");
        let mut inner = self.shared.lock();
        let found = inner.private.iter().find(|(_, p)| {
            p.kind == 1 && !p.with_bot && p.users.contains(&a.id) && p.users.contains(&b.id)
        });
        if let Some((id, _)) = found {
            return *id;
        }
        add_private(&mut inner, 1, vec![a.id, b.id], false)
    }

    /// A new group DM (Discord channel type 3) of `users` (2 to 10 of them), without the bot
    /// (interactions from it have `context` 2). Each call makes another one, as on Discord.
    ///
    /// # Panics
    /// For fewer than 2 or more than 10 users, or a user given twice.
    pub fn group_dm(&self, users: &[&User]) -> u64 {
        assert!(
            (2..=MAX_GROUP_DM).contains(&users.len()),
            "a group DM has 2 to {MAX_GROUP_DM} users"
        );
        let mut ids: Vec<u64> = users.iter().map(|u| u.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), users.len(), "a user given twice");
        let ids = users.iter().map(|u| u.id).collect();
        add_private(&mut self.shared.lock(), 3, ids, false)
    }

    /// `user`'s DM with the bot user itself (channel type 1; interactions from it have
    /// `context` 1, BOT_DM), made at the first call. The bot is in it: it may post there.
    pub fn bot_dm(&self, user: &User) -> u64 {
        let mut inner = self.shared.lock();
        let found = inner
            .private
            .iter()
            .find(|(_, p)| p.with_bot && p.users == [user.id]);
        if let Some((id, _)) = found {
            return *id;
        }
        add_private(&mut inner, 1, vec![user.id], true)
    }

    /// Whether `channel` is a DM or group DM (with the bot or not), not a server's channel.
    pub fn is_private(&self, channel: u64) -> bool {
        self.shared.lock().private.contains_key(&channel)
    }

    /// Whether Discord's client would offer `/name` in `channel`, from the registered command:
    /// - a command registered for a guild: in server channels only ("Guild commands are not
    ///   available in DMs"; the stand-in's other guilds, [`Standin::put_channel_in_guild`],
    ///   count as having the same commands);
    /// - a global command: if its `contexts` (default: all) has the channel's context (0 in a
    ///   server, 1 in the bot's DM, 2 in another DM or group DM) and its `integration_types`
    ///   (default `[0]`, guild install) allow it there: in a server or the bot's DM either
    ///   installation does (every stand-in user shares the server with the bot and has the app
    ///   installed), in another DM or group DM only USER_INSTALL (1) does.
    ///
    /// A command that is not registered at all is not offered.
    pub fn offered(&self, channel: u64, name: &str) -> bool {
        let inner = self.shared.lock();
        command_for(&inner, name, inner.context_of(channel)).is_some_and(|(_, offered)| offered)
    }

    /// Makes every interaction sent so far older than 15 minutes, the life of an interaction
    /// token: the webhook routes with its token (a follow-up; a get, edit or delete of
    /// `@original` or of its messages) now answer 401 `{"code": 50027, "message": "Invalid
    /// Webhook Token"}`. Interactions sent later are fresh.
    pub fn expire_tokens(&self) {
        let mut inner = self.shared.lock();
        for i in &mut inner.interactions {
            i.expired = true;
        }
        drop(inner);
        self.shared.notify();
    }
}

/// Records a new private channel and returns its id.
fn add_private(inner: &mut Inner, kind: u8, users: Vec<u64>, with_bot: bool) -> u64 {
    let id = FIRST_PRIVATE_CHANNEL + inner.private.len() as u64;
    inner.private.insert(
        id,
        PrivateChannel {
            kind,
            users,
            with_bot,
        },
    );
    id
}

/// A command's list of small numbers (`integration_types`, `contexts`); `None` when absent or
/// null.
fn numbers(command: &Value, key: &str) -> Option<Vec<u64>> {
    command
        .get(key)
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_u64).collect())
}

/// Whether the registered `command` of `scope` (`None`: global) is offered in `context` (see
/// [`Standin::offered`]).
fn offered_in(scope: Option<u64>, command: &Value, context: u8) -> bool {
    if scope.is_some() {
        return context == CONTEXT_GUILD;
    }
    let contexts = numbers(command, "contexts").unwrap_or_else(|| vec![0, 1, 2]);
    let types = numbers(command, "integration_types").unwrap_or_else(|| vec![0]);
    let has = |t: u8| types.contains(&u64::from(t));
    contexts.contains(&u64::from(context))
        && match context {
            CONTEXT_PRIVATE => has(USER_INSTALL),
            _ => has(GUILD_INSTALL) || has(USER_INSTALL),
        }
}

/// The registration of `/name` an interaction in `context` uses — one offered there if any —
/// with its scope and whether it is offered.
pub(crate) fn command_for<'a>(
    inner: &'a Inner,
    name: &str,
    context: u8,
) -> Option<((Option<u64>, &'a Value), bool)> {
    // `"tournament create"`: subcommand `create` of `/tournament`, found as its command.
    let name = name.split(' ').next().unwrap_or(name);
    let mut found = None;
    for (scope, list) in &inner.commands {
        for c in list.iter().filter(|c| c["name"] == name) {
            let offered = offered_in(*scope, c, context);
            if offered {
                return Some(((*scope, c), true));
            }
            found.get_or_insert(((*scope, c), false));
        }
    }
    found
}

/// `authorizing_integration_owners` of a command interaction from `user` in `context` (guild
/// `guild` if in a server) with the registered command `command` (scope and JSON; `None`: not
/// registered): the installations the command supports that are present there
/// (<https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-authorizing-integration-owners-object>).
pub(crate) fn command_owners(
    command: Option<(Option<u64>, &Value)>,
    context: u8,
    guild: Option<u64>,
    user: u64,
) -> Vec<(u8, u64)> {
    let types = match command {
        Some((None, c)) => numbers(c, "integration_types").unwrap_or_else(|| vec![0]),
        _ => vec![u64::from(GUILD_INSTALL)],
    };
    let mut owners = Vec::new();
    if types.contains(&u64::from(GUILD_INSTALL)) && context != CONTEXT_PRIVATE {
        // The guild's id in a server, "0" in the bot's DM.
        owners.push((GUILD_INSTALL, guild.unwrap_or(0)));
    }
    if types.contains(&u64::from(USER_INSTALL)) || context == CONTEXT_PRIVATE {
        owners.push((USER_INSTALL, user));
    }
    owners
}

/// `authorizing_integration_owners` of a button press on message `message` by `user` in
/// `context`: those of the interaction that made the message (its authorizing user, not
/// necessarily the one pressing), else those of the place.
pub(crate) fn press_owners(
    inner: &Inner,
    message: u64,
    context: u8,
    guild: Option<u64>,
    user: u64,
) -> Vec<(u8, u64)> {
    inner
        .interactions
        .iter()
        .find(|i| i.messages.contains(&message) && !i.owners.is_empty())
        .map_or_else(
            || command_owners(None, context, guild, user),
            |i| i.owners.clone(),
        )
}

#[cfg(test)]
#[path = "private_tests.rs"]
mod tests;
