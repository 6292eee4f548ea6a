//! `/leaderboard [speed]`: the server's rated players, ten a page, with ◀ ▶ buttons for anyone
//! ([`ButtonId::Leaderboard`], handled in `components`; a page past the end shows the last one, so
//! old buttons keep working). Public: the leaderboard concerns the whole server.

use poise::serenity_prelude::{ButtonStyle, CreateActionRow};

use super::run;
use crate::discord::answer::Answer;
use crate::discord::buttons::ButtonId;
use crate::discord::i18n::mention;
use crate::discord::i18n::Locales;
use crate::discord::{Context, Error};
use crate::game::{GuildId, Kind, Leaderboard};
use crate::i18n::Locale;

/// Speed asked for in `/leaderboard` and `/stats`.
#[derive(Debug, poise::ChoiceParameter)]
pub(crate) enum SpeedOption {
    #[name = "live"]
    Live,
    #[name = "correspondence"]
    Correspondence,
}

impl SpeedOption {
    /// The speed chosen.
    pub(crate) fn kind(&self) -> Kind {
        match self {
            SpeedOption::Live => Kind::Live,
            SpeedOption::Correspondence => Kind::Correspondence,
        }
    }
}

/// A leaderboard page with its ◀ ▶ buttons (each disabled at its end).
pub(crate) fn answer(board: &Leaderboard, locale: Locale) -> Answer {
    let page = |page| ButtonId::Leaderboard(board.variant, board.speed, page);
    let previous = page(board.page.saturating_sub(1))
        .button(locale, "button-previous", ButtonStyle::Secondary)
        .disabled(board.page == 0);
    let next = page(board.page.saturating_add(1))
        .button(locale, "button-next", ButtonStyle::Secondary)
        .disabled(board.page + 1 >= board.pages);
    Answer {
        content: board.text(locale, &mention),
        components: vec![CreateActionRow::Buttons(vec![previous, next])],
        ..Answer::default()
    }
}

/// `/leaderboard [speed] [variant]`: the first page of the server's leaderboard.
#[poise::command(slash_command, guild_only)]
pub(super) async fn leaderboard(
    ctx: Context<'_>,
    speed: Option<SpeedOption>,
    variant: Option<super::options::VariantOption>,
) -> Result<(), Error> {
    let variant = super::options::variant(variant);
    let service = ctx.data().service.clone();
    let guild = ctx.guild_id().map(|g| GuildId(g.get()));
    run(ctx, |locales: Locales| async move {
        let locale = locales.public;
        let Some(guild) = guild else {
            return Ok(Answer::private(crate::tr!(locale, "discord-guild-only")));
        };
        let board = service
            .leaderboard(guild, variant, speed.map(|s| s.kind()), 0)
            .await?;
        Ok(answer(&board, locale))
    })
    .await
}
