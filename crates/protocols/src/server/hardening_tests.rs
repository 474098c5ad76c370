//! One test (at least) per defect of issue 11 ("the game server under attack"): each
//! fails on the server before the fix.

use std::{
    io::{BufRead, BufReader, Write},
    net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, TcpStream},
    os::unix::fs::PermissionsExt,
    sync::mpsc::sync_channel,
    time::{Duration, Instant, SystemTime, UNIX_EPOCH},
};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;

use super::tests::{err, ok};

/// The shared helper's directory, named apart from `tests`' own.
fn temp_dir(name: &str) -> PathBuf {
    super::tests::temp_dir(&format!("hard-{name}"))
}

fn mode(path: &Path) -> u32 {
    fs::metadata(path).expect("metadata").permissions().mode() & 0o777
}

fn nanos() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// Defect 1. The attack: the old server seeded one ChaCha8 stream from the clock and the
/// pid when it opened; knowing both to within the open call, the attacker regenerates
/// the token. Every seed of that window is tried here: none may give the token.
#[test]
fn tokens_do_not_follow_from_the_clock_and_the_pid() {
    let before = nanos();
    let (mut s, _) = Server::open(None).expect("open");
    let after = nanos();
    let id = ok(&s.handle("create gomoku:size=5"))[1].clone();
    let token = ok(&s.handle(&format!("join {id} first")))[3].clone();
    assert_eq!(token.len(), 32);
    assert!(token.bytes().all(|b| b.is_ascii_hexdigit()), "{token}");
    let pid = u64::from(std::process::id()) << 32;
    let window = after.saturating_sub(before).min(4_000_000);
    for t in before..=before + window {
        let mut rng = ChaCha8Rng::seed_from_u64(t ^ pid);
        let (a, b): (u64, u64) = (rng.random(), rng.random());
        assert_ne!(format!("{a:016x}{b:016x}"), token, "seed {t} reproduces it");
    }
}

/// Defect 1: two servers opened at the same moment (a barrier) hand out unrelated
/// tokens, and one server never repeats one.
#[test]
fn servers_started_together_give_unrelated_tokens() {
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(2));
    let spawn = || {
        let barrier = std::sync::Arc::clone(&barrier);
        std::thread::spawn(move || {
            barrier.wait();
            let (mut s, _) = Server::open(None).expect("open");
            let mut tokens = Vec::new();
            for _ in 0..4 {
                let id = ok(&s.handle("create gomoku:size=5"))[1].clone();
                for seat in ["first", "second"] {
                    tokens.push(ok(&s.handle(&format!("join {id} {seat}")))[3].clone());
                }
            }
            tokens
        })
    };
    let (a, b) = (spawn(), spawn());
    let mut all = a.join().expect("a");
    all.extend(b.join().expect("b"));
    let distinct: BTreeSet<&String> = all.iter().collect();
    assert_eq!(distinct.len(), all.len(), "{all:?}");
}

/// Defect 2: the data directory is 0700, save files and the lock file 0600; an existing
/// world-readable directory and save file are tightened (with a note).
#[test]
fn the_data_directory_and_its_files_are_private() {
    let dir = temp_dir("modes");
    let (mut s, notes) = Server::open(Some(&dir)).expect("open");
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(mode(&dir), 0o700);
    assert_eq!(mode(&dir.join(LOCK_FILE)), 0o600);
    let id = ok(&s.handle("create gomoku:size=5"))[1].clone();
    ok(&s.handle(&format!("join {id} first")));
    let file = dir.join(format!("{id}.save"));
    assert_eq!(mode(&file), 0o600);
    drop(s);
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).expect("chmod");
    fs::set_permissions(&file, fs::Permissions::from_mode(0o644)).expect("chmod");
    let (s, notes) = Server::open(Some(&dir)).expect("reopen");
    assert_eq!(mode(&dir), 0o700);
    assert_eq!(mode(&file), 0o600);
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(notes.iter().all(|n| n.contains("tightened")), "{notes:?}");
    assert_eq!(s.host().table().ids().len(), 1);
    drop(s);
    let _ = fs::remove_dir_all(&dir);
}

/// Defect 3: a file start-up skipped keeps its id (never overwritten by `create`), and
/// a name that cannot be created (a directory `3.save`) is passed over, not retried
/// forever.
#[test]
fn create_never_overwrites_a_skipped_file() {
    let dir = temp_dir("create");
    let (mut s, _) = Server::open(Some(&dir)).expect("open");
    ok(&s.handle("create gomoku:size=5"));
    ok(&s.handle("create gomoku:size=5"));
    drop(s);
    let two = dir.join("2.save");
    let text = fs::read_to_string(&two).expect("2.save");
    let corrupt = text.replacen("boardlab-save 1", "boardlab-save 9", 1);
    fs::write(&two, &corrupt).expect("corrupt");
    fs::set_permissions(&two, fs::Permissions::from_mode(0o644)).expect("chmod");
    fs::create_dir(dir.join("3.save")).expect("a directory in the way");
    let (mut s, notes) = Server::open(Some(&dir)).expect("reopen");
    assert!(
        notes.iter().any(|n| n.contains("2.save: skipped")),
        "{notes:?}"
    );
    assert!(
        notes.iter().any(|n| n.contains("3.save: skipped")),
        "{notes:?}"
    );
    assert_eq!(ok(&s.handle("list")), vec!["games", "1"]);
    assert_eq!(ok(&s.handle("create gomoku:size=5"))[1], "4");
    assert_eq!(ok(&s.handle("create gomoku:size=5"))[1], "5");
    assert_eq!(fs::read_to_string(&two).expect("2.save"), corrupt);
    assert_eq!(mode(&two), 0o600, "a skipped file's tokens are private too");
    assert!(dir.join("3.save").is_dir());
    drop(s);
    let _ = fs::remove_dir_all(&dir);
}

/// Defect 3, the directory appearing while the server runs: `create` passes over it.
#[test]
fn create_passes_over_a_name_taken_meanwhile() {
    let dir = temp_dir("create-live");
    let (mut s, _) = Server::open(Some(&dir)).expect("open");
    fs::create_dir(dir.join("1.save")).expect("in the way");
    fs::write(dir.join("2.save"), "someone else's file").expect("in the way");
    assert_eq!(ok(&s.handle("create gomoku:size=5"))[1], "3");
    let notes = s.take_notes();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes[1].ends_with("2.save exists: game id 2 passed over"),
        "{notes:?}"
    );
    assert_eq!(
        fs::read_to_string(dir.join("2.save")).expect("kept"),
        "someone else's file"
    );
    drop(s);
    let _ = fs::remove_dir_all(&dir);
}

/// Defect 4: a second server on a data directory in use is refused, naming the first
/// one's pid; once the first is gone, the directory can be opened again.
#[test]
fn a_second_server_on_the_same_directory_is_refused() {
    let dir = temp_dir("lock");
    let (mut s, _) = Server::open(Some(&dir)).expect("open");
    ok(&s.handle("create gomoku:size=5"));
    let refused = match Server::open(Some(&dir)) {
        Ok(_) => panic!("a second server opened the same directory"),
        Err(e) => e,
    };
    assert_eq!(refused.kind(), io::ErrorKind::WouldBlock);
    let text = refused.to_string();
    assert!(
        text.contains(&format!("pid {}", std::process::id())),
        "{text}"
    );
    assert!(text.contains("in use by another server"), "{text}");
    // The first server's game is untouched.
    assert_eq!(ok(&s.handle("list")), vec!["games", "1"]);
    drop(s);
    let (s, notes) = Server::open(Some(&dir)).expect("free again");
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(s.host().table().ids().len(), 1);
    drop(s);
    let _ = fs::remove_dir_all(&dir);
}

/// A server on a loopback port, serving in the background for the rest of the test
/// process; its address.
fn start(server: Server) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    std::thread::spawn(move || serve(listener, server));
    addr
}

struct Client {
    out: TcpStream,
    inp: BufReader<TcpStream>,
}

impl Client {
    fn connect(addr: SocketAddr) -> Client {
        let s = TcpStream::connect(addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(20)))
            .expect("timeout");
        Client {
            out: s.try_clone().expect("clone"),
            inp: BufReader::new(s),
        }
    }

    fn send(&mut self, line: &str) {
        self.out
            .write_all(format!("{line}\n").as_bytes())
            .expect("send");
    }

    /// The next line; `None` once the server closed the connection.
    fn line(&mut self) -> Option<String> {
        let mut line = String::new();
        match self.inp.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line.trim_end().to_string()),
        }
    }

    fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.line().expect("a reply")
    }
}

/// Defect 5: sequential requests are answered without the ~40 ms that Nagle's algorithm
/// and the client's delayed ACK added to every reply written in two pieces. The median
/// of 200 sequential requests must stay far below 40 ms (the figure is printed; the
/// bound is loose because the machine is shared).
#[test]
fn sequential_requests_are_not_delayed_by_nagle() {
    let (s, _) = Server::open(None).expect("open");
    let addr = start(s);
    let mut c = Client::connect(addr);
    let id = ok(&c.ask("create gomoku:size=15"))[1].clone();
    let mut took = Vec::new();
    for i in 0..200 {
        let t = Instant::now();
        let reply = if i % 2 == 0 {
            c.ask("list")
        } else {
            c.ask(&format!("show {id}"))
        };
        took.push(t.elapsed());
        assert!(reply.starts_with("ok "), "{reply}");
    }
    took.sort();
    let median = took[took.len() / 2];
    let p90 = took[took.len() * 9 / 10];
    eprintln!("sequential request latency over loopback: median {median:?}, p90 {p90:?}");
    assert!(median < Duration::from_millis(15), "median {median:?}");
}

/// Defect 6: one peer address gets at most `max_connections_per_peer` connections
/// (the default, 8); the next is refused with a reason, and a slot freed is usable.
#[test]
fn one_peer_cannot_take_every_connection() {
    let (s, _) = Server::open(None).expect("open");
    let limit = s.options().max_connections_per_peer;
    assert!(limit < MAX_CONNECTIONS);
    let addr = start(s);
    let mut held: Vec<Client> = (0..limit).map(|_| Client::connect(addr)).collect();
    for c in &mut held {
        assert!(c.ask("list").starts_with("ok games"));
    }
    let mut extra = Client::connect(addr);
    let refusal = extra.line().expect("a refusal");
    err(&refusal, "too many connections from 127.0.0.1");
    assert_eq!(extra.line(), None);
    drop(held.pop());
    // The server notices the close asynchronously.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let mut c = Client::connect(addr);
        c.send("list");
        match c.line() {
            Some(l) if l.starts_with("ok games") => break,
            other => assert!(Instant::now() < deadline, "{other:?}"),
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Defect 6: a connection that sends no request (or only a trickle of bytes) within the
/// first-request timeout is closed; one that asks in time is served.
#[test]
fn a_silent_connection_is_closed_quickly() {
    let options = ServeOptions {
        first_request_timeout: Duration::from_millis(300),
        ..ServeOptions::default()
    };
    let (s, _) = Server::open_with(None, options).expect("open");
    let addr = start(s);
    let t = Instant::now();
    let mut silent = Client::connect(addr);
    let mut trickle = Client::connect(addr);
    for _ in 0..3 {
        trickle.out.write_all(b"l").expect("a byte");
        std::thread::sleep(Duration::from_millis(150));
    }
    assert_eq!(silent.line(), None);
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    trickle.out.write_all(b"ist\n").ok();
    assert_eq!(trickle.line(), None, "a byte at a time does not keep it");
    let mut prompt = Client::connect(addr);
    assert!(prompt.ask("list").starts_with("ok games"));
}

/// Defect 6: watchers are bounded per game and per connection.
#[test]
fn watchers_are_bounded() {
    let options = ServeOptions {
        max_watchers_per_game: 2,
        max_watches_per_connection: 3,
        ..ServeOptions::default()
    };
    let (mut s, _) = Server::open_with(None, options).expect("open");
    let mut rxs = Vec::new();
    let mut conns = Vec::new();
    for _ in 0..3 {
        let (tx, rx) = sync_channel(64);
        rxs.push(rx);
        conns.push(s.attach(tx, None));
    }
    let ids: Vec<String> = (0..4)
        .map(|_| ok(&s.handle("create gomoku:size=5"))[1].clone())
        .collect();
    ok(&s.request(conns[0], &format!("watch {}", ids[0])));
    ok(&s.request(conns[1], &format!("watch {}", ids[0])));
    err(
        &s.request(conns[2], &format!("watch {}", ids[0])),
        "too many watchers (at most 2)",
    );
    // Watching again what one watches already is fine.
    ok(&s.request(conns[1], &format!("watch {}", ids[0])));
    ok(&s.request(conns[0], &format!("watch {}", ids[1])));
    ok(&s.request(conns[0], &format!("watch {}", ids[2])));
    err(
        &s.request(conns[0], &format!("watch {}", ids[3])),
        "watches too many games (at most 3)",
    );
    ok(&s.request(conns[0], &format!("unwatch {}", ids[2])));
    ok(&s.request(conns[0], &format!("watch {}", ids[3])));
}

fn peer(n: u8) -> Option<IpAddr> {
    Some(IpAddr::V4(Ipv4Addr::new(10, 0, 0, n)))
}

/// Plays a gomoku 5×5 game to its end on one connection holding both seats
/// (first: a1..a5, second: b1..b4).
fn finish_game(s: &mut Server, conn: ConnId, id: &str) {
    let a = ok(&s.request(conn, &format!("join {id} first")))[3].clone();
    let b = ok(&s.request(conn, &format!("join {id} second")))[3].clone();
    for row in 1..=4 {
        ok(&s.request(conn, &format!("move {id} {a} a{row}")));
        ok(&s.request(conn, &format!("move {id} {b} b{row}")));
    }
    let last = s.request(conn, &format!("move {id} {a} a5"));
    assert!(last.contains(" over "), "{last}");
}

/// Defect 7: finished games expire after `finished_expiry`, unfinished ones only after
/// the longer `abandoned_expiry`; their save files move to `archive/` (never deleted),
/// their watchers are told, and a restart does not bring them back or reuse their ids.
#[test]
fn expired_games_are_archived() {
    let dir = temp_dir("expiry");
    let options = ServeOptions {
        finished_expiry: Duration::from_secs(60),
        abandoned_expiry: Duration::from_secs(3600),
        ..ServeOptions::default()
    };
    let (mut s, _) = Server::open_with(Some(&dir), options.clone()).expect("open");
    let (tx, rx) = sync_channel(256);
    let conn = s.attach(tx, None);
    let done = ok(&s.request(conn, "create gomoku:size=5"))[1].clone();
    let open = ok(&s.request(conn, "create gomoku:size=5"))[1].clone();
    finish_game(&mut s, conn, &done);
    ok(&s.request(conn, &format!("watch {done}")));
    let now = SystemTime::now();
    assert!(s.expire(now + Duration::from_secs(30)).is_empty());
    let notes = s.expire(now + Duration::from_secs(61));
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].starts_with(&format!("game {done} expired")),
        "{notes:?}"
    );
    assert!(
        rx.try_iter()
            .any(|l| l.starts_with(&format!("notice {done} expired"))),
        "the watcher is told"
    );
    err(&s.request(conn, &format!("show {done}")), "no game");
    let archived = dir.join(ARCHIVE_DIR).join(format!("{done}.save"));
    assert!(archived.is_file());
    assert!(!dir.join(format!("{done}.save")).exists());
    assert_eq!(mode(&dir.join(ARCHIVE_DIR)), 0o700);
    // The unfinished game waits for the longer expiry.
    assert!(s.expire(now + Duration::from_secs(1800)).is_empty());
    drop(s);
    let (mut s, notes) = Server::open_with(Some(&dir), options).expect("reopen");
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(
        ok(&s.handle("list")),
        vec!["games".to_string(), open.clone()]
    );
    // The archived id is not reused.
    let next = ok(&s.handle("create gomoku:size=5"))[1].clone();
    assert_eq!(next, "3");
    let notes = s.expire(SystemTime::now() + Duration::from_secs(3601));
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(s.host().table().ids().is_empty());
    assert!(dir.join(ARCHIVE_DIR).join(format!("{open}.save")).is_file());
    drop(s);
    let _ = fs::remove_dir_all(&dir);
}

/// Defect 7: the game table cannot be filled by one peer (games per peer), and a full
/// table makes room by expiring finished games.
#[test]
fn games_are_bounded_per_peer() {
    let options = ServeOptions {
        max_games_per_peer: 3,
        ..ServeOptions::default()
    };
    let (mut s, _) = Server::open_with(None, options).expect("open");
    let (tx_a, _rx_a) = sync_channel(64);
    let (tx_b, _rx_b) = sync_channel(64);
    let a = s.attach_from(tx_a, None, peer(1));
    let b = s.attach_from(tx_b, None, peer(2));
    for _ in 0..3 {
        ok(&s.request(a, "create gomoku:size=5"));
    }
    err(
        &s.request(a, "create gomoku:size=5"),
        "too many games from 10.0.0.1 (at most 3)",
    );
    ok(&s.request(b, "create gomoku:size=5"));
    let (s, _) = Server::open(None).expect("open");
    let mut s = s.with_max_games(1);
    let (tx, _rx) = sync_channel(64);
    let c = s.attach(tx, None);
    let id = ok(&s.request(c, "create gomoku:size=5"))[1].clone();
    finish_game(&mut s, c, &id);
    err(&s.request(c, "create gomoku:size=5"), "too many games");
    s.host().table().options_mut().finished_expiry = Duration::ZERO;
    ok(&s.request(c, "create gomoku:size=5"));
}

/// Defect 8: an engine move whose save fails is not dropped: the players are told, and
/// it is saved again (with a growing wait) once the file is writable; the game goes on.
#[test]
fn an_engine_move_that_cannot_be_saved_is_retried() {
    let dir = temp_dir("retry");
    let (mut s, _) = Server::open(Some(&dir)).expect("open");
    let (tx, rx) = sync_channel(256);
    let conn = s.attach(tx, None);
    let id = ok(&s.request(conn, "create gomoku:size=7"))[1].clone();
    let tok = ok(&s.request(conn, &format!("join {id} first")))[3].clone();
    ok(&s.request(conn, &format!("engine {id} second 10")));
    ok(&s.request(conn, &format!("move {id} {tok} d4")));
    // The save file is replaced by a directory (chmod would not stop root).
    let file = dir.join(format!("{id}.save"));
    let aside = dir.join("aside");
    fs::rename(&file, &aside).expect("move aside");
    fs::create_dir(&file).expect("directory in the way");
    rx.try_iter().for_each(drop);
    assert_eq!(s.think_pending(), 1);
    let told: Vec<String> = rx.try_iter().collect();
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(
        told[0].starts_with(&format!("notice {id} engine move ")) && told[0].contains("not saved"),
        "{told:?}"
    );
    assert!(s.handle(&format!("show {id}")).contains("ply 1 "));
    err(&s.handle(&format!("move {id} {tok} d5")), "not your turn");
    // Still failing: told again, waiting twice as long.
    let first = s.next_retry().expect("a retry is due");
    assert_eq!(s.retry_saves(first), 1);
    let second = s.next_retry().expect("again");
    assert!(second - first >= SAVE_RETRY_FIRST, "{:?}", second - first);
    assert!(rx.try_iter().any(|l| l.contains("not saved")));
    assert_eq!(s.think_pending(), 0, "no second think while the move waits");
    // Writable again: the same move is saved, played and pushed.
    fs::remove_dir(&file).expect("rmdir");
    fs::rename(&aside, &file).expect("back");
    assert_eq!(s.retry_saves(second), 1);
    assert_eq!(s.next_retry(), None);
    let pushed: Vec<String> = rx.try_iter().collect();
    assert!(
        pushed
            .iter()
            .any(|l| l.starts_with(&format!("update {id} 2 "))),
        "{pushed:?}"
    );
    ok(&s.handle(&format!("show {id}")));
    assert!(s.handle(&format!("show {id}")).contains("ply 2 "));
    drop(s);
    let (s, _) = Server::open(Some(&dir)).expect("reopen");
    let moves = s.host().table().state(1, [false; 2]).expect("game").moves;
    assert_eq!(moves.len(), 2);
    drop(s);
    let _ = fs::remove_dir_all(&dir);
}

// Defect 9 (engine moves handed out fairly) is the host's engine queue's now, shared
// with the browser board: `boardlab_host::pool` (people first, round robin between
// games, games between engines never take the last thread) and the web crate's
// `fairness` test.

/// Defect 10: `01.save` is not loaded as game 1 (its moves would go to `1.save`): it is
/// skipped with the reason, kept, and its number never reused.
#[test]
fn a_non_canonical_save_name_is_skipped() {
    let dir = temp_dir("names");
    let (mut s, _) = Server::open(Some(&dir)).expect("open");
    ok(&s.handle("create gomoku:size=5"));
    drop(s);
    fs::rename(dir.join("1.save"), dir.join("01.save")).expect("rename");
    let (mut s, notes) = Server::open(Some(&dir)).expect("reopen");
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].contains("01.save: skipped: not a canonical game file name"),
        "{notes:?}"
    );
    assert_eq!(ok(&s.handle("list")), vec!["games"]);
    assert_eq!(ok(&s.handle("create gomoku:size=5"))[1], "2");
    assert!(dir.join("01.save").is_file());
    drop(s);
    let _ = fs::remove_dir_all(&dir);
}

/// Defect 10: a last record cut by a crash (`c12` cut to `c1` parses as another legal
/// move) is detected by its trailer: dropped with a note, never loaded as a move.
#[test]
fn a_cut_last_record_is_detected() {
    let dir = temp_dir("torn");
    let (mut s, _) = Server::open(Some(&dir)).expect("open");
    let id = ok(&s.handle("create gomoku:size=15"))[1].clone();
    let a = ok(&s.handle(&format!("join {id} first")))[3].clone();
    let b = ok(&s.handle(&format!("join {id} second")))[3].clone();
    ok(&s.handle(&format!("move {id} {a} h8")));
    ok(&s.handle(&format!("move {id} {b} c12")));
    drop(s);
    let file = dir.join(format!("{id}.save"));
    let text = fs::read_to_string(&file).expect("save");
    let at = text.rfind("c12").expect("the move");
    fs::write(&file, &text[..at + 2]).expect("cut to c1");
    let (mut s, notes) = Server::open(Some(&dir)).expect("reopen");
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].contains("dropped its unfinished last record 'c1'"),
        "{notes:?}"
    );
    let shown = s.handle(&format!("show {id}"));
    assert!(shown.contains("ply 1 moves h8 ;"), "{shown}");
    // The file is whole records again, and play goes on from there.
    assert_eq!(fs::read_to_string(&file).expect("save"), text[..at]);
    ok(&s.handle(&format!("move {id} {b} c12")));
    drop(s);
    // A record changed in the middle skips the file, untouched.
    let text = fs::read_to_string(&file).expect("save");
    let changed = text.replacen("h8 #@", "h9 #@", 1);
    fs::write(&file, &changed).expect("change");
    let (s, notes) = Server::open(Some(&dir)).expect("reopen");
    assert!(s.host().table().ids().is_empty());
    assert!(notes[0].contains("fails its integrity check"), "{notes:?}");
    assert_eq!(fs::read_to_string(&file).expect("kept"), changed);
    drop(s);
    let _ = fs::remove_dir_all(&dir);
}

/// Defect 10: old save files without trailers still load, and new records appended to
/// them carry trailers; a hand-written file without a final newline gets one first.
#[test]
fn old_save_files_without_trailers_load() {
    let dir = temp_dir("legacy");
    fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("4.save");
    fs::write(
        &file,
        "boardlab-save 1\ngame gomoku:size=5\n# token first aaaa\na1\nb1",
    )
    .expect("old file");
    let (mut s, notes) = Server::open(Some(&dir)).expect("open");
    assert!(notes.iter().all(|n| n.contains("tightened")), "{notes:?}");
    assert!(s.handle("show 4").contains("ply 2 moves a1 b1 ;"));
    ok(&s.handle("move 4 aaaa a2"));
    drop(s);
    let text = fs::read_to_string(&file).expect("save");
    assert!(
        text.ends_with("b1\na2 #@") || text.contains("b1\na2 #@"),
        "{text}"
    );
    let (s, notes) = Server::open(Some(&dir)).expect("reopen");
    assert!(notes.is_empty(), "{notes:?}");
    let moves = s.host().table().state(4, [false; 2]).expect("game").moves;
    assert_eq!(moves.len(), 3);
    drop(s);
    let _ = fs::remove_dir_all(&dir);
}

/// The browser board's files share the data directory's format: a game resigned or
/// drawn there is over here too, and its engine seats (any level) come back.
#[test]
fn games_ended_on_the_browser_board_stay_over() {
    let dir = temp_dir("ended");
    fs::create_dir_all(&dir).expect("dir");
    fs::write(
        dir.join("2.save"),
        "boardlab-save 1\ngame gomoku:size=5\n# token first aaaa\n# engine second random\na1\n# resign first\n",
    )
    .expect("file");
    fs::write(
        dir.join("3.save"),
        "boardlab-save 1\ngame gomoku:size=5\n# token first bbbb\n# token second cccc\n# draw\n",
    )
    .expect("file");
    let (mut s, _) = Server::open(Some(&dir)).expect("open");
    assert!(
        s.handle("show 2").ends_with("; over Black resigned"),
        "{}",
        s.handle("show 2")
    );
    assert!(s.handle("show 3").ends_with("; over drawn by agreement"));
    let refused = s.handle("move 3 bbbb a1");
    assert!(
        refused.contains("the game is over: drawn by agreement"),
        "{refused}"
    );
    assert_eq!(s.think_pending(), 0, "no engine move in a resigned game");
    drop(s);
    let _ = fs::remove_dir_all(&dir);
}

/// Defect 10: error replies escape control characters of the peer's text.
#[test]
fn error_replies_escape_control_characters() {
    let (mut s, _) = Server::open(None).expect("open");
    for line in [
        "fly\u{1b}[31m away",
        "show 1\u{7}",
        "create gomoku:size=\u{1b}]0;pwned\u{7}",
        "join x\u{0}y first",
    ] {
        let reply = s.handle(line);
        assert!(reply.starts_with("error "), "{reply:?}");
        assert!(!reply.chars().any(char::is_control), "{reply:?}");
    }
    err(&s.handle("fly\u{1b}[31m"), "'fly\\u{1b}[31m'");
}

/// Defect 10: more than 1024 pipelined requests from a client that reads its replies
/// late are all answered, in order (the server stops reading instead of dropping).
#[test]
fn pipelined_requests_get_every_reply() {
    let (s, _) = Server::open(None).expect("open");
    let addr = start(s);
    let c = Client::connect(addr);
    const N: usize = 30_000;
    let mut out = c.out.try_clone().expect("clone");
    let sender = std::thread::spawn(move || {
        let mut batch = String::new();
        for i in 0..N {
            // `help` replies are long, so the socket buffers fill long before the end.
            batch.push_str(if i % 2 == 0 { "help\n" } else { "list\n" });
        }
        out.write_all(batch.as_bytes()).is_ok()
    });
    // Read nothing for a while: the server's queue would overflow.
    std::thread::sleep(Duration::from_millis(500));
    let mut inp = c.inp;
    let mut replies = 0;
    let mut line = String::new();
    while replies < N {
        line.clear();
        match inp.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let want = if replies % 2 == 0 {
            "ok commands"
        } else {
            "ok games"
        };
        assert!(line.starts_with(want), "reply {replies}: {line}");
        replies += 1;
    }
    assert_eq!(replies, N, "replies before the connection ended");
    assert!(sender.join().expect("sender"));
}

/// Defect 8 over the network: the engine thread that fails to save its move tells the
/// player at once (`notice`), keeps the move, and saves and pushes it by itself once
/// the file is writable again (the engine threads wait for the retry's due time).
#[test]
fn a_served_engine_move_is_saved_once_the_disk_is_back() {
    let dir = temp_dir("retry-net");
    let (s, _) = Server::open(Some(&dir)).expect("open");
    let addr = start(s);
    let mut c = Client::connect(addr);
    let id = ok(&c.ask("create gomoku:size=7"))[1].clone();
    let tok = ok(&c.ask(&format!("join {id} first")))[3].clone();
    ok(&c.ask(&format!("engine {id} second 400")));
    ok(&c.ask(&format!("move {id} {tok} d4")));
    // The engine thinks 400 ms: the save file becomes a directory meanwhile.
    let file = dir.join(format!("{id}.save"));
    let aside = dir.join("aside");
    fs::rename(&file, &aside).expect("move aside");
    fs::create_dir(&file).expect("directory in the way");
    let notice = c.line().expect("a notice");
    assert!(
        notice.starts_with(&format!("notice {id} engine move ")) && notice.contains("not saved"),
        "{notice}"
    );
    fs::remove_dir(&file).expect("rmdir");
    fs::rename(&aside, &file).expect("back");
    // Further notices may come before the retry succeeds; then the move is pushed.
    let update = loop {
        let line = c.line().expect("a push");
        if !line.starts_with("notice ") {
            break line;
        }
    };
    assert!(update.starts_with(&format!("update {id} 2 ")), "{update}");
    let saved = fs::read_to_string(&file).expect("save");
    let mv = update.split_whitespace().nth(3).expect("the move");
    assert!(saved.contains(&format!("\n{mv} #@")), "{saved}");
    let _ = fs::remove_dir_all(&dir);
}
