//! Clicks and keys turned into commands, checked against the engine.

use super::*;
use crate::battle::{Battle, Target};
use crate::level::{builtin_compendium, parse_level};

fn battle() -> Battle {
    let text = r#"(name: "Clicks", map: ["WWWWWWWW", "W......W", "W......W", "W..W...W", "WWWWWWWW"],
        legend: { '.': "floor", 'W': "wall" },
        terrains: { "floor": (), "wall": (blocks_movement: true, blocks_sight: true) },
        sides: [(name: "You", human: true), (name: "Foe")],
        creatures: [
            (name: "Mage", template: "caster", side: "You", at: (1, 2), facing: E, overrides: (activeness: Some(10))),
            (name: "Brute", template: "human_fighter", side: "Foe", at: (2, 2), facing: W, overrides: (activeness: Some(1))),
            (name: "Far", template: "human_fighter", side: "Foe", at: (6, 1), facing: W, overrides: (activeness: Some(1))),
        ])"#;
    let level = parse_level("clicks.level.ron", text, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
    let b = Battle::new(&level, builtin_compendium(), 1).unwrap();
    assert_eq!(b.awaiting(), Some((0, None)), "the mage acts first");
    b
}

// RULES: ATK-E7 — a click on a perceived enemy with no weapon chosen attacks it with the first
// weapon the engine accepts.
#[test]
fn clicking_an_enemy_attacks_it() {
    let b = battle();
    let c = click_command(&b, 0, Pos::new(2, 2), &Choice::default()).unwrap();
    assert!(matches!(&c, Command::Attack { target: Target::Creature(1), .. }), "{c:?}");
    assert_eq!(b.check(0, &c), Ok(()));
}

// RULES: MOVE-1 — a click on a free square moves there along a path the engine accepts; a wall
// or the creature's own square is no move.
#[test]
fn clicking_a_square_moves_there() {
    let b = battle();
    let c = click_command(&b, 0, Pos::new(1, 1), &Choice::default()).unwrap();
    let Command::Move { path, sprint: false, .. } = &c else { panic!("{c:?}") };
    assert_eq!(path.last(), Some(&Pos::new(1, 1)));
    assert_eq!(b.check(0, &c), Ok(()));
    assert_eq!(click_command(&b, 0, Pos::new(3, 1), &Choice::default()), None, "a wall");
    assert_eq!(click_command(&b, 0, Pos::new(1, 2), &Choice::default()), None, "its own square");
    let sprint = Choice { sprint: true, ..Choice::default() };
    let far = Pos::new(5, 3);
    let (first, then) = click_plan(&b, 0, far, &Choice::default()).expect("two walks reach it");
    assert!(matches!(first, Command::Move { sprint: false, .. }) && then.len() == 1, "{first:?} {then:?}");
    let c = click_command(&b, 0, far, &sprint).expect("within a sprint's reach");
    assert!(matches!(c, Command::Move { sprint: true, .. }));
    assert_eq!(b.check(0, &c), Ok(()));
}

// RULES: AREA-E1, AREA-E3 — a circle is centred on the clicked square; a ray is aimed toward it.
#[test]
fn area_weapons_aim_at_the_clicked_square() {
    let b = battle();
    let fireball = Choice { weapon: Some("fireball".into()), ..Choice::default() };
    let c = click_command(&b, 0, Pos::new(6, 1), &fireball).unwrap();
    assert!(matches!(c, Command::Attack { target: Target::Square(p), .. } if p == Pos::new(6, 1)), "{c:?}");
    assert!(b.area_squares(0, &c).unwrap().contains(&Pos::new(5, 2)), "radius 1 around the square");
    let lightning = Choice { weapon: Some("lightning".into()), ..Choice::default() };
    let c = click_command(&b, 0, Pos::new(6, 2), &lightning).unwrap();
    assert!(matches!(c, Command::Attack { target: Target::Toward(Facing::E), .. }), "{c:?}");
    assert_eq!(b.area_targets(0, &c), Some(vec![1]), "the ray hits the brute in its way");
}

// RULES: POST-3, GEN-2, MOVE-1 — what the screen offers is what the engine accepts: with
// postures switched off a creature written Prone moves as Standing, and every square shown
// as reachable (walk and sprint) is a move the engine takes; none beyond.
#[test]
fn offered_moves_are_accepted_with_postures_off() {
    let text = r#"(name: "Off", map: ["WWWWWWWWWW", "W........W", "W........W", "WWWWWWWWWW"],
        legend: { '.': "floor", 'W': "wall" },
        terrains: { "floor": (), "wall": (blocks_movement: true, blocks_sight: true) },
        sides: [(name: "You", human: true), (name: "Foe")],
        creatures: [
            (name: "Crawler", template: "human_fighter", side: "You", at: (1, 1), posture: Prone, overrides: (activeness: Some(10))),
            (name: "Foe", template: "human_fighter", side: "Foe", at: (8, 2), overrides: (activeness: Some(1))),
        ],
        ruleset: (postures: false))"#;
    let setup = |text: &str| {
        let level = parse_level("off.level.ron", text, builtin_compendium()).unwrap();
        Battle::new(&level, builtin_compendium(), 1).unwrap()
    };
    let b = setup(text);
    let standing = setup(&text.replace("posture: Prone, ", ""));
    for sprint in [false, true] {
        let reach = |b: &Battle| -> Vec<Pos> {
            b.reachable(0, sprint).unwrap().destinations().filter(|&p| p != Pos::new(1, 1)).collect()
        };
        let offered = reach(&b);
        assert_eq!(offered, reach(&standing), "a standing walker's reach, not a prone crawl");
        for y in 0..4 {
            for x in 0..10 {
                let at = Pos::new(x, y);
                let click = click_plan(&b, 0, at, &Choice { sprint, ..Choice::default() });
                match click {
                    Some((c @ Command::Move { .. }, then)) => {
                        // A click on the foe walks up to it: the move ends on an offered square.
                        // One a single move does not reach is the first of several (the
                        // overlay's paler rings), the last ending there.
                        let Command::Move { path, .. } = &c else { unreachable!() };
                        let end = *path.last().unwrap();
                        let last = then.iter().rev().find_map(|t| match t {
                            Command::Move { path, .. } => path.last().copied(),
                            _ => None,
                        });
                        assert!(!sprint || then.is_empty() || at == Pos::new(8, 2), "{at}: a sprint is one move");
                        let arrives = last.unwrap_or(end);
                        assert!(arrives == at || at == Pos::new(8, 2), "{at}: a move elsewhere");
                        assert!(offered.contains(&end), "{end} is clicked but not shown");
                        assert_eq!(b.check(0, &c), Ok(()), "{at}: the engine refuses what is offered");
                    }
                    _ => assert!(!offered.contains(&at), "{at} is shown but no move"),
                }
            }
        }
    }
}

// RULES: ATK-1, MOVE-1 — a click on an enemy no weapon reaches walks into reach by the cheapest
// move the engine accepts (previewed as the click's command), then strikes: the move ends where
// the follow-up attack is accepted.
#[test]
fn clicking_a_distant_enemy_walks_into_reach_and_strikes() {
    let text = r#"(name: "Walk up", map: ["WWWWWWWWW", "W.......W", "W.......W", "WWWWWWWWW"],
        legend: { '.': "floor", 'W': "wall" },
        terrains: { "floor": (), "wall": (blocks_movement: true, blocks_sight: true) },
        sides: [(name: "You", human: true), (name: "Foe")],
        creatures: [
            (name: "Knight", template: "human_fighter", side: "You", at: (1, 1), facing: E, overrides: (activeness: Some(10))),
            (name: "Foe", template: "human_fighter", side: "Foe", at: (5, 1), facing: W, overrides: (activeness: Some(1))),
        ])"#;
    let level = parse_level("walk.level.ron", text, builtin_compendium()).unwrap();
    let mut b = Battle::new(&level, builtin_compendium(), 1).unwrap();
    let foe = Pos::new(5, 1);
    let attack = Command::Attack { weapon: "sword".into(), target: Target::Creature(1), additives: vec![] };
    assert!(b.check(0, &attack).is_err(), "out of reach from where it stands");
    let (walk, then) = click_plan(&b, 0, foe, &Choice::default()).unwrap();
    let Command::Move { path, .. } = &walk else { panic!("a move first: {walk:?}") };
    assert_eq!(path.last(), Some(&Pos::new(4, 1)), "the nearest square in reach");
    assert_eq!(then, vec![attack.clone()], "then the sword");
    b.submit(0, walk).unwrap();
    assert_eq!(b.check(0, &attack), Ok(()), "from there the strike is accepted");
    // Adjacent already: a plain attack, nothing to walk.
    assert!(
        matches!(click_plan(&b, 0, foe, &Choice::default()), Some((Command::Attack { .. }, then)) if then.is_empty())
    );
}

// RULES: MOVE-1, TIME-8 — an enemy two moves away is walked to in two moves (1 AP each), each
// accepted by the engine in turn, and struck with the AP left; three moves away (no AP left to
// strike) the click is refused with the reach.
#[test]
fn an_enemy_two_moves_away_is_walked_to_in_two_moves_and_struck() {
    let text = r#"(name: "Long walk", map: ["WWWWWWWWWWWWWWW", "W.............W", "WWWWWWWWWWWWWWW"],
        legend: { '.': "floor", 'W': "wall" },
        terrains: { "floor": (), "wall": (blocks_movement: true, blocks_sight: true) },
        sides: [(name: "You", human: true), (name: "Foe")],
        creatures: [
            (name: "Knight", template: "human_fighter", side: "You", at: (1, 1), facing: E, overrides: (activeness: Some(10))),
            (name: "Foe", template: "human_fighter", side: "Foe", at: (8, 1), facing: W, overrides: (activeness: Some(1))),
            (name: "Far", template: "human_fighter", side: "Foe", at: (13, 1), facing: W, overrides: (activeness: Some(1))),
        ])"#;
    let level = parse_level("long.level.ron", text, builtin_compendium()).unwrap();
    let mut b = Battle::new(&level, builtin_compendium(), 1).unwrap();
    assert_eq!(b.awaiting(), Some((0, None)));
    let (first, then) = click_plan(&b, 0, Pos::new(8, 1), &Choice::default()).unwrap();
    assert!(matches!(&first, Command::Move { .. }), "{first:?}");
    let [second @ Command::Move { path, .. }, strike @ Command::Attack { .. }] = &then[..] else {
        panic!("a second move, then the strike: {then:?}")
    };
    assert_eq!(path.last(), Some(&Pos::new(7, 1)), "ends next to the foe");
    b.submit(0, first).unwrap();
    b.submit(0, second.clone()).unwrap();
    assert_eq!(b.check(0, strike), Ok(()), "the strike is accepted with the AP left");
    assert_eq!(b.fighter(0).ap, 1);
    // The far one: 6 more steps with 1 AP left; no walk, the click is the refused attack.
    let (c, then) = click_plan(&b, 0, Pos::new(13, 1), &Choice::default()).unwrap();
    assert!(then.is_empty() && matches!(c, Command::Attack { .. }) && b.check(0, &c).is_err());
}

// RULES: AREA-E3 — a click on an enemy with no weapon ready: a gunner whose fist cannot reach
// fires its cone toward the enemy; out of every weapon's reach the refusal names the reach, not
// a script's syntax.
#[test]
fn clicking_an_enemy_aims_a_cone_at_it() {
    let text = r#"(name: "Cone", map: ["WWWWWWWWWWWW", "W..........W", "W..........W", "WWWWWWWWWWWW"],
        legend: { '.': "floor", 'W': "wall" },
        terrains: { "floor": (), "wall": (blocks_movement: true, blocks_sight: true) },
        sides: [(name: "You", human: true), (name: "Foe")],
        creatures: [
            (name: "Gunner", template: "gunner", side: "You", at: (1, 1), facing: E, overrides: (activeness: Some(10))),
            (name: "Near", template: "human_fighter", side: "Foe", at: (3, 1), facing: W, overrides: (activeness: Some(1))),
            (name: "Far", template: "human_fighter", side: "Foe", at: (10, 2), facing: W, overrides: (activeness: Some(1))),
        ])"#;
    let level = parse_level("cone.level.ron", text, builtin_compendium()).unwrap();
    let b = Battle::new(&level, builtin_compendium(), 1).unwrap();
    let c = click_command(&b, 0, Pos::new(3, 1), &Choice::default()).unwrap();
    assert!(matches!(&c, Command::Attack { target: Target::Toward(Facing::E), .. }), "{c:?}");
    assert_eq!(b.check(0, &c), Ok(()));
    let far = click_command(&b, 0, Pos::new(10, 2), &Choice::default()).unwrap();
    let why = b.check(0, &far).unwrap_err().to_string();
    assert!(!why.contains("Toward("), "{why}");
}

// RULES: ATK-E3, TIME-12 — auto-defend answers a defense window with the allowed defense that
// prevents the most on average (the engine's own numbers), and nothing outside one.
#[test]
fn auto_defend_picks_the_defense_that_prevents_most() {
    let text = r#"(name: "Stair", map: ["WWWWWW", "W....W", "WWWWWW"],
        legend: { '.': "floor", 'W': "wall" },
        terrains: { "floor": (), "wall": (blocks_movement: true, blocks_sight: true) },
        sides: [(name: "You", human: true), (name: "Foe")],
        creatures: [
            (name: "Guard", template: "human_fighter", side: "You", at: (1, 1), facing: E, overrides: (activeness: Some(1))),
            (name: "Foe", template: "human_fighter", side: "Foe", at: (2, 1), facing: W, overrides: (activeness: Some(9))),
        ])"#;
    let level = parse_level("stair.level.ron", text, builtin_compendium()).unwrap();
    let mut checked = 0;
    for seed in 0..40 {
        let mut b = Battle::new(&level, builtin_compendium(), seed).unwrap();
        assert_eq!(b.awaiting(), Some((1, None)));
        assert_eq!(auto_defense(&b), None, "no window open");
        b.submit(1, Command::Attack { weapon: "sword".into(), target: Target::Creature(0), additives: vec![] })
            .unwrap();
        // The guard may first react before the attack; it lets it come.
        if b.awaiting() == Some((0, Some(crate::battle::WindowKind::BeforeAttack))) {
            assert_eq!(auto_defense(&b), None, "not a defense window");
            b.submit(0, Command::Pass).unwrap();
        }
        // A segment that misses opens no window.
        if b.awaiting() != Some((0, Some(crate::battle::WindowKind::Defense))) {
            continue;
        }
        let w = b.window_preview().unwrap();
        let chosen = auto_defense(&b).unwrap();
        let best =
            w.attack.defenses.iter().filter(|o| o.allowed.is_ok()).map(|o| w.expected_prevented(o)).fold(0.0, f64::max);
        match &chosen {
            Command::Defend { defense: Some(d) } => {
                let o = w.attack.defenses.iter().find(|o| o.defense == *d).unwrap();
                assert!(o.allowed.is_ok());
                assert_eq!(w.expected_prevented(o), best);
                assert!(best > 0.0);
            }
            Command::Defend { defense: None } => assert_eq!(best, 0.0),
            other => panic!("{other:?}"),
        }
        assert_eq!(b.check(0, &chosen), Ok(()));
        checked += 1;
    }
    assert!(checked >= 5, "defense windows met: {checked}");
}

// RULES: MOVE-1, TIME-8 — a free square one move does not reach is walked to in as many moves
// as the reach overlay counts (`moves_to_squares`), each accepted in turn; past what the AP pay
// for there is no walk, and a move there is refused with the rule.
#[test]
fn a_square_two_moves_away_is_walked_to_in_two_moves() {
    let text = r#"(name: "Corridor", map: ["WWWWWWWWWWWWWWWWWWWWWWWWW", "W.......................W", "WWWWWWWWWWWWWWWWWWWWWWWWW"],
        legend: { '.': "floor", 'W': "wall" },
        terrains: { "floor": (), "wall": (blocks_movement: true, blocks_sight: true) },
        sides: [(name: "You", human: true), (name: "Foe")],
        creatures: [
            (name: "Knight", template: "human_fighter", side: "You", at: (1, 1), facing: E, overrides: (activeness: Some(10))),
            (name: "Foe", template: "human_fighter", side: "Foe", at: (23, 1), facing: W, overrides: (activeness: Some(1))),
        ])"#;
    let level = parse_level("corridor.level.ron", text, builtin_compendium()).unwrap();
    let mut b = Battle::new(&level, builtin_compendium(), 1).unwrap();
    assert_eq!(b.awaiting(), Some((0, None)));
    let counted = b.moves_to_squares(0);
    let two = counted.iter().filter(|(_, k)| *k == 2).map(|(p, _)| *p).max_by_key(|p| p.x).expect("two moves reach on");
    let beyond = Pos::new(counted.iter().map(|(p, _)| p.x).max().unwrap() + 1, 1);
    assert!(b.check(0, &Command::Move { path: vec![two], sprint: false, face: None }).is_err(), "not in one move");
    let (first, then) = click_plan(&b, 0, two, &Choice::default()).expect("a walk of two moves");
    let [second @ Command::Move { path, .. }] = &then[..] else { panic!("one more move: {then:?}") };
    assert_eq!(path.last(), Some(&two));
    let ap = b.fighter(0).ap;
    b.submit(0, first).unwrap();
    b.submit(0, second.clone()).unwrap();
    assert_eq!((b.fighter(0).origin, b.fighter(0).ap), (two, ap - 2), "there, for 2 AP");
    // Past the last ring: no walk; a move there says why.
    let b = Battle::new(&level, builtin_compendium(), 1).unwrap();
    assert_eq!(click_plan(&b, 0, beyond, &Choice::default()), None);
    let refused = b.check(0, &Command::Move { path: vec![beyond], sprint: false, face: None }).unwrap_err();
    assert!(refused.rule.starts_with("MOVE"), "{refused}");
}
