//! One game behind a trait object ([`WebGame`]), whatever the rules, the way the game
//! server erases its positions: created from a spec or a save file, played from move text,
//! cut back for undo, drawn as a [`BoardView`] at any ply, and snapshotted into engine
//! jobs ([`Think`]) that run on the engine pool without any lock.

use std::time::Duration;

use board_core::{GameConfig, Player, savefile};
use boardlab_games::{Game, GameId, MoveInfo, with_game};
use search::{AgentKind, IterationReport, Limits, Score, ScoreKind, SearchOptions, format_pv};
use serde::Serialize;

use crate::view::{BoardView, ViewOf};

/// Who plays a seat for the server: the engine at some strength (the host's levels).
pub use boardlab_host::Level;
/// Hash table of each engine (MB), as the game server's engine seats.
pub use boardlab_host::limits::ENGINE_HASH_MB;

/// An engine score for people and for the evaluation graph.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoreView {
    /// The protocol's form from the mover's side: `cp 35`, `win 7`, `loss 4`.
    pub text: String,
    /// From the first player's side, forced results at ±10000, values clamped to ±9000.
    pub first: i32,
}

impl ScoreView {
    fn new(score: Score, mover: Player) -> ScoreView {
        let mover_view = match score.kind() {
            ScoreKind::Value(v) => v.clamp(-9000, 9000),
            ScoreKind::Win(_) => 10_000,
            ScoreKind::Loss(_) => -10_000,
        };
        ScoreView {
            text: score.to_string(),
            first: if mover == Player::First {
                mover_view
            } else {
                -mover_view
            },
        }
    }
}

/// One completed iteration while the engine thinks.
#[derive(Clone, Debug, Serialize)]
pub struct Progress {
    /// Nominal depth of the iteration just completed.
    pub depth: u32,
    /// The root's score after it.
    pub score: ScoreView,
    /// Nodes searched so far in this move's search.
    pub nodes: u64,
    /// The principal variation in canonical notation, space-separated.
    pub pv: String,
}

/// The engine's answer.
#[derive(Clone, Debug, Serialize)]
pub struct Answer {
    /// The move in canonical notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// `None` for the random player.
    pub score: Option<ScoreView>,
    /// The principal variation in canonical notation, space-separated (may be empty).
    pub pv: String,
    /// The squares of the move (drawn for a hint).
    pub squares: Vec<u16>,
}

/// The engine's work for one move, on a snapshot of the position.
pub trait Think: Send {
    /// The answer, or why there is none (the game is over, or the engine failed: no other
    /// move stands in). `progress` is called after each completed iteration.
    fn think(self: Box<Self>, progress: &mut dyn FnMut(Progress)) -> Result<Answer, String>;
}

/// The engine jobs of an analysis: each position's ply and its job.
pub type AnalysisJobs = Vec<(usize, Box<dyn Think>)>;

/// One game, whatever the rules.
pub trait WebGame: Send {
    /// The canonical spec string.
    fn spec(&self) -> String;
    /// The players' display names (first, second) under this game's rules.
    fn player_names(&self) -> [&'static str; 2];
    /// Moves played.
    fn ply(&self) -> usize;
    /// The player to move now (in a finished game, who would move next).
    fn to_move(&self) -> Player;
    /// The player to move after the first `ply` moves.
    fn to_move_at(&self, ply: usize) -> Player;
    /// The rules' result: winner (`None` a draw) and reason.
    fn outcome(&self) -> Option<(Option<Player>, String)>;
    /// The moves in canonical notation.
    fn moves(&self) -> Vec<String>;
    /// Validates `text`; when legal calls `commit` with its canonical notation and plays it
    /// only if `commit` succeeds. A refused move changes nothing; the error is the rules'
    /// reason.
    fn play(
        &mut self,
        text: &str,
        commit: &mut dyn FnMut(&str) -> Result<(), String>,
    ) -> Result<String, String>;
    /// Takes back every move after the first `ply`.
    fn truncate(&mut self, ply: usize);
    /// The board after the first `ply` moves (`None`: now).
    fn view(&self, ply: Option<usize>) -> BoardView;
    /// Every legal move with its squares, for games that list them
    /// ([`ViewOf::lists_moves`]); `None` for placement games.
    fn legal(&self) -> Option<Vec<MoveInfo>>;
    /// The save file (header, spec, one move a line).
    fn save_text(&self) -> String;
    /// A snapshot of the position for `level` to think on.
    fn think_job(&self, level: Level, seed: u64) -> Box<dyn Think>;
    /// Snapshots of the positions after each of the first `plies` moves (0 the start),
    /// each an engine job of `ms` for the evaluation graph; finished positions skipped.
    fn analysis_jobs(&self, ms: u64) -> AnalysisJobs;
}

struct Typed<P: ViewOf> {
    start: P,
    pos: P,
    moves: Vec<P::Move>,
    /// Hashes of every position from the start (repetition rules).
    hashes: Vec<u64>,
}

impl<P: ViewOf> Typed<P> {
    fn new(start: P) -> Typed<P> {
        Typed {
            hashes: vec![start.hash()],
            pos: start.clone(),
            start,
            moves: Vec::new(),
        }
    }

    /// The position after the first `ply` moves and the move that led to it.
    fn at(&self, ply: usize) -> (P, Option<(P, P::Move)>) {
        let mut pos = self.start.clone();
        let mut last = None;
        for &mv in &self.moves[..ply.min(self.moves.len())] {
            let before = pos.clone();
            pos.make_move(mv);
            last = Some((before, mv));
        }
        (pos, last)
    }
}

impl<P: ViewOf> WebGame for Typed<P> {
    fn spec(&self) -> String {
        self.pos.config().to_string()
    }
    fn player_names(&self) -> [&'static str; 2] {
        [
            self.pos.player_name(Player::First),
            self.pos.player_name(Player::Second),
        ]
    }
    fn ply(&self) -> usize {
        self.moves.len()
    }
    fn to_move(&self) -> Player {
        self.pos.side_to_move()
    }
    fn to_move_at(&self, ply: usize) -> Player {
        self.at(ply).0.side_to_move()
    }
    fn outcome(&self) -> Option<(Option<Player>, String)> {
        let o = self.pos.outcome()?;
        Some((
            o.winner(),
            self.pos.outcome_reason().unwrap_or_else(|| o.to_string()),
        ))
    }
    fn moves(&self) -> Vec<String> {
        let mut pos = self.start.clone();
        self.moves
            .iter()
            .map(|&mv| {
                let t = pos.format_move(mv);
                pos.make_move(mv);
                t
            })
            .collect()
    }
    fn play(
        &mut self,
        text: &str,
        commit: &mut dyn FnMut(&str) -> Result<(), String>,
    ) -> Result<String, String> {
        let mv = self.pos.parse_legal_move(text).map_err(|e| e.to_string())?;
        let canon = self.pos.format_move(mv);
        commit(&canon)?;
        self.pos.play(mv).map_err(|e| e.to_string())?;
        self.moves.push(mv);
        self.hashes.push(self.pos.hash());
        Ok(canon)
    }
    fn truncate(&mut self, ply: usize) {
        if ply >= self.moves.len() {
            return;
        }
        self.moves.truncate(ply);
        self.hashes.truncate(ply + 1);
        self.pos = self.at(ply).0;
    }
    fn view(&self, ply: Option<usize>) -> BoardView {
        let (pos, last) = self.at(ply.unwrap_or(self.moves.len()));
        pos.view(last)
    }
    fn legal(&self) -> Option<Vec<MoveInfo>> {
        if !P::lists_moves() {
            return None;
        }
        let mut moves = Vec::new();
        self.pos.generate_moves(&mut moves);
        Some(
            moves
                .into_iter()
                .map(|m| MoveInfo::of(&self.pos, m))
                .collect(),
        )
    }
    fn save_text(&self) -> String {
        savefile::save::<P>(self.start.config(), &self.moves)
    }
    fn think_job(&self, level: Level, seed: u64) -> Box<dyn Think> {
        Box::new(EngineJob {
            pos: self.pos.clone(),
            hashes: self.hashes.clone(),
            level,
            seed,
        })
    }
    fn analysis_jobs(&self, ms: u64) -> AnalysisJobs {
        let mut pos = self.start.clone();
        let mut jobs: AnalysisJobs = Vec::new();
        for ply in 0..=self.moves.len() {
            if pos.outcome().is_none() {
                jobs.push((
                    ply,
                    Box::new(EngineJob {
                        pos: pos.clone(),
                        hashes: self.hashes[..=ply].to_vec(),
                        level: Level::Engine(ms),
                        seed: 0,
                    }),
                ));
            }
            if let Some(&mv) = self.moves.get(ply) {
                pos.make_move(mv);
            }
        }
        jobs
    }
}

/// An engine move to think: the position and its history, copied out of the game.
struct EngineJob<P: Game> {
    pos: P,
    hashes: Vec<u64>,
    level: Level,
    seed: u64,
}

impl<P: ViewOf> Think for EngineJob<P> {
    fn think(self: Box<Self>, progress: &mut dyn FnMut(Progress)) -> Result<Answer, String> {
        let pos = &self.pos;
        let mover = pos.side_to_move();
        let (kind, limits) = match self.level {
            Level::Random => (AgentKind::Random, Limits::new()),
            Level::Baseline => (AgentKind::Baseline, Limits::new()),
            Level::Engine(ms) => (
                AgentKind::Engine,
                Limits::new().with_move_time(Duration::from_millis(ms)),
            ),
        };
        // A panicking engine must not take the server down; like any engine failure it
        // gives no answer (the page is told why), and no other move is played in its place.
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let options = SearchOptions::default()
                .with_hash_mb(ENGINE_HASH_MB)
                .and_then(|o| o.with_threads(1))
                .map_err(|e| e.to_string())?
                .with_seed(self.seed);
            let mut agent = P::player(kind, options).map_err(|e| e.to_string())?;
            agent.set_game_history(&self.hashes);
            let mut report = |r: &IterationReport<P::Move>| {
                progress(Progress {
                    depth: r.depth,
                    score: ScoreView::new(r.score, mover),
                    nodes: r.nodes,
                    pv: format_pv(pos, &r.pv),
                });
            };
            search::think_checked(agent.as_mut(), pos, &limits, &mut report)
                .map_err(|e| e.to_string())
        }))
        .unwrap_or_else(|_| Err("the engine panicked".to_string()));
        let (mv, r) = answer.map_err(|e| format!("the {kind} gave no move: {e}"))?;
        let (mv, depth, score, pv) = (
            mv,
            r.depth,
            (kind != AgentKind::Random).then(|| ScoreView::new(r.score, mover)),
            r.pv_string(pos),
        );
        let after = {
            let mut p = pos.clone();
            p.make_move(mv);
            p
        };
        let squares = after.view(Some((pos.clone(), mv))).last;
        Ok(Answer {
            mv: pos.format_move(mv),
            depth,
            score,
            pv,
            squares,
        })
    }
}

fn new_game<P: ViewOf>(spec: &board_core::GameSpec) -> Result<Box<dyn WebGame>, String> {
    let config = P::Config::from_spec(spec).map_err(|e| format!("bad game spec: {e}"))?;
    Ok(Box::new(Typed::new(P::new(config))))
}

fn load_game<P: ViewOf>(text: &str) -> Result<Box<dyn WebGame>, String> {
    let loaded = savefile::load::<P>(text).map_err(|e| e.to_string())?;
    let mut game = Typed::new(P::new(loaded.position.config().clone()));
    for mv in loaded.moves {
        game.pos.make_move(mv);
        game.moves.push(mv);
        game.hashes.push(game.pos.hash());
    }
    Ok(Box::new(game))
}

/// A new game from a game spec (`gomoku:size=15`); the error is the spec parser's.
pub fn create_game(spec: &str) -> Result<Box<dyn WebGame>, String> {
    let spec = board_core::GameSpec::parse(spec).map_err(|e| format!("bad game spec: {e}"))?;
    let id = GameId::of_spec(&spec).map_err(|e| format!("bad game spec: {e}"))?;
    with_game!(id, new_game(&spec))
}

/// A game replayed from the text of a save file; the error names the first bad line and
/// its reason, as `play --load` does.
pub fn load_game_text(text: &str) -> Result<Box<dyn WebGame>, String> {
    let file = savefile::SaveFile::parse::<std::fmt::Error>(text).map_err(|e| e.to_string())?;
    let id = GameId::of_spec(&file.spec).map_err(|e| format!("line 2: {e}"))?;
    with_game!(id, load_game(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn illegal_moves_give_the_rules_reason_and_change_nothing() {
        let mut g = create_game("gomoku").expect("game");
        g.play("h8", &mut |_| Ok(())).expect("legal");
        let before = g.save_text();
        let err = g.play("h8", &mut |_| Ok(())).expect_err("occupied");
        assert!(err.contains("h8 is occupied"), "{err}");
        let err = g.play("zz", &mut |_| Ok(())).expect_err("syntax");
        assert!(err.contains("zz"), "{err}");
        assert_eq!(g.save_text(), before);
    }

    #[test]
    fn a_failed_commit_leaves_the_game_as_it_was() {
        let mut g = create_game("fourshift").expect("game");
        let err = g
            .play("c3", &mut |_| Err("cannot save: disk full".into()))
            .expect_err("commit fails");
        assert_eq!(err, "cannot save: disk full");
        assert_eq!(g.ply(), 0);
    }

    #[test]
    fn truncate_takes_moves_back_and_save_round_trips() {
        let mut g = create_game("amazons:size=8").expect("game");
        let legal = g.legal().expect("amazons lists moves");
        assert_eq!(legal[0].squares.len(), 3, "from, to, arrow");
        g.play(&legal[0].text, &mut |_| Ok(())).expect("legal");
        let one = g.save_text();
        let legal = g.legal().expect("listed");
        g.play(&legal[0].text, &mut |_| Ok(())).expect("legal");
        g.truncate(1);
        assert_eq!(g.save_text(), one);
        let loaded = load_game_text(&one).expect("loads");
        assert_eq!(loaded.moves(), g.moves());
    }

    #[test]
    fn a_bad_save_file_names_its_line() {
        let text = "boardlab-save 1\ngame gomoku\nh8\nh8\n";
        let err = load_game_text(text).err().expect("refused");
        assert_eq!(err, "line 4: move 2 'h8': h8 is occupied");
        let err = load_game_text("boardlab-save 1\ngame chess\n")
            .err()
            .expect("refused");
        assert!(err.starts_with("line 2:") && err.contains("chess"), "{err}");
    }

    #[test]
    fn engine_levels_answer_with_a_legal_move_and_report_progress() {
        for level in [Level::Random, Level::Baseline, Level::Engine(30)] {
            let g = create_game("fourshift").expect("game");
            let mut reports = 0;
            let a = g
                .think_job(level, 1)
                .think(&mut |_| reports += 1)
                .expect("a move");
            let mut g2 = create_game("fourshift").expect("game");
            g2.play(&a.mv, &mut |_| Ok(()))
                .expect("engine move is legal");
            assert_eq!(a.squares.len(), 1);
            if level == Level::Engine(30) {
                assert!(reports > 0 && a.score.is_some() && a.depth > 0);
            }
        }
    }
}
