//! The SPRT of a running match (`--sprt`): the match's first
//! configuration is tested against the others, round by round.
//!
//! A round is every seating once from one opening (see
//! [`super::schedule`]). In a two-player game a round is a colour-swapped
//! pair, scored by the pentanomial model; in a three-player game a round's
//! points of the tested configuration are compared with its fair share,
//! the round's points times the share of the round's seats it held (the
//! three-player test of [`super::sprt`]). A round counts once all its games
//! are over, whatever order games finish in.

use super::TESTED;
use super::game::adjudicated_draw;
use super::sprt::EloModel;
use super::sprt::{
    Decision, Estimate, GameOutcome, Pentanomial, SprtConfig, ThreePlayerConfig, ThreePlayerSprt,
    summary_line,
};
use crate::position::Position;
use crate::variants::Variant;
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
    /// The tested configuration's points, by game id (for pairs in order).
    tested: Vec<(usize, f64)>,
    /// Points of all seats.
    total: f64,
    /// Seats the tested configuration held.
    tested_seats: usize,
    /// All seats.
    seats: usize,
}

/// A match's SPRT: the test and the rounds not yet complete.
#[derive(Clone, Debug)]
pub struct MatchSprt {
    test: SprtTest,
    /// Games in a round.
    round_games: usize,
    open: HashMap<usize, RoundTally>,
}

impl MatchSprt {
    /// The two-player test of `config` over rounds of `round_games` games.
    pub fn pairs(config: SprtConfig, round_games: usize) -> MatchSprt {
        MatchSprt {
            test: SprtTest::Pairs {
                config,
                pairs: Pentanomial::default(),
            },
            round_games,
            open: HashMap::new(),
        }
    }

    /// The three-player test of `config` over rounds of `round_games` games.
    pub fn rounds(config: ThreePlayerConfig, round_games: usize) -> MatchSprt {
        MatchSprt {
            test: SprtTest::Rounds(ThreePlayerSprt::new(config)),
            round_games,
            open: HashMap::new(),
        }
    }

    /// Adds game `id` of `round`: the tested configuration held
    /// `tested_seats` of `seats` and scored `tested_points` of the game's
    /// `total_points`. Returns the test's line when this game completed
    /// its round.
    pub fn add_game(
        &mut self,
        round: usize,
        id: usize,
        tested_points: f64,
        total_points: f64,
        (tested_seats, seats): (usize, usize),
    ) -> Option<String> {
        let tally = self.open.entry(round).or_default();
        tally.games += 1;
        tally.tested.push((id, tested_points));
        tally.total += total_points;
        tally.tested_seats += tested_seats;
        tally.seats += seats;
        if tally.games < self.round_games {
            return None;
        }
        let mut tally = self.open.remove(&round)?;
        tally.tested.sort_by_key(|&(id, _)| id);
        match &mut self.test {
            SprtTest::Pairs { pairs, .. } => {
                let outcomes: Option<Vec<GameOutcome>> = tally
                    .tested
                    .iter()
                    .map(|&(_, p)| GameOutcome::from_points(p))
                    .collect();
                if let Some([first, second]) = outcomes.as_deref() {
                    pairs.add(*first, *second);
                }
            }
            SprtTest::Rounds(test) => {
                let points: f64 = tally.tested.iter().map(|&(_, p)| p).sum();
                let fair = tally.total * tally.tested_seats as f64 / tally.seats.max(1) as f64;
                test.add_round(points, fair);
            }
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
        let game_points: f64 = adjudicated_draw(&Position::start(variant))
            .points
            .iter()
            .sum();
        Ok(MatchSprt::rounds(
            ThreePlayerConfig::from_elo(elo0, elo1, alpha, beta, fair_fraction, game_points)?,
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
