//! Fault injection on the REST routes the bot answers through: what Discord does on a bad day
//! (a 429 with `retry_after`, per route or global; a 500 or 502; a request Discord carried out
//! whose answer was lost; a request so slow that the interaction's 3 seconds pass).
//!
//! A test arms a [`Fault`] with [`crate::Standin::inject`]; the next matching requests meet it.
//! After a 429 the stand-in holds the bot to it as Discord would: a request to the limited route
//! (every route, for a global limit) before `retry_after` has elapsed is answered 429 again and
//! recorded as a violation in [`crate::Standin::errors`]. Every request to these routes is
//! logged ([`crate::Standin::requests`]) with what the stand-in answered.

use std::time::{Duration, Instant};

use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use crate::state::Shared;

/// A REST route the bot answers through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Route {
    /// `POST /interactions/{id}/{token}/callback`: the first answer to an interaction.
    Callback,
    /// `POST /webhooks/{app}/{token}`: a follow-up message.
    Followup,
    /// `PATCH /webhooks/{app}/{token}/messages/{message}`: an edit (of `@original`).
    Edit,
    /// `POST /channels/{channel}/messages`: a plain channel message.
    ChannelMessage,
    /// `POST /channels/{channel}/messages/{message}/threads`: a thread opened from a message.
    Thread,
}

/// Which requests a [`Fault`] meets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Match {
    /// Requests to this route.
    Route(Route),
    /// Requests to any of the routes.
    Any,
}

impl Match {
    fn matches(self, route: Route) -> bool {
        match self {
            Match::Route(r) => r == route,
            Match::Any => true,
        }
    }
}

/// What a faulty request meets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// Answered with this status (500, 502, 503…) without being carried out.
    Status(u16),
    /// Carried out, then answered with this status anyway (the answer was lost on the way:
    /// the bot cannot know the request took effect).
    StatusAfter(u16),
    /// 429 Too Many Requests with `retry_after`, for the route or (`global`) for every route.
    RateLimited {
        /// How long the bot must wait.
        retry_after: Duration,
        /// Discord's global limit (all routes) rather than the route's.
        global: bool,
    },
    /// Refused as Discord refuses a bot without a permission it needs (Create Public Threads,
    /// Send Messages in Threads…): 403 with error code 50013 "Missing Permissions".
    MissingPermissions,
    /// Carried out only after this delay (a slow network): a callback then arrives after the
    /// interaction's 3 seconds and is refused as Discord would ("Unknown interaction"), which
    /// is not recorded as the bot's violation.
    Slow(Duration),
}

/// The next `times` requests matching `route` meet `failure`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Which requests.
    pub route: Match,
    /// How many of them.
    pub times: u32,
    /// What they meet.
    pub failure: Failure,
}

impl Fault {
    /// The next `times` requests to `route` meet `failure`.
    #[must_use]
    pub fn on(route: Route, times: u32, failure: Failure) -> Fault {
        Fault {
            route: Match::Route(route),
            times,
            failure,
        }
    }
}

/// One request to a route of [`Route`], as the stand-in answered it.
#[derive(Clone, Debug)]
pub struct RequestLog {
    /// The route.
    pub route: Route,
    /// What it names: the interaction id (callback), the webhook token (follow-up, edit) or the
    /// channel id (a thread: the message id).
    pub key: String,
    /// When it arrived.
    pub at: Instant,
    /// The fault it met, if any.
    pub fault: Option<Failure>,
}

/// What the handler does with a request after [`gate`].
pub(crate) enum Gate {
    /// Answer this at once (an injected error, or a 429 still running).
    Refuse(Response),
    /// Carry the request out (after `delay`); answer `after` instead if set.
    Pass {
        delay: Option<Duration>,
        after: Option<u16>,
    },
}

/// Discord's JSON error body with `status`.
fn status_response(status: u16) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let message = format!(
        "{}: {}",
        status.as_u16(),
        status.canonical_reason().unwrap_or("Error")
    );
    (status, Json(json!({ "message": message, "code": 0 }))).into_response()
}

/// Discord's 429: `Retry-After` (seconds) and the JSON body, `X-RateLimit-Global` when global.
fn rate_limited(retry_after: Duration, global: bool) -> Response {
    let secs = retry_after.as_secs_f64();
    let mut r = (
        StatusCode::TOO_MANY_REQUESTS,
        Json(json!({
            "message": "You are being rate limited.",
            "retry_after": secs,
            "global": global,
        })),
    )
        .into_response();
    let headers = r.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&format!("{}", secs.ceil())) {
        headers.insert("retry-after", v);
    }
    headers.insert(
        "x-ratelimit-scope",
        HeaderValue::from_static(if global { "global" } else { "user" }),
    );
    if global {
        headers.insert("x-ratelimit-global", HeaderValue::from_static("true"));
    }
    r
}

/// Decides what request to `route` meets: a 429 still running, else the first armed fault that
/// matches (used up by one), else nothing; and logs it.
pub(crate) fn gate(s: &Shared, route: Route, key: &str) -> Gate {
    let now = Instant::now();
    let mut inner = s.lock();
    let limited = inner
        .limits
        .iter()
        .filter(|(r, until)| r.is_none_or(|r| r == route) && **until > now)
        .map(|(_, until)| *until)
        .max();
    if let Some(until) = limited {
        let early = until - now;
        inner.requests.push(RequestLog {
            route,
            key: key.to_owned(),
            at: now,
            fault: None,
        });
        drop(inner);
        s.error(format!(
            "{route:?} request {} ms before its retry_after elapsed",
            early.as_millis()
        ));
        return Gate::Refuse(rate_limited(early, false));
    }
    let fault = inner
        .faults
        .iter_mut()
        .find(|f| f.times > 0 && f.route.matches(route))
        .map(|f| {
            f.times -= 1;
            f.failure
        });
    inner.faults.retain(|f| f.times > 0);
    inner.requests.push(RequestLog {
        route,
        key: key.to_owned(),
        at: now,
        fault,
    });
    let gate = match fault {
        None => Gate::Pass {
            delay: None,
            after: None,
        },
        Some(Failure::Status(status)) => Gate::Refuse(status_response(status)),
        Some(Failure::MissingPermissions) => Gate::Refuse(
            (
                StatusCode::FORBIDDEN,
                Json(json!({ "message": "Missing Permissions", "code": 50013 })),
            )
                .into_response(),
        ),
        Some(Failure::StatusAfter(status)) => Gate::Pass {
            delay: None,
            after: Some(status),
        },
        Some(Failure::RateLimited {
            retry_after,
            global,
        }) => {
            let key = (!global).then_some(route);
            inner.limits.insert(key, now + retry_after);
            Gate::Refuse(rate_limited(retry_after, global))
        }
        Some(Failure::Slow(delay)) => Gate::Pass {
            delay: Some(delay),
            after: None,
        },
    };
    drop(inner);
    s.notify();
    gate
}

/// Whether an earlier request to `route` naming `key` was carried out but answered with an
/// error ([`Failure::StatusAfter`]): the bot's retry is then right, not a violation.
pub(crate) fn answer_lost(s: &Shared, route: Route, key: &str) -> bool {
    s.lock().requests.iter().any(|r| {
        r.route == route && r.key == key && matches!(r.fault, Some(Failure::StatusAfter(_)))
    })
}

/// Runs `handler` (told whether the request was slowed on purpose) under the fault that the
/// request to `route` naming `key` meets.
pub(crate) async fn faulty<F>(
    s: &Shared,
    route: Route,
    key: &str,
    handler: impl FnOnce(bool) -> F,
) -> Response
where
    F: std::future::Future<Output = Response>,
{
    match gate(s, route, key) {
        Gate::Refuse(r) => r,
        Gate::Pass { delay, after } => {
            if let Some(d) = delay {
                tokio::time::sleep(d).await;
            }
            let response = handler(delay.is_some()).await;
            match after {
                Some(status) => status_response(status),
                None => response,
            }
        }
    }
}
