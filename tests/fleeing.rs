//! FLOW-5 and FLOW-E2: when a creature may flee, its chance as its side knows it, how the AI
//! weighs that chance, and how `sim` counts an attempt.

mod common;

use common::{battle_where_first, level_text};
use meshal_tactics::ai;
use meshal_tactics::battle::*;
use meshal_tactics::level::{builtin_compendium, parse_level};
use meshal_tactics::rules::dice::DicePoints;

/// Answer every window with a pass and every turn with `turn(battle, creature)` until `round`
/// begins (or the battle ends).
fn play_until(b: &mut Battle, round: u32, mut turn: impl FnMut(&Battle, CreatureId) -> Command) {
    for _ in 0..500 {
        if b.round() >= round || b.outcome().is_some() {
            return;
        }
        match b.awaiting() {
            Some((c, Some(_))) => b.submit(c, Command::Pass).expect("a pass is always legal"),
            Some((c, None)) => {
                let cmd = turn(b, c);
                b.submit(c, cmd.clone()).unwrap_or_else(|r| panic!("{cmd:?} refused: {r}"))
            }
            None => return,
        }
    }
}

/// Two fighters of 30 Might face to face in a corridor: A (Blue) at (1, 1) and B (Red) beside
/// it, with these Activeness dice.
fn face_to_face(name: &str, a_activeness: i32, b_activeness: i32) -> String {
    let fighter = |who: &str, side: &str, x: i32, facing: &str, activeness: i32| {
        format!(
            r#"(name: "{who}", template: "human_fighter", side: "{side}", at: ({x}, 1), facing: {facing}, overrides: (might: Some(30), activeness: Some({activeness})))"#
        )
    };
    let (a, b) = (fighter("A", "Blue", 1, "E", a_activeness), fighter("B", "Red", 2, "W", b_activeness));
    level_text(name, &["WWWWWW", "W....W", "WWWWWW"], &[&a, &b])
}

fn sword_on(target: CreatureId) -> Command {
    Command::Attack { weapon: "sword".into(), target: Target::Creature(target), additives: vec![] }
}

// RULES: FLOW-E2 — the hit-free streak is reset the moment a hostile attack hits, not at the end
// of the round: a creature struck earlier in round 4 has not gone three rounds unhit when its
// own turn comes (it used to flee with the streak of rounds 1–3).
#[test]
fn flow_e2_a_hit_resets_the_streak_at_once() {
    let text = face_to_face("streak", 1, 12);
    let mut b = battle_where_first(&text, builtin_compendium(), 1);
    play_until(&mut b, 4, |_, _| Command::EndTurn);
    assert_eq!(b.fighter(0).hit_free_streak, 3, "three rounds unhit");
    assert_eq!(b.awaiting(), Some((1, None)), "B acts first in round 4");
    b.submit(1, sword_on(0)).unwrap();
    while let Some((c, Some(_))) = b.awaiting() {
        b.submit(c, Command::Pass).unwrap();
    }
    assert!(b.fighter(0).hit_this_round, "the 30-dice sword hits");
    b.submit(1, Command::EndTurn).unwrap();
    assert_eq!(b.awaiting(), Some((0, None)));
    assert_eq!(b.fighter(0).hit_free_streak, 0);
    assert_eq!(b.check(0, &Command::Flee).unwrap_err().rule, "FLOW-5");
}

// RULES: FLOW-5, DICE-6 — the chance to get away is the creature's Activeness dice against the
// highest Activeness among the conscious hostiles, as its side knows them: a hostile behind a
// wall it does not perceive does not raise the difficulty of the estimate (it does in the roll).
#[test]
fn flow_5_the_flee_chance_counts_the_hostiles_the_side_perceives() {
    let text = level_text(
        "rooms",
        &["WWWWWWWWWWW", "W....W....W", "WWWWWWWWWWW"],
        &[
            r#"(name: "A", template: "human_fighter", side: "Blue", at: (1, 1), facing: E, overrides: (activeness: Some(4)))"#,
            r#"(name: "B", template: "human_fighter", side: "Red", at: (4, 1), facing: W, overrides: (activeness: Some(3)))"#,
            r#"(name: "C", template: "human_fighter", side: "Red", at: (8, 1), facing: W, overrides: (activeness: Some(30)))"#,
        ],
    );
    let l = parse_level("rooms.level.ron", &text, builtin_compendium()).unwrap();
    let b = Battle::new(&l, builtin_compendium(), 1).unwrap();
    assert!(b.side_perceives(0, 1) && !b.side_perceives(0, 2), "B in sight, C behind the wall");
    let chance = b.flee_chance(0);
    assert_eq!(chance, DicePoints::Meshal.attempt_chance(4, 3));
    // DICE-2, DICE-6: 4P scores more than 3 points with probability 14/81 (each die: 0 points
    // on 3-6, 1 on a 1, 2 on a 2).
    assert!((chance - 14.0 / 81.0).abs() < 1e-12, "4 dice against 3 points: {chance}");
    assert_eq!(DicePoints::Meshal.attempt_chance(4, 30), 0.0, "against C's 30 it would be hopeless");
}

// FLOW-5 — alone against three, a cautious creature that cannot get away (2 Activeness dice
// against 12) does not spend its turns on a failed attempt (it did, every turn, before the AI
// asked for the chance); with 10 dice against 1 (`flees_a_hopeless_fight`) it flees.
#[test]
fn fights_on_when_it_cannot_get_away() {
    let text = level_text(
        "hopeless",
        &["WWWWWWWWWWWWW", "W...........W", "W...........W", "WWWWWWWWWWWWW"],
        &[
            r#"(name: "AI", template: "human_fighter", side: "Blue", at: (1, 1), facing: E, overrides: (activeness: Some(2)))"#,
            r#"(name: "F1", template: "human_fighter", side: "Red", at: (11, 1), facing: W, overrides: (activeness: Some(12), might: Some(10)))"#,
            r#"(name: "F2", template: "human_fighter", side: "Red", at: (11, 2), facing: W, overrides: (activeness: Some(12), might: Some(10)))"#,
            r#"(name: "F3", template: "human_fighter", side: "Red", at: (10, 2), facing: W, overrides: (activeness: Some(12), might: Some(10)))"#,
        ],
    );
    let l = parse_level("hopeless.level.ron", &text, builtin_compendium()).unwrap();
    let mut b = Battle::new(&l, builtin_compendium(), 1).unwrap();
    let cautious = builtin_compendium().ai_profiles["cautious"].clone();
    play_until(&mut b, 7, |b, c| if c == 0 { ai::decide_with(b, 0, None, &cautious).0 } else { Command::EndTurn });
    assert!(b.flee_chance(0) < 0.01, "no chance: {}", b.flee_chance(0));
    assert!(b.fighter(0).hit_free_streak >= 3, "it could have tried");
    let log = b.log();
    assert!(!log.iter().any(|e| matches!(e.event, Event::FleeAttempted { creature: 0, .. })), "no hopeless attempt");
}

// `sim`'s count of sides shot at without answering: trying to flee is an answer (a failed one),
// so a side whose last hope tries every turn is not counted; the same battle with that creature
// only ending its turns is. The archer holds its fire for three rounds, so the runner may try.
#[test]
fn a_flee_attempt_is_not_passive() {
    let text = level_text(
        "shot",
        &["WWWWWWWWWWWW", "W..........W", "W..........W", "WWWWWWWWWWWW"],
        &[
            r#"(name: "Archer", template: "archer", side: "Blue", at: (1, 1), facing: E, overrides: (activeness: Some(12)))"#,
            r#"(name: "Target", template: "human_fighter", side: "Red", at: (8, 1), facing: W, overrides: (might: Some(30), activeness: Some(1)))"#,
            r#"(name: "Runner", template: "human_fighter", side: "Red", at: (10, 2), facing: W, overrides: (activeness: Some(1)))"#,
        ],
    );
    let play = |flee: bool| {
        let mut b = battle_where_first(&text, builtin_compendium(), 0);
        play_until(&mut b, 7, |b, c| match c {
            0 if b.round() >= 4 && b.fighter(0).ap >= 1 => {
                Command::Attack { weapon: "bow".into(), target: Target::Creature(1), additives: vec![] }
            }
            2 if flee && b.fighter(2).ap >= 3 && b.check(2, &Command::Flee).is_ok() => Command::Flee,
            _ => Command::EndTurn,
        });
        b
    };
    let hurt = |b: &Battle| -> Vec<u32> {
        let mut r: Vec<u32> =
            b.log().iter().filter(|e| matches!(e.event, Event::Damaged { creature: 1, .. })).map(|e| e.round).collect();
        r.dedup();
        r
    };
    let tried = play(true);
    let attempts = tried.log().iter().filter(|e| matches!(e.event, Event::FleeAttempted { creature: 2, .. })).count();
    assert!(attempts >= 2, "the runner tries in rounds 4, 5 and 6: {attempts}");
    assert!(hurt(&tried).windows(2).any(|w| w[1] == w[0] + 1), "shot in two rounds running: {:?}", hurt(&tried));
    assert_eq!(tried.sides_passive_under_fire(), Vec::<usize>::new());
    let waited = play(false);
    assert_eq!(waited.sides_passive_under_fire(), vec![1]);
    assert_eq!(waited.passive_stretches(), vec![(1, 5)], "rounds 4 and 5");
}

// `sim`'s count of sides shot at without answering needs two rounds the side could answer in:
// a side cut down in the second round before its turn came had no chance, and was counted as
// if it had waited (a lost battle on The Ledge ended so, in the middle of a round). The same
// blows with the side's turn coming between them are counted.
#[test]
fn a_side_cut_down_before_its_turn_came_is_not_passive() {
    let text = face_to_face("cut down", 12, 1);
    // A strikes once in round 1 and then `second` blows in round 2; B only ends its turns.
    let play = |second: i32| {
        let mut b = battle_where_first(&text, builtin_compendium(), 0);
        let mut blows = 0;
        play_until(&mut b, 3, |b, c| {
            let limit = if b.round() == 1 { 1 } else { 1 + second };
            if c == 0 && b.fighter(1).can_act() && blows < limit {
                blows += 1;
                sword_on(1)
            } else {
                Command::EndTurn
            }
        });
        b
    };
    let hurt_in = |b: &Battle, round: u32| {
        b.log().iter().any(|e| e.round == round && matches!(e.event, Event::Damaged { creature: 1, .. }))
    };
    let turn_in = |b: &Battle, round: u32| {
        b.log().iter().any(|e| e.round == round && matches!(e.event, Event::TurnStarted { creature: 1, .. }))
    };

    let cut_down = play(3);
    assert!(hurt_in(&cut_down, 1) && hurt_in(&cut_down, 2), "struck in rounds 1 and 2");
    assert!(!cut_down.fighter(1).can_act() && cut_down.outcome().is_some(), "B falls in round 2, the battle is over");
    assert!(turn_in(&cut_down, 1) && !turn_in(&cut_down, 2), "B had its turn in round 1 only");
    assert_eq!(cut_down.sides_passive_under_fire(), Vec::<usize>::new());

    let waited = play(1);
    assert!(hurt_in(&waited, 1) && hurt_in(&waited, 2) && turn_in(&waited, 2), "struck twice, and B's turn came");
    assert!(waited.fighter(1).can_act(), "B still stands");
    assert_eq!(waited.passive_stretches(), vec![(1, 2)], "rounds 1 and 2");
}
