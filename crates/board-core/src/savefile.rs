//! Save files: a header naming the format and the game spec, then one move per line.
//!
//! ```text
//! boardlab-save 1
//! game gomoku:size=15,rule=freestyle
//! # comments and blank lines are allowed anywhere; so is a comment after a move
//! h8
//! i9   # the reply
//! ```
//!
//! Loading replays every move through validation; the first bad line is reported with its
//! (1-based) number and the reason, and nothing is loaded. The full description is in
//! `docs/save-format.md`.

use thiserror::Error;

use crate::{
    position::{GameConfig, MoveInputError, Position},
    spec::{GameSpec, SpecError},
};

/// The first line of every save file.
pub const MAGIC: &str = "boardlab-save";
/// The format version this code writes and reads.
pub const VERSION: u32 = 1;
/// Largest save file accepted (a 26×26 game is a few kilobytes).
pub const MAX_BYTES: usize = 4 << 20;

/// Why a save file was refused, with the line it happened on (0 when not tied to a line).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}: {kind}")]
pub struct LoadError<E: std::error::Error> {
    /// The 1-based line of the file the problem is on (comment and blank lines count);
    /// 0 for [`LoadErrorKind::TooLarge`], which concerns the whole file. The spec errors of
    /// [`SaveFile::replay`] name the `game` line ([`SaveFile::game_line`]).
    pub line: usize,
    /// What was wrong.
    pub kind: LoadErrorKind<E>,
}

/// What was wrong with a save file.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LoadErrorKind<E: std::error::Error> {
    /// The text is longer than [`MAX_BYTES`]; nothing of it was read.
    #[error("save file is larger than {MAX_BYTES} bytes")]
    TooLarge,
    /// The first non-blank, non-comment line is not `boardlab-save <version>` alone (or
    /// the file has no such line at all).
    #[error("expected the header '{MAGIC} {VERSION}', found '{0}'")]
    BadHeader(
        /// The line found, comment removed, cut to 40 characters (empty for an empty file).
        String,
    ),
    /// The header names a format version other than [`VERSION`].
    #[error("unsupported save format version {0}: this build reads version {VERSION}")]
    UnsupportedVersion(
        /// The version word found, cut to 40 characters.
        String,
    ),
    /// The line after the header is not `game <spec>`.
    #[error("expected 'game <spec>', found '{0}'")]
    MissingGame(
        /// The line found, comment removed, cut to 40 characters (empty at the end of the
        /// file).
        String,
    ),
    /// The spec after `game` does not parse, or the game's config refuses it.
    #[error("bad game spec: {0}")]
    Spec(#[from] SpecError),
    /// The file is for another game than the one it is being replayed as.
    #[error("this save file is for '{found}', not '{expected}'")]
    WrongGame {
        /// The game id of the position type replaying the file.
        expected: String,
        /// The game id the file's spec names.
        found: String,
    },
    /// A move line does not read as a move, or names a move that is illegal in the
    /// position reached by the moves before it.
    #[error("move {number} '{text}': {error}")]
    Move {
        /// The 1-based number of the move among the file's moves (not its line number,
        /// which is [`LoadError::line`]).
        number: usize,
        /// The move's text, comment removed, cut to 40 characters.
        text: String,
        /// Why the move was refused: unreadable notation or an illegal move.
        error: MoveInputError<E>,
    },
}

/// A replayed save file: the final position and the moves that led to it.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedGame<P: Position> {
    /// The position after the last move of the file.
    pub position: P,
    /// Every move of the file in the order played, each one legal where it was played.
    pub moves: Vec<P::Move>,
}

/// A save file split into its parts but not yet replayed: enough to see which game it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveFile {
    /// The spec of the `game` line: which game, and its rule parameters.
    pub spec: GameSpec,
    /// Each move's text with its 1-based line number.
    pub moves: Vec<(usize, String)>,
    /// The 1-based line number of the `game` line (comments may come before it), where an
    /// error in the spec is reported.
    pub game_line: usize,
}

/// Removes a `#` comment and surrounding whitespace.
fn content(line: &str) -> &str {
    line.split_once('#')
        .map_or(line, |(before, _)| before)
        .trim()
}

impl SaveFile {
    /// Splits a save file into header, spec and move lines. `E` is the error type of the
    /// game it will be replayed in (use `std::convert::Infallible`-like types freely).
    pub fn parse<E: std::error::Error>(text: &str) -> Result<SaveFile, LoadError<E>> {
        if text.len() > MAX_BYTES {
            return Err(LoadError {
                line: 0,
                kind: LoadErrorKind::TooLarge,
            });
        }
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, content(l)))
            .filter(|(_, l)| !l.is_empty());
        let short = |s: &str| s.chars().take(40).collect::<String>();

        let (line, header) = lines.next().unwrap_or((1, ""));
        let mut words = header.split_whitespace();
        if words.next() != Some(MAGIC) {
            return Err(LoadError {
                line,
                kind: LoadErrorKind::BadHeader(short(header)),
            });
        }
        match words.next() {
            Some(v) if v == VERSION.to_string() && words.next().is_none() => {}
            // The right version with words after it: the header is malformed, not the
            // version unsupported.
            Some(v) if v == VERSION.to_string() => {
                return Err(LoadError {
                    line,
                    kind: LoadErrorKind::BadHeader(short(header)),
                });
            }
            Some(v) => {
                return Err(LoadError {
                    line,
                    kind: LoadErrorKind::UnsupportedVersion(short(v)),
                });
            }
            None => {
                return Err(LoadError {
                    line,
                    kind: LoadErrorKind::BadHeader(short(header)),
                });
            }
        }

        let (line, game) = lines.next().unwrap_or((line + 1, ""));
        let spec = game
            .strip_prefix("game")
            .filter(|rest| rest.starts_with(char::is_whitespace))
            .ok_or_else(|| LoadError {
                line,
                kind: LoadErrorKind::MissingGame(short(game)),
            })?;
        let spec = GameSpec::parse(spec).map_err(|e| LoadError {
            line,
            kind: e.into(),
        })?;
        let moves = lines.map(|(n, l)| (n, l.to_string())).collect();
        Ok(SaveFile {
            spec,
            moves,
            game_line: line,
        })
    }

    /// Replays the moves from the start position of the file's game.
    /// Returns the final position and the moves played.
    pub fn replay<P: Position>(&self) -> Result<LoadedGame<P>, LoadError<P::MoveError>> {
        let header_line = self.game_line;
        if self.spec.id != <P::Config as GameConfig>::GAME_ID {
            return Err(LoadError {
                line: header_line,
                kind: LoadErrorKind::WrongGame {
                    expected: <P::Config as GameConfig>::GAME_ID.into(),
                    found: self.spec.id.clone(),
                },
            });
        }
        let config = P::Config::from_spec(&self.spec).map_err(|e| LoadError {
            line: header_line,
            kind: e.into(),
        })?;
        let mut pos = P::new(config);
        let mut played = Vec::with_capacity(self.moves.len());
        for (number, (line, text)) in self.moves.iter().enumerate() {
            let mv = pos.parse_legal_move(text).map_err(|error| LoadError {
                line: *line,
                kind: LoadErrorKind::Move {
                    number: number + 1,
                    text: text.chars().take(40).collect(),
                    error,
                },
            })?;
            pos.make_move(mv);
            played.push(mv);
        }
        Ok(LoadedGame {
            position: pos,
            moves: played,
        })
    }
}

/// Reads a save file for game `P`: header, spec, and every move replayed through validation.
pub fn load<P: Position>(text: &str) -> Result<LoadedGame<P>, LoadError<P::MoveError>> {
    SaveFile::parse(text)?.replay()
}

/// Writes a save file: the header, the canonical spec of `config`, one move per line.
pub fn save<P: Position>(config: &P::Config, moves: &[P::Move]) -> String {
    let mut pos = P::new(config.clone());
    let mut out = format!("{MAGIC} {VERSION}\ngame {config}\n");
    for &mv in moves {
        out.push_str(&pos.format_move(mv));
        out.push('\n');
        pos.make_move(mv);
    }
    out
}

/// Splits a records file (several save files one after another, as `selfplay --records`
/// writes them) into one save file per game. A game starts at each `boardlab-save` header;
/// the comment lines just before a header belong to its game. Text without a header gives
/// no game.
pub fn split_records(text: &str) -> Vec<String> {
    let mut games: Vec<String> = Vec::new();
    let mut pending = String::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with(MAGIC) {
            games.push(std::mem::take(&mut pending));
        }
        let target = match games.last_mut() {
            Some(game) if !trimmed.starts_with('#') => game,
            _ => &mut pending,
        };
        target.push_str(line);
        target.push('\n');
    }
    if let Some(last) = games.last_mut() {
        last.push_str(&pending);
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    type Error = LoadError<std::fmt::Error>;

    #[test]
    fn a_header_with_words_after_the_version_is_a_bad_header() {
        let err = SaveFile::parse::<std::fmt::Error>("boardlab-save 1 extra\ngame gomoku\n")
            .err()
            .map(|e: Error| (e.line, e.kind.to_string()));
        assert_eq!(
            err,
            Some((
                1,
                "expected the header 'boardlab-save 1', found 'boardlab-save 1 extra'".into()
            ))
        );
        let err = SaveFile::parse::<std::fmt::Error>("boardlab-save 7\n")
            .err()
            .map(|e: Error| e.kind.to_string());
        assert_eq!(
            err.as_deref(),
            Some("unsupported save format version 7: this build reads version 1")
        );
    }

    #[test]
    fn the_game_line_is_counted_past_comments_and_blank_lines() {
        let text = "# saved by hand\nboardlab-save 1\n\n# the game:\ngame gomoku:size=3\nh8\n";
        let file = SaveFile::parse::<std::fmt::Error>(text).expect("parses");
        assert_eq!(file.game_line, 5);
        assert_eq!(file.moves, vec![(6, "h8".to_string())]);
    }
}
