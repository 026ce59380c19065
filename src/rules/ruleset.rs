//! One value that selects every rule variant the digest names, so variants are options, not forks.

pub use super::dice::DicePoints;
use crate::rules::posture::Posture;
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
    /// 001's posture table (001_1172b9e802f06534.txt:124-129): each change is an emergency or a
    /// tactical action of fatigue 1 (1 AP), but standing up from lying and lying down from
    /// standing are tactical actions of fatigue 2 (2 AP).
    Table001,
}

/// Posture effects (POST-3 through POST-E1, or the effects columns of 001's posture table).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PostureEffects {
    /// 004 translated by POST-E1 (default): cover against ranged attacks, movement resistance
    /// and a roll penalty on every roll made for an action.
    #[default]
    Meshal,
    /// 001's table (001_1172b9e802f06534.txt:124-129; engine Prone is 001's Crawl): the tactical
    /// move ÷2 crouching, ÷3 crawling, ÷4 lying (MOVE-E1's resistance +1, +2, +3); its own
    /// melee attacks lose 1 die crouching and 2 crawling; ranged attacks against it lose 1 die
    /// crouching and 2 crawling or lying (no cover); nothing else is penalised; and lying, it
    /// takes no tactical action but moving and changing posture (reactions stay).
    Table001,
}

impl PostureEffects {
    /// Dice off every roll made for an action other than an attack (defense, attempts, hide
    /// points): POST-E1's penalty; none under 001, whose penalties are the attacks'.
    pub fn roll_penalty(self, p: Posture) -> i32 {
        match self {
            PostureEffects::Meshal => p.roll_penalty(),
            PostureEffects::Table001 => 0,
        }
    }

    /// Dice off an attack made in `from` on a target in `at`.
    pub fn attack_penalty(self, from: Posture, at: Posture, ranged: bool) -> i32 {
        match self {
            PostureEffects::Meshal => from.roll_penalty(),
            PostureEffects::Table001 if ranged => match at {
                Posture::Crouch => 1,
                Posture::Prone | Posture::Lying => 2,
                Posture::Standing | Posture::Sit => 0,
            },
            PostureEffects::Table001 => match from {
                Posture::Crouch => 1,
                Posture::Prone => 2,
                _ => 0,
            },
        }
    }

    /// The cover a posture gives against ranged attacks (POST-3); none under 001.
    pub fn ranged_cover(self, p: Posture) -> i32 {
        match self {
            PostureEffects::Meshal => p.ranged_cover(),
            PostureEffects::Table001 => 0,
        }
    }

    /// Movement resistance beyond the posture's own (`Posture::movement_resistance`): 001's
    /// lying divides the move by 4, one more than POST-3's prone.
    pub fn extra_resistance(self, p: Posture) -> i32 {
        i32::from(self == PostureEffects::Table001 && p == Posture::Lying)
    }

    /// May a creature in `p` take tactical actions other than moving and changing posture?
    pub fn may_act(self, p: Posture) -> bool {
        !(self == PostureEffects::Table001 && p == Posture::Lying)
    }
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

/// Attack resolution variants (ATK Variants table, "attack resolution").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AttackResolution {
    /// 000/003 (default): roll the attack dice for points; protection subtracts from them.
    #[default]
    Meshal,
    /// 001: the attack is a "test" with protection as its difficulty: protection removes attack
    /// dice (at least 1 die is left), and the points rolled are the damage before defense.
    /// 001's defense is a contest whose damage is the difference: the default's subtraction of
    /// defense points, so it needs no switch of its own.
    Test001,
}

impl AttackResolution {
    /// (dice rolled, protection subtracted from the points) for an attack of `dice` dice
    /// against `protection` under this variant. DICE-4: no dice is no roll under either.
    pub fn dice_and_protection(self, dice: i32, protection: i32) -> (i32, i32) {
        match self {
            AttackResolution::Meshal => (dice, protection),
            AttackResolution::Test001 if dice <= 0 => (dice, 0),
            AttackResolution::Test001 => ((dice - protection.max(0)).max(1), 0),
        }
    }
}

/// Attempt variants (DICE-6; the dice Variants row "Attempt"): how a roll meets a difficulty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Attempts {
    /// 000 (default, DICE-6): the points must be greater than the difficulty.
    #[default]
    Meshal,
    /// 001's "test": the difficulty is a disadvantage, one die fewer per point, and any point
    /// succeeds (001_1172b9e802f06534.txt:11).
    Test001,
}

impl Attempts {
    /// The points that count of a roll of `faces` (the attribute's dice, rolled at once), and
    /// the number they must exceed. Engine decision for 001: the disadvantage drops the roll's
    /// last dice, so one roll can be tested against several difficulties (a search finding
    /// each hidden creature on its own) and each test is a roll of the fewer dice.
    pub fn scored(self, points: DicePoints, faces: &[u8], difficulty: i64) -> (i64, i64) {
        match self {
            Attempts::Meshal => (i64::from(points.points(faces)), difficulty),
            Attempts::Test001 => {
                let keep = faces.len().saturating_sub(difficulty.max(0).min(faces.len() as i64) as usize);
                (i64::from(points.points(&faces[..keep])), 0)
            }
        }
    }

    /// Whether a roll of `faces` beats `difficulty` (DICE-6 or 001's test).
    pub fn succeeds(self, points: DicePoints, faces: &[u8], difficulty: i64) -> bool {
        let (scored, beat) = self.scored(points, faces, difficulty);
        crate::rules::dice::attempt_succeeds(scored, beat)
    }

    /// The chance `dice` dice beat `difficulty`, exactly.
    pub fn chance(self, points: DicePoints, dice: i32, difficulty: i64) -> f64 {
        match self {
            Attempts::Meshal => points.attempt_chance(dice, difficulty),
            Attempts::Test001 => {
                let fewer = i64::from(dice) - difficulty.max(0);
                points.attempt_chance(fewer.clamp(0, i64::from(i32::MAX)) as i32, 0)
            }
        }
    }
}

/// Hiding variants (PERC-E4; the "hiding and spotting" Variants table): how a hidden creature
/// is found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Hiding {
    /// 000 (default, PERC-E4): hiding sets the PERC-8 difficulty a 3 AP search must beat.
    #[default]
    Meshal,
    /// 001's Hide and Spot (001_1172b9e802f06534.txt:150-151): a hidden creature rolls hide
    /// points (Activeness, 001's Exactitude) when it hides and again at every round start; a
    /// Spot (Spirit, 001's Sense) beats every hostile hider in range with fewer hide points.
    HideSpot001,
}

/// Reaction variants (TIME-13's "reaction ordering" Variants): how many reactions one action
/// may draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Reactions {
    /// 003 (default) with TIME-E6: every creature whose reaction the action triggers may react,
    /// in initiative order from the actor on.
    #[default]
    Meshal,
    /// 001: "an action can be affected by only one emergency action", declared in initiative
    /// order (001_1172b9e802f06534.txt:109): the first creature to react takes the action's one
    /// reaction.
    OneEmergency001,
}

/// Timing models (TIME-S1…S7's Variants "time model").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TimeModel {
    /// 003 (default): AP per round, reset at one's turn start (TIME-6, TIME-8).
    #[default]
    ApRounds,
    /// 004's v7 seconds: one slot a second; actions last seconds, reactions leave gaps; every
    /// AP cost converted by TIME-E11 (battle/seconds.rs).
    Seconds004,
}

/// Initiative variants (TIME-3; Variants row 18): how tied initiative rolls are broken.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum InitiativeTies {
    /// 000/003 (default): each tied creature rolls 3Σ, again while still tied (TIME-3, TIME-E1).
    #[default]
    ThreeDice,
    /// 001: "roll add": one more die each, its face deciding, again while still tied
    /// (001_1172b9e802f06534.txt:12-13, :99).
    RollAdd001,
}

impl InitiativeTies {
    /// The dice of one tie-break roll.
    pub fn tie_dice(self) -> i32 {
        match self {
            InitiativeTies::ThreeDice => crate::rules::initiative::TIME_3_TIE_DICE,
            InitiativeTies::RollAdd001 => 1,
        }
    }
}

/// DICE-13 [Ext] Expense of Fate: to whom the battle offers it, right after each of their rolls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FateOffer {
    /// GEN-E1 (default: "Expense of Fate is player-only"): the sides a person plays, as the
    /// battle was told when it began (the window's player; `run --fate SIDE`).
    #[default]
    Players,
    /// Every creature, the AI's included: the AI then spends dice only where that turns a
    /// miss into a knock-out or saves it from one (a GM's comparison).
    Everyone,
    /// Nobody.
    Off,
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
    /// How an attack meets protection (000 or 001).
    pub attack_resolution: AttackResolution,
    /// [Ext] Expense of Fate (DICE-13).
    pub expense_of_fate: FateOffer,
    /// How initiative ties break (TIME-3 or 001's roll add).
    pub initiative_ties: InitiativeTies,
    /// Which faces score points (DICE-2 or 001's fives and sixes).
    pub dice_points: DicePoints,
    /// How a roll meets a difficulty (DICE-6 or 001's test).
    pub attempts: Attempts,
    /// How a hidden creature is found (PERC-E4's search or 001's Hide and Spot).
    pub hiding: Hiding,
    /// What postures do (POST-3 / POST-E1, or 001's posture table).
    pub posture_effects: PostureEffects,
    /// How many reactions one action may draw (TIME-E6, or 001's one emergency action).
    pub reactions: Reactions,
    /// How time is counted (TIME-6's AP rounds, or 004's seconds, TIME-S1).
    pub time_model: TimeModel,
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
            attack_resolution: AttackResolution::Meshal,
            expense_of_fate: FateOffer::Players,
            initiative_ties: InitiativeTies::ThreeDice,
            dice_points: DicePoints::Meshal,
            attempts: Attempts::Meshal,
            hiding: Hiding::Meshal,
            posture_effects: PostureEffects::Meshal,
            reactions: Reactions::Meshal,
            time_model: TimeModel::ApRounds,
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
        assert_eq!(r.attack_resolution, AttackResolution::Meshal);
    }

    // RULES: ATK-7, ATK-9 — the 001 variant (attack resolution): protection is the test's
    // difficulty, removing dice down to a minimum of 1; nothing is then subtracted. The default
    // leaves the dice and subtracts protection from the points.
    #[test]
    fn atk_001_attack_as_a_test_with_protection_as_difficulty() {
        assert_eq!(AttackResolution::Meshal.dice_and_protection(5, 2), (5, 2));
        assert_eq!(AttackResolution::Test001.dice_and_protection(5, 2), (3, 0));
        assert_eq!(AttackResolution::Test001.dice_and_protection(3, 7), (1, 0), "minimum 1 die");
        assert_eq!(AttackResolution::Test001.dice_and_protection(0, 1), (0, 0), "no dice, no roll (DICE-4)");
        let r: Ruleset = ron::from_str("(attack_resolution: Test001)").unwrap();
        assert_eq!(r.attack_resolution, AttackResolution::Test001);
    }

    #[test]
    fn ruleset_reads_partial_ron_with_defaults() {
        let r: Ruleset = ron::from_str("(facing_arcs: Wide, overreach: false)").unwrap();
        assert_eq!(r.facing_arcs, FacingArcs::Wide);
        assert!(!r.overreach);
        assert!(r.facing);
    }

    // RULES: DICE-6 — the 001 variant (dice Variants, "Attempt"): the difficulty removes dice
    // (the roll's last ones) and any point succeeds; the default needs points above the
    // difficulty. Faces 1, 4, 2 against difficulty 2: 000 scores 3 > 2; 001 keeps the first
    // die (a 1: one point) and succeeds too; faces 4, 4, 1 fail 001's test (the 1 is among the
    // dropped dice). The chances are exact.
    #[test]
    fn dice_6_001_attempt_as_a_test() {
        let m = DicePoints::Meshal;
        assert_eq!(Attempts::Meshal.scored(m, &[1, 4, 2], 2), (3, 2));
        assert_eq!(Attempts::Test001.scored(m, &[1, 4, 2], 2), (1, 0));
        assert!(Attempts::Test001.succeeds(m, &[1, 4, 2], 2));
        assert!(!Attempts::Test001.succeeds(m, &[4, 4, 1], 2), "the 1 is among the dice dropped");
        assert!(!Attempts::Test001.succeeds(m, &[1, 2], 5), "more difficulty than dice: no dice, no points");
        assert!(Attempts::Test001.succeeds(m, &[2], -3), "a negative difficulty counts as 0");
        // 4 dice against 2: 001 rolls 2 dice for any point (1 − (4/6)² = 5/9), 000 needs 3 or
        // more of 4 dice (the digest's table: 33%).
        assert!((Attempts::Test001.chance(m, 4, 2) - 5.0 / 9.0).abs() < 1e-12);
        assert!((Attempts::Meshal.chance(m, 4, 2) - m.attempt_chance(4, 2)).abs() < 1e-15);
        assert_eq!(Attempts::Test001.chance(m, 2, 9), 0.0);
    }
}
