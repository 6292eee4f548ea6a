//! `/count`: the count explained; `traditional`: board's honour started or stopped.

use super::{channel, run, user};
use crate::discord::answer::Answer;
use crate::discord::i18n::Locales;
use crate::discord::messages::game_answer;
use crate::discord::{Context, Error};

/// What `/count` does.
#[derive(Debug, poise::ChoiceParameter)]
pub(crate) enum CountAction {
    #[name = "explain"]
    Explain,
    #[name = "start"]
    Start,
    #[name = "stop"]
    Stop,
}

/// `/count [action]`: explain the count; `traditional`: start or stop board's honour.
#[poise::command(slash_command)]
pub(super) async fn count(ctx: Context<'_>, action: Option<CountAction>) -> Result<(), Error> {
    let service = ctx.data().service.clone();
    let (channel, player) = (channel(ctx), user(ctx));
    run(ctx, |locales: Locales| async move {
        let locale = locales.public;
        match action.unwrap_or(CountAction::Explain) {
            CountAction::Explain => {
                let text = service.explain_count(channel, locale).await?;
                Ok(Answer::public(text))
            }
            CountAction::Start => {
                let reply = service.count_start(channel, player).await?;
                game_answer(&reply, locale).await
            }
            CountAction::Stop => {
                let reply = service.count_stop(channel, player).await?;
                game_answer(&reply, locale).await
            }
        }
    })
    .await
}
