//! Setting up a position from a start position or a position string and a
//! list of moves, with error messages that say what is wrong and why.

use crate::game::Variant;
use crate::position::{AfterMate, Position};

/// The word of `position` (and of bench tables) for the start position.
pub const STARTPOS: &str = "startpos";

/// How the current position came about: the base position and the moves
/// played from it, kept so that a changed rule option can replay them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    /// The position string; `None` for the game's start position.
    pub fen: Option<String>,
    /// The moves played from it, as given.
    pub moves: Vec<String>,
}

impl Setup {
    /// Builds the position of this setup in `variant`.
    pub fn build(&self, variant: Variant, after_mate: AfterMate) -> Result<Position, String> {
        build_position(variant, after_mate, self.fen.as_deref(), &self.moves)
    }

    /// Reads the words after `position`: `startpos | fen <position>` then
    /// optionally `moves <move> ...`.
    pub fn parse(words: &[&str]) -> Result<Setup, String> {
        let moves_at = words.iter().position(|&w| w == "moves");
        let (base, moves) = match moves_at {
            Some(i) => (&words[..i], &words[i + 1..]),
            None => (words, &[][..]),
        };
        let fen = match base {
            [] => return Err("position needs startpos or fen <position>".to_string()),
            [STARTPOS] => None,
            [STARTPOS, extra, ..] => {
                return Err(format!(
                    "unexpected '{extra}' after startpos (expected moves)"
                ));
            }
            ["fen"] => return Err("position fen: the position is missing".to_string()),
            ["fen", fields @ ..] => Some(fields.join(" ")),
            [other, ..] => return Err(format!("position needs startpos or fen, not '{other}'")),
        };
        Ok(Setup {
            fen,
            moves: moves.iter().map(|m| m.to_string()).collect(),
        })
    }
}

/// The position of `variant` given by `fen` (`None` or `startpos`: the start
/// position) after `moves`, with Trichess's rule `after_mate`.
pub fn build_position<S: AsRef<str>>(
    variant: Variant,
    after_mate: AfterMate,
    fen: Option<&str>,
    moves: &[S],
) -> Result<Position, String> {
    if !variant.is_playable() {
        return Err(format!("{variant} is not playable yet"));
    }
    let text = match fen {
        None | Some(STARTPOS) => variant.game().start.as_str(),
        Some(text) => text,
    };
    let mut pos = Position::from_fen_with(variant, text, after_mate).map_err(|e| {
        format!(
            "invalid {variant} position '{}': {e}",
            shortened(text.trim())
        )
    })?;
    for (i, text) in moves.iter().map(AsRef::as_ref).enumerate() {
        // Repetition and the move-count rules end these games by themselves
        // (classical chess leaves a claim to the players), and so does dead
        // material: no move may follow.
        if let Some(outcome) = pos.automatic_draw() {
            return Err(format!(
                "move {} ({text}) comes after the end of the game ({})",
                i + 1,
                outcome.reason.name()
            ));
        }
        let m = pos
            .parse_move(text)
            .map_err(|why| format!("move {} ({text}) {}", i + 1, why.predicate()))?;
        pos.make(m);
    }
    Ok(pos)
}

/// Longest piece of a position quoted in an error.
const MAX_QUOTED_POSITION: usize = 80;

/// `text`, cut short for an error message.
fn shortened(text: &str) -> String {
    if text.chars().count() > MAX_QUOTED_POSITION {
        format!(
            "{}...",
            text.chars().take(MAX_QUOTED_POSITION).collect::<String>()
        )
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(moves: &[&str]) -> String {
        match build_position(Variant::Chess, AfterMate::End, None, moves) {
            Ok(pos) => panic!("{moves:?} accepted: {}", pos.fen()),
            Err(why) => why,
        }
    }

    #[test]
    fn parses_startpos_and_fen_with_moves() {
        let s = Setup::parse(&["startpos", "moves", "e2e4", "e7e5"]).unwrap();
        assert_eq!((s.fen, s.moves.len()), (None, 2));
        let s =
            Setup::parse(&["fen", "8/8/8/8/8/8/8/K6k", "w", "-", "-", "0", "1", "moves"]).unwrap();
        assert_eq!(s.fen.as_deref(), Some("8/8/8/8/8/8/8/K6k w - - 0 1"));
        assert!(s.moves.is_empty());
        for bad in [
            &[][..],
            &["fen"],
            &["startpos", "e2e4"],
            &["start"],
            &["moves", "e2e4"],
        ] {
            assert!(Setup::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn refusals_name_the_move_and_the_reason() {
        let e = refusal(&["e2e4", "e2e4"]);
        assert!(
            e.contains("move 2 (e2e4)") && e.contains("no piece on e2"),
            "{e}"
        );
        let e = refusal(&["e2e5"]);
        assert!(e.contains("e2e3 e2e4"), "{e}");
        let e = refusal(&["e7e5"]);
        assert!(e.contains("does not belong to w (White)"), "{e}");
        let e = refusal(&["e2"]);
        assert!(e.contains("malformed"), "{e}");
        let e = refusal(&[
            "e2e4", "d7d5", "e4d5", "c7c6", "d5c6", "d8d7", "c6b7", "d7d6", "b7a8",
        ]);
        for promotion in ["b7a8q", "b7a8r", "b7a8b", "b7a8n"] {
            assert!(e.contains(promotion), "{e}");
        }
        let e = refusal(&["f2f3", "e7e5", "g2g4", "d8h4", "a2a3"]);
        assert!(e.contains("after the end of the game (checkmate)"), "{e}");
    }

    #[test]
    fn unplayable_games_are_refused() {
        for v in Variant::ALL.into_iter().filter(|v| !v.is_playable()) {
            assert!(build_position::<&str>(v, AfterMate::End, None, &[]).is_err());
        }
    }
}
