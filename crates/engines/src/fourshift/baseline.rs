//! The source article's fourshift AI: k-windows and the centre, searched to a fixed depth.

use super::*;

/// Whether `sq` is a centre square for the baseline: column and row both in
/// `(size-1)/2 ..= size/2` (the central 2×2 on even boards, the middle square on odd ones).
pub fn is_centre(geometry: &Geometry, sq: Square) -> bool {
    let (w, h) = (geometry.width(), geometry.height());
    let (c, r) = (geometry.col(sq), geometry.row(sq));
    ((w - 1) / 2..=w / 2).contains(&c) && ((h - 1) / 2..=h / 2).contains(&r)
}

/// The baseline's window weights for windows of length `k` (see the module docs).
pub fn baseline_weights(k: u32) -> WindowWeights {
    WindowWeights::new(
        (1..=k)
            .map(|c| match k - c {
                0 => 100_000,
                1 => 500,
                2 => 50,
                3 => 5,
                _ => 0,
            })
            .collect::<Vec<i32>>(),
    )
}

// ---- baseline -----------------------------------------------------------------------------

/// The baseline's evaluation state: the article's window sum (kept by a [`WindowScorer`])
/// and the centre count, both from First's point of view.
#[derive(Clone, Debug)]
pub struct BaselineState {
    scorer: Option<WindowScorer>,
    centre: i64,
    geometry: &'static Geometry,
}

impl PartialEq for BaselineState {
    fn eq(&self, other: &Self) -> bool {
        self.centre == other.centre
            && match (&self.scorer, &other.scorer) {
                (Some(a), Some(b)) => {
                    let k = a.windows().k();
                    a.score() == b.score()
                        && Player::BOTH
                            .iter()
                            .all(|&p| (1..=k).all(|c| a.live_windows(p, c) == b.live_windows(p, c)))
                }
                (None, None) => true,
                _ => false,
            }
    }
}

impl BaselineState {
    /// The window sum, First's view.
    pub fn windows_score(&self) -> i64 {
        self.scorer.as_ref().map_or(0, WindowScorer::score)
    }

    /// Own centre pieces minus the opponent's, First's view.
    pub fn centre(&self) -> i64 {
        self.centre
    }

    /// The article's evaluation for `player`.
    pub fn value_for(&self, player: Player) -> i64 {
        (self.windows_score() + BASELINE_CENTRE_WEIGHT * self.centre) * i64::from(player.sign())
    }

    fn update(&mut self, player: Player, sq: Square, add: bool) {
        if let Some(s) = self.scorer.as_mut() {
            // Errors cannot happen for a legal move; a stray move only skips the update.
            let _ = if add {
                s.place(player, sq)
            } else {
                s.remove(player, sq)
            };
        }
        if is_centre(self.geometry, sq) {
            let d = i64::from(player.sign());
            self.centre += if add { d } else { -d };
        }
    }
}

impl EvalState<Fourshift> for BaselineState {
    type Undo = (Player, Move);

    fn from_position(pos: &Fourshift) -> Self {
        let geometry = pos.geometry();
        let k = board_core::Position::config(pos).k();
        let stones = [pos.stones(Player::First), pos.stones(Player::Second)];
        let scorer = KWindows::new(geometry, k).ok().and_then(|w| {
            WindowScorer::from_sets(w, &baseline_weights(k), [&stones[0], &stones[1]]).ok()
        });
        let centre = Player::BOTH
            .iter()
            .map(|&p| {
                let n = stones[p.index()]
                    .squares()
                    .filter(|&sq| is_centre(geometry, sq))
                    .count() as i64;
                n * i64::from(p.sign())
            })
            .sum();
        BaselineState {
            scorer,
            centre,
            geometry,
        }
    }

    fn make(&mut self, pos: &Fourshift, mv: Move, _undo: &rules_fourshift::Undo) -> Self::Undo {
        let mover = mover_of(pos);
        if let Some(from) = mv.from() {
            self.update(mover, from, false);
        }
        self.update(mover, mv.to(), true);
        (mover, mv)
    }

    fn unmake(&mut self, (mover, mv): Self::Undo) {
        self.update(mover, mv.to(), false);
        if let Some(from) = mv.from() {
            self.update(mover, from, true);
        }
    }
}

/// The baseline's position: the game plus [`BaselineState`].
pub type BaselinePosition = Incremental<Fourshift, BaselineState>;

/// The article's evaluation (side to move's view), read from the incremental state.
#[derive(Clone, Copy, Debug, Default)]
pub struct BaselineEval;

impl Evaluator<BaselinePosition> for BaselineEval {
    fn evaluate(&self, pos: &BaselinePosition) -> i32 {
        let v = pos.state().value_for(board_core::Rules::side_to_move(pos));
        v.clamp(-i64::from(i32::MAX), i64::from(i32::MAX)) as i32
    }
}

/// The article's evaluation computed from scratch (the reference for the tests).
pub fn baseline_eval_scratch(pos: &Fourshift) -> i64 {
    let g = pos.geometry();
    let k = board_core::Position::config(pos).k();
    let stones = [pos.stones(Player::First), pos.stones(Player::Second)];
    let windows = KWindows::new(g, k)
        .ok()
        .and_then(|w| {
            w.score_from_scratch(&baseline_weights(k), [&stones[0], &stones[1]])
                .ok()
        })
        .unwrap_or(0);
    let centre: i64 = g
        .squares()
        .filter(|&sq| is_centre(g, sq))
        .map(|sq| pos.piece_at(sq).map_or(0, |p| i64::from(p.sign())))
        .sum();
    (windows + BASELINE_CENTRE_WEIGHT * centre)
        * i64::from(board_core::Rules::side_to_move(pos).sign())
}

// ---- engine state -------------------------------------------------------------------------
