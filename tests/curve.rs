//! Curve templates (AREA-E5): a polyline of up to 4 segments between square centres, its
//! SPACE-6 length at most the template's, each segment covering squares as a ray (AREA-E4),
//! stopped by what stops effects (AREA-E6) along the curve itself.

mod common;

use common::{battle_where_first, level_text, since};
use meshal_tactics::ai;
use meshal_tactics::battle::*;
use meshal_tactics::level::builtin_compendium;
use meshal_tactics::rules::grid::Pos;

/// A wall from (2, 3) to (6, 3), open at its west end (1, 3): the mage at (1, 1) south of it,
/// the Red fighter at (3, 5) north of it, seen by the mage's friend at (6, 5).
const BEHIND_A_WALL: [&str; 7] =
    ["WWWWWWWWW", "W.......W", "W.......W", "W.WWWWW.W", "W.......W", "W.......W", "WWWWWWWWW"];

fn mage_and_fighter() -> Battle {
    let text = level_text(
        "Curve",
        &BEHIND_A_WALL,
        &[
            r#"(name: "Mage", template: "serpent_mage", side: "Blue", at: (1, 1), facing: N)"#,
            r#"(name: "Fighter", template: "human_fighter", side: "Red", at: (3, 5), facing: S)"#,
            r#"(name: "Scout", template: "human_fighter", side: "Blue", at: (6, 5), facing: W)"#,
        ],
    );
    battle_where_first(&text, builtin_compendium(), 0)
}

fn serpent(points: &[(i32, i32)]) -> Command {
    Command::Attack {
        weapon: "fire_serpent".into(),
        target: Target::Curve(points.iter().map(|&(x, y)| Pos::new(x, y)).collect()),
        additives: vec![],
    }
}

// RULES: AREA-E5, AREA-E6, AREA-E7 — the fire serpent bends round the wall's end to strike the
// fighter behind it, whom no straight line reaches; the creatures on its squares are its
// targets, the caster's own square excluded.
#[test]
fn area_e5_a_curve_strikes_round_a_wall() {
    let mut b = mage_and_fighter();
    // North through the gap, then east along the far side: 4 + 2 = 6 of its 7 steps.
    let round = serpent(&[(1, 5), (3, 5)]);
    let hit = b.attack_preview(0, &round).expect("a legal curve");
    assert_eq!(hit.iter().map(|t| t.target).collect::<Vec<_>>(), vec![1]);
    // The straight line is stopped by the wall before it.
    let straight = serpent(&[(3, 5)]);
    assert!(b.attack_preview(0, &straight).map_or(true, |t| t.is_empty()));
    let mark = b.log().len();
    b.submit(0, round).unwrap();
    let declared = since(&b, mark).into_iter().find_map(|e| match e {
        Event::AttackDeclared { targets, .. } => Some(targets.clone()),
        _ => None,
    });
    assert_eq!(declared, Some(vec![1]));
}

// RULES: AREA-E5 — refusals name the rule and change nothing: longer than the template, more
// than 4 segments, a bend where the last one was, off the map, far off (SPACE-1), a curve for
// a weapon that is no curve, a direction for the curve.
#[test]
fn area_e5_refusals_name_the_rule() {
    let b = mage_and_fighter();
    let cases: Vec<(Command, &str)> = vec![
        (serpent(&[(1, 5), (7, 5)]), "AREA-E5"),
        (serpent(&[(2, 1), (3, 1), (4, 1), (5, 1), (6, 1)]), "AREA-E5"),
        (serpent(&[(2, 1), (2, 1)]), "AREA-E5"),
        (serpent(&[]), "AREA-E5"),
        (serpent(&[(1, 1)]), "AREA-E5"),
        (serpent(&[(1, -2)]), "AREA-E5"),
        (serpent(&[(1, 1 << 30)]), "SPACE-1"),
        (serpent(&[(i32::MIN, i32::MAX)]), "SPACE-1"),
        (
            Command::Attack {
                weapon: "fire_serpent".into(),
                target: Target::Toward(meshal_tactics::rules::facing::Facing::N),
                additives: vec![],
            },
            "AREA-E5",
        ),
        (
            Command::Attack {
                weapon: "mind_lash".into(),
                target: Target::Curve(vec![Pos::new(3, 5)]),
                additives: vec![],
            },
            "ATK-4",
        ),
    ];
    for (command, rule) in cases {
        let mut copy = b.clone();
        let why = copy.submit(0, command.clone()).unwrap_err();
        assert_eq!(why.rule, rule, "{command:?}: {why}");
        assert_eq!(copy.fighter(0).ap, b.fighter(0).ap);
        assert_eq!(copy.awaiting(), b.awaiting());
    }
    let huge = serpent(&vec![(2, 1); 100_000]);
    assert_eq!(b.check(0, &huge).unwrap_err().rule, "AREA-E5", "a long list is refused at once");
}

// RULES: AREA-E5 — the AI draws the curve where it is obviously right: round the wall at the
// fighter no straight line reaches (stepping to the gap first when that is safer).
#[test]
fn area_e5_the_ai_bends_the_serpent_round_the_wall() {
    let mut b = mage_and_fighter();
    let mut curves = Vec::new();
    while let Some((c, w)) = b.awaiting() {
        if w.is_none() && c != 0 {
            break;
        }
        let command = ai::decide(&b, c, w);
        if let Command::Attack { weapon, target: Target::Curve(points), .. } = &command {
            assert_eq!(weapon, "fire_serpent");
            let hit = b.attack_preview(0, &command).unwrap();
            assert!(hit.iter().any(|t| t.target == 1), "{points:?} misses the fighter");
            curves.push(points.clone());
        }
        b.submit(c, command).unwrap();
    }
    assert_eq!(curves.len(), 1, "one serpent in its turn (2 of 3 AP)");
    assert!(curves[0].len() >= 2, "a bent curve: {:?}", curves[0]);
}

// RULES: AREA-E5, AREA-E1 — a compendium cannot give an area template so large that placing it
// would walk millions of squares: each size is bounded, the error names the weapon.
#[test]
fn absurd_area_sizes_are_refused_with_the_weapon_named() {
    use meshal_tactics::level::compendium::AreaSpec;
    for (key, area, why) in [
        ("fire_serpent", AreaSpec::Curve { length: 1_000_000 }, "curve's length"),
        ("fire_serpent", AreaSpec::Curve { length: 0 }, "curve's length"),
        ("fireball", AreaSpec::Circle { radius: i32::MAX }, "circle's radius"),
        ("frost_ring", AreaSpec::Ring { radius: 2, width: -1 }, "ring's radius"),
        ("lightning", AreaSpec::Ray { length: 65, width: 1 }, "ray's length"),
        ("lightning", AreaSpec::Cone { length: 4, angle: f64::NAN }, "cone's length"),
    ] {
        let mut c = builtin_compendium().clone();
        c.weapons.get_mut(key).unwrap().area = Some(area);
        let err = c.validate().unwrap_err();
        assert!(err.contains(why) && err.contains(key), "{err}");
    }
    assert_eq!(builtin_compendium().validate(), Ok(()));
}
