//! TIME-S7 in the window: under the seconds mode each token carries the die by the token, a
//! small badge in its upper right corner showing the seconds left of its running action
//! ("A2"), its keep ("K") or its gap ("G1"); nothing while it is free to act. The badge is a
//! child of the token, so it is drawn only where the viewer's side perceives the creature.

use super::TILE;
use super::screens::OnBattleScreen;
use crate::battle::{ActiveBattle, ClockView, CreatureToken, OnGrid};
use crate::rules::ruleset::TimeModel;
use bevy::prelude::*;
use bevy::text::FontSize;

/// The badge on one token.
#[derive(Component)]
struct ClockBadge;

pub fn plugin(app: &mut App) {
    app.add_systems(Update, (badge_tokens, show_clocks).chain().in_set(OnBattleScreen));
}

fn badge_tokens(
    mut commands: Commands,
    added: Query<(Entity, &OnGrid), Added<CreatureToken>>,
    battle: Res<ActiveBattle>,
) {
    if added.is_empty() || battle.battle.ruleset().time_model != TimeModel::Seconds004 {
        return;
    }
    for (entity, place) in &added {
        let corner = TILE * (0.5 * place.size.footprint() as f32 - 0.2);
        commands.entity(entity).with_children(|c| {
            c.spawn((
                Text2d::new(""),
                TextFont { font_size: FontSize::Px(11.0), ..default() },
                TextColor(Color::srgb(1.0, 0.93, 0.45)),
                Transform::from_xyz(corner, corner, 0.7),
                Visibility::Hidden,
                ClockBadge,
            ))
            .with_children(|badge| {
                badge.spawn((
                    Sprite::from_color(Color::srgba(0.05, 0.05, 0.08, 0.9), Vec2::new(20.0, 13.0)),
                    Transform::from_xyz(0.0, 0.0, -0.05),
                ));
            });
        });
    }
}

fn show_clocks(
    tokens: Query<(&CreatureToken, &Children)>,
    mut badges: Query<(&mut Text2d, &mut Visibility), With<ClockBadge>>,
    battle: Res<ActiveBattle>,
    viewer: Res<super::Viewer>,
) {
    if battle.battle.ruleset().time_model != TimeModel::Seconds004 {
        return;
    }
    for (token, children) in &tokens {
        let clock = battle.battle.clock(token.id);
        // A keep is a readied attack: only its own side knows of it (TIME-E10).
        let secret = clock == ClockView::Keeping && token.side != viewer.side && !viewer.omniscient;
        let label = if secret { None } else { clock.label() };
        for child in children.iter() {
            let Ok((mut text, mut shown)) = badges.get_mut(child) else { continue };
            let wanted = if label.is_some() { Visibility::Inherited } else { Visibility::Hidden };
            if *shown != wanted {
                *shown = wanted;
            }
            let face = label.clone().unwrap_or_default();
            if text.0 != face {
                text.0 = face;
            }
        }
    }
}
