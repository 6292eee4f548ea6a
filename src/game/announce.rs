//! What the bot says in a channel without being asked: a change to a game that no command of the
//! channel's users caused (the computer's reply, a flag falling, a reminder).
//!
//! The service only hands these out as plain values, in the order the changes were committed;
//! the Discord adapter (`crate::discord::announce`) takes the receiving end once at start-up and
//! posts each one to its channel. Each is sent after its transaction committed, so an
//! announcement always describes a stored change (the reverse is not guaranteed: one sent while the
//! bot shuts down may never be posted; the game itself is in the database either way).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

use super::{ChannelId, GameId, GameService, Reply, UserId};

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
    },
    /// The side to move's time ran out: the game is over (lost, drawn or aborted on time, see
    /// the reply's end), both players pinged.
    TimedOut {
        /// Where the game was played.
        channel: ChannelId,
        /// The game as it ended (event [`super::Event::TimedOut`]).
        reply: Reply,
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
    },
}

impl Announcement {
    /// The channel the announcement goes to.
    #[must_use]
    pub fn channel(&self) -> ChannelId {
        match self {
            Announcement::Move { channel, .. }
            | Announcement::TimedOut { channel, .. }
            | Announcement::Reminder { channel, .. } => *channel,
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

    /// How many announcements have been queued so far (a poster that has posted as many is
    /// done: the simulator waits for that).
    #[must_use]
    pub fn announced(&self) -> u64 {
        self.announcer.sent.load(Ordering::SeqCst)
    }
}
