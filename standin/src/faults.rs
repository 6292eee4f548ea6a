//! Fault injection on the REST routes the bot answers through: what Discord does on a bad day
//! (a 429 with `retry_after`, per route or global; a 500 or 502; a request Discord carried out
//! whose answer was lost; a request so slow that the interaction's 3 seconds pass).
//!
//! A test arms a [`crate::Fault`] (its types are in `model.rs`) with [`crate::Standin::inject`]; the next matching requests meet it.
//! After a 429 the stand-in holds the bot to it as Discord would: a request to the limited route
//! (every route, for a global limit) before `retry_after` has elapsed is answered 429 again and
//! recorded as a violation in [`crate::Standin::errors`]. Every request to these routes is
//! logged ([`crate::Standin::requests`]) with what the stand-in answered.

use std::time::{Duration, Instant};

use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use crate::model::{Failure, RequestLog, Route};
use crate::state::Shared;

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
