//! Initiative (TIME-2, TIME-3, TIME-E1, TIME-4, TIME-E2).

use super::dice::roll_faces;
use rand::Rng;
use serde::{Deserialize, Serialize};

/// One creature's initiative record: its Activeness Σ roll and any tie-break rolls (3Σ each,
/// or one die each under 001's roll add).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitiativeRoll<Id> {
    pub id: Id,
    pub faces: Vec<u8>,
    pub total: u32,
    /// TIME-3 / TIME-E1: successive tie-break results, in order.
    pub tie_breaks: Vec<u32>,
}

/// TIME-2: each creature rolls its Activeness dice Σ; order is highest first. TIME-3: tied
/// creatures roll 3Σ, higher first; TIME-E1: repeated among those still tied.
pub fn roll_initiative<Id: Clone, R: Rng + ?Sized>(rng: &mut R, entrants: &[(Id, i32)]) -> Vec<InitiativeRoll<Id>> {
    roll_initiative_with(rng, entrants, TIME_3_TIE_DICE)
}

/// TIME-3: a tie-break is a 3Σ roll.
pub const TIME_3_TIE_DICE: i32 = 3;

/// As [`roll_initiative`], with ties broken by `tie_dice`Σ rolls: 3 by TIME-3, 1 by 001's "roll
/// add" (one more die whose face decides, again while still tied: the same lexicographic
/// comparison of successive rolls).
pub fn roll_initiative_with<Id: Clone, R: Rng + ?Sized>(
    rng: &mut R,
    entrants: &[(Id, i32)],
    tie_dice: i32,
) -> Vec<InitiativeRoll<Id>> {
    let mut rolls: Vec<InitiativeRoll<Id>> = entrants
        .iter()
        .map(|(id, dice)| {
            let faces = roll_faces(rng, *dice);
            let total = faces.iter().map(|&f| f as u32).sum();
            InitiativeRoll { id: id.clone(), faces, total, tie_breaks: Vec::new() }
        })
        .collect();
    // Break ties group by group, in a fixed order (entrant order), so the RNG stream is stable.
    loop {
        let mut changed = false;
        let keys: Vec<(u32, Vec<u32>)> = rolls.iter().map(|r| (r.total, r.tie_breaks.clone())).collect();
        let mut seen = vec![false; rolls.len()];
        for i in 0..rolls.len() {
            if seen[i] {
                continue;
            }
            let group: Vec<usize> = (i..rolls.len()).filter(|&j| keys[j] == keys[i]).collect();
            for &j in &group {
                seen[j] = true;
            }
            if group.len() > 1 {
                for &j in &group {
                    let t = roll_faces(rng, tie_dice.max(1)).iter().map(|&f| f as u32).sum();
                    rolls[j].tie_breaks.push(t);
                }
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    rolls.sort_by(|a, b| b.total.cmp(&a.total).then_with(|| b.tie_breaks.cmp(&a.tie_breaks)));
    rolls
}

/// TIME-4 / TIME-E2: latecomers act after everyone already in the order. A lone latecomer skips
/// the roll; simultaneous arrivals sort among themselves by TIME-2.
pub fn append_latecomers<Id: Clone, R: Rng + ?Sized>(
    rng: &mut R,
    order: &mut Vec<Id>,
    arrivals: &[(Id, i32)],
) -> Vec<InitiativeRoll<Id>> {
    if arrivals.len() == 1 {
        order.push(arrivals[0].0.clone());
        return Vec::new();
    }
    let rolls = roll_initiative(rng, arrivals);
    order.extend(rolls.iter().map(|r| r.id.clone()));
    rolls
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    // RULES: TIME-2, TIME-3, TIME-E1 — ordered by Activeness Σ, ties broken by repeated 3Σ.
    #[test]
    fn time_2_initiative_order_and_tie_breaks() {
        for seed in 0..200 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let entrants: Vec<(u32, i32)> = (0..6).map(|i| (i, 1 + (i as i32 % 2))).collect();
            let rolls = roll_initiative(&mut rng, &entrants);
            assert_eq!(rolls.len(), 6);
            for r in &rolls {
                let dice = entrants[r.id as usize].1;
                assert_eq!(r.faces.len(), dice as usize);
                assert_eq!(r.total, r.faces.iter().map(|&f| f as u32).sum::<u32>());
            }
            for w in rolls.windows(2) {
                assert!(w[0].total > w[1].total || (w[0].total == w[1].total && w[0].tie_breaks > w[1].tie_breaks));
            }
            // Every creature whose total ties another's has tie-break rolls.
            for r in &rolls {
                let ties = rolls.iter().filter(|o| o.total == r.total).count();
                assert_eq!(ties > 1, !r.tie_breaks.is_empty());
            }
        }
    }

    #[test]
    fn time_2_same_seed_same_order() {
        let entrants: Vec<(u32, i32)> = (0..8).map(|i| (i, 3)).collect();
        let a = roll_initiative(&mut ChaCha8Rng::seed_from_u64(9), &entrants);
        let b = roll_initiative(&mut ChaCha8Rng::seed_from_u64(9), &entrants);
        assert_eq!(a, b);
    }

    // RULES: TIME-4, TIME-E2 — latecomers go last; a lone one skips the roll.
    #[test]
    fn time_4_latecomers_append() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut order = vec![10, 11];
        assert!(append_latecomers(&mut rng, &mut order, &[(12, 3)]).is_empty());
        assert_eq!(order, vec![10, 11, 12]);
        let rolls = append_latecomers(&mut rng, &mut order, &[(13, 3), (14, 3)]);
        assert_eq!(rolls.len(), 2);
        assert_eq!(&order[..3], &[10, 11, 12]);
        assert_eq!(order.len(), 5);
    }
}
