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
    /// Notified when a finished game's board reached its channel: the tournaments' runner
    /// (`super::tournaments`) then looks at once whether a round is complete.
    pub(crate) game_ended: tokio::sync::Notify,
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
            game_ended: tokio::sync::Notify::new(),
        }
    }

    /// Learns the answer-only channels stored by earlier runs (before anything is posted: a
    /// post there would be refused). A failure is logged: those channels are learned again
    /// from their next interaction.
    pub(crate) async fn load_reach(&self) {
        match self.service.answer_only_channels().await {
            Ok(channels) => {
                for c in channels {
                    self.reach.learn(serenity::ChannelId::new(c.0.max(1)), true);
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

    /// An interaction came from `channel`, one the bot may only answer in if `answer_only`:
    /// such a channel is remembered (and stored the first time, so that a restart knows it); a
    /// known one that no longer is (its server added the bot) is forgotten, and what its door
    /// kept is posted.
    pub(crate) async fn learn_reach(
        &self,
        http: &Http,
        channel: serenity::ChannelId,
        answer_only: bool,
    ) {
        let id = ChannelId(channel.get());
        if answer_only {
            if self.reach.learn(channel, false) {
                if let Err(e) = self.service.add_answer_only_channel(id).await {
                    error!(%channel, error = %e, "cannot store an answer-only channel");
                }
            }
            return;
        }
        let Some(door) = self.reach.forget(channel) else {
            return;
        };
        if let Err(e) = self.service.remove_answer_only_channel(id).await {
            error!(%channel, error = %e, "cannot forget an answer-only channel");
        }
        let held = door.lock().await.take_held();
        for answer in held {
            if let Err(f) = self.post(http, channel, answer).await {
                tracing::warn!(%channel, "cannot post what waited for the channel: {f}");
            }
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
            self.game_ended.notify_one();
        }
    }

    /// Posts `answer` to `channel` as a plain message (retried as Discord allows), then marks
    /// what it shows. In a channel the bot may only answer in, it goes as a follow-up of the
    /// channel's newest interaction instead (see `super::reach`), once no answer is being
    /// worked on there (a few seconds at most: the answer and what waited for it go first).
    ///
    /// # Errors
    /// When Discord did not take it; [`Failed::held`] when no interaction of an answer-only
    /// channel can carry it now (it is dropped: a reminder, late by then).
    pub(crate) async fn post(
        &self,
        http: &Http,
        channel: serenity::ChannelId,
        answer: Answer,
    ) -> Result<(), Failed> {
        self.deliver(http, channel, answer, Otherwise::Drop).await
    }

    /// As [`Herald::post`], for the board of moves nobody has shown yet (the computer's reply):
    /// in an answer-only channel it is not sent if those moves were shown meanwhile, and if no
    /// interaction can carry it, it is left to the next one there (the moves stay unannounced
    /// in the database: [`Failed::held`]).
    ///
    /// # Errors
    /// As [`Herald::post`].
    pub(crate) async fn post_moves(
        &self,
        http: &Http,
        channel: serenity::ChannelId,
        answer: Answer,
    ) -> Result<(), Failed> {
        self.deliver(http, channel, answer, Otherwise::Leave).await
    }

    /// As [`Herald::post`], for what nothing else would show again (a flag that fell, an
    /// analysis' result): in an answer-only channel that no interaction can carry it now, the
    /// door keeps it for the next interaction there (`Ok`).
    ///
    /// # Errors
    /// As [`Herald::post`], never [`Failed::held`].
    pub(crate) async fn post_or_hold(
        &self,
        http: &Http,
        channel: serenity::ChannelId,
        answer: Answer,
    ) -> Result<(), Failed> {
        self.deliver(http, channel, answer, Otherwise::Hold).await
    }

    async fn deliver(
        &self,
        http: &Http,
        channel: serenity::ChannelId,
        answer: Answer,
        otherwise: Otherwise,
    ) -> Result<(), Failed> {
        let Some(door) = self.reach.door(channel) else {
            send("channel message", None, || {
                channel.send_message(http, answer.clone().channel_message())
            })
            .await?;
            self.shown(http, &answer).await;
            return Ok(());
        };
        self.wait_idle(channel).await;
        let mut door = door.lock().await;
        // A move's board may have gone with an answer there meanwhile.
        if let (Otherwise::Leave, Some((game, plies))) = (otherwise, answer.shows) {
            if !self
                .service
                .needs_announcing(game, plies)
                .await
                .unwrap_or(true)
            {
                return Ok(());
            }
        }
        match door.followup(http, &answer, self.now_ms()).await {
            Ok(()) => {
                self.shown(http, &answer).await;
                Ok(())
            }
            Err(f) if f.is_held() || f.token_spent() => match otherwise {
                Otherwise::Hold => {
                    door.hold(answer);
                    Ok(())
                }
                Otherwise::Leave => {
                    door.owe();
                    Err(Failed::held())
                }
                Otherwise::Drop => Err(Failed::held()),
            },
            Err(f) => Err(f),
        }
    }

    /// Waits (at most [`IDLE_WAIT`]) until no answer is being worked on in `channel`.
    async fn wait_idle(&self, channel: serenity::ChannelId) {
        let started = tokio::time::Instant::now();
        while self.is_busy(channel) && started.elapsed() < IDLE_WAIT {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }
}

/// The longest a message for an answer-only channel waits for the answer being worked on there.
const IDLE_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// What becomes, in an answer-only channel, of a message no interaction can carry now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Otherwise {
    /// Dropped (late by the next interaction).
    Drop,
    /// Left: it is in the database (unannounced moves), the next interaction shows it.
    Leave,
    /// Kept by the door for the next interaction.
    Hold,
}
