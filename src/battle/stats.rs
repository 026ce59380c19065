//! What a battle's log says about how it was played: the figures `sim` reports beside wins.

use super::state::Battle;
use super::types::Event;

impl Battle {
    /// The sides that took damage in two consecutive rounds without any of their creatures
    /// moving, attacking, counter-attacking or hiding in them: a side under fire it does not
    /// answer, the AI's stall the `sim` report counts. Blows on the fallen (FLOW-7) are not
    /// fire a standing side fails to answer, and partial entries (what one side glimpsed of an
    /// event) are never counted twice.
    pub fn sides_passive_under_fire(&self) -> Vec<usize> {
        let rounds = self.round() as usize + 1;
        let sides = self.sides().len();
        let mut hurt = vec![vec![false; rounds]; sides];
        let mut acted = vec![vec![false; rounds]; sides];
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
                Event::Moved { creature, .. }
                | Event::AttackDeclared { attacker: creature, .. }
                | Event::CounterAttackDeclared { creature, .. }
                | Event::HidCreature { creature, .. } => acted[self.fighter(*creature).side][r] = true,
                _ => {}
            }
        }
        (0..sides).filter(|&s| (1..rounds).any(|r| (r - 1..=r).all(|k| hurt[s][k] && !acted[s][k]))).collect()
    }
}
