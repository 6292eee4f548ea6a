//! The gateway websocket (`ws://…/gateway`): HELLO, READY in answer to IDENTIFY, RESUME of a
//! session whose connection dropped, HEARTBEAT_ACK, and the dispatches the stand-in sends
//! (INTERACTION_CREATE). One session per shard carries dispatches: the last one identified.
//!
//! Sharding (<https://discord.com/developers/docs/events/gateway>, "Sharding"): the stand-in has
//! a shard count ([`Standin::set_shards`], 1 by default, also what `GET /gateway/bot` says).
//! IDENTIFY's `shard: [id, total]` (absent: `[0, 1]`) must name one of its shards with its
//! total: fewer shards than it has is closed with 4011 (sharding required), another total, a
//! shard id out of range or a shard that already has a live session with 4010 (invalid shard),
//! Discord's documented close codes
//! (<https://discord.com/developers/docs/topics/opcodes-and-status-codes>). A guild's dispatches
//! go to shard `(guild_id >> 22) % total` only, those without a guild (DMs) to shard 0; READY
//! lists the guilds of its shard and echoes the shard.
//!
//! As Discord documents it (<https://discord.com/developers/docs/events/gateway>, "Resuming"):
//! a session outlives its connection. Dispatches sent while it has none are kept; a RESUME
//! with the session id and the last sequence number received gets every later dispatch
//! replayed in order, then RESUMED. A RESUME of an unknown or invalidated session gets
//! INVALID_SESSION (op 9, `d: false`: identify afresh). The faults a test can inject:
//! [`Standin::drop_gateway`] (the connection breaks, no close frame),
//! [`Standin::invalidate_session`] (op 9) and [`Standin::request_reconnect`] (op 7).

use std::sync::Arc;

use axum::extract::ws::{CloseFrame, Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use serenity::model::gateway::Ready;
use tokio::sync::mpsc;

use crate::model::bot_user_json;
use crate::session::{Out, Session};
use crate::state::Shared;
use crate::{Standin, APP_ID, TOKEN};

/// The heartbeat interval HELLO asks for, in milliseconds (Discord's usual value).
const HEARTBEAT_INTERVAL_MS: u64 = 41_250;

/// How many dispatches a session keeps for a RESUME (the stand-in's tests send far fewer
/// between a drop and the resume).
const KEPT_DISPATCHES: usize = 10_000;

/// The shard of `guild` out of `total` shards (Discord's rule; no guild: shard 0).
#[must_use]
pub fn shard_of(guild: Option<u64>, total: u32) -> u32 {
    match guild {
        // The remainder is below `total`, a u32.
        Some(g) => u32::try_from((g >> 22) % u64::from(total.max(1))).unwrap_or(0),
        None => 0,
    }
}

/// Discord's close code for an IDENTIFY of `shard` (`[id, total]`) when the stand-in has
/// `total` shards and `live` says whether a shard already has a live session; `None`: fine.
fn refusal(
    shard: (u64, u64),
    total: u32,
    live: impl Fn(u32) -> bool,
) -> Option<(u16, &'static str)> {
    let (id, their_total) = shard;
    if their_total < u64::from(total) {
        return Some((4011, "Sharding required."));
    }
    let ok = their_total == u64::from(total) && id < their_total;
    match u32::try_from(id) {
        Ok(id) if ok && !live(id) => None,
        _ => Some((4010, "Invalid shard.")),
    }
}

/// IDENTIFY's `shard: [id, total]`, `[0, 1]` when absent or unreadable.
fn identify_shard(v: &Value) -> (u64, u64) {
    let shard = v.pointer("/d/shard").and_then(Value::as_array);
    match shard.map(|a| {
        (
            a.first().and_then(Value::as_u64),
            a.get(1).and_then(Value::as_u64),
        )
    }) {
        Some((Some(id), Some(total))) => (id, total),
        _ => (0, 1),
    }
}

/// The websocket route.
pub(crate) fn routes() -> Router<Arc<Shared>> {
    Router::new().route("/gateway", get(upgrade))
}

async fn upgrade(State(s): State<Arc<Shared>>, ws: WebSocketUpgrade) -> Response {
    ws.on_upgrade(move |socket| connection(s, socket))
}

async fn send(sink: &mut (impl SinkExt<WsMessage> + Unpin), frame: String) -> bool {
    sink.send(WsMessage::Text(frame.into())).await.is_ok()
}

/// One websocket connection: HELLO, then IDENTIFY or RESUME, then heartbeats and dispatches.
async fn connection(s: Arc<Shared>, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<Out>();
    let hello = json!({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}});
    if !send(&mut sink, hello.to_string()).await {
        return;
    }
    loop {
        tokio::select! {
            frame = stream.next() => {
                let Some(Ok(frame)) = frame else { break };
                let text = match frame {
                    WsMessage::Text(t) => t.to_string(),
                    WsMessage::Close(_) => break,
                    _ => continue,
                };
                let Ok(v) = serde_json::from_str::<Value>(&text) else {
                    s.error(format!("gateway: unreadable frame {text}"));
                    continue;
                };
                match v["op"].as_u64() {
                    // HEARTBEAT
                    Some(1) => {
                        if !send(&mut sink, json!({"op": 11}).to_string()).await { break; }
                    }
                    // IDENTIFY
                    Some(2) => {
                        if !token_ok(&v) {
                            s.error("gateway: IDENTIFY with a wrong token".to_owned());
                            let _ = sink.send(WsMessage::Close(None)).await;
                            break;
                        }
                        let shard = identify_shard(&v);
                        let refused = {
                            let sessions = s.session();
                            refusal(shard, sessions.total, |id| {
                                sessions.current.get(&id).is_some_and(|c| {
                                    c.resumable && c.conn.as_ref().is_some_and(|c| !c.is_closed())
                                })
                            })
                        };
                        if let Some((code, reason)) = refused {
                            s.error(format!("gateway: IDENTIFY of shard {shard:?} refused with {code}"));
                            let frame = CloseFrame { code, reason: reason.into() };
                            let _ = sink.send(WsMessage::Close(Some(frame))).await;
                            break;
                        }
                        // Checked by `refusal`: below the stand-in's total.
                        let (shard, total) = (shard.0 as u32, shard.1 as u32);
                        let id = format!("session-{}", s.snowflake());
                        if !send(&mut sink, ready_event(&s, &id, shard, total)).await { break; }
                        s.lock().identifies += 1;
                        s.session().current.insert(shard, Session {
                            id,
                            conn: Some(tx.clone()),
                            sent: Vec::new(),
                            resumable: true,
                        });
                        s.notify();
                    }
                    // RESUME: the missed dispatches in order, then RESUMED; or op 9.
                    Some(6) => {
                        let frames = if token_ok(&v) { resume(&s, &v, &tx) } else { None };
                        let Some(frames) = frames else {
                            if !send(&mut sink, json!({"op": 9, "d": false}).to_string()).await {
                                break;
                            }
                            continue;
                        };
                        // Queued behind the replay: dispatches sent from now on come after it.
                        let resumed = json!({"op": 0, "s": s.next_seq(), "t": "RESUMED", "d": {}});
                        for f in frames.into_iter().chain([resumed.to_string()]) {
                            let _ = tx.send(Out::Frame(f));
                        }
                        s.notify();
                    }
                    // PRESENCE_UPDATE, VOICE_STATE_UPDATE, REQUEST_GUILD_MEMBERS
                    Some(3 | 4 | 8) => {}
                    other => s.error(format!("gateway: unexpected op {other:?}")),
                }
            }
            out = rx.recv() => {
                match out {
                    Some(Out::Frame(f)) => {
                        if !send(&mut sink, f).await { break; }
                    }
                    // Returning drops the socket: the TCP connection closes without a close frame.
                    Some(Out::Drop) | None => break,
                }
            }
        }
    }
    let mut sessions = s.session();
    for cur in sessions.current.values_mut() {
        if cur.conn.as_ref().is_some_and(|c| c.same_channel(&tx)) {
            cur.conn = None;
        }
    }
    drop(sessions);
    s.notify();
}

/// Whether the IDENTIFY or RESUME `v` carries the stand-in's token.
fn token_ok(v: &Value) -> bool {
    let token = v.pointer("/d/token").and_then(Value::as_str);
    token == Some(TOKEN) || token == Some(&format!("Bot {TOKEN}"))
}

/// Attaches the connection `tx` to the session the RESUME `v` names and returns the dispatches
/// after its `seq`; `None` if that session is not the current one of its shard or was
/// invalidated.
fn resume(s: &Shared, v: &Value, tx: &mpsc::UnboundedSender<Out>) -> Option<Vec<String>> {
    let id = v.pointer("/d/session_id").and_then(Value::as_str)?;
    let seq = v.pointer("/d/seq").and_then(Value::as_u64).unwrap_or(0);
    let mut sessions = s.session();
    let cur = sessions.current.values_mut().find(|c| c.id == id)?;
    if !cur.resumable {
        return None;
    }
    cur.conn = Some(tx.clone());
    let frames = cur
        .sent
        .iter()
        .filter(|(n, _)| *n > seq)
        .map(|(_, f)| f.clone())
        .collect();
    sessions.resumes += 1;
    Some(frames)
}

/// READY for session `id` of `shard` out of `total`: the guilds of that shard. Checked to be
/// readable by serenity.
///
/// # Panics
/// If serenity cannot read it (a fault of the stand-in).
fn ready_event(s: &Shared, id: &str, shard: u32, total: u32) -> String {
    let guilds: Vec<Value> = s
        .guilds()
        .into_iter()
        .filter(|g| shard_of(Some(*g), total) == shard)
        .map(|g| json!({"id": g.to_string(), "unavailable": true}))
        .collect();
    let d = json!({
        "v": 10,
        "user": bot_user_json(),
        "guilds": guilds,
        "session_id": id,
        "resume_gateway_url": s.gateway_url(),
        "shard": [shard, total],
        "application": {"id": APP_ID.to_string(), "flags": 0},
    });
    if let Err(e) = serde_json::from_value::<Ready>(d.clone()) {
        panic!("stand-in built a READY serenity cannot read: {e}");
    }
    json!({"op": 0, "s": s.next_seq(), "t": "READY", "d": d}).to_string()
}

/// Whether a gateway session (of any shard) is identified and has a connection for dispatches.
pub(crate) fn connected(s: &Shared) -> bool {
    s.session().current.values().any(|c| c.conn.is_some())
}

/// Sends the dispatch `event` with `data` in the current session of its shard (by its
/// `guild_id`; none: shard 0): at once if it has a connection, else at its RESUME. False if
/// there is no session to send it in (no bot ever identified that shard, or the session was
/// invalidated or its bot is gone for good).
pub(crate) fn dispatch(s: &Shared, event: &str, data: Value) -> bool {
    let guild = data["guild_id"]
        .as_str()
        .and_then(|g| g.parse::<u64>().ok());
    let mut sessions = s.session();
    let shard = shard_of(guild, sessions.total);
    *sessions.dispatched.entry(shard).or_default() += 1;
    let Some(cur) = sessions.current.get_mut(&shard).filter(|c| c.resumable) else {
        return false;
    };
    let seq = s.next_seq();
    let frame = json!({"op": 0, "s": seq, "t": event, "d": data}).to_string();
    if cur.sent.len() == KEPT_DISPATCHES {
        cur.sent.remove(0);
    }
    cur.sent.push((seq, frame.clone()));
    match &cur.conn {
        // A send fails only if the connection's task just ended: the frame is kept for a
        // RESUME like any other sent while disconnected.
        Some(conn) => {
            let _ = conn.send(Out::Frame(frame));
            true
        }
        None => true,
    }
}

/// Sends `out()` to every current session's connection; false if none has one.
fn to_connection(s: &Shared, out: impl Fn() -> Out) -> bool {
    let sessions = s.session();
    let mut sent = false;
    for conn in sessions.current.values().filter_map(|c| c.conn.as_ref()) {
        sent |= conn.send(out()).is_ok();
    }
    sent
}

impl Standin {
    /// Breaks the bot's gateway connection as a network fault would (no close frame). The
    /// session stays resumable: dispatches sent until the bot resumes are replayed then.
    /// False if the bot had no connection.
    pub fn drop_gateway(&self) -> bool {
        to_connection(&self.shared, || Out::Drop)
    }

    /// Invalidates the bot's gateway session: INVALID_SESSION (op 9, `d: false`), after which
    /// it must identify afresh (its RESUME is refused). Interactions sent before it identifies
    /// again are not delivered. False if the bot had no connection.
    pub fn invalidate_session(&self) -> bool {
        let frame = json!({"op": 9, "d": false}).to_string();
        let sent = to_connection(&self.shared, || Out::Frame(frame.clone()));
        for cur in self.shared.session().current.values_mut() {
            cur.resumable = false;
        }
        sent
    }

    /// Asks the bot to reconnect (RECONNECT, op 7): it should close the connection and resume.
    /// False if the bot had no connection.
    pub fn request_reconnect(&self) -> bool {
        let frame = json!({"op": 7, "d": null}).to_string();
        to_connection(&self.shared, || Out::Frame(frame.clone()))
    }

    /// How many RESUMEs the gateway has accepted (missed dispatches replayed, RESUMED sent).
    pub fn resumes(&self) -> u32 {
        self.shared.session().resumes
    }

    /// Whether a bot's gateway session has a connection now.
    pub fn gateway_connected(&self) -> bool {
        connected(&self.shared)
    }

    /// Gives the stand-in `total` shards (at least 1; the default is 1): what
    /// `GET /gateway/bot` recommends, and the total an IDENTIFY must give. Set it before the bot
    /// connects.
    pub fn set_shards(&self, total: u32) {
        self.shared.session().total = total.max(1);
    }

    /// The shard count ([`Standin::set_shards`]).
    pub fn shards(&self) -> u32 {
        self.shared.session().total
    }

    /// The shards that have a session with a connection now, in order.
    pub fn shards_connected(&self) -> Vec<u32> {
        self.shared
            .session()
            .current
            .iter()
            .filter(|(_, c)| c.conn.is_some())
            .map(|(id, _)| *id)
            .collect()
    }

    /// Whether shard `shard` has a session with a connection now.
    pub fn shard_connected(&self, shard: u32) -> bool {
        self.shared
            .session()
            .current
            .get(&shard)
            .is_some_and(|c| c.conn.is_some())
    }

    /// How many dispatches were sent (or meant, with no session) to shard `shard`.
    pub fn dispatched(&self, shard: u32) -> u32 {
        self.shared
            .session()
            .dispatched
            .get(&shard)
            .copied()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::{refusal, shard_of};

    #[test]
    fn identify_shards_are_checked_as_discord_does() {
        let none_live = |_| false;
        assert_eq!(refusal((0, 1), 1, none_live), None);
        assert_eq!(refusal((1, 2), 2, none_live), None);
        // Fewer shards than the bot needs: sharding required.
        assert_eq!(refusal((0, 1), 2, none_live).map(|r| r.0), Some(4011));
        // Another total, a shard out of range, a shard already running: invalid shard.
        assert_eq!(refusal((0, 3), 2, none_live).map(|r| r.0), Some(4010));
        assert_eq!(refusal((2, 2), 2, none_live).map(|r| r.0), Some(4010));
        assert_eq!(refusal((1, 2), 2, |id| id == 1).map(|r| r.0), Some(4010));
        assert_eq!(refusal((0, 2), 2, |id| id == 1), None);
        assert_eq!(
            refusal((u64::MAX, u64::MAX), 2, none_live).map(|r| r.0),
            Some(4010)
        );
    }

    #[test]
    fn guilds_go_to_their_shard_and_dms_to_shard_0() {
        let guild = 1_100_000_000_000_000_003_u64;
        assert_eq!(shard_of(Some(guild), 1), 0);
        let s = shard_of(Some(guild), 2);
        assert_eq!(shard_of(Some(guild + (1 << 22)), 2), 1 - s);
        // Only the bits above the 22 low ones count.
        let base = guild & !0x3F_FFFF;
        assert_eq!(shard_of(Some(base | 0x3F_FFFF), 2), shard_of(Some(base), 2));
        assert_eq!(shard_of(None, 4), 0);
        assert_eq!(shard_of(Some(guild), 0), 0, "no shards counts as one");
    }
}
