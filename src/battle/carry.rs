//! Lifting, carrying and putting down a body (MOVE-13 [Ext], MOVE-E7): 3 AP tactical to lift
//! an unconscious creature lying next to the lifter, 3 AP to put it down on a free square next
//! to the carrier. While carried it "moves with the lifter's token" (MOVE-E7).
//!
//! Engine decisions (the seeds give the cost and nothing else):
//! - A carried creature is off the grid (`Presence::Carried`): it holds no square, is not
//!   perceived apart from its carrier and cannot be targeted or caught in an area — the
//!   carrier's body is what an attacker meets; it is held off the ground, so the carrier's
//!   hazards (FLOW-10) do not touch it, and it has no turns of its own while carried. Being lifted is forced movement (000: "被其他
//!   生物…举起移动"), so it never triggers anything itself.
//! - The weight still has to be moved: every move of the carrier (sprints included) bears the
//!   same resistance a drag adds, weight ÷ (current Might dice × 10), floored (MOVE-E7). A
//!   lifter whose burden would be at least its speed could not take a step with it, and may not
//!   lift it.
//! - The body is of one square (Medium or smaller), as with dragging; the lifter may be of any
//!   size (a brute picks up a wolf; only dragging needs a one-square dragger, whose one square
//!   left behind the body follows into). Only the unconscious are lifted (the dead leave the
//!   map; objects here are fixed doors and crates).
//! - A carrier that falls unconscious or dies lets the body fall: onto one of its own squares
//!   if it died (they are free), else onto the nearest free square. A carrier that leaves the
//!   battle — flees (FLOW-5) or is trapped in a deep pit (MOVE-12) — takes the body with it.

use super::check::{Plan, reject};
use super::state::*;
use super::types::*;
use crate::rules::costs::LIFT_AP;
use crate::rules::grid::{Footprint, Pos, footprint_distance};
use crate::rules::movement::Occupant;

impl Battle {
    /// The creature `id` carries, if any (MOVE-E7).
    pub fn carried_by(&self, id: CreatureId) -> Option<CreatureId> {
        self.creatures.get(id as usize)?.carrying
    }

    /// The check of `Command::Lift`.
    pub(super) fn plan_lift(&self, id: CreatureId, body: CreatureId) -> Result<Plan, Rejection> {
        let burden = self.check_body(id, body, "lift")?;
        let (me, b) = (&self.creatures[id as usize], &self.creatures[body as usize]);
        if burden >= me.speed.max(1) {
            return reject(
                "MOVE-E7",
                format!(
                    "{} is too heavy for {} to carry a step ({burden} resistance, speed {})",
                    b.name, me.name, me.speed
                ),
            );
        }
        if me.ap < LIFT_AP {
            return reject("TIME-8", format!("lifting needs {LIFT_AP} AP, {} has {}", me.name, me.ap));
        }
        Ok(Plan::Lift(body))
    }

    /// The check of `Command::PutDown`: a square next to the carrier that the body may lie on,
    /// free of every creature its side knows of.
    pub(super) fn plan_put_down(&self, id: CreatureId, at: Pos) -> Result<Plan, Rejection> {
        let me = &self.creatures[id as usize];
        if me.carrying.is_none() {
            return reject("MOVE-13", format!("{} carries nobody to put down", me.name));
        }
        if me.ap < LIFT_AP {
            return reject("TIME-8", format!("putting down needs {LIFT_AP} AP, {} has {}", me.name, me.ap));
        }
        if footprint_distance(me.footprint(), Footprint::single(at)) != 1 {
            return reject("MOVE-E7", format!("put the body down on a square next to {}", me.name));
        }
        if !self.map.in_bounds(at) || self.map.blocks_movement(at) {
            return reject("SPACE-1", format!("nobody can lie on {at}"));
        }
        if self.occupancy_for(id)[self.map.index(at)] != Occupant::Free {
            return reject("SPACE-E5", format!("{at} is taken"));
        }
        Ok(Plan::PutDown(at))
    }

    /// The squares next to `id` it could put its burden down on now (empty if it carries none).
    pub fn put_down_squares(&self, id: CreatureId) -> Vec<Pos> {
        let me = &self.creatures[id as usize];
        if me.carrying.is_none() {
            return Vec::new();
        }
        me.footprint()
            .cells()
            .flat_map(|c| (-1..=1).flat_map(move |dx| (-1..=1).map(move |dy| c.offset(dx, dy))))
            .filter(|&p| self.check(id, &Command::PutDown { at: p }).is_ok())
            .fold(Vec::new(), |mut v, p| {
                if !v.contains(&p) {
                    v.push(p);
                }
                v
            })
    }

    /// Execute a checked lift: the body leaves the grid and rides with `id`.
    pub(super) fn lift(&mut self, id: CreatureId, body: CreatureId) {
        self.spend(id, LIFT_AP);
        // Told before it leaves the grid, to the sides that see the body; who lifted it only to
        // those that also perceive the lifter (PERC-3).
        let lifted = |by| Event::Lifted { creature: body, by };
        self.log_views(lifted(Some(id)), |b, s| b.knows(s, body).then(|| lifted(b.knows(s, id).then_some(id))));
        let b = &mut self.creatures[body as usize];
        b.presence = Presence::Carried(id);
        b.betrayed_to.clear();
        self.creatures[id as usize].carrying = Some(body);
        self.refresh_perception_of(body);
        self.sync_perception();
    }

    /// Execute a checked put-down. A creature its side did not know of on `at` takes the
    /// square first: the body goes to another free square next to the carrier, or, with none,
    /// stays carried (the AP are spent, as a move that runs into someone).
    pub(super) fn put_down(&mut self, id: CreatureId, at: Pos) {
        self.spend(id, LIFT_AP);
        let Some(body) = self.creatures[id as usize].carrying else { return };
        let around = self.creatures[id as usize].footprint();
        // Ring 0 is the carrier's own squares, never free.
        let Some(to) =
            std::iter::once(at).filter(|&p| self.is_free_for_body(p)).chain(self.free_squares_near(around, 1)).next()
        else {
            self.log_about(Event::MoveInterrupted { creature: id, at }, &[id]);
            return;
        };
        self.set_down(id, body, to);
    }

    /// Whether a one-square body can lie on `p` now (truly: whoever stands there).
    fn is_free_for_body(&self, p: Pos) -> bool {
        self.map.in_bounds(p)
            && !self.map.blocks_movement(p)
            && !self.creatures.iter().any(|o| o.is_active() && o.footprint().contains(p))
    }

    /// The free squares (`is_free_for_body`) at SPACE-6 distance 0..=`rings` from `around`,
    /// nearest first, each ring south-west to north-east: where a body is put or falls.
    pub(super) fn free_squares_near(&self, around: Footprint, rings: i32) -> impl Iterator<Item = Pos> + '_ {
        (0..=rings).flat_map(move |r| {
            let side = around.side + 2 * r;
            (0..side)
                .flat_map(move |dx| (0..side).map(move |dy| around.origin.offset(dx - r, dy - r)))
                .filter(move |&p| footprint_distance(around, Footprint::single(p)) == r)
                .filter(|&p| self.is_free_for_body(p))
        })
    }

    /// The body carried by `id` lies on `to` again (Lying, as the unconscious do, POST-5).
    fn set_down(&mut self, id: CreatureId, body: CreatureId, to: Pos) {
        self.creatures[id as usize].carrying = None;
        let b = &mut self.creatures[body as usize];
        b.presence = Presence::Active;
        b.origin = to;
        if b.attrs.is_unconscious() {
            b.posture = crate::rules::posture::Posture::Lying;
        }
        self.refresh_perception_of(body);
        self.sync_perception();
        let put = |by| Event::PutDown { creature: body, by, at: to };
        self.log_views(put(Some(id)), |b, s| b.knows(s, body).then(|| put(b.knows(s, id).then_some(id))));
        // FLOW-10: a body put down in a hazard suffers it.
        self.suffer_hazard(body);
    }

    /// A carrier that fell unconscious or died drops its burden (see the module notes).
    pub(super) fn drop_carried(&mut self, id: CreatureId) {
        let Some(body) = self.creatures[id as usize].carrying else { return };
        let here = self.creatures[id as usize].footprint();
        let reach = self.map.width().max(self.map.height());
        let spot = self.free_squares_near(here, reach).next();
        match spot {
            Some(to) => self.set_down(id, body, to),
            // A map with no free square left anywhere: the body leaves with its carrier's fall.
            None => self.carry_off(id),
        }
    }

    /// A carrier leaving the battle takes its burden with it (FLOW-5, MOVE-12).
    pub(super) fn carry_off(&mut self, id: CreatureId) {
        let Some(body) = self.creatures[id as usize].carrying.take() else { return };
        self.creatures[body as usize].presence = Presence::Fled;
        // Only its own side still knows of the body (the others lost sight of it when it was lifted).
        self.log_about(Event::Fled { creature: body }, &[body]);
    }
}
