//! A child process spoken to line by line, with deadlines on every answer.

use std::{
    io::{BufRead, BufReader, Read, Write},
    process::{Child, ChildStdin, Command, Stdio},
    sync::mpsc::{self, Receiver, RecvTimeoutError},
    thread,
    time::{Duration, Instant},
};

use crate::player::Fault;

/// Longest line read from an engine; the rest of a longer line is cut off.
const MAX_LINE_BYTES: u64 = 1 << 16;

/// A running engine. Dropping it kills the process.
pub(crate) struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl EngineProcess {
    /// Starts `command` under `sh -c "exec <command>"` (so the engine itself, not a shell,
    /// is the child that a timeout kills), stdin and stdout piped, stderr discarded.
    pub(crate) fn spawn(command: &str) -> Result<EngineProcess, Fault> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("exec {command}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Fault::Crash(format!("cannot start '{command}': {e}")))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| Fault::Crash("no stdout pipe".into()))?;
        let stdin = child.stdin.take();
        let (tx, lines) = mpsc::channel();
        // The reader thread ends at the engine's EOF (it exited or was killed).
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader
                    .by_ref()
                    .take(MAX_LINE_BYTES)
                    .read_until(b'\n', &mut buf)
                {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&buf);
                        let line = text.trim_end_matches(['\n', '\r']).to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(EngineProcess {
            child,
            stdin,
            lines,
        })
    }

    /// Sends one line (LF-terminated unless `crlf`) and flushes.
    pub(crate) fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.send_with(line, "\n")
    }

    /// Sends one line ended by `end` and flushes.
    pub(crate) fn send_with(&mut self, line: &str, end: &str) -> Result<(), Fault> {
        let written = match self.stdin.as_mut() {
            Some(stdin) => stdin
                .write_all(line.as_bytes())
                .and_then(|()| stdin.write_all(end.as_bytes()))
                .and_then(|()| stdin.flush()),
            None => return Err(Fault::Crash("its input is closed".into())),
        };
        written.map_err(|_| self.crash_fault())
    }

    /// The next line, waiting until `deadline` at most.
    pub(crate) fn recv(&mut self, deadline: Instant, limit: Duration) -> Result<String, Fault> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(Fault::Timeout { limit })
            }
            Err(RecvTimeoutError::Disconnected) => Err(self.crash_fault()),
        }
    }

    /// Reads lines until one satisfies `accept` (which gives its value) or the deadline.
    pub(crate) fn recv_until<T>(
        &mut self,
        deadline: Instant,
        limit: Duration,
        mut accept: impl FnMut(&str) -> Option<Result<T, Fault>>,
    ) -> Result<T, Fault> {
        loop {
            let line = self.recv(deadline, limit)?;
            if let Some(result) = accept(line.trim()) {
                return result;
            }
        }
    }

    /// Whether the process has already ended, giving its status (and what the shell's
    /// 127 and 126 mean: the command was not found, or cannot be run).
    pub(crate) fn exited(&mut self) -> Option<String> {
        let status = self.child.try_wait().ok().flatten()?;
        Some(match status.code() {
            Some(127) => format!("{status}: the command was not found"),
            Some(126) => format!("{status}: the command cannot be run"),
            _ => status.to_string(),
        })
    }

    /// Closes stdin and gives the process `grace` to exit by itself, then kills it.
    pub(crate) fn finish(&mut self, grace: Duration) {
        self.stdin = None;
        let until = Instant::now() + grace;
        while Instant::now() < until {
            if self.exited().is_some() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The fault of an engine whose pipes broke: its exit status if it has one.
    fn crash_fault(&mut self) -> Fault {
        // The reader sees EOF a moment before the exit status is ready.
        let until = Instant::now() + Duration::from_millis(200);
        loop {
            if let Some(status) = self.exited() {
                return Fault::Crash(status);
            }
            if Instant::now() >= until {
                return Fault::Crash("closed its output".into());
            }
            thread::sleep(Duration::from_millis(2));
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if self.exited().is_none() {
            self.kill();
        }
    }
}
