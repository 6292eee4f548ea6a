//! The daily puzzle's poster: wakes when a server's daily puzzle is due (on the service's
//! clock), has the service claim it (once per server and day, in the database), posts it in
//! the server's channel in the server's language and records its message; after a restart it
//! posts what was claimed but never sent. `/settings` wakes it when a server changes its
//! daily puzzle. With several processes on one database only the leader (the holder of the
//! lease of `crate::game`'s `leader`) posts, so that a puzzle is not posted twice; another
//! process looks again every minute, and takes over when it gets the lease.

use std::sync::Arc;

use poise::serenity_prelude as serenity;
use tokio::sync::Notify;
use tokio::task::JoinHandle;
use tracing::{info, warn};

use super::commands::puzzle::daily_message;
use crate::game::{DailyPost, GameService, ServiceError};
use crate::i18n::Locale;

/// The longest sleep between two looks (a server's settings changed by another process).
const LOOK_EVERY_MS: i64 = 10 * 60 * 1000;
/// How long after a failed post (Discord or the database down) it is tried again, and how
/// often a process that is not the leader looks whether it has become it.
const RETRY_MS: i64 = 60 * 1000;

/// Starts the poster.
pub(crate) fn spawn(
    http: Arc<serenity::Http>,
    service: GameService,
    wake: Arc<Notify>,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            if !service.is_leader() {
                let now = service.time().now_ms();
                let time = Arc::clone(service.time());
                tokio::select! {
                    () = time.sleep_until(now + RETRY_MS) => {}
                    () = wake.notified() => {}
                }
                continue;
            }
            let failed = match post_due(&http, &service).await {
                Ok(()) => false,
                Err(e) => {
                    warn!("daily puzzles: {e}");
                    true
                }
            };
            let now = service.time().now_ms();
            let next = match service.next_daily_due_ms().await {
                Ok(Some(at)) => at.min(now + LOOK_EVERY_MS),
                Ok(None) => now + LOOK_EVERY_MS,
                Err(e) => {
                    warn!("daily puzzles: {e}");
                    now + RETRY_MS
                }
            };
            let next = if failed {
                next.min(now + RETRY_MS)
            } else {
                next
            };
            let time = Arc::clone(service.time());
            tokio::select! {
                () = time.sleep_until(next.max(now + 1)) => {}
                () = wake.notified() => {}
            }
        }
    })
}

/// Claims and posts every daily puzzle that is due.
/// Claims and posts every daily puzzle that is due. One server's failure does not hold the
/// others up; the first is returned (the puzzle stays claimed, posted on the next try).
async fn post_due(http: &serenity::Http, service: &GameService) -> Result<(), ServiceError> {
    let mut first_error = None;
    for post in service.claim_due_dailies().await? {
        let posted = async {
            let locale = service
                .guild_settings(post.progress.guild)
                .await?
                .locale
                .unwrap_or(Locale::En);
            post_one(http, service, &post, locale).await
        }
        .await;
        if let Err(e) = posted {
            warn!(guild = post.progress.guild.0, "daily puzzle: {e}");
            first_error.get_or_insert(e);
        }
    }
    first_error.map_or(Ok(()), Err)
}

async fn post_one(
    http: &serenity::Http,
    service: &GameService,
    post: &DailyPost,
    locale: Locale,
) -> Result<(), ServiceError> {
    let p = &post.progress;
    let answer = daily_message(post, locale).await?;
    let channel = serenity::ChannelId::new(p.channel.0);
    // The lease may have passed to another process while the picture was drawn.
    if !service.is_leader() {
        return Ok(());
    }
    // Discord drops a second message with the same nonce sent within minutes: a post repeated
    // after a crash between sending and recording it is not shown twice.
    let message = answer
        .channel_message()
        .nonce(serenity::Nonce::String(nonce(p)))
        .enforce_nonce(true);
    match channel.send_message(http, message).await {
        Ok(message) => {
            service
                .daily_posted(p.guild, &p.day, message.id.get())
                .await?;
            info!(guild = p.guild.0, day = %p.day, "daily puzzle posted");
        }
        Err(e) => {
            // A channel deleted or closed to the bot: the day is given up (0: no message), and
            // the server is told nothing; its /settings shows the channel still set.
            warn!(
                guild = p.guild.0,
                channel = p.channel.0,
                "cannot post the daily puzzle: {e}"
            );
            if is_refusal(&e) {
                service.daily_posted(p.guild, &p.day, 0).await?;
            } else {
                return Err(ServiceError::Internal(anyhow::anyhow!(
                    "cannot post the daily puzzle: {e}"
                )));
            }
        }
    }
    Ok(())
}

/// The nonce of a daily puzzle's message: the server and day (at most 25 characters).
fn nonce(p: &crate::game::DailyProgress) -> String {
    let day: String = p.day.chars().filter(char::is_ascii_digit).collect();
    let mut text = format!("d{day}{:x}", p.guild.0);
    text.truncate(25);
    text
}

/// Discord refused the post for good (no access, unknown channel), rather than failing.
fn is_refusal(e: &serenity::Error) -> bool {
    matches!(
        e,
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r))
            if (400..500).contains(&r.status_code.as_u16()) && r.status_code.as_u16() != 429
    )
}
