//! The side panel's room and scrolling: its text stops above the action bar however many
//! buttons the creature in turn has (a caster's five spells and its postures took twice the
//! room kept for them, and the odds or the refusal under the pointer went behind the buttons),
//! and while the pointer is on the map the panel keeps what it is over in view.

use super::hud::{EndTurnRoot, PanelText, SidePanel};
use super::input::Choice;
use super::screens::OnBattleScreen;
use bevy::prelude::*;

/// The panel's room at the bottom before the End turn row is laid out (its first frame).
pub(super) const BOTTOM_ROOM: f32 = 150.0;
/// The room while F1's help is open (the action bar steps aside) or nobody plays.
const BOTTOM_ROOM_BARE: f32 = 50.0;
/// The End turn row's distance from the window's foot (`hud::spawn_hud` places it), and a gap
/// above it.
pub(super) const ROW_BOTTOM: f32 = 12.0;
const GAP: f32 = 6.0;
/// The panel's padding at the top (`hud::spawn_hud` pads it so).
pub(super) const TOP_PADDING: f32 = 10.0;

/// Pixels the panel scrolls per wheel notch.
const PANEL_SCROLL_STEP: f32 = 40.0;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, (make_room, scroll_panel).chain().in_set(OnBattleScreen));
}

/// The room the panel keeps at its foot for a row (the End turn button and the action bar)
/// `row_height` logical pixels tall, shown or not; `None` before it is laid out.
fn bottom_room(row_height: Option<f32>, shown: bool, help: bool) -> f32 {
    match row_height {
        _ if help || !shown => BOTTOM_ROOM_BARE,
        Some(h) if h > 0.0 => h + ROW_BOTTOM + GAP,
        _ => BOTTOM_ROOM,
    }
}

/// Where the panel scrolls to keep the end of its first text (what the pointer is over) in
/// view: nowhere while it fits, else just far enough.
fn keep_in_view(text_bottom: f32, panel_height: f32, room: f32) -> f32 {
    (text_bottom - (panel_height - TOP_PADDING - room)).max(0.0)
}

/// While F1's help is open the action bar steps aside: it covered the help's last lines (its
/// keys do the same as its buttons, and F1 brings it back). Otherwise the panel's text ends
/// where the End turn row begins, as tall as the action bar makes it.
fn make_room(
    choice: Res<Choice>,
    row: Query<(&ComputedNode, &Visibility), With<EndTurnRoot>>,
    mut bar: Query<&mut Node, (With<super::actions::ActionBar>, Without<SidePanel>)>,
    mut panel: Query<&mut Node, With<SidePanel>>,
) {
    // Out of the layout, not only unseen: the row's opaque background would still cover it.
    let display = if choice.help { Display::None } else { Display::Flex };
    for mut node in &mut bar {
        if node.display != display {
            node.display = display;
        }
    }
    let (height, shown) = row
        .single()
        .map_or((None, true), |(n, v)| (Some(n.size().y * n.inverse_scale_factor()), *v != Visibility::Hidden));
    let room = px(bottom_room(height, shown, choice.help).round());
    // Text past the panel's foot is cut above the End turn row, not left to show behind it
    // and beside the action bar's buttons.
    let clip = OverflowClipMargin::content_box();
    for mut node in &mut panel {
        if node.padding.bottom != room || node.overflow_clip_margin != clip {
            node.padding.bottom = room;
            node.overflow_clip_margin = clip;
        }
    }
}

/// The wheel over the panel scrolls it (the layout keeps the offset within its content); its
/// text starts from the top again whenever F1's help opens or closes; with the pointer on the
/// map, what it is over (the end of the first text) is kept in view.
fn scroll_panel(
    mut wheel: MessageReader<bevy::input::mouse::MouseWheel>,
    window: Query<&Window, With<bevy::window::PrimaryWindow>>,
    choice: Res<Choice>,
    text: Query<&ComputedNode, With<PanelText>>,
    mut panel: Query<(&mut ScrollPosition, &ComputedNode, &Node), With<SidePanel>>,
    mut help_was: Local<bool>,
) {
    let window = window.single().ok();
    let over_panel = window
        .and_then(|w| Some((w.cursor_position()?, w.width())))
        .is_some_and(|(c, w)| c.x >= w - super::PANEL_WIDTH);
    let over_map = window.and_then(super::map_view::cursor_over_map).is_some();
    let notches: f32 = wheel.read().map(|w| w.y.signum()).sum();
    let reset = std::mem::replace(&mut *help_was, choice.help) != choice.help;
    let text_bottom = text.single().ok().map(|n| n.size().y * n.inverse_scale_factor());
    for (mut at, computed, node) in &mut panel {
        let room = match node.padding.bottom {
            Val::Px(room) => room,
            _ => BOTTOM_ROOM,
        };
        let y = if reset {
            0.0
        } else if over_panel {
            (at.y - notches * PANEL_SCROLL_STEP).max(0.0)
        } else if over_map
            && !choice.help
            && let Some(bottom) = text_bottom
        {
            keep_in_view(bottom, computed.size().y * computed.inverse_scale_factor(), room)
        } else {
            at.y
        };
        if (at.y - y).abs() > 0.5 {
            at.y = y;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The room follows the row: a caster's bar of seven rows of buttons is kept clear of, and
    // a row not yet laid out gets the old fixed room.
    #[test]
    fn the_panel_ends_where_the_action_bar_begins() {
        assert_eq!(bottom_room(Some(290.0), true, false), 290.0 + ROW_BOTTOM + GAP);
        assert_eq!(bottom_room(Some(90.0), true, false), 90.0 + ROW_BOTTOM + GAP);
        assert_eq!(bottom_room(None, true, false), BOTTOM_ROOM);
        assert_eq!(bottom_room(Some(0.0), true, false), BOTTOM_ROOM);
        assert_eq!(bottom_room(Some(290.0), true, true), BOTTOM_ROOM_BARE, "F1's help: the bar steps aside");
        assert_eq!(bottom_room(Some(90.0), false, false), BOTTOM_ROOM_BARE, "watching: no row is shown");
    }

    // What the pointer is over ends the first text: kept in view by scrolling just enough.
    #[test]
    fn what_the_pointer_is_over_stays_in_view() {
        // 720 pixels tall, 300 kept for the bar: 410 to show text in.
        assert_eq!(keep_in_view(400.0, 720.0, 300.0), 0.0, "it fits: no scroll");
        assert_eq!(keep_in_view(410.0, 720.0, 300.0), 0.0);
        assert_eq!(keep_in_view(530.0, 720.0, 300.0), 120.0, "120 pixels too long: scrolled by 120");
    }
}
