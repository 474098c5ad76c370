//! Where each pair's opening comes from: random legal plies drawn from the tournament seed,
//! or an **opening book**, a file of chosen positions, one per line, as engine testers use
//! (fastchess and cutechess read EPD/PGN books; Gomocup plays fixed opening sets). A book
//! of balanced positions makes both games of a pair worth playing: from a random opening
//! the side to move often wins whoever plays it, and such pairs split 1-1 and say nothing.
//!
//! The book format is game-independent text: each line holds the opening's moves in the
//! game's notation separated by whitespace (as `--moves` takes them); `#` starts a comment,
//! blank lines are skipped. Pair `k` of a tournament plays line `k mod n` of an `n`-line
//! book, both games from the same line with the colours swapped. Two external engines under a
//! depth or node budget get no seed and so replay a line's games when it comes round again:
//! [`crate::SelfplaySettings::replayed_openings`] says when, and `match` warns.

use std::fmt;

use board_core::Position;

use crate::game::random_opening;

/// Where the openings of a tournament come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// This many random legal plies, drawn from each pair's seed.
    Random(u32),
    /// The lines of a book, in order, from the first again after the last.
    Book(OpeningBook),
}

impl Openings {
    /// The most random plies `random:K` takes.
    pub const MAX_RANDOM_PLIES: u32 = 64;

    /// Checks that every opening can be played under `start`'s rules (a book line with a bad
    /// or illegal move, or one that ends the game, is an error naming the line).
    pub fn check<P: Position>(&self, start: &P) -> Result<(), BookError> {
        match self {
            Openings::Random(_) => Ok(()),
            Openings::Book(book) => book
                .lines
                .iter()
                .try_for_each(|line| book.play(start, line).map(|_| ())),
        }
    }

    /// The opening of pair `pair` (0-based), whose random plies are drawn from `seed`.
    pub fn for_pair<P: Position>(
        &self,
        start: &P,
        pair: usize,
        seed: u64,
    ) -> Result<Vec<P::Move>, BookError> {
        match self {
            Openings::Random(plies) => Ok(random_opening(start, *plies, seed)),
            Openings::Book(book) => book.play(start, &book.lines[pair % book.lines.len()]),
        }
    }
}

impl Default for Openings {
    fn default() -> Self {
        Openings::Random(2)
    }
}

impl fmt::Display for Openings {
    /// `random:K` or `book:SOURCE`, as `--openings` takes them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Openings::Random(k) => write!(f, "random:{k}"),
            Openings::Book(book) => write!(f, "book:{}", book.source),
        }
    }
}

/// One opening of a book: its moves as text and where it stood in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookLine {
    /// 1-based line number in the file.
    pub number: usize,
    /// The moves, in the game's notation.
    pub moves: Vec<String>,
}

/// A parsed opening book (not yet checked against a game: see [`Openings::check`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningBook {
    /// Where the book came from (its file name), for messages and reports.
    pub source: String,
    /// The openings, in file order; never empty.
    pub lines: Vec<BookLine>,
}

/// A book that cannot be used, naming the file and line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    /// The file holds no opening (only blank or comment lines).
    #[error("opening book {book}: no openings in it")]
    Empty {
        /// The book's file name.
        book: String,
    },
    /// A move of a line does not read in the game's notation or is illegal there.
    #[error("opening book {book} line {line}: move {index} '{text}': {reason}")]
    BadMove {
        /// The book's file name.
        book: String,
        /// 1-based line number.
        line: usize,
        /// 1-based position of the move in the line.
        index: usize,
        /// The move as written.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The line's moves end the game, leaving nothing to play.
    #[error("opening book {book} line {line}: the game is over after the opening")]
    GameOver {
        /// The book's file name.
        book: String,
        /// 1-based line number.
        line: usize,
    },
}

impl OpeningBook {
    /// Reads a book's text: one opening a line, moves separated by whitespace, `#` to the
    /// end of a line a comment, blank lines skipped. Only an empty book is an error here;
    /// the moves are checked against a game by [`Openings::check`].
    pub fn parse(source: &str, text: &str) -> Result<OpeningBook, BookError> {
        let lines: Vec<BookLine> = text
            .lines()
            .enumerate()
            .filter_map(|(i, line)| {
                let content = line.split_once('#').map_or(line, |(before, _)| before);
                let moves: Vec<String> = content.split_whitespace().map(str::to_string).collect();
                (!moves.is_empty()).then_some(BookLine {
                    number: i + 1,
                    moves,
                })
            })
            .collect();
        if lines.is_empty() {
            return Err(BookError::Empty {
                book: source.to_string(),
            });
        }
        Ok(OpeningBook {
            source: source.to_string(),
            lines,
        })
    }

    /// Plays `line` from `start`: its moves, or the error naming the line and the move.
    fn play<P: Position>(&self, start: &P, line: &BookLine) -> Result<Vec<P::Move>, BookError> {
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(line.moves.len());
        for (i, text) in line.moves.iter().enumerate() {
            let bad = |reason: String| BookError::BadMove {
                book: self.source.clone(),
                line: line.number,
                index: i + 1,
                text: text.chars().take(32).collect(),
                reason,
            };
            if pos.outcome().is_some() {
                return Err(bad("the game is already over".into()));
            }
            let mv = pos.parse_legal_move(text).map_err(|e| bad(e.to_string()))?;
            pos.make_move(mv);
            moves.push(mv);
        }
        if pos.outcome().is_some() {
            return Err(BookError::GameOver {
                book: self.source.clone(),
                line: line.number,
            });
        }
        Ok(moves)
    }
}

/// How [`gomoku_book`] draws and keeps openings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GomokuBookSettings {
    /// Openings to keep.
    pub count: usize,
    /// Fewest stones in an opening.
    pub min_stones: u32,
    /// Most stones in an opening.
    pub max_stones: u32,
    /// Stones go on points at most this many steps (king moves) from the centre.
    pub radius: u32,
    /// The engine searches each opening to this depth (and reports every depth before it).
    pub depth: u32,
    /// An opening is kept when the mean of the engine's scores at the last two depths is
    /// within this many centipawns of even (the score swings between odd and even depths,
    /// so one depth alone favours one side: the mean cancels the swing).
    pub max_score: i32,
    /// Seed of the random stones.
    pub seed: u64,
    /// Give up after this many drawn openings.
    pub max_tries: usize,
}

impl Default for GomokuBookSettings {
    fn default() -> Self {
        GomokuBookSettings {
            count: 200,
            min_stones: 3,
            max_stones: 5,
            radius: 3,
            depth: 8,
            max_score: 100,
            seed: 1,
            max_tries: 20_000,
        }
    }
}

/// One opening [`gomoku_book`] kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GomokuBookEntry {
    /// The moves in notation, Black's first.
    pub moves: Vec<String>,
    /// The engine's scores (centipawns, for the side to move) at the last two depths.
    pub scores: [i32; 2],
}

impl GomokuBookEntry {
    /// The book line: the moves, then a comment with the stones and scores.
    pub fn line(&self, depth: u32) -> String {
        format!(
            "{}  # {} stones, cp {} / {} at depth {} / {}",
            self.moves.join(" "),
            self.moves.len(),
            self.scores[0],
            self.scores[1],
            depth - 1,
            depth
        )
    }
}

/// What [`gomoku_book`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GomokuBook {
    /// The openings kept, in the order found.
    pub entries: Vec<GomokuBookEntry>,
    /// Openings drawn.
    pub tried: usize,
    /// Drawn openings that repeated a kept or rejected one up to symmetry.
    pub duplicates: usize,
    /// Openings searched and rejected as unbalanced (or decided).
    pub unbalanced: usize,
}

/// The stones of a gomoku position in a form equal for all 8 images of the board under its
/// symmetries (rotations and reflections): the smallest sorted stone list over the images.
fn canonical_stones(size: u32, stones: &[(bool, u32, u32)]) -> Vec<(bool, u32, u32)> {
    let n = size - 1;
    let image = |t: u32, x: u32, y: u32| -> (u32, u32) {
        let (x, y) = if t & 4 != 0 { (y, x) } else { (x, y) };
        let x = if t & 1 != 0 { n - x } else { x };
        let y = if t & 2 != 0 { n - y } else { y };
        (x, y)
    };
    (0..8)
        .map(|t| {
            let mut v: Vec<(bool, u32, u32)> = stones
                .iter()
                .map(|&(black, x, y)| {
                    let (x, y) = image(t, x, y);
                    (black, x, y)
                })
                .collect();
            v.sort_unstable();
            v
        })
        .min()
        .unwrap_or_default()
}

/// Draws random gomoku openings of `min_stones..=max_stones` stones near the centre and
/// keeps those the engine scores near even at a fixed depth (the mean of its last two
/// depths, see [`GomokuBookSettings::max_score`]), distinct up to the board's
/// symmetries; `progress` sees every kept entry. Reproducible: the same settings and
/// engine give the same book. Stops at `count` openings or after `max_tries` draws.
pub fn gomoku_book(
    config: &rules_gomoku::GomokuConfig,
    settings: &GomokuBookSettings,
    mut progress: impl FnMut(&GomokuBookEntry, &GomokuBook),
) -> Result<GomokuBook, crate::SelfplayError> {
    use board_core::prelude::*;
    use boardlab_games::Game;
    use rand::{Rng, SeedableRng};
    use rules_gomoku::{GomokuPosition, Move};
    use search::{Limits, ScoreKind, SearchOptions};

    let bad = |e: String| crate::SelfplayError(e);
    if settings.min_stones == 0 || settings.min_stones > settings.max_stones {
        return Err(bad(format!(
            "bad stone counts {}-{}: expected 1 <= MIN <= MAX",
            settings.min_stones, settings.max_stones
        )));
    }
    if settings.depth < 2 {
        return Err(bad("the book's search depth must be at least 2".into()));
    }
    let start = GomokuPosition::new(*config);
    let size = start.size();
    let centre = size / 2;
    let geometry = start.geometry();
    let near: Vec<Move> = geometry
        .squares()
        .filter(|&sq| {
            geometry.col(sq).abs_diff(centre) <= settings.radius
                && geometry.row(sq).abs_diff(centre) <= settings.radius
        })
        .map(Move::new)
        .collect();
    if (near.len() as u32) < settings.max_stones {
        return Err(bad(format!(
            "{} points within {} of the centre cannot hold {} stones",
            near.len(),
            settings.radius,
            settings.max_stones
        )));
    }
    let options = SearchOptions::default()
        .with_hash_mb(16)
        .and_then(|o| o.with_threads(1))
        .map_err(|e| bad(e.to_string()))?
        .with_seed(settings.seed);
    let mut engine = GomokuPosition::engine(options).map_err(|e| bad(e.to_string()))?;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(settings.seed);
    let mut seen = std::collections::HashSet::new();
    let mut book = GomokuBook {
        entries: Vec::new(),
        tried: 0,
        duplicates: 0,
        unbalanced: 0,
    };
    while book.entries.len() < settings.count && book.tried < settings.max_tries {
        book.tried += 1;
        let stones = rng.random_range(settings.min_stones..=settings.max_stones);
        let mut pos = start.clone();
        let mut moves = Vec::new();
        let mut placed = Vec::new();
        while moves.len() < stones as usize {
            let mv = near[rng.random_range(0..near.len())];
            if !pos.is_empty_square(mv.square()) {
                continue;
            }
            placed.push((
                moves.len().is_multiple_of(2),
                geometry.col(mv.square()),
                geometry.row(mv.square()),
            ));
            moves.push(pos.format_move(mv));
            pos.make_move(mv);
        }
        if pos.outcome().is_some() || !seen.insert(canonical_stones(size, &placed)) {
            book.duplicates += 1;
            continue;
        }
        engine.new_game();
        let mut scores = [None; 2];
        let limits = Limits::new().with_depth(settings.depth);
        engine.think(&pos, &limits, &mut |it| {
            if it.depth + 1 >= settings.depth {
                scores[(it.depth + 1 - settings.depth) as usize] = Some(it.score);
            }
        });
        let value = |s: Option<search::Score>| match s.map(search::Score::kind) {
            Some(ScoreKind::Value(cp)) => Some(cp),
            _ => None,
        };
        match (value(scores[0]), value(scores[1])) {
            (Some(a), Some(b)) if (a + b).abs() <= 2 * settings.max_score => {
                let entry = GomokuBookEntry {
                    moves,
                    scores: [a, b],
                };
                book.entries.push(entry.clone());
                progress(&entry, &book);
            }
            _ => book.unbalanced += 1,
        }
    }
    Ok(book)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // tests unwrap: a panic is the failure report

    use board_core::prelude::*;
    use rules_gomoku::{GomokuConfig, GomokuPosition};

    use super::*;

    fn start() -> GomokuPosition {
        GomokuPosition::new(GomokuConfig::default())
    }

    #[test]
    fn comments_and_blank_lines_are_skipped_and_line_numbers_kept() {
        let book = OpeningBook::parse("b.txt", "# header\n\nh8 i9 g9  # three\n  h7 h9\n").unwrap();
        assert_eq!(book.lines.len(), 2);
        assert_eq!(book.lines[0].number, 3);
        assert_eq!(book.lines[0].moves, ["h8", "i9", "g9"]);
        assert_eq!(book.lines[1].number, 4);
        Openings::Book(book).check(&start()).unwrap();
    }

    #[test]
    fn a_book_without_openings_is_an_error() {
        let err = OpeningBook::parse("e.txt", "# nothing\n\n   \n").unwrap_err();
        assert_eq!(err.to_string(), "opening book e.txt: no openings in it");
    }

    #[test]
    fn a_bad_move_is_named_with_its_line() {
        let book = OpeningBook::parse("b.txt", "h8 i9\n# c\nh8 zz9 g9\n").unwrap();
        let err = Openings::Book(book).check(&start()).unwrap_err();
        assert!(
            matches!(&err, BookError::BadMove { line: 3, index: 2, text, .. } if text == "zz9"),
            "{err:?}"
        );
        assert!(
            err.to_string()
                .starts_with("opening book b.txt line 3: move 2 'zz9': ")
        );
    }

    #[test]
    fn an_illegal_move_is_named_with_its_line() {
        // The second stone on an occupied point.
        let book = OpeningBook::parse("b.txt", "h8 h8\n").unwrap();
        let err = Openings::Book(book).check(&start()).unwrap_err();
        assert!(
            matches!(
                err,
                BookError::BadMove {
                    line: 1,
                    index: 2,
                    ..
                }
            ),
            "{err:?}"
        );
    }

    #[test]
    fn a_line_that_ends_the_game_is_an_error() {
        let book = OpeningBook::parse("b.txt", "h8\na1 b1 a2 b2 a3 b3 a4 b4 a5\n").unwrap();
        let err = Openings::Book(book).check(&start()).unwrap_err();
        assert_eq!(
            err,
            BookError::GameOver {
                book: "b.txt".into(),
                line: 2
            }
        );
        // Moves after the end of the game name the first one past it.
        let book = OpeningBook::parse("b.txt", "a1 b1 a2 b2 a3 b3 a4 b4 a5 c1\n").unwrap();
        let err = Openings::Book(book).check(&start()).unwrap_err();
        assert!(
            matches!(
                err,
                BookError::BadMove {
                    line: 1,
                    index: 10,
                    ..
                }
            ),
            "{err:?}"
        );
    }

    #[test]
    fn pairs_take_the_lines_in_order_and_wrap_around() {
        let book = OpeningBook::parse("b.txt", "h8 i9\ng7\nh8 h9 h7\n").unwrap();
        let openings = Openings::Book(book);
        let pos = start();
        let text = |pair: usize| -> Vec<String> {
            let moves = openings.for_pair(&pos, pair, 99).unwrap();
            let mut p = pos.clone();
            moves
                .into_iter()
                .map(|mv| {
                    let s = p.format_move(mv);
                    p.make_move(mv);
                    s
                })
                .collect()
        };
        assert_eq!(text(0), ["h8", "i9"]);
        assert_eq!(text(1), ["g7"]);
        assert_eq!(text(2), ["h8", "h9", "h7"]);
        assert_eq!(text(3), ["h8", "i9"]);
        assert_eq!(openings.to_string(), "book:b.txt");
        assert_eq!(Openings::Random(4).to_string(), "random:4");
    }

    #[test]
    fn the_eight_images_of_a_position_have_one_canonical_form() {
        // Black at (2, 1) and (4, 4), White at (3, 1) on a 9×9 board, under all 8 symmetries.
        let stones = [(true, 2, 1), (true, 4, 4), (false, 3, 1)];
        type Image = fn(u32, u32) -> (u32, u32);
        let images: [Image; 8] = [
            |x, y| (x, y),
            |x, y| (8 - x, y),
            |x, y| (x, 8 - y),
            |x, y| (8 - x, 8 - y),
            |x, y| (y, x),
            |x, y| (8 - y, x),
            |x, y| (y, 8 - x),
            |x, y| (8 - y, 8 - x),
        ];
        let key = canonical_stones(9, &stones);
        for image in images {
            let moved: Vec<_> = stones
                .iter()
                .map(|&(b, x, y)| {
                    let (x, y) = image(x, y);
                    (b, x, y)
                })
                .collect();
            assert_eq!(canonical_stones(9, &moved), key);
        }
        // Swapping a stone's colour is another position.
        assert_ne!(
            canonical_stones(9, &[(false, 2, 1), (true, 4, 4), (true, 3, 1)]),
            key
        );
        // So is moving a stone.
        assert_ne!(
            canonical_stones(9, &[(true, 2, 2), (true, 4, 4), (false, 3, 1)]),
            key
        );
    }

    #[test]
    fn a_generated_book_is_reproducible_distinct_and_playable() {
        let config: GomokuConfig = "gomoku:size=9".parse().unwrap();
        let settings = GomokuBookSettings {
            count: 4,
            min_stones: 2,
            max_stones: 3,
            radius: 2,
            depth: 3,
            max_score: 400,
            seed: 5,
            max_tries: 500,
        };
        let mut seen = 0;
        let book = gomoku_book(&config, &settings, |_, _| seen += 1).unwrap();
        assert_eq!(book.entries.len(), 4);
        assert_eq!(seen, 4);
        assert_eq!(
            book.tried,
            book.entries.len() + book.duplicates + book.unbalanced
        );
        let again = gomoku_book(&config, &settings, |_, _| {}).unwrap();
        assert_eq!(again, book);
        let text: String = book
            .entries
            .iter()
            .map(|e| e.line(settings.depth) + "\n")
            .collect();
        let parsed = OpeningBook::parse("gen", &text).unwrap();
        let start = GomokuPosition::new(config);
        let openings = Openings::Book(parsed);
        openings.check(&start).unwrap();
        let mut keys = std::collections::HashSet::new();
        for (i, entry) in book.entries.iter().enumerate() {
            assert!((2..=3).contains(&entry.moves.len()));
            assert!((entry.scores[0] + entry.scores[1]).abs() <= 2 * settings.max_score);
            let moves = openings.for_pair(&start, i, 0).unwrap();
            let stones: Vec<_> = moves
                .iter()
                .enumerate()
                .map(|(k, mv)| {
                    let sq = mv.square();
                    let g = start.geometry();
                    assert!(g.col(sq).abs_diff(4) <= 2 && g.row(sq).abs_diff(4) <= 2);
                    (k % 2 == 0, g.col(sq), g.row(sq))
                })
                .collect();
            assert!(
                keys.insert(canonical_stones(9, &stones)),
                "entry {i} repeats one"
            );
        }
        // Settings that cannot work are refused.
        let bad = GomokuBookSettings {
            min_stones: 4,
            max_stones: 3,
            ..settings
        };
        assert!(gomoku_book(&config, &bad, |_, _| {}).is_err());
        let crowded = GomokuBookSettings {
            radius: 0,
            ..settings
        };
        assert!(gomoku_book(&config, &crowded, |_, _| {}).is_err());
    }
}
