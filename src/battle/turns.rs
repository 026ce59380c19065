//! Rounds and turns (TIME-6, TIME-8), latecomers (TIME-4, TIME-E2), long-term actions at turn
//! start (TIME-E5), streaks (FLOW-E2) and victory (FLOW-3, FLOW-4, FLOW-E3).

use super::check::Plan;
use super::seconds::Clock;
use super::state::*;
use super::types::*;
use crate::level::{Relation, Victory};
use crate::rules::grid::{Footprint, Pos};
use crate::rules::movement::Occupant;

/// TIME-E9: AP of a turn in the surprise round.
pub const SURPRISE_AP: i32 = 1;

/// `turn` before the first slot of a round: advancing wraps it to slot 0.
const BEFORE_FIRST_SLOT: usize = usize::MAX;

impl Battle {
    pub(super) fn begin_round(&mut self) {
        self.open_round();
        self.advance_turns();
    }

    fn open_round(&mut self) {
        // TIME-E9: the surprise is over when round 1 starts.
        if self.round >= 1 {
            for c in self.creatures.iter_mut() {
                c.surprised = false;
            }
        }
        let all = self.all_sides();
        self.log_to(Event::RoundStarted { round: self.round }, all);
        // 001 Hide: locks end and hiders roll their hide points anew (battle/spot.rs).
        self.renew_hiding();
        // Hearing depends on recent noise (PERC-E5): refresh everyone once a round.
        for id in 0..self.n() as CreatureId {
            self.refresh_perception_of(id);
        }
        self.sync_perception();
        self.turn = BEFORE_FIRST_SLOT;
        self.second = 0;
    }

    pub(super) fn end_turn(&mut self) {
        if let Phase::Turn(c) = self.phase {
            self.turn_ended(c);
        }
        self.advance_turns();
    }

    /// A creature's turn is over, however it ended (its command, a long-term action still
    /// under way, knocked out at its start): told, and a lost sense comes a turn closer to
    /// returning (FLOW-D3).
    pub(super) fn turn_ended(&mut self, id: CreatureId) {
        self.log_about(Event::TurnEnded { creature: id }, &[id]);
        // Seconds mode: once a round, at its first second (battle/seconds.rs).
        if self.first_second() {
            self.wear_off_sense_loss(id);
        }
        if self.seconds_mode() {
            self.settle_seconds_ap(id);
        }
    }

    /// Step through the order to the next creature that needs input, ending rounds on the way.
    pub(super) fn advance_turns(&mut self) {
        loop {
            if matches!(self.phase, Phase::Over(_)) {
                return;
            }
            // Wrapping: before the first slot (a new round, or a delay from slot 0) is -1.
            self.turn = self.turn.wrapping_add(1);
            if self.turn >= self.order.len() {
                if self.join_latecomers() {
                    // The newcomers' slots follow the last one: step back onto the last.
                    self.turn = self.turn.wrapping_sub(1);
                    continue;
                }
                // TIME-S1: seconds mode plays the round's seconds, every creature once in each.
                if self.next_second() {
                    self.turn = BEFORE_FIRST_SLOT;
                    continue;
                }
                self.reseed_for(u64::MAX);
                self.end_round();
                if matches!(self.phase, Phase::Over(_)) {
                    return;
                }
                self.round += 1;
                self.open_round();
                continue;
            }
            self.reseed_for(u64::from(self.order[self.turn]));
            if self.try_start_turn(self.order[self.turn]) {
                return;
            }
        }
    }

    /// In a belief (`dice_by_turn`), each turn rolls from its own generator, keyed by the round
    /// and whose turn it is: two play-outs that differ in one creature's command then roll the
    /// same dice in every later turn, so a look-ahead compares the commands, not the luck of a
    /// shifted dice stream.
    fn reseed_for(&mut self, whose: u64) {
        if let Some(key) = self.dice_by_turn {
            let k = key
                ^ u64::from(self.round).wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ whose.wrapping_mul(0xBF58_476D_1CE4_E5B9);
            self.rng = rand::SeedableRng::seed_from_u64(k);
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
        // TIME-4: they are ordered among themselves (a lone latecomer skips the roll); only
        // their own sides see the roll, as nobody else has seen them yet.
        let order = if arrivals.len() == 1 { arrivals.clone() } else { self.roll_order(&arrivals) };
        let mut joined = Vec::new();
        for &id in &order {
            match self.free_spot_near(id) {
                Some(spot) => {
                    let f = &mut self.creatures[id as usize];
                    f.presence = Presence::Active;
                    f.origin = spot;
                    joined.push((id, spot));
                }
                None => {
                    // Engine decision: with no square free for it anywhere, a latecomer arrives
                    // a round later rather than on top of another creature.
                    self.creatures[id as usize].presence = Presence::Waiting(round + 1);
                    let side = self.sides[self.creatures[id as usize].side].name.clone();
                    self.log_to(Event::ArrivalDelayed { creature: id, round: round + 1 }, vec![side]);
                }
            }
        }
        if joined.is_empty() {
            return false;
        }
        for &(id, _) in &joined {
            self.refresh_perception_of(id);
        }
        // Those who see a newcomer are told (Spotted) before they see it join; nobody else is.
        self.sync_perception();
        for &(id, at) in &joined {
            self.log_about(Event::Joined { creature: id, at }, &[id]);
        }
        self.order.extend(joined.iter().map(|&(id, _)| id));
        self.log_turn_order();
        true
    }

    /// The latecomer's own square, or the nearest free one (Engine decision); None when no
    /// square on the map is free for its footprint.
    fn free_spot_near(&self, id: CreatureId) -> Option<Pos> {
        // On solid ground: nobody arrives at the bottom of a pit (SPACE-E7).
        let side = self.creatures[id as usize].size.footprint();
        let solid = |p: Pos| self.map.depth_under(Footprint::new(p, side)) == 0;
        self.free_spot_where(id, self.creatures[id as usize].origin, self.map.width().max(self.map.height()), solid)
    }

    /// The nearest square to `at` (in rings outward) where the creature's footprint stands on
    /// open ground that nobody holds; `at` itself first.
    pub(super) fn free_spot_around(&self, id: CreatureId, at: Pos) -> Option<Pos> {
        self.free_spot_where(id, at, self.map.width().max(self.map.height()), |_| true)
    }

    /// As [`Battle::free_spot_around`], within `reach` rings and where `ok` holds too.
    pub(super) fn free_spot_where(&self, id: CreatureId, at: Pos, reach: i32, ok: impl Fn(Pos) -> bool) -> Option<Pos> {
        let me = &self.creatures[id as usize];
        let occ = self.true_occupancy(id);
        let free = |p: Pos| {
            Footprint::new(p, me.size.footprint()).cells().all(|c| {
                self.map.in_bounds(c) && !self.map.blocks_movement(c) && occ[self.map.index(c)] == Occupant::Free
            }) && ok(p)
        };
        for r in 0..=reach {
            for dy in -r..=r {
                for dx in -r..=r {
                    let p = at.offset(dx, dy);
                    if (dx.abs() == r || dy.abs() == r) && free(p) {
                        return Some(p);
                    }
                }
            }
        }
        None
    }

    /// TIME-2, PERC-3: the turn order, as each side knows it: its own creatures and those it
    /// perceives, in their places; the slots of creatures it does not perceive are not shown.
    pub(super) fn log_turn_order(&mut self) {
        let whole = Event::TurnOrder { order: self.order.clone() };
        self.log_views(whole, |b, s| {
            Some(Event::TurnOrder { order: b.order.iter().copied().filter(|&c| b.knows(s, c)).collect() })
        });
    }

    /// TIME-8, TIME-19, TIME-E5. Returns true when the creature now waits for input.
    fn try_start_turn(&mut self, id: CreatureId) -> bool {
        if !self.creatures[id as usize].is_active() {
            return false;
        }
        // TIME-E9: the surprise round is the aware creatures' alone, one AP each.
        if self.round == 0 && self.creatures[id as usize].surprised {
            return false;
        }
        {
            let surprise_round = self.round == 0;
            let f = &mut self.creatures[id as usize];
            // Seconds mode: running or in a gap, the slot passes with nothing to spend.
            let busy = matches!(f.clock, Some(Clock::Running { .. } | Clock::Gap { .. }));
            f.ap = if busy {
                0
            } else if surprise_round {
                f.max_ap.min(SURPRISE_AP)
            } else {
                f.max_ap
            };
            f.spent_this_turn = 0;
        }
        self.recover_from_fall(id);
        self.lapse_ready(id);
        self.ready_queue.clear();
        self.phase = Phase::Turn(id);
        let ap = self.creatures[id as usize].ap;
        self.log_about(Event::TurnStarted { creature: id, ap }, &[id]);
        // FLOW-10: a turn begun in a hazard starts with its harm (seconds mode: once a round).
        if self.first_second() {
            self.suffer_hazard(id);
        }
        if !self.creatures[id as usize].is_active() {
            self.turn_ended(id);
            self.check_victory(false);
            return false;
        }
        self.check_victory(false);
        if matches!(self.phase, Phase::Over(_)) {
            return false;
        }
        if self.creatures[id as usize].attrs.is_unconscious() {
            self.turn_ended(id);
            return false;
        }
        if self.seconds_mode()
            && let Some(window) = self.seconds_slot(id)
        {
            return window;
        }
        if let Some(mut lt) = self.creatures[id as usize].long_term.take() {
            let f = &mut self.creatures[id as usize];
            let paid = f.ap.min(lt.remaining);
            f.ap -= paid;
            f.spent_this_turn += paid;
            lt.remaining -= paid;
            self.log_about(Event::LongTermProgress { creature: id, paid, remaining: lt.remaining }, &[id]);
            if lt.remaining > 0 {
                self.creatures[id as usize].long_term = Some(lt);
                self.turn_ended(id);
                return false;
            }
            match self.plan_attack(id, &lt.weapon, &lt.target, &lt.additives, true) {
                Ok(Plan::Attack(mut flow, _)) => {
                    // TIME-14: cancelled now, it refunds what was paid this round only.
                    flow.ap_paid = paid;
                    // Whatever the attack led to (a window, this turn going on, or — if the
                    // attacker fell — later turns already started), the phase is now settled.
                    self.start_attack(*flow);
                    return true;
                }
                // ATK-16: a long-term blow on an object lands now; the turn goes on.
                Ok(Plan::AttackObject { object, weapon, dice, .. }) => self.attack_object(id, object, &weapon, dice, 0),
                Ok(_) => {}
                Err(why) => {
                    // GEN-7: a failed action produces nothing; the investment is lost. Its own
                    // side hears why; others that see it, only that it came to nothing.
                    let own = self.creatures[id as usize].side;
                    let full = why.to_string();
                    let whole = Event::LongTermAborted { creature: id, reason: full.clone() };
                    self.log_views(whole, |b, s| {
                        let reason = if s == own { full.clone() } else { "it came to nothing".to_string() };
                        b.knows(s, id).then_some(Event::LongTermAborted { creature: id, reason })
                    });
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
            let passed = if self.max_rounds == 1 {
                "1 round passed".into()
            } else {
                format!("{} rounds passed", self.max_rounds)
            };
            self.finish(Outcome::Draw { reason: passed });
        }
    }

    fn standing(&self, side: usize) -> bool {
        self.creatures.iter().any(|c| c.side == side && (c.can_act() || matches!(c.presence, Presence::Waiting(_))))
    }

    /// FLOW-3, FLOW-4, FLOW-E3 and the level's conditions.
    pub(super) fn check_victory(&mut self, round_end: bool) {
        if matches!(self.phase, Phase::Over(_)) {
            return;
        }
        for v in self.victory.clone() {
            match v {
                Victory::ReachZone { side, from, to } => {
                    let Some(s) = self.side_index(&side) else { continue };
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
                    let Some(s) = self.side_index(&side) else { continue };
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
                // A side hostile to nobody (a bystander, neutral to both sides of the fight) has
                // no hostiles to defeat: it won the moment the battle began, before anyone acted.
                let has_foes = (0..self.sides.len()).any(|o| self.sides[s].relations[o] == Relation::Hostile);
                let hostile_left = alive.iter().any(|&o| self.sides[s].relations[o] == Relation::Hostile);
                if has_foes && !hostile_left {
                    let side = self.sides[s].name.clone();
                    return self
                        .finish(Outcome::Victory { side, reason: "every hostile creature is down or gone".into() });
                }
            }
        }
    }

    pub(super) fn finish(&mut self, outcome: Outcome) {
        let all = self.all_sides();
        self.log_to(Event::BattleEnded { outcome: outcome.clone() }, all);
        self.phase = Phase::Over(outcome);
    }
}

impl Battle {
    /// For staging a picture (`play --actor`): every creature in turn before `actor` ends its
    /// turn until `actor`'s own turn comes (at most two rounds); the log records those ends.
    /// Refused when the actor cannot get a turn (down, gone, or not yet arrived in time).
    pub fn skip_to_turn_of(&mut self, actor: CreatureId) -> Result<(), Rejection> {
        let name = self.creatures.get(actor as usize).map(|c| c.name.clone()).unwrap_or_default();
        let limit = 2 * self.creatures.len() + 2;
        for _ in 0..limit {
            match self.awaiting() {
                Some((c, None)) if c == actor => return Ok(()),
                Some((c, None)) => self.submit(c, Command::EndTurn)?,
                _ => break,
            }
        }
        Err(Rejection::new("TIME-6", format!("{name} gets no turn within two rounds")))
    }
}
