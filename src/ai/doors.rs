//! Doors (ATK-16): the AI opens a closed door next to it when what it is after lies beyond and
//! the walk around is long or there is none. It never spends AP on a door otherwise.

use crate::battle::{Battle, Command, CreatureId};
use crate::rules::grid::{Footprint, footprint_distance};
use crate::rules::objects::ObjectKind;

/// The door command worth giving now, if any.
pub(super) fn worth_opening(b: &Battle, me: CreatureId) -> Option<Command> {
    let f = b.fighter(me);
    let doors: Vec<_> = b
        .objects()
        .iter()
        .filter(|o| o.def.kind == ObjectKind::Door && !o.broken && !o.open)
        .filter(|o| footprint_distance(f.footprint(), Footprint::single(o.at())) == 1)
        .collect();
    if doors.is_empty() {
        return None;
    }
    let goal = super::hunting_goal(b, me, &b.perceived_hostiles(f.side))?;
    let straight = footprint_distance(f.footprint(), goal);
    // Walking from the goal to here as the map stands (closed doors block): quarters of a step.
    let walk = b.journey_costs(me, goal.origin).cost_quarters(f.origin);
    let detour = walk.is_none_or(|q| q > 4 * (2 * straight as u32 + 4));
    if !detour {
        return None;
    }
    doors
        .into_iter()
        .filter(|d| footprint_distance(Footprint::single(d.at()), goal) < straight)
        .map(|d| Command::Door { at: d.at(), open: true })
        .find(|c| b.check(me, c).is_ok())
}
