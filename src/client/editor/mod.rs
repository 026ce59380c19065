//! The encounter editor (`meshal-tactics edit [LEVEL]`, and from the main menu): paint terrain
//! with a brush, rectangles and lines; place, select, move, turn, copy and delete creatures;
//! undo and redo every edit; save (validated, atomic); play the level at once and come back.
//!
//! The document and every edit live in `level::editing` (tested without a window); this module
//! only draws it and turns the mouse and keys into edits. Panels and forms are egui
//! (`panel.rs`); the map and the tokens are drawn like the battle's.

pub mod balance;
mod panel;
mod placing;

use super::map_view::{draw_token, fit_camera, fitted_view, outline, spawn_picture, zoom_and_pan};
use super::screens::Screen;
use super::{TILE, square_at, square_centre};
use crate::level::CreatureDef;
use crate::level::editing::{Edit, EditorDoc, line_squares, rect_squares};
use crate::rules::grid::{Pos, Terrain};
use bevy::prelude::*;
use bevy_egui::input::egui_wants_any_pointer_input;
use bevy_egui::{EguiPrimaryContextPass, input::egui_wants_any_keyboard_input};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    Brush,
    Rect,
    Line,
    Place,
    Select,
    /// ATK-16: place or take away a door, crate or barricade.
    Object,
    /// TIME-18: leave an item on a square, or take it away.
    Item,
}

impl Tool {
    pub const ALL: [Tool; 7] =
        [Tool::Select, Tool::Brush, Tool::Rect, Tool::Line, Tool::Place, Tool::Object, Tool::Item];
    pub fn label(self) -> &'static str {
        match self {
            Tool::Brush => "Brush (B)",
            Tool::Rect => "Rectangle (G)",
            Tool::Line => "Line (N)",
            Tool::Place => "Place (P)",
            Tool::Select => "Select (S)",
            Tool::Object => "Object (O)",
            Tool::Item => "Item (I)",
        }
    }
}

/// The form for a new terrain type.
#[derive(Clone, Debug)]
pub struct TerrainForm {
    pub glyph: String,
    pub name: String,
    pub terrain: Terrain,
}

/// The form adding a victory condition.
#[derive(Clone, Debug)]
pub struct VictoryForm {
    pub side: String,
    pub rounds: u32,
    pub from: (i32, i32),
    pub to: (i32, i32),
}

/// Text being typed into a field, not yet an edit (keyed by what it belongs to).
#[derive(Default)]
pub struct Drafts {
    pub creature_name: Option<(usize, String)>,
    pub level_name: Option<(usize, String)>,
    pub description: Option<(usize, String)>,
    pub side_name: Option<(usize, String)>,
}

/// The editor's state: the document and what the GM has chosen.
#[derive(Resource)]
pub struct Editor {
    pub doc: EditorDoc,
    pub tool: Tool,
    /// The legend character the brush, rectangle and line paint.
    pub glyph: char,
    /// What Place puts down.
    pub template: String,
    pub side: String,
    pub selected: Option<usize>,
    /// The last thing the editor has to say (a refusal, "saved").
    pub status: String,
    pub save_as: String,
    pub terrain_form: TerrainForm,
    pub resize: (i32, i32),
    /// Press square and undo depth of the stroke or drag under way.
    stroke: Option<(Pos, usize)>,
    /// Bumped by every change: the map picture, labels and problems are redone when it moves.
    pub version: u64,
    drawn: u64,
    /// What keeps the level from being saved or played, as of `drawn`.
    pub problems: Vec<crate::level::editing::Problem>,
    pub drafts: Drafts,
    pub balance: balance::BalancePanel,
    pub victory_form: VictoryForm,
    /// What the Object tool places (its square comes from the click).
    pub object: crate::rules::objects::ObjectDef,
    /// The compendium key of what the Item tool leaves.
    pub item: String,
}

impl Editor {
    pub fn new(doc: EditorDoc) -> Editor {
        let glyph = doc.level().legend.keys().copied().find(|g| *g != '#').unwrap_or('.');
        let side = doc.level().sides.first().map(|s| s.name.clone()).unwrap_or_default();
        let save_as = doc.path.as_ref().map_or_else(|| "levels/new.level.ron".into(), |p| p.display().to_string());
        let resize = (doc.width(), doc.height());
        Editor {
            doc,
            tool: Tool::Select,
            glyph,
            template: "grey_wolf".into(),
            side,
            selected: None,
            status: String::new(),
            save_as,
            terrain_form: TerrainForm { glyph: String::new(), name: String::new(), terrain: Terrain::default() },
            resize,
            stroke: None,
            version: 1,
            drawn: 0,
            problems: Vec::new(),
            drafts: Drafts::default(),
            balance: balance::BalancePanel::default(),
            victory_form: VictoryForm { side: String::new(), rounds: 8, from: (0, 0), to: (1, 1) },
            object: crate::rules::objects::ObjectDef {
                kind: crate::rules::objects::ObjectKind::Door,
                at: (0, 0),
                material: crate::rules::objects::Material::Wood,
                thickness: 4,
                conditions: Vec::new(),
                open: false,
            },
            item: "healing_draught".into(),
        }
    }

    /// Apply an edit; a refusal is shown, not lost.
    pub fn edit(&mut self, e: Edit) -> bool {
        match self.doc.apply(e) {
            Ok(()) => {
                self.version += 1;
                self.selected = self.selected.filter(|&i| i < self.doc.level().creatures.len());
                true
            }
            Err(reason) => {
                self.status = format!("Refused: {reason}");
                false
            }
        }
    }

    pub fn undo(&mut self) {
        if self.doc.undo() {
            self.version += 1;
            self.status = "Undone.".into();
        }
        self.selected = self.selected.filter(|&i| i < self.doc.level().creatures.len());
    }

    pub fn redo(&mut self) {
        if self.doc.redo() {
            self.version += 1;
            self.status = "Redone.".into();
        }
        self.selected = self.selected.filter(|&i| i < self.doc.level().creatures.len());
    }

    pub fn save(&mut self, compendium: &crate::level::compendium::Compendium) {
        let to = PathBuf::from(self.save_as.trim());
        self.status = match self.doc.save(Some(&to), compendium) {
            Ok(p) => format!("Saved {}.", p.display()),
            Err(e) => e,
        };
    }
}

/// The level the editor opens on (`edit LEVEL`, or the menu's choice); None: a blank one.
#[derive(Resource, Clone)]
pub struct OpenInEditor(pub Option<(crate::level::Level, PathBuf)>);

/// Set while a level is played from the editor: leaving the battle comes back here.
#[derive(Resource)]
pub struct ReturnToEditor;

#[derive(Component)]
struct MapPicture;
#[derive(Component)]
struct EditorLabel;

pub fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Editor), open_editor)
        .add_systems(OnExit(Screen::Editor), super::board::reset_camera)
        .add_systems(OnEnter(Screen::Menu), come_back_from_a_test_battle)
        .add_systems(EguiPrimaryContextPass, panel::panels.run_if(in_state(Screen::Editor)))
        .add_systems(
            Update,
            (
                pointer.run_if(not(egui_wants_any_pointer_input)),
                keys.run_if(not(egui_wants_any_keyboard_input)),
                zoom_and_pan.run_if(not(egui_wants_any_pointer_input).and_then(not(egui_wants_any_keyboard_input))),
                redraw_map,
                draw_marks,
            )
                .chain()
                .run_if(in_state(Screen::Editor).and_then(resource_exists::<Editor>)),
        );
}

fn open_editor(
    mut commands: Commands,
    open: Option<Res<OpenInEditor>>,
    existing: Option<Res<Editor>>,
    window: Query<&Window>,
    mut camera: Query<(&mut Transform, &mut Projection), With<Camera2d>>,
) {
    // Back from "play this now": the same document, undo history and all.
    let (w, h) = match (&existing, open.as_ref().map(|o| &o.0)) {
        (Some(e), _) => (e.doc.width(), e.doc.height()),
        (None, Some(Some((level, path)))) => {
            let e = Editor::new(EditorDoc::new(level.clone(), Some(path.clone())));
            let size = (e.doc.width(), e.doc.height());
            commands.insert_resource(e);
            size
        }
        (None, _) => {
            let e = Editor::new(EditorDoc::blank(24, 16));
            let size = (e.doc.width(), e.doc.height());
            commands.insert_resource(e);
            size
        }
    };
    fit_camera(&mut commands, &mut camera, w, h, window.iter().next());
}

/// Played from the editor and back at the menu: return to the editor instead.
fn come_back_from_a_test_battle(mut commands: Commands, back: Option<Res<ReturnToEditor>>) {
    if back.is_some() {
        commands.remove_resource::<ReturnToEditor>();
        commands.set_state(Screen::Editor);
    }
}

/// The square under the pointer, if the pointer is over the map.
fn hovered(window: &Window, camera: (&Camera, &GlobalTransform), doc: &EditorDoc) -> Option<Pos> {
    let c = super::map_view::cursor_over_map(window)?;
    let p = square_at(camera.0.viewport_to_world_2d(camera.1, c).ok()?);
    (p.x >= 0 && p.y >= 0 && p.x < doc.width() && p.y < doc.height()).then_some(p)
}

fn pointer(
    mut editor: ResMut<Editor>,
    mouse: Res<ButtonInput<MouseButton>>,
    window: Query<&Window, With<bevy::window::PrimaryWindow>>,
    camera: Query<(&Camera, &GlobalTransform)>,
    content: Res<super::menu::Content>,
) {
    let (Ok(window), Ok(camera)) = (window.single(), camera.single()) else { return };
    let at = hovered(window, camera, &editor.doc);
    let e = &mut *editor;
    if mouse.just_pressed(MouseButton::Left)
        && let Some(p) = at
    {
        e.stroke = Some((p, e.doc.undo_depth()));
        match e.tool {
            Tool::Brush => {
                e.edit(Edit::Paint { squares: vec![p], glyph: e.glyph });
            }
            Tool::Select => e.selected = e.doc.creature_at(p, &content.0),
            Tool::Place => {
                let name = crate::level::editing::unique_name(e.doc.level(), &template_name(&content.0, &e.template));
                let creature = CreatureDef::new(name, e.template.clone(), e.side.clone(), (p.x, p.y));
                if e.edit(Edit::PlaceCreature(creature)) {
                    e.selected = Some(e.doc.level().creatures.len() - 1);
                }
            }
            Tool::Object => {
                let object = crate::rules::objects::ObjectDef { at: (p.x, p.y), ..e.object.clone() };
                e.edit(Edit::ToggleObject(object));
            }
            Tool::Item => {
                let item = crate::level::ItemOnMap { at: (p.x, p.y), item: e.item.clone() };
                e.edit(Edit::ToggleItem(item));
            }
            Tool::Rect | Tool::Line => {}
        }
    }
    if mouse.pressed(MouseButton::Left)
        && e.tool == Tool::Brush
        && let Some(p) = at
        && e.doc.glyph_at(p) != Some(e.glyph)
    {
        e.edit(Edit::Paint { squares: vec![p], glyph: e.glyph });
    }
    if mouse.just_released(MouseButton::Left)
        && let Some((from, depth)) = e.stroke.take()
    {
        let to = at.unwrap_or(from);
        match e.tool {
            Tool::Rect => {
                e.edit(Edit::Paint { squares: rect_squares(from, to), glyph: e.glyph });
            }
            Tool::Line => {
                e.edit(Edit::Paint { squares: line_squares(from, to), glyph: e.glyph });
            }
            Tool::Select if to != from => {
                if let Some(i) = e.selected {
                    e.edit(Edit::MoveCreature { index: i, to });
                }
            }
            _ => {}
        }
        e.doc.squash_since(depth);
    }
    if mouse.just_pressed(MouseButton::Right)
        && let Some(p) = at
        && let Some(i) = e.doc.creature_at(p, &content.0)
    {
        e.selected = Some(i);
        e.edit(Edit::RotateCreature { index: i, clockwise: true });
    }
}

fn template_name(c: &crate::level::compendium::Compendium, key: &str) -> String {
    c.creatures.get(key).map_or_else(|| key.to_string(), |t| t.name.clone())
}

fn keys(
    mut editor: ResMut<Editor>,
    keys: Res<ButtonInput<KeyCode>>,
    content: Res<super::menu::Content>,
    mut commands: Commands,
    window: Query<&Window>,
    mut camera: Query<(&mut Transform, &mut Projection), With<Camera2d>>,
) {
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    let e = &mut *editor;
    if ctrl && keys.just_pressed(KeyCode::KeyZ) {
        if shift {
            e.redo()
        } else {
            e.undo()
        }
        return;
    }
    if ctrl && keys.just_pressed(KeyCode::KeyY) {
        e.redo();
        return;
    }
    if ctrl && keys.just_pressed(KeyCode::KeyS) {
        e.save(&content.0);
        return;
    }
    if ctrl && keys.just_pressed(KeyCode::KeyD) {
        duplicate_selected(e);
        return;
    }
    if ctrl {
        return;
    }
    for (key, tool) in [
        (KeyCode::KeyS, Tool::Select),
        (KeyCode::KeyB, Tool::Brush),
        (KeyCode::KeyG, Tool::Rect),
        (KeyCode::KeyN, Tool::Line),
        (KeyCode::KeyO, Tool::Object),
        (KeyCode::KeyI, Tool::Item),
        (KeyCode::KeyP, Tool::Place),
    ] {
        if keys.just_pressed(key) {
            e.tool = tool;
        }
    }
    if let Some(i) = e.selected {
        if keys.just_pressed(KeyCode::KeyR) {
            e.edit(Edit::RotateCreature { index: i, clockwise: !shift });
        }
        if keys.any_just_pressed([KeyCode::Delete, KeyCode::Backspace]) {
            e.edit(Edit::DeleteCreature { index: i });
            e.selected = None;
        }
    }
    if keys.just_pressed(KeyCode::KeyV) {
        let (fitted, zoom) = fitted_view(e.doc.width(), e.doc.height(), window.iter().next());
        for (mut t, mut p) in &mut camera {
            *t = fitted;
            *p = zoom.clone();
        }
    }
    if keys.just_pressed(KeyCode::F5) {
        play_now(e, &content.0, &mut commands);
    }
    if keys.just_pressed(KeyCode::Escape) {
        commands.set_state(Screen::Menu);
    }
}

/// Ctrl+D: a copy of the selected creature on the nearest free square beside it.
pub fn duplicate_selected(e: &mut Editor) {
    let Some(i) = e.selected else { return };
    let (x, y) = e.doc.level().creatures[i].at;
    let taken = |p: Pos| e.doc.level().creatures.iter().any(|c| c.at == (p.x, p.y));
    let free = [(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)]
        .into_iter()
        .map(|(dx, dy)| Pos::new(x + dx, y + dy))
        .find(|&p| p.x >= 0 && p.y >= 0 && p.x < e.doc.width() && p.y < e.doc.height() && !taken(p));
    match free {
        Some(to) => {
            if e.edit(Edit::DuplicateCreature { index: i, to }) {
                e.selected = Some(e.doc.level().creatures.len() - 1);
            }
        }
        None => e.status = "Refused: no free square beside it for the copy".into(),
    }
}

/// F5 / "Play this now": the level as it stands, in a battle; leaving it comes back here.
pub fn play_now(e: &mut Editor, compendium: &crate::level::compendium::Compendium, commands: &mut Commands) {
    match e.doc.validate(compendium) {
        Ok(level) => {
            let sides = level.level.sides.len();
            let player_side = level.level.sides.iter().position(|s| s.human);
            commands.insert_resource(super::screens::CurrentSetup {
                level,
                seed: 1,
                player_side,
                view_side: None,
                actor: None,
                ready: None,
                side_profiles: vec![None; sides],
                resume: None,
            });
            commands.insert_resource(ReturnToEditor);
            commands.set_state(Screen::Battle);
        }
        Err(err) => e.status = format!("Cannot play it yet: {err}"),
    }
}

/// The map as a picture, one pixel a square, redrawn when the document changes; the
/// creatures' names as labels.
fn redraw_map(
    mut commands: Commands,
    mut editor: ResMut<Editor>,
    mut images: ResMut<Assets<Image>>,
    pictures: Query<Entity, With<MapPicture>>,
    labels: Query<Entity, With<EditorLabel>>,
    content: Res<super::menu::Content>,
) {
    if editor.drawn == editor.version && !pictures.is_empty() {
        return;
    }
    editor.drawn = editor.version;
    editor.problems = editor.doc.problems(&content.0);
    let doc = &editor.doc;
    let image = super::art::map_picture(doc.level());
    for p in &pictures {
        commands.entity(p).despawn();
    }
    for l in &labels {
        commands.entity(l).despawn();
    }
    let picture = spawn_picture(&mut commands, &mut images, image, Screen::Editor);
    commands.entity(picture).insert(MapPicture);
    let size = |c: &CreatureDef| c.footprint_side(&content.0);
    for (text, at) in super::map_view::token_labels(&doc.level().creatures, size) {
        commands.spawn((
            EditorLabel,
            DespawnOnExit(Screen::Editor),
            Text2d::new(text),
            super::screens::font(11.0),
            TextColor(Color::WHITE),
            Transform::from_translation(at),
        ));
    }
}

/// The grid, the tokens with their facing, the selection, the rectangle or line being drawn,
/// and the square a problem is about.
fn draw_marks(
    editor: Res<Editor>,
    content: Res<super::menu::Content>,
    mouse: Res<ButtonInput<MouseButton>>,
    window: Query<&Window, With<bevy::window::PrimaryWindow>>,
    camera: Query<(&Camera, &GlobalTransform)>,
    mut gizmos: Gizmos,
) {
    let doc = &editor.doc;
    let (w, h) = (doc.width(), doc.height());
    let grid = Color::srgba(0.0, 0.0, 0.0, 0.25);
    for x in 0..=w {
        let fx = (x as f32 - 0.5) * TILE;
        gizmos.line_2d(Vec2::new(fx, -0.5 * TILE), Vec2::new(fx, (h as f32 - 0.5) * TILE), grid);
    }
    for y in 0..=h {
        let fy = (y as f32 - 0.5) * TILE;
        gizmos.line_2d(Vec2::new(-0.5 * TILE, fy), Vec2::new((w as f32 - 0.5) * TILE, fy), grid);
    }
    // ATK-16: objects, brown (a door's frame darker), over the terrain they stand on.
    for o in &doc.level().objects {
        let c = square_centre(Pos::new(o.at.0, o.at.1));
        let brown = Color::srgb(0.55, 0.35, 0.15);
        gizmos.rect_2d(Isometry2d::from_translation(c), Vec2::splat(TILE * 0.8), brown);
        if o.kind == crate::rules::objects::ObjectKind::Door {
            gizmos.line_2d(c - Vec2::new(0.0, TILE * 0.4), c + Vec2::new(0.0, TILE * 0.4), brown);
        } else {
            gizmos.line_2d(c - Vec2::splat(TILE * 0.4), c + Vec2::splat(TILE * 0.4), brown);
        }
    }
    for item in &doc.level().items {
        let on_use = content.0.items.get(&item.item).and_then(|d| d.on_use.as_ref());
        super::items::draw_item_mark(&mut gizmos, Pos::new(item.at.0, item.at.1), on_use);
    }
    for (i, c) in doc.level().creatures.iter().enumerate() {
        let size = draw_token(&mut gizmos, doc.level(), c, &content.0) as f32;
        let centre = square_centre(Pos::new(c.at.0, c.at.1)) + Vec2::splat((size - 1.0) * TILE / 2.0);
        if c.hidden {
            gizmos.circle_2d(centre, TILE * 0.47 * size, Color::srgba(1.0, 1.0, 1.0, 0.4));
        }
        if let Some(hold) = &c.hold {
            let ((x0, y0), (x1, y1)) = hold.corners();
            outline(&mut gizmos, Pos::new(x0, y0), Pos::new(x1, y1), Color::srgb(0.3, 0.9, 0.9));
        }
        if editor.selected == Some(i) {
            let at = Pos::new(c.at.0, c.at.1);
            outline(
                &mut gizmos,
                at,
                Pos::new(at.x + size as i32 - 1, at.y + size as i32 - 1),
                Color::srgb(1.0, 0.85, 0.3),
            );
        }
    }
    // The shape being drawn, from the press to the pointer.
    if let (Some((from, _)), true, Ok(window), Ok(camera)) =
        (editor.stroke, mouse.pressed(MouseButton::Left), window.single(), camera.single())
        && let Some(to) = hovered(window, camera, doc)
    {
        let preview = Color::srgb(1.0, 1.0, 0.4);
        match editor.tool {
            Tool::Rect => outline(&mut gizmos, from, to, preview),
            Tool::Line => {
                for p in line_squares(from, to) {
                    outline(&mut gizmos, p, p, preview);
                }
            }
            Tool::Select if editor.selected.is_some() => outline(&mut gizmos, to, to, preview),
            _ => {}
        }
    }
    for p in &editor.problems {
        if let Some(at) = p.square {
            let c = square_centre(at);
            let red = Color::srgb(1.0, 0.15, 0.1);
            outline(&mut gizmos, at, at, red);
            gizmos.line_2d(c - Vec2::splat(TILE * 0.4), c + Vec2::splat(TILE * 0.4), red);
            gizmos.line_2d(c + Vec2::new(-TILE * 0.4, TILE * 0.4), c + Vec2::new(TILE * 0.4, -TILE * 0.4), red);
        }
    }
}
