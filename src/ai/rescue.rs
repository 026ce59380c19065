//! Dragging a fallen friend out of reach (MOVE-13): when a friend lies unconscious next to the
//! creature and a hostile its side perceives stands within 2 steps of the body (where it could
//! finish it off, FLOW-7), the creature drags the body to the square, of those it can reach,
//! that leaves it farthest from every such hostile, at least 3 steps off (a body moves one
//! square a step, and a heavy one only one square a move: so it drags only when that is
//! enough), and never into a passage one square wide. Where no drag saves the body, the
//! creature has a whole turn's AP and its plan for the turn would strike nobody, it lifts the
//! body instead (MOVE-E7, 3 AP): carried, it is off the grid and cannot be finished off.
//! (Lifting whenever no drag saved the body spent turns that were worth more as blows: normal
//! against the baseline lost 4.9 points on `wolf_den`, 2.6 on the skirmish, 1,000 duels each.)
//! Otherwise it never spends AP on dragging or lifting, and it never puts a carried body down
//! (that would only give it back to the foe).

use crate::battle::{Battle, Command, CreatureId, Fighter};
use crate::rules::costs::LIFT_AP;
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

/// The drag worth making now, if any: one that takes a threatened body out of reach.
pub(super) fn worth_dragging(b: &Battle, me: CreatureId) -> Option<Command> {
    let (hostiles, fallen) = threatened_friends(b, me);
    let nearest = |fp: Footprint| hostiles.iter().map(|&h| footprint_distance(fp, h)).min().unwrap_or(i32::MAX);
    fallen.iter().find_map(|body| saving_drag(b, me, body, nearest))
}

/// The lift worth making instead of a turn whose best plan strikes nobody (`strikes`
/// false): a threatened friend no drag can save (`worth_dragging` found none), with the
/// whole turn's AP.
pub(super) fn worth_lifting(b: &Battle, me: CreatureId, strikes: bool) -> Option<Command> {
    let f = b.fighter(me);
    if strikes || f.ap < LIFT_AP || f.spent_this_turn > 0 {
        return None;
    }
    let (_, fallen) = threatened_friends(b, me);
    fallen.iter().map(|body| Command::Lift { creature: body.id }).find(|lift| b.check(me, lift).is_ok())
}

/// The lift that clears the way in a stall (`stall` the side's push, `clock::stall_push`): a
/// friend lying unconscious next to `me` in a passage one square wide, between it and the
/// nearest hostile its side perceives or last saw, plugs the only way to the fight; neither
/// band can pass its own fallen, and two bands waited behind them until `max_rounds` (The
/// Crossing's draws). Only on a turn whose plan strikes nobody, with the whole turn's AP.
pub(super) fn clearing_lift(b: &Battle, me: CreatureId, strikes: bool, stall: f64) -> Option<Command> {
    let f = b.fighter(me);
    if strikes || stall <= 0.0 || f.ap < LIFT_AP || f.spent_this_turn > 0 {
        return None;
    }
    let hostiles: Vec<Footprint> = b
        .creatures()
        .iter()
        .filter(|o| b.hostile(me, o.id) && o.can_act())
        .filter_map(|o| {
            if b.side_perceives(f.side, o.id) {
                Some(o.footprint())
            } else {
                b.last_seen(f.side, o.id).map(Footprint::single)
            }
        })
        .collect();
    let nearest = |fp: Footprint| hostiles.iter().map(|&h| footprint_distance(fp, h)).min().unwrap_or(i32::MAX);
    let mine = nearest(f.footprint());
    b.creatures()
        .iter()
        .filter(|o| o.side == f.side && o.id != me && o.is_active() && o.attrs.is_unconscious())
        .filter(|o| footprint_distance(f.footprint(), o.footprint()) == 1 && nearest(o.footprint()) < mine)
        .filter(|o| in_a_passage(b, o.origin))
        .map(|o| Command::Lift { creature: o.id })
        .find(|lift| b.check(me, lift).is_ok())
}

/// The hostiles `me`'s side perceives (their squares) and the unconscious friends next to `me`
/// within their `DANGER` distance.
fn threatened_friends(b: &Battle, me: CreatureId) -> (Vec<Footprint>, Vec<&Fighter>) {
    let f = b.fighter(me);
    let hostiles: Vec<Footprint> = b
        .perceived_hostiles(f.side)
        .into_iter()
        .map(|h| b.fighter(h))
        .filter(|h| h.can_act())
        .map(|h| h.footprint())
        .collect();
    if hostiles.is_empty() {
        return (hostiles, Vec::new());
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
    let fallen = fallen.collect();
    (hostiles, fallen)
}

/// The drag that leaves `body` at least `SAFE` steps from every hostile, if any.
fn saving_drag(b: &Battle, me: CreatureId, body: &Fighter, nearest: impl Fn(Footprint) -> i32) -> Option<Command> {
    let field = b.drag_reachable(me, body.id).ok()?;
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
    let (_, _, at) = best?;
    b.drag_command(me, body.id, at)
}
