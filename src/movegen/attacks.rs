//! The attack test: which pieces could move to a cell by their capture rule
//! (rule book README: "Attacked"), for any board.

use crate::bitboard::Bitboard;
use crate::geometry::SliderClass;
use crate::position::Position;
use crate::types::{Army, Cell, MAX_PLAYERS, PieceKind, PlayerSet};

/// The pieces that attack, sorted by how they attack. Built once per node
/// for the opponents of the player to move.
#[derive(Clone, Copy, Debug, Default)]
pub struct Attackers {
    /// Every attacking piece.
    pub all: Bitboard,
    /// Rooks and queens.
    pub straight: Bitboard,
    /// Bishops and queens.
    pub diagonal: Bitboard,
    /// Knights.
    pub knights: Bitboard,
    /// Kings.
    pub kings: Bitboard,
    /// Pawns, by army (each army's pawns capture in their own directions).
    pub pawns: [Bitboard; MAX_PLAYERS],
}

impl Attackers {
    /// The sliders of `class`.
    #[inline(always)]
    pub fn sliders(&self, class: SliderClass) -> Bitboard {
        match class {
            SliderClass::Straight => self.straight,
            SliderClass::Diagonal => self.diagonal,
        }
    }
}

/// The attacking pieces by how they attack, as the attack test asks for
/// them: sorted once ([`Attackers`]) where many cells are tested, or picked
/// out of the board when asked ([`PiecesOn`]) for a single test, which
/// often needs only a few of the sorts.
pub trait AttackSource {
    /// Every attacking piece.
    fn all(&self) -> Bitboard;
    /// Knights.
    fn knights(&self) -> Bitboard;
    /// Kings.
    fn kings(&self) -> Bitboard;
    /// Pawns, all armies together.
    fn pawns(&self) -> Bitboard;
    /// The pawns of `army`.
    fn pawns_of(&self, army: usize) -> Bitboard;
    /// The sliders of `class`.
    fn sliders(&self, class: SliderClass) -> Bitboard;
}

impl AttackSource for Attackers {
    #[inline(always)]
    fn all(&self) -> Bitboard {
        self.all
    }

    #[inline(always)]
    fn knights(&self) -> Bitboard {
        self.knights
    }

    #[inline(always)]
    fn kings(&self) -> Bitboard {
        self.kings
    }

    #[inline(always)]
    fn pawns(&self) -> Bitboard {
        self.pawns.iter().fold(Bitboard::EMPTY, |acc, &p| acc | p)
    }

    #[inline(always)]
    fn pawns_of(&self, army: usize) -> Bitboard {
        self.pawns[army % MAX_PLAYERS]
    }

    #[inline(always)]
    fn sliders(&self, class: SliderClass) -> Bitboard {
        Attackers::sliders(self, class)
    }
}

/// The pieces on `cells` of a position, sorted only as the attack test asks.
pub struct PiecesOn<'a> {
    /// The position the pieces stand in.
    pub pos: &'a Position,
    /// The attacking pieces' cells.
    pub cells: Bitboard,
}

impl AttackSource for PiecesOn<'_> {
    #[inline(always)]
    fn all(&self) -> Bitboard {
        self.cells
    }

    #[inline(always)]
    fn knights(&self) -> Bitboard {
        self.cells & self.pos.kind(PieceKind::Knight)
    }

    #[inline(always)]
    fn kings(&self) -> Bitboard {
        self.cells & self.pos.kind(PieceKind::King)
    }

    #[inline(always)]
    fn pawns(&self) -> Bitboard {
        self.cells & self.pos.kind(PieceKind::Pawn)
    }

    #[inline(always)]
    fn pawns_of(&self, army: usize) -> Bitboard {
        self.pawns() & self.pos.army(Army::new(army))
    }

    #[inline(always)]
    fn sliders(&self, class: SliderClass) -> Bitboard {
        let line_movers = match class {
            SliderClass::Straight => self.pos.kind(PieceKind::Rook),
            SliderClass::Diagonal => self.pos.kind(PieceKind::Bishop),
        };
        self.cells & (line_movers | self.pos.kind(PieceKind::Queen))
    }
}

impl Position {
    /// The attacking pieces of `players` (pieces they control).
    #[inline]
    pub fn attackers(&self, players: PlayerSet) -> Attackers {
        let all = self.pieces_of_all(players);
        let queens = self.kind(PieceKind::Queen);
        Attackers {
            all,
            straight: all & (self.kind(PieceKind::Rook) | queens),
            diagonal: all & (self.kind(PieceKind::Bishop) | queens),
            knights: all & self.kind(PieceKind::Knight),
            kings: all & self.kind(PieceKind::King),
            pawns: std::array::from_fn(|a| {
                all & self.kind(PieceKind::Pawn) & self.army(Army::new(a))
            }),
        }
    }

    /// All pieces of `by` that attack `cell` when `occupied` is the board.
    #[inline]
    pub fn attackers_of(&self, cell: Cell, occupied: Bitboard, by: &Attackers) -> Bitboard {
        let game = self.game();
        let g = &game.geometry;
        if (game.attack_sources[cell.slot()] & by.all).is_empty() {
            return Bitboard::EMPTY;
        }
        let mut found = self.non_slider_attackers_of(cell, occupied, by);
        for class in SliderClass::BOTH {
            let sliders = by.sliders(class);
            let candidates = g.lines(class, cell) & sliders;
            if candidates.is_empty() {
                continue;
            }
            if g.unique_paths() {
                for slider in candidates {
                    if g.reaches(class, cell, slider, occupied) {
                        found = found.with(slider);
                    }
                }
            } else {
                found |= g.slider_reach(class, cell, occupied) & sliders;
            }
        }
        found
    }

    /// The knights, kings and pawns of `by` that attack `cell` when
    /// `occupied` is the board: [`Position::attackers_of`] without sliders.
    #[inline(always)]
    pub fn non_slider_attackers_of(
        &self,
        cell: Cell,
        occupied: Bitboard,
        by: &Attackers,
    ) -> Bitboard {
        let g = &self.game().geometry;
        let mut found = g.knight(cell) & by.knights;
        let steppers = self.steppers_onto(cell, by, !Bitboard::EMPTY);
        if steppers.nonempty() {
            found |= steppers & !g.blocked_diagonal_steps(cell, occupied);
        }
        found
    }

    /// Whether a piece of `players` (a piece they control) attacks `cell`
    /// on the current board: [`Position::is_attacked`] for one test.
    pub fn is_attacked_by(&self, cell: Cell, players: PlayerSet) -> bool {
        let cells = self.pieces_of_all(players);
        let by = PiecesOn { pos: self, cells };
        self.is_attacked(cell, self.occupied(), &by, Bitboard::EMPTY)
    }

    /// Whether a piece of `by`, other than those on `ignore`, attacks `cell`
    /// when `occupied` is the board.
    #[inline]
    pub fn is_attacked<A: AttackSource>(
        &self,
        cell: Cell,
        occupied: Bitboard,
        by: &A,
        ignore: Bitboard,
    ) -> bool {
        let game = self.game();
        let g = &game.geometry;
        let live = !ignore;
        if (game.attack_sources[cell.slot()] & by.all() & live).is_empty() {
            return false;
        }
        if (g.knight(cell) & by.knights() & live).nonempty() {
            return true;
        }
        let steppers = self.steppers_onto(cell, by, live);
        if steppers.nonempty() && (steppers & !g.blocked_diagonal_steps(cell, occupied)).nonempty()
        {
            return true;
        }
        SliderClass::BOTH.into_iter().any(|class| {
            let sliders = by.sliders(class) & live;
            let candidates = g.lines(class, cell) & sliders;
            if candidates.is_empty() {
                false
            } else if g.unique_paths() {
                candidates
                    .into_iter()
                    .any(|slider| g.reaches(class, cell, slider, occupied))
            } else {
                (g.slider_reach(class, cell, occupied) & sliders).nonempty()
            }
        })
    }

    /// The kings and pawns of `by` on `live` that capture onto `cell` in
    /// one step, before the passing rule is applied to their steps.
    #[inline(always)]
    fn steppers_onto<A: AttackSource>(&self, cell: Cell, by: &A, live: Bitboard) -> Bitboard {
        let game = self.game();
        let mut steppers = game.king_steps(cell) & by.kings();
        if by.pawns().nonempty() {
            for army in 0..game.players {
                steppers |= game.pawns[army].at(cell).captured_from & by.pawns_of(army);
            }
        }
        steppers & live
    }

    /// The cells a non-pawn piece of `kind` on `from` moves to or attacks
    /// when `occupied` is the board (own pieces not excluded).
    #[inline(always)]
    pub fn reach(&self, kind: PieceKind, from: Cell, occupied: Bitboard) -> Bitboard {
        let game = self.game();
        let g = &game.geometry;
        match kind {
            PieceKind::Knight => g.knight(from),
            PieceKind::Bishop => g.slider_reach(SliderClass::Diagonal, from, occupied),
            PieceKind::Rook => g.slider_reach(SliderClass::Straight, from, occupied),
            PieceKind::Queen => {
                g.slider_reach(SliderClass::Straight, from, occupied)
                    | g.slider_reach(SliderClass::Diagonal, from, occupied)
            }
            PieceKind::King => game.king_steps(from) & !g.blocked_diagonal_steps(from, occupied),
            PieceKind::Pawn => {
                game.pawns[self.piece_at(from).map_or(0, |p| p.army().index())]
                    .at(from)
                    .captures
                    & !g.blocked_diagonal_steps(from, occupied)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Variant;
    use crate::position::walk::play_capturing_first;

    /// Picking the attackers out of the board when asked answers every
    /// attack test as sorting them first does: every cell, every set of
    /// players, on positions of every game (captures preferred, so that
    /// lines open up).
    #[test]
    fn pieces_picked_when_asked_attack_as_sorted_ones() {
        for v in Variant::ALL {
            play_capturing_first(v, 80, 5, |pos, ply| {
                for bits in 1..1u8 << v.game().players {
                    let players = PlayerSet::from_bits(bits);
                    let sorted = pos.attackers(players);
                    for cell in pos.game().geometry.cells() {
                        assert_eq!(
                            pos.is_attacked_by(cell, players),
                            pos.is_attacked(cell, pos.occupied(), &sorted, Bitboard::EMPTY),
                            "{v} after {ply} plies, {cell:?} by {bits:b}: {}",
                            pos.fen()
                        );
                    }
                }
            });
        }
    }
}
