//! `/draw` and `/takeback`: one code path for both kinds of offer (their buttons are in
//! `components`).

use super::{channel, run, user};
use crate::discord::answer::Answer;
use crate::discord::i18n::mention;
use crate::discord::i18n::Locales;
use crate::discord::messages::{game_answer, offer_message};
use crate::discord::{Context, Error};
use crate::game::{Event, OfferKind};

/// What `/draw` and `/takeback` do: make an offer, or answer the opponent's.
#[derive(Debug, Clone, Copy)]
enum OfferStep {
    Make,
    Accept,
    Decline,
}

/// `/draw` and `/takeback`: one code path for both kinds of offer.
async fn offer_command(ctx: Context<'_>, kind: OfferKind, step: OfferStep) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let (channel, player) = (channel(ctx), user(ctx));
    run(ctx, |locales: Locales| async move {
        let locale = locales.public;
        let reply = match step {
            OfferStep::Make => service.offer(channel, player, kind).await?,
            OfferStep::Accept => service.accept_offer(channel, player, kind).await?,
            OfferStep::Decline => service.decline_offer(channel, player, kind).await?,
        };
        match reply.event {
            Event::Offered(kind) => Ok(offer_message(&reply, locale, kind)),
            Event::OfferDeclined(_) => Ok(Answer::public(reply.text(locale, &mention))),
            _ => game_answer(&reply, locale).await,
        }
    })
    .await
}

/// What `/draw` does.
#[derive(Debug, poise::ChoiceParameter)]
pub(crate) enum DrawAction {
    #[name = "offer"]
    Offer,
    #[name = "accept"]
    Accept,
    #[name = "decline"]
    Decline,
}

/// `/draw [action]`: offer a draw, or answer the opponent's offer (as the buttons do).
#[poise::command(slash_command)]
pub(super) async fn draw(ctx: Context<'_>, action: Option<DrawAction>) -> Result<(), Error> {
    let step = match action.unwrap_or(DrawAction::Offer) {
        DrawAction::Offer => OfferStep::Make,
        DrawAction::Accept => OfferStep::Accept,
        DrawAction::Decline => OfferStep::Decline,
    };
    offer_command(ctx, OfferKind::Draw, step).await
}

/// What `/takeback` does.
#[derive(Debug, poise::ChoiceParameter)]
pub(crate) enum TakebackAction {
    #[name = "request"]
    Request,
    #[name = "accept"]
    Accept,
    #[name = "decline"]
    Decline,
}

/// `/takeback [action]`: ask to take back your last move, or answer the opponent.
#[poise::command(slash_command)]
pub(super) async fn takeback(
    ctx: Context<'_>,
    action: Option<TakebackAction>,
) -> Result<(), Error> {
    let step = match action.unwrap_or(TakebackAction::Request) {
        TakebackAction::Request => OfferStep::Make,
        TakebackAction::Accept => OfferStep::Accept,
        TakebackAction::Decline => OfferStep::Decline,
    };
    offer_command(ctx, OfferKind::Takeback, step).await
}
