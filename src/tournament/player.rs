//! The players of a match: engine configurations built from the search's
//! options, and the baselines `random` (a random legal move) and `greedy`
//! (the capture of the most valuable piece, else a random move), both driven
//! by a seeded generator so that a match can be replayed.

use super::engine_spec::{ExternalConfig, FixedLimit};
use super::evaluation::SearchScore;
use super::external::{ExternalEngine, Failure};
use super::game::TimeControl;
use crate::game::zobrist::splitmix64;
use crate::moves::Move;
use crate::number;
use crate::position::Position;
use crate::protocol::options::{
    HASH, MOVE_OVERHEAD, Options as ProtocolOptions, SEARCH_ALGORITHM, THREADS,
};
use crate::search::eval::EvalTables;
use crate::search::{self, Limits, MAX_DEPTH, Progress, Searcher};
use crate::types::{MAX_PLAYERS, PieceKind};
use std::time::Duration;

/// The spec of the baseline that plays a random legal move.
pub const RANDOM: &str = "random";
/// The spec of the baseline that captures the most valuable piece it can.
pub const GREEDY: &str = "greedy";
/// The spec of the engine (followed by `:key=value,...` for overrides).
pub const ENGINE: &str = "engine";
/// The spec of an engine in another process (followed by `:PATH`).
pub const EXEC: &str = "exec";

/// The keys an engine spec may override, with what they mean (for `--help`).
pub const ENGINE_KEYS: [(&str, &str); 7] = [
    ("algorithm", "paranoid | maxn | brs (three-player games)"),
    ("hash", "transposition table in MB"),
    ("threads", "search threads (default 1)"),
    ("overhead", "Move Overhead in ms"),
    (
        "depth",
        "search to this depth on every move, without a clock",
    ),
    (
        "nodes",
        "search about this many nodes per move, without a clock",
    ),
    ("movetime", "think this many ms per move, without a clock"),
];

/// What greedy counts a king as worth when a game lets kings be captured
/// (Hexenschach's first phase): more than any other piece.
const KING_CAPTURE_VALUE: i32 = 1_000_000;

/// A reproducible stream of random numbers (SplitMix64).
#[derive(Clone, Debug)]
pub struct SeededRng(u64);

impl SeededRng {
    /// A stream starting from `seed`.
    pub fn new(seed: u64) -> SeededRng {
        SeededRng(seed)
    }

    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        splitmix64(&mut self.0)
    }

    /// A number in `0..n`; `n` must be positive.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// One seed made from several numbers (match seed, game, seat, ...), so that
/// every game and seat draws from its own stream whatever order games run in.
pub fn mix_seed(parts: &[u64]) -> u64 {
    parts.iter().fold(0, |acc, &part| {
        let mut state = acc ^ part;
        splitmix64(&mut state)
    })
}

/// How an engine player searches.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// The search options (algorithm, table, threads, overhead).
    pub options: search::Options,
    /// A fixed depth, node count or time per move instead of the clock.
    pub limit: FixedLimit,
}

impl EngineConfig {
    /// Whether the engine plays by the clock (no fixed depth, nodes or time per move).
    pub fn is_clocked(&self) -> bool {
        self.limit.is_none()
    }
}

/// What kind of player a configuration is.
#[derive(Clone, Debug)]
pub enum PlayerKind {
    /// A random legal move.
    Random,
    /// The capture of the most valuable piece, else a random move.
    Greedy,
    /// The engine's search.
    Engine(EngineConfig),
    /// An engine in another process, driven through the protocol.
    External(ExternalConfig),
}

/// A named player configuration of a match.
#[derive(Clone, Debug)]
pub struct PlayerConfig {
    /// The name in tables and records (the spec it was read from).
    pub name: String,
    /// What plays.
    pub kind: PlayerKind,
}

impl PlayerConfig {
    /// Reads a spec: `random`, `greedy`, `engine`,
    /// `engine:key=value,...` with the keys of [`ENGINE_KEYS`], or
    /// `exec:PATH`.
    pub fn parse(spec: &str) -> Result<PlayerConfig, String> {
        if spec.is_empty() || spec.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(format!(
                "player '{spec}': a spec is one word without spaces (random, greedy, engine, engine:key=value,... or exec:PATH)"
            ));
        }
        let (head, overrides) = match spec.split_once(':') {
            Some((head, rest)) => (head, Some(rest)),
            None => (spec, None),
        };
        let kind = match (head.to_ascii_lowercase().as_str(), overrides) {
            (RANDOM, None) => PlayerKind::Random,
            (GREEDY, None) => PlayerKind::Greedy,
            (RANDOM | GREEDY, Some(_)) => {
                return Err(format!("player '{spec}': {head} takes no options"));
            }
            (ENGINE, overrides) => PlayerKind::Engine(
                engine_config(overrides.unwrap_or_default())
                    .map_err(|why| format!("player '{spec}': {why}"))?,
            ),
            (EXEC, Some(path)) if !path.is_empty() => {
                PlayerKind::External(ExternalConfig::program(path))
            }
            (EXEC, _) => {
                return Err(format!(
                    "player '{spec}': exec needs the engine's path (exec:PATH)"
                ));
            }
            _ => {
                return Err(format!(
                    "player '{spec}': unknown player (expected random, greedy, engine, engine:key=value,... or exec:PATH)"
                ));
            }
        };
        Ok(PlayerConfig {
            name: spec.to_string(),
            kind,
        })
    }

    /// The player's own time control, where it has one (an `--engine`
    /// with `tc=`); the match's otherwise.
    pub fn time_control(&self) -> Option<TimeControl> {
        match &self.kind {
            PlayerKind::External(external) => external.time_control,
            _ => None,
        }
    }

    /// Whether the player's clock runs and can run out (baselines, and
    /// engines without a fixed depth, node count or time per move; in Star
    /// also an `--engine` with `st=` and its own `tc=`: a time per move and
    /// one for the game).
    pub fn is_clocked(&self) -> bool {
        match &self.kind {
            PlayerKind::Engine(engine) => engine.is_clocked(),
            PlayerKind::External(external) => {
                external.limit.is_none() || self.has_move_and_game_clock()
            }
            PlayerKind::Random | PlayerKind::Greedy => true,
        }
    }

    /// The player's fixed time per move (`st=`, `movetime=`), if it has one.
    pub fn time_per_move(&self) -> Option<Duration> {
        match &self.kind {
            PlayerKind::Engine(engine) => engine.limit.movetime,
            PlayerKind::External(external) => external.limit.movetime,
            PlayerKind::Random | PlayerKind::Greedy => None,
        }
    }

    /// Whether the player has both a time per move and its own clock for
    /// the game (`st=` with `tc=`): the clocks of Star.
    pub fn has_move_and_game_clock(&self) -> bool {
        match &self.kind {
            PlayerKind::External(external) => {
                let FixedLimit {
                    movetime,
                    depth,
                    nodes,
                } = external.limit;
                movetime.is_some()
                    && depth.is_none()
                    && nodes.is_none()
                    && external.time_control.is_some()
            }
            _ => false,
        }
    }
}

/// The engine configuration of the overrides `key=value,...` (empty: the
/// protocol's default options).
fn engine_config(overrides: &str) -> Result<EngineConfig, String> {
    let mut options = ProtocolOptions::default();
    let mut config = EngineConfig {
        options: options.search(),
        limit: FixedLimit::default(),
    };
    let mut seen: Vec<&str> = Vec::new();
    for pair in overrides.split(',').filter(|p| !p.is_empty()) {
        let (key, value) = pair
            .split_once('=')
            .ok_or_else(|| format!("'{pair}': expected key=value"))?;
        let key = ENGINE_KEYS
            .iter()
            .map(|&(k, _)| k)
            .find(|k| k.eq_ignore_ascii_case(key))
            .ok_or_else(|| {
                let keys: Vec<&str> = ENGINE_KEYS.iter().map(|&(k, _)| k).collect();
                format!("unknown key '{key}' (keys: {})", keys.join(", "))
            })?;
        if seen.contains(&key) {
            return Err(format!("{key} given twice"));
        }
        seen.push(key);
        match key {
            "algorithm" => set_option(&mut options, SEARCH_ALGORITHM, key, value)?,
            "hash" => set_option(&mut options, HASH, key, value)?,
            "threads" => set_option(&mut options, THREADS, key, value)?,
            "overhead" => set_option(&mut options, MOVE_OVERHEAD, key, value)?,
            "depth" => {
                let depth = positive(key, value)?;
                config.limit.depth = Some(
                    u32::try_from(depth)
                        .ok()
                        .filter(|&d| d <= MAX_DEPTH)
                        .ok_or_else(|| format!("depth={value}: at most {MAX_DEPTH}"))?,
                );
            }
            "nodes" => config.limit.nodes = Some(positive(key, value)?),
            "movetime" => {
                config.limit.movetime = Some(Duration::from_millis(positive(key, value)?));
            }
            _ => unreachable!("every key of ENGINE_KEYS is handled"),
        }
    }
    config.options = options.search();
    Ok(config)
}

/// Sets protocol option `name` from the spec's `key=value`.
fn set_option(
    options: &mut ProtocolOptions,
    name: &str,
    key: &str,
    value: &str,
) -> Result<(), String> {
    options
        .set(name, Some(value))
        .map(|_| ())
        .map_err(|why| format!("{key}={value}: {why}"))
}

/// A positive whole number.
fn positive(key: &str, value: &str) -> Result<u64, String> {
    number::whole_in(value, &(1..=u64::MAX))
        .ok_or_else(|| format!("{key}={value}: expected a positive whole number"))
}

/// The clocks as a player sees them before its move.
#[derive(Clone, Copy, Debug)]
pub struct ClockView {
    /// Remaining time of each player, in turn order (`None` for seats without a clock).
    pub time: [Option<Duration>; MAX_PLAYERS],
    /// The increment each player gets after each of its moves.
    pub increment: [Duration; MAX_PLAYERS],
    /// The mover's moves left until its next time control, if its time
    /// comes in periods.
    pub moves_to_go: Option<u32>,
}

/// A player during one game: the baselines' generators, the engine's
/// searcher with its table, or an engine process.
pub enum Mover {
    /// Plays `random`.
    Random(SeededRng),
    /// Plays `greedy`.
    Greedy(SeededRng),
    /// Plays the engine.
    Engine {
        /// The search state, fresh for the game.
        searcher: Box<Searcher>,
        /// How it searches.
        config: EngineConfig,
    },
    /// Plays an engine in another process.
    External(Box<ExternalEngine>),
}

impl Mover {
    /// A player of `config` for a new game from `start`; `seed` drives the
    /// baselines. Fails when the engine's table cannot be allocated or an
    /// engine process cannot be started.
    pub fn new(config: &PlayerConfig, seed: u64, start: &Position) -> Result<Mover, String> {
        Ok(match &config.kind {
            PlayerKind::Random => Mover::Random(SeededRng::new(seed)),
            PlayerKind::Greedy => Mover::Greedy(SeededRng::new(seed)),
            PlayerKind::Engine(engine) => {
                let mut searcher = Box::new(Searcher::new(search::Options {
                    hash_mb: 1,
                    ..engine.options.clone()
                }));
                searcher
                    .set_options(engine.options.clone())
                    .map_err(|why| format!("{}: {why}", config.name))?;
                Mover::Engine {
                    searcher,
                    config: engine.clone(),
                }
            }
            PlayerKind::External(external) => Mover::External(Box::new(
                ExternalEngine::start(external, start)
                    .map_err(|why| format!("{}: {why}", config.name))?,
            )),
        })
    }

    /// Takes `pos` as the game's new start for the positions an engine
    /// process is sent: a clock event changed it without a move (the
    /// engine searching here has the position itself).
    pub fn rebase(&mut self, pos: &Position) {
        if let Mover::External(engine) = self {
            engine.rebase(pos);
        }
    }

    /// The move to play in `pos`, reached by `moves` from the game's start
    /// or its last clock event (`Move::NONE` if there is none), with the player's evaluation if it
    /// searched; or why an engine process gave none.
    pub fn choose(
        &mut self,
        pos: &Position,
        moves: &[String],
        clocks: &ClockView,
    ) -> Result<Choice, Failure> {
        let unsearched = |mv| Choice { mv, search: None };
        Ok(match self {
            Mover::Random(rng) => unsearched(random_move(pos, rng)),
            Mover::Greedy(rng) => unsearched(greedy_move(pos, rng)),
            Mover::External(engine) => return engine.choose(pos, moves, clocks),
            Mover::Engine { searcher, config } => {
                let limits = if config.is_clocked() {
                    Limits {
                        time: clocks.time,
                        increment: clocks.increment,
                        moves_to_go: clocks.moves_to_go,
                        ..Limits::default()
                    }
                } else {
                    Limits {
                        depth: config.limit.depth,
                        nodes: config.limit.nodes,
                        movetime: config.limit.movetime,
                        ..Limits::default()
                    }
                };
                // The players' scores of the last line of the principal
                // variation: the line of the result.
                let mut scores = Vec::new();
                let result =
                    searcher.search(pos, &limits, super::interruption_flag(), &mut |progress| {
                        if let Progress::Line(info) = progress
                            && info.multipv <= 1
                        {
                            scores.clone_from(&info.scores);
                        }
                    });
                Choice {
                    mv: result.best,
                    search: (result.depth > 0).then_some(SearchScore {
                        score: result.score,
                        depth: result.depth,
                        scores,
                    }),
                }
            }
        })
    }
}

/// A player's answer to a position: its move and, where it searched, its
/// evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move (`Move::NONE` if there is none).
    pub mv: Move,
    /// The mover's evaluation (`None` for the baselines and engines that
    /// report no score).
    pub search: Option<SearchScore>,
}

/// A random legal move (`Move::NONE` if there is none).
pub fn random_move(pos: &Position, rng: &mut SeededRng) -> Move {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Move::NONE;
    }
    moves[rng.below(moves.len())]
}

/// The greedy baseline's move: among the captures, those taking the most
/// valuable piece (by the engine's material values of the game), of these
/// the ones made with the least valuable piece, one of them at random;
/// without a capture a random legal move.
pub fn greedy_move(pos: &Position, rng: &mut SeededRng) -> Move {
    let values = &EvalTables::of(pos.variant()).values;
    let value = |kind: PieceKind| {
        if kind == PieceKind::King {
            KING_CAPTURE_VALUE
        } else {
            values[kind.index()]
        }
    };
    let moves = pos.legal_moves();
    let mut best_key = None;
    let mut best: Vec<Move> = Vec::new();
    for &m in &moves {
        let mut after = pos.scratch_copy();
        let Some((_, victim)) = after.make(m).captured() else {
            continue;
        };
        let attacker = pos.piece_at(m.from()).map_or(0, |p| value(p.kind()));
        let key = (value(victim.kind()), -attacker);
        if best_key.is_none_or(|b| key > b) {
            best_key = Some(key);
            best.clear();
        }
        if best_key == Some(key) {
            best.push(m);
        }
    }
    if best.is_empty() {
        return random_move(pos, rng);
    }
    best[rng.below(best.len())]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Variant;

    fn chess(fen: &str) -> Position {
        Position::from_fen(Variant::Chess, fen).expect("a valid position")
    }

    #[test]
    fn greedy_takes_the_most_valuable_piece() {
        // The white knight on d5 can take a pawn (c7), a rook (b6) or the
        // queen (f6); the bishop on c3 can take the rook on a5 too.
        let pos = chess("4k3/2p5/1r3q2/r2N4/8/2B5/8/4K3 w - - 0 1");
        for seed in 0..20 {
            let m = greedy_move(&pos, &mut SeededRng::new(seed));
            assert_eq!(pos.move_text(m), "d5f6", "seed {seed}");
        }
    }

    #[test]
    fn greedy_takes_with_the_least_valuable_piece() {
        // The queen on d5 is attacked by the pawn on e4 and the rook on d1.
        let pos = chess("4k3/8/8/3q4/4P3/8/8/3RK3 w - - 0 1");
        for seed in 0..20 {
            let m = greedy_move(&pos, &mut SeededRng::new(seed));
            assert_eq!(pos.move_text(m), "e4d5", "seed {seed}");
        }
    }

    #[test]
    fn greedy_without_captures_and_random_play_legal_moves_reproducibly() {
        let pos = Position::start(Variant::Dreierschach);
        let legal = pos.legal_moves();
        for seed in 0..10 {
            let a = greedy_move(&pos, &mut SeededRng::new(seed));
            let b = greedy_move(&pos, &mut SeededRng::new(seed));
            assert_eq!(a, b);
            assert!(legal.contains(&a));
            let r = random_move(&pos, &mut SeededRng::new(seed));
            assert!(legal.contains(&r));
            assert_eq!(r, random_move(&pos, &mut SeededRng::new(seed)));
        }
    }

    #[test]
    fn specs_parse_and_refuse_clearly() {
        assert!(matches!(
            PlayerConfig::parse("random").unwrap().kind,
            PlayerKind::Random
        ));
        assert!(matches!(
            PlayerConfig::parse("greedy").unwrap().kind,
            PlayerKind::Greedy
        ));
        let PlayerKind::Engine(e) = PlayerConfig::parse("engine").unwrap().kind else {
            panic!("an engine");
        };
        assert!(e.is_clocked());
        let spec = "engine:algorithm=maxn,hash=4,depth=3";
        let config = PlayerConfig::parse(spec).unwrap();
        assert_eq!(config.name, spec);
        assert!(!config.is_clocked());
        let PlayerKind::Engine(e) = config.kind else {
            panic!("an engine");
        };
        assert_eq!(e.options.algorithm, search::Algorithm::MaxN);
        assert_eq!(e.options.hash_mb, 4);
        assert_eq!(e.limit.depth, Some(3));
        for bad in [
            "",
            "rando",
            "random:depth=2",
            "engine:algorithm=best",
            "engine:depth=0",
            "engine:depth=x",
            "engine:depth=+3",
            "engine:hash=+4",
            "engine:movetime=+50",
            "engine:speed=3",
            "engine:depth",
            "engine:depth=2,depth=3",
            "engine:hash=0",
            "engine two",
        ] {
            let err = PlayerConfig::parse(bad).expect_err(bad);
            assert!(err.starts_with("player '"), "{bad}: {err}");
        }
    }

    #[test]
    fn seeds_mix_every_part() {
        assert_ne!(mix_seed(&[1, 2, 3]), mix_seed(&[1, 3, 2]));
        assert_ne!(mix_seed(&[0, 0]), mix_seed(&[0]));
        assert_eq!(mix_seed(&[7, 8]), mix_seed(&[7, 8]));
    }
}
