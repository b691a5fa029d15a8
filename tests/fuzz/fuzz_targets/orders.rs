//! Fuzz target: `volley::harness::orders`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| volley::harness::orders(data));
