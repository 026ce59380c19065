//! "Walk into reach and strike": where a creature can move this turn to attack a target it
//! cannot reach from where it stands, asked of the same rules the attack will be checked by.

use super::state::*;
use super::types::*;
use crate::rules::costs::MOVE_AP;
use crate::rules::facing::Facing;
use crate::rules::grid::Footprint;

/// A move that ends in reach of a target, and the attack to make from there.
#[derive(Clone, Debug, PartialEq)]
pub struct StrikeFrom {
    pub path: Vec<crate::rules::grid::Pos>,
    pub facing: Facing,
    /// The single-target weapon that reaches from there, with AP left to use it.
    pub weapon: String,
}

impl Battle {
    /// The cheapest move for `me` (sprinting if `sprint`) that ends where one of its
    /// single-target weapons reaches `target` with dice to roll and AP left to pay for it; the
    /// weapon with the most dice from there. None if no such move exists this turn.
    pub fn walk_to_strike(&self, me: CreatureId, target: CreatureId, sprint: bool) -> Option<StrikeFrom> {
        let f = self.creatures.get(me as usize)?;
        let t = self.creatures.get(target as usize)?;
        let field = self.reachable(me, sprint).ok()?;
        let ap_after = f.ap - MOVE_AP;
        let mut dests: Vec<_> = field.destinations().filter(|&d| d != f.origin).collect();
        dests.sort_by_key(|&d| (field.cost_quarters(d).unwrap_or(u32::MAX), d));
        for dest in dests {
            let facing = Facing::toward_footprint(Footprint::new(dest, f.size.footprint()), t.footprint());
            let facing = if self.ruleset.facing { facing } else { f.facing };
            let from = Placement { origin: dest, facing, posture: f.posture };
            let Ok(engagement) = self.engage(me, from, target, t.placement()) else { continue };
            let best = f
                .weapons
                .iter()
                .filter(|w| w.weapon.area.is_none() && w.weapon.ap <= ap_after)
                .filter_map(|w| {
                    let n = self.attack_numbers(&engagement, &w.key, &[], false).ok()?;
                    (n.in_reach.is_ok() && n.dice > 0).then_some((n.dice, w.key.clone()))
                })
                .max_by_key(|(dice, key)| (*dice, std::cmp::Reverse(key.clone())));
            if let (Some((_, weapon)), Some(path)) = (best, field.path_to(dest)) {
                return Some(StrikeFrom { path, facing, weapon });
            }
        }
        None
    }
}
