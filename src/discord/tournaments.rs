//! Discord's side of tournaments: the runner that does their time-driven work and keeps each
//! event's announcement message up to date.
//!
//! The runner wakes every [`LOOK_EVERY_MS`] (or when a command wakes it, or a finished game's
//! board reached its channel), and if this process
//! holds the leader lease (so that with several processes only one does it): has the service
//! advance every event with work due (a scheduled start, results, the next round, the end),
//! starts the games of the round's pairings — a message in the event's channel naming the
//! players (it pings them), a public thread opened from it, the game started there (the
//! service records it with the pairing in one transaction: one game per pairing) and its first
//! board posted — edits the announcement, and posts the final standings with the podium's
//! picture when an event ends.
//! A game's message is posted once (its id kept with the pairing); a thread Discord refuses (no
//! permission) is tried again from it at the next look, without pinging the players again.
//! Known gap: a crash in the moment between opening a thread and starting its game leaves that
//! pairing waiting (Discord opens one thread per message; the refusal is logged at each look).

use std::sync::Arc;

use poise::serenity_prelude as serenity;
use tokio::sync::Notify;
use tokio::task::JoinHandle;
use tracing::{info, warn};

use super::answer::{split_text, Answer};
use super::herald::Herald;
use super::messages::game_answer;
use super::threads;
use crate::game::{GameService, Place, UserId};
use crate::i18n::Locale;
use crate::render::podium::{podium_png, Score};
use crate::tournament::{text, Advance, TournamentError, TournamentView, Tournaments};
use crate::tr;
use crate::types::{TournamentId, TournamentState};

/// How often the runner looks for work when nothing wakes it, in milliseconds.
const LOOK_EVERY_MS: i64 = 10_000;
/// Discord's longest message, in characters.
const MAX_MESSAGE: usize = 2000;

/// A user as the texts write them on Discord: a mention.
pub(crate) fn mention(user: UserId) -> String {
    format!("<@{}>", user.0)
}

/// A Unix time (seconds) as Discord shows it: relative, in the reader's own time zone.
pub(crate) fn timestamp(at: i64) -> String {
    format!("<t:{at}:R> (<t:{at}:f>)")
}

/// The language of the event's public messages: its server's.
async fn locale_of(service: &GameService, view: &TournamentView) -> Locale {
    match view.row.guild_id {
        Some(g) => service
            .guild_settings(g)
            .await
            .ok()
            .and_then(|s| s.locale)
            .unwrap_or(Locale::En),
        None => Locale::En,
    }
}

/// `text` cut to one Discord message.
fn one_message(text: String) -> String {
    if text.chars().count() <= MAX_MESSAGE {
        return text;
    }
    let mut cut: String = text.chars().take(MAX_MESSAGE - 1).collect();
    cut.push('…');
    cut
}

/// Posts or edits the announcement of tournament `id` to show it as it stands.
pub(crate) async fn refresh(http: &serenity::Http, service: &GameService, id: TournamentId) {
    if let Err(e) = try_refresh(http, service, id).await {
        warn!(
            tournament = id.0,
            "cannot update the tournament's announcement: {e}"
        );
    }
}

async fn try_refresh(
    http: &serenity::Http,
    service: &GameService,
    id: TournamentId,
) -> anyhow::Result<()> {
    let t = Tournaments::new(service);
    let (view, standings) = t.standings_of(id).await?;
    let locale = locale_of(service, &view).await;
    let content = one_message(text::announcement(
        &view, &standings, locale, &mention, &timestamp,
    ));
    let channel = serenity::ChannelId::new(view.row.channel_id.0.max(1));
    // The announcement names players without pinging them (the games' messages ping).
    let quiet = serenity::CreateAllowedMentions::new();
    match view.row.message_id {
        Some(message) => {
            let edit = serenity::EditMessage::new()
                .content(content)
                .allowed_mentions(quiet);
            channel
                .edit_message(http, serenity::MessageId::new(message.max(1)), edit)
                .await?;
        }
        None => {
            let post = serenity::CreateMessage::new()
                .content(content)
                .allowed_mentions(quiet);
            let message = channel.send_message(http, post).await?;
            if !t.set_message(id, message.id.get()).await? {
                // Another request posted the announcement at the same moment: ours goes.
                channel.delete_message(http, message.id).await?;
            }
        }
    }
    Ok(())
}

/// Starts the runner.
pub(crate) fn spawn(
    http: Arc<serenity::Http>,
    herald: Arc<Herald>,
    wake: Arc<Notify>,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            if herald.service().is_leader() {
                if let Err(e) = run_due(&http, &herald).await {
                    warn!("tournaments: {e}");
                }
            }
            // On the service's clock (a fake one in the simulator and the tests: its waits
            // wake the runner, as the daily puzzle's poster).
            let time = Arc::clone(herald.service().time());
            let next = time.now_ms() + LOOK_EVERY_MS;
            tokio::select! {
                () = time.sleep_until(next) => {}
                () = wake.notified() => {}
                () = herald.game_ended.notified() => {}
            }
        }
    })
}

/// Advances every event with work due, starts the games waiting, updates what changed.
async fn run_due(http: &serenity::Http, herald: &Herald) -> Result<(), TournamentError> {
    let service = herald.service();
    let t = Tournaments::new(service);
    for id in t.due().await? {
        let advanced = match t.advance(id).await {
            Ok(a) => a,
            Err(e) => {
                warn!(tournament = id.0, "cannot advance the tournament: {e}");
                continue;
            }
        };
        let started = start_games(http, herald, id).await;
        if advanced != Advance::Nothing || started {
            refresh(http, service, id).await;
        }
        if advanced == Advance::Finished {
            post_final(http, service, id).await;
            // A recurring event opened its next one: announce it.
            if let Ok(finished) = t.view_of(id).await {
                if let Ok(next) = t.view(finished.row.channel_id).await {
                    if next.row.id != id {
                        refresh(http, service, next.row.id).await;
                    }
                }
            }
        }
        if advanced == Advance::Remind {
            remind(http, service, id).await;
        }
        if let Advance::Paired { round } = advanced {
            info!(tournament = id.0, round, "round paired");
        }
    }
    Ok(())
}

/// Starts the games of tournament `id`'s round still to be started; true if any started.
async fn start_games(http: &serenity::Http, herald: &Herald, id: TournamentId) -> bool {
    let service = herald.service();
    let t = Tournaments::new(service);
    let (view, waiting) = match (t.view_of(id).await, t.games_to_start(id).await) {
        (Ok(v), Ok(w)) => (v, w),
        (Err(e), _) | (_, Err(e)) => {
            warn!(tournament = id.0, "cannot read the games to start: {e}");
            return false;
        }
    };
    tracing::debug!(
        tournament = id.0,
        round = view.row.round,
        waiting = waiting.len(),
        "games to start"
    );
    if view.row.state != TournamentState::Running || waiting.is_empty() {
        return false;
    }
    let locale = locale_of(service, &view).await;
    let channel = view.row.channel_id;
    let parent = serenity::ChannelId::new(channel.0.max(1));
    let mut any = false;
    for p in &waiting {
        let Some(black) = p.black else { continue };
        // The message pinging the players is posted once; a thread refused is tried again
        // from it at the next look, without pinging them again.
        let message = match p.message_id {
            Some(m) => m,
            None => {
                let only_players = serenity::CreateAllowedMentions::new().users([
                    serenity::UserId::new(p.white.0.max(1)),
                    serenity::UserId::new(black.0.max(1)),
                ]);
                let post = serenity::CreateMessage::new()
                    .content(text::game_text(&view, p, locale, &mention))
                    .allowed_mentions(only_players);
                match parent.send_message(http, post).await {
                    Ok(m) => {
                        let id_ = m.id.get();
                        if let Err(e) = t.set_game_message(id, p.round, p.board, id_).await {
                            warn!(tournament = id.0, "cannot record a game's message: {e}");
                        }
                        id_
                    }
                    Err(e) => {
                        warn!(tournament = id.0, "cannot post a tournament game: {e}");
                        continue;
                    }
                }
            }
        };
        let (white_name, black_name) = (
            threads::user_name(http, p.white).await,
            threads::user_name(http, black).await,
        );
        let name: String = text::thread_name(&view, p.round, &white_name, &black_name)
            .chars()
            .take(100)
            .collect();
        let thread = match threads::open(http, channel, message, &name).await {
            Ok(thread) => thread,
            Err(why) => {
                warn!(
                    tournament = id.0,
                    "no thread for a tournament game ({why:?}): tried again later"
                );
                continue;
            }
        };
        let place = Place {
            channel,
            thread: Some(thread),
        };
        match t.start_game(&view.row, p, place).await {
            Ok(reply) => {
                any = true;
                match game_answer(&reply, locale).await {
                    Ok(answer) => {
                        let to = serenity::ChannelId::new(thread.channel.0.max(1));
                        if let Err(e) = herald.post_moves(http, to, answer).await {
                            warn!(tournament = id.0, "cannot post a game's first board: {e}");
                        }
                    }
                    Err(e) => warn!(tournament = id.0, "cannot draw a game's board: {e}"),
                }
            }
            Err(e) => warn!(tournament = id.0, "cannot start a tournament game: {e}"),
        }
    }
    any
}

/// Posts the final standings of tournament `id` in its channel.
async fn post_final(http: &serenity::Http, service: &GameService, id: TournamentId) {
    let t = Tournaments::new(service);
    let Ok((view, standings)) = t.standings_of(id).await else {
        return;
    };
    let locale = locale_of(service, &view).await;
    let channel = serenity::ChannelId::new(view.row.channel_id.0.max(1));
    let text = text::final_text(&view, &standings, locale, &mention);
    // The podium picture, with the first part of the message.
    let scores: Vec<Score> = standings
        .rows
        .iter()
        .take(3)
        .map(|s| match s.arena {
            Some(a) => Score::Points(a.points),
            None => Score::HalfPoints(s.half_points),
        })
        .collect();
    let mut picture = match tokio::task::spawn_blocking(move || podium_png(&scores)).await {
        Ok(Ok(png)) => Some(serenity::CreateAttachment::bytes(png, "podium.png")),
        Ok(Err(e)) => {
            warn!(tournament = id.0, "cannot draw the podium: {e}");
            None
        }
        Err(e) => {
            warn!(tournament = id.0, "cannot draw the podium: {e}");
            None
        }
    };
    for part in split_text(&text, MAX_MESSAGE) {
        let mut post = serenity::CreateMessage::new()
            .content(part)
            .allowed_mentions(serenity::CreateAllowedMentions::new().all_users(true));
        if let Some(file) = picture.take() {
            post = post.add_file(file);
        }
        if let Err(e) = channel.send_message(http, post).await {
            warn!(tournament = id.0, "cannot post the final standings: {e}");
            return;
        }
    }
}

/// A private answer of `text`, cut to Discord's length.
pub(crate) fn private(text: String) -> Answer {
    Answer::private(one_message(text))
}

/// Reminds the players of tournament `id` that it starts soon (pinging them).
async fn remind(http: &serenity::Http, service: &GameService, id: TournamentId) {
    let t = Tournaments::new(service);
    let Ok(view) = t.view_of(id).await else {
        return;
    };
    let locale = locale_of(service, &view).await;
    let players: Vec<UserId> = view.active_players().map(|p| p.user_id).collect();
    let channel = serenity::ChannelId::new(view.row.channel_id.0.max(1));
    // Discord pings at most 100 users a message: the players in groups of 50.
    for group in players.chunks(50) {
        let names: Vec<String> = group.iter().map(|u| mention(*u)).collect();
        let text = tr!(
            locale,
            "tournament-reminder",
            name = view.row.name.clone(),
            at = timestamp(view.row.start_at.unwrap_or(0)),
            players = names.join(" ")
        );
        let only_players = serenity::CreateAllowedMentions::new()
            .users(group.iter().map(|u| serenity::UserId::new(u.0.max(1))));
        let post = serenity::CreateMessage::new()
            .content(one_message(text))
            .allowed_mentions(only_players);
        if let Err(e) = channel.send_message(http, post).await {
            warn!(tournament = id.0, "cannot remind the players: {e}");
            return;
        }
    }
}
