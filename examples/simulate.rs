//! Plays a scenario through the real bot and a local Discord stand-in — no Discord account
//! needed — and writes what Discord would show.
//!
//! ```sh
//! cargo run --release --example simulate -- examples/scenarios/mate.txt out/
//! ```
//!
//! Scenario lines (`#` starts a comment):
//! - `alice: /move move:e4` — a slash command with `option:value` pairs (quote values with
//!   spaces: `topic:"overview"`); choices by name (`color:white`), users as `@name`.
//! - `bob: click Accept` — presses the newest button with that label that `bob` can see.
//! - `alice: autocomplete /move move:S` — shows the autocomplete choices for what is typed.
//! - `restart` — stops the bot and starts it again on the same database.
//! - A user's first line may give a Discord locale: `somchai[th]: /rules`.
//!
//! Output: `<out-dir>/transcript.md` and the board pictures as PNG files next to it.

#[path = "../tests/standin/mod.rs"]
mod standin;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};
use standin::{Bot, Message, Opt, Outcome, Standin, User};

const CHANNEL: u64 = 1_300_000_000_000_000_100;

/// One scenario step.
#[derive(Debug)]
enum Step {
    Command {
        user: String,
        locale: Option<String>,
        command: String,
        options: Vec<(String, String)>,
    },
    Click {
        user: String,
        locale: Option<String>,
        label: String,
    },
    Autocomplete {
        user: String,
        locale: Option<String>,
        command: String,
        options: Vec<(String, String)>,
    },
    Restart,
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

fn parse_command(text: &str) -> anyhow::Result<(String, Vec<(String, String)>)> {
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

fn parse_line(line: &str) -> anyhow::Result<Option<Step>> {
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
        let (command, options) = parse_command(rest)?;
        Step::Autocomplete {
            user,
            locale,
            command,
            options,
        }
    } else {
        let (command, options) = parse_command(what)?;
        Step::Command {
            user,
            locale,
            command,
            options,
        }
    }))
}

struct Writer {
    out_dir: PathBuf,
    transcript: String,
    images: usize,
    names: HashMap<u64, String>,
}

impl Writer {
    /// `<@id>` mentions as `@name` and `<t:…:R>` timestamps as "in 10 minutes", as the Discord
    /// client shows them.
    fn readable(&self, text: &str) -> String {
        let mut text = text.to_owned();
        for (id, name) in &self.names {
            text = text.replace(&format!("<@{id}>"), &format!("**@{name}**"));
        }
        relative_times(&text)
    }

    fn quote(&mut self, text: &str) {
        for line in self.readable(text).lines() {
            let _ = writeln!(self.transcript, "> {line}");
        }
    }

    fn message(&mut self, m: &Message, edited: bool) -> anyhow::Result<()> {
        let mut header = String::from("**Makruk** (bot)");
        if let Some(user) = m.ephemeral_for {
            let name = self.names.get(&user).cloned().unwrap_or_default();
            let _ = write!(header, " · _only @{name} can see this_");
        }
        if edited {
            header.push_str(" · _message updated_");
        }
        let _ = writeln!(self.transcript, "> {header}");
        if !m.content.is_empty() {
            self.quote(&m.content.clone());
        }
        for e in &m.embeds {
            let _ = writeln!(self.transcript, ">");
            if let Some(title) = e.get("title").and_then(|t| t.as_str()) {
                self.quote(&format!("**{title}**"));
            }
            if let Some(d) = e.get("description").and_then(|t| t.as_str()) {
                self.quote(d);
            }
        }
        for a in &m.attachments {
            self.images += 1;
            let name = format!("{:03}-{}", self.images, a.filename);
            std::fs::write(self.out_dir.join(&name), &a.bytes)
                .with_context(|| format!("cannot write {name}"))?;
            if a.filename.ends_with(".png") {
                let _ = writeln!(self.transcript, ">\n> ![board]({name})");
            } else {
                let _ = writeln!(self.transcript, ">\n> 📎 [{}]({name})", a.filename);
            }
        }
        let buttons = m.buttons();
        if !buttons.is_empty() {
            let labels: Vec<String> = buttons
                .iter()
                .map(|(l, _, _)| format!("`[ {l} ]`"))
                .collect();
            let _ = writeln!(self.transcript, ">\n> {}", labels.join(" "));
        }
        let _ = writeln!(self.transcript);
        Ok(())
    }

    fn outcome(&mut self, o: &Outcome) -> anyhow::Result<()> {
        let edited = o.callback_type() == 7 || o.callback_type() == 6;
        for m in &o.messages {
            self.message(m, edited)?;
        }
        Ok(())
    }
}

/// Replaces Discord's relative timestamps `<t:UNIX:R>` with words.
fn relative_times(text: &str) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0));
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("<t:") {
        let after = &rest[start + 3..];
        let Some(end) = after.find(":R>") else { break };
        let Ok(when) = after[..end].parse::<i64>() else {
            out.push_str(&rest[..start + 3]);
            rest = after;
            continue;
        };
        out.push_str(&rest[..start]);
        let minutes = (when - now) / 60;
        out.push_str(&match minutes {
            0 => "just now".to_owned(),
            m if m > 0 => format!("in {m} minutes"),
            m => format!("{} minutes ago", -m),
        });
        rest = &after[end + 3..];
    }
    out.push_str(rest);
    out
}

fn user_for(discord: &Standin, writer: &mut Writer, name: &str, locale: Option<&str>) -> User {
    if let Some(u) = discord.user_named(name) {
        return u;
    }
    let user = discord.user(name, locale.unwrap_or("en-US"));
    writer.names.insert(user.id, name.to_owned());
    user
}

/// Plays `scenario` and writes `transcript.md` and the attachments into `out_dir`.
///
/// # Errors
/// An unreadable scenario line, a missing button, a file that cannot be written, or a request
/// of the bot that Discord would refuse.
pub async fn simulate(scenario: &Path, out_dir: &Path) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(scenario)
        .with_context(|| format!("cannot read {}", scenario.display()))?;
    let steps: Vec<(usize, Step)> = text
        .lines()
        .enumerate()
        .filter_map(|(i, l)| match parse_line(l) {
            Ok(Some(s)) => Some(Ok((i + 1, s))),
            Ok(None) => None,
            Err(e) => Some(Err(e.context(format!("line {}", i + 1)))),
        })
        .collect::<anyhow::Result<_>>()?;
    std::fs::create_dir_all(out_dir)
        .with_context(|| format!("cannot create {}", out_dir.display()))?;

    let discord = Standin::start().await;
    let dir = tempfile::tempdir()?;
    let db = format!(
        "sqlite://{}",
        dir.path().join("makruk-bot.sqlite3").display()
    );
    let mut bot = Bot::start(&discord, &db).await;
    let mut w = Writer {
        out_dir: out_dir.to_owned(),
        transcript: String::new(),
        images: 0,
        names: HashMap::new(),
    };
    w.names.insert(standin::BOT_ID, "Makruk".to_owned());
    // Users named anywhere (e.g. `opponent:@bob`) exist from the start.
    for (_, step) in &steps {
        match step {
            Step::Command {
                user,
                locale,
                options,
                ..
            }
            | Step::Autocomplete {
                user,
                locale,
                options,
                ..
            } => {
                user_for(&discord, &mut w, user, locale.as_deref());
                for (_, v) in options {
                    if let Some(name) = v.strip_prefix('@') {
                        if !name.eq_ignore_ascii_case("makruk") {
                            user_for(&discord, &mut w, name, None);
                        }
                    }
                }
            }
            Step::Click { user, locale, .. } => {
                user_for(&discord, &mut w, user, locale.as_deref());
            }
            Step::Restart => {}
        }
    }
    let _ = writeln!(
        w.transcript,
        "# Simulated Discord transcript\n\nScenario: `{}` · channel #makruk\n",
        scenario.display()
    );
    for (line, step) in steps {
        match step {
            Step::Restart => {
                bot.stop().await;
                bot = Bot::start(&discord, &db).await;
                let _ = writeln!(w.transcript, "---\n\n_The bot was restarted._\n");
            }
            Step::Command {
                user,
                locale,
                command,
                options,
            } => {
                let u = user_for(&discord, &mut w, &user, locale.as_deref());
                let opts: Vec<(&str, &str)> = options
                    .iter()
                    .map(|(n, v)| (n.as_str(), v.as_str()))
                    .collect();
                let parsed = discord
                    .options(&command, &opts)
                    .map_err(|e| anyhow::anyhow!("line {line}: {e}"))?;
                let shown: Vec<String> = options.iter().map(|(n, v)| format!("{n}:{v}")).collect();
                let _ = writeln!(
                    w.transcript,
                    "**@{user}** used `/{command}{}{}`\n",
                    if shown.is_empty() { "" } else { " " },
                    shown.join(" ")
                );
                let parsed: Vec<(&str, Opt)> = parsed
                    .iter()
                    .map(|(n, o)| (n.as_str(), o.clone()))
                    .collect();
                let outcome = discord.command(&u, CHANNEL, &command, &parsed).await;
                w.outcome(&outcome)?;
            }
            Step::Autocomplete {
                user,
                locale,
                command,
                options,
            } => {
                let u = user_for(&discord, &mut w, &user, locale.as_deref());
                let opts: Vec<(&str, &str)> = options
                    .iter()
                    .map(|(n, v)| (n.as_str(), v.as_str()))
                    .collect();
                let parsed = discord
                    .options(&command, &opts)
                    .map_err(|e| anyhow::anyhow!("line {line}: {e}"))?;
                let focused = options.last().map(|(n, _)| n.clone()).unwrap_or_default();
                let typed = options.last().map(|(_, v)| v.clone()).unwrap_or_default();
                let parsed: Vec<(&str, Opt)> = parsed
                    .iter()
                    .map(|(n, o)| (n.as_str(), o.clone()))
                    .collect();
                let outcome = discord
                    .autocomplete(&u, CHANNEL, &command, &parsed, &focused)
                    .await;
                let choices = outcome.choice_names();
                let _ = writeln!(
                    w.transcript,
                    "**@{user}** types `/{command} {focused}:{typed}` — Discord suggests: {}\n",
                    if choices.is_empty() {
                        "_(nothing)_".to_owned()
                    } else {
                        choices
                            .iter()
                            .map(|c| format!("`{c}`"))
                            .collect::<Vec<_>>()
                            .join(" ")
                    }
                );
            }
            Step::Click {
                user,
                locale,
                label,
            } => {
                let u = user_for(&discord, &mut w, &user, locale.as_deref());
                let Some((message, custom_id)) = discord.find_button(CHANNEL, &u, &label) else {
                    bail!("line {line}: @{user} sees no button {label:?}");
                };
                let _ = writeln!(w.transcript, "**@{user}** clicked `[ {label} ]`\n");
                let outcome = discord.click(&u, message, &custom_id).await;
                w.outcome(&outcome)?;
            }
        }
    }
    bot.stop().await;
    let errors = discord.errors();
    if !errors.is_empty() {
        bail!("the bot broke Discord's rules: {errors:#?}");
    }
    let path = out_dir.join("transcript.md");
    std::fs::write(&path, &w.transcript)
        .with_context(|| format!("cannot write {}", path.display()))?;
    println!("wrote {} and {} files", path.display(), w.images);
    Ok(())
}

#[allow(dead_code)] // not called when the tests include this file
#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [scenario, out_dir] = args.as_slice() else {
        bail!("usage: simulate <scenario.txt> <out-dir>");
    };
    if std::env::var_os("RUST_LOG").is_some() {
        makruk_bot::discord::init_tracing();
    }
    simulate(Path::new(scenario), Path::new(out_dir)).await
}
