//! Starting a game in its own thread (`/challenge … thread:true` accepted, `/play … thread:true`):
//! the thread opened through `crate::discord::threads`, the first board posted into it through
//! the [`Herald`], the answer linking to it. Shared by `/accept`, the challenge's Accept button
//! (`components`) and `/play`.

use std::future::Future;

use poise::serenity_prelude as serenity;
use serenity::Http;
use tracing::warn;

use crate::discord::answer::Answer;
use crate::discord::herald::Herald;
use crate::discord::i18n::{mention, Locales};
use crate::discord::messages::game_answer;
use crate::discord::threads;
use crate::game::{ChallengeId, ChannelId, GameService, Reply, ServiceError, Thread, UserId};
use crate::tr;

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
        None => threads::post(http, channel, tr!(locale, "discord-thread-opening")).await,
    };
    let (opened, source) = match source {
        Ok(m) => (threads::open(http, channel, m, name).await, Some(m)),
        Err(f) => {
            warn!("cannot post a message to open the thread from: {f}");
            (Err(threads::NoThread::Failed), None)
        }
    };
    let thread = match opened {
        Ok(thread) => thread,
        Err(why) => {
            let note = threads::fallback_note(&why, locale);
            let reply = start(None).await?;
            let mut answer = game_answer(&reply, locale).await?;
            answer.content = format!("{note}\n{}", answer.content);
            if let (true, Some(m)) = (posted, source) {
                // The message posted for the thread would only say "opening a thread…".
                if let Err(f) = threads::edit(http, channel, m, note).await {
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
    let link = threads::channel_link(thread.channel);
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
    if let Err(f) = threads::edit(http, channel, thread.parent_message, text).await {
        warn!("cannot link the thread from its starting message: {f}");
    }
    Ok(Answer::private(tr!(
        locales.user,
        "discord-thread-your-game",
        thread = link
    )))
}

/// Accepts challenge `id` (the open one if `None`) of `channel` for `player`, the game in a
/// thread named after `players` (challenger, challenged) opened from `message` (see
/// [`start`]).
// The accept's parts one by one, as the button and the command have them.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn accept_in_thread(
    http: &serenity::Http,
    herald: &Herald,
    service: &GameService,
    (channel, message): (ChannelId, Option<u64>),
    player: UserId,
    id: Option<ChallengeId>,
    (challenger, opponent, variant): (UserId, UserId, crate::game::Variant),
    locales: Locales,
) -> Result<Answer, ServiceError> {
    let name = threads::name(
        locales.public,
        &threads::user_name(http, challenger).await,
        &threads::user_name(http, opponent).await,
        variant,
    );
    start(http, herald, (channel, message), &name, locales, |thread| {
        service.accept_in(channel, player, id, thread)
    })
    .await
}
