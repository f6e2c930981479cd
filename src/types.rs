//! Small typed values shared by every module: cells, players, armies, pieces.

use std::num::NonZeroU8;

/// Largest number of cells a board may have (one bit each in a `u128`).
pub const MAX_CELLS: usize = 128;

/// Largest number of players (and armies) of any game.
pub const MAX_PLAYERS: usize = 3;

/// A cell of a board, by its index in the board's cell list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(u8);

impl Cell {
    /// The cell with index `index` (`index < MAX_CELLS`).
    #[inline(always)]
    pub const fn new(index: u8) -> Cell {
        debug_assert!((index as usize) < MAX_CELLS);
        Cell(index)
    }

    /// The cell's index in its board's cell list.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The cell's index into a table of [`MAX_CELLS`] entries (a
    /// `PerCell` table): the index, masked so that the compiler sees it
    /// in bounds and drops the check (every cell is below `MAX_CELLS`).
    #[inline(always)]
    pub const fn slot(self) -> usize {
        self.0 as usize % MAX_CELLS
    }
}

/// A seat at the table, numbered 0, 1, 2 in turn order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Player(u8);

impl Player {
    /// Player number `index` (`index < MAX_PLAYERS`).
    #[inline(always)]
    pub const fn new(index: usize) -> Player {
        debug_assert!(index < MAX_PLAYERS);
        Player(index as u8)
    }

    /// The player's number in turn order.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The army this player starts the game with.
    #[inline(always)]
    pub const fn army(self) -> Army {
        Army(self.0)
    }
}

/// A set of pieces of one colour. Army `i` starts under player `i`; in
/// Hexenschach and Trichess (`AfterMate inherit`) another player may take it
/// over, and its pawns keep moving as this army's pawns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Army(u8);

impl Army {
    /// Army number `index` (`index < MAX_PLAYERS`).
    #[inline(always)]
    pub const fn new(index: usize) -> Army {
        debug_assert!(index < MAX_PLAYERS);
        Army(index as u8)
    }

    /// The army's number.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The player this army starts under.
    #[inline(always)]
    pub const fn owner(self) -> Player {
        Player(self.0)
    }
}

/// A set of players as a bit mask.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PlayerSet(u8);

impl PlayerSet {
    /// Nobody.
    pub const EMPTY: PlayerSet = PlayerSet(0);

    /// Players `0..count`.
    pub const fn first(count: usize) -> PlayerSet {
        PlayerSet((1 << count) - 1)
    }

    /// The set with mask `bits` (bit `i` for player `i`).
    pub const fn from_bits(bits: u8) -> PlayerSet {
        PlayerSet(bits & ((1 << MAX_PLAYERS) - 1))
    }

    /// Whether `player` is in the set.
    #[inline(always)]
    pub const fn has(self, player: Player) -> bool {
        self.0 >> player.0 & 1 != 0
    }

    /// The set with `player` added.
    #[inline(always)]
    pub const fn with(self, player: Player) -> PlayerSet {
        PlayerSet(self.0 | 1 << player.0)
    }

    /// The set with `player` removed.
    #[inline(always)]
    pub const fn without(self, player: Player) -> PlayerSet {
        PlayerSet(self.0 & !(1 << player.0))
    }

    /// The number of players in the set.
    #[inline(always)]
    pub const fn count(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The raw mask (bit `i` for player `i`), e.g. for hashing.
    #[inline(always)]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// The players of the set in turn order.
    pub fn iter(self) -> impl Iterator<Item = Player> {
        (0..MAX_PLAYERS)
            .map(Player::new)
            .filter(move |&p| self.has(p))
    }
}

/// The six kinds of pieces. Games with other piece names map them onto these
/// (Hexenschach: Rabe = King, Hexe = Queen, Turm = Rook, Besen = Bishop,
/// Fledermaus = Knight, Kröte = Pawn).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum PieceKind {
    /// Pawn (`P`).
    Pawn = 0,
    /// Knight (`N`).
    Knight = 1,
    /// Bishop (`B`).
    Bishop = 2,
    /// Rook (`R`).
    Rook = 3,
    /// Queen (`Q`).
    Queen = 4,
    /// King (`K`).
    King = 5,
}

impl PieceKind {
    /// Number of piece kinds.
    pub const COUNT: usize = 6;

    /// All kinds, in index order.
    pub const ALL: [PieceKind; 6] = [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
        PieceKind::King,
    ];

    /// The officers: the kinds that are neither pawn nor king, in index order.
    pub const OFFICERS: [PieceKind; 4] = [
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ];

    /// The kinds a pawn may promote to, strongest first.
    pub const PROMOTIONS: [PieceKind; 4] = [
        PieceKind::Queen,
        PieceKind::Rook,
        PieceKind::Bishop,
        PieceKind::Knight,
    ];

    /// The kind's index (`0..COUNT`).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with index `index`, if any.
    pub const fn from_index(index: usize) -> Option<PieceKind> {
        if index < Self::COUNT {
            Some(Self::ALL[index])
        } else {
            None
        }
    }

    /// The upper-case letter of the kind.
    pub const fn letter(self) -> char {
        match self {
            PieceKind::Pawn => 'P',
            PieceKind::Knight => 'N',
            PieceKind::Bishop => 'B',
            PieceKind::Rook => 'R',
            PieceKind::Queen => 'Q',
            PieceKind::King => 'K',
        }
    }

    /// The kind written as `letter` (either case).
    pub fn from_letter(letter: char) -> Option<PieceKind> {
        PieceKind::ALL
            .into_iter()
            .find(|k| k.letter() == letter.to_ascii_uppercase())
    }
}

/// A piece on the board: its army and kind, packed into one non-zero byte so
/// that `Option<Piece>` is a byte too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece(NonZeroU8);

/// Spacing of armies in the packed piece byte.
const ARMY_STRIDE: u8 = 8;

impl Piece {
    /// The piece of `army` and `kind`.
    #[inline(always)]
    pub const fn new(army: Army, kind: PieceKind) -> Piece {
        match NonZeroU8::new(army.0 * ARMY_STRIDE + kind as u8 + 1) {
            Some(packed) => Piece(packed),
            None => unreachable!(),
        }
    }

    /// The piece's army.
    #[inline(always)]
    pub const fn army(self) -> Army {
        Army((self.0.get() - 1) / ARMY_STRIDE)
    }

    /// The piece's kind.
    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        PieceKind::ALL[((self.0.get() - 1) % ARMY_STRIDE) as usize]
    }

    /// Number of distinct values of [`Piece::index`].
    pub const SLOTS: usize = MAX_PLAYERS * ARMY_STRIDE as usize;

    /// A dense index of the piece (below [`Piece::SLOTS`]), for tables per piece.
    #[inline(always)]
    pub const fn index(self) -> usize {
        (self.0.get() - 1) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_packs_army_and_kind() {
        for army in 0..MAX_PLAYERS {
            for kind in PieceKind::ALL {
                let piece = Piece::new(Army::new(army), kind);
                assert_eq!(piece.army(), Army::new(army));
                assert_eq!(piece.kind(), kind);
                assert!(piece.index() < Piece::SLOTS);
            }
        }
        assert_eq!(std::mem::size_of::<Option<Piece>>(), 1);
    }

    #[test]
    fn player_sets() {
        let s = PlayerSet::first(3).without(Player::new(1));
        assert_eq!(s.count(), 2);
        assert_eq!(s.iter().map(Player::index).collect::<Vec<_>>(), vec![0, 2]);
        assert_eq!(PieceKind::from_letter('q'), Some(PieceKind::Queen));
    }
}
