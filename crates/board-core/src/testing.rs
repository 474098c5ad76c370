//! A conformance harness for any [`Position`] implementation, a user's own game included.
//!
//! Call [`check_random_playouts`] from a unit test, or [`check_playout`] from a proptest with
//! a vector of move choices. Each position along a playout is checked for:
//! - incremental hash = hash computed from scratch;
//! - no duplicate moves; `count_moves` = number of generated moves; a bulk two-ply count
//!   (`count_two_ply_sequences`), where a game has one, = the count by playing each move
//!   (on positions with at most 3000 moves);
//! - a finished game has no moves, and a game with no moves is finished;
//! - every generated move validates, and its notation round-trips through `parse_move`;
//! - moves that were legal elsewhere (and any the caller's sampler offers) validate exactly
//!   when they are generated, and a refused `play` leaves position and hash untouched
//!   (and `make_move`/`unmake_move` of such a move, on a copy, do not panic);
//! - the position string round-trips;
//! - make then unmake restores position and hash; at the end, unmaking every move in turn
//!   gives back the start position;
//! - the playout ends within the caller's ply limit.

pub mod claim;

use std::fmt;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::position::{Notation, Position};

/// A broken invariant: what, at which ply, after which moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConformanceError {
    /// How many moves had been played from the start position when the check failed.
    pub ply: usize,
    /// Those moves in the game's notation, separated by spaces, to replay the failure
    /// (only the last 40, after `...`, in a longer game).
    pub moves: String,
    /// The invariant that broke, with the values seen (e.g. both hashes).
    pub what: String,
}

impl fmt::Display for ConformanceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "after {} plies ({}): {}",
            self.ply, self.moves, self.what
        )
    }
}

impl std::error::Error for ConformanceError {}

/// What a batch of playouts covered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayoutStats {
    /// Games played.
    pub playouts: usize,
    /// Positions checked over all games, the start positions included.
    pub positions: usize,
    /// Games that reached a finished position: every game for the functions that play
    /// random games, which fail on a game that runs past its ply limit; 0 or 1 for
    /// [`check_playout`], whose choices may run out first.
    pub finished: usize,
    /// Moves not generated in the position they were tried in (moves legal earlier, and
    /// the sampler's) that were checked to be refused without changing the position: how
    /// much the refusal paths were exercised.
    pub illegal_probes: usize,
}

/// Moves per position that are fully checked (validate, notation round-trip); positions with
/// more moves (Connect6 pairs) are sampled.
const MOVES_CHECKED: usize = 1500;
/// Positions with at most this many moves have a bulk two-ply count
/// ([`Position::count_two_ply_sequences`]) checked by playing every move (it costs one
/// make/unmake a move).
const TWO_PLY_CHECKED: usize = 3000;
/// Earlier moves kept to probe later positions with.
const POOL: usize = 256;

/// Plays `playouts` random games from `start` (seeded, so failures reproduce) and checks
/// every invariant along the way. Each game must finish within `max_plies` plies.
pub fn check_random_playouts<P: Position>(
    start: &P,
    seed: u64,
    playouts: usize,
    max_plies: usize,
) -> Result<PlayoutStats, ConformanceError> {
    check_random_playouts_with(start, seed, playouts, max_plies, |_, _| None)
}

/// As [`check_random_playouts`], with a sampler that proposes extra (usually illegal) moves
/// to probe each position with, e.g. random squares of the board.
pub fn check_random_playouts_with<P: Position>(
    start: &P,
    seed: u64,
    playouts: usize,
    max_plies: usize,
    sampler: impl FnMut(&P, &mut ChaCha8Rng) -> Option<P::Move>,
) -> Result<PlayoutStats, ConformanceError> {
    playouts_with(
        start,
        seed,
        playouts,
        max_plies,
        sampler,
        &position_string_round_trip,
    )
}

fn playouts_with<P: Notation>(
    start: &P,
    seed: u64,
    playouts: usize,
    max_plies: usize,
    mut sampler: impl FnMut(&P, &mut ChaCha8Rng) -> Option<P::Move>,
    round_trip: &dyn Fn(&P) -> Option<String>,
) -> Result<PlayoutStats, ConformanceError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut stats = PlayoutStats::default();
    for _ in 0..playouts {
        // One choice more than the limit, so a game still running after `max_plies` plies
        // is reported rather than silently cut short.
        let choices: Vec<u32> = (0..=max_plies).map(|_| rng.random()).collect();
        let mut probe = |p: &P| sampler(p, &mut rng);
        let s = run(start, &choices, max_plies, &mut probe, round_trip)?;
        stats.playouts += 1;
        stats.positions += s.positions;
        stats.finished += s.finished;
        stats.illegal_probes += s.illegal_probes;
    }
    Ok(stats)
}

/// Plays from `start`, taking move `choices[i] % n` at ply `i`, checking every invariant,
/// until the game ends or the choices run out (this does not require the game to finish).
pub fn check_playout<P: Position>(
    start: &P,
    choices: &[u32],
) -> Result<PlayoutStats, ConformanceError> {
    run(
        start,
        choices,
        usize::MAX,
        &mut |_| None,
        &position_string_round_trip,
    )
}

/// What is wrong with `pos`'s position string round trip, if anything.
fn position_string_round_trip<P: Position>(pos: &P) -> Option<String> {
    let text = pos.to_position_string();
    match P::from_position_string(pos.config().clone(), &text) {
        Ok(back) if back == *pos && back.hash() == pos.hash() => None,
        Ok(back) => Some(format!(
            "position string '{text}' reads back as a different position ('{}')",
            back.to_position_string()
        )),
        Err(e) => Some(format!("position string '{text}' does not read back: {e}")),
    }
}

/// As [`check_random_playouts`] for a type with rules and notation only (no position
/// strings to round-trip), such as a search-side wrapper of a game.
pub fn check_rules_playouts<P: Notation>(
    start: &P,
    seed: u64,
    playouts: usize,
    max_plies: usize,
) -> Result<PlayoutStats, ConformanceError> {
    playouts_with(start, seed, playouts, max_plies, |_, _| None, &|_| None)
}

fn run<P: Notation>(
    start: &P,
    choices: &[u32],
    max_plies: usize,
    probe: &mut dyn FnMut(&P) -> Option<P::Move>,
    round_trip: &dyn Fn(&P) -> Option<String>,
) -> Result<PlayoutStats, ConformanceError> {
    let mut pos = start.clone();
    let mut history: Vec<(P::Move, P::Undo, P)> = Vec::new();
    let mut pool: Vec<P::Move> = Vec::new();
    let mut moves = Vec::new();
    let mut stats = PlayoutStats {
        playouts: 1,
        ..Default::default()
    };
    let fail = |_pos: &P, history: &[(P::Move, P::Undo, P)], what: String| {
        let mut moves: Vec<String> = history
            .iter()
            .map(|(mv, _, before)| before.format_move(*mv))
            .collect();
        if moves.len() > 40 {
            moves.drain(..moves.len() - 40);
            moves.insert(0, "...".into());
        }
        ConformanceError {
            ply: history.len(),
            moves: moves.join(" "),
            what,
        }
    };

    let mut choice = choices.iter();
    loop {
        stats.positions += 1;
        if pos.hash() != pos.compute_hash() {
            return Err(fail(
                &pos,
                &history,
                format!(
                    "incremental hash {:#x} != computed hash {:#x}",
                    pos.hash(),
                    pos.compute_hash()
                ),
            ));
        }
        pos.generate_moves(&mut moves);
        let mut sorted = moves.clone();
        sorted.sort_unstable();
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(fail(
                &pos,
                &history,
                format!("move {} generated twice", pos.format_move(w[0])),
            ));
        }
        if pos.count_moves() != moves.len() as u64 {
            return Err(fail(
                &pos,
                &history,
                format!(
                    "count_moves {} != {} generated moves",
                    pos.count_moves(),
                    moves.len()
                ),
            ));
        }
        if let Some(bulk) = pos.count_two_ply_sequences()
            && moves.len() <= TWO_PLY_CHECKED
        {
            let mut walked = 0;
            for &mv in &moves {
                let undo = pos.make_move(mv);
                walked += pos.count_moves();
                pos.unmake_move(mv, undo);
            }
            if bulk != walked {
                return Err(fail(
                    &pos,
                    &history,
                    format!(
                        "count_two_ply_sequences {bulk} != {walked} counted by playing each move"
                    ),
                ));
            }
        }
        match (pos.outcome(), moves.is_empty()) {
            (Some(o), false) => {
                return Err(fail(
                    &pos,
                    &history,
                    format!("game is over ({o}) but moves are generated"),
                ));
            }
            (None, true) => {
                return Err(fail(
                    &pos,
                    &history,
                    "no legal moves but the game is not over".into(),
                ));
            }
            _ => {}
        }
        if let Some(what) = round_trip(&pos) {
            return Err(fail(&pos, &history, what));
        }

        let step = (moves.len() / MOVES_CHECKED).max(1);
        for &mv in moves.iter().step_by(step) {
            if let Err(e) = pos.validate(&mv) {
                return Err(fail(
                    &pos,
                    &history,
                    format!(
                        "generated move {} fails validation: {e}",
                        pos.format_move(mv)
                    ),
                ));
            }
            let printed = pos.format_move(mv);
            match pos.parse_move(&printed) {
                Ok(back) if back == mv => {}
                other => {
                    return Err(fail(
                        &pos,
                        &history,
                        format!("move {printed} reads back as {other:?}, not {mv:?}"),
                    ));
                }
            }
        }

        let probes: Vec<P::Move> = pool.iter().copied().chain(probe(&pos)).collect();
        for mv in probes {
            let generated = sorted.binary_search(&mv).is_ok();
            let verdict = pos.validate(&mv);
            if verdict.is_ok() != generated {
                return Err(fail(
                    &pos,
                    &history,
                    format!(
                        "move {} is {} but validate says {:?}",
                        pos.format_move(mv),
                        if generated {
                            "generated"
                        } else {
                            "not generated"
                        },
                        verdict
                    ),
                ));
            }
            if !generated {
                stats.illegal_probes += 1;
                let before = pos.clone();
                if pos.play(mv).is_ok() || pos != before || pos.hash() != before.hash() {
                    return Err(fail(
                        &before,
                        &history,
                        format!(
                            "refused move {} changed the position",
                            before.format_move(mv)
                        ),
                    ));
                }
            }
        }

        if moves.is_empty() {
            stats.finished += 1;
            break;
        }
        let Some(&c) = choice.next() else { break };
        if history.len() >= max_plies {
            return Err(fail(
                &pos,
                &history,
                format!("game not over after {max_plies} plies"),
            ));
        }
        let mv = moves[c as usize % moves.len()];
        let before = pos.clone();
        let undo = pos.make_move(mv);
        pos.unmake_move(mv, undo);
        if pos != before || pos.hash() != before.hash() {
            return Err(fail(
                &before,
                &history,
                format!(
                    "make/unmake of {} does not restore the position",
                    before.format_move(mv)
                ),
            ));
        }
        let undo = match pos.play(mv) {
            Ok(undo) => undo,
            Err(e) => {
                return Err(fail(
                    &pos,
                    &history,
                    format!("play refused generated move: {e}"),
                ));
            }
        };
        if pos.ply() != before.ply() + 1 {
            return Err(fail(&pos, &history, "ply did not advance by one".into()));
        }
        if pool.len() < POOL {
            pool.push(mv);
        } else {
            let slot = c as usize % POOL;
            pool[slot] = mv;
        }
        // A handful of the moves legal here, to probe later positions with.
        for &m in moves.iter().step_by((moves.len() / 4).max(1)).take(4) {
            if pool.len() < POOL {
                pool.push(m);
            }
        }
        history.push((mv, undo, before));
    }

    while let Some((mv, undo, before)) = history.pop() {
        pos.unmake_move(mv, undo);
        if pos != before || pos.hash() != before.hash() {
            return Err(fail(
                &pos,
                &history,
                format!(
                    "unmaking {} while unwinding does not restore the position",
                    before.format_move(mv)
                ),
            ));
        }
    }
    Ok(stats)
}
