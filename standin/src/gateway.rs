//! The gateway websocket (`ws://…/gateway`): HELLO, READY in answer to IDENTIFY,
//! HEARTBEAT_ACK, and the dispatches the stand-in sends (INTERACTION_CREATE). One session at a
//! time carries dispatches: the last one identified.
//! (<https://discord.com/developers/docs/events/gateway>)

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
use crate::{APP_ID, GUILD_ID, TOKEN};

/// The heartbeat interval HELLO asks for, in milliseconds (Discord's usual value).
const HEARTBEAT_INTERVAL_MS: u64 = 41_250;

/// The websocket route.
pub(crate) fn routes() -> Router<Arc<Shared>> {
    Router::new().route("/gateway", get(upgrade))
}

async fn upgrade(State(s): State<Arc<Shared>>, ws: WebSocketUpgrade) -> Response {
    ws.on_upgrade(move |socket| session(s, socket))
}

async fn send(sink: &mut (impl SinkExt<WsMessage> + Unpin), frame: Value) -> bool {
    sink.send(WsMessage::Text(frame.to_string().into()))
        .await
        .is_ok()
}

async fn session(s: Arc<Shared>, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<String>();
    let hello = json!({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}});
    if !send(&mut sink, hello).await {
        return;
    }
    let mut identified = false;
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
                        if !send(&mut sink, json!({"op": 11})).await { break; }
                    }
                    // IDENTIFY
                    Some(2) => {
                        let token = v.pointer("/d/token").and_then(Value::as_str);
                        if token != Some(TOKEN) && token != Some(&format!("Bot {TOKEN}")) {
                            s.error("gateway: IDENTIFY with a wrong token".to_owned());
                            let _ = sink.send(WsMessage::Close(None)).await;
                            break;
                        }
                        identified = true;
                        if !send(&mut sink, ready_event(&s)).await { break; }
                        s.lock().identifies += 1;
                        *s.session() = Some(tx.clone());
                        s.notify();
                    }
                    // RESUME: not supported here, so tell the bot to identify afresh.
                    Some(6) => {
                        if !send(&mut sink, json!({"op": 9, "d": false})).await { break; }
                    }
                    // PRESENCE_UPDATE, VOICE_STATE_UPDATE, REQUEST_GUILD_MEMBERS
                    Some(3 | 4 | 8) => {}
                    other => s.error(format!("gateway: unexpected op {other:?}")),
                }
            }
            out = rx.recv(), if identified => {
                let Some(out) = out else { break };
                if sink.send(WsMessage::Text(out.into())).await.is_err() { break; }
            }
        }
    }
    let mut session = s.session();
    if session.as_ref().is_some_and(|cur| cur.same_channel(&tx)) {
        *session = None;
    }
}

/// READY, checked to be readable by serenity.
///
/// # Panics
/// If serenity cannot read it (a fault of the stand-in).
fn ready_event(s: &Shared) -> Value {
    let d = json!({
        "v": 10,
        "user": bot_user_json(),
        "guilds": [{"id": GUILD_ID.to_string(), "unavailable": true}],
        "session_id": format!("session-{}", s.snowflake()),
        "resume_gateway_url": s.gateway_url(),
        "shard": [0, 1],
        "application": {"id": APP_ID.to_string(), "flags": 0},
    });
    if let Err(e) = serde_json::from_value::<Ready>(d.clone()) {
        panic!("stand-in built a READY serenity cannot read: {e}");
    }
    json!({"op": 0, "s": s.next_seq(), "t": "READY", "d": d})
}

/// Whether a bot's gateway session is identified and ready for dispatches.
pub(crate) fn connected(s: &Shared) -> bool {
    s.session().is_some()
}

/// Sends the dispatch `event` with `data` to the connected bot; false if none is connected.
pub(crate) fn dispatch(s: &Shared, event: &str, data: Value) -> bool {
    let frame = json!({"op": 0, "s": s.next_seq(), "t": event, "d": data}).to_string();
    s.session()
        .as_ref()
        .is_some_and(|tx| tx.send(frame).is_ok())
}
