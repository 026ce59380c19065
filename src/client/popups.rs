//! What the dice did, shown where it happened: the stage (`stage.rs`) raises a popup for each
//! roll and outcome — the damage in red, a miss or a solid defense in grey, a fall in gold —
//! which floats up from its creature for a moment.

use super::TILE;
use super::screens::{OnBattleScreen, Screen};
use bevy::prelude::*;
use bevy::sprite::Anchor;
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

/// Words or numbers rising from a point of the map for a moment. `map_width`: the map's width
/// in world units; a roll's line is some twenty squares long, and centred on a creature near
/// an edge it ran off the window, so near the left edge it starts at the creature and near
/// the right edge it ends there.
pub fn spawn_popup(commands: &mut Commands, at: Vec2, map_width: f32, text: &str, colour: Color) {
    let (anchor, dx) = popup_anchor(at.x, map_width);
    let from = (at + Vec2::new(dx, TILE * 0.5)).extend(40.0);
    commands.spawn((
        DespawnOnExit(Screen::Battle),
        Popup { age: 0.0, from },
        Text2d::new(super::hud::plain(text)),
        TextFont { font_size: FontSize::Px(15.0), ..default() },
        TextColor(colour),
        anchor,
        Transform::from_translation(from),
    ));
}

/// Where a popup from a creature at world `x` is anchored, and its shift from the creature's
/// centre (to the creature's outer side: the text runs inward over the map).
fn popup_anchor(x: f32, map_width: f32) -> (Anchor, f32) {
    if x < map_width / 3.0 {
        (Anchor::CENTER_LEFT, -TILE * 0.5)
    } else if x > map_width * 2.0 / 3.0 {
        (Anchor::CENTER_RIGHT, TILE * 0.5)
    } else {
        (Anchor::CENTER, 0.0)
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_popup_near_an_edge_runs_inward_over_the_map() {
        let width = 30.0 * TILE;
        assert_eq!(popup_anchor(TILE, width), (Anchor::CENTER_LEFT, -TILE * 0.5));
        assert_eq!(popup_anchor(15.0 * TILE, width), (Anchor::CENTER, 0.0));
        assert_eq!(popup_anchor(28.0 * TILE, width), (Anchor::CENTER_RIGHT, TILE * 0.5));
    }
}
