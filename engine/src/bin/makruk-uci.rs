//! `makruk-uci`: the Makruk engine as a UCI engine on standard input and output.

use std::sync::{Arc, Mutex};

fn main() {
    let stdin = std::io::stdin();
    makruk_engine::uci::run(stdin.lock(), Arc::new(Mutex::new(std::io::stdout())));
}
