//! Driving a protocol binary as a child process: lines in, lines out with timeouts.
// Each test file uses a different subset of these helpers.
#![allow(dead_code)]

use std::{
    io::{BufRead, BufReader, Write},
    process::{Child, ChildStdin, Command, Stdio},
    sync::mpsc::{Receiver, channel},
    time::{Duration, Instant},
};

pub struct Proc {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Proc {
    pub fn spawn(exe: &str, args: &[&str]) -> Proc {
        let mut child = Command::new(exe)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the binary starts");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Proc {
            child,
            stdin,
            lines: rx,
        }
    }

    /// Sends raw bytes (the caller adds the line end).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to child");
        stdin.flush().expect("flush to child");
    }

    /// Sends one line ending in CR LF, as Piskvork does.
    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\r\n").as_bytes());
    }

    /// The next line, or `None` after `timeout`.
    pub fn recv(&self, timeout: Duration) -> Option<String> {
        self.lines.recv_timeout(timeout).ok()
    }

    /// The next line (10 s at most, or the test fails).
    pub fn line(&self) -> String {
        self.recv(Duration::from_secs(10))
            .expect("a reply within 10 s")
    }

    /// Lines up to and including the first one starting with `prefix`.
    pub fn until(&self, prefix: &str) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let l = self.line();
            let done = l.starts_with(prefix);
            out.push(l);
            if done {
                return out;
            }
        }
    }

    /// Closes stdin and waits (at most `timeout`) for the process to exit by itself.
    pub fn exits_within(mut self, timeout: Duration) -> bool {
        self.stdin = None;
        let start = Instant::now();
        while start.elapsed() < timeout {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        false
    }

    /// Whether the process has exited (without closing stdin).
    pub fn has_exited_within(&mut self, timeout: Duration) -> bool {
        let start = Instant::now();
        while start.elapsed() < timeout {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
