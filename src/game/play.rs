//! Moves, resignation and abort: the game loaded, [`super::loaded::Loaded`]'s step called, saved.

use super::{
    ChannelId, EndReason, Event, GameEnd, GameResult, GameService, Reply, ServiceError, UserId,
    MAX_INPUT_LEN,
};
use crate::store;

impl GameService {
    /// `user` plays `input` (any notation the rules crate reads: SAN, PlayOK, Thai, UCI) in the
    /// channel's game. Ends the game when the rules say it is over. A draw offer of the other
    /// side lapses; a takeback request lapses. The mover's clock is charged (live: plus the
    /// increment) and the opponent's starts.
    ///
    /// # Errors
    /// [`ServiceError::InputTooLong`] (checked first, before the database),
    /// [`ServiceError::NoGameHere`] / [`ServiceError::GameOver`], [`ServiceError::TimedOut`]
    /// (the mover's time had run out: the game ended on time instead), [`ServiceError::NotAPlayer`],
    /// [`ServiceError::NotYourTurn`], [`ServiceError::BadMove`], [`ServiceError::Conflict`].
    #[tracing::instrument(skip(self, input), fields(input_len = input.len()))]
    pub async fn play(
        &self,
        channel: ChannelId,
        user: UserId,
        input: &str,
    ) -> Result<Reply, ServiceError> {
        if input.chars().nth(MAX_INPUT_LEN).is_some() {
            return Err(ServiceError::InputTooLong);
        }
        let (g, san) = self
            .with_game(channel, user, |g, side, now| {
                if g.m.position().turn() != side {
                    return Err(ServiceError::NotYourTurn);
                }
                let mv =
                    makruk::parse_move(g.m.position(), input).map_err(ServiceError::BadMove)?;
                g.apply_move(side, &mv, now)
            })
            .await?;
        Ok(g.reply(Event::Moved, Some(user), Some(san)))
    }

    /// `user` resigns: the opponent wins.
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn resign(&self, channel: ChannelId, user: UserId) -> Result<Reply, ServiceError> {
        self.game_action(channel, user, Event::Resigned, |g, side, now| {
            let end = GameEnd {
                result: GameResult::win_for(side.other()),
                reason: EndReason::Resignation,
            };
            g.finish(end, now);
            Ok(())
        })
        .await
    }

    /// `user` aborts the game; allowed only before both sides have moved. No result.
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, [`ServiceError::TooLateToAbort`],
    /// [`ServiceError::TournamentGame`], `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn abort(&self, channel: ChannelId, user: UserId) -> Result<Reply, ServiceError> {
        {
            // A tournament's game counts: it is resigned or drawn, never aborted. (A game
            // never becomes a tournament's after its start, so this read may come first.)
            let mut tx = self.store.begin_read().await?;
            let arranged = match store::active_game(&mut tx, channel).await? {
                Some(g) => store::is_tournament_game(&mut tx, g.id).await?,
                None => false,
            };
            tx.commit().await?;
            if arranged {
                return Err(ServiceError::TournamentGame);
            }
        }
        self.game_action(channel, user, Event::Aborted, |g, _, now| {
            if g.m.moves().len() >= 2 {
                return Err(ServiceError::TooLateToAbort);
            }
            g.finish(
                GameEnd {
                    result: GameResult::Aborted,
                    reason: EndReason::Aborted,
                },
                now,
            );
            Ok(())
        })
        .await
    }
}
