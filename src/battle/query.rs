//! The rules as this battle applies them, for whoever plays a side: the AI and the client ask
//! here ("what can this creature reach", "what would this attack roll", "what does this side
//! see") and never re-assemble a rule themselves. Every query is pure: nothing is rolled and
//! nothing changes.

use super::check::{Plan, reject};
use super::engage::{Engagement, ReachError, Undefendable};
use super::state::*;
use super::types::*;
use crate::rules::attack::{AttackOdds, DamageDistribution, DamageModifiers, Defense, damage_distribution};
use crate::rules::costs::{DEFEND_AP, MOVE_AP};
use crate::rules::creature::{Attribute, may_pass_through};
use crate::rules::dice::DicePoints;
use crate::rules::flow::flee_difficulty;
use crate::rules::grid::{Footprint, Pos, footprint_distance};
use crate::rules::los::{clear_line, line_of_effect};
use crate::rules::movement::{MoveField, Mover, Occupant, reachable};
use crate::rules::posture::Posture;

/// One defense a target may roll against an attack.
#[derive(Clone, Debug, PartialEq)]
pub struct DefenseOption {
    pub defense: Defense,
    /// Dice it would roll (attribute, posture, shield: ATK-E3, POST-E1).
    pub dice: i32,
    /// AP it costs now (0 when this attack's defense is already paid, ATK-E3).
    pub ap: i32,
    /// Ok, or the rule that forbids this defense here (ATK-11, TIME-12, TIME-15, FACE-4 …).
    pub allowed: Result<(), Rejection>,
}

/// What an attack would roll against one target, before anything is rolled.
#[derive(Clone, Debug, PartialEq)]
pub struct AttackPreview {
    pub attacker: CreatureId,
    pub target: CreatureId,
    pub weapon: String,
    /// Dice after every modifier (attribute, additives, range, posture).
    pub dice: i32,
    pub segments: u32,
    /// Protection after cover, posture and penetration.
    pub protection: i32,
    /// The target has terrain cover (ATK-E5).
    pub cover: bool,
    /// The attacker stands in the target's rear arc (FACE-4).
    pub rear: bool,
    /// FLOW-7: the target is unconscious, so any hit finishes it.
    pub coup_de_grace: bool,
    /// AP of the attack with its additives (above the attacker's maximum: long-term, TIME-11).
    pub ap: i32,
    /// Ok, or why the attack cannot reach the target from there (ATK-4, ATK-E2, PERC-3); the
    /// numbers above then assume it could.
    pub in_reach: Result<(), Rejection>,
    /// Ok, or why the target cannot defend at all (ATK-11, ATK-17, TIME-11, FACE-4).
    pub defendable: Result<(), Rejection>,
    /// Every defense the attack allows, with the target's dice for it.
    pub defenses: Vec<DefenseOption>,
    /// MOVE-11: where the weapon's knock back or tow would take the target if it is hurt.
    pub forced: Option<super::ForcedOutcome>,
    /// Which faces score in this battle (its ruleset's `dice_points`).
    pub points: DicePoints,
}

impl AttackPreview {
    /// The defense the target may roll with the most dice (ties: the attack's listed order).
    pub fn best_defense(&self) -> Option<&DefenseOption> {
        self.defenses.iter().filter(|d| d.allowed.is_ok()).fold(None, |best: Option<&DefenseOption>, d| match best {
            Some(b) if b.dice >= d.dice => Some(b),
            _ => Some(d),
        })
    }
    /// The dice of the best defense the target may roll, 0 when it cannot defend.
    pub fn best_defense_dice(&self) -> i32 {
        self.best_defense().map_or(0, |d| d.dice)
    }
    /// The exact damage distribution (ATK-E4) if the target rolls `defense_dice` per segment.
    pub fn odds(&self, defense_dice: i32) -> DamageDistribution {
        damage_distribution(&AttackOdds {
            dice: self.dice.max(0),
            segments: self.segments,
            protection: self.protection,
            defense_dice: defense_dice.max(0),
            modifiers: DamageModifiers::default(),
            points: self.points,
        })
    }
    /// Expected damage with the target's best defense (or none if it cannot defend).
    pub fn expected_damage(&self) -> f64 {
        self.odds(self.best_defense_dice()).expected_damage
    }
    /// Expected damage a defense prevents compared with taking the attack.
    pub fn expected_reduction(&self, option: &DefenseOption) -> f64 {
        self.odds(0).expected_damage - self.odds(option.dice).expected_damage
    }
}

/// The numbers of one single-target attack over an [`Engagement`] (a plain value, no
/// allocation): what the AI weighs thousands of times a decision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttackNumbers {
    pub dice: i32,
    pub segments: u32,
    pub protection: i32,
    pub cover: bool,
    pub rear: bool,
    pub coup_de_grace: bool,
    pub ap: i32,
    pub in_reach: Result<(), ReachError>,
    pub defendable: Result<(), Undefendable>,
    /// The most dice the target rolls with a defense this attack allows (its posture counted),
    /// 0 if it cannot defend against it at all.
    pub defense_dice: i32,
    /// The target has the AP a defense costs now (TIME-12).
    pub can_pay_defense: bool,
    /// MOVE-11, MOVE-12: the weapon's forced move if the attack hurts (and the fall it causes).
    pub forced: Option<super::ForcedOutcome>,
    /// Which faces score in this battle (its ruleset's `dice_points`).
    pub points: DicePoints,
}

/// A hypothetical attack: the attacker standing at `from`, the target at `target_at`.
#[derive(Clone, Copy, Debug)]
pub struct AttackQuery<'a> {
    pub attacker: CreatureId,
    pub from: Placement,
    pub weapon: &'a str,
    pub additives: &'a [String],
    pub target: CreatureId,
    pub target_at: Placement,
    /// Skip the range, line and perception checks and take the numbers as if in reach (for
    /// threats from afar); `in_reach` is then Ok without being checked.
    pub assume_reach: bool,
}

impl<'a> AttackQuery<'a> {
    pub fn new(
        attacker: CreatureId,
        from: Placement,
        weapon: &'a str,
        target: CreatureId,
        target_at: Placement,
    ) -> Self {
        AttackQuery { attacker, from, weapon, additives: &[], target, target_at, assume_reach: false }
    }
    pub fn with_additives(self, additives: &'a [String]) -> Self {
        AttackQuery { additives, ..self }
    }
    pub fn assuming_reach(self) -> Self {
        AttackQuery { assume_reach: true, ..self }
    }
}

/// A square a Quick Step could reach (TIME-14), and whether the attack would then miss its
/// reach and be cancelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepOption {
    pub to: Pos,
    pub cancels: bool,
}

impl Battle {
    /// MOVE-1, POST-3: the mover for this creature as the battle moves it (its size, speed and
    /// posture as this ruleset counts it).
    pub fn mover(&self, id: CreatureId, sprint: bool) -> Mover {
        let f = &self.creatures[id as usize];
        let depth = self.map.depth_under(f.footprint());
        // FLOW-D3: a blinded creature gropes its way (+1 resistance, D&D's half speed).
        let blind = i32::from(f.has_lost(crate::rules::senses::Sense::Vision));
        // MOVE-13: while it drags a body (set during its move only).
        let drag = f.dragging.and_then(|body| self.drag_resistance(id, body)).unwrap_or(0);
        // MOVE-E7: a lifted body weighs on every move until it is put down.
        let drag = drag + f.carrying.and_then(|body| self.drag_resistance(id, body)).unwrap_or(0);
        // 001's posture table: lying divides the move by 4 (one more resistance than prone).
        let lying = self.ruleset.posture_effects.extra_resistance(self.effective_posture(f.posture));
        let burden = blind + drag + lying;
        Mover { size: f.size, speed: f.speed, sprint, posture: self.effective_posture(f.posture), depth, burden }
    }

    /// SPACE-E5: what the squares of the other creatures its side knows of mean for this
    /// mover. Moves are checked against this: a creature its side does not perceive cannot
    /// refuse a move (that would tell where it is); the move runs into it instead.
    pub fn occupancy_for(&self, mover: CreatureId) -> Vec<Occupant> {
        let side = self.creatures[mover as usize].side;
        self.occupancy_where(mover, |o| self.knows(side, o))
    }

    /// SPACE-E5 with every present creature, known or not: what a move actually meets.
    pub(super) fn true_occupancy(&self, mover: CreatureId) -> Vec<Occupant> {
        self.occupancy_where(mover, |_| true)
    }

    pub(super) fn occupancy_where(&self, mover: CreatureId, counts: impl Fn(CreatureId) -> bool) -> Vec<Occupant> {
        let me = &self.creatures[mover as usize];
        let mut occ = vec![Occupant::Free; (self.map.width() * self.map.height()) as usize];
        // GEN-1: the level's hold order walls the creature in; every move search honours it.
        if let Some(h) = &me.hold {
            for y in 0..self.map.height() {
                for x in 0..self.map.width() {
                    if !h.contains(x, y) {
                        occ[self.map.index(Pos::new(x, y))] = Occupant::Blocked;
                    }
                }
            }
        }
        for o in &self.creatures {
            // MOVE-E8: a mount's own rider is never in its way (a rider makes no move of its own;
            // pushed, it must land off its mount, so the mount does count for it).
            if o.id == mover || !o.is_active() || !counts(o.id) || me.rider == Some(o.id) {
                continue;
            }
            let kind =
                if may_pass_through(me.size, false, o.size, false) { Occupant::PassOnly } else { Occupant::Blocked };
            for c in o.footprint().cells() {
                if self.map.in_bounds(c) {
                    occ[self.map.index(c)] = kind;
                }
            }
        }
        occ
    }

    /// TIME-11, TIME-8: whether the creature is free to make a move at all now.
    pub(super) fn may_move_now(&self, id: CreatureId) -> Result<(), Rejection> {
        // MOVE-14: the same refusal the check of a move gives a rider. Without it, with
        // postures switched off (where riding is no posture that keeps it still), the AI
        // was shown squares its riders could reach, and planned moves the check refused.
        self.check_not_riding(id, "move")?;
        let f = &self.creatures[id as usize];
        if f.long_term.is_some() {
            return reject("TIME-11", format!("{} is busy with a long-term action", f.name));
        }
        if f.ap < MOVE_AP {
            return reject("TIME-8", format!("a move needs {MOVE_AP} AP, {} has {}", f.name, f.ap));
        }
        Ok(())
    }

    /// MOVE-1, MOVE-8: where one move of this creature can end now, with path costs; or the
    /// rule that keeps it from moving (TIME-8 no AP, TIME-11 busy, MOVE-6 cannot move).
    pub fn reachable(&self, id: CreatureId, sprint: bool) -> Result<MoveField, Rejection> {
        self.may_move_now(id)?;
        let f = &self.creatures[id as usize];
        reachable(&self.map, Some(&self.occupancy_for(id)), &self.mover(id, sprint), f.origin)
            .map_err(|e| Rejection::new(e.rule(), e.to_string()))
    }

    /// The cheapest path of one move to `at` (start square first), if a move can end there.
    pub fn path_to(&self, id: CreatureId, at: Pos, sprint: bool) -> Option<Vec<Pos>> {
        let field = self.reachable(id, sprint).ok()?;
        (at != self.creatures[id as usize].origin && field.can_end_at(at)).then(|| field.path_to(at)).flatten()
    }

    /// The dice `creature` would roll for `defense` in `posture` (ATK-E3, POST-E1, shield).
    pub fn defense_dice(&self, creature: CreatureId, posture: Posture, defense: Defense) -> i32 {
        self.defense_dice_of(&self.creatures[creature as usize], posture, defense)
    }

    /// The defenses `t` in `posture` may roll against an attack allowing `allowed`, given
    /// whether it can defend at all and whether it has already paid (ATK-E3).
    pub(super) fn defense_options(
        &self,
        t: &Fighter,
        posture: Posture,
        allowed: &[Defense],
        defendable: &Result<(), Undefendable>,
        paid: bool,
    ) -> Vec<DefenseOption> {
        let ap = if paid { 0 } else { DEFEND_AP };
        allowed
            .iter()
            .map(|&defense| {
                let allowed = match defendable {
                    Err(e) => Err(e.rejection()),
                    Ok(()) if t.ap < ap => {
                        Err(Rejection::new("TIME-12", format!("a defense needs {ap} AP, {} has {}", t.name, t.ap)))
                    }
                    Ok(()) => Ok(()),
                };
                DefenseOption { defense, dice: self.defense_dice_of(t, posture, defense), ap, allowed }
            })
            .collect()
    }

    /// The creatures an area attack command would cover now as the attacker's side knows it
    /// (its own and those it perceives), if the command is legal.
    pub fn area_targets(&self, attacker: CreatureId, command: &Command) -> Option<Vec<CreatureId>> {
        Some(self.attack_preview(attacker, command).ok()?.iter().map(|p| p.target).collect())
    }

    /// What an attack command would roll against each target now, or why it is refused. Only
    /// targets the attacker's side perceives are listed: an area may also strike creatures it
    /// does not know are there, and a preview must not tell.
    pub fn attack_preview(&self, attacker: CreatureId, command: &Command) -> Result<Vec<AttackPreview>, Rejection> {
        let Command::Attack { weapon, target, additives } = command else {
            return reject("ATK-E7", "not an attack");
        };
        let flow = match self.plan(attacker, command)? {
            Plan::Attack(flow, _) => flow,
            // A long-term attack: the numbers are those it will have when it completes.
            Plan::LongTerm { .. } => match self.plan_attack(attacker, weapon, target, additives, true)? {
                Plan::Attack(flow, _) => flow,
                _ => return Ok(Vec::new()),
            },
            _ => return Ok(Vec::new()),
        };
        let me = &self.creatures[attacker as usize];
        let ap = self.additive_cost(me, &flow.weapon, additives).map_or(flow.weapon.weapon.ap, |(ap, _)| ap);
        let side = me.side;
        Ok(flow
            .targets
            .iter()
            .filter(|run| self.side_perceives(side, run.id))
            .map(|run| self.preview_of_run(&flow, run, ap))
            .collect())
    }

    /// What one target of a checked attack faces: the strike as worked out for it, its
    /// defenses, and any forced move (for area previews and the open reaction window).
    pub(super) fn preview_of_run(
        &self,
        flow: &super::attack::AttackFlow,
        run: &super::attack::TargetRun,
        ap: i32,
    ) -> AttackPreview {
        let a = &self.creatures[flow.attacker as usize];
        let t = &self.creatures[run.id as usize];
        let s = &run.strike;
        let defenses =
            self.defense_options(t, t.posture, &flow.weapon.weapon.defenses, &s.defendable, run.defense_paid);
        AttackPreview {
            attacker: flow.attacker,
            target: run.id,
            weapon: flow.weapon.key.clone(),
            dice: s.dice,
            segments: flow.weapon.weapon.segments,
            protection: s.protection,
            cover: s.cover,
            rear: s.rear,
            coup_de_grace: run.coup_de_grace,
            ap,
            in_reach: Ok(()),
            defendable: s.defendable.map_err(Undefendable::rejection),
            defenses,
            forced: self.forced_outcome((a.side, a.footprint()), &flow.weapon, t.id, t.origin),
            points: self.ruleset.dice_points,
        }
    }

    /// What a single-target attack would roll with the attacker at `q.from` and the target at
    /// `q.target_at` (for plans: "if I stood there"). Errors are about the weapon itself (none
    /// carried, out of ammunition, an area weapon, a bad additive); range, line and perception
    /// from there are in [`AttackPreview::in_reach`].
    pub fn preview_attack(&self, q: &AttackQuery) -> Result<AttackPreview, Rejection> {
        let e = if q.assume_reach {
            self.engage_in_reach(q.attacker, q.from, q.target, q.target_at)?
        } else {
            self.engage(q.attacker, q.from, q.target, q.target_at)?
        };
        let n = self.attack_numbers(&e, q.weapon, q.additives, q.assume_reach)?;
        let t = &self.creatures[q.target as usize];
        let w = self.creatures[q.attacker as usize].weapon(q.weapon).expect("checked by attack_numbers");
        Ok(AttackPreview {
            attacker: q.attacker,
            target: q.target,
            weapon: w.key.clone(),
            dice: n.dice,
            segments: n.segments,
            protection: n.protection,
            cover: n.cover,
            rear: n.rear,
            coup_de_grace: n.coup_de_grace,
            ap: n.ap,
            in_reach: n.in_reach.map_err(|why| self.reach_rejection(&e, w, why)),
            defenses: self.defense_options(t, q.target_at.posture, &w.weapon.defenses, &n.defendable, false),
            defendable: n.defendable.map_err(Undefendable::rejection),
            forced: n.forced,
            points: n.points,
        })
    }

    /// The geometry and senses between `attacker` standing at `from` and `target` at `at`
    /// (reach, line, who perceives whom, cover, rear arc): worked out once, then asked for each
    /// weapon with [`Battle::attack_numbers`].
    pub fn engage(
        &self,
        attacker: CreatureId,
        from: Placement,
        target: CreatureId,
        at: Placement,
    ) -> Result<Engagement, Rejection> {
        let (Some(a), Some(t)) = (self.creatures.get(attacker as usize), self.creatures.get(target as usize)) else {
            return reject("CRE-1", format!("there is no creature {target}"));
        };
        Ok(self.engagement_of(a, from, t, at))
    }

    /// As [`Battle::engage`] for numbers "as if in reach" (threats from afar): reach, line and
    /// the attacker's perception are not worked out, only what the numbers need.
    pub fn engage_in_reach(
        &self,
        attacker: CreatureId,
        from: Placement,
        target: CreatureId,
        at: Placement,
    ) -> Result<Engagement, Rejection> {
        let Some(a) = self.creatures.get(attacker as usize) else {
            return reject("CRE-1", format!("there is no creature {attacker}"));
        };
        self.engage_in_reach_by(a, from, target, at)
    }

    /// As [`Battle::engage_in_reach`] for the attacker as given: a foe as its enemies' side
    /// remembers it (`remembered_as`), not as it is out of their sight.
    pub fn engage_in_reach_by(
        &self,
        attacker: &Fighter,
        from: Placement,
        target: CreatureId,
        at: Placement,
    ) -> Result<Engagement, Rejection> {
        let Some(t) = self.creatures.get(target as usize) else {
            return reject("CRE-1", format!("there is no creature {target}"));
        };
        Ok(self.engagement_in_reach(attacker, from, t, at))
    }

    /// The numbers of a single-target attack with `weapon` (and `additives`) over an
    /// engagement, allocation-free for planners that ask thousands of times. Errors are about
    /// the weapon itself; reach from there is `in_reach` (not checked with `assume_reach`, the
    /// numbers then as if in reach).
    pub fn attack_numbers(
        &self,
        e: &Engagement,
        weapon: &str,
        additives: &[String],
        assume_reach: bool,
    ) -> Result<AttackNumbers, Rejection> {
        self.attack_numbers_by(&self.creatures[e.attacker as usize], e, weapon, additives, assume_reach)
    }

    /// As [`Battle::attack_numbers`] for the attacker as given (its dice, weapons and ammo): a
    /// foe as its enemies' side remembers it, for a planner that may not read it as it is.
    pub fn attack_numbers_by(
        &self,
        a: &Fighter,
        e: &Engagement,
        weapon: &str,
        additives: &[String],
        assume_reach: bool,
    ) -> Result<AttackNumbers, Rejection> {
        let t = &self.creatures[e.target as usize];
        let Some(w) = a.weapon(weapon) else {
            return reject("ATK-1", format!("{} carries no '{weapon}'", a.name));
        };
        if w.ammo == Some(0) {
            return reject("ATK-6", format!("{} is out of ammunition", w.weapon.name));
        }
        if w.weapon.area.is_some() {
            return reject("AREA-E1", format!("{} is an area weapon", w.weapon.name));
        }
        // 001's posture table: lying, it cannot attack now (as if in reach, it will have stood).
        if !assume_reach && !self.ruleset.posture_effects.may_act(self.effective_posture(e.from.posture)) {
            return reject("POST-3", format!("{} is lying: under 001's posture table it cannot attack", a.name));
        }
        let (ap, extra) = if additives.is_empty() { (w.weapon.ap, 0) } else { self.additive_cost(a, w, additives)? };
        let in_reach = if assume_reach { Ok(0) } else { self.reach_of(e, w) };
        let s = self.strike_by(a, e, w, extra, *in_reach.as_ref().unwrap_or(&0), e.cover);
        let defense_dice = if s.defendable.is_ok() {
            w.weapon.defenses.iter().map(|&d| self.defense_dice_of(t, e.at.posture, d)).max().unwrap_or(0)
        } else {
            0
        };
        Ok(AttackNumbers {
            dice: s.dice,
            segments: w.weapon.segments,
            protection: s.protection,
            cover: s.cover,
            rear: s.rear,
            coup_de_grace: t.attrs.is_unconscious(),
            ap,
            in_reach: in_reach.map(|_| ()),
            defendable: s.defendable,
            defense_dice,
            can_pay_defense: t.ap >= DEFEND_AP,
            forced: self.forced_outcome(
                (a.side, Footprint::new(e.from.origin, a.size.footprint())),
                w,
                t.id,
                e.at.origin,
            ),
            points: self.ruleset.dice_points,
        })
    }

    /// The squares an area attack would cover, if it is possible (AREA-*).
    pub fn area_squares(&self, attacker: CreatureId, command: &Command) -> Option<Vec<Pos>> {
        let Command::Attack { weapon, target, .. } = command else { return None };
        let w = self.creatures.get(attacker as usize)?.weapon(weapon)?;
        let area = w.weapon.area.as_ref()?;
        self.area_cells(attacker, w, area, target).ok()
    }

    /// TIME-14: the squares the answering creature may Quick Step to now, each with whether the
    /// attack would then be cancelled (out of reach, line or sight).
    pub fn quick_step_options(&self) -> Vec<StepOption> {
        let Some(w) = self.window().filter(|w| w.kind == WindowKind::BeforeAttack) else { return Vec::new() };
        let me = &self.creatures[w.creature as usize];
        let a = &self.creatures[w.attacker as usize];
        let mut out = Vec::new();
        for dy in -1..=1 {
            for dx in -1..=1 {
                let to = me.origin.offset(dx, dy);
                if (dx, dy) == (0, 0) || self.plan_quick_step(w.creature, to, None).is_err() {
                    continue;
                }
                let cancels = self.reach(a, a.placement(), w.creature, to, &w.attack.flow.weapon).is_err();
                out.push(StepOption { to, cancels });
            }
        }
        out
    }

    /// TIME-13: the counter-attacks the answering creature may make now, each with what it
    /// would roll against the attacker.
    pub fn counter_options(&self) -> Vec<AttackPreview> {
        let Some(w) = self.window().filter(|w| w.kind == WindowKind::BeforeAttack) else { return Vec::new() };
        let me = &self.creatures[w.creature as usize];
        me.weapons
            .iter()
            .filter(|arm| self.plan_counter(w, &arm.key).is_ok())
            .filter_map(|arm| {
                let a = &self.creatures[w.attacker as usize];
                self.preview_attack(&AttackQuery::new(w.creature, me.placement(), &arm.key, w.attacker, a.placement()))
                    .ok()
            })
            .collect()
    }

    /// Hostile creatures `side` perceives now, present and not yet gone.
    pub fn perceived_hostiles(&self, side: usize) -> Vec<CreatureId> {
        let seen = self.perceived_by(side);
        self.creatures
            .iter()
            .filter(|o| o.is_active() && self.hostile_sides(side, o.side) && seen[o.id as usize])
            .map(|o| o.id)
            .collect()
    }

    /// Could `shooter` standing at `from` strike `target` standing at `at` from afar, as far as
    /// the map goes: a line of effect (ATK-E2) and a clear line of sight (PERC-E1) between
    /// their footprints. Range, light, facing and hiding are not looked at: planners weigh
    /// them apart, and ask this for thousands of squares.
    pub fn line_of_fire(&self, shooter: CreatureId, from: Pos, target: CreatureId, at: Pos) -> bool {
        let (Some(a), Some(t)) = (self.creatures.get(shooter as usize), self.creatures.get(target as usize)) else {
            return false;
        };
        let (af, tf) = (Footprint::new(from, a.size.footprint()), Footprint::new(at, t.size.footprint()));
        af.cells().any(|x| tf.cells().any(|y| line_of_effect(&self.map, x, y)))
            && af.cells().any(|x| tf.cells().any(|y| clear_line(&self.map, x, y)))
    }

    /// FLOW-5: the Activeness dice `id` rolls to flee (less its posture's penalty) and the
    /// difficulty: the highest Activeness among the conscious hostiles for which `counts` holds.
    pub(super) fn flee_roll(&self, id: CreatureId, counts: impl Fn(&Fighter) -> bool) -> (i32, i64) {
        let me = &self.creatures[id as usize];
        let difficulty = flee_difficulty(
            self.creatures
                .iter()
                .filter(|o| o.can_act() && self.hostile(id, o.id) && counts(o))
                .map(|o| o.attrs.dice(Attribute::Activeness)),
        );
        (me.attrs.dice(Attribute::Activeness) - self.roll_penalty(me.posture), difficulty)
    }

    /// FLOW-5, DICE-6: the chance `id` gets away if it tries to flee now, as its side knows the
    /// battle (hostiles it does not perceive do not raise the difficulty here; they do in the
    /// roll). Whether it may try at all is `check`'s answer.
    pub fn flee_chance(&self, id: CreatureId) -> f64 {
        let Some(me) = self.creatures.get(id as usize) else { return 0.0 };
        let (dice, difficulty) = self.flee_roll(id, |o| self.side_perceives(me.side, o.id));
        self.ruleset.attempts.chance(self.ruleset.dice_points, dice, difficulty)
    }

    /// Steps between two creatures' footprints (SPACE-6).
    pub fn distance_between(&self, a: CreatureId, b: CreatureId) -> i32 {
        footprint_distance(self.creatures[a as usize].footprint(), self.creatures[b as usize].footprint())
    }

    /// Steps from a creature standing at `at` to another creature.
    pub fn distance_from(&self, id: CreatureId, at: Pos, other: CreatureId) -> i32 {
        let me = &self.creatures[id as usize];
        footprint_distance(Footprint::new(at, me.size.footprint()), self.creatures[other as usize].footprint())
    }
}
