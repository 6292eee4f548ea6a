//! Discord's limits and validation rules for what a bot sends: command registrations, message
//! content, embeds, components, interaction callbacks and autocomplete choices
//! (<https://discord.com/developers/docs/interactions/application-commands>,
//! <https://discord.com/developers/docs/resources/message>).
//!
//! Each check appends a description of every violation to `problems`; the caller answers with
//! Discord's error when there is any.

use std::time::Duration;

use serde_json::Value;

/// Discord answers an interaction only if the callback comes within 3 seconds.
pub(crate) const CALLBACK_DEADLINE: Duration = Duration::from_secs(3);

/// At most this many commands per registration (per scope).
const MAX_COMMANDS: usize = 100;
/// Message content: at most 2000 characters.
const MAX_CONTENT: usize = 2000;

/// The locales Discord accepts in `*_localizations`.
const DISCORD_LOCALES: &[&str] = &[
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
    "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th",
    "zh-CN", "ja", "zh-TW", "ko",
];

/// Discord's command and option name rule: `^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$`,
/// lower case where the script has case.
fn valid_name(name: &str) -> bool {
    let n = name.chars().count();
    (1..=32).contains(&n)
        && name.chars().all(|c| {
            (c == '-'
                || c == '_'
                || c.is_alphanumeric()
                || ('\u{0E00}'..='\u{0E7F}').contains(&c)
                || ('\u{0900}'..='\u{097F}').contains(&c))
                && !c.is_uppercase()
        })
}

/// Whether `text` has 1 to `max` characters.
fn within(text: &str, max: usize) -> bool {
    (1..=max).contains(&text.chars().count())
}

fn check_localizations(
    what: &str,
    value: &Value,
    max: usize,
    is_name: bool,
    problems: &mut Vec<String>,
) {
    let Some(map) = value.as_object() else {
        return;
    };
    for (locale, text) in map {
        if !DISCORD_LOCALES.contains(&locale.as_str()) {
            problems.push(format!("{what}: unknown locale {locale}"));
        }
        let text = text.as_str().unwrap_or("");
        if is_name && !valid_name(text) {
            problems.push(format!(
                "{what}: invalid localised name {text:?} ({locale})"
            ));
        }
        if !within(text, max) {
            let len = text.chars().count();
            problems.push(format!(
                "{what}: localisation {locale} has {len} characters"
            ));
        }
    }
}

/// Checks one command as Discord would (CHAT_INPUT commands).
fn check_command(c: &Value, problems: &mut Vec<String>) {
    let name = c["name"].as_str().unwrap_or("");
    if !valid_name(name) {
        problems.push(format!("invalid command name {name:?}"));
    }
    if !within(c["description"].as_str().unwrap_or(""), 100) {
        problems.push(format!("/{name}: description must be 1-100 characters"));
    }
    check_localizations(
        &format!("/{name}"),
        &c["name_localizations"],
        32,
        true,
        problems,
    );
    check_localizations(
        &format!("/{name} description"),
        &c["description_localizations"],
        100,
        false,
        problems,
    );
    let options = c["options"].as_array().cloned().unwrap_or_default();
    if options.len() > 25 {
        problems.push(format!("/{name}: more than 25 options"));
    }
    let mut seen_optional = false;
    for o in &options {
        let oname = o["name"].as_str().unwrap_or("");
        let what = format!("/{name} {oname}");
        if !valid_name(oname) {
            problems.push(format!("{what}: invalid option name"));
        }
        if !within(o["description"].as_str().unwrap_or(""), 100) {
            problems.push(format!("{what}: description must be 1-100 characters"));
        }
        check_localizations(&what, &o["name_localizations"], 32, true, problems);
        check_localizations(&what, &o["description_localizations"], 100, false, problems);
        let required = o["required"].as_bool().unwrap_or(false);
        if required && seen_optional {
            problems.push(format!("{what}: required option after an optional one"));
        }
        seen_optional |= !required;
        let choices = o["choices"].as_array().cloned().unwrap_or_default();
        if choices.len() > 25 {
            problems.push(format!("{what}: more than 25 choices"));
        }
        if !choices.is_empty() && o["autocomplete"].as_bool() == Some(true) {
            problems.push(format!("{what}: choices and autocomplete together"));
        }
        for ch in &choices {
            if !within(ch["name"].as_str().unwrap_or(""), 100) {
                problems.push(format!("{what}: choice name must be 1-100 characters"));
            }
            check_localizations(&what, &ch["name_localizations"], 100, false, problems);
        }
    }
}

/// Checks a bulk registration (`PUT …/commands`): the list and each command.
pub(crate) fn check_commands(list: &[Value], problems: &mut Vec<String>) {
    if list.len() > MAX_COMMANDS {
        problems.push(format!("more than {MAX_COMMANDS} commands"));
    }
    for c in list {
        check_command(c, problems);
        // A permission bit set, as a string of digits (or null: everyone).
        match c.get("default_member_permissions") {
            None | Some(Value::Null) => {}
            Some(Value::String(p)) if p.parse::<u64>().is_ok() => {}
            Some(other) => problems.push(format!(
                "{}: default_member_permissions {other} is not a permission bit set",
                c["name"]
            )),
        }
        check_small_numbers(c, "integration_types", &[0, 1], problems);
        check_small_numbers(c, "contexts", &[0, 1, 2], problems);
    }
}

/// Checks a command's `integration_types` (installation contexts: 0 GUILD_INSTALL, 1
/// USER_INSTALL) or `contexts` (interaction contexts: 0 GUILD, 1 BOT_DM, 2 PRIVATE_CHANNEL)
/// (<https://discord.com/developers/docs/interactions/application-commands#application-command-object-application-command-structure>):
/// absent or null (Discord's default), else a list of distinct known values.
fn check_small_numbers(c: &Value, key: &str, known: &[u64], problems: &mut Vec<String>) {
    let name = &c["name"];
    match c.get(key) {
        None | Some(Value::Null) => {}
        Some(Value::Array(list)) => {
            let mut seen = Vec::new();
            for v in list {
                match v.as_u64() {
                    Some(n) if known.contains(&n) && !seen.contains(&n) => seen.push(n),
                    _ => problems.push(format!("{name}: {key} has {v}, not one of {known:?} once")),
                }
            }
        }
        Some(other) => problems.push(format!("{name}: {key} {other} is not a list")),
    }
}

/// A thread's name: 1 to 100 characters.
const MAX_THREAD_NAME: usize = 100;
/// The inactivity, in minutes, after which Discord may archive a thread: one of these.
pub(crate) const AUTO_ARCHIVE_DURATIONS: [u64; 4] = [60, 1440, 4320, 10080];

/// Checks the body of `POST /channels/{id}/messages/{id}/threads` (Start Thread from Message,
/// <https://discord.com/developers/docs/resources/channel#start-thread-from-message>): `name`
/// 1–100 characters, `auto_archive_duration` (if given) one of 60, 1440, 4320, 10080,
/// `rate_limit_per_user` (if given) 0–21600.
pub(crate) fn check_thread(body: &Value, problems: &mut Vec<String>) {
    match body.get("name").and_then(Value::as_str) {
        Some(name) if within(name, MAX_THREAD_NAME) => {}
        Some(name) => problems.push(format!(
            "thread name of {} characters, not 1 to {MAX_THREAD_NAME}",
            name.chars().count()
        )),
        None => problems.push("thread without a name".to_owned()),
    }
    match body.get("auto_archive_duration") {
        None | Some(Value::Null) => {}
        Some(d)
            if d.as_u64()
                .is_some_and(|d| AUTO_ARCHIVE_DURATIONS.contains(&d)) => {}
        Some(d) => problems.push(format!(
            "auto_archive_duration {d}, not one of {AUTO_ARCHIVE_DURATIONS:?}"
        )),
    }
    if let Some(r) = body.get("rate_limit_per_user").filter(|r| !r.is_null()) {
        if r.as_u64().is_none_or(|r| r > 21_600) {
            problems.push(format!("rate_limit_per_user {r}, not 0 to 21600"));
        }
    }
}

/// Checks message content's length.
pub(crate) fn check_content(content: &str, problems: &mut Vec<String>) {
    let len = content.chars().count();
    if len > MAX_CONTENT {
        problems.push(format!("content over {MAX_CONTENT} characters ({len})"));
    }
}

/// Most files in one message, and the upload limit of a server without boosts (10 MiB each).
const MAX_FILES: usize = 10;
const MAX_FILE_BYTES: usize = 10 * 1024 * 1024;

/// Checks the files uploaded with a message (their sizes in bytes).
pub(crate) fn check_files(sizes: impl ExactSizeIterator<Item = usize>, problems: &mut Vec<String>) {
    if sizes.len() > MAX_FILES {
        problems.push(format!("more than {MAX_FILES} files"));
    }
    for n in sizes {
        if n > MAX_FILE_BYTES {
            problems.push(format!("a file of {n} bytes, over {MAX_FILE_BYTES}"));
        }
    }
}

/// Checks a message's action rows and their buttons (custom ids unique in the message).
pub(crate) fn check_components(rows: &[Value], problems: &mut Vec<String>) {
    if rows.len() > 5 {
        problems.push("more than 5 action rows".to_owned());
    }
    let mut ids = std::collections::HashSet::new();
    for row in rows {
        if row["type"] != 1 {
            problems.push("a top-level component is not an action row".to_owned());
        }
        let items = row["components"].as_array().cloned().unwrap_or_default();
        if items.is_empty() || items.len() > 5 {
            problems.push("an action row needs 1-5 components".to_owned());
        }
        for b in items {
            let label = b["label"].as_str().unwrap_or("");
            if label.chars().count() > 80 {
                problems.push("button label over 80 characters".to_owned());
            }
            let style = b["style"].as_u64().unwrap_or(0);
            let custom_id = b["custom_id"].as_str().unwrap_or("");
            // Style 5 (link) buttons have a URL instead of a custom id.
            if style != 5 && (custom_id.is_empty() || custom_id.len() > 100) {
                problems.push("button custom_id must be 1-100 characters".to_owned());
            }
            if style != 5 && !ids.insert(custom_id.to_owned()) {
                problems.push(format!("custom_id {custom_id} used twice"));
            }
        }
    }
}

/// Checks a message's embeds: each one's parts and the 6000-character total.
pub(crate) fn check_embeds(embeds: &[Value], problems: &mut Vec<String>) {
    if embeds.len() > 10 {
        problems.push("more than 10 embeds".to_owned());
    }
    let mut total = 0;
    for e in embeds {
        let len = |p: &str| {
            e.pointer(p)
                .and_then(Value::as_str)
                .map_or(0, |s| s.chars().count())
        };
        if len("/title") > 256 {
            problems.push("embed title over 256 characters".to_owned());
        }
        if len("/description") > 4096 {
            problems.push("embed description over 4096 characters".to_owned());
        }
        if len("/footer/text") > 2048 {
            problems.push("embed footer over 2048 characters".to_owned());
        }
        total += len("/title") + len("/description") + len("/footer/text");
        let fields = e["fields"].as_array().cloned().unwrap_or_default();
        if fields.len() > 25 {
            problems.push("more than 25 embed fields".to_owned());
        }
        for f in fields {
            let n = f["name"].as_str().unwrap_or("");
            let v = f["value"].as_str().unwrap_or("");
            if !within(n, 256) || !within(v, 1024) {
                problems.push("embed field name 1-256 / value 1-1024 characters".to_owned());
            }
            total += n.chars().count() + v.chars().count();
        }
    }
    if total > 6000 {
        problems.push("embeds over 6000 characters in total".to_owned());
    }
}

/// The callback types Discord accepts for an interaction of `kind`: a command (2) can be
/// answered (4), deferred (5) or with a modal (9); a component (3) also by a deferred update
/// (6) or an update of its message (7); an autocomplete (4) only with choices (8).
pub(crate) fn callback_types(kind: u8) -> &'static [u8] {
    match kind {
        2 => &[4, 5, 9],
        3 => &[4, 5, 6, 7, 9],
        4 => &[8],
        _ => &[],
    }
}

/// Reads and checks autocomplete choices (callback 8): at most 25, names and values of 1-100
/// characters. Returns (name, value) pairs, a number value written as JSON.
pub(crate) fn autocomplete_choices(
    list: &[Value],
    problems: &mut Vec<String>,
) -> Vec<(String, String)> {
    if list.len() > 25 {
        problems.push(format!("{} autocomplete choices (max 25)", list.len()));
    }
    let mut out = Vec::new();
    for c in list {
        let name = c["name"].as_str().unwrap_or("").to_owned();
        let value = c["value"]
            .as_str()
            .map_or_else(|| c["value"].to_string(), str::to_owned);
        if !within(&name, 100) || value.chars().count() > 100 {
            problems.push("autocomplete choice name/value must be 1-100 characters".to_owned());
        }
        out.push((name, value));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn problems(c: Value) -> Vec<String> {
        let mut p = Vec::new();
        check_commands(&[c], &mut p);
        p
    }

    #[test]
    fn integration_types_and_contexts_are_accepted_and_checked() {
        let base = json!({"name": "board", "description": "Shows the board"});
        assert!(problems(base.clone()).is_empty());
        let mut ok = base.clone();
        ok["integration_types"] = json!([0, 1]);
        ok["contexts"] = json!([0, 1, 2]);
        assert!(problems(ok).is_empty());
        let mut null = base.clone();
        null["contexts"] = Value::Null;
        assert!(problems(null).is_empty());
        for (key, bad) in [
            ("integration_types", json!([2])),
            ("integration_types", json!([0, 0])),
            ("contexts", json!([3])),
            ("contexts", json!("0")),
        ] {
            let mut c = base.clone();
            c[key] = bad.clone();
            assert_eq!(problems(c).len(), 1, "{key}: {bad}");
        }
    }
}
