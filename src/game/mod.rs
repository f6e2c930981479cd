//! The description of a game: everything about it that play does not
//! change (its board's tables, players, pawns, castlings, start position
//! and the facts of its rules that are data), and the ids of the games.
//! Each game's file under `variants/` fills one in; nothing here runs a
//! rule.

pub mod frames;
pub mod outcome;
pub mod zobrist;

use crate::bitboard::Bitboard;
use crate::geometry::{Geometry, PerCell, SliderClass, per_cell};
use crate::types::{Army, Cell, MAX_PLAYERS, PieceKind, Player};
use outcome::EndReason;
use zobrist::Zobrist;

/// The game ids of the rule book.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Classical chess, the calibration game.
    Chess,
    /// Dreierschach 2.3 on 126 hexagons.
    Dreierschach,
    /// Hexenschach for three on 61 hexagons.
    Hexenschach,
    /// Schachpyramide without en passant.
    Pyramid,
    /// Schachpyramide with en passant.
    PyramidEp,
    /// Chess for three on the 96-square board.
    Trichess,
    /// Davidstern chess for three.
    Star,
}

impl Variant {
    /// Every game, in the order of the rule book's table.
    pub const ALL: [Variant; 7] = [
        Variant::Dreierschach,
        Variant::Hexenschach,
        Variant::Pyramid,
        Variant::PyramidEp,
        Variant::Trichess,
        Variant::Star,
        Variant::Chess,
    ];

    /// The game's id, as used by `UCI_Variant` and `--variant`.
    pub const fn id(self) -> &'static str {
        match self {
            Variant::Chess => "chess",
            Variant::Dreierschach => "dreierschach",
            Variant::Hexenschach => "hexenschach",
            Variant::Pyramid => "pyramid",
            Variant::PyramidEp => "pyramid-ep",
            Variant::Trichess => "trichess",
            Variant::Star => "star",
        }
    }

    /// The game with id `id` (any case).
    pub fn from_id(id: &str) -> Option<Variant> {
        Variant::ALL
            .into_iter()
            .find(|v| v.id().eq_ignore_ascii_case(id))
    }

    /// Whether the engine plays this game yet.
    pub const fn is_playable(self) -> bool {
        true
    }

    /// Number of games.
    pub const COUNT: usize = Variant::ALL.len();

    /// A dense index of the game (below [`Variant::COUNT`]), for tables per game.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// How long a two-cell pawn move leaves its skipped cell open to en passant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnPassantRule {
    /// The game has no en passant.
    None,
    /// Only the next move may capture (chess, pyramid-ep, trichess).
    NextMoveOnly,
    /// Any opponent may capture until the pawn's owner moves again (Dreierschach, Star).
    UntilOwnerMovesAgain,
}

/// A two-cell pawn move from some cell: the cell passed over (which must be
/// empty and becomes the en-passant cell) and the target.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DoubleStep {
    /// The cell passed over.
    pub skipped: Cell,
    /// Where the pawn lands.
    pub target: Cell,
    /// Both cells, which must be empty.
    pub path: Bitboard,
}

impl DoubleStep {
    /// The two-cell move over `skipped` to `target`.
    pub fn new(skipped: Cell, target: Cell) -> DoubleStep {
        DoubleStep {
            skipped,
            target,
            path: Bitboard::from_cell(skipped).with(target),
        }
    }
}

/// Most two-cell first moves a pawn has (the pyramid's three).
pub const MAX_DOUBLE_STEPS: usize = 3;

/// How a pawn of one army moves from one cell.
#[derive(Clone, Copy, Debug, Default)]
pub struct PawnCell {
    /// One-cell moves onto an empty cell.
    pub single: Bitboard,
    /// Capture targets.
    pub captures: Bitboard,
    /// The cells from which this army's pawns capture onto this cell.
    pub captured_from: Bitboard,
    /// Two-cell first moves (the first `double_count` entries).
    pub double: [DoubleStep; MAX_DOUBLE_STEPS],
    /// How many two-cell first moves there are.
    pub double_count: u8,
}

impl PawnCell {
    /// The two-cell first moves.
    #[inline(always)]
    pub fn doubles(&self) -> &[DoubleStep] {
        &self.double[..self.double_count as usize]
    }
}

/// How the pawns of one army move, cell by cell.
pub struct PawnTables {
    /// Moves from each cell.
    pub cells: PerCell<PawnCell>,
    /// Cells where this army's pawns promote.
    pub promotion: Bitboard,
    /// Cells where a pawn of this army may never stand (its own baseline).
    pub forbidden: Bitboard,
}

impl Default for PawnTables {
    fn default() -> Self {
        PawnTables {
            cells: per_cell(0, |_| PawnCell::default()),
            promotion: Bitboard::EMPTY,
            forbidden: Bitboard::EMPTY,
        }
    }
}

impl PawnTables {
    /// Tables for `cells` cells built from per-cell move lists.
    pub fn from_moves(
        cells: usize,
        single: impl Fn(Cell) -> Bitboard,
        double: impl Fn(Cell) -> Vec<DoubleStep>,
        captures: impl Fn(Cell) -> Bitboard,
        promotion: Bitboard,
        forbidden: Bitboard,
    ) -> PawnTables {
        let mut table = per_cell(cells, |c| {
            let doubles = double(c);
            assert!(
                doubles.len() <= MAX_DOUBLE_STEPS,
                "too many two-cell pawn moves"
            );
            let mut cell = PawnCell {
                single: single(c),
                captures: captures(c),
                double_count: doubles.len() as u8,
                ..PawnCell::default()
            };
            cell.double[..doubles.len()].copy_from_slice(&doubles);
            cell
        });
        for from in 0..cells {
            for to in table[from].captures {
                table[to.index()].captured_from =
                    table[to.index()].captured_from.with(Cell::new(from as u8));
            }
        }
        PawnTables {
            cells: table,
            promotion,
            forbidden,
        }
    }

    /// The moves from `cell`.
    #[inline(always)]
    pub fn at(&self, cell: Cell) -> &PawnCell {
        &self.cells[cell.slot()]
    }
}

/// The two castlings of an army: with the rook on the king's right (`K`) or left (`Q`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastlingSide {
    /// The rook on the king's right, as seen by the owner (`K` in positions).
    Right = 0,
    /// The rook on the king's left (`Q` in positions).
    Left = 1,
}

/// One castling: the king's and the rook's cells before and after, and which
/// cells must be empty and not attacked.
#[derive(Clone, Copy, Debug)]
pub struct Castling {
    /// The army castling.
    pub army: Army,
    /// Which rook.
    pub side: CastlingSide,
    /// The king's home cell.
    pub king_from: Cell,
    /// Where the king lands.
    pub king_to: Cell,
    /// The rook's home cell.
    pub rook_from: Cell,
    /// Where the rook lands.
    pub rook_to: Cell,
    /// Cells that must be empty (besides king and rook).
    pub must_be_empty: Bitboard,
    /// Cells no opponent may attack (judged before the move).
    pub must_be_safe: Bitboard,
}

impl Castling {
    /// The bit of this castling's right in the rights mask.
    pub const fn right_bit(&self) -> u8 {
        1 << (self.army.index() * 2 + self.side as usize)
    }
}

/// What running out of time does to a player in a match: the clocks are the
/// interface's, not the board's, but a game's rules may say what they mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockRule {
    /// The player loses the game (every game but Star).
    LosesOnTime,
    /// Star's clocks: a move over the time per move is forfeited and the
    /// next player is on turn; a player whose time for the game is used up
    /// is frozen (skipped from then on, its pieces stay on the board).
    ForfeitAndFreeze,
}

/// Which material left on the board ends the game as a draw at once: a
/// position from which no sequence of legal moves can mate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeadMaterial {
    /// Material never ends the game (Hexenschach, Star: other rules end it).
    Never,
    /// Only the kings left.
    BareKings,
    /// FIDE's dead positions by material alone: besides the kings at most
    /// one knight, or only bishops that all stand on cells of one colour
    /// (K v K, K+N v K, K+B v K, K+B v K+B with bishops on one colour).
    Fide {
        /// The cells of one of the board's two colours.
        light: Bitboard,
    },
}

/// The points a decisive end (a mate, Trichess's king exposure) gives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatePoints {
    /// The player who won it.
    pub winner: f64,
    /// The player who lost it.
    pub loser: f64,
    /// Each other player still in the game.
    pub others: f64,
}

impl MatePoints {
    /// The winner takes all.
    pub const WINNER_TAKES_ALL: MatePoints = MatePoints {
        winner: 1.0,
        loser: 0.0,
        others: 0.0,
    };
}

/// How a game's ends are scored: the rule book's points as data. Players
/// out of the game get nothing from an end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scoring {
    /// A decisive end's points, by the number of players in the game when
    /// it comes.
    pub mate: [MatePoints; MAX_PLAYERS + 1],
    /// Each player's share of a draw, by the number of players in the game.
    pub draw_share: [f64; MAX_PLAYERS + 1],
    /// The points of each piece kind in a game that ends on points (Star):
    /// a player's points are its pieces on the board and the enemy pieces
    /// it captured, and the player with most points wins where another
    /// game would be drawn. `None`: the game has no points.
    pub piece_points: Option<[u16; PieceKind::COUNT]>,
    /// Why the game ended when one player is left.
    pub last_player_end: EndReason,
}

impl Default for Scoring {
    /// A mate wins the game, a draw is half a point each.
    fn default() -> Scoring {
        Scoring {
            mate: [MatePoints::WINNER_TAKES_ALL; MAX_PLAYERS + 1],
            draw_share: [0.5; MAX_PLAYERS + 1],
            piece_points: None,
            last_player_end: EndReason::LastPlayer,
        }
    }
}

/// An optional field of the position format, written only by the games
/// whose state needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionalField {
    /// `out=`: the players out of the game, in the order they left.
    Out,
    /// `armies=`: who controls the armies of players out.
    Armies,
    /// `frozen=`: the players out of time (Star).
    Frozen,
    /// `passes=`: the passes played in a row (Star).
    Passes,
    /// `captured=`: the points each player captured (Star).
    Captured,
}

impl OptionalField {
    /// Every optional field, in the order they are written.
    pub const ALL: [OptionalField; 5] = [
        OptionalField::Out,
        OptionalField::Armies,
        OptionalField::Frozen,
        OptionalField::Passes,
        OptionalField::Captured,
    ];

    /// The field's name before its `=`.
    pub const fn name(self) -> &'static str {
        match self {
            OptionalField::Out => "out",
            OptionalField::Armies => "armies",
            OptionalField::Frozen => "frozen",
            OptionalField::Passes => "passes",
            OptionalField::Captured => "captured",
        }
    }
}

/// How a board's rows are labelled in text: by the part their cell names
/// share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowLabel {
    /// The row shares the end of its names (`a8`..`h8`: row `8`, columns `a`..`h`).
    Suffix,
    /// The row shares the start (`ba1`..`ba8`: row `ba`, columns `1`..`8`).
    Prefix,
    /// The row shares start and end (`1a8`..`1h8`: row `1.8`, columns `a`..`h`).
    Affixes,
}

/// How the protocol's `d` draws a board as text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextLayout {
    /// The rows of [`Game::rows`] as a grid.
    Grid(RowLabel),
    /// Offset rows of hexagons.
    Hexagon,
    /// The levels of a pyramid side by side.
    Levels,
    /// Three sections, one after another.
    Sections(RowLabel),
}

/// The facts of a game's rules that are data, not procedure. The defaults
/// are classical chess's, but for the claims and the material draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RuleFacts {
    /// Draw after this many rounds without capture (or pawn move where it counts).
    pub draw_rounds: u32,
    /// Whether a pawn move resets the draw clock (not in Hexenschach).
    pub pawn_move_resets_clock: bool,
    /// Whether a repetition or the move-count rule is a draw the players
    /// may claim (classical chess, FIDE 9.2 and 9.3), not the game's end.
    pub draws_are_claimed: bool,
    /// The material that ends the game as a draw.
    pub dead_material: DeadMaterial,
    /// What running out of time means.
    pub clock_rule: ClockRule,
    /// How the game's ends are scored.
    pub scoring: Scoring,
    /// The optional fields of the position format the game uses.
    pub optional_fields: &'static [OptionalField],
    /// Whether the armies of a player out may stay on the board as neutral
    /// obstacles that nobody moves (Trichess's `AfterMate obstacles`).
    pub neutral_armies: bool,
    /// Whether positions and moves are also written the classical way:
    /// standard FEN, SAN, and UCI's `position` without `UCI_Variant`.
    pub classical_notation: bool,
    /// How `d` draws the board.
    pub text_layout: TextLayout,
}

impl Default for RuleFacts {
    fn default() -> RuleFacts {
        RuleFacts {
            draw_rounds: 50,
            pawn_move_resets_clock: true,
            draws_are_claimed: false,
            dead_material: DeadMaterial::BareKings,
            clock_rule: ClockRule::LosesOnTime,
            scoring: Scoring::default(),
            optional_fields: &[],
            neutral_armies: false,
            classical_notation: false,
            text_layout: TextLayout::Grid(RowLabel::Suffix),
        }
    }
}

/// A position `triskel bench` runs in a game: a perft count or a search,
/// to a fixed depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchPosition {
    /// A short name for the output.
    pub name: &'static str,
    /// The position (in the position format, or standard FEN where the
    /// game has classical notation); `None`: the start position.
    pub position: Option<&'static str>,
    /// Depth in plies.
    pub depth: u32,
}

impl BenchPosition {
    /// The start position, to `depth`.
    pub const fn start(depth: u32) -> BenchPosition {
        BenchPosition {
            name: "start",
            position: None,
            depth,
        }
    }

    /// `position`, called `name`, to `depth`.
    pub const fn at(name: &'static str, position: &'static str, depth: u32) -> BenchPosition {
        BenchPosition {
            name,
            position: Some(position),
            depth,
        }
    }
}

/// What `triskel bench` runs in a game: its total of search nodes is the
/// engine's signature, so these are fixed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameBench {
    /// Perft counts.
    pub perft: &'static [BenchPosition],
    /// Fixed-depth searches.
    pub search: &'static [BenchPosition],
}

/// What a game's file says of it: its board, players, pieces' moves and
/// start, and the facts of its rules. [`Game::new`] derives the rest.
pub struct GameSpec {
    /// Which game.
    pub variant: Variant,
    /// The board's tables.
    pub geometry: Geometry,
    /// The players' (and armies') letters in turn order; their number is
    /// the number of players.
    pub letters: &'static str,
    /// The players' names in turn order.
    pub player_names: [&'static str; MAX_PLAYERS],
    /// The lines whose single steps are the king's.
    pub king_classes: &'static [SliderClass],
    /// The pawn tables of each army.
    pub pawns: Vec<PawnTables>,
    /// Every castling.
    pub castlings: Vec<Castling>,
    /// How long en passant lasts.
    pub en_passant: EnPassantRule,
    /// The start position in the position format.
    pub start: String,
    /// The board's rows in position-string order.
    pub rows: Vec<Vec<Cell>>,
    /// The facts of the rules.
    pub facts: RuleFacts,
    /// What `triskel bench` runs in the game.
    pub bench: GameBench,
}

/// Everything about one game that does not change during play.
pub struct Game {
    /// Which game.
    pub variant: Variant,
    /// The board's tables.
    pub geometry: Geometry,
    /// Number of players at the start.
    pub players: usize,
    /// Player (and army) letters in turn order.
    pub letters: [char; MAX_PLAYERS],
    /// Player names in turn order, for display.
    pub player_names: [&'static str; MAX_PLAYERS],
    /// King targets of every cell on an empty board.
    pub king_steps: PerCell<Bitboard>,
    /// For every cell, every cell from which some piece of some army could
    /// attack it on an empty board: a quick first test for attacks.
    pub attack_sources: PerCell<Bitboard>,
    /// For every cell, the cells from which a pawn of some army captures
    /// onto it: a quick first test for en-passant captures.
    pub pawn_capture_sources: PerCell<Bitboard>,
    /// Pawn tables of each army.
    pub pawns: [PawnTables; MAX_PLAYERS],
    /// All castlings; a castling move carries its index here.
    pub castlings: Vec<Castling>,
    /// For every cell, the rights that survive a move from or to it.
    pub castling_keep: Vec<u8>,
    /// How long en passant lasts.
    pub en_passant: EnPassantRule,
    /// The start position in the position format.
    pub start: String,
    /// Board rows in position-string order.
    pub rows: Vec<Vec<Cell>>,
    /// Hash keys.
    pub zobrist: Zobrist,
    /// The facts of the game's rules that are data.
    pub facts: RuleFacts,
    /// What `triskel bench` runs in the game.
    pub bench: GameBench,
}

impl Game {
    /// How the protocol names `player`: its letter and name, `w (White)`.
    pub fn player_label(&self, player: Player) -> String {
        let p = player.index();
        format!("{} ({})", self.letters[p], self.player_names[p])
    }

    /// The game of `spec`, with the tables every game derives the same
    /// way (king steps, attack sources, castling rights kept per cell,
    /// hash keys).
    pub fn new(spec: GameSpec) -> Game {
        let GameSpec {
            variant,
            geometry,
            letters,
            player_names,
            king_classes,
            pawns,
            castlings,
            en_passant,
            start,
            rows,
            facts,
            bench,
        } = spec;
        let players = letters.len();
        let mut letter_array = [' '; MAX_PLAYERS];
        for (slot, letter) in letter_array.iter_mut().zip(letters.chars()) {
            *slot = letter;
        }
        let n = geometry.cell_count();
        let king_steps = per_cell(n, |c| {
            king_classes.iter().fold(Bitboard::EMPTY, |acc, &class| {
                acc | geometry.steps(class, c)
            })
        });
        let mut castling_keep = vec![u8::MAX; n];
        for c in &castlings {
            castling_keep[c.king_from.index()] &= !(0b11 << (c.army.index() * 2));
            castling_keep[c.rook_from.index()] &= !c.right_bit();
        }
        let mut pawn_array: [PawnTables; MAX_PLAYERS] = Default::default();
        for (slot, tables) in pawn_array.iter_mut().zip(pawns) {
            *slot = tables;
        }
        let pawn_capture_sources = per_cell(n, |c| {
            pawn_array
                .iter()
                .fold(Bitboard::EMPTY, |acc, t| acc | t.at(c).captured_from)
        });
        let attack_sources = per_cell(n, |c| {
            SliderClass::BOTH.iter().fold(
                geometry.knight(c) | king_steps[c.index()] | pawn_capture_sources[c.index()],
                |acc, &class| acc | geometry.lines(class, c),
            )
        });
        Game {
            variant,
            attack_sources,
            pawn_capture_sources,
            zobrist: Zobrist::new(variant as u64, n),
            geometry,
            players,
            letters: letter_array,
            player_names,
            king_steps,
            pawns: pawn_array,
            castlings,
            castling_keep,
            en_passant,
            start,
            rows,
            facts,
            bench,
        }
    }

    /// The player (or army) index written as `letter`.
    pub fn player_index(&self, letter: char) -> Option<usize> {
        self.letters[..self.players]
            .iter()
            .position(|&l| l == letter.to_ascii_lowercase())
    }

    /// The king's targets from `cell` on an empty board.
    #[inline(always)]
    pub fn king_steps(&self, cell: Cell) -> Bitboard {
        self.king_steps[cell.slot()]
    }

    /// The cells a non-pawn piece of `kind` on `from` reaches on an empty
    /// board: a bound of its reach that costs one lookup (for a pawn, the
    /// king's steps, a bound of its captures).
    #[inline(always)]
    pub fn empty_board_reach(&self, kind: PieceKind, from: Cell) -> Bitboard {
        let g = &self.geometry;
        match kind {
            PieceKind::Knight => g.knight(from),
            PieceKind::Bishop => g.lines(SliderClass::Diagonal, from),
            PieceKind::Rook => g.lines(SliderClass::Straight, from),
            PieceKind::Queen => {
                g.lines(SliderClass::Straight, from) | g.lines(SliderClass::Diagonal, from)
            }
            PieceKind::King | PieceKind::Pawn => self.king_steps(from),
        }
    }

    /// The castling of `army` on `side`, if the game has it.
    pub fn castling(&self, army: Army, side: CastlingSide) -> Option<(usize, &Castling)> {
        self.castlings
            .iter()
            .enumerate()
            .find(|(_, c)| c.army == army && c.side == side)
    }
}

/// The set of `cells`.
pub fn cell_set(cells: impl IntoIterator<Item = Cell>) -> Bitboard {
    cells.into_iter().collect()
}
