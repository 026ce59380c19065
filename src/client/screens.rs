//! The screens as Bevy `States`: the main menu, the battle (with a pause overlay as its
//! sub-state) and the result. Entities live as long as their screen (`DespawnOnExit`).
//!
//! The client says which battle to play (`CurrentSetup`); the app-assembly layer (`app.rs`)
//! builds it on entering the battle screen, in `BeginBattle`, with whoever plays each side.

use crate::battle::ActiveBattle;
use crate::level::LoadedLevel;
use bevy::app::AppExit;
use bevy::prelude::*;
use bevy::text::FontSize;

#[derive(States, Default, Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Screen {
    #[default]
    Menu,
    Battle,
    Result,
    /// The encounter editor (`client::editor`).
    Editor,
    /// The rules sandbox (`client::sandbox`).
    Sandbox,
    /// The replay viewer (`client::replay`).
    Replay,
}

/// Within the battle screen: playing, or paused with the pause menu open (nobody decides).
#[derive(SubStates, Default, Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[source(Screen = Screen::Battle)]
pub enum BattlePhase {
    #[default]
    Playing,
    Paused,
}

/// The battle to play when the battle screen is entered.
#[derive(Resource, Clone, Debug)]
pub struct CurrentSetup {
    pub level: LoadedLevel,
    pub seed: u64,
    /// The side the player commands; None = watch the AI play every side.
    pub player_side: Option<usize>,
    /// Watching: the side whose view is shown (None: everything, a GM's view).
    pub view_side: Option<usize>,
    /// For a picture: the creature whose turn the battle is advanced to, and the weapon it
    /// has ready (`--actor`, `--ready`).
    pub actor: Option<crate::battle::CreatureId>,
    pub ready: Option<String>,
    /// Per side, an AI profile overriding the creatures' own (None: their own).
    pub side_profiles: Vec<Option<String>>,
    /// A saved log to continue from (the battle is rebuilt by replaying it).
    pub resume: Option<std::sync::Arc<Vec<crate::battle::LogEntry>>>,
}

/// Where the battle is built, on entering the battle screen: the client's own setup of that
/// screen runs after it.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BeginBattle;

/// The battle screen's systems: they run while a battle is on screen.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub struct OnBattleScreen;

/// Where the menu finds its levels.
#[derive(Resource, Clone, Debug)]
pub struct LevelsDir(pub std::path::PathBuf);

pub fn plugin(app: &mut App) {
    app.init_state::<Screen>()
        .add_sub_state::<BattlePhase>()
        .configure_sets(
            Update,
            OnBattleScreen.run_if(in_state(Screen::Battle).and_then(resource_exists::<ActiveBattle>)),
        )
        .configure_sets(OnEnter(Screen::Battle), OnBattleScreen.after(BeginBattle))
        // Nobody decides while the game is paused.
        .configure_sets(Update, crate::battle::BattleSystems::Decide.run_if(in_state(BattlePhase::Playing)))
        .add_systems(Update, (quit_on_ctrl_q, settle_after_change, title_the_window))
        .add_systems(OnEnter(Screen::Menu), end_battle);
}

/// The window's title says the screen: the level in battle, and when its result is shown
/// (for the task bar, and for scripts driving the window).
fn title_the_window(
    screen: Res<State<Screen>>,
    battle: Option<Res<ActiveBattle>>,
    mut windows: Query<&mut Window, With<bevy::window::PrimaryWindow>>,
) {
    if !screen.is_changed() && !battle.as_ref().is_some_and(|b| b.is_added()) {
        return;
    }
    let Ok(mut window) = windows.single_mut() else { return };
    let level = battle.as_ref().map(|b| b.battle.level_name().to_string()).unwrap_or_default();
    let title = match screen.get() {
        Screen::Menu => "Meshal Tactics".to_string(),
        Screen::Battle => format!("Meshal Tactics - {level}"),
        Screen::Result => format!("Meshal Tactics - {level} - result"),
        Screen::Editor => "Meshal Tactics - editor".to_string(),
        Screen::Sandbox => "Meshal Tactics - rules sandbox".to_string(),
        Screen::Replay => "Meshal Tactics - replay".to_string(),
    };
    if window.title != title {
        window.title = title;
    }
}

/// Ctrl+Q quits from every screen (the window's close button too, by Bevy's default).
fn quit_on_ctrl_q(keys: Res<ButtonInput<KeyCode>>, mut exit: MessageWriter<AppExit>) {
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    if ctrl && keys.just_pressed(KeyCode::KeyQ) {
        exit.write(AppExit::Success);
    }
}

/// Frames drawn after a screen changes or an input arrives, so that what they set off (new
/// entities, text laid out, shading) is on screen before the window sleeps again.
const SETTLE_FRAMES: u32 = 6;

fn settle_after_change(
    screen: Res<State<Screen>>,
    phase: Option<Res<State<BattlePhase>>>,
    keys: Res<ButtonInput<KeyCode>>,
    mouse: Res<ButtonInput<MouseButton>>,
    mut left: Local<u32>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    let input = keys.get_just_pressed().next().is_some()
        || keys.get_just_released().next().is_some()
        || mouse.get_just_pressed().next().is_some()
        || mouse.get_just_released().next().is_some();
    if screen.is_changed() || phase.is_some_and(|p| p.is_changed()) || input {
        *left = SETTLE_FRAMES;
    }
    if *left > 0 {
        *left -= 1;
        redraw.write(bevy::window::RequestRedraw);
    }
}

/// Back at the menu, the battle is over and gone.
fn end_battle(world: &mut World) {
    crate::battle::end(world);
}

/// A font size.
pub fn font(px: f32) -> TextFont {
    TextFont { font_size: FontSize::Px(px), ..default() }
}

pub const TEXT: Color = Color::srgb(0.9, 0.9, 0.88);
pub const DIM: Color = Color::srgb(0.62, 0.64, 0.6);
pub const ACCENT: Color = Color::srgb(1.0, 0.85, 0.45);
const BUTTON: Color = Color::srgb(0.17, 0.19, 0.24);
const BUTTON_HOVER: Color = Color::srgb(0.26, 0.29, 0.36);
const BUTTON_ON: Color = Color::srgb(0.22, 0.36, 0.6);

/// A button that does `action` when clicked, labelled `label`.
pub fn button<A: Component>(label: impl Into<String>, action: A, px_size: f32) -> impl Bundle {
    (
        Button,
        action,
        Node {
            padding: UiRect::axes(px(12), px(6)),
            margin: UiRect::all(px(3)),
            justify_content: JustifyContent::Center,
            ..default()
        },
        BackgroundColor(BUTTON),
        children![(Text::new(label.into()), font(px_size), TextColor(TEXT))],
    )
}

/// Marks the button standing for the current choice.
#[derive(Component)]
pub struct Selected;

/// Buttons light up under the cursor; the selected one stays lit.
pub fn shade_buttons(mut buttons: Query<(&Interaction, &mut BackgroundColor, Has<Selected>), With<Button>>) {
    for (interaction, mut colour, selected) in &mut buttons {
        let c = match (interaction, selected) {
            (Interaction::Pressed | Interaction::Hovered, _) => BUTTON_HOVER,
            (_, true) => BUTTON_ON,
            _ => BUTTON,
        };
        colour.set_if_neq(BackgroundColor(c));
    }
}

/// The actions of buttons clicked this frame.
pub fn clicked<A: Component + Clone>(buttons: &Query<(&Interaction, &A), Changed<Interaction>>) -> Vec<A> {
    buttons.iter().filter(|(i, _)| **i == Interaction::Pressed).map(|(_, a)| a.clone()).collect()
}
