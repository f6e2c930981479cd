//! The evaluation's weights: every term of [`super::eval`] as a named
//! number, per game. A game's weights are the ones `triskel tune` fitted
//! (text in `weights/<game>.txt`, kept with the command that produced
//! them) where the registry has them, else derived from the board's
//! geometry and the classical values.
//!
//! The text is one weight per line, `name value`, in any order; `#` starts
//! a comment. A weight the text leaves out keeps its derived value:
//!
//! ```text
//! # triskel tune --variant chess --data chess.data
//! material.pawn 100
//! mobility.knight 4
//! king_danger 9
//! passed.2 40
//! square.middle.knight.e5 12
//! square.end.king.d4 20
//! ```
//!
//! The `square` weights are learnt piece-square values, on top of the
//! derived material, centralisation and pawn progress: per phase
//! (`middle`, `end`), kind and cell of the first army's view of the board
//! (each army's cells are carried onto it by [`crate::game::frames`]).
//! Their derived values are 0, and the text names only those that are not.

use crate::game::{Game, Variant};
use crate::types::{Cell, PieceKind};
use ahash::AHashMap;

/// Classical values (centipawns) on the 8×8 board, the scale the other
/// boards' derived values come from.
const CHESS_VALUES: [i32; PieceKind::COUNT] = [100, 320, 330, 500, 900, 0];

/// Centipawns per Star point (what a captured point is worth, and the
/// scale of Star's derived piece values).
pub const STAR_POINT: i32 = 100;

/// Derived centipawns per cell a piece reaches (mobility), by kind.
const MOBILITY: [i32; PieceKind::COUNT] = [0, 4, 4, 3, 2, 0];

/// Derived largest centralisation bonus, by kind.
const CENTRE: [i32; PieceKind::COUNT] = [0, 24, 16, 6, 10, 0];

/// Derived bonus per step a pawn has come towards promotion.
const PAWN_STEP: i32 = 6;

/// How many of the last steps before promotion have their own bonus.
pub const PAWN_NEAR_STEPS: usize = 3;

/// Derived extra bonus of a pawn 1, 2, 3 steps from promotion.
const PAWN_NEAR: [i32; PAWN_NEAR_STEPS] = [120, 60, 25];

/// Derived penalty per attack of an enemy piece on a cell next to the king.
const KING_DANGER: i32 = 9;

/// Derived bonus per own pawn next to the king, at full middlegame.
const KING_SHELTER: i32 = 10;

/// Derived penalty of a king on the most central cell at full middlegame,
/// and its bonus there in a bare endgame (scaled down to 0 on the least
/// central cell).
const KING_CENTRE: KingCentre = KingCentre {
    middle: 50,
    end: 50,
};

/// How many distances to promotion a passed pawn's bonus tells apart: 1,
/// 2, 3 steps, and 4 or more.
pub const PASSED_STEPS: usize = 4;

/// Derived bonus of a passed pawn by its distance to promotion: 1, 2, 3,
/// and 4 or more steps.
const PASSED: [i32; PASSED_STEPS] = [50, 35, 20, 10];

/// Derived penalty of a pawn with another pawn of its player on its way.
const PAWN_DOUBLED: i32 = 15;

/// Derived bonus of a pawn guarded by a pawn of its army.
const PAWN_SUPPORTED: i32 = 10;

/// Derived bonus of two bishops or more, and of the player to move: none
/// yet (there for the tuner to weigh).
const BISHOP_PAIR: i32 = 0;
const TEMPO: i32 = 0;

/// The names of the kinds in weight names.
const KIND_NAMES: [&str; PieceKind::COUNT] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

/// The kinds with a material weight (the king has none: it is never
/// captured).
const MATERIAL_KINDS: [PieceKind; 5] = [
    PieceKind::Pawn,
    PieceKind::Knight,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::Queen,
];

/// How much a king's centralisation is worth, by game phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingCentre {
    /// Penalty of a king on the most central cell while the enemies keep
    /// all their officers.
    pub middle: i32,
    /// Bonus of a king on the most central cell once the enemies have no
    /// officers left.
    pub end: i32,
}

/// The learnt piece-square weights of one game, in centipawns: per kind
/// and cell of the first army's view of the board, a value at full
/// middlegame and one in a bare endgame (a piece gets the blend its
/// player's game phase gives).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquareWeights {
    /// The game whose cells these are.
    pub variant: Variant,
    /// The middlegame values, at [`SquareWeights::index`].
    pub middle: Vec<i32>,
    /// The endgame values, at [`SquareWeights::index`].
    pub end: Vec<i32>,
}

impl SquareWeights {
    /// All 0: the derived values.
    pub fn zero(game: &Game) -> SquareWeights {
        let len = PieceKind::COUNT * game.geometry.cell_count();
        SquareWeights {
            variant: game.variant,
            middle: vec![0; len],
            end: vec![0; len],
        }
    }

    /// Where the values of `kind` on `cell` (of the first army's view)
    /// are kept.
    #[inline(always)]
    pub fn index(&self, kind: PieceKind, cell: Cell) -> usize {
        kind.index() * self.cells() + cell.index()
    }

    /// How many cells the board has.
    fn cells(&self) -> usize {
        self.middle.len() / PieceKind::COUNT
    }

    /// How many weights there are (both phases).
    pub fn len(&self) -> usize {
        self.middle.len() + self.end.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.middle.is_empty()
    }

    /// Whether some middlegame and endgame value differ (else a piece's
    /// value does not depend on the phase).
    pub fn tapered(&self) -> bool {
        self.middle != self.end
    }

    /// Calls `visit` with every weight's name and place: the middlegame
    /// values by kind and cell, then the endgame values.
    fn each_mut(&mut self, visit: &mut impl FnMut(String, &mut i32)) {
        let geometry = &self.variant.game().geometry;
        let cells = self.cells();
        for (phase, values) in [("middle", &mut self.middle), ("end", &mut self.end)] {
            for (i, weight) in values.iter_mut().enumerate() {
                let kind = KIND_NAMES[i / cells];
                let cell = geometry.name(Cell::new((i % cells) as u8));
                visit(format!("square.{phase}.{kind}.{cell}"), weight);
            }
        }
    }
}

/// The weights of one game's evaluation, in centipawns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalWeights {
    /// Material value by kind (the king's is 0).
    pub material: [i32; PieceKind::COUNT],
    /// Value per cell an officer reaches, by kind (pawns and kings: 0).
    pub mobility: [i32; PieceKind::COUNT],
    /// Bonus of an officer on the most central cell (scaled down to 0 on
    /// the least central), by kind (pawns and kings: 0).
    pub centre: [i32; PieceKind::COUNT],
    /// Bonus per step a pawn has come towards its promotion.
    pub pawn_step: i32,
    /// Extra bonus of a pawn 1, 2, 3 steps from promotion.
    pub pawn_near: [i32; PAWN_NEAR_STEPS],
    /// Penalty per attack of an enemy officer on a cell next to the king.
    pub king_danger: i32,
    /// Bonus per own pawn on a cell next to the king, while the enemies
    /// keep their officers (scaled down with them).
    pub king_shelter: i32,
    /// The king's centralisation by game phase.
    pub king_centre: KingCentre,
    /// Bonus of a passed pawn (one no enemy pawn can stop or capture on
    /// its way) 1, 2, 3, and 4 or more steps from promotion.
    pub passed: [i32; PASSED_STEPS],
    /// Penalty of a pawn with another pawn of its player on its way (the
    /// cells its single steps reach).
    pub pawn_doubled: i32,
    /// Bonus of a pawn that a pawn of its army guards (could capture onto
    /// its cell).
    pub pawn_supported: i32,
    /// Bonus of a player with two bishops or more.
    pub bishop_pair: i32,
    /// Bonus of the player to move.
    pub tempo: i32,
    /// The learnt piece-square values.
    pub squares: SquareWeights,
}

impl EvalWeights {
    /// The weights `variant` plays with: its tuned ones where the registry
    /// has them (over the derived ones), else the derived ones.
    pub fn of(variant: Variant) -> EvalWeights {
        let derived = EvalWeights::derived(variant.game());
        match variant.tuned_weights() {
            Some(text) => derived
                .read(text)
                .unwrap_or_else(|why| panic!("weights/{}.txt: {why}", variant.id())),
            None => derived,
        }
    }

    /// The weights derived from `game`'s board: the classical values
    /// scaled by the square root of how far each kind reaches on this board
    /// against the 8×8 board (Star: its capture points), and the same
    /// positional weights everywhere.
    pub fn derived(game: &Game) -> EvalWeights {
        let material = if let Some(points) = game.facts.scoring.piece_points {
            PieceKind::ALL.map(|k| i32::from(points[k.index()]) * STAR_POINT)
        } else {
            let chess = Variant::CLASSICAL.game();
            PieceKind::ALL.map(|k| {
                let ratio = average_reach(game, k) / average_reach(chess, k).max(1.0);
                (f64::from(CHESS_VALUES[k.index()]) * ratio.sqrt()).round() as i32
            })
        };
        EvalWeights {
            material,
            mobility: MOBILITY,
            centre: CENTRE,
            pawn_step: PAWN_STEP,
            pawn_near: PAWN_NEAR,
            king_danger: KING_DANGER,
            king_shelter: KING_SHELTER,
            king_centre: KING_CENTRE,
            passed: PASSED,
            pawn_doubled: PAWN_DOUBLED,
            pawn_supported: PAWN_SUPPORTED,
            bishop_pair: BISHOP_PAIR,
            tempo: TEMPO,
            squares: SquareWeights::zero(game),
        }
    }

    /// How many weights the terms other than the learnt piece-square
    /// values have: the same in every game (the first of
    /// [`EvalWeights::named`]).
    pub const COUNT: usize = MATERIAL_KINDS.len()
        + 2 * PieceKind::OFFICERS.len() // mobility and centre
        + 1 // pawn step
        + PAWN_NEAR_STEPS
        + 4 // king danger, shelter, centre in the middlegame and in the endgame
        + PASSED_STEPS
        + 2 // doubled and supported pawns
        + 2; // bishop pair and tempo

    /// How many weights there are, the learnt piece-square values
    /// included.
    pub fn len(&self) -> usize {
        Self::COUNT + self.squares.len()
    }

    /// Whether there are none (never: every game has its terms).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every weight with its name, in a fixed order (the tuner's vector):
    /// the [`EvalWeights::COUNT`] of the terms, then the piece-square
    /// values.
    pub fn named(&self) -> Vec<(String, i32)> {
        let mut copy = self.clone();
        let mut named = Vec::with_capacity(self.len());
        copy.each_mut(|name, weight| named.push((name, *weight)));
        named
    }

    /// The weights with the values of `values`, in [`EvalWeights::named`]'s order.
    pub fn with_values(&self, values: &[i32]) -> EvalWeights {
        let mut weights = self.clone();
        let mut values = values.iter();
        weights.each_mut(|_, weight| {
            if let Some(&value) = values.next() {
                *weight = value;
            }
        });
        weights
    }

    /// These weights overwritten by the ones `text` names (the format in
    /// the module's documentation).
    pub fn read(&self, text: &str) -> Result<EvalWeights, String> {
        let named = self.named();
        let places: AHashMap<&str, usize> = named
            .iter()
            .enumerate()
            .map(|(i, (name, _))| (name.as_str(), i))
            .collect();
        let mut values: Vec<i32> = named.iter().map(|&(_, value)| value).collect();
        for (number, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let at = || format!("line {}", number + 1);
            let [name, value] = line.split_whitespace().collect::<Vec<_>>()[..] else {
                return Err(format!(
                    "{}: expected a name and a value, got '{line}'",
                    at()
                ));
            };
            let value: i32 = value
                .parse()
                .map_err(|_| format!("{}: '{value}' is not a whole number", at()))?;
            let Some(&place) = places.get(name) else {
                return Err(format!("{}: no weight is called '{name}'", at()));
            };
            values[place] = value;
        }
        Ok(self.with_values(&values))
    }

    /// The weights as text, one per line (read back by
    /// [`EvalWeights::read`]): every term's, and the piece-square values
    /// that are not 0.
    pub fn text(&self) -> String {
        self.named()
            .into_iter()
            .enumerate()
            .filter(|&(i, (_, value))| i < Self::COUNT || value != 0)
            .map(|(_, (name, value))| format!("{name} {value}\n"))
            .collect()
    }

    /// Calls `visit` with every weight's name and place, in the fixed order.
    fn each_mut(&mut self, mut visit: impl FnMut(String, &mut i32)) {
        for kind in MATERIAL_KINDS {
            let name = KIND_NAMES[kind.index()];
            visit(format!("material.{name}"), &mut self.material[kind.index()]);
        }
        for kind in PieceKind::OFFICERS {
            let name = KIND_NAMES[kind.index()];
            visit(format!("mobility.{name}"), &mut self.mobility[kind.index()]);
        }
        for kind in PieceKind::OFFICERS {
            let name = KIND_NAMES[kind.index()];
            visit(format!("centre.{name}"), &mut self.centre[kind.index()]);
        }
        visit("pawn_step".to_string(), &mut self.pawn_step);
        for (steps, weight) in self.pawn_near.iter_mut().enumerate() {
            visit(format!("pawn_near.{}", steps + 1), weight);
        }
        visit("king_danger".to_string(), &mut self.king_danger);
        visit("king_shelter".to_string(), &mut self.king_shelter);
        visit(
            "king_centre.middle".to_string(),
            &mut self.king_centre.middle,
        );
        visit("king_centre.end".to_string(), &mut self.king_centre.end);
        for (steps, weight) in self.passed.iter_mut().enumerate() {
            visit(format!("passed.{}", steps + 1), weight);
        }
        visit("pawn_doubled".to_string(), &mut self.pawn_doubled);
        visit("pawn_supported".to_string(), &mut self.pawn_supported);
        visit("bishop_pair".to_string(), &mut self.bishop_pair);
        visit("tempo".to_string(), &mut self.tempo);
        self.squares.each_mut(&mut visit);
    }
}

/// How many cells a piece of `kind` reaches from an average cell of an
/// empty board (a pawn: one).
fn average_reach(game: &Game, kind: PieceKind) -> f64 {
    let g = &game.geometry;
    let total: u32 = g
        .cells()
        .into_iter()
        .map(|c| match kind {
            PieceKind::Pawn => 1,
            _ => game.empty_board_reach(kind, c).count(),
        })
        .sum();
    f64::from(total) / g.cell_count().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_weight_has_its_own_name() {
        for variant in Variant::ALL {
            let game = variant.game();
            let weights = EvalWeights::derived(game);
            let named = weights.named();
            let cells = game.geometry.cell_count();
            assert_eq!(
                named.len(),
                EvalWeights::COUNT + 2 * PieceKind::COUNT * cells
            );
            assert_eq!(named.len(), weights.len());
            let mut names: Vec<&str> = named.iter().map(|(name, _)| name.as_str()).collect();
            assert!(names.iter().all(|name| !name.contains(char::is_whitespace)));
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), weights.len(), "{variant}");
        }
    }

    #[test]
    fn text_reads_back_as_the_weights() {
        for variant in Variant::ALL {
            let weights = EvalWeights::of(variant);
            assert_eq!(weights.read(&weights.text()), Ok(weights.clone()));
            let values: Vec<i32> = (1..=weights.len() as i32).collect();
            let moved = weights.with_values(&values);
            assert_eq!(weights.read(&moved.text()), Ok(moved.clone()), "{variant}");
            let read: Vec<i32> = moved.named().into_iter().map(|(_, v)| v).collect();
            assert_eq!(read, values, "{variant}");
        }
    }

    #[test]
    fn a_weights_text_names_known_weights_with_whole_numbers() {
        let derived = EvalWeights::derived(Variant::CLASSICAL.game());
        let read = derived
            .read("# a comment\n\nmaterial.queen 950 # more\nking_danger 12\n")
            .unwrap();
        assert_eq!(read.material[PieceKind::Queen.index()], 950);
        assert_eq!(read.king_danger, 12);
        assert_eq!(read.pawn_step, derived.pawn_step, "the rest is kept");
        assert!(derived.read("material.king 1").is_err());
        assert!(derived.read("material.queen nine").is_err());
        assert!(derived.read("material.queen").is_err());
        assert!(derived.read("material.queen 1 2").is_err());
        let squares = derived
            .read("square.middle.knight.e5 12\nsquare.end.king.d4 -20\n")
            .unwrap();
        let (e5, d4) = (Cell::new(36), Cell::new(27));
        assert_eq!(Variant::CLASSICAL.game().geometry.name(e5), "e5");
        assert_eq!(Variant::CLASSICAL.game().geometry.name(d4), "d4");
        let at = |kind, cell| squares.squares.index(kind, cell);
        assert_eq!(squares.squares.middle[at(PieceKind::Knight, e5)], 12);
        assert_eq!(squares.squares.end[at(PieceKind::King, d4)], -20);
        assert_eq!(squares.squares.end[at(PieceKind::Knight, e5)], 0);
        assert!(derived.read("square.middle.knight.z9 1").is_err());
    }

    #[test]
    fn every_shipped_weights_file_reads() {
        for variant in Variant::ALL {
            if let Some(text) = variant.tuned_weights() {
                let derived = EvalWeights::derived(variant.game());
                assert!(derived.read(text).is_ok(), "weights/{}.txt", variant.id());
            }
        }
    }
}
