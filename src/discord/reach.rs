//! Channels the bot may only answer in, and the way its messages get there.
//!
//! An app installed to a user's account (Discord's USER_INSTALL) is not a member of the DMs and
//! group DMs it is used in, nor of a server that did not add it: it answers interactions there
//! but cannot post a message of its own (Discord answers 403 "Missing Access"). An interaction's
//! token takes follow-up messages for 15 minutes, at most 5 of them for such an app. So in an
//! answer-only channel what the bot would post by itself (the computer's move, a flag that fell,
//! an analysis' result) goes as a follow-up of the channel's newest interaction while its token
//! lasts; otherwise it waits for the next interaction there, and goes with its answer (see
//! `announce::at_the_door`).
//!
//! [`Reach`] knows the answer-only channels (learned from interactions: [`answer_only`]; stored
//! through the service so that a restart knows them before their next interaction) and keeps a
//! [`Door`] for each: the newest token and what waits. A door is locked while an interaction in
//! its channel is answered and while something goes through it, so that the channel's messages
//! keep their order and none goes twice.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::{AuthorizingIntegrationOwner, Builder as _, Http, InteractionContext};

use super::answer::{send, Answer, Failed};

/// How long a token is used for follow-ups: Discord takes them for 15 minutes; the last half
/// minute is left alone (a follow-up sent then could fail on the way).
const TOKEN_LIFE: Duration = Duration::from_secs(15 * 60 - 30);

/// The follow-ups Discord allows an interaction of an app that is not in the channel.
const MAX_FOLLOWUPS: u8 = 5;

/// The most answers a door keeps waiting (the oldest go first when more come).
const MAX_HELD: usize = 8;

/// Whether an interaction with `context`, in `guild`, authorized by `owners`, comes from a
/// channel the bot may only answer in: a DM or group DM other than the bot's own
/// (PRIVATE_CHANNEL), or a server channel of a server that did not add the app (only users
/// installed it: no GUILD_INSTALL owner for that server). A bot DM (BOT_DM) and an interaction
/// without these fields (older payloads) are channels the bot may post in.
pub(crate) fn answer_only(
    context: Option<InteractionContext>,
    guild: Option<serenity::GuildId>,
    owners: &serenity::AuthorizingIntegrationOwners,
) -> bool {
    match context {
        Some(InteractionContext::PrivateChannel) => true,
        Some(InteractionContext::Guild) | None => {
            guild.is_some()
                && !owners.0.is_empty()
                && !owners
                    .0
                    .iter()
                    .any(|o| matches!(o, AuthorizingIntegrationOwner::GuildInstall(Some(g)) if Some(*g) == guild))
        }
        _ => false,
    }
}

/// An interaction token that still takes follow-ups.
struct Token {
    token: String,
    /// When its interaction was answered, Unix milliseconds of the service's time (a
    /// simulator's clock moves it too).
    since_ms: i64,
    followups: u8,
}

/// The way into one answer-only channel: its newest interaction's token, and the answers
/// waiting for the next interaction.
#[derive(Default)]
pub(crate) struct Door {
    token: Option<Token>,
    held: Vec<Answer>,
    /// Some board of the channel's games may not have been shown (a move no interaction could
    /// carry, an answer lost, a restart): the next interaction looks for unannounced moves.
    owed: bool,
}

impl Door {
    /// The interaction with `token` was just answered in the channel (at `now_ms`, Unix
    /// milliseconds): its token carries what comes next. `used` follow-ups were already sent
    /// with it (its answer's own).
    pub(crate) fn open(&mut self, token: &str, used: u8, now_ms: i64) {
        self.token = Some(Token {
            token: token.to_owned(),
            since_ms: now_ms,
            followups: used,
        });
    }

    /// Whether a follow-up can be sent at `now_ms` (Unix milliseconds).
    pub(crate) fn is_open(&self, now_ms: i64) -> bool {
        let life = i64::try_from(TOKEN_LIFE.as_millis()).unwrap_or(i64::MAX);
        self.token.as_ref().is_some_and(|t| {
            now_ms.saturating_sub(t.since_ms) < life && t.followups < MAX_FOLLOWUPS
        })
    }

    /// Sends `answer` as a follow-up of the channel's newest interaction (retried as Discord
    /// allows), at `now_ms` (Unix milliseconds).
    ///
    /// # Errors
    /// [`Failed::held`] when no token can carry it (none, expired, its follow-ups used up);
    /// Discord's refusal otherwise (a token Discord says is spent is dropped).
    pub(crate) async fn followup(
        &mut self,
        http: &Http,
        answer: &Answer,
        now_ms: i64,
    ) -> Result<(), Failed> {
        if !self.is_open(now_ms) {
            self.token = None;
            return Err(Failed::held());
        }
        let Some(token) = self.token.as_mut() else {
            return Err(Failed::held());
        };
        // Counted before it is sent: a try that failed on the way may have been taken.
        token.followups += 1;
        let key = token.token.clone();
        let sent = send("follow-up", None, || {
            answer
                .clone()
                .followup()
                .execute(http, (None, key.as_str()))
        })
        .await;
        match sent {
            Ok(_) => Ok(()),
            Err(f) => {
                if f.token_spent() {
                    self.token = None;
                }
                Err(f)
            }
        }
    }

    /// Some move of the channel may not have been shown: the next interaction looks.
    pub(crate) fn owe(&mut self) {
        self.owed = true;
    }

    /// Whether the next interaction is to look for unannounced moves; the mark is taken (put it
    /// back with [`Door::owe`] if they cannot all be shown).
    pub(crate) fn take_owed(&mut self) -> bool {
        std::mem::take(&mut self.owed)
    }

    /// Keeps `answer` for the next interaction in the channel.
    pub(crate) fn hold(&mut self, answer: Answer) {
        if self.held.len() == MAX_HELD {
            self.held.remove(0);
        }
        self.held.push(answer);
    }

    /// The answers kept for this interaction, oldest first (the door keeps none).
    pub(crate) fn take_held(&mut self) -> Vec<Answer> {
        std::mem::take(&mut self.held)
    }

    /// Puts back answers that could not go (in front of any held meanwhile).
    pub(crate) fn put_back(&mut self, mut answers: Vec<Answer>) {
        answers.append(&mut self.held);
        self.held = answers;
        while self.held.len() > MAX_HELD {
            self.held.remove(0);
        }
    }
}

/// The answer-only channels known to this process, with their doors.
#[derive(Default)]
pub(crate) struct Reach {
    doors: Mutex<HashMap<u64, Arc<tokio::sync::Mutex<Door>>>>,
}

impl Reach {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<tokio::sync::Mutex<Door>>>> {
        self.doors.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records `channel` as answer-only; true if it was not known yet (then it is to be stored).
    /// `owed`: its next interaction is to look for unannounced moves (a restart's channels).
    pub(crate) fn learn(&self, channel: serenity::ChannelId, owed: bool) -> bool {
        let mut doors = self.lock();
        if doors.contains_key(&channel.get()) {
            return false;
        }
        let door = Door {
            owed,
            ..Door::default()
        };
        doors.insert(channel.get(), Arc::new(tokio::sync::Mutex::new(door)));
        true
    }

    /// Forgets that `channel` is answer-only; its door, if it was.
    pub(crate) fn forget(
        &self,
        channel: serenity::ChannelId,
    ) -> Option<Arc<tokio::sync::Mutex<Door>>> {
        self.lock().remove(&channel.get())
    }

    /// The door of `channel` if it is answer-only.
    pub(crate) fn door(
        &self,
        channel: serenity::ChannelId,
    ) -> Option<Arc<tokio::sync::Mutex<Door>>> {
        self.lock().get(&channel.get()).cloned()
    }

    /// Whether `channel` is answer-only.
    pub(crate) fn answer_only(&self, channel: serenity::ChannelId) -> bool {
        self.lock().contains_key(&channel.get())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owners(json: &str) -> serenity::AuthorizingIntegrationOwners {
        serde_json::from_str(json).expect("owners")
    }

    #[test]
    fn which_channels_take_only_answers() {
        let guild = Some(serenity::GuildId::new(7));
        let in_guild = owners(r#"{"0": "7"}"#);
        let user_only = owners(r#"{"1": "42"}"#);
        let both = owners(r#"{"0": "7", "1": "42"}"#);
        let none = owners("{}");
        // A DM or group DM of users (the app installed to one of them).
        assert!(answer_only(
            Some(InteractionContext::PrivateChannel),
            None,
            &user_only
        ));
        // The user's DM with the bot: the bot is in it.
        assert!(!answer_only(
            Some(InteractionContext::BotDm),
            None,
            &user_only
        ));
        // A server that added the bot; one where only the user installed the app.
        assert!(!answer_only(
            Some(InteractionContext::Guild),
            guild,
            &in_guild
        ));
        assert!(!answer_only(Some(InteractionContext::Guild), guild, &both));
        assert!(answer_only(
            Some(InteractionContext::Guild),
            guild,
            &user_only
        ));
        // Older payloads without the fields: as before, a server channel.
        assert!(!answer_only(None, guild, &none));
    }

    #[test]
    fn a_door_keeps_the_newest_answers_in_order() {
        let mut door = Door::default();
        assert!(!door.is_open(0));
        for i in 0..10 {
            door.hold(Answer::public(format!("{i}")));
        }
        let held = door.take_held();
        assert_eq!(held.len(), MAX_HELD);
        assert_eq!(held[0].content, "2");
        door.hold(Answer::public("new"));
        door.put_back(held);
        let again = door.take_held();
        assert_eq!(again.first().map(|a| a.content.as_str()), Some("3"));
        assert_eq!(again.last().map(|a| a.content.as_str()), Some("new"));
        door.open("t", 1, 1_000);
        assert!(door.is_open(1_000));
        assert!(door.is_open(1_000 + 14 * 60_000));
        assert!(!door.is_open(1_000 + 15 * 60_000));
        door.open("t", MAX_FOLLOWUPS, 1_000);
        assert!(!door.is_open(1_000));
    }
}
