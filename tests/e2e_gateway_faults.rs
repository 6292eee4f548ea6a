//! Gateway faults, end to end with the real bot against the stand-in: a dropped connection
//! (the bot resumes and gets the interaction sent meanwhile), an invalid session (op 9: the bot
//! identifies afresh) and a reconnect request (op 7: the bot resumes). After each the bot keeps
//! answering and no move is lost: every move played is in the database once.
//! (Discord's documented behaviour: <https://discord.com/developers/docs/events/gateway>,
//! "Resuming", "Invalid Session", "Reconnect".)

use discord_standin::{Opt, User};
use testkit::table::Table;

const CH: u64 = 1_300_000_000_000_000_020;
/// Moves that never meet: White's and Black's Bia on opposite wings.
const MOVES: [&str; 8] = ["a4", "h5", "b4", "g5", "c4", "f5", "d4", "e5"];

/// A game between Alice (White) and Bob on the shared table, and the plies played so far.
struct Game {
    table: Table,
    /// Moves played so far (plies).
    played: usize,
}

impl std::ops::Deref for Game {
    type Target = Table;

    fn deref(&self) -> &Table {
        &self.table
    }
}

impl Game {
    /// A game between Alice (White) and Bob, accepted.
    async fn new() -> Game {
        let table = Table::new().await;
        table.start_game(CH, &[]).await;
        Game { table, played: 0 }
    }

    /// Who plays the next move, and the move.
    fn next(&self) -> (&User, &'static str) {
        let player = if self.played.is_multiple_of(2) {
            &self.alice
        } else {
            &self.bob
        };
        (player, MOVES[self.played])
    }

    /// Sends the next move without waiting; its token.
    fn send_next(&mut self) -> String {
        let (player, san) = self.next();
        let token =
            self.discord
                .send_command(player, CH, "move", &[("move", Opt::Str(san.into()))]);
        self.played += 1;
        token
    }

    /// Plays the next move and checks it was answered with the public board.
    async fn play_next(&mut self) {
        let token = self.send_next();
        self.assert_board(&token).await;
    }

    async fn assert_board(&self, token: &str) {
        let outcome = self.discord.settled(token).await;
        assert!(
            !outcome.is_ephemeral(),
            "ply {}: {}",
            self.played,
            outcome.text()
        );
        let file = outcome
            .messages
            .iter()
            .flat_map(|m| m.attachments.iter().map(|a| a.filename.clone()))
            .next()
            .unwrap_or_default();
        assert!(
            file.ends_with(&format!("-{}.png", self.played)),
            "ply {}: {file}",
            self.played
        );
    }

    async fn finish(self) {
        assert_eq!(
            self.stored_moves().await.len(),
            self.played,
            "every move stored once"
        );
        self.assert_clean();
    }
}

#[tokio::test]
async fn a_dropped_connection_is_resumed_and_the_missed_interaction_answered() {
    let mut t = Game::new().await;
    t.play_next().await;
    t.play_next().await;
    assert!(t.discord.drop_gateway(), "the bot had a connection");
    // Sent while the bot has no connection: kept for the session, replayed at its RESUME.
    let token = t.send_next();
    t.assert_board(&token).await;
    assert_eq!(t.discord.resumes(), 1, "resumed, not identified afresh");
    assert_eq!(t.discord.identifies(), 1);
    t.play_next().await;
    t.play_next().await;
    t.finish().await;
}

#[tokio::test]
async fn an_invalid_session_makes_the_bot_identify_again() {
    let mut t = Game::new().await;
    t.play_next().await;
    assert!(t.discord.invalidate_session(), "the bot had a connection");
    // Discord has the client wait 1 to 5 seconds before identifying.
    t.wait_for("a second IDENTIFY", |d| {
        d.identifies() == 2 && d.gateway_connected()
    })
    .await;
    assert_eq!(
        t.discord.resumes(),
        0,
        "an invalidated session is not resumed"
    );
    for _ in 0..3 {
        t.play_next().await;
    }
    t.finish().await;
}

#[tokio::test]
async fn a_reconnect_request_is_followed_by_a_resume() {
    let mut t = Game::new().await;
    t.play_next().await;
    assert!(t.discord.request_reconnect(), "the bot had a connection");
    // Sent at once: on the old connection or, if it is already closed, replayed at the RESUME.
    let token = t.send_next();
    t.assert_board(&token).await;
    t.wait_for("the RESUME", |d| d.resumes() == 1 && d.gateway_connected())
        .await;
    assert_eq!(t.discord.identifies(), 1, "resumed, not identified afresh");
    for _ in 0..2 {
        t.play_next().await;
    }
    t.finish().await;
}
