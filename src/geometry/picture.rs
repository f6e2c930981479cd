//! Boards as pictures: every cell as a polygon in board units (x to the
//! right, y downwards), computed from the cell's coordinates by the board's
//! module when the board is built. The renderer (`crate::render`) and the
//! `geometry` command read only this, never the game.

/// A point of a picture, `[x, y]` in board units.
pub type Point = [f64; 2];

/// The two cell colours of checkered boards: light, dark.
pub const LIGHT_AND_DARK: [&str; 2] = ["#f0d9b5", "#b58863"];

/// The three cell colours of the hexagonal boards, by `(q + r) mod 3`:
/// black, white, brown (Dreierschach's rule book), drawn light enough that
/// every army's pieces stand out on them.
pub const THREE_SHADES: [&str; 3] = ["#8c8c8c", "#f4f1e8", "#c49a6c"];

/// Room around the board, in board units, for the coordinates.
const MARGIN: f64 = 0.6;

/// One cell as drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct CellShape {
    /// The corners, in order around the cell.
    pub outline: Vec<Point>,
    /// Where the cell's piece stands.
    pub centre: Point,
    /// The radius of the largest circle about the centre inside the cell.
    pub inner_radius: f64,
    /// The cell's colour, an index into [`Picture::shades`].
    pub shade: usize,
    /// The level (from 1) on boards of several levels.
    pub level: Option<u8>,
}

impl CellShape {
    /// The cell with corners `outline`, its centre their mean.
    pub fn new(outline: Vec<Point>, shade: usize, level: Option<u8>) -> CellShape {
        let n = outline.len() as f64;
        let centre = [
            outline.iter().map(|p| p[0]).sum::<f64>() / n,
            outline.iter().map(|p| p[1]).sum::<f64>() / n,
        ];
        let inner_radius = (0..outline.len())
            .map(|i| distance_to_segment(centre, outline[i], outline[(i + 1) % outline.len()]))
            .fold(f64::INFINITY, f64::min);
        CellShape {
            outline,
            centre,
            inner_radius,
            shade,
            level,
        }
    }
}

/// The distance from `p` to the segment from `a` to `b`.
fn distance_to_segment(p: Point, a: Point, b: Point) -> f64 {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let length2 = dx * dx + dy * dy;
    let t = if length2 == 0.0 {
        0.0
    } else {
        (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2).clamp(0.0, 1.0)
    };
    let (cx, cy) = (a[0] + t * dx, a[1] + t * dy);
    ((p[0] - cx).powi(2) + (p[1] - cy).powi(2)).sqrt()
}

/// A text drawn beside the board: a coordinate or a title.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// The text (ASCII).
    pub text: String,
    /// Its centre.
    pub at: Point,
}

/// How a board is drawn: its cells by cell index, the colours of the cells
/// and the labels around them, all inside `0..width × 0..height`.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    /// Every cell, by cell index.
    pub cells: Vec<CellShape>,
    /// The cell colours (CSS colours), by [`CellShape::shade`].
    pub shades: &'static [&'static str],
    /// Coordinates and titles.
    pub labels: Vec<Label>,
    /// Whether each cell carries its name (boards whose coordinates do not
    /// run along straight edges).
    pub names_in_cells: bool,
    /// Width in board units.
    pub width: f64,
    /// Height in board units.
    pub height: f64,
}

impl Picture {
    /// The picture of `cells` and `labels`, moved so that everything lies
    /// inside the picture with a margin around it.
    pub fn new(
        mut cells: Vec<CellShape>,
        shades: &'static [&'static str],
        mut labels: Vec<Label>,
        names_in_cells: bool,
    ) -> Picture {
        let points = cells
            .iter()
            .flat_map(|c| c.outline.iter().copied())
            .chain(labels.iter().map(|l| l.at));
        let (mut low, mut high) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for p in points {
            for axis in 0..2 {
                low[axis] = low[axis].min(p[axis]);
                high[axis] = high[axis].max(p[axis]);
            }
        }
        let shift = |p: &mut Point| {
            for axis in 0..2 {
                p[axis] += MARGIN - low[axis];
            }
        };
        for cell in &mut cells {
            cell.outline.iter_mut().for_each(shift);
            shift(&mut cell.centre);
        }
        labels.iter_mut().for_each(|l| shift(&mut l.at));
        Picture {
            cells,
            shades,
            labels,
            names_in_cells,
            width: high[0] - low[0] + 2.0 * MARGIN,
            height: high[1] - low[1] + 2.0 * MARGIN,
        }
    }

    /// The smallest inner radius of any cell: the size of the cell names.
    pub fn smallest_radius(&self) -> f64 {
        self.cells
            .iter()
            .map(|c| c.inner_radius)
            .fold(f64::INFINITY, f64::min)
    }
}

/// The square with top-left corner `(x, y)` and side 1.
pub fn unit_square(x: f64, y: f64) -> Vec<Point> {
    vec![[x, y], [x + 1.0, y], [x + 1.0, y + 1.0], [x, y + 1.0]]
}

/// The point a fraction `u` of the way from `a` to `b`.
pub fn lerp(a: Point, b: Point, u: f64) -> Point {
    [a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u]
}

/// The point `(u, v)` (both `0..=1`) of the quadrilateral with corners
/// `corners` = (u, v) at (0, 0), (1, 0), (1, 1), (0, 1).
pub fn bilinear(corners: [Point; 4], u: f64, v: f64) -> Point {
    let bottom = lerp(corners[0], corners[1], u);
    let top = lerp(corners[3], corners[2], u);
    lerp(bottom, top, v)
}

/// `p` turned by `angle` (radians) about `centre`.
pub fn rotate(p: Point, centre: Point, angle: f64) -> Point {
    let (s, c) = angle.sin_cos();
    let (dx, dy) = (p[0] - centre[0], p[1] - centre[1]);
    [centre[0] + dx * c - dy * s, centre[1] + dx * s + dy * c]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_picture_is_moved_inside_its_margin() {
        let close = |a: Point, b: Point| (a[0] - b[0]).abs() + (a[1] - b[1]).abs() < 1e-12;
        let cells = vec![CellShape::new(unit_square(-3.0, 5.0), 0, None)];
        let p = Picture::new(cells, &["#fff"], Vec::new(), false);
        assert!(close(p.cells[0].outline[0], [MARGIN, MARGIN]));
        assert!(close(p.cells[0].centre, [MARGIN + 0.5, MARGIN + 0.5]));
        let side = 1.0 + 2.0 * MARGIN;
        assert!(close([p.width, p.height], [side, side]));
        assert!((p.cells[0].inner_radius - 0.5).abs() < 1e-12);
    }

    #[test]
    fn bilinear_corners_and_rotation() {
        let q = [[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]];
        assert_eq!(bilinear(q, 1.0, 1.0), [2.0, 2.0]);
        assert_eq!(bilinear(q, 0.5, 0.25), [1.0, 0.5]);
        let r = rotate([1.0, 0.0], [0.0, 0.0], std::f64::consts::FRAC_PI_2);
        assert!((r[0]).abs() < 1e-12 && (r[1] - 1.0).abs() < 1e-12);
    }
}
