//! The Dutch system against py4swiss 0.3.1: each `tests/data/swiss/tNN-rMM.trf` holds an event
//! after some rounds, and `tNN-rMM.pairings` the next round as py4swiss paired it (bbpPairings'
//! output format). Every case must match exactly; the failures are listed with a diff.

use std::fs;
use std::path::Path;

use makruk_tournament::dutch::pair_next_round;
use makruk_tournament::trf::{parse_pairings, write_pairings, Tournament};

fn cases() -> Vec<(String, String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/swiss");
    let mut names: Vec<String> = fs::read_dir(&dir)
        .expect("test data directory")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".trf").map(str::to_string))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| {
            let trf = fs::read_to_string(dir.join(format!("{n}.trf"))).expect("trf");
            let expected = fs::read_to_string(dir.join(format!("{n}.pairings"))).expect("pairings");
            (n, trf, expected)
        })
        .collect()
}

#[test]
fn dutch_matches_py4swiss() {
    let cases = cases();
    assert_eq!(cases.len(), 65, "the 65 reference cases");
    let mut failures = Vec::new();
    for (name, trf, expected) in &cases {
        let t = Tournament::parse(trf).unwrap_or_else(|e| panic!("{name}: {e}"));
        let expected = parse_pairings(expected).unwrap_or_else(|e| panic!("{name}.pairings: {e}"));
        let got = match pair_next_round(&t) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{name}: error {e}"));
                continue;
            }
        };
        if got != expected {
            let (g, x) = (write_pairings(&got), write_pairings(&expected));
            let mut diff = format!("{name}: differs (line: expected | got)\n");
            for (i, (a, b)) in x.lines().zip(g.lines()).enumerate() {
                let mark = if a == b { ' ' } else { '*' };
                diff.push_str(&format!("  {mark} {i:2}: {a:>9} | {b}\n"));
            }
            failures.push(diff);
        }
    }
    let passed = cases.len() - failures.len();
    println!(
        "Dutch conformance: {passed}/{} cases match py4swiss",
        cases.len()
    );
    for f in &failures {
        println!("{f}");
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from py4swiss",
        failures.len(),
        cases.len()
    );
}

#[test]
fn trf_round_trip_on_the_test_data() {
    for (name, trf, _) in cases() {
        let t = Tournament::parse(&trf).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(t.to_trf(), trf, "{name}: written back differently");
    }
}
