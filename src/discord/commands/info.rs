//! `/board` and `/rules`.

use poise::serenity_prelude::CreateEmbed;

use super::options::{RulesetOption, VariantOption};
use super::{channel, run};
use crate::discord::answer::{split_text, Answer};
use crate::discord::board;
use crate::discord::i18n::Locales;
use crate::discord::messages::board_answer;
use crate::discord::{Context, Error};
use crate::game::{rules_label, RulesTopic, Ruleset};
use crate::tr;

/// `/board`: the channel's game as it stands, its last moves under the picture.
#[poise::command(slash_command, rename = "board")]
pub(super) async fn board(ctx: Context<'_>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let channel = channel(ctx);
    run(ctx, |locales: Locales| async move {
        let locale = locales.public;
        let reply = service.board(channel).await?;
        // A second read: a move in between only adds plies, which the list leaves out.
        let plies = reply.status.plies as usize;
        let footer = service
            .record(channel, Some(reply.game_id))
            .await
            .ok()
            .and_then(|r| board::last_moves(&r, plies, locale));
        board_answer(&reply, footer, locale).await
    })
    .await
}

/// Topic of `/rules`.
#[derive(Debug, poise::ChoiceParameter)]
pub(crate) enum TopicOption {
    #[name = "overview"]
    Overview,
    #[name = "pieces"]
    Pieces,
    #[name = "promotion"]
    Promotion,
    #[name = "counting"]
    Counting,
    #[name = "draws"]
    Draws,
    #[name = "time"]
    Time,
}

/// `/rules [topic] [ruleset] [variant]`: the rules, explained (only to the asker).
#[poise::command(slash_command)]
pub(super) async fn rules(
    ctx: Context<'_>,
    topic: Option<TopicOption>,
    ruleset: Option<RulesetOption>,
    variant: Option<VariantOption>,
) -> Result<(), Error> {
    let variant = super::options::variant(variant);
    let service = ctx.data().service.clone();
    run(ctx, |locales: Locales| async move {
        let locale = locales.user;
        let topic = match topic.unwrap_or(TopicOption::Overview) {
            TopicOption::Overview => RulesTopic::Overview,
            TopicOption::Pieces => RulesTopic::Pieces,
            TopicOption::Promotion => RulesTopic::Promotion,
            TopicOption::Counting => RulesTopic::Counting,
            TopicOption::Draws => RulesTopic::Draws,
            TopicOption::Time => RulesTopic::Time,
        };
        let ruleset = ruleset.map_or(Ruleset::Standard, |r| r.ruleset());
        let text = service.rules_text(variant, ruleset, topic, locale);
        let title = tr!(
            locale,
            "discord-rules-title",
            topic = tr!(locale, &format!("choice-{}", topic.name())),
            ruleset = rules_label(locale, variant, ruleset)
        );
        // The service's text starts with its own heading; the title is only a fallback.
        // Embeds: 4096 characters of description each, 6000 in all.
        let mut embeds = Vec::new();
        let mut total = 0;
        for piece in split_text(&text, 4000) {
            total += piece.chars().count();
            if total > 5900 {
                break;
            }
            embeds.push(CreateEmbed::new().description(piece).colour(0x0034_98db));
        }
        if embeds.is_empty() {
            embeds.push(CreateEmbed::new().title(title).colour(0x0034_98db));
        }
        Ok(Answer {
            embeds,
            ephemeral: true,
            ..Answer::default()
        })
    })
    .await
}
