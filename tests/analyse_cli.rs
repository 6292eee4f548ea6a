//! `makruk-bot analyse --json` (issue 23): the JSON shape, the judgement of a real blunder,
//! records in different notations, and errors for bad records.

use makruk::Ruleset;
use makruk_bot::analysis::cli::analyse_pgn;

/// White's Ruea on d1 can take Black's undefended Ruea on d4; Kf2 instead leaves White's own
/// Ruea hanging.
const HANGING: &str = "[FEN \"4k3/8/8/8/3r4/8/8/3RK3 w - - 0 1\"]\n\n";

#[test]
fn a_thrown_away_ruea_is_a_blunder_with_the_capture_as_best() {
    let out = analyse_pgn(&format!("{HANGING}1. Kf2 *"), Ruleset::Standard, 20_000).unwrap();
    assert_eq!(out.plies.len(), 1);
    let p = &out.plies[0];
    assert_eq!(
        (p.ply, p.mover, p.san.as_str(), p.uci.as_str()),
        (1, "white", "Kf2", "e1f2")
    );
    assert_eq!(p.best.as_deref(), Some("d1d4"));
    assert_eq!(p.best_san.as_deref(), Some("Rxd4"));
    assert_eq!(p.judgement, Some("blunder"));
    // After Kf2 Black wins a Ruea: the eval (White's view) is clearly for Black.
    assert!(p.eval.cp.is_some_and(|cp| cp < -300) || p.eval.mate.is_some_and(|m| m < 0));
    assert_eq!(out.counts.white.blunders, 1);
    assert!(out.accuracy.white.is_some_and(|a| a < 20.0));
    assert_eq!(out.accuracy.black, None, "Black made no move");
    assert_eq!(out.acpl.black, None);

    let good = analyse_pgn(&format!("{HANGING}1. Rxd4 *"), Ruleset::Standard, 20_000).unwrap();
    assert_eq!(good.plies[0].judgement, None);
    assert!(good.plies[0].eval.cp.is_some_and(|cp| cp > 300) || good.plies[0].eval.mate.is_some());
}

#[test]
fn san_uci_and_thai_records_of_one_game_give_one_analysis() {
    let san = analyse_pgn("1. c4 f5 2. Nc3 *", Ruleset::Standard, 5_000).unwrap();
    let uci = analyse_pgn("1. c3c4 f6f5 2. b1c3 *", Ruleset::Standard, 5_000).unwrap();
    let text = |o: &makruk_bot::analysis::cli::AnalysisJson| serde_json::to_string(o).unwrap();
    assert_eq!(text(&san), text(&uci));
    // The same moves written in Thai SAN by the rules crate.
    let mut pos = makruk::Position::start(Ruleset::Standard);
    let mut thai = String::new();
    for (i, u) in ["c3c4", "f6f5", "b1c3"].iter().enumerate() {
        let m = makruk::notation::parse_uci(&pos, u).unwrap();
        if i % 2 == 0 {
            thai.push_str(&format!("{}. ", i / 2 + 1));
        }
        thai.push_str(&makruk::san::to_thai_san(&pos, &m));
        thai.push(' ');
        pos.play(&m).unwrap();
    }
    assert!(!thai.is_ascii(), "{thai}");
    let thai = analyse_pgn(&format!("{thai}*"), Ruleset::Standard, 5_000).unwrap();
    assert_eq!(text(&san), text(&thai));
    let sans: Vec<_> = san.plies.iter().map(|p| p.san.as_str()).collect();
    assert_eq!(sans, ["c4", "f5", "Nc3"]);
    assert_eq!(
        san.plies.iter().map(|p| p.ply).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    assert_eq!(san.plies[1].mover, "black");
}

#[test]
fn the_json_has_the_documented_fields() {
    let out = analyse_pgn(&format!("{HANGING}1. Kf2 Rxd1 *"), Ruleset::Standard, 5_000).unwrap();
    let v: serde_json::Value = serde_json::to_value(&out).unwrap();
    for key in [
        "plies", "accuracy", "acpl", "counts", "ruleset", "nodes", "end",
    ] {
        assert!(v.get(key).is_some(), "missing {key}: {v}");
    }
    let ply = &v["plies"][1];
    assert_eq!(ply["ply"], 2);
    assert_eq!(ply["uci"], "d4d1");
    let eval = ply["eval"].as_object().unwrap();
    assert_eq!(
        eval.len(),
        1,
        "exactly one of cp, mate, checkmate: {eval:?}"
    );
    assert!(["cp", "mate", "checkmate"].contains(&eval.keys().next().unwrap().as_str()));
    assert_eq!(v["ruleset"], "standard");
    assert_eq!(v["nodes"], 5_000);
}

#[test]
fn bad_records_are_errors_that_name_the_move() {
    let err = analyse_pgn("1. c4 f5 2. Qz9 *", Ruleset::Standard, 1_000).unwrap_err();
    let text = format!("{err:#}");
    assert!(text.contains("move 2") && text.contains("Qz9"), "{text}");
    let err = analyse_pgn("[FEN \"not a fen\"]\n\n1. c4 *", Ruleset::Standard, 1_000).unwrap_err();
    assert!(format!("{err:#}").to_lowercase().contains("fen"), "{err:#}");
}

/// The eval graph of an analysis: a PNG of the announced size; the blunder's red mark is on it
/// exactly when a move was judged a blunder; the light (White's) area is larger when White is
/// winning.
#[test]
fn the_eval_graph_marks_the_blunder() {
    use makruk_bot::analysis::cli::{analyse_record, graph_points};
    use makruk_bot::render::evalgraph::{eval_graph_png, GRAPH_HEIGHT, GRAPH_WIDTH};
    let pixels = |pgn: &str| {
        let a = analyse_record(pgn, Ruleset::Standard, 20_000).unwrap();
        let (start, points) = graph_points(&a);
        let png = eval_graph_png(start, &points, &[]).expect("graph");
        let decoder = png::Decoder::new(std::io::Cursor::new(&png));
        let mut reader = decoder.read_info().expect("a PNG");
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).expect("frame");
        assert_eq!((info.width, info.height), (GRAPH_WIDTH, GRAPH_HEIGHT));
        let step = info.color_type.samples();
        buf[..info.buffer_size()]
            .chunks(step)
            .map(|p| [p[0], p[1], p[2]])
            .collect::<Vec<_>>()
    };
    let count = |px: &[[u8; 3]], rgb: [u8; 3]| px.iter().filter(|p| **p == rgb).count();
    let (red, light) = ([0xd1, 0x2b, 0x2b], [0xef, 0xe6, 0xd2]);
    let blunder = pixels(&format!("{HANGING}1. Kf2 *"));
    let good = pixels(&format!("{HANGING}1. Rxd4 *"));
    assert!(count(&blunder, red) > 10, "the blunder is marked");
    assert_eq!(count(&good, red), 0, "no blunder, no mark");
    assert!(count(&good, light) > count(&blunder, light), "White's area");
}
