//! Challenges: open one, answer it (accept starts the game), withdraw it. Each request is one
//! write transaction; the database's unique index keeps one open challenge per channel.
//! Starting a game ([`NewGame`], [`GameService::insert_new_game`]) is shared with the games
//! against the computer.

use anyhow::anyhow;
use makruk::{Color, Game, Position, Variant};

use super::loaded::Loaded;
use super::threads::Thread;
use super::{
    ChallengeId, ChallengeState, ChallengeView, ChannelId, ColorChoice, Event, GameId, GameService,
    Reply, Ruleset, ServiceError, Terms, UserId,
};
use crate::clock::{ClockState, TimeControl};
use crate::store::{self, ChallengeRow, Tx};
use crate::types::{ComputerSeat, Ladder};

/// A game to start: who plays which side, under which rules and time control.
#[derive(Clone, Copy, Debug)]
pub(super) struct NewGame {
    pub(super) channel: ChannelId,
    pub(super) white: UserId,
    pub(super) black: UserId,
    pub(super) ruleset: Ruleset,
    pub(super) variant: Variant,
    /// The computer's seat in a game against it (`None` between people).
    pub(super) computer: Option<ComputerSeat>,
    pub(super) time_control: TimeControl,
    /// The server, and whether the game is to be rated.
    pub(super) ladder: Ladder,
}

impl GameService {
    /// The time control of the `time` option: [`TimeControl::DEFAULT`] (3 days per move) when
    /// none is given, else one of [`TimeControl::CHOICES`] (as shown: `3d`, `10+5`).
    ///
    /// # Errors
    /// [`ServiceError::UnknownTimeControl`] (its message lists the choices).
    pub fn time_control(option: Option<&str>) -> Result<TimeControl, ServiceError> {
        match option {
            None => Ok(TimeControl::DEFAULT),
            Some(text) => text.parse().map_err(ServiceError::UnknownTimeControl),
        }
    }

    /// Inserts `new` as the channel's active game at `now_ms`, its clock starting then, inside
    /// `tx` (not committed). After the commit, call [`GameService::started`].
    ///
    /// # Errors
    /// [`ServiceError::Conflict`] when the channel got an active game meanwhile (the unique
    /// index), `Internal`.
    pub(super) async fn insert_new_game(
        &self,
        tx: &mut Tx,
        new: NewGame,
        now_ms: i64,
    ) -> Result<Loaded, ServiceError> {
        let start = Position::start_variant(new.variant, new.ruleset);
        let start_fen = start.fen();
        let clock = ClockState::new(new.time_control, Color::White, now_ms);
        let row = store::NewGame {
            channel_id: new.channel,
            white_id: new.white,
            black_id: new.black,
            ruleset: new.ruleset,
            variant: new.variant,
            start_fen: &start_fen,
            now: now_ms.div_euclid(1000),
            computer: new.computer,
            time_control: new.time_control,
            clock: clock.stored(),
            guild_id: new.ladder.guild,
            rated: new.ladder.rated,
        };
        let game_id = match store::insert_game(tx, &row).await {
            Ok(id) => id,
            Err(e) if store::is_unique_violation(&e) => return Err(ServiceError::Conflict),
            Err(e) => return Err(e.into()),
        };
        let row = store::game(tx, game_id)
            .await?
            .ok_or_else(|| anyhow!("game {} vanished", game_id.0))?;
        Ok(Loaded::started(row, Game::from_position(start), now_ms))
    }

    /// After the commit of a game from [`GameService::insert_new_game`]: cached, its clock
    /// armed.
    pub(super) fn started(&self, g: &Loaded) {
        self.cache.put(g.row.id.0, g.row.version, &g.m, &g.clocks);
        self.changed(g);
    }
}

/// Stores where game `game`, played in `thread`, started.
pub(super) async fn set_parent(
    tx: &mut Tx,
    game: GameId,
    thread: Thread,
) -> Result<(), ServiceError> {
    store::set_game_parent(tx, game, thread.parent_channel, thread.parent_message).await?;
    Ok(())
}

/// What the channel sees of challenge `row`.
fn challenge_view(row: &ChallengeRow) -> ChallengeView {
    ChallengeView {
        id: row.id,
        channel: row.channel_id,
        challenger: row.challenger_id,
        opponent: row.opponent_id,
        color: row.color,
        ruleset: row.ruleset,
        variant: row.variant,
        created_at: row.created_at,
        expires_at: row.expires_at,
        state: row.state,
        time_control: row.time_control,
        ladder: Ladder {
            guild: row.guild_id,
            rated: row.rated,
        },
    }
}

impl GameService {
    /// Checks that `ruleset` may be asked for in `variant`: any in Makruk, only
    /// [`Ruleset::Standard`] (the variant's own rules, as Fairy-Stockfish's) in the others.
    ///
    /// # Errors
    /// [`ServiceError::VariantRuleset`].
    pub fn check_variant_ruleset(variant: Variant, ruleset: Ruleset) -> Result<(), ServiceError> {
        if variant == Variant::Makruk || ruleset == Ruleset::Standard {
            Ok(())
        } else {
            Err(ServiceError::VariantRuleset)
        }
    }

    /// `challenger` challenges `opponent` in `channel` on `terms`: the colour asked for, the
    /// ruleset, the time control (see [`GameService::time_control`] for the `time` option), the
    /// server and whether the game is to be rated (a game outside any server is unrated), and
    /// whether it is to be played in a thread of its own (see
    /// [`GameService::challenge_wants_thread`] and [`GameService::accept_in`]). The challenge
    /// expires after 10 minutes (see [`GameService::with_challenge_ttl`]).
    ///
    /// # Errors
    /// [`ServiceError::ChallengeSelf`], [`ServiceError::ChallengeBot`] (`opponent_is_bot`),
    /// [`ServiceError::ChannelBusy`] (a game is being played here),
    /// [`ServiceError::ChallengePending`] (another challenge is open here),
    /// [`ServiceError::VariantRuleset`] (a ruleset other than `standard` in another variant
    /// than Makruk), `Internal`.
    #[tracing::instrument(skip(self))]
    pub async fn challenge(
        &self,
        channel: ChannelId,
        challenger: UserId,
        opponent: UserId,
        opponent_is_bot: bool,
        terms: Terms,
    ) -> Result<ChallengeView, ServiceError> {
        let Terms {
            color,
            ruleset,
            variant,
            time_control,
            ladder,
            thread,
        } = terms;
        Self::check_variant_ruleset(variant, ruleset)?;
        if challenger == opponent {
            return Err(ServiceError::ChallengeSelf);
        }
        if opponent_is_bot {
            return Err(ServiceError::ChallengeBot);
        }
        let now = self.now();
        let ch = channel;
        let mut tx = self.store.begin_write().await?;
        store::lock_channel(&mut tx, ch).await?;
        if let Some(g) = store::active_game(&mut tx, ch).await? {
            return Err(ServiceError::ChannelBusy(g.id));
        }
        store::expire_challenges(&mut tx, ch, now).await?;
        if let Some(c) = store::open_challenge(&mut tx, ch).await? {
            return Err(ServiceError::ChallengePending(c.id));
        }
        let new = store::NewChallenge {
            channel_id: ch,
            challenger_id: challenger,
            opponent_id: opponent,
            color,
            ruleset,
            variant,
            now,
            expires_at: now.saturating_add(self.challenge_ttl_secs),
            time_control,
            guild_id: ladder.guild,
            rated: ladder.rated,
        };
        let row = match store::insert_challenge(&mut tx, &new).await {
            Ok(row) => row,
            Err(e) if store::is_unique_violation(&e) => return Err(ServiceError::Conflict),
            Err(e) => return Err(e.into()),
        };
        if thread {
            store::set_challenge_thread(&mut tx, row.id, true).await?;
        }
        tx.commit().await?;
        Ok(challenge_view(&row))
    }

    /// The open challenge of `channel`, if any (expired ones are not returned).
    ///
    /// # Errors
    /// `Internal` only.
    pub async fn open_challenge(
        &self,
        channel: ChannelId,
    ) -> Result<Option<ChallengeView>, ServiceError> {
        let now = self.now();
        let mut tx = self.store.begin_read().await?;
        let row = store::open_challenge(&mut tx, channel).await?;
        tx.commit().await?;
        Ok(row
            .filter(|c| c.expires_at > now)
            .map(|c| challenge_view(&c)))
    }

    /// The open challenge of `channel` (matching `id` if given), checked for expiry.
    async fn find_open_challenge(
        &self,
        tx: &mut Tx,
        channel: ChannelId,
        id: Option<ChallengeId>,
    ) -> Result<ChallengeRow, ServiceError> {
        let ch = channel;
        let open = store::open_challenge(tx, ch).await?;
        match open {
            Some(c) if id.is_none_or(|id| id == c.id) => Ok(c),
            _ => {
                // A button of an old challenge: say what became of it.
                if let Some(id) = id {
                    if let Some(c) = store::challenge(tx, id).await? {
                        if c.channel_id == ch && c.state == ChallengeState::Expired {
                            return Err(ServiceError::ChallengeExpired);
                        }
                    }
                }
                Err(ServiceError::NoChallenge)
            }
        }
    }

    /// The open challenge of `channel` (as [`Self::find_open_challenge`]) when `user` is the
    /// one challenged: only they may accept or decline it.
    async fn find_challenge_to(
        &self,
        tx: &mut Tx,
        channel: ChannelId,
        user: UserId,
        id: Option<ChallengeId>,
    ) -> Result<ChallengeRow, ServiceError> {
        let c = self.find_open_challenge(tx, channel, id).await?;
        if user != c.opponent_id {
            return Err(ServiceError::NotYourChallenge {
                challenger: c.challenger_id,
                opponent: c.opponent_id,
            });
        }
        Ok(c)
    }

    /// `user` accepts the open challenge of `channel` (the one with id `challenge`, if given,
    /// e.g. from a button): the game starts with the challenge's time control, colours are
    /// assigned; White's clock runs from now. With `challenge` (the button on the challenge's
    /// message) the press's answer replaces that message; without it (`/accept`) the leader's
    /// sweep takes the message's buttons away ([`GameService::close_challenge_messages`]).
    ///
    /// # Errors
    /// [`ServiceError::NoChallenge`], [`ServiceError::NotYourChallenge`] (only the challenged user
    /// may accept), [`ServiceError::ChallengeExpired`], [`ServiceError::ChannelBusy`], `Conflict`.
    pub async fn accept(
        &self,
        channel: ChannelId,
        user: UserId,
        challenge: Option<ChallengeId>,
    ) -> Result<Reply, ServiceError> {
        self.accept_in(channel, user, challenge, None).await
    }

    /// [`GameService::accept`], the game played in `thread` if given (opened from the challenge
    /// message of `channel`, or another message there): the thread is the game's channel, the
    /// parent channel and message are stored with the game ([`GameService::game_thread`]).
    ///
    /// # Errors
    /// As [`GameService::accept`]; [`ServiceError::ChannelBusy`] concerns the game's channel.
    #[tracing::instrument(skip(self))]
    pub async fn accept_in(
        &self,
        channel: ChannelId,
        user: UserId,
        challenge: Option<ChallengeId>,
        thread: Option<Thread>,
    ) -> Result<Reply, ServiceError> {
        let now_ms = self.now_ms();
        let now = now_ms.div_euclid(1000);
        let mut tx = self.store.begin_write().await?;
        store::lock_channel(&mut tx, channel).await?;
        let c = self
            .find_challenge_to(&mut tx, channel, user, challenge)
            .await?;
        if c.expires_at <= now {
            store::expire_challenges(&mut tx, c.channel_id, now).await?;
            if challenge.is_some() {
                // The press's answer replaces the message (it says the challenge expired).
                store::close_challenge_message(&mut tx, c.id).await?;
            }
            tx.commit().await?;
            return Err(ServiceError::ChallengeExpired);
        }
        let view = challenge_view(&c);
        let home = thread.map_or(view.channel, |t| t.channel);
        if home != channel {
            store::lock_channel(&mut tx, home).await?;
        }
        if let Some(g) = store::active_game(&mut tx, home).await? {
            return Err(ServiceError::ChannelBusy(g.id));
        }
        let challenger_white = match view.color {
            ColorChoice::White => true,
            ColorChoice::Black => false,
            ColorChoice::Random => rand::random_bool(0.5),
        };
        let (white, black) = if challenger_white {
            (view.challenger, view.opponent)
        } else {
            (view.opponent, view.challenger)
        };
        let new = NewGame {
            channel: home,
            white,
            black,
            ruleset: view.ruleset,
            variant: view.variant,
            computer: None,
            time_control: view.time_control,
            ladder: view.ladder,
        };
        let g = self.insert_new_game(&mut tx, new, now_ms).await?;
        if let Some(t) = thread {
            set_parent(&mut tx, g.row.id, t).await?;
        }
        if !store::close_challenge(&mut tx, c.id, ChallengeState::Accepted, now, Some(g.row.id))
            .await?
        {
            return Err(ServiceError::Conflict);
        }
        if challenge.is_some() {
            store::close_challenge_message(&mut tx, c.id).await?;
        }
        tx.commit().await?;
        self.started(&g);
        Ok(g.reply(Event::Started, Some(user), None))
    }

    /// `user` declines the open challenge (only the challenged user may). With `challenge` (the
    /// button on the challenge's message) the press's answer replaces that message; without it
    /// (`/decline`) the leader's sweep takes the message's buttons away
    /// ([`GameService::close_challenge_messages`]).
    ///
    /// # Errors
    /// [`ServiceError::NoChallenge`], [`ServiceError::NotYourChallenge`], `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn decline(
        &self,
        channel: ChannelId,
        user: UserId,
        challenge: Option<ChallengeId>,
    ) -> Result<ChallengeView, ServiceError> {
        let now = self.now();
        let mut tx = self.store.begin_write().await?;
        let c = self
            .find_challenge_to(&mut tx, channel, user, challenge)
            .await?;
        if !store::close_challenge(&mut tx, c.id, ChallengeState::Declined, now, None).await? {
            return Err(ServiceError::Conflict);
        }
        if challenge.is_some() {
            store::close_challenge_message(&mut tx, c.id).await?;
        }
        let row = store::challenge(&mut tx, c.id)
            .await?
            .ok_or_else(|| anyhow!("challenge {} vanished", c.id.0))?;
        tx.commit().await?;
        Ok(challenge_view(&row))
    }

    /// The challenger withdraws their open challenge in `channel`.
    ///
    /// # Errors
    /// [`ServiceError::NoChallenge`], [`ServiceError::NotYourChallenge`], `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn withdraw(
        &self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<ChallengeView, ServiceError> {
        let now = self.now();
        let mut tx = self.store.begin_write().await?;
        let c = self.find_open_challenge(&mut tx, channel, None).await?;
        if user != c.challenger_id {
            return Err(ServiceError::NotYourChallenge {
                challenger: c.challenger_id,
                opponent: c.opponent_id,
            });
        }
        if !store::close_challenge(&mut tx, c.id, ChallengeState::Withdrawn, now, None).await? {
            return Err(ServiceError::Conflict);
        }
        // Only the Withdraw button withdraws: its answer replaces the message.
        store::close_challenge_message(&mut tx, c.id).await?;
        let row = store::challenge(&mut tx, c.id)
            .await?
            .ok_or_else(|| anyhow!("challenge {} vanished", c.id.0))?;
        tx.commit().await?;
        Ok(challenge_view(&row))
    }
}

/// A challenge's message that still shows its buttons although the challenge is closed or
/// expired: [`GameService::close_challenge_messages`] hands it to the adapter to edit.
#[derive(Clone, Debug)]
pub struct ClosedChallenge {
    /// The challenge as it is now (expired, accepted, declined).
    pub view: ChallengeView,
    /// The Discord message it was posted as (in `view.channel`).
    pub message: u64,
}

/// How many challenge messages one sweep closes at most (the rest wait for the next one).
const CLOSE_BATCH: i64 = 100;

impl GameService {
    /// Challenge `challenge` was posted as Discord message `message` (its buttons): once it
    /// closes without a press on that message (it expires, `/accept`, `/decline`), the leader's
    /// sweep takes the buttons away ([`GameService::close_challenge_messages`]).
    ///
    /// # Errors
    /// `Internal` only.
    pub async fn set_challenge_message(
        &self,
        challenge: ChallengeId,
        message: u64,
    ) -> Result<(), ServiceError> {
        let message = i64::try_from(message).map_err(|_| anyhow!("message id {message}"))?;
        let mut tx = self.store.begin_write().await?;
        store::set_challenge_message(&mut tx, challenge, message).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The leader's sweep of challenge messages (every renewal, [`super::LeaderSettings::every`]):
    /// each challenge that expired by now (marked expired here) or was answered by a command,
    /// and whose message still shows its buttons, is marked as closed and announced once
    /// ([`Announcement::ChallengeClosed`](super::Announcement::ChallengeClosed)) for the adapter
    /// to edit the message. Returns how many. At most once: a crash between the commit and the
    /// edit leaves the buttons, and a press on them then says what became of the challenge.
    ///
    /// # Errors
    /// `Internal` only.
    pub async fn close_challenge_messages(&self) -> Result<usize, ServiceError> {
        let now = self.now();
        let mut tx = self.store.begin_write().await?;
        let due = store::challenge_messages_to_close(&mut tx, now, CLOSE_BATCH).await?;
        if due.is_empty() {
            return Ok(0);
        }
        let mut closed = Vec::with_capacity(due.len());
        for (row, message) in due {
            if row.state == ChallengeState::Open {
                store::close_challenge(
                    &mut tx,
                    row.id,
                    ChallengeState::Expired,
                    row.expires_at,
                    None,
                )
                .await?;
            }
            if !store::close_challenge_message(&mut tx, row.id).await? {
                continue;
            }
            let row = store::challenge(&mut tx, row.id)
                .await?
                .ok_or_else(|| anyhow!("challenge {} vanished", row.id.0))?;
            closed.push(ClosedChallenge {
                view: challenge_view(&row),
                message: u64::try_from(message).unwrap_or_default(),
            });
        }
        tx.commit().await?;
        let count = closed.len();
        for c in closed {
            let locale = match c.view.ladder.guild {
                Some(guild) => match self.guild_settings(guild).await {
                    Ok(settings) => settings.locale.unwrap_or_default(),
                    Err(e) => {
                        tracing::warn!(guild = guild.0, error = %e, "cannot read the server's locale");
                        crate::i18n::Locale::default()
                    }
                },
                None => crate::i18n::Locale::default(),
            };
            self.announce(super::Announcement::ChallengeClosed {
                channel: c.view.channel,
                closed: c,
                locale,
            });
        }
        Ok(count)
    }
}
