//! Making and unmaking moves.

use super::{EnPassant, GameState, MAX_ROUND, Position, Removed};
use crate::game::{EnPassantRule, Game};
use crate::moves::{Move, MoveKind};
use crate::types::{Cell, MAX_PLAYERS, Piece, PieceKind, Player};
use arrayvec::ArrayVec;

/// What [`Position::unmake`] needs to restore the position before a move.
#[derive(Clone, Debug)]
pub struct Undo {
    captured: Option<(Cell, Piece)>,
    castling: u8,
    en_passant: [Option<EnPassant>; MAX_PLAYERS],
    draw_clock: u16,
    round: u32,
    to_move: Player,
    hash: u64,
    state: GameState,
    state_hash: u64,
    removed: Removed,
}

/// What [`Position::unmake_null`] needs.
#[derive(Clone, Debug)]
pub struct NullUndo {
    to_move: Player,
    en_passant: [Option<EnPassant>; MAX_PLAYERS],
    hash: u64,
}

impl Undo {
    /// The piece the move captured and where it stood.
    pub fn captured(&self) -> Option<(Cell, Piece)> {
        self.captured
    }

    /// Whether automatic events followed the move (pieces taken off the
    /// board, armies changing hands): more changed than the move itself.
    pub fn had_events(&self, after: &Position) -> bool {
        !self.removed.is_empty() || self.state.controller != after.state.controller
    }
}

impl Position {
    /// Plays `m`, which must be legal in this position, and returns what
    /// [`Position::unmake`] needs to take it back. Automatic events that
    /// follow the move (eliminations) are applied too.
    pub fn make(&mut self, m: Move) -> Undo {
        let game: &'static Game = self.game;
        let z = &game.zobrist;
        let mut undo = Undo {
            captured: None,
            castling: self.castling,
            en_passant: self.en_passant,
            draw_clock: self.draw_clock,
            round: self.round,
            to_move: self.to_move,
            hash: self.hash,
            state: self.state,
            state_hash: self.state_hash,
            removed: ArrayVec::new(),
        };
        self.history.push(self.hash);
        let mover = self.to_move;

        match game.en_passant {
            EnPassantRule::None => {}
            EnPassantRule::NextMoveOnly => {
                for p in 0..MAX_PLAYERS {
                    self.clear_en_passant(Player::new(p));
                }
            }
            EnPassantRule::UntilOwnerMovesAgain => self.clear_en_passant(mover),
        }

        let mut resets_clock = false;
        let mut keep_rights = u8::MAX;
        match m.kind() {
            MoveKind::Pass => {}
            MoveKind::Castle => {
                let c = &game.castlings[m.castle_index()];
                let king = self.take(c.king_from);
                let rook = self.take(c.rook_from);
                self.put(c.king_to, king);
                self.put(c.rook_to, rook);
                keep_rights &= game.castling_keep[c.king_from.index()];
            }
            MoveKind::Normal | MoveKind::DoubleStep | MoveKind::EnPassant => {
                let (from, to) = (m.from(), m.to());
                let piece = self.take(from);
                let victim_cell = if m.kind() == MoveKind::EnPassant {
                    m.aux_cell()
                } else {
                    to
                };
                if self.mailbox[victim_cell.index()].is_some() {
                    undo.captured = Some((victim_cell, self.take(victim_cell)));
                }
                let placed = m
                    .promotion_kind()
                    .map_or(piece, |kind| Piece::new(piece.army(), kind));
                self.put(to, placed);
                if piece.kind() == PieceKind::Pawn && game.facts.pawn_move_resets_clock {
                    resets_clock = true;
                }
                if m.kind() == MoveKind::DoubleStep && game.en_passant != EnPassantRule::None {
                    let entry = EnPassant {
                        skipped: m.aux_cell(),
                        pawn: to,
                    };
                    self.en_passant[mover.index()] = Some(entry);
                    self.hash ^= z.en_passant(mover, entry.skipped);
                }
                keep_rights &= game.castling_keep[from.index()] & game.castling_keep[to.index()];
            }
        }

        if let Some((victim_cell, victim)) = undo.captured {
            resets_clock = true;
            // An en-passant right lapses with the pawn that made the two-step.
            if victim.kind() == PieceKind::Pawn {
                for p in 0..MAX_PLAYERS {
                    if self.en_passant[p].is_some_and(|e| e.pawn == victim_cell) {
                        self.clear_en_passant(Player::new(p));
                    }
                }
            }
            if let Some(points) = &game.facts.scoring.piece_points {
                self.state.captured[mover.index()] += points[victim.kind().index()];
            }
        }
        let passes = if m.is_pass() {
            self.state.passes + 1
        } else {
            0
        };
        if passes != self.state.passes {
            self.state.passes = passes;
            self.rehash_state();
        }
        self.set_castling(self.castling & keep_rights);
        self.draw_clock = if resets_clock {
            0
        } else {
            self.clock_after_a_move()
        };

        let rules = self.rules;
        rules.after_move(self, mover, undo.captured, &mut undo.removed);
        let next = self.next_active_after(mover).unwrap_or(mover);
        self.set_to_move(next);
        rules.at_turn_start(self, &mut undo.removed);
        if undo.captured.is_some() || !undo.removed.is_empty() {
            self.release_empty_armies();
        }
        if self.to_move.index() <= mover.index() {
            self.round = (self.round + 1).min(MAX_ROUND);
        }
        undo
    }

    /// Takes back `m`, played from the position `undo` was made in. The
    /// pieces are moved back without touching the hash: it is restored.
    pub fn unmake(&mut self, m: Move, undo: &Undo) {
        let game: &'static Game = self.game;
        for &(cell, piece) in undo.removed.iter().rev() {
            self.put_leaving_hash(cell, piece);
        }
        match m.kind() {
            MoveKind::Pass => {}
            MoveKind::Castle => {
                let c = &game.castlings[m.castle_index()];
                let king = self.take_leaving_hash(c.king_to);
                let rook = self.take_leaving_hash(c.rook_to);
                self.put_leaving_hash(c.king_from, king);
                self.put_leaving_hash(c.rook_from, rook);
            }
            MoveKind::Normal | MoveKind::DoubleStep | MoveKind::EnPassant => {
                let placed = self.take_leaving_hash(m.to());
                let piece = if m.promotion_kind().is_some() {
                    Piece::new(placed.army(), PieceKind::Pawn)
                } else {
                    placed
                };
                self.put_leaving_hash(m.from(), piece);
                if let Some((cell, victim)) = undo.captured {
                    self.put_leaving_hash(cell, victim);
                }
            }
        }
        let control_changed = self.state.controller != undo.state.controller
            || self.state.in_game != undo.state.in_game;
        self.castling = undo.castling;
        self.en_passant = undo.en_passant;
        self.draw_clock = undo.draw_clock;
        self.round = undo.round;
        self.to_move = undo.to_move;
        self.state = undo.state;
        self.state_hash = undo.state_hash;
        if control_changed {
            self.refresh_control();
        }
        self.hash = undo.hash;
        self.history.pop();
    }

    /// Hands the turn to the next player without a move (the search's null
    /// move; not a pass of the rules). En-passant rights that last one move
    /// lapse. Returns what [`Position::unmake_null`] needs.
    pub fn make_null(&mut self) -> NullUndo {
        let undo = NullUndo {
            to_move: self.to_move,
            en_passant: self.en_passant,
            hash: self.hash,
        };
        self.history.push(self.hash);
        if self.game.en_passant == EnPassantRule::NextMoveOnly {
            for p in 0..MAX_PLAYERS {
                self.clear_en_passant(Player::new(p));
            }
        }
        let next = self.next_active_after(self.to_move).unwrap_or(self.to_move);
        self.set_to_move(next);
        undo
    }

    /// Takes back [`Position::make_null`].
    pub fn unmake_null(&mut self, undo: &NullUndo) {
        self.to_move = undo.to_move;
        self.en_passant = undo.en_passant;
        self.hash = undo.hash;
        self.history.pop();
    }

    /// Sets the player to move, keeping the hash.
    pub(crate) fn set_to_move(&mut self, player: Player) {
        let z = &self.game.zobrist;
        self.hash ^= z.to_move(self.to_move) ^ z.to_move(player);
        self.to_move = player;
    }

    /// Sets the castling rights, keeping the hash.
    pub(crate) fn set_castling(&mut self, rights: u8) {
        let z = &self.game.zobrist;
        self.hash ^= z.castling(self.castling) ^ z.castling(rights);
        self.castling = rights;
    }

    /// Removes `player`'s en-passant entry, keeping the hash.
    pub(crate) fn clear_en_passant(&mut self, player: Player) {
        if let Some(entry) = self.en_passant[player.index()].take() {
            self.hash ^= self.game.zobrist.en_passant(player, entry.skipped);
        }
    }

    /// Takes `player` out of the game: its king leaves the board (recorded in
    /// `removed`), its armies pass to `heir` (`None`: they stay as neutral
    /// obstacles), and its armies' castling rights lapse.
    pub(crate) fn eliminate(
        &mut self,
        player: Player,
        heir: Option<Player>,
        removed: &mut Removed,
    ) {
        if let Some(king) = self.king_of(player) {
            let piece = self.take(king);
            removed.push((king, piece));
        }
        let mut rights = self.castling;
        for army in 0..MAX_PLAYERS {
            if self.state.controller[army] == Some(player) {
                self.state.controller[army] = heir;
                rights &= !(0b11 << (2 * army));
            }
        }
        self.set_castling(rights);
        self.state.eliminate(player);
        self.clear_en_passant(player);
        self.refresh_control();
    }
}
