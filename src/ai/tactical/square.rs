//! What one square offers a creature this turn: its best attack there (`Ctx::offence`), then
//! that weighed against the danger of standing there (`Ctx::finish`).

use super::choice::Plan;
use super::{
    CLOSING_PER_STEP, HELD_CAUTION, HELD_ROUNDS, HIDING_WORTH, KNOCKOUT_DICE, STALL_STEP_WORTH, UNANSWERED_ROUNDS,
};
use crate::ai::areas::best_area;
use crate::ai::odds::estimate_from;
use crate::ai::situation::{is_shooter, main_threat_facing, plays_sloppily};
use crate::ai::threat::{FriendsInReach, Threat, threat};
use crate::battle::{Battle, Command, CreatureId, Fighter, OptionScore, Placement, Target};
use crate::level::compendium::AiProfile;
use crate::rules::costs::DEFEND_AP;
use crate::rules::facing::{Actor, Facing, Sector, sector_for};
use crate::rules::grid::{Footprint, Pos, footprint_distance};
use crate::rules::posture::Posture;

/// What a turn decision looks at.
pub(super) struct Ctx<'a> {
    pub(super) b: &'a Battle,
    pub(super) me: CreatureId,
    pub(super) f: &'a Fighter,
    pub(super) p: &'a AiProfile,
    pub(super) enemies: &'a [CreatureId],
    pub(super) conscious: &'a [CreatureId],
    /// Per conscious enemy, the other targets its attacks are divided among.
    pub(super) shares: Vec<FriendsInReach>,
    /// Foes its side lost sight of a moment ago, as and where it last saw them, each with the
    /// targets its attacks are divided among: still a danger, though not a target.
    pub(super) unseen: Vec<(Fighter, FriendsInReach)>,
    /// A 0-AP turn toward a target is still allowed this turn.
    pub(super) may_turn: bool,
    /// The farthest any of its weapons reaches (overreach doubles a ranged weapon's).
    pub(super) max_reach: i32,
    /// It was hurt last round or this one: standing still and taking it is not a plan.
    pub(super) under_fire: bool,
    /// No other creature of its side can act (`situation::last_of_its_side`).
    pub(super) last_of_its_side: bool,
    /// How far a stall pushes its side to act (0 to 1, `clock::stall_push`).
    pub(super) stall: f64,
    /// Where it could strike from, and how far each square is from there.
    pub(super) strike: std::rc::Rc<crate::ai::intent::StrikeMap>,
    /// Per weapon, the ways to use it: plain, and with each additive that fits (TIME-16), with
    /// their AP.
    pub(super) variants: Vec<Vec<(Vec<String>, i32)>>,
    /// Each square's threats and the dice a kept defense saves against each, reused.
    pub(super) scratch: std::cell::RefCell<(Vec<Threat>, Vec<f64>)>,
}

/// A square's offence, worked out before its danger (see `Ctx::offence`).
pub(super) struct Offence {
    /// Where, with how many AP left and in which posture.
    dest: Pos,
    ap_left: i32,
    posture: Posture,
    attack: Option<BestAttack>,
    turn_first: Option<Facing>,
    held_offence: f64,
    attack_value: f64,
    pub(super) dealt: f64,
    rear_attack: bool,
    attacks: i32,
    closing: f64,
    hiding_lost: f64,
    hazard: f64,
    shooter: bool,
    /// No total `finish` gives the square is higher.
    pub(super) upper_bound: f64,
}

/// The best attack found from a square.
pub(in crate::ai) struct BestAttack {
    /// Expected damage plus the focus-fire and rear-arc bonuses.
    pub value: f64,
    /// Expected damage alone.
    pub dealt: f64,
    pub rear: bool,
    pub command: Command,
    pub ap: i32,
}

impl Ctx<'_> {
    /// Score standing at `dest` with `ap_left` and `posture` for the rest of the turn; `first`
    /// builds the first command given the facing and the best attack (if one is planned).
    pub(super) fn evaluate(
        &self,
        dest: Pos,
        ap_left: i32,
        posture: Posture,
        first: &dyn Fn(Facing, Option<&Command>) -> Command,
    ) -> (Plan, OptionScore) {
        self.finish(self.offence(dest, ap_left, posture), first)
    }

    /// What standing at `dest` offers before its danger is weighed: the best attack from there,
    /// the pull toward a strike, and the most the square could score.
    pub(super) fn offence(&self, dest: Pos, ap_left: i32, posture: Posture) -> Offence {
        let (b, f, p) = (self.b, self.f, self.p);
        let moved = dest != f.origin;
        let mf = Footprint::new(dest, f.size.footprint());
        // The best attack from here, on anyone we perceive. The creature may turn toward its
        // target for free first (FACE-2), so it is weighed facing it; staying put, it strikes
        // as it stands, or turns first if it must.
        let mut attack: Option<BestAttack> = None;
        let side_effects = !plays_sloppily(p);
        let mut turn_first: Option<Facing> = None;
        // The best plain ranged shot per AP from here, for holding the square (below).
        let mut held_offence: f64 = 0.0;
        for &e in self.enemies {
            let t = b.fighter(e);
            // Nothing reaches past the farthest weapon (with ranged overreach, twice its range).
            let d = footprint_distance(mf, t.footprint());
            if d > self.max_reach {
                continue;
            }
            let toward = Facing::toward_footprint(mf, t.footprint());
            let stand = Placement { origin: dest, facing: if moved { toward } else { f.facing }, posture };
            let turned = (!moved && self.may_turn && toward != f.facing)
                .then(|| (b.engage(self.me, Placement { facing: toward, ..stand }, e, t.placement()).ok(), toward));
            let engagements = [
                b.engage(self.me, stand, e, t.placement()).ok().map(|en| (en, None)),
                turned.and_then(|(en, toward)| Some((en?, Some(toward)))),
            ];
            for (w, variants) in f.weapons.iter().zip(&self.variants) {
                for (additives, cost) in variants.iter().map(|(a, c)| (a, *c)) {
                    let holdable = w.weapon.range.ranged && additives.is_empty() && cost <= f.max_ap;
                    if cost > ap_left && !holdable {
                        continue;
                    }
                    let Some((est, turn)) = engagements
                        .iter()
                        .flatten()
                        .find_map(|(en, turn)| Some((estimate_from(b, en, w, additives, t, side_effects)?, *turn)))
                    else {
                        continue;
                    };
                    let value = est.expected + p.focus_fire * 3.0 * est.ko_chance + if est.rear { 0.2 } else { 0.0 };
                    if holdable {
                        held_offence = held_offence.max(est.expected / cost.max(1) as f64);
                    }
                    if cost > ap_left {
                        continue;
                    }
                    // Compared per AP, so a 2-AP strike must beat two plain ones.
                    let per_ap = value / cost.max(1) as f64;
                    if attack.as_ref().is_none_or(|a| per_ap > a.value / a.ap.max(1) as f64) {
                        let additives = additives.clone();
                        let command = Command::Attack { weapon: w.key.clone(), target: Target::Creature(e), additives };
                        attack = Some(BestAttack { value, dealt: est.expected, rear: est.rear, command, ap: cost });
                        turn_first = turn;
                    }
                }
            }
        }
        // Area attacks are placed on perceived enemies (and their neighbours).
        if !moved
            && let Some(area) = best_area(b, self.me, ap_left)
            && attack.as_ref().is_none_or(|a| area.value > a.value)
        {
            attack = Some(area);
            turn_first = None;
        }
        let (attack_value, dealt, rear_attack, attacks) = match &attack {
            Some(a) => {
                let n = ap_left / a.ap.max(1);
                (a.value * n as f64, a.dealt * n as f64, a.rear, n)
            }
            None => (0.0, 0.0, false, 0),
        };
        let nearest =
            self.conscious.iter().map(|&e| footprint_distance(mf, b.fighter(e).footprint())).min().unwrap_or(0);
        // Squares fewer turns from a strike are worth more of that strike (see `intent`).
        // A square it strikes from now is a strike reached: worth the blow it strikes there
        // (`StrikeMap::struck_value`), never less than waiting one turn away (worth part of the
        // strike, times a stalled side's boldness), or waiting would beat striking.
        let approach = match &attack {
            Some(a) if attacks > 0 => self.strike.struck_value(a.value),
            _ => self.strike.approach_value(dest, f.speed, f.max_ap),
        };
        let closing = p.aggression * (approach - CLOSING_PER_STEP * nearest as f64);
        // A stall is broken by walking nearer to a strike, turns away or not.
        let closing = closing
            + match (self.stall > 0.0, self.strike.steps(f.origin), self.strike.steps(dest)) {
                (true, Some(now), Some(then)) => self.stall * STALL_STEP_WORTH * (now - then),
                _ => 0.0,
            };
        // PERC-E4: a hidden creature that leaves concealing terrain without striking gives its
        // hiding away for nothing.
        let unhides = f.hidden.is_some() && attacks == 0 && moved && !mf.cells().any(|c| b.map().terrain(c).concealing);
        let hiding_lost = if unhides { HIDING_WORTH * p.caution } else { 0.0 };
        // FLOW-10: a hazard strikes for certain where it ends its move (and again next turn).
        let hazard = crate::ai::threat::hazard_cost(b, self.me, dest);
        // `finish`'s total with every danger at nought (dangers are never negative, and the
        // attacks planned are at most all it can make): no square scores more.
        let shooter = is_shooter(f);
        let holding_at_most = if shooter { HELD_ROUNDS * held_offence * f.max_ap as f64 } else { 0.0 };
        let upper_bound = attack_value.max(0.0) + closing + holding_at_most - hiding_lost - (p.caution + 1.0) * hazard;
        Offence {
            dest,
            ap_left,
            posture,
            attack,
            turn_first,
            held_offence,
            attack_value,
            dealt,
            rear_attack,
            attacks,
            closing,
            hiding_lost,
            hazard,
            shooter,
            upper_bound,
        }
    }

    /// FACE-4: would an enemy it perceives stand in its rear arc, were it at `dest` facing
    /// `facing`? (Shown in the explanation; asked of the options shown only.)
    pub(super) fn rear_exposed(&self, dest: Pos, facing: Facing) -> bool {
        let (b, f) = (self.b, self.f);
        let mf = Footprint::new(dest, f.size.footprint());
        b.ruleset().facing
            && self.conscious.iter().any(|&e| {
                sector_for(mf, facing, b.ruleset().facing_arcs, b.fighter(e).footprint(), Actor::Attacker)
                    == Some(Sector::Rear)
            })
    }

    /// `offence` at `dest` weighed against the danger of standing there.
    pub(super) fn finish(
        &self,
        o: Offence,
        first: &dyn Fn(Facing, Option<&Command>) -> Command,
    ) -> (Plan, OptionScore) {
        let (b, f, p) = (self.b, self.f, self.p);
        let (dest, ap_left, posture) = (o.dest, o.ap_left, o.posture);
        let moved = dest != f.origin;
        let facing = main_threat_facing(b, f, dest, self.conscious);
        let mf = Footprint::new(dest, f.size.footprint());
        let here = Placement { origin: dest, facing, posture };
        // An enemy with several of us in its reach divides its attacks among us: safety in
        // numbers, which a pack needs to close in at all (each enemy was counted against each
        // of us in full, so nobody ever approached a group).
        // Buffers kept over the squares weighed (two allocations a square were ~2% of a battle).
        let mut scratch = self.scratch.borrow_mut();
        let (threats, saved) = &mut *scratch;
        threats.clear();
        threats.extend(
            self.conscious
                .iter()
                .zip(&self.shares)
                .map(|(&e, share)| threat(b, f, here, b.fighter(e)).shared(share, o.shooter))
                .chain(self.unseen.iter().map(|(e, share)| threat(b, f, here, e).shared(share, o.shooter))),
        );
        // The danger here if it keeps `kept` AP for defenses: the attacks where a defense saves
        // most are defended (TIME-12: 1 AP each), the rest land undefended.
        // Being knocked out costs more than the dice: every later turn of the creature (CRE-6).
        let ko_cost = KNOCKOUT_DICE;
        let cost = |t: &Threat, open: bool| if open { t.open + ko_cost * t.ko_open } else { t.any + ko_cost * t.ko };
        saved.clear();
        saved.extend(threats.iter().map(|t| (cost(t, true) - cost(t, false)).max(0.0)));
        saved.sort_unstable_by(|a, b| b.total_cmp(a));
        let open_danger: f64 = threats.iter().map(|t| cost(t, true)).sum();
        let danger_keeping =
            |kept: i32| open_danger - saved.iter().take((kept / DEFEND_AP).max(0) as usize).sum::<f64>();
        // A one-turn horizon makes a shooter trade a shot now for nothing later, so it stood in
        // the open beside the wall that would shelter it. A shooter expects to hold the square
        // it ends on for a couple of rounds of exchanging fire with the enemy's shooters: those
        // rounds count at full AP, against their ranged threat only (melee threats move; they
        // are this turn's danger above), and a die lost in such an exchange weighs more than
        // the profile's caution says, since it is also fire not returned.
        let held_danger: f64 = threats.iter().map(|t| t.ranged).sum();
        let holding = if o.shooter {
            // In a stall the exchange is taken up at the caution the clock left it: two shooters
            // each waiting for the other to step out first is a standoff until `max_rounds`.
            let held_caution = p.caution + HELD_CAUTION * (1.0 - self.stall);
            HELD_ROUNDS * (o.held_offence * f.max_ap as f64 - held_caution * held_danger)
        } else if o.attacks == 0 && self.under_fire {
            // Under fire it cannot answer from here, a creature that stays keeps taking it: the
            // shooters' fire counts for more rounds, so it moves into cover, out of sight or
            // into reach rather than stand and wait (a side shot at for rounds without moving).
            // A side's last creature has no friend to wait for: where a step brings it nearer
            // a strike, the fire counts only for the turns it then needs to strike back, so it
            // closes in rather than stand and be shot (The Ledge: a side's last creature
            // readied a blow while an archer shot it from across the chasm, 22 of 1,000
            // battles against itself; 9 with this). With friends standing it keeps to the pace of
            // the pack: counted so for every creature, the skirmish's Pack closed in piecemeal
            // (`normal` against the baseline there 81.1 → 79.8%).
            let nearer = self.last_of_its_side
                && match (self.strike.steps(f.origin), self.strike.steps(o.dest)) {
                    (Some(now), Some(then)) => then < now,
                    _ => false,
                };
            let turns = nearer.then(|| self.strike.turns(o.dest, f.speed, f.max_ap)).flatten();
            let rounds = turns.map_or(UNANSWERED_ROUNDS, |t| f64::from(t).min(UNANSWERED_ROUNDS));
            -rounds * p.caution * held_danger
        } else {
            0.0
        };
        let per_attack = o.attack.as_ref().map_or(1, |a| a.ap);
        let spare = ap_left - o.attacks * per_attack;
        // Every AP kept can pay a defense; the last attack may be worth less than the defense
        // its AP would pay for.
        let all_in = o.attack_value - p.caution * danger_keeping(spare);
        let one_back = if o.attacks >= 1 {
            o.attack_value / o.attacks as f64 * (o.attacks - 1) as f64 - p.caution * danger_keeping(spare + per_attack)
        } else {
            f64::NEG_INFINITY
        };
        let keep_one = one_back > all_in;
        let planned = if keep_one { o.attacks - 1 } else { o.attacks };
        let kept = if keep_one { spare + per_attack } else { spare };
        let danger = danger_keeping(kept);
        let offence = if keep_one { one_back } else { all_in } + p.caution * danger;
        let danger = danger + o.hazard;
        let total = offence - p.caution * danger + o.closing + holding - o.hiding_lost - o.hazard;
        let planned_attack = o.attack.as_ref().filter(|a| a.value > 0.05 && planned >= 1).map(|a| &a.command);
        let cmd = match (planned_attack, o.turn_first) {
            // Staying put, it first turns toward the target it will strike.
            (Some(_), Some(toward)) if !moved => Command::Face { facing: toward },
            // Moving to strike, it ends the move facing its target.
            (Some(Command::Attack { target: Target::Creature(t), .. }), _) if moved => {
                first(Facing::toward_footprint(mf, b.fighter(*t).footprint()), planned_attack)
            }
            _ => first(facing, planned_attack),
        };
        let cover = threats.iter().any(|t| t.cover);
        let score = OptionScore {
            // Filled in for the few options shown: a sentence per candidate is work wasted.
            summary: String::new(),
            expected_dealt: o.dealt,
            expected_taken: danger,
            rear_attack: o.rear_attack,
            rear_exposed: false,
            cover,
            ap_kept: kept.max(0),
            total,
        };
        (Plan { first: cmd, stands: Some((dest, facing)) }, score)
    }
}
