//! Chess for three on 96 squares (rules: `../shared/rules/trichess.md`):
//! three 8×4 thirds; en passant only for the next player; the game ends
//! when a player exposes the next player's king to the player after, or at
//! the first mate, unless the engine option `AfterMate` plays on.

use super::sections::{CastlingSafety, castlings, pawn_tables, rows, start_position};
use crate::game::outcome::{EndReason, Outcome};
use crate::game::{
    BenchPosition, EnPassantRule, Game, GameBench, GameSpec, MatePoints, OptionalField, RowLabel,
    RuleFacts, Scoring, TextLayout, Variant,
};
use crate::geometry::sections::{ColumnRule, SectionBoard};
use crate::geometry::{Geometry, SliderClass};
use crate::position::{AfterMate, GameRules, Position, Removed};
use crate::types::{Cell, MAX_PLAYERS, Player, PlayerSet};

/// Player letters in turn order.
const LETTERS: &str = "wrb";

/// File letters of each section's columns 1..8.
const FILES: [&str; 3] = ["abcdefgh", "hgfeijkl", "lkjidcba"];

/// Points with three players in: the winner of a mate (or an exposure) 1,
/// the third ½, the loser 0; a draw ½ each.
const THREE_IN_MATE: MatePoints = MatePoints {
    winner: 1.0,
    loser: 0.0,
    others: 0.5,
};
const THREE_IN_DRAW: f64 = 0.5;
/// Playing on after the first mate: the first out 0, the second out ½, the
/// last 1; a draw of the last two ¾ each.
const TWO_IN_MATE: MatePoints = MatePoints {
    winner: 1.0,
    loser: 0.5,
    others: 0.0,
};
const TWO_IN_DRAW: f64 = 0.75;

/// The name of section `s`'s column `x`, row `y`.
fn name(s: usize, x: i32, y: i32) -> String {
    let file = FILES[s].as_bytes()[(x - 1) as usize] as char;
    let rank = match s {
        0 => y,
        1 => 13 - y,
        _ => 9 - y,
    };
    format!("{file}{rank}")
}

/// Pieces on the middle cells (perft suite).
const MIDDLE: &str = "3wRwB3/8/wPwPwP2wPwPwP/6wK1/2rR1wN3/1rN1rQ4/rP4rPrPrP/4rK3/4bB3/2bN2bQ2/bPbP3bPbPbP/4bK3 w - - 0 1";

/// What `triskel bench` runs in the game: its search nodes are the engine's
/// signature, so these never change with the engine.
pub const BENCH: GameBench = GameBench {
    perft: &[BenchPosition::start(5)],
    search: &[
        BenchPosition::start(5),
        BenchPosition::at("middle", MIDDLE, 5),
    ],
};

/// Builds the game's tables.
pub fn build() -> Game {
    let board = SectionBoard::new(ColumnRule::Trichess);
    let names = (0..SectionBoard::CELLS)
        .map(|i| {
            let (s, x, y) = board.coords(Cell::new(i as u8));
            name(s, x, y)
        })
        .collect();
    let geometry = Geometry::build(board.shape(names));
    let mut scoring = Scoring::default();
    scoring.mate[MAX_PLAYERS] = THREE_IN_MATE;
    scoring.mate[MAX_PLAYERS - 1] = TWO_IN_MATE;
    scoring.draw_share[MAX_PLAYERS] = THREE_IN_DRAW;
    scoring.draw_share[MAX_PLAYERS - 1] = TWO_IN_DRAW;
    Game::new(GameSpec {
        variant: Variant::Trichess,
        geometry,
        letters: LETTERS,
        player_names: ["White", "Red", "Black"],
        king_classes: &SliderClass::BOTH,
        pawns: pawn_tables(&board),
        castlings: castlings(&board, CastlingSafety::KingPath),
        en_passant: EnPassantRule::NextMoveOnly,
        start: start_position(LETTERS),
        rows: rows(&board),
        facts: RuleFacts {
            scoring,
            optional_fields: &[OptionalField::Out, OptionalField::Armies],
            neutral_armies: true,
            text_layout: TextLayout::Sections(RowLabel::Suffix),
            ..RuleFacts::default()
        },
        bench: BENCH,
    })
}

/// The player whose king the player to move attacks while it is not its
/// turn: the next player, exposed by the previous move.
pub fn exposed_player(pos: &Position) -> Option<Player> {
    let mover = pos.to_move();
    let next = pos.next_active_after(mover)?;
    let king = pos.king_of(next)?;
    pos.is_attacked_by(king, PlayerSet::EMPTY.with(mover))
        .then_some(next)
}

/// Whether a mate or an exposure takes a player out and play goes on.
fn plays_on(pos: &Position) -> bool {
    pos.after_mate() != AfterMate::End && pos.state().in_game.count() == MAX_PLAYERS
}

/// Trichess's rules where they differ from the common ones: the end by
/// king exposure, and play going on after the first mate where the engine
/// option `AfterMate` says so.
pub struct Rules;

impl GameRules for Rules {
    /// With `AfterMate` `obstacles` or `inherit`, the first mate or king
    /// exposure takes the mated player out and play goes on.
    fn at_turn_start(&self, pos: &mut Position, removed: &mut Removed) {
        if !plays_on(pos) {
            return;
        }
        let heir =
            |pos: &Position, winner| (pos.after_mate() == AfterMate::Inherit).then_some(winner);
        if let Some(victim) = exposed_player(pos) {
            let winner = pos.to_move();
            pos.eliminate(victim, heir(pos, winner), removed);
        } else if pos.count_moves() == 0 && pos.in_check() {
            let mated = pos.to_move();
            let winner = pos.mate_winner(mated);
            let next = pos.next_active_after(mated).unwrap_or(winner);
            pos.eliminate(mated, heir(pos, winner), removed);
            pos.set_to_move(next);
        }
    }

    /// A player's move that left the next player's king attacked by the
    /// player to move ends the game.
    fn finished_by_rule(&self, pos: &Position) -> bool {
        exposed_player(pos).is_some()
    }

    /// The exposure is won by the player to move and lost by the exposed.
    fn outcome_by_rule(&self, pos: &Position) -> Option<Outcome> {
        let victim = exposed_player(pos)?;
        Some(pos.decisive(pos.to_move(), victim, EndReason::KingExposed))
    }

    /// Once a player is out, the king taken off the board at a mate or an
    /// exposure may have shielded the last mover's king, which the player
    /// to move then exposes (the game is over by rule).
    fn last_mover_may_be_attacked(&self, pos: &Position) -> bool {
        pos.state().out_order[0].is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard;

    fn cells(game: &Game, names: &str) -> Bitboard {
        names
            .split_whitespace()
            .map(|n| game.geometry.cell(n).unwrap())
            .collect()
    }

    #[test]
    fn the_rule_book_facts_about_d4() {
        let game = Variant::Trichess.game();
        let d4 = game.geometry.cell("d4").unwrap();
        assert_eq!(
            game.king_steps(d4),
            cells(game, "c3 d3 e3 c4 e4 c5 d5 i5 e9")
        );
        assert_eq!(
            game.geometry.knight(d4),
            cells(game, "b3 b5 c2 c6 e2 e10 f3 f9 i6 j5")
        );
    }

    #[test]
    fn the_middle_is_a_ring_of_six() {
        let game = Variant::Trichess.game();
        let ring = ["d4", "e4", "e9", "i9", "i5", "d5"];
        for (i, a) in ring.iter().enumerate() {
            let next = ring[(i + 1) % ring.len()];
            let opposite = ring[(i + 3) % ring.len()];
            let a = game.geometry.cell(a).unwrap();
            let straight = game.geometry.steps(SliderClass::Straight, a);
            assert!(straight.has(game.geometry.cell(next).unwrap()));
            assert!(
                !game
                    .king_steps(a)
                    .has(game.geometry.cell(opposite).unwrap())
            );
        }
    }

    #[test]
    fn every_adjacency_is_symmetric() {
        let game = Variant::Trichess.game();
        let g = &game.geometry;
        for a in g.cells() {
            for b in game.king_steps(a) {
                assert!(
                    game.king_steps(b).has(a),
                    "king {} -> {}",
                    g.name(a),
                    g.name(b)
                );
            }
            for b in g.knight(a) {
                assert!(g.knight(b).has(a), "knight {} -> {}", g.name(a), g.name(b));
            }
        }
    }
}
