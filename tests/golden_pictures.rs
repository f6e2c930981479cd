//! Golden pictures: every game's start position drawn as SVG, rasterised
//! to pixels (resvg) and compared with the PNG kept in `tests/data/golden/`
//! within a tolerance, so that a change to how a board looks is seen.
//!
//! After a change meant to alter the pictures, look at the new ones and
//! keep them: `TRISKEL_BLESS=1 cargo test --release --test
//! golden_pictures` writes them. A failing comparison leaves the picture
//! it drew in `target/golden-actual/` to look at beside the golden one.

use resvg::{tiny_skia, usvg};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use triskel::position::Position;
use triskel::render::{self, Marks};
use triskel::variants::Variant;

/// The width of the golden pictures, in pixels.
const GOLDEN_SIZE: u32 = 400;
/// How far a pixel's channel may differ before the pixel counts as
/// different (anti-aliasing and font hinting move edges a little).
const CHANNEL_TOLERANCE: u8 = 48;
/// The share of pixels that may differ: the font and the rasteriser are
/// fixed, so only arithmetic on another processor may move a few edge
/// pixels; one pawn's move changes four to ten times as many.
const DIFFERENT_SHARE_ALLOWED: f64 = 0.0005;
/// Set to `1` to write the golden pictures instead of comparing.
const BLESS_ENV: &str = "TRISKEL_BLESS";

/// Every board once (pyramid-ep draws the pyramid's board).
const GAMES: [Variant; 6] = [
    Variant::Chess,
    Variant::Dreierschach,
    Variant::Hexenschach,
    Variant::Trichess,
    Variant::Star,
    Variant::Pyramid,
];

/// The one font the labels and glyphs are drawn in here (Debian's
/// `fonts-dejavu-core`), whatever else the machine has, so that every
/// machine draws the same letters.
const FONT_FILE: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
const FONT_FAMILY: &str = "DejaVu Sans";

/// The font database, loaded once for every picture.
fn fonts() -> Arc<usvg::fontdb::Database> {
    static FONTS: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    Arc::clone(FONTS.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_file(FONT_FILE)
            .unwrap_or_else(|e| panic!("{FONT_FILE}: {e} (apt-get install fonts-dejavu-core)"));
        db.set_sans_serif_family(FONT_FAMILY);
        Arc::new(db)
    }))
}

/// `pos` drawn at the golden size, as pixels.
fn rasterise(pos: &Position) -> tiny_skia::Pixmap {
    let svg = render::svg(pos, GOLDEN_SIZE, &Marks::default());
    let options = usvg::Options {
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(&svg, &options).expect("the picture is SVG that usvg reads");
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).expect("a picture size");
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
}

/// The share of pixels of `a` and `b` that differ beyond the tolerance
/// (1 if the sizes differ).
fn different_share(a: &tiny_skia::Pixmap, b: &tiny_skia::Pixmap) -> f64 {
    if (a.width(), a.height()) != (b.width(), b.height()) {
        return 1.0;
    }
    let different = a
        .data()
        .chunks_exact(4)
        .zip(b.data().chunks_exact(4))
        .filter(|(p, q)| {
            p.iter()
                .zip(q.iter())
                .any(|(x, y)| x.abs_diff(*y) > CHANNEL_TOLERANCE)
        })
        .count();
    different as f64 / f64::from(a.width() * a.height())
}

fn golden_path(variant: Variant) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/golden")
        .join(format!("{}.png", variant.id()))
}

#[test]
fn every_start_position_looks_as_its_golden_picture() {
    let bless = std::env::var(BLESS_ENV).as_deref() == Ok("1");
    let mut failures = Vec::new();
    for variant in GAMES {
        let drawn = rasterise(&Position::start(variant));
        let path = golden_path(variant);
        if bless {
            drawn
                .save_png(&path)
                .expect("the golden picture is written");
            continue;
        }
        let golden = tiny_skia::Pixmap::load_png(&path)
            .unwrap_or_else(|e| panic!("{}: {e} ({BLESS_ENV}=1 writes it)", path.display()));
        let share = different_share(&drawn, &golden);
        if share > DIFFERENT_SHARE_ALLOWED {
            let actual = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/golden-actual");
            std::fs::create_dir_all(&actual).unwrap();
            let kept = actual.join(format!("{}.png", variant.id()));
            drawn.save_png(&kept).unwrap();
            failures.push(format!(
                "{variant}: {:.2} % of the pixels differ (drawn: {})",
                share * 100.0,
                kept.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_tolerance_sees_a_move() {
    for variant in GAMES {
        let start = Position::start(variant);
        let mut moved = start.clone();
        let first = moved.legal_moves()[0];
        moved.make(first);
        let share = different_share(&rasterise(&start), &rasterise(&moved));
        eprintln!(
            "{variant}: one move changes {:.3} % of the pixels",
            share * 100.0
        );
        assert!(
            share > DIFFERENT_SHARE_ALLOWED,
            "{variant}: one move changes only {:.3} % of the pixels",
            share * 100.0
        );
    }
}
