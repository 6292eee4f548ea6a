//! Button presses: challenge Accept / Decline / Withdraw, draw and takeback Accept / Decline,
//! leaderboard ◀ ▶, the replay's steps (`commands::replay`) and the end-of-game GIF.
//!
//! Custom ids are `mk:<action>:<id>` (challenge id, game id, or leaderboard page). The database decides who may
//! press what, so buttons keep working after a restart; a press by anyone else gets a private
//! "this is not your …" answer and changes nothing.

use std::time::Instant;

use poise::serenity_prelude as serenity;
use tracing::{error, info, warn, Instrument as _};

use super::answers::{error_answer, game_answer};
use super::commands::replay::{gif_answer, replay_answer, Step, View};
use super::i18n::{mention, Locales};
use super::respond::{answer_press, defer_budget, or_apology, Answer, PressAnswer};
use super::Data;
use crate::game::{ChallengeId, ChannelId, GameId, GuildId, Kind, OfferKind, ServiceError, UserId};
use crate::i18n::Locale;
use crate::tr;

/// What a button does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    Accept(ChallengeId),
    Decline(ChallengeId),
    Withdraw(ChallengeId),
    OfferAccept(OfferKind, GameId),
    OfferDecline(OfferKind, GameId),
    /// A leaderboard page (0-based) at a speed: anyone may page.
    Leaderboard(Kind, u32),
    Replay(Step, View),
    Gif(GameId),
}

impl Action {
    /// Reads `mk:<action>:<id>`.
    fn parse(custom_id: &str) -> Option<Action> {
        if let Some((step, view)) = View::parse(custom_id) {
            return Some(Action::Replay(step, view));
        }
        let mut parts = custom_id.split(':');
        if parts.next()? != "mk" {
            return None;
        }
        let action = parts.next()?;
        let id: i64 = parts.next()?.parse().ok()?;
        if parts.next().is_some() {
            return None;
        }
        Some(match action {
            "accept" => Action::Accept(ChallengeId(id)),
            "decline" => Action::Decline(ChallengeId(id)),
            "withdraw" => Action::Withdraw(ChallengeId(id)),
            "draw-accept" => Action::OfferAccept(OfferKind::Draw, GameId(id)),
            "draw-decline" => Action::OfferDecline(OfferKind::Draw, GameId(id)),
            "takeback-accept" => Action::OfferAccept(OfferKind::Takeback, GameId(id)),
            "takeback-decline" => Action::OfferDecline(OfferKind::Takeback, GameId(id)),
            "lb-live" => Action::Leaderboard(Kind::Live, u32::try_from(id).ok()?),
            "lb-correspondence" => {
                Action::Leaderboard(Kind::Correspondence, u32::try_from(id).ok()?)
            }
            "gif" => Action::Gif(GameId(id)),
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Action::Accept(_) => "accept",
            Action::Decline(_) => "decline",
            Action::Withdraw(_) => "withdraw",
            Action::OfferAccept(OfferKind::Draw, _) => "draw-accept",
            Action::OfferDecline(OfferKind::Draw, _) => "draw-decline",
            Action::OfferAccept(OfferKind::Takeback, _) => "takeback-accept",
            Action::OfferDecline(OfferKind::Takeback, _) => "takeback-decline",
            Action::Leaderboard(Kind::Live, _) => "lb-live",
            Action::Leaderboard(Kind::Correspondence, _) => "lb-correspondence",
            Action::Replay(..) => "replay",
            Action::Gif(_) => "gif",
        }
    }
}

/// Handles one button press (never fails the interaction).
pub(crate) async fn handle(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    data: &Data,
) {
    let started = Instant::now();
    let span = tracing::info_span!(
        "interaction",
        button = %press.data.custom_id,
        channel = %press.channel_id,
        user = %press.user.id,
        latency_ms = tracing::field::Empty,
    );
    async move {
        let _in_flight = data.in_flight.read().await;
        let locales = Locales::of(&press.locale, press.guild_locale.as_deref());
        super::commands::remember_guild_locale(
            &data.service,
            press.guild_id,
            press.guild_locale.as_deref(),
        )
        .await;
        let locale = locales.user;
        let channel = ChannelId(press.channel_id.get());
        let user = UserId(press.user.id.get());
        let guild = press.guild_id.map(|g| GuildId(g.get()));
        let work = or_apology(
            async {
                let Some(action) = Action::parse(&press.data.custom_id) else {
                    // A forged or foreign id, or one from another version of the bot.
                    warn!("unknown button");
                    return PressAnswer::Reply(Answer::private(tr!(locale, "discord-bad-button")));
                };
                tracing::debug!(action = action.name(), "button");
                let at = Press {
                    http: &ctx.http,
                    guild,
                    channel,
                    message: press.message.id.get(),
                };
                match act(data, action, &at, user, locales).await {
                    Ok(answer) => answer,
                    Err(e) => PressAnswer::Reply(press_error(&e, action, locale)),
                }
            },
            || PressAnswer::Reply(Answer::private(tr!(locale, "discord-internal-error"))),
        );
        let budget = defer_budget(press.id.get(), data.defer_after);
        let sent = answer_press(&ctx.http, &data.herald, press, budget, work).await;
        tracing::Span::current().record("latency_ms", started.elapsed().as_secs_f64() * 1000.0);
        match sent {
            Ok(()) => info!("answered"),
            Err(e) => error!("cannot answer the button press: {e}"),
        }
    }
    .instrument(span)
    .await;
}

/// A refused press: "this is not your challenge/offer" for bystanders, else the service's words.
fn press_error(e: &ServiceError, action: Action, locale: Locale) -> Answer {
    match e {
        ServiceError::NotYourChallenge {
            challenger,
            opponent,
        } => {
            let (key, owner) = match action {
                Action::Withdraw(_) => ("discord-not-your-challenge-withdraw", challenger),
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

/// What `action` does for `user`: messages everyone sees in the server's language, private
/// answers in the user's.
async fn act(
    data: &Data,
    action: Action,
    at: &Press<'_>,
    user: UserId,
    locales: Locales,
) -> Result<PressAnswer, ServiceError> {
    let (guild, channel) = (at.guild, at.channel);
    let locale = locales.public;
    let service = &data.service;
    let closed = |text: String| PressAnswer::Update(Answer::public(text));
    // An offer's buttons belong to one game: on a message left over from an earlier game of the
    // channel they must not answer the current game's offer.
    if let Action::OfferAccept(_, game) | Action::OfferDecline(_, game) = action {
        let current = service.board(channel).await?;
        if current.game_id != game || current.status.end.is_some() {
            return Ok(PressAnswer::Reply(Answer::private(tr!(
                locales.user,
                "discord-stale-button"
            ))));
        }
    }
    Ok(match action {
        Action::Accept(id) => {
            if let Some(players) = service
                .challenge_wants_thread(channel, user, Some(id))
                .await?
            {
                // The thread is opened from the challenge message itself.
                let answer = super::commands::accept_in_thread(
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
                return Ok(PressAnswer::Update(answer));
            }
            let reply = service.accept(channel, user, Some(id)).await?;
            PressAnswer::Update(game_answer(&reply, locale).await?)
        }
        Action::Decline(id) => closed(
            service
                .decline(channel, user, Some(id))
                .await?
                .text(locale, &mention),
        ),
        Action::Withdraw(id) => {
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
        Action::OfferAccept(kind, _) => PressAnswer::Update(
            game_answer(&service.accept_offer(channel, user, kind).await?, locale).await?,
        ),
        Action::OfferDecline(kind, _) => closed(
            service
                .decline_offer(channel, user, kind)
                .await?
                .text(locale, &mention),
        ),
        Action::Leaderboard(speed, page) => match guild {
            Some(guild) => PressAnswer::Update(super::commands::leaderboard::answer(
                &service.leaderboard(guild, Some(speed), page).await?,
                locale,
            )),
            None => PressAnswer::Reply(Answer::private(tr!(locales.user, "discord-guild-only"))),
        },
        Action::Replay(step, view) => {
            return replay_press(data, step, view, channel, user, locales.user).await
        }
        Action::Gif(game) => PressAnswer::Reply(
            gif_answer(
                &service.record(channel, Some(game)).await?,
                locales.user,
                true,
            )
            .await?,
        ),
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
) -> Result<PressAnswer, ServiceError> {
    let stale = || PressAnswer::Reply(Answer::private(tr!(locale, "discord-replay-stale")));
    if user != view.owner {
        return Ok(PressAnswer::Reply(Answer::private(tr!(
            locale,
            "discord-replay-not-yours",
            user = mention(view.owner)
        ))));
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
    Ok(PressAnswer::Update(
        replay_answer(&record, next, locale).await?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_ids_round_trip() {
        for action in [
            Action::Accept(ChallengeId(3)),
            Action::Decline(ChallengeId(4)),
            Action::Withdraw(ChallengeId(5)),
            Action::OfferAccept(OfferKind::Draw, GameId(6)),
            Action::OfferDecline(OfferKind::Draw, GameId(7)),
            Action::OfferAccept(OfferKind::Takeback, GameId(8)),
            Action::OfferDecline(OfferKind::Takeback, GameId(9)),
            Action::Leaderboard(Kind::Live, 0),
            Action::Leaderboard(Kind::Correspondence, 12),
            Action::Gif(GameId(10)),
        ] {
            let id = match action {
                Action::Accept(c) | Action::Decline(c) | Action::Withdraw(c) => c.0,
                Action::OfferAccept(_, g) | Action::OfferDecline(_, g) | Action::Gif(g) => g.0,
                Action::Leaderboard(_, page) => i64::from(page),
                Action::Replay(_, v) => v.game.0,
            };
            let custom_id = format!("mk:{}:{id}", action.name());
            assert_eq!(Action::parse(&custom_id), Some(action));
        }
    }

    #[test]
    fn bad_custom_ids_are_refused() {
        for bad in [
            "",
            "mk",
            "mk:accept",
            "mk:accept:x",
            "mk:fly:1",
            "xx:accept:1",
            "mk:accept:1:2",
            "mk:accept:99999999999999999999",
            "mk:accept:-",
            "mk:lb-live:-1",
            "mk:lb-blitz:1",
        ] {
            assert_eq!(Action::parse(bad), None, "{bad}");
        }
    }
}
