//! The seat tokens the terminal client keeps on disk, so that a player whose client died
//! (a crash, a closed terminal, a lost connection) gets the seat back with one command,
//! `boardlab connect HOST:PORT --rejoin ID`.
//!
//! One line per seat, `HOST:PORT ID SEAT TOKEN`, keyed by the server address as typed;
//! lines starting with `#` are comments. The file is `0600` (a token is the seat) and
//! rewritten whole (a temporary file renamed over it) under a lock on `FILE.lock`, so two
//! clients saving at once lose nothing and a crash mid-write leaves the old file.

use std::{
    fs::{self, DirBuilder, File, OpenOptions},
    io::{self, Write},
    os::unix::fs::{DirBuilderExt, OpenOptionsExt},
    path::{Path, PathBuf},
};

use board_core::Player;

use boardlab_host::{
    save::{DIR_MODE, FILE_MODE, tighten},
    seat_name, seat_of,
};

/// The first line of a new tokens file.
const HEADER: &str = "# boardlab connect: seat tokens (server game seat token); keep private";

/// The tokens file of the terminal client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenFile {
    path: PathBuf,
}

/// One saved seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedSeat {
    /// The server's address as the user typed it.
    pub addr: String,
    /// The game id.
    pub game: u64,
    /// The seat.
    pub seat: Player,
    /// Its secret token.
    pub token: String,
}

impl SavedSeat {
    fn line(&self) -> String {
        format!(
            "{} {} {} {}",
            self.addr,
            self.game,
            seat_name(self.seat),
            self.token
        )
    }

    fn parse(line: &str) -> Option<SavedSeat> {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.as_slice() {
            [addr, game, seat, token] if !addr.starts_with('#') => Some(SavedSeat {
                addr: addr.to_string(),
                game: game.parse().ok()?,
                seat: seat_of(seat)?,
                token: token.to_string(),
            }),
            _ => None,
        }
    }
}

impl TokenFile {
    /// The tokens file at `path`.
    pub fn at(path: impl Into<PathBuf>) -> TokenFile {
        TokenFile { path: path.into() }
    }

    /// The default place: `$XDG_STATE_HOME/boardlab/tokens`, else
    /// `$HOME/.local/state/boardlab/tokens` (the XDG default); `None` without either.
    pub fn default_path() -> Option<PathBuf> {
        let absolute = |var: &str| {
            std::env::var_os(var)
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
        };
        absolute("XDG_STATE_HOME")
            .or_else(|| absolute("HOME").map(|h| h.join(".local").join("state")))
            .map(|state| state.join("boardlab").join("tokens"))
    }

    /// Where the tokens are kept.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every seat saved for game `game` of the server at `addr`.
    pub fn find(&self, addr: &str, game: u64) -> io::Result<Vec<SavedSeat>> {
        Ok(self
            .read()?
            .iter()
            .filter_map(|l| SavedSeat::parse(l))
            .filter(|s| s.addr == addr && s.game == game)
            .collect())
    }

    /// Saves a seat (replacing an older token of the same seat); notes of changes made
    /// to an existing file (its mode tightened).
    pub fn save(&self, seat: &SavedSeat) -> io::Result<Vec<String>> {
        if seat.addr.split_whitespace().count() != 1 || seat.token.split_whitespace().count() != 1 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "an address or token with spaces cannot be saved",
            ));
        }
        self.update(|lines| {
            lines.retain(|l| {
                SavedSeat::parse(l).is_none_or(|s| {
                    (s.addr.as_str(), s.game, s.seat) != (seat.addr.as_str(), seat.game, seat.seat)
                })
            });
            lines.push(seat.line());
        })
    }

    /// Forgets every seat of game `game` of the server at `addr` (the game is over).
    pub fn forget(&self, addr: &str, game: u64) -> io::Result<Vec<String>> {
        if !self.path.exists() {
            return Ok(Vec::new());
        }
        self.update(|lines| {
            lines
                .retain(|l| SavedSeat::parse(l).is_none_or(|s| !(s.addr == addr && s.game == game)))
        })
    }

    /// The file's lines (none if it does not exist).
    fn read(&self) -> io::Result<Vec<String>> {
        match fs::read_to_string(&self.path) {
            Ok(text) => Ok(text.lines().map(String::from).collect()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Vec::new()),
            Err(e) => Err(e),
        }
    }

    /// Rewrites the file with `change` applied to its lines, under the lock.
    fn update(&self, change: impl FnOnce(&mut Vec<String>)) -> io::Result<Vec<String>> {
        let dir = match self.path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        // A missing directory is made private; an existing one is the user's business.
        if !dir.exists() {
            DirBuilder::new()
                .recursive(true)
                .mode(DIR_MODE)
                .create(&dir)?;
        }
        let name = self
            .path
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?
            .to_string_lossy()
            .into_owned();
        let lock = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .mode(FILE_MODE)
            .open(dir.join(format!("{name}.lock")))?;
        lock.lock()?;
        let mut notes = Vec::new();
        if self.path.exists() {
            notes.extend(tighten(&self.path, FILE_MODE)?);
        }
        let mut lines = self.read()?;
        if lines.is_empty() {
            lines.push(HEADER.to_string());
        }
        change(&mut lines);
        let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
        let written = write_private(&tmp, &lines).and_then(|()| fs::rename(&tmp, &self.path));
        if written.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        written?;
        Ok(notes)
    }
}

/// Writes `lines` to a new `0600` file at `path`, synced. A leftover file of that name
/// goes first; the new one is created exclusively, so a link put there is never followed.
fn write_private(path: &Path, lines: &[String]) -> io::Result<()> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    let mut file: File = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(FILE_MODE)
        .open(path)?;
    let mut text = lines.join("\n");
    text.push('\n');
    file.write_all(text.as_bytes())?;
    file.sync_all()
}
