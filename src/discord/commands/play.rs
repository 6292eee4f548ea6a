//! `/move` (with its autocomplete), `/resign`, `/abort`.

use std::time::Instant;

use super::{channel, run, user};
use crate::discord::messages::game_answer;
use poise::serenity_prelude as serenity;

use crate::discord::i18n::Locales;
use crate::discord::{Context, Data, Error};
use crate::game::{MAX_INPUT_LEN, MAX_SUGGESTIONS};

/// Autocomplete of `/move`: the legal moves (SAN) starting with what was typed, checks first.
async fn autocomplete_move(ctx: Context<'_>, partial: &str) -> Vec<String> {
    let started = Instant::now();
    let moves = ctx
        .data()
        .service
        .legal_moves_san(channel(ctx), user(ctx), partial)
        .await;
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
