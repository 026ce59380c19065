//! The battle as plain, cloneable data: creatures, turn order, perception and the log.
//!
//! Flow: a command is *checked* against the rules (a rejection changes nothing and is logged with
//! its rule ID), then *executed*, emitting events. The same level, seed and commands always give
//! the same log, byte for byte: all randomness comes from one seeded ChaCha generator.

use super::types::*;
use crate::level::compendium::{Ability, AbilityEffect, Compendium, Senses, Weapon};
use crate::level::{LoadedLevel, Relation, Victory};
use crate::rules::Ruleset;
use crate::rules::creature::{Attribute, Attributes, Protections, Size};
use crate::rules::facing::{Actor, Facing, Sector, sector_for};
use crate::rules::grid::{Footprint, GridMap, Pos, footprint_distance};
use crate::rules::initiative::roll_initiative;
use crate::rules::los::clear_line;
use crate::rules::posture::Posture;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A weapon as carried: its compendium key, data and ammunition left.
#[derive(Clone, Debug)]
pub struct Armed {
    pub key: String,
    pub weapon: Weapon,
    pub ammo: Option<u32>,
}

/// Where a creature is in the battle's life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    /// TIME-4: a latecomer, joining at the end of this round.
    Waiting(u32),
    Active,
    Fled,
    Dead,
}

/// TIME-11 / TIME-E5: a tactical action still being paid for.
#[derive(Clone, Debug)]
pub struct LongTerm {
    pub weapon: String,
    pub target: Target,
    pub additives: Vec<String>,
    pub remaining: i32,
}

/// One creature's state.
#[derive(Clone, Debug)]
pub struct Fighter {
    pub id: CreatureId,
    pub name: String,
    pub template: String,
    pub side: usize,
    pub size: Size,
    pub origin: Pos,
    pub facing: Facing,
    pub posture: Posture,
    pub attrs: Attributes,
    pub protection: Protections,
    pub ap: i32,
    pub max_ap: i32,
    pub speed: i32,
    pub weapons: Vec<Armed>,
    pub abilities: Vec<(String, Ability)>,
    pub senses: Senses,
    pub ai_profile: String,
    pub presence: Presence,
    /// PERC-E4: the search difficulty to find it, while Hidden.
    pub hidden: Option<i64>,
    pub hit_this_round: bool,
    /// FLOW-E2.
    pub hit_free_streak: u32,
    /// PERC-E5: the last round it moved, attacked or made noise.
    pub noisy_round: Option<u32>,
    pub long_term: Option<LongTerm>,
    /// CRE-5: allocation order; empty = keep conscious as long as possible.
    pub allocation: Vec<Attribute>,
    /// TIME-15: the reaction chain it last reacted in.
    pub reacted_chain: u32,
    /// AP spent on tactical actions this round, for TIME-14 refunds.
    pub spent_this_turn: i32,
    /// CRE-11 strength, for FLOW-2.
    pub strength: i32,
    /// The round it last delayed in.
    pub delayed_round: Option<u32>,
    /// The level's per-creature controller, overriding its side's.
    pub controller: Option<crate::level::ControllerDef>,
}

impl Fighter {
    pub fn footprint(&self) -> Footprint {
        Footprint::new(self.origin, self.size.footprint())
    }
    pub fn is_active(&self) -> bool {
        self.presence == Presence::Active
    }
    /// Present, conscious and able to act.
    pub fn can_act(&self) -> bool {
        self.is_active() && !self.attrs.is_unconscious()
    }
    pub fn weapon(&self, key: &str) -> Option<&Armed> {
        self.weapons.iter().find(|w| w.key == key)
    }
    pub fn has_ability(&self, pred: impl Fn(&AbilityEffect) -> bool) -> Option<&(String, Ability)> {
        self.abilities.iter().find(|(_, a)| pred(&a.effect))
    }
    /// Dice added to Block by a carried shield.
    pub fn block_bonus(&self) -> i32 {
        self.weapons.iter().map(|w| w.weapon.block_bonus).max().unwrap_or(0)
    }
}

#[derive(Clone, Debug)]
pub struct SideInfo {
    pub name: String,
    pub human: bool,
    /// Relation to every side by index (self = Friendly).
    pub relations: Vec<Relation>,
}

/// Whose input the battle waits for.
#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    Turn(CreatureId),
    Window { creature: CreatureId, kind: WindowKind, attacker: CreatureId },
    Over(Outcome),
}

/// The battle.
#[derive(Clone)]
pub struct Battle {
    pub level_name: String,
    pub level_file: String,
    pub seed: u64,
    pub map: GridMap,
    pub ruleset: Ruleset,
    pub sides: Vec<SideInfo>,
    pub creatures: Vec<Fighter>,
    pub order: Vec<CreatureId>,
    pub turn: usize,
    pub round: u32,
    pub max_rounds: u32,
    pub victory: Vec<Victory>,
    pub phase: Phase,
    pub log: Vec<LogEntry>,
    pub(super) rng: ChaCha8Rng,
    /// perceives[viewer * n + target] (PERC-E2), kept current incrementally.
    pub(super) perceives: Vec<bool>,
    pub(super) chain: u32,
    pub(super) flow: Option<Box<super::resolve::AttackFlow>>,
    /// Flows whose segments are done, waiting to be applied as one batch (TIME-E6).
    pub(super) resolved: Vec<super::resolve::AttackFlow>,
    /// last_seen[side * n + creature]: where that side last perceived it (its own knowledge,
    /// for the AI to hunt by); forgotten once a member stands next to the spot and sees nothing.
    pub(super) last_seen: Vec<Option<Pos>>,
}

/// Why a level cannot become a battle.
pub type SetupError = String;

impl Battle {
    /// Set up a battle from a validated level, rolling initiative (TIME-1, TIME-2).
    pub fn new(level: &LoadedLevel, compendium: &Compendium, seed: u64) -> Result<Battle, SetupError> {
        let l = &level.level;
        let sides: Vec<SideInfo> = l
            .sides
            .iter()
            .map(|s| SideInfo {
                name: s.name.clone(),
                human: s.human,
                relations: l
                    .sides
                    .iter()
                    .map(|o| {
                        if o.name == s.name {
                            Relation::Friendly
                        } else {
                            // GEN-6: relations are mutual; an unlisted pair is hostile.
                            s.relations
                                .get(&o.name)
                                .or_else(|| o.relations.get(&s.name))
                                .copied()
                                .unwrap_or(Relation::Hostile)
                        }
                    })
                    .collect(),
            })
            .collect();
        if sides.len() > 16 {
            return Err("a battle may have at most 16 sides".into());
        }
        let mut creatures = Vec::with_capacity(l.creatures.len());
        for (i, c) in l.creatures.iter().enumerate() {
            let t = compendium.creatures.get(&c.template).ok_or_else(|| format!("unknown creature {}", c.template))?;
            let o = &c.overrides;
            let attrs = Attributes::new(
                o.might.or(t.might).filter(|_| t.might.is_some()),
                o.activeness.or(t.activeness).filter(|_| t.activeness.is_some()),
                o.spirit.or(t.spirit).filter(|_| t.spirit.is_some()),
            );
            let weapon_keys = o.weapons.clone().unwrap_or_else(|| t.weapons.clone());
            let armour_keys = o.armour.clone().unwrap_or_else(|| t.armour.clone());
            let weapons = weapon_keys
                .iter()
                .map(|k| {
                    let w = compendium.weapons.get(k).ok_or_else(|| format!("unknown weapon {k}"))?;
                    Ok(Armed { key: k.clone(), weapon: w.clone(), ammo: w.ammo })
                })
                .collect::<Result<Vec<_>, String>>()?;
            let mut protection = t.natural_protection;
            for k in &armour_keys {
                protection =
                    protection.plus(compendium.armour.get(k).ok_or_else(|| format!("unknown armour {k}"))?.protection);
            }
            let abilities: Vec<(String, Ability)> = t
                .abilities
                .iter()
                .filter_map(|k| compendium.abilities.get(k).map(|a| (k.clone(), a.clone())))
                .collect();
            let trained = [t.might.unwrap_or(3), t.activeness.unwrap_or(3), t.spirit.unwrap_or(3)];
            let strength = t.strength.unwrap_or_else(|| {
                crate::rules::creature::strength(trained, &abilities.iter().map(|(_, a)| a.level).collect::<Vec<_>>())
            });
            let side =
                l.sides.iter().position(|s| s.name == c.side).ok_or_else(|| format!("unknown side {}", c.side))?;
            creatures.push(Fighter {
                id: i as CreatureId,
                name: c.name.clone(),
                template: c.template.clone(),
                side,
                size: t.size,
                origin: Pos::new(c.at.0, c.at.1),
                facing: c.facing,
                posture: c.posture,
                attrs,
                protection,
                // TIME-E4: everyone enters the Moment with full AP.
                ap: t.max_ap,
                max_ap: t.max_ap,
                speed: o.speed.unwrap_or(t.speed),
                weapons,
                abilities,
                senses: t.senses.clone(),
                ai_profile: c.ai.clone().unwrap_or_else(|| "default".into()),
                presence: match c.arrives {
                    Some(r) => Presence::Waiting(r),
                    None => Presence::Active,
                },
                hidden: None,
                hit_this_round: false,
                hit_free_streak: 0,
                noisy_round: None,
                long_term: None,
                allocation: Vec::new(),
                reacted_chain: 0,
                spent_this_turn: 0,
                strength,
                delayed_round: None,
                controller: c.controller,
            });
        }
        let n = creatures.len();
        let mut battle = Battle {
            level_name: l.name.clone(),
            level_file: level.file.clone(),
            seed,
            map: level.map.clone(),
            ruleset: l.ruleset,
            sides,
            creatures,
            order: Vec::new(),
            turn: 0,
            round: 0,
            max_rounds: l.max_rounds,
            victory: l.victory.clone(),
            phase: Phase::Turn(0),
            log: Vec::new(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            perceives: vec![false; n * n],
            chain: 0,
            flow: None,
            resolved: Vec::new(),
            last_seen: vec![None; n * l.sides.len()],
        };
        battle.start();
        Ok(battle)
    }

    fn start(&mut self) {
        let all = self.all_sides();
        self.log_to(Event::BattleStarted { level: self.level_file.clone(), seed: self.seed }, all.clone());
        let entrants: Vec<CreatureId> =
            self.creatures.iter().filter(|c| c.presence == Presence::Active).map(|c| c.id).collect();
        let order = self.roll_order(&entrants);
        self.order = order;
        self.log_to(Event::TurnOrder { order: self.order.clone() }, all);
        for v in 0..self.creatures.len() {
            self.refresh_perception_of(v as CreatureId);
        }
        self.emit_perception_changes(&vec![false; self.creatures.len() * self.sides.len()]);
        self.round = 1;
        self.begin_round();
    }

    /// TIME-2/3/E1, with TIME-5/E3 group initiative: identical AI creatures of one side share a
    /// roll and a slot, in level order within it.
    pub(super) fn roll_order(&mut self, entrants: &[CreatureId]) -> Vec<CreatureId> {
        let mut groups: Vec<Vec<CreatureId>> = Vec::new();
        for &id in entrants {
            let c = &self.creatures[id as usize];
            let grouped = self.ruleset.group_initiative && !self.sides[c.side].human;
            let found = groups.iter_mut().find(|g| {
                let h = &self.creatures[g[0] as usize];
                grouped && h.template == c.template && h.side == c.side
            });
            match found {
                Some(g) => g.push(id),
                None => groups.push(vec![id]),
            }
        }
        let dice: Vec<(usize, i32)> = groups
            .iter()
            .enumerate()
            .map(|(gi, g)| (gi, self.creatures[g[0] as usize].attrs.dice(Attribute::Activeness)))
            .collect();
        let rolls = roll_initiative(&mut self.rng, &dice);
        let all = self.all_sides();
        let mut order = Vec::new();
        for r in rolls {
            let members = groups[r.id].clone();
            self.log_to(
                Event::InitiativeRolled {
                    members: members.clone(),
                    faces: r.faces.clone(),
                    total: r.total,
                    tie_breaks: r.tie_breaks.clone(),
                },
                all.clone(),
            );
            order.extend(members);
        }
        order
    }

    pub fn n(&self) -> usize {
        self.creatures.len()
    }

    pub fn all_sides(&self) -> Vec<String> {
        self.sides.iter().map(|s| s.name.clone()).collect()
    }

    pub fn relation(&self, a: CreatureId, b: CreatureId) -> Relation {
        self.sides[self.creatures[a as usize].side].relations[self.creatures[b as usize].side]
    }

    pub fn hostile(&self, a: CreatureId, b: CreatureId) -> bool {
        self.relation(a, b) == Relation::Hostile
    }

    pub fn hostile_sides(&self, a: usize, b: usize) -> bool {
        self.sides[a].relations[b] == Relation::Hostile
    }

    pub fn fighter(&self, id: CreatureId) -> &Fighter {
        &self.creatures[id as usize]
    }

    pub fn find(&self, name: &str) -> Option<CreatureId> {
        self.creatures.iter().find(|c| c.name == name).map(|c| c.id)
    }

    pub fn outcome(&self) -> Option<&Outcome> {
        match &self.phase {
            Phase::Over(o) => Some(o),
            _ => None,
        }
    }

    /// Who must decide next, and what kind of decision.
    pub fn awaiting(&self) -> Option<(CreatureId, Option<WindowKind>)> {
        match &self.phase {
            Phase::Turn(c) => Some((*c, None)),
            Phase::Window { creature, kind, .. } => Some((*creature, Some(*kind))),
            Phase::Over(_) => None,
        }
    }

    /// Does `viewer` perceive `target` right now (PERC-E2)?
    pub fn perceives(&self, viewer: CreatureId, target: CreatureId) -> bool {
        self.perceives[viewer as usize * self.n() + target as usize]
    }

    /// Does any conscious member of `side` perceive `target` (or is it their own)?
    pub fn side_perceives(&self, side: usize, target: CreatureId) -> bool {
        let t = &self.creatures[target as usize];
        if t.side == side {
            return !matches!(t.presence, Presence::Waiting(_));
        }
        self.creatures.iter().any(|m| m.side == side && m.can_act() && self.perceives(m.id, target))
    }

    /// Full perception test for one pair (PERC-E1..E5, FACE-4).
    pub(super) fn compute_perceives(&self, viewer: CreatureId, target: CreatureId) -> bool {
        if viewer == target {
            return true;
        }
        let (v, t) = (&self.creatures[viewer as usize], &self.creatures[target as usize]);
        if !v.can_act() || !t.is_active() {
            return false;
        }
        let (vf, tf) = (v.footprint(), t.footprint());
        let d = footprint_distance(vf, tf);
        // PERC-E2: adjacent creatures are always perceived.
        if d <= 1 {
            return true;
        }
        if t.hidden.is_some() {
            return false;
        }
        let line = || vf.cells().any(|a| tf.cells().any(|b| clear_line(&self.map, a, b)));
        let noisy = t.noisy_round.is_some_and(|r| r + 1 >= self.round);
        // Vision: range, blind side, light, line.
        if v.senses.vision > 0 && d <= v.senses.vision {
            let blind = self.ruleset.facing
                && sector_for(vf, v.facing, self.ruleset.facing_arcs, tf, Actor::Perceiver) == Some(Sector::Rear);
            let lit = v.senses.darkvision || tf.cells().any(|c| !self.map.terrain(c).dark);
            if !blind && lit && line() {
                return true;
            }
        }
        // PERC-E5: hearing needs an audible target and a line sound passes along.
        if v.senses.hearing > 0 && d <= v.senses.hearing && noisy && line() {
            return true;
        }
        // A non-visual sense (tremor): ignores light and facing, needs an active target.
        v.senses.tremor > 0 && d <= v.senses.tremor && noisy
    }

    /// Recompute every pair involving `id` (as viewer or target).
    pub(super) fn refresh_perception_of(&mut self, id: CreatureId) {
        let n = self.n();
        for other in 0..n as CreatureId {
            let a = self.compute_perceives(id, other);
            self.perceives[id as usize * n + other as usize] = a;
            let b = self.compute_perceives(other, id);
            self.perceives[other as usize * n + id as usize] = b;
        }
    }

    /// A snapshot of what each side perceives, to diff after a change.
    pub(super) fn side_knowledge(&self) -> Vec<bool> {
        let mut k = vec![false; self.n() * self.sides.len()];
        for s in 0..self.sides.len() {
            for t in 0..self.n() {
                k[s * self.n() + t] = self.creatures[t].is_active() && self.side_perceives(s, t as CreatureId);
            }
        }
        k
    }

    /// Where `side` last perceived `creature`, if it still believes it is there.
    pub fn last_seen(&self, side: usize, creature: CreatureId) -> Option<Pos> {
        self.last_seen[side * self.n() + creature as usize]
    }

    /// Log Spotted / LostSight for enemies each side gained or lost (own creatures excluded),
    /// and update each side's memory of where it saw them.
    pub(super) fn emit_perception_changes(&mut self, before: &[bool]) {
        let after = self.side_knowledge();
        let n = self.n();
        for s in 0..self.sides.len() {
            for t in 0..n {
                let slot = s * n + t;
                if after[slot] {
                    self.last_seen[slot] = Some(self.creatures[t].origin);
                } else if let Some(p) = self.last_seen[slot] {
                    let looked = self.creatures.iter().any(|m| {
                        m.side == s && m.can_act() && footprint_distance(m.footprint(), Footprint::single(p)) <= 1
                    });
                    if looked || !self.creatures[t].is_active() {
                        self.last_seen[slot] = None;
                    }
                }
            }
        }
        for s in 0..self.sides.len() {
            for t in 0..self.n() {
                if self.creatures[t].side == s {
                    continue;
                }
                let (was, is) = (before[s * self.n() + t], after[s * self.n() + t]);
                let side = self.sides[s].name.clone();
                if is && !was {
                    self.log_to(Event::Spotted { side: side.clone(), creature: t as CreatureId }, vec![side]);
                } else if was && !is {
                    self.log_to(Event::LostSight { side: side.clone(), creature: t as CreatureId }, vec![side]);
                }
            }
        }
    }

    /// Sides that may see an event about these creatures: their own sides, and every side that
    /// perceives one of them.
    pub(super) fn witnesses(&self, subjects: &[CreatureId]) -> Vec<String> {
        (0..self.sides.len())
            .filter(|&s| subjects.iter().any(|&c| self.creatures[c as usize].side == s || self.side_perceives(s, c)))
            .map(|s| self.sides[s].name.clone())
            .collect()
    }

    pub(super) fn log_to(&mut self, event: Event, visible_to: Vec<String>) {
        let seq = self.log.len() as u32;
        self.log.push(LogEntry { seq, round: self.round, visible_to, event });
    }

    pub(super) fn log_about(&mut self, event: Event, subjects: &[CreatureId]) {
        let w = self.witnesses(subjects);
        self.log_to(event, w);
    }

    /// The log entries a side may see.
    pub fn log_for_side<'a>(&'a self, side: &'a str) -> impl Iterator<Item = &'a LogEntry> + 'a {
        self.log.iter().filter(move |e| e.visible_to.iter().any(|s| s == side))
    }

    /// FLOW-2: the intensity band of this fight seen from `side`.
    pub fn intensity_for(&self, side: usize) -> Option<crate::rules::flow::Intensity> {
        let mut enemy = 0i64;
        let mut player = 0i64;
        let mut count = 0i64;
        for c in &self.creatures {
            match self.sides[side].relations[c.side] {
                Relation::Hostile => enemy += c.strength as i64,
                Relation::Friendly => {
                    player += c.strength as i64;
                    count += 1;
                }
                Relation::Neutral => {}
            }
        }
        crate::rules::flow::intensity(enemy, player, count)
    }
}
