//! Playing one game with clocks.
//!
//! Every clocked player starts with the match's time; the runner measures
//! the real time each move took, subtracts it, and adds the increment after
//! the move (Fischer). A player whose move took longer than its remaining
//! time loses on time; so does a player that returns an illegal move (or,
//! an engine process, none at all). In Star the clocks are the rule book's
//! ([`ClockRule::ForfeitAndFreeze`]): a move over the player's time per
//! move is forfeited, and a player whose time for the game is used up is
//! frozen; the game goes on ([`ClockEvent`]). A
//! game ends by the rules ([`Position::outcome`]), by adjudication from the
//! players' scores ([`super::adjudication`]) or, after the match's maximum
//! number of plies, by adjudication as a draw.

use super::adjudication::{Adjudication, Adjudicator, Ply, Verdict};
use super::evaluation::MoveEvaluation;
use super::external::Failure;
use super::player::{ClockView, Mover, PlayerConfig, PlayerKind};
use crate::game::ClockRule;
use crate::moves::Move;
use crate::position::{ClockEventError, Position};
use crate::rules::{EndReason, Outcome};
use crate::types::{MAX_PLAYERS, Player};
use std::time::{Duration, Instant};

/// A player's time control: time for a number of moves (or the game),
/// an increment per move, and a margin by which the clock may be overrun
/// before the game is lost on time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period: after each this many moves of the player, `time`
    /// is added again (cutechess's `40/60`); `None`: the whole game.
    pub moves: Option<u32>,
    /// Time on the clock at the start, and added for each period.
    pub time: Duration,
    /// Added to the player's clock after each of its moves.
    pub increment: Duration,
    /// How far a move may overrun the clock without losing on time.
    pub margin: Duration,
}

impl TimeControl {
    /// `time` for the game plus `increment` per move, no margin.
    pub const fn fischer(time: Duration, increment: Duration) -> TimeControl {
        TimeControl {
            moves: None,
            time,
            increment,
            margin: Duration::ZERO,
        }
    }

    /// The moves left in the current period after `played` moves of the
    /// player (`None` for a game-long period).
    pub fn moves_to_go(&self, played: u32) -> Option<u32> {
        self.moves.map(|moves| moves - played % moves)
    }
}

/// A change of the position without a move, by Star's clocks
/// ([`ClockRule::ForfeitAndFreeze`]); records write it among the moves as
/// its [`ClockEvent::token`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockEvent {
    /// The player on turn overran its time per move: its move is
    /// forfeited and the next player is on turn.
    Forfeit,
    /// The player on turn used up its time for the game: it is frozen.
    Freeze,
}

impl ClockEvent {
    /// Both events.
    pub const ALL: [ClockEvent; 2] = [ClockEvent::Forfeit, ClockEvent::Freeze];

    /// The word a record writes in the event's place among the moves
    /// (never a move in any game's notation).
    pub const fn token(self) -> &'static str {
        match self {
            ClockEvent::Forfeit => "forfeit",
            ClockEvent::Freeze => "freeze",
        }
    }

    /// The event a record's word names, if it names one.
    pub fn from_token(text: &str) -> Option<ClockEvent> {
        ClockEvent::ALL.into_iter().find(|e| e.token() == text)
    }

    /// Applies the event to `pos`.
    pub fn apply(self, pos: &mut Position) -> Result<(), ClockEventError> {
        match self {
            ClockEvent::Forfeit => pos.forfeit_move(),
            ClockEvent::Freeze => pos.freeze_player_to_move(),
        }
    }
}

/// Plays a record's word on `pos`: a clock event's token, else a move read
/// by `read` (the wire notation or SAN). Returns the move, `None` for a
/// clock event.
pub fn play_word<E: std::fmt::Display>(
    pos: &mut Position,
    text: &str,
    mut read: impl FnMut(&Position, &str) -> Result<Move, E>,
) -> Result<Option<Move>, String> {
    if let Some(event) = ClockEvent::from_token(text) {
        event.apply(pos).map_err(|why| format!("{text}: {why}"))?;
        return Ok(None);
    }
    let m = read(pos, text).map_err(|why| why.to_string())?;
    pos.make(m);
    Ok(Some(m))
}

/// Why a game of a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// By a rule of the game.
    Rules(EndReason),
    /// This player's clock ran out.
    Timeout(Player),
    /// This player answered with an illegal move or one that cannot be read.
    Illegal(Player),
    /// This player's engine process exited (or closed its pipes) during the game.
    Disconnect(Player),
    /// This player's engine process gave no move even after `stop`.
    Stall(Player),
    /// The game reached the match's maximum length and was adjudicated a draw.
    MaxPlies,
    /// This player was adjudicated lost from the scores (`--resign`).
    ResignAdjudicated(Player),
    /// The game was adjudicated a draw from the scores (`--draw`).
    DrawAdjudicated,
}

/// One game to play.
pub struct GameSetup<'a> {
    /// The position the game starts from (an opening).
    pub start: &'a Position,
    /// The configuration in each seat, in turn order.
    pub seats: Vec<&'a PlayerConfig>,
    /// The clocks.
    pub time_control: TimeControl,
    /// Plies after which the game is adjudicated a draw.
    pub max_plies: usize,
    /// Adjudication from the players' scores.
    pub adjudication: Adjudication,
    /// Seeds of the seats' random players.
    pub seeds: Vec<u64>,
}

/// How a game went.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// The moves played from the start position, on the wire.
    pub moves: Vec<String>,
    /// Each move's time and the mover's evaluation, one per move.
    pub evaluations: Vec<MoveEvaluation>,
    /// Why it ended.
    pub end: GameEnd,
    /// The points of each seat, in turn order.
    pub points: Vec<f64>,
    /// Time each seat used in total.
    pub time_used: Vec<Duration>,
    /// Why a player forfeited (an illegal answer, a lost engine process),
    /// with the position, for the report.
    pub illegal: Option<String>,
}

/// Why a game in flight was not finished.
const ABANDONED: &str = "the match was interrupted";

/// Plays the game of `setup`. Fails when a player cannot be set up (its
/// engine's table cannot be allocated) or the match is interrupted.
pub fn play_game(setup: &GameSetup) -> Result<GameResult, String> {
    let players = setup.start.game().players;
    let mut movers = Vec::with_capacity(players);
    for (seat, (config, &seed)) in setup.seats.iter().zip(&setup.seeds).enumerate() {
        match Mover::new(config, seed, setup.start) {
            Ok(mover) => movers.push(mover),
            // A handshake cut short by an interruption is no forfeit: the
            // game is abandoned like one interrupted in play.
            Err(_) if super::interrupted() => return Err(ABANDONED.to_string()),
            // An engine process that does not start or complete its
            // handshake forfeits the game; the match goes on.
            Err(why) if matches!(config.kind, PlayerKind::External(_)) => {
                let me = Player::new(seat);
                return Ok(GameResult {
                    moves: Vec::new(),
                    evaluations: Vec::new(),
                    end: GameEnd::Disconnect(me),
                    points: forfeit_points(setup.start, me)[..players].to_vec(),
                    time_used: vec![Duration::ZERO; players],
                    illegal: Some(format!("did not start: {why}")),
                });
            }
            Err(why) => return Err(why),
        }
    }
    let clocked: Vec<bool> = setup.seats.iter().map(|c| c.is_clocked()).collect();
    let controls: Vec<TimeControl> = setup
        .seats
        .iter()
        .map(|c| c.time_control().unwrap_or(setup.time_control))
        .collect();
    let per_move: Vec<Option<Duration>> = setup.seats.iter().map(|c| c.time_per_move()).collect();
    let clock_rule = setup.start.game().facts.clock_rule;
    let mut pos = setup.start.clone();
    // The moves since the start or the last clock event: what engine
    // processes are sent after that position.
    let mut since_event: Vec<String> = Vec::new();
    let mut remaining: Vec<Duration> = controls.iter().map(|c| c.time).collect();
    let mut moves_made = vec![0u32; players];
    let mut time_used = vec![Duration::ZERO; players];
    let mut moves = Vec::new();
    let mut evaluations = Vec::new();
    let mut adjudicator = Adjudicator::new(setup.adjudication, setup.start.variant());
    let mut illegal = None;
    let (end, points) = loop {
        if super::interrupted() {
            return Err(ABANDONED.to_string());
        }
        if let Some(outcome) = pos.outcome_with_claims() {
            break (GameEnd::Rules(outcome.reason), outcome.points);
        }
        if moves.len() >= setup.max_plies {
            break (GameEnd::MaxPlies, adjudicated_draw(&pos).points);
        }
        let me = pos.to_move();
        let seat = me.index();
        let mut clocks = ClockView {
            time: [None; MAX_PLAYERS],
            increment: [Duration::ZERO; MAX_PLAYERS],
            moves_to_go: controls[seat].moves_to_go(moves_made[seat]),
        };
        for p in 0..players {
            clocks.time[p] = clocked[p].then_some(remaining[p]);
            clocks.increment[p] = controls[p].increment;
        }
        let started = Instant::now();
        let answer = movers[seat].choose(&pos, &since_event, &clocks);
        let took = started.elapsed();
        time_used[seat] += took;
        if super::interrupted() {
            return Err(ABANDONED.to_string());
        }
        let lost_contact = match &answer {
            Err(Failure::Disconnected(why)) => Some((GameEnd::Disconnect(me), why)),
            Err(Failure::Stalled(why)) => Some((GameEnd::Stall(me), why)),
            _ => None,
        };
        if let Some((end, why)) = lost_contact {
            let name = &setup.seats[seat].name;
            illegal = Some(format!(
                "{name} {} ({why}) in {}",
                end_word(end),
                pos.standard_fen()
            ));
            break (end, forfeit_points(&pos, me));
        }
        let margin = controls[seat].margin;
        let out_of_time = clocked[seat] && took > remaining[seat] + margin;
        if clock_rule == ClockRule::ForfeitAndFreeze {
            let over_move_time = per_move[seat].is_some_and(|t| took > t + margin);
            let event = if out_of_time {
                Some(ClockEvent::Freeze)
            } else if over_move_time && !only_passes(&pos) {
                Some(ClockEvent::Forfeit)
            } else {
                None
            };
            if let Some(event) = event {
                if clocked[seat] {
                    remaining[seat] = remaining[seat].saturating_sub(took);
                }
                event
                    .apply(&mut pos)
                    .expect("a game in play takes its clock events");
                moves.push(event.token().to_string());
                evaluations.push(MoveEvaluation {
                    time: took,
                    search: None,
                });
                since_event.clear();
                for mover in &mut movers {
                    mover.rebase(&pos);
                }
                continue;
            }
        } else if out_of_time {
            break (GameEnd::Timeout(me), forfeit_points(&pos, me));
        }
        let played = answer
            .map_err(|failure| format!("failed ({})", failure.reason()))
            .and_then(|choice| {
                if pos.legal_moves().contains(&choice.mv) {
                    Ok(choice)
                } else {
                    Err(format!("played {}", pos.move_text(choice.mv)))
                }
            });
        let choice = match played {
            Ok(choice) => choice,
            Err(what) => {
                let name = &setup.seats[seat].name;
                illegal = Some(format!("{name} {what} in {}", pos.standard_fen()));
                break (GameEnd::Illegal(me), forfeit_points(&pos, me));
            }
        };
        if clocked[seat] {
            let control = &controls[seat];
            moves_made[seat] += 1;
            let new_period = control
                .moves
                .is_some_and(|moves| moves_made[seat].is_multiple_of(moves));
            let period_time = if new_period {
                control.time
            } else {
                Duration::ZERO
            };
            remaining[seat] =
                remaining[seat].saturating_sub(took) + control.increment + period_time;
        }
        moves.push(pos.move_text(choice.mv));
        since_event.push(pos.move_text(choice.mv));
        pos.make(choice.mv);
        evaluations.push(MoveEvaluation {
            time: took,
            search: choice.search,
        });
        // The rules' end comes first: the loop's next turn finds it.
        if adjudicator.is_active() && pos.outcome_with_claims().is_none() {
            let search = evaluations.last().and_then(|e| e.search.as_ref());
            match adjudicator.add(&Ply::after(&pos, me, search)) {
                Some(Verdict::Draw) => {
                    break (GameEnd::DrawAdjudicated, adjudicated_draw(&pos).points);
                }
                Some(Verdict::Resign(loser)) => {
                    break (
                        GameEnd::ResignAdjudicated(loser),
                        forfeit_points(&pos, loser),
                    );
                }
                None => {}
            }
        }
    };
    Ok(GameResult {
        moves,
        evaluations,
        end,
        points: points[..players].to_vec(),
        time_used,
        illegal,
    })
}

/// Whether the player to move can only pass: a forfeited move would be
/// the pass itself, so the pass is played (and counts as one).
fn only_passes(pos: &Position) -> bool {
    pos.legal_moves().iter().all(|m| m.is_pass())
}

/// How a lost contact is named in reports.
fn end_word(end: GameEnd) -> &'static str {
    match end {
        GameEnd::Disconnect(_) => "disconnected",
        _ => "stalled",
    }
}

/// The points of a game stopped at its maximum length: a draw by the
/// game's own draw rule (Star: decided by the points on the board).
pub fn adjudicated_draw(pos: &Position) -> Outcome {
    pos.drawn(EndReason::MoveRule)
}

/// The points when `loser` forfeits (time or an illegal move): 0 for it;
/// the players still in the game share equally what a draw of the position
/// would give in total (chess: the opponent gets 1; Dreierschach: 1½ each).
/// Players already out keep 0.
pub fn forfeit_points(pos: &Position, loser: Player) -> [f64; MAX_PLAYERS] {
    let draw = adjudicated_draw(pos);
    let total: f64 = draw.points.iter().sum();
    let others: Vec<Player> = pos.state().in_game.iter().filter(|&p| p != loser).collect();
    let mut points = [0.0; MAX_PLAYERS];
    for p in &others {
        points[p.index()] = total / others.len() as f64;
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Variant;

    fn config(spec: &str) -> PlayerConfig {
        PlayerConfig::parse(spec).unwrap()
    }

    #[test]
    fn periods_count_down_the_moves_to_the_next_control() {
        let control = TimeControl {
            moves: Some(3),
            ..TimeControl::fischer(Duration::from_secs(1), Duration::ZERO)
        };
        let to_go: Vec<Option<u32>> = (0..7).map(|played| control.moves_to_go(played)).collect();
        assert_eq!(to_go, [3, 2, 1, 3, 2, 1, 3].map(Some));
        let game_long = TimeControl::fischer(Duration::from_secs(1), Duration::ZERO);
        assert_eq!(game_long.moves_to_go(5), None);
    }

    #[test]
    fn a_game_between_baselines_ends_and_replays() {
        let start = Position::start(Variant::Chess);
        let (random, greedy) = (config("random"), config("greedy"));
        let setup = GameSetup {
            start: &start,
            seats: vec![&random, &greedy],
            time_control: TimeControl::fischer(Duration::from_secs(10), Duration::ZERO),
            max_plies: 600,
            adjudication: Adjudication::default(),
            seeds: vec![1, 2],
        };
        let result = play_game(&setup).unwrap();
        let again = play_game(&setup).unwrap();
        assert_eq!(result.moves, again.moves, "seeded players replay");
        let mut pos = start.clone();
        for text in &result.moves {
            let m = pos.parse_move(text).unwrap();
            pos.make(m);
        }
        match result.end {
            GameEnd::Rules(reason) => {
                let outcome = pos.outcome_with_claims().expect("the game is over");
                assert_eq!(outcome.reason, reason);
                assert_eq!(outcome.points[..2], result.points[..]);
            }
            GameEnd::MaxPlies => assert_eq!(result.moves.len(), 600),
            other => panic!("unexpected end {other:?}"),
        }
        assert!((result.points.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn a_capped_game_is_a_draw() {
        let start = Position::start(Variant::Dreierschach);
        let random = config("random");
        let setup = GameSetup {
            start: &start,
            seats: vec![&random, &random, &random],
            time_control: TimeControl::fischer(Duration::from_secs(10), Duration::ZERO),
            max_plies: 3,
            adjudication: Adjudication::default(),
            seeds: vec![1, 2, 3],
        };
        let result = play_game(&setup).unwrap();
        assert_eq!(result.end, GameEnd::MaxPlies);
        assert_eq!(result.moves.len(), 3);
        assert_eq!(result.points, vec![1.0, 1.0, 1.0]);
    }

    #[test]
    fn scores_adjudicate_a_game_and_are_kept_with_every_move() {
        use super::super::adjudication::DrawRule;
        use crate::search::WIN_SCORE;
        let start = Position::start(Variant::Chess);
        // Every score is within a win of zero: the first two reversible
        // plies in a row draw the game.
        let adjudication = Adjudication {
            draw: Some(DrawRule {
                move_number: 0,
                move_count: 1,
                score: WIN_SCORE,
            }),
            resign: None,
        };
        let engine = config("engine:depth=1");
        let setup = GameSetup {
            start: &start,
            seats: vec![&engine, &engine],
            time_control: TimeControl::fischer(Duration::from_secs(10), Duration::ZERO),
            max_plies: 600,
            adjudication,
            seeds: vec![1, 2],
        };
        let result = play_game(&setup).unwrap();
        assert_eq!(result.end, GameEnd::DrawAdjudicated, "{:?}", result.moves);
        assert_eq!(result.points, [0.5, 0.5]);
        assert_eq!(result.evaluations.len(), result.moves.len());
        for evaluation in &result.evaluations {
            let search = evaluation.search.as_ref().expect("the engine searched");
            assert_eq!(search.depth, 1);
        }
        // The baselines give no scores: never adjudicated.
        let random = config("random");
        let baselines = GameSetup {
            seats: vec![&random, &random],
            max_plies: 40,
            ..setup
        };
        let result = play_game(&baselines).unwrap();
        assert_ne!(result.end, GameEnd::DrawAdjudicated);
        assert!(result.evaluations.iter().all(|e| e.search.is_none()));
    }

    #[test]
    fn a_flag_loses_and_the_others_share() {
        let chess = Position::start(Variant::Chess);
        let p = forfeit_points(&chess, Player::new(0));
        assert_eq!(p[..2], [0.0, 1.0]);
        let dreier = Position::start(Variant::Dreierschach);
        let p = forfeit_points(&dreier, Player::new(1));
        assert_eq!(p[..3], [1.5, 0.0, 1.5]);
    }

    #[test]
    fn an_engine_out_of_time_forfeits() {
        let start = Position::start(Variant::Chess);
        let (engine, random) = (config("engine"), config("random"));
        let setup = GameSetup {
            start: &start,
            seats: vec![&engine, &random],
            time_control: TimeControl::fischer(Duration::from_nanos(1), Duration::ZERO),
            max_plies: 600,
            adjudication: Adjudication::default(),
            seeds: vec![1, 2],
        };
        let result = play_game(&setup).unwrap();
        assert_eq!(result.end, GameEnd::Timeout(Player::new(0)));
        assert_eq!(result.points, vec![0.0, 1.0]);
        assert!(result.moves.is_empty());
    }
}
