//! Messages shared by the commands, the buttons and the announcements: a game's board and
//! status, an offer with its buttons, a service error.

use poise::serenity_prelude as serenity;
use serenity::{ButtonStyle, CreateActionRow, CreateAttachment, CreateEmbed};
use tracing::error;

use super::answer::{Answer, Ended};
use super::board;
use super::buttons::ButtonId;
use super::i18n::mention;
use crate::game::{rules_label, GameEnd, GameId, GameResult, OfferKind, Reply, ServiceError};
use crate::i18n::Locale;
use crate::tr;

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

/// The file name of the board of `game` after `plies` plies (what tells a re-post that a board
/// is already in the channel, see `announce`).
pub(crate) fn board_file(game: GameId, plies: u32) -> String {
    format!("makruk-{}-{plies}.png", game.0)
}

/// The answer to a request that changed or showed a game: the board from the side to move
/// (rendered off the runtime) with the status, and who is to move pinged while the game runs.
pub(crate) async fn game_answer(reply: &Reply, locale: Locale) -> Result<Answer, ServiceError> {
    board_answer(reply, None, locale).await
}

/// [`game_answer`] with `footer` (e.g. `/board`'s last moves) under the picture. A finished
/// game's message says first what happened ("Black wins by checkmate") and offers its GIF and
/// its computer analysis.
pub(crate) async fn board_answer(
    reply: &Reply,
    footer: Option<String>,
    locale: Locale,
) -> Result<Answer, ServiceError> {
    let png = board::png(reply).await.map_err(ServiceError::Internal)?;
    let file = board_file(reply.game_id, reply.status.plies);
    let title = tr!(
        locale,
        "discord-game-title",
        id = reply.game_id.0,
        white = mention(reply.white),
        black = mention(reply.black),
        ruleset = rules_label(locale, reply.position.variant(), reply.ruleset)
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
    if let Some(footer) = footer {
        embed = embed.footer(serenity::CreateEmbedFooter::new(footer));
    }
    let content = match reply.status.end {
        // The computer is not pinged: its move follows as its own message.
        None if reply.status.computer_to_move => tr!(
            locale,
            "discord-computer-thinking",
            user = mention(reply.status.to_move)
        ),
        None => tr!(
            locale,
            "discord-your-move",
            user = mention(reply.status.to_move)
        ),
        Some(end) => tr!(
            locale,
            "discord-game-over-ping",
            what = end_headline(end, locale),
            white = mention(reply.white),
            black = mention(reply.black)
        ),
    };
    let ended = reply.status.end.is_some().then(|| Ended {
        what: content.clone(),
        locale,
    });
    // A game that ended before its first move (aborted, lost on time) has nothing to animate.
    let components = match reply.status.end {
        Some(_) if reply.status.plies > 0 => {
            vec![CreateActionRow::Buttons(vec![
                ButtonId::Gif(reply.game_id).button(locale, "button-gif", ButtonStyle::Secondary),
                ButtonId::Analyse(reply.game_id).button(
                    locale,
                    "button-analyse",
                    ButtonStyle::Primary,
                ),
            ])]
        }
        _ => Vec::new(),
    };
    Ok(Answer {
        content,
        embeds: vec![embed],
        files: vec![CreateAttachment::bytes(png, file)],
        shows: Some((reply.game_id, reply.status.plies)),
        ended,
        components,
        ..Answer::default()
    })
}

/// What ended the game, in a few words: "Black wins by checkmate", "Draw by insufficient
/// material" (`discord-end-<reason>`).
fn end_headline(end: GameEnd, locale: Locale) -> String {
    // Only the texts of a won game name the winner.
    let winner = match end.result {
        GameResult::WhiteWins => tr!(locale, "color-white"),
        GameResult::BlackWins => tr!(locale, "color-black"),
        GameResult::Draw | GameResult::Aborted => String::new(),
    };
    tr!(
        locale,
        &format!("discord-end-{}", end.reason.name()),
        winner = winner
    )
}

/// The offer message of `/draw` or `/takeback`, with the opponent's Accept / Decline buttons.
pub(crate) fn offer_message(reply: &Reply, locale: Locale, kind: OfferKind) -> Answer {
    let game = reply.game_id;
    Answer {
        content: reply.text(locale, &mention),
        components: vec![CreateActionRow::Buttons(vec![
            ButtonId::OfferAccept(kind, game).button(locale, "button-accept", ButtonStyle::Success),
            ButtonId::OfferDecline(kind, game).button(
                locale,
                "button-decline",
                ButtonStyle::Danger,
            ),
        ])],
        ..Answer::default()
    }
}
