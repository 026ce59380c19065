//! DICE-13: when the AI spends Expense of Fate. It is asked only where the ruleset offers Fate
//! to every creature (`FateOffer::Everyone`; GEN-E1's default keeps it for players), and spends
//! only where a die turns a loss into a win worth it: an attack roll that then knocks out a foe
//! that cannot defend it, or a defense roll that then keeps itself conscious — for at most
//! [`MOST_FATE_DICE`] dice, and never at the price of its own consciousness.

use crate::battle::{Battle, Command, CreatureId};
use crate::rules::fate::best_raise;
use crate::rules::ruleset::FateOffer;

/// A die of Fate is a die of damage taken for good (until rest): two is the most a knock-out
/// is worth paying, since a creature losing more would be nearly spent itself.
pub const MOST_FATE_DICE: usize = 2;

/// The AI's answer to a Fate window: the fewest dice that win, or keep the roll.
pub fn answer(b: &Battle, me: CreatureId) -> Command {
    // GEN-E1: under the default (`Players`) Fate is a person's choice; an AI creature on a
    // player's side, or a side `run --fate` names without a script, keeps its rolls.
    if b.ruleset().expense_of_fate != FateOffer::Everyone {
        return Command::Pass;
    }
    let (Some(w), Ok(kept)) = (b.fate_window(), b.fate_preview(&[])) else { return Command::Pass };
    if w.roller != me {
        return Command::Pass;
    }
    let attack = w.defense.is_none();
    // Nothing to win: an attack that knocks out already, one a defense may still blunt, a blow
    // on a friend; a defense that saves already.
    let winnable = if attack {
        b.hostile(me, w.struck) && !w.defendable && !kept.struck_knocked_out
    } else {
        kept.struck_knocked_out
    };
    if !winnable {
        return Command::Pass;
    }
    for k in 1..=MOST_FATE_DICE.min(w.own) {
        let set = best_raise(w.points, &w.faces, w.own, k);
        if set.len() < k {
            break;
        }
        let Ok(p) = b.fate_preview(&set) else { break };
        let wins = if attack { p.struck_knocked_out } else { !p.struck_knocked_out };
        if wins && !p.roller_knocked_out {
            return Command::Fate { set };
        }
    }
    Command::Pass
}
