//! Legal move generation for every game, from the board's tables.
//!
//! One generator serves all boards. It finds the checks and pins of the
//! mover's king from the geometry's lines; where the board's lines are exact
//! (one path per cell, no passing rule) pins and checks restrict targets by
//! masks alone, elsewhere the few moves that could expose the king are
//! verified by an attack test on the board after the move.

pub mod attacks;

pub use attacks::{AttackSource, Attackers, PiecesOn};

use crate::bitboard::Bitboard;
use crate::geometry::SliderClass;
use crate::moves::{Move, MoveSink};
use crate::position::KnownReaches;
use crate::position::Position;
use crate::types::{Army, Cell, MAX_PLAYERS, PieceKind};
use arrayvec::ArrayVec;
use std::cell::OnceCell;

/// Which of the legal moves a generation pass produces.
struct Stage;

impl Stage {
    /// Every legal move.
    const ALL: u8 = 0;
    /// Captures and promotions (en passant included).
    const TACTICAL: u8 = 1;
    /// The other moves: steps onto empty cells, two-cell pawn moves, castling.
    const QUIET: u8 = 2;
}

/// Most pins one king can be under at once (one per ray).
const MAX_PINS: usize = 32;

/// A piece pinned to its king on an exact line.
#[derive(Clone, Copy)]
struct Pin {
    pinned: Cell,
    pinner: Cell,
    class: SliderClass,
}

/// How the mover's king restricts the other pieces' moves.
struct Safety {
    /// Targets that answer a check (every cell when not in check).
    check_mask: Bitboard,
    /// Pieces pinned on exact lines.
    pinned: Bitboard,
    /// Each pin: the pinned piece, the pinning piece and the line's class.
    pins: ArrayVec<Pin, MAX_PINS>,
    /// Pieces whose every move must be verified on the board after the move.
    verify: Bitboard,
    /// Two or more checkers: only the king may move.
    double_check: bool,
}

impl Safety {
    /// No restriction (Hexenschach's phase A, or no king).
    fn unrestricted() -> Safety {
        Safety {
            check_mask: !Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
            pins: ArrayVec::new(),
            verify: Bitboard::EMPTY,
            double_check: false,
        }
    }

    /// The checks and pins of the king on `king`.
    fn of(pos: &Position, king: Cell, by: &Attackers, own: Bitboard) -> Safety {
        let g = &pos.game().geometry;
        let occupied = pos.occupied();
        let exact = g.exact_lines();
        let mut safety = Safety::unrestricted();

        let checkers = if g.unique_paths() {
            // One walk over the enemy sliders on the king's lines finds the
            // checking ones and the pieces that could open a line.
            let mut checkers = pos.non_slider_attackers_of(king, occupied, by);
            for class in SliderClass::BOTH {
                for sniper in g.lines(class, king) & by.sliders(class) {
                    safety.look_along(pos, king, sniper, class, own, &mut checkers);
                }
            }
            checkers
        } else {
            pos.attackers_of(king, occupied, by)
        };
        if checkers.nonempty() {
            // A move other than the king's must answer every check: capture
            // the checker or block its path. Two checks are answered by one
            // move only where their lines share a cell: on the section
            // boards a ray from the king forks, so two checkers on two
            // branches are blocked together on the trunk; under the passing
            // rule one piece can block one line on its path and another on
            // a passed cell.
            let mut answers_all = !Bitboard::EMPTY;
            for checker in checkers {
                // A king's or pawn's diagonal step onto the king is also
                // answered by filling the second of the cells it passes
                // between (passing rule; no cells elsewhere).
                let mut answers = Bitboard::from_cell(checker) | g.passed_cells(king, checker);
                for class in SliderClass::BOTH {
                    if by.sliders(class).has(checker) && g.lines(class, king).has(checker) {
                        answers |= g.between(class, king, checker);
                        if !exact {
                            answers |= g.line_passes(class, king, checker);
                        }
                    }
                }
                answers_all &= answers;
            }
            if answers_all.is_empty() {
                safety.double_check = true;
                safety.check_mask = Bitboard::EMPTY;
                return safety;
            }
            safety.check_mask = answers_all;
            if !exact {
                safety.verify = own;
            }
        }
        if exact {
            return safety;
        }

        if g.has_passing_rule() {
            // A king or pawn whose diagonal step onto the king is blocked
            // only because both passed cells are occupied: moving an own
            // piece off one of them could expose the king.
            let blocked = g.blocked_diagonal_steps(king, occupied);
            let mut steppers = blocked & by.kings;
            for (army, pawns) in by.pawns.iter().enumerate() {
                steppers |= blocked & *pawns & pos.game().pawns[army].at(king).captured_from;
            }
            for stepper in steppers {
                safety.verify |= g.passed_cells(king, stepper) & own;
            }
        }
        if !g.unique_paths() {
            // Rays fork: a piece between may block only one branch.
            for class in SliderClass::BOTH {
                for sniper in g.lines(class, king) & by.sliders(class) {
                    let blockers = g.between(class, king, sniper) & occupied;
                    let passed = g.line_passes(class, king, sniper) & occupied;
                    safety.verify |= (blockers | passed) & own;
                }
            }
        }
        safety
    }

    /// Looks along the line from the king on `king` to the enemy slider on
    /// `sniper` (boards with unique paths): a checker when nothing blocks
    /// it; a pin when one own piece alone stands between (under the passing
    /// rule only while no passed cell is occupied, else the piece is
    /// verified); the own pieces on passed cells are verified when only
    /// the passing rule blocks the line. A line blocked twice, or by an
    /// enemy piece on it, stays blocked after any move but en passant,
    /// which is always verified.
    #[inline(always)]
    fn look_along(
        &mut self,
        pos: &Position,
        king: Cell,
        sniper: Cell,
        class: SliderClass,
        own: Bitboard,
        checkers: &mut Bitboard,
    ) {
        let g = &pos.game().geometry;
        let occupied = pos.occupied();
        let blockers = g.between(class, king, sniper) & occupied;
        if blockers.is_empty() {
            if g.passing_allows(class, king, sniper, occupied) {
                *checkers = checkers.with(sniper);
            } else {
                self.verify |= g.line_passes(class, king, sniper) & occupied & own;
            }
        } else if !blockers.has_several() && (blockers & own).nonempty() {
            let pinned = blockers.first();
            // A pinned piece may step onto a passed cell and block the line
            // there: a pin mask is exact only while no passed cell is occupied.
            if g.has_passing_rule() && (g.line_passes(class, king, sniper) & occupied).nonempty() {
                self.verify = self.verify.with(pinned);
            } else {
                self.pinned = self.pinned.with(pinned);
                self.pins.push(Pin {
                    pinned,
                    pinner: sniper,
                    class,
                });
            }
        }
    }

    /// The cells the pinned piece on `from` may move to: along every line it is pinned on.
    fn pin_mask(&self, pos: &Position, king: Cell, from: Cell) -> Bitboard {
        let g = &pos.game().geometry;
        self.pins
            .iter()
            .filter(|pin| pin.pinned == from)
            .fold(!Bitboard::EMPTY, |mask, pin| {
                mask & g.between(pin.class, king, pin.pinner).with(pin.pinner)
            })
    }
}

/// Per-node facts the generator's parts share.
struct Context<'a> {
    pos: &'a Position,
    attackers: Attackers,
    own: Bitboard,
    /// The mover's pieces whose moves are generated.
    movers: Bitboard,
    /// Cells a piece may move to: empty, or holding a piece it may capture.
    reachable: Bitboard,
    /// The mover's king, if it stands on the board.
    own_king: Option<Cell>,
    /// Whether the game has check here (the mover must keep its king unattacked).
    king_safety: bool,
    /// Checks and pins, worked out when the first piece with a target
    /// needs them (often never when only captures are generated).
    safety: OnceCell<Safety>,
    /// Officers' reaches already known for this board.
    known: KnownReaches<'a>,
}

impl Context<'_> {
    /// The king whose safety restricts the moves: the mover's king where
    /// the game has check.
    #[inline(always)]
    fn guarded_king(&self) -> Option<Cell> {
        self.own_king.filter(|_| self.king_safety)
    }

    /// The checks and pins of the mover's king.
    #[inline(always)]
    fn safety(&self) -> &Safety {
        self.safety.get_or_init(|| match self.guarded_king() {
            Some(k) => Safety::of(self.pos, k, &self.attackers, self.own),
            None => Safety::unrestricted(),
        })
    }

    /// Whether the mover's king on `king` is in check.
    fn in_check(&self, king: Cell) -> bool {
        if self.king_safety {
            self.safety().check_mask != !Bitboard::EMPTY
        } else {
            let occupied = self.pos.occupied();
            self.pos
                .is_attacked(king, occupied, &self.attackers, Bitboard::EMPTY)
        }
    }

    /// Whether moving from `from` to `to` (also removing the pieces on
    /// `removed`) leaves the mover's king unattacked.
    #[inline]
    fn king_safe_after(&self, from: Cell, to: Cell, removed: Bitboard) -> bool {
        let Some(king) = self.guarded_king() else {
            return true;
        };
        let to_bit = Bitboard::from_cell(to);
        let occupied = (self.pos.occupied().without(from) | to_bit) & !removed;
        let king_after = if from == king { to } else { king };
        !self
            .pos
            .is_attacked(king_after, occupied, &self.attackers, to_bit | removed)
    }

    /// The cells the piece on `from` may move to as far as check and pins
    /// allow, before verification.
    #[inline(always)]
    fn allowed(&self, from: Cell) -> Bitboard {
        let s = self.safety();
        match self.guarded_king() {
            Some(king) if s.pinned.has(from) => s.check_mask & s.pin_mask(self.pos, king, from),
            _ => s.check_mask,
        }
    }

    /// Restricts `targets` of the piece on `from` by check, pins and verification.
    #[inline(always)]
    fn legal_targets(&self, from: Cell, targets: Bitboard) -> Bitboard {
        let targets = targets & self.allowed(from);
        if self.safety().verify.has(from) {
            self.verified(from, targets)
        } else {
            targets
        }
    }

    /// The cells of `targets` after which the king is safe.
    fn verified(&self, from: Cell, targets: Bitboard) -> Bitboard {
        targets
            .into_iter()
            .filter(|&to| self.king_safe_after(from, to, Bitboard::EMPTY))
            .collect()
    }
}

impl Position {
    /// Generates the moves the standard rules allow: every piece's moves that
    /// keep the mover's king unattacked (all moves where the game has no
    /// check), castling and en passant. Game ends and variant extras (passes,
    /// the duty to help) are added by [`Position::generate_moves`].
    pub(crate) fn generate_standard<S: MoveSink + ?Sized>(&self, sink: &mut S) {
        self.generate_standard_knowing(KnownReaches::NONE, sink);
    }

    /// [`Position::generate_standard`], taking the officers' reaches from
    /// `known` where it has them.
    pub(crate) fn generate_standard_knowing<S: MoveSink + ?Sized>(
        &self,
        known: KnownReaches,
        sink: &mut S,
    ) {
        let mut cx = self.context(!Bitboard::EMPTY);
        cx.known = known;
        self.generate_stage::<S, { Stage::ALL }>(&cx, sink);
    }

    /// The standard moves of the piece on `from` (none if it is not the
    /// mover's): [`Position::generate_standard`] for one piece.
    pub(crate) fn generate_standard_from<S: MoveSink + ?Sized>(&self, from: Cell, sink: &mut S) {
        let cx = self.context(Bitboard::from_cell(from));
        self.generate_stage::<S, { Stage::ALL }>(&cx, sink);
    }

    /// Generates the legal captures and promotions (for the quiescence
    /// search): the standard moves restricted to taking a piece or promoting,
    /// without castling and two-cell pawn moves.
    pub fn generate_tactical<S: MoveSink + ?Sized>(&self, sink: &mut S) {
        self.generate_tactical_knowing(KnownReaches::NONE, sink);
    }

    /// [`Position::generate_tactical`], taking the officers' reaches from
    /// `known` where it has them.
    pub fn generate_tactical_knowing<S: MoveSink + ?Sized>(
        &self,
        known: KnownReaches,
        sink: &mut S,
    ) {
        let mut cx = self.context(!Bitboard::EMPTY);
        cx.known = known;
        self.generate_stage::<S, { Stage::TACTICAL }>(&cx, sink);
    }

    /// The standard moves in two stages that share their work: the
    /// captures and promotions of [`Position::generate_tactical`], then,
    /// if `go_on` says so after seeing them, all the other moves.
    pub fn generate_standard_staged<S: MoveSink + ?Sized>(
        &self,
        sink: &mut S,
        go_on: impl FnOnce(&mut S) -> bool,
    ) {
        self.generate_standard_staged_knowing(KnownReaches::NONE, sink, go_on);
    }

    /// [`Position::generate_standard_staged`], taking the officers' reaches
    /// from `known` where it has them.
    pub fn generate_standard_staged_knowing<S: MoveSink + ?Sized>(
        &self,
        known: KnownReaches,
        sink: &mut S,
        go_on: impl FnOnce(&mut S) -> bool,
    ) {
        let mut cx = self.context(!Bitboard::EMPTY);
        cx.known = known;
        self.generate_stage::<S, { Stage::TACTICAL }>(&cx, sink);
        if go_on(sink) {
            self.generate_stage::<S, { Stage::QUIET }>(&cx, sink);
        }
    }

    /// What generating the moves of the mover's pieces on `from_cells` needs.
    #[inline(always)]
    fn context(&self, from_cells: Bitboard) -> Context<'_> {
        let mover = self.to_move();
        let own = self.pieces_of(mover);
        let opponents = self.state().active().without(mover);
        let king_safety = self.rules().king_safety(self);
        // Where kings need no safety they may be captured like any piece.
        let protected = if king_safety {
            self.kind(PieceKind::King)
        } else {
            Bitboard::EMPTY
        };
        let king = self.king_of(mover).filter(|&k| own.has(k));
        Context {
            pos: self,
            attackers: self.attackers(opponents),
            own,
            movers: own & from_cells,
            reachable: self.game().geometry.cells() & !own & !protected,
            own_king: king,
            king_safety,
            safety: OnceCell::new(),
            known: KnownReaches::NONE,
        }
    }

    /// The legal moves of `STAGE` (a [`Stage`]) of the pieces `cx` moves.
    fn generate_stage<S: MoveSink + ?Sized, const STAGE: u8>(&self, cx: &Context, sink: &mut S) {
        let game = self.game();
        let occupied = self.occupied();
        let open = match STAGE {
            Stage::TACTICAL => cx.reachable & occupied,
            Stage::QUIET => cx.reachable & !occupied,
            _ => cx.reachable,
        };
        let tactical_only = STAGE == Stage::TACTICAL;

        if let Some(k) = cx.own_king {
            if cx.movers.has(k) {
                // The passing rule is looked at only where a step is open.
                let steps = game.king_steps(k) & open;
                let mut targets = if steps.is_empty() {
                    steps
                } else {
                    steps & !game.geometry.blocked_diagonal_steps(k, occupied)
                };
                if cx.king_safety {
                    let without_king = occupied.without(k);
                    targets = targets
                        .into_iter()
                        .filter(|&t| {
                            !self.is_attacked(t, without_king, &cx.attackers, Bitboard::EMPTY)
                        })
                        .collect();
                }
                sink.push_targets(k, targets);
            }
            // In double check only the king moves (when only captures are
            // generated, the other pieces find no target allowed instead).
            if !tactical_only && cx.safety().double_check {
                return;
            }
        }

        for kind in PieceKind::OFFICERS {
            for from in self.kind(kind) & cx.movers {
                if sink.skips(from) {
                    continue;
                }
                // Captures only: a piece with no enemy on its lines is skipped
                // before its reach is worked out.
                if tactical_only && (game.empty_board_reach(kind, from) & open).is_empty() {
                    continue;
                }
                let reach = if cx.known.cells.has(from) {
                    cx.known.reach[from.slot()]
                } else {
                    self.reach(kind, from, occupied)
                };
                let targets = reach & open;
                if targets.is_empty() {
                    continue;
                }
                let safety = cx.safety();
                if (safety.pinned | safety.verify).has(from) {
                    sink.push_targets(from, cx.legal_targets(from, targets));
                } else {
                    sink.push_targets(from, targets & safety.check_mask);
                }
            }
        }

        for army in 0..MAX_PLAYERS {
            if self.state().controller[army] == Some(self.to_move()) {
                self.generate_pawn_moves::<S, STAGE>(cx, open, Army::new(army), sink);
            }
        }
        if STAGE != Stage::QUIET {
            self.generate_en_passant(cx, sink);
        }
        if let Some(k) = cx.own_king
            && !tactical_only
            && cx.movers.has(k)
        {
            self.generate_castling(cx, k, sink);
        }
    }

    /// The moves of `STAGE` of `army`'s pawns, onto `open` cells.
    fn generate_pawn_moves<S: MoveSink + ?Sized, const STAGE: u8>(
        &self,
        cx: &Context,
        open: Bitboard,
        army: Army,
        sink: &mut S,
    ) {
        let game = self.game();
        let g = &game.geometry;
        let tables = &game.pawns[army.index()];
        let occupied = self.occupied();
        let empty = !occupied;
        let capturable = occupied & open;
        let steps_allowed = match STAGE {
            Stage::TACTICAL => tables.promotion,
            Stage::QUIET => !tables.promotion,
            _ => !Bitboard::EMPTY,
        };
        let tactical_only = STAGE == Stage::TACTICAL;
        for from in self.kind(PieceKind::Pawn) & self.army(army) & cx.movers {
            if sink.skips(from) {
                continue;
            }
            let cell = tables.at(from);
            let mut captures = cell.captures & capturable;
            if captures.nonempty() {
                captures &= !g.blocked_diagonal_steps(from, occupied);
            }
            let mut targets = (cell.single & empty & steps_allowed) | captures;
            if tactical_only && targets.is_empty() {
                continue;
            }
            let safety = cx.safety();
            let restricted = (safety.pinned | safety.verify).has(from);
            let allowed = if restricted {
                cx.allowed(from)
            } else {
                safety.check_mask
            };
            let verify = restricted && safety.verify.has(from);
            targets &= allowed;
            if verify {
                targets = cx.verified(from, targets);
            }
            let promoting = targets & tables.promotion;
            if promoting.nonempty() {
                sink.push_promotions(from, promoting);
                targets ^= promoting;
            }
            sink.push_targets(from, targets);
            if tactical_only {
                continue;
            }
            for double in cell.doubles() {
                if (occupied & double.path).is_empty()
                    && allowed.has(double.target)
                    && (!verify || cx.king_safe_after(from, double.target, Bitboard::EMPTY))
                {
                    sink.push(Move::double_step(from, double.target, double.skipped));
                }
            }
        }
    }

    fn generate_en_passant<S: MoveSink + ?Sized>(&self, cx: &Context, sink: &mut S) {
        let game = self.game();
        let g = &game.geometry;
        let mover = self.to_move();
        let occupied = self.occupied();
        let pawns = self.kind(PieceKind::Pawn) & cx.movers;
        for (owner, entry) in self.en_passant().iter().enumerate() {
            let Some(entry) = entry else { continue };
            if owner == mover.index()
                || occupied.has(entry.skipped)
                || (game.pawn_capture_sources[entry.skipped.slot()] & pawns).is_empty()
            {
                continue;
            }
            let two_stepper = self.piece_at(entry.pawn);
            if !two_stepper.is_some_and(|p| {
                p.kind() == PieceKind::Pawn
                    && self.controller(p).is_some_and(|c| c.index() == owner)
            }) {
                continue;
            }
            let mut blocked = None;
            for army in 0..MAX_PLAYERS {
                if self.state().controller[army] != Some(mover) {
                    continue;
                }
                let capturers = game.pawns[army].at(entry.skipped).captured_from
                    & self.kind(PieceKind::Pawn)
                    & self.army(Army::new(army))
                    & cx.movers;
                if capturers.is_empty() {
                    continue;
                }
                let blocked = *blocked
                    .get_or_insert_with(|| g.blocked_diagonal_steps(entry.skipped, occupied));
                for from in capturers & !blocked {
                    let removed = Bitboard::from_cell(entry.pawn);
                    if !cx.king_safety || cx.king_safe_after(from, entry.skipped, removed) {
                        sink.push(Move::en_passant(from, entry.skipped, entry.pawn));
                    }
                }
            }
        }
    }

    fn generate_castling<S: MoveSink + ?Sized>(&self, cx: &Context, king: Cell, sink: &mut S) {
        let game = self.game();
        let rights = self.castling_rights();
        if rights == 0 {
            return;
        }
        let occupied = self.occupied();
        let none = Bitboard::EMPTY;
        for (index, c) in game.castlings.iter().enumerate() {
            if rights & c.right_bit() == 0
                || c.king_from != king
                || self.state().controller[c.army.index()] != Some(self.to_move())
                || (occupied & c.must_be_empty).nonempty()
                || !self
                    .piece_at(c.rook_from)
                    .is_some_and(|p| p.kind() == PieceKind::Rook && p.army() == c.army)
                || cx.in_check(king)
                || { c.must_be_safe }
                    .into_iter()
                    .any(|cell| self.is_attacked(cell, occupied, &cx.attackers, none))
            {
                continue;
            }
            if cx.king_safety {
                let after = (occupied.without(c.king_from).without(c.rook_from))
                    .with(c.king_to)
                    .with(c.rook_to);
                if self.is_attacked(c.king_to, after, &cx.attackers, none) {
                    continue;
                }
            }
            sink.push(Move::castle(c.king_from, c.king_to, index));
        }
    }

    /// Whether the player to move is in check: its king attacked while the
    /// game has check (not in Hexenschach's phase A, where a Rabe may stand
    /// attacked).
    pub fn in_check(&self) -> bool {
        if !self.rules().king_safety(self) {
            return false;
        }
        let mover = self.to_move();
        match self.king_of(mover) {
            Some(king) => self.is_attacked_by(king, self.state().active().without(mover)),
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::game::Variant;
    use crate::position::Position;

    /// Dreierschach: the white rook on f4 stands between its king on d3 and
    /// a black bishop on j6 (diagonal d3-f4-h5-j6). The step f4-h5 passes
    /// between g4 and g5, and a pawn stands on g5.
    const PINNED_BESIDE_A_PASS: &str = "1nK3bK/7/8/9/10/11/12/9bB3/6bP5/5wR5/3wK6/9/8 w - - 0 1";

    /// The same line with nothing on it: the rook on g4 and the pawn on g5
    /// block only the step f4-h5, by the passing rule.
    const BLOCKING_BY_A_PASS: &str = "1nK3bK/7/8/9/10/11/12/9bB3/6bP5/6wR4/3wK6/9/8 w - - 0 1";

    #[test]
    fn a_piece_blocking_by_the_passing_rule_keeps_the_line_closed() {
        let pos = Position::from_fen(Variant::Dreierschach, BLOCKING_BY_A_PASS).unwrap();
        assert!(!pos.in_check());
        // Off g4 the step f4-h5 opens, unless the rook stands on the line.
        assert!(pos.parse_move("g4g3").is_err());
        assert!(pos.parse_move("g4h4").is_err());
        assert!(pos.parse_move("g4f4").is_ok());
        // The king's own moves are not restricted by the line.
        assert!(pos.parse_move("d3c3").is_ok());
    }

    #[test]
    fn a_pinned_piece_may_block_its_line_by_the_passing_rule() {
        let pos = Position::from_fen(Variant::Dreierschach, PINNED_BESIDE_A_PASS).unwrap();
        // On g4 the rook and the pawn on g5 block the step f4-h5.
        assert!(pos.parse_move("f4g4").is_ok());
        // On e4 it leaves the line open: the step d3-f4 passes between e3
        // and e4, and e3 is empty.
        assert!(pos.parse_move("f4e4").is_err());
        assert!(pos.parse_move("f4f3").is_err());
    }
}
