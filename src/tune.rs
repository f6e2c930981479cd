//! Texel's method: fit the evaluation's weights ([`EvalWeights`]) so that
//! a logistic of the evaluation predicts the results of the games that
//! `triskel datagen` recorded.
//!
//! The evaluation is linear in its weights, so a position's score per
//! player is the dot product of the weights with the position's features
//! (plus a part no weight moves: Star's captured points). The features of
//! the terms are read off the evaluation itself, not from a second one
//! written for the tuner: the score with one weight at [`PROBE`] and the
//! others at 0, less the score with all at 0, divided by [`PROBE`]. The
//! learnt piece-square values, a thousand and more per game, are too many
//! to probe: their features are the player's pieces, each on its cell of
//! the first army's view ([`EvalTables::frame`]), weighed by the player's
//! game phase ([`Phases`]) as the evaluation weighs them.
//!
//! The model: each player's predicted share of the points is the softmax
//! of `K · score` over the players in the game (for two players, the
//! logistic of `K` times the difference of their scores). The loss is the
//! mean squared error against a target share: the share of the final
//! points, or with `lambda` below 1 a blend of it with the share the
//! search's score in the data predicts (`lambda` · result + (1 −
//! `lambda`) · search). `K` is fitted first to the starting weights and
//! the results alone (it turns centipawns into results), then the weights
//! by Adam over full batches on all threads. A `prior` above 0 adds a
//! ridge penalty that holds the weights near their starting values: with
//! correlated terms and data from fast games, a fit free to wander can
//! predict the results better and play worse.

use crate::bitboard::Bitboard;
use crate::datagen::Sample;
use crate::game::Variant;
use crate::position::Position;
use crate::search::eval::{EvalTables, Phases, ReachCache, evaluate_in};
use crate::search::weights::{EvalWeights, SquareWeights};
use crate::types::MAX_PLAYERS;
use arrayvec::ArrayVec;
use rayon::prelude::*;

/// The value one weight takes while its feature is read off the
/// evaluation: large, so that the tables' integer rounding stays below a
/// thousandth of a feature.
pub const PROBE: i32 = 1 << 10;

/// The bounds of the search for `K` (per centipawn): results that turn on
/// a thousand pawns, and on a hundredth of one.
const K_RANGE: (f64, f64) = (1e-5, 1.0);

/// Steps of the golden-section search for `K`.
const K_STEPS: usize = 60;

/// The deviation from its starting value (centipawns) at which a weight
/// pays the prior's full penalty: `prior · (deviation / PRIOR_SCALE)²`.
pub const PRIOR_SCALE: f64 = 100.0;

/// Adam's decay rates of the gradient's mean and of its square, and the
/// term that keeps its step finite.
const ADAM_BETA1: f64 = 0.9;
const ADAM_BETA2: f64 = 0.999;
const ADAM_EPSILON: f64 = 1e-8;

/// One player of a position: its features, the part of its score no weight
/// moves, its share of the points at the game's end, and the search's
/// score of it (as an absolute score: see [`seats`]).
#[derive(Clone, Debug)]
struct Seat {
    /// The features of the terms' weights (the first [`EvalWeights::COUNT`]).
    features: [f32; EvalWeights::COUNT],
    /// The player's pieces as places of the learnt piece-square values
    /// ([`SquareWeights::index`]).
    squares: Vec<u16>,
    /// How far the player's phase is towards the endgame (0: full
    /// middlegame, 1: bare endgame): the feature of each of its pieces'
    /// endgame values (and 1 less it, of their middlegame values).
    endgame: f32,
    fixed: f32,
    share: f32,
    searched: f32,
}

/// What the predictions are compared with: `K`, and how much of the target
/// is the result (the rest is the search's score).
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// The scale from centipawns to results.
    pub k: f64,
    /// The weight of the game's result in the target share, in `0..=1`.
    pub lambda: f64,
}

impl Target {
    /// The target shares of `seats`.
    fn shares(&self, seats: &[Seat]) -> ArrayVec<f64, MAX_PLAYERS> {
        let by_search = softmax(seats.iter().map(|s| self.k * f64::from(s.searched)));
        seats
            .iter()
            .zip(by_search)
            .map(|(seat, q)| self.lambda * f64::from(seat.share) + (1.0 - self.lambda) * q)
            .collect()
    }
}

/// The positions of the data as the tuner sees them: per position, the
/// seats of the players in the game.
#[derive(Default)]
pub struct Dataset {
    positions: Vec<ArrayVec<Seat, MAX_PLAYERS>>,
}

/// How a fit runs.
#[derive(Clone, Debug)]
pub struct FitPlan {
    /// The weight of the game's result in the target share, in `0..=1`.
    pub lambda: f64,
    /// Steps of gradient descent.
    pub epochs: usize,
    /// About how far one step moves a weight, in centipawns.
    pub rate: f64,
    /// The ridge penalty per moving weight that strays [`PRIOR_SCALE`]
    /// centipawns from its starting value (0: none).
    pub prior: f64,
    /// Which weights move, in [`EvalWeights::named`]'s order (the others
    /// keep their starting values); none: all.
    moving: Option<Vec<bool>>,
}

impl FitPlan {
    /// A fit of every weight.
    pub fn new(lambda: f64, epochs: usize, rate: f64) -> FitPlan {
        FitPlan {
            lambda,
            epochs,
            rate,
            prior: 0.0,
            moving: None,
        }
    }

    /// The plan with the ridge penalty `prior` (see [`FitPlan::prior`]).
    pub fn with_prior(mut self, prior: f64) -> FitPlan {
        self.prior = prior;
        self
    }

    /// The ridge penalty of `weights` that started at `start`: `prior`
    /// times the squared deviation, in [`PRIOR_SCALE`]s, of each moving
    /// weight.
    pub fn penalty(&self, weights: &[f64], start: &[f64]) -> f64 {
        weights
            .iter()
            .zip(start)
            .enumerate()
            .filter(|&(i, _)| self.moves(i))
            .map(|(_, (w, s))| self.prior * ((w - s) / PRIOR_SCALE).powi(2))
            .sum()
    }

    /// Whether weight `i` moves.
    fn moves(&self, i: usize) -> bool {
        self.moving.as_ref().is_none_or(|moving| moving[i])
    }

    /// The slope of [`FitPlan::penalty`] along weight `i`.
    fn penalty_slope(&self, i: usize, weights: &[f64], start: &[f64]) -> f64 {
        2.0 * self.prior * (weights[i] - start[i]) / PRIOR_SCALE.powi(2)
    }

    /// The plan moving only those of `weights` named by `groups`: a
    /// weight's name (`king_danger`) or the first parts of names, up to a
    /// dot (`material` for `material.pawn` and the other kinds,
    /// `square.end.king` for the king's endgame piece-square values).
    pub fn only(mut self, groups: &[String], weights: &EvalWeights) -> Result<FitPlan, String> {
        let names = weights.named();
        for group in groups {
            if !names.iter().any(|(name, _)| in_group(name, group)) {
                return Err(format!("'{group}': no weight is called so or starts so"));
            }
        }
        let moving = names
            .iter()
            .map(|(name, _)| groups.iter().any(|group| in_group(name, group)))
            .collect();
        self.moving = Some(moving);
        Ok(self)
    }
}

/// Whether the weight `name` is in `group`: its name, or its name's first
/// parts up to a dot.
fn in_group(name: &str, group: &str) -> bool {
    name.strip_prefix(group)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
}

/// What one fit did.
#[derive(Clone, Debug)]
pub struct Fit {
    /// The fitted weights (rounded to whole centipawns).
    pub weights: EvalWeights,
    /// `K` and the blend of the target the weights were fitted to.
    pub target: Target,
    /// The loss with the starting weights.
    pub loss_before: f64,
    /// The loss with the fitted weights (rounded).
    pub loss_after: f64,
}

impl Dataset {
    /// Reads the data's lines (comments start with `#`) of `variant` and
    /// works out every position's features, on the current rayon pool.
    pub fn read(variant: Variant, text: &str) -> Result<Dataset, String> {
        let game = variant.game();
        let zero = EvalWeights::derived(game).with_values(&[0; EvalWeights::COUNT]);
        let squares = &zero.squares;
        let fixed_tables = EvalTables::build(game, &zero);
        let probes: Vec<EvalTables> = (0..EvalWeights::COUNT)
            .map(|i| {
                let mut values = [0; EvalWeights::COUNT];
                values[i] = PROBE;
                EvalTables::build(game, &zero.with_values(&values))
            })
            .collect();
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
            .collect();
        let positions = lines
            .par_iter()
            .map(|&(number, line)| {
                let sample = Sample::parse(line, variant)
                    .map_err(|why| format!("line {}: {why}", number + 1))?;
                let pos = Position::from_fen(variant, &sample.position)
                    .map_err(|why| format!("line {}: {why}", number + 1))?;
                Ok(seats(&pos, &sample, &fixed_tables, &probes, squares))
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(Dataset { positions })
    }

    /// Adds the positions of `other` (of the same game).
    pub fn extend(&mut self, other: Dataset) {
        self.positions.extend(other.positions);
    }

    /// How many positions there are.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The mean squared error of the shares predicted with `weights`
    /// against those of `target`.
    pub fn loss(&self, weights: &[f64], target: Target) -> f64 {
        let total: f64 = self
            .positions
            .par_iter()
            .map(|seats| {
                let predicted = predicted_shares(seats, weights, target.k);
                predicted
                    .iter()
                    .zip(target.shares(seats))
                    .map(|(q, y)| (q - y).powi(2))
                    .sum::<f64>()
            })
            .sum();
        total / self.positions.len().max(1) as f64
    }

    /// [`Dataset::loss`] of `weights`.
    pub fn loss_of(&self, weights: &EvalWeights, target: Target) -> f64 {
        self.loss(&weight_vector(weights), target)
    }

    /// The gradient of [`Dataset::loss`] with respect to the weights.
    fn gradient(&self, weights: &[f64], target: Target) -> Vec<f64> {
        let k = target.k;
        let sum = self
            .positions
            .par_iter()
            .fold(
                || vec![0.0; weights.len()],
                |mut gradient, seats| {
                    let q = predicted_shares(seats, weights, k);
                    let errors: ArrayVec<f64, MAX_PLAYERS> = q
                        .iter()
                        .zip(target.shares(seats))
                        .map(|(q, y)| q - y)
                        .collect();
                    // d loss / d score_p = 2K q_p (e_p - sum_r e_r q_r)
                    let mean_error: f64 = errors.iter().zip(&q).map(|(e, q)| e * q).sum();
                    for ((seat, &q), e) in seats.iter().zip(&q).zip(&errors) {
                        let by_score = 2.0 * k * q * (e - mean_error);
                        seat.each_feature(weights.len(), |i, f| gradient[i] += by_score * f);
                    }
                    gradient
                },
            )
            .reduce(
                || vec![0.0; weights.len()],
                |a, b| a.iter().zip(&b).map(|(x, y)| x + y).collect(),
            );
        let n = self.positions.len().max(1) as f64;
        sum.into_iter().map(|g| g / n).collect()
    }

    /// The `K` that makes `weights` predict the results best (a
    /// golden-section search over its logarithm).
    pub fn fit_k(&self, weights: &[f64]) -> f64 {
        let results = |k| Target { k, lambda: 1.0 };
        let golden = (5f64.sqrt() - 1.0) / 2.0;
        let (mut lo, mut hi) = (K_RANGE.0.ln(), K_RANGE.1.ln());
        for _ in 0..K_STEPS {
            let a = hi - golden * (hi - lo);
            let b = lo + golden * (hi - lo);
            if self.loss(weights, results(a.exp())) < self.loss(weights, results(b.exp())) {
                hi = b;
            } else {
                lo = a;
            }
        }
        ((lo + hi) / 2.0).exp()
    }

    /// Fits the weights from `start` as `plan` says: `K` first, then the
    /// steps of Adam on the loss plus the plan's ridge penalty; `progress`
    /// hears of the epoch and the loss (without the penalty) every so
    /// often.
    pub fn fit(
        &self,
        start: &EvalWeights,
        plan: &FitPlan,
        progress: &mut dyn FnMut(usize, f64),
    ) -> Fit {
        let FitPlan {
            lambda,
            epochs,
            rate,
            ..
        } = *plan;
        let mut weights = weight_vector(start);
        let target = Target {
            k: self.fit_k(&weights),
            lambda,
        };
        let loss_before = self.loss(&weights, target);
        let starting = weights.clone();
        let mut mean = vec![0.0; weights.len()];
        let mut square = vec![0.0; weights.len()];
        let report_every = (epochs / 20).max(1);
        for epoch in 1..=epochs {
            let gradient = self.gradient(&weights, target);
            let t = epoch as i32;
            for i in (0..weights.len()).filter(|&i| plan.moves(i)) {
                let gradient = gradient[i] + plan.penalty_slope(i, &weights, &starting);
                mean[i] = ADAM_BETA1 * mean[i] + (1.0 - ADAM_BETA1) * gradient;
                square[i] = ADAM_BETA2 * square[i] + (1.0 - ADAM_BETA2) * gradient.powi(2);
                let mean_hat = mean[i] / (1.0 - ADAM_BETA1.powi(t));
                let square_hat = square[i] / (1.0 - ADAM_BETA2.powi(t));
                weights[i] -= rate * mean_hat / (square_hat.sqrt() + ADAM_EPSILON);
            }
            if epoch % report_every == 0 || epoch == epochs {
                progress(epoch, self.loss(&weights, target));
            }
        }
        let rounded: Vec<i32> = weights.iter().map(|w| w.round() as i32).collect();
        let loss_after = self.loss(
            &rounded.iter().map(|&w| f64::from(w)).collect::<Vec<_>>(),
            target,
        );
        Fit {
            weights: start.with_values(&rounded),
            target,
            loss_before,
            loss_after,
        }
    }
}

/// The seats of the players in the game in `pos`, the position of
/// `sample`: features read off the evaluation with the `probes` tables
/// (one weight at [`PROBE`] each), the fixed part with `fixed_tables` (all
/// weights 0), shares of the points among these players, and the search's
/// score. That score is each player's against the others' average `a`;
/// with `n` players an absolute score `s` gives `a = (n s − S) / (n − 1)`
/// (`S` the sum of all), so `s` is `a (n − 1) / n` up to a constant that
/// the softmax does not see.
fn seats(
    pos: &Position,
    sample: &Sample,
    fixed_tables: &EvalTables,
    probes: &[EvalTables],
    squares: &SquareWeights,
) -> ArrayVec<Seat, MAX_PLAYERS> {
    let in_game = pos.state().in_game;
    let mut own = [Bitboard::EMPTY; MAX_PLAYERS];
    for p in in_game.iter() {
        own[p.index()] = pos.pieces_of(p);
    }
    let phases = Phases::of(pos, &own);
    let fixed = evaluate_in(fixed_tables, pos, &mut ReachCache::default());
    let probed: Vec<[i32; MAX_PLAYERS]> = probes
        .iter()
        .map(|t| evaluate_in(t, pos, &mut ReachCache::default()))
        .collect();
    let points = &sample.points;
    let total: f64 = in_game.iter().map(|p| points[p.index()]).sum();
    let players = in_game.count() as f64;
    let absolute = (players - 1.0) / players;
    in_game
        .iter()
        .map(|p| {
            let p = p.index();
            let mut features = [0.0; EvalWeights::COUNT];
            for (feature, scores) in features.iter_mut().zip(&probed) {
                *feature = (scores[p] - fixed[p]) as f32 / PROBE as f32;
            }
            let share = if total > 0.0 {
                points[p] / total
            } else {
                1.0 / players
            };
            let squares = own[p]
                .into_iter()
                .filter_map(|c| {
                    let piece = pos.piece_at(c)?;
                    let frame = fixed_tables.frame(piece.army(), c);
                    Some(squares.index(piece.kind(), frame) as u16)
                })
                .collect();
            let endgame = phases.as_ref().map_or(0.0, |phases| {
                (phases.full - phases.middle[p]) as f32 / phases.full as f32
            });
            Seat {
                features,
                squares,
                endgame,
                fixed: fixed[p] as f32,
                share: share as f32,
                searched: (f64::from(sample.scores[p].1) * absolute) as f32,
            }
        })
        .collect()
}

impl Seat {
    /// Calls `visit` with the place and value of the seat's features among
    /// `len` weights (the terms', then the middlegame piece-square values,
    /// then the endgame ones): every term's, and the piece-square values'
    /// of its pieces (the others are 0).
    #[inline(always)]
    fn each_feature(&self, len: usize, mut visit: impl FnMut(usize, f64)) {
        for (i, &f) in self.features.iter().enumerate() {
            visit(i, f64::from(f));
        }
        let end_offset = (len - EvalWeights::COUNT) / 2;
        let endgame = f64::from(self.endgame);
        for &square in &self.squares {
            let middle = EvalWeights::COUNT + usize::from(square);
            visit(middle, 1.0 - endgame);
            visit(middle + end_offset, endgame);
        }
    }

    /// The seat's score with `weights`.
    fn score(&self, weights: &[f64]) -> f64 {
        let mut dot = f64::from(self.fixed);
        self.each_feature(weights.len(), |i, f| dot += f * weights[i]);
        dot
    }
}

/// The values of `weights` in [`EvalWeights::named`]'s order, as the fit
/// moves them.
fn weight_vector(weights: &EvalWeights) -> Vec<f64> {
    weights
        .named()
        .into_iter()
        .map(|(_, v)| f64::from(v))
        .collect()
}

/// Each seat's predicted share: the softmax of `k` times its score.
fn predicted_shares(seats: &[Seat], weights: &[f64], k: f64) -> ArrayVec<f64, MAX_PLAYERS> {
    softmax(seats.iter().map(|seat| k * seat.score(weights)))
}

/// The softmax of `values` (at most one per player).
fn softmax(values: impl IntoIterator<Item = f64>) -> ArrayVec<f64, MAX_PLAYERS> {
    let values: ArrayVec<f64, MAX_PLAYERS> = values.into_iter().collect();
    let top = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let exps: ArrayVec<f64, MAX_PLAYERS> = values.iter().map(|v| (v - top).exp()).collect();
    let sum: f64 = exps.iter().sum();
    exps.iter().map(|e| e / sum).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::walk::play_capturing_first;

    /// Data lines of positions from a game of `variant` that `points` ended.
    fn data(variant: Variant, points: &[f64]) -> String {
        let mut lines = Vec::new();
        play_capturing_first(variant, 40, 3, |pos, _| {
            if !pos.in_check() {
                let sample = Sample {
                    position: pos.fen(),
                    scores: (0..variant.game().players)
                        .map(|p| (variant.game().letters[p], 37 * p as i32 - 20))
                        .collect(),
                    points: points.to_vec(),
                };
                lines.push(sample.line());
            }
        });
        lines.join("\n")
    }

    #[test]
    fn features_give_back_the_evaluation() {
        for variant in Variant::ALL {
            let points = vec![1.0; variant.game().players];
            let text = data(variant, &points);
            let dataset = Dataset::read(variant, &text).unwrap();
            assert!(!dataset.is_empty(), "{variant}");
            // The game's own weights; the same with other passed-pawn
            // weights and the terms it weighs 0 (bishop pair, tempo)
            // scored; and with learnt piece-square values that differ by
            // kind, cell and phase.
            let own = EvalWeights::of(variant);
            let passed = EvalWeights {
                passed: [50, 40, 30, 20],
                bishop_pair: 30,
                tempo: 10,
                ..own.clone()
            };
            let mut squared = own.clone();
            for (i, (middle, end)) in squared
                .squares
                .middle
                .iter_mut()
                .zip(&mut squared.squares.end)
                .enumerate()
            {
                *middle = (i * 37 % 41) as i32 - 20;
                *end = (i * 53 % 61) as i32 - 30;
            }
            for weights in [own, passed, squared] {
                let tables = EvalTables::build(variant.game(), &weights);
                let values = weight_vector(&weights);
                let lines = text.lines().filter(|l| !l.is_empty());
                for (line, seats) in lines.zip(&dataset.positions) {
                    let sample = Sample::parse(line, variant).unwrap();
                    let pos = Position::from_fen(variant, &sample.position).unwrap();
                    let scores = evaluate_in(&tables, &pos, &mut ReachCache::default());
                    for (p, seat) in pos.state().in_game.iter().zip(seats) {
                        let dot = seat.score(&values);
                        // The centre bonus is rounded per piece in the
                        // tables, the blend of the phases once.
                        let pieces = pos.pieces_of(p).count() as f64 + 1.0;
                        let score = f64::from(scores[p.index()]);
                        assert!(
                            (dot - score).abs() <= pieces,
                            "{variant}, player {p:?}: {dot} from the features, {score} evaluated: {line}",
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn shares_split_the_points_of_the_players_in_the_game() {
        let text = data(Variant::Dreierschach, &[3.0, 1.0, 0.0]);
        let dataset = Dataset::read(Variant::Dreierschach, &text).unwrap();
        let shares: Vec<f32> = dataset.positions[0].iter().map(|s| s.share).collect();
        assert_eq!(shares, [0.75, 0.25, 0.0]);
    }

    #[test]
    fn the_search_part_of_the_target_is_the_logistic_of_the_search_score() {
        let sample = Sample {
            position: Position::start(Variant::Chess).fen(),
            scores: vec![('w', 100), ('b', -100)],
            points: vec![0.0, 1.0],
        };
        let dataset = Dataset::read(Variant::Chess, &sample.line()).unwrap();
        let k = 0.01;
        let search = Target { k, lambda: 0.0 }.shares(&dataset.positions[0]);
        let logistic = 1.0 / (1.0 + (-k * 100.0).exp());
        assert!((search[0] - logistic).abs() < 1e-9, "{search:?}");
        let blend = Target { k, lambda: 0.25 }.shares(&dataset.positions[0]);
        assert!((blend[1] - (0.25 + 0.75 * (1.0 - logistic))).abs() < 1e-9);
    }

    #[test]
    fn the_fit_lowers_the_loss_on_data_that_favours_a_weight() {
        // White wins every game: the material it is ahead in should count more.
        let text = data(Variant::Chess, &[1.0, 0.0]);
        let dataset = Dataset::read(Variant::Chess, &text).unwrap();
        let start = EvalWeights::of(Variant::Chess);
        let fit = dataset.fit(&start, &FitPlan::new(1.0, 200, 2.0), &mut |_, _| {});
        let k = fit.target.k;
        assert!(k > K_RANGE.0 && k < K_RANGE.1, "K {k}");
        assert!(
            fit.loss_after < fit.loss_before,
            "{} -> {}",
            fit.loss_before,
            fit.loss_after
        );
    }

    #[test]
    fn a_prior_holds_the_weights_near_their_start() {
        let text = data(Variant::Chess, &[1.0, 0.0]);
        let dataset = Dataset::read(Variant::Chess, &text).unwrap();
        let start = EvalWeights::of(Variant::Chess);
        let values = weight_vector;
        let free_plan = FitPlan::new(1.0, 200, 2.0);
        let held_plan = free_plan.clone().with_prior(1.0);
        let free = dataset.fit(&start, &free_plan, &mut |_, _| {});
        let held = dataset.fit(&start, &held_plan, &mut |_, _| {});
        let strayed = |fit: &Fit| held_plan.penalty(&values(&fit.weights), &values(&start));
        assert!(strayed(&free) > 0.0, "the free fit moves the weights");
        assert!(
            strayed(&held) < strayed(&free),
            "held {} against free {}",
            strayed(&held),
            strayed(&free)
        );
        assert!(
            held.loss_after < held.loss_before,
            "the held fit still learns"
        );
    }

    #[test]
    fn the_penalty_slope_is_the_slope_of_the_penalty() {
        let plan = FitPlan::new(1.0, 1, 1.0).with_prior(0.3);
        let start = vec![10.0; EvalWeights::COUNT];
        let weights: Vec<f64> = (0..EvalWeights::COUNT).map(|i| 3.0 * i as f64).collect();
        assert_eq!(plan.penalty(&start, &start), 0.0);
        let step = 1e-3;
        for i in 0..weights.len() {
            let (mut up, mut down) = (weights.clone(), weights.clone());
            up[i] += step;
            down[i] -= step;
            let slope = (plan.penalty(&up, &start) - plan.penalty(&down, &start)) / (2.0 * step);
            let exact = plan.penalty_slope(i, &weights, &start);
            assert!(
                (slope - exact).abs() < 1e-6,
                "weight {i}: {slope} against {exact}"
            );
        }
    }

    #[test]
    fn a_fit_of_some_weights_keeps_the_others() {
        let text = data(Variant::Chess, &[1.0, 0.0]);
        let dataset = Dataset::read(Variant::Chess, &text).unwrap();
        let start = EvalWeights::of(Variant::Chess);
        let plan = FitPlan::new(1.0, 100, 2.0)
            .only(&["material".to_string(), "king_danger".to_string()], &start)
            .unwrap();
        let fit = dataset.fit(&start, &plan, &mut |_, _| {});
        for ((name, before), (_, after)) in start.named().into_iter().zip(fit.weights.named()) {
            if !name.starts_with("material.") && name != "king_danger" {
                assert_eq!(before, after, "{name} is not fitted");
            }
        }
        assert_ne!(fit.weights.material, start.material, "the material moves");
        for wrong in ["materia", "material.", "square.middle.kni"] {
            assert!(
                FitPlan::new(1.0, 1, 1.0)
                    .only(&[wrong.to_string()], &start)
                    .is_err(),
                "{wrong}"
            );
        }
    }

    #[test]
    fn the_gradient_is_the_slope_of_the_loss() {
        let text = data(Variant::Trichess, &[1.0, 0.5, 0.0]);
        let dataset = Dataset::read(Variant::Trichess, &text).unwrap();
        let weights = weight_vector(&EvalWeights::of(Variant::Trichess));
        let target = Target {
            k: 0.004,
            lambda: 0.5,
        };
        let gradient = dataset.gradient(&weights, target);
        let step = 1e-3;
        for i in 0..weights.len() {
            let mut up = weights.clone();
            up[i] += step;
            let mut down = weights.clone();
            down[i] -= step;
            let slope = (dataset.loss(&up, target) - dataset.loss(&down, target)) / (2.0 * step);
            assert!(
                (slope - gradient[i]).abs() <= 1e-6 + 1e-3 * slope.abs(),
                "weight {i}: slope {slope}, gradient {}",
                gradient[i]
            );
        }
    }
}
