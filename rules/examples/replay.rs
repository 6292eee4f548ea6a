//! `cargo run --release -p makruk --example replay -- <file.pgn> [--rules <ruleset>]`
//!
//! Replays every game of a PGN file (pychess export or PlayOK record; SAN, PlayOK dialect, Thai
//! SAN or UCI moves) under a ruleset (default `standard`) and prints, per game: the number of
//! plies, the final FEN, the outcome by the rules at the end with its reason, and where the
//! rules first ended the game if the record goes on after that (a record is always played to
//! its last move). If a move cannot be read, prints it with its move number and the reason, and
//! exits with status 1.

use std::process::ExitCode;

use makruk::pgn::{self, outcome_reason, result_string, PgnError};
use makruk::{Outcome, Ruleset};

fn describe(outcome: Option<Outcome>) -> String {
    match outcome {
        None => "* (not over by the rules)".to_string(),
        Some(o) => format!("{} {}", result_string(Some(o)), outcome_reason(o)),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut file = None;
    let mut ruleset = Ruleset::default();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--rules" {
            let Some(name) = args.get(i + 1) else {
                eprintln!(
                    "--rules needs a ruleset name (standard, traditional, material, fifty-move)"
                );
                return ExitCode::from(2);
            };
            match name.parse::<Ruleset>() {
                Ok(r) => ruleset = r,
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::from(2);
                }
            }
            i += 2;
        } else if file.is_none() {
            file = Some(args[i].clone());
            i += 1;
        } else {
            eprintln!("usage: replay <file.pgn> [--rules <ruleset>]");
            return ExitCode::from(2);
        }
    }
    let Some(file) = file else {
        eprintln!("usage: replay <file.pgn> [--rules <ruleset>]");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(&file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {file}: {e}");
            return ExitCode::from(2);
        }
    };
    let games = match pgn::read_pgns(&text) {
        Ok(g) if !g.is_empty() => g,
        Ok(_) => {
            eprintln!("{file}: {}", PgnError::NoGame);
            return ExitCode::from(1);
        }
        Err(e) => {
            eprintln!("{file}: {e}");
            return ExitCode::from(1);
        }
    };
    let mut failed = false;
    for (n, record) in games.iter().enumerate() {
        if games.len() > 1 {
            println!("game {}", n + 1);
        }
        match record.replay(ruleset) {
            Ok(replay) => {
                let game = &replay.game;
                println!("plies: {}", game.moves().len());
                println!("final FEN: {}", game.position().fen());
                println!("outcome: {}", describe(game.outcome()));
                if let Some((ply, first)) = replay.first_end {
                    if ply < game.moves().len() {
                        println!(
                            "rules ended the game at ply {ply}: {}; the record plays on",
                            describe(Some(first))
                        );
                    }
                }
                if let Some(r) = &record.result {
                    println!("record result: {r}");
                }
            }
            Err(e) => {
                println!("cannot replay: {e}");
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
