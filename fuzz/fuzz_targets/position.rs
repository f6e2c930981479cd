//! Position strings of every game: whatever the reader accepts must be a
//! position the engine can play, by the checks of `tests/data/playable.rs`
//! (reads back to itself, moves taken back exactly, keys as read afresh,
//! perft and a shallow search that picks a legal move), without a panic.
//! The first byte picks the game and, for Trichess, the rule after a mate.
//!
//!     mkdir -p fuzz/corpus/position
//!     cargo +nightly fuzz run position fuzz/corpus/position fuzz/seeds/position

#![no_main]

use libfuzzer_sys::fuzz_target;
use triskel::position::AfterMate;
use triskel::variants::Variant;
use triskel_fuzz::check_position;

const RULE_MODES: [AfterMate; 3] = [AfterMate::End, AfterMate::Obstacles, AfterMate::Inherit];

fuzz_target!(|data: &[u8]| {
    let Some((&choice, text)) = data.split_first() else {
        return;
    };
    let variant = Variant::ALL[usize::from(choice) % Variant::ALL.len()];
    let after_mate = RULE_MODES[usize::from(choice) / Variant::ALL.len() % RULE_MODES.len()];
    if let Ok(text) = std::str::from_utf8(text)
        && let Err(defect) = check_position(variant, after_mate, text)
    {
        panic!("{defect}");
    }
});
