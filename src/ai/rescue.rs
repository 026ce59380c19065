//! Dragging a fallen friend out of reach (MOVE-13): when a friend lies unconscious next to the
//! creature and a hostile its side perceives stands within 2 steps of the body (where it could
//! finish it off, FLOW-7), the creature drags the body to the square, of those it can reach,
//! that leaves it farthest from every such hostile, at least 3 steps off (a body moves one
//! square a step, and a heavy one only one square a move: so it drags only when that is
//! enough), and never into a passage one square wide. Otherwise it never spends AP on
//! dragging.

use crate::battle::{Battle, Command, CreatureId};
use crate::rules::grid::{Footprint, Pos, footprint_distance};

/// How close a hostile must be for the body to be in danger, and how far the drag must take
/// it: beyond a reach-2 weapon and a step.
const DANGER: i32 = 2;
const SAFE: i32 = 3;

/// Whether a body left on `at` would plug a passage (a square with fewer than 4 open
/// neighbours: a corridor one square wide). There it blocks its own side's way as much as the
/// foe's, and a drag only moves the plug: at a choke point that turned fights into standoffs.
fn in_a_passage(b: &Battle, at: Pos) -> bool {
    let map = b.map();
    let open = (-1..=1)
        .flat_map(|dx| (-1..=1).map(move |dy| (dx, dy)))
        .filter(|&d| d != (0, 0))
        .map(|(dx, dy)| at.offset(dx, dy))
        .filter(|&p| map.in_bounds(p) && !map.blocks_movement(p))
        .count();
    open < 4
}

/// The drag worth making now, if any.
pub(super) fn worth_dragging(b: &Battle, me: CreatureId) -> Option<Command> {
    let f = b.fighter(me);
    let hostiles: Vec<Footprint> = b
        .perceived_hostiles(f.side)
        .into_iter()
        .map(|h| b.fighter(h))
        .filter(|h| h.can_act())
        .map(|h| h.footprint())
        .collect();
    if hostiles.is_empty() {
        return None;
    }
    let nearest = |fp: Footprint| hostiles.iter().map(|&h| footprint_distance(fp, h)).min().unwrap_or(i32::MAX);
    let fallen = b.creatures().iter().filter(|o| {
        o.side == f.side
            && o.id != me
            && o.is_active()
            && o.attrs.is_unconscious()
            && footprint_distance(f.footprint(), o.footprint()) == 1
            && nearest(o.footprint()) <= DANGER
    });
    for body in fallen {
        let Ok(field) = b.drag_reachable(me, body.id) else { continue };
        // The body ends on the square the dragger leaves last: the path's second-to-last.
        let best = field
            .destinations()
            .filter_map(|at| {
                let path = field.path_to(at)?;
                let rests: Pos = *path.get(path.len().checked_sub(2)?)?;
                Some((nearest(Footprint::single(rests)), std::cmp::Reverse(field.cost_quarters(at)?), at))
            })
            .filter(|(d, _, _)| *d >= SAFE)
            .filter(|&(_, _, at)| !in_a_passage(b, field.path_to(at).map(|p| p[p.len() - 2]).unwrap_or(at)))
            .max();
        if let Some((_, _, at)) = best
            && let Some(command) = b.drag_command(me, body.id, at)
        {
            return Some(command);
        }
    }
    None
}
