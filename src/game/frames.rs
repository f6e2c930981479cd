//! Each army's view of the board, carried onto the first army's: the
//! symmetry of the board that takes an army's start, pawn moves and
//! promotion cells onto the first army's (in chess, the mirror between
//! the ranks; on the three-player boards, a turn by a third). Tables that
//! should treat every army alike (the evaluation's learnt piece-square
//! weights) are kept once, per cell of the first army's view.
//!
//! The symmetry is found, not written per game: a search for the map of
//! cells that keeps every step, knight move and pawn move of the board,
//! and the start position with the armies shifted by one.

use super::Game;
use crate::bitboard::Bitboard;
use crate::geometry::{PerCell, SliderClass, per_cell};
use crate::types::{Cell, MAX_CELLS, MAX_PLAYERS, Piece};

/// Per army, the cell of the first army's view that each cell is (the
/// first army's own is the identity; so is that of an army the game
/// does not have).
pub type ArmyFrames = [PerCell<Cell>; MAX_PLAYERS];

/// How many relations between cells the map must keep (see
/// [`View::relations`]).
const RELATIONS: usize = 7;

/// The board as one army sees it: per cell what stands there at the start
/// (relative to the army) and the cells related to it.
struct View {
    /// Per cell, a label a map must keep: the start piece's kind and
    /// army (counted from the viewing army), whether it is one of the
    /// army's promotion cells, and how many cells each relation holds.
    labels: Vec<u64>,
    /// Per relation and cell, the related cells: straight and diagonal
    /// steps, knight moves, the army's pawn steps and captures from the
    /// cell, and the pawn steps and captures onto it.
    relations: [PerCell<Bitboard>; RELATIONS],
}

/// What stands on each cell of a start position.
pub type StartPieces<'a> = &'a dyn Fn(Cell) -> Option<Piece>;

impl View {
    /// The board of `game` seen by `army`, with `start` its start position.
    fn new(game: &Game, start: StartPieces, army: usize) -> View {
        let g = &game.geometry;
        let n = g.cell_count();
        let pawns = &game.pawns[army];
        let onto = |of: &dyn Fn(Cell) -> Bitboard| {
            per_cell(n, |c| {
                g.cells()
                    .into_iter()
                    .filter(|&from| of(from).has(c))
                    .collect()
            })
        };
        let relations = [
            per_cell(n, |c| g.steps(SliderClass::Straight, c)),
            per_cell(n, |c| g.steps(SliderClass::Diagonal, c)),
            per_cell(n, |c| g.knight(c)),
            per_cell(n, |c| pawns.at(c).single),
            per_cell(n, |c| pawns.at(c).captures),
            onto(&|c| pawns.at(c).single),
            onto(&|c| pawns.at(c).captures),
        ];
        let players = game.players;
        let labels = g
            .cells()
            .into_iter()
            .map(|c| {
                let piece = start(c).map_or(0, |piece| {
                    let relative = (piece.army().index() + players - army) % players;
                    1 + (piece.kind().index() * MAX_PLAYERS + relative) as u64
                });
                let promotion = u64::from(pawns.promotion.has(c));
                relations.iter().fold(piece << 1 | promotion, |label, r| {
                    label << 8 | u64::from(r[c.index()].count())
                })
            })
            .collect();
        View { labels, relations }
    }
}

/// The frames of every army of `game` (`start`: the pieces of its start
/// position), or why the board has no symmetry that carries one army onto
/// another.
pub fn army_frames(game: &Game, start: StartPieces) -> Result<ArmyFrames, String> {
    let n = game.geometry.cell_count();
    let identity = || per_cell(n, |c| c);
    let first = View::new(game, start, 0);
    let mut frames: ArmyFrames = std::array::from_fn(|_| identity());
    for (army, frame) in frames.iter_mut().enumerate().take(game.players).skip(1) {
        let view = View::new(game, start, army);
        *frame = symmetry(&view, &first, n).ok_or_else(|| {
            format!(
                "{}: no symmetry of the board carries army {army} onto army 0",
                game.variant
            )
        })?;
    }
    Ok(frames)
}

/// A map of the `n` cells that carries `from` onto `to` (labels and
/// relations kept), by a depth-first search over the cells in
/// breadth-first order of their relations.
fn symmetry(from: &View, to: &View, n: usize) -> Option<PerCell<Cell>> {
    let order = breadth_first(from, n);
    let mut map = Map {
        image: [None; MAX_CELLS],
        domain: Bitboard::EMPTY,
        range: Bitboard::EMPTY,
    };
    if !extend(from, to, &order, &mut map) {
        return None;
    }
    Some(per_cell(n, |c| map.image[c.index()].unwrap_or(c)))
}

/// A map of some cells, being built.
struct Map {
    /// The image of each mapped cell.
    image: [Option<Cell>; MAX_CELLS],
    /// The mapped cells.
    domain: Bitboard,
    /// Their images.
    range: Bitboard,
}

impl Map {
    /// The images of the mapped cells among `cells`.
    fn image_of(&self, cells: Bitboard) -> Bitboard {
        (cells & self.domain)
            .into_iter()
            .filter_map(|c| self.image[c.index()])
            .collect()
    }
}

/// Maps the cells of `order` not yet mapped, backtracking where a choice
/// leads nowhere; whether it succeeded.
fn extend(from: &View, to: &View, order: &[Cell], map: &mut Map) -> bool {
    let Some((&cell, rest)) = order.split_first() else {
        return true;
    };
    let label = from.labels[cell.index()];
    let taken = map.range;
    let candidates = (0..to.labels.len())
        .map(|i| Cell::new(i as u8))
        .filter(|&c| !taken.has(c) && to.labels[c.index()] == label);
    for image in candidates {
        let keeps_relations = from
            .relations
            .iter()
            .zip(&to.relations)
            .all(|(f, t)| map.image_of(f[cell.index()]) == t[image.index()] & map.range);
        if !keeps_relations {
            continue;
        }
        map.image[cell.index()] = Some(image);
        map.domain = map.domain.with(cell);
        map.range = map.range.with(image);
        if extend(from, to, rest, map) {
            return true;
        }
        map.image[cell.index()] = None;
        map.domain = map.domain.without(cell);
        map.range = map.range.without(image);
    }
    false
}

/// The `n` cells in breadth-first order over all relations of `view`
/// (each part of a board that falls apart starting afresh), so that
/// every cell after the first of its part has a mapped neighbour.
fn breadth_first(view: &View, n: usize) -> Vec<Cell> {
    let mut order = Vec::with_capacity(n);
    let mut seen = Bitboard::EMPTY;
    for root in (0..n).map(|i| Cell::new(i as u8)) {
        if seen.has(root) {
            continue;
        }
        seen = seen.with(root);
        order.push(root);
        let mut next = order.len() - 1;
        while next < order.len() {
            let cell = order[next];
            next += 1;
            for related in view.relations.iter().map(|r| r[cell.index()]) {
                for c in related & !seen {
                    seen = seen.with(c);
                    order.push(c);
                }
            }
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Variant;
    use crate::position::Position;

    #[test]
    fn every_army_has_a_frame_that_carries_its_start_onto_the_first() {
        for variant in Variant::ALL {
            let game = variant.game();
            let start = Position::start(variant);
            let frames = army_frames(game, &|c| start.piece_at(c)).unwrap();
            for (army, frame) in frames.iter().enumerate().take(game.players) {
                let mut images = Bitboard::EMPTY;
                for c in game.geometry.cells() {
                    let image = frame[c.index()];
                    images = images.with(image);
                    let shifted =
                        |army_index: usize| (army_index + game.players - army) % game.players;
                    assert_eq!(
                        start
                            .piece_at(c)
                            .map(|p| (p.kind(), shifted(p.army().index()))),
                        start.piece_at(image).map(|p| (p.kind(), p.army().index())),
                        "{variant}, army {army}, {}",
                        game.geometry.name(c)
                    );
                }
                assert_eq!(images, game.geometry.cells(), "{variant}: a bijection");
            }
        }
    }

    #[test]
    fn frames_keep_the_moves_of_the_board_and_of_the_pawns() {
        for variant in Variant::ALL {
            let game = variant.game();
            let g = &game.geometry;
            let start = Position::start(variant);
            let frames = army_frames(game, &|c| start.piece_at(c)).unwrap();
            for (army, frame) in frames.iter().enumerate().take(game.players) {
                let image = |cells: Bitboard| -> Bitboard {
                    cells.into_iter().map(|c| frame[c.index()]).collect()
                };
                for c in g.cells() {
                    let to = frame[c.index()];
                    let at = |what: &str| format!("{variant}, army {army}, {}: {what}", g.name(c));
                    for class in SliderClass::BOTH {
                        assert_eq!(
                            image(g.steps(class, c)),
                            g.steps(class, to),
                            "{}",
                            at("steps")
                        );
                        assert_eq!(
                            image(g.lines(class, c)),
                            g.lines(class, to),
                            "{}",
                            at("lines")
                        );
                    }
                    assert_eq!(image(g.knight(c)), g.knight(to), "{}", at("knight"));
                    let (theirs, first) = (game.pawns[army].at(c), game.pawns[0].at(to));
                    assert_eq!(image(theirs.single), first.single, "{}", at("pawn steps"));
                    assert_eq!(image(theirs.captures), first.captures, "{}", at("captures"));
                }
            }
        }
    }

    #[test]
    fn chess_frames_mirror_the_ranks() {
        let game = Variant::Chess.game();
        let start = Position::start(Variant::Chess);
        let frames = army_frames(game, &|c| start.piece_at(c)).unwrap();
        let g = &game.geometry;
        let image = |army: usize, name: &str| g.name(frames[army][g.cell(name).unwrap().index()]);
        assert_eq!(image(0, "e2"), "e2");
        assert_eq!(image(1, "e7"), "e2");
        assert_eq!(image(1, "a8"), "a1");
        assert_eq!(image(1, "h3"), "h6");
    }
}
