//! DICE-13 [Ext] Expense of Fate in a battle: right after an attack roll or a defense roll made
//! with the roller's own attribute dice, a window asks the roller whether to keep it or to set
//! some of those dice (rules/fate.rs), each set die then removed from the attribute (no
//! protection, no effect prevents it: CRE-6 follows if a pool empties). Offered per
//! `Ruleset::expense_of_fate`: by default to the sides a person plays (GEN-E1: player-only).
//!
//! Engine decisions: only attack and defense rolls are offered (initiative is a sum, DICE-3,
//! and the other rolls of a battle — spotting, searching, fleeing, hazards — are secret or not
//! the creature's own choice to make at that moment); a window opens only when some own die
//! could still score more (one not showing 2); the dice are removed as soon as the roll is
//! settled, and an attacker that knocks itself out so rolls no further segments.

use super::check::{Plan, reject};
use super::state::*;
use super::types::*;
use crate::rules::attack::{DamageModifiers, Defense, resolve_segment};
use crate::rules::creature::{Attribute, allocate_damage};
use crate::rules::dice::DicePoints;
use crate::rules::fate::{FateDie, apply};
use crate::rules::ruleset::FateOffer;

/// A roll a Fate window is open for.
#[derive(Clone, Debug, PartialEq)]
pub struct FateRoll {
    pub roller: CreatureId,
    pub faces: Vec<u8>,
    /// The first `own` dice are the roller's own attribute dice.
    pub own: usize,
    pub attribute: Attribute,
    /// None: the attack roll; Some: this defense's roll.
    pub defense: Option<Defense>,
}

/// What the roller of an open Fate window sees of its roll (the query the AI and the window's
/// prompt ask).
#[derive(Clone, Debug, PartialEq)]
pub struct FateWindow {
    pub roller: CreatureId,
    pub faces: Vec<u8>,
    pub own: usize,
    pub attribute: Attribute,
    /// The roller's dice of `attribute` now.
    pub dice_left: i32,
    pub defense: Option<Defense>,
    /// Who the segment's damage falls on: the attack's target, or the defender itself.
    pub struck: CreatureId,
    /// An attack roll only: the struck may still defend this segment (ATK-11), so the damage
    /// of [`FatePreview`] is not yet sure.
    pub defendable: bool,
    /// Which faces score in this battle (its ruleset's `dice_points`): what a raise sets.
    pub points: DicePoints,
}

/// What keeping or changing the roll would do to the segment, as far as it is known now (an
/// attack roll's damage is before the target's defense, which is still to come).
#[derive(Clone, Debug, PartialEq)]
pub struct FatePreview {
    pub points: i32,
    /// This segment's damage to `struck`.
    pub damage: i32,
    /// The attack's damage to `struck` so far, this segment's included (it lands as a batch).
    pub total_damage: i32,
    pub dice_lost: i32,
    /// `struck` falls unconscious once the batch lands (CRE-6), the fate's cost included when
    /// the struck is the roller.
    pub struck_knocked_out: bool,
    /// The roller's own pools empty by the fate's cost (with the damage, for a defender).
    pub roller_knocked_out: bool,
}

impl Battle {
    /// DICE-13, GEN-E1: whether `roller` is offered Expense of Fate on `faces`, of which the
    /// first `own` are its own dice.
    fn offers_fate(&self, roller: CreatureId, faces: &[u8], own: usize) -> bool {
        let f = &self.creatures[roller as usize];
        let offered = match self.ruleset.expense_of_fate {
            FateOffer::Off => false,
            FateOffer::Everyone => true,
            FateOffer::Players => self.sides[f.side].fate,
        };
        offered && f.can_act() && faces.iter().take(own).any(|&face| !self.ruleset.dice_points.scores_most(face))
    }

    /// The Fate roll for an attack segment's `faces`, when it is offered: the weapon's
    /// attribute dice come first (DiceExpr: attribute ÷ div, then the added dice).
    /// The faces are copied only when a window opens: most rolls are offered nothing.
    pub(super) fn fate_for_attack(&self, flow: &super::attack::AttackFlow, faces: &[u8]) -> Option<FateRoll> {
        let a = &self.creatures[flow.attacker as usize];
        let dice = &flow.weapon.weapon.dice;
        let attribute = dice.attribute.filter(|&at| a.attrs.is_valid(at))?;
        let own = ((a.attrs.dice(attribute) / dice.div.max(1)).max(0) as usize).min(faces.len());
        self.offers_fate(flow.attacker, faces, own).then(|| FateRoll {
            roller: flow.attacker,
            faces: faces.to_vec(),
            own,
            attribute,
            defense: None,
        })
    }

    /// The Fate roll for `id`'s defense roll, when it is offered: its attribute's dice (less a
    /// posture's penalty) come before a shield's.
    pub(super) fn fate_for_defense(&self, id: CreatureId, defense: Defense, faces: &[u8]) -> Option<FateRoll> {
        let f = &self.creatures[id as usize];
        let attribute = defense.attribute();
        if !f.attrs.is_valid(attribute) {
            return None;
        }
        let own = ((f.attrs.dice(attribute) - self.roll_penalty(f.posture)).max(0) as usize).min(faces.len());
        self.offers_fate(id, faces, own).then(|| FateRoll {
            roller: id,
            faces: faces.to_vec(),
            own,
            attribute,
            defense: Some(defense),
        })
    }

    fn open_fate(&self) -> Option<(&super::attack::AttackFlow, &FateRoll)> {
        let w = self.window().filter(|w| w.kind == WindowKind::Fate)?;
        let flow = &w.attack.flow;
        Some((flow, flow.fate.as_ref()?))
    }

    /// DICE-13: the roll the open Fate window is about, or None when none is open.
    pub fn fate_window(&self) -> Option<FateWindow> {
        let (flow, roll) = self.open_fate()?;
        Some(FateWindow {
            roller: roll.roller,
            faces: roll.faces.clone(),
            own: roll.own,
            attribute: roll.attribute,
            dice_left: self.creatures[roll.roller as usize].attrs.dice(roll.attribute),
            defense: roll.defense,
            struck: flow.targets[flow.idx].id,
            defendable: roll.defense.is_none() && self.may_defend(&flow.targets[flow.idx], flow.chain),
            points: self.ruleset.dice_points,
        })
    }

    /// DICE-13: what setting `set` (empty: keeping the roll) would do, or the rule refusing it.
    pub fn fate_preview(&self, set: &[FateDie]) -> Result<FatePreview, Rejection> {
        let Some((flow, roll)) = self.open_fate() else {
            return reject("DICE-13", "no roll is waiting for Expense of Fate");
        };
        if set.len() > roll.own {
            return reject("DICE-13", format!("only {} of the dice are the roller's own", roll.own));
        }
        let faces = apply(&roll.faces, roll.own, set).map_err(|e| Rejection::new("DICE-13", e.to_string()))?;
        let pts = self.ruleset.dice_points.points(&faces) as i32;
        let run = &flow.targets[flow.idx];
        let (attack_points, defense_points) = match roll.defense {
            None => (pts, None),
            Some(_) => (flow.pending_points.unwrap_or(0), Some(pts)),
        };
        let out = resolve_segment(attack_points, run.strike.protection, defense_points, &DamageModifiers::default(), 0);
        let lost = set.len() as i32;
        let cost = (roll.attribute, lost);
        let total = run.damage + out.damage;
        let targets = &flow.weapon.weapon.targets;
        let struck_is_roller = run.id == roll.roller;
        let struck_out = self.knocked_out_by(run.id, targets, total, struck_is_roller.then_some(cost));
        let roller_out =
            if struck_is_roller { struck_out } else { self.knocked_out_by(roll.roller, &[], 0, Some(cost)) };
        Ok(FatePreview {
            points: pts,
            damage: out.damage,
            total_damage: total,
            dice_lost: lost,
            struck_knocked_out: struck_out,
            roller_knocked_out: roller_out,
        })
    }

    /// Would `id` be unconscious after losing `cost` and then taking `damage` to `targets`?
    fn knocked_out_by(
        &self,
        id: CreatureId,
        targets: &[Attribute],
        damage: i32,
        cost: Option<(Attribute, i32)>,
    ) -> bool {
        let f = &self.creatures[id as usize];
        let mut attrs = f.attrs;
        if let Some((a, n)) = cost {
            attrs.remove_dice(a, n);
        }
        let (order, how) = super::attack::damage_order(f, targets);
        allocate_damage(&mut attrs, &order, damage, how);
        attrs.is_unconscious()
    }

    /// Check a Fate window's answer.
    pub(super) fn plan_fate(&self, set: &[FateDie]) -> Result<Plan, Rejection> {
        self.fate_preview(set).map(|_| Plan::Fate(set.to_vec()))
    }

    /// DICE-13: keep the roll (`set` empty) or change it, pay the dice, and go on with the attack.
    pub(super) fn answer_fate(&mut self, id: CreatureId, set: Vec<FateDie>) {
        let mut attack = self.close_window();
        let Some(roll) = attack.flow.fate.take() else { return self.resume_attack(attack) };
        let faces = apply(&roll.faces, roll.own, &set).unwrap_or_else(|_| roll.faces.clone());
        let pts = self.ruleset.dice_points.points(&faces) as i32;
        if set.is_empty() {
            self.log_about(Event::ReactionDeclined { creature: id }, &[id]);
        } else {
            let f = &mut self.creatures[id as usize];
            let dice = f.attrs.remove_dice(roll.attribute, set.len() as i32);
            let left = f.attrs.dice(roll.attribute);
            let spent = Event::FateSpent { creature: id, attribute: roll.attribute, dice, faces, points: pts, left };
            self.log_about(spent, &[id]);
        }
        match roll.defense {
            None => attack.flow.rolled = Some(pts),
            Some(d) => {
                let attack_points = attack.flow.pending_points.unwrap_or(0);
                self.settle_segment(&mut attack.flow, attack_points, Some(d), Some(pts));
            }
        }
        if !set.is_empty() {
            self.check_unconscious(&[id]);
        }
        self.resume_attack(attack);
    }
}
