//! The rules around move generation that differ between games: when the
//! king must be kept safe, automatic events after a move (eliminations), the
//! moves a game adds or forbids (passes, the duty to help), and game ends.
//! Each game's own rules live in its file under `variants/`; this module
//! dispatches to them.

use crate::movegen::{KnownReaches, MoveCounter, MoveFinder, MoveSink};
use crate::moves::{Move, MoveList};
use crate::position::fen::PositionError;
use crate::position::{CLOCK_UNITS_PER_ROUND, Position};
use crate::types::{Cell, MAX_PLAYERS, Piece, PieceKind, Player};
use crate::variants::{DeadMaterial, Variant, dreierschach, hexenschach, star, trichess};
use arrayvec::ArrayVec;

/// Pieces taken off the board by automatic events after one move.
pub type Removed = ArrayVec<(Cell, Piece), 2>;

/// Whether the player to move must keep its king unattacked (not in
/// Hexenschach's phase A).
#[inline(always)]
pub fn king_safety(pos: &Position) -> bool {
    !(pos.variant() == Variant::Hexenschach && pos.state().in_game.count() == 3)
}

/// Whether kings may be captured like other pieces (Hexenschach's phase A).
#[inline(always)]
pub fn kings_capturable(pos: &Position) -> bool {
    !king_safety(pos)
}

/// Applies the events a move by `mover` triggers at once (e.g. a captured
/// Rabe hands its army over).
#[inline]
pub fn after_move(
    pos: &mut Position,
    mover: Player,
    captured: Option<(Cell, Piece)>,
    removed: &mut Removed,
) {
    if pos.variant() == Variant::Hexenschach {
        hexenschach::after_move(pos, mover, captured, removed);
    }
}

/// Applies the events due when a player's turn comes (e.g. Hexenschach's
/// elimination of a player without a move), until a player can move or the
/// game is over.
#[inline]
pub fn at_turn_start(pos: &mut Position, removed: &mut Removed) {
    match pos.variant() {
        Variant::Hexenschach => hexenschach::at_turn_start(pos, removed),
        Variant::Trichess => trichess::at_turn_start(pos, removed),
        _ => {}
    }
}

/// Whether the game is over by a rule that leaves the player to move without
/// moves although it has pieces that could move.
pub fn finished_by_rule(pos: &Position) -> bool {
    pos.state().in_game.count() <= 1
        || match pos.variant() {
            Variant::Trichess => trichess::exposed_player(pos).is_some(),
            Variant::Star => star::everyone_passed(pos),
            _ => false,
        }
}

impl Position {
    /// Generates the legal moves of the position into `sink`: nothing when the
    /// game is over, the standard moves, and whatever the game adds.
    pub fn generate_moves<S: MoveSink>(&self, sink: &mut S) {
        if !finished_by_rule(self) {
            self.generate_moves_in_play(sink);
        }
    }

    /// [`Position::generate_moves`] for a position known not to be over by
    /// rule ([`finished_by_rule`] is false): the search has looked at that
    /// already, and in Trichess the look costs an attack test.
    pub fn generate_moves_in_play<S: MoveSink>(&self, sink: &mut S) {
        self.generate_moves_in_play_knowing(KnownReaches::NONE, sink);
    }

    /// [`Position::generate_moves_in_play`], taking the officers' reaches
    /// from `known` where it has them.
    pub fn generate_moves_in_play_knowing<S: MoveSink>(&self, known: KnownReaches, sink: &mut S) {
        match self.variant() {
            Variant::Star => star::generate(self, known, sink),
            Variant::Hexenschach => {
                self.generate_standard_knowing(known, sink);
                if !hexenschach::in_phase_a(self) {
                    hexenschach::rabe_captures(self, sink);
                }
            }
            _ => self.generate_standard_knowing(known, sink),
        }
    }

    /// Whether the game's moves in play are the standard moves alone: none
    /// of the passes, duty to help or extra captures that
    /// [`Position::generate_moves_in_play`] adds for Star and Hexenschach.
    pub fn only_standard_moves(&self) -> bool {
        !matches!(self.variant(), Variant::Star | Variant::Hexenschach)
    }

    /// Whether `m` is a legal move here, found by generating the moves of
    /// its piece alone (all moves where a game's rule looks at every move:
    /// Star's duty to help and its pass).
    pub fn is_legal(&self, m: Move) -> bool {
        if m == Move::NONE || finished_by_rule(self) {
            return false;
        }
        let mut finder = MoveFinder::new(m);
        match self.variant() {
            Variant::Star if m.is_pass() || star::duty_applies(self) => {
                self.generate_moves(&mut finder);
            }
            Variant::Hexenschach => {
                self.generate_standard_from(m.from(), &mut finder);
                if !finder.found && !hexenschach::in_phase_a(self) {
                    hexenschach::rabe_captures(self, &mut finder);
                }
            }
            _ => self.generate_standard_from(m.from(), &mut finder),
        }
        finder.found
    }

    /// The legal moves as a list.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_moves(&mut list);
        list
    }

    /// The number of legal moves (counted without listing them where possible).
    pub fn count_moves(&self) -> u64 {
        let mut counter = MoveCounter::default();
        self.generate_moves(&mut counter);
        counter.0
    }
}

/// Game-specific checks of a position read from text.
pub fn validate(pos: &Position) -> Result<(), PositionError> {
    let result = match pos.variant() {
        Variant::Hexenschach => hexenschach::validate(pos),
        _ => Ok(()),
    };
    result.map_err(PositionError)
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// A player to move had no legal move and was in check.
    Checkmate,
    /// A player to move had no legal move and was not in check.
    Stalemate,
    /// The same position occurred for the third time.
    Repetition,
    /// The move-count rule (50 moves, 50 or 40 rounds).
    MoveRule,
    /// Too little material for a mate (bare kings).
    InsufficientMaterial,
    /// Trichess: a player's move left the next player's king attacked by the player to move.
    KingExposed,
    /// Hexenschach phase B: a Rabe was captured.
    RabeCaptured,
    /// Only one player is left.
    LastPlayer,
    /// Star: the points decided (nobody could move, repetition or 50 rounds).
    Points,
}

impl EndReason {
    /// The reason as one word for the protocol.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::Repetition => "repetition",
            EndReason::MoveRule => "moverule",
            EndReason::InsufficientMaterial => "material",
            EndReason::KingExposed => "kingexposed",
            EndReason::RabeCaptured => "rabecaptured",
            EndReason::LastPlayer => "lastplayer",
            EndReason::Points => "points",
        }
    }
}

/// The end of a game: why, and the points each player gets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// Why the game ended.
    pub reason: EndReason,
    /// Points per player, in turn order (unused players get 0).
    pub points: [f64; MAX_PLAYERS],
}

impl Outcome {
    /// The end as the protocol writes it after `gameover`: the reason and
    /// the points, `checkmate w 1 b 0`.
    pub fn summary(&self, pos: &Position) -> String {
        format!("{} {}", self.reason.name(), self.points_text(pos))
    }

    /// The points written for the protocol: `w 1 b 0`.
    pub fn points_text(&self, pos: &Position) -> String {
        let game = pos.game();
        (0..game.players)
            .map(|p| format!("{} {}", game.letters[p], format_points(self.points[p])))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// A number of points without needless decimals: `1`, `0.5`, `0.75`.
pub fn format_points(points: f64) -> String {
    let text = format!("{points:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl Position {
    /// How the game has ended, or `None` while it goes on: every rule that
    /// ends a game by itself, repetition and the move-count rule included
    /// where they are not claims (see [`Position::claimable_draw`]).
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.outcome_by_rule() {
            return Some(outcome);
        }
        if self.count_moves() == 0 {
            return Some(self.outcome_without_moves());
        }
        self.automatic_draw()
    }

    /// [`Position::outcome`], or else the draw a player may claim here: how
    /// a tournament manager ends a game (cutechess and fastchess adjudicate
    /// classical chess's repetitions and 50-move rule as draws).
    pub fn outcome_with_claims(&self) -> Option<Outcome> {
        self.outcome().or_else(|| self.claimable_draw())
    }

    /// The draw a player may claim in a game that goes on: a threefold
    /// repetition or the move-count rule where the game waits for a claim
    /// (classical chess). `None` in the other games, where those end the
    /// game by themselves.
    pub fn claimable_draw(&self) -> Option<Outcome> {
        if !self.game().draws_are_claimed {
            return None;
        }
        if self.is_repetition(2) {
            return Some(self.drawn(EndReason::Repetition));
        }
        self.move_rule_reached()
            .then(|| self.drawn(EndReason::MoveRule))
    }

    /// A draw that ends the game by itself: by material, and by repetition
    /// or the move-count rule where they are not claims.
    pub fn automatic_draw(&self) -> Option<Outcome> {
        if self.game().draws_are_claimed {
            self.is_dead_material()
                .then(|| self.drawn(EndReason::InsufficientMaterial))
        } else {
            self.draw_outcome()
        }
    }

    /// The outcome when the player to move has no legal move.
    pub fn outcome_without_moves(&self) -> Outcome {
        match self.variant() {
            Variant::Dreierschach => return dreierschach::outcome_without_moves(self),
            Variant::Trichess => return trichess::outcome_without_moves(self),
            Variant::Star => return star::outcome_of_mate(self),
            _ => {}
        }
        let mover = self.to_move();
        if self.in_check() {
            let winner = self.next_active_after(mover).unwrap_or(mover);
            let mut points = [0.0; MAX_PLAYERS];
            points[winner.index()] = 1.0;
            Outcome {
                reason: EndReason::Checkmate,
                points,
            }
        } else {
            self.drawn(EndReason::Stalemate)
        }
    }

    /// A game over by a rule that leaves no move although pieces could move.
    fn outcome_by_rule(&self) -> Option<Outcome> {
        let in_game = self.state().in_game;
        if in_game.count() == 1 {
            let mut points = [0.0; MAX_PLAYERS];
            for p in in_game.iter() {
                points[p.index()] = 1.0;
            }
            let reason = match self.variant() {
                Variant::Hexenschach => EndReason::RabeCaptured,
                _ => EndReason::LastPlayer,
            };
            return Some(Outcome { reason, points });
        }
        match self.variant() {
            Variant::Trichess => trichess::outcome_by_rule(self),
            Variant::Star if star::everyone_passed(self) => {
                Some(star::outcome_on_points(self, EndReason::Points))
            }
            _ => None,
        }
    }

    /// A draw by repetition, the move-count rule or material, if one
    /// applies, claimed or not: how the search scores such a position.
    pub fn draw_outcome(&self) -> Option<Outcome> {
        if self.is_repetition(2) {
            return Some(self.drawn(EndReason::Repetition));
        }
        self.move_rule_outcome()
    }

    /// A draw by the move-count rule or material, if one applies, claimed
    /// or not.
    pub fn move_rule_outcome(&self) -> Option<Outcome> {
        if self.move_rule_reached() {
            return Some(self.drawn(EndReason::MoveRule));
        }
        self.is_dead_material()
            .then(|| self.drawn(EndReason::InsufficientMaterial))
    }

    /// Whether the draw clock has reached the game's move-count rule.
    fn move_rule_reached(&self) -> bool {
        u32::from(self.clock_units()) >= self.game().draw_rounds * u32::from(CLOCK_UNITS_PER_ROUND)
    }

    /// Whether the material left can never mate (the game's [`DeadMaterial`]).
    #[inline]
    pub fn is_dead_material(&self) -> bool {
        let kings = self.kind(PieceKind::King);
        match self.game().dead_material {
            DeadMaterial::Never => false,
            DeadMaterial::BareKings => self.occupied() == kings,
            DeadMaterial::Fide { light } => {
                let heavy_or_pawn = self.kind(PieceKind::Pawn)
                    | self.kind(PieceKind::Rook)
                    | self.kind(PieceKind::Queen);
                if heavy_or_pawn.nonempty() {
                    return false;
                }
                let knights = self.kind(PieceKind::Knight);
                let bishops = self.kind(PieceKind::Bishop);
                if bishops.is_empty() {
                    return knights.count() <= 1;
                }
                knights.is_empty()
                    && ((bishops & light).is_empty() || (bishops & !light).is_empty())
            }
        }
    }

    /// Whether the current position occurred `times` times before (the
    /// player to move and every right included, through the hash).
    pub fn is_repetition(&self, times: usize) -> bool {
        let history = self.history();
        let reversible = (self.clock_moves() as usize).min(history.len());
        history[history.len() - reversible..]
            .iter()
            .rev()
            .filter(|&&h| h == self.hash())
            .take(times)
            .count()
            >= times
    }

    /// A draw: each player still in the game gets the game's draw share.
    pub fn drawn(&self, reason: EndReason) -> Outcome {
        match self.variant() {
            Variant::Dreierschach => return dreierschach::drawn(self, reason),
            Variant::Trichess => return trichess::drawn(self, reason),
            Variant::Star => return star::outcome_on_points(self, reason),
            _ => {}
        }
        let mut points = [0.0; MAX_PLAYERS];
        for p in self.state().in_game.iter() {
            points[p.index()] = 0.5;
        }
        Outcome { reason, points }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess(fen: &str) -> Position {
        Position::from_fen(Variant::Chess, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    #[test]
    fn fide_dead_material_ends_chess_and_other_material_does_not() {
        for (fen, dead) in [
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/1N2K3 b - - 0 1", true),
            ("2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false),
            ("2b1k3/8/8/8/8/8/8/3BK3 w - - 0 1", true),
            ("b3k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", false),
            ("5bk1/8/8/8/8/8/8/2B1K3 w - - 0 1", true),
            ("1n2k3/8/8/8/8/8/8/1N2K3 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/1N1BK3 w - - 0 1", false),
            ("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false),
        ] {
            let pos = chess(fen);
            assert_eq!(pos.is_dead_material(), dead, "{fen}");
            let ended = pos.outcome().map(|o| o.reason);
            assert_eq!(
                ended,
                dead.then_some(EndReason::InsufficientMaterial),
                "{fen}"
            );
        }
    }

    #[test]
    fn chess_repetitions_and_the_move_rule_are_claims_elsewhere_ends() {
        let mut pos = Position::start(Variant::Chess);
        for text in ["g1f3", "g8f6", "f3g1", "f6g8"].repeat(2) {
            let m = pos.parse_move(text).expect("legal");
            pos.make(m);
        }
        assert_eq!(pos.outcome(), None);
        let claim = pos.claimable_draw().map(|o| o.reason);
        assert_eq!(claim, Some(EndReason::Repetition));
        assert_eq!(pos.outcome_with_claims().map(|o| o.reason), claim);
        let fifty = chess("4k3/8/8/8/8/8/8/R3K3 w - - 100 80");
        assert_eq!(fifty.outcome(), None);
        assert_eq!(
            fifty.claimable_draw().map(|o| o.reason),
            Some(EndReason::MoveRule)
        );
        let trichess = Position::from_fen(
            Variant::Trichess,
            "8/8/wPwPwPwPwPwPwPwP/wRwNwBwQwKwBwNwR/8/8/rPrPrPrPrPrPrPrP/rRrNrBrQrKrBrNrR/8/8/bPbPbPbPbPbPbPbP/bRbNbBbQbKbBbNbR w wKQrKQbKQ - 150 51",
        )
        .expect("valid");
        assert_eq!(trichess.claimable_draw(), None);
        assert_eq!(
            trichess.outcome().map(|o| o.reason),
            Some(EndReason::MoveRule)
        );
    }
}
