//! The protocol documents live in the repository's `docs/`, and the code points to them
//! there: no module names a file outside the repository.

use std::path::{Path, PathBuf};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("examples/ has a parent")
        .to_path_buf()
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "target") {
                rust_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn protocol_modules_link_to_documents_inside_the_repository() {
    let root = repo_root();
    let mut files = Vec::new();
    rust_files(&root.join("crates"), &mut files);
    rust_files(&root.join("examples").join("src"), &mut files);
    assert!(files.len() > 20, "found only {} source files", files.len());
    for file in &files {
        let text = std::fs::read_to_string(file).expect("read source");
        for outside in ["shared/spec", "/work/"] {
            assert!(
                !text.contains(outside),
                "{} points outside the repository ({outside})",
                file.display()
            );
        }
        // Every `docs/...md` a module names exists.
        for (at, _) in text.match_indices("docs/") {
            let rest = &text[at..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || "/-_.".contains(c)))
                .unwrap_or(rest.len());
            let named = rest[..end].trim_end_matches('.');
            if named.ends_with(".md") {
                assert!(
                    root.join(named).is_file(),
                    "{} names {named}, which is not in the repository",
                    file.display()
                );
            }
        }
    }
    // Each protocol module names its document.
    for (module, doc) in [
        ("crates/protocols/src/ugi.rs", "docs/protocol-engine.md"),
        ("crates/protocols/src/pbrain.rs", "docs/protocol-gomocup.md"),
        (
            "crates/protocols/src/botzone.rs",
            "docs/protocol-botzone.md",
        ),
        (
            "crates/arena/src/external/ugi.rs",
            "docs/protocol-engine.md",
        ),
        (
            "crates/arena/src/external/pbrain.rs",
            "docs/protocol-gomocup.md",
        ),
        (
            "crates/arena/src/external/botzone.rs",
            "docs/protocol-botzone.md",
        ),
    ] {
        let text = std::fs::read_to_string(root.join(module)).expect("read module");
        assert!(text.contains(doc), "{module} does not name {doc}");
    }
}

#[test]
fn the_readme_points_to_every_protocol_document() {
    let root = repo_root();
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README");
    for doc in [
        "docs/protocol-engine.md",
        "docs/protocol-gomocup.md",
        "docs/protocol-botzone.md",
        "docs/server-protocol.md",
    ] {
        assert!(readme.contains(doc), "README does not name {doc}");
        assert!(root.join(doc).is_file(), "{doc} is missing");
    }
}
