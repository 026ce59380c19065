//! The map as a tilemap, and the creatures as tokens: a disc in the side's colour, a wedge
//! toward its facing, its name, and one bar per attribute pool.

use super::art::{body_mesh, tile_for, tileset};
use super::screens::{OnBattleScreen, Screen};
use super::stage::{Flash, Stage};
use super::{LOG_HEIGHT, PANEL_WIDTH, TILE, Viewer, square_centre};
use crate::battle::{ActiveBattle, CreatureToken, Heading, OnGrid, Presence, Stance, Vitals};
use crate::rules::grid::Pos;
use crate::rules::posture::Posture;
use bevy::color::Mix;
use bevy::image::Image;
use bevy::prelude::*;
use bevy::text::FontSize;
use bevy_ecs_tilemap::prelude::*;

pub fn plugin(app: &mut App) {
    app.insert_resource(FollowTurn(true))
        .add_systems(Startup, spawn_camera)
        .add_systems(OnEnter(Screen::Battle), (spawn_map, fit_camera).in_set(OnBattleScreen))
        .add_systems(OnExit(Screen::Battle), reset_camera)
        .add_systems(
            Update,
            (retile, dress_tokens, place_tokens, glide_tokens, show_tokens, draw_last_seen, steer_camera)
                .chain()
                .in_set(OnBattleScreen),
        );
}

/// Side colours: the viewer's side first, then its foes.
pub fn side_colour(side: usize, viewer: &Viewer) -> Color {
    const OTHERS: [Color; 3] =
        [Color::srgb(0.80, 0.22, 0.20), Color::srgb(0.85, 0.62, 0.15), Color::srgb(0.55, 0.30, 0.70)];
    if side == viewer.side {
        Color::srgb(0.20, 0.45, 0.85)
    } else {
        let k = if side > viewer.side { side - 1 } else { side };
        OTHERS[k % OTHERS.len()]
    }
}

fn spawn_map(mut commands: Commands, battle: Res<ActiveBattle>, mut images: ResMut<Assets<Image>>) {
    let map = &battle.battle.map();
    let size = TilemapSize { x: map.width() as u32, y: map.height() as u32 };
    let tilemap = commands.spawn(DespawnOnExit(Screen::Battle)).id();
    let mut storage = TileStorage::empty(size);
    for y in 0..map.height() {
        for x in 0..map.width() {
            let terrain = map.terrain(Pos::new(x, y));
            let position = TilePos { x: x as u32, y: y as u32 };
            // PERC-E3: unlit squares are drawn dim and blue.
            let color = if terrain.dark { Color::srgb(0.42, 0.45, 0.62) } else { Color::WHITE };
            let tile = commands
                .spawn((
                    TileBundle {
                        position,
                        tilemap_id: TilemapId(tilemap),
                        texture_index: TileTextureIndex(tile_for(terrain) as u32),
                        color: TileColor(color),
                        ..default()
                    },
                    DespawnOnExit(Screen::Battle),
                ))
                .id();
            storage.set(&position, tile);
        }
    }
    let tile_size = TilemapTileSize { x: TILE, y: TILE };
    commands.entity(tilemap).insert(TilemapBundle {
        grid_size: tile_size.into(),
        size,
        storage,
        texture: TilemapTexture::Single(images.add(tileset())),
        tile_size,
        ..default()
    });
}

/// ATK-E6, ATK-16: a door opened or closed, an object broken to rubble: the map's squares
/// follow the battle's terrain (checked only when the battle changed).
fn retile(battle: Res<ActiveBattle>, mut tiles: Query<(&TilePos, &mut TileTextureIndex)>) {
    if !battle.is_changed() || battle.battle.objects().is_empty() {
        return;
    }
    let map = battle.battle.map();
    for (pos, mut index) in &mut tiles {
        let want = tile_for(map.terrain(Pos::new(pos.x as i32, pos.y as i32))) as u32;
        if index.0 != want {
            index.0 = want;
        }
    }
}

/// One camera for every screen; the battle screen fits it to the map. A battle opened from the
/// command line is entered before `Startup` (the first state transition runs first) and has
/// spawned it already.
fn spawn_camera(mut commands: Commands, cameras: Query<(), With<Camera2d>>) {
    if cameras.is_empty() {
        commands.spawn((Camera2d, Transform::from_xyz(0.0, 0.0, 100.0)));
    }
}

/// The view that centres the map in the part of the window the panels leave free, zoomed to
/// fit it.
fn fitted_view(map: &crate::rules::grid::GridMap, window: Option<&Window>) -> (Transform, Projection) {
    let (w, h) = window.map_or((1280.0, 720.0), |w| (w.width(), w.height()));
    let free = Vec2::new((w - PANEL_WIDTH).max(200.0), (h - LOG_HEIGHT).max(200.0));
    let extent = Vec2::new(map.width() as f32, map.height() as f32) * TILE;
    let scale = (extent.x / (free.x - 24.0)).max(extent.y / (free.y - 24.0)).max(0.35);
    let map_centre = (extent - Vec2::splat(TILE)) / 2.0;
    // The free area's centre sits left of and above the window's centre.
    let shift = Vec2::new(PANEL_WIDTH / 2.0, -LOG_HEIGHT / 2.0) * scale;
    let fitted = Transform::from_translation((map_centre + shift).extend(100.0));
    (fitted, Projection::Orthographic(OrthographicProjection { scale, ..OrthographicProjection::default_2d() }))
}

fn fit_camera(
    mut commands: Commands,
    battle: Res<ActiveBattle>,
    window: Query<&Window>,
    mut camera: Query<(&mut Transform, &mut Projection), With<Camera2d>>,
) {
    let (fitted, zoom) = fitted_view(battle.battle.map(), window.iter().next());
    if camera.is_empty() {
        commands.spawn((Camera2d, fitted, zoom));
        return;
    }
    for (mut t, mut p) in &mut camera {
        *t = fitted;
        *p = zoom.clone();
    }
}

/// Whether the camera follows the creature in turn (L toggles it).
#[derive(Resource)]
pub struct FollowTurn(pub bool);

/// V puts the view back to the whole map; on a resized window it refits; with following on,
/// a creature coming into its turn off screen is brought into view.
#[allow(clippy::too_many_arguments)] // a Bevy system: one parameter per resource it uses
fn steer_camera(
    keys: Res<ButtonInput<KeyCode>>,
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    mut follow: ResMut<FollowTurn>,
    mut resized: MessageReader<bevy::window::WindowResized>,
    window: Query<&Window>,
    mut camera: Query<(&mut Transform, &mut Projection), With<Camera2d>>,
    mut last: Local<Option<crate::battle::CreatureId>>,
) {
    let Ok((mut t, mut p)) = camera.single_mut() else { return };
    if keys.just_pressed(KeyCode::KeyL) {
        follow.0 = !follow.0;
    }
    if keys.just_pressed(KeyCode::KeyV) || resized.read().count() > 0 {
        (*t, *p) = fitted_view(battle.battle.map(), window.iter().next());
    }
    let b = &battle.battle;
    let now = b.awaiting().map(|(c, _)| c).filter(|&c| viewer.sees(b, c));
    if now == *last {
        return;
    }
    *last = now;
    let (Some(c), true, Projection::Orthographic(ortho)) = (now, follow.0, p.as_ref()) else { return };
    let f = b.fighter(c);
    let at = token_centre(&OnGrid { origin: f.origin, size: f.size });
    let (w, h) = window.iter().next().map_or((1280.0, 720.0), |w| (w.width(), w.height()));
    // The free area in world units, around the camera (shifted by the panels).
    let half = Vec2::new((w - PANEL_WIDTH) / 2.0, (h - LOG_HEIGHT) / 2.0) * ortho.scale;
    let centre = t.translation.truncate() - Vec2::new(PANEL_WIDTH / 2.0, -LOG_HEIGHT / 2.0) * ortho.scale;
    let off = (at - centre).abs() - (half - Vec2::splat(TILE * 1.5));
    if off.x > 0.0 || off.y > 0.0 {
        let shift = Vec2::new(PANEL_WIDTH / 2.0, -LOG_HEIGHT / 2.0) * ortho.scale;
        t.translation = (at + shift).extend(t.translation.z);
    }
}

/// Other screens are drawn by the UI alone, at the camera's rest.
pub(super) fn reset_camera(mut camera: Query<(&mut Transform, &mut Projection), With<Camera2d>>) {
    for (mut t, mut p) in &mut camera {
        *t = Transform::from_xyz(0.0, 0.0, 100.0);
        *p = Projection::Orthographic(OrthographicProjection::default_2d());
    }
}

#[derive(Component)]
pub struct FacingWedge;

/// Where a token is heading: the squares still to walk (the stage fills them from the events
/// the viewer's side saw), a jump to make first, and whether to skip to the end (T held).
#[derive(Component, Default)]
pub struct Glide {
    pub path: std::collections::VecDeque<Vec3>,
    pub snap_to: Option<Vec3>,
    pub hurry: bool,
}

/// Squares a second a token glides.
const GLIDE_SPEED: f32 = 10.0;

#[derive(Component)]
pub struct PoolBar(usize);

#[derive(Component)]
pub struct TokenBody;

/// How opaque an invisible creature's token is, for those who are shown it (PERC-E6).
const GHOST_ALPHA: f32 = 0.35;

/// Where a token's centre is drawn.
pub fn token_centre(place: &OnGrid) -> Vec2 {
    let side = place.size.footprint() as f32;
    square_centre(place.origin) + Vec2::splat((side - 1.0) * TILE / 2.0)
}

fn facing_angle(h: &Heading) -> f32 {
    let (dx, dy) = h.0.delta();
    (dy as f32).atan2(dx as f32)
}

/// The X drawn over a creature that is down.
#[derive(Component)]
pub struct DownMark;

fn dress_tokens(
    mut commands: Commands,
    added: Query<(Entity, &CreatureToken, &OnGrid, &Heading), Added<CreatureToken>>,
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    if added.is_empty() {
        return;
    }
    let b = &battle.battle;
    let names: Vec<&str> = b.creatures().iter().map(|f| f.name.as_str()).collect();
    let labels = super::labels::abbreviations(&names);
    let kinds = super::labels::kind_indices(b);
    for (entity, token, place, heading) in &added {
        let side = place.size.footprint() as f32;
        let radius = TILE * (0.5 * side - 0.1);
        // PERC-E6: an invisible creature is drawn faint, rim and body (also in `show_tokens`).
        let ghost = b.fighter(token.id).invisible;
        let colour = side_colour(token.side, &viewer).with_alpha(if ghost { GHOST_ALPHA } else { 1.0 });
        let kind = kinds.get(token.id as usize).copied().unwrap_or(0);
        let body = meshes.add(body_mesh(kind, radius));
        let rim = meshes.add(body_mesh(kind, radius + 2.0));
        let wedge = meshes.add(Triangle2d::new(
            Vec2::new(radius + 7.0, 0.0),
            Vec2::new(radius - 5.0, 7.0),
            Vec2::new(radius - 5.0, -7.0),
        ));
        let bar = meshes.add(Rectangle::new(TILE * side * 0.95, 4.0));
        let label = labels.get(token.id as usize).cloned().unwrap_or_default();
        commands
            .entity(entity)
            .insert((
                // Smaller tokens above larger ones: a rider sits on its mount (MOVE-E8).
                Transform::from_translation(token_centre(place).extend(10.0 + 2.0 / side)),
                Glide::default(),
                Visibility::Visible,
            ))
            .with_children(|c| {
                let rim_alpha = if ghost { GHOST_ALPHA } else { 1.0 };
                c.spawn((Mesh2d(rim), MeshMaterial2d(materials.add(Color::srgba(0.08, 0.08, 0.1, rim_alpha)))));
                c.spawn((
                    Mesh2d(body),
                    MeshMaterial2d(materials.add(colour)),
                    Transform::from_xyz(0.0, 0.0, 0.1),
                    TokenBody,
                ));
                c.spawn((
                    Mesh2d(wedge),
                    MeshMaterial2d(materials.add(Color::srgb(0.97, 0.93, 0.55))),
                    Transform::from_xyz(0.0, 0.0, 0.2).with_rotation(Quat::from_rotation_z(facing_angle(heading))),
                    FacingWedge,
                ));
                c.spawn((
                    Text2d::new(label),
                    TextFont { font_size: FontSize::Px(10.0 * side.min(2.0)), ..default() },
                    TextColor(Color::WHITE),
                    Transform::from_xyz(0.0, 0.0, 0.3),
                ));
                // Down: a dark red X across the token, over everything else on it.
                for angle in [std::f32::consts::FRAC_PI_4, -std::f32::consts::FRAC_PI_4] {
                    c.spawn((
                        Mesh2d(bar.clone()),
                        MeshMaterial2d(materials.add(Color::srgb(0.55, 0.05, 0.05))),
                        Transform::from_xyz(0.0, 0.0, 0.5).with_rotation(Quat::from_rotation_z(angle)),
                        Visibility::Hidden,
                        DownMark,
                    ));
                }
                for k in 0..3 {
                    let y = -radius - 3.0 - 3.0 * k as f32;
                    c.spawn((
                        Sprite::from_color(Color::srgb(0.1, 0.1, 0.1), Vec2::new(TILE * side - 6.0, 2.0)),
                        Transform::from_xyz(0.0, y, 0.3),
                    ));
                    c.spawn((
                        Sprite::from_color(pool_colour(k), Vec2::new(TILE * side - 6.0, 2.0)),
                        bevy::sprite::Anchor::CENTER_LEFT,
                        Transform::from_xyz(-(TILE * side - 6.0) / 2.0, y, 0.4),
                        PoolBar(k),
                    ));
                }
            });
    }
}

/// Tokens walk the squares the stage gave them; once the stage is idle, any token not where
/// its creature stands (a move the side did not see, a restart) glides there directly.
fn glide_tokens(
    mut tokens: Query<(&OnGrid, &mut Glide, &mut Transform)>,
    stage: Res<Stage>,
    time: Res<Time>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    let step = GLIDE_SPEED * TILE * time.delta_secs();
    for (place, mut glide, mut t) in &mut tokens {
        if let Some(at) = glide.snap_to.take() {
            t.translation = at;
        }
        if glide.hurry {
            glide.hurry = false;
            if let Some(last) = glide.path.back().copied() {
                t.translation = last;
            }
            glide.path.clear();
        }
        if glide.path.is_empty() && stage.idle() {
            let home = token_centre(place).extend(10.0);
            if t.translation != home {
                glide.path.push_back(home);
            }
        }
        let Some(&next) = glide.path.front() else { continue };
        let gap = next - t.translation;
        if gap.length() <= step {
            t.translation = next;
            glide.path.pop_front();
        } else {
            t.translation += gap.normalize() * step;
        }
        // The window sleeps between inputs; a glide under way keeps it drawing.
        redraw.write(bevy::window::RequestRedraw);
    }
}

/// Might, Activeness, Spirit.
pub fn pool_colour(k: usize) -> Color {
    [Color::srgb(0.85, 0.25, 0.2), Color::srgb(0.3, 0.8, 0.3), Color::srgb(0.4, 0.55, 0.95)][k]
}

type Placed<'w, 's> = Query<'w, 's, (&'static CreatureToken, &'static Heading, &'static Vitals, &'static Children)>;

type TokenParts<'w, 's> = Query<
    'w,
    's,
    (&'static mut Transform, Option<&'static FacingWedge>, Option<&'static PoolBar>),
    Without<CreatureToken>,
>;

/// The facing wedge turns at once; the pool bars change when the stage has shown the blows
/// (or for the creature the current beat is about).
fn place_tokens(tokens: Placed, mut parts: TokenParts, stage: Res<Stage>) {
    for (token, heading, vitals, children) in &tokens {
        let caught_up = stage.idle() || stage.shows_creature(token.id);
        for child in children.iter() {
            let Ok((mut t, wedge, bar)) = parts.get_mut(child) else { continue };
            if wedge.is_some() {
                let turned = Quat::from_rotation_z(facing_angle(heading));
                if t.rotation != turned {
                    t.rotation = turned;
                }
            }
            if let Some(PoolBar(k)) = bar
                && caught_up
            {
                let fill = vitals.attrs.pools[*k].map_or(0.0, |p| p.current.max(0) as f32 / p.max.max(1) as f32);
                if t.scale.x != fill.max(0.001) {
                    t.scale.x = fill.max(0.001);
                }
            }
        }
    }
}

type TokenLooks<'w, 's> = Query<
    'w,
    's,
    (
        &'static CreatureToken,
        &'static Vitals,
        &'static Stance,
        &'static mut Visibility,
        &'static mut Transform,
        &'static Children,
        Option<&'static Flash>,
    ),
>;

type TokenBodies<'w, 's> = Query<
    'w,
    's,
    (
        Option<&'static MeshMaterial2d<ColorMaterial>>,
        Option<&'static mut Visibility>,
        Has<TokenBody>,
        Has<DownMark>,
        Has<FacingWedge>,
    ),
    Without<CreatureToken>,
>;

/// PERC: another side's creature is drawn only while the viewer's side perceives it. A
/// creature that is down lies tilted, greyed, under a red X, its facing wedge gone (never to be
/// taken for a crouching one, which is only drawn smaller); the dead and fled vanish. A hit
/// flashes the token white; an invisible one is translucent. Checked every frame (a few dozen tokens): a token spawned after the
/// battle last changed must not show what its side cannot see.
fn show_tokens(
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    stage: Res<Stage>,
    mut tokens: TokenLooks,
    mut parts: TokenBodies,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let b = &battle.battle;
    for (token, vitals, stance, mut visibility, mut transform, children, flash) in &mut tokens {
        let seen = viewer.sees(b, token.id);
        let caught_up = stage.idle() || stage.shows_creature(token.id);
        // Leaving the battle (dead, fled) is shown once the stage has played it; leaving sight
        // at once.
        let present = vitals.presence == Presence::Active || !caught_up;
        visibility.set_if_neq(if present && seen { Visibility::Visible } else { Visibility::Hidden });
        if !caught_up {
            continue;
        }
        let out = vitals.attrs.is_unconscious();
        let scale = Vec3::splat(match (out, stance.0) {
            (true, _) => 0.9,
            (_, Posture::Standing) => 1.0,
            (_, Posture::Crouch | Posture::Sit) => 0.85,
            (_, Posture::Prone | Posture::Lying) => 0.72,
        });
        if transform.scale != scale {
            transform.scale = scale;
        }
        let base = side_colour(token.side, &viewer);
        let colour = if flash.is_some() {
            Color::WHITE
        } else if out {
            Color::from(base.to_srgba().mix(&Srgba::gray(0.35), 0.7))
        } else {
            base
        };
        // PERC-E6: an invisible creature is drawn as a ghost (its own side, a GM, or a side
        // that locates it by another sense).
        let colour = if b.fighter(token.id).invisible { colour.with_alpha(GHOST_ALPHA) } else { colour };
        for child in children.iter() {
            let Ok((material, part_visibility, is_body, is_mark, is_wedge)) = parts.get_mut(child) else { continue };
            if is_body
                && let Some(m) = material
                && materials.get(&m.0).is_some_and(|mat| mat.color != colour)
                && let Some(mut mat) = materials.get_mut(&m.0)
            {
                mat.color = colour;
            }
            if let Some(mut v) = part_visibility {
                if is_mark {
                    v.set_if_neq(if out { Visibility::Inherited } else { Visibility::Hidden });
                } else if is_wedge {
                    v.set_if_neq(if out { Visibility::Hidden } else { Visibility::Inherited });
                }
            }
        }
    }
}

/// Where the viewer's side last saw creatures it no longer perceives (its own memory).
fn draw_last_seen(battle: Res<ActiveBattle>, viewer: Res<Viewer>, mut gizmos: Gizmos) {
    let b = &battle.battle;
    // The creature in turn (or answering an attack) wears a gold double ring, if the viewer's
    // side may be shown it.
    if let Some((c, _)) = b.awaiting()
        && viewer.sees(b, c)
    {
        let f = b.fighter(c);
        let place = OnGrid { origin: f.origin, size: f.size };
        let r = TILE * (0.5 * f.size.footprint() as f32 + 0.05);
        let gold = Color::srgb(1.0, 0.82, 0.2);
        gizmos.circle_2d(Isometry2d::from_translation(token_centre(&place)), r, gold);
        gizmos.circle_2d(Isometry2d::from_translation(token_centre(&place)), r + 3.0, gold.with_alpha(0.6));
    }
    for f in b.creatures() {
        if f.side == viewer.side || viewer.sees(b, f.id) {
            continue;
        }
        if let Some(p) = b.last_seen(viewer.side, f.id) {
            let c = square_centre(p);
            let colour = side_colour(f.side, &viewer).with_alpha(0.8);
            gizmos.circle_2d(Isometry2d::from_translation(c), TILE * 0.35, colour);
            gizmos.line_2d(c + Vec2::new(-6.0, -6.0), c + Vec2::new(6.0, 6.0), colour);
            gizmos.line_2d(c + Vec2::new(-6.0, 6.0), c + Vec2::new(6.0, -6.0), colour);
        }
    }
}
