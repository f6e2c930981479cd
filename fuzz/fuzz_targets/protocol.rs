//! Command lines as a GUI or a user might type them, each answered without
//! a panic. `go` and `bench` lines are only parsed (searching here would
//! make each run slow); every other command runs in full.
//!
//!     mkdir -p fuzz/corpus/protocol
//!     cargo +nightly fuzz run protocol fuzz/corpus/protocol fuzz/seeds/protocol

#![no_main]

use libfuzzer_sys::fuzz_target;
use triskel::bench::BenchConfig;
use triskel::protocol::go::parse_go;
use triskel::protocol::{Engine, Output};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut engine = Engine::new(Output::new(std::io::sink()));
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.split_first() {
            Some((&"go", args)) => {
                if let Some(position) = engine.position() {
                    let _ = parse_go(position, args);
                }
            }
            Some((&"bench", args)) => {
                let _ = BenchConfig::parse(args);
            }
            _ => {
                engine.handle(line);
            }
        }
    }
    engine.shutdown();
});
