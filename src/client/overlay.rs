//! The rules made visible, each overlay toggled by a key (F2–F7, listed in the legend and the
//! help): squares the creature in turn can reach by its 1st, 2nd, 3rd move (and by sprinting),
//! the path to the square under the cursor, line of sight and cover to it, the facing sectors
//! of the creature under it, the threat view (where the enemies the side perceives could
//! strike next round, and where from the rear arc), fog, grid lines, and the squares an area
//! attack would cover. Fills (reach, fog) and outlines (threat, sectors, templates) keep two
//! overlays on at once readable. Every square's answer is the battle's (`Battle::
//! moves_to_squares`, `threat_map`, `seen_squares`, `area_squares`).

use super::input::{Choice, Hover, Intent, PlayerAction, player_awaited};
use super::screens::{OnBattleScreen, Screen};
use super::{Notice, TILE, Viewer, shown_creature_at, square_centre};
use crate::battle::danger::ThreatMap;
use crate::battle::{ActiveBattle, Command};
use crate::rules::facing::{Actor, Sector, sector_for};
use crate::rules::grid::{Footprint, Pos};
use crate::rules::los::sight_line;
use bevy::prelude::*;
use bevy::text::FontSize;
use leafwing_input_manager::prelude::*;

pub fn plugin(app: &mut App) {
    app.init_resource::<Overlays>()
        .add_systems(OnEnter(Screen::Battle), spawn_legend.in_set(OnBattleScreen))
        .add_systems(
            Update,
            (toggle_overlays, shade_unseen, shade_reachable, draw_threats, draw_aids, update_legend)
                .chain()
                .in_set(OnBattleScreen),
        );
}

/// Which overlays are on.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overlays {
    pub reach: bool,
    pub facing: bool,
    pub threat: bool,
    pub sight: bool,
    pub fog: bool,
    pub grid: bool,
    /// The AI's reasoning in the panel (I); None = on when watching, off when playing.
    pub reasons: Option<bool>,
}

impl Default for Overlays {
    fn default() -> Self {
        Overlays { reach: true, facing: true, threat: false, sight: true, fog: true, grid: false, reasons: None }
    }
}

/// The overlays' names for `--overlay`, with their keys.
pub const OVERLAYS: [(&str, &str); 7] = [
    ("reach", "F2"),
    ("facing", "F3"),
    ("threat", "F4"),
    ("sight", "F5"),
    ("fog", "F6"),
    ("grid", "F7"),
    ("reasons", "I"),
];

/// Exactly the named overlays on ("none": none); an unknown name is refused with the list.
pub fn overlays_from(names: &[String]) -> Result<Overlays, String> {
    if names.is_empty() {
        return Ok(Overlays::default());
    }
    let mut o = Overlays {
        reach: false,
        facing: false,
        threat: false,
        sight: false,
        fog: false,
        grid: false,
        reasons: Some(false),
    };
    for n in names {
        match n.as_str() {
            "reach" => o.reach = true,
            "facing" => o.facing = true,
            "threat" => o.threat = true,
            "sight" => o.sight = true,
            "fog" => o.fog = true,
            "grid" => o.grid = true,
            "reasons" => o.reasons = Some(true),
            "none" => {}
            other => {
                let known: Vec<&str> = OVERLAYS.iter().map(|(n, _)| *n).collect();
                return Err(format!("--overlay {other}: no such overlay (known: {}, none)", known.join(", ")));
            }
        }
    }
    Ok(o)
}

fn toggle_overlays(
    actions: Query<&ActionState<PlayerAction>>,
    mut overlays: ResMut<Overlays>,
    mut notice: ResMut<Notice>,
) {
    let Ok(a) = actions.single() else { return };
    let o = &mut *overlays;
    let toggles: [(PlayerAction, &mut bool, &str); 6] = [
        (PlayerAction::ToggleReach, &mut o.reach, "reach"),
        (PlayerAction::ToggleFacing, &mut o.facing, "facing sectors"),
        (PlayerAction::ToggleThreat, &mut o.threat, "threat view"),
        (PlayerAction::ToggleSight, &mut o.sight, "line of sight"),
        (PlayerAction::ToggleFog, &mut o.fog, "fog"),
        (PlayerAction::ToggleGrid, &mut o.grid, "grid"),
    ];
    for (action, on, name) in toggles {
        if a.just_pressed(&action) {
            *on = !*on;
            notice.0 = format!("{name} overlay {}", if *on { "on" } else { "off" });
        }
    }
}

#[derive(Component)]
struct FogShade;

/// PERC-2, PERC-E1, PERC-E3, FACE-4: squares none of the viewer's standing creatures can see
/// now (out of vision range, behind walls, in their blind rear, or unlit without darkvision)
/// are drawn dimmed. Redone when the battle's log grows.
fn shade_unseen(
    mut commands: Commands,
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    overlays: Res<Overlays>,
    shades: Query<Entity, With<FogShade>>,
    mut made_for: Local<Option<(usize, bool)>>,
) {
    let b = &battle.battle;
    let on = overlays.fog && !viewer.omniscient;
    // A battle begun afresh may have a log as long as the last one's.
    if *made_for == Some((b.log().len(), on)) && !battle.is_added() {
        return;
    }
    *made_for = Some((b.log().len(), on));
    for e in &shades {
        commands.entity(e).despawn();
    }
    if !on {
        return;
    }
    let seen = b.seen_squares(viewer.side);
    for (i, _) in seen.iter().enumerate().filter(|(_, s)| !**s) {
        commands.spawn((
            Sprite::from_color(Color::srgba(0.0, 0.0, 0.05, 0.5), Vec2::splat(TILE)),
            Transform::from_translation(square_centre(b.map().pos_of(i)).extend(0.5)),
            FogShade,
            DespawnOnExit(Screen::Battle),
        ));
    }
}

#[derive(Component)]
struct ReachShade;

/// (creature, its position, AP, sprinting, log length) the shading was made for.
type ShadeKey = Option<(u32, Pos, i32, bool, usize)>;

/// Reach fills by the number of moves a square needs: the 1st strongest.
const RING_ALPHA: [f32; 4] = [0.30, 0.17, 0.09, 0.05];

/// MOVE-1, MOVE-8, TIME-8: shade every square the creature in turn can end a move on this
/// turn, by how many moves it takes (amber while sprinting: one sprint's squares).
fn shade_reachable(
    mut commands: Commands,
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    choice: Res<Choice>,
    overlays: Res<Overlays>,
    shades: Query<Entity, With<ReachShade>>,
    mut made_for: Local<ShadeKey>,
) {
    let b = &battle.battle;
    let me = player_awaited(&battle, &viewer).filter(|(_, w)| w.is_none() && overlays.reach).map(|(c, _)| c);
    let key = me.map(|c| {
        let f = b.fighter(c);
        (c, f.origin, f.ap, choice.sprint, b.log().len())
    });
    if *made_for == key && !battle.is_added() {
        return;
    }
    *made_for = key;
    for e in &shades {
        commands.entity(e).despawn();
    }
    let Some(me) = me else { return };
    let squares: Vec<(Pos, u8)> = if choice.sprint {
        let Ok(field) = b.reachable(me, true) else { return };
        let origin = b.fighter(me).origin;
        field.destinations().filter(|&p| p != origin).map(|p| (p, 1)).collect()
    } else {
        b.moves_to_squares(me)
    };
    for (p, moves) in squares {
        let alpha = RING_ALPHA[(moves as usize).saturating_sub(1).min(RING_ALPHA.len() - 1)];
        let colour =
            if choice.sprint { Color::srgba(0.95, 0.6, 0.1, 0.28) } else { Color::srgba(0.3, 0.6, 1.0, alpha) };
        commands.spawn((
            Sprite::from_color(colour, Vec2::splat(TILE - 2.0)),
            Transform::from_translation(square_centre(p).extend(1.0)),
            ReachShade,
            DespawnOnExit(Screen::Battle),
        ));
    }
}

/// The threat view, cached until the battle or the creature asked about changes.
#[derive(Default)]
struct ThreatCache {
    key: Option<(usize, Option<u32>, usize)>,
    map: ThreatMap,
}

/// The threat view (F4): a red outline on each square a perceived enemy could strike next
/// round (thicker where several could), a magenta inner square where a strike would come from
/// the rear arc of the creature in turn as it faces now (ATK-11: it could not defend).
fn draw_threats(
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    overlays: Res<Overlays>,
    mut cache: Local<ThreatCache>,
    mut gizmos: Gizmos,
) {
    if !overlays.threat {
        return;
    }
    let b = &battle.battle;
    let asked = b.awaiting().map(|(c, _)| c).filter(|&c| b.fighter(c).side == viewer.side);
    let key = Some((b.log().len(), asked, viewer.side));
    if cache.key != key || battle.is_changed() {
        cache.map = b.threat_map(viewer.side, asked);
        cache.key = key;
    }
    for (i, t) in cache.map.squares.iter().enumerate() {
        if t.enemies == 0 {
            continue;
        }
        let c = square_centre(b.map().pos_of(i));
        let red = Color::srgba(0.95, 0.2, 0.15, 0.85);
        gizmos.rect_2d(Isometry2d::from_translation(c), Vec2::splat(TILE - 3.0), red);
        if t.enemies > 1 {
            gizmos.rect_2d(Isometry2d::from_translation(c), Vec2::splat(TILE - 6.0), red);
        }
        if t.from_rear {
            gizmos.rect_2d(Isometry2d::from_translation(c), Vec2::splat(TILE * 0.3), Color::srgb(0.95, 0.2, 0.9));
        }
    }
}

fn draw_aids(
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    hover: Res<Hover>,
    intent: Res<Intent>,
    overlays: Res<Overlays>,
    mut gizmos: Gizmos,
) {
    let b = &battle.battle;
    if overlays.grid {
        let (w, h) = (b.map().width() as u32, b.map().height() as u32);
        let centre = Vec2::new((w as f32 - 1.0) * TILE / 2.0, (h as f32 - 1.0) * TILE / 2.0);
        gizmos.grid_2d(
            Isometry2d::from_translation(centre),
            UVec2::new(w, h),
            Vec2::splat(TILE),
            Color::srgba(0.0, 0.0, 0.0, 0.75),
        );
    }
    let Some(at) = hover.square else { return };
    gizmos.rect_2d(Isometry2d::from_translation(square_centre(at)), Vec2::splat(TILE), Color::WHITE);
    // FACE-1, FACE-E1: the sectors of the creature under the cursor, as an attacker sees them.
    if let Some(t) = shown_creature_at(b, &viewer, at).filter(|_| overlays.facing) {
        let tf = t.footprint();
        for dy in -3..=3 + tf.side {
            for dx in -3..=3 + tf.side {
                let p = t.origin.offset(dx, dy);
                if tf.contains(p) || !b.map().in_bounds(p) {
                    continue;
                }
                let colour =
                    match sector_for(tf, t.facing, b.ruleset().facing_arcs, Footprint::single(p), Actor::Attacker) {
                        Some(Sector::Front) => Color::srgba(0.3, 0.9, 0.3, 0.55),
                        Some(Sector::Left | Sector::Right) => Color::srgba(0.95, 0.85, 0.2, 0.55),
                        Some(Sector::Rear) => Color::srgba(0.95, 0.25, 0.2, 0.7),
                        None => continue,
                    };
                gizmos.rect_2d(Isometry2d::from_translation(square_centre(p)), Vec2::splat(TILE * 0.5), colour);
            }
        }
    }
    let Some(me) = intent.creature else { return };
    let f = b.fighter(me);
    // ATK-E5, PERC-E1: line of sight from the creature in turn, and whether it gives cover.
    if at != f.origin && overlays.sight {
        let line = sight_line(b.map(), f.origin, at);
        let colour = if !line.visible {
            Color::srgb(0.95, 0.2, 0.2)
        } else if line.cover {
            Color::srgb(0.95, 0.8, 0.2)
        } else {
            Color::srgb(0.3, 0.95, 0.4)
        };
        gizmos.line_2d(square_centre(f.origin), square_centre(at), colour);
        for p in &line.traced {
            gizmos.rect_2d(Isometry2d::from_translation(square_centre(*p)), Vec2::splat(TILE * 0.2), colour);
        }
    }
    match &intent.command {
        Some(Command::Move { path, .. }) if overlays.reach => {
            for w in path.windows(2) {
                gizmos.line_2d(square_centre(w[0]), square_centre(w[1]), Color::srgb(0.2, 0.9, 1.0));
            }
            // Walking on to strike: the second move, paler.
            for next in &intent.then {
                if let Command::Move { path, .. } = next {
                    for w in path.windows(2) {
                        gizmos.line_2d(square_centre(w[0]), square_centre(w[1]), Color::srgb(0.55, 0.8, 0.95));
                    }
                }
            }
        }
        Some(cmd @ Command::Attack { .. }) => {
            // AREA-*: the template as the engine would place it.
            if let Some(cells) = b.area_squares(me, cmd) {
                for p in cells {
                    gizmos.rect_2d(
                        Isometry2d::from_translation(square_centre(p)),
                        Vec2::splat(TILE - 6.0),
                        Color::srgb(1.0, 0.45, 0.1),
                    );
                }
            }
            // AREA-E5: a curve's line from the attacker through its bends (each ringed) to its end.
            if let Command::Attack { target: crate::battle::Target::Curve(points), .. } = cmd {
                let mut from = b.fighter(me).origin;
                for (i, &p) in points.iter().enumerate() {
                    gizmos.line_2d(square_centre(from), square_centre(p), Color::srgb(1.0, 0.7, 0.25));
                    if i + 1 < points.len() {
                        let at = Isometry2d::from_translation(square_centre(p));
                        gizmos.circle_2d(at, TILE * 0.2, Color::srgb(1.0, 0.85, 0.3));
                    }
                    from = p;
                }
            }
            // MOVE-11, MOVE-12: where a hurting blow would push or pull each target; red when
            // it would go over an edge with a harmful fall.
            for t in b.attack_preview(me, cmd).unwrap_or_default() {
                let Some(f) = t.forced else { continue };
                let from = b.fighter(t.target).origin;
                if f.end == from {
                    continue;
                }
                let colour = if f.fall_dice > 0 { Color::srgb(1.0, 0.2, 0.2) } else { Color::srgb(1.0, 0.85, 0.3) };
                gizmos.arrow_2d(square_centre(from), square_centre(f.end), colour);
                gizmos.rect_2d(Isometry2d::from_translation(square_centre(f.end)), Vec2::splat(TILE * 0.6), colour);
            }
        }
        _ => {}
    }
}

#[derive(Component)]
struct Legend;

fn spawn_legend(mut commands: Commands) {
    commands.spawn((
        DespawnOnExit(Screen::Battle),
        Legend,
        Node {
            position_type: PositionType::Absolute,
            left: px(10),
            bottom: px(super::LOG_HEIGHT + 8.0),
            flex_direction: FlexDirection::Column,
            padding: UiRect::all(px(5)),
            row_gap: px(2),
            ..default()
        },
        BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.55)),
        GlobalZIndex(3),
    ));
}

/// The legend: one line per overlay that is on, with its colours and its key.
pub fn legend_rows(o: &Overlays, omniscient: bool) -> Vec<(Vec<Color>, String)> {
    let mut rows = Vec::new();
    if o.reach {
        let blue = |a| Color::srgba(0.3, 0.6, 1.0, a * 2.5);
        rows.push((
            vec![blue(RING_ALPHA[0]), blue(RING_ALPHA[1]), blue(RING_ALPHA[2])],
            "reach: 1st/2nd/3rd move, amber sprint (F2)".into(),
        ));
    }
    if o.threat {
        rows.push((
            vec![Color::srgb(0.95, 0.2, 0.15), Color::srgb(0.95, 0.2, 0.9)],
            "threat next round; magenta: from your rear (F4)".into(),
        ));
    }
    if o.facing {
        rows.push((
            vec![Color::srgb(0.3, 0.9, 0.3), Color::srgb(0.95, 0.85, 0.2), Color::srgb(0.95, 0.25, 0.2)],
            "sectors: front / side / rear, no defense (F3)".into(),
        ));
    }
    if o.sight {
        rows.push((
            vec![Color::srgb(0.3, 0.95, 0.4), Color::srgb(0.95, 0.8, 0.2), Color::srgb(0.95, 0.2, 0.2)],
            "sight: clear / cover / blocked (F5)".into(),
        ));
    }
    if o.fog && !omniscient {
        rows.push((vec![Color::srgb(0.3, 0.3, 0.45)], "fog: unseen by your side (F6)".into()));
    }
    if o.grid {
        rows.push((vec![Color::srgb(0.2, 0.2, 0.2)], "grid (F7)".into()));
    }
    rows
}

fn update_legend(
    mut commands: Commands,
    overlays: Res<Overlays>,
    viewer: Res<Viewer>,
    mut legend: Query<(Entity, &mut Visibility), With<Legend>>,
    mut shown: Local<Option<Overlays>>,
) {
    let Ok((root, mut visibility)) = legend.single_mut() else { return };
    if *shown == Some(*overlays) && !viewer.is_changed() {
        return;
    }
    *shown = Some(*overlays);
    commands.entity(root).despawn_related::<Children>();
    let rows = legend_rows(&overlays, viewer.omniscient);
    *visibility = if rows.is_empty() { Visibility::Hidden } else { Visibility::Inherited };
    for (colours, text) in rows {
        commands.entity(root).with_children(|c| {
            c.spawn(Node { column_gap: px(3), align_items: AlignItems::Center, ..default() }).with_children(|row| {
                for colour in colours {
                    row.spawn((Node { width: px(10), height: px(10), ..default() }, BackgroundColor(colour)));
                }
                row.spawn((
                    Text::new(text),
                    TextFont { font_size: FontSize::Px(12.0), ..default() },
                    TextColor(Color::srgb(0.92, 0.92, 0.9)),
                ));
            });
        });
    }
}
