//! The fuzz targets' bodies (the crate `makruk-fuzz-bodies`, `fuzz/bodies/`) on stable, over every
//! input kept in `fuzz/seeds/<target>/` (hand-written starting points) and
//! `fuzz/regressions/<target>/` (inputs that once failed, kept once fixed): a finding of the
//! fuzzer stays fixed in the ordinary `cargo test`, and the fuzzer and this test cannot check
//! different things.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use makruk_fuzz_bodies as targets;

/// Runs `body` on every file of the target's seed and regression folders; fails naming each
/// file whose input panics.
fn run(target: &str, body: fn(&[u8])) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut files = Vec::new();
    for kind in ["seeds", "regressions"] {
        let dir = root.join(kind).join(target);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("a folder entry").path();
            if path.is_file() && path.file_name().is_some_and(|n| n != ".gitkeep") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(!files.is_empty(), "no input for the {target} target");
    let failed: Vec<String> = files
        .iter()
        .filter(|path| {
            let data = std::fs::read(path).expect("an input file");
            catch_unwind(AssertUnwindSafe(|| body(&data))).is_err()
        })
        .map(|path| path.display().to_string())
        .collect();
    assert!(
        failed.is_empty(),
        "{target}: these inputs fail: {failed:#?}"
    );
}

#[test]
fn fen_inputs() {
    run("fen", targets::fen);
}

#[test]
fn move_text_inputs() {
    run("move_text", targets::move_text);
}

#[test]
fn pgn_inputs() {
    run("pgn", targets::pgn);
}

#[test]
fn scenario_inputs() {
    run("scenario", targets::scenario);
}

#[test]
fn service_inputs() {
    run("service", targets::service);
}
