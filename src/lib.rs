//! Triskel: a game engine for chess variants of three players and of 3-D boards.
