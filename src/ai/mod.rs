//! The NPC player. It decides from what its side perceives (PERC): enemies it does not perceive
//! are not considered. Every command it returns has passed the engine's check.
//!
//! Profiles come from the compendium (`ai_profiles`); difficulty 0 is the baseline yardstick
//! (walk to the nearest perceived enemy, hit it with the best weapon, always defend), anything
//! higher is the tactical planner in [`tactical`].

pub mod tactical;

use crate::battle::{
    ActiveBattle, Battle, BattleSystems, Command, Controller, CreatureId, IssueCommand, Target, WindowKind,
};
use crate::rules::attack::{AttackOdds, DamageModifiers, Defense, damage_distribution, defense_dice};
use crate::rules::facing::Facing;
use crate::rules::grid::{Footprint, Pos, footprint_distance};
use crate::rules::movement::{Mover, reachable};
use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_message::<AiExplained>().add_systems(Update, ai_decide.in_set(BattleSystems::Decide));
}

/// Every AI decision that weighed options, as it is made (for the client and for GMs).
#[derive(Message, Clone, Debug)]
pub struct AiExplained(pub Explanation);

/// In the window, the AI waits this long between decisions so a person can follow them;
/// headless battles have no pace and decide every frame.
#[derive(Resource, Clone, Debug)]
pub struct AiPace(pub Timer);

/// Per side, a profile that overrides every creature's own (the `duel` harness).
#[derive(Resource, Clone, Debug, Default)]
pub struct SideProfiles(pub Vec<Option<String>>);

/// One option the AI weighed, with its score components (for GMs: `run --explain`).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct OptionScore {
    pub summary: String,
    pub expected_dealt: f64,
    pub expected_taken: f64,
    pub rear_attack: bool,
    pub rear_exposed: bool,
    pub cover: bool,
    pub ap_kept: i32,
    pub total: f64,
}

/// Why the AI chose what it chose: its top options.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Explanation {
    pub creature: CreatureId,
    pub options: Vec<OptionScore>,
}

/// Explanations collected when present: (log length when decided, explanation).
#[derive(Resource, Clone, Debug, Default)]
pub struct Explanations(pub Vec<(usize, Explanation)>);

fn ai_decide(
    battle: Option<Res<ActiveBattle>>,
    profiles: Option<Res<SideProfiles>>,
    explanations: Option<ResMut<Explanations>>,
    mut out: MessageWriter<IssueCommand>,
    mut explained: MessageWriter<AiExplained>,
    pace: Option<ResMut<AiPace>>,
    time: Option<Res<Time>>,
) {
    let Some(battle) = battle else { return };
    let Some((creature, window)) = battle.awaiting_from(Controller::Ai) else { return };
    if let (Some(mut pace), Some(time)) = (pace, time)
        && !pace.0.tick(time.delta()).is_finished()
    {
        return;
    }
    let b = &battle.battle;
    let side = b.fighter(creature).side;
    let name = profiles
        .as_ref()
        .and_then(|p| p.0.get(side).cloned().flatten())
        .unwrap_or_else(|| b.fighter(creature).ai_profile.clone());
    let profile = crate::level::builtin_compendium().ai_profiles.get(&name).cloned().unwrap_or_default();
    let (command, why) = decide_with(b, creature, window, &profile);
    if let Some(why) = why {
        if let Some(mut ex) = explanations {
            ex.0.push((b.log.len(), why.clone()));
        }
        explained.write(AiExplained(why));
    }
    out.write(IssueCommand { creature, command });
}

/// The AI's command for `creature` with its own profile.
pub fn decide(battle: &Battle, creature: CreatureId, window: Option<WindowKind>) -> Command {
    let name = &battle.fighter(creature).ai_profile;
    let profile = crate::level::builtin_compendium().ai_profiles.get(name).cloned().unwrap_or_default();
    decide_with(battle, creature, window, &profile).0
}

/// The AI's command for `creature` under `profile`, with an explanation when it weighed options.
pub fn decide_with(
    battle: &Battle,
    creature: CreatureId,
    window: Option<WindowKind>,
    profile: &crate::level::compendium::AiProfile,
) -> (Command, Option<Explanation>) {
    let (command, why) = if profile.difficulty == 0 {
        (baseline(battle, creature, window), None)
    } else {
        tactical::decide(battle, creature, window, profile)
    };
    if battle.check(creature, &command).is_ok() {
        return (command, why);
    }
    (fallback(window), None)
}

/// Never hand the engine something it refuses.
fn fallback(window: Option<WindowKind>) -> Command {
    match window {
        None => Command::EndTurn,
        Some(WindowKind::Defense) => Command::Defend { defense: None },
        Some(WindowKind::BeforeAttack) => Command::Pass,
    }
}

/// Hostile creatures this creature's side perceives.
pub fn perceived_enemies(battle: &Battle, me: CreatureId) -> Vec<CreatureId> {
    let side = battle.fighter(me).side;
    battle
        .creatures
        .iter()
        .filter(|o| o.is_active() && battle.hostile(me, o.id) && battle.side_perceives(side, o.id))
        .map(|o| o.id)
        .collect()
}

/// The defense with the most dice among those the attack allows.
pub fn best_defense(battle: &Battle, me: CreatureId) -> Option<Defense> {
    let f = battle.fighter(me);
    let allowed = battle.flow_defenses()?;
    allowed.into_iter().max_by_key(|d| {
        let bonus = if *d == Defense::Block { f.block_bonus() } else { 0 };
        (defense_dice(&f.attrs, *d, f.posture.roll_penalty()) + bonus, -(*d as i32))
    })
}

/// Expected damage of an attack as the engine would resolve it (exact, ATK-E4).
pub fn expected_damage(dice: i32, segments: u32, protection: i32, defense: i32) -> f64 {
    damage_distribution(&AttackOdds {
        dice,
        segments,
        protection,
        defense_dice: defense,
        modifiers: DamageModifiers::default(),
    })
    .expected_damage
}

/// The yardstick: walk to the nearest perceived enemy, attack with the best weapon, always defend.
pub fn baseline(battle: &Battle, me: CreatureId, window: Option<WindowKind>) -> Command {
    match window {
        Some(WindowKind::Defense) => return Command::Defend { defense: best_defense(battle, me) },
        Some(WindowKind::BeforeAttack) => return Command::Pass,
        None => {}
    }
    let f = battle.fighter(me);
    let mut enemies = perceived_enemies(battle, me);
    enemies.sort_by_key(|&e| {
        (battle.fighter(e).attrs.is_unconscious(), footprint_distance(f.footprint(), battle.fighter(e).footprint()), e)
    });
    // Attack: the usable single-target weapon with the most expected damage on the nearest
    // enemy it can reach.
    for &e in &enemies {
        let t = battle.fighter(e);
        let best = f
            .weapons
            .iter()
            .filter(|w| w.weapon.area.is_none() && w.weapon.ap <= f.ap)
            .filter_map(|w| {
                let cmd = Command::Attack { weapon: w.key.clone(), target: Target::Creature(e), additives: vec![] };
                battle.check(me, &cmd).ok()?;
                let dice = battle.attack_dice(me, &w.key, e)?;
                let prot = w.weapon.damage.map_or(0, |k| t.protection.against(k));
                // DICE-4: an attack of no dice scores nothing; don't waste AP on it.
                let value = expected_damage(dice, w.weapon.segments, prot, 0);
                (value > 0.0).then_some((value, cmd))
            })
            .max_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((_, cmd)) = best {
            return cmd;
        }
    }
    // Move toward the nearest enemy, facing it; with none in sight, toward where one was last
    // seen, else toward the middle of the map.
    if f.ap >= 1
        && let Some(goal) = hunting_goal(battle, me, &enemies)
        && let Some(cmd) = approach(battle, me, goal)
    {
        return cmd;
    }
    Command::EndTurn
}

/// Where to go: the nearest perceived enemy, else the nearest remembered sighting, else the
/// centre of the map.
pub fn hunting_goal(battle: &Battle, me: CreatureId, enemies: &[CreatureId]) -> Option<Footprint> {
    let f = battle.fighter(me);
    if let Some(&e) = enemies.first() {
        return Some(battle.fighter(e).footprint());
    }
    // Only sightings of enemies not in view now: those in view are where they are.
    let remembered = battle
        .creatures
        .iter()
        .filter(|o| battle.hostile(me, o.id) && !battle.side_perceives(f.side, o.id))
        .filter_map(|o| battle.last_seen(f.side, o.id))
        .min_by_key(|p| (footprint_distance(f.footprint(), Footprint::single(*p)), *p));
    if let Some(p) = remembered {
        return Some(Footprint::single(p));
    }
    let centre = Footprint::single(Pos::new(battle.map.width() / 2, battle.map.height() / 2));
    (footprint_distance(f.footprint(), centre) > 2).then_some(centre)
}

/// One move that brings the creature closest to `goal` by walking distance (around walls, not
/// through them), ending facing it; None if no move gets closer.
pub fn approach(battle: &Battle, me: CreatureId, goal: Footprint) -> Option<Command> {
    let f = battle.fighter(me);
    let mover = Mover { size: f.size, speed: f.speed, sprint: false, posture: f.posture };
    let occupancy = battle.occupancy_for(me);
    let field = reachable(&battle.map, Some(&occupancy), &mover, f.origin).ok()?;
    let side = f.size.footprint();
    // Walking cost from the goal to every square (creatures ignored: they move).
    let walker = Mover { posture: crate::rules::posture::Posture::Standing, ..mover };
    let to_goal = crate::rules::movement::cost_field(&battle.map, None, &walker, goal.origin);
    let remaining = |p: Pos| {
        let d = footprint_distance(Footprint::new(p, side), goal);
        // Squares the goal's field cannot reach (shut in) fall back to straight distance.
        to_goal.cost_quarters(p).map_or(u64::from(u32::MAX) + d as u64, u64::from).min(if d <= 1 {
            0
        } else {
            u64::MAX
        })
    };
    let now = remaining(f.origin);
    let dest = field.destinations().map(|p| (remaining(p), field.cost_quarters(p).unwrap_or(u32::MAX), p)).min()?;
    if dest.0 >= now {
        return None;
    }
    let path = field.path_to(dest.2)?;
    let face = facing_toward(Footprint::new(dest.2, side), goal);
    Some(Command::Move { path, sprint: false, face: battle.ruleset.facing.then_some(face) })
}

pub fn facing_toward(from: Footprint, to: Footprint) -> Facing {
    Facing::toward_footprint(from, to)
}

/// A square as a footprint of one.
pub fn at(p: Pos) -> Footprint {
    Footprint::single(p)
}
