//! The points table: per configuration, games, seats, total points, points
//! per game with a 95% error bar, and forfeits.
//!
//! A configuration's points in a game are those of all its seats together:
//! in a pairing of two configurations in a three-player game, the one
//! seated twice collects both seats' points, so that the games stay
//! independent samples. The error bar is 1.96 standard errors of these
//! per-game points (sample standard deviation over √games).
//!
//! The pairwise table ([`HeadToHead`]) counts, for every two
//! configurations A and B, the games both played in and A's wins, draws
//! and losses against B: a game is A's win when A's points per seat it
//! held (its seats' points over its seats) exceed B's, a draw when they
//! are equal, else a loss. With one seat each (every two-player game, and
//! three configurations in a three-player game) that compares their
//! points; with A seated twice (A,A,B) it compares A's average seat with
//! B's seat, so that a game every seat drew is a draw. Elo and LOS come
//! from these counts as from single games ([`Estimate::from_trinomial`]).

use super::game::GameEnd;
use super::sprt::{Estimate, GameOutcome, PERCENT, Trinomial, elo_text};

/// Pseudo-games added to a configuration's games for its error bar (see
/// [`Standing::error_bar`]).
const PSEUDO_GAMES: f64 = 2.0;

/// The normal quantile of a two-sided 95% interval.
const Z_95: f64 = 1.96;

/// The heading of the pairwise table's first column.
const HEAD_TO_HEAD: &str = "head to head";

/// The decimals an error bar is written with.
const BAR_DECIMALS: usize = 3;

/// An error bar as the tables write it: three decimals, or, when that
/// would round a real interval to zero (thousands of identical games),
/// its first two significant digits (`0.000071`), so that only a
/// configuration without games reads ±0.
pub fn error_bar_text(bar: f64) -> String {
    let rounded = format!("{bar:.BAR_DECIMALS$}");
    if bar <= 0.0 || rounded.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
        return rounded;
    }
    let decimals = (1.0 - bar.log10().floor()) as usize;
    format!("{bar:.decimals$}")
}

/// One configuration's line of the table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standing {
    /// The configuration's name.
    pub name: String,
    /// Games played.
    pub games: usize,
    /// Seats held (more than games where it sat twice in one game).
    pub seats: usize,
    /// Points in total.
    pub points: f64,
    /// Sum of the squared points of each game (for the error bar).
    pub squares: f64,
    /// Games lost on time.
    pub timeouts: usize,
    /// Games lost by an illegal move.
    pub illegal: usize,
    /// Games lost by an engine process that exited or stalled.
    pub lost_contact: usize,
    /// The most points any game of the match gave in total: the scale of
    /// the pseudo-games that keep the error bar from collapsing.
    pub most_points: f64,
}

impl Standing {
    /// Points per game (0 before any game).
    pub fn per_game(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.points / self.games as f64
        }
    }

    /// Half the width of the 95% interval of the points per game (0
    /// before any game). Two pseudo-games, one scoring nothing and one all
    /// [`Standing::most_points`], join the games for the variance (as the
    /// Agresti-Coull interval adds pseudo-counts): when every game had the
    /// same result the sample variance is 0, yet the next game may differ,
    /// so the interval stays wide with few games and narrows as they grow.
    pub fn error_bar(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        let n = self.games as f64 + PSEUDO_GAMES;
        let points = self.points + self.most_points;
        let squares = self.squares + self.most_points * self.most_points;
        let mean = points / n;
        let variance = ((squares - n * mean * mean) / (n - 1.0)).max(0.0);
        Z_95 * (variance / n).sqrt()
    }
}

/// Two configurations' results against each other in the games they met.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HeadToHead {
    /// The first configuration (index in the match's order).
    pub first: usize,
    /// The second configuration, after the first.
    pub second: usize,
    /// The first's losses, draws and wins against the second.
    pub results: Trinomial,
}

impl HeadToHead {
    /// Counts a game played with configuration `seats[i]` in seat `i` and
    /// `points` per seat, if both configurations sat in it (module doc).
    pub fn add(&mut self, seats: &[usize], points: &[f64]) {
        let part = |config: usize| -> Option<(f64, usize)> {
            let mine: Vec<f64> = seats
                .iter()
                .zip(points)
                .filter(|&(&c, _)| c == config)
                .map(|(_, &p)| p)
                .collect();
            (!mine.is_empty()).then(|| (mine.iter().sum(), mine.len()))
        };
        if let (Some(first), Some(second)) = (part(self.first), part(self.second)) {
            self.results
                .add(GameOutcome::compare_per_seat(first, second));
        }
    }

    /// Games the two played together.
    pub fn games(&self) -> u64 {
        self.results.games()
    }

    /// The first's score fraction against the second: (wins + draws / 2)
    /// over games (0 before any game).
    pub fn score(&self) -> f64 {
        let games = self.games();
        if games == 0 {
            return 0.0;
        }
        (self.results.wins as f64 + self.results.draws as f64 / 2.0) / games as f64
    }

    /// The first's Elo against the second, with its 95% interval and LOS.
    pub fn estimate(&self) -> Estimate {
        Estimate::from_trinomial(&self.results)
    }
}

/// The table of a match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PointsTable {
    /// One line per configuration, in the match's order.
    pub rows: Vec<Standing>,
    /// The player letter of each seat, in turn order.
    pub seat_letters: Vec<char>,
    /// Points scored in each seat, whoever sat there.
    pub seat_points: Vec<f64>,
    /// Games added.
    pub games: usize,
    /// Every two configurations' results against each other, the first
    /// before the second in the match's order.
    pub pairwise: Vec<HeadToHead>,
}

impl PointsTable {
    /// An empty table of the configurations `names`, for a game whose
    /// seats have the letters `seat_letters`.
    pub fn new<S: AsRef<str>>(names: &[S], seat_letters: &[char]) -> PointsTable {
        PointsTable {
            seat_letters: seat_letters.to_vec(),
            seat_points: vec![0.0; seat_letters.len()],
            games: 0,
            pairwise: (0..names.len())
                .flat_map(|first| {
                    (first + 1..names.len()).map(move |second| HeadToHead {
                        first,
                        second,
                        ..HeadToHead::default()
                    })
                })
                .collect(),
            rows: names
                .iter()
                .map(|n| Standing {
                    name: n.as_ref().to_string(),
                    ..Standing::default()
                })
                .collect(),
        }
    }

    /// Adds a game played with configuration `seats[i]` in seat `i` that
    /// ended by `end` with `points` per seat.
    pub fn add(&mut self, seats: &[usize], points: &[f64], end: GameEnd) {
        self.games += 1;
        for pair in &mut self.pairwise {
            pair.add(seats, points);
        }
        for (total, seat) in self.seat_points.iter_mut().zip(points) {
            *total += seat;
        }
        for (config, row) in self.rows.iter_mut().enumerate() {
            let mine: Vec<usize> = (0..seats.len()).filter(|&s| seats[s] == config).collect();
            if mine.is_empty() {
                continue;
            }
            let mine_points: f64 = mine.iter().map(|&s| points[s]).sum();
            row.games += 1;
            row.seats += mine.len();
            row.points += mine_points;
            row.squares += mine_points * mine_points;
            row.most_points = row.most_points.max(points.iter().sum());
            match end {
                GameEnd::Timeout(p) if mine.contains(&p.index()) => row.timeouts += 1,
                GameEnd::Illegal(p) if mine.contains(&p.index()) => row.illegal += 1,
                GameEnd::Disconnect(p) | GameEnd::Stall(p) if mine.contains(&p.index()) => {
                    row.lost_contact += 1;
                }
                _ => {}
            }
        }
    }

    /// The points per game each configuration would score if all were
    /// equally strong: all points over all configurations' games.
    pub fn average(&self) -> f64 {
        let games: usize = self.rows.iter().map(|r| r.games).sum();
        let points: f64 = self.rows.iter().map(|r| r.points).sum();
        if games == 0 {
            0.0
        } else {
            points / games as f64
        }
    }

    /// The table as text lines.
    pub fn lines(&self) -> Vec<String> {
        let width = self
            .rows
            .iter()
            .map(|r| r.name.len())
            .chain(["config".len()])
            .max()
            .unwrap_or(0);
        let mut lines = vec![format!(
            "{:<width$}  {:>6}  {:>6}  {:>8}  {:>8}  {:>7}  {:>8}  {:>7}  {:>11}",
            "config",
            "games",
            "seats",
            "points",
            "per game",
            "±95%",
            "timeouts",
            "illegal",
            "crash/stall"
        )];
        for r in &self.rows {
            lines.push(format!(
                "{:<width$}  {:>6}  {:>6}  {:>8.2}  {:>8.3}  {:>7}  {:>8}  {:>7}  {:>11}",
                r.name,
                r.games,
                r.seats,
                r.points,
                r.per_game(),
                error_bar_text(r.error_bar()),
                r.timeouts,
                r.illegal,
                r.lost_contact
            ));
        }
        lines.push(format!(
            "equal strength would score {:.3} per game",
            self.average()
        ));
        let by_seat: Vec<String> = self
            .seat_letters
            .iter()
            .zip(&self.seat_points)
            .map(|(letter, points)| format!("{letter} {:.3}", points / self.games.max(1) as f64))
            .collect();
        lines.push(format!("points per game by seat: {}", by_seat.join(", ")));
        lines
    }

    /// The head-to-head results of the configurations that met in a game
    /// as text lines (module doc): games together, the first's wins,
    /// draws and losses against the second, its score fraction, LOS and
    /// Elo with its 95% interval; no line when no two met.
    pub fn pairwise_lines(&self) -> Vec<String> {
        let met: Vec<&HeadToHead> = self.pairwise.iter().filter(|p| p.games() > 0).collect();
        if met.is_empty() {
            return Vec::new();
        }
        let pair_names: Vec<String> = met
            .iter()
            .map(|p| {
                format!(
                    "{} vs {}",
                    self.rows[p.first].name, self.rows[p.second].name
                )
            })
            .collect();
        let width = pair_names
            .iter()
            .map(String::len)
            .chain([HEAD_TO_HEAD.len()])
            .max()
            .unwrap_or(0);
        let mut lines = vec![format!(
            "{HEAD_TO_HEAD:<width$}  {:>6}  {:>6}  {:>6}  {:>6}  {:>6}  {:>6}  Elo (95%)",
            "games", "wins", "draws", "losses", "score", "LOS"
        )];
        for (pair, name) in met.iter().zip(&pair_names) {
            let estimate = pair.estimate();
            let los = format!("{:.1}%", estimate.los * PERCENT);
            lines.push(format!(
                "{name:<width$}  {:>6}  {:>6}  {:>6}  {:>6}  {:>6.3}  {los:>6}  {}",
                pair.games(),
                pair.results.wins,
                pair.results.draws,
                pair.results.losses,
                pair.score(),
                elo_text(&estimate.elo)
            ));
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Player;

    #[test]
    fn points_games_and_error_bars() {
        let mut table = PointsTable::new(&["a", "b"], &['w', 'b']);
        table.add(&[0, 1], &[1.0, 0.0], GameEnd::MaxPlies);
        table.add(&[1, 0], &[0.0, 1.0], GameEnd::MaxPlies);
        table.add(&[0, 1], &[0.0, 1.0], GameEnd::Timeout(Player::new(0)));
        table.add(&[1, 0], &[0.5, 0.5], GameEnd::MaxPlies);
        let a = &table.rows[0];
        assert_eq!((a.games, a.points, a.timeouts), (4, 2.5, 1));
        assert!((a.per_game() - 0.625).abs() < 1e-12);
        // Points 1, 1, 0, 0.5 and the pseudo-games 0 and 1: standard error
        // 0.20069 (python3: statistics.variance over the six values, / 6, sqrt).
        assert!((a.error_bar() - Z_95 * 0.200_693).abs() < 1e-5);
        let b = &table.rows[1];
        assert_eq!((b.games, b.points, b.timeouts), (4, 1.5, 0));
        assert!((table.average() - 0.5).abs() < 1e-12);
        let lines = table.lines();
        assert_eq!(lines.len(), 5);
        assert_eq!(lines[4], "points per game by seat: w 0.375, b 0.625");
    }

    #[test]
    fn a_tiny_error_bar_is_written_with_its_significant_digits() {
        assert_eq!(error_bar_text(0.0), "0.000");
        assert_eq!(error_bar_text(0.1234), "0.123");
        assert_eq!(error_bar_text(0.0006), "0.001");
        assert_eq!(error_bar_text(0.000_071_4), "0.000071");
        assert_eq!(error_bar_text(0.000_000_91), "0.00000091");
    }

    #[test]
    fn the_error_bar_never_collapses_when_every_game_ends_alike() {
        let mut table = PointsTable::new(&["a", "b"], &['w', 'b']);
        for _ in 0..10 {
            table.add(&[0, 1], &[1.0, 0.0], GameEnd::MaxPlies);
        }
        // Ten wins and the pseudo-games 0 and 1: standard error 0.08333.
        let a = &table.rows[0];
        assert!((a.error_bar() - Z_95 * 0.083_333).abs() < 1e-5);
        assert!(table.rows[1].error_bar() > 0.0);
    }

    #[test]
    fn a_configuration_seated_twice_collects_both_seats() {
        let mut table = PointsTable::new(&["a", "b"], &['w', 'n', 'b']);
        table.add(&[0, 0, 1], &[3.0, 1.0, 0.0], GameEnd::MaxPlies);
        table.add(
            &[1, 0, 1],
            &[1.5, 0.0, 1.5],
            GameEnd::Timeout(Player::new(1)),
        );
        let (a, b) = (&table.rows[0], &table.rows[1]);
        assert_eq!((a.games, a.seats, a.points, a.timeouts), (2, 3, 4.0, 1));
        assert_eq!((b.games, b.seats, b.points, b.timeouts), (2, 3, 3.0, 0));
        // Points 4 and 0 and the pseudo-games 0 and 4 (the most a game
        // gave): sample variance 16/3, standard error √(4/3).
        assert!((a.error_bar() - Z_95 * (4.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert!((table.average() - 7.0 / 4.0).abs() < 1e-12);
    }

    /// The first's (wins, draws, losses) against the second in `table`.
    fn head_to_head(table: &PointsTable, first: usize, second: usize) -> (u64, u64, u64) {
        let pair = table
            .pairwise
            .iter()
            .find(|p| (p.first, p.second) == (first, second))
            .expect("a pair");
        let r = pair.results;
        assert_eq!(r.wins + r.draws + r.losses, pair.games());
        (r.wins, r.draws, r.losses)
    }

    #[test]
    fn two_players_count_their_plain_results_head_to_head() {
        let mut table = PointsTable::new(&["a", "b"], &['w', 'b']);
        assert_eq!(table.pairwise.len(), 1);
        assert!(table.pairwise_lines().is_empty());
        table.add(&[0, 1], &[1.0, 0.0], GameEnd::MaxPlies);
        table.add(&[1, 0], &[1.0, 0.0], GameEnd::MaxPlies);
        table.add(&[0, 1], &[0.5, 0.5], GameEnd::MaxPlies);
        table.add(&[1, 0], &[0.0, 1.0], GameEnd::Timeout(Player::new(0)));
        assert_eq!(head_to_head(&table, 0, 1), (2, 1, 1));
        let pair = &table.pairwise[0];
        assert!((pair.score() - 0.625).abs() < 1e-12);
        // The single-game estimate of sprt.rs, as the SPRT would give it.
        assert_eq!(pair.estimate(), Estimate::from_trinomial(&pair.results));
        let lines = table.pairwise_lines();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].starts_with("head to head  "), "{lines:?}");
        // LOS of [1, 1, 2] with the Jeffreys prior: weights 1.5, 1.5, 2.5,
        // score 3.25 / 5.5, standard error √(0.17355 / 6.5): Φ(0.5563).
        let words: Vec<&str> = lines[1].split_whitespace().collect();
        assert_eq!(
            words[..9],
            ["a", "vs", "b", "4", "2", "1", "1", "0.625", "71.1%"]
        );
        assert_eq!(words[9], format!("{:.1}", pair.estimate().elo.value));
    }

    #[test]
    fn a_configuration_seated_twice_is_compared_by_its_points_per_seat() {
        let mut table = PointsTable::new(&["a", "b"], &['w', 'n', 'b']);
        // A,A,B every seat drawn: 1 point a seat, a draw (not 2 against 1).
        table.add(&[0, 0, 1], &[1.0, 1.0, 1.0], GameEnd::MaxPlies);
        // B,A,B a mates: 3 against b's 0 and 1 (½ a seat).
        table.add(&[1, 0, 1], &[0.0, 3.0, 1.0], GameEnd::MaxPlies);
        // A,A,B b mates: a's seats 1 and 0 (½ a seat) against 3.
        table.add(&[0, 1, 0], &[1.0, 3.0, 0.0], GameEnd::MaxPlies);
        // A,A,B a's seats 3 and 0 against b's 1: 1½ a seat against 1.
        table.add(&[0, 0, 1], &[3.0, 0.0, 1.0], GameEnd::MaxPlies);
        // A,B,B forfeit shared: a 1½, b's seats 0 and 1½ (¾ a seat).
        table.add(
            &[0, 1, 1],
            &[1.5, 0.0, 1.5],
            GameEnd::Timeout(Player::new(1)),
        );
        assert_eq!(head_to_head(&table, 0, 1), (3, 1, 1));
        assert_eq!(table.pairwise[0].games(), 5);
    }

    #[test]
    fn three_configurations_meet_pairwise_in_every_game() {
        let mut table = PointsTable::new(&["a", "b", "c"], &['w', 'n', 'b']);
        let pairs: Vec<(usize, usize)> =
            table.pairwise.iter().map(|p| (p.first, p.second)).collect();
        assert_eq!(pairs, [(0, 1), (0, 2), (1, 2)]);
        table.add(&[0, 1, 2], &[3.0, 1.0, 0.0], GameEnd::MaxPlies);
        table.add(&[2, 0, 1], &[1.0, 1.0, 1.0], GameEnd::MaxPlies);
        table.add(&[1, 2, 0], &[0.0, 3.0, 1.0], GameEnd::MaxPlies);
        assert_eq!(head_to_head(&table, 0, 1), (2, 1, 0));
        assert_eq!(head_to_head(&table, 0, 2), (1, 1, 1));
        assert_eq!(head_to_head(&table, 1, 2), (1, 1, 1));
        let lines = table.pairwise_lines();
        assert_eq!(lines.len(), 4, "{lines:?}");
        assert!(lines[2].starts_with("a vs c  "), "{lines:?}");
        // Shares of thirds that round apart still draw.
        let mut thirds = PointsTable::new(&["a", "b"], &['w', 'n', 'b']);
        let third = 1.0 / 3.0;
        thirds.add(
            &[0, 0, 1],
            &[third, 0.1 + third - 0.1, third],
            GameEnd::MaxPlies,
        );
        assert_eq!(head_to_head(&thirds, 0, 1), (0, 1, 0));
    }
}
