//! Creatures: attributes as dice pools, damage, protections, size categories and strength.

use serde::{Deserialize, Serialize};

/// CRE-2: the three attributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Attribute {
    Might,
    Activeness,
    Spirit,
}

impl Attribute {
    pub const ALL: [Attribute; 3] = [Attribute::Might, Attribute::Activeness, Attribute::Spirit];
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        match self {
            Attribute::Might => "Might",
            Attribute::Activeness => "Activeness",
            Attribute::Spirit => "Spirit",
        }
    }
}

/// CRE-4: an attribute's dice pool. `current` never exceeds `max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pool {
    pub max: i32,
    pub current: i32,
}

impl Pool {
    pub fn full(max: i32) -> Self {
        let max = max.max(1); // CRE-3: a score never counts as lower than 1.
        Pool { max, current: max }
    }
}

/// Number of dice rolled for an invalid ("-") attribute (CRE-8).
pub const INVALID_ATTRIBUTE_DICE: i32 = 3;

/// The three pools. `None` is an invalid attribute ("-", CRE-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Attributes {
    pub pools: [Option<Pool>; 3],
}

impl Attributes {
    pub fn new(might: Option<i32>, activeness: Option<i32>, spirit: Option<i32>) -> Self {
        Attributes { pools: [might.map(Pool::full), activeness.map(Pool::full), spirit.map(Pool::full)] }
    }

    pub fn pool(&self, a: Attribute) -> Option<Pool> {
        self.pools[a.index()]
    }

    pub fn is_valid(&self, a: Attribute) -> bool {
        self.pools[a.index()].is_some()
    }

    /// Dice rolled for this attribute: the current pool (DICE-12), or 3 for an invalid one (CRE-8).
    pub fn dice(&self, a: Attribute) -> i32 {
        self.pools[a.index()].map_or(INVALID_ATTRIBUTE_DICE, |p| p.current)
    }

    /// DICE-12 / CRE-8: "lower of" and "higher of" ignore invalid attributes.
    pub fn lower_of(&self, a: Attribute, b: Attribute) -> i32 {
        self.pick(a, b, i32::min)
    }
    pub fn higher_of(&self, a: Attribute, b: Attribute) -> i32 {
        self.pick(a, b, i32::max)
    }
    fn pick(&self, a: Attribute, b: Attribute, f: fn(i32, i32) -> i32) -> i32 {
        match (self.pool(a), self.pool(b)) {
            (Some(x), Some(y)) => f(x.current, y.current),
            (Some(x), None) => x.current,
            (None, Some(y)) => y.current,
            (None, None) => INVALID_ATTRIBUTE_DICE,
        }
    }

    /// CRE-4 / CRE-8: remove up to `amount` dice; invalid attributes never lose dice.
    /// Returns the dice actually removed.
    pub fn remove_dice(&mut self, a: Attribute, amount: i32) -> i32 {
        match &mut self.pools[a.index()] {
            Some(p) => {
                let removed = amount.clamp(0, p.current);
                p.current -= removed;
                removed
            }
            None => 0,
        }
    }

    /// Recover dice, never above the maximum (CRE-4).
    pub fn recover_dice(&mut self, a: Attribute, amount: i32) -> i32 {
        match &mut self.pools[a.index()] {
            Some(p) => {
                let gained = amount.clamp(0, p.max - p.current);
                p.current += gained;
                gained
            }
            None => 0,
        }
    }

    /// CRE-E2 (Engine decision): a temporary +k raises the cap and adds k dice; a decrease (or the
    /// end of an increase) removes dice above the new cap. The score floor of 1 applies.
    pub fn change_max(&mut self, a: Attribute, delta: i32) {
        if let Some(p) = &mut self.pools[a.index()] {
            p.max = (p.max + delta).max(1);
            if delta > 0 {
                p.current += delta;
            }
            p.current = p.current.min(p.max);
        }
    }

    /// CRE-6: unconscious the moment any valid attribute has no dice.
    pub fn is_unconscious(&self) -> bool {
        self.pools.iter().flatten().any(|p| p.current == 0)
    }

    /// CRE-7 with CRE-E1 (Engine decision): dead when every valid attribute has no dice.
    pub fn is_dead(&self) -> bool {
        let mut valid = self.pools.iter().flatten().peekable();
        valid.peek().is_some() && valid.all(|p| p.current == 0)
    }

    /// Dice still in the smallest valid pool: how close the creature is to unconsciousness.
    pub fn weakest_pool(&self) -> i32 {
        self.pools.iter().flatten().map(|p| p.current).min().unwrap_or(0)
    }
}

/// How a victim splits damage that may go to several attributes (CRE-5, ATK-13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Allocation {
    /// Keep the creature conscious as long as possible: always take from the fullest pool.
    StayConscious,
    /// Take from the listed order first (the player's explicit choice).
    InOrder,
}

/// CRE-5: split `damage` across the allowed `targets`. Invalid attributes absorb nothing
/// (CRE-8, CRE-E1). Returns (attribute, dice removed) pairs, in removal order, merged per attribute.
pub fn allocate_damage(
    attrs: &mut Attributes,
    targets: &[Attribute],
    damage: i32,
    how: Allocation,
) -> Vec<(Attribute, i32)> {
    let mut taken = [0i32; 3];
    let mut order: Vec<Attribute> = Vec::new();
    let mut left = damage.max(0);
    while left > 0 {
        let candidates = targets.iter().copied().filter(|&a| attrs.pool(a).is_some_and(|p| p.current > 0));
        let pick = match how {
            Allocation::InOrder => candidates.into_iter().next(),
            // Ties go to the earlier listed attribute, so the split is deterministic.
            Allocation::StayConscious => candidates.fold(None, |best: Option<Attribute>, a| match best {
                Some(b) if attrs.dice(b) >= attrs.dice(a) => Some(b),
                _ => Some(a),
            }),
        };
        let Some(a) = pick else { break };
        let chunk = match how {
            Allocation::InOrder => left,
            Allocation::StayConscious => 1,
        };
        let removed = attrs.remove_dice(a, chunk);
        if taken[a.index()] == 0 {
            order.push(a);
        }
        taken[a.index()] += removed;
        left -= removed;
    }
    order.into_iter().map(|a| (a, taken[a.index()])).collect()
}

/// CRE-9: the three protection kinds (and attack types, ATK-9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum DamageType {
    Physical,
    Erosion,
    Spectral,
}

/// CRE-9 / CRE-10: protections may be negative.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
#[serde(deny_unknown_fields)]
pub struct Protections {
    pub physical: i32,
    pub erosion: i32,
    pub spectral: i32,
}

impl Protections {
    pub fn against(&self, t: DamageType) -> i32 {
        match t {
            DamageType::Physical => self.physical,
            DamageType::Erosion => self.erosion,
            DamageType::Spectral => self.spectral,
        }
    }
    pub fn plus(self, other: Protections) -> Protections {
        Protections {
            physical: self.physical + other.physical,
            erosion: self.erosion + other.erosion,
            spectral: self.spectral + other.spectral,
        }
    }
}

/// SPACE-8 size categories, in order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Size {
    Tiny,
    Small,
    #[default]
    Medium,
    Large,
    Huge,
    Gargantuan,
}

impl Size {
    pub fn category(self) -> i32 {
        self as i32
    }
    /// SPACE-E4 (Engine decision): footprint side = ceil(base diameter in steps), minimum 1.
    pub fn footprint(self) -> i32 {
        match self {
            Size::Tiny | Size::Small | Size::Medium => 1,
            Size::Large => 2,
            Size::Huge => 3,
            Size::Gargantuan => 4,
        }
    }
    /// SPACE-E7 (Engine decision): default body height in steps (Medium 2).
    pub fn body_height(self) -> i32 {
        match self {
            Size::Tiny => 1,
            Size::Small => 1,
            Size::Medium => 2,
            Size::Large => 3,
            Size::Huge => 4,
            Size::Gargantuan => 6,
        }
    }
    /// 000's body weight (000_5f4122b8a83d6727.txt:72) when a template gives none, in kg
    /// (Engine decision: a typical creature of the size, after D&D's size table).
    pub fn default_weight(self) -> i32 {
        match self {
            Size::Tiny => 4,
            Size::Small => 20,
            Size::Medium => 70,
            Size::Large => 400,
            Size::Huge => 3000,
            Size::Gargantuan => 20000,
        }
    }
    /// PERC-8: search difficulty row for a creature of this size.
    pub fn search_difficulty(self) -> i64 {
        match self {
            Size::Tiny => 3,
            Size::Small | Size::Medium => 2,
            _ => 1,
        }
    }
}

/// SPACE-9 / SPACE-E5: may a mover pass through a square held by another creature?
/// Only when their categories differ by 2 or more, or either is incorporeal.
pub fn may_pass_through(mover: Size, mover_incorporeal: bool, other: Size, other_incorporeal: bool) -> bool {
    mover_incorporeal || other_incorporeal || (mover.category() - other.category()).abs() >= 2
}

/// CRE-3: potential to raise a trained score from `from` to `to` (each +1 costs current × 3).
pub fn attribute_raise_cost(from: i32, to: i32) -> i32 {
    (from..to).map(|k| k * 3).sum()
}

/// Trained score every new character starts with (CRE-3).
pub const STARTING_SCORE: i32 = 3;
/// Starting potential of a new character (CRE-11).
pub const STARTING_POTENTIAL: i32 = 36;

/// CRE-11: strength = potential spent: attribute raises from the starting 3, plus level × 3 for
/// every ability (gifted ones included).
pub fn strength(trained: [i32; 3], ability_levels: &[i32]) -> i32 {
    trained.iter().map(|&t| attribute_raise_cost(STARTING_SCORE, t)).sum::<i32>()
        + ability_levels.iter().map(|l| l * 3).sum::<i32>()
}

/// MOVE-13, MOVE-E7: the resistance dragging `weight_kg` adds to each step of an active move:
/// weight ÷ (Might × 10), with the dragger's current Might dice, floored (GEN-3). None: with
/// no Might dice left it cannot drag at all.
pub fn drag_resistance(weight_kg: i32, might_dice: i32) -> Option<i32> {
    (might_dice > 0).then(|| weight_kg.max(0) / (might_dice * 10))
}

/// The heaviest body a file may give a creature (kg).
pub const MAX_WEIGHT: i32 = 1_000_000;

#[cfg(test)]
mod tests {
    use super::*;
    use Attribute::*;

    fn human() -> Attributes {
        Attributes::new(Some(3), Some(3), Some(3))
    }

    // RULES: CRE-4 — 1 damage removes 1 die; dice never exceed the total.
    #[test]
    fn cre_4_damage_removes_dice_and_recovery_caps() {
        let mut a = human();
        assert_eq!(a.remove_dice(Might, 2), 2);
        assert_eq!(a.dice(Might), 1);
        assert_eq!(a.remove_dice(Might, 5), 1);
        assert_eq!(a.recover_dice(Might, 10), 3);
        assert_eq!(a.dice(Might), 3);
    }

    // RULES: CRE-6 — unconscious when any pool is empty; CRE-7 — dead when all are.
    #[test]
    fn cre_6_cre_7_unconscious_and_dead() {
        let mut a = human();
        a.remove_dice(Spirit, 3);
        assert!(a.is_unconscious() && !a.is_dead());
        a.remove_dice(Might, 3);
        a.remove_dice(Activeness, 3);
        assert!(a.is_dead());
    }

    // RULES: CRE-8, CRE-E1 — invalid attributes roll 3 dice, never lose dice, never cause
    // unconsciousness; death counts only valid pools.
    #[test]
    fn cre_8_invalid_attribute() {
        let mut ghost = Attributes::new(None, Some(4), Some(2));
        assert_eq!(ghost.dice(Might), 3);
        assert_eq!(ghost.remove_dice(Might, 5), 0);
        assert!(!ghost.is_unconscious());
        assert_eq!(ghost.lower_of(Might, Spirit), 2);
        assert_eq!(ghost.higher_of(Might, Activeness), 4);
        ghost.remove_dice(Activeness, 4);
        ghost.remove_dice(Spirit, 2);
        assert!(ghost.is_dead());
    }

    // RULES: CRE-5 — damage on several attributes is split by the victim.
    #[test]
    fn cre_5_allocation() {
        let mut a = Attributes::new(Some(4), Some(2), Some(3));
        let split = allocate_damage(&mut a, &[Might, Activeness], 3, Allocation::StayConscious);
        assert_eq!(split, vec![(Might, 3)]);
        assert_eq!(a.dice(Might), 1);
        let mut b = Attributes::new(Some(4), Some(2), Some(3));
        let split = allocate_damage(&mut b, &[Activeness, Might], 3, Allocation::InOrder);
        assert_eq!(split, vec![(Activeness, 2), (Might, 1)]);
        let mut c = Attributes::new(Some(2), Some(2), Some(3));
        let split = allocate_damage(&mut c, &[Might, Activeness], 4, Allocation::StayConscious);
        assert_eq!(split, vec![(Might, 2), (Activeness, 2)]);
    }

    // RULES: CRE-E2 — a temporary increase adds dice; its end removes dice above the cap.
    #[test]
    fn cre_e2_temporary_changes() {
        let mut a = human();
        a.change_max(Might, 2);
        assert_eq!(a.pool(Might), Some(Pool { max: 5, current: 5 }));
        a.change_max(Might, -2);
        assert_eq!(a.pool(Might), Some(Pool { max: 3, current: 3 }));
        a.change_max(Might, -9);
        assert_eq!(a.pool(Might), Some(Pool { max: 1, current: 1 }));
    }

    // RULES: CRE-9, CRE-10
    #[test]
    fn cre_9_protections_by_type() {
        let p = Protections { physical: 2, erosion: -1, spectral: 0 };
        assert_eq!(p.against(DamageType::Physical), 2);
        assert_eq!(p.against(DamageType::Erosion), -1);
    }

    // RULES: SPACE-8, SPACE-E4, SPACE-9, SPACE-E5
    #[test]
    fn space_e4_footprints_and_blocking() {
        assert_eq!(Size::Medium.footprint(), 1);
        assert_eq!(Size::Large.footprint(), 2);
        assert_eq!(Size::Huge.footprint(), 3);
        assert!(!may_pass_through(Size::Medium, false, Size::Large, false));
        assert!(!may_pass_through(Size::Medium, false, Size::Small, false));
        assert!(may_pass_through(Size::Medium, false, Size::Huge, false));
        assert!(may_pass_through(Size::Tiny, false, Size::Medium, false));
        assert!(may_pass_through(Size::Medium, true, Size::Medium, false));
    }

    // RULES: CRE-3, CRE-11 — raising costs current × 3; strength is spent potential.
    #[test]
    fn cre_11_strength_is_spent_potential() {
        assert_eq!(attribute_raise_cost(3, 4), 9);
        assert_eq!(attribute_raise_cost(3, 5), 21);
        assert_eq!(strength([3, 3, 3], &[]), 0);
        // 5/4/3 with a level-1 and a level-2 ability: 21 + 9 + 3 + 6 = 39.
        assert_eq!(strength([5, 4, 3], &[1, 2]), 39);
        assert_eq!(STARTING_POTENTIAL, 36);
    }

    // RULES: MOVE-13, MOVE-E7 — weight ÷ (current Might dice × 10), floored; no Might, no drag.
    #[test]
    fn move_13_drag_resistance() {
        assert_eq!(drag_resistance(70, 4), Some(1), "70 ÷ 40 = 1.75 → 1");
        assert_eq!(drag_resistance(70, 3), Some(2), "70 ÷ 30 = 2.33 → 2");
        assert_eq!(drag_resistance(70, 8), Some(0), "a strong creature drags a body freely");
        assert_eq!(drag_resistance(400, 2), Some(20));
        assert_eq!(drag_resistance(70, 0), None);
    }
}
