//! The v7 seconds mode (`Ruleset::time_model: Seconds004`; TIME-S1…S7, TIME-E11).
//!
//! A round is `SECONDS_PER_ROUND` seconds (rules/seconds.rs); in each second every creature
//! gets one slot in initiative order (TIME-S1). Each creature carries a clock (TIME-S7's die by
//! the token):
//! - idle, in its slot it gives any number of instants (0-AP commands: facing, allocation, a
//!   delay) and then one action, which ends the slot;
//! - an action of N seconds (TIME-E11: a command of N AP) is declared in its slot and runs
//!   until the end of the creature's N-th second, when its targets are chosen and its effects
//!   computed by checking the stored command again (TIME-S2). A 1-second action resolves at
//!   once: the slot is its one second. One the check now refuses is wasted;
//! - a reaction is an instant followed by a gap of its AP in seconds (TIME-E11), and no
//!   reaction is made while running, keeping or in a gap (TIME-S5);
//! - a readied attack (TIME-E10) is kept (TIME-S4) until the creature's next slot; firing it
//!   is its reaction and ends the keep.
//!
//! Engine decisions:
//! - AP stays the one currency every check reads: an idle creature holds its maximum AP (its
//!   slot's budget and the means of a reaction); running or in a gap it holds none, so every
//!   reaction check refuses it, and a keeping creature may only fire what it keeps.
//! - What AP rules do once a round or at a turn's start happens at a round's first second
//!   (hazards, senses wearing off); a fall's lost AP (MOVE-E6) becomes a 1-second gap.
//! - A creature may abort its running action (TIME-S2) or cut its gap with fatigue (TIME-S3)
//!   at any moment, not only in its slot (it gets no slot while busy): both are its own
//!   decision and need no time.
//! - Forced movement, a forced posture change and falling unconscious interrupt a running
//!   action and break a keep (TIME-S2, TIME-S4).

use super::check::{Plan, reject};
use super::state::*;
use super::types::*;
use crate::rules::costs::{FLEE_AP, HIDE_AP, LIFT_AP, MOVE_AP, SEARCH_AP};
use crate::rules::creature::Attribute;
use crate::rules::ruleset::TimeModel;
use crate::rules::seconds::{CostKind, SECONDS_PER_ROUND, Timing, convert, fatigue_dice};
use serde::{Deserialize, Serialize};

/// A creature's clock in seconds mode (TIME-S7); `None` on the fighter is idle.
#[derive(Clone, Debug, PartialEq)]
pub enum Clock {
    /// TIME-S2: an action under way; `left` counts its seconds still to come.
    Running { command: Command, seconds: i32, left: i32 },
    /// TIME-S4: keeping a readied attack up until the creature's next slot.
    Keeping,
    /// TIME-S3: slots still to sit out.
    Gap { left: i32 },
}

/// What the die by the token shows, as any side that perceives the creature may know it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClockView {
    #[default]
    Idle,
    Running {
        left: i32,
    },
    Keeping,
    Gap {
        left: i32,
    },
}

impl ClockView {
    /// The die's face and what it counts, for a token ("A2" running, "G1" gap, "K" keep).
    pub fn label(self) -> Option<String> {
        match self {
            ClockView::Idle => None,
            ClockView::Running { left } => Some(format!("A{left}")),
            ClockView::Keeping => Some("K".into()),
            ClockView::Gap { left } => Some(format!("G{left}")),
        }
    }
}

impl Clock {
    pub fn view(&self) -> ClockView {
        match self {
            Clock::Running { left, .. } => ClockView::Running { left: *left },
            Clock::Keeping => ClockView::Keeping,
            Clock::Gap { left } => ClockView::Gap { left: *left },
        }
    }
}

impl Plan {
    /// TIME-E11: the seconds this plan takes as a tactical action (its AP); 0 for instants and
    /// for reactions, which are paid by a gap instead.
    fn tactical_seconds(&self) -> i32 {
        let ap = match self {
            Plan::Move { .. } => MOVE_AP,
            Plan::Lift(_) | Plan::PutDown(_) => LIFT_AP,
            Plan::Mount(_, c) | Plan::Dismount(_, c) | Plan::Posture(_, c) | Plan::Attack(_, c) => *c,
            Plan::LongTerm { cost, .. }
            | Plan::AttackObject { cost, .. }
            | Plan::PickUp { cost, .. }
            | Plan::DropItem { cost, .. }
            | Plan::GiveItem { cost, .. }
            | Plan::UseItem { cost, .. } => *cost,
            Plan::Search(_) => SEARCH_AP,
            Plan::Door { .. } => super::objects::DOOR_AP,
            Plan::Hide(_) | Plan::RerollHide => HIDE_AP,
            Plan::Spot => super::spot::SPOT_AP,
            Plan::Flee => FLEE_AP,
            Plan::Face(_)
            | Plan::Defend(_)
            | Plan::QuickStep { .. }
            | Plan::Counter(..)
            | Plan::PassBefore
            | Plan::Fate(_)
            | Plan::Ready(_)
            | Plan::Abort
            | Plan::Allocation(_)
            | Plan::Delay(_)
            | Plan::CutGap(_)
            | Plan::EndTurn => 0,
        };
        match convert(ap, CostKind::Tactical) {
            Timing::Action(n) => n,
            _ => 0,
        }
    }
}

impl Battle {
    pub(super) fn seconds_mode(&self) -> bool {
        self.ruleset.time_model == TimeModel::Seconds004
    }

    /// The second of the round now being played (0 in the AP model).
    pub fn second(&self) -> u32 {
        self.second
    }

    /// TIME-S7: the creature's clock (the true state; a client shows it for creatures its side
    /// perceives).
    pub fn clock(&self, id: CreatureId) -> ClockView {
        self.creatures.get(id as usize).and_then(|f| f.clock.as_ref()).map_or(ClockView::Idle, Clock::view)
    }

    /// TIME-S1: the seconds of this round (the surprise round is its one AP's worth, TIME-E9).
    fn seconds_in_round(&self) -> u32 {
        if self.round == 0 { super::turns::SURPRISE_AP as u32 } else { SECONDS_PER_ROUND }
    }

    /// Whether once-a-round and turn-start effects are due at this slot (always in the AP model).
    pub(super) fn first_second(&self) -> bool {
        self.second == 0
    }

    /// TIME-S1: after the last slot, the round's next second begins, if it has one. Returns
    /// whether it did.
    pub(super) fn next_second(&mut self) -> bool {
        if !self.seconds_mode() || self.second + 1 >= self.seconds_in_round() {
            return false;
        }
        self.second += 1;
        let all = self.all_sides();
        self.log_to(Event::SecondStarted { round: self.round, second: self.second }, all);
        true
    }

    /// A keep (a readied attack waiting) and its end are told to the creature's own side only,
    /// as the readiness itself is (TIME-E10): other sides see nothing of it until it fires.
    fn show_keep(&mut self, id: CreatureId) {
        let clock = self.clock(id);
        let side = self.sides[self.creatures[id as usize].side].name.clone();
        self.log_to(Event::ClockSet { creature: id, clock }, vec![side]);
    }

    /// Tell whoever perceives the creature what its clock shows now.
    fn show_clock(&mut self, id: CreatureId) {
        let clock = self.clock(id);
        self.log_about(Event::ClockSet { creature: id, clock }, &[id]);
    }

    /// AP between slots: an idle creature holds its maximum (what a reaction reads); a busy one
    /// none.
    pub(super) fn settle_seconds_ap(&mut self, id: CreatureId) {
        let f = &mut self.creatures[id as usize];
        f.ap = if f.clock.is_none() { f.max_ap } else { 0 };
    }

    /// In its slot, before anything else: a busy creature's second passes. Returns `Some` when
    /// the slot is settled without asking for input (`Some(true)`: a resolved action settled
    /// the phase itself, see `resolve_action`), `None` when the creature acts now.
    pub(super) fn seconds_slot(&mut self, id: CreatureId) -> Option<bool> {
        match self.creatures[id as usize].clock.take() {
            None => None,
            Some(Clock::Keeping) => {
                // TIME-S4: the keep ends with the slot it lasted until (the readied attack
                // lapses with `lapse_ready`).
                self.show_keep(id);
                None
            }
            Some(Clock::Gap { left }) => {
                self.creatures[id as usize].clock = (left > 1).then_some(Clock::Gap { left: left - 1 });
                self.show_clock(id);
                self.close_slot(id);
                Some(false)
            }
            Some(Clock::Running { command, seconds, left }) if left > 1 => {
                self.creatures[id as usize].clock = Some(Clock::Running { command, seconds, left: left - 1 });
                self.show_clock(id);
                self.close_slot(id);
                Some(false)
            }
            Some(Clock::Running { command, seconds, .. }) => Some(self.resolve_action(id, command, seconds)),
        }
    }

    fn close_slot(&mut self, id: CreatureId) {
        self.settle_seconds_ap(id);
        self.turn_ended(id);
    }

    /// TIME-S2: the action's last second is over: targets are chosen and effects computed now,
    /// by the same check as any command. Returns whether the phase is settled without this
    /// slot: a reaction window opened, the battle ended, or the action ended the creature's
    /// turn itself (it fled, or fell to a counter) and later slots have already begun.
    fn resolve_action(&mut self, id: CreatureId, command: Command, seconds: i32) -> bool {
        self.show_clock(id);
        {
            let f = &mut self.creatures[id as usize];
            f.ap = seconds.max(f.max_ap);
        }
        let plan = match self.plan(id, &command) {
            // A long action's whole time has passed: its attack lands now.
            Ok(Plan::LongTerm { weapon, target, additives, .. }) => {
                self.plan_attack(id, &weapon, &target, &additives, true)
            }
            other => other,
        };
        match plan {
            Ok(plan) => {
                self.execute(id, plan);
                self.sync_perception();
            }
            Err(why) => self.waste_action(id, &why),
        }
        if self.phase == Phase::Turn(id) {
            self.close_slot(id);
            return false;
        }
        true
    }

    /// GEN-7 / TIME-S2: an action its last second finds impossible comes to nothing; its own
    /// side hears why, others that see it only that it came to nothing.
    fn waste_action(&mut self, id: CreatureId, why: &Rejection) {
        let own = self.creatures[id as usize].side;
        let full = format!("{why} (TIME-S2)");
        let whole = Event::LongTermAborted { creature: id, reason: full.clone() };
        self.log_views(whole, |b, s| {
            let reason = if s == own { full.clone() } else { "it came to nothing".to_string() };
            b.knows(s, id).then_some(Event::LongTermAborted { creature: id, reason })
        });
    }

    /// In its slot: a command of 2 or more seconds is declared now and runs on (TIME-S2); the
    /// slot ends. Returns false when the plan is carried out now (an instant, a 1-second action,
    /// or the AP model).
    pub(super) fn declare_action(&mut self, id: CreatureId, command: &Command, plan: &Plan) -> bool {
        if !self.seconds_mode() || self.phase != Phase::Turn(id) {
            return false;
        }
        let seconds = plan.tactical_seconds();
        if seconds < 2 {
            return false;
        }
        {
            let f = &mut self.creatures[id as usize];
            f.clock = Some(Clock::Running { command: command.clone(), seconds, left: seconds - 1 });
            f.spent_this_turn += seconds;
        }
        self.log_about(Event::ActionBegun { creature: id, seconds }, &[id]);
        self.show_clock(id);
        self.end_turn();
        true
    }

    /// After a command: in its slot a creature that has acted (spent time) is done for this
    /// second; a readied attack is kept from now until its next slot (TIME-S4).
    pub(super) fn after_slot_command(&mut self) {
        if !self.seconds_mode() {
            return;
        }
        let Phase::Turn(c) = self.phase else { return };
        let f = &mut self.creatures[c as usize];
        if f.readied.is_some() && f.clock.is_none() {
            f.clock = Some(Clock::Keeping);
            self.show_keep(c);
            self.end_turn();
        } else if f.spent_this_turn > 0 {
            self.end_turn();
        }
    }

    /// TIME-E11: a reaction just paid `ap`: in seconds it is an instant followed by a gap of as
    /// many seconds (added to any gap already running). Nothing in the AP model.
    pub(super) fn start_gap(&mut self, id: CreatureId, ap: i32) {
        if !self.seconds_mode() || ap <= 0 {
            return;
        }
        let f = &mut self.creatures[id as usize];
        let before = match f.clock {
            Some(Clock::Gap { left }) => left,
            _ => 0,
        };
        f.clock = Some(Clock::Gap { left: before + ap });
        f.ap = 0;
        self.show_clock(id);
    }

    /// TIME-S2, TIME-S4: forced movement, a forced posture change or falling unconscious stop a
    /// running action (wasted) and break a keep; falling unconscious also ends a gap.
    pub(super) fn interrupt_clock(&mut self, id: CreatureId, reason: &str) {
        match self.creatures[id as usize].clock {
            Some(Clock::Running { .. }) => {
                self.creatures[id as usize].clock = None;
                self.log_about(Event::LongTermAborted { creature: id, reason: format!("{reason} (TIME-S2)") }, &[id]);
            }
            Some(Clock::Keeping) => {
                self.creatures[id as usize].clock = None;
                self.lapse_ready(id);
                self.settle_seconds_ap(id);
                return self.show_keep(id);
            }
            // Out of the fight, a gap no longer counts down anything.
            Some(Clock::Gap { .. }) if !self.creatures[id as usize].can_act() => {
                self.creatures[id as usize].clock = None;
            }
            _ => return,
        }
        self.settle_seconds_ap(id);
        self.show_clock(id);
    }

    /// TIME-S2's abort and TIME-S3's fatigue, allowed at any moment (see the module's notes).
    pub(super) fn plan_clock_command(&self, id: CreatureId, command: &Command) -> Option<Result<Plan, Rejection>> {
        let me = self.creatures.get(id as usize)?;
        match command {
            Command::AbortLongTerm if self.seconds_mode() && me.long_term.is_none() => Some(match me.clock {
                _ if !me.can_act() => reject("CRE-6", format!("{} is out of the fight", me.name)),
                Some(Clock::Running { .. }) => Ok(Plan::Abort),
                _ => reject("TIME-S2", format!("{} has no action under way to abort", me.name)),
            }),
            Command::CutGap { seconds } => Some(self.plan_cut_gap(me, *seconds)),
            _ => None,
        }
    }

    fn plan_cut_gap(&self, me: &Fighter, seconds: i32) -> Result<Plan, Rejection> {
        if !self.seconds_mode() {
            return reject("TIME-S3", "gaps are the seconds mode's (the ruleset's time_model: Seconds004)");
        }
        if !me.can_act() {
            return reject("CRE-6", format!("{} is out of the fight", me.name));
        }
        // Engine decision: not while an attack waits for a reaction (its dice could knock the
        // creature out with a window of its own still open).
        if matches!(self.phase, Phase::Window(_)) {
            return reject("TIME-S3", "a gap is cut between actions, not while an attack waits for a reaction");
        }
        let Some(Clock::Gap { left }) = me.clock else {
            return reject("TIME-S3", format!("{} is in no gap", me.name));
        };
        if seconds < 1 || seconds > left {
            return reject("TIME-S3", format!("cut 1 to {left} seconds of {}'s gap", me.name));
        }
        Ok(Plan::CutGap(seconds))
    }

    /// TIME-S3 with TIME-E11: each second cut costs an Activeness die, removed like damage.
    pub(super) fn cut_gap(&mut self, id: CreatureId, seconds: i32) {
        self.log_about(Event::FatigueTaken { creature: id, seconds }, &[id]);
        self.remove_dice(id, Attribute::Activeness, fatigue_dice(seconds));
        self.check_unconscious(&[id]);
        self.check_victory(false);
        let f = &mut self.creatures[id as usize];
        if let Some(Clock::Gap { left }) = f.clock {
            f.clock = (left > seconds).then_some(Clock::Gap { left: left - seconds });
        }
        self.settle_seconds_ap(id);
        self.show_clock(id);
    }

    /// Abort the running action: the time spent is lost (TIME-S2).
    pub(super) fn abort_action(&mut self, id: CreatureId) {
        self.creatures[id as usize].clock = None;
        self.log_about(Event::LongTermAborted { creature: id, reason: "aborted (TIME-S2)".into() }, &[id]);
        self.settle_seconds_ap(id);
        self.show_clock(id);
    }
}

impl Battle {
    /// MOVE-E6 in seconds: a creature that fell loses its next second (a 1-second gap).
    pub(super) fn fall_gap(&mut self, id: CreatureId) {
        if !std::mem::take(&mut self.creatures[id as usize].fell) {
            return;
        }
        self.log_about(Event::FallRecovery { creature: id, ap_lost: 1, left: 0 }, &[id]);
        self.start_gap(id, 1);
    }
}
