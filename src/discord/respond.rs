//! Answers to interactions: one [`Answer`] shape, sent in time, and sent for sure.
//!
//! Discord drops an interaction that is not acknowledged within 3 seconds. Most answers are
//! ready in milliseconds and go out as the callback itself (one request, the image included).
//! If the work is still running after `defer_after`, the bot acknowledges first (Discord shows
//! "thinking…") and fills the answer in when it is ready.
//!
//! A public answer (a board after a move) must reach the channel even when Discord fails
//! (defect 1 of issue 13): each request is retried as Discord allows ([`send`]: a 429 or a 5xx
//! or a lost connection is tried again after a wait, a callback only while its 3 seconds last);
//! a callback answered "already acknowledged" had got through. Then the documented ways back:
//! an acknowledged interaction whose edit fails gets a follow-up (its token lasts 15 minutes);
//! an interaction never acknowledged (the callback failed or came too late, Discord answers
//! "Unknown interaction") gets its public answer as a plain channel message. Once a board is in
//! the channel its moves are marked announced ([`super::announce::Herald`]); a private answer
//! that cannot be sent is only logged (it changes nothing).

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::pin;
use std::time::Duration;

use poise::futures_util::FutureExt as _;

use poise::serenity_prelude as serenity;
use serenity::{
    CommandInteraction, ComponentInteraction, CreateActionRow, CreateAttachment, CreateEmbed,
    CreateInteractionResponse, CreateInteractionResponseFollowup, CreateInteractionResponseMessage,
    CreateMessage, EditInteractionResponse, Http,
};
use tokio::time::Instant;
use tracing::{debug, warn};

use super::announce::Herald;
use crate::game::GameId;

/// A message to show: text, embeds, files, buttons; either to everyone or only to the user.
#[derive(Clone, Debug, Default)]
pub(crate) struct Answer {
    pub content: String,
    pub embeds: Vec<CreateEmbed>,
    pub files: Vec<CreateAttachment>,
    pub components: Vec<CreateActionRow>,
    /// Only the user who interacted sees it.
    pub ephemeral: bool,
    /// The board it shows: game and plies. Once a public answer with a board reached the
    /// channel, that game's moves up to it are marked announced.
    pub shows: Option<(GameId, u32)>,
    /// Set on a finished game's board: what happened and who played ("Black wins by checkmate:
    /// @a vs @b"). Once it reached the channel, a thread's starting message says it too.
    pub ended: Option<String>,
}

impl Answer {
    /// A plain text only the user sees (errors, help).
    pub(crate) fn private(text: impl Into<String>) -> Answer {
        Answer {
            content: text.into(),
            ephemeral: true,
            ..Answer::default()
        }
    }

    /// A plain text everyone in the channel sees.
    pub(crate) fn public(text: impl Into<String>) -> Answer {
        Answer {
            content: text.into(),
            ..Answer::default()
        }
    }

    fn message(self) -> CreateInteractionResponseMessage {
        let mut m = CreateInteractionResponseMessage::new()
            .content(self.content)
            .embeds(self.embeds)
            .components(self.components)
            .ephemeral(self.ephemeral);
        if !self.files.is_empty() {
            m = m.files(self.files);
        }
        m
    }

    fn edit(self) -> EditInteractionResponse {
        let mut e = EditInteractionResponse::new()
            .content(self.content)
            .embeds(self.embeds)
            .components(self.components)
            .clear_attachments();
        for f in self.files {
            e = e.new_attachment(f);
        }
        e
    }

    fn followup(self) -> CreateInteractionResponseFollowup {
        CreateInteractionResponseFollowup::new()
            .content(self.content)
            .embeds(self.embeds)
            .components(self.components)
            .files(self.files)
            .ephemeral(self.ephemeral)
    }

    /// The answer as a plain channel message (no interaction: always public).
    pub(crate) fn channel_message(self) -> CreateMessage {
        CreateMessage::new()
            .content(self.content)
            .embeds(self.embeds)
            .components(self.components)
            .add_files(self.files)
    }
}

/// How long Discord waits for the first answer to an interaction.
const CALLBACK_WINDOW: Duration = Duration::from_millis(3000);
/// How often one request is tried at most.
const ATTEMPTS: u32 = 5;
/// The first wait after a 429. With `DISCORD_API_URL` set serenity's rate limiter is off (it
/// ignores the proxy otherwise), and serenity's error keeps only the status, code and message of
/// Discord's answer, not `Retry-After` or the body's `retry_after`: the bot waits 1 s, then 2 s,
/// 4 s, … (Discord's retry_after for a route is usually below a second; a limiting proxy, the
/// flag's purpose, answers 429s only on its own bugs).
const RATE_LIMIT_WAIT: Duration = Duration::from_secs(1);
/// The first wait after a 5xx or a lost connection (then doubled).
const SERVER_WAIT: Duration = Duration::from_millis(250);

/// What a failed request says about trying again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Failure {
    /// 429: too many requests.
    RateLimited,
    /// 5xx or no answer: Discord may or may not have done it.
    Server,
    /// 40060: the interaction was already acknowledged (an earlier try got through).
    AlreadyAcknowledged,
    /// 10062 / 10015: the interaction or its token expired (or never existed).
    Expired,
    /// Any other refusal (400, 403, 404…): trying again would not help.
    Refused,
}

fn failure(e: &serenity::Error) -> Failure {
    use ::serenity::http::HttpError;
    match e {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => {
            match (r.status_code.as_u16(), r.error.code) {
                (429, _) => Failure::RateLimited,
                (500..=599, _) => Failure::Server,
                (_, 40060) => Failure::AlreadyAcknowledged,
                (_, 10062 | 10015) => Failure::Expired,
                _ => Failure::Refused,
            }
        }
        serenity::Error::Http(HttpError::Request(_)) => Failure::Server,
        _ => Failure::Refused,
    }
}

/// A request that failed for good: why, and Discord's error.
#[derive(Debug)]
pub(crate) struct Failed {
    kind: Failure,
    pub(crate) error: serenity::Error,
}

impl Failed {
    /// Discord refused it for good (not a rate limit, a server error or an expired token): a
    /// message to a channel the bot cannot reach, say.
    pub(crate) fn refused(&self) -> bool {
        self.kind == Failure::Refused
    }
}

impl std::fmt::Display for Failed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}: {}", self.kind, self.error)
    }
}

/// Runs request `attempt` until it succeeds, at most [`ATTEMPTS`] times: again after a 429
/// (waits from [`RATE_LIMIT_WAIT`]) or a 5xx or lost connection (from [`SERVER_WAIT`]), each
/// wait doubled; never waiting past `deadline`. `what` names it in the logs.
pub(crate) async fn send<T, Fut>(
    what: &str,
    deadline: Option<Instant>,
    mut attempt: impl FnMut() -> Fut,
) -> Result<T, Failed>
where
    Fut: Future<Output = serenity::Result<T>>,
{
    let mut tried = 0;
    loop {
        tried += 1;
        let error = match attempt().await {
            Ok(v) => return Ok(v),
            Err(error) => error,
        };
        let kind = failure(&error);
        let first = match kind {
            Failure::RateLimited => RATE_LIMIT_WAIT,
            Failure::Server => SERVER_WAIT,
            _ => return Err(Failed { kind, error }),
        };
        let wait = first * 2u32.pow(tried - 1);
        let late = deadline.is_some_and(|d| Instant::now() + wait >= d);
        if tried >= ATTEMPTS || late {
            warn!(what, tried, "giving up on a request: {error}");
            return Err(Failed { kind, error });
        }
        debug!(what, tried, ?wait, "trying a request again: {error}");
        tokio::time::sleep(wait).await;
    }
}

/// When Discord stops taking the first answer to interaction `id` (a snowflake): 3 seconds
/// after it was created (by our clock; one behind Discord's gives the full 3 seconds from now).
fn callback_deadline(id: u64) -> Instant {
    Instant::now() + CALLBACK_WINDOW.saturating_sub(age(id))
}

/// The first answer to an interaction (a callback), retried while Discord takes it. True when it
/// got through (an "already acknowledged" answer says an earlier try did).
async fn callback<Fut>(
    what: &str,
    deadline: Instant,
    attempt: impl FnMut() -> Fut,
) -> Result<(), Failed>
where
    Fut: Future<Output = serenity::Result<()>>,
{
    match send(what, Some(deadline), attempt).await {
        Err(f) if f.kind == Failure::AlreadyAcknowledged => Ok(()),
        other => other,
    }
}

/// The way back for an answer the interaction could not carry: a public one goes to `channel`
/// as a plain message; a private one is dropped (logged: it changed nothing).
async fn to_channel(
    http: &Http,
    herald: &Herald,
    channel: serenity::ChannelId,
    answer: Answer,
    why: &Failed,
) -> serenity::Result<()> {
    if answer.ephemeral {
        warn!(%channel, "a private answer is lost: {why}");
        return Ok(());
    }
    warn!(%channel, "posting the answer as a channel message: {why}");
    match herald.post(http, channel, answer).await {
        Ok(()) => Ok(()),
        Err(f) => Err(f.error),
    }
}

/// Answers a slash command with the result of `work`: directly if it is ready within
/// `defer_after`, else defer first, then edit the answer in (or, for a private answer, replace
/// the public "thinking…" placeholder with a private follow-up). Discord's failures are met as
/// the module says; a public board that reached the channel marks its moves announced.
///
/// # Errors
/// When no way got the answer to Discord.
pub(crate) async fn answer_command(
    http: &Http,
    herald: &Herald,
    interaction: &CommandInteraction,
    defer_after: Duration,
    work: impl Future<Output = Answer>,
) -> serenity::Result<()> {
    let channel = interaction.channel_id;
    let _busy = herald.busy(channel);
    let deadline = callback_deadline(interaction.id.get());
    let mut work = pin!(work);
    if let Some(answer) = ready_within(&mut work, defer_after).await {
        let sent = callback("callback", deadline, || {
            let response = CreateInteractionResponse::Message(answer.clone().message());
            interaction.create_response(http, response)
        })
        .await;
        return match sent {
            Ok(()) => {
                herald.shown(http, &answer).await;
                Ok(())
            }
            Err(why) => to_channel(http, herald, channel, answer, &why).await,
        };
    }
    tracing::debug!("deferring");
    let deferred = callback("defer", deadline, || {
        let defer = CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new());
        interaction.create_response(http, defer)
    })
    .await;
    let answer = work.await;
    if let Err(why) = deferred {
        return to_channel(http, herald, channel, answer, &why).await;
    }
    let filled = if answer.ephemeral {
        // The placeholder is public: it goes, and the private answer follows.
        if let Err(f) = send("delete", None, || interaction.delete_response(http)).await {
            warn!("cannot delete the placeholder: {f}");
        }
        send("follow-up", None, || {
            interaction.create_followup(http, answer.clone().followup())
        })
        .await
        .map(drop)
    } else {
        fill_in(
            &answer,
            |a| interaction.edit_response(http, a.edit()),
            |a| interaction.create_followup(http, a.followup()),
        )
        .await
    };
    match filled {
        Ok(()) => {
            herald.shown(http, &answer).await;
            Ok(())
        }
        Err(why) => to_channel(http, herald, channel, answer, &why).await,
    }
}

/// Fills in an acknowledged interaction's public answer: the edit, else a follow-up.
async fn fill_in<E, EF, FF, FFut>(
    answer: &Answer,
    mut edit: impl FnMut(Answer) -> EF,
    mut followup: impl FnMut(Answer) -> FF,
) -> Result<(), Failed>
where
    EF: Future<Output = serenity::Result<E>>,
    FF: Future<Output = serenity::Result<FFut>>,
{
    match send("edit", None, || edit(answer.clone())).await {
        Ok(_) => Ok(()),
        Err(why) => {
            warn!("cannot edit the answer in, sending it as a follow-up: {why}");
            send("follow-up", None, || followup(answer.clone()))
                .await
                .map(drop)
        }
    }
}

/// Discord's epoch (2015-01-01) in Unix milliseconds: snowflakes count from it.
const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;

/// How long to wait before deferring the answer to interaction `id` (a snowflake): at most
/// `defer_after`, and less if the interaction was created a while ago (a gateway backlog), so the
/// first answer still reaches Discord within its 3 seconds. A clock running behind Discord's only
/// makes this fall back to `defer_after`; one running ahead only defers earlier.
pub(crate) fn defer_budget(id: u64, defer_after: Duration) -> Duration {
    const DEADLINE: Duration = Duration::from_millis(2500);
    defer_after.min(DEADLINE.saturating_sub(age(id)))
}

/// How long ago interaction `id` (a snowflake) was created, by our clock (zero if "in the
/// future").
fn age(id: u64) -> Duration {
    let created_ms = (id >> 22) + DISCORD_EPOCH_MS;
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    Duration::from_millis(now_ms.saturating_sub(created_ms))
}

/// The output of `work` if it is ready within `limit` (a zero `limit` always defers: tests use
/// it to take the slow path).
async fn ready_within<T>(
    work: &mut std::pin::Pin<&mut impl Future<Output = T>>,
    limit: Duration,
) -> Option<T> {
    if limit.is_zero() {
        return None;
    }
    tokio::time::timeout(limit, work.as_mut()).await.ok()
}

/// Runs `work`; if it panics (a bug), logs it and gives `apology` instead, so that the
/// interaction is still answered through the same path (deferred or not).
pub(crate) async fn or_apology<T>(work: impl Future<Output = T>, apology: impl FnOnce() -> T) -> T {
    match AssertUnwindSafe(work).catch_unwind().await {
        Ok(answer) => answer,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            tracing::error!(panic = %what, "the answer panicked");
            apology()
        }
    }
}

/// How a button press is answered.
#[derive(Clone)]
pub(crate) enum PressAnswer {
    /// Replace the message the button is on (e.g. the challenge becomes the game start).
    Update(Answer),
    /// A new message (public or private), the button's message unchanged.
    Reply(Answer),
}

impl PressAnswer {
    fn into_answer(self) -> Answer {
        match self {
            PressAnswer::Update(a) | PressAnswer::Reply(a) => a,
        }
    }
}

/// Answers a button press with the result of `work`, in time and for sure (see
/// [`answer_command`]; an update whose interaction failed becomes a new message).
///
/// # Errors
/// When no way got the answer to Discord.
pub(crate) async fn answer_press(
    http: &Http,
    herald: &Herald,
    interaction: &ComponentInteraction,
    defer_after: Duration,
    work: impl Future<Output = PressAnswer>,
) -> serenity::Result<()> {
    let channel = interaction.channel_id;
    let _busy = herald.busy(channel);
    let deadline = callback_deadline(interaction.id.get());
    let mut work = pin!(work);
    if let Some(answer) = ready_within(&mut work, defer_after).await {
        let sent = callback("callback", deadline, || {
            let response = match answer.clone() {
                PressAnswer::Update(a) => CreateInteractionResponse::UpdateMessage(a.message()),
                PressAnswer::Reply(a) => CreateInteractionResponse::Message(a.message()),
            };
            interaction.create_response(http, response)
        })
        .await;
        let answer = answer.into_answer();
        return match sent {
            Ok(()) => {
                herald.shown(http, &answer).await;
                Ok(())
            }
            Err(why) => to_channel(http, herald, channel, answer, &why).await,
        };
    }
    tracing::debug!("deferring");
    let deferred = callback("defer", deadline, || {
        interaction.create_response(http, CreateInteractionResponse::Acknowledge)
    })
    .await;
    let press = work.await;
    let update = matches!(press, PressAnswer::Update(_));
    let answer = press.into_answer();
    if let Err(why) = deferred {
        return to_channel(http, herald, channel, answer, &why).await;
    }
    let filled = if update {
        fill_in(
            &answer,
            |a| interaction.edit_response(http, a.edit()),
            |a| interaction.create_followup(http, a.followup()),
        )
        .await
    } else {
        send("follow-up", None, || {
            interaction.create_followup(http, answer.clone().followup())
        })
        .await
        .map(drop)
    };
    match filled {
        Ok(()) => {
            herald.shown(http, &answer).await;
            Ok(())
        }
        Err(why) => to_channel(http, herald, channel, answer, &why).await,
    }
}

/// Splits `text` into pieces of at most `max` characters, at line breaks where possible.
pub(crate) fn split_text(text: &str, max: usize) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut current = String::new();
    for line in text.split_inclusive('\n') {
        if current.chars().count() + line.chars().count() > max && !current.is_empty() {
            pieces.push(std::mem::take(&mut current));
        }
        if line.chars().count() > max {
            let chars: Vec<char> = line.chars().collect();
            for chunk in chars.chunks(max) {
                pieces.push(chunk.iter().collect());
            }
        } else {
            current.push_str(line);
        }
    }
    if !current.is_empty() {
        pieces.push(current);
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::split_text;
    use std::time::Duration;

    #[test]
    fn an_old_interaction_defers_sooner() {
        let now_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("after 1970")
            .as_millis() as u64;
        let snowflake = |age_ms: u64| (now_ms - age_ms - super::DISCORD_EPOCH_MS) << 22;
        let limit = Duration::from_millis(1500);
        assert_eq!(super::defer_budget(snowflake(0), limit), limit);
        let budget = super::defer_budget(snowflake(2000), limit);
        assert!(budget <= Duration::from_millis(500), "{budget:?}");
        assert_eq!(super::defer_budget(snowflake(4000), limit), Duration::ZERO);
        // Created "in the future" (our clock behind Discord's): the configured limit.
        assert_eq!(
            super::defer_budget((now_ms + 5000 - super::DISCORD_EPOCH_MS) << 22, limit),
            limit
        );
    }

    #[test]
    fn split_text_keeps_everything_and_respects_the_limit() {
        let text = "a line\nanother longer line\n".repeat(50);
        let pieces = split_text(&text, 100);
        assert!(pieces.len() > 1);
        assert!(pieces.iter().all(|p| p.chars().count() <= 100));
        assert_eq!(pieces.concat(), text);
    }

    #[test]
    fn split_text_cuts_an_overlong_line() {
        let text = "ก".repeat(250);
        let pieces = split_text(&text, 100);
        assert_eq!(pieces.len(), 3);
        assert_eq!(pieces.concat(), text);
    }
}
