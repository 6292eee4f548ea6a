//! `/analyse [game]` and the Analyse button under a finished game (`components`): the computer
//! analysis of a finished game, in the channel. A stored analysis is shown at once; otherwise
//! the answer says where the game is in line and follows it (`super::super::analyses`) until
//! it becomes the result: the eval graph, each side's accuracy, average centipawn loss and
//! judgements, the key moments (each with the board before the move) and the count notes
//! (texts: `crate::analysis::report`).

use std::sync::{Arc, Mutex, PoisonError};

use anyhow::Context as _;
use makruk_engine::analysis::Judgement;
use poise::serenity_prelude as serenity;
use serenity::{CreateAttachment, CreateEmbed, CreateEmbedFooter};

use super::{channel, run};
use crate::analysis::report::{
    engine_text, graph_png, moment_text, note_text, queued_text, running_text, totals_text,
};
use crate::analysis::ENGINE;
use crate::discord::analyses::{follow, Follow, Original};
use crate::discord::answer::Answer;
use crate::discord::i18n::{mention, Locales};
use crate::discord::{Context, Data, Error};
use crate::game::{AnalysisStatus, ChannelId, GameAnalysis, GameId, GameRecord, ServiceError};
use crate::i18n::Locale;
use crate::render::{self, RenderOptions};
use crate::tr;

/// Side of a key moment's board, in pixels.
const MOMENT_BOARD: u32 = 320;
/// The most count notes shown (a long endgame may give many; Discord allows 4,096 characters
/// an embed and 6,000 a message).
const MAX_NOTES: usize = 6;
/// The longest notes text, in characters.
const MAX_NOTES_CHARS: usize = 1500;

/// The result message of `analysis` of `record`: the totals and the eval graph, then an embed
/// per key moment with the board before the move (the move played marked), then the count
/// notes. Public.
///
/// # Errors
/// `Internal` if a picture cannot be drawn.
pub(crate) async fn result_answer(
    record: &GameRecord,
    analysis: &GameAnalysis,
    locale: Locale,
) -> Result<Answer, ServiceError> {
    let id = record.game_id.0;
    let (white, black) = (mention(record.white), mention(record.black));
    let graph = {
        let (game, a) = (record.game.clone(), analysis.clone());
        tokio::task::spawn_blocking(move || graph_png(&game, &a))
            .await
            .context("the graph task was lost")
            .and_then(|r| r.context("cannot draw the eval graph"))
            .map_err(ServiceError::Internal)?
    };
    let graph_file = format!("makruk-analysis-{id}.png");
    let title = tr!(
        locale,
        "analysis-title",
        id = id,
        white = white.clone(),
        black = black.clone()
    );
    let totals = totals_text(&analysis.summary, [&white, &black], locale);
    let legend = tr!(locale, "analysis-graph-legend");
    let mut embeds = vec![CreateEmbed::new()
        .description(format!("{title}\n\n{totals}\n\n_{legend}_"))
        .image(format!("attachment://{graph_file}"))
        .footer(CreateEmbedFooter::new(engine_text(analysis, locale)))
        .colour(0x0034_98db)];
    let mut files = vec![CreateAttachment::bytes(graph, graph_file)];
    let moments = &analysis.summary.key_moments;
    if moments.is_empty() {
        embeds.push(
            CreateEmbed::new()
                .title(tr!(locale, "analysis-moments-title"))
                .description(tr!(locale, "analysis-no-moments"))
                .colour(0x0095_a5a6),
        );
    }
    let mut titled = false;
    for m in moments {
        let ply = m.ply as usize;
        let (Some(position), Some(played)) = (
            record.game.positions().get(ply).cloned(),
            record.game.moves().get(ply).copied(),
        ) else {
            continue;
        };
        let options = RenderOptions {
            orientation: m.mover,
            last_move: Some((played.from, played.to)),
            size: MOMENT_BOARD,
            ..RenderOptions::default()
        };
        let png = tokio::task::spawn_blocking(move || render::render_position(&position, &options))
            .await
            .context("the render task was lost")
            .and_then(|r| r.context("cannot render the board"))
            .map_err(ServiceError::Internal)?;
        let file = format!("makruk-analysis-{id}-{}.png", m.ply + 1);
        let mut embed = CreateEmbed::new()
            .description(moment_text(record, m, locale))
            .image(format!("attachment://{file}"))
            .colour(match m.judgement() {
                Some(Judgement::Blunder) => 0x00d1_2b2b,
                Some(Judgement::Mistake) => 0x00e0_7b12,
                _ => 0x00e5_b800,
            });
        if !titled {
            embed = embed.title(tr!(locale, "analysis-moments-title"));
            titled = true;
        }
        embeds.push(embed);
        files.push(CreateAttachment::bytes(png, file));
    }
    let notes = &analysis.summary.notes;
    if !notes.is_empty() {
        let mut text = notes
            .iter()
            .take(MAX_NOTES)
            .map(|n| format!("• {}", note_text(record, n, locale)))
            .collect::<Vec<_>>()
            .join("\n");
        if notes.len() > MAX_NOTES {
            text.push_str("\n• …");
        }
        if text.chars().count() > MAX_NOTES_CHARS {
            text = text.chars().take(MAX_NOTES_CHARS - 1).collect::<String>() + "…";
        }
        embeds.push(
            CreateEmbed::new()
                .title(tr!(locale, "analysis-notes-title"))
                .description(text)
                .colour(0x003d_7cc9),
        );
    }
    Ok(Answer {
        embeds,
        files,
        ..Answer::default()
    })
}

/// Asks for the analysis of `game` of `channel` (`None`: the channel's last game): the result
/// when it is stored, else a waiting text (its place in line, or its progress) and what the
/// waiting message must follow (the claim on the result taken before the runner is nudged).
///
/// # Errors
/// The service's refusals (no such game, a game still being played), `Internal`.
pub(crate) async fn request(
    data: &Data,
    channel: ChannelId,
    game: Option<GameId>,
    locale: Locale,
) -> Result<(Answer, Option<Follow>), ServiceError> {
    let analyses = &data.analyses;
    match data
        .service
        .request_analysis(channel, game, ENGINE, analyses.nodes)
        .await?
    {
        AnalysisStatus::Done(a) => {
            let record = data.service.record(channel, Some(a.game_id)).await?;
            Ok((result_answer(&record, &a, locale).await?, None))
        }
        AnalysisStatus::Queued { game_id, ahead } => {
            let ticket = analyses.wait(game_id);
            analyses.runner.nudge();
            let text = match analyses.runner.progress(game_id) {
                Some(p) => {
                    let p = *p.borrow();
                    running_text(game_id.0, p.searched, p.total, locale)
                }
                None => queued_text(game_id.0, ahead, locale),
            };
            let follow = Follow {
                game: game_id,
                shown: text.clone(),
                channel,
                locale,
                ticket,
            };
            Ok((Answer::public(text), Some(follow)))
        }
    }
}

/// Where a request puts what its waiting message must follow, for the caller to start the
/// follower once the answer is sent.
pub(crate) type FollowSlot = Arc<Mutex<Option<Follow>>>;

/// Starts following `slot`'s analysis (if the answer was a waiting message) in `original`.
pub(crate) fn start_following(
    http: Arc<serenity::Http>,
    data: &Data,
    slot: &FollowSlot,
    original: Original,
) {
    let taken = slot.lock().unwrap_or_else(PoisonError::into_inner).take();
    if let Some(f) = taken {
        follow(
            http,
            original,
            data.service.clone(),
            Arc::clone(&data.analyses),
            Arc::clone(&data.herald),
            f,
        );
    }
}

/// `/analyse [game]`: the computer analysis of a finished game of this channel, in the channel.
#[poise::command(slash_command)]
pub(super) async fn analyse(ctx: Context<'_>, #[min = 1] game: Option<i64>) -> Result<(), Error> {
    let data = ctx.data();
    let channel = channel(ctx);
    let slot = FollowSlot::default();
    let put = Arc::clone(&slot);
    run(ctx, |locales: Locales| async move {
        let (answer, follow) = request(data, channel, game.map(GameId), locales.public).await?;
        *put.lock().unwrap_or_else(PoisonError::into_inner) = follow;
        Ok(answer)
    })
    .await?;
    if let poise::Context::Application(actx) = ctx {
        start_following(
            Arc::clone(&ctx.serenity_context().http),
            data,
            &slot,
            Original::Command(Box::new(actx.interaction.clone())),
        );
    }
    Ok(())
}
