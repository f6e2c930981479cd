//! `--engine KEY=VALUE ...`: an engine in another process described as
//! cutechess-cli and fastchess take it, and `exec:PATH`, its shorthand.
//!
//! | key | value |
//! |---|---|
//! | `cmd` | the program (required) |
//! | `name` | the name in tables and records (default: the program's file name) |
//! | `args` | arguments, split at spaces (`args="--uci --quiet"`) |
//! | `dir` | the working directory |
//! | `option.NAME` | `setoption name NAME value VALUE` before each game |
//! | `proto` | `uci` (default): standard UCI in classical chess (`position startpos`/standard FEN, no `UCI_Variant`), the protocol's own format in the other games; `triskel`: the protocol's own format and `UCI_Variant` in every game |
//! | `tc` | the engine's time control in cutechess's form `[moves/]time[+increment]`, seconds (`40/60+0.5`, `10+0.1`, `1:30+1`): `time` for every `moves` moves (or the game), plus `increment` per move |
//! | `timemargin` | milliseconds by which a move may overrun the clock before it loses on time |
//! | `st` | seconds per move (`go movetime`), without a clock; in Star also beside `tc=` (the rule book's time per move and per game) |
//! | `depth` | `go depth N`, without a clock |
//! | `nodes` | `go nodes N`, without a clock |
//!
//! `--each KEY=VALUE ...` gives keys for every `--engine`; an engine's own
//! keys win.

use super::game::TimeControl;
use crate::number;
use std::path::PathBuf;
use std::time::Duration;

/// The keys of an engine description, with what they mean (for `--help`).
pub const ENGINE_SPEC_KEYS: [(&str, &str); 11] = [
    ("cmd", "the program (required)"),
    (
        "name",
        "the name in tables and records (default: the file name)",
    ),
    ("args", "the program's arguments, split at spaces"),
    ("dir", "the working directory"),
    ("option.NAME", "set engine option NAME before each game"),
    (
        "proto",
        "uci (standard UCI in classical chess) | triskel (the protocol's own format everywhere)",
    ),
    (
        "tc",
        "time control [moves/]seconds[+increment] (40/60+0.5, 10+0.1), instead of --time/--inc",
    ),
    (
        "timemargin",
        "ms a move may overrun the clock without losing",
    ),
    (
        "st",
        "seconds per move (go movetime), without a clock; in star also with tc= (its two clocks)",
    ),
    ("depth", "go depth N, without a clock"),
    ("nodes", "go nodes N, without a clock"),
];

/// The prefix of the keys that set an engine's options.
const OPTION_PREFIX: &str = "option.";
/// Milliseconds in a second, for `st`.
const MS_PER_SECOND: f64 = 1000.0;
/// The longest time accepted in `st` and `tc`: a day.
const MAX_SECONDS_PER_MOVE: f64 = 86_400.0;

/// How an engine in another process is spoken to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Standard UCI where the game is classical chess (positions as
    /// `startpos` or standard FEN, no `UCI_Variant`); elsewhere the
    /// protocol's own format, which is UCI extended.
    Uci,
    /// The protocol's own position format and `UCI_Variant` in every game.
    Triskel,
}

/// What an engine searches for on each move, instead of by its clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FixedLimit {
    /// `go movetime`.
    pub movetime: Option<Duration>,
    /// `go depth`.
    pub depth: Option<u32>,
    /// `go nodes`.
    pub nodes: Option<u64>,
}

impl FixedLimit {
    /// Whether no limit is set (the engine plays by its clock).
    pub fn is_none(&self) -> bool {
        *self == FixedLimit::default()
    }
}

/// An engine in another process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalConfig {
    /// The program.
    pub command: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its working directory (default: ours).
    pub dir: Option<PathBuf>,
    /// Options set before each game, in the order given.
    pub options: Vec<(String, String)>,
    /// How positions are sent.
    pub dialect: Dialect,
    /// A fixed search per move, if any.
    pub limit: FixedLimit,
    /// Its own time control (`tc=`, `timemargin=`), else the match's.
    pub time_control: Option<TimeControl>,
}

impl ExternalConfig {
    /// The engine at `command`, with default settings (`exec:PATH`).
    pub fn program(command: &str) -> ExternalConfig {
        ExternalConfig {
            command: command.to_string(),
            args: Vec::new(),
            dir: None,
            options: Vec::new(),
            dialect: Dialect::Uci,
            limit: FixedLimit::default(),
            time_control: None,
        }
    }

    /// Reads an `--engine` description, with the `--each` keys under it,
    /// into the engine's name and configuration.
    pub fn parse(words: &[String], each: &[String]) -> Result<(String, ExternalConfig), String> {
        let mut pairs: Vec<(&str, &str)> = Vec::new();
        for word in each.iter().chain(words) {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("'{word}': expected KEY=VALUE"))?;
            pairs.retain(|&(k, _)| k != key);
            pairs.push((key, value));
        }
        let mut name = None;
        let mut config = ExternalConfig::program("");
        let mut margin = None;
        for (key, value) in pairs {
            match key {
                "cmd" => config.command = value.to_string(),
                "name" => name = Some(value.to_string()),
                "args" => config.args = value.split_whitespace().map(str::to_string).collect(),
                "dir" => config.dir = Some(PathBuf::from(value)),
                "proto" => {
                    config.dialect = match value {
                        "uci" => Dialect::Uci,
                        "triskel" => Dialect::Triskel,
                        _ => return Err(format!("proto={value}: expected uci or triskel")),
                    }
                }
                "st" => config.limit.movetime = Some(seconds(value, "st")?),
                "tc" => config.time_control = Some(time_control(value)?),
                "timemargin" => {
                    margin = Some(Duration::from_millis(number::whole(value).ok_or_else(
                        || format!("timemargin={value}: expected milliseconds"),
                    )?));
                }
                "depth" => {
                    config.limit.depth =
                        Some(number::whole_in(value, &(1..=u32::MAX)).ok_or_else(|| {
                            format!("depth={value}: expected a positive integer")
                        })?);
                }
                "nodes" => {
                    config.limit.nodes =
                        Some(number::whole_in(value, &(1..=u64::MAX)).ok_or_else(|| {
                            format!("nodes={value}: expected a positive integer")
                        })?);
                }
                _ => match key.strip_prefix(OPTION_PREFIX) {
                    Some(option) if !option.is_empty() => {
                        config.options.push((option.to_string(), value.to_string()));
                    }
                    _ => {
                        let keys: Vec<&str> = ENGINE_SPEC_KEYS.iter().map(|&(k, _)| k).collect();
                        return Err(format!("unknown key '{key}' (keys: {})", keys.join(" ")));
                    }
                },
            }
        }
        if let Some(margin) = margin {
            let control = config
                .time_control
                .get_or_insert(TimeControl::fischer(Duration::ZERO, Duration::ZERO));
            control.margin = margin;
            if control.time.is_zero() {
                return Err("timemargin needs tc= (the match's --time applies to all)".to_string());
            }
        }
        if config.command.is_empty() {
            return Err("cmd=PATH is missing".to_string());
        }
        let name = name.unwrap_or_else(|| file_name(&config.command));
        if name.is_empty() || name.chars().any(char::is_whitespace) {
            return Err(format!("name '{name}': one word without spaces"));
        }
        Ok((name, config))
    }
}

/// The file name of a program path.
fn file_name(command: &str) -> String {
    std::path::Path::new(command)
        .file_name()
        .map_or_else(|| command.to_string(), |n| n.to_string_lossy().into_owned())
}

/// A time control in cutechess's form `[moves/]time[+increment]`: seconds
/// with decimals, or `minutes:seconds`, for the time.
fn time_control(text: &str) -> Result<TimeControl, String> {
    let bad = |why: &str| format!("tc={text}: {why} (expected [moves/]seconds[+increment])");
    let (moves, rest) = match text.split_once('/') {
        Some((moves, rest)) => (
            Some(
                number::whole_in(moves, &(1..=u32::MAX))
                    .ok_or_else(|| bad("moves must be a positive integer"))?,
            ),
            rest,
        ),
        None => (None, text),
    };
    let (time, increment) = rest.split_once('+').unwrap_or((rest, "0"));
    let time = match time.split_once(':') {
        Some((minutes, secs)) => {
            let minutes: u64 = number::whole(minutes).ok_or_else(|| bad("bad minutes"))?;
            let secs = seconds(secs, "tc").map_err(|_| bad("bad seconds"))?;
            Duration::from_secs(minutes.saturating_mul(SECONDS_PER_MINUTE)) + secs
        }
        None => seconds(time, "tc").map_err(|_| bad("bad time"))?,
    };
    let increment = if increment == "0" {
        Duration::ZERO
    } else {
        seconds(increment, "tc").map_err(|_| bad("bad increment"))?
    };
    Ok(TimeControl {
        moves,
        time,
        increment,
        margin: Duration::ZERO,
    })
}

/// Seconds in a minute, for `tc=m:ss`.
const SECONDS_PER_MINUTE: u64 = 60;

/// A positive number of seconds (decimals allowed, as cutechess's `st`),
/// for key `key`.
fn seconds(text: &str, key: &str) -> Result<Duration, String> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    let seconds: Option<f64> = (!whole.is_empty() && digits(whole) && digits(fraction))
        .then(|| text.parse().ok())
        .flatten();
    match seconds {
        Some(s) if s > 0.0 && s <= MAX_SECONDS_PER_MOVE => {
            Ok(Duration::from_millis((s * MS_PER_SECOND).round() as u64))
        }
        _ => Err(format!(
            "{key}={text}: expected seconds above 0 and at most {MAX_SECONDS_PER_MOVE}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn an_engine_is_described_by_keys_with_common_ones_beneath() {
        let (name, config) = ExternalConfig::parse(
            &words("cmd=/usr/games/stockfish option.UCI_Elo=2000 st=0.5"),
            &words("option.Hash=32 st=1 proto=uci"),
        )
        .unwrap();
        assert_eq!(name, "stockfish");
        assert_eq!(config.command, "/usr/games/stockfish");
        assert_eq!(
            config.options,
            [
                ("Hash".to_string(), "32".to_string()),
                ("UCI_Elo".to_string(), "2000".to_string())
            ]
        );
        assert_eq!(config.limit.movetime, Some(Duration::from_millis(500)));
        assert_eq!(config.dialect, Dialect::Uci);
        let mut args = words("cmd=./e name=new proto=triskel dir=/tmp depth=4");
        args.push("args=--a  --b".to_string());
        let (name, config) = ExternalConfig::parse(&args, &[]).unwrap();
        assert_eq!(name, "new");
        assert_eq!(config.args, ["--a", "--b"]);
        assert_eq!(config.dir, Some(PathBuf::from("/tmp")));
        assert_eq!(
            (config.dialect, config.limit.depth),
            (Dialect::Triskel, Some(4))
        );
    }

    #[test]
    fn time_controls_are_read_as_cutechess_writes_them() {
        let tc = |text: &str| time_control(text).unwrap();
        let ms = Duration::from_millis;
        assert_eq!(
            tc("40/60+0.5"),
            TimeControl {
                moves: Some(40),
                time: ms(60_000),
                increment: ms(500),
                margin: Duration::ZERO
            }
        );
        assert_eq!(tc("10+0.1"), TimeControl::fischer(ms(10_000), ms(100)));
        assert_eq!(tc("1:30+1"), TimeControl::fischer(ms(90_000), ms(1000)));
        assert_eq!(tc("0.5"), TimeControl::fischer(ms(500), Duration::ZERO));
        for bad in ["", "40/", "/60", "0/60", "60+", "x", "+5", "60+-1", "1e3"] {
            assert!(time_control(bad).is_err(), "{bad}");
        }
        let (_, config) =
            ExternalConfig::parse(&words("cmd=e tc=40/60 timemargin=50"), &[]).unwrap();
        assert_eq!(config.time_control.map(|c| c.margin), Some(ms(50)));
        assert!(ExternalConfig::parse(&words("cmd=e timemargin=50"), &[]).is_err());
    }

    #[test]
    fn bad_descriptions_are_refused_clearly() {
        for (text, mention) in [
            ("name=x", "cmd=PATH"),
            ("cmd=e proto=xboard", "proto"),
            ("cmd=e st=0", "st=0"),
            ("cmd=e st=+1", "st=+1"),
            ("cmd=e st=1e3", "st=1e3"),
            ("cmd=e depth=0", "depth"),
            ("cmd=e nodes=-5", "nodes"),
            ("cmd=e colour=red", "unknown key 'colour'"),
            ("cmd=e option.=3", "unknown key"),
            ("cmd=e flag", "KEY=VALUE"),
        ] {
            let err = ExternalConfig::parse(&words(text), &[]).unwrap_err();
            assert!(err.contains(mention), "{text}: {err}");
        }
    }
}
