//! `/puzzle [theme]` and `/solve move` (issue 24), the puzzle buttons (Hint, Solution, Next,
//! 👍 / 👎: `components`), and the daily puzzle's message (posted by `super::super::daily`).
//!
//! A puzzle is private: its board, the answers and the solution are seen only by its solver.
//! The daily puzzle is posted publicly, in the server's language; anyone answers it with
//! `/solve` in its channel, privately, and its message counts who solved it.

use std::time::Instant;

use anyhow::Context as _;
use poise::serenity_prelude as serenity;
use serenity::{ButtonStyle, CreateActionRow, CreateAttachment, CreateEmbed, CreateEmbedFooter};

use super::{channel, locale_of, run, server, user};
use crate::discord::answer::Answer;
use crate::discord::buttons::ButtonId;
use crate::discord::i18n::{mention, Locales};
use crate::discord::{Context, Data, Error};
use crate::game::{
    Color, DailyPost, DailyProgress, Move, Position, PuzzleEnd, PuzzleView, ServiceError,
    SolveOutcome, MAX_INPUT_LEN, MAX_SUGGESTIONS,
};
use crate::i18n::Locale;
use crate::render::{self, RenderOptions};
use crate::tr;

/// A theme `/puzzle` offers (keys of `crate::puzzles::THEMES`).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub(crate) enum ThemeOption {
    #[name = "mate"]
    Mate,
    #[name = "mate-in-1"]
    MateIn1,
    #[name = "mate-in-2"]
    MateIn2,
    #[name = "mate-in-3"]
    MateIn3,
    #[name = "win-material"]
    WinMaterial,
    #[name = "counting"]
    Counting,
    #[name = "defend"]
    Defend,
}

impl ThemeOption {
    fn key(self) -> &'static str {
        match self {
            ThemeOption::Mate => "mate",
            ThemeOption::MateIn1 => "mateIn1",
            ThemeOption::MateIn2 => "mateIn2",
            ThemeOption::MateIn3 => "mateIn3",
            ThemeOption::WinMaterial => "winMaterial",
            ThemeOption::Counting => "counting",
            ThemeOption::Defend => "defend",
        }
    }
}

/// `/puzzle [theme]`: a puzzle near your puzzle rating, privately.
#[poise::command(slash_command)]
pub(super) async fn puzzle(ctx: Context<'_>, theme: Option<ThemeOption>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let (channel, player, guild) = (channel(ctx), user(ctx), server(ctx));
    run(ctx, |locales: Locales| async move {
        let view = service
            .start_puzzle(player, channel, guild, theme.map(ThemeOption::key))
            .await?;
        puzzle_answer(&view, None, locales.user).await
    })
    .await
}

/// Autocomplete of `/solve`: the legal moves of your puzzle here (or of the channel's daily
/// puzzle), as `/move`'s.
async fn autocomplete_solve(ctx: Context<'_>, partial: &str) -> Vec<serenity::AutocompleteChoice> {
    let started = Instant::now();
    let thai = locale_of(ctx) == Locale::Th || !partial.trim().is_ascii();
    let moves: Vec<serenity::AutocompleteChoice> = ctx
        .data()
        .service
        .puzzle_move_choices(user(ctx), channel(ctx), partial)
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
        .take(MAX_SUGGESTIONS)
        .collect();
    tracing::debug!(
        latency_ms = started.elapsed().as_secs_f64() * 1000.0,
        count = moves.len(),
        "puzzle autocomplete"
    );
    moves
}

/// `/solve`, its option as long as the service reads ([`MAX_INPUT_LEN`]).
pub(super) fn solve_command() -> poise::Command<Data, Error> {
    let mut command = solve();
    for p in &mut command.parameters {
        p.type_setter = Some(|o| {
            o.kind(serenity::CommandOptionType::String)
                .max_length(u16::try_from(MAX_INPUT_LEN).unwrap_or(u16::MAX))
        });
    }
    command
}

/// `/solve move`: answer your puzzle (or the channel's daily puzzle), privately.
#[poise::command(slash_command)]
pub(super) async fn solve(
    ctx: Context<'_>,
    #[rename = "move"]
    #[autocomplete = "autocomplete_solve"]
    text: String,
) -> Result<(), Error> {
    let data_http = ctx.serenity_context().http.clone();
    let service = ctx.data().service.clone();
    let (channel, player) = (channel(ctx), user(ctx));
    run(ctx, |locales: Locales| async move {
        let locale = locales.user;
        match service.solve_puzzle(player, channel, &text).await? {
            SolveOutcome::Continue { played, view } => {
                puzzle_answer(&view, Some(&played), locale).await
            }
            SolveOutcome::Done(end) => {
                if let Some(progress) = &end.daily {
                    update_daily(&data_http, &service, progress).await;
                }
                end_answer(&end, locale).await
            }
        }
    })
    .await
}

/// The board of `position` from `solver`'s side, `last` highlighted, as PNG (off the runtime).
pub(crate) async fn board_png(
    position: &Position,
    solver: Color,
    last: Option<Move>,
) -> Result<Vec<u8>, ServiceError> {
    let position = position.clone();
    let options = RenderOptions {
        orientation: solver,
        last_move: last.map(|m| (m.from, m.to)),
        check: position
            .is_check()
            .then(|| position.board().khun_of(position.turn()))
            .flatten(),
        ..RenderOptions::default()
    };
    tokio::task::spawn_blocking(move || render::render_position(&position, &options))
        .await
        .context("the render task was lost")
        .and_then(|r| r.context("cannot render the board"))
        .map_err(ServiceError::Internal)
}

/// The count running in `position`, if any: who counts, how far, the limit.
fn count_line(position: &Position, locale: Locale) -> Option<String> {
    let c = makruk::count_info(position)?;
    Some(tr!(
        locale,
        "puzzle-count",
        side = tr!(locale, side_key(c.counting)),
        current = i64::from(c.current),
        limit = i64::from(c.limit),
    ))
}

fn side_key(c: Color) -> &'static str {
    match c {
        Color::White => "puzzle-white",
        Color::Black => "puzzle-black",
    }
}

/// The puzzle to answer (new, or after a right move `played`): board, who is to move, the
/// opponent's reply, the ratings; Hint and Solution.
pub(crate) async fn puzzle_answer(
    view: &PuzzleView,
    played: Option<&(String, String)>,
    locale: Locale,
) -> Result<Answer, ServiceError> {
    let png = board_png(&view.position, view.solver, view.last_move).await?;
    let file = format!("puzzle-{}-{}.png", view.puzzle_id, view.moves_left);
    let mut lines = Vec::new();
    if let Some((before, after)) = view.left {
        lines.push(tr!(locale, "puzzle-left", before = before, after = after));
    }
    if let Some((player, at)) = view.origin {
        lines.push(tr!(
            locale,
            "puzzle-from-game",
            user = mention(player),
            date = format!("<t:{at}:D>")
        ));
    }
    if let (Some(played), Some(reply)) = (played, &view.last_san) {
        lines.push(tr!(
            locale,
            "puzzle-right",
            played = shown(played, locale),
            reply = shown(reply, locale)
        ));
    }
    lines.push(tr!(
        locale,
        "puzzle-to-move",
        side = tr!(locale, side_key(view.solver)),
        left = view.moves_left as i64
    ));
    if let Some(themes) = &view.themes {
        let names: Vec<String> = themes
            .iter()
            .map(|t| tr!(locale, &format!("puzzle-theme-{t}")))
            .collect();
        lines.push(tr!(locale, "puzzle-themes", themes = names.join(", ")));
    }
    if let Some(line) = count_line(&view.position, locale) {
        lines.push(line);
    }
    lines.push(tr!(locale, "puzzle-how"));
    if view.repeat {
        lines.push(tr!(locale, "puzzle-repeat"));
    } else if !view.rated {
        lines.push(tr!(locale, "puzzle-unrated"));
    }
    let title = match &view.daily {
        Some((_, day)) => tr!(locale, "puzzle-daily-title", day = day.clone()),
        None => tr!(
            locale,
            "puzzle-title",
            id = view.puzzle_id.clone(),
            rating = view.puzzle_rating
        ),
    };
    let (rating, provisional) = view.player_rating;
    let footer = if provisional {
        tr!(locale, "puzzle-your-rating-provisional", rating = rating)
    } else {
        tr!(locale, "puzzle-your-rating", rating = rating)
    };
    let embed = CreateEmbed::new()
        .title(title)
        .description(lines.join("\n"))
        .image(format!("attachment://{file}"))
        .footer(CreateEmbedFooter::new(footer))
        .colour(0x0034_98db);
    let buttons = CreateActionRow::Buttons(vec![
        ButtonId::PuzzleHint(view.attempt).button(
            locale,
            "puzzle-button-hint",
            ButtonStyle::Secondary,
        ),
        ButtonId::PuzzleSolution(view.attempt).button(
            locale,
            "puzzle-button-solution",
            ButtonStyle::Secondary,
        ),
    ]);
    Ok(Answer {
        embeds: vec![embed],
        files: vec![CreateAttachment::bytes(png, file)],
        components: vec![buttons],
        ephemeral: true,
        ..Answer::default()
    })
}

/// A puzzle solved or failed: what was played, the solution line, the rating change and
/// streaks, the final board; Next and the votes.
pub(crate) async fn end_answer(end: &PuzzleEnd, locale: Locale) -> Result<Answer, ServiceError> {
    let png = board_png(&end.end, end.start.turn(), end.last_move).await?;
    let file = format!("puzzle-{}-end.png", end.puzzle_id);
    let mut lines = Vec::new();
    lines.push(match (&end.played, end.solved) {
        (Some(played), true) => tr!(locale, "puzzle-solved", played = shown(played, locale)),
        (Some(played), false) => tr!(locale, "puzzle-wrong", played = shown(played, locale)),
        (None, _) => tr!(locale, "puzzle-revealed"),
    });
    lines.push(tr!(
        locale,
        "puzzle-solution",
        line = numbered(
            &end.start,
            &end.solution
                .iter()
                .map(|m| shown(m, locale))
                .collect::<Vec<_>>()
        )
    ));
    match end.rating {
        Some((before, after)) => lines.push(tr!(
            locale,
            "puzzle-rating-change",
            before = before,
            after = after,
            change = format!("{:+}", after - before)
        )),
        None if end.hinted => lines.push(tr!(locale, "puzzle-rating-unchanged-hint")),
        None => lines.push(tr!(locale, "puzzle-rating-unchanged")),
    }
    if end.solved && end.rating.is_some() && end.streak > 0 {
        lines.push(tr!(locale, "puzzle-streak", streak = end.streak));
    }
    if let Some(d) = &end.daily {
        if d.streak > 0 {
            lines.push(tr!(locale, "puzzle-daily-streak", streak = d.streak));
        }
    }
    lines.push(tr!(locale, "puzzle-vote"));
    let embed = CreateEmbed::new()
        .title(tr!(
            locale,
            "puzzle-title-plain",
            id = end.puzzle_id.clone()
        ))
        .description(lines.join("\n"))
        .image(format!("attachment://{file}"))
        .footer(CreateEmbedFooter::new(tr!(
            locale,
            "puzzle-rating-now",
            rating = end.puzzle_rating
        )))
        .colour(if end.solved { 0x002e_cc71 } else { 0x00e7_4c3c });
    let mut buttons = vec![ButtonId::PuzzleNext(end.attempt).button(
        locale,
        "puzzle-button-next",
        ButtonStyle::Primary,
    )];
    if end.daily.is_some() {
        // The daily puzzle is one a day: Next would serve a puzzle of the rated kind instead.
        buttons.clear();
    }
    buttons.push(ButtonId::PuzzleVote(true, end.attempt).button(
        locale,
        "puzzle-button-up",
        ButtonStyle::Secondary,
    ));
    buttons.push(ButtonId::PuzzleVote(false, end.attempt).button(
        locale,
        "puzzle-button-down",
        ButtonStyle::Secondary,
    ));
    Ok(Answer {
        embeds: vec![embed],
        files: vec![CreateAttachment::bytes(png, file)],
        components: vec![CreateActionRow::Buttons(buttons)],
        ephemeral: true,
        ..Answer::default()
    })
}

/// A move as a reader of `locale` is shown it: SAN, or in Thai the Thai notation with the SAN
/// beside it (`ม-ง๒ (Nd2)`).
fn shown((san, thai): &(String, String), locale: Locale) -> String {
    match locale {
        Locale::Th => format!("{thai} ({san})"),
        _ => san.clone(),
    }
}

/// A line of moves numbered from `start` (`12. Rd8+ Kc7 13. Ma6#`, `12... Kc7`).
fn numbered(start: &Position, sans: &[String]) -> String {
    let mut out = String::new();
    let mut number = start.fullmoves();
    let mut white = start.turn() == Color::White;
    for (i, san) in sans.iter().enumerate() {
        if white {
            out.push_str(&format!("{number}. "));
        } else if i == 0 {
            out.push_str(&format!("{number}... "));
        }
        out.push_str(san);
        out.push(' ');
        if !white {
            number += 1;
        }
        white = !white;
    }
    out.trim_end().to_string()
}

/// The counts line of a daily puzzle's message.
fn daily_counts(p: &DailyProgress, locale: Locale) -> String {
    let mut text = tr!(
        locale,
        "puzzle-daily-counts",
        solvers = p.solvers,
        tries = p.tries
    );
    if let Some(first) = p.first_solver {
        text.push_str(" · ");
        text.push_str(&tr!(locale, "puzzle-daily-first", user = mention(first)));
    }
    text
}

/// The daily puzzle's message (public, in the server's language).
pub(crate) async fn daily_message(
    post: &DailyPost,
    locale: Locale,
) -> Result<Answer, ServiceError> {
    let png = board_png(&post.position, post.solver, None).await?;
    let file = format!("daily-{}.png", post.progress.day);
    let mut lines = vec![tr!(
        locale,
        "puzzle-daily-to-move",
        side = tr!(locale, side_key(post.solver))
    )];
    if let Some(line) = count_line(&post.position, locale) {
        lines.push(line);
    }
    lines.push(tr!(locale, "puzzle-daily-how"));
    let embed = CreateEmbed::new()
        .title(tr!(
            locale,
            "puzzle-daily-title",
            day = post.progress.day.clone()
        ))
        .description(lines.join("\n"))
        .image(format!("attachment://{file}"))
        .footer(CreateEmbedFooter::new(tr!(
            locale,
            "puzzle-daily-rating",
            rating = post.puzzle_rating
        )))
        .colour(0x00f1_c40f);
    Ok(Answer {
        content: daily_counts(&post.progress, locale),
        embeds: vec![embed],
        files: vec![CreateAttachment::bytes(png, file)],
        ..Answer::default()
    })
}

/// Updates the counts on the daily puzzle's message after a try (best effort: a message
/// deleted or out of reach is logged).
pub(crate) async fn update_daily(
    http: &serenity::Http,
    service: &crate::game::GameService,
    p: &DailyProgress,
) {
    // The counts as they are now (another answer may have been counted since this one).
    let p = match service.daily_progress(p.guild, &p.day).await {
        Ok(Some(now)) => now,
        _ => p.clone(),
    };
    let Some(message) = p.message.filter(|m| *m != 0) else {
        return;
    };
    let locale = match service.guild_settings(p.guild).await {
        Ok(s) => s.locale.unwrap_or(Locale::En),
        Err(_) => Locale::En,
    };
    let edit = serenity::EditMessage::new().content(daily_counts(&p, locale));
    if let Err(e) = serenity::ChannelId::new(p.channel.0)
        .edit_message(http, serenity::MessageId::new(message), edit)
        .await
    {
        tracing::warn!(
            channel = p.channel.0,
            "cannot update the daily puzzle's message: {e}"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_numbered_from_its_start() {
        let start = Position::start(crate::game::Ruleset::Standard);
        let sans: Vec<String> = ["e4", "e5", "Nd2"].iter().map(|s| s.to_string()).collect();
        assert_eq!(numbered(&start, &sans), "1. e4 e5 2. Nd2");
        let mut black = start.clone();
        let m = makruk::parse_move(&black, "e4").expect("legal");
        black.play(&m).expect("legal");
        assert_eq!(numbered(&black, &sans[1..]), "1... e5 2. Nd2");
    }
}
