//! Losing and regaining senses (FLOW-D3's blinded and deafened, PERC-4) and locating an
//! invisible attacker (PERC-E6).

use super::state::*;
use super::types::*;
use crate::rules::senses::{Sense, SenseLoss};

impl Battle {
    /// A blow that takes a sense: lost for the victim's next `turns` turns (a longer loss is
    /// kept if it already has one; the event says how many turns are left).
    pub(super) fn take_sense(&mut self, id: CreatureId, loss: SenseLoss) {
        let f = &mut self.creatures[id as usize];
        if f.senses.range(loss.sense) == 0 {
            return; // nothing to lose
        }
        // Taken during its own turn (a counter, a readied blow), the rest of this turn does not
        // count as one of the next ones.
        let during_own_turn = self.order.get(self.turn) == Some(&id);
        let slot = &mut f.senses_lost[loss.sense.index()];
        *slot = (*slot).max(loss.turns + u32::from(during_own_turn));
        let turns = *slot - u32::from(during_own_turn);
        self.log_about(Event::SenseLost { creature: id, sense: loss.sense, turns }, &[id]);
        self.refresh_perception_of(id);
        self.sync_perception();
    }

    /// At the end of each of its turns a lost sense comes one turn closer to returning.
    pub(super) fn wear_off_sense_loss(&mut self, id: CreatureId) {
        let mut regained = Vec::new();
        for sense in Sense::ALL {
            let slot = &mut self.creatures[id as usize].senses_lost[sense.index()];
            if *slot > 0 {
                *slot -= 1;
                if *slot == 0 {
                    regained.push(sense);
                }
            }
        }
        if regained.is_empty() {
            return;
        }
        for sense in regained {
            self.log_about(Event::SenseRegained { creature: id, sense }, &[id]);
        }
        self.refresh_perception_of(id);
        self.sync_perception();
    }

    /// PERC-E6: after an invisible creature attacks someone, that creature perceives the square
    /// it struck from until it moves (002's "you know its square"). Only the struck creature's
    /// side is told.
    pub(super) fn betray_invisible_attacker(&mut self, attacker: CreatureId, struck: &[CreatureId]) {
        if !self.creatures[attacker as usize].invisible {
            return;
        }
        let at = self.creatures[attacker as usize].origin;
        let victims: Vec<CreatureId> =
            struck.iter().copied().filter(|&v| v != attacker && self.creatures[v as usize].can_act()).collect();
        if victims.is_empty() {
            return;
        }
        let list = &mut self.creatures[attacker as usize].betrayed_to;
        // One entry per victim: the list is never longer than the creature count.
        list.retain(|(v, _)| !victims.contains(v));
        list.extend(victims.iter().map(|&v| (v, at)));
        self.refresh_perception_of(attacker);
        self.sync_perception();
        for victim in victims {
            let side = self.sides[self.creatures[victim as usize].side].name.clone();
            self.log_to(Event::InvisibleLocated { creature: victim, attacker, at }, vec![side]);
        }
    }
}
