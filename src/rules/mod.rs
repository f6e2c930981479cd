//! The common rules around move generation: which moves are legal in
//! play, when the game is over and with what points. Where a game's rules
//! differ, they call its hooks ([`GameRules`](crate::position::GameRules)) or read its description's
//! data ([`Scoring`](crate::game::Scoring)); no game is named here.

use crate::game::DeadMaterial;
pub use crate::game::outcome::{EndReason, Outcome, format_points};
use crate::moves::{Move, MoveCounter, MoveFinder, MoveList, MoveSink, Tally};
use crate::position::fen::PositionError;
use crate::position::{CLOCK_UNITS_PER_ROUND, KnownReaches, Position, Removed};
use crate::types::{Army, MAX_PLAYERS, PieceKind, Player, PlayerSet};

/// Whether the game is over by a rule that leaves the player to move without
/// moves although it has pieces that could move: one player left, or the
/// game's own rule.
pub fn finished_by_rule(pos: &Position) -> bool {
    pos.state().in_game.count() <= 1 || pos.rules().finished_by_rule(pos)
}

impl Position {
    /// Checks a position read from text against the rules (the king of the
    /// player who moved last may not stand attacked, and the game's own
    /// checks) and applies the events due for the player to move (such as
    /// Hexenschach's elimination without a move).
    pub fn settle_read(mut self) -> Result<Position, PositionError> {
        let rules = self.rules();
        let previous = self.previous_active(self.to_move());
        if rules.king_safety(&self)
            && !rules.last_mover_may_be_attacked(&self)
            && let Some(prev) = previous
            && prev != self.to_move()
            && let Some(king) = self.king_of(prev)
        {
            let by = self.attackers(self.state().active().without(prev));
            if self.attackers_of(king, self.occupied(), &by).nonempty() {
                return Err(PositionError::Rule {
                    why: format!(
                        "the king of {} (who moved last) is attacked",
                        self.game().letters[prev.index()]
                    ),
                });
            }
        }
        rules
            .validate(&self)
            .map_err(|why| PositionError::Rule { why })?;
        rules.at_turn_start(&mut self, &mut Removed::new());
        self.release_empty_armies();
        Ok(self)
    }

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
    /// from `known` where it has them: the standard moves, and where the
    /// game's rules change them, only those they allow and the moves they
    /// add.
    pub fn generate_moves_in_play_knowing<S: MoveSink>(&self, known: KnownReaches, sink: &mut S) {
        let rules = self.rules();
        if rules.only_standard_moves() {
            self.generate_standard_knowing(known, sink);
        } else if rules.restricts_moves(self) {
            let mut moves = MoveList::new();
            self.generate_standard_knowing(known, &mut moves);
            rules.restrict_moves(self, &mut moves);
            rules.add_moves(self, !moves.is_empty(), sink);
            for m in moves {
                sink.push(m);
            }
        } else {
            let mut tally = Tally::new(sink);
            self.generate_standard_knowing(known, &mut tally);
            let any_standard = tally.any;
            rules.add_moves(self, any_standard, sink);
        }
    }

    /// Whether the game's moves in play are the standard moves alone: none
    /// of the passes, duty to help or extra captures that its rules add.
    pub fn only_standard_moves(&self) -> bool {
        self.rules().only_standard_moves()
    }

    /// Whether `m` is a legal move here, found by generating the moves of
    /// its piece alone (all moves where the game's rules look at every
    /// move: a pass, the duty to help).
    pub fn is_legal(&self, m: Move) -> bool {
        if m == Move::NONE || finished_by_rule(self) {
            return false;
        }
        let mut finder = MoveFinder::new(m);
        let rules = self.rules();
        if rules.only_standard_moves() {
            self.generate_standard_from(m.from(), &mut finder);
        } else if m.is_pass() || rules.restricts_moves(self) {
            self.generate_moves_in_play(&mut finder);
        } else {
            self.generate_standard_from(m.from(), &mut finder);
            if !finder.found {
                rules.add_moves(self, true, &mut finder);
            }
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
        if !self.game().facts.draws_are_claimed {
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
        if self.game().facts.draws_are_claimed {
            self.is_dead_material()
                .then(|| self.drawn(EndReason::InsufficientMaterial))
        } else {
            self.draw_outcome()
        }
    }

    /// The outcome when the player to move has no legal move: mate when
    /// it is in check, stalemate otherwise.
    pub fn outcome_without_moves(&self) -> Outcome {
        let mated = self.to_move();
        if self.in_check() {
            self.decisive(self.mate_winner(mated), mated, EndReason::Checkmate)
        } else {
            self.drawn(EndReason::Stalemate)
        }
    }

    /// The winner of a mate of `mated`: the first player after it in turn
    /// order who attacks its king; the next player if none does.
    pub fn mate_winner(&self, mated: Player) -> Player {
        let first = self.next_active_after(mated).unwrap_or(mated);
        let Some(king) = self.king_of(mated) else {
            return first;
        };
        if self.state().active().count() <= 2 {
            return first;
        }
        let mut candidate = first;
        while candidate != mated {
            let by = self.attackers(PlayerSet::EMPTY.with(candidate));
            if self.attackers_of(king, self.occupied(), &by).nonempty() {
                return candidate;
            }
            candidate = self.next_active_after(candidate).unwrap_or(mated);
        }
        first
    }

    /// A decisive end (mate, or an end by the game's own rule) that
    /// `winner` wins and `loser` loses, scored as the game's
    /// [`Scoring::mate`](crate::game::Scoring::mate) says for the players in the game.
    pub fn decisive(&self, winner: Player, loser: Player, reason: EndReason) -> Outcome {
        let in_game = self.state().in_game;
        let share = self.game().facts.scoring.mate[in_game.count()];
        let mut points = [0.0; MAX_PLAYERS];
        for p in in_game.iter() {
            points[p.index()] = if p == winner {
                share.winner
            } else if p == loser {
                share.loser
            } else {
                share.others
            };
        }
        Outcome { reason, points }
    }

    /// A game over by a rule that leaves no move although pieces could
    /// move: one player left, or the game's own rule.
    fn outcome_by_rule(&self) -> Option<Outcome> {
        let in_game = self.state().in_game;
        if in_game.count() == 1 {
            let mut points = [0.0; MAX_PLAYERS];
            for p in in_game.iter() {
                points[p.index()] = 1.0;
            }
            let reason = self.game().facts.scoring.last_player_end;
            return Some(Outcome { reason, points });
        }
        let rules = self.rules();
        if rules.finished_by_rule(self) {
            rules.outcome_by_rule(self)
        } else {
            None
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
        u32::from(self.clock_units())
            >= self.game().facts.draw_rounds * u32::from(CLOCK_UNITS_PER_ROUND)
    }

    /// Whether the material left can never mate (the game's [`DeadMaterial`]).
    #[inline]
    pub fn is_dead_material(&self) -> bool {
        let kings = self.kind(PieceKind::King);
        match self.game().facts.dead_material {
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

    /// A draw: each player still in the game gets the game's draw share;
    /// in a game with points, the points decide instead.
    pub fn drawn(&self, reason: EndReason) -> Outcome {
        let scoring = &self.game().facts.scoring;
        if scoring.piece_points.is_some() {
            return self.outcome_on_points(reason);
        }
        let in_game = self.state().in_game;
        let share = scoring.draw_share[in_game.count()];
        let mut points = [0.0; MAX_PLAYERS];
        for p in in_game.iter() {
            points[p.index()] = share;
        }
        Outcome { reason, points }
    }

    /// Each player's points in a game with points ([`Scoring::piece_points`](crate::game::Scoring::piece_points)):
    /// its own pieces on the board and the enemy material it captured.
    /// All zero in a game without points.
    pub fn points(&self) -> [u32; MAX_PLAYERS] {
        let mut points = [0u32; MAX_PLAYERS];
        let Some(values) = &self.game().facts.scoring.piece_points else {
            return points;
        };
        for (p, slot) in points.iter_mut().enumerate().take(self.game().players) {
            let army = self.army(Army::new(p));
            let on_board: u32 = PieceKind::ALL
                .iter()
                .map(|&k| u32::from(values[k.index()]) * (self.kind(k) & army).count())
                .sum();
            *slot = on_board + u32::from(self.state().captured[p]);
        }
        points
    }

    /// The end on points: the player with most points wins; equal points
    /// share the win (the rule book's tie-break by time used is the
    /// interface's).
    pub fn outcome_on_points(&self, reason: EndReason) -> Outcome {
        let players = self.game().players;
        let totals = self.points();
        let best = totals.iter().take(players).copied().max().unwrap_or(0);
        let leaders = (0..players).filter(|&p| totals[p] == best).count() as f64;
        let mut points = [0.0; MAX_PLAYERS];
        for p in 0..players {
            if totals[p] == best {
                points[p] = 1.0 / leaders;
            }
        }
        Outcome { reason, points }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Variant;

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
