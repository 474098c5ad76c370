//! A report command whose reader goes away (`boardlab perft ... | head -1`) ends quietly:
//! no panic message, success status.
#![allow(clippy::unwrap_used)]

use std::{
    io::{BufRead, BufReader, Read},
    process::{Command, Stdio},
};

#[test]
fn perft_divide_into_a_closed_pipe_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardlab"))
        // 64,620 lines (Connect6 pairs), far more than a pipe buffers: the writer is
        // still writing when the reader goes away.
        .args(["perft", "connect6", "1", "--moves", "j10", "--divide"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first, "a1,b1 1\n");
    // The reader is dropped here: every later write meets a closed pipe.
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(!err.contains("panicked"), "stderr: {err}");
    assert!(status.success(), "status {status:?}, stderr: {err}");
}
