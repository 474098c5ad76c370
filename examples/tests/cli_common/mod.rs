//! Running the `boardlab` binary on piped input in a fresh working directory: the helpers
//! the terminal and command-line tests share.
// Each test file uses a different subset of these helpers.
#![allow(dead_code)]

use std::{
    io::Write,
    path::{Path, PathBuf},
    process::{Command, Stdio},
};

pub const BIN: &str = env!("CARGO_BIN_EXE_boardlab");

/// A fresh, empty working directory for one test of `suite` (save files are written
/// relative to it).
pub fn workdir(suite: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("boardlab-{suite}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}

/// What a run printed, and how it ended.
pub struct Run {
    pub stdout: String,
    pub stderr: String,
    /// The exit code; `None` when a signal ended it.
    pub code: Option<i32>,
}

impl Run {
    /// Whether it exited with 0.
    pub fn success(&self) -> bool {
        self.code == Some(0)
    }
}

/// Runs `boardlab args` in `dir` with `input` piped to it.
pub fn run(dir: &Path, args: &[&str], input: &str) -> Run {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start boardlab");
    // A command that fails at once (a bad argument) may exit before reading its input.
    if let Err(e) = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
    {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
    }
    let out = child.wait_with_output().expect("wait for boardlab");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code(),
    }
}
