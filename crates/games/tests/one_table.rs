//! The games table is the only list of bundled games: no other non-test source file of the
//! workspace names all five game ids. The same check as a shell line:
//!
//! ```text
//! git ls-files '*.rs' | grep -v -e '/tests/' -e 'tests\.rs$' | xargs grep -l '"fourshift"' |
//!   xargs grep -l '"clamp"' | xargs grep -l '"amazons"' | xargs grep -l '"gomoku"' |
//!   xargs grep -l '"connect6"'
//! ```
//!
//! which must print `crates/games/src/table.rs` alone.

use std::{
    fs,
    path::{Path, PathBuf},
};

use boardlab_games::GameId;

/// Every `.rs` file under `dir`, build output and test files left out.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !name.starts_with('.') && !matches!(name.as_str(), "target" | "tests" | "corpus") {
                sources(&path, out);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" {
            out.push(path);
        }
    }
}

#[test]
fn the_five_game_ids_appear_together_only_in_the_games_table() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for dir in ["crates", "examples", "benches", "fuzz"] {
        sources(&root.join(dir), &mut files);
    }
    assert!(files.len() > 100, "the walk found the workspace's sources");
    let listing_all: Vec<String> = files
        .iter()
        .filter(|path| {
            let text = fs::read_to_string(path).unwrap_or_default();
            GameId::ALL
                .iter()
                .all(|id| text.contains(&format!("\"{id}\"")))
        })
        .map(|path| {
            path.strip_prefix(&root)
                .unwrap_or(path)
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    assert_eq!(listing_all, ["crates/games/src/table.rs"]);
}
