//! Dangerous terrain (FLOW-10), scripted on purpose-built levels and checked event by event.
//! Engine decision (battle/hazard.rs): a hazard strikes a creature that ends a move in it or
//! starts its turn in it, not one that only crosses it; an adapted creature is spared.

use meshal_tactics::ai;
use meshal_tactics::battle::*;
use meshal_tactics::level::{builtin_compendium, parse_level};
use meshal_tactics::rules::creature::Attribute;
use meshal_tactics::rules::grid::Pos;

const TERRAINS: &str = r#"
    legend: { '.': "floor", 'W': "wall", 'f': "fire", 'q': "quicksand" },
    terrains: {
        "floor": (),
        "wall": (blocks_movement: true, blocks_sight: true),
        "fire": (hazard: Some((kind: "fire", dice: 6, damage: Some(Erosion), targets: [Might, Activeness]))),
        "quicksand": (hazard: Some((kind: "quicksand", targets: [Activeness], drain: 2))),
    },
    sides: [(name: "Blue"), (name: "Red")],
"#;

fn level_text(map: &[&str], creatures: &str) -> String {
    let rows: Vec<String> = map.iter().map(|r| format!("\"{r}\"")).collect();
    format!("(name: \"Test\", map: [{}], {TERRAINS} creatures: [{creatures}])", rows.join(", "))
}

fn battle(map: &[&str], creatures: &str) -> Battle {
    let text = level_text(map, creatures);
    let l = parse_level("hazard.level.ron", &text, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
    Battle::new(&l, builtin_compendium(), 5).unwrap()
}

/// (who, purpose, dice rolled) of every hazard roll since `from`.
fn hazard_rolls(b: &Battle, from: usize) -> Vec<(CreatureId, String, usize)> {
    b.log()[from..]
        .iter()
        .filter_map(|e| match &e.event {
            Event::Rolled { creature, purpose, faces, .. } if purpose.contains("FLOW-10") => {
                Some((*creature, purpose.clone(), faces.len()))
            }
            _ => None,
        })
        .collect()
}

fn struck(b: &Battle, from: usize) -> Vec<(CreatureId, String)> {
    b.log()[from..]
        .iter()
        .filter_map(|e| match &e.event {
            Event::HazardStruck { creature, kind, .. } => Some((*creature, kind.clone())),
            _ => None,
        })
        .collect()
}

const MAP: [&str; 5] = ["WWWWWWWWWW", "W........W", "W...f....W", "W........W", "WWWWWWWWWW"];
const WALKER: &str = r#"(name: "Walker", template: "human_fighter", side: "Blue", at: (2, 2), facing: E, overrides: (activeness: Some(10)))"#;
const FAR: &str =
    r#"(name: "Far", template: "human_fighter", side: "Red", at: (8, 3), facing: W, overrides: (activeness: Some(1)))"#;

fn walk(b: &mut Battle, path: &[(i32, i32)]) -> usize {
    let mark = b.log().len();
    let path = path.iter().map(|&(x, y)| Pos::new(x, y)).collect();
    b.submit(0, Command::Move { path, sprint: false, face: None }).unwrap_or_else(|r| panic!("{r}"));
    mark
}

// RULES: FLOW-10 — a creature that ends its move in fire is attacked by it: the level's dice,
// met by the protection of its type, never defended.
#[test]
fn flow_10_a_hazard_strikes_whoever_stops_in_it() {
    let mut b = battle(&MAP, &[WALKER, FAR].join(","));
    let mark = walk(&mut b, &[(2, 2), (3, 2), (4, 2)]);
    assert_eq!(struck(&b, mark), vec![(0, "fire".to_string())]);
    assert_eq!(hazard_rolls(&b, mark), vec![(0, "fire (FLOW-10)".to_string(), 6)]);
    assert!(b.log()[mark..].iter().all(|e| !matches!(e.event, Event::ReactionWindowOpened { .. })));
    assert_eq!(b.hazard_numbers(0, Pos::new(4, 2)).map(|h| (h.dice, h.drain)), Some((6, 0)));
    assert_eq!(b.hazard_numbers(0, Pos::new(5, 2)), None);
}

// RULES: FLOW-10 — crossing it on the way does no harm (Engine decision: a dash through fire).
#[test]
fn flow_10_crossing_a_hazard_does_no_harm() {
    let mut b = battle(&MAP, &[WALKER, FAR].join(","));
    let mark = walk(&mut b, &[(2, 2), (3, 2), (4, 2), (5, 2)]);
    assert!(struck(&b, mark).is_empty());
}

// RULES: FLOW-10 — a turn begun in a hazard starts with its harm; a drain removes dice outright.
#[test]
fn flow_10_a_turn_begun_in_quicksand_drains_dice() {
    let map = ["WWWWWWWWWW", "W........W", "W.q......W", "W........W", "WWWWWWWWWW"];
    let mut b = battle(&map, &[WALKER, FAR].join(","));
    let mark = b.log().len();
    assert!(struck(&b, 0).contains(&(0, "quicksand".to_string())), "struck at its first turn's start");
    let before = b.fighter(0).attrs.dice(Attribute::Activeness);
    // Around to its next turn: it stays where it is.
    b.submit(0, Command::EndTurn).unwrap();
    b.submit(1, Command::EndTurn).unwrap();
    assert_eq!(struck(&b, mark), vec![(0, "quicksand".to_string())]);
    assert!(hazard_rolls(&b, mark).is_empty(), "quicksand rolls no attack");
    assert_eq!(b.fighter(0).attrs.dice(Attribute::Activeness), before - 2);
}

// RULES: FLOW-10 — per-creature adaptations apply: a salamander stands in fire unharmed.
#[test]
fn flow_10_an_adapted_creature_is_spared() {
    let salamander = r#"(name: "Sal", template: "salamander", side: "Blue", at: (3, 2), facing: E, overrides: (activeness: Some(10)))"#;
    let mut b = battle(&MAP, &[salamander, FAR].join(","));
    let mark = walk(&mut b, &[(3, 2), (4, 2)]);
    assert!(struck(&b, mark).is_empty());
    assert_eq!(b.hazard_numbers(0, Pos::new(4, 2)), None);
}

// RULES: FLOW-10, MOVE-11 — a knock back that ends in fire is a move ended there.
#[test]
fn flow_10_knocked_into_the_fire() {
    let hammer = r#"(name: "Hammer", template: "hammer_guard", side: "Blue", at: (1, 2), facing: E, overrides: (might: Some(30), activeness: Some(10)))"#;
    let foe = r#"(name: "Foe", template: "human_fighter", side: "Red", at: (2, 2), facing: E, overrides: (activeness: Some(1), might: Some(30)))"#;
    let map = ["WWWWWWWWWW", "W........W", "W...f....W", "W........W", "WWWWWWWWWW"];
    let mut b = battle(&map, &[hammer, foe].join(","));
    let mark = b.log().len();
    let c = Command::Attack { weapon: "warhammer".into(), target: Target::Creature(1), additives: vec![] };
    b.submit(0, c).unwrap();
    assert_eq!(b.fighter(1).origin, Pos::new(4, 2));
    assert_eq!(struck(&b, mark), vec![(1, "fire".to_string())]);
}

// RULES: FLOW-10 — the AI does not end its move in fire when it need not: started in it with
// nobody to strike, it walks out.
#[test]
fn flow_10_the_ai_walks_out_of_the_fire() {
    let map = [
        "WWWWWWWWWWWWWWWW",
        "W..............W",
        "W.fff..........W",
        "W.fff..........W",
        "W.fff..........W",
        "WWWWWWWWWWWWWWWW",
    ];
    let ai_walker = r#"(name: "Walker", template: "human_fighter", side: "Blue", at: (3, 3), facing: E, overrides: (activeness: Some(10)))"#;
    let far = r#"(name: "Far", template: "human_fighter", side: "Red", at: (14, 3), facing: W, overrides: (activeness: Some(1)))"#;
    let b = battle(&map, &[ai_walker, far].join(","));
    let (c, _) = ai::decide_with(&b, 0, None, &builtin_compendium().ai_profiles["normal"]);
    let Command::Move { path, .. } = &c else { panic!("it should walk out: {c:?}") };
    let end = *path.last().unwrap();
    assert_eq!(b.hazard_numbers(0, end), None, "it ends its move out of the fire, at {end}");
}

// RULES: FLOW-10 — hazard data out of bounds are refused with the file, line and column.
#[test]
fn bad_hazards_are_refused() {
    for (hazard, why) in [
        (r#"(kind: "fire", dice: 31, targets: [Might])"#, "0..=30"),
        (r#"(kind: "fire", dice: 3, targets: [])"#, "targets"),
        (r#"(kind: " ", dice: 3, targets: [Might])"#, "kind"),
    ] {
        let text = level_text(&["WWW", "W.W", "WWW"], "")
            .replace(r#"(kind: "quicksand", targets: [Activeness], drain: 2)"#, hazard);
        let err = parse_level("bad.level.ron", &text, builtin_compendium()).unwrap_err().to_string();
        assert!(err.contains(why) && err.contains("bad.level.ron:") && err.contains("FLOW-10"), "{err}");
    }
}
