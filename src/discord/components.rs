//! Button presses: challenge Accept / Decline / Withdraw, draw and takeback Accept / Decline,
//! leaderboard ◀ ▶, the replay's steps (`commands::replay`), the end-of-game GIF and Analyse
//! (`commands::analyse`).
//!
//! A button's custom id is a [`ButtonId`] (`buttons`). The database decides who may press
//! what, so buttons keep working after a restart; a press by anyone else gets a private "this
//! is not your …" answer and changes nothing.

use std::sync::{Arc, PoisonError};

use poise::serenity_prelude as serenity;
use tracing::warn;

use super::analyses::Original;
use super::answer::Answer;
use super::buttons::{ButtonId, Step, View};
use super::commands::analyse::{request, start_following, FollowSlot};
use super::commands::replay::{gif_answer, replay_answer};
use super::commands::thread::accept_in_thread;
use super::i18n::{mention, Locales};
use super::messages::{error_answer, game_answer};
use super::respond::{self, Interaction};
use super::Data;
use crate::game::{ChannelId, GuildId, ServiceError, UserId};
use crate::i18n::Locale;
use crate::tr;

/// Handles one button press through the adapter's one way in ([`respond::run`]; never fails
/// the interaction).
pub(crate) async fn handle(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    data: &Data,
) {
    // An analysis' waiting message, followed once the answer is sent.
    let slot = FollowSlot::default();
    let put = Arc::clone(&slot);
    let work = |locales: Locales| async move {
        let locale = locales.user;
        let Ok(id) = press.data.custom_id.parse::<ButtonId>() else {
            // A forged or foreign id, or one from another version of the bot.
            warn!("unknown button");
            return Ok(Answer::private(tr!(locale, "discord-bad-button")));
        };
        tracing::debug!(action = id.name(), "button");
        let at = Press {
            http: &ctx.http,
            guild: press.guild_id.map(|g| GuildId(g.get())),
            channel: ChannelId(press.channel_id.get()),
            message: press.message.id.get(),
        };
        let user = UserId(press.user.id.get());
        match act(data, id, &at, user, locales, &put).await {
            Ok(answer) => Ok(answer),
            Err(e) => Ok(press_error(&e, id, locales)),
        }
    };
    respond::run(&ctx.http, data, Interaction::Press(press), work).await;
    start_following(
        Arc::clone(&ctx.http),
        data,
        &slot,
        Original::Press(Box::new(press.clone())),
    );
}

/// A refused press: "this is not your challenge/offer" for bystanders; a challenge that has
/// expired loses its buttons (the pressed message says so, in the server's language); else the
/// service's words, privately.
fn press_error(e: &ServiceError, id: ButtonId, locales: Locales) -> Answer {
    let locale = locales.user;
    match e {
        ServiceError::ChallengeExpired
            if matches!(
                id,
                ButtonId::Accept(_) | ButtonId::Decline(_) | ButtonId::Withdraw(_)
            ) =>
        {
            Answer::public(tr!(locales.public, "discord-challenge-closed-expired")).updating()
        }
        ServiceError::NotYourChallenge {
            challenger,
            opponent,
        } => {
            let (key, owner) = match id {
                ButtonId::Withdraw(_) => ("discord-not-your-challenge-withdraw", challenger),
                _ => ("discord-not-your-challenge", opponent),
            };
            Answer::private(tr!(locale, key, user = mention(*owner)))
        }
        ServiceError::NotAPlayer => Answer::private(tr!(locale, "discord-not-your-offer")),
        _ => error_answer(e, locale),
    }
}

/// Where a button was pressed: the server, the channel, the message it is on.
struct Press<'a> {
    http: &'a serenity::Http,
    guild: Option<GuildId>,
    channel: ChannelId,
    message: u64,
}

/// What button `id` does for `user`: messages everyone sees in the server's language, private
/// answers in the user's.
async fn act(
    data: &Data,
    id: ButtonId,
    at: &Press<'_>,
    user: UserId,
    locales: Locales,
    follow: &FollowSlot,
) -> Result<Answer, ServiceError> {
    let (guild, channel) = (at.guild, at.channel);
    let locale = locales.public;
    let service = &data.service;
    let closed = |text: String| Answer::public(text).updating();
    // An offer's buttons belong to one game: on a message left over from an earlier game of the
    // channel they must not answer the current game's offer.
    if let ButtonId::OfferAccept(_, game) | ButtonId::OfferDecline(_, game) = id {
        let current = service.board(channel).await?;
        if current.game_id != game || current.status.end.is_some() {
            return Ok(Answer::private(tr!(locales.user, "discord-stale-button")));
        }
    }
    Ok(match id {
        ButtonId::Accept(id) => {
            if let Some(players) = service
                .challenge_wants_thread(channel, user, Some(id))
                .await?
            {
                // The thread is opened from the challenge message itself.
                let answer = accept_in_thread(
                    at.http,
                    &data.herald,
                    service,
                    (channel, Some(at.message)),
                    user,
                    Some(id),
                    players,
                    locales,
                )
                .await?;
                return Ok(answer.updating());
            }
            let reply = service.accept(channel, user, Some(id)).await?;
            game_answer(&reply, locale).await?.updating()
        }
        ButtonId::Decline(id) => closed(
            service
                .decline(channel, user, Some(id))
                .await?
                .text(locale, &mention),
        ),
        ButtonId::Withdraw(id) => {
            // Withdrawing is for the challenger; the service checks who may.
            let view = service.withdraw(channel, user).await?;
            if view.id != id {
                warn!(
                    button = id.0,
                    withdrawn = view.id.0,
                    "withdrew another challenge"
                );
            }
            closed(view.text(locale, &mention))
        }
        ButtonId::OfferAccept(kind, _) => {
            let reply = service.accept_offer(channel, user, kind).await?;
            game_answer(&reply, locale).await?.updating()
        }
        ButtonId::OfferDecline(kind, _) => closed(
            service
                .decline_offer(channel, user, kind)
                .await?
                .text(locale, &mention),
        ),
        ButtonId::Leaderboard(variant, speed, page) => match guild {
            Some(guild) => {
                let board = service
                    .leaderboard(guild, variant, Some(speed), page)
                    .await?;
                super::commands::leaderboard::answer(&board, locale).updating()
            }
            None => Answer::private(tr!(locales.user, "discord-guild-only")),
        },
        ButtonId::Replay(step, view) => {
            return replay_press(data, step, view, channel, user, locales.user).await
        }
        ButtonId::Gif(game) => {
            let record = service.record(channel, Some(game)).await?;
            gif_answer(&record, locales.user, true).await?
        }
        ButtonId::PuzzleHint(attempt) => {
            let (role, square) = service.puzzle_hint(user, attempt).await?;
            Answer::private(tr!(
                locales.user,
                "puzzle-hint",
                piece = tr!(locales.user, crate::game::role_key(role)),
                square = match locales.user {
                    // Thai notation with the SAN square beside it: ง๘ (d8).
                    Locale::Th => format!("{} ({square})", makruk::san::to_thai_square(square)),
                    _ => square.to_string(),
                }
            ))
        }
        ButtonId::PuzzleSolution(attempt) => {
            let end = service.puzzle_solution(user, attempt).await?;
            if let Some(progress) = &end.daily {
                super::commands::puzzle::update_daily(at.http, service, progress).await;
            }
            super::commands::puzzle::end_answer(&end, locales.user)
                .await?
                .updating()
        }
        ButtonId::PuzzleNext(attempt) => {
            let view = service.next_puzzle(user, attempt, guild).await?;
            super::commands::puzzle::puzzle_answer(&view, None, locales.user)
                .await?
                .updating()
        }
        ButtonId::PuzzleVote(up, attempt) => {
            service.vote_puzzle(user, attempt, up).await?;
            Answer::private(tr!(
                locales.user,
                "puzzle-voted",
                vote = if up { "👍" } else { "👎" }
            ))
        }
        // A new public message; a waiting one is followed once it is sent (`handle`).
        ButtonId::Analyse(game) => {
            let (answer, waiting) = request(data, channel, Some(game), locale).await?;
            *follow.lock().unwrap_or_else(PoisonError::into_inner) = waiting;
            answer
        }
    })
}

/// A replay step: only for the user who opened the replay, on a game that still has the ply
/// shown (a takeback may have removed it).
async fn replay_press(
    data: &Data,
    step: Step,
    view: View,
    channel: ChannelId,
    user: UserId,
    locale: Locale,
) -> Result<Answer, ServiceError> {
    let stale = || Answer::private(tr!(locale, "discord-replay-stale"));
    if user != view.owner {
        return Ok(Answer::private(tr!(
            locale,
            "discord-replay-not-yours",
            user = mention(view.owner)
        )));
    }
    let record = match data.service.record(channel, Some(view.game)).await {
        Ok(r) => r,
        Err(ServiceError::GameNotFound) => return Ok(stale()),
        Err(e) => return Err(e),
    };
    let plies = record.game.moves().len();
    if view.ply > plies {
        return Ok(stale());
    }
    let next = view.after(step, plies);
    Ok(replay_answer(&record, next, locale).await?.updating())
}
