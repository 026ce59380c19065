//! Dragging a fallen friend out of reach (MOVE-13): when a friend lies unconscious next to the
//! creature and a hostile its side perceives stands within 2 steps of the body (where it could
//! finish it off, FLOW-7), the creature drags the body to the square, of those it can reach,
//! that leaves it farthest from every such hostile, at least 3 steps off (a body moves one
//! square a step, and a heavy one only one square a move: so it drags only when that is
//! enough). Otherwise it never spends AP on dragging.

use crate::battle::{Battle, Command, CreatureId};
use crate::rules::grid::{Footprint, Pos, footprint_distance};

/// How close a hostile must be for the body to be in danger, and how far the drag must take
/// it: beyond a reach-2 weapon and a step.
const DANGER: i32 = 2;
const SAFE: i32 = 3;

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
            && !o.attrs.is_dead()
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
            .max();
        if let Some((_, _, at)) = best
            && let Some(command) = b.drag_command(me, body.id, at)
        {
            return Some(command);
        }
    }
    None
}
