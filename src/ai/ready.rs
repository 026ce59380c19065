//! Ready (TIME-E10): a creature about to end its turn with AP to spare readies its best
//! single-target attack for the first hostile that ends a move in reach, keeping a defense's
//! AP beside it. Declaring costs nothing; the AP it spends when it fires are AP that would
//! otherwise lapse at its next turn, less the defense kept.

use crate::battle::{Armed, Battle, Command, CreatureId, Fighter, READY_EXTRA_AP, ReadyTrigger};
use crate::rules::costs::DEFEND_AP;

/// The weapons a creature can ready: single-target ones with ammunition left.
pub(super) fn readiable(f: &Fighter) -> impl Iterator<Item = &Armed> {
    f.weapons.iter().filter(|w| w.weapon.area.is_none() && w.ammo != Some(0))
}

/// The AP readying `w` asks of a turn: the blow, the readying, and a defense kept beside them.
pub(super) fn ready_cost(w: &Armed) -> i32 {
    w.weapon.ap + READY_EXTRA_AP + DEFEND_AP
}

/// The Ready command to give instead of ending the turn, if one is worth it.
pub(super) fn instead_of_ending(b: &Battle, me: CreatureId) -> Option<Command> {
    let f = b.fighter(me);
    if f.readied.is_some() || !f.can_act() {
        return None;
    }
    readiable(f)
        .filter(|w| ready_cost(w) <= f.ap)
        .max_by_key(|w| (w.weapon.dice.dice_for(&f.attrs) * w.weapon.segments as i32, w.weapon.range.max))
        .map(|w| Command::Ready { weapon: w.key.clone(), trigger: ReadyTrigger::InReach })
        .filter(|c| b.check(me, c).is_ok())
}
