//! The default AI: a one-turn planner over reachable squares, valuing every option with the
//! rules core's exact distributions (never sampling).
//!
//! Each decision is made afresh from the battle as the creature's side perceives it: for every
//! square the creature can reach this turn (its own included) it scores the best use of the AP
//! left there (attacks, kept AP for a defense) against the danger of standing there facing the
//! main threat, and issues the first step of the best plan. Reactions: defend when the expected
//! damage prevented is worth it, with the defense that prevents most; Quick Step out of reach
//! when that cancels a dangerous attack.

use super::{Explanation, OptionScore, perceived_enemies};
use crate::battle::{Battle, Command, CreatureId, Fighter, Target, WindowKind};
use crate::level::compendium::{AbilityEffect, AiProfile, AreaSpec};
use crate::rules::attack::{AttackOdds, DamageModifiers, Defense, damage_distribution, range_dice_modifier};
use crate::rules::costs::{DEFEND_AP, MOVE_AP};
use crate::rules::creature::Attribute;
use crate::rules::dice::points_distribution;
use crate::rules::facing::{Actor, Facing, Sector, sector_for};
use crate::rules::grid::{Footprint, Pos, footprint_distance};
use crate::rules::los::{line_of_effect, sight_line};
use crate::rules::movement::{Mover, reachable};
use crate::rules::posture::{Posture, cover_bonus};
use std::cell::RefCell;
use std::collections::HashMap;

/// Expected damage and P(damage ≥ k) for the attacks the AI weighs, memoised: the same few
/// (dice, protection, defense) triples recur thousands of times a battle.
#[derive(Clone, Copy)]
struct Odds {
    expected: f64,
    hit: f64,
}

/// (dice, segments, protection, defense dice) → odds and the tail P(damage ≥ k).
type OddsMemo = HashMap<(i32, u32, i32, i32), (Odds, Vec<f64>)>;

thread_local! {
    static MEMO: RefCell<OddsMemo> = RefCell::new(HashMap::new());
}

fn odds(dice: i32, segments: u32, protection: i32, defense: i32, at_least: i32) -> (Odds, f64) {
    MEMO.with_borrow_mut(|m| {
        let key = (dice.max(0), segments, protection, defense.max(0));
        let (o, tail) = m.entry(key).or_insert_with(|| {
            let d = damage_distribution(&AttackOdds {
                dice: key.0,
                segments,
                protection,
                defense_dice: key.3,
                modifiers: DamageModifiers::default(),
            });
            // tail[k] = P(damage ≥ k)
            let mut tail = vec![0.0; d.distribution.len() + 1];
            for k in (0..d.distribution.len()).rev() {
                tail[k] = tail[k + 1] + d.distribution[k];
            }
            (Odds { expected: d.expected_damage, hit: d.hit_chance }, tail)
        });
        let p = tail.get(at_least.max(0) as usize).copied().unwrap_or(0.0);
        (*o, p)
    })
}

/// The defense a creature would roll against an attack allowing `allowed`: (kind, dice).
pub fn best_defense_dice(f: &Fighter, allowed: &[Defense]) -> Option<(Defense, i32)> {
    allowed
        .iter()
        .map(|&d| {
            let bonus = if d == Defense::Block { f.block_bonus() } else { 0 };
            (d, crate::rules::attack::defense_dice(&f.attrs, d, f.posture.roll_penalty()) + bonus)
        })
        .max_by_key(|&(d, n)| (n, -(d as i32)))
}

/// The value of one attack by `me` standing at `from` on `target`, or None if impossible from
/// there. Counts the target's likely defense, its rear arc, cover, range penalties.
struct AttackEstimate {
    expected: f64,
    ko_chance: f64,
    rear: bool,
}

fn estimate_attack(
    b: &Battle,
    me: &Fighter,
    from: Pos,
    weapon: &crate::battle::state::Armed,
    target: &Fighter,
    extra_dice: i32,
) -> Option<AttackEstimate> {
    let w = &weapon.weapon;
    if w.area.is_some() || weapon.ammo == Some(0) {
        return None;
    }
    let mf = Footprint::new(from, me.size.footprint());
    let tf = target.footprint();
    let d = footprint_distance(mf, tf);
    let modifier = range_dice_modifier(w.range, d, b.ruleset.overreach).ok()?;
    if d > 1 && !mf.cells().any(|x| tf.cells().any(|y| line_of_effect(&b.map, x, y))) {
        return None;
    }
    let base = w.dice.dice_for(&me.attrs);
    let dice = base + modifier + extra_dice - if b.ruleset.postures { me.posture.roll_penalty() } else { 0 };
    if dice <= 0 {
        return None;
    }
    let adjacent = d <= 1;
    let cover = if adjacent { 0 } else { i32::from(tf.cells().any(|c| sight_line(&b.map, from, c).cover)) };
    let protection = w.damage.map_or(0, |k| {
        let p = target.protection.against(k) + cover_bonus(cover, target.posture, w.range.ranged);
        if p > 0 { (p - w.penetration).max(0) } else { p }
    });
    let rear = b.ruleset.facing
        && sector_for(tf, target.facing, b.ruleset.facing_arcs, mf, Actor::Attacker) == Some(Sector::Rear);
    let defends = !rear && !w.defenses.is_empty() && target.ap >= DEFEND_AP && !target.attrs.is_unconscious();
    let defense = if defends { best_defense_dice(target, &w.defenses).map_or(0, |(_, n)| n) } else { 0 };
    let weakest = w.targets.iter().filter_map(|a| target.attrs.pool(*a)).map(|p| p.current).max().unwrap_or(0);
    let (o, ko) = odds(dice, w.segments, protection, defense, weakest.max(1));
    if target.attrs.is_unconscious() {
        // FLOW-7: any hit finishes it; worth little while anyone else still fights (no focus
        // bonus: it is already out of the fight).
        return Some(AttackEstimate { expected: o.hit * 0.3, ko_chance: 0.0, rear });
    }
    Some(AttackEstimate { expected: o.expected, ko_chance: ko, rear })
}

/// Expected damage `enemy` could deal to `me` standing at `at` next round, if it can get there:
/// counting its move, its best weapon, and whether our rear faces it.
#[derive(Clone, Copy, Default)]
struct Threat {
    /// With its best weapon.
    any: f64,
    /// With its best ranged weapon: the part that stays while both sides hold their ground.
    ranged: f64,
}

fn threat(b: &Battle, me: &Fighter, at: Pos, facing: Facing, posture: Posture, enemy: &Fighter) -> Threat {
    let mut best = Threat::default();
    if !enemy.can_act() {
        return best;
    }
    let mf = Footprint::new(at, me.size.footprint());
    let d = footprint_distance(enemy.footprint(), mf);
    for w in &enemy.weapons {
        if w.weapon.area.is_some() || w.ammo == Some(0) || w.weapon.ap > enemy.max_ap {
            continue;
        }
        // Moves it can make and still attack.
        let moves = (enemy.max_ap - w.weapon.ap).max(0);
        let reach = w.weapon.range.max + enemy.speed * moves;
        if d > reach + if w.weapon.range.ranged { w.weapon.range.max } else { 0 } {
            continue;
        }
        let dice = w.weapon.dice.dice_for(&enemy.attrs);
        let rear = b.ruleset.facing
            && sector_for(mf, facing, b.ruleset.facing_arcs, enemy.footprint(), Actor::Attacker) == Some(Sector::Rear);
        let my_defense = if rear { 0 } else { best_defense_dice(me, &w.weapon.defenses).map_or(0, |(_, n)| n) };
        // ATK-E5: a square sheltered from this enemy by a low wall or a corner adds protection.
        let cover = if d > 1 { i32::from(mf.cells().any(|c| sight_line(&b.map, enemy.origin, c).cover)) } else { 0 };
        let protection = w
            .weapon
            .damage
            .map_or(0, |k| me.protection.against(k) + cover_bonus(cover, posture, w.weapon.range.ranged));
        let (o, _) = odds(dice, w.weapon.segments, protection, my_defense, 1);
        // Attacks it can fit in its AP.
        let attacks = if d <= w.weapon.range.max { (enemy.max_ap / w.weapon.ap.max(1)).max(1) } else { 1 };
        let expected = o.expected * attacks as f64;
        best.any = best.any.max(expected);
        if w.weapon.range.ranged {
            best.ranged = best.ranged.max(expected);
        }
    }
    best
}

/// A creature whose best weapon shoots (a spearman with a javelin is not a shooter).
fn is_shooter(f: &Fighter) -> bool {
    let dice = |ranged: bool| {
        f.weapons
            .iter()
            .filter(|w| w.weapon.range.ranged == ranged && w.weapon.area.is_none() && w.ammo != Some(0))
            .map(|w| w.weapon.dice.dice_for(&f.attrs))
            .max()
    };
    match (dice(true), dice(false)) {
        (Some(shot), Some(blow)) => shot > blow,
        (shot, _) => shot.is_some(),
    }
}

/// Where the creature should look from `at`: the nearest conscious enemy (ties: strongest).
fn main_threat_facing(b: &Battle, me: &Fighter, at: Pos, enemies: &[CreatureId]) -> Facing {
    let mf = Footprint::new(at, me.size.footprint());
    enemies
        .iter()
        .map(|&e| b.fighter(e))
        .filter(|e| e.can_act())
        .min_by_key(|e| (footprint_distance(mf, e.footprint()), e.id))
        .map_or(me.facing, |e| Facing::toward_footprint(mf, e.footprint()))
}

/// How much a kept AP may be worth per point of danger at a square (tuned with `duel`).
const GUARD_PER_DANGER: f64 = 10.0;

/// A sprint is not considered below this many Activeness dice (it costs one).
const SPRINT_MIN_ACTIVENESS: i32 = 3;

/// The Activeness die a sprint costs, in expected damage taken at the profile's caution + 0.5
/// (a die lost for sure weighs more than one that might be lost; tuned with `duel`).
const SPRINT_DIE_WEIGHT: f64 = 1.0;

/// Rounds a shooter expects to hold the square it ends on, after this one (tuned with `duel`).
const HELD_ROUNDS: f64 = 2.0;

/// Added to the profile's caution in an exchange of fire: over several rounds every die lost
/// is also a die less to shoot back with (tuned with `duel`).
const HELD_CAUTION: f64 = 1.5;

/// The first step of a scored plan for the rest of this turn.
#[derive(Clone, Debug)]
struct Plan {
    first: Command,
}

pub fn decide(b: &Battle, me: CreatureId, window: Option<WindowKind>, p: &AiProfile) -> (Command, Option<Explanation>) {
    match window {
        Some(WindowKind::Defense) => defend(b, me),
        Some(WindowKind::BeforeAttack) => (before_attack(b, me), None),
        None => turn(b, me, p),
    }
}

/// ATK-11: defend when it prevents damage worth the AP, with the defense preventing most.
fn defend(b: &Battle, me: CreatureId) -> (Command, Option<Explanation>) {
    let f = b.fighter(me);
    let none = (Command::Defend { defense: None }, None);
    let Some((_, after)) = b.pending_segment() else { return none };
    let Some(allowed) = b.flow_defenses() else { return none };
    let mut options: Vec<(f64, Defense)> = allowed
        .iter()
        .map(|&d| {
            let bonus = if d == Defense::Block { f.block_bonus() } else { 0 };
            let dice = crate::rules::attack::defense_dice(&f.attrs, d, f.posture.roll_penalty()) + bonus;
            let dist = points_distribution(dice);
            // Expected damage prevented: E[min(defense points, damage that would land)].
            let prevented: f64 = dist.iter().enumerate().map(|(k, q)| (k as i32).min(after) as f64 * q).sum();
            (prevented, d)
        })
        .collect();
    options.sort_by(|a, b| b.0.total_cmp(&a.0).then((a.1 as i32).cmp(&(b.1 as i32))));
    let explain = Explanation {
        creature: me,
        options: options
            .iter()
            .map(|&(prevented, d)| OptionScore {
                summary: format!("{d:?} against {after}"),
                expected_dealt: 0.0,
                expected_taken: after as f64 - prevented,
                rear_attack: false,
                rear_exposed: false,
                cover: false,
                ap_kept: f.ap - DEFEND_AP,
                total: prevented,
            })
            .collect(),
    };
    match options.first() {
        // Any AP left is only good for reactions until our next turn starts: spend it.
        Some(&(prevented, d)) if prevented > 0.05 => (Command::Defend { defense: Some(d) }, Some(explain)),
        _ => (Command::Defend { defense: None }, Some(explain)),
    }
}

/// TIME-14: Quick Step out of reach when that cancels the attack.
fn before_attack(b: &Battle, me: CreatureId) -> Command {
    let f = b.fighter(me);
    let Some(reach) = b.flow_reach() else { return Command::Pass };
    let Some(attacker) = b.flow_attacker() else { return Command::Pass };
    if f.has_ability(|e| matches!(e, AbilityEffect::QuickStep { .. })).is_some() {
        let a = b.fighter(attacker);
        let mut steps: Vec<Pos> = (-1..=1)
            .flat_map(|dx| (-1..=1).map(move |dy| (dx, dy)))
            .filter(|&d| d != (0, 0))
            .map(|(dx, dy)| f.origin.offset(dx, dy))
            .filter(|&p| footprint_distance(Footprint::new(p, f.size.footprint()), a.footprint()) > reach)
            .collect();
        steps.sort();
        for to in steps {
            let face = Facing::toward_footprint(Footprint::new(to, f.size.footprint()), a.footprint());
            let cmd = Command::QuickStep { to, face: b.ruleset.facing.then_some(face) };
            if b.check(me, &cmd).is_ok() {
                return cmd;
            }
        }
    }
    // TIME-13: counter when our strike is worth more than what a defense would prevent (a
    // counter is our one reaction in this chain: no defense after it).
    if let Some((_, ab)) = f.has_ability(|e| matches!(e, AbilityEffect::CounterAttack { .. }))
        && let AbilityEffect::CounterAttack { ap } = ab.effect
        && f.ap >= ap
        && let Some((dice, segments, protection, defenses)) = b.flow_target_odds()
    {
        let a = b.fighter(attacker);
        let my_defense = best_defense_dice(f, &defenses).map_or(0, |(_, n)| n);
        let prevented = odds(dice, segments, protection, 0, 1).0.expected
            - odds(dice, segments, protection, my_defense, 1).0.expected;
        let counter = f
            .weapons
            .iter()
            .filter(|w| !w.weapon.range.ranged && w.weapon.area.is_none())
            .filter_map(|w| Some((estimate_attack(b, f, f.origin, w, a, 0)?.expected, w.key.clone())))
            .max_by(|x, y| x.0.total_cmp(&y.0));
        if let Some((value, weapon)) = counter
            && value > prevented
        {
            let cmd = Command::CounterAttack { weapon };
            if b.check(me, &cmd).is_ok() {
                return cmd;
            }
        }
    }
    Command::Pass
}

fn turn(b: &Battle, me: CreatureId, p: &AiProfile) -> (Command, Option<Explanation>) {
    let f = b.fighter(me);
    let enemies = perceived_enemies(b, me);
    let conscious: Vec<CreatureId> = enemies.iter().copied().filter(|&e| b.fighter(e).can_act()).collect();
    // FLOW-5: leave a hopeless fight, per profile.
    if p.self_preservation > 0.3 && hopeless(b, me, p) && b.check(me, &Command::Flee).is_ok() {
        return (Command::Flee, None);
    }
    // PERC-E4: a cautious creature in concealing terrain that nobody hostile perceives hides.
    if p.caution >= 0.8
        && f.hidden.is_none()
        && f.footprint().cells().any(|c| b.map.terrain(c).concealing)
        && b.check(me, &Command::Hide).is_ok()
    {
        return (Command::Hide, None);
    }
    if enemies.is_empty() {
        // PERC-7: an enemy vanished in concealing terrain nearby: search there (once a spot).
        if let Some(at) = suspected_hiding_spot(b, me)
            && b.check(me, &Command::Search { at }).is_ok()
        {
            return (Command::Search { at }, None);
        }
        return (super::baseline(b, me, None), None);
    }
    let mover = Mover { size: f.size, speed: f.speed, sprint: false, posture: f.posture };
    let occupancy = b.occupancy_for(me);
    let field = if f.ap >= MOVE_AP { reachable(&b.map, Some(&occupancy), &mover, f.origin).ok() } else { None };
    let mut dests: Vec<Pos> = field.as_ref().map_or_else(Vec::new, |fl| fl.destinations().collect());
    if !dests.contains(&f.origin) {
        dests.push(f.origin);
    }
    dests.sort();
    let ctx = Ctx { b, me, f, p, enemies: &enemies, conscious: &conscious };
    let mut plans: Vec<(Plan, OptionScore)> = Vec::new();
    for &dest in &dests {
        let moved = dest != f.origin;
        let ap_left = f.ap - if moved { MOVE_AP } else { 0 };
        if ap_left < 0 {
            continue;
        }
        let first = |facing: Facing, attack: Option<&Command>| {
            if moved {
                let path = field.as_ref().and_then(|fl| fl.path_to(dest)).unwrap_or_default();
                Command::Move { path, sprint: false, face: b.ruleset.facing.then_some(facing) }
            } else if let Some(cmd) = attack {
                cmd.clone()
            } else if b.ruleset.facing && facing != f.facing {
                Command::Face { facing }
            } else {
                Command::EndTurn
            }
        };
        plans.push(ctx.evaluate(dest, ap_left, f.posture, &first));
    }
    // MOVE-8, MOVE-E2: a sprint doubles the move for one Activeness die. Only to strike this
    // turn when walking cannot (a die is too dear to spend on getting closer), and not when the
    // pool runs low.
    let walk_strikes = plans.iter().any(|(_, s)| s.expected_dealt > 0.0);
    if !walk_strikes && f.ap > MOVE_AP && f.attrs.dice(Attribute::Activeness) >= SPRINT_MIN_ACTIVENESS {
        let sprinter = Mover { sprint: true, ..mover };
        let reach = f.weapons.iter().filter(|w| w.ammo != Some(0)).map(|w| w.weapon.range.max).max().unwrap_or(0);
        let within_reach = |d: &Pos| {
            let df = Footprint::new(*d, f.size.footprint());
            conscious.iter().any(|&e| footprint_distance(df, b.fighter(e).footprint()) <= reach)
        };
        if let Ok(far) = reachable(&b.map, Some(&occupancy), &sprinter, f.origin) {
            let mut extra: Vec<Pos> = far.destinations().filter(|d| !dests.contains(d) && within_reach(d)).collect();
            extra.sort();
            for dest in extra {
                let first = |facing: Facing, _: Option<&Command>| Command::Move {
                    path: far.path_to(dest).unwrap_or_default(),
                    sprint: true,
                    face: b.ruleset.facing.then_some(facing),
                };
                let (plan, mut score) = ctx.evaluate(dest, f.ap - MOVE_AP, f.posture, &first);
                if score.expected_dealt > 0.0 {
                    score.total -= SPRINT_DIE_WEIGHT * (p.caution + 0.5);
                    score.summary = format!("sprint {}", score.summary);
                    plans.push((plan, score));
                }
            }
        }
    }
    // POST-E1 / POST-E3: a ranged creature may crouch where it stands: +1 protection against
    // ranged attacks, for 1 AP (the higher of posture and terrain cover counts).
    let ranged = f.weapons.iter().any(|w| w.weapon.range.ranged && w.weapon.area.is_none());
    let cost = crate::rules::posture::transition_cost(f.posture, Posture::Crouch, b.ruleset.posture_costs);
    // TIME-11: a long-term aimed shot, only when nobody can hurt it while it aims.
    if f.ap == f.max_ap {
        for w in f.weapons.iter().filter(|w| w.weapon.ap > f.max_ap && w.weapon.area.is_none() && w.ammo != Some(0)) {
            let facing = main_threat_facing(b, f, f.origin, &conscious);
            let danger: f64 =
                conscious.iter().map(|&e| threat(b, f, f.origin, facing, f.posture, b.fighter(e)).any).sum();
            if danger > 0.3 {
                continue;
            }
            for &e in &conscious {
                if let Some(est) = estimate_attack(b, f, f.origin, w, b.fighter(e), 0) {
                    let cmd = Command::Attack { weapon: w.key.clone(), target: Target::Creature(e), additives: vec![] };
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
                    plans.push((Plan { first: cmd }, score));
                }
            }
        }
    }
    // Only when it has nothing to shoot at from here this turn: a shot beats shelter.
    let can_shoot = plans.iter().any(|(p, _)| matches!(p.first, Command::Attack { .. }));
    if b.ruleset.postures && ranged && !can_shoot && f.posture == Posture::Standing && f.ap > cost {
        let crouch = Command::ChangePosture { posture: Posture::Crouch };
        plans.push(ctx.evaluate(f.origin, f.ap - cost, Posture::Crouch, &|_, _| crouch.clone()));
    }
    // Difficulty 1 plays sloppily: deterministic noise (from the battle's seed and progress, so
    // replays stay exact) of up to ±1 expected die of damage on every option.
    if p.difficulty == 1 {
        for (k, (_, score)) in plans.iter_mut().enumerate() {
            score.total += noise(b.seed, b.log.len() as u64, k as u64);
        }
    }
    // Ties keep the earliest candidate (staying put comes before squares in order): a `max_by`
    // would take the last, a bias toward the map's far corner.
    let Some(best) = plans
        .iter()
        .fold(None::<&(Plan, OptionScore)>, |acc, x| match acc {
            Some(a) if a.1.total + 1e-9 >= x.1.total => Some(a),
            _ => Some(x),
        })
        .map(|(p, _)| p.first.clone())
    else {
        return (Command::EndTurn, None);
    };
    // Only fallen enemies in sight and nothing worth doing here: go looking for the rest.
    let best = if conscious.is_empty() && matches!(best, Command::EndTurn | Command::Face { .. }) {
        super::hunting_goal(b, me, &[]).and_then(|goal| super::approach(b, me, goal)).unwrap_or(best)
    } else {
        best
    };
    let mut options: Vec<OptionScore> = plans.into_iter().map(|(_, s)| s).collect();
    options.sort_by(|a, b| b.total.total_cmp(&a.total));
    options.truncate(3);
    (best, Some(Explanation { creature: me, options }))
}

/// What a turn decision looks at.
struct Ctx<'a> {
    b: &'a Battle,
    me: CreatureId,
    f: &'a Fighter,
    p: &'a AiProfile,
    enemies: &'a [CreatureId],
    conscious: &'a [CreatureId],
}

impl Ctx<'_> {
    /// Score standing at `dest` with `ap_left` and `posture` for the rest of the turn; `first`
    /// builds the first command given the facing and the best attack (if one is planned).
    fn evaluate(
        &self,
        dest: Pos,
        ap_left: i32,
        posture: Posture,
        first: &dyn Fn(Facing, Option<&Command>) -> Command,
    ) -> (Plan, OptionScore) {
        let (b, f, p) = (self.b, self.f, self.p);
        let moved = dest != f.origin;
        let facing = main_threat_facing(b, f, dest, self.conscious);
        // The best attack from here, on anyone we perceive.
        let mut attack: Option<(f64, f64, bool, Command, i32)> = None;
        // The best plain ranged shot per AP from here, for holding the square (below).
        let mut held_offence: f64 = 0.0;
        for &e in self.enemies {
            let t = b.fighter(e);
            for w in &f.weapons {
                // TIME-16: each weapon plain, and with each additive that fits it (Power Strike).
                let mut variants = vec![(Vec::new(), 0, w.weapon.ap)];
                for (key, ab) in &f.abilities {
                    if let AbilityEffect::Additive { ap, dice, melee_only } = ab.effect
                        && (!melee_only || (!w.weapon.range.ranged && w.weapon.area.is_none()))
                    {
                        variants.push((vec![key.clone()], dice, w.weapon.ap + ap));
                    }
                }
                for (additives, extra, cost) in variants {
                    let holdable = w.weapon.range.ranged && additives.is_empty() && cost <= f.max_ap;
                    if cost > ap_left && !holdable {
                        continue;
                    }
                    let Some(est) = estimate_attack(b, f, dest, w, t, extra) else { continue };
                    let value = est.expected + p.focus_fire * 3.0 * est.ko_chance + if est.rear { 0.2 } else { 0.0 };
                    if holdable {
                        held_offence = held_offence.max(est.expected / cost.max(1) as f64);
                    }
                    if cost > ap_left {
                        continue;
                    }
                    // Compared per AP, so a 2-AP strike must beat two plain ones.
                    let per_ap = value / cost.max(1) as f64;
                    if attack.as_ref().is_none_or(|a| per_ap > a.0 / a.4.max(1) as f64) {
                        let cmd = Command::Attack { weapon: w.key.clone(), target: Target::Creature(e), additives };
                        attack = Some((value, est.expected, est.rear, cmd, cost));
                    }
                }
            }
        }
        // Area attacks are placed on perceived enemies (and their neighbours).
        if !moved
            && let Some((value, cmd, ap)) = best_area(b, self.me, ap_left)
            && attack.as_ref().is_none_or(|a| value > a.0)
        {
            attack = Some((value, value, false, cmd, ap));
        }
        let (attack_value, dealt, rear_attack, attacks) = match &attack {
            Some((v, dealt, rear, _, ap)) => {
                let n = ap_left / (*ap).max(1);
                (*v * n as f64, *dealt * n as f64, *rear, n)
            }
            None => (0.0, 0.0, false, 0),
        };
        let threats: Vec<Threat> =
            self.conscious.iter().map(|&e| threat(b, f, dest, facing, posture, b.fighter(e))).collect();
        let danger: f64 = threats.iter().map(|t| t.any).sum();
        // A one-turn horizon makes a shooter trade a shot now for nothing later, so it stood in
        // the open beside the wall that would shelter it. A shooter expects to hold the square
        // it ends on for a couple of rounds of exchanging fire with the enemy's shooters: those
        // rounds count at full AP, against their ranged threat only (melee threats move; they
        // are this turn's danger above), and a die lost in such an exchange weighs more than
        // the profile's caution says, since it is also fire not returned.
        let holding = if is_shooter(f) {
            let held_danger: f64 = threats.iter().map(|t| t.ranged).sum();
            HELD_ROUNDS * (held_offence * f.max_ap as f64 - (p.caution + HELD_CAUTION) * held_danger)
        } else {
            0.0
        };
        let spare = ap_left - attacks * attack.as_ref().map_or(1, |a| a.4);
        // A kept AP is worth what a defense could prevent here, capped by this square's danger
        // (uncapped, both sides wait for each other forever; capped at 1×, walls-and-cover
        // play suffered: measured with `duel`, see README).
        let guard = best_defense_dice(f, &[Defense::Block, Defense::Dodge, Defense::Resist])
            .map_or(0.0, |(_, n)| (n as f64 * 0.5).min(danger * GUARD_PER_DANGER));
        let defense_value = if spare >= DEFEND_AP { guard } else { 0.0 };
        // Keeping the last AP for a defense may beat spending it on one more attack.
        let alt_keep = if attacks >= 1 { attack_value / attacks as f64 * (attacks - 1) as f64 + guard } else { 0.0 };
        let keep_one = alt_keep > attack_value + defense_value;
        let planned = if keep_one { attacks - 1 } else { attacks };
        let offence = (attack_value + defense_value).max(alt_keep);
        let mf = Footprint::new(dest, f.size.footprint());
        let nearest =
            self.conscious.iter().map(|&e| footprint_distance(mf, b.fighter(e).footprint())).min().unwrap_or(0);
        // Squares from which an attack is possible next turn are worth part of that attack.
        let potential = if attacks == 0 {
            self.conscious
                .iter()
                .map(|&e| {
                    let t = b.fighter(e);
                    let d = footprint_distance(mf, t.footprint());
                    f.weapons
                        .iter()
                        .filter(|w| w.weapon.area.is_none() && w.ammo != Some(0) && w.weapon.ap <= f.max_ap)
                        .filter(|w| d <= w.weapon.range.max + f.speed * (f.max_ap - w.weapon.ap))
                        .map(|w| {
                            let dice = w.weapon.dice.dice_for(&f.attrs);
                            let prot = w.weapon.damage.map_or(0, |k| t.protection.against(k));
                            odds(dice, w.weapon.segments, prot, 0, 1).0.expected
                        })
                        .fold(0.0, f64::max)
                })
                .fold(0.0, f64::max)
        } else {
            0.0
        };
        let closing = p.aggression * (0.6 * potential - 0.1 * nearest as f64);
        let total = offence - p.caution * danger + closing + holding;
        let planned_attack = attack.as_ref().filter(|a| a.0 > 0.05 && planned >= 1).map(|a| &a.3);
        let cmd = first(facing, planned_attack);
        let cover = self.conscious.iter().any(|&e| {
            let en = b.fighter(e);
            footprint_distance(en.footprint(), mf) > 1 && mf.cells().any(|c| sight_line(&b.map, en.origin, c).cover)
        });
        let rear_exposed = self.conscious.iter().any(|&e| {
            b.ruleset.facing
                && sector_for(mf, facing, b.ruleset.facing_arcs, b.fighter(e).footprint(), Actor::Attacker)
                    == Some(Sector::Rear)
        });
        let score = OptionScore {
            summary: describe(b, &cmd),
            expected_dealt: dealt,
            expected_taken: danger,
            rear_attack,
            rear_exposed,
            cover,
            ap_kept: if keep_one { spare.max(0) + 1 } else { spare.max(0) },
            total,
        };
        (Plan { first: cmd }, score)
    }
}

fn describe(b: &Battle, c: &Command) -> String {
    match c {
        Command::Move { path, .. } => format!("move to {}", path.last().copied().unwrap_or_default()),
        Command::Attack { weapon, target: Target::Creature(t), .. } => {
            format!("{weapon} on {}", b.fighter(*t).name)
        }
        Command::Attack { weapon, target: Target::Square(p), .. } => format!("{weapon} at {p}"),
        Command::Attack { weapon, target: Target::Toward(f), .. } => format!("{weapon} toward {}", f.name()),
        Command::ChangePosture { posture } => format!("take posture {}", posture.name()),
        Command::Face { facing } => format!("face {}", facing.name()),
        Command::EndTurn => "end turn".into(),
        other => format!("{other:?}"),
    }
}

/// The best placement of an area weapon usable now: expected damage to enemies minus 1.5 × to
/// friends (each creature's own protection, no defense assumed for friends).
fn best_area(b: &Battle, me: CreatureId, ap: i32) -> Option<(f64, Command, i32)> {
    let f = b.fighter(me);
    let mut best: Option<(f64, Command, i32)> = None;
    for w in f.weapons.iter().filter(|w| w.weapon.area.is_some() && w.weapon.ap <= ap && w.ammo != Some(0)) {
        let area = w.weapon.area.as_ref().expect("area");
        let targets: Vec<Target> = match area {
            AreaSpec::Circle { .. } | AreaSpec::Ring { .. } => {
                let mut squares: Vec<Pos> = Vec::new();
                for e in perceived_enemies(b, me) {
                    let o = b.fighter(e).origin;
                    for dy in -1..=1 {
                        for dx in -1..=1 {
                            squares.push(o.offset(dx, dy));
                        }
                    }
                }
                squares.sort();
                squares.dedup();
                squares.into_iter().map(Target::Square).collect()
            }
            _ => Facing::ALL.iter().map(|&d| Target::Toward(d)).collect(),
        };
        for target in targets {
            let cmd = Command::Attack { weapon: w.key.clone(), target, additives: vec![] };
            let Some(hit) = b.area_targets(me, &cmd) else { continue };
            let mut value = 0.0;
            for t in hit {
                let tf = b.fighter(t);
                let dice = w.weapon.dice.dice_for(&f.attrs);
                let prot = w.weapon.damage.map_or(0, |k| tf.protection.against(k));
                let (o, _) = odds(dice, w.weapon.segments, prot, 0, 1);
                if b.hostile(me, t) {
                    value += if tf.can_act() { o.expected } else { 0.0 };
                } else {
                    value -= 1.5 * o.expected;
                }
            }
            if value > 0.0 && best.as_ref().is_none_or(|x| value > x.0) {
                best = Some((value, cmd, w.weapon.ap));
            }
        }
    }
    best
}

/// FLOW-E2: the AI considers fleeing when its side is clearly losing.
fn hopeless(b: &Battle, me: CreatureId, p: &AiProfile) -> bool {
    let side = b.fighter(me).side;
    let strength = |s: &dyn Fn(&Fighter) -> bool| -> i32 {
        b.creatures
            .iter()
            .filter(|c| c.can_act() && s(c))
            .map(|c| c.attrs.pools.iter().flatten().map(|p| p.current).sum::<i32>())
            .sum()
    };
    let ours = strength(&|c| c.side == side);
    let theirs = strength(&|c| b.hostile(me, c.id) && b.side_perceives(side, c.id));
    theirs as f64 > ours as f64 * (1.0 + 4.0 * (1.0 - p.self_preservation))
}

/// A square where a hostile creature was last seen, in concealing terrain, within search reach,
/// that this side has not searched in this round or the last.
fn suspected_hiding_spot(b: &Battle, me: CreatureId) -> Option<Pos> {
    let f = b.fighter(me);
    let side = f.side;
    let mut spots: Vec<Pos> = b
        .creatures
        .iter()
        .filter(|o| b.hostile(me, o.id))
        .filter_map(|o| b.last_seen(side, o.id))
        .filter(|p| b.map.in_bounds(*p) && b.map.terrain(*p).concealing)
        .filter(|p| crate::rules::grid::distance(f.origin, *p) <= 8)
        .collect();
    spots.sort();
    spots.into_iter().find(|p| {
        !b.log.iter().rev().take_while(|e| e.round + 1 >= b.round).any(|e| {
            matches!(&e.event, crate::battle::Event::Searched { creature, at, .. }
                if b.fighter(*creature).side == side && crate::rules::grid::distance(*at, *p) <= 1)
        })
    })
}

/// A reproducible number in [-1, 1) from three integers (SplitMix64 finaliser).
fn noise(seed: u64, step: u64, option: u64) -> f64 {
    let mut z = seed ^ step.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ option.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 52) as f64 - 1.0
}
