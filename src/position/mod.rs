//! A position of any game: who stands where, whose turn it is, and the state
//! the rules carry between moves (castling rights, en-passant entries,
//! counters, players out or frozen, who controls which army).

mod clock_events;
pub mod fen;
mod hooks;
mod make;
#[cfg(test)]
pub(crate) mod walk;

pub use clock_events::ClockEventError;
pub use hooks::{GameRules, MAX_REMOVED, Removed};
pub use make::{NullUndo, Undo};

use crate::bitboard::Bitboard;
use crate::game::{Game, Variant};
use crate::types::{Army, Cell, MAX_CELLS, MAX_PLAYERS, Piece, PieceKind, Player, PlayerSet};

/// An en-passant entry: the cell a pawn passed over and where it stands now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnPassant {
    /// The cell passed over: where a capturing pawn lands.
    pub skipped: Cell,
    /// The pawn that made the two-cell move.
    pub pawn: Cell,
}

/// Reaches of officers already worked out for the current board (carried
/// over by the search, see `search::eval::SearchReaches`), which the
/// generator takes instead of working them out again.
#[derive(Clone, Copy)]
pub struct KnownReaches<'a> {
    /// The cells whose officer's reach `reach` holds for the current board.
    pub cells: Bitboard,
    /// Per cell, the reach of the officer on it (as [`Position::reach`]).
    pub reach: &'a [Bitboard; MAX_CELLS],
}

impl KnownReaches<'static> {
    /// No reach known.
    pub const NONE: KnownReaches<'static> = KnownReaches {
        cells: Bitboard::EMPTY,
        reach: &[Bitboard::EMPTY; MAX_CELLS],
    };
}

/// What happens in Trichess at the first mate (engine option `AfterMate`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AfterMate {
    /// The game ends.
    #[default]
    End,
    /// The mated player's pieces stay as neutral obstacles; the others play on.
    Obstacles,
    /// The mated player's pieces pass to the winner of that mate.
    Inherit,
}

impl AfterMate {
    /// The option's values as written.
    pub const VALUES: [(&'static str, AfterMate); 3] = [
        ("end", AfterMate::End),
        ("obstacles", AfterMate::Obstacles),
        ("inherit", AfterMate::Inherit),
    ];

    /// The value written as `text` (any case).
    pub fn from_name(text: &str) -> Option<AfterMate> {
        Self::VALUES
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(text))
            .map(|&(_, v)| v)
    }

    /// The value's name.
    pub fn name(self) -> &'static str {
        Self::VALUES
            .iter()
            .find(|&&(_, v)| v == self)
            .map_or("end", |&(name, _)| name)
    }
}

/// The state that changes only at rare events: eliminations, freezing, passes
/// and captured material (Star's points).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameState {
    /// Players still in the game.
    pub in_game: PlayerSet,
    /// Players out of time (Star): skipped, their pieces inert.
    pub frozen: PlayerSet,
    /// The player controlling each army; `None` for neutral obstacles or an army without pieces.
    pub controller: [Option<Player>; MAX_PLAYERS],
    /// Players out, in the order they left.
    pub out_order: [Option<Player>; MAX_PLAYERS],
    /// Passes played in a row just before this position (Star).
    pub passes: u8,
    /// Points of enemy material each player has captured (Star).
    pub captured: [u16; MAX_PLAYERS],
}

impl GameState {
    /// The state at the start of a game of `players` players.
    pub fn new(players: usize) -> GameState {
        GameState {
            in_game: PlayerSet::first(players),
            frozen: PlayerSet::EMPTY,
            controller: std::array::from_fn(|a| (a < players).then(|| Player::new(a))),
            out_order: [None; MAX_PLAYERS],
            passes: 0,
            captured: [0; MAX_PLAYERS],
        }
    }

    /// Players that still move: in the game and not frozen.
    #[inline(always)]
    pub fn active(&self) -> PlayerSet {
        PlayerSet::from_bits(self.in_game.bits() & !self.frozen.bits())
    }

    /// The state packed into a number for hashing (everything but captured material).
    pub fn packed(&self) -> u64 {
        let controller = self
            .controller
            .iter()
            .enumerate()
            .fold(0u64, |acc, (a, c)| {
                acc | (c.map_or(3, |p| p.index() as u64)) << (2 * a)
            });
        let order = self.out_order.iter().enumerate().fold(0u64, |acc, (i, p)| {
            acc | (p.map_or(3, |p| p.index() as u64)) << (2 * i)
        });
        (self.in_game.bits() as u64)
            | (self.frozen.bits() as u64) << 3
            | controller << 6
            | order << 12
            | (self.passes as u64) << 18
    }

    /// Records that `player` is out.
    pub fn eliminate(&mut self, player: Player) {
        self.in_game = self.in_game.without(player);
        if let Some(slot) = self.out_order.iter_mut().find(|s| s.is_none()) {
            *slot = Some(player);
        }
    }
}

/// A position of one game.
#[derive(Clone)]
pub struct Position {
    game: &'static Game,
    rules: &'static dyn GameRules,
    by_kind: [Bitboard; PieceKind::COUNT],
    by_army: [Bitboard; MAX_PLAYERS],
    by_player: [Bitboard; MAX_PLAYERS],
    occupied: Bitboard,
    mailbox: [Option<Piece>; MAX_CELLS],
    to_move: Player,
    castling: u8,
    en_passant: [Option<EnPassant>; MAX_PLAYERS],
    draw_clock: u16,
    round: u32,
    state: GameState,
    after_mate: AfterMate,
    hash: u64,
    state_hash: u64,
    history: Vec<u64>,
}

/// Sixths of a round: the draw clock's unit, so that a move counts ⅓ of a
/// round with three players and ½ with two.
pub const CLOCK_UNITS_PER_ROUND: u16 = 6;

/// Clock units one move adds, by the number of players in the game.
pub const CLOCK_UNITS_PER_MOVE: [u16; 4] = [CLOCK_UNITS_PER_ROUND, CLOCK_UNITS_PER_ROUND, 3, 2];

/// The draw clock's bound in moves: it stops counting there, so that every
/// position the engine reaches is one its reader accepts (only classical
/// chess, whose move rule waits for a claim, can get so far).
pub const MAX_CLOCK_MOVES: u16 = 10_000;

/// The round number's bound: it stops counting there, as the draw clock does.
pub const MAX_ROUND: u32 = 1_000_000;

impl Position {
    /// An empty board of `game`, played by `rules`, `to_move` player 0,
    /// nothing else set.
    pub fn empty_of(game: &'static Game, rules: &'static dyn GameRules) -> Position {
        let state = GameState::new(game.players);
        let mut p = Position {
            game,
            rules,
            by_kind: [Bitboard::EMPTY; PieceKind::COUNT],
            by_army: [Bitboard::EMPTY; MAX_PLAYERS],
            by_player: [Bitboard::EMPTY; MAX_PLAYERS],
            occupied: Bitboard::EMPTY,
            mailbox: [None; MAX_CELLS],
            to_move: Player::new(0),
            castling: 0,
            en_passant: [None; MAX_PLAYERS],
            draw_clock: 0,
            round: 1,
            state,
            after_mate: AfterMate::End,
            hash: 0,
            state_hash: 0,
            history: Vec::new(),
        };
        p.hash = p.compute_hash();
        p
    }

    /// The game's fixed tables.
    #[inline(always)]
    pub fn game(&self) -> &'static Game {
        self.game
    }

    /// The game's rules where they are procedure.
    #[inline(always)]
    pub fn rules(&self) -> &'static dyn GameRules {
        self.rules
    }

    /// Which game this is.
    #[inline(always)]
    pub fn variant(&self) -> Variant {
        self.game.variant
    }

    /// The player to move.
    #[inline(always)]
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// All occupied cells.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// All pieces of `kind`, of every army.
    #[inline(always)]
    pub fn kind(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// All pieces of `army`.
    #[inline(always)]
    pub fn army(&self, army: Army) -> Bitboard {
        self.by_army[army.index()]
    }

    /// All pieces `player` controls (empty for a player out).
    #[inline(always)]
    pub fn pieces_of(&self, player: Player) -> Bitboard {
        self.by_player[player.index()]
    }

    /// The pieces the players of `players` control.
    #[inline(always)]
    pub fn pieces_of_all(&self, players: PlayerSet) -> Bitboard {
        players
            .iter()
            .fold(Bitboard::EMPTY, |acc, p| acc | self.pieces_of(p))
    }

    /// The piece on `cell`, if any.
    #[inline(always)]
    pub fn piece_at(&self, cell: Cell) -> Option<Piece> {
        self.mailbox[cell.index()]
    }

    /// The king `player` must keep safe: the king of its own army.
    #[inline(always)]
    pub fn king_of(&self, player: Player) -> Option<Cell> {
        let kings = self.by_kind[PieceKind::King.index()] & self.by_army[player.army().index()];
        kings.nonempty().then(|| kings.first())
    }

    /// The castling-rights mask (bit `2·army + side`).
    #[inline(always)]
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }

    /// The en-passant entry of each player.
    #[inline(always)]
    pub fn en_passant(&self) -> &[Option<EnPassant>; MAX_PLAYERS] {
        &self.en_passant
    }

    /// The rarely changing game state.
    #[inline(always)]
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// The draw clock in moves at the current number of players.
    pub fn clock_moves(&self) -> u32 {
        // Each player count divides by its own constant: the compiler turns
        // that into a multiplication, where a divisor read from the table
        // took a division in every node (the repetition test asks).
        let moves = match self.state.in_game.count() {
            3 => self.draw_clock / CLOCK_UNITS_PER_MOVE[3],
            2 => self.draw_clock / CLOCK_UNITS_PER_MOVE[2],
            _ => self.draw_clock / CLOCK_UNITS_PER_MOVE[1],
        };
        u32::from(moves)
    }

    /// The draw clock after one more move that does not reset it, at the
    /// current number of players (it stops at [`MAX_CLOCK_MOVES`]).
    #[inline(always)]
    pub(crate) fn clock_after_a_move(&self) -> u16 {
        let per_move = CLOCK_UNITS_PER_MOVE[self.state.in_game.count()];
        (self.draw_clock + per_move).min(MAX_CLOCK_MOVES * per_move)
    }

    /// The draw clock in sixths of a round.
    pub fn clock_units(&self) -> u16 {
        self.draw_clock
    }

    /// The round number.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// The position's hash (Zobrist).
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Hashes of the positions before this one in the game, oldest first.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// A copy without the game's history, for trying moves out (cloning
    /// would copy the history too).
    pub fn scratch_copy(&self) -> Position {
        Position {
            game: self.game,
            rules: self.rules,
            by_kind: self.by_kind,
            by_army: self.by_army,
            by_player: self.by_player,
            occupied: self.occupied,
            mailbox: self.mailbox,
            to_move: self.to_move,
            castling: self.castling,
            en_passant: self.en_passant,
            draw_clock: self.draw_clock,
            round: self.round,
            state: self.state,
            after_mate: self.after_mate,
            hash: self.hash,
            state_hash: self.state_hash,
            history: Vec::new(),
        }
    }

    /// The Trichess `AfterMate` rule this position is played with.
    pub fn after_mate(&self) -> AfterMate {
        self.after_mate
    }

    /// Sets the Trichess `AfterMate` rule.
    pub fn set_after_mate(&mut self, rule: AfterMate) {
        self.after_mate = rule;
    }

    /// The player who controls `piece`, if anyone does.
    #[inline(always)]
    pub fn controller(&self, piece: Piece) -> Option<Player> {
        self.state.controller[piece.army().index()]
    }

    /// Players that still move, after `player`, in turn order: the next one first.
    #[inline]
    pub fn next_active_after(&self, player: Player) -> Option<Player> {
        let active = self.state.active();
        let players = self.game.players;
        let mut next = player.index();
        for _ in 0..players {
            next += 1;
            if next == players {
                next = 0;
            }
            if active.has(Player::new(next)) {
                return Some(Player::new(next));
            }
        }
        None
    }

    /// Adds or removes `piece` on `cell` in every bitboard, and in the hash
    /// if `HASH` (taking a move back restores the hash as it was instead).
    #[inline(always)]
    fn toggle<const HASH: bool>(&mut self, cell: Cell, piece: Piece) {
        let bit = Bitboard::from_cell(cell);
        self.by_kind[piece.kind().index()] ^= bit;
        self.by_army[piece.army().index()] ^= bit;
        self.occupied ^= bit;
        if let Some(p) = self.controller(piece) {
            self.by_player[p.index()] ^= bit;
        }
        if HASH {
            self.hash ^= self.game.zobrist.piece(piece, cell);
        }
    }

    /// Puts `piece` on the empty `cell`.
    #[inline(always)]
    pub(crate) fn put(&mut self, cell: Cell, piece: Piece) {
        self.put_in::<true>(cell, piece);
    }

    /// Removes and returns the piece on `cell`, which must be occupied.
    #[inline(always)]
    pub(crate) fn take(&mut self, cell: Cell) -> Piece {
        self.take_in::<true>(cell)
    }

    /// [`Position::put`] leaving the hash as it is (taking a move back
    /// restores the hash instead).
    #[inline(always)]
    pub(crate) fn put_leaving_hash(&mut self, cell: Cell, piece: Piece) {
        self.put_in::<false>(cell, piece);
    }

    /// [`Position::take`] leaving the hash as it is.
    #[inline(always)]
    pub(crate) fn take_leaving_hash(&mut self, cell: Cell) -> Piece {
        self.take_in::<false>(cell)
    }

    /// [`Position::put`], with the hash brought along if `HASH`.
    #[inline(always)]
    fn put_in<const HASH: bool>(&mut self, cell: Cell, piece: Piece) {
        debug_assert!(self.mailbox[cell.index()].is_none());
        self.toggle::<HASH>(cell, piece);
        self.mailbox[cell.index()] = Some(piece);
    }

    /// [`Position::take`], with the hash brought along if `HASH`.
    #[inline(always)]
    fn take_in<const HASH: bool>(&mut self, cell: Cell) -> Piece {
        let piece = self.mailbox[cell.index()].expect("a piece to remove");
        self.toggle::<HASH>(cell, piece);
        self.mailbox[cell.index()] = None;
        piece
    }

    /// Rebuilds what each player controls from the armies' controllers.
    pub(crate) fn refresh_control(&mut self) {
        self.by_player = [Bitboard::EMPTY; MAX_PLAYERS];
        for a in 0..MAX_PLAYERS {
            if let Some(p) = self.state.controller[a]
                && self.state.in_game.has(p)
            {
                self.by_player[p.index()] |= self.by_army[a];
            }
        }
        self.rehash_state();
    }

    /// Releases the armies left without a piece: an army whose player is
    /// out and that has nothing on the board has no controller. The written
    /// position cannot say who controls an empty army, so this keeps a
    /// position's key equal to the key of its written form read back.
    pub(crate) fn release_empty_armies(&mut self) {
        let mut released = false;
        for a in 0..self.game.players {
            let owner_out = !self.state.in_game.has(Army::new(a).owner());
            if owner_out && self.by_army[a].is_empty() && self.state.controller[a].is_some() {
                self.state.controller[a] = None;
                released = true;
            }
        }
        if released {
            self.rehash_state();
        }
    }

    /// Brings the hash up to date after a change of [`GameState`].
    pub(crate) fn rehash_state(&mut self) {
        self.hash ^= self.state_hash;
        self.state_hash = self.game.zobrist.state(self.state.packed());
        self.hash ^= self.state_hash;
    }

    /// The hash computed from scratch (used when a position is set up).
    pub fn compute_hash(&self) -> u64 {
        let z = &self.game.zobrist;
        let mut h = z.to_move(self.to_move) ^ z.castling(self.castling) ^ self.state_hash;
        for cell in self.occupied {
            if let Some(piece) = self.mailbox[cell.index()] {
                h ^= z.piece(piece, cell);
            }
        }
        for (p, entry) in self.en_passant.iter().enumerate() {
            if let Some(e) = entry {
                h ^= z.en_passant(Player::new(p), e.skipped);
            }
        }
        h
    }
}
