//! The UCI-style engine protocol (`protocols::ugi`) on arbitrary GUI lines: every line is
//! answered or ignored without a panic, each reply line is bounded, a search always hands
//! the game back, and no input makes the engine hold more heap than its hash table and a
//! little more.
//!
//! Two kinds of line are tamed so that one input stays fast, since they are legitimate
//! requests rather than hostile ones: every `go` gets ` nodes 2000 movetime 20` appended
//! (later words win, so the search is short unless the fuzzed arguments are refused), and
//! a `setoption` of Hash above 64 MB or Threads above 4 is dropped (their ranges are
//! checked by the crate's tests; here they would only make the target slow).
#![no_main]

mod peak_alloc;

use std::{
    io::{self, Write},
    sync::{Arc, Mutex},
};

use libfuzzer_sys::fuzz_target;
use protocols::{
    lines::parse_saturating,
    ugi::{self, EngineSession, Output},
};

#[global_allocator]
static ALLOC: peak_alloc::Counting = peak_alloc::Counting;

/// Most heap one input may take beyond what was live before it: a 64 MB hash table plus
/// the positions, tables and replies around it.
const MAX_HEAP: usize = 96 << 20;
const MAX_LINES: usize = 48;

#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Shared {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap_or_else(|e| e.into_inner())).into_owned()
    }
}

/// The line to send for a fuzzed line (see the module docs), or `None` to drop it.
fn tame(line: &str) -> Option<String> {
    let t = line.trim();
    if t == "go" || t.starts_with("go ") || t.starts_with("go\t") {
        return Some(format!("{t} nodes 2000 movetime 20"));
    }
    if let Some(rest) = t.strip_prefix("setoption") {
        let rest = rest
            .trim()
            .strip_prefix("name")
            .unwrap_or(rest)
            .trim_start();
        if let Some((name, value)) = rest.split_once(" value") {
            let limit = match name.trim().to_ascii_lowercase().as_str() {
                "hash" => 64,
                "threads" => 4,
                _ => i64::MAX,
            };
            if parse_saturating(value).is_some_and(|v| v > limit) {
                return None;
            }
        }
    }
    Some(line.to_string())
}

fuzz_target!(
    init: {
        // A 10 MB line is refused with an error and the engine goes on.
        let mut input = b"ugi\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 10 << 20));
        input.extend(b"\nisready\nquit\n");
        let out = Shared::default();
        let base = peak_alloc::reset_peak();
        ugi::run(&input[..], Output::new(out.clone())).expect("in-memory I/O cannot fail");
        let used = peak_alloc::peak() - base;
        assert!(used < 1 << 20, "a 10 MB line made the engine hold {used} bytes");
        let text = out.text();
        assert!(text.contains("ugiok\ninfo string error: line longer"), "{text}");
        assert!(text.ends_with("readyok\n"), "{text}");
    },
    |data: &[u8]| {
        let base = peak_alloc::reset_peak();
        let out = Shared::default();
        let mut session = EngineSession::new(Output::new(out.clone()));
        let text = String::from_utf8_lossy(data);
        for line in text.lines().take(MAX_LINES) {
            let Some(line) = tame(line) else { continue };
            if session.handle(&line) == ugi::Flow::Quit {
                break;
            }
        }
        session.shutdown();
        assert!(!session.searching(), "a search is still running after shutdown");
        let used = peak_alloc::peak() - base;
        assert!(used <= MAX_HEAP, "one input made the engine hold {used} bytes");
        drop(session);
        for reply in out.text().lines() {
            assert!(reply.len() <= 16 << 10, "reply line of {} bytes", reply.len());
        }
    }
);
