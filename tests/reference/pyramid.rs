//! Reference rules of `pyramid` and `pyramid-ep` (not written yet).

use super::Options;

/// Perft split by root move; see `super::divide`.
pub fn divide(
    _position: &str,
    _options: &Options,
    _depth: u32,
    _en_passant: bool,
) -> Result<Vec<(String, u64)>, String> {
    Err("reference: pyramid is not written yet".into())
}
