//! A tooltip beside the pointer on the map: the creature there as the viewer may know it (name,
//! side, kind, pools, posture, facing, AP), else the terrain and what it does by the rules.
//! The panel says more; this is what a glance needs.

use super::input::Hover;
use super::screens::{OnBattleScreen, Screen};
use super::{Viewer, shown_creature_at};
use crate::battle::{ActiveBattle, Battle};
use crate::rules::grid::Pos;
use bevy::prelude::*;
use bevy::text::FontSize;

pub fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Battle), spawn_tooltip.in_set(OnBattleScreen))
        .add_systems(Update, follow_pointer.in_set(OnBattleScreen));
}

#[derive(Component)]
struct Tooltip;

fn spawn_tooltip(mut commands: Commands) {
    commands.spawn((
        DespawnOnExit(Screen::Battle),
        Tooltip,
        Node { position_type: PositionType::Absolute, padding: UiRect::axes(px(6), px(3)), ..default() },
        BackgroundColor(Color::srgba(0.02, 0.02, 0.03, 0.85)),
        GlobalZIndex(8),
        Visibility::Hidden,
        children![(
            Text::new(""),
            TextFont { font_size: FontSize::Px(12.0), ..default() },
            TextColor(Color::srgb(0.95, 0.95, 0.9)),
        )],
    ));
}

/// What the tooltip says about a square.
pub fn tooltip_text(b: &Battle, viewer: &Viewer, at: Pos) -> String {
    if let Some(c) = shown_creature_at(b, viewer, at) {
        let pools: Vec<String> = ["M", "A", "S"]
            .iter()
            .zip(c.attrs.pools.iter())
            .filter_map(|(n, p)| p.map(|p| format!("{n} {}/{}", p.current, p.max)))
            .collect();
        let state = if c.attrs.is_unconscious() { ", DOWN" } else { "" };
        return format!(
            "{} ({}) - {}{state}\n{}   AP {}/{}\n{}, facing {}",
            c.name,
            b.sides()[c.side].name,
            c.template.replace('_', " "),
            pools.join("  "),
            c.ap,
            c.max_ap,
            c.posture.name(),
            c.facing.name()
        );
    }
    let t = b.map().terrain(at);
    let mut traits = Vec::new();
    if t.blocks_movement {
        traits.push(if t.cross_height.is_some() { "blocks moves (can be crossed)" } else { "blocks moves" });
    }
    if t.blocks_sight {
        traits.push("blocks sight");
    }
    if t.low_cover {
        traits.push("cover (ATK-E5)");
    }
    if t.difficult || t.resistance > 0 {
        traits.push("difficult ground (MOVE-E1)");
    }
    if t.smooth {
        traits.push("smooth");
    }
    if t.concealing {
        traits.push("conceals (PERC-E4)");
    }
    if t.dark {
        traits.push("unlit (PERC-E3)");
    }
    let hazard;
    if let Some(h) = &t.hazard {
        hazard = format!("{}: {} dice, drains {} (FLOW-10)", h.kind, h.dice, h.drain);
        traits.push(&hazard);
    }
    let drop;
    if t.drop > 0 {
        drop = format!("a drop {} steps deep: no walking in, a push makes a fall (MOVE-12)", t.drop);
        traits.push(&drop);
    }
    if traits.is_empty() {
        traits.push("open ground");
    }
    format!("{} at {at}\n{}", t.name, traits.join(", "))
}

fn follow_pointer(
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    hover: Res<Hover>,
    window: Query<&Window>,
    mut tip: Query<(&mut Node, &mut Visibility, &Children), With<Tooltip>>,
    mut texts: Query<&mut Text>,
) {
    let Ok((mut node, mut visibility, children)) = tip.single_mut() else { return };
    // Only for the mouse: the keyboard cursor has the panel.
    let pointer = window.single().ok().and_then(|w| Some((w.cursor_position()?, w.width())));
    // Not for a pinned square either (`--hover`): the pointer is elsewhere.
    let (Some(at), Some((p, width)), false, false) = (hover.square, pointer, hover.keyboard, hover.pinned) else {
        visibility.set_if_neq(Visibility::Hidden);
        return;
    };
    let text = super::hud::plain(&tooltip_text(&battle.battle, &viewer, at));
    if let Some(&child) = children.first()
        && let Ok(mut t) = texts.get_mut(child)
        && t.0 != text
    {
        t.0 = text;
    }
    // Left of the pointer near the panel, so that it never runs under it.
    let x = if p.x + 330.0 > width - super::PANEL_WIDTH { p.x - 320.0 } else { p.x + 18.0 };
    let (left, top) = (px(x.max(0.0)), px(p.y + 18.0));
    if node.left != left || node.top != top {
        node.left = left;
        node.top = top;
    }
    visibility.set_if_neq(Visibility::Inherited);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{builtin_compendium, parse_level};

    // RULES: PERC-3 — the tooltip tells a creature only as the side may know it: an unseen one
    // is not named, its square reads as terrain.
    #[test]
    fn the_tooltip_names_what_the_side_may_know() {
        let l = parse_level(
            "levels/walls_and_cover.level.ron",
            include_str!("../../levels/walls_and_cover.level.ron"),
            builtin_compendium(),
        )
        .unwrap();
        let b = Battle::new(&l, builtin_compendium(), 2).unwrap();
        let blue = Viewer { side: 0, plays: true, omniscient: false };
        let mine = b.creatures().iter().find(|c| c.side == 0).unwrap();
        assert!(tooltip_text(&b, &blue, mine.origin).starts_with(&mine.name));
        let hidden =
            b.creatures().iter().find(|c| c.side == 1 && !b.shown_to(0, c.id)).expect("an enemy Blue cannot see");
        let text = tooltip_text(&b, &blue, hidden.origin);
        assert!(!text.contains(&hidden.name), "{text}");
        let gm = Viewer { omniscient: true, ..blue };
        assert!(tooltip_text(&b, &gm, hidden.origin).starts_with(&hidden.name));
        let wall = (0..b.map().width()).map(|x| Pos::new(x, 0)).find(|&p| b.map().terrain(p).blocks_sight).unwrap();
        assert!(tooltip_text(&b, &blue, wall).contains("blocks sight"));
    }
}
