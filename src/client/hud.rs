//! The side panel (battle state, the creature in turn, what is under the cursor with attack
//! odds, controls) and the log strip; the banner is `banner.rs`.

use super::card::{creature_card, pools};
use super::input::{Choice, Hover, Intent, player_awaited};
use super::screens::{BattlePhase, OnBattleScreen, Screen};
use super::{Notice, PANEL_WIDTH, Viewer, shown_creature_at};
use crate::battle::{ActiveBattle, AiExplained, Battle, Command, CreatureId, Explanation, WindowKind};
use crate::rules::facing::{Actor, sector_for};
use crate::rules::grid::{Pos, footprint_distance};
use crate::rules::los::sight_line;
use bevy::prelude::*;
use bevy::text::FontSize;
use std::fmt::Write;

pub fn plugin(app: &mut App) {
    app.init_resource::<LastReasons>()
        .add_systems(OnEnter(Screen::Battle), spawn_hud.in_set(OnBattleScreen))
        // The pause menu covers the map; the panels step aside for it rather than show through.
        .add_systems(OnEnter(BattlePhase::Paused), |mut hud: Query<&mut Visibility, With<HudRoot>>| {
            hud.iter_mut().for_each(|mut v| *v = Visibility::Hidden)
        })
        .add_systems(OnExit(BattlePhase::Paused), |mut hud: Query<&mut Visibility, With<HudRoot>>| {
            hud.iter_mut().for_each(|mut v| *v = Visibility::Inherited)
        })
        .add_systems(Update, (keep_reasons, update_panel).chain().in_set(OnBattleScreen))
        .add_systems(
            Update,
            (
                click_end_turn.in_set(crate::battle::BattleSystems::Decide),
                click_pause,
                super::screens::shade_buttons,
                show_end_turn,
            )
                .in_set(OnBattleScreen),
        );
}

/// The AI's last weighed decision (`AiExplained`), shown on demand.
#[derive(Resource, Default)]
struct LastReasons(Option<Explanation>);

fn keep_reasons(mut explained: MessageReader<AiExplained>, mut last: ResMut<LastReasons>) {
    if let Some(e) = explained.read().last() {
        last.0 = Some(e.0.clone());
    }
}

fn reasons_lines(out: &mut String, b: &Battle, e: &Explanation) {
    let _ = writeln!(out, "AI: {} weighed (score = dealt - caution x taken + ...):", b.fighter(e.creature).name);
    for o in &e.options {
        let mut tags = Vec::new();
        if o.cover {
            tags.push("cover");
        }
        if o.rear_attack {
            tags.push("rear attack");
        }
        if o.rear_exposed {
            tags.push("rear exposed");
        }
        let _ = writeln!(
            out,
            "  {:6.2}  {}\n          dealt {:.2} taken {:.2} AP kept {}{}{}",
            o.total,
            o.summary,
            o.expected_dealt,
            o.expected_taken,
            o.ap_kept,
            if tags.is_empty() { "" } else { ", " },
            tags.join(", ")
        );
    }
    for line in e.look_ahead.iter().flat_map(|l| l.lines()) {
        let _ = writeln!(out, "  {line}");
    }
}

/// The panel's text down to what the pointer is over (and the AI's reasons, when shown).
#[derive(Component)]
pub(super) struct PanelText;

/// The panel's last lines: the keys, or F1's help.
#[derive(Component)]
struct PanelFoot;

/// The panel and the log strip.
#[derive(Component)]
pub(super) struct HudRoot;

/// The panel alone (its room and scrolling: `panel_room`).
#[derive(Component)]
pub(super) struct SidePanel;

/// The panel's "End turn" button: mouse-only play needs no key.
#[derive(Component, Clone, Copy)]
struct EndTurnButton;

fn click_end_turn(
    buttons: Query<(&Interaction, &EndTurnButton), Changed<Interaction>>,
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    mut notice: ResMut<Notice>,
    mut out: MessageWriter<crate::battle::IssueCommand>,
) {
    if super::screens::clicked(&buttons).is_empty() {
        return;
    }
    let Some((me, None)) = player_awaited(&battle, &viewer) else {
        notice.0 = "Not your turn".into();
        return;
    };
    match battle.battle.check(me, &Command::EndTurn) {
        Ok(()) => {
            out.write(crate::battle::IssueCommand { creature: me, command: Command::EndTurn });
        }
        Err(r) => notice.0 = format!("Refused: {r}"),
    }
}

/// The panel's "Pause" button: the pause menu (restart, menu, quit) by mouse.
#[derive(Component, Clone, Copy)]
struct PauseButton;

fn click_pause(buttons: Query<(&Interaction, &PauseButton), Changed<Interaction>>, mut commands: Commands) {
    if !super::screens::clicked(&buttons).is_empty() {
        commands.set_state(BattlePhase::Paused);
    }
}

/// Holds the End turn button: shown to a player, while not paused.
#[derive(Component)]
pub(super) struct EndTurnRoot;

fn show_end_turn(
    viewer: Res<Viewer>,
    phase: Res<State<BattlePhase>>,
    mut root: Query<&mut Visibility, With<EndTurnRoot>>,
) {
    let shown = viewer.plays && *phase.get() == BattlePhase::Playing;
    for mut v in &mut root {
        v.set_if_neq(if shown { Visibility::Inherited } else { Visibility::Hidden });
    }
}

fn spawn_hud(mut commands: Commands, viewer: Res<Viewer>, keys: Res<super::bindings::KeyNames>) {
    // Only a player ends turns; watching, there is no button.
    commands.spawn((
        DespawnOnExit(Screen::Battle),
        EndTurnRoot,
        if viewer.plays { Visibility::Inherited } else { Visibility::Hidden },
        Node {
            position_type: PositionType::Absolute,
            right: px(12),
            bottom: px(super::panel_room::ROW_BOTTOM),
            width: px(PANEL_WIDTH - 24.0),
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::End,
            padding: UiRect::top(px(4)),
            ..default()
        },
        // Opaque: a tall action bar covers the panel's last lines instead of mixing with them.
        BackgroundColor(Color::srgb(0.07, 0.08, 0.1)),
        GlobalZIndex(5),
        children![
            (
                super::actions::ActionBar,
                Node {
                    flex_wrap: FlexWrap::Wrap,
                    justify_content: JustifyContent::End,
                    width: percent(100),
                    ..default()
                }
            ),
            (
                Node::default(),
                children![
                    super::screens::button("Pause (P)", PauseButton, 16.0),
                    super::screens::button(keys.fill("End turn ({EndTurn})"), EndTurnButton, 16.0)
                ]
            )
        ],
    ));
    let font = |px: f32| TextFont { font_size: FontSize::Px(px), ..default() };
    commands.spawn((
        DespawnOnExit(Screen::Battle),
        HudRoot,
        SidePanel,
        Node {
            position_type: PositionType::Absolute,
            right: px(0),
            top: px(0),
            width: px(PANEL_WIDTH),
            height: percent(100),
            flex_direction: FlexDirection::Column,
            // Room at the bottom for the End turn button and the action bar
            // (`panel_room::make_room` follows their height).
            padding: UiRect {
                left: px(10),
                right: px(10),
                top: px(super::panel_room::TOP_PADDING),
                bottom: px(super::panel_room::BOTTOM_ROOM),
            },
            // Longer than the window (F1's help, a long card): the wheel scrolls it.
            overflow: Overflow::scroll_y(),
            ..default()
        },
        BackgroundColor(Color::srgba(0.07, 0.08, 0.1, 0.94)),
        children![
            (Text::new(""), font(13.0), TextColor(Color::srgb(0.9, 0.9, 0.88)), PanelText),
            (Text::new(""), font(13.0), TextColor(Color::srgb(0.9, 0.9, 0.88)), PanelFoot)
        ],
    ));
}

/// The bundled font has Latin glyphs only.
pub(super) fn plain(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '✗' => 'x',
            '—' | '–' | '−' => '-',
            '×' => 'x',
            '≥' => '>',
            '≤' => '<',
            '→' => '>',
            '\n' => '\n',
            c if c.is_ascii_control() => '?',
            c if c.is_ascii() => c,
            _ => '?',
        })
        .collect()
}

fn hover_lines(out: &mut String, b: &Battle, viewer: &Viewer, at: Pos, intent: &Intent) {
    let t = b.map().terrain(at);
    let _ = writeln!(out, "Square {at}: {}", t.name);
    // TIME-18: what lies there, if the viewer's side sees the square.
    let shown = b.ground_items().iter().any(|g| g.at == at)
        && super::items::shown_squares(b, viewer).is_none_or(|s| s.get(b.map().index(at)).copied().unwrap_or(false));
    let lying: Vec<&str> =
        b.ground_items().iter().filter(|g| shown && g.at == at).map(|g| b.item_name(&g.item)).collect();
    if !lying.is_empty() {
        let _ = writeln!(out, "  lying here: {}", lying.join(", "));
    }
    // ATK-16, ATK-E6: what it would take to break the object there.
    if let Some(o) = b.object_at(at).map(|i| &b.objects()[i]) {
        use crate::rules::creature::DamageType;
        use crate::rules::objects::protection;
        let guard = |d| protection(o.def.material, &o.def.conditions, Some(d)).unwrap_or(0);
        let _ = writeln!(
            out,
            "  {}: damage {} of {} (protection physical {}, erosion {}; spectral: immune)",
            o.describe(),
            o.damage,
            o.durability,
            guard(DamageType::Physical),
            guard(DamageType::Erosion)
        );
    }
    let seen = shown_creature_at(b, viewer, at);
    if let Some(c) = seen {
        let kind = super::labels::kind_indices(b).get(c.id as usize).copied().unwrap_or(0);
        let shape = super::art::KIND_SHAPES[kind % super::art::KIND_SHAPES.len()];
        let _ = writeln!(
            out,
            "  {} ({}), a {} ({shape}): {}",
            c.name,
            b.sides()[c.side].name,
            c.template.replace('_', " "),
            pools(c)
        );
        let _ = writeln!(out, "  {}, facing {}, AP {}/{}", c.posture.name(), c.facing.name(), c.ap, c.max_ap);
    }
    let Some(me) = intent.creature else { return };
    let f = b.fighter(me);
    if at == f.origin {
        return;
    }
    let line = sight_line(b.map(), f.origin, at);
    let d = footprint_distance(f.footprint(), crate::rules::grid::Footprint::single(at));
    let sight = match (line.visible, line.cover) {
        (false, _) => "blocked",
        (true, true) => "clear, with cover",
        (true, false) => "clear",
    };
    let _ = writeln!(out, "  {d} steps from {}; line of sight {sight}", f.name);
    if let Some(c) = seen
        && c.id != me
        && let Some(sector) =
            sector_for(c.footprint(), c.facing, b.ruleset().facing_arcs, f.footprint(), Actor::Attacker)
    {
        let _ = writeln!(out, "  {} stands in its {} sector", f.name, sector.name());
    }
    match &intent.command {
        Some(Command::Move { path, sprint, .. }) => {
            let squares = |path: &[Pos]| match path.len().saturating_sub(1) {
                1 => "1 square".to_string(),
                n => format!("{n} squares"),
            };
            let _ = writeln!(
                out,
                "  click: move ({}{}, 1 AP)",
                squares(path),
                if *sprint { ", sprinting: -1 Activeness die" } else { "" }
            );
            // Walking into reach of the enemy clicked: a second move if need be, then the strike.
            let mut from = path.last().copied().unwrap_or_default();
            for next in &intent.then {
                match next {
                    Command::Move { path, .. } => {
                        from = path.last().copied().unwrap_or(from);
                        let _ = writeln!(out, "  then move on to {from} ({}, 1 AP)", squares(path));
                    }
                    Command::Attack { weapon, .. } => {
                        let name = f.weapon(weapon).map_or(weapon.clone(), |w| w.weapon.name.clone());
                        let _ = writeln!(out, "  then strike with {name} from {from}");
                    }
                    _ => {}
                }
            }
        }
        Some(cmd @ Command::Attack { .. }) => {
            let weapon = match cmd {
                Command::Attack { weapon, .. } => f.weapon(weapon).map_or(weapon.clone(), |w| w.weapon.name.clone()),
                _ => String::new(),
            };
            let _ = writeln!(out, "  click: attack with {weapon}");
            super::odds_text::odds_lines(out, b, me, cmd);
        }
        _ => {}
    }
}

/// The few keys always shown; F1 shows them all with the overlays' help.
/// `{Action}` names the key bound to it (`bindings::KeyNames`).
const SHORT_KEYS: &str = "{Confirm}: move / attack   {Weapon1}-{Weapon6}: weapon   {EndTurn}: end turn\n\
{Block}/{Dodge}/{Resist}: defend   {NoReaction}: take it   {ToggleReach}-{ToggleGrid}: overlays\n\
{Help}: all keys and help   P: pause";

const KEYS: &str = "{Confirm}: move / attack   {Weapon1}-{Weapon6}: weapon   {Cancel}: lower it\n\
{TurnLeft}/{TurnRight}: turn   {Stand}/{Crouch}/{Prone}: stand/crouch/prone   {Sprint}: sprint\n\
{Hide}: hide   {Search}: search (001: spot)   {Door}: open/close door   {Flee}: flee   {EndTurn}: end turn\n\
Items: {UseItem} use   {PickUp} pick up   {GiveItem} give   {DropItem} drop   {Ready}: ready   {Drag}: drag   {Lift}: lift/put down   {Mount}: mount/dismount\n\
Arrows: cursor   Tab: next enemy   {ConfirmKey}: confirm\n\
Defense: {Block}/{Dodge}/{Resist} block/dodge/resist, {NoReaction} none   {Counter}: counter\n\
Curve ready: {Bend} bend it here, click ends it   Fate: 1-6 pick a die, {RaiseFate} next, Enter spend\n\
{PanUp}{PanLeft}{PanDown}{PanRight}: pan   Wheel: zoom (over this panel: scroll it)   V: whole map   L: follow\n\
{Help}: help   {Reasons}: AI reasons   PgUp/PgDn: log   P: pause\n\
{ToggleReach}-{ToggleGrid}: reach/facing/threat/sight/fog/grid\n\
Seconds mode: {FreeUp} abort the action / cut a gap second (an Activeness die)
{ToggleAutoDefend}: auto-defend on/off   {ToggleFatePrompts}: Fate prompts on/off   {Additive}: power strike etc.\n\
{FastForward} (hold): hurry the AI   {Slower}/{Faster}: AI slower/faster";

pub(super) const HELP: &str = "\nThe blue squares are where a move can end, paler\n\
for a 2nd or 3rd move (amber while sprinting). The\n\
line to the cursor is green when clear, yellow when the target would have cover, red\n\
when blocked. Around a creature under the cursor its\n\
sectors show: green front, yellow side, red rear (an\n\
attack from the rear cannot be defended). Area\n\
weapons show the squares they would cover. The threat\n\
view (F4) outlines in red where the enemies you see\n\
could strike next round; magenta: from your rear.\n\
A token's shape tells its kind (hover for its name).";

/// The turn order as the viewer's side was told it (TIME-2, PERC-3: the creatures it knew of
/// when the order was set), the creature in turn in brackets, the fallen marked.
fn tracker_line(out: &mut String, b: &Battle, viewer: &Viewer, in_turn: Option<CreatureId>) {
    let side = &b.sides()[viewer.side].name;
    let Some(order) = b
        .log_for_side(side)
        .filter_map(|e| match &e.event {
            crate::battle::Event::TurnOrder { order } => Some(order),
            _ => None,
        })
        .last()
    else {
        return;
    };
    // Only a creature in turn that the viewer sees moves the window (as only it is bracketed):
    // scrolling to an unseen one would tell where it stands in the order.
    let current = in_turn.filter(|&c| viewer.sees(b, c)).and_then(|c| order.iter().position(|&o| o == c));
    let (shown, before, after) = tracker_window(order.len(), current);
    let names: Vec<String> = order[shown]
        .iter()
        .map(|&c| {
            let f = b.fighter(c);
            let mut n = f.name.clone();
            // Its own, or one it perceives: a fallen foe out of sight is not known to be down.
            if (f.side == viewer.side || viewer.sees(b, c)) && !f.can_act() {
                // MOVE-E7: a carried body is down and off the grid.
                let carried = matches!(f.presence, crate::battle::Presence::Carried(_));
                n.push_str(if carried { " (carried)" } else { " (down)" });
            }
            if Some(c) == in_turn && viewer.sees(b, c) {
                n = format!("[{n}]");
            }
            n
        })
        .collect();
    let more = |n: usize| if n > 0 { format!("({n} more) > ") } else { String::new() };
    let tail = if after > 0 { format!(" > ({after} more)") } else { String::new() };
    let _ = writeln!(out, "Order: {}{}{tail}", more(before), names.join(" > "));
}

/// At most this many names in the turn order: a level at the validator's limits has 512
/// creatures, and their names ran the side panel far past the bottom of the window.
const TRACKER_NAMES: usize = 16;

/// Which of `len` turn-order entries the tracker names (the one in turn, `current`, with the
/// two before it and those after), and how many it leaves out before and after.
fn tracker_window(len: usize, current: Option<usize>) -> (std::ops::Range<usize>, usize, usize) {
    if len <= TRACKER_NAMES {
        return (0..len, 0, 0);
    }
    let start = current.unwrap_or(0).saturating_sub(2).min(len - TRACKER_NAMES);
    let end = start + TRACKER_NAMES;
    (start..end, start, len - end)
}

#[allow(clippy::too_many_arguments)] // a Bevy system: one parameter per resource it reads
fn update_panel(
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    hover: Res<Hover>,
    choice: Res<Choice>,
    intent: Res<Intent>,
    reasons: Res<LastReasons>,
    keys: Res<super::bindings::KeyNames>,
    mut text: Query<&mut Text, With<PanelText>>,
    mut foot: Query<&mut Text, (With<PanelFoot>, Without<PanelText>)>,
) {
    let (Ok(mut text), Ok(mut foot)) = (text.single_mut(), foot.single_mut()) else { return };
    let b = &battle.battle;
    let mut out = String::new();
    if b.ruleset().time_model == crate::rules::ruleset::TimeModel::Seconds004 {
        // TIME-S1: the seconds mode counts seconds within the round.
        let second = b.second() + 1;
        let of = crate::rules::seconds::SECONDS_PER_ROUND;
        let _ = writeln!(out, "{}  -  round {}, second {second}/{of}", b.level_name(), b.round());
    } else {
        let _ = writeln!(out, "{}  -  round {}", b.level_name(), b.round());
    }
    let awaited = b.awaiting();
    tracker_line(&mut out, b, &viewer, awaited.map(|(c, _)| c));
    let mine = player_awaited(&battle, &viewer);
    match awaited {
        Some((c, w)) => {
            let who = b.fighter(c);
            let what = match w {
                None => "turn",
                Some(WindowKind::Defense) => "defense",
                Some(WindowKind::BeforeAttack) => "reaction",
                Some(WindowKind::Fate) => "roll (Expense of Fate)",
            };
            let by = if mine.is_some() { "you" } else { "the AI" };
            let _ = writeln!(out, "{}'s {what} ({by})\n", who.name);
        }
        None => {
            let _ = writeln!(out, "The battle is over.\n");
        }
    }
    // The creature in turn if it is the viewer's, else the viewer's first standing creature.
    let shown = awaited
        .map(|(c, _)| c)
        .filter(|&c| b.fighter(c).side == viewer.side)
        .or_else(|| b.creatures().iter().find(|c| c.side == viewer.side && c.can_act()).map(|c| c.id));
    if let Some(c) = shown {
        creature_card(&mut out, b, b.fighter(c), Some(&choice));
        out.push('\n');
    }
    if let Some(at) = hover.square {
        hover_lines(&mut out, b, &viewer, at, &intent);
        out.push('\n');
    }
    if choice.reasons
        && let Some(e) = &reasons.0
    {
        reasons_lines(&mut out, b, e);
        out.push('\n');
    }
    // The keys apart: what the pointer is over ends the first text, and the panel keeps that
    // end in view (`panel_room::scroll_panel`).
    // (One blank line between them, as when they were one text.)
    let keys = format!("\n{}", if choice.help { keys.fill(KEYS) + HELP } else { keys.fill(SHORT_KEYS) });
    let out = out.trim_end_matches('\n').to_string();
    for (text, out) in [(&mut text, out), (&mut foot, keys)] {
        let out = plain(&out);
        if text.0 != out {
            text.0 = out;
        }
    }
}

#[cfg(test)]
mod tracker_tests {
    use super::{TRACKER_NAMES, tracker_window};

    // The turn order (TIME-2) is named whole while it fits, around the one in turn after that.
    #[test]
    fn a_long_turn_order_is_named_around_the_creature_in_turn() {
        assert_eq!(tracker_window(5, Some(3)), (0..5, 0, 0));
        assert_eq!(tracker_window(TRACKER_NAMES, None), (0..TRACKER_NAMES, 0, 0));
        assert_eq!(tracker_window(14, Some(13)), (0..14, 0, 0));
        assert_eq!(tracker_window(512, None), (0..16, 0, 496));
        assert_eq!(tracker_window(512, Some(1)), (0..16, 0, 496));
        assert_eq!(tracker_window(512, Some(100)), (98..114, 98, 398));
        assert_eq!(tracker_window(512, Some(511)), (496..512, 496, 0));
    }
}
