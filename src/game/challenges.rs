//! Challenges: open one, answer it (accept starts the game), withdraw it. Each request is one
//! write transaction; the database's unique index keeps one open challenge per channel.

use anyhow::anyhow;
use makruk::{Game, Position};

use super::persist::Loaded;
use super::{
    ChallengeId, ChallengeState, ChallengeView, ChannelId, ColorChoice, Event, GameId, GameService,
    Reply, Ruleset, ServiceError, UserId,
};
use crate::store::{self, from_db_id, to_db_id, ChallengeRow, Tx};

/// What the channel sees of challenge `row`.
fn challenge_view(row: &ChallengeRow) -> ChallengeView {
    ChallengeView {
        id: ChallengeId(row.id),
        channel: ChannelId(from_db_id(row.channel_id)),
        challenger: UserId(from_db_id(row.challenger_id)),
        opponent: UserId(from_db_id(row.opponent_id)),
        color: row.color,
        ruleset: row.ruleset,
        created_at: row.created_at,
        expires_at: row.expires_at,
        state: row.state,
    }
}

impl GameService {
    /// `challenger` challenges `opponent` in `channel`, asking for `color`, under `ruleset`.
    /// The challenge expires after 10 minutes (see [`GameService::with_challenge_ttl`]).
    ///
    /// # Errors
    /// [`ServiceError::ChallengeSelf`], [`ServiceError::ChallengeBot`] (`opponent_is_bot`),
    /// [`ServiceError::ChannelBusy`] (a game is being played here),
    /// [`ServiceError::ChallengePending`] (another challenge is open here), `Internal`.
    #[tracing::instrument(skip(self))]
    pub async fn challenge(
        &self,
        channel: ChannelId,
        challenger: UserId,
        opponent: UserId,
        opponent_is_bot: bool,
        color: ColorChoice,
        ruleset: Ruleset,
    ) -> Result<ChallengeView, ServiceError> {
        if challenger == opponent {
            return Err(ServiceError::ChallengeSelf);
        }
        if opponent_is_bot {
            return Err(ServiceError::ChallengeBot);
        }
        let now = self.now();
        let ch = to_db_id(channel.0);
        let mut tx = self.store.begin_write().await?;
        if let Some(g) = store::active_game(&mut tx, ch).await? {
            return Err(ServiceError::ChannelBusy(GameId(g.id)));
        }
        store::expire_challenges(&mut tx, ch, now).await?;
        if let Some(c) = store::open_challenge(&mut tx, ch).await? {
            return Err(ServiceError::ChallengePending(ChallengeId(c.id)));
        }
        let new = store::NewChallenge {
            channel_id: ch,
            challenger_id: to_db_id(challenger.0),
            opponent_id: to_db_id(opponent.0),
            color,
            ruleset,
            now,
            expires_at: now.saturating_add(self.challenge_ttl_secs),
        };
        let row = match store::insert_challenge(&mut tx, &new).await {
            Ok(row) => row,
            Err(e) if store::is_unique_violation(&e) => return Err(ServiceError::Conflict),
            Err(e) => return Err(e.into()),
        };
        tx.commit().await?;
        Ok(challenge_view(&row))
    }

    /// The open challenge of `channel`, if any (expired ones are not returned).
    ///
    /// # Errors
    /// `Internal` only.
    pub async fn open_challenge(
        &self,
        channel: ChannelId,
    ) -> Result<Option<ChallengeView>, ServiceError> {
        let now = self.now();
        let mut tx = self.store.begin_read().await?;
        let row = store::open_challenge(&mut tx, to_db_id(channel.0)).await?;
        tx.commit().await?;
        Ok(row
            .filter(|c| c.expires_at > now)
            .map(|c| challenge_view(&c)))
    }

    /// The open challenge of `channel` (matching `id` if given), checked for expiry.
    async fn find_open_challenge(
        &self,
        tx: &mut Tx,
        channel: ChannelId,
        id: Option<ChallengeId>,
    ) -> Result<ChallengeRow, ServiceError> {
        let ch = to_db_id(channel.0);
        let open = store::open_challenge(tx, ch).await?;
        match open {
            Some(c) if id.is_none_or(|id| id.0 == c.id) => Ok(c),
            _ => {
                // A button of an old challenge: say what became of it.
                if let Some(id) = id {
                    if let Some(c) = store::challenge(tx, id.0).await? {
                        if c.channel_id == ch && c.state == ChallengeState::Expired {
                            return Err(ServiceError::ChallengeExpired);
                        }
                    }
                }
                Err(ServiceError::NoChallenge)
            }
        }
    }

    /// The open challenge of `channel` (as [`Self::find_open_challenge`]) when `user` is the
    /// one challenged: only they may accept or decline it.
    async fn find_challenge_to(
        &self,
        tx: &mut Tx,
        channel: ChannelId,
        user: UserId,
        id: Option<ChallengeId>,
    ) -> Result<ChallengeRow, ServiceError> {
        let c = self.find_open_challenge(tx, channel, id).await?;
        if to_db_id(user.0) != c.opponent_id {
            return Err(ServiceError::NotYourChallenge {
                challenger: UserId(from_db_id(c.challenger_id)),
                opponent: UserId(from_db_id(c.opponent_id)),
            });
        }
        Ok(c)
    }

    /// `user` accepts the open challenge of `channel` (the one with id `challenge`, if given,
    /// e.g. from a button): the game starts, colours are assigned.
    ///
    /// # Errors
    /// [`ServiceError::NoChallenge`], [`ServiceError::NotYourChallenge`] (only the challenged user
    /// may accept), [`ServiceError::ChallengeExpired`], [`ServiceError::ChannelBusy`], `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn accept(
        &self,
        channel: ChannelId,
        user: UserId,
        challenge: Option<ChallengeId>,
    ) -> Result<Reply, ServiceError> {
        let now = self.now();
        let mut tx = self.store.begin_write().await?;
        let c = self
            .find_challenge_to(&mut tx, channel, user, challenge)
            .await?;
        if c.expires_at <= now {
            store::expire_challenges(&mut tx, c.channel_id, now).await?;
            tx.commit().await?;
            return Err(ServiceError::ChallengeExpired);
        }
        if let Some(g) = store::active_game(&mut tx, c.channel_id).await? {
            return Err(ServiceError::ChannelBusy(GameId(g.id)));
        }
        let view = challenge_view(&c);
        let challenger_white = match view.color {
            ColorChoice::White => true,
            ColorChoice::Black => false,
            ColorChoice::Random => rand::random_bool(0.5),
        };
        let (white, black) = if challenger_white {
            (c.challenger_id, c.opponent_id)
        } else {
            (c.opponent_id, c.challenger_id)
        };
        let start = Position::start(view.ruleset);
        let start_fen = start.fen();
        let new = store::NewGame {
            channel_id: c.channel_id,
            white_id: white,
            black_id: black,
            ruleset: view.ruleset,
            start_fen: &start_fen,
            now,
            computer: None,
        };
        let game_id = match store::insert_game(&mut tx, &new).await {
            Ok(id) => id,
            Err(e) if store::is_unique_violation(&e) => return Err(ServiceError::Conflict),
            Err(e) => return Err(e.into()),
        };
        if !store::close_challenge(&mut tx, c.id, ChallengeState::Accepted, now, Some(game_id))
            .await?
        {
            return Err(ServiceError::Conflict);
        }
        let row = store::game(&mut tx, game_id)
            .await?
            .ok_or_else(|| anyhow!("game {game_id} vanished"))?;
        tx.commit().await?;
        let g = Loaded::started(row, Game::from_position(start));
        self.cache.put(g.row.id, g.row.version, &g.m);
        Ok(g.reply(Event::Started, Some(user), None))
    }

    /// `user` declines the open challenge (only the challenged user may).
    ///
    /// # Errors
    /// [`ServiceError::NoChallenge`], [`ServiceError::NotYourChallenge`], `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn decline(
        &self,
        channel: ChannelId,
        user: UserId,
        challenge: Option<ChallengeId>,
    ) -> Result<ChallengeView, ServiceError> {
        let now = self.now();
        let mut tx = self.store.begin_write().await?;
        let c = self
            .find_challenge_to(&mut tx, channel, user, challenge)
            .await?;
        if !store::close_challenge(&mut tx, c.id, ChallengeState::Declined, now, None).await? {
            return Err(ServiceError::Conflict);
        }
        let row = store::challenge(&mut tx, c.id)
            .await?
            .ok_or_else(|| anyhow!("challenge {} vanished", c.id))?;
        tx.commit().await?;
        Ok(challenge_view(&row))
    }

    /// The challenger withdraws their open challenge in `channel`.
    ///
    /// # Errors
    /// [`ServiceError::NoChallenge`], [`ServiceError::NotYourChallenge`], `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn withdraw(
        &self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<ChallengeView, ServiceError> {
        let now = self.now();
        let mut tx = self.store.begin_write().await?;
        let c = self.find_open_challenge(&mut tx, channel, None).await?;
        if to_db_id(user.0) != c.challenger_id {
            return Err(ServiceError::NotYourChallenge {
                challenger: UserId(from_db_id(c.challenger_id)),
                opponent: UserId(from_db_id(c.opponent_id)),
            });
        }
        if !store::close_challenge(&mut tx, c.id, ChallengeState::Withdrawn, now, None).await? {
            return Err(ServiceError::Conflict);
        }
        let row = store::challenge(&mut tx, c.id)
            .await?
            .ok_or_else(|| anyhow!("challenge {} vanished", c.id))?;
        tx.commit().await?;
        Ok(challenge_view(&row))
    }
}
