//! The combat log strip: what the player's side saw, narrated once per event as it arrives
//! (never the whole log again), colour-coded, with scrollback (PageUp/PageDown, Home/End, or
//! the mouse wheel over the strip).

use super::screens::{OnBattleScreen, Screen};
use super::{LOG_HEIGHT, PANEL_WIDTH, Viewer};
use crate::battle::narrate::narrate;
use crate::battle::{ActiveBattle, BattleEvent, BattleSystems, Event};
use bevy::input::mouse::MouseWheel;
use bevy::prelude::*;

/// Lines shown at once.
const SHOWN: usize = 9;
/// Lines kept for scrolling back; older ones go (a long battle must not grow without bound).
const KEPT: usize = 4000;

/// The narrated lines the viewer's side saw, oldest first, and how far it is scrolled back.
#[derive(Resource, Default)]
pub struct CombatLog {
    lines: Vec<(String, Color)>,
    /// Lines scrolled back from the newest.
    back: usize,
}

#[derive(Component)]
struct LogLine(usize);

pub fn plugin(app: &mut App) {
    app.init_resource::<CombatLog>()
        .add_systems(OnEnter(Screen::Battle), (|mut log: ResMut<CombatLog>| *log = CombatLog::default(), spawn_strip))
        .add_systems(Update, (collect.after(BattleSystems::Publish), scroll, show).chain().in_set(OnBattleScreen));
}

/// The colour of a line: blows red, misses and solid defenses grey-blue, the turn's frame gold.
fn colour_for(e: &Event) -> Color {
    match e {
        Event::Damaged { .. } | Event::Unconscious { .. } | Event::Died { .. } => Color::srgb(1.0, 0.45, 0.4),
        Event::SegmentResolved { .. } | Event::Rolled { .. } => Color::srgb(0.8, 0.82, 0.78),
        Event::TurnStarted { .. } | Event::RoundStarted { .. } => Color::srgb(1.0, 0.85, 0.45),
        Event::AttackDeclared { .. } | Event::AttackedByUnseen { .. } => Color::srgb(1.0, 0.7, 0.45),
        Event::Spotted { .. } | Event::LostSight { .. } => Color::srgb(0.6, 0.8, 1.0),
        _ => Color::srgb(0.7, 0.72, 0.68),
    }
}

fn collect(
    mut events: MessageReader<BattleEvent>,
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    mut log: ResMut<CombatLog>,
) {
    let b = &battle.battle;
    for BattleEvent(entry) in events.read() {
        if !viewer.shows(b, entry) {
            continue;
        }
        let Some(text) = narrate(b, &entry.event) else { continue };
        let colour = colour_for(&entry.event);
        for line in text.lines() {
            log.lines.push((super::hud::plain(line), colour));
            // Scrolled back, the view stays on what the player is reading.
            if log.back > 0 {
                log.back += 1;
            }
        }
    }
    if log.lines.len() > KEPT {
        let extra = log.lines.len() - KEPT;
        log.lines.drain(..extra);
    }
}

fn scroll(
    keys: Res<ButtonInput<KeyCode>>,
    mut wheel: MessageReader<MouseWheel>,
    window: Query<&Window>,
    mut log: ResMut<CombatLog>,
) {
    let most = log.lines.len().saturating_sub(SHOWN);
    let mut back = log.back as i64;
    if keys.just_pressed(KeyCode::PageUp) {
        back += SHOWN as i64 - 1;
    }
    if keys.just_pressed(KeyCode::PageDown) {
        back -= SHOWN as i64 - 1;
    }
    if keys.just_pressed(KeyCode::Home) {
        back = most as i64;
    }
    if keys.just_pressed(KeyCode::End) {
        back = 0;
    }
    let over_strip = window
        .single()
        .ok()
        .and_then(|w| Some((w.cursor_position()?, w.width(), w.height())))
        .is_some_and(|(c, w, h)| c.y > h - LOG_HEIGHT && c.x < w - PANEL_WIDTH);
    for w in wheel.read() {
        if over_strip {
            back += (w.y.signum() * 3.0) as i64;
        }
    }
    let back = back.clamp(0, most as i64) as usize;
    if back != log.back {
        log.back = back;
    }
}

fn spawn_strip(mut commands: Commands) {
    commands
        .spawn((
            DespawnOnExit(Screen::Battle),
            super::hud::HudRoot,
            Node {
                position_type: PositionType::Absolute,
                left: px(0),
                right: px(PANEL_WIDTH),
                bottom: px(0),
                height: px(LOG_HEIGHT),
                padding: UiRect { left: px(10), right: px(10), top: px(6), bottom: px(6) },
                flex_direction: FlexDirection::Column,
                overflow: Overflow::clip(),
                ..default()
            },
            BackgroundColor(Color::srgba(0.05, 0.05, 0.07, 0.92)),
        ))
        .with_children(|c| {
            for k in 0..=SHOWN {
                c.spawn((Text::new(""), super::screens::font(13.0), TextColor(Color::WHITE), LogLine(k)));
            }
        });
}

fn show(log: Res<CombatLog>, mut lines: Query<(&LogLine, &mut Text, &mut TextColor)>) {
    if !log.is_changed() {
        return;
    }
    let end = log.lines.len() - log.back.min(log.lines.len());
    let start = end.saturating_sub(SHOWN);
    for (LogLine(k), mut text, mut colour) in &mut lines {
        let (s, c) = if *k == SHOWN {
            // The last row says where the view is when scrolled back.
            if log.back > 0 {
                (format!("-- {} newer lines below: PageDown / End --", log.back), Color::srgb(0.55, 0.6, 0.7))
            } else {
                (String::new(), Color::WHITE)
            }
        } else {
            log.lines
                .get(start + k)
                .filter(|_| start + k < end)
                .map_or((String::new(), Color::WHITE), |(s, c)| (s.clone(), *c))
        };
        if text.0 != s {
            text.0 = s;
        }
        colour.set_if_neq(TextColor(c));
    }
}
