//! The leaf of the adapter's output: the one [`Answer`] shape every interaction, announcement
//! and re-post is written in, and [`send`], the one way a request goes to Discord (retried as
//! Discord allows). It imports nothing else of the adapter, so that the pipeline (`respond`),
//! the boards' keeper (`herald`), the poster (`announce`) and the threads (`threads`) all build
//! on it without importing each other.

use std::future::Future;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::{
    CreateActionRow, CreateAttachment, CreateEmbed, CreateInteractionResponseFollowup,
    CreateInteractionResponseMessage, CreateMessage, EditInteractionResponse,
};
use tokio::time::Instant;
use tracing::{debug, warn};

use crate::game::{ChallengeId, GameId};
use crate::i18n::Locale;

/// A message to show: text, embeds, files, buttons; either to everyone or only to the user.
#[derive(Clone, Debug, Default)]
pub(crate) struct Answer {
    pub content: String,
    pub embeds: Vec<CreateEmbed>,
    pub files: Vec<CreateAttachment>,
    pub components: Vec<CreateActionRow>,
    /// Only the user who interacted sees it.
    pub ephemeral: bool,
    /// It replaces the message whose button was pressed (e.g. the challenge becomes the game
    /// start) instead of being a new message. Only a button press has such a message: a
    /// command's answer is always a new one.
    pub update: bool,
    /// The board it shows: game and plies. Once a public answer with a board reached the
    /// channel, that game's moves up to it are marked announced.
    pub shows: Option<(GameId, u32)>,
    /// Set on a new challenge: once it reached the channel, its message is stored with the
    /// challenge, whose buttons then go when it closes without a press on them.
    pub challenge: Option<ChallengeId>,
    /// Set on a finished game's board: what happened and who played. Once it reached the
    /// channel, a thread's starting message says it too.
    pub ended: Option<Ended>,
}

/// How a finished game's board says it ended, for the starting message of the game's thread.
#[derive(Clone, Debug)]
pub(crate) struct Ended {
    /// What happened and who played ("Black wins by checkmate: @a vs @b").
    pub what: String,
    /// The language of the board's message (the server's), which the thread's message keeps.
    pub locale: Locale,
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

    /// This answer replacing the message whose button was pressed (see [`Answer::update`]).
    #[must_use]
    pub(crate) fn updating(self) -> Answer {
        Answer {
            update: true,
            ..self
        }
    }

    /// The answer as an interaction callback's message.
    pub(crate) fn message(self) -> CreateInteractionResponseMessage {
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

    /// The answer as the edit of an acknowledged interaction's message.
    pub(crate) fn edit(self) -> EditInteractionResponse {
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

    /// The answer as a follow-up of an acknowledged interaction.
    pub(crate) fn followup(self) -> CreateInteractionResponseFollowup {
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
    /// 10062 / 10015 / 50027: the interaction or its token expired (or never existed); 40094:
    /// the interaction took all the follow-ups Discord allows it.
    Expired,
    /// Not sent: the channel takes only answers to interactions and none can carry it now
    /// (see `super::reach`); it waits for the next interaction there.
    Held,
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
                (_, 10062 | 10015 | 50027 | 40094) => Failure::Expired,
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
    /// Not sent because no interaction in an answer-only channel can carry it now (see
    /// `super::reach`).
    pub(crate) fn held() -> Failed {
        Failed {
            kind: Failure::Held,
            error: serenity::Error::Other("no interaction to answer with in this channel"),
        }
    }

    /// See [`Failed::held`].
    pub(crate) fn is_held(&self) -> bool {
        self.kind == Failure::Held
    }

    /// The interaction's token can carry nothing more: expired, or its follow-ups used up.
    pub(crate) fn token_spent(&self) -> bool {
        self.kind == Failure::Expired
    }

    /// Discord refused it for good (not a rate limit, a server error or an expired token): a
    /// message to a channel the bot cannot reach, say.
    pub(crate) fn refused(&self) -> bool {
        self.kind == Failure::Refused
    }

    /// Discord says the interaction was already acknowledged: an earlier try of a callback got
    /// through.
    pub(crate) fn already_acknowledged(&self) -> bool {
        self.kind == Failure::AlreadyAcknowledged
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
