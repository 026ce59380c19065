//! Items (TIME-18): the AI uses what it carries where that is plainly right and never spends AP
//! on items otherwise. In order:
//! - a healing item on an unconscious friend next to it (FLOW-8: it wakes and fights again);
//! - spare ammunition for a weapon that has run dry;
//! - a healing item on itself when its weakest pool is down to a third or less;
//! - picking up, within reach, an item it would use at once by those rules.
//!
//! It never drops or hands over items: with one player commanding a whole side, moving an item
//! between friends only pays off in plans this AI does not make.

use crate::battle::{Battle, Command, CreatureId, Event};
use crate::rules::grid::{Footprint, Pos, footprint_distance};
use crate::rules::items::{ItemDef, ItemUse};

/// The item command worth giving now, if any.
pub(super) fn worth_using(b: &Battle, me: CreatureId) -> Option<Command> {
    let f = b.fighter(me);
    let accepted = |c: Command| b.check(me, &c).is_ok().then_some(c);
    // A fallen friend first: a creature back in the fight outweighs a blow.
    for friend in b.creatures().iter().filter(|o| o.side == f.side && o.id != me && o.is_active()) {
        if !friend.attrs.is_unconscious() || friend.attrs.is_dead() {
            continue;
        }
        for item in &f.items {
            if b.item_def(item).is_some_and(|d| wakes(d, friend)) {
                let c = Command::UseItem { item: item.clone(), on: Some(friend.id) };
                if let Some(c) = accepted(c) {
                    return Some(c);
                }
            }
        }
    }
    for item in &f.items {
        if b.item_def(item).is_some_and(|d| helps_now(d, f))
            && let Some(c) = accepted(Command::UseItem { item: item.clone(), on: None })
        {
            return Some(c);
        }
    }
    // Within reach and of use at once (the check refuses what is out of reach), and not where
    // a pick-up already failed this round (someone unseen stands there: its side's own log).
    let near: Vec<_> = b
        .ground_items()
        .iter()
        .filter(|g| footprint_distance(f.footprint(), Footprint::single(g.at)) <= 1)
        .filter(|g| b.item_def(&g.item).is_some_and(|d| helps_now(d, f)))
        .collect();
    if near.is_empty() {
        return None;
    }
    let side = &b.sides()[f.side].name;
    let failed: Vec<Pos> = b
        .log_for_side(side)
        .filter(|e| e.round == b.round())
        .filter_map(|e| match &e.event {
            Event::PickUpFailed { at, .. } => Some(*at),
            _ => None,
        })
        .collect();
    near.into_iter()
        .filter(|g| !failed.contains(&g.at))
        .map(|g| Command::PickUp { at: g.at, item: g.item.clone() })
        .find_map(accepted)
}

/// Using `d` on `f` itself now is plainly right: its weapon is dry, or it is badly hurt.
fn helps_now(d: &ItemDef, f: &crate::battle::state::Fighter) -> bool {
    match &d.on_use {
        Some(ItemUse::Reload { weapon, .. }) => f.weapon(weapon).is_some_and(|w| w.ammo == Some(0)),
        Some(ItemUse::Recover { attribute, .. }) => {
            f.attrs.pool(*attribute).is_some_and(|p| p.current > 0 && 3 * p.current <= p.max)
        }
        None => false,
    }
}

/// `d` may give back the die that keeps `friend` down.
fn wakes(d: &ItemDef, friend: &crate::battle::state::Fighter) -> bool {
    matches!(&d.on_use, Some(ItemUse::Recover { attribute, .. })
        if friend.attrs.pool(*attribute).is_some_and(|p| p.current == 0))
        && crate::rules::creature::Attribute::ALL
            .iter()
            .filter(|a| friend.attrs.pool(**a).is_some_and(|p| p.current == 0))
            .count()
            == 1
}
