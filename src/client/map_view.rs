//! What the map screens without a battle share (the editor, the sandbox, the replay viewer):
//! the panel sizes, the egui root, the map as one picture, the camera fitted beside the panel,
//! zoom and pan, tokens and square outlines drawn with gizmos.

use super::screens::Screen;
use super::{TILE, square_centre};
use crate::level::CreatureDef;
use crate::rules::grid::Pos;
use bevy::prelude::*;
use bevy_egui::egui;

/// Width of the side panel, in logical pixels (the map is fitted beside it).
pub const PANEL: f32 = 330.0;
/// Height of the tool bar at the top.
pub const BAR: f32 = 34.0;

/// The root egui `Ui` over the whole window, for panels to be laid out in.
pub fn root_ui(ctx: &egui::Context, id: &'static str) -> egui::Ui {
    egui::Ui::new(
        ctx.clone(),
        id.into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    )
}

/// The map as one sprite, one pixel a square scaled to the squares, living as long as `screen`.
pub fn spawn_picture(commands: &mut Commands, images: &mut Assets<Image>, image: Image, screen: Screen) -> Entity {
    let size = Vec2::new(image.width() as f32, image.height() as f32) * TILE;
    commands
        .spawn((
            DespawnOnExit(screen),
            Sprite { image: images.add(image), custom_size: Some(size), ..default() },
            Transform::from_translation(((size - Vec2::splat(TILE)) / 2.0).extend(0.0)),
        ))
        .id()
}

/// Fit the camera (spawning one if there is none) to a `w`×`h` map beside the panel.
pub fn fit_camera(
    commands: &mut Commands,
    camera: &mut Query<(&mut Transform, &mut Projection), With<Camera2d>>,
    w: i32,
    h: i32,
    window: Option<&Window>,
) {
    let (fitted, zoom) = fitted_view(w, h, window);
    if camera.is_empty() {
        commands.spawn((Camera2d, fitted, zoom));
    } else {
        for (mut t, mut p) in camera.iter_mut() {
            *t = fitted;
            *p = zoom.clone();
        }
    }
}

/// The view centring a `w`×`h` map in the window beside the panel, zoomed to fit.
pub fn fitted_view(w: i32, h: i32, window: Option<&Window>) -> (Transform, Projection) {
    let (ww, wh) = window.map_or((1280.0, 720.0), |w| (w.width(), w.height()));
    let free = Vec2::new((ww - PANEL).max(200.0), (wh - BAR).max(200.0));
    let extent = Vec2::new(w as f32, h as f32) * TILE;
    let scale = (extent.x / (free.x - 24.0)).max(extent.y / (free.y - 24.0)).max(0.3);
    let centre = (extent - Vec2::splat(TILE)) / 2.0;
    let shift = Vec2::new(PANEL / 2.0, BAR / 2.0) * scale;
    let t = Transform::from_translation((centre + shift).extend(100.0));
    (t, Projection::Orthographic(OrthographicProjection { scale, ..OrthographicProjection::default_2d() }))
}

/// Where the pointer is, if it is over the map's part of the window: not over the side panel
/// or the top bar. The panels' own test (egui's "pointer over an area") alone let the wheel
/// over the panel zoom the map behind it, and a click on a panel's widget reach the square
/// under it.
pub fn cursor_over_map(window: &Window) -> Option<Vec2> {
    window.cursor_position().filter(|c| c.x < window.width() - PANEL && c.y > BAR)
}

/// The map views without a battle (editor, sandbox, replay): the wheel zooms about the
/// pointer, the arrow keys pan (`V` fits the map again, in the editor).
pub fn zoom_and_pan(
    mut wheel: MessageReader<bevy::input::mouse::MouseWheel>,
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time<Real>>,
    window: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut camera: Query<(&Camera, &GlobalTransform, &mut Transform, &mut Projection), With<Camera2d>>,
) {
    let Ok((cam, at, mut t, mut p)) = camera.single_mut() else { return };
    let Projection::Orthographic(ortho) = p.as_mut() else { return };
    let scroll: f32 = wheel.read().map(|w| w.y.signum()).sum();
    let over_map = window.single().ok().and_then(cursor_over_map);
    if scroll != 0.0 && over_map.is_some() {
        let pointer = over_map.and_then(|c| cam.viewport_to_world_2d(at, c).ok());
        let old = ortho.scale;
        ortho.scale = (old * 1.15f32.powf(-scroll)).clamp(0.1, 20.0);
        // Keep the square under the pointer where it is.
        if let Some(pw) = pointer {
            let centre = t.translation.truncate();
            t.translation = (pw + (centre - pw) * (ortho.scale / old)).extend(t.translation.z);
        }
    }
    let mut pan = Vec2::ZERO;
    for (key, dir) in [
        (KeyCode::ArrowLeft, Vec2::NEG_X),
        (KeyCode::ArrowRight, Vec2::X),
        (KeyCode::ArrowUp, Vec2::Y),
        (KeyCode::ArrowDown, Vec2::NEG_Y),
    ] {
        if keys.pressed(key) {
            pan += dir;
        }
    }
    if pan != Vec2::ZERO {
        t.translation += (pan * 600.0 * ortho.scale * time.delta_secs().min(0.1)).extend(0.0);
    }
}

/// A creature's token as the editor and the sandbox draw it: two rings in its side's colour
/// and a white tick toward its facing. Returns its footprint's side in squares.
pub fn draw_token(
    gizmos: &mut Gizmos,
    level: &crate::level::Level,
    c: &CreatureDef,
    compendium: &crate::level::compendium::Compendium,
) -> i32 {
    let viewer = super::Viewer { side: 0, plays: true, omniscient: true };
    let side = level.sides.iter().position(|s| s.name == c.side).unwrap_or(0);
    let size = c.footprint_side(compendium);
    let s = size as f32;
    let centre = square_centre(Pos::new(c.at.0, c.at.1)) + Vec2::splat((s - 1.0) * TILE / 2.0);
    let colour = super::board::side_colour(side, &viewer);
    gizmos.circle_2d(centre, TILE * 0.42 * s, colour);
    gizmos.circle_2d(centre, TILE * 0.36 * s, colour);
    let (dx, dy) = c.facing.delta();
    gizmos.line_2d(centre, centre + Vec2::new(dx as f32, dy as f32).normalize_or_zero() * TILE * 0.5 * s, Color::WHITE);
    size
}

/// Each creature's name under its token, where it is drawn, and at what depth: the full name,
/// or the board's short label ("GW1", `labels::abbreviations`) where the name would run
/// under a neighbour's token (tokens are drawn over text: "Grey wolf 1" beside "Grey wolf 2"
/// read "Grey wolf"). `size_of` gives a creature's footprint side.
pub fn token_labels(creatures: &[CreatureDef], size_of: impl Fn(&CreatureDef) -> i32) -> Vec<(String, Vec3)> {
    let names: Vec<&str> = creatures.iter().map(|c| c.name.as_str()).collect();
    let short = super::labels::abbreviations(&names);
    let centre = |c: &CreatureDef| {
        let s = size_of(c) as f32;
        square_centre(Pos::new(c.at.0, c.at.1)) + Vec2::splat((s - 1.0) * TILE / 2.0)
    };
    creatures
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let at = centre(c) + Vec2::new(0.0, -(TILE * 0.62 + (size_of(c) - 1) as f32 * TILE / 2.0));
            let half = LABEL_CHAR_WIDTH * c.name.chars().count() as f32 / 2.0;
            // Another token's ring reaching into the name's row, left or right of its middle.
            let crowded = creatures.iter().enumerate().any(|(j, o)| {
                let (oc, r) = (centre(o), TOKEN_RADIUS * size_of(o) as f32);
                j != i && (oc.y - at.y).abs() < r + LABEL_HALF_HEIGHT && (oc.x - at.x).abs() < r + half
            });
            let text = if crowded { short[i].clone() } else { c.name.clone() };
            (text, at.extend(5.0))
        })
        .collect()
}

/// A token's ring (`draw_token`), and a label's letters at font size 11, in world units.
const TOKEN_RADIUS: f32 = TILE * 0.42;
const LABEL_CHAR_WIDTH: f32 = 6.6;
const LABEL_HALF_HEIGHT: f32 = 6.0;

/// The outline of the squares from one corner to the other.
pub fn outline(gizmos: &mut Gizmos, a: Pos, b: Pos, colour: Color) {
    let lo = Vec2::new(a.x.min(b.x) as f32 - 0.5, a.y.min(b.y) as f32 - 0.5) * TILE;
    let hi = Vec2::new(a.x.max(b.x) as f32 + 0.5, a.y.max(b.y) as f32 + 0.5) * TILE;
    gizmos.rect_2d(Isometry2d::from_translation((lo + hi) / 2.0), hi - lo, colour);
}

#[cfg(test)]
mod tests {
    use super::*;

    // A name that would run under a neighbour's token is shortened to the board's label; one
    // with room keeps its full name (the skirmish's Grey wolf 1, one square from Grey wolf 2).
    #[test]
    fn a_name_crowded_by_a_neighbours_token_is_shortened() {
        let creature = |name: &str, at: (i32, i32)| -> CreatureDef {
            let text = format!(r#"(name: "{name}", template: "grey_wolf", side: "Pack", at: ({}, {}))"#, at.0, at.1);
            ron::from_str(&text).unwrap()
        };
        let pack = [
            creature("Grey wolf 1", (23, 13)),
            creature("Grey wolf 2", (24, 12)),
            creature("Captain Aldo", (2, 11)),
            creature("Grey wolf 3", (23, 10)),
        ];
        let labels: Vec<String> = token_labels(&pack, |_| 1).into_iter().map(|(t, _)| t).collect();
        assert_eq!(labels, ["GW1", "Grey wolf 2", "Captain Aldo", "Grey wolf 3"]);
        let (_, at) = &token_labels(&pack, |_| 1)[2];
        assert_eq!(at.truncate(), square_centre(Pos::new(2, 11)) + Vec2::new(0.0, -TILE * 0.62), "under its token");
        // A Large creature's name goes under its whole footprint.
        let (_, big) = &token_labels(&pack[2..3], |_| 2)[0];
        assert_eq!(big.truncate(), square_centre(Pos::new(2, 11)) + Vec2::new(TILE / 2.0, -TILE * 0.62));
    }

    #[test]
    fn the_pointer_over_a_panel_is_not_over_the_map() {
        let mut w = Window { resolution: bevy::window::WindowResolution::new(1280, 720), ..default() };
        let at = |w: &mut Window, x: f32, y: f32| {
            w.set_cursor_position(Some(Vec2::new(x, y)));
            cursor_over_map(w)
        };
        assert_eq!(at(&mut w, 400.0, 300.0), Some(Vec2::new(400.0, 300.0)));
        // The side panel (the last PANEL pixels) and the top bar.
        assert_eq!(at(&mut w, 1280.0 - PANEL + 1.0, 300.0), None);
        assert_eq!(at(&mut w, 1100.0, 650.0), None);
        assert_eq!(at(&mut w, 400.0, BAR - 1.0), None);
        w.set_cursor_position(None);
        assert_eq!(cursor_over_map(&w), None);
    }
}
