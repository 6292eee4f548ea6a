//! Whole games driven through the game service on a real SQLite file: PlayOK records,
//! Fairy-Stockfish games ending in mate, a counting draw, a repetition, traditional count
//! requests; resignation, agreed draw, takeback, abort; challenges; history and PGN.

use std::sync::Arc;
use std::time::Duration;

use makruk_bot::clock::FakeTime;
use makruk_bot::game::{MoveChoice, Terms};

use makruk::{Color, CountKind, Ruleset, Warning};
use makruk_bot::game::{
    ChallengeState, ChannelId, ColorChoice, EndReason, Event, GameResult, GameService, OfferKind,
    Reply, RulesTopic, ServiceError,
};
use makruk_bot::i18n::Locale;
use testkit::service::{
    conformance, jsonl, mention, start, start_from_fen, user, Env, BLACK, SPECTATOR, START_FEN,
    WHITE,
};

/// The first two FEN fields (placement, side to move).
fn placement_and_turn(fen: &str) -> String {
    fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

/// Counting fields of a FEN: `Some((limit, ply))` when a count is shown.
fn fen_count(fen: &str) -> Option<(u32, u32)> {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let limit: u32 = f.get(3)?.parse().ok()?;
    let ply: u32 = f.get(4)?.parse().ok()?;
    (limit != 0).then_some((limit, ply))
}

fn flag(v: &serde_json::Value, key: &str) -> bool {
    v[key][0].as_bool().unwrap_or(false)
}

/// Plays a conformance game through the service (UCI moves, alternating users), checking the
/// FEN, check flag and SAN of every ply against the data. Returns every reply.
async fn play_conformance(
    svc: &GameService,
    ch: ChannelId,
    game: &serde_json::Value,
) -> Vec<Reply> {
    let plies = game["plies"].as_array().expect("plies");
    let moves = game["moves"].as_array().expect("moves");
    let mut replies = Vec::new();
    for (i, mv) in moves.iter().enumerate() {
        let uci = mv.as_str().expect("uci");
        let turn = if plies[i]["fen"].as_str().expect("fen").split(' ').nth(1) == Some("w") {
            Color::White
        } else {
            Color::Black
        };
        let reply = svc
            .play(ch, user(turn), uci)
            .await
            .unwrap_or_else(|e| panic!("{} ply {i} {uci}: {e}", game["id"]));
        assert_eq!(
            reply.position.fen(),
            plies[i + 1]["fen"].as_str().unwrap(),
            "{} ply {i}",
            game["id"]
        );
        assert_eq!(
            reply.san.as_deref(),
            plies[i]["san"].as_str(),
            "{} ply {i}",
            game["id"]
        );
        if let Some(check) = plies[i + 1]["check"].as_bool() {
            assert_eq!(reply.status.check, check, "{} ply {i}", game["id"]);
        }
        replies.push(reply);
    }
    replies
}

/// True when no position before the last one is a game end (draw flags, insufficient
/// material on both sides, no legal move), so the service must play the game to its end.
fn clean_until_last(game: &serde_json::Value) -> bool {
    let plies = game["plies"].as_array().expect("plies");
    plies[..plies.len() - 1].iter().all(|p| {
        let both_insufficient = p["insufficient"][0].as_bool().unwrap_or(false)
            && p["insufficient"][1].as_bool().unwrap_or(false);
        let no_legal_move = p["legal"].as_array().is_some_and(Vec::is_empty);
        !(flag(p, "optional") || flag(p, "immediate") || both_insufficient || no_legal_move)
    })
}

async fn start_conformance(
    svc: &GameService,
    ch: ChannelId,
    game: &serde_json::Value,
    ruleset: Ruleset,
) {
    let fen = game["start"].as_str().expect("start");
    if fen == START_FEN && ruleset == Ruleset::Standard {
        start(svc, ch, ruleset).await;
    } else {
        start_from_fen(svc, ch, fen, ruleset).await;
    }
}

#[tokio::test]
async fn playok_records_played_move_by_move_under_traditional() {
    let env = Env::new().await;
    let expected =
        std::fs::read_to_string(conformance("playok/expected.txt")).expect("expected.txt");
    let mut played = 0;
    for (n, line) in expected.lines().enumerate() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (file, plies, placement, turn) = (f[0], f[1].parse::<usize>().unwrap(), f[2], f[3]);
        let mate = f.get(4) == Some(&"mate");
        let text = std::fs::read_to_string(conformance(&format!("playok/{file}"))).unwrap();
        let record = makruk::pgn::read_pgn(&text).expect("PGN");
        assert_eq!(record.moves.len(), plies, "{file}");
        let ch = ChannelId(500 + n as u64);
        start(&env.svc, ch, Ruleset::Traditional).await;
        let mut last = None;
        for (i, text) in record.moves.iter().enumerate() {
            let mover = if i & 1 == 0 { WHITE } else { BLACK };
            let reply = env
                .svc
                .play(ch, mover, text)
                .await
                .unwrap_or_else(|e| panic!("{file} ply {i} {text}: {e}"));
            assert_eq!(reply.status.plies as usize, i + 1);
            assert!(reply.san.is_some());
            if let Some(end) = reply.status.end {
                if i + 1 < plies {
                    // RULES/README: game-08 reaches insufficient material at ply 126 of 138.
                    assert_eq!(
                        (file, i + 1, end.reason),
                        ("game-08.pgn", 126, EndReason::InsufficientMaterial)
                    );
                    let next = env
                        .svc
                        .play(
                            ch,
                            if mover == WHITE { BLACK } else { WHITE },
                            &record.moves[i + 1],
                        )
                        .await;
                    assert!(matches!(next, Err(ServiceError::GameOver(_))), "{next:?}");
                }
            }
            last = Some(reply);
            if last.as_ref().is_some_and(|r| r.status.end.is_some()) {
                break;
            }
        }
        let last = last.expect("moves");
        if file == "game-08.pgn" {
            continue;
        }
        played += 1;
        assert_eq!(
            placement_and_turn(&last.position.fen()),
            format!("{placement} {turn}"),
            "{file}"
        );
        let result = record.tag("Result").unwrap_or("*").to_string();
        if mate {
            let end = last.status.end.expect("mate ends the game");
            assert_eq!(end.reason, EndReason::Checkmate, "{file}");
            assert_eq!(end.result.pgn(), result, "{file}");
        } else {
            assert_eq!(last.status.end, None, "{file}");
            // The record ends without mate: the loser resigned (or the players agreed a draw).
            let loser = match result.as_str() {
                "1-0" => Some(BLACK),
                "0-1" => Some(WHITE),
                _ => None,
            };
            let reply = match loser {
                Some(u) => env.svc.resign(ch, u).await.unwrap(),
                None => {
                    env.svc.offer(ch, WHITE, OfferKind::Draw).await.unwrap();
                    env.svc
                        .accept_offer(ch, BLACK, OfferKind::Draw)
                        .await
                        .unwrap()
                }
            };
            assert_eq!(
                reply.status.end.map(|e| e.result.pgn().to_string()),
                Some(result),
                "{file}"
            );
        }
    }
    assert_eq!(played, 7);
}

#[tokio::test]
async fn a_game_ending_in_checkmate() {
    let env = Env::new().await;
    let game = jsonl("games-mates-public.jsonl.gz")
        .into_iter()
        .find(|g| {
            g["start"] == START_FEN
                && g["result"] == -32000
                && g["end"] == "no_legal_moves"
                && clean_until_last(g)
        })
        .expect("a mate from the start position");
    let ch = ChannelId(1);
    start_conformance(&env.svc, ch, &game, Ruleset::Standard).await;
    let replies = play_conformance(&env.svc, ch, &game).await;
    for r in &replies[..replies.len() - 1] {
        assert_eq!(r.status.end, None);
    }
    let last = replies.last().unwrap();
    let winner = last.position.turn().other();
    let end = last.status.end.expect("game over");
    assert_eq!(end.reason, EndReason::Checkmate);
    assert_eq!(end.result, GameResult::win_for(winner));
    assert!(last.san.as_deref().unwrap().ends_with('#'));
    assert!(
        last.text(Locale::En, &mention).contains("Checkmate"),
        "{}",
        last.text(Locale::En, &mention)
    );
    assert!(
        last.text(Locale::Th, &mention).contains("รุกจน"),
        "{}",
        last.text(Locale::Th, &mention)
    );
    // The game is over in the database too.
    let again = env.svc.play(ch, user(last.position.turn()), "e4").await;
    assert!(matches!(again, Err(ServiceError::GameOver(_))), "{again:?}");
    let history = env.svc.recent_games(ch, 10).await.unwrap();
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].reason, EndReason::Checkmate);
    assert_eq!(history[0].plies as usize, replies.len());
}

#[tokio::test]
async fn standard_counting_draw_with_counting_messages() {
    let env = Env::new().await;
    let games: Vec<_> = jsonl("games-public.jsonl.gz")
        .into_iter()
        .filter(|g| {
            let last = g["plies"].as_array().unwrap().last().unwrap();
            g["end"] == "optional"
                && clean_until_last(g)
                && fen_count(last["fen"].as_str().unwrap()).is_some_and(|(l, p)| p > l)
        })
        .take(3)
        .collect();
    assert!(!games.is_empty());
    for (n, game) in games.iter().enumerate() {
        let ch = ChannelId(10 + n as u64);
        start_conformance(&env.svc, ch, game, Ruleset::Standard).await;
        let replies = play_conformance(&env.svc, ch, game).await;
        let mut counted = 0;
        let mut warned = false;
        for r in &replies[..replies.len() - 1] {
            assert_eq!(r.status.end, None);
            match fen_count(&r.position.fen()) {
                Some((limit, ply)) => {
                    let c = r.status.count.expect("count shown in the FEN runs");
                    assert_eq!(c.current, ply.div_ceil(2));
                    assert_eq!(c.limit, limit / 2);
                    assert_eq!(c.remaining, c.limit - c.current);
                    let counting = if ply & 1 == 0 {
                        r.position.turn()
                    } else {
                        r.position.turn().other()
                    };
                    assert_eq!(c.counting, counting);
                    let bare = r.position.is_bare(c.counting);
                    assert_eq!(c.kind == CountKind::PiecesHonour, bare);
                    let text = r.text(Locale::En, &mention);
                    let th = r.text(Locale::Th, &mention);
                    // Before the first counted move: the number it will say.
                    let (en_count, th_count) = if c.current < c.started_from {
                        (
                            format!("counts from {} to {}", c.started_from, c.limit),
                            format!("ที่ {} (นับถึง {})", c.started_from, c.limit),
                        )
                    } else {
                        (
                            format!("counts {} of {}", c.current, c.limit),
                            format!("นับ {} จาก {}", c.current, c.limit),
                        )
                    };
                    assert!(text.contains(&en_count), "{text}");
                    assert!(th.contains(&th_count), "{th}");
                    if c.remaining <= 3 {
                        assert!(r
                            .status
                            .warnings
                            .iter()
                            .any(|w| matches!(w, Warning::CountNearlyOut { .. })));
                        warned = true;
                    }
                    counted += 1;
                }
                None => assert!(r.status.count.is_none()),
            }
        }
        assert!(counted > 0);
        assert!(warned, "the count's last moves are warned about");
        let last = replies.last().unwrap();
        let end = last.status.end.expect("drawn by counting");
        assert_eq!(end.reason, EndReason::Counting);
        assert_eq!(end.result, GameResult::Draw);
        assert!(last
            .text(Locale::En, &mention)
            .contains("drawn by counting"));
        // The count explained for the finished game, in sentences with the numbers.
        let explained = env.svc.explain_count(ch, Locale::En).await.unwrap();
        assert!(explained.contains("counts"), "{explained}");
        assert!(
            explained.starts_with("The game in this channel is over"),
            "{explained}"
        );
        // Where the count stood, not what is left to play.
        let c = last.status.count.expect("the count at the end");
        assert!(
            explained.contains(&format!(
                "When the game ended the count stood at {} of {}.",
                c.current, c.limit
            )),
            "{explained}"
        );
        assert!(!explained.contains("left:"), "{explained}");
    }
}

#[tokio::test]
async fn explain_count_mid_game_gives_who_why_limit_and_remaining() {
    let env = Env::new().await;
    // Black has only its Khun; White has one Ruea (limit 16) and a Met: pieces' honour.
    let ch = ChannelId(20);
    start_from_fen(
        &env.svc,
        ch,
        "4k3/8/8/8/8/8/3M4/R2K4 w - - 0 1",
        Ruleset::Standard,
    )
    .await;
    let r = env.svc.play(ch, WHITE, "Ra2").await.unwrap();
    let c = r.status.count.expect("pieces' honour runs");
    assert_eq!(c.kind, CountKind::PiecesHonour);
    assert_eq!(c.counting, Color::Black);
    assert_eq!(c.limit, 16);
    let en = env.svc.explain_count(ch, Locale::En).await.unwrap();
    assert!(en.contains("Black has only its Khun left"), "{en}");
    assert!(en.contains("one Ruea"), "{en}");
    assert!(en.contains(&format!("{} of 16", c.current)), "{en}");
    // Before Black's first counted move the count shows the pieces on the board.
    assert_eq!(c.current + 1, c.started_from);
    assert!(
        en.contains(&format!("there are {} pieces", c.started_from - 1)),
        "{en}"
    );
    assert!(en.contains(&format!("counted {}", c.started_from)), "{en}");
    // The status line names the number Black's first counted move will say, not the pieces.
    let status = r.text(Locale::En, &|u| format!("<@{}>", u.0));
    assert!(
        status.contains(&format!(
            "Pieces' honour: Black counts from {} to 16.",
            c.started_from
        )),
        "{status}"
    );
    let r = env.svc.play(ch, BLACK, "Kf7").await.unwrap();
    assert_eq!(r.status.count.map(|c| c.current), Some(c.started_from));
    let status = r.text(Locale::En, &|u| format!("<@{}>", u.0));
    assert!(
        status.contains(&format!(
            "Pieces' honour: Black counts {} of 16.",
            c.started_from
        )),
        "{status}"
    );
    // The limit was set by the material when the count began.
    assert!(env
        .svc
        .explain_count(ch, Locale::En)
        .await
        .unwrap()
        .contains("White had one Ruea when the count began"),);
    let en = env.svc.explain_count(ch, Locale::En).await.unwrap();
    assert!(
        en.contains(&format!("The count started from {}", c.started_from)),
        "{en}"
    );
    assert!(
        en.contains(&format!("there were {} pieces", c.started_from - 1)),
        "{en}"
    );
    let th = env.svc.explain_count(ch, Locale::Th).await.unwrap();
    assert!(th.contains("เรือลำเดียว"), "{th}");
    // And no count before the Bia are gone.
    let ch2 = ChannelId(21);
    start(&env.svc, ch2, Ruleset::Standard).await;
    let none = env.svc.explain_count(ch2, Locale::En).await.unwrap();
    assert!(none.contains("Bia are still on the board"), "{none}");
    assert!(none.contains("begins when no Bia is left"), "{none}");
    // Under traditional rules nothing starts by itself: the text says how to start it.
    let ch3 = ChannelId(22);
    start(&env.svc, ch3, Ruleset::Traditional).await;
    let none = env.svc.explain_count(ch3, Locale::En).await.unwrap();
    assert!(none.contains("Bia are still on the board"), "{none}");
    assert!(none.contains("never starts by itself"), "{none}");
    assert!(none.contains("/count action:start"), "{none}");
    assert!(!none.contains("begins when no Bia is left"), "{none}");
}

#[tokio::test]
async fn repetition_ends_the_game() {
    let env = Env::new().await;
    let game = jsonl("games-public.jsonl.gz")
        .into_iter()
        .find(|g| {
            let last = g["plies"].as_array().unwrap().last().unwrap();
            g["end"] == "optional"
                && clean_until_last(g)
                && fen_count(last["fen"].as_str().unwrap()).is_none_or(|(l, p)| p <= l)
        })
        .expect("a game drawn by repetition");
    let ch = ChannelId(30);
    start_conformance(&env.svc, ch, &game, Ruleset::Standard).await;
    let replies = play_conformance(&env.svc, ch, &game).await;
    let end = replies.last().unwrap().status.end.expect("drawn");
    assert_eq!(end.reason, EndReason::Repetition);
    assert_eq!(end.result, GameResult::Draw);
}

#[tokio::test]
async fn repetition_by_shuffling_ma_from_the_start() {
    let env = Env::new().await;
    let ch = ChannelId(31);
    start(&env.svc, ch, Ruleset::Standard).await;
    let shuffle = ["Nd2", "Nd7", "Nb1", "Nb8", "Nd2", "Nd7", "Nb1", "Nb8"];
    for (i, mv) in shuffle.iter().enumerate() {
        let r = env
            .svc
            .play(ch, if i & 1 == 0 { WHITE } else { BLACK }, mv)
            .await
            .unwrap();
        if i + 1 < shuffle.len() {
            assert_eq!(r.status.end, None, "ply {i}");
        } else {
            assert_eq!(r.status.end.map(|e| e.reason), Some(EndReason::Repetition));
        }
    }
}

#[tokio::test]
async fn traditional_count_start_and_stop_follow_the_conformance_data() {
    let env = Env::new().await;
    let games: Vec<_> = jsonl("traditional-public.jsonl.gz")
        .into_iter()
        .filter(|g| {
            let plies = g["plies"].as_array().unwrap();
            let events = g["events"].as_array().unwrap();
            plies[..plies.len() - 1]
                .iter()
                .all(|p| !flag(p, "optional"))
                && events.iter().any(|e| e["action"] == "stop")
                && plies.iter().all(|p| {
                    p["legal"].as_array().is_none_or(|l| !l.is_empty())
                        || p == plies.last().unwrap()
                })
        })
        .take(20)
        .collect();
    assert!(games.len() >= 6, "{}", games.len());
    let (mut starts, mut stops, mut early) = (0, 0, 0);
    for (n, game) in games.iter().enumerate() {
        let ch = ChannelId(40 + n as u64);
        start_from_fen(
            &env.svc,
            ch,
            game["start"].as_str().unwrap(),
            Ruleset::Traditional,
        )
        .await;
        let plies = game["plies"].as_array().unwrap();
        let moves = game["moves"].as_array().unwrap();
        let events = game["events"].as_array().unwrap();
        let mut counter = None;
        let mut ended = false;
        for i in 0..=moves.len() {
            for e in events.iter().filter(|e| e["ply"] == i) {
                let turn = env.svc.board(ch).await.unwrap().position.turn();
                let r = if e["action"] == "start" {
                    counter = Some(turn);
                    starts += 1;
                    let r = env.svc.count_start(ch, user(turn)).await.unwrap();
                    assert_eq!(r.event, Event::CountStarted);
                    assert_eq!(
                        r.status.draw_offer,
                        Some(turn),
                        "a started count is a draw offer"
                    );
                    r
                } else {
                    let c = counter.take().expect("a count to stop");
                    // Only the counting side may stop it.
                    let wrong = env.svc.count_stop(ch, user(c.other())).await;
                    assert!(
                        matches!(wrong, Err(ServiceError::NotYourCount)),
                        "{wrong:?}"
                    );
                    stops += 1;
                    env.svc.count_stop(ch, user(c)).await.unwrap()
                };
                assert_eq!(
                    r.position.fen(),
                    plies[i]["fen"].as_str().unwrap(),
                    "{} event at {i}",
                    game["id"]
                );
            }
            if i == moves.len() {
                break;
            }
            let turn = env.svc.board(ch).await.unwrap().position.turn();
            let r = env
                .svc
                .play(ch, user(turn), moves[i].as_str().unwrap())
                .await
                .unwrap();
            // `plies[i + 1]` already shows the effect of a request made there: compare after it.
            if !events.iter().any(|e| e["ply"] == i + 1) {
                assert_eq!(
                    r.position.fen(),
                    plies[i + 1]["fen"].as_str().unwrap(),
                    "{} ply {i}",
                    game["id"]
                );
            }
            if let (Some(c), Some(info)) = (counter, r.status.count) {
                if info.kind == CountKind::BoardsHonour {
                    assert_eq!(info.counting, c);
                }
            }
            if let Some(end) = r.status.end {
                ended = true;
                if i + 1 < moves.len() {
                    // The generator plays on where our rules end the game by material (the
                    // data flags only count-outs): a lone Khun against a lone Ma, etc.
                    assert!(
                        matches!(
                            end.reason,
                            EndReason::InsufficientMaterial | EndReason::KhunVsKhun
                        ),
                        "{}: ended early at ply {}: {end:?}",
                        game["id"],
                        i + 1
                    );
                    early += 1;
                    break;
                }
                if flag(&plies[i + 1], "optional") {
                    assert_eq!(end.reason, EndReason::Counting);
                }
            }
        }
        if flag(plies.last().unwrap(), "optional") {
            assert!(ended, "{}: the count ran out", game["id"]);
        }
    }
    assert!(starts > 5 && stops > 5, "{starts} starts, {stops} stops");
    assert!(
        games.len() - early >= 5,
        "{early} of {} games ended early",
        games.len()
    );
}

#[tokio::test]
async fn count_requests_are_refused_outside_traditional_and_with_bia() {
    let env = Env::new().await;
    let ch = ChannelId(50);
    start(&env.svc, ch, Ruleset::Standard).await;
    let r = env.svc.count_start(ch, WHITE).await;
    assert!(matches!(r, Err(ServiceError::NotTraditional)), "{r:?}");
    let ch = ChannelId(51);
    start(&env.svc, ch, Ruleset::Traditional).await;
    let r = env.svc.count_start(ch, WHITE).await;
    assert!(
        matches!(
            r,
            Err(ServiceError::Count(makruk::CountRequestError::BiaLeft))
        ),
        "{r:?}"
    );
    let r = env.svc.count_start(ch, BLACK).await;
    assert!(matches!(r, Err(ServiceError::NotYourTurn)), "{r:?}");
    assert!(r
        .unwrap_err()
        .message(Locale::En, &mention)
        .contains("not your turn"));
}

#[tokio::test]
async fn resignation() {
    let env = Env::new().await;
    let ch = ChannelId(60);
    start(&env.svc, ch, Ruleset::Standard).await;
    env.svc.play(ch, WHITE, "e4").await.unwrap();
    let r = env.svc.resign(ch, WHITE).await.unwrap();
    assert_eq!(r.event, Event::Resigned);
    let end = r.status.end.unwrap();
    assert_eq!(
        (end.result, end.reason),
        (GameResult::BlackWins, EndReason::Resignation)
    );
    let text = r.text(Locale::En, &mention);
    assert!(
        text.contains("White (<@1001>) resigned") && text.contains("0-1"),
        "{text}"
    );
    let r = env.svc.resign(ch, BLACK).await;
    assert!(matches!(r, Err(ServiceError::GameOver(_))), "{r:?}");
}

#[tokio::test]
async fn agreed_draw_and_offers_that_lapse_or_are_declined() {
    let env = Env::new().await;
    let ch = ChannelId(70);
    start(&env.svc, ch, Ruleset::Standard).await;
    // An offer with one's own move stands; it lapses when the opponent moves.
    let r = env.svc.offer(ch, WHITE, OfferKind::Draw).await.unwrap();
    assert_eq!(r.status.draw_offer, Some(Color::White));
    assert!(matches!(
        env.svc.offer(ch, WHITE, OfferKind::Draw).await,
        Err(ServiceError::AlreadyOffered(OfferKind::Draw))
    ));
    assert!(matches!(
        env.svc.accept_offer(ch, WHITE, OfferKind::Draw).await,
        Err(ServiceError::NoOffer(OfferKind::Draw))
    ));
    assert!(matches!(
        env.svc.accept_offer(ch, SPECTATOR, OfferKind::Draw).await,
        Err(ServiceError::NotAPlayer)
    ));
    let r = env.svc.play(ch, WHITE, "e4").await.unwrap();
    assert_eq!(
        r.status.draw_offer,
        Some(Color::White),
        "the offerer's own move keeps it"
    );
    let r = env.svc.play(ch, BLACK, "e5").await.unwrap();
    assert_eq!(r.status.draw_offer, None, "lapsed when the opponent moved");
    assert!(matches!(
        env.svc.accept_offer(ch, BLACK, OfferKind::Draw).await,
        Err(ServiceError::NoOffer(OfferKind::Draw))
    ));
    // Declined.
    env.svc.offer(ch, WHITE, OfferKind::Draw).await.unwrap();
    let r = env
        .svc
        .decline_offer(ch, BLACK, OfferKind::Draw)
        .await
        .unwrap();
    assert_eq!(
        (r.event, r.status.draw_offer),
        (Event::OfferDeclined(OfferKind::Draw), None)
    );
    // Accepted.
    let r = env.svc.offer(ch, BLACK, OfferKind::Draw).await.unwrap();
    assert!(r.text(Locale::En, &mention).contains("offers a draw"));
    let r = env
        .svc
        .accept_offer(ch, WHITE, OfferKind::Draw)
        .await
        .unwrap();
    let end = r.status.end.unwrap();
    assert_eq!(
        (end.result, end.reason),
        (GameResult::Draw, EndReason::Agreement)
    );
    assert!(r.text(Locale::En, &mention).contains("1/2-1/2"));
}

#[tokio::test]
async fn takeback_one_ply_with_the_opponents_consent() {
    let env = Env::new().await;
    let ch = ChannelId(80);
    start(&env.svc, ch, Ruleset::Standard).await;
    assert!(matches!(
        env.svc.offer(ch, WHITE, OfferKind::Takeback).await,
        Err(ServiceError::NothingToTakeBack)
    ));
    env.svc.play(ch, WHITE, "e4").await.unwrap();
    let before = env.svc.play(ch, BLACK, "e5").await.unwrap();
    let r = env.svc.play(ch, WHITE, "Nd2").await.unwrap();
    assert!(matches!(
        env.svc.offer(ch, BLACK, OfferKind::Takeback).await,
        Err(ServiceError::NothingToTakeBack)
    ));
    assert!(matches!(
        env.svc.accept_offer(ch, BLACK, OfferKind::Takeback).await,
        Err(ServiceError::NoOffer(OfferKind::Takeback))
    ));
    let req = env.svc.offer(ch, WHITE, OfferKind::Takeback).await.unwrap();
    assert_eq!(req.status.takeback_request, Some(Color::White));
    assert!(matches!(
        env.svc.accept_offer(ch, WHITE, OfferKind::Takeback).await,
        Err(ServiceError::NoOffer(OfferKind::Takeback))
    ));
    let back = env
        .svc
        .accept_offer(ch, BLACK, OfferKind::Takeback)
        .await
        .unwrap();
    assert_eq!(back.event, Event::OfferAccepted(OfferKind::Takeback));
    assert_eq!(back.position.fen(), before.position.fen());
    assert_ne!(back.position.fen(), r.position.fen());
    assert_eq!(back.status.plies, 2);
    assert_eq!(back.status.takeback_request, None);
    // White to move again, and may play something else.
    let r = env.svc.play(ch, WHITE, "Ne2").await.unwrap();
    assert_eq!(r.san.as_deref(), Some("Ne2"));
    let pgn = env
        .svc
        .pgn(ch, None, &testkit::service::mention)
        .await
        .unwrap();
    assert!(pgn.pgn.contains("1. e4 e5 2. Ne2"), "{}", pgn.pgn);
    // A request lapses when the opponent moves; a decline clears it.
    env.svc.offer(ch, WHITE, OfferKind::Takeback).await.unwrap();
    let r = env.svc.play(ch, BLACK, "Nd7").await.unwrap();
    assert_eq!(r.status.takeback_request, None);
    env.svc.offer(ch, BLACK, OfferKind::Takeback).await.unwrap();
    let r = env
        .svc
        .decline_offer(ch, WHITE, OfferKind::Takeback)
        .await
        .unwrap();
    assert_eq!(
        (r.event, r.status.takeback_request),
        (Event::OfferDeclined(OfferKind::Takeback), None)
    );
}

#[tokio::test]
async fn abort_only_before_both_sides_moved() {
    let env = Env::new().await;
    let ch = ChannelId(90);
    start(&env.svc, ch, Ruleset::Standard).await;
    env.svc.play(ch, WHITE, "e4").await.unwrap();
    let r = env.svc.abort(ch, BLACK).await.unwrap();
    assert_eq!(
        r.status.end.map(|e| (e.result, e.reason)),
        Some((GameResult::Aborted, EndReason::Aborted))
    );
    start(&env.svc, ch, Ruleset::Standard).await;
    env.svc.play(ch, WHITE, "e4").await.unwrap();
    env.svc.play(ch, BLACK, "e5").await.unwrap();
    assert!(matches!(
        env.svc.abort(ch, WHITE).await,
        Err(ServiceError::TooLateToAbort)
    ));
}

#[tokio::test]
async fn challenges_accept_decline_withdraw_expire() {
    let env = Env::new().await;
    let now = Arc::new(FakeTime::new(1_000_000_000));
    let svc = env.svc.clone().with_time(now.clone());
    let ch = ChannelId(100);
    assert!(matches!(
        svc.challenge(ch, WHITE, WHITE, false, Terms::default())
            .await,
        Err(ServiceError::ChallengeSelf)
    ));
    assert!(matches!(
        svc.challenge(ch, WHITE, BLACK, true, Terms::default())
            .await,
        Err(ServiceError::ChallengeBot)
    ));
    let c = svc
        .challenge(
            ch,
            WHITE,
            BLACK,
            false,
            Terms {
                color: ColorChoice::Black,
                ruleset: Ruleset::Material,
                ..Terms::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(
        (c.state, c.expires_at - c.created_at),
        (ChallengeState::Open, 600)
    );
    assert!(c
        .text(Locale::En, &mention)
        .contains("<@1001> challenges <@1002>"));
    assert!(matches!(
        svc.challenge(ch, SPECTATOR, BLACK, false, Terms::default())
            .await,
        Err(ServiceError::ChallengePending(_))
    ));
    assert_eq!(
        svc.open_challenge(ch).await.unwrap().map(|c| c.id),
        Some(c.id)
    );
    assert!(matches!(
        svc.accept(ch, WHITE, None).await,
        Err(ServiceError::NotYourChallenge { .. })
    ));
    assert!(matches!(
        svc.decline(ch, SPECTATOR, None).await,
        Err(ServiceError::NotYourChallenge { .. })
    ));
    assert!(matches!(
        svc.withdraw(ch, BLACK).await,
        Err(ServiceError::NotYourChallenge { .. })
    ));
    let w = svc.withdraw(ch, WHITE).await.unwrap();
    assert_eq!(w.state, ChallengeState::Withdrawn);
    assert!(matches!(
        svc.accept(ch, BLACK, Some(c.id)).await,
        Err(ServiceError::NoChallenge)
    ));
    // Declined.
    let c = svc
        .challenge(
            ch,
            WHITE,
            BLACK,
            false,
            Terms {
                color: ColorChoice::Black,
                ruleset: Ruleset::Material,
                ..Terms::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(
        svc.decline(ch, BLACK, Some(c.id)).await.unwrap().state,
        ChallengeState::Declined
    );
    // Expired after 10 minutes.
    let c = svc
        .challenge(
            ch,
            WHITE,
            BLACK,
            false,
            Terms {
                color: ColorChoice::Black,
                ruleset: Ruleset::Material,
                ..Terms::default()
            },
        )
        .await
        .unwrap();
    now.advance(Duration::from_secs(601));
    assert!(svc.open_challenge(ch).await.unwrap().is_none());
    assert!(matches!(
        svc.accept(ch, BLACK, Some(c.id)).await,
        Err(ServiceError::ChallengeExpired)
    ));
    assert!(matches!(
        svc.accept(ch, BLACK, Some(c.id)).await,
        Err(ServiceError::ChallengeExpired)
    ));
    // A new challenge in time: accepted with the colours asked for.
    let c = svc
        .challenge(
            ch,
            WHITE,
            BLACK,
            false,
            Terms {
                color: ColorChoice::Black,
                ruleset: Ruleset::Material,
                ..Terms::default()
            },
        )
        .await
        .unwrap();
    now.advance(Duration::from_secs(599));
    let r = svc.accept(ch, BLACK, Some(c.id)).await.unwrap();
    assert_eq!(
        (r.white, r.black, r.ruleset, r.event),
        (BLACK, WHITE, Ruleset::Material, Event::Started)
    );
    assert!(r.text(Locale::En, &mention).contains("<@1002> plays White"));
    // The channel is busy now.
    assert!(matches!(
        svc.challenge(ch, SPECTATOR, WHITE, false, Terms::default())
            .await,
        Err(ServiceError::ChannelBusy(_))
    ));
    // Random colours: both assignments happen.
    let mut seen = [false, false];
    for i in 0..40 {
        let ch = ChannelId(200 + i);
        let c = svc
            .challenge(ch, WHITE, BLACK, false, Terms::default())
            .await
            .unwrap();
        let r = svc.accept(ch, BLACK, Some(c.id)).await.unwrap();
        seen[usize::from(r.white == WHITE)] = true;
    }
    assert_eq!(seen, [true, true]);
}

#[tokio::test]
async fn history_pgn_and_analysis_link() {
    let env = Env::new().await;
    let ch = ChannelId(300);
    assert!(matches!(
        env.svc.board(ch).await,
        Err(ServiceError::NoGameHere)
    ));
    assert!(matches!(
        env.svc.pgn(ch, None, &testkit::service::mention).await,
        Err(ServiceError::NoGameHere)
    ));
    start(&env.svc, ch, Ruleset::Standard).await;
    for (i, mv) in ["e4", "e5", "ม-ง๒", "Nd7", "c3c4"].iter().enumerate() {
        env.svc
            .play(ch, if i & 1 == 0 { WHITE } else { BLACK }, mv)
            .await
            .unwrap();
    }
    let first = env.svc.resign(ch, BLACK).await.unwrap().game_id;
    start(&env.svc, ch, Ruleset::FiftyMove).await;
    env.svc.play(ch, WHITE, "a4").await.unwrap();
    let second = env.svc.abort(ch, BLACK).await.unwrap().game_id;
    let history = env.svc.recent_games(ch, 10).await.unwrap();
    assert_eq!(
        history.iter().map(|g| g.id).collect::<Vec<_>>(),
        vec![second, first]
    );
    assert_eq!(history[1].plies, 5);
    assert_eq!(history[1].result, GameResult::WhiteWins);
    assert_eq!(env.svc.recent_games(ch, 1).await.unwrap().len(), 1);
    assert!(env
        .svc
        .recent_games(ChannelId(301), 10)
        .await
        .unwrap()
        .is_empty());

    let export = env
        .svc
        .pgn(ch, Some(first), &testkit::service::mention)
        .await
        .unwrap();
    let read = makruk::pgn::read_pgn(&export.pgn).expect("our PGN reads back");
    assert_eq!(read.tag("Variant"), Some("Makruk"));
    assert_eq!(read.tag("Result"), Some("1-0"));
    assert_eq!(read.moves, ["e4", "e5", "Nd2", "Nd7", "c4"]);
    // The default clock (3 days a move) and how the game ended, in the PGN standard's words.
    assert_eq!(read.tag("TimeControl"), Some("1/259200"));
    assert_eq!(read.tag("Termination"), Some("normal"));
    let aborted = env
        .svc
        .pgn(ch, Some(second), &testkit::service::mention)
        .await
        .unwrap();
    let aborted = makruk::pgn::read_pgn(&aborted.pgn).unwrap();
    assert_eq!(aborted.tag("Termination"), Some("abandoned"));
    assert!(export
        .analysis_url
        .starts_with("https://www.pychess.org/analysis/makruk?fen="));
    assert!(!export.analysis_url.contains(' '));
    assert!(matches!(
        env.svc
            .pgn(ChannelId(301), Some(first), &testkit::service::mention)
            .await,
        Err(ServiceError::GameNotFound)
    ));
    // The last game is shown when none is active.
    assert_eq!(env.svc.board(ch).await.unwrap().game_id, second);
}

#[tokio::test]
async fn autocomplete_lists_legal_moves_for_the_player_to_move() {
    let env = Env::new().await;
    let ch = ChannelId(400);
    start(&env.svc, ch, Ruleset::Standard).await;
    let all = env.svc.legal_moves_san(ch, WHITE, "").await;
    assert_eq!(all.len(), 23, "{all:?}"); // 23 legal moves in the start position
    let n = env.svc.legal_moves_san(ch, WHITE, "n").await;
    assert_eq!(n, ["Nd2", "Ne2"]);
    assert!(n.iter().all(|m| m.starts_with('N')));
    assert_eq!(
        env.svc.legal_moves_san(ch, WHITE, "e3").await,
        ["e4"],
        "UCI prefix"
    );
    let thai = env.svc.legal_moves_san(ch, WHITE, "ม").await;
    assert_eq!(thai.len(), 4, "{thai:?}"); // Ma to d2 / e2, Met to d2 / f2 (ม, ม็)
    assert!(thai.contains(&"ม-ง๒".to_string()), "{thai:?}");
    // Each suggestion in both notations: the adapter shows Thai players both.
    assert_eq!(
        env.svc.legal_move_choices(ch, WHITE, "ม-ง").await,
        [MoveChoice {
            san: "Nd2".into(),
            thai: "ม-ง๒".into()
        }]
    );
    assert_eq!(
        env.svc.legal_move_choices(ch, WHITE, "Nd").await,
        env.svc.legal_move_choices(ch, WHITE, "ม-ง").await,
        "SAN and Thai prefixes find the same move"
    );
    assert!(env.svc.legal_moves_san(ch, BLACK, "").await.is_empty());
    assert!(env.svc.legal_moves_san(ch, SPECTATOR, "").await.is_empty());
    assert!(env
        .svc
        .legal_moves_san(ChannelId(401), WHITE, "")
        .await
        .is_empty());
}

#[test]
fn rules_texts_exist_for_every_ruleset_topic_and_language() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let env = rt.block_on(Env::new());
    for ruleset in Ruleset::ALL {
        for topic in RulesTopic::ALL {
            for locale in Locale::ALL {
                let text = env
                    .svc
                    .rules_text(makruk::Variant::Makruk, ruleset, topic, locale);
                assert!(text.len() > 80, "{ruleset} {topic:?} {locale:?}: {text}");
                assert!(!text.contains("rules-"), "{text}");
            }
        }
        let counting = env.svc.rules_text(
            makruk::Variant::Makruk,
            ruleset,
            RulesTopic::Counting,
            Locale::En,
        );
        assert!(
            counting.contains(&format!("({})", ruleset.name())),
            "{counting}"
        );
    }
}

/// UCI moves from `fen`: `plies` plies that neither capture, nor move a Bia, nor give check,
/// nor reach a position seen before (so no other draw rule can end the game first).
fn quiet_walk(fen: &str, ruleset: Ruleset, plies: usize) -> Vec<String> {
    let start = makruk::Position::from_fen(fen, ruleset).expect("FEN");
    let mut seen = std::collections::HashSet::from([start.zobrist()]);
    let mut pos = start;
    let mut out = Vec::new();
    for ply in 0..plies {
        let mv = pos
            .legal_moves()
            .into_iter()
            .find(|m| {
                let next = pos.after(m);
                m.capture.is_none()
                    && m.role != makruk::Role::Bia
                    && !next.is_check()
                    && !seen.contains(&next.zobrist())
            })
            .unwrap_or_else(|| panic!("no quiet move at ply {ply}"));
        pos = pos.after(&mv);
        seen.insert(pos.zobrist());
        out.push(makruk::uci::to_uci(&mv));
    }
    out
}

#[tokio::test]
async fn no_progress_counter_warns_from_ply_80_and_draws_at_100() {
    let env = Env::new().await;
    // fifty-move: no counting at all; material: the rule applies while Bia remain (two
    // blocked Bia here, so no count starts either). RULES.md: warn from ply 80, draw at 100.
    for (n, (ruleset, fen)) in [
        (Ruleset::FiftyMove, "r3k3/8/8/8/8/8/8/R3K3 w - - 0 1"),
        (Ruleset::Material, "r3k3/8/8/p7/P7/8/8/R3K3 w - - 0 1"),
    ]
    .into_iter()
    .enumerate()
    {
        let ch = ChannelId(600 + n as u64);
        start_from_fen(&env.svc, ch, fen, ruleset).await;
        let walk = quiet_walk(fen, ruleset, 100);
        for (i, mv) in walk.iter().enumerate() {
            let who = if i & 1 == 0 { WHITE } else { BLACK };
            let r = env.svc.play(ch, who, mv).await.unwrap();
            let plies = i as u32 + 1;
            assert!(r.status.count.is_none(), "{ruleset}: no count runs");
            let warned = r
                .status
                .warnings
                .contains(&Warning::NoProgress { plies, limit: 100 });
            if plies < 100 {
                assert_eq!(r.status.end, None, "{ruleset} ply {plies}");
                assert_eq!(warned, plies >= 80, "{ruleset} ply {plies}");
                if warned {
                    let text = r.text(Locale::En, &mention);
                    assert!(
                        text.contains(&format!("{plies} plies without a capture")),
                        "{text}"
                    );
                }
            } else {
                let end = r.status.end.expect("drawn at 100 plies");
                assert_eq!(
                    (end.result, end.reason),
                    (GameResult::Draw, EndReason::FiftyMove)
                );
            }
        }
    }
}

#[tokio::test]
async fn traditional_mate_by_the_counting_side_is_a_draw() {
    let env = Env::new().await;
    // White: Khun g6, Ruea a1; Black: Khun h8, Met d4. Ra8 is mate.
    let fen = "7k/8/6K1/8/3m4/8/8/R7 w - - 0 1";
    let plain = ChannelId(700);
    start_from_fen(&env.svc, plain, fen, Ruleset::Traditional).await;
    let r = env.svc.play(plain, WHITE, "Ra8").await.unwrap();
    let end = r.status.end.expect("mate");
    assert_eq!(
        (end.result, end.reason),
        (GameResult::WhiteWins, EndReason::Checkmate)
    );
    // RULES.md (traditional, the Wikipedia seed): mating while counting board's honour draws.
    let counting = ChannelId(701);
    start_from_fen(&env.svc, counting, fen, Ruleset::Traditional).await;
    let started = env.svc.count_start(counting, WHITE).await.unwrap();
    assert!(started
        .text(Locale::En, &mention)
        .contains("starts counting board's honour"));
    let r = env.svc.play(counting, WHITE, "Ra8").await.unwrap();
    let end = r.status.end.expect("game over");
    assert_eq!(
        (end.result, end.reason),
        (GameResult::Draw, EndReason::CountingSideMated)
    );
    assert!(
        r.text(Locale::En, &mention).contains("that is a draw"),
        "{}",
        r.text(Locale::En, &mention)
    );
}

#[tokio::test]
async fn stalemate_and_khun_against_khun() {
    let env = Env::new().await;
    // Rh7 leaves the black Khun on a8 without a move and not in check.
    let ch = ChannelId(800);
    start_from_fen(
        &env.svc,
        ch,
        "k1K5/8/8/8/8/8/8/7R w - - 0 1",
        Ruleset::Standard,
    )
    .await;
    let r = env.svc.play(ch, WHITE, "Rh7").await.unwrap();
    let end = r.status.end.expect("stalemate");
    assert_eq!(
        (end.result, end.reason),
        (GameResult::Draw, EndReason::Stalemate)
    );
    assert!(r.text(Locale::En, &mention).contains("Stalemate"));
    // Kxb7 takes the last piece: only the two Khun are left.
    let ch = ChannelId(801);
    start_from_fen(
        &env.svc,
        ch,
        "k7/1R6/8/8/8/8/8/7K b - - 0 1",
        Ruleset::Standard,
    )
    .await;
    let r = env.svc.play(ch, BLACK, "Kxb7").await.unwrap();
    let end = r.status.end.expect("Khun against Khun");
    assert_eq!(
        (end.result, end.reason),
        (GameResult::Draw, EndReason::KhunVsKhun)
    );
}

/// A Thai message shows the move in Thai notation, SAN beside it (Thai players write ม-ง๒); an
/// English one shows SAN only.
#[tokio::test]
async fn thai_messages_show_the_move_in_thai_notation() {
    let env = Env::new().await;
    let ch = ChannelId(7);
    start(&env.svc, ch, Ruleset::Standard).await;
    let r = env.svc.play(ch, WHITE, "Nd2").await.unwrap();
    assert_eq!(r.san.as_deref(), Some("Nd2"));
    assert_eq!(r.thai_san.as_deref(), Some("ม-ง๒"));
    let th = r.text(Locale::Th, &mention);
    assert!(th.contains("**ม-ง๒** (Nd2)"), "{th}");
    let en = r.text(Locale::En, &mention);
    assert!(en.contains("**Nd2**") && !en.contains("ม-ง๒"), "{en}");
    // A request that plays no move has neither.
    let shown = env.svc.board(ch).await.unwrap();
    assert_eq!((shown.san, shown.thai_san), (None, None));
}
