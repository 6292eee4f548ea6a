//! `/replay` (a private board at any ply, with ⏮ ◀ ▶ ⏭ and flip buttons that update the same
//! message) and `/gif` (the whole game as an animated GIF); the builders are shared with the
//! buttons in `components`.
//!
//! A replay button's custom id carries its whole state ([`ButtonId::Replay`]).

use anyhow::Context as _;
use poise::serenity_prelude as serenity;
use serenity::{ButtonStyle, CreateActionRow, CreateAttachment, CreateButton, CreateEmbed};

use super::{channel, run, user};
use crate::discord::answer::Answer;
use crate::discord::buttons::{ButtonId, Step, View};
use crate::discord::i18n::mention;
use crate::discord::i18n::Locales;
use crate::discord::{Context, Error};
use crate::game::{Color, Eval, GameId, GameRecord, PlyReview, ServiceError};
use crate::i18n::Locale;
use crate::render::{self, RenderOptions, Theme};
use crate::tr;

/// Side of the animated GIF, in pixels (a 100-ply game stays far under 1 MB).
pub(crate) const GIF_SIZE: u32 = 384;

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
            san = record.numbered_for(ply - 1, ply, locale),
            ply = ply,
            plies = plies
        )
    };
    // An analysed game: what the computer says of the move, on a line of its own.
    let line = match record.review(ply) {
        Some(review) => format!("{line}\n{}", review_line(&review, locale)),
        None => line,
    };
    let view = View { ply, ..view };
    let running = record.end.is_none();
    let button = |step: Step, label: String, disabled: bool| {
        CreateButton::new(ButtonId::Replay(step, view).to_string())
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

/// The analysis line of a replayed ply: the eval after the move, the engine's best move
/// before it (in Thai notation with SAN beside it for Thai readers) and the judgement, joined
/// by ` · ` (`Eval −1.35 · best was Rxd4 · mistake`).
pub(crate) fn review_line(review: &PlyReview, locale: Locale) -> String {
    let mut parts = vec![match review.eval {
        Eval::Cp(cp) => tr!(locale, "discord-replay-eval", eval = eval_pawns(cp)),
        Eval::Mate(moves) => tr!(
            locale,
            "discord-replay-eval-mate",
            side = if moves > 0 { "white" } else { "black" },
            moves = i64::from(moves.unsigned_abs())
        ),
        Eval::Checkmate { .. } => tr!(locale, "discord-replay-eval-checkmate"),
    }];
    if review.best_played {
        parts.push(tr!(locale, "discord-replay-best-played"));
    } else if let Some(best) = &review.best {
        let shown = match locale {
            Locale::Th => best.thai_with_san(),
            _ => best.san.clone(),
        };
        parts.push(tr!(locale, "discord-replay-best", best = shown));
    }
    if let Some(j) = review.judgement {
        // The analysis message's words for it (one word per judgement).
        parts.push(tr!(
            locale,
            &format!("analysis-judgement-{}", crate::game::judgement_text(j))
        ));
    }
    parts.join(" · ")
}

/// Centipawns as signed pawns with two decimals, a real minus sign: `+1.35`, `−0.40`, `0.00`.
fn eval_pawns(cp: i32) -> String {
    let sign = match cp.signum() {
        1 => "+",
        -1 => "\u{2212}",
        _ => "",
    };
    let a = cp.unsigned_abs();
    format!("{sign}{}.{:02}", a / 100, a % 100)
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
    run(ctx, |locales: Locales| async move {
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
    run(ctx, |locales: Locales| async move {
        let locale = locales.public;
        let record = service.record(channel, game.map(GameId)).await?;
        gif_answer(&record, locale, false).await
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::MoveChoice;

    fn review(
        eval: Eval,
        best_played: bool,
        judgement: Option<crate::game::Judgement>,
    ) -> PlyReview {
        PlyReview {
            eval,
            best: Some(MoveChoice {
                san: "Rxd4".into(),
                thai: "ร×ง๔".into(),
            }),
            best_played,
            judgement,
        }
    }

    #[test]
    fn the_analysis_line_says_eval_best_move_and_judgement() {
        let r = review(Eval::Cp(-135), false, Some(crate::game::Judgement::Mistake));
        assert_eq!(
            review_line(&r, Locale::En),
            "Eval \u{2212}1.35 · best was Rxd4 · mistake"
        );
        assert_eq!(
            review_line(&r, Locale::Th),
            "ค่าประเมิน \u{2212}1.35 · ตาที่ดีที่สุดคือ ร×ง๔ (Rxd4) · เดินพลาด"
        );
        let r = review(Eval::Cp(40), true, None);
        assert_eq!(review_line(&r, Locale::En), "Eval +0.40 · the best move");
        let r = review(Eval::Mate(-3), false, Some(crate::game::Judgement::Blunder));
        assert_eq!(
            review_line(&r, Locale::En),
            "Black mates in 3 · best was Rxd4 · blunder"
        );
        assert_eq!(
            review_line(&r, Locale::Th),
            "ฝ่ายดำรุกจนได้ใน 3 ตา · ตาที่ดีที่สุดคือ ร×ง๔ (Rxd4) · เดินพลาดร้ายแรง"
        );
        let r = review(
            Eval::Checkmate {
                winner: Color::White,
            },
            true,
            None,
        );
        assert_eq!(review_line(&r, Locale::En), "Checkmate · the best move");
        assert_eq!(eval_pawns(0), "0.00");
        assert_eq!(eval_pawns(5), "+0.05");
    }
}
