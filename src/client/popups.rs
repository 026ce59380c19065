//! What the dice did, shown where it happened: the stage (`stage.rs`) raises a popup for each
//! roll and outcome — the damage in red, a miss or a solid defense in grey, a fall in gold —
//! which floats up from its creature for a moment.

use super::TILE;
use super::screens::{OnBattleScreen, Screen};
use bevy::prelude::*;
use bevy::text::FontSize;

/// Seconds a popup stays.
const LIFETIME: f32 = 1.4;

/// Pixels a second a popup rises: outcomes shown one beat apart stay a line apart.
const RISE: f32 = 60.0;

#[derive(Component)]
struct Popup {
    age: f32,
    from: Vec3,
}

pub fn plugin(app: &mut App) {
    app.add_systems(Update, float_popups.in_set(OnBattleScreen));
}

/// Words or numbers rising from a point of the map for a moment.
pub fn spawn_popup(commands: &mut Commands, at: Vec2, text: &str, colour: Color) {
    let from = (at + Vec2::new(0.0, TILE * 0.5)).extend(40.0);
    commands.spawn((
        DespawnOnExit(Screen::Battle),
        Popup { age: 0.0, from },
        Text2d::new(super::hud::plain(text)),
        TextFont { font_size: FontSize::Px(15.0), ..default() },
        TextColor(colour),
        Transform::from_translation(from),
    ));
}

fn float_popups(
    mut commands: Commands,
    time: Res<Time>,
    mut popups: Query<(Entity, &mut Popup, &mut Transform, &mut TextColor)>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    for (e, mut p, mut t, mut colour) in &mut popups {
        p.age += time.delta_secs();
        if p.age >= LIFETIME {
            commands.entity(e).despawn();
            continue;
        }
        t.translation = p.from + Vec3::Y * (p.age * RISE);
        colour.0.set_alpha(1.0 - (p.age / LIFETIME).powi(2));
        redraw.write(bevy::window::RequestRedraw);
    }
}
