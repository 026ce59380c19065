//! Commands into the battle and events out of it. The event stream is the single source for the
//! log, the client's animations and replays.

pub use super::check::Rejection;
use crate::rules::attack::Defense;
use crate::rules::creature::Attribute;
use crate::rules::facing::Facing;
use crate::rules::forced::{ForcedKind, ForcedStop};
use crate::rules::grid::Pos;
use crate::rules::posture::Posture;
use serde::{Deserialize, Serialize};

/// A creature's index in the level's creature list.
pub type CreatureId = u32;

pub use super::command::{Command, ReadyTrigger, Target};

/// Which kind of reaction a window asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WindowKind {
    /// TIME-E6: when the attack is declared: "before" reactions (Quick Step) and simultaneous
    /// ones (a counter-attack).
    BeforeAttack,
    /// ATK-11: defend this segment.
    Defense,
    /// DICE-13: the roller's own roll was just made; keep it, or change dice at their cost.
    Fate,
}

/// Why a battle ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    Victory { side: String, reason: String },
    Draw { reason: String },
}

/// Everything that happens, in order.
/// One side's spot check at an encounter's opening (PERC-E7): its best spotter's Spirit roll
/// against the other side's most visible creature.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpotCheck {
    pub side: String,
    pub spotter: CreatureId,
    pub faces: Vec<u8>,
    pub points: i32,
    pub difficulty: i64,
    pub spotted: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Event {
    BattleStarted {
        level: String,
        seed: u64,
        /// DICE-13: the sides a person plays, offered Expense of Fate (`FateOffer::Players`);
        /// a replay rebuilds the battle with the same. Absent when none.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        fate: Vec<String>,
    },
    /// PERC-E7: the encounter rolls — the distance (3Σ × 4 steps, for the record: the level
    /// places the creatures) and each side's spot check; the sides that failed while another
    /// succeeded are surprised (TIME-E9).
    EncounterOpened {
        distance: u32,
        spots: Vec<SpotCheck>,
        surprised: Vec<String>,
    },
    /// TIME-2 / TIME-3 / TIME-5: `members` share the slot of a group roll.
    InitiativeRolled {
        members: Vec<CreatureId>,
        faces: Vec<u8>,
        total: u32,
        tie_breaks: Vec<u32>,
    },
    TurnOrder {
        order: Vec<CreatureId>,
    },
    RoundStarted {
        round: u32,
    },
    /// TIME-S1: the seconds mode's next second of the round (the first comes with the round).
    SecondStarted {
        round: u32,
        second: u32,
    },
    /// TIME-S2: an action of `seconds` seconds is declared; it resolves at its last second.
    ActionBegun {
        creature: CreatureId,
        seconds: i32,
    },
    /// TIME-S7: what the die by the token shows now.
    ClockSet {
        creature: CreatureId,
        clock: super::seconds::ClockView,
    },
    /// TIME-S3, TIME-E11: fatigue taken to cut a gap (an Activeness die a second).
    FatigueTaken {
        creature: CreatureId,
        seconds: i32,
    },
    TurnStarted {
        creature: CreatureId,
        ap: i32,
    },
    /// A command as accepted: replays re-issue exactly these.
    CommandAccepted {
        creature: CreatureId,
        command: Command,
    },
    /// Check failed: nothing changed.
    CommandRejected {
        creature: CreatureId,
        command: Command,
        rule: String,
        reason: String,
    },
    /// A move as a side saw it: the whole path for its own side and those who saw all of it,
    /// else only the stretch it saw (`cost_quarters` is then 0: the cost is the mover's).
    Moved {
        creature: CreatureId,
        path: Vec<Pos>,
        cost_quarters: u32,
        sprint: bool,
    },
    Faced {
        creature: CreatureId,
        facing: Facing,
    },
    PostureChanged {
        creature: CreatureId,
        posture: Posture,
        forced: bool,
    },
    ApSpent {
        creature: CreatureId,
        ap: i32,
        left: i32,
    },
    LongTermStarted {
        creature: CreatureId,
        weapon: String,
        remaining: i32,
    },
    LongTermProgress {
        creature: CreatureId,
        paid: i32,
        remaining: i32,
    },
    LongTermAborted {
        creature: CreatureId,
        reason: String,
    },
    /// An attack as a side that perceives the attacker sees it: `targets` lists only those
    /// the side perceives (an area may strike more).
    AttackDeclared {
        attacker: CreatureId,
        weapon: String,
        targets: Vec<CreatureId>,
        dice: i32,
    },
    /// PERC-3, ATK-11: an attack as a side that does not perceive the attacker sees it: its
    /// creatures (or ones it perceives) are attacked, by whom it does not know.
    AttackedByUnseen {
        targets: Vec<CreatureId>,
    },
    ReactionWindowOpened {
        creature: CreatureId,
        kind: WindowKind,
        attacker: CreatureId,
    },
    ReactionDeclined {
        creature: CreatureId,
    },
    QuickStepped {
        creature: CreatureId,
        to: Pos,
    },
    Delayed {
        creature: CreatureId,
        after: CreatureId,
    },
    /// TIME-13: a simultaneous counter-attack, resolved with the attack it answers.
    CounterAttackDeclared {
        creature: CreatureId,
        weapon: String,
        against: CreatureId,
    },
    /// TIME-14: cancelled as if never made; AP spent this round refunded.
    AttackCancelled {
        attacker: CreatureId,
        refunded_ap: i32,
        reason: String,
    },
    /// Dice as rolled: `purpose` says what for.
    Rolled {
        creature: CreatureId,
        purpose: String,
        faces: Vec<u8>,
        points: i32,
    },
    /// DICE-13: `creature` set `dice` of its roll (now `faces`, `points`) by Expense of Fate,
    /// and lost as many dice of `attribute` (`left` now).
    FateSpent {
        creature: CreatureId,
        attribute: Attribute,
        dice: i32,
        faces: Vec<u8>,
        points: i32,
        left: i32,
    },
    /// `attacker` is None for a side that does not perceive the attacker.
    SegmentResolved {
        attacker: Option<CreatureId>,
        target: CreatureId,
        segment: u32,
        attack_points: i32,
        protection: i32,
        defense: Option<Defense>,
        defense_points: Option<i32>,
        solid_defense: bool,
        hit: bool,
        damage: i32,
    },
    /// Why no defense window opened for a segment that could hurt (ATK-11).
    Undefendable {
        target: CreatureId,
        reason: String,
    },
    Damaged {
        creature: CreatureId,
        attribute: Attribute,
        dice: i32,
        left: i32,
    },
    Unconscious {
        creature: CreatureId,
    },
    Died {
        creature: CreatureId,
    },
    AmmoSpent {
        creature: CreatureId,
        weapon: String,
        left: u32,
    },
    Searched {
        creature: CreatureId,
        at: Pos,
        points: i32,
        found: Vec<CreatureId>,
    },
    HidCreature {
        creature: CreatureId,
        difficulty: i64,
    },
    /// 001's Spot (`Ruleset::hiding: HideSpot001`): `points` beat the hide points of the
    /// `locked` hiders (perceived by its side until the round ends) and of the `noticed` ones
    /// (no clear line, or unseen in the dark: their squares are known, not them).
    SpotMade {
        creature: CreatureId,
        points: i32,
        locked: Vec<CreatureId>,
        noticed: Vec<CreatureId>,
    },
    /// PERC-E4: a hostile the creature's side did not perceive was watching it: the AP is
    /// spent and it is not hidden.
    HideFailed {
        creature: CreatureId,
    },
    /// MOVE-11, MOVE-E5: pushed or pulled by `by`'s weapon, square by square along `path`
    /// (its south-west square from where it stood); `stop` says why it ended there.
    ForcedMoved {
        creature: CreatureId,
        /// None for a side that does not perceive who pushed.
        by: Option<CreatureId>,
        kind: ForcedKind,
        path: Vec<Pos>,
        stop: ForcedStop,
    },
    /// MOVE-12, MOVE-10: it went over an edge at `at` and fell `depth` steps: `dice` is the
    /// fall's attack (0 for a drop no higher than its body), on it and on `onto`, a creature
    /// it landed on.
    Fell {
        creature: CreatureId,
        at: Pos,
        depth: i32,
        dice: i32,
        onto: Option<CreatureId>,
        /// Where it comes to rest (beside `onto`, if it landed on someone).
        rest: Pos,
    },
    /// MOVE-13, MOVE-E7: `by` dragged the body from `from` into the square it left, `to`
    /// (None for a side that does not perceive the dragger).
    Dragged {
        creature: CreatureId,
        by: Option<CreatureId>,
        from: Pos,
        to: Pos,
    },
    /// MOVE-13 [Ext], MOVE-E7: `by` lifted the body off the grid; it rides with `by` (None for
    /// a side that perceives the body but not the lifter).
    Lifted {
        creature: CreatureId,
        by: Option<CreatureId>,
    },
    /// MOVE-13 [Ext]: `by` put the body down (or let it fall, knocked out or killed) on `at`
    /// (None for a side that perceives the body but not the carrier).
    PutDown {
        creature: CreatureId,
        by: Option<CreatureId>,
        at: Pos,
    },
    /// MOVE-14, MOVE-E8: `creature` sits on `mount` (told to the sides that see both).
    Mounted {
        creature: CreatureId,
        mount: CreatureId,
    },
    /// MOVE-E8: the rider got off (or, `forced`, fell off or was thrown) onto `at` (`mount`
    /// None for a side that does not perceive the mount).
    Dismounted {
        creature: CreatureId,
        mount: Option<CreatureId>,
        at: Pos,
        forced: bool,
    },
    /// FLOW-D3: the blow took a sense (blinded, deafened) for its next `turns` turns.
    SenseLost {
        creature: CreatureId,
        sense: crate::rules::senses::Sense,
        turns: u32,
    },
    /// The sense came back.
    SenseRegained {
        creature: CreatureId,
        sense: crate::rules::senses::Sense,
    },
    /// PERC-E6: struck by an invisible attacker, `creature` knows the square it struck from
    /// until it moves (told only to the struck creature's side).
    InvisibleLocated {
        creature: CreatureId,
        attacker: CreatureId,
        at: Pos,
    },
    /// FLOW-10: the hazard `kind` at `at` strikes the creature (its roll and damage follow).
    HazardStruck {
        creature: CreatureId,
        kind: String,
        at: Pos,
    },
    /// ATK-16: an attack on the object at `at`, with this many dice a segment.
    ObjectAttacked {
        attacker: CreatureId,
        weapon: String,
        at: Pos,
        dice: i32,
    },
    /// ATK-E6: one segment's damage to the object at `at` beyond its protection, and its total
    /// against its durability.
    ObjectDamaged {
        at: Pos,
        protection: i32,
        damage: i32,
        total: i32,
        durability: i32,
    },
    /// ATK-E6: the object broke: it blocks nothing and shelters nobody; its square is rubble.
    ObjectBroken {
        at: Pos,
    },
    /// The door would not close: someone its side did not see stood in the doorway (the AP is
    /// spent). Told to its own side only.
    DoorBlocked {
        creature: CreatureId,
        at: Pos,
    },
    /// A door opened or closed (ATK-16; 1 AP, battle/objects.rs).
    DoorOperated {
        creature: CreatureId,
        at: Pos,
        open: bool,
    },
    /// TIME-E10: readied (told to its own side only).
    Readied {
        creature: CreatureId,
        weapon: String,
        trigger: ReadyTrigger,
    },
    /// TIME-E10: the trigger was met: the readied attack at `at` follows.
    ReadyFired {
        creature: CreatureId,
        at: CreatureId,
    },
    /// TIME-E10: its next turn began with the readiness unused (own side only).
    ReadyLapsed {
        creature: CreatureId,
    },
    /// TIME-18: an item taken up from `at`.
    ItemPickedUp {
        creature: CreatureId,
        item: String,
        at: Pos,
    },
    /// TIME-18: a hindrance its side did not know of (someone on the square) made the pick-up
    /// fail; the AP is spent. Told to its own side only.
    PickUpFailed {
        creature: CreatureId,
        item: String,
        at: Pos,
    },
    ItemDropped {
        creature: CreatureId,
        item: String,
        at: Pos,
    },
    /// TIME-E8: handed over, the receiver paying its share as a reaction.
    ItemGiven {
        from: CreatureId,
        to: CreatureId,
        item: String,
    },
    ItemUsed {
        creature: CreatureId,
        item: String,
        on: CreatureId,
    },
    /// CRE-4: dice recovered by an item (never above the maximum).
    DiceRecovered {
        creature: CreatureId,
        attribute: crate::rules::creature::Attribute,
        dice: i32,
    },
    /// FLOW-8: every attribute has a die again: it wakes (still lying down).
    Woke {
        creature: CreatureId,
    },
    /// ATK-6: spare ammunition loaded; `left` shots now.
    Reloaded {
        creature: CreatureId,
        weapon: String,
        left: u32,
    },
    /// MOVE-E6: the turn after a fall starts `ap_lost` AP short.
    FallRecovery {
        creature: CreatureId,
        ap_lost: i32,
        left: i32,
    },
    /// SPACE-E5 (Engine decision): the move ran into a creature its side did not perceive and
    /// stopped at `at`, the last square it could stand on (the path in `Moved` ends there).
    MoveInterrupted {
        creature: CreatureId,
        at: Pos,
    },
    Revealed {
        creature: CreatureId,
        reason: String,
    },
    FleeAttempted {
        creature: CreatureId,
        points: i32,
        difficulty: i64,
        success: bool,
    },
    Fled {
        creature: CreatureId,
    },
    Joined {
        creature: CreatureId,
        at: Pos,
    },
    /// TIME-4 (Engine decision): no square on the map was free for a latecomer; it arrives at
    /// the end of `round` instead.
    ArrivalDelayed {
        creature: CreatureId,
        round: u32,
    },
    /// A side starts or stops perceiving a creature.
    Spotted {
        side: String,
        creature: CreatureId,
    },
    LostSight {
        side: String,
        creature: CreatureId,
    },
    TurnEnded {
        creature: CreatureId,
    },
    RoundEnded {
        round: u32,
    },
    BattleEnded {
        outcome: Outcome,
    },
}

/// One line of the log: the event, when, and which sides may see it (a side's log, AI and screen
/// only ever read the events it may see).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogEntry {
    pub seq: u32,
    pub round: u32,
    pub visible_to: Vec<String>,
    pub event: Event,
    /// One side's partial view of something the log also holds whole (a stretch of a move, an
    /// attack by an unseen attacker, a turn order without the unseen): the whole record (a GM's
    /// report, a replay's summary) skips these; a side's view includes them.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub partial: bool,
}
