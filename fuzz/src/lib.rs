//! What the fuzz targets check, shared with the test suite.

#[path = "../../tests/data/playable.rs"]
mod playable;

pub use playable::check_position;
