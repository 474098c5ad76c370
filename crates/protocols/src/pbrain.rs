//! The Piskvork / Gomocup brain protocol (`pbrain-*` executables), for gomoku:
//! `docs/protocol-gomocup.md`.
//!
//! [`PbrainSession::handle`] is the whole protocol as a pure state machine: one manager
//! line in, the brain's reply lines out, no I/O (so it can be unit-tested and fuzzed);
//! [`run`] is the I/O loop around it. The design is single-threaded, as the protocol
//! allows: a move request is answered synchronously, and the search respects the time
//! limits on its own (see [`PbrainSession::move_budget`]): each move's clock starts when
//! its request was read, and the engine's time manager keeps a reserve for the reply.
//!
//! # Coordinates
//! Piskvork's `X,Y` are 0-based; `X` is the column (left to right) and `Y` the row counted
//! from the **top** of Piskvork's display. boardlab's squares count ranks from the bottom
//! (`a1` is bottom left), so `X,Y` is column `X` (letter `a + X`) and rank `size - Y`:
//! on a 15×15 board `0,0` is `a15`, `7,7` is `h8`, `14,14` is `o1`
//! ([`square_of`] / [`xy_of`]). The manager only ever uses `X,Y`, so any consistent
//! bijection works; this one keeps Piskvork's picture and boardlab's diagrams the same way up.
//!
//! # What is supported
//! - `START N` for N in 5..=26 (else `ERROR`); `RECTSTART W,H` only when `W == H`.
//! - `BEGIN`, `TURN X,Y`, `BOARD` … `DONE` (stones in any order; the side to move is
//!   inferred from the counts: equal counts make us Black, one more opponent stone makes us
//!   White, anything else is an `ERROR`), `PLAY X,Y` (echo), `TAKEBACK X,Y`, `RESTART`,
//!   `END`, `ABOUT` (key="value" pairs).
//! - `INFO timeout_turn | timeout_match | time_left | max_memory | rule | thread_num |
//!   max_depth | max_node | game_type | folder | evaluate`; unknown keys are ignored.
//!   `rule 0` is freestyle, `rule 1` exact five; any other rule makes the next move
//!   request answer `ERROR` (until a supported rule is set). A known key with an
//!   unreadable value is ignored with a `DEBUG` line.
//! - Anything else gets `UNKNOWN`; a malformed known command gets `ERROR <reason>`; the
//!   brain never exits except on `END` or the end of its input.
//! - Before the move line, one `MESSAGE depth D score S nodes N time MS pv X,Y ...` line.
//!
//! # Deviations
//! - A `BOARD` where the brain has one stone **more** than the opponent (as in the spec's
//!   example session) cannot arise from alternate play under boardlab's rules (Black moves
//!   first, turns alternate), so it is refused with `ERROR`; GomocupJudge never sends one.
//! - A malformed stone line inside `BOARD` is reported once, at `DONE` (`ERROR BOARD
//!   refused: ...`), and the position stays as it was.
//! - `SWAP2BOARD` and `SUGGEST` are not implemented (`UNKNOWN`).
//! - With `--player baseline` the brain plays the article's fixed-depth AI, which ignores
//!   the time limits by definition.

use std::{
    io::{self, BufRead, Write},
    time::{Duration, Instant},
};

use board_core::{Player, Position, Rules, Square};
use boardlab_games::Game as _;
use rules_gomoku::{GomokuConfig, GomokuPosition, Move, Rule};
use search::{Agent, AgentKind, Clock, Limits, SearchOptions, TimeBudget, TimeControl};

use crate::lines::{Line, MAX_LINE_BYTES, parse_saturating, quote, read_line_capped, write_line};

/// Smallest and largest board side accepted by `START`.
pub const MIN_SIZE: u32 = GomokuConfig::MIN_SIZE;
/// Largest board side accepted by `START`.
pub const MAX_SIZE: u32 = GomokuConfig::MAX_SIZE;
/// Per-move time when the manager never sends `INFO timeout_turn`, in ms.
pub const DEFAULT_TIMEOUT_TURN_MS: u64 = 5_000;
/// Hash size when memory is unlimited (or not announced), in MiB.
pub const DEFAULT_HASH_MB: usize = 64;
/// The moves the match clock (`time_left`) is shared over, recomputed every move: each
/// move's target is about a twentieth of what is left.
pub const MATCH_TIME_DIVISOR: u64 = 20;
/// `INFO time_left` value meaning "no match limit".
const UNLIMITED_TIME_LEFT: i64 = 2_147_483_647;

/// The `ABOUT` line.
pub const ABOUT: &str = concat!(
    "name=\"boardlab\", version=\"",
    env!("CARGO_PKG_VERSION"),
    "\", author=\"boardlab contributors\", country=\"-\", www=\"https://example.invalid/boardlab\""
);

/// The square of Piskvork's `X,Y` on a `size × size` board (`None` off the board).
pub fn square_of(size: u32, x: u32, y: u32) -> Option<Square> {
    (x < size && y < size).then(|| Square::new(((size - 1 - y) * size + x) as u16))
}

/// Piskvork's `(X, Y)` of a square on a `size × size` board (inverse of [`square_of`]).
pub fn xy_of(size: u32, sq: Square) -> (u32, u32) {
    let i = sq.index() as u32;
    (i % size, size - 1 - i / size)
}

/// Limits announced by `INFO` (`None`: never announced).
#[derive(Clone, Debug, Default)]
struct Info {
    timeout_turn: Option<u64>,
    timeout_match: Option<u64>,
    time_left: Option<i64>,
    max_memory: Option<u64>,
    rule: i64,
    threads: Option<usize>,
    max_depth: Option<u32>,
    max_node: Option<u64>,
}

struct Game {
    pos: GomokuPosition,
    agent: Box<dyn Agent<GomokuPosition>>,
    /// The hash size and thread count the agent was built with.
    built: (usize, usize),
}

/// Stones collected between `BOARD` and `DONE`.
#[derive(Default)]
struct BoardInput {
    stones: Vec<(i64, i64, i64)>,
    error: Option<String>,
}

/// The Piskvork brain as a state machine.
pub struct PbrainSession {
    kind: AgentKind,
    seed: u64,
    info: Info,
    game: Option<Game>,
    board: Option<BoardInput>,
    ended: bool,
}

impl Default for PbrainSession {
    fn default() -> Self {
        PbrainSession::new(AgentKind::Engine)
    }
}

fn err(msg: impl std::fmt::Display) -> Vec<String> {
    vec![format!("ERROR {msg}")]
}

impl PbrainSession {
    /// A brain playing with `kind` (normally the engine).
    pub fn new(kind: AgentKind) -> PbrainSession {
        PbrainSession {
            kind,
            seed: 1,
            info: Info::default(),
            game: None,
            board: None,
            ended: false,
        }
    }

    /// Sets the seed of the engine's tie-breaks (applies from the next `START`).
    pub fn with_seed(mut self, seed: u64) -> PbrainSession {
        self.seed = seed;
        self
    }

    /// True after `END`: the brain must exit and write nothing more.
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// The current position (after `START`).
    pub fn position(&self) -> Option<&GomokuPosition> {
        self.game.as_ref().map(|g| &g.pos)
    }

    /// The transposition-table size the brain uses under the announced `max_memory`: a
    /// quarter of the limit, 1..=64 MiB (64 MiB when unlimited).
    pub fn hash_mb(&self) -> usize {
        match self.info.max_memory {
            None | Some(0) => DEFAULT_HASH_MB,
            Some(m) => ((m / 4) >> 20).clamp(1, DEFAULT_HASH_MB as u64) as usize,
        }
    }

    /// The time limits of the next move as announced: `timeout_turn` (5 s when never
    /// announced) a per-move limit; `time_left`, when `timeout_match` is not 0 and the
    /// value is not the "unlimited" 2147483647, a match clock without increment shared over
    /// [`MATCH_TIME_DIVISOR`] moves (a negative value reads as 0).
    pub fn time_control(&self) -> TimeControl {
        let turn = self.info.timeout_turn.unwrap_or(DEFAULT_TIMEOUT_TURN_MS);
        let mut tc = TimeControl::per_move(Duration::from_millis(turn));
        let match_limited = self.info.timeout_match != Some(0);
        if let (true, Some(left)) = (match_limited, self.info.time_left)
            && left != UNLIMITED_TIME_LEFT
        {
            tc.clock = Some(Clock::new(
                Duration::from_millis(left.max(0) as u64),
                Duration::ZERO,
                Some(MATCH_TIME_DIVISOR as u32),
            ));
        }
        tc
    }

    /// The budget of the next move ([`TimeBudget::per_move`] of [`Self::time_control`]),
    /// counted from the moment the request was read: its hard stop is at most
    /// `min(timeout_turn, time_left)` less the reserve for pipes and scheduling. A zero hard
    /// stop means "answer at once" (`timeout_turn 0`, or an exhausted match clock).
    pub fn move_budget(&self) -> TimeBudget {
        let tc = self.time_control();
        TimeBudget::per_move(
            tc.move_limit
                .unwrap_or(Duration::from_millis(DEFAULT_TIMEOUT_TURN_MS)),
            tc.clock,
        )
    }

    /// Handles one line from the manager and returns the reply lines (often none).
    pub fn handle(&mut self, line: &str) -> Vec<String> {
        let start = Instant::now();
        let line = line.trim();
        if line.is_empty() || self.ended {
            return Vec::new();
        }
        if let Some(board) = self.board.as_mut() {
            let first = line.split([' ', '\t', ',']).next().unwrap_or("");
            if first.eq_ignore_ascii_case("DONE") {
                return self.finish_board(start);
            }
            if line.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+') {
                board_line(board, line);
                return Vec::new();
            }
            // A command in the middle of BOARD: the board is abandoned.
            self.board = None;
            let mut out = err(format!(
                "BOARD abandoned: expected x,y,field or DONE, got '{}'",
                quote(line, 24)
            ));
            out.extend(self.command(line, start));
            return out;
        }
        self.command(line, start)
    }

    fn command(&mut self, line: &str, start: Instant) -> Vec<String> {
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        match word.to_ascii_uppercase().as_str() {
            "START" => self.start(rest),
            "RECTSTART" => self.rectstart(rest),
            "RESTART" => self.restart(),
            "BEGIN" => self.begin(start),
            "TURN" => self.turn(rest, start),
            "PLAY" => self.play(rest),
            "BOARD" => {
                self.board = Some(BoardInput::default());
                Vec::new()
            }
            "TAKEBACK" => self.takeback(rest),
            "INFO" => self.info(rest),
            "END" => {
                self.ended = true;
                Vec::new()
            }
            "ABOUT" => vec![ABOUT.to_string()],
            _ => vec![format!("UNKNOWN command '{}'", quote(line, 32))],
        }
    }

    fn start(&mut self, rest: &str) -> Vec<String> {
        self.board = None;
        match parse_saturating(rest) {
            Some(n) if (i64::from(MIN_SIZE)..=i64::from(MAX_SIZE)).contains(&n) => {
                self.new_game(n as u32)
            }
            Some(n) => err(format!(
                "unsupported board size {n} (this brain plays {MIN_SIZE}..{MAX_SIZE})"
            )),
            None => err(format!(
                "START needs a board size {MIN_SIZE}..{MAX_SIZE}, got '{}'",
                quote(rest, 24)
            )),
        }
    }

    fn rectstart(&mut self, rest: &str) -> Vec<String> {
        self.board = None;
        let parts: Vec<Option<i64>> = rest.split(',').map(parse_saturating).collect();
        match parts.as_slice() {
            [Some(w), Some(h)] if w == h => self.start(&w.to_string()),
            [Some(w), Some(h)] => err(format!(
                "rectangular boards are not supported ({w}x{h}): only square {MIN_SIZE}..{MAX_SIZE}"
            )),
            _ => err(format!("RECTSTART needs W,H, got '{}'", quote(rest, 24))),
        }
    }

    fn new_game(&mut self, size: u32) -> Vec<String> {
        let rule = supported_rule(self.info.rule).unwrap_or_default();
        let config = match GomokuConfig::new(size, rule) {
            Ok(c) => c,
            Err(e) => return err(e),
        };
        // Free the previous table before allocating the next one.
        self.game = None;
        let built = (self.hash_mb(), self.info.threads.unwrap_or(1));
        match self.build_agent(built) {
            Ok(agent) => {
                self.game = Some(Game {
                    pos: GomokuPosition::new(config),
                    agent,
                    built,
                });
                vec!["OK".to_string()]
            }
            Err(e) => err(e),
        }
    }

    fn build_agent(
        &self,
        (hash_mb, threads): (usize, usize),
    ) -> Result<Box<dyn Agent<GomokuPosition>>, String> {
        let options = SearchOptions::default()
            .with_hash_mb(hash_mb)
            .and_then(|o| o.with_threads(threads))
            .map_err(|e| e.to_string())?
            .with_seed(self.seed);
        GomokuPosition::player(self.kind, options).map_err(|e| e.to_string())
    }

    fn restart(&mut self) -> Vec<String> {
        self.board = None;
        let Some(game) = self.game.as_mut() else {
            return err("no game to restart: send START first");
        };
        game.pos = GomokuPosition::new(*game.pos.config());
        game.agent.new_game();
        vec!["OK".to_string()]
    }

    /// Rebuilds the agent (and so its table) if `max_memory` or `thread_num` changed what
    /// it was built with. Done when the INFO line arrives (Gomocup sends them right after
    /// `START`), so that the first move's clock never pays for it.
    fn rebuild_if_changed(&mut self) -> Result<(), String> {
        let wanted = (self.hash_mb(), self.info.threads.unwrap_or(1));
        if self.game.as_ref().is_none_or(|g| g.built == wanted) {
            return Ok(());
        }
        if let Some(g) = self.game.as_mut() {
            // Drop the old table first: both must never be alive at once. The placeholder
            // never moves: every move request rebuilds first and fails while this fails.
            g.agent = Box::new(search::RandomAgent::new(0));
        }
        let agent = self.build_agent(wanted)?;
        if let Some(g) = self.game.as_mut() {
            g.agent = agent;
            g.built = wanted;
        }
        Ok(())
    }

    /// The checks before any move request: a board, a supported rule, the agent rebuilt
    /// if the memory or thread settings changed, the position under the announced rule.
    fn prepare(&mut self) -> Result<(), String> {
        let Some(rule) = supported_rule(self.info.rule) else {
            return Err(format!(
                "rule {} is not supported (0 = freestyle, 1 = exact five)",
                self.info.rule
            ));
        };
        if self.game.is_none() {
            return Err("no board: send START first".into());
        }
        // Normally done when the INFO line came; here only if that rebuild failed.
        self.rebuild_if_changed()?;
        let Some(game) = self.game.as_mut() else {
            return Err("no board: send START first".into());
        };
        if game.pos.rule() != rule {
            let config = GomokuConfig::new(game.pos.size(), rule).map_err(|e| e.to_string())?;
            game.pos = GomokuPosition::from_position_string(config, &game.pos.to_position_string())
                .map_err(|e| format!("the position is not valid under rule {rule}: {e}"))?;
        }
        Ok(())
    }

    fn begin(&mut self, start: Instant) -> Vec<String> {
        self.board = None;
        if let Err(e) = self.prepare() {
            return err(e);
        }
        self.think(start)
    }

    fn parse_xy(&self, text: &str) -> Result<Square, String> {
        let size = self.game.as_ref().map_or(0, |g| g.pos.size());
        let parts: Vec<Option<i64>> = text.split(',').map(parse_saturating).collect();
        match parts.as_slice() {
            [Some(x), Some(y)] => {
                let ok = |v: i64| u32::try_from(v).ok().filter(|&v| v < size);
                match (ok(*x), ok(*y)) {
                    (Some(x), Some(y)) => square_of(size, x, y)
                        .ok_or_else(|| format!("{x},{y} is off the {size}x{size} board")),
                    _ => Err(format!("{x},{y} is off the {size}x{size} board")),
                }
            }
            _ => Err(format!("expected X,Y, got '{}'", quote(text, 24))),
        }
    }

    /// Plays the opponent's stone (for the side to move) and answers with ours.
    fn turn(&mut self, rest: &str, start: Instant) -> Vec<String> {
        if let Err(e) = self.prepare() {
            return err(e);
        }
        if let Err(e) = self.place(rest) {
            return err(e);
        }
        self.think(start)
    }

    /// `PLAY X,Y`: our move forced by the manager; echoed.
    fn play(&mut self, rest: &str) -> Vec<String> {
        if let Err(e) = self.prepare() {
            return err(e);
        }
        match self.place(rest) {
            Ok(sq) => {
                let size = self.game.as_ref().map_or(0, |g| g.pos.size());
                let (x, y) = xy_of(size, sq);
                vec![format!("{x},{y}")]
            }
            Err(e) => err(e),
        }
    }

    fn place(&mut self, text: &str) -> Result<Square, String> {
        let sq = self.parse_xy(text)?;
        let Some(game) = self.game.as_mut() else {
            return Err("no board: send START first".into());
        };
        let (x, y) = xy_of(game.pos.size(), sq);
        game.pos
            .play(Move::new(sq))
            .map(|_| sq)
            .map_err(|e| format!("cannot play {x},{y}: {e}"))
    }

    fn takeback(&mut self, rest: &str) -> Vec<String> {
        self.board = None;
        let sq = match self.parse_xy(rest) {
            Ok(sq) => sq,
            Err(e) if self.game.is_none() => return err(format!("{e}: send START first")),
            Err(e) => return err(e),
        };
        let Some(game) = self.game.as_mut() else {
            return err("no board: send START first");
        };
        let size = game.pos.size();
        let (x, y) = xy_of(size, sq);
        if game.pos.stone_at(sq).is_none() {
            return err(format!("cannot take back {x},{y}: the square is empty"));
        }
        let mut cells = cells_of(&game.pos);
        cells[sq.index()] = None;
        match position_from_cells(*game.pos.config(), &cells) {
            Ok(pos) => {
                game.pos = pos;
                vec!["OK".to_string()]
            }
            Err(e) => err(format!("cannot take back {x},{y}: {e}")),
        }
    }

    fn finish_board(&mut self, start: Instant) -> Vec<String> {
        let Some(input) = self.board.take() else {
            return Vec::new();
        };
        if let Err(e) = self.prepare() {
            return err(e);
        }
        if let Some(e) = input.error {
            return err(format!("BOARD refused: {e}"));
        }
        let Some(game) = self.game.as_mut() else {
            return err("no board: send START first");
        };
        let size = game.pos.size();
        let mut own_cells: Vec<Option<bool>> = vec![None; (size * size) as usize];
        for &(x, y, f) in &input.stones {
            let on = |v: i64| u32::try_from(v).ok().filter(|&v| v < size);
            let Some(sq) = on(x).zip(on(y)).and_then(|(x, y)| square_of(size, x, y)) else {
                return err(format!(
                    "BOARD refused: {x},{y} is off the {size}x{size} board"
                ));
            };
            if own_cells[sq.index()].is_some() {
                return err(format!("BOARD refused: {x},{y} is given twice"));
            }
            own_cells[sq.index()] = Some(f == 1);
        }
        let own = own_cells.iter().filter(|c| **c == Some(true)).count();
        let opp = own_cells.iter().filter(|c| **c == Some(false)).count();
        let we = if own == opp {
            Player::First
        } else if opp == own + 1 {
            Player::Second
        } else {
            return err(format!(
                "BOARD refused: cannot infer the side to move from {own} own and {opp} \
                 opponent stones (expected equal counts, or one more opponent stone)"
            ));
        };
        let cells: Vec<Option<Player>> = own_cells
            .iter()
            .map(|c| c.map(|mine| if mine { we } else { we.other() }))
            .collect();
        match position_from_cells(*game.pos.config(), &cells) {
            Ok(pos) => game.pos = pos,
            Err(e) => return err(format!("BOARD refused: {e}")),
        }
        self.think(start)
    }

    fn info(&mut self, rest: &str) -> Vec<String> {
        let (key, value) = match rest.split_once(char::is_whitespace) {
            Some((k, v)) => (k.to_ascii_lowercase(), v.trim()),
            None => (rest.to_ascii_lowercase(), ""),
        };
        let num = parse_saturating(value);
        let bad = || {
            vec![format!(
                "DEBUG ignored INFO {}: '{}' is not an integer",
                quote(&key, 24),
                quote(value, 24)
            )]
        };
        let nonneg = |v: i64| u64::try_from(v.max(0)).unwrap_or(0);
        match key.as_str() {
            "timeout_turn" => match num {
                Some(v) => self.info.timeout_turn = Some(nonneg(v)),
                None => return bad(),
            },
            "timeout_match" => match num {
                Some(v) => self.info.timeout_match = Some(nonneg(v)),
                None => return bad(),
            },
            "time_left" => match num {
                Some(v) => self.info.time_left = Some(v),
                None => return bad(),
            },
            "max_memory" => match num {
                Some(v) => {
                    self.info.max_memory = Some(nonneg(v));
                    if let Err(e) = self.rebuild_if_changed() {
                        return err(e);
                    }
                }
                None => return bad(),
            },
            "rule" => match num {
                Some(v) => self.info.rule = v,
                None => return bad(),
            },
            "thread_num" => match num {
                Some(v) => {
                    self.info.threads = Some(v.clamp(1, 64) as usize);
                    if let Err(e) = self.rebuild_if_changed() {
                        return err(e);
                    }
                }
                None => return bad(),
            },
            "max_depth" => match num {
                Some(v) if v > 0 => self.info.max_depth = Some(v.min(i64::from(u32::MAX)) as u32),
                Some(_) => self.info.max_depth = None,
                None => return bad(),
            },
            "max_node" => match num {
                Some(v) if v > 0 => self.info.max_node = Some(nonneg(v)),
                Some(_) => self.info.max_node = None,
                None => return bad(),
            },
            // game_type, folder, evaluate (debug builds only; never answered) and any key
            // we do not know are ignored silently.
            _ => {}
        }
        Vec::new()
    }

    /// Searches the current position and plays the reply; the board is updated before the
    /// move line is returned.
    fn think(&mut self, start: Instant) -> Vec<String> {
        let budget = self.move_budget();
        let (max_depth, max_node) = (self.info.max_depth, self.info.max_node);
        let Some(game) = self.game.as_mut() else {
            return err("no board: send START first");
        };
        if let Some(reason) = game.pos.outcome_reason() {
            return err(format!("the game is over: {reason}"));
        }
        let mut limits = Limits::new().with_budget(budget).with_start(start);
        if budget.hard < Duration::from_millis(10) {
            // timeout_turn 0 or no time left: the shallowest search there is.
            limits = limits.with_depth(1);
        }
        if let Some(d) = max_depth {
            limits = limits.with_depth(d);
        }
        if let Some(n) = max_node {
            limits = limits.with_nodes(n);
        }
        let size = game.pos.size();
        let (mv, result) =
            match search::think_checked(game.agent.as_mut(), &game.pos, &limits, &mut |_| {}) {
                Ok(answer) => answer,
                Err(e) => return err(e),
            };
        // The PV in X,Y form, each move checked for legality as it is replayed.
        let mut pv_pos = game.pos.clone();
        let mut pv = Vec::new();
        for &m in &result.pv {
            if pv_pos.play(m).is_err() {
                break;
            }
            let (x, y) = xy_of(size, m.square());
            pv.push(format!("{x},{y}"));
        }
        game.pos.make_move(mv);
        let (x, y) = xy_of(size, mv.square());
        let mut message = format!(
            "MESSAGE depth {} score {} nodes {} time {}",
            result.depth,
            result.score,
            result.stats.nodes,
            start.elapsed().as_millis()
        );
        if !pv.is_empty() {
            message.push_str(" pv ");
            message.push_str(&pv.join(" "));
        }
        vec![message, format!("{x},{y}")]
    }
}

/// The rule of Gomocup's `INFO rule` value, if this brain plays it.
fn supported_rule(rule: i64) -> Option<Rule> {
    match rule {
        0 => Some(Rule::Freestyle),
        1 => Some(Rule::Exact5),
        _ => None,
    }
}

/// Records one `x,y,field` line of a `BOARD` block (the first error is kept for `DONE`).
fn board_line(board: &mut BoardInput, line: &str) {
    if board.error.is_some() {
        return;
    }
    let parts: Vec<Option<i64>> = line.split(',').map(parse_saturating).collect();
    let error = match parts.as_slice() {
        [Some(x), Some(y), Some(f)] if *f == 1 || *f == 2 => {
            if board.stones.len() >= board_core::MAX_CELLS {
                Some("more stones than any board has squares".to_string())
            } else {
                board.stones.push((*x, *y, *f));
                None
            }
        }
        [Some(x), Some(y), Some(3)] => Some(format!(
            "{x},{y},3: field 3 (continuous game) is not supported"
        )),
        [Some(_), Some(_), Some(f)] => Some(format!(
            "bad field {f} in '{}': expected 1 (own) or 2 (opponent)",
            quote(line, 24)
        )),
        _ => Some(format!("expected x,y,field, got '{}'", quote(line, 24))),
    };
    board.error = error;
}

/// Every square's stone.
fn cells_of(pos: &GomokuPosition) -> Vec<Option<Player>> {
    pos.geometry()
        .squares()
        .map(|sq| pos.stone_at(sq))
        .collect()
}

/// The position with these stones (indexed by square), Black to move on equal counts.
fn position_from_cells(
    config: GomokuConfig,
    cells: &[Option<Player>],
) -> Result<GomokuPosition, String> {
    let size = config.size() as usize;
    let mut s = String::with_capacity(cells.len() + 2 * size + 8);
    let (mut xs, mut os) = (0usize, 0usize);
    for rank in (0..size).rev() {
        if rank + 1 < size {
            s.push('/');
        }
        let mut run = 0;
        for col in 0..size {
            match cells.get(rank * size + col).copied().flatten() {
                None => run += 1,
                Some(p) => {
                    if run > 0 {
                        s.push_str(&run.to_string());
                        run = 0;
                    }
                    if p == Player::First {
                        xs += 1;
                        s.push('x');
                    } else {
                        os += 1;
                        s.push('o');
                    }
                }
            }
        }
        if run > 0 {
            s.push_str(&run.to_string());
        }
    }
    let stm = if xs == os {
        'x'
    } else if xs == os + 1 {
        'o'
    } else {
        return Err(format!(
            "{xs} Black and {os} White stones: Black must have as many as White or one more"
        ));
    };
    s.push_str(&format!(" {stm} {}", xs + os));
    GomokuPosition::from_position_string(config, &s).map_err(|e| e.to_string())
}

/// Runs the brain on `input`/`output` until `END` or the end of the input. Lines longer
/// than [`MAX_LINE_BYTES`] are answered `ERROR` and skipped.
pub fn run<R: BufRead, W: Write>(
    session: &mut PbrainSession,
    mut input: R,
    mut output: W,
) -> io::Result<()> {
    while let Some(line) = read_line_capped(&mut input, MAX_LINE_BYTES)? {
        match line {
            Line::TooLong => write_line(
                &mut output,
                &format!("ERROR line longer than {MAX_LINE_BYTES} bytes ignored"),
            )?,
            Line::Text(text) => {
                for reply in session.handle(&text) {
                    write_line(&mut output, &reply)?;
                }
            }
        }
        if session.ended() {
            break;
        }
    }
    Ok(())
}

/// Runs the brain on stdin/stdout (what `pbrain-boardlab` and `boardlab pbrain` do).
pub fn run_stdio(kind: AgentKind) -> io::Result<()> {
    let mut session = PbrainSession::new(kind);
    run(&mut session, io::stdin().lock(), io::stdout().lock())
}

#[cfg(test)]
mod tests;
