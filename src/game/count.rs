//! `traditional` counting on request (board's honour started and stopped by the players) and
//! the count of any ruleset explained.

use super::loaded::game_end;
use super::persist::load_current_or_last;
use super::{text, ChannelId, Event, GameService, Reply, ServiceError, UserId};
use crate::i18n::Locale;

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
            .with_game(channel, user, |g, side, _| g.apply_count(side, start))
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
