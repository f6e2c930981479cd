//! Triskel: a game engine for chess variants of three players and of 3-D boards.
//!
//! The crate is built in layers. A module uses only modules of its own
//! layer or of lower ones; `tests/layers.rs` reads this table and fails
//! when a module reaches up (test code aside).
//!
//! | layer | modules | what |
//! |---|---|---|
//! | 0 | `types`, `bitboard`, `number`, `moves` | cells, pieces and players; cell sets; numbers read from text; moves and the sinks moves are generated into |
//! | 1 | `geometry` | boards built from their coordinate rules into tables |
//! | 2 | `game` | a game's description: its tables, players, pawns, castlings, start, the facts of its rules as data, its hash keys, how games end |
//! | 3 | `position` | a position, make and unmake (which call the game's hooks, [`position::GameRules`]), the position format read and written |
//! | 4 | `movegen` | the one legal move generator and attack test |
//! | 5 | `rules`, `variants::*` | the common rules (legal moves in play, game ends, draws, points), and each game's file: its description and its hooks |
//! | 6 | `variants`, `notation`, `display` | the registry that finds a game's description and hooks by its id; moves and boards as text |
//! | 7 | `search`, `perft`, `bench`, `datagen`, `tune`, `protocol`, `tournament`, `render`, `gui`, `pipes`, `main` | what the engine does with positions |

pub mod bench;
pub mod bitboard;
pub mod datagen;
pub mod display;
pub mod game;
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
pub mod tune;
pub mod types;
pub mod variants;
