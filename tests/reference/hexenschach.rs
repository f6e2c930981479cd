//! Reference rules of `hexenschach` (not written yet).

use super::Options;

/// Perft split by root move; see `super::divide`.
pub fn divide(_position: &str, _options: &Options, _depth: u32) -> Result<Vec<(String, u64)>, String> {
    Err("reference: hexenschach is not written yet".into())
}
