//! Whole scripted battles on purpose-built levels, checked event by event.
//!
//! Initiative is forced by giving the creature that must act first 10 or more Activeness dice
//! (a sum of at least 10) and the other one die (at most 6). Where a roll must land, the roller
//! gets 30 dice (the chance of scoring 0 points is (2/3)^30 ≈ 5·10⁻⁶; the seeds are fixed, so
//! each test is deterministic regardless).

use meshal_tactics::battle::*;
use meshal_tactics::level::{builtin_compendium, parse_level};
use meshal_tactics::rules::attack::Defense;
use meshal_tactics::rules::facing::Facing;
use meshal_tactics::rules::grid::Pos;

const TERRAINS: &str = r#"
    legend: { '.': "floor", 'W': "wall", '%': "dark", 'T': "thicket" },
    terrains: {
        "floor": (),
        "wall": (blocks_movement: true, blocks_sight: true),
        "dark": (dark: true),
        "thicket": (difficult: true, concealing: true),
    },
    sides: [(name: "Blue"), (name: "Red")],
"#;

fn level(map: &[&str], creatures: &str, extra: &str) -> String {
    let rows: Vec<String> = map.iter().map(|r| format!("\"{r}\"")).collect();
    format!("(name: \"Test\", map: [{}], {TERRAINS} creatures: [{creatures}], {extra})", rows.join(", "))
}

fn battle(text: &str, seed: u64) -> Battle {
    let l = parse_level("test.level.ron", text, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
    Battle::new(&l, builtin_compendium(), seed).unwrap()
}

/// Variant names of the events from `from` on, leaving out perception bookkeeping.
fn kinds(b: &Battle, from: usize) -> Vec<String> {
    b.log()[from..]
        .iter()
        .map(|e| format!("{:?}", e.event))
        .map(|s| s.split([' ', '(', '{']).next().unwrap().to_string())
        .filter(|k| !matches!(k.as_str(), "Spotted" | "LostSight"))
        .collect()
}

fn events(b: &Battle, from: usize) -> Vec<&Event> {
    b.log()[from..].iter().map(|e| &e.event).collect()
}

/// Why the first undefendable segment since `from` could not be defended.
fn undefendable_reason(b: &Battle, from: usize) -> Option<String> {
    events(b, from).into_iter().find_map(|e| match e {
        Event::Undefendable { reason, .. } => Some(reason.clone()),
        _ => None,
    })
}

fn submit(b: &mut Battle, who: &str, c: Command) {
    let id = b.find(who).unwrap();
    if let Err(r) = b.submit(id, c.clone()) {
        panic!("{who}: {c:?} rejected: {r}");
    }
}

fn turn_of(b: &Battle) -> String {
    match b.awaiting() {
        Some((c, None)) => b.fighter(c).name.clone(),
        other => panic!("expected a turn, got {other:?}"),
    }
}

const CORRIDOR: [&str; 3] = ["WWWWWWWWWW", "W........W", "WWWWWWWWWW"];

// RULES: TIME-14, TIME-E6, TIME-9 — a "before" reaction (Quick Step out of reach) cancels the
// attack as if never made and refunds its AP.
#[test]
fn time_14_quick_step_cancels_attack_and_refunds_ap() {
    let text = level(
        &CORRIDOR,
        r#"(name: "A", template: "human_fighter", side: "Blue", at: (2, 1), facing: E, overrides: (activeness: Some(10))),
           (name: "B", template: "human_duelist", side: "Red", at: (3, 1), facing: W, overrides: (activeness: Some(1)))"#,
        "",
    );
    let mut b = battle(&text, 1);
    assert_eq!(turn_of(&b), "A");
    let mark = b.log().len();
    submit(&mut b, "A", Command::Attack { weapon: "sword".into(), target: Target::Creature(1), additives: vec![] });
    assert_eq!(b.awaiting(), Some((1, Some(WindowKind::BeforeAttack))));
    assert_eq!(b.fighter(0).ap, 2);
    submit(&mut b, "B", Command::QuickStep { to: Pos::new(4, 1), face: Some(Facing::W) });
    assert_eq!(
        kinds(&b, mark),
        [
            "CommandAccepted",
            "ApSpent",
            "AttackDeclared",
            "ReactionWindowOpened",
            "CommandAccepted",
            "QuickStepped",
            "Moved",
            "Faced",
            "AttackCancelled"
        ]
    );
    assert!(matches!(events(&b, mark).last(), Some(Event::AttackCancelled { refunded_ap: 1, .. })));
    assert_eq!(b.fighter(0).ap, 3, "the attack's AP is refunded");
    assert_eq!(b.fighter(1).ap, 2, "Quick Step cost its 1 AP");
    assert_eq!(b.fighter(1).origin, Pos::new(4, 1));
    assert_eq!(turn_of(&b), "A", "the attacker may choose a new action");
    // No dice were rolled: the attack never happened.
    assert!(!kinds(&b, mark).contains(&"Rolled".to_string()));
}

// RULES: TIME-15, ATK-E3 — one reaction per creature per chain: after Quick Step (still in
// reach), the target may not also defend.
#[test]
fn time_15_one_reaction_per_chain() {
    let text = level(
        &CORRIDOR,
        r#"(name: "A", template: "human_spearman", side: "Blue", at: (2, 1), facing: E,
              overrides: (activeness: Some(10), might: Some(30), weapons: Some(["spear"]))),
           (name: "B", template: "human_duelist", side: "Red", at: (3, 1), facing: W, overrides: (activeness: Some(1)))"#,
        "",
    );
    let mut b = battle(&text, 2);
    let mark = b.log().len();
    submit(&mut b, "A", Command::Attack { weapon: "spear".into(), target: Target::Creature(1), additives: vec![] });
    submit(&mut b, "B", Command::QuickStep { to: Pos::new(4, 1), face: None });
    let k = kinds(&b, mark);
    assert!(!k.contains(&"AttackCancelled".to_string()), "the spear still reaches 2 steps: {k:?}");
    assert_eq!(k.iter().filter(|x| *x == "ReactionWindowOpened").count(), 1, "no defense window: {k:?}");
    let reason = undefendable_reason(&b, mark);
    assert!(reason.unwrap().contains("TIME-15"));
    assert!(b.fighter(1).attrs.is_unconscious(), "30 dice through no defense");
}

// RULES: FACE-4, ATK-11, ATK-E7 — attacks from the rear cannot be defended; from the front they
// open a defense window, and a defense costs 1 AP and subtracts its points.
#[test]
fn face_4_rear_attack_is_undefendable_front_attack_is_not() {
    let rear = level(
        &CORRIDOR,
        r#"(name: "A", template: "human_fighter", side: "Blue", at: (2, 1), facing: E, overrides: (activeness: Some(10), might: Some(30))),
           (name: "B", template: "human_fighter", side: "Red", at: (3, 1), facing: E, overrides: (activeness: Some(1)))"#,
        "",
    );
    let mut b = battle(&rear, 3);
    let mark = b.log().len();
    submit(&mut b, "A", Command::Attack { weapon: "sword".into(), target: Target::Creature(1), additives: vec![] });
    let k = kinds(&b, mark);
    assert_eq!(&k[..4], ["CommandAccepted", "ApSpent", "AttackDeclared", "Rolled"]);
    assert_eq!(k[4], "Undefendable");
    assert!(matches!(events(&b, mark)[4], Event::Undefendable { reason, .. } if reason.contains("rear")));
    assert!(!k.contains(&"ReactionWindowOpened".to_string()));

    let front = rear.replace("at: (3, 1), facing: E", "at: (3, 1), facing: W");
    let mut b = battle(&front, 3);
    let mark = b.log().len();
    submit(&mut b, "A", Command::Attack { weapon: "sword".into(), target: Target::Creature(1), additives: vec![] });
    // B (a fighter with Riposte) is first asked at declaration; it declines.
    assert_eq!(b.awaiting(), Some((1, Some(WindowKind::BeforeAttack))));
    submit(&mut b, "B", Command::Pass);
    assert_eq!(b.awaiting(), Some((1, Some(WindowKind::Defense))));
    let w = b.window_preview().unwrap();
    let (pts, after) = (w.points.unwrap(), w.damage_if_taken.unwrap());
    assert_eq!(after, pts - 1, "leather: protection 1");
    submit(&mut b, "B", Command::Defend { defense: Some(Defense::Block) });
    assert_eq!(b.fighter(1).ap, 2, "TIME-E4: full AP before its first turn, 1 spent on the defense");
    let seg = events(&b, mark)
        .into_iter()
        .find_map(|e| match e {
            Event::SegmentResolved { attack_points, protection, defense_points, damage, defense, .. } => {
                Some((*attack_points, *protection, *defense_points, *damage, *defense))
            }
            _ => None,
        })
        .unwrap();
    assert_eq!(seg.0, pts);
    assert_eq!(seg.4, Some(Defense::Block));
    assert_eq!(seg.3, (seg.0 - seg.1 - seg.2.unwrap()).max(0), "damage = roll − protection − defense");
}

// RULES: ATK-11, PERC-E2, PERC-E3 — a target cannot defend against an attacker it has not
// spotted (here: the archer stands in the dark).
#[test]
fn atk_11_unseen_attacker_is_undefendable() {
    let text = level(
        &["WWWWWWWWWW", "W%%%.....W", "WWWWWWWWWW"],
        r#"(name: "Archer", template: "archer", side: "Blue", at: (1, 1), facing: E, overrides: (activeness: Some(30))),
           (name: "B", template: "human_fighter", side: "Red", at: (7, 1), facing: W, overrides: (activeness: Some(1)))"#,
        "",
    );
    let mut b = battle(&text, 4);
    assert!(b.perceives(0, 1), "the archer sees B in the light");
    assert!(!b.perceives(1, 0), "B cannot see into the dark");
    let mark = b.log().len();
    submit(&mut b, "Archer", Command::Attack { weapon: "bow".into(), target: Target::Creature(1), additives: vec![] });
    let reason = undefendable_reason(&b, mark);
    assert!(reason.unwrap().contains("unseen"));
    assert!(!kinds(&b, mark).contains(&"ReactionWindowOpened".to_string()));
}

// RULES: TIME-11, TIME-E5 — a 4-AP aimed shot with 3 AP becomes long-term: all AP now, the rest
// at the next turn start, then it resolves; meanwhile the archer cannot defend.
#[test]
fn time_11_long_term_aimed_shot() {
    let text = level(
        &["WWWWWWWWWWWW", "W..........W", "WWWWWWWWWWWW"],
        r#"(name: "Archer", template: "archer", side: "Blue", at: (1, 1), facing: E, overrides: (activeness: Some(10), might: Some(25))),
           (name: "B", template: "human_fighter", side: "Red", at: (8, 1), facing: W,
              overrides: (activeness: Some(1), might: Some(10), weapons: Some(["javelin"])))"#,
        "",
    );
    let mut b = battle(&text, 5);
    let mark = b.log().len();
    submit(
        &mut b,
        "Archer",
        Command::Attack { weapon: "aimed_shot".into(), target: Target::Creature(1), additives: vec![] },
    );
    assert_eq!(
        kinds(&b, mark),
        ["CommandAccepted", "LongTermStarted", "TurnEnded", "TurnStarted"],
        "the archer's turn ends at once"
    );
    assert!(matches!(events(&b, mark)[1], Event::LongTermStarted { remaining: 1, .. }));
    assert_eq!(turn_of(&b), "B");
    // B throws: the archer, busy aiming, cannot defend.
    let mark = b.log().len();
    submit(&mut b, "B", Command::Attack { weapon: "javelin".into(), target: Target::Creature(0), additives: vec![] });
    let reason = undefendable_reason(&b, mark);
    assert!(reason.unwrap().contains("long-term"));
    submit(&mut b, "B", Command::EndTurn);
    // Round 2: the archer pays the last AP at its turn start and the shot resolves.
    assert!(!b.fighter(0).attrs.is_unconscious());
    let k = kinds(&b, mark);
    let at = k.iter().position(|x| x == "RoundStarted").unwrap();
    assert_eq!(&k[at + 1..at + 4], ["TurnStarted", "LongTermProgress", "AttackDeclared"]);
    assert!(b.log().iter().any(|e| matches!(e.event, Event::LongTermProgress { paid: 1, remaining: 0, .. })));
    assert!(b.log().iter().any(|e| matches!(e.event, Event::AttackDeclared { dice: 13, .. })), "Activeness 10 + 3");
    // After the shot (B answers its defense window, if any) the archer has 2 AP this turn.
    if b.awaiting() == Some((1, Some(WindowKind::Defense))) {
        submit(&mut b, "B", Command::Defend { defense: None });
    }
    if b.outcome().is_none() {
        assert_eq!(turn_of(&b), "Archer");
        assert_eq!(b.fighter(0).ap, 2);
    }
}

// RULES: TIME-11 — while paying, no other action, not even a 0-AP one.
#[test]
fn time_11_no_other_action_during_long_term() {
    let text = level(
        &["WWWWWWWWWWWW", "W..........W", "WWWWWWWWWWWW"],
        r#"(name: "Archer", template: "archer", side: "Blue", at: (1, 1), facing: E, overrides: (activeness: Some(10))),
           (name: "B", template: "human_fighter", side: "Red", at: (9, 1), facing: W, overrides: (activeness: Some(1)))"#,
        "",
    );
    let mut b = battle(&text, 6);
    submit(
        &mut b,
        "Archer",
        Command::Attack { weapon: "aimed_shot".into(), target: Target::Creature(1), additives: vec![] },
    );
    // Long-term actions never end a creature's reactions budget silently: it is B's turn now,
    // and the archer cannot act at all.
    let r = b.check(0, &Command::Face { facing: Facing::N }).unwrap_err();
    assert_eq!(r.rule, "TIME-7");
    assert!(b.fighter(0).long_term.is_some());
}

// RULES: TIME-4, TIME-E2, TIME-2 — latecomers join at the end of their round, after everyone,
// sorted among themselves by initiative; a lone one skips the roll.
#[test]
fn time_4_latecomers_go_last() {
    let text = level(
        &["WWWWWWWWWWWW", "W..........W", "W..........W", "WWWWWWWWWWWW"],
        r#"(name: "A", template: "human_fighter", side: "Blue", at: (1, 1), overrides: (activeness: Some(10))),
           (name: "B", template: "human_fighter", side: "Red", at: (10, 1), overrides: (activeness: Some(1))),
           (name: "C", template: "human_duelist", side: "Red", at: (10, 2), arrives: Some(1), overrides: (activeness: Some(30))),
           (name: "D", template: "human_fighter", side: "Blue", at: (1, 2), arrives: Some(1), overrides: (activeness: Some(1)))"#,
        "",
    );
    let mut b = battle(&text, 7);
    assert_eq!(b.order(), [0, 1]);
    let mark = b.log().len();
    submit(&mut b, "A", Command::EndTurn);
    submit(&mut b, "B", Command::EndTurn);
    let k = kinds(&b, mark);
    let joined = k.iter().position(|x| x == "Joined").unwrap();
    let ended = k.iter().position(|x| x == "RoundEnded");
    assert!(ended.is_none(), "round 1 is not over until the latecomers act: {k:?}");
    assert!(k[..joined].contains(&"InitiativeRolled".to_string()), "two arrivals roll among themselves");
    assert_eq!(b.order(), [0, 1, 2, 3], "C (30 dice) before D (1 die), after everyone");
    assert_eq!(turn_of(&b), "C");
    assert_eq!(b.round(), 1);
    submit(&mut b, "C", Command::EndTurn);
    submit(&mut b, "D", Command::EndTurn);
    assert_eq!(b.round(), 2);
    assert_eq!(turn_of(&b), "A");
}

// RULES: PERC-E4, PERC-7, PERC-8, DICE-E1 — hiding out of sight in a thicket, staying hidden in
// view, then found by a 3-AP search (difficulty 2 × 3 = 6); the search roll is secret.
#[test]
fn perc_7_hidden_creature_found_by_search() {
    let text = level(
        &["WWWWWWWWW", "W.......W", "W...W.T.W", "W...W...W", "WWWWWWWWW"],
        r#"(name: "A", template: "human_fighter", side: "Blue", at: (1, 2), facing: E, overrides: (activeness: Some(1), spirit: Some(30))),
           (name: "B", template: "human_fighter", side: "Red", at: (6, 2), facing: W, overrides: (activeness: Some(10)))"#,
        "",
    );
    let mut b = battle(&text, 8);
    assert_eq!(turn_of(&b), "B");
    assert!(!b.perceives(0, 1));
    let mark = b.log().len();
    submit(&mut b, "B", Command::Hide);
    assert!(matches!(events(&b, mark)[2], Event::HidCreature { difficulty: 6, .. }));
    assert_eq!(b.log()[mark + 2].visible_to, ["Red"], "only B's side knows it hid");
    submit(&mut b, "B", Command::EndTurn);
    submit(
        &mut b,
        "A",
        Command::Move { path: vec![Pos::new(1, 2), Pos::new(2, 3), Pos::new(3, 3)], sprint: false, face: None },
    );
    assert!(!b.side_perceives(0, 1), "hidden in concealing terrain, in plain view");
    let r = b.check(0, &Command::Attack { weapon: "sword".into(), target: Target::Creature(1), additives: vec![] });
    assert_eq!(r.unwrap_err().rule, "PERC-3");
    let mark = b.log().len();
    // Two AP left: a search needs 3.
    assert_eq!(b.check(0, &Command::Search { at: Pos::new(6, 2) }).unwrap_err().rule, "TIME-8");
    submit(&mut b, "A", Command::EndTurn);
    submit(&mut b, "B", Command::EndTurn);
    submit(&mut b, "A", Command::Search { at: Pos::new(6, 2) });
    let found = events(&b, mark).iter().find_map(|e| match e {
        Event::Searched { found, .. } => Some(found.clone()),
        _ => None,
    });
    assert_eq!(found, Some(vec![1]));
    assert!(kinds(&b, mark).contains(&"Revealed".to_string()));
    let roll = b.log()[mark..].iter().find(|e| matches!(e.event, Event::Rolled { .. })).unwrap();
    assert_eq!(roll.visible_to, ["Blue"], "DICE-E1: the search roll is secret");
    assert!(b.side_perceives(0, 1));
}

// RULES: TIME-7, TIME-10, TIME-8, TIME-12, MOVE-E1, FACE-2, POST-2 — rejected commands name the
// rule and change nothing (a tactical action outside one's own turn is refused); facing costs
// 0 AP in one's own turn.
#[test]
fn rejections_change_nothing() {
    let text = level(
        &CORRIDOR,
        r#"(name: "A", template: "human_fighter", side: "Blue", at: (1, 1), facing: E, overrides: (activeness: Some(10))),
           (name: "B", template: "human_fighter", side: "Red", at: (8, 1), facing: W, overrides: (activeness: Some(1)))"#,
        "",
    );
    let mut b = battle(&text, 9);
    let before = (b.fighter(0).origin, b.fighter(0).ap, b.fighter(0).facing);
    let far = Command::Move { path: (1..=5).map(|x| Pos::new(x, 1)).collect(), sprint: false, face: None };
    assert_eq!(b.submit(0, far).unwrap_err().rule, "MOVE-E1");
    assert_eq!(b.submit(1, Command::EndTurn).unwrap_err().rule, "TIME-7");
    assert_eq!(b.submit(0, Command::Defend { defense: None }).unwrap_err().rule, "TIME-12");
    let out = Command::Attack { weapon: "sword".into(), target: Target::Creature(1), additives: vec![] };
    assert_eq!(b.submit(0, out).unwrap_err().rule, "ATK-4");
    assert_eq!((b.fighter(0).origin, b.fighter(0).ap, b.fighter(0).facing), before);
    assert!(matches!(b.log().last().unwrap().event, Event::CommandRejected { .. }));
    submit(&mut b, "A", Command::Face { facing: Facing::N });
    assert_eq!(b.fighter(0).ap, 3, "FACE-2: 0 AP");
    submit(&mut b, "A", Command::ChangePosture { posture: meshal_tactics::rules::posture::Posture::Crouch });
    assert_eq!(b.fighter(0).ap, 2, "POST-2: 1 AP");
    submit(
        &mut b,
        "A",
        Command::Move { path: vec![Pos::new(1, 1), Pos::new(2, 1)], sprint: false, face: Some(Facing::E) },
    );
    assert_eq!(b.fighter(0).facing, Facing::E, "FACE-2: free re-facing after a move");
    assert_eq!(b.fighter(0).ap, 1);
}

// RULES: FLOW-5, FLOW-E2 — fleeing needs 3 rounds unhit, costs 3 AP, rolls Activeness against
// the best hostile Activeness; a fled creature leaves and the other side wins.
#[test]
fn flow_5_fleeing() {
    let text = level(
        &CORRIDOR,
        r#"(name: "A", template: "human_fighter", side: "Blue", at: (1, 1), overrides: (activeness: Some(30))),
           (name: "B", template: "human_fighter", side: "Red", at: (8, 1), overrides: (activeness: Some(1)))"#,
        "",
    );
    let mut b = battle(&text, 10);
    assert_eq!(b.check(0, &Command::Flee).unwrap_err().rule, "FLOW-5");
    for _ in 0..3 {
        submit(&mut b, "A", Command::EndTurn);
        submit(&mut b, "B", Command::EndTurn);
    }
    assert_eq!(b.round(), 4);
    assert_eq!(b.fighter(0).hit_free_streak, 3);
    let mark = b.log().len();
    submit(&mut b, "A", Command::Flee);
    assert!(events(&b, mark).iter().any(|e| matches!(e, Event::FleeAttempted { difficulty: 1, success: true, .. })));
    assert_eq!(b.fighter(0).presence, Presence::Fled);
    assert!(matches!(b.outcome(), Some(Outcome::Victory { side, .. }) if side == "Red"));
}

// RULES: TIME-19, CRE-6, FLOW-8, POST-5, FACE-E1 — an unconscious creature falls Lying, keeps
// its last facing, and keeps its turn slot: its turn starts and ends at once.
#[test]
fn time_19_unconscious_keeps_turn() {
    let text = level(
        &CORRIDOR,
        r#"(name: "A", template: "human_fighter", side: "Blue", at: (2, 1), facing: E, overrides: (activeness: Some(10), might: Some(30))),
           (name: "B", template: "human_fighter", side: "Red", at: (3, 1), facing: E, overrides: (activeness: Some(1))),
           (name: "C", template: "human_fighter", side: "Red", at: (8, 1), facing: W, overrides: (activeness: Some(1)))"#,
        "",
    );
    let mut b = battle(&text, 11);
    submit(&mut b, "A", Command::Attack { weapon: "sword".into(), target: Target::Creature(1), additives: vec![] });
    assert!(b.fighter(1).attrs.is_unconscious());
    assert_eq!(b.fighter(1).posture, meshal_tactics::rules::posture::Posture::Lying);
    assert_eq!(b.fighter(1).facing, Facing::E, "FACE-E1: it keeps its last facing");
    let mark = b.log().len();
    submit(&mut b, "A", Command::EndTurn);
    let k = kinds(&b, mark);
    let b_turn = b.log()[mark..]
        .iter()
        .position(|e| matches!(e.event, Event::TurnStarted { creature: 1, .. }))
        .expect("B's turn still comes");
    assert!(matches!(b.log()[mark + b_turn + 1].event, Event::TurnEnded { creature: 1 }), "{k:?}");
}

// RULES: ATK-E7, AREA-E1, AREA-E7 — an area attack hits every creature in the circle, allies
// included, each rolled and defended separately, damage applied as one batch.
#[test]
fn atk_e7_area_attack_hits_everyone_inside() {
    let text = level(
        &["WWWWWWWWWWWW", "W..........W", "W..........W", "W..........W", "WWWWWWWWWWWW"],
        r#"(name: "Caster", template: "caster", side: "Blue", at: (1, 2), facing: E, overrides: (activeness: Some(10), spirit: Some(20))),
           (name: "R1", template: "human_fighter", side: "Red", at: (6, 2), facing: E, overrides: (activeness: Some(1))),
           (name: "R2", template: "human_fighter", side: "Red", at: (7, 3), facing: E, overrides: (activeness: Some(1))),
           (name: "Ally", template: "human_fighter", side: "Blue", at: (6, 1), facing: E, overrides: (activeness: Some(1))),
           (name: "Far", template: "human_fighter", side: "Red", at: (9, 2), facing: E, overrides: (activeness: Some(1)))"#,
        "",
    );
    let mut b = battle(&text, 12);
    let mark = b.log().len();
    submit(
        &mut b,
        "Caster",
        Command::Attack { weapon: "fireball".into(), target: Target::Square(Pos::new(6, 2)), additives: vec![] },
    );
    // Targets face east, away from the caster: nobody can defend, so it resolves at once. The
    // caster's side sees it all (Red, who does not see the caster, has its own view).
    let blue: Vec<&Event> =
        b.log()[mark..].iter().filter(|e| e.visible_to.contains(&"Blue".to_string())).map(|e| &e.event).collect();
    let declared = blue.iter().find_map(|e| match e {
        Event::AttackDeclared { targets, .. } => Some(targets.clone()),
        _ => None,
    });
    assert_eq!(declared, Some(vec![1, 2, 3]));
    let resolved: Vec<u32> = blue
        .iter()
        .filter_map(|e| match e {
            Event::SegmentResolved { target, .. } => Some(*target),
            _ => None,
        })
        .collect();
    assert_eq!(resolved, [1, 2, 3]);
    // All damage events come after the last segment (batch application).
    let last_segment = b.log().iter().rposition(|e| matches!(e.event, Event::SegmentResolved { .. })).unwrap();
    let first_damage = b.log()[mark..].iter().position(|e| matches!(e.event, Event::Damaged { .. })).unwrap() + mark;
    assert!(first_damage > last_segment);
    assert_eq!(b.fighter(0).ap, 1, "fireball costs 2 AP");
}

// RULES: DICE-4, TIME-16, TIME-E7 — an additive (+1 AP, +3 dice) is declared with its attack.
#[test]
fn time_16_additive_power_strike() {
    let text = level(
        &CORRIDOR,
        r#"(name: "A", template: "human_fighter", side: "Blue", at: (2, 1), facing: E, overrides: (activeness: Some(10))),
           (name: "B", template: "human_fighter", side: "Red", at: (3, 1), facing: E, overrides: (activeness: Some(1)))"#,
        "",
    );
    let mut b = battle(&text, 13);
    let mark = b.log().len();
    submit(
        &mut b,
        "A",
        Command::Attack { weapon: "sword".into(), target: Target::Creature(1), additives: vec!["power_strike".into()] },
    );
    assert!(events(&b, mark).iter().any(|e| matches!(e, Event::AttackDeclared { dice: 7, .. })), "Might 4 + 3");
    assert_eq!(b.fighter(0).ap, 1);
    let bad =
        Command::Attack { weapon: "fist".into(), target: Target::Creature(1), additives: vec!["quick_step".into()] };
    assert_eq!(b.check(0, &bad).unwrap_err().rule, "TIME-16");
}

/// Random commands, legal or absurd, from anyone: never a panic, and a rejection never changes
/// anything but the log.
#[test]
fn random_commands_never_panic_and_rejections_change_nothing() {
    use meshal_tactics::rules::creature::Attribute;
    use meshal_tactics::rules::posture::Posture;
    use rand::{RngExt, SeedableRng};
    let level = parse_level("skirmish", include_str!("../levels/skirmish.level.ron"), builtin_compendium()).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let weapons = ["sword", "bow", "fireball", "whip", "nothing", "aimed_shot", "blunderbuss", "dagger"];
    for seed in 0..20 {
        let mut b = Battle::new(&level, builtin_compendium(), seed).unwrap();
        for _ in 0..1500 {
            if b.outcome().is_some() {
                break;
            }
            let n = b.creatures().len() as u32;
            let who = if rng.random_bool(0.8) { b.awaiting().unwrap().0 } else { rng.random_range(0..n + 3) };
            let pos = |r: &mut rand_chacha::ChaCha8Rng| {
                if r.random_bool(0.05) {
                    Pos::new(r.random_range(i32::MIN..i32::MAX), r.random_range(i32::MIN..i32::MAX))
                } else {
                    Pos::new(r.random_range(-2..30), r.random_range(-2..20))
                }
            };
            let cmd = match rng.random_range(0..13) {
                0 => {
                    let start = b.creatures().get(who as usize).map_or(Pos::new(0, 0), |c| c.origin);
                    let mut path = vec![start];
                    for _ in 0..rng.random_range(0..5) {
                        let last = *path.last().unwrap();
                        path.push(last.offset(rng.random_range(-1..=1), rng.random_range(-1..=1)));
                    }
                    if rng.random_bool(0.1) {
                        path.push(pos(&mut rng));
                    }
                    Command::Move {
                        path,
                        sprint: rng.random_bool(0.3),
                        face: Some(Facing::ALL[rng.random_range(0..8)]),
                    }
                }
                1 => Command::Face { facing: Facing::ALL[rng.random_range(0..8)] },
                2 => Command::ChangePosture { posture: Posture::ALL[rng.random_range(0..5)] },
                3 | 4 => Command::Attack {
                    weapon: weapons[rng.random_range(0..weapons.len())].into(),
                    target: match rng.random_range(0..3) {
                        0 => Target::Creature(rng.random_range(0..n + 2)),
                        1 => Target::Square(pos(&mut rng)),
                        _ => Target::Toward(Facing::ALL[rng.random_range(0..8)]),
                    },
                    additives: if rng.random_bool(0.2) { vec!["power_strike".into()] } else { vec![] },
                },
                5 => Command::Defend {
                    defense: [None, Some(Defense::Block), Some(Defense::Dodge), Some(Defense::Resist)]
                        [rng.random_range(0..4)],
                },
                6 => Command::QuickStep { to: pos(&mut rng), face: None },
                7 => Command::Search { at: pos(&mut rng) },
                8 => Command::Hide,
                9 => Command::Flee,
                10 => Command::SetAllocation { order: vec![Attribute::Spirit, Attribute::Might] },
                11 => Command::Delay { after: rng.random_range(0..n + 2) },
                _ => {
                    if rng.random_bool(0.5) {
                        Command::EndTurn
                    } else {
                        Command::Pass
                    }
                }
            };
            let snapshot = (
                b.phase().clone(),
                b.round(),
                b.turn_slot(),
                b.creatures().iter().map(|c| (c.origin, c.ap, c.attrs, c.facing, c.posture)).collect::<Vec<_>>(),
            );
            let len = b.log().len();
            if b.submit(who, cmd).is_err() {
                let now = (
                    b.phase().clone(),
                    b.round(),
                    b.turn_slot(),
                    b.creatures().iter().map(|c| (c.origin, c.ap, c.attrs, c.facing, c.posture)).collect::<Vec<_>>(),
                );
                assert_eq!(snapshot, now, "a rejection changed the battle");
                assert_eq!(b.log().len(), len + 1, "a rejection adds exactly its own log entry");
            }
        }
    }
}

// RULES: TIME-13, TIME-E6, TIME-15 — a simultaneous counter-attack: both attacks resolve before
// any damage lands, so the countering creature strikes even though the attack fells it; having
// reacted, it cannot also defend, while the attacker may defend the counter.
#[test]
fn time_13_simultaneous_counter_attack() {
    let text = level(
        &CORRIDOR,
        r#"(name: "A", template: "human_fighter", side: "Blue", at: (2, 1), facing: E, overrides: (activeness: Some(10), might: Some(30))),
           (name: "B", template: "human_fighter", side: "Red", at: (3, 1), facing: W, overrides: (activeness: Some(1), might: Some(3)))"#,
        "",
    );
    let mut b = battle(&text, 14);
    let mark = b.log().len();
    submit(&mut b, "A", Command::Attack { weapon: "sword".into(), target: Target::Creature(1), additives: vec![] });
    assert_eq!(b.awaiting(), Some((1, Some(WindowKind::BeforeAttack))));
    let bow = Command::CounterAttack { weapon: "bow".into() };
    assert_eq!(b.check(1, &bow).unwrap_err().rule, "ATK-1", "B carries no bow");
    submit(&mut b, "B", Command::CounterAttack { weapon: "sword".into() });
    // A may defend the counter: answer without defending.
    while let Some((who, Some(WindowKind::Defense))) = b.awaiting() {
        assert_eq!(who, 0, "only A is asked: B already reacted in this chain");
        submit(&mut b, "A", Command::Defend { defense: None });
    }
    let ev = events(&b, mark);
    let pos = |f: &dyn Fn(&Event) -> bool| ev.iter().position(|e| f(e));
    let counter = pos(&|e| matches!(e, Event::CounterAttackDeclared { creature: 1, .. })).unwrap();
    let a_seg = pos(&|e| matches!(e, Event::SegmentResolved { attacker: Some(0), .. })).unwrap();
    let b_seg = pos(&|e| matches!(e, Event::SegmentResolved { attacker: Some(1), .. })).unwrap();
    let first_damage = pos(&|e| matches!(e, Event::Damaged { .. })).unwrap();
    let fall = pos(&|e| matches!(e, Event::Unconscious { creature: 1 })).expect("30 dice fell B");
    assert!(counter < a_seg && a_seg < b_seg, "attack, then its simultaneous counter");
    assert!(b_seg < first_damage && first_damage < fall, "all damage after both attacks, then the fall");
    assert!(ev.iter().any(|e| matches!(e, Event::Undefendable { target: 1, reason } if reason.contains("TIME-15"))));
    assert_eq!(b.fighter(1).ap, 2, "the counter cost B 1 AP");
    if let Event::SegmentResolved { hit: true, damage, .. } = ev[b_seg] {
        assert!(b.fighter(0).attrs.dice(meshal_tactics::rules::creature::Attribute::Might) == 30 - damage);
    }
}

// RULES: TIME-D4 — delaying (001's Defer, as an engine decision): once a round, before spending
// AP, a creature moves its slot to after one still to act, and takes its turn there.
#[test]
fn delay_moves_the_slot() {
    let text = level(
        &["WWWWWWWWWWWW", "W..........W", "W..........W", "WWWWWWWWWWWW"],
        r#"(name: "A", template: "human_fighter", side: "Blue", at: (1, 1), overrides: (activeness: Some(30))),
           (name: "B", template: "human_fighter", side: "Red", at: (10, 1), overrides: (activeness: Some(10))),
           (name: "C", template: "human_fighter", side: "Red", at: (10, 2), overrides: (activeness: Some(1)))"#,
        "",
    );
    let mut b = battle(&text, 15);
    assert_eq!(b.order(), [0, 1, 2]);
    submit(&mut b, "A", Command::Face { facing: Facing::E });
    submit(&mut b, "A", Command::Delay { after: 1 });
    assert_eq!(b.order(), [1, 0, 2]);
    assert_eq!(turn_of(&b), "B");
    submit(&mut b, "B", Command::EndTurn);
    assert_eq!(turn_of(&b), "A", "A acts in its new slot, this round");
    assert_eq!(b.round(), 1);
    assert_eq!(b.check(0, &Command::Delay { after: 2 }).unwrap_err().rule, "TIME-D4", "once a round");
    submit(&mut b, "A", Command::Move { path: vec![Pos::new(1, 1), Pos::new(2, 1)], sprint: false, face: None });
    assert_eq!(b.check(0, &Command::Delay { after: 2 }).unwrap_err().rule, "TIME-D4");
}

// RULES: TIME-5, TIME-E3, TIME-6 — identical AI creatures of one side share one initiative roll
// and one slot; with the toggle off each rolls alone. Every creature still gets one turn a round.
#[test]
fn time_5_group_initiative() {
    let creatures = r#"(name: "Hero", template: "human_fighter", side: "Blue", at: (1, 1)),
           (name: "W1", template: "grey_wolf", side: "Red", at: (6, 1)),
           (name: "W2", template: "grey_wolf", side: "Red", at: (7, 1)),
           (name: "W3", template: "grey_wolf", side: "Red", at: (8, 1))"#;
    let b = battle(&level(&CORRIDOR, creatures, ""), 16);
    let rolls: Vec<Vec<u32>> = b
        .log()
        .iter()
        .filter_map(|e| match &e.event {
            Event::InitiativeRolled { members, .. } => Some(members.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(rolls.len(), 2, "one roll for the hero, one for the pack: {rolls:?}");
    assert!(rolls.contains(&vec![1, 2, 3]));
    let at = b.order().iter().position(|&c| c == 1).unwrap();
    assert_eq!(&b.order()[at..at + 3], [1, 2, 3], "the group holds one slot");
    let solo = battle(&level(&CORRIDOR, creatures, "ruleset: (group_initiative: false)"), 16);
    let n = solo.log().iter().filter(|e| matches!(e.event, Event::InitiativeRolled { .. })).count();
    assert_eq!(n, 4);
    // TIME-6: one turn each per round.
    let mut b = b;
    let mut turns = vec![0; 4];
    while b.round() == 1 {
        let (c, w) = b.awaiting().unwrap();
        if w.is_none() {
            turns[c as usize] += 1;
        }
        b.submit(c, if w.is_some() { Command::Pass } else { Command::EndTurn }).unwrap();
    }
    assert_eq!(turns, [1, 1, 1, 1]);
}

// RULES: ATK-3, ATK-E2 — pole weapons extend reach: a spear reaches 2 steps, a sword does not.
#[test]
fn atk_3_pole_weapons_extend_reach() {
    let text = level(
        &CORRIDOR,
        r#"(name: "A", template: "human_spearman", side: "Blue", at: (2, 1), facing: E, overrides: (activeness: Some(10), weapons: Some(["spear", "fist"]))),
           (name: "B", template: "human_fighter", side: "Red", at: (4, 1), facing: W, overrides: (activeness: Some(1)))"#,
        "",
    );
    let b = battle(&text, 17);
    let spear = Command::Attack { weapon: "spear".into(), target: Target::Creature(1), additives: vec![] };
    let fist = Command::Attack { weapon: "fist".into(), target: Target::Creature(1), additives: vec![] };
    assert!(b.check(0, &spear).is_ok());
    assert_eq!(b.check(0, &fist).unwrap_err().rule, "ATK-4");
}

/// The events `side` may see from `from` on.
fn view<'a>(b: &'a Battle, side: &str, from: usize) -> Vec<&'a Event> {
    b.log()[from..].iter().filter(|e| e.visible_to.iter().any(|s| s == side)).map(|e| &e.event).collect()
}

// RULES: PERC-3, ATK-11, TIME-2 — an attack from a creature the target's side does not
// perceive: the target's side learns it is attacked and what it costs, not by whom; it never
// saw the attacker's initiative either.
#[test]
fn perc_3_the_target_of_an_unseen_attacker_learns_it_is_attacked_not_by_whom() {
    let text = level(
        &["WWWWWWWWWW", "W%%%.....W", "WWWWWWWWWW"],
        r#"(name: "Archer", template: "archer", side: "Blue", at: (1, 1), facing: E, overrides: (activeness: Some(30))),
           (name: "B", template: "human_fighter", side: "Red", at: (7, 1), facing: W, overrides: (activeness: Some(1)))"#,
        "",
    );
    let mut b = battle(&text, 4);
    assert!(!b.side_perceives(1, 0));
    let names_archer = |e: &&Event| e.creatures().contains(&0);
    assert!(view(&b, "Red", 0).iter().all(|e| !names_archer(e)), "Red never saw the archer's initiative or slot");
    assert!(
        view(&b, "Blue", 0).iter().any(|e| matches!(e, Event::InitiativeRolled { members, .. } if members == &[1]))
    );
    let mark = b.log().len();
    submit(&mut b, "Archer", Command::Attack { weapon: "bow".into(), target: Target::Creature(1), additives: vec![] });
    let red = view(&b, "Red", mark);
    assert!(red.iter().any(|e| matches!(e, Event::AttackedByUnseen { targets } if targets == &[1])), "{red:?}");
    assert!(red.iter().any(|e| matches!(e, Event::SegmentResolved { attacker: None, target: 1, .. })), "{red:?}");
    assert!(red.iter().all(|e| !names_archer(e)), "nothing in Red's view names the archer: {red:?}");
    let blue = view(&b, "Blue", mark);
    assert!(blue.iter().any(|e| matches!(e, Event::AttackDeclared { attacker: 0, targets, .. } if targets == &[1])));
    assert!(blue.iter().any(|e| matches!(e, Event::SegmentResolved { attacker: Some(0), target: 1, .. })));
}

// RULES: PERC-E1, PERC-E2 — a creature walking past a doorway: the side watching through it
// sees only the stretch of the walk in its view, as Spotted, that stretch, LostSight; the
// walker's own side sees the whole path.
#[test]
fn perc_e2_a_walk_past_a_doorway_shows_only_the_stretch_seen() {
    let map = ["WWWWWWWWWWWW", "W..........W", "WWWW...WWWWW", "W..........W", "W..........W", "WWWWWWWWWWWW"];
    let text = level(
        &map,
        r#"(name: "Walker", template: "human_fighter", side: "Blue", at: (1, 4), facing: E, overrides: (activeness: Some(30), speed: Some(9))),
           (name: "Watcher", template: "human_fighter", side: "Red", at: (5, 1), facing: N, overrides: (activeness: Some(1)))"#,
        "",
    );
    let mut b = battle(&text, 2);
    assert!(!b.side_perceives(1, 0), "behind the wall at the start");
    let path: Vec<Pos> = (1..=9).map(|x| Pos::new(x, 4)).collect();
    let seen: Vec<bool> =
        path.iter().map(|&p| meshal_tactics::rules::los::clear_line(b.map(), Pos::new(5, 1), p)).collect();
    let first = seen.iter().position(|&v| v).expect("the doorway shows part of the row");
    let last = seen.iter().rposition(|&v| v).unwrap();
    assert!(first > 0 && last > first && last < path.len() - 1 && seen[first..=last].iter().all(|&v| v));
    let mark = b.log().len();
    submit(&mut b, "Walker", Command::Move { path: path.clone(), sprint: false, face: None });
    let red: Vec<String> = view(&b, "Red", mark)
        .iter()
        .map(|e| match e {
            Event::Moved { path, .. } => format!("Moved {}..{}", path[0], path[path.len() - 1]),
            other => format!("{other:?}").split([' ', '{', '(']).next().unwrap().to_string(),
        })
        .collect();
    assert_eq!(
        red,
        ["Spotted".to_string(), format!("Moved {}..{}", path[first], path[last]), "LostSight".to_string()],
        "Red sees the stretch in the doorway only"
    );
    assert_eq!(b.last_seen(1, 0), Some(path[last]), "and remembers where it last saw the walker");
    let blue = view(&b, "Blue", mark);
    assert!(blue.iter().any(|e| matches!(e, Event::Moved { path: p, .. } if *p == path)), "Blue sees it all");
    // The whole record holds the move once; Red's stretch is marked as a partial view.
    let moves: Vec<&LogEntry> = b.log()[mark..].iter().filter(|e| matches!(e.event, Event::Moved { .. })).collect();
    assert_eq!(moves.iter().filter(|e| !e.partial).count(), 1);
    assert!(moves.iter().filter(|e| e.partial).all(|e| e.visible_to == ["Red"]));
}

// RULES: TIME-4, PERC-3 — a latecomer joining out of sight: the other side is told nothing
// (no join, no initiative, no slot in the order); its own side sees it all.
#[test]
fn time_4_a_latecomer_joining_out_of_sight_is_not_announced() {
    let map = ["WWWWWWWWWWWW", "W....W.....W", "W....W.....W", "WWWWWWWWWWWW"];
    let text = level(
        &map,
        r#"(name: "A", template: "human_fighter", side: "Blue", at: (1, 1), facing: W, overrides: (activeness: Some(10))),
           (name: "B", template: "human_fighter", side: "Red", at: (8, 1), facing: E, overrides: (activeness: Some(1))),
           (name: "Late", template: "human_fighter", side: "Red", at: (9, 2), arrives: Some(1))"#,
        "",
    );
    let mut b = battle(&text, 3);
    let mark = b.log().len();
    submit(&mut b, "A", Command::EndTurn);
    submit(&mut b, "B", Command::EndTurn);
    assert!(b.fighter(2).is_active(), "it has joined");
    let red = view(&b, "Red", mark);
    assert!(red.iter().any(|e| matches!(e, Event::Joined { creature: 2, .. })));
    assert!(red.iter().any(|e| matches!(e, Event::TurnOrder { order } if order == &[1, 2])), "{red:?}");
    let blue = view(&b, "Blue", 0);
    assert!(
        blue.iter().all(|e| !e.creatures().iter().any(|&c| c != 0)),
        "Blue was told of nobody but its own: {blue:?}"
    );
    assert!(blue.iter().any(|e| matches!(e, Event::TurnOrder { order } if order == &[0])));
}

// RULES: SPACE-E5, PERC-3, PERC-E4 — moves and hiding are checked against what the side knows:
// a path through a creature it does not perceive is accepted (a refusal would tell where the
// creature is) and stops short of it; a hide watched by a hostile it does not perceive fails
// when made. Neither refusal nor success leaks the unseen creature.
#[test]
fn space_e5_checks_know_only_what_the_side_perceives() {
    let text = level(
        &["WWWWWWWWWW", "W....%...W", "WWWWWWWWWW"],
        r#"(name: "Walker", template: "human_fighter", side: "Blue", at: (1, 1), facing: E, overrides: (activeness: Some(30), speed: Some(8))),
           (name: "Lurker", template: "cave_lurker", side: "Red", at: (5, 1), facing: W, overrides: (activeness: Some(1)))"#,
        "",
    );
    let mut b = battle(&text, 5);
    assert!(!b.side_perceives(0, 1), "the lurker stands unseen in the dark");
    let through: Vec<Pos> = (1..=8).map(|x| Pos::new(x, 1)).collect();
    assert_eq!(b.check(0, &Command::Move { path: through.clone(), sprint: false, face: None }), Ok(()));
    assert!(b.reachable(0, false).unwrap().can_end_at(Pos::new(5, 1)), "as far as Blue knows, the square is free");
    let mark = b.log().len();
    submit(&mut b, "Walker", Command::Move { path: through, sprint: false, face: None });
    assert_eq!(b.fighter(0).origin, Pos::new(4, 1), "it stops short of what it ran into");
    let blue = view(&b, "Blue", mark);
    assert!(blue.iter().any(|e| matches!(e, Event::MoveInterrupted { creature: 0, at } if *at == Pos::new(4, 1))));
    let spotted = blue.iter().position(|e| matches!(e, Event::Spotted { creature: 1, .. }));
    assert!(spotted.is_some(), "now adjacent, it perceives the lurker");
    assert_eq!(b.fighter(0).ap, 2, "the move's AP is spent");
}

// RULES: PERC-E4 — hiding while a hostile the side does not perceive watches: the attempt is
// accepted and fails; only the hider's side hears of it.
#[test]
fn perc_e4_a_hide_watched_from_the_dark_fails() {
    let text = level(
        &["WWWWWWWWWW", "W.....%%.W", "WWWWWWWWWW"],
        r#"(name: "Hider", template: "human_fighter", side: "Blue", at: (2, 1), facing: W, overrides: (activeness: Some(30))),
           (name: "Watcher", template: "human_fighter", side: "Red", at: (6, 1), facing: W, overrides: (activeness: Some(1)))"#,
        "",
    );
    let mut b = battle(&text, 5);
    assert!(b.perceives(1, 0) && !b.side_perceives(0, 1), "watched from the dark");
    assert_eq!(b.check(0, &Command::Hide), Ok(()));
    let mark = b.log().len();
    submit(&mut b, "Hider", Command::Hide);
    assert_eq!(b.fighter(0).hidden, None);
    let failed: Vec<&LogEntry> =
        b.log()[mark..].iter().filter(|e| matches!(e.event, Event::HideFailed { creature: 0 })).collect();
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0].visible_to, ["Blue"]);
    assert_eq!(b.fighter(0).ap, 2, "1 AP spent on the attempt");
}

// RULES: TIME-14, TIME-16, TIME-11 — a cancelled attack refunds the AP spent on it this round in
// every case: with an additive (its AP too), and a long-term attack completing this round (only
// this round's payment; what earlier rounds paid is lost).
#[test]
fn time_14_cancellation_refunds_this_rounds_ap_in_every_case() {
    // With an additive: sword (1 AP) + Power Strike (1 AP) = 2 AP back.
    let text = level(
        &CORRIDOR,
        r#"(name: "A", template: "human_fighter", side: "Blue", at: (2, 1), facing: E, overrides: (activeness: Some(10))),
           (name: "B", template: "human_duelist", side: "Red", at: (3, 1), facing: W, overrides: (activeness: Some(1)))"#,
        "",
    );
    let mut b = battle(&text, 1);
    let strike =
        Command::Attack { weapon: "sword".into(), target: Target::Creature(1), additives: vec!["power_strike".into()] };
    submit(&mut b, "A", strike);
    assert_eq!(b.fighter(0).ap, 1);
    submit(&mut b, "B", Command::QuickStep { to: Pos::new(4, 1), face: Some(Facing::W) });
    assert!(b.log().iter().any(|e| matches!(e.event, Event::AttackCancelled { refunded_ap: 2, .. })));
    assert_eq!(b.fighter(0).ap, 3, "the attack and its additive refunded");

    // Long-term: a 1-AP creature's sword + Power Strike costs 2: 1 AP in round 1, the last at
    // the start of round 2, when it completes; cancelled then, only round 2's AP comes back.
    let mut compendium = builtin_compendium().clone();
    let mut slow = compendium.creatures["human_fighter"].clone();
    slow.max_ap = 1;
    compendium.creatures.insert("slow_fighter".into(), slow);
    let text = level(
        &CORRIDOR,
        r#"(name: "A", template: "slow_fighter", side: "Blue", at: (2, 1), facing: E, overrides: (activeness: Some(10))),
           (name: "B", template: "human_duelist", side: "Red", at: (3, 1), facing: W, overrides: (activeness: Some(1)))"#,
        "",
    );
    let l = parse_level("test.level.ron", &text, &compendium).unwrap();
    let mut b = Battle::new(&l, &compendium, 1).unwrap();
    let strike =
        Command::Attack { weapon: "sword".into(), target: Target::Creature(1), additives: vec!["power_strike".into()] };
    submit(&mut b, "A", strike);
    assert!(b.log().iter().any(|e| matches!(e.event, Event::LongTermStarted { remaining: 1, .. })));
    submit(&mut b, "B", Command::EndTurn);
    // Round 2: A pays its last AP and the attack is declared; B steps out of reach.
    assert_eq!(b.awaiting(), Some((1, Some(WindowKind::BeforeAttack))));
    assert_eq!(b.fighter(0).ap, 0);
    submit(&mut b, "B", Command::QuickStep { to: Pos::new(4, 1), face: Some(Facing::W) });
    let refunds: Vec<i32> = b
        .log()
        .iter()
        .filter_map(|e| match e.event {
            Event::AttackCancelled { refunded_ap, .. } => Some(refunded_ap),
            _ => None,
        })
        .collect();
    assert_eq!(refunds, [1], "round 2's AP only; round 1's is lost");
    assert_eq!(b.fighter(0).ap, 1);
    assert_eq!(turn_of(&b), "A", "it may choose a new action");
}

// RULES: GEN-1 — specific exceptions override the basic rules and custom rules override both:
// a shield (an item) adds a die to Block beyond the basic Might dice, a level's override (a
// custom rule) beats the compendium's template, and a ruleset switch removes posture penalties.
#[test]
fn gen_1_items_and_custom_rules_override_the_basic_rules() {
    let text = level(
        &CORRIDOR,
        r#"(name: "Spear", template: "human_spearman", side: "Blue", at: (2, 1), facing: E, posture: Prone, overrides: (might: Some(6))),
           (name: "B", template: "human_fighter", side: "Red", at: (5, 1), facing: W)"#,
        "",
    );
    let b = battle(&text, 1);
    let f = b.fighter(0);
    assert_eq!(
        f.attrs.dice(meshal_tactics::rules::creature::Attribute::Might),
        6,
        "the level's 6, not the template's 4"
    );
    use meshal_tactics::rules::posture::Posture;
    assert_eq!(b.defense_dice(0, Posture::Standing, Defense::Block), 7, "Might 6 + the shield's die");
    assert_eq!(b.defense_dice(0, Posture::Standing, Defense::Dodge), 3, "no shield die to Dodge");
    assert_eq!(b.defense_dice(0, Posture::Prone, Defense::Block), 5, "prone: -2 (POST-E1)");
    let off = battle(&text.replace("sides: [", "ruleset: (postures: false), sides: ["), 1);
    assert_eq!(off.defense_dice(0, Posture::Prone, Defense::Block), 7, "postures off: no penalty");
}

// RULES: CRE-12 — an action's targets must be perceivable and meet its range and target
// restrictions (an attack names another creature: Engine decision, it cannot target its user).
#[test]
fn cre_12_targets_must_be_perceived_in_range_and_allowed() {
    let text = level(
        &["WWWWWWWWWW", "W....%%..W", "WWWWWWWWWW"],
        r#"(name: "A", template: "human_fighter", side: "Blue", at: (1, 1), facing: E, overrides: (activeness: Some(10))),
           (name: "Near", template: "human_fighter", side: "Red", at: (3, 1), facing: W),
           (name: "Dark", template: "human_fighter", side: "Red", at: (6, 1), facing: W)"#,
        "",
    );
    let b = battle(&text, 1);
    let attack = |t: u32| Command::Attack { weapon: "sword".into(), target: Target::Creature(t), additives: vec![] };
    assert_eq!(b.check(0, &attack(2)).unwrap_err().rule, "PERC-3", "unseen in the dark");
    assert_eq!(b.check(0, &attack(1)).unwrap_err().rule, "ATK-4", "two steps: out of a sword's reach");
    assert_eq!(b.check(0, &attack(0)).unwrap_err().rule, "ATK-4", "not itself");
    assert_eq!(b.check(0, &attack(9)).unwrap_err().rule, "CRE-1", "no such creature");
}

// RULES: ATK-E7, POST-E1, POST-E3, ATK-E5, ATK-11 — a preview is what the battle then rolls:
// the dice after posture, the protection after cover and posture, and each defense's dice.
#[test]
fn atk_e7_previews_are_what_is_rolled() {
    let text = r#"(name: "Preview", map: ["WWWWWWWWWW", "W.....=..W", "W........W", "WWWWWWWWWW"],
        legend: { '.': "floor", 'W': "wall", '=': "low" },
        terrains: { "floor": (), "wall": (blocks_movement: true, blocks_sight: true),
                    "low": (blocks_movement: true, cross_height: Some(1), low_cover: true) },
        sides: [(name: "Blue"), (name: "Red")],
        creatures: [
            (name: "Archer", template: "archer", side: "Blue", at: (1, 2), facing: E, posture: Prone, overrides: (activeness: Some(12))),
            (name: "Target", template: "human_spearman", side: "Red", at: (7, 2), facing: W, posture: Crouch, overrides: (activeness: Some(1))),
        ])"#;
    let l = parse_level("preview.level.ron", text, builtin_compendium()).unwrap();
    let mut b = Battle::new(&l, builtin_compendium(), 9).unwrap();
    let shot = Command::Attack { weapon: "bow".into(), target: Target::Creature(1), additives: vec![] };
    let p = b.attack_preview(0, &shot).unwrap().remove(0);
    assert_eq!(p.dice, 12 - 2, "Activeness 12, prone -2");
    assert!(p.cover, "the low wall shelters the target");
    assert_eq!(p.protection, 1 + 1, "leather 1 + the better of cover and crouching, +1");
    let block = p.defenses.iter().find(|d| d.defense == Defense::Block).unwrap();
    assert_eq!(block.dice, 4 + 1, "Might 4 + the shield");
    let mark = b.log().len();
    submit(&mut b, "Archer", shot);
    assert!(events(&b, mark).iter().any(|e| matches!(e, Event::AttackDeclared { dice: 10, .. })));
    assert_eq!(b.awaiting(), Some((1, Some(WindowKind::Defense))), "seed 9: a harmful roll");
    {
        let w = b.window_preview().unwrap();
        assert_eq!(w.attack.protection, p.protection);
        assert_eq!(w.attack.defenses, p.defenses);
        submit(&mut b, "Target", Command::Defend { defense: Some(Defense::Block) });
        let faces = events(&b, mark).into_iter().find_map(|e| match e {
            Event::Rolled { creature: 1, faces, .. } => Some(faces.len()),
            _ => None,
        });
        assert_eq!(faces, Some(5), "the Block rolled the previewed dice");
    }
    let seg = events(&b, mark).into_iter().find_map(|e| match e {
        Event::SegmentResolved { protection, .. } => Some(*protection),
        _ => None,
    });
    assert_eq!(seg, Some(p.protection));
}

// RULES: PERC-E4, PERC-8 — an ambush: a creature placed `hidden: true` starts Hidden with the
// difficulty a Hide there would give (Medium row 2 × 3 in a thicket), unseen by the foe who
// looks straight at its square; placed hidden in the open before a hostile, it starts revealed
// (the Engine decision, as after a move); a latecomer cannot start hidden.
#[test]
fn perc_e4_an_ambusher_can_start_hidden() {
    let map = ["WWWWWWWW", "W......W", "W..T...W", "W......W", "WWWWWWWW"];
    let ambush = level(
        &map,
        r#"(name: "Lurker", template: "human_fighter", side: "Red", at: (3, 2), facing: W, hidden: true),
           (name: "Scout", template: "human_fighter", side: "Blue", at: (6, 2), facing: W)"#,
        "",
    );
    let b = battle(&ambush, 1);
    assert_eq!(b.fighter(0).hidden, Some(6), "Medium (2) x careful disguise (3) in the thicket");
    assert!(!b.shown_to(0, 0), "the scout does not see the hidden lurker");
    assert!(!b.log().iter().any(|e| matches!(e.event, Event::Revealed { .. })));
    let open = ambush.replace("at: (3, 2), facing: W, hidden: true", "at: (3, 1), facing: W, hidden: true");
    let b = battle(&open, 1);
    assert_eq!(b.fighter(0).hidden, None, "in the open before the scout: revealed at the start");
    assert!(b.shown_to(0, 0));
    assert!(
        b.log().iter().any(|e| matches!(&e.event, Event::Revealed { creature: 0, reason } if reason.contains("open")))
    );
    let late = ambush.replace("hidden: true", "hidden: true, arrives: Some(2)");
    let err = parse_level("late.level.ron", &late, builtin_compendium()).unwrap_err().to_string();
    assert!(err.contains("cannot start hidden (PERC-E4)") && err.starts_with("late.level.ron:10:"), "{err}");
}

// RULES: ATK-17, FLOW-7 — an unconscious creature cannot defend (its protection alone stands),
// and an attack declared on it that hits kills it (coup de grâce).
#[test]
fn atk_17_flow_7_no_defense_while_unconscious_and_a_hit_kills() {
    let text = level(
        &CORRIDOR,
        r#"(name: "A", template: "human_fighter", side: "Blue", at: (2, 1), facing: E, overrides: (activeness: Some(10), might: Some(30))),
           (name: "B", template: "human_fighter", side: "Red", at: (3, 1), facing: W, overrides: (activeness: Some(1))),
           (name: "C", template: "human_fighter", side: "Red", at: (8, 1), facing: W, overrides: (activeness: Some(1)))"#,
        "",
    );
    let mut b = battle(&text, 11);
    let sword = Command::Attack { weapon: "sword".into(), target: Target::Creature(1), additives: vec![] };
    // B faces A and may defend the first blow; whatever it does, 30 dice knock it out.
    b.submit(0, sword.clone()).unwrap();
    while let Some((c, Some(_))) = b.awaiting() {
        b.submit(c, Command::Defend { defense: None }).unwrap();
    }
    assert!(b.fighter(1).attrs.is_unconscious());
    let mark = b.log().len();
    submit(&mut b, "A", sword);
    let why = undefendable_reason(&b, mark).expect("no defense window for an unconscious target");
    assert!(why.contains("unconscious"), "{why}");
    assert!(events(&b, mark).contains(&&Event::Died { creature: 1 }), "the hit kills it");
    assert_eq!(b.fighter(1).presence, Presence::Dead);
}

// RULES: ATK-4, AREA-E6 — the planner's question "may it centre a circle here?" is the
// check's own: on every square of the map and beyond its edge, it agrees with whether the
// battle would preview (accept) a fireball centred there.
#[test]
fn atk_4_area_e6_may_centre_area_agrees_with_the_check() {
    let text = level(
        &[
            "WWWWWWWWWWWWWWWWWWWW",
            "W.......W..........W",
            "W.......W..........W",
            "W..................W",
            "WWWWWWWWWWWWWWWWWWWW",
        ],
        r#"(name: "Caster", template: "caster", side: "Blue", at: (1, 2), facing: E, overrides: (activeness: Some(10), spirit: Some(20))),
           (name: "Far", template: "human_fighter", side: "Red", at: (17, 2), facing: W, overrides: (activeness: Some(1)))"#,
        "",
    );
    let b = battle(&text, 12);
    assert_eq!(turn_of(&b), "Caster");
    let (mut yes, mut no) = (0, 0);
    for y in -1..=5 {
        for x in -1..=20 {
            let p = Pos::new(x, y);
            let cmd = Command::Attack { weapon: "fireball".into(), target: Target::Square(p), additives: vec![] };
            let may = b.may_centre_area(0, "fireball", p);
            assert_eq!(may, b.attack_preview(0, &cmd).is_ok(), "centred on {p}");
            if may { yes += 1 } else { no += 1 }
        }
    }
    // Both answers occur: behind the wall, beyond the range and off the map are refused.
    assert!(yes > 10 && no > 10, "{yes} allowed, {no} refused");
    assert!(!b.may_centre_area(0, "sword", Pos::new(2, 2)), "a weapon it does not carry");
    assert!(!b.may_centre_area(0, "fist", Pos::new(2, 2)), "not a circle");
}

// FLOW-3 with GEN-6's relations: a side hostile to nobody (a bystander, neutral to both sides
// of the fight) has no hostiles to defeat and does not win by "defeating" them; it won the
// moment the battle began, before anyone acted. The side left with no hostile standing wins.
#[test]
fn flow_3_a_bystander_does_not_win_by_having_no_foes() {
    let text = r#"(name: "Bystander", map: [".....", ".....", "....."],
        legend: { '.': "floor" }, terrains: { "floor": () },
        sides: [
            (name: "A", relations: { "C": Neutral }),
            (name: "B", relations: { "C": Neutral }),
            (name: "C", relations: { "A": Neutral, "B": Neutral }),
        ],
        creatures: [
            (name: "a", template: "human_fighter", side: "A", at: (0, 0), facing: E),
            (name: "b", template: "human_fighter", side: "B", at: (4, 0), facing: W),
            (name: "c", template: "grey_wolf", side: "C", at: (2, 2), facing: S),
        ],
        max_rounds: 10)"#;
    for seed in 1..=6 {
        let mut b = battle(text, seed);
        assert!(b.outcome().is_none(), "seed {seed}: the battle begins");
        meshal_tactics::ai::play_direct(&mut b, None, 100_000);
        let acted = b.log().iter().any(|e| matches!(e.event, Event::AttackDeclared { .. }));
        assert!(acted, "seed {seed}: the fight is fought");
        match b.outcome() {
            Some(Outcome::Victory { side, .. }) => assert_ne!(side, "C", "seed {seed}"),
            other => assert!(matches!(other, Some(Outcome::Draw { .. })), "seed {seed}: {other:?}"),
        }
    }
}
