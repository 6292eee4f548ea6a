//! `/settings [thread]`: the server's settings, for members with Manage Server. Registered with
//! `default_member_permissions` = Manage Server (Discord hides it from others), and checked
//! again on use: a server can grant the command to anyone in its integration settings, and an
//! interaction carries the member's permissions in the channel.

use poise::serenity_prelude as serenity;

use super::run;
use crate::discord::answer::Answer;
use crate::discord::i18n::Locales;
use crate::discord::{Context, Error};
use crate::game::GuildId;
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
// `thread` option says otherwise. Without an option: the settings as they are. The answer is
// private, in the member's language.
/// `/settings [thread]`: show or change the server's settings.
#[poise::command(slash_command, guild_only, default_member_permissions = "MANAGE_GUILD")]
pub(super) async fn settings(ctx: Context<'_>, thread: Option<Switch>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let guild = ctx.guild_id().map(|g| GuildId(g.get()));
    let allowed = manages_server(ctx);
    run(ctx, |locales: Locales| async move {
        let locale = locales.user;
        let Some(guild) = guild else {
            return Ok(Answer::private(tr!(locale, "discord-guild-only")));
        };
        if !allowed {
            return Ok(Answer::private(tr!(locale, "discord-settings-not-allowed")));
        }
        if let Some(switch) = thread {
            service
                .set_thread_default(guild, matches!(switch, Switch::On))
                .await?;
        }
        let settings = service.guild_settings(guild).await?;
        let key = if settings.thread_default {
            "discord-settings-thread-on"
        } else {
            "discord-settings-thread-off"
        };
        let heading = if thread.is_some() {
            "discord-settings-changed"
        } else {
            "discord-settings-now"
        };
        Ok(Answer::private(format!(
            "{}\n{}",
            tr!(locale, heading),
            tr!(locale, key)
        )))
    })
    .await
}

/// Whether the member who invoked `ctx` has Manage Server (or Administrator) in the channel, as
/// the interaction says.
fn manages_server(ctx: Context<'_>) -> bool {
    let poise::Context::Application(actx) = ctx else {
        return false;
    };
    actx.interaction
        .member
        .as_ref()
        .and_then(|m| m.permissions)
        .is_some_and(|p: serenity::Permissions| p.manage_guild() || p.administrator())
}
