//! `/settings [thread] [daily-puzzle] [puzzle-channel] [puzzle-time] [timezone]
//! [tournament-role]`: the server's settings, for members with Manage Server. Registered with
//! `default_member_permissions` = Manage Server (Discord hides it from others), and checked
//! again on use: a server can grant the command to anyone in its integration settings, and an
//! interaction carries the member's permissions in the channel.

use poise::serenity_prelude as serenity;

use super::{channel, run};
use crate::discord::answer::Answer;
use crate::discord::i18n::Locales;
use crate::discord::{Context, Error};
use crate::game::{ChannelId, DailyChange, DailySettings, GuildId};
use crate::puzzles::daily::{offset_text, parse_offset, parse_time, time_text};
use crate::tr;

/// On or off, as `/settings` takes a switch.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub(crate) enum Switch {
    #[name = "on"]
    On,
    #[name = "off"]
    Off,
}

// `thread`: new challenges and `/play` games open a thread of their own unless their own
// `thread` option says otherwise. `daily-puzzle`, `puzzle-channel`, `puzzle-time`,
// `timezone`: the daily puzzle (issue 24), posted at that time of the server's day in that
// channel (`daily-puzzle:on` alone: in this channel). `tournament-role`: its members may create
// tournaments too (@everyone: anyone). Without an option: the settings as they are. The answer is private, in the member's language.
/// `/settings …`: show or change the server's settings.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command, guild_only, default_member_permissions = "MANAGE_GUILD")]
pub(super) async fn settings(
    ctx: Context<'_>,
    thread: Option<Switch>,
    #[rename = "daily-puzzle"] daily_puzzle: Option<Switch>,
    #[rename = "puzzle-channel"]
    #[channel_types("Text")]
    puzzle_channel: Option<serenity::ChannelId>,
    #[rename = "puzzle-time"] puzzle_time: Option<String>,
    timezone: Option<String>,
    #[rename = "tournament-role"] tournament_role: Option<serenity::Role>,
) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let wake = std::sync::Arc::clone(&ctx.data().daily_wake);
    let guild = ctx.guild_id().map(|g| GuildId(g.get()));
    let here = channel(ctx);
    let allowed = manages_server(ctx);
    run(ctx, |locales: Locales| async move {
        let locale = locales.user;
        let Some(guild) = guild else {
            return Ok(Answer::private(tr!(locale, "discord-guild-only")));
        };
        if !allowed {
            return Ok(Answer::private(tr!(locale, "discord-settings-not-allowed")));
        }
        let minute = match puzzle_time.as_deref().map(parse_time) {
            Some(None) => {
                return Ok(Answer::private(tr!(locale, "discord-settings-bad-time")));
            }
            other => other.flatten(),
        };
        let utc_offset = match timezone.as_deref().map(parse_offset) {
            Some(None) => {
                return Ok(Answer::private(tr!(
                    locale,
                    "discord-settings-bad-timezone"
                )));
            }
            other => other.flatten(),
        };
        let channel = match (daily_puzzle, puzzle_channel) {
            (Some(Switch::Off), _) => Some(None),
            (_, Some(c)) => Some(Some(ChannelId(c.get()))),
            (Some(Switch::On), None) => Some(Some(here)),
            (None, None) => None,
        };
        let change = DailyChange {
            channel,
            minute,
            utc_offset,
        };
        let changed =
            thread.is_some() || tournament_role.is_some() || change != DailyChange::default();
        if let Some(role) = &tournament_role {
            service.set_tournament_role(guild, role.id.get()).await?;
        }
        if let Some(switch) = thread {
            service
                .set_thread_default(guild, matches!(switch, Switch::On))
                .await?;
        }
        let daily = if change == DailyChange::default() {
            service.daily_settings(guild).await?
        } else {
            let d = service.set_daily_settings(guild, change).await?;
            wake.notify_one();
            d
        };
        let settings = service.guild_settings(guild).await?;
        let key = if settings.thread_default {
            "discord-settings-thread-on"
        } else {
            "discord-settings-thread-off"
        };
        let heading = if changed {
            "discord-settings-changed"
        } else {
            "discord-settings-now"
        };
        let tournaments = match settings.tournament_role {
            Some(role) if role == guild.0 => tr!(locale, "discord-settings-tournaments-everyone"),
            Some(role) => tr!(
                locale,
                "discord-settings-tournaments-role",
                role = format!("<@&{role}>")
            ),
            None => tr!(locale, "discord-settings-tournaments-managers"),
        };
        Ok(Answer::private(format!(
            "{}\n{}\n{}\n{}",
            tr!(locale, heading),
            tr!(locale, key),
            daily_text(daily, locale),
            tournaments
        )))
    })
    .await
}

/// The daily puzzle's line of the settings.
fn daily_text(d: DailySettings, locale: crate::i18n::Locale) -> String {
    match d.channel {
        Some(c) => tr!(
            locale,
            "discord-settings-daily-on",
            channel = format!("<#{}>", c.0),
            at = time_text(d.minute),
            zone = offset_text(d.utc_offset)
        ),
        None => tr!(locale, "discord-settings-daily-off"),
    }
}

/// Whether the member who invoked `ctx` has role `role` (the server's id: @everyone, whom
/// every member has), as the interaction says.
pub(super) fn has_role(ctx: Context<'_>, role: u64) -> bool {
    let poise::Context::Application(actx) = ctx else {
        return false;
    };
    let Some(member) = actx.interaction.member.as_ref() else {
        return false;
    };
    actx.interaction.guild_id.is_some_and(|g| g.get() == role)
        || member.roles.iter().any(|r| r.get() == role)
}

/// Whether the member who invoked `ctx` has Manage Server (or Administrator) in the channel, as
/// the interaction says.
pub(super) fn manages_server(ctx: Context<'_>) -> bool {
    let poise::Context::Application(actx) = ctx else {
        return false;
    };
    actx.interaction
        .member
        .as_ref()
        .and_then(|m| m.permissions)
        .is_some_and(|p: serenity::Permissions| p.manage_guild() || p.administrator())
}
