//! Reading the reference data of `tests/data/` (README.md there), whose large JSONL files are
//! stored gzipped.

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};

/// The path of `name` in `rules/tests/data/` (e.g. `games-public.jsonl.gz`).
#[must_use]
pub fn path(name: &str) -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data")).join(name)
}

/// The text of the file at `path`, gunzipped when its name ends in `.gz` (one gzip member or
/// several in a row, so a file may be extended by appending a gzipped part).
///
/// # Errors
/// The file cannot be read, is not valid gzip (for `.gz`), or is not UTF-8.
pub fn read_text(path: &Path) -> io::Result<String> {
    let file = BufReader::new(File::open(path)?);
    let mut reader: Box<dyn Read> = if path.extension().is_some_and(|e| e == "gz") {
        Box::new(flate2::bufread::MultiGzDecoder::new(file))
    } else {
        Box::new(file)
    };
    let mut text = String::new();
    reader.read_to_string(&mut text)?;
    Ok(text)
}
