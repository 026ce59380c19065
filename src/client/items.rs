//! Items in the window (TIME-17, TIME-18): which item command a key or an action-bar button
//! gives, and the items lying on the map drawn on their squares.
//!
//! Each key takes the first command the engine accepts, so the bar can name it beforehand:
//! "Use" prefers the friend under the pointer, then the creature itself, then any friend next
//! to it (a fallen one first); "Pick up" the item under the pointer, then any within reach;
//! "Give" the friend under the pointer, then any next to it; "Drop" the last item taken.
//! "Drag" (MOVE-13) pulls a body lying next to the creature to the square under the pointer;
//! "Lift" (MOVE-13 [Ext]) lifts a body next to it (the one under the pointer first), or puts
//! the carried one down on the square under the pointer, else on the first free one.

use super::screens::OnBattleScreen;
use super::{Viewer, square_centre};
use crate::battle::{ActiveBattle, Battle, Command, CreatureId};
use crate::rules::grid::Pos;
use crate::rules::items::ItemUse;
use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_systems(Update, draw_ground_items.in_set(OnBattleScreen));
}

/// The friends of `me` it could hand to or use on: the hovered one first, then the others by
/// id (fallen ones first).
fn friends(b: &Battle, me: CreatureId, hovered: Option<Pos>) -> Vec<CreatureId> {
    let side = b.fighter(me).side;
    let mut all: Vec<CreatureId> =
        b.creatures().iter().filter(|f| f.side == side && f.id != me && f.is_active()).map(|f| f.id).collect();
    let under = |id: CreatureId| hovered.is_some_and(|p| b.fighter(id).footprint().contains(p));
    all.sort_by_key(|&id| (!under(id), !b.fighter(id).attrs.is_unconscious(), id));
    all
}

/// The "use an item" command and its label, if one would be accepted.
pub fn use_command(b: &Battle, me: CreatureId, hovered: Option<Pos>) -> Option<(Command, String)> {
    let f = b.fighter(me);
    let mut targets: Vec<Option<CreatureId>> = friends(b, me, hovered).into_iter().map(Some).collect();
    let at_friend = targets
        .first()
        .copied()
        .flatten()
        .is_some_and(|id| hovered.is_some_and(|p| b.fighter(id).footprint().contains(p)));
    targets.insert(usize::from(at_friend), None);
    for on in targets {
        for item in &f.items {
            let c = Command::UseItem { item: item.clone(), on };
            if b.check(me, &c).is_ok() {
                let whom = on.map_or(String::new(), |o| format!(" on {}", b.fighter(o).name));
                return Some((c, format!("Use {}{whom}", b.item_name(item))));
            }
        }
    }
    None
}

/// The "pick up" command and its label, if one would be accepted.
pub fn pick_up_command(b: &Battle, me: CreatureId, hovered: Option<Pos>) -> Option<(Command, String)> {
    let mut lying: Vec<_> = b.ground_items().iter().collect();
    lying.sort_by_key(|g| Some(g.at) != hovered);
    lying.into_iter().map(|g| (Command::PickUp { at: g.at, item: g.item.clone() }, g)).find_map(|(c, g)| {
        b.check(me, &c).is_ok().then(|| (c, format!("Pick up {} at {}", b.item_name(&g.item), g.at)))
    })
}

/// The "give" command and its label, if one would be accepted.
pub fn give_command(b: &Battle, me: CreatureId, hovered: Option<Pos>) -> Option<(Command, String)> {
    let f = b.fighter(me);
    for to in friends(b, me, hovered) {
        for item in &f.items {
            let c = Command::GiveItem { item: item.clone(), to };
            if b.check(me, &c).is_ok() {
                return Some((c, format!("Give {} to {}", b.item_name(item), b.fighter(to).name)));
            }
        }
    }
    None
}

/// The item command an item key gives now, with its label.
pub fn command_for(
    key: super::input::PlayerAction,
    b: &Battle,
    me: CreatureId,
    hovered: Option<Pos>,
) -> Option<(Command, String)> {
    use super::input::PlayerAction::*;
    match key {
        UseItem => use_command(b, me, hovered),
        PickUp => pick_up_command(b, me, hovered),
        GiveItem => give_command(b, me, hovered),
        DropItem => drop_command(b, me),
        Drag => drag_command(b, me, hovered),
        Lift => lift_command(b, me, hovered),
        Mount => mount_command(b, me, hovered),
        _ => None,
    }
}

/// The keys `command_for` answers.
pub const KEYS: [super::input::PlayerAction; 7] = {
    use super::input::PlayerAction::*;
    [UseItem, PickUp, GiveItem, DropItem, Drag, Lift, Mount]
};

/// What the notice says when a key of `KEYS` gives no command now.
pub fn why_not(key: super::input::PlayerAction) -> &'static str {
    match key {
        super::input::PlayerAction::Drag => "no body next to it can be dragged to that square (MOVE-13)",
        super::input::PlayerAction::Mount => {
            "no mount of its side next to it, or no free square beside the mount to get off onto (MOVE-E8: 1 AP)"
        }
        super::input::PlayerAction::Lift => {
            "no body next to it to lift, or no free square next to it to put one down (MOVE-13: 3 AP)"
        }
        _ => "nothing of the kind can be done now",
    }
}

/// TIME-E10: the Ready command for `weapon` (the one in hand), else for the strongest
/// single-target weapon the engine accepts, and its label.
pub fn ready_command(b: &Battle, me: CreatureId, weapon: Option<&str>) -> Option<(Command, String)> {
    let f = b.fighter(me);
    let mut weapons: Vec<_> = f.weapons.iter().collect();
    weapons.sort_by_key(|w| (Some(w.key.as_str()) != weapon, -w.weapon.dice.dice_for(&f.attrs)));
    weapons.into_iter().find_map(|w| {
        let c = Command::Ready { weapon: w.key.clone(), trigger: crate::battle::ReadyTrigger::InReach };
        let ap = w.weapon.ap + crate::battle::READY_EXTRA_AP;
        b.check(me, &c).is_ok().then(|| (c, format!("Ready {} ({ap} AP when it fires)", w.weapon.name)))
    })
}

/// The "drop" command (the last item taken) and its label.
pub fn drop_command(b: &Battle, me: CreatureId) -> Option<(Command, String)> {
    let item = b.fighter(me).items.last()?;
    let c = Command::DropItem { item: item.clone() };
    b.check(me, &c).is_ok().then(|| (c, format!("Drop {}", b.item_name(item))))
}

/// The squares whose items the viewer is shown: the ones its side sees now (PERC-2), all for a
/// GM. Items are map features, but one a hidden creature drops or takes must not give it away.
pub fn shown_squares(b: &Battle, viewer: &Viewer) -> Option<Vec<bool>> {
    (!viewer.omniscient).then(|| b.seen_squares(viewer.side))
}

/// A mark in the corner of each square with items the viewer is shown (`draw_item_mark`),
/// worked out again only when the battle changed.
fn draw_ground_items(
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    mut shown: Local<Option<Vec<bool>>>,
    mut gizmos: Gizmos,
) {
    let b = &battle.battle;
    if b.ground_items().is_empty() {
        return;
    }
    if battle.is_changed() || viewer.is_changed() || shown.is_none() {
        *shown = Some(shown_squares(b, &viewer).unwrap_or_default());
    }
    let seen = shown.as_deref().unwrap_or_default();
    for g in b.ground_items() {
        if viewer.omniscient || seen.get(b.map().index(g.at)).copied().unwrap_or(false) {
            draw_item_mark(&mut gizmos, g.at, b.item_def(&g.item).and_then(|d| d.on_use.as_ref()));
        }
    }
}

/// An item's mark in the lower right corner of its square: a green cross for a healing item,
/// amber arrows for ammunition, a brown box for anything else.
pub fn draw_item_mark(gizmos: &mut Gizmos, at: Pos, on_use: Option<&ItemUse>) {
    let corner = square_centre(at) + Vec2::new(super::TILE * 0.27, -super::TILE * 0.27);
    let s = super::TILE * 0.12;
    match on_use {
        Some(ItemUse::Recover { .. }) => {
            let green = Color::srgb(0.3, 0.95, 0.4);
            gizmos.rect_2d(Isometry2d::from_translation(corner), Vec2::splat(2.4 * s), Color::srgb(0.1, 0.3, 0.1));
            gizmos.line_2d(corner - Vec2::new(s, 0.0), corner + Vec2::new(s, 0.0), green);
            gizmos.line_2d(corner - Vec2::new(0.0, s), corner + Vec2::new(0.0, s), green);
        }
        Some(ItemUse::Reload { .. }) => {
            let amber = Color::srgb(1.0, 0.75, 0.2);
            for dx in [-0.6, 0.0, 0.6] {
                let x = corner.x + dx * s;
                gizmos.line_2d(Vec2::new(x, corner.y - s), Vec2::new(x, corner.y + s), amber);
                gizmos.line_2d(Vec2::new(x, corner.y + s), Vec2::new(x - 0.35 * s, corner.y + 0.6 * s), amber);
            }
        }
        None => {
            let brown = Color::srgb(0.75, 0.5, 0.25);
            gizmos.rect_2d(Isometry2d::from_translation(corner), Vec2::splat(2.0 * s), brown);
            gizmos.line_2d(corner - Vec2::new(s, 0.0), corner + Vec2::new(s, 0.0), brown);
        }
    }
}

/// MOVE-13: the bodies on the grid (unconscious, perceived by `me`'s side) other than `me`:
/// the one under the pointer first, then friends, then by id.
fn bodies_seen(b: &Battle, me: CreatureId, hovered: Option<Pos>) -> Vec<CreatureId> {
    let side = b.fighter(me).side;
    let mut bodies: Vec<CreatureId> = b
        .creatures()
        .iter()
        .filter(|o| o.id != me && o.is_active() && o.attrs.is_unconscious() && b.side_perceives(side, o.id))
        .map(|o| o.id)
        .collect();
    let under = |id: CreatureId| hovered.is_some_and(|p| b.fighter(id).footprint().contains(p));
    bodies.sort_by_key(|&o| (!under(o), b.fighter(o).side != side, o));
    bodies
}

/// MOVE-13: the bodies `me` could drag now, a friend first.
pub fn draggable_bodies(b: &Battle, me: CreatureId) -> Vec<CreatureId> {
    bodies_seen(b, me, None).into_iter().filter(|&o| b.drag_reachable(me, o).is_ok()).collect()
}

/// MOVE-13: the drag the key gives with the pointer on `hovered`, with its label.
pub fn drag_command(b: &Battle, me: CreatureId, hovered: Option<Pos>) -> Option<(Command, String)> {
    let at = hovered?;
    draggable_bodies(b, me).into_iter().find_map(|body| {
        let c = b.drag_command(me, body, at)?;
        Some((c, format!("Drag {} to {at}", b.fighter(body).name)))
    })
}

/// MOVE-13 [Ext]: the lift or put-down the key gives with the pointer on `hovered`, with its
/// label: carrying, put the body down there (else on the first free square next to it);
/// else lift a body next to it, the hovered one first.
pub fn lift_command(b: &Battle, me: CreatureId, hovered: Option<Pos>) -> Option<(Command, String)> {
    if let Some(body) = b.carried_by(me) {
        let name = &b.fighter(body).name;
        let squares = b.put_down_squares(me);
        let at = hovered.filter(|p| squares.contains(p)).or_else(|| squares.first().copied())?;
        return Some((Command::PutDown { at }, format!("Put {name} down on {at}")));
    }
    bodies_seen(b, me, hovered).into_iter().find_map(|body| {
        let c = Command::Lift { creature: body };
        b.check(me, &c).is_ok().then(|| (c, format!("Lift {} (3 AP)", b.fighter(body).name)))
    })
}

/// MOVE-E8: the mount or dismount the key gives with the pointer on `hovered`, with its label:
/// riding, get off onto the square under the pointer (else the first free one); else mount a
/// mount next to it, the hovered one first.
pub fn mount_command(b: &Battle, me: CreatureId, hovered: Option<Pos>) -> Option<(Command, String)> {
    if let Some(mount) = b.mount_of(me) {
        let squares = b.dismount_squares(me);
        let to = hovered.filter(|p| squares.contains(p)).or_else(|| squares.first().copied())?;
        return Some((Command::Dismount { to }, format!("Get off {} onto {to}", b.fighter(mount).name)));
    }
    let under = |id: CreatureId| hovered.is_some_and(|p| b.fighter(id).footprint().contains(p));
    let mut mounts: Vec<CreatureId> = b.creatures().iter().filter(|o| o.mount && o.id != me).map(|o| o.id).collect();
    mounts.sort_by_key(|&m| (!under(m), m));
    mounts.into_iter().find_map(|m| {
        let c = Command::Mount { mount: m };
        b.check(me, &c).is_ok().then(|| (c, format!("Mount {} (1 AP)", b.fighter(m).name)))
    })
}
