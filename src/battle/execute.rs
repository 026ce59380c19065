//! Executing a checked command: moves, facing, postures, searches, hiding, fleeing, delays and
//! the turn's end. Attacks hand over to the attack pipeline (`attack.rs`).

use super::check::Plan;
use super::state::*;
use super::types::*;
use crate::rules::costs::{FLEE_AP, HIDE_AP, MOVE_AP, SEARCH_AP};
use crate::rules::creature::Attribute;
use crate::rules::dice::{attempt_succeeds, points, roll_faces};
use crate::rules::facing::Facing;
use crate::rules::flow::flee_difficulty;
use crate::rules::grid::{Footprint, Pos, footprint_distance};

impl Battle {
    /// Check, then execute. A rejected command changes nothing but the log.
    pub fn submit(&mut self, creature: CreatureId, command: Command) -> Result<(), Rejection> {
        match self.plan(creature, &command) {
            Err(r) => {
                let side = self.sides[self.creatures.get(creature as usize).map_or(0, |c| c.side)].name.clone();
                self.log_to(
                    Event::CommandRejected { creature, command, rule: r.rule.to_string(), reason: r.reason.clone() },
                    vec![side],
                );
                Err(r)
            }
            Ok(plan) => {
                let side = self.sides[self.creatures[creature as usize].side].name.clone();
                self.log_to(Event::CommandAccepted { creature, command }, vec![side]);
                self.execute(creature, plan);
                Ok(())
            }
        }
    }

    fn execute(&mut self, id: CreatureId, plan: Plan) {
        match plan {
            Plan::Move { path, cost, sprint, face } => self.do_move(id, path, cost, sprint, face),
            Plan::Face(f) => {
                self.creatures[id as usize].facing = f;
                self.log_about(Event::Faced { creature: id, facing: f }, &[id]);
                self.after_change(id);
            }
            Plan::Posture(p, cost) => {
                self.spend(id, cost);
                self.creatures[id as usize].posture = p;
                self.log_about(Event::PostureChanged { creature: id, posture: p, forced: false }, &[id]);
            }
            Plan::Attack(flow, cost) => {
                self.spend(id, cost);
                self.start_attack(*flow);
            }
            Plan::LongTerm { weapon, target, additives, cost } => {
                let f = &mut self.creatures[id as usize];
                let paid = f.ap;
                f.ap = 0;
                f.spent_this_turn += paid;
                f.long_term = Some(LongTerm { weapon: weapon.clone(), target, additives, remaining: cost - paid });
                self.log_about(Event::LongTermStarted { creature: id, weapon, remaining: cost - paid }, &[id]);
                self.end_turn();
            }
            Plan::Defend(d) => self.answer_defense(id, d),
            Plan::QuickStep { to, face, ap } => self.answer_quick_step(id, to, face, ap),
            Plan::Counter(counter, ap) => self.answer_counter(id, *counter, ap),
            Plan::PassBefore => self.answer_pass(id),
            Plan::Search(at) => self.do_search(id, at),
            Plan::Hide(difficulty) => {
                self.spend(id, HIDE_AP);
                let before = self.side_knowledge();
                self.creatures[id as usize].hidden = Some(difficulty);
                // Only its own side learns it hid: the point of hiding (DICE-E1).
                let side = self.sides[self.creatures[id as usize].side].name.clone();
                self.log_to(Event::HidCreature { creature: id, difficulty }, vec![side]);
                self.refresh_perception_of(id);
                self.emit_perception_changes(&before);
            }
            Plan::Flee => self.do_flee(id),
            Plan::Abort => {
                self.creatures[id as usize].long_term = None;
                self.log_about(Event::LongTermAborted { creature: id, reason: "aborted".into() }, &[id]);
            }
            Plan::Allocation(order) => self.creatures[id as usize].allocation = order,
            Plan::Delay(after) => {
                self.creatures[id as usize].delayed_round = Some(self.round);
                self.order.remove(self.turn);
                let at = self.order.iter().position(|c| *c == after).map_or(self.order.len(), |i| i + 1);
                self.order.insert(at, id);
                let all = self.all_sides();
                self.log_about(Event::Delayed { creature: id, after }, &[id]);
                self.log_to(Event::TurnOrder { order: self.order.clone() }, all);
                // The slot now at `turn` is the next creature's: step back so advancing lands on it.
                self.turn = self.turn.wrapping_sub(1);
                self.advance_turns();
            }
            Plan::EndTurn => self.end_turn(),
        }
    }

    pub(super) fn spend(&mut self, id: CreatureId, ap: i32) {
        if ap == 0 {
            return;
        }
        let f = &mut self.creatures[id as usize];
        f.ap -= ap;
        f.spent_this_turn += ap;
        let left = f.ap;
        self.log_about(Event::ApSpent { creature: id, ap, left }, &[id]);
    }

    /// Perception after a creature moved, turned or changed: refresh, reveal, tell sides.
    fn after_change(&mut self, id: CreatureId) {
        let before = self.side_knowledge();
        self.refresh_perception_of(id);
        self.check_hidden(id);
        self.emit_perception_changes(&before);
    }

    /// PERC-E4: Hidden ends next to a hostile, or in the open where a hostile would spot it.
    fn check_hidden(&mut self, id: CreatureId) {
        if self.creatures[id as usize].hidden.is_none() {
            return;
        }
        let concealing = self.creatures[id as usize].footprint().cells().any(|c| self.map.terrain(c).concealing);
        let saved = self.creatures[id as usize].hidden.take();
        let mut reason = None;
        for o in 0..self.n() as CreatureId {
            if o == id || !self.creatures[o as usize].can_act() || !self.hostile(o, id) {
                continue;
            }
            let adjacent =
                footprint_distance(self.creatures[o as usize].footprint(), self.creatures[id as usize].footprint())
                    <= 1;
            if adjacent {
                reason = Some(format!("{} is adjacent", self.creatures[o as usize].name));
                break;
            }
            if !concealing && self.compute_perceives(o, id) {
                reason = Some(format!("in the open in front of {}", self.creatures[o as usize].name));
                break;
            }
        }
        match reason {
            Some(r) => self.reveal(id, r),
            None => self.creatures[id as usize].hidden = saved,
        }
    }

    pub(super) fn reveal(&mut self, id: CreatureId, reason: String) {
        self.creatures[id as usize].hidden = None;
        self.refresh_perception_of(id);
        let all = self.all_sides();
        self.log_to(Event::Revealed { creature: id, reason }, all);
    }

    fn do_move(&mut self, id: CreatureId, path: Vec<Pos>, cost: u32, sprint: bool, face: Option<Facing>) {
        self.spend(id, MOVE_AP);
        let watchers_before = self.witnesses(&[id]);
        let end = *path.last().expect("checked path");
        {
            let f = &mut self.creatures[id as usize];
            f.origin = end;
            f.noisy_round = Some(self.round);
        }
        let before = self.side_knowledge();
        self.refresh_perception_of(id);
        self.check_hidden(id);
        let mut seen = self.witnesses(&[id]);
        for s in watchers_before {
            if !seen.contains(&s) {
                seen.push(s);
            }
        }
        self.log_to(Event::Moved { creature: id, path, cost_quarters: cost, sprint }, seen);
        if sprint {
            // MOVE-E2 (Engine decision): a sprint costs 1 Activeness die, unpreventable.
            self.remove_dice(id, Attribute::Activeness, 1);
        }
        if let Some(f) = face {
            self.creatures[id as usize].facing = f;
            self.log_about(Event::Faced { creature: id, facing: f }, &[id]);
            self.refresh_perception_of(id);
        }
        self.emit_perception_changes(&before);
        self.check_unconscious(&[id]);
        self.check_victory(false);
    }

    fn remove_dice(&mut self, id: CreatureId, a: Attribute, n: i32) {
        let removed = self.creatures[id as usize].attrs.remove_dice(a, n);
        if removed > 0 {
            let left = self.creatures[id as usize].attrs.dice(a);
            self.log_about(Event::Damaged { creature: id, attribute: a, dice: removed, left }, &[id]);
        }
    }

    fn do_search(&mut self, id: CreatureId, at: Pos) {
        self.spend(id, SEARCH_AP);
        let me = &self.creatures[id as usize];
        let dice = me.attrs.dice(Attribute::Spirit) - self.roll_penalty(me.posture);
        let faces = roll_faces(&mut self.rng, dice);
        let pts = points(&faces) as i32;
        let scope = Footprint::new(at.offset(-1, -1), 3);
        let found: Vec<CreatureId> = self
            .creatures
            .iter()
            .filter(|o| {
                o.is_active()
                    && o.hidden.is_some_and(|d| attempt_succeeds(pts as i64, d))
                    && self.hostile(id, o.id)
                    && o.footprint().cells().any(|c| scope.contains(c))
            })
            .map(|o| o.id)
            .collect();
        // DICE-E1: searches are secret: only the searcher's side sees the roll.
        let side = self.sides[self.creatures[id as usize].side].name.clone();
        self.log_to(
            Event::Rolled { creature: id, purpose: format!("search around {at}"), faces, points: pts },
            vec![side.clone()],
        );
        self.log_to(Event::Searched { creature: id, at, points: pts, found: found.clone() }, vec![side]);
        let before = self.side_knowledge();
        for f in found {
            let name = self.creatures[id as usize].name.clone();
            self.reveal(f, format!("found by {name}'s search"));
        }
        self.emit_perception_changes(&before);
    }

    fn do_flee(&mut self, id: CreatureId) {
        self.spend(id, FLEE_AP);
        let difficulty = flee_difficulty(
            self.creatures
                .iter()
                .filter(|o| o.can_act() && self.hostile(id, o.id))
                .map(|o| o.attrs.dice(Attribute::Activeness)),
        );
        let me = &self.creatures[id as usize];
        let dice = me.attrs.dice(Attribute::Activeness) - self.roll_penalty(me.posture);
        let faces = roll_faces(&mut self.rng, dice);
        let pts = points(&faces) as i32;
        let success = attempt_succeeds(pts as i64, difficulty);
        self.log_about(Event::Rolled { creature: id, purpose: "flee".into(), faces, points: pts }, &[id]);
        self.log_about(Event::FleeAttempted { creature: id, points: pts, difficulty, success }, &[id]);
        if success {
            let before = self.side_knowledge();
            let all = self.all_sides();
            self.creatures[id as usize].presence = Presence::Fled;
            self.log_to(Event::Fled { creature: id }, all);
            self.refresh_perception_of(id);
            self.emit_perception_changes(&before);
            self.check_victory(false);
            if !matches!(self.phase, Phase::Over(_)) {
                self.end_turn();
            }
        }
    }
}
