//! Persistence: with a data directory each game is one save file `<id>.save` in the
//! [`board_core::savefile`] format. A seat's token is recorded as a comment line
//! `# token <seat> <token>` when the seat is taken, an engine seat as
//! `# engine <seat> <ms>`; each accepted move is appended (and synced) before the `ok`.
//! At start-up every `*.save` file is replayed ([`super::game::restore_game`] for the
//! moves, [`seats_of_save`] for the seats), so games resume where they were, players
//! reconnect with their tokens and engines whose turn it is move.

use std::{
    fs,
    io::Write,
    path::{Path, PathBuf},
};

use board_core::savefile;

use super::{
    DEFAULT_ENGINE_MS, ENGINE_MS,
    game::seat_of,
    hosted::{Seat, idx},
};

/// The save file of game `id` in the data directory `dir`.
pub(super) fn path(dir: &Path, id: u64) -> PathBuf {
    dir.join(format!("{id}.save"))
}

/// The game id of a save file's path (`<id>.save`); `None` for any other file.
pub(super) fn id_of(path: &Path) -> Option<u64> {
    path.file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix(".save"))
        .and_then(|n| n.parse::<u64>().ok())
}

/// Writes a new game's save file at `path`: the header and the game spec, no moves.
pub(super) fn create(path: &Path, spec: &str) -> Result<(), String> {
    let header = format!("{} {}\ngame {}\n", savefile::MAGIC, savefile::VERSION, spec);
    fs::write(path, header).map_err(|e| format!("cannot save: {e}"))
}

/// Appends `text` to the save file at `path` (none: in memory only) and syncs it.
pub(super) fn append(path: Option<&Path>, text: &str) -> Result<(), String> {
    let Some(path) = path else {
        return Ok(());
    };
    let mut f = fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| format!("cannot save: {e}"))?;
    f.write_all(text.as_bytes())
        .and_then(|()| f.sync_data())
        .map_err(|e| format!("cannot save: {e}"))
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
