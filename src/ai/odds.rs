//! Exact attack odds for the planner, memoised: the same few (dice, segments, protection,
//! defense dice) recur thousands of times a battle, and the rules core's distribution is exact.

use crate::battle::{AttackNumbers, AttackPreview, Battle, Engagement, Fighter};
use crate::rules::attack::{AttackOdds, DamageModifiers, damage_distribution};
use crate::rules::creature::Attribute;
use crate::rules::dice::DicePoints;
use std::cell::RefCell;
use std::collections::HashMap;

/// The value of one attack by `me` standing at `from` on `target`, or None if impossible from
/// there. Counts the target's likely defense, its rear arc, cover, range penalties.
pub(super) struct AttackEstimate {
    pub expected: f64,
    pub ko_chance: f64,
    pub rear: bool,
}

/// The estimate from the battle's numbers; with `side_effects`, also what the blow does beyond
/// its dice: the fall it may throw the target into, the sense it may take (a sloppy player sees
/// neither: `situation::plays_sloppily`).
pub(super) fn estimate_attack(
    numbers: &AttackNumbers,
    target: &Fighter,
    weapon: &crate::level::compendium::Weapon,
    side_effects: bool,
) -> Option<AttackEstimate> {
    let weapon_targets: &[Attribute] = &weapon.targets;
    if numbers.in_reach.is_err() || numbers.dice <= 0 {
        return None;
    }
    // The target defends if it can: it keeps AP for it (TIME-12) and faces us (FACE-4).
    let defense = if numbers.can_pay_defense { numbers.defense_dice } else { 0 };
    let weakest = weapon_targets.iter().filter_map(|a| target.attrs.pool(*a)).map(|p| p.current).max().unwrap_or(0);
    let (o, ko) = odds(numbers.points, numbers.dice, numbers.segments, numbers.protection, defense, weakest.max(1));
    if numbers.coup_de_grace {
        // FLOW-7: any hit finishes it; worth little while anyone else still fights (no focus
        // bonus: it is already out of the fight).
        return Some(AttackEstimate { expected: o.hit * 0.3, ko_chance: 0.0, rear: numbers.rear });
    }
    // MOVE-11, MOVE-12: a blow that hurts may also throw it over an edge; the fall's attack
    // (MOVE-E4, undefended) is worth its expected damage times the chance the blow hurts.
    let fall = numbers.forced.filter(|f| side_effects && f.fall_dice > 0).map_or(0.0, |f| {
        let hurts = odds(numbers.points, numbers.dice, numbers.segments, numbers.protection, defense, 1).1;
        hurts * odds(numbers.points, f.fall_dice, 1, f.fall_protection, 0, 1).0.expected
    });
    // FLOW-D3, PERC-4: a blow that takes a sense it still has is worth more than its dice.
    let sense = weapon.takes_sense.filter(|l| side_effects && target.sense_range(l.sense) > 0).map_or(0.0, |l| {
        let hurts = odds(numbers.points, numbers.dice, numbers.segments, numbers.protection, defense, 1).1;
        let relied_on = target.senses.habitual() == Some(l.sense);
        let per_turn = if relied_on { SENSE_RELIED_ON_PER_TURN } else { SENSE_OTHER_PER_TURN };
        hurts * per_turn * l.turns.min(3) as f64
    });
    Some(AttackEstimate { expected: o.expected + fall + sense, ko_chance: ko, rear: numbers.rear })
}

/// What a turn without a sense costs its creature, in dice of damage: its habitual sense
/// (PERC-4: it perceives only what is next to it), or another it has.
const SENSE_RELIED_ON_PER_TURN: f64 = 0.6;
const SENSE_OTHER_PER_TURN: f64 = 0.1;

/// One attack `me` could make from `from` on `target` with `weapon` (+ `additives`).
pub(super) fn estimate_from(
    b: &Battle,
    engagement: &Engagement,
    weapon: &crate::battle::Armed,
    additives: &[String],
    target: &Fighter,
    side_effects: bool,
) -> Option<AttackEstimate> {
    let n = b.attack_numbers(engagement, &weapon.key, additives, false).ok()?;
    estimate_attack(&n, target, &weapon.weapon, side_effects)
}

/// Expected damage and P(damage ≥ k) for the attacks the AI weighs, memoised: the same few
/// (dice, protection, defense) triples recur thousands of times a battle.
#[derive(Clone, Copy)]
pub(super) struct Odds {
    pub expected: f64,
    pub hit: f64,
}

/// The odds of one key and its tail P(damage ≥ k).
type Entry = (Odds, Vec<f64>);

/// (which faces score, dice, segments, protection, defense dice).
type Key = (DicePoints, i32, u32, i32, i32);

/// A key → odds and the tail P(damage ≥ k).
type OddsMemo = HashMap<Key, (Odds, Vec<f64>), std::hash::BuildHasherDefault<SmallKeyHasher>>;

/// A multiply-rotate hasher for the memo's four small integers: SipHash's resistance to
/// crafted keys is not needed here, and it was a visible share of a decision.
#[derive(Default)]
struct SmallKeyHasher(u64);

impl std::hash::Hasher for SmallKeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u32(&mut self, v: u32) {
        self.write_u64(u64::from(v));
    }
    fn write_i32(&mut self, v: i32) {
        self.write_u64(v as u32 as u64);
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// The common keys index a flat table directly (no hashing: a lookup was ~7% of a battle's
/// instructions under callgrind); the rare others go to the hash map.
const DICE: usize = 32;
const SEGMENTS: usize = 4;
const PROTECTION_MIN: i32 = -4;
const PROTECTIONS: usize = 16;
const DEFENSES: usize = 16;
/// One table per way of scoring dice (`DicePoints`).
const PER_POINTS: usize = DICE * SEGMENTS * PROTECTIONS * DEFENSES;
const POINT_TABLES: usize = 2;

fn slot((points, dice, segments, protection, defense): Key) -> Option<usize> {
    let p = protection - PROTECTION_MIN;
    ((dice as usize) < DICE
        && (segments as usize) < SEGMENTS
        && (0..PROTECTIONS as i32).contains(&p)
        && (defense as usize) < DEFENSES)
        .then(|| {
            points as usize * PER_POINTS
                + ((dice as usize * SEGMENTS + segments as usize) * PROTECTIONS + p as usize) * DEFENSES
                + defense as usize
        })
}

#[derive(Default)]
struct Memo {
    table: Vec<Option<Box<Entry>>>,
    rest: OddsMemo,
}

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::new(Memo::default());
}

fn compute((points, dice, segments, protection, defense_dice): Key) -> Entry {
    let d = damage_distribution(&AttackOdds {
        dice,
        segments,
        protection,
        defense_dice,
        modifiers: DamageModifiers::default(),
        points,
    });
    // tail[k] = P(damage ≥ k)
    let mut tail = vec![0.0; d.distribution.len() + 1];
    for k in (0..d.distribution.len()).rev() {
        tail[k] = tail[k + 1] + d.distribution[k];
    }
    (Odds { expected: d.expected_damage, hit: d.hit_chance }, tail)
}

pub(super) fn odds(
    points: DicePoints,
    dice: i32,
    segments: u32,
    protection: i32,
    defense: i32,
    at_least: i32,
) -> (Odds, f64) {
    MEMO.with_borrow_mut(|m| {
        let key = (points, dice.max(0), segments, protection, defense.max(0));
        let (o, tail) = match slot(key) {
            Some(i) => {
                if m.table.is_empty() {
                    m.table.resize_with(POINT_TABLES * PER_POINTS, || None);
                }
                &**m.table[i].get_or_insert_with(|| Box::new(compute(key)))
            }
            None => m.rest.entry(key).or_insert_with(|| compute(key)),
        };
        let p = tail.get(at_least.max(0) as usize).copied().unwrap_or(0.0);
        (*o, p)
    })
}

/// The memoised odds of a previewed attack against `defense` dice.
pub(super) fn preview_odds(p: &AttackPreview, defense: i32, at_least: i32) -> (Odds, f64) {
    odds(p.points, p.dice, p.segments, p.protection, defense, at_least)
}
