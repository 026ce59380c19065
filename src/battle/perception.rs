//! Who perceives whom (PERC-E1..E5, FACE-4), what each side knows, and which sides may see an
//! event.

use super::state::*;
use super::types::*;
use crate::rules::facing::{Actor, Sector, sector_for};
use crate::rules::grid::{Footprint, Pos, footprint_distance};
use crate::rules::los::clear_line;

impl Battle {
    /// Does `viewer` perceive `target` right now (PERC-E2)?
    pub fn perceives(&self, viewer: CreatureId, target: CreatureId) -> bool {
        self.perceives[viewer as usize * self.n() + target as usize]
    }

    /// Does any conscious member of `side` perceive `target` (or is it their own)?
    pub fn side_perceives(&self, side: usize, target: CreatureId) -> bool {
        let t = &self.creatures[target as usize];
        if t.side == side {
            return !matches!(t.presence, Presence::Waiting(_));
        }
        self.creatures.iter().any(|m| m.side == side && m.can_act() && self.perceives(m.id, target))
    }

    /// Full perception test for one pair (PERC-E1..E5, FACE-4).
    pub(super) fn compute_perceives(&self, viewer: CreatureId, target: CreatureId) -> bool {
        if viewer == target {
            return true;
        }
        let (v, t) = (&self.creatures[viewer as usize], &self.creatures[target as usize]);
        self.perceives_placed(v, v.placement(), t, t.origin)
    }

    /// PERC-E1..E5 for `v` standing at `at` and `t` at `t_origin` (the query API's "what if").
    pub(super) fn perceives_placed(&self, v: &Fighter, at: Placement, t: &Fighter, t_origin: Pos) -> bool {
        if v.id == t.id {
            return true;
        }
        if !v.can_act() || !t.is_active() {
            return false;
        }
        let (vf, tf) = (Footprint::new(at.origin, v.size.footprint()), Footprint::new(t_origin, t.size.footprint()));
        let d = footprint_distance(vf, tf);
        // PERC-E2: adjacent creatures are always perceived.
        if d <= 1 {
            return true;
        }
        if t.hidden.is_some() {
            return false;
        }
        let line = || vf.cells().any(|a| tf.cells().any(|b| clear_line(&self.map, a, b)));
        let noisy = t.noisy_round.is_some_and(|r| r + 1 >= self.round);
        // Vision: range, blind side, light, line.
        if v.senses.vision > 0 && d <= v.senses.vision {
            let blind = self.ruleset.facing
                && sector_for(vf, at.facing, self.ruleset.facing_arcs, tf, Actor::Perceiver) == Some(Sector::Rear);
            let lit = v.senses.darkvision || tf.cells().any(|c| !self.map.terrain(c).dark);
            if !blind && lit && line() {
                return true;
            }
        }
        // PERC-E5: hearing needs an audible target and a line sound passes along.
        if v.senses.hearing > 0 && d <= v.senses.hearing && noisy && line() {
            return true;
        }
        // A non-visual sense (tremor): ignores light and facing, needs an active target.
        v.senses.tremor > 0 && d <= v.senses.tremor && noisy
    }

    /// Recompute every pair involving `id` (as viewer or target).
    pub(super) fn refresh_perception_of(&mut self, id: CreatureId) {
        let n = self.n();
        for other in 0..n as CreatureId {
            let a = self.compute_perceives(id, other);
            self.perceives[id as usize * n + other as usize] = a;
            let b = self.compute_perceives(other, id);
            self.perceives[other as usize * n + id as usize] = b;
        }
    }

    /// A snapshot of what each side perceives, to diff after a change.
    pub(super) fn side_knowledge(&self) -> Vec<bool> {
        let mut k = vec![false; self.n() * self.sides.len()];
        for s in 0..self.sides.len() {
            for t in 0..self.n() {
                k[s * self.n() + t] = self.creatures[t].is_active() && self.side_perceives(s, t as CreatureId);
            }
        }
        k
    }

    /// Where `side` last perceived `creature`, if it still believes it is there.
    pub fn last_seen(&self, side: usize, creature: CreatureId) -> Option<Pos> {
        self.last_seen[side * self.n() + creature as usize]
    }

    /// Log Spotted / LostSight for enemies each side gained or lost (own creatures excluded),
    /// and update each side's memory of where it saw them.
    pub(super) fn emit_perception_changes(&mut self, before: &[bool]) {
        let after = self.side_knowledge();
        let n = self.n();
        for s in 0..self.sides.len() {
            for t in 0..n {
                let slot = s * n + t;
                if after[slot] {
                    self.last_seen[slot] = Some(self.creatures[t].origin);
                } else if let Some(p) = self.last_seen[slot] {
                    let looked = self.creatures.iter().any(|m| {
                        m.side == s && m.can_act() && footprint_distance(m.footprint(), Footprint::single(p)) <= 1
                    });
                    if looked || !self.creatures[t].is_active() {
                        self.last_seen[slot] = None;
                    }
                }
            }
        }
        for s in 0..self.sides.len() {
            for t in 0..self.n() {
                if self.creatures[t].side == s {
                    continue;
                }
                let (was, is) = (before[s * self.n() + t], after[s * self.n() + t]);
                let side = self.sides[s].name.clone();
                if is && !was {
                    self.log_to(Event::Spotted { side: side.clone(), creature: t as CreatureId }, vec![side]);
                } else if was && !is {
                    self.log_to(Event::LostSight { side: side.clone(), creature: t as CreatureId }, vec![side]);
                }
            }
        }
    }

    /// Sides that may see an event about these creatures: their own sides, and every side that
    /// perceives one of them.
    pub(super) fn witnesses(&self, subjects: &[CreatureId]) -> Vec<String> {
        (0..self.sides.len())
            .filter(|&s| subjects.iter().any(|&c| self.creatures[c as usize].side == s || self.side_perceives(s, c)))
            .map(|s| self.sides[s].name.clone())
            .collect()
    }

    pub(super) fn log_about(&mut self, event: Event, subjects: &[CreatureId]) {
        let w = self.witnesses(subjects);
        self.log_to(event, w);
    }
}
