//! Zobrist keys: one random 64-bit number per piece on a cell, player to
//! move, castling-rights mask and en-passant entry; a position's hash is the
//! XOR of the keys of what it holds, updated move by move.

use crate::types::{Cell, MAX_PLAYERS, Piece, PieceKind, Player};

/// Number of distinct castling-rights masks (two rights per army).
const CASTLING_MASKS: usize = 1 << (2 * MAX_PLAYERS);

/// Piece slots per army in the key table.
const KINDS: usize = PieceKind::COUNT;

/// The keys of one game.
pub struct Zobrist {
    cells: usize,
    pieces: Vec<u64>,
    to_move: [u64; MAX_PLAYERS],
    castling: [u64; CASTLING_MASKS],
    en_passant: Vec<u64>,
    state_salt: u64,
}

/// SplitMix64: a small, well-mixed generator for fixed, reproducible keys.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Zobrist {
    /// Keys for a board of `cells` cells, reproducible from `seed`.
    pub fn new(seed: u64, cells: usize) -> Zobrist {
        let mut state = seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 0x7472_6973_6B65_6C00;
        let mut next = || splitmix64(&mut state);
        let pieces = (0..MAX_PLAYERS * KINDS * cells).map(|_| next()).collect();
        let to_move = std::array::from_fn(|_| next());
        let mut castling = [0; CASTLING_MASKS];
        let bit_keys: Vec<u64> = (0..2 * MAX_PLAYERS).map(|_| next()).collect();
        for (mask, key) in castling.iter_mut().enumerate() {
            *key = (0..2 * MAX_PLAYERS)
                .filter(|b| mask >> b & 1 != 0)
                .fold(0, |acc, b| acc ^ bit_keys[b]);
        }
        let en_passant = (0..MAX_PLAYERS * cells).map(|_| next()).collect();
        Zobrist {
            cells,
            pieces,
            to_move,
            castling,
            en_passant,
            state_salt: next(),
        }
    }

    /// The key of `piece` standing on `cell`.
    #[inline(always)]
    pub fn piece(&self, piece: Piece, cell: Cell) -> u64 {
        let slot = piece.army().index() * KINDS + piece.kind().index();
        self.pieces[slot * self.cells + cell.index()]
    }

    /// The key of `player` to move.
    #[inline(always)]
    pub fn to_move(&self, player: Player) -> u64 {
        self.to_move[player.index()]
    }

    /// The key of a castling-rights mask.
    #[inline(always)]
    pub fn castling(&self, rights: u8) -> u64 {
        self.castling[rights as usize % CASTLING_MASKS]
    }

    /// The key of `player`'s en-passant entry over `skipped`.
    #[inline(always)]
    pub fn en_passant(&self, player: Player, skipped: Cell) -> u64 {
        self.en_passant[player.index() * self.cells + skipped.index()]
    }

    /// The key of the rarely changing game state, packed into a number
    /// (players in and frozen, who controls which army, passes in a row).
    pub fn state(&self, packed: u64) -> u64 {
        if packed == 0 {
            return 0;
        }
        let mut s = packed ^ self.state_salt;
        splitmix64(&mut s)
    }
}
