//! The analyses asked for in Discord (`/analyse`, the Analyse button) while they are made: the
//! waiting message follows its analysis ("3rd in line", "analysing… 40%", edited as it goes)
//! and becomes its result; an analysis nobody waits for any more (asked before a restart, or
//! its message's 15 minutes are over) is posted in its channel when it is done.
//!
//! The waiting message is the interaction's own answer (`@original`), edited with the
//! interaction's token, which Discord honours for 15 minutes; a follower gives up a little
//! before that and leaves the result to the poster.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::{CommandInteraction, ComponentInteraction, Http};
use tokio::sync::broadcast::error::RecvError;
use tokio::task::JoinHandle;
use tracing::{info, warn};

use super::answer::{send, Answer};
use super::commands::analyse::result_answer;
use super::herald::Herald;
use crate::analysis::report::{queued_text, running_text};
use crate::analysis::AnalysisRunner;
use crate::game::{AnalysisStatus, ChannelId, GameId, GameService, ServiceError};
use crate::i18n::Locale;
use crate::tr;
use makruk_engine::analysis::Progress;

/// How long a waiting message follows its analysis: Discord's interaction tokens last 15
/// minutes.
const FOLLOW_FOR: Duration = Duration::from_secs(14 * 60);
/// The least time between two edits of a waiting message (Discord limits edits per token).
const EDIT_EVERY: Duration = Duration::from_millis(1500);
/// How often a waiting message looks at its place in line when nothing else happens.
const LOOK_EVERY: Duration = Duration::from_secs(3);

/// The analysis runner as the adapter uses it, and which games have a waiting message.
pub(crate) struct Analyses {
    pub(crate) runner: Arc<AnalysisRunner>,
    /// The search budget per position (nodes) analyses are asked at.
    pub(crate) nodes: u64,
    waiting: Mutex<HashMap<GameId, Claim>>,
}

/// The waiting messages' claims on one game's result.
#[derive(Default)]
struct Claim {
    /// Waiting messages holding a [`Ticket`].
    holders: usize,
    /// The poster heard the game finish while it was claimed, and left it to the messages.
    left_to_us: bool,
}

/// A waiting message's claim on its game's result: while one is held, the poster leaves the
/// result to the message. [`Ticket::release`] gives it up and says whether the result is then
/// the message's to post; dropping it gives it up after the result was shown.
pub(crate) struct Ticket {
    analyses: Arc<Analyses>,
    game: GameId,
    released: bool,
}

impl std::fmt::Debug for Ticket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Ticket({})", self.game.0)
    }
}

impl Ticket {
    /// Gives the claim up. True when the poster heard the game finish while it was claimed
    /// (and so will not post it): the caller then posts the result itself. Under one lock with
    /// the poster's look ([`Analyses::leave_to_waiting`]), so a result is neither lost nor
    /// posted twice by this process.
    fn release(mut self) -> bool {
        self.released = true;
        let mut waiting = self
            .analyses
            .waiting
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let Some(claim) = waiting.get_mut(&self.game) else {
            return false;
        };
        claim.holders -= 1;
        let ours = claim.left_to_us;
        if claim.holders == 0 {
            waiting.remove(&self.game);
        } else {
            // Another waiting message still follows it: the result is its to show.
            return false;
        }
        ours
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        if self.released {
            return;
        }
        let mut waiting = self
            .analyses
            .waiting
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(claim) = waiting.get_mut(&self.game) {
            claim.holders -= 1;
            if claim.holders == 0 {
                waiting.remove(&self.game);
            }
        }
    }
}

impl Analyses {
    pub(crate) fn new(runner: Arc<AnalysisRunner>, nodes: u64) -> Analyses {
        Analyses {
            runner,
            nodes,
            waiting: Mutex::default(),
        }
    }

    /// A claim on `game`'s result for a waiting message (take it before the runner is nudged).
    pub(crate) fn wait(self: &Arc<Self>, game: GameId) -> Ticket {
        self.waiting
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(game)
            .or_default()
            .holders += 1;
        Ticket {
            analyses: Arc::clone(self),
            game,
            released: false,
        }
    }

    /// Whether a waiting message claims `game`'s result (the poster then leaves it to it, and
    /// notes that it did, see [`Ticket::release`]).
    fn leave_to_waiting(&self, game: GameId) -> bool {
        let mut waiting = self.waiting.lock().unwrap_or_else(PoisonError::into_inner);
        match waiting.get_mut(&game) {
            Some(claim) => {
                claim.left_to_us = true;
                true
            }
            None => false,
        }
    }

    /// The waiting text of `game` when it is not running: its place in line; `None` once it
    /// is done (or no longer queued).
    async fn line_text(
        &self,
        service: &GameService,
        game: GameId,
        locale: Locale,
    ) -> Result<Option<String>, ServiceError> {
        Ok(match service.analysis_state(game).await? {
            Some(AnalysisStatus::Queued { ahead, .. }) => Some(queued_text(game.0, ahead, locale)),
            _ => None,
        })
    }
}

/// A waiting message to follow: the analysed game, where it was asked, in which language, and
/// the claim on its result.
#[derive(Debug)]
pub(crate) struct Follow {
    pub(crate) game: GameId,
    /// The text the message shows now.
    pub(crate) shown: String,
    pub(crate) channel: ChannelId,
    pub(crate) locale: Locale,
    pub(crate) ticket: Ticket,
}

/// The interaction whose answer is the waiting message.
pub(crate) enum Original {
    Command(Box<CommandInteraction>),
    Press(Box<ComponentInteraction>),
}

impl Original {
    async fn edit(&self, http: &Http, answer: Answer) -> serenity::Result<()> {
        match self {
            Original::Command(i) => i.edit_response(http, answer.edit()).await.map(drop),
            Original::Press(i) => i.edit_response(http, answer.edit()).await.map(drop),
        }
    }

    /// Whether `@original` is the waiting message: always for a command; for a press only
    /// when its answer was a new message (a press answered late is acknowledged silently and
    /// answered with a follow-up, and `@original` is then the pressed message itself).
    async fn is_waiting_message(&self, http: &Http) -> bool {
        match self {
            Original::Command(_) => true,
            Original::Press(i) => match i.get_response(http).await {
                Ok(m) => m.id != i.message.id,
                Err(e) => {
                    warn!("cannot read the waiting message: {e}");
                    false
                }
            },
        }
    }
}

/// Follows `follow`'s analysis in the interaction's answer `original` (in a task of its own):
/// edits its waiting text as the analysis moves up the line and runs, then edits the result
/// in. If the message cannot be edited (its token expired, Discord refused) or the analysis
/// takes longer than [`FOLLOW_FOR`], the claim is given up and the result goes to the channel
/// as a new message when it is done.
pub(crate) fn follow(
    http: Arc<Http>,
    original: Original,
    service: GameService,
    analyses: Arc<Analyses>,
    herald: Arc<Herald>,
    follow: Follow,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        let Follow {
            game,
            mut shown,
            channel,
            locale,
            ticket,
        } = follow;
        let mut finished = analyses.runner.finished();
        let editable = original.is_waiting_message(&http).await;
        let until = tokio::time::Instant::now() + FOLLOW_FOR;
        let mut last_edit = tokio::time::Instant::now();
        // One receiver of the running analysis' progress, read with `borrow_and_update`, so
        // that waiting for a change waits.
        let mut progress: Option<tokio::sync::watch::Receiver<Progress>> = None;
        let mut followed = editable;
        while followed {
            if tokio::time::Instant::now() >= until {
                // Said before the token expires: the poster takes over.
                let later = Answer::public(tr!(locale, "analysis-later", id = game.0));
                let _ = send("analysis later", None, || {
                    original.edit(&http, later.clone())
                })
                .await;
                followed = false;
                break;
            }
            if progress.is_none() {
                progress = analyses.runner.progress(game);
            }
            let text = match &mut progress {
                Some(p) if p.has_changed().is_ok() => {
                    let now = *p.borrow_and_update();
                    Ok(Some(running_text(game.0, now.searched, now.total, locale)))
                }
                // Its search ended and the runner is storing it: the text stays.
                Some(_) if analyses.runner.progress(game).is_some() => Ok(Some(shown.clone())),
                // Stored, given up or never started: the store says which.
                _ => {
                    progress = None;
                    analyses.line_text(&service, game, locale).await
                }
            };
            let text = match text {
                Ok(Some(text)) => text,
                Ok(None) => break,
                Err(e) => {
                    warn!(game = game.0, error = %e, "following an analysis");
                    followed = false;
                    break;
                }
            };
            if text != shown && last_edit.elapsed() >= EDIT_EVERY {
                let edited = send("analysis progress", None, || {
                    original.edit(&http, Answer::public(text.clone()))
                })
                .await;
                if let Err(f) = edited {
                    warn!(game = game.0, "cannot edit the waiting message: {f}");
                    followed = false;
                    break;
                }
                shown = text;
                last_edit = tokio::time::Instant::now();
            }
            tokio::select! {
                r = finished.recv() => if let Err(RecvError::Closed) = r {
                    followed = false;
                    break;
                },
                () = async {
                    match &mut progress {
                        Some(p) => {
                            if p.changed().await.is_err() {
                                // The analysis ended: its sender is gone.
                                std::future::pending::<()>().await;
                            }
                        }
                        None => std::future::pending::<()>().await,
                    }
                } => {}
                () = tokio::time::sleep(LOOK_EVERY) => {}
            }
            tokio::time::sleep_until(last_edit + EDIT_EVERY).await;
        }
        if followed {
            match done(&service, channel, game, locale).await {
                Ok(Some(result)) => {
                    if send("analysis result", None, || {
                        original.edit(&http, result.clone())
                    })
                    .await
                    .is_ok()
                    {
                        info!(game = game.0, "analysis shown");
                        return;
                    }
                }
                Ok(None) => {}
                Err(e) => warn!(game = game.0, error = %e, "reading a finished analysis"),
            }
        }
        // Not shown here: the poster posts it when it is done, unless it already left it to us.
        if ticket.release() {
            match done(&service, channel, game, locale).await {
                Ok(Some(result)) => {
                    if let Err(f) = herald
                        .post_or_hold(&http, serenity::ChannelId::new(channel.0), result)
                        .await
                    {
                        warn!(game = game.0, "cannot post an analysis: {f}");
                    }
                }
                Ok(None) => {}
                Err(e) => warn!(game = game.0, error = %e, "reading a finished analysis"),
            }
        }
    })
}

/// The result message of `game`'s analysis if it is done.
async fn done(
    service: &GameService,
    channel: ChannelId,
    game: GameId,
    locale: Locale,
) -> Result<Option<Answer>, ServiceError> {
    let Some(AnalysisStatus::Done(a)) = service.analysis_state(game).await? else {
        return Ok(None);
    };
    let record = service.record(channel, Some(game)).await?;
    Ok(Some(result_answer(&record, &a, locale).await?))
}

/// Posts each analysis the runner finishes (`finished`, subscribed when the runner started)
/// that no waiting message claims, in the channel it was asked in (in the server's language).
pub(crate) fn spawn_poster(
    http: Arc<Http>,
    herald: Arc<Herald>,
    analyses: Arc<Analyses>,
    mut finished: tokio::sync::broadcast::Receiver<GameId>,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            let game = match finished.recv().await {
                Ok(game) => game,
                Err(RecvError::Lagged(n)) => {
                    warn!(missed = n, "analyses finished faster than they were posted");
                    continue;
                }
                Err(RecvError::Closed) => return,
            };
            if analyses.leave_to_waiting(game) {
                continue;
            }
            let service = herald.service();
            let posted = async {
                let Some(AnalysisStatus::Done(a)) = service.analysis_state(game).await? else {
                    return Ok::<_, ServiceError>(());
                };
                let Some(channel) = a.channel else {
                    return Ok(());
                };
                let locale = service.game_locale(game).await?;
                let record = service.record(channel, Some(game)).await?;
                let answer = result_answer(&record, &a, locale).await?;
                let channel = serenity::ChannelId::new(channel.0);
                // In a DM the bot may only answer in: shown with the next command there if no
                // interaction can carry it now.
                if let Err(f) = herald.post_or_hold(&http, channel, answer).await {
                    warn!(game = game.0, "cannot post an analysis: {f}");
                }
                Ok(())
            };
            if let Err(e) = posted.await {
                warn!(game = game.0, error = %e, "posting an analysis");
            }
        }
    })
}
