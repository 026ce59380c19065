//! Attack resolution (ATK-*): range bands, protection and penetration, defense, damage, and the
//! exact distribution of damage an attack deals.

use super::creature::{Attribute, Attributes, DamageType};
use super::dice::DicePoints;
use serde::{Deserialize, Serialize};

/// ATK-11 / ATK-E3: the three defense reactions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Defense {
    Block,
    Dodge,
    Resist,
}

impl Defense {
    pub const ALL: [Defense; 3] = [Defense::Block, Defense::Dodge, Defense::Resist];
    /// ATK-E3 (Engine decision): Block = Might, Dodge = Activeness, Resist = Spirit.
    pub fn attribute(self) -> Attribute {
        match self {
            Defense::Block => Attribute::Might,
            Defense::Dodge => Attribute::Activeness,
            Defense::Resist => Attribute::Spirit,
        }
    }
}

/// The dice a defender rolls for a defense: the attribute's current dice (3 if invalid, CRE-8),
/// less posture penalties (POST-E1).
pub fn defense_dice(attrs: &Attributes, defense: Defense, roll_penalty: i32) -> i32 {
    attrs.dice(defense.attribute()) - roll_penalty
}

/// A weapon's reach or range. SPACE-E1 (Engine decision): "A~B" means A < d ≤ B; `min` is A
/// (0 when there is no minimum range).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponRange {
    #[serde(default)]
    pub min: i32,
    pub max: i32,
    pub ranged: bool,
}

/// Penalty for a target inside the minimum range (ATK-4).
pub const TOO_CLOSE_PENALTY: i32 = 3;

/// Why a target cannot be attacked at all at this distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfRange {
    pub distance: i32,
    pub max: i32,
}

/// ATK-4, ATK-5, ATK-E1: the dice modifier (≤ 0) for attacking at `distance`.
pub fn range_dice_modifier(range: WeaponRange, distance: i32, overreach: bool) -> Result<i32, OutOfRange> {
    if distance <= range.min && range.min > 0 {
        return Ok(-TOO_CLOSE_PENALTY);
    }
    if distance <= range.max {
        return Ok(0);
    }
    if range.ranged && overreach && range.max > 0 {
        // ATK-E1: 2 × ceil((d − max) ÷ max); no hard cap, DICE-4 ends it.
        let over = distance - range.max;
        let multiples = (over + range.max - 1) / range.max;
        return Ok(-2 * multiples);
    }
    Err(OutOfRange { distance, max: range.max })
}

/// ATK-9 / ATK-10 / ATK-15: the protection that is subtracted from one attack roll.
/// `cover` is the better of terrain and posture cover (POST-E3). Penetration never takes
/// protection below 0, and never acts on protection that is already 0 or less. A true attack
/// (`damage_type == None`) ignores protection.
pub fn effective_protection(protection: i32, cover: i32, penetration: i32, true_attack: bool) -> i32 {
    if true_attack {
        return 0;
    }
    let p = protection + cover;
    if p > 0 { (p - penetration.max(0)).max(0) } else { p }
}

/// ATK-14 / ATK-E4: multipliers and flat bonuses applied on a hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageModifiers {
    /// Product of all "×N" (numerator) ...
    pub mul: i32,
    /// ... and all "÷N" (denominator).
    pub div: i32,
    /// Flat "+N" minus "−N".
    pub bonus: i32,
    /// "+N dice" rolled for points on a hit.
    pub bonus_dice: i32,
}

impl Default for DamageModifiers {
    fn default() -> Self {
        DamageModifiers { mul: 1, div: 1, bonus: 0, bonus_dice: 0 }
    }
}

impl DamageModifiers {
    /// ATK-E4: damage = max(0, floor(R × m) + a), for R > 0 only.
    pub fn apply(&self, residual: i32, bonus_points: i32) -> i32 {
        if residual <= 0 {
            return 0;
        }
        let scaled = (residual as i64 * self.mul as i64).div_euclid(self.div.max(1) as i64) as i32;
        (scaled + self.bonus + bonus_points).max(0)
    }
}

/// One rolled segment, resolved (ATK-7, ATK-9..14, ATK-E7 step 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SegmentOutcome {
    pub attack_points: i32,
    /// Result after protection: the defender decides on a defense only if this is > 0 (ATK-11).
    pub after_protection: i32,
    pub defense_points: Option<i32>,
    /// ATK-11: a defense that brought a positive result to 0 or less.
    pub solid_defense: bool,
    pub hit: bool,
    pub damage: i32,
}

/// Resolve one segment from its rolls. `defense_points` is the defense roll if the defender
/// defended; it is ignored when the roll was 0 or protection already absorbed it.
pub fn resolve_segment(
    attack_points: i32,
    protection: i32,
    defense_points: Option<i32>,
    modifiers: &DamageModifiers,
    bonus_points: i32,
) -> SegmentOutcome {
    if attack_points <= 0 {
        // ATK-7: a result of 0 is an immediate miss.
        return SegmentOutcome {
            attack_points: 0,
            after_protection: 0,
            defense_points: None,
            solid_defense: false,
            hit: false,
            damage: 0,
        };
    }
    let after_protection = attack_points - protection;
    let defense_points = if after_protection > 0 { defense_points } else { None };
    let residual = after_protection - defense_points.unwrap_or(0);
    let hit = residual > 0;
    SegmentOutcome {
        attack_points,
        after_protection,
        defense_points,
        solid_defense: defense_points.is_some() && !hit,
        hit,
        damage: if hit { modifiers.apply(residual, bonus_points) } else { 0 },
    }
}

/// Inputs for the exact damage distribution of an attack against one defender.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackOdds {
    /// Attack dice after every dice modifier (DICE-4: ≤ 0 always misses).
    pub dice: i32,
    /// ATK-8: segments rolled separately.
    pub segments: u32,
    /// Effective protection (see [`effective_protection`]).
    pub protection: i32,
    /// Defense dice per segment; 0 when the defender does not (or cannot) defend.
    pub defense_dice: i32,
    pub modifiers: DamageModifiers,
    /// Which faces score (the ruleset's `dice_points`), for the attack, defense and bonus dice.
    #[serde(default)]
    pub points: DicePoints,
}

/// The exact outcome distribution of an attack.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DamageDistribution {
    /// Element k is P(total damage = k).
    pub distribution: Vec<f64>,
    /// P(at least one segment hits).
    pub hit_chance: f64,
    pub expected_damage: f64,
}

/// Exact per-segment distribution, written into `out` (element k = P(damage = k)); returns the
/// segment's hit chance. Uses the cached point tables, so this is a few hundred multiply-adds.
fn segment_distribution(odds: &AttackOdds, out: &mut Vec<f64>) -> f64 {
    let attack = odds.points.distribution(odds.dice);
    let defense = odds.points.distribution(odds.defense_dice);
    // Negative protection (CRE-10) can push the residual above the highest roll.
    let max_residual = attack.len() as i32 - 1 + (-odds.protection).max(0);
    let mut residual = vec![0.0f64; (max_residual + 1) as usize];
    let mut miss = attack[0];
    for (a, &pa) in attack.iter().enumerate().skip(1) {
        if pa == 0.0 {
            continue;
        }
        let r1 = a as i32 - odds.protection;
        if r1 <= 0 {
            miss += pa;
            continue;
        }
        for (d, &pd) in defense.iter().enumerate() {
            let r = r1 - d as i32;
            if r <= 0 {
                miss += pa * pd;
            } else {
                residual[r as usize] += pa * pd;
            }
        }
    }
    let hit = 1.0 - miss;
    out.clear();
    out.push(miss);
    let bonus = odds.points.distribution(odds.modifiers.bonus_dice);
    for (r, &p) in residual.iter().enumerate().skip(1) {
        if p == 0.0 {
            continue;
        }
        for (b, &pb) in bonus.iter().enumerate() {
            let dmg = odds.modifiers.apply(r as i32, b as i32) as usize;
            if out.len() <= dmg {
                out.resize(dmg + 1, 0.0);
            }
            out[dmg] += p * pb;
        }
    }
    hit
}

fn convolve(a: &[f64], b: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; a.len() + b.len() - 1];
    for (i, &pa) in a.iter().enumerate() {
        if pa == 0.0 {
            continue;
        }
        for (j, &pb) in b.iter().enumerate() {
            out[i + j] += pa * pb;
        }
    }
    out
}

/// ATK-7..ATK-14, ATK-E4: the exact distribution of total damage (convolution, no sampling).
pub fn damage_distribution(odds: &AttackOdds) -> DamageDistribution {
    let mut seg = Vec::with_capacity(32);
    let seg_hit = segment_distribution(odds, &mut seg);
    let segments = odds.segments.max(1);
    let mut total = seg.clone();
    for _ in 1..segments {
        total = convolve(&total, &seg);
    }
    while total.len() > 1 && total.last() == Some(&0.0) {
        total.pop();
    }
    let expected = total.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
    DamageDistribution {
        hit_chance: 1.0 - (1.0 - seg_hit).powi(segments as i32),
        expected_damage: expected,
        distribution: total,
    }
}

/// The type of an attack; `None` is a true attack (ATK-9).
pub type AttackType = Option<DamageType>;

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    const REACH1: WeaponRange = WeaponRange { min: 0, max: 1, ranged: false };
    const WHIP: WeaponRange = WeaponRange { min: 3, max: 6, ranged: true };
    const BOW30: WeaponRange = WeaponRange { min: 0, max: 30, ranged: true };

    // RULES: ATK-4, SPACE-E1 — "3~6" hits 3 < d ≤ 6; d ≤ 3 is too close at −3 dice.
    #[test]
    fn atk_4_min_range_too_close_penalty() {
        assert_eq!(range_dice_modifier(WHIP, 2, true), Ok(-3));
        assert_eq!(range_dice_modifier(WHIP, 3, true), Ok(-3));
        assert_eq!(range_dice_modifier(WHIP, 4, true), Ok(0));
        assert_eq!(range_dice_modifier(WHIP, 6, true), Ok(0));
    }

    // RULES: ATK-5, ATK-E1 — −2 dice per multiple of range exceeded; melee cannot overreach.
    #[test]
    fn atk_5_overreach() {
        assert_eq!(range_dice_modifier(BOW30, 30, true), Ok(0));
        assert_eq!(range_dice_modifier(BOW30, 31, true), Ok(-2));
        assert_eq!(range_dice_modifier(BOW30, 60, true), Ok(-2));
        assert_eq!(range_dice_modifier(BOW30, 61, true), Ok(-4));
        assert_eq!(range_dice_modifier(BOW30, 91, true), Ok(-6));
        assert!(range_dice_modifier(BOW30, 31, false).is_err());
        assert!(range_dice_modifier(REACH1, 2, true).is_err());
    }

    // RULES: ATK-9, ATK-10, CRE-10 — penetration never takes protection below 0; negative
    // protection adds; true attacks ignore protection.
    #[test]
    fn atk_10_penetration_floor() {
        assert_eq!(effective_protection(1, 0, 3, false), 0);
        assert_eq!(effective_protection(4, 0, 1, false), 3);
        assert_eq!(effective_protection(-2, 0, 3, false), -2);
        assert_eq!(effective_protection(5, 0, 0, true), 0);
    }

    // RULES: ATK-15, POST-E3 — cover adds +1 to protection before penetration.
    #[test]
    fn atk_15_cover_adds_protection() {
        assert_eq!(effective_protection(1, 1, 0, false), 2);
        assert_eq!(effective_protection(0, 1, 2, false), 0);
    }

    // RULES: ATK-7, ATK-12 — a roll of 0 misses whatever the protection; CRE-10 negative
    // protection increases the result.
    #[test]
    fn atk_7_zero_roll_misses_even_against_negative_protection() {
        let m = DamageModifiers::default();
        let o = resolve_segment(0, -3, None, &m, 0);
        assert!(!o.hit);
        assert_eq!(o.damage, 0);
        let o = resolve_segment(1, -2, None, &m, 0);
        assert!(o.hit);
        assert_eq!(o.damage, 3);
    }

    // RULES: ATK-11 — defense subtracts; solid defense only when the defense itself zeroes a
    // positive result; a harmless attack needs no defense.
    #[test]
    fn atk_11_defense_and_solid_defense() {
        let m = DamageModifiers::default();
        let o = resolve_segment(4, 1, Some(3), &m, 0);
        assert!(!o.hit && o.solid_defense);
        let o = resolve_segment(4, 1, Some(1), &m, 0);
        assert!(o.hit && !o.solid_defense);
        assert_eq!(o.damage, 2);
        let o = resolve_segment(2, 2, Some(3), &m, 0);
        assert!(!o.hit && !o.solid_defense && o.defense_points.is_none());
    }

    // RULES: ATK-14, ATK-E4 — multiply after protection and defense; bonuses only on a hit;
    // reductions stop at 0.
    #[test]
    fn atk_14_multipliers_after_subtraction() {
        let x2 = DamageModifiers { mul: 2, div: 1, bonus: 1, bonus_dice: 0 };
        assert_eq!(resolve_segment(5, 1, Some(1), &x2, 0).damage, 7); // (5-1-1)*2 + 1
        let half = DamageModifiers { mul: 1, div: 2, bonus: 0, bonus_dice: 0 };
        assert_eq!(resolve_segment(4, 0, None, &half, 0).damage, 2);
        let o = resolve_segment(1, 0, None, &half, 0);
        assert!(o.hit);
        assert_eq!(o.damage, 0);
        let minus = DamageModifiers { mul: 1, div: 1, bonus: -5, bonus_dice: 0 };
        assert_eq!(resolve_segment(3, 0, None, &minus, 0).damage, 0);
        assert_eq!(resolve_segment(2, 3, None, &x2, 0).damage, 0);
    }

    // RULES: ATK-E3 — Block/Dodge/Resist roll Might/Activeness/Spirit; invalid attributes roll 3.
    #[test]
    fn atk_e3_defense_dice() {
        let a = Attributes::new(Some(5), Some(2), None);
        assert_eq!(defense_dice(&a, Defense::Block, 0), 5);
        assert_eq!(defense_dice(&a, Defense::Dodge, 2), 0);
        assert_eq!(defense_dice(&a, Defense::Resist, 0), 3);
    }

    fn sample(odds: &AttackOdds, seed: u64, n: usize) -> Vec<f64> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut counts = vec![0usize; 64];
        for _ in 0..n {
            let mut total = 0;
            for _ in 0..odds.segments.max(1) {
                let a = odds.points.roll_points(&mut rng, odds.dice) as i32;
                let d = (odds.defense_dice > 0).then(|| odds.points.roll_points(&mut rng, odds.defense_dice) as i32);
                let b = odds.points.roll_points(&mut rng, odds.modifiers.bonus_dice) as i32;
                total += resolve_segment(a, odds.protection, d, &odds.modifiers, b).damage;
            }
            counts[total as usize] += 1;
        }
        counts.into_iter().map(|c| c as f64 / n as f64).collect()
    }

    // RULES: ATK-7, ATK-8, ATK-11, ATK-E4, DICE-2 — the exact distribution matches 100,000 seeded
    // samples of the same pipeline, for several shapes of attack, under both point variants
    // (the last case scores 001's fives and sixes).
    #[test]
    fn atk_e4_exact_damage_distribution_matches_sampling() {
        let cases = [
            AttackOdds { dice: 10, segments: 1, protection: 1, defense_dice: 6, ..Default::default() },
            AttackOdds { dice: 2, segments: 2, protection: 0, defense_dice: 3, ..Default::default() },
            AttackOdds {
                dice: 6,
                segments: 1,
                protection: -1,
                defense_dice: 0,
                modifiers: DamageModifiers { mul: 3, div: 2, bonus: 1, bonus_dice: 2 },
                points: DicePoints::Meshal,
            },
            AttackOdds {
                dice: 9,
                segments: 2,
                protection: 1,
                defense_dice: 4,
                modifiers: DamageModifiers { mul: 1, div: 1, bonus: 0, bonus_dice: 2 },
                points: DicePoints::HighFaces001,
            },
        ];
        let n = 100_000;
        for (i, odds) in cases.iter().enumerate() {
            let exact = damage_distribution(odds);
            assert!((exact.distribution.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            let observed = sample(odds, 100 + i as u64, n);
            for (k, &obs) in observed.iter().enumerate() {
                let p = exact.distribution.get(k).copied().unwrap_or(0.0);
                let sd = (p * (1.0 - p) / n as f64).sqrt();
                assert!((obs - p).abs() <= 5.0 * sd + 2e-5, "case {i} k={k}: {obs} vs {p}");
            }
            let sampled_mean: f64 = observed.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
            assert!((sampled_mean - exact.expected_damage).abs() < 0.03, "case {i}");
        }
    }

    // RULES: ATK-E4 — a hand-computable case: 1 die vs protection 0, no defense:
    // P(0) = 4/6, P(1) = 1/6, P(2) = 1/6.
    #[test]
    fn atk_e4_one_die_distribution_by_hand() {
        let d = damage_distribution(&AttackOdds { dice: 1, segments: 1, ..Default::default() });
        assert_eq!(d.distribution.len(), 3);
        assert!((d.distribution[0] - 4.0 / 6.0).abs() < 1e-12);
        assert!((d.distribution[2] - 1.0 / 6.0).abs() < 1e-12);
        assert!((d.hit_chance - 1.0 / 3.0).abs() < 1e-12);
        assert!((d.expected_damage - 0.5).abs() < 1e-12);
    }
}
