//! Games in their own thread: a public thread opened from the challenge message (or from a
//! message the bot posts for `/play` and `/accept`), named after the players, archived after a
//! day without messages. The game lives in the thread (its channel, for the service); the
//! message in the parent channel links to it and is updated with the result ([`ended`]).
//!
//! Without Create Public Threads or Send Messages in Threads, Discord refuses with 50013
//! (Missing Permissions): the game then starts in the channel itself, with a note saying which
//! permissions to grant.

use poise::serenity_prelude as serenity;
use serenity::{AutoArchiveDuration, CreateThread, EditMessage, Http};
use tracing::{error, info, warn};

use std::future::Future;

use super::announce::Herald;
use super::answers::game_answer;
use super::i18n::{mention, Locales};
use super::respond::{send, Answer, Failed};
use crate::game::{ChannelId, GameId, GameService, Reply, ServiceError, Thread};
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

/// The thread's name: "alice vs bob — Makruk", cut to Discord's 100 characters.
pub(crate) fn name(locale: Locale, first: &str, second: &str) -> String {
    let full = tr!(
        locale,
        "discord-thread-name",
        first = first,
        second = second
    );
    full.chars().take(MAX_NAME).collect()
}

/// A user's name as a thread name shows it (display name, else username; "?" if unknown).
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
/// message the thread was opened from now says so, with `what` (who won and why, the players),
/// in the server's language. Failures are logged: the thread itself shows the result.
pub(crate) async fn ended(http: &Http, service: &GameService, game: GameId, what: &str) {
    let thread = match service.game_thread(game).await {
        Ok(Some(t)) => t,
        Ok(None) => return,
        Err(e) => {
            error!(game = game.0, error = %e, "cannot read the game's thread");
            return;
        }
    };
    let locale = service.game_locale(game).await.unwrap_or_default();
    let text = tr!(
        locale,
        "discord-thread-ended",
        id = game.0,
        thread = channel_link(thread.channel),
        what = what
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
async fn post(http: &Http, channel: ChannelId, text: String) -> Result<u64, Failed> {
    let ch = serenity::ChannelId::new(channel.0.max(1));
    send("channel message", None, || {
        ch.send_message(http, serenity::CreateMessage::new().content(text.clone()))
    })
    .await
    .map(|m| m.id.get())
}

/// Starts a game in a thread of `channel` named `name`, opened from `message` (the challenge
/// message whose Accept was pressed) or, if `None`, from a message posted for it: `start` is
/// the service's request, given the thread (or `None` when no thread could be opened: the game
/// then starts in the channel). The board goes into the thread; the answer is, for a pressed
/// challenge message, its new text linking to the thread, else a private pointer to the thread
/// (the posted message links to it). Without a thread: the board, with a note saying why.
///
/// # Errors
/// The service's refusal.
pub(crate) async fn start<F, Fut>(
    http: &Http,
    herald: &Herald,
    (channel, message): (ChannelId, Option<u64>),
    name: &str,
    locales: Locales,
    start: F,
) -> Result<Answer, ServiceError>
where
    F: FnOnce(Option<Thread>) -> Fut,
    Fut: Future<Output = Result<Reply, ServiceError>>,
{
    let locale = locales.public;
    let posted = message.is_none();
    let source = match message {
        Some(m) => Ok(m),
        None => post(http, channel, tr!(locale, "discord-thread-opening")).await,
    };
    let (opened, source) = match source {
        Ok(m) => (open(http, channel, m, name).await, Some(m)),
        Err(f) => {
            warn!("cannot post a message to open the thread from: {f}");
            (Err(NoThread::Failed), None)
        }
    };
    let thread = match opened {
        Ok(thread) => thread,
        Err(why) => {
            let note = fallback_note(&why, locale);
            let reply = start(None).await?;
            let mut answer = game_answer(&reply, locale).await?;
            answer.content = format!("{note}\n{}", answer.content);
            if let (true, Some(m)) = (posted, source) {
                // The message posted for the thread would only say "opening a thread…".
                if let Err(f) = edit(http, channel, m, note).await {
                    warn!("cannot edit the message posted for the thread: {f}");
                }
            }
            return Ok(answer);
        }
    };
    let reply = start(Some(thread)).await?;
    let board = game_answer(&reply, locale).await?;
    let into = serenity::ChannelId::new(thread.channel.0.max(1));
    if let Err(f) = herald.post(http, into, board).await {
        // The move-0 board is not a move: nothing to re-post; the thread still links the game.
        warn!(thread = %into, "cannot post the board in the thread: {f}");
    }
    let link = channel_link(thread.channel);
    let text = tr!(
        locale,
        "discord-thread-started",
        id = reply.game_id.0,
        white = mention(reply.white),
        black = mention(reply.black),
        thread = link.clone()
    );
    if !posted {
        return Ok(Answer::public(text));
    }
    if let Err(f) = edit(http, channel, thread.parent_message, text).await {
        warn!("cannot link the thread from its starting message: {f}");
    }
    Ok(Answer::private(tr!(
        locales.user,
        "discord-thread-your-game",
        thread = link
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_names_are_the_players_and_fit_discords_limit() {
        assert_eq!(name(Locale::En, "alice", "bob"), "alice vs bob — Makruk");
        assert_eq!(name(Locale::Th, "สมชาย", "มาลี"), "สมชาย พบ มาลี — หมากรุกไทย");
        let long = "x".repeat(80);
        let cut = name(Locale::En, &long, &long);
        assert_eq!(cut.chars().count(), MAX_NAME);
        assert!(cut.starts_with(&long));
    }

    #[test]
    fn links_name_the_channel() {
        assert_eq!(channel_link(ChannelId(42)), "<#42>");
    }
}
