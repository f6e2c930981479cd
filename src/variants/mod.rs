//! The games of the rule book, one file each: its board, pieces, pawns,
//! castlings and start position as a description ([`Game`]), and its
//! special rules as the hooks of [`GameRules`].
//! This module is the registry that finds both by the game's id.

pub mod chess;
pub mod dreierschach;
pub mod hexenschach;
pub mod pyramid;
pub mod sections;
pub mod star;
pub mod trichess;

pub use crate::game::*;
use crate::position::fen::PositionError;
use crate::position::{AfterMate, GameRules, Position};
use std::sync::OnceLock;

impl Variant {
    /// Classical chess: the calibration game, and the game of a GUI that
    /// names none (UCI without `UCI_Variant`, PGN without a `Variant` tag).
    pub const CLASSICAL: Variant = Variant::Chess;

    /// The game's tables, built on first use (the engine builds them all
    /// at start-up: `search::eval::build_all_tables`) and shared afterwards.
    pub fn game(self) -> &'static Game {
        static GAMES: [OnceLock<Game>; Variant::COUNT] =
            [const { OnceLock::new() }; Variant::COUNT];
        GAMES[self.index()].get_or_init(|| match self {
            Variant::Chess => chess::build(),
            Variant::Dreierschach => dreierschach::build(),
            Variant::Hexenschach => hexenschach::build(),
            Variant::Pyramid => pyramid::build(EnPassantRule::None),
            Variant::PyramidEp => pyramid::build(EnPassantRule::NextMoveOnly),
            Variant::Trichess => trichess::build(),
            Variant::Star => star::build(),
        })
    }

    /// The evaluation weights `triskel tune` fitted for the game (the text
    /// of `weights/<game>.txt`, see `search::weights`), if it has them.
    pub fn tuned_weights(self) -> Option<&'static str> {
        match self {
            Variant::Chess => Some(include_str!("../../weights/chess.txt")),
            _ => None,
        }
    }

    /// The game's rules where they are procedure (its hooks).
    pub fn rules(self) -> &'static dyn GameRules {
        match self {
            Variant::Chess => &chess::Rules,
            Variant::Dreierschach => &dreierschach::Rules,
            Variant::Hexenschach => &hexenschach::Rules,
            Variant::Pyramid | Variant::PyramidEp => &pyramid::Rules,
            Variant::Trichess => &trichess::Rules,
            Variant::Star => &star::Rules,
        }
    }
}

impl Position {
    /// An empty board of `variant`, `to_move` player 0, nothing else set.
    pub fn empty(variant: Variant) -> Position {
        Position::empty_of(variant.game(), variant.rules())
    }

    /// The start position of `variant`.
    pub fn start(variant: Variant) -> Position {
        Position::from_fen(variant, &variant.game().start)
            .expect("every game's start position is well-formed")
    }

    /// Reads a position of `variant` in the position format (or, for chess,
    /// standard FEN). The position is settled: automatic events due for the
    /// player to move (e.g. Hexenschach's elimination without a move) are applied.
    pub fn from_fen(variant: Variant, text: &str) -> Result<Position, PositionError> {
        Self::from_fen_with(variant, text, AfterMate::default())
    }

    /// As [`Position::from_fen`], with Trichess's `AfterMate` rule.
    pub fn from_fen_with(
        variant: Variant,
        text: &str,
        after_mate: AfterMate,
    ) -> Result<Position, PositionError> {
        Position::read_fen(variant.game(), variant.rules(), text, after_mate)?.settle_read()
    }
}
