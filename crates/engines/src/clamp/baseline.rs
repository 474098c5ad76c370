//! The source article's clamp AI: `material·100 + centre·4 + mobility·2`.

use super::*;

// ---- baseline -----------------------------------------------------------------------------

/// The article's evaluation `material·100 + centre·4 + mobility·2` from the point of view
/// of `me` (see the module docs).
pub fn baseline_value(pos: &ClampPosition, me: Player) -> i64 {
    if let Some(s) = Sides::of(pos, me) {
        let material = i64::from(s.own.count()) - i64::from(s.opp.count());
        let centre = i64::from(s.b.centre(s.own) - s.b.centre(s.opp));
        let mobility = pos.mobility(me) as i64 - pos.mobility(me.other()) as i64;
        return material * 100 + centre * 4 + mobility * 2;
    }
    baseline_terms(pos).map_or(0, |t| t.baseline() * i64::from(me.sign()))
}

/// The baseline's terms computed by [`ClampTerms`] (First's point of view).
pub fn baseline_terms(pos: &ClampPosition) -> Option<ClampTerms> {
    let g = pos.geometry();
    let pieces = [pos.pieces(Player::First), pos.pieces(Player::Second)];
    let zones = [pos.drop_zone(Player::First), pos.drop_zone(Player::Second)];
    let drops = [
        pos.can_drop(Player::First).then_some(&zones[0]),
        pos.can_drop(Player::Second).then_some(&zones[1]),
    ];
    ClampTerms::new(g, [&pieces[0], &pieces[1]], drops).ok()
}

/// The article's evaluator (side to move's view).
#[derive(Clone, Copy, Debug, Default)]
pub struct BaselineEval;

impl Evaluator<ClampPosition> for BaselineEval {
    fn evaluate(&self, pos: &ClampPosition) -> i32 {
        baseline_value(pos, pos.side_to_move()).clamp(-800_000, 800_000) as i32
    }
}
