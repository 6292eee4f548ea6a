//! Fuzz target: [`makruk_fuzz_bodies::move_text`] (the body, shared with the regression test).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| makruk_fuzz_bodies::move_text(data));
