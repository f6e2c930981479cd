//! The `triskel` command: without a subcommand, the engine's protocol on
//! stdin/stdout (protocol.md); `perft` and `bench` for testing and timing;
//! `match` for measuring playing strength; `book` for making its openings;
//! `render` and `geometry` for pictures of the boards.

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use triskel::bench::{self, BenchConfig, per_second};
use triskel::datagen::{DatagenRecipe, generate};
use triskel::number;
use triskel::perft;
use triskel::protocol::go::MAX_PERFT_DEPTH;
use triskel::protocol::options::{Options, THREADS, UCI_VARIANT, max_threads};
use triskel::protocol::setup::build_position;
use triskel::protocol::{self, Output, perft_lines};
use triskel::render;
use triskel::rules::format_points;
use triskel::search::MAX_DEPTH;
use triskel::search::weights::EvalWeights;
use triskel::tournament::adjudication::{
    Adjudication, DRAW_KEYS, DrawRule, MAX_ADJUDICATION_MOVES, RESIGN_KEYS, ResignRule,
};
use triskel::tournament::balanced::{BookRecipe, make_book};
use triskel::tournament::engine_spec::{ENGINE_SPEC_KEYS, ExternalConfig};
use triskel::tournament::game::{GameEnd, TimeControl};
use triskel::tournament::live::DEFAULT_RATING_INTERVAL;
use triskel::tournament::openings::{Book, BookSpec};
use triskel::tournament::pgn::{MatchTags, PgnGame, time_control_tag, today};
use triskel::tournament::player::{ENGINE_KEYS, PlayerConfig, PlayerKind};
use triskel::tournament::record::{HEADER, Record};
use triskel::tournament::sequential::MatchSprt;
use triskel::tournament::sink::InOrderFile;
use triskel::tournament::sprt::Decision;
use triskel::tournament::{
    DEFAULT_MAX_PLIES, DEFAULT_OPENING_PLIES_PER_PLAYER, Finished, MATCH_NOTE, MAX_GAMES,
    MAX_OPENING_PLIES, MatchSettings, run_match, unique_names,
};
use triskel::tournament::{interrupt, interrupted};
use triskel::tune::{Dataset, FitPlan};
use triskel::variants::Variant;

/// The value parser of `--threads`: from 1 to what `Threads` allows.
fn thread_count() -> impl Fn(&str) -> Result<usize, String> + Clone + Send + Sync + 'static {
    number::argument(1..=usize::try_from(max_threads()).unwrap_or(1))
}

/// The exit status after Ctrl-C or SIGTERM (128 + SIGINT, as shells use).
const INTERRUPTED_EXIT: i32 = 130;

/// The browser board's port unless `--port` says otherwise.
const GUI_PORT: u16 = 7373;

/// Most games a match plays at the same time.
const MAX_CONCURRENCY: u64 = 256;

#[derive(Parser)]
#[command(
    name = "triskel",
    version,
    about = "A game engine for chess variants of three players and of 3-D boards",
    long_about = "A game engine for chess variants of three players and of 3-D boards.\n\n\
                  Without a subcommand it speaks its UCI-style protocol on standard input \
                  and output (see protocol.md)."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (perft).
    Perft {
        /// Game id (see `uci` for the list).
        #[arg(long, default_value = "chess")]
        variant: String,
        /// Depth in plies.
        #[arg(long, value_parser = number::argument(1..=MAX_PERFT_DEPTH))]
        depth: u32,
        /// Start from this position (position format, or standard FEN for chess)
        /// instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Play these moves first.
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Threads.
        #[arg(long, value_parser = thread_count())]
        threads: Option<usize>,
        /// Set an engine option, e.g. `AfterMate=inherit` (repeatable).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
    /// Run the benchmark: fixed perft counts and searches, then the node total and speed.
    Bench {
        /// Depth of the searches (perft entries keep their own).
        #[arg(long, value_parser = number::argument(1..=MAX_DEPTH))]
        depth: Option<u32>,
        /// Threads.
        #[arg(long, default_value_t = 1, value_parser = thread_count())]
        threads: usize,
    },
    /// Play a match between player configurations and print the points table.
    #[command(after_help = match_help())]
    Match(Box<MatchArgs>),
    /// Draw a position as an SVG picture (on standard output).
    Render {
        /// Game id (see `uci` for the list).
        #[arg(long, default_value = "chess")]
        variant: String,
        /// Draw this position (position format, or standard FEN for chess)
        /// instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Play these moves first; the last one is highlighted.
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        /// Arrows to draw, as moves separated by commas (`e2e4,e7e5`).
        #[arg(long)]
        arrows: Option<String>,
        /// Width of the picture in pixels.
        #[arg(long, default_value_t = render::DEFAULT_SIZE)]
        size: u32,
        /// Set an engine option, e.g. `AfterMate=inherit` (repeatable).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
    /// Print a board's cells, outlines and colours as JSON, in the pixels
    /// of the picture `render` draws at the same size.
    Geometry {
        /// Game id (see `uci` for the list).
        #[arg(long, default_value = "chess")]
        variant: String,
        /// Width of the picture in pixels.
        #[arg(long, default_value_t = render::DEFAULT_SIZE)]
        size: u32,
    },
    /// Serve the browser board on 127.0.0.1: play and analyse every game
    /// with engines started as child processes.
    Gui {
        /// Port to listen on (0: any free port).
        #[arg(long, default_value_t = GUI_PORT)]
        port: u16,
    },
    /// Make a balanced opening book (tfen, on standard output): random
    /// walks from the start position kept where a search to a fixed depth
    /// scores every player within a margin of even.
    Book(BookArgs),
    /// Play fast self-play games from an opening book and write their
    /// quiet positions with the search's scores and the games' points
    /// (training data for the evaluation's tuner; format in src/datagen.rs).
    Datagen(DatagenArgs),
    /// Fit the evaluation's weights to the results in `triskel datagen`'s
    /// data (Texel's method) and write them as a weights file.
    Tune(TuneArgs),
}

/// The arguments of `triskel tune`.
#[derive(clap::Args)]
struct TuneArgs {
    /// Game id (see `uci` for the list).
    #[arg(long, default_value = "chess")]
    variant: String,
    /// The data of `triskel datagen` (files of the same game, read in turn).
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Steps of gradient descent over all positions.
    #[arg(long, default_value_t = 2000, value_parser = number::argument(1..=MAX_TUNE_EPOCHS))]
    epochs: usize,
    /// How much of the target is the game's result, the rest the search's
    /// score in the data (1: the results alone, Texel's method).
    #[arg(long, default_value_t = 1.0, value_parser = tune_lambda)]
    lambda: f64,
    /// About how far one step moves a weight, in centipawns.
    #[arg(long, default_value_t = 1.0, value_parser = tune_rate)]
    rate: f64,
    /// Ridge penalty that holds the weights near their starting values:
    /// this much loss per weight 100 centipawns away (0: none).
    #[arg(long, default_value_t = 0.0, value_parser = tune_prior)]
    prior: f64,
    /// Fit only these weights (names, or groups such as `material` or
    /// `passed`); the others keep their starting values [default: all].
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Start from the weights of this file [default: the game's own].
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Data not fitted to (other games than `--data`'s): its loss with the
    /// starting and the fitted weights is reported, to tell a fit that
    /// learnt from one that memorised.
    #[arg(long, num_args = 1..)]
    holdout: Vec<PathBuf>,
    /// Threads working out features and gradients [default: one per logical CPU].
    #[arg(long, value_parser = thread_count())]
    threads: Option<usize>,
    /// Write the weights to this file instead of standard output (replacing it).
    #[arg(long)]
    output: Option<PathBuf>,
}

/// Most steps one `triskel tune` takes.
const MAX_TUNE_EPOCHS: usize = 1_000_000;

/// Largest step size of `triskel tune`, in centipawns.
const MAX_TUNE_RATE: f64 = 1000.0;

/// Reads a number from 0 to `highest`.
fn number_up_to(text: &str, highest: f64) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(number) if (0.0..=highest).contains(&number) => Ok(number),
        _ => Err(format!("'{text}': expected a number from 0 to {highest}")),
    }
}

/// Reads `--lambda`: a number from 0 to 1.
fn tune_lambda(text: &str) -> Result<f64, String> {
    number_up_to(text, 1.0)
}

/// Largest ridge penalty of `triskel tune`.
const MAX_TUNE_PRIOR: f64 = 1000.0;

/// Reads `--prior`: a number from 0 to [`MAX_TUNE_PRIOR`].
fn tune_prior(text: &str) -> Result<f64, String> {
    number_up_to(text, MAX_TUNE_PRIOR)
}

/// Reads `--rate`: a positive number of centipawns up to [`MAX_TUNE_RATE`].
fn tune_rate(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(rate) if rate > 0.0 && rate <= MAX_TUNE_RATE => Ok(rate),
        _ => Err(format!(
            "'{text}': expected a number above 0 and at most {MAX_TUNE_RATE}"
        )),
    }
}

impl TuneArgs {
    /// `triskel tune`.
    fn run(self) -> Result<(), String> {
        let variant = playable_variant(&self.variant)?;
        let mut start = EvalWeights::of(variant);
        if let Some(path) = &self.weights {
            let text = std::fs::read_to_string(path)
                .map_err(|why| format!("--weights {}: {why}", path.display()))?;
            start = start
                .read(&text)
                .map_err(|why| format!("--weights {}: {why}", path.display()))?;
        }
        let mut plan = FitPlan::new(self.lambda, self.epochs, self.rate).with_prior(self.prior);
        if !self.only.is_empty() {
            plan = plan
                .only(&self.only, &start)
                .map_err(|why| format!("--only {why}"))?;
        }
        let pool = thread_pool(self.threads)?;
        let started = Instant::now();
        let (dataset, mut made_by) = read_data("--data", &self.data, variant, &pool)?;
        let (holdout, holdout_made_by) = read_data("--holdout", &self.holdout, variant, &pool)?;
        made_by.push_str(&holdout_made_by);
        if dataset.is_empty() {
            return Err("the data holds no positions".to_string());
        }
        eprintln!(
            "tune {variant}: {} positions read in {} s",
            dataset.len(),
            started.elapsed().as_secs()
        );
        let fit = pool.install(|| {
            dataset.fit(&start, &plan, &mut |epoch, loss| {
                eprint!(
                    "\rtune {variant}: epoch {epoch}/{}, loss {loss:.6}, {} s ",
                    self.epochs,
                    started.elapsed().as_secs()
                );
            })
        });
        eprintln!();
        let paths = |paths: &[PathBuf]| -> Vec<String> {
            paths.iter().map(|p| p.display().to_string()).collect()
        };
        let held_out = if holdout.is_empty() {
            String::new()
        } else {
            let [before, after] = [&start, &fit.weights]
                .map(|weights| pool.install(|| holdout.loss_of(weights, fit.target)));
            format!(
                "# held out: {} positions; loss {before:.6} with the starting weights, {after:.6} fitted\n",
                holdout.len()
            )
        };
        let header = format!(
            "# triskel tune --variant {variant} --data {}{}{}{} --lambda {} --epochs {} --rate {} --prior {}\n\
             # {} positions; K {:.6} per centipawn; loss {:.6} with the starting weights, {:.6} fitted\n{held_out}",
            paths(&self.data).join(" "),
            if self.holdout.is_empty() {
                String::new()
            } else {
                format!(" --holdout {}", paths(&self.holdout).join(" "))
            },
            self.weights
                .as_ref()
                .map(|p| format!(" --weights {}", p.display()))
                .unwrap_or_default(),
            if self.only.is_empty() {
                String::new()
            } else {
                format!(" --only {}", self.only.join(","))
            },
            self.lambda,
            self.epochs,
            self.rate,
            self.prior,
            dataset.len(),
            fit.target.k,
            fit.loss_before,
            fit.loss_after
        );
        let out = made_by + &header + &fit.weights.text();
        match &self.output {
            Some(path) => std::fs::write(path, out)
                .map_err(|why| format!("--output {}: {why}", path.display())),
            None => {
                print!("{out}");
                Ok(())
            }
        }
    }
}

/// Reads the data files `paths` (of `triskel datagen`, for `option`) of
/// `variant` on `pool`: their positions, and the commands that made them
/// (from their first lines), one per line with `> path`.
fn read_data(
    option: &str,
    paths: &[PathBuf],
    variant: Variant,
    pool: &rayon::ThreadPool,
) -> Result<(Dataset, String), String> {
    let mut dataset = Dataset::default();
    let mut made_by = String::new();
    for path in paths {
        let failed = |why: String| format!("{option} {}: {why}", path.display());
        let text = std::fs::read_to_string(path).map_err(|why| failed(why.to_string()))?;
        if let Some(command) = text.lines().next().filter(|l| l.starts_with("# triskel ")) {
            made_by.push_str(&format!("{command} > {}\n", path.display()));
        }
        let read = pool
            .install(|| Dataset::read(variant, &text))
            .map_err(failed)?;
        dataset.extend(read);
    }
    Ok((dataset, made_by))
}

/// The arguments of `triskel datagen`.
#[derive(clap::Args)]
struct DatagenArgs {
    /// Game id (see `uci` for the list).
    #[arg(long, default_value = "chess")]
    variant: String,
    /// Games to play.
    #[arg(long, default_value_t = 100, value_parser = number::argument(1..=MAX_DATAGEN_GAMES))]
    games: usize,
    /// Nodes the engine searches per move.
    #[arg(long, default_value_t = 5000, value_parser = number::argument(1..=MAX_DATAGEN_NODES))]
    nodes: u64,
    /// Seed of the book's order and of the games.
    #[arg(long, default_value_t = 0, value_parser = number::argument(0..=u64::MAX))]
    seed: u64,
    /// The opening book (tfen, epd or pgn) [default: openings/<variant>.tfen].
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Random moves each player plays after the opening (drawn from the
    /// game's seed), so that games from one opening differ.
    #[arg(long, default_value_t = 1, value_parser = number::argument(0..=MAX_DATAGEN_RANDOM_MOVES))]
    random_moves: usize,
    /// Threads playing games [default: one per logical CPU].
    #[arg(long, value_parser = thread_count())]
    threads: Option<usize>,
    /// Write the data to this file instead of standard output (replacing it).
    #[arg(long)]
    output: Option<PathBuf>,
}

/// Most random moves per player after a `triskel datagen` opening.
const MAX_DATAGEN_RANDOM_MOVES: usize = 50;

/// Most games one `triskel datagen` plays.
const MAX_DATAGEN_GAMES: usize = 100_000_000;

/// Most nodes per move of `triskel datagen` (its games are meant to be fast).
const MAX_DATAGEN_NODES: u64 = 100_000_000;

impl DatagenArgs {
    /// `triskel datagen`.
    fn run(self) -> Result<(), String> {
        let variant = playable_variant(&self.variant)?;
        let file = self
            .openings
            .clone()
            .unwrap_or_else(|| PathBuf::from(format!("openings/{}.tfen", variant.id())));
        let spec = BookSpec::parse(&[
            format!("file={}", file.display()),
            "order=random".to_string(),
        ])?;
        let book = Book::load(&spec, variant, self.seed)?;
        let recipe = DatagenRecipe {
            variant,
            games: self.games,
            nodes: self.nodes,
            seed: self.seed,
            random_moves: self.random_moves,
        };
        let pool = thread_pool(self.threads)?;
        let mut out: Box<dyn Write + Send> = match &self.output {
            Some(path) => Box::new(BufWriter::new(
                std::fs::File::create(path)
                    .map_err(|why| format!("--output {}: {why}", path.display()))?,
            )),
            None => Box::new(BufWriter::new(std::io::stdout())),
        };
        let failed = |why: std::io::Error| format!("writing the data: {why}");
        writeln!(
            out,
            "# triskel datagen --variant {variant} --games {} --nodes {} --seed {} --random-moves {} --openings {}",
            recipe.games,
            recipe.nodes,
            recipe.seed,
            recipe.random_moves,
            file.display()
        )
        .map_err(failed)?;
        let started = Instant::now();
        pool.install(|| {
            generate(
                &recipe,
                &book,
                &mut |samples| {
                    for sample in samples {
                        writeln!(out, "{}", sample.line()).map_err(failed)?;
                    }
                    out.flush().map_err(failed)
                },
                &mut |games, positions| {
                    eprint!(
                        "\rdatagen {variant}: {games}/{} games, {positions} positions, {} s ",
                        recipe.games,
                        started.elapsed().as_secs()
                    );
                },
            )
        })?;
        eprintln!();
        Ok(())
    }
}

/// The arguments of `triskel book`.
#[derive(clap::Args)]
struct BookArgs {
    /// Game id (see `uci` for the list).
    #[arg(long, default_value = "chess")]
    variant: String,
    /// Openings to make.
    #[arg(long, default_value_t = 300, value_parser = number::argument(1..=MAX_BOOK_OPENINGS))]
    count: usize,
    /// Random plies of each opening [default: 4 per player].
    #[arg(long, value_parser = number::argument(1..=MAX_OPENING_PLIES))]
    plies: Option<usize>,
    /// Depth of the search that judges each walk.
    #[arg(long, default_value_t = 6, value_parser = number::argument(1..=MAX_DEPTH))]
    depth: u32,
    /// Largest score of any player, in centipawns, that counts as balanced.
    #[arg(long, default_value_t = 50, value_parser = number::argument(0..=MAX_BOOK_MARGIN))]
    margin: i32,
    /// Seed of the walks.
    #[arg(long, default_value_t = 0, value_parser = number::argument(0..=u64::MAX))]
    seed: u64,
    /// Threads judging walks [default: one per logical CPU].
    #[arg(long, value_parser = thread_count())]
    threads: Option<usize>,
}

/// Most openings `triskel book` makes.
const MAX_BOOK_OPENINGS: usize = 1_000_000;

/// Largest balance margin of `triskel book`, in centipawns (ten queens).
const MAX_BOOK_MARGIN: i32 = 10_000;

/// Random plies per player of `triskel book`'s walks, by default.
const DEFAULT_BOOK_PLIES_PER_PLAYER: usize = 4;

/// A pool of `threads` threads (`None`: one per logical CPU) for the
/// commands that play or judge games in parallel.
fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, String> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = threads {
        pool = pool.num_threads(threads);
    }
    pool.build().map_err(|why| format!("threads: {why}"))
}

/// The playable game of a `--variant` argument.
fn playable_variant(id: &str) -> Result<Variant, String> {
    Variant::from_id(id)
        .filter(|v| v.is_playable())
        .ok_or_else(|| {
            let ids: Vec<&str> = Variant::ALL.iter().map(|v| v.id()).collect();
            format!("--variant {id}: unknown game (games: {})", ids.join(" "))
        })
}

impl BookArgs {
    /// `triskel book`.
    fn run(self) -> Result<(), String> {
        let variant = playable_variant(&self.variant)?;
        let recipe = BookRecipe {
            variant,
            count: self.count,
            plies: self
                .plies
                .unwrap_or(DEFAULT_BOOK_PLIES_PER_PLAYER * variant.game().players),
            depth: self.depth,
            margin: self.margin,
            seed: self.seed,
        };
        let pool = thread_pool(self.threads)?;
        let started = Instant::now();
        let book = pool.install(|| {
            make_book(&recipe, &mut |kept, tried| {
                eprint!(
                    "\rbook {variant}: {kept}/{} kept of {tried} walks, {} s ",
                    recipe.count,
                    started.elapsed().as_secs()
                );
            })
        });
        eprintln!();
        let command = format!(
            "triskel book --variant {variant} --count {} --plies {} --depth {} --margin {} --seed {}",
            recipe.count, recipe.plies, recipe.depth, recipe.margin, recipe.seed
        );
        Output::stdout().block(book?.text(&recipe, &command).lines().map(String::from));
        Ok(())
    }
}

/// The arguments of `triskel match`.
#[derive(clap::Args)]
struct MatchArgs {
    /// Game id (see `uci` for the list).
    #[arg(long, default_value = "chess")]
    variant: String,
    /// Built-in configurations and `exec:PATH` engines (see below); with
    /// the `--engine`s, 2 in all, or 2 or 3 in a three-player game.
    #[arg(long, num_args = 1..=3, value_name = "SPEC")]
    players: Vec<String>,
    /// An engine in another process, as cutechess-cli takes it: `cmd=PATH`
    /// and further KEY=VALUE words (see below); repeat per engine. The
    /// configurations are the --players, then the --engines.
    #[arg(long, num_args = 1.., action = clap::ArgAction::Append, value_name = "KEY=VALUE")]
    engine: Vec<String>,
    /// The words of each `--engine`, one list per occurrence (clap's
    /// derive keeps only all words together; see [`engine_occurrences`]).
    #[arg(skip)]
    engines: Vec<Vec<String>>,
    /// Run an SPRT of the first configuration against the others and end
    /// the match when it decides: elo0= elo1= alpha= beta= model=normalized|logistic
    /// (defaults 0 5 0.05 0.05 normalized).
    #[arg(long, num_args = 0.., value_name = "KEY=VALUE")]
    sprt: Option<Vec<String>>,
    /// Print the live standings every N finished games, in game order:
    /// points, points per game, Elo or points against the fair share with
    /// 95% intervals, LOS, and the SPRT's line (0: never).
    #[arg(long = "ratinginterval", value_name = "N", default_value_t = DEFAULT_RATING_INTERVAL,
          value_parser = number::argument(0..=MAX_GAMES))]
    rating_interval: usize,
    /// KEY=VALUE words for every --engine (an engine's own keys win).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    each: Vec<String>,
    /// Games in total: a multiple of a round's seatings (2 with two players, 6 with three).
    #[arg(long, default_value_t = 12, value_parser = number::argument(1..=usize::MAX))]
    games: usize,
    /// Time on each clock at the start, in ms.
    #[arg(long, default_value_t = 10_000, value_parser = number::argument(1..=u64::MAX))]
    time: u64,
    /// Increment after each move, in ms.
    #[arg(long, default_value_t = 100, value_parser = number::argument(0..=u64::MAX))]
    inc: u64,
    /// Seed of the openings and of the random players.
    #[arg(long, default_value_t = 0, value_parser = number::argument(0..=u64::MAX))]
    seed: u64,
    /// Add the game records to this file (one line per game, in game order).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Add the games to this file in PGN (in game order; see protocol.md).
    #[arg(long, value_name = "FILE")]
    pgnout: Option<PathBuf>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1,
          value_parser = number::argument(1..=MAX_CONCURRENCY))]
    concurrency: u64,
    /// Random plies from the start position that open each round [default: 2 per player].
    #[arg(long, value_parser = number::argument(0..=MAX_OPENING_PLIES as u64),
          conflicts_with = "openings")]
    opening_plies: Option<u64>,
    /// Open the rounds from a book instead: file=F format=epd|pgn|tfen
    /// order=random|sequential start=N plies=N (the books of openings/ are tfen).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    openings: Option<Vec<String>>,
    /// Plies after the opening at which a game is adjudicated a draw.
    #[arg(long, default_value_t = DEFAULT_MAX_PLIES as u64,
          value_parser = number::argument(1..=u64::MAX))]
    max_plies: u64,
    /// Adjudicate a draw from the engines' scores, as cutechess-cli:
    /// movenumber=N movecount=N score=CP (see below).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    draw: Option<Vec<String>>,
    /// Adjudicate a loss from the engines' scores, as cutechess-cli:
    /// movecount=N score=CP [twosided=true|false] (see below).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    resign: Option<Vec<String>>,
    /// Full moves (rounds of every player) after the opening at which a
    /// game is adjudicated a draw; with --max-plies the smaller limit wins.
    #[arg(long, value_parser = number::argument(1..=MAX_ADJUDICATION_MOVES))]
    maxmoves: Option<u32>,
    /// Go on with the match of the --record file after its last finished
    /// game (the same schedule: game, configurations, games, seed, openings).
    #[arg(long, requires = "record")]
    resume: bool,
    /// Restart an engine that crashed or stalled for the next game (the
    /// default; cutechess-cli's -recover).
    #[arg(long, overrides_with = "no_recover")]
    recover: bool,
    /// End the match after a game in which an engine crashed, stalled or
    /// did not start.
    #[arg(long)]
    no_recover: bool,
}

/// The end of `triskel match --help`: the player specs.
fn match_help() -> String {
    let mut text = String::from(
        "Player specs:\n  \
         random                   a random legal move\n  \
         greedy                   the capture of the most valuable piece, else a random move\n  \
         engine                   the engine with its default options\n  \
         engine:KEY=VALUE,...     the engine with overrides:\n",
    );
    for (key, meaning) in ENGINE_KEYS {
        text.push_str(&format!("      {key:<10} {meaning}\n"));
    }
    text.push_str(
        "  exec:PATH                an engine in another process, as --engine cmd=PATH\n\
         \n--engine keys:\n",
    );
    for (key, meaning) in ENGINE_SPEC_KEYS {
        text.push_str(&format!("  {key:<12} {meaning}\n"));
    }
    for (flag, keys) in [("--draw", DRAW_KEYS), ("--resign", RESIGN_KEYS)] {
        text.push_str(&format!("\n{flag} keys:\n"));
        for (key, meaning) in keys {
            text.push_str(&format!("  {key:<12} {meaning}\n"));
        }
    }
    text.push_str(
        "\nA round plays every seating once from one random opening: both colours, or \
         all 6 orders of three players (two configurations sit A,A,B and A,B,B). \
         A player out of time, playing an illegal move or (a process) failing to answer \
         scores 0, the others share \
         a draw's points; games reaching --max-plies or --maxmoves are drawn, and --draw \
         and --resign adjudicate games from the engines' scores. See protocol.md.",
    );
    text
}

/// The words of each `--engine` of `triskel match`, one list per occurrence.
fn engine_occurrences(matches: &clap::ArgMatches) -> Vec<Vec<String>> {
    matches
        .subcommand_matches("match")
        .and_then(|m| m.get_occurrences::<String>("engine"))
        .map(|occurrences| occurrences.map(|words| words.cloned().collect()).collect())
        .unwrap_or_default()
}

fn main() -> ExitCode {
    let matches = Cli::command().get_matches();
    let mut cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(error) => error.exit(),
    };
    if let Some(Command::Match(args)) = &mut cli.command {
        args.engines = engine_occurrences(&matches);
    }
    let result = match cli.command {
        None => {
            let stdin = std::io::stdin();
            protocol::run(stdin.lock(), Output::stdout());
            Ok(())
        }
        Some(Command::Perft {
            variant,
            depth,
            fen,
            moves,
            divide,
            threads,
            options,
        }) => run_perft(
            &variant,
            depth,
            fen.as_deref(),
            &moves,
            divide,
            threads,
            &options,
        ),
        Some(Command::Bench { depth, threads }) => run_bench(depth, threads),
        Some(Command::Render {
            variant,
            fen,
            moves,
            arrows,
            size,
            options,
        }) => run_render(
            &variant,
            fen.as_deref(),
            &moves,
            arrows.as_deref(),
            size,
            &options,
        ),
        Some(Command::Geometry { variant, size }) => run_geometry(&variant, size),
        Some(Command::Gui { port }) => run_gui(port),
        Some(Command::Match(args)) => args.run(),
        Some(Command::Book(args)) => args.run(),
        Some(Command::Datagen(args)) => args.run(),
        Some(Command::Tune(args)) => args.run(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// `triskel gui`: prints the page's address, then serves until killed.
fn run_gui(port: u16) -> Result<(), String> {
    let gui = triskel::gui::Gui::bind(port)?;
    println!("Triskel board: {} (Ctrl-C ends it)", gui.url());
    gui.serve();
    Ok(())
}

/// `triskel render`.
fn run_render(
    variant: &str,
    fen: Option<&str>,
    moves: &[String],
    arrows: Option<&str>,
    size: u32,
    settings: &[String],
) -> Result<(), String> {
    let size = render::check_size(size).map_err(|why| format!("--size: {why}"))?;
    let options = engine_options(variant, None, settings)?;
    let (pos, last_move) =
        render::position_and_last_move(options.variant(), options.after_mate(), fen, moves)?;
    let arrows = render::parse_arrows(&pos, arrows.unwrap_or_default())
        .map_err(|why| format!("--arrows: {why}"))?;
    let marks = render::Marks { last_move, arrows };
    Output::stdout().line(&render::svg(&pos, size, &marks));
    Ok(())
}

/// `triskel geometry`.
fn run_geometry(variant: &str, size: u32) -> Result<(), String> {
    let size = render::check_size(size).map_err(|why| format!("--size: {why}"))?;
    let options = engine_options(variant, None, &[])?;
    Output::stdout().line(&render::json::geometry(options.variant().game(), size));
    Ok(())
}

/// The options of `--variant`, `--threads` and `--option NAME=VALUE`
/// arguments, set in this order.
fn engine_options(
    variant: &str,
    threads: Option<usize>,
    settings: &[String],
) -> Result<Options, String> {
    let mut options = Options::default();
    options
        .set(UCI_VARIANT, Some(variant))
        .map_err(|why| format!("--variant: {why}"))?;
    if let Some(threads) = threads {
        options
            .set(THREADS, Some(&threads.to_string()))
            .map_err(|why| format!("--threads: {why}"))?;
    }
    for setting in settings {
        let (name, value) = setting
            .split_once('=')
            .ok_or_else(|| format!("--option {setting}: expected NAME=VALUE"))?;
        options
            .set(name.trim(), Some(value.trim()))
            .map_err(|why| format!("--option {setting}: {why}"))?;
    }
    Ok(options)
}

/// `triskel perft`.
fn run_perft(
    variant: &str,
    depth: u32,
    fen: Option<&str>,
    moves: &[String],
    divide: bool,
    threads: Option<usize>,
    settings: &[String],
) -> Result<(), String> {
    let options = engine_options(variant, threads, settings)?;
    let pos = build_position(options.variant(), options.after_mate(), fen, moves)?;
    let start = Instant::now();
    let counts = perft::divide(&pos, depth, options.threads());
    let elapsed = start.elapsed();
    let mut lines = perft_lines(&pos, &counts);
    if !divide {
        lines.drain(..=counts.len());
    }
    lines.push(format!(
        "Time: {} ms, nodes/second: {}",
        elapsed.as_millis(),
        per_second(counts.iter().map(|&(_, n)| n).sum(), elapsed)
    ));
    Output::new(BufWriter::new(std::io::stdout())).block(lines);
    Ok(())
}

/// `triskel bench`.
fn run_bench(depth: Option<u32>, threads: usize) -> Result<(), String> {
    let config = BenchConfig { depth, threads };
    let out = Output::stdout();
    let totals = bench::run(&config, &AtomicBool::new(false), &mut |line| out.line(line))?;
    if let Some(totals) = totals {
        out.block(totals.summary_lines());
    }
    Ok(())
}

impl MatchArgs {
    /// The match's settings, or what is wrong with the arguments.
    fn settings(&self) -> Result<MatchSettings, String> {
        let variant = playable_variant(&self.variant)?;
        let mut players = self
            .players
            .iter()
            .map(|spec| PlayerConfig::parse(spec))
            .collect::<Result<Vec<_>, String>>()
            .map_err(|why| format!("--players: {why}"))?;
        if !self.each.is_empty() && self.engines.is_empty() {
            return Err("--each: there is no --engine to apply it to".to_string());
        }
        for words in &self.engines {
            let (name, external) = ExternalConfig::parse(words, &self.each)
                .map_err(|why| format!("--engine {}: {why}", words.join(" ")))?;
            players.push(PlayerConfig {
                name,
                kind: PlayerKind::External(external),
            });
        }
        if players.is_empty() {
            return Err(
                "no configurations: give them with --players and --engine (see --help)".to_string(),
            );
        }
        let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
        for (player, name) in players.iter_mut().zip(unique_names(&names)) {
            player.name = name;
        }
        let count = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        let mut settings = MatchSettings {
            variant,
            players,
            games: self.games,
            time_control: TimeControl::fischer(
                Duration::from_millis(self.time),
                Duration::from_millis(self.inc),
            ),
            seed: self.seed,
            opening_plies: self.opening_plies.map_or(
                DEFAULT_OPENING_PLIES_PER_PLAYER * variant.game().players,
                count,
            ),
            book: None,
            max_plies: count(self.max_plies),
            concurrency: count(self.concurrency),
            adjudication: Adjudication::default(),
            sprt: None,
            recover: !self.no_recover,
            resumed: Vec::new(),
            rating_interval: self.rating_interval,
        };
        if let Some(words) = &self.openings {
            let spec = BookSpec::parse(words).map_err(|why| format!("--openings: {why}"))?;
            let book =
                Book::load(&spec, variant, self.seed).map_err(|why| format!("--openings {why}"))?;
            for skipped in &book.skipped {
                eprintln!("warning: --openings {}: {skipped}", spec.file.display());
            }
            settings.book = Some(book);
        }
        if let Some(words) = &self.sprt {
            let round = settings.round_seatings()?;
            settings.sprt = Some(
                MatchSprt::from_words(words, variant, &round)
                    .map_err(|why| format!("--sprt: {why}"))?,
            );
        }
        settings.adjudication = self.adjudication()?;
        if let Some(moves) = self.maxmoves {
            let plies = count(u64::from(moves)).saturating_mul(variant.game().players);
            settings.max_plies = settings.max_plies.min(plies);
        }
        Ok(settings)
    }

    /// The adjudication of `--draw` and `--resign`.
    fn adjudication(&self) -> Result<Adjudication, String> {
        Ok(Adjudication {
            draw: self
                .draw
                .as_deref()
                .map(DrawRule::from_words)
                .transpose()
                .map_err(|why| format!("--draw: {why}"))?,
            resign: self
                .resign
                .as_deref()
                .map(ResignRule::from_words)
                .transpose()
                .map_err(|why| format!("--resign: {why}"))?,
        })
    }

    /// `triskel match`.
    fn run(self) -> Result<(), String> {
        let settings = self.settings()?;
        let schedule = settings.schedule()?;
        let mut settings = settings;
        if self.resume {
            let path = self.record.as_deref().expect("clap requires --record");
            let records = earlier_records(path, &settings.schedule_line())
                .and_then(|records| settings.resumed_games(&records))
                .map_err(|why| format!("--resume: {}: {why}", path.display()))?;
            settings.resumed = records;
        }
        let settings = settings;
        // Both files go on after the games of an earlier run; a new match
        // notes its schedule in the record file first.
        let first_new = settings.resumed.len() + 1;
        let open = |path: &Option<PathBuf>, flag: &str, header: Option<&str>| {
            path.as_deref()
                .map(|path| {
                    let mut file = InOrderFile::append(path, header)?;
                    if header.is_some() && !self.resume {
                        file.write_now(&format!("{}\n", settings.schedule_line()))?;
                    }
                    Ok(Mutex::new(file.starting_at(first_new)))
                })
                .transpose()
                .map_err(|why: String| format!("{flag} {why}"))
        };
        let record_file = open(&self.record, "--record", Some(HEADER))?;
        let pgn_file = open(&self.pgnout, "--pgnout", None)?;
        // Every player's clock: an engine's own `tc=` over the match's; the
        // record names one time control when they share it.
        let clocks: Vec<TimeControl> = settings
            .players
            .iter()
            .map(|p| p.time_control().unwrap_or(settings.time_control))
            .collect();
        let shared_clock = clocks
            .first()
            .copied()
            .filter(|first| clocks.iter().all(|c| c == first));
        let tags = MatchTags {
            event: format!("triskel match {}", settings.variant),
            site: String::new(),
            date: today(),
            time_control: shared_clock,
        };
        let write_error: Mutex<Option<String>> = Mutex::new(None);
        let out = Output::stdout();
        let names: Vec<&str> = settings.players.iter().map(|p| p.name.as_str()).collect();
        let openings = match &settings.book {
            Some(book) => format!("{} book openings", book.len()),
            None => format!("{} opening plies", settings.opening_plies),
        };
        let clocks_text = match shared_clock {
            Some(clock) => format!("{} s", time_control_tag(&clock)),
            None => names
                .iter()
                .zip(&clocks)
                .map(|(name, clock)| format!("{name} {} s", time_control_tag(clock)))
                .collect::<Vec<_>>()
                .join(", "),
        };
        out.line(&format!(
            "match {}: {}; {} games in {} rounds; {clocks_text}; seed {}; {openings}; {} concurrent",
            settings.variant,
            names.join(" vs "),
            schedule.len(),
            schedule.rounds(),
            settings.seed,
            settings.concurrency
        ));
        if self.resume {
            out.line(&format!(
                "resuming after {} finished games of {}",
                settings.resumed.len(),
                schedule.len()
            ));
        }
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        if settings.concurrency > cores {
            eprintln!(
                "warning: --concurrency {} is above the {cores} logical CPUs: engines on the clock \
                 share cores and play below their strength",
                settings.concurrency
            );
        }
        let last_test: Mutex<Option<(String, Decision)>> = Mutex::new(None);
        let on_game = |finished: &Finished| {
            let r = finished.record;
            out.line(&progress_line(r, finished.done, finished.total));
            if let Some((line, decision)) = finished.sprt {
                // With live standings the SPRT's line comes in their blocks.
                if settings.rating_interval == 0 {
                    out.line(line);
                }
                *last_test.lock().unwrap_or_else(|e| e.into_inner()) =
                    Some((line.to_string(), decision));
            }
            out.block(finished.live);
            if let Some(illegal) = finished.illegal {
                eprintln!("warning: game {}: forfeit: {illegal}", r.id);
            }
            if !settings.recover && matches!(r.end, GameEnd::Disconnect(_) | GameEnd::Stall(_)) {
                eprintln!(
                    "--no-recover: the match ends after game {}, whose engine was lost",
                    r.id
                );
            }
            let failed = |why: String| {
                let mut slot = write_error.lock().unwrap_or_else(|e| e.into_inner());
                slot.get_or_insert(why);
            };
            if let Some(file) = &record_file {
                let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
                if let Err(why) = file.add(r.id, format!("{}\n", r.line())) {
                    failed(format!("--record {why}"));
                }
            }
            if let Some(file) = &pgn_file {
                let written = PgnGame::from_record(r, &tags).and_then(|game| {
                    let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
                    file.add(r.id, game.write())
                });
                if let Err(why) = written {
                    failed(format!("--pgnout {why}"));
                }
            }
        };
        // Ctrl-C or SIGTERM: no new game starts, the games in flight are
        // abandoned and their engines ended, and the table of the finished
        // games is printed; a second signal ends the program at once.
        let handler = ctrlc::set_handler(|| {
            if interrupted() {
                std::process::exit(INTERRUPTED_EXIT);
            }
            interrupt();
        });
        if let Err(why) = handler {
            eprintln!("warning: Ctrl-C will not print the table: {why}");
        }
        let table = run_match(&settings, &on_game)?;
        out.line("");
        out.block(table.lines());
        let pairwise = table.pairwise_lines();
        if !pairwise.is_empty() {
            out.line("");
            out.block(pairwise);
        }
        if interrupted() {
            eprintln!(
                "interrupted: {} of {} games finished",
                table.games,
                schedule.len()
            );
        }
        if settings.sprt.is_some() {
            let last = last_test.into_inner().unwrap_or_else(|e| e.into_inner());
            out.line(&match last {
                Some((line, Decision::AcceptH1)) => format!("{line}\nsprt: H1 accepted"),
                Some((line, Decision::AcceptH0)) => format!("{line}\nsprt: H0 accepted"),
                Some((line, Decision::Continue)) => {
                    format!("{line}\nsprt: undecided after the scheduled games")
                }
                None => "sprt: no round completed".to_string(),
            });
        }
        match write_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
            Some(why) => Err(why),
            None if interrupted() => std::process::exit(INTERRUPTED_EXIT),
            None => Ok(()),
        }
    }
}

/// The records of the last match in the record file at `path` whose
/// schedule line is `schedule` (the records after that line).
fn earlier_records(path: &std::path::Path, schedule: &str) -> Result<Vec<Record>, String> {
    let text = std::fs::read(path).map_err(|why| why.to_string())?;
    let text = String::from_utf8_lossy(&text);
    let lines: Vec<&str> = text.lines().collect();
    let Some(start) = lines.iter().rposition(|l| l.starts_with(MATCH_NOTE)) else {
        return Err("no match was started in this file".to_string());
    };
    if lines[start] != schedule {
        return Err(format!(
            "its last match is another one:\n  {}\nnot this one:\n  {schedule}",
            lines[start]
        ));
    }
    lines[start + 1..]
        .iter()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| Record::parse(l).map_err(|why| format!("line {}: {why}", start + i + 2)))
        .collect()
}

/// The line printed when a game ends, e.g.
/// `game 3/12 (round 2) w:engine b:random: checkmate, w 1 b 0, 57 plies`.
fn progress_line(r: &Record, done: usize, total: usize) -> String {
    let seats: Vec<String> = r
        .seats
        .iter()
        .map(|(letter, name)| format!("{letter}:{name}"))
        .collect();
    let points: Vec<String> = r
        .seats
        .iter()
        .zip(&r.points)
        .map(|((letter, _), &p)| format!("{letter} {}", format_points(p)))
        .collect();
    format!(
        "game {}/{total} [{done} done] (round {}) {}: {}, {}, {} plies",
        r.id,
        r.round,
        seats.join(" "),
        triskel::tournament::record::end_text(r.end, r.variant),
        points.join(" "),
        r.moves.len()
    )
}
