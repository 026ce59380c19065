//! Journeys of several moves, for planning: walking costs from a square, with creatures left
//! out (they move) and the walker standing, whatever its posture now.

use super::state::*;
use super::types::*;
use crate::rules::grid::Pos;
use crate::rules::movement::{MoveField, Mover, cost_field, cost_field_from, cost_field_within};
use crate::rules::posture::Posture;

impl Battle {
    /// This creature as it would walk a journey: standing, not sprinting.
    fn journey_walker(&self, id: CreatureId) -> Mover {
        Mover { posture: Posture::Standing, ..self.mover(id, false) }
    }

    /// Walking costs over the whole map for this creature's footprint from `from`, ignoring
    /// creatures (they move) and posture: for planning journeys of several moves.
    pub fn journey_costs(&self, id: CreatureId, from: Pos) -> MoveField {
        cost_field(&self.map, None, &self.journey_walker(id), from)
    }

    /// `journey_costs` out to `budget` quarter steps only (squares farther are unreached): "could
    /// it walk there within so much?", searched over the squares that budget covers.
    pub fn journey_costs_within(&self, id: CreatureId, from: Pos, budget: u32) -> MoveField {
        cost_field_within(&self.map, None, &self.journey_walker(id), from, budget)
    }

    /// Walking costs over the whole map for this creature's footprint from `from`, standing,
    /// with the bodies its side knows of in its way (SPACE-9: those within a size of it) and
    /// GEN-1's hold order, but not `lifted`. Standing creatures are left out as they move;
    /// bodies do not, so a journey of several turns meets them where they lie ("would the way
    /// open were this body lifted?").
    pub fn journey_costs_past_bodies(&self, id: CreatureId, from: Pos, lifted: Option<CreatureId>) -> MoveField {
        let side = self.creatures[id as usize].side;
        let body = |o: CreatureId| {
            Some(o) != lifted && self.creatures[o as usize].attrs.is_unconscious() && self.knows(side, o)
        };
        let occupancy = self.occupancy_where(id, body);
        cost_field(&self.map, Some(&occupancy), &self.journey_walker(id), from)
    }

    /// Walking costs over the whole map for this creature's footprint from the nearest of
    /// `origins` (creatures ignored, standing): "how far is it to the nearest of these squares?"
    pub fn journey_costs_from(&self, id: CreatureId, origins: &[Pos]) -> MoveField {
        cost_field_from(&self.map, None, &self.journey_walker(id), origins)
    }
}
