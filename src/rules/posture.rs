//! Postures (POST-*): the five humanoid postures, their effects (004 translated by POST-E1) and
//! transition costs under both cost variants (POST-E2).

use super::ruleset::{PostureCosts, PostureEffects};
use serde::{Deserialize, Serialize};

/// POST-1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Posture {
    #[default]
    Standing,
    Crouch,
    Sit,
    Prone,
    Lying,
}

impl Posture {
    pub const ALL: [Posture; 5] = [Posture::Standing, Posture::Crouch, Posture::Sit, Posture::Prone, Posture::Lying];

    pub fn name(self) -> &'static str {
        match self {
            Posture::Standing => "Standing",
            Posture::Crouch => "Crouch/Kneel",
            Posture::Sit => "Sit/Ride",
            Posture::Prone => "Prone",
            Posture::Lying => "Lying/Fallen",
        }
    }

    /// POST-3 / POST-E1: "N cover" against ranged attacks = +N to all protections.
    pub fn ranged_cover(self) -> i32 {
        match self {
            Posture::Standing => 0,
            Posture::Crouch | Posture::Sit => 1,
            Posture::Prone | Posture::Lying => 3,
        }
    }

    /// POST-3 / MOVE-E1: added movement resistance. `None` means the creature cannot move on its
    /// own (Sit/Ride moves with its mount, MOVE-14).
    pub fn movement_resistance(self) -> Option<i32> {
        match self {
            Posture::Standing => Some(0),
            Posture::Crouch => Some(1),
            Posture::Sit => None,
            Posture::Prone | Posture::Lying => Some(2),
        }
    }

    /// POST-3 / POST-E1: "N disadvantage" = −N dice on every roll made for an action (attack,
    /// defense, attempts), not initiative or rest.
    pub fn roll_penalty(self) -> i32 {
        match self {
            Posture::Prone | Posture::Lying => 2,
            _ => 0,
        }
    }
}

/// POST-2 / POST-4 / POST-E2: AP to change posture voluntarily. Forced changes are free (POST-5).
pub fn transition_cost(from: Posture, to: Posture, costs: PostureCosts) -> i32 {
    use Posture::*;
    if from == to {
        return 0;
    }
    match costs {
        PostureCosts::Flat => 1,
        PostureCosts::Table001 => match (from, to) {
            (Standing, Lying) | (Lying, Standing) => 2,
            _ => 1,
        },
        PostureCosts::V7 => match (from, to) {
            (Standing, _) => 0,
            (Crouch | Sit, Standing) => 1,
            (Crouch | Sit, _) => 0,
            (Prone | Lying, Standing) => 2,
            (Prone | Lying, Crouch | Sit) => 1,
            (Prone | Lying, _) => 0,
        },
    }
}

/// POST-E3 (Engine decision): posture cover and terrain cover do not add; take the higher.
/// Posture cover counts only against ranged attacks (POST-3), and not at all under 001's
/// posture table (the attacker loses dice instead).
pub fn cover_bonus(terrain_cover: i32, posture: Posture, ranged_attack: bool, effects: PostureEffects) -> i32 {
    let posture_cover = if ranged_attack { effects.ranged_cover(posture) } else { 0 };
    terrain_cover.max(posture_cover)
}

#[cfg(test)]
mod tests {
    use super::Posture::*;
    use super::*;

    // RULES: POST-3, POST-E1 — cover, resistance and roll penalties per posture.
    #[test]
    fn post_3_effects_table() {
        assert_eq!(Posture::ALL.map(|p| p.ranged_cover()), [0, 1, 1, 3, 3]);
        assert_eq!(Posture::ALL.map(|p| p.movement_resistance()), [Some(0), Some(1), None, Some(2), Some(2)]);
        assert_eq!(Posture::ALL.map(|p| p.roll_penalty()), [0, 0, 0, 2, 2]);
    }

    // RULES: POST-2, POST-E2 — the default is 1 AP any to any.
    #[test]
    fn post_2_flat_costs() {
        for a in Posture::ALL {
            for b in Posture::ALL {
                assert_eq!(transition_cost(a, b, PostureCosts::Flat), i32::from(a != b));
            }
        }
    }

    // RULES: POST-4, POST-E2 — v7 costs: standing up from Prone costs 2, dropping flat costs 0.
    // GEN-E4 — a v7 "[Action N]" converts to N AP, an instant to 0.
    #[test]
    fn post_4_v7_costs() {
        let v7 = PostureCosts::V7;
        assert_eq!(transition_cost(Standing, Prone, v7), 0);
        assert_eq!(transition_cost(Crouch, Standing, v7), 1);
        assert_eq!(transition_cost(Crouch, Lying, v7), 0);
        assert_eq!(transition_cost(Prone, Standing, v7), 2);
        assert_eq!(transition_cost(Lying, Crouch, v7), 1);
        assert_eq!(transition_cost(Prone, Lying, v7), 0);
    }

    // RULES: POST-2, POST-E2 — 001's posture table (`PostureCosts::Table001`): every change is
    // an emergency or tactical action of 1, but Stand to Lie and back are tactical actions of 2.
    #[test]
    fn post_2_001_table_costs() {
        let t = PostureCosts::Table001;
        for a in Posture::ALL {
            for b in Posture::ALL {
                let two = matches!((a, b), (Standing, Lying) | (Lying, Standing));
                assert_eq!(
                    transition_cost(a, b, t),
                    if a == b {
                        0
                    } else if two {
                        2
                    } else {
                        1
                    },
                    "{a:?} → {b:?}"
                );
            }
        }
    }

    // RULES: POST-E3 — the higher of posture and terrain cover, posture only vs ranged.
    #[test]
    fn post_e3_cover_takes_higher() {
        let m = PostureEffects::Meshal;
        assert_eq!(cover_bonus(1, Prone, true, m), 3);
        assert_eq!(cover_bonus(1, Crouch, true, m), 1);
        assert_eq!(cover_bonus(0, Prone, false, m), 0);
        assert_eq!(cover_bonus(1, Standing, false, m), 1);
        // 001's table: no posture cover, only the terrain's.
        assert_eq!(cover_bonus(1, Prone, true, PostureEffects::Table001), 1);
        assert_eq!(cover_bonus(0, Crouch, true, PostureEffects::Table001), 0);
    }
}
