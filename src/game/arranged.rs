//! Games the bot arranges itself, with no challenge: a tournament's pairings. The game is
//! started in the place given (a thread of the tournament's channel), and in the same
//! transaction recorded as the pairing's game, so a pairing gets exactly one game even when
//! two processes try at once. Also the one query a tournament needs of a game: how it ended.

use super::challenges::{set_parent, NewGame};
use super::threads::Place;
use super::{
    ChannelId, Event, GameEnd, GameId, GameService, Reply, Ruleset, ServiceError, UserId, Variant,
};
use crate::clock::TimeControl;
use crate::store;
use crate::types::{Ladder, TournamentId};

/// A tournament game to start: its pairing, the players and the event's terms.
#[derive(Clone, Copy, Debug)]
pub struct Arranged {
    /// The tournament.
    pub tournament: TournamentId,
    /// The round (1-based) and board (1 = top) of the pairing.
    pub round: u32,
    pub board: u32,
    pub white: UserId,
    pub black: UserId,
    pub ruleset: Ruleset,
    pub variant: Variant,
    pub time_control: TimeControl,
    /// The server, and whether the event is rated.
    pub ladder: Ladder,
}

/// How a finished game ended, as a tournament scores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ended {
    pub end: GameEnd,
    /// Plies played (an aborted game's side that did not move: White at 0, Black at 1).
    pub plies: u32,
}

impl GameService {
    /// Starts the game of pairing `a` in `place` (its thread, if any, stored as the game's).
    ///
    /// # Errors
    /// [`ServiceError::ChannelBusy`] (the place's channel has a game),
    /// [`ServiceError::Conflict`] (the pairing already has a game: another process started
    /// it), `Internal`.
    #[tracing::instrument(skip(self))]
    pub async fn start_arranged(&self, place: Place, a: Arranged) -> Result<Reply, ServiceError> {
        let now_ms = self.now_ms();
        let home = place.game_channel();
        let mut tx = self.store.begin_write().await?;
        store::lock_channel(&mut tx, home).await?;
        if let Some(g) = store::active_game(&mut tx, home).await? {
            return Err(ServiceError::ChannelBusy(g.id));
        }
        let new = NewGame {
            channel: home,
            white: a.white,
            black: a.black,
            ruleset: a.ruleset,
            variant: a.variant,
            computer: None,
            time_control: a.time_control,
            ladder: a.ladder,
        };
        let g = self.insert_new_game(&mut tx, new, now_ms).await?;
        if let Some(t) = place.thread {
            set_parent(&mut tx, g.row.id, t).await?;
        }
        if !store::set_pairing_game(&mut tx, a.tournament, a.round, a.board, g.row.id).await? {
            return Err(ServiceError::Conflict);
        }
        tx.commit().await?;
        self.started(&g);
        Ok(g.reply(Event::Started, None, None))
    }

    /// `user` berserks in the channel's game, a pairing of a running arena (lichess's rule):
    /// their time is halved, and a win of at least 7 moves scores a point more. Only before
    /// their own first move, once. The claim (one per player and game, in the pairing's row) comes
    /// first, then the clock; if the clock refuses, the claim is given back.
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, [`ServiceError::NoBerserk`] (not an arena's game,
    /// or already berserked), [`ServiceError::TooLateToBerserk`] (moved already), `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn berserk(&self, channel: ChannelId, user: UserId) -> Result<Reply, ServiceError> {
        let (game, white) = {
            let mut tx = self.store.begin_read().await?;
            let row = store::active_game(&mut tx, channel).await?;
            tx.commit().await?;
            let row = row.ok_or(ServiceError::NoGameHere)?;
            let white = if row.white_id == user {
                true
            } else if row.black_id == user {
                false
            } else {
                return Err(ServiceError::NotAPlayer);
            };
            (row.id, white)
        };
        let mut tx = self.store.begin_write().await?;
        let claimed = store::claim_berserk(&mut tx, game, white).await?;
        tx.commit().await?;
        if !claimed {
            return Err(ServiceError::NoBerserk);
        }
        let done = self
            .with_game(channel, user, |g, side, _| {
                if g.row.id != game {
                    return Err(ServiceError::Conflict);
                }
                g.clock
                    .berserk(side)
                    .map_err(|_| ServiceError::TooLateToBerserk)
            })
            .await;
        match done {
            Ok((g, ())) => Ok(g.reply(Event::Shown, Some(user), None)),
            Err(e) => {
                let mut tx = self.store.begin_write().await?;
                store::unclaim_berserk(&mut tx, game, white).await?;
                tx.commit().await?;
                Err(e)
            }
        }
    }

    /// How game `game` ended; `None` while it is played (or if there is no such game).
    ///
    /// # Errors
    /// `Internal` (the database).
    #[tracing::instrument(skip(self))]
    pub async fn game_ended(&self, game: GameId) -> Result<Option<Ended>, ServiceError> {
        let mut tx = self.store.begin_read().await?;
        let row = store::game(&mut tx, game).await?;
        tx.commit().await?;
        Ok(row.and_then(|r| {
            Some(Ended {
                end: GameEnd {
                    result: r.result?,
                    reason: r.end_reason?,
                },
                plies: u32::try_from(r.plies).unwrap_or(u32::MAX),
            })
        }))
    }
}
