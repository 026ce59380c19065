//! Objects on the map (ATK-16, ATK-E6, SPACE-3): doors that open, close and break, crates
//! that shelter, objects that break into rubble; scripted and checked event by event.

mod common;

use common::since;
use meshal_tactics::ai;
use meshal_tactics::battle::*;
use meshal_tactics::level::{builtin_compendium, parse_level};
use meshal_tactics::rules::grid::Pos;
use meshal_tactics::rules::los::has_cover;

const TERRAINS: &str = r#"
    legend: { '.': "floor", 'W': "wall" },
    terrains: { "floor": (), "wall": (blocks_movement: true, blocks_sight: true) },
    sides: [(name: "Blue"), (name: "Red")],
"#;

/// A room split by a wall with a door at (4, 2); `objects` adds to it.
const ROOMS: [&str; 5] = ["WWWWWWWWWW", "W...W....W", "W........W", "W...W....W", "WWWWWWWWWW"];
const DOOR: &str = "(kind: Door, at: (4, 2), material: Wood, thickness: 4)";

fn level_text(map: &[&str], objects: &str, creatures: &str) -> String {
    let rows: Vec<String> = map.iter().map(|r| format!("\"{r}\"")).collect();
    format!("(name: \"Test\", map: [{}], {TERRAINS} objects: [{objects}], creatures: [{creatures}])", rows.join(", "))
}

fn battle(objects: &str, creatures: &str) -> Battle {
    let text = level_text(&ROOMS, objects, creatures);
    let l = parse_level("objects.level.ron", &text, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
    Battle::new(&l, builtin_compendium(), 3).unwrap()
}

const BLUE: &str = r#"(name: "Blue", template: "hammer_guard", side: "Blue", at: (3, 2), facing: E, overrides: (might: Some(30), activeness: Some(10)))"#;
const RED: &str =
    r#"(name: "Red", template: "human_fighter", side: "Red", at: (6, 2), facing: W, overrides: (activeness: Some(1)))"#;

// RULES: ATK-16 — a closed door blocks moves and sight; opening it (1 AP, engine decision)
// lets both through; it closes again unless someone stands in the doorway.
#[test]
fn atk_16_a_door_opens_and_closes() {
    let mut b = battle(DOOR, &[BLUE, RED].join(","));
    let door = Pos::new(4, 2);
    assert!(!b.perceives(0, 1), "the closed door hides Red");
    assert!(!b.reachable(0, false).unwrap().can_end_at(Pos::new(5, 2)));
    let ap = b.fighter(0).ap;
    let mark = b.log().len();
    b.submit(0, Command::Door { at: door, open: true }).unwrap();
    assert!(since(&b, mark).contains(&&Event::DoorOperated { creature: 0, at: door, open: true }));
    assert_eq!(b.fighter(0).ap, ap - DOOR_AP);
    assert!(b.perceives(0, 1), "through the open door");
    assert!(b.objects()[0].open);
    assert_eq!(b.submit(0, Command::Door { at: door, open: true }).unwrap_err().rule, "ATK-16");
    // Closed again: Red is hidden again.
    let mut shut = b.clone();
    shut.submit(0, Command::Door { at: door, open: false }).unwrap();
    assert!(!shut.perceives(0, 1) && !shut.objects()[0].open);
    // In the doorway it cannot shut the door on itself.
    b.submit(0, Command::Move { path: vec![Pos::new(3, 2), door], sprint: false, face: None }).unwrap();
    assert!(b.check(0, &Command::Door { at: door, open: false }).is_err());
    let far = battle(DOOR, &[BLUE.replace("(3, 2)", "(2, 2)").as_str(), RED].join(","));
    assert_eq!(far.check(0, &Command::Door { at: door, open: true }).unwrap_err().rule, "SPACE-E6");
}

// RULES: ATK-16, ATK-E6, SPACE-3 — an object cannot defend; each segment's points beyond its
// material's protection (wood: physical 1) add up; at its durability (wood 4 × 4 digits = 16)
// it breaks: the square is rubble (difficult), blocks nothing and hides nothing.
#[test]
fn atk_e6_a_door_broken_is_rubble() {
    let mut b = battle(DOOR, &[BLUE, RED].join(","));
    let door = Pos::new(4, 2);
    assert_eq!(b.objects()[0].durability, 16);
    let mut broke = false;
    for _ in 0..3 {
        let mark = b.log().len();
        let c = Command::Attack { weapon: "warhammer".into(), target: Target::Square(door), additives: vec![] };
        b.submit(0, c).unwrap();
        let events = since(&b, mark);
        assert!(matches!(
            events.iter().find(|e| matches!(e, Event::ObjectAttacked { .. })),
            Some(Event::ObjectAttacked { dice: 30, .. })
        ));
        // Each segment's roll comes just before its damage: damage = max(0, points - 1).
        let mut rolled = None;
        let mut segments = 0;
        for e in &events {
            match e {
                Event::Rolled { points, .. } => rolled = Some(*points),
                Event::ObjectDamaged { protection, damage, .. } => {
                    assert_eq!(*protection, 1);
                    assert_eq!(*damage, (rolled.take().expect("a roll first") - 1).max(0));
                    segments += 1;
                }
                _ => {}
            }
        }
        assert_eq!(segments, 1, "the warhammer has one segment");
        if events.contains(&&Event::ObjectBroken { at: door }) {
            broke = true;
            break;
        }
    }
    assert!(broke, "30 dice break 16 durability within three blows");
    assert!(b.objects()[0].broken && b.object_at(door).is_none());
    let t = b.map().terrain(door);
    assert!(t.difficult && !t.blocks_movement && !t.blocks_sight, "rubble: {t:?}");
    assert!(b.perceives(0, 1));
    let again = Command::Attack { weapon: "warhammer".into(), target: Target::Square(door), additives: vec![] };
    assert_eq!(b.check(0, &again).unwrap_err().rule, "ATK-4");
}

// RULES: ATK-16 — objects are immune to spectral attacks; out of reach is refused (ATK-4).
#[test]
fn atk_16_spectral_attacks_and_reach() {
    let caster =
        r#"(name: "Mage", template: "caster", side: "Blue", at: (3, 2), facing: E, overrides: (activeness: Some(10)))"#;
    let b = battle(DOOR, &[caster, RED].join(","));
    let lash =
        Command::Attack { weapon: "mind_lash".into(), target: Target::Square(Pos::new(4, 2)), additives: vec![] };
    assert_eq!(b.check(0, &lash).unwrap_err().rule, "ATK-16");
    let far = battle(DOOR, &[BLUE.replace("(3, 2)", "(1, 2)").as_str(), RED].join(","));
    let swing =
        Command::Attack { weapon: "warhammer".into(), target: Target::Square(Pos::new(4, 2)), additives: vec![] };
    assert_eq!(far.check(0, &swing).unwrap_err().rule, "ATK-4");
}

// RULES: ATK-16, ATK-E5, MOVE-9 — a crate is crossed like a low wall and shelters from shots.
#[test]
fn atk_16_a_crate_shelters_and_can_be_crossed() {
    let open = ["WWWWWWWWWW", "W........W", "W........W", "W........W", "WWWWWWWWWW"];
    let text = level_text(&open, "(kind: Crate, at: (5, 2), material: Wood, thickness: 2)", &[BLUE, RED].join(","));
    let l = parse_level("crate.level.ron", &text, builtin_compendium()).unwrap();
    assert!(has_cover(&l.map, Pos::new(1, 2), Pos::new(6, 2)), "behind the crate");
    let b = Battle::new(&l, builtin_compendium(), 1).unwrap();
    let t = b.map().terrain(Pos::new(5, 2));
    assert!(t.blocks_movement && t.cross_height == Some(1) && t.low_cover);
}

// RULES: ATK-16 — the AI opens a closed door between it and its foe when the way round is
// long or there is none, and never otherwise.
#[test]
fn atk_16_the_ai_opens_the_door_in_its_way() {
    let blue = r#"(name: "Blue", template: "human_fighter", side: "Blue", at: (3, 2), facing: E, overrides: (activeness: Some(10)))"#;
    // Bars in the dividing wall: Blue sees Red through them but cannot pass.
    let walled = ["WWWWWWWWWW", "W...|....W", "W........W", "W...W....W", "WWWWWWWWWW"];
    let (blue, red) = (blue.replace("(3, 2)", "(3, 3)"), RED.replace("(6, 2)", "(6, 3)"));
    let text = level_text(&walled, DOOR, &[blue, red].join(","))
        .replace("'W': \"wall\" }", "'W': \"wall\", '|': \"bars\" }")
        .replace(
            "\"wall\": (blocks_movement: true, blocks_sight: true) }",
            "\"wall\": (blocks_movement: true, blocks_sight: true), \"bars\": (blocks_movement: true) }",
        );
    let l = parse_level("ai.level.ron", &text, builtin_compendium()).unwrap();
    let mut b = Battle::new(&l, builtin_compendium(), 1).unwrap();
    assert!(b.perceives(0, 1), "through the bars");
    let profile = &builtin_compendium().ai_profiles["normal"];
    let (c, _) = ai::decide_with(&b, 0, None, profile);
    assert_eq!(c, Command::Door { at: Pos::new(4, 2), open: true }, "it opens the way");
    b.submit(0, c).unwrap();
    let (c, _) = ai::decide_with(&b, 0, None, profile);
    assert!(!matches!(c, Command::Door { .. }), "an open door is left alone: {c:?}");
}

// RULES: ATK-16, SPACE-3 — bad objects are refused with the file, line and column.
#[test]
fn bad_objects_are_refused() {
    for (object, why) in [
        ("(kind: Door, at: (0, 0), material: Wood, thickness: 4)", "open ground"),
        ("(kind: Door, at: (40, 1), material: Wood, thickness: 4)", "off the map"),
        ("(kind: Crate, at: (1, 1), material: Wood, thickness: 0)", "thickness"),
        ("(kind: Crate, at: (1, 1), material: Wood, thickness: 2, open: true)", "only a door"),
        (
            "(kind: Crate, at: (1, 1), material: Wood, thickness: 2), (kind: Crate, at: (1, 1), material: Iron, thickness: 2)",
            "already",
        ),
    ] {
        let text = level_text(&ROOMS, object, "");
        let err = parse_level("bad.level.ron", &text, builtin_compendium()).unwrap_err().to_string();
        assert!(err.contains(why) && err.contains("bad.level.ron:"), "{err}");
    }
    let on_crate = level_text(&ROOMS, "(kind: Crate, at: (3, 2), material: Wood, thickness: 2)", BLUE);
    assert!(parse_level("c.level.ron", &on_crate, builtin_compendium()).is_err(), "no creature on a crate");
}

// RULES: ATK-E6 — a level that names its own terrain "rubble" keeps it: a broken door becomes
// the engine's rubble (difficult ground), not the level's.
#[test]
fn atk_e6_the_engines_rubble_whatever_the_level_names() {
    let text = level_text(&ROOMS, DOOR, &[BLUE, RED].join(",")).replace(
        r#""wall": (blocks_movement: true, blocks_sight: true) }"#,
        r#""wall": (blocks_movement: true, blocks_sight: true), "rubble": (blocks_movement: true, blocks_sight: true) }"#,
    );
    assert!(text.contains(r#""rubble": (blocks"#));
    let l = parse_level("rubble.level.ron", &text, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
    let mut b = Battle::new(&l, builtin_compendium(), 3).unwrap();
    let hit = Command::Attack { weapon: "warhammer".into(), target: Target::Square(Pos::new(4, 2)), additives: vec![] };
    for _ in 0..3 {
        if b.object_at(Pos::new(4, 2)).is_some() {
            b.submit(0, hit.clone()).unwrap();
        }
    }
    assert!(b.object_at(Pos::new(4, 2)).is_none());
    let t = b.map().terrain(Pos::new(4, 2));
    assert!(t.difficult && !t.blocks_movement, "{t:?}");
}
