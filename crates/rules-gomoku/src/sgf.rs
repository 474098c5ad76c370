//! Gomoku game records in SGF (Smart Game Format, FF\[4\]), as gomoku programs exchange
//! them: [`write()`] and [`read()`].
//!
//! A record is one game tree: a root node with the game information, then one node per
//! move. boardlab writes
//!
//! ```text
//! (;FF[4]GM[4]CA[UTF-8]AP[boardlab]SZ[15]RU[freestyle]
//! ;B[hh];W[ih];B[hg])
//! ```
//!
//! - `GM[4]` is gomoku's number in the SGF game list; `SZ` the board side (5–26);
//! - points are two lower-case letters as in every SGF game on a square grid: the
//!   **column** from the left (`a` = column `a`), then the **row from the top** (`a` = the
//!   top row). So `h8` on 15×15 is `hh`, `a1` is `ao`, and `a15` is `aa`;
//! - `RU` names the rule: `freestyle` (five or more win) or `standard` (exactly five, the
//!   name gomoku tournaments give it; boardlab's `exact5`). `RE` is written once the rules
//!   ended the game (`B+`, `W+`, `0` for a full board), or the players or a clock did
//!   ([`write_with`] and its [`GameInfo`]: `B+R` Black won by resignation, `W+T` White
//!   won on time, `0` a draw agreed); `PB` and `PW` name the players when known;
//! - `B[..]` and `W[..]` alternate from Black's first move.
//!
//! Reading follows the SGF rules where gomoku files differ among programs:
//! - the main line is read (the first variation at every branch); other properties
//!   (players, dates, comments) are skipped;
//! - `GM` must be 4; `SZ` defaults to 15 (gomoku's usual board) and may be written `15:15`
//!   (a rectangle is refused); `RU` defaults to freestyle and also accepts `exact5`;
//!   renju and other rules with forbidden moves are refused, not played as freestyle;
//! - setup stones (`AB`, `AW`, `AE`), passes (`B[]`, `B[tt]`) and moves out of turn are
//!   refused with the node they are in, as is any move the rules refuse (an occupied
//!   square, a move after five in a row).
//!
//! ```
//! use rules_gomoku::{GomokuConfig, Move, Rule, sgf};
//! use board_core::Square;
//!
//! let config = GomokuConfig::new(15, Rule::Exact5).unwrap();
//! // h8 is column 7, row 7 (index 7 * 15 + 7); i8 is one to the right.
//! let moves = [Move(Square(7 * 15 + 7)), Move(Square(7 * 15 + 8))];
//! let text = sgf::write(config, &moves);
//! assert_eq!(text, "(;FF[4]GM[4]CA[UTF-8]AP[boardlab]SZ[15]RU[standard]\n;B[hh];W[ih])\n");
//! let game = sgf::read(&text).unwrap();
//! assert_eq!((game.config, game.moves), (config, moves.to_vec()));
//! ```

use board_core::{Outcome, Player, Rules, Square};

use crate::{GomokuConfig, GomokuPosition, Move, Rule};

/// Longest record read (bytes): far more than any game on 26×26 with comments.
pub const MAX_SGF_BYTES: usize = 1 << 20;

/// A gomoku game read from SGF: its rules and its moves, every one legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfGame {
    /// Board side and rule.
    pub config: GomokuConfig,
    /// The moves of the main line, Black first, alternating.
    pub moves: Vec<Move>,
}

/// Why a text is not a gomoku record boardlab can play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SgfError {
    /// The text is not SGF (the byte offset and what was expected there).
    #[error("not SGF at byte {at}: {expected}")]
    Syntax {
        /// Byte offset of the problem.
        at: usize,
        /// What was expected.
        expected: &'static str,
    },
    /// Longer than [`MAX_SGF_BYTES`].
    #[error("the record is {0} bytes: at most {MAX_SGF_BYTES} are read")]
    TooLong(usize),
    /// A root property has a value boardlab cannot play (`GM[1]`, `SZ[30]`, `RU[renju]`).
    #[error("{property}[{value}]: {reason}")]
    Root {
        /// The property.
        property: &'static str,
        /// Its value (at most 32 characters).
        value: String,
        /// Why it is refused.
        reason: String,
    },
    /// A node of the main line cannot be played (the root is node 0).
    #[error("node {node}: {reason}")]
    Node {
        /// The node's index along the main line.
        node: usize,
        /// Why.
        reason: String,
    },
}

/// How a game ended when the rules did not end it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// This player resigned (`RE[W+R]` when Black resigned).
    Resigned(Player),
    /// This player's clock ran out (`RE[B+T]` when White's did).
    Time(Player),
    /// The players agreed a draw (`RE[0]`).
    Agreed,
}

/// What a record tells beyond the moves: the players' names and how the game ended if
/// the rules did not end it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameInfo {
    /// Black's name (`PB`).
    pub black: Option<String>,
    /// White's name (`PW`).
    pub white: Option<String>,
    /// The end the players or a clock made; the rules' own end wins if the moves reach
    /// one.
    pub end: Option<End>,
}

/// `text` as an SGF property value: `]` and `\` escaped, line breaks kept.
fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The SGF record of a game of `config` with `moves` (Black first): the root's game
/// information, then one node per move. `RE` is written when the moves end the game.
pub fn write(config: GomokuConfig, moves: &[Move]) -> String {
    write_with(config, moves, &GameInfo::default())
}

/// [`write()`] with the players' names (`PB`, `PW`) and the end the players or a clock
/// made (`RE[B+R]`, `RE[W+T]`, `RE[0]`) when the rules did not end the game.
pub fn write_with(config: GomokuConfig, moves: &[Move], info: &GameInfo) -> String {
    let size = config.size();
    let rule = match config.rule() {
        Rule::Freestyle => "freestyle",
        Rule::Exact5 => "standard",
    };
    let mut out = format!("(;FF[4]GM[4]CA[UTF-8]AP[boardlab]SZ[{size}]RU[{rule}]");
    if let Some(name) = &info.black {
        out.push_str(&format!("PB[{}]", escaped(name)));
    }
    if let Some(name) = &info.white {
        out.push_str(&format!("PW[{}]", escaped(name)));
    }
    // The result, when the moves are a legal game the rules ended.
    let mut pos = GomokuPosition::start(config);
    let legal = moves.iter().all(|&mv| {
        let ok = pos.outcome().is_none() && pos.validate(&mv).is_ok();
        if ok {
            pos.make_move(mv);
        }
        ok
    });
    let colour = |p: Player| if p == Player::First { 'B' } else { 'W' };
    match (pos.outcome(), info.end) {
        (Some(Outcome::Win(Player::First)), _) if legal => out.push_str("RE[B+]"),
        (Some(Outcome::Win(Player::Second)), _) if legal => out.push_str("RE[W+]"),
        (Some(Outcome::Draw), _) if legal => out.push_str("RE[0]"),
        (None, Some(End::Resigned(p))) if legal => {
            out.push_str(&format!("RE[{}+R]", colour(p.other())));
        }
        (None, Some(End::Time(p))) if legal => {
            out.push_str(&format!("RE[{}+T]", colour(p.other())));
        }
        (None, Some(End::Agreed)) if legal => out.push_str("RE[0]"),
        _ => {}
    }
    out.push('\n');
    for (k, mv) in moves.iter().enumerate() {
        let colour = if k % 2 == 0 { 'B' } else { 'W' };
        let col = mv.0.0 as u32 % size;
        let row = mv.0.0 as u32 / size;
        out.push(';');
        out.push(colour);
        out.push('[');
        out.push(letter(col));
        out.push(letter(size - 1 - row.min(size - 1)));
        out.push(']');
        if k % 10 == 9 && k + 1 < moves.len() {
            out.push('\n');
        }
    }
    out.push_str(")\n");
    out
}

fn letter(i: u32) -> char {
    char::from(b'a' + i.min(25) as u8)
}

/// The game of an SGF record: its main line, checked move by move against the rules.
pub fn read(text: &str) -> Result<SgfGame, SgfError> {
    if text.len() > MAX_SGF_BYTES {
        return Err(SgfError::TooLong(text.len()));
    }
    let nodes = main_line(text)?;
    let root = nodes.first().ok_or(SgfError::Syntax {
        at: 0,
        expected: "a node ';'",
    })?;
    let value = |id: &str| {
        root.iter()
            .find(|(k, _)| k == id)
            .and_then(|(_, v)| v.first())
            .map(|v| v.trim().to_string())
    };
    let short = |v: &str| v.chars().take(32).collect::<String>();
    match value("GM") {
        Some(v) if v == "4" => {}
        Some(v) => {
            return Err(SgfError::Root {
                property: "GM",
                value: short(&v),
                reason: "not a gomoku record (gomoku is GM[4])".into(),
            });
        }
        None => {
            return Err(SgfError::Root {
                property: "GM",
                value: String::new(),
                reason: "missing: a gomoku record says GM[4] (without it SGF means Go)".into(),
            });
        }
    }
    let size = match value("SZ") {
        None => GomokuConfig::DEFAULT_SIZE,
        Some(v) => {
            let (w, h) = v.split_once(':').unwrap_or((&v, &v));
            let bad = |reason: String| SgfError::Root {
                property: "SZ",
                value: short(&v),
                reason,
            };
            let w: u32 = w
                .trim()
                .parse()
                .map_err(|_| bad("the board side must be a number".into()))?;
            let h: u32 = h
                .trim()
                .parse()
                .map_err(|_| bad("the board side must be a number".into()))?;
            if w != h {
                return Err(bad("gomoku is played on a square board".into()));
            }
            if !(GomokuConfig::MIN_SIZE..=GomokuConfig::MAX_SIZE).contains(&w) {
                return Err(bad(format!(
                    "the board side must be from {} to {}",
                    GomokuConfig::MIN_SIZE,
                    GomokuConfig::MAX_SIZE
                )));
            }
            w
        }
    };
    let rule = match value("RU") {
        None => Rule::Freestyle,
        Some(v) => match v.to_ascii_lowercase().as_str() {
            "" | "freestyle" | "gomoku" | "free" => Rule::Freestyle,
            "standard" | "exact5" | "exact five" => Rule::Exact5,
            _ => {
                return Err(SgfError::Root {
                    property: "RU",
                    value: short(&v),
                    reason: "boardlab plays freestyle (five or more) and standard (exactly \
                             five) gomoku; this rule is not played as either"
                        .into(),
                });
            }
        },
    };
    let config = GomokuConfig::new(size, rule).map_err(|e| SgfError::Root {
        property: "SZ",
        value: size.to_string(),
        reason: e.to_string(),
    })?;
    let mut pos = GomokuPosition::start(config);
    let mut moves = Vec::new();
    for (node, props) in nodes.iter().enumerate() {
        let fail = |reason: String| SgfError::Node { node, reason };
        let mut played = None;
        for (id, values) in props {
            let colour = match id.as_str() {
                "B" => Player::First,
                "W" => Player::Second,
                "AB" | "AW" | "AE" => {
                    return Err(fail(format!(
                        "{id}: setup stones are not read (the record must start from the \
                         empty board)"
                    )));
                }
                _ => continue,
            };
            if played.is_some() || values.len() != 1 {
                return Err(fail("one move per node".into()));
            }
            played = Some((colour, values[0].trim()));
        }
        let Some((colour, point)) = played else {
            continue;
        };
        let mover = pos.side_to_move();
        if colour != mover {
            let (got, want) = if colour == Player::First {
                ("B", "W")
            } else {
                ("W", "B")
            };
            return Err(fail(format!("{got} moves out of turn: {want} is to move")));
        }
        let sq = point_square(point, size).map_err(fail)?;
        let mv = Move(sq);
        let name = if colour == Player::First { "B" } else { "W" };
        pos.validate(&mv)
            .map_err(|e| fail(format!("{name}[{point}]: {e}")))?;
        pos.make_move(mv);
        moves.push(mv);
    }
    Ok(SgfGame { config, moves })
}

/// The square of an SGF point (`hh`) on a `size` board.
fn point_square(point: &str, size: u32) -> Result<Square, String> {
    let b = point.as_bytes();
    if b.is_empty() || (point == "tt" && size <= 19) {
        return Err("a pass: gomoku has no passes".into());
    }
    let coord = |c: u8| (c.is_ascii_lowercase()).then(|| u32::from(c - b'a'));
    match (b.len(), coord(b[0]), b.get(1).copied().and_then(coord)) {
        (2, Some(col), Some(top)) if col < size && top < size => {
            let row = size - 1 - top;
            Ok(Square((row * size + col) as u16))
        }
        _ => Err(format!(
            "'{}' is not a point of the {size}x{size} board (two letters a-{})",
            point.chars().take(8).collect::<String>(),
            letter(size - 1)
        )),
    }
}

/// One node: its properties, each with its values.
type Node = Vec<(String, Vec<String>)>;

/// The nodes of the first game tree's main line (its first variation at every branch).
fn main_line(text: &str) -> Result<Vec<Node>, SgfError> {
    let mut p = Parser {
        b: text.as_bytes(),
        at: 0,
    };
    p.skip_ws();
    p.expect(b'(', "'(' to open the game tree")?;
    let mut nodes = Vec::new();
    p.tree_into(&mut nodes, true)?;
    Ok(nodes)
}

struct Parser<'a> {
    b: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn skip_ws(&mut self) {
        while self.at < self.b.len() && self.b[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.at).copied()
    }

    fn expect(&mut self, c: u8, expected: &'static str) -> Result<(), SgfError> {
        if self.peek() == Some(c) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(expected))
        }
    }

    fn error(&self, expected: &'static str) -> SgfError {
        SgfError::Syntax {
            at: self.at,
            expected,
        }
    }

    /// Reads a game tree whose '(' is consumed, through its ')'; its nodes and its first
    /// variation's go into `nodes` when `keep`.
    fn tree_into(&mut self, nodes: &mut Vec<Node>, keep: bool) -> Result<(), SgfError> {
        self.skip_ws();
        if self.peek() != Some(b';') {
            return Err(self.error("a node ';'"));
        }
        while self.peek() == Some(b';') {
            self.at += 1;
            let node = self.node()?;
            if keep {
                nodes.push(node);
            }
            self.skip_ws();
        }
        let mut first = true;
        while self.peek() == Some(b'(') {
            self.at += 1;
            self.tree_into(nodes, keep && first)?;
            first = false;
            self.skip_ws();
        }
        self.expect(b')', "')' to close the game tree, or a node ';'")
    }

    fn node(&mut self) -> Result<Node, SgfError> {
        let mut props = Node::new();
        loop {
            self.skip_ws();
            let start = self.at;
            while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
                self.at += 1;
            }
            if self.at == start {
                return Ok(props);
            }
            // FF[3] allowed lower-case letters inside names (`AddBlack`): only the
            // capitals name the property.
            let id: String = self.b[start..self.at]
                .iter()
                .filter(|c| c.is_ascii_uppercase())
                .map(|&c| char::from(c))
                .collect();
            let mut values = Vec::new();
            self.skip_ws();
            while self.peek() == Some(b'[') {
                self.at += 1;
                values.push(self.value()?);
                self.skip_ws();
            }
            if values.is_empty() {
                return Err(self.error("a property value '['"));
            }
            props.push((id, values));
        }
    }

    /// A value's text after its '[', through its ']' (`\` escapes the next character).
    fn value(&mut self) -> Result<String, SgfError> {
        let mut out = Vec::new();
        loop {
            match self.peek() {
                None => return Err(self.error("']' to close the value")),
                Some(b']') => {
                    self.at += 1;
                    return Ok(String::from_utf8_lossy(&out).into_owned());
                }
                Some(b'\\') => {
                    self.at += 1;
                    if let Some(c) = self.peek() {
                        out.push(c);
                        self.at += 1;
                    }
                }
                Some(c) => {
                    out.push(c);
                    self.at += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use board_core::Notation;
    use proptest::prelude::*;

    fn moves(config: GomokuConfig, texts: &[&str]) -> Vec<Move> {
        let mut pos = GomokuPosition::start(config);
        texts
            .iter()
            .map(|t| {
                let mv = pos.parse_legal_move(t).expect("legal");
                pos.make_move(mv);
                mv
            })
            .collect()
    }

    #[test]
    fn points_count_rows_from_the_top() {
        let config = GomokuConfig::default();
        let text = write(config, &moves(config, &["a1", "a15", "o1"]));
        assert!(text.ends_with(";B[ao];W[aa];B[oo])\n"), "{text}");
    }

    #[test]
    fn a_finished_game_records_its_result() {
        let config = GomokuConfig::new(9, Rule::Freestyle).unwrap();
        let won = moves(
            config,
            &["a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4", "a5"],
        );
        let text = write(config, &won);
        assert!(text.contains("SZ[9]RU[freestyle]RE[B+]"), "{text}");
        assert_eq!(read(&text).unwrap().moves, won);
    }

    #[test]
    fn records_of_other_programs_read_their_main_line() {
        let text = "(;GM[4]FF[4]SZ[15]PB[Black \\] player]PW[White]C[a comment (with ;)]\
                    ;B[hh]C[first];W[ih]\n(;B[hg];W[ig])(;B[gg]))";
        let game = read(text).unwrap();
        assert_eq!(game.config, GomokuConfig::default());
        assert_eq!(game.moves, moves(game.config, &["h8", "i8", "h9", "i9"]));
    }

    #[test]
    fn refusals_name_what_is_wrong() {
        let err = |t: &str| read(t).unwrap_err().to_string();
        assert_eq!(
            err("(;GM[1]SZ[19];B[dd])"),
            "GM[1]: not a gomoku record (gomoku is GM[4])"
        );
        assert!(err("(;SZ[15];B[hh])").starts_with("GM[]: missing"));
        assert!(err("(;GM[4]SZ[30])").contains("from 5 to 26"));
        assert!(err("(;GM[4]SZ[15:13])").contains("square board"));
        assert!(err("(;GM[4]RU[renju])").starts_with("RU[renju]:"));
        assert_eq!(
            err("(;GM[4];B[hh];B[ii])"),
            "node 2: B moves out of turn: W is to move"
        );
        assert_eq!(err("(;GM[4];B[hh];W[hh])"), "node 2: W[hh]: h8 is occupied");
        assert_eq!(err("(;GM[4];B[])"), "node 1: a pass: gomoku has no passes");
        assert!(err("(;GM[4];B[zz])").contains("not a point"));
        assert!(err("(;GM[4]AB[aa];W[bb])").contains("setup stones"));
        assert_eq!(
            err("(;GM[4];B[hh]"),
            "not SGF at byte 13: ')' to close the game tree, or a node ';'"
        );
        assert!(err("hello").starts_with("not SGF at byte 0"));
    }

    proptest! {
        #[test]
        fn write_then_read_gives_the_same_game(
            size in 5u32..=26,
            exact in any::<bool>(),
            picks in proptest::collection::vec(any::<u32>(), 0..80),
        ) {
            let rule = if exact { Rule::Exact5 } else { Rule::Freestyle };
            let config = GomokuConfig::new(size, rule).unwrap();
            let mut pos = GomokuPosition::start(config);
            let mut played = Vec::new();
            for pick in picks {
                let mut legal = Vec::new();
                pos.generate_moves(&mut legal);
                if legal.is_empty() {
                    break;
                }
                let mv = legal[pick as usize % legal.len()];
                pos.make_move(mv);
                played.push(mv);
            }
            let game = read(&write(config, &played)).unwrap();
            prop_assert_eq!(game.config, config);
            prop_assert_eq!(game.moves, played);
        }
    }

    #[test]
    fn players_resignations_and_losses_on_time_are_recorded() {
        let config = GomokuConfig::new(9, Rule::Freestyle).unwrap();
        let moves = [Move(Square(40)), Move(Square(41))];
        let info = GameInfo {
            black: Some("person".into()),
            white: Some("engine [1] \\ 200 ms".into()),
            end: Some(End::Resigned(Player::First)),
        };
        let text = write_with(config, &moves, &info);
        assert!(
            text.contains("PB[person]PW[engine [1\\] \\\\ 200 ms]RE[W+R]"),
            "{text}"
        );
        // The names read back as SGF text; the moves as written.
        let game = read(&text).unwrap();
        assert_eq!(game.moves, moves.to_vec());
        let on_time = GameInfo {
            end: Some(End::Time(Player::First)),
            ..GameInfo::default()
        };
        assert!(write_with(config, &moves, &on_time).contains("RU[freestyle]RE[W+T]\n"));
        let white_flagged = GameInfo {
            end: Some(End::Time(Player::Second)),
            ..GameInfo::default()
        };
        assert!(write_with(config, &moves, &white_flagged).contains("RE[B+T]"));
        let agreed = GameInfo {
            end: Some(End::Agreed),
            ..GameInfo::default()
        };
        assert!(write_with(config, &moves, &agreed).contains("RE[0]"));
        // Without an end, no result: the game goes on.
        assert!(!write_with(config, &moves, &GameInfo::default()).contains("RE["));
    }
}
