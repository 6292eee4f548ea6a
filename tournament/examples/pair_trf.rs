//! Pair the next round of a TRF16 file by the Dutch system and print it in bbpPairings'
//! format: `cargo run -p makruk-tournament --example pair_trf -- event.trf`.

use std::process::ExitCode;

use makruk_tournament::dutch::pair_next_round;
use makruk_tournament::trf::{write_pairings, Tournament};

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: pair_trf FILE.trf");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let result = Tournament::parse(&text)
        .map_err(|e| e.to_string())
        .and_then(|t| pair_next_round(&t).map_err(|e| e.to_string()));
    match result {
        Ok(pairs) => {
            print!("{}", write_pairings(&pairs));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{path}: {e}");
            ExitCode::FAILURE
        }
    }
}
