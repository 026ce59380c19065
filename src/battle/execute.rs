//! Executing a checked command: moves, facing, postures, searches, hiding, fleeing, delays and
//! the turn's end. Attacks hand over to the attack pipeline (`attack.rs`).

use super::check::Plan;
use super::state::*;
use super::types::*;
use crate::rules::costs::{FLEE_AP, HIDE_AP, MOVE_AP, SEARCH_AP};
use crate::rules::creature::Attribute;
use crate::rules::dice::{attempt_succeeds, roll_faces};
use crate::rules::facing::Facing;
use crate::rules::grid::{Footprint, Pos, footprint_distance};
use crate::rules::movement::validate_path;

/// The part of a move really walked.
struct Walk {
    path: Vec<Pos>,
    /// Quarter steps.
    cost: u32,
    /// Where an unseen creature stopped it, if one did.
    stopped: Option<Pos>,
}

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
                // Seconds mode: a long action is stored and carried out at its last second.
                let declared = self.seconds_mode().then(|| command.clone());
                self.log_to(Event::CommandAccepted { creature, command }, vec![side]);
                // TIME-E10: readied attacks answer the command that set them off, no later one.
                if matches!(self.phase, Phase::Turn(_)) {
                    self.ready_queue.clear();
                }
                if let Some(command) = declared
                    && self.declare_action(creature, &command, &plan)
                {
                    self.sync_perception();
                    return Ok(());
                }
                self.execute(creature, plan);
                // Whatever the command changed, every side has been told what it now perceives.
                self.sync_perception();
                self.after_slot_command();
                Ok(())
            }
        }
    }

    pub(super) fn execute(&mut self, id: CreatureId, plan: Plan) {
        match plan {
            Plan::Move { path, cost, sprint, face, drag } => self.do_move(id, path, cost, sprint, face, drag),
            Plan::Lift(body) => self.lift(id, body),
            Plan::PutDown(at) => self.put_down(id, at),
            Plan::Mount(mount, cost) => self.mount_up(id, mount, cost),
            Plan::Dismount(to, cost) => self.dismount(id, to, cost),
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
            Plan::Fate(set) => self.answer_fate(id, set),
            Plan::Search(at) => self.do_search(id, at),
            Plan::Spot => self.do_spot(id),
            Plan::RerollHide => {
                self.spend(id, HIDE_AP);
                let points = self.roll_hide_points(id);
                self.creatures[id as usize].hidden = Some(points);
                let side = self.sides[self.creatures[id as usize].side].name.clone();
                self.log_to(Event::HidCreature { creature: id, difficulty: points }, vec![side]);
            }
            Plan::AttackObject { object, weapon, dice, cost } => self.attack_object(id, object, &weapon, dice, cost),
            Plan::Door { door, open } => self.operate_door(id, door, open),
            Plan::PickUp { index, cost } => self.pick_up(id, index, cost),
            Plan::DropItem { item, cost } => self.drop_item(id, &item, cost),
            Plan::GiveItem { item, to, cost } => self.give_item(id, &item, to, cost),
            Plan::UseItem { item, on, cost } => self.use_item(id, &item, on, cost),
            Plan::Ready(readied) => self.ready(id, readied),
            Plan::Hide(difficulty) => {
                self.spend(id, HIDE_AP);
                // Only its own side learns it hid, or that it failed: the point of hiding (DICE-E1).
                let side = self.sides[self.creatures[id as usize].side].name.clone();
                // PERC-E4: the check knew only the hostiles its side perceives; one it did not
                // know of may be watching, and then the attempt fails.
                if self.creatures.iter().any(|o| o.can_act() && self.hostile(o.id, id) && self.perceives(o.id, id)) {
                    self.log_to(Event::HideFailed { creature: id }, vec![side]);
                    return;
                }
                // 001 Hide: hide points, rolled now (and again at every round start), are what
                // a spot or search must beat; hiding again re-rolls them.
                let difficulty = if self.hide_points_001() { self.roll_hide_points(id) } else { difficulty };
                self.creatures[id as usize].hidden = Some(difficulty);
                // A new hiding: no side is locked on to it yet.
                self.creatures[id as usize].locked_on.clear();
                self.log_to(Event::HidCreature { creature: id, difficulty }, vec![side]);
                self.refresh_perception_of(id);
                self.sync_perception();
            }
            Plan::Flee => self.do_flee(id),
            Plan::Abort if self.seconds_mode() => self.abort_action(id),
            Plan::CutGap(seconds) => self.cut_gap(id, seconds),
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
                let delayed = Event::Delayed { creature: id, after };
                self.log_views(delayed.clone(), |b, s| (b.knows(s, id) && b.knows(s, after)).then(|| delayed.clone()));
                self.log_turn_order();
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
        // TIME-S5 (seconds mode): while its action lasts (the rest of its slot) the actor has
        // nothing left for an instant.
        let acting = self.seconds_mode() && self.phase == Phase::Turn(id);
        let f = &mut self.creatures[id as usize];
        f.ap -= ap;
        f.spent_this_turn += ap;
        if acting {
            f.ap = 0;
        }
        let left = f.ap;
        self.log_about(Event::ApSpent { creature: id, ap, left }, &[id]);
    }

    /// Perception after a creature turned: refresh, end Hidden if exposed, tell sides.
    fn after_change(&mut self, id: CreatureId) {
        self.refresh_perception_of(id);
        let exposed = self.exposure(id);
        self.sync_perception();
        if let Some(reason) = exposed {
            self.log_about(Event::Revealed { creature: id, reason }, &[id]);
        }
    }

    /// PERC-E4: Hidden ends next to a hostile, or in the open where a hostile would spot it.
    /// Ends it quietly (perception refreshed) and says why; the caller logs it once the sides
    /// that now perceive the creature have been told.
    pub(super) fn exposure(&mut self, id: CreatureId) -> Option<String> {
        self.creatures[id as usize].hidden?;
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
            // The reasons name nobody: the sides that learn of them may not perceive the hostile.
            if adjacent {
                reason = Some("a hostile is adjacent".to_string());
                break;
            }
            if !concealing && self.compute_perceives(o, id) {
                reason = Some("it stands in the open before a hostile".to_string());
                break;
            }
        }
        match reason {
            Some(r) => {
                self.refresh_perception_of(id);
                Some(r)
            }
            None => {
                self.creatures[id as usize].hidden = saved;
                None
            }
        }
    }

    /// End Hidden (an attack, a search that found it): the sides that now perceive it are told
    /// (Spotted), then they see why.
    pub(super) fn reveal(&mut self, id: CreatureId, reason: String) {
        self.creatures[id as usize].hidden = None;
        self.refresh_perception_of(id);
        self.sync_perception();
        self.log_about(Event::Revealed { creature: id, reason }, &[id]);
    }

    /// PERC-E4: hidden hostiles next to `id` are hidden no longer. Quietly; returns them.
    pub(super) fn unhide_adjacent(&mut self, id: CreatureId) -> Vec<CreatureId> {
        let me = self.creatures[id as usize].footprint();
        let found: Vec<CreatureId> = self
            .creatures
            .iter()
            .filter(|o| {
                o.is_active()
                    && o.hidden.is_some()
                    && self.hostile(id, o.id)
                    && footprint_distance(me, o.footprint()) <= 1
            })
            .map(|o| o.id)
            .collect();
        for &f in &found {
            self.creatures[f as usize].hidden = None;
            self.refresh_perception_of(f);
        }
        found
    }

    /// The part of a checked path the walker really walks. The check knew only the creatures
    /// its side perceives (SPACE-E5, fog-honest); where an unknown one blocks a step, or stands
    /// on the square where the move would end, the walker stops on the last square it may
    /// stand on (Engine decision).
    fn walkable_part(&self, id: CreatureId, path: Vec<Pos>, cost: u32, sprint: bool) -> Walk {
        let occupancy = self.true_occupancy(id);
        let mover = self.mover(id, sprint);
        if validate_path(&self.map, Some(&occupancy), &mover, &path).is_ok() {
            return Walk { path, cost, stopped: None };
        }
        for k in (2..path.len()).rev() {
            if let Ok(cost) = validate_path(&self.map, Some(&occupancy), &mover, &path[..k]) {
                return Walk { path: path[..k].to_vec(), cost, stopped: Some(path[k - 1]) };
            }
        }
        Walk { path: vec![path[0]], cost: 0, stopped: Some(path[0]) }
    }

    fn do_move(
        &mut self,
        id: CreatureId,
        path: Vec<Pos>,
        cost: u32,
        sprint: bool,
        face: Option<Facing>,
        drag: Option<CreatureId>,
    ) {
        self.spend(id, MOVE_AP);
        // TIME-E10: who saw the mover before it moved (for "comes into view").
        // Taken only when someone is readied: most moves set nothing off.
        let anyone_ready = self.creatures.iter().any(|c| c.readied.is_some());
        let seen_before: Vec<bool> = if anyone_ready {
            (0..self.creatures.len() as CreatureId).map(|r| self.perceives(r, id)).collect()
        } else {
            Vec::new()
        };
        // MOVE-13: the body's weight burdens the walk (read by `mover`).
        self.creatures[id as usize].dragging = drag;
        let Walk { path, cost, stopped } = self.walkable_part(id, path, cost, sprint);
        self.creatures[id as usize].dragging = None;
        {
            let f = &mut self.creatures[id as usize];
            f.origin = *path.last().expect("a path has a start");
            f.noisy_round = Some(self.round);
            // PERC-E6: an invisible creature that moves is no longer where it was located.
            if path.len() > 1 {
                f.betrayed_to.clear();
            }
        }
        // MOVE-E8: a rider moves with its mount.
        self.seat_rider(id);
        self.refresh_perception_of(id);
        let exposed = self.exposure(id);
        // The sides that now perceive the walker are told before anything names it.
        if path.len() > 1 {
            self.log_walk(id, &path, cost, sprint);
        }
        self.sync_perception();
        if let Some(body) = drag {
            self.pull_body(id, body, &path);
        }
        if let Some(at) = stopped {
            self.log_about(Event::MoveInterrupted { creature: id, at }, &[id]);
        }
        if let Some(reason) = exposed {
            self.log_about(Event::Revealed { creature: id, reason }, &[id]);
        }
        let found = self.unhide_adjacent(id);
        self.sync_perception();
        for f in found {
            self.log_about(Event::Revealed { creature: f, reason: "a hostile came adjacent".into() }, &[f]);
        }
        if sprint {
            // MOVE-E2 (Engine decision): a sprint costs 1 Activeness die, unpreventable.
            self.remove_dice(id, Attribute::Activeness, 1);
        }
        if let Some(f) = face {
            self.creatures[id as usize].facing = f;
            self.log_about(Event::Faced { creature: id, facing: f }, &[id]);
            self.refresh_perception_of(id);
            self.sync_perception();
        }
        self.suffer_hazard(id);
        self.check_unconscious(&[id]);
        self.check_victory(false);
        // Knocked out on its own move (a hazard, a sprint's last die): its turn is over.
        if !self.creatures[id as usize].can_act() && self.phase == Phase::Turn(id) {
            self.end_turn();
            return;
        }
        if anyone_ready && self.phase == Phase::Turn(id) {
            self.queue_ready(id, &path, &seen_before);
        }
    }

    pub(super) fn remove_dice(&mut self, id: CreatureId, a: Attribute, n: i32) {
        let removed = self.creatures[id as usize].attrs.remove_dice(a, n);
        if removed > 0 {
            let left = self.creatures[id as usize].attrs.dice(a);
            self.log_about(Event::Damaged { creature: id, attribute: a, dice: removed, left }, &[id]);
        }
    }

    fn do_search(&mut self, id: CreatureId, at: Pos) {
        self.spend(id, SEARCH_AP);
        // Engine decision: a search is a deliberate look, so the searcher turns toward the spot
        // (FACE-2: free in its own turn) and sees, light permitting, what it finds.
        let me = &self.creatures[id as usize];
        let toward = Facing::toward_footprint(me.footprint(), Footprint::single(at));
        if self.ruleset.facing && at != me.origin && toward != me.facing {
            self.creatures[id as usize].facing = toward;
            self.log_about(Event::Faced { creature: id, facing: toward }, &[id]);
            self.after_change(id);
        }
        let me = &self.creatures[id as usize];
        let dice = me.attrs.dice(Attribute::Spirit) - self.roll_penalty(me.posture);
        let faces = roll_faces(&mut self.rng, dice);
        let pts = self.ruleset.dice_points.points(&faces) as i32;
        let scope = Footprint::new(at.offset(-1, -1), 3);
        let found: Vec<CreatureId> = self
            .creatures
            .iter()
            .filter(|o| {
                o.is_active()
                    && o.hidden.is_some_and(|d| self.finds_hider(&faces, d))
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
        for &f in &found {
            self.reveal(f, "found by a search".into());
        }
        // What is found is known only if the side now perceives it (PERC-E2: light, range).
        let s = self.creatures[id as usize].side;
        let found: Vec<CreatureId> = found.into_iter().filter(|&f| self.knows(s, f)).collect();
        self.log_to(Event::Searched { creature: id, at, points: pts, found }, vec![side]);
    }

    fn do_flee(&mut self, id: CreatureId) {
        self.spend(id, FLEE_AP);
        // Against every conscious hostile, perceived or not.
        let (dice, difficulty) = self.flee_roll(id, |_| true);
        let faces = roll_faces(&mut self.rng, dice);
        // DICE-6, or 001's test: the points that count and the number they must beat.
        let (counted, beat) = self.ruleset.attempts.scored(self.ruleset.dice_points, &faces, difficulty);
        let success = attempt_succeeds(counted, beat);
        let pts = self.ruleset.dice_points.points(&faces) as i32;
        self.log_about(Event::Rolled { creature: id, purpose: "flee".into(), faces, points: pts }, &[id]);
        // Under 001's test the points that count (the dice kept) against 0.
        let (points, difficulty) = (counted as i32, beat);
        self.log_about(Event::FleeAttempted { creature: id, points, difficulty, success }, &[id]);
        if success {
            // Told to those who see it go, before it is gone.
            self.log_about(Event::Fled { creature: id }, &[id]);
            self.carry_off(id);
            self.leave_mount(id);
            self.creatures[id as usize].presence = Presence::Fled;
            self.refresh_perception_of(id);
            self.sync_perception();
            self.check_victory(false);
            if !matches!(self.phase, Phase::Over(_)) {
                self.end_turn();
            }
        }
    }
}
