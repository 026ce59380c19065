//! Combat flow (FLOW-*): combat intensity, potential rewards and fleeing.

use serde::{Deserialize, Serialize};

/// FLOW-2: the six intensity bands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Intensity {
    Easy,
    Basic,
    Rival,
    Messy,
    Tough,
    Desperate,
}

impl Intensity {
    pub fn name(self) -> &'static str {
        match self {
            Intensity::Easy => "Easy",
            Intensity::Basic => "Basic",
            Intensity::Rival => "Rival",
            Intensity::Messy => "Messy",
            Intensity::Tough => "Tough",
            Intensity::Desperate => "Desperate",
        }
    }
    /// FLOW-2: potential reward per PC.
    pub fn reward(self) -> i32 {
        match self {
            Intensity::Easy => 0,
            Intensity::Basic => 1,
            Intensity::Rival => 2,
            Intensity::Messy => 3,
            Intensity::Tough => 6,
            Intensity::Desperate => 12,
        }
    }
    pub fn from_gap(gap: i64) -> Intensity {
        match gap {
            i64::MIN..=-31 => Intensity::Easy,
            -30..=-1 => Intensity::Basic,
            0..=29 => Intensity::Rival,
            30..=59 => Intensity::Messy,
            60..=89 => Intensity::Tough,
            _ => Intensity::Desperate,
        }
    }
}

/// FLOW-2 with FLOW-E1 / GEN-E2: gap = (enemy − player) ÷ player count, truncated toward zero.
/// Returns None when there are no player-side creatures.
pub fn strength_gap(enemy_strength: i64, player_strength: i64, player_count: i64) -> Option<i64> {
    (player_count > 0).then(|| (enemy_strength - player_strength) / player_count)
}

pub fn intensity(enemy_strength: i64, player_strength: i64, player_count: i64) -> Option<Intensity> {
    strength_gap(enemy_strength, player_strength, player_count).map(Intensity::from_gap)
}

/// FLOW-5 / FLOW-E2: rounds without being hit before a flee attempt is allowed.
pub const FLEE_STREAK: u32 = 3;

/// FLOW-E2: the difficulty of a flee attempt: the highest current Activeness dice among conscious
/// hostile creatures (0 with none).
pub fn flee_difficulty(hostile_activeness: impl IntoIterator<Item = i32>) -> i64 {
    hostile_activeness.into_iter().max().unwrap_or(0).max(0) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    // RULES: FLOW-2, FLOW-E1, GEN-E2 — the band table with truncation toward zero.
    #[test]
    fn flow_2_intensity_bands_and_rewards() {
        assert_eq!(intensity(0, 200, 4), Some(Intensity::Easy)); // gap −50
        assert_eq!(intensity(100, 130, 1), Some(Intensity::Basic)); // −30
        assert_eq!(intensity(0, 31, 1), Some(Intensity::Easy)); // −31
        assert_eq!(intensity(0, 61, 2), Some(Intensity::Basic)); // −30.5 → −30
        assert_eq!(intensity(0, 1, 2), Some(Intensity::Rival)); // −0.5 → 0
        assert_eq!(intensity(29, 0, 1), Some(Intensity::Rival));
        assert_eq!(intensity(30, 0, 1), Some(Intensity::Messy));
        assert_eq!(intensity(178, 0, 2), Some(Intensity::Tough)); // 89
        assert_eq!(intensity(180, 0, 2), Some(Intensity::Desperate));
        assert_eq!(intensity(1, 1, 0), None);
        let rewards: Vec<i32> = [
            Intensity::Easy,
            Intensity::Basic,
            Intensity::Rival,
            Intensity::Messy,
            Intensity::Tough,
            Intensity::Desperate,
        ]
        .iter()
        .map(|i| i.reward())
        .collect();
        assert_eq!(rewards, vec![0, 1, 2, 3, 6, 12]);
    }

    // RULES: FLOW-5, FLOW-E2 — 3 unhit rounds, 3 AP, difficulty = highest hostile Activeness.
    #[test]
    fn flow_5_flee_requirements() {
        assert_eq!(FLEE_STREAK, 3);
        assert_eq!(crate::rules::costs::FLEE_AP, 3);
        assert_eq!(flee_difficulty([3, 5, 2]), 5);
        assert_eq!(flee_difficulty([]), 0);
    }
}
