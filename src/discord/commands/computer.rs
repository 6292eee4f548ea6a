//! `/play [level] [color] [rules] [time]`: a game against the computer in this channel (and
//! `/challenge` of the bot's own user, which comes here). The computer's replies are posted by
//! the announcements (`crate::discord::announce`), as their own messages.

use super::options::{color_choice, ColorOption, RulesetOption, TimeOption, VariantOption};
use super::thread;
use super::{channel, run, user};
use crate::discord::answer::Answer;
use crate::discord::i18n::Locales;
use crate::discord::messages::game_answer;
use crate::discord::threads;
use crate::discord::{Context, Error};
use crate::game::{
    ColorChoice, ComputerLevel, GameService, Ladder, Place, Ruleset, ServiceError, Terms, UserId,
    Variant,
};
use crate::tr;

/// The level asked for in `/play`: our engine's 1 to 8, or Fairy-Stockfish (level 9).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub(crate) enum LevelOption {
    #[name = "1"]
    L1,
    #[name = "2"]
    L2,
    #[name = "3"]
    L3,
    #[name = "4"]
    L4,
    #[name = "5"]
    L5,
    #[name = "6"]
    L6,
    #[name = "7"]
    L7,
    #[name = "8"]
    L8,
    #[name = "Fairy-Stockfish"]
    FairyStockfish,
}

impl LevelOption {
    /// The level's number (Fairy-Stockfish: [`ComputerLevel::FAIRY_STOCKFISH`]'s).
    fn level(self) -> u8 {
        match self {
            LevelOption::L1 => 1,
            LevelOption::L2 => 2,
            LevelOption::L3 => 3,
            LevelOption::L4 => 4,
            LevelOption::L5 => 5,
            LevelOption::L6 => 6,
            LevelOption::L7 => 7,
            LevelOption::L8 => 8,
            LevelOption::FairyStockfish => ComputerLevel::FAIRY_STOCKFISH.number(),
        }
    }
}

// The computer runs on the game's clock like a person and can win on time.
// `thread` (default: the server's `/settings thread`) plays it in a thread of its own.
/// Play against the computer in this channel (default level 3, 3 days a move).
#[poise::command(slash_command)]
pub(super) async fn play(
    ctx: Context<'_>,
    level: Option<LevelOption>,
    color: Option<ColorOption>,
    variant: Option<VariantOption>,
    rules: Option<RulesetOption>,
    time: Option<TimeOption>,
    thread: Option<bool>,
) -> Result<(), Error> {
    let level = level.map_or(ComputerLevel::DEFAULT.number(), LevelOption::level);
    let ruleset = rules.map_or(Ruleset::Standard, |r| r.ruleset());
    let variant = super::options::variant(variant);
    start(
        ctx,
        level,
        color_choice(color),
        (variant, ruleset),
        time,
        thread,
    )
    .await
}

/// Starts a game against the computer for the invoking user and answers with its board.
pub(super) async fn start(
    ctx: Context<'_>,
    level: u8,
    color: ColorChoice,
    (variant, ruleset): (Variant, Ruleset),
    time: Option<TimeOption>,
    thread: Option<bool>,
) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let computer = std::sync::Arc::clone(&ctx.data().computer);
    let bot = UserId(ctx.serenity_context().cache.current_user().id.get());
    let (channel, human) = (channel(ctx), user(ctx));
    let thread_asked = thread;
    let thread = super::wants_thread(ctx, thread).await;
    let guild = super::server(ctx);
    let http = std::sync::Arc::clone(&ctx.serenity_context().http);
    let herald = std::sync::Arc::clone(&ctx.data().herald);
    let place = super::Where::of(ctx);
    let human_name = ctx
        .author()
        .global_name
        .clone()
        .unwrap_or_else(|| ctx.author().name.clone());
    run(ctx, |locales: Locales| async move {
        let locale = locales.public;
        let level = ComputerLevel::new(level)?;
        computer.check_level(level)?;
        GameService::check_variant_ruleset(variant, ruleset)?;
        GameService::check_computer_terms(level, ruleset)?;
        let time_control =
            GameService::time_control(time.as_ref().map(poise::ChoiceParameter::name))?;
        let terms = Terms {
            color,
            ruleset,
            variant,
            time_control,
            ladder: Ladder {
                guild,
                rated: false,
            },
            thread: false,
        };
        if thread {
            let name = threads::name(
                locale,
                &human_name,
                &tr!(locale, "discord-thread-computer"),
                variant,
            );
            return thread::start(&http, &herald, (channel, None), &name, locales, |thread| {
                service.play_computer(Place { channel, thread }, human, bot, level, terms)
            })
            .await;
        }
        let reply = service
            .play_computer(channel, human, bot, level, terms)
            .await?;
        let mut answer: Answer = game_answer(&reply, locale).await?;
        answer.content = place.notes(answer.content, false, thread_asked, true, locale);
        Ok::<Answer, ServiceError>(answer)
    })
    .await
}
