//! The older test rules (001) as Ruleset switches, each against the default on one attack.

use meshal_tactics::battle::*;
use meshal_tactics::level::{builtin_compendium, parse_level};

fn battle(ruleset: &str) -> Battle {
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
    Battle::new(&l, builtin_compendium(), 9).unwrap()
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
