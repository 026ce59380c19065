//! One value that selects every rule variant the digest names, so variants are options, not forks.

use serde::{Deserialize, Serialize};

/// FACE-3 variants: how the 360° around a creature is split into sectors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FacingArcs {
    /// 000 (default): front 90°, each side 90°, rear 90°.
    #[default]
    Quarters,
    /// 004: front 120°, each side 60°, rear 120°.
    Wide,
}

/// POST-E2 variants: what a posture change costs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PostureCosts {
    /// 000/003 (default): 1 AP per change, any to any.
    #[default]
    Flat,
    /// 004 "v7": instant = 0 AP, [Action N] = N AP.
    V7,
}

/// Area variants (AREA Variants table): how templates are centred and which squares they cover.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AreaCoverage {
    /// Meshal (default): centred on a square (step 0), covers squares within SPACE-6 distance.
    #[default]
    Meshal,
    /// D&D: centred on a grid intersection, covers squares whose centre lies inside the shape.
    Dnd,
}

/// The full set of variant switches and [Ext] toggles (GEN-2, GEN-E1: all extensions on).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
#[serde(deny_unknown_fields)]
pub struct Ruleset {
    pub facing_arcs: FacingArcs,
    pub posture_costs: PostureCosts,
    pub area_coverage: AreaCoverage,
    /// [Ext] facing and position (FACE-*). Off: every creature sees and defends all around.
    pub facing: bool,
    /// [Ext] postures (POST-*). Off: posture changes are refused and have no effect.
    pub postures: bool,
    /// [Ext] overreach (ATK-5).
    pub overreach: bool,
    /// [Ext] coup de grâce (FLOW-7).
    pub coup_de_grace: bool,
    /// [Ext] group initiative (TIME-5).
    pub group_initiative: bool,
}

impl Default for Ruleset {
    fn default() -> Self {
        Ruleset {
            facing_arcs: FacingArcs::Quarters,
            posture_costs: PostureCosts::Flat,
            area_coverage: AreaCoverage::Meshal,
            facing: true,
            postures: true,
            overreach: true,
            coup_de_grace: true,
            group_initiative: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // RULES: GEN-E1 — every extension is on by default; defaults follow the digest's Variants.
    #[test]
    fn gen_e1_default_ruleset_enables_extensions_and_primary_variants() {
        let r = Ruleset::default();
        assert!(r.facing && r.postures && r.overreach && r.coup_de_grace && r.group_initiative);
        assert_eq!(r.facing_arcs, FacingArcs::Quarters);
        assert_eq!(r.posture_costs, PostureCosts::Flat);
        assert_eq!(r.area_coverage, AreaCoverage::Meshal);
    }

    #[test]
    fn ruleset_reads_partial_ron_with_defaults() {
        let r: Ruleset = ron::from_str("(facing_arcs: Wide, overreach: false)").unwrap();
        assert_eq!(r.facing_arcs, FacingArcs::Wide);
        assert!(!r.overreach);
        assert!(r.facing);
    }
}
