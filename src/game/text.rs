//! Localised texts of the service, from `i18n/<lang>/*.ftl`.

use super::error::ServiceError;
use super::rules::Ruleset;
use super::types::{ChallengeView, Locale, Reply, RulesTopic};

pub(crate) fn error_message(err: &ServiceError, locale: Locale) -> String {
    let _ = locale;
    err.to_string()
}

pub(crate) fn reply_text(reply: &Reply, locale: Locale) -> String {
    let _ = (reply, locale);
    String::new()
}

pub(crate) fn challenge_text(challenge: &ChallengeView, locale: Locale) -> String {
    let _ = (challenge, locale);
    String::new()
}

pub(crate) fn rules_text(ruleset: Ruleset, topic: RulesTopic, locale: Locale) -> String {
    let _ = (ruleset, topic, locale);
    String::new()
}
