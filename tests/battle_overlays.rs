//! The engine's answers behind the board's overlays: moves needed per square (reach by AP) and
//! the threat view (where perceived enemies could strike next round, and from which arc).

use meshal_tactics::battle::Battle;
use meshal_tactics::level::{builtin_compendium, parse_level};
use meshal_tactics::rules::grid::Pos;

fn battle(map: &[&str], creatures: &str) -> Battle {
    let rows: Vec<String> = map.iter().map(|r| format!("\"{r}\"")).collect();
    let text = format!(
        r#"(name: "Overlay test", map: [{}],
            legend: {{ '.': "floor", 'W': "wall" }},
            terrains: {{ "floor": (), "wall": (blocks_movement: true, blocks_sight: true) }},
            sides: [(name: "Us"), (name: "Them")],
            creatures: [{creatures}])"#,
        rows.join(", ")
    );
    let l = parse_level("overlay.level.ron", &text, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
    Battle::new(&l, builtin_compendium(), 1).unwrap()
}

const OPEN: [&str; 9] = [
    "WWWWWWWWWWWWWWWWWWWWWWWW",
    "W......................W",
    "W......................W",
    "W......................W",
    "W......................W",
    "W......................W",
    "W......................W",
    "W......................W",
    "WWWWWWWWWWWWWWWWWWWWWWWW",
];

// RULES: MOVE-1, TIME-8 — each square is shaded by the number of 1-AP moves that reach it:
// the first ring is exactly what one move of the engine can end on, and no square needs more
// moves than the creature has AP.
#[test]
fn moves_needed_per_square_match_the_engine_field() {
    let b = battle(
        &OPEN,
        r#"(name: "Runner", template: "human_fighter", side: "Us", at: (2, 4), facing: E),
           (name: "Far", template: "human_fighter", side: "Them", at: (21, 7), facing: W)"#,
    );
    let me = b.fighter(0);
    let rings = b.moves_to_squares(0);
    let one_move = b.reachable(0, false).unwrap();
    for &(p, k) in &rings {
        assert!(k >= 1 && k as i32 <= me.ap, "{p}: {k} moves with {} AP", me.ap);
        assert_eq!(k == 1, one_move.can_end_at(p), "{p} needs {k} moves");
    }
    let first = rings.iter().filter(|r| r.1 == 1).count();
    assert_eq!(first, one_move.destinations().filter(|&p| p != me.origin).count());
    // Speed 3 (+¾ for the last step, MOVE-E1): 3 steps east is one move, 4 need a second, 7 a
    // third.
    let moves_at = |x| rings.iter().find(|r| r.0 == Pos::new(x, 4)).map(|r| r.1);
    assert_eq!(me.speed, 3);
    assert_eq!(
        (moves_at(5), moves_at(6), moves_at(8), moves_at(9), moves_at(11)),
        (Some(1), Some(2), Some(2), Some(3), Some(3))
    );
    assert_eq!(moves_at(12), None, "beyond three moves");
}

// RULES: FACE-4, ATK-11 — the threat view marks where a perceived enemy could strike next
// round, and where that strike would come from the rear arc of the creature asked about.
#[test]
fn threat_view_marks_reach_and_rear_arc() {
    let b = battle(
        &OPEN,
        r#"(name: "Us", template: "human_fighter", side: "Us", at: (20, 4), facing: W),
           (name: "Sword", template: "human_fighter", side: "Them", at: (8, 2), facing: E)"#,
    );
    let sword = b.fighter(1);
    // The sword (1 AP) with 3 AP moves twice: 2 × (3 + ¾) steps, then reach 1.
    let threats = b.threat_map(0, Some(0));
    assert_eq!(sword.max_ap, 3);
    assert!(threats.at(Pos::new(9, 2)).enemies == 1, "next to it");
    assert!(threats.at(Pos::new(16, 2)).enemies == 1, "7 steps east, 6 walked + reach 1");
    assert_eq!(threats.at(Pos::new(17, 2)).enemies, 0, "8 steps east");
    assert_eq!(threats.at(Pos::new(17, 5)).enemies, 0, "out of its reach diagonally too");
    assert_eq!(threats.at(Pos::new(0, 0)).enemies, 0, "a wall");
    // It can walk round us: somewhere near it, it reaches our rear whichever way we face.
    assert!(threats.at(Pos::new(9, 2)).from_rear);
    // Without asking about a creature, there is no rear.
    assert!(!b.threat_map(0, None).at(Pos::new(9, 2)).from_rear);
}

// RULES: FACE-4 — a shooter (seen by a friend): its line reaches far; our rear faces it
// only when we face away.
#[test]
fn threat_view_of_a_shot_depends_on_our_facing() {
    let east = battle(
        &OPEN,
        r#"(name: "Us", template: "human_fighter", side: "Us", at: (22, 4), facing: E),
           (name: "Watcher", template: "human_fighter", side: "Us", at: (12, 6), facing: W),
           (name: "Bow", template: "archer", side: "Them", at: (1, 4), facing: E)"#,
    );
    let west = battle(
        &OPEN,
        r#"(name: "Us", template: "human_fighter", side: "Us", at: (22, 4), facing: W),
           (name: "Watcher", template: "human_fighter", side: "Us", at: (12, 6), facing: W),
           (name: "Bow", template: "archer", side: "Them", at: (1, 4), facing: E)"#,
    );
    let far = Pos::new(22, 4);
    assert_eq!(east.threat_map(0, Some(0)).at(far).enemies, 1);
    assert!(east.threat_map(0, Some(0)).at(far).from_rear, "facing away from the archer");
    assert!(!west.threat_map(0, Some(0)).at(far).from_rear, "facing the archer");
}

// RULES: PERC-2 — only enemies the side perceives count: one behind a wall threatens nothing
// on the view, though it is there.
#[test]
fn threat_view_knows_only_what_the_side_perceives() {
    let walled = ["WWWWWWWWWWWW", "W....W.....W", "W....W.....W", "W....W.....W", "WWWWWWWWWWWW"];
    let b = battle(
        &walled,
        r#"(name: "Us", template: "human_fighter", side: "Us", at: (2, 2), facing: E),
           (name: "Unseen", template: "human_fighter", side: "Them", at: (8, 2), facing: W)"#,
    );
    assert!(!b.shown_to(0, 1));
    let threats = b.threat_map(0, Some(0));
    assert!(threats.squares.iter().all(|s| s.enemies == 0));
    // Its own side sees it, and its reach.
    assert_eq!(b.threat_map(1, None).at(Pos::new(2, 2)).enemies, 0, "the foe has no sight of us either");
}

// RULES: TIME-12, ATK-11 — spending the last AP where a perceived enemy can strike is flagged
// before it is confirmed: the same attack with AP to spare is not.
#[test]
fn the_last_ap_spent_in_reach_of_an_enemy_is_flagged() {
    use meshal_tactics::battle::{Command, Target};
    let stair = ["WWWWWWWWWW", "W........W", "WWWWWWWWWW"];
    let mut b = battle(
        &stair,
        r#"(name: "Us", template: "human_fighter", side: "Us", at: (2, 1), facing: E, overrides: (activeness: Some(9))),
           (name: "Foe", template: "human_fighter", side: "Them", at: (5, 1), facing: W)"#,
    );
    assert_eq!(b.awaiting(), Some((0, None)));
    let strike = Command::Attack { weapon: "sword".into(), target: Target::Creature(1), additives: vec![] };
    let step = |to: Pos| Command::Move { path: vec![Pos::new(to.x - 1, to.y), to], sprint: false, face: None };
    // Two steps east (2 AP), then the strike would leave 0 AP next to the foe.
    let first = step(Pos::new(3, 1));
    b.submit(0, first).unwrap();
    let second = step(Pos::new(4, 1));
    assert!(b.left_defenceless(0, std::slice::from_ref(&second)).is_empty(), "1 AP kept after the second step");
    assert_eq!(b.left_defenceless(0, &[second.clone(), strike.clone()]), vec![1]);
    b.submit(0, second).unwrap();
    assert_eq!(b.left_defenceless(0, std::slice::from_ref(&strike)), vec![1]);
    assert!(b.left_defenceless(0, &[Command::EndTurn]).is_empty(), "ending the turn keeps the AP");
}
