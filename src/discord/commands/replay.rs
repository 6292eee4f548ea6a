//! `/replay` (a private board at any ply, with ⏮ ◀ ▶ ⏭ and flip buttons that update the same
//! message) and `/gif` (the whole game as an animated GIF); the builders are shared with the
//! buttons in `components`.
//!
//! A replay button's custom id carries its whole state: `mk:replay-<button>:<game>:<ply>:<w|b>:<user>`
//! (the ply shown, the side at the bottom, the user who opened it), at most 80 characters.

use anyhow::Context as _;
use poise::serenity_prelude as serenity;
use serenity::{ButtonStyle, CreateActionRow, CreateAttachment, CreateButton, CreateEmbed};

use super::{channel, run, user};
use crate::discord::i18n::mention;
use crate::discord::i18n::Locales;
use crate::discord::respond::Answer;
use crate::discord::{Context, Error};
use crate::game::{Color, GameId, GameRecord, ServiceError, UserId};
use crate::i18n::Locale;
use crate::render::{self, RenderOptions, Theme};
use crate::tr;

/// Side of the animated GIF, in pixels (a 100-ply game stays far under 1 MB).
pub(crate) const GIF_SIZE: u32 = 384;

/// A replay button.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    First,
    Previous,
    Next,
    Last,
    Flip,
}

impl Step {
    const ALL: [Step; 5] = [
        Step::First,
        Step::Previous,
        Step::Next,
        Step::Last,
        Step::Flip,
    ];

    fn name(self) -> &'static str {
        match self {
            Step::First => "first",
            Step::Previous => "prev",
            Step::Next => "next",
            Step::Last => "last",
            Step::Flip => "flip",
        }
    }
}

/// What a replay button shows: game, ply (0 = start position), side at the bottom, and whose
/// replay it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct View {
    pub game: GameId,
    pub ply: usize,
    pub orientation: Color,
    pub owner: UserId,
}

impl View {
    /// The custom id of button `step` on this view.
    fn custom_id(self, step: Step) -> String {
        let side = match self.orientation {
            Color::White => 'w',
            Color::Black => 'b',
        };
        format!(
            "mk:replay-{}:{}:{}:{side}:{}",
            step.name(),
            self.game.0,
            self.ply,
            self.owner.0
        )
    }

    /// Reads a replay button's custom id (`None` for any other id or a malformed one).
    pub(crate) fn parse(custom_id: &str) -> Option<(Step, View)> {
        let mut parts = custom_id.split(':');
        if parts.next()? != "mk" {
            return None;
        }
        let name = parts.next()?.strip_prefix("replay-")?;
        let step = Step::ALL.into_iter().find(|s| s.name() == name)?;
        let game = GameId(parts.next()?.parse().ok()?);
        let ply = parts.next()?.parse().ok()?;
        let orientation = match parts.next()? {
            "w" => Color::White,
            "b" => Color::Black,
            _ => return None,
        };
        let owner = UserId(parts.next()?.parse().ok()?);
        if parts.next().is_some() {
            return None;
        }
        Some((
            step,
            View {
                game,
                ply,
                orientation,
                owner,
            },
        ))
    }

    /// The view after pressing `step`, in a game of `plies` plies.
    pub(crate) fn after(self, step: Step, plies: usize) -> View {
        let ply = match step {
            Step::First => 0,
            Step::Previous => self.ply.saturating_sub(1),
            Step::Next => (self.ply + 1).min(plies),
            Step::Last => plies,
            Step::Flip => self.ply,
        };
        let orientation = if step == Step::Flip {
            self.orientation.other()
        } else {
            self.orientation
        };
        View {
            ply,
            orientation,
            ..self
        }
    }
}

/// The replay message of `record` at `view`: the board (last move and check marked), the move
/// and its number, and the buttons. `view.ply` must be at most the game's plies.
///
/// # Errors
/// `Internal` if the board cannot be drawn.
pub(crate) async fn replay_answer(
    record: &GameRecord,
    view: View,
    locale: Locale,
) -> Result<Answer, ServiceError> {
    let plies = record.game.moves().len();
    let ply = view.ply.min(plies);
    let position = record.game.positions()[ply].clone();
    let options = RenderOptions {
        orientation: view.orientation,
        last_move: ply
            .checked_sub(1)
            .and_then(|i| record.game.moves().get(i))
            .map(|m| (m.from, m.to)),
        ..RenderOptions::default()
    };
    let png = tokio::task::spawn_blocking(move || render::render_position(&position, &options))
        .await
        .context("the render task was lost")
        .and_then(|r| r.context("cannot render the board"))
        .map_err(ServiceError::Internal)?;
    let file = format!("makruk-replay-{}-{ply}.png", record.game_id.0);
    let title = tr!(
        locale,
        "discord-replay-title",
        id = record.game_id.0,
        white = mention(record.white),
        black = mention(record.black)
    );
    let line = if ply == 0 {
        tr!(locale, "discord-replay-start", plies = plies)
    } else {
        tr!(
            locale,
            "discord-replay-ply",
            san = record.numbered(ply - 1, ply),
            ply = ply,
            plies = plies
        )
    };
    let view = View { ply, ..view };
    let running = record.end.is_none();
    let button = |step: Step, label: String, disabled: bool| {
        CreateButton::new(view.custom_id(step))
            .label(label)
            .style(ButtonStyle::Secondary)
            .disabled(disabled)
    };
    let buttons = vec![
        button(Step::First, "⏮".into(), ply == 0),
        button(Step::Previous, "◀".into(), ply == 0),
        button(Step::Next, "▶".into(), ply == plies),
        // A running game may have moved on: ⏭ then catches up.
        button(Step::Last, "⏭".into(), ply == plies && !running),
        button(Step::Flip, tr!(locale, "discord-replay-flip"), false),
    ];
    Ok(Answer {
        embeds: vec![CreateEmbed::new()
            .description(format!("{title}\n{line}"))
            .image(format!("attachment://{file}"))
            .colour(0x0034_98db)],
        files: vec![CreateAttachment::bytes(png, file)],
        components: vec![CreateActionRow::Buttons(buttons)],
        ephemeral: true,
        ..Answer::default()
    })
}

/// The animated GIF of `record` as a file (drawn on the blocking pool), with a one-line text.
///
/// # Errors
/// `Internal` if the GIF cannot be made.
pub(crate) async fn gif_answer(
    record: &GameRecord,
    locale: Locale,
    ephemeral: bool,
) -> Result<Answer, ServiceError> {
    let game = record.game.clone();
    let gif = tokio::task::spawn_blocking(move || {
        render::game_gif(&game, Color::White, Theme::Plain, GIF_SIZE)
    })
    .await
    .context("the GIF task was lost")
    .and_then(|r| r.context("cannot make the GIF"))
    .map_err(ServiceError::Internal)?;
    Ok(Answer {
        content: tr!(
            locale,
            "discord-gif-text",
            id = record.game_id.0,
            plies = record.game.moves().len()
        ),
        files: vec![CreateAttachment::bytes(
            gif,
            format!("makruk-game-{}.gif", record.game_id.0),
        )],
        ephemeral,
        ..Answer::default()
    })
}

/// `/replay [game]`: a game privately, with buttons to step through it.
#[poise::command(slash_command)]
pub(super) async fn replay(ctx: Context<'_>, #[min = 1] game: Option<i64>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let (channel, owner) = (channel(ctx), user(ctx));
    run(ctx, "replay", |locales: Locales| async move {
        let locale = locales.user;
        let record = service.record(channel, game.map(GameId)).await?;
        let view = View {
            game: record.game_id,
            ply: record.game.moves().len(),
            orientation: Color::White,
            owner,
        };
        replay_answer(&record, view, locale).await
    })
    .await
}

/// `/gif [game]`: a game as an animated GIF.
#[poise::command(slash_command)]
pub(super) async fn gif(ctx: Context<'_>, #[min = 1] game: Option<i64>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let channel = channel(ctx);
    run(ctx, "gif", |locales: Locales| async move {
        let locale = locales.public;
        let record = service.record(channel, game.map(GameId)).await?;
        gif_answer(&record, locale, false).await
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replay_ids_round_trip_and_fit_discord() {
        let view = View {
            game: GameId(i64::MAX),
            ply: 9999,
            orientation: Color::Black,
            owner: UserId(u64::MAX),
        };
        for step in Step::ALL {
            let id = view.custom_id(step);
            assert!(id.len() <= 100, "{id}");
            assert_eq!(View::parse(&id), Some((step, view)));
        }
        for bad in [
            "mk:replay-next:1:2:w",
            "mk:replay-up:1:2:w:3",
            "mk:replay-next:1:2:x:3",
            "mk:replay-next:1:-2:w:3",
            "mk:replay-next:1:2:w:3:4",
            "mk:accept:1",
        ] {
            assert_eq!(View::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn steps_stay_inside_the_game() {
        let v = View {
            game: GameId(1),
            ply: 3,
            orientation: Color::White,
            owner: UserId(5),
        };
        assert_eq!(v.after(Step::First, 10).ply, 0);
        assert_eq!(v.after(Step::Previous, 10).ply, 2);
        assert_eq!(v.after(Step::Next, 10).ply, 4);
        assert_eq!(v.after(Step::Next, 3).ply, 3);
        assert_eq!(v.after(Step::Last, 10).ply, 10);
        let flipped = v.after(Step::Flip, 10);
        assert_eq!((flipped.ply, flipped.orientation), (3, Color::Black));
        assert_eq!(View { ply: 0, ..v }.after(Step::Previous, 10).ply, 0);
    }
}
