//! Matches between player configurations, to measure playing strength
//! (`triskel match`, protocol.md section 7).
//!
//! A match plays whole rounds. A round is every seating of the
//! configurations once ([`schedule::seatings`]: both colours with two
//! players; all 6 orders with three, a pairing of two configurations seated
//! as A,A,B and A,B,B in every order), all from one opening: the next of
//! an opening book ([`openings`]), or else a few seeded random legal plies
//! from the start position, new for each round, that leave every player in
//! and no king attacked.
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
//!   by adjudication from the players' scores ([`adjudication`]), or
//!   after `max_plies` moves after the opening as a draw by the game's
//!   draw points (Star: decided by the points on the board).
//!
//! Each game writes one [`record::Record`] line; the [`table::PointsTable`]
//! sums points per configuration (a configuration seated twice in a game
//! collects both seats' points) and counts every two configurations'
//! results against each other; [`live`] gives the standings every few
//! games while the match runs.

pub mod adjudication;
pub mod balanced;
pub mod engine_spec;
pub mod evaluation;
pub mod external;
pub mod game;
pub mod live;
pub mod openings;
pub mod pgn;
pub mod player;
pub mod record;
pub mod schedule;
pub mod sequential;
pub mod sink;
pub mod sprt;
pub mod table;

use crate::game::{ClockRule, Variant};
use adjudication::Adjudication;
use evaluation::MoveEvaluation;
use game::{GameEnd, GameResult, GameSetup, TimeControl, play_game};
use live::LiveRating;
use openings::Book;
use player::{PlayerConfig, mix_seed};
use record::Record;
use schedule::{Opening, random_opening, seatings};
use sequential::MatchSprt;
use sprt::Decision;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use table::PointsTable;

/// Plies after the opening at which a game is adjudicated a draw, by default.
pub const DEFAULT_MAX_PLIES: usize = 600;

/// Random opening plies per player, by default (two moves each).
pub const DEFAULT_OPENING_PLIES_PER_PLAYER: usize = 2;

/// Most random opening plies a match may ask for.
pub const MAX_OPENING_PLIES: usize = 40;
/// Most games a match plays: a billion, years of play at any time control.
/// The schedule takes memory independent of the count; a larger count is
/// a mistake, refused before anything starts.
pub const MAX_GAMES: usize = 1_000_000_000;

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
    /// Random plies of each round's opening (without a book).
    pub opening_plies: usize,
    /// The openings of the rounds, if they come from a book.
    pub book: Option<Book>,
    /// Plies after the opening at which a game is adjudicated a draw.
    pub max_plies: usize,
    /// Adjudication from the players' scores (`--draw`, `--resign`).
    pub adjudication: Adjudication,
    /// Games played at the same time.
    pub concurrency: usize,
    /// The SPRT of the first configuration against the others, if one is
    /// run: the match ends when it decides.
    pub sprt: Option<MatchSprt>,
    /// Whether an engine that crashed or stalled is started again for the
    /// next game (cutechess-cli's `-recover`); if not, the match ends
    /// after that game.
    pub recover: bool,
    /// The first games of the schedule, finished in an earlier run
    /// (`--resume`, see [`MatchSettings::resumed_games`]).
    pub resumed: Vec<PlayedGame>,
    /// Games between two blocks of live standings ([`live`]); 0 for none.
    pub rating_interval: usize,
}

/// The games of a match, made one at a time as they are played, so that a
/// schedule of any length takes the memory of one round.
#[derive(Clone, Debug)]
pub struct Schedule {
    /// The seatings of each round.
    round: Vec<Vec<usize>>,
    /// Games in all.
    games: usize,
}

impl Schedule {
    /// Games in the match.
    pub fn len(&self) -> usize {
        self.games
    }

    /// Whether the match has no games (never, for checked settings).
    pub fn is_empty(&self) -> bool {
        self.games == 0
    }

    /// Game `index` (from 0, in the order of play: round by round).
    pub fn game(&self, index: usize) -> ScheduledGame {
        ScheduledGame {
            id: index + 1,
            round: index / self.round.len() + 1,
            seats: self.round[index % self.round.len()].clone(),
        }
    }

    /// Games in a round.
    pub fn round_games(&self) -> usize {
        self.round.len()
    }

    /// Rounds in the match.
    pub fn rounds(&self) -> usize {
        self.games / self.round.len()
    }

    /// Every game, in the order of play.
    pub fn games(&self) -> impl Iterator<Item = ScheduledGame> + '_ {
        (0..self.games).map(|index| self.game(index))
    }
}

/// One game of the schedule.
#[derive(Clone, Debug)]
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
        if self.games > MAX_GAMES {
            return Err(format!("--games {}: at most {MAX_GAMES}", self.games));
        }
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
            if a.has_move_and_game_clock()
                && self.variant.game().facts.clock_rule != ClockRule::ForfeitAndFreeze
            {
                return Err(format!(
                    "--engine {}: st= with tc= (a time per move and one per game) only in a game with such clocks (star); in {} give one of them",
                    a.name, self.variant
                ));
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

    /// Every game of the match, round by round, checking the settings.
    pub fn schedule(&self) -> Result<Schedule, String> {
        Ok(Schedule {
            round: self.round_seatings()?,
            games: self.games,
        })
    }

    /// What fixes the match's schedule, as one line: the game, the
    /// configurations, the seed and the openings (not the number of games:
    /// a longer match starts with the same games, so a match may be
    /// resumed with more games than it first had). A
    /// record file notes it before a match's records (`# match ...`), and
    /// `--resume` goes on only with a match of the same line.
    pub fn schedule_line(&self) -> String {
        let names: Vec<&str> = self.players.iter().map(|p| p.name.as_str()).collect();
        let openings = match &self.book {
            Some(book) => format!("openings {}", book.description),
            None => format!("{} random opening plies", self.opening_plies),
        };
        format!(
            "{MATCH_NOTE}{}: {}; seed {}; {openings}",
            self.variant,
            names.join(" vs "),
            self.seed
        )
    }

    /// The games of the records of an earlier run of this match (those
    /// after its [`MatchSettings::schedule_line`] in the record file), as
    /// games to resume from, checking that they are this schedule's first
    /// games: their numbers from 1, their seats and their openings.
    pub fn resumed_games(&self, records: &[Record]) -> Result<Vec<PlayedGame>, String> {
        let schedule = self.schedule()?;
        if records.len() > schedule.len() {
            return Err(format!(
                "{} records, but the match has {} games",
                records.len(),
                schedule.len()
            ));
        }
        let mut played = Vec::with_capacity(records.len());
        for (index, record) in records.iter().enumerate() {
            let game = schedule.game(index);
            let names: Vec<&str> = game
                .seats
                .iter()
                .map(|&c| self.players[c].name.as_str())
                .collect();
            let seated: Vec<&str> = record.seats.iter().map(|(_, n)| n.as_str()).collect();
            let fen = self.opening(game.round).position.fen();
            let differs = if record.id != game.id {
                Some(format!("is game {}", record.id))
            } else if record.variant != self.variant {
                Some(format!("is a game of {}", record.variant))
            } else if seated != names {
                Some(format!("seats {}", seated.join(", ")))
            } else if record.fen != fen {
                Some("starts from another opening".to_string())
            } else {
                None
            };
            if let Some(why) = differs {
                return Err(format!(
                    "record {} {why}: not game {} of this match's schedule",
                    index + 1,
                    game.id
                ));
            }
            played.push(PlayedGame {
                points: record.points.clone(),
                end: record.end,
            });
        }
        Ok(played)
    }

    /// The opening of round `round` (from 1).
    pub fn opening(&self, round: usize) -> Opening {
        if let Some(book) = &self.book {
            return book.opening(round, self.variant);
        }
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
            from: opening.from.clone(),
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
            evals: result
                .evaluations
                .iter()
                .map(MoveEvaluation::in_whole_ms)
                .collect(),
        }
    }
}

/// Raised by Ctrl-C or SIGTERM (see [`interrupt`]): no game starts, the
/// games in flight are abandoned (their engine processes told to quit,
/// then killed) and the match returns what it finished.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Asks the running match to end as soon as it can (a signal handler's
/// work: it only raises a flag).
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::Relaxed);
}

/// Whether the match was interrupted.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// The flag that stops searches of the built-in engine on interruption.
pub(crate) fn interruption_flag() -> &'static AtomicBool {
    &INTERRUPTED
}

/// How the line that starts a match's records in a record file begins.
pub const MATCH_NOTE: &str = "# match ";

/// The configuration an SPRT tests: the match's first.
pub const TESTED: usize = 0;

/// A game of the schedule finished in an earlier run of the match
/// (`--resume`): it counts, and is not played again.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame {
    /// Points per seat.
    pub points: Vec<f64>,
    /// Why it ended.
    pub end: GameEnd,
}

/// What the finished games add up to while a match runs.
struct Standings {
    /// The points table.
    table: PointsTable,
    /// Games finished.
    done: usize,
    /// The SPRT, if one runs.
    sprt: Option<MatchSprt>,
    /// The live standings, if they are printed.
    live: Option<LiveRating>,
}

/// The tested configuration's part of a game played with configuration
/// `seats[i]` in seat `i` and `points` per seat: its points, all seats'
/// points, and (its seats, all seats).
fn tested_part(seats: &[usize], points: &[f64]) -> (f64, f64, (usize, usize)) {
    let tested: Vec<usize> = (0..seats.len()).filter(|&s| seats[s] == TESTED).collect();
    let tested_points: f64 = tested.iter().map(|&s| points[s]).sum();
    let total_points: f64 = points.iter().sum();
    (tested_points, total_points, (tested.len(), seats.len()))
}

impl Standings {
    /// Counts `played` as scheduled `game`; returns the SPRT's line and
    /// decision when the game completes a round of the test.
    fn account(&mut self, game: &ScheduledGame, played: &PlayedGame) -> Option<(String, Decision)> {
        self.table.add(&game.seats, &played.points, played.end);
        self.done += 1;
        let (tested_points, total_points, seats) = tested_part(&game.seats, &played.points);
        let sprt = self.sprt.as_mut()?;
        let line = sprt.add_game(game.round, game.id, tested_points, total_points, seats)?;
        Some((line, sprt.decision()))
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
    /// The SPRT's line and decision when this game completed a round.
    pub sprt: Option<(&'a str, Decision)>,
    /// The blocks of live standings this game completed, as lines (see
    /// [`live`]; with live standings on, the SPRT's lines come in them).
    pub live: &'a [String],
}

/// Plays the match, calling `on_game` after each game (from the thread
/// that played it, one call at a time), and returns the points table.
pub fn run_match(
    settings: &MatchSettings,
    on_game: &(dyn Fn(&Finished) + Sync),
) -> Result<PointsTable, String> {
    let schedule = settings.schedule()?;
    let names: Vec<&str> = settings.players.iter().map(|p| p.name.as_str()).collect();
    let rules = settings.variant.game();
    let letters = &rules.letters[..rules.players];
    let mut standings = Standings {
        table: PointsTable::new(&names, letters),
        done: 0,
        sprt: settings.sprt.clone(),
        live: LiveRating::new(
            settings.variant,
            &names,
            letters,
            (schedule.len(), schedule.round_games()),
            settings.rating_interval,
            settings.sprt.clone(),
        ),
    };
    let total = schedule.len();
    let mut decision = Decision::Continue;
    for (index, played) in settings.resumed.iter().enumerate() {
        let game = schedule.game(index);
        if let Some(live) = &mut standings.live {
            live.resume(&game, played);
        }
        if let Some((_, decided)) = standings.account(&game, played) {
            decision = decided;
        }
    }
    let decided = AtomicBool::new(decision != Decision::Continue);
    let state = Mutex::new(standings);
    let play = |index: usize| -> Result<(), String> {
        let game = &schedule.game(index);
        // Drawn again for each game of the round: a few random plies, fewer
        // than the memory of every round's opening would cost.
        let opening = &settings.opening(game.round);
        let setup = GameSetup {
            start: &opening.position,
            seats: game.seats.iter().map(|&c| &settings.players[c]).collect(),
            time_control: settings.time_control,
            max_plies: settings.max_plies,
            adjudication: settings.adjudication,
            seeds: (0..game.seats.len())
                .map(|seat| mix_seed(&[settings.seed, PLAYER_STREAM, game.id as u64, seat as u64]))
                .collect(),
        };
        let result = play_game(&setup)?;
        let record = settings.record(game, opening, &result);
        let mut guard = state.lock().unwrap_or_else(|e| e.into_inner());
        let played = PlayedGame {
            points: result.points.clone(),
            end: result.end,
        };
        let sprt = guard.account(game, &played);
        let live = match &mut guard.live {
            Some(live) => live.add(game, &played),
            None => Vec::new(),
        };
        let decisive = sprt.as_ref().is_some_and(|(_, d)| *d != Decision::Continue);
        let lost_engine = matches!(result.end, GameEnd::Disconnect(_) | GameEnd::Stall(_));
        if decisive || (lost_engine && !settings.recover) {
            decided.store(true, Ordering::Relaxed);
        }
        on_game(&Finished {
            record: &record,
            done: guard.done,
            total,
            illegal: result.illegal.as_deref(),
            sprt: sprt
                .as_ref()
                .map(|(line, decision)| (line.as_str(), *decision)),
            live: &live,
        });
        Ok(())
    };
    // Each game thread takes the next game in schedule order, so games
    // start in order (records wait for at most the games in flight, and an
    // SPRT's rounds complete one after another); the first error stops
    // every thread from taking more, as does an SPRT's decision or, without `recover`, a lost engine.
    let next = AtomicUsize::new(settings.resumed.len());
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let worker = || {
        loop {
            let index = next.fetch_add(1, Ordering::Relaxed);
            if index >= total || decided.load(Ordering::Relaxed) || interrupted() {
                return;
            }
            if let Err(why) = play(index) {
                if interrupted() {
                    return;
                }
                failure
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert(why);
                next.store(total, Ordering::Relaxed);
                return;
            }
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..settings.concurrency.clamp(1, total.max(1)) {
            scope.spawn(worker);
        }
    });
    if let Some(why) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(why);
    }
    Ok(state.into_inner().unwrap_or_else(|e| e.into_inner()).table)
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
            time_control: TimeControl::fischer(Duration::from_secs(10), Duration::ZERO),
            seed: 5,
            opening_plies: 4,
            book: None,
            max_plies: 200,
            adjudication: Adjudication::default(),
            concurrency: 2,
            sprt: None,
            recover: true,
            resumed: Vec::new(),
            rating_interval: 0,
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
        let schedule = s.schedule().unwrap();
        let games: Vec<ScheduledGame> = schedule.games().collect();
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
    fn a_schedule_of_any_length_is_made_as_it_is_played() {
        let s = settings(Variant::Chess, &["random", "greedy"], MAX_GAMES);
        let schedule = s.schedule().unwrap();
        assert_eq!(schedule.len(), MAX_GAMES);
        let last = schedule.game(MAX_GAMES - 1);
        assert_eq!((last.id, last.round), (MAX_GAMES, MAX_GAMES / 2));
        assert_eq!(last.seats, [1, 0]);
        for absurd in [MAX_GAMES + 2, usize::MAX - 1] {
            let err = settings(Variant::Chess, &["random", "greedy"], absurd)
                .schedule()
                .unwrap_err();
            assert!(err.contains("at most"), "{err}");
        }
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
