//! Reaction windows on an attack (TIME-E6): "before" reactions (Quick Step, TIME-14),
//! simultaneous counter-attacks (TIME-13) and defenses (ATK-11), checked and answered.

use super::attack::{AttackFlow, PendingAttack, TargetRun};
use super::check::{Plan, reject};
use super::query::{AttackPreview, DefenseOption};
use super::state::*;
use super::types::*;
use crate::rules::attack::Defense;
use crate::rules::costs::DEFEND_AP;
use crate::rules::dice::roll_faces;
use crate::rules::facing::Facing;
use crate::rules::grid::Pos;
use crate::rules::movement::{Mover, validate_path};
use crate::rules::posture::Posture;

/// The attack an open reaction window is about, as the answering creature faces it.
#[derive(Clone, Debug, PartialEq)]
pub struct WindowPreview {
    pub creature: CreatureId,
    pub kind: WindowKind,
    pub attacker: CreatureId,
    pub weapon: String,
    /// The weapon's reach (range maximum).
    pub reach: i32,
    pub ranged: bool,
    /// The attack against the answering creature (dice, protection, its defenses).
    pub attack: AttackPreview,
    /// Defense window: the attack points rolled for this segment, and what gets through
    /// protection if it is taken.
    pub points: Option<i32>,
    pub damage_if_taken: Option<i32>,
}

impl WindowPreview {
    /// Expected damage `option` prevents of this segment's `damage_if_taken` (0 when unknown):
    /// E[min(defense points, damage)].
    pub fn expected_prevented(&self, option: &DefenseOption) -> f64 {
        let Some(after) = self.damage_if_taken else { return 0.0 };
        self.attack
            .points
            .distribution(option.dice)
            .iter()
            .enumerate()
            .map(|(k, q)| (k as i32).min(after) as f64 * q)
            .sum()
    }
}

impl Battle {
    /// Pause the attack for `creature`'s answer: the window holds the attack until then.
    pub(super) fn open_window(&mut self, creature: CreatureId, kind: WindowKind, attack: PendingAttack) {
        let attacker = attack.flow.attacker;
        self.phase = Phase::Window(Box::new(ReactionWindow { creature, kind, attacker, attack }));
        let side = self.sides[self.creatures[creature as usize].side].name.clone();
        self.log_to(Event::ReactionWindowOpened { creature, kind, attacker }, vec![side]);
    }

    /// Close the open window, handing the turn back to the chain's owner, and take its attack.
    pub(super) fn close_window(&mut self) -> PendingAttack {
        let Phase::Window(w) = std::mem::replace(&mut self.phase, Phase::Turn(0)) else {
            unreachable!("a window plan is only made while a window is open")
        };
        self.phase = Phase::Turn(w.attack.flow.owner);
        w.attack
    }

    /// TIME-12, TIME-15, TIME-11, PERC-3, FACE-4: may `t` react to this attacker's attack with a
    /// reaction costing `ap`?
    pub(super) fn may_react(&self, t: CreatureId, attacker: CreatureId, chain: u32, ap: i32) -> bool {
        let f = &self.creatures[t as usize];
        f.can_act()
            && !f.surprised
            && f.ap >= ap
            // TIME-S5 (seconds mode): no instant while acting, keeping or in a gap, even a free one.
            && f.clock.is_none()
            && f.reacted_chain != chain
            && f.long_term.is_none()
            && self.perceives(t, attacker)
            && !self.attacked_from_rear(t, attacker)
    }

    pub(super) fn can_counter(&self, t: CreatureId, attacker: CreatureId, chain: u32) -> bool {
        let f = &self.creatures[t as usize];
        let Some(ap) = f.counter_attack_ap() else { return false };
        let a = &self.creatures[attacker as usize];
        self.may_react(t, attacker, chain, ap)
            && f.weapons.iter().any(|w| {
                !w.weapon.range.ranged
                    && w.weapon.area.is_none()
                    && self.reach(f, f.placement(), attacker, a.origin, w).is_ok()
            })
    }

    pub(super) fn can_quick_step(&self, t: CreatureId, attacker: CreatureId, chain: u32) -> bool {
        let f = &self.creatures[t as usize];
        let Some(ap) = f.quick_step_ap() else { return false };
        self.may_react(t, attacker, chain, ap) && !matches!(f.posture, Posture::Sit | Posture::Lying | Posture::Prone)
    }

    /// ATK-11: the allowed defense, and the AP to pay for it.
    pub(super) fn plan_defend(&self, w: &ReactionWindow, defense: Option<Defense>) -> Result<Plan, Rejection> {
        let flow = &w.attack.flow;
        if let Some(d) = defense {
            if !flow.weapon.weapon.defenses.contains(&d) {
                return reject(
                    "ATK-11",
                    format!("{} allows only {:?}", flow.weapon.weapon.name, flow.weapon.weapon.defenses),
                );
            }
            let run = &flow.targets[flow.idx];
            if !run.defense_paid && self.creatures[w.creature as usize].ap < DEFEND_AP {
                return reject("TIME-12", format!("a defense needs {DEFEND_AP} AP"));
            }
        }
        Ok(Plan::Defend(defense))
    }

    /// TIME-13: a counter-attack on the attacker with a melee weapon, simultaneous.
    pub(super) fn plan_counter(&self, w: &ReactionWindow, weapon: &str) -> Result<Plan, Rejection> {
        let flow = &w.attack.flow;
        let id = w.creature;
        let me = &self.creatures[id as usize];
        let Some(ap) = me.counter_attack_ap() else {
            return reject("TIME-13", format!("{} has no counter-attack", me.name));
        };
        if flow.weapon.weapon.range.ranged || flow.weapon.weapon.area.is_some() {
            return reject("TIME-13", "a counter-attack answers melee attacks only");
        }
        if me.ap < ap {
            return reject("TIME-12", format!("the counter-attack needs {ap} AP"));
        }
        let Some(arm) = me.weapon(weapon) else {
            return reject("ATK-1", format!("{} carries no '{weapon}'", me.name));
        };
        if arm.weapon.range.ranged || arm.weapon.area.is_some() {
            return reject("TIME-13", format!("{} is not a melee weapon", arm.weapon.name));
        }
        let attacker = flow.attacker;
        let a = &self.creatures[attacker as usize];
        let e = self.engagement_of(me, me.placement(), a, a.placement());
        let modifier = self.reach_of(&e, arm).map_err(|why| self.reach_rejection(&e, arm, why))?;
        let strike = self.strike_of(&e, arm, 0, modifier);
        let run = TargetRun {
            id: attacker,
            strike,
            defense_paid: false,
            damage: 0,
            hit: false,
            told_undefendable: false,
            coup_de_grace: false,
        };
        let counter = AttackFlow {
            attacker: id,
            weapon: arm.clone(),
            target: Target::Creature(attacker),
            extra_dice: 0,
            targets: vec![run],
            idx: 0,
            segment: 0,
            before_done: true,
            pending_points: None,
            rolled: None,
            fate: None,
            base_dice: arm.weapon.dice.dice_for(&me.attrs),
            ap_paid: ap,
            chain: flow.chain,
            owner: flow.owner,
            counter: None,
        };
        Ok(Plan::Counter(Box::new(counter), ap))
    }

    /// TIME-14: one step before the attack lands.
    pub(super) fn plan_quick_step(&self, id: CreatureId, to: Pos, face: Option<Facing>) -> Result<Plan, Rejection> {
        let me = &self.creatures[id as usize];
        let Some(ap) = me.quick_step_ap() else {
            return reject("TIME-14", format!("{} has no Quick Step", me.name));
        };
        if me.ap < ap {
            return reject("TIME-12", format!("Quick Step needs {ap} AP"));
        }
        // 001's posture table: only a standing creature Quick Steps.
        if self.ruleset.posture_effects == crate::rules::ruleset::PostureEffects::Table001
            && self.effective_posture(me.posture) != crate::rules::posture::Posture::Standing
        {
            return reject(
                "TIME-14",
                format!("{} is not standing: under 001's posture table only Stand may Quick Step", me.name),
            );
        }
        self.check_hold(id, &[me.origin, to])?;
        validate_path(&self.map, Some(&self.occupancy_for(id)), &self.step_mover(id), &[me.origin, to])
            .map_err(|e| Rejection::new(e.rule(), e.to_string()))?;
        Ok(Plan::QuickStep { to, face, ap })
    }

    /// TIME-14: a Quick Step moves one square, whatever the creature's speed.
    fn step_mover(&self, id: CreatureId) -> Mover {
        Mover { speed: 1, ..self.mover(id, false) }
    }

    pub(super) fn answer_pass(&mut self, id: CreatureId) {
        let attack = self.close_window();
        self.log_about(Event::ReactionDeclined { creature: id }, &[id]);
        self.resume_attack(attack);
    }

    pub(super) fn answer_counter(&mut self, id: CreatureId, counter: AttackFlow, ap: i32) {
        let mut attack = self.close_window();
        let chain = self.chain;
        let f = &mut self.creatures[id as usize];
        f.ap -= ap;
        f.reacted_chain = chain;
        f.noisy_round = Some(self.round);
        let left = f.ap;
        let against = counter.targets[0].id;
        let weapon = counter.weapon.key.clone();
        self.log_about(Event::ApSpent { creature: id, ap, left }, &[id]);
        self.start_gap(id, ap);
        let declared = Event::CounterAttackDeclared { creature: id, weapon, against };
        self.log_views(declared.clone(), |b, s| (b.knows(s, id) && b.knows(s, against)).then(|| declared.clone()));
        attack.flow.counter = Some(Box::new(counter));
        self.resume_attack(attack);
    }

    pub(super) fn answer_defense(&mut self, id: CreatureId, defense: Option<Defense>) {
        let mut attack = self.close_window();
        let flow = &mut attack.flow;
        let pts = flow.pending_points.unwrap_or(0);
        match defense {
            None => {
                self.log_about(Event::ReactionDeclined { creature: id }, &[id]);
                self.settle_segment(flow, pts, None, None);
            }
            Some(d) => {
                let idx = flow.idx;
                if !std::mem::replace(&mut flow.targets[idx].defense_paid, true) {
                    // ATK-E3: one 1-AP reaction covers every segment of the attack.
                    let chain = self.chain;
                    let f = &mut self.creatures[id as usize];
                    f.reacted_chain = chain;
                    f.ap -= DEFEND_AP;
                    let left = f.ap;
                    self.log_about(Event::ApSpent { creature: id, ap: DEFEND_AP, left }, &[id]);
                    self.start_gap(id, DEFEND_AP);
                }
                let f = &self.creatures[id as usize];
                let dice = self.defense_dice_of(f, f.posture, d);
                let faces = roll_faces(&mut self.rng, dice);
                let dp = self.ruleset.dice_points.points(&faces) as i32;
                let fate = self.fate_for_defense(id, d, &faces);
                self.log_about(Event::Rolled { creature: id, purpose: format!("{d:?}"), faces, points: dp }, &[id]);
                if let Some(roll) = fate {
                    attack.flow.fate = Some(roll);
                    return self.open_window(id, WindowKind::Fate, attack);
                }
                self.settle_segment(flow, pts, Some(d), Some(dp));
            }
        }
        self.resume_attack(attack);
    }

    pub(super) fn answer_quick_step(&mut self, id: CreatureId, to: Pos, face: Option<Facing>, ap: i32) {
        let attack = self.close_window();
        let attacker = attack.flow.attacker;
        {
            let chain = self.chain;
            let f = &mut self.creatures[id as usize];
            f.ap -= ap;
            f.reacted_chain = chain;
        }
        self.start_gap(id, ap);
        self.log_about(Event::QuickStepped { creature: id, to }, &[id]);
        let from = self.creatures[id as usize].origin;
        self.creatures[id as usize].noisy_round = Some(self.round);
        // SPACE-E5 (Engine decision): checked against what its side knows; a creature it did
        // not perceive on that square stops the step.
        let blocked =
            validate_path(&self.map, Some(&self.true_occupancy(id)), &self.step_mover(id), &[from, to]).is_err();
        if blocked {
            self.log_about(Event::MoveInterrupted { creature: id, at: from }, &[id]);
            self.refresh_perception_of(id);
            self.sync_perception();
        } else {
            self.creatures[id as usize].origin = to;
            self.creatures[id as usize].betrayed_to.clear();
            self.refresh_perception_of(id);
            self.seat_rider(id);
            self.log_walk(id, &[from, to], 4, false);
            self.sync_perception();
        }
        if let Some(f) = face {
            // FACE-2: re-facing is free after an active move, even outside one's turn.
            self.creatures[id as usize].facing = f;
            self.log_about(Event::Faced { creature: id, facing: f }, &[id]);
            self.refresh_perception_of(id);
            self.sync_perception();
        }
        let to = self.creatures[id as usize].origin;
        // TIME-14: the "before" reaction re-validates the attack.
        let a = &self.creatures[attacker as usize];
        match self.reach(a, a.placement(), id, to, &attack.flow.weapon) {
            Err(why) => {
                // Seconds mode: time spent on a cancelled action is lost (TIME-S2); no AP
                // comes back into a gap or into the slot the action used.
                let refund = if self.seconds_mode() { 0 } else { attack.flow.ap_paid };
                let key = attack.flow.weapon.key.clone();
                let a = &mut self.creatures[attacker as usize];
                a.ap += refund;
                // A readied attack (TIME-E10) was paid outside the turn's count.
                a.spent_this_turn = (a.spent_this_turn - refund).max(0);
                if let Some(w) = a.weapons.iter_mut().find(|w| w.key == key)
                    && let Some(n) = &mut w.ammo
                {
                    *n += 1;
                }
                self.log_about(
                    Event::AttackCancelled { attacker, refunded_ap: refund, reason: why.reason },
                    &[attacker],
                );
                // TIME-E10: the next readied attack the same move set off, if any.
                self.fire_next_ready();
            }
            Ok(modifier) => {
                let mut attack = attack;
                let flow = &attack.flow;
                let t = &self.creatures[id as usize];
                let e = self.engagement_of(a, a.placement(), t, t.placement());
                let strike = self.strike_of(&e, &flow.weapon, flow.extra_dice, modifier);
                attack.flow.targets[0].strike = strike;
                self.resume_attack(attack);
            }
        }
    }

    /// The attack an open window is about, as the answering creature faces it.
    pub fn window_preview(&self) -> Option<WindowPreview> {
        // A Fate window is about a roll, not an attack to answer (`fate_window`).
        let w = self.window().filter(|w| w.kind != WindowKind::Fate)?;
        let flow = &w.attack.flow;
        let run = flow.targets.iter().find(|r| r.id == w.creature)?;
        let t = &self.creatures[w.creature as usize];
        let mut attack = self.preview_of_run(flow, run, flow.ap_paid);
        // TIME-15: one reaction per chain.
        for d in &mut attack.defenses {
            if d.allowed.is_ok() && !run.defense_paid && t.reacted_chain == flow.chain {
                d.allowed = reject("TIME-15", format!("{} has already reacted in this chain", t.name));
            }
        }
        let points = if w.kind == WindowKind::Defense { flow.pending_points } else { None };
        Some(WindowPreview {
            creature: w.creature,
            kind: w.kind,
            attacker: flow.attacker,
            weapon: flow.weapon.key.clone(),
            reach: flow.weapon.weapon.range.max,
            ranged: flow.weapon.weapon.range.ranged,
            attack,
            points,
            damage_if_taken: points.map(|p| (p - run.strike.protection).max(0)),
        })
    }
}
