//! The engine's text protocol: UCI as Stockfish speaks it, extended to games
//! of three players (clocks per player letter, game ends with points).
//!
//! Commands are read on the calling thread; searches and perft run on a
//! worker thread, so `isready` and `stop` are answered while they run.
//! protocol.md describes every command and answer.

pub mod go;
pub mod options;
pub mod output;
pub mod setup;
pub mod worker;

pub use output::Output;

use crate::bench::{self, BenchConfig};
use crate::moves::Move;
use crate::notation::NULL_MOVE_TEXT;
use crate::perft;
use crate::position::Position;
use crate::render;
use crate::search::tt::TranspositionTable;
use crate::search::{Limits, Progress, Searcher, eval};
use crate::types::{MAX_PLAYERS, Player};
use go::{GoCommand, bestmove_line, parse_go, progress_line};
use options::{AFTER_MATE, CLEAR_HASH, HASH, OptionSpec, Options, UCI_VARIANT};
use output::one_line;
use setup::Setup;
use std::io::BufRead;
use std::sync::{Arc, Mutex};
use worker::{AtEndOfInput, StopSignal, Worker};

/// The engine's name.
pub const ENGINE_NAME: &str = "Triskel";
/// The engine's authors, as `id author` gives them.
pub const AUTHOR: &str = "the Triskel developers";
/// The engine's version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Why a command that needs a position finds none.
const NO_POSITION: &str = "no position: the last position command was refused (send position startpos or position fen <position>)";

/// Why `go` and `bench` are refused while the worker runs.
const BUSY: &str = "a search, perft or bench is running (send stop first)";

/// Longest part of an input line quoted back in an error message.
const MAX_QUOTED_CHARS: usize = 60;

/// Longest error message (longer ones, quoting long input, are cut).
const MAX_MESSAGE_CHARS: usize = 1000;

/// The commands and what they do, as `help` lists them.
const COMMANDS: [(&str, &str); 17] = [
    (
        "uci",
        "identify the engine and list its options, then uciok",
    ),
    ("isready", "answer readyok (at once, also while searching)"),
    ("ucinewgame", "a new game begins (clears search state)"),
    (
        "setoption name <id> [value <x>]",
        "set an option ('uci' lists them)",
    ),
    (
        "position startpos|fen <position> [moves <m> ...]",
        "set the position of the current game",
    ),
    (
        "go [depth|nodes|movetime|movestogo|mate <n>] [<letter>time|<letter>inc <ms>] [infinite] [ponder] [searchmoves <m> ...]",
        "search the position; info lines, then one bestmove",
    ),
    ("go perft <depth>", "count the move tree below each move"),
    ("stop", "end the running search, perft or bench"),
    (
        "ponderhit",
        "the expected move was played: the pondering search goes on under its clocks",
    ),
    ("d", "show the position"),
    (
        "render [size <px>] [arrows <m>,<m>,...]",
        "the position as an SVG picture, on one line after 'svg '",
    ),
    (
        "geometry [size <px>]",
        "the board's cells, outlines and colours as JSON, on one line after 'geometry '",
    ),
    (
        "eval",
        "show the static evaluation of the position, per player",
    ),
    ("bench [depth <n>] [threads <n>]", "run the benchmark"),
    ("debug on|off", "accepted; no effect"),
    ("help", "this list"),
    ("quit", "stop any search and exit"),
];

/// The line the engine prints when it starts.
pub fn greeting() -> String {
    format!("{ENGINE_NAME} {VERSION} by {AUTHOR}; 'help' lists the commands")
}

/// Whether to go on reading commands after one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// `quit` was received.
    Quit,
}

/// The protocol's state: options, the current position and the worker.
pub struct Engine {
    out: Output,
    options: Options,
    setup: Setup,
    /// The current position; none after a refused `position` command, so
    /// that no search answers for a position other than the one sent.
    position: Option<Position>,
    worker: Worker,
    searcher: Arc<Mutex<Searcher>>,
    /// The table of a `Hash` set since the last `go`, allocated when it was
    /// set (instantly: its memory is cleared as it is first used) and put in
    /// place by the next search, which may find a search still running.
    pending_table: Option<TranspositionTable>,
    new_game: bool,
    /// A `go ponder` search runs and has not had its `ponderhit` or `stop`.
    pondering: bool,
}

/// Runs the protocol: prints the greeting, then handles the lines of
/// `input` until `quit` or end of input. `quit` stops any running job (a
/// search still prints its `bestmove`); the end of input stops a search
/// but lets a perft or bench finish.
pub fn run(mut input: impl BufRead, out: Output) {
    eval::build_all_tables();
    out.line(&greeting());
    let mut engine = Engine::new(out);
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        match input.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => {
                engine.end_of_input();
                return;
            }
            Ok(_) => {}
        }
        if engine.handle(&String::from_utf8_lossy(&bytes)) == Flow::Quit {
            engine.shutdown();
            return;
        }
    }
}

impl Engine {
    /// An engine with default options and the start position of the default game.
    pub fn new(out: Output) -> Engine {
        let options = Options::default();
        let setup = Setup::default();
        let position = Position::start(options.variant());
        let searcher = Searcher::new(options.search());
        Engine {
            out,
            options,
            setup,
            position: Some(position),
            worker: Worker::new(),
            searcher: Arc::new(Mutex::new(searcher)),
            pending_table: None,
            new_game: false,
            pondering: false,
        }
    }

    /// The current position (none after a refused `position` command).
    pub fn position(&self) -> Option<&Position> {
        self.position.as_ref()
    }

    /// The current options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Handles one input line.
    pub fn handle(&mut self, line: &str) -> Flow {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return Flow::Continue;
        };
        match command {
            "uci" => self.uci(),
            "isready" => self.out.line("readyok"),
            "ucinewgame" => self.new_game = true,
            "setoption" => self.setoption(args),
            "position" => self.position_command(args),
            "go" => self.go(args),
            "stop" => {
                self.pondering = false;
                self.worker.stop();
            }
            "ponderhit" => self.ponderhit(),
            "d" => self.display(),
            "render" => self.render(args),
            "geometry" => self.geometry(args),
            "eval" => self.static_evaluation(),
            "bench" => self.bench(args),
            "debug" if matches!(args, ["on"] | ["off"]) => {}
            "debug" => self.out.error("debug takes on or off"),
            "help" => self.help(),
            "quit" => return Flow::Quit,
            _ => self.out.error(&format!(
                "unknown command '{}' ('help' lists the commands)",
                quoted(line.trim())
            )),
        }
        Flow::Continue
    }

    /// Stops a running search, perft or bench and waits for its final output.
    pub fn shutdown(&mut self) {
        self.worker.stop();
    }

    /// The input has ended: stops a running search (which prints its
    /// `bestmove`), lets a perft or bench finish.
    pub fn end_of_input(&mut self) {
        self.worker.end_of_input();
    }

    fn uci(&self) {
        let mut lines = vec![
            format!("id name {ENGINE_NAME} {VERSION}"),
            format!("id author {AUTHOR}"),
            String::new(),
        ];
        lines.extend(Options::uci_lines());
        lines.push("uciok".to_string());
        self.out.block(lines);
    }

    fn help(&self) {
        let mut lines = vec![
            greeting(),
            "Commands (protocol.md has the details):".to_string(),
        ];
        for (command, what) in COMMANDS {
            lines.push(format!("  {command}"));
            lines.push(format!("      {what}"));
        }
        self.out.block(lines);
    }

    fn setoption(&mut self, args: &[&str]) {
        let Some(("name", rest)) = args.split_first().map(|(&w, rest)| (w, rest)) else {
            self.out
                .error("setoption needs: setoption name <id> [value <x>]");
            return;
        };
        let value_at = rest.iter().position(|&w| w == "value");
        let (name_words, value) = match value_at {
            Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
            None => (rest, None),
        };
        if name_words.is_empty() {
            self.out.error("setoption: the option name is missing");
            return;
        }
        let name = name_words.join(" ");
        let before = self.options.clone();
        let set = match self.options.set(&name, value.as_deref()) {
            Ok(spec) => spec,
            Err(why) => {
                self.out.error(&quoted_message(&why));
                return;
            }
        };
        self.after_option(set, before);
    }

    /// Applies the change of an option that affects the position or the
    /// table's size (`before` holds the options as they were, to go back to
    /// when the change cannot be made); `Clear Hash` clears before the next
    /// search, as `ucinewgame` does.
    fn after_option(&mut self, set: &OptionSpec, before: Options) {
        let variant = self.options.variant();
        let after_mate = self.options.after_mate();
        if set.name == CLEAR_HASH {
            self.new_game = true;
        }
        if set.name == HASH {
            match TranspositionTable::try_new(self.options.search().hash_mb) {
                Ok(table) => self.pending_table = Some(table),
                Err(why) => {
                    self.out
                        .error(&format!("{why}; Hash stays {} MB", before.hash_mb()));
                    self.options = before;
                }
            }
        }
        if set.name == UCI_VARIANT {
            self.reset_to_start();
        } else if set.name == AFTER_MATE && self.position.is_some() {
            match self.setup.build(variant, after_mate) {
                Ok(pos) => self.position = Some(pos),
                Err(why) => {
                    self.out.error(&format!(
                        "the position cannot be replayed under AfterMate {}: {}; back to the start position",
                        after_mate.name(),
                        quoted_message(&why)
                    ));
                    self.reset_to_start();
                }
            }
        }
    }

    /// Sets the start position of the current game.
    fn reset_to_start(&mut self) {
        let variant = self.options.variant();
        self.setup = Setup::default();
        self.position = Some(
            self.setup
                .build(variant, self.options.after_mate())
                .unwrap_or_else(|_| Position::start(variant)),
        );
    }

    fn position_command(&mut self, args: &[&str]) {
        let result = Setup::parse(args).and_then(|setup| {
            let pos = setup.build(self.options.variant(), self.options.after_mate())?;
            Ok((setup, pos))
        });
        match result {
            Ok((setup, pos)) => {
                self.setup = setup;
                self.position = Some(pos);
            }
            Err(why) => {
                self.position = None;
                self.out.error(&format!(
                    "position refused, no position until a valid one: {}",
                    quoted_message(&why)
                ));
            }
        }
    }

    fn go(&mut self, args: &[&str]) {
        if self.worker.is_busy() {
            self.out.error(&format!("go refused: {BUSY}; it goes on"));
            return;
        }
        let Some(position) = &self.position else {
            if args.first() == Some(&"perft") {
                self.out.error(&format!("go perft refused: {NO_POSITION}"));
                return;
            }
            // A GUI waits for its bestmove: it gets one at once, and no
            // move of another position.
            self.out.block(vec![
                format!("info string error: go refused: {NO_POSITION}"),
                format!("bestmove {NULL_MOVE_TEXT}"),
            ]);
            return;
        };
        let command = match parse_go(position, args) {
            Ok(command) => command,
            Err(why) => {
                self.out
                    .error(&format!("go refused: {}", quoted_message(&why)));
                return;
            }
        };
        let pos = position.clone();
        let started = match command {
            GoCommand::Perft(depth) => {
                let threads = self.options.threads();
                self.worker.start(
                    &self.out,
                    Vec::new(),
                    AtEndOfInput::Finish,
                    move |signal, _| perft_job(&pos, depth, threads, signal),
                )
            }
            GoCommand::Search { limits, ponder } => {
                let fallback_move = pos
                    .legal_moves()
                    .first()
                    .map_or_else(|| NULL_MOVE_TEXT.to_string(), |&m| pos.move_text(m));
                let fallback = vec![format!("bestmove {fallback_move}")];
                let searcher = Arc::clone(&self.searcher);
                let settings = self.options.search();
                let new_game = std::mem::take(&mut self.new_game);
                let new_table = self.pending_table.take();
                self.worker
                    .start(
                        &self.out,
                        fallback,
                        AtEndOfInput::Stop,
                        move |signal, out| {
                            let mut searcher = searcher
                                .lock()
                                .unwrap_or_else(|poisoned| poisoned.into_inner());
                            if let Some(table) = new_table {
                                searcher.install_table(table, settings.hash_mb);
                            }
                            if let Err(why) = searcher.set_options(settings) {
                                out.line(&format!("info string error: {why}"));
                            }
                            if new_game {
                                searcher.clear();
                            }
                            search_job(&pos, &limits, ponder, signal, out, &mut searcher)
                        },
                    )
                    .inspect(|()| self.pondering = ponder)
            }
        };
        if let Err(why) = started {
            self.out.error(&format!("go refused: {why}"));
        }
    }

    /// Lets a pondering search go on as a search under its clocks.
    fn ponderhit(&mut self) {
        if self.pondering && self.worker.is_busy() {
            self.pondering = false;
            self.worker.ponderhit();
        } else {
            self.out
                .error("ponderhit: no search is pondering (go ponder starts one)");
        }
    }

    /// Prints each player's static evaluation: material and placement,
    /// activity (mobility and king danger), their total, and the total
    /// against the others' average, which the search's scores compare.
    fn static_evaluation(&self) {
        let Some(pos) = &self.position else {
            self.out.error(&format!("eval: {NO_POSITION}"));
            return;
        };
        if let Some(outcome) = pos.outcome() {
            self.out.line(&format!(
                "No static evaluation: the game is over ({})",
                outcome.summary(pos.game())
            ));
            return;
        }
        let game = pos.game();
        let placement = eval::evaluate_fast(pos);
        let activity = eval::ReachCache::default().activity(pos);
        let total: [i32; MAX_PLAYERS] = std::array::from_fn(|p| placement[p] + activity[p]);
        let in_game = pos.state().in_game;
        let mut lines = vec![
            "Static evaluation in centipawns (placement: material, centralisation, pawn progress; \
             activity: mobility, king danger and safety, pawn structure, bishop pair, the mover's tempo; \
             vs others: the total against the others' average)"
                .to_string(),
            format!(
                "  {:<12} {:>9} {:>9} {:>7} {:>10}",
                "player", "placement", "activity", "total", "vs others"
            ),
        ];
        for p in (0..game.players).map(Player::new) {
            let name = game.player_label(p);
            lines.push(if in_game.has(p) {
                let i = p.index();
                format!(
                    "  {name:<12} {:>9} {:>9} {:>7} {:>+10}",
                    placement[i],
                    activity[i],
                    total[i],
                    eval::against_others(&total, p, in_game)
                )
            } else {
                format!("  {name:<12} out of the game")
            });
        }
        let mover = pos.to_move();
        lines.push(format!(
            "To move: {}, static score {:+}",
            game.player_label(mover),
            eval::against_others(&total, mover, in_game)
        ));
        self.out.block(lines);
    }

    fn display(&self) {
        let Some(pos) = &self.position else {
            self.out.error(&format!("d: {NO_POSITION}"));
            return;
        };
        let game = pos.game();
        let fen = pos.fen();
        let shown_fen = if pos.game().facts.classical_notation {
            pos.standard_fen()
        } else {
            fen.clone()
        };
        let state = match (pos.outcome(), pos.claimable_draw()) {
            (Some(o), _) => format!("gameover {}", o.summary(pos.game())),
            (None, Some(claim)) => format!("in play, draw claimable ({})", claim.reason.name()),
            (None, None) => "in play".to_string(),
        };
        let mut lines = vec![String::new()];
        lines.extend(pos.board_text().lines().map(str::to_string));
        lines.extend([
            String::new(),
            format!("Variant: {}", pos.variant()),
            format!("Fen: {shown_fen}"),
            format!("Position: {fen}"),
            format!("Key: {:016X}", pos.hash()),
            format!("To move: {}", game.player_label(pos.to_move())),
            format!("State: {state}"),
            format!("In check: {}", if pos.in_check() { "yes" } else { "no" }),
        ]);
        self.out.block(lines);
    }

    fn render(&self, args: &[&str]) {
        let Some(pos) = &self.position else {
            self.out.error(&format!("render: {NO_POSITION}"));
            return;
        };
        let picture = picture_arguments(args, &["size", "arrows"]).and_then(|(size, arrows)| {
            let arrows = render::parse_arrows(pos, arrows.unwrap_or_default())?;
            Ok((size, arrows))
        });
        let (size, arrows) = match picture {
            Ok(picture) => picture,
            Err(why) => {
                self.out.error(&format!("render: {why}"));
                return;
            }
        };
        // The setup built this position, so it builds again.
        let last_move = render::position_and_last_move(
            pos.variant(),
            pos.after_mate(),
            self.setup.fen.as_deref(),
            &self.setup.moves,
        )
        .ok()
        .and_then(|(_, last)| last);
        let marks = render::Marks { last_move, arrows };
        self.out
            .line(&format!("svg {}", render::svg(pos, size, &marks)));
    }

    fn geometry(&self, args: &[&str]) {
        match picture_arguments(args, &["size"]) {
            Ok((size, _)) => {
                let game = self.options.variant().game();
                self.out
                    .line(&format!("geometry {}", render::json::geometry(game, size)));
            }
            Err(why) => self.out.error(&format!("geometry: {why}")),
        }
    }

    fn bench(&mut self, args: &[&str]) {
        if self.worker.is_busy() {
            self.out.error(&format!("bench refused: {BUSY}"));
            return;
        }
        let config = match BenchConfig::parse(args) {
            Ok(config) => config,
            Err(why) => {
                self.out
                    .error(&format!("bench refused: {}", quoted_message(&why)));
                return;
            }
        };
        let started = self.worker.start(
            &self.out,
            Vec::new(),
            AtEndOfInput::Finish,
            move |signal, out| match bench::run(&config, signal.flag(), &mut |line| out.line(line))
            {
                Ok(Some(totals)) => totals.summary_lines(),
                Ok(None) => vec!["info string bench stopped".to_string()],
                Err(why) => vec![format!(
                    "info string error: bench failed: {}",
                    one_line(&why)
                )],
            },
        );
        if let Err(why) = started {
            self.out.error(&format!("bench refused: {why}"));
        }
    }
}

/// `go perft` on the worker: the divide lines, or a note that it was stopped.
/// The words after `render` or `geometry`: `size <px>` and (where `allowed`
/// has it) `arrows <list>`, in any order; the size and the arrow list.
fn picture_arguments<'a>(
    args: &[&'a str],
    allowed: &[&str],
) -> Result<(u32, Option<&'a str>), String> {
    let mut size = render::DEFAULT_SIZE;
    let mut arrows = None;
    let mut words = args.iter();
    while let Some(&word) = words.next() {
        if !allowed.contains(&word) {
            return Err(format!(
                "unexpected '{word}' (expected {})",
                allowed.join(" or ")
            ));
        }
        let Some(&value) = words.next() else {
            return Err(format!("{word} needs a value"));
        };
        if word == "size" {
            let asked = value
                .parse()
                .map_err(|_| format!("size '{value}' is not a number of pixels"))?;
            size = render::check_size(asked)?;
        } else {
            arrows = Some(value);
        }
    }
    Ok((size, arrows))
}

fn perft_job(pos: &Position, depth: u32, threads: usize, signal: &StopSignal) -> Vec<String> {
    match perft::divide_until(pos, depth, threads, signal.flag()) {
        Some(counts) => perft_lines(pos, &counts),
        None => vec!["info string perft stopped".to_string()],
    }
}

/// The job of `go`: the search within `limits` and its one `bestmove` line.
/// With `ponder`, the search first runs without time limits until
/// `ponderhit`, then searches again under `limits` (the table keeps what
/// pondering found); a `stop` while pondering answers with the pondering
/// search's move. An infinite or pondering search that ends early holds its
/// `bestmove` back until it is released.
fn search_job(
    pos: &Position,
    limits: &Limits,
    ponder: bool,
    signal: &StopSignal,
    out: &Output,
    searcher: &mut Searcher,
) -> Vec<String> {
    let mut report = |progress: &Progress| out.line(&progress_line(pos, progress));
    let mut result = match pos.outcome() {
        Some(outcome) => {
            out.line(&format!(
                "info string gameover {}",
                outcome.summary(pos.game())
            ));
            None
        }
        None if ponder => {
            let pondering = Limits {
                infinite: true,
                movetime: None,
                time: Default::default(),
                moves_to_go: None,
                ..limits.clone()
            };
            Some(searcher.search(pos, &pondering, signal.flag(), &mut report))
        }
        None => Some(searcher.search(pos, limits, signal.flag(), &mut report)),
    };
    if ponder && signal.wait_for_ponderhit() && result.is_some() {
        result = Some(searcher.search(pos, limits, signal.flag(), &mut report));
    }
    if limits.infinite {
        signal.wait();
    }
    vec![result.map_or_else(
        || format!("bestmove {NULL_MOVE_TEXT}"),
        |r| bestmove_line(pos, &r),
    )]
}

/// The answer to `go perft`: `move: count` lines, an empty line and the total.
pub fn perft_lines(pos: &Position, counts: &[(Move, u64)]) -> Vec<String> {
    let total: u64 = counts.iter().map(|&(_, n)| n).sum();
    let mut lines: Vec<String> = counts
        .iter()
        .map(|&(m, n)| format!("{}: {n}", pos.move_text(m)))
        .collect();
    lines.push(String::new());
    lines.push(format!("Nodes searched: {total}"));
    lines
}

/// `text` made safe to quote: one line, at most [`MAX_QUOTED_CHARS`] characters.
fn quoted(text: &str) -> String {
    let line = one_line(text);
    if line.chars().count() > MAX_QUOTED_CHARS {
        let cut: String = line.chars().take(MAX_QUOTED_CHARS).collect();
        format!("{cut}...")
    } else {
        line
    }
}

/// An error message that may quote input: kept to a sane length.
fn quoted_message(message: &str) -> String {
    let line = one_line(message);
    if line.chars().count() > MAX_MESSAGE_CHARS {
        let cut: String = line.chars().take(MAX_MESSAGE_CHARS).collect();
        format!("{cut}...")
    } else {
        line
    }
}
