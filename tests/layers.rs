//! The crate's layers (the table at the top of `src/lib.rs`) have no back
//! edges: no module of a layer uses a module of a higher one, and no code
//! outside the games' files and their registry names a particular game.
//! Test code (`#[cfg(test)]` items) may use anything.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// The source folder.
fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// The layer of each module, from `src/lib.rs`'s table: rows
/// `//! | <layer> | `module`, `module` | ... |`.
fn layers() -> BTreeMap<String, usize> {
    let lib = fs::read_to_string(src().join("lib.rs")).unwrap();
    let mut layers = BTreeMap::new();
    for line in lib.lines() {
        let Some(row) = line.strip_prefix("//! | ") else {
            continue;
        };
        let cells: Vec<&str> = row.split(" | ").collect();
        let Ok(layer) = cells[0].trim().parse::<usize>() else {
            continue;
        };
        for module in cells[1].split(',') {
            layers.insert(module.trim().trim_matches('`').to_string(), layer);
        }
    }
    assert!(layers.len() > 10, "src/lib.rs has no layer table");
    layers
}

/// The names of the games' files under `src/variants/` (the files but the
/// registry's `mod.rs`).
fn game_files() -> Vec<String> {
    rust_files(&src().join("variants"))
        .iter()
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .filter(|name| name != "mod")
        .collect()
}

/// The module `path` belongs to, as the table names it: the top-level
/// module, or `variants::*` for a game's file.
fn module_of(path: &Path) -> String {
    let relative = path.strip_prefix(src()).unwrap();
    let mut parts = relative.iter().map(|p| p.to_string_lossy().into_owned());
    let first = parts.next().unwrap();
    if first == "variants" && parts.next().is_some_and(|f| f != "mod.rs") {
        return "variants::*".to_string();
    }
    first.trim_end_matches(".rs").to_string()
}

/// `text` without its test items (an item after `#[cfg(test)]`: a block to
/// its closing brace, or one line) and without comments.
fn code_without_tests(text: &str) -> Vec<(usize, String)> {
    let mut kept = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") {
            let mut depth = 0i32;
            for (_, item) in lines.by_ref() {
                depth += braces(item);
                if depth <= 0 && (item.trim_end().ends_with('}') || item.trim_end().ends_with(';'))
                {
                    break;
                }
            }
            continue;
        }
        if trimmed.starts_with("//") {
            continue;
        }
        let code = line.split(" //").next().unwrap_or(line);
        kept.push((n + 1, code.to_string()));
    }
    kept
}

/// Opening minus closing braces of `line`, outside strings and characters.
fn braces(line: &str) -> i32 {
    let mut depth = 0;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                while let Some(d) = chars.next() {
                    match d {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '\'' => {
                // A character literal ('{', '\'') or a lifetime ('a).
                let rest: String = chars.clone().take(3).collect();
                if rest.starts_with('\\') {
                    chars.nth(2);
                } else if rest.chars().nth(1) == Some('\'') {
                    chars.nth(1);
                }
            }
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
    }
    depth
}

/// The first two path segments after each `prefix` in `line`: `crate::a::b`
/// gives `("a", "b")`.
fn paths_after(line: &str, prefix: &str) -> Vec<(String, String)> {
    let segment = |text: &str| -> String {
        text.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    line.match_indices(prefix)
        .map(|(at, _)| {
            let after = &line[at + prefix.len()..];
            let first = segment(after);
            let second = segment(after[first.len()..].strip_prefix("::").unwrap_or(""));
            (first, second)
        })
        .collect()
}

/// The modules `line` of the file of `module` refers to: `crate::x` paths
/// (`crate::variants::<game file>` is `variants::*`), and in a game's file
/// `super::` paths (the registry, or another game's file).
fn references(line: &str, module: &str, games: &[String]) -> Vec<String> {
    let mut found: Vec<String> = paths_after(line, "crate::")
        .into_iter()
        .map(|(first, second)| {
            if first == "variants" && games.contains(&second) {
                "variants::*".to_string()
            } else {
                first
            }
        })
        .collect();
    if module == "variants::*" {
        found.extend(paths_after(line, "super::").into_iter().map(|(first, _)| {
            if games.contains(&first) {
                "variants::*".to_string()
            } else {
                "variants".to_string()
            }
        }));
    }
    found
}

#[test]
fn no_module_uses_a_higher_layer() {
    let layers = layers();
    let games = game_files();
    let mut back_edges = Vec::new();
    for path in rust_files(&src()) {
        let module = module_of(&path);
        if module == "lib" {
            continue;
        }
        let layer = *layers.get(&module).unwrap_or_else(|| {
            panic!(
                "{}: module {module} is in no layer of src/lib.rs",
                path.display()
            )
        });
        let text = fs::read_to_string(&path).unwrap();
        for (n, line) in code_without_tests(&text) {
            for used in references(&line, &module, &games) {
                let Some(&used_layer) = layers.get(&used) else {
                    continue;
                };
                if used_layer > layer {
                    back_edges.push(format!(
                        "{}:{n}: {module} (layer {layer}) uses {used} (layer {used_layer})",
                        path.display()
                    ));
                }
            }
        }
    }
    assert!(
        back_edges.is_empty(),
        "back edges:\n{}",
        back_edges.join("\n")
    );
}

#[test]
fn only_the_games_files_and_their_registry_name_a_game() {
    let games = game_files();
    let names = [
        "Chess",
        "Dreierschach",
        "Hexenschach",
        "Pyramid",
        "PyramidEp",
        "Trichess",
        "Star",
    ];
    let mut named = Vec::new();
    for path in rust_files(&src()) {
        let module = module_of(&path);
        // The games' files and the registry; the list of ids itself.
        if module == "variants::*" || module == "variants" || path.ends_with("game/mod.rs") {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        for (n, line) in code_without_tests(&text) {
            let variant = names.iter().any(|name| {
                line.contains(&format!("Variant::{name}")) && {
                    let after = line.split(&format!("Variant::{name}")).nth(1).unwrap_or("");
                    !after.starts_with(|c: char| c.is_ascii_alphanumeric())
                }
            });
            let file = games.iter().any(|g| line.contains(&format!("{g}::")));
            if variant || file {
                named.push(format!("{}:{n}: {}", path.display(), line.trim()));
            }
        }
    }
    assert!(
        named.is_empty(),
        "a game named outside its file:\n{}",
        named.join("\n")
    );
}

#[test]
fn the_checker_sees_a_back_edge_and_a_name() {
    let games = game_files();
    assert_eq!(
        references("use crate::search::Searcher;", "position", &games),
        ["search"]
    );
    assert_eq!(
        references("use super::Game;", "variants::*", &games),
        ["variants"]
    );
    assert_eq!(
        references("use super::sections::rows;", "variants::*", &games),
        ["variants::*"]
    );
    let code =
        code_without_tests("use a;\n#[cfg(test)]\nmod tests {\n    use crate::x;\n}\nuse b;\n");
    let kept: Vec<&str> = code.iter().map(|(_, l)| l.as_str()).collect();
    assert_eq!(kept, ["use a;", "use b;"]);
    assert_eq!(braces("let s = \"{\"; let c = '{'; fn f<'a>() {"), 1);
}
