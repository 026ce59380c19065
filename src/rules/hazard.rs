//! Dangerous environments (FLOW-10): terrain that attacks, drains dice, or both. The seed's
//! list is truncated, so the level's data say what each hazard does (Engine decision, below).

use super::creature::{Attribute, DamageType};
use serde::{Deserialize, Serialize};

/// What a dangerous square does to a creature in it (FLOW-10; the GM's data, in the level).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hazard {
    /// What it is ("fire", "deep water"): a creature adapted to it is spared (FLOW-10).
    pub kind: String,
    /// The dice of the attack it makes; 0 = none. Never defended (it lists no defense, ATK-11).
    #[serde(default)]
    pub dice: i32,
    /// The attack's type, met by that protection; None = a true attack (ATK-9).
    #[serde(default)]
    pub damage: Option<DamageType>,
    /// The attributes its attack may damage and its drain takes from (the first).
    pub targets: Vec<Attribute>,
    /// Dice it removes outright, unpreventable (FLOW-10's "remove dice").
    #[serde(default)]
    pub drain: i32,
}

/// The most dice a hazard may roll or drain (bounds what a level file can ask for).
pub const MAX_HAZARD_DICE: i32 = 30;

impl Hazard {
    /// Why the data cannot be used, if they cannot.
    pub fn problem(&self) -> Option<String> {
        if !(0..=MAX_HAZARD_DICE).contains(&self.dice) || !(0..=MAX_HAZARD_DICE).contains(&self.drain) {
            return Some(format!("hazard dice and drain must be 0..={MAX_HAZARD_DICE}"));
        }
        if self.targets.is_empty() {
            return Some("a hazard needs the attributes it harms (targets)".into());
        }
        if self.kind.trim().is_empty() {
            return Some("a hazard needs a kind (what it is, for adapted creatures)".into());
        }
        None
    }
    /// How much it can do at most: the worse of two hazards under a footprint hurts.
    pub fn severity(&self) -> i32 {
        self.dice + 3 * self.drain
    }
}
