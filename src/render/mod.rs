//! Positions drawn as SVG pictures, and boards described as JSON for GUI
//! authors (`triskel render`, `triskel geometry` and the protocol's `render`
//! and `geometry`). Everything is drawn from the board's [`Picture`],
//! computed from its coordinates when the board is built: no board is drawn
//! by hand, and nothing here knows which game it draws.

pub mod json;

use crate::game::{Game, Variant};
use crate::geometry::picture::{Picture, Point};
use crate::moves::Move;
use crate::position::{AfterMate, Position};
use crate::protocol::setup::build_position;
use crate::types::{Cell, Piece};
use std::fmt::Write;

/// Width of a picture when none is asked for, in pixels.
pub const DEFAULT_SIZE: u32 = 800;
/// Narrowest picture drawn, in pixels.
pub const MIN_SIZE: u32 = 64;
/// Widest picture drawn, in pixels.
pub const MAX_SIZE: u32 = 16384;

/// A piece's disc, as a fraction of its cell's inner radius.
const PIECE_RADIUS: f64 = 0.62;
/// A piece's disc where the cell also shows its name.
const NAMED_PIECE_RADIUS: f64 = 0.5;
/// How far above the centre a piece stands where the cell shows its name,
/// as a fraction of the cell's inner radius.
const NAMED_PIECE_RAISE: f64 = 0.22;
/// The piece letter's height, as a fraction of its disc's radius.
const PIECE_LETTER: f64 = 1.25;
/// The check ring, as a fraction of its disc's radius.
const CHECK_RADIUS: f64 = 1.35;
/// A cell name's height, as a fraction of the smallest cell's inner radius.
const NAME_SIZE: f64 = 0.36;
/// How far below the centre a name stands, as a fraction of its cell's
/// inner radius (under the piece's disc).
const NAME_OFFSET: f64 = 0.68;
/// A coordinate label's height, in board units.
const LABEL_SIZE: f64 = 0.36;
/// Line widths in board units: cell borders, piece outlines, arrows, check ring.
const BORDER_WIDTH: f64 = 0.02;
const PIECE_OUTLINE: f64 = 0.035;
const ARROW_WIDTH: f64 = 0.09;
const CHECK_WIDTH: f64 = 0.08;
/// Colours of the marks on the board.
const BACKGROUND: &str = "#fbfaf7";
const BORDER: &str = "#3a3a3a";
const LAST_MOVE: &str = "#ffe24a";
const LAST_MOVE_OPACITY: f64 = 0.55;
const CHECK: &str = "#e01010";
const ARROW: &str = "#1f7a3a";
const ARROW_OPACITY: f64 = 0.8;
const TEXT: &str = "#222222";

/// How a player's pieces are drawn: the disc's fill, the letter's colour
/// and the outline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Colours {
    /// The disc.
    pub fill: &'static str,
    /// The piece letter on it.
    pub ink: &'static str,
    /// The disc's outline.
    pub outline: &'static str,
}

/// The players' colour names of the rule books and how they are drawn.
const NAMED_COLOURS: [(&str, Colours); 6] = [
    ("White", colours("#ffffff", "#111111", "#111111")),
    ("Black", colours("#1c1c1c", "#ffffff", "#f0f0f0")),
    ("Brown", colours("#8a4b1f", "#ffffff", "#2a1505")),
    ("Red", colours("#d02525", "#ffffff", "#3a0505")),
    ("Blue", colours("#2358c8", "#ffffff", "#06163a")),
    ("Green", colours("#23913d", "#ffffff", "#05300f")),
];

/// Colours for a player whose name is no colour.
const OTHER_COLOURS: Colours = colours("#7b3fb0", "#ffffff", "#1e0a30");

const fn colours(fill: &'static str, ink: &'static str, outline: &'static str) -> Colours {
    Colours { fill, ink, outline }
}

/// How the pieces of player (army) `index` of `game` are drawn, from the
/// colour the player is named after.
pub fn player_colours(game: &Game, index: usize) -> Colours {
    let name = game.player_names[index];
    NAMED_COLOURS
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map_or(OTHER_COLOURS, |&(_, c)| c)
}

/// What to draw besides the position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// The cells of the last move, highlighted.
    pub last_move: Option<(Cell, Cell)>,
    /// Arrows, each from a cell to a cell (a line of play, or candidate moves).
    pub arrows: Vec<(Cell, Cell)>,
}

/// Checks a picture width asked for.
pub fn check_size(size: u32) -> Result<u32, String> {
    if (MIN_SIZE..=MAX_SIZE).contains(&size) {
        Ok(size)
    } else {
        Err(format!(
            "picture size {size} is out of range ({MIN_SIZE} to {MAX_SIZE} pixels)"
        ))
    }
}

/// The cells of an arrow written as a move (`e2e4`, `d7d8q`), on the board
/// of `pos`; the move need not be legal.
pub fn parse_arrow(pos: &Position, text: &str) -> Result<(Cell, Cell), String> {
    let without_promotion = text
        .char_indices()
        .last()
        .filter(|&(_, c)| c.is_ascii_alphabetic())
        .map(|(i, _)| &text[..i]);
    pos.split_two_cells(text)
        .or_else(|| without_promotion.and_then(|t| pos.split_two_cells(t)))
        .ok_or_else(|| {
            format!(
                "arrow '{text}' is not two cells of the {} board",
                pos.variant()
            )
        })
}

/// The arrows of a comma-separated list (`e2e4,e7e5`; empty items are skipped).
pub fn parse_arrows(pos: &Position, list: &str) -> Result<Vec<(Cell, Cell)>, String> {
    list.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| parse_arrow(pos, t))
        .collect()
}

/// The cells of `m`, unless it is a pass.
pub fn move_cells(m: Move) -> Option<(Cell, Cell)> {
    (!m.is_pass() && m != Move::NONE).then(|| (m.from(), m.to()))
}

/// The position [`build_position`] sets up and the cells of the last of
/// `moves` (none when there are no moves or the last is a pass).
pub fn position_and_last_move<S: AsRef<str>>(
    variant: Variant,
    after_mate: AfterMate,
    fen: Option<&str>,
    moves: &[S],
) -> Result<(Position, Option<(Cell, Cell)>), String> {
    let pos = build_position(variant, after_mate, fen, moves)?;
    let Some((last, before)) = moves.split_last() else {
        return Ok((pos, None));
    };
    let previous = build_position(variant, after_mate, fen, before)?;
    let m = previous
        .parse_move(last.as_ref())
        .map_err(|e| e.to_string())?;
    Ok((pos, move_cells(m)))
}

/// Formats a length in pixels: two decimals, enough at any size drawn.
struct Px(f64);

impl std::fmt::Display for Px {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:.2}", self.0)
    }
}

/// `text` with the characters XML gives a meaning escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            _ => out.push(c),
        }
    }
    out
}

/// A board's picture scaled to a width in pixels.
pub struct Scaled<'a> {
    /// The picture in board units.
    pub picture: &'a Picture,
    /// Pixels per board unit.
    pub scale: f64,
}

impl<'a> Scaled<'a> {
    /// `picture` drawn `size` pixels wide.
    pub fn new(picture: &'a Picture, size: u32) -> Scaled<'a> {
        Scaled {
            picture,
            scale: f64::from(size) / picture.width,
        }
    }

    /// The picture's width and height in pixels.
    pub fn size(&self) -> (f64, f64) {
        (
            self.picture.width * self.scale,
            self.picture.height * self.scale,
        )
    }

    /// `p` in pixels.
    pub fn point(&self, p: Point) -> Point {
        [p[0] * self.scale, p[1] * self.scale]
    }

    /// The centre of `cell` in pixels.
    fn centre(&self, cell: Cell) -> Point {
        self.point(self.picture.cells[cell.index()].centre)
    }

    /// The inner radius of `cell` in pixels.
    fn radius(&self, cell: Cell) -> f64 {
        self.picture.cells[cell.index()].inner_radius * self.scale
    }

    /// The centre and radius of a piece's disc on `cell`, in pixels: above
    /// the cell's name where it shows one.
    fn disc(&self, cell: Cell) -> (Point, f64) {
        let [x, y] = self.centre(cell);
        let r = self.radius(cell);
        if self.picture.names_in_cells {
            ([x, y - NAMED_PIECE_RAISE * r], NAMED_PIECE_RADIUS * r)
        } else {
            ([x, y], PIECE_RADIUS * r)
        }
    }

    /// The corners of `cell` as an SVG `points` list.
    fn points(&self, cell: Cell, out: &mut String) {
        for (i, &p) in self.picture.cells[cell.index()].outline.iter().enumerate() {
            let [x, y] = self.point(p);
            let separator = if i == 0 { "" } else { " " };
            let _ = write!(out, "{separator}{},{}", Px(x), Px(y));
        }
    }
}

/// The SVG picture of `pos`, `size` pixels wide, with `marks`.
pub fn svg(pos: &Position, size: u32, marks: &Marks) -> String {
    let game = pos.game();
    let g = &game.geometry;
    let s = Scaled::new(g.picture(), size);
    let (width, height) = s.size();
    let mut out = String::with_capacity(64 * 1024);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" data-variant=\"{}\">",
        pos.variant(),
        w = Px(width),
        h = Px(height),
    );
    let arrow_width = ARROW_WIDTH * s.scale;
    let _ = write!(
        out,
        "<defs><marker id=\"arrowhead\" viewBox=\"0 0 10 10\" refX=\"5\" refY=\"5\" \
         markerWidth=\"3\" markerHeight=\"3\" orient=\"auto\">\
         <path d=\"M0,0 L10,5 L0,10 z\" fill=\"{ARROW}\"/></marker></defs>\
         <rect width=\"{w}\" height=\"{h}\" fill=\"{BACKGROUND}\"/>",
        w = Px(width),
        h = Px(height),
    );
    cells(&s, pos, &mut out);
    if let Some((from, to)) = marks.last_move {
        for cell in [from, to] {
            let _ = write!(
                out,
                "<polygon class=\"last-move\" data-cell=\"{}\" points=\"",
                g.name(cell)
            );
            s.points(cell, &mut out);
            let _ = write!(
                out,
                "\" fill=\"{LAST_MOVE}\" fill-opacity=\"{LAST_MOVE_OPACITY}\"/>"
            );
        }
    }
    names_and_labels(&s, pos, &mut out);
    if pos.in_check()
        && let Some(king) = pos.king_of(pos.to_move())
    {
        let ([x, y], r) = s.disc(king);
        let _ = write!(
            out,
            "<circle class=\"check\" data-cell=\"{}\" cx=\"{}\" cy=\"{}\" r=\"{}\" \
             fill=\"none\" stroke=\"{CHECK}\" stroke-width=\"{}\"/>",
            g.name(king),
            Px(x),
            Px(y),
            Px(r * CHECK_RADIUS),
            Px(CHECK_WIDTH * s.scale),
        );
    }
    for cell in pos.occupied() {
        if let Some(piece) = pos.piece_at(cell) {
            draw_piece(&s, game, cell, piece, &mut out);
        }
    }
    for &(from, to) in &marks.arrows {
        let ([x1, y1], [x2, y2]) = (s.centre(from), s.centre(to));
        let _ = write!(
            out,
            "<line class=\"arrow\" data-from=\"{}\" data-to=\"{}\" x1=\"{}\" y1=\"{}\" \
             x2=\"{}\" y2=\"{}\" stroke=\"{ARROW}\" stroke-opacity=\"{ARROW_OPACITY}\" \
             stroke-width=\"{}\" stroke-linecap=\"round\" marker-end=\"url(#arrowhead)\"/>",
            g.name(from),
            g.name(to),
            Px(x1),
            Px(y1),
            Px(x2),
            Px(y2),
            Px(arrow_width),
        );
    }
    out.push_str("</svg>");
    out
}

/// One polygon per cell, in its colour.
fn cells(s: &Scaled, pos: &Position, out: &mut String) {
    let g = &pos.game().geometry;
    let _ = write!(
        out,
        "<g class=\"board\" stroke=\"{BORDER}\" stroke-width=\"{}\">",
        Px(BORDER_WIDTH * s.scale)
    );
    for cell in g.cells() {
        let shade = s.picture.cells[cell.index()].shade;
        let _ = write!(
            out,
            "<polygon class=\"cell\" data-cell=\"{}\" points=\"",
            g.name(cell)
        );
        s.points(cell, out);
        let _ = write!(out, "\" fill=\"{}\"/>", s.picture.shades[shade]);
    }
    out.push_str("</g>");
}

/// The coordinates around the board, and each cell's name where the
/// picture asks for it.
fn names_and_labels(s: &Scaled, pos: &Position, out: &mut String) {
    let g = &pos.game().geometry;
    let _ = write!(
        out,
        "<g class=\"labels\" fill=\"{TEXT}\" text-anchor=\"middle\" \
         dominant-baseline=\"central\" font-size=\"{}\">",
        Px(LABEL_SIZE * s.scale)
    );
    for label in &s.picture.labels {
        let [x, y] = s.point(label.at);
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            Px(x),
            Px(y),
            escape(&label.text)
        );
    }
    out.push_str("</g>");
    if !s.picture.names_in_cells {
        return;
    }
    let _ = write!(
        out,
        "<g class=\"names\" fill=\"{TEXT}\" text-anchor=\"middle\" \
         dominant-baseline=\"central\" font-size=\"{}\">",
        Px(NAME_SIZE * s.picture.smallest_radius() * s.scale)
    );
    for cell in g.cells() {
        let [x, y] = s.centre(cell);
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            Px(x),
            Px(y + NAME_OFFSET * s.radius(cell)),
            escape(g.name(cell))
        );
    }
    out.push_str("</g>");
}

/// A piece: a disc in its army's colour with the kind's letter.
fn draw_piece(s: &Scaled, game: &Game, cell: Cell, piece: Piece, out: &mut String) {
    let army = piece.army().index();
    let c = player_colours(game, army);
    let ([x, y], r) = s.disc(cell);
    let _ = write!(
        out,
        "<g class=\"piece\" data-cell=\"{}\" data-army=\"{}\" data-kind=\"{}\">\
         <circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"/>\
         <text x=\"{}\" y=\"{}\" fill=\"{}\" font-size=\"{}\" font-weight=\"bold\" \
         text-anchor=\"middle\" dominant-baseline=\"central\">{}</text></g>",
        game.geometry.name(cell),
        game.letters[army],
        piece.kind().letter(),
        Px(x),
        Px(y),
        Px(r),
        c.fill,
        c.outline,
        Px(PIECE_OUTLINE * s.scale),
        Px(x),
        Px(y),
        c.ink,
        Px(r * PIECE_LETTER),
        piece.kind().letter(),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(svg: &str, needle: &str) -> usize {
        svg.matches(needle).count()
    }

    #[test]
    fn every_game_draws_every_cell_and_piece() {
        for v in Variant::ALL {
            let pos = Position::start(v);
            let svg = svg(&pos, DEFAULT_SIZE, &Marks::default());
            let g = &pos.game().geometry;
            assert_eq!(count(&svg, "class=\"cell\""), g.cell_count(), "{v}");
            assert_eq!(
                count(&svg, "class=\"piece\""),
                pos.occupied().count() as usize,
                "{v}"
            );
            assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>"));
            assert!(!svg.contains("NaN") && !svg.contains("inf"), "{v}");
        }
    }

    #[test]
    fn every_player_has_its_own_colours() {
        for v in Variant::ALL {
            let game = v.game();
            let all: Vec<Colours> = (0..game.players).map(|p| player_colours(game, p)).collect();
            for (i, a) in all.iter().enumerate() {
                assert_ne!(*a, OTHER_COLOURS, "{v}: player {i} has a colour name");
                assert!(all[..i].iter().all(|b| b.fill != a.fill), "{v}");
            }
        }
    }

    #[test]
    fn last_move_check_and_arrows_are_marked() {
        let moves = ["f2f3", "e7e5", "g2g4", "d8h4"];
        let (pos, last) =
            position_and_last_move(Variant::Chess, AfterMate::End, None, &moves).unwrap();
        let g = &pos.game().geometry;
        assert_eq!(last, Some((g.cell("d8").unwrap(), g.cell("h4").unwrap())));
        let arrows = parse_arrows(&pos, "e2e4, d7d8q,").unwrap();
        assert_eq!(arrows.len(), 2);
        let svg = svg(
            &pos,
            DEFAULT_SIZE,
            &Marks {
                last_move: last,
                arrows,
            },
        );
        assert_eq!(count(&svg, "class=\"last-move\""), 2);
        assert!(svg.contains("class=\"check\" data-cell=\"e1\""));
        assert_eq!(count(&svg, "class=\"arrow\""), 2);
    }

    #[test]
    fn bad_arrows_and_sizes_are_refused() {
        let pos = Position::start(Variant::Dreierschach);
        assert!(parse_arrow(&pos, "a1a2").is_ok());
        assert!(parse_arrow(&pos, "a1z9").unwrap_err().contains("z9"));
        assert!(parse_arrow(&pos, "").is_err());
        assert!(check_size(MIN_SIZE - 1).is_err());
        assert!(check_size(MAX_SIZE + 1).is_err());
        assert_eq!(check_size(DEFAULT_SIZE), Ok(DEFAULT_SIZE));
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }
}
