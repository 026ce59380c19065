//! A mount plays for its rider too (MOVE-14, MOVE-E8): the rider cannot move by itself, so
//! where the mount ends its move is where the rider strikes from. The mount's planner adds to
//! each square it weighs the rider's best expected blow from there (the rider sits on the
//! mount's south-west square and faces its target for free in its own turn, FACE-2).

use super::odds::estimate_from;
use crate::battle::{Battle, CreatureId, Placement};
use crate::rules::facing::Facing;
use crate::rules::grid::{Footprint, Pos};

/// The rider's best expected damage from `at` (its seat when the mount's origin is `at`)
/// against the conscious enemies `enemies`, weighed with the mount's player's eye
/// (`side_effects`, as for its own blows); 0 with no rider or none in reach.
pub(super) fn rider_strike(b: &Battle, mount: CreatureId, at: Pos, enemies: &[CreatureId], side_effects: bool) -> f64 {
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
            if let Some(est) = estimate_from(b, &engagement, w, &[], t, side_effects) {
                best = best.max(est.expected);
            }
        }
    }
    best
}

/// MOVE-E8: mount a free mount of its side standing next to it, at the start of a turn whose
/// weighed plan strikes nobody (`strikes` false) while there are foes in sight: the mount,
/// faster, carries it into reach and the blow from the saddle is weighed by the mount.
pub(super) fn worth_mounting(b: &Battle, me: CreatureId, strikes: bool) -> Option<crate::battle::Command> {
    let f = b.fighter(me);
    if strikes || f.spent_this_turn > 0 || f.riding.is_some() {
        return None;
    }
    // Only for a ride worth the AP: the nearest foe it perceives is more than a turn's walk
    // (three moves) away, so on foot it would strike no sooner than the turn after next.
    let nearest = b.perceived_hostiles(f.side).into_iter().map(|e| b.distance_between(me, e)).min()?;
    if nearest <= f.speed * f.max_ap {
        return None;
    }
    b.creatures()
        .iter()
        .filter(|m| m.mount && m.side == f.side && m.rider.is_none() && m.speed > f.speed)
        .map(|m| crate::battle::Command::Mount { mount: m.id })
        .find(|c| b.check(me, c).is_ok())
}
