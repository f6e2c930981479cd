//! Bad input through the protocol and the command line: every malformed or
//! impossible input must get one clear `info string error: ...` line that
//! names the problem, the engine must keep serving (`isready` -> `readyok`),
//! a refused `position` must leave the engine without a position until the
//! next valid one, and any other refused command the position in place.
//! The checks look for keywords of the message, not its exact wording.

#[path = "data/engine.rs"]
mod engine;

use engine::{Engine, is_error};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Start positions (protocol.md section 9.9); the bad positions below are
/// these with one thing broken.
const CHESS: &str =
    "bRbNbBbQbKbBbNbR/bPbPbPbPbPbPbPbP/8/8/8/8/wPwPwPwPwPwPwPwP/wRwNwBwQwKwBwNwR w wKQbKQ - 0 1";
const DREIERSCHACH: &str = "nRnP2bPbR/nBnP3bPbN/nNnP4bPbB/nKnP5bPbQ/nQnP6bPbK/nBnP7bPbN/nNnP8bPbB/nRnP9bPbR/nP10bP/11/10/wPwPwPwPwPwPwPwPwP/wRwBwNwKwQwBwNwR w wKQnKQbKQ - 0 1";
const HEXENSCHACH: &str = "wKwBwRwP1/wNwQwBwP1bP/wRwNwPwP1bPbR/wPwPwP2bPbNbN/6bPbQbK/rPrPrP2bPbBbB/rRrBrPrP1bPbR/rBrQrNrP1bP/rKrNrRrP1 r rKQwKQbKQ - 0 1";
const PYRAMID: &str = "bRbNbBbQbKbBbNbR/bPbPbPbPbPbPbPbP/8/8/8/8/wPwPwPwPwPwPwPwP/wRwNwBwQwKwBwNwR/6/6/6/6/6/6/4/4/4/4/2/2 w wKQbKQ - 0 1";
const TRICHESS: &str = "8/8/wPwPwPwPwPwPwPwP/wRwNwBwQwKwBwNwR/8/8/rPrPrPrPrPrPrPrP/rRrNrBrQrKrBrNrR/8/8/bPbPbPbPbPbPbPbP/bRbNbBbQbKbBbNbR w wKQrKQbKQ - 0 1";
const STAR: &str = "8/8/bPbPbPbPbPbPbPbP/bRbNbBbQbKbBbNbR/8/8/gPgPgPgPgPgPgPgP/gRgNgBgQgKgBgNgR/8/8/rPrPrPrPrPrPrPrP/rRrNrBrQrKrBrNrR b bKQgKQrKQ - 0 1";

/// Each game with its start position and a legal first move, played before
/// the bad input so that "the previous position" is not the start position.
const GAMES: [(&str, &str, &str); 7] = [
    ("chess", CHESS, "e2e4"),
    ("dreierschach", DREIERSCHACH, "e2e4"),
    ("hexenschach", HEXENSCHACH, "d3e4"),
    ("pyramid", PYRAMID, "1e21e4"),
    ("pyramid-ep", PYRAMID, "1e21e4"),
    ("trichess", TRICHESS, "e2e4"),
    ("star", STAR, "bb5bd5"),
];

/// A text replacement: (the text, what replaces it).
type Edit = (&'static str, &'static str);

/// A game, its start position and two edits that break it.
type TwoEdits = (&'static str, &'static str, Edit, Edit);

/// `text` with the first `from` replaced by `to`; panics if `from` is absent,
/// so a typo in a test cannot silently leave the position intact.
fn broken(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from:?} not in {text}");
    text.replacen(from, to, 1)
}

/// An engine playing `game`, in the position after its first move.
fn engine_in(game: &str) -> Engine {
    let (_, _, first) = GAMES
        .iter()
        .find(|(g, _, _)| *g == game)
        .unwrap_or_else(|| panic!("unknown game {game}"));
    let mut e = Engine::start();
    for command in [
        format!("setoption name UCI_Variant value {game}"),
        format!("position startpos moves {first}"),
    ] {
        let lines = e.command(&command);
        assert!(lines.is_empty(), "{command}: {lines:?}");
    }
    e
}

/// Sends `command` and checks: exactly one line comes before `readyok`, an
/// error line containing every keyword (in any case); the position is the
/// one before.
fn refused(e: &mut Engine, command: &str, keywords: &[&str]) {
    let before = e.show("Position");
    let lines = e.command(command);
    let shown: String = command.chars().take(120).collect();
    println!(
        "{shown}\n    {}",
        lines.join("\n    ").chars().take(400).collect::<String>()
    );
    assert_eq!(
        lines.len(),
        1,
        "{shown}: expected one error line, got {lines:?}"
    );
    let line = &lines[0];
    assert!(is_error(line), "{shown}: not an error line: {line}");
    let lower = line.to_lowercase();
    for keyword in keywords {
        assert!(
            lower.contains(&keyword.to_lowercase()),
            "{shown}: the error does not mention {keyword:?}: {line}"
        );
    }
    if command.starts_with("position") {
        no_position_until_a_valid_one(e, &shown);
        e.command(&format!("position fen {before}"));
    }
    assert_eq!(e.show("Position"), before, "{shown}: the position changed");
}

/// After a refused `position`, the engine has no position: `go` answers
/// an error and `bestmove 0000` at once (never a move of another
/// position), `d` and `eval` an error.
fn no_position_until_a_valid_one(e: &mut Engine, shown: &str) {
    e.send("go depth 5");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    assert_eq!(lines.len(), 2, "{shown}: {lines:?}");
    assert!(
        is_error(&lines[0]) && lines[0].contains("no position"),
        "{shown}: {lines:?}"
    );
    assert_eq!(lines[1], "bestmove 0000", "{shown}: {lines:?}");
    for command in ["d", "eval", "go perft 1"] {
        let lines = e.command(command);
        assert!(
            lines.len() == 1 && is_error(&lines[0]) && lines[0].contains("no position"),
            "{shown}, then {command}: {lines:?}"
        );
    }
}

/// `refused` for a `position fen <position>` command.
fn position_refused(e: &mut Engine, position: &str, keywords: &[&str]) {
    refused(e, &format!("position fen {position}"), keywords);
}

/// A board cell too many, a row too few, an unknown army letter and an
/// unknown piece letter, in every game's position format.
#[test]
fn malformed_boards_are_refused() {
    let cases: [TwoEdits; 7] = [
        // game, position, (a row made one cell too long), (a row removed)
        (
            "chess",
            CHESS,
            ("/8/8/8/8/w", "/9/8/8/8/w"),
            ("/8/8/8/8/w", "/8/8/8/w"),
        ),
        (
            "dreierschach",
            DREIERSCHACH,
            ("/11/10/", "/12/10/"),
            ("/11/10/", "/11/"),
        ),
        (
            "hexenschach",
            HEXENSCHACH,
            ("/6bPbQbK/", "/7bPbQbK/"),
            ("/6bPbQbK/", "/"),
        ),
        (
            "pyramid",
            PYRAMID,
            ("/6/6/6/6/6/6/", "/7/6/6/6/6/6/"),
            ("/4/4/2/2", "/4/4/2"),
        ),
        (
            "trichess",
            TRICHESS,
            ("8/8/wP", "9/8/wP"),
            ("8/8/wP", "8/wP"),
        ),
        ("star", STAR, ("8/8/bP", "8/8bR/bP"), ("8/8/bP", "8/bP")),
        (
            "pyramid-ep",
            PYRAMID,
            ("/4/4/4/4/", "/5/4/4/4/"),
            ("/6/6/6/6/6/6/", "/6/6/6/6/6/"),
        ),
    ];
    for (game, start, too_long, row_missing) in cases {
        let mut e = engine_in(game);
        position_refused(&mut e, &broken(start, too_long.0, too_long.1), &["row"]);
        position_refused(
            &mut e,
            &broken(start, row_missing.0, row_missing.1),
            &["rows"],
        );
        // The first army letter of the position replaced by `x`, then the
        // first piece letter by `X`.
        let army = start.chars().find(char::is_ascii_lowercase).unwrap();
        let token = start
            .split(|c: char| !c.is_ascii_alphabetic())
            .find(|t| t.len() >= 2)
            .unwrap();
        let piece = &token[..2];
        position_refused(
            &mut e,
            &broken(start, piece, &format!("x{}", &piece[1..])),
            &["'x'", "army"],
        );
        position_refused(
            &mut e,
            &broken(start, piece, &format!("{army}X")),
            &["'X'", "piece"],
        );
        // Numbers with a sign: the clock and the round.
        position_refused(
            &mut e,
            &broken(start, " - 0 1", " - +0 1"),
            &["clock", "+0"],
        );
        position_refused(&mut e, &broken(start, " - 0 1", " - 0 +1"), &["+1"]);
        assert!(e.sync().is_empty(), "{game}: still serving");
    }
}

/// Standard FEN (chess only) with a broken board.
#[test]
fn malformed_standard_fen_is_refused() {
    let mut e = engine_in("chess");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    position_refused(&mut e, &broken(start, "/8/8/8/8/", "/8/8/8/"), &["rows"]);
    position_refused(&mut e, &broken(start, " w ", " x "), &["to move"]);
    position_refused(&mut e, &broken(start, "KQkq", "KQkqX"), &["castling"]);
    position_refused(
        &mut e,
        &broken(start, " - 0", " e9 0"),
        &["en passant", "e9"],
    );
    position_refused(&mut e, &broken(start, " 0 1", " -1 1"), &["clock", "-1"]);
    position_refused(&mut e, &broken(start, " 0 1", " +0 1"), &["clock", "+0"]);
    position_refused(&mut e, &broken(start, " 0 1", " 0 +1"), &["move", "+1"]);
    position_refused(&mut e, &format!("{start} extra"), &["fields"]);
    // A row of nine cells or an unknown piece letter are refused too (their
    // message is checked only for the word "position": see the report on
    // standard FEN falling back to the position format).
    position_refused(
        &mut e,
        &broken(start, "/8/8/8/8/", "/9/8/8/8/"),
        &["position"],
    );
    position_refused(
        &mut e,
        &broken(start, "RNBQKBNR", "RNBQKBNX"),
        &["position"],
    );
}

/// A piece of an eliminated player and an eliminated player's army without
/// a controller (Hexenschach, Trichess `out=` / `armies=`).
#[test]
fn pieces_of_eliminated_players_are_refused() {
    // Hexenschach, phase B: White is out, its army is controlled by Red.
    let mut e = engine_in("hexenschach");
    let phase_b = "5/wQ5/wR6/6bK1/4rQ4/1rP5bP/7/5bQ/rK4 r - - 0 1 out=w armies=wr";
    assert!(e.command(&format!("position fen {phase_b}")).is_empty());
    position_refused(&mut e, &broken(phase_b, "wR6", "wR1wK4"), &["out", "king"]);
    position_refused(&mut e, &broken(phase_b, " armies=wr", ""), &["armies"]);
    position_refused(
        &mut e,
        &broken(phase_b, "armies=wr", "armies=wx"),
        &["armies", "'x'"],
    );
    position_refused(
        &mut e,
        &broken(phase_b, " r - -", " w - -"),
        &["to move", "out"],
    );
    position_refused(&mut e, &format!("{HEXENSCHACH} out=q"), &["out", "'q'"]);
    // Trichess with AfterMate=inherit: Black is out, White holds its pawn.
    let mut e = engine_in("trichess");
    let inherited = "8/8/8/4wK3/8/8/8/4rK3/8/8/bP7/8 w - - 0 1 out=b armies=bw";
    assert!(e.command(&format!("position fen {inherited}")).is_empty());
    position_refused(
        &mut e,
        &broken(inherited, "bP7/8", "bP7/4bK3"),
        &["out", "king"],
    );
    position_refused(&mut e, &broken(inherited, " armies=bw", ""), &["armies"]);
    position_refused(&mut e, &format!("{TRICHESS} out=b"), &["armies"]);
    position_refused(
        &mut e,
        &broken(inherited, " out=b", ""),
        &["armies", "still in the game"],
    );
}

/// Two kings for one army and a missing king, in every game.
#[test]
fn one_king_per_army() {
    let cases: [TwoEdits; 7] = [
        // game, position, (a second king), (the king removed)
        ("chess", CHESS, ("wQwK", "wKwK"), ("bK", "1")),
        (
            "dreierschach",
            DREIERSCHACH,
            ("wKwQ", "wKwK"),
            ("nKnP5", "1nP5"),
        ),
        (
            "hexenschach",
            HEXENSCHACH,
            ("rKrN", "rKrK"),
            ("wKwB", "1wB"),
        ),
        ("pyramid", PYRAMID, ("wQwK", "wKwK"), ("bK", "1")),
        ("pyramid-ep", PYRAMID, ("/2/2", "/bK1/2"), ("wK", "1")),
        ("trichess", TRICHESS, ("rQrK", "rKrK"), ("bK", "1")),
        ("star", STAR, ("gQgK", "gKgK"), ("rK", "1")),
    ];
    for (game, start, two, none) in cases {
        let mut e = engine_in(game);
        position_refused(&mut e, &broken(start, two.0, two.1), &["king"]);
        position_refused(&mut e, &broken(start, none.0, none.1), &["king"]);
    }
}

/// A pawn on its own baseline (back rank) is refused where pawns have one.
#[test]
fn pawns_on_their_own_baseline_are_refused() {
    let cases = [
        // game, position, (a back-rank piece replaced by a pawn), its cell
        (
            "chess",
            CHESS,
            ("wRwNwBwQwKwBwNwR w wKQ", "wRwNwBwQwKwBwNwP w wQ"),
            "h1",
        ),
        ("chess", CHESS, ("bRbNbB", "bRbPbB"), "b8"),
        ("dreierschach", DREIERSCHACH, ("wRwBwN", "wRwPwN"), "b1"),
        ("dreierschach", DREIERSCHACH, ("nBnP3", "nPnP3"), "g12"),
        ("dreierschach", DREIERSCHACH, ("bPbN/", "bPbP/"), "m12"),
        ("pyramid", PYRAMID, ("wRwNwBwQ", "wRwPwBwQ"), "1b1"),
        ("trichess", TRICHESS, ("rRrNrB", "rRrNrP"), "f12"),
        ("trichess", TRICHESS, ("bRbNbB", "bRbNbP"), "j8"),
        ("star", STAR, ("gRgNgB", "gRgPgB"), "ga2"),
    ];
    for (game, start, (from, to), cell) in cases {
        let mut e = engine_in(game);
        position_refused(
            &mut e,
            &broken(start, from, to),
            &["pawn", "baseline", cell],
        );
    }
}

/// A castling right whose king or rook is not at home, and an en-passant
/// entry without the pawn that made the two-step.
#[test]
fn castling_and_en_passant_rights_need_their_pieces() {
    let cases = [
        // game, position, (broken), keywords
        (
            "chess",
            CHESS,
            ("wRwNwBwQwKwBwNwR", "1wNwBwQwKwBwNwR"),
            ["castling", "wQ"],
        ),
        (
            "chess",
            CHESS,
            ("wKwBwNwR w", "wBwKwNwR w"),
            ["castling", "e1"],
        ),
        (
            "chess",
            CHESS,
            (" - 0 1", " we3e4 0 1"),
            ["en passant", "we3e4"],
        ),
        (
            "dreierschach",
            DREIERSCHACH,
            ("nKnP5", "1nP4nK"),
            ["castling", "nK"],
        ),
        (
            "dreierschach",
            DREIERSCHACH,
            (" - 0 1", " nf9g9 0 1"),
            ["en passant", "nf9g9"],
        ),
        (
            "hexenschach",
            HEXENSCHACH,
            ("rKrNrR", "rKrN1"),
            ["castling", "rK"],
        ),
        (
            "hexenschach",
            HEXENSCHACH,
            (" - 0 1", " rd3d4 0 1"),
            ["en passant", "no en passant"],
        ),
        (
            "pyramid",
            PYRAMID,
            ("wBwNwR/6", "wBwN1/6"),
            ["castling", "wK"],
        ),
        (
            "pyramid-ep",
            PYRAMID,
            (" - 0 1", " w1e31e4 0 1"),
            ["en passant", "w1e31e4"],
        ),
        (
            "trichess",
            TRICHESS,
            ("bRbNbBbQbKbBbNbR", "bRbNbBbQbKbBbN1"),
            ["castling", "bK"],
        ),
        (
            "trichess",
            TRICHESS,
            (" - 0 1", " rf10f9 0 1"),
            ["en passant", "rf10f9"],
        ),
        (
            "star",
            STAR,
            ("rRrNrBrQrKrBrNrR", "1rNrBrQrKrBrNrR"),
            ["castling", "rQ"],
        ),
        (
            "star",
            STAR,
            (" - 0 1", " ggc4gd4 0 1"),
            ["en passant", "ggc4gd4"],
        ),
    ];
    for (game, start, (from, to), keywords) in cases {
        let mut e = engine_in(game);
        position_refused(&mut e, &broken(start, from, to), &keywords);
    }
}

/// Cells that do not exist: Schachpyramide's `3a1` (on no level: level 3 has
/// files c-f) in a move and in a position, and cell names of another game.
#[test]
fn cells_that_do_not_exist_are_refused() {
    for game in ["pyramid", "pyramid-ep"] {
        let mut e = engine_in(game);
        refused(&mut e, "position startpos moves 3a13a2", &["3a13a2"]);
        refused(
            &mut e,
            "position startpos moves 1e21e4 3a11a5",
            &["move 2", "3a11a5"],
        );
        refused(
            &mut e,
            &format!("position fen {PYRAMID} moves 1a23a1"),
            &["1a23a1"],
        );
        refused(&mut e, "go searchmoves 3a13a2", &["3a13a2"]);
    }
    // In a position: the en-passant field names cells.
    let mut e = engine_in("pyramid-ep");
    let after_1e4 = "bRbNbBbQbKbBbNbR/bPbPbPbPbPbPbPbP/8/8/4wP3/8/wPwPwPwP1wPwPwP/wRwNwBwQwKwBwNwR/6/6/6/6/6/6/4/4/4/4/2/2 b wKQbKQ - 0 1";
    assert!(
        e.command(&format!(
            "position fen {}",
            broken(after_1e4, " - 0 1", " w1e31e4 0 1")
        ))
        .is_empty(),
        "the en-passant entry of 1e2-1e4 is accepted"
    );
    position_refused(
        &mut e,
        &broken(after_1e4, " - 0 1", " w3a11e4 0 1"),
        &["en passant", "3a1"],
    );
    position_refused(
        &mut e,
        &broken(after_1e4, " - 0 1", " w1e33a1 0 1"),
        &["en passant", "3a1"],
    );
    // Cell names of other games.
    for (game, mv) in [
        ("chess", "1e21e4"),
        ("chess", "ba5bc5"),
        ("dreierschach", "1e21e4"),
        ("hexenschach", "l12l11"),
        ("pyramid", "e2e4"),
        ("trichess", "ba5bc5"),
        ("star", "e2e4"),
        ("dreierschach", "l4l3"),
        ("hexenschach", "h3h4"),
    ] {
        let mut e = engine_in(game);
        refused(
            &mut e,
            &format!("position startpos moves {mv}"),
            &["malformed", mv],
        );
    }
}

/// Moves that look legal but are not, moves of the wrong player, a move onto
/// a king in Dreierschach, and moves after the end of the game.
#[test]
fn illegal_moves_are_refused() {
    let cases = [
        // game, position ("startpos" or a position), moves, keywords
        (
            "chess",
            "startpos",
            "e2e5",
            vec!["move 1", "e2e5", "illegal"],
        ),
        ("chess", "startpos", "e7e5", vec!["e7e5", "to move"]),
        (
            "chess",
            "startpos",
            "e2e4 e7e5 e1e3",
            vec!["move 3", "e1e3", "illegal"],
        ),
        // The bishop on e2 is pinned against its king by the rook on e7.
        (
            "chess",
            "fen 4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1",
            "e2d3",
            vec!["e2d3", "illegal"],
        ),
        // Fool's mate, then one move too many.
        (
            "chess",
            "startpos",
            "f2f3 e7e5 g2g4 d8h4 a2a3",
            vec!["move 5", "end of the game"],
        ),
        ("dreierschach", "startpos", "a5a4", vec!["a5a4", "to move"]),
        ("dreierschach", "startpos", "e2e5", vec!["e2e5", "illegal"]),
        // The White rook on a1 attacks Brown's king on a6: a king is never captured.
        (
            "dreierschach",
            "fen 6/7/8/9/9bK/9bP1/12/nK12/12/11/10/9/wR2wK4 w - - 0 1",
            "a1a6",
            vec!["a1a6", "illegal"],
        ),
        // The Rabe steps only straight; a toad never moves two cells.
        (
            "hexenschach",
            "fen 5/wQ5/wR1wK4/6bK1/4rQ4/1rP5bP/7/5bQ/rK4 r - - 0 1",
            "a1b3",
            vec!["a1b3", "illegal"],
        ),
        (
            "hexenschach",
            "fen 5/wQ5/wR1wK4/6bK1/4rQ4/1rP5bP/7/5bQ/rK4 r - - 0 1",
            "b4d6",
            vec!["b4d6", "illegal"],
        ),
        ("hexenschach", "startpos", "e7e6", vec!["e7e6", "to move"]),
        ("pyramid", "startpos", "1e21e5", vec!["1e21e5", "illegal"]),
        ("pyramid", "startpos", "1a22b3", vec!["1a22b3", "illegal"]),
        ("pyramid", "startpos", "1e71e5", vec!["1e71e5", "to move"]),
        (
            "pyramid-ep",
            "startpos",
            "1e21e4 1e71e5 1e11e3",
            vec!["move 3", "1e11e3", "illegal"],
        ),
        (
            "trichess",
            "startpos",
            "e2e4 e11e9 l12l11",
            vec!["move 3", "l12l11", "to move"],
        ),
        ("trichess", "startpos", "e1e2", vec!["e1e2", "illegal"]),
        (
            "star",
            "startpos",
            "bb5bd5 gb5gd5 rb5rd5 bd5bd6",
            vec!["move 4", "bd5bd6", "illegal"],
        ),
        ("star", "startpos", "0000", vec!["0000"]),
        ("star", "startpos", "ga5ga4", vec!["ga5ga4", "to move"]),
    ];
    for (game, position, moves, keywords) in cases {
        let mut e = engine_in(game);
        refused(
            &mut e,
            &format!("position {position} moves {moves}"),
            &keywords,
        );
    }
}

/// Numbers out of range for `go` and the options; a refused `go` prints no
/// `bestmove`, and the engine searches normally afterwards.
#[test]
fn absurd_numbers_are_refused() {
    let mut e = engine_in("dreierschach");
    for (command, keywords) in [
        ("go depth 0", vec!["depth", "'0'"]),
        ("go depth 99999999999", vec!["depth", "99999999999"]),
        ("go depth -3", vec!["depth", "-3"]),
        ("go depth 1e9", vec!["depth", "1e9"]),
        ("go depth +3", vec!["depth", "+3"]),
        ("go movetime +50", vec!["movetime", "+50"]),
        ("go nodes +5", vec!["nodes", "+5"]),
        ("go wtime +1000", vec!["wtime", "+1000"]),
        ("go wtime --5", vec!["wtime", "--5"]),
        ("go winc +10", vec!["winc", "+10"]),
        ("setoption name Hash value +5", vec!["Hash", "+5"]),
        ("setoption name Threads value +1", vec!["Threads", "+1"]),
        ("bench depth +1", vec!["bench depth", "+1"]),
        ("go depth", vec!["depth", "missing"]),
        ("go perft 11", vec!["perft", "11"]),
        ("go perft 0", vec!["perft", "'0'"]),
        ("go movetime -5", vec!["movetime", "-5"]),
        ("go movetime 99999999999", vec!["movetime", "99999999999"]),
        ("go nodes 0", vec!["nodes", "'0'"]),
        ("go movestogo 0", vec!["movestogo", "'0'"]),
        ("go ntime abc", vec!["ntime", "abc"]),
        ("go rtime 1000", vec!["rtime"]),
        ("go mate 0", vec!["mate", "'0'"]),
        ("go mate 101", vec!["mate", "101"]),
        ("go searchmoves e2e5", vec!["searchmoves", "e2e5"]),
        (
            "setoption name Hash value 99999999999",
            vec!["Hash", "99999999999"],
        ),
        ("setoption name Hash value 0", vec!["Hash", "'0'"]),
        ("setoption name MultiPV value 0", vec!["MultiPV", "'0'"]),
        (
            "setoption name Threads value 100000",
            vec!["Threads", "100000"],
        ),
        (
            "setoption name Move Overhead value -1",
            vec!["Move Overhead", "-1"],
        ),
        (
            "setoption name SearchAlgorithm value minimax",
            vec!["SearchAlgorithm", "minimax"],
        ),
        (
            "setoption name AfterMate value sometimes",
            vec!["AfterMate", "sometimes"],
        ),
        (
            "setoption name UCI_Variant value shogi",
            vec!["UCI_Variant", "shogi"],
        ),
    ] {
        refused(&mut e, command, &keywords);
    }
    std::thread::sleep(Duration::from_millis(100));
    assert!(e.sync().is_empty(), "no bestmove after a refused go");
    assert_eq!(e.show("Variant"), "dreierschach");
    let (best, lines, _) = e.go("go depth 1", engine::TIMEOUT);
    assert!(
        !best.is_empty() && best != "0000",
        "a search still works: {lines:?}"
    );
    assert!(e.sync().is_empty());
}

/// A clock a GUI let run over is negative, by any amount: it counts as no
/// time left, and the engine still moves at once.
#[test]
fn negative_clocks_of_any_size_count_as_zero() {
    let mut e = Engine::start();
    e.command("position startpos");
    for clock in ["-1", "-1180591620717411303424"] {
        let (best, lines, _) = e.go(&format!("go wtime {clock} btime 1000"), engine::TIMEOUT);
        assert!(
            !best.is_empty() && best != "0000",
            "{clock}: a move: {lines:?}"
        );
        assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
    }
}

/// Unknown commands and options, and `setoption` without a name.
#[test]
fn unknown_commands_and_options_are_refused() {
    let mut e = engine_in("star");
    for (command, keywords) in [
        ("frobnicate now", vec!["unknown command", "frobnicate"]),
        ("IsReady", vec!["unknown command", "IsReady"]),
        ("register later", vec!["unknown command"]),
        ("ponderhit", vec!["ponder"]),
        (
            "setoption name NoSuchOption value 3",
            vec!["option", "NoSuchOption"],
        ),
        ("setoption value 3", vec!["name"]),
        ("position sideways", vec!["sideways"]),
        ("position fen", vec!["missing"]),
        ("go sideways", vec!["sideways"]),
        ("debug maybe", vec!["debug"]),
        ("bench depth 0", vec!["depth", "'0'"]),
    ] {
        refused(&mut e, command, &keywords);
    }
    // Unknown fields of the position format.
    position_refused(&mut e, &format!("{STAR} frobs=3"), &["frobs"]);
    position_refused(&mut e, &format!("{STAR} out=g"), &["out="]);
    position_refused(&mut e, &format!("{STAR} passes=4"), &["passes", "4"]);
    position_refused(&mut e, &format!("{STAR} frozen=x"), &["frozen", "'x'"]);
}

/// Very long lines get one short error line, and the engine goes on.
#[test]
fn very_long_lines_are_refused_briefly() {
    let mut e = engine_in("chess");
    let long = "x".repeat(100_000);
    for (command, keywords) in [
        (long.clone(), vec!["unknown command"]),
        (
            format!("position fen {}", "bR".repeat(50_000)),
            vec!["invalid chess position"],
        ),
        (
            format!("position startpos moves {}", "e2e4".repeat(20_000)),
            vec!["move 1", "e2e4"],
        ),
        (
            format!("setoption name {} value 3", "N".repeat(50_000)),
            vec!["no such option"],
        ),
        (
            format!("setoption name UCI_Variant value {}", "z".repeat(50_000)),
            vec!["UCI_Variant"],
        ),
        (format!("go depth {}", "9".repeat(50_000)), vec!["depth"]),
        (format!("go {}", "w".repeat(50_000)), vec!["go"]),
    ] {
        refused(&mut e, &command, &keywords);
    }
    // Each of them was answered with one bounded line (checked here apart).
    e.send(&long);
    let line = e.sync().pop().expect("an error line");
    assert!(
        line.len() < 200,
        "the unknown command is quoted briefly: {} bytes",
        line.len()
    );
    e.send(&format!("position fen {}", "bR".repeat(50_000)));
    let line = e.sync().pop().expect("an error line");
    assert!(
        line.len() < 2_000,
        "the position is not echoed whole: {} bytes",
        line.len()
    );
    assert!(e.sync().is_empty());
}

/// `triskel perft --fen` with a bad position (or move) exits with status 1
/// and an `error: ...` line on standard error naming the problem.
#[test]
fn command_line_perft_refuses_bad_positions() {
    let cases: [(&str, String, &[&str], &[&str]); 9] = [
        ("chess", broken(CHESS, "wQwK", "wKwK"), &[], &["king"]),
        (
            "dreierschach",
            broken(DREIERSCHACH, "/11/10/", "/12/10/"),
            &[],
            &["row"],
        ),
        (
            "hexenschach",
            "5/wQ5/wR1wK4/6bK1/4rQ4/1rP5bP/7/5bQ/rK4 r - - 0 1 out=w armies=wr".to_string(),
            &[],
            &["out", "king"],
        ),
        (
            "hexenschach",
            "5/wQ5/wR6/6bK1/4rQ4/1rP5bP/7/5bQ/rK4 r - - 0 1 out=w".to_string(),
            &[],
            &["armies"],
        ),
        (
            "pyramid",
            PYRAMID.to_string(),
            &["--moves", "3a13a2"],
            &["3a13a2"],
        ),
        (
            "pyramid-ep",
            broken(PYRAMID, "wRwNwBwQ", "wRwPwBwQ"),
            &[],
            &["baseline"],
        ),
        (
            "trichess",
            broken(TRICHESS, "8/8/wP", "8/wP"),
            &[],
            &["rows"],
        ),
        ("star", broken(STAR, "rRrNrB", "xRrNrB"), &[], &["'x'"]),
        (
            "chess",
            CHESS.to_string(),
            &["--moves", "e2e4", "e2e4"],
            &["move 2", "e2e4"],
        ),
    ];
    for (game, position, extra, keywords) in cases {
        let mut args = vec![
            "perft",
            "--variant",
            game,
            "--depth",
            "1",
            "--fen",
            position.as_str(),
        ];
        args.extend_from_slice(extra);
        let out = Command::new(engine::binary())
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .expect("the engine runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{game} {position}: {stderr}");
        assert!(stderr.starts_with("error: "), "{game}: {stderr}");
        for keyword in keywords {
            assert!(
                stderr.to_lowercase().contains(&keyword.to_lowercase()),
                "{game} {position}: no {keyword:?} in {stderr}"
            );
        }
        assert!(out.stdout.is_empty(), "{game}: nothing counted");
    }
    // Numbers on the command line are read as in the protocol: one out of
    // range or with a sign is a usage error (status 2); an option's value
    // an option error (status 1).
    for (args, status, keyword) in [
        (vec!["perft", "--depth", "0"], 2, "depth"),
        (vec!["perft", "--depth", "11"], 2, "depth"),
        (vec!["perft", "--depth", "x"], 2, "depth"),
        (vec!["perft", "--depth", "+3"], 2, "depth"),
        (
            vec!["perft", "--depth", "2", "--threads", "0"],
            2,
            "threads",
        ),
        (
            vec!["perft", "--depth", "2", "--threads", "+1"],
            2,
            "threads",
        ),
        (vec!["bench", "--depth", "+1"], 2, "depth"),
        (
            vec!["match", "--games", "+2", "--players", "random", "random"],
            2,
            "games",
        ),
        (
            vec!["perft", "--depth", "2", "--option", "Hash=0"],
            1,
            "hash",
        ),
        (
            vec!["perft", "--variant", "shogi", "--depth", "2"],
            1,
            "shogi",
        ),
    ] {
        let out = Command::new(engine::binary())
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .expect("the engine runs");
        let stderr = String::from_utf8_lossy(&out.stderr).to_lowercase();
        assert_eq!(out.status.code(), Some(status), "{args:?}: {stderr}");
        assert!(
            stderr.contains(keyword),
            "{args:?}: no {keyword:?} in {stderr}"
        );
    }
}
