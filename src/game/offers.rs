//! Draw offers and takeback requests: one [`OfferKind`], one code path. A player makes an
//! offer, the opponent accepts or declines it; what accepting does depends on the kind (a draw
//! by agreement, or the last ply undone), and so do when an offer may be made and when it
//! lapses. The steps themselves are [`super::loaded::Loaded`]'s (`make_offer`, `accept`,
//! `decline`, `take_back_from_computer`); here they are loaded, called and saved.

use super::{ChannelId, Event, GameService, OfferKind, Reply, ServiceError, UserId};

impl GameService {
    /// `user` offers a draw (either player, at any time) or asks to take back their last move
    /// (one ply: the last ply must be theirs). If the opponent's offer of the same kind stands,
    /// this accepts it (event [`Event::OfferAccepted`], else [`Event::Offered`]). A draw offer
    /// lapses when the opponent moves; a takeback request with any move.
    ///
    /// Against the computer both are answered at once: a takeback is granted (the player's last
    /// move and the computer's reply are undone, so it is the player's turn again), and a draw
    /// offer is accepted or declined as the [`super::DrawJudge`] says (the answer's
    /// event is then [`Event::OfferAccepted`] or [`Event::OfferDeclined`], by the computer).
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, [`ServiceError::NothingToTakeBack`] (takeback),
    /// [`ServiceError::AlreadyOffered`], `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn offer(
        &self,
        channel: ChannelId,
        user: UserId,
        kind: OfferKind,
    ) -> Result<Reply, ServiceError> {
        let (g, event) = self
            .with_game(channel, user, |g, side, now| {
                if kind == OfferKind::Takeback && g.row.computer.is_some() {
                    g.take_back_from_computer(side, now)?;
                    return Ok(Event::OfferAccepted(kind));
                }
                g.make_offer(kind, side, now)
            })
            .await?;
        match (event, g.row.computer) {
            (Event::Offered(OfferKind::Draw), Some(_)) => {
                self.computer_answers_draw(channel, g).await
            }
            // The computer granted the takeback.
            (Event::OfferAccepted(OfferKind::Takeback), Some(seat)) => {
                Ok(g.reply(event, Some(g.player(seat.side)), None))
            }
            _ => Ok(g.reply(event, Some(user), None)),
        }
    }

    /// `user` accepts the opponent's standing offer of `kind`: the game is drawn by agreement,
    /// or the last ply is undone.
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, [`ServiceError::NoOffer`], `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn accept_offer(
        &self,
        channel: ChannelId,
        user: UserId,
        kind: OfferKind,
    ) -> Result<Reply, ServiceError> {
        self.game_action(channel, user, Event::OfferAccepted(kind), |g, side, now| {
            g.accept(kind, side, now)
        })
        .await
    }

    /// `user` declines the opponent's standing offer of `kind`.
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, [`ServiceError::NoOffer`], `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn decline_offer(
        &self,
        channel: ChannelId,
        user: UserId,
        kind: OfferKind,
    ) -> Result<Reply, ServiceError> {
        self.game_action(channel, user, Event::OfferDeclined(kind), |g, side, _| {
            g.decline(kind, side)
        })
        .await
    }
}
