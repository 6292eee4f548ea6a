//! `/tournament create|join|leave|start|standings|pairings|cancel|trf` (issue 26): Swiss and
//! round-robin events in a channel. Creating, starting and cancelling are for members with
//! Manage Server or the role `/settings tournament-role` names (and the organiser may start or
//! cancel their own); anyone joins and leaves.
//! Each change edits the event's announcement message (`crate::discord::tournaments`); the
//! runner there pairs the rounds and starts the games.

use std::collections::HashMap;
use std::sync::Arc;

use poise::serenity_prelude::CreateAttachment;

use super::options::{RulesetOption, TimeOption, VariantOption};
use super::settings::{has_role, manages_server};
use super::{channel, run, server, user};
use crate::discord::answer::Answer;
use crate::discord::i18n::Locales;
use crate::discord::threads::user_name;
use crate::discord::tournaments::{mention, private, refresh};
use crate::discord::{Context, Error};
use crate::game::{GameService, Ruleset, ServiceError};
use crate::i18n::Locale;
use crate::tournament::{parse_start, text, NewEvent, TournamentError, Tournaments};
use crate::tr;
use crate::types::TournamentFormat;

/// The format asked for in `/tournament create`.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub(crate) enum FormatOption {
    #[name = "swiss"]
    Swiss,
    #[name = "round-robin"]
    RoundRobin,
    #[name = "arena"]
    Arena,
}

/// How often a recurring tournament is held again.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub(crate) enum RepeatOption {
    #[name = "daily"]
    Daily,
    #[name = "weekly"]
    Weekly,
}

/// A refusal as a private answer; an internal error stays an error (the usual apology).
fn refused(e: TournamentError, locale: Locale) -> Result<Answer, ServiceError> {
    match e {
        TournamentError::Service(e) => Err(e),
        e => Ok(private(text::error_text(&e, locale).unwrap_or_default())),
    }
}

/// `/tournament …`: the group; Discord runs its subcommands.
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "create",
        "join",
        "leave",
        "start",
        "standings",
        "pairings",
        "cancel",
        "trf",
        "berserk"
    ),
    subcommand_required
)]
pub(super) async fn tournament(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

// `format`: swiss (the FIDE Dutch system), round-robin (the Berger tables) or arena (lichess's:
// `duration` minutes, default 60, players paired as soon as they are free); `time`: the games'
// time control (as /challenge's, default 3 days a move; an arena's 3+2, live clocks only);
// `rounds`: a Swiss event's (default 5); `repeat`: daily or weekly, from `start` (a new event
// opens when one finishes);
// `start`: `in 30m`, `2h`, or `2026-12-05T19:00+07:00` (default: when the organiser runs
// /tournament start); `rated` (default true); `rules` and `variant` as /challenge's; `name`.
/// `/tournament create format [time] [rounds] [start] …`: a new tournament in this channel.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command, guild_only)]
async fn create(
    ctx: Context<'_>,
    format: FormatOption,
    time: Option<TimeOption>,
    #[min = 1]
    #[max = 20]
    rounds: Option<u32>,
    start: Option<String>,
    rated: Option<bool>,
    rules: Option<RulesetOption>,
    variant: Option<VariantOption>,
    #[max_length = 80] name: Option<String>,
    #[min = 10]
    #[max = 360]
    duration: Option<u32>,
    repeat: Option<RepeatOption>,
) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let wake = Arc::clone(&ctx.data().tournament_wake);
    let http = Arc::clone(&ctx.serenity_context().http);
    let (guild, here, organiser) = (server(ctx), channel(ctx), user(ctx));
    // Manage Server, or the role `/settings tournament-role` names.
    let manager = manages_server(ctx);
    let role = match guild {
        Some(g) if !manager => ctx
            .data()
            .service
            .guild_settings(g)
            .await
            .ok()
            .and_then(|s| s.tournament_role),
        _ => None,
    };
    let allowed = manager || role.is_some_and(|r| has_role(ctx, r));
    // An arena is played with a live clock: 3+2 unless told otherwise.
    let time = time
        .as_ref()
        .map(poise::ChoiceParameter::name)
        .or(matches!(format, FormatOption::Arena).then_some("3+2"))
        .map(str::to_owned);
    run(ctx, |locales: Locales| async move {
        let locale = locales.user;
        if !allowed {
            return Ok(private(tr!(locale, "tournament-error-not-allowed")));
        }
        let time_control = GameService::time_control(time.as_deref())?;
        let now = service.now_ms().div_euclid(1000);
        let start_at = match start.as_deref().map(|s| parse_start(s, now)) {
            Some(None) => return Ok(private(tr!(locale, "tournament-error-bad-start"))),
            other => other.flatten(),
        };
        let format = match format {
            FormatOption::Swiss => TournamentFormat::Swiss,
            FormatOption::RoundRobin => TournamentFormat::RoundRobin,
            FormatOption::Arena => TournamentFormat::Arena,
        };
        let variant = super::options::variant(variant);
        let name = name
            .map(|n| n.trim().to_owned())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| {
                format!(
                    "{} {}",
                    crate::game::variant_name(locales.public, variant),
                    text::format_name(locales.public, format)
                )
            });
        let event = NewEvent {
            guild,
            channel: here,
            organiser,
            name,
            format,
            time_control,
            variant,
            ruleset: rules.map_or(Ruleset::Standard, |r| r.ruleset()),
            rated: rated.unwrap_or(true),
            rounds,
            minutes: duration,
            start_at,
            repeat_days: repeat.map(|r| match r {
                RepeatOption::Daily => 1,
                RepeatOption::Weekly => 7,
            }),
        };
        let t = Tournaments::new(&service);
        match t.create(event).await {
            Ok(view) => {
                refresh(&http, &service, view.row.id).await;
                wake.notify_one();
                Ok(private(tr!(locale, "tournament-created")))
            }
            Err(e) => refused(e, locale),
        }
    })
    .await
}

/// `/tournament join`: join the channel's tournament.
#[poise::command(slash_command, guild_only)]
async fn join(ctx: Context<'_>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let http = Arc::clone(&ctx.serenity_context().http);
    let (here, who) = (channel(ctx), user(ctx));
    run(ctx, |locales: Locales| async move {
        let locale = locales.user;
        match Tournaments::new(&service).join(here, who).await {
            Ok(view) => {
                refresh(&http, &service, view.row.id).await;
                Ok(private(tr!(
                    locale,
                    "tournament-joined",
                    name = view.row.name.clone()
                )))
            }
            Err(e) => refused(e, locale),
        }
    })
    .await
}

/// `/tournament leave`: leave the channel's tournament (withdraw once it runs).
#[poise::command(slash_command, guild_only)]
async fn leave(ctx: Context<'_>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let http = Arc::clone(&ctx.serenity_context().http);
    let (here, who) = (channel(ctx), user(ctx));
    run(ctx, |locales: Locales| async move {
        let locale = locales.user;
        match Tournaments::new(&service).leave(here, who).await {
            Ok(view) => {
                refresh(&http, &service, view.row.id).await;
                let key = match (view.row.round, view.row.format) {
                    (0, _) => "tournament-left",
                    (_, TournamentFormat::RoundRobin) => "tournament-withdrew-final",
                    _ => "tournament-withdrew",
                };
                Ok(private(tr!(locale, key, name = view.row.name.clone())))
            }
            Err(e) => refused(e, locale),
        }
    })
    .await
}

/// `/tournament start`: start the channel's tournament now (its organiser, or Manage Server).
#[poise::command(slash_command, guild_only)]
async fn start(ctx: Context<'_>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let wake = Arc::clone(&ctx.data().tournament_wake);
    let http = Arc::clone(&ctx.serenity_context().http);
    let (here, who, manager) = (channel(ctx), user(ctx), manages_server(ctx));
    run(ctx, |locales: Locales| async move {
        match Tournaments::new(&service).start(here, who, manager).await {
            Ok(view) => {
                refresh(&http, &service, view.row.id).await;
                // The runner starts round 1's games.
                wake.notify_one();
                Ok(Answer::public(tr!(
                    locales.public,
                    "tournament-started",
                    name = view.row.name.clone()
                )))
            }
            Err(e) => refused(e, locales.user),
        }
    })
    .await
}

/// `/tournament standings`: the standings with the tie-breaks and your own place, privately.
#[poise::command(slash_command, guild_only)]
async fn standings(ctx: Context<'_>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let (here, me) = (channel(ctx), user(ctx));
    run(ctx, |locales: Locales| async move {
        let locale = locales.user;
        match Tournaments::new(&service).standings(here).await {
            Ok(s) => {
                let view = Tournaments::new(&service).view(here).await;
                let mut lines = Vec::new();
                if let Ok(view) = &view {
                    lines.push(text::title(view, locale));
                    if view.row.round == 0 {
                        lines.push(tr!(locale, "tournament-no-standings"));
                        return Ok(private(lines.join("\n")));
                    }
                    if view.row.format != TournamentFormat::Arena {
                        lines.push(tr!(
                            locale,
                            "tournament-standings-after",
                            round = crate::tournament::complete_rounds(view)
                        ));
                    }
                }
                lines.push(text::standings_for(
                    &s,
                    me,
                    locale,
                    &mention,
                    text::STANDINGS_LISTED,
                ));
                Ok(private(lines.join("\n")))
            }
            Err(e) => refused(e, locale),
        }
    })
    .await
}

/// `/tournament pairings [round]`: a round's pairings and results (default: the current one).
#[poise::command(slash_command, guild_only)]
async fn pairings(
    ctx: Context<'_>,
    #[min = 1]
    #[max = 40]
    round: Option<u32>,
) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let here = channel(ctx);
    run(ctx, |locales: Locales| async move {
        let locale = locales.user;
        match Tournaments::new(&service).view(here).await {
            Ok(view) => {
                let round = round.unwrap_or(view.row.round).max(1);
                Ok(private(text::pairings_text(
                    &view,
                    round,
                    locale,
                    &mention,
                    text::BOARDS_LISTED,
                )))
            }
            Err(e) => refused(e, locale),
        }
    })
    .await
}

/// `/tournament cancel`: call the channel's tournament off (its organiser, or Manage Server).
#[poise::command(slash_command, guild_only)]
async fn cancel(ctx: Context<'_>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let http = Arc::clone(&ctx.serenity_context().http);
    let (here, who, manager) = (channel(ctx), user(ctx), manages_server(ctx));
    run(ctx, |locales: Locales| async move {
        match Tournaments::new(&service).cancel(here, who, manager).await {
            Ok(view) => {
                refresh(&http, &service, view.row.id).await;
                Ok(Answer::public(tr!(
                    locales.public,
                    "tournament-cancelled-by",
                    name = view.row.name.clone()
                )))
            }
            Err(e) => refused(e, locales.user),
        }
    })
    .await
}

// The report covers the complete rounds; it is given privately, as a file, for an arbiter's
// tools (and `makruk-bot pair --dutch`).
/// `/tournament trf`: the FIDE TRF16 report of the channel's tournament.
#[poise::command(slash_command, guild_only)]
async fn trf(ctx: Context<'_>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let http = Arc::clone(&ctx.serenity_context().http);
    let here = channel(ctx);
    run(ctx, |locales: Locales| async move {
        let locale = locales.user;
        let t = Tournaments::new(&service);
        let view = match t.view(here).await {
            Ok(v) => v,
            Err(e) => return refused(e, locale),
        };
        let mut names = HashMap::new();
        for p in &view.players {
            names.insert(p.user_id, user_name(&http, p.user_id).await);
        }
        match t.trf(here, &names).await {
            Ok((view, report)) => {
                let file = format!("tournament-{}.trf", view.row.id.0);
                let mut answer =
                    private(tr!(locale, "tournament-trf", name = view.row.name.clone()));
                answer.files = vec![CreateAttachment::bytes(report.into_bytes(), file)];
                Ok(answer)
            }
            Err(e) => refused(e, locale),
        }
    })
    .await
}

// In your arena game's thread, before your first move: half your time, a point more for a win
// of at least 7 moves.
/// `/tournament berserk`: berserk in your arena game.
#[poise::command(slash_command, guild_only)]
async fn berserk(ctx: Context<'_>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let (here, who) = (channel(ctx), user(ctx));
    run(ctx, |locales: Locales| async move {
        service.berserk(here, who).await?;
        Ok(Answer::public(tr!(
            locales.public,
            "tournament-berserk",
            player = mention(who)
        )))
    })
    .await
}
