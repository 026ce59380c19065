//! Dangerous terrain as this battle applies it (FLOW-10). Engine decision: a hazard strikes a
//! creature that ends a move in it (walked, sprinted, knocked back or towed) and one that
//! starts its turn in it — once each time, not per square crossed, so a creature may dash
//! through fire unharmed but not stand in it; the worst hazard under its footprint counts.

use super::state::*;
use super::types::*;
use crate::rules::attack::{DamageModifiers, effective_protection, resolve_segment};
use crate::rules::creature::{Attribute, DamageType};
use crate::rules::dice::roll_faces;
use crate::rules::grid::Pos;
use crate::rules::hazard::Hazard;

/// A hazard's numbers for one creature: what the AI weighs before standing there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HazardNumbers {
    pub dice: i32,
    /// The protection its attack meets (0 for a true attack).
    pub protection: i32,
    pub drain: i32,
}

impl Battle {
    /// The hazard that would strike `id` with its footprint's south-west square at `at`, if any
    /// (FLOW-10: one it is adapted to spares it).
    pub(super) fn hazard_for(&self, id: CreatureId, at: Pos) -> Option<&Hazard> {
        if !self.map.terrains().iter().any(|t| t.hazard.is_some()) {
            return None;
        }
        let f = &self.creatures[id as usize];
        crate::rules::grid::Footprint::new(at, f.size.footprint())
            .cells()
            .filter(|&c| self.map.in_bounds(c))
            .filter_map(|c| self.map.terrain(c).hazard.as_ref())
            .filter(|h| !f.adapted.iter().any(|a| a.eq_ignore_ascii_case(&h.kind)))
            .max_by_key(|h| h.severity())
    }

    /// What standing with its south-west square at `at` would cost `id` by FLOW-10.
    pub fn hazard_numbers(&self, id: CreatureId, at: Pos) -> Option<HazardNumbers> {
        let h = self.hazard_for(id, at)?;
        let protection = self.hazard_protection(id, h.damage);
        let (dice, protection) = self.ruleset.attack_resolution.dice_and_protection(h.dice, protection);
        Some(HazardNumbers { dice, protection, drain: h.drain })
    }

    /// The protection of `id` against an attack by the surroundings of this type (none for a
    /// true attack): no cover, no penetration.
    pub(super) fn hazard_protection(&self, id: CreatureId, damage: Option<DamageType>) -> i32 {
        damage.map_or(0, |d| effective_protection(self.creatures[id as usize].protection.against(d), 0, 0, false))
    }

    /// FLOW-10: the hazard where `id` stands (if any) strikes it now.
    pub(super) fn suffer_hazard(&mut self, id: CreatureId) {
        // MOVE-E8 (Engine decision): a rider sits above the ground its mount stands on.
        if self.creatures[id as usize].presence != Presence::Active || self.creatures[id as usize].riding.is_some() {
            return;
        }
        let at = self.creatures[id as usize].origin;
        let Some(h) = self.hazard_for(id, at).cloned() else { return };
        self.log_about(Event::HazardStruck { creature: id, kind: h.kind.clone(), at }, &[id]);
        let purpose = format!("{} (FLOW-10)", h.kind);
        self.environment_attack(id, h.dice, h.damage, &h.targets, &purpose);
        if h.drain > 0 && self.creatures[id as usize].is_active() {
            self.remove_dice(id, h.targets[0], h.drain);
        }
        self.check_unconscious(&[id]);
    }

    /// An attack by the surroundings (a hazard, a fall: MOVE-E4): rolled, met by protection
    /// (none for a true attack), never defended, its damage allocated like any attack's.
    pub(super) fn environment_attack(
        &mut self,
        id: CreatureId,
        dice: i32,
        damage: Option<DamageType>,
        targets: &[Attribute],
        purpose: &str,
    ) {
        if dice <= 0 || self.creatures[id as usize].presence != Presence::Active {
            return;
        }
        let protection = self.hazard_protection(id, damage);
        let (dice, protection) = self.ruleset.attack_resolution.dice_and_protection(dice, protection);
        let faces = roll_faces(&mut self.rng, dice);
        let pts = self.ruleset.dice_points.points(&faces) as i32;
        self.log_about(Event::Rolled { creature: id, purpose: purpose.to_string(), faces, points: pts }, &[id]);
        let out = resolve_segment(pts, protection, None, &DamageModifiers::default(), 0);
        if out.damage <= 0 {
            return;
        }
        self.deal_damage(id, targets, out.damage);
        self.check_unconscious(&[id]);
    }
}
