//! Channels the bot may only answer in: where the platform lets it answer a user's request but
//! not post a message of its own (on Discord: a DM or group DM with the app installed to a
//! user's account, not a member of the channel). The adapter learns them from the requests and
//! records them here, so that after a restart it still knows not to post there: what it would
//! post (the computer's move, a flag that fell) waits for the next request in the channel.

use super::{ChannelId, GameService, ServiceError};
use crate::store;

impl GameService {
    /// Records `channel` as a channel the bot may only answer in (idempotent: a channel already
    /// recorded keeps its first time).
    ///
    /// # Errors
    /// `Internal` only (database errors).
    #[tracing::instrument(skip(self))]
    pub async fn add_answer_only_channel(&self, channel: ChannelId) -> Result<(), ServiceError> {
        let mut tx = self.store.begin_write().await?;
        store::add_answer_only_channel(&mut tx, channel, self.now_ms()).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Forgets that `channel` takes only answers (its server added the bot since).
    ///
    /// # Errors
    /// `Internal` only (database errors).
    pub async fn remove_answer_only_channel(&self, channel: ChannelId) -> Result<(), ServiceError> {
        let mut tx = self.store.begin_write().await?;
        store::remove_answer_only_channel(&mut tx, channel).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Every channel recorded by [`GameService::add_answer_only_channel`], in no order.
    ///
    /// # Errors
    /// `Internal` only (database errors).
    pub async fn answer_only_channels(&self) -> Result<Vec<ChannelId>, ServiceError> {
        let mut conn = self.store.read_conn().await?;
        Ok(store::answer_only_channels(&mut conn).await?)
    }
}
