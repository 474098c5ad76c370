//! The Botzone Amazons bot (8×8, `amazons:size=8`), as specified in
//! `docs/protocol-botzone.md`.
//!
//! [`BotzoneBot::handle`] maps the text of one turn's input to the text of the reply — a
//! pure state machine, no I/O, so it is unit-tested and fuzzable; [`run`] is the
//! stdin/stdout loop around it ([`read_turn`] decides how many lines make one turn).
//!
//! # Modes
//! - **Simple interaction**: `n`, then `2n − 1` move lines (requests and our responses
//!   alternating, the last one the new request), then optional data/globaldata lines
//!   (ignored: this bot saves nothing). Output: the move line `x0 y0 x1 y1 x2 y2`.
//! - **JSON interaction**: one line `{"requests":[...],"responses":[...],...}`. Output: one
//!   line `{"response":{"x0":..,..},"debug":"..."}`. A `time_limit` (seconds) lowers the
//!   turn's limit to it.
//! - **Keep-running** (on unless disabled): after each move the marker
//!   [`KEEP_RUNNING_MARKER`] is printed on its own line; the next input is then only the
//!   new request (`x0 .. y2` in simple mode; in JSON mode the request object
//!   `{"x0":..}`, or a full `{"requests":..}` object, which re-synchronises the game).
//!
//! # Coordinates
//! Wire `(x, y)`: column `x` from the left, row `y` from the **top**: square `a+x`,
//! rank `8 − y` (`(0,0)` is `a8`), i.e. boardlab square index `(7 − y)·8 + x`
//! ([`move_of_wire`] / [`wire_of_move`]). Black (top) moves first; Black's first request is
//! `-1 -1 -1 -1 -1 -1`.
//!
//! # Time and memory
//! The clock of a turn starts when its input has been read, and for the first turn of a
//! process (every turn in restart mode) when the bot was built: the platform's limit is
//! [`FIRST_TURN_LIMIT`] (2 s) on the bot's first turn (`n = 1`) and [`TURN_LIMIT`] (1 s)
//! afterwards; the engine's time manager ([`search::TimeBudget::per_move`]) searches to
//! that limit less its reserve for the reply ([`search::time::reserve`]: 50 ms and a 32nd of
//! the limit). One search thread, a [`HASH_MB`] MiB table (256 MB allowed), allocated and
//! written through when the bot starts.
//!
//! # Errors
//! Malformed input (not a number, a wrong count of lines, a coordinate off the board, an
//! illegal or impossible history, a finished game) is a [`BotzoneError`]; [`run`] returns
//! it so the binary can print it on stderr and exit without a move. Nothing panics.

use std::{
    io::{self, BufRead, Write},
    time::{Duration, Instant},
};

use board_core::{Notation, Player, Position, Rules, Square};
use boardlab_games::Game as _;
use rules_amazons::{AmazonsConfig, AmazonsMove, AmazonsPosition};
use search::{Agent, AgentKind, Limits, SearchOptions, TimeBudget};
use serde_json::{Value, json};

use crate::lines::{Line, MAX_LINE_BYTES, parse_saturating, quote, read_line_capped, write_line};

/// The board side Botzone plays on.
pub const SIZE: u32 = 8;
/// The line asking the platform to keep the process alive until the next turn.
pub const KEEP_RUNNING_MARKER: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";
/// The platform's time limit on the bot's first turn.
pub const FIRST_TURN_LIMIT: Duration = Duration::from_millis(2000);
/// The platform's time limit on every later turn.
pub const TURN_LIMIT: Duration = Duration::from_millis(1000);
/// Transposition-table size (the platform allows 256 MB).
pub const HASH_MB: usize = 32;
/// Largest turn number accepted: an 8×8 game has at most 56 moves (one arrow each).
pub const MAX_TURN: i64 = 64;

/// A move on the wire: `x0 y0 x1 y1 x2 y2` (from, to, arrow).
pub type Wire = [i64; 6];
/// Black's first request: "you move first".
pub const FIRST_MOVE: Wire = [-1; 6];

/// Why a turn could not be answered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotzoneError {
    /// The input is not in any Botzone format.
    #[error("malformed input: {0}")]
    Input(String),
    /// A move of the history is off the board or illegal where it is played.
    #[error("bad history: move {index} ('{text}', {role}): {reason}")]
    History {
        /// 1-based index of the move in the history (requests and responses interleaved).
        index: usize,
        /// The move as the platform sent it.
        text: String,
        /// Whose move it was: a request (the opponent's) or a response (ours).
        role: &'static str,
        /// Why the rules refused it.
        reason: String,
    },
    /// The history is legal but the game is already over.
    #[error("the game is already over: {0}")]
    GameOver(String),
    /// The engine could not be built, or its answer broke the rules.
    #[error("engine: {0}")]
    Engine(String),
    /// Reading stdin or writing stdout failed.
    #[error("i/o: {0}")]
    Io(String),
}

impl From<io::Error> for BotzoneError {
    fn from(e: io::Error) -> BotzoneError {
        BotzoneError::Io(e.to_string())
    }
}

fn input_err(msg: impl Into<String>) -> BotzoneError {
    BotzoneError::Input(msg.into())
}

/// Which interaction the platform speaks (fixed by the first turn's input).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Simple interaction: a count, then one move per line.
    Simple,
    /// JSON interaction: one object with `requests` and `responses`.
    Json,
}

/// One complete turn's input (restart mode, or the first turn of keep-running).
#[derive(Clone, Debug, PartialEq)]
pub struct TurnInput {
    /// The interaction the input came in (the reply uses the same).
    pub format: Format,
    /// The platform's requests: opponent moves (`requests[0]` may be [`FIRST_MOVE`]).
    pub requests: Vec<Wire>,
    /// Our earlier responses (one fewer than the requests).
    pub responses: Vec<Wire>,
    /// JSON `time_limit` in seconds, when given and positive.
    pub time_limit: Option<f64>,
}

/// The square of wire `(x, y)`, if on the board.
pub fn square_of(x: i64, y: i64) -> Option<Square> {
    let on = |v: i64| (0..i64::from(SIZE)).contains(&v);
    (on(x) && on(y)).then(|| Square::new(((i64::from(SIZE) - 1 - y) * i64::from(SIZE) + x) as u16))
}

/// Wire `(x, y)` of a square of the 8×8 board (inverse of [`square_of`]).
pub fn xy_of(sq: Square) -> (u32, u32) {
    let i = sq.index() as u32;
    (i % SIZE, SIZE - 1 - i / SIZE)
}

/// The move of six wire integers (syntax and board bounds only; legality is the
/// position's business).
pub fn move_of_wire(w: &Wire) -> Result<AmazonsMove, String> {
    let sq = |x: i64, y: i64| {
        square_of(x, y).ok_or_else(|| format!("({x}, {y}) is off the {SIZE}x{SIZE} board"))
    };
    Ok(AmazonsMove::new(
        sq(w[0], w[1])?,
        sq(w[2], w[3])?,
        sq(w[4], w[5])?,
    ))
}

/// The six wire integers of a move.
pub fn wire_of_move(mv: AmazonsMove) -> [u32; 6] {
    let (x0, y0) = xy_of(mv.from);
    let (x1, y1) = xy_of(mv.to);
    let (x2, y2) = xy_of(mv.arrow);
    [x0, y0, x1, y1, x2, y2]
}

fn wire_text(w: &Wire) -> String {
    w.iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads a simple-mode move line: exactly six integers.
pub fn parse_wire_line(line: &str) -> Result<Wire, BotzoneError> {
    let parts: Vec<&str> = line.split_whitespace().collect();
    if parts.len() != 6 {
        return Err(input_err(format!(
            "expected a move 'x0 y0 x1 y1 x2 y2', got '{}'",
            quote(line, 40)
        )));
    }
    let mut w = [0i64; 6];
    for (slot, p) in w.iter_mut().zip(&parts) {
        *slot = parse_saturating(p).ok_or_else(|| {
            input_err(format!(
                "'{}' is not an integer in move '{}'",
                quote(p, 12),
                quote(line, 40)
            ))
        })?;
    }
    Ok(w)
}

/// Reads a JSON move object `{"x0":..,"y0":..,"x1":..,"y1":..,"x2":..,"y2":..}`.
pub fn wire_of_json(v: &Value) -> Result<Wire, BotzoneError> {
    let Some(obj) = v.as_object() else {
        return Err(input_err(format!(
            "expected a move object {{\"x0\":..}}, got {}",
            quote(&v.to_string(), 40)
        )));
    };
    let mut w = [0i64; 6];
    for (slot, key) in w.iter_mut().zip(["x0", "y0", "x1", "y1", "x2", "y2"]) {
        let field = obj
            .get(key)
            .ok_or_else(|| input_err(format!("move object without \"{key}\"")))?;
        *slot = match field {
            Value::Number(n) => n
                .as_i64()
                .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64)),
            Value::String(s) => parse_saturating(s),
            _ => None,
        }
        .ok_or_else(|| {
            input_err(format!(
                "\"{key}\" is not an integer: {}",
                quote(&field.to_string(), 24)
            ))
        })?;
    }
    Ok(w)
}

/// Reads a simple-interaction turn: `n`, then `2n − 1` move lines (blank lines skipped,
/// anything after them — data, globaldata — ignored).
pub fn parse_simple(text: &str) -> Result<TurnInput, BotzoneError> {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines
        .next()
        .ok_or_else(|| input_err("empty input: expected a turn number or a JSON object"))?;
    let n = parse_saturating(first).ok_or_else(|| {
        input_err(format!(
            "the first line must be the turn number, got '{}'",
            quote(first, 32)
        ))
    })?;
    if !(1..=MAX_TURN).contains(&n) {
        return Err(input_err(format!(
            "turn number {n} is out of range 1..{MAX_TURN}"
        )));
    }
    let n = n as usize;
    let mut requests = Vec::with_capacity(n);
    let mut responses = Vec::with_capacity(n);
    for i in 0..2 * n - 1 {
        let line = lines.next().ok_or_else(|| {
            input_err(format!(
                "turn {n} needs {} move lines, only {i} given",
                2 * n - 1
            ))
        })?;
        let w = parse_wire_line(line)?;
        if i % 2 == 0 {
            requests.push(w);
        } else {
            responses.push(w);
        }
    }
    Ok(TurnInput {
        format: Format::Simple,
        requests,
        responses,
        time_limit: None,
    })
}

/// Reads a JSON-interaction turn (one line).
pub fn parse_json(text: &str) -> Result<TurnInput, BotzoneError> {
    let v: Value =
        serde_json::from_str(text.trim()).map_err(|e| input_err(format!("not valid JSON: {e}")))?;
    turn_of_json(&v)
}

fn turn_of_json(v: &Value) -> Result<TurnInput, BotzoneError> {
    let list = |key: &str| -> Result<Vec<Wire>, BotzoneError> {
        match v.get(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(a)) if a.len() <= MAX_TURN as usize => {
                a.iter().map(wire_of_json).collect()
            }
            Some(Value::Array(a)) => Err(input_err(format!(
                "\"{key}\" has {} moves (at most {MAX_TURN})",
                a.len()
            ))),
            Some(other) => Err(input_err(format!(
                "\"{key}\" must be an array, got {}",
                quote(&other.to_string(), 24)
            ))),
        }
    };
    if !v.is_object() {
        return Err(input_err("the JSON input must be an object"));
    }
    let requests = list("requests")?;
    let responses = list("responses")?;
    if requests.is_empty() {
        return Err(input_err("\"requests\" is missing or empty"));
    }
    if responses.len() + 1 != requests.len() {
        return Err(input_err(format!(
            "{} requests need {} responses, got {}",
            requests.len(),
            requests.len() - 1,
            responses.len()
        )));
    }
    let time_limit = v
        .get("time_limit")
        .and_then(Value::as_f64)
        .filter(|t| t.is_finite() && *t > 0.0);
    Ok(TurnInput {
        format: Format::Json,
        requests,
        responses,
        time_limit,
    })
}

/// Reads a full turn in either format (JSON when the text starts with `{`).
pub fn parse_turn(text: &str) -> Result<TurnInput, BotzoneError> {
    if text.trim_start().starts_with('{') {
        parse_json(text)
    } else {
        parse_simple(text)
    }
}

/// Replays a turn's history from the 8×8 start: the position the bot must move in. Every
/// move is checked; the game must not be over.
pub fn replay(input: &TurnInput) -> Result<AmazonsPosition, BotzoneError> {
    let mut pos = AmazonsPosition::new(AmazonsConfig::SMALL);
    let mut index = 0;
    for (i, request) in input.requests.iter().enumerate() {
        index += 1;
        if i == 0 && *request == FIRST_MOVE {
            // We are Black and move first.
        } else {
            play_wire(&mut pos, request, index, "opponent's move")?;
        }
        if let Some(response) = input.responses.get(i) {
            index += 1;
            play_wire(&mut pos, response, index, "our move")?;
        }
    }
    if let Some(reason) = pos.outcome_reason() {
        return Err(BotzoneError::GameOver(reason));
    }
    Ok(pos)
}

fn play_wire(
    pos: &mut AmazonsPosition,
    w: &Wire,
    index: usize,
    role: &'static str,
) -> Result<(), BotzoneError> {
    let history = |reason: String| BotzoneError::History {
        index,
        text: wire_text(w),
        role,
        reason,
    };
    if *w == FIRST_MOVE {
        return Err(history(
            "'-1 -1 -1 -1 -1 -1' is only valid as the very first request".into(),
        ));
    }
    let mv = move_of_wire(w).map_err(history)?;
    let text = pos.format_move(mv);
    pos.play(mv)
        .map(|_| ())
        .map_err(|e| history(format!("{text} is illegal: {e}")))
}

/// What a turn produces: the stdout lines and a one-line log for stderr.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The lines for stdout, in the turn's interaction format.
    pub lines: Vec<String>,
    /// One line for stderr: the search's summary of the turn (depth, score, time).
    pub log: String,
    /// The move played, in boardlab notation (`c8-c6/e6`).
    pub notation: String,
}

/// The Botzone bot as a state machine: one turn's input text in, the reply out.
pub struct BotzoneBot {
    agent: Box<dyn Agent<AmazonsPosition>>,
    /// The position after our last move (keep-running); `None` before the first turn.
    pos: Option<AmazonsPosition>,
    format: Format,
    keep_running: bool,
    first_limit: Duration,
    limit: Duration,
    /// When the bot was built: the process start, where the platform's clock of the first
    /// turn starts.
    created: Instant,
}

impl BotzoneBot {
    /// A bot playing with `kind` (normally the engine); `keep_running` asks the platform to
    /// keep the process alive between turns.
    pub fn new(kind: AgentKind, keep_running: bool) -> Result<BotzoneBot, BotzoneError> {
        let options = SearchOptions::default()
            .with_hash_mb(HASH_MB)
            .and_then(|o| o.with_threads(1))
            .map_err(|e| BotzoneError::Engine(e.to_string()))?
            .with_seed(1);
        let agent = AmazonsPosition::player(kind, options)
            .map_err(|e| BotzoneError::Engine(e.to_string()))?;
        Ok(BotzoneBot {
            agent,
            pos: None,
            format: Format::Simple,
            keep_running,
            first_limit: FIRST_TURN_LIMIT,
            limit: TURN_LIMIT,
            created: Instant::now(),
        })
    }

    /// Replaces the platform's time limits (first turn, later turns); for tests and other
    /// platforms.
    pub fn with_turn_limits(mut self, first: Duration, later: Duration) -> BotzoneBot {
        self.first_limit = first;
        self.limit = later;
        self
    }

    /// True once a turn has been answered in keep-running mode: the next input is a single
    /// request.
    pub fn started(&self) -> bool {
        self.pos.is_some()
    }

    /// Whether the bot asks the platform to keep it running between turns.
    pub fn keep_running(&self) -> bool {
        self.keep_running
    }

    /// The format of the first turn (simple until then).
    pub fn format(&self) -> Format {
        self.format
    }

    /// The position after our last move (keep-running only).
    pub fn position(&self) -> Option<&AmazonsPosition> {
        self.pos.as_ref()
    }

    /// Answers one turn. `input` is a full turn (see [`parse_turn`]) at first; once
    /// [`started`](BotzoneBot::started), only the new request (a move line, a JSON move
    /// object, or again a full JSON turn). `start` is when the input was read. On an error
    /// the state is unchanged.
    pub fn handle(&mut self, input: &str, start: Instant) -> Result<Reply, BotzoneError> {
        let trimmed = input.trim();
        let (pos, limit, format) = match self.pos.as_ref() {
            Some(prev) => self.next_request(prev, trimmed)?,
            None => {
                let turn = parse_turn(trimmed)?;
                let pos = replay(&turn)?;
                (pos, self.turn_limit(&turn), turn.format)
            }
        };
        self.format = format;
        let mut pos = pos;
        let (mv, log) = self.think(&pos, turn_budget(limit), start)?;
        let notation = pos.format_move(mv);
        pos.make_move(mv);
        let w = wire_of_move(mv);
        let mut lines = vec![match format {
            Format::Simple => w.map(|v| v.to_string()).join(" "),
            Format::Json => json!({
                "response": {
                    "x0": w[0], "y0": w[1], "x1": w[2], "y1": w[3], "x2": w[4], "y2": w[5]
                },
                "debug": format!("{notation} {log}"),
            })
            .to_string(),
        }];
        if self.keep_running {
            lines.push(KEEP_RUNNING_MARKER.to_string());
            self.pos = Some(pos);
        }
        Ok(Reply {
            lines,
            log,
            notation,
        })
    }

    /// The platform's limit on a full turn: the first-turn limit for the bot's first turn,
    /// lowered to a JSON `time_limit`.
    fn turn_limit(&self, turn: &TurnInput) -> Duration {
        let base = if turn.requests.len() == 1 {
            self.first_limit
        } else {
            self.limit
        };
        match turn.time_limit {
            Some(t) => base.min(Duration::from_secs_f64(t.min(3600.0))),
            None => base,
        }
    }

    /// A keep-running turn: the opponent's move applied to the position after ours.
    fn next_request(
        &self,
        prev: &AmazonsPosition,
        text: &str,
    ) -> Result<(AmazonsPosition, Duration, Format), BotzoneError> {
        let w = if text.starts_with('{') {
            let v: Value = serde_json::from_str(text)
                .map_err(|e| input_err(format!("not valid JSON: {e}")))?;
            if v.get("requests").is_some() {
                // A full turn again: start over from its history.
                let turn = turn_of_json(&v)?;
                let pos = replay(&turn)?;
                return Ok((pos, self.turn_limit(&turn), Format::Json));
            }
            wire_of_json(&v)?
        } else {
            parse_wire_line(text)?
        };
        let mut pos = prev.clone();
        let index = pos.ply() as usize + 1;
        play_wire(&mut pos, &w, index, "opponent's move")?;
        if let Some(reason) = pos.outcome_reason() {
            return Err(BotzoneError::GameOver(reason));
        }
        Ok((pos, self.limit, self.format))
    }

    /// Searches `pos` within `budget`, counted from `start`; always a legal move (the game
    /// is not over here).
    fn think(
        &mut self,
        pos: &AmazonsPosition,
        budget: TimeBudget,
        start: Instant,
    ) -> Result<(AmazonsMove, String), BotzoneError> {
        let mut limits = Limits::new().with_budget(budget).with_start(start);
        if budget.hard < Duration::from_millis(20) {
            limits = limits.with_depth(1);
        }
        let (mv, result) = search::think_checked(self.agent.as_mut(), pos, &limits, &mut |_| {})
            .map_err(|e| BotzoneError::Engine(e.to_string()))?;
        let side = match pos.side_to_move() {
            Player::First => "black",
            Player::Second => "white",
        };
        let log = format!(
            "{side} ply {} depth {} score {} nodes {} time {}ms",
            pos.ply(),
            result.depth,
            result.score,
            result.stats.nodes,
            start.elapsed().as_millis()
        );
        Ok((mv, log))
    }
}

/// The budget of a turn with the platform's `limit` (a per-move limit, no clock).
pub fn turn_budget(limit: Duration) -> TimeBudget {
    TimeBudget::per_move(limit, None)
}

/// Reads one turn's input: before the first reply a full turn (one JSON line, or `n` and
/// its `2n − 1` move lines), afterwards (keep-running) one request line. Blank lines are
/// skipped. `None` at the end of the input.
pub fn read_turn<R: BufRead + ?Sized>(
    input: &mut R,
    started: bool,
) -> Result<Option<String>, BotzoneError> {
    let Some(first) = next_nonblank(input)? else {
        return Ok(None);
    };
    if started || first.starts_with('{') {
        return Ok(Some(first));
    }
    let mut text = first.clone();
    // An unreadable or out-of-range turn number: hand it over alone, `handle` refuses it.
    let Some(n) = parse_saturating(&first).filter(|n| (1..=MAX_TURN).contains(n)) else {
        return Ok(Some(text));
    };
    for _ in 0..2 * n - 1 {
        match next_nonblank(input)? {
            Some(line) => {
                text.push('\n');
                text.push_str(&line);
            }
            None => break,
        }
    }
    Ok(Some(text))
}

fn next_nonblank<R: BufRead + ?Sized>(input: &mut R) -> Result<Option<String>, BotzoneError> {
    loop {
        match read_line_capped(input, MAX_LINE_BYTES)? {
            None => return Ok(None),
            Some(Line::TooLong) => {
                return Err(input_err(format!(
                    "a line longer than {MAX_LINE_BYTES} bytes"
                )));
            }
            Some(Line::Text(t)) => {
                let t = t.trim();
                if !t.is_empty() {
                    return Ok(Some(t.to_string()));
                }
            }
        }
    }
}

/// Runs the bot: one turn in restart mode, turns until the end of the input in
/// keep-running mode. Each reply is flushed; `log` gets one line per move. The first bad
/// input ends the loop with its error (the caller reports it on stderr).
pub fn run<R: BufRead, W: Write, L: Write>(
    bot: &mut BotzoneBot,
    mut input: R,
    mut output: W,
    mut log: L,
) -> Result<(), BotzoneError> {
    while let Some(text) = read_turn(&mut input, bot.started())? {
        // The platform starts a process for the bot's first turn (and, in restart mode,
        // for every turn): its start-up, the engine's construction included, is on that
        // turn's clock. Later keep-running turns start when their input is read.
        let start = if bot.started() {
            Instant::now()
        } else {
            bot.created
        };
        let reply = bot.handle(&text, start)?;
        for line in &reply.lines {
            write_line(&mut output, line)?;
        }
        // The log is best effort: a closed stderr must not stop the bot.
        let _ = writeln!(log, "botzone: {} {}", reply.notation, reply.log);
        if !bot.keep_running() {
            break;
        }
    }
    Ok(())
}

/// Runs the bot on stdin/stdout/stderr (what `boardlab botzone` does).
pub fn run_stdio(kind: AgentKind, keep_running: bool) -> Result<(), BotzoneError> {
    let mut bot = BotzoneBot::new(kind, keep_running)?;
    run(
        &mut bot,
        io::stdin().lock(),
        io::stdout().lock(),
        io::stderr().lock(),
    )
}

#[cfg(test)]
mod tests;
