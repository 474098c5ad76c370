//! Toy games for the search tests, implemented on the public `Position` API only.
//!
//! - [`Tree`]: a deterministic pseudo-random game tree. A move plays one of `tokens`
//!   tokens (each at most once); which tokens are legal, whether the game ends, who wins,
//!   whether the mover moves again (an extra turn) and the evaluation are all hashes of
//!   the position. Positions reached by different move orders transpose (always at the
//!   same ply, as the ply is the number of tokens played).
//! - [`TicTacToe`].
//! - [`Nim`]: three heaps, take 1–3 from one; whoever empties a heap moves again; whoever
//!   takes the last counter wins (so the winner is the side to move of the final position).
//! - [`Shuttle`]: a marker on `0..=4`, moved one step left or right; `First` wins at 4,
//!   `Second` at 0. Positions repeat, for repetition detection.

use std::{fmt, str::FromStr};

use board_core::{
    GameConfig, GameSpec, Notation, NotationError, Outcome, Player, Position, PositionStringError,
    Rules, SpecError,
};
use boardlab_search::Evaluator;

pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {0}")]
pub struct Illegal(pub String);

fn player_char(p: Player) -> char {
    match p {
        Player::First => 'f',
        Player::Second => 's',
    }
}

fn parse_player(s: &str) -> Result<Player, PositionStringError> {
    match s {
        "f" => Ok(Player::First),
        "s" => Ok(Player::Second),
        _ => Err(PositionStringError::field("side to move", s, "f or s")),
    }
}

fn bad(s: &str) -> PositionStringError {
    PositionStringError::field("position", s, "a position of this test game")
}

/// A config with parameters `a` and `b` (meaning per game), spec `id:a=..,b=..`.
macro_rules! toy_config {
    ($name:ident, $id:literal, $a:literal = $da:expr, $b:literal = $db:expr) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name {
            pub a: u32,
            pub b: u32,
        }
        impl Default for $name {
            fn default() -> Self {
                $name { a: $da, b: $db }
            }
        }
        impl GameConfig for $name {
            const GAME_ID: &'static str = $id;
            fn from_spec(spec: &GameSpec) -> Result<Self, SpecError> {
                board_core::spec::expect_id(spec, $id)?;
                let mut r = spec.reader(&[$a, $b]);
                let a = r.int($a, $da, 0, u32::MAX)?;
                let b = r.int($b, $db, 0, u32::MAX)?;
                r.finish()?;
                Ok($name { a, b })
            }
        }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}:{}={},{}={}", $id, $a, self.a, $b, self.b)
            }
        }
        impl FromStr for $name {
            type Err = SpecError;
            fn from_str(s: &str) -> Result<Self, SpecError> {
                Self::parse_spec(s)
            }
        }
    };
}

// ---- Tree ------------------------------------------------------------------------------

toy_config!(TreeConfig, "tree", "seed" = 1, "tokens" = 12);

#[derive(Clone, Debug, PartialEq)]
pub struct Tree {
    config: TreeConfig,
    mask: u32,
    to_move: Player,
    ply: u32,
}

impl Tree {
    pub fn with(seed: u32, tokens: u32) -> Tree {
        Tree::new(TreeConfig {
            a: seed,
            b: tokens.min(24),
        })
    }
    fn seed(&self) -> u64 {
        mix(u64::from(self.config.a))
    }
    fn tokens(&self) -> u32 {
        self.config.b.min(24)
    }
    fn legal_token(&self, t: u8) -> bool {
        u32::from(t) < self.tokens()
            && self.mask & (1 << t) == 0
            && !mix(self.seed() ^ u64::from(self.mask) << 8 ^ u64::from(t)).is_multiple_of(4)
    }
    fn any_legal(&self) -> bool {
        (0..self.tokens() as u8).any(|t| self.legal_token(t))
    }
    fn extra_turn(&self, t: u8) -> bool {
        let rarity = if self.tokens() > 16 { 50 } else { 5 };
        mix(self.seed() ^ 0x5555 ^ u64::from(self.mask) << 8 ^ u64::from(t)).is_multiple_of(rarity)
    }
    /// The tokens played so far.
    pub fn mask(&self) -> u32 {
        self.mask
    }
    /// A hash-derived value of the position in -1000..=1000.
    pub fn noise(&self, salt: u64) -> i32 {
        (mix(self.hash() ^ salt) % 2001) as i32 - 1000
    }
    /// Tokens whose play is "noisy" (a legal subset).
    pub fn noisy_tokens(&self, moves: &mut Vec<u8>) {
        moves.clear();
        moves.extend((0..self.tokens() as u8).filter(|&t| {
            self.legal_token(t)
                && mix(self.seed() ^ 0xABC ^ u64::from(t) ^ u64::from(self.mask) << 8)
                    .is_multiple_of(3)
        }));
    }
}

impl Rules for Tree {
    type Move = u8;

    type Undo = Player;

    type MoveError = Illegal;

    fn side_to_move(&self) -> Player {
        self.to_move
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn hash(&self) -> u64 {
        mix(self.seed() ^ u64::from(self.mask) << 1 ^ self.to_move.index() as u64)
    }

    fn compute_hash(&self) -> u64 {
        self.hash()
    }

    fn outcome(&self) -> Option<Outcome> {
        let h = mix(self.seed() ^ 0x77 ^ u64::from(self.mask));
        // Big trees (more than 16 tokens) end rarely, so they stay big.
        let rarity = if self.tokens() > 16 { 64 } else { 9 };
        let decided = (self.ply > 0 && h.is_multiple_of(rarity)) || !self.any_legal();
        decided.then_some(match (h >> 8) % 3 {
            0 => Outcome::Draw,
            1 => Outcome::Win(Player::First),
            _ => Outcome::Win(Player::Second),
        })
    }

    fn generate_moves(&self, moves: &mut Vec<u8>) {
        moves.clear();
        if self.outcome().is_none() {
            moves.extend((0..self.tokens() as u8).filter(|&t| self.legal_token(t)));
        }
    }

    fn validate(&self, mv: &u8) -> Result<(), Illegal> {
        if self.outcome().is_none() && *mv < 32 && self.legal_token(*mv) {
            Ok(())
        } else {
            Err(Illegal(format!("t{mv}")))
        }
    }

    fn make_move(&mut self, mv: u8) -> Player {
        let before = self.to_move;
        if !self.extra_turn(mv) {
            self.to_move = self.to_move.other();
        }
        self.mask |= 1 << (mv & 31);
        self.ply += 1;
        before
    }

    fn unmake_move(&mut self, mv: u8, before: Player) {
        self.mask &= !(1 << (mv & 31));
        self.to_move = before;
        self.ply -= 1;
    }
}

impl Notation for Tree {
    fn parse_move(&self, text: &str) -> Result<u8, NotationError> {
        text.trim()
            .to_ascii_lowercase()
            .strip_prefix('t')
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| NotationError::syntax(text, "t<token>"))
    }

    fn format_move(&self, mv: u8) -> String {
        format!("t{mv}")
    }
}

impl Position for Tree {
    type Config = TreeConfig;

    fn new(config: TreeConfig) -> Tree {
        Tree {
            config,
            mask: 0,
            to_move: Player::First,
            ply: 0,
        }
    }

    fn config(&self) -> &TreeConfig {
        &self.config
    }

    fn to_position_string(&self) -> String {
        format!("{:x} {} {}", self.mask, player_char(self.to_move), self.ply)
    }

    fn from_position_string(config: TreeConfig, s: &str) -> Result<Tree, PositionStringError> {
        let f: Vec<&str> = s.split_whitespace().collect();
        let [mask, side, ply] = f[..] else {
            return Err(bad(s));
        };
        Ok(Tree {
            config,
            mask: u32::from_str_radix(mask, 16).map_err(|_| bad(s))?,
            to_move: parse_player(side)?,
            ply: ply.parse().map_err(|_| bad(s))?,
        })
    }
}

/// Pseudo-random evaluation, with optional hooks exercised by the tests.
#[derive(Clone, Copy, Debug, Default)]
pub struct TreeEval {
    /// Hash-derived ordering hints (positive, zero and negative).
    pub hints: bool,
    /// Candidates: drop about a third of the legal tokens (never all).
    pub prune: bool,
    /// Quiescence over a hash-derived subset of the legal tokens.
    pub noisy: bool,
    /// Constant evaluation (every non-terminal position equal).
    pub flat: bool,
}

impl Evaluator<Tree> for TreeEval {
    fn evaluate(&self, pos: &Tree) -> i32 {
        if self.flat { 0 } else { pos.noise(0) }
    }
    fn candidates(&self, pos: &Tree, moves: &mut Vec<u8>) {
        pos.generate_moves(moves);
        if self.prune && moves.len() > 1 {
            let keep: Vec<u8> = moves
                .iter()
                .copied()
                .filter(|&t| !mix(pos.hash() ^ u64::from(t)).is_multiple_of(3))
                .collect();
            if !keep.is_empty() {
                *moves = keep;
            }
            // Reverse: the game's own order is not the generation order.
            moves.reverse();
        }
    }
    fn move_hint(&self, pos: &Tree, mv: u8) -> i32 {
        if self.hints {
            (mix(pos.hash() ^ 0xF00 ^ u64::from(mv)) % 7) as i32 - 3
        } else {
            0
        }
    }
    fn noisy(&self, pos: &Tree, moves: &mut Vec<u8>) {
        if self.noisy {
            pos.noisy_tokens(moves);
        } else {
            moves.clear();
        }
    }
}

// ---- TicTacToe -------------------------------------------------------------------------

toy_config!(TicTacToeConfig, "ttt", "unused" = 0, "unused2" = 0);

#[derive(Clone, Debug, PartialEq)]
pub struct TicTacToe {
    cells: [Option<Player>; 9],
    to_move: Player,
    ply: u32,
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

impl TicTacToe {
    /// From a 9-character string, `x`/`o`/`.`, cell 0 first; the side to move follows from
    /// the counts (x moves first).
    pub fn from_cells(s: &str) -> TicTacToe {
        let mut t = TicTacToe::new(TicTacToeConfig::default());
        for (i, c) in s.chars().enumerate() {
            t.cells[i] = match c {
                'x' => Some(Player::First),
                'o' => Some(Player::Second),
                _ => None,
            };
        }
        t.ply = t.cells.iter().filter(|c| c.is_some()).count() as u32;
        t.to_move = if t.ply % 2 == 0 {
            Player::First
        } else {
            Player::Second
        };
        t
    }
    fn winner(&self) -> Option<Player> {
        LINES.iter().find_map(|l| {
            let a = self.cells[l[0]]?;
            (self.cells[l[1]] == Some(a) && self.cells[l[2]] == Some(a)).then_some(a)
        })
    }
    /// Whether `p` could complete a line with one more mark (two of its marks and an
    /// empty cell in a line).
    pub fn threatens(&self, p: Player) -> bool {
        LINES.iter().any(|l| {
            let mine = l.iter().filter(|&&i| self.cells[i] == Some(p)).count();
            let empty = l.iter().filter(|&&i| self.cells[i].is_none()).count();
            mine == 2 && empty == 1
        })
    }
    /// Lines still open for `p` (no enemy mark).
    pub fn open_lines(&self, p: Player) -> i32 {
        LINES
            .iter()
            .filter(|l| l.iter().all(|&i| self.cells[i] != Some(p.other())))
            .count() as i32
    }
}

impl Rules for TicTacToe {
    type Move = u8;

    type Undo = ();

    type MoveError = Illegal;

    fn side_to_move(&self) -> Player {
        self.to_move
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn hash(&self) -> u64 {
        self.cells.iter().fold(self.to_move.index() as u64, |h, c| {
            h * 3 + c.map_or(0, |p| p.index() as u64 + 1)
        })
    }

    fn compute_hash(&self) -> u64 {
        self.hash()
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.winner() {
            Some(p) => Some(Outcome::Win(p)),
            None if self.cells.iter().all(Option::is_some) => Some(Outcome::Draw),
            None => None,
        }
    }

    fn generate_moves(&self, moves: &mut Vec<u8>) {
        moves.clear();
        if self.outcome().is_none() {
            moves.extend((0..9).filter(|&i| self.cells[i as usize].is_none()));
        }
    }

    fn validate(&self, mv: &u8) -> Result<(), Illegal> {
        if self.outcome().is_none() && self.cells.get(*mv as usize) == Some(&None) {
            Ok(())
        } else {
            Err(Illegal(mv.to_string()))
        }
    }

    fn make_move(&mut self, mv: u8) {
        self.cells[mv as usize] = Some(self.to_move);
        self.to_move = self.to_move.other();
        self.ply += 1;
    }

    fn unmake_move(&mut self, mv: u8, _: ()) {
        self.cells[mv as usize] = None;
        self.to_move = self.to_move.other();
        self.ply -= 1;
    }
}

impl Notation for TicTacToe {
    fn parse_move(&self, text: &str) -> Result<u8, NotationError> {
        text.trim()
            .parse()
            .ok()
            .filter(|&m: &u8| m < 9)
            .ok_or_else(|| NotationError::syntax(text, "a cell 0-8"))
    }

    fn format_move(&self, mv: u8) -> String {
        mv.to_string()
    }
}

impl Position for TicTacToe {
    type Config = TicTacToeConfig;

    fn new(_: TicTacToeConfig) -> TicTacToe {
        TicTacToe {
            cells: [None; 9],
            to_move: Player::First,
            ply: 0,
        }
    }

    fn config(&self) -> &TicTacToeConfig {
        const C: TicTacToeConfig = TicTacToeConfig { a: 0, b: 0 };
        &C
    }

    fn to_position_string(&self) -> String {
        self.cells
            .iter()
            .map(|c| match c {
                Some(Player::First) => 'x',
                Some(Player::Second) => 'o',
                None => '.',
            })
            .collect()
    }

    fn from_position_string(_: TicTacToeConfig, s: &str) -> Result<Self, PositionStringError> {
        if s.len() != 9 || !s.chars().all(|c| "xo.".contains(c)) {
            return Err(bad(s));
        }
        Ok(TicTacToe::from_cells(s))
    }
}

/// Open lines for the side to move minus open lines for the opponent.
pub fn ttt_eval(pos: &TicTacToe) -> i32 {
    pos.open_lines(pos.side_to_move()) - pos.open_lines(pos.side_to_move().other())
}

// ---- Nim with extra turns --------------------------------------------------------------

toy_config!(NimConfig, "nim", "heaps" = 345, "salt" = 0);

#[derive(Clone, Debug, PartialEq)]
pub struct Nim {
    config: NimConfig,
    pub heaps: [u8; 3],
    to_move: Player,
    ply: u32,
}

/// A move: take `take` (1–3) from heap `heap`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Take {
    pub heap: u8,
    pub take: u8,
}

impl Nim {
    pub fn with(heaps: [u8; 3], to_move: Player) -> Nim {
        Nim {
            config: NimConfig::default(),
            heaps,
            to_move,
            ply: 0,
        }
    }
}

impl Rules for Nim {
    type Move = Take;

    type Undo = Player;

    type MoveError = Illegal;

    fn side_to_move(&self) -> Player {
        self.to_move
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn hash(&self) -> u64 {
        // The ply is part of the hash: the same heaps can recur at different plies.
        mix(u64::from(self.heaps[0])
            | u64::from(self.heaps[1]) << 8
            | u64::from(self.heaps[2]) << 16
            | (self.to_move.index() as u64) << 24
            | u64::from(self.ply) << 32)
    }

    fn compute_hash(&self) -> u64 {
        self.hash()
    }

    fn outcome(&self) -> Option<Outcome> {
        // Whoever took the last counter emptied a heap, so is on move again.
        (self.heaps == [0; 3]).then_some(Outcome::Win(self.to_move))
    }

    fn generate_moves(&self, moves: &mut Vec<Take>) {
        moves.clear();
        for heap in 0..3u8 {
            for take in 1..=3u8.min(self.heaps[heap as usize]) {
                moves.push(Take { heap, take });
            }
        }
    }

    fn validate(&self, mv: &Take) -> Result<(), Illegal> {
        match self.heaps.get(mv.heap as usize) {
            Some(&h) if (1..=3).contains(&mv.take) && mv.take <= h => Ok(()),
            _ => Err(Illegal(format!("{mv:?}"))),
        }
    }

    fn make_move(&mut self, mv: Take) -> Player {
        let before = self.to_move;
        let h = &mut self.heaps[mv.heap as usize];
        *h -= mv.take;
        if *h != 0 {
            self.to_move = self.to_move.other();
        }
        self.ply += 1;
        before
    }

    fn unmake_move(&mut self, mv: Take, before: Player) {
        self.heaps[mv.heap as usize] += mv.take;
        self.to_move = before;
        self.ply -= 1;
    }
}

impl Notation for Nim {
    fn parse_move(&self, text: &str) -> Result<Take, NotationError> {
        let t = text.trim().as_bytes();
        match t {
            [h @ b'a'..=b'c', n @ b'1'..=b'3'] => Ok(Take {
                heap: h - b'a',
                take: n - b'0',
            }),
            _ => Err(NotationError::syntax(
                text,
                "heap letter and count, e.g. a2",
            )),
        }
    }

    fn format_move(&self, mv: Take) -> String {
        format!("{}{}", (b'a' + mv.heap) as char, mv.take)
    }
}

impl Position for Nim {
    type Config = NimConfig;

    fn new(config: NimConfig) -> Nim {
        let h = config.a;
        Nim {
            config,
            heaps: [(h / 100 % 10) as u8, (h / 10 % 10) as u8, (h % 10) as u8],
            to_move: Player::First,
            ply: 0,
        }
    }

    fn config(&self) -> &NimConfig {
        &self.config
    }

    fn to_position_string(&self) -> String {
        format!(
            "{} {} {} {} {}",
            self.heaps[0],
            self.heaps[1],
            self.heaps[2],
            player_char(self.to_move),
            self.ply
        )
    }

    fn from_position_string(config: NimConfig, s: &str) -> Result<Nim, PositionStringError> {
        let f: Vec<&str> = s.split_whitespace().collect();
        let [a, b, c, side, ply] = f[..] else {
            return Err(bad(s));
        };
        let n = |x: &str| x.parse::<u8>().map_err(|_| bad(s));
        Ok(Nim {
            config,
            heaps: [n(a)?, n(b)?, n(c)?],
            to_move: parse_player(side)?,
            ply: ply.parse().map_err(|_| bad(s))?,
        })
    }
}

/// Pseudo-random evaluation of Nim positions.
pub fn nim_eval(pos: &Nim) -> i32 {
    (mix(pos.hash() ^ 0x1234) % 601) as i32 - 300
}

// ---- Shuttle ---------------------------------------------------------------------------

toy_config!(ShuttleConfig, "shuttle", "start" = 2, "unused" = 0);

#[derive(Clone, Debug, PartialEq)]
pub struct Shuttle {
    config: ShuttleConfig,
    pub x: u8,
    to_move: Player,
    ply: u32,
}

impl Rules for Shuttle {
    /// `true`: one step right (towards First's goal at 4).
    type Move = bool;

    type Undo = ();

    type MoveError = Illegal;

    fn side_to_move(&self) -> Player {
        self.to_move
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn hash(&self) -> u64 {
        mix(u64::from(self.x) << 1 | self.to_move.index() as u64)
    }

    fn compute_hash(&self) -> u64 {
        self.hash()
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.x {
            0 => Some(Outcome::Win(Player::Second)),
            4 => Some(Outcome::Win(Player::First)),
            _ => None,
        }
    }

    fn generate_moves(&self, moves: &mut Vec<bool>) {
        moves.clear();
        if self.outcome().is_none() {
            moves.extend([false, true]);
        }
    }

    fn validate(&self, _: &bool) -> Result<(), Illegal> {
        match self.outcome() {
            None => Ok(()),
            Some(_) => Err(Illegal("game over".into())),
        }
    }

    fn make_move(&mut self, right: bool) {
        if right {
            self.x += 1;
        } else {
            self.x -= 1;
        }
        self.to_move = self.to_move.other();
        self.ply += 1;
    }

    fn unmake_move(&mut self, right: bool, _: ()) {
        if right {
            self.x -= 1;
        } else {
            self.x += 1;
        }
        self.to_move = self.to_move.other();
        self.ply -= 1;
    }
}

impl Notation for Shuttle {
    fn parse_move(&self, text: &str) -> Result<bool, NotationError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "r" => Ok(true),
            "l" => Ok(false),
            _ => Err(NotationError::syntax(text, "l or r")),
        }
    }

    fn format_move(&self, right: bool) -> String {
        if right { "r" } else { "l" }.to_string()
    }
}

impl Position for Shuttle {
    type Config = ShuttleConfig;

    fn new(config: ShuttleConfig) -> Shuttle {
        Shuttle {
            x: config.a.clamp(1, 3) as u8,
            config,
            to_move: Player::First,
            ply: 0,
        }
    }

    fn config(&self) -> &ShuttleConfig {
        &self.config
    }

    fn to_position_string(&self) -> String {
        format!("{} {} {}", self.x, player_char(self.to_move), self.ply)
    }

    fn from_position_string(config: ShuttleConfig, s: &str) -> Result<Self, PositionStringError> {
        let f: Vec<&str> = s.split_whitespace().collect();
        let [x, side, ply] = f[..] else {
            return Err(bad(s));
        };
        Ok(Shuttle {
            config,
            x: x.parse()
                .ok()
                .filter(|&x: &u8| x <= 4)
                .ok_or_else(|| bad(s))?,
            to_move: parse_player(side)?,
            ply: ply.parse().map_err(|_| bad(s))?,
        })
    }
}

/// Plays `n` pseudo-random moves from `pos` (fewer if the game ends).
pub fn random_walk<P: Position>(pos: &mut P, seed: u64, n: usize) {
    let mut moves = Vec::new();
    for i in 0..n {
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let k = (mix(seed ^ (i as u64) << 32) % moves.len() as u64) as usize;
        pos.make_move(moves[k]);
    }
}
