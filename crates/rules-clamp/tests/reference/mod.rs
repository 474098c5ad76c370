//! A deliberately naive implementation of clamp, written from games.md alone: a 2-D array
//! of cells, plain loops, moves as strings. It shares nothing with the crate but the
//! notation, so that the differential tests catch misreadings of the rules.

#![allow(dead_code, clippy::unwrap_used)]

/// Cell contents.
pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefConfig {
    pub size: usize,
    pub zone: usize,
    pub max_on_board: usize,
    pub quiet_limit: u32,
    pub adjudicate: bool,
    /// Pieces in hand at the start, per player; `None` for unlimited drops.
    pub supply: Option<u32>,
}

impl Default for RefConfig {
    fn default() -> Self {
        RefConfig {
            size: 8,
            zone: 3,
            max_on_board: 10,
            quiet_limit: 80,
            adjudicate: false,
            supply: None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RefMove {
    /// (col, row)
    Drop(usize, usize),
    /// (col, row) to (col, row)
    Step(usize, usize, usize, usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefOutcome {
    BlackWins,
    WhiteWins,
    Draw,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefGame {
    pub cfg: RefConfig,
    /// `grid[row][col]`, row 0 = rank 1.
    pub grid: Vec<Vec<u8>>,
    pub to_move: u8,
    pub quiet: u32,
    pub ply: u32,
    /// Pieces in hand (Black, White) under a finite supply; unused when unlimited.
    pub hand: [u32; 2],
}

const DIRS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

fn other(p: u8) -> u8 {
    if p == BLACK { WHITE } else { BLACK }
}

pub fn square_name(col: usize, row: usize) -> String {
    format!("{}{}", (b'a' + col as u8) as char, row + 1)
}

impl RefGame {
    pub fn new(cfg: RefConfig) -> RefGame {
        let n = cfg.size;
        let mut grid = vec![vec![EMPTY; n]; n];
        // Black: the inner row of the top zone; White: the inner row of the bottom zone.
        let black_row = n - cfg.zone;
        let white_row = cfg.zone - 1;
        let first = (n - 4) / 2;
        for c in 0..4 {
            grid[black_row][first + c] = BLACK;
            grid[white_row][first + c] = WHITE;
        }
        RefGame {
            cfg,
            grid,
            to_move: BLACK,
            quiet: 0,
            ply: 0,
            hand: [cfg.supply.unwrap_or(0); 2],
        }
    }

    /// Reads `board side quiet ply` without validating more than needed to build it.
    pub fn from_string(cfg: RefConfig, s: &str) -> RefGame {
        let parts: Vec<&str> = s.split(' ').collect();
        let n = cfg.size;
        let mut grid = vec![vec![EMPTY; n]; n];
        let ranks: Vec<&str> = parts[0].split('/').collect();
        for (i, rank) in ranks.iter().enumerate() {
            let row = n - 1 - i;
            let mut col = 0;
            let mut num = String::new();
            for ch in rank.chars() {
                if ch.is_ascii_digit() {
                    num.push(ch);
                } else {
                    if !num.is_empty() {
                        col += num.parse::<usize>().unwrap();
                        num.clear();
                    }
                    grid[row][col] = if ch == 'X' { BLACK } else { WHITE };
                    col += 1;
                }
            }
        }
        RefGame {
            cfg,
            grid,
            to_move: if parts[1] == "x" { BLACK } else { WHITE },
            quiet: parts[2].parse().unwrap(),
            ply: parts[3].parse().unwrap(),
            hand: match cfg.supply {
                Some(_) => [parts[4].parse().unwrap(), parts[5].parse().unwrap()],
                None => [0, 0],
            },
        }
    }

    pub fn position_string(&self) -> String {
        let n = self.cfg.size;
        let mut rows = Vec::new();
        for row in (0..n).rev() {
            let mut s = String::new();
            let mut empties = 0;
            for col in 0..n {
                let v = self.grid[row][col];
                if v == EMPTY {
                    empties += 1;
                } else {
                    if empties > 0 {
                        s += &empties.to_string();
                    }
                    empties = 0;
                    s.push(if v == BLACK { 'X' } else { 'O' });
                }
            }
            if empties > 0 {
                s += &empties.to_string();
            }
            rows.push(s);
        }
        let mut s = format!(
            "{} {} {} {}",
            rows.join("/"),
            if self.to_move == BLACK { "x" } else { "o" },
            self.quiet,
            self.ply
        );
        if self.cfg.supply.is_some() {
            s += &format!(" {} {}", self.hand[0], self.hand[1]);
        }
        s
    }

    /// Does `p` have a piece in hand to drop? (Always, with an unlimited supply.)
    pub fn has_piece_in_hand(&self, p: u8) -> bool {
        self.cfg.supply.is_none() || self.hand[(p - 1) as usize] > 0
    }

    /// `p`'s pieces on the middle 4×4 block (columns and rows size/2-2 to size/2+1).
    pub fn centre_count(&self, p: u8) -> usize {
        let half = self.cfg.size / 2;
        let mut n = 0;
        for row in half - 2..=half + 1 {
            for col in half - 2..=half + 1 {
                if self.grid[row][col] == p {
                    n += 1;
                }
            }
        }
        n
    }

    fn on_board(&self, col: i32, row: i32) -> bool {
        col >= 0 && row >= 0 && (col as usize) < self.cfg.size && (row as usize) < self.cfg.size
    }

    fn at(&self, col: i32, row: i32) -> u8 {
        self.grid[row as usize][col as usize]
    }

    pub fn count(&self, p: u8) -> usize {
        self.grid.iter().flatten().filter(|&&v| v == p).count()
    }

    pub fn in_zone(&self, p: u8, row: usize) -> bool {
        if p == BLACK {
            row >= self.cfg.size - self.cfg.zone
        } else {
            row < self.cfg.zone
        }
    }

    /// Every drop and step of `p`, ignoring whether the game is over.
    pub fn raw_moves(&self, p: u8) -> Vec<RefMove> {
        let n = self.cfg.size;
        let mut out = Vec::new();
        if self.count(p) < self.cfg.max_on_board && self.has_piece_in_hand(p) {
            for row in 0..n {
                for col in 0..n {
                    if self.in_zone(p, row) && self.grid[row][col] == EMPTY {
                        out.push(RefMove::Drop(col, row));
                    }
                }
            }
        }
        for row in 0..n {
            for col in 0..n {
                if self.grid[row][col] != p {
                    continue;
                }
                for (dc, dr) in DIRS {
                    // One square.
                    let (c1, r1) = (col as i32 + dc, row as i32 + dr);
                    if !self.on_board(c1, r1) || self.at(c1, r1) != EMPTY {
                        continue;
                    }
                    out.push(RefMove::Step(col, row, c1 as usize, r1 as usize));
                    // Two squares, the middle one (c1, r1) being empty.
                    let (c2, r2) = (c1 + dc, r1 + dr);
                    if self.on_board(c2, r2) && self.at(c2, r2) == EMPTY {
                        out.push(RefMove::Step(col, row, c2 as usize, r2 as usize));
                    }
                }
            }
        }
        out
    }

    /// The result, judging as if the player not on move had just moved.
    pub fn outcome(&self) -> Option<RefOutcome> {
        let p = self.to_move;
        let mover = other(p);
        let mover_wins = if mover == BLACK {
            RefOutcome::BlackWins
        } else {
            RefOutcome::WhiteWins
        };
        if self.count(p) == 0 {
            return Some(mover_wins);
        }
        if self.raw_moves(p).is_empty() {
            return Some(mover_wins);
        }
        if self.quiet >= self.cfg.quiet_limit {
            if !self.cfg.adjudicate {
                return Some(RefOutcome::Draw);
            }
            let (b, w) = (self.count(BLACK), self.count(WHITE));
            let (cb, cw) = (self.centre_count(BLACK), self.centre_count(WHITE));
            return Some(if b > w {
                RefOutcome::BlackWins
            } else if w > b {
                RefOutcome::WhiteWins
            } else if cb > cw {
                RefOutcome::BlackWins
            } else if cw > cb {
                RefOutcome::WhiteWins
            } else {
                RefOutcome::Draw
            });
        }
        None
    }

    pub fn legal_moves(&self) -> Vec<RefMove> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        self.raw_moves(self.to_move)
    }

    /// How many pieces `m` captures (without playing it).
    pub fn captures_of(&self, m: RefMove) -> usize {
        let mut g = self.clone();
        let before = g.count(other(self.to_move));
        g.play(m);
        before - g.count(other(self.to_move))
    }

    /// Plays a legal move.
    pub fn play(&mut self, m: RefMove) {
        let p = self.to_move;
        let (col, row) = match m {
            RefMove::Drop(c, r) => {
                self.grid[r][c] = p;
                if self.cfg.supply.is_some() {
                    self.hand[(p - 1) as usize] -= 1;
                }
                (c, r)
            }
            RefMove::Step(c0, r0, c1, r1) => {
                self.grid[r0][c0] = EMPTY;
                self.grid[r1][c1] = p;
                (c1, r1)
            }
        };
        // Look from the landing square in all 8 directions; collect first, remove after.
        let mut captured = Vec::new();
        for (dc, dr) in DIRS {
            let (c1, r1) = (col as i32 + dc, row as i32 + dr);
            let (c2, r2) = (col as i32 + 2 * dc, row as i32 + 2 * dr);
            if self.on_board(c1, r1)
                && self.on_board(c2, r2)
                && self.at(c1, r1) == other(p)
                && self.at(c2, r2) == p
            {
                captured.push((c1 as usize, r1 as usize));
            }
        }
        for &(c, r) in &captured {
            self.grid[r][c] = EMPTY;
        }
        if captured.is_empty() {
            self.quiet += 1;
        } else {
            self.quiet = 0;
        }
        self.to_move = other(p);
        self.ply += 1;
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|m| {
                let mut g = self.clone();
                g.play(m);
                g.perft(depth - 1)
            })
            .sum()
    }

    pub fn format_move(m: RefMove) -> String {
        match m {
            RefMove::Drop(c, r) => square_name(c, r),
            RefMove::Step(c0, r0, c1, r1) => {
                format!("{}-{}", square_name(c0, r0), square_name(c1, r1))
            }
        }
    }

    /// The legal moves in notation, sorted.
    pub fn move_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .legal_moves()
            .into_iter()
            .map(RefGame::format_move)
            .collect();
        v.sort();
        v
    }

    /// Perft of each legal move at `depth - 1`, keyed by notation, sorted.
    pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        let mut v: Vec<(String, u64)> = self
            .legal_moves()
            .into_iter()
            .map(|m| {
                let mut g = self.clone();
                g.play(m);
                (RefGame::format_move(m), g.perft(depth - 1))
            })
            .collect();
        v.sort();
        v
    }
}
