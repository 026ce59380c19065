//! The battle as plain, cloneable data: creatures, turn order, perception and the log.
//!
//! `Battle`'s fields are private to the battle module: outside it, the state is read through
//! accessors and the query API (`query.rs`), and changed only by submitting commands.

use super::attack::PendingAttack;
use super::types::*;
use crate::level::compendium::{Ability, AbilityEffect, AiProfile, Senses, Weapon};
use crate::level::{Relation, Victory};
use crate::rules::Ruleset;
use crate::rules::creature::{Attribute, Attributes, Protections, Size};
use crate::rules::facing::Facing;
use crate::rules::grid::{Footprint, GridMap, Pos};
use crate::rules::posture::Posture;
use crate::rules::senses::Sense;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A weapon as carried: its compendium key, data and ammunition left.
#[derive(Clone, Debug, PartialEq)]
pub struct Armed {
    pub key: String,
    pub weapon: Weapon,
    pub ammo: Option<u32>,
}

/// Where a creature is in the battle's life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    /// TIME-4: a latecomer, joining at the end of this round.
    Waiting(u32),
    Active,
    Fled,
    Dead,
    /// MOVE-E7: lifted off the grid by this creature, until put down (battle/carry.rs).
    Carried(CreatureId),
}

/// TIME-11 / TIME-E5: a tactical action still being paid for.
#[derive(Clone, Debug, PartialEq)]
pub struct LongTerm {
    pub weapon: String,
    pub target: Target,
    pub additives: Vec<String>,
    pub remaining: i32,
}

/// One creature's state.
#[derive(Clone, Debug)]
pub struct Fighter {
    pub id: CreatureId,
    pub name: String,
    pub template: String,
    pub side: usize,
    pub size: Size,
    pub origin: Pos,
    pub facing: Facing,
    pub posture: Posture,
    pub attrs: Attributes,
    pub protection: Protections,
    pub ap: i32,
    pub max_ap: i32,
    pub speed: i32,
    pub weapons: Vec<Armed>,
    pub abilities: Vec<(String, Ability)>,
    pub senses: Senses,
    pub ai_profile: String,
    pub presence: Presence,
    /// PERC-E4: the search difficulty to find it, while Hidden.
    pub hidden: Option<i64>,
    pub hit_this_round: bool,
    /// FLOW-E2.
    pub hit_free_streak: u32,
    /// PERC-E5: the last round it moved, attacked or made noise.
    pub noisy_round: Option<u32>,
    pub long_term: Option<LongTerm>,
    /// CRE-5: allocation order; empty = keep conscious as long as possible.
    pub allocation: Vec<Attribute>,
    /// TIME-15: the reaction chain it last reacted in.
    pub reacted_chain: u32,
    /// AP spent on tactical actions this round, for TIME-14 refunds.
    pub spent_this_turn: i32,
    /// CRE-11 strength, for FLOW-2.
    pub strength: i32,
    /// The round it last delayed in.
    pub delayed_round: Option<u32>,
    /// The level's per-creature controller, overriding its side's.
    pub controller: Option<crate::level::ControllerDef>,
    /// The level's order to stay inside this area (GEN-1: a custom rule for this creature).
    pub hold: Option<crate::level::HoldArea>,
    /// TIME-E9: caught unaware at the opening: no turn in the surprise round and no reaction
    /// (defense included) until round 1 starts.
    pub surprised: bool,
    /// MOVE-12, MOVE-E6: it fell since its last turn and starts the next one 1 AP short.
    pub fell: bool,
    /// FLOW-10: the hazards it is adapted to (its template's).
    pub adapted: Vec<String>,
    /// TIME-18: the items it carries (compendium keys, in the order it got them).
    pub items: Vec<String>,
    /// TIME-E10: its readied attack, until it fires or its next turn starts.
    pub readied: Option<super::ready::Readied>,
    /// FLOW-D3 (blinded, deafened): for each sense (`Sense::index`), how many more of its own
    /// turns it is lost for.
    pub senses_lost: [u32; 5],
    /// Body weight in kg (MOVE-13).
    pub weight: i32,
    /// MOVE-13: the body it drags along during its current move (set only while it moves).
    pub dragging: Option<CreatureId>,
    /// MOVE-E7: the body it has lifted and carries, until it puts it down (battle/carry.rs).
    pub carrying: Option<CreatureId>,
    /// MOVE-E8: its template makes it a mount that may carry a rider (battle/mount.rs).
    pub mount: bool,
    /// MOVE-E8: the mount it rides, sitting on the mount's south-west square.
    pub riding: Option<CreatureId>,
    /// MOVE-E8: the creature riding it.
    pub rider: Option<CreatureId>,
    /// PERC-E6: its template's invisibility.
    pub invisible: bool,
    /// PERC-E6: the creatures an invisible attacker struck, each told the square it struck from:
    /// they perceive it while it stays there.
    pub betrayed_to: Vec<(CreatureId, Pos)>,
    /// 001's Spot (`Ruleset::hiding: HideSpot001`): the sides that locked on to it while it
    /// hides, perceiving it until the round ends (battle/spot.rs).
    pub locked_on: Vec<usize>,
    /// TIME-S7: the seconds mode's clock (running action, keep or gap); None when idle and
    /// always in the AP model.
    pub clock: Option<super::seconds::Clock>,
}

impl Fighter {
    /// MOVE-E1: the quarter steps it walks in `moves` moves, each up to its speed + ¾ steps
    /// (the planning estimate of where it could be next round: each move's budget in turn).
    pub fn walk_quarters(&self, moves: i32) -> u32 {
        crate::rules::movement::budget_quarters(self.speed) * moves.max(0) as u32
    }
    /// The moves (MOVE_AP each) a whole turn's AP leave beside one strike with `w`: how far it
    /// could walk next round and still strike with it.
    pub fn moves_beside(&self, w: &Armed) -> i32 {
        (self.max_ap - w.weapon.ap).max(0) / crate::rules::costs::MOVE_AP
    }
    /// How far it perceives by `sense` now: 0 if it lacks or has lost the sense; at most the
    /// adjacent squares while its habitual sense is lost (PERC-4).
    pub fn sense_range(&self, sense: Sense) -> i32 {
        self.sense_ranges()[sense.index()]
    }
    /// Every sense's range now, indexed by `Sense::index` (the perception test's hot path: a
    /// creature that has lost nothing pays for no more than copying its ranges).
    pub fn sense_ranges(&self) -> [i32; 5] {
        let s = &self.senses;
        let mut ranges = [s.vision, s.hearing, s.smell, s.tremor, s.supernatural];
        if self.senses_lost == [0; 5] {
            return ranges;
        }
        let habitual_lost = s.habitual().is_some_and(|h| self.senses_lost[h.index()] > 0);
        for (k, r) in ranges.iter_mut().enumerate() {
            if self.senses_lost[k] > 0 {
                *r = 0;
            } else if habitual_lost {
                *r = (*r).min(1);
            }
        }
        ranges
    }
    /// Whether a sense of its is lost now (blinded: `Sense::Vision`).
    pub fn has_lost(&self, sense: Sense) -> bool {
        self.senses_lost[sense.index()] > 0
    }
    /// Whether the level's hold order (if any) lets the footprint stand with its south-west
    /// square at `at`.
    pub fn may_stand_at(&self, at: Pos) -> bool {
        self.hold.is_none_or(|h| Footprint::new(at, self.footprint().side).cells().all(|c| h.contains(c.x, c.y)))
    }
    pub fn footprint(&self) -> Footprint {
        Footprint::new(self.origin, self.size.footprint())
    }
    pub fn is_active(&self) -> bool {
        self.presence == Presence::Active
    }
    /// Present, conscious and able to act.
    pub fn can_act(&self) -> bool {
        self.is_active() && !self.attrs.is_unconscious()
    }
    pub fn weapon(&self, key: &str) -> Option<&Armed> {
        self.weapons.iter().find(|w| w.key == key)
    }
    pub fn has_ability(&self, pred: impl Fn(&AbilityEffect) -> bool) -> Option<&(String, Ability)> {
        self.abilities.iter().find(|(_, a)| pred(&a.effect))
    }
    /// The AP cost of its Quick Step reaction, if it has one (TIME-14).
    pub fn quick_step_ap(&self) -> Option<i32> {
        self.abilities.iter().find_map(|(_, a)| match a.effect {
            AbilityEffect::QuickStep { ap } => Some(ap),
            _ => None,
        })
    }
    /// The AP cost of its counter-attack reaction, if it has one (TIME-13).
    pub fn counter_attack_ap(&self) -> Option<i32> {
        self.abilities.iter().find_map(|(_, a)| match a.effect {
            AbilityEffect::CounterAttack { ap } => Some(ap),
            _ => None,
        })
    }
    /// Dice added to Block by a carried shield.
    pub fn block_bonus(&self) -> i32 {
        self.weapons.iter().map(|w| w.weapon.block_bonus).max().unwrap_or(0)
    }
    /// Where it stands, which way it looks and how.
    pub fn placement(&self) -> Placement {
        Placement { origin: self.origin, facing: self.facing, posture: self.posture }
    }
}

/// A creature's place on the map for a query: where it stands, faces, and its posture. The
/// query API takes one so that the AI and the client can ask "what if it stood there?" and get
/// the rules exactly as the battle would apply them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    pub origin: Pos,
    pub facing: Facing,
    pub posture: Posture,
}

#[derive(Clone, Debug)]
pub struct SideInfo {
    pub name: String,
    pub human: bool,
    /// DICE-13: a person plays this side, so its creatures are offered Expense of Fate under
    /// `FateOffer::Players` (GEN-E1: player-only).
    pub fate: bool,
    /// Relation to every side by index (self = Friendly).
    pub relations: Vec<Relation>,
}

/// A reaction window: who must answer, for which kind of reaction, and the attack waiting on
/// the answer (carried here, so that no attack can be pending outside a window).
#[derive(Clone, Debug, PartialEq)]
pub struct ReactionWindow {
    pub creature: CreatureId,
    pub kind: WindowKind,
    pub attacker: CreatureId,
    pub(super) attack: PendingAttack,
}

/// Whose input the battle waits for.
#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    Turn(CreatureId),
    Window(Box<ReactionWindow>),
    Over(Outcome),
}

/// The battle.
#[derive(Clone)]
pub struct Battle {
    pub(super) level_name: String,
    pub(super) level_file: String,
    pub(super) seed: u64,
    pub(super) map: GridMap,
    pub(super) ruleset: Ruleset,
    pub(super) sides: Vec<SideInfo>,
    pub(super) creatures: Vec<Fighter>,
    pub(super) order: Vec<CreatureId>,
    pub(super) turn: usize,
    pub(super) round: u32,
    /// TIME-S1: the second within the round (seconds mode; always 0 in the AP model).
    pub(super) second: u32,
    pub(super) max_rounds: u32,
    pub(super) victory: Vec<Victory>,
    pub(super) phase: Phase,
    pub(super) log: Vec<LogEntry>,
    pub(super) rng: ChaCha8Rng,
    /// A belief's dice key (`belief_of`): when set, the dice are drawn afresh at every turn's
    /// start from this key, the round and whose turn it is. None in a real battle.
    pub(super) dice_by_turn: Option<u64>,
    /// perceives[viewer * n + target] (PERC-E2), kept current incrementally.
    pub(super) perceives: Vec<bool>,
    pub(super) chain: u32,
    /// last_seen[side * n + creature]: where that side last perceived it (its own knowledge,
    /// for the AI to hunt by); forgotten once a member stands next to the spot and sees nothing.
    pub(super) last_seen: Vec<Option<Pos>>,
    /// seen_as[side * n + creature]: the creature as that side last saw it, taken when it went
    /// out of the side's sight (its pools, posture, senses then). A belief puts this back at
    /// the creature's last sighting (`belief_of`): what the side knows, never the truth now.
    pub(super) seen_as: Vec<Option<Arc<Fighter>>>,
    /// lost_round[side * n + creature]: the round in which that side last lost sight of it
    /// (taken with `seen_as`): how stale its memory is.
    pub(super) lost_round: Vec<u32>,
    /// announced[side * n + creature]: what each side has been told it perceives (Spotted,
    /// not yet LostSight); brought up to the truth by `sync_perception`.
    pub(super) announced: Vec<bool>,
    /// The AI profiles of the compendium the battle was set up from.
    pub(super) ai_profiles: Arc<BTreeMap<String, AiProfile>>,
    /// ATK-16: the level's objects as they stand now.
    pub(super) objects: Vec<super::objects::ObjectState>,
    /// TIME-18: the items of the compendium the battle was set up from.
    pub(super) item_defs: Arc<BTreeMap<String, crate::rules::items::ItemDef>>,
    /// TIME-18: the items lying on the map, in the order they came to lie there.
    pub(super) ground_items: Vec<super::items::GroundItem>,
    /// TIME-E10: readied creatures whose trigger a move just met, with the mover, waiting to
    /// fire one after another.
    pub(super) ready_queue: Vec<(CreatureId, CreatureId)>,
}

impl Battle {
    pub fn n(&self) -> usize {
        self.creatures.len()
    }
    pub fn level_name(&self) -> &str {
        &self.level_name
    }
    /// The level file the battle was set up from, as named in `BattleStarted`.
    pub fn level_file(&self) -> &str {
        &self.level_file
    }
    pub fn seed(&self) -> u64 {
        self.seed
    }
    pub fn map(&self) -> &GridMap {
        &self.map
    }
    pub fn ruleset(&self) -> &Ruleset {
        &self.ruleset
    }
    pub fn sides(&self) -> &[SideInfo] {
        &self.sides
    }
    /// Every creature, in level order (a creature's id is its index). The true state: a side's
    /// player (the AI, the client) reads others through the perception queries.
    pub fn creatures(&self) -> &[Fighter] {
        &self.creatures
    }
    /// The turn order of this round.
    pub fn order(&self) -> &[CreatureId] {
        &self.order
    }
    /// The slot in `order` whose turn it is (or was last).
    pub fn turn_slot(&self) -> usize {
        self.turn
    }
    pub fn round(&self) -> u32 {
        self.round
    }
    pub fn max_rounds(&self) -> u32 {
        self.max_rounds
    }
    pub fn victory(&self) -> &[Victory] {
        &self.victory
    }
    pub fn phase(&self) -> &Phase {
        &self.phase
    }
    /// The whole log. A side's view is [`Battle::log_for_side`].
    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }
    /// An AI profile by name, from the battle's own compendium.
    pub fn ai_profile(&self, name: &str) -> Option<&AiProfile> {
        self.ai_profiles.get(name)
    }

    pub fn all_sides(&self) -> Vec<String> {
        self.sides.iter().map(|s| s.name.clone()).collect()
    }

    pub fn side_index(&self, name: &str) -> Option<usize> {
        self.sides.iter().position(|s| s.name == name)
    }

    pub fn relation(&self, a: CreatureId, b: CreatureId) -> Relation {
        self.sides[self.creatures[a as usize].side].relations[self.creatures[b as usize].side]
    }

    pub fn hostile(&self, a: CreatureId, b: CreatureId) -> bool {
        self.relation(a, b) == Relation::Hostile
    }

    pub fn hostile_sides(&self, a: usize, b: usize) -> bool {
        self.sides[a].relations[b] == Relation::Hostile
    }

    pub fn fighter(&self, id: CreatureId) -> &Fighter {
        &self.creatures[id as usize]
    }

    pub fn find(&self, name: &str) -> Option<CreatureId> {
        self.creatures.iter().find(|c| c.name == name).map(|c| c.id)
    }

    pub fn outcome(&self) -> Option<&Outcome> {
        match &self.phase {
            Phase::Over(o) => Some(o),
            _ => None,
        }
    }

    /// Who must decide next, and what kind of decision.
    pub fn awaiting(&self) -> Option<(CreatureId, Option<WindowKind>)> {
        match &self.phase {
            Phase::Turn(c) => Some((*c, None)),
            Phase::Window(w) => Some((w.creature, Some(w.kind))),
            Phase::Over(_) => None,
        }
    }

    /// The open reaction window, if any.
    pub fn window(&self) -> Option<&ReactionWindow> {
        match &self.phase {
            Phase::Window(w) => Some(w),
            _ => None,
        }
    }

    /// Change a creature outside the rules, to set up a scenario (tests, benches, the editor's
    /// what-ifs): the change itself is not logged; perception is brought up to date (and what
    /// each side now perceives is logged as usual).
    pub fn adjust_for_scenario(&mut self, id: CreatureId, change: impl FnOnce(&mut Fighter)) {
        change(&mut self.creatures[id as usize]);
        self.refresh_perception_of(id);
        self.sync_perception();
    }

    pub(super) fn log_to(&mut self, event: Event, visible_to: Vec<String>) {
        let seq = self.log.len() as u32;
        self.log.push(LogEntry { seq, round: self.round, visible_to, event, partial: false });
    }

    /// Log one side's partial view (see [`LogEntry::partial`]).
    pub(super) fn log_partial(&mut self, event: Event, visible_to: Vec<String>) {
        self.log_to(event, visible_to);
        if let Some(e) = self.log.last_mut() {
            e.partial = true;
        }
    }

    /// The log entries a side may see.
    pub fn log_for_side<'a>(&'a self, side: &'a str) -> impl Iterator<Item = &'a LogEntry> + 'a {
        self.log.iter().filter(move |e| e.visible_to.iter().any(|s| s == side))
    }

    /// FLOW-2: the intensity band of this fight seen from `side`.
    pub fn intensity_for(&self, side: usize) -> Option<crate::rules::flow::Intensity> {
        let mut enemy = 0i64;
        let mut player = 0i64;
        let mut count = 0i64;
        for c in &self.creatures {
            match self.sides[side].relations[c.side] {
                Relation::Hostile => enemy += c.strength as i64,
                Relation::Friendly => {
                    player += c.strength as i64;
                    count += 1;
                }
                Relation::Neutral => {}
            }
        }
        crate::rules::flow::intensity(enemy, player, count)
    }
}
