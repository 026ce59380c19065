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

/// A spotter (A, Blue) looking east along a corridor at two hiders of Red in thickets: B in
/// its sight, C behind a wall.
fn hiders(ruleset: &str, seed: u64) -> Battle {
    let text = format!(
        r#"(name: "Hiders", map: ["WWWWWWWWW", "W...t.WtW", "WWWWWWWWW"],
            legend: {{ '.': "floor", 'W': "wall", 't': "thicket" }},
            terrains: {{ "floor": (), "wall": (blocks_movement: true, blocks_sight: true), "thicket": (concealing: true) }},
            sides: [(name: "Blue"), (name: "Red")],
            ruleset: {ruleset},
            creatures: [
              (name: "A", template: "human_fighter", side: "Blue", at: (1, 1), facing: E, overrides: (activeness: Some(10), spirit: Some(3))),
              (name: "B", template: "human_fighter", side: "Red", at: (4, 1), facing: W, hidden: true, overrides: (activeness: Some(3))),
              (name: "C", template: "human_fighter", side: "Red", at: (7, 1), facing: W, hidden: true, overrides: (activeness: Some(3))),
            ])"#
    );
    let l = parse_level("h.level.ron", &text, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
    Battle::new(&l, builtin_compendium(), seed).unwrap()
}

/// The hide points each creature rolled, in the log from `mark` on: (creature, points, seen by).
fn hide_rolls(b: &Battle, mark: usize) -> Vec<(CreatureId, i32, Vec<String>)> {
    b.log()[mark..]
        .iter()
        .filter_map(|e| match &e.event {
            Event::Rolled { creature, purpose, points, .. } if purpose == "hide points" => {
                Some((*creature, *points, e.visible_to.clone()))
            }
            _ => None,
        })
        .collect()
}

/// End turns until round `round` starts.
fn play_to_round(b: &mut Battle, round: u32) {
    while b.round() < round {
        let (c, _) = b.awaiting().expect("the battle goes on");
        b.submit(c, Command::EndTurn).unwrap();
    }
}

// RULES: PERC-E4, PERC-7 — 001 Hide (the hiding Variants, `hiding: HideSpot001`): a hider rolls
// its Activeness dice for hide points when it starts hiding and again at every round start,
// secretly (only its side sees the roll); its `hidden` holds the points. By default the hidden
// creature keeps PERC-8's difficulty (Medium 2 × careful 3 = 6 in a thicket) and rolls nothing.
#[test]
fn perc_e4_001_hide_points_each_round() {
    let mut b = hiders("(hiding: HideSpot001)", 4);
    let rolls = hide_rolls(&b, 0);
    assert_eq!(rolls.iter().map(|r| r.0).collect::<Vec<_>>(), vec![1, 2], "{rolls:?}");
    for (c, points, seen_by) in &rolls {
        assert_eq!(seen_by, &vec!["Red".to_string()]);
        assert_eq!(b.fighter(*c).hidden, Some(i64::from(*points)));
        assert!((0..=3).contains(points));
    }
    let mark = b.log().len();
    play_to_round(&mut b, 2);
    let again = hide_rolls(&b, mark);
    assert_eq!(again.iter().map(|r| r.0).collect::<Vec<_>>(), vec![1, 2]);
    for (c, points, _) in &again {
        assert_eq!(b.fighter(*c).hidden, Some(i64::from(*points)));
    }
    let meshal = hiders("()", 4);
    assert!(hide_rolls(&meshal, 0).is_empty());
    assert_eq!((meshal.fighter(1).hidden, meshal.fighter(2).hidden), (Some(6), Some(6)));
}

// RULES: PERC-E4, PERC-7 — 001 Spot: 1 AP, Spirit dice against every hostile hider in range; a
// hider with fewer hide points is locked on (its side perceives it, it stays hidden) when
// there is a clear line, else only noticed (its square becomes the side's last sighting, it is
// not perceived). The lock ends with the round, when the hide points are rolled anew. Over
// seeded battles both outcomes occur and each follows the points; the default refuses Spot.
#[test]
fn perc_e4_001_spot_locks_on_until_the_round_ends() {
    let (mut locked_seen, mut missed_seen) = (0, 0);
    for seed in 0..40 {
        let mut b = hiders("(hiding: HideSpot001)", seed);
        assert_eq!(b.awaiting(), Some((0, None)));
        let hide = |b: &Battle, c: CreatureId| b.fighter(c).hidden.unwrap();
        let (hb, hc) = (hide(&b, 1), hide(&b, 2));
        let mark = b.log().len();
        b.submit(0, Command::Spot).unwrap();
        assert_eq!(b.fighter(0).ap, 2, "Spot costs 1 AP");
        let spot = b.log()[mark..].iter().find_map(|e| match &e.event {
            Event::SpotMade { points, locked, noticed, .. } => {
                assert_eq!(e.visible_to, vec!["Blue".to_string()]);
                Some((i64::from(*points), locked.clone(), noticed.clone()))
            }
            _ => None,
        });
        let (points, locked, noticed) = spot.expect("a SpotMade event");
        assert_eq!(locked, if points > hb { vec![1] } else { vec![] }, "seed {seed}");
        assert_eq!(noticed, if points > hc { vec![2] } else { vec![] }, "seed {seed}");
        assert_eq!(b.side_perceives(0, 1), points > hb);
        assert!(b.fighter(1).hidden.is_some(), "a lock-on does not end the hiding");
        assert!(!b.side_perceives(0, 2), "behind the wall C is noticed, not perceived");
        assert_eq!(b.last_seen(0, 2), (points > hc).then_some(meshal_tactics::rules::grid::Pos::new(7, 1)));
        if points > hb {
            locked_seen += 1;
            play_to_round(&mut b, 2);
            assert!(b.fighter(1).locked_on.is_empty());
            assert!(!b.side_perceives(0, 1), "seed {seed}: the lock ended with the round");
        } else {
            missed_seen += 1;
        }
    }
    assert!(locked_seen > 0 && missed_seen > 0, "{locked_seen} locked, {missed_seen} missed");
    let meshal = hiders("()", 1);
    assert_eq!(meshal.check(0, &Command::Spot).unwrap_err().rule, "PERC-7");
}

// RULES: PERC-E4 — 001 Hide: hiding again while hidden re-rolls the hide points for 1 AP (001:
// "1 tactical action re-rolls"); by default hiding twice is refused.
#[test]
fn perc_e4_001_hiding_again_rerolls() {
    let mut b = hiders("(hiding: HideSpot001)", 2);
    b.submit(0, Command::EndTurn).unwrap();
    let (c, _) = b.awaiting().unwrap();
    assert!(c == 1 || c == 2);
    let mark = b.log().len();
    b.submit(c, Command::Hide).unwrap();
    let rolled = hide_rolls(&b, mark);
    assert_eq!(rolled.len(), 1);
    assert_eq!(b.fighter(c).hidden, Some(i64::from(rolled[0].1)));
    assert_eq!(b.fighter(c).ap, b.fighter(c).max_ap - 1);
    let mut meshal = hiders("()", 2);
    meshal.submit(0, Command::EndTurn).unwrap();
    let (c, _) = meshal.awaiting().unwrap();
    assert_eq!(meshal.check(c, &Command::Hide).unwrap_err().rule, "PERC-E4");
}

/// A (Blue, `a_template` in `a_posture`) at (1, 1) facing E, B (Red, a human fighter in
/// `b_posture`) at `b_x`, under `ruleset`.
fn postured(ruleset: &str, a_template: &str, a_posture: &str, b_posture: &str, b_x: i32) -> Battle {
    let text = format!(
        r#"(name: "Postures", map: ["WWWWWWWWW", "W.......W", "WWWWWWWWW"],
            legend: {{ '.': "floor", 'W': "wall" }},
            terrains: {{ "floor": (), "wall": (blocks_movement: true, blocks_sight: true) }},
            sides: [(name: "Blue"), (name: "Red")],
            ruleset: {ruleset},
            creatures: [
              (name: "A", template: "{a_template}", side: "Blue", at: (1, 1), facing: E, posture: {a_posture}, overrides: (activeness: Some(10))),
              (name: "B", template: "human_fighter", side: "Red", at: ({b_x}, 1), facing: W, posture: {b_posture}, overrides: (activeness: Some(1))),
            ])"#
    );
    let l = parse_level("p.level.ron", &text, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
    Battle::new(&l, builtin_compendium(), 3).unwrap()
}

/// (dice, protection) A's `weapon` would roll on B.
fn preview(b: &Battle, weapon: &str) -> (i32, i32) {
    let c = Command::Attack { weapon: weapon.into(), target: Target::Creature(1), additives: vec![] };
    let p = &b.attack_preview(0, &c).unwrap_or_else(|e| panic!("{e:?}"))[0];
    (p.dice, p.protection)
}

// RULES: POST-3, POST-E1, POST-E3 — 001's posture table (`posture_effects: Table001`) against the
// default. A bow on a crouching target: by default the posture is +1 cover (protection), under
// 001 the shooter loses a die; on a crawling (Prone) target +3 cover against 2 dice. A sword
// from a crouch: no penalty by default, 1 die under 001; from Prone 2 dice under both.
#[test]
fn post_3_001_posture_table_effects() {
    let base = preview(&postured("()", "archer", "Standing", "Standing", 5), "bow");
    let (meshal, table) = ("()", "(posture_effects: Table001)");
    assert_eq!(preview(&postured(meshal, "archer", "Standing", "Crouch", 5), "bow"), (base.0, base.1 + 1));
    assert_eq!(preview(&postured(table, "archer", "Standing", "Crouch", 5), "bow"), (base.0 - 1, base.1));
    assert_eq!(preview(&postured(meshal, "archer", "Standing", "Prone", 5), "bow"), (base.0, base.1 + 3));
    assert_eq!(preview(&postured(table, "archer", "Standing", "Prone", 5), "bow"), (base.0 - 2, base.1));
    assert_eq!(preview(&postured(table, "archer", "Standing", "Lying", 5), "bow"), (base.0 - 2, base.1));
    let sword = preview(&postured(meshal, "human_fighter", "Standing", "Standing", 2), "sword");
    assert_eq!(preview(&postured(meshal, "human_fighter", "Crouch", "Standing", 2), "sword"), sword);
    assert_eq!(preview(&postured(table, "human_fighter", "Crouch", "Standing", 2), "sword"), (sword.0 - 1, sword.1));
    assert_eq!(preview(&postured(meshal, "human_fighter", "Prone", "Standing", 2), "sword"), (sword.0 - 2, sword.1));
    assert_eq!(preview(&postured(table, "human_fighter", "Prone", "Standing", 2), "sword"), (sword.0 - 2, sword.1));
}

// RULES: POST-3, MOVE-E1, POST-2 — 001 lying: only moving, changing posture and reactions (an
// attack is refused, by the rule), the move ÷4 (resistance 3: a speed-3 fighter cannot crawl a
// square; by default, resistance 2, it moves 1); standing up from lying costs 2 AP (001's TA2),
// 1 by default.
#[test]
fn post_3_001_lying_only_moves() {
    let (meshal, table) = ("()", "(posture_effects: Table001, posture_costs: Table001)");
    let attack = Command::Attack { weapon: "sword".into(), target: Target::Creature(1), additives: vec![] };
    let lying = postured(table, "human_fighter", "Lying", "Standing", 2);
    assert_eq!(lying.check(0, &attack).unwrap_err().rule, "POST-3");
    assert_eq!(lying.check(0, &Command::Hide).unwrap_err().rule, "POST-3");
    assert!(postured(meshal, "human_fighter", "Lying", "Standing", 2).check(0, &attack).is_ok());
    let squares = |b: &Battle| b.reachable(0, false).map_or(0, |f| f.destinations().filter(|d| d.x != 1).count());
    assert_eq!(squares(&postured(meshal, "human_fighter", "Lying", "Standing", 6)), 1);
    assert_eq!(squares(&postured(table, "human_fighter", "Lying", "Standing", 6)), 0);
    let mut up = postured(table, "human_fighter", "Lying", "Standing", 6);
    up.submit(0, Command::ChangePosture { posture: meshal_tactics::rules::posture::Posture::Standing }).unwrap();
    assert_eq!(up.fighter(0).ap, up.fighter(0).max_ap - 2);
    let mut up = postured(meshal, "human_fighter", "Lying", "Standing", 6);
    up.submit(0, Command::ChangePosture { posture: meshal_tactics::rules::posture::Posture::Standing }).unwrap();
    assert_eq!(up.fighter(0).ap, up.fighter(0).max_ap - 1);
}
