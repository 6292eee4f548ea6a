//! `/challenge`, `/accept`, `/decline`: challenges (the challenge message's buttons are in
//! `components`). A challenge of the bot's own user starts a game against the computer.

use poise::serenity_prelude as serenity;
use serenity::{ButtonStyle, CreateActionRow};

use super::{channel, run, user, RulesetOption};
use crate::discord::answers::{button, game_answer};
use crate::discord::i18n::mention;
use crate::discord::i18n::Locales;
use crate::discord::respond::Answer;
use crate::discord::threads;
use crate::discord::{Context, Error};
use crate::game::{
    ChallengeId, ChannelId, ComputerLevel, GameService, GuildId, Ladder, Ruleset, ServiceError,
    Terms, UserId,
};
use crate::tr;

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
// `thread` (default: the server's `/settings thread`) plays the game in a thread of its own,
// opened from the challenge message when it is accepted.
/// `/challenge opponent [color] [rules] [time] [rated] [thread]`: a challenge with its buttons.
#[poise::command(slash_command, guild_only)]
pub(super) async fn challenge(
    ctx: Context<'_>,
    opponent: serenity::User,
    color: Option<ColorOption>,
    rules: Option<RulesetOption>,
    time: Option<TimeOption>,
    rated: Option<bool>,
    thread: Option<bool>,
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
            ComputerLevel::DEFAULT.number(),
            color,
            ruleset,
            time,
            thread,
        )
        .await;
    }
    let thread = super::wants_thread(ctx, thread).await;
    let (channel, challenger) = (channel(ctx), user(ctx));
    run(ctx, "challenge", |locales: Locales| async move {
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
                    time_control,
                    ladder,
                    thread,
                },
            )
            .await?;
        let id = view.id.0;
        let mut content = view.text(locale, &mention);
        if thread {
            content.push('\n');
            content.push_str(&tr!(locale, "discord-thread-challenge"));
        }
        Ok(Answer {
            content,
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
    let http = std::sync::Arc::clone(&ctx.serenity_context().http);
    let herald = std::sync::Arc::clone(&ctx.data().herald);
    let (channel, player) = (channel(ctx), user(ctx));
    run(ctx, "accept", |locales: Locales| async move {
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

/// Accepts challenge `id` (the open one if `None`) of `channel` for `player`, the game in a
/// thread named after `players` (challenger, challenged) opened from `message` (see
/// [`crate::discord::threads::start`]).
// The accept's parts one by one, as the button and the command have them.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn accept_in_thread(
    http: &serenity::Http,
    herald: &crate::discord::announce::Herald,
    service: &GameService,
    (channel, message): (ChannelId, Option<u64>),
    player: UserId,
    id: Option<ChallengeId>,
    (challenger, opponent): (UserId, UserId),
    locales: Locales,
) -> Result<Answer, ServiceError> {
    let name = threads::name(
        locales.public,
        &threads::user_name(http, challenger).await,
        &threads::user_name(http, opponent).await,
    );
    threads::start(http, herald, (channel, message), &name, locales, |thread| {
        service.accept_in(channel, player, id, thread)
    })
    .await
}

/// `/decline`: decline the challenge addressed to you in this channel (as its button does).
#[poise::command(slash_command, guild_only)]
pub(super) async fn decline(ctx: Context<'_>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let (channel, player) = (channel(ctx), user(ctx));
    run(ctx, "decline", |locales: Locales| async move {
        let locale = locales.public;
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
