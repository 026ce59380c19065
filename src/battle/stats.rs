//! What a battle's log says about how it was played: the figures `sim` reports beside wins.

use super::state::Battle;
use super::types::{CreatureId, Event};

impl Battle {
    /// The sides that took damage in two consecutive rounds without any of their creatures
    /// moving, attacking, counter-attacking, hiding or trying to flee (FLOW-5) in them: a side under fire it does not
    /// answer, the AI's stall the `sim` report counts. Blows on the fallen (FLOW-7) are not
    /// fire a standing side fails to answer, and partial entries (what one side glimpsed of an
    /// event) are never counted twice. A round counts only if one of the side's standing
    /// creatures had its turn in it: a side knocked out before its turn came (the battle over
    /// in mid-round) had no chance to answer, and was counted as if it had waited.
    pub fn sides_passive_under_fire(&self) -> Vec<usize> {
        self.passive_stretches().into_iter().map(|(side, _)| side).collect()
    }

    /// [`Self::sides_passive_under_fire`] with, per side, the first round that ended such a
    /// stretch (it and the round before it): where to look in the log.
    pub fn passive_stretches(&self) -> Vec<(usize, u32)> {
        let rounds = self.round() as usize + 1;
        let sides = self.sides().len();
        let mut hurt = vec![vec![false; rounds]; sides];
        let mut acted = vec![vec![false; rounds]; sides];
        let mut had_turn = vec![vec![false; rounds]; sides];
        let mut down = vec![false; self.n()];
        for e in self.log().iter().filter(|e| !e.partial) {
            let r = (e.round as usize).min(rounds - 1);
            match &e.event {
                Event::Unconscious { creature } | Event::Died { creature } | Event::Fled { creature } => {
                    down[*creature as usize] = true
                }
                Event::Damaged { creature, .. } if !down[*creature as usize] => {
                    hurt[self.fighter(*creature).side][r] = true
                }
                Event::TurnStarted { creature, .. } if !down[*creature as usize] => {
                    had_turn[self.fighter(*creature).side][r] = true
                }
                Event::Moved { creature, .. }
                | Event::AttackDeclared { attacker: creature, .. }
                | Event::CounterAttackDeclared { creature, .. }
                | Event::HidCreature { creature, .. }
                | Event::FleeAttempted { creature, .. } => acted[self.fighter(*creature).side][r] = true,
                _ => {}
            }
        }
        (0..sides)
            .filter_map(|s| {
                let r = (1..rounds).find(|&r| (r - 1..=r).all(|k| hurt[s][k] && !acted[s][k] && had_turn[s][k]))?;
                Some((s, r as u32))
            })
            .collect()
    }

    /// Per creature: dice of damage it dealt and took in attacks. Damage to a creature is
    /// credited to the last attack declared on it (areas included; a counter-attack declared
    /// meanwhile on someone else does not take the credit). Dice spent outside an attack (the
    /// Activeness die of a sprint, MOVE-E2) are costs, not damage, and are not counted. A
    /// counter-attack's damage is the counter-attacker's. What one side glimpsed of an event
    /// (a partial entry) is not counted beside the event itself.
    pub fn damage_tally(&self) -> Vec<(i32, i32)> {
        let mut tally = vec![(0, 0); self.n()];
        let mut attacked_by: Vec<Option<CreatureId>> = vec![None; self.n()];
        let mut in_attack = false;
        for e in self.log().iter().filter(|e| !e.partial) {
            match &e.event {
                Event::CounterAttackDeclared { creature, against, .. } => {
                    in_attack = true;
                    attacked_by[*against as usize] = Some(*creature);
                }
                Event::AttackDeclared { attacker, targets, .. } => {
                    in_attack = true;
                    for t in targets {
                        attacked_by[*t as usize] = Some(*attacker);
                    }
                }
                // A move or a turn's edge: what comes next is not that attack (a defense or a
                // counter inside it is).
                Event::Moved { .. } | Event::TurnStarted { .. } | Event::TurnEnded { .. } => in_attack = false,
                Event::Damaged { creature, dice, .. } if in_attack => {
                    tally[*creature as usize].1 += dice;
                    if let Some(a) = attacked_by[*creature as usize] {
                        tally[a as usize].0 += dice;
                    }
                }
                _ => {}
            }
        }
        tally
    }
}
