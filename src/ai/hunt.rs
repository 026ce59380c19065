//! Hunting for foes its side perceives none of: walking into the unknown, a shooter keeps
//! behind the friends who fight at shorter reach, so whoever comes round the corner meets the
//! blades first and the bow from behind them, readied.

use super::{approach_within, hunting_goal, remembered_sighting};
use crate::battle::{Battle, Command, CreatureId, Fighter};
use crate::rules::grid::{Footprint, footprint_distance};
use crate::rules::movement::MoveField;

/// The hunting move (or the end of the turn, which the planner turns into a readied attack
/// when AP are left). Only while the fight has not stalled: in a stall, everyone goes looking.
///
/// An ambush is held: while its side sees no foe but remembers where one still standing was
/// seen, a creature stays where it is, readied, and lets the foe come round the corner into
/// its blows. Walking to the sighting, it came into its foes' view, the planner (now seeing
/// them) took it back out of their reach, and it did so again every turn: the Mill's wolves
/// ran out from behind the mill and back, turn after turn, while the party closed in, and
/// holding instead took `normal` against the baseline from 68.1 to 70.4% there (1,000 duels;
/// the sum over the 18 levels 1486.2 → 1498.5, no level lower by more than 0.1 point). Only
/// until the fight stalls (`clock::stall_push`; taking blows unanswered from foes it cannot
/// see stalls it too), and not for a sloppy player (difficulty 1), who walks on into view.
pub(super) fn hunting_step(b: &Battle, me: CreatureId, stall: f64, sloppy: bool) -> Command {
    // The sighting is looked up once: `hunting_goal` would go to it first, too.
    let sighting = remembered_sighting(b, me);
    if stall < 1.0 && !sloppy && matches!(sighting, Some((false, _))) {
        return Command::EndTurn;
    }
    let goal = sighting.map(|(_, p)| Footprint::single(p)).or_else(|| hunting_goal(b, me, &[]));
    let Some(goal) = goal else { return Command::EndTurn };
    let behind = |to_goal: &MoveField| if stall < 1.0 { front_line(b, me, goal, to_goal) } else { None };
    approach_within(b, me, goal, behind).unwrap_or(Command::EndTurn)
}

/// The longest reach of a creature's usable single-target weapons.
fn reach(f: &Fighter) -> i32 {
    f.weapons
        .iter()
        .filter(|w| w.weapon.area.is_none() && w.ammo != Some(0))
        .map(|w| w.weapon.range.max)
        .max()
        .unwrap_or(0)
}

/// How far from `goal` (walking, in quarter steps, as `approach_within` measures) the nearest
/// friend stands that can act and fights at a shorter reach than `me` (with some weapon at
/// all): the line a shooter keeps behind. None when it has no such friend the walk reaches.
/// `to_goal`: the walking costs out of the goal (`approach_within`'s own).
fn front_line(b: &Battle, me: CreatureId, goal: Footprint, to_goal: &MoveField) -> Option<u64> {
    let f = b.fighter(me);
    let mine = reach(f);
    b.creatures()
        .iter()
        .filter(|o| o.id != me && o.side == f.side && o.can_act() && (1..mine).contains(&reach(o)))
        // A friend the walk from the goal does not reach (a Large shooter's footprint does not
        // fit where it stands) holds no line: it would shut the shooter in where it stands.
        .filter_map(|o| {
            let near = footprint_distance(o.footprint(), goal) <= 1;
            if near { Some(0) } else { to_goal.cost_quarters(o.origin).map(u64::from) }
        })
        .min()
}
