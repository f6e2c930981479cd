//! The engine options set by `setoption`: one table entry per option.
//!
//! An entry gives the option's name, type, default and limits; values are
//! checked against it and stored in [`Options`]. Adding an option is adding
//! an entry to [`OPTIONS`] (and reading its value where it matters).

use std::sync::OnceLock;

use crate::game::Variant;
use crate::number;
use crate::position::AfterMate;
use crate::search::{Algorithm, Options as SearchOptions};

/// Name of the option choosing the game.
pub const UCI_VARIANT: &str = "UCI_Variant";
/// Name of the option giving the number of search (and perft) threads.
pub const THREADS: &str = "Threads";
/// Name of the option giving the transposition table's size in MiB.
pub const HASH: &str = "Hash";
/// Name of the button that makes the next search forget what earlier ones
/// learnt (the table and the move-ordering history), as `ucinewgame` does.
pub const CLEAR_HASH: &str = "Clear Hash";
/// Name of UCI's option by which a GUI says it may send `go ponder`.
pub const PONDER: &str = "Ponder";
/// Name of Trichess's option for what follows the first mate.
pub const AFTER_MATE: &str = "AfterMate";
/// Name of the option choosing the search algorithm for three players.
pub const SEARCH_ALGORITHM: &str = "SearchAlgorithm";
/// Name of the option giving the number of principal variations reported.
pub const MULTI_PV: &str = "MultiPV";
/// Name of the option giving the time kept back per move (ms).
pub const MOVE_OVERHEAD: &str = "Move Overhead";

/// Most principal variations `MultiPV` accepts.
pub const MAX_MULTI_PV: i64 = 500;
/// Default `Move Overhead` (ms).
pub const DEFAULT_MOVE_OVERHEAD_MS: i64 = 10;
/// Largest `Move Overhead` (ms).
pub const MAX_MOVE_OVERHEAD_MS: i64 = 5000;

/// Threads per logical CPU that `Threads` accepts. Beyond the cores the
/// threads only take turns, and each must be given a turn to see `stop`:
/// measured on 2 CPUs, `stop` during `go infinite` answered within 13 ms
/// with 4 threads per CPU, 27 ms with 8, 42 ms with 16 and 400 ms with 128,
/// so 4 keeps `stop` well within 50 ms.
pub const THREADS_PER_CPU: i64 = 4;
/// Most threads `Threads` accepts on any machine.
pub const THREADS_CEILING: i64 = 1024;

/// The most threads `Threads` accepts on a machine with `cpus` logical
/// CPUs: [`THREADS_PER_CPU`] per CPU, at most [`THREADS_CEILING`].
pub fn threads_limit(cpus: usize) -> i64 {
    i64::try_from(cpus)
        .unwrap_or(i64::MAX)
        .max(1)
        .saturating_mul(THREADS_PER_CPU)
        .min(THREADS_CEILING)
}

/// The most threads `Threads` accepts on this machine.
pub fn max_threads() -> i64 {
    static LIMIT: OnceLock<i64> = OnceLock::new();
    *LIMIT
        .get_or_init(|| threads_limit(std::thread::available_parallelism().map_or(1, usize::from)))
}
/// Default transposition table size (MiB).
pub const DEFAULT_HASH_MB: i64 = 16;
/// Largest transposition table size `Hash` accepts (MiB): 1 TiB.
pub const MAX_HASH_MB: i64 = 1 << 20;

/// Every game id of the rule book, the values of `UCI_Variant`.
const VARIANT_IDS: [&str; Variant::ALL.len()] = {
    let mut ids = [""; Variant::ALL.len()];
    let mut i = 0;
    while i < ids.len() {
        ids[i] = Variant::ALL[i].id();
        i += 1;
    }
    ids
};

/// The values of `AfterMate`.
const AFTER_MATE_NAMES: [&str; AfterMate::VALUES.len()] = {
    let mut names = [""; AfterMate::VALUES.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = AfterMate::VALUES[i].0;
        i += 1;
    }
    names
};

/// The values of `SearchAlgorithm`.
const ALGORITHM_NAMES: [&str; Algorithm::VALUES.len()] = {
    let mut names = [""; Algorithm::VALUES.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = Algorithm::VALUES[i].0;
        i += 1;
    }
    names
};

/// An option's type, with its default and the values it accepts (the UCI types).
#[derive(Clone, Copy, Debug)]
pub enum OptionKind {
    /// `true` or `false`.
    Check {
        /// The value at start.
        default: bool,
    },
    /// An integer in `min..=max`.
    Spin {
        /// The value at start.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: SpinMax,
    },
    /// One of a fixed list of words (matched in any case).
    Combo {
        /// The value at start.
        default: &'static str,
        /// The accepted values.
        values: &'static [&'static str],
    },
    /// Any text (`<empty>` stands for the empty text).
    Text {
        /// The value at start.
        default: &'static str,
    },
    /// An action without a value.
    Button,
}

/// The largest value of a `spin` option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpinMax {
    /// The same on every machine.
    Fixed(i64),
    /// [`max_threads`], which depends on the machine's CPUs.
    Threads,
}

impl SpinMax {
    /// The largest value on this machine.
    pub fn value(self) -> i64 {
        match self {
            SpinMax::Fixed(max) => max,
            SpinMax::Threads => max_threads(),
        }
    }
}

/// A further check of a value beyond its type, giving the reason for a refusal.
pub type Acceptor = fn(&OptionValue) -> Result<(), String>;

/// One option: its name as shown to GUIs, its type and an optional further check.
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    /// The name (matched in any case on input).
    pub name: &'static str,
    /// Type, default and limits.
    pub kind: OptionKind,
    /// Refuses values the type allows but the engine cannot use yet.
    pub accept: Option<Acceptor>,
}

/// The value of an option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// Of a `check` option.
    Bool(bool),
    /// Of a `spin` option.
    Int(i64),
    /// Of a `combo` (in the table's spelling) or `string` option.
    Text(String),
    /// Of a `button`.
    Pressed,
}

/// All options, in the order `uci` lists them.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: UCI_VARIANT,
        kind: OptionKind::Combo {
            default: Variant::CLASSICAL.id(),
            values: &VARIANT_IDS,
        },
        accept: Some(playable_variant),
    },
    OptionSpec {
        name: THREADS,
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: SpinMax::Threads,
        },
        accept: None,
    },
    OptionSpec {
        name: HASH,
        kind: OptionKind::Spin {
            default: DEFAULT_HASH_MB,
            min: 1,
            max: SpinMax::Fixed(MAX_HASH_MB),
        },
        accept: None,
    },
    OptionSpec {
        name: CLEAR_HASH,
        kind: OptionKind::Button,
        accept: None,
    },
    OptionSpec {
        name: PONDER,
        kind: OptionKind::Check { default: false },
        accept: None,
    },
    OptionSpec {
        name: AFTER_MATE,
        kind: OptionKind::Combo {
            default: "end",
            values: &AFTER_MATE_NAMES,
        },
        accept: None,
    },
    OptionSpec {
        name: SEARCH_ALGORITHM,
        kind: OptionKind::Combo {
            default: DEFAULT_ALGORITHM.name(),
            values: &ALGORITHM_NAMES,
        },
        accept: None,
    },
    OptionSpec {
        name: MULTI_PV,
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: SpinMax::Fixed(MAX_MULTI_PV),
        },
        accept: None,
    },
    OptionSpec {
        name: MOVE_OVERHEAD,
        kind: OptionKind::Spin {
            default: DEFAULT_MOVE_OVERHEAD_MS,
            min: 0,
            max: SpinMax::Fixed(MAX_MOVE_OVERHEAD_MS),
        },
        accept: None,
    },
];

/// The algorithm three-player positions are searched with by default (the
/// strongest in the measured matches, README.md).
pub const DEFAULT_ALGORITHM: Algorithm = Algorithm::BestReply;

/// Refuses games the engine does not play yet.
fn playable_variant(value: &OptionValue) -> Result<(), String> {
    let OptionValue::Text(id) = value else {
        return Err("a game id is expected".to_string());
    };
    match Variant::from_id(id) {
        Some(v) if v.is_playable() => Ok(()),
        _ => Err(format!(
            "{id} is not playable yet (playable: {})",
            playable_ids().join(" ")
        )),
    }
}

/// The ids of the games the engine plays now.
pub fn playable_ids() -> Vec<&'static str> {
    Variant::ALL
        .iter()
        .filter(|v| v.is_playable())
        .map(|v| v.id())
        .collect()
}

/// The text that stands for an empty `string` value (as in Stockfish).
pub const EMPTY_TEXT: &str = "<empty>";

impl OptionSpec {
    /// The option with `name` (any case).
    pub fn find(name: &str) -> Option<&'static OptionSpec> {
        OPTIONS.iter().find(|o| o.name.eq_ignore_ascii_case(name))
    }

    /// The value the option starts with.
    pub fn default_value(&self) -> OptionValue {
        match self.kind {
            OptionKind::Check { default } => OptionValue::Bool(default),
            OptionKind::Spin { default, .. } => OptionValue::Int(default),
            OptionKind::Combo { default, .. } | OptionKind::Text { default } => {
                OptionValue::Text(default.to_string())
            }
            OptionKind::Button => OptionValue::Pressed,
        }
    }

    /// Reads `value` (the text after `value`, if any) as a value of this option.
    pub fn parse(&self, value: Option<&str>) -> Result<OptionValue, String> {
        let name = self.name;
        let parsed = match (self.kind, value) {
            (OptionKind::Button, None) => OptionValue::Pressed,
            (OptionKind::Button, Some(_)) => {
                return Err(format!("{name} is a button and takes no value"));
            }
            (OptionKind::Text { .. }, Some(text)) if text == EMPTY_TEXT => {
                OptionValue::Text(String::new())
            }
            (OptionKind::Text { .. }, text) => {
                OptionValue::Text(text.unwrap_or_default().to_string())
            }
            (_, None) => {
                return Err(format!(
                    "{name} needs a value: setoption name {name} value <x>"
                ));
            }
            (OptionKind::Check { .. }, Some(text)) => match text.to_ascii_lowercase().as_str() {
                "true" => OptionValue::Bool(true),
                "false" => OptionValue::Bool(false),
                _ => return Err(format!("{name} is true or false, not '{text}'")),
            },
            (OptionKind::Spin { min, max, .. }, Some(text)) => match number::integer::<i64>(text) {
                Some(n) if (min..=max.value()).contains(&n) => OptionValue::Int(n),
                _ => {
                    return Err(format!(
                        "{name} takes an integer from {min} to {}, not '{text}'",
                        max.value()
                    ));
                }
            },
            (OptionKind::Combo { values, .. }, Some(text)) => {
                match values.iter().find(|v| v.eq_ignore_ascii_case(text)) {
                    Some(v) => OptionValue::Text(v.to_string()),
                    None => {
                        return Err(format!(
                            "{name} has no value '{text}' (values: {})",
                            values.join(" ")
                        ));
                    }
                }
            }
        };
        if let Some(accept) = self.accept {
            accept(&parsed).map_err(|why| format!("{name}: {why}"))?;
        }
        Ok(parsed)
    }

    /// The option's line in the answer to `uci`.
    pub fn uci_line(&self) -> String {
        let name = self.name;
        match self.kind {
            OptionKind::Check { default } => {
                format!("option name {name} type check default {default}")
            }
            OptionKind::Spin { default, min, max } => {
                let max = max.value();
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, values } => {
                let vars: String = values.iter().map(|v| format!(" var {v}")).collect();
                format!("option name {name} type combo default {default}{vars}")
            }
            OptionKind::Text { default } => {
                let shown = if default.is_empty() {
                    EMPTY_TEXT
                } else {
                    default
                };
                format!("option name {name} type string default {shown}")
            }
            OptionKind::Button => format!("option name {name} type button"),
        }
    }
}

/// The current value of every option.
#[derive(Clone, Debug)]
pub struct Options {
    values: Vec<OptionValue>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            values: OPTIONS.iter().map(OptionSpec::default_value).collect(),
        }
    }
}

impl Options {
    /// Sets option `name` (any case) from `value`, returning the option set,
    /// or why nothing was set.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<&'static OptionSpec, String> {
        let index = OPTIONS
            .iter()
            .position(|o| o.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| format!("no such option: {name} ('uci' lists the options)"))?;
        let spec = &OPTIONS[index];
        self.values[index] = spec.parse(value)?;
        Ok(spec)
    }

    /// The value of option `name` (any case).
    pub fn value(&self, name: &str) -> Option<&OptionValue> {
        OPTIONS
            .iter()
            .position(|o| o.name.eq_ignore_ascii_case(name))
            .and_then(|i| self.values.get(i))
    }

    /// The value of a `spin` option (0 if `name` is not one).
    pub fn spin(&self, name: &str) -> i64 {
        match self.value(name) {
            Some(OptionValue::Int(n)) => *n,
            _ => 0,
        }
    }

    /// The value of a `combo` or `string` option (empty if `name` is not one).
    pub fn text(&self, name: &str) -> &str {
        match self.value(name) {
            Some(OptionValue::Text(t)) => t,
            _ => "",
        }
    }

    /// The value of a `check` option (false if `name` is not one).
    pub fn check(&self, name: &str) -> bool {
        matches!(self.value(name), Some(OptionValue::Bool(true)))
    }

    /// The game (`UCI_Variant`).
    pub fn variant(&self) -> Variant {
        Variant::from_id(self.text(UCI_VARIANT)).unwrap_or(Variant::CLASSICAL)
    }

    /// The number of threads (`Threads`), at least 1.
    pub fn threads(&self) -> usize {
        usize::try_from(self.spin(THREADS)).unwrap_or(1).max(1)
    }

    /// The transposition table size in MiB (`Hash`).
    pub fn hash_mb(&self) -> u64 {
        u64::try_from(self.spin(HASH)).unwrap_or(1)
    }

    /// Trichess's rule after the first mate (`AfterMate`).
    pub fn after_mate(&self) -> AfterMate {
        AfterMate::from_name(self.text(AFTER_MATE)).unwrap_or_default()
    }

    /// The search settings these options ask for.
    pub fn search(&self) -> SearchOptions {
        SearchOptions {
            algorithm: Algorithm::from_name(self.text(SEARCH_ALGORITHM))
                .unwrap_or(DEFAULT_ALGORITHM),
            threads: self.threads(),
            hash_mb: usize::try_from(self.hash_mb()).unwrap_or(usize::MAX),
            multi_pv: usize::try_from(self.spin(MULTI_PV)).unwrap_or(1).max(1),
            move_overhead: std::time::Duration::from_millis(
                u64::try_from(self.spin(MOVE_OVERHEAD)).unwrap_or(0),
            ),
        }
    }

    /// The `option ...` lines of the answer to `uci`.
    pub fn uci_lines() -> Vec<String> {
        OPTIONS.iter().map(OptionSpec::uci_line).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_typed_accessors() {
        let options = Options::default();
        assert_eq!(options.variant(), Variant::Chess);
        assert_eq!(options.threads(), 1);
        assert_eq!(options.hash_mb(), DEFAULT_HASH_MB as u64);
        assert_eq!(options.after_mate(), AfterMate::End);
        for name in [UCI_VARIANT, THREADS, HASH, AFTER_MATE] {
            assert!(OptionSpec::find(name).is_some(), "{name} is in the table");
        }
    }

    #[test]
    fn names_and_combo_values_in_any_case() {
        let mut options = Options::default();
        options.set("threads", Some("4")).unwrap();
        options.set("AFTERMATE", Some("Inherit")).unwrap();
        assert_eq!(options.threads(), 4);
        assert_eq!(options.text(AFTER_MATE), "inherit");
        assert_eq!(options.after_mate(), AfterMate::Inherit);
    }

    #[test]
    fn bad_values_are_refused_and_change_nothing() {
        let mut options = Options::default();
        for (name, value) in [
            (THREADS, Some("100000")),
            (THREADS, Some("0")),
            (THREADS, Some("-3")),
            (THREADS, Some("abc")),
            (THREADS, None),
            (HASH, Some("99999999999999999999999")),
            (AFTER_MATE, Some("sometimes")),
            (UCI_VARIANT, Some("checkers")),
            ("Nonsense", Some("1")),
        ] {
            assert!(options.set(name, value).is_err(), "{name} {value:?}");
        }
        assert_eq!(options.threads(), 1);
        assert_eq!(options.after_mate(), AfterMate::End);
    }

    #[test]
    fn only_playable_games_are_accepted() {
        for v in Variant::ALL {
            let mut options = Options::default();
            assert_eq!(
                options.set(UCI_VARIANT, Some(v.id())).is_ok(),
                v.is_playable(),
                "{v}"
            );
        }
    }

    #[test]
    fn threads_are_bounded_per_cpu_and_by_a_ceiling() {
        assert_eq!(threads_limit(0), THREADS_PER_CPU);
        assert_eq!(threads_limit(1), THREADS_PER_CPU);
        assert_eq!(threads_limit(2), 2 * THREADS_PER_CPU);
        assert_eq!(threads_limit(100_000), THREADS_CEILING);
        assert_eq!(threads_limit(usize::MAX), THREADS_CEILING);
        let mut options = Options::default();
        let most = max_threads().to_string();
        assert!(options.set(THREADS, Some(&most)).is_ok());
        let beyond = (max_threads() + 1).to_string();
        assert!(options.set(THREADS, Some(&beyond)).is_err());
        assert_eq!(options.threads().to_string(), most);
    }

    #[test]
    fn uci_lines_list_every_option() {
        let lines = Options::uci_lines();
        assert_eq!(lines.len(), OPTIONS.len());
        assert!(lines.contains(&format!(
            "option name Threads type spin default 1 min 1 max {}",
            max_threads()
        )));
        let variant_line = &lines[0];
        for v in Variant::ALL {
            assert!(variant_line.contains(&format!(" var {}", v.id())));
        }
    }
}
