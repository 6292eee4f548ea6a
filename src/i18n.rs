//! Localised texts (Fluent). Every user-facing text of the service and the bot lives in
//! `i18n/<lang>/*.ftl` (`en`, `th`); all files of a language form one bundle, embedded at build
//! time (`build.rs`), so a text change needs no code change.
//!
//! One way to get a text: [`tr!`](crate::tr), e.g. `tr!(locale, "status-turn", player = name)`.
//! A message missing in Thai falls back to English; a message missing everywhere gives its id
//! (and the test `every_message_exists_in_both_languages` catches that).
//!
//! Nothing here knows a chat platform: [`Locale`] is a language, and users reach a text as
//! whatever string the caller wrote for them (the Discord adapter writes mentions).

use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};

/// The language of a user-facing text. Texts come from `i18n/<lang>/*.ftl`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Locale {
    /// English (the default).
    #[default]
    En,
    /// Thai.
    Th,
}

impl Locale {
    /// All supported locales.
    pub const ALL: [Locale; 2] = [Locale::En, Locale::Th];

    /// The language tag: `"en"` or `"th"` (also the folder name under `i18n/`).
    #[must_use]
    pub const fn tag(self) -> &'static str {
        match self {
            Locale::En => "en",
            Locale::Th => "th",
        }
    }

    /// The locale of language tag `tag` (as [`Locale::tag`] writes it); an unknown tag gives
    /// the default.
    #[must_use]
    pub fn from_tag(tag: &str) -> Locale {
        Locale::ALL
            .into_iter()
            .find(|l| l.tag() == tag)
            .unwrap_or_default()
    }
}

include!(concat!(env!("OUT_DIR"), "/i18n_files.rs"));

struct Bundles {
    en: FluentBundle<FluentResource>,
    th: FluentBundle<FluentResource>,
}

fn bundle_for(tag: &str) -> FluentBundle<FluentResource> {
    let lang = tag.parse().unwrap_or_default();
    let mut bundle = FluentBundle::new_concurrent(vec![lang]);
    // Discord shows the Unicode isolation marks Fluent puts around placeables as boxes.
    bundle.set_use_isolating(false);
    for (file_lang, path, text) in FTL_FILES {
        if *file_lang != tag {
            continue;
        }
        let resource = match FluentResource::try_new((*text).to_string()) {
            Ok(r) => r,
            Err((r, errors)) => {
                tracing::error!(path, ?errors, "syntax errors in a Fluent file");
                r
            }
        };
        if let Err(errors) = bundle.add_resource(resource) {
            tracing::error!(path, ?errors, "duplicate Fluent messages");
        }
    }
    bundle
}

static BUNDLES: LazyLock<Bundles> = LazyLock::new(|| Bundles {
    en: bundle_for("en"),
    th: bundle_for("th"),
});

fn bundle(locale: Locale) -> &'static FluentBundle<FluentResource> {
    match locale {
        Locale::En => &BUNDLES.en,
        Locale::Th => &BUNDLES.th,
    }
}

/// A text argument: a string or a number (see [`tr!`](crate::tr)).
#[derive(Clone, Debug)]
pub enum Arg {
    Str(String),
    Num(i64),
}

impl From<&str> for Arg {
    fn from(s: &str) -> Arg {
        Arg::Str(s.to_string())
    }
}

impl From<String> for Arg {
    fn from(s: String) -> Arg {
        Arg::Str(s)
    }
}

impl From<u32> for Arg {
    fn from(n: u32) -> Arg {
        Arg::Num(i64::from(n))
    }
}

impl From<i64> for Arg {
    fn from(n: i64) -> Arg {
        Arg::Num(n)
    }
}

impl From<&String> for Arg {
    fn from(s: &String) -> Arg {
        Arg::Str(s.clone())
    }
}

impl From<usize> for Arg {
    fn from(n: usize) -> Arg {
        Arg::Num(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

/// The message id of an option choice: `choice-` and the choice's value, a `+` written `-plus-`
/// (Fluent ids have no `+`: the choice `3+2` is `choice-3-plus-2`, `3d` is `choice-3d`).
#[must_use]
pub fn choice_id(value: &str) -> String {
    format!("choice-{}", value.replace('+', "-plus-"))
}

/// True when message `id` exists in `locale` (without fallback).
#[must_use]
pub fn has(locale: Locale, id: &str) -> bool {
    bundle(locale).has_message(id)
}

/// The message `id` in `locale`, its arguments filled in: `tr!(locale, "id")` or
/// `tr!(locale, "id", name = value, …)`, where each value is anything an [`Arg`] is made from
/// (a string or a number). Falls back to English, then to the id itself. `id` is a `&str`
/// (computed ids such as `&format!("end-{}", reason.name())` too).
#[macro_export]
macro_rules! tr {
    ($locale:expr, $id:expr $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::i18n::translate(
            $locale,
            $id,
            &[$((stringify!($name), $crate::i18n::Arg::from($value))),*],
        )
    };
}

/// What [`tr!`](crate::tr) calls: the message `id` in `locale` with `args`, falling back to
/// English, then to the id itself.
#[must_use]
pub fn translate(locale: Locale, id: &str, args: &[(&str, Arg)]) -> String {
    let mut fargs = FluentArgs::new();
    for (name, value) in args {
        match value {
            Arg::Str(s) => fargs.set(*name, FluentValue::from(s.clone())),
            Arg::Num(n) => fargs.set(*name, FluentValue::from(*n)),
        }
    }
    for b in [bundle(locale), bundle(Locale::En)] {
        if let Some(pattern) = b.get_message(id).and_then(|m| m.value()) {
            let mut errors = Vec::new();
            let text = b.format_pattern(pattern, Some(&fargs), &mut errors);
            if !errors.is_empty() {
                tracing::warn!(id, ?errors, "errors formatting a Fluent message");
            }
            return text.into_owned();
        }
    }
    tracing::warn!(id, "missing Fluent message");
    id.to_string()
}

/// Ids of every message defined for `locale` (no fallback), sorted.
#[must_use]
pub fn message_ids(locale: Locale) -> Vec<String> {
    let mut ids = Vec::new();
    for (lang, _, text) in FTL_FILES {
        if *lang != locale.tag() {
            continue;
        }
        // A message starts a line with its id followed by `=` (terms start with `-`).
        for line in text.lines() {
            if !line.starts_with(|c: char| c.is_ascii_alphabetic()) {
                continue;
            }
            if let Some((id, _)) = line.split_once('=') {
                ids.push(id.trim().to_string());
            }
        }
    }
    ids.sort();
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_exists_in_both_languages() {
        let en = message_ids(Locale::En);
        let th = message_ids(Locale::Th);
        assert!(!en.is_empty());
        let missing_th: Vec<_> = en.iter().filter(|id| !th.contains(id)).collect();
        let missing_en: Vec<_> = th.iter().filter(|id| !en.contains(id)).collect();
        assert!(missing_th.is_empty(), "missing in th: {missing_th:?}");
        assert!(missing_en.is_empty(), "missing in en: {missing_en:?}");
    }

    #[test]
    fn no_message_is_defined_twice() {
        for locale in Locale::ALL {
            let ids = message_ids(locale);
            let mut dups: Vec<&String> = ids
                .windows(2)
                .filter(|w| w[0] == w[1])
                .map(|w| &w[0])
                .collect();
            dups.dedup();
            assert!(dups.is_empty(), "defined twice in {locale:?}: {dups:?}");
        }
    }

    #[test]
    fn arguments_are_filled_in_without_isolation_marks() {
        let text = crate::tr!(Locale::En, "discord-not-your-challenge", user = "<@42>");
        assert!(text.contains("<@42>"), "{text}");
        assert!(!text.contains('\u{2068}'), "{text:?}");
        let text = crate::tr!(Locale::En, "discord-pgn-text", id = 7_i64, url = "u");
        assert!(text.contains("#7"), "{text}");
        assert_eq!(crate::tr!(Locale::Th, "no-such-message"), "no-such-message");
    }

    #[test]
    fn counts_of_games_agree_with_their_noun() {
        let line = |games: i64| {
            crate::tr!(
                Locale::En,
                "leaderboard-line",
                rank = 1_i64,
                player = "p",
                rating = "1500",
                games = games,
                wins = 0_i64,
                draws = 0_i64,
                losses = 0_i64
            )
        };
        assert!(line(1).contains("1 game ("), "{}", line(1));
        assert!(line(2).contains("2 games ("), "{}", line(2));
        let stats = crate::tr!(
            Locale::En,
            "stats-games",
            games = 1_i64,
            record = "r",
            white = "w",
            black = "b"
        );
        assert!(stats.starts_with("1 game:"), "{stats}");
    }

    #[test]
    fn files_parse_without_errors() {
        for (_, path, text) in FTL_FILES {
            assert!(
                FluentResource::try_new((*text).to_string()).is_ok(),
                "syntax error in {path}"
            );
        }
    }
}
