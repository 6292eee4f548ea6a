//! An HTTP control API over a [`Standin`], for a driver in another process (the crash test
//! and example start the real bot binary, kill it and restart it while the stand-in, in the
//! `standin-server` binary, keeps its state). JSON in and out; ids are numbers (snowflakes fit
//! a `u64`). Nothing waits: a driver polls.
//!
//! - `GET /status`: `{"registrations", "identifies", "resumes", "connected", "shards",
//!   "shards_connected": [shard ids], "errors": [...]}` (`connected`: some shard has a
//!   connection; `shards`: the shard count).
//! - `POST /channel-guild` `{"channel", "guild"}`: places the channel in that guild (see
//!   [`Standin::put_channel_in_guild`]; with several shards its interactions go to that guild's
//!   shard), `{}`.
//! - `POST /users` `{"name", "locale"}`: adds a user, `{"id"}`.
//! - `POST /dm` `{"users": [id, id, ...]}`: a DM between two users ([`Standin::dm`], the same
//!   channel for the same two), a new group DM for 3 to 10 ([`Standin::group_dm`]); the bot is
//!   not in it (a user-installed app). `{"channel"}`; 400 for unknown users, a user given
//!   twice, fewer than 2 or more than 10.
//! - `POST /command` `{"user": name, "channel", "name", "options": [[option, text], ...]}`:
//!   sends the slash command (options as text, see [`Standin::options`]), `{"token"}`; 400 for
//!   options that cannot be read, 503 when no bot session can take it.
//! - `POST /click` `{"user": name, "channel", "label"}`: presses the newest enabled button of
//!   that label, `{"token"}`; 404 without one, 503 as above.
//! - `POST /outcomes` `{"tokens": [...]}`: `{token: outcome or null}` for each, `null` while
//!   not answered for good; an outcome is `{"callback_type", "ephemeral", "messages": [...]}`.
//! - `GET /messages/{channel}`: every message of the channel, oldest first.
//!
//! A message is `{"id", "interaction_user", "ephemeral_for", "deleted", "thinking", "text",
//! "attachments": [file names], "buttons": [[label, custom_id, disabled], ...]}`.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Map, Value};

use crate::interact::borrowed;
use crate::{Message, Outcome, Standin};

type Answer = (StatusCode, Json<Value>);

/// The control routes over `standin`.
pub fn routes(standin: Arc<Standin>) -> Router {
    Router::new()
        .route("/status", get(status))
        .route("/users", post(add_user))
        .route("/dm", post(dm))
        .route("/channel-guild", post(channel_guild))
        .route("/command", post(command))
        .route("/click", post(click))
        .route("/outcomes", post(outcomes))
        .route("/messages/{channel}", get(messages))
        .with_state(standin)
}

fn ok(v: Value) -> Answer {
    (StatusCode::OK, Json(v))
}

fn refused(code: StatusCode, why: impl Into<String>) -> Answer {
    (code, Json(json!({"error": why.into()})))
}

/// The JSON of a message (see the module's documentation).
pub fn message_json(m: &Message) -> Value {
    json!({
        "id": m.id,
        "interaction_user": m.interaction_user,
        "ephemeral_for": m.ephemeral_for,
        "deleted": m.deleted,
        "thinking": m.thinking,
        "text": m.text(),
        "attachments": m.attachments.iter().map(|a| a.filename.clone()).collect::<Vec<_>>(),
        "buttons": m.buttons(),
    })
}

fn outcome_json(o: &Outcome) -> Value {
    json!({
        "callback_type": o.callback_type(),
        "ephemeral": o.is_ephemeral(),
        "messages": o.messages.iter().map(message_json).collect::<Vec<_>>(),
    })
}

async fn status(State(st): State<Arc<Standin>>) -> Answer {
    ok(json!({
        "registrations": st.registrations(),
        "identifies": st.identifies(),
        "resumes": st.resumes(),
        "connected": st.gateway_connected(),
        "shards": st.shards(),
        "shards_connected": st.shards_connected(),
        "errors": st.errors(),
    }))
}

async fn channel_guild(State(st): State<Arc<Standin>>, Json(v): Json<Value>) -> Answer {
    let (Some(channel), Some(guild)) = (v["channel"].as_u64(), v["guild"].as_u64()) else {
        return refused(StatusCode::BAD_REQUEST, "needs a channel and a guild");
    };
    st.put_channel_in_guild(channel, guild);
    ok(json!({}))
}

async fn add_user(State(st): State<Arc<Standin>>, Json(v): Json<Value>) -> Answer {
    let Some(name) = v["name"].as_str() else {
        return refused(StatusCode::BAD_REQUEST, "a user needs a name");
    };
    let user = st.user(name, v["locale"].as_str().unwrap_or("en-US"));
    ok(json!({"id": user.id}))
}

async fn dm(State(st): State<Arc<Standin>>, Json(v): Json<Value>) -> Answer {
    let ids: Vec<u64> = v["users"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_u64)
        .collect();
    let known = st.shared.lock().users.clone();
    let users: Vec<_> = ids
        .iter()
        .filter_map(|id| known.iter().find(|u| u.id == *id))
        .collect();
    let mut distinct = ids.clone();
    distinct.sort_unstable();
    distinct.dedup();
    let well_formed = v["users"].as_array().is_some_and(|a| a.len() == ids.len());
    if !well_formed || users.len() != ids.len() || distinct.len() != ids.len() {
        return refused(
            StatusCode::BAD_REQUEST,
            "needs the ids of distinct known users",
        );
    }
    let channel = match users.as_slice() {
        [a, b] => st.dm(a, b),
        _ if (3..=10).contains(&users.len()) => st.group_dm(&users),
        _ => return refused(StatusCode::BAD_REQUEST, "a DM has 2 to 10 users"),
    };
    ok(json!({ "channel": channel }))
}

async fn command(State(st): State<Arc<Standin>>, Json(v): Json<Value>) -> Answer {
    let (Some(user), Some(channel), Some(name)) = (
        v["user"].as_str().and_then(|u| st.user_named(u)),
        v["channel"].as_u64(),
        v["name"].as_str(),
    ) else {
        return refused(
            StatusCode::BAD_REQUEST,
            "needs a known user, a channel, a name",
        );
    };
    let text: Vec<(String, String)> = v["options"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|pair| {
            Some((
                pair.get(0)?.as_str()?.to_owned(),
                pair.get(1)?.as_str()?.to_owned(),
            ))
        })
        .collect();
    let text: Vec<(&str, &str)> = text.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let options = match st.options(name, &text) {
        Ok(o) => o,
        Err(e) => return refused(StatusCode::BAD_REQUEST, e),
    };
    match st.try_send_command(&user, channel, name, &borrowed(&options)) {
        Some(token) => ok(json!({"token": token})),
        None => refused(StatusCode::SERVICE_UNAVAILABLE, "no bot session"),
    }
}

async fn click(State(st): State<Arc<Standin>>, Json(v): Json<Value>) -> Answer {
    let (Some(user), Some(channel), Some(label)) = (
        v["user"].as_str().and_then(|u| st.user_named(u)),
        v["channel"].as_u64(),
        v["label"].as_str(),
    ) else {
        return refused(
            StatusCode::BAD_REQUEST,
            "needs a known user, a channel, a label",
        );
    };
    let Some((message, custom_id)) = st.find_button(channel, &user, label) else {
        return refused(StatusCode::NOT_FOUND, format!("no button {label:?}"));
    };
    match st.try_send_click(&user, message, &custom_id) {
        Some(token) => ok(json!({"token": token})),
        None => refused(StatusCode::SERVICE_UNAVAILABLE, "no bot session"),
    }
}

async fn outcomes(State(st): State<Arc<Standin>>, Json(v): Json<Value>) -> Answer {
    let mut out = Map::new();
    for token in v["tokens"].as_array().into_iter().flatten() {
        if let Some(token) = token.as_str() {
            let outcome = st.outcome(token).map_or(Value::Null, |o| outcome_json(&o));
            out.insert(token.to_owned(), outcome);
        }
    }
    ok(Value::Object(out))
}

async fn messages(State(st): State<Arc<Standin>>, Path(channel): Path<u64>) -> Answer {
    let all: Vec<Value> = st
        .channel_messages(channel)
        .iter()
        .map(message_json)
        .collect();
    ok(Value::Array(all))
}
