//! Forced movement and falls (MOVE-4, MOVE-7, MOVE-11, MOVE-E5, MOVE-12, MOVE-E6, MOVE-10,
//! MOVE-E4, SPACE-E7), scripted on purpose-built levels and checked event by event.
//!
//! The striker gets Might 30 (the warhammer's dice), so its blow always hurts; its target
//! faces away from it, so it cannot defend (FACE-4) and the attack resolves at once.

mod common;
use common::weighed_dealt;
use meshal_tactics::ai;
use meshal_tactics::battle::*;
use meshal_tactics::level::{builtin_compendium, parse_level};
use meshal_tactics::rules::facing::Facing;
use meshal_tactics::rules::forced::{ForcedKind, ForcedMove, ForcedStop, fall_dice};
use meshal_tactics::rules::grid::Pos;

const TERRAINS: &str = r#"
    legend: { '.': "floor", 'W': "wall", '~': "rough", '_': "chasm", 'o': "pit", 'u': "dip" },
    terrains: {
        "floor": (),
        "wall": (blocks_movement: true, blocks_sight: true),
        "rough": (difficult: true),
        "chasm": (drop: 6),
        "pit": (drop: 3),
        "dip": (drop: 2),
    },
    sides: [(name: "Blue"), (name: "Red")],
"#;

fn level_text(map: &[&str], creatures: &str) -> String {
    let rows: Vec<String> = map.iter().map(|r| format!("\"{r}\"")).collect();
    format!("(name: \"Test\", map: [{}], {TERRAINS} creatures: [{creatures}])", rows.join(", "))
}

fn battle(map: &[&str], creatures: &str) -> Battle {
    let text = level_text(map, creatures);
    let l = parse_level("forced.level.ron", &text, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
    Battle::new(&l, builtin_compendium(), 7).unwrap()
}

/// A hammer guard that acts first and always hurts, at `at` facing `facing`.
fn hammer(at: (i32, i32), facing: &str) -> String {
    format!(
        r#"(name: "Hammer", template: "hammer_guard", side: "Blue", at: {at:?}, facing: {facing}, overrides: (might: Some(30), activeness: Some(10)))"#
    )
}

fn foe(name: &str, at: (i32, i32), facing: &str) -> String {
    format!(
        r#"(name: "{name}", template: "human_fighter", side: "Red", at: {at:?}, facing: {facing}, overrides: (activeness: Some(1)))"#
    )
}

fn strike(b: &mut Battle, who: &str, weapon: &str, target: &str) -> usize {
    let (me, t) = (b.find(who).unwrap(), b.find(target).unwrap());
    let mark = b.log().len();
    let c = Command::Attack { weapon: weapon.into(), target: Target::Creature(t), additives: vec![] };
    b.submit(me, c).unwrap_or_else(|r| panic!("{who} {weapon}: {r}"));
    mark
}

/// The forced moves since `from`, as the whole log tells them (not one side's partial view).
fn forced_moves(b: &Battle, from: usize) -> Vec<(Vec<Pos>, ForcedStop)> {
    b.log()[from..]
        .iter()
        .filter(|e| !e.partial)
        .filter_map(|e| match &e.event {
            Event::ForcedMoved { path, stop, .. } => Some((path.clone(), *stop)),
            _ => None,
        })
        .collect()
}

fn falls(b: &Battle, from: usize) -> Vec<(CreatureId, i32, i32, Option<CreatureId>)> {
    b.log()[from..]
        .iter()
        .filter(|e| !e.partial)
        .filter_map(|e| match &e.event {
            Event::Fell { creature, depth, dice, onto, .. } => Some((*creature, *depth, *dice, *onto)),
            _ => None,
        })
        .collect()
}

fn fall_rolls(b: &Battle, from: usize) -> Vec<(CreatureId, usize)> {
    b.log()[from..]
        .iter()
        .filter_map(|e| match &e.event {
            Event::Rolled { creature, purpose, faces, .. } if purpose.starts_with("fall") => {
                Some((*creature, faces.len()))
            }
            _ => None,
        })
        .collect()
}

fn p(x: i32, y: i32) -> Pos {
    Pos::new(x, y)
}

const OPEN: [&str; 5] = ["WWWWWWWWWW", "W........W", "W........W", "W........W", "WWWWWWWWWW"];

// RULES: MOVE-4, MOVE-11, MOVE-E5, FACE-E1 — a knock back pushes the creature it hurts directly
// away from the source, square by square, its full distance; its facing does not change.
#[test]
fn move_11_knock_back_pushes_straight_away() {
    let mut b = battle(&OPEN, &[hammer((2, 2), "E"), foe("Foe", (3, 2), "E")].join(","));
    let mark = strike(&mut b, "Hammer", "warhammer", "Foe");
    assert_eq!(forced_moves(&b, mark), vec![(vec![p(3, 2), p(4, 2), p(5, 2)], ForcedStop::Spent)]);
    let foe = b.fighter(b.find("Foe").unwrap());
    assert_eq!((foe.origin, foe.facing), (p(5, 2), Facing::E));
    // The push is told after the damage it comes with.
    let damaged = b.log()[mark..].iter().position(|e| matches!(e.event, Event::Damaged { .. })).unwrap();
    let pushed = b.log()[mark..].iter().position(|e| matches!(e.event, Event::ForcedMoved { .. })).unwrap();
    assert!(damaged < pushed);
}

// RULES: MOVE-11 — it stops in front of an obstacle; MOVE-E5 — and in front of a creature.
#[test]
fn move_11_a_knock_back_stops_in_front_of_walls_and_creatures() {
    let walled = ["WWWWWWWWWW", "W........W", "W....W...W", "W........W", "WWWWWWWWWW"];
    let mut b = battle(&walled, &[hammer((2, 2), "E"), foe("Foe", (3, 2), "E")].join(","));
    let mark = strike(&mut b, "Hammer", "warhammer", "Foe");
    assert_eq!(forced_moves(&b, mark), vec![(vec![p(3, 2), p(4, 2)], ForcedStop::Obstacle)]);

    let mut b = battle(&OPEN, &[hammer((2, 2), "E"), foe("Foe", (3, 2), "E"), foe("Behind", (5, 2), "E")].join(","));
    let mark = strike(&mut b, "Hammer", "warhammer", "Foe");
    assert_eq!(forced_moves(&b, mark), vec![(vec![p(3, 2), p(4, 2)], ForcedStop::Creature)]);
}

// RULES: MOVE-7, MOVE-E1, MOVE-E5 — the distance is a budget paid with resistance: a diagonal
// push of 2 goes one diagonal square (two would cost 3), rough ground halves it.
#[test]
fn move_7_resistance_shortens_a_forced_move() {
    let mut b = battle(&OPEN, &[hammer((2, 1), "NE"), foe("Foe", (3, 2), "NE")].join(","));
    let mark = strike(&mut b, "Hammer", "warhammer", "Foe");
    assert_eq!(forced_moves(&b, mark), vec![(vec![p(3, 2), p(4, 3)], ForcedStop::Spent)]);

    let rough = ["WWWWWWWWWW", "W........W", "W...~~~..W", "W........W", "WWWWWWWWWW"];
    let mut b = battle(&rough, &[hammer((2, 2), "E"), foe("Foe", (3, 2), "E")].join(","));
    let mark = strike(&mut b, "Hammer", "warhammer", "Foe");
    assert_eq!(forced_moves(&b, mark), vec![(vec![p(3, 2), p(4, 2)], ForcedStop::Spent)]);
}

// RULES: MOVE-11, MOVE-E5 — a tow pulls the creature toward the source and stops next to it.
#[test]
fn move_e5_a_tow_pulls_toward_the_source_and_stops_beside_it() {
    let raider = r#"(name: "Hook", template: "hook_raider", side: "Blue", at: (1, 2), facing: E, overrides: (activeness: Some(30)))"#;
    let mut b = battle(&OPEN, &[raider.to_string(), foe("Foe", (4, 2), "E")].join(","));
    let mark = strike(&mut b, "Hook", "chain_hook", "Foe");
    assert_eq!(forced_moves(&b, mark), vec![(vec![p(4, 2), p(3, 2), p(2, 2)], ForcedStop::Source)]);

    let mut b = battle(&OPEN, &[raider.to_string(), foe("Foe", (3, 2), "E")].join(","));
    let mark = strike(&mut b, "Hook", "chain_hook", "Foe");
    assert_eq!(forced_moves(&b, mark), vec![(vec![p(3, 2), p(2, 2)], ForcedStop::Source)]);
    assert_eq!(b.fighter(b.find("Foe").unwrap()).origin, p(2, 2));
}

// RULES: MOVE-12, MOVE-10, MOVE-E4 — pushed over an edge it falls: a drop of 6 steps on a body
// of 2 is a physical attack of 3 × floor(6/2) = 9 dice, undefended, met by protection.
#[test]
fn move_12_pushed_over_the_edge_it_falls() {
    let ledge = ["WWWWWWWWWW", "W........W", "W....____W", "W........W", "WWWWWWWWWW"];
    let mut b = battle(&ledge, &[hammer((3, 2), "E"), foe("Foe", (4, 2), "E")].join(","));
    let id = b.find("Foe").unwrap();
    let mark = strike(&mut b, "Hammer", "warhammer", "Foe");
    assert_eq!(forced_moves(&b, mark), vec![(vec![p(4, 2), p(5, 2)], ForcedStop::Fell)]);
    assert_eq!(falls(&b, mark), vec![(id, 6, 9, None)]);
    assert_eq!(fall_rolls(&b, mark), vec![(id, 9)]);
    assert_eq!(b.fighter(id).origin, p(5, 2));
    // Engine decision (MOVE-12): 6 steps down, more than its body of 2, it cannot climb out:
    // out of the fight, alive, as if fled.
    assert_eq!(b.fighter(id).presence, Presence::Fled);
    assert!(b.log()[mark..].iter().any(|e| e.event == Event::Fled { creature: id }));
    assert_eq!((fall_dice(6, 2), fall_dice(3, 2), fall_dice(2, 2), fall_dice(4, 1)), (9, 3, 0, 12));
}

// RULES: MOVE-11, MOVE-12 — the planner counts the fall a blow may throw its foe into; `easy`
// (difficulty 1, `ai::situation::plays_sloppily`) does not see the edge as a weapon, and on
// flat ground the two weigh the blow alike.
#[test]
fn easy_does_not_count_the_fall_a_blow_throws_into() {
    let dealt = |map: &[&str], profile: &str| {
        let b = battle(map, &[hammer((3, 2), "E"), foe("Foe", (4, 2), "E")].join(","));
        weighed_dealt(&b, 0, profile, "warhammer on Foe")
    };
    let ledge = ["WWWWWWWWWW", "W........W", "W....____W", "W........W", "WWWWWWWWWW"];
    let flat = ["WWWWWWWWWW", "W........W", "W........W", "W........W", "WWWWWWWWWW"];
    let (normal, easy) = (dealt(&ledge, "normal"), dealt(&ledge, "easy"));
    assert!(normal > easy + 2.0, "the fall counts for normal only: {normal} against {easy}");
    assert!((dealt(&flat, "normal") - dealt(&flat, "easy")).abs() < 1e-9);
    assert!((dealt(&flat, "easy") - easy).abs() < 1e-9, "easy weighs the blow at the edge as on flat ground");
}

// RULES: MOVE-E4 — a drop no higher than the body does no harm (it still falls).
#[test]
fn move_e4_a_drop_no_higher_than_the_body_is_harmless() {
    let dip = ["WWWWWWWWWW", "W........W", "W....u...W", "W........W", "WWWWWWWWWW"];
    let mut b = battle(&dip, &[hammer((3, 2), "E"), foe("Foe", (4, 2), "E")].join(","));
    let id = b.find("Foe").unwrap();
    let mark = strike(&mut b, "Hammer", "warhammer", "Foe");
    assert_eq!(falls(&b, mark), vec![(id, 2, 0, None)]);
    assert!(fall_rolls(&b, mark).is_empty());
}

// RULES: MOVE-10, MOVE-12, MOVE-E4 — a creature at the landing point takes the same attack,
// and the faller comes to rest on the nearest free square.
#[test]
fn move_10_the_creature_below_takes_the_same_attack() {
    let pit = ["WWWWWWWWWW", "W........W", "W....o...W", "W........W", "WWWWWWWWWW"];
    let mut b = battle(&pit, &[hammer((3, 2), "E"), foe("Foe", (4, 2), "E"), foe("Below", (5, 2), "E")].join(","));
    let (id, below) = (b.find("Foe").unwrap(), b.find("Below").unwrap());
    let mark = strike(&mut b, "Hammer", "warhammer", "Foe");
    assert_eq!(falls(&b, mark), vec![(id, 3, 3, Some(below))]);
    assert_eq!(fall_rolls(&b, mark), vec![(below, 3), (id, 3)]);
    let rest = b.fighter(id).origin;
    assert!(rest != p(5, 2) && meshal_tactics::rules::grid::distance(rest, p(5, 2)) == 1, "rests beside: {rest}");
}

// RULES: MOVE-E6, MOVE-12 — a creature that fell starts its next turn 1 AP short.
#[test]
fn move_e6_a_fall_costs_the_next_turn_one_ap() {
    let dip = ["WWWWWWWWWW", "W........W", "W....u...W", "W........W", "WWWWWWWWWW"];
    // A Might pool the blow cannot empty: it stays conscious and has a turn.
    let sturdy = foe("Foe", (4, 2), "E").replace("activeness: Some(1)", "activeness: Some(1), might: Some(30)");
    let mut b = battle(&dip, &[hammer((3, 2), "E"), sturdy].join(","));
    let id = b.find("Foe").unwrap();
    let mark = strike(&mut b, "Hammer", "warhammer", "Foe");
    assert_eq!(falls(&b, mark).len(), 1);
    let mark = b.log().len();
    b.submit(b.find("Hammer").unwrap(), Command::EndTurn).unwrap();
    assert_eq!(b.awaiting(), Some((id, None)));
    let f = b.fighter(id);
    assert_eq!(f.ap, f.max_ap - 1);
    assert!(
        b.log()[mark..].iter().any(|e| e.event == Event::FallRecovery { creature: id, ap_lost: 1, left: f.max_ap - 1 })
    );
}

// RULES: MOVE-11, TIME-E5 — forced movement interrupts a long-term action.
#[test]
fn move_11_a_forced_move_interrupts_a_long_term_action() {
    let archer = r#"(name: "Archer", template: "archer", side: "Red", at: (3, 2), facing: E, overrides: (activeness: Some(20)))"#;
    let hammer = r#"(name: "Hammer", template: "hammer_guard", side: "Blue", at: (2, 2), facing: E, overrides: (might: Some(30), activeness: Some(1)))"#;
    let far = foe("Target", (8, 3), "W").replace("side: \"Red\"", "side: \"Blue\"");
    let mut b = battle(&OPEN, &[hammer.to_string(), archer.to_string(), far].join(","));
    let (archer, target) = (b.find("Archer").unwrap(), b.find("Target").unwrap());
    assert_eq!(b.awaiting(), Some((archer, None)));
    let aim = Command::Attack { weapon: "aimed_shot".into(), target: Target::Creature(target), additives: vec![] };
    b.submit(archer, aim).unwrap();
    assert!(b.fighter(archer).long_term.is_some());
    while b.awaiting().is_some_and(|(c, _)| c != b.find("Hammer").unwrap()) {
        let (c, _) = b.awaiting().unwrap();
        b.submit(c, Command::EndTurn).unwrap();
    }
    let mark = strike(&mut b, "Hammer", "warhammer", "Archer");
    assert!(b.fighter(archer).long_term.is_none());
    assert!(b.log()[mark..].iter().any(|e| matches!(&e.event,
        Event::LongTermAborted { creature, reason } if *creature == archer && reason.contains("MOVE-11"))));
}

// RULES: SPACE-E7, MOVE-12 — nobody walks into a drop; a creature down a pit 3 deep is 3 steps
// from one at its rim, out of a sword's reach.
#[test]
fn space_e7_a_pit_is_no_path_and_its_floor_is_below_the_rim() {
    let pit = ["WWWWWWWWWW", "W........W", "W....oo..W", "W........W", "WWWWWWWWWW"];
    let blue = r#"(name: "Sword", template: "human_fighter", side: "Blue", at: (6, 3), facing: SW, overrides: (activeness: Some(10)))"#;
    let mut b = battle(&pit, &[blue.to_string(), foe("Down", (5, 2), "W")].join(","));
    let me = b.find("Sword").unwrap();
    let field = b.reachable(me, false).unwrap();
    assert!(!field.can_end_at(p(6, 2)), "the empty pit is no place to walk to");
    assert!(field.can_end_at(p(7, 2)), "the ground beside it is");
    let into = Command::Move { path: vec![p(6, 3), p(6, 2)], sprint: false, face: None };
    assert!(b.submit(me, into).is_err(), "no walking into a pit");
    let down = b.find("Down").unwrap();
    let c = Command::Attack { weapon: "sword".into(), target: Target::Creature(down), additives: vec![] };
    let refused = b.submit(me, c).unwrap_err();
    assert_eq!(refused.rule, "ATK-4", "{refused}");
    assert_eq!(b.distance_between(me, down), 1, "the horizontal distance is still 1");
}

// RULES: MOVE-11, MOVE-12 — the battle's preview says where a blow would send the target and
// the fall it would cause; the AI, given a foe at the edge and one on firm ground, strikes the
// one it can throw into the chasm.
#[test]
fn move_12_preview_and_the_ai_use_the_edge() {
    let ledge = ["WWWWWWWWWW", "W........W", "W__......W", "W........W", "WWWWWWWWWW"];
    let blue = r#"(name: "Hammer", template: "hammer_guard", side: "Blue", at: (4, 2), facing: N, overrides: (activeness: Some(10)))"#;
    let mut b = battle(&ledge, &[blue.to_string(), foe("Firm", (5, 2), "E"), foe("Edge", (3, 2), "W")].join(","));
    let (me, edge, firm) = (b.find("Hammer").unwrap(), b.find("Edge").unwrap(), b.find("Firm").unwrap());
    let preview = |b: &Battle, t| {
        let c = Command::Attack { weapon: "warhammer".into(), target: Target::Creature(t), additives: vec![] };
        b.attack_preview(me, &c).unwrap()[0].forced.unwrap()
    };
    let e = preview(&b, edge);
    assert_eq!(
        (e.kind, e.stop, e.fall_depth, e.fall_dice, e.end),
        (ForcedKind::KnockBack, ForcedStop::Fell, Some(6), 9, p(2, 2))
    );
    let f = preview(&b, firm);
    assert_eq!((f.stop, f.fall_dice, f.end), (ForcedStop::Spent, 0, p(7, 2)));
    let (c, _) = ai::decide_with(&b, me, None, &builtin_compendium().ai_profiles["normal"]);
    assert_eq!(c, Command::Attack { weapon: "warhammer".into(), target: Target::Creature(edge), additives: vec![] });
    b.submit(me, c).unwrap();
}

// RULES: SPACE-E7 — bad heights and forced moves in data are refused with the place named.
#[test]
fn bad_drops_and_forced_moves_are_refused() {
    for (terrain, why) in [
        ("(drop: -1)", "drop must be 0..=100"),
        ("(drop: 101)", "drop must be"),
        ("(drop: 2, blocks_movement: true)", "not on a blocking"),
    ] {
        let text = level_text(&["WWW", "W.W", "WWW"], "").replace("\"pit\": (drop: 3)", &format!("\"pit\": {terrain}"));
        let err = parse_level("bad.level.ron", &text, builtin_compendium()).unwrap_err().to_string();
        assert!(err.contains(why) && err.contains("bad.level.ron:"), "{err}");
    }
    let mut c = builtin_compendium().clone();
    c.weapons.get_mut("warhammer").unwrap().forced = Some(ForcedMove { kind: ForcedKind::KnockBack, steps: 0 });
    assert!(c.validate().unwrap_err().contains("forced move's steps"));
}

// RULES: SPACE-E7, MOVE-9, MOVE-11 — heights count from where the creature stands: down a pit
// it walks along the bottom, climbs out onto ground no higher than its body (a dip of 2 for a
// Medium body of 2, at +2 resistance) but not out of a pit 3 deep; pushed along the bottom of a
// chasm it does not fall again, and pushed against the pit's wall it stops.
#[test]
fn space_e7_heights_count_from_where_it_stands() {
    let map = ["WWWWWWWWWW", "W........W", "W..uoo...W", "W........W", "WWWWWWWWWW"];
    // In the dip (depth 2): out onto the floor, one step (R = 1 + 2 = 3 of a 3-step move).
    let dip = r#"(name: "Low", template: "human_fighter", side: "Blue", at: (3, 2), facing: E, overrides: (activeness: Some(10)))"#;
    let b = battle(&map, &[dip.to_string(), foe("Far", (8, 3), "W")].join(","));
    let field = b.reachable(0, false).unwrap();
    assert!(field.can_end_at(p(2, 2)), "it climbs out of a dip");
    assert!(!field.can_end_at(p(1, 2)), "the climb takes the move");
    assert!(!field.can_end_at(p(4, 2)), "and nobody walks down into the pit");
    // In the pit (depth 3 > body 2): it walks along the bottom but cannot climb out.
    let pit = dip.replace("(3, 2)", "(4, 2)");
    let b = battle(&map, &[pit, foe("Far", (8, 3), "W")].join(","));
    let field = b.reachable(0, false).unwrap();
    assert!(field.can_end_at(p(5, 2)), "along the bottom");
    assert!(!field.can_end_at(p(4, 3)) && !field.can_end_at(p(2, 2)), "no climbing out of 3 steps");
    // (Heights count from where the move starts: the dip beside it is a rise of 1.)
    assert!(field.can_end_at(p(3, 2)));
    // Both down a pit three squares long: pushed along the bottom, no second fall, and it stops
    // against the pit's wall.
    let long = ["WWWWWWWWWW", "W........W", "W...ooo..W", "W........W", "WWWWWWWWWW"];
    let mut b = battle(&long, &[hammer((4, 2), "E"), foe("Foe", (5, 2), "E")].join(","));
    let mark = strike(&mut b, "Hammer", "warhammer", "Foe");
    assert!(falls(&b, mark).is_empty(), "no fall along the bottom");
    assert_eq!(forced_moves(&b, mark), vec![(vec![p(5, 2), p(6, 2)], ForcedStop::Obstacle)]);
}

// RULES: SPACE-E6, MOVE-11 — a diagonal push does not squeeze between two walls meeting at a
// corner.
#[test]
fn move_11_no_squeezing_past_a_corner() {
    let map = ["WWWWWWWWWW", "W........W", "W..W.....W", "W...W....W", "W........W", "WWWWWWWWWW"];
    // Hammer at (2,1), foe at (3,2): the push runs NE through the corner where the walls at
    // (3,3) and (4,2) meet.
    let mut b = battle(&map, &[hammer((2, 1), "NE"), foe("Foe", (3, 2), "NE")].join(","));
    let mark = strike(&mut b, "Hammer", "warhammer", "Foe");
    assert_eq!(forced_moves(&b, mark), Vec::<(Vec<Pos>, ForcedStop)>::new(), "it does not move at all");
    assert_eq!(b.fighter(b.find("Foe").unwrap()).origin, p(3, 2));
}

// RULES: FLOW-10, CRE-6 — knocked out by a hazard on its own move, its turn ends; a creature
// out of the fight is refused everything but ending its turn.
#[test]
fn a_creature_knocked_out_on_its_own_move_loses_the_rest_of_its_turn() {
    let map = ["WWWWWWWWWW", "W........W", "W...u....W", "W........W", "WWWWWWWWWW"];
    let text = level_text(&map, &[r#"(name: "Walker", template: "human_fighter", side: "Blue", at: (2, 2), facing: E, overrides: (activeness: Some(10), might: Some(1)))"#.to_string(), foe("Far", (8, 3), "W")].join(","))
        .replace(r#""dip": (drop: 2),"#, r#""dip": (hazard: Some((kind: "acid", dice: 30, damage: None, targets: [Might]))),"#);
    let l = parse_level("ko.level.ron", &text, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
    let mut b = Battle::new(&l, builtin_compendium(), 7).unwrap();
    b.submit(0, Command::Move { path: vec![p(2, 2), p(3, 2), p(4, 2)], sprint: false, face: None }).unwrap();
    assert!(!b.fighter(0).can_act(), "30 dice of acid on one die of Might");
    assert_ne!(b.awaiting().map(|(c, _)| c), Some(0), "its turn is over");
}
