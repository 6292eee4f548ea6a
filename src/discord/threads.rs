//! Discord's side of games in their own thread: a public thread opened from the challenge
//! message (or from a message the bot posts for `/play` and `/accept`), named after the players,
//! archived after a day without messages. The game lives in the thread (its channel, for the
//! service); the message in the parent channel links to it and is updated with the result
//! ([`ended`]). Starting a game in a thread is `commands::thread`'s.
//!
//! Without Create Public Threads or Send Messages in Threads, Discord refuses with 50013
//! (Missing Permissions): the game then starts in the channel itself, with a note saying which
//! permissions to grant.

use poise::serenity_prelude as serenity;
use serenity::{AutoArchiveDuration, CreateThread, EditMessage, Http};
use tracing::{error, info, warn};

use super::answer::{send, Ended, Failed};
use crate::game::{ChannelId, GameId, GameService, Thread};
use crate::i18n::Locale;
use crate::tr;

/// Discord's longest thread name, in characters.
const MAX_NAME: usize = 100;

/// Why no thread was opened.
#[derive(Debug)]
pub(crate) enum NoThread {
    /// Discord's 50013: the bot lacks Create Public Threads (or Send Messages in Threads).
    MissingPermission,
    /// Anything else (logged).
    Failed,
}

/// `<#id>`: a channel (thread) as Discord shows a link to it.
pub(crate) fn channel_link(channel: ChannelId) -> String {
    format!("<#{}>", channel.0)
}

/// The thread's name: "alice vs bob — Makruk" (or the game's variant), cut to Discord's 100
/// characters.
pub(crate) fn name(
    locale: Locale,
    first: &str,
    second: &str,
    variant: crate::game::Variant,
) -> String {
    let full = tr!(
        locale,
        "discord-thread-name",
        first = first,
        second = second,
        game = crate::game::variant_name(locale, variant)
    );
    full.chars().take(MAX_NAME).collect()
}

/// A user's name as Discord shows it (display name, else username; "?" if unknown): thread
/// names, the PGN's players.
pub(crate) async fn user_name(http: &Http, user: crate::game::UserId) -> String {
    match serenity::UserId::new(user.0.max(1)).to_user(http).await {
        Ok(u) => u.global_name.unwrap_or(u.name),
        Err(e) => {
            warn!(user = user.0, "cannot read a user's name: {e}");
            "?".to_owned()
        }
    }
}

/// Opens a public thread named `name` from message `message` of `channel`, archived after a day
/// of inactivity; returns it as the service names a game's home.
///
/// # Errors
/// [`NoThread::MissingPermission`] on Discord's 50013, else [`NoThread::Failed`].
pub(crate) async fn open(
    http: &Http,
    channel: ChannelId,
    message: u64,
    name: &str,
) -> Result<Thread, NoThread> {
    let parent = serenity::ChannelId::new(channel.0.max(1));
    let from = serenity::MessageId::new(message.max(1));
    let opened = send("thread", None, || {
        let builder = CreateThread::new(name).auto_archive_duration(AutoArchiveDuration::OneDay);
        parent.create_thread_from_message(http, from, builder)
    })
    .await;
    match opened {
        Ok(thread) => {
            info!(thread = %thread.id, %parent, "thread opened");
            Ok(Thread {
                channel: ChannelId(thread.id.get()),
                parent_channel: channel,
                parent_message: message,
            })
        }
        Err(f) if missing_permission(&f.error) => {
            warn!(%parent, "no permission to open a thread: the game starts in the channel");
            Err(NoThread::MissingPermission)
        }
        Err(f) => {
            warn!(%parent, "cannot open a thread, the game starts in the channel: {f}");
            Err(NoThread::Failed)
        }
    }
}

/// Whether `e` is Discord's 50013 Missing Permissions.
fn missing_permission(e: &serenity::Error) -> bool {
    use ::serenity::http::HttpError;
    matches!(e, serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) if r.error.code == 50013)
}

/// The note shown when the game starts in the channel instead of a thread: why, and (for
/// Discord's 50013) which permissions to grant.
pub(crate) fn fallback_note(why: &NoThread, locale: Locale) -> String {
    match why {
        NoThread::MissingPermission => tr!(locale, "discord-thread-missing-permission"),
        NoThread::Failed => tr!(locale, "discord-thread-failed"),
    }
}

/// Edits message `message` of `channel` (the bot's own) to `text`, without buttons.
///
/// # Errors
/// When Discord did not take it.
pub(crate) async fn edit(
    http: &Http,
    channel: ChannelId,
    message: u64,
    text: String,
) -> Result<(), Failed> {
    let ch = serenity::ChannelId::new(channel.0.max(1));
    let id = serenity::MessageId::new(message.max(1));
    send("message edit", None, || {
        let edit = EditMessage::new()
            .content(text.clone())
            .components(Vec::new());
        ch.edit_message(http, id, edit)
    })
    .await
    .map(drop)
}

/// Game `game` ended (its last board reached its channel): if it is played in a thread, the
/// message the thread was opened from now says so, with what the board said (who won and why,
/// the players), in the board's language. Failures are logged: the thread itself shows the
/// result.
pub(crate) async fn ended(http: &Http, service: &GameService, game: GameId, ended: &Ended) {
    let thread = match service.game_thread(game).await {
        Ok(Some(t)) => t,
        Ok(None) => return,
        Err(e) => {
            error!(game = game.0, error = %e, "cannot read the game's thread");
            return;
        }
    };
    let text = tr!(
        ended.locale,
        "discord-thread-ended",
        id = game.0,
        thread = channel_link(thread.channel),
        what = ended.what.as_str()
    );
    if let Err(f) = edit(http, thread.parent_channel, thread.parent_message, text).await {
        warn!(
            game = game.0,
            "cannot update the thread's starting message: {f}"
        );
    }
}

/// Posts `text` in `channel` (the message a thread is opened from when no challenge message
/// is at hand: `/play`, `/accept`); its id.
///
/// # Errors
/// When Discord did not take it.
pub(crate) async fn post(http: &Http, channel: ChannelId, text: String) -> Result<u64, Failed> {
    let ch = serenity::ChannelId::new(channel.0.max(1));
    send("channel message", None, || {
        ch.send_message(http, serenity::CreateMessage::new().content(text.clone()))
    })
    .await
    .map(|m| m.id.get())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_names_are_the_players_and_fit_discords_limit() {
        assert_eq!(
            name(Locale::En, "alice", "bob", crate::game::Variant::Makruk),
            "alice vs bob — Makruk"
        );
        assert_eq!(
            name(Locale::En, "alice", "bob", crate::game::Variant::Sittuyin),
            "alice vs bob — Sittuyin"
        );
        assert_eq!(
            name(Locale::Th, "สมชาย", "มาลี", crate::game::Variant::Makruk),
            "สมชาย พบ มาลี — หมากรุกไทย"
        );
        let long = "x".repeat(80);
        let cut = name(Locale::En, &long, &long, crate::game::Variant::Makruk);
        assert_eq!(cut.chars().count(), MAX_NAME);
        assert!(cut.starts_with(&long));
    }

    #[test]
    fn links_name_the_channel() {
        assert_eq!(channel_link(ChannelId(42)), "<#42>");
    }
}
