//! The attack pipeline (ATK-E7): the numbers of an attack as this battle applies them, the
//! check of an attack command, and its resolution segment by segment up to the batch of damage.
//! Reaction windows (Quick Step, counter-attack, defense) are in `reactions.rs`.

use super::check::{Plan, reject};
use super::engage::Strike;
use super::state::*;
use super::types::*;
use crate::level::compendium::{AbilityEffect, AreaSpec};
use crate::rules::attack::{DamageModifiers, Defense, resolve_segment};
use crate::rules::costs::DEFEND_AP;
use crate::rules::creature::{Allocation, Attribute, allocate_damage};
use crate::rules::dice::roll_faces;
use crate::rules::los::has_cover;
use crate::rules::posture::Posture;

/// One target of an attack in progress.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct TargetRun {
    pub id: CreatureId,
    pub strike: Strike,
    pub defense_paid: bool,
    pub damage: i32,
    pub hit: bool,
    pub told_undefendable: bool,
    /// FLOW-7: the target was unconscious when the attack was declared.
    pub coup_de_grace: bool,
}

/// An attack between declaration and its last segment.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct AttackFlow {
    pub attacker: CreatureId,
    pub weapon: Armed,
    pub target: Target,
    pub extra_dice: i32,
    pub targets: Vec<TargetRun>,
    pub idx: usize,
    pub segment: u32,
    pub before_done: bool,
    /// The attack points of the segment a defense window is open for.
    pub pending_points: Option<i32>,
    /// DICE-13: the segment's attack points once the attacker kept or changed its roll.
    pub rolled: Option<i32>,
    /// DICE-13: the roll a Fate window is open for.
    pub fate: Option<super::fate::FateRoll>,
    /// The weapon's attribute dice when the attack was declared: a later segment rolls fewer
    /// if the attacker's Expense of Fate has since removed some (DICE-12: current dice).
    pub base_dice: i32,
    /// AP spent on it this round: what TIME-14 refunds if it is cancelled.
    pub ap_paid: i32,
    pub chain: u32,
    /// Whose turn it is (the declaring attacker of the chain).
    pub owner: CreatureId,
    /// TIME-13: a simultaneous counter-attack, resolved after this flow's segments.
    pub counter: Option<Box<AttackFlow>>,
}

/// An attack being resolved, with the simultaneous attacks already rolled whose damage waits
/// for the batch (TIME-E6).
#[derive(Clone, Debug, PartialEq)]
pub struct PendingAttack {
    pub(super) flow: AttackFlow,
    pub(super) resolved: Vec<AttackFlow>,
}

impl PendingAttack {
    /// The attacking creature.
    pub fn attacker(&self) -> CreatureId {
        self.flow.attacker
    }
}

impl Battle {
    /// Sit cannot move on its own; postures off means everyone counts as Standing.
    pub(super) fn effective_posture(&self, p: Posture) -> Posture {
        if self.ruleset.postures { p } else { Posture::Standing }
    }

    /// POST-E1: the dice a posture takes off every roll made for an action other than an
    /// attack (none with postures off, none under 001's posture table).
    pub(super) fn roll_penalty(&self, p: Posture) -> i32 {
        self.ruleset.posture_effects.roll_penalty(self.effective_posture(p))
    }

    /// POST-E1 or 001's table: the dice an attack from posture `from` on a target in `at`
    /// loses.
    pub(super) fn attack_penalty(&self, from: Posture, at: Posture, ranged: bool) -> i32 {
        let (from, at) = (self.effective_posture(from), self.effective_posture(at));
        self.ruleset.posture_effects.attack_penalty(from, at, ranged)
    }

    /// 001's posture table: lying, a creature takes no tactical action but moving and
    /// changing posture.
    pub fn may_act_in_posture(&self, f: &Fighter) -> bool {
        self.ruleset.posture_effects.may_act(self.effective_posture(f.posture))
    }

    /// ATK-11, ATK-E3, POST-E1: the dice `t` rolls for `defense` in `posture` (a shield adds to
    /// Block).
    pub(super) fn defense_dice_of(&self, t: &Fighter, posture: Posture, defense: Defense) -> i32 {
        let bonus = if defense == Defense::Block { t.block_bonus() } else { 0 };
        crate::rules::attack::defense_dice(&t.attrs, defense, self.roll_penalty(posture)) + bonus
    }

    /// The AP and extra dice of a weapon with these additives (TIME-16), or the rule refusing them.
    pub(super) fn additive_cost(&self, me: &Fighter, w: &Armed, additives: &[String]) -> Result<(i32, i32), Rejection> {
        let mut cost = w.weapon.ap;
        let mut extra = 0;
        for key in additives {
            let Some((_, ab)) = me.abilities.iter().find(|(k, _)| k == key) else {
                return reject("TIME-16", format!("{} has no ability '{key}'", me.name));
            };
            match ab.effect {
                AbilityEffect::Additive { ap, dice, melee_only } => {
                    if melee_only && (w.weapon.range.ranged || w.weapon.area.is_some()) {
                        return reject("TIME-16", format!("{} only goes with a melee attack", ab.name));
                    }
                    cost += ap;
                    extra += dice;
                }
                _ => return reject("TIME-16", format!("{} is not an additive action", ab.name)),
            }
        }
        Ok((cost, extra))
    }

    /// Check an attack and build it. `prepaid`: a long-term action completing, already paid.
    pub(super) fn plan_attack(
        &self,
        id: CreatureId,
        weapon: &str,
        target: &Target,
        additives: &[String],
        prepaid: bool,
    ) -> Result<Plan, Rejection> {
        let me = &self.creatures[id as usize];
        let Some(w) = me.weapon(weapon) else {
            return reject("ATK-1", format!("{} carries no '{weapon}'", me.name));
        };
        if w.ammo == Some(0) {
            return reject("ATK-6", format!("{} is out of ammunition", w.weapon.name));
        }
        let (cost, extra) = self.additive_cost(me, w, additives)?;
        let here = me.placement();
        let mut targets = Vec::new();
        match (&w.weapon.area, target) {
            (None, Target::Creature(t)) => {
                let t_origin = self.creatures.get(*t as usize).map_or(me.origin, |f| f.origin);
                let modifier = self.reach(me, here, *t, t_origin, w)?;
                targets.push((*t, modifier));
            }
            // ATK-16: a single-target weapon aimed at a square strikes the object there.
            (None, Target::Square(p)) => {
                return self.plan_object_attack(id, w, *p, (cost, extra, additives), prepaid);
            }
            (None, _) => return reject("ATK-4", format!("{} needs a creature as its target", w.weapon.name)),
            (Some(area), _) => {
                let covered = self.area_cells(id, w, area, target)?;
                for o in &self.creatures {
                    if o.is_active() && o.footprint().cells().any(|c| covered.contains(&c)) {
                        // AREA-E7: cones and rays exclude the caster's own square.
                        if o.id == id && !matches!(area, AreaSpec::Circle { .. } | AreaSpec::Ring { .. }) {
                            continue;
                        }
                        targets.push((o.id, 0));
                    }
                }
            }
        }
        if !prepaid && cost > me.ap {
            if me.ap < 1 {
                return reject("TIME-8", format!("needs {cost} AP, {} has none", me.name));
            }
            return Ok(Plan::LongTerm {
                weapon: weapon.to_string(),
                target: target.clone(),
                additives: additives.to_vec(),
                cost,
            });
        }
        // A circle or ring strikes from its centre: cover is from there (ATK-E5, AREA-E6).
        let centre = match (target, &w.weapon.area) {
            (Target::Square(p), Some(_)) => Some(*p),
            _ => None,
        };
        let runs = targets
            .into_iter()
            .map(|(t, modifier)| {
                let tf = &self.creatures[t as usize];
                let e = self.engagement_of(me, here, tf, tf.placement());
                let strike = match centre {
                    Some(c) => {
                        let cover = tf.footprint().cells().any(|x| has_cover(&self.map, c, x));
                        self.strike_by(me, &e, w, extra, modifier, cover)
                    }
                    None => self.strike_of(&e, w, extra, modifier),
                };
                TargetRun {
                    id: t,
                    strike,
                    defense_paid: false,
                    damage: 0,
                    hit: false,
                    told_undefendable: false,
                    coup_de_grace: tf.attrs.is_unconscious(),
                }
            })
            .collect();
        let flow = AttackFlow {
            attacker: id,
            weapon: w.clone(),
            target: target.clone(),
            extra_dice: extra,
            targets: runs,
            idx: 0,
            segment: 0,
            before_done: false,
            pending_points: None,
            rolled: None,
            fate: None,
            base_dice: w.weapon.dice.dice_for(&me.attrs),
            ap_paid: if prepaid { 0 } else { cost },
            chain: self.chain + 1,
            owner: id,
            counter: None,
        };
        Ok(Plan::Attack(Box::new(flow), if prepaid { 0 } else { cost }))
    }

    pub(super) fn start_attack(&mut self, flow: AttackFlow) {
        let id = flow.attacker;
        self.chain = flow.chain;
        let targets: Vec<CreatureId> = flow.targets.iter().map(|t| t.id).collect();
        let dice = flow.targets.first().map_or_else(
            || {
                let a = &self.creatures[id as usize];
                let ranged = flow.weapon.weapon.range.ranged;
                flow.weapon.weapon.dice.dice_for(&a.attrs) + flow.extra_dice
                    - self.attack_penalty(a.posture, Posture::Standing, ranged)
            },
            |t| t.strike.dice,
        );
        // Attacking ends Hidden (PERC-E4); those who then see the attacker see it attack, the
        // others only that their creatures are attacked (PERC-3, ATK-11).
        self.creatures[id as usize].noisy_round = Some(self.round);
        if self.creatures[id as usize].hidden.is_some() {
            self.reveal(id, "it attacked".into());
        }
        let weapon = flow.weapon.key.clone();
        let whole = Event::AttackDeclared { attacker: id, weapon: weapon.clone(), targets: targets.clone(), dice };
        self.log_views(whole, |b, s| {
            let known: Vec<CreatureId> = targets.iter().copied().filter(|&t| b.knows(s, t)).collect();
            if b.knows(s, id) {
                Some(Event::AttackDeclared { attacker: id, weapon: weapon.clone(), targets: known, dice })
            } else {
                (!known.is_empty()).then_some(Event::AttackedByUnseen { targets: known })
            }
        });
        {
            let f = &mut self.creatures[id as usize];
            if let Some(w) = f.weapons.iter_mut().find(|w| w.key == flow.weapon.key)
                && let Some(a) = &mut w.ammo
            {
                *a -= 1;
                let left = *a;
                self.log_about(Event::AmmoSpent { creature: id, weapon: flow.weapon.key.clone(), left }, &[id]);
            }
        }
        self.resume_attack(PendingAttack { flow, resolved: Vec::new() });
    }

    /// Run the attack until it needs an answer (the window then holds it) or is done.
    pub(super) fn resume_attack(&mut self, mut pending: PendingAttack) {
        loop {
            let flow = &mut pending.flow;
            let attacker = flow.attacker;
            if !flow.before_done {
                flow.before_done = true;
                // TIME-E6: the affected creature may react before the attack (Quick Step).
                if let (Target::Creature(t), None) = (&flow.target, &flow.weapon.weapon.area) {
                    let t = *t;
                    let chain = flow.chain;
                    let melee = !flow.weapon.weapon.range.ranged;
                    if self.can_quick_step(t, attacker, chain) || (melee && self.can_counter(t, attacker, chain)) {
                        return self.open_window(t, WindowKind::BeforeAttack, pending);
                    }
                }
                continue;
            }
            if flow.idx >= flow.targets.len() {
                // TIME-13 / TIME-E6: a simultaneous counter resolves next; damage waits for both.
                let next = flow.counter.take();
                match next {
                    Some(counter) => {
                        let done = std::mem::replace(&mut pending.flow, *counter);
                        pending.resolved.push(done);
                        continue;
                    }
                    None => {
                        pending.resolved.push(pending.flow);
                        return self.finish_attack(pending.resolved);
                    }
                }
            }
            if flow.segment >= flow.weapon.weapon.segments.max(1) {
                flow.idx += 1;
                flow.segment = 0;
                continue;
            }
            let run = flow.targets[flow.idx].clone();
            let segment = flow.segment;
            let chain = flow.chain;
            let pts = match flow.rolled.take() {
                Some(pts) => pts,
                None => {
                    // DICE-13: an attacker its own Expense of Fate knocked out rolls no more.
                    if !self.creatures[attacker as usize].can_act() {
                        flow.idx = flow.targets.len();
                        continue;
                    }
                    let dice = self.segment_dice(flow, &run);
                    let faces = roll_faces(&mut self.rng, dice);
                    let pts = self.ruleset.dice_points.points(&faces) as i32;
                    let fate = self.fate_for_attack(flow, &faces);
                    // Seen by those who see the attacker; the target is named by the segment's
                    // result, which goes to those who see the target.
                    self.log_about(
                        Event::Rolled {
                            creature: attacker,
                            purpose: format!("attack, segment {}", segment + 1),
                            faces,
                            points: pts,
                        },
                        &[attacker],
                    );
                    if let Some(roll) = fate {
                        pending.flow.fate = Some(roll);
                        return self.open_window(attacker, WindowKind::Fate, pending);
                    }
                    pts
                }
            };
            let harmful = pts > 0 && pts - run.strike.protection > 0;
            let can_pay = self.can_pay_defense(&run, chain);
            if harmful && self.may_defend(&run, chain) {
                pending.flow.pending_points = Some(pts);
                return self.open_window(run.id, WindowKind::Defense, pending);
            }
            if harmful && !run.told_undefendable {
                let reason = match &run.strike.defendable {
                    Err(e) => Some(e.rejection().to_string()),
                    Ok(()) if !can_pay && self.creatures[run.id as usize].clock.is_some() => {
                        Some("no instant while acting, keeping or in a gap (TIME-S5)".into())
                    }
                    Ok(()) if !can_pay => Some("no AP or reaction left to defend (TIME-12, TIME-15)".into()),
                    Ok(()) => None,
                };
                if let Some(reason) = reason {
                    let i = pending.flow.idx;
                    pending.flow.targets[i].told_undefendable = true;
                    self.log_about(Event::Undefendable { target: run.id, reason }, &[run.id]);
                }
            }
            self.settle_segment(&mut pending.flow, pts, None, None);
        }
    }

    /// The dice of `run`'s next segment: as declared, less the attribute dice the attacker's
    /// own Expense of Fate has taken since (DICE-13, DICE-12), never below the variant's floor.
    fn segment_dice(&self, flow: &AttackFlow, run: &TargetRun) -> i32 {
        let now = flow.weapon.weapon.dice.dice_for(&self.creatures[flow.attacker as usize].attrs);
        let shrink = (flow.base_dice - now).max(0);
        if shrink == 0 {
            return run.strike.dice;
        }
        let floor = match self.ruleset.attack_resolution {
            crate::rules::ruleset::AttackResolution::Test001 if run.strike.dice > 0 => 1,
            _ => 0,
        };
        (run.strike.dice - shrink).max(floor)
    }

    /// TIME-12, TIME-15: whether the target of `run` could still pay for a defense in `chain`.
    fn can_pay_defense(&self, run: &TargetRun, chain: u32) -> bool {
        let target = &self.creatures[run.id as usize];
        run.defense_paid || (target.ap >= DEFEND_AP && target.reacted_chain != chain)
    }

    /// ATK-11: whether the target of `run` may defend a harmful segment of this attack.
    pub(super) fn may_defend(&self, run: &TargetRun, chain: u32) -> bool {
        run.strike.defendable.is_ok() && self.creatures[run.id as usize].can_act() && self.can_pay_defense(run, chain)
    }

    /// Record one resolved segment and move on.
    pub(super) fn settle_segment(
        &mut self,
        flow: &mut AttackFlow,
        pts: i32,
        defense: Option<Defense>,
        defense_points: Option<i32>,
    ) {
        let run = &mut flow.targets[flow.idx];
        let out = resolve_segment(pts, run.strike.protection, defense_points, &DamageModifiers::default(), 0);
        run.damage += out.damage;
        run.hit |= out.hit;
        let (attacker, target, segment, protection) = (flow.attacker, run.id, flow.segment, run.strike.protection);
        flow.segment += 1;
        flow.pending_points = None;
        let defense = if out.defense_points.is_some() { defense } else { None };
        let resolved = |attacker: Option<CreatureId>| Event::SegmentResolved {
            attacker,
            target,
            segment: segment + 1,
            attack_points: pts,
            protection,
            defense,
            defense_points: out.defense_points,
            solid_defense: out.solid_defense,
            hit: out.hit,
            damage: out.damage,
        };
        self.log_views(resolved(Some(attacker)), |b, s| {
            b.knows(s, target).then(|| resolved(b.knows(s, attacker).then_some(attacker)))
        });
    }

    /// ATK-E7 steps 5-6: apply all damage of the attack and its simultaneous reactions as one
    /// batch, then unconsciousness and death.
    fn finish_attack(&mut self, flows: Vec<AttackFlow>) {
        let Some(owner) = flows.first().map(|f| f.owner) else { return };
        let mut struck = Vec::new();
        let mut coups = Vec::new();
        for flow in &flows {
            let attacker = flow.attacker;
            for run in &flow.targets {
                if run.hit && self.hostile(attacker, run.id) {
                    // FLOW-E2: the streak is reset the moment a hostile attack hits, so a
                    // creature struck earlier in a round cannot flee on that round's turn.
                    let t = &mut self.creatures[run.id as usize];
                    t.hit_this_round = true;
                    t.hit_free_streak = 0;
                }
                // FLOW-7 (Engine decision: attacking a creature that is already unconscious is
                // the declaration): any hit kills it.
                if run.hit && self.ruleset.coup_de_grace && run.coup_de_grace {
                    coups.push(run.id);
                    continue;
                }
                if run.damage <= 0 {
                    continue;
                }
                self.deal_damage(run.id, &flow.weapon.weapon.targets, run.damage);
                struck.push(run.id);
            }
        }
        // MOVE-11 (Engine decision): a weapon's forced move comes with its blow, once the
        // batch's damage has landed and before the struck fall down (an unconscious body
        // lying is too heavy to push far: MOVE-7's posture resistance); the dead stay put.
        for flow in &flows {
            if let Some(forced) = flow.weapon.weapon.forced {
                for run in flow.targets.iter().filter(|r| r.damage > 0) {
                    if !self.creatures[run.id as usize].attrs.is_dead() {
                        self.apply_forced_move(flow.attacker, run.id, forced);
                    }
                }
            }
        }
        // FLOW-D3: a weapon that takes a sense takes it from each creature it hurts.
        for flow in &flows {
            if let Some(loss) = flow.weapon.weapon.takes_sense {
                for run in flow.targets.iter().filter(|r| r.damage > 0) {
                    if !self.creatures[run.id as usize].attrs.is_dead() {
                        self.take_sense(run.id, loss);
                    }
                }
            }
        }
        // PERC-E6: those an invisible attacker struck at know where it stands.
        for flow in &flows {
            let targets: Vec<CreatureId> = flow.targets.iter().map(|r| r.id).collect();
            self.betray_invisible_attacker(flow.attacker, &targets);
        }
        self.check_unconscious(&struck);
        for id in coups {
            if self.creatures[id as usize].is_active() {
                self.die(id);
            }
        }
        self.phase = Phase::Turn(owner);
        self.check_victory(false);
        // An attack completed at the start of a turn (long-term) leaves the turn to continue;
        // if the owner fell, its turn ends.
        if matches!(self.phase, Phase::Turn(_)) && !self.creatures[owner as usize].can_act() {
            self.end_turn();
        }
        // TIME-E10: the next readied attack the move set off, if any.
        self.fire_next_ready();
    }

    /// CRE-5: `damage` dice split among the attributes an attack may hurt, in the creature's
    /// allocation order if it set one, else keeping it conscious as long as possible; each
    /// pool's loss is told. (Unconsciousness is checked by the caller.)
    pub(super) fn deal_damage(&mut self, id: CreatureId, targets: &[Attribute], damage: i32) {
        let (order, how) = damage_order(&self.creatures[id as usize], targets);
        let f = &mut self.creatures[id as usize];
        for (a, dice) in allocate_damage(&mut f.attrs, &order, damage, how) {
            let left = self.creatures[id as usize].attrs.dice(a);
            self.log_about(Event::Damaged { creature: id, attribute: a, dice, left }, &[id]);
        }
    }

    /// CRE-7, FLOW-7: a creature dies: told to those who see it, then it is gone.
    fn die(&mut self, id: CreatureId) {
        self.log_about(Event::Died { creature: id }, &[id]);
        self.creatures[id as usize].presence = Presence::Dead;
        self.creatures[id as usize].long_term = None;
        self.refresh_perception_of(id);
        self.sync_perception();
    }

    /// CRE-6, CRE-7, FLOW-8, POST-5: fall unconscious (and Lying) or die.
    pub(super) fn check_unconscious(&mut self, ids: &[CreatureId]) {
        for &id in ids {
            let f = &self.creatures[id as usize];
            if !f.is_active() {
                continue;
            }
            // Seconds mode: down, a creature's action, keep or gap ends, even if it was lying
            // already (TIME-S2).
            if f.attrs.is_unconscious() || f.attrs.is_dead() {
                self.interrupt_clock(id, "fell unconscious");
            }
            let f = &self.creatures[id as usize];
            if f.attrs.is_dead() {
                self.die(id);
                self.drop_carried(id);
                self.leave_mount(id);
            } else if f.attrs.is_unconscious() && f.posture != Posture::Lying {
                self.log_about(Event::Unconscious { creature: id }, &[id]);
                let f = &mut self.creatures[id as usize];
                f.posture = Posture::Lying;
                // TIME-E10: a readied attack does not survive being knocked out.
                f.readied = None;
                if f.long_term.take().is_some() {
                    self.log_about(
                        Event::LongTermAborted { creature: id, reason: "fell unconscious (TIME-E5)".into() },
                        &[id],
                    );
                }
                self.log_about(Event::PostureChanged { creature: id, posture: Posture::Lying, forced: true }, &[id]);
                self.refresh_perception_of(id);
                self.sync_perception();
                self.drop_carried(id);
                self.break_mount(id);
            }
        }
    }
}

/// CRE-5: the order in which `f`'s pools take damage to `targets`: its own chosen order, else
/// whatever keeps it conscious longest.
pub(super) fn damage_order(f: &Fighter, targets: &[Attribute]) -> (Vec<Attribute>, Allocation) {
    if f.allocation.is_empty() {
        (targets.to_vec(), Allocation::StayConscious)
    } else {
        (f.allocation.iter().copied().filter(|a| targets.contains(a)).collect(), Allocation::InOrder)
    }
}
