//! The terminal client (`boardlab connect`): a person plays on a `boardlab serve` server.
//!
//! [`Client`] is the client without sockets (unit tested): it turns what the user types
//! into protocol requests (a bare move `c4` becomes `move ID TOKEN c4` once a seat is
//! held), and each server line into what to print (the board of the game it concerns,
//! drawn by [`Follower`] from its own typed copy of the game, "your turn", the winner) and
//! what to save (seat tokens, in a [`TokenFile`]). [`connect`] runs it on a connection:
//! one thread reads the user's lines, one writes requests, and the calling thread prints
//! the server's lines until the server closes the connection; it is an error
//! ([`ConnectError::ServerGone`]) unless the user said `quit` or ended the input.

use std::{
    collections::{BTreeMap, VecDeque},
    io::{self, BufReader, IsTerminal, Write},
    net::TcpStream,
    path::PathBuf,
    sync::{Arc, Condvar, Mutex, mpsc},
};

use board_core::{Outcome, Player};

use boardlab_host::{limits::MAX_REQUEST_BYTES, seat_name, seat_of};
use protocols::lines::{Line, escape_controls, quote, read_line_capped, write_line};

/// Locks `m`, also when a thread panicked holding it (the state stays usable).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

mod follower;
mod tokens;

pub use follower::{Followed, Follower, Standing};
pub use tokens::{SavedSeat, TokenFile};

/// The protocol's commands: a typed line starting with one of these is sent as it is
/// (see [`Client::request_for`]); any other line is a move.
const COMMANDS: [&str; 11] = [
    "help", "create", "join", "rejoin", "engine", "watch", "unwatch", "move", "show", "list",
    "quit",
];

/// The protocol's requests a seat's player makes with the seat's token (`takeback ID
/// TOKEN`): typed alone (`takeback`; `assist on`), the client adds the current game and
/// the token of the seat held there; typed whole, they are sent as they are.
const SEAT_COMMANDS: [&str; 9] = [
    "takeback", "draw", "accept", "decline", "resign", "assist", "hint", "analyse", "rematch",
];

/// The seat requests about a finished game (a rematch, and the answer to one): typed
/// alone they also use the tokens of a game that ended by the players (kept in memory
/// only, see [`Client::ended`]).
const AFTER_THE_END: [&str; 3] = ["accept", "decline", "rematch"];

/// A request sent to the server, waiting for its reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sent {
    /// The request line.
    pub line: String,
    /// Sent by the client on its own (a `show` to catch up): the reply is not printed.
    pub auto: bool,
}

/// What the client does with one server line.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Reaction {
    /// Lines for stdout: the server's line (unless it answers the client's own request),
    /// a board, "your turn", the result.
    pub print: Vec<String>,
    /// Lines for stderr (`connect: ...`): what went wrong on the client's side.
    pub warn: Vec<String>,
    /// Requests to send on the client's own behalf.
    pub ask: Vec<String>,
}

/// The client's state: the games it follows, the seats it holds and their tokens, the
/// requests waiting for their replies.
pub struct Client {
    /// The server's address as typed (the key of the saved tokens).
    addr: String,
    tokens: Option<TokenFile>,
    follower: Follower,
    /// The tokens of the seats held, by game (first, second).
    seats: BTreeMap<u64, [Option<String>; 2]>,
    /// The tokens of the seats held in games a resignation, an agreed draw or a loss on
    /// time ended: no seat to play any more (and forgotten in the tokens file), but what
    /// asks for a rematch, or answers one, in this session.
    ended: BTreeMap<u64, [Option<String>; 2]>,
    /// The game bare moves go to: the one last created, joined or rejoined.
    current: Option<u64>,
    /// Requests sent, oldest first; each server line that is not pushed answers the first.
    sent: VecDeque<Sent>,
    said_bye: bool,
}

impl Client {
    /// A client of the server at `addr`, saving seat tokens to `tokens` (none: not
    /// saved), drawing boards in colour when `color` is set.
    pub fn new(addr: &str, tokens: Option<TokenFile>, color: bool) -> Client {
        Client {
            addr: addr.to_string(),
            tokens,
            follower: Follower::with_color(color),
            seats: BTreeMap::new(),
            ended: BTreeMap::new(),
            current: None,
            sent: VecDeque::new(),
            said_bye: false,
        }
    }

    /// The same client drawing the games of `registry` (instead of the bundled ones).
    pub fn with_games(mut self, registry: boardlab_games::Registry) -> Client {
        self.follower = self.follower.with_games(registry);
        self
    }

    /// The request for a line the user typed, or why there is none (blank lines are
    /// `Ok(None)`). A line starting with a protocol command is sent as typed, except
    /// that `join SEAT`, `engine SEAT [MS]` and a bare `show` or `watch` get the current
    /// game's id; any other line is a move, played in the current game with the token of
    /// the seat held there (of the seat to move, when both are).
    pub fn request_for(&self, typed: &str) -> Result<Option<String>, String> {
        let text = typed.trim();
        let words: Vec<&str> = text.split_whitespace().collect();
        let Some(first) = words.first() else {
            return Ok(None);
        };
        let command = first.to_ascii_lowercase();
        let command = if command == "analyze" {
            "analyse".to_string()
        } else {
            command
        };
        if SEAT_COMMANDS.contains(&command.as_str()) {
            return self.seat_request(&command, &words[1..]).map(Some);
        }
        if COMMANDS.contains(&command.as_str()) {
            let rest = &words[1..];
            let with_id = |n: u64| {
                Some(
                    format!("{command} {n} {}", rest.join(" "))
                        .trim_end()
                        .to_string(),
                )
            };
            let needs_id = match (command.as_str(), rest) {
                ("join", [seat]) | ("engine", [seat] | [seat, _]) => seat_of(seat).is_some(),
                ("show" | "watch", []) => true,
                _ => false,
            };
            return Ok(match (needs_id, self.current) {
                (true, Some(n)) => with_id(n),
                _ => Some(text.to_string()),
            });
        }
        let Some(n) = self.current else {
            return Err(format!(
                "'{}' is not a command ('help' lists them), and there is no game to play it \
                 in: 'create SPEC' and 'join first', or 'join ID first|second'",
                quote(text, 32)
            ));
        };
        let held = self.seats.get(&n).cloned().unwrap_or_default();
        let seat = match (&held, self.follower.state(n)) {
            ([Some(_), Some(_)], Some(Standing::ToMove(p))) => Some(p),
            ([Some(_), _], _) => Some(Player::First),
            ([None, Some(_)], _) => Some(Player::Second),
            ([None, None], _) => None,
        };
        let Some(seat) = seat else {
            return Err(format!(
                "'{}' is not a command ('help' lists them), and you hold no seat in game \
                 {n} to play it as a move: 'join {n} first|second' takes one",
                quote(text, 32)
            ));
        };
        let token = held[seat.index()].clone().unwrap_or_default();
        Ok(Some(format!("move {n} {token} {text}")))
    }

    /// A seat's request typed alone (`draw`, `assist on`): the current game's id and the
    /// token of the seat held there (of the seat to move, when both are) added. A typed
    /// id (`draw 3 TOKEN`) goes as typed. `analyse` without a seat is a spectator's.
    fn seat_request(&self, command: &str, rest: &[&str]) -> Result<String, String> {
        let bare = match (command, rest) {
            ("assist", [on]) => matches!(on.to_ascii_lowercase().as_str(), "on" | "off"),
            (_, []) => true,
            _ => false,
        };
        if !bare {
            return Ok(format!("{command} {}", rest.join(" ")));
        }
        let Some(n) = self.current else {
            return Err(format!(
                "'{command}' needs a game: 'join ID first|second' (or '{command} ID TOKEN')"
            ));
        };
        let mut held = self.seats.get(&n).cloned().unwrap_or_default();
        if held == [None, None] && AFTER_THE_END.contains(&command) {
            held = self.ended.get(&n).cloned().unwrap_or_default();
        }
        let seat = match (&held, self.follower.state(n)) {
            ([Some(_), Some(_)], Some(Standing::ToMove(p))) => Some(p),
            ([Some(_), _], _) => Some(Player::First),
            ([None, Some(_)], _) => Some(Player::Second),
            ([None, None], _) => None,
        };
        let token = seat.and_then(|p| held[p.index()].clone());
        let on = rest.first().map(|w| w.to_ascii_lowercase());
        Ok(match (token, on) {
            (Some(token), Some(on)) => format!("{command} {n} {token} {on}"),
            (Some(token), None) => format!("{command} {n} {token}"),
            (None, None) if command == "analyse" => format!("analyse {n}"),
            (None, _) => {
                return Err(format!(
                    "you hold no seat in game {n}: '{command}' is a player's request \
                     ('join {n} first|second' takes a seat)"
                ));
            }
        })
    }

    /// Records a request as sent (its reply is the next server line that is not pushed).
    pub fn sent(&mut self, line: &str, auto: bool) {
        self.sent.push_back(Sent {
            line: line.to_string(),
            auto,
        });
    }

    /// Whether requests are waiting for their replies.
    pub fn awaiting_replies(&self) -> bool {
        !self.sent.is_empty()
    }

    /// Whether the server said `ok bye` (it closes the connection next).
    pub fn said_bye(&self) -> bool {
        self.said_bye
    }

    /// The prompt: `game 3 (Black)> ` while a seat is held in the current game,
    /// `game 3> ` while watching one, `> ` before.
    pub fn prompt(&self) -> String {
        match self.current {
            // Before any game: which server, so the prompt says where the line goes.
            None => format!("{}> ", self.addr),
            Some(n) => {
                let held: Vec<&str> = [Player::First, Player::Second]
                    .into_iter()
                    .filter(|&p| self.holds(n, p))
                    .filter_map(|p| self.follower.player_name(n, p))
                    .collect();
                if held.is_empty() {
                    format!("game {n}> ")
                } else {
                    format!("game {n} ({})> ", held.join(", "))
                }
            }
        }
    }

    fn holds(&self, n: u64, p: Player) -> bool {
        self.seats.get(&n).is_some_and(|s| s[p.index()].is_some())
    }

    /// Whether seat `p` of game `n` is held, or was until the players ended the game.
    fn held_to_the_end(&self, n: u64, p: Player) -> bool {
        self.holds(n, p) || self.ended.get(&n).is_some_and(|s| s[p.index()].is_some())
    }

    /// Where the token of a seat just taken is kept, for people.
    fn token_saved_note(&self, n: u64, out: &mut Reaction) {
        if let Some(file) = &self.tokens {
            out.print.push(format!(
                "token saved in {}; after a crash, reconnect with: boardlab connect {} \
                 --rejoin {n}",
                file.path().display(),
                self.addr
            ));
        }
    }

    /// Reads one line from the server: a reply (to the oldest request waiting) or a
    /// pushed `update`/`notice`.
    pub fn on_line(&mut self, line: &str) -> Reaction {
        let pushed = line.starts_with("update ") || line.starts_with("notice ");
        let answers = if pushed { None } else { self.sent.pop_front() };
        let auto = answers.as_ref().is_some_and(|s| s.auto);
        let mut out = Reaction::default();
        if !auto && let Some(text) = self.for_people(line, answers.as_ref()) {
            out.print.push(escape_controls(&text));
        }
        let w: Vec<&str> = line.split_whitespace().collect();
        let id = |i: usize| w.get(i).and_then(|t| t.parse::<u64>().ok());
        match w.as_slice() {
            ["ok", "created", ..] => self.current = id(2).or(self.current),
            ["ok", "joined", _, seat, token] => {
                if let (Some(n), Some(seat)) = (id(2), seat_of(seat)) {
                    self.take_seat(n, seat, token, &mut out);
                    self.token_saved_note(n, &mut out);
                }
            }
            // The rematch made by this client's request: its seat there, as a `join`
            // (the server plays it on this connection already).
            ["ok", "rematch", _, new, seat, token]
            | ["ok", "accepted", _, "rematch", new, seat, token] => {
                if let (Ok(new), Some(seat)) = (new.parse::<u64>(), seat_of(seat)) {
                    self.take_seat(new, seat, token, &mut out);
                    self.token_saved_note(new, &mut out);
                    out.ask.push(format!("show {new}"));
                }
            }
            // The rematch made by the opponent's answer (or on the other door): its seat
            // is taken up on this connection with `rejoin`, whose reply takes it here.
            ["update", _, "rematch", new, seat, token] => {
                if let (Ok(new), Some(_)) = (new.parse::<u64>(), seat_of(seat)) {
                    out.ask.push(format!("rejoin {new} {token}"));
                }
            }
            ["ok", "rejoined", _, seat] => {
                let token = answers.as_ref().and_then(|s| {
                    let r: Vec<&str> = s.line.split_whitespace().collect();
                    match r.as_slice() {
                        [_, _, token] => Some(token.to_string()),
                        _ => None,
                    }
                });
                if let (Some(n), Some(seat), Some(token)) = (id(2), seat_of(seat), token) {
                    self.take_seat(n, seat, &token, &mut out);
                }
            }
            ["ok", "bye"] => self.said_bye = true,
            // A resignation, an agreed draw or a loss on time ends the game for its
            // players: their tokens are no use any more (the rules' own ends are the
            // board's, below).
            ["update", _, "resign" | "draw" | "flag", ..]
            | ["ok", "resigned" | "drawn", ..]
            | ["ok", "accepted", _, "draw"] => {
                let at = if w[0] == "ok" { 2 } else { 1 };
                if let Some(n) = id(at)
                    && let Some(held) = self.seats.remove(&n)
                {
                    self.ended.insert(n, held);
                    self.forget_tokens(n, &mut out);
                }
            }
            // The server closed the game for good: its tokens are no use any more.
            ["notice", _, "expired:", ..] => {
                if let Some(n) = id(1)
                    && (self.seats.remove(&n).is_some() | self.ended.remove(&n).is_some())
                {
                    self.forget_tokens(n, &mut out);
                }
            }
            ["ok", "commands:", ..] if !auto => out.print.push(
                "connect: once you hold a seat (join, rejoin), a move alone (c4) plays it in \
                 that game, and 'takeback', 'draw', 'accept', 'decline', 'resign', 'hint', \
                 'analyse', 'assist on|off' and (once it is over) 'rematch' alone are that \
                 seat's requests; 'join SEAT', \
                 'engine SEAT [MS]', 'show' and 'watch' use the game last created or joined"
                    .to_string(),
            ),
            _ => {}
        }
        let followed = self.follower.on_line(line, auto);
        out.print.extend(followed.print);
        out.ask.extend(followed.ask);
        // After a new board, and after taking a seat in a game whose board is drawn
        // already (its `show` draws nothing new).
        let seat_taken = match w.as_slice() {
            ["ok", "joined" | "rejoined", ..] => {
                id(2).filter(|&n| self.follower.state(n).is_some())
            }
            _ => None,
        };
        if let Some(n) = followed.drawn.or(seat_taken) {
            self.after_board(n, &mut out);
        }
        out
    }

    /// The server's line in words for people (`None`: nothing to say, the board that
    /// follows shows it): no protocol syntax (`update 1 3 d5`, `ok games 1 2`), seats
    /// named by their players. `answered` is the request the line answers.
    fn for_people(&self, line: &str, answered: Option<&Sent>) -> Option<String> {
        let w: Vec<&str> = line.split_whitespace().collect();
        let player = |n: &str, seat: &str| {
            let named = n
                .parse::<u64>()
                .ok()
                .zip(seat_of(seat))
                .and_then(|(n, p)| self.follower.player_name(n, p));
            match named {
                Some(name) => format!("{name} ({seat})"),
                None => format!("the {seat} seat"),
            }
        };
        // The game a refused request was about: `move ID ...`, `join ID ...`.
        let asked_game = answered
            .and_then(|s| s.line.split_whitespace().nth(1).map(str::to_string))
            .unwrap_or_default();
        Some(match w.as_slice() {
            ["ok", "created", n, spec] => format!(
                "created game {n} ({spec}): take a seat with 'join first' or 'join second', \
                 or give one to the engine with 'engine first' or 'engine second'"
            ),
            ["ok", "joined", n, seat, token] => match &self.tokens {
                Some(_) => format!("you play {} in game {n}", player(n, seat)),
                None => format!(
                    "you play {} in game {n}; your seat's token (keep it to rejoin): {token}",
                    player(n, seat)
                ),
            },
            ["ok", "rejoined", n, seat] => {
                format!("back in game {n}: you play {}", player(n, seat))
            }
            ["ok", "engine", n, seat, ms] => format!(
                "the engine plays {} in game {n} ({ms} ms a move)",
                player(n, seat)
            ),
            ["ok", "games"] => "no games on the server yet: 'create gomoku' starts one".into(),
            ["ok", "games", ids @ ..] => format!("games on the server: {}", ids.join(", ")),
            ["ok", "watching", n, _] => format!("watching game {n}"),
            ["ok", "unwatched", n] => format!("no longer watching game {n}"),
            ["ok", "bye"] => "bye".into(),
            // The board that follows shows the move.
            ["ok", "moved", ..] => return None,
            ["ok", "takeback", n, ply] => {
                format!("taken back in game {n}: the game is back to {ply} moves played")
            }
            ["ok", "asked", n, "takeback"] => format!(
                "you asked to take back your last move in game {n}: waiting for your \
                 opponent's answer"
            ),
            ["ok", "asked", n, "rematch"] => format!(
                "you asked for a rematch of game {n}, colours swapped: waiting for your \
                 opponent's answer"
            ),
            ["ok", "rematch", n, new, seat, token] => {
                format!(
                    "rematch of game {n}: {}",
                    self.rematch_words(n, new, seat, token)
                )
            }
            ["ok", "accepted", n, "rematch", new, seat, token] => format!(
                "you accepted the rematch of game {n}: {}",
                self.rematch_words(n, new, seat, token)
            ),
            ["update", n, "rematch", new, seat, token] => format!(
                "game {n}: the rematch was made: {}",
                self.rematch_words(n, new, seat, token)
            ),
            ["update", n, "rematch", new] => {
                format!("game {n}: the rematch is game {new} ('watch {new}' follows it)")
            }
            ["ok", "asked", n, "draw"] => {
                format!("you offered a draw in game {n}: waiting for your opponent's answer")
            }
            ["ok", "drawn", n] => format!("game {n} is over: drawn by agreement"),
            ["ok", "accepted", n, "takeback"] => {
                format!("you accepted the takeback in game {n}")
            }
            ["ok", "accepted", n, "draw"] => {
                format!("you accepted the draw: game {n} is over, drawn by agreement")
            }
            ["ok", "declined", n, kind] => format!("you declined the {kind} in game {n}"),
            ["ok", "resigned", n, ..] => format!("game {n} is over: you resigned"),
            ["ok", "assist", n, _, on] => format!(
                "engine help in game {n}: your consent is {on} (between two people, hints \
                 and analysis need both players' consent)"
            ),
            ["ok", "hint", n, "thinking", ms] => {
                format!("the engine looks for a move in game {n} ({ms} ms)")
            }
            ["ok", "analysing", n, positions, ms] => {
                format!("the engine scores the {positions} positions of game {n} ({ms} ms each)")
            }
            ["update", n, "offer", kind, seat] => {
                let by = player(n, seat);
                let what = match *kind {
                    "draw" => format!("{by} offers a draw"),
                    "rematch" => format!("{by} offers a rematch, colours swapped"),
                    _ => format!("{by} asks to take back their last move"),
                };
                let answers = n
                    .parse::<u64>()
                    .ok()
                    .zip(seat_of(seat))
                    .is_some_and(|(g, p)| self.held_to_the_end(g, p.other()));
                if answers {
                    format!("game {n}: {what}: type 'accept' or 'decline'")
                } else {
                    format!("game {n}: {what}")
                }
            }
            ["update", n, "declined", kind, seat] => {
                let by = player(n, seat);
                match *kind {
                    "draw" => format!("game {n}: the draw {by} offered was declined"),
                    "rematch" => format!("game {n}: the rematch {by} offered was declined"),
                    _ => format!("game {n}: the takeback {by} asked for was declined"),
                }
            }
            ["update", n, "takeback", ply] => {
                format!("game {n}: moves taken back, the game is back to {ply} moves played")
            }
            ["update", n, "resign", seat, ..] => {
                let resigned = player(n, seat);
                let verdict = match n.parse::<u64>().ok().zip(seat_of(seat)) {
                    Some((g, p)) if self.holds(g, p.other()) && !self.holds(g, p) => "you win: ",
                    _ => "",
                };
                format!("game {n} is over: {verdict}{resigned} resigned")
            }
            ["update", n, "draw", ..] => format!("game {n} is over: drawn by agreement"),
            ["update", n, "flag", seat, ..] => {
                let flagged = player(n, seat);
                let verdict = match n.parse::<u64>().ok().zip(seat_of(seat)) {
                    Some((g, p)) if self.holds(g, p.other()) && !self.holds(g, p) => "you win: ",
                    Some((g, p)) if self.holds(g, p) && !self.holds(g, p.other()) => "you lose: ",
                    _ => "",
                };
                format!("game {n} is over: {verdict}{flagged} lost on time")
            }
            ["notice", n, "hint", mv, rest @ ..] => {
                let mut told = format!("game {n}: the engine suggests {mv}");
                // `score cp 35` or `score win 7`, then `pv MOVES`.
                let pv = rest.iter().position(|&w| w == "pv");
                if rest.first() == Some(&"score") {
                    let score = rest[1..pv.unwrap_or(rest.len())].join(" ");
                    told.push_str(&format!(" (score {score} for the side to move)"));
                }
                if let Some(i) = pv {
                    told.push_str(&format!("; line {}", rest[i + 1..].join(" ")));
                }
                told
            }
            ["notice", n, "analysis", "done", positions] => {
                format!("game {n}: analysis done ({positions} positions)")
            }
            ["notice", n, "analysis", ply, score] => {
                let first = player(n, "first");
                let second = player(n, "second");
                let judged = match score.parse::<i32>() {
                    Ok(0) => "even".to_string(),
                    Ok(v) if v >= 10_000 => format!("{first} wins by force"),
                    Ok(v) if v <= -10_000 => format!("{second} wins by force"),
                    Ok(v) if v > 0 => format!("{first} ahead by {v}"),
                    Ok(v) => format!("{second} ahead by {}", -v),
                    Err(_) => format!("score {score}"),
                };
                format!("game {n}, after {ply} moves: {judged}")
            }
            ["update", n, ply, mv, rest @ ..] => {
                let after = match rest {
                    ["over", reason @ ..] => format!(": {}", reason.join(" ")),
                    ["clock", first, second] => format!(
                        " ({} {}, {} {} left)",
                        player(n, "first"),
                        clock_text(first),
                        player(n, "second"),
                        clock_text(second)
                    ),
                    _ => String::new(),
                };
                format!("game {n}, move {ply}: {mv}{after}")
            }
            ["notice", n, rest @ ..] => format!("game {n}: {}", rest.join(" ")),
            ["error", "not", "your", "turn:", seat, "is", "to", "move"] => {
                format!("not your turn: {} is to move", player(&asked_game, seat))
            }
            ["error", ..] => format!("error: {}", line["error ".len()..].trim_start()),
            ["ok", ..] => line["ok ".len()..].to_string(),
            _ => line.to_string(),
        })
    }

    /// The rematch `new` of game `n` for this player, in words: `game 5, colours
    /// swapped: you play White (second)` (the token too when it is not saved).
    fn rematch_words(&self, n: &str, new: &str, seat: &str, token: &str) -> String {
        // The same game as `n`: its players' names are `n`'s.
        let named = n
            .parse::<u64>()
            .ok()
            .zip(seat_of(seat))
            .and_then(|(n, p)| self.follower.player_name(n, p));
        let you = match named {
            Some(name) => format!("{name} ({seat})"),
            None => format!("the {seat} seat"),
        };
        match &self.tokens {
            Some(_) => format!("game {new}, colours swapped: you play {you}"),
            None => format!(
                "game {new}, colours swapped: you play {you}; your seat's token (keep it to \
                 rejoin): {token}"
            ),
        }
    }

    fn take_seat(&mut self, n: u64, seat: Player, token: &str, out: &mut Reaction) {
        self.seats.entry(n).or_default()[seat.index()] = Some(token.to_string());
        self.current = Some(n);
        let Some(file) = &self.tokens else {
            return;
        };
        let saved = SavedSeat {
            addr: self.addr.clone(),
            game: n,
            seat,
            token: token.to_string(),
        };
        match file.save(&saved) {
            Ok(notes) => out.warn.extend(notes),
            Err(e) => out.warn.push(format!(
                "cannot save the token of game {n} to {}: {e} (keep it to rejoin: {token})",
                file.path().display()
            )),
        }
    }

    /// After game `n`'s board: whose turn it is for the seats held there, or the result
    /// for them (and their tokens are forgotten: the game is over).
    fn after_board(&mut self, n: u64, out: &mut Reaction) {
        let held = [Player::First, Player::Second].map(|p| self.holds(n, p));
        if !held.contains(&true) {
            return;
        }
        let name = |s: &Client, p: Player| {
            let player = s.follower.player_name(n, p).unwrap_or("");
            format!("{player} ({})", seat_name(p))
        };
        match self.follower.state(n) {
            Some(Standing::ToMove(p)) if held[p.index()] => out.print.push(format!(
                "your turn: you play {} in game {n}; type your move",
                name(self, p)
            )),
            Some(Standing::ToMove(_)) | None => {}
            Some(Standing::Over(outcome)) => {
                let verdict = match outcome {
                    Outcome::Draw => "the game is drawn".to_string(),
                    Outcome::Win(p) if held == [true, true] => {
                        format!("{} wins", name(self, p))
                    }
                    Outcome::Win(p) if held[p.index()] => format!("you win as {}", name(self, p)),
                    Outcome::Win(p) => format!("you lose: {} wins", name(self, p)),
                };
                out.print.push(format!("game {n} is over: {verdict}"));
                self.forget_tokens(n, out);
            }
        }
    }

    fn forget_tokens(&self, n: u64, out: &mut Reaction) {
        if let Some(file) = &self.tokens
            && let Err(e) = file.forget(&self.addr, n)
        {
            out.warn.push(format!(
                "cannot forget the tokens of game {n} in {}: {e}",
                file.path().display()
            ));
        }
    }
}

/// How `boardlab connect` runs.
#[derive(Clone, Debug, Default)]
pub struct ConnectOptions {
    /// The server's HOST:PORT.
    pub addr: String,
    /// The tokens file; `None`: [`TokenFile::default_path`].
    pub tokens: Option<PathBuf>,
    /// Take back the seat saved for this game at start.
    pub rejoin: Option<u64>,
    /// Which seat to take back when both are saved.
    pub seat: Option<Player>,
    /// Boards in colour.
    pub color: bool,
    /// The games whose boards are drawn (default: the bundled ones); a game the server
    /// hosts but this lacks is played without its board.
    pub games: boardlab_games::Registry,
}

/// Why the client stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    /// The server could not be reached.
    #[error("cannot connect to {addr}: {source}")]
    Connect {
        /// The address as given.
        addr: String,
        /// The connection error.
        source: io::Error,
    },
    /// The server closed the connection before the client was done.
    #[error("the server at {addr} closed the connection{}", .reason.as_ref().map_or(String::new(), |r| format!(": {r}")))]
    ServerGone {
        /// The server's address as given.
        addr: String,
        /// The read error that ended the connection (none: the server closed it).
        reason: Option<String>,
    },
    /// `--rejoin` could not be done (no saved token, or the seat is ambiguous).
    #[error("{0}")]
    Rejoin(String),
    /// Reading the terminal or the tokens file failed.
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// The client shared by the terminal's threads.
struct Shared {
    client: Client,
    to_server: mpsc::Sender<Outgoing>,
    /// The server's side is closed: nothing more will be answered.
    closed: bool,
    /// The user's input ended.
    input_ended: bool,
    /// A prompt is on the screen with nothing typed after it (as far as the client knows):
    /// lines from the server first clear it.
    prompt_shown: bool,
}

impl Shared {
    fn show_prompt(&mut self, prompt: &str) {
        let mut stdout = io::stdout();
        let _ = stdout.write_all(prompt.as_bytes());
        let _ = stdout.flush();
        self.prompt_shown = true;
    }

    fn send(&mut self, line: &str, auto: bool) {
        self.client.sent(line, auto);
        // The writer thread is gone only once the connection is: the reader sees it.
        let _ = self.to_server.send(Outgoing::Line(line.to_string()));
    }
}

enum Outgoing {
    Line(String),
    /// The user's input ended: shut the connection's write side down.
    Shutdown,
}

/// The key seat tokens are saved under for the server at `addr`: the address it resolves
/// to (an IPv4 one first, where servers listen by default), so `localhost:4000` and
/// `127.0.0.1:4000` are one server; the address as typed if it does not resolve.
fn token_key(addr: &str) -> String {
    use std::net::ToSocketAddrs;
    let resolved: Vec<std::net::SocketAddr> = match addr.to_socket_addrs() {
        Ok(all) => all.collect(),
        Err(_) => Vec::new(),
    };
    resolved
        .iter()
        .find(|a| a.is_ipv4())
        .or(resolved.first())
        .map_or_else(|| addr.to_string(), std::net::SocketAddr::to_string)
}

/// The `rejoin ID TOKEN` request for the seat saved for game `id`.
fn rejoin_request(
    tokens: Option<&TokenFile>,
    addr: &str,
    id: u64,
    seat: Option<Player>,
) -> Result<String, ConnectError> {
    let file = tokens.ok_or_else(|| {
        ConnectError::Rejoin(
            "--rejoin needs the tokens file: give --tokens FILE (neither XDG_STATE_HOME nor \
             HOME is set)"
                .into(),
        )
    })?;
    let mut saved = file
        .find(addr, id)
        .map_err(|e| ConnectError::Rejoin(format!("cannot read {}: {e}", file.path().display())))?;
    if let Some(seat) = seat {
        saved.retain(|s| s.seat == seat);
    }
    match saved.as_slice() {
        [] => Err(ConnectError::Rejoin(format!(
            "no token saved for game {id}{} of {addr} in {} (tokens are saved when you join, \
             under the address the server resolves to, and forgotten when the game is over)",
            seat.map_or(String::new(), |s| format!(" seat {}", seat_name(s))),
            file.path().display()
        ))),
        [one] => Ok(format!("rejoin {id} {}", one.token)),
        _ => Err(ConnectError::Rejoin(format!(
            "tokens of both seats of game {id} are saved in {}: choose one with --seat \
             first|second",
            file.path().display()
        ))),
    }
}

/// The terminal client: the user's lines to the server (see [`Client::request_for`]),
/// the server's lines to stdout with the boards, "your turn" and the result; client-side
/// errors on stderr. With `rejoin` the saved seat of that game is taken back first.
/// Returns when the server closes the connection: `Ok` after `quit` or the end of the
/// input, [`ConnectError::ServerGone`] otherwise.
pub fn connect(options: &ConnectOptions) -> Result<(), ConnectError> {
    let addr = options.addr.as_str();
    let key = token_key(addr);
    let tokens = options
        .tokens
        .clone()
        .or_else(TokenFile::default_path)
        .map(TokenFile::at);
    // Tokens saved under the address as typed (by older clients) are found too.
    let rejoin = options
        .rejoin
        .map(|id| {
            rejoin_request(tokens.as_ref(), &key, id, options.seat)
                .or_else(|e| rejoin_request(tokens.as_ref(), addr, id, options.seat).map_err(|_| e))
        })
        .transpose()?;
    let stream = TcpStream::connect(addr).map_err(|source| ConnectError::Connect {
        addr: addr.to_string(),
        source,
    })?;
    let _ = stream.set_nodelay(true);
    let (to_server, outgoing) = mpsc::channel();
    let shared = Arc::new((
        Mutex::new(Shared {
            client: Client::new(&key, tokens, options.color).with_games(options.games.clone()),
            to_server,
            closed: false,
            input_ended: false,
            prompt_shown: false,
        }),
        Condvar::new(),
    ));
    let mut writer = stream.try_clone()?;
    std::thread::Builder::new()
        .name("connect-writer".into())
        .spawn(move || {
            for out in outgoing {
                match out {
                    Outgoing::Line(l) => {
                        if write_line(&mut writer, &l).is_err() {
                            break;
                        }
                    }
                    Outgoing::Shutdown => {
                        let _ = writer.shutdown(std::net::Shutdown::Write);
                        break;
                    }
                }
            }
        })?;
    if let Some(line) = &rejoin {
        lock(&shared.0).send(line, false);
    }
    let interactive = io::stdin().is_terminal() && io::stdout().is_terminal();
    let input = Arc::clone(&shared);
    std::thread::Builder::new()
        .name("connect-stdin".into())
        .spawn(move || read_input(&input, interactive))?;
    if interactive && rejoin.is_none() {
        let mut s = lock(&shared.0);
        let prompt = s.client.prompt();
        s.show_prompt(&prompt);
    }
    let mut from_server = BufReader::new(stream);
    let mut stdout = io::stdout();
    let ended = loop {
        let line = match read_line_capped(&mut from_server, 1 << 20) {
            Ok(Some(Line::Text(t))) => t,
            Ok(Some(Line::TooLong)) => continue,
            Ok(None) => break None,
            Err(e) => break Some(e.to_string()),
        };
        let mut s = lock(&shared.0);
        let reaction = s.client.on_line(&line);
        for a in &reaction.ask {
            s.send(a, true);
        }
        if std::mem::take(&mut s.prompt_shown) {
            // Clears the prompt's line for the server's lines.
            let _ = stdout.write_all(b"\r\x1b[K");
        }
        for w in &reaction.warn {
            eprintln!("connect: {w}");
        }
        for l in &reaction.print {
            write_line(&mut stdout, l)?;
        }
        if interactive && !s.client.awaiting_replies() && !s.client.said_bye() {
            let prompt = s.client.prompt();
            s.show_prompt(&prompt);
        }
        drop(s);
        shared.1.notify_all();
    };
    let mut s = lock(&shared.0);
    s.closed = true;
    shared.1.notify_all();
    if s.client.said_bye() || (s.input_ended && ended.is_none()) {
        Ok(())
    } else {
        Err(ConnectError::ServerGone {
            addr: addr.to_string(),
            reason: ended,
        })
    }
}

/// The user's lines, each sent once the replies to the earlier ones are in (so that a
/// move typed right after `join` already has its token).
fn read_input(shared: &(Mutex<Shared>, Condvar), interactive: bool) {
    let mut stdin = io::stdin().lock();
    loop {
        let line = match read_line_capped(&mut stdin, MAX_REQUEST_BYTES) {
            Ok(Some(l)) => l,
            Ok(None) => break,
            Err(e) => {
                eprintln!("connect: cannot read the input: {e}");
                break;
            }
        };
        let mut s = lock(&shared.0);
        // The user ended the line: the prompt is no longer alone on it.
        s.prompt_shown = false;
        while s.client.awaiting_replies() && !s.closed {
            s = shared.1.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        if s.closed {
            return;
        }
        let text = match line {
            Line::Text(t) => t,
            Line::TooLong => {
                eprintln!("connect: line too long (over {MAX_REQUEST_BYTES} bytes), not sent");
                continue;
            }
        };
        match s.client.request_for(&text) {
            Ok(Some(request)) => s.send(&request, false),
            Ok(None) => {}
            Err(e) => eprintln!("connect: {e}"),
        }
        if interactive && !s.client.awaiting_replies() {
            let prompt = s.client.prompt();
            s.show_prompt(&prompt);
        }
    }
    let mut s = lock(&shared.0);
    s.input_ended = true;
    let _ = s.to_server.send(Outgoing::Shutdown);
}

#[cfg(test)]
mod tests;

/// A clock's milliseconds from the server (`clock FIRST_MS SECOND_MS`) as a person reads a
/// clock: `4:05.2`, or the number unchanged if it is not one.
fn clock_text(ms: &str) -> String {
    match ms.parse::<u64>() {
        Ok(ms) => format!("{}:{:02}.{}", ms / 60_000, ms / 1000 % 60, ms / 100 % 10),
        Err(_) => ms.to_string(),
    }
}
