//! Persistence: with a data directory each game is one save file `<id>.save` in the
//! [`board_core::savefile`] format. A seat's token is recorded as a comment line
//! `# token <seat> <token>` when the seat is taken, an engine seat as
//! `# engine <seat> <ms>`; each accepted move is appended (and synced) before the `ok`.
//! At start-up every `*.save` file is replayed ([`super::game::restore_game`] for the
//! moves, [`seats_of_save`] for the seats), so games resume where they were, players
//! reconnect with their tokens and engines whose turn it is move.
//!
//! Every line the server writes ends in an integrity trailer, a comment
//! ` #@xxxxxxxx` holding the CRC-32 of the text before it ([`record`]), so a record cut
//! short by a crash is told apart from a shorter legal move (`c12` cut to `c1`). The
//! trailer is a comment, so `boardlab play --load` and `replay` read the files as before.
//!
//! The directory is private: created `0700`, save files `0600` (tokens are secrets), and
//! held by one server at a time through an exclusive lock on [`LOCK_FILE`] ([`lock_dir`]).
//! Files are created with `create_new` (never overwritten) and synced with their
//! directory entry; expired games are moved to [`ARCHIVE_DIR`], never deleted.

use std::{
    fs::{self, DirBuilder, File, OpenOptions},
    io::{self, Read, Write},
    os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt},
    path::{Path, PathBuf},
};

use board_core::savefile;

use super::{
    DEFAULT_ENGINE_MS, ENGINE_MS,
    game::seat_of,
    hosted::{Seat, idx},
};

/// The lock file in the data directory; holds the pid of the server that owns it.
pub const LOCK_FILE: &str = "server.lock";
/// The subdirectory expired games' save files are moved to.
pub const ARCHIVE_DIR: &str = "archive";
/// Mode of the data directory and the archive: only the server's user.
pub const DIR_MODE: u32 = 0o700;
/// Mode of save files and the lock file: only the server's user reads the tokens.
pub const FILE_MODE: u32 = 0o600;
/// What starts a line's integrity trailer; eight hex digits of CRC-32 follow.
const TRAILER: &str = " #@";

/// The save file of game `id` in the data directory `dir`.
pub(super) fn path(dir: &Path, id: u64) -> PathBuf {
    dir.join(format!("{id}.save"))
}

/// What a directory entry's name says about game files.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Name {
    /// `<id>.save` with the id written canonically (`7.save`).
    Game(u64),
    /// A `.save` name that holds a number but not canonically (`01.save`, `+1.save`):
    /// never loaded (its moves would go to `<id>.save`), but its number is never reused.
    NonCanonical(u64),
    /// Anything else.
    Other,
}

/// Classifies a file name of the data or archive directory. Archived names
/// `<id>.<k>.save` count as `NonCanonical(id)`: they only reserve the id.
pub(super) fn name_of(name: &str) -> Name {
    let Some(stem) = name.strip_suffix(".save") else {
        return Name::Other;
    };
    let number = stem.split('.').next().unwrap_or("");
    match number.parse::<u64>() {
        Ok(id) if stem == id.to_string() => Name::Game(id),
        Ok(id) => Name::NonCanonical(id),
        Err(_) => Name::Other,
    }
}

/// `text` with its integrity trailer and a newline: one line of a save file.
pub(super) fn record(text: &str) -> String {
    format!("{text}{TRAILER}{:08x}\n", crc32fast::hash(text.as_bytes()))
}

/// What [`check_records`] found in a save file.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Checked {
    /// Bytes of the file that are whole records (everything if nothing was cut).
    pub(super) intact: usize,
    /// A last line without its newline that is not a whole record: an append cut short
    /// by a crash (never acknowledged, so it is dropped).
    pub(super) torn: Option<String>,
    /// The file ends without a newline after a line without a trailer (written by an
    /// older server or by hand): the next append must start a new line.
    pub(super) needs_newline: bool,
}

/// The text and checksum of a line ending in a trailer; `None` if it has none.
fn split_trailer(line: &str) -> Option<(&str, &str)> {
    let at = line.rfind(TRAILER)?;
    let sum = &line[at + TRAILER.len()..];
    (sum.len() == 8 && sum.bytes().all(|b| b.is_ascii_hexdigit())).then(|| (&line[..at], sum))
}

/// Checks every line's trailer. Lines before the first one with a trailer may lack it
/// (files of older servers); from then on every line must carry a valid one. A bad last
/// line without its newline is a torn append (reported, not an error); any other bad
/// line means the file was changed or damaged: the error names it.
pub(super) fn check_records(text: &str) -> Result<Checked, String> {
    let mut seen_trailer = false;
    let mut offset = 0;
    let mut lines = text.split_inclusive('\n').enumerate().peekable();
    while let Some((i, raw)) = lines.next() {
        let line = raw.strip_suffix('\n').unwrap_or(raw);
        let line = line.strip_suffix('\r').unwrap_or(line);
        let complete = raw.ends_with('\n');
        let valid = match split_trailer(line) {
            Some((body, sum)) => {
                seen_trailer = true;
                u32::from_str_radix(sum, 16).ok() == Some(crc32fast::hash(body.as_bytes()))
            }
            None => !seen_trailer,
        };
        let last = lines.peek().is_none();
        if !valid || (seen_trailer && !complete) {
            if last && !complete {
                return Ok(Checked {
                    intact: offset,
                    torn: Some(line.to_string()),
                    needs_newline: false,
                });
            }
            return Err(format!(
                "line {}: the record fails its integrity check (the file was changed or damaged)",
                i + 1
            ));
        }
        offset += raw.len();
        if last && !complete {
            return Ok(Checked {
                intact: offset,
                torn: None,
                needs_newline: true,
            });
        }
    }
    Ok(Checked {
        intact: offset,
        torn: None,
        needs_newline: false,
    })
}

/// Creates `dir` (and missing parents) with [`DIR_MODE`]; an existing directory that
/// others may read is tightened to it. A note for each change made.
pub(super) fn private_dir(dir: &Path) -> io::Result<Vec<String>> {
    DirBuilder::new()
        .recursive(true)
        .mode(DIR_MODE)
        .create(dir)?;
    tighten(dir, DIR_MODE)
}

/// Sets `path`'s mode to `mode` if it grants more (group or others); a note if so.
pub(super) fn tighten(path: &Path, mode: u32) -> io::Result<Vec<String>> {
    let have = fs::metadata(path)?.permissions().mode() & 0o777;
    if have & !mode == 0 {
        return Ok(Vec::new());
    }
    fs::set_permissions(path, fs::Permissions::from_mode(mode))?;
    Ok(vec![format!(
        "{}: tightened mode {have:03o} to {mode:03o} (it holds seat tokens)",
        path.display()
    )])
}

/// Takes the exclusive lock on the data directory `dir` and writes this process's pid
/// into the lock file; the lock is held while the returned file stays open. Refused
/// (with the holder's pid) when another server holds it.
pub(super) fn lock_dir(dir: &Path) -> io::Result<File> {
    let path = dir.join(LOCK_FILE);
    // Not truncated on open: the holder's pid must stay readable for the refusal.
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(FILE_MODE)
        .open(&path)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(fs::TryLockError::WouldBlock) => {
            let mut holder = String::new();
            let _ = file.take(64).read_to_string(&mut holder);
            let holder = holder.trim();
            let holder = if holder.is_empty() { "unknown" } else { holder };
            return Err(io::Error::new(
                io::ErrorKind::WouldBlock,
                format!(
                    "the data directory {} is in use by another server (pid {holder}; lock file {})",
                    dir.display(),
                    path.display()
                ),
            ));
        }
        Err(fs::TryLockError::Error(e)) => return Err(e),
    }
    file.set_len(0)?;
    file.write_all(format!("{}\n", std::process::id()).as_bytes())?;
    file.sync_data()?;
    Ok(file)
}

/// Syncs the directory `dir`, making the entries created or moved in it durable.
pub(super) fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Writes a new game's save file at `path` (never an existing one: `AlreadyExists`
/// then), its header and the game spec, no moves; synced with its directory entry.
pub(super) fn create(path: &Path, spec: &str) -> io::Result<()> {
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(FILE_MODE)
        .open(path)?;
    let header = format!(
        "{}{}",
        record(&format!("{} {}", savefile::MAGIC, savefile::VERSION)),
        record(&format!("game {spec}"))
    );
    let written = file
        .write_all(header.as_bytes())
        .and_then(|()| file.sync_all());
    let written = written.and_then(|()| sync_dir(path.parent().unwrap_or(Path::new("."))));
    if let Err(e) = written {
        // Nobody was told about this file: it goes, so its id is free of half a header.
        drop(file);
        let _ = fs::remove_file(path);
        return Err(e);
    }
    Ok(())
}

/// Appends the records `lines` (each with its trailer) to the existing save file at
/// `path` (none: in memory only) in one write, and syncs it.
pub(super) fn append(path: Option<&Path>, lines: &[&str]) -> Result<(), String> {
    let Some(path) = path else {
        return Ok(());
    };
    let text: String = lines.iter().map(|l| record(l)).collect();
    append_raw(path, &text).map_err(|e| format!("cannot save: {e}"))
}

/// Appends `text` as it is to the existing file at `path` and syncs it.
pub(super) fn append_raw(path: &Path, text: &str) -> io::Result<()> {
    let mut f = OpenOptions::new().append(true).open(path)?;
    f.write_all(text.as_bytes())?;
    f.sync_data()
}

/// Cuts the file at `path` to its first `len` bytes (a torn last record) and syncs it.
pub(super) fn truncate(path: &Path, len: usize) -> io::Result<()> {
    let f = OpenOptions::new().write(true).open(path)?;
    f.set_len(len as u64)?;
    f.sync_data()
}

/// Moves game `id`'s save file into `dir/archive/` (created [`DIR_MODE`]): as
/// `<id>.save`, or `<id>.<k>.save` if that name is taken; never overwrites. The new path.
pub(super) fn archive(dir: &Path, id: u64) -> io::Result<PathBuf> {
    let archive = dir.join(ARCHIVE_DIR);
    private_dir(&archive)?;
    let from = path(dir, id);
    for k in 0..1000u32 {
        let to = if k == 0 {
            archive.join(format!("{id}.save"))
        } else {
            archive.join(format!("{id}.{k}.save"))
        };
        // A hard link fails when the name exists (a rename would replace it).
        match fs::hard_link(&from, &to) {
            Ok(()) => {
                sync_dir(&archive)?;
                fs::remove_file(&from)?;
                sync_dir(dir)?;
                return Ok(to);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!("no free archive name for game {id}"),
    ))
}

/// The seats recorded in a save file's `# token` and `# engine` comment lines.
pub(super) fn seats_of_save(text: &str) -> [Seat; 2] {
    let mut seats = [Seat::Free, Seat::Free];
    for line in text.lines() {
        let mut w = line.split_whitespace();
        match (w.next(), w.next(), w.next().and_then(seat_of), w.next()) {
            (Some("#"), Some("token"), Some(p), Some(tok)) => {
                seats[idx(p)] = Seat::Token(tok.to_string());
            }
            (Some("#"), Some("engine"), Some(p), Some(ms)) => {
                let ms = ms
                    .parse()
                    .ok()
                    .filter(|ms| ENGINE_MS.contains(ms))
                    .unwrap_or(DEFAULT_ENGINE_MS);
                seats[idx(p)] = Seat::Engine(ms);
            }
            _ => {}
        }
    }
    seats
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_classified() {
        assert_eq!(name_of("7.save"), Name::Game(7));
        assert_eq!(name_of("0.save"), Name::Game(0));
        assert_eq!(name_of("01.save"), Name::NonCanonical(1));
        assert_eq!(name_of("+3.save"), Name::NonCanonical(3));
        assert_eq!(name_of("4.2.save"), Name::NonCanonical(4));
        assert_eq!(name_of("x.save"), Name::Other);
        assert_eq!(name_of("7.sav"), Name::Other);
        assert_eq!(name_of("server.lock"), Name::Other);
    }

    #[test]
    fn trailers_catch_a_cut_last_record() {
        let file = format!(
            "{}{}{}",
            record("boardlab-save 1"),
            record("game x"),
            record("c12")
        );
        let whole = check_records(&file).expect("intact");
        assert_eq!(whole.intact, file.len());
        assert_eq!(whole.torn, None);
        // `c12` cut to `c1` (or anywhere inside the record) is found and cut off.
        let keep = file.len() - record("c12").len();
        for cut in keep + 1..file.len() {
            let checked = check_records(&file[..cut]).expect("torn is not an error");
            assert_eq!(checked.intact, keep, "cut at {cut}");
            assert!(checked.torn.is_some(), "cut at {cut}");
        }
        // A damaged line in the middle is an error naming it.
        let bad = file.replacen("game x", "game y", 1);
        assert!(
            check_records(&bad)
                .expect_err("damaged")
                .starts_with("line 2:")
        );
        // Old files without trailers load; lines after the first trailer need one.
        let old = "boardlab-save 1\ngame x\nc1\n";
        assert_eq!(check_records(old).expect("legacy").intact, old.len());
        let mixed = format!("{old}{}d4\n", record("c2"));
        assert!(
            check_records(&mixed)
                .expect_err("untrailered")
                .starts_with("line 5:")
        );
        let open_end = "boardlab-save 1\ngame x\nc1";
        assert!(check_records(open_end).expect("legacy").needs_newline);
    }
}
