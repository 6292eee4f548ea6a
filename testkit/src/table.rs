//! The end-to-end tests' table (`tests/e2e_*.rs`): the Discord stand-in, the real bot on a fresh
//! SQLite file, and three players, Alice, Bob and Carol (a spectator), with what they do at the
//! table: Alice challenges Bob (Alice White), Bob accepts, they move in turn; the bot stops and
//! starts again on the same database.

use std::time::{Duration, Instant};

use discord_standin::{Bot, Message, Outcome, Standin, User};
use makruk_bot::app::Config;
use sqlx::Connection as _;

use crate::bot::{launcher, temp_database};

/// The stand-in, the bot on its database, and the players.
pub struct Table {
    /// The Discord stand-in.
    pub discord: Standin,
    /// The running bot (`None` while stopped).
    pub bot: Option<Bot>,
    /// The bot's database URL (a SQLite file).
    pub db: String,
    /// The change made to the bot's configuration at every start.
    change: fn(&mut Config),
    /// The directory of the database file, removed with the table.
    _dir: tempfile::TempDir,
    /// White in the games started here (`en-US` unless told otherwise).
    pub alice: User,
    /// Black (`en-GB`: an English of its own).
    pub bob: User,
    /// A spectator (`en-US`).
    pub carol: User,
}

impl Table {
    /// A table with the bot as it is configured by default.
    pub async fn new() -> Table {
        Table::with(|_| {}, "en-US").await
    }

    /// A table with `change` made to the bot's configuration (at every start) and Alice's
    /// Discord locale `alice_locale`.
    pub async fn with(change: fn(&mut Config), alice_locale: &str) -> Table {
        let discord = Standin::start().await;
        let (dir, db) = temp_database();
        let bot = Bot::start(&discord, launcher(&db, change)).await;
        let alice = discord.user("alice", alice_locale);
        let bob = discord.user("bob", "en-GB");
        let carol = discord.user("carol", "en-US");
        Table {
            discord,
            bot: Some(bot),
            db,
            change,
            _dir: dir,
            alice,
            bob,
            carol,
        }
    }

    /// Alice (White) challenges Bob in `channel`, `extra` options added; the challenge message
    /// (public).
    ///
    /// # Panics
    /// If the answer is private or has no message.
    pub async fn challenge(&self, channel: u64, extra: &[(&str, &str)]) -> Message {
        let mut options = vec![("opponent", "@bob"), ("color", "white")];
        options.extend_from_slice(extra);
        let outcome = self
            .discord
            .run(&self.alice, channel, "challenge", &options)
            .await;
        assert!(!outcome.is_ephemeral(), "{}", outcome.text());
        outcome.message().expect("the challenge message").clone()
    }

    /// Alice challenges Bob in `channel` ([`Table::challenge`], `extra` options added) and Bob
    /// accepts: the challenge message (with Accept and Decline, naming Bob) becomes the game
    /// (the board picture, no buttons, White to move). The accepted answer.
    ///
    /// # Panics
    /// If any of that is not so.
    pub async fn start_game(&self, channel: u64, extra: &[(&str, &str)]) -> Outcome {
        let message = self.challenge(channel, extra).await;
        let labels: Vec<String> = message.buttons().into_iter().map(|b| b.0).collect();
        assert!(labels.contains(&"Accept".to_owned()), "{labels:?}");
        assert!(labels.contains(&"Decline".to_owned()), "{labels:?}");
        assert!(
            message.text().contains(&self.bob.mention()),
            "{}",
            message.text()
        );

        let accepted = self.discord.click_label(&self.bob, channel, "Accept").await;
        assert_eq!(
            accepted.callback_type(),
            7,
            "the challenge message becomes the game"
        );
        let game = accepted.message().expect("updated message");
        assert_eq!(game.id, message.id);
        assert!(game.buttons().is_empty(), "no buttons once accepted");
        assert!(game.png().is_some(), "the board picture");
        assert!(
            game.content.contains(&self.alice.mention()),
            "White (Alice) to move: {}",
            game.content
        );
        accepted
    }

    /// Plays `san` in `channel` for whoever is to move at `ply` (even: Alice, White); the
    /// answer, whatever it is.
    pub async fn play_ply(&self, channel: u64, ply: usize, san: &str) -> Outcome {
        let player = if ply.is_multiple_of(2) {
            &self.alice
        } else {
            &self.bob
        };
        self.discord
            .run(player, channel, "move", &[("move", san)])
            .await
    }

    /// Plays `sans` in `channel` from the start of a game (Alice first); the last answer.
    ///
    /// # Panics
    /// If a move is answered in private (refused), or `sans` is empty.
    pub async fn play(&self, channel: u64, sans: &[&str]) -> Outcome {
        let mut last = None;
        for (ply, san) in sans.iter().enumerate() {
            let outcome = self.play_ply(channel, ply, san).await;
            assert!(!outcome.is_ephemeral(), "{san}: {}", outcome.text());
            last = Some(outcome);
        }
        last.expect("moves")
    }

    /// Stops the bot (if running).
    pub async fn stop(&mut self) {
        if let Some(bot) = self.bot.take() {
            bot.stop().await;
        }
    }

    /// Stops the bot and starts it again on the same database.
    pub async fn restart(&mut self) {
        self.stop().await;
        self.bot = Some(Bot::start(&self.discord, launcher(&self.db, self.change)).await);
    }

    /// The games with moves not yet announced, as (game, plies shown), read from the database
    /// with the bot stopped.
    ///
    /// # Panics
    /// If the database cannot be opened or read.
    pub async fn unannounced(&mut self) -> Vec<(i64, u32)> {
        self.stop().await;
        let service = makruk_bot::game::GameService::open(&self.db)
            .await
            .expect("the database opens");
        let pending = service
            .unannounced()
            .await
            .expect("the unannounced moves")
            .iter()
            .filter_map(|a| a.shows().map(|(g, p)| (g.0, p)))
            .collect();
        service.close().await;
        pending
    }

    /// The moves stored, of every game in order (UCI).
    ///
    /// # Panics
    /// If the database cannot be read.
    pub async fn stored_moves(&self) -> Vec<String> {
        let mut conn = sqlx::SqliteConnection::connect(&self.db)
            .await
            .expect("the database");
        let moves = sqlx::query_scalar("SELECT uci FROM moves ORDER BY game_id, ply")
            .fetch_all(&mut conn)
            .await
            .expect("moves");
        conn.close().await.expect("close");
        moves
    }

    /// Waits until `cond` holds of the stand-in.
    ///
    /// # Panics
    /// After 20 s, naming `what`.
    pub async fn wait_for(&self, what: &str, cond: impl Fn(&Standin) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !cond(&self.discord) {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Checks that the stand-in saw no violation of Discord's rules.
    ///
    /// # Panics
    /// If it did, listing them.
    pub fn assert_clean(&self) {
        assert!(
            self.discord.errors().is_empty(),
            "{:?}",
            self.discord.errors()
        );
    }
}
