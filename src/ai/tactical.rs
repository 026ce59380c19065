//! The default AI: a one-turn planner over reachable squares, valuing every option with the
//! rules core's exact distributions (never sampling).
//!
//! Each decision is made afresh from the battle as the creature's side perceives it: for every
//! square the creature can reach this turn (its own included) it scores the best use of the AP
//! left there (attacks, kept AP for a defense) against the danger of standing there facing the
//! main threat, and issues the first step of the best plan. Every number it weighs (dice,
//! protection, cover, rear arcs, defenses, reach) comes from the battle's query API, asked
//! "what if I stood there". Reactions: defend when the expected damage prevented is worth it,
//! with the defense that prevents most; Quick Step out of reach when that cancels a dangerous
//! attack.

use super::Reasons;
use super::clock::{rounds_since_hurt, stall_push, with_the_clock};
use super::odds::estimate_from;
use super::situation::{
    SLOPPINESS, describe, faces_this_turn, hopeless, last_of_its_side, left_this_turn, main_threat_facing, noise,
    placed, plays_sloppily, suspected_hiding_spot,
};
use super::threat::{friends_in_reach, threat};
use crate::battle::{Battle, Command, CreatureId, Explanation, OptionScore, Target, WindowKind};
use crate::level::compendium::{AbilityEffect, AiProfile};
use crate::rules::costs::{HIDE_AP, MOVE_AP};
use crate::rules::creature::Attribute;
use crate::rules::facing::Facing;
use crate::rules::grid::Pos;
use crate::rules::posture::{Posture, transition_cost};

mod choice;
mod square;
use choice::Plan;
pub(super) use choice::TurnChoice;
pub(super) use square::BestAttack;
use square::{Ctx, Offence};

/// What staying hidden is worth, times the profile's caution (an ambush not given away).
const HIDING_WORTH: f64 = 2.0;

/// Being knocked out weighs like losing this many more dice (tuned with `duel`).
const KNOCKOUT_DICE: f64 = 1.0;

/// A hopeless creature tries to flee (FLOW-5) only with at least this chance of success;
/// otherwise it fights on.
const FLEE_MIN_CHANCE: f64 = 0.25;

/// A sprint is not considered below this many Activeness dice (it costs one).
const SPRINT_MIN_ACTIVENESS: i32 = 3;

/// The Activeness die a sprint costs, in expected damage taken at the profile's caution + 0.5
/// (a die lost for sure weighs more than one that might be lost; tuned with `duel`).
const SPRINT_DIE_WEIGHT: f64 = 1.0;

/// Rounds a shooter expects to hold the square it ends on, after this one (tuned with `duel`).
const HELD_ROUNDS: f64 = 2.0;

/// Rounds of unanswered fire a creature expects where it cannot strike back (tuned with `duel`
/// and `sim`'s count of sides shot at for two rounds without moving: at 1, a side reduced to
/// melee creatures under a shooter's fire readied and waited in 9–23% of battles on four
/// levels; at 3, in 0.5–4.5%, and `normal` beat the baseline by as much or more everywhere).
const UNANSWERED_ROUNDS: f64 = 3.0;

/// Added to the profile's caution in an exchange of fire, less as a stall grows (in full at
/// none, nothing once it pushes its side fully): over several rounds every die lost
/// is also a die less to shoot back with (tuned with `duel`; 1.5 until the fifteenth session,
/// when 3.0 took The Crossing from 58.1% to 63.0% against the baseline, every other level
/// within ±1 point, with no more draws against itself there: 3.5 was as strong against the
/// baseline but drew 8.9% of The Crossing against itself, two archers outwaiting each other).
const HELD_CAUTION: f64 = 3.0;

/// The pull toward the nearest enemy per step of straight distance, beside the approach value
/// (tuned with `duel`).
const CLOSING_PER_STEP: f64 = 0.1;

/// In a stall, each walking step nearer to a square it strikes from is worth this much, times
/// the stall's push (tuned with `duel` and `sim`): the pull toward a strike two or three turns
/// away is discounted per turn, and waiting one square short scored as well as closing in, so
/// two sides out of each other's reach waited until `max_rounds`.
const STALL_STEP_WORTH: f64 = 0.15;

/// At most this many 0-AP turns toward a target in one turn: a plan that turns to strike and
/// then changes its mind must not turn back and forth forever.
const MAX_FACE_COMMANDS: usize = 2;

/// A foe its side lost sight of this round or the last is still a danger where it was seen
/// (`Battle::lately_lost`): the Mill's wolves stepped out from behind the mill into the archer's
/// sight, lost sight of everyone but a fallen fighter, weighed the squares about them as if the
/// archer were gone, stepped back into its view, saw it and stepped out again, turn after turn.
const UNSEEN_ROUNDS: u32 = 2;

/// A square whose upper bound falls this far below the last total shown (the third best weighed
/// so far, or the best when nobody reads the reasons) is not weighed further: it can be neither
/// chosen nor shown. Far above the rounding of the sums, so the choice is exactly the one
/// weighing every square makes (the tie rule's 1e-9 cannot carry a square from this far below
/// into first place).
const PRUNE_MARGIN: f64 = 1e-6;

pub fn decide(
    b: &Battle,
    me: CreatureId,
    window: Option<WindowKind>,
    p: &AiProfile,
    reasons: Reasons,
) -> (Command, Option<Explanation>) {
    match window {
        Some(WindowKind::Defense) => super::reactions::defend(b, me),
        Some(WindowKind::BeforeAttack) => (super::reactions::before_attack(b, me), None),
        Some(WindowKind::Fate) => (super::fate::answer(b, me), None),
        None => {
            let choice = ranked_turn(b, me, p, reasons);
            (choice.command, choice.explanation)
        }
    }
}

/// PERC-E4: a blade holding its ground out of its foes' sight (the side perceives none) hides
/// first, for 1 AP, wherever it stands: foes that come round the corner do not spot it from
/// afar (a bow or a spell finds nothing to aim at), and its first blow comes from a foe nobody
/// has spotted, which cannot be defended (000_5f4122b8a83d6727.txt:326). Only with the AP to
/// ready its blow after hiding (TIME-E10), or none to ready it anyway: a fighter of 3 AP keeps
/// its readied blow for the foe that walks up, and a shooter its readied shot, worth more at
/// its range than a hidden start. A sloppy player (`easy`) does not think of it. The engine
/// refuses Hide while a hostile perceives the creature, as a GM would tell a player.
fn lies_in_wait_hidden(b: &Battle, me: CreatureId, p: &AiProfile) -> bool {
    let f = b.fighter(me);
    let ready_cost = super::ready::readiable(f).map(super::ready::ready_cost).min();
    !plays_sloppily(p)
        && f.hidden.is_none()
        && f.weapons.iter().all(|w| !w.weapon.range.ranged)
        && ready_cost.is_none_or(|cost| f.ap < cost || f.ap - HIDE_AP >= cost)
        && b.check(me, &Command::Hide).is_ok()
}

pub(super) fn ranked_turn(b: &Battle, me: CreatureId, p: &AiProfile, reasons: Reasons) -> TurnChoice {
    let stall = stall_push(b, me);
    let p = &with_the_clock(b, me, p, stall);
    let f = b.fighter(me);
    let enemies = b.perceived_hostiles(f.side);
    let conscious: Vec<CreatureId> = enemies.iter().copied().filter(|&e| b.fighter(e).can_act()).collect();
    // FLOW-5: leave a hopeless fight, per profile.
    // Only with a real chance of getting away: a brute with 2 Activeness dice against a
    // difficulty of 5 spent every turn on a failed attempt while it was cut down.
    if p.self_preservation > 0.3
        && hopeless(b, me, p)
        && b.flee_chance(me) >= FLEE_MIN_CHANCE
        && b.check(me, &Command::Flee).is_ok()
    {
        return TurnChoice::only(Command::Flee);
    }
    // PERC-E4: a cautious creature in concealing terrain that nobody hostile perceives hides.
    if p.caution >= 0.8
        && f.hidden.is_none()
        && f.footprint().cells().any(|c| b.map().terrain(c).concealing)
        && b.check(me, &Command::Hide).is_ok()
    {
        return TurnChoice::only(Command::Hide);
    }
    // PERC-E4: an ambusher lying hidden with nobody in its senses waits for prey to come.
    if p.caution >= 0.8 && f.hidden.is_some() && conscious.is_empty() {
        return TurnChoice::only(Command::EndTurn);
    }
    if enemies.is_empty() {
        // PERC-7: an enemy vanished in concealing terrain nearby: search there (once a spot);
        // under 001's Hide and Spot, a Spot looks at all of them for 1 AP (once a round).
        if let Some(at) = suspected_hiding_spot(b, me) {
            let look = [Command::Spot, Command::Search { at }].into_iter().find(|c| b.check(me, c).is_ok());
            if let Some(look) = look {
                return TurnChoice::only(look);
            }
        }
        // Walking into the unknown, the last AP is kept: whoever comes into view then finds it
        // able to defend (or, readied, to shoot) rather than spent at the end of its walk.
        if f.ap <= crate::rules::costs::DEFEND_AP && f.spent_this_turn > 0 {
            return TurnChoice::only(Command::EndTurn);
        }
        // Hunting for the unseen, but not back to where it came from this turn.
        let left = left_this_turn(b, me);
        let step = super::hunt::hunting_step(b, me, stall, plays_sloppily(p));
        if matches!(step, Command::EndTurn) && lies_in_wait_hidden(b, me, p) {
            return TurnChoice::only(Command::Hide);
        }
        return TurnChoice::only(match step {
            Command::Move { path, .. } if path.last().is_some_and(|end| left.contains(end)) => Command::EndTurn,
            other => other,
        });
    }
    let field = b.reachable(me, false).ok();
    let left = left_this_turn(b, me);
    let mut dests: Vec<Pos> =
        field.as_ref().map_or_else(Vec::new, |fl| fl.destinations().filter(|d| !left.contains(d)).collect());
    if !dests.contains(&f.origin) {
        dests.push(f.origin);
    }
    dests.sort_unstable();
    let may_turn = b.ruleset().facing && faces_this_turn(b, me) < MAX_FACE_COMMANDS;
    // ATK-E1: overreach takes a ranged weapon past its range at -2 dice per multiple; beyond
    // twice it, too few dice are left to matter (DICE-4 ends it sooner for most).
    let max_reach =
        f.weapons
            .iter()
            .map(|w| {
                if w.weapon.range.ranged && b.ruleset().overreach { w.weapon.range.max * 3 } else { w.weapon.range.max }
            })
            .max()
            .unwrap_or(0);
    // TIME-16: each weapon plain, and with each additive that fits it (Power Strike).
    let variants = f
        .weapons
        .iter()
        .map(|w| {
            // Area weapons are placed by `areas::best_area`; an empty one cannot strike.
            if w.weapon.area.is_some() || w.ammo == Some(0) {
                return Vec::new();
            }
            let mut v = vec![(Vec::new(), w.weapon.ap)];
            for (key, ab) in &f.abilities {
                if let AbilityEffect::Additive { ap, melee_only, .. } = ab.effect
                    && (!melee_only || (!w.weapon.range.ranged && w.weapon.area.is_none()))
                {
                    v.push((vec![key.clone()], w.weapon.ap + ap));
                }
            }
            v
        })
        .collect();
    let strike = super::intent::strike_map(b, f, &conscious);
    let shares = conscious.iter().map(|&e| friends_in_reach(b, me, b.fighter(e))).collect();
    let unseen = b
        .lately_lost(f.side, UNSEEN_ROUNDS)
        .into_iter()
        .map(|e| {
            let share = friends_in_reach(b, me, &e);
            (e, share)
        })
        .collect();
    let under_fire = rounds_since_hurt(b, f.side) <= 1;
    let ctx = Ctx {
        b,
        me,
        f,
        p,
        enemies: &enemies,
        conscious: &conscious,
        shares,
        unseen,
        may_turn,
        under_fire,
        last_of_its_side: last_of_its_side(b, me),
        max_reach,
        variants,
        strike,
        stall,
        scratch: Default::default(),
    };
    // Every square's offence first (cheap), then its danger (the dear part: each enemy's
    // threat) in order of the most it could score, skipping squares that cannot reach the top
    // few (see `PRUNE_MARGIN`).
    let first_for = |dest: Pos| {
        let moved = dest != f.origin;
        move |facing: Facing, attack: Option<&Command>| {
            if moved {
                Command::Move { path: vec![dest], sprint: false, face: b.ruleset().facing.then_some(facing) }
            } else if let Some(cmd) = attack {
                cmd.clone()
            } else if b.ruleset().facing && facing != f.facing && may_turn {
                Command::Face { facing }
            } else {
                Command::EndTurn
            }
        }
    };
    let mut offences: Vec<Option<(Offence, f64)>> = dests
        .iter()
        .map(|&dest| {
            let ap_left = f.ap - if dest != f.origin { MOVE_AP } else { 0 };
            (ap_left >= 0).then(|| {
                let off = ctx.offence(dest, ap_left, f.posture);
                // MOVE-E8: a mount carries its rider to where the rider strikes from.
                let rider = super::mount::rider_strike(b, me, dest, &conscious, !plays_sloppily(p));
                (off, rider)
            })
        })
        .collect();
    // Only the winner and the runners-up shown in the explanation (if anyone reads it) must be
    // exact; the noise of `easy` and a look-ahead's whole ranking read every square.
    let prune = p.difficulty != 1 && p.look_ahead.candidates <= 1 && p.caution >= 0.0;
    let shown = if reasons == Reasons::Shown { 3 } else { 1 };
    let bounds: Vec<f64> =
        offences.iter().map(|o| o.as_ref().map_or(f64::NEG_INFINITY, |(o, rider)| o.upper_bound + rider)).collect();
    let walk_strikes = offences.iter().flatten().any(|(o, _)| o.dealt > 0.0);
    let mut order: Vec<usize> = (0..dests.len()).filter(|&i| offences[i].is_some()).collect();
    // (Equal bounds in either order: the pruning is exact whichever is weighed first.)
    order.sort_unstable_by(|&x, &y| bounds[y].total_cmp(&bounds[x]));
    let mut top = [f64::NEG_INFINITY; 3];
    let mut scored: Vec<Option<(Plan, OptionScore)>> = vec![None; dests.len()];
    for i in order {
        let dest = dests[i];
        if prune && dest != f.origin && bounds[i] + PRUNE_MARGIN < top[shown - 1] {
            continue;
        }
        let Some((off, rider)) = offences[i].take() else { continue };
        let (plan, mut score) = ctx.finish(off, &first_for(dest));
        score.total += rider;
        if let Some(k) = top.iter().position(|t| score.total > *t) {
            top.copy_within(k..2, k + 1);
            top[k] = score.total;
        }
        scored[i] = Some((plan, score));
    }
    let mut plans: Vec<(Plan, OptionScore)> = scored.into_iter().flatten().collect();
    // MOVE-8, MOVE-E2: a sprint doubles the move for one Activeness die. Only to strike this
    // turn when walking cannot (a die is too dear to spend on getting closer), and not when the
    // pool runs low.
    let mut sprint_field = None;
    if !walk_strikes && f.ap > MOVE_AP && f.attrs.dice(Attribute::Activeness) >= SPRINT_MIN_ACTIVENESS {
        let reach = f.weapons.iter().filter(|w| w.ammo != Some(0)).map(|w| w.weapon.range.max).max().unwrap_or(0);
        let within_reach = |d: &Pos| conscious.iter().any(|&e| b.distance_from(me, *d, e) <= reach);
        sprint_field = b.reachable(me, true).ok();
        if let Some(far) = &sprint_field {
            let mut extra: Vec<Pos> = far.destinations().filter(|d| !dests.contains(d) && within_reach(d)).collect();
            extra.sort_unstable();
            for dest in extra {
                let first = |facing: Facing, _: Option<&Command>| Command::Move {
                    path: vec![dest],
                    sprint: true,
                    face: b.ruleset().facing.then_some(facing),
                };
                let (plan, mut score) = ctx.evaluate(dest, f.ap - MOVE_AP, f.posture, &first);
                if score.expected_dealt > 0.0 {
                    score.total -= SPRINT_DIE_WEIGHT * (p.caution + 0.5);
                    plans.push((plan, score));
                }
            }
        }
    }
    // TIME-11: a long-term aimed shot, only when nobody can hurt it while it aims.
    if f.ap == f.max_ap {
        for w in f.weapons.iter().filter(|w| w.weapon.ap > f.max_ap && w.weapon.area.is_none() && w.ammo != Some(0)) {
            let facing = main_threat_facing(b, f, f.origin, &conscious);
            let here = placed(f, f.origin, facing);
            let danger: f64 = conscious.iter().map(|&e| threat(b, f, here, b.fighter(e)).any).sum();
            if danger > 0.3 {
                continue;
            }
            for &e in &conscious {
                let cmd = Command::Attack { weapon: w.key.clone(), target: Target::Creature(e), additives: vec![] };
                if b.check(me, &cmd).is_err() {
                    continue;
                }
                let Ok(engagement) = b.engage(me, f.placement(), e, b.fighter(e).placement()) else { continue };
                if let Some(est) = estimate_from(b, &engagement, w, &[], b.fighter(e), !plays_sloppily(p)) {
                    let score = OptionScore {
                        summary: describe(b, &cmd),
                        expected_dealt: est.expected,
                        expected_taken: danger,
                        rear_attack: est.rear,
                        rear_exposed: false,
                        cover: false,
                        ap_kept: 0,
                        // Spread over the two turns it takes.
                        total: (est.expected + p.focus_fire * 3.0 * est.ko_chance) * 0.5 * f.max_ap as f64 / 1.5,
                    };
                    plans.push((Plan { first: cmd, stands: None }, score));
                }
            }
        }
    }
    // POST-E1 / POST-E3: a ranged creature may crouch where it stands: +1 protection against
    // ranged attacks, for 1 AP (the higher of posture and terrain cover counts). Only when it
    // has nothing to shoot at from here this turn: a shot beats shelter.
    let ranged = f.weapons.iter().any(|w| w.weapon.range.ranged && w.weapon.area.is_none());
    let cost = transition_cost(f.posture, Posture::Crouch, b.ruleset().posture_costs);
    let can_shoot = plans.iter().any(|(p, _)| matches!(p.first, Command::Attack { .. }));
    if b.ruleset().postures
        && ranged
        && !can_shoot
        && f.posture == Posture::Standing
        && f.ap > cost
        && !plays_sloppily(p)
    {
        let crouch = Command::ChangePosture { posture: Posture::Crouch };
        plans.push(ctx.evaluate(f.origin, f.ap - cost, Posture::Crouch, &|_, _| crouch.clone()));
    }
    // POST-2: a creature on the ground (healed where it fell, or put down) weighs standing up:
    // everything it does from there is weighed standing, for the AP left.
    let stand_cost = transition_cost(f.posture, Posture::Standing, b.ruleset().posture_costs);
    if b.ruleset().postures
        && matches!(f.posture, Posture::Prone | Posture::Lying)
        && f.riding.is_none()
        && f.ap >= stand_cost
    {
        let stand = Command::ChangePosture { posture: Posture::Standing };
        plans.push(ctx.evaluate(f.origin, f.ap - stand_cost, Posture::Standing, &|_, _| stand.clone()));
    }
    // Difficulty 1 plays sloppily: deterministic noise (from the battle's seed and the
    // creature's own progress — never from events its side cannot see — so replays stay exact)
    // of up to ±SLOPPINESS expected dice of damage on every option.
    if plays_sloppily(p) {
        let step = (u64::from(b.round()) << 32) | ((f.ap.max(0) as u64) << 16) | u64::from(me);
        for (k, (_, score)) in plans.iter_mut().enumerate() {
            score.total += SLOPPINESS * noise(b.seed(), step, k as u64);
        }
    }
    // Ties keep the earliest candidate, the squares in order (the origin sorted among them): a
    // `max_by` would take the last, a bias toward the map's far corner. Putting the origin
    // first (no walking for nothing) was measured and left: within noise on ten levels, 0.2
    // points more draws on the skirmish.
    let command = |plan: &Plan| plan.command(field.as_ref(), sprint_field.as_ref());
    let Some(best) = plans
        .iter()
        .fold(None::<&(Plan, OptionScore)>, |acc, x| match acc {
            Some(a) if a.1.total + 1e-9 >= x.1.total => Some(a),
            _ => Some(x),
        })
        .map(|(p, _)| command(p))
    else {
        return TurnChoice::only(Command::EndTurn);
    };
    // Only fallen enemies in sight and nothing worth doing here: go looking for the rest.
    let best = if conscious.is_empty() && !matches!(best, Command::Attack { .. }) {
        super::hunting_goal(b, me, &[])
            .and_then(|goal| super::approach(b, me, goal))
            .filter(|c| !matches!(c, Command::Move { path, .. } if path.last().is_some_and(|end| left.contains(end))))
            .unwrap_or(best)
    } else {
        best
    };
    // Best first, ties in the order weighed (a stable sort of indices: moving the plans
    // themselves was ~2% of a battle).
    let mut order: Vec<usize> = (0..plans.len()).collect();
    order.sort_by(|&x, &y| plans[y].1.total.total_cmp(&plans[x].1.total));
    // Only a look-ahead reads the ranking (a quadratic dedup otherwise spent for nothing).
    let mut ranked = vec![best.clone()];
    if p.look_ahead.candidates > 1 {
        for &i in &order {
            let c = command(&plans[i].0);
            if !ranked.contains(&c) {
                ranked.push(c);
            }
        }
    }
    let options: Vec<OptionScore> = order
        .iter()
        .take(shown)
        .map(|&i| {
            let (plan, score) = &plans[i];
            let rear_exposed = plan.stands.is_some_and(|(at, facing)| ctx.rear_exposed(at, facing));
            OptionScore { summary: describe(b, &command(plan)), rear_exposed, ..score.clone() }
        })
        .collect();
    TurnChoice { command: best, explanation: Some(Explanation { creature: me, options, look_ahead: None }), ranked }
}
