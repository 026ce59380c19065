//! One attacker against one target, each standing somewhere: the geometry and senses every
//! weapon's numbers come from (reach, line of effect, who perceives whom, cover, the rear arc),
//! worked out once per pair, and the numbers of an attack with a given weapon. The engine's
//! own attacks and every preview (the AI's "if I stood there", the client's odds) go through
//! here, so they cannot disagree.

use super::check::reject;
use super::state::*;
use super::types::*;
use crate::rules::attack::{effective_protection, range_dice_modifier};
use crate::rules::facing::{Actor, Sector, sector_for};
use crate::rules::grid::{Footprint, Pos, distance_with_height, footprint_distance};
use crate::rules::los::{has_cover, line_of_effect};
use crate::rules::posture::cover_bonus;

/// The geometry and senses between an attacker standing at `from` and a target at `at`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Engagement {
    pub attacker: CreatureId,
    pub target: CreatureId,
    pub from: Placement,
    pub at: Placement,
    /// SPACE-6 between the footprints.
    pub distance: i32,
    /// ATK-E2: a line of effect joins the footprints (always, when adjacent).
    pub line_of_effect: bool,
    /// PERC-3: the attacker's side perceives the target now.
    pub side_knows: bool,
    /// PERC-3: the attacker itself would perceive the target from there.
    pub attacker_perceives: bool,
    /// ATK-11: the target would perceive the attacker.
    pub target_perceives: bool,
    /// ATK-E5: terrain gives the target cover from the attacker's square.
    pub cover: bool,
    /// FACE-4: the attacker stands in the target's rear arc.
    pub rear: bool,
}

/// Why an attack cannot reach its target from there (made into words only when shown).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReachError {
    /// ATK-4: a creature cannot attack itself.
    Itself,
    /// PERC-3: the attacker's side perceives no such creature (nothing more is told).
    Unknown,
    /// ATK-4: the target is not on the battlefield.
    Gone,
    /// PERC-3: the side perceives it, the attacker itself would not.
    Unperceived,
    /// ATK-4: out of the weapon's reach.
    OutOfRange { distance: i32, max: i32 },
    /// ATK-E2: no line of effect.
    NoLine,
}

/// Why a target cannot defend against an attack at all (ATK-11).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Undefendable {
    NoDefenseListed,
    Unconscious,
    LongTermAction,
    UnseenAttacker,
    FromTheRear,
    Surprised,
}

impl Undefendable {
    pub fn rejection(self) -> Rejection {
        let (rule, reason) = match self {
            Undefendable::NoDefenseListed => ("ATK-11", "the attack lists no defense"),
            Undefendable::Unconscious => ("ATK-17", "unconscious creatures cannot defend"),
            Undefendable::LongTermAction => ("TIME-11", "busy with a long-term action"),
            Undefendable::UnseenAttacker => ("ATK-11", "the attacker is unseen"),
            Undefendable::FromTheRear => ("FACE-4", "the attack comes from the rear"),
            Undefendable::Surprised => ("TIME-E9", "caught unaware: no defense before round 1"),
        };
        Rejection::new(rule, reason)
    }
}

/// What one attack rolls against one target (ATK-E7 steps 1-3), as the battle applies it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Strike {
    /// Dice after every modifier: attribute, additives, range, posture (DICE-12, ATK-4/5, POST-E1).
    pub dice: i32,
    /// Protection after cover, posture and penetration (ATK-9/10/15, POST-E3).
    pub protection: i32,
    /// The target has terrain cover from where the attack comes (ATK-E5).
    pub cover: bool,
    /// The attacker stands in the target's rear arc (FACE-4).
    pub rear: bool,
    pub defendable: Result<(), Undefendable>,
}

impl Battle {
    /// Does `v` at `v_at` perceive `t` at `t_origin`? The cached answer when both stand where
    /// they are.
    pub(super) fn perceives_at(&self, v: &Fighter, v_at: Placement, t: &Fighter, t_origin: Pos) -> bool {
        if v_at == v.placement() && t_origin == t.origin {
            self.perceives(v.id, t.id)
        } else {
            self.perceives_placed(v, v_at, t, t_origin)
        }
    }

    /// FACE-4: is `a` (its footprint at `a_origin`) in the rear arc of `t` placed at `t_at`?
    pub(super) fn in_rear_arc(&self, t: &Fighter, t_at: Placement, a: &Fighter, a_origin: Pos) -> bool {
        self.ruleset.facing
            && sector_for(
                Footprint::new(t_at.origin, t.size.footprint()),
                t_at.facing,
                self.ruleset.facing_arcs,
                Footprint::new(a_origin, a.size.footprint()),
                Actor::Attacker,
            ) == Some(Sector::Rear)
    }

    /// FACE-4 applied to every reaction to an attack (Engine decision): what comes from the
    /// blind rear cannot be answered, whether by defense, Quick Step or counter-attack.
    pub(super) fn attacked_from_rear(&self, t: CreatureId, attacker: CreatureId) -> bool {
        let (a, f) = (&self.creatures[attacker as usize], &self.creatures[t as usize]);
        self.in_rear_arc(f, f.placement(), a, a.origin)
    }

    /// Everything between `a` at `from` and `t` at `at` that a weapon's numbers depend on.
    pub(super) fn engagement_of(&self, a: &Fighter, from: Placement, t: &Fighter, at: Placement) -> Engagement {
        let mut e = self.engagement_in_reach(a, from, t, at);
        let (af, tf) = (Footprint::new(from.origin, a.size.footprint()), Footprint::new(at.origin, t.size.footprint()));
        e.line_of_effect = e.distance <= 1 || af.cells().any(|x| tf.cells().any(|y| line_of_effect(&self.map, x, y)));
        e.side_knows = self.side_perceives(a.side, t.id);
        e.attacker_perceives = self.perceives_at(a, from, t, at.origin);
        e
    }

    /// The part of an engagement that does not decide reach (for numbers "as if in reach"):
    /// line, perception of the target and the side's knowledge are taken as given.
    pub(super) fn engagement_in_reach(&self, a: &Fighter, from: Placement, t: &Fighter, at: Placement) -> Engagement {
        let (af, tf) = (Footprint::new(from.origin, a.size.footprint()), Footprint::new(at.origin, t.size.footprint()));
        let height = self.map.depth_under(af) - self.map.depth_under(tf);
        let distance = distance_with_height(footprint_distance(af, tf), height);
        let adjacent = distance <= 1;
        Engagement {
            attacker: a.id,
            target: t.id,
            from,
            at,
            distance,
            line_of_effect: true,
            side_knows: true,
            attacker_perceives: true,
            target_perceives: self.perceives_at(t, at, a, from.origin),
            cover: !adjacent && tf.cells().any(|c| has_cover(&self.map, from.origin, c)),
            rear: self.in_rear_arc(t, at, a, from.origin),
        }
    }

    /// Range, line and perception of one weapon over an engagement: the range dice modifier.
    pub(super) fn reach_of(&self, e: &Engagement, w: &Armed) -> Result<i32, ReachError> {
        if e.attacker == e.target {
            return Err(ReachError::Itself);
        }
        // PERC-3, first: what the attacker's side does not perceive, it learns nothing about.
        if !e.side_knows {
            return Err(ReachError::Unknown);
        }
        if !self.creatures[e.target as usize].is_active() {
            return Err(ReachError::Gone);
        }
        if !e.attacker_perceives {
            return Err(ReachError::Unperceived);
        }
        let modifier = range_dice_modifier(w.weapon.range, e.distance, self.ruleset.overreach)
            .map_err(|o| ReachError::OutOfRange { distance: o.distance, max: o.max })?;
        if !e.line_of_effect {
            return Err(ReachError::NoLine);
        }
        Ok(modifier)
    }

    /// A reach error in words, for a refusal.
    pub(super) fn reach_rejection(&self, e: &Engagement, w: &Armed, why: ReachError) -> Rejection {
        let a = &self.creatures[e.attacker as usize];
        let t = &self.creatures[e.target as usize];
        match why {
            ReachError::Itself => Rejection::new("ATK-4", "a creature cannot attack itself"),
            ReachError::Unknown => {
                Rejection::new("PERC-3", format!("{}'s side perceives no creature {}", a.name, e.target))
            }
            ReachError::Gone => Rejection::new("ATK-4", format!("{} is not on the battlefield", t.name)),
            ReachError::Unperceived => {
                Rejection::new("PERC-3", format!("{} does not itself perceive {}", a.name, t.name))
            }
            ReachError::OutOfRange { distance, max } => {
                Rejection::new("ATK-4", format!("{} is {distance} steps away; {} reaches {max}", t.name, w.weapon.name))
            }
            ReachError::NoLine => Rejection::new("ATK-E2", format!("no line of effect to {}", t.name)),
        }
    }

    /// Range, line and perception for one creature target with the attacker at `a_at` and the
    /// target at `t_origin` (facing and posture as they stand); returns the range modifier.
    pub(super) fn reach(
        &self,
        a: &Fighter,
        a_at: Placement,
        target: CreatureId,
        t_origin: Pos,
        w: &Armed,
    ) -> Result<i32, Rejection> {
        let Some(t) = self.creatures.get(target as usize) else {
            return reject("CRE-1", format!("there is no creature {target}"));
        };
        let e = self.engagement_of(a, a_at, t, Placement { origin: t_origin, ..t.placement() });
        self.reach_of(&e, w).map_err(|why| self.reach_rejection(&e, w, why))
    }

    /// The numbers of an attack with `w` (+`extra` dice from additives) over an engagement,
    /// the attack coming from the attacker's square.
    pub(super) fn strike_of(&self, e: &Engagement, w: &Armed, extra: i32, range_modifier: i32) -> Strike {
        self.strike_by(&self.creatures[e.attacker as usize], e, w, extra, range_modifier, e.cover)
    }

    /// As [`Battle::strike_of`] for the attacker `a` as given (a side's memory of it, for a
    /// planner) and the cover given (an area's cover is from its centre).
    pub(super) fn strike_by(
        &self,
        a: &Fighter,
        e: &Engagement,
        w: &Armed,
        extra: i32,
        range_modifier: i32,
        cover: bool,
    ) -> Strike {
        let t = &self.creatures[e.target as usize];
        let ranged = w.weapon.range.ranged;
        let dice = w.weapon.dice.dice_for(&a.attrs) + extra + range_modifier
            - self.attack_penalty(e.from.posture, e.at.posture, ranged);
        let protection = match w.weapon.damage {
            None => 0,
            Some(kind) => {
                let posture = self.effective_posture(e.at.posture);
                let bonus = cover_bonus(i32::from(cover), posture, ranged, self.ruleset.posture_effects);
                effective_protection(t.protection.against(kind), bonus, w.weapon.penetration, false)
            }
        };
        // The attack-resolution variant (000 subtracts protection, 001 removes dice for it).
        let (dice, protection) = self.ruleset.attack_resolution.dice_and_protection(dice, protection);
        let defendable = if w.weapon.defenses.is_empty() {
            Err(Undefendable::NoDefenseListed)
        } else if t.attrs.is_unconscious() {
            Err(Undefendable::Unconscious)
        } else if t.long_term.is_some() {
            Err(Undefendable::LongTermAction)
        } else if t.surprised {
            Err(Undefendable::Surprised)
        } else if !e.target_perceives {
            Err(Undefendable::UnseenAttacker)
        } else if e.rear {
            Err(Undefendable::FromTheRear)
        } else {
            Ok(())
        };
        Strike { dice, protection, cover, rear: e.rear, defendable }
    }
}
