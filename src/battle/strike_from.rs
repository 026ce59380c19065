//! "Walk into reach and strike": where a creature can move this turn to attack a target it
//! cannot reach from where it stands, asked of the same rules the attack will be checked by.

use super::state::*;
use super::types::*;
use crate::rules::costs::MOVE_AP;
use crate::rules::facing::Facing;
use crate::rules::grid::{Footprint, footprint_distance};

/// The moves (one, or two when one is not enough) that end in reach of a target, and the
/// attack to make from there.
#[derive(Clone, Debug, PartialEq)]
pub struct StrikeFrom {
    /// The first move's path (start square first).
    pub path: Vec<crate::rules::grid::Pos>,
    /// The second move's path, when the target is two moves away.
    pub then_path: Option<Vec<crate::rules::grid::Pos>>,
    pub facing: Facing,
    /// The single-target weapon that reaches from there, with AP left to use it.
    pub weapon: String,
}

impl Battle {
    /// The cheapest move for `me` (sprinting if `sprint`) that ends where one of its
    /// single-target weapons reaches `target` with dice to roll and AP left to pay for it; the
    /// weapon with the most dice from there. When no single move does, the cheapest two moves
    /// (MOVE-1: 1 AP each) that do. `extra_ap` is kept for additives declared with the strike
    /// (TIME-16). None if nothing does this turn.
    pub fn walk_to_strike(
        &self,
        me: CreatureId,
        target: CreatureId,
        sprint: bool,
        extra_ap: i32,
    ) -> Option<StrikeFrom> {
        let f = self.creatures.get(me as usize)?;
        let t = self.creatures.get(target as usize)?;
        let field = self.reachable(me, sprint).ok()?;
        let mut dests: Vec<_> = field.destinations().filter(|&d| d != f.origin).collect();
        dests.sort_by_key(|&d| (field.cost_quarters(d).unwrap_or(u32::MAX), d));
        for &dest in &dests {
            if let (Some((weapon, facing)), Some(path)) =
                (self.strike_from(f, t, dest, f.ap - MOVE_AP - extra_ap), field.path_to(dest))
            {
                return Some(StrikeFrom { path, then_path: None, facing, weapon });
            }
        }
        // Two moves: the first to any square a move ends on, the second from there.
        if f.ap < 2 * MOVE_AP + extra_ap {
            return None;
        }
        let reach = f.weapons.iter().filter(|w| w.weapon.area.is_none()).map(|w| w.weapon.range.max).max()?;
        let occupancy = self.occupancy_for(me);
        let mover = self.mover(me, sprint);
        let mut best: Option<(u32, StrikeFrom)> = None;
        for &first in &dests {
            let Some(c1) = field.cost_quarters(first) else { continue };
            let Ok(second) = crate::rules::movement::reachable(&self.map, Some(&occupancy), &mover, first) else {
                continue;
            };
            let mut ends: Vec<_> = second
                .destinations()
                .filter(|&d| d != first)
                .filter(|&d| footprint_distance(Footprint::new(d, f.size.footprint()), t.footprint()) <= reach)
                .collect();
            ends.sort_by_key(|&d| (second.cost_quarters(d).unwrap_or(u32::MAX), d));
            for end in ends {
                let total = c1 + second.cost_quarters(end).unwrap_or(u32::MAX / 2);
                if best.as_ref().is_some_and(|(c, _)| *c <= total) {
                    break;
                }
                if let (Some((weapon, facing)), Some(path), Some(then)) = (
                    self.strike_from(f, t, end, f.ap - 2 * MOVE_AP - extra_ap),
                    field.path_to(first),
                    second.path_to(end),
                ) {
                    best = Some((total, StrikeFrom { path, then_path: Some(then), facing, weapon }));
                    break;
                }
            }
        }
        best.map(|(_, s)| s)
    }

    /// From `dest`, with `ap_after` AP, the single-target weapon with the most dice that
    /// reaches `t`, and the facing toward it.
    fn strike_from(
        &self,
        f: &Fighter,
        t: &Fighter,
        dest: crate::rules::grid::Pos,
        ap_after: i32,
    ) -> Option<(String, Facing)> {
        let facing = Facing::toward_footprint(Footprint::new(dest, f.size.footprint()), t.footprint());
        let facing = if self.ruleset.facing { facing } else { f.facing };
        let from = Placement { origin: dest, facing, posture: f.posture };
        let engagement = self.engage(f.id, from, t.id, t.placement()).ok()?;
        f.weapons
            .iter()
            .filter(|w| w.weapon.area.is_none() && w.weapon.ap <= ap_after)
            .filter_map(|w| {
                let n = self.attack_numbers(&engagement, &w.key, &[], false).ok()?;
                (n.in_reach.is_ok() && n.dice > 0).then_some((n.dice, w.key.clone()))
            })
            .max_by_key(|(dice, key)| (*dice, std::cmp::Reverse(key.clone())))
            .map(|(_, weapon)| (weapon, facing))
    }
}
