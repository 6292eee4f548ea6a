//! Reading scenario files (the format is described in [`crate::scenario`]).

use anyhow::Context as _;

/// One scenario step.
#[derive(Debug, PartialEq)]
pub(crate) enum Step {
    /// `user: /command option:value…`
    Command {
        user: String,
        locale: Option<String>,
        command: String,
        options: Vec<(String, String)>,
    },
    /// `user: click Label`
    Click {
        user: String,
        locale: Option<String>,
        label: String,
    },
    /// `user: autocomplete /command option:value…` (the last option is the one typed).
    Autocomplete {
        user: String,
        locale: Option<String>,
        command: String,
        options: Vec<(String, String)>,
    },
    /// `restart`
    Restart,
}

/// The steps of a scenario, each with its line number (from 1).
///
/// # Errors
/// The first line that cannot be read, with its number.
pub(crate) fn steps(text: &str) -> anyhow::Result<Vec<(usize, Step)>> {
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

/// `/command option:value…` → (command, options).
fn command(text: &str) -> anyhow::Result<(String, Vec<(String, String)>)> {
    let mut parts = tokens(text).into_iter();
    let command = parts
        .next()
        .and_then(|c| c.strip_prefix('/').map(str::to_owned))
        .context("expected /command")?;
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
    fn steps_with_locales_quotes_and_comments() {
        let text = "# a comment\n\
                    somchai[th]: /challenge opponent:@dave color:ขาว\n\
                    \n\
                    dave: click รับ    # \"Accept\"\n\
                    alice: /rules topic:\"the count\"\n\
                    restart\n\
                    bob: autocomplete /move move:N\n";
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
            ]
        );
    }

    #[test]
    fn a_bad_line_is_named() {
        for (text, expected) in [
            ("alice: /rules\nbob /board\n", "line 2"),
            ("alice: rules\n", "line 1"),
            ("alice: /move e4\n", "line 1"),
        ] {
            let e = steps(text).expect_err(text);
            assert!(format!("{e:#}").starts_with(expected), "{text:?}: {e:#}");
        }
    }
}
