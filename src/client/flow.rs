//! The battle screen's flow: the pause menu (P, or Esc with nothing to cancel: resume, restart,
//! the keys, back to the menu, quit), and on to the result screen once the battle is over.

use super::input::Choice;
use super::screens::{ACCENT, BattlePhase, DIM, OnBattleScreen, Screen, TEXT, button, clicked, font, shade_buttons};
use crate::battle::{ActiveBattle, BattleSystems};
use bevy::app::AppExit;
use bevy::prelude::*;

#[derive(Component, Clone, Copy, Debug, PartialEq)]
enum PauseAction {
    Resume,
    Restart,
    Menu,
    Quit,
}

/// Seconds the last blow stays on screen before the result.
const OUTCOME_PAUSE: f32 = 2.0;

/// `{Action}` names the key bound to it (`bindings::KeyNames`).
pub const KEYS: &str = "{Confirm} a square: move there ({Sprint}: sprint)   {Weapon1}-{Weapon6}: ready a weapon, {Confirm} a target\n\
{TurnLeft}/{TurnRight}: turn   {Stand}/{Crouch}/{Prone}: stand/crouch/prone   {Hide} hide   {Search} search   {Door} door   {Flee} flee\n\
{UseItem} use item   {PickUp} pick up   {GiveItem} give   {DropItem} drop   {Ready} ready the weapon for the first foe in reach   {Drag} drag a body to the pointer   {Lift} lift a body / put it down at the pointer   {Mount} mount / dismount at the pointer\n\
Arrows: grid cursor   Tab: next enemy   {ConfirmKey}: confirm at the cursor (else end turn)   {EndTurn}: end turn\n\
{Block}/{Dodge}/{Resist}: block/dodge/resist   {NoReaction}: take it   {Counter}: counter\n\
{PanUp}{PanLeft}{PanDown}{PanRight}: pan   wheel: zoom   V: whole map   L: camera follows the creature in turn (on/off)\n\
PageUp/PageDown, Home/End: scroll the log   {Help}: overlay help   {Reasons}: AI reasons   {Snapshot}: screenshot\n\
{ToggleReach}-{ToggleGrid}: reach / facing / threat / sight / fog / grid overlays   {ToggleAutoDefend}: auto-defend   {Additive}: power strike   {FastForward} (hold): hurry the AI   {Slower}/{Faster}: AI slower/faster\n\
P or Esc: pause   Ctrl+Q: quit";

pub fn plugin(app: &mut App) {
    app.add_systems(Update, (pause_keys.before(BattleSystems::Decide), to_result, keep_awake).in_set(OnBattleScreen))
        .add_systems(OnEnter(BattlePhase::Paused), show_pause)
        .add_systems(Update, (pause_input, shade_buttons).run_if(in_state(BattlePhase::Paused)));
}

fn pause_keys(
    keys: Res<ButtonInput<KeyCode>>,
    choice: Res<Choice>,
    phase: Res<State<BattlePhase>>,
    mut commands: Commands,
) {
    if *phase.get() != BattlePhase::Playing {
        return;
    }
    // Esc first puts a readied weapon away (the input's Cancel); with nothing to cancel, it pauses.
    if keys.just_pressed(KeyCode::KeyP) || (keys.just_pressed(KeyCode::Escape) && choice.weapon.is_none()) {
        commands.set_state(BattlePhase::Paused);
    }
}

/// Once the battle is over and its last blow has been seen, the result.
fn to_result(
    battle: Res<ActiveBattle>,
    time: Res<Time>,
    keys: Res<ButtonInput<KeyCode>>,
    mut shown: Local<f32>,
    mut commands: Commands,
) {
    if battle.is_added() {
        *shown = 0.0;
    }
    if battle.battle.outcome().is_none() {
        return;
    }
    *shown += time.delta_secs();
    if *shown >= OUTCOME_PAUSE || keys.any_just_pressed([KeyCode::Enter, KeyCode::Space]) {
        *shown = 0.0;
        commands.set_state(Screen::Result);
    }
}

/// The window sleeps until input (idle frames cost nothing); while someone other than the
/// player is to decide, or the outcome waits to be shown, it keeps drawing.
fn keep_awake(
    battle: Res<ActiveBattle>,
    viewer: Res<super::Viewer>,
    phase: Res<State<BattlePhase>>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    let b = &battle.battle;
    let waiting_for_player = viewer.plays && super::input::player_awaited(&battle, &viewer).is_some();
    if *phase.get() == BattlePhase::Playing
        && (b.outcome().is_some() || (b.awaiting().is_some() && !waiting_for_player))
    {
        redraw.write(bevy::window::RequestRedraw);
    }
}

fn show_pause(mut commands: Commands, keys: Res<super::bindings::KeyNames>) {
    commands
        .spawn((
            DespawnOnExit(BattlePhase::Paused),
            Node {
                position_type: PositionType::Absolute,
                width: percent(100),
                height: percent(100),
                justify_content: JustifyContent::Center,
                align_items: AlignItems::Center,
                ..default()
            },
            BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.7)),
            GlobalZIndex(100),
            ZIndex(100),
        ))
        .with_children(|c| {
            c.spawn((
                Node { flex_direction: FlexDirection::Column, padding: UiRect::all(px(24)), ..default() },
                BackgroundColor(Color::srgb(0.1, 0.11, 0.14)),
            ))
            .with_children(|p| {
                p.spawn((Text::new("Paused"), font(30.0), TextColor(ACCENT)));
                p.spawn(Node { margin: UiRect::vertical(px(10)), ..default() }).with_children(|row| {
                    row.spawn(button("Resume (Esc)", PauseAction::Resume, 17.0));
                    row.spawn(button("Restart, same seed (R)", PauseAction::Restart, 17.0));
                    row.spawn(button("Menu (M)", PauseAction::Menu, 17.0));
                    row.spawn(button("Quit (Ctrl+Q)", PauseAction::Quit, 17.0));
                });
                p.spawn((Text::new("Keys"), font(17.0), TextColor(TEXT)));
                p.spawn((Text::new(keys.fill(KEYS)), font(14.0), TextColor(DIM)));
                p.spawn((Text::new("The rules on the board"), font(17.0), TextColor(TEXT)));
                p.spawn((Text::new(super::hud::HELP.trim_start().replace('\n', " ")), font(13.0), TextColor(DIM)));
            });
        });
}

fn pause_input(
    keys: Res<ButtonInput<KeyCode>>,
    buttons: Query<(&Interaction, &PauseAction), Changed<Interaction>>,
    mut commands: Commands,
    mut exit: MessageWriter<AppExit>,
) {
    let mut actions = clicked(&buttons);
    if keys.any_just_pressed([KeyCode::Escape, KeyCode::KeyP]) {
        actions.push(PauseAction::Resume);
    } else if keys.just_pressed(KeyCode::KeyR) {
        actions.push(PauseAction::Restart);
    } else if keys.just_pressed(KeyCode::KeyM) {
        actions.push(PauseAction::Menu);
    }
    if let Some(a) = actions.first() {
        match a {
            PauseAction::Resume => commands.set_state(BattlePhase::Playing),
            PauseAction::Restart => commands.set_state(Screen::Battle),
            PauseAction::Menu => commands.set_state(Screen::Menu),
            PauseAction::Quit => {
                exit.write(AppExit::Success);
            }
        }
    }
}
