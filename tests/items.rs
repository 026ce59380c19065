//! Items (TIME-17, TIME-18, TIME-E8, FLOW-8, ATK-6): picking up, dropping, handing over and
//! using them, checked event by event, and the AI using them where that is plainly right.

mod common;

use common::since;
use meshal_tactics::ai;
use meshal_tactics::battle::*;
use meshal_tactics::level::{builtin_compendium, parse_level};
use meshal_tactics::rules::creature::Attribute;
use meshal_tactics::rules::dice::DicePoints;
use meshal_tactics::rules::grid::Pos;

const MAP: [&str; 5] = ["WWWWWWWWWW", "W........W", "W........W", "W..W.....W", "WWWWWWWWWW"];

fn level_text(items: &str, creatures: &str) -> String {
    let rows: Vec<String> = MAP.iter().map(|r| format!("\"{r}\"")).collect();
    format!(
        r#"(name: "Items", map: [{}],
        legend: {{ '.': "floor", 'W': "wall" }},
        terrains: {{ "floor": (), "wall": (blocks_movement: true, blocks_sight: true) }},
        sides: [(name: "Blue"), (name: "Red")],
        items: [{items}], creatures: [{creatures}])"#,
        rows.join(", ")
    )
}

/// The battles (one a seed) in which creature 0 has the first turn.
fn battles(items: &str, creatures: &str) -> impl Iterator<Item = Battle> {
    let text = level_text(items, creatures);
    let l = parse_level("items.level.ron", &text, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
    (0..2000)
        .map(move |seed| Battle::new(&l, builtin_compendium(), seed).unwrap())
        .filter(|b| b.awaiting() == Some((0, None)))
}

fn battle(items: &str, creatures: &str) -> Battle {
    battles(items, creatures).next().expect("some seed gives creature 0 the first turn")
}

const BLUE: &str =
    r#"(name: "Blue", template: "archer", side: "Blue", at: (2, 2), facing: E, overrides: (activeness: Some(12)))"#;
const FRIEND: &str = r#"(name: "Friend", template: "human_fighter", side: "Blue", at: (3, 2), facing: E)"#;
const RED: &str =
    r#"(name: "Red", template: "human_fighter", side: "Red", at: (8, 1), facing: W, overrides: (activeness: Some(1)))"#;

// RULES: TIME-17, TIME-18 — an item is picked up from one's own square or one next to it, for
// 1 / 2 / 3 AP by weight (trivial, light, heavy), and moves from the ground into the pack.
#[test]
fn time_17_picking_up_costs_by_weight() {
    let items =
        r#"(at: (2, 2), item: "arrow_bundle"), (at: (1, 3), item: "javelin_pair"), (at: (1, 1), item: "strongbox")"#;
    for (at, item, ap) in [((2, 2), "arrow_bundle", 1), ((1, 3), "javelin_pair", 2), ((1, 1), "strongbox", 3)] {
        let mut b = battle(items, &[BLUE, RED].join(","));
        let at = Pos::new(at.0, at.1);
        let mark = b.log().len();
        b.submit(0, Command::PickUp { at, item: item.into() }).unwrap();
        assert_eq!(b.fighter(0).ap, 3 - ap, "{item}");
        assert!(since(&b, mark).contains(&&Event::ItemPickedUp { creature: 0, item: item.into(), at }));
        assert_eq!(b.fighter(0).items, vec![item.to_string()]);
        assert_eq!(b.ground_items().len(), 2, "the other two still lie there");
    }
}

// RULES: TIME-18 — only within reach, nothing in the way, only what lies there.
#[test]
fn time_18_pick_up_needs_reach_and_no_hindrance() {
    let items = r#"(at: (4, 2), item: "arrow_bundle"), (at: (3, 2), item: "healing_draught"), (at: (4, 3), item: "arrow_bundle")"#;
    let b = battle(items, &[BLUE, FRIEND, RED].join(","));
    let refused = |at: (i32, i32), item: &str| {
        b.check(0, &Command::PickUp { at: Pos::new(at.0, at.1), item: item.into() }).unwrap_err().rule
    };
    assert_eq!(refused((4, 2), "arrow_bundle"), "TIME-18", "two steps away");
    assert_eq!(refused((3, 2), "healing_draught"), "TIME-18", "Friend stands on it: a hindrance");
    assert_eq!(refused((2, 1), "arrow_bundle"), "TIME-18", "nothing lies there");
    assert_eq!(refused((99_999_999, 2), "arrow_bundle"), "SPACE-1");
    assert_eq!(refused((4, 3), "arrow_bundle"), "TIME-18", "two steps away diagonally");
}

// RULES: TIME-17 — dropping is 1 AP (the two quick references; TIME-17 Variants) and the item
// lies on the dropper's square, where anyone may take it up.
#[test]
fn time_17_dropping_costs_one_ap() {
    let blue = BLUE.replace("facing: E,", r#"facing: E, items: ["healing_draught"],"#);
    let mut b = battle("", &[blue.as_str(), RED].join(","));
    let mark = b.log().len();
    b.submit(0, Command::DropItem { item: "healing_draught".into() }).unwrap();
    assert_eq!(b.fighter(0).ap, 2);
    let at = Pos::new(2, 2);
    assert!(since(&b, mark).contains(&&Event::ItemDropped { creature: 0, item: "healing_draught".into(), at }));
    assert!(b.fighter(0).items.is_empty());
    assert_eq!(b.ground_items()[0].at, at);
    assert_eq!(b.check(0, &Command::DropItem { item: "healing_draught".into() }).unwrap_err().rule, "TIME-18");
    b.submit(0, Command::PickUp { at, item: "healing_draught".into() }).unwrap();
    assert_eq!(b.fighter(0).items, vec!["healing_draught".to_string()]);
}

// RULES: TIME-18, TIME-E8 — both parties pay an exchange; the receiver pays as a reaction in
// the giver's turn; one that lacks the AP makes it fail with nothing spent; only friends, only
// next to each other.
#[test]
fn time_e8_the_receiver_pays_as_a_reaction() {
    let blue = BLUE.replace("facing: E,", r#"facing: E, items: ["javelin_pair", "healing_draught"],"#);
    let mut b = battle("", &[blue.as_str(), FRIEND, RED].join(","));
    let give = |item: &str, to| Command::GiveItem { item: item.into(), to };
    assert_eq!(b.check(0, &give("javelin_pair", 2)).unwrap_err().rule, "TIME-18", "not to an enemy");
    let mark = b.log().len();
    b.submit(0, give("javelin_pair", 1)).unwrap();
    assert_eq!((b.fighter(0).ap, b.fighter(1).ap), (1, 1), "a light item: 2 AP each");
    assert!(since(&b, mark).contains(&&Event::ItemGiven { from: 0, to: 1, item: "javelin_pair".into() }));
    assert_eq!(b.fighter(1).items, vec!["javelin_pair".to_string()]);
    // The draught is trivial (1 AP): Blue has 1, Friend has 1 left: it still works once…
    let mut again = b.clone();
    again.submit(0, give("healing_draught", 1)).unwrap();
    // …but not when the receiver has no AP left: TIME-E8, and nothing is spent.
    let mut broke = b.clone();
    broke.adjust_for_scenario(1, |f| f.ap = 0);
    let before = (broke.fighter(0).ap, broke.fighter(0).items.clone());
    assert_eq!(broke.submit(0, give("healing_draught", 1)).unwrap_err().rule, "TIME-E8");
    assert_eq!((broke.fighter(0).ap, broke.fighter(0).items.clone()), before);
    // Out of reach.
    let far = battle("", &[blue.as_str(), &FRIEND.replace("(3, 2)", "(6, 2)"), RED].join(","));
    assert_eq!(far.check(0, &give("healing_draught", 1)).unwrap_err().rule, "TIME-18");
}

// RULES: FLOW-8, CRE-4 — a healing item used on an unconscious friend next to one: the dice
// rolled give back as many dice as points, never above the maximum, and it wakes the moment
// every attribute has a die. Sampled over seeds: the recovered dice are exactly the points.
#[test]
fn flow_8_a_draught_wakes_a_fallen_friend() {
    let blue = BLUE.replace("facing: E,", r#"facing: E, items: ["healing_draught"],"#);
    let (mut woke, mut slept) = (0, 0);
    for mut b in battles("", &[blue.as_str(), FRIEND, RED].join(",")).take(60) {
        b.adjust_for_scenario(1, |f| {
            let _ = f.attrs.remove_dice(Attribute::Might, 99);
            f.posture = meshal_tactics::rules::posture::Posture::Lying;
        });
        assert!(b.fighter(1).attrs.is_unconscious());
        assert_eq!(
            b.check(0, &Command::UseItem { item: "healing_draught".into(), on: None }).unwrap_err().rule,
            "CRE-4"
        );
        let mark = b.log().len();
        b.submit(0, Command::UseItem { item: "healing_draught".into(), on: Some(1) }).unwrap();
        let log = since(&b, mark);
        let rolled = log.iter().find_map(|e| match e {
            Event::Rolled { faces, points: p, .. } => Some((DicePoints::Meshal.points(faces) as i32, *p)),
            _ => None,
        });
        let (pts, logged) = rolled.expect("the draught's dice are rolled");
        assert_eq!(pts, logged);
        let max = b.fighter(1).attrs.pool(Attribute::Might).unwrap().max;
        assert!(log.contains(&&Event::DiceRecovered { creature: 1, attribute: Attribute::Might, dice: pts.min(max) }));
        assert_eq!(b.fighter(1).attrs.dice(Attribute::Might), pts.min(max));
        assert_eq!(log.contains(&&Event::Woke { creature: 1 }), pts > 0);
        assert_eq!(b.fighter(1).can_act(), pts > 0);
        assert!(b.fighter(0).items.is_empty(), "used up");
        assert_eq!(b.fighter(0).ap, 2, "a trivial item: 1 AP");
        if pts > 0 { woke += 1 } else { slept += 1 }
    }
    // 4 dice show no 1 or 2 with chance (2/3)^4 ≈ 0.198: about 12 of 60 stay down.
    assert!((4..=24).contains(&slept), "woke {woke}, slept {slept}");
}

// RULES: ATK-6, TIME-18 — spare ammunition loads the weapon it is for, and only that.
#[test]
fn atk_6_spare_arrows_reload_the_bow() {
    let blue = BLUE.replace("facing: E,", r#"facing: E, items: ["arrow_bundle", "powder_and_shot"],"#);
    let mut b = battle("", &[blue.as_str(), RED].join(","));
    b.adjust_for_scenario(0, |f| f.weapons.iter_mut().for_each(|w| w.ammo = w.ammo.map(|_| 0)));
    let refused = b.check(0, &Command::UseItem { item: "powder_and_shot".into(), on: None }).unwrap_err();
    assert_eq!(refused.rule, "ATK-6", "an archer has no blunderbuss");
    let mark = b.log().len();
    b.submit(0, Command::UseItem { item: "arrow_bundle".into(), on: None }).unwrap();
    assert!(since(&b, mark).contains(&&Event::Reloaded { creature: 0, weapon: "bow".into(), left: 6 }));
    assert_eq!(b.fighter(0).weapon("bow").unwrap().ammo, Some(6));
    assert_eq!(b.fighter(0).weapon("aimed_shot").unwrap().ammo, Some(0), "another weapon's store");
    assert_eq!(b.check(0, &Command::UseItem { item: "arrow_bundle".into(), on: None }).unwrap_err().rule, "TIME-18");
}

// RULES: TIME-18 — the AI picks up arrows next to it when its bow is dry, loads and shoots.
#[test]
fn the_ai_picks_up_arrows_and_shoots() {
    let mut b = battle(r#"(at: (2, 1), item: "arrow_bundle")"#, &[BLUE, RED].join(","));
    b.adjust_for_scenario(0, |f| f.weapons.iter_mut().for_each(|w| w.ammo = w.ammo.map(|_| 0)));
    let c = ai::decide(&b, 0, None);
    assert_eq!(c, Command::PickUp { at: Pos::new(2, 1), item: "arrow_bundle".into() });
    b.submit(0, c).unwrap();
    let c = ai::decide(&b, 0, None);
    assert_eq!(c, Command::UseItem { item: "arrow_bundle".into(), on: None });
    b.submit(0, c).unwrap();
    let c = ai::decide(&b, 0, None);
    assert!(matches!(&c, Command::Attack { weapon, .. } if weapon == "bow"), "then it shoots: {c:?}");
    // With arrows in the bow it leaves them lying: no AP on what it does not need.
    let full = battle(r#"(at: (2, 1), item: "arrow_bundle")"#, &[BLUE, RED].join(","));
    assert!(!matches!(ai::decide(&full, 0, None), Command::PickUp { .. }));
}

// RULES: FLOW-8 — the AI pours its draught into a friend who is down next to it.
#[test]
fn the_ai_wakes_a_fallen_friend() {
    let blue = BLUE.replace("facing: E,", r#"facing: E, items: ["healing_draught"],"#);
    let mut b = battle("", &[blue.as_str(), FRIEND, RED].join(","));
    assert!(!matches!(ai::decide(&b, 0, None), Command::UseItem { .. }), "nobody needs it yet");
    b.adjust_for_scenario(1, |f| {
        let _ = f.attrs.remove_dice(Attribute::Might, 99);
    });
    assert_eq!(ai::decide(&b, 0, None), Command::UseItem { item: "healing_draught".into(), on: Some(1) });
}

// A level's items are checked with the line and column of the bad entry.
#[test]
fn bad_items_in_a_level_are_located() {
    for (items, says) in [
        (r#"(at: (2, 1), item: "elixir")"#, "unknown item"),
        (r#"(at: (20, 1), item: "arrow_bundle")"#, "off the"),
        (r#"(at: (0, 0), item: "arrow_bundle")"#, "blocks movement"),
    ] {
        let text = level_text(items, &[BLUE, RED].join(","));
        let e = parse_level("bad.level.ron", &text, builtin_compendium()).unwrap_err();
        assert!(e.message.contains(says), "{e}");
        let line = text.lines().nth(e.line - 1).unwrap();
        assert!(line.contains("items:"), "{e} points at {line:?}");
        assert!(line[e.column - 1..].starts_with("item:"), "{e}: column {} of {line:?}", e.column);
    }
    let carried = BLUE.replace("facing: E,", r#"facing: E, items: ["elixir"],"#);
    let text = level_text("", &[carried.as_str(), RED].join(","));
    let e = parse_level("bad.level.ron", &text, builtin_compendium()).unwrap_err();
    assert!(e.message.contains("unknown item \"elixir\""), "{e}");
}
