//! The action bar above "End turn": every action the creature in turn (or answering an
//! attack) may take, as a button with its hotkey and AP, so that the mouse alone plays a
//! battle. A click presses the same input action its key would, so a button and its key do
//! exactly the same thing (and the engine checks both alike).

use super::Viewer;
use super::input::{Choice, PlayerAction, WEAPON_KEYS, player_awaited};
use super::screens::{OnBattleScreen, Selected, button};
use crate::battle::{ActiveBattle, BattleSystems, Command, CreatureId, WindowKind};
use crate::rules::posture::Posture;
use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;

/// The container the buttons are put in (spawned with the HUD).
#[derive(Component)]
pub struct ActionBar;

#[derive(Component, Clone, Copy, Debug)]
struct ActionButton(PlayerAction);

/// What the bar was last built for: rebuilt only when this changes.
#[derive(PartialEq, Clone, Debug, Default)]
struct BuiltFor(Option<BarKey>);

/// The creature, its window, AP, posture, readied weapon and additives, and (in a window) the
/// log's length.
type BarKey = (CreatureId, Option<WindowKind>, i32, Posture, Option<String>, Vec<String>, usize, Vec<u32>);

pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            press_clicked.in_set(BattleSystems::Decide).before(super::input::track_hover),
            build_bar.after(BattleSystems::Publish),
        )
            .in_set(OnBattleScreen),
    );
}

fn press_clicked(
    buttons: Query<(&Interaction, &ActionButton), Changed<Interaction>>,
    mut actions: Query<&mut ActionState<PlayerAction>>,
) {
    let Ok(mut state) = actions.single_mut() else { return };
    for (interaction, ActionButton(action)) in &buttons {
        if *interaction == Interaction::Pressed {
            state.press(action);
        }
    }
}

#[allow(clippy::too_many_arguments)] // a Bevy system: one parameter per resource it reads
fn build_bar(
    mut commands: Commands,
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    choice: Res<Choice>,
    fate: Res<super::fate::FateChoice>,
    keys: Res<super::bindings::KeyNames>,
    bar: Query<(Entity, Option<&Children>), With<ActionBar>>,
    mut built: Local<BuiltFor>,
) {
    let Ok((bar, children)) = bar.single() else { return };
    let b = &battle.battle;
    let awaited = player_awaited(&battle, &viewer);
    // A turn's bar changes with AP, posture and the readied weapon; a window's with each
    // segment (the log's length stands for that).
    let key = BuiltFor(awaited.map(|(c, w)| {
        let f = b.fighter(c);
        let log = if w.is_some() { b.log().len() } else { 0 };
        let fate = fate.picked(b).to_vec();
        (c, w, f.ap, f.posture, choice.weapon.clone(), choice.additives.clone(), log, fate)
    }));
    if *built == key && children.is_some_and(|c| !c.is_empty()) == awaited.is_some() {
        return;
    }
    *built = key;
    commands.entity(bar).despawn_related::<Children>();
    let Some((me, window)) = awaited else { return };
    let f = b.fighter(me);
    let mut items: Vec<(String, PlayerAction, bool)> = Vec::new();
    match window {
        None => {
            for (k, w) in f.weapons.iter().enumerate().take(WEAPON_KEYS.len()) {
                let ready = choice.weapon.as_deref() == Some(w.key.as_str());
                let ap = if w.weapon.ap > f.ap { " - not enough AP" } else { "" };
                let key = keys.of(WEAPON_KEYS[k]);
                items.push((format!("{key} {} ({} AP){ap}", w.weapon.name, w.weapon.ap), WEAPON_KEYS[k], ready));
            }
            // MOVE-14: a rider changes posture only by getting off (its own button below).
            if b.ruleset().postures && b.mount_of(me).is_none() {
                for (name, key, posture) in [
                    ("Stand", PlayerAction::Stand, Posture::Standing),
                    ("Crouch", PlayerAction::Crouch, Posture::Crouch),
                    ("Prone", PlayerAction::Prone, Posture::Prone),
                ] {
                    if f.posture != posture {
                        items.push((format!("{name} ({})", keys.of(key)), key, false));
                    }
                }
            }
            if let Some((key, name)) = super::input::additive_of(f) {
                let on = choice.additives.contains(&key);
                let label = format!("{name} ({}){}", keys.of(PlayerAction::Additive), if on { ": on" } else { "" });
                items.push((label, PlayerAction::Additive, on));
            }
            // TIME-18: the item command each key would give now, named (none: no button).
            for key in [PlayerAction::UseItem, PlayerAction::PickUp, PlayerAction::GiveItem, PlayerAction::DropItem] {
                if let Some((_, label)) = super::items::command_for(key, b, me, None) {
                    items.push((format!("{label} ({})", keys.of(key)), key, false));
                }
            }
            // MOVE-13: a body next to it can be dragged; the pointer says where to.
            if let Some(&body) = super::items::draggable_bodies(b, me).first() {
                let label = format!("Drag {} to the pointer ({})", b.fighter(body).name, keys.of(PlayerAction::Drag));
                items.push((label, PlayerAction::Drag, false));
            }
            // MOVE-13 [Ext]: lift a body next to it, or put the carried one down; MOVE-E8: mount
            // or get off.
            if let Some((_, label)) = super::items::lift_command(b, me, None) {
                items.push((format!("{label} ({})", keys.of(PlayerAction::Lift)), PlayerAction::Lift, false));
            }
            if let Some((_, label)) = super::items::mount_command(b, me, None) {
                items.push((format!("{label} ({})", keys.of(PlayerAction::Mount)), PlayerAction::Mount, false));
            }
            if f.readied.is_none()
                && let Some((_, label)) = super::items::ready_command(b, me, choice.weapon.as_deref())
            {
                items.push((format!("{label} ({})", keys.of(PlayerAction::Ready)), PlayerAction::Ready, false));
            }
            items.push((format!("Hide ({})", keys.of(PlayerAction::Hide)), PlayerAction::Hide, false));
            // 001's Spot (the ruleset's hiding switch) replaces the search of a place on its key.
            if b.check(me, &Command::Spot).is_ok() {
                items.push((format!("Spot ({})", keys.of(PlayerAction::Search)), PlayerAction::Search, false));
            }
            items.push((format!("Flee ({})", keys.of(PlayerAction::Flee)), PlayerAction::Flee, false));
        }
        Some(WindowKind::Defense) => {
            if let Some(w) = b.window_preview() {
                for d in w.attack.defenses.iter().filter(|d| d.allowed.is_ok()) {
                    let (name, key) = match d.defense {
                        crate::rules::attack::Defense::Block => ("Block", PlayerAction::Block),
                        crate::rules::attack::Defense::Dodge => ("Dodge", PlayerAction::Dodge),
                        crate::rules::attack::Defense::Resist => ("Resist", PlayerAction::Resist),
                    };
                    items.push((format!("{name} ({}): {} dice, {} AP", keys.of(key), d.dice, d.ap), key, false));
                }
            }
            items.push((format!("Take it ({})", keys.of(PlayerAction::NoReaction)), PlayerAction::NoReaction, false));
        }
        Some(WindowKind::BeforeAttack) => {
            if f.counter_attack_ap().is_some() {
                items.push((
                    format!("Counter-attack ({})", keys.of(PlayerAction::Counter)),
                    PlayerAction::Counter,
                    false,
                ));
            }
            items.push((
                format!("Let it come ({})", keys.of(PlayerAction::NoReaction)),
                PlayerAction::NoReaction,
                false,
            ));
        }
        Some(WindowKind::Fate) => items = super::fate::bar_items(b, &fate, &keys),
    }
    commands.entity(bar).with_children(|c| {
        for (label, action, selected) in items {
            let mut e = c.spawn(button(label, ActionButton(action), 13.0));
            // A long label ("Ready Mind lash (2 AP when it fires)") wraps inside the panel
            // rather than stick out of it over the map; the buttons are a little tighter than
            // the menus' so that two fit a row.
            e.entry::<Node>().and_modify(|mut n| {
                n.max_width = percent(100);
                n.padding = UiRect::axes(px(8), px(5));
                n.margin = UiRect::all(px(2));
            });
            if selected {
                e.insert(Selected);
            }
        }
    });
}
