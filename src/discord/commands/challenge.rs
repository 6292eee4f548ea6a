//! `/challenge`, `/accept`, `/decline`: challenges (the challenge message's buttons are in
//! `components`). A challenge of the bot's own user starts a game against the computer.

use poise::serenity_prelude as serenity;
use serenity::{ButtonStyle, CreateActionRow};

use super::{channel, run, user, RulesetOption};
use crate::discord::answers::{button, game_answer};
use crate::discord::i18n::mention;
use crate::discord::respond::Answer;
use crate::discord::{Context, Error};
use crate::game::{GameService, GuildId, Ladder, Ruleset, UserId, DEFAULT_COMPUTER_LEVEL};

/// Time control asked for in `/challenge`: the names are `TimeControl::CHOICES` as shown.
#[derive(Debug, poise::ChoiceParameter)]
pub(crate) enum TimeOption {
    #[name = "1d"]
    Days1,
    #[name = "3d"]
    Days3,
    #[name = "7d"]
    Days7,
    #[name = "14d"]
    Days14,
    #[name = "3+2"]
    Live3,
    #[name = "5+3"]
    Live5,
    #[name = "10+5"]
    Live10,
    #[name = "15+10"]
    Live15,
    #[name = "30+20"]
    Live30,
}

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

// `time` is one of the service's time controls, offered as Discord choices (the same list as
// `TimeControl::CHOICES`); the service reads it and refuses anything else with the list.
// `rated` (default true) counts the game for the server's ratings.
/// `/challenge opponent [color] [rules] [time] [rated]`: a challenge with Accept / Decline buttons.
#[poise::command(slash_command, guild_only)]
pub(super) async fn challenge(
    ctx: Context<'_>,
    opponent: serenity::User,
    color: Option<ColorOption>,
    rules: Option<RulesetOption>,
    time: Option<TimeOption>,
    rated: Option<bool>,
) -> Result<(), Error> {
    let ladder = Ladder {
        guild: ctx.guild_id().map(|g| GuildId(g.get())),
        rated: rated.unwrap_or(true),
    };
    let service = ctx.data().service.clone();
    let color = super::computer::color_choice(color);
    let ruleset = rules.map_or(Ruleset::Standard, |r| r.ruleset());
    // Challenging the bot itself is `/play` at the default level.
    if opponent.id == ctx.serenity_context().cache.current_user().id {
        return super::computer::start(
            ctx,
            "challenge",
            DEFAULT_COMPUTER_LEVEL,
            color,
            ruleset,
            time,
        )
        .await;
    }
    let (channel, challenger) = (channel(ctx), user(ctx));
    run(ctx, "challenge", |locale| async move {
        let time_control =
            GameService::time_control(time.as_ref().map(poise::ChoiceParameter::name))?;
        let view = service
            .challenge_in(
                ladder,
                channel,
                challenger,
                UserId(opponent.id.get()),
                opponent.bot,
                (color, ruleset, time_control),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::TimeControl;
    use poise::ChoiceParameter as _;

    #[test]
    fn the_time_choices_are_the_services() {
        let offered: Vec<String> = TimeOption::list().into_iter().map(|c| c.name).collect();
        let service: Vec<String> = TimeControl::CHOICES
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(offered, service);
    }
}
