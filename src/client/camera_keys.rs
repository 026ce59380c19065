//! The battle map's camera under the player's hands: WASD pans (not while a key answers a
//! window: D is also Dodge), the wheel zooms (not over the panel or the log strip).

use super::TILE;
use super::input::PlayerAction;
use crate::battle::{ActiveBattle, Controller};
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

pub(super) fn move_camera(
    actions: Query<&ActionState<PlayerAction>>,
    mut camera: Query<(&mut Transform, &mut Projection), With<Camera2d>>,
    window: Query<&Window>,
    battle: Option<Res<ActiveBattle>>,
    time: Res<Time>,
    mut held_from_answer: Local<bool>,
) {
    let (Ok(a), Ok((mut t, mut projection))) = (actions.single(), camera.single_mut()) else { return };
    let Projection::Orthographic(ortho) = projection.as_mut() else { return };
    let speed = 12.0 * TILE * ortho.scale * time.delta_secs();
    let mut d = Vec2::ZERO;
    // While a person answers a window (a defense, a Fate prompt) the keys answer it: D is
    // Dodge there, and panned the map away from the attack as it dodged. A key held down from
    // then pans only once let go and pressed again.
    let answering = battle.as_ref().is_some_and(|b| {
        b.battle.awaiting().is_some_and(|(c, w)| w.is_some() && b.controller_of(c) == Controller::Human)
    });
    let pans = [
        (PlayerAction::PanUp, Vec2::Y),
        (PlayerAction::PanDown, -Vec2::Y),
        (PlayerAction::PanLeft, -Vec2::X),
        (PlayerAction::PanRight, Vec2::X),
    ];
    let any_held = pans.iter().any(|(k, _)| a.pressed(k));
    *held_from_answer = any_held && (answering || *held_from_answer);
    for (k, v) in pans.into_iter().filter(|_| !*held_from_answer) {
        if a.pressed(&k) {
            d += v;
        }
    }
    t.translation += (d * speed).extend(0.0);
    // The wheel over the panel or the log strip scrolls them, not the map.
    let over_map = window
        .single()
        .ok()
        .and_then(|w| Some((w.cursor_position()?, w.width(), w.height())))
        .is_none_or(|(c, w, h)| c.x < w - super::PANEL_WIDTH && c.y < h - super::LOG_HEIGHT);
    let zoom = a.value(&PlayerAction::Zoom);
    if zoom != 0.0 && over_map {
        ortho.scale = (ortho.scale * (1.0 - 0.1 * zoom.clamp(-3.0, 3.0))).clamp(0.25, 4.0);
    }
}
