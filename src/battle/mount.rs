//! Mounts (MOVE-14, MOVE-E8): a rider mounts a creature whose template is a mount by a
//! posture change to Sit/Ride next to it (1 AP, POST-2) and dismounts by a change to Standing
//! onto a free square next to the mount (1 AP). The tokens are bound (SPACE-8): the rider sits
//! on the mount's south-west square and moves only with it; mount and rider keep their own
//! turns and AP, and an attacker may strike either.
//!
//! Engine decisions (the seeds say "specific actions" and no more):
//! - The mount must be a mount (`mount: true` in its template), of the rider's side, at least
//!   one size larger than the rider, conscious and without a rider; the rider of one square.
//! - While riding, the rider makes no move, drag, lift, Quick Step or posture change of its own
//!   (MOVE-14: in Sit/Ride "you cannot move by yourself"); it attacks, defends and uses items
//!   from its seat, with the Sit/Ride posture's numbers (POST table). It strikes and sees from
//!   the square it sits on, the mount's south-west square.
//! - A rider knocked out, killed or moved by force falls off; a mount knocked out, killed or
//!   gone throws its rider: either way the rider lands on the nearest free square next to the
//!   mount (Standing if conscious), as a forced change (POST-E2: free). A push that cannot
//!   take the rider off its mount (the mount's own body is in the way) leaves it seated.
//! - A rider sits above the ground: a hazard (FLOW-10) under its mount strikes the mount only.

use super::check::{Plan, reject};
use super::state::*;
use super::types::*;
use crate::rules::grid::{Footprint, Pos, footprint_distance};
use crate::rules::movement::Occupant;
use crate::rules::posture::{Posture, transition_cost};

impl Battle {
    /// The mount `id` rides, if any (MOVE-E8).
    pub fn mount_of(&self, id: CreatureId) -> Option<CreatureId> {
        self.creatures.get(id as usize)?.riding
    }

    /// The rider on `id`, if any.
    pub fn rider_of(&self, id: CreatureId) -> Option<CreatureId> {
        self.creatures.get(id as usize)?.rider
    }

    /// MOVE-14: refuse what a rider may not do by itself.
    pub(super) fn check_not_riding(&self, id: CreatureId, what: &str) -> Result<(), Rejection> {
        match self.creatures[id as usize].riding {
            Some(m) => reject(
                "MOVE-14",
                format!(
                    "{} rides {}: no {what} of its own until it dismounts",
                    self.creatures[id as usize].name, self.creatures[m as usize].name
                ),
            ),
            None => Ok(()),
        }
    }

    /// The check of `Command::Mount`.
    pub(super) fn plan_mount(&self, id: CreatureId, mount: CreatureId) -> Result<Plan, Rejection> {
        let me = &self.creatures[id as usize];
        self.check_not_riding(id, "second mount")?;
        let Some(m) = self.creatures.get(mount as usize) else {
            return reject("CRE-1", format!("there is no creature {mount}"));
        };
        if mount == id || !m.is_active() || !self.knows(me.side, mount) {
            return reject("PERC-3", "there is no mount it perceives there");
        }
        if !m.mount || m.side != me.side {
            return reject("MOVE-E8", format!("{} is not a mount of {}'s side", m.name, me.name));
        }
        if !m.can_act() {
            return reject("MOVE-E8", format!("{} is out of the fight and carries nobody", m.name));
        }
        if let Some(r) = m.rider {
            return reject("MOVE-E8", format!("{} already carries {}", m.name, self.creatures[r as usize].name));
        }
        if me.size.footprint() != 1 || (m.size as i32) <= (me.size as i32) {
            return reject("MOVE-E8", format!("{} must be larger than its rider, {}", m.name, me.name));
        }
        if me.carrying.is_some() {
            return reject("MOVE-E8", format!("{} carries a body: put it down first", me.name));
        }
        if footprint_distance(me.footprint(), m.footprint()) != 1 {
            return reject("MOVE-E8", format!("{} must stand next to {} to mount", me.name, m.name));
        }
        if !self.ruleset.postures {
            return reject("GEN-2", "postures are switched off in this ruleset, so is riding (Sit/Ride)");
        }
        let cost = transition_cost(me.posture, Posture::Sit, self.ruleset.posture_costs);
        if me.ap < cost {
            return reject("TIME-8", format!("mounting needs {cost} AP, {} has {}", me.name, me.ap));
        }
        Ok(Plan::Mount(mount, cost))
    }

    /// The check of `Command::Dismount`.
    pub(super) fn plan_dismount(&self, id: CreatureId, to: Pos) -> Result<Plan, Rejection> {
        let me = &self.creatures[id as usize];
        let Some(mount) = me.riding else {
            return reject("MOVE-E8", format!("{} rides nothing", me.name));
        };
        let cost = transition_cost(Posture::Sit, Posture::Standing, self.ruleset.posture_costs);
        if me.ap < cost {
            return reject("TIME-8", format!("dismounting needs {cost} AP, {} has {}", me.name, me.ap));
        }
        if footprint_distance(self.creatures[mount as usize].footprint(), Footprint::single(to)) != 1 {
            return reject(
                "MOVE-E8",
                format!("dismount onto a square next to {}", self.creatures[mount as usize].name),
            );
        }
        if !self.map.in_bounds(to) || self.map.blocks_movement(to) {
            return reject("SPACE-1", format!("nobody can stand on {to}"));
        }
        if self.occupancy_for(id)[self.map.index(to)] != Occupant::Free {
            return reject("SPACE-E5", format!("{to} is taken"));
        }
        Ok(Plan::Dismount(to, cost))
    }

    /// The squares `id` could dismount onto now (empty if it rides nothing).
    pub fn dismount_squares(&self, id: CreatureId) -> Vec<Pos> {
        let Some(mount) = self.creatures[id as usize].riding else { return Vec::new() };
        let fp = self.creatures[mount as usize].footprint();
        let mut out = Vec::new();
        for c in fp.cells() {
            for (dx, dy) in (-1..=1).flat_map(|dx| (-1..=1).map(move |dy| (dx, dy))) {
                let p = c.offset(dx, dy);
                if !out.contains(&p) && self.check(id, &Command::Dismount { to: p }).is_ok() {
                    out.push(p);
                }
            }
        }
        out
    }

    /// Execute a checked mount: the rider sits on the mount's south-west square.
    pub(super) fn mount_up(&mut self, id: CreatureId, mount: CreatureId, cost: i32) {
        self.spend(id, cost);
        self.creatures[id as usize].riding = Some(mount);
        self.creatures[mount as usize].rider = Some(id);
        self.creatures[id as usize].posture = Posture::Sit;
        self.log_about(Event::PostureChanged { creature: id, posture: Posture::Sit, forced: false }, &[id]);
        self.log_among(Event::Mounted { creature: id, mount }, &[id, mount]);
        self.seat_rider(mount);
    }

    /// Execute a checked dismount. A creature its side did not know of on `to` stops it: it
    /// stays mounted (the AP are spent, as a move that runs into someone).
    pub(super) fn dismount(&mut self, id: CreatureId, to: Pos, cost: i32) {
        self.spend(id, cost);
        if self.creatures.iter().any(|o| o.is_active() && o.id != id && o.footprint().contains(to)) {
            self.log_about(Event::MoveInterrupted { creature: id, at: to }, &[id]);
            return;
        }
        self.unseat(id, to, false);
    }

    /// After a mount's token moved: its rider moves with it (MOVE-E8).
    pub(super) fn seat_rider(&mut self, mount: CreatureId) {
        let Some(rider) = self.creatures[mount as usize].rider else { return };
        let at = self.creatures[mount as usize].origin;
        let r = &mut self.creatures[rider as usize];
        r.origin = at;
        r.betrayed_to.clear();
        self.refresh_perception_of(rider);
    }

    /// The rider leaves the mount for `to`: Standing unless it is down (then it stays Lying).
    fn unseat(&mut self, rider: CreatureId, to: Pos, forced: bool) {
        let Some(mount) = self.creatures[rider as usize].riding.take() else { return };
        self.creatures[mount as usize].rider = None;
        let r = &mut self.creatures[rider as usize];
        r.origin = to;
        let posture = if r.attrs.is_unconscious() { Posture::Lying } else { Posture::Standing };
        let changed = r.posture != posture;
        r.posture = posture;
        self.refresh_perception_of(rider);
        self.sync_perception();
        let off = |m| Event::Dismounted { creature: rider, mount: m, at: to, forced };
        self.log_views(off(Some(mount)), |b, s| b.knows(s, rider).then(|| off(b.knows(s, mount).then_some(mount))));
        if changed {
            self.log_about(Event::PostureChanged { creature: rider, posture, forced: true }, &[rider]);
            self.interrupt_clock(rider, "a forced posture change (POST-5)");
        }
        // FLOW-10: landing in a hazard suffers it.
        self.suffer_hazard(rider);
    }

    /// A rider or mount that fell, died or left: the rider falls off onto the nearest free
    /// square next to the mount (with none anywhere, it stays where it sat).
    pub(super) fn break_mount(&mut self, id: CreatureId) {
        let f = &self.creatures[id as usize];
        let (rider, mount) = match (f.riding, f.rider) {
            (Some(m), _) => (id, m),
            (None, Some(r)) => (r, id),
            (None, None) => return,
        };
        let fp = self.creatures[mount as usize].footprint();
        let gone = !self.creatures[mount as usize].is_active();
        // The nearest free square beside the mount (on its own squares only once it is gone).
        let reach = self.map.width().max(self.map.height());
        let spot =
            self.free_squares_near(fp, reach).find(|&p| gone || footprint_distance(fp, Footprint::single(p)) > 0);
        let to = spot.unwrap_or(self.creatures[rider as usize].origin);
        self.unseat(rider, to, true);
    }
}

impl Battle {
    /// A rider pushed off its mount lands where the push took it.
    pub(super) fn break_mount_onto(&mut self, rider: CreatureId, to: Pos) {
        self.unseat(rider, to, true);
    }

    /// A creature leaving the battle (dead, fled): a rider's seat is freed; a mount throws
    /// its rider onto the nearest free square.
    pub(super) fn leave_mount(&mut self, id: CreatureId) {
        let f = &self.creatures[id as usize];
        if let Some(mount) = f.riding {
            self.creatures[id as usize].riding = None;
            self.creatures[mount as usize].rider = None;
        } else if f.rider.is_some() {
            self.break_mount(id);
        }
    }
}
