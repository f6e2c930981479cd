//! Position strings near valid ones: the positions of the perft suites,
//! edited at random (seeded, so that failures reproduce). The reader must
//! refuse each with an error or accept a position the engine can play
//! (`data/playable.rs`); a panic anywhere fails the test. The fuzz target
//! `position` (`fuzz/`) explores the same property without end.

#[path = "data/playable.rs"]
mod playable;
// Only the suites' positions are used here, not their counts.
#[allow(dead_code)]
#[path = "data/suites.rs"]
mod suites;

use triskel::position::AfterMate;
use triskel::tournament::player::SeededRng;
use triskel::variants::Variant;

/// Edited position strings per game.
const CASES_PER_GAME: usize = 4000;

/// Characters an insertion or replacement draws from: those of position
/// strings, and a few that never belong there.
const ALPHABET: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ/- |:,.+";

/// Piece kinds and player letters of the position strings.
const KINDS: &[u8] = b"PNBRQK";
const PLAYER_LETTERS: &[u8] = b"wnbgr";

/// Fields a position string's rights, en passant cells and counters may hold.
const FIELD_TEXTS: [&str; 9] = ["-", "w", "n", "b", "KQ", "0", "99", "e3", "wK"];

/// `text` with one to three edits: half the time edits that keep its shape
/// (pieces changed or swapped on the board, a field's text inserted), else
/// edits of characters anywhere (removed, inserted, replaced, swapped,
/// runs copied or removed, a number inserted).
fn edited(text: &str, rng: &mut SeededRng) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let board_end = text.find(' ').unwrap_or(text.len());
    let letters: Vec<usize> = (0..board_end)
        .filter(|&i| bytes[i].is_ascii_alphabetic())
        .collect();
    let spaces: Vec<usize> = (0..bytes.len()).filter(|&i| bytes[i] == b' ').collect();
    let keep_shape = rng.below(2) == 0 && !letters.is_empty();
    for _ in 0..1 + rng.below(3) {
        if keep_shape {
            let i = letters[rng.below(letters.len())];
            match rng.below(3) {
                0 => bytes.swap(i, letters[rng.below(letters.len())]),
                1 if bytes[i].is_ascii_uppercase() => bytes[i] = KINDS[rng.below(KINDS.len())],
                1 => bytes[i] = PLAYER_LETTERS[rng.below(PLAYER_LETTERS.len())],
                _ if !spaces.is_empty() => {
                    let at = spaces[rng.below(spaces.len())] + 1;
                    let field = FIELD_TEXTS[rng.below(FIELD_TEXTS.len())];
                    bytes.splice(at..at, field.bytes());
                }
                _ => {}
            }
            continue;
        }
        if bytes.is_empty() {
            bytes.push(ALPHABET[rng.below(ALPHABET.len())]);
            continue;
        }
        let i = rng.below(bytes.len());
        match rng.below(7) {
            0 => {
                bytes.remove(i);
            }
            1 => bytes.insert(i, ALPHABET[rng.below(ALPHABET.len())]),
            2 => bytes[i] = ALPHABET[rng.below(ALPHABET.len())],
            3 => {
                let j = rng.below(bytes.len());
                bytes.swap(i, j);
            }
            4 => {
                let run = bytes[i..(i + 1 + rng.below(8)).min(bytes.len())].to_vec();
                let at = rng.below(bytes.len());
                bytes.splice(at..at, run);
            }
            5 => {
                let end = (i + 1 + rng.below(6)).min(bytes.len());
                bytes.drain(i..end);
            }
            _ => {
                let number = rng.below(4000).to_string();
                bytes.splice(i..i, number.bytes());
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

#[test]
fn edited_positions_are_refused_or_playable() {
    for variant in Variant::ALL {
        let mut originals = vec![variant.game().start.clone()];
        for check in suites::read() {
            if check.game == variant.id()
                && check.position != "startpos"
                && !originals.contains(&check.position)
            {
                originals.push(check.position);
            }
        }
        let modes: &[AfterMate] = if variant == Variant::Trichess {
            &[AfterMate::End, AfterMate::Obstacles, AfterMate::Inherit]
        } else {
            &[AfterMate::End]
        };
        let mut rng = SeededRng::new(variant as u64 + 1);
        let mut accepted = 0;
        for case in 0..CASES_PER_GAME {
            let original = &originals[rng.below(originals.len())];
            let text = edited(original, &mut rng);
            let after_mate = modes[case % modes.len()];
            match playable::check_position(variant, after_mate, &text) {
                Ok(true) => accepted += 1,
                Ok(false) => {}
                Err(defect) => panic!("{defect}\n(edited from {original}: {text})"),
            }
        }
        // Both answers must occur, or the edits test nothing.
        assert!(
            accepted > CASES_PER_GAME / 100 && accepted < CASES_PER_GAME / 2,
            "{variant}: {accepted} of {CASES_PER_GAME} edited positions accepted"
        );
    }
}

/// Where the fuzz target `position` keeps its seed inputs.
const POSITION_SEEDS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/seeds/position");

/// Every seed of the fuzz target `position` (among them the inputs of the
/// crashes it found) passes the target's own check: the first byte picks
/// the game and the rule after a mate, the rest is the position string.
#[test]
fn the_position_fuzz_seeds_are_refused_or_playable() {
    const RULE_MODES: [AfterMate; 3] = [AfterMate::End, AfterMate::Obstacles, AfterMate::Inherit];
    let mut seeds: Vec<_> = std::fs::read_dir(POSITION_SEEDS)
        .expect("the seeds' folder")
        .map(|entry| entry.expect("a seed").path())
        .collect();
    seeds.sort();
    assert!(seeds.len() > 50, "only {} seeds", seeds.len());
    for path in seeds {
        let data = std::fs::read(&path).expect("a readable seed");
        let Some((&choice, text)) = data.split_first() else {
            continue;
        };
        let variant = Variant::ALL[usize::from(choice) % Variant::ALL.len()];
        let after_mate = RULE_MODES[usize::from(choice) / Variant::ALL.len() % RULE_MODES.len()];
        let text = std::str::from_utf8(text).expect("a UTF-8 seed");
        if let Err(defect) = playable::check_position(variant, after_mate, text) {
            panic!("{}: {defect}", path.display());
        }
    }
}
