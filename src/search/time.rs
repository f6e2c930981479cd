//! Time management: how long to think on a move.

use super::Limits;
use crate::position::Position;
use std::time::Duration;

/// Moves assumed left in the game when the clock does not say.
const DEFAULT_MOVES_TO_GO: u32 = 30;
/// Most of the remaining time one move may use (as a divisor).
const MAX_SHARE_OF_REMAINING: u32 = 4;
/// How much longer than planned a move may run if a depth is unfinished.
const HARD_OVER_SOFT: u32 = 3;
/// The least time a move is given.
const MINIMUM: Duration = Duration::from_millis(1);

/// A time plan: when to stop starting new depths, and when to stop at once.
#[derive(Clone, Copy, Debug, Default)]
pub struct Plan {
    /// Start no new depth after this.
    pub soft: Option<Duration>,
    /// Stop the search at this time.
    pub hard: Option<Duration>,
}

/// The plan for `limits` with the player to move's clock, keeping
/// `overhead` back for communication.
pub fn plan(pos: &Position, limits: &Limits, overhead: Duration) -> Plan {
    if limits.infinite {
        return Plan::default();
    }
    if let Some(t) = limits.movetime {
        let t = t.saturating_sub(overhead).max(MINIMUM);
        return Plan {
            soft: Some(t),
            hard: Some(t),
        };
    }
    let me = pos.to_move().index();
    let Some(left) = limits.time[me] else {
        return Plan::default();
    };
    let left = left.saturating_sub(overhead).max(MINIMUM);
    let moves = limits
        .moves_to_go
        .unwrap_or(DEFAULT_MOVES_TO_GO)
        .clamp(1, DEFAULT_MOVES_TO_GO * 2);
    let cap = left / MAX_SHARE_OF_REMAINING;
    let soft = (left / moves + limits.increment[me] * 3 / 4)
        .min(cap)
        .max(MINIMUM);
    let hard = (soft * HARD_OVER_SOFT).min(cap).max(soft);
    Plan {
        soft: Some(soft),
        hard: Some(hard),
    }
}
