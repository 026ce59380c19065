//! A mount plays for its rider too (MOVE-14, MOVE-E8): the rider cannot move by itself, so
//! where the mount ends its move is where the rider strikes from. The mount's planner adds to
//! each square it weighs the rider's best expected blow from there (the rider sits on the
//! mount's south-west square and faces its target for free in its own turn, FACE-2).

use super::odds::estimate_from;
use crate::battle::{Battle, CreatureId, Placement};
use crate::rules::facing::Facing;
use crate::rules::grid::{Footprint, Pos};

/// The rider's best expected damage from `at` (its seat when the mount's origin is `at`)
/// against the conscious enemies `enemies`; 0 with no rider or none in reach.
pub(super) fn rider_strike(b: &Battle, mount: CreatureId, at: Pos, enemies: &[CreatureId]) -> f64 {
    let Some(rider) = b.rider_of(mount) else { return 0.0 };
    let r = b.fighter(rider);
    if !r.can_act() {
        return 0.0;
    }
    let seat = Footprint::new(at, r.size.footprint());
    let mut best = 0.0_f64;
    for &e in enemies {
        let t = b.fighter(e);
        let from = Placement { origin: at, facing: Facing::toward_footprint(seat, t.footprint()), posture: r.posture };
        let Ok(engagement) = b.engage(rider, from, e, t.placement()) else { continue };
        for w in r.weapons.iter().filter(|w| w.weapon.area.is_none() && w.ammo != Some(0)) {
            if let Some(est) = estimate_from(b, &engagement, w, &[], t) {
                best = best.max(est.expected);
            }
        }
    }
    best
}
