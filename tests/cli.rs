//! The command line: `triskel perft`, `triskel bench`, `triskel datagen`, `triskel tune`, their errors, and the
//! profile build script's error without `llvm-profdata`.

#[path = "data/command.rs"]
mod command;

use command::{FAILURE, USAGE_ERROR, stderr, stdout, triskel};
use std::io::Write;
use std::process::{Command, Output, Stdio};
use triskel::bench::bench_entries;
use triskel::datagen::Sample;
use triskel::search::weights::EvalWeights;
use triskel::variants::Variant;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn nodes(output: &Output) -> u64 {
    stdout(output)
        .lines()
        .find_map(|l| l.strip_prefix("Nodes searched: "))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no node count in {}", stdout(output)))
}

#[test]
fn perft_prints_nodes_and_speed() {
    let out = triskel(&["perft", "--depth", "3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert_eq!(lines[0], "Nodes searched: 8902");
    assert!(
        lines[1].starts_with("Time: ") && lines[1].contains("nodes/second: "),
        "{text}"
    );
}

#[test]
fn perft_divide_uses_the_protocol_format() {
    let out = triskel(&[
        "perft",
        "--variant",
        "chess",
        "--depth",
        "2",
        "--divide",
        "--threads",
        "2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 20 + 3, "{text}");
    assert!(lines[..20].iter().all(|l| l.ends_with(": 20")), "{text}");
    assert_eq!(lines[20], "");
    assert_eq!(lines[21], "Nodes searched: 400");
}

#[test]
fn perft_from_a_position_and_moves() {
    assert_eq!(
        nodes(&triskel(&["perft", "--fen", KIWIPETE, "--depth", "2"])),
        2039
    );
    assert_eq!(
        nodes(&triskel(&[
            "perft", "--moves", "e2e4", "e7e5", "--depth", "1"
        ])),
        29
    );
    assert_eq!(
        nodes(&triskel(&[
            "perft",
            "--depth",
            "1",
            "--option",
            "AfterMate=inherit",
            "--option",
            "Hash=32"
        ])),
        20
    );
}

#[test]
fn perft_errors_are_clear_and_fail() {
    for (args, code, mentions) in [
        (
            &["perft", "--variant", "no-such-game", "--depth", "2"][..],
            FAILURE,
            "no-such-game",
        ),
        (&["perft", "--depth", "0"], USAGE_ERROR, "0"),
        (&["perft", "--depth", "-1"], USAGE_ERROR, "-1"),
        (&["perft", "--depth", "abc"], USAGE_ERROR, "abc"),
        (
            &["perft", "--depth", "99999999999"],
            USAGE_ERROR,
            "99999999999",
        ),
        (&["perft"], USAGE_ERROR, "--depth"),
        (
            &["perft", "--depth", "2", "--fen", "not a position"],
            FAILURE,
            "invalid",
        ),
        (
            &["perft", "--depth", "2", "--moves", "e2e4", "e2e4"],
            FAILURE,
            "e2e4",
        ),
        (
            &["perft", "--depth", "2", "--moves", "e2e5"],
            FAILURE,
            "e2e5",
        ),
        (
            &["perft", "--depth", "2", "--threads", "0"],
            USAGE_ERROR,
            "--threads",
        ),
        (
            &["perft", "--depth", "2", "--threads", "100000"],
            USAGE_ERROR,
            "--threads",
        ),
        (
            &["perft", "--depth", "2", "--option", "AfterMate=sometimes"],
            FAILURE,
            "sometimes",
        ),
        (
            &["perft", "--depth", "2", "--option", "Nonsense=1"],
            FAILURE,
            "Nonsense",
        ),
        (
            &["perft", "--depth", "2", "--option", "AfterMate"],
            FAILURE,
            "NAME=VALUE",
        ),
        (&["fly"], USAGE_ERROR, "fly"),
    ] {
        let out = triskel(args);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {}", stderr(&out));
        let message = stderr(&out);
        assert!(
            message.contains("error") && message.contains(mentions),
            "{args:?}: {message}"
        );
        assert!(!message.contains("panicked"), "{args:?}: {message}");
    }
}

#[test]
fn bench_prints_each_entry_and_totals() {
    let out = triskel(&["bench", "--depth", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let total: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("Total nodes: "))
        .and_then(|n| n.parse().ok())
        .expect("total");
    let entries: u64 = text
        .lines()
        .filter(|l| l.contains(" depth "))
        .map(|l| {
            let count = l
                .split(": ")
                .nth(1)
                .and_then(|rest| rest.split(" nodes").next());
            count
                .and_then(|n| n.parse::<u64>().ok())
                .unwrap_or_else(|| panic!("entry line {l}"))
        })
        .sum();
    assert_eq!(total, entries, "{text}");
    assert_eq!(
        text.lines().filter(|l| l.contains(" depth ")).count(),
        bench_entries().len()
    );
    assert!(
        text.lines().any(|l| l.starts_with("Nodes/second: ")),
        "{text}"
    );
    let out = triskel(&["bench", "--depth", "0"]);
    assert_eq!(out.status.code(), Some(USAGE_ERROR));
    let out = triskel(&["bench", "--depth", "1", "--threads", "0"]);
    assert_eq!(out.status.code(), Some(USAGE_ERROR), "{}", stderr(&out));
}

#[test]
fn no_subcommand_speaks_the_protocol() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_triskel"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the engine runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"isready\nquit\n")
        .expect("write");
    let out = child.wait_with_output().expect("exit");
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("Triskel "), "{text}");
    assert_eq!(lines[1..], ["readyok"]);
}

#[test]
fn version_is_printed() {
    let out = triskel(&["--version"]);
    assert!(out.status.success());
    assert!(stdout(&out).contains(env!("CARGO_PKG_VERSION")));
}

#[test]
fn profile_build_without_llvm_profdata_says_so_before_building() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/profile-build");
    let out = Command::new("bash")
        .arg(script)
        .env("LLVM_PROFDATA", "/nonexistent/llvm-profdata")
        .output()
        .expect("bash runs");
    assert!(!out.status.success());
    let text = stderr(&out);
    assert!(
        text.contains("llvm-profdata not found at /nonexistent/llvm-profdata")
            && text.contains("rustup component add llvm-tools")
            && !text.contains("1/4"),
        "{text}"
    );
}

#[test]
fn datagen_writes_scored_quiet_positions_of_self_play_games() {
    let out = triskel(&[
        "datagen",
        "--variant",
        "trichess",
        "--games",
        "3",
        "--nodes",
        "300",
        "--threads",
        "2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some(
            "# triskel datagen --variant trichess --games 3 --nodes 300 --seed 0 --random-moves 1 --openings openings/trichess.tfen"
        )
    );
    let samples: Vec<Sample> = lines
        .map(|l| Sample::parse(l, Variant::Trichess).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    assert!(samples.len() > 10, "{text}");
    for sample in &samples {
        let game = Variant::Trichess.game();
        let letters: Vec<char> = sample.scores.iter().map(|&(l, _)| l).collect();
        assert_eq!(
            letters,
            game.letters[..game.players],
            "every player's score, in turn order"
        );
    }
    assert!(stderr(&out).contains("3/3 games"), "{}", stderr(&out));
    let one_thread = triskel(&[
        "datagen",
        "--variant",
        "trichess",
        "--games",
        "3",
        "--nodes",
        "300",
        "--threads",
        "1",
    ]);
    assert_eq!(
        stdout(&one_thread),
        text,
        "the same data on any number of threads"
    );
}

#[test]
fn datagen_errors_are_clear_and_fail() {
    for (args, code, mentions) in [
        (&["datagen", "--games", "0"][..], USAGE_ERROR, "0"),
        (&["datagen", "--nodes", "lots"], USAGE_ERROR, "lots"),
        (&["datagen", "--random-moves", "51"], USAGE_ERROR, "51"),
        (&["datagen", "--variant", "go"], FAILURE, "go"),
        (
            &["datagen", "--openings", "/no/such/book.tfen"],
            FAILURE,
            "/no/such/book.tfen",
        ),
    ] {
        let out = triskel(args);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(mentions),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

/// A data file of `triskel datagen` for `variant` in the test's temporary directory.
fn datagen_file(variant: &str, name: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("triskel-{}-{name}.data", std::process::id()));
    let out = triskel(&[
        "datagen",
        "--variant",
        variant,
        "--games",
        "4",
        "--nodes",
        "300",
        "--output",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    path
}

#[test]
fn tune_writes_weights_fitted_to_the_data() {
    for variant in ["chess", "dreierschach"] {
        let data = datagen_file(variant, "tune");
        let holdout = datagen_file(variant, "holdout");
        let out = triskel(&[
            "tune",
            "--variant",
            variant,
            "--data",
            data.to_str().unwrap(),
            "--holdout",
            holdout.to_str().unwrap(),
            "--epochs",
            "50",
        ]);
        std::fs::remove_file(&data).ok();
        std::fs::remove_file(&holdout).ok();
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        let mut lines = text.lines();
        let data_command = lines.next().unwrap_or("");
        assert!(
            data_command.starts_with(&format!("# triskel datagen --variant {variant} --games 4"))
                && data_command.ends_with(&format!("> {}", data.display())),
            "the command that made the data: {text}"
        );
        let holdout_command = lines.next().unwrap_or("");
        assert!(
            holdout_command.ends_with(&format!("> {}", holdout.display())),
            "the command that made the held-out data: {text}"
        );
        let command = lines.next().unwrap_or("");
        assert!(
            command.starts_with(&format!("# triskel tune --variant {variant} --data "))
                && command.contains(&format!(" --holdout {}", holdout.display()))
                && command.ends_with("--lambda 1 --epochs 50 --rate 1 --prior 0"),
            "{text}"
        );
        let summary = lines.next().unwrap_or("");
        assert!(
            summary.contains(" positions; K ") && summary.contains(" fitted"),
            "{text}"
        );
        let held_out = lines.next().unwrap_or("");
        assert!(
            held_out.starts_with("# held out: ") && held_out.ends_with(" fitted"),
            "{text}"
        );
        let v = Variant::from_id(variant).unwrap();
        let start = EvalWeights::of(v);
        let fitted = start
            .read(&text)
            .unwrap_or_else(|why| panic!("{why}: {text}"));
        let written: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert!(
            written.len() > EvalWeights::COUNT && written.len() <= start.len(),
            "every term's weight, and the piece-square values fifty steps moved: {text}"
        );
        for (name, _) in &start.named()[..EvalWeights::COUNT] {
            assert!(
                written.iter().any(|l| l.split(' ').next() == Some(name)),
                "{name}: {text}"
            );
        }
        assert_ne!(fitted, start, "fifty steps move the weights: {text}");
        assert!(stderr(&out).contains("epoch 50/50"), "{}", stderr(&out));
    }
}

#[test]
fn tune_errors_are_clear_and_fail() {
    let bad = std::env::temp_dir().join(format!("triskel-{}-bad.data", std::process::id()));
    std::fs::write(&bad, "# a comment\nnot a position;w1 b-1;1 0\n").unwrap();
    let empty = std::env::temp_dir().join(format!("triskel-{}-empty.data", std::process::id()));
    std::fs::write(&empty, "# nothing\n").unwrap();
    let (bad_path, empty_path) = (bad.to_str().unwrap(), empty.to_str().unwrap());
    for (args, code, mentions) in [
        (&["tune"][..], USAGE_ERROR, "--data"),
        (
            &["tune", "--data", "/no/such.data"],
            FAILURE,
            "/no/such.data",
        ),
        (&["tune", "--data", bad_path], FAILURE, "line 2"),
        (
            &["tune", "--data", empty_path, bad_path],
            FAILURE,
            "bad.data: line 2",
        ),
        (&["tune", "--data", empty_path], FAILURE, "no positions"),
        (
            &["tune", "--data", bad_path, "--epochs", "0"],
            USAGE_ERROR,
            "0",
        ),
        (
            &["tune", "--data", bad_path, "--rate", "-1"],
            USAGE_ERROR,
            "-1",
        ),
        (
            &["tune", "--data", bad_path, "--rate", "NaN"],
            USAGE_ERROR,
            "NaN",
        ),
        (
            &["tune", "--data", bad_path, "--lambda", "2"],
            USAGE_ERROR,
            "2",
        ),
        (
            &["tune", "--data", bad_path, "--prior=-0.5"],
            USAGE_ERROR,
            "-0.5",
        ),
        (
            &["tune", "--data", bad_path, "--prior", "inf"],
            USAGE_ERROR,
            "inf",
        ),
        (
            &["tune", "--data", bad_path, "--only", "material,nothing"],
            FAILURE,
            "--only 'nothing'",
        ),
        (
            &["tune", "--data", empty_path, "--holdout", bad_path],
            FAILURE,
            "--holdout",
        ),
        (
            &["tune", "--variant", "go", "--data", bad_path],
            FAILURE,
            "go",
        ),
    ] {
        let out = triskel(args);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(mentions),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    std::fs::remove_file(&bad).ok();
    std::fs::remove_file(&empty).ok();
}
