//! The gateway websocket (`ws://…/gateway`): HELLO, READY in answer to IDENTIFY, RESUME of a
//! session whose connection dropped, HEARTBEAT_ACK, and the dispatches the stand-in sends
//! (INTERACTION_CREATE). One session at a time carries dispatches: the last one identified.
//!
//! As Discord documents it (<https://discord.com/developers/docs/events/gateway>, "Resuming"):
//! a session outlives its connection. Dispatches sent while it has none are kept; a RESUME
//! with the session id and the last sequence number received gets every later dispatch
//! replayed in order, then RESUMED. A RESUME of an unknown or invalidated session gets
//! INVALID_SESSION (op 9, `d: false`: identify afresh). The faults a test can inject:
//! [`Standin::drop_gateway`] (the connection breaks, no close frame),
//! [`Standin::invalidate_session`] (op 9) and [`Standin::request_reconnect`] (op 7).

use std::sync::Arc;

use axum::extract::ws::{Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use serenity::model::gateway::Ready;
use tokio::sync::mpsc;

use crate::model::bot_user_json;
use crate::state::Shared;
use crate::{Standin, APP_ID, GUILD_ID, TOKEN};

/// The heartbeat interval HELLO asks for, in milliseconds (Discord's usual value).
const HEARTBEAT_INTERVAL_MS: u64 = 41_250;

/// How many dispatches a session keeps for a RESUME (the stand-in's tests send far fewer
/// between a drop and the resume).
const KEPT_DISPATCHES: usize = 10_000;

/// What a connection's task is told to do.
#[derive(Debug)]
pub(crate) enum Out {
    /// Send this text frame.
    Frame(String),
    /// Break the connection without a close frame, as a network fault would.
    Drop,
}

/// The gateway session (the last identified) and its connection, if it has one.
#[derive(Default)]
pub(crate) struct Sessions {
    current: Option<Session>,
    /// RESUMEs that were answered with the missed dispatches and RESUMED.
    resumes: u32,
}

struct Session {
    id: String,
    /// The connection carrying the session's dispatches; `None` while it has none.
    conn: Option<mpsc::UnboundedSender<Out>>,
    /// Dispatches sent in this session: (sequence number, frame), oldest first.
    sent: Vec<(u64, String)>,
    /// False once invalidated (op 9): a RESUME of it is refused.
    resumable: bool,
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
                        let id = format!("session-{}", s.snowflake());
                        if !send(&mut sink, ready_event(&s, &id)).await { break; }
                        s.lock().identifies += 1;
                        s.session().current = Some(Session {
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
    if let Some(cur) = sessions.current.as_mut() {
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
/// after its `seq`; `None` if that session is not the current one or was invalidated.
fn resume(s: &Shared, v: &Value, tx: &mpsc::UnboundedSender<Out>) -> Option<Vec<String>> {
    let id = v.pointer("/d/session_id").and_then(Value::as_str)?;
    let seq = v.pointer("/d/seq").and_then(Value::as_u64).unwrap_or(0);
    let mut sessions = s.session();
    let cur = sessions.current.as_mut()?;
    if cur.id != id || !cur.resumable {
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

/// READY for session `id`, checked to be readable by serenity.
///
/// # Panics
/// If serenity cannot read it (a fault of the stand-in).
fn ready_event(s: &Shared, id: &str) -> String {
    let d = json!({
        "v": 10,
        "user": bot_user_json(),
        "guilds": [{"id": GUILD_ID.to_string(), "unavailable": true}],
        "session_id": id,
        "resume_gateway_url": s.gateway_url(),
        "shard": [0, 1],
        "application": {"id": APP_ID.to_string(), "flags": 0},
    });
    if let Err(e) = serde_json::from_value::<Ready>(d.clone()) {
        panic!("stand-in built a READY serenity cannot read: {e}");
    }
    json!({"op": 0, "s": s.next_seq(), "t": "READY", "d": d}).to_string()
}

/// Whether a bot's gateway session is identified and has a connection for dispatches.
pub(crate) fn connected(s: &Shared) -> bool {
    s.session()
        .current
        .as_ref()
        .is_some_and(|c| c.conn.is_some())
}

/// Sends the dispatch `event` with `data` in the current session: at once if it has a
/// connection, else at its RESUME. False if there is no session to send it in (no bot ever
/// identified, or the session was invalidated or its bot is gone for good).
pub(crate) fn dispatch(s: &Shared, event: &str, data: Value) -> bool {
    let mut sessions = s.session();
    let Some(cur) = sessions.current.as_mut().filter(|c| c.resumable) else {
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

/// Sends `out` to the current session's connection; false if it has none.
fn to_connection(s: &Shared, out: Out) -> bool {
    s.session()
        .current
        .as_ref()
        .and_then(|c| c.conn.as_ref())
        .is_some_and(|c| c.send(out).is_ok())
}

impl Standin {
    /// Breaks the bot's gateway connection as a network fault would (no close frame). The
    /// session stays resumable: dispatches sent until the bot resumes are replayed then.
    /// False if the bot had no connection.
    pub fn drop_gateway(&self) -> bool {
        to_connection(&self.shared, Out::Drop)
    }

    /// Invalidates the bot's gateway session: INVALID_SESSION (op 9, `d: false`), after which
    /// it must identify afresh (its RESUME is refused). Interactions sent before it identifies
    /// again are not delivered. False if the bot had no connection.
    pub fn invalidate_session(&self) -> bool {
        let frame = json!({"op": 9, "d": false}).to_string();
        let sent = to_connection(&self.shared, Out::Frame(frame));
        if let Some(cur) = self.shared.session().current.as_mut() {
            cur.resumable = false;
        }
        sent
    }

    /// Asks the bot to reconnect (RECONNECT, op 7): it should close the connection and resume.
    /// False if the bot had no connection.
    pub fn request_reconnect(&self) -> bool {
        to_connection(
            &self.shared,
            Out::Frame(json!({"op": 7, "d": null}).to_string()),
        )
    }

    /// How many RESUMEs the gateway has accepted (missed dispatches replayed, RESUMED sent).
    pub fn resumes(&self) -> u32 {
        self.shared.session().resumes
    }

    /// Whether a bot's gateway session has a connection now.
    pub fn gateway_connected(&self) -> bool {
        connected(&self.shared)
    }
}
