//! Fuzz target: `volley::harness::save`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| volley::harness::save(data));
