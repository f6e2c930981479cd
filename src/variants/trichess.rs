//! Chess for three on 96 squares (rules: `../shared/rules/trichess.md`):
//! three 8×4 thirds; en passant only for the next player; the game ends
//! when a player exposes the next player's king to the player after, or at
//! the first mate, unless the engine option `AfterMate` plays on.

use super::sections::{CastlingSafety, castlings, pawn_tables, rows, start_position};
use super::{EnPassantRule, Game, Variant};
use crate::geometry::sections::{ColumnRule, SectionBoard};
use crate::geometry::{Geometry, SliderClass};
use crate::position::{AfterMate, Position};
use crate::rules::{EndReason, Outcome, Removed};
use crate::types::{Cell, MAX_PLAYERS, Player, PlayerSet};

/// Player letters in turn order.
const LETTERS: &str = "wrb";

/// File letters of each section's columns 1..8.
const FILES: [&str; 3] = ["abcdefgh", "hgfeijkl", "lkjidcba"];

/// Points: the winner of a mate 1, the third ½, the mated 0; a draw ½ each.
/// Playing on: first out 0, second out ½, last 1; a draw of the last two ¾ each.
const WIN: f64 = 1.0;
const HALF: f64 = 0.5;
const LAST_TWO_DRAW: f64 = 0.75;

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
    Game::new(
        Variant::Trichess,
        geometry,
        LETTERS,
        ["White", "Red", "Black"],
        &SliderClass::BOTH,
        pawn_tables(&board),
        castlings(&board, CastlingSafety::KingPath),
        EnPassantRule::NextMoveOnly,
        &start_position(LETTERS),
        rows(&board),
    )
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

/// The winner of a mate of `mated`: the opponent attacking its king; if
/// both do, the one who moves first after the mated player.
fn mate_winner(pos: &Position, mated: Player) -> Player {
    let mut candidate = mated;
    let king = pos.king_of(mated);
    let mut first = None;
    for _ in 1..pos.game().players {
        let Some(p) = pos.next_active_after(candidate) else {
            break;
        };
        candidate = p;
        first.get_or_insert(p);
        let by = pos.attackers(PlayerSet::EMPTY.with(p));
        if king.is_some_and(|k| pos.attackers_of(k, pos.occupied(), &by).nonempty()) {
            return p;
        }
    }
    first.unwrap_or(mated)
}

/// Whether a mate or an exposure takes a player out and play goes on.
fn plays_on(pos: &Position) -> bool {
    pos.after_mate() != AfterMate::End && pos.state().in_game.count() == MAX_PLAYERS
}

/// With `AfterMate` `obstacles` or `inherit`, the first mate or king
/// exposure takes the mated player out and play goes on.
pub fn at_turn_start(pos: &mut Position, removed: &mut Removed) {
    if !plays_on(pos) {
        return;
    }
    let heir = |pos: &Position, winner| (pos.after_mate() == AfterMate::Inherit).then_some(winner);
    if let Some(victim) = exposed_player(pos) {
        let winner = pos.to_move();
        pos.eliminate(victim, heir(pos, winner), removed);
    } else if pos.count_moves() == 0 && pos.in_check() {
        let mated = pos.to_move();
        let winner = mate_winner(pos, mated);
        let next = pos.next_active_after(mated).unwrap_or(winner);
        pos.eliminate(mated, heir(pos, winner), removed);
        pos.set_to_move(next);
    }
}

/// Points when `loser` is mated (or exposed) and `winner` wins it: with
/// three players the third gets ½; at the second mate the first player out
/// gets 0, the second ½ and the last 1.
fn decisive(pos: &Position, winner: Player, loser: Player, reason: EndReason) -> Outcome {
    let mut points = [0.0; MAX_PLAYERS];
    match pos.state().out_order[0] {
        None => {
            for p in pos.state().in_game.iter() {
                points[p.index()] = if p == winner {
                    WIN
                } else if p == loser {
                    0.0
                } else {
                    HALF
                };
            }
        }
        Some(_first_out) => {
            points[winner.index()] = WIN;
            points[loser.index()] = HALF;
        }
    }
    Outcome { reason, points }
}

/// The end by king exposure, if the position shows one.
pub fn outcome_by_rule(pos: &Position) -> Option<Outcome> {
    let victim = exposed_player(pos)?;
    Some(decisive(pos, pos.to_move(), victim, EndReason::KingExposed))
}

/// The end when the player to move has no legal move.
pub fn outcome_without_moves(pos: &Position) -> Outcome {
    let mated = pos.to_move();
    if pos.in_check() {
        decisive(pos, mate_winner(pos, mated), mated, EndReason::Checkmate)
    } else {
        drawn(pos, EndReason::Stalemate)
    }
}

/// A draw: ½ each with three players, ¾ each to the last two.
pub fn drawn(pos: &Position, reason: EndReason) -> Outcome {
    let in_game = pos.state().in_game;
    let share = if in_game.count() == MAX_PLAYERS {
        HALF
    } else {
        LAST_TWO_DRAW
    };
    let mut points = [0.0; MAX_PLAYERS];
    for p in in_game.iter() {
        points[p.index()] = share;
    }
    Outcome { reason, points }
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
