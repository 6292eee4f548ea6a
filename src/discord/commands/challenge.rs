//! `/challenge`, `/accept`, `/decline`: challenges (the challenge message's buttons are in
//! `components`). A challenge of the bot's own user starts a game against the computer.

use poise::serenity_prelude as serenity;
use serenity::{ButtonStyle, CreateActionRow};

use super::options::{color_choice, ColorOption, RulesetOption, TimeOption, VariantOption};
use super::thread::accept_in_thread;
use super::{channel, run, user};
use crate::discord::answer::Answer;
use crate::discord::buttons::ButtonId;
use crate::discord::i18n::mention;
use crate::discord::i18n::Locales;
use crate::discord::messages::game_answer;
use crate::discord::{Context, Error};
use crate::game::{ComputerLevel, GameService, Ladder, Ruleset, Terms, UserId};
use crate::tr;

// `time` is one of the service's time controls, offered as Discord choices (the same list as
// `TimeControl::CHOICES`); the service reads it and refuses anything else with the list.
// `rated` (default true) counts the game for the server's ratings.
// `thread` (default: the server's `/settings thread`) plays the game in a thread of its own,
// opened from the challenge message when it is accepted.
// `variant` (default Makruk) is the game of the Makruk family; `rules` is Makruk's only.
/// `/challenge opponent [color] [variant] [rules] [time] [rated] [thread]`: a challenge.
// Each of a slash command's options is a parameter of its function (poise).
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command)]
pub(super) async fn challenge(
    ctx: Context<'_>,
    opponent: serenity::User,
    color: Option<ColorOption>,
    variant: Option<VariantOption>,
    rules: Option<RulesetOption>,
    time: Option<TimeOption>,
    rated: Option<bool>,
    thread: Option<bool>,
) -> Result<(), Error> {
    let ladder = Ladder {
        guild: super::server(ctx),
        rated: rated.unwrap_or(true),
    };
    let service = ctx.data().service.clone();
    let color = color_choice(color);
    let ruleset = rules.map_or(Ruleset::Standard, |r| r.ruleset());
    let variant = super::options::variant(variant);
    // Challenging the bot itself is `/play` at the default level.
    if opponent.id == ctx.serenity_context().cache.current_user().id {
        return super::computer::start(
            ctx,
            ComputerLevel::DEFAULT.number(),
            color,
            (variant, ruleset),
            time,
            thread,
        )
        .await;
    }
    // Nobody but the bot is in one's DM with it: only the computer can be played there.
    if super::in_bot_dm(ctx) {
        return run(ctx, |locales: Locales| async move {
            Ok(Answer::private(tr!(
                locales.user,
                "discord-challenge-bot-dm"
            )))
        })
        .await;
    }
    let thread_asked = thread;
    let thread = super::wants_thread(ctx, thread).await;
    let (channel, challenger) = (channel(ctx), user(ctx));
    let place = super::Where::of(ctx);
    run(ctx, |locales: Locales| async move {
        let locale = locales.public;
        let time_control =
            GameService::time_control(time.as_ref().map(poise::ChoiceParameter::name))?;
        let view = service
            .challenge(
                channel,
                challenger,
                UserId(opponent.id.get()),
                opponent.bot,
                Terms {
                    color,
                    ruleset,
                    variant,
                    time_control,
                    ladder,
                    thread,
                },
            )
            .await?;
        let id = view.id;
        let mut content = place.notes(
            view.text(locale, &mention),
            ladder.rated,
            thread_asked,
            false,
            locale,
        );
        if thread {
            content.push('\n');
            content.push_str(&tr!(locale, "discord-thread-challenge"));
        }
        Ok(Answer {
            content,
            components: vec![CreateActionRow::Buttons(vec![
                ButtonId::Accept(id).button(locale, "button-accept", ButtonStyle::Success),
                ButtonId::Decline(id).button(locale, "button-decline", ButtonStyle::Danger),
                ButtonId::Withdraw(id).button(locale, "button-withdraw", ButtonStyle::Secondary),
            ])],
            challenge: Some(id),
            ..Answer::default()
        })
    })
    .await
}

/// `/accept`: accept the challenge addressed to you in this channel (as its button does).
#[poise::command(slash_command)]
pub(super) async fn accept(ctx: Context<'_>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let http = std::sync::Arc::clone(&ctx.serenity_context().http);
    let herald = std::sync::Arc::clone(&ctx.data().herald);
    let (channel, player) = (channel(ctx), user(ctx));
    run(ctx, |locales: Locales| async move {
        let locale = locales.public;
        if let Some(players) = service
            .challenge_wants_thread(channel, player, None)
            .await?
        {
            // No challenge message at hand: the thread is opened from a message posted for it.
            return accept_in_thread(
                &http,
                &herald,
                &service,
                (channel, None),
                player,
                None,
                players,
                locales,
            )
            .await;
        }
        let reply = service.accept(channel, player, None).await?;
        game_answer(&reply, locale).await
    })
    .await
}

/// `/decline`: decline the challenge addressed to you in this channel (as its button does).
#[poise::command(slash_command)]
pub(super) async fn decline(ctx: Context<'_>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let (channel, player) = (channel(ctx), user(ctx));
    run(ctx, |locales: Locales| async move {
        let locale = locales.public;
        let view = service.decline(channel, player, None).await?;
        Ok(Answer::public(view.text(locale, &mention)))
    })
    .await
}
