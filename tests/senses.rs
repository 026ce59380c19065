//! Senses: smell by path distance (PERC-6), invisibility (PERC-E6), losing a sense (FLOW-D3's
//! blinded and deafened) and the habitual sense (PERC-4).

mod common;

use common::{battle_where_first, level_text, since, weighed_dealt};
use meshal_tactics::battle::*;
use meshal_tactics::level::builtin_compendium;
use meshal_tactics::level::compendium::{Compendium, CreatureTemplate};
use meshal_tactics::rules::grid::Pos;
use meshal_tactics::rules::senses::Sense;

/// A wall stub at x = 3 between (1, 1) and (5, 1): no line passes, and the way around its
/// north end is four diagonals (SPACE-6: 1 + 2 + 1 + 2 = 6 steps).
const STUB: [&str; 5] = ["WWWWWWWWW", "W.......W", "W..W....W", "W..W....W", "WWWWWWWWW"];
const OPEN: [&str; 5] = ["WWWWWWWWWW", "W........W", "W........W", "W........W", "WWWWWWWWWW"];

/// A new template: its key, the template it starts from, and the change.
type TemplateChange<'a> = (&'a str, &'a str, fn(&mut CreatureTemplate));

fn with_templates(extra: &[TemplateChange]) -> Compendium {
    let mut c = builtin_compendium().clone();
    for (key, from, change) in extra {
        let mut t = c.creatures[*from].clone();
        change(&mut t);
        c.creatures.insert((*key).into(), t);
    }
    c
}

fn creature(name: &str, template: &str, side: &str, at: (i32, i32), facing: &str, extra: &str) -> String {
    format!(r#"(name: "{name}", template: "{template}", side: "{side}", at: {at:?}, facing: {facing}{extra})"#)
}

/// Answer every reaction window by letting the blow land.
fn take_it(b: &mut Battle) {
    while let Some((c, Some(_))) = b.awaiting() {
        b.submit(c, Command::Pass).unwrap();
    }
}

// RULES: PERC-6 — smell perceives a creature whose way around the walls is within range,
// with no line and no noise; one step short of the way round, it does not.
#[test]
fn perc_6_a_hound_smells_around_a_wall_what_it_cannot_see() {
    let c = with_templates(&[("short_nosed_hound", "tracking_hound", |t| t.senses.smell = 5)]);
    for (template, smells) in [("tracking_hound", true), ("short_nosed_hound", false), ("human_fighter", false)] {
        let text = level_text(
            "Smell",
            &STUB,
            &[
                &creature("Nose", template, "Blue", (1, 1), "E", ""),
                &creature("Red", "human_fighter", "Red", (5, 1), "W", ""),
            ],
        );
        let b = battle_where_first(&text, &c, 0);
        assert_eq!(b.perceives(0, 1), smells, "{template}");
        assert!(!b.perceives(1, 0), "the wall hides the hound from Red, who cannot smell");
    }
}

// RULES: PERC-E6, PERC-3, ATK-11 — an invisible creature is not seen even next to one; it
// cannot be targeted; its attack cannot be defended; the one it struck then knows its square
// (told only to that side) until it moves.
#[test]
fn perc_e6_an_invisible_attacker_is_located_only_where_it_struck_from() {
    let c = with_templates(&[("deaf_fighter", "human_fighter", |t| t.senses.hearing = 0)]);
    let text = level_text(
        "Invisible",
        &OPEN,
        &[
            &creature("Blue", "deaf_fighter", "Blue", (2, 2), "E", ""),
            &creature("Phantom", "phantom", "Red", (6, 2), "W", ""),
        ],
    );
    let mut b = battle_where_first(&text, &c, 1);
    assert!(!b.perceives(0, 1), "seen by nobody");
    assert!(b.perceives(1, 0));
    b.submit(
        1,
        Command::Move {
            path: vec![Pos::new(6, 2), Pos::new(5, 2), Pos::new(4, 2), Pos::new(3, 2)],
            sprint: false,
            face: None,
        },
    )
    .unwrap();
    assert!(!b.perceives(0, 1), "adjacent and still unseen (PERC-E2's exception; this fighter is deaf)");
    let mark = b.log().len();
    b.submit(1, Command::Attack { weapon: "chill_touch".into(), target: Target::Creature(0), additives: vec![] })
        .unwrap();
    take_it(&mut b);
    let log = since(&b, mark);
    assert!(log.iter().any(|e| matches!(e, Event::Undefendable { target: 0, .. })), "{log:?}");
    let located: Vec<&LogEntry> =
        b.log()[mark..].iter().filter(|e| matches!(e.event, Event::InvisibleLocated { .. })).collect();
    assert_eq!(located.len(), 1);
    assert_eq!(located[0].event, Event::InvisibleLocated { creature: 0, attacker: 1, at: Pos::new(3, 2) });
    assert_eq!(located[0].visible_to, vec!["Blue".to_string()]);
    assert!(b.perceives(0, 1), "it knows where the blow came from");
    // Once it moves, it is lost again.
    b.submit(1, Command::Move { path: vec![Pos::new(3, 2), Pos::new(4, 3)], sprint: false, face: None }).unwrap();
    assert!(!b.perceives(0, 1));
    b.submit(1, Command::EndTurn).unwrap();
    assert_eq!(b.awaiting(), Some((0, None)));
    let refused =
        b.submit(0, Command::Attack { weapon: "sword".into(), target: Target::Creature(1), additives: vec![] });
    assert_eq!(refused.unwrap_err().rule, "PERC-3");
}

// RULES: PERC-E6, PERC-E5 — invisibility hides from sight only: a creature that hears
// perceives the invisible one when it moves within hearing range.
#[test]
fn perc_e6_an_invisible_creature_that_moves_is_heard() {
    let text = level_text(
        "Heard",
        &OPEN,
        &[
            &creature("Blue", "human_fighter", "Blue", (2, 2), "E", ""),
            &creature("Phantom", "phantom", "Red", (7, 2), "W", ""),
        ],
    );
    let mut b = battle_where_first(&text, builtin_compendium(), 1);
    assert!(!b.perceives(0, 1));
    b.submit(1, Command::Move { path: vec![Pos::new(7, 2), Pos::new(6, 2)], sprint: false, face: None }).unwrap();
    assert!(b.perceives(0, 1), "its steps are heard");
}

// RULES: FLOW-D3, PERC-4 — blinding powder that hurts takes the victim's sight for its next
// two turns: relying on sight, it perceives only what is next to it (not even the thrower it
// hears), sees no squares, and gropes (+1 resistance a step). Its sight comes back when its
// second turn ends.
#[test]
fn flow_d3_blinded_a_creature_that_relies_on_sight_perceives_only_adjacent() {
    let text = level_text(
        "Blind",
        &OPEN,
        &[
            &creature("Thrower", "cultist", "Blue", (2, 2), "E", ", overrides: (activeness: Some(8))"),
            // Activeness 10: the powder's few dice of damage do not knock it out.
            &creature("Red", "human_fighter", "Red", (4, 2), "W", ", overrides: (activeness: Some(10))"),
        ],
    );
    let mut b = battle_where_first(&text, builtin_compendium(), 0);
    let before = b.reachable(1, false).unwrap_or_else(|e| panic!("{e:?}"));
    let cost_before = before.cost_quarters(Pos::new(5, 2)).expect("a step east");
    let mark = b.log().len();
    b.submit(0, Command::Attack { weapon: "blinding_powder".into(), target: Target::Creature(1), additives: vec![] })
        .unwrap();
    take_it(&mut b);
    let log = since(&b, mark);
    assert!(log.contains(&&Event::SenseLost { creature: 1, sense: Sense::Vision, turns: 2 }), "{log:?}");
    assert!(b.fighter(1).has_lost(Sense::Vision));
    assert!(!b.perceives(1, 0), "two steps off: hearing shrinks to adjacent squares too (PERC-4)");
    assert!(b.seen_squares(1).iter().all(|s| !s), "a blinded side sees no squares");
    b.submit(0, Command::EndTurn).unwrap();
    assert_eq!(b.awaiting(), Some((1, None)));
    let after = b.reachable(1, false).unwrap_or_else(|e| panic!("{e:?}"));
    let cost_after = after.cost_quarters(Pos::new(5, 2));
    assert_eq!(cost_after, Some(2 * cost_before), "resistance 1 + 1: each step costs double");
    b.submit(1, Command::EndTurn).unwrap();
    assert_eq!(b.fighter(1).senses_lost[Sense::Vision.index()], 1, "one of its two turns spent");
    b.submit(0, Command::EndTurn).unwrap();
    let mark = b.log().len();
    b.submit(1, Command::EndTurn).unwrap();
    assert!(since(&b, mark).contains(&&Event::SenseRegained { creature: 1, sense: Sense::Vision }));
    assert!(b.perceives(1, 0), "it sees again");
}

// RULES: FLOW-D3, PERC-4 — the planner counts the sight a throw of blinding powder takes
// above its dice; `easy` (difficulty 1, `ai::situation::plays_sloppily`) sees only the dice.
#[test]
fn easy_does_not_count_the_sense_a_blow_takes() {
    let text = level_text(
        "Blind",
        &OPEN,
        &[
            // Held to its square (a GM's order), it weighs its throws, not a walk to Red's back.
            &creature(
                "Thrower",
                "cultist",
                "Blue",
                (2, 2),
                "E",
                ", overrides: (activeness: Some(8)), hold: Some((from: (2, 2), to: (2, 2)))",
            ),
            &creature("Red", "human_fighter", "Red", (4, 2), "W", ", overrides: (activeness: Some(10))"),
        ],
    );
    let b = battle_where_first(&text, builtin_compendium(), 0);
    let dealt = |profile: &str| weighed_dealt(&b, 0, profile, "blinding_powder on Red");
    let (normal, easy) = (dealt("normal"), dealt("easy"));
    assert!(normal > easy + 0.3, "the lost sight counts for normal only: {normal} against {easy}");
}

// RULES: PERC-4, FLOW-D3 — a creature that relies on hearing (a cave lurker: no eyes) and is
// deafened perceives only what is next to it, though its tremorsense is not lost.
#[test]
fn perc_4_a_deafened_lurker_loses_all_but_adjacent() {
    let text = level_text(
        "Deaf",
        &OPEN,
        &[
            &creature("Drummer", "cult_drummer", "Blue", (2, 2), "E", ", overrides: (activeness: Some(20))"),
            // Might 12: the stone's few dice of damage do not knock it out.
            &creature("Lurker", "cave_lurker", "Red", (6, 2), "W", ", overrides: (might: Some(12))"),
        ],
    );
    let mut b = battle_where_first(&text, builtin_compendium(), 0);
    assert_eq!(b.fighter(1).senses.habitual(), Some(Sense::Hearing), "no eyes: it relies on its ears");
    let mark = b.log().len();
    b.submit(
        0,
        Command::Attack { weapon: "thunderstone".into(), target: Target::Square(Pos::new(6, 2)), additives: vec![] },
    )
    .unwrap();
    take_it(&mut b);
    let log = since(&b, mark);
    assert!(log.contains(&&Event::SenseLost { creature: 1, sense: Sense::Hearing, turns: 3 }), "{log:?}");
    assert!(b.fighter(0).noisy_round.is_some(), "the thrower is loud");
    assert!(b.fighter(1).can_act(), "still in the fight");
    assert!(!b.perceives(1, 0), "tremorsense 8 no longer reaches 4 steps (PERC-4)");
    let mut control = b.clone();
    control.adjust_for_scenario(1, |f| f.senses_lost = [0; 5]);
    assert!(control.perceives(1, 0), "not deafened, it hears (and feels) the loud thrower");
    assert_eq!(b.fighter(1).sense_range(Sense::Tremor), 1);
    assert_eq!(b.fighter(1).sense_range(Sense::Hearing), 0);
}

// RULES: PERC-4, PERC-6, FLOW-D3 — absurd sense data is refused with the entry named.
#[test]
fn perc_4_bad_sense_data_is_refused() {
    let mut c = builtin_compendium().clone();
    c.creatures.get_mut("grey_wolf").unwrap().senses.smell = 100_000;
    let e = c.validate().unwrap_err();
    assert!(e.contains("grey_wolf") && e.contains("smell must be 0..=200"), "{e}");
    let mut c = builtin_compendium().clone();
    c.creatures.get_mut("grey_wolf").unwrap().senses.habitual = Some(Sense::Supernatural);
    let e = c.validate().unwrap_err();
    assert!(e.contains("grey_wolf") && e.contains("PERC-4"), "{e}");
    let mut c = builtin_compendium().clone();
    c.weapons.get_mut("blinding_powder").unwrap().takes_sense.as_mut().unwrap().turns = 0;
    let e = c.validate().unwrap_err();
    assert!(e.contains("blinding_powder") && e.contains("1..=20 turns"), "{e}");
}

// RULES: PERC-5, FACE-4 — the squares a side sees leave out its creatures' blind rear arcs;
// the squares it would see by turning round (what the AI's search asks, so that it does not
// walk to look at what is only behind its back) hold them, and still nothing a wall hides.
#[test]
fn perc_5_the_blind_rear_is_seen_by_turning_round_but_not_what_a_wall_hides() {
    let text = level_text(
        "Turning",
        &STUB,
        &[
            &creature("Eyes", "human_fighter", "Blue", (5, 2), "E", ""),
            &creature("Red", "human_fighter", "Red", (7, 1), "W", ""),
        ],
    );
    let b = battle_where_first(&text, builtin_compendium(), 0);
    let (now, turning) = (b.seen_squares(0), b.squares_seen_turning(0));
    let i = |x, y| b.map().index(Pos::new(x, y));
    assert!(now[i(7, 2)] && turning[i(7, 2)], "ahead: seen either way");
    // (4, 2), the square at its back, is seen (the blind arc is the rear's cone, FACE-4);
    // (2, 3), farther back along the open row, is in the cone.
    assert!(now[i(4, 2)], "the square at its back");
    assert!(!now[i(2, 3)] && turning[i(2, 3)], "behind: blind now, seen turning round");
    assert!(!now[i(1, 2)] && !turning[i(1, 2)], "behind the wall stub: hidden either way");
    assert!(now.iter().zip(&turning).all(|(n, t)| !n || *t), "turning round loses nothing it sees now");
}

/// A wall at x = 7 (y 4–6) between a lane and a brute's corner of a long hall.
const CORNER: [&str; 9] = [
    "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWW",
    "W............................W",
    "W......W.....................W",
    "W......W.....................W",
    "W......W.....................W",
    "W............................W",
    "W............................W",
    "W............................W",
    "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWW",
];

/// A wolf of Blue that sees a Red brute at (9, 4), then walks up the lane out of its sight.
fn out_of_the_brutes_sight() -> Battle {
    let text = level_text(
        "corner",
        &CORNER,
        &[
            &creature("Wolf", "grey_wolf", "Blue", (3, 2), "E", ", overrides: (activeness: Some(10))"),
            &creature("Brute", "brute", "Red", (9, 4), "W", ", overrides: (activeness: Some(1), speed: Some(1))"),
            &creature("Man", "human_fighter", "Red", (14, 7), "W", ", overrides: (activeness: Some(1))"),
        ],
    );
    let mut b = battle_where_first(&text, builtin_compendium(), 0);
    assert!(b.side_perceives(0, 1), "the wolf sees the brute past the wall's end");
    let path = (2..=7).map(|y| Pos::new(3, y)).collect();
    b.submit(0, Command::Move { path, sprint: false, face: None }).unwrap();
    assert!(!b.side_perceives(0, 1) && b.side_perceives(0, 2), "the wall hides the brute, not the man");
    b
}

/// Every creature ends its turn until the next round starts.
fn to_the_next_round(b: &mut Battle) {
    let round = b.round();
    while b.round() == round {
        let (c, _) = b.awaiting().expect("someone is to act");
        b.submit(c, Command::EndTurn).unwrap();
    }
}

// RULES: PERC-3, PERC-E2 — a side's memory of a foe it lost sight of (`lately_lost`): as and
// where it last saw it, for the rounds asked (this one included), whatever the foe has done
// out of its sight since.
#[test]
fn perc_e2_a_foe_lost_from_sight_is_remembered_where_it_was_seen() {
    let mut b = out_of_the_brutes_sight();
    let seen = |b: &Battle, rounds| b.lately_lost(0, rounds).iter().map(|g| (g.id, g.origin)).collect::<Vec<_>>();
    assert_eq!(seen(&b, 1), [(1, Pos::new(9, 4))], "lost this round");
    // Out of sight it walks off: the side still remembers it where it saw it.
    b.adjust_for_scenario(1, |f| f.origin = Pos::new(24, 1));
    assert!(!b.side_perceives(0, 1));
    assert_eq!(seen(&b, 1), [(1, Pos::new(9, 4))], "the memory, not the truth");
    assert!(b.lately_lost(1, 1).is_empty(), "Red lost sight of nobody");
    to_the_next_round(&mut b);
    assert!(seen(&b, 1).is_empty(), "lost last round: not this round's");
    assert_eq!(seen(&b, 2), [(1, Pos::new(9, 4))], "but within the last two");
    to_the_next_round(&mut b);
    assert!(seen(&b, 2).is_empty(), "two rounds ago is past the last two");
}

// RULES: PERC-3, PERC-E2 — a foe out of sight a moment ago is still a danger where it was seen,
// though not a target: the wolf that stepped out of the brute's sight neither walks on toward the
// man into the brute's reach, as if the brute were gone, nor out into its sight and back (the
// Mill's wolves paced so in an archer's sight). What it weighs is its side's memory: the brute
// walked off out of its sight changes nothing in the decision or its reasons.
#[test]
fn perc_e2_a_foe_just_out_of_sight_still_weighs_where_it_was_seen() {
    let mut b = out_of_the_brutes_sight();
    let normal = &builtin_compendium().ai_profiles["normal"];
    let decide = |b: &Battle| meshal_tactics::ai::decide_with(b, 0, None, normal);
    let mut walked_off = b.clone();
    walked_off.adjust_for_scenario(1, |f| f.origin = Pos::new(24, 1));
    assert_eq!(format!("{:?}", decide(&b)), format!("{:?}", decide(&walked_off)), "weighed alike");
    let mark = b.log().len();
    while let Some((0, None)) = b.awaiting() {
        let (c, _) = decide(&b);
        b.submit(0, c).unwrap();
    }
    let seen_again = since(&b, mark).iter().any(|e| matches!(e, Event::Spotted { creature: 1, .. }));
    assert!(!seen_again, "it did not step back into the brute's sight");
    // The slow brute walks 3.5 steps in two moves and strikes 2 squares beyond.
    let d = b.distance_between(0, 1);
    assert!(d > 6, "out of the brute's reach: {d} steps");
}
