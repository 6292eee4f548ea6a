//! The slash commands, one module per group: `challenge` (/challenge, /accept, /decline),
//! `play` (/move, /resign, /abort), `offers` (/draw, /takeback), `count` (/count), `info`
//! (/board, /rules), `history` (/games, /pgn). Each command reads Discord's input, asks the
//! game service, and answers with an [`Answer`] (shared builders in [`super::answers`]); all
//! user-facing words come from the service or `discord.ftl`. [`all`] lists every command.

mod challenge;
mod count;
mod history;
mod info;
mod offers;
mod play;

use std::future::Future;
use std::time::Instant;

use tracing::{error, info, Instrument as _};

use super::answers::error_answer;
use super::i18n::{locale, localizations};
use super::respond::{answer_command, defer_budget, or_apology, Answer};
use super::{Context, Data, Error};
use crate::game::{ChannelId, Ruleset, ServiceError, UserId};
use crate::i18n::Locale;
use crate::tr;

/// All commands, with names, descriptions and choices (English + translations) from
/// `discord.ftl`.
pub(crate) fn all() -> Vec<poise::Command<Data, Error>> {
    let mut commands = vec![
        challenge::challenge(),
        challenge::accept(),
        challenge::decline(),
        play::play(),
        info::board(),
        play::resign(),
        offers::draw(),
        offers::takeback(),
        play::abort(),
        count::count(),
        info::rules(),
        history::games(),
        history::pgn(),
    ];
    for command in &mut commands {
        localize(command);
    }
    commands
}

fn localize(command: &mut poise::Command<Data, Error>) {
    let key = format!("cmd-{}", command.name);
    command.description = Some(tr!(Locale::En, &format!("{key}-description")));
    command.name_localizations = localizations(&key);
    command.description_localizations = localizations(&format!("{key}-description"));
    for p in &mut command.parameters {
        let pkey = format!("{key}-{}", p.name);
        p.description = Some(tr!(Locale::En, &format!("{pkey}-description")));
        p.name_localizations = localizations(&pkey);
        p.description_localizations = localizations(&format!("{pkey}-description"));
        for choice in &mut p.choices {
            // Fluent ids have no `+`: the choice `3+2` is `choice-3-plus-2`.
            let name = choice.name.replace('+', "-plus-");
            choice.localizations = localizations(&format!("choice-{name}"));
        }
    }
}

/// The locale of the user who invoked `ctx`.
pub(crate) fn locale_of(ctx: Context<'_>) -> Locale {
    locale(ctx.locale().unwrap_or("en-US"))
}

/// Runs one command: a tracing span (command, channel, user, latency), the answer sent in time
/// (see [`answer_command`]), and never a failed interaction — an internal error becomes a short
/// private apology and a logged error.
async fn run<F, Fut>(ctx: Context<'_>, name: &'static str, work: F) -> Result<(), Error>
where
    F: FnOnce(Locale) -> Fut,
    Fut: Future<Output = Result<Answer, ServiceError>>,
{
    let started = Instant::now();
    let span = tracing::info_span!(
        "interaction",
        command = name,
        channel = %ctx.channel_id(),
        user = %ctx.author().id,
        latency_ms = tracing::field::Empty,
    );
    async move {
        let poise::Context::Application(actx) = ctx else {
            return Ok(());
        };
        let _in_flight = ctx.data().in_flight.read().await;
        let locale = locale_of(ctx);
        let work = or_apology(
            async move {
                match work(locale).await {
                    Ok(answer) => answer,
                    Err(e) => error_answer(&e, locale),
                }
            },
            move || Answer::private(tr!(locale, "discord-internal-error")),
        );
        let http = &ctx.serenity_context().http;
        let budget = defer_budget(actx.interaction.id.get(), ctx.data().defer_after);
        let sent = answer_command(http, actx.interaction, budget, work).await;
        let latency = started.elapsed();
        tracing::Span::current().record("latency_ms", latency.as_secs_f64() * 1000.0);
        match sent {
            Ok(()) => info!("answered"),
            Err(e) => error!("cannot answer the interaction: {e}"),
        }
        Ok(())
    }
    .instrument(span)
    .await
}

/// Errors poise found before or around our code (argument parsing, guild-only, panics).
pub(crate) async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    match error {
        poise::FrameworkError::Command { error, ctx, .. } => {
            error!(command = %ctx.command().name, "command failed: {error:#}");
        }
        poise::FrameworkError::GuildOnly { ctx, .. } => {
            let text = tr!(locale_of(ctx), "discord-guild-only");
            send_private(ctx, text).await;
        }
        poise::FrameworkError::ArgumentParse {
            error, input, ctx, ..
        } => {
            info!(command = %ctx.command().name, ?input, "bad argument: {error}");
            let text = tr!(locale_of(ctx), "discord-bad-argument");
            send_private(ctx, text).await;
        }
        poise::FrameworkError::CommandPanic { payload, ctx, .. } => {
            error!(command = %ctx.command().name, ?payload, "command panicked");
            let text = tr!(locale_of(ctx), "discord-internal-error");
            send_private(ctx, text).await;
        }
        other => {
            if let Some(ctx) = other.ctx() {
                error!(command = %ctx.command().name, "framework error: {other}");
                let text = tr!(locale_of(ctx), "discord-internal-error");
                send_private(ctx, text).await;
            } else {
                error!("framework error: {other}");
            }
        }
    }
}

async fn send_private(ctx: Context<'_>, text: String) {
    let reply = poise::CreateReply::default().content(text).ephemeral(true);
    if let Err(e) = ctx.send(reply).await {
        error!("cannot send an error message: {e}");
    }
}

/// The channel of `ctx`, as the service names it.
pub(super) fn channel(ctx: Context<'_>) -> ChannelId {
    ChannelId(ctx.channel_id().get())
}

/// The user who invoked `ctx`, as the service names them.
pub(super) fn user(ctx: Context<'_>) -> UserId {
    UserId(ctx.author().id.get())
}

/// Ruleset asked for in `/challenge` and `/rules`.
#[derive(Debug, poise::ChoiceParameter)]
pub(crate) enum RulesetOption {
    #[name = "standard"]
    Standard,
    #[name = "traditional"]
    Traditional,
    #[name = "material"]
    Material,
    #[name = "fifty-move"]
    FiftyMove,
}

impl RulesetOption {
    /// The ruleset chosen.
    pub(super) fn ruleset(&self) -> Ruleset {
        match self {
            RulesetOption::Standard => Ruleset::Standard,
            RulesetOption::Traditional => Ruleset::Traditional,
            RulesetOption::Material => Ruleset::Material,
            RulesetOption::FiftyMove => Ruleset::FiftyMove,
        }
    }
}
