//! What the bot says in a channel without being asked: a change to a game that no command of the
//! channel's users caused (the computer's reply, a flag falling, a reminder).
//!
//! The service only hands these out as plain values, in the order the changes were committed;
//! the Discord adapter (`crate::discord::announce`) takes the receiving end once at start-up and
//! posts each one to its channel. Each is sent after its transaction committed, so an
//! announcement always describes a stored change.
//!
//! The reverse (every stored move reaches the channel) is kept by the "announced" mark of each
//! move (migration `0005_announced.sql`): a move is stored unmarked; whoever shows a board of the
//! game in its channel (the answer to `/move`, the computer's reply, a re-post) marks every move
//! up to that board ([`GameService::mark_announced`]); and the moves still unmarked after a crash,
//! a shutdown or Discord failures are handed out again ([`GameService::unannounced`]) to be
//! posted. At least once: a crash between Discord's acknowledgement and the mark posts the board
//! twice, which is better than never.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

use super::challenges::ClosedChallenge;
use super::persist::load;
use super::{ChannelId, Event, GameId, GameService, Reply, ServiceError, UserId};
use crate::i18n::Locale;
use crate::store;

/// A message for a channel that no interaction answers.
#[derive(Clone, Debug)]
pub enum Announcement {
    /// A move nobody typed (the computer's reply): shown like the answer to `/move`, board and
    /// status, the player to move pinged.
    Move {
        /// Where the game is played.
        channel: ChannelId,
        /// The game after the move.
        reply: Reply,
        /// The language of the message: the server's ([`GameService::game_locale`]).
        locale: Locale,
    },
    /// The side to move's time ran out: the game is over (lost, drawn or aborted on time, see
    /// the reply's end), both players pinged.
    TimedOut {
        /// Where the game was played.
        channel: ChannelId,
        /// The game as it ended (event [`super::Event::TimedOut`]).
        reply: Reply,
        /// The language of the message: the server's ([`GameService::game_locale`]).
        locale: Locale,
    },
    /// A correspondence game's player to move has less than a sixth of the period left (once
    /// per move): a ping with the deadline.
    Reminder {
        /// Where the game is played.
        channel: ChannelId,
        /// The game.
        game: GameId,
        /// The player to move.
        user: UserId,
        /// Unix milliseconds by which they must move.
        deadline_ms: i64,
        /// The language of the message: the server's ([`GameService::game_locale`]).
        locale: Locale,
    },
    /// A challenge closed without a press on its message (it expired, or `/accept` or
    /// `/decline` answered it): the message is edited to say so, without its buttons.
    ChallengeClosed {
        /// Where the challenge was made.
        channel: ChannelId,
        /// The challenge and its message.
        closed: ClosedChallenge,
        /// The language of the message: the server's.
        locale: Locale,
    },
}

impl Announcement {
    /// The channel the announcement goes to.
    #[must_use]
    pub fn channel(&self) -> ChannelId {
        match self {
            Announcement::Move { channel, .. }
            | Announcement::TimedOut { channel, .. }
            | Announcement::Reminder { channel, .. }
            | Announcement::ChallengeClosed { channel, .. } => *channel,
        }
    }

    /// The language its message is written in (its server's preferred locale when it was made).
    #[must_use]
    pub fn locale(&self) -> Locale {
        match self {
            Announcement::Move { locale, .. }
            | Announcement::TimedOut { locale, .. }
            | Announcement::Reminder { locale, .. }
            | Announcement::ChallengeClosed { locale, .. } => *locale,
        }
    }

    /// The moves it shows, for the "announced" mark: game and plies (every move before that
    /// ply). `None` for a reminder or a closed challenge (no board).
    #[must_use]
    pub fn shows(&self) -> Option<(GameId, u32)> {
        match self {
            Announcement::Move { reply, .. } | Announcement::TimedOut { reply, .. } => {
                Some((reply.game_id, reply.status.plies))
            }
            Announcement::Reminder { .. } | Announcement::ChallengeClosed { .. } => None,
        }
    }
}

/// The sending end, shared by the service's clones, and the receiving end until it is taken.
pub(super) struct Announcer {
    tx: UnboundedSender<Announcement>,
    rx: Mutex<Option<UnboundedReceiver<Announcement>>>,
    /// How many have been queued.
    sent: AtomicU64,
}

impl Default for Announcer {
    fn default() -> Self {
        let (tx, rx) = unbounded_channel();
        Announcer {
            tx,
            rx: Mutex::new(Some(rx)),
            sent: AtomicU64::new(0),
        }
    }
}

impl GameService {
    /// The stream of [`Announcement`]s, in commit order. The first call gets it; later calls get
    /// `None` (one poster per service).
    #[must_use]
    pub fn announcements(&self) -> Option<UnboundedReceiver<Announcement>> {
        self.announcer
            .rx
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
    }

    /// Queues `announcement` (call only after the change it describes committed). Never blocks;
    /// when nobody listens (tests that do not take the stream) it is kept until the service drops.
    pub(super) fn announce(&self, announcement: Announcement) {
        // A send fails only when the receiver was taken and dropped: nobody posts any more.
        let _ = self.announcer.tx.send(announcement);
        self.announcer.sent.fetch_add(1, Ordering::SeqCst);
    }

    /// The locale of `game`'s announcements ([`GameService::game_locale`]); the default one,
    /// logged, when it cannot be read.
    pub(super) async fn announcement_locale(&self, game: GameId) -> Locale {
        self.game_locale(game).await.unwrap_or_else(|e| {
            tracing::warn!(game = game.0, error = %e, "cannot read the server's locale");
            Locale::default()
        })
    }

    /// How many announcements have been queued so far (a poster that has posted as many is
    /// done: the simulator waits for that).
    #[must_use]
    pub fn announced(&self) -> u64 {
        self.announcer.sent.load(Ordering::SeqCst)
    }

    /// A board of `game` after `plies` plies reached its channel: its moves before that ply are
    /// announced. Marking again is harmless; a board with no plies has nothing to mark (no
    /// write transaction is opened for it).
    ///
    /// # Errors
    /// Database errors.
    pub async fn mark_announced(&self, game: GameId, plies: u32) -> Result<(), ServiceError> {
        if plies == 0 {
            return Ok(());
        }
        let mut tx = self.store.begin_write().await?;
        let marked = store::mark_announced(&mut tx, game, i64::from(plies)).await?;
        tx.commit().await?;
        tracing::debug!(game = game.0, plies, marked, "announced");
        Ok(())
    }

    /// Whether a board of `game` after `plies` plies would show a move not yet announced (an
    /// announcement already posted by [`GameService::unannounced`]'s re-post needs no second
    /// post).
    ///
    /// # Errors
    /// Database errors.
    pub async fn needs_announcing(&self, game: GameId, plies: u32) -> Result<bool, ServiceError> {
        let mut conn = self.store.read_conn().await?;
        Ok(store::has_unannounced(&mut conn, game, i64::from(plies)).await?)
    }

    /// Every game with a stored move not yet announced, as the announcement to post: the game
    /// as it stands now (board and status, the last move named, the player to move pinged; both
    /// players if it is over). Posting it and marking it ([`GameService::mark_announced`] with
    /// [`Announcement::shows`]) announces all its moves.
    ///
    /// # Errors
    /// Database errors; a stored game that cannot be replayed.
    pub async fn unannounced(&self) -> Result<Vec<Announcement>, ServiceError> {
        let ids = {
            let mut conn = self.store.read_conn().await?;
            store::unannounced_games(&mut conn).await?
        };
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            let mut tx = self.store.begin_read().await?;
            let Some(row) = store::game(&mut tx, id).await? else {
                continue;
            };
            let channel = row.channel_id;
            let mut g = load(&self.cache, &mut tx, row).await?;
            tx.commit().await?;
            g.now_ms = self.now_ms();
            let n = g.m.moves().len();
            // Unmarked moves of a game taken back to its start are gone with the takeback.
            let Some(last) = g.m.moves().last().copied() else {
                continue;
            };
            let san = makruk::san::to_san(&g.m.positions()[n - 1], &last);
            let mover = g.player(g.m.positions()[n - 1].turn());
            let reply = g.reply(Event::Moved, Some(mover), Some(san));
            let locale = self.announcement_locale(id).await;
            out.push(Announcement::Move {
                channel,
                reply,
                locale,
            });
        }
        Ok(out)
    }
}
