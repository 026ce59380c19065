//! Ready (TIME-E10): on its turn a creature names an attack and a trigger; until the start of
//! its next turn, when the trigger occurs it makes that attack as a reaction, paying its AP +1
//! (001's precedent: a tactical action as a reaction for +1, 001_1172b9e802f06534.txt:109).
//!
//! Engine decisions:
//! - The triggers the engine detects are a hostile's voluntary move ending in the weapon's
//!   reach (`InReach`), a hostile's move passing through a rectangle (`EntersArea`), and a
//!   named creature coming into view by its move (`ComesIntoView`). Forced moves and Quick
//!   Steps do not trigger (they are someone else's action or already a reaction).
//! - A readied attack fires once the triggering move is complete, at the mover where it then
//!   stands; the engine does not split a move. The attack must then be one the engine accepts
//!   (perceived, in range, line of effect); a trigger met while it is not keeps the readiness.
//! - Naming the attack is the choice TIME-E10 gives: it fires on the first trigger met, never
//!   at a creature out of the fight, and counts as the creature's one reaction in its chain.
//! - Declaring it costs no AP, but the AP for it must be there: weapon AP + 1 within what the
//!   creature has now, and within its maximum (TIME-E10: never a long-term action).
//! - Only its own side is told that a creature readied; everyone who sees it sees it fire.

use super::check::{Plan, reject};
use super::state::*;
use super::types::*;
use crate::rules::grid::Pos;

/// TIME-E10: a readied attack costs its AP + 1.
pub const READY_EXTRA_AP: i32 = 1;

/// A readied attack as the creature holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Readied {
    pub weapon: String,
    pub trigger: ReadyTrigger,
}

impl Battle {
    pub(super) fn plan_ready(&self, id: CreatureId, weapon: &str, trigger: &ReadyTrigger) -> Result<Plan, Rejection> {
        let me = &self.creatures[id as usize];
        let Some(w) = me.weapon(weapon) else {
            return reject("TIME-E10", format!("{} carries no {weapon}", me.name));
        };
        if w.weapon.area.is_some() {
            return reject("TIME-E10", format!("{} is an area attack; ready a single-target one", w.weapon.name));
        }
        if w.ammo == Some(0) {
            return reject("ATK-6", format!("{} has no ammunition left", w.weapon.name));
        }
        let cost = w.weapon.ap + READY_EXTRA_AP;
        if cost > me.max_ap {
            return reject(
                "TIME-E10",
                format!("{} readied costs {cost} AP: it would be a long-term action", w.weapon.name),
            );
        }
        if cost > me.ap {
            return reject("TIME-E10", format!("{} readied costs {cost} AP; {} has {}", w.weapon.name, me.name, me.ap));
        }
        match trigger {
            ReadyTrigger::InReach => {}
            ReadyTrigger::EntersArea { from, to } => {
                if !self.map.in_bounds(*from) || !self.map.in_bounds(*to) {
                    return reject("TIME-E10", "the trigger's area must lie on the map");
                }
            }
            ReadyTrigger::ComesIntoView { creature } => {
                let known = (*creature as usize) < self.creatures.len()
                    && (self.knows(me.side, *creature) || self.last_seen(me.side, *creature).is_some());
                if !known || !self.hostile(id, *creature) {
                    return reject("TIME-E10", "name a hostile creature one's side has seen");
                }
            }
        }
        Ok(Plan::Ready(Readied { weapon: weapon.to_string(), trigger: trigger.clone() }))
    }

    pub(super) fn ready(&mut self, id: CreatureId, readied: Readied) {
        let side = self.sides[self.creatures[id as usize].side].name.clone();
        let event = Event::Readied { creature: id, weapon: readied.weapon.clone(), trigger: readied.trigger.clone() };
        self.creatures[id as usize].readied = Some(readied);
        self.log_to(event, vec![side]);
    }

    /// TIME-E10: a readiness not used lapses at the start of the creature's next turn.
    pub(super) fn lapse_ready(&mut self, id: CreatureId) {
        if self.creatures[id as usize].readied.take().is_some() {
            let side = self.sides[self.creatures[id as usize].side].name.clone();
            self.log_to(Event::ReadyLapsed { creature: id }, vec![side]);
        }
    }

    /// After `mover`'s move along `path`: queue every readied creature whose trigger it met.
    /// `seen_before[r]` is whether creature r perceived the mover before it moved.
    pub(super) fn queue_ready(&mut self, mover: CreatureId, path: &[Pos], seen_before: &[bool]) {
        let side = self.creatures[mover as usize].size.footprint();
        let queued: Vec<CreatureId> = self
            .creatures
            .iter()
            .filter(|r| r.can_act() && !r.surprised && self.hostile(r.id, mover) && self.perceives(r.id, mover))
            .filter(|r| match r.readied.as_ref().map(|x| &x.trigger) {
                None => false,
                Some(ReadyTrigger::InReach) => true,
                Some(ReadyTrigger::EntersArea { from, to }) => {
                    let (x0, x1) = (from.x.min(to.x), from.x.max(to.x));
                    let (y0, y1) = (from.y.min(to.y), from.y.max(to.y));
                    // Entering: a square of the move past its start (leaving does not count).
                    path.iter().skip(1).any(|p| {
                        crate::rules::grid::Footprint::new(*p, side)
                            .cells()
                            .any(|c| (x0..=x1).contains(&c.x) && (y0..=y1).contains(&c.y))
                    })
                }
                Some(ReadyTrigger::ComesIntoView { creature }) => {
                    *creature == mover && !seen_before.get(r.id as usize).copied().unwrap_or(true)
                }
            })
            .map(|r| r.id)
            .collect();
        // TIME-E6: in initiative order, from the mover's slot on (creatures not yet in the
        // order last, in level order).
        let mut queued = queued;
        let n = self.order.len();
        let slot = |c: CreatureId| self.order.iter().position(|&o| o == c);
        let from = slot(mover).unwrap_or(0);
        queued.sort_by_key(|&r| slot(r).map_or(n, |s| (s + n - from) % n.max(1)));
        self.ready_queue = queued.into_iter().map(|r| (r, mover)).collect();
        self.fire_next_ready();
    }

    /// Fire the first queued readied attack the engine accepts now; the others wait until it
    /// is over (`finish_attack` calls this again).
    pub(super) fn fire_next_ready(&mut self) {
        while !self.ready_queue.is_empty() {
            let (r, mover) = self.ready_queue.remove(0);
            if !matches!(self.phase, Phase::Turn(c) if c == mover) || !self.creatures[mover as usize].can_act() {
                self.ready_queue.clear();
                return;
            }
            let Some(readied) = self.creatures[r as usize].readied.clone() else { continue };
            let f = &self.creatures[r as usize];
            if !f.can_act() || f.long_term.is_some() || f.surprised {
                continue;
            }
            let Some(w) = f.weapon(&readied.weapon) else { continue };
            let cost = w.weapon.ap + READY_EXTRA_AP;
            // Seconds mode: a kept attack needs no AP now (its gap pays for it, TIME-E11).
            let keeping = matches!(f.clock, Some(super::seconds::Clock::Keeping));
            if f.ap < cost && !keeping {
                continue;
            }
            let target = Target::Creature(mover);
            let now = if keeping { cost } else { f.ap };
            let held = std::mem::replace(&mut self.creatures[r as usize].ap, now);
            let planned = self.plan_attack(r, &readied.weapon, &target, &[], false);
            self.creatures[r as usize].ap = held;
            let Ok(Plan::Attack(mut flow, _)) = planned else {
                continue;
            };
            flow.owner = mover;
            flow.ap_paid = cost;
            let f = &mut self.creatures[r as usize];
            f.readied = None;
            // Seconds mode: what it keeps (TIME-S4) is paid by the gap after it.
            f.ap = if keeping { 0 } else { f.ap - cost };
            f.reacted_chain = flow.chain;
            let left = f.ap;
            // Told to whoever knows both; a side that does not see the shooter learns of the
            // attack only as `AttackedByUnseen` (PERC-3).
            self.log_among(Event::ReadyFired { creature: r, at: mover }, &[r, mover]);
            self.log_about(Event::ApSpent { creature: r, ap: cost, left }, &[r]);
            self.start_gap(r, cost);
            // 001: the move has drawn its one emergency action; the other readied creatures
            // stay ready.
            if self.ruleset.reactions == crate::rules::ruleset::Reactions::OneEmergency001 {
                self.ready_queue.clear();
            }
            self.start_attack(*flow);
            return;
        }
    }
}
