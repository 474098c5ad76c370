//! The fourshift engine: incremental window state and its evaluation.

use super::*;

/// Window weight of the engine by pieces in a one-sided window, counted from the full
/// window down: `k-1` → 180, `k-2` → 24, `k-3` → 3, fewer → 1 (full windows end the game).
pub(super) fn engine_weight(k: u32, c: u32) -> i32 {
    if c == 0 || c >= k {
        return 0;
    }
    match k - c {
        1 => 180,
        2 => 24,
        3 => 3,
        _ => 1,
    }
}

/// Weight of one centre ring (0 on the edge, 1 next to it, …).
pub(super) const CENTRE_RING: i32 = 3;
/// Weight of one shift of mobility in the moving phase.
pub(super) const MOBILITY: i32 = 4;
/// Value of a win on the next turn (and minus: a loss the side to move cannot prevent).
pub(super) const WIN_NEXT: i32 = 60_000;
/// Cost of having to answer a single reachable threat.
pub(super) const FORCED_BLOCK: i32 = 60;

/// The engine's incremental evaluation state (see the module docs).
#[derive(Clone, Debug)]
pub struct EngineState {
    windows: Option<&'static KWindows>,
    geometry: &'static Geometry,
    k: u8,
    /// Weight by count, First's view for First's windows.
    table: Vec<i32>,
    counts: Vec<[u8; 2]>,
    /// 0 empty, 1 First, 2 Second.
    board: Vec<u8>,
    score: i32,
    centre: i32,
    /// `threat[p][sq]`: near-complete windows of `p` whose empty square is `sq`.
    threat: [Vec<u8>; 2],
    near: [u32; 2],
}

impl PartialEq for EngineState {
    fn eq(&self, other: &Self) -> bool {
        self.k == other.k
            && self.counts == other.counts
            && self.board == other.board
            && self.score == other.score
            && self.centre == other.centre
            && self.threat == other.threat
            && self.near == other.near
    }
}

pub(super) fn ring(g: &Geometry, sq: Square) -> i32 {
    let (c, r) = (g.col(sq), g.row(sq));
    c.min(g.width() - 1 - c).min(r).min(g.height() - 1 - r) as i32
}

impl EngineState {
    fn empty(geometry: &'static Geometry, k: u32) -> EngineState {
        let windows = KWindows::new(geometry, k).ok();
        let n = windows.map_or(0, |w| w.len());
        EngineState {
            windows,
            geometry,
            k: k.min(255) as u8,
            table: (0..=k).map(|c| engine_weight(k, c)).collect(),
            counts: vec![[0, 0]; n],
            board: vec![0; geometry.cells()],
            score: 0,
            centre: 0,
            threat: [vec![0; geometry.cells()], vec![0; geometry.cells()]],
            near: [0, 0],
        }
    }

    #[inline]
    fn contribution(&self, c: [u8; 2]) -> i32 {
        match c {
            [n, 0] => self.table.get(n as usize).copied().unwrap_or(0),
            [0, n] => -self.table.get(n as usize).copied().unwrap_or(0),
            _ => 0,
        }
    }

    #[inline]
    fn near_owner(&self, c: [u8; 2]) -> Option<usize> {
        let k1 = self.k.saturating_sub(1);
        match c {
            [n, 0] if n == k1 && n > 0 => Some(0),
            [0, n] if n == k1 && n > 0 => Some(1),
            _ => None,
        }
    }

    fn empty_of(&self, windows: &KWindows, w: usize) -> Option<usize> {
        windows
            .window(w)?
            .iter()
            .map(|sq| sq.index())
            .find(|&i| self.board.get(i) == Some(&0))
    }

    /// Puts (`add`) or takes away a piece of `p` on `sq`.
    fn apply(&mut self, p: Player, sq: Square, add: bool) {
        let Some(windows) = self.windows else { return };
        let i = sq.index();
        if i >= self.board.len() || (self.board[i] == 0) != add {
            return;
        }
        let through = windows.through(sq);
        for &w in through {
            let c = self.counts[w as usize];
            self.score -= self.contribution(c);
            if let Some(q) = self.near_owner(c)
                && let Some(e) = self.empty_of(windows, w as usize)
            {
                self.threat[q][e] = self.threat[q][e].saturating_sub(1);
                self.near[q] = self.near[q].saturating_sub(1);
            }
        }
        self.board[i] = if add { p.index() as u8 + 1 } else { 0 };
        let d = ring(self.geometry, sq) * p.sign();
        self.centre += if add { d } else { -d };
        for &w in through {
            let slot = &mut self.counts[w as usize];
            if add {
                slot[p.index()] += 1;
            } else {
                slot[p.index()] = slot[p.index()].saturating_sub(1);
            }
            let c = *slot;
            self.score += self.contribution(c);
            if let Some(q) = self.near_owner(c)
                && let Some(e) = self.empty_of(windows, w as usize)
            {
                self.threat[q][e] += 1;
                self.near[q] += 1;
            }
        }
    }

    #[inline]
    fn at(&self, sq: Square) -> u8 {
        self.board.get(sq.index()).copied().unwrap_or(0)
    }

    /// Whether shifting `p`'s piece from `from` to the empty `to` makes `k` in a row.
    fn shift_wins(&self, p: Player, from: Square, to: Square) -> bool {
        let g = self.geometry;
        let me = p.index() as u8 + 1;
        Direction::AXES.iter().any(|&axis| {
            let mut n = 1;
            for dir in [axis, axis.opposite()] {
                let mut cur = to;
                while let Some(next) = g.step(cur, dir) {
                    if next == from || self.at(next) != me {
                        break;
                    }
                    n += 1;
                    cur = next;
                }
            }
            n >= u32::from(self.k)
        })
    }

    /// Whether `p` can fill its threat square `e` on its next turn.
    fn completable(&self, p: Player, e: Square, placing: bool) -> bool {
        if placing {
            return true;
        }
        let me = p.index() as u8 + 1;
        Direction::ORTHOGONAL.iter().any(|&d| {
            self.geometry
                .step(e, d)
                .is_some_and(|f| self.at(f) == me && self.shift_wins(p, f, e))
        })
    }

    /// Whether `p` has a piece to put on `e` on its turn.
    fn reachable(&self, p: Player, e: Square, placing: bool) -> bool {
        let me = p.index() as u8 + 1;
        placing
            || Direction::ORTHOGONAL
                .iter()
                .any(|&d| self.geometry.step(e, d).is_some_and(|f| self.at(f) == me))
    }

    /// Up to `N` squares `p` can complete a line on at its next turn; returns how many.
    pub(super) fn live_threats<const N: usize>(
        &self,
        p: Player,
        placing: bool,
        out: &mut [Square; N],
    ) -> usize {
        if self.near[p.index()] == 0 {
            return 0;
        }
        let mut n = 0;
        for (i, &t) in self.threat[p.index()].iter().enumerate() {
            if t == 0 {
                continue;
            }
            let sq = Square(i as u16);
            if self.completable(p, sq, placing) {
                out[n] = sq;
                n += 1;
                if n == N {
                    break;
                }
            }
        }
        n
    }

    /// How much the window score changes (for `p`, positive is good) if `p` plays `mv`.
    fn gain(&self, p: Player, mv: Move) -> i32 {
        let Some(windows) = self.windows else {
            return 0;
        };
        let sign = p.sign();
        let mut delta = 0;
        if let Some(from) = mv.from() {
            for &w in windows.through(from) {
                let old = self.counts[w as usize];
                let mut new = old;
                new[p.index()] = new[p.index()].saturating_sub(1);
                delta += self.contribution(new) - self.contribution(old);
            }
        }
        for &w in windows.through(mv.to()) {
            let old = self.counts[w as usize];
            let mut new = old;
            new[p.index()] += 1;
            delta += self.contribution(new) - self.contribution(old);
        }
        delta * sign
    }

    /// Whether a piece of `p` on `sq` could complete a near window: some window through
    /// `sq` holds `k-2` of `p`'s pieces and none of the other's (a cheap filter for
    /// threat-making moves).
    pub(super) fn may_threaten(&self, p: Player, sq: Square) -> bool {
        let Some(windows) = self.windows else {
            return false;
        };
        let want = self.k.saturating_sub(2);
        windows.through(sq).iter().any(|&w| {
            let c = self.counts[w as usize];
            c[p.index()] == want && c[p.other().index()] == 0
        })
    }

    /// The window score (First's view).
    pub fn windows_score(&self) -> i32 {
        self.score
    }

    /// Near-complete windows of `player` (`k-1` own pieces, no enemy).
    pub fn near_windows(&self, player: Player) -> u32 {
        self.near[player.index()]
    }
}

impl EvalState<Fourshift> for EngineState {
    type Undo = (Player, Move);

    fn from_position(pos: &Fourshift) -> Self {
        let k = board_core::Position::config(pos).k();
        let mut s = EngineState::empty(pos.geometry(), k);
        for p in Player::BOTH {
            for sq in pos.stones(p).squares() {
                s.apply(p, sq, true);
            }
        }
        s
    }

    fn make(&mut self, pos: &Fourshift, mv: Move, _undo: &rules_fourshift::Undo) -> Self::Undo {
        let mover = mover_of(pos);
        if let Some(from) = mv.from() {
            self.apply(mover, from, false);
        }
        self.apply(mover, mv.to(), true);
        (mover, mv)
    }

    fn unmake(&mut self, (mover, mv): Self::Undo) {
        self.apply(mover, mv.to(), false);
        if let Some(from) = mv.from() {
            self.apply(mover, from, true);
        }
    }
}

/// The engine's position: the game plus [`EngineState`].
pub type EnginePosition = Incremental<Fourshift, EngineState>;

/// The engine's evaluator (see the module docs).
#[derive(Clone, Copy, Debug, Default)]
pub struct EngineEval;

pub(super) fn placing(pos: &Fourshift, p: Player) -> bool {
    pos.in_hand(p) > 0
}

impl EngineEval {
    /// Whether `mv` (legal, by the side to move) wins on the spot.
    pub(super) fn wins(st: &EngineState, side: Player, mv: Move) -> bool {
        let t = mv.to();
        st.threat[side.index()].get(t.index()).copied().unwrap_or(0) > 0
            && mv.from().is_none_or(|f| st.shift_wins(side, f, t))
    }
}

impl Evaluator<EnginePosition> for EngineEval {
    fn evaluate(&self, ipos: &EnginePosition) -> i32 {
        let pos = ipos.position();
        let st = ipos.state();
        let s = board_core::Rules::side_to_move(pos);
        let o = s.other();
        let (sp, op) = (placing(pos, s), placing(pos, o));
        let mut v = (st.score + CENTRE_RING * st.centre) * s.sign();
        if !sp && !op {
            v += MOBILITY * (pos.shift_count(s) as i32 - pos.shift_count(o) as i32);
        }
        let mut buf = [Square(0); 2];
        if st.live_threats(s, sp, &mut buf) > 0 {
            return WIN_NEXT + v.clamp(-5_000, 5_000);
        }
        if moves_again(pos) {
            // Two moves in a row: the opponent's threats can wait for the second.
            return v;
        }
        match st.live_threats(o, op, &mut buf) {
            0 => {}
            1 if st.reachable(s, buf[0], sp) => v -= FORCED_BLOCK,
            _ => return -WIN_NEXT + v.clamp(-5_000, 5_000),
        }
        v
    }

    fn candidates(&self, ipos: &EnginePosition, moves: &mut Vec<Move>) {
        board_core::Rules::generate_moves(ipos, moves);
        let pos = ipos.position();
        let st = ipos.state();
        let s = board_core::Rules::side_to_move(pos);
        if let Some(&w) = moves.iter().find(|&&m| Self::wins(st, s, m)) {
            moves.clear();
            moves.push(w);
            return;
        }
        let cfg = board_core::Position::config(pos);
        if board_core::Rules::ply(pos) + 1 >= cfg.max_plies() || moves_again(pos) {
            return;
        }
        let o = s.other();
        let mut buf = [Square(0); 4];
        let n = st.live_threats(o, placing(pos, o), &mut buf);
        if n > 0 {
            let blocks = &buf[..n];
            let before = moves.len();
            let kept: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| blocks.contains(&m.to()))
                .collect();
            if !kept.is_empty() && kept.len() < before {
                *moves = kept;
            }
        }
    }

    fn move_hint(&self, ipos: &EnginePosition, mv: Move) -> i32 {
        let st = ipos.state();
        let s = board_core::Rules::side_to_move(ipos);
        if Self::wins(st, s, mv) {
            return 100_000;
        }
        let t = mv.to().index();
        let block = st.threat[s.other().index()].get(t).copied().unwrap_or(0) > 0;
        let gain = st.gain(s, mv);
        let base = if block { 50_000 } else { 10_000 };
        base + gain.clamp(-9_000, 9_000)
    }

    fn forced_win(&self, ipos: &mut EnginePosition, depth: u32) -> Option<ForcedWin<Move>> {
        if depth < VCF_MIN_DEPTH {
            return None;
        }
        let mut pos = ipos.clone();
        let mut budget = VCF_BUDGET;
        // Fewest attacking moves first, so that the reported distance is (nearly) the
        // shortest: a lost side then prefers the lines where the win is furthest away.
        (0..=VCF_ATTACKS).find_map(|attacks| {
            vcf(&mut pos, attacks, &mut budget).map(|(mv, turns)| ForcedWin { mv, turns })
        })
    }

    fn repetition_is_draw(&self) -> bool {
        true
    }
}
