//! Fuzz target: [`makruk_fuzz_bodies::scenario`] (the body, shared with the regression test).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| makruk_fuzz_bodies::scenario(data));
