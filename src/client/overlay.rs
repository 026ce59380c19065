//! The rules made visible: squares the creature in turn can reach (and by sprinting), the path
//! to the square under the cursor, line of sight and cover to it, the facing sectors of the
//! creature under it, and the squares an area attack would cover.

use super::input::{Choice, Hover, Intent, player_awaited};
use super::screens::{OnBattleScreen, Screen};
use super::{TILE, Viewer, shown_creature_at, square_centre};
use crate::battle::{ActiveBattle, Command};
use crate::rules::facing::{Actor, Sector, sector_for};
use crate::rules::grid::{Footprint, Pos};
use crate::rules::los::sight_line;
use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_systems(Update, (shade_unseen, shade_reachable, draw_aids).in_set(OnBattleScreen));
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
    shades: Query<Entity, With<FogShade>>,
    mut made_for: Local<Option<usize>>,
) {
    let b = &battle.battle;
    // A battle begun afresh may have a log as long as the last one's.
    if *made_for == Some(b.log().len()) && !battle.is_added() {
        return;
    }
    *made_for = Some(b.log().len());
    for e in &shades {
        commands.entity(e).despawn();
    }
    let seen = b.seen_squares(viewer.side);
    for (i, _) in seen.iter().enumerate().filter(|(_, s)| !**s) {
        commands.spawn((
            Sprite::from_color(Color::srgba(0.0, 0.0, 0.05, 0.38), Vec2::splat(TILE)),
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

/// MOVE-1, MOVE-8: shade every square the creature in turn can end a move on.
fn shade_reachable(
    mut commands: Commands,
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    choice: Res<Choice>,
    shades: Query<Entity, With<ReachShade>>,
    mut made_for: Local<ShadeKey>,
) {
    let b = &battle.battle;
    let me = player_awaited(&battle, &viewer).filter(|(_, w)| w.is_none()).map(|(c, _)| c);
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
    let f = b.fighter(me);
    let Ok(field) = b.reachable(me, choice.sprint) else { return };
    let colour = if choice.sprint { Color::srgba(0.95, 0.6, 0.1, 0.28) } else { Color::srgba(0.3, 0.6, 1.0, 0.25) };
    for p in field.destinations().filter(|&p| p != f.origin) {
        let centre = square_centre(p);
        commands.spawn((
            Sprite::from_color(colour, Vec2::splat(TILE - 2.0)),
            Transform::from_translation(centre.extend(1.0)),
            ReachShade,
            DespawnOnExit(Screen::Battle),
        ));
    }
}

fn draw_aids(
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    hover: Res<Hover>,
    intent: Res<Intent>,
    mut gizmos: Gizmos,
) {
    let b = &battle.battle;
    let Some(at) = hover.square else { return };
    gizmos.rect_2d(Isometry2d::from_translation(square_centre(at)), Vec2::splat(TILE), Color::WHITE);
    // FACE-1, FACE-E1: the sectors of the creature under the cursor, as an attacker sees them.
    if let Some(t) = shown_creature_at(b, viewer.side, at) {
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
    if at != f.origin {
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
        Some(Command::Move { path, .. }) => {
            for w in path.windows(2) {
                gizmos.line_2d(square_centre(w[0]), square_centre(w[1]), Color::srgb(0.2, 0.9, 1.0));
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
        }
        _ => {}
    }
}
