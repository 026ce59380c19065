//! Ready (TIME-E10): an attack named with a trigger fires as a reaction for its AP + 1 when a
//! hostile's move sets the trigger off, until the start of the creature's next turn.

mod common;

use common::since;
use meshal_tactics::ai;
use meshal_tactics::battle::*;
use meshal_tactics::level::{builtin_compendium, parse_level};
use meshal_tactics::rules::grid::Pos;

/// A wall between the archer (west) and Red (east); the gap is the bottom row.
const MAP: [&str; 5] = ["WWWWWWWWWWWW", "W....W.....W", "W....W.....W", "W..........W", "WWWWWWWWWWWW"];

fn level_text_with(creatures: &str, ruleset: &str) -> String {
    let rows: Vec<String> = MAP.iter().map(|r| format!("\"{r}\"")).collect();
    format!(
        r#"(name: "Ready", map: [{}],
        legend: {{ '.': "floor", 'W': "wall" }},
        terrains: {{ "floor": (), "wall": (blocks_movement: true, blocks_sight: true) }},
        sides: [(name: "Blue"), (name: "Red")], ruleset: {ruleset}, creatures: [{creatures}])"#,
        rows.join(", ")
    )
}

fn battle(creatures: &str) -> Battle {
    battle_with(creatures, "()")
}

fn battle_with(creatures: &str, ruleset: &str) -> Battle {
    let text = level_text_with(creatures, ruleset);
    let l = parse_level("ready.level.ron", &text, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
    (0..2000)
        .map(|seed| Battle::new(&l, builtin_compendium(), seed).unwrap())
        .find(|b| b.awaiting() == Some((0, None)))
        .expect("some seed gives creature 0 the first turn")
}

const ARCHER: &str =
    r#"(name: "Archer", template: "archer", side: "Blue", at: (1, 2), facing: E, overrides: (activeness: Some(12)))"#;
const RED: &str =
    r#"(name: "Red", template: "human_fighter", side: "Red", at: (9, 3), facing: W, overrides: (activeness: Some(1)))"#;

/// Answer Red's reaction windows by taking the blow, until it is Red's turn again.
fn take_it(b: &mut Battle) {
    while let Some((c, Some(_))) = b.awaiting() {
        b.submit(c, Command::Pass).unwrap();
    }
}

fn ready(trigger: ReadyTrigger) -> Command {
    Command::Ready { weapon: "bow".into(), trigger }
}

/// Red walks out from behind the wall into the archer's sight: (9, 3) → (8, 2) → (7, 1).
fn red_steps_out(b: &mut Battle) {
    let path = vec![Pos::new(9, 3), Pos::new(8, 2), Pos::new(7, 1)];
    b.submit(1, Command::Move { path, sprint: false, face: None }).unwrap();
}

// RULES: TIME-E10 — readied, the shot waits; Red's move ends in reach and sight: the archer
// shoots as a reaction, paying the bow's 1 AP + 1; only Blue was told it readied.
#[test]
fn time_e10_a_readied_shot_fires_when_a_hostile_comes_into_reach() {
    let mut b = battle(&[ARCHER, RED].join(","));
    assert!(!b.perceives(0, 1), "the wall hides Red");
    let mark = b.log().len();
    b.submit(0, ready(ReadyTrigger::InReach)).unwrap();
    assert_eq!(b.fighter(0).ap, 3, "declaring costs nothing");
    let told: Vec<&LogEntry> = b.log()[mark..].iter().filter(|e| matches!(e.event, Event::Readied { .. })).collect();
    assert_eq!(told.len(), 1);
    assert_eq!(told[0].visible_to, vec!["Blue".to_string()], "Red is not told");
    b.submit(0, Command::EndTurn).unwrap();
    assert_eq!(b.awaiting().map(|a| a.0), Some(1));
    let mark = b.log().len();
    red_steps_out(&mut b);
    let log = since(&b, mark);
    let fired = log.iter().position(|e| **e == Event::ReadyFired { creature: 0, at: 1 }).expect("it fires");
    let declared =
        log.iter().position(|e| matches!(e, Event::AttackDeclared { attacker: 0, weapon, .. } if weapon == "bow"));
    assert!(declared.is_some_and(|d| d > fired), "{log:?}");
    assert_eq!(b.fighter(0).ap, 1, "bow 1 AP + 1");
    assert!(b.fighter(0).readied.is_none(), "it fires once");
    take_it(&mut b);
    assert_eq!(b.awaiting(), Some((1, None)), "Red's turn goes on");
    // A second move does not set it off again.
    let mark = b.log().len();
    let path = vec![Pos::new(7, 1), Pos::new(6, 1)];
    b.submit(1, Command::Move { path, sprint: false, face: None }).unwrap();
    assert!(!since(&b, mark).iter().any(|e| matches!(e, Event::ReadyFired { .. })));
}

// RULES: TIME-E10 — unused, the readiness lapses at the start of the creature's next turn.
#[test]
fn time_e10_an_unused_readiness_lapses() {
    let mut b = battle(&[ARCHER, RED].join(","));
    b.submit(0, ready(ReadyTrigger::InReach)).unwrap();
    b.submit(0, Command::EndTurn).unwrap();
    b.submit(1, Command::EndTurn).unwrap();
    assert_eq!(b.awaiting(), Some((0, None)));
    assert!(b.fighter(0).readied.is_none());
    assert!(b.log().iter().any(|e| e.event == Event::ReadyLapsed { creature: 0 }));
    let spent = b.log().iter().any(|e| matches!(e.event, Event::ApSpent { creature: 0, .. }));
    assert!(!spent, "readying and lapsing cost nothing");
}

// RULES: TIME-E10 — an area trigger fires on a path through the area (and not on one that
// misses it); "comes into view" fires only for the named creature stepping into sight.
#[test]
fn time_e10_area_and_view_triggers() {
    let area = ReadyTrigger::EntersArea { from: Pos::new(8, 2), to: Pos::new(8, 3) };
    let mut b = battle(&[ARCHER, RED].join(","));
    b.submit(0, ready(area.clone())).unwrap();
    b.submit(0, Command::EndTurn).unwrap();
    let mut through = b.clone();
    let mark = through.log().len();
    red_steps_out(&mut through);
    assert!(since(&through, mark).contains(&&Event::ReadyFired { creature: 0, at: 1 }), "(8, 2) is in the area");
    let mark = b.log().len();
    let path = vec![Pos::new(9, 3), Pos::new(9, 2), Pos::new(8, 1), Pos::new(7, 1)];
    b.submit(1, Command::Move { path, sprint: false, face: None }).unwrap();
    assert!(b.perceives(0, 1), "Red ends in sight and in reach…");
    assert!(!since(&b, mark).iter().any(|e| matches!(e, Event::ReadyFired { .. })), "…but beside the area");
    // Leaving an area is not entering it: Red starts inside this one.
    let mut leave = battle(&[ARCHER, RED].join(","));
    leave.submit(0, ready(ReadyTrigger::EntersArea { from: Pos::new(9, 3), to: Pos::new(9, 3) })).unwrap();
    leave.submit(0, Command::EndTurn).unwrap();
    let mark = leave.log().len();
    red_steps_out(&mut leave);
    assert!(!since(&leave, mark).iter().any(|e| matches!(e, Event::ReadyFired { .. })));
    // Comes into view: Red is unseen now, then seen.
    let mut v = battle(&[ARCHER, RED].join(","));
    let refused = v.check(0, &ready(ReadyTrigger::ComesIntoView { creature: 1 })).unwrap_err();
    assert_eq!(refused.rule, "TIME-E10", "Blue has never seen Red: it cannot name it");
    v.adjust_for_scenario(1, |f| f.origin = Pos::new(7, 1));
    v.adjust_for_scenario(1, |f| f.origin = Pos::new(9, 3));
    assert!(!v.perceives(0, 1));
    v.submit(0, ready(ReadyTrigger::ComesIntoView { creature: 1 })).unwrap();
    v.submit(0, Command::EndTurn).unwrap();
    let mark = v.log().len();
    red_steps_out(&mut v);
    assert!(since(&v, mark).contains(&&Event::ReadyFired { creature: 0, at: 1 }));
}

// RULES: TIME-E10 — what cannot be readied: an area attack, one that would be long-term, one
// without the AP for it now, and not outside one's own turn.
#[test]
fn time_e10_what_cannot_be_readied() {
    let gunner = ARCHER.replace(r#"template: "archer""#, r#"template: "gunner""#);
    let g = battle(&[gunner.as_str(), RED].join(","));
    let area = Command::Ready { weapon: "blunderbuss".into(), trigger: ReadyTrigger::InReach };
    assert_eq!(g.check(0, &area).unwrap_err().rule, "TIME-E10");
    let mut b = battle(&[ARCHER, RED].join(","));
    let aimed = Command::Ready { weapon: "aimed_shot".into(), trigger: ReadyTrigger::InReach };
    assert_eq!(b.check(0, &aimed).unwrap_err().rule, "TIME-E10", "4 AP + 1 is past a turn");
    b.submit(0, Command::Move { path: vec![Pos::new(1, 2), Pos::new(2, 2)], sprint: false, face: None }).unwrap();
    b.submit(0, Command::Move { path: vec![Pos::new(2, 2), Pos::new(3, 2)], sprint: false, face: None }).unwrap();
    assert_eq!(b.check(0, &ready(ReadyTrigger::InReach)).unwrap_err().rule, "TIME-E10", "1 AP left, 2 needed");
    assert_eq!(b.check(1, &ready(ReadyTrigger::InReach)).unwrap_err().rule, "TIME-7");
    let off = ReadyTrigger::EntersArea { from: Pos::new(0, 0), to: Pos::new(99, 1) };
    assert_eq!(b.check(0, &ready(off)).unwrap_err().rule, "TIME-E10");
}

// RULES: TIME-E10 — the AI, ordered to hold its square with nobody in sight, readies its bow
// rather than let its AP lapse, keeping a defense's AP; the shot then fires.
#[test]
fn the_ai_readies_instead_of_ending_its_turn() {
    let held = ARCHER.replace("facing: E,", "facing: E, hold: Some((from: (1, 2), to: (1, 2))),");
    let mut b = battle(&[held.as_str(), RED].join(","));
    let mut turn = Vec::new();
    while b.awaiting() == Some((0, None)) {
        let c = ai::decide(&b, 0, None);
        turn.push(c.clone());
        b.submit(0, c).unwrap();
    }
    assert!(turn.contains(&ready(ReadyTrigger::InReach)), "{turn:?}");
    let mark = b.log().len();
    red_steps_out(&mut b);
    assert!(since(&b, mark).contains(&&Event::ReadyFired { creature: 0, at: 1 }));
}

// RULES: TIME-E10 — a readiness is its side's secret: the look-ahead's belief of another side
// holds none, its own side's still does.
#[test]
fn a_readiness_is_not_in_another_sides_belief() {
    let mut b = battle(&[ARCHER, RED].join(","));
    b.submit(0, ready(ReadyTrigger::InReach)).unwrap();
    assert!(b.belief_of(1, 7).fighter(0).readied.is_none());
    assert!(b.belief_of(0, 7).fighter(0).readied.is_some());
}

// RULES: TIME-E10 — two readied archers both fire at the same move, one after the other; a
// creature that readied has acted and may not delay.
#[test]
fn time_e10_two_readied_shots_and_no_delay() {
    let (b, fired) = two_readied_archers("()", |b| {
        assert_eq!(b.check(0, &Command::Delay { after: 2 }).unwrap_err().rule, "TIME-D4");
    });
    let still_up = b.fighter(2).can_act();
    if still_up {
        assert_eq!(fired, vec![Event::ReadyFired { creature: 0, at: 2 }, Event::ReadyFired { creature: 1, at: 2 }]);
    } else {
        assert_eq!(fired.len(), 1, "the second shot is not wasted on a creature already down");
    }
}

// RULES: TIME-E6, TIME-E10 — 001's reaction ordering (`reactions: OneEmergency001`, TIME-13's
// Variants): an action can be affected by only one emergency action, declared in initiative
// order. Red's move sets off both readied archers; the first in initiative order from Red's
// slot fires, the second does not and stays ready. By default both fire (above).
#[test]
fn time_e6_001_one_emergency_action_per_move() {
    let (b, fired) = two_readied_archers("(reactions: OneEmergency001)", |_| {});
    let order = b.order().to_vec();
    let slot = |c: CreatureId| order.iter().position(|&o| o == c).unwrap();
    let first = if (slot(0) + order.len() - slot(2)) % order.len() <= (slot(1) + order.len() - slot(2)) % order.len() {
        0
    } else {
        1
    };
    assert_eq!(fired, vec![Event::ReadyFired { creature: first, at: 2 }]);
    assert!(b.fighter(1 - first).readied.is_some(), "the other archer is still ready");
}

/// Two archers ready their bows (`after_first` looks at the battle after the first readies),
/// then Red walks out into both their reaches: the battle after, and the shots fired at it.
fn two_readied_archers(ruleset: &str, after_first: impl Fn(&Battle)) -> (Battle, Vec<Event>) {
    let second = ARCHER.replace(r#"name: "Archer""#, r#"name: "Second""#).replace("(1, 2)", "(1, 1)");
    let mut b = battle_with(&[ARCHER, second.as_str(), RED].join(","), ruleset);
    b.submit(0, ready(ReadyTrigger::InReach)).unwrap();
    after_first(&b);
    b.submit(0, Command::EndTurn).unwrap();
    while b.awaiting() == Some((1, None)) {
        b.submit(1, ready(ReadyTrigger::InReach)).unwrap();
        b.submit(1, Command::EndTurn).unwrap();
    }
    assert_eq!(b.awaiting().map(|a| a.0), Some(2), "Red's turn");
    let mark = b.log().len();
    let path = vec![Pos::new(9, 3), Pos::new(8, 2), Pos::new(7, 1)];
    b.submit(2, Command::Move { path, sprint: false, face: None }).unwrap();
    take_it(&mut b);
    let fired = since(&b, mark).into_iter().filter(|e| matches!(e, Event::ReadyFired { .. })).cloned().collect();
    (b, fired)
}
