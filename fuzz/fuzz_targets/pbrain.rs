//! The Piskvork/Gomocup brain (`protocols::pbrain`) on arbitrary manager lines: every line
//! is answered or ignored without a panic, a reply is a few short lines, nothing is answered
//! after `END`, and no input makes the brain hold more than a few MB. The same bytes are
//! also fed to the I/O loop `pbrain::run` (line splitting, CR/LF, invalid UTF-8).
//!
//! The brain plays with the random agent here: the protocol is under test, not the search
//! (a `TURN` with the engine thinks for up to `timeout_turn`, 5 s by default).
#![no_main]

mod peak_alloc;

use libfuzzer_sys::fuzz_target;
use protocols::pbrain::{self, PbrainSession};
use search::AgentKind;

#[global_allocator]
static ALLOC: peak_alloc::Counting = peak_alloc::Counting;

/// Most heap one input may take beyond what was live before it.
const MAX_HEAP: usize = 8 << 20;

fn run_io(input: &[u8]) -> String {
    let mut session = PbrainSession::new(AgentKind::Random);
    let mut out = Vec::new();
    pbrain::run(&mut session, input, &mut out).expect("in-memory I/O cannot fail");
    String::from_utf8(out).expect("replies are UTF-8")
}

fuzz_target!(
    init: {
        // The two hostile inputs of issue #6, once: a 10 MB line and an absurd board size.
        let mut input = b"START 15\n".to_vec();
        input.extend(std::iter::repeat_n(b'7', 10 << 20));
        input.extend(b"\nSTART 4000000000\nRECTSTART 4000000000,4000000000\nSTART 20\nEND\n");
        let base = peak_alloc::reset_peak();
        let out = run_io(&input);
        let used = peak_alloc::peak() - base;
        assert!(used < 1 << 20, "a 10 MB line made the brain hold {used} bytes");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 5, "{out}");
        assert_eq!(lines[0], "OK");
        assert!(lines[1].starts_with("ERROR line longer"), "{out}");
        assert!(lines[2].starts_with("ERROR unsupported board size"), "{out}");
        assert!(lines[3].starts_with("ERROR"), "{out}");
        assert_eq!(lines[4], "OK");
    },
    |data: &[u8]| {
        let base = peak_alloc::reset_peak();
        let text = String::from_utf8_lossy(data);
        let mut session = PbrainSession::new(AgentKind::Random).with_seed(7);
        for line in text.lines() {
            let was_ended = session.ended();
            let replies = session.handle(line);
            if was_ended {
                assert!(replies.is_empty(), "answered after END: {replies:?}");
            }
            assert!(replies.len() <= 3, "'{line}' got {} replies", replies.len());
            for r in &replies {
                assert!(r.len() <= 1024, "reply of {} bytes to '{line}'", r.len());
                assert!(!r.contains(['\n', '\r']), "multi-line reply {r:?}");
            }
        }
        let _ = run_io(data);
        let used = peak_alloc::peak() - base;
        assert!(used <= MAX_HEAP, "one input made the brain hold {used} bytes");
    }
);
