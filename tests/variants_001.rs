//! The older test rules (001) as Ruleset switches, each against the default on one attack.

use meshal_tactics::battle::*;
use meshal_tactics::level::{builtin_compendium, parse_level};

fn battle(ruleset: &str) -> Battle {
    battle_seeded(ruleset, 9)
}

fn battle_seeded(ruleset: &str, seed: u64) -> Battle {
    let text = format!(
        r#"(name: "Test", map: ["WWWWWW", "W....W", "WWWWWW"],
            legend: {{ '.': "floor", 'W': "wall" }},
            terrains: {{ "floor": (), "wall": (blocks_movement: true, blocks_sight: true) }},
            sides: [(name: "Blue"), (name: "Red")],
            ruleset: {ruleset},
            creatures: [
              (name: "A", template: "human_fighter", side: "Blue", at: (1, 1), facing: E, overrides: (might: Some(6), activeness: Some(10))),
              (name: "B", template: "dire_wolf", side: "Red", at: (2, 1), facing: E, overrides: (activeness: Some(1))),
            ])"#
    );
    let l = parse_level("v.level.ron", &text, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
    Battle::new(&l, builtin_compendium(), seed).unwrap()
}

/// (dice rolled, protection in the segment) of A's sword on B, struck from B's rear.
fn sword(b: &mut Battle) -> (usize, i32) {
    let mark = b.log().len();
    let c = Command::Attack { weapon: "sword".into(), target: Target::Creature(1), additives: vec![] };
    b.submit(0, c).unwrap();
    let rolled = b.log()[mark..].iter().find_map(|e| match &e.event {
        Event::Rolled { faces, purpose, .. } if purpose.starts_with("attack") => Some(faces.len()),
        _ => None,
    });
    let protection = b.log()[mark..].iter().find_map(|e| match &e.event {
        Event::SegmentResolved { protection, .. } => Some(*protection),
        _ => None,
    });
    (rolled.unwrap(), protection.unwrap())
}

// RULES: ATK-7, ATK-9 — attack resolution, 000 (default): 6 dice rolled, the dire wolf's
// physical protection 1 (natural) + its hide subtracted from the points; 001 (`Test001`):
// protection is the test's difficulty, so 6 − 1 = 5 dice are rolled and nothing is
// subtracted; the preview says the same.
#[test]
fn atk_001_attack_resolution_switch() {
    let mut meshal = battle("()");
    let preview = |b: &Battle| {
        let c = Command::Attack { weapon: "sword".into(), target: Target::Creature(1), additives: vec![] };
        let p = &b.attack_preview(0, &c).unwrap()[0];
        (p.dice, p.protection)
    };
    assert_eq!(preview(&meshal), (6, 1));
    assert_eq!(sword(&mut meshal), (6, 1));
    let mut test = battle("(attack_resolution: Test001)");
    assert_eq!(preview(&test), (5, 0));
    assert_eq!(sword(&mut test), (5, 0));
}

/// Every tie-break roll of the battles' opening initiative under `ruleset`, with whether the
/// logged order follows totals and then tie-breaks.
fn tie_breaks(ruleset: &str) -> Vec<u32> {
    let text = format!(
        r#"(name: "Ties", map: ["WWWWWWW", "W.....W", "WWWWWWW"],
            legend: {{ '.': "floor", 'W': "wall" }},
            terrains: {{ "floor": (), "wall": (blocks_movement: true, blocks_sight: true) }},
            sides: [(name: "Blue"), (name: "Red")],
            ruleset: {ruleset},
            creatures: [
              (name: "A", template: "grey_wolf", side: "Blue", at: (1, 1), facing: E, overrides: (activeness: Some(1))),
              (name: "B", template: "grey_wolf", side: "Red", at: (3, 1), facing: E, overrides: (activeness: Some(1))),
              (name: "C", template: "grey_wolf", side: "Red", at: (5, 1), facing: E, overrides: (activeness: Some(1))),
            ])"#
    );
    let l = parse_level("t.level.ron", &text, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
    let mut all = Vec::new();
    for seed in 0..300 {
        let b = Battle::new(&l, builtin_compendium(), seed).unwrap();
        let mut rolled: Vec<(u32, Vec<u32>)> = Vec::new();
        for e in b.log() {
            if let Event::InitiativeRolled { total, tie_breaks, .. } = &e.event {
                rolled.push((*total, tie_breaks.clone()));
                all.extend(tie_breaks.iter().copied());
            }
        }
        let mut sorted = rolled.clone();
        sorted.sort_by(|a, b| b.cmp(a));
        assert_eq!(rolled, sorted, "seed {seed}: the order is by total, then tie-breaks");
    }
    all
}

// RULES: TIME-3, TIME-E1 — the 001 variant (Variants row 18): with `initiative_ties:
// RollAdd001` a tie breaks by one more die each ("roll add"), again while still tied; the
// default rolls 3Σ. One Activeness die each: ties are frequent.
#[test]
fn time_3_001_initiative_ties_by_roll_add() {
    let add = tie_breaks("(initiative_ties: RollAdd001)");
    assert!(add.len() > 100, "ties happen: {}", add.len());
    assert!(add.iter().all(|t| (1..=6).contains(t)), "one die each");
    let three = tie_breaks("()");
    assert!(three.iter().all(|t| (3..=18).contains(t)) && three.iter().any(|&t| t > 6), "3Σ each");
}

// RULES: DICE-2 — the 001 variant (dice Variants, "Points"): with `dice_points: HighFaces001`
// every roll the battle logs scores its fives and sixes, one point each (the default scores
// ones and twos), and the attack preview's odds are exactly the rules core's distribution
// with that table (6 dice against protection 1: 001's mean is well below the default's).
#[test]
fn dice_2_001_points_switch() {
    use meshal_tactics::rules::attack::{AttackOdds, damage_distribution};
    use meshal_tactics::rules::dice::DicePoints;
    for (ruleset, points) in [("()", DicePoints::Meshal), ("(dice_points: HighFaces001)", DicePoints::HighFaces001)] {
        let mut b = battle(ruleset);
        let c = Command::Attack { weapon: "sword".into(), target: Target::Creature(1), additives: vec![] };
        let p = b.attack_preview(0, &c).unwrap().remove(0);
        let exact =
            damage_distribution(&AttackOdds { dice: 6, segments: 1, protection: 1, points, ..Default::default() });
        assert_eq!(p.odds(0), exact, "{ruleset}");
        let mark = b.log().len();
        b.submit(0, c).unwrap();
        let mut rolls = 0;
        for e in &b.log()[mark..] {
            if let Event::Rolled { faces, points: scored, .. } = &e.event {
                let expected: u32 = faces
                    .iter()
                    .map(|&f| match (points, f) {
                        (DicePoints::Meshal, 1) | (DicePoints::HighFaces001, 5 | 6) => 1,
                        (DicePoints::Meshal, 2) => 2,
                        _ => 0,
                    })
                    .sum();
                assert_eq!(*scored as u32, expected, "{ruleset}: {faces:?}");
                rolls += 1;
            }
        }
        assert!(rolls >= 1, "{ruleset}: the attack rolled");
    }
    let mean = |points| {
        damage_distribution(&AttackOdds { dice: 6, segments: 1, protection: 1, points, ..Default::default() })
            .expected_damage
    };
    assert!(mean(DicePoints::HighFaces001) < mean(DicePoints::Meshal) - 0.5);
}

// RULES: DICE-6, FLOW-5 — the 001 variant (dice Variants, "Attempt"): with `attempts: Test001`
// the difficulty removes dice and any point succeeds. A (10 Activeness dice) fleeing the dire
// wolf (1 Activeness die: difficulty 1) rolls its 10 dice and keeps the first 9; the chance
// the battle reports is P(9 dice score) = 1 − (2/3)⁹, against P(10 dice > 1) by default; the
// logged attempt counts the kept dice's points against 0.
#[test]
fn dice_6_001_attempts_switch() {
    use meshal_tactics::rules::dice::DicePoints;
    let default = battle("()");
    let meshal = DicePoints::Meshal;
    assert!((default.flee_chance(0) - meshal.attempt_chance(10, 1)).abs() < 1e-12);
    let test = battle("(attempts: Test001)");
    assert!((test.flee_chance(0) - (1.0 - (2.0f64 / 3.0).powi(9))).abs() < 1e-12);
    let (mut tried, mut fled) = (0, 0);
    for seed in 0..40 {
        let mut b = battle_seeded("(attempts: Test001)", seed);
        for _ in 0..50 {
            match b.awaiting() {
                Some((c, Some(_))) => b.submit(c, Command::Pass).unwrap(),
                Some((0, None)) if b.check(0, &Command::Flee).is_ok() => {
                    let mark = b.log().len();
                    b.submit(0, Command::Flee).unwrap();
                    let faces = b.log()[mark..]
                        .iter()
                        .find_map(|e| match &e.event {
                            Event::Rolled { faces, purpose, .. } if purpose == "flee" => Some(faces.clone()),
                            _ => None,
                        })
                        .unwrap();
                    let (points, difficulty, success) = b.log()[mark..]
                        .iter()
                        .find_map(|e| match &e.event {
                            Event::FleeAttempted { points, difficulty, success, .. } => {
                                Some((*points, *difficulty, *success))
                            }
                            _ => None,
                        })
                        .unwrap();
                    assert_eq!(faces.len(), 10, "all ten dice are rolled at once");
                    assert_eq!(points as u32, meshal.points(&faces[..9]), "the last die is dropped: {faces:?}");
                    assert_eq!((difficulty, success), (0, points > 0));
                    tried += 1;
                    fled += i32::from(success);
                    break;
                }
                Some((c, None)) => b.submit(c, Command::EndTurn).unwrap(),
                None => break,
            }
        }
    }
    assert_eq!(tried, 40, "A may flee in round 4 of every battle");
    assert!(fled >= 35, "1 − (2/3)⁹ ≈ 97% of attempts get away: {fled}");
}
