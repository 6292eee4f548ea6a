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
use super::reach::Reach;
use crate::game::{ChannelId, GameService};

/// Shows boards in channels for sure and keeps the "announced" mark of the moves they show:
/// shared by the interaction handlers (their answers) and the poster (announcements, re-posts).
pub(crate) struct Herald {
    service: GameService,
    /// Channels with an answer being worked on or sent, and how many.
    busy: Mutex<HashMap<u64, usize>>,
    /// The channels the bot may only answer in, and their doors.
    reach: Reach,
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
            reach: Reach::default(),
        }
    }

    /// Learns the answer-only channels stored by earlier runs (before anything is posted: a
    /// post there would be refused). A failure is logged: those channels are learned again
    /// from their next interaction.
    pub(crate) async fn load_reach(&self) {
        match self.service.answer_only_channels().await {
            Ok(channels) => {
                for c in channels {
                    self.reach.learn(serenity::ChannelId::new(c.0.max(1)));
                }
            }
            Err(e) => error!(error = %e, "cannot read the answer-only channels"),
        }
    }

    /// The service's time, Unix milliseconds (a simulator's clock moves it).
    pub(crate) fn now_ms(&self) -> i64 {
        self.service.time().now_ms()
    }

    /// The channels the bot may only answer in.
    pub(crate) fn reach(&self) -> &Reach {
        &self.reach
    }

    /// An interaction showed that `channel` takes only answers: remembered (and stored the
    /// first time, so that a restart knows it).
    pub(crate) async fn learn_answer_only(&self, channel: serenity::ChannelId) {
        if self.reach.learn(channel) {
            if let Err(e) = self
                .service
                .add_answer_only_channel(ChannelId(channel.get()))
                .await
            {
                error!(%channel, error = %e, "cannot store an answer-only channel");
            }
        }
    }

    /// Keeps `answer` for the next interaction in answer-only `channel` (nothing if the channel
    /// is not one).
    pub(crate) async fn hold(&self, channel: serenity::ChannelId, answer: Answer) {
        if let Some(door) = self.reach.door(channel) {
            door.lock().await.hold(answer);
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
    /// what it shows. In a channel the bot may only answer in, it goes as a follow-up of the
    /// channel's newest interaction instead (see `super::reach`).
    ///
    /// # Errors
    /// When Discord did not take it; [`Failed::held`] when no interaction of an answer-only
    /// channel can carry it now (the caller keeps it, or leaves it for the next interaction).
    pub(crate) async fn post(
        &self,
        http: &Http,
        channel: serenity::ChannelId,
        answer: Answer,
    ) -> Result<(), Failed> {
        self.post_as(http, channel, answer, false).await
    }

    /// As [`Herald::post`], for the board of moves nobody has shown yet (the computer's reply):
    /// in an answer-only channel it is not sent if those moves were shown meanwhile (with the
    /// answer to an interaction there).
    ///
    /// # Errors
    /// As [`Herald::post`].
    pub(crate) async fn post_moves(
        &self,
        http: &Http,
        channel: serenity::ChannelId,
        answer: Answer,
    ) -> Result<(), Failed> {
        self.post_as(http, channel, answer, true).await
    }

    async fn post_as(
        &self,
        http: &Http,
        channel: serenity::ChannelId,
        answer: Answer,
        moves_only: bool,
    ) -> Result<(), Failed> {
        if let Some(door) = self.reach.door(channel) {
            let mut door = door.lock().await;
            // A move's board may have gone with the interaction that held the door meanwhile.
            if moves_only {
                if let Some((game, plies)) = answer.shows {
                    if !self
                        .service
                        .needs_announcing(game, plies)
                        .await
                        .unwrap_or(true)
                    {
                        return Ok(());
                    }
                }
            }
            door.followup(http, &answer, self.now_ms()).await?;
        } else {
            send("channel message", None, || {
                channel.send_message(http, answer.clone().channel_message())
            })
            .await?;
        }
        self.shown(http, &answer).await;
        Ok(())
    }
}
