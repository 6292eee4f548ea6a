//! The adapter's own texts (command names/descriptions, buttons, apologies) from
//! `i18n/<lang>/discord.ftl`, embedded at compile time. Game texts come from the service.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};

pub(crate) use crate::game::Locale;

const EN: &str = include_str!("../../i18n/en/discord.ftl");
const TH: &str = include_str!("../../i18n/th/discord.ftl");

/// Discord's locale codes for the languages we translate to (besides the default English).
pub(crate) const DISCORD_LOCALES: [(&str, Locale); 1] = [("th", Locale::Th)];

fn bundle(lang: unic_langid::LanguageIdentifier, source: &str) -> FluentBundle<FluentResource> {
    let resource = match FluentResource::try_new(source.to_owned()) {
        Ok(r) => r,
        // A syntax error in an embedded file: keep what parsed (the unit tests catch it).
        Err((r, errors)) => {
            tracing::error!(?errors, "syntax errors in discord.ftl");
            r
        }
    };
    let mut bundle = FluentBundle::new_concurrent(vec![lang]);
    // No Unicode isolation marks: they would break Discord mentions like `<@123>`.
    bundle.set_use_isolating(false);
    if let Err(errors) = bundle.add_resource(resource) {
        tracing::error!(?errors, "duplicate messages in discord.ftl");
    }
    bundle
}

static BUNDLES: LazyLock<[FluentBundle<FluentResource>; 2]> = LazyLock::new(|| {
    [
        bundle(unic_langid::langid!("en"), EN),
        bundle(unic_langid::langid!("th"), TH),
    ]
});

fn bundle_of(locale: Locale) -> &'static FluentBundle<FluentResource> {
    match locale {
        Locale::Th => &BUNDLES[1],
        _ => &BUNDLES[0],
    }
}

/// The text `key` (with `args`) in `locale`, falling back to English, then to the key itself.
pub(crate) fn tr_args(locale: Locale, key: &str, args: &[(&str, FluentValue<'_>)]) -> String {
    let mut fluent_args = FluentArgs::new();
    for (name, value) in args {
        fluent_args.set(*name, value.clone());
    }
    for bundle in [bundle_of(locale), bundle_of(Locale::En)] {
        if let Some(pattern) = bundle.get_message(key).and_then(|m| m.value()) {
            let mut errors = Vec::new();
            let text = bundle.format_pattern(pattern, Some(&fluent_args), &mut errors);
            if !errors.is_empty() {
                tracing::warn!(key, ?errors, "formatting errors in discord.ftl");
            }
            return text.into_owned();
        }
    }
    tracing::warn!(key, "missing text in discord.ftl");
    key.to_owned()
}

/// The text `key` in `locale` (no arguments).
pub(crate) fn tr(locale: Locale, key: &str) -> String {
    tr_args(locale, key, &[])
}

/// The text `key` in each translated Discord locale where it exists, for
/// `name_localizations` / `description_localizations`.
pub(crate) fn localizations(key: &str) -> HashMap<String, String> {
    DISCORD_LOCALES
        .iter()
        .filter_map(|(code, locale)| {
            let bundle = bundle_of(*locale);
            let pattern = bundle.get_message(key)?.value()?;
            let mut errors = Vec::new();
            let text: Cow<'_, str> = bundle.format_pattern(pattern, None, &mut errors);
            errors
                .is_empty()
                .then(|| ((*code).to_owned(), text.into_owned()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Message ids: lines `id = …` starting in column 0.
    fn ids(source: &str) -> Vec<String> {
        source
            .lines()
            .filter(|l| l.starts_with(|c: char| c.is_ascii_alphabetic()))
            .filter_map(|l| l.split_once(" =").map(|(id, _)| id.trim().to_owned()))
            .collect()
    }

    #[test]
    fn both_languages_have_the_same_keys() {
        let mut en = ids(EN);
        let mut th = ids(TH);
        en.sort();
        th.sort();
        assert_eq!(en, th);
    }

    #[test]
    fn thai_is_used_when_asked_and_english_otherwise() {
        assert_ne!(tr(Locale::Th, "cmd-move"), tr(Locale::En, "cmd-move"));
        assert_eq!(tr(Locale::En, "cmd-move"), "move");
        assert_eq!(tr(Locale::En, "no-such-key"), "no-such-key");
    }

    #[test]
    fn arguments_are_filled_in_without_isolation_marks() {
        let text = tr_args(
            Locale::En,
            "not-your-challenge",
            &[("user", FluentValue::from("<@42>"))],
        );
        assert!(text.contains("<@42>"), "{text}");
        assert!(!text.contains('\u{2068}'), "{text:?}");
    }
}
