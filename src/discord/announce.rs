//! Posts the service's [`Announcement`]s (changes no interaction answers: the computer's reply, a
//! flag falling, a correspondence reminder) to their channels, in the order the service committed
//! them, through the [`Herald`] that keeps the promise that every stored move reaches its channel;
//! and re-posts the moves whose board never got there.
//!
//! At least once, not exactly once: a move is marked announced only after Discord confirmed its
//! board. When the bot dies between the two (or Discord's confirmation is lost), the re-post
//! first looks for that board among the channel's last messages and only marks it if it is
//! there; it posts again (a duplicate board and ping) only when it cannot read the history. The
//! other duplicates are avoided too: a queued announcement whose moves a re-post already showed
//! is skipped, and the periodic re-post leaves alone channels with an answer still on its way.
//! A request retried after a lost answer can still show a board twice (Discord did the first).

use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::Http;
use tokio::sync::mpsc::UnboundedReceiver;
use tracing::{debug, error, info, warn};

use super::answer::{send, Answer};
use super::herald::Herald;
use super::i18n::mention;
use super::messages::{board_file, error_answer, game_answer};
use super::reach::Door;
use crate::game::{reminder_text, Announcement, ClosedChallenge, GameId};
use crate::i18n::Locale;

/// How many of a channel's last messages a re-post looks through for its board.
const HISTORY: u8 = 25;

/// Posts one announcement. A move whose board a re-post already showed is skipped; one that
/// Discord refuses for good (the bot lost the channel) is marked as given up, so that it is
/// not tried at every re-post; other failures leave it for the next re-post.
async fn announce(herald: &Herald, http: &Http, announcement: &Announcement) {
    let channel = serenity::ChannelId::new(announcement.channel().0);
    if let Announcement::ChallengeClosed { closed, locale, .. } = announcement {
        close_challenge(herald, http, channel, closed, *locale).await;
        return;
    }
    if let (Announcement::Move { .. }, Some((game, plies))) = (announcement, announcement.shows()) {
        match herald.service().needs_announcing(game, plies).await {
            Ok(false) => {
                tracing::debug!(game = game.0, plies, "already announced");
                return;
            }
            Ok(true) => {}
            Err(e) => warn!(game = game.0, error = %e, "cannot read the announced mark"),
        }
    }
    let answer = answer(announcement).await;
    // In an answer-only channel with no interaction to carry it: a move waits in the database
    // for the next interaction there, a flag's end with the channel's door, a reminder (late
    // by then) is dropped.
    let posted = match announcement {
        Announcement::Move { .. } => herald.post_moves(http, channel, answer.clone()).await,
        Announcement::TimedOut { .. } => herald.post_or_hold(http, channel, answer.clone()).await,
        _ => herald.post(http, channel, answer.clone()).await,
    };
    match posted {
        Ok(()) => {}
        Err(f) if f.is_held() => debug!(%channel, "left for the channel's next interaction"),
        Err(f) if f.refused() => {
            warn!(%channel, "Discord refuses the announcement, giving up on it: {f}");
            herald.shown(http, &answer).await;
        }
        Err(f) => warn!(%channel, "cannot post an announcement, the re-post will: {f}"),
    }
}

/// Edits the message of challenge `closed` to say what became of it, without its buttons. A
/// failure is only logged: a press on the buttons left says it too.
async fn close_challenge(
    herald: &Herald,
    http: &Http,
    channel: serenity::ChannelId,
    closed: &ClosedChallenge,
    locale: Locale,
) {
    // Only the interaction that sent it could edit it there (and not for long): its buttons
    // say what became of the challenge when pressed.
    if herald.reach().answer_only(channel) {
        return;
    }
    let message = serenity::MessageId::new(closed.message.max(1));
    let text = closed.view.text(locale, &mention);
    let edit = || {
        channel.edit_message(
            http,
            message,
            serenity::EditMessage::new()
                .content(text.clone())
                .components(Vec::new()),
        )
    };
    match send("challenge message", None, edit).await {
        Ok(_) => tracing::debug!(challenge = closed.view.id.0, "challenge message closed"),
        Err(f) => warn!(
            challenge = closed.view.id.0,
            "cannot close the challenge's message: {f}"
        ),
    }
}

/// Posts every stored move not yet announced (see [`crate::game::GameService::unannounced`]), except in
/// channels with an answer on its way. Returns how many games it posted.
async fn repost(herald: &Herald, http: &Http) -> usize {
    let pending = match herald.service().unannounced().await {
        Ok(p) => p,
        Err(e) => {
            error!(error = %e, "cannot read the moves not yet announced");
            return 0;
        }
    };
    let mut posted = 0;
    for announcement in &pending {
        let channel = serenity::ChannelId::new(announcement.channel().0);
        // An answer-only channel's moves go with its next interaction's answer (`at_the_door`).
        if herald.is_busy(channel) || herald.reach().answer_only(channel) {
            continue;
        }
        if let Some((game, plies)) = announcement.shows() {
            if already_shown(http, channel, game, plies).await {
                info!(game = game.0, plies, "the board is already in the channel");
                if let Err(e) = herald.service().mark_announced(game, plies).await {
                    error!(game = game.0, error = %e, "cannot mark moves announced");
                }
                continue;
            }
        }
        announce(herald, http, announcement).await;
        posted += 1;
    }
    posted
}

/// Whether the newest board of `game` among `channel`'s last messages is the one after `plies`
/// plies: Discord took it but the mark was not written (the bot died in between, or Discord's
/// answer was lost). Then a re-post would only ping twice. Unknown (the bot may not read the
/// channel's history, Discord fails): false, post it.
async fn already_shown(
    http: &Http,
    channel: serenity::ChannelId,
    game: GameId,
    plies: u32,
) -> bool {
    let prefix = format!("makruk-{}-", game.0);
    let history = send("channel history", None, || {
        channel.messages(http, serenity::GetMessages::new().limit(HISTORY))
    })
    .await;
    match history {
        // Newest first: the game's latest board decides (after a takeback and a new move the
        // same plies come again, with other boards in between).
        Ok(messages) => messages
            .iter()
            .flat_map(|m| &m.attachments)
            .find(|a| a.filename.starts_with(&prefix))
            .is_some_and(|a| a.filename == board_file(game, plies)),
        Err(f) => {
            tracing::debug!(%channel, "cannot read the channel's history: {f}");
            false
        }
    }
}

/// Posts, one at a time (a channel's messages then appear in the order of the game's changes):
/// first the moves a previous run stored but never announced, then every announcement from
/// `announcements` until the service drops its sending end, and every `repost_every` again the
/// moves still not announced (Discord failed longer than the retries lasted). `on_posted` (a
/// fake clock's, in tests and the simulator) is told of each announcement posted.
///
/// With several processes on the database, the periodic re-post is done only by the holder of
/// the leader lease ([`crate::game::GameService::is_leader`]), lest two processes post the same board; the
/// one at start-up is every process's (a restart after a kill does not wait for the killed
/// process's lease to expire; a move another process is showing at that instant may then be
/// shown twice, never lost).
pub(crate) fn spawn(
    http: Arc<Http>,
    herald: Arc<Herald>,
    mut announcements: UnboundedReceiver<Announcement>,
    on_posted: Option<Arc<dyn Fn() + Send + Sync>>,
    repost_every: Duration,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let posted = repost(&herald, &http).await;
        if posted > 0 {
            info!(
                games = posted,
                "posted the moves a previous run did not announce"
            );
        }
        let mut tick = tokio::time::interval(repost_every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        tick.reset();
        loop {
            tokio::select! {
                announcement = announcements.recv() => {
                    let Some(announcement) = announcement else { break };
                    announce(&herald, &http, &announcement).await;
                    if let Some(told) = &on_posted {
                        told();
                    }
                }
                _ = tick.tick() => {
                    if !herald.service().is_leader() {
                        continue;
                    }
                    let posted = repost(&herald, &http).await;
                    if posted > 0 {
                        warn!(games = posted, "posted moves that were not announced");
                    }
                }
            }
        }
    })
}

/// The message of `announcement`, in the locale it carries (its server's preferred one).
async fn answer(announcement: &Announcement) -> Answer {
    let locale = announcement.locale();
    match announcement {
        // A flag is shown like a move: the board and the end, both players pinged.
        Announcement::Move { reply, .. } | Announcement::TimedOut { reply, .. } => {
            match game_answer(reply, locale).await {
                Ok(answer) => answer,
                Err(e) => {
                    error!(game = reply.game_id.0, "cannot draw an announced game");
                    error_answer(&e, locale)
                }
            }
        }
        Announcement::Reminder {
            user, deadline_ms, ..
        } => Answer::public(reminder_text(&mention(*user), *deadline_ms, locale)),
        // Edited in place by `close_challenge`, never posted.
        Announcement::ChallengeClosed { closed, .. } => {
            Answer::public(closed.view.text(locale, &mention))
        }
    }
}

/// What waits for an interaction just answered in answer-only `channel`, sent as follow-ups of
/// it through its `door` (locked by the caller): first the answers the door kept (a flag that
/// fell, an analysis' result), then, if the door says a board may be missing ([`Door::owe`]),
/// each game of the channel whose moves were never shown (the computer's reply that came after
/// the last token expired, an answer lost, a restart), as long as the interaction takes
/// follow-ups. What cannot go stays for the next interaction.
///
/// `ended` is the game end the interaction's own answer showed (game, plies): a kept answer
/// showing that same end (the flag that fell, when the answer was `/board`) is not sent again.
pub(crate) async fn at_the_door(
    herald: &Herald,
    http: &Http,
    channel: serenity::ChannelId,
    door: &mut Door,
    ended: Option<(GameId, u32)>,
) {
    let held = door.take_held();
    let mut left = Vec::new();
    for answer in held {
        if ended.is_some() && answer.ended.is_some() && answer.shows == ended {
            continue;
        }
        if !left.is_empty() {
            left.push(answer);
            continue;
        }
        match door.followup(http, &answer, herald.now_ms()).await {
            Ok(()) => herald.shown(http, &answer).await,
            // Refused for good (it would be refused at every interaction): given up.
            Err(f) if f.refused() => warn!(%channel, "Discord refuses a kept answer: {f}"),
            Err(f) => {
                debug!(%channel, "a kept answer waits again: {f}");
                left.push(answer);
            }
        }
    }
    let blocked = !left.is_empty();
    door.put_back(left);
    // Only when a board may be missing: the moves of an interaction still being answered
    // there are its own answer's to show.
    if !door.take_owed() {
        return;
    }
    if blocked {
        door.owe();
        return;
    }
    let pending = match herald.service().unannounced().await {
        Ok(p) => p,
        Err(e) => {
            error!(error = %e, "cannot read the moves not yet announced");
            door.owe();
            return;
        }
    };
    for announcement in pending.iter().filter(|a| a.channel().0 == channel.get()) {
        if !door.is_open(herald.now_ms()) {
            door.owe();
            return;
        }
        let answer = answer(announcement).await;
        match door.followup(http, &answer, herald.now_ms()).await {
            Ok(()) => herald.shown(http, &answer).await,
            // As `announce`: a board Discord refuses for good is given up on.
            Err(f) if f.refused() => {
                warn!(%channel, "Discord refuses a board, giving up on it: {f}");
                herald.shown(http, &answer).await;
            }
            Err(f) => {
                debug!(%channel, "unannounced moves wait again: {f}");
                door.owe();
                return;
            }
        }
    }
}
