//! Pictures of every board: every position of every perft suite drawn as
//! SVG and read back with an XML parser (one cell shape per board cell with
//! the board's names, one glyph per piece), the marks (last move, check,
//! arrows), and `render` and `geometry` from the command line and the
//! protocol.

#[path = "data/command.rs"]
mod command;
#[path = "data/engine.rs"]
mod engine;
// Only the suites' positions are drawn here, not their counts.
#[allow(dead_code)]
#[path = "data/suites.rs"]
mod suites;

use command::{FAILURE, USAGE_ERROR, stderr, stdout, triskel};
use engine::{Engine, is_error};
use std::collections::BTreeSet;
use triskel::position::{AfterMate, Position};
use triskel::render::{self, DEFAULT_SIZE, Marks};
use triskel::variants::Variant;

/// The elements of `doc` whose `class` is `class`.
fn with_class<'a, 'input>(
    doc: &'a roxmltree::Document<'input>,
    class: &str,
) -> Vec<roxmltree::Node<'a, 'input>> {
    doc.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .collect()
}

/// The `data-cell` attributes of `nodes`.
fn cells_of(nodes: &[roxmltree::Node]) -> Vec<String> {
    nodes
        .iter()
        .map(|n| n.attribute("data-cell").expect("data-cell").to_string())
        .collect()
}

/// Checks that `svg` is well-formed and draws `pos`: each board cell once
/// under its own name, each piece once on its cell.
fn check_picture(pos: &Position, svg: &str, what: &str) {
    let doc = roxmltree::Document::parse(svg)
        .unwrap_or_else(|e| panic!("{what}: the SVG is not well-formed XML: {e}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg", "{what}");
    let g = &pos.game().geometry;
    let cells = cells_of(&with_class(&doc, "cell"));
    assert_eq!(cells.len(), g.cell_count(), "{what}: one shape per cell");
    let drawn: BTreeSet<&str> = cells.iter().map(String::as_str).collect();
    let board: BTreeSet<&str> = g.cells().into_iter().map(|c| g.name(c)).collect();
    assert_eq!(drawn, board, "{what}: the cells drawn are the board's");
    let pieces = cells_of(&with_class(&doc, "piece"));
    let on_board: BTreeSet<String> = pos
        .occupied()
        .into_iter()
        .map(|c| g.name(c).to_string())
        .collect();
    assert_eq!(pieces.len(), on_board.len(), "{what}: one glyph per piece");
    assert_eq!(
        pieces.into_iter().collect::<BTreeSet<_>>(),
        on_board,
        "{what}: pieces on their cells"
    );
}

#[test]
fn every_suite_position_draws_every_cell_and_piece() {
    let checks = suites::read();
    let mut drawn = BTreeSet::new();
    for check in &checks {
        let variant = Variant::from_id(&check.game).expect("a game of the suites");
        let after_mate = check
            .options
            .iter()
            .find(|(name, _)| name == "AfterMate")
            .map_or(AfterMate::End, |(_, value)| {
                AfterMate::from_name(value).expect("AfterMate value")
            });
        let pos = if check.position == "startpos" {
            Position::start(variant)
        } else {
            Position::from_fen_with(variant, &check.position, after_mate).expect("suite position")
        };
        let what = format!("{} {}", check.game, check.name);
        if !drawn.insert(what.clone()) {
            continue;
        }
        check_picture(
            &pos,
            &render::svg(&pos, DEFAULT_SIZE, &Marks::default()),
            &what,
        );
    }
    for v in Variant::ALL {
        assert!(
            drawn.iter().any(|d| d.split(' ').next() == Some(v.id())),
            "no suite position of {v}"
        );
    }
}

/// The corners of a `polygon`'s `points`.
fn corners(polygon: &roxmltree::Node) -> Vec<(f64, f64)> {
    polygon
        .attribute("points")
        .expect("points")
        .split_whitespace()
        .map(|pair| {
            let (x, y) = pair.split_once(',').expect("x,y");
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

/// Whether `(x, y)` lies inside the polygon of `corners` (even-odd rule).
fn inside(corners: &[(f64, f64)], (x, y): (f64, f64)) -> bool {
    let mut crossings = false;
    let mut previous = corners[corners.len() - 1];
    for &(cx, cy) in corners {
        let (px, py) = previous;
        if (cy > y) != (py > y) && x < px + (y - py) * (cx - px) / (cy - py) {
            crossings = !crossings;
        }
        previous = (cx, cy);
    }
    crossings
}

/// A person names a cell from the picture by reading it: every cell's name
/// is written once, inside that cell's own shape and no other (chess keeps
/// its files and ranks along the edges, as every chess board has them).
#[test]
fn every_cell_is_named_inside_its_own_shape() {
    for v in Variant::ALL.into_iter().filter(|&v| v != Variant::Chess) {
        let svg = render::svg(&Position::start(v), DEFAULT_SIZE, &Marks::default());
        let doc = roxmltree::Document::parse(&svg).expect("well-formed");
        let shapes: Vec<(String, Vec<(f64, f64)>)> = with_class(&doc, "cell")
            .iter()
            .map(|c| (c.attribute("data-cell").unwrap().to_string(), corners(c)))
            .collect();
        let names = with_class(&doc, "names");
        assert_eq!(names.len(), 1, "{v}: one group of cell names");
        let mut named = BTreeSet::new();
        for text in names[0].children().filter(|n| n.is_element()) {
            let name = text.text().expect("a name");
            let at = (
                text.attribute("x").unwrap().parse().unwrap(),
                text.attribute("y").unwrap().parse().unwrap(),
            );
            let holders: Vec<&str> = shapes
                .iter()
                .filter(|(_, c)| inside(c, at))
                .map(|(cell, _)| cell.as_str())
                .collect();
            assert_eq!(
                holders,
                [name],
                "{v}: the name {name} is written in {holders:?}"
            );
            assert!(
                named.insert(name.to_string()),
                "{v}: {name} is written twice"
            );
        }
        assert_eq!(named.len(), shapes.len(), "{v}: every cell is named");
    }
}

#[test]
fn the_last_move_the_check_and_arrows_are_drawn() {
    let out = triskel(&[
        "render",
        "--variant",
        "chess",
        "--moves",
        "f2f3",
        "e7e5",
        "g2g4",
        "d8h4",
        "--arrows",
        "e1f2,g4g5,a7a8q",
        "--size",
        "400",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let svg = stdout(&out);
    let doc = roxmltree::Document::parse(svg.trim()).expect("well-formed");
    assert_eq!(doc.root_element().attribute("width"), Some("400.00"));
    assert_eq!(cells_of(&with_class(&doc, "last-move")), ["d8", "h4"]);
    assert_eq!(cells_of(&with_class(&doc, "check")), ["e1"]);
    let arrows: Vec<(&str, &str)> = with_class(&doc, "arrow")
        .iter()
        .map(|a| {
            (
                a.attribute("data-from").unwrap(),
                a.attribute("data-to").unwrap(),
            )
        })
        .collect();
    assert_eq!(arrows, [("e1", "f2"), ("g4", "g5"), ("a7", "a8")]);
}

#[test]
fn every_game_renders_from_the_command_line_after_a_move() {
    for v in Variant::ALL {
        let pos = Position::start(v);
        let first = pos.move_text(pos.legal_moves()[0]);
        let out = triskel(&["render", "--variant", v.id(), "--moves", &first]);
        assert!(out.status.success(), "{v}: {}", stderr(&out));
        let after = triskel::protocol::setup::build_position(v, AfterMate::End, None, &[&first])
            .expect("the move is legal");
        let svg = stdout(&out);
        check_picture(&after, svg.trim(), v.id());
        assert_eq!(svg.matches("class=\"last-move\"").count(), 2, "{v}");
    }
}

#[test]
fn render_errors_are_clear_and_fail() {
    for (args, code, mentions) in [
        (
            &["render", "--variant", "no-such-game"][..],
            FAILURE,
            "no-such-game",
        ),
        (
            &["render", "--fen", "not a position"],
            FAILURE,
            "invalid chess position",
        ),
        (&["render", "--moves", "e2e5"], FAILURE, "e2e5"),
        (&["render", "--arrows", "e2e4,e9e10"], FAILURE, "e9e10"),
        (&["render", "--size", "10"], FAILURE, "size"),
        (&["render", "--size", "99999999"], FAILURE, "size"),
        (&["render", "--size", "-5"], USAGE_ERROR, "-5"),
        (&["render", "--size", "abc"], USAGE_ERROR, "abc"),
        (&["render", "--option", "AfterMate"], FAILURE, "NAME=VALUE"),
        (
            &["geometry", "--variant", "no-such-game"],
            FAILURE,
            "no-such-game",
        ),
        (&["geometry", "--size", "0"], FAILURE, "size"),
    ] {
        let out = triskel(args);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{args:?} printed a picture");
        let message = stderr(&out);
        assert!(message.contains(mentions), "{args:?}: {message}");
        assert!(!message.contains("panicked"), "{args:?}: {message}");
    }
}

/// The cell names listed in a geometry JSON, in order.
fn json_cell_names(json: &str) -> Vec<String> {
    let cells = &json[json.find("\"cells\":").expect("cells")..];
    cells
        .split("\"name\":\"")
        .skip(1)
        .map(|rest| rest[..rest.find('"').expect("end of name")].to_string())
        .collect()
}

#[test]
fn geometry_lists_every_cell_in_order() {
    for v in Variant::ALL {
        let out = triskel(&["geometry", "--variant", v.id(), "--size", "500"]);
        assert!(out.status.success(), "{v}: {}", stderr(&out));
        let json = stdout(&out);
        let json = json.trim();
        assert!(
            json.starts_with("{\"variant\":") && json.ends_with('}'),
            "{v}"
        );
        assert!(json.contains("\"width\":500.00"), "{v}");
        let g = &v.game().geometry;
        let names: Vec<String> = g
            .cells()
            .into_iter()
            .map(|c| g.name(c).to_string())
            .collect();
        assert_eq!(json_cell_names(json), names, "{v}");
        let levels = json.matches("\"level\":").count();
        let pyramid = matches!(v, Variant::Pyramid | Variant::PyramidEp);
        assert_eq!(levels, if pyramid { names.len() } else { 0 }, "{v}");
        assert_eq!(json.matches("\"letter\":").count(), v.game().players, "{v}");
    }
}

#[test]
fn the_protocol_renders_the_position_and_prints_the_geometry() {
    let mut e = Engine::start();
    e.command("setoption name UCI_Variant value dreierschach");
    e.command("position startpos moves e2e4");
    let lines = e.command("render size 500 arrows h12h10,e4e5");
    assert_eq!(lines.len(), 1, "{lines:?}");
    let svg = lines[0].strip_prefix("svg ").expect("svg line");
    let pos = triskel::protocol::setup::build_position(
        Variant::Dreierschach,
        AfterMate::End,
        None,
        &["e2e4"],
    )
    .unwrap();
    check_picture(&pos, svg, "protocol render");
    let doc = roxmltree::Document::parse(svg).unwrap();
    assert_eq!(cells_of(&with_class(&doc, "last-move")), ["e2", "e4"]);
    assert_eq!(with_class(&doc, "arrow").len(), 2);

    let lines = e.command("geometry");
    assert_eq!(lines.len(), 1, "{lines:?}");
    let json = lines[0].strip_prefix("geometry ").expect("geometry line");
    assert_eq!(json_cell_names(json).len(), 126);

    for bad in [
        "render size 1",
        "render size many",
        "render arrows z1z2",
        "render size",
        "render colour red",
        "geometry arrows e2e4",
    ] {
        let lines = e.command(bad);
        assert!(lines.len() == 1 && is_error(&lines[0]), "{bad}: {lines:?}");
    }
    e.command("position fen nonsense");
    let lines = e.command("render");
    assert!(
        lines.len() == 1 && lines[0].contains("no position"),
        "{lines:?}"
    );
    let help = e.command("help").join("\n");
    assert!(help.contains("render [size") && help.contains("geometry [size"));
}
