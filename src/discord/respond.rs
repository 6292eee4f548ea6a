//! Answers to interactions: one [`Answer`] shape, sent in time.
//!
//! Discord drops an interaction that is not acknowledged within 3 seconds. Most answers are
//! ready in milliseconds and go out as the callback itself (one request, the image included).
//! If the work is still running after `defer_after`, the bot acknowledges first (Discord shows
//! "thinking…") and fills the answer in when it is ready.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::pin;
use std::time::Duration;

use poise::futures_util::FutureExt as _;

use poise::serenity_prelude as serenity;
use serenity::{
    CommandInteraction, ComponentInteraction, CreateActionRow, CreateAttachment, CreateEmbed,
    CreateInteractionResponse, CreateInteractionResponseFollowup, CreateInteractionResponseMessage,
    EditInteractionResponse, Http,
};

/// A message to show: text, embeds, files, buttons; either to everyone or only to the user.
#[derive(Clone, Debug, Default)]
pub(crate) struct Answer {
    pub content: String,
    pub embeds: Vec<CreateEmbed>,
    pub files: Vec<CreateAttachment>,
    pub components: Vec<CreateActionRow>,
    /// Only the user who interacted sees it.
    pub ephemeral: bool,
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
}

/// Answers a slash command with the result of `work`: directly if it is ready within
/// `defer_after`, else defer first, then edit the answer in (or, for a private answer, replace
/// the public "thinking…" placeholder with a private follow-up).
///
/// # Errors
/// When Discord refuses a request.
pub(crate) async fn answer_command(
    http: &Http,
    interaction: &CommandInteraction,
    defer_after: Duration,
    work: impl Future<Output = Answer>,
) -> serenity::Result<()> {
    let mut work = pin!(work);
    if let Some(answer) = ready_within(&mut work, defer_after).await {
        return interaction
            .create_response(http, CreateInteractionResponse::Message(answer.message()))
            .await;
    }
    tracing::debug!("deferring");
    interaction
        .create_response(
            http,
            CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new()),
        )
        .await?;
    let answer = work.await;
    if answer.ephemeral {
        interaction.delete_response(http).await?;
        interaction.create_followup(http, answer.followup()).await?;
    } else {
        interaction.edit_response(http, answer.edit()).await?;
    }
    Ok(())
}

/// Discord's epoch (2015-01-01) in Unix milliseconds: snowflakes count from it.
const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;

/// How long to wait before deferring the answer to interaction `id` (a snowflake): at most
/// `defer_after`, and less if the interaction was created a while ago (a gateway backlog), so the
/// first answer still reaches Discord within its 3 seconds. A clock running behind Discord's only
/// makes this fall back to `defer_after`; one running ahead only defers earlier.
pub(crate) fn defer_budget(id: u64, defer_after: Duration) -> Duration {
    const DEADLINE: Duration = Duration::from_millis(2500);
    let created_ms = (id >> 22) + DISCORD_EPOCH_MS;
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    let age = Duration::from_millis(now_ms.saturating_sub(created_ms));
    defer_after.min(DEADLINE.saturating_sub(age))
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
pub(crate) enum PressAnswer {
    /// Replace the message the button is on (e.g. the challenge becomes the game start).
    Update(Answer),
    /// A new message (public or private), the button's message unchanged.
    Reply(Answer),
}

/// Answers a button press with the result of `work`, in time (see [`answer_command`]).
///
/// # Errors
/// When Discord refuses a request.
pub(crate) async fn answer_press(
    http: &Http,
    interaction: &ComponentInteraction,
    defer_after: Duration,
    work: impl Future<Output = PressAnswer>,
) -> serenity::Result<()> {
    let mut work = pin!(work);
    if let Some(answer) = ready_within(&mut work, defer_after).await {
        let response = match answer {
            PressAnswer::Update(a) => CreateInteractionResponse::UpdateMessage(a.message()),
            PressAnswer::Reply(a) => CreateInteractionResponse::Message(a.message()),
        };
        return interaction.create_response(http, response).await;
    }
    tracing::debug!("deferring");
    interaction
        .create_response(http, CreateInteractionResponse::Acknowledge)
        .await?;
    match work.await {
        PressAnswer::Update(a) => {
            interaction.edit_response(http, a.edit()).await?;
        }
        PressAnswer::Reply(a) => {
            interaction.create_followup(http, a.followup()).await?;
        }
    }
    Ok(())
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
