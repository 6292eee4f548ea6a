//! `/challenge`, `/accept`, `/decline`: challenges (the challenge message's buttons are in
//! `components`). A challenge of the bot's own user starts a game against the computer.

use poise::serenity_prelude as serenity;
use serenity::{ButtonStyle, CreateActionRow};

use super::{channel, run, user, RulesetOption};
use crate::discord::answers::{button, game_answer};
use crate::discord::i18n::mention;
use crate::discord::respond::Answer;
use crate::discord::{Context, Error};
use crate::game::{Ruleset, UserId, DEFAULT_COMPUTER_LEVEL};

/// Colour asked for in `/challenge`.
#[derive(Debug, poise::ChoiceParameter)]
pub(crate) enum ColorOption {
    #[name = "white"]
    White,
    #[name = "black"]
    Black,
    #[name = "random"]
    Random,
}

/// `/challenge opponent [color] [rules]`: a challenge message with Accept / Decline buttons.
#[poise::command(slash_command, guild_only)]
pub(super) async fn challenge(
    ctx: Context<'_>,
    opponent: serenity::User,
    color: Option<ColorOption>,
    rules: Option<RulesetOption>,
) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let color = super::computer::color_choice(color);
    let ruleset = rules.map_or(Ruleset::Standard, |r| r.ruleset());
    // Challenging the bot itself is `/play` at the default level.
    if opponent.id == ctx.serenity_context().cache.current_user().id {
        return super::computer::start(ctx, "challenge", DEFAULT_COMPUTER_LEVEL, color, ruleset)
            .await;
    }
    let (channel, challenger) = (channel(ctx), user(ctx));
    run(ctx, "challenge", |locale| async move {
        let view = service
            .challenge(
                channel,
                challenger,
                UserId(opponent.id.get()),
                opponent.bot,
                color,
                ruleset,
            )
            .await?;
        let id = view.id.0;
        Ok(Answer {
            content: view.text(locale, &mention),
            components: vec![CreateActionRow::Buttons(vec![
                button(locale, "button-accept", "accept", id, ButtonStyle::Success),
                button(locale, "button-decline", "decline", id, ButtonStyle::Danger),
                button(
                    locale,
                    "button-withdraw",
                    "withdraw",
                    id,
                    ButtonStyle::Secondary,
                ),
            ])],
            ..Answer::default()
        })
    })
    .await
}

/// `/accept`: accept the challenge addressed to you in this channel (as its button does).
#[poise::command(slash_command, guild_only)]
pub(super) async fn accept(ctx: Context<'_>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let (channel, player) = (channel(ctx), user(ctx));
    run(ctx, "accept", |locale| async move {
        let reply = service.accept(channel, player, None).await?;
        game_answer(&reply, locale).await
    })
    .await
}

/// `/decline`: decline the challenge addressed to you in this channel (as its button does).
#[poise::command(slash_command, guild_only)]
pub(super) async fn decline(ctx: Context<'_>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let (channel, player) = (channel(ctx), user(ctx));
    run(ctx, "decline", |locale| async move {
        let view = service.decline(channel, player, None).await?;
        Ok(Answer::public(view.text(locale, &mention)))
    })
    .await
}
