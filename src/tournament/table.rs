//! The points table: per configuration, games, seats, total points, points
//! per game with a 95% error bar, and forfeits.
//!
//! A configuration's points in a game are those of all its seats together:
//! in a pairing of two configurations in a three-player game, the one
//! seated twice collects both seats' points, so that the games stay
//! independent samples. The error bar is 1.96 standard errors of these
//! per-game points (sample standard deviation over √games).

use super::game::GameEnd;

/// Pseudo-games added to a configuration's games for its error bar (see
/// [`Standing::error_bar`]).
const PSEUDO_GAMES: f64 = 2.0;

/// The normal quantile of a two-sided 95% interval.
const Z_95: f64 = 1.96;

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
}

impl PointsTable {
    /// An empty table of the configurations `names`, for a game whose
    /// seats have the letters `seat_letters`.
    pub fn new<S: AsRef<str>>(names: &[S], seat_letters: &[char]) -> PointsTable {
        PointsTable {
            seat_letters: seat_letters.to_vec(),
            seat_points: vec![0.0; seat_letters.len()],
            games: 0,
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
                "{:<width$}  {:>6}  {:>6}  {:>8.2}  {:>8.3}  {:>7.3}  {:>8}  {:>7}  {:>11}",
                r.name,
                r.games,
                r.seats,
                r.points,
                r.per_game(),
                r.error_bar(),
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
}
