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
    let me = pos.to_move().index();
    let movetime = limits
        .movetime
        .map(|t| t.saturating_sub(overhead).max(MINIMUM));
    let Some(left) = limits.time[me] else {
        return Plan {
            soft: movetime,
            hard: movetime,
        };
    };
    let plan = clock_plan(limits, me, left, overhead);
    // A time per move beside the clock (Star's two clocks) caps the plan.
    match movetime {
        Some(t) => Plan {
            soft: plan.soft.map(|soft| soft.min(t)),
            hard: plan.hard.map(|hard| hard.min(t)),
        },
        None => plan,
    }
}

/// The plan for the mover's clock alone: `left` on it, `me` its index.
fn clock_plan(limits: &Limits, me: usize, left: Duration, overhead: Duration) -> Plan {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Variant;

    /// Limits with every player's clock at `ms` and an optional time per move.
    fn limits(ms: u64, movetime: Option<u64>) -> Limits {
        Limits {
            time: [Some(Duration::from_millis(ms)); crate::types::MAX_PLAYERS],
            movetime: movetime.map(Duration::from_millis),
            ..Limits::default()
        }
    }

    #[test]
    fn a_movetime_alone_is_used_whole() {
        let pos = Position::start(Variant::Chess);
        let only = Limits {
            movetime: Some(Duration::from_millis(500)),
            ..Limits::default()
        };
        let plan = plan(&pos, &only, Duration::from_millis(10));
        assert_eq!(plan.soft, Some(Duration::from_millis(490)));
        assert_eq!(plan.hard, Some(Duration::from_millis(490)));
    }

    #[test]
    fn a_movetime_beside_a_clock_caps_the_clocks_plan() {
        let pos = Position::start(Variant::Star);
        let overhead = Duration::ZERO;
        let free = plan(&pos, &limits(60_000, None), overhead);
        assert!(free.hard.unwrap() > Duration::from_millis(1000));
        let capped = plan(&pos, &limits(60_000, Some(1000)), overhead);
        assert_eq!(capped.hard, Some(Duration::from_millis(1000)));
        assert!(capped.soft.unwrap() <= Duration::from_millis(1000));
        let short = plan(&pos, &limits(3_000, Some(1000)), overhead);
        assert!(
            short.hard.unwrap() < Duration::from_millis(1000),
            "the clock's plan is shorter"
        );
    }
}
