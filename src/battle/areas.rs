//! Where an area weapon lands (AREA-*): the squares a circle, ring, cone, ray or curve covers
//! as its target places it, or the rule refusing the placement. The attack pipeline
//! (`attack.rs`) strikes the creatures on them.

use super::check::reject;
use super::state::*;
use super::types::*;
use crate::level::compendium::AreaSpec;
use crate::rules::area::{self, Shape};
use crate::rules::grid::{Footprint, Pos, footprint_distance};
use crate::rules::los::line_of_effect;

/// Why a circle or ring may not be centred on a square.
enum CentreRefusal {
    OffMap,
    TooFar(i32),
    NoLine,
}

impl Battle {
    /// ATK-4, AREA-E6: may `attacker` centre its circle or ring weapon `weapon` on `at` (on the
    /// map, within range, along a line of effect)? Never for any other weapon. The check's own test, without the words of a
    /// refusal: a planner asks it of every square around every enemy.
    pub fn may_centre_area(&self, attacker: CreatureId, weapon: &str, at: Pos) -> bool {
        let Some(me) = self.creatures.get(attacker as usize) else { return false };
        me.weapon(weapon).is_some_and(|w| {
            matches!(w.weapon.area, Some(AreaSpec::Circle { .. } | AreaSpec::Ring { .. }))
                && self.centre_refusal(me, w, at).is_none()
        })
    }

    fn centre_refusal(&self, me: &Fighter, w: &Armed, p: Pos) -> Option<CentreRefusal> {
        if !self.map.in_bounds(p) {
            return Some(CentreRefusal::OffMap);
        }
        let d = footprint_distance(me.footprint(), Footprint::single(p));
        if d > w.weapon.range.max {
            return Some(CentreRefusal::TooFar(d));
        }
        (!line_of_effect(&self.map, me.origin, p)).then_some(CentreRefusal::NoLine)
    }

    /// AREA-*: the squares an area weapon covers, placed per its target.
    pub(super) fn area_cells(
        &self,
        id: CreatureId,
        w: &Armed,
        area: &AreaSpec,
        target: &Target,
    ) -> Result<Vec<Pos>, Rejection> {
        let me = &self.creatures[id as usize];
        let coverage = self.ruleset.area_coverage;
        match (area, target) {
            (AreaSpec::Circle { radius }, Target::Square(p)) | (AreaSpec::Ring { radius, .. }, Target::Square(p)) => {
                match self.centre_refusal(me, w, *p) {
                    Some(CentreRefusal::OffMap) => return reject("ATK-4", format!("{p} is off the map")),
                    Some(CentreRefusal::TooFar(d)) => {
                        return reject(
                            "ATK-4",
                            format!("{p} is {d} steps away; {} reaches {}", w.weapon.name, w.weapon.range.max),
                        );
                    }
                    Some(CentreRefusal::NoLine) => return reject("AREA-E6", format!("no line of effect to {p}")),
                    None => {}
                }
                let shape = match area {
                    AreaSpec::Ring { width, .. } => Shape::Ring { radius: *radius, width: *width },
                    _ => Shape::Circle { radius: *radius },
                };
                Ok(area::covered(&self.map, *p, shape, coverage))
            }
            (AreaSpec::Cone { length, angle }, Target::Toward(f)) => Ok(area::covered(
                &self.map,
                me.origin,
                Shape::Sector { length: *length, angle: *angle, facing: *f },
                coverage,
            )),
            (AreaSpec::Ray { length, width }, Target::Toward(f)) => Ok(area::covered(
                &self.map,
                me.origin,
                Shape::Ray { length: *length, width: *width, facing: *f },
                coverage,
            )),
            (AreaSpec::Curve { length }, Target::Curve(points)) => {
                // AREA-E5: its count and squares checked before any arithmetic or walk on them.
                if points.len() > area::MAX_CURVE_SEGMENTS {
                    let e = area::CurveError::TooManySegments { segments: points.len() };
                    return reject("AREA-E5", e.to_string());
                }
                if let Some(p) = points.iter().find(|p| !self.map.in_bounds(**p)) {
                    return reject("AREA-E5", format!("{p} is off the map"));
                }
                let offsets: Vec<Pos> = points.iter().map(|p| Pos::new(p.x - me.origin.x, p.y - me.origin.y)).collect();
                let shape = area::curve(*length, &offsets).map_err(|e| Rejection::new("AREA-E5", e.to_string()))?;
                Ok(area::covered(&self.map, me.origin, shape, coverage))
            }
            (AreaSpec::Curve { .. }, _) => reject(
                "AREA-E5",
                format!(
                    "{} is drawn through the squares it bends at to where it ends (a script says Curve([(x: 3, y: 2), …]))",
                    w.weapon.name
                ),
            ),
            (_, Target::Curve(_)) => reject("AREA-E5", format!("{} is not a curve", w.weapon.name)),
            (AreaSpec::Circle { .. } | AreaSpec::Ring { .. }, _) => reject(
                "AREA-E1",
                format!("{} is centred on a square, not on a creature (a script says Square((x, y)))", w.weapon.name),
            ),
            _ => reject(
                "AREA-E3",
                format!("{} is aimed in a direction, not at a creature (a script says Toward(N))", w.weapon.name),
            ),
        }
    }
}
