//! How a game ends: why, and the points each player gets.

use super::Game;
use crate::types::MAX_PLAYERS;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// A player to move had no legal move and was in check.
    Checkmate,
    /// A player to move had no legal move and was not in check.
    Stalemate,
    /// The same position occurred for the third time.
    Repetition,
    /// The move-count rule (50 moves, 50 or 40 rounds).
    MoveRule,
    /// Too little material for a mate (bare kings).
    InsufficientMaterial,
    /// Trichess: a player's move left the next player's king attacked by the player to move.
    KingExposed,
    /// Hexenschach phase B: a Rabe was captured.
    RabeCaptured,
    /// Only one player is left.
    LastPlayer,
    /// Star: the points decided (nobody could move, repetition or 50 rounds).
    Points,
}

impl EndReason {
    /// The reason as one word for the protocol.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::Repetition => "repetition",
            EndReason::MoveRule => "moverule",
            EndReason::InsufficientMaterial => "material",
            EndReason::KingExposed => "kingexposed",
            EndReason::RabeCaptured => "rabecaptured",
            EndReason::LastPlayer => "lastplayer",
            EndReason::Points => "points",
        }
    }
}

/// The end of a game: why, and the points each player gets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// Why the game ended.
    pub reason: EndReason,
    /// Points per player, in turn order (unused players get 0).
    pub points: [f64; MAX_PLAYERS],
}

impl Outcome {
    /// The end as the protocol writes it after `gameover`: the reason and
    /// the points, `checkmate w 1 b 0`.
    pub fn summary(&self, game: &Game) -> String {
        format!("{} {}", self.reason.name(), self.points_text(game))
    }

    /// The points written for the protocol: `w 1 b 0`.
    pub fn points_text(&self, game: &Game) -> String {
        (0..game.players)
            .map(|p| format!("{} {}", game.letters[p], format_points(self.points[p])))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// A number of points without needless decimals: `1`, `0.5`, `0.75`.
pub fn format_points(points: f64) -> String {
    let text = format!("{points:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}
