//! What the dice did, shown where it happened: each segment's outcome floats up from its target
//! for a moment — the damage in red, a miss or a solid defense in grey, a fall in gold — from
//! the side's own view of the events, as they arrive.

use super::screens::{OnBattleScreen, Screen};
use super::{TILE, Viewer, square_centre};
use crate::battle::{ActiveBattle, BattleEvent, BattleSystems, Event};
use bevy::prelude::*;
use bevy::text::FontSize;

/// Seconds a popup stays.
const LIFETIME: f32 = 1.4;

#[derive(Component)]
struct Popup {
    age: f32,
    from: Vec3,
}

pub fn plugin(app: &mut App) {
    app.add_systems(Update, (spawn_popups.after(BattleSystems::Publish), float_popups).chain().in_set(OnBattleScreen));
}

fn spawn_popups(
    mut commands: Commands,
    mut events: MessageReader<BattleEvent>,
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
) {
    let b = &battle.battle;
    let side = &b.sides()[viewer.side].name;
    // A restarted battle replays its log from the start: no popups for the past.
    if battle.is_added() {
        events.clear();
        return;
    }
    let mut stacked = 0.0;
    for BattleEvent(entry) in events.read() {
        if !entry.visible_to.contains(side) {
            continue;
        }
        let (creature, text, colour) = match &entry.event {
            Event::SegmentResolved { target, hit, damage, solid_defense, .. } => {
                let (t, c) = match (hit, damage) {
                    (true, d) if *d > 0 => (format!("-{d}"), Color::srgb(1.0, 0.3, 0.25)),
                    _ if *solid_defense => ("solid defense".to_string(), Color::srgb(0.75, 0.8, 0.9)),
                    _ => ("miss".to_string(), Color::srgb(0.8, 0.8, 0.8)),
                };
                (*target, t, c)
            }
            Event::Unconscious { creature } => (*creature, "DOWN".to_string(), Color::srgb(1.0, 0.8, 0.2)),
            _ => continue,
        };
        let Some(f) = b.creatures().get(creature as usize) else { continue };
        let centre = square_centre(f.origin) + Vec2::splat((f.size.footprint() as f32 - 1.0) * TILE / 2.0);
        // Several outcomes at once stack instead of overlapping.
        let from = (centre + Vec2::new(0.0, TILE * 0.5 + stacked)).extend(40.0);
        stacked += 14.0;
        commands.spawn((
            DespawnOnExit(Screen::Battle),
            Popup { age: 0.0, from },
            Text2d::new(text),
            TextFont { font_size: FontSize::Px(16.0), ..default() },
            TextColor(colour),
            Transform::from_translation(from),
        ));
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
        t.translation = p.from + Vec3::Y * (p.age * 18.0);
        colour.0.set_alpha(1.0 - (p.age / LIFETIME).powi(2));
        redraw.write(bevy::window::RequestRedraw);
    }
}
