//! The NPC player. It decides from what its side perceives (PERC): enemies it does not perceive
//! are not considered, and every rule it weighs comes from the battle's query API
//! (`battle::query`): reachable squares, attack previews, defense dice.
//!
//! Profiles come from the battle's own compendium (`ai_profiles`); difficulty 0 is the baseline
//! yardstick (walk to the nearest perceived enemy, hit it with the best weapon, always defend),
//! anything higher is the tactical planner in [`tactical`].
//!
//! The AI plans only commands the engine accepts. A safety net stays in [`decision`]: should a
//! planned command be refused, it is replaced by ending the turn or declining the window, and
//! the replacement is counted (`AiFallbacks`, `ai_fallbacks` in `sim` and `duel`) — a count that
//! must stay 0.

mod areas;
mod aside;
mod clock;
mod doors;
mod fate;
mod hunt;
mod intent;
mod items;
mod lookahead;
mod mount;
mod odds;
mod reactions;
mod ready;
mod rescue;
mod situation;
pub mod tactical;
mod threat;

pub use aside::Thinking;
pub use lookahead::WORK_BUDGET as LOOK_AHEAD_WORK_BUDGET;

pub use fate::MOST_FATE_DICE;

use crate::battle::{
    ActiveBattle, AiExplained, Battle, BattleSystems, Command, Controller, CreatureId, Explanation, Explanations,
    IssueCommand, Rejection, Target, WindowKind,
};
use crate::level::compendium::AiProfile;
use crate::rules::facing::Facing;
use crate::rules::grid::{Footprint, Pos, footprint_distance};
use crate::rules::movement::MoveField;
use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.init_resource::<AiFallbacks>()
        .init_resource::<Thinking>()
        .add_systems(Update, ai_decide.in_set(BattleSystems::Decide));
}

/// In the window, the AI waits this long between decisions so a person can follow them, and
/// not at all while `held` (the screen is still showing the last decision's events), unless
/// the player hurries it; headless battles have no pace and decide every frame.
#[derive(Resource, Clone, Debug)]
pub struct AiPace {
    pub timer: Timer,
    pub held: bool,
    pub hurry: bool,
    /// Think on a worker thread while the window draws (`aside`); false where frames are
    /// counted for a picture.
    pub aside: bool,
    /// The wait has passed since the last decision was issued.
    ripe: bool,
}

impl AiPace {
    pub fn new(seconds: f32, aside: bool) -> AiPace {
        AiPace {
            timer: Timer::from_seconds(seconds.max(0.0), TimerMode::Repeating),
            held: false,
            hurry: false,
            aside,
            ripe: false,
        }
    }

    /// Whether the AI may issue its next command now (ticking the wait while not held).
    fn allows(&mut self, time: &Time) -> bool {
        // Once ripe the wait stops: an answer that took longer than the pace leaves the next
        // wait whole.
        if !self.hurry && !self.held && !self.ripe && self.timer.tick(time.delta()).is_finished() {
            self.ripe = true;
        }
        self.hurry || (self.ripe && !self.held)
    }
}

/// Time the AI has spent deciding, when someone asks (the client's frame report).
#[derive(Resource, Clone, Debug, Default)]
pub struct AiClock(pub std::time::Duration);

/// Per side, a profile that overrides every creature's own (the `duel` harness).
#[derive(Resource, Clone, Debug, Default)]
pub struct SideProfiles(pub Vec<Option<String>>);

/// Planned commands the engine would have refused, replaced by the safety net.
#[derive(Resource, Clone, Debug, Default)]
pub struct AiFallbacks {
    pub count: u32,
    /// The first few, for a report: (creature, the refused command, why).
    pub examples: Vec<(CreatureId, Command, Rejection)>,
}

impl AiFallbacks {
    pub fn record(&mut self, creature: CreatureId, refused: Option<(Command, Rejection)>) {
        if let Some((command, why)) = refused {
            self.count += 1;
            if self.examples.len() < 5 {
                self.examples.push((creature, command, why));
            }
        }
    }
}

/// How much of a decision's reasoning someone reads. A player's AI panel and `run --explain`
/// show the runners-up; a batch of battles, a look-ahead's play-outs and the plain `decide`
/// read only the choice, and the planner then skips every square that cannot win — the same
/// choice for less work (the runners-up it would show are left out, not guessed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reasons {
    Shown,
    Unread,
}

/// Present when nobody reads the AI's reasons (`sim`, `duel`, `run` without `--explain`):
/// decisions skip the runners-up.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct ReasonsUnread;

/// One decision of the AI.
#[derive(Clone, Debug)]
pub struct Decision {
    pub command: Command,
    pub explanation: Option<Explanation>,
    /// The planned command the engine refused, and why, when the safety net replaced it.
    pub fallback: Option<(Command, Rejection)>,
}

/// Where a decision goes: the battle's command queue, and the reports that read it.
#[derive(bevy::ecs::system::SystemParam)]
struct DecisionOut<'w> {
    fallbacks: ResMut<'w, AiFallbacks>,
    explanations: Option<ResMut<'w, Explanations>>,
    commands: MessageWriter<'w, IssueCommand>,
    explained: MessageWriter<'w, AiExplained>,
}

impl DecisionOut<'_> {
    fn issue(&mut self, b: &Battle, creature: CreatureId, d: Decision) {
        self.fallbacks.record(creature, d.fallback);
        if let Some(why) = d.explanation {
            if let Some(ex) = self.explanations.as_mut() {
                ex.0.push((b.log().len(), why.clone()));
            }
            self.explained.write(AiExplained(why));
        }
        self.commands.write(IssueCommand { creature, command: d.command });
    }
}

#[allow(clippy::too_many_arguments)] // a Bevy system: one parameter per resource it reads
fn ai_decide(
    battle: Option<Res<ActiveBattle>>,
    profiles: Option<Res<SideProfiles>>,
    mut out: DecisionOut,
    mut thinking: ResMut<Thinking>,
    mut pace: Option<ResMut<AiPace>>,
    time: Option<Res<Time>>,
    clock: Option<ResMut<AiClock>>,
    unread: Option<Res<ReasonsUnread>>,
) {
    let awaited = battle.as_ref().and_then(|b| b.awaiting_from(Controller::Ai));
    let (Some(battle), Some((creature, window))) = (battle, awaited) else {
        thinking.clear();
        if let Some(pace) = pace.as_deref_mut() {
            pace.ripe = false;
        }
        return;
    };
    let b = &battle.battle;
    let side = b.fighter(creature).side;
    let name = profiles.as_ref().and_then(|p| p.0.get(side).cloned().flatten());
    let profile = profile_for(b, creature, name.as_deref());
    let reasons = if unread.is_some() { Reasons::Unread } else { Reasons::Shown };
    let started = clock.is_some().then(std::time::Instant::now);
    let d = match (pace.as_deref_mut(), time) {
        (Some(pace), Some(time)) if pace.aside => {
            thinking.ask(b, (creature, window), &profile, reasons, time.elapsed());
            let allowed = pace.allows(&time);
            thinking.answer(allowed)
        }
        (Some(pace), Some(time)) => pace.allows(&time).then(|| decision(b, creature, window, &profile, reasons)),
        _ => Some(decision(b, creature, window, &profile, reasons)),
    };
    if let (Some(mut clock), Some(t)) = (clock, started) {
        clock.0 += t.elapsed();
    }
    if let Some(d) = d {
        if let Some(pace) = pace.as_deref_mut() {
            pace.ripe = false;
        }
        out.issue(b, creature, d);
    }
}

/// The profile a creature plays with: `name` if given, else its own, from the battle's
/// compendium (validated when the level loaded; the default knobs if a name is unknown).
pub fn profile_for(battle: &Battle, creature: CreatureId, name: Option<&str>) -> AiProfile {
    let name = name.unwrap_or(&battle.fighter(creature).ai_profile);
    battle.ai_profile(name).cloned().unwrap_or_default()
}

/// The AI's command for `creature` with its own profile.
pub fn decide(battle: &Battle, creature: CreatureId, window: Option<WindowKind>) -> Command {
    decision(battle, creature, window, &profile_for(battle, creature, None), Reasons::Unread).command
}

/// The AI's command for `creature` under `profile`, with an explanation when it weighed options.
pub fn decide_with(
    battle: &Battle,
    creature: CreatureId,
    window: Option<WindowKind>,
    profile: &AiProfile,
) -> (Command, Option<Explanation>) {
    let d = decision(battle, creature, window, profile, Reasons::Shown);
    (d.command, d.explanation)
}

/// The AI's decision, with the safety net's replacement recorded in `fallback`.
pub fn decision(
    battle: &Battle,
    creature: CreatureId,
    window: Option<WindowKind>,
    profile: &AiProfile,
    reasons: Reasons,
) -> Decision {
    let own_turn = window.is_none() && profile.difficulty > 0;
    let chore = own_turn
        .then(|| {
            items::worth_using(battle, creature)
                .or_else(|| rescue::worth_dragging(battle, creature))
                .or_else(|| doors::worth_opening(battle, creature))
        })
        .flatten();
    let had_chore = chore.is_some();
    let (command, explanation) = if profile.difficulty == 0 {
        (baseline(battle, creature, window), None)
    } else if let Some(chore) = chore {
        (chore, None)
    } else if window.is_none() && profile.look_ahead.candidates > 1 {
        lookahead::turn(battle, creature, profile, reasons)
    } else {
        tactical::decide(battle, creature, window, profile, reasons)
    };
    // MOVE-13 [Ext]: a turn whose weighed plan strikes nobody is better spent lifting a
    // threatened friend (a turn it did not weigh — fleeing, hiding, hunting — is kept).
    let idle = explanation.as_ref().and_then(|e| e.options.first()).is_some_and(|o| o.expected_dealt <= 0.0);
    let command = match (own_turn && !had_chore).then(|| rescue::worth_lifting(battle, creature, !idle)) {
        Some(Some(lift)) => lift,
        _ => command,
    };
    // MOVE-13 [Ext]: in a stall, a body shutting the way to the fight is lifted away, instead
    // of ending the turn or walking (a walk that strikes nobody: no hostile in its senses can
    // act, so it hunts for the rest, as often as not toward that very body).
    let hunting = || {
        let side = battle.fighter(creature).side;
        battle.perceived_hostiles(side).iter().all(|&e| !battle.fighter(e).can_act())
    };
    let stays_or_walks = matches!(command, Command::EndTurn | Command::Move { .. });
    let command = match (own_turn && !had_chore && stays_or_walks).then(|| {
        let (strikes, stall) = (!idle && !hunting(), clock::stall_push(battle, creature));
        // A carrier lifts no second body: the one in its arms is put down behind it first,
        // once it has nowhere to walk with it (a carrier walking on toward the fight keeps it).
        let stays = matches!(command, Command::EndTurn);
        rescue::clearing_lift(battle, creature, strikes, stall)
            .or_else(|| stays.then(|| rescue::setting_down(battle, creature, strikes, stall)).flatten())
    }) {
        Some(Some(clearing)) => clearing,
        _ => command,
    };
    // MOVE-E8: likewise, a turn that strikes nobody starts in the saddle of a faster mount.
    let command = match (own_turn && !had_chore).then(|| mount::worth_mounting(battle, creature, !idle)) {
        Some(Some(mount)) => mount,
        _ => command,
    };
    // TIME-E10: AP that would lapse at the turn's end are better spent on a readied attack
    // (which a sloppy player forgets).
    let command = match command {
        Command::EndTurn if own_turn && !situation::plays_sloppily(profile) => {
            ready::instead_of_ending(battle, creature).unwrap_or(command)
        }
        other => other,
    };
    match battle.check(creature, &command) {
        Ok(()) => Decision { command, explanation, fallback: None },
        Err(why) => Decision { command: fallback(window), explanation: None, fallback: Some((command, why)) },
    }
}

fn fallback(window: Option<WindowKind>) -> Command {
    match window {
        None => Command::EndTurn,
        Some(WindowKind::Defense) => Command::Defend { defense: None },
        Some(WindowKind::BeforeAttack | WindowKind::Fate) => Command::Pass,
    }
}

/// What a battle played by the AI alone counted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AiPlayCount {
    pub decisions: usize,
    /// Planned commands the safety net replaced (must be 0).
    pub fallbacks: usize,
    /// Commands the engine refused anyway (must be 0: the net is checked).
    pub rejected: usize,
}

/// Play a battle to the end without the ECS, every creature by the AI under its own profile
/// (or `profiles[side]`), counting the safety net's replacements.
pub fn play_direct(battle: &mut Battle, profiles: Option<&[Option<String>]>, max_decisions: usize) -> AiPlayCount {
    let mut count = AiPlayCount::default();
    for _ in 0..max_decisions {
        let Some((c, w)) = battle.awaiting() else { break };
        let name = profiles.and_then(|p| p.get(battle.fighter(c).side).cloned().flatten());
        let d = decision(battle, c, w, &profile_for(battle, c, name.as_deref()), Reasons::Unread);
        count.decisions += 1;
        count.fallbacks += usize::from(d.fallback.is_some());
        if battle.submit(c, d.command).is_err() {
            count.rejected += 1;
            let _ = battle.submit(c, fallback(w));
        }
    }
    count
}

/// The defense an attacker's target rolls in a defense window: the allowed one with the most
/// dice (the baseline always defends).
pub fn best_defense(battle: &Battle) -> Option<crate::rules::attack::Defense> {
    battle.window_preview()?.attack.best_defense().map(|d| d.defense)
}

/// The yardstick: walk to the nearest perceived enemy, attack with the best weapon, always defend.
pub fn baseline(battle: &Battle, me: CreatureId, window: Option<WindowKind>) -> Command {
    match window {
        Some(WindowKind::Defense) => return Command::Defend { defense: best_defense(battle) },
        Some(WindowKind::BeforeAttack | WindowKind::Fate) => return Command::Pass,
        None => {}
    }
    let f = battle.fighter(me);
    let mut enemies = battle.perceived_hostiles(f.side);
    enemies.sort_by_key(|&e| (battle.fighter(e).attrs.is_unconscious(), battle.distance_between(me, e), e));
    // Attack: the usable single-target weapon with the most expected damage on the nearest
    // enemy it can reach.
    for &e in &enemies {
        let best = f
            .weapons
            .iter()
            .filter(|w| w.weapon.area.is_none() && w.weapon.ap <= f.ap)
            .filter_map(|w| {
                let cmd = Command::Attack { weapon: w.key.clone(), target: Target::Creature(e), additives: vec![] };
                let preview = battle.attack_preview(me, &cmd).ok()?.into_iter().next()?;
                // DICE-4: an attack of no dice scores nothing; don't waste AP on it.
                let value = preview.odds(0).expected_damage;
                (value > 0.0).then_some((value, cmd))
            })
            .max_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((_, cmd)) = best {
            return cmd;
        }
    }
    // Move toward the nearest enemy, facing it; with none in sight, toward where one was last
    // seen, else toward the middle of the map.
    if let Some(goal) = hunting_goal(battle, me, &enemies)
        && let Some(cmd) = approach(battle, me, goal)
    {
        return cmd;
    }
    Command::EndTurn
}

/// The sighting its side remembers of a foe not in view now that `me` would hunt first: of a
/// foe its side did not see go down (`false`), nearest first, else of one it did (`true`).
fn remembered_sighting(battle: &Battle, me: CreatureId) -> Option<(bool, Pos)> {
    let f = battle.fighter(me);
    battle
        .creatures()
        .iter()
        .filter(|o| battle.hostile(me, o.id) && !battle.side_perceives(f.side, o.id))
        // The sighting first: `seen_down` reads the side's log, wasted on a foe not remembered.
        .filter_map(|o| Some((o.id, battle.last_seen(f.side, o.id)?)))
        .map(|(id, p)| (battle.seen_down(f.side, id), footprint_distance(f.footprint(), Footprint::single(p)), p))
        .min()
        .map(|(down, _, p)| (down, p))
}

/// Where to go: the nearest perceived enemy, else the nearest remembered sighting (of a foe
/// its side did not see go down, else of one it did), else the square its side does not see
/// nearest by walking — from where fallen foes in sight lie, if any, else from the searcher,
/// squares behind it counting `BEHIND_FACTOR` times as far — else the centre of the map.
pub fn hunting_goal(battle: &Battle, me: CreatureId, enemies: &[CreatureId]) -> Option<Footprint> {
    let f = battle.fighter(me);
    if let Some(&e) = enemies.first() {
        return Some(battle.fighter(e).footprint());
    }
    // Only sightings of enemies not in view now: those in view are where they are. Foes its
    // side saw go down come last: a brute hunting a fallen foe it no longer saw walked back
    // and forth between it and the last foe standing until `max_rounds`; but where the fallen
    // lie is where the fight was, a better search than the nearest square out of sight.
    if let Some((_, p)) = remembered_sighting(battle, me) {
        return Some(Footprint::single(p));
    }
    // Nothing known: explore — the nearest square (by walking) its side does not see now,
    // where an enemy may be (dark corners, behind walls); not one a creature has only behind
    // its back (it would see it by turning): walking to look there, then back at what the
    // first look had turned its back on, a lone searcher paced between two squares until
    // `max_rounds` (The Crossing's draws). (Remembering every square its creatures had seen
    // from where they stood was tried too: The Crossing 82.2 → 80.0% against the baseline,
    // The Cloister 85.7 → 82.7%.)
    // Once turning round would show it everything it can walk to, what only its creatures'
    // blind rears hide is still a place to look (the move there ends facing it).
    // With fallen foes in sight, the search starts where they lie (where the fight was), not
    // where the searcher stands: a lone archer that saw its foes' fallen from a bend walked
    // back to the nearest corner out of its sight, lost sight of them, walked back to them,
    // and paced so until `max_rounds` (The Crossing's draws).
    let fallen_in_sight = battle
        .perceived_hostiles(f.side)
        .into_iter()
        .map(|h| battle.fighter(h))
        .filter(|h| !h.can_act())
        .map(|h| (footprint_distance(f.footprint(), h.footprint()), h.origin))
        .min()
        .map(|(_, p)| p);
    let map = battle.map();
    let walk = battle.journey_costs(me, fallen_in_sight.unwrap_or(f.origin));
    // A square behind the searcher counts as `BEHIND_FACTOR` times as far: a hunting move ends
    // facing where it went, so the search keeps its direction. Nearest alone, a searcher
    // between two places out of its sight, one on either side, paced between them (each step
    // toward one showed it the other from a new angle).
    let (fx, fy) = f.facing.delta();
    let behind = |p: Pos| (p.x - f.origin.x) * fx + (p.y - f.origin.y) * fy < 0;
    let nearest_unseen = |seen: Vec<bool>| {
        (0..seen.len())
            .filter(|&i| !seen[i])
            .map(|i| map.pos_of(i))
            .filter(|&p| !map.blocks_movement(p) && footprint_distance(f.footprint(), Footprint::single(p)) > 1)
            .filter_map(|p| Some((walk.cost_quarters(p)? * if behind(p) { BEHIND_FACTOR } else { 1 }, p)))
            .min()
    };
    let unseen =
        nearest_unseen(battle.squares_seen_turning(f.side)).or_else(|| nearest_unseen(battle.seen_squares(f.side)));
    if let Some((_, p)) = unseen {
        return Some(Footprint::single(p));
    }
    let centre = Footprint::single(Pos::new(map.width() / 2, map.height() / 2));
    (footprint_distance(f.footprint(), centre) > 2).then_some(centre)
}

/// How many times as far an unseen square behind a searcher counts (`hunting_goal`). A fixed
/// number of steps more was not enough for a carrier, whose every step costs double.
const BEHIND_FACTOR: u32 = 4;

/// One move that brings the creature closest to `goal` by walking distance (around walls, not
/// through them), ending facing it; None if no move gets closer (or it cannot move now).
pub fn approach(battle: &Battle, me: CreatureId, goal: Footprint) -> Option<Command> {
    approach_within(battle, me, goal, |_| None)
}

/// `approach`, ending no nearer to `goal` than the line `behind` draws (walking, in quarter
/// steps) from the walking costs out of the goal it is handed.
fn approach_within(
    battle: &Battle,
    me: CreatureId,
    goal: Footprint,
    behind: impl FnOnce(&MoveField) -> Option<u64>,
) -> Option<Command> {
    let f = battle.fighter(me);
    let field = battle.reachable(me, false).ok()?;
    let side = f.size.footprint();
    // Walking cost from the goal to every square (creatures ignored: they move).
    let to_goal = battle.journey_costs(me, goal.origin);
    let behind = behind(&to_goal);
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
    let dest = field
        .destinations()
        .map(|p| (remaining(p), field.cost_quarters(p).unwrap_or(u32::MAX), p))
        .filter(|&(r, _, _)| behind.is_none_or(|line| r >= line))
        .min()?;
    if dest.0 >= now {
        return None;
    }
    let path = field.path_to(dest.2)?;
    let face = facing_toward(Footprint::new(dest.2, side), goal);
    Some(Command::Move { path, sprint: false, face: battle.ruleset().facing.then_some(face) })
}

pub fn facing_toward(from: Footprint, to: Footprint) -> Facing {
    Facing::toward_footprint(from, to)
}

/// A square as a footprint of one.
pub fn at(p: Pos) -> Footprint {
    Footprint::single(p)
}
