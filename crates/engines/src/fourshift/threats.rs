//! The fourshift threat search: a short VCF (victory by continuous fours) for
//! `Evaluator::forced_win`.

use super::*;

/// Remaining depth below which [`EngineEval::forced_win`] does not look for a VCF.
pub(super) const VCF_MIN_DEPTH: u32 = 2;
/// Attacking moves a VCF may use.
pub(super) const VCF_ATTACKS: u32 = 5;
/// Moves made by one VCF search at most.
pub(super) const VCF_BUDGET: u32 = 400;

/// Live threats of `p` in `pos` (up to `N`, filled into `out`).
pub(super) fn threats_of<const N: usize>(
    pos: &EnginePosition,
    p: Player,
    out: &mut [Square; N],
) -> usize {
    pos.state().live_threats(p, placing(pos.position(), p), out)
}

/// Victory by continuous threats for the side to move: every attacking move makes a line
/// completable next turn (so the defender must fill that square), until a move makes two
/// such squares, or one the defender cannot reach. Lines where a forced block gives the
/// defender a threat of its own are given up (the search decides those). Returns the first
/// move and the number of turns to the win.
pub(super) fn vcf(pos: &mut EnginePosition, attacks: u32, budget: &mut u32) -> Option<(Move, u32)> {
    use board_core::Rules as _;
    if pos.outcome().is_some() {
        return None;
    }
    let s = pos.side_to_move();
    let o = s.other();
    let mut buf = [Square(0); 2];
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    if threats_of(pos, s, &mut buf) > 0 {
        let st = pos.state();
        return moves
            .iter()
            .find(|&&m| EngineEval::wins(st, s, m))
            .map(|&m| (m, 1));
    }
    if attacks == 0 {
        return None;
    }
    // The threat logic assumes the turns alternate; around White's double move
    // (moving_first=second) the search decides.
    if moves_again(pos.position()) {
        return None;
    }
    let max_plies = board_core::Position::config(pos.position()).max_plies();
    if pos.ply() + 3 > max_plies {
        return None;
    }
    let forced_square = match threats_of(pos, o, &mut buf) {
        0 => None,
        1 => Some(buf[0]),
        _ => return None,
    };
    let mut replies = Vec::new();
    for &m in &moves {
        match forced_square {
            Some(e) if m.to() != e => continue,
            None if !pos.state().may_threaten(s, m.to()) => continue,
            _ => {}
        }
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let undo = pos.make_move(m);
        let found = 'line: {
            if pos.outcome().is_some() {
                break 'line None;
            }
            if threats_of(pos, o, &mut buf) > 0 {
                break 'line None;
            }
            let n = threats_of(pos, s, &mut buf);
            if n == 0 {
                break 'line None;
            }
            if n >= 2 {
                break 'line Some(3);
            }
            let e = buf[0];
            if moves_again(pos.position()) {
                break 'line None;
            }
            pos.generate_moves(&mut replies);
            let blocks: Vec<Move> = replies.iter().copied().filter(|r| r.to() == e).collect();
            if blocks.is_empty() {
                break 'line Some(3);
            }
            let mut longest = 0;
            for b in blocks {
                let u = pos.make_move(b);
                let sub = if pos.outcome().is_some() || threats_of(pos, o, &mut buf) > 0 {
                    None
                } else {
                    vcf(pos, attacks - 1, budget)
                };
                pos.unmake_move(b, u);
                match sub {
                    Some((_, t)) => longest = longest.max(t),
                    None => break 'line None,
                }
            }
            Some(2 + longest)
        };
        pos.unmake_move(m, undo);
        if let Some(turns) = found {
            return Some((m, turns));
        }
    }
    None
}
