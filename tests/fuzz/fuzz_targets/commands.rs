//! Fuzz target: `volley::harness::commands`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| volley::harness::commands(data));
