//! The game server's protocol (`protocols::server`, the line protocol's door onto the
//! host's game table) on arbitrary request lines: an
//! in-memory [`Server`] (no data directory, at most 8 games) answers every line with one
//! `ok ...` or `error ...` line and never panics, whatever the line holds (garbage, huge
//! numbers, bad specs, very long lines, tokens of other seats). Two connections are
//! attached so `watch`, pushes and the bounded outgoing queue (a small one, so the
//! dropping of a slow watcher is exercised) are covered; every queued line is a reply or
//! an `update` or `notice`. The terminal client's [`Follower`] (`play::connect`) reads
//! every reply, push and raw input
//! line too (a hostile server must not crash the client).
//!
//! Engine seats are created and queued but not thought (a think takes at least 10 ms,
//! which would make the target slow); their moves are covered by the crate's tests.
#![no_main]

use std::sync::mpsc::{Receiver, sync_channel};

use libfuzzer_sys::fuzz_target;
use play::connect::Follower;
use protocols::server::Server;

const MAX_LINES: usize = 64;

/// Checks and feeds to the client every line queued on a connection.
fn drain(rx: &Receiver<String>, follower: &mut Follower) {
    for line in rx.try_iter() {
        assert!(
            line.starts_with("ok ")
                || line.starts_with("error ")
                || line.starts_with("update ")
                || line.starts_with("notice "),
            "{line}"
        );
        assert!(!line.contains('\n'), "{line:?}");
        assert!(line.len() <= MAX_REPLY, "line of {} bytes", line.len());
        let followed = follower.on_line(&line, false);
        assert!(followed.ask.len() <= 1);
    }
}

/// Longest reply or push one input may produce (a `show` of a game of at most 64 moves).
const MAX_REPLY: usize = 16 << 10;

fuzz_target!(
    init: {
        // Lines longer than the fuzzer's inputs: a 1 MB word in every position gets a
        // short error.
        let (mut server, _) = Server::open(None).expect("in-memory server");
        let long = "9".repeat(1 << 20);
        for line in [
            long.clone(),
            format!("create gomoku:size={long}"),
            format!("join {long} first"),
            format!("engine 1 first {long}"),
            format!("move {long} {long} {long}"),
        ] {
            let reply = server.handle(&line);
            assert!(reply.starts_with("error ") && reply.len() < 300, "{}", reply.len());
        }
    },
    |data: &[u8]| {
    let Ok((server, _)) = Server::open(None) else {
        return;
    };
    let mut server = server.with_max_games(8);
    let (tx_a, rx_a) = sync_channel(256);
    let (tx_b, rx_b) = sync_channel(4);
    let a = server.attach(tx_a, None);
    let b = server.attach(tx_b, None);
    let mut follower = Follower::new();
    let text = String::from_utf8_lossy(data);
    for (i, line) in text.split('\n').take(MAX_LINES).enumerate() {
        // Odd lines from the connection with a tiny queue (it never reads: it is dropped
        // once its queue fills), every third one without a connection.
        let reply = match i % 3 {
            0 => server.request(a, line),
            1 => server.request(b, line),
            _ => server.handle(line),
        };
        assert!(
            reply.starts_with("ok ") || reply.starts_with("error "),
            "{reply}"
        );
        assert!(!reply.contains('\n'), "{reply:?}");
        assert!(reply.len() <= MAX_REPLY, "reply of {} bytes", reply.len());
        let _ = follower.on_line(line, i % 2 == 0);
        drain(&rx_a, &mut follower);
    }
    drop(rx_b);
    let _ = server.request(b, "list");
    server.detach(a);
    server.detach(b);
    }
);
