//! Commands into the battle: everything a player, the AI or a script can ask a creature to do.

use super::types::CreatureId;
use crate::rules::attack::Defense;
use crate::rules::creature::Attribute;
use crate::rules::facing::Facing;
use crate::rules::grid::Pos;
use crate::rules::posture::Posture;
use serde::{Deserialize, Serialize};

/// What an attack is aimed at.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Target {
    Creature(CreatureId),
    /// A square, for circles and rings centred within range.
    Square(Pos),
    /// A direction, for cones and rays from the attacker.
    Toward(Facing),
    /// AREA-E5: the squares a curve bends at and ends on, in order from the attacker.
    Curve(Vec<Pos>),
}

/// Everything a player, the AI or a script can ask a creature to do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Command {
    /// MOVE-1: one move along `path` (start square first); `face` re-faces after it (FACE-2).
    Move {
        path: Vec<Pos>,
        #[serde(default)]
        sprint: bool,
        #[serde(default)]
        face: Option<Facing>,
    },
    /// MOVE-13, MOVE-E7: a move (1 AP) dragging an unconscious creature that lies
    /// next to the mover; the body follows into the last square the mover leaves.
    Drag {
        creature: CreatureId,
        path: Vec<Pos>,
        #[serde(default)]
        face: Option<Facing>,
    },
    /// MOVE-13 [Ext], MOVE-E7: lift an unconscious creature lying next to one (3 AP); it is
    /// carried along until put down.
    Lift {
        creature: CreatureId,
    },
    /// MOVE-13 [Ext]: put the carried body down on a free square next to one (3 AP).
    PutDown {
        at: Pos,
    },
    /// MOVE-14, MOVE-E8: mount a creature of one's side that is a mount, standing next to it (a
    /// posture change to Sit/Ride, 1 AP); from then on one moves only with it.
    Mount {
        mount: CreatureId,
    },
    /// MOVE-E8: get off onto a free square next to the mount (a change to Standing, 1 AP).
    Dismount {
        to: Pos,
    },
    /// FACE-2: 0 AP in one's own turn.
    Face {
        facing: Facing,
    },
    /// POST-2 / POST-E2.
    ChangePosture {
        posture: Posture,
    },
    /// ATK-E7; `additives` name additive abilities declared with it (TIME-16, TIME-E7).
    Attack {
        weapon: String,
        target: Target,
        #[serde(default)]
        additives: Vec<String>,
    },
    /// ATK-11: the answer to a defense window; None = take it.
    Defend {
        defense: Option<Defense>,
    },
    /// TIME-14: the answer to a "before the attack" window with Quick Step.
    QuickStep {
        to: Pos,
        #[serde(default)]
        face: Option<Facing>,
    },
    /// TIME-13: the answer to a declaration window with a counter-attack ability: strike the
    /// attacker back with this melee weapon, simultaneously.
    CounterAttack {
        weapon: String,
    },
    /// DICE-13: the answer to a Fate window: set these dice of the roll just made (index from
    /// 0 among its dice, new face); each one changed costs a die of the rolled attribute.
    /// `Pass` keeps the roll.
    Fate {
        set: Vec<crate::rules::fate::FateDie>,
    },
    /// Decline a reaction window.
    Pass,
    /// PERC-7: search the 3×3 squares centred on `at` (3 AP).
    Search {
        at: Pos,
    },
    /// PERC-E4: 1 AP, only while no hostile perceives the creature. Under 001's Hide and Spot
    /// (`Ruleset::hiding`) a hidden creature may also hide again: 1 AP re-rolls its hide points.
    Hide,
    /// 001's Spot (`Ruleset::hiding: HideSpot001` only): 1 AP, Spirit dice against the hide
    /// points of every hostile hider within the spotter's senses' range.
    Spot,
    /// FLOW-5.
    Flee,
    /// TIME-11: give up a long-term action; what was invested is lost.
    AbortLongTerm,
    /// CRE-5: how this creature splits multi-attribute damage from now on (first listed first).
    SetAllocation {
        order: Vec<Attribute>,
    },
    /// Move one's slot to just after `after` (once a round, before spending AP).
    Delay {
        after: CreatureId,
    },
    /// Open (`open: true`) or close the door at `at`, standing next to it (1 AP, ATK-16).
    Door {
        at: Pos,
        open: bool,
    },
    /// TIME-18: pick up `item` lying on one's own square or one next to it (TIME-17: 1, 2 or
    /// 3 AP by its weight).
    PickUp {
        at: Pos,
        item: String,
    },
    /// TIME-17 Variants: drop a carried item onto one's square (1 AP).
    DropItem {
        item: String,
    },
    /// TIME-18, TIME-E8: hand a carried item to an adjacent creature of one's side, which pays
    /// the same cost as a reaction.
    GiveItem {
        item: String,
        to: CreatureId,
    },
    /// Use a carried item on oneself or (`on`) an adjacent creature of one's side, unconscious
    /// or not (FLOW-8).
    UseItem {
        item: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        on: Option<CreatureId>,
    },
    /// TIME-E10: ready `weapon` against whoever sets off `trigger` (battle/ready.rs); it fires
    /// as a reaction before the start of the creature's next turn, for the weapon's AP + 1.
    Ready {
        weapon: String,
        #[serde(default)]
        trigger: ReadyTrigger,
    },
    EndTurn,
    /// TIME-S3 (seconds mode): cut `seconds` off one's gap, an Activeness die a second
    /// (TIME-E11); allowed at any moment.
    CutGap {
        seconds: i32,
    },
}

impl ReadyTrigger {
    /// What sets it off, in words ("the first hostile that ends a move in reach"); `named` is
    /// the name of the creature a ComesIntoView trigger names.
    pub fn describe(&self, named: impl Fn(CreatureId) -> String) -> String {
        match self {
            ReadyTrigger::InReach => "the first hostile that ends a move in reach".into(),
            ReadyTrigger::EntersArea { from, to } => format!("the first hostile to enter {from}–{to}"),
            ReadyTrigger::ComesIntoView { creature } => format!("{} when it comes into view", named(*creature)),
        }
    }
}

/// TIME-E10: what sets off a readied attack (battle/ready.rs).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReadyTrigger {
    /// A hostile ends a move where the readied weapon can strike it.
    #[default]
    InReach,
    /// A hostile's move passes through this rectangle (corners inclusive, in any order).
    EntersArea { from: Pos, to: Pos },
    /// This creature comes into view by its move.
    ComesIntoView { creature: CreatureId },
}
