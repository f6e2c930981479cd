//! Triskel: a game engine for chess variants of three players and of 3-D boards.

pub mod bench;
pub mod bitboard;
pub mod datagen;
pub mod display;
pub mod geometry;
pub mod gui;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod number;
pub mod perft;
pub mod pipes;
pub mod position;
pub mod protocol;
pub mod render;
pub mod rules;
pub mod search;
pub mod tournament;
pub mod types;
pub mod variants;
