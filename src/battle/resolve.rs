//! Commands: check (reject with the rule broken, state untouched), then execute (emit events).
//! Turn and round flow, and the attack pipeline (ATK-E7) as a flow that pauses at reaction
//! windows and resumes on the answer.

use super::state::*;
use super::types::*;
use crate::level::Victory;
use crate::level::compendium::{AbilityEffect, AreaSpec};
use crate::rules::area::{self, Shape};
use crate::rules::attack::{DamageModifiers, Defense, effective_protection, range_dice_modifier, resolve_segment};
use crate::rules::costs::{DEFEND_AP, FLEE_AP, HIDE_AP, MOVE_AP, SEARCH_AP};
use crate::rules::creature::{Allocation, Attribute, allocate_damage, may_pass_through};
use crate::rules::dice::{attempt_succeeds, points, roll_faces};
use crate::rules::facing::{Actor, Sector, sector_for};
use crate::rules::flow::{FLEE_STREAK, flee_difficulty};
use crate::rules::grid::{Footprint, Pos, distance, footprint_distance};
use crate::rules::los::{Disguise, clear_line, line_of_effect, search_difficulty, sight_line};
use crate::rules::movement::{Mover, Occupant, validate_path};
use crate::rules::posture::{Posture, cover_bonus, transition_cost};

/// One target of an attack in progress.
#[derive(Clone, Debug)]
pub(super) struct TargetRun {
    pub id: CreatureId,
    pub dice: i32,
    pub protection: i32,
    /// Ok, or why this target cannot defend (ATK-11).
    pub defendable: Result<(), String>,
    pub defense_paid: bool,
    pub damage: i32,
    pub hit: bool,
    pub told_undefendable: bool,
    /// FLOW-7: the target was unconscious when the attack was declared.
    pub coup_de_grace: bool,
}

/// What an attack would roll against one target, before anything is rolled.
#[derive(Clone, Debug, PartialEq)]
pub struct AttackPreview {
    pub target: CreatureId,
    pub dice: i32,
    pub segments: u32,
    pub protection: i32,
    /// Ok, or why the target could not defend (ATK-11).
    pub defendable: Result<(), String>,
    pub defenses: Vec<Defense>,
}

/// An attack between declaration and its last segment.
#[derive(Clone, Debug)]
pub struct AttackFlow {
    pub(super) attacker: CreatureId,
    pub(super) weapon: Armed,
    pub(super) target: Target,
    pub(super) extra_dice: i32,
    pub(super) targets: Vec<TargetRun>,
    pub(super) idx: usize,
    pub(super) segment: u32,
    pub(super) before_done: bool,
    pub(super) pending_points: Option<i32>,
    pub(super) ap_paid: i32,
    pub(super) chain: u32,
    /// Whose turn it is (the declaring attacker of the chain).
    pub(super) owner: CreatureId,
    /// TIME-13: a simultaneous counter-attack, resolved after this flow's segments.
    pub(super) counter: Option<Box<AttackFlow>>,
}

/// A checked command, ready to execute.
enum Plan {
    Move { path: Vec<Pos>, cost: u32, sprint: bool, face: Option<crate::rules::facing::Facing> },
    Face(crate::rules::facing::Facing),
    Posture(Posture, i32),
    Attack(Box<AttackFlow>, i32),
    LongTerm { weapon: String, target: Target, additives: Vec<String>, cost: i32 },
    Defend(Option<Defense>),
    QuickStep { to: Pos, face: Option<crate::rules::facing::Facing>, ap: i32 },
    Counter(Box<AttackFlow>, i32),
    PassBefore,
    Search(Pos),
    Hide(i64),
    Flee,
    Abort,
    Allocation(Vec<Attribute>),
    Delay(CreatureId),
    EndTurn,
}

fn reject<T>(rule: &'static str, reason: impl Into<String>) -> Result<T, Rejection> {
    Err(Rejection::new(rule, reason))
}

impl Battle {
    /// The defenses the attack in progress allows (for whoever answers its window).
    pub fn flow_defenses(&self) -> Option<Vec<Defense>> {
        self.flow.as_ref().map(|f| f.weapon.weapon.defenses.clone())
    }

    /// Who is making the attack in progress.
    pub fn flow_attacker(&self) -> Option<CreatureId> {
        self.flow.as_ref().map(|f| f.attacker)
    }

    /// The reach of the weapon of the attack in progress.
    pub fn flow_reach(&self) -> Option<i32> {
        self.flow.as_ref().map(|f| f.weapon.weapon.range.max)
    }

    /// The attack in progress against its (first) target: dice, segments, protection, and the
    /// defenses it allows.
    pub fn flow_target_odds(&self) -> Option<(i32, u32, i32, Vec<Defense>)> {
        let f = self.flow.as_ref()?;
        let t = f.targets.first()?;
        Some((t.dice, f.weapon.weapon.segments, t.protection, f.weapon.weapon.defenses.clone()))
    }

    /// The creatures an area attack command would cover now, if it is legal.
    pub fn area_targets(&self, attacker: CreatureId, command: &Command) -> Option<Vec<CreatureId>> {
        let Command::Attack { weapon, target, additives } = command else { return None };
        match self.plan_attack(attacker, weapon, target, additives, false).ok()? {
            Plan::Attack(flow, _) => Some(flow.targets.iter().map(|t| t.id).collect()),
            _ => None,
        }
    }

    /// What an attack command would roll against each target now (for previews), or why it is
    /// refused. A preview never rolls: the battle is untouched.
    pub fn attack_preview(&self, attacker: CreatureId, command: &Command) -> Result<Vec<AttackPreview>, Rejection> {
        let Command::Attack { weapon, target, additives } = command else {
            return reject("ATK-E7", "not an attack");
        };
        self.check(attacker, command)?;
        match self.plan_attack(attacker, weapon, target, additives, false)? {
            Plan::Attack(flow, _) => Ok(flow
                .targets
                .iter()
                .map(|t| AttackPreview {
                    target: t.id,
                    dice: t.dice,
                    segments: flow.weapon.weapon.segments,
                    protection: t.protection,
                    defendable: t.defendable.clone(),
                    defenses: flow.weapon.weapon.defenses.clone(),
                })
                .collect()),
            _ => Ok(Vec::new()),
        }
    }

    /// The squares an area attack would cover, if it is possible (for previews).
    pub fn area_squares(&self, attacker: CreatureId, command: &Command) -> Option<Vec<Pos>> {
        let Command::Attack { weapon, target, .. } = command else { return None };
        let w = self.creatures.get(attacker as usize)?.weapon(weapon)?;
        let area = w.weapon.area.as_ref()?;
        self.area_cells(attacker, w, area, target).ok()
    }

    /// The attack roll of the segment a defense window is open for, after protection.
    pub fn pending_segment(&self) -> Option<(i32, i32)> {
        let f = self.flow.as_ref()?;
        let pts = f.pending_points?;
        Some((pts, pts - f.targets.get(f.idx)?.protection))
    }

    /// The dice `attacker` would roll with `weapon` against creature `target` now, or None if
    /// the attack is not possible.
    pub fn attack_dice(&self, attacker: CreatureId, weapon: &str, target: CreatureId) -> Option<i32> {
        let f = &self.creatures[attacker as usize];
        let w = f.weapon(weapon)?;
        let modifier = self.reach_target(attacker, target, w).ok()?;
        Some(self.base_attack_dice(f, w, 0) + modifier)
    }

    /// Check, then execute. A rejected command changes nothing but the log.
    pub fn submit(&mut self, creature: CreatureId, command: Command) -> Result<(), Rejection> {
        let plan = if (creature as usize) < self.n() {
            self.plan(creature, &command)
        } else {
            reject("CRE-1", format!("there is no creature {creature}"))
        };
        match plan {
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

    /// Would this command be accepted now? Pure: nothing changes.
    pub fn check(&self, creature: CreatureId, command: &Command) -> Result<(), Rejection> {
        if creature as usize >= self.n() {
            return reject("CRE-1", format!("there is no creature {creature}"));
        }
        self.plan(creature, command).map(|_| ())
    }

    fn plan(&self, id: CreatureId, command: &Command) -> Result<Plan, Rejection> {
        let me = &self.creatures[id as usize];
        // Absurd coordinates are refused before any arithmetic can overflow on them.
        let far = |p: &Pos| p.x.abs() > 100_000 || p.y.abs() > 100_000;
        let wild = match command {
            Command::Move { path, .. } => path.iter().any(far),
            Command::QuickStep { to, .. } => far(to),
            Command::Search { at } => far(at),
            Command::Attack { target: Target::Square(p), .. } => far(p),
            _ => false,
        };
        if wild {
            return reject("SPACE-1", "a square in the command lies far off the map");
        }
        match &self.phase {
            Phase::Over(_) => return reject("FLOW-E3", "the battle is over"),
            Phase::Window { creature, kind, .. } => {
                if *creature != id {
                    let who = &self.creatures[*creature as usize].name;
                    return reject("TIME-7", format!("only {who} may react now"));
                }
                return match (kind, command) {
                    (WindowKind::Defense, Command::Defend { defense }) => self.plan_defend(id, *defense),
                    (WindowKind::Defense, Command::Pass) => Ok(Plan::Defend(None)),
                    (WindowKind::BeforeAttack, Command::QuickStep { to, face }) => self.plan_quick_step(id, *to, *face),
                    (WindowKind::BeforeAttack, Command::CounterAttack { weapon }) => self.plan_counter(id, weapon),
                    (WindowKind::BeforeAttack, Command::Pass | Command::Defend { defense: None }) => {
                        Ok(Plan::PassBefore)
                    }
                    _ => reject("TIME-12", format!("a {kind:?} window is open; answer it first")),
                };
            }
            Phase::Turn(current) if *current != id => {
                let who = &self.creatures[*current as usize].name;
                return reject("TIME-7", format!("it is {who}'s turn; outside its own turn a creature may only react"));
            }
            Phase::Turn(_) => {}
        }
        if me.long_term.is_some() && !matches!(command, Command::AbortLongTerm | Command::EndTurn) {
            return reject(
                "TIME-11",
                "a long-term action is under way: no other action until it completes or is aborted",
            );
        }
        let need = |ap: i32| -> Result<(), Rejection> {
            if me.ap < ap { reject("TIME-8", format!("needs {ap} AP, {} has {}", me.name, me.ap)) } else { Ok(()) }
        };
        match command {
            Command::Move { path, sprint, face } => {
                need(MOVE_AP)?;
                if !self.ruleset.facing && face.is_some() {
                    return reject("GEN-2", "facing is switched off in this ruleset");
                }
                if path.len() < 2 || path[0] != me.origin {
                    return reject("MOVE-1", format!("a path must start at {} and go somewhere", me.origin));
                }
                if path.len() > 512 {
                    return reject("MOVE-1", "the path is longer than any move");
                }
                let mover =
                    Mover { size: me.size, speed: me.speed, sprint: *sprint, posture: self.effective_posture(me) };
                let occupancy = self.occupancy_for(id);
                let cost = validate_path(&self.map, Some(&occupancy), &mover, path)
                    .map_err(|e| Rejection::new(e.rule(), e.to_string()))?;
                Ok(Plan::Move { path: path.clone(), cost, sprint: *sprint, face: *face })
            }
            Command::Face { facing } => {
                if !self.ruleset.facing {
                    return reject("GEN-2", "facing is switched off in this ruleset");
                }
                Ok(Plan::Face(*facing))
            }
            Command::ChangePosture { posture } => {
                if !self.ruleset.postures {
                    return reject("GEN-2", "postures are switched off in this ruleset");
                }
                if *posture == me.posture {
                    return reject("POST-2", format!("{} is already {}", me.name, posture.name()));
                }
                let cost = transition_cost(me.posture, *posture, self.ruleset.posture_costs);
                need(cost)?;
                Ok(Plan::Posture(*posture, cost))
            }
            Command::Attack { weapon, target, additives } => self.plan_attack(id, weapon, target, additives, false),
            Command::Defend { .. } | Command::QuickStep { .. } | Command::CounterAttack { .. } | Command::Pass => {
                reject("TIME-12", "no reaction window is open")
            }
            Command::Search { at } => {
                need(SEARCH_AP)?;
                if !self.map.in_bounds(*at) {
                    return reject("PERC-7", format!("{at} is off the map"));
                }
                let d = distance(me.origin, *at);
                if d > 1 && (d > 8 || !clear_line(&self.map, me.origin, *at)) {
                    return reject("PERC-7", "search a place within 8 steps that you can see");
                }
                Ok(Plan::Search(*at))
            }
            Command::Hide => {
                need(HIDE_AP)?;
                if me.hidden.is_some() {
                    return reject("PERC-E4", format!("{} is already hidden", me.name));
                }
                if let Some(w) =
                    self.creatures.iter().find(|o| o.can_act() && self.hostile(o.id, id) && self.perceives(o.id, id))
                {
                    return reject("PERC-E4", format!("{} perceives {}: no hiding in plain sight", w.name, me.name));
                }
                let concealing = me.footprint().cells().any(|c| self.map.terrain(c).concealing);
                let grade = if concealing { Disguise::Careful } else { Disguise::Simple };
                Ok(Plan::Hide(search_difficulty(me.size.search_difficulty(), grade)))
            }
            Command::Flee => {
                if me.hit_free_streak < FLEE_STREAK {
                    return reject(
                        "FLOW-5",
                        format!("fleeing needs {FLEE_STREAK} rounds unhit; {} has {}", me.name, me.hit_free_streak),
                    );
                }
                need(FLEE_AP)?;
                Ok(Plan::Flee)
            }
            Command::AbortLongTerm => {
                if me.long_term.is_none() {
                    return reject("TIME-11", "no long-term action to abort");
                }
                Ok(Plan::Abort)
            }
            Command::SetAllocation { order } => {
                let mut seen = [false; 3];
                for a in order {
                    if std::mem::replace(&mut seen[a.index()], true) {
                        return reject("CRE-5", "each attribute may be listed once");
                    }
                }
                Ok(Plan::Allocation(order.clone()))
            }
            Command::Delay { after } => {
                // Engine decision after 001's Defer (TIME-D4 variants): once a round, before
                // spending anything, move one's slot to just after a creature still to act.
                if me.spent_this_turn > 0 || me.ap < me.max_ap {
                    return reject("TIME-D4", "delay before spending any AP this turn");
                }
                if me.delayed_round == Some(self.round) {
                    return reject("TIME-D4", "a creature may delay once a round");
                }
                let Some(at) = self.order.iter().position(|c| c == after) else {
                    return reject("TIME-D4", format!("creature {after} is not in the turn order"));
                };
                if at <= self.turn {
                    return reject("TIME-D4", "delay only until after a creature still to act this round");
                }
                Ok(Plan::Delay(*after))
            }
            Command::EndTurn => Ok(Plan::EndTurn),
        }
    }

    /// Sit cannot move on its own; postures off means everyone moves as Standing.
    fn effective_posture(&self, f: &Fighter) -> Posture {
        if self.ruleset.postures { f.posture } else { Posture::Standing }
    }

    /// SPACE-E5: what every other creature's squares mean for this mover.
    pub fn occupancy_for(&self, mover: CreatureId) -> Vec<Occupant> {
        let me = &self.creatures[mover as usize];
        let mut occ = vec![Occupant::Free; (self.map.width() * self.map.height()) as usize];
        for o in &self.creatures {
            if o.id == mover || !o.is_active() {
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

    /// Dice for an attack with this weapon, before range modifiers (DICE-12, POST-E1).
    fn base_attack_dice(&self, f: &Fighter, w: &Armed, extra: i32) -> i32 {
        let penalty = if self.ruleset.postures { self.effective_posture(f).roll_penalty() } else { 0 };
        w.weapon.dice.dice_for(&f.attrs) + extra - penalty
    }

    /// The protection a target has against this attack (ATK-9, ATK-10, ATK-15, POST-E3).
    fn target_protection(&self, from: Pos, attacker_adjacent: bool, t: &Fighter, w: &Armed) -> i32 {
        let Some(kind) = w.weapon.damage else { return 0 };
        let terrain = if attacker_adjacent {
            0
        } else {
            i32::from(t.footprint().cells().any(|c| sight_line(&self.map, from, c).cover))
        };
        let posture = if self.ruleset.postures { self.effective_posture(t) } else { Posture::Standing };
        let cover = cover_bonus(terrain, posture, w.weapon.range.ranged);
        effective_protection(t.protection.against(kind), cover, w.weapon.penetration, false)
    }

    /// ATK-11: can this target defend against this attacker at all?
    fn defendable(&self, attacker: CreatureId, target: CreatureId, w: &Armed) -> Result<(), String> {
        let t = &self.creatures[target as usize];
        if w.weapon.defenses.is_empty() {
            return Err("the attack lists no defense (ATK-11)".into());
        }
        if t.attrs.is_unconscious() {
            return Err("unconscious creatures cannot defend (ATK-17)".into());
        }
        if t.long_term.is_some() {
            return Err("busy with a long-term action (TIME-11)".into());
        }
        if !self.perceives(target, attacker) {
            return Err("the attacker is unseen (ATK-11)".into());
        }
        if self.attacked_from_rear(target, attacker) {
            return Err("the attack comes from the rear (FACE-4)".into());
        }
        Ok(())
    }

    /// Range, line and perception for one creature target; returns the range dice modifier.
    fn reach_target(&self, attacker: CreatureId, target: CreatureId, w: &Armed) -> Result<i32, Rejection> {
        let Some(t) = self.creatures.get(target as usize) else {
            return reject("PERC-3", format!("there is no creature {target}"));
        };
        let a = &self.creatures[attacker as usize];
        if !t.is_active() {
            return reject("ATK-4", format!("{} is not on the battlefield", t.name));
        }
        if attacker == target {
            return reject("ATK-4", "a creature cannot attack itself");
        }
        if !self.perceives(attacker, target) {
            return reject("PERC-3", format!("{} does not perceive {}", a.name, t.name));
        }
        let d = footprint_distance(a.footprint(), t.footprint());
        let modifier = range_dice_modifier(w.weapon.range, d, self.ruleset.overreach).map_err(|e| {
            Rejection::new(
                "ATK-4",
                format!("{} is {} steps away; {} reaches {}", t.name, e.distance, w.weapon.name, e.max),
            )
        })?;
        let clear = a.footprint().cells().any(|x| t.footprint().cells().any(|y| line_of_effect(&self.map, x, y)));
        if d > 1 && !clear {
            return reject("ATK-E2", format!("no line of effect to {}", t.name));
        }
        Ok(modifier)
    }

    fn plan_attack(
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
        let mut targets = Vec::new();
        match (&w.weapon.area, target) {
            (None, Target::Creature(t)) => {
                let modifier = self.reach_target(id, *t, w)?;
                targets.push((*t, modifier));
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
        let from = match (target, &w.weapon.area) {
            (Target::Square(p), Some(_)) => *p,
            _ => me.origin,
        };
        let runs = targets
            .into_iter()
            .map(|(t, modifier)| {
                let tf = &self.creatures[t as usize];
                let adjacent = footprint_distance(me.footprint(), tf.footprint()) <= 1 && from == me.origin;
                TargetRun {
                    id: t,
                    dice: self.base_attack_dice(me, w, extra) + modifier,
                    protection: self.target_protection(from, adjacent, tf, w),
                    defendable: self.defendable(id, t, w),
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
            ap_paid: if prepaid { 0 } else { cost },
            chain: self.chain + 1,
            owner: id,
            counter: None,
        };
        Ok(Plan::Attack(Box::new(flow), if prepaid { 0 } else { cost }))
    }

    /// AREA-*: the squares an area weapon covers, placed per its target.
    fn area_cells(&self, id: CreatureId, w: &Armed, area: &AreaSpec, target: &Target) -> Result<Vec<Pos>, Rejection> {
        let me = &self.creatures[id as usize];
        let coverage = self.ruleset.area_coverage;
        match (area, target) {
            (AreaSpec::Circle { radius }, Target::Square(p)) | (AreaSpec::Ring { radius, .. }, Target::Square(p)) => {
                if !self.map.in_bounds(*p) {
                    return reject("ATK-4", format!("{p} is off the map"));
                }
                let d = footprint_distance(me.footprint(), Footprint::single(*p));
                if d > w.weapon.range.max {
                    return reject(
                        "ATK-4",
                        format!("{p} is {d} steps away; {} reaches {}", w.weapon.name, w.weapon.range.max),
                    );
                }
                if !line_of_effect(&self.map, me.origin, *p) {
                    return reject("AREA-E6", format!("no line of effect to {p}"));
                }
                let shape = match area {
                    AreaSpec::Ring { width, .. } => Shape::Ring { radius: *radius, width: *width },
                    _ => Shape::Circle { radius: *radius },
                };
                Ok(area::covered(&self.map, *p, shape, coverage))
            }
            (AreaSpec::Cone { length, angle }, Target::Toward(f)) => Ok(area::covered(
                &self.map,
                me.origin,
                Shape::Sector { length: *length, angle: *angle, facing: *f },
                coverage,
            )),
            (AreaSpec::Ray { length, width }, Target::Toward(f)) => Ok(area::covered(
                &self.map,
                me.origin,
                Shape::Ray { length: *length, width: *width, facing: *f },
                coverage,
            )),
            (AreaSpec::Circle { .. } | AreaSpec::Ring { .. }, _) => {
                reject("AREA-E1", format!("{} is centred on a square: target Square((x, y))", w.weapon.name))
            }
            _ => reject("AREA-E3", format!("{} is aimed along a facing: target Toward(N)", w.weapon.name)),
        }
    }

    fn plan_defend(&self, id: CreatureId, defense: Option<Defense>) -> Result<Plan, Rejection> {
        let Some(flow) = &self.flow else { return reject("TIME-12", "no attack to defend against") };
        if let Some(d) = defense {
            if !flow.weapon.weapon.defenses.contains(&d) {
                return reject(
                    "ATK-11",
                    format!("{} allows only {:?}", flow.weapon.weapon.name, flow.weapon.weapon.defenses),
                );
            }
            let run = &flow.targets[flow.idx];
            if !run.defense_paid && self.creatures[id as usize].ap < DEFEND_AP {
                return reject("TIME-12", "a defense needs 1 AP");
            }
        }
        Ok(Plan::Defend(defense))
    }

    fn plan_counter(&self, id: CreatureId, weapon: &str) -> Result<Plan, Rejection> {
        let Some(flow) = &self.flow else { return reject("TIME-12", "no attack to answer") };
        let me = &self.creatures[id as usize];
        let Some((_, ab)) = me.has_ability(|e| matches!(e, AbilityEffect::CounterAttack { .. })) else {
            return reject("TIME-13", format!("{} has no counter-attack", me.name));
        };
        let AbilityEffect::CounterAttack { ap } = ab.effect else { unreachable!() };
        if flow.weapon.weapon.range.ranged || flow.weapon.weapon.area.is_some() {
            return reject("TIME-13", "a counter-attack answers melee attacks only");
        }
        if me.ap < ap {
            return reject("TIME-12", format!("the counter-attack needs {ap} AP"));
        }
        let Some(w) = me.weapon(weapon) else {
            return reject("ATK-1", format!("{} carries no '{weapon}'", me.name));
        };
        if w.weapon.range.ranged || w.weapon.area.is_some() {
            return reject("TIME-13", format!("{} is not a melee weapon", w.weapon.name));
        }
        let attacker = flow.attacker;
        let modifier = self.reach_target(id, attacker, w)?;
        let a = &self.creatures[attacker as usize];
        let adjacent = footprint_distance(me.footprint(), a.footprint()) <= 1;
        let run = TargetRun {
            id: attacker,
            dice: self.base_attack_dice(me, w, 0) + modifier,
            protection: self.target_protection(me.origin, adjacent, a, w),
            defendable: self.defendable(id, attacker, w),
            defense_paid: false,
            damage: 0,
            hit: false,
            told_undefendable: false,
            coup_de_grace: false,
        };
        let counter = AttackFlow {
            attacker: id,
            weapon: w.clone(),
            target: Target::Creature(attacker),
            extra_dice: 0,
            targets: vec![run],
            idx: 0,
            segment: 0,
            before_done: true,
            pending_points: None,
            ap_paid: ap,
            chain: flow.chain,
            owner: flow.owner,
            counter: None,
        };
        Ok(Plan::Counter(Box::new(counter), ap))
    }

    fn plan_quick_step(
        &self,
        id: CreatureId,
        to: Pos,
        face: Option<crate::rules::facing::Facing>,
    ) -> Result<Plan, Rejection> {
        let me = &self.creatures[id as usize];
        let Some((_, ab)) = me.has_ability(|e| matches!(e, AbilityEffect::QuickStep { .. })) else {
            return reject("TIME-14", format!("{} has no Quick Step", me.name));
        };
        let AbilityEffect::QuickStep { ap } = ab.effect else { unreachable!() };
        if me.ap < ap {
            return reject("TIME-12", format!("Quick Step needs {ap} AP"));
        }
        let mover = Mover { size: me.size, speed: 1, sprint: false, posture: self.effective_posture(me) };
        validate_path(&self.map, Some(&self.occupancy_for(id)), &mover, &[me.origin, to])
            .map_err(|e| Rejection::new(e.rule(), e.to_string()))?;
        Ok(Plan::QuickStep { to, face, ap })
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
            Plan::Counter(counter, ap) => {
                let chain = self.chain;
                let f = &mut self.creatures[id as usize];
                f.ap -= ap;
                f.reacted_chain = chain;
                f.noisy_round = Some(self.round);
                let left = f.ap;
                let against = counter.targets[0].id;
                let weapon = counter.weapon.key.clone();
                self.log_about(Event::ApSpent { creature: id, ap, left }, &[id]);
                self.log_about(Event::CounterAttackDeclared { creature: id, weapon, against }, &[id, against]);
                self.flow.as_mut().expect("flow").counter = Some(counter);
                let owner = self.flow.as_ref().expect("flow").owner;
                self.phase = Phase::Turn(owner);
                self.resume_attack();
            }
            Plan::PassBefore => {
                self.log_about(Event::ReactionDeclined { creature: id }, &[id]);
                let owner = self.flow.as_ref().expect("flow").owner;
                self.phase = Phase::Turn(owner);
                self.resume_attack();
            }
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
                let at = self.order.iter().position(|c| *c == after).expect("checked") + 1;
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

    fn spend(&mut self, id: CreatureId, ap: i32) {
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

    fn reveal(&mut self, id: CreatureId, reason: String) {
        self.creatures[id as usize].hidden = None;
        self.refresh_perception_of(id);
        let all = self.all_sides();
        self.log_to(Event::Revealed { creature: id, reason }, all);
    }

    fn do_move(
        &mut self,
        id: CreatureId,
        path: Vec<Pos>,
        cost: u32,
        sprint: bool,
        face: Option<crate::rules::facing::Facing>,
    ) {
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
        let dice = me.attrs.dice(Attribute::Spirit) - if self.ruleset.postures { me.posture.roll_penalty() } else { 0 };
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
        let dice =
            me.attrs.dice(Attribute::Activeness) - if self.ruleset.postures { me.posture.roll_penalty() } else { 0 };
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

    // ---- attacks -------------------------------------------------------------------------

    fn start_attack(&mut self, flow: AttackFlow) {
        let id = flow.attacker;
        self.chain = flow.chain;
        let targets: Vec<CreatureId> = flow.targets.iter().map(|t| t.id).collect();
        let dice = flow
            .targets
            .first()
            .map_or(self.base_attack_dice(&self.creatures[id as usize], &flow.weapon, flow.extra_dice), |t| t.dice);
        let mut subjects = targets.clone();
        subjects.push(id);
        self.log_about(
            Event::AttackDeclared { attacker: id, weapon: flow.weapon.key.clone(), targets, dice },
            &subjects,
        );
        {
            let f = &mut self.creatures[id as usize];
            f.noisy_round = Some(self.round);
            if let Some(w) = f.weapons.iter_mut().find(|w| w.key == flow.weapon.key)
                && let Some(a) = &mut w.ammo
            {
                *a -= 1;
                let left = *a;
                self.log_about(Event::AmmoSpent { creature: id, weapon: flow.weapon.key.clone(), left }, &[id]);
            }
        }
        if self.creatures[id as usize].hidden.is_some() {
            self.reveal(id, "it attacked".into());
        }
        self.flow = Some(Box::new(flow));
        self.resume_attack();
    }

    /// Run the attack in progress until it needs an answer or is done.
    fn resume_attack(&mut self) {
        loop {
            let Some(flow) = self.flow.as_mut() else { return };
            let attacker = flow.attacker;
            if !flow.before_done {
                flow.before_done = true;
                // TIME-E6: the affected creature may react before the attack (Quick Step).
                if let (Target::Creature(t), None) = (&flow.target, &flow.weapon.weapon.area) {
                    let t = *t;
                    let chain = flow.chain;
                    let melee = !flow.weapon.weapon.range.ranged;
                    if self.can_quick_step(t, attacker, chain) || (melee && self.can_counter(t, attacker, chain)) {
                        self.open_window(t, WindowKind::BeforeAttack, attacker);
                        return;
                    }
                }
                continue;
            }
            if flow.idx >= flow.targets.len() {
                // TIME-13 / TIME-E6: a simultaneous counter resolves next; damage waits for both.
                let mut done = self.flow.take().expect("flow");
                let next = done.counter.take();
                self.resolved.push(*done);
                match next {
                    Some(counter) => {
                        self.flow = Some(counter);
                        continue;
                    }
                    None => {
                        self.finish_attack();
                        return;
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
            let faces = roll_faces(&mut self.rng, run.dice);
            let pts = points(&faces) as i32;
            let tname = self.creatures[run.id as usize].name.clone();
            self.log_about(
                Event::Rolled {
                    creature: attacker,
                    purpose: format!("attack on {tname}, segment {}", segment + 1),
                    faces,
                    points: pts,
                },
                &[attacker, run.id],
            );
            let harmful = pts > 0 && pts - run.protection > 0;
            let target = &self.creatures[run.id as usize];
            let can_pay = run.defense_paid || (target.ap >= DEFEND_AP && target.reacted_chain != chain);
            if harmful && run.defendable.is_ok() && target.can_act() && can_pay {
                self.flow.as_mut().expect("flow").pending_points = Some(pts);
                self.open_window(run.id, WindowKind::Defense, attacker);
                return;
            }
            if harmful && !run.told_undefendable {
                let reason = match &run.defendable {
                    Err(e) => Some(e.clone()),
                    Ok(()) if !can_pay => Some("no AP or reaction left to defend (TIME-12, TIME-15)".into()),
                    Ok(()) => None,
                };
                if let Some(reason) = reason {
                    let f = self.flow.as_mut().expect("flow");
                    let i = f.idx;
                    f.targets[i].told_undefendable = true;
                    self.log_about(Event::Undefendable { target: run.id, reason }, &[attacker, run.id]);
                }
            }
            self.settle_segment(pts, None, None);
        }
    }

    /// FACE-4 applied to every reaction to an attack (Engine decision): what comes from the
    /// blind rear cannot be answered, whether by defense, Quick Step or counter-attack.
    fn attacked_from_rear(&self, t: CreatureId, attacker: CreatureId) -> bool {
        let (a, f) = (&self.creatures[attacker as usize], &self.creatures[t as usize]);
        self.ruleset.facing
            && sector_for(f.footprint(), f.facing, self.ruleset.facing_arcs, a.footprint(), Actor::Attacker)
                == Some(Sector::Rear)
    }

    /// TIME-12, TIME-15, TIME-11, PERC-3, FACE-4: may `t` react to this attacker's attack with a
    /// reaction costing `ap`?
    fn may_react(&self, t: CreatureId, attacker: CreatureId, chain: u32, ap: i32) -> bool {
        let f = &self.creatures[t as usize];
        f.can_act()
            && f.ap >= ap
            && f.reacted_chain != chain
            && f.long_term.is_none()
            && self.perceives(t, attacker)
            && !self.attacked_from_rear(t, attacker)
    }

    fn can_counter(&self, t: CreatureId, attacker: CreatureId, chain: u32) -> bool {
        let f = &self.creatures[t as usize];
        let Some((_, ab)) = f.has_ability(|e| matches!(e, AbilityEffect::CounterAttack { .. })) else { return false };
        let AbilityEffect::CounterAttack { ap } = ab.effect else { return false };
        self.may_react(t, attacker, chain, ap)
            && f.weapons
                .iter()
                .any(|w| !w.weapon.range.ranged && w.weapon.area.is_none() && self.reach_target(t, attacker, w).is_ok())
    }

    fn can_quick_step(&self, t: CreatureId, attacker: CreatureId, chain: u32) -> bool {
        let f = &self.creatures[t as usize];
        let Some((_, ab)) = f.has_ability(|e| matches!(e, AbilityEffect::QuickStep { .. })) else { return false };
        let AbilityEffect::QuickStep { ap } = ab.effect else { return false };
        self.may_react(t, attacker, chain, ap) && !matches!(f.posture, Posture::Sit | Posture::Lying | Posture::Prone)
    }

    fn open_window(&mut self, creature: CreatureId, kind: WindowKind, attacker: CreatureId) {
        self.phase = Phase::Window { creature, kind, attacker };
        let side = self.sides[self.creatures[creature as usize].side].name.clone();
        self.log_to(Event::ReactionWindowOpened { creature, kind, attacker }, vec![side]);
    }

    /// Record one resolved segment and move on.
    fn settle_segment(&mut self, pts: i32, defense: Option<Defense>, defense_points: Option<i32>) {
        let flow = self.flow.as_mut().expect("flow");
        let run = &mut flow.targets[flow.idx];
        let out = resolve_segment(pts, run.protection, defense_points, &DamageModifiers::default(), 0);
        run.damage += out.damage;
        run.hit |= out.hit;
        let (attacker, target, segment, protection) = (flow.attacker, run.id, flow.segment, run.protection);
        flow.segment += 1;
        flow.pending_points = None;
        self.log_about(
            Event::SegmentResolved {
                attacker,
                target,
                segment: segment + 1,
                attack_points: pts,
                protection,
                defense: if out.defense_points.is_some() { defense } else { None },
                defense_points: out.defense_points,
                solid_defense: out.solid_defense,
                hit: out.hit,
                damage: out.damage,
            },
            &[attacker, target],
        );
    }

    fn answer_defense(&mut self, id: CreatureId, defense: Option<Defense>) {
        let pts = self.flow.as_ref().and_then(|f| f.pending_points).unwrap_or(0);
        let attacker = self.flow.as_ref().expect("flow").attacker;
        self.phase = Phase::Turn(self.flow.as_ref().expect("flow").owner);
        match defense {
            None => {
                self.log_about(Event::ReactionDeclined { creature: id }, &[id]);
                self.settle_segment(pts, None, None);
            }
            Some(d) => {
                let paid = {
                    let flow = self.flow.as_mut().expect("flow");
                    std::mem::replace(&mut flow.targets[flow.idx].defense_paid, true)
                };
                if !paid {
                    // ATK-E3: one 1-AP reaction covers every segment of the attack.
                    let chain = self.chain;
                    self.creatures[id as usize].reacted_chain = chain;
                    let f = &mut self.creatures[id as usize];
                    f.ap -= DEFEND_AP;
                    let left = f.ap;
                    self.log_about(Event::ApSpent { creature: id, ap: DEFEND_AP, left }, &[id]);
                }
                let f = &self.creatures[id as usize];
                let penalty = if self.ruleset.postures { f.posture.roll_penalty() } else { 0 };
                let bonus = if d == Defense::Block { f.block_bonus() } else { 0 };
                let dice = crate::rules::attack::defense_dice(&f.attrs, d, penalty) + bonus;
                let faces = roll_faces(&mut self.rng, dice);
                let dp = points(&faces) as i32;
                self.log_about(
                    Event::Rolled { creature: id, purpose: format!("{d:?}"), faces, points: dp },
                    &[id, attacker],
                );
                self.settle_segment(pts, Some(d), Some(dp));
            }
        }
        self.resume_attack();
    }

    fn answer_quick_step(&mut self, id: CreatureId, to: Pos, face: Option<crate::rules::facing::Facing>, ap: i32) {
        let attacker = self.flow.as_ref().expect("flow").attacker;
        self.phase = Phase::Turn(self.flow.as_ref().expect("flow").owner);
        {
            let chain = self.chain;
            let f = &mut self.creatures[id as usize];
            f.ap -= ap;
            f.reacted_chain = chain;
        }
        let from = self.creatures[id as usize].origin;
        let before = self.side_knowledge();
        self.creatures[id as usize].origin = to;
        self.creatures[id as usize].noisy_round = Some(self.round);
        self.refresh_perception_of(id);
        self.log_about(Event::QuickStepped { creature: id, to }, &[id, attacker]);
        self.log_about(Event::Moved { creature: id, path: vec![from, to], cost_quarters: 4, sprint: false }, &[id]);
        if let Some(f) = face {
            // FACE-2: re-facing is free after an active move, even outside one's turn.
            self.creatures[id as usize].facing = f;
            self.log_about(Event::Faced { creature: id, facing: f }, &[id]);
            self.refresh_perception_of(id);
        }
        self.emit_perception_changes(&before);
        // TIME-14: the "before" reaction re-validates the attack.
        let flow = self.flow.as_ref().expect("flow");
        let weapon = flow.weapon.clone();
        match self.reach_target(attacker, id, &weapon) {
            Err(why) => {
                let refund = flow.ap_paid;
                let key = flow.weapon.key.clone();
                self.flow = None;
                self.resolved.clear();
                let a = &mut self.creatures[attacker as usize];
                a.ap += refund;
                a.spent_this_turn -= refund;
                if let Some(w) = a.weapons.iter_mut().find(|w| w.key == key)
                    && let Some(n) = &mut w.ammo
                {
                    *n += 1;
                }
                self.log_about(
                    Event::AttackCancelled { attacker, refunded_ap: refund, reason: why.reason },
                    &[attacker, id],
                );
            }
            Ok(modifier) => {
                let a = self.creatures[attacker as usize].clone();
                let t = self.creatures[id as usize].clone();
                let extra = self.flow.as_ref().expect("flow").extra_dice;
                let dice = self.base_attack_dice(&a, &weapon, extra) + modifier;
                let adjacent = footprint_distance(a.footprint(), t.footprint()) <= 1;
                let protection = self.target_protection(a.origin, adjacent, &t, &weapon);
                let defendable = self.defendable(attacker, id, &weapon);
                let run = &mut self.flow.as_mut().expect("flow").targets[0];
                run.dice = dice;
                run.protection = protection;
                run.defendable = defendable;
                self.resume_attack();
            }
        }
    }

    /// ATK-E7 steps 5-6: apply all damage of the attack and its simultaneous reactions as one
    /// batch, then unconsciousness and death.
    fn finish_attack(&mut self) {
        let flows = std::mem::take(&mut self.resolved);
        let Some(owner) = flows.first().map(|f| f.owner) else { return };
        let mut struck = Vec::new();
        let mut coups = Vec::new();
        for flow in &flows {
            let attacker = flow.attacker;
            for run in &flow.targets {
                if run.hit && self.hostile(attacker, run.id) {
                    self.creatures[run.id as usize].hit_this_round = true;
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
                let f = &mut self.creatures[run.id as usize];
                let order: Vec<Attribute> = if f.allocation.is_empty() {
                    flow.weapon.weapon.targets.clone()
                } else {
                    f.allocation.iter().copied().filter(|a| flow.weapon.weapon.targets.contains(a)).collect()
                };
                let how = if f.allocation.is_empty() { Allocation::StayConscious } else { Allocation::InOrder };
                let split = allocate_damage(&mut f.attrs, &order, run.damage, how);
                for (a, dice) in split {
                    let left = self.creatures[run.id as usize].attrs.dice(a);
                    self.log_about(Event::Damaged { creature: run.id, attribute: a, dice, left }, &[run.id, attacker]);
                }
                struck.push(run.id);
            }
        }
        self.check_unconscious(&struck);
        for id in coups {
            if self.creatures[id as usize].is_active() {
                let before = self.side_knowledge();
                self.creatures[id as usize].presence = Presence::Dead;
                let all = self.all_sides();
                self.log_to(Event::Died { creature: id }, all);
                self.refresh_perception_of(id);
                self.emit_perception_changes(&before);
            }
        }
        self.phase = Phase::Turn(owner);
        self.check_victory(false);
        // An attack completed at the start of a turn (long-term) leaves the turn to continue;
        // if the owner fell, its turn ends.
        if matches!(self.phase, Phase::Turn(_)) && !self.creatures[owner as usize].can_act() {
            self.end_turn();
        }
    }

    /// CRE-6, CRE-7, FLOW-8, POST-5: fall unconscious (and Lying) or die.
    fn check_unconscious(&mut self, ids: &[CreatureId]) {
        for &id in ids {
            let f = &self.creatures[id as usize];
            if !f.is_active() {
                continue;
            }
            let all = self.all_sides();
            if f.attrs.is_dead() {
                let before = self.side_knowledge();
                self.creatures[id as usize].presence = Presence::Dead;
                self.creatures[id as usize].long_term = None;
                self.log_to(Event::Died { creature: id }, all);
                self.refresh_perception_of(id);
                self.emit_perception_changes(&before);
            } else if f.attrs.is_unconscious() && f.posture != Posture::Lying {
                let before = self.side_knowledge();
                self.log_to(Event::Unconscious { creature: id }, all);
                let f = &mut self.creatures[id as usize];
                f.posture = Posture::Lying;
                if f.long_term.take().is_some() {
                    self.log_about(
                        Event::LongTermAborted { creature: id, reason: "fell unconscious (TIME-E5)".into() },
                        &[id],
                    );
                }
                self.log_about(Event::PostureChanged { creature: id, posture: Posture::Lying, forced: true }, &[id]);
                self.refresh_perception_of(id);
                self.emit_perception_changes(&before);
            }
        }
    }

    // ---- turns and rounds ----------------------------------------------------------------

    pub(super) fn begin_round(&mut self) {
        self.open_round();
        if !self.order.is_empty() && self.try_start_turn(self.order[0]) {
            return;
        }
        self.advance_turns();
    }

    fn open_round(&mut self) {
        let all = self.all_sides();
        self.log_to(Event::RoundStarted { round: self.round }, all);
        // Hearing depends on recent noise (PERC-E5): refresh everyone once a round.
        let before = self.side_knowledge();
        for id in 0..self.n() as CreatureId {
            self.refresh_perception_of(id);
        }
        self.emit_perception_changes(&before);
        self.turn = 0;
    }

    fn end_turn(&mut self) {
        if let Phase::Turn(c) = self.phase {
            self.log_about(Event::TurnEnded { creature: c }, &[c]);
        }
        self.advance_turns();
    }

    /// Step through the order to the next creature that needs input, ending rounds on the way.
    fn advance_turns(&mut self) {
        loop {
            if matches!(self.phase, Phase::Over(_)) {
                return;
            }
            // Wrapping: a delay from the first slot steps back from 0.
            self.turn = self.turn.wrapping_add(1);
            if self.turn >= self.order.len() {
                if self.join_latecomers() {
                    self.turn -= 1;
                    continue;
                }
                self.end_round();
                if matches!(self.phase, Phase::Over(_)) {
                    return;
                }
                self.round += 1;
                self.open_round();
                if self.try_start_turn(self.order[0]) {
                    return;
                }
                continue;
            }
            if self.try_start_turn(self.order[self.turn]) {
                return;
            }
        }
    }

    /// TIME-4 / TIME-E2: creatures arriving this round join after everyone; a lone latecomer
    /// skips the roll. Returns whether anyone joined.
    fn join_latecomers(&mut self) -> bool {
        let round = self.round;
        let arrivals: Vec<CreatureId> =
            self.creatures.iter().filter(|c| c.presence == Presence::Waiting(round)).map(|c| c.id).collect();
        if arrivals.is_empty() {
            return false;
        }
        let order = if arrivals.len() == 1 { arrivals.clone() } else { self.roll_order(&arrivals) };
        for &id in &order {
            let spot = self.free_spot_near(id);
            let f = &mut self.creatures[id as usize];
            f.presence = Presence::Active;
            f.origin = spot;
            let all = self.all_sides();
            self.log_to(Event::Joined { creature: id, at: spot }, all);
        }
        self.order.extend(order.iter().copied());
        let all = self.all_sides();
        self.log_to(Event::TurnOrder { order: self.order.clone() }, all);
        let before = self.side_knowledge();
        for &id in &order {
            self.refresh_perception_of(id);
        }
        self.emit_perception_changes(&before);
        true
    }

    /// The latecomer's own square, or the nearest free one (Engine decision).
    fn free_spot_near(&self, id: CreatureId) -> Pos {
        let me = &self.creatures[id as usize];
        let occ = self.occupancy_for(id);
        let free = |p: Pos| {
            Footprint::new(p, me.size.footprint()).cells().all(|c| {
                self.map.in_bounds(c) && !self.map.blocks_movement(c) && occ[self.map.index(c)] == Occupant::Free
            })
        };
        for r in 0..self.map.width().max(self.map.height()) {
            for dy in -r..=r {
                for dx in -r..=r {
                    let p = me.origin.offset(dx, dy);
                    if (dx.abs() == r || dy.abs() == r) && free(p) {
                        return p;
                    }
                }
            }
        }
        me.origin
    }

    /// TIME-8, TIME-19, TIME-E5. Returns true when the creature now waits for input.
    fn try_start_turn(&mut self, id: CreatureId) -> bool {
        if !self.creatures[id as usize].is_active() {
            return false;
        }
        {
            let f = &mut self.creatures[id as usize];
            f.ap = f.max_ap;
            f.spent_this_turn = 0;
        }
        self.phase = Phase::Turn(id);
        let ap = self.creatures[id as usize].ap;
        self.log_about(Event::TurnStarted { creature: id, ap }, &[id]);
        if self.creatures[id as usize].attrs.is_unconscious() {
            self.log_about(Event::TurnEnded { creature: id }, &[id]);
            return false;
        }
        if let Some(mut lt) = self.creatures[id as usize].long_term.take() {
            let f = &mut self.creatures[id as usize];
            let paid = f.ap.min(lt.remaining);
            f.ap -= paid;
            lt.remaining -= paid;
            self.log_about(Event::LongTermProgress { creature: id, paid, remaining: lt.remaining }, &[id]);
            if lt.remaining > 0 {
                self.creatures[id as usize].long_term = Some(lt);
                self.log_about(Event::TurnEnded { creature: id }, &[id]);
                return false;
            }
            match self.plan_attack(id, &lt.weapon, &lt.target, &lt.additives, true) {
                Ok(Plan::Attack(flow, _)) => {
                    // Whatever the attack led to (a window, this turn going on, or — if the
                    // attacker fell — later turns already started), the phase is now settled.
                    self.start_attack(*flow);
                    return true;
                }
                Ok(_) => {}
                Err(why) => {
                    // GEN-7: a failed action produces nothing; the investment is lost.
                    self.log_about(Event::LongTermAborted { creature: id, reason: why.reason }, &[id]);
                }
            }
        }
        true
    }

    /// FLOW-E2: streaks; SurviveRounds and max rounds at the end of a round.
    fn end_round(&mut self) {
        let all = self.all_sides();
        self.log_to(Event::RoundEnded { round: self.round }, all);
        for f in self.creatures.iter_mut().filter(|f| f.is_active()) {
            if f.hit_this_round {
                f.hit_free_streak = 0;
            } else {
                f.hit_free_streak += 1;
            }
            f.hit_this_round = false;
        }
        self.check_victory(true);
        if !matches!(self.phase, Phase::Over(_)) && self.round >= self.max_rounds {
            self.finish(Outcome::Draw { reason: format!("{} rounds passed", self.max_rounds) });
        }
    }

    fn standing(&self, side: usize) -> bool {
        self.creatures.iter().any(|c| c.side == side && (c.can_act() || matches!(c.presence, Presence::Waiting(_))))
    }

    /// FLOW-3, FLOW-4, FLOW-E3 and the level's conditions.
    fn check_victory(&mut self, round_end: bool) {
        if matches!(self.phase, Phase::Over(_)) {
            return;
        }
        for v in self.victory.clone() {
            match v {
                Victory::ReachZone { side, from, to } => {
                    let s = self.sides.iter().position(|x| x.name == side).expect("validated");
                    let inside = |p: Pos| {
                        p.x >= from.0.min(to.0)
                            && p.x <= from.0.max(to.0)
                            && p.y >= from.1.min(to.1)
                            && p.y <= from.1.max(to.1)
                    };
                    if self.creatures.iter().any(|c| c.side == s && c.can_act() && c.footprint().cells().any(inside)) {
                        return self.finish(Outcome::Victory { side, reason: "reached the zone".into() });
                    }
                }
                Victory::SurviveRounds { side, rounds } if round_end && self.round >= rounds => {
                    let s = self.sides.iter().position(|x| x.name == side).expect("validated");
                    if self.standing(s) {
                        return self.finish(Outcome::Victory { side, reason: format!("held out {rounds} rounds") });
                    }
                }
                _ => {}
            }
        }
        let alive: Vec<usize> = (0..self.sides.len()).filter(|&s| self.standing(s)).collect();
        if alive.is_empty() {
            return self.finish(Outcome::Draw { reason: "no side is left standing".into() });
        }
        if self.victory.contains(&Victory::DefeatAllHostiles) {
            for &s in &alive {
                let hostile_left = alive.iter().any(|&o| self.sides[s].relations[o] == crate::level::Relation::Hostile);
                if !hostile_left {
                    let side = self.sides[s].name.clone();
                    return self
                        .finish(Outcome::Victory { side, reason: "every hostile creature is down or gone".into() });
                }
            }
        }
    }

    fn finish(&mut self, outcome: Outcome) {
        self.flow = None;
        self.resolved.clear();
        let all = self.all_sides();
        self.log_to(Event::BattleEnded { outcome: outcome.clone() }, all);
        self.phase = Phase::Over(outcome);
    }
}
