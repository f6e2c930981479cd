//! Boards of three 8×4 sections (not built yet).
