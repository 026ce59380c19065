//! Dragging a body (MOVE-13, MOVE-E7): an unconscious or dead creature next to the mover is
//! pulled along a move, adding weight ÷ (Might × 10) resistance a step, and follows into the
//! last square the mover leaves.

mod common;

use common::{battle_where_first, level_text, since};
use meshal_tactics::ai;
use meshal_tactics::battle::*;
use meshal_tactics::level::builtin_compendium;
use meshal_tactics::rules::creature::Attribute;
use meshal_tactics::rules::grid::Pos;

const OPEN: [&str; 5] = ["WWWWWWWWWWWW", "W..........W", "W..........W", "W..........W", "WWWWWWWWWWWW"];

fn creature(name: &str, template: &str, side: &str, at: (i32, i32), facing: &str) -> String {
    format!(r#"(name: "{name}", template: "{template}", side: "{side}", at: {at:?}, facing: {facing})"#)
}

/// Blue (Might 4) at (5, 2) beside its fallen friend at (4, 2); Red at `red`.
fn rescue(red: (i32, i32)) -> Battle {
    let text = level_text(
        "Drag",
        &OPEN,
        &[
            // Facing west, toward where Red comes from (its rear would hide Red: FACE-4).
            &creature("Blue", "human_fighter", "Blue", (5, 2), "W"),
            &creature("Friend", "human_fighter", "Blue", (4, 2), "E"),
            &creature("Red", "human_fighter", "Red", red, "W"),
        ],
    );
    let mut b = battle_where_first(&text, builtin_compendium(), 0);
    b.adjust_for_scenario(1, |f| {
        let _ = f.attrs.remove_dice(Attribute::Might, 99);
    });
    assert!(b.fighter(1).attrs.is_unconscious());
    b
}

fn drag(path: &[(i32, i32)]) -> Command {
    Command::Drag { creature: 1, path: path.iter().map(|&(x, y)| Pos::new(x, y)).collect(), face: None }
}

// RULES: MOVE-13, MOVE-E7 — a 70 kg body dragged with 4 Might dice: 70 ÷ 40 → +1 resistance,
// so each step costs 2; the body follows into the square left; the move is 1 AP.
#[test]
fn move_13_a_body_follows_its_dragger_at_a_cost() {
    let mut b = rescue((10, 2));
    assert_eq!(b.drag_resistance(0, 1), Some(1));
    let field = b.drag_reachable(0, 1).unwrap();
    assert_eq!(field.cost_quarters(Pos::new(6, 2)), Some(8), "one step at resistance 2");
    assert_eq!(b.reachable(0, false).unwrap().cost_quarters(Pos::new(6, 2)), Some(4), "walking alone: 1");
    let mark = b.log().len();
    b.submit(0, drag(&[(5, 2), (6, 2)])).unwrap();
    assert_eq!(b.fighter(0).origin, Pos::new(6, 2));
    assert_eq!(b.fighter(1).origin, Pos::new(5, 2), "into the square the dragger left");
    assert_eq!(b.fighter(0).ap, 2);
    let log = since(&b, mark);
    assert!(
        log.contains(&&Event::Dragged { creature: 1, by: Some(0), from: Pos::new(4, 2), to: Pos::new(5, 2) }),
        "{log:?}"
    );
    // Two more steps at 2 each exceed a speed of 3 (MOVE-E1).
    assert_eq!(
        b.check(
            0,
            &Command::Drag { creature: 1, path: vec![Pos::new(6, 2), Pos::new(7, 2), Pos::new(8, 2)], face: None }
        )
        .unwrap_err()
        .rule,
        "MOVE-E1"
    );
}

// RULES: MOVE-13, MOVE-E7 — what cannot be dragged, each refusal naming its rule, the battle
// untouched: a conscious creature, a body not next to the dragger, a path over the body.
#[test]
fn move_e7_refusals_name_the_rule() {
    let b = rescue((10, 2));
    let mut awake = b.clone();
    awake.adjust_for_scenario(1, |f| {
        let _ = f.attrs.recover_dice(Attribute::Might, 99);
    });
    assert_eq!(awake.check(0, &drag(&[(5, 2), (6, 2)])).unwrap_err().rule, "MOVE-13");
    let mut far = b.clone();
    far.adjust_for_scenario(0, |f| f.origin = Pos::new(7, 2));
    assert_eq!(far.check(0, &drag(&[(7, 2), (8, 2)])).unwrap_err().rule, "MOVE-E7");
    assert_eq!(b.check(0, &drag(&[(5, 2), (4, 2)])).unwrap_err().rule, "MOVE-E7", "over the body");
    let before = b.log().len();
    let mut refused = b.clone();
    assert!(refused.submit(0, drag(&[(5, 2), (4, 2)])).is_err());
    assert_eq!(refused.fighter(1).origin, Pos::new(4, 2));
    assert_eq!(refused.fighter(0).ap, 3);
    assert_eq!(refused.log().len(), before + 1, "only the rejection is logged");
}

// RULES: MOVE-13 — the AI drags a fallen friend out of a hostile's reach, and does not when
// no hostile is near it.
#[test]
fn move_13_the_ai_drags_a_fallen_friend_out_of_reach() {
    // Red two steps from the body: one step east takes the body to 3 steps.
    let b = rescue((2, 2));
    match ai::decide(&b, 0, None) {
        Command::Drag { creature: 1, path, .. } => {
            let rests = path[path.len() - 2];
            let red = b.fighter(2).origin;
            assert!(meshal_tactics::rules::grid::distance(rests, red) >= 3, "{path:?}");
        }
        other => panic!("expected a drag, got {other:?}"),
    }
    let calm = rescue((10, 2));
    assert!(!matches!(ai::decide(&calm, 0, None), Command::Drag { .. }));
}

// RULES: MOVE-13, SPACE-9, SPACE-E6 — the AI never leaves a dragged body where it plugs the
// way: a body dragged out of a corridor one square wide onto its mouth still shuts the
// corridor (the diagonals beside the mouth cut its wall corners), and so its own band out of
// the fight (The Crossing's draws). Here the one step a 70 kg body allows ends on the mouth.
#[test]
fn move_13_the_ai_does_not_drag_a_body_onto_a_corridors_mouth() {
    let map = ["WWWWWWWWWWW", "W.........W", "WWWWW.WWWWW", "WWWWW.WWWWW", "W.........W", "W.........W", "WWWWWWWWWWW"];
    let text = level_text(
        "Mouth",
        &map,
        &[
            &creature("Blue", "human_fighter", "Blue", (5, 2), "N"),
            &creature("Friend", "human_fighter", "Blue", (5, 3), "N"),
            &creature("Red", "human_fighter", "Red", (5, 5), "S"),
        ],
    );
    let mut b = battle_where_first(&text, builtin_compendium(), 0);
    b.adjust_for_scenario(1, |f| {
        let _ = f.attrs.remove_dice(Attribute::Might, 99);
    });
    assert!(b.perceives(0, 2), "Red is in sight up the corridor, two steps from the body");
    let (corridor, mouth, room) = (Pos::new(5, 3), Pos::new(5, 2), Pos::new(3, 1));
    assert!(b.body_plugs_a_way(corridor) && b.body_plugs_a_way(mouth) && !b.body_plugs_a_way(room));
    // The one drag that takes the body 3 steps from Red leaves it on the mouth.
    let field = b.drag_reachable(0, 1).unwrap();
    let rests: Vec<Pos> = field
        .destinations()
        .filter_map(|at| field.path_to(at).and_then(|p| p.len().checked_sub(2).map(|i| p[i])))
        .collect();
    assert!(!rests.is_empty() && rests.iter().all(|&p| p == mouth), "{rests:?}");
    match ai::decide(&b, 0, None) {
        Command::Drag { path, .. } => panic!("dragged onto the mouth: {path:?}"),
        Command::Lift { creature: 1 } | Command::Attack { .. } | Command::Move { .. } | Command::EndTurn => {}
        Command::Ready { .. } | Command::Face { .. } => {}
        other => panic!("unexpected {other:?}"),
    }
}
