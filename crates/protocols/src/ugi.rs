//! The boardlab engine protocol (UCI-style, every game): `docs/protocol-engine.md`.
//!
//! [`EngineSession::handle`] takes one GUI line; replies go to an [`Output`] shared with the
//! search thread. `go` moves the current game (a type-erased [`DynGame`]) into a worker
//! thread, so the reader keeps answering `isready`, `stop` and `quit` while it searches;
//! the worker prints the `info` lines and `bestmove`, then hands the game back.
//!
//! Choices where the spec is silent:
//! - A bare `go` (no limit at all) searches like `go infinite`. In infinite mode `bestmove`
//!   is printed only after `stop` (as in UCI), even if the search ends earlier.
//! - `position`, `go`, `setoption`, `uginewgame` and `d` during a finite search wait for it
//!   to end (so a script may pipe `go depth 5` and the next `position` at once); during an
//!   infinite search they are refused with `info string error: ...` (send `stop` first).
//!   `isready`, `ugi`, `stop` and `quit` are answered at once, searching or not.
//! - A `go` with a malformed argument is refused with `info string error: ...`, no search.
//! - `go` before any `position` is an error; `go` on a finished game prints
//!   `info string game over: <reason>` and `bestmove none`.
//! - Option names are case-insensitive; a changed option rebuilds the engine at once
//!   (keeping the position); a refused value leaves the option as it was.
//! - Lines longer than [`MAX_LINE_BYTES`] are refused with `info string error`.

use std::{
    io::{self, BufRead, Write},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    thread::JoinHandle,
    time::{Duration, Instant},
};

use board_core::{GameSpec, Player};
use boardlab_games::{DynGame, GameEntry, PositionError, Registry};
use search::{AgentKind, Clock, Limits, SearchOptions, TimeControl};

use crate::lines::{Line, MAX_LINE_BYTES, parse_saturating, quote, read_line_capped, write_line};

/// Where the engine's lines go; shared by the reader and the search thread. Every line is
/// written whole and flushed.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Output to `w`, shared by the reader loop and the search thread.
    pub fn new(w: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(w))))
    }

    /// Writes one line (write errors are ignored: a closed pipe ends the input too).
    pub fn line(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = write_line(&mut *w, text);
    }
}

/// What `go` asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `depth N`: search to this many plies.
    pub depth: Option<u32>,
    /// `nodes N`: stop after about this many nodes.
    pub nodes: Option<u64>,
    /// `movetime MS`: the time for this move, in milliseconds.
    pub movetime: Option<u64>,
    /// The first player's clock (ms).
    pub wtime: Option<i64>,
    /// The first player's increment per move (ms).
    pub winc: Option<i64>,
    /// The second player's clock (ms).
    pub btime: Option<i64>,
    /// The second player's increment per move (ms).
    pub binc: Option<i64>,
    /// `movestogo N`: moves until the next time control.
    pub movestogo: Option<u32>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
}

impl GoParams {
    /// Reads the words after `go`.
    pub fn parse(args: &str) -> Result<GoParams, String> {
        let mut p = GoParams::default();
        let mut words = args.split_whitespace();
        while let Some(w) = words.next() {
            if w == "infinite" {
                p.infinite = true;
                continue;
            }
            let known = [
                "depth",
                "nodes",
                "movetime",
                "wtime",
                "btime",
                "winc",
                "binc",
                "movestogo",
            ];
            if !known.contains(&w) {
                return Err(format!("go: unknown parameter '{}'", quote(w, 24)));
            }
            let v = words
                .next()
                .ok_or_else(|| format!("go: {w} needs a value"))?;
            let n = parse_saturating(v)
                .ok_or_else(|| format!("go: {w} '{}' is not an integer", quote(v, 24)))?;
            let pos = |n: i64| -> Result<u64, String> {
                u64::try_from(n).map_err(|_| format!("go: {w} {n} is negative"))
            };
            match w {
                "depth" => p.depth = Some(pos(n)?.min(u64::from(u32::MAX)) as u32),
                "nodes" => p.nodes = Some(pos(n)?),
                "movetime" => p.movetime = Some(pos(n)?),
                "movestogo" => p.movestogo = Some(pos(n)?.min(u64::from(u32::MAX)) as u32),
                // Clocks may be negative (a flagged player): read as zero.
                "wtime" => p.wtime = Some(n),
                "btime" => p.btime = Some(n),
                "winc" => p.winc = Some(n),
                _ => p.binc = Some(n),
            }
        }
        Ok(p)
    }

    /// True when nothing limits the search (a bare `go`, or `go infinite`).
    fn is_infinite(&self, side: Player) -> bool {
        let clock = match side {
            Player::First => self.wtime,
            Player::Second => self.btime,
        };
        self.infinite
            || (self.depth.is_none()
                && self.nodes.is_none()
                && self.movetime.is_none()
                && clock.is_none())
    }

    /// The time limits of the side to move: `movetime` a per-move limit; its clock
    /// (`wtime`/`winc` or `btime`/`binc`, negative read as 0) with `movestogo`.
    pub fn time_control(&self, side: Player) -> TimeControl {
        let ms = |v: i64| Duration::from_millis(v.max(0) as u64);
        let (time, inc) = match side {
            Player::First => (self.wtime, self.winc),
            Player::Second => (self.btime, self.binc),
        };
        TimeControl {
            move_limit: self.movetime.map(Duration::from_millis),
            clock: time.map(|t| Clock::new(ms(t), ms(inc.unwrap_or(0)), self.movestogo)),
        }
    }

    /// The search limits for the side to move (without the stop flag and the start): the
    /// depth and node limits, and the budget of [`GoParams::time_control`] (none when
    /// infinite).
    pub fn limits(&self, side: Player) -> Limits {
        let mut l = Limits::new();
        if let Some(d) = self.depth {
            l = l.with_depth(d);
        }
        if let Some(n) = self.nodes {
            l = l.with_nodes(n);
        }
        if self.infinite {
            return l;
        }
        l.with_time_control(self.time_control(side))
    }
}

/// Searches the game's player; `info` lines go to `emit`; the `bestmove ...` line. A game
/// that is over, or a player's broken answer, is reported and gives `bestmove none`.
fn go(game: &mut dyn DynGame, limits: &Limits, emit: &mut dyn FnMut(String)) -> String {
    if let Some(reason) = game.outcome_reason() {
        emit(format!("info string game over: {reason}"));
        return "bestmove none".into();
    }
    match game.think(limits, &mut |it| emit(it.info_line)) {
        Ok(thought) => format!("bestmove {}", thought.mv),
        // A broken engine answer is reported, never replaced by another move.
        Err(e) => {
            emit(format!("info string error: {e}"));
            "bestmove none".into()
        }
    }
}

/// The `d` output: diagram, spec, position string, side to move, hash, result.
fn describe(game: &dyn DynGame) -> Vec<String> {
    let mut out: Vec<String> = game.diagram().lines().map(str::to_string).collect();
    out.push(format!("game: {}", game.spec()));
    out.push(format!("position: {}", game.position_string()));
    out.push(format!(
        "to move: {}",
        game.player_name(game.side_to_move())
    ));
    out.push(format!("hash: {:016x}", game.hash()));
    if let Some(reason) = game.outcome_reason() {
        out.push(format!("result: {reason}"));
    }
    out
}

/// A new game of `entry`: the start of `parsed` (the spec as parsed from the text `spec`,
/// which errors quote) plus `moves`, with its engine under `options`.
fn new_game(
    entry: &dyn GameEntry,
    spec: &str,
    parsed: &GameSpec,
    moves: &[&str],
    options: SearchOptions,
) -> Result<Box<dyn DynGame>, String> {
    let mut game = entry
        .start(parsed)
        .map_err(|e| format!("bad game spec '{}': {e}", quote(spec, 40)))?;
    for (i, text) in moves.iter().enumerate() {
        game.play(text).map_err(|error| {
            position_error(
                spec,
                PositionError::Move {
                    index: i + 1,
                    error,
                },
            )
        })?;
    }
    game.set_player(AgentKind::Engine, options)
        .map_err(|e| e.to_string())?;
    Ok(game)
}

/// Why `position` was refused, as the protocol prints it.
fn position_error(spec: &str, e: PositionError) -> String {
    match e {
        PositionError::Spec(e) => format!("bad game spec '{}': {e}", quote(spec, 40)),
        PositionError::Move { index, error } => {
            format!(
                "move {index} '{}': {}",
                quote(error.text(), 32),
                error.reason()
            )
        }
    }
}

/// The engine options (`setoption`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// `Hash`: transposition table size in MiB.
    pub hash_mb: usize,
    /// `Threads`: search threads.
    pub threads: usize,
    /// `Seed`: the seed of the random player and the search's tie-breaks.
    pub seed: u64,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: SearchOptions::DEFAULT_HASH_MB,
            threads: 1,
            seed: 0,
        }
    }
}

impl EngineOptions {
    fn search_options(&self) -> Result<SearchOptions, String> {
        Ok(SearchOptions::default()
            .with_hash_mb(self.hash_mb)
            .and_then(|o| o.with_threads(self.threads))
            .map_err(|e| e.to_string())?
            .with_seed(self.seed))
    }
}

struct Running {
    handle: JoinHandle<Option<Box<dyn DynGame>>>,
    stop: Arc<AtomicBool>,
    /// Set by the worker just before it prints `bestmove`.
    done: Arc<AtomicBool>,
    /// `go infinite` (or a bare `go`): ends only with `stop`.
    infinite: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Collect {
    Poll,
    Wait,
    Stop,
}

/// Whether the reader loop goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `quit`: stop reading.
    Quit,
}

/// The engine protocol's state: options, the current game, a running search.
pub struct EngineSession {
    out: Output,
    options: EngineOptions,
    /// The games `position` may name.
    registry: Arc<Registry>,
    game: Option<Box<dyn DynGame>>,
    running: Option<Running>,
}

/// Stack of the search thread (deep recursion on big boards).
const SEARCH_STACK_BYTES: usize = 64 << 20;

impl EngineSession {
    /// A session over the bundled games.
    pub fn new(out: Output) -> EngineSession {
        EngineSession::with_registry(out, Arc::new(Registry::bundled()))
    }

    /// A session over the games of `registry` (a user's own included).
    pub fn with_registry(out: Output, registry: Arc<Registry>) -> EngineSession {
        EngineSession {
            out,
            options: EngineOptions::default(),
            registry,
            game: None,
            running: None,
        }
    }

    fn say(&self, line: &str) {
        self.out.line(line);
    }

    fn error(&self, msg: &str) {
        self.out.line(&format!("info string error: {msg}"));
    }

    /// True while a search runs (or has not been collected yet).
    pub fn searching(&self) -> bool {
        self.running.is_some()
    }

    /// Collects the search thread: `Poll` only if it has finished, `Wait` until it
    /// finishes on its own, `Stop` after raising its stop flag.
    fn collect(&mut self, how: Collect) {
        let Some(running) = self.running.take() else {
            return;
        };
        if how == Collect::Poll && !running.done.load(Ordering::Acquire) {
            self.running = Some(running);
            return;
        }
        if how == Collect::Stop {
            running.stop.store(true, Ordering::Release);
        }
        match running.handle.join() {
            Ok(Some(game)) => self.game = Some(game),
            Ok(None) | Err(_) => {
                self.game = None;
                self.error("the search failed; send position again");
            }
        }
    }

    /// Stops any search and waits for it (for `quit` and the end of input).
    pub fn shutdown(&mut self) {
        self.collect(Collect::Stop);
    }

    /// Handles one line from the GUI.
    pub fn handle(&mut self, line: &str) -> Flow {
        self.collect(Collect::Poll);
        let line = line.trim();
        if line.is_empty() {
            return Flow::Continue;
        }
        let (cmd, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        match cmd {
            "ugi" => self.ugi(),
            "isready" => self.say("readyok"),
            "stop" => self.collect(Collect::Stop),
            "quit" => {
                self.shutdown();
                return Flow::Quit;
            }
            "position" | "go" | "setoption" | "uginewgame" | "d"
                if self.running.as_ref().is_some_and(|r| r.infinite) =>
            {
                self.error(&format!(
                    "'{}' ignored: an infinite search is running (send stop first)",
                    quote(line, 32)
                ));
            }
            "position" | "go" | "setoption" | "uginewgame" | "d" => {
                // A finite search ends on its own: finish it, then obey.
                self.collect(Collect::Wait);
                self.command(cmd, rest, line);
            }
            _ => self.say(&format!("info string unknown command: {}", quote(line, 64))),
        }
        Flow::Continue
    }

    /// The commands that need the game (no search running).
    fn command(&mut self, cmd: &str, rest: &str, line: &str) {
        match cmd {
            "position" => self.position(rest),
            "go" => self.go(rest),
            "setoption" => self.setoption(rest),
            "uginewgame" => {
                if let Some(g) = self.game.as_mut() {
                    g.new_game();
                }
            }
            "d" => match self.game.as_ref() {
                Some(g) => {
                    for l in describe(g.as_ref()) {
                        self.say(&l);
                    }
                }
                None => self.error("no position: send position first"),
            },
            _ => self.say(&format!("info string unknown command: {}", quote(line, 64))),
        }
    }

    fn ugi(&self) {
        self.say(concat!("id name boardlab ", env!("CARGO_PKG_VERSION")));
        self.say("id author boardlab contributors");
        let d = EngineOptions::default();
        self.say(&format!(
            "option name Hash type spin default {} min {} max {}",
            d.hash_mb,
            SearchOptions::MIN_HASH_MB,
            SearchOptions::MAX_HASH_MB
        ));
        self.say(&format!(
            "option name Threads type spin default {} min {} max {}",
            d.threads,
            SearchOptions::MIN_THREADS,
            SearchOptions::MAX_THREADS
        ));
        self.say(&format!(
            "option name Seed type spin default {} min 0 max {}",
            d.seed,
            u64::MAX
        ));
        self.say("ugiok");
    }

    fn setoption(&mut self, rest: &str) {
        let Some(after_name) = rest.strip_prefix("name").map(str::trim_start) else {
            return self.error("setoption: expected 'setoption name <N> value <V>'");
        };
        let (name, value) = match after_name.split_once(" value") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (after_name.trim(), ""),
        };
        // Quoted wherever it is echoed: a direct caller may pass CR or LF inside.
        let name_q = quote(name, 24);
        let mut new = self.options;
        let parsed = parse_saturating(value);
        let check = |v: Option<i64>, min: usize, max: usize| -> Result<usize, String> {
            match v {
                Some(n) if n >= min as i64 && n <= max as i64 => Ok(n as usize),
                _ => Err(format!(
                    "setoption {name_q}: value '{}' is not an integer from {min} to {max}",
                    quote(value, 24)
                )),
            }
        };
        let result = match name.to_ascii_lowercase().as_str() {
            "hash" => check(
                parsed,
                SearchOptions::MIN_HASH_MB,
                SearchOptions::MAX_HASH_MB,
            )
            .map(|v| new.hash_mb = v),
            "threads" => check(
                parsed,
                SearchOptions::MIN_THREADS,
                SearchOptions::MAX_THREADS,
            )
            .map(|v| new.threads = v),
            "seed" => value.parse::<u64>().map(|v| new.seed = v).map_err(|_| {
                format!(
                    "setoption Seed: value '{}' is not an integer from 0 to {}",
                    quote(value, 24),
                    u64::MAX
                )
            }),
            _ => Err(format!(
                "setoption: unknown option '{}' (Hash, Threads, Seed)",
                quote(name, 24)
            )),
        };
        if let Err(e) = result {
            return self.error(&e);
        }
        if new == self.options {
            return;
        }
        let applied = match (self.game.as_mut(), new.search_options()) {
            (_, Err(e)) => Err(e),
            (Some(g), Ok(o)) => g
                .set_player(AgentKind::Engine, o)
                .map_err(|e| e.to_string()),
            (None, Ok(_)) => Ok(()),
        };
        match applied {
            Ok(()) => self.options = new,
            Err(e) => {
                // Restore an engine under the previous options.
                if let (Some(g), Ok(o)) = (self.game.as_mut(), self.options.search_options()) {
                    let _ = g.set_player(AgentKind::Engine, o);
                }
                self.error(&format!("setoption {name_q}: {e}"));
            }
        }
    }

    fn position(&mut self, rest: &str) {
        let mut words = rest.split_whitespace();
        let (Some(spec), Some(startpos)) = (words.next(), words.next()) else {
            return self.error("position: expected 'position <spec> startpos [moves ...]'");
        };
        if startpos != "startpos" {
            return self.error(&format!(
                "position: expected 'startpos' after the spec, got '{}'",
                quote(startpos, 24)
            ));
        }
        let moves: Vec<&str> = match words.next() {
            None => Vec::new(),
            Some("moves") => words.collect(),
            Some(other) => {
                return self.error(&format!(
                    "position: expected 'moves' after startpos, got '{}'",
                    quote(other, 24)
                ));
            }
        };
        let registry = Arc::clone(&self.registry);
        let parsed = GameSpec::parse(spec);
        let (parsed, entry) = match parsed.and_then(|p| registry.get(&p.id).map(|e| (p, e))) {
            Ok(found) => found,
            Err(e) => return self.error(&format!("bad game spec '{}': {e}", quote(spec, 40))),
        };
        if let Some(g) = self.game.as_mut()
            && g.id() == entry.id()
        {
            if let Err(e) = g.set_position(&parsed, &moves) {
                self.error(&position_error(spec, e));
            }
            return;
        }
        let options = match self.options.search_options() {
            Ok(o) => o,
            Err(e) => return self.error(&e),
        };
        // Free the previous engine's table first.
        let previous = self.game.take();
        match new_game(entry, spec, &parsed, &moves, options) {
            Ok(g) => {
                drop(previous);
                self.game = Some(g);
            }
            Err(e) => {
                self.game = previous;
                self.error(&e);
            }
        }
    }

    fn go(&mut self, rest: &str) {
        // The move's clock starts now, before the search thread is started.
        let start = Instant::now();
        let params = match GoParams::parse(rest) {
            Ok(p) => p,
            Err(e) => return self.error(&e),
        };
        let Some(mut game) = self.game.take() else {
            return self.error("go: no position: send position first");
        };
        if game.outcome_reason().is_some() {
            let out = self.out.clone();
            let best = go(game.as_mut(), &Limits::new(), &mut |l| out.line(&l));
            self.say(&best);
            self.game = Some(game);
            return;
        }
        let side = game.side_to_move();
        let infinite = params.is_infinite(side);
        let stop = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let limits = params
            .limits(side)
            .with_start(start)
            .with_stop_flag(stop.clone());
        let (out, stop2, done2) = (self.out.clone(), stop.clone(), done.clone());
        // The game goes to the worker through a slot, so that it comes back if the
        // thread cannot be started.
        let slot = Arc::new(Mutex::new(None::<Box<dyn DynGame>>));
        *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(game);
        let slot2 = slot.clone();
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let taken = slot2.lock().unwrap_or_else(|e| e.into_inner()).take();
                let mut game = taken?;
                let best = go(game.as_mut(), &limits, &mut |l| out.line(&l));
                if infinite {
                    // UCI: in infinite mode bestmove waits for stop.
                    while !stop2.load(Ordering::Acquire) {
                        std::thread::sleep(Duration::from_millis(2));
                    }
                }
                done2.store(true, Ordering::Release);
                out.line(&best);
                Some(game)
            });
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    handle,
                    stop,
                    done,
                    infinite,
                });
            }
            Err(e) => {
                self.game = slot.lock().unwrap_or_else(|e| e.into_inner()).take();
                self.error(&format!("cannot start the search thread: {e}"));
            }
        }
    }
}

/// Runs the engine protocol on `input` until `quit` or the end of the input.
pub fn run<R: BufRead>(input: R, output: Output) -> io::Result<()> {
    run_with(input, output, Arc::new(Registry::bundled()))
}

/// Runs the engine protocol over the games of `registry` until `quit` or the end of the
/// input.
pub fn run_with<R: BufRead>(
    mut input: R,
    output: Output,
    registry: Arc<Registry>,
) -> io::Result<()> {
    let mut session = EngineSession::with_registry(output.clone(), registry);
    while let Some(line) = read_line_capped(&mut input, MAX_LINE_BYTES)? {
        match line {
            Line::TooLong => output.line(&format!(
                "info string error: line longer than {MAX_LINE_BYTES} bytes ignored"
            )),
            Line::Text(text) => {
                if session.handle(&text) == Flow::Quit {
                    return Ok(());
                }
            }
        }
    }
    session.shutdown();
    Ok(())
}

/// Runs the engine protocol on stdin/stdout (`boardlab engine`).
pub fn run_stdio() -> io::Result<()> {
    run(io::stdin().lock(), Output::new(io::stdout()))
}

/// [`run_with`] on stdin and stdout.
pub fn run_stdio_with(registry: Arc<Registry>) -> io::Result<()> {
    run_with(io::stdin().lock(), Output::new(io::stdout()), registry)
}

#[cfg(test)]
mod tests;
