//! The keeper of the promise that every stored move reaches its channel: [`Herald`] shows
//! boards in channels for sure and marks the moves they show announced. Shared by the
//! interaction pipeline (`respond`: its answers) and the poster (`announce`: announcements and
//! re-posts); it builds only on the leaf `answer` and on `threads` (a finished game's thread).

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use poise::serenity_prelude as serenity;
use serenity::Http;
use tracing::error;

use super::answer::{send, Answer, Failed};
use crate::game::GameService;

/// Shows boards in channels for sure and keeps the "announced" mark of the moves they show:
/// shared by the interaction handlers (their answers) and the poster (announcements, re-posts).
pub(crate) struct Herald {
    service: GameService,
    /// Channels with an answer being worked on or sent, and how many.
    busy: Mutex<HashMap<u64, usize>>,
}

/// A channel's answer in progress (see [`Herald::busy`]); dropping it ends it.
pub(crate) struct Busy<'a> {
    herald: &'a Herald,
    channel: u64,
}

impl Drop for Busy<'_> {
    fn drop(&mut self) {
        let mut busy = self.herald.lock();
        if let Some(n) = busy.get_mut(&self.channel) {
            *n -= 1;
            if *n == 0 {
                busy.remove(&self.channel);
            }
        }
    }
}

impl Herald {
    /// The herald of `service`'s games.
    pub(crate) fn new(service: GameService) -> Herald {
        Herald {
            service,
            busy: Mutex::default(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, usize>> {
        self.busy.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// An answer in `channel` is being worked on until the guard drops: the periodic re-post
    /// leaves the channel alone meanwhile (the answer will show the board itself). Taken before
    /// the work that may store a move starts.
    pub(crate) fn busy(&self, channel: serenity::ChannelId) -> Busy<'_> {
        *self.lock().entry(channel.get()).or_default() += 1;
        Busy {
            herald: self,
            channel: channel.get(),
        }
    }

    /// The service whose moves it marks.
    pub(crate) fn service(&self) -> &GameService {
        &self.service
    }

    /// Whether an answer in `channel` is being worked on or sent (see [`Herald::busy`]).
    pub(crate) fn is_busy(&self, channel: serenity::ChannelId) -> bool {
        self.lock().contains_key(&channel.get())
    }

    /// `answer` reached its channel: if it is public and shows a board, the moves up to that
    /// board are announced. A failure to mark is logged (the board would be posted again at the
    /// next re-post: a duplicate, never a loss).
    /// A finished game's board also updates the starting message of its thread, if it has one.
    pub(crate) async fn shown(&self, http: &Http, answer: &Answer) {
        let Some((game, plies)) = answer.shows.filter(|_| !answer.ephemeral) else {
            return;
        };
        if let Err(e) = self.service.mark_announced(game, plies).await {
            error!(game = game.0, plies, error = %e, "cannot mark moves announced");
        }
        if let Some(ended) = &answer.ended {
            super::threads::ended(http, &self.service, game, ended).await;
        }
    }

    /// Posts `answer` to `channel` as a plain message (retried as Discord allows), then marks
    /// what it shows.
    ///
    /// # Errors
    /// When Discord did not take it.
    pub(crate) async fn post(
        &self,
        http: &Http,
        channel: serenity::ChannelId,
        answer: Answer,
    ) -> Result<(), Failed> {
        send("channel message", None, || {
            channel.send_message(http, answer.clone().channel_message())
        })
        .await?;
        self.shown(http, &answer).await;
        Ok(())
    }
}
