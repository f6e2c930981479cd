//! Live standings of a running match (`--ratinginterval N`, as fastchess
//! and cutechess-cli print them): every `N` games, in game order as the
//! records are written, a short block on the games so far.
//!
//! The block after the first `n` games of the schedule (whatever order
//! games finish in, it waits for every earlier game, so that it is the
//! same at any `--concurrency`) has:
//!
//! - `live: <n> of <games> games:` and each configuration's points and
//!   points per game ± the 95% error bar of the points table
//!   ([`Standing::error_bar`]: never ±0);
//! - the first configuration against the others, from the estimates of
//!   [`super::sprt`] (Jeffreys prior: never ±0). In a two-player game its
//!   Elo ± 95% and LOS against the second, from the colour-swapped pairs
//!   (pentanomial) when `n` ends a pair, else from the single games
//!   (trinomial, the plain results); in a three-player game its points per
//!   game above its fair share ± 95% and LOS, from the full seating rounds
//!   among the `n` games (the three-player test's estimate);
//! - with an SPRT, the test's line over the same games (its LLR and
//!   bounds), when a round completed since the last block printed it.

use super::sequential::{MatchSprt, RoundCounts, RoundTallies};
use super::sprt::{Estimate, PERCENT, Pentanomial, RoundExcess, Trinomial, elo_text};
use super::table::{PointsTable, Standing, error_bar_text};
use super::{PlayedGame, ScheduledGame, TESTED, tested_part};
use crate::game::Variant;
use std::collections::BTreeMap;

/// Games between two live blocks, by default (fastchess' default).
pub const DEFAULT_RATING_INTERVAL: usize = 10;

/// How every line of a live block but the SPRT's begins.
pub const LIVE_PREFIX: &str = "live: ";

/// The live standings of a match: the games of the schedule counted in
/// order, and the block printed every `interval` of them.
#[derive(Clone, Debug)]
pub struct LiveRating {
    /// Games between two blocks (at least 1).
    interval: usize,
    /// Games in the match.
    total: usize,
    /// Games in a round.
    round_games: usize,
    /// The finished games not yet counted, waiting for an earlier one, by id.
    waiting: BTreeMap<usize, (ScheduledGame, PlayedGame)>,
    /// The points table of the games counted.
    table: PointsTable,
    /// The games of the round under way.
    tallies: RoundTallies,
    /// The complete rounds, for the first configuration.
    counts: RoundCounts,
    /// The match's SPRT over the games counted, if one runs.
    sprt: Option<MatchSprt>,
    /// The SPRT's line after its last complete round.
    sprt_line: Option<String>,
    /// The SPRT line a block printed last.
    printed_sprt: Option<String>,
}

impl LiveRating {
    /// The live standings of a match of `variant` between the
    /// configurations `names` (seat letters `letters`), of `total` games in
    /// rounds of `round_games`, with a block every `interval` games
    /// (`None` for 0: no live output), and the SPRT `sprt` if one runs.
    pub fn new<S: AsRef<str>>(
        variant: Variant,
        names: &[S],
        letters: &[char],
        (total, round_games): (usize, usize),
        interval: usize,
        sprt: Option<MatchSprt>,
    ) -> Option<LiveRating> {
        (interval > 0).then(|| LiveRating {
            interval,
            total,
            round_games,
            waiting: BTreeMap::new(),
            table: PointsTable::new(names, letters),
            tallies: RoundTallies::new(round_games),
            counts: RoundCounts::new(variant),
            sprt,
            sprt_line: None,
            printed_sprt: None,
        })
    }

    /// Counts a finished game; returns the blocks it completes (none until
    /// every earlier game is counted; more than one when it lets games
    /// that waited for it be counted past more than one multiple).
    pub fn add(&mut self, game: &ScheduledGame, played: &PlayedGame) -> Vec<String> {
        self.absorb(game, played, true)
    }

    /// Counts a game of an earlier run (`--resume`) without a block.
    pub fn resume(&mut self, game: &ScheduledGame, played: &PlayedGame) {
        self.absorb(game, played, false);
    }

    /// Games counted: the schedule's first games, all finished.
    pub fn counted(&self) -> usize {
        self.table.games
    }

    /// Counts `game`, then every waiting game after it in order, with the
    /// blocks they complete if `report`.
    fn absorb(&mut self, game: &ScheduledGame, played: &PlayedGame, report: bool) -> Vec<String> {
        self.waiting.insert(game.id, (game.clone(), played.clone()));
        let mut lines = Vec::new();
        while let Some((game, played)) = self.waiting.remove(&(self.counted() + 1)) {
            self.count(&game, &played);
            if report && self.counted().is_multiple_of(self.interval) {
                lines.extend(self.block());
            }
        }
        lines
    }

    /// Counts the next game in order.
    fn count(&mut self, game: &ScheduledGame, played: &PlayedGame) {
        self.table.add(&game.seats, &played.points, played.end);
        let (tested, total, seats) = tested_part(&game.seats, &played.points);
        if let Some(round) = self
            .tallies
            .add_game(game.round, game.id, tested, total, seats)
        {
            self.counts.add(&round);
        }
        if let Some(line) = self
            .sprt
            .as_mut()
            .and_then(|sprt| sprt.add_game(game.round, game.id, tested, total, seats))
        {
            self.sprt_line = Some(line);
        }
    }

    /// The block of the games counted (module doc).
    fn block(&mut self) -> Vec<String> {
        let standings: Vec<String> = self.table.rows.iter().map(standing_text).collect();
        let mut lines = vec![
            format!(
                "{LIVE_PREFIX}{} of {} games: {}",
                self.counted(),
                self.total,
                standings.join("; ")
            ),
            format!("{LIVE_PREFIX}{}", self.comparison()),
        ];
        if self.sprt_line.is_some() && self.sprt_line != self.printed_sprt {
            lines.extend(self.sprt_line.clone());
            self.printed_sprt.clone_from(&self.sprt_line);
        }
        lines
    }

    /// The first configuration against the others (module doc).
    fn comparison(&self) -> String {
        let tested = &self.table.rows[TESTED].name;
        match &self.counts {
            RoundCounts::Pairs(pairs) => {
                let others: Vec<&str> = self.table.rows[TESTED + 1..]
                    .iter()
                    .map(|r| r.name.as_str())
                    .collect();
                let whole_pairs = self.counted().is_multiple_of(self.round_games);
                let games = self
                    .table
                    .pairwise
                    .first()
                    .map(|p| p.results)
                    .unwrap_or_default();
                format!(
                    "{tested} vs {}: {}",
                    others.join(", "),
                    elo_comparison(pairs, &games, whole_pairs)
                )
            }
            RoundCounts::Excess(excess) => {
                format!("{tested} vs its fair share: {}", excess_comparison(excess))
            }
        }
    }
}

/// A configuration's part of the standings line:
/// `random 4.50 points, 0.450 ± 0.231 per game`.
fn standing_text(row: &Standing) -> String {
    format!(
        "{} {:.2} points, {:.3} ± {} per game",
        row.name,
        row.points,
        row.per_game(),
        error_bar_text(row.error_bar())
    )
}

/// Elo ± 95% and LOS from `pairs` if `whole_pairs`, else from the single
/// `games`, with the counts they come from:
/// `Elo 35.0 ± 150.2 (95%), LOS 67.9%, 5 pairs [0, 1, 3, 1, 0]` or
/// `..., 11 games +3 =5 -3` (wins, draws, losses).
fn elo_comparison(pairs: &Pentanomial, games: &Trinomial, whole_pairs: bool) -> String {
    let (estimate, counts) = if whole_pairs {
        (
            Estimate::from_pentanomial(pairs),
            format!("{} pairs {:?}", pairs.pairs(), pairs.counts),
        )
    } else {
        (
            Estimate::from_trinomial(games),
            format!(
                "{} games +{} ={} -{}",
                games.games(),
                games.wins,
                games.draws,
                games.losses
            ),
        )
    };
    format!(
        "Elo {} (95%), LOS {:.1}%, {counts}",
        elo_text(&estimate.elo),
        estimate.los * PERCENT
    )
}

/// The excess per game ± 95% and LOS over the complete rounds:
/// `+0.125 ± 0.400 points/game (95%), LOS 73.0%, 2 rounds`.
fn excess_comparison(excess: &RoundExcess) -> String {
    if excess.rounds() == 0 {
        return "no round complete yet".to_string();
    }
    let interval = excess.excess_per_game();
    format!(
        "{:+.3} ± {:.3} points/game (95%), LOS {:.1}%, {} rounds",
        interval.value,
        interval.margin(),
        excess.los() * PERCENT,
        excess.rounds()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::game::GameEnd;
    use crate::tournament::sprt::{EloModel, SprtConfig};

    /// Game `id` (from 1) of a two-player match, seated as rounds seat it.
    fn chess_game(id: usize) -> ScheduledGame {
        ScheduledGame {
            id,
            round: id.div_ceil(2),
            seats: if id % 2 == 1 { vec![0, 1] } else { vec![1, 0] },
        }
    }

    fn played(points: &[f64]) -> PlayedGame {
        PlayedGame {
            points: points.to_vec(),
            end: GameEnd::MaxPlies,
        }
    }

    fn chess_live(interval: usize, sprt: Option<MatchSprt>) -> LiveRating {
        LiveRating::new(
            Variant::Chess,
            &["a", "b"],
            &['w', 'b'],
            (8, 2),
            interval,
            sprt,
        )
        .expect("an interval")
    }

    /// The numbers of a line after `key`: `"… Elo 35.0 ± 150.2"` → 35.0, 150.2.
    fn numbers_after(line: &str, key: &str) -> (f64, f64) {
        let rest = &line[line.find(key).unwrap_or_else(|| panic!("{key}: {line}")) + key.len()..];
        let words: Vec<&str> = rest.split_whitespace().collect();
        let number = |w: &str| w.trim_end_matches(['%', ',']).parse::<f64>().unwrap();
        (number(words[0]), number(words[2]))
    }

    #[test]
    fn blocks_come_in_game_order_every_interval() {
        let mut live = chess_live(2, None);
        assert!(
            LiveRating::new(Variant::Chess, &["a", "b"], &['w', 'b'], (8, 2), 0, None).is_none()
        );
        // a wins with white, draws with black: games finish 2, 3, 1, 4.
        let result = |id: usize| {
            if id % 2 == 1 {
                played(&[1.0, 0.0])
            } else {
                played(&[0.5, 0.5])
            }
        };
        assert!(live.add(&chess_game(2), &result(2)).is_empty());
        assert!(live.add(&chess_game(3), &result(3)).is_empty());
        let lines = live.add(&chess_game(1), &result(1));
        // Games 1 and 2 make a block; 3 waits for 4.
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(
            lines[0].starts_with("live: 2 of 8 games: a 1.50 points, 0.750 ± "),
            "{lines:?}"
        );
        assert!(lines[0].contains("; b 0.50 points, 0.250 ± "), "{lines:?}");
        assert!(
            lines[1].starts_with("live: a vs b: Elo ")
                && lines[1].ends_with("1 pairs [0, 0, 0, 1, 0]"),
            "{lines:?}"
        );
        assert_eq!(live.counted(), 3);
        let lines = live.add(&chess_game(4), &result(4));
        assert!(
            lines[0].starts_with("live: 4 of 8 games: a 3.00 points"),
            "{lines:?}"
        );
        assert!(lines[1].ends_with("2 pairs [0, 0, 0, 2, 0]"), "{lines:?}");
    }

    #[test]
    fn a_block_inside_a_pair_counts_single_games() {
        let mut live = chess_live(3, None);
        let mut lines = Vec::new();
        for id in 1..=6 {
            lines.extend(live.add(&chess_game(id), &played(&[1.0, 0.0])));
        }
        // White wins every game: a wins games 1, 3 and loses 2 by the third.
        assert_eq!(lines.len(), 4, "{lines:?}");
        assert!(lines[1].ends_with("3 games +2 =0 -1"), "{lines:?}");
        assert!(lines[3].ends_with("3 pairs [0, 0, 3, 0, 0]"), "{lines:?}");
    }

    #[test]
    fn live_intervals_never_collapse() {
        for points in [[0.5, 0.5], [1.0, 0.0]] {
            let mut live = chess_live(2, None);
            let mut lines = Vec::new();
            for id in 1..=8 {
                // The same result for a in every game: all draws, or all wins.
                let seat_points = if id % 2 == 1 {
                    points
                } else {
                    [points[1], points[0]]
                };
                lines.extend(live.add(&chess_game(id), &played(&seat_points)));
            }
            assert_eq!(lines.len(), 8, "{lines:?}");
            for block in lines.chunks(2) {
                let (per_game, bar) = numbers_after(&block[0], "points, ");
                assert!(bar > 0.0 && (0.0..=1.0).contains(&per_game), "{block:?}");
                if points[0] == 0.5 {
                    let (elo, margin) = numbers_after(&block[1], "Elo ");
                    assert!(elo.abs() < 1e-9 && margin > 0.0, "{block:?}");
                }
            }
            if points[0] == 1.0 {
                assert!(lines[7].contains("/+inf (95%), LOS 9"), "{lines:?}");
            }
        }
    }

    #[test]
    fn the_sprt_line_is_printed_once_per_round() {
        let config = SprtConfig::new(0.0, 5.0, 0.05, 0.05, EloModel::Logistic).unwrap();
        let mut live = chess_live(1, Some(MatchSprt::pairs(config, 2)));
        let mut lines = Vec::new();
        for id in 1..=4 {
            lines.extend(live.add(&chess_game(id), &played(&[0.5, 0.5])));
        }
        let sprt: Vec<&String> = lines.iter().filter(|l| l.starts_with("sprt: ")).collect();
        assert_eq!(sprt.len(), 2, "{lines:?}");
        assert!(
            sprt[0].starts_with("sprt: 1 pairs [0, 0, 1, 0, 0]"),
            "{lines:?}"
        );
        assert!(
            sprt[1].starts_with("sprt: 2 pairs [0, 0, 2, 0, 0]"),
            "{lines:?}"
        );
        // Blocks after games 1 (no round yet), 2, 3 (no new round), 4.
        assert_eq!(lines.len(), 4 * 2 + 2, "{lines:?}");
    }

    #[test]
    fn resumed_games_count_without_a_block() {
        let config = SprtConfig::new(0.0, 5.0, 0.05, 0.05, EloModel::Logistic).unwrap();
        let mut live = chess_live(4, Some(MatchSprt::pairs(config, 2)));
        for id in 1..=3 {
            live.resume(&chess_game(id), &played(&[1.0, 0.0]));
        }
        assert_eq!(live.counted(), 3);
        let lines = live.add(&chess_game(4), &played(&[1.0, 0.0]));
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(
            lines[0].starts_with("live: 4 of 8 games: a 2.00 points"),
            "{lines:?}"
        );
        assert!(
            lines[2].starts_with("sprt: 2 pairs [0, 0, 2, 0, 0]"),
            "{lines:?}"
        );
    }

    #[test]
    fn three_players_compare_the_first_with_its_fair_share() {
        let seatings = crate::tournament::schedule::seatings(3, 2).unwrap();
        let mut live = LiveRating::new(
            Variant::Dreierschach,
            &["a", "b"],
            &['w', 'n', 'b'],
            (12, 6),
            3,
            None,
        )
        .unwrap();
        let mut lines = Vec::new();
        for id in 1..=12 {
            let seats = seatings[(id - 1) % 6].clone();
            // Every game drawn, 1 point a seat: exactly the fair share.
            let game = ScheduledGame {
                id,
                round: (id - 1) / 6 + 1,
                seats,
            };
            lines.extend(live.add(&game, &played(&[1.0, 1.0, 1.0])));
        }
        assert_eq!(lines.len(), 8, "{lines:?}");
        assert_eq!(lines[1], "live: a vs its fair share: no round complete yet");
        assert!(
            lines[3].starts_with("live: a vs its fair share: +0.000 ± ")
                && lines[3].ends_with("LOS 50.0%, 1 rounds"),
            "{lines:?}"
        );
        let (_, margin) = numbers_after(&lines[3], "share: ");
        assert!(margin > 0.0, "{lines:?}");
        assert!(lines[7].ends_with("2 rounds"), "{lines:?}");
        // Both sat in 6 of 6 games; each scored 1.5 points a game.
        assert!(lines[6].starts_with("live: 12 of 12 games: a 18.00 points, 1.500 ± "));
    }
}
