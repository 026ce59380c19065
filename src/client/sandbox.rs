//! The rules sandbox (`meshal-tactics sandbox [LEVEL]`, and from the main menu): on a level's
//! map a GM places and drags an area template (every shape of the rules core, any size and
//! direction, both coverage conventions at once), shows a token's facing sectors (both arc
//! variants at once) and draws lines of sight with their cover, each labelled with its numbers.
//! F12 (or `--screenshot`) exports the view as a picture to hand to the players.
//!
//! Every figure comes from the rules core (`rules::area`, `rules::facing`, `rules::los`), the
//! same functions the battle applies.

use super::map_view::{BAR, PANEL, draw_token, fit_camera, outline, root_ui, spawn_picture, zoom_and_pan};
use super::screens::Screen;
use super::{TILE, square_at, square_centre};
use crate::level::LoadedLevel;
use crate::rules::area::{Shape, covered};
use crate::rules::facing::{Facing, Sector, sectors_of_footprint};
use crate::rules::grid::{Footprint, Pos, distance};
use crate::rules::los::sight_line;
use crate::rules::ruleset::{AreaCoverage, FacingArcs};
use bevy::prelude::*;
use bevy_egui::input::egui_wants_any_pointer_input;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SandboxTool {
    Area,
    Facing,
    Sight,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeKind {
    Circle,
    Ring,
    Sector,
    Ray,
    /// AREA-E5: through `bends` (right clicks), `size` steps in all.
    Curve,
}

/// What the sandbox shows.
#[derive(Resource, Clone)]
pub struct Sandbox {
    pub level: LoadedLevel,
    pub tool: SandboxTool,
    pub shape: ShapeKind,
    /// Radius (circle, ring) or length (sector, ray), in steps.
    pub size: i32,
    /// Ring or ray width.
    pub width: i32,
    pub angle: f64,
    pub toward: Facing,
    /// AREA-E5: the curve's bends and end, in order (squares on the map).
    pub bends: Vec<Pos>,
    pub origin: Option<Pos>,
    /// The creature whose facing sectors are shown (index into the level's creatures).
    pub token: Option<usize>,
    pub sight: (Option<Pos>, Option<Pos>),
}

impl Sandbox {
    pub fn new(level: LoadedLevel) -> Sandbox {
        Sandbox {
            level,
            tool: SandboxTool::Area,
            shape: ShapeKind::Circle,
            size: 3,
            width: 1,
            angle: 90.0,
            toward: Facing::E,
            bends: Vec::new(),
            origin: None,
            token: None,
            sight: (None, None),
        }
    }

    pub fn shape(&self) -> Shape {
        let size = self.size.clamp(0, 64);
        match self.shape {
            ShapeKind::Circle => Shape::Circle { radius: size },
            ShapeKind::Ring => Shape::Ring { radius: size, width: self.width.clamp(0, 64) },
            ShapeKind::Sector => {
                Shape::Sector { length: size, angle: self.angle.clamp(1.0, 360.0), facing: self.toward }
            }
            ShapeKind::Ray => Shape::Ray { length: size, width: self.width.clamp(1, 64), facing: self.toward },
            // A curve that breaks AREA-E5 covers nothing; the panel says why (`curve_problem`).
            ShapeKind::Curve => crate::rules::area::curve(size, &self.bend_offsets()).unwrap_or(Shape::Curve {
                length: size,
                vertices: [Pos::new(0, 0); crate::rules::area::MAX_CURVE_SEGMENTS],
                segments: 0,
            }),
        }
    }

    /// The bends as offsets from the origin.
    fn bend_offsets(&self) -> Vec<Pos> {
        let o = self.origin.unwrap_or_default();
        self.bends.iter().map(|p| Pos::new(p.x - o.x, p.y - o.y)).collect()
    }

    /// Why the curve is not one AREA-E5 allows, if it is not.
    pub fn curve_problem(&self) -> Option<String> {
        let e = crate::rules::area::curve(self.size.clamp(0, 64), &self.bend_offsets()).err()?;
        Some(format!("AREA-E5: {e}"))
    }

    /// The squares the template covers under each convention (AREA-*, walls stop it: AREA-E6).
    pub fn coverage(&self) -> Option<(Vec<Pos>, Vec<Pos>)> {
        let o = self.origin?;
        let map = &self.level.map;
        Some((covered(map, o, self.shape(), AreaCoverage::Meshal), covered(map, o, self.shape(), AreaCoverage::Dnd)))
    }

    /// Per side, how many of its creatures a set of squares touches.
    pub fn inside(&self, squares: &[Pos], compendium: &crate::level::compendium::Compendium) -> Vec<(String, usize)> {
        self.level
            .level
            .sides
            .iter()
            .map(|s| {
                let n = self
                    .level
                    .level
                    .creatures
                    .iter()
                    .filter(|c| c.side == s.name)
                    .filter(|c| footprint(c, compendium).cells().any(|p| squares.contains(&p)))
                    .count();
                (s.name.clone(), n)
            })
            .collect()
    }
}

fn footprint(c: &crate::level::CreatureDef, compendium: &crate::level::compendium::Compendium) -> Footprint {
    Footprint::new(Pos::new(c.at.0, c.at.1), c.footprint_side(compendium))
}

pub fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Sandbox), open_sandbox)
        .add_systems(OnExit(Screen::Sandbox), super::board::reset_camera)
        .add_systems(EguiPrimaryContextPass, panel.run_if(in_state(Screen::Sandbox)))
        .add_systems(
            Update,
            (
                pointer.run_if(not(egui_wants_any_pointer_input)),
                zoom_and_pan.run_if(
                    not(egui_wants_any_pointer_input).and_then(not(bevy_egui::input::egui_wants_any_keyboard_input)),
                ),
                keys,
                draw,
            )
                .chain()
                .run_if(in_state(Screen::Sandbox).and_then(resource_exists::<Sandbox>)),
        );
}

fn open_sandbox(
    mut commands: Commands,
    sandbox: Option<Res<Sandbox>>,
    mut images: ResMut<Assets<Image>>,
    window: Query<&Window>,
    mut camera: Query<(&mut Transform, &mut Projection), With<Camera2d>>,
    content: Res<super::menu::Content>,
) {
    let Some(sandbox) = sandbox else {
        commands.set_state(Screen::Menu);
        return;
    };
    spawn_picture(&mut commands, &mut images, super::art::map_picture(&sandbox.level.level), Screen::Sandbox);
    let size = |c: &crate::level::CreatureDef| c.footprint_side(&content.0);
    for (text, at) in super::map_view::token_labels(&sandbox.level.level.creatures, size) {
        commands.spawn((
            DespawnOnExit(Screen::Sandbox),
            Text2d::new(text),
            super::screens::font(11.0),
            TextColor(Color::WHITE),
            Transform::from_translation(at),
        ));
    }
    fit_camera(&mut commands, &mut camera, sandbox.level.map.width(), sandbox.level.map.height(), window.iter().next());
}

fn pointer(
    mut sandbox: ResMut<Sandbox>,
    mouse: Res<ButtonInput<MouseButton>>,
    window: Query<&Window, With<bevy::window::PrimaryWindow>>,
    camera: Query<(&Camera, &GlobalTransform)>,
    content: Res<super::menu::Content>,
) {
    let (Ok(window), Ok((camera, at))) = (window.single(), camera.single()) else { return };
    let Some(p) = super::map_view::cursor_over_map(window)
        .and_then(|c| camera.viewport_to_world_2d(at, c).ok())
        .map(square_at)
        .filter(|p| sandbox.level.map.in_bounds(*p))
    else {
        return;
    };
    let s = &mut *sandbox;
    match s.tool {
        // Click or drag: the template follows the pointer; right click aims it.
        SandboxTool::Area => {
            if mouse.pressed(MouseButton::Left) && s.origin != Some(p) {
                s.origin = Some(p);
            }
            if mouse.just_pressed(MouseButton::Right)
                && let Some(o) = s.origin
                && o != p
            {
                // A curve bends where it is right-clicked (a fifth point starts it again).
                if s.shape == ShapeKind::Curve {
                    if s.bends.len() >= crate::rules::area::MAX_CURVE_SEGMENTS {
                        s.bends.clear();
                    }
                    s.bends.push(p);
                } else {
                    s.toward = Facing::toward((o.x as f64, o.y as f64), (p.x as f64, p.y as f64));
                }
            }
        }
        SandboxTool::Facing => {
            if mouse.just_pressed(MouseButton::Left) {
                s.token = s.level.level.creatures.iter().position(|c| footprint(c, &content.0).contains(p));
            }
            if mouse.just_pressed(MouseButton::Right)
                && let Some(i) = s.token
            {
                let c = &mut s.level.level.creatures[i];
                c.facing = Facing::toward((c.at.0 as f64, c.at.1 as f64), (p.x as f64, p.y as f64));
            }
        }
        // First click: from; second: to; a third starts again. Dragging moves the end.
        SandboxTool::Sight => {
            if mouse.just_pressed(MouseButton::Left) {
                s.sight = match s.sight {
                    (Some(a), None) => (Some(a), Some(p)),
                    _ => (Some(p), None),
                };
            } else if mouse.pressed(MouseButton::Left) && s.sight.1.is_some() {
                s.sight.1 = Some(p);
            }
        }
    }
}

fn keys(mut sandbox: ResMut<Sandbox>, keys: Res<ButtonInput<KeyCode>>, mut commands: Commands) {
    let s = &mut *sandbox;
    for (key, tool) in
        [(KeyCode::KeyA, SandboxTool::Area), (KeyCode::KeyF, SandboxTool::Facing), (KeyCode::KeyL, SandboxTool::Sight)]
    {
        if keys.just_pressed(key) {
            s.tool = tool;
        }
    }
    if keys.just_pressed(KeyCode::Equal) {
        s.size = (s.size + 1).min(64);
    }
    if keys.just_pressed(KeyCode::Minus) {
        s.size = (s.size - 1).max(0);
    }
    let turn = |f: Facing, by: usize| Facing::ALL[(f as usize + by) % 8];
    if keys.just_pressed(KeyCode::KeyE) {
        s.toward = turn(s.toward, 1);
    }
    if keys.just_pressed(KeyCode::KeyQ) {
        s.toward = turn(s.toward, 7);
    }
    if keys.just_pressed(KeyCode::Escape) {
        commands.set_state(Screen::Menu);
    }
}

const MESHAL: Color = Color::srgb(1.0, 0.55, 0.1);
const DND: Color = Color::srgb(0.2, 0.85, 1.0);
const FRONT: Color = Color::srgb(0.3, 0.9, 0.3);
const SIDE: Color = Color::srgb(1.0, 0.85, 0.2);
const REAR: Color = Color::srgb(1.0, 0.25, 0.25);

/// How far around a token its sectors are shown.
const SECTOR_RADIUS: i32 = 6;

fn draw(sandbox: Res<Sandbox>, content: Res<super::menu::Content>, mut gizmos: Gizmos) {
    let s = &*sandbox;
    for c in &s.level.level.creatures {
        draw_token(&mut gizmos, &s.level.level, c, &content.0);
    }
    // Each tool's picture only while it is chosen: the area template stayed drawn over the
    // line of sight it had nothing to do with.
    // Both conventions at once: Meshal's squares filled with a cross, D&D's outlined inside.
    if s.tool == SandboxTool::Area
        && let Some((meshal, dnd)) = s.coverage()
    {
        for p in &meshal {
            let c = square_centre(*p);
            let d = TILE * 0.3;
            gizmos.line_2d(c - Vec2::splat(d), c + Vec2::splat(d), MESHAL);
            gizmos.line_2d(c + Vec2::new(-d, d), c + Vec2::new(d, -d), MESHAL);
        }
        for p in &dnd {
            gizmos.rect_2d(Isometry2d::from_translation(square_centre(*p)), Vec2::splat(TILE * 0.8), DND);
        }
        if let Some(o) = s.origin {
            outline(&mut gizmos, o, o, Color::WHITE);
        }
    }
    // A token's sectors: each square split, the left half under 000's quarters, the right
    // half under 004's wide front and rear.
    if s.tool == SandboxTool::Facing
        && let Some(c) = s.token.and_then(|i| s.level.level.creatures.get(i))
    {
        let me = footprint(c, &content.0);
        for dy in -SECTOR_RADIUS..=SECTOR_RADIUS + me.side - 1 {
            for dx in -SECTOR_RADIUS..=SECTOR_RADIUS + me.side - 1 {
                let p = Pos::new(c.at.0 + dx, c.at.1 + dy);
                if !s.level.map.in_bounds(p) || me.contains(p) {
                    continue;
                }
                for (k, arcs) in [FacingArcs::Quarters, FacingArcs::Wide].into_iter().enumerate() {
                    let set = sectors_of_footprint(me, c.facing, arcs, Footprint::new(p, 1));
                    let colour = if set.contains(Sector::Front) {
                        FRONT
                    } else if set.contains(Sector::Rear) {
                        REAR
                    } else {
                        SIDE
                    };
                    let half = square_centre(p) + Vec2::new(if k == 0 { -TILE / 4.0 } else { TILE / 4.0 }, 0.0);
                    gizmos.rect_2d(Isometry2d::from_translation(half), Vec2::new(TILE * 0.4, TILE * 0.8), colour);
                }
            }
        }
    }
    if s.tool != SandboxTool::Sight {
        return;
    }
    if let (Some(a), Some(b)) = s.sight {
        let line = sight_line(&s.level.map, a, b);
        let colour = match (line.visible, line.cover) {
            (false, _) => REAR,
            (true, true) => SIDE,
            (true, false) => FRONT,
        };
        gizmos.line_2d(square_centre(a), square_centre(b), colour);
        for p in &line.traced {
            outline(&mut gizmos, *p, *p, colour.with_alpha(0.5));
        }
        if let Some((p, _)) = line.cover_by {
            outline(&mut gizmos, p, p, SIDE);
        }
    } else if let (Some(a), None) = s.sight {
        outline(&mut gizmos, a, a, Color::WHITE);
    }
}

fn panel(
    mut contexts: EguiContexts,
    sandbox: Option<ResMut<Sandbox>>,
    content: Res<super::menu::Content>,
    mut commands: Commands,
) -> Result {
    let Some(mut sandbox) = sandbox else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let mut root = root_ui(ctx, "sandbox");
    let s = &mut *sandbox;
    egui::Panel::top("sandbox-bar").exact_size(BAR).show(&mut root, |ui| {
        ui.horizontal_centered(|ui| {
            ui.selectable_value(&mut s.tool, SandboxTool::Area, "Area (A)");
            ui.selectable_value(&mut s.tool, SandboxTool::Facing, "Facing (F)");
            ui.selectable_value(&mut s.tool, SandboxTool::Sight, "Line of sight (L)");
            ui.separator();
            ui.label("F12: save this view as a picture");
            if ui.button("Menu (Esc)").clicked() {
                commands.set_state(Screen::Menu);
            }
        });
    });
    egui::Panel::right("sandbox-panel").exact_size(PANEL).resizable(false).show(&mut root, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.set_max_width(PANEL - 20.0);
            ui.heading(&s.level.level.name);
            match s.tool {
                SandboxTool::Area => area_panel(ui, s, &content.0),
                SandboxTool::Facing => facing_panel(ui, s, &content.0),
                SandboxTool::Sight => sight_panel(ui, s),
            }
        });
    });
    Ok(())
}

fn area_panel(ui: &mut egui::Ui, s: &mut Sandbox, c: &crate::level::compendium::Compendium) {
    ui.label("Click or drag on the map to place the template; right click aims it (Q/E turn it, -/= size).");
    ui.horizontal(|ui| {
        for (k, name) in [
            (ShapeKind::Circle, "circle"),
            (ShapeKind::Ring, "ring"),
            (ShapeKind::Sector, "sector"),
            (ShapeKind::Ray, "ray"),
            (ShapeKind::Curve, "curve"),
        ] {
            ui.selectable_value(&mut s.shape, k, name);
        }
    });
    ui.horizontal(|ui| {
        ui.label(if matches!(s.shape, ShapeKind::Circle | ShapeKind::Ring) { "radius" } else { "length" });
        ui.add(egui::DragValue::new(&mut s.size).range(0..=64));
        if matches!(s.shape, ShapeKind::Ring | ShapeKind::Ray) {
            ui.label("width");
            ui.add(egui::DragValue::new(&mut s.width).range(0..=64));
        }
        if s.shape == ShapeKind::Sector {
            ui.label("angle");
            ui.add(egui::DragValue::new(&mut s.angle).range(1.0..=360.0).suffix("°"));
        }
    });
    if matches!(s.shape, ShapeKind::Sector | ShapeKind::Ray) {
        ui.horizontal_wrapped(|ui| {
            ui.label("toward");
            for f in Facing::ALL {
                ui.selectable_value(&mut s.toward, f, f.name());
            }
        });
    }
    if s.shape == ShapeKind::Curve {
        ui.label("Right click bends the curve there, the last point its end (up to 4 segments).");
        if ui.button("Clear the bends").clicked() {
            s.bends.clear();
        }
        if let Some(why) = s.curve_problem() {
            ui.colored_label(egui::Color32::from_rgb(255, 64, 64), why);
        }
    }
    let Some((meshal, dnd)) = s.coverage() else {
        ui.label("(no template placed yet)");
        return;
    };
    ui.separator();
    ui.label(format!("Origin {} (AREA-3: the origin square is step 0).", s.origin.unwrap_or_default()));
    ui.colored_label(egui::Color32::from_rgb(255, 140, 25), format!("× Meshal (AREA-E1…E4): {} squares", meshal.len()));
    for (side, n) in s.inside(&meshal, c) {
        ui.label(format!("    {side}: {n} inside"));
    }
    ui.colored_label(
        egui::Color32::from_rgb(50, 215, 255),
        format!("□ D&D (centre on a corner): {} squares", dnd.len()),
    );
    for (side, n) in s.inside(&dnd, c) {
        ui.label(format!("    {side}: {n} inside"));
    }
    let only_m = meshal.iter().filter(|p| !dnd.contains(p)).count();
    let only_d = dnd.iter().filter(|p| !meshal.contains(p)).count();
    ui.label(format!("Only Meshal covers {only_m}; only D&D covers {only_d}. Walls stop both (AREA-E6)."));
}

fn facing_panel(ui: &mut egui::Ui, s: &mut Sandbox, c: &crate::level::compendium::Compendium) {
    ui.label("Click a token to show its sectors; right click turns it toward the pointer.");
    ui.label("Each square: left half 000's quarters (90° each), right half 004's wide front and rear (120°).");
    ui.colored_label(egui::Color32::from_rgb(76, 230, 76), "front");
    ui.colored_label(egui::Color32::from_rgb(255, 217, 51), "side");
    ui.colored_label(egui::Color32::from_rgb(255, 64, 64), "rear: no defense against it (FACE-4)");
    let Some(i) = s.token else { return };
    let creature = s.level.level.creatures[i].clone();
    ui.separator();
    ui.label(format!("{} facing {}", creature.name, creature.facing.name()));
    let me = footprint(&creature, c);
    for arcs in [FacingArcs::Quarters, FacingArcs::Wide] {
        let mut counts = [0usize; 3];
        for o in s.level.level.creatures.iter().filter(|o| o.name != creature.name) {
            let set = sectors_of_footprint(me, creature.facing, arcs, footprint(o, c));
            let k = if set.contains(Sector::Front) {
                0
            } else if set.contains(Sector::Rear) {
                2
            } else {
                1
            };
            counts[k] += 1;
        }
        ui.label(format!("{arcs:?}: others in front {}, at the sides {}, behind {}", counts[0], counts[1], counts[2]));
    }
}

fn sight_panel(ui: &mut egui::Ui, s: &mut Sandbox) {
    ui.label("Click the square it is seen from, then the square looked at (drag to move the end).");
    let (Some(a), Some(b)) = s.sight else { return };
    let line = sight_line(&s.level.map, a, b);
    ui.separator();
    ui.label(format!("From {a} to {b}: distance {} steps (SPACE-6)", distance(a, b)));
    if line.visible {
        ui.colored_label(egui::Color32::from_rgb(76, 230, 76), "Line of sight: clear (PERC-E1)");
    } else {
        let at = line.traced.last().copied().unwrap_or(b);
        ui.colored_label(egui::Color32::from_rgb(255, 64, 64), format!("Line of sight: blocked at {at} (PERC-E1)"));
    }
    match line.cover_by {
        Some((p, why)) => {
            ui.colored_label(
                egui::Color32::from_rgb(255, 217, 51),
                format!("Cover: yes, +1 to all protections (ATK-15): {} at {p}", why.explain()),
            );
        }
        None if line.visible && distance(a, b) <= 1 => {
            ui.label("Cover: no — the attacker is adjacent (ATK-E5)");
        }
        None if line.visible => {
            ui.label("Cover: no — nothing next to the target shelters it (ATK-E5)");
        }
        None => {}
    }
    ui.label(format!("Squares crossed: {}", line.traced.len()));
}
