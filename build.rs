//! Embeds every `i18n/<lang>/*.ftl` file into the binary (see `src/i18n.rs`): dropping a new
//! `.ftl` file into a language folder is all it takes to add texts.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    // Read at run time: the build script binary may be shared by several checkouts.
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest_dir).join("i18n");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    if let Ok(langs) = std::fs::read_dir(&root) {
        for lang in langs.flatten() {
            let Ok(name) = lang.file_name().into_string() else {
                continue;
            };
            println!("cargo:rerun-if-changed={}", lang.path().display());
            let Ok(entries) = std::fs::read_dir(lang.path()) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.extension().is_some_and(|e| e == "ftl") {
                    println!("cargo:rerun-if-changed={}", path.display());
                    files.push((name.clone(), path));
                }
            }
        }
    }
    files.sort();
    let mut out =
        String::from("/// (language tag, file path, contents) of every embedded `.ftl` file.\n");
    out.push_str("pub static FTL_FILES: &[(&str, &str, &str)] = &[\n");
    for (lang, path) in &files {
        let p = path.display().to_string();
        let _ = writeln!(out, "    ({lang:?}, {p:?}, include_str!({p:?})),");
    }
    out.push_str("];\n");
    let dest =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("i18n_files.rs");
    std::fs::write(dest, out).expect("cannot write i18n_files.rs");
}
