//! The player's devices end to end without a window: real key and mouse-button presses go
//! through leafwing-input-manager's input map to the client's input systems, which send
//! commands through the battle plugin. Keyboard alone and mouse alone (the cursor pinned on a
//! square stands for the pointer), for move, attack (walking into reach), area, defend and end
//! turn; the battle's log says what was accepted.

use super::input::Hover;
use super::screens::Screen;
use super::{Notice, Viewer};
use crate::battle::{ActiveBattle, Battle, Command, Controller, CreatureId, Event, Target};
use crate::level::{builtin_compendium, parse_level};
use crate::rules::grid::Pos;
use bevy::input::InputPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;

pub(super) fn app(level: &str, seed: u64) -> App {
    app_for(level, seed, &[])
}

/// As [`app`], with the sides a person plays (offered Expense of Fate, DICE-13).
fn app_for(level: &str, seed: u64, players: &[String]) -> App {
    let l = parse_level("play.level.ron", level, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
    let battle = Battle::with_players(&l, builtin_compendium(), seed, players).unwrap();
    let controllers = vec![Controller::Human, Controller::Ai];
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin))
        .add_message::<bevy::window::RequestRedraw>()
        .add_message::<bevy::window::CursorMoved>()
        .add_plugins((crate::battle::plugin, super::screens::plugin, super::input::plugin, super::fate::plugin))
        .init_resource::<Notice>()
        .init_resource::<super::overlay::Overlays>()
        .insert_resource(Viewer { side: 0, plays: true, omniscient: false })
        .insert_resource(ActiveBattle::new(battle, controllers))
        .insert_state(Screen::Battle);
    app.update();
    app
}

/// A key going down or up, as the window reports it (read by Bevy's input systems and
/// leafwing alike).
pub(super) fn key_message(k: KeyCode, state: bevy::input::ButtonState) -> bevy::input::keyboard::KeyboardInput {
    use bevy::input::keyboard::{Key, KeyboardInput, NativeKey};
    KeyboardInput {
        key_code: k,
        logical_key: Key::Unidentified(NativeKey::Unidentified),
        state,
        text: None,
        repeat: false,
        window: Entity::PLACEHOLDER,
    }
}

/// Press and release a key over two frames as the window would report it, then let the
/// battle settle.
pub(super) fn key(app: &mut App, k: KeyCode) {
    use bevy::input::ButtonState;
    for state in [ButtonState::Pressed, ButtonState::Released] {
        app.world_mut().write_message(key_message(k, state));
        app.update();
    }
    for _ in 0..4 {
        app.update();
    }
}

/// A left click with the pointer resting on `at`.
pub(super) fn click(app: &mut App, at: Pos) {
    *app.world_mut().resource_mut::<Hover>() = Hover { square: Some(at), pinned: true, keyboard: false };
    app.update();
    app.world_mut().resource_mut::<ButtonInput<MouseButton>>().press(MouseButton::Left);
    app.update();
    app.world_mut().resource_mut::<ButtonInput<MouseButton>>().release(MouseButton::Left);
    for _ in 0..6 {
        app.update();
    }
}

pub(super) fn accepted(app: &App, from: usize) -> Vec<(CreatureId, Command)> {
    app.world().resource::<ActiveBattle>().battle.log()[from..]
        .iter()
        .filter_map(|e| match &e.event {
            Event::CommandAccepted { creature, command } => Some((*creature, command.clone())),
            _ => None,
        })
        .collect()
}

pub(super) fn log_len(app: &App) -> usize {
    app.world().resource::<ActiveBattle>().battle.log().len()
}

pub(super) fn battle(app: &mut App) -> &mut Battle {
    &mut app.world_mut().resource_mut::<ActiveBattle>().into_inner().battle
}

pub(super) const FIELD: &str = r#"(name: "Play", map: ["WWWWWWWWWWWW", "W..........W", "W..........W", "W..........W", "WWWWWWWWWWWW"],
    legend: { '.': "floor", 'W': "wall" },
    terrains: { "floor": (), "wall": (blocks_movement: true, blocks_sight: true) },
    sides: [(name: "You", human: true), (name: "Foe")],
    creatures: [
        (name: "Knight", template: "human_fighter", side: "You", at: (1, 2), facing: E, overrides: (activeness: Some(10))),
        (name: "Foe", template: "human_fighter", side: "Foe", at: (8, 2), facing: W, overrides: (activeness: Some(1))),
    ])"#;

// RULES: MOVE-1, ATK-1, TIME-8 — keyboard alone: 1 readies the sword, Tab puts the cursor on
// the enemy, Enter walks into reach in two moves and strikes; Space ends the turn.
#[test]
fn keyboard_alone_walks_into_reach_strikes_and_ends_the_turn() {
    let mut app = app(FIELD, 1);
    assert_eq!(app.world().resource::<ActiveBattle>().battle.awaiting(), Some((0, None)));
    let from = log_len(&app);
    key(&mut app, KeyCode::Digit1);
    key(&mut app, KeyCode::Tab);
    assert_eq!(app.world().resource::<Hover>().square, Some(Pos::new(8, 2)), "the cursor on the foe");
    // A ready weapon attacks where it reaches; out of reach, Escape lowers it and Enter walks.
    key(&mut app, KeyCode::Escape);
    key(&mut app, KeyCode::Enter);
    let done = accepted(&app, from);
    let kinds: Vec<&str> = done
        .iter()
        .map(|(_, c)| match c {
            Command::Move { .. } => "move",
            Command::Attack { .. } => "attack",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["move", "move", "attack"], "{done:?}");
    assert!(done.iter().all(|(c, _)| *c == 0));
    // The foe's reactions answered, the turn is still the knight's: Space ends it.
    answer_foe(&mut app);
    assert_eq!(app.world().resource::<ActiveBattle>().battle.awaiting(), Some((0, None)));
    let from = log_len(&app);
    key(&mut app, KeyCode::Space);
    assert_eq!(accepted(&app, from), vec![(0, Command::EndTurn)]);
}

/// The foe is the AI's, absent here: its reaction windows are answered as it might (let it
/// come, take it), so the knight's turn goes on.
fn answer_foe(app: &mut App) {
    let b = battle(app);
    while let Some((1, Some(w))) = b.awaiting() {
        let cmd = match w {
            crate::battle::WindowKind::Defense => Command::Defend { defense: None },
            crate::battle::WindowKind::BeforeAttack | crate::battle::WindowKind::Fate => Command::Pass,
        };
        b.submit(1, cmd).unwrap();
    }
}

// RULES: MOVE-1, ATK-1 — mouse alone: a click on a square moves there; a click on the enemy
// out of reach walks up and strikes on arrival.
#[test]
fn mouse_alone_moves_and_walks_into_reach_to_strike() {
    let mut app = app(FIELD, 1);
    let from = log_len(&app);
    click(&mut app, Pos::new(4, 2));
    assert!(
        matches!(&accepted(&app, from)[..], [(0, Command::Move { path, .. })] if path.last() == Some(&Pos::new(4, 2))),
        "{:?}",
        accepted(&app, from)
    );
    let from = log_len(&app);
    click(&mut app, Pos::new(8, 2));
    answer_foe(&mut app);
    for _ in 0..4 {
        app.update();
    }
    let done = accepted(&app, from);
    assert!(
        matches!(done.first(), Some((0, Command::Move { path, .. })) if path.last() == Some(&Pos::new(7, 2))),
        "{done:?}"
    );
    assert!(
        done.iter().any(|(c, cmd)| *c == 0 && matches!(cmd, Command::Attack { target: Target::Creature(1), .. })),
        "{done:?} {}",
        app.world().resource::<Notice>().0
    );
}

/// `FIELD` with the foe beside the player's knight and acting first (to attack it).
pub(super) fn attacked_first() -> String {
    FIELD
        .replace(
            "at: (1, 2), facing: E, overrides: (activeness: Some(10))",
            "at: (7, 2), facing: E, overrides: (activeness: Some(1))",
        )
        .replace(
            "at: (8, 2), facing: W, overrides: (activeness: Some(1))",
            "at: (8, 2), facing: W, overrides: (activeness: Some(10))",
        )
}

// RULES: ATK-E3, TIME-13 — attacked, the player lets it come (N) and blocks (B): the keys are the
// input actions the action bar's buttons press.
#[test]
fn attacked_the_player_lets_it_come_and_blocks() {
    let level = attacked_first();
    let mut blocked = 0;
    for seed in 0..20 {
        let mut app = app(&level, seed);
        let b = battle(&mut app);
        assert_eq!(b.awaiting(), Some((1, None)), "the foe acts first");
        b.submit(1, Command::Attack { weapon: "sword".into(), target: Target::Creature(0), additives: vec![] })
            .unwrap();
        if b.awaiting() == Some((0, Some(crate::battle::WindowKind::BeforeAttack))) {
            let from = log_len(&app);
            key(&mut app, KeyCode::KeyN);
            assert!(accepted(&app, from).iter().any(|(c, cmd)| *c == 0 && *cmd == Command::Pass));
        }
        if battle(&mut app).awaiting() != Some((0, Some(crate::battle::WindowKind::Defense))) {
            continue; // the blow missed: no defense to make
        }
        let from = log_len(&app);
        key(&mut app, KeyCode::KeyB);
        let done = accepted(&app, from);
        assert!(
            done.iter()
                .any(|(c, cmd)| *c == 0
                    && *cmd == Command::Defend { defense: Some(crate::rules::attack::Defense::Block) }),
            "{done:?} {}",
            app.world().resource::<Notice>().0
        );
        blocked += 1;
    }
    assert!(blocked >= 3, "defense windows met and blocked: {blocked}");
}

// RULES: AREA-E1, ATK-E7 — an area by keyboard and mouse: 1 readies the fireball, a click on a
// square fires it there (its circle covering the foe beside it).
#[test]
fn an_area_is_fired_at_the_clicked_square() {
    let level = FIELD.replace(r#"template: "human_fighter", side: "You""#, r#"template: "caster", side: "You""#);
    let mut app = app(&level, 1);
    assert_eq!(app.world().resource::<ActiveBattle>().battle.awaiting(), Some((0, None)));
    key(&mut app, KeyCode::Digit1);
    let from = log_len(&app);
    click(&mut app, Pos::new(7, 2));
    let done = accepted(&app, from);
    assert!(
        matches!(&done[..], [(0, Command::Attack { weapon, target: Target::Square(p), .. })] if weapon == "fireball" && *p == Pos::new(7, 2)),
        "{done:?} {}",
        app.world().resource::<Notice>().0
    );
    let struck = app.world().resource::<ActiveBattle>().battle.log()[from..]
        .iter()
        .any(|e| matches!(&e.event, Event::AttackDeclared { targets, .. } if targets.contains(&1)));
    assert!(struck, "the circle covers the foe next to the square");
}

// RULES: TIME-14 — keyboard alone, answering an attack: Tab goes through the Quick Step squares
// (those that make the attack miss first) and Enter steps there.
#[test]
fn tab_and_enter_choose_a_quick_step() {
    let level = FIELD
        .replace(
            r#"template: "human_fighter", side: "You", at: (1, 2), facing: E, overrides: (activeness: Some(10))"#,
            r#"template: "human_duelist", side: "You", at: (7, 2), facing: E, overrides: (activeness: Some(1))"#,
        )
        .replace(
            "at: (8, 2), facing: W, overrides: (activeness: Some(1))",
            "at: (8, 2), facing: W, overrides: (activeness: Some(10))",
        );
    let mut app = app(&level, 1);
    let b = battle(&mut app);
    assert_eq!(b.awaiting(), Some((1, None)), "the foe acts first");
    b.submit(1, Command::Attack { weapon: "sword".into(), target: Target::Creature(0), additives: vec![] }).unwrap();
    assert_eq!(b.awaiting(), Some((0, Some(crate::battle::WindowKind::BeforeAttack))), "the duelist may Quick Step");
    let options = b.quick_step_options();
    assert!(!options.is_empty());
    key(&mut app, KeyCode::Tab);
    let at = app.world().resource::<Hover>().square.expect("the cursor on a step square");
    let chosen = options.iter().find(|o| o.to == at).expect("a Quick Step square");
    assert_eq!(chosen.cancels, options.iter().any(|o| o.cancels), "one that makes the attack miss, if any");
    let from = log_len(&app);
    key(&mut app, KeyCode::Enter);
    let done = accepted(&app, from);
    assert!(
        matches!(&done[..], [(0, Command::QuickStep { to, .. }), ..] if *to == at),
        "{done:?} {}",
        app.world().resource::<Notice>().0
    );
}

// RULES: TIME-16 — J declares the creature's additive ability (the fighter's Power Strike:
// +1 AP, +3 dice) with its next attack; the engine takes the attack with it.
#[test]
fn an_additive_is_declared_with_the_attack() {
    let level = FIELD.replace("at: (8, 2), facing: W", "at: (2, 2), facing: W");
    let mut app = app(&level, 1);
    assert_eq!(app.world().resource::<ActiveBattle>().battle.awaiting(), Some((0, None)));
    key(&mut app, KeyCode::KeyJ);
    let from = log_len(&app);
    click(&mut app, Pos::new(2, 2));
    let done = accepted(&app, from);
    assert!(
        matches!(&done[..], [(0, Command::Attack { additives, .. }), ..] if additives == &["power_strike".to_string()]),
        "{done:?} {}",
        app.world().resource::<Notice>().0
    );
    let ap = app.world().resource::<ActiveBattle>().battle.fighter(0).ap;
    assert_eq!(ap, 1, "the sword's 1 AP and the additive's 1");
}

// RULES: TIME-18 — the item keys: Y picks up the draught under the pointer, U drinks it
// (the knight is hurt), Delete drops nothing when nothing is carried; each as one command.
#[test]
fn item_keys_pick_up_and_use() {
    let level = FIELD.replace("creatures: [", r#"items: [(at: (2, 2), item: "healing_draught")], creatures: ["#);
    let mut app = app(&level, 1);
    assert_eq!(app.world().resource::<ActiveBattle>().battle.awaiting(), Some((0, None)));
    battle(&mut app).adjust_for_scenario(0, |f| {
        let _ = f.attrs.remove_dice(crate::rules::creature::Attribute::Might, 3);
    });
    *app.world_mut().resource_mut::<Hover>() = Hover { square: Some(Pos::new(2, 2)), pinned: true, keyboard: false };
    let from = log_len(&app);
    key(&mut app, KeyCode::KeyY);
    key(&mut app, KeyCode::KeyU);
    let item = "healing_draught".to_string();
    assert_eq!(
        accepted(&app, from),
        vec![(0, Command::PickUp { at: Pos::new(2, 2), item: item.clone() }), (0, Command::UseItem { item, on: None }),]
    );
    let from = log_len(&app);
    key(&mut app, KeyCode::Delete);
    assert!(accepted(&app, from).is_empty(), "nothing left to drop");
    assert!(app.world().resource::<Notice>().0.contains("nothing of the kind"));
}

// RULES: TIME-E10 — "." readies the weapon in hand for the first foe in reach.
#[test]
fn the_ready_key_readies_the_weapon_in_hand() {
    let mut app = app(FIELD, 1);
    let from = log_len(&app);
    key(&mut app, KeyCode::Digit1);
    key(&mut app, KeyCode::Period);
    let want = Command::Ready { weapon: "sword".into(), trigger: crate::battle::ReadyTrigger::InReach };
    assert_eq!(accepted(&app, from), vec![(0, want)]);
}

/// The knight's turn with its squire fallen at (1, 1), next to it: (app, knight, squire).
fn fallen_squire() -> (App, CreatureId, CreatureId) {
    let level = FIELD.replace(
        "creatures: [",
        r#"creatures: [(name: "Squire", template: "human_fighter", side: "You", at: (1, 1), facing: E),"#,
    );
    let mut app = app(&level, 1);
    let knight = battle(&mut app).creatures().iter().find(|c| c.name == "Knight").map(|c| c.id).unwrap();
    let squire = battle(&mut app).creatures().iter().find(|c| c.name == "Squire").map(|c| c.id).unwrap();
    assert_eq!(app.world().resource::<ActiveBattle>().battle.awaiting(), Some((knight, None)));
    battle(&mut app).adjust_for_scenario(squire, |f| {
        let _ = f.attrs.remove_dice(crate::rules::creature::Attribute::Might, 99);
    });
    (app, knight, squire)
}

// RULES: MOVE-13 — "," drags the fallen friend next to the knight to the square under the
// pointer, as one Drag command; with the pointer where no drag can end, nothing is sent.
#[test]
fn the_drag_key_pulls_a_fallen_friend_to_the_pointer() {
    let (mut app, knight, squire) = fallen_squire();
    *app.world_mut().resource_mut::<Hover>() = Hover { square: Some(Pos::new(9, 3)), pinned: true, keyboard: false };
    let from = log_len(&app);
    key(&mut app, KeyCode::Comma);
    assert!(accepted(&app, from).is_empty(), "too far to drag in one move");
    assert!(app.world().resource::<Notice>().0.contains("MOVE-13"));
    *app.world_mut().resource_mut::<Hover>() = Hover { square: Some(Pos::new(2, 2)), pinned: true, keyboard: false };
    key(&mut app, KeyCode::Comma);
    let path = vec![Pos::new(1, 2), Pos::new(2, 2)];
    assert_eq!(accepted(&app, from), vec![(knight, Command::Drag { creature: squire, path, face: None })]);
    let b = &app.world().resource::<ActiveBattle>().battle;
    assert_eq!(b.fighter(squire).origin, Pos::new(1, 2), "the squire lies where the knight stood");
}

// RULES: MOVE-13, MOVE-E7 — "/" lifts the fallen friend next to the knight (3 AP), and with
// the body carried and AP to spare, puts it down on the square under the pointer; the action
// bar names both.
#[test]
fn the_lift_key_lifts_a_fallen_friend_and_puts_it_down() {
    let (mut app, knight, squire) = fallen_squire();
    let b = &app.world().resource::<ActiveBattle>().battle;
    assert_eq!(
        super::items::lift_command(b, knight, None).map(|(_, label)| label).as_deref(),
        Some("Lift Squire (3 AP)")
    );
    let from = log_len(&app);
    key(&mut app, KeyCode::Slash);
    assert_eq!(accepted(&app, from), vec![(knight, Command::Lift { creature: squire })]);
    battle(&mut app).adjust_for_scenario(knight, |f| f.ap = 3);
    *app.world_mut().resource_mut::<Hover>() = Hover { square: Some(Pos::new(2, 3)), pinned: true, keyboard: false };
    let from = log_len(&app);
    key(&mut app, KeyCode::Slash);
    assert_eq!(accepted(&app, from), vec![(knight, Command::PutDown { at: Pos::new(2, 3) })]);
    let b = &app.world().resource::<ActiveBattle>().battle;
    assert_eq!(b.fighter(squire).origin, Pos::new(2, 3));
    let from = log_len(&app);
    key(&mut app, KeyCode::Slash);
    assert!(accepted(&app, from).is_empty(), "no AP left to lift it again");
    assert!(app.world().resource::<Notice>().0.contains("MOVE-13"));
}

// RULES: MOVE-14, MOVE-E8 — ";" mounts the horse next to the knight (1 AP) and, riding,
// dismounts onto the square under the pointer; the bar names both; the rider's square shows
// the rider, the horse's other squares the horse.
#[test]
fn the_mount_key_mounts_and_dismounts() {
    let level = FIELD.replace(
        "creatures: [",
        r#"creatures: [(name: "Mare", template: "warhorse", side: "You", at: (2, 2), facing: E),"#,
    );
    let mut app = app(&level, 1);
    let knight = battle(&mut app).creatures().iter().find(|c| c.name == "Knight").map(|c| c.id).unwrap();
    let mare = battle(&mut app).creatures().iter().find(|c| c.name == "Mare").map(|c| c.id).unwrap();
    assert_eq!(app.world().resource::<ActiveBattle>().battle.awaiting(), Some((knight, None)));
    let b = &app.world().resource::<ActiveBattle>().battle;
    assert_eq!(
        super::items::mount_command(b, knight, None).map(|(_, label)| label).as_deref(),
        Some("Mount Mare (1 AP)")
    );
    let from = log_len(&app);
    key(&mut app, KeyCode::Semicolon);
    assert_eq!(accepted(&app, from), vec![(knight, Command::Mount { mount: mare })]);
    let b = &app.world().resource::<ActiveBattle>().battle;
    let side = b.fighter(knight).side;
    assert_eq!(b.shown_creature_at(side, Pos::new(2, 2)).map(|f| f.id), Some(knight), "the rider on top");
    assert_eq!(b.shown_creature_at(side, Pos::new(3, 3)).map(|f| f.id), Some(mare));
    *app.world_mut().resource_mut::<Hover>() = Hover { square: Some(Pos::new(2, 1)), pinned: true, keyboard: false };
    let from = log_len(&app);
    key(&mut app, KeyCode::Semicolon);
    assert_eq!(accepted(&app, from), vec![(knight, Command::Dismount { to: Pos::new(2, 1) })]);
    assert_eq!(app.world().resource::<ActiveBattle>().battle.fighter(knight).origin, Pos::new(2, 1));
}

// RULES: DICE-13 — the player's Fate window by keys: the digit picks a die of the roll just
// made, Enter spends it (the command sets that die to 2), the prompt says what it changes; N
// keeps another roll as it fell.
#[test]
fn fate_keys_pick_a_die_spend_it_or_keep_the_roll() {
    let near = FIELD.replace("at: (8, 2), facing: W", "at: (2, 2), facing: W");
    let mut spent = false;
    let mut kept = false;
    for seed in 0..200 {
        let mut app = app_for(&near, seed, &["You".to_string()]);
        if battle(&mut app).awaiting() != Some((0, None)) {
            continue;
        }
        let sword = Command::Attack { weapon: "sword".into(), target: Target::Creature(1), additives: vec![] };
        battle(&mut app).submit(0, sword).unwrap();
        answer_foe(&mut app);
        app.update();
        let Some(w) = battle(&mut app).fate_window() else { continue };
        let prompt = super::fate::prompt(battle(&mut app), &super::fate::FateChoice::default()).unwrap();
        assert!(prompt.contains("Expense of Fate (DICE-13)") && prompt.contains("keep it"), "{prompt}");
        let from = log_len(&app);
        if !spent {
            let die = w.faces.iter().take(w.own).position(|&f| f != 2).unwrap();
            key(&mut app, [KeyCode::Digit1, KeyCode::Digit2, KeyCode::Digit3, KeyCode::Digit4][die]);
            let choice = app.world().resource::<super::fate::FateChoice>().clone();
            let shown = super::fate::prompt(battle(&mut app), &choice).unwrap();
            assert!(shown.contains(&format!("die {} to 2", die + 1)) && shown.contains("for 1 Might die"), "{shown}");
            key(&mut app, KeyCode::Enter);
            assert_eq!(accepted(&app, from), vec![(0, Command::Fate { set: vec![(die as u32, 2)] })]);
            assert_eq!(battle(&mut app).fighter(0).attrs.dice(crate::rules::creature::Attribute::Might), 3);
            spent = true;
        } else {
            key(&mut app, KeyCode::KeyN);
            assert_eq!(accepted(&app, from), vec![(0, Command::Pass)]);
            kept = true;
            break;
        }
    }
    assert!(spent && kept);
}

// RULES: DICE-13 — F9 turns the Fate prompts off: the window is answered at once by keeping the
// roll, and on again.
#[test]
fn f9_keeps_every_roll_without_asking() {
    let near = FIELD.replace("at: (8, 2), facing: W", "at: (2, 2), facing: W");
    let seed = (0..200)
        .find(|&s| {
            let mut app = app_for(&near, s, &["You".to_string()]);
            battle(&mut app).awaiting() == Some((0, None))
        })
        .unwrap();
    let mut app = app_for(&near, seed, &["You".to_string()]);
    key(&mut app, KeyCode::F9);
    assert!(app.world().resource::<super::fate::FateChoice>().keep_all);
    let mut windows = 0;
    for _ in 0..3 {
        let from = log_len(&app);
        let sword = Command::Attack { weapon: "sword".into(), target: Target::Creature(1), additives: vec![] };
        if battle(&mut app).check(0, &sword).is_err() {
            break;
        }
        battle(&mut app).submit(0, sword).unwrap();
        for _ in 0..6 {
            answer_foe(&mut app);
            app.update();
        }
        let b = battle(&mut app);
        assert_ne!(b.awaiting().map(|(_, w)| w), Some(Some(crate::battle::WindowKind::Fate)));
        windows += b.log()[from..]
            .iter()
            .filter(|e| matches!(e.event, Event::ReactionWindowOpened { kind: crate::battle::WindowKind::Fate, .. }))
            .count();
        assert!(!b.log()[from..].iter().any(|e| matches!(e.event, Event::FateSpent { .. })));
    }
    assert!(windows > 0, "some roll offered Fate and was kept");
}

// RULES: AREA-E5 — a curve by keys and mouse: 1 readies the fire serpent, B bends it at the
// square under the pointer, a click ends it there and fires through the bend; the orange
// template the window draws is the engine's squares for that curve.
#[test]
fn a_curve_is_bent_with_b_and_fired_with_a_click() {
    let level = r#"(name: "Curve", map: ["WWWWWWWWW", "W.......W", "W.......W", "W.WWWWW.W", "W.......W", "W.......W", "WWWWWWWWW"],
        legend: { '.': "floor", 'W': "wall" },
        terrains: { "floor": (), "wall": (blocks_movement: true, blocks_sight: true) },
        sides: [(name: "You", human: true), (name: "Foe")],
        creatures: [
            (name: "Mage", template: "serpent_mage", side: "You", at: (1, 1), facing: N, overrides: (activeness: Some(10))),
            (name: "Foe", template: "human_fighter", side: "Foe", at: (3, 5), facing: S, overrides: (activeness: Some(1))),
        ])"#;
    let mut app = app(level, 1);
    assert_eq!(battle(&mut app).awaiting(), Some((0, None)));
    key(&mut app, KeyCode::Digit1);
    *app.world_mut().resource_mut::<Hover>() = Hover { square: Some(Pos::new(1, 5)), pinned: true, keyboard: false };
    app.update();
    key(&mut app, KeyCode::KeyB);
    let notice = app.world().resource::<Notice>().0.clone();
    assert!(notice.contains("bend 1 at 1,5") && notice.contains("3 of 7 steps left"), "{notice}");
    let from = log_len(&app);
    // The foe round the wall is out of the mage's sight: a shot there covers nobody it sees,
    // so it fires on the second click (`guard_tests`).
    click(&mut app, Pos::new(3, 5));
    assert!(accepted(&app, from).is_empty(), "{}", app.world().resource::<Notice>().0);
    click(&mut app, Pos::new(3, 5));
    let curve = Command::Attack {
        weapon: "fire_serpent".into(),
        target: Target::Curve(vec![Pos::new(1, 5), Pos::new(3, 5)]),
        additives: vec![],
    };
    assert_eq!(accepted(&app, from), vec![(0, curve)]);
    // Spent: the next click aims straight again.
    let choice = app.world().resource::<super::input::Choice>().clone();
    assert!(choice.bends_now(battle(&mut app)).is_empty());
}

// RULES: ATK-4, PERC-3, MOVE-1 — Tab and Enter on a foe no walk of two moves brings into reach:
// refused, and the notice says walking will not do it this turn either (the refusal alone,
// "Foe is 28 steps away" or "does not itself perceive Foe", read as if the walk were not tried).
#[test]
fn an_enemy_out_of_reach_this_turn_is_refused_with_why() {
    let level = FIELD
        .replace("WWWWWWWWWWWW", "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWW")
        .replace("W..........W", "W............................W");
    let level = level.replace("at: (8, 2)", "at: (28, 2)");
    let mut app = app(&level, 1);
    assert_eq!(battle(&mut app).awaiting(), Some((0, None)));
    let from = log_len(&app);
    key(&mut app, KeyCode::Tab);
    assert_eq!(app.world().resource::<Hover>().square, Some(Pos::new(28, 2)), "the cursor on the foe");
    key(&mut app, KeyCode::Enter);
    assert!(accepted(&app, from).is_empty(), "nothing done");
    let notice = app.world().resource::<Notice>().0.clone();
    assert!(notice.starts_with("Refused: ") && notice.contains("(ATK-4)"), "{notice}");
    assert!(notice.ends_with("; no square within two moves lets Knight strike Foe this turn"), "{notice}");
}
