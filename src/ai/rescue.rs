//! Dragging a fallen friend out of reach (MOVE-13): when a friend lies unconscious next to the
//! creature and a hostile its side perceives stands within 2 steps of the body (where it could
//! finish it off, FLOW-7), the creature drags the body to the square, of those it can reach,
//! that leaves it farthest from every such hostile, at least 3 steps off (a body moves one
//! square a step, and a heavy one only one square a move: so it drags only when that is
//! enough), and never where the body would plug the way (`Battle::body_plugs_a_way`: a
//! passage one square wide, or its mouth; there it blocks its own side as much as the foe's,
//! and a drag only moves the plug — dragged from a corridor onto its mouth, a body shut its
//! own band out of the fight until `max_rounds` on The Crossing). Where no drag saves the
//! body, the creature has a whole turn's AP and its plan for the turn would strike nobody, it
//! lifts the body instead (MOVE-E7, 3 AP): carried, it is off the grid and cannot be finished
//! off.
//! (Lifting whenever no drag saved the body spent turns that were worth more as blows: normal
//! against the baseline lost 4.9 points on `wolf_den`, 2.6 on the skirmish, 1,000 duels each.)
//! In a stall it lifts a body shutting its way to the fight (`clearing_lift`) and puts a
//! carried body down behind it where no foe is near (`setting_down`). Otherwise it never
//! spends AP on dragging or lifting, and it never puts a carried body down (that would only
//! give it back to the foe).

use crate::battle::{Battle, Command, CreatureId, Fighter};
use crate::rules::costs::LIFT_AP;
use crate::rules::grid::{Footprint, Pos, footprint_distance};
use crate::rules::movement::MoveField;

/// How close a hostile must be for the body to be in danger, and how far the drag must take
/// it: beyond a reach-2 weapon and a step.
const DANGER: i32 = 2;
const SAFE: i32 = 3;

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

/// The lift that clears the way in a stall: a body lying unconscious next to `me` (a friend's
/// or a foe's) without which it could walk up to where the way leads (`way_goal`), or come
/// nearer to it (with more bodies in the way, the rest are for its friends: a carrier lifts no
/// second body). Bodies do not move of themselves: neither band could pass its own fallen in a
/// one-square passage, and two bands waited behind them until `max_rounds` (The Crossing's
/// draws); a Large brute in a two-square corridor was shut in by one wolf's body (The Brute in
/// the Corridor's). Only on a turn whose plan strikes nobody, with the whole turn's AP, once
/// the stall pushes its side fully (`stall` 1, `clock::stall_push`) and not under fire:
/// lifting as soon as it began, a creature lifted the friend that had just fallen between it
/// and the foe, opening the way for the foe and standing there with no AP to defend (normal
/// against the baseline lost 3.5 points on The Crossing, 1,000 duels), and lifting under fire
/// doubled the battles counted passive there.
pub(super) fn clearing_lift(b: &Battle, me: CreatureId, strikes: bool, stall: f64) -> Option<Command> {
    let f = b.fighter(me);
    if !stall_chore_allowed(b, f, strikes, stall) {
        return None;
    }
    let bodies: Vec<&Fighter> = b
        .creatures()
        .iter()
        .filter(|o| o.id != me && o.is_active() && o.attrs.is_unconscious())
        .filter(|o| footprint_distance(f.footprint(), o.footprint()) == 1)
        .filter(|o| b.check(me, &Command::Lift { creature: o.id }).is_ok())
        .collect();
    if bodies.is_empty() {
        return None;
    }
    let goal = way_goal(b, me)?;
    // How far from the goal the bodies keep it: 0 if it can walk up to it, else the walk
    // (bodies ignored) left from the nearest square it can walk to. Walking, not straight
    // distance: in a bend of a one-square corridor, lifting the first of two bodies gained no
    // straight distance, so neither was lifted and the band waited until `max_rounds`.
    let side = f.size.footprint();
    let from_goal = b.journey_costs(me, goal.origin);
    let kept_off = |lifted: Option<CreatureId>| {
        let field = b.journey_costs_past_bodies(me, f.origin, lifted);
        if walks_beside(&field, goal, side) {
            0
        } else {
            field.destinations().filter_map(|p| from_goal.cost_quarters(p)).min().map_or(u64::MAX, u64::from)
        }
    };
    let now = kept_off(None);
    // The body whose lifting brings it nearest (ties: the lowest id, for replays).
    (now > 0)
        .then(|| bodies.into_iter().map(|o| (kept_off(Some(o.id)), o.id)).filter(|&(k, _)| k < now).min())
        .flatten()
        .map(|(_, creature)| Command::Lift { creature })
}

/// When a stall's chore with a body (a 3-AP lift or put-down) may take a creature's turn: one
/// whose plan strikes nobody, with the whole turn's AP, once the stall pushes its side fully,
/// and not under fire (hurt this round or the last: then a side moves rather than spend a turn
/// on a body).
fn stall_chore_allowed(b: &Battle, f: &Fighter, strikes: bool, stall: f64) -> bool {
    !strikes
        && stall >= 1.0
        && f.ap >= LIFT_AP
        && f.spent_this_turn == 0
        && crate::ai::clock::rounds_since_hurt(b, f.side) > 1
}

/// Where the way it clears leads: the nearest hostile its side perceives standing or last saw
/// (and did not see go down); with none, the hunt's goal (`ai::hunting_goal`: a sighting of a
/// foe seen to fall, else the nearest square its side does not see by a walk that ignores
/// bodies, else the map's centre) — a band that never saw the foe behind its fallen waited
/// there until `max_rounds` (The Crossing's draws against the baseline).
fn way_goal(b: &Battle, me: CreatureId) -> Option<Footprint> {
    let f = b.fighter(me);
    b.creatures()
        .iter()
        .filter(|o| b.hostile(me, o.id))
        .filter_map(|o| {
            // Perceived, its state is seen; out of sight, what the side saw last stands.
            if b.side_perceives(f.side, o.id) {
                o.can_act().then(|| o.footprint())
            } else if b.seen_down(f.side, o.id) {
                None
            } else {
                b.last_seen(f.side, o.id).map(Footprint::single)
            }
        })
        .min_by_key(|&h| footprint_distance(f.footprint(), h))
        .or_else(|| super::hunting_goal(b, me, &[]))
}

/// MOVE-E7: in a stall, a one-square carrier puts its burden down behind it, where the body plugs no
/// passage and no hostile its side perceives stands within `DANGER` of it: the weight slows
/// every step, and a carrier lifts no second body, so one that lifted a body out of a
/// corridor to clear the way stood holding it, unable to clear the next (The Crossing's draws).
/// Asked only of a turn that would end where it stands (a carrier walking on toward the fight
/// keeps its burden); then the conditions of `clearing_lift`: no strike, the whole turn's AP,
/// the stall pushing its side fully, not under fire. Behind = the square farthest from the
/// way's goal by walking (ties: the first in `put_down_squares`' order, for replays).
pub(super) fn setting_down(b: &Battle, me: CreatureId, strikes: bool, stall: f64) -> Option<Command> {
    let f = b.fighter(me);
    if f.carrying.is_none() || !stall_chore_allowed(b, f, strikes, stall) {
        return None;
    }
    // The last of its side able to act shuts no friend out behind it: in the bend of a corridor
    // one square wide, with a second body ahead, the only square free was the passage it came
    // by, and the carrier stood holding its burden until `max_rounds` (The Crossing's draws).
    let alone = super::situation::last_of_its_side(b, me);
    // Otherwise only a one-square carrier: `body_plugs_a_way` knows passages one square wide,
    // and a body left in a two-square corridor would shut a Large carrier in (it walks on with
    // it). Alone, a Large carrier sets its burden down too: a brute holding a wolf's body could
    // not lift the next body in its way, and stood there until `max_rounds` (The Brute in the
    // Corridor's draws).
    if f.size.footprint() > 1 && !alone {
        return None;
    }
    let hostiles = standing_hostiles(b, f.side);
    let goal = way_goal(b, me)?;
    let from_goal = b.journey_costs(me, goal.origin);
    b.put_down_squares(me)
        .into_iter()
        .filter(|&p| alone || !b.body_plugs_a_way(p))
        .filter(|&p| hostiles.iter().all(|&h| footprint_distance(Footprint::single(p), h) > DANGER))
        // `max_by_key` keeps the last of equals: reversed, the first.
        .rev()
        .max_by_key(|&p| from_goal.cost_quarters(p).map_or(-1, i64::from))
        .map(|at| Command::PutDown { at })
}

/// Whether `field` reaches a square where a footprint of `side` squares can stop next to
/// `goal` (not one it may only pass, over a smaller body).
fn walks_beside(field: &MoveField, goal: Footprint, side: i32) -> bool {
    let (o, n) = (goal.origin, goal.side);
    (o.y - side..=o.y + n)
        .flat_map(|y| (o.x - side..=o.x + n).map(move |x| Pos::new(x, y)))
        .filter(|&p| footprint_distance(Footprint::new(p, side), goal) <= 1)
        .any(|p| field.can_end_at(p))
}

/// The squares of the hostiles `side` perceives that can act.
fn standing_hostiles(b: &Battle, side: usize) -> Vec<Footprint> {
    b.perceived_hostiles(side)
        .into_iter()
        .map(|h| b.fighter(h))
        .filter(|h| h.can_act())
        .map(|h| h.footprint())
        .collect()
}

/// The hostiles `me`'s side perceives (their squares) and the unconscious friends next to `me`
/// within their `DANGER` distance.
fn threatened_friends(b: &Battle, me: CreatureId) -> (Vec<Footprint>, Vec<&Fighter>) {
    let f = b.fighter(me);
    let hostiles = standing_hostiles(b, f.side);
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
        .filter(|&(_, _, at)| !b.body_plugs_a_way(field.path_to(at).map(|p| p[p.len() - 2]).unwrap_or(at)))
        .max();
    let (_, _, at) = best?;
    b.drag_command(me, body.id, at)
}
