//! `/games` and `/pgn`: the channel's finished games.

use poise::serenity_prelude::{CreateAttachment, CreateEmbed};

use super::{channel, run};
use crate::discord::answer::Answer;
use crate::discord::i18n::mention;
use crate::discord::i18n::Locales;
use crate::discord::threads::user_name;
use crate::discord::{Context, Error};
use crate::game::{rules_label, time_control_name, GameId, GameResult, UserId};
use crate::i18n::Locale;
use crate::tr;

fn result_text(locale: Locale, result: GameResult, reason: &str) -> String {
    let result_key = match result {
        GameResult::WhiteWins => "discord-result-white",
        GameResult::BlackWins => "discord-result-black",
        GameResult::Draw => "discord-result-draw",
        GameResult::Aborted => "discord-result-aborted",
    };
    format!(
        "{} ({})",
        tr!(locale, result_key),
        tr!(locale, &format!("discord-reason-{reason}"))
    )
}

/// `/games`: the channel's recent finished games.
#[poise::command(slash_command)]
pub(super) async fn games(ctx: Context<'_>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let channel = channel(ctx);
    run(ctx, |locales: Locales| async move {
        let locale = locales.public;
        let list = service.recent_games(channel, 10).await?;
        if list.is_empty() {
            return Ok(Answer::private(tr!(locale, "discord-games-none")));
        }
        let lines: Vec<String> = list
            .iter()
            .map(|g| {
                tr!(
                    locale,
                    "discord-games-line",
                    id = g.id.0,
                    white = mention(g.white),
                    black = mention(g.black),
                    result = result_text(locale, g.result, g.reason.name()),
                    pgn = g.result.pgn(),
                    ruleset = rules_label(locale, g.variant, g.ruleset),
                    plies = g.plies,
                    time = g.time_control.to_string(),
                    time_name = time_control_name(locale, g.time_control),
                    finished = format!("<t:{}:R>", g.finished_at)
                )
            })
            .collect();
        let embed = CreateEmbed::new()
            .title(tr!(locale, "discord-games-title"))
            .description(lines.join("\n"))
            .colour(0x0034_98db);
        Ok(Answer {
            embeds: vec![embed],
            ..Answer::default()
        })
    })
    .await
}

/// `/pgn [game]`: the PGN as a file, and the pychess analysis link.
#[poise::command(slash_command)]
pub(super) async fn pgn(ctx: Context<'_>, #[min = 1] game: Option<i64>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let http = std::sync::Arc::clone(&ctx.serenity_context().http);
    let channel = channel(ctx);
    run(ctx, |locales: Locales| async move {
        let locale = locales.public;
        // The players by name in the PGN's White and Black tags, read from Discord first.
        let record = service.record(channel, game.map(GameId)).await?;
        let (white, black) = (record.white, record.black);
        let white_name = user_name(&http, white).await;
        let black_name = user_name(&http, black).await;
        let names = |u: UserId| {
            if u == white {
                white_name.clone()
            } else if u == black {
                black_name.clone()
            } else {
                u.0.to_string()
            }
        };
        let export = service.pgn(channel, Some(record.game_id), &names).await?;
        let text = tr!(
            locale,
            "discord-pgn-text",
            id = export.game_id.0,
            url = export.analysis_url.clone()
        );
        let file = format!("makruk-game-{}.pgn", export.game_id.0);
        Ok(Answer {
            content: text,
            files: vec![CreateAttachment::bytes(export.pgn.into_bytes(), file)],
            ..Answer::default()
        })
    })
    .await
}
