//! Boards drawn as text for the protocol's `d` command: every cell shows its
//! piece as army letter and piece letter (`wK`, `nP`) or ` .`, laid out in
//! the board's own shape with coordinates.

use crate::game::{RowLabel, TextLayout};
use crate::position::Position;
use crate::types::Cell;
use std::fmt::Write;

/// Width of one drawn cell in a grid, including spacing.
const GRID_CELL_WIDTH: usize = 4;

/// Rows of the pyramid's levels, bottom level first.
const LEVEL_ROWS: [usize; 4] = [8, 6, 4, 2];

impl Position {
    /// The board as text, in the game's shape.
    pub fn board_text(&self) -> String {
        match self.game().facts.text_layout {
            TextLayout::Grid(label) => self.grid_text(&self.game().rows, "", label),
            TextLayout::Hexagon => self.hexagon_text(),
            TextLayout::Levels => self.levels_text(),
            TextLayout::Sections(label) => self.sections_text(label),
        }
    }

    /// The two-character token of `cell`: army letter and piece letter, or ` .`.
    pub fn cell_token(&self, cell: Cell) -> String {
        match self.piece_at(cell) {
            Some(p) => format!(
                "{}{}",
                self.game().letters[p.army().index()],
                p.kind().letter()
            ),
            None => " .".to_string(),
        }
    }

    /// Rows drawn as a grid; each row labelled by the part of its cell names
    /// all cells share, each column by the part that differs.
    fn grid_text(&self, rows: &[Vec<Cell>], title: &str, label: RowLabel) -> String {
        let g = &self.game().geometry;
        let mut out = String::new();
        if !title.is_empty() {
            let _ = writeln!(out, "{title}");
        }
        let mut columns = Vec::new();
        for row in rows {
            let names: Vec<&str> = row.iter().map(|&c| g.name(c)).collect();
            let (row_label, cols) = split_row(label, &names);
            let mut line = format!("{row_label:>4} |");
            for &cell in row {
                let _ = write!(line, " {} ", self.cell_token(cell));
            }
            out.push_str(line.trim_end());
            out.push('\n');
            columns = cols;
        }
        let mut line = format!("{:>4}  ", "");
        for c in columns {
            let _ = write!(line, "{c:^width$}", width = GRID_CELL_WIDTH);
        }
        out.push_str(line.trim_end());
        out.push('\n');
        out
    }

    /// Each section of Trichess or Star as its owner sees it, row 4 on top.
    fn sections_text(&self, label: RowLabel) -> String {
        let game = self.game();
        game.rows
            .chunks(4)
            .enumerate()
            .map(|(s, rows)| {
                let title = format!("{} ({}):", game.player_names[s], game.letters[s]);
                self.grid_text(rows, &title, label)
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The four levels of the pyramid side by side.
    fn levels_text(&self) -> String {
        let game = self.game();
        let mut levels: Vec<Vec<String>> = Vec::new();
        let mut start = 0;
        for size in LEVEL_ROWS {
            let text = self.grid_text(&game.rows[start..start + size], "", RowLabel::Affixes);
            levels.push(text.lines().map(str::to_string).collect());
            start += size;
        }
        let height = levels.iter().map(Vec::len).max().unwrap_or(0);
        let width: Vec<usize> = levels
            .iter()
            .map(|l| l.iter().map(|s| s.chars().count()).max().unwrap_or(0))
            .collect();
        let mut out = String::new();
        for (i, w) in width.iter().enumerate() {
            let _ = write!(out, "{:<w$}   ", format!("      level {}", i + 1));
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
        for line in 0..height {
            for (i, level) in levels.iter().enumerate() {
                // Smaller levels sit vertically centred, like the pyramid seen from above.
                let offset = (height - level.len()) / 2;
                let text = line
                    .checked_sub(offset)
                    .and_then(|k| level.get(k))
                    .map_or("", String::as_str);
                let _ = write!(out, "{text:<w$}   ", w = width[i]);
            }
            out.truncate(out.trim_end().len());
            out.push('\n');
        }
        out
    }

    /// A hexagonal board drawn as a hexagon: pointy-top cells, each row
    /// shifted half a cell against the next, ranks on the left.
    fn hexagon_text(&self) -> String {
        let game = self.game();
        let g = &game.geometry;
        let coords = |c: Cell| {
            let name = g.name(c);
            let q = i32::from(name.as_bytes()[0] - b'a');
            let r: i32 = name[1..].parse::<i32>().unwrap_or(1) - 1;
            (q, r)
        };
        let column = |c: Cell| {
            let (q, r) = coords(c);
            2 * (2 * q - r)
        };
        let leftmost = g.cells().into_iter().map(column).min().unwrap_or(0);
        let mut out = String::new();
        for row in &game.rows {
            let rank = coords(row[0]).1 + 1;
            let _ = write!(out, "{rank:>3} ");
            let mut line = String::new();
            for &cell in row {
                let at = (column(cell) - leftmost) as usize;
                while line.len() < at {
                    line.push(' ');
                }
                let _ = write!(line, "{}  ", self.cell_token(cell));
            }
            let (first, last) = (row[0], row[row.len() - 1]);
            let _ = write!(line, "  {}-{}", g.name(first), g.name(last));
            out.push_str(line.trim_end());
            out.push('\n');
        }
        let bottom = &game.rows[game.rows.len() - 1];
        let _ = write!(out, "    ");
        let mut line = String::new();
        for &cell in bottom {
            let at = (column(cell) - leftmost) as usize;
            while line.len() < at {
                line.push(' ');
            }
            let file = &g.name(cell)[..1];
            let _ = write!(line, "{file:^2}  ");
        }
        out.push_str(line.trim_end());
        out.push('\n');
        out
    }
}

/// Splits a row's names into the row label (the part `label` says they
/// share) and the column labels.
fn split_row(label: RowLabel, names: &[&str]) -> (String, Vec<String>) {
    let common_prefix = |names: &[&str]| {
        let first = names.first().copied().unwrap_or("");
        (0..=first.len())
            .rev()
            .find(|&n| {
                first.is_char_boundary(n) && names.iter().all(|s| s.starts_with(&first[..n]))
            })
            .unwrap_or(0)
    };
    let common_suffix = |names: &[&str]| {
        let first = names.first().copied().unwrap_or("");
        (0..=first.len())
            .rev()
            .find(|&n| {
                first.is_char_boundary(first.len() - n)
                    && names.iter().all(|s| s.ends_with(&first[first.len() - n..]))
            })
            .unwrap_or(0)
    };
    let first = names.first().copied().unwrap_or("");
    match label {
        RowLabel::Suffix => {
            let n = common_suffix(names);
            let cols = names.iter().map(|s| s[..s.len() - n].to_string()).collect();
            (first[first.len() - n..].to_string(), cols)
        }
        RowLabel::Prefix => {
            let n = common_prefix(names);
            (
                first[..n].to_string(),
                names.iter().map(|s| s[n..].to_string()).collect(),
            )
        }
        RowLabel::Affixes => {
            let p = common_prefix(names);
            let rest: Vec<&str> = names.iter().map(|s| &s[p..]).collect();
            let n = common_suffix(&rest);
            let cols = rest.iter().map(|s| s[..s.len() - n].to_string()).collect();
            let rest0 = rest.first().copied().unwrap_or("");
            (rest0[rest0.len() - n..].to_string(), cols)
        }
    }
}
