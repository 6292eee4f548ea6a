//! The adapter's side of the texts: Discord's locale codes, mentions, and the localisations of
//! command names and descriptions. The adapter's own texts (command names/descriptions, buttons,
//! apologies) live in `i18n/<lang>/discord.ftl` and are read with [`crate::tr!`] like the
//! service's; keys of `discord.ftl` are `cmd-*`, `choice-*`, `button-*` and `discord-*`.

use std::collections::HashMap;

use crate::i18n::Locale;
use crate::types::UserId;

/// Discord's locale codes for the languages we translate to (besides the default English).
pub(crate) const DISCORD_LOCALES: [(&str, Locale); 1] = [("th", Locale::Th)];

/// The locale of a Discord locale code: `"th"` (or `"th-TH"`) gives Thai, anything else English.
pub(crate) fn locale(code: &str) -> Locale {
    let lang = code.split(['-', '_']).next().unwrap_or("");
    DISCORD_LOCALES
        .iter()
        .find(|(c, _)| lang.eq_ignore_ascii_case(c))
        .map_or(Locale::En, |&(_, l)| l)
}

/// The two languages of an interaction: its public messages are written in the server's
/// preferred locale (Discord's `guild_locale`; the user's own outside a server), its private
/// answers in the invoking user's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Locales {
    /// The server's: boards, status lines, challenges, buttons' labels.
    pub public: Locale,
    /// The user's: private (ephemeral) answers and errors.
    pub user: Locale,
}

impl Locales {
    /// The locales of an interaction with the user's `user` and the server's `guild` codes.
    pub(crate) fn of(user: &str, guild: Option<&str>) -> Locales {
        let user = locale(user);
        Locales {
            public: guild.map_or(user, locale),
            user,
        }
    }
}

/// A user as Discord writes a mention: `<@id>`. Every user in a text goes through here.
pub(crate) fn mention(user: UserId) -> String {
    format!("<@{}>", user.0)
}

/// The text `key` in each translated Discord locale where it exists, for
/// `name_localizations` / `description_localizations`.
pub(crate) fn localizations(key: &str) -> HashMap<String, String> {
    DISCORD_LOCALES
        .iter()
        .filter(|(_, locale)| crate::i18n::has(*locale, key))
        .map(|(code, locale)| ((*code).to_owned(), crate::tr!(*locale, key)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tr;

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
        assert_ne!(tr!(Locale::Th, "cmd-move"), tr!(Locale::En, "cmd-move"));
        assert_eq!(tr!(Locale::En, "cmd-move"), "move");
        assert_eq!(
            localizations("cmd-move").get("th").map(String::as_str),
            Some("เดิน")
        );
    }

    /// One name per ruleset: the choice a user picks is the name every message uses.
    #[test]
    fn a_ruleset_has_one_name_in_choices_and_messages() {
        for locale in [Locale::En, Locale::Th] {
            for r in makruk::Ruleset::ALL {
                assert_eq!(
                    tr!(locale, &format!("choice-{}", r.name())),
                    crate::game::ruleset_name(locale, r),
                    "{locale:?} {r:?}"
                );
            }
        }
    }

    /// One name per variant: the `variant` option's choice is the name titles and lists use.
    #[test]
    fn a_variant_has_one_name_in_choices_and_messages() {
        for locale in [Locale::En, Locale::Th] {
            for v in makruk::Variant::ALL {
                let name = crate::game::variant_name(locale, v);
                assert_eq!(tr!(locale, &format!("choice-{}", v.name())), name);
                assert!(!name.starts_with("variant-"), "{locale:?} {v:?}");
            }
        }
    }

    #[test]
    fn discord_locale_codes() {
        assert_eq!(locale("th"), Locale::Th);
        assert_eq!(locale("TH-th"), Locale::Th);
        assert_eq!(locale("en-US"), Locale::En);
        assert_eq!(locale("thx"), Locale::En);
        assert_eq!(locale(""), Locale::En);
    }

    #[test]
    fn users_are_mentions() {
        assert_eq!(mention(UserId(42)), "<@42>");
    }
}
