//! Forced movement and falls as this battle applies them (MOVE-4, MOVE-11, MOVE-E5, MOVE-12,
//! MOVE-E6, MOVE-10, MOVE-E4): after an attack's batch of damage, each creature a forcing
//! weapon hurt is pushed or pulled along the ray from its attacker; over an edge it falls.

use super::state::*;
use super::types::*;
use crate::rules::creature::{Attribute, DamageType};
use crate::rules::forced::{ForcedKind, ForcedMove, ForcedPath, ForcedStop, fall_dice, forced_path};
use crate::rules::grid::{Footprint, Pos};
use crate::rules::movement::Mover;

/// MOVE-11: where a weapon's forced move would take a target the attack hurts, and the fall
/// it would cause (what a preview shows and the AI weighs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ForcedOutcome {
    pub kind: ForcedKind,
    /// The target's south-west square where it would end (at the bottom, if it falls).
    pub end: Pos,
    pub stop: ForcedStop,
    /// MOVE-12: the depth it would fall, and the dice of the fall's attack (MOVE-E4).
    pub fall_depth: Option<i32>,
    pub fall_dice: i32,
    /// The physical protection the fall's attack meets (MOVE-E4).
    pub fall_protection: i32,
}

impl Battle {
    /// The forced move `weapon` of a creature of `side` whose footprint is `source` would make
    /// on `target` standing at `at`, if the attack hurts it, as that side knows the field;
    /// None for a weapon that forces none.
    pub(super) fn forced_outcome(
        &self,
        (side, source): (usize, Footprint),
        w: &Armed,
        target: CreatureId,
        at: Pos,
    ) -> Option<ForcedOutcome> {
        let forced = w.weapon.forced?;
        let path = self.forced_path_of(target, at, source, forced, Some(side));
        let height = self.creatures[target as usize].size.body_height();
        let dice = path.fall_depth.map_or(0, |d| fall_dice(d, height));
        let (fall_dice, fall_protection) = self
            .ruleset
            .attack_resolution
            .dice_and_protection(dice, self.hazard_protection(target, Some(DamageType::Physical)));
        Some(ForcedOutcome {
            kind: forced.kind,
            end: path.end(at),
            stop: path.stop,
            fall_depth: path.fall_depth,
            fall_dice,
            fall_protection,
        })
    }

    /// MOVE-E5 where a forced move of `target` standing at `at` would go, pushed (or pulled) by
    /// a creature whose footprint is `source`; every present creature but the target blocks.
    pub(super) fn forced_path_of(
        &self,
        target: CreatureId,
        at: Pos,
        source: Footprint,
        forced: ForcedMove,
        known_to: Option<usize>,
    ) -> ForcedPath {
        let t = &self.creatures[target as usize];
        // MOVE-E8: a rider (Sit/Ride, which makes no move of its own) is knocked off as if it stood.
        let posture = if t.riding.is_some() { crate::rules::posture::Posture::Standing } else { t.posture };
        let mover = Mover { size: t.size, speed: forced.steps, sprint: false, posture, depth: 0, burden: 0 };
        // A preview counts only the creatures the asking side knows of (PERC-3); the push
        // itself meets every one.
        let occupied = |c: Pos| {
            self.creatures.iter().any(|o| {
                o.id != target
                    && o.is_active()
                    && known_to.is_none_or(|s| self.knows(s, o.id))
                    && o.footprint().contains(c)
            })
        };
        forced_path(&self.map, &mover, at, source, forced, occupied)
    }

    /// MOVE-11 (Engine decision: a weapon's forced move comes with the damage it deals, so it
    /// moves only a creature the attack hurt; the forcing side's choice of route is the ray of
    /// MOVE-E5, at its full distance). Dead creatures are not moved.
    pub(super) fn apply_forced_move(&mut self, by: CreatureId, target: CreatureId, forced: ForcedMove) {
        if self.creatures[target as usize].presence != Presence::Active {
            return;
        }
        let start = self.creatures[target as usize].origin;
        let source = self.creatures[by as usize].footprint();
        let path = self.forced_path_of(target, start, source, forced, None);
        if path.path.is_empty() {
            return;
        }
        // MOVE-11, TIME-E5: it interrupts the creature's long-term action (seconds mode: its
        // running action or keep, TIME-S2, TIME-S4).
        self.interrupt_clock(target, "forced movement (MOVE-11)");
        if self.creatures[target as usize].long_term.take().is_some() {
            self.log_about(
                Event::LongTermAborted { creature: target, reason: "forced movement (MOVE-11, TIME-E5)".into() },
                &[target],
            );
        }
        let squares: Vec<Pos> = std::iter::once(start).chain(path.path.iter().copied()).collect();
        let (kind, stop) = (forced.kind, path.stop);
        let moved = |by| Event::ForcedMoved { creature: target, by, kind, path: squares.clone(), stop };
        // Who pushed is told only to the sides that perceive the pusher (PERC-3).
        self.log_views(moved(Some(by)), |b, s| b.knows(s, target).then(|| moved(b.knows(s, by).then_some(by))));
        self.creatures[target as usize].origin = path.end(start);
        self.creatures[target as usize].betrayed_to.clear();
        self.refresh_perception_of(target);
        // MOVE-E8: a mount pushed carries its rider along; a rider pushed falls off.
        self.seat_rider(target);
        if self.creatures[target as usize].riding.is_some() && path.end(start) != start {
            self.break_mount_onto(target, path.end(start));
        }
        self.sync_perception();
        let found = self.unhide_adjacent(target);
        self.sync_perception();
        for f in found {
            self.log_about(Event::Revealed { creature: f, reason: "a hostile came adjacent".into() }, &[f]);
        }
        if let (ForcedStop::Fell, Some(depth)) = (path.stop, path.fall_depth) {
            self.fall(target, depth, start);
        }
        self.suffer_hazard(target);
    }

    /// MOVE-12 / MOVE-10 / MOVE-E4: a creature falls `depth` steps onto the square it is over;
    /// a creature already down there takes the same attack, and the faller comes to rest on
    /// the nearest free square at the bottom (else anywhere near; else where it was pushed
    /// from, `from`). MOVE-E6: it loses 1 AP at the start of its next turn.
    fn fall(&mut self, id: CreatureId, depth: i32, from: Pos) {
        let at = self.creatures[id as usize].origin;
        let fp = self.creatures[id as usize].footprint();
        let under: Option<CreatureId> = self
            .creatures
            .iter()
            .find(|o| o.id != id && o.is_active() && o.footprint().cells().any(|c| fp.contains(c)))
            .map(|o| o.id);
        let dice = fall_dice(depth, self.creatures[id as usize].size.body_height());
        let rest = match under {
            None => at,
            Some(_) => {
                let bottom = self.map.depth_under(fp);
                let side = self.creatures[id as usize].size.footprint();
                self.free_spot_where(id, at, 3, |p| self.map.depth_under(Footprint::new(p, side)) == bottom)
                    .or_else(|| self.free_spot_around(id, at))
                    .unwrap_or(from)
            }
        };
        let fell = |onto| Event::Fell { creature: id, at, depth, dice, onto, rest };
        self.log_views(fell(under), |b, s| b.knows(s, id).then(|| fell(under.filter(|&u| b.knows(s, u)))));
        self.creatures[id as usize].fell = true;
        self.interrupt_clock(id, "a fall (MOVE-12)");
        if let Some(other) = under {
            self.creatures[id as usize].origin = rest;
            self.seat_rider(id);
            self.refresh_perception_of(id);
            self.sync_perception();
            self.fall_attack(other, dice);
        }
        self.fall_attack(id, dice);
        // MOVE-12 (Engine decision: "the GM rules on very long falls"): down a drop deeper
        // than its body it cannot climb out during the fight (MOVE-9: nothing taller than the
        // body is crossed; climbing is not modelled), so it is out of the fight, alive, as if
        // it had fled (FLOW-5) — or the battle would wait on it for ever.
        let f = &self.creatures[id as usize];
        if f.is_active() && self.map.depth_under(f.footprint()) > f.size.body_height() {
            self.log_about(Event::Fled { creature: id }, &[id]);
            self.carry_off(id);
            self.leave_mount(id);
            let f = &mut self.creatures[id as usize];
            f.presence = Presence::Fled;
            f.long_term = None;
            self.refresh_perception_of(id);
            self.sync_perception();
        }
    }

    /// MOVE-E4: the fall's physical attack, reduced by physical protection and never defended
    /// (it lists no defense, ATK-11); its damage goes to Might.
    fn fall_attack(&mut self, id: CreatureId, dice: i32) {
        self.environment_attack(id, dice, Some(DamageType::Physical), &[Attribute::Might], "fall (MOVE-10)");
    }

    /// MOVE-E6: a creature that fell starts its next turn 1 AP short.
    pub(super) fn recover_from_fall(&mut self, id: CreatureId) {
        if self.seconds_mode() {
            return self.fall_gap(id);
        }
        let f = &mut self.creatures[id as usize];
        if std::mem::take(&mut f.fell) && f.ap > 0 {
            f.ap -= 1;
            let left = f.ap;
            self.log_about(Event::FallRecovery { creature: id, ap_lost: 1, left }, &[id]);
        }
    }
}
