//! The threat-solver suite (`crates/engines/data/gomoku-threats.txt`): positions from
//! engine games where the side to move wins by threats (and not by fours), or must defend
//! against the opponent's threats, each with its answers as proved by the solver at a
//! generous budget. `generate_threat_suite` makes the file; `threat_suite_solve_rate`
//! prints how often and how fast the solvers and the engine find an answer.

use std::{path::PathBuf, time::Instant};

use board_core::{Notation as _, Position as _, Rules as _, Square};
use rules_gomoku::{GomokuConfig, GomokuPosition, Move};
use search::{EvalState as _, Limits, SearchOptions};

use super::{
    threats::{vcf, vct, vct_after},
    *,
};
use crate::EngineGame as _;

/// The budget that proves the answers: nodes and threes in a line.
const PROOF_NODES: u32 = 200_000;
const PROOF_THREES: u32 = 4;
/// The solvers' budgets in the solve-rate run: the VCF's at the root of the engine, and the
/// same node budget for the VCT (with 3 threes a line).
const SOLVER_NODES: u32 = ROOT_VCF_NODES;
const SOLVER_THREES: u32 = 3;
/// The defence's budgets in the solve-rate run (VCF, VCT nodes).
const DEFENCE_BUDGETS: (u32, u32) = (200, 2_000);
/// The budget that picks the positions (the answers are then proved at [`PROOF_NODES`]).
const SCREEN_NODES: u32 = 20_000;

fn suite_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/gomoku-threats.txt")
}

#[derive(Debug, PartialEq, Eq, Clone, Copy)]
enum Task {
    Win,
    Defend,
}

struct Entry {
    task: Task,
    moves: String,
    answers: Vec<String>,
}

fn parse_suite() -> Vec<Entry> {
    let text = std::fs::read_to_string(suite_path()).expect("the suite file");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (head, answers) = l.split_once('|').expect("`task moves | answers`");
            let (task, moves) = head.trim().split_once(' ').expect("a task and moves");
            let task = match task {
                "win" => Task::Win,
                "defend" => Task::Defend,
                other => panic!("unknown task {other}"),
            };
            Entry {
                task,
                moves: moves.trim().to_string(),
                answers: answers.split_whitespace().map(str::to_string).collect(),
            }
        })
        .collect()
}

fn position(moves: &str) -> GomokuPosition {
    let mut pos = GomokuPosition::new(GomokuConfig::default());
    for m in moves.split_whitespace() {
        let mv = pos.parse_legal_move(m).expect("a legal suite move");
        pos.make_move(mv);
    }
    pos
}

fn name(pos: &GomokuPosition, sq: Square) -> String {
    pos.format_move(Move::new(sq))
}

/// The side to move's winning first moves (proved at the generous budget).
fn winning_moves(pos: &GomokuPosition) -> Vec<Square> {
    let me = pos.side_to_move();
    let mut st = GomokuState::from_position(pos);
    let tries: Vec<Square> = st.fours(me).iter().chain(st.threes(me).iter()).collect();
    tries
        .into_iter()
        .filter(|&m| vct_after(&mut st, me, m, PROOF_NODES, PROOF_THREES).is_some())
        .collect()
}

/// The side to move's moves near the stones after which the opponent has no win by
/// threats (at the generous budget).
fn defending_moves(pos: &GomokuPosition) -> Vec<Square> {
    let me = pos.side_to_move();
    let mut st = GomokuState::from_position(pos);
    let mut out = Vec::new();
    for i in 0..pos.size() * pos.size() {
        let sq = Square::new(i as u16);
        if !pos.is_empty_square(sq) || !st.is_near(sq) {
            continue;
        }
        st.put(sq, me);
        if vct(&mut st, me.other(), PROOF_NODES, PROOF_THREES, None).is_none() {
            out.push(sq);
        }
        st.take(sq, me);
    }
    out
}

/// Writes the suite: engine self-play (depth 6) from the first `GAMES` book openings; in
/// each game the first position won by threats but not by fours, and the first where the
/// side to move has no such win, the opponent would have one, and some but not every move
/// near the stones refutes it (an open three or a four to answer is left out: the engine's
/// candidates already answer those).
#[test]
#[ignore = "writes the suite file (minutes)"]
fn generate_threat_suite() {
    let games: usize = std::env::var("GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    let book = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/openings/gomoku15.txt"),
    )
    .expect("the book");
    let openings: Vec<&str> = crate::test_support::book_lines(&book).collect();
    let mut out = String::from(
        "# The gomoku threat-solver suite (15x15 freestyle): `win|defend <moves> | <answers>`.\n\
         # win: the side to move wins by threats (fours and open threes) and not by fours alone;\n\
         #   answers: every first move of such a win.\n\
         # defend: the opponent would win by threats if it were its turn; answers: the moves\n\
         #   near the stones after which it no longer does.\n\
         # Positions from engine self-play (depth 6) from data/openings/gomoku15.txt; answers\n\
         # proved by the VCT solver at 200,000 nodes and 4 threes a line (positions picked at 20,000).\n\
         # Made by: cargo test --release -p boardlab-engines generate_threat_suite -- --ignored --nocapture\n",
    );
    let mut engine = Position::engine(SearchOptions::default()).expect("engine");
    for (game, opening) in openings.iter().take(games).enumerate() {
        eprintln!("game {game}: {opening}");
        let mut pos = position(opening);
        let mut record: Vec<String> = opening.split_whitespace().map(str::to_string).collect();
        let (mut won, mut defended) = (false, false);
        engine.new_game();
        while pos.outcome().is_none() && pos.ply() < 70 && !(won && defended) {
            let me = pos.side_to_move();
            let op = me.other();
            let mut st = GomokuState::from_position(&pos);
            let forced = st.five_point(me).is_some() || st.five_point(op).is_some();
            if !forced {
                let own_vcf = vcf(&mut st, me, PROOF_NODES, true, None).is_some();
                let own_vct =
                    own_vcf || vct(&mut st, me, PROOF_NODES, PROOF_THREES, None).is_some();
                if !won && own_vct && !own_vcf {
                    let answers = winning_moves(&pos);
                    if !answers.is_empty() {
                        won = true;
                        let a: Vec<String> = answers.iter().map(|&s| name(&pos, s)).collect();
                        out += &format!("win {} | {}\n", record.join(" "), a.join(" "));
                    }
                }
                if !defended
                    && !own_vct
                    && st.kind_count(op, super::board::K_FLEX4) == 0
                    && vct(&mut st, op, SCREEN_NODES, PROOF_THREES, None).is_some()
                {
                    let answers = defending_moves(&pos);
                    let near = (0..pos.size() * pos.size())
                        .map(|i| Square::new(i as u16))
                        .filter(|&s| pos.is_empty_square(s) && st.is_near(s))
                        .count();
                    if !answers.is_empty() && answers.len() < near {
                        defended = true;
                        let a: Vec<String> = answers.iter().map(|&s| name(&pos, s)).collect();
                        out += &format!("defend {} | {}\n", record.join(" "), a.join(" "));
                    }
                }
            }
            let r = engine.think(&pos, &Limits::new().with_depth(6), &mut |_| {});
            let mv = r.best_move.expect("a move");
            record.push(pos.format_move(mv));
            pos.make_move(mv);
        }
    }
    std::fs::write(suite_path(), out).expect("write the suite");
}

/// Every win in the suite is found by the VCT solver at the root's budget with a move
/// among its answers, and every answer to a defence leaves the opponent without a VCT at
/// the search's interior budget.
#[test]
fn threat_suite_answers_hold() {
    let suite = parse_suite();
    assert!(suite.iter().any(|e| e.task == Task::Win));
    assert!(suite.iter().any(|e| e.task == Task::Defend));
    for e in &suite {
        let pos = position(&e.moves);
        assert!(pos.outcome().is_none(), "{}", e.moves);
        for a in &e.answers {
            pos.parse_legal_move(a).expect("a legal answer");
        }
        if e.task == Task::Win {
            let fw = find_vct(&mut wrap(&pos), PROOF_NODES, PROOF_THREES, None)
                .unwrap_or_else(|| panic!("no VCT in {}", e.moves));
            assert!(
                e.answers.contains(&pos.format_move(fw.mv)),
                "{}: {} is not an answer",
                e.moves,
                pos.format_move(fw.mv)
            );
        }
    }
}

/// Solve rate and time over the suite: for the wins the VCF solver (all the engine had
/// before this work) and the VCT solver; for the defences the engine's candidates and
/// [`threat_defence`] on them; and the engine at `MS` ms a move (200 by default).
#[test]
#[ignore = "prints the suite's solve rate and time"]
fn threat_suite_solve_rate() {
    use search::Evaluator as _;
    let ms: u64 = std::env::var("MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let suite = parse_suite();
    let eval = GomokuEval::new();
    let mut engine = Position::engine(SearchOptions::default()).expect("engine");
    for task in [Task::Win, Task::Defend] {
        let entries: Vec<&Entry> = suite.iter().filter(|e| e.task == task).collect();
        let (mut vcf_ok, mut vct_ok, mut filter_ok, mut engine_ok) = (0, 0, 0, 0);
        let (mut proof_ok, mut proof_time) = (0, 0.0);
        let (mut vcf_time, mut vct_time, mut engine_time) = (0.0, 0.0, 0.0);
        for e in &entries {
            let pos = position(&e.moves);
            let is_answer = |m: Move| e.answers.contains(&pos.format_move(m));
            if task == Task::Win {
                let t = Instant::now();
                let f = find_vcf(&mut wrap(&pos), SOLVER_NODES, true, None);
                vcf_time += t.elapsed().as_secs_f64();
                vcf_ok += usize::from(f.is_some_and(|f| is_answer(f.mv)));
                let t = Instant::now();
                let f = find_vct(&mut wrap(&pos), SOLVER_NODES, SOLVER_THREES, None);
                vct_time += t.elapsed().as_secs_f64();
                vct_ok += usize::from(f.is_some_and(|f| is_answer(f.mv)));
                let t = Instant::now();
                let f = find_vct(&mut wrap(&pos), PROOF_NODES, PROOF_THREES, None);
                proof_time += t.elapsed().as_secs_f64();
                proof_ok += usize::from(f.is_some_and(|f| is_answer(f.mv)));
            } else {
                // The defence narrows the candidates: solved if every kept move is an answer
                // (before it, the candidates alone: solved if all are answers).
                let mut ep = wrap(&pos);
                eval.set_root_ply(pos.ply());
                let mut moves = Vec::new();
                eval.candidates(&ep, &mut moves);
                let t = Instant::now();
                vcf_ok += usize::from(moves.iter().all(|&m| is_answer(m)));
                vcf_time += t.elapsed().as_secs_f64();
                let t = Instant::now();
                let (vcf_budget, vct_budget) = DEFENCE_BUDGETS;
                threat_defence(&mut ep, vcf_budget, vct_budget, &mut moves);
                vct_time += t.elapsed().as_secs_f64();
                filter_ok += usize::from(moves.iter().all(|&m| is_answer(m)));
                vct_ok += moves.len();
            }
            engine.new_game();
            let t = Instant::now();
            let r = engine.think(
                &pos,
                &Limits::new().with_move_time(std::time::Duration::from_millis(ms)),
                &mut |_| {},
            );
            engine_time += t.elapsed().as_secs_f64();
            engine_ok += usize::from(r.best_move.is_some_and(is_answer));
        }
        let n = entries.len().max(1) as f64;
        let ms_each = |s: f64| s * 1000.0 / n;
        println!("{task:?}: {} positions", entries.len());
        if task == Task::Win {
            println!(
                "  VCF solver ({SOLVER_NODES} nodes): {vcf_ok} solved, {:.2} ms each",
                ms_each(vcf_time)
            );
            println!(
                "  VCT solver ({SOLVER_NODES} nodes, {SOLVER_THREES} threes): {vct_ok} solved, {:.2} ms each",
                ms_each(vct_time)
            );
            println!(
                "  VCT solver ({PROOF_NODES} nodes, {PROOF_THREES} threes): {proof_ok} solved, {:.2} ms each",
                ms_each(proof_time)
            );
        } else {
            println!("  the engine's candidates are all answers in {vcf_ok}");
            println!(
                "  threat_defence {DEFENCE_BUDGETS:?}: only answers kept in {filter_ok} ({vct_ok} moves kept in all), {:.2} ms each",
                ms_each(vct_time)
            );
        }
        println!(
            "  engine at {ms} ms: {engine_ok} solved, {:.1} ms each",
            ms_each(engine_time)
        );
    }
}

/// Why one side lost recorded games: `RECORDS=a.txt,b.txt OURS=<part of its player name>
/// [SKIP=5] [NODES=50000] cargo test --release -p boardlab-engines diagnose_lost_games --
/// --ignored --nocapture`. In each game that side lost (after the first `SKIP` plies, the
/// opening), it finds the first of its moves after which the opponent wins by threats (a
/// VCT found at `NODES` nodes and 4 threes a line is a proof) and whether some move near the
/// stones would have refuted that threat there (a missed defence) or none did at that budget
/// (the threat came too late to answer: an earlier move lost); and the first of its moves
/// where it had a win by threats of its own and played another move (a missed win).
#[test]
#[ignore = "a diagnosis of records files (minutes)"]
fn diagnose_lost_games() {
    use board_core::{Outcome, Player, savefile};
    let env = |k: &str| std::env::var(k).ok();
    let files = env("RECORDS").expect("RECORDS=file,file,...");
    let ours = env("OURS").expect("OURS=<part of our player's name>");
    let skip: usize = env("SKIP").map_or(5, |s| s.parse().expect("SKIP is a number"));
    let nodes: u32 = env("NODES").map_or(50_000, |s| s.parse().expect("NODES is a number"));
    let (mut lost, mut missed_defence, mut too_late, mut unexplained, mut missed_win) =
        (0, 0, 0, 0, 0);
    for file in files.split(',') {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        for game in savefile::split_records(&text) {
            // The match's own line for the game (a file may start with comments of its own).
            let header = game
                .lines()
                .find(|l| l.contains(" (first) vs "))
                .unwrap_or("");
            let Some((first, rest)) = header.split_once(" (first) vs ") else {
                continue;
            };
            let Some(second) = rest.split(" (second)").next() else {
                continue;
            };
            let us = if first.contains(&ours) {
                Player::First
            } else if second.contains(&ours) {
                Player::Second
            } else {
                continue;
            };
            let loaded = savefile::load::<GomokuPosition>(&game).expect("a records game");
            if loaded.position.outcome() != Some(Outcome::Win(us.other())) {
                continue;
            }
            lost += 1;
            let mut pos = GomokuPosition::new(*loaded.position.config());
            let (mut loss, mut win) = (None, None);
            for (ply, &mv) in loaded.moves.iter().enumerate() {
                if pos.side_to_move() == us && ply >= skip {
                    let mut st = GomokuState::from_position(&pos);
                    if win.is_none()
                        && vct(&mut st, us, nodes, PROOF_THREES, None).is_some()
                        && vct_after(&mut st, us, mv.square(), nodes, PROOF_THREES).is_none()
                    {
                        win = Some(ply);
                    }
                    if loss.is_none() {
                        let mut after = pos.clone();
                        after.make_move(mv);
                        let mut st = GomokuState::from_position(&after);
                        if after.outcome().is_none()
                            && vct(&mut st, us.other(), nodes, PROOF_THREES, None).is_some()
                        {
                            let me = us;
                            let mut st = GomokuState::from_position(&pos);
                            let mut refutations = Vec::new();
                            for i in 0..pos.size() * pos.size() {
                                let sq = Square::new(i as u16);
                                if !pos.is_empty_square(sq) || !st.is_near(sq) {
                                    continue;
                                }
                                st.put(sq, me);
                                if vct(&mut st, me.other(), nodes, PROOF_THREES, None).is_none() {
                                    refutations.push(name(&pos, sq));
                                }
                                st.take(sq, me);
                            }
                            loss = Some((ply, pos.format_move(mv), refutations));
                        }
                    }
                }
                pos.make_move(mv);
            }
            let plies = loaded.moves.len();
            match &loss {
                Some((ply, mv, refutations)) if !refutations.is_empty() => {
                    missed_defence += 1;
                    println!(
                        "{header}\n  ply {ply} of {plies}: played {mv}, the threat it left was refuted by {}",
                        refutations.join(" ")
                    );
                }
                Some((ply, mv, _)) => {
                    too_late += 1;
                    println!(
                        "{header}\n  ply {ply} of {plies}: played {mv}, no move refuted the threat there"
                    );
                }
                None => {
                    unexplained += 1;
                    println!("{header}\n  no threat proved after any of our moves");
                }
            }
            if let Some(ply) = win {
                missed_win += 1;
                println!("  missed win by threats at ply {ply}");
            }
        }
    }
    println!(
        "{lost} games lost: missed defence {missed_defence}, no defence left (lost earlier) \
         {too_late}, no threat proved {unexplained}; a win by threats missed in {missed_win}"
    );
}
