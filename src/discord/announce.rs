//! Posts the service's [`Announcement`]s (changes no interaction answers: the computer's reply, a
//! flag falling, a correspondence reminder) to their channels, in the order the service committed them.

use std::sync::Arc;

use poise::serenity_prelude as serenity;
use serenity::{CreateMessage, Http};
use tokio::sync::mpsc::UnboundedReceiver;
use tracing::{error, warn};

use super::answers::{error_answer, game_answer};
use super::i18n::mention;
use super::respond::Answer;
use crate::game::{reminder_text, Announcement};
use crate::i18n::Locale;

/// Posts every announcement from `announcements` until the service drops its sending end.
/// One at a time: a channel's messages then appear in the order of the game's changes.
/// `sim` (tests, the simulator) is told of each one posted.
pub(crate) fn spawn(
    http: Arc<Http>,
    mut announcements: UnboundedReceiver<Announcement>,
    sim: Option<Arc<super::SimClock>>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        while let Some(announcement) = announcements.recv().await {
            let channel = serenity::ChannelId::new(announcement.channel().0);
            let answer = answer(&announcement).await;
            if let Err(e) = channel.send_message(&http, message(answer)).await {
                // The game is stored either way; the channel misses one message (e.g. the bot
                // lost access to it).
                warn!(%channel, "cannot post an announcement: {e}");
            }
            if let Some(sim) = &sim {
                sim.posted_one();
            }
        }
    })
}

/// The message of `announcement`. Announcements have no interaction, hence no user locale: they
/// are written in the default locale.
async fn answer(announcement: &Announcement) -> Answer {
    let locale = Locale::default();
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
    }
}

fn message(answer: Answer) -> CreateMessage {
    CreateMessage::new()
        .content(answer.content)
        .embeds(answer.embeds)
        .components(answer.components)
        .add_files(answer.files)
}
