//! `makruk-bot pair --dutch <input.trf> -p <output.txt>` (issue 26): bbpPairings' interface,
//! checked on the vendored py4swiss cases (the whole set is checked against the library in
//! `tournament/tests/dutch_conformance.rs`), and its errors.

use std::path::Path;
use std::process::Command;

fn case(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tournament/tests/data/swiss")
        .join(name)
}

#[test]
fn pair_writes_the_next_round_in_bbppairings_format() {
    let dir = tempfile::tempdir().expect("temp dir");
    for name in ["t00-r03", "t02-r05", "t09-r01"] {
        let out = dir.path().join(format!("{name}.txt"));
        let status = Command::new(env!("CARGO_BIN_EXE_makruk-bot"))
            .args(["pair", "--dutch"])
            .arg(case(&format!("{name}.trf")))
            .arg("-p")
            .arg(&out)
            .status()
            .expect("runs");
        assert!(status.success(), "{name}");
        let written = std::fs::read_to_string(&out).expect("output written");
        let expected =
            std::fs::read_to_string(case(&format!("{name}.pairings"))).expect("expected pairing");
        assert_eq!(written.trim_end(), expected.trim_end(), "{name}");
    }
}

#[test]
fn pair_refuses_what_is_not_a_trf_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = dir.path().join("bad.trf");
    std::fs::write(&bad, "this is not a tournament\n").expect("write");
    for input in [bad.as_path(), Path::new("/no/such/file.trf")] {
        let out = Command::new(env!("CARGO_BIN_EXE_makruk-bot"))
            .args(["pair", "--dutch"])
            .arg(input)
            .output()
            .expect("runs");
        assert!(!out.status.success(), "{}", input.display());
        assert!(!String::from_utf8_lossy(&out.stderr).is_empty());
    }
}
