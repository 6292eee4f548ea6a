//! PGN reading and writing: pychess's export form, and write → read round trips over the
//! conformance games and the PlayOK records (tests/data/).

use makruk::pgn::{read_pgn, read_pgns, write_pgn, PgnTags};
use makruk::{parse_uci, Game, Position, Ruleset};
use serde_json::Value;

/// A game in the shape pychess exports it (tags, clock comments, result).
const PYCHESS_EXPORT: &str = r#"[Event "Casual game"]
[Site "https://www.pychess.org/Xy12abCd"]
[Date "2024.05.01"]
[Round "-"]
[White "Somchai"]
[Black "Anan"]
[Result "0-1"]
[TimeControl "300+3"]
[WhiteElo "1500"]
[BlackElo "1520"]
[Variant "Makruk"]
[FEN "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"]
[SetUp "1"]

1. e4 {[%clk 0:05:00]} e5 {[%clk 0:05:00]} 2. Nd2 Nd7 3. Sf2 Sf7 4. f4 exf4
5. gxf4 Se6 6. Rh2 Ne5 7. fxe5 Mc7 0-1
"#;

#[test]
fn reads_a_pychess_export() {
    let record = read_pgn(PYCHESS_EXPORT).expect("readable");
    assert_eq!(record.tag("Variant"), Some("Makruk"));
    assert_eq!(record.tag("SetUp"), Some("1"));
    assert_eq!(record.tag("White"), Some("Somchai"));
    assert_eq!(record.result.as_deref(), Some("0-1"));
    assert_eq!(record.moves.len(), 14);
    let replay = record.replay(Ruleset::Standard).expect("all moves legal");
    assert_eq!(replay.game.moves().len(), 14);
    assert_eq!(replay.first_end, None);
}

#[test]
fn playok_records_round_trip_through_pychess_form() {
    for n in [2, 4, 6, 8, 10, 12, 14, 16] {
        let name = format!("game-{n:02}.pgn");
        let text = std::fs::read_to_string(makruk_conformance::data::path("playok").join(&name))
            .expect("record");
        let record = read_pgn(&text).expect("readable");
        let game = record.replay(Ruleset::Traditional).expect("replays").game;
        let tags = PgnTags {
            site: "PlayOK".into(),
            white: record.tag("White").unwrap_or("?").into(),
            black: record.tag("Black").unwrap_or("?").into(),
            result: record.result.clone(),
            ..PgnTags::default()
        };
        let written = write_pgn(&game, &tags);
        assert!(
            written.lines().all(|l| l.chars().count() < 80),
            "{name}: long line"
        );
        let back = read_pgn(&written).expect("own output readable");
        assert_eq!(back.result, record.result, "{name}");
        assert_eq!(back.tag("Variant"), Some("Makruk"));
        let again = back
            .replay(Ruleset::Traditional)
            .expect("own output replays")
            .game;
        assert_eq!(again.moves(), game.moves(), "{name}");
        assert_eq!(again.position().fen(), game.position().fen(), "{name}");
    }
}

#[test]
fn conformance_games_round_trip() {
    let text = makruk_conformance::data::read_text(&makruk_conformance::data::path(
        "games-mates-public.jsonl.gz",
    ))
    .expect("data");
    let mut games = 0;
    let mut all = String::new();
    let mut expected_moves = Vec::new();
    for line in text.lines().take(60) {
        let v: Value = serde_json::from_str(line).expect("JSON");
        let start = Position::from_fen(v["start"].as_str().expect("start"), Ruleset::Standard)
            .expect("start FEN");
        let mut game = Game::from_position(start);
        for u in v["moves"].as_array().expect("moves") {
            let m = parse_uci(game.position(), u.as_str().expect("uci")).expect("legal");
            game.play_on(&m).expect("legal");
        }
        let written = write_pgn(&game, &PgnTags::default());
        let back = read_pgn(&written).expect("readable");
        assert_eq!(back.tag("FEN"), Some(game.start().fen().as_str()));
        let replayed = back.replay(Ruleset::Standard).expect("replays").game;
        assert_eq!(replayed.moves(), game.moves(), "{}", v["id"]);
        all.push_str(&written);
        all.push('\n');
        expected_moves.push(game.moves().to_vec());
        games += 1;
    }
    assert_eq!(games, 60);
    // The same games as one multi-game file.
    let records = read_pgns(&all).expect("readable");
    assert_eq!(records.len(), games);
    for (r, want) in records.iter().zip(&expected_moves) {
        let got = r.replay(Ruleset::Standard).expect("replays").game;
        assert_eq!(got.moves(), want.as_slice());
    }
}
