//! End to end: whole games through the real bot (real start-up code, real SQLite file) against
//! the local Discord stand-in, asserting on what Discord would receive.
//!
//! Game records come from the conformance data (Fairy-Stockfish refereed games) in
//! `rules/tests/data/`.

use discord_standin::{Bot, Opt, Outcome, Standin};
use testkit::bot::{launcher, temp_database};
use testkit::table::Table;

/// A game record of `rules/tests/data/<file>` (a gzipped JSONL file): the SAN of each move,
/// in order.
fn game_sans(file: &str, id: &str) -> Vec<String> {
    let game = testkit::service::jsonl(file)
        .into_iter()
        .find(|g| g["id"] == id)
        .unwrap_or_else(|| panic!("no game {id} in {file}"));
    game["plies"]
        .as_array()
        .expect("plies")
        .iter()
        .filter_map(|p| p["san"].as_str().map(str::to_owned))
        .collect()
}

const CH: u64 = 1_300_000_000_000_000_010;

/// The picture a player should see after `position` was reached by `last`: the board from the
/// side to move, the last move and a checked Khun marked (rendered here independently).
fn expected_png(position: &makruk::Position, last: makruk::Move) -> Vec<u8> {
    let mut placement: makruk_bot::render::Placement = [None; 64];
    for sq in makruk::Square::all() {
        placement[sq.index()] = position.board().piece_at(sq);
    }
    let turn = position.turn();
    let options = makruk_bot::render::RenderOptions {
        orientation: turn,
        last_move: Some((last.from, last.to)),
        check: position
            .is_check()
            .then(|| position.board().khun_of(turn))
            .flatten(),
        ..makruk_bot::render::RenderOptions::default()
    };
    makruk_bot::render::render(&placement, &options).expect("renders")
}

fn assert_public_board(outcome: &Outcome, what: &str) {
    assert!(
        !outcome.is_ephemeral(),
        "{what}: public, got {}",
        outcome.text()
    );
    assert!(outcome.png().is_some(), "{what}: board picture");
    let png = outcome.png().unwrap_or_default();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "{what}: a PNG file");
}

#[tokio::test]
async fn a_whole_game_from_challenge_to_checkmate() {
    let t = Table::new().await;
    t.start_game(CH, &[("rules", "standard")]).await;
    let sans = game_sans("games-mates-public.jsonl.gz", "s4-engine-g97");
    assert_eq!(sans.len(), 8);
    let mut last = None;
    let mut position = makruk::Position::new();
    for (ply, san) in sans.iter().enumerate() {
        let outcome = t.play_ply(CH, ply, san).await;
        assert_eq!(
            outcome.callback_type(),
            4,
            "answered directly, image included"
        );
        let played = makruk::parse_move(&position, san).expect("a legal move of the record");
        position.play(&played).expect("legal");
        assert!(
            outcome.png() == Some(expected_png(&position, played).as_slice()),
            "ply {ply}: the picture shows the board from the side to move"
        );
        assert_public_board(&outcome, san);
        let next = if ply & 1 == 0 { &t.bob } else { &t.alice };
        if ply + 1 < sans.len() {
            assert!(
                outcome
                    .message()
                    .is_some_and(|m| m.content.contains(&next.mention())),
                "ply {ply}: the next player is pinged: {}",
                outcome.text()
            );
        }
        last = Some(outcome);
    }
    let last = last.expect("moves were played");
    let text = last.text().to_lowercase();
    assert!(text.contains("checkmate"), "the end is announced: {text}");

    // The game is over: another move is refused, privately.
    let after = t.play_ply(CH, 0, "e4").await;
    assert!(after.is_ephemeral(), "{}", after.text());

    // The finished game is listed and exported.
    let games = t.discord.run(&t.alice, CH, "games", &[]).await;
    assert!(
        games.text().to_lowercase().contains("checkmate"),
        "{}",
        games.text()
    );
    let pgn = t.discord.run(&t.carol, CH, "pgn", &[]).await;
    let message = pgn.message().expect("pgn message");
    let file = message
        .attachments
        .iter()
        .find(|a| a.filename.ends_with(".pgn"))
        .expect("a .pgn attachment");
    let pgn_text = String::from_utf8_lossy(&file.bytes);
    assert!(pgn_text.contains("Nxe3#"), "{pgn_text}");
    // The players by their Discord names, as lichess writes them (not by user id).
    assert!(pgn_text.contains("[White \"alice\"]"), "{pgn_text}");
    assert!(pgn_text.contains("[Black \"bob\"]"), "{pgn_text}");
    assert!(pgn_text.contains("0-1"), "{pgn_text}");
    assert!(
        message.content.contains("pychess.org/analysis"),
        "{}",
        message.content
    );
    t.assert_clean();
    if let Some(bot) = t.bot {
        bot.stop().await;
    }
}

#[tokio::test]
async fn a_game_drawn_by_counting_shows_the_count() {
    let t = Table::new().await;
    t.start_game(CH, &[("rules", "standard")]).await;
    let sans = game_sans("games-public.jsonl.gz", "s1-g182");
    let mut counts = Vec::new();
    let mut last = None;
    for (ply, san) in sans.iter().enumerate() {
        let outcome = t.play_ply(CH, ply, san).await;
        assert_public_board(&outcome, san);
        if let Some(count) = shown_count(&outcome.text()) {
            assert!(
                ply >= 84,
                "ply {ply}: no count before Black is left with a lone Khun"
            );
            counts.push(count);
        }
        if ply == 95 {
            let explained = t.discord.run(&t.carol, CH, "count", &[]).await;
            assert!(!explained.is_ephemeral());
            let text = explained.text();
            assert!(text.contains("16") && text.contains("Ruea"), "{text}");
        }
        last = Some(outcome);
    }
    // Pieces' honour with one White Ruea: limit 16, counted up move by move to the limit.
    assert!(
        counts.len() >= 20,
        "the count is shown along the way: {counts:?}"
    );
    assert!(counts.iter().all(|&(_, limit)| limit == 16), "{counts:?}");
    assert!(counts.windows(2).all(|w| w[0].0 <= w[1].0), "{counts:?}");
    assert_eq!(counts.last().map(|c| c.0), Some(16), "{counts:?}");
    let text = last.expect("moves").text().to_lowercase();
    assert!(text.contains("drawn by counting"), "{text}");
    t.assert_clean();
}

/// "… counts N of M" in a status text.
fn shown_count(text: &str) -> Option<(u32, u32)> {
    let rest = &text[text.find("counts ")? + "counts ".len()..];
    let mut words = rest.split_whitespace();
    let n = words.next()?.parse().ok()?;
    (words.next()? == "of").then_some(())?;
    let m = words.next()?.trim_end_matches('.').parse().ok()?;
    Some((n, m))
}

#[tokio::test]
async fn autocomplete_offers_legal_moves_checks_first() {
    let t = Table::new().await;
    t.start_game(CH, &[("rules", "standard")]).await;
    let sans = game_sans("games-mates-public.jsonl.gz", "s4-engine-g97");

    let all = t
        .discord
        .autocomplete(
            &t.alice,
            CH,
            "move",
            &[("move", Opt::Str(String::new()))],
            "move",
        )
        .await;
    assert_eq!(all.callback_type(), 8);
    let names = all.choice_names();
    assert!(!names.is_empty() && names.len() <= 25, "{names:?}");
    let prefixed = t
        .discord
        .autocomplete(
            &t.alice,
            CH,
            "move",
            &[("move", Opt::Str("S".into()))],
            "move",
        )
        .await
        .choice_names();
    assert!(!prefixed.is_empty());
    assert!(prefixed.iter().all(|m| m.starts_with('S')), "{prefixed:?}");

    // Not your turn: nothing to offer.
    let none = t
        .discord
        .autocomplete(
            &t.bob,
            CH,
            "move",
            &[("move", Opt::Str(String::new()))],
            "move",
        )
        .await;
    assert!(none.choice_names().is_empty(), "{:?}", none.choice_names());

    // Before the mating move, the mate comes first.
    for (ply, san) in sans.iter().take(7).enumerate() {
        t.play_ply(CH, ply, san).await;
    }
    let choices = t
        .discord
        .autocomplete(
            &t.bob,
            CH,
            "move",
            &[("move", Opt::Str(String::new()))],
            "move",
        )
        .await
        .choice_names();
    assert!(choices.contains(&"Nxe3#".to_owned()), "{choices:?}");
    let first_quiet = choices
        .iter()
        .position(|m| !m.ends_with('+') && !m.ends_with('#'))
        .unwrap_or(choices.len());
    assert!(
        choices[first_quiet..]
            .iter()
            .all(|m| !m.ends_with('+') && !m.ends_with('#')),
        "checks first: {choices:?}"
    );
    t.assert_clean();
}

#[tokio::test]
async fn a_spectator_cannot_answer_a_challenge_or_move() {
    let t = Table::new().await;
    let challenge = t
        .discord
        .run(&t.alice, CH, "challenge", &[("opponent", "@bob")])
        .await;
    let message_id = challenge.message().expect("challenge").id;

    let press = t.discord.click_label(&t.carol, CH, "Accept").await;
    assert_eq!(press.callback_type(), 4);
    assert!(press.is_ephemeral(), "only Carol sees the refusal");
    assert!(
        press.text().contains("not your challenge"),
        "{}",
        press.text()
    );
    assert!(press.text().contains(&t.bob.mention()), "{}", press.text());
    let unchanged = t.discord.message(message_id).expect("challenge message");
    assert_eq!(unchanged.buttons().len(), 3, "the challenge still stands");

    // The challenger cannot accept their own challenge either.
    let own = t.discord.click_label(&t.alice, CH, "Accept").await;
    assert!(own.is_ephemeral(), "{}", own.text());

    t.discord.click_label(&t.bob, CH, "Accept").await;
    let intruder = t.discord.run(&t.carol, CH, "move", &[("move", "e4")]).await;
    assert!(intruder.is_ephemeral(), "{}", intruder.text());

    // Carol cannot answer Alice's draw offer to Bob.
    let offer = t.discord.run(&t.alice, CH, "draw", &[]).await;
    assert!(!offer.is_ephemeral());
    let press = t.discord.click_label(&t.carol, CH, "Accept").await;
    assert!(press.is_ephemeral(), "{}", press.text());
    let declined = t.discord.click_label(&t.bob, CH, "Decline").await;
    assert_eq!(declined.callback_type(), 7, "the offer message is updated");
    assert!(declined.message().is_some_and(|m| m.buttons().is_empty()));

    // The same by command: Alice offers again, Bob accepts with `/draw action:accept`.
    t.discord.run(&t.alice, CH, "draw", &[]).await;
    let refused = t
        .discord
        .run(&t.carol, CH, "draw", &[("action", "accept")])
        .await;
    assert!(refused.is_ephemeral(), "{}", refused.text());
    let drawn = t
        .discord
        .run(&t.bob, CH, "draw", &[("action", "accept")])
        .await;
    assert_public_board(&drawn, "draw agreed");
    assert!(
        drawn.text().to_lowercase().contains("draw"),
        "{}",
        drawn.text()
    );
    t.assert_clean();
}

#[tokio::test]
async fn an_illegal_move_gets_a_private_explanation() {
    let t = Table::new().await;
    t.start_game(CH, &[("rules", "standard")]).await;
    let public_before = public_messages(&t);
    // The Ruea on a1 cannot take its own Bia on a3.
    let outcome = t.play_ply(CH, 0, "a1a3").await;
    assert!(outcome.is_ephemeral(), "{}", outcome.text());
    assert!(outcome.png().is_none());
    let text = outcome.text();
    assert!(
        text.contains("Bia") && text.contains("a3"),
        "says what is wrong: {text}"
    );
    // Unreadable input, too.
    let outcome = t.play_ply(CH, 0, "xyz!!").await;
    assert!(outcome.is_ephemeral(), "{}", outcome.text());
    assert!(outcome.text().contains("xyz!!"), "{}", outcome.text());
    assert_eq!(
        public_messages(&t),
        public_before,
        "nothing public was posted"
    );

    // A Khon cannot step straight back.
    assert_public_board(&t.play_ply(CH, 0, "Sc2").await, "Sc2");
    assert_public_board(&t.play_ply(CH, 1, "e5").await, "e5");
    let outcome = t.play_ply(CH, 2, "c2c1").await;
    assert!(outcome.is_ephemeral(), "{}", outcome.text());
    let text = outcome.text();
    assert!(
        text.contains("Khon") && text.contains("c1"),
        "says what is wrong: {text}"
    );
    // The game still waits for White's move.
    let outcome = t.play_ply(CH, 2, "e4").await;
    assert_public_board(&outcome, "e4");
    t.assert_clean();
}

fn public_messages(t: &Table) -> usize {
    t.discord
        .channel_messages(CH)
        .iter()
        .filter(|m| m.ephemeral_for.is_none())
        .count()
}

#[tokio::test]
async fn the_game_continues_after_a_restart() {
    let mut t = Table::new().await;
    t.start_game(CH, &[("rules", "standard")]).await;
    let sans = game_sans("games-mates-public.jsonl.gz", "s4-engine-g97");
    for (ply, san) in sans.iter().take(4).enumerate() {
        assert_public_board(&t.play_ply(CH, ply, san).await, san);
    }
    // A takeback request made before the restart is answered after it.
    let request = t.discord.run(&t.bob, CH, "takeback", &[]).await;
    assert!(!request.is_ephemeral(), "{}", request.text());

    t.bot.take().expect("running").stop().await;
    t.bot = Some(Bot::start(&t.discord, launcher(&t.db, |_| {})).await);
    assert_eq!(t.discord.identifies(), 2);

    let accepted = t.discord.click_label(&t.alice, CH, "Accept").await;
    assert_eq!(accepted.callback_type(), 7, "{}", accepted.text());
    assert!(accepted.png().is_some());
    // Bob's last move (Nd5) was taken back: he plays it again, and the game goes on to mate.
    for (ply, san) in sans.iter().enumerate().skip(3) {
        assert_public_board(&t.play_ply(CH, ply, san).await, san);
    }
    let board = t.discord.run(&t.carol, CH, "board", &[]).await;
    assert!(
        board.text().to_lowercase().contains("checkmate"),
        "{}",
        board.text()
    );
    t.assert_clean();
}

#[tokio::test]
async fn two_moves_at_once_only_one_applies() {
    let t = Table::new().await;
    t.start_game(CH, &[("rules", "standard")]).await;
    for round in 0..5 {
        let a = t
            .discord
            .send_command(&t.alice, CH, "move", &[("move", Opt::Str("e4".into()))]);
        let b = t
            .discord
            .send_command(&t.alice, CH, "move", &[("move", Opt::Str("d4".into()))]);
        let (a, b) = tokio::join!(t.discord.settled(&a), t.discord.settled(&b));
        let public = [&a, &b].iter().filter(|o| !o.is_ephemeral()).count();
        assert_eq!(
            public,
            1,
            "round {round}: exactly one move applies: {} / {}",
            a.text(),
            b.text()
        );
        // Take it back to race again.
        t.discord.run(&t.alice, CH, "takeback", &[]).await;
        t.discord.click_label(&t.bob, CH, "Accept").await;
    }
    let board = t.discord.run(&t.carol, CH, "board", &[]).await;
    assert!(
        board.text().contains(&t.alice.mention()),
        "White to move again: {}",
        board.text()
    );
    t.assert_clean();
}

#[tokio::test]
async fn slow_answers_are_deferred_and_filled_in() {
    let discord = Standin::start().await;
    let (_dir, db) = temp_database();
    // Defer at once: the slow path of every answer.
    let bot = Bot::start(&discord, launcher(&db, |c| c.defer_after_ms = 0)).await;
    let alice = discord.user("alice", "en-US");
    let bob = discord.user("bob", "en-US");
    discord
        .run(
            &alice,
            CH,
            "challenge",
            &[("opponent", "@bob"), ("color", "white")],
        )
        .await;
    let accepted = discord.click_label(&bob, CH, "Accept").await;
    assert_eq!(accepted.callback_type(), 6);
    assert!(accepted.png().is_some(), "{}", accepted.text());

    let moved = discord.run(&alice, CH, "move", &[("move", "e4")]).await;
    assert_eq!(moved.callback_type(), 5, "deferred");
    assert_public_board(&moved, "deferred e4");
    assert!(moved.messages.iter().all(|m| !m.thinking));

    let refused = discord.run(&alice, CH, "move", &[("move", "d4")]).await;
    assert_eq!(refused.callback_type(), 5);
    assert!(
        refused.is_ephemeral(),
        "not your turn, privately: {}",
        refused.text()
    );
    assert!(discord.errors().is_empty(), "{:?}", discord.errors());
    bot.stop().await;
}

#[tokio::test]
async fn thai_users_get_thai_answers() {
    let discord = Standin::start().await;
    let (_dir, db) = temp_database();
    let bot = Bot::start(&discord, launcher(&db, |_| {})).await;
    // A Thai server: the challenge and its buttons are public, in the server's language.
    discord.set_guild_locale("th");
    let somchai = discord.user("somchai", "th");
    let _malee = discord.user("malee", "th");
    let challenge = discord
        .run(
            &somchai,
            CH,
            "challenge",
            &[("opponent", "@malee"), ("color", "ขาว")],
        )
        .await;
    let labels: Vec<String> = challenge
        .message()
        .map(|m| m.buttons().into_iter().map(|b| b.0).collect())
        .unwrap_or_default();
    assert!(labels.contains(&"รับ".to_owned()), "{labels:?}");
    assert!(discord.errors().is_empty(), "{:?}", discord.errors());
    bot.stop().await;
}

#[tokio::test]
async fn challenges_are_answered_by_command_or_withdrawn() {
    let t = Table::new().await;
    t.discord
        .run(&t.alice, CH, "challenge", &[("opponent", "@bob")])
        .await;
    let intruder = t.discord.run(&t.carol, CH, "accept", &[]).await;
    assert!(intruder.is_ephemeral(), "{}", intruder.text());
    let declined = t.discord.run(&t.bob, CH, "decline", &[]).await;
    assert!(!declined.is_ephemeral(), "{}", declined.text());
    assert!(
        declined.text().contains(&t.bob.mention()),
        "{}",
        declined.text()
    );

    let challenge = t
        .discord
        .run(&t.alice, CH, "challenge", &[("opponent", "@bob")])
        .await;
    let refused = t.discord.click_label(&t.carol, CH, "Withdraw").await;
    assert!(refused.is_ephemeral(), "{}", refused.text());
    assert!(
        refused.text().contains(&t.alice.mention()),
        "{}",
        refused.text()
    );
    let withdrawn = t.discord.click_label(&t.alice, CH, "Withdraw").await;
    assert_eq!(withdrawn.callback_type(), 7);
    let message = t
        .discord
        .message(challenge.message().expect("challenge").id)
        .expect("still there");
    assert!(
        message.buttons().is_empty(),
        "a withdrawn challenge has no buttons"
    );

    t.discord
        .run(
            &t.alice,
            CH,
            "challenge",
            &[("opponent", "@bob"), ("color", "black")],
        )
        .await;
    let started = t.discord.run(&t.bob, CH, "accept", &[]).await;
    assert_public_board(&started, "accepted by command");
    assert!(
        started.text().contains(&t.bob.mention()),
        "Bob plays White and moves first: {}",
        started.text()
    );
    let first = t.discord.run(&t.bob, CH, "move", &[("move", "e4")]).await;
    assert_public_board(&first, "Bob's first move");
    t.assert_clean();
}

#[tokio::test]
async fn traditional_counting_is_started_and_stopped_on_request() {
    let t = Table::new().await;
    t.start_game(CH, &[("rules", "traditional")]).await;
    let sans = game_sans("games-public.jsonl.gz", "s1-g192");
    // After 55 plies no Bia is left and Black (Bob) is to move.
    for (ply, san) in sans.iter().take(55).enumerate() {
        assert_public_board(&t.play_ply(CH, ply, san).await, san);
    }
    let not_yours = t
        .discord
        .run(&t.alice, CH, "count", &[("action", "start")])
        .await;
    assert!(not_yours.is_ephemeral(), "{}", not_yours.text());
    let started = t
        .discord
        .run(&t.bob, CH, "count", &[("action", "start")])
        .await;
    assert_public_board(&started, "count started");
    assert!(
        started.text().to_lowercase().contains("board's honour"),
        "{}",
        started.text()
    );
    for (ply, san) in sans.iter().enumerate().skip(55).take(2) {
        let moved = t.play_ply(CH, ply, san).await;
        assert_public_board(&moved, san);
        assert!(shown_count(&moved.text()).is_some(), "{}", moved.text());
    }
    let stopped = t
        .discord
        .run(&t.bob, CH, "count", &[("action", "stop")])
        .await;
    assert_public_board(&stopped, "count stopped");
    let moved = t.play_ply(CH, 57, &sans[57]).await;
    assert!(shown_count(&moved.text()).is_none(), "{}", moved.text());
    t.assert_clean();
}

#[tokio::test]
async fn counting_on_request_is_only_for_traditional() {
    let t = Table::new().await;
    t.start_game(CH, &[("rules", "standard")]).await;
    let refused = t
        .discord
        .run(&t.alice, CH, "count", &[("action", "start")])
        .await;
    assert!(refused.is_ephemeral(), "{}", refused.text());
    assert!(
        refused.text().to_lowercase().contains("traditional"),
        "{}",
        refused.text()
    );
    t.assert_clean();
}

#[tokio::test]
async fn buttons_of_a_finished_game_do_not_answer_the_next_one() {
    let t = Table::new().await;
    t.start_game(CH, &[("rules", "standard")]).await;
    let offer = t.discord.run(&t.alice, CH, "draw", &[]).await;
    let offer_id = offer.message().expect("offer message").id;
    t.discord.run(&t.alice, CH, "resign", &[]).await;
    t.start_game(CH, &[("rules", "standard")]).await;
    // Alice offers a draw in the new game; Bob presses Accept on the old game's offer.
    t.discord.run(&t.alice, CH, "draw", &[]).await;
    let old_accept = t
        .discord
        .message(offer_id)
        .expect("old offer")
        .buttons()
        .into_iter()
        .find(|b| b.0 == "Accept")
        .expect("old Accept button");
    let pressed = t.discord.click(&t.bob, offer_id, &old_accept.1).await;
    assert!(pressed.is_ephemeral(), "{}", pressed.text());
    assert!(pressed.text().contains("over"), "{}", pressed.text());
    let board = t.discord.run(&t.carol, CH, "board", &[]).await;
    assert!(
        !board.text().to_lowercase().contains("draw agreed")
            && board.text().contains(&t.alice.mention()),
        "the new game goes on: {}",
        board.text()
    );
    t.assert_clean();
}

/// Issue 25 through Discord: a Sittuyin challenge starts the placement phase (the pieces still
/// to place under the board, the drops offered by autocomplete), `/rules variant:` explains a
/// variant, and the game's title names it.
#[tokio::test]
async fn a_variant_is_challenged_placed_and_explained() {
    let t = Table::new().await;
    let started = t.start_game(CH, &[("variant", "sittuyin")]).await;
    let text = started.text();
    assert!(
        text.contains("Sittuyin"),
        "the title names the variant: {text}"
    );
    assert!(text.contains("White still places"), "{text}");
    let offered = t
        .discord
        .autocomplete(
            &t.alice,
            CH,
            "move",
            &[("move", Opt::Str("K@".into()))],
            "move",
        )
        .await;
    let names = offered.choice_names();
    assert!(
        !names.is_empty() && names.iter().all(|n| n.starts_with("K@")),
        "{names:?}"
    );
    let placed = t.play(CH, &["K@e2"]).await;
    assert!(placed.png().is_some(), "the board after a drop");
    assert!(
        placed.text().contains("White still places: Met, 2 Ruea"),
        "{}",
        placed.text()
    );
    // A ruleset is Makruk's only: refused privately, nothing started.
    let refused = t
        .discord
        .run(
            &t.alice,
            CH + 1,
            "challenge",
            &[
                ("opponent", "@bob"),
                ("variant", "makpong"),
                ("rules", "traditional"),
            ],
        )
        .await;
    assert!(refused.is_ephemeral(), "{}", refused.text());
    assert!(refused.text().contains("Makruk"), "{}", refused.text());
    let rules = t
        .discord
        .run(&t.carol, CH, "rules", &[("variant", "cambodian")])
        .await;
    assert!(rules.is_ephemeral());
    assert!(rules.text().contains("Ouk Chaktrang"), "{}", rules.text());
    t.assert_clean();
    if let Some(bot) = t.bot {
        bot.stop().await;
    }
}
