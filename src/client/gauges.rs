//! Numbers drawn, not only written: the active creature's AP and attribute pools as pips
//! (current of max), and, when an attack is aimed, the exact damage distribution it would roll
//! (ATK-E4, from the battle's preview) as a small bar chart, with the target's best defense and
//! a warning when it cannot defend. Placed at the top right of the map, beside the panel.

use super::board::pool_colour;
use super::input::{Intent, player_awaited};
use super::screens::{OnBattleScreen, Screen};
use super::{PANEL_WIDTH, Viewer};
use crate::battle::{ActiveBattle, Battle, Command, CreatureId};
use bevy::prelude::*;
use bevy::text::FontSize;

pub fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Battle), spawn_gauges.in_set(OnBattleScreen))
        .add_systems(Update, (update_gauges, keep_clear_of_pointer).in_set(OnBattleScreen));
}

/// The gauges stand at the top right of the map, over whatever creature stands there; with the
/// pointer over them (aiming at a token they hid) they move to the top left, and back once it
/// leaves (the pointer's target then shows, and the creature card beside the pointer no longer
/// covers their warnings).
fn keep_clear_of_pointer(window: Query<&Window>, mut root: Query<(&mut Node, &ComputedNode), With<GaugeRoot>>) {
    let (Ok(window), Ok((mut node, computed))) = (window.single(), root.single_mut()) else { return };
    let Some(pointer) = window.cursor_position() else { return };
    let size = computed.size() * computed.inverse_scale_factor();
    let box_right = window.width() - PANEL_WIDTH - 8.0;
    // The box where it stands by default, with a margin: the pointer is "over" it a little
    // before it reaches the edge, so that the box does not flicker as the pointer crosses it.
    let over_right = pointer.x > box_right - size.x - 24.0 && pointer.y < GAUGES_TOP + size.y + 24.0;
    let (left, right) = if over_right { (px(8.0), Val::Auto) } else { (Val::Auto, px(PANEL_WIDTH + 8.0)) };
    if node.left != left || node.right != right {
        node.left = left;
        node.right = right;
    }
}

/// Below the banner, which may take two lines.
const GAUGES_TOP: f32 = 64.0;

/// Pips drawn per row at most; a larger pool shows its number beside them.
const MAX_PIPS: i32 = 16;

#[derive(Component)]
struct GaugeRoot;

fn spawn_gauges(mut commands: Commands) {
    commands.spawn((
        DespawnOnExit(Screen::Battle),
        GaugeRoot,
        Node {
            position_type: PositionType::Absolute,
            right: px(PANEL_WIDTH + 8.0),
            top: px(GAUGES_TOP),
            flex_direction: FlexDirection::Column,
            padding: UiRect::all(px(6)),
            row_gap: px(3),
            ..default()
        },
        BackgroundColor(Color::srgba(0.03, 0.03, 0.05, 0.88)),
        GlobalZIndex(3),
        Visibility::Hidden,
    ));
}

/// What the gauges show, to rebuild them only when it changes.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GaugeView {
    pub name: String,
    /// (label, current, max, colour index: 3 = AP).
    pub rows: Vec<(String, i32, i32, usize)>,
    /// The aimed attack: a title, P(damage = k) for each k, and warnings.
    pub chart: Option<(String, Vec<f64>, Vec<String>)>,
    /// Why the command under the cursor leaves the creature open (no AP to defend).
    pub open: Vec<String>,
}

/// The gauges for the creature in turn (if it is the viewer's) and the attack it aims.
pub fn gauge_view(b: &Battle, me: CreatureId, command: Option<&Command>, click: &[Command]) -> GaugeView {
    let f = b.fighter(me);
    let mut rows = vec![("AP".to_string(), f.ap, f.max_ap, 3)];
    for (k, name) in ["Might", "Activeness", "Spirit"].iter().enumerate() {
        if let Some(p) = f.attrs.pools[k] {
            rows.push((name.to_string(), p.current, p.max, k));
        }
    }
    // TIME-12: spending the last AP where an enemy can strike leaves no defense.
    let mut open = Vec::new();
    if !click.is_empty() {
        let foes = b.left_defenceless(me, click);
        if !foes.is_empty() {
            let names: Vec<&str> = foes.iter().map(|&e| b.fighter(e).name.as_str()).collect();
            open.push(format!("leaves no AP to defend: {} can strike {} there", names.join(", "), f.name));
        }
    }
    // Walking into reach first: the strike is charted from where the walk ends (the moves
    // played on a copy; a move roll no dice).
    let walked;
    let from: &Battle = match click.split_last() {
        Some((Command::Attack { .. }, moves)) if !moves.is_empty() => {
            let mut copy = b.clone();
            for m in moves {
                if copy.awaiting() != Some((me, None)) || copy.submit(me, m.clone()).is_err() {
                    break;
                }
            }
            walked = copy;
            &walked
        }
        _ => b,
    };
    let chart = command.filter(|c| matches!(c, Command::Attack { .. })).and_then(|cmd| {
        let preview = from.attack_preview(me, cmd).ok()?;
        let t = preview.first()?;
        let best = t.best_defense();
        let odds = t.odds(best.map_or(0, |d| d.dice));
        let target = &from.fighter(t.target).name;
        let title = match best {
            Some(d) => format!("Damage to {target} if it rolls {:?} ({} dice)", d.defense, d.dice),
            None => format!("Damage to {target} (it cannot defend)"),
        };
        let mut warnings = Vec::new();
        if let Err(why) = &t.in_reach {
            warnings.push(format!("not in reach: {}", why.reason));
        }
        if let Err(why) = &t.defendable {
            warnings.push(format!("undefendable: {}", why.reason));
        }
        if preview.len() > 1 {
            warnings.push(format!("{} creatures inside the area", preview.len()));
        }
        for p in &preview {
            if !from.hostile(me, p.target) {
                warnings.push(format!("{} (a friend) is inside the area", from.fighter(p.target).name));
            }
        }
        Some((title, odds.distribution, warnings))
    });
    GaugeView { name: f.name.clone(), rows, chart, open }
}

/// (log length, the creature, the click's commands) the gauges were made for.
type GaugeKey = (usize, Option<CreatureId>, Vec<Command>);

fn update_gauges(
    mut commands: Commands,
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    intent: Res<Intent>,
    mut root: Query<(Entity, &mut Visibility), With<GaugeRoot>>,
    mut shown: Local<Option<GaugeView>>,
    mut made_for: Local<Option<GaugeKey>>,
) {
    let Ok((root, mut visibility)) = root.single_mut() else { return };
    let b = &battle.battle;
    let me = player_awaited(&battle, &viewer).map(|(c, _)| c).or(intent.creature);
    // A click that walks into reach and strikes charts the strike (and is judged by its move).
    let aimed = intent
        .command
        .iter()
        .chain(&intent.then)
        .find(|c| matches!(c, Command::Attack { .. }))
        .or(intent.command.as_ref());
    let click: Vec<Command> = intent.command.iter().chain(&intent.then).cloned().collect();
    let key = Some((b.log().len(), me, click.clone()));
    if *made_for == key && !battle.is_changed() {
        return;
    }
    *made_for = key;
    let view = me.map(|c| gauge_view(b, c, aimed, &click));
    if *shown == view {
        return;
    }
    *shown = view.clone();
    commands.entity(root).despawn_related::<Children>();
    let Some(view) = view else {
        *visibility = Visibility::Hidden;
        return;
    };
    *visibility = Visibility::Inherited;
    let font = |px: f32| TextFont { font_size: FontSize::Px(px), ..default() };
    let light = TextColor(Color::srgb(0.92, 0.92, 0.9));
    commands.entity(root).with_children(|c| {
        c.spawn((Text::new(super::hud::plain(&view.name)), font(13.0), light));
        for (label, current, max, colour) in &view.rows {
            let on = if *colour == 3 { Color::srgb(1.0, 0.82, 0.2) } else { pool_colour(*colour) };
            c.spawn(Node { column_gap: px(2), align_items: AlignItems::Center, ..default() }).with_children(|row| {
                // The bundled font is monospaced: padding lines the pips up.
                row.spawn((Text::new(format!("{label:<10}")), font(11.0), light));
                for k in 0..(*max).clamp(0, MAX_PIPS) {
                    let colour = if k < *current { on } else { Color::srgba(0.5, 0.5, 0.5, 0.35) };
                    row.spawn((Node { width: px(9), height: px(9), ..default() }, BackgroundColor(colour)));
                }
                row.spawn((Text::new(format!(" {current}/{max}")), font(11.0), light));
            });
        }
        for w in &view.open {
            c.spawn((
                Text::new(super::hud::plain(w)),
                font(12.0),
                TextColor(Color::srgb(1.0, 0.45, 0.25)),
                Node { max_width: px(260), ..default() },
            ));
        }
        let Some((title, dist, warnings)) = &view.chart else { return };
        c.spawn((Text::new(super::hud::plain(title)), font(11.0), light, Node { max_width: px(260), ..default() }));
        // One bar per damage value, its height the chance: the whole distribution at a glance.
        c.spawn(Node { column_gap: px(3), align_items: AlignItems::End, height: px(70), ..default() }).with_children(
            |bars| {
                for (k, p) in dist.iter().enumerate().take(13) {
                    bars.spawn(Node {
                        flex_direction: FlexDirection::Column,
                        align_items: AlignItems::Center,
                        ..default()
                    })
                    .with_children(|bar| {
                        bar.spawn((Text::new(format!("{:.0}", p * 100.0)), font(9.0), light));
                        let red = if k == 0 { Color::srgb(0.5, 0.5, 0.55) } else { Color::srgb(0.9, 0.3, 0.25) };
                        bar.spawn((
                            Node { width: px(14), height: px((p * 40.0).max(1.0) as f32), ..default() },
                            BackgroundColor(red),
                        ));
                        bar.spawn((Text::new(k.to_string()), font(10.0), light));
                    });
                }
            },
        );
        c.spawn((Text::new("% chance of each damage"), font(9.0), TextColor(Color::srgb(0.7, 0.7, 0.7))));
        for w in warnings {
            c.spawn((
                Text::new(super::hud::plain(w)),
                font(11.0),
                TextColor(Color::srgb(1.0, 0.55, 0.3)),
                Node { max_width: px(260), ..default() },
            ));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::Target;
    use crate::level::{builtin_compendium, parse_level};

    // The gauges step aside to the top left while the pointer is over where they stand (a token
    // under them could not be seen or aimed at), and come back when it leaves.
    #[test]
    fn the_gauges_make_way_for_the_pointer() {
        let mut app = App::new();
        app.add_systems(Update, keep_clear_of_pointer);
        let window = app.world_mut().spawn(Window::default()).id();
        let gauges = app.world_mut().spawn((GaugeRoot, Node { right: px(PANEL_WIDTH + 8.0), ..default() })).id();
        let width = app.world().get::<Window>(window).unwrap().width();
        let at = |app: &mut App, x: f32, y: f32| {
            app.world_mut().get_mut::<Window>(window).unwrap().set_cursor_position(Some(Vec2::new(x, y)));
            app.update();
            let node = app.world().get::<Node>(gauges).unwrap();
            (node.left, node.right)
        };
        let beside = (Val::Auto, px(PANEL_WIDTH + 8.0));
        assert_eq!(at(&mut app, 100.0, 100.0), beside, "the pointer far away");
        let over = width - PANEL_WIDTH - 20.0;
        assert_eq!(at(&mut app, over, GAUGES_TOP + 5.0), (px(8.0), Val::Auto), "over them: to the left");
        assert_eq!(at(&mut app, over, 600.0), beside, "below them: back");
    }

    // RULES: ATK-E4 — the chart is the engine's exact distribution: it sums to 1 and its mean
    // is the expected damage the preview states.
    #[test]
    fn the_chart_is_the_previews_distribution() {
        let text = r#"(name: "Chart", map: ["WWWWW", "W...W", "WWWWW"],
            legend: { '.': "floor", 'W': "wall" },
            terrains: { "floor": (), "wall": (blocks_movement: true, blocks_sight: true) },
            sides: [(name: "Us"), (name: "Them")],
            creatures: [(name: "A", template: "human_fighter", side: "Us", at: (1, 1), facing: E,
                         overrides: (activeness: Some(9))),
                        (name: "B", template: "human_fighter", side: "Them", at: (2, 1), facing: W)])"#;
        let l = parse_level("chart.level.ron", text, builtin_compendium()).unwrap();
        let b = Battle::new(&l, builtin_compendium(), 3).unwrap();
        let (me, _) = b.awaiting().unwrap();
        let foe = b.creatures().iter().find(|c| b.hostile(me, c.id)).unwrap().id;
        let weapon = b.fighter(me).weapons[0].key.clone();
        let cmd = Command::Attack { weapon, target: Target::Creature(foe), additives: vec![] };
        let view = gauge_view(&b, me, Some(&cmd), &[]);
        assert_eq!(view.rows[0].0, "AP");
        assert_eq!((view.rows[0].1, view.rows[0].2), (b.fighter(me).ap, b.fighter(me).max_ap));
        let (_, dist, _) = view.chart.expect("an attack is charted");
        assert!((dist.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        let mean: f64 = dist.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
        let expected = b.attack_preview(me, &cmd).unwrap()[0].expected_damage();
        assert!((mean - expected).abs() < 1e-9, "{mean} vs {expected}");
        assert!(gauge_view(&b, me, None, &[]).chart.is_none());
    }
}
