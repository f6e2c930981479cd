//! A board's geometry as JSON, on one line, for GUI authors: every cell
//! with its name, centre, outline, colour (and level), the labels, the
//! players' colours and the picture's size, all in the pixels of the SVG
//! picture of the same width (protocol.md, "geometry").

use super::{Px, Scaled, player_colours};
use crate::game::Game;
use crate::geometry::picture::Point;
use std::fmt::Write;

/// `text` as a JSON string (names and labels are ASCII; quotes, backslashes
/// and control characters are escaped all the same).
pub fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `[x,y]`.
fn point(p: Point) -> String {
    format!("[{},{}]", Px(p[0]), Px(p[1]))
}

/// The geometry of `game`'s board drawn `size` pixels wide.
pub fn geometry(game: &Game, size: u32) -> String {
    let g = &game.geometry;
    let s = Scaled::new(g.picture(), size);
    let (width, height) = s.size();
    let mut out = String::with_capacity(64 * 1024);
    let _ = write!(
        out,
        "{{\"variant\":{},\"width\":{},\"height\":{},\"players\":[",
        string(game.variant.id()),
        Px(width),
        Px(height)
    );
    for p in 0..game.players {
        let c = player_colours(game, p);
        let separator = if p == 0 { "" } else { "," };
        let _ = write!(
            out,
            "{separator}{{\"letter\":{},\"name\":{},\"fill\":{},\"ink\":{},\"outline\":{}}}",
            string(&game.letters[p].to_string()),
            string(game.player_names[p]),
            string(c.fill),
            string(c.ink),
            string(c.outline)
        );
    }
    out.push_str("],\"labels\":[");
    for (i, label) in s.picture.labels.iter().enumerate() {
        let separator = if i == 0 { "" } else { "," };
        let _ = write!(
            out,
            "{separator}{{\"text\":{},\"at\":{}}}",
            string(&label.text),
            point(s.point(label.at))
        );
    }
    out.push_str("],\"cells\":[");
    for cell in g.cells() {
        let shape = &s.picture.cells[cell.index()];
        let separator = if cell.index() == 0 { "" } else { "," };
        let _ = write!(
            out,
            "{separator}{{\"name\":{},\"centre\":{},\"outline\":[",
            string(g.name(cell)),
            point(s.point(shape.centre))
        );
        for (i, &p) in shape.outline.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&point(s.point(p)));
        }
        let _ = write!(
            out,
            "],\"colour\":{}",
            string(s.picture.shades[shape.shade])
        );
        if let Some(level) = shape.level {
            let _ = write!(out, ",\"level\":{level}");
        }
        out.push('}');
    }
    out.push_str("]}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Variant;
    use crate::render::DEFAULT_SIZE;

    #[test]
    fn every_cell_is_listed_once_with_its_level_where_there_are_levels() {
        for v in Variant::ALL {
            let game = v.game();
            let json = geometry(game, DEFAULT_SIZE);
            let cells = game.geometry.cell_count();
            assert_eq!(json.matches("\"name\":").count(), cells + game.players);
            assert_eq!(json.matches("\"outline\":[").count(), cells);
            let levels = json.matches("\"level\":").count();
            let has_levels = game.geometry.picture().cells[0].level.is_some();
            assert_eq!(levels, if has_levels { cells } else { 0 }, "{v}");
            assert!(json.starts_with('{') && json.ends_with('}') && !json.contains('\n'));
        }
    }

    #[test]
    fn strings_are_escaped() {
        assert_eq!(string("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
    }
}
