//! `traditional` counting on request (board's honour started and stopped by the players) and
//! the count of any ruleset explained.

use makruk::Color;

use super::persist::{game_end, load_current_or_last, Loaded};
use super::{text, ChannelId, Event, GameService, OfferKind, Reply, Ruleset, ServiceError, UserId};
use crate::i18n::Locale;

/// `traditional`: `side` starts (`start`, on its turn) or stops its board's-honour count in
/// `g`. A player's request and the computer's both come here.
pub(super) fn apply_count(g: &mut Loaded, side: Color, start: bool) -> Result<(), ServiceError> {
    if g.m.ruleset() != Ruleset::Traditional {
        return Err(ServiceError::NotTraditional);
    }
    if start {
        if g.m.position().turn() != side {
            return Err(ServiceError::NotYourTurn);
        }
        g.m.start_count().map_err(ServiceError::Count)?;
    } else {
        g.m.stop_count().map_err(ServiceError::Count)?;
        // The count belongs to the side that started it; only that side stops it.
        if g.m.events().last().is_some_and(|e| e.by != side) {
            return Err(ServiceError::NotYourCount);
        }
    }
    // A running board's-honour count is the counting side's standing draw offer.
    if start {
        g.set_offer(OfferKind::Draw, Some(side));
    } else if g.offer(OfferKind::Draw) == Some(side) {
        g.set_offer(OfferKind::Draw, None);
    }
    Ok(())
}

impl GameService {
    /// `traditional`: the player to move starts counting board's honour (RULES.md). The
    /// running count is a standing draw offer to the opponent; the computer answers it at once
    /// (accepted: the reply is its [`Event::OfferAccepted`]; else the count runs, offer standing).
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, `NotYourTurn`, [`ServiceError::NotTraditional`],
    /// [`ServiceError::Count`] (the rules refuse it now), `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn count_start(
        &self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<Reply, ServiceError> {
        self.count_request(channel, user, true).await
    }

    /// `traditional`: the counting player stops their board's-honour count (at any time, as
    /// pychess allows).
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, [`ServiceError::NotTraditional`],
    /// [`ServiceError::NotYourCount`], [`ServiceError::Count`] (no count runs), `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn count_stop(
        &self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<Reply, ServiceError> {
        self.count_request(channel, user, false).await
    }

    async fn count_request(
        &self,
        channel: ChannelId,
        user: UserId,
        start: bool,
    ) -> Result<Reply, ServiceError> {
        let event = if start {
            Event::CountStarted
        } else {
            Event::CountStopped
        };
        let (g, ()) = self
            .with_game(channel, user, |g, side, _| apply_count(g, side, start))
            .await?;
        // Against the computer a started count is judged at once, as a draw offer is.
        if start && g.row.computer.is_some() {
            return self.computer_judges_draw(channel, g, event, false).await;
        }
        Ok(g.reply(event, Some(user), None))
    }

    /// The count of the channel's game explained in sentences: who counts, why from that
    /// number, why that limit, how many moves remain (or why no count runs). For a finished
    /// game (the channel's last), the count at its end, after a line saying the game is over.
    ///
    /// # Errors
    /// [`ServiceError::NoGameHere`], `Internal`.
    #[tracing::instrument(skip(self))]
    pub async fn explain_count(
        &self,
        channel: ChannelId,
        locale: Locale,
    ) -> Result<String, ServiceError> {
        let mut tx = self.store.begin_read().await?;
        let g = load_current_or_last(&self.cache, &mut tx, channel).await?;
        tx.commit().await?;
        let ended = game_end(&g.row).is_some();
        let explained =
            text::explain_count(g.m.ruleset(), g.m.position(), g.m.count(), ended, locale);
        // A finished game's count is history: say so, or "the player to move may start it"
        // would read as an invitation to play on.
        Ok(if ended {
            format!("{}\n{explained}", crate::tr!(locale, "count-game-over"))
        } else {
            explained
        })
    }
}
