//! Dragging a body (MOVE-13, MOVE-E7): during a move, an unconscious creature lying
//! next to the mover is pulled along; it adds weight ÷ (Might × 10) resistance to every step
//! and follows into the last square the mover leaves.
//!
//! Engine decisions: the dragger and the body are each one square (Medium or smaller), so the
//! vacated square always fits the body; a drag is a plain move (no sprint); the path may not
//! cross the body's own square. The dead leave the map in this engine, so MOVE-13's "dead
//! creature" has no token left to drag.

use super::check::{Plan, reject};
use super::state::*;
use super::types::*;
use crate::rules::creature::{Attribute, drag_resistance};
use crate::rules::facing::Facing;
use crate::rules::grid::{Pos, footprint_distance};
use crate::rules::movement::{MoveField, Mover, Occupant, reachable, validate_path};
use crate::rules::passage::cuts_the_way;

impl Battle {
    /// SPACE-9, SPACE-E6: would a body of one square left lying on `at` cut the way between
    /// the squares around it (a corridor one square wide, or its mouth)? There it blocks its
    /// own side as much as the foe, so a planner choosing where to drag a body asks this.
    pub fn body_plugs_a_way(&self, at: Pos) -> bool {
        cuts_the_way(&self.map, at)
    }

    /// MOVE-13, MOVE-E7: the resistance `id` drags `body` with (None: no Might left).
    pub fn drag_resistance(&self, id: CreatureId, body: CreatureId) -> Option<i32> {
        let (me, b) = (self.creatures.get(id as usize)?, self.creatures.get(body as usize)?);
        drag_resistance(b.weight, me.attrs.dice(Attribute::Might))
    }

    /// MOVE-13, MOVE-E7 for dragging and lifting alike (`verb`: "drag" or "lift"): a body
    /// its side perceives, unconscious, of one square, lying next to `id`, and `id` with Might
    /// dice to move it with and no body in its arms; the resistance it would add.
    pub(super) fn check_body(&self, id: CreatureId, body: CreatureId, verb: &str) -> Result<i32, Rejection> {
        let Some(b) = self.creatures.get(body as usize) else {
            return reject("CRE-1", format!("there is no creature {body}"));
        };
        let me = &self.creatures[id as usize];
        if let Some(c) = me.carrying {
            let held = &self.creatures[c as usize].name;
            return reject("MOVE-E7", format!("{} carries {held}: one body at a time", me.name));
        }
        if body == id || !b.is_active() || !self.knows(me.side, body) {
            return reject("PERC-3", format!("there is no body it perceives to {verb}"));
        }
        // The dead leave the battle's map (`Presence::Dead`), so only the unconscious remain.
        if !b.attrs.is_unconscious() {
            return reject("MOVE-13", format!("{} is conscious: only an unconscious creature is moved so", b.name));
        }
        if b.size.footprint() != 1 {
            return reject("MOVE-E7", format!("only a body of one square (Medium or smaller) is moved so ({verb})"));
        }
        if footprint_distance(me.footprint(), b.footprint()) != 1 {
            return reject("MOVE-E7", format!("{} must lie next to {} to {verb} it", b.name, me.name));
        }
        self.drag_resistance(id, body)
            .ok_or_else(|| Rejection::new("MOVE-13", format!("{} has no Might dice to {verb} with", me.name)))
    }

    /// Why `id` may not drag `body` now, or the mover it would drag it as.
    fn drag_mover(&self, id: CreatureId, body: CreatureId) -> Result<Mover, Rejection> {
        let extra = self.check_body(id, body, "drag")?;
        // Engine decision: the body follows into the one square the dragger left (MOVE-E7),
        // which a dragger of several squares does not have; it lifts instead (`carry`).
        if self.creatures[id as usize].size.footprint() != 1 {
            return reject(
                "MOVE-E7",
                "only a creature of one square (Medium or smaller) drags a body; a larger one lifts it",
            );
        }
        let mover = self.mover(id, false);
        Ok(Mover { burden: mover.burden + extra, ..mover })
    }

    /// The check of `Command::Drag`.
    pub(super) fn plan_drag(
        &self,
        id: CreatureId,
        body: CreatureId,
        path: &[Pos],
        face: Option<Facing>,
    ) -> Result<Plan, Rejection> {
        self.check_move_path(id, path, face)?;
        let mover = self.drag_mover(id, body)?;
        let lies = self.creatures[body as usize].origin;
        if path.contains(&lies) {
            return reject("MOVE-E7", format!("the path crosses the square {lies} the body lies on"));
        }
        self.check_hold(id, path)?;
        let occupancy = self.occupancy_for(id);
        let cost = validate_path(&self.map, Some(&occupancy), &mover, path)
            .map_err(|e| Rejection::new(e.rule(), e.to_string()))?;
        // The body's last square must hold nobody it could be put on (a Tiny creature the
        // dragger may pass over, SPACE-9).
        let rests = path[path.len() - 2];
        if occupancy[self.map.index(rests)] != Occupant::Free && rests != path[0] {
            return reject("SPACE-E5", format!("the body would end on another creature at {rests}"));
        }
        Ok(Plan::Move { path: path.to_vec(), cost, sprint: false, face, drag: Some(body) })
    }

    /// Where `id` could end a move dragging `body` (the query behind the window's drag reach),
    /// or the rule that keeps it from dragging.
    pub fn drag_reachable(&self, id: CreatureId, body: CreatureId) -> Result<MoveField, Rejection> {
        self.may_move_now(id)?;
        let mover = self.drag_mover(id, body)?;
        let mut occupancy = self.occupancy_for(id);
        // The body's square is not on the way (MOVE-E7 here).
        let lies = self.creatures[body as usize].origin;
        occupancy[self.map.index(lies)] = Occupant::Blocked;
        reachable(&self.map, Some(&occupancy), &mover, self.creatures[id as usize].origin)
            .map_err(|e| Rejection::new(e.rule(), e.to_string()))
    }

    /// The cheapest drag of `body` by `id` to `at`, as a command, if the engine would accept it.
    pub fn drag_command(&self, id: CreatureId, body: CreatureId, at: Pos) -> Option<Command> {
        let path = self.drag_reachable(id, body).ok()?.path_to(at)?;
        let command = Command::Drag { creature: body, path, face: None };
        self.check(id, &command).is_ok().then_some(command)
    }

    /// After the dragger's walk along `walked`: the body follows into the last square left,
    /// unless a creature the dragger's side did not know of stands there (then it stays).
    pub(super) fn pull_body(&mut self, id: CreatureId, body: CreatureId, walked: &[Pos]) {
        let Some(&to) = walked.len().checked_sub(2).and_then(|k| walked.get(k)) else { return };
        if !self.creatures[body as usize].is_active() || self.creatures[id as usize].origin != walked[walked.len() - 1]
        {
            return;
        }
        let taken = self.creatures.iter().any(|o| o.id != body && o.is_active() && o.footprint().contains(to));
        if taken {
            return;
        }
        let from = self.creatures[body as usize].origin;
        self.creatures[body as usize].origin = to;
        self.creatures[body as usize].betrayed_to.clear();
        self.refresh_perception_of(body);
        self.sync_perception();
        // Who dragged it is told only to the sides that perceive the dragger (PERC-3).
        let dragged = |by| Event::Dragged { creature: body, by, from, to };
        self.log_views(dragged(Some(id)), |b, s| b.knows(s, body).then(|| dragged(b.knows(s, id).then_some(id))));
        // FLOW-10: a body dragged into a hazard ends its (forced) move there.
        self.suffer_hazard(body);
    }
}
