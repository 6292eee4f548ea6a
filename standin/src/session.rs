//! The gateway's sessions as the stand-in keeps them: the last session identified on each
//! shard, its connection and the dispatches it was sent (for a RESUME). The gateway
//! (`gateway.rs`) drives them; the shared state (`state.rs`) holds them.

use std::collections::BTreeMap;

use tokio::sync::mpsc;

/// What a connection's task is told to do.
#[derive(Debug)]
pub(crate) enum Out {
    /// Send this text frame.
    Frame(String),
    /// Break the connection without a close frame, as a network fault would.
    Drop,
}

/// The gateway sessions (the last identified of each shard) and their connections.
pub(crate) struct Sessions {
    /// By shard id.
    pub(crate) current: BTreeMap<u32, Session>,
    /// RESUMEs that were answered with the missed dispatches and RESUMED.
    pub(crate) resumes: u32,
    /// How many shards the bot must run (at least 1).
    pub(crate) total: u32,
    /// Dispatches sent, by shard.
    pub(crate) dispatched: BTreeMap<u32, u32>,
}

impl Default for Sessions {
    fn default() -> Sessions {
        Sessions {
            current: BTreeMap::new(),
            resumes: 0,
            total: 1,
            dispatched: BTreeMap::new(),
        }
    }
}

/// One shard's session.
pub(crate) struct Session {
    /// The session id READY gave (what a RESUME names).
    pub(crate) id: String,
    /// The connection carrying the session's dispatches; `None` while it has none.
    pub(crate) conn: Option<mpsc::UnboundedSender<Out>>,
    /// Dispatches sent in this session: (sequence number, frame), oldest first.
    pub(crate) sent: Vec<(u64, String)>,
    /// False once invalidated (op 9): a RESUME of it is refused.
    pub(crate) resumable: bool,
}
