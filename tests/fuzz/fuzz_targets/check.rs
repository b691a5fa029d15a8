//! Fuzz target: any file `volley check` reads (scenario, lesson, save or orders), as
//! `volley::harness::file` sniffs and parses it.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| volley::harness::file(data));
