//! The battle as a Bevy plugin under MinimalPlugins: messages in, messages out, entities that
//! mirror the state, and a human side that makes the battle wait.

use bevy::prelude::*;
use meshal_tactics::app::headless_app;
use meshal_tactics::battle::*;
use meshal_tactics::battle::{Command, Event, OnGrid};
use meshal_tactics::level::{builtin_compendium, parse_level};
use meshal_tactics::rules::facing::Facing;

#[derive(Resource, Default)]
struct Seen(Vec<LogEntry>);

mod common;
use common::SHIPPED;

fn collect(mut seen: ResMut<Seen>, mut events: MessageReader<BattleEvent>) {
    seen.0.extend(events.read().map(|e| e.0.clone()));
}

fn app(human_side: Option<usize>) -> App {
    let level = parse_level("duel", include_str!("../levels/duel.level.ron"), builtin_compendium()).unwrap();
    let battle = Battle::new(&level, builtin_compendium(), 21).unwrap();
    let mut controllers = vec![Controller::Ai; battle.sides().len()];
    if let Some(s) = human_side {
        controllers[s] = Controller::Human;
    }
    let mut app = headless_app(ActiveBattle::new(battle, controllers));
    app.init_resource::<Seen>().add_systems(Update, collect.after(BattleSystems::Publish));
    app
}

// RULES: TIME-7 — a creature whose side has a human player waits for input; the AI answers for
// the others (their turns and reaction windows).
#[test]
fn a_human_side_waits_and_commands_arrive_as_messages() {
    let mut app = app(Some(0));
    run_until_input(&mut app, 10_000);
    let (creature, window) = {
        let b = app.world().resource::<ActiveBattle>();
        assert!(b.battle.outcome().is_none());
        b.awaiting_from(Controller::Human).expect("waiting for the human")
    };
    assert_eq!(app.world().resource::<ActiveBattle>().battle.fighter(creature).side, 0);
    // Nothing moves while the human thinks.
    let len = app.world().resource::<ActiveBattle>().battle.log().len();
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(app.world().resource::<ActiveBattle>().battle.log().len(), len);
    // Answer through the message, exactly as the client will.
    let command = match window {
        None => Command::Face { facing: Facing::S },
        Some(_) => Command::Pass,
    };
    app.world_mut().write_message(IssueCommand { creature, command: command.clone() });
    app.update();
    let b = app.world().resource::<ActiveBattle>();
    assert!(matches!(&b.battle.log()[len].event, Event::CommandAccepted { command: c, .. } if *c == command));
    // Every log entry went out as a BattleEvent message, in order.
    let seen = &app.world().resource::<Seen>().0;
    assert_eq!(seen.len(), b.battle.log().len());
    assert!(seen.iter().zip(b.battle.log()).all(|(a, b)| a == b));
}

// A headless battle keeps only the last two frames' messages, not every event of the battle
// (its frames skip the fixed-timestep pass the time plugin waits for before turning buffers).
#[test]
fn a_headless_battle_does_not_keep_its_old_messages() {
    let mut app = app(None);
    run_until_input(&mut app, 100_000);
    let log = app.world().resource::<ActiveBattle>().battle.log().len();
    let kept = app.world().resource::<Messages<BattleEvent>>().len();
    assert!(log > 100, "a whole battle: {log} events");
    assert!(kept * 10 < log, "{kept} of {log} events still buffered");
}

#[test]
fn entities_mirror_the_battle() {
    let mut app = app(None);
    run_until_input(&mut app, 100_000);
    let b = app.world().resource::<ActiveBattle>().battle.clone();
    assert!(b.outcome().is_some(), "AI against AI plays to the end");
    let mut q = app.world_mut().query::<(&CreatureToken, &OnGrid, &Heading, &Stance, &Vitals)>();
    let mut n = 0;
    for (token, place, heading, stance, vitals) in q.iter(app.world()) {
        let f = b.fighter(token.id);
        assert_eq!(place.origin, f.origin);
        assert_eq!(heading.0, f.facing);
        assert_eq!(stance.0, f.posture);
        assert_eq!(vitals.attrs, f.attrs);
        assert_eq!(vitals.presence, f.presence);
        n += 1;
    }
    assert_eq!(n, b.creatures().len());
    assert_eq!(app.world().resource::<Rejections>().ai, 0, "the AI never issues a rejected command");
}

/// What each side knows of the others, tracked only from its own view of the log.
struct Views {
    known: Vec<std::collections::BTreeSet<CreatureId>>,
    read: usize,
}

impl Views {
    /// Read the new entries; every one a side may see names only creatures it knows of.
    fn follow(&mut self, b: &Battle, context: &str) {
        for e in &b.log()[self.read..] {
            for (s, side) in b.sides().iter().enumerate() {
                if !e.visible_to.contains(&side.name) {
                    continue;
                }
                if let Event::Spotted { side: who, creature } = &e.event
                    && *who == side.name
                {
                    assert!(self.known[s].insert(*creature), "{context}: {} spotted twice: {e:?}", side.name);
                }
                for c in e.event.creatures() {
                    if b.fighter(c).side != s {
                        assert!(
                            self.known[s].contains(&c),
                            "{context}: {}'s view names {} while it does not perceive it: {e:?}",
                            side.name,
                            b.fighter(c).name
                        );
                    }
                }
                if let Event::LostSight { side: who, creature } = &e.event
                    && *who == side.name
                {
                    self.known[s].remove(creature);
                }
            }
        }
        self.read = b.log().len();
    }
}

// RULES: PERC-3, PERC-E2, DICE-11 — a side never learns what it does not perceive. Over many
// seeds on every shipped level, each side's view of the log is read in order, tracking whom it
// perceives from its own Spotted / LostSight entries only: no entry it may see names a creature
// of another side it does not perceive (initiative, turn order, joins, attacks from the
// unseen, stretches of moves out of sight…), and after every command what it has been told is
// exactly what the engine says it perceives. (This replaces a test that checked `visible_to`
// on a log already filtered by `visible_to`, which could not fail.)
#[test]
fn a_side_never_learns_what_it_does_not_perceive() {
    for (name, text) in SHIPPED {
        let level = parse_level(name, text, builtin_compendium()).unwrap();
        for seed in 0..30 {
            let mut b = Battle::new(&level, builtin_compendium(), seed).unwrap();
            let mut views = Views { known: vec![Default::default(); b.sides().len()], read: 0 };
            let context = format!("{name} seed {seed}");
            views.follow(&b, &context);
            for _ in 0..50_000 {
                let Some((c, w)) = b.awaiting() else { break };
                let command = meshal_tactics::ai::decide(&b, c, w);
                b.submit(c, command).unwrap();
                views.follow(&b, &context);
                for s in 0..b.sides().len() {
                    let truth: std::collections::BTreeSet<CreatureId> = b
                        .creatures()
                        .iter()
                        .filter(|o| o.side != s && b.side_perceives(s, o.id))
                        .map(|o| o.id)
                        .collect();
                    if views.known[s] != truth {
                        let recent: Vec<String> = b.log()[b.log().len().saturating_sub(12)..]
                            .iter()
                            .map(|e| format!("{:?} {:?}", e.visible_to, e.event))
                            .collect();
                        panic!(
                            "{context}: side {s} was told {:?}, perceives {:?}; last entries:\n{}",
                            views.known[s],
                            truth,
                            recent.join("\n")
                        );
                    }
                }
            }
            assert!(b.outcome().is_some(), "{context} finishes");
            // Secret rolls (searches, DICE-E1) only ever go to the searcher's side.
            for e in b.log() {
                if let Event::Searched { creature, .. } = e.event {
                    assert_eq!(e.visible_to, [b.sides()[b.fighter(creature).side].name.clone()]);
                }
            }
        }
    }
}

// RULES: PERC-E2, PERC-E5, PERC-6 (hearing: nothing between may block the sound) — a move out
// of sight and out of earshot is in the mover's side's log
// only; the other side's log shows where it lost sight, nothing more.
#[test]
fn a_move_behind_a_wall_far_away_is_private() {
    let text = r#"(
        name: "Private",
        map: [
            "WWWWWWWWWWWWWWWWWWWWWWWWW",
            "W.......................W",
            "W.WWWWWWWWWWWWWWWWWWWWW.W",
            "W.......................W",
            "WWWWWWWWWWWWWWWWWWWWWWWWW",
        ],
        legend: { '.': "floor", 'W': "wall" },
        terrains: { "floor": (), "wall": (blocks_movement: true, blocks_sight: true) },
        sides: [(name: "Blue"), (name: "Red")],
        creatures: [
            (name: "Mover", template: "human_fighter", side: "Blue", at: (3, 1), facing: E, overrides: (activeness: Some(10))),
            (name: "Watcher", template: "human_fighter", side: "Red", at: (22, 3), facing: W, overrides: (activeness: Some(1))),
        ],
    )"#;
    let level = parse_level("private", text, builtin_compendium()).unwrap();
    let mut b = Battle::new(&level, builtin_compendium(), 1).unwrap();
    assert!(!b.perceives(1, 0));
    let mark = b.log().len();
    let path = vec![
        meshal_tactics::rules::grid::Pos::new(3, 1),
        meshal_tactics::rules::grid::Pos::new(4, 1),
        meshal_tactics::rules::grid::Pos::new(5, 1),
    ];
    b.submit(0, Command::Move { path, sprint: false, face: None }).unwrap();
    let moved = b.log()[mark..].iter().find(|e| matches!(e.event, Event::Moved { .. })).unwrap();
    assert_eq!(moved.visible_to, ["Blue"]);
    assert_eq!(b.log_for_side("Red").filter(|e| matches!(e.event, Event::Moved { .. })).count(), 0);
}

// A creature whose level entry names a human controller waits for input even on an AI side.
#[test]
fn a_single_human_creature_on_an_ai_side_waits() {
    let text = include_str!("../levels/duel.level.ron")
        .replace(r#"(name: "Blue Duelist", template: "human_duelist", side: "Blue", at: (2, 3), facing: E)"#,
                 r#"(name: "Blue Duelist", template: "human_duelist", side: "Blue", at: (2, 3), facing: E, controller: Some(Human))"#);
    assert!(text.contains("controller: Some(Human)"));
    let level = parse_level("duel", &text, builtin_compendium()).unwrap();
    let battle = Battle::new(&level, builtin_compendium(), 21).unwrap();
    let controllers = ActiveBattle::default_controllers(&battle);
    assert_eq!(controllers, [Controller::Ai, Controller::Ai]);
    let mut app = headless_app(ActiveBattle::new(battle, controllers));
    run_until_input(&mut app, 10_000);
    let b = app.world().resource::<ActiveBattle>();
    let (c, _) = b.awaiting_from(Controller::Human).expect("waits for the human duelist");
    assert_eq!(b.battle.fighter(c).name, "Blue Duelist");
}

// A script entry that can never run (its actor is down or gone) is reported and skipped; the
// rest of its side's script goes on instead of waiting behind it forever.
#[test]
fn a_script_entry_for_a_fallen_actor_is_reported_and_skipped() {
    use meshal_tactics::battle::script::parse_script;
    let level = parse_level("duel", include_str!("../levels/duel.level.ron"), builtin_compendium()).unwrap();
    let mut battle = Battle::new(&level, builtin_compendium(), 21).unwrap();
    let duelist = battle.find("Blue Duelist").unwrap();
    battle.adjust_for_scenario(duelist, |f| f.presence = Presence::Dead);
    let script = parse_script(
        "s.ron",
        r#"[
            (actor: "Blue Duelist", command: Face(facing: N)),
            (actor: "Blue Fighter", command: Face(facing: S)),
        ]"#,
        &battle,
    )
    .unwrap();
    let mut controllers = ActiveBattle::default_controllers(&battle);
    controllers[0] = Controller::Script;
    let mut app = headless_app(ActiveBattle::new(battle, controllers));
    app.insert_resource(script);
    run_until_input(&mut app, 100_000);
    let s = app.world().resource::<meshal_tactics::battle::script::CommandScript>();
    assert_eq!(s.skipped.len(), 1, "{:?}", s.skipped);
    assert!(s.skipped[0].starts_with("script entry 1 (Blue Duelist: Face"), "{}", s.skipped[0]);
    assert!(s.skipped[0].ends_with("Blue Duelist is gone from the battle"), "{}", s.skipped[0]);
    let b = &app.world().resource::<ActiveBattle>().battle;
    let fighter = b.find("Blue Fighter").unwrap();
    assert!(
        b.log().iter().any(|e| matches!(&e.event, Event::CommandAccepted { creature, command: Command::Face { facing: Facing::S } } if *creature == fighter)),
        "the Blue Fighter's entry ran"
    );
}

// The result screen's tally: every die of damage a creature took in an attack is counted once as
// taken and once as dealt by the attacker that struck it; a sprint's Activeness die (MOVE-E2,
// right after its move) is a cost, not damage.
// On the skirmish, what one side glimpsed of a blow (a partial entry) is not counted again, and
// a counter-attack's damage is the counter-attacker's.
#[test]
fn the_damage_tally_credits_every_die_to_its_attacker() {
    use meshal_tactics::battle::Event;
    let levels = [
        ("duel", include_str!("../levels/duel.level.ron")),
        ("skirmish", include_str!("../levels/skirmish.level.ron")),
    ];
    for (name, text) in levels {
        for seed in 1..=20 {
            let l =
                meshal_tactics::level::parse_level(name, text, meshal_tactics::level::builtin_compendium()).unwrap();
            let mut b =
                meshal_tactics::battle::Battle::new(&l, meshal_tactics::level::builtin_compendium(), seed).unwrap();
            meshal_tactics::ai::play_direct(&mut b, None, 100_000);
            let log = b.log();
            let whole: Vec<_> = log.iter().filter(|e| !e.partial).collect();
            // A sprint's cost follows its move (perception news, and the stop it may cause, may
            // come between).
            let after_sprint = |i: usize| {
                whole[..i]
                    .iter()
                    .rev()
                    .find(|e| {
                        !matches!(
                            e.event,
                            Event::Spotted { .. } | Event::LostSight { .. } | Event::MoveInterrupted { .. }
                        )
                    })
                    .is_some_and(|e| matches!(e.event, Event::Moved { sprint: true, .. }))
            };
            let damaged: i32 = (0..whole.len())
                .map(|i| match whole[i].event {
                    Event::Damaged { dice, .. } if !after_sprint(i) => dice,
                    _ => 0,
                })
                .sum();
            let tally = b.damage_tally();
            assert!(damaged > 0, "{name} seed {seed}: someone was hurt");
            assert_eq!(tally.iter().map(|t| t.1).sum::<i32>(), damaged, "{name} seed {seed}: taken");
            assert_eq!(tally.iter().map(|t| t.0).sum::<i32>(), damaged, "{name} seed {seed}: dealt");
            if name != "duel" {
                continue;
            }
            // Nobody is credited with damage to its own side here: the duel has no areas.
            for (c, (dealt, _)) in tally.iter().enumerate() {
                let side = b.fighter(c as u32).side;
                let hurt_foes: i32 =
                    tally.iter().enumerate().filter(|(o, _)| b.fighter(*o as u32).side != side).map(|(_, t)| t.1).sum();
                assert!(*dealt <= hurt_foes, "seed {seed}: {} dealt {dealt}", b.fighter(c as u32).name);
            }
        }
    }
}

/// A battle of the AI alone played frame by frame: decided in the frame without a pace (as in
/// `sim`), or paced as in the window, thinking aside on a worker thread or not. With `swap`, the
/// first frame asks about another battle (the duel), whose answer must never reach this one.
fn ai_battle_log(level: &str, text: &str, pace: Option<bool>, swap: bool) -> Vec<LogEntry> {
    let level = parse_level(level, text, builtin_compendium()).unwrap();
    let battle = Battle::new(&level, builtin_compendium(), 21).unwrap();
    let controllers = vec![Controller::Ai; battle.sides().len()];
    let start = if swap {
        let duel = parse_level("duel", include_str!("../levels/duel.level.ron"), builtin_compendium()).unwrap();
        Battle::new(&duel, builtin_compendium(), 21).unwrap()
    } else {
        battle.clone()
    };
    let mut app = headless_app(ActiveBattle::new(start.clone(), vec![Controller::Ai; start.sides().len()]));
    if let Some(aside) = pace {
        app.insert_resource(meshal_tactics::ai::AiPace::new(0.0, aside));
    }
    if swap {
        // The pace holds the answer back while the window shows the last events (thought out
        // or not, it is not issued); meanwhile the player starts another battle.
        app.world_mut().resource_mut::<meshal_tactics::ai::AiPace>().held = true;
        app.update();
        app.insert_resource(ActiveBattle::new(battle, controllers));
        app.world_mut().resource_mut::<meshal_tactics::ai::AiPace>().held = false;
    }
    for _ in 0..2_000_000 {
        app.update();
        if app.world().resource::<ActiveBattle>().battle.outcome().is_some() {
            break;
        }
    }
    let b = &app.world().resource::<ActiveBattle>().battle;
    assert!(b.outcome().is_some(), "the battle ended");
    // A command meant for the other battle would have been refused here, leaving no event.
    assert_eq!(app.world().resource::<Rejections>().ai, 0, "no AI command refused");
    assert_eq!(app.world().resource::<meshal_tactics::ai::AiFallbacks>().count, 0);
    b.log().to_vec()
}

// In the window the AI thinks on a worker thread (`ai::Thinking`) so the screen keeps drawing:
// the battle it plays is the one it plays deciding in the frame, event by event, and an answer
// to a battle the player has left is dropped, never issued to the next one.
#[test]
fn the_ai_thinking_aside_plays_the_same_battle() {
    let text = include_str!("../levels/open_field.level.ron");
    let in_frame = ai_battle_log("open_field", text, None, false);
    assert_eq!(ai_battle_log("open_field", text, Some(false), false), in_frame, "paced, in the frame");
    assert_eq!(ai_battle_log("open_field", text, Some(true), false), in_frame, "paced, aside");
    assert_eq!(ai_battle_log("open_field", text, Some(true), true), in_frame, "aside, after another battle's question");
}
