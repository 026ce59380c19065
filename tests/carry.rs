//! Lifting, carrying and putting down a body (MOVE-13 [Ext] 3 AP, MOVE-E7: it moves with the
//! lifter's token until put down).

mod common;

use common::{level_text, since};
use meshal_tactics::ai;
use meshal_tactics::battle::*;
use meshal_tactics::level::builtin_compendium;
use meshal_tactics::rules::creature::Attribute;
use meshal_tactics::rules::grid::{Pos, distance, footprint_distance};

const OPEN: [&str; 5] = ["WWWWWWWWWWWW", "W..........W", "W..........W", "W..........W", "WWWWWWWWWWWW"];

fn creature(name: &str, template: &str, side: &str, at: (i32, i32), facing: &str) -> String {
    format!(r#"(name: "{name}", template: "{template}", side: "{side}", at: {at:?}, facing: {facing})"#)
}

/// Blue (Might 4, speed 3) at (5, 2) beside its fallen friend at (4, 2); Red at `red`.
fn fallen_friend(rows: &[&str], red: (i32, i32)) -> Battle {
    fallen_friends(rows, red).next().unwrap()
}

/// The same, on every seed that gives Blue the first turn.
fn fallen_friends(rows: &[&str], red: (i32, i32)) -> impl Iterator<Item = Battle> {
    let text = level_text(
        "Carry",
        rows,
        &[
            &creature("Blue", "human_fighter", "Blue", (5, 2), "W"),
            &creature("Friend", "human_fighter", "Blue", (4, 2), "E"),
            &creature("Red", "human_fighter", "Red", red, "W"),
        ],
    );
    acting_first(&text, 0).map(|mut b| {
        b.adjust_for_scenario(1, |f| {
            let _ = f.attrs.remove_dice(Attribute::Might, 99);
        });
        assert!(b.fighter(1).attrs.is_unconscious());
        b
    })
}

/// The level `text` on every seed that gives `first` the first turn.
fn acting_first(text: &str, first: u32) -> impl Iterator<Item = Battle> + use<> {
    let level = meshal_tactics::level::parse_level("carry.level.ron", text, builtin_compendium()).unwrap();
    (0..)
        .map_while(move |seed| Battle::new(&level, builtin_compendium(), seed).ok())
        .filter(move |b| b.awaiting() == Some((first, None)))
}

fn lift() -> Command {
    Command::Lift { creature: 1 }
}

fn put_down(x: i32, y: i32) -> Command {
    Command::PutDown { at: Pos::new(x, y) }
}

// RULES: MOVE-13, MOVE-E7 — lifting costs 3 AP; the body leaves the grid and rides with the
// lifter; every move then bears weight ÷ (Might × 10) = 70 ÷ 40 → 1 resistance a step; putting
// it down costs 3 AP and it lies (POST-5) on the chosen square next to the carrier.
#[test]
fn move_13_lift_carry_and_put_down() {
    let mut b = fallen_friend(&OPEN, (10, 2));
    let mark = b.log().len();
    b.submit(0, lift()).unwrap();
    assert_eq!(b.fighter(0).ap, 0, "3 AP of 3");
    assert_eq!(b.fighter(1).presence, Presence::Carried(0));
    assert_eq!(b.carried_by(0), Some(1));
    assert!(since(&b, mark).contains(&&Event::Lifted { creature: 1, by: Some(0) }));
    // Off the grid: its square is free, and nobody may strike or see it apart from its carrier.
    assert!(b.occupancy_for(2)[b.map().index(Pos::new(4, 2))] == meshal_tactics::rules::movement::Occupant::Free);
    assert!(!b.perceives(2, 1));
    // Give the carrier a fresh 6 AP to see the cost of a step and the put-down in one turn.
    b.adjust_for_scenario(0, |f| f.ap = 6);
    let field = b.reachable(0, false).unwrap();
    assert_eq!(field.cost_quarters(Pos::new(6, 2)), Some(8), "a step at resistance 1 costs 2");
    b.submit(0, Command::Move { path: vec![Pos::new(5, 2), Pos::new(6, 2)], sprint: false, face: None }).unwrap();
    let mark = b.log().len();
    b.submit(0, put_down(7, 3)).unwrap();
    assert_eq!(b.fighter(0).ap, 2, "6 − 1 (move) − 3 (put down)");
    let f = b.fighter(1);
    assert_eq!((f.presence, f.origin), (Presence::Active, Pos::new(7, 3)));
    assert_eq!(f.posture, meshal_tactics::rules::posture::Posture::Lying);
    assert_eq!(b.carried_by(0), None);
    assert!(since(&b, mark).contains(&&Event::PutDown { creature: 1, by: Some(0), at: Pos::new(7, 3) }));
    assert_eq!(b.reachable(0, false).unwrap().cost_quarters(Pos::new(7, 2)), Some(4), "unburdened again");
}

// RULES: MOVE-13, MOVE-E7 — each refusal names its rule and leaves the battle untouched.
#[test]
fn move_e7_lift_and_put_down_refusals_name_the_rule() {
    let b = fallen_friend(&OPEN, (10, 2));
    let mut awake = b.clone();
    awake.adjust_for_scenario(1, |f| {
        let _ = f.attrs.recover_dice(Attribute::Might, 99);
    });
    assert_eq!(awake.check(0, &lift()).unwrap_err().rule, "MOVE-13", "only the unconscious");
    let mut far = b.clone();
    far.adjust_for_scenario(0, |f| f.origin = Pos::new(7, 2));
    assert_eq!(far.check(0, &lift()).unwrap_err().rule, "MOVE-E7", "it must lie next to the lifter");
    let mut tired = b.clone();
    tired.adjust_for_scenario(0, |f| f.ap = 2);
    assert_eq!(tired.check(0, &lift()).unwrap_err().rule, "TIME-8");
    let mut weak = b.clone();
    weak.adjust_for_scenario(0, |f| {
        let _ = f.attrs.remove_dice(Attribute::Might, 3);
    });
    // 70 ÷ (1 × 10) = 7 resistance against a speed of 3: not a step could be carried.
    assert_eq!(weak.check(0, &lift()).unwrap_err().rule, "MOVE-E7");
    assert_eq!(b.check(0, &Command::Lift { creature: 99 }).unwrap_err().rule, "CRE-1");
    assert_eq!(b.check(0, &put_down(6, 2)).unwrap_err().rule, "MOVE-13", "nothing carried");
    assert_eq!(b.check(0, &put_down(i32::MIN, 2)).unwrap_err().rule, "SPACE-1", "absurd squares");

    let mut carrying = b.clone();
    carrying.submit(0, lift()).unwrap();
    carrying.adjust_for_scenario(0, |f| f.ap = 3);
    let before = (carrying.log().len(), carrying.fighter(0).ap);
    for (command, rule) in [
        (put_down(8, 2), "MOVE-E7"), // not next to the carrier
        (put_down(5, 2), "MOVE-E7"), // its own square
        (lift(), "MOVE-E7"),         // one body at a time
    ] {
        let mut refused = carrying.clone();
        assert_eq!(refused.submit(0, command.clone()).unwrap_err().rule, rule, "{command:?}");
        assert_eq!((refused.log().len(), refused.fighter(0).ap), (before.0 + 1, before.1), "only the rejection");
        assert_eq!(refused.fighter(1).presence, Presence::Carried(0));
    }
    let mut by_the_wall = carrying.clone();
    by_the_wall.adjust_for_scenario(0, |f| f.origin = Pos::new(5, 1));
    assert_eq!(by_the_wall.check(0, &put_down(5, 0)).unwrap_err().rule, "SPACE-1", "into a wall");
    assert_eq!(by_the_wall.put_down_squares(0).len(), 5, "three of its eight neighbours are wall");
    let mut crowded = carrying.clone();
    crowded.adjust_for_scenario(2, |f| f.origin = Pos::new(6, 2));
    assert_eq!(crowded.check(0, &put_down(6, 2)).unwrap_err().rule, "SPACE-E5", "onto Red");
    let mut tired = carrying.clone();
    tired.adjust_for_scenario(0, |f| f.ap = 2);
    assert_eq!(tired.check(0, &put_down(6, 2)).unwrap_err().rule, "TIME-8");
    assert_eq!(carrying.put_down_squares(0).len(), 8, "the body's old square is free again");
}

/// Play Red's attacks on Blue (everything else ends its turn or takes the blow) until Blue
/// falls unconscious or `limit` commands pass.
fn beat_down_blue(b: &mut Battle, limit: usize) {
    for _ in 0..limit {
        if b.fighter(0).attrs.is_unconscious() || matches!(b.phase(), Phase::Over(_)) {
            return;
        }
        let Some((id, window)) = b.awaiting() else { return };
        let command = if window.is_some() {
            Command::Pass
        } else if id == 2 {
            let strike = Command::Attack { weapon: "sword".into(), target: Target::Creature(0), additives: vec![] };
            if b.check(2, &strike).is_ok() { strike } else { Command::EndTurn }
        } else {
            Command::EndTurn
        };
        b.submit(id, command).unwrap();
    }
}

// RULES: MOVE-E7, CRE-6 — a carrier knocked out lets its burden fall onto the nearest free
// square: the body is back on the grid, lying, told by a PutDown event after Unconscious.
#[test]
fn move_e7_a_carrier_knocked_out_drops_the_body() {
    let mut b = fallen_friend(&OPEN, (6, 2));
    b.submit(0, lift()).unwrap();
    b.adjust_for_scenario(0, |f| {
        let _ = f.attrs.remove_dice(Attribute::Might, 3);
        let _ = f.attrs.remove_dice(Attribute::Activeness, 2);
        let _ = f.attrs.remove_dice(Attribute::Spirit, 2);
    });
    let mark = b.log().len();
    beat_down_blue(&mut b, 200);
    assert!(b.fighter(0).attrs.is_unconscious(), "Red's sword knocks a one-die Blue out");
    let f = b.fighter(1);
    assert_eq!(f.presence, Presence::Active);
    assert_eq!(distance(f.origin, b.fighter(0).origin), 1, "next to where its carrier fell");
    assert_ne!(f.origin, b.fighter(2).origin);
    let log = since(&b, mark);
    let down = log.iter().position(|e| matches!(e, Event::Unconscious { creature: 0 })).unwrap();
    let put = log.iter().position(|e| matches!(e, Event::PutDown { creature: 1, by: Some(0), .. })).unwrap();
    assert!(down < put, "{log:?}");
    assert_eq!(b.carried_by(0), None);
}

// RULES: MOVE-13, FLOW-5 — a carrier that flees carries its burden out of the battle.
#[test]
fn move_13_a_carrier_that_flees_takes_the_body() {
    let mut fled = 0;
    for (seed, mut b) in fallen_friends(&OPEN, (10, 2)).take(40).enumerate() {
        b.submit(0, lift()).unwrap();
        b.adjust_for_scenario(0, |f| {
            f.ap = 3;
            f.hit_free_streak = 9;
        });
        b.submit(0, Command::Flee).unwrap();
        if b.fighter(0).presence == Presence::Fled {
            fled += 1;
            assert_eq!(b.fighter(1).presence, Presence::Fled, "battle {seed}");
        } else {
            assert_eq!(b.fighter(1).presence, Presence::Carried(0), "battle {seed}");
        }
    }
    assert!(fled > 0, "some flight succeeds in 40 battles");
}

/// Blue and its fallen friend in a corridor one square wide, Red at its open end: no drag
/// gets the body 3 steps from Red (the dragger walks away from the body, which follows one
/// square behind), so the AI lifts it — off the grid, Red cannot finish it (FLOW-7).
const CORRIDOR: [&str; 5] = ["WWWWWWWWWWWW", "WWWWWWWWWWWW", "W..........W", "WWWWWWWWWWWW", "WWWWWWWWWWWW"];

// RULES: MOVE-13, MOVE-E7 — the AI lifts a fallen friend a hostile stands over when no drag
// saves it, and never lifts when nobody threatens the body.
#[test]
fn move_13_the_ai_lifts_a_friend_no_drag_can_save() {
    let b = fallen_friend(&CORRIDOR, (3, 2));
    assert_eq!(ai::decide(&b, 0, None), lift());
    let calm = fallen_friend(&CORRIDOR, (10, 2));
    assert!(!matches!(ai::decide(&calm, 0, None), Command::Lift { .. }));
    let mut open = fallen_friend(&OPEN, (2, 2));
    assert!(matches!(ai::decide(&open, 0, None), Command::Drag { .. }), "a drag that saves it is cheaper");
    // With the body carried the AI plays on (its moves bear the weight): no put-down wasted.
    open.submit(0, lift()).unwrap();
    open.adjust_for_scenario(0, |f| f.ap = 3);
    assert!(!matches!(ai::decide(&open, 0, None), Command::PutDown { .. } | Command::Lift { .. }));
}

/// A Large brute (2×2 at (4, 2)) beside a fallen wolf at (3, 2), and a Medium fighter beside
/// the brute's own fallen body when `brute_down`.
fn brute_and_wolf(brute_down: bool) -> Battle {
    let text = level_text(
        "Carry",
        &OPEN,
        &[
            &creature("Brute", "brute", "Blue", (4, 2), "W"),
            &creature("Wolf", "grey_wolf", "Blue", (3, 2), "E"),
            &creature("Red", "human_fighter", "Red", (6, 1), "N"),
        ],
    );
    let mut b = acting_first(&text, if brute_down { 2 } else { 0 }).next().unwrap();
    let down = if brute_down { 0 } else { 1 };
    b.adjust_for_scenario(down, |f| {
        let _ = f.attrs.remove_dice(Attribute::Might, 99);
    });
    assert!(b.fighter(down).attrs.is_unconscious());
    b
}

// RULES: MOVE-13, MOVE-E7 — the lifter may be of any size, the body is of one square: a Large
// brute lifts a fallen wolf (a 2×2 token has no one square for a dragged body to follow into,
// so it may not drag it), puts it down on a square next to its footprint, and nobody lifts
// the Large brute's own body.
#[test]
fn move_e7_a_large_creature_lifts_a_one_square_body() {
    let mut b = brute_and_wolf(false);
    assert_eq!(b.fighter(0).size.footprint(), 2);
    let drag = Command::Drag { creature: 1, path: vec![Pos::new(4, 2), Pos::new(5, 2)], face: None };
    assert_eq!(b.check(0, &drag).unwrap_err().rule, "MOVE-E7", "a Large dragger");
    b.submit(0, lift()).unwrap();
    assert_eq!(b.fighter(1).presence, Presence::Carried(0));
    assert_eq!(b.fighter(0).ap, 0, "3 AP");
    b.adjust_for_scenario(0, |f| f.ap = 3);
    // Next to the 2×2 footprint at (4..=5, 2..=3): (3, 3) is; (3, 1) is, diagonally; (7, 2) is not.
    assert_eq!(b.check(0, &put_down(7, 2)).unwrap_err().rule, "MOVE-E7");
    assert_eq!(b.check(0, &put_down(5, 3)).unwrap_err().rule, "MOVE-E7", "its own square");
    let squares = b.put_down_squares(0);
    assert!(squares.contains(&Pos::new(3, 1)) && squares.contains(&Pos::new(6, 3)), "{squares:?}");
    assert!(!squares.contains(&Pos::new(6, 1)), "Red stands there");
    b.submit(0, put_down(3, 3)).unwrap();
    assert_eq!((b.fighter(1).presence, b.fighter(1).origin), (Presence::Active, Pos::new(3, 3)));

    // A one-square creature next to the fallen Large brute may not lift or drag it.
    let mut fighter_turn = brute_and_wolf(true);
    fighter_turn.adjust_for_scenario(2, |f| f.origin = Pos::new(6, 2));
    for command in [
        Command::Lift { creature: 0 },
        Command::Drag { creature: 0, path: vec![Pos::new(6, 2), Pos::new(7, 2)], face: None },
    ] {
        assert_eq!(fighter_turn.check(2, &command).unwrap_err().rule, "MOVE-E7", "{command:?}");
    }
}

// RULES: MOVE-E7, CRE-6 — a Large carrier knocked out lets its burden fall next to its whole
// footprint (not only next to its origin square), never inside it nor onto a standing creature.
#[test]
fn move_e7_a_large_carrier_knocked_out_drops_the_body_beside_its_footprint() {
    let mut b = brute_and_wolf(false);
    b.submit(0, lift()).unwrap();
    b.adjust_for_scenario(0, |f| {
        let _ = f.attrs.remove_dice(Attribute::Might, f.attrs.dice(Attribute::Might) - 1);
        let _ = f.attrs.remove_dice(Attribute::Activeness, f.attrs.dice(Attribute::Activeness) - 1);
        let _ = f.attrs.remove_dice(Attribute::Spirit, f.attrs.dice(Attribute::Spirit) - 1);
    });
    let mark = b.log().len();
    beat_down_blue(&mut b, 200);
    assert!(b.fighter(0).attrs.is_unconscious(), "Red's sword knocks the one-die brute out");
    let (brute, wolf) = (b.fighter(0).footprint(), b.fighter(1));
    assert_eq!(wolf.presence, Presence::Active, "back on the grid");
    assert_eq!(footprint_distance(brute, wolf.footprint()), 1, "next to the 2x2 footprint: {}", wolf.origin);
    assert_ne!(wolf.origin, b.fighter(2).origin);
    let log = since(&b, mark);
    let down = log.iter().position(|e| matches!(e, Event::Unconscious { creature: 0 })).unwrap();
    let put = log.iter().position(|e| matches!(e, Event::PutDown { creature: 1, by: Some(0), .. })).unwrap();
    assert!(down < put, "{log:?}");
    assert_eq!(b.carried_by(0), None);
}
