//! Games in their own thread, and the per-server settings: whether new games open a thread by
//! default (`/settings`), and the server's preferred locale, in which public messages are
//! written (also those sent outside any interaction: the computer's moves, flags, re-posts).
//!
//! The service knows a thread only as plain ids ([`Thread`]): the game's channel is the thread,
//! so the one-active-game rule holds per thread, and a channel hosts as many games as it has
//! threads. Opening the thread is the adapter's (`crate::discord`).

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use super::{ChallengeId, ChannelId, GameId, GameService, GuildId, ServiceError, UserId, Variant};
use crate::i18n::Locale;
use crate::store;

/// Where a game played in its own thread lives: the thread (the game's channel), and the
/// channel and message it was opened from (that message links to the thread and is updated with
/// the result). Plain ids: the adapter names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thread {
    /// The thread: the game's channel.
    pub channel: ChannelId,
    /// The channel the thread was opened in.
    pub parent_channel: ChannelId,
    /// The message the thread was opened from (a message id of `parent_channel`).
    pub parent_message: u64,
}

/// Where a new game is played: in `channel`, or in `thread` (its channel then) when one was
/// opened for it. A bare [`ChannelId`] converts into a place without a thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// The channel the game was asked for in.
    pub channel: ChannelId,
    /// The thread opened for the game, if any.
    pub thread: Option<Thread>,
}

impl Place {
    /// The game's channel: the thread's if there is one.
    #[must_use]
    pub fn game_channel(&self) -> ChannelId {
        self.thread.map_or(self.channel, |t| t.channel)
    }
}

impl From<ChannelId> for Place {
    fn from(channel: ChannelId) -> Place {
        Place {
            channel,
            thread: None,
        }
    }
}

/// A server's settings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GuildSettings {
    /// New challenges and `/play` games open a thread unless their `thread` option says no.
    pub thread_default: bool,
    /// The server's preferred locale (`None`: never seen).
    pub locale: Option<Locale>,
    /// A role whose members may create tournaments, besides those with Manage Server.
    pub tournament_role: Option<u64>,
}

/// The locales already stored (servers', or channels' outside a server, by id), so that an
/// interaction writes only when it changed.
#[derive(Debug, Default)]
pub(super) struct LocaleMemo(Mutex<HashMap<u64, Locale>>);

impl LocaleMemo {
    fn get(&self, id: u64) -> Option<Locale> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&id)
            .copied()
    }

    fn put(&self, id: u64, locale: Locale) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id, locale);
    }
}

impl GameService {
    /// The settings of `guild` (defaults if it never changed one).
    ///
    /// # Errors
    /// `Internal` only.
    pub async fn guild_settings(&self, guild: GuildId) -> Result<GuildSettings, ServiceError> {
        let mut conn = self.store.read_conn().await?;
        let row = store::guild_settings(&mut conn, guild).await?;
        Ok(GuildSettings {
            thread_default: row.thread_default,
            locale: row.locale.as_deref().map(Locale::from_tag),
            tournament_role: row.tournament_role,
        })
    }

    /// Lets the members with role `role` create tournaments on `guild` (a Discord role id; the
    /// server's own id is its @everyone role).
    ///
    /// # Errors
    /// `Internal` only.
    #[tracing::instrument(skip(self))]
    pub async fn set_tournament_role(&self, guild: GuildId, role: u64) -> Result<(), ServiceError> {
        let mut tx = self.store.begin_write().await?;
        store::set_tournament_role(&mut tx, guild, role).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Sets whether new games of `guild` open a thread when their `thread` option is not given.
    ///
    /// # Errors
    /// `Internal` only.
    #[tracing::instrument(skip(self))]
    pub async fn set_thread_default(&self, guild: GuildId, on: bool) -> Result<(), ServiceError> {
        let mut tx = self.store.begin_write().await?;
        store::set_thread_default(&mut tx, guild, on).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Records `locale` as `guild`'s preferred locale (Discord's `guild_locale`, sent with every
    /// interaction on a server); written only when it changed since the last one seen.
    ///
    /// # Errors
    /// `Internal` only.
    pub async fn remember_guild_locale(
        &self,
        guild: GuildId,
        locale: Locale,
    ) -> Result<(), ServiceError> {
        if self.locales.get(guild.0) == Some(locale) {
            return Ok(());
        }
        let mut tx = self.store.begin_write().await?;
        store::set_guild_locale(&mut tx, guild, locale.tag()).await?;
        tx.commit().await?;
        self.locales.put(guild.0, locale);
        Ok(())
    }

    /// The language of `channel`, a channel outside any server (a DM): that of the user of its
    /// first interaction (`first`, recorded now if it is the first), so that a game between a
    /// Thai and an English speaker does not switch language with every command. Public
    /// answers there, and the bot's own messages ([`GameService::game_locale`]), use it.
    ///
    /// # Errors
    /// `Internal` only.
    pub async fn channel_locale(
        &self,
        channel: ChannelId,
        first: Locale,
    ) -> Result<Locale, ServiceError> {
        if let Some(known) = self.channel_locales.get(channel.0) {
            return Ok(known);
        }
        let mut tx = self.store.begin_write().await?;
        let code = store::channel_locale_or(&mut tx, channel, first.tag()).await?;
        tx.commit().await?;
        let locale = Locale::from_tag(&code);
        self.channel_locales.put(channel.0, locale);
        Ok(locale)
    }

    /// The locale of `game`'s public messages: its server's preferred locale, or the default
    /// when the game has no server or its locale was never seen.
    ///
    /// # Errors
    /// `Internal` only.
    pub async fn game_locale(&self, game: GameId) -> Result<Locale, ServiceError> {
        let mut conn = self.store.read_conn().await?;
        let code = store::game_guild_locale(&mut conn, game).await?;
        Ok(code
            .as_deref()
            .map_or_else(Locale::default, Locale::from_tag))
    }

    /// The open challenge of `channel` (the one with id `challenge` if given) when it is
    /// addressed to `user` and asks for a thread: what an accept would start in a thread (the
    /// challenger, the challenged and the variant, for the thread's name). `None`
    /// otherwise (no such challenge, not theirs, no thread asked for: the accept itself then says
    /// what is wrong).
    ///
    /// # Errors
    /// `Internal` only.
    pub async fn challenge_wants_thread(
        &self,
        channel: ChannelId,
        user: UserId,
        challenge: Option<ChallengeId>,
    ) -> Result<Option<(UserId, UserId, Variant)>, ServiceError> {
        let now = self.now();
        let mut tx = self.store.begin_read().await?;
        let open = store::open_challenge(&mut tx, channel).await?;
        let wanted = match open {
            Some(c)
                if challenge.is_none_or(|id| id == c.id)
                    && c.opponent_id == user
                    && c.expires_at > now
                    && store::challenge_thread(&mut tx, c.id).await? =>
            {
                Some((c.challenger_id, c.opponent_id, c.variant))
            }
            _ => None,
        };
        tx.commit().await?;
        Ok(wanted)
    }

    /// The thread `game` is played in, if it has one.
    ///
    /// # Errors
    /// `Internal` only.
    pub async fn game_thread(&self, game: GameId) -> Result<Option<Thread>, ServiceError> {
        let mut conn = self.store.read_conn().await?;
        let Some(row) = store::game(&mut conn, game).await? else {
            return Ok(None);
        };
        let parent = store::game_parent(&mut conn, game).await?;
        Ok(parent.map(|(channel, message)| Thread {
            channel: row.channel_id,
            parent_channel: channel,
            parent_message: message,
        }))
    }
}
