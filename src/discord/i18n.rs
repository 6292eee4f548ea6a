//! The adapter's texts (command names/descriptions, buttons, apologies) live in
//! `i18n/<lang>/discord.ftl` and are read through the shared loader [`crate::i18n`]; game texts
//! come from the service. Keys of `discord.ftl` are `cmd-*`, `choice-*`, `button-*` and
//! `discord-*`.

use std::collections::HashMap;

use fluent_bundle::FluentValue;

use crate::i18n::Arg;

pub(crate) use crate::game::Locale;

/// Discord's locale codes for the languages we translate to (besides the default English).
pub(crate) const DISCORD_LOCALES: [(&str, Locale); 1] = [("th", Locale::Th)];

/// The text `key` (with `args`) in `locale`, falling back to English, then to the key itself.
pub(crate) fn tr_args(locale: Locale, key: &str, args: &[(&str, FluentValue<'_>)]) -> String {
    let args: Vec<(&str, Arg)> = args
        .iter()
        .map(|(name, value)| {
            let arg = match value {
                FluentValue::Number(n) => Arg::Num(n.value as i64),
                FluentValue::String(s) => Arg::Str(s.to_string()),
                _ => Arg::Str(String::new()),
            };
            (*name, arg)
        })
        .collect();
    crate::i18n::tr(locale, key, &args)
}

/// The text `key` in `locale` (no arguments).
pub(crate) fn tr(locale: Locale, key: &str) -> String {
    crate::i18n::tr0(locale, key)
}

/// The text `key` in each translated Discord locale where it exists, for
/// `name_localizations` / `description_localizations`.
pub(crate) fn localizations(key: &str) -> HashMap<String, String> {
    DISCORD_LOCALES
        .iter()
        .filter(|(_, locale)| crate::i18n::has(*locale, key))
        .map(|(code, locale)| ((*code).to_owned(), crate::i18n::tr0(*locale, key)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const EN: &str = include_str!("../../i18n/en/discord.ftl");
    const TH: &str = include_str!("../../i18n/th/discord.ftl");

    /// Message ids: lines `id = …` starting in column 0.
    fn ids(source: &str) -> Vec<String> {
        let mut ids: Vec<String> = source
            .lines()
            .filter(|l| l.starts_with(|c: char| c.is_ascii_alphabetic()))
            .filter_map(|l| l.split_once(" =").map(|(id, _)| id.trim().to_owned()))
            .collect();
        ids.sort();
        ids
    }

    #[test]
    fn both_languages_have_the_same_keys_and_keep_to_their_prefixes() {
        assert_eq!(ids(EN), ids(TH));
        for id in ids(EN) {
            assert!(
                ["cmd-", "choice-", "button-", "discord-"]
                    .iter()
                    .any(|p| id.starts_with(p)),
                "{id}: keys of discord.ftl have the adapter's prefixes"
            );
        }
    }

    #[test]
    fn thai_is_used_when_asked_and_english_otherwise() {
        assert_ne!(tr(Locale::Th, "cmd-move"), tr(Locale::En, "cmd-move"));
        assert_eq!(tr(Locale::En, "cmd-move"), "move");
        assert_eq!(
            localizations("cmd-move").get("th").map(String::as_str),
            Some("เดิน")
        );
    }

    #[test]
    fn arguments_are_filled_in_without_isolation_marks() {
        let text = tr_args(
            Locale::En,
            "discord-not-your-challenge",
            &[("user", FluentValue::from("<@42>"))],
        );
        assert!(text.contains("<@42>"), "{text}");
        assert!(!text.contains('\u{2068}'), "{text:?}");
        let text = tr_args(
            Locale::En,
            "discord-pgn-text",
            &[("id", FluentValue::from(7))],
        );
        assert!(text.contains("#7"), "{text}");
    }
}
