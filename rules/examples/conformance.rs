//! `cargo run --release -p makruk --example conformance -- <file.jsonl[.gz]>`
//!
//! Checks every game of a conformance file (`games-*.jsonl`, or the traditional format,
//! recognised by its `events`; gzipped when its name ends in `.gz`, as in `tests/data/`)
//! against the rules crate. Prints one line per mismatch (game id, ply, field, expected, got)
//! and ends with `N passed, M failed` (games).

use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: conformance <file.jsonl[.gz]>");
        return ExitCode::from(2);
    };
    let text = match makruk_conformance::data::read_text(std::path::Path::new(&path)) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let r = makruk_conformance::check::check_text(&text);
    for m in &r.mismatches {
        println!("{m}");
    }
    println!("{} passed, {} failed", r.passed, r.failed);
    if r.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
