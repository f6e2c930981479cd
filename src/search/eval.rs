//! The static evaluation: a score per player, from tables computed once per
//! game out of its geometry and its weights ([`super::weights`]: tuned, or
//! derived from the board): material, mobility, centralisation, pawn
//! progress towards the pawn's promotion cells, pawn structure (passed
//! pawns, pawns with another of their player's on their way, pawns
//! guarded by a pawn of their army), danger around the king, and the
//! king's shelter and centralisation by phase, and the learnt
//! piece-square values blended by phase. Star adds the material
//! each player has captured, which counts for its final points. The score
//! is linear in the weights, which is what the tuner ([`crate::tune`])
//! relies on.

use super::weights::{self, EvalWeights, KingCentre};
use crate::bitboard::Bitboard;
use crate::game::frames::{ArmyFrames, army_frames};
use crate::game::{Game, Variant};
use crate::geometry::{PerCell, SliderClass, per_cell};
use crate::position::KnownReaches;
use crate::position::Position;
use crate::types::{Army, Cell, MAX_CELLS, MAX_PLAYERS, Piece, PieceKind, Player, PlayerSet};
use std::sync::OnceLock;

/// Steps within which cells count for a cell's centralisation.
const CENTRE_RADIUS: usize = 2;

/// A king's centralisation at the most central cell (0 at the least).
const CENTRALITY_FULL: i32 = 64;

/// Game-phase units of an officer by kind: a classical army's officers
/// (two knights, two bishops, two rooks, a queen) make
/// [`PHASE_UNITS_PER_ARMY`].
const PHASE_UNITS: [i32; PieceKind::COUNT] = [0, 1, 1, 2, 4, 0];

/// The phase units of one enemy army at full middlegame: a player's
/// middlegame weight is its enemies' units over this many per enemy
/// (at most 1).
const PHASE_UNITS_PER_ARMY: i32 = 12;

/// The evaluation tables of one game, built from its weights.
pub struct EvalTables {
    /// Material value by kind.
    pub values: [i32; PieceKind::COUNT],
    /// Value per cell an officer reaches, by kind.
    mobility: [i32; PieceKind::COUNT],
    /// Penalty per attack of an enemy officer on a cell next to the king.
    king_danger: i32,
    /// Bonus per own pawn next to the king, at full middlegame.
    king_shelter: i32,
    /// The king's centralisation weights by phase.
    king_centre: KingCentre,
    /// How central each cell is for a king, from 0 to [`CENTRALITY_FULL`].
    king_centrality: PerCell<i32>,
    /// Bonus of a player with two bishops or more.
    bishop_pair: i32,
    /// Bonus of the player to move.
    tempo: i32,
    /// The bonus of a passed pawn, by army and cell.
    passed_bonus: [PerCell<i32>; MAX_PLAYERS],
    /// The cells where another army's pawn stops a pawn from being passed,
    /// by army and cell.
    passed_guards: [PerCell<Bitboard>; MAX_PLAYERS],
    /// A pawn's way, by army and cell: every cell its single steps reach.
    pawn_ways: [PerCell<Bitboard>; MAX_PLAYERS],
    /// Penalty of a pawn with another pawn of its player on its way.
    pawn_doubled: i32,
    /// Bonus of a pawn guarded by a pawn of its army.
    pawn_supported: i32,
    /// [`EvalTables::piece_square`] by [`Piece::index`] and cell.
    piece_squares: Box<[[i32; MAX_CELLS]; Piece::SLOTS]>,
    /// [`EvalTables::quiet_gain_bound`] by [`Piece::index`] and cell.
    quiet_gain_bounds: Box<[[i32; MAX_CELLS]; Piece::SLOTS]>,
    king_zone: PerCell<Bitboard>,
    /// Each army's cells carried onto the first army's view, where the
    /// learnt piece-square values are kept.
    frames: ArmyFrames,
    /// The learnt endgame piece-square value less the middlegame one (which
    /// [`EvalTables::piece_square`] holds), by [`Piece::index`] and cell.
    square_ends: Box<[[i32; MAX_CELLS]; Piece::SLOTS]>,
    /// Whether some of `square_ends` is not 0.
    tapered: bool,
}

/// Builds every game's board tables and evaluation tables now, so that no
/// search pays for them (about 7 ms for all games; otherwise each is built
/// on first use).
pub fn build_all_tables() {
    for variant in Variant::ALL {
        EvalTables::of(variant);
    }
}

impl EvalTables {
    /// The tables of `variant`, built on first use.
    pub fn of(variant: Variant) -> &'static EvalTables {
        static TABLES: [OnceLock<EvalTables>; Variant::COUNT] =
            [const { OnceLock::new() }; Variant::COUNT];
        TABLES[variant.index()]
            .get_or_init(|| EvalTables::build(variant.game(), &EvalWeights::of(variant)))
    }

    /// The tables of `game` evaluated with `weights`.
    pub fn build(game: &Game, weights: &EvalWeights) -> EvalTables {
        let n = game.geometry.cell_count();
        let values = weights.material;
        let reach_count: Vec<usize> = (0..n)
            .map(|i| neighbourhood(game, Cell::new(i as u8), CENTRE_RADIUS).count() as usize)
            .collect();
        let (lo, hi) = (
            reach_count.iter().copied().min().unwrap_or(0),
            reach_count.iter().copied().max().unwrap_or(1),
        );
        let span = (hi - lo).max(1) as i32;
        // `full` at the most central cell, 0 at the least.
        let centrality = |c: Cell, full: i32| full * (reach_count[c.index()] - lo) as i32 / span;
        let centre =
            PieceKind::ALL.map(|k| per_cell(n, |c| centrality(c, weights.centre[k.index()])));
        let king_centrality = per_cell(n, |c| centrality(c, CENTRALITY_FULL));
        let distances: [Vec<Option<usize>>; MAX_PLAYERS] =
            std::array::from_fn(|a| promotion_distances(game, Army::new(a)));
        let pawn_progress: [PerCell<i32>; MAX_PLAYERS] =
            std::array::from_fn(|a| pawn_progress(game, weights, &distances[a]));
        let pawn_ways: [PerCell<Bitboard>; MAX_PLAYERS] =
            std::array::from_fn(|a| pawn_ways(game, Army::new(a)));
        let king_zone = per_cell(n, |c| game.king_steps(c).with(c));
        let start = Position::start(game.variant);
        let frames =
            army_frames(game, &|c| start.piece_at(c)).unwrap_or_else(|why| panic!("{why}"));
        let squares = &weights.squares;
        let mut piece_squares = Box::new([[0; MAX_CELLS]; Piece::SLOTS]);
        let mut square_ends = Box::new([[0; MAX_CELLS]; Piece::SLOTS]);
        for army in (0..MAX_PLAYERS).map(Army::new) {
            for kind in PieceKind::ALL {
                let piece = Piece::new(army, kind);
                for c in (0..n).map(|i| Cell::new(i as u8)) {
                    let progress = if kind == PieceKind::Pawn {
                        pawn_progress[army.index()][c.index()]
                    } else {
                        0
                    };
                    let learnt = squares.index(kind, frames[army.index()][c.index()]);
                    piece_squares[piece.index()][c.index()] = values[kind.index()]
                        + centre[kind.index()][c.index()]
                        + progress
                        + squares.middle[learnt];
                    square_ends[piece.index()][c.index()] =
                        squares.end[learnt] - squares.middle[learnt];
                }
            }
        }
        let quiet_gain_bounds = quiet_gain_bounds(game, &piece_squares);
        EvalTables {
            values,
            mobility: weights.mobility,
            king_danger: weights.king_danger,
            king_shelter: weights.king_shelter,
            king_centre: weights.king_centre,
            king_centrality,
            bishop_pair: weights.bishop_pair,
            tempo: weights.tempo,
            passed_bonus: std::array::from_fn(|a| passed_bonus(game, weights, &distances[a])),
            passed_guards: std::array::from_fn(|a| {
                passed_guards(game, Army::new(a), &pawn_ways[a])
            }),
            pawn_ways,
            pawn_doubled: weights.pawn_doubled,
            pawn_supported: weights.pawn_supported,
            piece_squares,
            quiet_gain_bounds,
            king_zone,
            frames,
            square_ends,
            tapered: squares.tapered(),
        }
    }

    /// The cell of the first army's view that `cell` is for `army` (where
    /// the learnt piece-square values of its pieces there are kept).
    pub fn frame(&self, army: Army, cell: Cell) -> Cell {
        self.frames[army.index()][cell.slot()]
    }
}

/// Per piece and cell, the most a quiet move of that piece from that cell
/// gains on the piece-square table: over the cells an officer reaches on
/// an empty board, a pawn's one- and two-cell steps, the king's steps
/// (`i32::MIN` where the piece has no such move).
fn quiet_gain_bounds(
    game: &Game,
    piece_squares: &[[i32; MAX_CELLS]; Piece::SLOTS],
) -> Box<[[i32; MAX_CELLS]; Piece::SLOTS]> {
    let mut bounds = Box::new([[i32::MIN; MAX_CELLS]; Piece::SLOTS]);
    for army in (0..MAX_PLAYERS).map(Army::new) {
        for kind in PieceKind::ALL {
            let piece = Piece::new(army, kind);
            let squares = &piece_squares[piece.index()];
            for from in game.geometry.cells() {
                let targets = if kind == PieceKind::Pawn {
                    let steps = game.pawns[army.index()].at(from);
                    steps
                        .doubles()
                        .iter()
                        .fold(steps.single, |t, d| t.with(d.target))
                } else {
                    game.empty_board_reach(kind, from)
                };
                let before = squares[from.slot()];
                if let Some(best) = targets.into_iter().map(|to| squares[to.slot()]).max() {
                    bounds[piece.index()][from.slot()] = best - before;
                }
            }
        }
    }
    bounds
}

/// Cells within `radius` king steps of `cell`.
fn neighbourhood(game: &Game, cell: Cell, radius: usize) -> Bitboard {
    let mut seen = Bitboard::from_cell(cell);
    let mut frontier = seen;
    for _ in 0..radius {
        let mut next = Bitboard::EMPTY;
        for c in frontier {
            next |= game.king_steps(c);
        }
        frontier = next & !seen;
        seen |= next;
    }
    seen
}

/// Each cell's distance in `army` pawn moves to the nearest promotion
/// cell (`None` where the pawn can never promote, or the army does not
/// play): the pawn's moves walked backwards from the promotion cells.
fn promotion_distances(game: &Game, army: Army) -> Vec<Option<usize>> {
    let n = game.geometry.cell_count();
    let mut distance = vec![None; n];
    if army.index() >= game.players {
        return distance;
    }
    let tables = &game.pawns[army.index()];
    let mut frontier: Vec<Cell> = tables.promotion.into_iter().collect();
    for &c in &frontier {
        distance[c.index()] = Some(0);
    }
    let mut d = 0;
    while !frontier.is_empty() {
        d += 1;
        let mut next = Vec::new();
        for from in game.geometry.cells() {
            if distance[from.index()].is_some() {
                continue;
            }
            let moves = tables.at(from).single | tables.at(from).captures;
            if frontier.iter().any(|&t| moves.has(t)) {
                distance[from.index()] = Some(d);
                next.push(from);
            }
        }
        frontier = next;
    }
    distance
}

/// Bonus of a pawn on each cell for its progress, from its `distances` to
/// promotion: steps made towards the nearest promotion cell, more when it
/// is close. Cells from which it can never promote get nothing.
fn pawn_progress(game: &Game, weights: &EvalWeights, distances: &[Option<usize>]) -> PerCell<i32> {
    let longest = distances.iter().flatten().copied().max().unwrap_or(0);
    per_cell(game.geometry.cell_count(), |c| match distances[c.index()] {
        None => 0,
        Some(d) => {
            let near = weights
                .pawn_near
                .get(d.saturating_sub(1))
                .copied()
                .unwrap_or(0);
            weights.pawn_step * (longest - d) as i32 + near
        }
    })
}

/// Bonus of a passed pawn on each cell, from its `distances` to promotion
/// (nothing where it can never promote).
fn passed_bonus(game: &Game, weights: &EvalWeights, distances: &[Option<usize>]) -> PerCell<i32> {
    per_cell(game.geometry.cell_count(), |c| {
        distances[c.index()].map_or(0, |d| {
            weights.passed[d.saturating_sub(1).min(weights::PASSED_STEPS - 1)]
        })
    })
}

/// Per cell, the way of an `army` pawn there: every cell its single steps
/// reach, over all branches (nothing for an army that does not play).
fn pawn_ways(game: &Game, army: Army) -> PerCell<Bitboard> {
    let n = game.geometry.cell_count();
    if army.index() >= game.players {
        return per_cell(n, |_| Bitboard::EMPTY);
    }
    let own = &game.pawns[army.index()];
    per_cell(n, |from| {
        let mut way = Bitboard::EMPTY;
        let mut frontier = own.at(from).single;
        while (frontier & !way).nonempty() {
            let fresh = frontier & !way;
            way |= fresh;
            frontier = fresh
                .into_iter()
                .fold(Bitboard::EMPTY, |acc, c| acc | own.at(c).single);
        }
        way
    })
}

/// Per cell, the cells where a pawn of another army stops an `army` pawn
/// there from being passed: those on its way (`ways`), and those from
/// which another army's pawn captures onto its way.
fn passed_guards(game: &Game, army: Army, ways: &PerCell<Bitboard>) -> PerCell<Bitboard> {
    per_cell(game.geometry.cell_count(), |from| {
        let way = ways[from.index()];
        let mut guards = way;
        for other in (0..game.players).filter(|&a| a != army.index()) {
            for c in way {
                guards |= game.pawns[other].at(c).captured_from;
            }
        }
        guards
    })
}

/// How far the expensive part of the evaluation (mobility, king danger
/// and safety, pawn structure, the learnt piece-square values' blend
/// towards the endgame) is taken to move a score at most: a cheap score
/// this far beyond a bound decides alone (lazy evaluation). A bet, not a
/// bound: the terms can add up to more.
pub const LAZY_MARGIN: i32 = 150;

impl EvalTables {
    /// What `piece` on `cell` is worth: material, centralisation, for a
    /// pawn its progress, and the learnt middlegame value (the blend
    /// towards the endgame value is part of the full evaluation).
    #[inline(always)]
    pub fn piece_square(&self, piece: Piece, cell: Cell) -> i32 {
        self.piece_squares[piece.index()][cell.slot()]
    }

    /// The most any quiet move of `piece` from `cell` can gain on
    /// [`EvalTables::piece_square`] (castling aside): a bound that lets the
    /// static move choice skip pieces that cannot beat its best move.
    #[inline(always)]
    pub fn quiet_gain_bound(&self, piece: Piece, cell: Cell) -> i32 {
        self.quiet_gain_bounds[piece.index()][cell.slot()]
    }
}

/// The sum of [`EvalTables::piece_square`] over each army's pieces.
pub fn piece_squares(pos: &Position) -> [i32; MAX_PLAYERS] {
    piece_squares_in(EvalTables::of(pos.variant()), pos)
}

/// [`piece_squares`] with the values of `t`.
pub fn piece_squares_in(t: &EvalTables, pos: &Position) -> [i32; MAX_PLAYERS] {
    let mut sums = [0; MAX_PLAYERS];
    for cell in pos.occupied() {
        if let Some(piece) = pos.piece_at(cell) {
            sums[piece.army().index()] += t.piece_square(piece, cell);
        }
    }
    sums
}

/// The cheap part of the evaluation per player, from the armies'
/// piece-square sums: each player gets the sums of the armies it controls
/// (and, in Star, the points it has captured).
pub fn evaluate_fast_from(pos: &Position, armies: &[i32; MAX_PLAYERS]) -> [i32; MAX_PLAYERS] {
    let state = pos.state();
    let mut score = [0i32; MAX_PLAYERS];
    for (army, &sum) in armies.iter().enumerate() {
        if let Some(p) = state.controller[army]
            && state.in_game.has(p)
        {
            score[p.index()] += sum;
        }
    }
    if pos.game().facts.scoring.piece_points.is_some() {
        for p in state.in_game.iter() {
            score[p.index()] += i32::from(state.captured[p.index()]) * weights::STAR_POINT;
        }
    }
    score
}

/// The cheap part of the evaluation: material, centralisation, pawn
/// progress (and Star's captured points), per player.
pub fn evaluate_fast(pos: &Position) -> [i32; MAX_PLAYERS] {
    evaluate_fast_from(pos, &piece_squares(pos))
}

/// `player`'s score against the average of the other players of `in_game`
/// (its own score when none is left): the one number per player that the
/// scalar searches value a position by, and that `info ... scores` and the
/// `eval` command report.
#[inline(always)]
pub fn against_others(scores: &[i32; MAX_PLAYERS], player: Player, in_game: PlayerSet) -> i32 {
    let mut others = 0;
    let mut count = 0;
    for p in in_game.iter() {
        if p != player {
            others += scores[p.index()];
            count += 1;
        }
    }
    // One or two others: a division by a constant, not by a variable.
    let average = match count {
        0 | 1 => others,
        2 => others / 2,
        n => others / n,
    };
    scores[player.index()] - average
}

/// The static score of each player (absolute strength; only players still
/// in the game are meaningful).
pub fn evaluate(pos: &Position) -> [i32; MAX_PLAYERS] {
    evaluate_with(pos, &mut ReachCache::default())
}

/// [`evaluate`], reusing the reaches in `cache`.
pub fn evaluate_with(pos: &Position, cache: &mut ReachCache) -> [i32; MAX_PLAYERS] {
    evaluate_in(EvalTables::of(pos.variant()), pos, cache)
}

/// [`evaluate_with`] the weights of `tables` (which the tuner varies).
pub fn evaluate_in(
    tables: &EvalTables,
    pos: &Position,
    cache: &mut ReachCache,
) -> [i32; MAX_PLAYERS] {
    let mut score = evaluate_fast_from(pos, &piece_squares_in(tables, pos));
    let activity = cache.activity_in(tables, pos);
    for (s, a) in score.iter_mut().zip(activity) {
        *s += a;
    }
    score
}

/// The officers' reaches a search thread carries from position to
/// position: the evaluation's, and each player's own from where it
/// generated its moves last. The two kinds are kept apart because the
/// evaluation's positions (the leaves) and a player's generations lie
/// further apart from each other than from their own predecessors, but
/// each lends the other a reach that still holds before one is recomputed.
#[derive(Default)]
pub struct SearchReaches {
    /// The reaches of the position evaluated last.
    pub evaluated: ReachCache,
    /// Per player, its officers' reaches where it generated last.
    movers: [ReachCache; MAX_PLAYERS],
}

impl SearchReaches {
    /// [`ReachCache::activity`] of `pos`.
    pub fn activity(&mut self, pos: &Position) -> [i32; MAX_PLAYERS] {
        self.evaluated.activity_sharing(pos, &self.movers)
    }

    /// The reaches of the officers of the player to move in `pos`, for the
    /// move generator: the evaluation's when it has just worked them out
    /// for this board, else the mover's own brought up to date.
    pub fn of_mover(&mut self, pos: &Position) -> KnownReaches<'_> {
        if self.evaluated.occupied == pos.occupied() {
            return self.evaluated.known(pos);
        }
        let cache = &mut self.movers[pos.to_move().index()];
        cache.update_for_mover(pos, &self.evaluated);
        cache.known(pos)
    }
}

/// The cells each officer reached on the board the cache was last brought
/// up to date for (an evaluated position, or one where a player generated
/// its moves), so that the next time only the pieces that moved or arrived
/// are recomputed, and the sliders one of whose watched cells (those their
/// reach depends on) filled or emptied. A search visits positions that
/// differ in a few cells, so most reaches carry over.
pub struct ReachCache {
    /// The board the stored reaches belong to.
    occupied: Bitboard,
    /// Per officer kind, the cells whose stored reach is that kind's and
    /// up to date for `occupied`.
    stored: [Bitboard; PieceKind::OFFICERS.len()],
    /// The stored reach, per cell.
    reach: [Bitboard; MAX_CELLS],
    /// The cells the stored reach depends on, per cell.
    watched: [Bitboard; MAX_CELLS],
    /// The mobility weight of the officer whose reach is stored, per cell.
    weight: [i32; MAX_CELLS],
}

impl Default for ReachCache {
    fn default() -> Self {
        ReachCache {
            occupied: Bitboard::EMPTY,
            stored: [Bitboard::EMPTY; PieceKind::OFFICERS.len()],
            reach: [Bitboard::EMPTY; MAX_CELLS],
            watched: [Bitboard::EMPTY; MAX_CELLS],
            weight: [0; MAX_CELLS],
        }
    }
}

impl ReachCache {
    /// The expensive part of the evaluation, per player: mobility of the
    /// pieces, minus the attacks of enemy pieces on the cells around its
    /// king, plus its king's safety, its pawn structure, its bishop pair,
    /// and the tempo of the player to move.
    pub fn activity(&mut self, pos: &Position) -> [i32; MAX_PLAYERS] {
        self.activity_in(EvalTables::of(pos.variant()), pos)
    }

    /// [`ReachCache::activity`] with the weights of `tables` (a cache
    /// serves one set of tables: the mobility weights it stores are theirs).
    pub fn activity_in(&mut self, tables: &EvalTables, pos: &Position) -> [i32; MAX_PLAYERS] {
        self.activity_with(tables, pos, |_, _, _| None)
    }

    /// [`ReachCache::activity`], taking a reach that must be recomputed
    /// from the players' own caches (`movers`, see
    /// [`ReachCache::update_for_mover`]) where one still holds there.
    fn activity_sharing(
        &mut self,
        pos: &Position,
        movers: &[ReachCache; MAX_PLAYERS],
    ) -> [i32; MAX_PLAYERS] {
        self.activity_with(
            EvalTables::of(pos.variant()),
            pos,
            |kind, from, occupied| {
                let owner = pos.piece_at(from).and_then(|piece| pos.controller(piece))?;
                movers[owner.index()].holding(kind, from, occupied)
            },
        )
    }

    /// [`ReachCache::activity`], asking `donor` for a reach before
    /// recomputing it.
    fn activity_with(
        &mut self,
        t: &EvalTables,
        pos: &Position,
        donor: impl Fn(usize, Cell, Bitboard) -> Option<(Bitboard, Bitboard)>,
    ) -> [i32; MAX_PLAYERS] {
        let players = pos.state().in_game;
        // Players out of the game own nothing here and have no king zone.
        let mut own = [Bitboard::EMPTY; MAX_PLAYERS];
        let mut zones = [Bitboard::EMPTY; MAX_PLAYERS];
        for p in players.iter() {
            own[p.index()] = pos.pieces_of(p);
            if let Some(k) = pos.king_of(p) {
                zones[p.index()] = t.king_zone[k.slot()];
            }
        }
        self.update_with(
            pos,
            &t.mobility,
            own.iter().fold(Bitboard::EMPTY, |acc, &o| acc | o),
            donor,
        );
        let officers = self.stored.iter().fold(Bitboard::EMPTY, |acc, &s| acc | s);
        let mut score = [0i32; MAX_PLAYERS];
        for p in players.iter() {
            let p = p.index();
            // The other two seats (an empty one adds nothing).
            const _: () = assert!(MAX_PLAYERS == 3, "a player has two other seats");
            let (a, b) = ((p + 1) % MAX_PLAYERS, (p + 2) % MAX_PLAYERS);
            let (zone_a, zone_b) = (zones[a], zones[b]);
            let (mut mobility, mut attacks_a, mut attacks_b) = (0, 0, 0);
            (officers & own[p]).into_iter().for_each(|from| {
                let slot = from.slot();
                let reach = self.reach[slot];
                mobility += self.weight[slot] * (reach & !own[p]).count() as i32;
                if (reach & (zone_a | zone_b)).nonempty() {
                    attacks_a += (reach & zone_a).count() as i32;
                    attacks_b += (reach & zone_b).count() as i32;
                }
            });
            score[p] += mobility;
            if (pos.kind(PieceKind::Bishop) & own[p]).count() >= 2 {
                score[p] += t.bishop_pair;
            }
            score[a] -= t.king_danger * attacks_a;
            score[b] -= t.king_danger * attacks_b;
        }
        score[pos.to_move().index()] += t.tempo;
        if let Some(phases) = Phases::of(pos, &own) {
            king_safety(t, pos, &own, &phases, &mut score);
            if t.tapered {
                endgame_squares(t, pos, &own, &phases, &mut score);
            }
        }
        pawn_structure(t, pos, &own, &mut score);
        score
    }

    /// The officers' reaches stored for the board of `pos`, for the move
    /// generator: none unless the cache was last brought up to date for
    /// this board, then those of the officers still on their cells.
    pub fn known(&self, pos: &Position) -> KnownReaches<'_> {
        if self.occupied != pos.occupied() {
            return KnownReaches::NONE;
        }
        let cells = PieceKind::OFFICERS
            .iter()
            .zip(&self.stored)
            .fold(Bitboard::EMPTY, |acc, (&kind, &stored)| {
                acc | (stored & pos.kind(kind))
            });
        KnownReaches {
            cells,
            reach: &self.reach,
        }
    }

    /// Brings the stored reaches up to date for the officers of
    /// `in_game_pieces`: recomputes those that are new on their cell and
    /// those with a watched cell that filled or emptied.
    pub fn update(&mut self, pos: &Position, in_game_pieces: Bitboard) {
        let mobility = &EvalTables::of(pos.variant()).mobility;
        self.update_with(pos, mobility, in_game_pieces, |_, _, _| None);
    }

    /// The reaches of the mover's officers brought up to date (as
    /// [`ReachCache::update`] for its pieces), taking a reach to recompute
    /// from `evaluated` where it still holds there.
    fn update_for_mover(&mut self, pos: &Position, evaluated: &ReachCache) {
        let mobility = &EvalTables::of(pos.variant()).mobility;
        self.update_with(
            pos,
            mobility,
            pos.pieces_of(pos.to_move()),
            |kind, from, occupied| evaluated.holding(kind, from, occupied),
        );
    }

    /// The stored reach and watched cells of the officer of
    /// `PieceKind::OFFICERS[kind]` on `from`, if they still hold on the board
    /// `occupied`: none of the watched cells changed since.
    #[inline(always)]
    fn holding(&self, kind: usize, from: Cell, occupied: Bitboard) -> Option<(Bitboard, Bitboard)> {
        let slot = from.slot();
        let watched = self.watched[slot];
        (self.stored[kind].has(from) && (watched & (occupied ^ self.occupied)).is_empty())
            .then(|| (self.reach[slot], watched))
    }

    /// [`ReachCache::update`] with the mobility weights `mobility`, asking
    /// `donor` for a reach before recomputing it.
    fn update_with(
        &mut self,
        pos: &Position,
        mobility: &[i32; PieceKind::COUNT],
        in_game_pieces: Bitboard,
        donor: impl Fn(usize, Cell, Bitboard) -> Option<(Bitboard, Bitboard)>,
    ) {
        let occupied = pos.occupied();
        let changed = occupied ^ self.occupied;
        // The stored sliders still on their cells with a watched cell that
        // filled or emptied, looked at in one pass (a knight's reach watches
        // no cell: only a knight that moved is stale).
        let mut moved_around = Bitboard::EMPTY;
        if changed.nonempty() {
            let kept_sliders = PieceKind::OFFICERS
                .into_iter()
                .zip(self.stored)
                .filter(|&(kind, _)| kind != PieceKind::Knight)
                .fold(Bitboard::EMPTY, |acc, (kind, stored)| {
                    acc | (pos.kind(kind) & stored)
                });
            (kept_sliders & in_game_pieces)
                .into_iter()
                .for_each(|from| {
                    if (self.watched[from.slot()] & changed).nonempty() {
                        moved_around = moved_around.with(from);
                    }
                });
        }
        for (i, kind) in PieceKind::OFFICERS.into_iter().enumerate() {
            let pieces = pos.kind(kind) & in_game_pieces;
            let stale = (pieces & !self.stored[i]) | (pieces & moved_around);
            for from in stale {
                let (reach, watched) = donor(i, from, occupied)
                    .unwrap_or_else(|| officer_reach_watched(pos, kind, from, occupied));
                self.reach[from.slot()] = reach;
                self.watched[from.slot()] = watched;
                self.weight[from.slot()] = mobility[kind.index()];
            }
            self.stored[i] = pieces;
        }
        self.occupied = occupied;
    }
}

/// Each player's game phase, as the enemies' officers give it.
pub struct Phases {
    /// Per player in the game, the phase units of its enemies' officers,
    /// counted up to `full`.
    pub middle: [i32; MAX_PLAYERS],
    /// The units of full middlegame: `PHASE_UNITS_PER_ARMY` (12) per enemy.
    pub full: i32,
}

impl Phases {
    /// The phases of the players in the game in `pos` (`own`: each
    /// player's pieces), if it has enemies for them.
    pub fn of(pos: &Position, own: &[Bitboard; MAX_PLAYERS]) -> Option<Phases> {
        let players = pos.state().in_game;
        let enemies = players.count() as i32 - 1;
        if enemies <= 0 {
            return None;
        }
        let mut units = [0; MAX_PLAYERS];
        for kind in PieceKind::OFFICERS {
            let of_kind = pos.kind(kind);
            for p in players.iter() {
                units[p.index()] +=
                    PHASE_UNITS[kind.index()] * (of_kind & own[p.index()]).count() as i32;
            }
        }
        let all_units: i32 = units.iter().sum();
        let full = PHASE_UNITS_PER_ARMY * enemies;
        Some(Phases {
            middle: units.map(|own_units| (all_units - own_units).min(full)),
            full,
        })
    }
}

/// Adds each player's king safety to `score`: its own pawns next to its
/// king and its king's centralisation, weighed by the game's `phases`
/// (`own`: each player's pieces). In the middlegame the king wants
/// shelter and the edge, in the endgame the centre.
fn king_safety(
    t: &EvalTables,
    pos: &Position,
    own: &[Bitboard; MAX_PLAYERS],
    phases: &Phases,
    score: &mut [i32; MAX_PLAYERS],
) {
    let full = phases.full;
    let pawns = pos.kind(PieceKind::Pawn);
    for p in pos.state().in_game.iter() {
        let Some(king) = pos.king_of(p) else {
            continue;
        };
        let p = p.index();
        let middle = phases.middle[p];
        let centrality = t.king_centrality[king.slot()];
        let shelter = (t.king_zone[king.slot()] & pawns & own[p]).count() as i32;
        let middlegame =
            t.king_shelter * shelter * CENTRALITY_FULL - t.king_centre.middle * centrality;
        let endgame = t.king_centre.end * centrality;
        score[p] += (middlegame * middle + endgame * (full - middle)) / (full * CENTRALITY_FULL);
    }
}

/// Adds to `score` the part of each player's learnt piece-square values
/// that its phase (in `phases`) moves from the middlegame values towards
/// the endgame ones (`own`: each player's pieces).
fn endgame_squares(
    t: &EvalTables,
    pos: &Position,
    own: &[Bitboard; MAX_PLAYERS],
    phases: &Phases,
    score: &mut [i32; MAX_PLAYERS],
) {
    for p in pos.state().in_game.iter() {
        let p = p.index();
        let towards_end: i32 = own[p]
            .into_iter()
            .filter_map(|c| {
                let piece = pos.piece_at(c)?;
                Some(t.square_ends[piece.index()][c.slot()])
            })
            .sum();
        score[p] += towards_end * (phases.full - phases.middle[p]) / phases.full;
    }
}

/// Adds each player's pawn structure to `score` (`own`: each player's
/// pieces): its passed pawns by distance to promotion, minus its pawns
/// with another of its pawns on their way, plus its pawns guarded by a
/// pawn of their army.
fn pawn_structure(
    t: &EvalTables,
    pos: &Position,
    own: &[Bitboard; MAX_PLAYERS],
    score: &mut [i32; MAX_PLAYERS],
) {
    let game = pos.game();
    let pawns = pos.kind(PieceKind::Pawn);
    for p in pos.state().in_game.iter() {
        let p = p.index();
        let (mine, others) = (pawns & own[p], pawns & !own[p]);
        for cell in mine {
            let Some(pawn) = pos.piece_at(cell) else {
                continue;
            };
            let (army, slot) = (pawn.army(), cell.slot());
            if (t.passed_guards[army.index()][slot] & others).is_empty() {
                score[p] += t.passed_bonus[army.index()][slot];
            }
            if (t.pawn_ways[army.index()][slot] & mine).nonempty() {
                score[p] -= t.pawn_doubled;
            }
            let guards = game.pawns[army.index()].at(cell).captured_from & mine;
            if guards
                .into_iter()
                .any(|g| pos.piece_at(g).is_some_and(|q| q.army() == army))
            {
                score[p] += t.pawn_supported;
            }
        }
    }
}

/// The reach of the officer of `kind` on `from` (as [`Position::reach`]),
/// and the cells it depends on (none for a leaper).
#[inline(always)]
fn officer_reach_watched(
    pos: &Position,
    kind: PieceKind,
    from: Cell,
    occupied: Bitboard,
) -> (Bitboard, Bitboard) {
    let g = &pos.game().geometry;
    let slider = |class| g.slider_reach_watched(class, from, occupied);
    match kind {
        PieceKind::Bishop => slider(SliderClass::Diagonal),
        PieceKind::Rook => slider(SliderClass::Straight),
        PieceKind::Queen => {
            let (straight, straight_watched) = slider(SliderClass::Straight);
            let (diagonal, diagonal_watched) = slider(SliderClass::Diagonal);
            (straight | diagonal, straight_watched | diagonal_watched)
        }
        _ => (pos.reach(kind, from, occupied), Bitboard::EMPTY),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::MoveList;
    use crate::position::walk::play_capturing_first;

    #[test]
    fn values_follow_the_board() {
        let derived = |v: Variant| EvalTables::build(v.game(), &EvalWeights::derived(v.game()));
        let queen = PieceKind::Queen.index();
        assert_eq!(derived(Variant::Chess).values[queen], 900);
        assert!(
            derived(Variant::Pyramid).values[queen] > 900,
            "26 directions reach further"
        );
        assert_eq!(derived(Variant::Star).values[PieceKind::Rook.index()], 400);
        // A game plays with its own weights, tuned where it has them.
        for v in Variant::ALL {
            assert_eq!(EvalTables::of(v).values, EvalWeights::of(v).material, "{v}");
        }
    }

    #[test]
    fn start_positions_are_balanced() {
        for v in Variant::ALL {
            let pos = Position::start(v);
            let mut s = evaluate(&pos);
            // The player to move has the tempo on top.
            s[pos.to_move().index()] -= EvalTables::of(v).tempo;
            let players = v.game().players;
            for p in 1..players {
                assert_eq!(s[p], s[0], "{v}: the start position is symmetric");
            }
        }
    }

    #[test]
    fn carried_reaches_give_the_fresh_activity() {
        for v in Variant::ALL {
            let mut cache = ReachCache::default();
            play_capturing_first(v, 60, 7, |pos, ply| {
                assert_eq!(
                    cache.activity(pos),
                    ReachCache::default().activity(pos),
                    "{v} after {ply} plies: {}",
                    pos.fen()
                );
            });
        }
    }

    #[test]
    fn known_reaches_are_the_reaches_of_the_board_evaluated_last() {
        for v in Variant::ALL {
            let mut cache = ReachCache::default();
            play_capturing_first(v, 60, 5, |pos, ply| {
                if ply > 0 && pos.occupied() != cache.occupied {
                    assert!(cache.known(pos).cells.is_empty(), "{v}: another board");
                }
                cache.activity(pos);
                let known = cache.known(pos);
                let mut officers = Bitboard::EMPTY;
                for kind in PieceKind::OFFICERS {
                    officers |= pos.kind(kind);
                    for from in pos.kind(kind) & known.cells {
                        assert_eq!(
                            known.reach[from.index()],
                            pos.reach(kind, from, pos.occupied()),
                            "{v} after {ply} plies, {kind:?} on {from:?}: {}",
                            pos.fen()
                        );
                    }
                }
                let in_game = pos.pieces_of_all(pos.state().in_game);
                assert_eq!(
                    known.cells,
                    officers & in_game,
                    "{v}: every officer in the game"
                );
                let mut tactical = MoveList::new();
                pos.generate_tactical(&mut tactical);
                let mut knowing = MoveList::new();
                pos.generate_tactical_knowing(known, &mut knowing);
                assert_eq!(tactical, knowing, "{v} after {ply} plies: {}", pos.fen());
            });
        }
    }

    #[test]
    fn reaches_shared_between_the_caches_are_the_fresh_ones() {
        for v in Variant::ALL {
            let mut evaluated = ReachCache::default();
            let mut movers: [ReachCache; MAX_PLAYERS] = Default::default();
            play_capturing_first(v, 60, 3, |pos, ply| {
                let mover = pos.to_move();
                movers[mover.index()].update_for_mover(pos, &evaluated);
                let known = movers[mover.index()].known(pos);
                for kind in PieceKind::OFFICERS {
                    for from in pos.kind(kind) & pos.pieces_of(mover) {
                        assert!(known.cells.has(from), "{v}: every officer of the mover");
                        assert_eq!(
                            known.reach[from.index()],
                            pos.reach(kind, from, pos.occupied()),
                            "{v} after {ply} plies, {kind:?} on {from:?}: {}",
                            pos.fen()
                        );
                    }
                }
                // Every other position evaluated, so that the caches drift apart.
                if ply % 2 == 0 {
                    assert_eq!(
                        evaluated.activity_sharing(pos, &movers),
                        ReachCache::default().activity(pos),
                        "{v} after {ply} plies: {}",
                        pos.fen()
                    );
                }
            });
        }
    }

    /// Every chess weight 0: a test sets the ones it looks at.
    fn zero_chess_weights() -> EvalWeights {
        EvalWeights::derived(Variant::Chess.game()).with_values(&[0; EvalWeights::COUNT])
    }

    /// The players' chess scores of a FEN, evaluated with `weights`.
    fn chess_scores(weights: EvalWeights) -> impl Fn(&str) -> [i32; MAX_PLAYERS] {
        let t = EvalTables::build(Variant::Chess.game(), &weights);
        move |fen| {
            let pos = Position::from_fen(Variant::Chess, fen).unwrap();
            evaluate_in(&t, &pos, &mut ReachCache::default())
        }
    }

    #[test]
    fn passed_pawns_get_their_bonus_by_distance_to_promotion() {
        let scores = chess_scores(EvalWeights {
            passed: [10, 20, 30, 40],
            ..zero_chess_weights()
        });
        let passed = |fen: &str| {
            let [white, black, _] = scores(fen);
            (white, black)
        };
        // Alone: by distance, 4 or more steps alike.
        assert_eq!(passed("4k3/4P3/8/8/8/8/8/4K3 w - - 0 1"), (10, 0));
        assert_eq!(passed("4k3/8/4P3/8/8/8/8/4K3 w - - 0 1"), (20, 0));
        assert_eq!(passed("4k3/8/8/4P3/8/8/8/4K3 w - - 0 1"), (30, 0));
        assert_eq!(passed("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"), (40, 0));
        // A pawn that captures onto the other's way stops both.
        assert_eq!(passed("4k3/3p4/8/4P3/8/8/8/4K3 w - - 0 1"), (0, 0));
        // One in front on the same file stops both.
        assert_eq!(passed("4k3/4p3/8/4P3/8/8/8/4K3 w - - 0 1"), (0, 0));
        // Pawns past each other: both passed.
        assert_eq!(passed("4k3/8/8/4P3/3p4/8/8/4K3 w - - 0 1"), (30, 30));
        // A pawn two files away stops nothing.
        assert_eq!(passed("4k3/2p5/8/4P3/8/8/8/4K3 w - - 0 1"), (30, 40));
    }

    #[test]
    fn doubled_pawns_pay_and_guarded_pawns_gain() {
        let scores = chess_scores(EvalWeights {
            pawn_doubled: 15,
            pawn_supported: 10,
            ..zero_chess_weights()
        });
        let white = |fen: &str| scores(fen)[0];
        // Alone, a pawn neither pays nor gains.
        assert_eq!(white("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"), 0);
        // Two on a file: the one behind has the other on its way.
        assert_eq!(white("4k3/8/8/4P3/8/8/4P3/4K3 w - - 0 1"), -15);
        // A chain: the front pawn is guarded, the back one is not.
        assert_eq!(white("4k3/8/8/8/4P3/3P4/8/4K3 w - - 0 1"), 10);
        // Side by side, neither guards the other.
        assert_eq!(white("4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1"), 0);
        // An enemy pawn guards nothing of white's.
        assert_eq!(white("4k3/8/8/8/4P3/3p4/8/4K3 w - - 0 1"), 0);
        // All: e4 guarded by d3, d3 guarded by e2, and e2 behind e4.
        assert_eq!(white("4k3/8/8/8/4P3/3P4/4P3/4K3 w - - 0 1"), 10 + 10 - 15);
    }

    #[test]
    fn kings_want_shelter_in_the_middlegame_and_the_centre_in_the_endgame() {
        let scores = chess_scores(EvalWeights {
            king_shelter: 10,
            king_centre: KingCentre {
                middle: 64,
                end: 32,
            },
            ..zero_chess_weights()
        });
        let white = |fen: &str| scores(fen)[0];
        // Against a full army: h1 is the least central cell (9 cells
        // within two king steps, the centre has 25) with two pawns next to
        // it; g1 (12 cells) is 3/16 of the way in, with three.
        assert_eq!(white("rnbqkbnr/8/8/8/8/8/5PPP/7K w kq - 0 1"), 20);
        assert_eq!(white("rnbqkbnr/8/8/8/8/8/5PPP/6K1 w kq - 0 1"), 30 - 12);
        // The most central cell costs the whole middlegame weight.
        assert_eq!(white("rnbqkbnr/8/8/3K4/8/8/5PPP/8 w kq - 0 1"), -64);
        // With only a rook left the middlegame weighs 2 units of 12; with
        // no officer left the centre is worth the endgame weight.
        assert_eq!(white("4k3/8/8/8/3K4/8/8/8 w - - 0 1"), 32);
        assert_eq!(
            white("3rk3/8/8/8/3K4/8/8/8 w - - 0 1"),
            (-64 * 2 + 32 * 10) / 12
        );
    }

    #[test]
    fn learnt_squares_are_shared_by_the_armies_and_blended_by_phase() {
        let text = "square.middle.knight.e4 40\nsquare.end.knight.e4 10\n\
                    square.middle.king.g1 30\nsquare.end.king.g1 -20\n";
        let weights = zero_chess_weights().read(text).unwrap();
        let scores = chess_scores(weights);
        // A knight on its army's e4 (Black's e5), at full middlegame.
        let full = "rnbqkbnr/8/8/8/4N3/8/8/R1BQKBNR w - - 0 1";
        assert_eq!(scores(full)[0], 40);
        let full_black = "r1bqkbnr/8/8/4n3/8/8/8/RNBQKBNR w - - 0 1";
        assert_eq!(scores(full_black)[1], 40);
        // Bare kings and knights: the endgame values.
        assert_eq!(scores("4k3/8/8/8/4N3/8/8/4K3 w - - 0 1")[0], 10);
        assert_eq!(scores("6k1/8/8/8/8/8/8/6K1 w - - 0 1"), [-20, -20, 0]);
        // Against a rook (2 units of 12): a sixth of the way.
        assert_eq!(
            scores("3rk3/8/8/8/4N3/8/8/4K3 w - - 0 1")[0],
            40 + (10 - 40) * 10 / 12
        );
    }

    #[test]
    fn two_bishops_and_the_move_get_their_bonus() {
        let all = chess_scores(EvalWeights {
            bishop_pair: 50,
            tempo: 7,
            ..zero_chess_weights()
        });
        let scores = |fen: &str| {
            let [white, black, _] = all(fen);
            (white, black)
        };
        assert_eq!(scores("2b1k3/8/8/8/8/8/8/2B1KB2 w - - 0 1"), (57, 0));
        assert_eq!(scores("2b1kb2/8/8/8/8/8/8/2B1KB2 b - - 0 1"), (50, 57));
        assert_eq!(scores("4k3/8/8/8/8/8/8/2B1K3 b - - 0 1"), (0, 7));
    }

    #[test]
    fn no_pawn_is_passed_at_the_start() {
        for v in Variant::ALL {
            let game = v.game();
            let zero = EvalWeights::derived(game).with_values(&[0; EvalWeights::COUNT]);
            let t = EvalTables::build(
                game,
                &EvalWeights {
                    passed: [1; weights::PASSED_STEPS],
                    ..zero
                },
            );
            let start = Position::start(v);
            let scores = evaluate_in(&t, &start, &mut ReachCache::default());
            assert_eq!(scores, [0; MAX_PLAYERS], "{v}: every pawn faces another");
        }
    }

    #[test]
    fn pawns_gain_as_they_advance() {
        let t = EvalTables::of(Variant::Chess);
        let g = &Variant::Chess.game().geometry;
        let pawn = Piece::new(Army::new(0), PieceKind::Pawn);
        let bonus = |n: &str| t.piece_square(pawn, g.cell(n).unwrap());
        assert!(bonus("e7") > bonus("e5") && bonus("e5") > bonus("e2"));
    }
}
