//! The adapter's one way in and one way out: every interaction, a slash command or a button
//! press ([`Interaction`]), is run by [`run`] and answered by [`answer`].
//!
//! [`run`] opens the interaction's tracing span, holds the shutdown's in-flight lock, reads the
//! user's and the server's locales (storing the server's for the messages sent outside
//! interactions), turns a service error into its private answer and a panic into an apology, and
//! hands the [`Answer`] to [`answer`].
//!
//! Discord drops an interaction that is not acknowledged within 3 seconds. Most answers are
//! ready in milliseconds and go out as the callback itself (one request, the image included).
//! If the work is still running after `defer_after`, the bot acknowledges first (Discord shows
//! "thinking…" for a command; a button press is acknowledged silently) and fills the answer in
//! when it is ready.
//!
//! A public answer (a board after a move) must reach the channel even when Discord fails
//! (defect 1 of issue 13): each request is retried as Discord allows ([`send`]: a 429 or a 5xx
//! or a lost connection is tried again after a wait, a callback only while its 3 seconds last);
//! a callback answered "already acknowledged" had got through. Then the documented ways back:
//! an acknowledged interaction whose edit fails gets a follow-up (its token lasts 15 minutes);
//! an interaction never acknowledged (the callback failed or came too late, Discord answers
//! "Unknown interaction") gets its public answer as a plain channel message. Once a board is in
//! the channel its moves are marked announced ([`Herald`]); a private answer that cannot be sent
//! is only logged (it changes nothing).

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::pin;
use std::time::Duration;

use poise::futures_util::FutureExt as _;
use poise::serenity_prelude as serenity;
use serenity::{
    CommandInteraction, ComponentInteraction, CreateInteractionResponse,
    CreateInteractionResponseMessage, Http,
};
use tokio::time::Instant;
use tracing::{debug, error, info, warn, Instrument as _};

use super::answer::{send, Answer, Failed};
use super::herald::Herald;
use super::i18n::{locale, Locales};
use super::messages::error_answer;
use super::Data;
use crate::game::{GameService, ServiceError};
use crate::tr;

/// How long Discord waits for the first answer to an interaction.
const CALLBACK_WINDOW: Duration = Duration::from_millis(3000);

/// An interaction to answer: a slash command or a button press.
#[derive(Clone, Copy)]
pub(crate) enum Interaction<'a> {
    /// A slash command (its autocomplete is answered by poise).
    Command(&'a CommandInteraction),
    /// A button press.
    Press(&'a ComponentInteraction),
}

impl<'a> Interaction<'a> {
    /// Its id, a snowflake (it tells when it was created).
    fn id(self) -> u64 {
        match self {
            Interaction::Command(i) => i.id.get(),
            Interaction::Press(i) => i.id.get(),
        }
    }

    /// The channel it came from.
    fn channel(self) -> serenity::ChannelId {
        match self {
            Interaction::Command(i) => i.channel_id,
            Interaction::Press(i) => i.channel_id,
        }
    }

    /// The server it came from (`None` in a direct message).
    fn guild(self) -> Option<serenity::GuildId> {
        match self {
            Interaction::Command(i) => i.guild_id,
            Interaction::Press(i) => i.guild_id,
        }
    }

    /// Its token: follow-ups and edits of its answer use it for 15 minutes.
    fn token(self) -> &'a str {
        match self {
            Interaction::Command(i) => &i.token,
            Interaction::Press(i) => &i.token,
        }
    }

    /// Whether it comes from a channel the bot may only answer in (see
    /// [`super::reach::answer_only`]).
    pub(crate) fn answer_only(self) -> bool {
        match self {
            Interaction::Command(i) => {
                super::reach::answer_only(i.context, i.guild_id, &i.authorizing_integration_owners)
            }
            Interaction::Press(i) => {
                super::reach::answer_only(i.context, i.guild_id, &i.authorizing_integration_owners)
            }
        }
    }

    /// Discord's locale codes: the user's, and the server's preferred one.
    fn locale_codes(self) -> (&'a str, Option<&'a str>) {
        match self {
            Interaction::Command(i) => (&i.locale, i.guild_locale.as_deref()),
            Interaction::Press(i) => (&i.locale, i.guild_locale.as_deref()),
        }
    }

    /// The first answer carrying `answer`: a new message, or for a press the pressed message
    /// replaced when the answer says so.
    fn response(self, answer: Answer) -> CreateInteractionResponse {
        match self {
            Interaction::Press(_) if answer.update => {
                CreateInteractionResponse::UpdateMessage(answer.message())
            }
            _ => CreateInteractionResponse::Message(answer.message()),
        }
    }

    /// The first answer that only acknowledges: a command's public "thinking…" placeholder; a
    /// press's silent acknowledgement (the pressed message unchanged for now).
    fn defer(self) -> CreateInteractionResponse {
        match self {
            Interaction::Command(_) => {
                CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new())
            }
            Interaction::Press(_) => CreateInteractionResponse::Acknowledge,
        }
    }

    async fn create_response(
        self,
        http: &Http,
        response: CreateInteractionResponse,
    ) -> serenity::Result<()> {
        match self {
            Interaction::Command(i) => i.create_response(http, response).await,
            Interaction::Press(i) => i.create_response(http, response).await,
        }
    }

    /// Edits `answer` into the interaction's message: a command's placeholder, a press's
    /// pressed message.
    async fn edit_response(self, http: &Http, answer: Answer) -> serenity::Result<()> {
        match self {
            Interaction::Command(i) => i.edit_response(http, answer.edit()).await.map(drop),
            Interaction::Press(i) => i.edit_response(http, answer.edit()).await.map(drop),
        }
    }

    async fn create_followup(self, http: &Http, answer: Answer) -> serenity::Result<()> {
        match self {
            Interaction::Command(i) => i.create_followup(http, answer.followup()).await.map(drop),
            Interaction::Press(i) => i.create_followup(http, answer.followup()).await.map(drop),
        }
    }

    /// The message Discord shows as the interaction's answer (`@original`).
    async fn get_response(self, http: &Http) -> serenity::Result<serenity::Message> {
        match self {
            Interaction::Command(i) => i.get_response(http).await,
            Interaction::Press(i) => i.get_response(http).await,
        }
    }

    async fn delete_response(self, http: &Http) -> serenity::Result<()> {
        match self {
            Interaction::Command(i) => i.delete_response(http).await,
            Interaction::Press(i) => i.delete_response(http).await,
        }
    }
}

/// Runs one interaction: a tracing span (the command or the button's custom id, channel, user,
/// latency), the answer sent in time and for sure ([`answer`]), and never a failed interaction:
/// a service error becomes its private answer ([`error_answer`]), a panic a short private
/// apology and a logged error.
///
/// `work` is given the interaction's [`Locales`]: public answers in the server's language,
/// private ones (and every error) in the user's. The server's language is remembered for the
/// messages sent outside interactions.
pub(crate) async fn run<F, Fut>(http: &Http, data: &Data, interaction: Interaction<'_>, work: F)
where
    F: FnOnce(Locales) -> Fut,
    Fut: Future<Output = Result<Answer, ServiceError>>,
{
    let started = std::time::Instant::now();
    let span = match interaction {
        Interaction::Command(i) => tracing::info_span!(
            "interaction",
            command = i.data.name.as_str(),
            channel = %i.channel_id,
            user = %i.user.id,
            latency_ms = tracing::field::Empty,
        ),
        Interaction::Press(i) => tracing::info_span!(
            "interaction",
            button = %i.data.custom_id,
            channel = %i.channel_id,
            user = %i.user.id,
            latency_ms = tracing::field::Empty,
        ),
    };
    async move {
        let _in_flight = data.in_flight.read().await;
        let (user_code, guild_code) = interaction.locale_codes();
        remember_guild_locale(&data.service, interaction.guild(), guild_code).await;
        let mut locales = Locales::of(user_code, guild_code);
        if interaction.guild().is_none() {
            // Outside a server public messages keep the language of the channel's first user.
            let channel = crate::game::ChannelId(interaction.channel().get());
            match data.service.channel_locale(channel, locales.user).await {
                Ok(public) => locales.public = public,
                Err(e) => warn!(error = %e, "cannot read the channel's locale"),
            }
        }
        data.herald
            .learn_reach(http, interaction.channel(), interaction.answer_only())
            .await;
        let locale = locales.user;
        let work = or_apology(
            async move {
                match work(locales).await {
                    Ok(answer) => answer,
                    Err(e) => error_answer(&e, locale),
                }
            },
            move || Answer::private(tr!(locale, "discord-internal-error")),
        );
        let budget = defer_budget(interaction.id(), data.defer_after);
        let sent = answer(http, &data.herald, interaction, budget, work).await;
        tracing::Span::current().record("latency_ms", started.elapsed().as_secs_f64() * 1000.0);
        match sent {
            Ok(()) => info!("answered"),
            Err(e) => error!("cannot answer the interaction: {e}"),
        }
    }
    .instrument(span)
    .await;
}

/// Stores `guild`'s preferred locale `code` (Discord's `guild_locale`) for the messages sent
/// outside interactions; a failure is only logged.
async fn remember_guild_locale(
    service: &GameService,
    guild: Option<serenity::GuildId>,
    code: Option<&str>,
) {
    if let (Some(guild), Some(code)) = (guild, code) {
        let guild = crate::game::GuildId(guild.get());
        if let Err(e) = service.remember_guild_locale(guild, locale(code)).await {
            warn!(error = %e, "cannot store the server's locale");
        }
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
        Err(f) if f.already_acknowledged() => Ok(()),
        other => other,
    }
}

/// Answers `interaction` with the result of `work`: directly if it is ready within
/// `defer_after`, else acknowledge first, then fill the answer in ([`fill_in`]). Discord's
/// failures are met as the module says; a public board that reached the channel marks its
/// moves announced.
///
/// # Errors
/// When no way got the answer to Discord.
pub(crate) async fn answer(
    http: &Http,
    herald: &Herald,
    interaction: Interaction<'_>,
    defer_after: Duration,
    work: impl Future<Output = Answer>,
) -> serenity::Result<()> {
    // While it is busy, what the bot would post by itself in an answer-only channel waits
    // (`Herald::post`): this answer goes first, and carries it if it can.
    let _busy = herald.busy(interaction.channel());
    let deadline = callback_deadline(interaction.id());
    let mut work = pin!(work);
    if let Some(answer) = ready_within(&mut work, defer_after).await {
        let sent = callback("callback", deadline, || {
            interaction.create_response(http, interaction.response(answer.clone()))
        })
        .await;
        return delivered(http, herald, interaction, answer, sent.map(|()| 0)).await;
    }
    debug!("deferring");
    let deferred = callback("defer", deadline, || {
        interaction.create_response(http, interaction.defer())
    })
    .await;
    let answer = work.await;
    let filled = match deferred {
        Ok(()) => fill_in(http, interaction, &answer).await,
        Err(why) => Err(why),
    };
    delivered(http, herald, interaction, answer, filled).await
}

/// Fills in the answer of an acknowledged interaction: a command's public answer and a press's
/// update are edited in (else sent as a follow-up); a command's private answer replaces the
/// public placeholder (deleted) with a private follow-up; a press's new message is a follow-up.
/// Returns how many follow-ups it sent (0 or 1).
async fn fill_in(http: &Http, interaction: Interaction<'_>, answer: &Answer) -> Result<u8, Failed> {
    let edited = match interaction {
        Interaction::Command(_) => !answer.ephemeral,
        Interaction::Press(_) => answer.update,
    };
    if edited {
        match send("edit", None, || {
            interaction.edit_response(http, answer.clone())
        })
        .await
        {
            Ok(()) => return Ok(0),
            Err(why) => warn!("cannot edit the answer in, sending it as a follow-up: {why}"),
        }
    } else if let Interaction::Command(_) = interaction {
        // The placeholder is public: it goes, and the private answer follows.
        if let Err(f) = send("delete", None, || interaction.delete_response(http)).await {
            warn!("cannot delete the placeholder: {f}");
        }
    }
    send("follow-up", None, || {
        interaction.create_followup(http, answer.clone())
    })
    .await
    .map(|()| 1)
}

/// After the interaction's ways were tried (`sent`): a board that reached the channel marks its
/// moves announced; an answer the interaction could not carry goes the way back: a public one
/// to the channel as a plain message, a private one is dropped (logged: it changed nothing).
/// In an answer-only channel the interaction's token then carries what waited for it
/// (`announce::at_the_door`, the channel's door locked meanwhile; `sent` says how many
/// follow-ups the answer itself took); there is no way back there: a lost public answer's moves
/// wait for the next interaction.
async fn delivered(
    http: &Http,
    herald: &Herald,
    interaction: Interaction<'_>,
    answer: Answer,
    sent: Result<u8, Failed>,
) -> serenity::Result<()> {
    let channel = interaction.channel();
    let door = herald.reach().door(channel);
    let why = match sent {
        Ok(used) => {
            herald.shown(http, &answer).await;
            remember_challenge_message(http, herald.service(), interaction, &answer).await;
            if let Some(door) = &door {
                let mut door = door.lock().await;
                // The token's 15 minutes count from the interaction's creation.
                let created_ms =
                    herald.now_ms() - i64::try_from(age(interaction.id()).as_millis()).unwrap_or(0);
                door.open(interaction.token(), used, created_ms);
                let ended = answer
                    .shows
                    .filter(|_| answer.ended.is_some() && !answer.ephemeral);
                super::announce::at_the_door(herald, http, channel, &mut door, ended).await;
            }
            return Ok(());
        }
        Err(why) => why,
    };
    if answer.ephemeral {
        warn!(%channel, "a private answer is lost: {why}");
        return Ok(());
    }
    if let Some(door) = door {
        door.lock().await.owe();
        warn!(%channel, "an answer is lost in a channel the bot may only answer in: {why}");
        return Err(why.error);
    }
    warn!(%channel, "posting the answer as a channel message: {why}");
    herald
        .post(http, channel, answer)
        .await
        .map_err(|f| f.error)
}

/// A challenge's answer reached the channel: its message id is stored with the challenge, so
/// that its buttons go when it closes without a press ([`GameService::set_challenge_message`]).
/// A failure is only logged (a press on the buttons then says what became of the challenge).
async fn remember_challenge_message(
    http: &Http,
    service: &GameService,
    interaction: Interaction<'_>,
    answer: &Answer,
) {
    let Some(challenge) = answer.challenge.filter(|_| !answer.ephemeral) else {
        return;
    };
    let message = match send("original", None, || interaction.get_response(http)).await {
        Ok(message) => message,
        Err(f) => {
            warn!(
                challenge = challenge.0,
                "cannot read the challenge's message: {f}"
            );
            return;
        }
    };
    if let Err(e) = service
        .set_challenge_message(challenge, message.id.get())
        .await
    {
        warn!(challenge = challenge.0, error = %e, "cannot store the challenge's message");
    }
}

/// Discord's epoch (2015-01-01) in Unix milliseconds: snowflakes count from it.
const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;

/// How long to wait before deferring the answer to interaction `id` (a snowflake): at most
/// `defer_after`, and less if the interaction was created a while ago (a gateway backlog), so the
/// first answer still reaches Discord within its 3 seconds. A clock running behind Discord's only
/// makes this fall back to `defer_after`; one running ahead only defers earlier.
fn defer_budget(id: u64, defer_after: Duration) -> Duration {
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
async fn or_apology<T>(work: impl Future<Output = T>, apology: impl FnOnce() -> T) -> T {
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

#[cfg(test)]
mod tests {
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
}
