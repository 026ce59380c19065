//! Objects on the map (ATK-16, ATK-E6, SPACE-3): doors, crates and barricades with a material,
//! a thickness in digits and the digest's durability and protection table.

use super::creature::DamageType;
use serde::{Deserialize, Serialize};

/// ATK-16's materials, in the table's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Material {
    Paper,
    Leather,
    Glass,
    Wood,
    Earth,
    Rubber,
    Iron,
    Rock,
    Steel,
}

/// ATK-16's modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Condition {
    /// Worn or weathered: durability ÷ 2, all protection −1.
    Worn,
    /// Artificially reinforced: durability × 2, all protection +1.
    Reinforced,
    /// Enchanted or blessed: durability × 3, all protection +3.
    Enchanted,
    /// A precise or fragile inner structure: durability ÷ 2, all protection ÷ 2.
    Fragile,
}

impl Material {
    /// Durability per digit of thickness (ATK-16's table).
    pub fn durability_per_digit(self) -> i32 {
        match self {
            Material::Paper => 2,
            Material::Leather | Material::Glass => 3,
            Material::Wood => 4,
            Material::Earth | Material::Rubber => 5,
            Material::Iron => 6,
            Material::Rock => 8,
            Material::Steel => 12,
        }
    }
    /// (physical, erosion) protection (ATK-16's table); every material is immune to spectral.
    pub fn protection(self) -> (i32, i32) {
        match self {
            Material::Paper => (0, 0),
            Material::Leather => (0, 1),
            Material::Glass => (1, 0),
            Material::Wood => (1, 2),
            Material::Earth => (3, 2),
            Material::Rubber => (4, 0),
            Material::Iron => (4, 2),
            Material::Rock => (5, 5),
            Material::Steel => (7, 3),
        }
    }
}

/// ATK-16 / SPACE-3: durability of `thickness` digits of `material` under `conditions` (each
/// applied in order, fractions dropped: GEN-3), at least 1.
pub fn durability(material: Material, thickness: i32, conditions: &[Condition]) -> i32 {
    let mut d = material.durability_per_digit().saturating_mul(thickness.max(1));
    for c in conditions {
        d = match c {
            Condition::Worn | Condition::Fragile => d / 2,
            Condition::Reinforced => d.saturating_mul(2),
            Condition::Enchanted => d.saturating_mul(3),
        };
    }
    d.max(1)
}

/// ATK-16: the object's protection against an attack of `damage` type; None = immune (every
/// object to spectral attacks). A true attack (None) meets no protection (ATK-9).
pub fn protection(material: Material, conditions: &[Condition], damage: Option<DamageType>) -> Option<i32> {
    let (physical, erosion) = material.protection();
    let base = match damage {
        None => return Some(0),
        Some(DamageType::Spectral) => return None,
        Some(DamageType::Physical) => physical,
        Some(DamageType::Erosion) => erosion,
    };
    let mut p = base;
    for c in conditions {
        p = match c {
            Condition::Worn => p.saturating_sub(1),
            Condition::Reinforced => p.saturating_add(1),
            Condition::Enchanted => p.saturating_add(3),
            Condition::Fragile => p / 2,
        };
    }
    Some(p.max(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    // RULES: ATK-16, SPACE-3 — durability = the material's factor × thickness in digits, with
    // the modifiers; protection by type, spectral immune.
    #[test]
    fn atk_16_the_table() {
        assert_eq!(durability(Material::Wood, 4, &[]), 16);
        assert_eq!(durability(Material::Steel, 2, &[Condition::Reinforced]), 48);
        assert_eq!(durability(Material::Rock, 3, &[Condition::Worn]), 12);
        assert_eq!(durability(Material::Glass, 1, &[Condition::Fragile]), 1);
        assert_eq!(durability(Material::Paper, 1, &[Condition::Enchanted]), 6);
        assert_eq!(protection(Material::Wood, &[], Some(DamageType::Physical)), Some(1));
        assert_eq!(protection(Material::Wood, &[], Some(DamageType::Erosion)), Some(2));
        assert_eq!(protection(Material::Iron, &[Condition::Reinforced], Some(DamageType::Physical)), Some(5));
        assert_eq!(protection(Material::Rock, &[Condition::Fragile], Some(DamageType::Erosion)), Some(2));
        assert_eq!(protection(Material::Glass, &[Condition::Worn], Some(DamageType::Erosion)), Some(0));
        assert_eq!(protection(Material::Steel, &[], Some(DamageType::Spectral)), None);
        assert_eq!(protection(Material::Steel, &[], None), Some(0));
    }
}

/// What an object is, for the grid: what it blocks and the cover it gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ObjectKind {
    /// Blocks movement and sight while closed; opened and closed for 1 AP (battle/objects.rs).
    Door,
    /// A crate or table: crossed like a low wall (MOVE-9) and gives low cover (ATK-E5).
    Crate,
    /// A barricade or low wall of some material: the same as a crate on the grid.
    Barricade,
}

/// One object placed in a level (ATK-16: its material and thickness in digits, SPACE-3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectDef {
    pub kind: ObjectKind,
    pub at: (i32, i32),
    pub material: Material,
    /// Thickness in digits (1 digit ≈ 2 cm, SPACE-3).
    pub thickness: i32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
    /// A door that starts open.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub open: bool,
}

/// The most digits an object may be thick (a 20 m wall; bounds what a file can ask).
pub const MAX_THICKNESS: i32 = 1000;

/// The terrain an object makes of its square in each state (ATK-E6): the names are the
/// engine's, appended to the level's own terrains when a level has objects.
pub mod looks {
    use crate::rules::grid::Terrain;
    pub const DOOR_CLOSED: &str = "door (closed)";
    pub const DOOR_OPEN: &str = "door (open)";
    pub const CRATE: &str = "crate";
    pub const BARRICADE: &str = "barricade";
    pub const RUBBLE: &str = "rubble";

    /// Every object terrain, in the order they are appended to a map.
    pub fn all() -> Vec<Terrain> {
        let t = Terrain::default();
        let low = |name: &str| Terrain {
            name: name.into(),
            blocks_movement: true,
            cross_height: Some(1),
            low_cover: true,
            ..t.clone()
        };
        vec![
            Terrain { name: DOOR_CLOSED.into(), blocks_movement: true, blocks_sight: true, ..t.clone() },
            Terrain { name: DOOR_OPEN.into(), ..t.clone() },
            low(CRATE),
            low(BARRICADE),
            // ATK-E6: a broken object's square is rubble, difficult ground (+1 resistance).
            Terrain { name: RUBBLE.into(), difficult: true, ..t.clone() },
        ]
    }
}

impl ObjectDef {
    /// ATK-16 durability of this object.
    pub fn durability(&self) -> i32 {
        durability(self.material, self.thickness, &self.conditions)
    }
    /// The name of the terrain it makes of its square (`looks`), intact.
    pub fn look(&self, open: bool) -> &'static str {
        match (self.kind, open) {
            (ObjectKind::Door, false) => looks::DOOR_CLOSED,
            (ObjectKind::Door, true) => looks::DOOR_OPEN,
            (ObjectKind::Crate, _) => looks::CRATE,
            (ObjectKind::Barricade, _) => looks::BARRICADE,
        }
    }
}
