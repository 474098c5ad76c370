//! One game between two agents.

use std::time::{Duration, Instant};

use board_core::{Outcome, Player, Position};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use search::{Agent, Limits};

use crate::player::{AgentPlayer, Contestant, Fault};

/// Thinking time of one player over a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveTiming {
    /// How many times the player was asked for a move (a faulty answer included).
    pub moves: u32,
    /// Wall time of all those answers together.
    pub total: Duration,
    /// Wall time of the slowest single answer.
    pub max: Duration,
}

impl MoveTiming {
    fn add(&mut self, t: Duration) {
        self.moves += 1;
        self.total += t;
        self.max = self.max.max(t);
    }

    /// Adds another game's (or shard's) timing of the same player.
    pub fn merge(&mut self, other: &MoveTiming) {
        self.moves += other.moves;
        self.total += other.total;
        self.max = self.max.max(other.max);
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord<P: Position> {
    /// The rules it was played under.
    pub config: P::Config,
    /// Every move from the start position, the opening included.
    pub moves: Vec<P::Move>,
    /// How many of `moves` were the opening (random plies or a book line).
    pub opening_plies: usize,
    /// The result; a game cut off at the ply guard is a draw.
    pub outcome: Outcome,
    /// Why it ended, for people.
    pub reason: String,
    /// The final position.
    pub last: P,
    /// Names of the agents that played First and Second.
    pub players: [String; 2],
    /// Thinking time per player (First, Second).
    pub timing: [MoveTiming; 2],
}

impl<P: Position> GameRecord<P> {
    /// Plies played by the agents (the opening excluded).
    pub fn agent_plies(&self) -> usize {
        self.moves.len() - self.opening_plies
    }
}

/// `plies` random legal moves from `start` that do not end the game, drawn from `seed`
/// (fewer if the game leaves no such choice).
pub fn random_opening<P: Position>(start: &P, plies: u32, seed: u64) -> Vec<P::Move> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = start.clone();
    let mut opening = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..plies {
        pos.generate_moves(&mut moves);
        // Prefer a move after which the game goes on; try a few, then give up.
        let mut chosen = None;
        for _ in 0..32 {
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            let undo = pos.make_move(mv);
            let goes_on = pos.outcome().is_none();
            pos.unmake_move(mv, undo);
            if goes_on {
                chosen = Some(mv);
                break;
            }
        }
        let Some(mv) = chosen else { break };
        pos.make_move(mv);
        opening.push(mv);
    }
    opening
}

/// Plays `opening`, then lets `agents[0]` (First) and `agents[1]` (Second) move in turn —
/// whoever `side_to_move` names — until the game ends or `max_plies` is reached (a draw).
/// An agent that returns no move or an illegal move loses.
pub fn play_game<P: Position>(
    start: P,
    opening: &[P::Move],
    agents: [&mut dyn Agent<P>; 2],
    limits: &Limits,
    max_plies: u32,
) -> GameRecord<P> {
    let [first, second] = agents;
    let (mut first, mut second) = (AgentPlayer(first), AgentPlayer(second));
    play_players(start, opening, [&mut first, &mut second], limits, max_plies)
}

/// [`play_game`] for any [`Contestant`]s: a player's [`Fault`] (a timeout, a crash, an illegal
/// move, no move) loses the game, and the reason names the side and the fault.
pub fn play_players<P: Position>(
    start: P,
    opening: &[P::Move],
    players: [&mut dyn Contestant<P>; 2],
    limits: &Limits,
    max_plies: u32,
) -> GameRecord<P> {
    let config = start.config().clone();
    let mut pos = start;
    let mut moves = Vec::new();
    let mut hashes = vec![pos.hash()];
    for &mv in opening {
        if pos.play(mv).is_err() {
            break;
        }
        moves.push(mv);
        hashes.push(pos.hash());
    }
    let opening_plies = moves.len();
    let names = [players[0].name().to_string(), players[1].name().to_string()];
    let mut players = players;
    let mut timing = [MoveTiming::default(); 2];
    let mut started_ok = Ok(());
    for (index, player) in players.iter_mut().enumerate() {
        if let Err(fault) = player.new_game(&config) {
            started_ok = Err((player_of(index), fault));
            break;
        }
    }
    let (outcome, reason) = match started_ok {
        Err((side, fault)) => (
            Outcome::Win(side.other()),
            format!("{} {fault} at the start", pos.player_name(side)),
        ),
        Ok(()) => loop {
            if let Some(outcome) = pos.outcome() {
                let reason = pos.outcome_reason().unwrap_or_else(|| outcome.to_string());
                break (outcome, reason);
            }
            if pos.ply() >= max_plies {
                break (Outcome::Draw, format!("stopped after {max_plies} plies"));
            }
            let side = pos.side_to_move();
            let player = &mut players[side.index()];
            let started = Instant::now();
            let result = player.choose(&pos, &moves, &hashes, limits);
            timing[side.index()].add(started.elapsed());
            let name = pos.player_name(side);
            let mv = match result {
                Ok(mv) => mv,
                Err(fault) => break (Outcome::Win(side.other()), format!("{name} {fault}")),
            };
            if let Err(e) = pos.play(mv) {
                break (
                    Outcome::Win(side.other()),
                    format!(
                        "{name} {}",
                        Fault::Illegal(format!("{} ({e})", pos.format_move(mv)))
                    ),
                );
            }
            moves.push(mv);
            hashes.push(pos.hash());
        },
    };
    for player in players.iter_mut() {
        player.end_game();
    }
    GameRecord {
        config,
        moves,
        opening_plies,
        outcome,
        reason,
        last: pos,
        players: names,
        timing,
    }
}

/// The player an index of `GameRecord::players`/`timing` stands for.
pub(crate) fn player_of(index: usize) -> Player {
    if index == 0 {
        Player::First
    } else {
        Player::Second
    }
}
