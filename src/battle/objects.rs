//! Objects as this battle applies them (ATK-16, ATK-E6): attacking one (it cannot defend, its
//! material's protection applies, damage accumulates, at its durability it breaks and its
//! square becomes rubble) and opening or closing a door.
//!
//! Engine decision, doors: opening or closing one is a 1-AP tactical action of a creature next
//! to it (SPACE-E6 adjacency). TIME-17's table has no door; 1 AP is what its simplest
//! manipulations cost (pick up, drop a trivial item) and about one second (GEN-E4); a door no
//! dearer than a step keeps doors a tactical choice, not a wall. A creature in the doorway
//! keeps it from closing.

use super::check::{Plan, reject};
use super::state::*;
use super::types::*;
use crate::rules::attack::range_dice_modifier;
use crate::rules::dice::roll_faces;
use crate::rules::grid::{Footprint, Pos, adjacent, footprint_distance};
use crate::rules::los::line_of_effect;
use crate::rules::objects::{ObjectDef, ObjectKind, looks, protection};

/// AP to open or close a door (Engine decision, above).
pub const DOOR_AP: i32 = 1;

/// One object in the battle, as it stands now.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectState {
    pub def: ObjectDef,
    /// ATK-E6: damage taken so far; broken at `durability`.
    pub damage: i32,
    pub durability: i32,
    pub broken: bool,
    pub open: bool,
}

impl ObjectState {
    pub fn new(def: &ObjectDef) -> Self {
        ObjectState { def: def.clone(), damage: 0, durability: def.durability(), broken: false, open: def.open }
    }
    pub fn at(&self) -> Pos {
        Pos::new(self.def.at.0, self.def.at.1)
    }
    /// What it is, in a sentence's words ("the wood door").
    pub fn describe(&self) -> String {
        format!("the {:?} {:?}", self.def.material, self.def.kind).to_lowercase()
    }
}

impl Battle {
    /// The objects on the map (broken ones included: ATK-16, a broken object still exists).
    pub fn objects(&self) -> &[ObjectState] {
        &self.objects
    }

    /// The intact object at `p`, if there is one.
    pub fn object_at(&self, p: Pos) -> Option<usize> {
        self.objects.iter().position(|o| !o.broken && o.at() == p)
    }

    fn set_look(&mut self, at: Pos, name: &str) {
        // The engine's looks are the map's last terrains (a level may name its own "rubble").
        let index = self.map.terrains().iter().rposition(|t| t.name == name).expect("objects' looks are on the map");
        self.map.set_terrain(at, index as u16);
        // Sight lines through the square changed: everyone looks again.
        for id in 0..self.creatures.len() as CreatureId {
            self.refresh_perception_of(id);
        }
        self.sync_perception();
    }

    /// ATK-16: an attack with a single-target weapon on the object at `at`.
    pub(super) fn plan_object_attack(
        &self,
        id: CreatureId,
        w: &Armed,
        at: Pos,
        (cost, extra, additives): (i32, i32, &[String]),
        prepaid: bool,
    ) -> Result<Plan, Rejection> {
        let me = &self.creatures[id as usize];
        let Some(object) = self.object_at(at) else {
            return reject("ATK-4", format!("{} needs a creature or an object as its target", w.weapon.name));
        };
        let o = &self.objects[object];
        if protection(o.def.material, &o.def.conditions, w.weapon.damage).is_none() {
            return reject("ATK-16", format!("{} is immune to {}", o.describe(), w.weapon.name));
        }
        let d = footprint_distance(me.footprint(), Footprint::single(at));
        let modifier = range_dice_modifier(w.weapon.range, d, self.ruleset.overreach).map_err(|o| {
            Rejection::new("ATK-4", format!("{at} is {} steps away; {} reaches {}", o.distance, w.weapon.name, o.max))
        })?;
        if d > 1 && !line_of_effect(&self.map, me.origin, at) {
            return reject("ATK-E2", format!("no line of effect to {at}"));
        }
        if d <= 1 && !me.footprint().cells().any(|c| adjacent(&self.map, c, at)) {
            return reject("SPACE-E6", format!("{at} is cut off by the corner"));
        }
        if !prepaid && cost > me.ap {
            if me.ap < 1 {
                return reject("TIME-8", format!("needs {cost} AP, {} has none", me.name));
            }
            let (weapon, target) = (w.key.clone(), Target::Square(at));
            return Ok(Plan::LongTerm { weapon, target, additives: additives.to_vec(), cost });
        }
        let penalty = self.attack_penalty(me.posture, crate::rules::posture::Posture::Standing, w.weapon.range.ranged);
        let dice = w.weapon.dice.dice_for(&me.attrs) + extra + modifier - penalty;
        Ok(Plan::AttackObject { object, weapon: w.key.clone(), dice, cost: if prepaid { 0 } else { cost } })
    }

    /// ATK-E6: objects cannot defend; each segment's points beyond the material's protection
    /// are damage; at cumulative damage ≥ durability it breaks and its square is rubble.
    pub(super) fn attack_object(&mut self, id: CreatureId, object: usize, weapon: &str, dice: i32, cost: i32) {
        self.spend(id, cost);
        let at = self.objects[object].at();
        self.creatures[id as usize].noisy_round = Some(self.round);
        if self.creatures[id as usize].hidden.is_some() {
            self.reveal(id, "it attacked".into());
        }
        self.log_about(Event::ObjectAttacked { attacker: id, weapon: weapon.to_string(), at, dice }, &[id]);
        let Some(w) = self.creatures[id as usize].weapons.iter_mut().find(|w| w.key == weapon) else { return };
        if let Some(a) = &mut w.ammo {
            *a = a.saturating_sub(1);
            let left = *a;
            self.log_about(Event::AmmoSpent { creature: id, weapon: weapon.to_string(), left }, &[id]);
        }
        let w = self.creatures[id as usize].weapon(weapon).expect("found above").weapon.clone();
        let o = &self.objects[object];
        let guard = protection(o.def.material, &o.def.conditions, w.damage).unwrap_or(0);
        let guard = (guard - w.penetration).max(0);
        let (dice, guard) = self.ruleset.attack_resolution.dice_and_protection(dice, guard);
        for segment in 0..w.segments.max(1) {
            let faces = roll_faces(&mut self.rng, dice.max(0));
            let pts = self.ruleset.dice_points.points(&faces) as i32;
            let purpose = format!("attack on {}, segment {}", self.objects[object].describe(), segment + 1);
            self.log_about(Event::Rolled { creature: id, purpose, faces, points: pts }, &[id]);
            let damage = (pts - guard).max(0);
            let o = &mut self.objects[object];
            o.damage += damage;
            let (total, durability) = (o.damage, o.durability);
            self.log_about(Event::ObjectDamaged { at, protection: guard, damage, total, durability }, &[id]);
            if total >= durability {
                self.objects[object].broken = true;
                self.log_about(Event::ObjectBroken { at }, &[id]);
                self.set_look(at, looks::RUBBLE);
                break;
            }
        }
        self.check_victory(false);
    }

    /// The door-operating command checked: next to an intact door, a change of state, nobody in
    /// the doorway when closing, and the AP.
    pub(super) fn plan_door(&self, id: CreatureId, at: Pos, open: bool) -> Result<Plan, Rejection> {
        let me = &self.creatures[id as usize];
        let door = self.object_at(at).filter(|&i| self.objects[i].def.kind == ObjectKind::Door);
        let Some(door) = door else {
            return reject("ATK-16", format!("there is no intact door at {at}"));
        };
        if !me.footprint().cells().any(|c| adjacent(&self.map, c, at)) || me.footprint().contains(at) {
            return reject("SPACE-E6", format!("{} must stand next to the door at {at}", me.name));
        }
        if self.objects[door].open == open {
            return reject("ATK-16", format!("the door at {at} is already {}", if open { "open" } else { "closed" }));
        }
        // Only someone its side knows of keeps it from trying (PERC-3): an unseen creature in
        // the doorway makes the attempt fail when made (`operate_door`).
        if !open
            && self.creatures.iter().any(|o| o.is_active() && self.knows(me.side, o.id) && o.footprint().contains(at))
        {
            return reject("SPACE-E5", format!("someone stands in the doorway at {at}"));
        }
        if me.ap < DOOR_AP {
            return reject("TIME-8", format!("needs {DOOR_AP} AP, {} has {}", me.name, me.ap));
        }
        Ok(Plan::Door { door, open })
    }

    pub(super) fn operate_door(&mut self, id: CreatureId, door: usize, open: bool) {
        self.spend(id, DOOR_AP);
        let at = self.objects[door].at();
        if !open && self.creatures.iter().any(|o| o.is_active() && o.footprint().contains(at)) {
            let side = self.sides[self.creatures[id as usize].side].name.clone();
            self.log_to(Event::DoorBlocked { creature: id, at }, vec![side]);
            return;
        }
        self.objects[door].open = open;
        self.creatures[id as usize].noisy_round = Some(self.round);
        self.log_about(Event::DoorOperated { creature: id, at, open }, &[id]);
        let look = self.objects[door].def.look(open);
        self.set_look(at, look);
    }
}
