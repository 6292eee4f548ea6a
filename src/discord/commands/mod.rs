//! The slash commands, one module per group: `challenge` (/challenge, /accept, /decline),
//! `computer` (/play), `play` (/move, /resign, /abort), `offers` (/draw, /takeback), `count`
//! (/count), `info` (/board, /rules), `history` (/games, /pgn), `leaderboard` (/leaderboard),
//! `stats` (/stats), `replay` (/replay, /gif), `analyse` (/analyse), `puzzle` (/puzzle, /solve), `settings` (/settings), `tournament` (/tournament and its subcommands); the options several
//! commands share are in `options`, a game started in its own thread in `thread`. Each command
//! reads Discord's input and hands [`run`] the work: ask the game service, build an [`Answer`]
//! (shared builders in `super::messages`); all user-facing words come from the service or
//! `discord.ftl`. [`all`] lists every command.

pub(crate) mod analyse;
mod challenge;
mod computer;
mod count;
mod history;
mod info;
pub(crate) mod leaderboard;
mod offers;
mod options;
mod play;
pub(crate) mod puzzle;
pub(crate) mod replay;
mod settings;
mod stats;
pub(crate) mod thread;
mod tournament;

use std::future::Future;

use poise::serenity_prelude as serenity;
use tracing::{error, info, warn};

use super::answer::Answer;
use super::i18n::{locale, localizations, Locales};
use super::respond::{self, Interaction};
use super::{Context, Data, Error};
use crate::game::{ChannelId, ServiceError, UserId};
use crate::i18n::Locale;
use crate::tr;

/// All commands, with names, descriptions and choices (English + translations) from
/// `discord.ftl`.
pub(crate) fn all() -> Vec<poise::Command<Data, Error>> {
    let mut commands = vec![
        challenge::challenge(),
        challenge::accept(),
        challenge::decline(),
        computer::play(),
        play::play_command(),
        info::board(),
        play::resign(),
        offers::draw(),
        offers::takeback(),
        play::abort(),
        count::count(),
        info::rules(),
        history::games(),
        history::pgn(),
        leaderboard::leaderboard(),
        stats::stats(),
        replay::replay(),
        replay::gif(),
        analyse::analyse(),
        puzzle::puzzle(),
        puzzle::solve_command(),
        settings::settings(),
        tournament::tournament(),
    ];
    for command in &mut commands {
        localize(command);
        place(command);
    }
    commands
}

/// The commands that work outside a server too: in a DM or group DM (the app installed to a
/// user's account, issue 22) and in the bot's own DM. The others are about a server (its
/// ratings, leaderboard and settings) and stay there.
const EVERYWHERE: &[&str] = &[
    "challenge",
    "accept",
    "decline",
    "play",
    "move",
    "board",
    "resign",
    "draw",
    "takeback",
    "abort",
    "count",
    "rules",
    "games",
    "pgn",
    "replay",
    "gif",
    "analyse",
    "puzzle",
    "solve",
];

/// Registers where `command` may be used (Discord's `integration_types` and `contexts`): those
/// of [`EVERYWHERE`] for both installations (a server's, a user's) in every context (server,
/// bot DM, other DMs and group DMs); the rest only where a server added the bot, in its
/// channels (poise's `guild_only`: reached elsewhere, its check answers `discord-guild-only`).
fn place(command: &mut poise::Command<Data, Error>) {
    use serenity::{InstallationContext as Install, InteractionContext as Where};
    if EVERYWHERE.contains(&command.name.as_str()) {
        command.guild_only = false;
        command.install_context = Some(vec![Install::Guild, Install::User]);
        command.interaction_context = Some(vec![Where::Guild, Where::BotDm, Where::PrivateChannel]);
    } else {
        command.guild_only = true;
        command.install_context = Some(vec![Install::Guild]);
        command.interaction_context = Some(vec![Where::Guild]);
    }
}

fn localize(command: &mut poise::Command<Data, Error>) {
    localize_as(command, &format!("cmd-{}", command.name));
}

/// [`localize`] with the text key `key` (`cmd-tournament-create` for a subcommand).
fn localize_as(command: &mut poise::Command<Data, Error>, key: &str) {
    let key = key.to_owned();
    for sub in &mut command.subcommands {
        let sub_key = format!("{key}-{}", sub.name);
        localize_as(sub, &sub_key);
    }
    command.description = Some(tr!(Locale::En, &format!("{key}-description")));
    command.name_localizations = localizations(&key);
    command.description_localizations = localizations(&format!("{key}-description"));
    for p in &mut command.parameters {
        let pkey = format!("{key}-{}", p.name);
        p.description = Some(tr!(Locale::En, &format!("{pkey}-description")));
        p.name_localizations = localizations(&pkey);
        p.description_localizations = localizations(&format!("{pkey}-description"));
        for choice in &mut p.choices {
            choice.localizations = localizations(&crate::i18n::choice_id(&choice.name));
        }
    }
}

/// The locale of the user who invoked `ctx`.
pub(crate) fn locale_of(ctx: Context<'_>) -> Locale {
    locale(ctx.locale().unwrap_or("en-US"))
}

/// Runs one command through the adapter's one way in ([`respond::run`]): `work` is given the
/// interaction's [`Locales`] and its answer (or the service's refusal) is sent in time.
async fn run<F, Fut>(ctx: Context<'_>, work: F) -> Result<(), Error>
where
    F: FnOnce(Locales) -> Fut,
    Fut: Future<Output = Result<Answer, ServiceError>>,
{
    // Our commands are slash commands only: poise's prefix commands are not registered.
    if let poise::Context::Application(actx) = ctx {
        let http = &ctx.serenity_context().http;
        respond::run(
            http,
            ctx.data(),
            Interaction::Command(actx.interaction),
            work,
        )
        .await;
    }
    Ok(())
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
        // Options that do not fit the registered command: a wrong type, a missing required
        // option, a choice out of range (a stale or forged interaction). The user's input, not
        // our fault.
        poise::FrameworkError::CommandStructureMismatch {
            description, ctx, ..
        } => {
            info!(command = %ctx.command.name, "options do not fit the command: {description}");
            if ctx.interaction_type == poise::CommandInteractionType::Command {
                let text = tr!(locale_of(ctx.into()), "discord-bad-argument");
                send_private(ctx.into(), text).await;
            }
        }
        poise::FrameworkError::UnknownInteraction {
            ctx, interaction, ..
        } => {
            warn!(command = %interaction.data.name, "unknown command");
            answer_unknown_command(ctx, interaction).await;
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

/// Answers a command (or its autocomplete) that is not registered: privately "I do not know
/// that command" (no suggestions for an autocomplete).
async fn answer_unknown_command(
    ctx: &serenity::Context,
    interaction: &serenity::CommandInteraction,
) {
    let response = if interaction.data.autocomplete().is_some() {
        serenity::CreateInteractionResponse::Autocomplete(
            serenity::CreateAutocompleteResponse::new(),
        )
    } else {
        let text = tr!(locale(&interaction.locale), "discord-unknown-command");
        serenity::CreateInteractionResponse::Message(
            serenity::CreateInteractionResponseMessage::new()
                .content(text)
                .ephemeral(true),
        )
    };
    if let Err(e) = interaction.create_response(&ctx.http, response).await {
        error!("cannot answer an unknown command: {e}");
    }
}

async fn send_private(ctx: Context<'_>, text: String) {
    let reply = poise::CreateReply::default().content(text).ephemeral(true);
    if let Err(e) = ctx.send(reply).await {
        error!("cannot send an error message: {e}");
    }
}

/// Whether a new game of `ctx` is to be played in a thread: the `thread` option, else the
/// server's default (`/settings thread`; none outside a server).
/// Outside a server, or where the bot is not a member (it cannot open a thread there), never.
pub(super) async fn wants_thread(ctx: Context<'_>, thread: Option<bool>) -> bool {
    let Some(guild) = ctx.guild_id().filter(|_| !answer_only(ctx)) else {
        return false;
    };
    if let Some(t) = thread {
        return t;
    }
    match ctx
        .data()
        .service
        .guild_settings(crate::game::GuildId(guild.get()))
        .await
    {
        Ok(s) => s.thread_default,
        Err(e) => {
            warn!(error = %e, "cannot read the server's settings");
            false
        }
    }
}

/// Whether `ctx` comes from a channel the bot may only answer in (a DM of users who installed
/// the app to their account; see `super::super::reach`).
pub(super) fn answer_only(ctx: Context<'_>) -> bool {
    match ctx {
        poise::Context::Application(a) => Interaction::Command(a.interaction).answer_only(),
        poise::Context::Prefix(_) => false,
    }
}

/// Where a command was used, as a new game's (or challenge's) message tells it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Where {
    /// Not in a server: the game is unrated.
    outside_server: bool,
    /// In a channel the bot may only answer in.
    answer_only: bool,
}

impl Where {
    /// Where `ctx` was used.
    pub(super) fn of(ctx: Context<'_>) -> Where {
        Where {
            outside_server: server(ctx).is_none(),
            answer_only: answer_only(ctx),
        }
    }

    /// `text`, then what it says about the place, each on a line of its own in `locale`: a
    /// game outside a server is unrated (when `rated`: it would be rated on a server) and has
    /// no thread (when `thread` was asked for); in a channel the bot may only answer in, a flag
    /// that falls while nobody types is shown with the next command there, and against the
    /// `computer` its replies come at once.
    pub(super) fn notes(
        self,
        mut text: String,
        rated: bool,
        thread: Option<bool>,
        computer: bool,
        locale: Locale,
    ) -> String {
        let mut note = |key: &str| {
            text.push('\n');
            text.push_str(&tr!(locale, key));
        };
        if rated && self.outside_server {
            note("discord-unrated-here");
        }
        if thread == Some(true) && (self.outside_server || self.answer_only) {
            note("discord-no-thread-here");
        }
        if self.answer_only {
            note(if computer {
                "discord-answers-only-computer"
            } else {
                "discord-answers-only"
            });
        }
        text
    }
}

/// The server `ctx` was used in, if it added the bot: ratings, leaderboards and settings are
/// its. A server where only users installed the app (the bot is not in it) counts as none.
pub(super) fn server(ctx: Context<'_>) -> Option<crate::game::GuildId> {
    ctx.guild_id()
        .filter(|_| !answer_only(ctx))
        .map(|g| crate::game::GuildId(g.get()))
}

/// Whether `ctx` comes from the user's DM with the bot itself (nobody else is there).
pub(super) fn in_bot_dm(ctx: Context<'_>) -> bool {
    match ctx {
        poise::Context::Application(a) => {
            a.interaction.context == Some(serenity::InteractionContext::BotDm)
        }
        poise::Context::Prefix(_) => false,
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

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::i18n::FTL_FILES;

    /// A command named in a text: `/name` and the `option:value` words written after it
    /// (`` `/draw action:accept` `` → `draw`, `[("action", "accept")]`).
    #[derive(Debug, PartialEq)]
    struct Named {
        name: String,
        options: Vec<(String, String)>,
    }

    /// The commands named in the messages of `text` (comment lines skipped): a `/` that starts a
    /// word (after a space, `` ` ``, `(`, `“` or `"`), then the name up to a space or ASCII
    /// punctuation (Thai names hold combining marks), then `option:value` words up to the closing
    /// backtick when the command is quoted.
    fn named_commands(text: &str) -> Vec<Named> {
        let word =
            |c: char| !c.is_whitespace() && (!c.is_ascii_punctuation() || matches!(c, '-' | '_'));
        let mut names = Vec::new();
        for line in text.lines().filter(|l| !l.trim_start().starts_with('#')) {
            let mut prev = ' ';
            for (i, c) in line.char_indices() {
                if c == '/' && (prev.is_whitespace() || matches!(prev, '`' | '(' | '“' | '"')) {
                    let rest = &line[i + 1..];
                    let name: String = rest.chars().take_while(|&c| word(c)).collect();
                    let mut options = Vec::new();
                    if prev == '`' {
                        let quoted = rest.split('`').next().unwrap_or_default();
                        for w in quoted.split_whitespace().skip(1) {
                            if let Some((o, v)) = w.split_once(':') {
                                options.push((o.to_string(), v.to_string()));
                            }
                        }
                    }
                    if !name.is_empty() {
                        names.push(Named { name, options });
                    }
                }
                prev = c;
            }
        }
        names
    }

    /// Every command a text names exists, with the options and choices written after it. A Thai
    /// text names commands, options and choices only as a Thai client shows them (Discord shows a
    /// user only the names of their own language): never an English name that has a Thai one.
    #[test]
    fn every_command_named_in_a_text_is_registered() {
        let commands = all();
        let local = |lang: &str, english: &str, names: &HashMap<String, String>| {
            if *lang == *"en" {
                english.to_string()
            } else {
                names
                    .get(lang)
                    .cloned()
                    .unwrap_or_else(|| english.to_string())
            }
        };
        let mut seen = 0;
        for (lang, path, text) in FTL_FILES {
            for named in named_commands(text) {
                let command = commands
                    .iter()
                    .find(|c| local(lang, &c.name, &c.name_localizations) == named.name)
                    .unwrap_or_else(|| {
                        panic!("{path} names /{}: no such command in {lang}", named.name)
                    });
                for (option, value) in &named.options {
                    let parameter = command
                        .parameters
                        .iter()
                        .find(|p| local(lang, &p.name, &p.name_localizations) == *option)
                        .unwrap_or_else(|| {
                            panic!("{path}: /{} has no option {option} in {lang}", named.name)
                        });
                    assert!(
                        value.is_empty()
                            || parameter.choices.is_empty()
                            || parameter.choices.iter().any(|c| local(
                                lang,
                                &c.name,
                                &c.localizations
                            ) == *value),
                        "{path}: /{} {option}: has no choice {value} in {lang}",
                        named.name
                    );
                }
                seen += 1;
            }
        }
        assert!(seen > 20, "the scan found only {seen} command names");
    }

    /// The `/move` option allows exactly as many characters as the service reads.
    #[test]
    fn the_move_option_has_the_services_limit() {
        let command = all().into_iter().find(|c| c.name == "move").expect("/move");
        let json =
            serde_json::to_value(command.create_as_slash_command().expect("slash")).expect("json");
        let option = &json["options"][0];
        assert_eq!(option["name"], "move");
        assert_eq!(option["max_length"], crate::game::MAX_INPUT_LEN);
        assert_eq!(option["autocomplete"], true);
        assert_eq!(option["required"], true);
    }

    #[test]
    fn command_names_are_read_from_texts() {
        let named =
            named_commands("a = Use `/draw action:accept` or /games.\n# /not-me\n  (/ท้าเล่น)");
        let names: Vec<&str> = named.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, ["draw", "games", "ท้าเล่น"]);
        assert_eq!(
            named[0].options,
            [("action".to_string(), "accept".to_string())]
        );
        assert!(named[1].options.is_empty());
        assert!(named_commands("https://example.org/x and 1/2").is_empty());
    }
}
