//! Checking a command: accept it as a [`Plan`] ready to execute, or reject it with the rule it
//! breaks. Pure: a check never changes the battle.

use super::attack::AttackFlow;
use super::state::*;
use super::types::*;
use crate::rules::attack::Defense;
use crate::rules::costs::{FLEE_AP, HIDE_AP, MOVE_AP, SEARCH_AP};
use crate::rules::creature::Attribute;
use crate::rules::facing::Facing;
use crate::rules::flow::FLEE_STREAK;
use crate::rules::grid::{Pos, distance};
use crate::rules::los::clear_line;
use crate::rules::movement::validate_path;
use crate::rules::posture::{Posture, transition_cost};
use crate::rules::senses::{Disguise, search_difficulty};

/// A checked command, ready to execute.
pub(super) enum Plan {
    Move {
        path: Vec<Pos>,
        cost: u32,
        sprint: bool,
        face: Option<Facing>,
        /// MOVE-13: the body dragged along.
        drag: Option<CreatureId>,
    },
    Face(Facing),
    /// MOVE-13 (battle/carry.rs).
    Lift(CreatureId),
    PutDown(Pos),
    /// MOVE-E8 (battle/mount.rs), with the AP.
    Mount(CreatureId, i32),
    Dismount(Pos, i32),
    Posture(Posture, i32),
    Attack(Box<AttackFlow>, i32),
    LongTerm {
        weapon: String,
        target: Target,
        additives: Vec<String>,
        cost: i32,
    },
    Defend(Option<Defense>),
    QuickStep {
        to: Pos,
        face: Option<Facing>,
        ap: i32,
    },
    Counter(Box<AttackFlow>, i32),
    PassBefore,
    /// DICE-13: the dice to set (none: keep the roll).
    Fate(Vec<crate::rules::fate::FateDie>),
    Search(Pos),
    /// ATK-16: an attack on the object with this index, its dice rolled per segment.
    AttackObject {
        object: usize,
        weapon: String,
        dice: i32,
        cost: i32,
    },
    /// Open (true) or close a door (battle/objects.rs).
    Door {
        door: usize,
        open: bool,
    },
    /// TIME-18 (battle/items.rs): the ground item with this index.
    PickUp {
        index: usize,
        cost: i32,
    },
    DropItem {
        item: String,
        cost: i32,
    },
    GiveItem {
        item: String,
        to: CreatureId,
        cost: i32,
    },
    UseItem {
        item: String,
        on: CreatureId,
        cost: i32,
    },
    /// TIME-E10 (battle/ready.rs).
    Ready(super::ready::Readied),
    Hide(i64),
    /// 001: hiding again while hidden re-rolls the hide points.
    RerollHide,
    Spot,
    Flee,
    Abort,
    Allocation(Vec<Attribute>),
    Delay(CreatureId),
    /// TIME-S3: seconds of gap cut with fatigue.
    CutGap(i32),
    EndTurn,
}

/// Why a command was refused: the rule broken and a sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    pub rule: &'static str,
    pub reason: String,
}

impl Rejection {
    pub fn new(rule: &'static str, reason: impl Into<String>) -> Self {
        Rejection { rule, reason: reason.into() }
    }
}

impl std::fmt::Display for Rejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.reason, self.rule)
    }
}

pub(super) fn reject<T>(rule: &'static str, reason: impl Into<String>) -> Result<T, Rejection> {
    Err(Rejection::new(rule, reason))
}

/// Squares farther than this from the origin are refused before any arithmetic touches them.
const FAR: i32 = 100_000;

impl Battle {
    /// GEN-1 (a custom rule of the level): a creature ordered to hold an area never leaves it,
    /// not even for a square of a path. Engine decision: the square it stands on is not a step
    /// — a creature thrown or towed out of its area (MOVE-11, a chain hook) walks back in from
    /// there; every move of it was refused, and the AI's walk back was replaced by ending its
    /// turn (an AI fallback, found by generated levels).
    pub(super) fn check_hold(&self, id: CreatureId, path: &[Pos]) -> Result<(), Rejection> {
        let me = &self.creatures[id as usize];
        let steps = path.strip_prefix(&[me.origin]).unwrap_or(path);
        match (&me.hold, steps.iter().find(|p| !me.may_stand_at(**p))) {
            (Some(h), Some(out)) => {
                let ((x0, y0), (x1, y1)) = h.corners();
                reject("GEN-1", format!("{} is ordered to hold ({x0}, {y0})–({x1}, {y1}); {out} is outside", me.name))
            }
            _ => Ok(()),
        }
    }

    /// MOVE-1 for a move or a drag: its AP (TIME-8), the facing switch (GEN-2) and the path's
    /// shape (from where it stands, somewhere, not absurdly long).
    pub(super) fn check_move_path(&self, id: CreatureId, path: &[Pos], face: Option<Facing>) -> Result<(), Rejection> {
        let me = &self.creatures[id as usize];
        if me.ap < MOVE_AP {
            return reject("TIME-8", format!("needs {MOVE_AP} AP, {} has {}", me.name, me.ap));
        }
        if !self.ruleset.facing && face.is_some() {
            return reject("GEN-2", "facing is switched off in this ruleset");
        }
        if path.len() < 2 || path[0] != me.origin {
            return reject("MOVE-1", format!("a path must start at {} and go somewhere", me.origin));
        }
        if path.len() > 512 {
            return reject("MOVE-1", "the path is longer than any move");
        }
        Ok(())
    }

    /// Would this command be accepted now? Pure: nothing changes.
    pub fn check(&self, creature: CreatureId, command: &Command) -> Result<(), Rejection> {
        self.plan(creature, command).map(|_| ())
    }

    /// A creature's name as `side` may be told it: "another creature" if it does not perceive it.
    fn known_name(&self, side: usize, c: CreatureId) -> String {
        if self.knows(side, c) { self.creatures[c as usize].name.clone() } else { "another creature".into() }
    }

    pub(super) fn plan(&self, id: CreatureId, command: &Command) -> Result<Plan, Rejection> {
        let Some(me) = self.creatures.get(id as usize) else {
            return reject("CRE-1", format!("there is no creature {id}"));
        };
        // Absurd coordinates are refused before any arithmetic can overflow on them.
        let far = |p: &Pos| p.x.unsigned_abs() > FAR.unsigned_abs() || p.y.unsigned_abs() > FAR.unsigned_abs();
        let wild = match command {
            Command::Move { path, .. } | Command::Drag { path, .. } => path.iter().any(far),
            Command::QuickStep { to, .. } => far(to),
            Command::Search { at }
            | Command::Door { at, .. }
            | Command::PickUp { at, .. }
            | Command::PutDown { at }
            | Command::Dismount { to: at } => far(at),
            Command::Ready { trigger: ReadyTrigger::EntersArea { from, to }, .. } => far(from) || far(to),
            Command::Attack { target: Target::Square(p), .. } => far(p),
            Command::Attack { target: Target::Curve(points), .. } => points.iter().any(far),
            _ => false,
        };
        if wild {
            return reject("SPACE-1", "a square in the command lies far off the map");
        }
        if !matches!(self.phase, Phase::Over(_))
            && let Some(plan) = self.plan_clock_command(id, command)
        {
            return plan;
        }
        match &self.phase {
            Phase::Over(_) => return reject("FLOW-E3", "the battle is over"),
            Phase::Window(w) => {
                if w.creature != id {
                    return reject("TIME-7", format!("only {} may react now", self.known_name(me.side, w.creature)));
                }
                return match (w.kind, command) {
                    (WindowKind::Defense, Command::Defend { defense }) => self.plan_defend(w, *defense),
                    (WindowKind::Defense, Command::Pass) => Ok(Plan::Defend(None)),
                    (WindowKind::BeforeAttack, Command::QuickStep { to, face }) => {
                        self.check_not_riding(id, "Quick Step")?;
                        self.plan_quick_step(id, *to, *face)
                    }
                    (WindowKind::BeforeAttack, Command::CounterAttack { weapon }) => self.plan_counter(w, weapon),
                    (WindowKind::BeforeAttack, Command::Pass | Command::Defend { defense: None }) => {
                        Ok(Plan::PassBefore)
                    }
                    (WindowKind::Fate, Command::Fate { set }) => self.plan_fate(set),
                    (WindowKind::Fate, Command::Pass) => Ok(Plan::Fate(Vec::new())),
                    (kind, _) => reject("TIME-12", format!("a {kind:?} window is open; answer it first")),
                };
            }
            Phase::Turn(current) if *current != id => {
                let who = self.known_name(me.side, *current);
                return reject("TIME-7", format!("it is {who}'s turn; outside its own turn a creature may only react"));
            }
            Phase::Turn(_) => {}
        }
        if !me.can_act() && !matches!(command, Command::EndTurn) {
            return reject("CRE-6", format!("{} is out of the fight and cannot act", me.name));
        }
        // 001's posture table: lying, a creature takes only emergency actions (reactions, a
        // Spot) besides moving and changing posture.
        let free = matches!(
            command,
            Command::Move { .. }
                | Command::ChangePosture { .. }
                | Command::EndTurn
                | Command::Face { .. }
                | Command::Delay { .. }
                | Command::SetAllocation { .. }
                | Command::AbortLongTerm
                | Command::Spot
        );
        if !free && !self.may_act_in_posture(me) {
            return reject(
                "POST-3",
                format!("{} is lying: under 001's posture table it only moves, changes posture or reacts", me.name),
            );
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
                self.check_move_path(id, path, *face)?;
                self.check_not_riding(id, "move")?;
                self.check_hold(id, path)?;
                let mover = self.mover(id, *sprint);
                let occupancy = self.occupancy_for(id);
                let cost = validate_path(&self.map, Some(&occupancy), &mover, path)
                    .map_err(|e| Rejection::new(e.rule(), e.to_string()))?;
                Ok(Plan::Move { path: path.clone(), cost, sprint: *sprint, face: *face, drag: None })
            }
            Command::Drag { creature, path, face } => {
                self.check_not_riding(id, "drag")?;
                self.plan_drag(id, *creature, path, *face)
            }
            Command::Lift { creature } => {
                self.check_not_riding(id, "lifting")?;
                self.plan_lift(id, *creature)
            }
            Command::Mount { mount } => self.plan_mount(id, *mount),
            Command::Dismount { to } => self.plan_dismount(id, *to),
            Command::PutDown { at } => self.plan_put_down(id, *at),
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
                self.check_not_riding(id, "posture change (dismount instead)")?;
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
            Command::Fate { .. } => reject("DICE-13", "Expense of Fate changes a roll just made; none is waiting"),
            Command::Spot => {
                if !self.hide_points_001() {
                    return reject(
                        "PERC-7",
                        "Spot is 001's (the ruleset's hiding: HideSpot001); a hider is found by searching a place",
                    );
                }
                need(super::spot::SPOT_AP)?;
                Ok(Plan::Spot)
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
                if me.hidden.is_some() && self.hide_points_001() {
                    return Ok(Plan::RerollHide);
                }
                if me.hidden.is_some() {
                    return reject("PERC-E4", format!("{} is already hidden", me.name));
                }
                // Only what its side knows: a watcher it does not perceive makes the attempt fail
                // when it is made, rather than tell by a refusal that someone is there.
                if let Some(w) = self.creatures.iter().find(|o| {
                    o.can_act() && self.hostile(o.id, id) && self.knows(me.side, o.id) && self.perceives(o.id, id)
                }) {
                    return reject("PERC-E4", format!("{} perceives {}: no hiding in plain sight", w.name, me.name));
                }
                let concealing = me.footprint().cells().any(|c| self.map.terrain(c).concealing);
                let grade = if concealing { Disguise::Careful } else { Disguise::Simple };
                Ok(Plan::Hide(search_difficulty(me.size.search_difficulty(), grade)))
            }
            Command::Flee => {
                if let Some(h) = &me.hold {
                    let ((x0, y0), (x1, y1)) = h.corners();
                    return reject(
                        "GEN-1",
                        format!("{} is ordered to hold ({x0}, {y0})–({x1}, {y1}): no fleeing", me.name),
                    );
                }
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
                if me.readied.is_some() {
                    return reject("TIME-D4", "a creature that has readied an attack has acted: no delay");
                }
                if me.delayed_round == Some(self.round) {
                    return reject("TIME-D4", "a creature may delay once a round");
                }
                let Some(at) = self.order.iter().position(|c| c == after).filter(|_| self.knows(me.side, *after))
                else {
                    return reject(
                        "TIME-D4",
                        format!("{}'s side knows no creature {after} in the turn order", me.name),
                    );
                };
                if at <= self.turn {
                    return reject("TIME-D4", "delay only until after a creature still to act this round");
                }
                Ok(Plan::Delay(*after))
            }
            Command::Door { at, open } => self.plan_door(id, *at, *open),
            Command::PickUp { at, item } => self.plan_pick_up(id, *at, item),
            Command::DropItem { item } => self.plan_drop(id, item),
            Command::GiveItem { item, to } => self.plan_give(id, item, *to),
            Command::UseItem { item, on } => self.plan_use(id, item, *on),
            Command::Ready { weapon, trigger } => self.plan_ready(id, weapon, trigger),
            Command::EndTurn => Ok(Plan::EndTurn),
            Command::CutGap { .. } => reject("TIME-S3", "no gap to cut"),
        }
    }
}
