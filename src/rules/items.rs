//! Items (TIME-17, TIME-18, TIME-E8, FLOW-8): what an item weighs, what handling it costs and
//! what using it does, as plain data the compendium holds.

use super::creature::Attribute;
use serde::{Deserialize, Serialize};

/// TIME-17's three item classes; their handling costs come from its table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ItemWeight {
    #[default]
    Trivial,
    Light,
    Heavy,
}

impl ItemWeight {
    /// TIME-17: exchanging, giving or picking up a trivial item is 1 AP, a light one 2, a heavy
    /// one 3 (both parties pay it in an exchange, TIME-18).
    pub fn handling_ap(self) -> i32 {
        match self {
            ItemWeight::Trivial => 1,
            ItemWeight::Light => 2,
            ItemWeight::Heavy => 3,
        }
    }
}

/// What using an item does (the item's own text, TIME-18: "per the item's text").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum ItemUse {
    /// A draught or a bandage: roll `dice` dice and recover as many dice of `attribute` as
    /// points rolled, never above its maximum (CRE-4; the points-per-die count of FLOW-9's
    /// rest). FLOW-8: it may be used on an unconscious friend, who wakes once every attribute
    /// has a die again.
    Recover { attribute: Attribute, dice: i32 },
    /// Spare ammunition (ATK-6): `ammo` more shots for the carried weapon `weapon`, used up.
    Reload { weapon: String, ammo: u32 },
}

/// An item in the compendium.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemDef {
    pub name: String,
    #[serde(default)]
    pub weight: ItemWeight,
    /// What using it does; None = it can only be carried, dropped and handed over.
    #[serde(default, rename = "use", skip_serializing_if = "Option::is_none")]
    pub on_use: Option<ItemUse>,
    /// AP to use it. Engine decision: the digest gives no cost for using an item (TIME-18 says
    /// "per the item's text"), so when the text gives none it is the weight's handling cost:
    /// taking a draught out and drinking it is handling it once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub use_ap: Option<i32>,
}

/// Most dice a Recover item may roll and most shots a Reload may give (the compendium's
/// validator refuses more).
pub const MAX_ITEM_DICE: i32 = 20;
pub const MAX_ITEM_AMMO: u32 = 100;
/// Most items one creature may carry (TIME-18 sets no limit; a bound keeps a hostile level from
/// growing the battle without end).
pub const MAX_CARRIED: usize = 32;

impl ItemDef {
    /// The AP its use costs (see `use_ap`).
    pub fn use_cost(&self) -> i32 {
        self.use_ap.unwrap_or(self.weight.handling_ap())
    }
    /// What is wrong with it, if anything.
    pub fn problem(&self) -> Option<String> {
        if self.use_ap.is_some_and(|a| !(0..=20).contains(&a)) {
            return Some("use_ap must be 0..=20".into());
        }
        match &self.on_use {
            Some(ItemUse::Recover { dice, .. }) if !(1..=MAX_ITEM_DICE).contains(dice) => {
                Some(format!("a Recover item rolls 1..={MAX_ITEM_DICE} dice"))
            }
            Some(ItemUse::Reload { ammo, .. }) if !(1..=MAX_ITEM_AMMO).contains(ammo) => {
                Some(format!("a Reload item gives 1..={MAX_ITEM_AMMO} shots"))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // RULES: TIME-17
    #[test]
    fn handling_costs_follow_time_17_table() {
        assert_eq!(ItemWeight::Trivial.handling_ap(), 1);
        assert_eq!(ItemWeight::Light.handling_ap(), 2);
        assert_eq!(ItemWeight::Heavy.handling_ap(), 3);
        let draught = ItemDef { name: "d".into(), weight: ItemWeight::Light, on_use: None, use_ap: None };
        assert_eq!(draught.use_cost(), 2);
        assert_eq!(ItemDef { use_ap: Some(0), ..draught.clone() }.use_cost(), 0);
        let absurd = ItemDef { on_use: Some(ItemUse::Recover { attribute: Attribute::Might, dice: 999 }), ..draught };
        assert!(absurd.problem().is_some());
    }
}
