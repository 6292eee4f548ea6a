//! The Discord adapter (serenity + poise) over the game service.
//!
//! Discord types end here: commands, autocomplete and buttons are turned into plain requests to
//! [`crate::game`], and its replies into messages (board PNG + status). The adapter builds
//! nothing of the application: [`run`] is given it ([`Backend`], built by [`crate::app`]) and
//! serves it until told to stop.
//!
//! Every interaction, a slash command (`commands`) or a button press (`components`), goes in
//! through `respond::run` and out through `respond::answer`; messages are written as
//! `answer::Answer`s (the leaf module, with `answer::send`, the one way a request goes to
//! Discord), built by `messages` (boards, offers, errors) with the buttons' ids of `buttons`.
//! The `herald` shows boards for sure and marks their moves announced; `announce` posts the
//! service's announcements and re-posts what never reached its channel; `threads` opens games'
//! threads; `daily` posts the servers' daily puzzles. In a channel the bot may only answer in (a DM of users who installed the app to
//! their account), `reach` carries what it would post as follow-ups of the channel's newest
//! interaction, or keeps it for the next one.

mod analyses;
mod announce;
mod answer;
mod board;
mod buttons;
mod commands;
mod components;
mod daily;
mod herald;
mod i18n;
mod messages;
mod reach;
mod respond;
mod shards;
mod threads;
mod tournaments;

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use poise::serenity_prelude as serenity;
use tracing::{error, info, warn};

pub use shards::{ShardRange, ShardRangeError};

/// What the adapter serves: the application as [`crate::app`] built and started it.
pub struct Backend {
    /// The game service, its clocks and leader lease started.
    pub service: crate::game::GameService,
    /// The computer opponent (its level check; its driver, already running, does the thinking).
    pub computer: Arc<crate::computer::Computer>,
    /// The analysis runner (already running): `/analyse` queues games for it and follows them.
    pub analysis: Arc<crate::analysis::AnalysisRunner>,
    /// The analysis' search budget per position, in nodes.
    pub analysis_nodes: u64,
    /// The analyses the runner finishes, subscribed to when it started (so that none that a
    /// restart resumed is missed): those nobody waits for are posted in their channel.
    pub analysis_finished: tokio::sync::broadcast::Receiver<crate::game::GameId>,
    /// Told of every announcement posted (or given up on): a fake clock waits for them. `None`
    /// on the system's clock.
    pub on_posted: Option<Arc<dyn Fn() + Send + Sync>>,
    /// Held (read) by every interaction being answered; a writer waits until none is (the
    /// shutdown, and a fake clock before it moves: an answer's last steps, such as storing a
    /// challenge's message, are done then).
    pub in_flight: Arc<tokio::sync::RwLock<()>>,
}

/// How the adapter talks to Discord.
pub struct Settings {
    /// The bot token (never logged).
    pub token: String,
    /// Register the slash commands in this guild only; otherwise globally.
    pub guild_id: Option<u64>,
    /// A Discord-compatible REST base URL (a rate-limit proxy, the tests' stand-in).
    pub api_url: Option<String>,
    /// How long an answer may take before the interaction is acknowledged first.
    pub defer_after: Duration,
    /// The gateway shards of this process (`None`: the one shard of an unsharded bot).
    pub shards: Option<ShardRange>,
    /// How often the stored moves whose board never reached their channel are posted again.
    pub repost_every: Duration,
}

/// Shared state of every command and button handler.
pub struct Data {
    pub(crate) service: crate::game::GameService,
    /// The computer opponent (its level check; the driver does the thinking).
    pub(crate) computer: Arc<crate::computer::Computer>,
    pub(crate) defer_after: Duration,
    /// Held (shared) by every interaction being answered; shutdown takes it exclusively to wait
    /// for them.
    pub(crate) in_flight: Arc<tokio::sync::RwLock<()>>,
    /// Shows boards for sure and marks their moves announced (answers and the poster).
    pub(crate) herald: Arc<herald::Herald>,
    /// The analyses asked for here and their waiting messages (`analyses`).
    pub(crate) analyses: Arc<analyses::Analyses>,
    /// Wakes the daily puzzle's poster (`daily`) when a server changes its daily puzzle.
    pub(crate) daily_wake: Arc<tokio::sync::Notify>,
    /// Wakes the tournaments' runner (`tournaments`) when an event is created or started.
    pub(crate) tournament_wake: Arc<tokio::sync::Notify>,
}

/// How long shutdown waits for interactions still being answered.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a shutdown waits for the Discord client to disconnect before giving up on it.
const STOP_GRACE: Duration = Duration::from_secs(5);

/// The error type of poise commands. Commands answer user errors themselves, so an `Error` that
/// reaches poise is an internal one (or a failure to talk to Discord).
pub(crate) type Error = anyhow::Error;
/// The poise context of our commands.
pub(crate) type Context<'a> = poise::Context<'a, Data, Error>;

// Boxed `Send` future: awaited directly inside [`run`], whose future must be `Send` for any
// caller (`tokio::spawn`), rustc fails to prove it `Send` for every lifetime
// (rust-lang/rust#102211); proving it here, for one lifetime, works.

/// Resolves once no interaction holds `in_flight`, boxed.
fn drained(in_flight: &tokio::sync::RwLock<()>) -> poise::BoxFuture<'_, ()> {
    Box::pin(async move {
        drop(in_flight.write().await);
    })
}

/// Serves `backend` on Discord until `stop` turns true (then disconnects cleanly, waits for the
/// interactions being answered and stops posting) or the gateway fails. Connects to the gateway
/// (through `settings.api_url` if set), on READY registers the commands (in `settings.guild_id`
/// or globally), answers interactions and posts the service's announcements. Closing the
/// backend is the caller's.
///
/// # Errors
/// A fatal gateway/HTTP error, or the commands refused by Discord at READY (e.g. a
/// `DISCORD_GUILD_ID` of a server the bot is not in): the bot then stops, saying what to check.
pub async fn run(
    backend: Backend,
    settings: Settings,
    stop: tokio::sync::watch::Receiver<bool>,
) -> anyhow::Result<()> {
    let stopped = |mut rx: tokio::sync::watch::Receiver<bool>| async move {
        let _ = rx.wait_for(|stop| *stop).await;
    };
    let Backend {
        service,
        computer,
        analysis,
        analysis_nodes,
        analysis_finished,
        on_posted,
        in_flight,
    } = backend;

    board::warm_up().await;

    let http = match &settings.api_url {
        // serenity only honours the proxy when its own rate limiter is off.
        Some(url) => serenity::HttpBuilder::new(&settings.token)
            .proxy(url.trim_end_matches('/'))
            .ratelimiter_disabled(true)
            .build(),
        None => serenity::Http::new(&settings.token),
    };

    let guild_id = settings.guild_id.map(serenity::GuildId::new);
    // Set when the bot cannot work at all (its commands refused at READY): it then stops.
    let (fatal_tx, mut fatal_rx) = tokio::sync::watch::channel(None::<String>);
    let herald = Arc::new(herald::Herald::new(service.clone()));
    herald.load_reach().await;
    let analyses = Arc::new(analyses::Analyses::new(analysis, analysis_nodes));
    let daily_wake = Arc::new(tokio::sync::Notify::new());
    let tournament_wake = Arc::new(tokio::sync::Notify::new());
    let data = Data {
        daily_wake: Arc::clone(&daily_wake),
        tournament_wake: Arc::clone(&tournament_wake),
        service: service.clone(),
        computer,
        defer_after: settings.defer_after,
        in_flight: Arc::clone(&in_flight),
        herald: Arc::clone(&herald),
        analyses: Arc::clone(&analyses),
    };
    let options = poise::FrameworkOptions {
        commands: commands::all(),
        event_handler: |ctx, event, _framework, data| {
            Box::pin(async move {
                if let serenity::FullEvent::InteractionCreate {
                    interaction: serenity::Interaction::Component(press),
                } = event
                {
                    components::handle(ctx, press, data).await;
                }
                Ok(())
            })
        },
        on_error: |error| Box::pin(commands::on_error(error)),
        initialize_owners: false,
        ..Default::default()
    };
    let framework = poise::Framework::builder()
        .options(options)
        .initialize_owners(false)
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                info!(user = %ready.user.name, application = %ready.application.id, "connected");
                let commands = &framework.options().commands;
                let registered = match guild_id {
                    Some(guild) => poise::builtins::register_in_guild(ctx, commands, guild)
                        .await
                        .map_err(|e| registration_error(Some(guild), &e)),
                    None => poise::builtins::register_globally(ctx, commands)
                        .await
                        .map_err(|e| registration_error(None, &e)),
                };
                if let Err(why) = registered {
                    // A bot without its commands is useless: say why, and stop.
                    error!("{why}");
                    let _ = fatal_tx.send(Some(why.clone()));
                    return Err(anyhow::anyhow!(why));
                }
                match guild_id {
                    Some(guild) => {
                        info!(%guild, count = commands.len(), "commands registered in the guild");
                    }
                    None => info!(count = commands.len(), "commands registered globally"),
                }
                Ok(data)
            })
        })
        .build();

    // Slash commands and buttons need no privileged intent.
    let intents = serenity::GatewayIntents::GUILDS;
    let builder = serenity::ClientBuilder::new_with_http(http, intents).framework(framework);
    let mut client = tokio::select! {
        client = builder => client.context("cannot create the Discord client")?,
        () = stopped(stop.clone()) => {
            info!("stopped before connecting");
            return Ok(());
        }
    };

    // Changes that no interaction answers (the computer's moves, flags) are posted from here,
    // after the moves the last run stored but never announced.
    // Analyses nobody waits for (asked before a restart, or their message expired) are posted
    // in their channel when done.
    let analysis_poster = analyses::spawn_poster(
        Arc::clone(&client.http),
        Arc::clone(&herald),
        Arc::clone(&analyses),
        analysis_finished,
    );
    let daily_poster = daily::spawn(Arc::clone(&client.http), service.clone(), daily_wake);
    // Tournaments: their rounds paired, their games started, their announcements updated.
    let tournament_runner = tournaments::spawn(
        Arc::clone(&client.http),
        Arc::clone(&herald),
        tournament_wake,
    );
    let poster = service.announcements().map(|rx| {
        announce::spawn(
            Arc::clone(&client.http),
            herald,
            rx,
            on_posted,
            settings.repost_every,
        )
    });

    let shard_manager = Arc::clone(&client.shard_manager);
    let stop_shards = stop.clone();
    let mut fatal_seen = fatal_rx.clone();
    let stopper = tokio::spawn(async move {
        tokio::select! {
            () = stopped(stop_shards) => {}
            // Only a reason sent stops: the sender is dropped with the setup closure once the
            // commands are registered, which must not stop the bot.
            Ok(_) = fatal_seen.wait_for(Option::is_some) => {}
        }
        shard_manager.shutdown_all().await;
    });
    // A clean disconnect takes well under a second; a client stuck reaching Discord (HTTP
    // retries, DNS) is given up on after the grace period.
    let shards = settings.shards;
    let started = async {
        match shards {
            // serenity 0.12 takes the range's end as the last shard to start, inclusive
            // (`start_connection(range.start, range.end, total)` starts `end - start + 1`).
            Some(r) => client.start_shard_range(r.first..r.last, r.total).await,
            None => client.start().await,
        }
    };
    let result = tokio::select! {
        result = started => result,
        () = async {
            stopped(stop).await;
            tokio::time::sleep(STOP_GRACE).await;
        } => {
            warn!("the Discord client did not stop within {STOP_GRACE:?}; stopping anyway");
            Ok(())
        }
    };
    stopper.abort();
    // Let answers already being worked on go out before the database closes.
    if tokio::time::timeout(DRAIN_TIMEOUT, drained(&in_flight))
        .await
        .is_err()
    {
        warn!("interactions still running after {DRAIN_TIMEOUT:?}; stopping anyway");
    }
    if let Some(poster) = poster {
        poster.abort();
    }
    analysis_poster.abort();
    daily_poster.abort();
    tournament_runner.abort();
    if let Some(why) = fatal_rx.borrow_and_update().clone() {
        anyhow::bail!(why);
    }
    match result {
        Ok(()) => {
            info!("stopped");
            Ok(())
        }
        Err(e) => {
            warn!("gateway stopped with an error: {e}");
            Err(e).context("the Discord client failed")
        }
    }
}

/// What to tell the operator when Discord refuses to register the commands (in `guild`, or
/// globally): Discord's own error and what to check.
fn registration_error(guild: Option<serenity::GuildId>, e: &serenity::Error) -> String {
    match guild {
        Some(guild) => format!(
            "Discord refused to register the commands in the server {guild} (DISCORD_GUILD_ID / \
             --guild-id): {e}. Check that this is the id of a server the bot has been invited to \
             with the applications.commands scope (Developer Mode, right-click the server, Copy \
             Server ID), or leave DISCORD_GUILD_ID unset to register the commands globally."
        ),
        None => format!(
            "Discord refused to register the commands globally: {e}. Check the bot's token and \
             application."
        ),
    }
}
