//! The compendium: weapons, armour, abilities and creature templates (`assets/compendium/*.ron`).

use super::unique_keys::deserialize as unique_keys;
use crate::rules::attack::{Defense, WeaponRange};
use crate::rules::creature::{Attribute, DamageType, Protections, Size};
use crate::rules::senses::Sense;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod checks;
pub use checks::locate;

/// How many dice an attack rolls: `base` + (attribute dice × mul ÷ div) + `plus` (DICE-12:
/// "Activeness dice ÷ 2" rolls half the current dice, fraction dropped).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
#[serde(deny_unknown_fields)]
pub struct DiceExpr {
    pub attribute: Option<Attribute>,
    pub div: i32,
    pub plus: i32,
}

impl Default for DiceExpr {
    fn default() -> Self {
        DiceExpr { attribute: None, div: 1, plus: 0 }
    }
}

impl DiceExpr {
    /// The dice this expression gives a creature with these attributes, before modifiers.
    pub fn dice_for(&self, attrs: &crate::rules::creature::Attributes) -> i32 {
        self.attribute.map_or(0, |a| attrs.dice(a) / self.div.max(1)) + self.plus
    }
}

/// An area template carried by a weapon or ability (AREA-*).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum AreaSpec {
    /// Centred on a chosen square within the weapon's range.
    Circle {
        radius: i32,
    },
    Ring {
        radius: i32,
        width: i32,
    },
    /// From the attacker, aimed along a facing.
    Cone {
        length: i32,
        angle: f64,
    },
    Ray {
        length: i32,
        width: i32,
    },
    /// AREA-E5: from the attacker, bending at up to 3 squares on the way to its end (the
    /// attack's `Target::Curve`), `length` steps in all.
    Curve {
        length: i32,
    },
}

/// Largest radius, length or width of an area template a compendium may give (the
/// calculator's bound too): beyond it one placement would walk millions of squares.
pub const MAX_AREA_SIZE: i32 = 64;

impl AreaSpec {
    /// Why this template is out of bounds, if it is.
    pub fn problem(&self) -> Option<String> {
        let within = |n: i32| (0..=MAX_AREA_SIZE).contains(&n);
        match *self {
            AreaSpec::Circle { radius } if !within(radius) => {
                Some(format!("a circle's radius must be 0..={MAX_AREA_SIZE}"))
            }
            AreaSpec::Ring { radius, width } if !within(radius) || !within(width) => {
                Some(format!("a ring's radius and width must be 0..={MAX_AREA_SIZE}"))
            }
            AreaSpec::Cone { length, angle } if !(within(length) && angle > 0.0 && angle <= 360.0) => {
                Some(format!("a cone's length must be 0..={MAX_AREA_SIZE} and its angle in (0, 360]"))
            }
            AreaSpec::Ray { length, width } if !within(length) || !within(width) => {
                Some(format!("a ray's length and width must be 0..={MAX_AREA_SIZE}"))
            }
            AreaSpec::Curve { length } if !(1..=MAX_AREA_SIZE).contains(&length) => {
                Some(format!("a curve's length must be 1..={MAX_AREA_SIZE} (AREA-E5)"))
            }
            _ => None,
        }
    }
}

/// A weapon or attack ability (ATK-1: the attribute damaged, dice, type and defenses).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    pub name: String,
    pub dice: DiceExpr,
    #[serde(default = "one")]
    pub segments: u32,
    /// None = a true attack (ATK-9).
    pub damage: Option<DamageType>,
    /// Attributes the damage may go to (CRE-5).
    pub targets: Vec<Attribute>,
    pub range: WeaponRange,
    /// ATK-11: allowed defenses; empty = cannot be defended.
    pub defenses: Vec<Defense>,
    #[serde(default)]
    pub penetration: i32,
    /// AP of the attack; above the creature's max it becomes a long-term action (TIME-11).
    #[serde(default = "one_i")]
    pub ap: i32,
    /// Shots or throws carried (ATK-6, ATK-2 thrown); None = unlimited.
    #[serde(default)]
    pub ammo: Option<u32>,
    #[serde(default)]
    pub area: Option<AreaSpec>,
    /// CRE-13: natural weapons are always available.
    #[serde(default)]
    pub natural: bool,
    /// A shield: adds dice to Block while carried.
    #[serde(default)]
    pub block_bonus: i32,
    /// MOVE-11: a weapon that says so knocks back or tows each creature it hurts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forced: Option<crate::rules::forced::ForcedMove>,
    /// A weapon that says so takes a sense from each creature it hurts (FLOW-D3: blinded,
    /// deafened), for that creature's next turns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub takes_sense: Option<crate::rules::senses::SenseLoss>,
}

fn one() -> u32 {
    1
}
fn one_i() -> i32 {
    1
}

/// What an ability does in the engine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum AbilityEffect {
    /// TIME-16: an additive on a melee attack: +AP for +dice.
    Additive { ap: i32, dice: i32, melee_only: bool },
    /// TIME-14: a "before the attack" reaction: step one square; if the attacker can no
    /// longer reach, the attack is cancelled and refunded.
    QuickStep { ap: i32 },
    /// TIME-13: a reaction to a melee attack: strike the attacker back with a melee weapon at
    /// the same time; both attacks' damage lands together.
    CounterAttack { ap: i32 },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ability {
    pub name: String,
    pub level: i32,
    pub effect: AbilityEffect,
}

/// A creature's senses (PERC-1, PERC-6): ranges in steps; 0 = lacks it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
#[serde(deny_unknown_fields)]
pub struct Senses {
    pub vision: i32,
    /// Sees in dark squares (PERC-D6 mapping).
    pub darkvision: bool,
    pub hearing: i32,
    /// A non-visual sense that ignores light and facing, e.g. tremorsense (PERC-D9 mapping).
    pub tremor: i32,
    /// PERC-6: smell, by path distance around walls.
    #[serde(skip_serializing_if = "is_zero")]
    pub smell: i32,
    /// PERC-6: a supernatural sense, perceiving anything within range.
    #[serde(skip_serializing_if = "is_zero")]
    pub supernatural: i32,
    /// PERC-4: the sense it relies on; losing it shrinks all its perception to adjacent squares.
    /// None = the first it has of vision, hearing, smell, tremor, supernatural (Engine decision:
    /// most creatures rely on sight; one without eyes on what it has).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub habitual: Option<Sense>,
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

impl Default for Senses {
    fn default() -> Self {
        Senses {
            vision: 40,
            darkvision: false,
            hearing: crate::rules::costs::DEFAULT_HEARING_RANGE,
            tremor: 0,
            smell: 0,
            supernatural: 0,
            habitual: None,
        }
    }
}

impl Senses {
    /// The range of one sense (0 = lacks it).
    pub fn range(&self, sense: Sense) -> i32 {
        match sense {
            Sense::Vision => self.vision,
            Sense::Hearing => self.hearing,
            Sense::Smell => self.smell,
            Sense::Tremor => self.tremor,
            Sense::Supernatural => self.supernatural,
        }
    }
    /// PERC-4: the sense it relies on (None: it has no senses at all).
    pub fn habitual(&self) -> Option<Sense> {
        self.habitual.or_else(|| Sense::ALL.into_iter().find(|&s| self.range(s) > 0))
    }
}

/// A creature template.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreatureTemplate {
    pub name: String,
    #[serde(default)]
    pub size: Size,
    /// Trained scores; None = invalid attribute ("-", CRE-8).
    pub might: Option<i32>,
    pub activeness: Option<i32>,
    pub spirit: Option<i32>,
    #[serde(default = "default_speed")]
    pub speed: i32,
    #[serde(default = "default_ap")]
    pub max_ap: i32,
    #[serde(default)]
    pub weapons: Vec<String>,
    #[serde(default)]
    pub armour: Vec<String>,
    #[serde(default)]
    pub natural_protection: Protections,
    #[serde(default)]
    pub abilities: Vec<String>,
    #[serde(default)]
    pub senses: Senses,
    /// Strength (CRE-11) for monsters whose potential is not itemised; None = computed.
    #[serde(default)]
    pub strength: Option<i32>,
    /// FLOW-10: the kinds of hazard it is adapted to and so ignores ("fire", "deep water").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub adapted: Vec<String>,
    /// TIME-18: the items it carries (the compendium's `items` keys; a key may repeat).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<String>,
    /// Body weight in kg (000: a creature datum), for dragging (MOVE-13); None = the size's
    /// typical weight (`Size::default_weight`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<i32>,
    /// MOVE-14, MOVE-E8: a mount, which a smaller creature of its side may ride.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mount: bool,
    /// PERC-E6: invisible to vision and visual-like senses (a phantom).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub invisible: bool,
}

fn default_speed() -> i32 {
    crate::rules::costs::DEFAULT_GROUND_SPEED
}
fn default_ap() -> i32 {
    crate::rules::costs::DEFAULT_MAX_AP
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Armour {
    pub name: String,
    pub protection: Protections,
}

/// AI profile knobs (issue 4); the battle only carries the name through.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
#[serde(deny_unknown_fields)]
pub struct AiProfile {
    pub aggression: f64,
    pub caution: f64,
    pub focus_fire: f64,
    pub self_preservation: f64,
    /// What the planner considers: 0 = the baseline yardstick (walk, hit, always defend);
    /// 1 = the planner, sloppy (reproducible noise of up to ±0.85 expected dice on every
    /// option; it never readies an attack nor crouches for cover, and does not count what a
    /// blow does beyond its dice, a fall or a lost sense: with "this turn only" instead it lost
    /// to the baseline on the levels where one must close in); 2 = the planner as it judges.
    pub difficulty: u32,
    /// How far past its own turn it looks (none by default: the planner alone).
    pub look_ahead: LookAhead,
}

impl Default for AiProfile {
    fn default() -> Self {
        AiProfile {
            aggression: 0.5,
            caution: 0.5,
            focus_fire: 0.5,
            self_preservation: 0.5,
            difficulty: 1,
            look_ahead: LookAhead::default(),
        }
    }
}

/// The most dice, points of protection (either way: CRE-10) or shield dice one compendium
/// entry may give — a pool holds at most 30 dice (attributes 1..=30). The battle weighs every
/// attack with exact distributions whose cost grows with the square of the dice: a weapon of
/// 100,000 dice made one decision take minutes, and a protection of −2³¹ made the odds
/// allocate without bound.
pub const MAX_ENTRY_DICE: i32 = 30;

/// The most weapons and pieces of armour a creature carries (a template's lists, or a level's
/// overrides): far above any template's, and each is weighed at every decision.
pub const MAX_WEAPONS: usize = 16;
pub const MAX_ARMOUR: usize = 8;

/// The highest strength (CRE-11: potential spent) a template may state: an epic character
/// has 90 potential.
pub const MAX_STRENGTH: i32 = 10_000;

/// The look-ahead of `hard` and `expert`: the planner's best few first commands and ending the
/// turn are each played out on the side's belief of the battle (see `Battle::belief_of`),
/// everyone moved by the `normal` planner until the creature's next turn, and the command whose
/// outcomes are best on average is chosen. Iterations, never the clock, bound it: results are
/// reproducible.
pub const MAX_LOOK_AHEAD_CANDIDATES: u32 = 8;
pub const MAX_LOOK_AHEAD_ROLLOUTS: u32 = 32;
pub const MAX_LOOK_AHEAD_ROUNDS: u32 = 3;
pub const MAX_LOOK_AHEAD_DOUBT: u32 = 50;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
#[serde(deny_unknown_fields)]
pub struct LookAhead {
    /// How many commands are played out (0 or 1: none): the planner's best distinct first
    /// commands, the last place kept for ending the turn where it stands unless they hold it.
    pub candidates: u32,
    /// Play-outs per candidate, each with its own dice (the same dice for every candidate).
    pub rollouts: u32,
    /// How many rounds a play-out runs: to the creature's next turn (1; 0 means the same), or
    /// to its turn in the round after (2), and so on.
    pub rounds: u32,
    /// How sure the play-outs must be before another command replaces the planner's choice,
    /// in tenths of the paired difference's standard error (beyond a quarter die): 20, two
    /// standard errors, unless given.
    pub doubt: u32,
}

impl Default for LookAhead {
    fn default() -> Self {
        LookAhead { candidates: 0, rollouts: 0, rounds: 0, doubt: 20 }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
#[serde(deny_unknown_fields)]
pub struct Compendium {
    #[serde(deserialize_with = "unique_keys")]
    pub weapons: BTreeMap<String, Weapon>,
    #[serde(deserialize_with = "unique_keys")]
    pub armour: BTreeMap<String, Armour>,
    #[serde(deserialize_with = "unique_keys")]
    pub abilities: BTreeMap<String, Ability>,
    #[serde(deserialize_with = "unique_keys")]
    pub creatures: BTreeMap<String, CreatureTemplate>,
    #[serde(deserialize_with = "unique_keys")]
    pub ai_profiles: BTreeMap<String, AiProfile>,
    /// TIME-17, TIME-18: items creatures carry and levels leave lying on the map.
    #[serde(deserialize_with = "unique_keys")]
    pub items: BTreeMap<String, crate::rules::items::ItemDef>,
}

/// Read a compendium file (bounded), with syntax errors and unknown fields located.
pub fn load_file(path: &std::path::Path) -> Result<Compendium, String> {
    load_file_text(path).map(|(c, _)| c)
}

/// A compendium file's entries and its text (to place an error found later, `locate`).
pub fn load_file_text(path: &std::path::Path) -> Result<(Compendium, String), String> {
    let text = crate::files::read_text(path, crate::files::FileKind::Compendium).map_err(|e| e.to_string())?;
    let file = path.display().to_string();
    let c = ron::from_str(&text).map_err(|e| crate::level::ron_error(&file, &e).to_string())?;
    Ok((c, text))
}

impl Compendium {
    /// Merge another file's entries; a repeated key is an error naming it.
    pub fn merge(&mut self, other: Compendium) -> Result<(), String> {
        fn put<T>(into: &mut BTreeMap<String, T>, from: BTreeMap<String, T>, kind: &str) -> Result<(), String> {
            for (k, v) in from {
                if into.insert(k.clone(), v).is_some() {
                    return Err(format!("{kind} '{k}' is defined twice"));
                }
            }
            Ok(())
        }
        put(&mut self.weapons, other.weapons, "weapon")?;
        put(&mut self.armour, other.armour, "armour")?;
        put(&mut self.abilities, other.abilities, "ability")?;
        put(&mut self.creatures, other.creatures, "creature")?;
        put(&mut self.ai_profiles, other.ai_profiles, "AI profile")?;
        put(&mut self.items, other.items, "item")?;
        Ok(())
    }
}
