//! The clamp engine's evaluation: material, centre, mobility and the tactical terms.

use super::*;

// ---- engine -------------------------------------------------------------------------------

pub(super) const MATERIAL: i32 = 120;
pub(super) const CENTRE: i32 = 3;
pub(super) const MOBILITY: i32 = 1;
/// Per own piece the opponent can capture next move.
pub(super) const HANGING: i32 = 30;
/// Extra when two or more own pieces hang (only one can be saved).
pub(super) const DOUBLE_HANGING: i32 = 60;
/// When the side to move can capture (quiescence settles the rest).
pub(super) const CAN_CAPTURE: i32 = 15;
/// Per own piece next to the opponent's drop zone, or inside it.
pub(super) const ZONE_GUARD: i32 = 4;
/// Half-moves before the quiet limit from which the counter matters.
pub(super) const QUIET_HORIZON: i32 = 16;
/// Per piece in hand more than the opponent, under a finite supply: a future drop, worth
/// less than a piece on the board (it costs a move, and the board caps it), but a capture
/// of a player with an empty hand is for good.
pub(super) const IN_HAND: i32 = 60;
/// Per piece on the centre block (the adjudication's tie-break) more than the opponent,
/// scaled up as the quiet limit nears under `adjudicate=true`.
pub(super) const CENTRE_BLOCK: i32 = 8;

/// The engine's evaluator (see the module docs).
#[derive(Clone, Copy, Debug, Default)]
pub struct EngineEval;

impl EngineEval {
    /// The static value for the side to move.
    pub fn value(pos: &ClampPosition) -> i32 {
        let me = pos.side_to_move();
        let other = me.other();
        let cfg = pos.config();
        let material = pos.piece_count(me) as i32 - pos.piece_count(other) as i32;
        let mut v;
        if let Some(s) = Sides::of(pos, me) {
            let b = s.b;
            let centre = b.centre(s.own) - b.centre(s.opp);
            let mobility = pos.mobility(me) as i32 - pos.mobility(other) as i32;
            v = MATERIAL * material + CENTRE * centre + MOBILITY * mobility;
            let (my_zone, their_zone) = (zone_mask(pos, me), zone_mask(pos, other));
            // The opponent's capture chances against us (they move after us).
            let (hanging, _) = s.threats(s.opp, s.own, their_zone, pos.can_drop(other));
            let n = hanging.count() as i32;
            if n > 0 {
                v -= HANGING * n + if n >= 2 { DOUBLE_HANGING } else { 0 };
            }
            let (mine, best) = s.threats(s.own, s.opp, my_zone, pos.can_drop(me));
            if !mine.is_empty() {
                v += CAN_CAPTURE + 20 * best.saturating_sub(1) as i32;
            }
            // Guarding the opponent's drop zone: pieces in it or on the row next to it.
            let guard = |own: Bitboard64, zone: Bitboard64| {
                let near = zone | (0..8).fold(Bitboard64::EMPTY, |m, d| m | b.fwd(zone, d));
                (own & near).count() as i32
            };
            v += ZONE_GUARD * (guard(s.own, their_zone) - guard(s.opp, my_zone));
        } else {
            let t = baseline_terms(pos).unwrap_or_default();
            let sign = me.sign();
            v = sign * (MATERIAL * t.material + CENTRE * t.centre + MOBILITY * t.mobility);
        }
        if let (Some(mine), Some(theirs)) = (pos.in_hand(me), pos.in_hand(other)) {
            // Hands can reach a million: cap the difference far above any real game's.
            let diff = (i64::from(mine) - i64::from(theirs)).clamp(-100, 100) as i32;
            v += IN_HAND * diff;
        }
        let remaining = pos.quiet_remaining().min(i32::MAX as u32) as i32;
        if remaining < QUIET_HORIZON {
            if cfg.adjudicate() {
                let near = QUIET_HORIZON - remaining;
                v += material * MATERIAL * near / 4;
                let centre_block = pos.centre_count(me) as i32 - pos.centre_count(other) as i32;
                v += centre_block * CENTRE_BLOCK * near / 4;
            } else {
                v = v * (remaining + 1) / (QUIET_HORIZON + 1);
            }
        }
        v
    }
}

impl Evaluator<ClampPosition> for EngineEval {
    fn evaluate(&self, pos: &ClampPosition) -> i32 {
        EngineEval::value(pos)
    }

    fn move_hint(&self, pos: &ClampPosition, mv: Move) -> i32 {
        let captures = pos.capture_count(mv) as i32;
        if captures > 0 {
            return 1_000 * captures;
        }
        0
    }

    fn noisy(&self, pos: &ClampPosition, moves: &mut Vec<Move>) {
        pos.generate_moves(moves);
        moves.retain(|&m| pos.capture_count(m) > 0);
    }

    fn repetition_is_draw(&self) -> bool {
        true
    }
}
