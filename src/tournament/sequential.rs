//! The SPRT of a running match (`--sprt`): the match's first
//! configuration is tested against the others, round by round.
//!
//! A round is every seating once from one opening (see
//! [`super::schedule`]). In a two-player game a round is a colour-swapped
//! pair, scored by the pentanomial model; in a three-player game a round's
//! points of the tested configuration are compared with its fair share,
//! the round's points times the share of the round's seats it held (the
//! three-player test of [`super::sprt`]). A round counts once all its games
//! are over, whatever order games finish in ([`RoundTallies`]); in a pair
//! each game is a win, draw or loss by the tested configuration's points
//! against its opponent's. The same counts without a test
//! ([`RoundCounts`]) give the live estimates of `--ratinginterval`.

use super::TESTED;
use super::game::adjudicated_draw;
use super::sprt::EloModel;
use super::sprt::{
    Decision, Estimate, GameOutcome, Pentanomial, RoundExcess, SprtConfig, ThreePlayerConfig,
    ThreePlayerSprt, summary_line,
};
use crate::game::Variant;
use crate::position::Position;
use std::collections::HashMap;

/// The keys of `--sprt`, with their defaults (fishtest's usual bounds).
pub const SPRT_KEYS: [(&str, &str); 5] = [
    ("elo0", "0"),
    ("elo1", "5"),
    ("alpha", "0.05"),
    ("beta", "0.05"),
    ("model", "normalized"),
];

/// The test a match runs.
#[derive(Clone, Debug)]
pub enum SprtTest {
    /// Two players: game pairs of both colours.
    Pairs {
        /// Hypotheses, error rates and Elo model.
        config: SprtConfig,
        /// The pairs so far.
        pairs: Pentanomial,
    },
    /// Three players: points per round against the fair share.
    Rounds(ThreePlayerSprt),
}

/// What is known of a round until all its games are over.
#[derive(Clone, Debug, Default)]
struct RoundTally {
    /// Games over.
    games: usize,
    /// The tested configuration's points and result, by game id.
    points: Vec<(usize, f64, GameOutcome)>,
    /// Points of all seats.
    total: f64,
    /// Seats the tested configuration held.
    tested_seats: usize,
    /// All seats.
    seats: usize,
}

/// A round whose games are all over, as the tested configuration scored it.
#[derive(Clone, Debug, PartialEq)]
pub struct CompletedRound {
    /// The tested configuration's result in each game, in game order: its
    /// points per seat it held against the others' points per seat (in a
    /// two-player game, the plain result).
    pub outcomes: Vec<GameOutcome>,
    /// The tested configuration's points in the round.
    pub points: f64,
    /// Its fair share of the round: the round's points times the share of
    /// the round's seats it held.
    pub fair_share: f64,
}

impl CompletedRound {
    /// The outcomes of a round of two games (a colour-swapped pair).
    pub fn pair(&self) -> Option<(GameOutcome, GameOutcome)> {
        match self.outcomes[..] {
            [first, second] => Some((first, second)),
            _ => None,
        }
    }
}

/// The games of the rounds not yet complete, whatever order games finish
/// in: a round is handed on once all its games are over.
#[derive(Clone, Debug)]
pub struct RoundTallies {
    /// Games in a round.
    round_games: usize,
    /// The rounds with a game over and a game to come.
    open: HashMap<usize, RoundTally>,
}

impl RoundTallies {
    /// No game yet, of rounds of `round_games` games.
    pub fn new(round_games: usize) -> RoundTallies {
        RoundTallies {
            round_games,
            open: HashMap::new(),
        }
    }

    /// Adds game `id` of `round`: the tested configuration held
    /// `tested_seats` of `seats` and scored `tested_points` of the game's
    /// `total_points`. Returns the round when this game completed it.
    pub fn add_game(
        &mut self,
        round: usize,
        id: usize,
        tested_points: f64,
        total_points: f64,
        (tested_seats, seats): (usize, usize),
    ) -> Option<CompletedRound> {
        let tally = self.open.entry(round).or_default();
        tally.games += 1;
        let outcome = GameOutcome::compare_per_seat(
            (tested_points, tested_seats),
            (
                total_points - tested_points,
                seats.saturating_sub(tested_seats),
            ),
        );
        tally.points.push((id, tested_points, outcome));
        tally.total += total_points;
        tally.tested_seats += tested_seats;
        tally.seats += seats;
        if tally.games < self.round_games {
            return None;
        }
        let mut tally = self.open.remove(&round)?;
        tally.points.sort_by_key(|&(id, _, _)| id);
        Some(CompletedRound {
            outcomes: tally
                .points
                .iter()
                .map(|&(_, _, outcome)| outcome)
                .collect(),
            points: tally.points.iter().map(|&(_, tested, _)| tested).sum(),
            fair_share: tally.total * tally.tested_seats as f64 / tally.seats.max(1) as f64,
        })
    }
}

/// The complete rounds of a match counted for its first configuration:
/// colour-swapped pairs in a two-player game, points against the fair
/// share in a three-player game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RoundCounts {
    /// Two players: pairs by the points of both games.
    Pairs(Pentanomial),
    /// Three players: rounds by the points above the fair share.
    Excess(RoundExcess),
}

impl RoundCounts {
    /// No round yet, for a match of `variant`.
    pub fn new(variant: Variant) -> RoundCounts {
        if variant.game().players == 2 {
            RoundCounts::Pairs(Pentanomial::default())
        } else {
            RoundCounts::Excess(RoundExcess::new(game_points(variant)))
        }
    }

    /// Counts a complete round (a pair of other than two games is passed
    /// over).
    pub fn add(&mut self, round: &CompletedRound) {
        match self {
            RoundCounts::Pairs(pairs) => {
                if let Some((first, second)) = round.pair() {
                    pairs.add(first, second);
                }
            }
            RoundCounts::Excess(excess) => excess.add_round(round.points, round.fair_share),
        }
    }
}

/// The points a game of `variant` gives in all when drawn: the scale of
/// its points.
pub fn game_points(variant: Variant) -> f64 {
    adjudicated_draw(&Position::start(variant))
        .points
        .iter()
        .sum()
}

/// A match's SPRT: the test and the rounds not yet complete.
#[derive(Clone, Debug)]
pub struct MatchSprt {
    test: SprtTest,
    /// The games of the rounds not yet complete.
    tallies: RoundTallies,
}

impl MatchSprt {
    /// The two-player test of `config` over rounds of `round_games` games.
    pub fn pairs(config: SprtConfig, round_games: usize) -> MatchSprt {
        MatchSprt {
            test: SprtTest::Pairs {
                config,
                pairs: Pentanomial::default(),
            },
            tallies: RoundTallies::new(round_games),
        }
    }

    /// The three-player test of `config` over rounds of `round_games` games.
    pub fn rounds(config: ThreePlayerConfig, round_games: usize) -> MatchSprt {
        MatchSprt {
            test: SprtTest::Rounds(ThreePlayerSprt::new(config)),
            tallies: RoundTallies::new(round_games),
        }
    }

    /// Adds game `id` of `round` (as [`RoundTallies::add_game`]). Returns
    /// the test's line when this game completed its round.
    pub fn add_game(
        &mut self,
        round: usize,
        id: usize,
        tested_points: f64,
        total_points: f64,
        seats: (usize, usize),
    ) -> Option<String> {
        let round = self
            .tallies
            .add_game(round, id, tested_points, total_points, seats)?;
        match &mut self.test {
            SprtTest::Pairs { pairs, .. } => {
                if let Some((first, second)) = round.pair() {
                    pairs.add(first, second);
                }
            }
            SprtTest::Rounds(test) => test.add_round(round.points, round.fair_share),
        }
        Some(self.line())
    }

    /// The test of `--sprt KEY=VALUE ...` (keys of [`SPRT_KEYS`]) for a
    /// match of `variant` whose rounds seat the configurations as
    /// `round`. In three-player games `elo0`/`elo1` are turned into points
    /// per game above the fair share (see [`super::sprt`]); `model` applies
    /// to two-player games.
    pub fn from_words(
        words: &[String],
        variant: Variant,
        round: &[Vec<usize>],
    ) -> Result<MatchSprt, String> {
        let mut values: Vec<(&str, String)> = SPRT_KEYS
            .iter()
            .map(|&(key, default)| (key, default.to_string()))
            .collect();
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("'{word}': expected KEY=VALUE"))?;
            let slot = values.iter_mut().find(|(k, _)| *k == key).ok_or_else(|| {
                let keys: Vec<&str> = SPRT_KEYS.iter().map(|&(k, _)| k).collect();
                format!("unknown key '{key}' (keys: {})", keys.join(" "))
            })?;
            slot.1 = value.to_string();
        }
        let number = |key: &str| -> Result<f64, String> {
            let text = &values.iter().find(|(k, _)| *k == key).expect("a key").1;
            text.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && !text.starts_with('+'))
                .ok_or_else(|| format!("{key}={text}: expected a number"))
        };
        let (elo0, elo1, alpha, beta) = (
            number("elo0")?,
            number("elo1")?,
            number("alpha")?,
            number("beta")?,
        );
        let model = match values
            .iter()
            .find(|(k, _)| *k == "model")
            .map(|(_, v)| v.as_str())
        {
            Some("normalized") => EloModel::Normalized,
            Some("logistic") => EloModel::Logistic,
            other => {
                return Err(format!(
                    "model={}: expected normalized or logistic",
                    other.unwrap_or_default()
                ));
            }
        };
        if variant.game().players == 2 {
            return Ok(MatchSprt::pairs(
                SprtConfig::new(elo0, elo1, alpha, beta, model)?,
                round.len(),
            ));
        }
        let seats: usize = round.iter().map(Vec::len).sum();
        let tested: usize = round.iter().flatten().filter(|&&c| c == TESTED).count();
        let fair_fraction = tested as f64 / seats.max(1) as f64;
        Ok(MatchSprt::rounds(
            ThreePlayerConfig::from_elo(
                elo0,
                elo1,
                alpha,
                beta,
                fair_fraction,
                game_points(variant),
            )?,
            round.len(),
        ))
    }

    /// The test's state in one line: the estimate, LLR and bounds.
    pub fn line(&self) -> String {
        match &self.test {
            SprtTest::Pairs { config, pairs } => {
                let llr = config.llr_pentanomial(pairs);
                let estimate = Estimate::from_pentanomial(pairs);
                format!(
                    "sprt: {} pairs {:?}: {}",
                    pairs.pairs(),
                    pairs.counts,
                    summary_line(&estimate, config, llr)
                )
            }
            SprtTest::Rounds(test) => format!("sprt: {}", test.summary_line()),
        }
    }

    /// Whether the test has decided.
    pub fn decision(&self) -> Decision {
        match &self.test {
            SprtTest::Pairs { config, pairs } => config.decision(config.llr_pentanomial(pairs)),
            SprtTest::Rounds(test) => test.decision(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::sprt::EloModel;

    #[test]
    fn a_pair_counts_once_both_games_are_over_and_wins_accept_h1() {
        let config = SprtConfig::new(0.0, 10.0, 0.05, 0.05, EloModel::Logistic).unwrap();
        let mut sprt = MatchSprt::pairs(config, 2);
        assert!(sprt.add_game(1, 2, 1.0, 1.0, (1, 2)).is_none());
        let line = sprt
            .add_game(1, 1, 1.0, 1.0, (1, 2))
            .expect("the pair is complete");
        assert!(line.starts_with("sprt: 1 pairs [0, 0, 0, 0, 1]"), "{line}");
        let mut round = 2;
        while sprt.decision() == Decision::Continue {
            sprt.add_game(round, 2 * round - 1, 1.0, 1.0, (1, 2));
            sprt.add_game(round, 2 * round, 1.0, 1.0, (1, 2));
            round += 1;
            assert!(round < 1000, "decides");
        }
        assert_eq!(sprt.decision(), Decision::AcceptH1);
    }

    #[test]
    fn a_round_is_handed_on_once_its_games_are_over_in_game_order() {
        let mut tallies = RoundTallies::new(2);
        // Round 2 completes first; game 4 before game 3.
        assert!(tallies.add_game(2, 4, 0.5, 1.0, (1, 2)).is_none());
        assert!(tallies.add_game(1, 1, 1.0, 1.0, (1, 2)).is_none());
        let second = tallies.add_game(2, 3, 0.0, 1.0, (1, 2)).unwrap();
        assert_eq!(
            second.pair(),
            Some((GameOutcome::Loss, GameOutcome::Draw)),
            "{second:?}"
        );
        assert_eq!((second.points, second.fair_share), (0.5, 1.0));
        let first = tallies.add_game(1, 2, 1.0, 1.0, (1, 2)).unwrap();
        let mut counts = RoundCounts::new(Variant::Chess);
        counts.add(&second);
        counts.add(&first);
        assert_eq!(
            counts,
            RoundCounts::Pairs(Pentanomial {
                counts: [0, 1, 0, 0, 1]
            })
        );
        // Three players: the share of the round's seats, A,A,B and A,B,B.
        let mut tallies = RoundTallies::new(2);
        tallies.add_game(1, 1, 2.0, 3.0, (2, 3));
        let round = tallies.add_game(1, 2, 3.0, 4.0, (1, 3)).unwrap();
        assert_eq!((round.points, round.fair_share), (5.0, 3.5));
        // 1 a seat against 1, and 3 against ½ a seat.
        assert_eq!(round.outcomes, [GameOutcome::Draw, GameOutcome::Win]);
        let mut counts = RoundCounts::new(Variant::Dreierschach);
        counts.add(&round);
        let RoundCounts::Excess(excess) = counts else {
            panic!("{counts:?}")
        };
        assert_eq!(excess.rounds(), 1);
        assert!((excess.excess_per_game().value - 1.5 / 6.0).abs() < 1e-12);
    }

    #[test]
    fn three_player_rounds_compare_points_with_the_fair_share() {
        let config = ThreePlayerConfig::from_elo(0.0, 50.0, 0.05, 0.05, 1.0 / 3.0, 1.0).unwrap();
        let mut sprt = MatchSprt::rounds(config, 6);
        for round in 1..=200 {
            for game in 0..6 {
                // The tested configuration scores a third of every game:
                // exactly its fair share.
                let line = sprt.add_game(round, round * 6 + game, 1.0 / 3.0, 1.0, (1, 3));
                assert_eq!(line.is_some(), game == 5);
            }
            if sprt.decision() != Decision::Continue {
                break;
            }
        }
        assert_eq!(sprt.decision(), Decision::AcceptH0);
    }
}
