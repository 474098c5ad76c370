//! The Botzone Amazons bot (`protocols::botzone`) on arbitrary turn inputs: the I/O loop
//! `botzone::run` and the state machine `BotzoneBot::handle` answer or refuse without a
//! panic, a refused turn leaves the bot's state unchanged, replies are short, and no input
//! makes the bot hold more than a few MB.
//!
//! Input: a flag byte (bit 0: keep-running), then the stdin bytes; for `handle` the same
//! bytes are cut into turns at each 0x1E byte. The random agent plays: the protocol is
//! under test, not the search (which thinks for most of a second per turn).
#![no_main]

mod peak_alloc;

use std::time::Instant;

use libfuzzer_sys::fuzz_target;
use protocols::botzone::{self, BotzoneBot};
use search::AgentKind;

#[global_allocator]
static ALLOC: peak_alloc::Counting = peak_alloc::Counting;

const MAX_HEAP: usize = 16 << 20;

fn bot(keep_running: bool) -> BotzoneBot {
    BotzoneBot::new(AgentKind::Random, keep_running).expect("the random bot builds")
}

fuzz_target!(
    init: {
        // A 10 MB line is refused with an error, not read into memory.
        let mut input = b"1\n".to_vec();
        input.extend(std::iter::repeat_n(b'1', 10 << 20));
        input.push(b'\n');
        let base = peak_alloc::reset_peak();
        let (mut out, mut log) = (Vec::new(), Vec::new());
        let r = botzone::run(&mut bot(true), &input[..], &mut out, &mut log);
        let used = peak_alloc::peak() - base;
        assert!(r.is_err() && out.is_empty(), "{r:?}");
        assert!(used < 1 << 20, "a 10 MB line made the bot hold {used} bytes");
    },
    |data: &[u8]| {
        let Some((&flags, data)) = data.split_first() else { return };
        let keep = flags & 1 == 1;
        let base = peak_alloc::reset_peak();

        let (mut out, mut log) = (Vec::new(), Vec::new());
        let _ = botzone::run(&mut bot(keep), data, &mut out, &mut log);
        let out = String::from_utf8(out).expect("replies are UTF-8");
        for line in out.lines() {
            assert!(line.len() <= 1024, "reply line of {} bytes", line.len());
        }

        let text = String::from_utf8_lossy(data);
        let mut b = bot(keep);
        for turn in text.split('\u{1e}').take(16) {
            let before = b.position().cloned();
            let format = b.format();
            match b.handle(turn, Instant::now()) {
                Ok(reply) => {
                    assert!(!reply.lines.is_empty() && reply.lines.len() <= 2, "{reply:?}");
                    for l in &reply.lines {
                        assert!(l.len() <= 1024 && !l.contains(['\n', '\r']), "{l:?}");
                    }
                }
                Err(e) => {
                    assert_eq!(b.position().cloned(), before, "refused turn changed the game: {e}");
                    assert_eq!(b.format(), format, "refused turn changed the format: {e}");
                    let _ = e.to_string();
                }
            }
        }
        let used = peak_alloc::peak() - base;
        assert!(used <= MAX_HEAP, "one input made the bot hold {used} bytes");
    }
);
