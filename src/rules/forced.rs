//! Forced movement (MOVE-4, MOVE-11, MOVE-E5) and falls (MOVE-10, MOVE-12, MOVE-E4): where a
//! knock back or a tow takes a creature, and what a drop does to it.

use super::grid::{Footprint, GridMap, Pos, footprint_distance};
use super::los::{LineStep, trace};
use super::movement::{Mover, budget_quarters, step_quarters};
use serde::{Deserialize, Serialize};

/// MOVE-11: the two kinds of forced movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ForcedKind {
    /// Directly away from the source.
    KnockBack,
    /// Toward the source.
    Tow,
}

/// What a weapon or ability that says so does to a creature it hurts: push or pull it up to
/// `steps` steps (a budget paid with MOVE-E1 resistance).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForcedMove {
    pub kind: ForcedKind,
    pub steps: i32,
}

/// The most steps a forced move may have (bounds the walk whatever a compendium says).
pub const MAX_FORCED_STEPS: i32 = 20;

/// Why a forced move ended where it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ForcedStop {
    /// The whole budget was used.
    Spent,
    /// MOVE-11: it met an obstacle (or the map's edge) and stopped in front of it.
    Obstacle,
    /// MOVE-E5: it stopped in front of a blocking creature.
    Creature,
    /// MOVE-E5: a tow stops next to its source.
    Source,
    /// MOVE-11, MOVE-12: it went over an edge and fell.
    Fell,
}

/// Where a forced move goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForcedPath {
    /// The footprint's south-west square after each step, in order (the start excluded).
    pub path: Vec<Pos>,
    pub stop: ForcedStop,
    /// MOVE-12: it fell this many steps (the deepest drop under its footprint).
    pub fall_depth: Option<i32>,
    /// MOVE-10 / MOVE-12: it fell onto a creature standing at the bottom.
    pub onto_creature: bool,
}

impl ForcedPath {
    pub fn end(&self, start: Pos) -> Pos {
        self.path.last().copied().unwrap_or(start)
    }
}

/// MOVE-E5 (Engine decision): the creature at `origin` (footprint side from `mover.size`) is
/// pushed along the ray from the source's footprint centre through its own (or pulled along it
/// reversed), square by square as the ray crosses squares (AREA-E4), paying MOVE-E1 resistance
/// (MOVE-7: posture and terrain count, crossing an obstacle does not happen — it stops in
/// front of it, MOVE-11). `occupied` says whether a square holds another creature that blocks.
/// Facing is not touched here (FACE-E1): the caller keeps it.
pub fn forced_path(
    map: &GridMap,
    mover: &Mover,
    origin: Pos,
    source: Footprint,
    forced: ForcedMove,
    occupied: impl Fn(Pos) -> bool,
) -> ForcedPath {
    let side = mover.size.footprint();
    let me = Footprint::new(origin, side);
    let (mc, sc) = (me.centre2(), source.centre2());
    let (mut dx, mut dy) = (mc.0 - sc.0, mc.1 - sc.1);
    if forced.kind == ForcedKind::Tow {
        (dx, dy) = (-dx, -dy);
    }
    let steps = forced.steps.clamp(0, MAX_FORCED_STEPS);
    let mut out = ForcedPath { path: Vec::new(), stop: ForcedStop::Spent, fall_depth: None, onto_creature: false };
    if (dx, dy) == (0, 0) || steps == 0 {
        return out;
    }
    // The ray from the footprint's south-west square, parallel to the centre-to-centre line,
    // long enough for the whole budget (each square it crosses is at least a step).
    let longest = dx.abs().max(dy.abs());
    let k = (2 * steps + 4 + longest - 1) / longest;
    let far = Pos::new(origin.x + dx * k, origin.y + dy * k);
    // The squares in order; None where the line squeezes between two obstacles touching at a
    // corner (SPACE-E6: no passing there).
    let mut squares: Vec<Option<Pos>> = Vec::new();
    let solid = |p: Pos| !map.in_bounds(p) || map.blocks_movement(p);
    trace(origin, far, |s| {
        match s {
            LineStep::Cell(p) if p != origin => squares.push(Some(p)),
            LineStep::Corner(p, q) if solid(p) && solid(q) => squares.push(None),
            _ => {}
        }
        squares.len() < (steps as usize) * 2 + 2
    });
    let budget = budget_quarters(steps);
    let posture = mover.posture.movement_resistance().unwrap_or(2);
    let (mut at, mut spent) = (origin, 0u32);
    if forced.kind == ForcedKind::Tow && footprint_distance(me, source) <= 1 {
        out.stop = ForcedStop::Source;
        return out;
    }
    // SPACE-E7: how deep it stands now; deeper ground ahead is a fall, shallower a wall.
    let depth_of = |cells: &[Pos]| cells.iter().map(|&c| map.terrain(c).drop).max().unwrap_or(0);
    let mut depth = depth_of(&me.cells().filter(|&c| map.in_bounds(c)).collect::<Vec<_>>());
    for next in squares {
        let Some(next) = next else {
            out.stop = ForcedStop::Obstacle;
            return out;
        };
        let cells: Vec<Pos> = Footprint::new(next, side).cells().collect();
        if cells.iter().any(|&c| !map.in_bounds(c)) {
            out.stop = ForcedStop::Obstacle;
            return out;
        }
        let diag = next.x != at.x && next.y != at.y;
        // Entering the footprint's new squares: the dearest of them, as a move pays it.
        let cost = cells
            .iter()
            .map(|&c| {
                let (o, d) = step_quarters(map.terrain(c), posture);
                if diag { d } else { o }
            })
            .max()
            .unwrap_or(0);
        if spent + cost > budget {
            out.stop = ForcedStop::Spent;
            return out;
        }
        let ahead = depth_of(&cells);
        if ahead < depth || cells.iter().any(|&c| map.blocks_movement(c)) {
            // MOVE-11: an obstacle (or the wall of the pit it is in) stops it in front.
            out.stop = ForcedStop::Obstacle;
            return out;
        }
        // A creature on its own level blocks; one below is where it lands (MOVE-10).
        let on_level = cells.iter().any(|&c| occupied(c) && map.terrain(c).drop <= depth);
        if on_level {
            out.stop = ForcedStop::Creature;
            return out;
        }
        spent += cost;
        at = next;
        out.path.push(next);
        if ahead > depth {
            // MOVE-11 (Engine decision): left without support it drops at once: the rest of
            // the push is spent in the air above the square where it falls (MOVE-12).
            out.stop = ForcedStop::Fell;
            out.fall_depth = Some(ahead - depth);
            out.onto_creature = cells.iter().any(|&c| occupied(c));
            return out;
        }
        depth = ahead;
        if forced.kind == ForcedKind::Tow && footprint_distance(Footprint::new(at, side), source) <= 1 {
            out.stop = ForcedStop::Source;
            return out;
        }
    }
    out
}

/// MOVE-10 / MOVE-E4 (Engine decision): the dice of the physical attack a drop of `depth`
/// steps makes on a creature of body height `height` (and on one at the landing point):
/// 3 × floor(depth ÷ height) when the drop is higher than the body, else none.
pub fn fall_dice(depth: i32, height: i32) -> i32 {
    let height = height.max(1);
    if depth > height { 3 * (depth / height) } else { 0 }
}
