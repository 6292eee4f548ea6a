//! `/stats [player] [speed] [variant]`: a player's rating, record and rating chart on this server, and
//! their puzzle rating and streak.
//! Public, as chess bots post a player's stats: ratings are public on the leaderboard anyway,
//! and players show them to each other; a refusal (no rated games) is private.

use anyhow::Context as _;
use poise::serenity_prelude::{self as serenity, CreateAttachment};

use super::leaderboard::SpeedOption;
use super::{run, user};
use crate::discord::answer::Answer;
use crate::discord::i18n::mention;
use crate::discord::i18n::Locales;
use crate::discord::{Context, Error};
use crate::game::{GuildId, ServiceError, UserId};
use crate::render::chart::chart_png;

/// `/stats [player] [speed] [variant]`: the stats as text and the rating history as a chart.
#[poise::command(slash_command, guild_only)]
pub(super) async fn stats(
    ctx: Context<'_>,
    player: Option<serenity::User>,
    speed: Option<SpeedOption>,
    variant: Option<super::options::VariantOption>,
) -> Result<(), Error> {
    let variant = super::options::variant(variant);
    let service = ctx.data().service.clone();
    let guild = ctx.guild_id().map(|g| GuildId(g.get()));
    let who = player.map_or_else(|| user(ctx), |u| UserId(u.id.get()));
    run(ctx, |locales: Locales| async move {
        let locale = locales.public;
        let Some(guild) = guild else {
            return Ok(Answer::private(crate::tr!(locale, "discord-guild-only")));
        };
        let puzzles = service.puzzle_stats(who, Some(guild)).await?.map(|p| {
            let mut line = crate::tr!(
                locale,
                "puzzle-stats",
                rating = format!("{}{}", p.rating, if p.provisional { "?" } else { "" }),
                solved = p.solved,
                failed = p.failed,
                streak = p.streak,
                best = p.best_streak
            );
            if let Some((now, best)) = p.daily_streak {
                line.push('\n');
                line.push_str(&crate::tr!(
                    locale,
                    "puzzle-stats-daily",
                    streak = now,
                    best = best
                ));
            }
            line
        });
        let stats = match service
            .stats(guild, who, variant, speed.map(|s| s.kind()))
            .await
        {
            // Puzzles but no rated game: the puzzle rating alone.
            Err(ServiceError::NoRatedGames(..)) if puzzles.is_some() => {
                let title = crate::tr!(locale, "puzzle-stats-title", player = mention(who));
                return Ok(Answer::public(format!(
                    "{title}\n{}",
                    puzzles.unwrap_or_default()
                )));
            }
            other => other?,
        };
        let history = stats.history.clone();
        let png = tokio::task::spawn_blocking(move || chart_png(&history))
            .await
            .context("the chart task was lost")?
            .context("cannot draw the rating chart")
            .map_err(ServiceError::Internal)?;
        let mut content = stats.text(locale, &mention);
        if let Some(line) = puzzles {
            content.push('\n');
            content.push_str(&line);
        }
        Ok(Answer {
            content,
            files: vec![CreateAttachment::bytes(png, "rating.png")],
            ..Answer::default()
        })
    })
    .await
}
