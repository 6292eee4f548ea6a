//! `/move` (with its autocomplete), `/resign`, `/abort`.

use std::time::Instant;

use super::{channel, locale_of, run, user};
use crate::discord::messages::game_answer;
use crate::i18n::Locale;
use poise::serenity_prelude as serenity;

use crate::discord::i18n::Locales;
use crate::discord::{Context, Data, Error};
use crate::game::{MAX_INPUT_LEN, MAX_SUGGESTIONS};

/// Autocomplete of `/move`: the legal moves starting with what was typed (SAN, Thai SAN or
/// UCI), checks first. A Thai user (or one typing Thai letters) sees the Thai notation with the
/// SAN beside it (`ม-ง๒ (Nd2)`); the value picked is the SAN, which the service reads.
async fn autocomplete_move(ctx: Context<'_>, partial: &str) -> Vec<serenity::AutocompleteChoice> {
    let started = Instant::now();
    let thai = locale_of(ctx) == Locale::Th || !partial.trim().is_ascii();
    let moves: Vec<serenity::AutocompleteChoice> = ctx
        .data()
        .service
        .legal_move_choices(channel(ctx), user(ctx), partial)
        .await
        .into_iter()
        .map(|c| {
            let shown = if thai {
                c.thai_with_san()
            } else {
                c.san.clone()
            };
            serenity::AutocompleteChoice::new(shown, c.san)
        })
        .collect();
    tracing::debug!(
        channel = %ctx.channel_id(),
        user = %ctx.author().id,
        latency_ms = started.elapsed().as_secs_f64() * 1000.0,
        count = moves.len(),
        "autocomplete"
    );
    moves.into_iter().take(MAX_SUGGESTIONS).collect()
}

/// `/move`, its option as long as the service reads ([`MAX_INPUT_LEN`]): poise's
/// `#[max_length]` takes only a literal, which could drift from the limit.
pub(super) fn play_command() -> poise::Command<Data, Error> {
    let mut command = play();
    for p in &mut command.parameters {
        p.type_setter = Some(|o| {
            o.kind(serenity::CommandOptionType::String)
                .max_length(u16::try_from(MAX_INPUT_LEN).unwrap_or(u16::MAX))
        });
    }
    command
}

/// `/move move`: play a move (SAN, PlayOK, Thai or UCI).
#[poise::command(slash_command, rename = "move")]
pub(super) async fn play(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_move"]
    #[rename = "move"]
    input: String,
) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let (channel, player) = (channel(ctx), user(ctx));
    run(ctx, |locales: Locales| async move {
        let locale = locales.public;
        let reply = service.play(channel, player, &input).await?;
        game_answer(&reply, locale).await
    })
    .await
}

/// `/resign`.
#[poise::command(slash_command)]
pub(super) async fn resign(ctx: Context<'_>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let (channel, player) = (channel(ctx), user(ctx));
    run(ctx, |locales: Locales| async move {
        let locale = locales.public;
        let reply = service.resign(channel, player).await?;
        game_answer(&reply, locale).await
    })
    .await
}

/// `/abort`: end the game without result before both sides have moved.
#[poise::command(slash_command)]
pub(super) async fn abort(ctx: Context<'_>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let (channel, player) = (channel(ctx), user(ctx));
    run(ctx, |locales: Locales| async move {
        let locale = locales.public;
        let reply = service.abort(channel, player).await?;
        game_answer(&reply, locale).await
    })
    .await
}
