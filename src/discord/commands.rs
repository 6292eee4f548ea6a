//! The slash commands. Each one reads Discord's input, asks the game service, and answers with
//! [`Answer`]s built here; all user-facing words come from the service or `discord.ftl`.

use std::future::Future;
use std::time::Instant;

use poise::serenity_prelude as serenity;
use serenity::{ButtonStyle, CreateActionRow, CreateAttachment, CreateButton, CreateEmbed};
use tracing::{error, info, Instrument as _};

use super::i18n::{locale, localizations, mention};
use super::respond::{answer_command, defer_budget, or_apology, split_text, Answer};
use super::{board, Context, Data, Error};
use crate::game::ruleset_name;
use crate::game::{
    ChannelId, ColorChoice, Event, GameId, GameResult, OfferKind, Reply, RulesTopic, Ruleset,
    ServiceError, UserId,
};
use crate::i18n::Locale;
use crate::tr;

/// All commands, with names, descriptions and choices (English + translations) from
/// `discord.ftl`.
pub(crate) fn all() -> Vec<poise::Command<Data, Error>> {
    let mut commands = vec![
        challenge(),
        accept(),
        decline(),
        play(),
        board_cmd(),
        resign(),
        draw(),
        takeback(),
        abort(),
        count(),
        rules(),
        games(),
        pgn(),
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
            choice.localizations = localizations(&format!("choice-{}", choice.name));
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

/// A service error as a private answer: the service's own words for user errors, an apology
/// (and a logged error with context) for internal ones.
pub(crate) fn error_answer(e: &ServiceError, locale: Locale) -> Answer {
    if e.is_user_error() {
        Answer::private(e.message(locale, &mention))
    } else {
        error!(error = %e, "internal error");
        Answer::private(tr!(locale, "discord-internal-error"))
    }
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

fn channel(ctx: Context<'_>) -> ChannelId {
    ChannelId(ctx.channel_id().get())
}

fn user(ctx: Context<'_>) -> UserId {
    UserId(ctx.author().id.get())
}

/// A button with a custom id `mk:<action>:<id>` (read back by `components`).
pub(crate) fn button(
    locale: Locale,
    label_key: &str,
    action: &str,
    id: i64,
    style: ButtonStyle,
) -> CreateButton {
    CreateButton::new(format!("mk:{action}:{id}"))
        .label(tr!(locale, label_key))
        .style(style)
}

/// The answer to a request that changed or showed a game: the board from the side to move
/// (rendered off the runtime) with the status, and who is to move pinged while the game runs.
pub(crate) async fn game_answer(reply: &Reply, locale: Locale) -> Result<Answer, ServiceError> {
    let png = board::png(reply).await.map_err(ServiceError::Internal)?;
    let file = format!("makruk-{}-{}.png", reply.game_id.0, reply.status.plies);
    let title = tr!(
        locale,
        "discord-game-title",
        id = reply.game_id.0,
        white = mention(reply.white),
        black = mention(reply.black),
        ruleset = ruleset_name(locale, reply.ruleset)
    );
    let text = reply.text(locale, &mention);
    let mut embed = CreateEmbed::new()
        .description(format!("{title}\n\n{text}"))
        .image(format!("attachment://{file}"));
    embed = match reply.status.end {
        Some(end) => embed.colour(match end.result {
            GameResult::Draw | GameResult::Aborted => 0x0095_a5a6,
            _ => 0x00f1_c40f,
        }),
        None if reply.status.check => embed.colour(0x00e7_4c3c),
        None => embed.colour(0x002e_cc71),
    };
    let content = match reply.status.end {
        None => tr!(
            locale,
            "discord-your-move",
            user = mention(reply.status.to_move)
        ),
        Some(_) => tr!(
            locale,
            "discord-game-over-ping",
            white = mention(reply.white),
            black = mention(reply.black)
        ),
    };
    Ok(Answer {
        content,
        embeds: vec![embed],
        files: vec![CreateAttachment::bytes(png, file)],
        ..Answer::default()
    })
}

/// Colour asked for in `/challenge`.
#[derive(Debug, poise::ChoiceParameter)]
pub(crate) enum ColorOption {
    #[name = "white"]
    White,
    #[name = "black"]
    Black,
    #[name = "random"]
    Random,
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
    fn ruleset(&self) -> Ruleset {
        match self {
            RulesetOption::Standard => Ruleset::Standard,
            RulesetOption::Traditional => Ruleset::Traditional,
            RulesetOption::Material => Ruleset::Material,
            RulesetOption::FiftyMove => Ruleset::FiftyMove,
        }
    }
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
}

/// What `/count` does.
#[derive(Debug, poise::ChoiceParameter)]
pub(crate) enum CountAction {
    #[name = "explain"]
    Explain,
    #[name = "start"]
    Start,
    #[name = "stop"]
    Stop,
}

/// `/challenge opponent [color] [rules]`: a challenge message with Accept / Decline buttons.
#[poise::command(slash_command, guild_only)]
async fn challenge(
    ctx: Context<'_>,
    opponent: serenity::User,
    color: Option<ColorOption>,
    rules: Option<RulesetOption>,
) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let color = match color {
        Some(ColorOption::White) => ColorChoice::White,
        Some(ColorOption::Black) => ColorChoice::Black,
        Some(ColorOption::Random) | None => ColorChoice::Random,
    };
    let ruleset = rules.map_or(Ruleset::Standard, |r| r.ruleset());
    let (channel, challenger) = (channel(ctx), user(ctx));
    run(ctx, "challenge", |locale| async move {
        let view = service
            .challenge(
                channel,
                challenger,
                UserId(opponent.id.get()),
                opponent.bot,
                color,
                ruleset,
            )
            .await?;
        let id = view.id.0;
        Ok(Answer {
            content: view.text(locale, &mention),
            components: vec![CreateActionRow::Buttons(vec![
                button(locale, "button-accept", "accept", id, ButtonStyle::Success),
                button(locale, "button-decline", "decline", id, ButtonStyle::Danger),
                button(
                    locale,
                    "button-withdraw",
                    "withdraw",
                    id,
                    ButtonStyle::Secondary,
                ),
            ])],
            ..Answer::default()
        })
    })
    .await
}

/// `/accept`: accept the challenge addressed to you in this channel (as its button does).
#[poise::command(slash_command, guild_only)]
async fn accept(ctx: Context<'_>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let (channel, player) = (channel(ctx), user(ctx));
    run(ctx, "accept", |locale| async move {
        let reply = service.accept(channel, player, None).await?;
        game_answer(&reply, locale).await
    })
    .await
}

/// `/decline`: decline the challenge addressed to you in this channel (as its button does).
#[poise::command(slash_command, guild_only)]
async fn decline(ctx: Context<'_>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let (channel, player) = (channel(ctx), user(ctx));
    run(ctx, "decline", |locale| async move {
        let view = service.decline(channel, player, None).await?;
        Ok(Answer::public(view.text(locale, &mention)))
    })
    .await
}

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
    moves.into_iter().take(25).collect()
}

/// `/move move`: play a move (SAN, PlayOK, Thai or UCI).
#[poise::command(slash_command, rename = "move")]
async fn play(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_move"]
    #[rename = "move"]
    #[max_length = 64]
    input: String,
) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let (channel, player) = (channel(ctx), user(ctx));
    run(ctx, "move", |locale| async move {
        let reply = service.play(channel, player, &input).await?;
        game_answer(&reply, locale).await
    })
    .await
}

/// `/board`: the channel's game as it stands.
#[poise::command(slash_command, rename = "board")]
async fn board_cmd(ctx: Context<'_>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let channel = channel(ctx);
    run(ctx, "board", |locale| async move {
        let reply = service.board(channel).await?;
        game_answer(&reply, locale).await
    })
    .await
}

/// `/resign`.
#[poise::command(slash_command)]
async fn resign(ctx: Context<'_>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let (channel, player) = (channel(ctx), user(ctx));
    run(ctx, "resign", |locale| async move {
        let reply = service.resign(channel, player).await?;
        game_answer(&reply, locale).await
    })
    .await
}

/// The offer message of `/draw` or `/takeback`, with the opponent's Accept / Decline buttons.
fn offer_message(reply: &Reply, locale: Locale, kind: OfferKind) -> Answer {
    let id = reply.game_id.0;
    let kind = kind.name();
    Answer {
        content: reply.text(locale, &mention),
        components: vec![CreateActionRow::Buttons(vec![
            button(
                locale,
                "button-accept",
                &format!("{kind}-accept"),
                id,
                ButtonStyle::Success,
            ),
            button(
                locale,
                "button-decline",
                &format!("{kind}-decline"),
                id,
                ButtonStyle::Danger,
            ),
        ])],
        ..Answer::default()
    }
}

/// What `/draw` and `/takeback` do: make an offer, or answer the opponent's.
#[derive(Debug, Clone, Copy)]
enum OfferStep {
    Make,
    Accept,
    Decline,
}

/// `/draw` and `/takeback`: one code path for both kinds of offer.
async fn offer_command(ctx: Context<'_>, kind: OfferKind, step: OfferStep) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let (channel, player) = (channel(ctx), user(ctx));
    run(ctx, kind.name(), |locale| async move {
        let reply = match step {
            OfferStep::Make => service.offer(channel, player, kind).await?,
            OfferStep::Accept => service.accept_offer(channel, player, kind).await?,
            OfferStep::Decline => service.decline_offer(channel, player, kind).await?,
        };
        match reply.event {
            Event::Offered(kind) => Ok(offer_message(&reply, locale, kind)),
            Event::OfferDeclined(_) => Ok(Answer::public(reply.text(locale, &mention))),
            _ => game_answer(&reply, locale).await,
        }
    })
    .await
}

/// What `/draw` does.
#[derive(Debug, poise::ChoiceParameter)]
pub(crate) enum DrawAction {
    #[name = "offer"]
    Offer,
    #[name = "accept"]
    Accept,
    #[name = "decline"]
    Decline,
}

/// `/draw [action]`: offer a draw, or answer the opponent's offer (as the buttons do).
#[poise::command(slash_command)]
async fn draw(ctx: Context<'_>, action: Option<DrawAction>) -> Result<(), Error> {
    let step = match action.unwrap_or(DrawAction::Offer) {
        DrawAction::Offer => OfferStep::Make,
        DrawAction::Accept => OfferStep::Accept,
        DrawAction::Decline => OfferStep::Decline,
    };
    offer_command(ctx, OfferKind::Draw, step).await
}

/// What `/takeback` does.
#[derive(Debug, poise::ChoiceParameter)]
pub(crate) enum TakebackAction {
    #[name = "request"]
    Request,
    #[name = "accept"]
    Accept,
    #[name = "decline"]
    Decline,
}

/// `/takeback [action]`: ask to take back your last move, or answer the opponent.
#[poise::command(slash_command)]
async fn takeback(ctx: Context<'_>, action: Option<TakebackAction>) -> Result<(), Error> {
    let step = match action.unwrap_or(TakebackAction::Request) {
        TakebackAction::Request => OfferStep::Make,
        TakebackAction::Accept => OfferStep::Accept,
        TakebackAction::Decline => OfferStep::Decline,
    };
    offer_command(ctx, OfferKind::Takeback, step).await
}

/// `/abort`: end the game without result before both sides have moved.
#[poise::command(slash_command)]
async fn abort(ctx: Context<'_>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let (channel, player) = (channel(ctx), user(ctx));
    run(ctx, "abort", |locale| async move {
        let reply = service.abort(channel, player).await?;
        game_answer(&reply, locale).await
    })
    .await
}

/// `/count [action]`: explain the count; `traditional`: start or stop board's honour.
#[poise::command(slash_command)]
async fn count(ctx: Context<'_>, action: Option<CountAction>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let (channel, player) = (channel(ctx), user(ctx));
    run(ctx, "count", |locale| async move {
        match action.unwrap_or(CountAction::Explain) {
            CountAction::Explain => {
                let text = service.explain_count(channel, locale).await?;
                Ok(Answer::public(text))
            }
            CountAction::Start => {
                let reply = service.count_start(channel, player).await?;
                game_answer(&reply, locale).await
            }
            CountAction::Stop => {
                let reply = service.count_stop(channel, player).await?;
                game_answer(&reply, locale).await
            }
        }
    })
    .await
}

/// `/rules [topic] [ruleset]`: the rules, explained (only to the asker).
#[poise::command(slash_command)]
async fn rules(
    ctx: Context<'_>,
    topic: Option<TopicOption>,
    ruleset: Option<RulesetOption>,
) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    run(ctx, "rules", |locale| async move {
        let topic = match topic.unwrap_or(TopicOption::Overview) {
            TopicOption::Overview => RulesTopic::Overview,
            TopicOption::Pieces => RulesTopic::Pieces,
            TopicOption::Promotion => RulesTopic::Promotion,
            TopicOption::Counting => RulesTopic::Counting,
            TopicOption::Draws => RulesTopic::Draws,
        };
        let ruleset = ruleset.map_or(Ruleset::Standard, |r| r.ruleset());
        let text = service.rules_text(ruleset, topic, locale);
        let title = tr!(
            locale,
            "discord-rules-title",
            topic = tr!(locale, &format!("choice-{}", topic.name())),
            ruleset = ruleset_name(locale, ruleset)
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
async fn games(ctx: Context<'_>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let channel = channel(ctx);
    run(ctx, "games", |locale| async move {
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
                    ruleset = ruleset_name(locale, g.ruleset),
                    plies = g.plies,
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
async fn pgn(ctx: Context<'_>, #[min = 1] game: Option<i64>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let channel = channel(ctx);
    run(ctx, "pgn", |locale| async move {
        let export = service.pgn(channel, game.map(GameId)).await?;
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
