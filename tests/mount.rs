//! Mounts (MOVE-14, MOVE-E8): mounting and dismounting as posture changes (1 AP), the rider
//! bound to its mount's token, separate turns, either one a target.

mod common;

use common::{level_text, since};
use meshal_tactics::ai;
use meshal_tactics::battle::*;
use meshal_tactics::level::{builtin_compendium, parse_level};
use meshal_tactics::rules::creature::Attribute;
use meshal_tactics::rules::grid::{Footprint, Pos, footprint_distance};
use meshal_tactics::rules::posture::Posture;

const FIELD: [&str; 7] = [
    "WWWWWWWWWWWWWW",
    "W............W",
    "W............W",
    "W............W",
    "W............W",
    "W............W",
    "WWWWWWWWWWWWWW",
];

fn creature(name: &str, template: &str, side: &str, at: (i32, i32), extra: &str) -> String {
    format!(r#"(name: "{name}", template: "{template}", side: "{side}", at: {at:?}, facing: E{extra})"#)
}

/// Knight (0) at (2, 2) beside the Warhorse (1, 2×2 from (3, 2)); Squire (2) at (2, 4); Red (3)
/// far east at `red`; on every seed that gives the Knight the first turn.
fn stable(red: (i32, i32)) -> impl Iterator<Item = Battle> {
    let text = level_text(
        "Stable",
        &FIELD,
        &[
            &creature("Knight", "human_fighter", "Blue", (2, 2), ""),
            &creature("Warhorse", "warhorse", "Blue", (3, 2), ""),
            &creature("Squire", "human_fighter", "Blue", (2, 4), ""),
            &creature("Red", "human_fighter", "Red", red, ", facing: W"),
        ],
    )
    .replace("facing: E, facing: W", "facing: W");
    let level = parse_level("stable.level.ron", &text, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
    (0..)
        .map_while(move |s| Battle::new(&level, builtin_compendium(), s).ok())
        .filter(|b| b.awaiting() == Some((0, None)))
}

/// Play on, ending every turn and passing every window, until `who` is awaited.
fn until_turn_of(b: &mut Battle, who: CreatureId) {
    for _ in 0..100 {
        match b.awaiting() {
            Some((c, None)) if c == who => return,
            Some((c, Some(_))) => b.submit(c, Command::Pass).unwrap(),
            Some((c, None)) => b.submit(c, Command::EndTurn).unwrap(),
            None => panic!("the battle ended"),
        }
    }
    panic!("no turn for {who}");
}

// RULES: MOVE-14, MOVE-E8 — mounting is a change to Sit/Ride next to the mount (1 AP); the
// rider sits on the mount's south-west square and cannot move by itself; on the mount's own
// turn its move carries the rider; dismounting onto a free square next to it costs 1 AP and
// leaves the rider Standing there.
#[test]
fn move_14_mount_ride_and_dismount() {
    let mut b = stable((12, 5)).next().unwrap();
    let mark = b.log().len();
    b.submit(0, Command::Mount { mount: 1 }).unwrap();
    let k = b.fighter(0);
    assert_eq!((k.ap, k.posture, k.origin), (2, Posture::Sit, Pos::new(3, 2)));
    assert_eq!((b.mount_of(0), b.rider_of(1)), (Some(1), Some(0)));
    assert!(since(&b, mark).contains(&&Event::Mounted { creature: 0, mount: 1 }));
    let step = Command::Move { path: vec![Pos::new(3, 2), Pos::new(3, 1)], sprint: false, face: None };
    assert_eq!(b.check(0, &step).unwrap_err().rule, "MOVE-14", "no move of its own");
    assert_eq!(b.check(0, &Command::ChangePosture { posture: Posture::Standing }).unwrap_err().rule, "MOVE-14");
    assert!(b.reachable(0, false).map_or(true, |f| f.destinations().all(|d| d == Pos::new(3, 2))));
    until_turn_of(&mut b, 1);
    let gallop =
        Command::Move { path: vec![Pos::new(3, 2), Pos::new(4, 2), Pos::new(5, 2)], sprint: false, face: None };
    b.submit(1, gallop).unwrap();
    assert_eq!(b.fighter(1).origin, Pos::new(5, 2));
    assert_eq!(b.fighter(0).origin, Pos::new(5, 2), "the rider moves with its mount");
    assert_eq!(b.fighter(0).ap, 2, "and spends none of its own AP");
    until_turn_of(&mut b, 0);
    assert!(b.dismount_squares(0).contains(&Pos::new(7, 3)));
    let mark = b.log().len();
    b.submit(0, Command::Dismount { to: Pos::new(7, 3) }).unwrap();
    let k = b.fighter(0);
    assert_eq!((k.ap, k.posture, k.origin), (2, Posture::Standing, Pos::new(7, 3)));
    assert_eq!((b.mount_of(0), b.rider_of(1)), (None, None));
    assert!(since(&b, mark).contains(&&Event::Dismounted {
        creature: 0,
        mount: Some(1),
        at: Pos::new(7, 3),
        forced: false
    }));
}

// RULES: MOVE-E8, MOVE-14 — each refusal names its rule and changes nothing.
#[test]
fn move_e8_mount_and_dismount_refusals_name_the_rule() {
    let b = stable((12, 5)).next().unwrap();
    assert_eq!(b.check(0, &Command::Mount { mount: 2 }).unwrap_err().rule, "MOVE-E8", "a squire is no mount");
    assert_eq!(b.check(0, &Command::Mount { mount: 9 }).unwrap_err().rule, "CRE-1");
    assert_eq!(b.check(0, &Command::Dismount { to: Pos::new(2, 1) }).unwrap_err().rule, "MOVE-E8", "rides nothing");
    let mut far = b.clone();
    far.adjust_for_scenario(0, |f| f.origin = Pos::new(1, 5));
    assert_eq!(far.check(0, &Command::Mount { mount: 1 }).unwrap_err().rule, "MOVE-E8", "not next to it");
    let mut tired = b.clone();
    tired.adjust_for_scenario(0, |f| f.ap = 0);
    assert_eq!(tired.check(0, &Command::Mount { mount: 1 }).unwrap_err().rule, "TIME-8");
    let mut down = b.clone();
    down.adjust_for_scenario(1, |f| {
        let _ = f.attrs.remove_dice(Attribute::Might, 99);
    });
    assert_eq!(down.check(0, &Command::Mount { mount: 1 }).unwrap_err().rule, "MOVE-E8", "a fallen mount");

    let mut riding = b.clone();
    riding.submit(0, Command::Mount { mount: 1 }).unwrap();
    let before = riding.log().len();
    for (command, rule) in [
        (Command::Dismount { to: Pos::new(9, 2) }, "MOVE-E8"), // not next to the mount
        (Command::Dismount { to: Pos::new(4, 3) }, "MOVE-E8"), // the mount's own square
        (Command::Dismount { to: Pos::new(i32::MAX, 0) }, "SPACE-1"),
        (Command::Mount { mount: 1 }, "MOVE-14"),
        (Command::Lift { creature: 2 }, "MOVE-14"),
    ] {
        let mut refused = riding.clone();
        assert_eq!(refused.submit(0, command.clone()).unwrap_err().rule, rule, "{command:?}");
        assert_eq!(refused.log().len(), before + 1, "only the rejection: {command:?}");
        assert_eq!(refused.mount_of(0), Some(1));
    }
    let mut walled = riding.clone();
    walled.adjust_for_scenario(1, |f| f.origin = Pos::new(1, 1));
    walled.adjust_for_scenario(0, |f| f.origin = Pos::new(1, 1));
    assert_eq!(walled.check(0, &Command::Dismount { to: Pos::new(0, 1) }).unwrap_err().rule, "SPACE-1", "a wall");
    let mut crowded = riding.clone();
    crowded.adjust_for_scenario(3, |f| f.origin = Pos::new(5, 2));
    assert_eq!(crowded.check(0, &Command::Dismount { to: Pos::new(5, 2) }).unwrap_err().rule, "SPACE-E5");
    // One rider to a mount.
    let mut second = riding.clone();
    second.adjust_for_scenario(2, |f| f.origin = Pos::new(5, 3));
    until_turn_of(&mut second, 2);
    assert_eq!(second.check(2, &Command::Mount { mount: 1 }).unwrap_err().rule, "MOVE-E8");
}

/// Red strikes `target` with its sword whenever it can; everyone else ends its turn or takes
/// the blow; until `done` or 300 commands.
fn red_strikes(b: &mut Battle, target: CreatureId, done: impl Fn(&Battle) -> bool) {
    for _ in 0..300 {
        if done(b) || matches!(b.phase(), Phase::Over(_)) {
            return;
        }
        let Some((id, window)) = b.awaiting() else { return };
        let command = if window.is_some() {
            Command::Pass
        } else if id == 3 {
            let strike =
                Command::Attack { weapon: "sword".into(), target: Target::Creature(target), additives: vec![] };
            if b.check(3, &strike).is_ok() { strike } else { Command::EndTurn }
        } else {
            Command::EndTurn
        };
        b.submit(id, command).unwrap();
    }
}

// RULES: MOVE-E8 — an attacker may strike the rider or the mount; a rider knocked out falls
// off onto a free square next to the mount (Lying); a mount knocked out throws its rider.
#[test]
fn move_e8_either_is_struck_and_a_fall_unseats_the_rider() {
    let mut b = stable((5, 1)).next().unwrap();
    b.submit(0, Command::Mount { mount: 1 }).unwrap();
    until_turn_of(&mut b, 3);
    // Red at (5, 1) is next to the horse (3..4, 2..3) but two squares from the rider's (3, 2).
    let at_horse = Command::Attack { weapon: "sword".into(), target: Target::Creature(1), additives: vec![] };
    assert!(b.check(3, &at_horse).is_ok());
    let mut near = b.clone();
    near.adjust_for_scenario(3, |f| f.origin = Pos::new(3, 1));
    let at_rider = Command::Attack { weapon: "sword".into(), target: Target::Creature(0), additives: vec![] };
    assert!(near.check(3, &at_rider).is_ok(), "the rider is a target too");

    // The rider falls.
    near.adjust_for_scenario(0, |f| {
        let _ = f.attrs.remove_dice(Attribute::Might, 3);
        let _ = f.attrs.remove_dice(Attribute::Activeness, 2);
        let _ = f.attrs.remove_dice(Attribute::Spirit, 2);
        f.ap = 0;
    });
    let mark = near.log().len();
    red_strikes(&mut near, 0, |b| b.fighter(0).attrs.is_unconscious());
    let k = near.fighter(0);
    assert!(k.attrs.is_unconscious());
    assert_eq!((near.mount_of(0), near.rider_of(1), k.posture), (None, None, Posture::Lying));
    assert_eq!(footprint_distance(near.fighter(1).footprint(), Footprint::single(k.origin)), 1, "beside the horse");
    assert!(since(&near, mark).iter().any(|e| matches!(e, Event::Dismounted { creature: 0, forced: true, .. })));

    // The mount falls: the rider is thrown, Standing, beside it.
    let mut b = b.clone();
    b.adjust_for_scenario(1, |f| {
        let _ = f.attrs.remove_dice(Attribute::Might, 5);
        let _ = f.attrs.remove_dice(Attribute::Activeness, 2);
        let _ = f.attrs.remove_dice(Attribute::Spirit, 1);
        f.ap = 0;
    });
    red_strikes(&mut b, 1, |b| b.fighter(1).attrs.is_unconscious());
    assert!(b.fighter(1).attrs.is_unconscious());
    let k = b.fighter(0);
    assert_eq!((b.mount_of(0), k.posture), (None, Posture::Standing));
    assert_eq!(footprint_distance(b.fighter(1).footprint(), Footprint::single(k.origin)), 1);
}

fn level_with_rider(extra: &str, mount: (i32, i32), rider: (i32, i32), template: &str) -> String {
    level_text(
        "Saddle",
        &FIELD,
        &[
            &creature("Horse", template, "Blue", mount, ""),
            &creature("Knight", "human_fighter", "Blue", rider, &format!(", rides: Some(\"Horse\"){extra}")),
            &creature("Red", "human_fighter", "Red", (11, 4), ""),
        ],
    )
}

// RULES: MOVE-E8 — a level may start a rider in the saddle; a wrong pairing is refused naming
// the field, line and column.
#[test]
fn move_e8_a_level_starts_a_rider_in_the_saddle() {
    let good = level_with_rider("", (3, 2), (3, 2), "warhorse");
    let level = parse_level("saddle.level.ron", &good, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
    let b = Battle::new(&level, builtin_compendium(), 1).unwrap();
    assert_eq!((b.mount_of(1), b.rider_of(0), b.fighter(1).posture), (Some(0), Some(1), Posture::Sit));
    for (text, says) in [
        (level_with_rider("", (3, 2), (4, 2), "warhorse"), "south-west square"),
        (level_with_rider("", (3, 2), (3, 2), "brute"), "not a mount"),
        (level_with_rider("", (3, 2), (3, 2), "grey_wolf"), "not a mount"),
        (level_with_rider(", arrives: Some(2)", (3, 2), (3, 2), "warhorse"), "start together"),
        (good.replace("rides: Some(\"Horse\")", "rides: Some(\"Nobody\")"), "no creature is named"),
        (good.replace("rides: Some(\"Horse\")", "rides: Some(\"Knight\")"), "cannot ride itself"),
    ] {
        let err = parse_level("saddle.level.ron", &text, builtin_compendium()).unwrap_err().to_string();
        assert!(err.contains(says) && err.contains("saddle.level.ron:"), "{says}: {err}");
    }
}

// RULES: MOVE-E8 — the AI mounts a faster mount of its side next to it when the nearest foe
// is more than a turn's walk away, and not when the foe is near (it would rather walk and
// strike).
#[test]
fn move_e8_the_ai_mounts_for_a_long_ride() {
    let far = stable((12, 5)).next().unwrap();
    assert!(far.distance_between(0, 3) > 9);
    assert_eq!(ai::decide(&far, 0, None), Command::Mount { mount: 1 });
    let near = stable((6, 5)).next().unwrap();
    assert!(!matches!(ai::decide(&near, 0, None), Command::Mount { .. }));
}

// RULES: MOVE-14 — the AI plays a rider from the saddle: it never plans a move, posture change
// or dismount the engine would refuse (0 fallbacks), and every battle ends.
#[test]
fn move_14_the_ai_rides_without_refused_commands() {
    let text = level_with_rider("", (3, 2), (3, 2), "warhorse");
    let level = parse_level("saddle.level.ron", &text, builtin_compendium()).unwrap();
    for seed in 0..20 {
        let mut b = Battle::new(&level, builtin_compendium(), seed).unwrap();
        let count = ai::play_direct(&mut b, None, 5_000);
        assert_eq!((count.fallbacks, count.rejected), (0, 0), "seed {seed}");
        assert!(b.outcome().is_some(), "seed {seed}: the battle ends");
    }
}

/// The rider in the saddle of Bay (3, 2)–(4, 3) and a hammer guard of Red at `guard`, on every
/// seed that gives the guard the first turn.
fn hammer_at_the_rider(guard: (i32, i32)) -> impl Iterator<Item = Battle> {
    let text = level_text(
        "Hammer",
        &FIELD,
        &[
            &creature("Bay", "warhorse", "Blue", (3, 2), ""),
            &creature("Knight", "human_fighter", "Blue", (3, 2), ", rides: Some(\"Bay\")"),
            &creature("Guard", "hammer_guard", "Red", guard, ""),
        ],
    );
    let level = parse_level("hammer.level.ron", &text, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
    (0..)
        .map_while(move |s| Battle::new(&level, builtin_compendium(), s).ok())
        .filter(|b| b.awaiting() == Some((2, None)))
}

/// Strike the rider once with the warhammer, passing every window: (knocked back, hurt).
fn hammer_blow(b: &mut Battle) -> (bool, bool) {
    let mark = b.log().len();
    b.submit(2, Command::Attack { weapon: "warhammer".into(), target: Target::Creature(1), additives: vec![] })
        .unwrap();
    while let Some((c, Some(_))) = b.awaiting() {
        b.submit(c, Command::Pass).unwrap();
    }
    let log = since(b, mark);
    (
        log.iter().any(|e| matches!(e, Event::ForcedMoved { creature: 1, .. })),
        log.iter().any(|e| matches!(e, Event::Damaged { creature: 1, .. })),
    )
}

// RULES: MOVE-E8, MOVE-11 — a rider knocked back falls off onto the square the push takes it
// to, off its mount; a push straight into the mount's own body leaves it in the saddle.
#[test]
fn move_e8_a_rider_knocked_back_falls_off_unless_its_mount_is_in_the_way() {
    let (mut off, mut kept) = (0, 0);
    for mut b in hammer_at_the_rider((4, 1)).take(30) {
        if hammer_blow(&mut b).0 && !b.fighter(1).attrs.is_unconscious() {
            off += 1;
            assert_eq!(b.mount_of(1), None);
            assert!(footprint_distance(b.fighter(0).footprint(), b.fighter(1).footprint()) > 0, "off the horse");
        }
    }
    for mut b in hammer_at_the_rider((3, 1)).take(30) {
        let (pushed, hurt) = hammer_blow(&mut b);
        if hurt && !b.fighter(1).attrs.is_unconscious() {
            assert!(!pushed);
            kept += 1;
            assert_eq!((b.mount_of(1), b.fighter(1).origin), (Some(0), Pos::new(3, 2)), "the horse is in the way");
        }
    }
    assert!(off > 0 && kept > 0, "some blows landed: {off} / {kept}");
}

// RULES: MOVE-14 — a rider makes no move of its own, whatever the ruleset: with postures
// switched off, the battle's query of where a creature can reach showed riders squares, and
// the AI planned moves the check refused (2 fallbacks in The Riders' first battle).
#[test]
fn riders_are_shown_no_squares_of_their_own_with_postures_off() {
    let text = include_str!("../levels/the_riders.level.ron");
    let text = format!(
        "{},\n    ruleset: (postures: false),\n)",
        text.trim_end().trim_end_matches(')').trim_end().trim_end_matches(',')
    );
    let level = parse_level("riders.level.ron", &text, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
    let mut fallbacks = 0;
    for seed in 1..=6 {
        let mut b = Battle::new(&level, builtin_compendium(), seed).unwrap();
        let rider = (0..b.creatures().len() as u32).find(|&c| b.mount_of(c).is_some()).expect("a rider");
        assert!(b.reachable(rider, false).is_err_and(|e| e.rule == "MOVE-14"));
        let count = ai::play_direct(&mut b, None, 100_000);
        assert_eq!(count.rejected, 0);
        fallbacks += count.fallbacks;
    }
    assert_eq!(fallbacks, 0);
}
