//! The Markdown transcript of a scenario: what each user did and what Discord would show
//! them, with attachments written as files next to it.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::Context as _;

use crate::{Message, Outcome};

/// The transcript being written.
pub(crate) struct Transcript {
    out_dir: PathBuf,
    /// The Markdown so far.
    pub(crate) text: String,
    /// How many attachment files have been written.
    pub(crate) files: usize,
    /// Display names of the users (and the bot) by id, to show mentions as Discord does.
    pub(crate) names: HashMap<u64, String>,
    /// Names of the threads by id, to show channel links (`<#id>`) as Discord does.
    pub(crate) channels: HashMap<u64, String>,
    /// How far the bot's clock is ahead of the system's (the scenario's `wait` lines), in
    /// seconds: relative timestamps are read as of the bot's time.
    ahead_secs: i64,
}

impl Transcript {
    pub(crate) fn new(out_dir: PathBuf) -> Transcript {
        Transcript {
            out_dir,
            text: String::new(),
            files: 0,
            names: HashMap::new(),
            channels: HashMap::new(),
            ahead_secs: 0,
        }
    }

    /// The bot's clock moved forward by `by`.
    pub(crate) fn wait(&mut self, by: std::time::Duration) {
        let secs = i64::try_from(by.as_secs()).unwrap_or(i64::MAX);
        self.ahead_secs = self.ahead_secs.saturating_add(secs);
    }

    /// Appends a line (and a newline).
    pub(crate) fn line(&mut self, line: &str) {
        let _ = writeln!(self.text, "{line}");
    }

    /// `<@id>` mentions as `@name`, `<#id>` thread links as `#name` and `<t:…:R>` timestamps
    /// as "in 10 minutes", as the Discord client shows them.
    fn readable(&self, text: &str) -> String {
        let mut text = text.to_owned();
        for (id, name) in &self.names {
            text = text.replace(&format!("<@{id}>"), &format!("**@{name}**"));
        }
        for (id, name) in &self.channels {
            text = text.replace(&format!("<#{id}>"), &format!("**#{name}**"));
        }
        relative_times(&text, self.ahead_secs)
    }

    fn quote(&mut self, text: &str) {
        for line in self.readable(text).lines() {
            let _ = writeln!(self.text, "> {line}");
        }
    }

    /// One message of the bot, as a quote block; `edited` for an updated message.
    ///
    /// # Errors
    /// An attachment that cannot be written.
    fn message(&mut self, m: &Message, edited: bool) -> anyhow::Result<()> {
        let mut header = String::from("**Makruk** (bot)");
        if let Some(user) = m.ephemeral_for {
            let name = self.names.get(&user).cloned().unwrap_or_default();
            let _ = write!(header, " · _only @{name} can see this_");
        }
        if edited {
            header.push_str(" · _message updated_");
        }
        let _ = writeln!(self.text, "> {header}");
        if !m.content.is_empty() {
            self.quote(&m.content);
        }
        for e in &m.embeds {
            let _ = writeln!(self.text, ">");
            if let Some(title) = e.get("title").and_then(|t| t.as_str()) {
                self.quote(&format!("**{title}**"));
            }
            if let Some(d) = e.get("description").and_then(|t| t.as_str()) {
                self.quote(d);
            }
            // The footer is the small grey line under an embed (e.g. `/board`'s last moves).
            if let Some(f) = e.pointer("/footer/text").and_then(|t| t.as_str()) {
                self.quote(&format!("<sub>{f}</sub>"));
            }
        }
        for a in &m.attachments {
            self.files += 1;
            let name = format!("{:03}-{}", self.files, a.filename);
            std::fs::write(self.out_dir.join(&name), &a.bytes)
                .with_context(|| format!("cannot write {name}"))?;
            if a.filename.ends_with(".png") {
                let _ = writeln!(self.text, ">\n> ![board]({name})");
            } else {
                let _ = writeln!(self.text, ">\n> 📎 [{}]({name})", a.filename);
            }
        }
        let buttons = m.buttons();
        if !buttons.is_empty() {
            let labels: Vec<String> = buttons
                .iter()
                .map(|(l, _, disabled)| {
                    // A disabled button is shown greyed out by Discord and cannot be pressed.
                    if *disabled {
                        format!("~~`[ {l} ]`~~ _(disabled)_")
                    } else {
                        format!("`[ {l} ]`")
                    }
                })
                .collect();
            let _ = writeln!(self.text, ">\n> {}", labels.join(" "));
        }
        let _ = writeln!(self.text);
        Ok(())
    }

    /// A message the bot posted of its own accord (e.g. the computer's move).
    ///
    /// # Errors
    /// An attachment that cannot be written.
    pub(crate) fn posted(&mut self, m: &Message) -> anyhow::Result<()> {
        self.line(if m.after_answer {
            "_The bot follows up:_\n"
        } else {
            "_The bot posts:_\n"
        });
        self.message(m, false)
    }

    /// A message of the bot's that changed outside the interaction shown (a thread's starting
    /// message updated with the result).
    ///
    /// # Errors
    /// An attachment that cannot be written.
    pub(crate) fn updated(&mut self, m: &Message) -> anyhow::Result<()> {
        self.message(m, true)
    }

    /// The messages an interaction produced (an update of the pressed message is marked so).
    ///
    /// # Errors
    /// An attachment that cannot be written.
    pub(crate) fn outcome(&mut self, o: &Outcome) -> anyhow::Result<()> {
        let edited = matches!(o.callback_type(), 6 | 7);
        for m in &o.messages {
            self.message(m, edited)?;
        }
        Ok(())
    }
}

/// Replaces Discord's relative timestamps `<t:UNIX:R>` with words, as of the system's time
/// plus `ahead_secs`.
fn relative_times(text: &str, ahead_secs: i64) -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0))
        .saturating_add(ahead_secs);
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
        let secs = when.saturating_sub(now);
        let amount = match secs.unsigned_abs() {
            s if s < 60 => String::new(),
            s if s < 2 * 3600 => format!("{} minutes", s / 60),
            s if s < 2 * 86_400 => format!("{} hours", s / 3600),
            s => format!("{} days", s / 86_400),
        };
        out.push_str(&match (amount.is_empty(), secs > 0) {
            (true, _) => "just now".to_owned(),
            (false, true) => format!("in {amount}"),
            (false, false) => format!("{amount} ago"),
        });
        rest = &after[end + 3..];
    }
    out.push_str(rest);
    out
}
