//! The result screen: who won and why, the rounds, every creature's damage dealt and taken and
//! whether it is down; play again with the same or a new seed, save the log (`replay` plays it
//! back), back to the menu, quit. The battle is over, so this debrief shows the whole log.

use super::screens::{ACCENT, CurrentSetup, DIM, Screen, TEXT, button, clicked, font, shade_buttons};
use crate::battle::{ActiveBattle, Outcome, Presence};
use bevy::app::AppExit;
use bevy::prelude::*;

#[derive(Component, Clone, Copy, Debug, PartialEq)]
enum ResultAction {
    Again,
    NewSeed,
    SaveLog,
    Menu,
    Quit,
}

/// A line under the buttons: where the log was saved, or why not.
#[derive(Component)]
struct SavedNote;

pub fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Result), show_result).add_systems(
        Update,
        (result_keys, result_clicks, shade_buttons)
            .run_if(in_state(Screen::Result).and_then(resource_exists::<ActiveBattle>)),
    );
}

fn state_of(f: &crate::battle::Fighter) -> &'static str {
    match f.presence {
        Presence::Dead => "dead",
        Presence::Fled => "fled",
        Presence::Carried(_) => "carried",
        Presence::Waiting(_) => "never came",
        Presence::Active if f.attrs.is_unconscious() => "down",
        Presence::Active => "standing",
    }
}

fn show_result(mut commands: Commands, battle: Res<ActiveBattle>) {
    let b = &battle.battle;
    let (title, why) = match b.outcome() {
        Some(Outcome::Victory { side, reason }) => (format!("{side} wins"), reason.clone()),
        Some(Outcome::Draw { reason }) => ("Draw".to_string(), reason.clone()),
        None => ("Battle left unfinished".to_string(), String::new()),
    };
    let tally = b.damage_tally();
    commands
        .spawn((
            DespawnOnExit(Screen::Result),
            Node {
                width: percent(100),
                height: percent(100),
                flex_direction: FlexDirection::Column,
                padding: UiRect::all(px(28)),
                ..default()
            },
            BackgroundColor(Color::srgb(0.07, 0.08, 0.1)),
        ))
        .with_children(|c| {
            c.spawn((Text::new(title), font(34.0), TextColor(ACCENT)));
            c.spawn((Text::new(why), font(16.0), TextColor(TEXT)));
            c.spawn((
                Text::new(format!(
                    "{} (seed {}), {} round{}",
                    b.level_name(),
                    b.seed(),
                    b.round(),
                    if b.round() == 1 { "" } else { "s" }
                )),
                font(14.0),
                TextColor(DIM),
                Node { margin: UiRect::bottom(px(14)), ..default() },
            ));
            c.spawn(Node {
                display: Display::Grid,
                grid_template_columns: vec![
                    GridTrack::px(220.0),
                    GridTrack::px(140.0),
                    GridTrack::px(120.0),
                    GridTrack::px(130.0),
                    GridTrack::px(130.0),
                ],
                row_gap: px(3),
                ..default()
            })
            .with_children(|g| {
                // Damage counts the pool dice lost (CRE-6), not points.
                for head in ["Creature", "Side", "State", "Dice dealt", "Dice taken"] {
                    g.spawn((Text::new(head), font(15.0), TextColor(ACCENT)));
                }
                for f in b.creatures() {
                    let (dealt, taken) = tally[f.id as usize];
                    let colour = if f.can_act() { TEXT } else { DIM };
                    for cell in [
                        f.name.clone(),
                        b.sides()[f.side].name.clone(),
                        state_of(f).to_string(),
                        dealt.to_string(),
                        taken.to_string(),
                    ] {
                        g.spawn((Text::new(cell), font(14.0), TextColor(colour)));
                    }
                }
            });
            c.spawn(Node { margin: UiRect::top(px(20)), flex_wrap: FlexWrap::Wrap, ..default() }).with_children(
                |row| {
                    row.spawn(button("Play again, same seed (Enter)", ResultAction::Again, 17.0));
                    row.spawn(button("New seed (N)", ResultAction::NewSeed, 17.0));
                    row.spawn(button("Save the log (S)", ResultAction::SaveLog, 17.0));
                    row.spawn(button("Menu (M)", ResultAction::Menu, 17.0));
                    row.spawn(button("Quit (Ctrl+Q)", ResultAction::Quit, 17.0));
                },
            );
            c.spawn((Text::new(""), font(14.0), TextColor(DIM), SavedNote));
        });
}

fn apply(
    action: ResultAction,
    battle: &ActiveBattle,
    commands: &mut Commands,
    exit: &mut MessageWriter<AppExit>,
    note: &mut Query<&mut Text, With<SavedNote>>,
) {
    match action {
        ResultAction::Again => commands.set_state(Screen::Battle),
        ResultAction::NewSeed => {
            let seed =
                battle.battle.seed().wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407) % 100_000 + 1;
            commands.queue(move |world: &mut World| {
                if let Some(mut s) = world.get_resource_mut::<CurrentSetup>() {
                    s.seed = seed;
                }
            });
            commands.set_state(Screen::Battle);
        }
        ResultAction::SaveLog => {
            let b = &battle.battle;
            let stem: String = b
                .level_name()
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' })
                .collect();
            let path = (0..)
                .map(|k| std::path::PathBuf::from(format!("meshal-{stem}-seed{}-{k}.log.jsonl", b.seed())))
                .find(|p| !p.exists())
                .unwrap_or_default();
            let mut text = String::new();
            for e in b.log() {
                text.push_str(&serde_json::to_string(e).unwrap_or_default());
                text.push('\n');
            }
            let said = match crate::files::write_atomically(&path, text.as_bytes()) {
                Ok(()) => format!("log saved to {} (meshal-tactics replay {0})", path.display()),
                Err(e) => format!("the log could not be saved: {e}"),
            };
            for mut t in note.iter_mut() {
                t.0 = said.clone();
            }
        }
        ResultAction::Menu => commands.set_state(Screen::Menu),
        ResultAction::Quit => {
            exit.write(AppExit::Success);
        }
    }
}

/// Keys pressed in the first moments of the result screen are ignored: a player still pressing
/// keys for the last turn must not skip the debrief by accident.
const KEY_GRACE_SECONDS: f64 = 0.75;

#[allow(clippy::too_many_arguments)] // a Bevy system: one parameter per resource it uses
fn result_keys(
    keys: Res<ButtonInput<KeyCode>>,
    battle: Res<ActiveBattle>,
    time: Res<Time<Real>>,
    screen: Res<State<Screen>>,
    mut since: Local<f64>,
    mut commands: Commands,
    mut exit: MessageWriter<AppExit>,
    mut note: Query<&mut Text, With<SavedNote>>,
) {
    if screen.is_changed() {
        *since = time.elapsed_secs_f64();
    }
    if time.elapsed_secs_f64() - *since < KEY_GRACE_SECONDS {
        return;
    }
    let action = if keys.any_just_pressed([KeyCode::Enter, KeyCode::NumpadEnter]) {
        Some(ResultAction::Again)
    } else if keys.just_pressed(KeyCode::KeyN) {
        Some(ResultAction::NewSeed)
    } else if keys.just_pressed(KeyCode::KeyS) {
        Some(ResultAction::SaveLog)
    } else if keys.any_just_pressed([KeyCode::KeyM, KeyCode::Escape]) {
        Some(ResultAction::Menu)
    } else {
        None
    };
    if let Some(a) = action {
        apply(a, &battle, &mut commands, &mut exit, &mut note);
    }
}

fn result_clicks(
    buttons: Query<(&Interaction, &ResultAction), Changed<Interaction>>,
    battle: Res<ActiveBattle>,
    mut commands: Commands,
    mut exit: MessageWriter<AppExit>,
    mut note: Query<&mut Text, With<SavedNote>>,
) {
    for a in clicked(&buttons) {
        apply(a, &battle, &mut commands, &mut exit, &mut note);
    }
}
