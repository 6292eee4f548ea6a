//! Reading scenario files (the format is described in [`crate::scenario`]); public for the
//! fuzz target of the reader (`fuzz/bodies`).

use std::time::Duration;

use anyhow::{bail, Context as _};

/// Where a scenario's steps happen.
#[derive(Debug, PartialEq, Eq, Clone)]
pub enum Place {
    /// The scenario's channel.
    Channel,
    /// The newest thread the bot opened in it.
    Thread,
    /// `in dm alice bob`: the DM between those two users (`makruk` as one of them: the other's
    /// DM with the bot itself), names as written without `@`.
    Dm(Vec<String>),
    /// `in group alice bob carol`: a group DM of those users (2 to 10), names as written
    /// without `@`.
    Group(Vec<String>),
}

/// Most users in a group DM (Discord's limit).
const MAX_GROUP: usize = 10;

/// The user names of `in dm …` / `in group …`: `@` dropped, each a plain name, none twice
/// (case-insensitive).
fn place_names(text: &str) -> anyhow::Result<Vec<String>> {
    let mut names: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        let name = word.strip_prefix('@').unwrap_or(word);
        anyhow::ensure!(
            !name.is_empty() && !name.contains([':', '[', ']', '"', '@', '#']),
            "{word:?} is not a user name"
        );
        anyhow::ensure!(
            !names.iter().any(|n| n.eq_ignore_ascii_case(name)),
            "{name} is named twice"
        );
        names.push(name.to_owned());
    }
    Ok(names)
}

/// One scenario step.
#[derive(Debug, PartialEq)]
pub enum Step {
    /// `user: /command option:value…`
    Command {
        /// The user acting, by name.
        user: String,
        /// The Discord locale given on the user's first line (`name[th]:`).
        locale: Option<String>,
        /// The command's name, without `/`.
        command: String,
        /// Its `option:value` pairs, in order.
        options: Vec<(String, String)>,
    },
    /// `user: click Label`
    Click {
        /// The user acting, by name.
        user: String,
        /// The Discord locale given on the user's first line (`name[th]:`).
        locale: Option<String>,
        /// The button's label.
        label: String,
    },
    /// `user: autocomplete /command option:value…` (the last option is the one typed).
    Autocomplete {
        /// The user acting, by name.
        user: String,
        /// The Discord locale given on the user's first line (`name[th]:`).
        locale: Option<String>,
        /// The command's name, without `/`.
        command: String,
        /// Its `option:value` pairs, in order.
        options: Vec<(String, String)>,
    },
    /// `restart`
    Restart,
    /// `in thread` (the newest thread the bot opened), `in channel`, `in dm alice bob` or
    /// `in group alice bob carol`: where the next steps happen.
    Place(Place),
    /// `wait 3d`, `wait 2h30m`, `wait 90s`: the bot's clock moves forward.
    Wait(Duration),
    /// `server language th`: the server's preferred locale (Discord's `guild_locale`) from
    /// now on (default `en-US`).
    ServerLocale(String),
    /// `manager alice`: alice has Manage Server from now on (the server's settings,
    /// tournaments).
    Manager(String),
    /// `await "text"`: waits (in real time, a minute at most) until a public message here
    /// contains `text` (work the bot does in the background: an analysis' result edited into
    /// its waiting message), and shows that message.
    Await(String),
}

/// `3d`, `2h30m`, `90s`, `1h15m20s`: whole numbers each followed by `d`, `h`, `m` or `s`.
///
/// # Errors
/// Anything else (an empty text, a number without unit, an unknown unit, an overflow).
pub fn duration(text: &str) -> anyhow::Result<Duration> {
    let mut secs: u64 = 0;
    let mut number = String::new();
    for c in text.trim().chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let unit: u64 = match c {
            'd' => 86_400,
            'h' => 3_600,
            'm' => 60,
            's' => 1,
            _ => bail!("unknown unit {c:?} in {text:?} (use d, h, m, s)"),
        };
        let n: u64 = number
            .parse()
            .with_context(|| format!("a number before {c:?} in {text:?}"))?;
        number.clear();
        secs = n
            .checked_mul(unit)
            .and_then(|s| secs.checked_add(s))
            .with_context(|| format!("{text:?} is too long"))?;
    }
    if !number.is_empty() || secs == 0 {
        bail!("expected a duration such as 3d, 2h30m or 90s, got {text:?}");
    }
    Ok(Duration::from_secs(secs))
}

/// The steps of a scenario, each with its line number (from 1).
///
/// # Errors
/// The first line that cannot be read, with its number.
pub fn steps(text: &str) -> anyhow::Result<Vec<(usize, Step)>> {
    text.lines()
        .enumerate()
        .filter_map(|(i, l)| match line(l) {
            Ok(Some(s)) => Some(Ok((i + 1, s))),
            Ok(None) => None,
            Err(e) => Some(Err(e.context(format!("line {}", i + 1)))),
        })
        .collect()
}

/// Splits on whitespace, keeping `"quoted text"` together (quotes removed).
fn tokens(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    for c in s.chars() {
        match c {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !current.is_empty() {
                    out.push(std::mem::take(&mut current));
                }
            }
            c => current.push(c),
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// `/command [subcommand] option:value…` → (command, options); a subcommand is kept with its
/// command (`"tournament create"`).
fn command(text: &str) -> anyhow::Result<(String, Vec<(String, String)>)> {
    let mut parts = tokens(text).into_iter().peekable();
    let mut command = parts
        .next()
        .and_then(|c| c.strip_prefix('/').map(str::to_owned))
        .context("expected /command")?;
    if let Some(sub) =
        parts.next_if(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
    {
        command = format!("{command} {sub}");
    }
    let options = parts
        .map(|p| {
            p.split_once(':')
                .map(|(n, v)| (n.to_owned(), v.to_owned()))
                .with_context(|| format!("expected option:value, got {p:?}"))
        })
        .collect::<anyhow::Result<_>>()?;
    Ok((command, options))
}

/// One line: a step, or `None` for a blank line or a comment.
fn line(line: &str) -> anyhow::Result<Option<Step>> {
    let line = line.split_once(" #").map_or(line, |(l, _)| l).trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    if line == "restart" {
        return Ok(Some(Step::Restart));
    }
    if line == "in thread" {
        return Ok(Some(Step::Place(Place::Thread)));
    }
    if line == "in channel" {
        return Ok(Some(Step::Place(Place::Channel)));
    }
    if let Some(rest) = line.strip_prefix("in dm ") {
        let names = place_names(rest)?;
        anyhow::ensure!(names.len() == 2, "expected `in dm <user> <user>`");
        return Ok(Some(Step::Place(Place::Dm(names))));
    }
    if let Some(rest) = line.strip_prefix("in group ") {
        let names = place_names(rest)?;
        anyhow::ensure!(
            (2..=MAX_GROUP).contains(&names.len()),
            "expected `in group <user> <user> …` with 2 to {MAX_GROUP} users"
        );
        anyhow::ensure!(
            !names.iter().any(|n| n.eq_ignore_ascii_case("makruk")),
            "the bot is in no group DM (the app is user-installed there)"
        );
        return Ok(Some(Step::Place(Place::Group(names))));
    }
    if let Some(d) = line.strip_prefix("wait ") {
        return Ok(Some(Step::Wait(duration(d)?)));
    }
    if let Some(text) = line.strip_prefix("await ") {
        let text = text.trim();
        let text = text
            .strip_prefix('"')
            .and_then(|t| t.strip_suffix('"'))
            .context("expected `await \"text\"`")?;
        anyhow::ensure!(!text.is_empty(), "expected `await \"text\"` with a text");
        return Ok(Some(Step::Await(text.to_owned())));
    }
    if let Some(name) = line.strip_prefix("manager ") {
        let names = place_names(name)?;
        anyhow::ensure!(names.len() == 1, "expected `manager <user>`");
        return Ok(Some(Step::Manager(names[0].clone())));
    }
    if let Some(code) = line.strip_prefix("server language ") {
        let code = code.trim();
        anyhow::ensure!(
            !code.is_empty() && !code.contains(char::is_whitespace),
            "expected `server language <locale code>`, e.g. `server language th`"
        );
        return Ok(Some(Step::ServerLocale(code.to_owned())));
    }
    let (who, what) = line.split_once(':').context("expected `user: …`")?;
    let who = who.trim();
    let (user, locale) = match who.split_once('[') {
        Some((name, rest)) => (name.to_owned(), Some(rest.trim_end_matches(']').to_owned())),
        None => (who.to_owned(), None),
    };
    let what = what.trim();
    Ok(Some(if let Some(label) = what.strip_prefix("click ") {
        Step::Click {
            user,
            locale,
            label: label.trim().to_owned(),
        }
    } else if let Some(rest) = what.strip_prefix("autocomplete ") {
        let (command, options) = command(rest)?;
        Step::Autocomplete {
            user,
            locale,
            command,
            options,
        }
    } else {
        let (command, options) = command(what)?;
        Step::Command {
            user,
            locale,
            command,
            options,
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
        p.iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn subcommands_and_managers() {
        let text = "manager @alice\n\
                    alice: /tournament create format:swiss rounds:3\n\
                    bob: /tournament join\n";
        let parsed = steps(text).expect("a valid scenario");
        assert_eq!(
            parsed,
            vec![
                (1, Step::Manager("alice".to_owned())),
                (
                    2,
                    Step::Command {
                        user: "alice".to_owned(),
                        locale: None,
                        command: "tournament create".to_owned(),
                        options: pairs(&[("format", "swiss"), ("rounds", "3")]),
                    }
                ),
                (
                    3,
                    Step::Command {
                        user: "bob".to_owned(),
                        locale: None,
                        command: "tournament join".to_owned(),
                        options: Vec::new(),
                    }
                ),
            ]
        );
        assert!(steps("manager alice bob\n").is_err());
    }

    #[test]
    fn steps_with_locales_quotes_and_comments() {
        let text = "# a comment\n\
                    somchai[th]: /challenge opponent:@dave color:ขาว\n\
                    \n\
                    dave: click รับ    # \"Accept\"\n\
                    alice: /rules topic:\"the count\"\n\
                    restart\n\
                    bob: autocomplete /move move:N\n\
                    wait 2h30m\n";
        let steps = steps(text).expect("a valid scenario");
        assert_eq!(
            steps,
            vec![
                (
                    2,
                    Step::Command {
                        user: "somchai".to_owned(),
                        locale: Some("th".to_owned()),
                        command: "challenge".to_owned(),
                        options: pairs(&[("opponent", "@dave"), ("color", "ขาว")]),
                    }
                ),
                (
                    4,
                    Step::Click {
                        user: "dave".to_owned(),
                        locale: None,
                        label: "รับ".to_owned(),
                    }
                ),
                (
                    5,
                    Step::Command {
                        user: "alice".to_owned(),
                        locale: None,
                        command: "rules".to_owned(),
                        options: pairs(&[("topic", "the count")]),
                    }
                ),
                (6, Step::Restart),
                (
                    7,
                    Step::Autocomplete {
                        user: "bob".to_owned(),
                        locale: None,
                        command: "move".to_owned(),
                        options: pairs(&[("move", "N")]),
                    }
                ),
                (8, Step::Wait(Duration::from_secs(9000))),
            ]
        );
    }

    #[test]
    fn places() {
        let text = "in dm alice @bob\nin group alice bob carol\nin thread\nin channel\n\
                    in dm alice Makruk\n";
        let names = |n: &[&str]| n.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            steps(text).expect("valid places"),
            vec![
                (1, Step::Place(Place::Dm(names(&["alice", "bob"])))),
                (
                    2,
                    Step::Place(Place::Group(names(&["alice", "bob", "carol"])))
                ),
                (3, Step::Place(Place::Thread)),
                (4, Step::Place(Place::Channel)),
                (5, Step::Place(Place::Dm(names(&["alice", "Makruk"])))),
            ]
        );
        for bad in [
            "in dm alice",
            "in dm alice bob carol",
            "in dm alice Alice",
            "in dm alice bob:",
            "in dm @ bob",
            "in group alice",
            "in group a b c d e f g h i j k",
            "in group alice makruk",
            "in group alice bob alice",
        ] {
            assert!(steps(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn durations() {
        assert_eq!(duration("3d").unwrap(), Duration::from_secs(3 * 86_400));
        assert_eq!(duration("90s").unwrap(), Duration::from_secs(90));
        assert_eq!(duration("1h15m20s").unwrap(), Duration::from_secs(4520));
        for bad in ["", "3", "d", "3w", "0s", "99999999999999999999d"] {
            assert!(duration(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_bad_line_is_named() {
        for (text, expected) in [
            ("alice: /rules\nbob /board\n", "line 2"),
            ("alice: rules\n", "line 1"),
            ("alice: /move e4\n", "line 1"),
            ("wait 3x\n", "line 1"),
        ] {
            let e = steps(text).expect_err(text);
            assert!(format!("{e:#}").starts_with(expected), "{text:?}: {e:#}");
        }
    }
}
