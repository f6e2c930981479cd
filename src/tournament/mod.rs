//! Matches between player configurations, to measure playing strength
//! (`triskel match`, protocol.md section 7).
//!
//! A match plays whole rounds. A round is every seating of the
//! configurations once ([`schedule::seatings`]: both colours with two
//! players; all 6 orders with three, a pairing of two configurations seated
//! as A,A,B and A,B,B in every order), all from one opening: a few seeded
//! random legal plies from the start position, new for each round, that
//! leave every player in and no king attacked.
//!
//! Rules of a game ([`game`]):
//! - clocks: each clocked player starts with `time`; the real time of each
//!   move is subtracted and `increment` added after it. Engines get their
//!   clock in `Limits.time`/`Limits.increment` and manage their time;
//!   engines with a fixed depth, node count or time per move play without
//!   a clock (their time is measured but never runs out);
//! - a player whose move takes longer than its remaining time, or that
//!   answers with an illegal move, loses: 0 points, and the players still
//!   in the game share equally the total a draw would give;
//! - a game ends by the rules ([`Position::outcome`](crate::position::Position::outcome)),
//!   or after `max_plies` moves after the opening as a draw by the game's
//!   draw points (Star: decided by the points on the board).
//!
//! Each game writes one [`record::Record`] line; the [`table::PointsTable`]
//! sums points per configuration (a configuration seated twice in a game
//! collects both seats' points).

pub mod external;
pub mod game;
pub mod player;
pub mod record;
pub mod schedule;
pub mod table;

use crate::variants::Variant;
use game::{GameResult, GameSetup, TimeControl, play_game};
use player::{PlayerConfig, mix_seed};
use record::Record;
use schedule::{Opening, random_opening, seatings};
use std::sync::Mutex;
use table::PointsTable;

/// Plies after the opening at which a game is adjudicated a draw, by default.
pub const DEFAULT_MAX_PLIES: usize = 600;

/// Random opening plies per player, by default (two moves each).
pub const DEFAULT_OPENING_PLIES_PER_PLAYER: usize = 2;

/// Most random opening plies a match may ask for.
pub const MAX_OPENING_PLIES: usize = 40;

/// Stream tag of the openings' seeds (kept apart from the players').
const OPENING_STREAM: u64 = 1;
/// Stream tag of the random players' seeds.
const PLAYER_STREAM: u64 = 2;

/// What a match plays.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// The game.
    pub variant: Variant,
    /// The configurations (2, or 3 in a three-player game); names must differ.
    pub players: Vec<PlayerConfig>,
    /// Games in total: a multiple of the seatings of a round.
    pub games: usize,
    /// The clocks.
    pub time_control: TimeControl,
    /// Seed of the openings and the baselines.
    pub seed: u64,
    /// Random plies of each round's opening.
    pub opening_plies: usize,
    /// Plies after the opening at which a game is adjudicated a draw.
    pub max_plies: usize,
    /// Games played at the same time.
    pub concurrency: usize,
}

/// One game of the schedule.
#[derive(Clone)]
pub struct ScheduledGame {
    /// Game number, from 1.
    pub id: usize,
    /// Round number, from 1.
    pub round: usize,
    /// The configuration in each seat.
    pub seats: Vec<usize>,
}

/// Names made unique by a suffix `#1`, `#2`, ... where a spec is given
/// more than once (self-play).
pub fn unique_names(specs: &[String]) -> Vec<String> {
    specs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            if specs.iter().filter(|t| *t == s).count() == 1 {
                return s.clone();
            }
            let earlier = specs[..i].iter().filter(|t| *t == s).count();
            format!("{s}#{}", earlier + 1)
        })
        .collect()
}

impl MatchSettings {
    /// The seatings of a round, checking the settings.
    pub fn round_seatings(&self) -> Result<Vec<Vec<usize>>, String> {
        let players = self.variant.game().players;
        let round = seatings(players, self.players.len())
            .map_err(|why| format!("--players: {why} ({})", self.variant))?;
        if self.games == 0 || !self.games.is_multiple_of(round.len()) {
            return Err(format!(
                "--games {}: must be a positive multiple of {} (the seatings of a round of {} with {} configurations)",
                self.games,
                round.len(),
                self.variant,
                self.players.len()
            ));
        }
        for (i, a) in self.players.iter().enumerate() {
            if self.players[..i].iter().any(|b| b.name == a.name) {
                return Err(format!("--players: the name {} is given twice", a.name));
            }
        }
        if self.opening_plies > MAX_OPENING_PLIES {
            return Err(format!(
                "--opening-plies {}: at most {MAX_OPENING_PLIES}",
                self.opening_plies
            ));
        }
        Ok(round)
    }

    /// Every game of the match, round by round.
    pub fn schedule(&self) -> Result<Vec<ScheduledGame>, String> {
        let round = self.round_seatings()?;
        let rounds = self.games / round.len();
        let round = &round;
        Ok((0..rounds)
            .flat_map(|r| {
                round
                    .iter()
                    .enumerate()
                    .map(move |(i, seats)| ScheduledGame {
                        id: r * round.len() + i + 1,
                        round: r + 1,
                        seats: seats.clone(),
                    })
            })
            .collect())
    }

    /// The opening of round `round` (from 1).
    pub fn opening(&self, round: usize) -> Opening {
        let seed = mix_seed(&[self.seed, OPENING_STREAM, round as u64]);
        random_opening(self.variant, self.opening_plies, seed)
    }

    /// The record of game `game` played from `opening` with `result`.
    fn record(&self, game: &ScheduledGame, opening: &Opening, result: &GameResult) -> Record {
        let letters = self.variant.game().letters;
        Record {
            id: game.id,
            round: game.round,
            variant: self.variant,
            seats: game
                .seats
                .iter()
                .enumerate()
                .map(|(seat, &c)| (letters[seat], self.players[c].name.clone()))
                .collect(),
            opening: opening.moves.clone(),
            fen: opening.position.fen(),
            moves: result.moves.clone(),
            end: result.end,
            points: result.points.clone(),
            ms: result
                .time_used
                .iter()
                .map(|t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX))
                .collect(),
        }
    }
}

/// A finished game as reported to the caller while the match runs.
pub struct Finished<'a> {
    /// The game's record.
    pub record: &'a Record,
    /// Games finished so far, this one included.
    pub done: usize,
    /// Games in the match.
    pub total: usize,
    /// The position and move of an illegal answer, if there was one.
    pub illegal: Option<&'a str>,
}

/// Plays the match, calling `on_game` after each game (from the thread
/// that played it, one call at a time), and returns the points table.
pub fn run_match(
    settings: &MatchSettings,
    on_game: &(dyn Fn(&Finished) + Sync),
) -> Result<PointsTable, String> {
    let schedule = settings.schedule()?;
    let rounds = schedule.last().map_or(0, |g| g.round);
    let openings: Vec<Opening> = (1..=rounds).map(|r| settings.opening(r)).collect();
    let names: Vec<&str> = settings.players.iter().map(|p| p.name.as_str()).collect();
    let rules = settings.variant.game();
    let letters = &rules.letters[..rules.players];
    let state = Mutex::new((PointsTable::new(&names, letters), 0usize));
    let total = schedule.len();
    let play = |game: &ScheduledGame| -> Result<(), String> {
        let opening = &openings[game.round - 1];
        let setup = GameSetup {
            start: &opening.position,
            seats: game.seats.iter().map(|&c| &settings.players[c]).collect(),
            time_control: settings.time_control,
            max_plies: settings.max_plies,
            seeds: (0..game.seats.len())
                .map(|seat| mix_seed(&[settings.seed, PLAYER_STREAM, game.id as u64, seat as u64]))
                .collect(),
        };
        let result = play_game(&setup)?;
        let record = settings.record(game, opening, &result);
        let mut guard = state.lock().unwrap_or_else(|e| e.into_inner());
        guard.0.add(&game.seats, &result);
        guard.1 += 1;
        on_game(&Finished {
            record: &record,
            done: guard.1,
            total,
            illegal: result.illegal.as_deref(),
        });
        Ok(())
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.concurrency.max(1))
        .build()
        .map_err(|why| format!("cannot start the game threads: {why}"))?;
    pool.install(|| {
        use rayon::prelude::*;
        schedule.par_iter().with_max_len(1).try_for_each(play)
    })?;
    let (table, _) = state.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn settings(variant: Variant, specs: &[&str], games: usize) -> MatchSettings {
        MatchSettings {
            variant,
            players: specs
                .iter()
                .map(|s| PlayerConfig::parse(s).unwrap())
                .collect(),
            games,
            time_control: TimeControl {
                time: Duration::from_secs(10),
                increment: Duration::ZERO,
            },
            seed: 5,
            opening_plies: 4,
            max_plies: 200,
            concurrency: 2,
        }
    }

    #[test]
    fn names_of_self_play_are_numbered() {
        let specs = ["engine", "random", "engine"].map(String::from);
        assert_eq!(unique_names(&specs), ["engine#1", "random", "engine#2"]);
    }

    #[test]
    fn the_schedule_rotates_seats_round_by_round() {
        let s = settings(Variant::Star, &["random", "greedy"], 12);
        let games = s.schedule().unwrap();
        assert_eq!(games.len(), 12);
        assert_eq!(games[6].round, 2);
        assert_eq!(games[6].seats, games[0].seats);
        assert!(
            settings(Variant::Star, &["random", "greedy"], 8)
                .schedule()
                .is_err()
        );
        assert!(
            settings(Variant::Chess, &["random", "greedy", "engine"], 6)
                .schedule()
                .is_err()
        );
        assert!(
            settings(Variant::Chess, &["random", "random"], 2)
                .schedule()
                .is_err()
        );
    }

    #[test]
    fn a_match_of_baselines_sums_its_points() {
        let s = settings(Variant::Trichess, &["random", "greedy"], 6);
        let records = Mutex::new(Vec::new());
        let table = run_match(&s, &|f: &Finished| {
            records.lock().unwrap().push(f.record.clone());
        })
        .unwrap();
        let records = records.into_inner().unwrap();
        assert_eq!(records.len(), 6);
        let games: usize = table.rows.iter().map(|r| r.games).sum();
        let seats: usize = table.rows.iter().map(|r| r.seats).sum();
        assert_eq!((games, seats), (12, 18));
        let points: f64 = records.iter().flat_map(|r| r.points.iter()).sum();
        let table_points: f64 = table.rows.iter().map(|r| r.points).sum();
        assert!((points - table_points).abs() < 1e-9);
        assert!(records.iter().all(|r| r.opening == records[0].opening));
    }
}
