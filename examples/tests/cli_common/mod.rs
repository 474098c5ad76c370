//! Running the `boardlab` binary on piped input in a fresh working directory: the helpers
//! the terminal and command-line tests share.
// Each test file uses a different subset of these helpers.
#![allow(dead_code)]

use std::{
    io::Write,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::Duration,
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

/// What a pseudo-terminal showed, and how the run ended.
pub struct TerminalRun {
    /// Everything the terminal showed: stdout and stderr together.
    pub shown: String,
    /// The exit code; `None` when a signal ended it.
    pub code: Option<i32>,
}

/// Runs `boardlab args` in `dir` on a pseudo-terminal (util-linux `script`), typing
/// `lines` one by one.
pub fn run_at_terminal(dir: &Path, args: &[&str], lines: &[&str]) -> TerminalRun {
    let command = std::iter::once(BIN)
        .chain(args.iter().copied())
        .collect::<Vec<_>>()
        .join(" ");
    let mut child = Command::new("script")
        .args(["-q", "-e", "-c", &command, "/dev/null"])
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("script (util-linux) runs boardlab on a pseudo-terminal");
    let mut stdin = child.stdin.take().expect("stdin");
    for line in lines {
        // Typed one by one: the terminal would otherwise hand answers over early.
        std::thread::sleep(Duration::from_millis(200));
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .expect("type");
    }
    std::thread::sleep(Duration::from_millis(200));
    drop(stdin);
    let out = child.wait_with_output().expect("wait for script");
    TerminalRun {
        shown: String::from_utf8_lossy(&out.stdout).into_owned(),
        code: out.status.code(),
    }
}
