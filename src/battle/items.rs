//! Items as this battle applies them (TIME-17, TIME-18, TIME-E8, FLOW-8): picking up, dropping,
//! handing over and using what creatures carry and what lies on the map.
//!
//! Engine decisions:
//! - "Any hindrance makes the pick-up fail" (TIME-18): another creature on the item's square
//!   is one. One the side knows of refuses the command; one it does not know of makes the
//!   attempt fail when made, AP spent (as a door closing on an unseen creature), so that a
//!   refusal gives nothing away.
//! - Giving (TIME-E8) is to an adjacent creature of one's own side: "voluntary on both sides"
//!   (TIME-18) is the side's player commanding both. The receiver pays the same cost at once,
//!   as a reaction; the giver's side knows its AP, so an exchange that TIME-E8 would make fail
//!   and refund is refused up front, with the same net effect: nothing spent.
//! - Using an item costs `ItemDef::use_cost` (see there) and can be done on oneself or on an
//!   adjacent friend, conscious or not (FLOW-8: an unconscious creature "may be restored by
//!   items" but cannot use one itself).

use super::check::{Plan, reject};
use super::state::*;
use super::types::*;
use crate::rules::costs::drop_item_ap;
use crate::rules::dice::roll_faces;
use crate::rules::grid::{Footprint, Pos, adjacent};
use crate::rules::items::{ItemDef, ItemUse, MAX_CARRIED};

/// An item lying on a square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroundItem {
    pub at: Pos,
    pub item: String,
}

/// TIME-18: within hand's reach of this footprint: its own squares and the ones next to it
/// that no corner cuts off (SPACE-E6).
fn within_reach(map: &crate::rules::grid::GridMap, fp: Footprint, at: Pos) -> bool {
    fp.contains(at) || fp.cells().any(|c| adjacent(map, c, at))
}

impl Battle {
    /// The items lying on the map. Engine decision: like the map's terrain and objects they are
    /// known to every side (a level's items are part of the scene; a dropped item is seen
    /// dropped only by the sides perceiving the dropper, see `drop_item`).
    pub fn ground_items(&self) -> &[GroundItem] {
        &self.ground_items
    }

    /// The compendium entry of an item key.
    pub fn item_def(&self, key: &str) -> Option<&ItemDef> {
        self.item_defs.get(key)
    }

    /// An item's name (its key if the compendium has no such item).
    pub fn item_name<'a>(&'a self, key: &'a str) -> &'a str {
        self.item_def(key).map_or(key, |d| d.name.as_str())
    }

    /// Two creatures stand next to each other (or overlap), with no corner between them.
    fn touching(&self, a: CreatureId, b: CreatureId) -> bool {
        let fb = self.creatures[b as usize].footprint();
        let fa = self.creatures[a as usize].footprint();
        fb.cells().any(|c| within_reach(&self.map, fa, c))
    }

    fn carried<'a>(&'a self, id: CreatureId, item: &str) -> Result<&'a ItemDef, Rejection> {
        let me = &self.creatures[id as usize];
        if !me.items.iter().any(|i| i == item) {
            return reject("TIME-18", format!("{} carries no {item}", me.name));
        }
        self.item_def(item).ok_or_else(|| Rejection::new("TIME-18", format!("{item} is no item of this battle")))
    }

    /// TIME-18: pick up an item from one's square or one next to it, for TIME-17's cost.
    pub(super) fn plan_pick_up(&self, id: CreatureId, at: Pos, item: &str) -> Result<Plan, Rejection> {
        let me = &self.creatures[id as usize];
        let Some(index) = self.ground_items.iter().position(|g| g.at == at && g.item == item) else {
            return reject("TIME-18", format!("no {item} lies at {at}"));
        };
        let def = self.item_def(item).ok_or_else(|| Rejection::new("TIME-18", format!("{item} is unknown")))?;
        if !within_reach(&self.map, me.footprint(), at) {
            return reject("TIME-18", format!("{} can pick up only from its own square or one next to it", me.name));
        }
        if self
            .creatures
            .iter()
            .any(|o| o.id != id && o.is_active() && self.knows(me.side, o.id) && o.footprint().contains(at))
        {
            return reject("TIME-18", format!("someone lies or stands on {at}: a hindrance makes a pick-up fail"));
        }
        if me.items.len() >= MAX_CARRIED {
            return reject("TIME-18", format!("{} carries {MAX_CARRIED} items already", me.name));
        }
        let cost = def.weight.handling_ap();
        if me.ap < cost {
            return reject("TIME-8", format!("picking up {} needs {cost} AP, {} has {}", def.name, me.name, me.ap));
        }
        Ok(Plan::PickUp { index, cost })
    }

    pub(super) fn pick_up(&mut self, id: CreatureId, index: usize, cost: i32) {
        self.spend(id, cost);
        let GroundItem { at, item } = self.ground_items[index].clone();
        if self.creatures.iter().any(|o| o.id != id && o.is_active() && o.footprint().contains(at)) {
            let side = self.sides[self.creatures[id as usize].side].name.clone();
            self.log_to(Event::PickUpFailed { creature: id, item, at }, vec![side]);
            return;
        }
        self.ground_items.remove(index);
        self.creatures[id as usize].items.push(item.clone());
        self.creatures[id as usize].noisy_round = Some(self.round);
        self.log_about(Event::ItemPickedUp { creature: id, item, at }, &[id]);
    }

    /// TIME-17 Variants: dropping an item is 1 AP; it lands on the creature's square.
    pub(super) fn plan_drop(&self, id: CreatureId, item: &str) -> Result<Plan, Rejection> {
        self.carried(id, item)?;
        let me = &self.creatures[id as usize];
        let cost = drop_item_ap(false);
        if me.ap < cost {
            return reject("TIME-8", format!("dropping needs {cost} AP, {} has {}", me.name, me.ap));
        }
        Ok(Plan::DropItem { item: item.to_string(), cost })
    }

    pub(super) fn drop_item(&mut self, id: CreatureId, item: &str, cost: i32) {
        self.spend(id, cost);
        let me = &mut self.creatures[id as usize];
        let at = me.origin;
        if let Some(i) = me.items.iter().position(|i| i == item) {
            me.items.remove(i);
        }
        self.ground_items.push(GroundItem { at, item: item.to_string() });
        self.log_about(Event::ItemDropped { creature: id, item: item.to_string(), at }, &[id]);
    }

    /// TIME-18, TIME-E8: hand an item to an adjacent creature of one's side, which pays the
    /// same cost as a reaction.
    pub(super) fn plan_give(&self, id: CreatureId, item: &str, to: CreatureId) -> Result<Plan, Rejection> {
        let def = self.carried(id, item)?;
        let me = &self.creatures[id as usize];
        let Some(them) = self.creatures.get(to as usize).filter(|t| t.side == me.side && t.id != id) else {
            return reject("TIME-18", "give only to another creature of one's own side: both must be willing");
        };
        if !them.can_act() {
            return reject("TIME-18", format!("{} cannot take it: both parties act in an exchange", them.name));
        }
        if !self.touching(id, to) {
            return reject("TIME-18", format!("{} must stand next to {}", me.name, them.name));
        }
        if them.items.len() >= MAX_CARRIED {
            return reject("TIME-18", format!("{} carries {MAX_CARRIED} items already", them.name));
        }
        let cost = def.weight.handling_ap();
        if me.ap < cost {
            return reject("TIME-8", format!("giving {} needs {cost} AP, {} has {}", def.name, me.name, me.ap));
        }
        if them.ap < cost {
            return reject(
                "TIME-E8",
                format!("{} needs {cost} AP to take {} as a reaction and has {}", them.name, def.name, them.ap),
            );
        }
        Ok(Plan::GiveItem { item: item.to_string(), to, cost })
    }

    pub(super) fn give_item(&mut self, id: CreatureId, item: &str, to: CreatureId, cost: i32) {
        self.spend(id, cost);
        // TIME-E8: the receiver's share, paid as a reaction out of its own AP.
        let them = &mut self.creatures[to as usize];
        them.ap -= cost;
        let left = them.ap;
        self.log_about(Event::ApSpent { creature: to, ap: cost, left }, &[to]);
        self.start_gap(to, cost);
        let me = &mut self.creatures[id as usize];
        if let Some(i) = me.items.iter().position(|i| i == item) {
            me.items.remove(i);
        }
        self.creatures[to as usize].items.push(item.to_string());
        self.log_among(Event::ItemGiven { from: id, to, item: item.to_string() }, &[id, to]);
    }

    /// Use a carried item on oneself or on an adjacent friend (FLOW-8).
    pub(super) fn plan_use(&self, id: CreatureId, item: &str, on: Option<CreatureId>) -> Result<Plan, Rejection> {
        let def = self.carried(id, item)?;
        let me = &self.creatures[id as usize];
        let target = on.unwrap_or(id);
        let Some(them) = self.creatures.get(target as usize).filter(|t| t.side == me.side && t.is_active()) else {
            return reject("TIME-18", "use an item on oneself or on a creature of one's own side");
        };
        if target != id && !self.touching(id, target) {
            return reject("TIME-18", format!("{} must stand next to {}", me.name, them.name));
        }
        match &def.on_use {
            None => return reject("TIME-18", format!("{} has no use in a fight", def.name)),
            Some(ItemUse::Recover { attribute, .. }) => {
                let pool = them.attrs.pool(*attribute);
                if pool.is_none_or(|p| p.current >= p.max) {
                    return reject("CRE-4", format!("{} has no {} dice to recover", them.name, attribute.name()));
                }
            }
            Some(ItemUse::Reload { weapon, .. }) => {
                let Some(w) = them.weapon(weapon) else {
                    return reject("ATK-6", format!("{} carries no {weapon} to load", them.name));
                };
                if w.ammo.is_none() {
                    return reject("ATK-6", format!("{} needs no ammunition", w.weapon.name));
                }
            }
        }
        let cost = def.use_cost();
        if me.ap < cost {
            return reject("TIME-8", format!("using {} needs {cost} AP, {} has {}", def.name, me.name, me.ap));
        }
        Ok(Plan::UseItem { item: item.to_string(), on: target, cost })
    }

    pub(super) fn use_item(&mut self, id: CreatureId, item: &str, on: CreatureId, cost: i32) {
        self.spend(id, cost);
        let Some(effect) = self.item_def(item).and_then(|d| d.on_use.clone()) else { return };
        let me = &mut self.creatures[id as usize];
        if let Some(i) = me.items.iter().position(|i| i == item) {
            me.items.remove(i);
        }
        self.log_among(Event::ItemUsed { creature: id, item: item.to_string(), on }, &[id, on]);
        match effect {
            ItemUse::Recover { attribute, dice } => {
                let faces = roll_faces(&mut self.rng, dice);
                let pts = self.ruleset.dice_points.points(&faces) as i32;
                let purpose = format!("{item}: dice of {} recovered", attribute.name());
                self.log_about(Event::Rolled { creature: id, purpose, faces, points: pts }, &[id]);
                let was_down = self.creatures[on as usize].attrs.is_unconscious();
                let gained = self.creatures[on as usize].attrs.recover_dice(attribute, pts);
                self.log_about(Event::DiceRecovered { creature: on, attribute, dice: gained }, &[on]);
                // FLOW-8: it wakes the moment every attribute has a die again (still Lying).
                if was_down && !self.creatures[on as usize].attrs.is_unconscious() {
                    self.log_about(Event::Woke { creature: on }, &[on]);
                    self.refresh_perception_of(on);
                    self.sync_perception();
                }
            }
            ItemUse::Reload { weapon, ammo } => {
                let Some(w) = self.creatures[on as usize].weapons.iter_mut().find(|w| w.key == weapon) else { return };
                let left = w.ammo.map_or(ammo, |a| a.saturating_add(ammo));
                w.ammo = Some(left);
                self.log_about(Event::Reloaded { creature: on, weapon, left }, &[on]);
            }
        }
    }
}
