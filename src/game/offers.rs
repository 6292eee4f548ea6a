//! Draw offers and takeback requests: one [`OfferKind`], one code path. A player makes an
//! offer, the opponent accepts or declines it; what accepting does depends on the kind (a draw
//! by agreement, or the last ply undone), and so do when an offer may be made and when it
//! lapses.

use anyhow::anyhow;
use makruk::{Color, CountKind, Ruleset};

use super::computer::take_back_from_computer;
use super::persist::Loaded;
use super::{
    ChannelId, EndReason, Event, GameEnd, GameResult, GameService, OfferKind, Reply, ServiceError,
    UserId,
};

/// True when the last ply on the board is `side`'s (what a takeback undoes).
fn last_ply_is(g: &Loaded, side: Color) -> bool {
    !g.m.moves().is_empty() && g.m.position().turn() != side
}

/// `traditional`: a running board's-honour count is a standing draw offer of the counting
/// side (docs/RULES.md, "Ruleset `traditional`"); it does not lapse with the opponent's moves.
pub(super) fn count_offer_stands(g: &Loaded, offerer: Color) -> bool {
    g.m.ruleset() == Ruleset::Traditional
        && g.m
            .count()
            .is_some_and(|c| c.kind == CountKind::BoardsHonour && c.counting == offerer)
}

/// What a move by `mover` does to the offers: the opponent's draw offer lapses (unless it is a
/// running count, see [`count_offer_stands`]), and a takeback request lapses whoever made it.
pub(super) fn lapse_on_move(g: &mut Loaded, mover: Color) {
    let opponent = mover.other();
    if g.offer(OfferKind::Draw) == Some(opponent) && !count_offer_stands(g, opponent) {
        g.set_offer(OfferKind::Draw, None);
    }
    g.set_offer(OfferKind::Takeback, None);
}

/// `side` accepts the opponent's standing offer of `kind`.
pub(super) fn accept(
    g: &mut Loaded,
    kind: OfferKind,
    side: Color,
    now: i64,
) -> Result<(), ServiceError> {
    let offerer = side.other();
    if g.offer(kind) != Some(offerer) {
        return Err(ServiceError::NoOffer(kind));
    }
    match kind {
        OfferKind::Draw => g.finish(
            GameEnd {
                result: GameResult::Draw,
                reason: EndReason::Agreement,
            },
            now,
        ),
        OfferKind::Takeback => {
            if !last_ply_is(g, offerer) {
                return Err(ServiceError::NoOffer(kind));
            }
            // lichess's rule: both clocks as when the taken-back ply's turn started, that
            // turn starting again now (see `crate::clock::state`).
            let before = g.clocks_before_last_ply();
            g.clock
                .take_back(before, now)
                .map_err(|e| anyhow!("the clock refused a takeback in time: {e}"))?;
            g.m.undo();
            g.clocks.pop();
            g.set_offer(kind, None);
        }
    }
    Ok(())
}

/// `side` declines the opponent's standing offer of `kind`.
pub(super) fn decline(g: &mut Loaded, kind: OfferKind, side: Color) -> Result<(), ServiceError> {
    if g.offer(kind) != Some(side.other()) {
        return Err(ServiceError::NoOffer(kind));
    }
    g.set_offer(kind, None);
    Ok(())
}

impl GameService {
    /// `user` offers a draw (either player, at any time) or asks to take back their last move
    /// (one ply: the last ply must be theirs). If the opponent's offer of the same kind stands,
    /// this accepts it (event [`Event::OfferAccepted`], else [`Event::Offered`]). A draw offer
    /// lapses when the opponent moves; a takeback request with any move.
    ///
    /// Against the computer both are answered at once: a takeback is granted (the player's last
    /// move and the computer's reply are undone, so it is the player's turn again), and a draw
    /// offer is accepted or declined as the [`super::computer::DrawJudge`] says (the answer's
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
                    take_back_from_computer(g, side, now)?;
                    return Ok(Event::OfferAccepted(kind));
                }
                if kind == OfferKind::Takeback && !last_ply_is(g, side) {
                    return Err(ServiceError::NothingToTakeBack);
                }
                match g.offer(kind) {
                    Some(c) if c == side => Err(ServiceError::AlreadyOffered(kind)),
                    Some(_) => {
                        accept(g, kind, side, now)?;
                        Ok(Event::OfferAccepted(kind))
                    }
                    None => {
                        g.set_offer(kind, Some(side));
                        Ok(Event::Offered(kind))
                    }
                }
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
            accept(g, kind, side, now)
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
            decline(g, kind, side)
        })
        .await
    }
}
