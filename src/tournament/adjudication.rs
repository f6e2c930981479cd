//! Adjudication of a game from the players' own scores, as cutechess-cli
//! and fastchess do it (`--draw`, `--resign`; protocol.md section 7).
//!
//! The [`Adjudicator`] is shown every ply after it is played, when the
//! game did not end by the rules: the mover, its evaluation (if it
//! searched) and the position's move number and draw clock.
//!
//! Two players, as cutechess-cli's `GameAdjudicator`:
//! - **draw** (`movenumber`, `movecount`, `score`): once `movenumber` full
//!   moves are played (the position's move number minus 1, as fastchess
//!   counts them, so that an opening's moves count), the game is drawn
//!   when the last `2·movecount` plies all had a score within ±`score`
//!   centipawns; a capture or pawn move (a move that resets the draw
//!   clock) starts the count again;
//! - **resign** (`movecount`, `score`, `twosided`): a player whose own
//!   score was at or below −`score` on its last `movecount` moves loses;
//!   with `twosided`, only if its opponent's score was at or above
//!   +`score` on the opponent's last `movecount` moves as well.
//!
//! Three players, from each search's `scores` (every player's score in
//! that search; a search without them speaks only of its mover):
//! - **draw**: every score the mover's search gave (its own and the
//!   `scores`) within ±`score` on each of the last `movecount` moves of
//!   every player (`movecount` × players still in the game plies), after
//!   `movenumber` rounds, the count starting again at a move that resets
//!   the draw clock;
//! - **resign**: a player resigns when, on each of its last `movecount`
//!   moves, its own score was at or below −`score` and no search of the
//!   round before (the other players' moves since its previous one) gave
//!   it more than −`score`; with `twosided`, every other player still in
//!   the game must moreover have said so in each of those rounds.
//!
//! A move without an evaluation (the baselines, an engine that printed no
//! score) never counts: it starts the draw count and its mover's resign
//! count again.

use super::evaluation::SearchScore;
use crate::game::Variant;
use crate::number;
use crate::position::Position;
use crate::search::WIN_SCORE;
use crate::types::{MAX_PLAYERS, Player, PlayerSet};

/// The most moves a `movenumber` or `movecount` may give.
pub const MAX_ADJUDICATION_MOVES: u32 = 10_000;
/// The largest score threshold, in centipawns: the score of a win, which
/// no score exceeds.
pub const MAX_ADJUDICATION_SCORE: i32 = WIN_SCORE;
/// Players of a game of two (the cutechess rules).
const TWO_PLAYERS: usize = 2;

/// The keys of `--draw`, with what they mean.
pub const DRAW_KEYS: [(&str, &str); 3] = [
    (
        "movenumber",
        "full moves (rounds) played before a draw is adjudicated",
    ),
    (
        "movecount",
        "consecutive moves of each player within the score",
    ),
    ("score", "centipawns from zero every score must be within"),
];

/// The keys of `--resign`, with what they mean.
pub const RESIGN_KEYS: [(&str, &str); 3] = [
    (
        "movecount",
        "consecutive moves of the player at or below -score",
    ),
    ("score", "centipawns below zero that lose"),
    (
        "twosided",
        "true: the opponents' scores must agree (default false)",
    ),
];

/// When a game is adjudicated a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// Full moves (rounds) after which a draw may be adjudicated; 0: from
    /// the first move.
    pub move_number: u32,
    /// Consecutive moves of each player whose scores must be within.
    pub move_count: u32,
    /// Centipawns from zero every score must be within.
    pub score: i32,
}

/// When a player is adjudicated to have lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive moves of the player its score must be at or below
    /// −`score`.
    pub move_count: u32,
    /// Centipawns below zero that lose.
    pub score: i32,
    /// Whether the opponents' scores must agree.
    pub two_sided: bool,
}

/// The adjudication rules of a match (none by default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// `--draw`, if given.
    pub draw: Option<DrawRule>,
    /// `--resign`, if given.
    pub resign: Option<ResignRule>,
}

/// The `key=value` words of an option, with their keys among `keys`.
fn pairs<'a>(
    words: &'a [String],
    keys: &[(&'static str, &str)],
) -> Result<Vec<(&'static str, &'a str)>, String> {
    let mut out: Vec<(&'static str, &'a str)> = Vec::new();
    for word in words {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("'{word}': expected KEY=VALUE"))?;
        let key = keys
            .iter()
            .map(|&(k, _)| k)
            .find(|&k| k == key)
            .ok_or_else(|| {
                let names: Vec<&str> = keys.iter().map(|&(k, _)| k).collect();
                format!("unknown key '{key}' (keys: {})", names.join(", "))
            })?;
        if out.iter().any(|&(k, _)| k == key) {
            return Err(format!("{key} given twice"));
        }
        out.push((key, value));
    }
    Ok(out)
}

/// The whole number of `key` among `pairs`, in `range`.
fn whole<T>(
    pairs: &[(&str, &str)],
    key: &str,
    range: std::ops::RangeInclusive<T>,
) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    let value = pairs
        .iter()
        .find(|&&(k, _)| k == key)
        .map(|&(_, v)| v)
        .ok_or_else(|| format!("{key}= is missing"))?;
    number::whole_in(value, &range).ok_or_else(|| {
        format!(
            "{key}={value}: expected a whole number from {} to {}",
            range.start(),
            range.end()
        )
    })
}

impl DrawRule {
    /// The rule of `--draw movenumber=N movecount=N score=N`.
    pub fn from_words(words: &[String]) -> Result<DrawRule, String> {
        let pairs = pairs(words, &DRAW_KEYS)?;
        Ok(DrawRule {
            move_number: whole(&pairs, "movenumber", 0..=MAX_ADJUDICATION_MOVES)?,
            move_count: whole(&pairs, "movecount", 1..=MAX_ADJUDICATION_MOVES)?,
            score: whole(&pairs, "score", 0..=MAX_ADJUDICATION_SCORE)?,
        })
    }
}

impl ResignRule {
    /// The rule of `--resign movecount=N score=N [twosided=true|false]`.
    pub fn from_words(words: &[String]) -> Result<ResignRule, String> {
        let pairs = pairs(words, &RESIGN_KEYS)?;
        let two_sided = match pairs.iter().find(|&&(k, _)| k == "twosided") {
            None | Some((_, "false")) => false,
            Some((_, "true")) => true,
            Some((_, other)) => {
                return Err(format!("twosided={other}: expected true or false"));
            }
        };
        Ok(ResignRule {
            move_count: whole(&pairs, "movecount", 1..=MAX_ADJUDICATION_MOVES)?,
            score: whole(&pairs, "score", 1..=MAX_ADJUDICATION_SCORE)?,
            two_sided,
        })
    }
}

/// An adjudicator's decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The game is drawn (scored as the game's draw: Star by its points).
    Draw,
    /// This player has lost (the others share its forfeit).
    Resign(Player),
}

/// What the adjudicator is told of a ply after it was played.
#[derive(Clone, Copy, Debug)]
pub struct Ply<'a> {
    /// Who played it.
    pub mover: Player,
    /// The mover's evaluation, if it searched.
    pub evaluation: Option<&'a SearchScore>,
    /// Full moves (rounds) played: the position's move number minus 1.
    pub full_moves: u32,
    /// Whether the move reset the draw clock (a capture or pawn move).
    pub irreversible: bool,
    /// The players still in the game after it.
    pub in_game: PlayerSet,
}

impl<'a> Ply<'a> {
    /// The ply of `mover` with `evaluation` that led to `after`.
    pub fn after(after: &Position, mover: Player, evaluation: Option<&'a SearchScore>) -> Ply<'a> {
        Ply {
            mover,
            evaluation,
            full_moves: after.round().saturating_sub(1),
            irreversible: after.clock_units() == 0,
            in_game: after.state().in_game,
        }
    }
}

/// Follows a game's scores ply by ply and says when the rules adjudicate it.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    rules: Adjudication,
    variant: Variant,
    /// Consecutive plies whose scores were all within the draw score.
    draw_plies: u32,
    /// Consecutive own moves of each player that count towards its loss.
    losing: [u32; MAX_PLAYERS],
    /// Consecutive own moves of each player at or above +score (two
    /// players, `twosided`).
    winning: [u32; MAX_PLAYERS],
    /// Three players: which others' searches since each player's last
    /// move said it was at or below −score.
    agreed: [PlayerSet; MAX_PLAYERS],
    /// Three players: whether a search since each player's last move gave
    /// it more than −score.
    disputed: [bool; MAX_PLAYERS],
}

impl Adjudicator {
    /// An adjudicator of `rules` for a game of `variant`.
    pub fn new(rules: Adjudication, variant: Variant) -> Adjudicator {
        Adjudicator {
            rules,
            variant,
            draw_plies: 0,
            losing: [0; MAX_PLAYERS],
            winning: [0; MAX_PLAYERS],
            agreed: [PlayerSet::EMPTY; MAX_PLAYERS],
            disputed: [false; MAX_PLAYERS],
        }
    }

    /// Whether any rule is set (else [`Adjudicator::add`] never decides).
    pub fn is_active(&self) -> bool {
        self.rules.draw.is_some() || self.rules.resign.is_some()
    }

    /// Takes in a ply, played in a game that did not end by its rules, and
    /// says whether the game is now adjudicated.
    pub fn add(&mut self, ply: &Ply) -> Option<Verdict> {
        let me = ply.mover.index();
        if ply.irreversible {
            self.draw_plies = 0;
        }
        let Some(evaluation) = ply.evaluation else {
            self.draw_plies = 0;
            self.losing[me] = 0;
            self.winning[me] = 0;
            self.agreed[me] = PlayerSet::EMPTY;
            self.disputed[me] = false;
            return None;
        };
        let game = self.variant.game();
        let two_players = game.players == TWO_PLAYERS;
        if let Some(draw) = self.rules.draw {
            let within = |score: i32| score.abs() <= draw.score;
            let all_within = within(evaluation.score)
                && (two_players || evaluation.scores.iter().all(|&(_, s)| within(s)));
            self.draw_plies = if all_within { self.draw_plies + 1 } else { 0 };
            let players = if two_players {
                TWO_PLAYERS as u32
            } else {
                ply.in_game.count() as u32
            };
            if ply.full_moves >= draw.move_number
                && self.draw_plies >= draw.move_count.saturating_mul(players)
            {
                return Some(Verdict::Draw);
            }
        }
        let resign = self.rules.resign?;
        let lost = |score: i32| score <= -resign.score;
        if two_players {
            self.losing[me] = if lost(evaluation.score) {
                self.losing[me] + 1
            } else {
                0
            };
            self.winning[me] = if evaluation.score >= resign.score {
                self.winning[me] + 1
            } else {
                0
            };
            let opponent = TWO_PLAYERS - 1 - me;
            let agreed = !resign.two_sided || self.winning[opponent] >= resign.move_count;
            return (self.losing[me] >= resign.move_count && agreed)
                .then_some(Verdict::Resign(ply.mover));
        }
        for &(letter, score) in &evaluation.scores {
            let Some(other) = game.player_index(letter).filter(|&p| p != me) else {
                continue;
            };
            if lost(score) {
                self.agreed[other] = self.agreed[other].with(ply.mover);
            } else {
                self.disputed[other] = true;
            }
        }
        let others = ply.in_game.without(ply.mover);
        let all_agreed = others.iter().all(|p| self.agreed[me].has(p));
        let counts =
            lost(evaluation.score) && !self.disputed[me] && (!resign.two_sided || all_agreed);
        self.losing[me] = if counts { self.losing[me] + 1 } else { 0 };
        self.agreed[me] = PlayerSet::EMPTY;
        self.disputed[me] = false;
        (self.losing[me] >= resign.move_count).then_some(Verdict::Resign(ply.mover))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    fn rules(draw: &str, resign: &str) -> Adjudication {
        Adjudication {
            draw: (!draw.is_empty()).then(|| DrawRule::from_words(&words(draw)).unwrap()),
            resign: (!resign.is_empty()).then(|| ResignRule::from_words(&words(resign)).unwrap()),
        }
    }

    /// A game being fed plies: the ply number decides mover and move number.
    struct Feed {
        adjudicator: Adjudicator,
        players: usize,
        plies: u32,
    }

    impl Feed {
        fn new(rules: Adjudication, variant: Variant) -> Feed {
            Feed {
                adjudicator: Adjudicator::new(rules, variant),
                players: variant.game().players,
                plies: 0,
            }
        }

        /// Feeds the next ply with `score` (`None`: no search) and the
        /// players' `scores`, reversible unless `irreversible`.
        fn ply(
            &mut self,
            score: Option<i32>,
            scores: &[(char, i32)],
            irreversible: bool,
        ) -> Option<Verdict> {
            let mover = Player::new(self.plies as usize % self.players);
            self.plies += 1;
            let evaluation = score.map(|score| SearchScore {
                score,
                depth: 5,
                scores: scores.to_vec(),
            });
            self.adjudicator.add(&Ply {
                mover,
                evaluation: evaluation.as_ref(),
                full_moves: self.plies / self.players as u32,
                irreversible,
                in_game: PlayerSet::first(self.players),
            })
        }

        /// Feeds plies of `score` until a verdict, at most `limit`; the
        /// verdict and the plies fed in all.
        fn until(&mut self, score: i32, limit: u32) -> (Option<Verdict>, u32) {
            for _ in 0..limit {
                if let Some(verdict) = self.ply(Some(score), &[], false) {
                    return (Some(verdict), self.plies);
                }
            }
            (None, self.plies)
        }
    }

    #[test]
    fn options_are_read_and_absurd_values_refused() {
        let draw = DrawRule::from_words(&words("movenumber=40 movecount=8 score=10")).unwrap();
        assert_eq!(
            draw,
            DrawRule {
                move_number: 40,
                move_count: 8,
                score: 10
            }
        );
        let resign = ResignRule::from_words(&words("score=600 movecount=3 twosided=true")).unwrap();
        assert_eq!(
            resign,
            ResignRule {
                move_count: 3,
                score: 600,
                two_sided: true
            }
        );
        assert!(
            !ResignRule::from_words(&words("movecount=3 score=600"))
                .unwrap()
                .two_sided
        );
        for (bad, mention) in [
            ("movenumber=40 movecount=8", "score= is missing"),
            ("movenumber=40 movecount=0 score=10", "movecount=0"),
            ("movenumber=40 movecount=8 score=-10", "score=-10"),
            ("movenumber=40 movecount=8 score=+10", "score=+10"),
            (
                "movenumber=99999999999999999999 movecount=8 score=10",
                "from 0 to 10000",
            ),
            ("movenumber=40 movecount=8 score=30001", "from 0 to 30000"),
            ("movenumber=40 movecount=8 score=10 score=11", "given twice"),
            ("movenumber=40 count=8 score=10", "unknown key 'count'"),
            ("movenumber 40", "expected KEY=VALUE"),
        ] {
            let err = DrawRule::from_words(&words(bad)).unwrap_err();
            assert!(err.contains(mention), "{bad}: {err}");
        }
        for (bad, mention) in [
            ("movecount=3 score=0", "score=0"),
            ("movecount=3 score=600 twosided=yes", "twosided=yes"),
            ("movecount=3", "score= is missing"),
            (
                "movenumber=3 movecount=3 score=600",
                "unknown key 'movenumber'",
            ),
        ] {
            let err = ResignRule::from_words(&words(bad)).unwrap_err();
            assert!(err.contains(mention), "{bad}: {err}");
        }
    }

    #[test]
    fn no_rules_decide_nothing() {
        let mut feed = Feed::new(Adjudication::default(), Variant::Chess);
        assert!(!feed.adjudicator.is_active());
        assert_eq!(feed.until(-5000, 200).0, None);
        assert_eq!(feed.until(0, 200).0, None);
    }

    #[test]
    fn a_draw_comes_after_the_move_number_and_count_of_both_players() {
        // Within ±10 from the first ply: 2·3 plies are needed, and 5 full
        // moves must be played (after ply 10).
        let mut feed = Feed::new(
            rules("movenumber=5 movecount=3 score=10", ""),
            Variant::Chess,
        );
        assert_eq!(feed.until(-10, 100), (Some(Verdict::Draw), 10));
        // Long past the move number, the count decides: a score beyond ±10
        // starts it again, and 6 plies within are needed.
        let mut feed = Feed::new(
            rules("movenumber=1 movecount=3 score=10", ""),
            Variant::Chess,
        );
        for _ in 0..5 {
            assert_eq!(feed.ply(Some(3), &[], false), None);
        }
        assert_eq!(feed.ply(Some(11), &[], false), None);
        for _ in 0..5 {
            assert_eq!(feed.ply(Some(-3), &[], false), None);
        }
        assert_eq!(feed.ply(Some(0), &[], false), Some(Verdict::Draw));
    }

    #[test]
    fn captures_and_moves_without_a_search_start_the_draw_count_again() {
        let mut feed = Feed::new(
            rules("movenumber=0 movecount=2 score=20", ""),
            Variant::Chess,
        );
        for _ in 0..3 {
            assert_eq!(feed.ply(Some(0), &[], false), None);
        }
        // The capture counts as the first of a new run.
        assert_eq!(feed.ply(Some(0), &[], true), None);
        for _ in 0..2 {
            assert_eq!(feed.ply(Some(0), &[], false), None);
        }
        assert_eq!(feed.ply(None, &[], false), None);
        for _ in 0..3 {
            assert_eq!(feed.ply(Some(0), &[], false), None);
        }
        assert_eq!(feed.ply(Some(0), &[], false), Some(Verdict::Draw));
    }

    #[test]
    fn a_player_resigns_after_its_own_moves_at_the_score() {
        // White (even plies) sees -600 or less, Black +600: White resigns
        // on its third such move, ply 5.
        let mut feed = Feed::new(rules("", "movecount=3 score=600"), Variant::Chess);
        assert_eq!(
            feed.until(-600, 20),
            (Some(Verdict::Resign(Player::new(0))), 5)
        );
        // One move above the score starts the count again.
        let mut feed = Feed::new(rules("", "movecount=2 score=600"), Variant::Chess);
        let plies = [
            (-700, None),
            (0, None),
            (-599, None),
            (0, None),
            (-700, None),
        ];
        for (score, verdict) in plies {
            assert_eq!(feed.ply(Some(score), &[], false), verdict);
        }
        assert_eq!(feed.ply(Some(0), &[], false), None);
        assert_eq!(
            feed.ply(Some(-WIN_SCORE + 4), &[], false),
            Some(Verdict::Resign(Player::new(0))),
            "a mate score is below any threshold"
        );
        // A move without a search starts the mover's count again.
        let mut feed = Feed::new(rules("", "movecount=2 score=600"), Variant::Chess);
        assert_eq!(feed.ply(Some(-700), &[], false), None);
        assert_eq!(feed.ply(Some(700), &[], false), None);
        assert_eq!(feed.ply(None, &[], false), None);
        assert_eq!(feed.ply(Some(700), &[], false), None);
        assert_eq!(feed.ply(Some(-700), &[], false), None);
        assert_eq!(feed.ply(Some(700), &[], false), None);
        assert_eq!(
            feed.ply(Some(-700), &[], false),
            Some(Verdict::Resign(Player::new(0)))
        );
    }

    #[test]
    fn two_sided_resignation_needs_the_opponent_to_agree() {
        let resign = "movecount=2 score=300 twosided=true";
        // White sees -400, Black only +200: no resignation.
        let mut feed = Feed::new(rules("", resign), Variant::Chess);
        for _ in 0..10 {
            assert_eq!(feed.ply(Some(-400), &[], false), None);
            assert_eq!(feed.ply(Some(200), &[], false), None);
        }
        // Black agrees from now on: White resigns on its second move after
        // Black's second agreeing move.
        assert_eq!(feed.ply(Some(-400), &[], false), None);
        assert_eq!(feed.ply(Some(300), &[], false), None);
        assert_eq!(feed.ply(Some(-400), &[], false), None);
        assert_eq!(feed.ply(Some(300), &[], false), None);
        assert_eq!(
            feed.ply(Some(-400), &[], false),
            Some(Verdict::Resign(Player::new(0)))
        );
    }

    #[test]
    fn three_players_draw_when_every_score_is_within_for_a_count_of_rounds() {
        let mut feed = Feed::new(
            rules("movenumber=2 movecount=2 score=15", ""),
            Variant::Dreierschach,
        );
        let quiet = [('w', 10), ('n', -5), ('b', -5)];
        let loud = [('w', 10), ('n', 20), ('b', -30)];
        // Loud scores of the others, though the mover's own is quiet.
        for _ in 0..9 {
            assert_eq!(feed.ply(Some(10), &loud, false), None);
        }
        // Six quiet plies (two moves of each of the three) are needed.
        for _ in 0..5 {
            assert_eq!(feed.ply(Some(10), &quiet, false), None);
        }
        assert_eq!(feed.ply(Some(-15), &quiet, false), Some(Verdict::Draw));
        // Searches without `scores` speak of their mover alone.
        let mut feed = Feed::new(
            rules("movenumber=0 movecount=1 score=15", ""),
            Variant::Trichess,
        );
        assert_eq!(feed.ply(Some(0), &[], false), None);
        assert_eq!(feed.ply(Some(0), &[], false), None);
        assert_eq!(feed.ply(Some(0), &[], false), Some(Verdict::Draw));
    }

    #[test]
    fn three_players_resign_when_no_search_disagrees() {
        let resign = "movecount=2 score=500";
        let letters = Variant::Dreierschach.game().letters;
        let (w, n, b) = (letters[0], letters[1], letters[2]);
        // Brown (the second seat) sees itself lost on its moves, and White
        // and Black agree: Brown resigns on its second move (ply 5).
        let mut feed = Feed::new(rules("", resign), Variant::Dreierschach);
        let brown_lost = [(w, 300), (n, -600), (b, 300)];
        let mut verdicts = Vec::new();
        for _ in 0..6 {
            verdicts.push(feed.ply(Some(300), &brown_lost, false));
        }
        // The movers' own scores: White 300, Brown 300 — so no resignation
        // yet; Brown's own search must say it too.
        assert!(verdicts.iter().all(Option::is_none), "{verdicts:?}");
        let mut feed = Feed::new(rules("", resign), Variant::Dreierschach);
        let mut verdict = None;
        for ply in 0..6 {
            let own = if ply % 3 == 1 { -600 } else { 300 };
            verdict = verdict.or(feed.ply(Some(own), &brown_lost, false));
            if verdict.is_some() {
                assert_eq!(ply, 4);
                break;
            }
        }
        assert_eq!(verdict, Some(Verdict::Resign(Player::new(1))));
        // Black's search gives Brown -100: that round does not count.
        let mut feed = Feed::new(rules("", resign), Variant::Dreierschach);
        let black_disagrees = [(w, 300), (n, -100), (b, 300)];
        let rounds: [&[(char, i32)]; 3] = [&brown_lost, &brown_lost, &black_disagrees];
        for _ in 0..3 {
            for (seat, scores) in rounds.iter().enumerate() {
                let own = if seat == 1 { -600 } else { 300 };
                assert_eq!(feed.ply(Some(own), scores, false), None);
            }
        }
    }

    #[test]
    fn three_players_two_sided_needs_every_other_player_to_say_so() {
        let letters = Variant::Trichess.game().letters;
        let (a, b, c) = (letters[0], letters[1], letters[2]);
        let resign = "movecount=1 score=500 twosided=true";
        let lost_a = [(a, -600), (b, 300), (c, 300)];
        // The second seat's engine prints no `scores`: one-sided the first
        // seat resigns on its first move, two-sided never.
        for (two_sided, expected) in [(false, Some(Verdict::Resign(Player::new(0)))), (true, None)]
        {
            let rule = if two_sided {
                resign
            } else {
                "movecount=1 score=500"
            };
            let mut feed = Feed::new(rules("", rule), Variant::Trichess);
            let mut verdict = None;
            for _ in 0..3 {
                verdict = verdict.or(feed.ply(Some(-600), &lost_a, false));
                verdict = verdict.or(feed.ply(Some(300), &[], false));
                verdict = verdict.or(feed.ply(Some(300), &lost_a, false));
            }
            assert_eq!(verdict, expected, "twosided {two_sided}");
        }
        let mut feed = Feed::new(rules("", resign), Variant::Trichess);
        assert_eq!(feed.ply(Some(-600), &lost_a, false), None);
        assert_eq!(feed.ply(Some(300), &lost_a, false), None);
        assert_eq!(feed.ply(Some(300), &lost_a, false), None);
        assert_eq!(
            feed.ply(Some(-600), &lost_a, false),
            Some(Verdict::Resign(Player::new(0)))
        );
    }
}
