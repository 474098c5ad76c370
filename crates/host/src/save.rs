//! Persistence: with a data directory each game is one save file `<id>.save` in the
//! [`board_core::savefile`] format. A seat's token is recorded as a comment line
//! `# token <seat> <token>` when the seat is taken, an engine seat as
//! `# engine <seat> <level>` (a think time in ms, `random` or `baseline`), a resignation
//! as `# resign <seat>`, a draw agreed as `# draw`, a player's consent to engine help as
//! `# help <seat> on|off`, the creator's token as `# owner <token>` and the engines
//! paused by the creator as `# paused on|off` ([`Recorded`]), and the engine's score of
//! the position after `ply` moves, thought when it moved there, as `# eval <ply> <score>`
//! ([`eval_record`], read by [`evals`]); the time control as `# time TIME` after the
//! game spec, each move's time on its player's clock as `# used PLY MS` appended with the
//! move (read by [`used_times`]; a file given to load is read strictly by
//! [`clock_records`]) and a loss on time as `# flag <seat>`; each accepted
//! move is appended (and synced) before the reply. At start-up every `*.save` file is found ([`scan`]), checked and
//! read ([`read_game`]) and replayed, so games resume where they were, players reconnect
//! with their tokens and engines whose turn it is move.
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
    io::{self, ErrorKind, Read, Write},
    os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt},
    path::{Path, PathBuf},
};

use board_core::{Player, savefile};

use crate::{
    clock::TimeControl,
    seat::{Level, Seat, Token, seat_name, seat_of},
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
pub fn path(dir: &Path, id: u64) -> PathBuf {
    dir.join(format!("{id}.save"))
}

/// What a directory entry's name says about game files.
#[derive(Debug, PartialEq, Eq)]
pub enum Name {
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
pub fn name_of(name: &str) -> Name {
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
pub fn record(text: &str) -> String {
    format!("{text}{TRAILER}{:08x}\n", crc32fast::hash(text.as_bytes()))
}

/// What [`check_records`] found in a save file.
#[derive(Debug, PartialEq, Eq)]
pub struct Checked {
    /// Bytes of the file that are whole records (everything if nothing was cut).
    pub intact: usize,
    /// A last line without its newline that is not a whole record: an append cut short
    /// by a crash (never acknowledged, so it is dropped).
    pub torn: Option<String>,
    /// The file ends without a newline after a line without a trailer (written by an
    /// older server or by hand): the next append must start a new line.
    pub needs_newline: bool,
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
pub fn check_records(text: &str) -> Result<Checked, String> {
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
pub fn private_dir(dir: &Path) -> io::Result<Vec<String>> {
    DirBuilder::new()
        .recursive(true)
        .mode(DIR_MODE)
        .create(dir)?;
    tighten(dir, DIR_MODE)
}

/// Sets `path`'s mode to `mode` if it grants more (group or others); a note if so.
pub fn tighten(path: &Path, mode: u32) -> io::Result<Vec<String>> {
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
pub fn lock_dir(dir: &Path) -> io::Result<File> {
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
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Writes a new game's save file at `path` (never an existing one: `AlreadyExists`
/// then), its header and the game spec, no moves; synced with its directory entry.
pub fn create(path: &Path, spec: &str) -> io::Result<()> {
    create_records(
        path,
        &[
            format!("{} {}", savefile::MAGIC, savefile::VERSION),
            format!("game {spec}"),
        ],
    )
}

/// Writes a new save file at `path` holding the records `lines` (never an existing
/// file: `AlreadyExists` then), synced with its directory entry.
pub fn create_records(path: &Path, lines: &[String]) -> io::Result<()> {
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(FILE_MODE)
        .open(path)?;
    let text: String = lines.iter().map(|l| record(l)).collect();
    let written = file
        .write_all(text.as_bytes())
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
pub fn append(path: Option<&Path>, lines: &[&str]) -> Result<(), String> {
    let Some(path) = path else {
        return Ok(());
    };
    let text: String = lines.iter().map(|l| record(l)).collect();
    append_raw(path, &text).map_err(|e| format!("cannot save: {e}"))
}

/// Appends `text` as it is to the existing file at `path` and syncs it.
pub fn append_raw(path: &Path, text: &str) -> io::Result<()> {
    let mut f = OpenOptions::new().append(true).open(path)?;
    f.write_all(text.as_bytes())?;
    f.sync_data()
}

/// Cuts the file at `path` to its first `len` bytes (a torn last record) and syncs it.
pub fn truncate(path: &Path, len: usize) -> io::Result<()> {
    let f = OpenOptions::new().write(true).open(path)?;
    f.set_len(len as u64)?;
    f.sync_data()
}

/// Moves game `id`'s save file into `dir/archive/` (created [`DIR_MODE`]): as
/// `<id>.save`, or `<id>.<k>.save` if that name is taken; never overwrites. The new path.
pub fn archive(dir: &Path, id: u64) -> io::Result<PathBuf> {
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

/// Writes the records `lines` (each with its trailer) as the whole new content of the
/// save file at `path`: a new private file beside it is written and synced, then renamed
/// over it and the directory synced, so a crash leaves the old file or the new one,
/// never a mix.
pub fn rewrite(path: &Path, lines: &[String]) -> io::Result<()> {
    let tmp = path.with_extension("save.tmp");
    // A temporary file left by a crash is ours to replace (it was never renamed).
    match fs::remove_file(&tmp) {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let text: String = lines.iter().map(|l| record(l)).collect();
    let written = (|| {
        let mut f = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(FILE_MODE)
            .open(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        fs::rename(&tmp, path)?;
        sync_dir(path.parent().unwrap_or(Path::new(".")))
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written
}

/// A locked, private data directory: held as long as this value lives.
#[derive(Debug)]
pub struct DataDir {
    dir: PathBuf,
    _lock: File,
}

impl DataDir {
    /// Creates `dir` `0700` if missing (an existing one others can read is tightened)
    /// and takes its lock: a second server on it is refused with the first one's pid.
    /// Notes of the changes made.
    pub fn open(dir: &Path) -> io::Result<(DataDir, Vec<String>)> {
        let notes = private_dir(dir)?;
        let lock = lock_dir(dir)?;
        Ok((
            DataDir {
                dir: dir.to_path_buf(),
                _lock: lock,
            },
            notes,
        ))
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// The save file of game `id`.
    pub fn game(&self, id: u64) -> PathBuf {
        path(&self.dir, id)
    }
}

/// What [`scan`] found in a data directory.
#[derive(Debug, Default)]
pub struct Scan {
    /// The canonical game files, by id, in id order.
    pub games: Vec<(u64, PathBuf)>,
    /// One more than the highest id named by any `.save` file there or in the archive,
    /// loadable or not: ids are never reused.
    pub next_id: u64,
    /// Changes made (modes tightened) and files that will not be loaded, for the
    /// operator.
    pub notes: Vec<String>,
}

/// Lists the game files of `dir`; tightens the mode of every `.save` file (skipped ones
/// may hold tokens too: their content is left alone).
pub fn scan(dir: &Path) -> io::Result<Scan> {
    let mut scan = Scan {
        next_id: 1,
        ..Scan::default()
    };
    let reserve = |scan: &mut Scan, id: u64| scan.next_id = scan.next_id.max(id.saturating_add(1));
    let archive = dir.join(ARCHIVE_DIR);
    if archive.is_dir() {
        scan.notes.extend(tighten(&archive, DIR_MODE)?);
        for entry in fs::read_dir(&archive)? {
            if let Name::Game(id) | Name::NonCanonical(id) =
                name_of(&entry?.file_name().to_string_lossy())
            {
                reserve(&mut scan, id);
            }
        }
    }
    let mut paths: Vec<PathBuf> = fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<io::Result<_>>()?;
    paths.sort();
    for path in paths {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let kind = name_of(&name);
        if kind != Name::Other && path.is_file() {
            match tighten(&path, FILE_MODE) {
                Ok(more) => scan.notes.extend(more),
                Err(e) => scan
                    .notes
                    .push(format!("{}: cannot tighten: {e}", path.display())),
            }
        }
        match kind {
            Name::Other => {}
            Name::NonCanonical(id) => {
                reserve(&mut scan, id);
                scan.notes.push(format!(
                    "{}: skipped: not a canonical game file name (game {id} is {id}.save)",
                    path.display()
                ));
            }
            Name::Game(id) => {
                reserve(&mut scan, id);
                scan.games.push((id, path));
            }
        }
    }
    scan.games.sort_by_key(|&(id, _)| id);
    Ok(scan)
}

/// Reads the save file at `path` for loading: a regular file of at most
/// [`savefile::MAX_BYTES`] bytes of UTF-8 whose records pass their check. A torn last
/// record (an append cut short by a crash, never acknowledged) is cut off the file. The
/// intact text, and notes of the changes made; an error (the file is then left alone)
/// names what is wrong.
pub fn read_game(path: &Path) -> Result<(String, Vec<String>), String> {
    let meta = fs::symlink_metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|f| {
            f.take(savefile::MAX_BYTES as u64 + 1)
                .read_to_end(&mut bytes)
        })
        .map_err(|e| e.to_string())?;
    if bytes.len() > savefile::MAX_BYTES {
        return Err(format!("larger than {} bytes", savefile::MAX_BYTES));
    }
    let mut text = String::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string())?;
    let checked = check_records(&text)?;
    let mut notes = Vec::new();
    if let Some(torn) = &checked.torn {
        truncate(path, checked.intact).map_err(|e| format!("cannot cut: {e}"))?;
        let shown: String = torn
            .chars()
            .take(40)
            .map(|c| if c.is_control() { '?' } else { c })
            .collect();
        notes.push(format!(
            "{}: dropped its unfinished last record '{shown}' (an append cut short, never \
             acknowledged)",
            path.display()
        ));
        text.truncate(checked.intact);
    }
    if checked.needs_newline {
        append_raw(path, "\n").map_err(|e| format!("cannot save: {e}"))?;
        text.push('\n');
    }
    Ok((text, notes))
}

/// The comment records of a save file: seats, a resignation, a draw agreed, the players'
/// consent to engine help.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recorded {
    /// The first and second seat.
    pub seats: [Seat; 2],
    /// The player who resigned.
    pub resigned: Option<Player>,
    /// The players agreed a draw.
    pub drawn: bool,
    /// Each player turned engine help on for this game.
    pub help: [bool; 2],
    /// The creator's token (pauses and resumes the engines of the game).
    pub owner: Option<Token>,
    /// The creator paused the game's engines.
    pub paused: bool,
    /// The time control (`# time`), if the game has clocks.
    pub time: Option<TimeControl>,
    /// The seat whose clock ran out (`# flag`).
    pub flagged: Option<Player>,
    /// The time each move used, by ply (`# used`; read by [`used_times`], not by
    /// [`recorded`]).
    pub used: std::collections::BTreeMap<usize, std::time::Duration>,
}

impl Default for Recorded {
    fn default() -> Recorded {
        Recorded {
            seats: [Seat::Free, Seat::Free],
            resigned: None,
            drawn: false,
            help: [false, false],
            owner: None,
            paused: false,
            time: None,
            flagged: None,
            used: std::collections::BTreeMap::new(),
        }
    }
}

/// Reads the records of `text` (later records win: a takeback rewrites the file).
pub fn recorded(text: &str) -> Recorded {
    let mut r = Recorded::default();
    for line in text.lines() {
        // The integrity trailer is a comment of its own: not part of the record.
        let line = split_trailer(line).map_or(line, |(body, _)| body);
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.as_slice() {
            ["#", "token", seat, tok] => {
                if let Some(p) = seat_of(seat) {
                    r.seats[p.index()] = Seat::Person(Token::from_saved(tok));
                }
            }
            ["#", "engine", seat, word] => {
                if let Some(p) = seat_of(seat) {
                    r.seats[p.index()] = Seat::Engine(Level::from_word(word).unwrap_or_default());
                }
            }
            ["#", "resign", seat] => r.resigned = seat_of(seat),
            ["#", "draw"] => r.drawn = true,
            ["#", "help", seat, on @ ("on" | "off")] => {
                if let Some(p) = seat_of(seat) {
                    r.help[p.index()] = *on == "on";
                }
            }
            ["#", "owner", tok] => r.owner = Some(Token::from_saved(tok)),
            ["#", "paused", on @ ("on" | "off")] => r.paused = *on == "on",
            ["#", "time", tc] => r.time = tc.parse().ok(),
            ["#", "flag", seat] => r.flagged = seat_of(seat),
            _ => {}
        }
    }
    r
}

/// The record of who holds seat `p` (`None` for a free seat).
pub fn seat_record(p: Player, seat: &Seat) -> Option<String> {
    match seat {
        Seat::Free => None,
        Seat::Person(t) => Some(format!("# token {} {}", seat_name(p), t.as_str())),
        Seat::Engine(l) => Some(format!("# engine {} {}", seat_name(p), l.word())),
    }
}

/// The record of `p`'s resignation.
pub fn resign_record(p: Player) -> String {
    format!("# resign {}", seat_name(p))
}

/// The record of a draw agreed.
pub const DRAW_RECORD: &str = "# draw";

/// The record of `p` turning engine help on or off.
pub fn help_record(p: Player, on: bool) -> String {
    format!("# help {} {}", seat_name(p), if on { "on" } else { "off" })
}

/// The record of the creator's token.
pub fn owner_record(token: &Token) -> String {
    format!("# owner {}", token.as_str())
}

/// The record of the creator pausing (`on`) or resuming the game's engines.
pub fn paused_record(on: bool) -> String {
    format!("# paused {}", if on { "on" } else { "off" })
}

/// The whole save file of a hosted game, as records: header, spec and seats, the moves
/// (from the save text of the game, `savefile` format), then resignation, draw and help.
pub fn file_records(game_save: &str, r: &Recorded) -> Vec<String> {
    let mut lines = game_save.lines();
    let mut out: Vec<String> = lines.by_ref().take(2).map(str::to_string).collect();
    out.extend(r.time.map(time_record));
    out.extend(
        Player::BOTH
            .iter()
            .filter_map(|&p| seat_record(p, &r.seats[p.index()])),
    );
    out.extend(r.owner.as_ref().map(owner_record));
    if r.paused {
        out.push(paused_record(true));
    }
    for p in Player::BOTH {
        if r.help[p.index()] {
            out.push(help_record(p, true));
        }
    }
    out.extend(lines.map(str::to_string));
    if let Some(p) = r.resigned {
        out.push(resign_record(p));
    }
    if r.drawn {
        out.push(DRAW_RECORD.to_string());
    }
    if let Some(p) = r.flagged {
        out.push(flag_record(p));
    }
    out
}

/// The record of the game's time control, after the game spec.
pub fn time_record(time: TimeControl) -> String {
    format!("# time {time}")
}

/// The record of the time the move `ply` (1 the first move) used on its player's clock,
/// in whole milliseconds, appended with the move.
pub fn used_record(ply: usize, time: std::time::Duration) -> String {
    format!("# used {ply} {}", time.as_millis())
}

/// The record of `p`'s clock running out: the game is lost on time.
pub fn flag_record(p: Player) -> String {
    format!("# flag {}", seat_name(p))
}

/// The time each move used ([`used_record`]) by ply; a later record of a ply wins.
pub fn used_times(text: &str) -> std::collections::BTreeMap<usize, std::time::Duration> {
    let mut used = std::collections::BTreeMap::new();
    for line in text.lines() {
        let line = split_trailer(line).map_or(line, |(body, _)| body);
        if let ["#", "used", ply, ms] = line.split_whitespace().collect::<Vec<_>>()[..]
            && let (Ok(ply), Ok(ms)) = (ply.parse::<usize>(), ms.parse::<u64>())
        {
            used.insert(ply, std::time::Duration::from_millis(ms));
        }
    }
    used
}

/// The clock records of a save file to load ([`clock_records`]): its time control, each
/// move's time by ply and the seat that lost on time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClockRecords {
    /// `# time`: the time control (none: a game without clocks).
    pub time: Option<TimeControl>,
    /// `# used`: the time each move used, by ply (a later record of a ply wins).
    pub used: std::collections::BTreeMap<usize, std::time::Duration>,
    /// `# flag`: the seat whose clock ran out.
    pub flagged: Option<Player>,
}

impl ClockRecords {
    /// The clocks of a new game under `time` (`None`: no clocks): no move played yet.
    pub fn fresh(time: Option<TimeControl>) -> ClockRecords {
        ClockRecords {
            time,
            ..ClockRecords::default()
        }
    }
}

/// Reads the clock records of a save file given to load (a page's download, a host's
/// file): unlike the start-up's readers, a clock record that does not read is an error
/// naming its line (`line 3: ...`), and so is a `# used` or `# flag` record in a file
/// without a `# time` record (whose clocks would be lost without a word).
pub fn clock_records(text: &str) -> Result<ClockRecords, String> {
    let mut r = ClockRecords::default();
    let mut untimed = None;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let line = split_trailer(line).map_or(line, |(body, _)| body);
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["#", "time", rest @ ..] => {
                let tc = rest.join(" ");
                r.time = Some(tc.parse().map_err(|e| format!("line {n}: {e}"))?);
            }
            ["#", "used", rest @ ..] => {
                let (ply, ms) = match rest {
                    [ply, ms] => (ply.parse::<usize>().ok(), ms.parse::<u64>().ok()),
                    _ => (None, None),
                };
                let (Some(ply @ 1..), Some(ms)) = (ply, ms) else {
                    return Err(format!(
                        "line {n}: bad clock record '{}': expected # used PLY MS (PLY from 1, \
                         MS whole milliseconds)",
                        crate::error::shortened(line, 40)
                    ));
                };
                r.used.insert(ply, std::time::Duration::from_millis(ms));
                untimed.get_or_insert(n);
            }
            ["#", "flag", rest @ ..] => {
                let seat = match rest {
                    [seat] => seat_of(seat),
                    _ => None,
                };
                let Some(seat) = seat else {
                    return Err(format!(
                        "line {n}: bad clock record '{}': expected # flag first|second",
                        crate::error::shortened(line, 40)
                    ));
                };
                r.flagged = Some(seat);
                untimed.get_or_insert(n);
            }
            _ => {}
        }
    }
    if r.time.is_none()
        && let Some(n) = untimed
    {
        return Err(format!(
            "line {n}: a clock record in a file without a '# time' record"
        ));
    }
    Ok(r)
}

/// How a save file given to load says the players ended its game ([`ending_records`]):
/// a resignation or a draw agreed. (A loss on time is a clock record.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ending {
    /// `# resign SEAT`: the player who resigned.
    pub resigned: Option<Player>,
    /// `# draw`: the players agreed a draw.
    pub drawn: bool,
}

/// Reads how the players ended the game of a save file given to load: unlike the
/// start-up's reader ([`recorded`]), a `# resign` record that does not name a seat is an
/// error naming its line, and so is a file that ends its game twice (resigned and drawn).
pub fn ending_records(text: &str) -> Result<Ending, String> {
    let mut ending = Ending::default();
    let mut first = None;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let line = split_trailer(line).map_or(line, |(body, _)| body);
        match line.split_whitespace().collect::<Vec<_>>().as_slice() {
            ["#", "resign", rest @ ..] => {
                let seat = match rest {
                    [seat] => seat_of(seat),
                    _ => None,
                };
                let Some(seat) = seat else {
                    return Err(format!(
                        "line {n}: bad record '{}': expected # resign first|second",
                        crate::error::shortened(line, 40)
                    ));
                };
                ending.resigned = Some(seat);
                first.get_or_insert(n);
            }
            ["#", "draw"] => {
                ending.drawn = true;
                first.get_or_insert(n);
            }
            ["#", "draw", ..] => {
                return Err(format!(
                    "line {n}: bad record '{}': expected # draw",
                    crate::error::shortened(line, 40)
                ));
            }
            _ => {}
        }
    }
    if ending.resigned.is_some() && ending.drawn {
        let n = first.unwrap_or(1);
        return Err(format!(
            "line {n}: the file ends its game twice: a resignation and a draw agreed"
        ));
    }
    Ok(ending)
}

/// The record of the engine's score `score` (the first player's side, as the evaluation
/// graph draws it) of the position after `ply` moves, thought when it moved there.
pub fn eval_record(ply: usize, score: i32) -> String {
    format!("# eval {ply} {score}")
}

/// The engine's scores recorded in `text` ([`eval_record`]) by ply; a later record of a
/// ply wins. Lines that are no such record are not scores (and are left to the other
/// readers).
pub fn evals(text: &str) -> std::collections::BTreeMap<usize, i32> {
    let mut scores = std::collections::BTreeMap::new();
    for line in text.lines() {
        let line = split_trailer(line).map_or(line, |(body, _)| body);
        if let ["#", "eval", ply, score] = line.split_whitespace().collect::<Vec<_>>()[..]
            && let (Ok(ply), Ok(score)) = (ply.parse::<usize>(), score.parse::<i32>())
        {
            scores.insert(ply, score);
        }
    }
    scores
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

    #[test]
    fn the_records_of_a_hosted_game_read_back() {
        let r = Recorded {
            seats: [
                Seat::Person(Token::generate().expect("randomness")),
                Seat::Engine(Level::Baseline),
            ],
            resigned: Some(Player::Second),
            drawn: false,
            help: [true, false],
            owner: Some(Token::generate().expect("randomness")),
            paused: true,
            time: Some("5m+3s".parse().expect("time control")),
            flagged: Some(Player::First),
            used: Default::default(),
        };
        let lines = file_records("boardlab-save 1\ngame x\nc3\nd4\n", &r);
        assert_eq!(&lines[..2], ["boardlab-save 1", "game x"]);
        assert_eq!(lines.iter().filter(|l| !l.starts_with('#')).count(), 4);
        let text: String = lines.iter().map(|l| record(l)).collect();
        assert_eq!(check_records(&text).expect("intact").intact, text.len());
        assert_eq!(recorded(&text), r);
        // Later records win: a resumed game, a second player's consent.
        let more = format!(
            "{text}{}{}",
            record(&paused_record(false)),
            record(&help_record(Player::Second, true))
        );
        let again = recorded(&more);
        assert!(!again.paused && again.help == [true, true]);
    }

    #[test]
    fn engine_scores_read_back_by_ply_the_later_record_winning() {
        let text: String = [
            "boardlab-save 1",
            "game x",
            "c3",
            &eval_record(0, 35),
            "d4",
            "e5",
            &eval_record(2, -120),
            &eval_record(2, -80),
            "# eval 3 many",
        ]
        .iter()
        .map(|l| record(l))
        .collect();
        assert_eq!(check_records(&text).expect("intact").intact, text.len());
        let scores: Vec<(usize, i32)> = evals(&text).into_iter().collect();
        assert_eq!(scores, [(0, 35), (2, -80)]);
        assert_eq!(recorded(&text), Recorded::default(), "no other record read");
    }
}
