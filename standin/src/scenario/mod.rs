//! Scenarios: a bot driven by a script of user actions, written out as a Markdown transcript
//! of what Discord would show (the bot's simulator, `examples/simulate.rs`, and its test).
//!
//! Scenario lines (`#` starts a comment):
//! - `alice: /move move:e4` — a slash command with `option:value` pairs (quote values with
//!   spaces: `topic:"overview"`); choices by name (`color:white`), users as `@name`.
//! - `bob: click Accept` — presses the newest button with that label that `bob` can see.
//! - `alice: autocomplete /move move:S` — shows the autocomplete choices for what is typed
//!   (the last option).
//! - `restart` — stops the bot and starts it again.
//! - `in thread` — the next steps happen in the newest thread the bot opened (a game played in
//!   a thread of its own); `in channel` — back in the channel. What the bot posts in a thread
//!   of its own accord (the game's first board) and the updates of a thread's starting message
//!   (the result) are shown after the step that caused them.
//! - `in dm alice bob` — the next steps happen in the DM between those two users (made at its
//!   first use, the same DM afterwards; users added if new), where the bot is a user-installed
//!   app, not a member ([`Standin::dm`]); `in dm alice makruk` — alice's DM with the bot itself
//!   ([`Standin::bot_dm`]); `in group alice bob carol` — a group DM of those 2 to 10 users
//!   ([`Standin::group_dm`], the same one for the same users). A command Discord would not
//!   offer there ([`Standin::offered`]) stops the scenario. The transcript says where the steps
//!   happen ("In a DM between @alice and @bob").
//! - `wait 3d`, `wait 2h30m`, `wait 90s` — moves the bot's clock forward (units `d`, `h`, `m`,
//!   `s`) and lets it act; what it posts meanwhile (a flag falling, a reminder) is shown. A
//!   wait of 15 minutes or more also expires every interaction token so far (Discord's limit).
//! - A user's line may give a Discord locale: `somchai[th]: /rules` (kept for their later
//!   lines; another one changes it).
//! - `await "text"` — waits (in real time, a minute at most) until a public message of the
//!   place contains `text` — work the bot finishes in the background, such as an analysis'
//!   result edited into its waiting message — and shows that message.
//! - `server language th` — the server's preferred locale (Discord's `guild_locale`, in which
//!   the bot writes its public messages) from now on; `en-US` until then.
//!
//! When an answer leaves the bot itself to move (a game against the computer: the answer's
//! first line names the bot, "@Makruk is thinking…"), the scenario waits for the bot's move,
//! posted as its own message (in a DM without the bot: a follow-up of the interaction, sent
//! after its answer), before the next step, as a person would; the transcript shows it.

pub mod parse;
mod transcript;

use std::future::Future;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context as _};

use crate::interact::borrowed;
use crate::{Bot, Launch, Standin, User, BOT_ID};
use parse::{Place, Step};
use transcript::Transcript;

/// How long Discord takes follow-ups with an interaction's token.
const TOKEN_LIFE: Duration = Duration::from_secs(15 * 60);

/// The longest an `await` step waits.
const AWAIT_AT_MOST: Duration = Duration::from_secs(60);

/// The channel the scenario plays in.
const CHANNEL: u64 = 1_300_000_000_000_000_100;

/// What [`play`] wrote.
#[derive(Debug)]
pub struct Played {
    /// `<out-dir>/transcript.md`.
    pub transcript: PathBuf,
    /// How many attachment files (board pictures, PGN files) were written next to it.
    pub files: usize,
}

/// Whether `name` names the bot (`makruk`, any case).
fn is_bot(name: &str) -> bool {
    name.eq_ignore_ascii_case("makruk")
}

/// `**@a**`, `**@a** and **@b**`, `**@a**, **@b** and **@c**`.
fn names_text(names: &[String]) -> String {
    let shown: Vec<String> = names.iter().map(|n| format!("**@{n}**")).collect();
    match shown.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The channel of `in dm …` / `in group …` (made at first use), and the transcript's words
/// for it. `groups`: the group DMs made so far, by their users' names (lower case, sorted).
fn private_place(
    discord: &Standin,
    t: &mut Transcript,
    place: &Place,
    groups: &mut std::collections::HashMap<Vec<String>, u64>,
) -> (u64, String) {
    let mut users = |names: &[String]| -> Vec<User> {
        names
            .iter()
            .filter(|n| !is_bot(n))
            .map(|n| user_for(discord, t, n, None))
            .collect()
    };
    match place {
        Place::Dm(names) => {
            let people = users(names);
            if let [user] = people.as_slice() {
                let words = format!("In **@{}**'s DM with the bot", user.name);
                (discord.bot_dm(user), words)
            } else {
                let words = format!("In a DM between {}", names_text(names));
                (discord.dm(&people[0], &people[1]), words)
            }
        }
        Place::Group(names) => {
            let people = users(names);
            let mut key: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();
            key.sort();
            let channel = *groups
                .entry(key)
                .or_insert_with(|| discord.group_dm(&people.iter().collect::<Vec<_>>()));
            (channel, format!("In a group DM of {}", names_text(names)))
        }
        Place::Channel | Place::Thread => (CHANNEL, String::new()),
    }
}

/// The user named `name`, added (with `locale`, default `en-US`) if new.
fn user_for(discord: &Standin, t: &mut Transcript, name: &str, locale: Option<&str>) -> User {
    if let Some(u) = discord.user_named(name) {
        // Named earlier (as `@name`, or on a line of their own): a locale given now is theirs.
        return match locale {
            Some(code) if code != u.locale => discord.set_user_locale(u.id, code),
            _ => u,
        };
    }
    let user = discord.user(name, locale.unwrap_or("en-US"));
    t.names.insert(user.id, name.to_owned());
    user
}

/// Plays the scenario file `scenario` against a fresh stand-in and writes `transcript.md` and
/// the attachments into `out_dir` (created if missing). `bot` starts the bot, at the start and
/// at each `restart`; a restarted bot should keep its data (the same database). `wait` moves
/// the bot's clock forward (a `wait` line) and completes once the bot has acted on it.
///
/// # Errors
/// An unreadable scenario line, an unknown command, option, choice or user, a missing button,
/// a file that cannot be written, or a request of the bot that Discord would refuse.
///
/// # Panics
/// As the stand-in's helpers: a bot that does not start, answer or stop in time
/// ([`crate::WAIT`]).
pub async fn play<F, W>(
    scenario: &Path,
    out_dir: &Path,
    bot: impl Fn(Launch) -> F,
    wait: impl Fn(Duration) -> W,
) -> anyhow::Result<Played>
where
    F: Future<Output = anyhow::Result<()>> + Send + 'static,
    W: Future<Output = ()>,
{
    let text = std::fs::read_to_string(scenario)
        .with_context(|| format!("cannot read {}", scenario.display()))?;
    let steps = parse::steps(&text)?;
    std::fs::create_dir_all(out_dir)
        .with_context(|| format!("cannot create {}", out_dir.display()))?;

    let discord = Standin::start().await;
    let running = Bot::start(&discord, &bot).await;
    let mut t = Transcript::new(out_dir.to_owned());
    t.names.insert(BOT_ID, "Makruk".to_owned());
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
                user_for(&discord, &mut t, user, locale.as_deref());
                for (_, v) in options {
                    if let Some(name) = v.strip_prefix('@') {
                        if !name.eq_ignore_ascii_case("makruk") {
                            user_for(&discord, &mut t, name, None);
                        }
                    }
                }
            }
            Step::Click { user, locale, .. } => {
                user_for(&discord, &mut t, user, locale.as_deref());
            }
            Step::Place(Place::Dm(names) | Place::Group(names)) => {
                for name in names.iter().filter(|n| !is_bot(n)) {
                    user_for(&discord, &mut t, name, None);
                }
            }
            Step::Manager(name) => {
                user_for(&discord, &mut t, name, None);
            }
            Step::Restart
            | Step::Wait(_)
            | Step::Place(Place::Channel | Place::Thread)
            | Step::ServerLocale(_)
            | Step::Await(_) => {}
        }
    }
    let mut running = Some(running);
    let played = play_steps(&discord, &mut running, &bot, &wait, &mut t, steps, scenario).await;
    if let Some(running) = running {
        running.stop().await;
    }
    let errors = discord.errors();
    let outcome = match played {
        Err(e) => Err(e),
        Ok(()) if !errors.is_empty() => Err(anyhow::anyhow!(
            "the bot broke Discord's rules: {errors:#?}"
        )),
        Ok(()) => Ok(()),
    };
    // The transcript is written in every case: when a step fails, it shows what happened up to
    // that step, and the failure itself, at its end.
    if let Err(e) = &outcome {
        t.line(&format!("---\n\n**The scenario stopped here:** {e:#}\n"));
    }
    let path = out_dir.join("transcript.md");
    std::fs::write(&path, &t.text).with_context(|| format!("cannot write {}", path.display()))?;
    outcome.with_context(|| format!("the transcript so far is in {}", path.display()))?;
    Ok(Played {
        transcript: path,
        files: t.files,
    })
}

/// Plays `steps` (from the scenario file `scenario`) into the transcript `t`, restarting the bot
/// `running` with `bot` at a `restart` (`running` is the bot running at the end, if any).
///
/// # Errors
/// As [`play`], for the first step that fails; the steps before it are in `t`.
async fn play_steps<F, W>(
    discord: &Standin,
    running: &mut Option<Bot>,
    bot: &impl Fn(Launch) -> F,
    wait: &impl Fn(Duration) -> W,
    t: &mut Transcript,
    steps: Vec<(usize, Step)>,
    scenario: &Path,
) -> anyhow::Result<()>
where
    F: Future<Output = anyhow::Result<()>> + Send + 'static,
    W: Future<Output = ()>,
{
    let mut here = CHANNEL;
    let mut elsewhere = Elsewhere::default();
    let mut groups = std::collections::HashMap::new();
    t.line(&format!(
        "# Simulated Discord transcript\n\nScenario: `{}` · channel #makruk\n",
        scenario.display()
    ));
    for (line, step) in steps {
        match step {
            Step::Place(Place::Channel) => {
                here = CHANNEL;
                t.line("_Back in #makruk:_\n");
            }
            Step::Place(Place::Thread) => {
                let Some(thread) = discord.threads().pop() else {
                    bail!("line {line}: the bot opened no thread");
                };
                here = thread.id;
                t.line(&format!("_In the thread **#{}**:_\n", thread.name));
            }
            Step::Place(place) => {
                let (channel, words) = private_place(discord, t, &place, &mut groups);
                here = channel;
                t.line(&format!("_{words}:_\n"));
            }
            Step::Await(text) => {
                let deadline = std::time::Instant::now() + AWAIT_AT_MOST;
                let found = loop {
                    let found = discord
                        .channel_messages(here)
                        .into_iter()
                        .rev()
                        .find(|m| m.ephemeral_for.is_none() && m.text().contains(&text));
                    if let Some(m) = found {
                        break m;
                    }
                    if std::time::Instant::now() >= deadline {
                        bail!("line {line}: no message says {text:?} after {AWAIT_AT_MOST:?}");
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                };
                if found.edits > 0 {
                    t.updated(&found)?;
                } else {
                    t.posted(&found)?;
                }
            }
            Step::Wait(by) => {
                let before = discord.channel_messages(here);
                // The interactions' tokens last 15 minutes of Discord's time: a longer wait
                // leaves the bot no token to follow up with (what it would post in a DM then
                // waits for the next command there).
                if by >= TOKEN_LIFE {
                    discord.expire_tokens();
                }
                wait(by).await;
                t.wait(by);
                t.line(&format!("_⏳ {} pass._\n", duration_text(by)));
                let after = discord.channel_messages(here);
                // Messages the bot edited meanwhile (a challenge that expired loses its
                // buttons), then the ones it posted.
                for (old, new) in before.iter().zip(&after) {
                    if new.edits != old.edits {
                        t.updated(new)?;
                    }
                }
                for m in after.iter().skip(before.len()) {
                    t.posted(m)?;
                }
            }
            Step::ServerLocale(code) => {
                discord.set_guild_locale(&code);
                t.line(&format!("_The server's language is now `{code}`._\n"));
            }
            Step::Manager(name) => {
                let u = user_for(discord, t, &name, None);
                // Discord's MANAGE_GUILD permission bit.
                discord.set_permissions(&u, 1 << 5);
                t.line(&format!("_@{name} manages the server (Manage Server)._\n"));
            }
            Step::Restart => {
                if let Some(old) = running.take() {
                    old.stop().await;
                }
                *running = Some(Bot::start(discord, bot).await);
                t.line("---\n\n_The bot was restarted._\n");
            }
            Step::Command {
                user,
                locale,
                command,
                options,
            } => {
                let u = user_for(discord, t, &user, locale.as_deref());
                let parsed = options_for(discord, line, &command, &options)?;
                if !discord.offered(here, &command) {
                    bail!("line {line}: Discord does not offer /{command} here");
                }
                let shown: Vec<String> = options.iter().map(|(n, v)| format!("{n}:{v}")).collect();
                t.line(&format!(
                    "**@{user}** used `/{command}{}{}`\n",
                    if shown.is_empty() { "" } else { " " },
                    shown.join(" ")
                ));
                let seen = discord.posted_messages(here).len();
                let outcome = discord
                    .command(&u, here, &command, &borrowed(&parsed))
                    .await;
                // Links to a thread opened by this step read with its name.
                for thread in discord.threads() {
                    t.channels.insert(thread.id, thread.name);
                }
                t.outcome(&outcome)?;
                wait_for_the_bots_move(discord, t, &outcome, here, seen).await?;
                elsewhere.show(discord, t, &outcome).await?;
            }
            Step::Autocomplete {
                user,
                locale,
                command,
                options,
            } => {
                let u = user_for(discord, t, &user, locale.as_deref());
                let parsed = options_for(discord, line, &command, &options)?;
                if !discord.offered(here, &command) {
                    bail!("line {line}: Discord does not offer /{command} here");
                }
                let (focused, typed) = options.last().cloned().unwrap_or_default();
                let outcome = discord
                    .autocomplete(&u, here, &command, &borrowed(&parsed), &focused)
                    .await;
                let choices = outcome.choice_names();
                t.line(&format!(
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
                ));
            }
            Step::Click {
                user,
                locale,
                label,
            } => {
                let u = user_for(discord, t, &user, locale.as_deref());
                let Some((message, custom_id)) = discord.find_button(here, &u, &label) else {
                    bail!("line {line}: @{user} sees no button {label:?}");
                };
                t.line(&format!("**@{user}** clicked `[ {label} ]`\n"));
                let seen = discord.posted_messages(here).len();
                let outcome = discord.click(&u, message, &custom_id).await;
                // Links to a thread opened by this step read with its name.
                for thread in discord.threads() {
                    t.channels.insert(thread.id, thread.name);
                }
                t.outcome(&outcome)?;
                wait_for_the_bots_move(discord, t, &outcome, here, seen).await?;
                elsewhere.show(discord, t, &outcome).await?;
            }
        }
    }
    Ok(())
}

/// If `outcome` leaves the bot to move (its public answer starts by naming the bot: "@Makruk is
/// thinking…"), waits for the bot's move, the first message it posts after the `seen` it had
/// posted before the step, and writes it to the transcript; in a DM, then every other
/// follow-up of the answer.
///
/// # Errors
/// An attachment that cannot be written.
async fn wait_for_the_bots_move(
    discord: &Standin,
    t: &mut Transcript,
    outcome: &crate::Outcome,
    here: u64,
    seen: usize,
) -> anyhow::Result<()> {
    let bot = format!("<@{BOT_ID}>");
    let bot_to_move = outcome
        .messages
        .iter()
        .any(|m| m.ephemeral_for.is_none() && m.content.starts_with(&bot));
    let mut shown = seen;
    if bot_to_move {
        let posted = discord.wait_posted(here, seen).await;
        t.posted(&posted)?;
        shown += 1;
    }
    // In a DM the bot is not in, what waited for a command (a flag that fell while nobody
    // typed, a board never shown) follows its answer up: shown after it.
    if discord.is_private(here) {
        tokio::time::sleep(FOLLOW_UPS_SETTLE).await;
        for m in discord.posted_messages(here).iter().skip(shown) {
            t.posted(m)?;
        }
    }
    Ok(())
}

/// How long a step in a DM waits for the follow-ups of its answer.
const FOLLOW_UPS_SETTLE: Duration = Duration::from_millis(300);

/// What the transcript has shown of the threads: how many messages the bot posted in each of
/// its own accord, and how often each thread's starting message was edited.
#[derive(Default)]
struct Elsewhere {
    posted: std::collections::HashMap<u64, usize>,
    edits: std::collections::HashMap<u64, u32>,
}

impl Elsewhere {
    /// Shows what a step changed in the threads beside `outcome` itself: threads opened (their
    /// names for the links), boards posted in them, starting messages updated.
    ///
    /// # Errors
    /// An attachment that cannot be written.
    async fn show(
        &mut self,
        discord: &Standin,
        t: &mut Transcript,
        outcome: &crate::Outcome,
    ) -> anyhow::Result<()> {
        let in_outcome = |id: u64| outcome.messages.iter().any(|m| m.id == id);
        // A finished game's board (its GIF button) updates its thread's starting message just
        // after the answer: wait for that update before showing it.
        let ended = outcome.messages.iter().any(|m| {
            m.ephemeral_for.is_none() && m.buttons().iter().any(|b| b.1.starts_with("mk:gif:"))
        });
        if ended {
            let channel = outcome.interaction.channel_id;
            if let Some(&shown) = self.edits.get(&channel) {
                discord.wait_edited(channel, shown).await;
            }
        }
        for thread in discord.threads() {
            t.channels.insert(thread.id, thread.name.clone());
            let posted = discord.posted_messages(thread.id);
            let seen = self.posted.entry(thread.id).or_default();
            for m in posted.iter().skip(*seen) {
                t.line(&format!("_In the thread **#{}**:_\n", thread.name));
                t.posted(m)?;
            }
            *seen = posted.len();
            if let Some(start) = discord.message(thread.id) {
                let shown = self.edits.entry(thread.id).or_insert(start.edits);
                if start.edits != *shown && !in_outcome(start.id) {
                    t.line("_The game's starting message in #makruk:_\n");
                    t.updated(&start)?;
                }
                *shown = start.edits;
            }
        }
        Ok(())
    }
}

/// `3d 2h`, `2h 30m`, `90s` as words.
fn duration_text(d: Duration) -> String {
    let secs = d.as_secs();
    let parts: Vec<String> = [(86_400, "d"), (3_600, "h"), (60, "min"), (1, "s")]
        .iter()
        .scan(secs, |left, &(unit, name)| {
            let n = *left / unit;
            *left %= unit;
            Some((n > 0).then(|| format!("{n} {name}")))
        })
        .flatten()
        .collect();
    parts.join(" ")
}

/// The options of a step as Discord's client would send them ([`Standin::options`]).
///
/// # Errors
/// An unknown command, option, choice or user, named with the scenario line.
fn options_for(
    discord: &Standin,
    line: usize,
    command: &str,
    options: &[(String, String)],
) -> anyhow::Result<Vec<(String, crate::Opt)>> {
    let text: Vec<(&str, &str)> = options
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    discord
        .options(command, &text)
        .map_err(|e| anyhow::anyhow!("line {line}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: &[&str]) -> Vec<String> {
        n.iter().map(|s| (*s).to_owned()).collect()
    }

    #[tokio::test]
    async fn dm_and_group_places_are_made_once_and_named() {
        let discord = Standin::start().await;
        let mut t = Transcript::new(std::env::temp_dir());
        let mut groups = std::collections::HashMap::new();
        let (dm, words) = private_place(
            &discord,
            &mut t,
            &Place::Dm(names(&["alice", "bob"])),
            &mut groups,
        );
        assert_eq!(words, "In a DM between **@alice** and **@bob**");
        assert!(discord.is_private(dm));
        assert!(discord.user_named("bob").is_some(), "users added if new");
        let (again, _) = private_place(
            &discord,
            &mut t,
            &Place::Dm(names(&["Bob", "alice"])),
            &mut groups,
        );
        assert_eq!(again, dm);
        let group = Place::Group(names(&["alice", "bob", "carol"]));
        let (g, words) = private_place(&discord, &mut t, &group, &mut groups);
        assert_eq!(
            words,
            "In a group DM of **@alice**, **@bob** and **@carol**"
        );
        let reordered = Place::Group(names(&["carol", "alice", "bob"]));
        assert_eq!(
            private_place(&discord, &mut t, &reordered, &mut groups).0,
            g
        );
        assert_ne!(g, dm);
        let (bot_dm, words) = private_place(
            &discord,
            &mut t,
            &Place::Dm(names(&["alice", "Makruk"])),
            &mut groups,
        );
        assert_eq!(words, "In **@alice**'s DM with the bot");
        assert_eq!(
            bot_dm,
            discord.bot_dm(&discord.user_named("alice").expect("alice"))
        );
        assert!(discord.user_named("makruk").is_none(), "the bot is no user");
    }
}
