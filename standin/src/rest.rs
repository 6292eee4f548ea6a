//! The REST API routes the bot calls (`/api/v10/…`): gateway discovery, the current user,
//! command registration, interaction callbacks, webhook follow-ups and edits, and channel
//! messages. Each request is checked against [`crate::limits`]; a violation is answered with
//! Discord's error and recorded.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, FromRequest, Multipart, Path, RawQuery, Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, patch, post, put};
use axum::{Json, Router};
use serde_json::{json, Value};
use serenity::model::application::Command;

use crate::faults::{answer_lost, faulty};
use crate::limits::{self, CALLBACK_DEADLINE};
use crate::model::{bot_user_json, Attachment, Message, Route, Thread, MAX_USER_APP_FOLLOWUPS};
use crate::state::{Inner, Shared};
use crate::{APP_ID, GUILD_ID, TOKEN};

/// Discord's largest upload (25 MiB).
const MAX_BODY: usize = 25 * 1024 * 1024;

/// The REST routes; anything else is recorded as an unknown route.
pub(crate) fn routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/api/v10/gateway", get(gateway_url))
        .route("/api/v10/gateway/bot", get(gateway_bot_url))
        .route("/api/v10/users/@me", get(current_user))
        .route(
            "/api/v10/applications/{app}/commands",
            put(put_global_commands).get(get_global_commands),
        )
        .route(
            "/api/v10/applications/{app}/guilds/{guild}/commands",
            put(put_guild_commands).get(get_guild_commands),
        )
        .route(
            "/api/v10/interactions/{id}/{token}/callback",
            post(callback),
        )
        .route("/api/v10/webhooks/{app}/{token}", post(followup))
        .route(
            "/api/v10/webhooks/{app}/{token}/messages/{message}",
            patch(edit_webhook_message)
                .get(get_webhook_message)
                .delete(delete_webhook_message),
        )
        .route(
            "/api/v10/channels/{channel}/messages",
            post(channel_message).get(channel_history),
        )
        .route(
            "/api/v10/channels/{channel}/messages/{message}",
            patch(edit_channel_message),
        )
        .route(
            "/api/v10/channels/{channel}/messages/{message}/threads",
            post(start_thread),
        )
        .route("/api/v10/users/{user}", get(user))
        .fallback(any(unknown_route))
        .layer(DefaultBodyLimit::max(MAX_BODY))
}

/// Discord's JSON error body.
fn discord_error(status: StatusCode, code: u32, message: &str) -> Response {
    (status, Json(json!({ "code": code, "message": message }))).into_response()
}

/// What Discord answers the bot for a channel it cannot see: a DM or group DM it is not in.
fn missing_access() -> Response {
    discord_error(StatusCode::FORBIDDEN, 50001, "Missing Access")
}

/// What Discord answers for an interaction token older than 15 minutes.
fn invalid_webhook_token() -> Response {
    discord_error(StatusCode::UNAUTHORIZED, 50027, "Invalid Webhook Token")
}

/// Refuses (403 50001, recorded) a channel route `what` in `channel` when the bot is not in it
/// (a DM or group DM where the app is only user-installed).
#[expect(
    clippy::result_large_err,
    reason = "the error is the response, as in axum handlers"
)]
fn check_member(s: &Shared, channel: u64, what: &str) -> Result<(), Response> {
    if s.lock().bot_outside(channel) {
        s.error(format!(
            "{what} in channel {channel}, a DM or group DM the bot is not in (50001 Missing Access)"
        ));
        return Err(missing_access());
    }
    Ok(())
}

fn invalid_form_body() -> Response {
    discord_error(StatusCode::BAD_REQUEST, 50035, "Invalid Form Body")
}

fn empty_message() -> Response {
    discord_error(
        StatusCode::BAD_REQUEST,
        50006,
        "Cannot send an empty message",
    )
}

async fn gateway_url(State(s): State<Arc<Shared>>) -> Json<Value> {
    Json(json!({ "url": s.gateway_url() }))
}

async fn gateway_bot_url(State(s): State<Arc<Shared>>) -> Json<Value> {
    Json(json!({
        "url": s.gateway_url(),
        "shards": s.session().total,
        "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1},
    }))
}

async fn current_user() -> Json<Value> {
    Json(bot_user_json())
}

async fn unknown_route(State(s): State<Arc<Shared>>, method: Method, uri: Uri) -> Response {
    s.error(format!("unknown route {method} {uri}"));
    discord_error(StatusCode::NOT_FOUND, 0, "404: Not Found")
}

#[expect(
    clippy::result_large_err,
    reason = "the error is the response, as in axum handlers"
)]
fn check_auth(s: &Shared, headers: &HeaderMap) -> Result<(), Response> {
    let auth = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if auth == format!("Bot {TOKEN}") {
        Ok(())
    } else {
        s.error("request without the bot token".to_owned());
        Err(discord_error(
            StatusCode::UNAUTHORIZED,
            0,
            "401: Unauthorized",
        ))
    }
}

// ---------- command registration ----------

fn register(s: &Shared, guild: Option<u64>, body: Value) -> Response {
    let Some(list) = body.as_array() else {
        s.error("command registration is not a list".to_owned());
        return invalid_form_body();
    };
    let mut problems = Vec::new();
    limits::check_commands(list, &mut problems);
    if !problems.is_empty() {
        s.error(format!("command registration refused: {problems:?}"));
        return invalid_form_body();
    }
    let stored: Vec<Value> = list
        .iter()
        .map(|c| {
            let mut c = c.clone();
            c["id"] = json!(s.snowflake().to_string());
            c["application_id"] = json!(APP_ID.to_string());
            c["version"] = json!(s.snowflake().to_string());
            if c.get("type").is_none() {
                c["type"] = json!(1);
            }
            if let Some(g) = guild {
                c["guild_id"] = json!(g.to_string());
            }
            if c.get("default_member_permissions").is_none() {
                c["default_member_permissions"] = Value::Null;
            }
            c
        })
        .collect();
    for c in &stored {
        if let Err(e) = serde_json::from_value::<Command>(c.clone()) {
            s.error(format!(
                "stand-in built a command serenity cannot read: {e}"
            ));
        }
    }
    {
        let mut inner = s.lock();
        inner.commands.insert(guild, stored.clone());
        inner.registrations += 1;
    }
    s.notify();
    Json(Value::Array(stored)).into_response()
}

async fn put_global_commands(
    State(s): State<Arc<Shared>>,
    Path(app): Path<String>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if let Err(r) = check_auth(&s, &headers) {
        return r;
    }
    if app != APP_ID.to_string() {
        s.error(format!("commands registered for unknown application {app}"));
        return discord_error(StatusCode::NOT_FOUND, 10002, "Unknown Application");
    }
    register(&s, None, body)
}

async fn get_global_commands(State(s): State<Arc<Shared>>) -> Json<Value> {
    Json(Value::Array(
        s.lock().commands.get(&None).cloned().unwrap_or_default(),
    ))
}

async fn put_guild_commands(
    State(s): State<Arc<Shared>>,
    Path((app, guild)): Path<(String, String)>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if let Err(r) = check_auth(&s, &headers) {
        return r;
    }
    if app != APP_ID.to_string() || guild != GUILD_ID.to_string() {
        s.error(format!(
            "commands registered for unknown app/guild {app}/{guild}"
        ));
        // What Discord answers for a server the application is not in.
        return discord_error(StatusCode::FORBIDDEN, 50001, "Missing Access");
    }
    register(&s, Some(GUILD_ID), body)
}

async fn get_guild_commands(State(s): State<Arc<Shared>>) -> Json<Value> {
    Json(Value::Array(
        s.lock()
            .commands
            .get(&Some(GUILD_ID))
            .cloned()
            .unwrap_or_default(),
    ))
}

// ---------- message bodies ----------

/// A JSON or multipart (`payload_json` + `files[n]`) body.
struct Body {
    json: Value,
    files: HashMap<u64, Attachment>,
}

/// The body of a message request; an unreadable one is recorded and answered with Discord's
/// error (the `Err`).
async fn read_body(s: &Shared, req: Request) -> Result<Body, Response> {
    let is_multipart = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    let bad = |what: String| {
        s.error(what);
        invalid_form_body()
    };
    if !is_multipart {
        let bytes = Bytes::from_request(req, &())
            .await
            .map_err(|e| bad(format!("unreadable body: {e}")))?;
        let json = if bytes.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&bytes).map_err(|e| bad(format!("body is not JSON: {e}")))?
        };
        return Ok(Body {
            json,
            files: HashMap::new(),
        });
    }
    let mut multipart = Multipart::from_request(req, &())
        .await
        .map_err(|e| bad(format!("bad multipart: {e}")))?;
    let mut json = Value::Null;
    let mut files = HashMap::new();
    while let Some(field) = multipart
        .next_field()
        .await
        .map_err(|e| bad(format!("bad multipart field: {e}")))?
    {
        let name = field.name().unwrap_or("").to_owned();
        if name == "payload_json" {
            let text = field
                .text()
                .await
                .map_err(|e| bad(format!("bad payload_json: {e}")))?;
            json = serde_json::from_str(&text).map_err(|e| bad(format!("payload_json: {e}")))?;
        } else if let Some(n) = name
            .strip_prefix("files[")
            .and_then(|r| r.strip_suffix(']'))
            .and_then(|n| n.parse::<u64>().ok())
        {
            let filename = field.file_name().unwrap_or("").to_owned();
            let bytes = field
                .bytes()
                .await
                .map_err(|e| bad(format!("bad file part: {e}")))?;
            files.insert(
                n,
                Attachment {
                    filename,
                    bytes: bytes.to_vec(),
                },
            );
        } else {
            return Err(bad(format!("unexpected multipart field {name:?}")));
        }
    }
    Ok(Body { json, files })
}

/// Message content as the bot sent it, checked against Discord's limits.
struct Draft {
    content: Option<String>,
    embeds: Option<Vec<Value>>,
    components: Option<Vec<Value>>,
    /// New files (from `files[n]`), and whether the payload replaces the attachment list.
    attachments: Option<Vec<Attachment>>,
    ephemeral: bool,
}

fn draft(body: &Body, problems: &mut Vec<String>) -> Draft {
    let d = &body.json;
    let content = d.get("content").and_then(Value::as_str).map(str::to_owned);
    if let Some(c) = &content {
        limits::check_content(c, problems);
    }
    let embeds = d.get("embeds").and_then(Value::as_array).cloned();
    if let Some(e) = &embeds {
        limits::check_embeds(e, problems);
    }
    let components = d.get("components").and_then(Value::as_array).cloned();
    if let Some(c) = &components {
        limits::check_components(c, problems);
    }
    let attachments = if body.files.is_empty() && d.get("attachments").is_none() {
        None
    } else {
        let mut files: Vec<(u64, Attachment)> =
            body.files.iter().map(|(k, v)| (*k, v.clone())).collect();
        files.sort_by_key(|(k, _)| *k);
        Some(files.into_iter().map(|(_, a)| a).collect::<Vec<_>>())
    };
    limits::check_files(body.files.values().map(|a| a.bytes.len()), problems);
    // An embed image `attachment://x.png` must name an uploaded file.
    for e in embeds.iter().flatten() {
        if let Some(url) = e.pointer("/image/url").and_then(Value::as_str) {
            if let Some(name) = url.strip_prefix("attachment://") {
                let known = attachments.iter().flatten().any(|a| a.filename == name);
                if !known {
                    problems.push(format!("embed image {url} names no attached file"));
                }
            }
        }
    }
    let flags = d.get("flags").and_then(Value::as_u64).unwrap_or(0);
    Draft {
        content,
        embeds,
        components,
        attachments,
        // Message flag 64: EPHEMERAL.
        ephemeral: flags & 64 != 0,
    }
}

fn apply(m: &mut Message, d: Draft) {
    if let Some(c) = d.content {
        m.content = c;
    }
    if let Some(e) = d.embeds {
        m.embeds = e;
    }
    if let Some(c) = d.components {
        m.components = c;
    }
    if let Some(a) = d.attachments {
        m.attachments = a;
    }
}

// ---------- interaction responses ----------

async fn callback(
    State(s): State<Arc<Shared>>,
    Path(ids): Path<(String, String)>,
    req: Request,
) -> Response {
    let key = ids.0.clone();
    faulty(&s, Route::Callback, &key, |slowed| {
        callback_now(&s, ids, req, slowed)
    })
    .await
}

/// A callback (`slowed`: delayed by an injected fault, so lateness is not the bot's fault).
async fn callback_now(
    s: &Shared,
    (id, token): (String, String),
    req: Request,
    slowed: bool,
) -> Response {
    let now = Instant::now();
    let body = match read_body(s, req).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let kind = body.json["type"].as_u64().unwrap_or(0) as u8;
    let mut problems = Vec::new();
    {
        let mut inner = s.lock();
        let Some(idx) = inner
            .interactions
            .iter()
            .position(|i| i.id.to_string() == id && i.token == token)
        else {
            drop(inner);
            s.error(format!("callback for unknown interaction {id}"));
            return discord_error(StatusCode::NOT_FOUND, 10062, "Unknown interaction");
        };
        let ix = inner.interactions[idx].clone();
        if ix.callback.is_some() {
            drop(inner);
            if !answer_lost(s, Route::Callback, &id) {
                s.error(format!("second callback for interaction {id}"));
            }
            return discord_error(
                StatusCode::BAD_REQUEST,
                40060,
                "Interaction has already been acknowledged.",
            );
        }
        if now.duration_since(ix.sent_at) > CALLBACK_DEADLINE {
            drop(inner);
            if !slowed {
                s.error(format!("callback for interaction {id} after 3 seconds"));
            }
            return discord_error(StatusCode::NOT_FOUND, 10062, "Unknown interaction");
        }
        if !limits::callback_types(ix.kind).contains(&kind) {
            problems.push(format!(
                "callback type {kind} for interaction type {}",
                ix.kind
            ));
        }
        let data = Body {
            json: body.json.get("data").cloned().unwrap_or(Value::Null),
            files: body.files,
        };
        let draft = draft(&data, &mut problems);
        let choices = (kind == 8).then(|| {
            let list = data.json["choices"].as_array().cloned().unwrap_or_default();
            limits::autocomplete_choices(&list, &mut problems)
        });
        let message_id = s.snowflake();
        let mut new_message =
            Message::new(message_id, ix.channel_id, inner.guild_of(ix.channel_id));
        new_message.interaction_user = Some(ix.user);
        new_message.thinking = kind == 5;
        let mut draft = Some(draft);
        if matches!(kind, 4 | 5) {
            new_message.ephemeral_for = draft
                .as_ref()
                .is_some_and(|d| d.ephemeral)
                .then_some(ix.user);
            if let Some(d) = draft.take() {
                apply(&mut new_message, d);
            }
            if kind == 4 && new_message.is_empty() {
                problems.push("Cannot send an empty message".to_owned());
            }
        }
        if problems.is_empty() {
            let ix = &mut inner.interactions[idx];
            ix.callback = Some((kind, now));
            ix.choices = choices;
            match kind {
                4 | 5 => {
                    ix.original = Some(message_id);
                    ix.messages.push(message_id);
                    ix.pending = kind == 5;
                    inner.messages.push(new_message);
                }
                6 => {
                    ix.pending = true;
                }
                7 => {
                    if let Some(target) = ix.component_message {
                        ix.messages.push(target);
                        if let (Some(m), Some(d)) =
                            (inner.messages.iter_mut().find(|m| m.id == target), draft)
                        {
                            apply(m, d);
                            m.edits += 1;
                        }
                    }
                }
                _ => {}
            }
        }
    }
    if !problems.is_empty() {
        s.error(format!(
            "callback for interaction {id} refused: {problems:?}"
        ));
        return invalid_form_body();
    }
    s.notify();
    StatusCode::NO_CONTENT.into_response()
}

fn find_by_token(inner: &Inner, app: &str, token: &str) -> Option<usize> {
    if app != APP_ID.to_string() {
        return None;
    }
    inner.interactions.iter().position(|i| i.token == token)
}

async fn followup(
    State(s): State<Arc<Shared>>,
    Path(ids): Path<(String, String)>,
    req: Request,
) -> Response {
    let key = ids.1.clone();
    faulty(&s, Route::Followup, &key, |_| followup_now(&s, ids, req)).await
}

async fn followup_now(s: &Shared, (app, token): (String, String), req: Request) -> Response {
    let body = match read_body(s, req).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let mut problems = Vec::new();
    let d = draft(&body, &mut problems);
    let json = {
        let mut inner = s.lock();
        let Some(idx) = find_by_token(&inner, &app, &token) else {
            drop(inner);
            s.error(format!("follow-up for unknown webhook token {token}"));
            return discord_error(StatusCode::NOT_FOUND, 10015, "Unknown Webhook");
        };
        if inner.interactions[idx].expired {
            return invalid_webhook_token();
        }
        {
            let ix = &inner.interactions[idx];
            if ix.user_install_only() && ix.followups >= MAX_USER_APP_FOLLOWUPS {
                drop(inner);
                s.error(format!(
                    "follow-up {} of an interaction only a user installation authorized \
                     (at most {MAX_USER_APP_FOLLOWUPS}; 40094)",
                    MAX_USER_APP_FOLLOWUPS + 1
                ));
                return discord_error(
                    StatusCode::BAD_REQUEST,
                    40094,
                    "This interaction has hit the maximum number of follow up messages",
                );
            }
        }
        if inner.interactions[idx].callback.is_none() {
            problems.push("follow-up before the interaction was acknowledged".to_owned());
        }
        if !problems.is_empty() {
            drop(inner);
            s.error(format!("follow-up refused: {problems:?}"));
            return invalid_form_body();
        }
        let ix = inner.interactions[idx].clone();
        // Discord: the first follow-up after a deferred message response replaces the
        // "thinking…" placeholder.
        let placeholder = ix.original.filter(|id| {
            ix.pending
                && ix.callback.map(|c| c.0) == Some(5)
                && inner.messages.iter().any(|m| m.id == *id && !m.deleted)
        });
        let message_id = placeholder.unwrap_or_else(|| s.snowflake());
        let m = if let Some(pid) = placeholder {
            let m = inner
                .messages
                .iter_mut()
                .find(|m| m.id == pid)
                .expect("placeholder message exists");
            apply(m, d);
            m.thinking = false;
            m.clone()
        } else {
            let mut m = Message::new(message_id, ix.channel_id, inner.guild_of(ix.channel_id));
            m.interaction_user = Some(ix.user);
            m.ephemeral_for = d.ephemeral.then_some(ix.user);
            // Sent once the answer was final: a message of the bot's own accord.
            m.after_answer = ix.settled();
            apply(&mut m, d);
            inner.messages.push(m.clone());
            m
        };
        if m.is_empty() {
            drop(inner);
            s.error("follow-up: Cannot send an empty message".to_owned());
            return empty_message();
        }
        let ix = &mut inner.interactions[idx];
        if !ix.messages.contains(&message_id) {
            ix.messages.push(message_id);
        }
        ix.pending = false;
        ix.followups += 1;
        m.json()
    };
    s.notify();
    Json(json).into_response()
}

/// The message a webhook route names: `@original` or one of the interaction's messages.
fn target_message(inner: &Inner, idx: usize, message: &str) -> Option<u64> {
    let ix = &inner.interactions[idx];
    if message == "@original" {
        ix.original
    } else {
        message.parse().ok().filter(|id| ix.messages.contains(id))
    }
}

async fn edit_webhook_message(
    State(s): State<Arc<Shared>>,
    Path(ids): Path<(String, String, String)>,
    req: Request,
) -> Response {
    let key = ids.1.clone();
    faulty(&s, Route::Edit, &key, |_| edit_now(&s, ids, req)).await
}

async fn edit_now(
    s: &Shared,
    (app, token, message): (String, String, String),
    req: Request,
) -> Response {
    let body = match read_body(s, req).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let mut problems = Vec::new();
    let d = draft(&body, &mut problems);
    let json = {
        let mut inner = s.lock();
        let Some(idx) = find_by_token(&inner, &app, &token) else {
            drop(inner);
            s.error(format!("edit for unknown webhook token {token}"));
            return discord_error(StatusCode::NOT_FOUND, 10015, "Unknown Webhook");
        };
        if inner.interactions[idx].expired {
            return invalid_webhook_token();
        }
        let Some(target) = target_message(&inner, idx, &message) else {
            drop(inner);
            s.error(format!("edit of unknown message {message}"));
            return discord_error(StatusCode::NOT_FOUND, 10008, "Unknown Message");
        };
        if !problems.is_empty() {
            drop(inner);
            s.error(format!("edit refused: {problems:?}"));
            return invalid_form_body();
        }
        let Some(m) = inner
            .messages
            .iter_mut()
            .find(|m| m.id == target && !m.deleted)
        else {
            drop(inner);
            s.error(format!("edit of deleted message {message}"));
            return discord_error(StatusCode::NOT_FOUND, 10008, "Unknown Message");
        };
        apply(m, d);
        m.thinking = false;
        m.edits += 1;
        if m.is_empty() {
            drop(inner);
            s.error("edit: Cannot send an empty message".to_owned());
            return empty_message();
        }
        let json = m.json();
        let ix = &mut inner.interactions[idx];
        if !ix.messages.contains(&target) {
            ix.messages.push(target);
        }
        if message == "@original" {
            ix.pending = false;
        }
        json
    };
    s.notify();
    Json(json).into_response()
}

async fn get_webhook_message(
    State(s): State<Arc<Shared>>,
    Path((app, token, message)): Path<(String, String, String)>,
) -> Response {
    let inner = s.lock();
    let idx = find_by_token(&inner, &app, &token);
    if idx.is_some_and(|i| inner.interactions[i].expired) {
        return invalid_webhook_token();
    }
    let found = idx
        .and_then(|idx| target_message(&inner, idx, &message))
        .and_then(|id| inner.messages.iter().find(|m| m.id == id && !m.deleted));
    match found {
        Some(m) => Json(m.json()).into_response(),
        None => discord_error(StatusCode::NOT_FOUND, 10008, "Unknown Message"),
    }
}

async fn delete_webhook_message(
    State(s): State<Arc<Shared>>,
    Path((app, token, message)): Path<(String, String, String)>,
) -> Response {
    {
        let mut inner = s.lock();
        let Some(idx) = find_by_token(&inner, &app, &token) else {
            drop(inner);
            s.error(format!("delete for unknown webhook token {token}"));
            return discord_error(StatusCode::NOT_FOUND, 10015, "Unknown Webhook");
        };
        if inner.interactions[idx].expired {
            return invalid_webhook_token();
        }
        let Some(target) = target_message(&inner, idx, &message) else {
            drop(inner);
            s.error(format!("delete of unknown message {message}"));
            return discord_error(StatusCode::NOT_FOUND, 10008, "Unknown Message");
        };
        if let Some(m) = inner.messages.iter_mut().find(|m| m.id == target) {
            m.deleted = true;
        }
        // A deleted "thinking…" placeholder still awaits the answer, as a follow-up.
    }
    s.notify();
    StatusCode::NO_CONTENT.into_response()
}

// ---------- channel messages ----------

/// `GET /channels/{channel}/messages?limit=N`: the channel's messages everyone sees, newest
/// first (at most `limit`, default 50, at most 100), as Discord lists them.
async fn channel_history(
    State(s): State<Arc<Shared>>,
    Path(channel): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    if let Err(r) = check_auth(&s, &headers) {
        return r;
    }
    let Ok(channel_id) = channel.parse::<u64>() else {
        return discord_error(StatusCode::NOT_FOUND, 10003, "Unknown Channel");
    };
    if let Err(r) = check_member(&s, channel_id, "reading the history") {
        return r;
    }
    let limit = query
        .as_deref()
        .unwrap_or("")
        .split('&')
        .find_map(|kv| kv.strip_prefix("limit="))
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(50)
        .clamp(1, 100);
    let inner = s.lock();
    let list: Vec<Value> = inner
        .messages
        .iter()
        .rev()
        .filter(|m| m.channel_id == channel_id && !m.deleted && m.ephemeral_for.is_none())
        .take(limit)
        .map(Message::json)
        .collect();
    Json(Value::Array(list)).into_response()
}

async fn channel_message(
    State(s): State<Arc<Shared>>,
    Path(channel): Path<String>,
    req: Request,
) -> Response {
    let key = channel.clone();
    faulty(&s, Route::ChannelMessage, &key, |_| {
        channel_message_now(&s, channel, req)
    })
    .await
}

async fn channel_message_now(s: &Shared, channel: String, req: Request) -> Response {
    let body = match read_body(s, req).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let mut problems = Vec::new();
    let d = draft(&body, &mut problems);
    let Ok(channel_id) = channel.parse::<u64>() else {
        s.error(format!("message to bad channel id {channel}"));
        return discord_error(StatusCode::NOT_FOUND, 10003, "Unknown Channel");
    };
    if let Err(r) = check_member(s, channel_id, "a channel message") {
        return r;
    }
    if !problems.is_empty() {
        s.error(format!("channel message refused: {problems:?}"));
        return invalid_form_body();
    }
    let guild = s.guild_of(channel_id);
    let mut m = Message::new(s.snowflake(), channel_id, guild);
    apply(&mut m, d);
    let json = m.json();
    s.lock().messages.push(m);
    s.notify();
    Json(json).into_response()
}

/// `PATCH /channels/{channel}/messages/{message}`: the bot edits one of its messages there.
async fn edit_channel_message(
    State(s): State<Arc<Shared>>,
    Path((channel, message)): Path<(String, String)>,
    req: Request,
) -> Response {
    if let Ok(channel_id) = channel.parse::<u64>() {
        if let Err(r) = check_member(&s, channel_id, "a message edit") {
            return r;
        }
    }
    let body = match read_body(&s, req).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let mut problems = Vec::new();
    let d = draft(&body, &mut problems);
    if !problems.is_empty() {
        s.error(format!("message edit refused: {problems:?}"));
        return invalid_form_body();
    }
    let json = {
        let mut inner = s.lock();
        let Some(m) = inner.messages.iter_mut().find(|m| {
            m.id.to_string() == message
                && m.channel_id.to_string() == channel
                && !m.deleted
                && m.ephemeral_for.is_none()
        }) else {
            drop(inner);
            s.error(format!("edit of unknown message {message} in {channel}"));
            return discord_error(StatusCode::NOT_FOUND, 10008, "Unknown Message");
        };
        apply(m, d);
        m.edits += 1;
        if m.is_empty() {
            drop(inner);
            s.error("message edit: Cannot send an empty message".to_owned());
            return empty_message();
        }
        m.json()
    };
    s.notify();
    Json(json).into_response()
}

/// `POST /channels/{channel}/messages/{message}/threads`: a public thread opened from a
/// message of the channel, checked against Discord's limits ([`limits::check_thread`]); one
/// thread per message (Discord: 160004), none from an ephemeral message or inside a thread.
async fn start_thread(
    State(s): State<Arc<Shared>>,
    Path((channel, message)): Path<(String, String)>,
    headers: HeaderMap,
    req: Request,
) -> Response {
    if let Err(r) = check_auth(&s, &headers) {
        return r;
    }
    if let Ok(channel_id) = channel.parse::<u64>() {
        if let Err(r) = check_member(&s, channel_id, "a thread") {
            return r;
        }
        // The bot's own DM has no threads.
        if s.lock().private.contains_key(&channel_id) {
            s.error(format!("a thread in the DM {channel_id}"));
            return discord_error(
                StatusCode::BAD_REQUEST,
                50024,
                "Cannot execute action on this channel type",
            );
        }
    }
    let key = message.clone();
    faulty(&s, Route::Thread, &key, |_| {
        start_thread_now(&s, channel, message, req)
    })
    .await
}

async fn start_thread_now(s: &Shared, channel: String, message: String, req: Request) -> Response {
    let body = match read_body(s, req).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let mut problems = Vec::new();
    limits::check_thread(&body.json, &mut problems);
    if !problems.is_empty() {
        s.error(format!("thread refused: {problems:?}"));
        return invalid_form_body();
    }
    let json = {
        let mut inner = s.lock();
        let found = inner.messages.iter().find(|m| {
            m.id.to_string() == message && m.channel_id.to_string() == channel && !m.deleted
        });
        let Some(m) = found.filter(|m| m.ephemeral_for.is_none()) else {
            drop(inner);
            s.error(format!(
                "thread from unknown message {message} in {channel}"
            ));
            return discord_error(StatusCode::NOT_FOUND, 10008, "Unknown Message");
        };
        let (id, parent_id) = (m.id, m.channel_id);
        if inner.thread(parent_id).is_some() {
            drop(inner);
            s.error(format!(
                "thread from message {message} inside thread {channel}"
            ));
            return discord_error(
                StatusCode::BAD_REQUEST,
                50024,
                "Cannot execute action on this channel type",
            );
        }
        if inner.thread(id).is_some() {
            drop(inner);
            s.error(format!("a second thread from message {message}"));
            return discord_error(
                StatusCode::BAD_REQUEST,
                160_004,
                "A thread has already been created for this message",
            );
        }
        let thread = Thread {
            id,
            parent_id,
            name: body.json["name"].as_str().unwrap_or_default().to_owned(),
            // Discord's default: the channel's, a day when unset.
            auto_archive_duration: body.json["auto_archive_duration"].as_u64().unwrap_or(1440),
        };
        let json = thread.json();
        inner.threads.push(thread);
        json
    };
    s.notify();
    (StatusCode::CREATED, Json(json)).into_response()
}

/// `GET /users/{user}`: a user added to the stand-in, or the bot.
async fn user(State(s): State<Arc<Shared>>, Path(user): Path<String>) -> Response {
    if user == crate::BOT_ID.to_string() || user == "@me" {
        return Json(bot_user_json()).into_response();
    }
    let inner = s.lock();
    match inner.users.iter().find(|u| u.id.to_string() == user) {
        Some(u) => Json(u.json()).into_response(),
        None => discord_error(StatusCode::NOT_FOUND, 10013, "Unknown User"),
    }
}
