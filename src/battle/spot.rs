//! 001's Hide and Spot (`Ruleset::hiding: HideSpot001`; the "hiding and spotting" Variants of
//! PERC-E4, 001_1172b9e802f06534.txt:150-151), beside the default search (PERC-7, PERC-8).
//!
//! Hiding itself is PERC-E4's Hidden state either way: the same Hide action (1 AP, only while
//! no hostile perceives the creature) starts it and the same things end it (attacking, a
//! loud action, walking into view, a hostile next to it). What 001 changes is how a hider is
//! found:
//! - **Hide points** (001 Hide): Activeness dice (001's Exactitude; the digest's mapping), rolled
//!   when it hides and again at every round start; hiding again while hidden (1 AP) re-rolls
//!   them (001: "1 tactical action re-rolls"). The roll is secret: only its side sees it.
//! - **Spot** (001 Spot): 1 AP (001's emergency action; Engine decision: made in the spotter's
//!   own turn, the engine having no reaction window for it), Spirit dice (001's Sense) against
//!   every hostile hider within the spotter's senses' range. Each hider with fewer hide points
//!   is *locked on* until the round ends: the spotter's side perceives it by the usual senses
//!   (PERC-E2) while it stays hidden from the others. One it has no clear line to is only
//!   *noticed* (001: "aware"): its side learns where it is (a last sighting, as the AI hunts
//!   by), without perceiving it.
//! - A search (PERC-7) still works on a hider in its scope: its points must beat the hide
//!   points likewise.

use super::state::*;
use super::types::*;
use crate::rules::creature::Attribute;
use crate::rules::dice::roll_faces;
use crate::rules::grid::footprint_distance;
use crate::rules::los::clear_line;
use crate::rules::ruleset::Hiding;

/// 001 Spot: one emergency action, here 1 AP.
pub const SPOT_AP: i32 = 1;

impl Battle {
    /// Is 001's Hide and Spot the ruleset's way of finding hiders?
    pub(super) fn hide_points_001(&self) -> bool {
        self.ruleset.hiding == Hiding::HideSpot001
    }

    /// Roll `id`'s hide points (its Activeness dice less its posture's penalty), secretly.
    pub(super) fn roll_hide_points(&mut self, id: CreatureId) -> i64 {
        let me = &self.creatures[id as usize];
        let dice = me.attrs.dice(Attribute::Activeness) - self.roll_penalty(me.posture);
        let faces = roll_faces(&mut self.rng, dice);
        let points = self.ruleset.dice_points.points(&faces) as i32;
        let side = self.sides[me.side].name.clone();
        self.log_to(Event::Rolled { creature: id, purpose: "hide points".into(), faces, points }, vec![side]);
        i64::from(points)
    }

    /// Round start under 001: every lock-on ends, and every hider rolls its hide points anew.
    pub(super) fn renew_hiding(&mut self) {
        if !self.hide_points_001() {
            return;
        }
        for id in 0..self.n() as CreatureId {
            self.creatures[id as usize].locked_on.clear();
            if self.creatures[id as usize].is_active() && self.creatures[id as usize].hidden.is_some() {
                let points = self.roll_hide_points(id);
                self.creatures[id as usize].hidden = Some(points);
            }
        }
    }

    /// Do `found`'s points find a hider with `hidden` (PERC-8's difficulty, or 001's hide
    /// points)? A search's attempt (DICE-6) by default; under 001 the contest of points.
    pub(super) fn finds_hider(&self, faces: &[u8], hidden: i64) -> bool {
        if self.hide_points_001() {
            i64::from(self.ruleset.dice_points.points(faces)) > hidden
        } else {
            self.ruleset.attempts.succeeds(self.ruleset.dice_points, faces, hidden)
        }
    }

    /// How far a spotter's Spot reaches: the farthest of its senses now (PERC-4).
    pub(super) fn spot_range(&self, f: &Fighter) -> i32 {
        f.sense_ranges().into_iter().max().unwrap_or(0)
    }

    pub(super) fn do_spot(&mut self, id: CreatureId) {
        self.spend(id, SPOT_AP);
        let me = &self.creatures[id as usize];
        let dice = me.attrs.dice(Attribute::Spirit) - self.roll_penalty(me.posture);
        let faces = roll_faces(&mut self.rng, dice);
        let points = self.ruleset.dice_points.points(&faces) as i32;
        let (side, range, fp) = (me.side, self.spot_range(me), me.footprint());
        let side_name = self.sides[side].name.clone();
        self.log_to(
            Event::Rolled { creature: id, purpose: "spot".into(), faces: faces.clone(), points },
            vec![side_name.clone()],
        );
        let (mut locked, mut noticed) = (Vec::new(), Vec::new());
        for o in &self.creatures {
            let Some(hide_points) = o.hidden else { continue };
            if !o.is_active()
                || !self.hostile(id, o.id)
                || footprint_distance(fp, o.footprint()) > range
                || i64::from(points) <= hide_points
            {
                continue;
            }
            if fp.cells().any(|a| o.footprint().cells().any(|b| clear_line(&self.map, a, b))) {
                locked.push(o.id);
            } else {
                noticed.push(o.id);
            }
        }
        for &h in &locked {
            let sides = &mut self.creatures[h as usize].locked_on;
            if !sides.contains(&side) {
                sides.push(side);
            }
            self.refresh_perception_of(h);
        }
        self.sync_perception();
        // What is locked on is perceived only by the usual senses (light, range): one the side
        // still does not perceive is noticed, like one behind a wall.
        let (locked, unseen): (Vec<CreatureId>, Vec<CreatureId>) =
            locked.into_iter().partition(|&h| self.knows(side, h));
        noticed.extend(unseen);
        noticed.sort_unstable();
        let n = self.n();
        for &h in &noticed {
            self.last_seen[side * n + h as usize] = Some(self.creatures[h as usize].origin);
        }
        self.log_to(Event::SpotMade { creature: id, points, locked, noticed }, vec![side_name]);
    }
}
