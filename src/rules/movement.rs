//! Movement (MOVE-*, SPACE-9, SPACE-E5, SPACE-E6): per-step cost, reachable squares for one move
//! and whole-map cost fields.
//!
//! Costs are kept in exact integers of a quarter step: an orthogonal step is 4 × R, a diagonal
//! 6 × R, and smooth ground halves them (2 × R, 3 × R). MOVE-E1's legality test
//! floor(total) ≤ S becomes total ≤ 4S + 3.

use super::creature::Size;
use super::grid::{Footprint, GridMap, Pos, Terrain};
use super::posture::Posture;

/// What another creature in a square means for this mover (SPACE-E5): computed by the caller,
/// who knows both creatures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(u8)]
pub enum Occupant {
    #[default]
    Free = 0,
    /// A creature the mover may pass through (sizes ≥ 2 apart, or incorporeal) but not stop on.
    PassOnly = 1,
    /// A creature that blocks the mover.
    Blocked = 2,
}

/// The moving creature, as far as movement cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mover {
    pub size: Size,
    /// Movement speed in steps for the mode used (MOVE-1; halve "-" modes before passing it in).
    pub speed: i32,
    /// MOVE-8 / MOVE-E2: sprint doubles the budget.
    pub sprint: bool,
    pub posture: Posture,
    /// SPACE-E7: how deep in a drop it stands (0 on solid ground).
    pub depth: i32,
    /// Resistance its state adds to every step (MOVE-7's "extra"): +1 while blinded
    /// (FLOW-D3's mapping of half speed).
    pub burden: i32,
}

impl Mover {
    pub fn walker(speed: i32) -> Self {
        Mover { size: Size::Medium, speed, sprint: false, posture: Posture::Standing, depth: 0, burden: 0 }
    }
    /// MOVE-E1 budget S in steps.
    pub fn budget_steps(&self) -> i32 {
        if self.sprint { self.speed * 2 } else { self.speed }
    }
    fn side(&self) -> i32 {
        self.size.footprint()
    }
}

/// Quarter steps of the largest legal total for a budget of `steps` (floor(total) ≤ S).
pub fn budget_quarters(steps: i32) -> u32 {
    (4 * steps.max(0) + 3) as u32
}

/// Why a move cannot be made; every variant names the rule it breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// MOVE-6: speed below 1 (or Sit/Ride, which cannot move on its own, POST-3).
    CannotMove,
    /// MOVE-16 / SPACE-9: the square holds an obstacle or a blocking creature.
    Blocked(Pos),
    /// SPACE-E6: a diagonal step squeezes past an obstacle corner.
    CornerCut(Pos, Pos),
    /// Steps must go to one of the 8 neighbours.
    NotAdjacent(Pos, Pos),
    /// SPACE-E5: a move may not end on another creature.
    EndsOnCreature(Pos),
    /// MOVE-E1: floor(total cost) exceeds the budget.
    TooFar { cost_quarters: u32, budget_steps: i32 },
}

impl MoveError {
    pub fn rule(&self) -> &'static str {
        match self {
            MoveError::CannotMove => "MOVE-6",
            MoveError::Blocked(_) => "SPACE-9",
            MoveError::CornerCut(..) => "SPACE-E6",
            MoveError::NotAdjacent(..) => "MOVE-1",
            MoveError::EndsOnCreature(_) => "SPACE-E5",
            MoveError::TooFar { .. } => "MOVE-E1",
        }
    }
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::CannotMove => write!(f, "the creature cannot move (speed below 1 or seated)"),
            MoveError::Blocked(p) => write!(f, "square {p} is blocked"),
            MoveError::CornerCut(a, b) => write!(f, "the diagonal step {a} → {b} cuts an obstacle corner"),
            MoveError::NotAdjacent(a, b) => write!(f, "{a} → {b} is not a single step"),
            MoveError::EndsOnCreature(p) => write!(f, "the move would end on another creature at {p}"),
            MoveError::TooFar { cost_quarters, budget_steps } => write!(
                f,
                "the path costs {} steps, more than the budget of {budget_steps}",
                *cost_quarters as f64 / 4.0
            ),
        }
    }
}

/// Per-terrain cost of entering one square for a given mover (computed once per search).
#[derive(Clone, Copy, Debug)]
struct EnterCost {
    /// Quarter steps for an orthogonal and a diagonal entry; None = impassable.
    orth: Option<u32>,
    diag: Option<u32>,
    /// An obstacle for the corner rule (SPACE-E6), even when it can be crossed.
    obstacle: bool,
}

fn enter_costs(map: &GridMap, mover: &Mover) -> Vec<EnterCost> {
    let posture = mover.posture.movement_resistance().unwrap_or(0) + mover.burden.max(0);
    let height = mover.size.body_height();
    map.terrains()
        .iter()
        .map(|t| {
            // MOVE-9 / MOVE-E3 (Engine decision): crossing costs +ceil(height), minimum +1, and is
            // impossible above body height.
            let crossing = match (t.blocks_movement, t.cross_height) {
                (false, _) => Some(0),
                (true, Some(h)) if h <= height => Some(h.max(1)),
                (true, _) => None,
            };
            let Some(crossing) = crossing else {
                return EnterCost { orth: None, diag: None, obstacle: true };
            };
            // SPACE-E7, MOVE-12 (Engine decision): a walker keeps to its own level. Nobody walks
            // into a deeper drop (only a forced move throws a creature in); the bottom of the
            // one it stands in is walkable; climbing out onto shallower ground crosses the
            // height difference like an obstacle (MOVE-9: +1 resistance a step of height,
            // impossible above its body height).
            let depth = mover.depth.max(0);
            if t.drop > depth {
                return EnterCost { orth: None, diag: None, obstacle: false };
            }
            let rise = depth - t.drop;
            if rise > height {
                return EnterCost { orth: None, diag: None, obstacle: true };
            }
            let (orth, diag) = step_quarters(t, posture + crossing + rise);
            EnterCost { orth: Some(orth), diag: Some(diag), obstacle: t.blocks_movement }
        })
        .collect()
}

/// MOVE-E1: quarter steps of an orthogonal and a diagonal step onto terrain `t`, with `extra`
/// resistance (posture, crossing): R = 1 + terrain + difficult + extra; smooth cancels one
/// difficult, otherwise halves the cost. MOVE-7: the same for active and forced movement.
pub fn step_quarters(t: &Terrain, extra: i32) -> (u32, u32) {
    let mut r = 1 + t.resistance.max(0) + i32::from(t.difficult) + extra.max(0);
    let halve = t.smooth && !t.difficult;
    if t.smooth && t.difficult {
        r -= 1;
    }
    let r = r as u32;
    if halve { (2 * r, 3 * r) } else { (4 * r, 6 * r) }
}

const UNREACHED: u32 = u32::MAX;
const IMPASSABLE: u16 = u16::MAX;
/// Some square of the footprint is an obstacle (or off the map): SPACE-E6 corner rule.
const OBSTACLE: u8 = 1;
/// Some square of the footprint holds a creature that blocks the mover.
const CREATURE: u8 = 2;
/// Every square of the footprint is free: a move may end here (SPACE-E5).
const STOP: u8 = 4;

/// What it costs to bring the mover's footprint onto one origin square, aggregated over the
/// footprint once per search so the search loop does no bounds checks or footprint loops.
#[derive(Clone, Copy, Debug)]
struct Square {
    orth: u16,
    diag: u16,
    flags: u8,
}

const BORDER: Square = Square { orth: IMPASSABLE, diag: IMPASSABLE, flags: OBSTACLE };

/// The result of one search: cheapest cost (quarter steps) and predecessor for every square of a
/// window around the mover. Positions are the mover's footprint origin (south-west square).
/// The window carries a one-square impassable border.
#[derive(Clone, Debug)]
pub struct MoveField {
    origin: Pos,
    x0: i32,
    y0: i32,
    w: i32,
    h: i32,
    cost: Vec<u32>,
    squares: Vec<Square>,
    budget: Option<u32>,
}

impl MoveField {
    fn local(&self, p: Pos) -> Option<usize> {
        let (lx, ly) = (p.x - self.x0, p.y - self.y0);
        (lx >= 0 && ly >= 0 && lx < self.w && ly < self.h).then(|| (ly * self.w + lx) as usize)
    }
    fn global(&self, i: usize) -> Pos {
        Pos::new(self.x0 + i as i32 % self.w, self.y0 + i as i32 / self.w)
    }
    pub fn origin(&self) -> Pos {
        self.origin
    }
    /// Cheapest cost in quarter steps to bring the footprint origin to `p`.
    pub fn cost_quarters(&self, p: Pos) -> Option<u32> {
        self.local(p).map(|i| self.cost[i]).filter(|&c| c != UNREACHED)
    }
    /// Cheapest cost in (possibly fractional) steps.
    pub fn cost_steps(&self, p: Pos) -> Option<f64> {
        self.cost_quarters(p).map(|c| c as f64 / 4.0)
    }
    /// May a move end at `p` (within budget, not on another creature)?
    pub fn can_end_at(&self, p: Pos) -> bool {
        self.local(p).is_some_and(|i| {
            self.cost[i] != UNREACHED && self.stop_ok(i) && self.budget.is_none_or(|b| self.cost[i] <= b)
        })
    }
    /// Every square where the move may end, the starting square included.
    pub fn destinations(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.cost.len())
            .filter(|&i| self.cost[i] != UNREACHED && self.stop_ok(i) && self.budget.is_none_or(|b| self.cost[i] <= b))
            .map(|i| self.global(i))
    }
    fn stop_ok(&self, i: usize) -> bool {
        self.squares[i].flags & STOP != 0 || self.cost[i] == 0
    }
    /// The cheapest path from the origin to `p`, both ends included. Rebuilt from the costs:
    /// a predecessor is a neighbour whose cost plus the step equals this square's cost.
    pub fn path_to(&self, p: Pos) -> Option<Vec<Pos>> {
        let mut i = self.local(p)?;
        if self.cost[i] == UNREACHED {
            return None;
        }
        let w = self.w as isize;
        let mut path = vec![p];
        while self.cost[i] != 0 {
            let prev = STEPS.iter().find_map(|&(delta, diag, fx, fy)| {
                // Step from j to i went by +delta, so j = i − delta; flanks are relative to j.
                let j = (i as isize - delta(w)) as usize;
                let cj = *self.cost.get(j)?;
                let step = if diag { self.squares[i].diag } else { self.squares[i].orth };
                if cj == UNREACHED || step == IMPASSABLE || cj + step as u32 != self.cost[i] {
                    return None;
                }
                if diag && !corner_clear(&self.squares, j, fx, fy(w)) {
                    return None;
                }
                Some(j)
            })?;
            i = prev;
            path.push(self.global(i));
        }
        path.reverse();
        Some(path)
    }
}

type StepDelta = fn(isize) -> isize;

/// The 8 steps as (index delta for a row width, diagonal?, x flank, y flank for a row width).
const STEPS: [(StepDelta, bool, isize, StepDelta); 8] = [
    (|w| w, false, 0, |_| 0),
    (|_| 1, false, 0, |_| 0),
    (|w| -w, false, 0, |_| 0),
    (|_| -1, false, 0, |_| 0),
    (|w| w + 1, true, 1, |w| w),
    (|w| -w + 1, true, 1, |w| -w),
    (|w| -w - 1, true, -1, |w| -w),
    (|w| w - 1, true, -1, |w| w),
];

/// SPACE-E6: no squeezing past an obstacle corner, or between two blocking creatures.
#[inline]
fn corner_clear(squares: &[Square], from: usize, fx: isize, fy: isize) -> bool {
    let a = squares[(from as isize + fx) as usize].flags;
    let b = squares[(from as isize + fy) as usize].flags;
    (a | b) & OBSTACLE == 0 && a & b & CREATURE == 0
}

struct Searcher<'a> {
    map: &'a GridMap,
    occupancy: Option<&'a [Occupant]>,
    costs: Vec<EnterCost>,
    side: i32,
}

impl Searcher<'_> {
    #[inline]
    fn occupant(&self, p: Pos) -> Occupant {
        self.occupancy.map_or(Occupant::Free, |o| o[self.map.index(p)])
    }

    /// Cost of bringing the footprint onto `to`, ignoring corners. Multi-square movers pay the
    /// dearest square of the footprint they move into (Engine decision: the seeds only treat
    /// single squares).
    #[inline]
    fn enter(&self, to: Pos, diag: bool) -> Option<u32> {
        let mut worst = 0;
        for cy in 0..self.side {
            for cx in 0..self.side {
                let c = to.offset(cx, cy);
                if !self.map.in_bounds(c) || self.occupant(c) == Occupant::Blocked {
                    return None;
                }
                let e = self.costs[self.map.terrain_index(c) as usize];
                worst = worst.max(if diag { e.diag? } else { e.orth? });
            }
        }
        Some(worst)
    }

    /// SPACE-E6: a diagonal is forbidden past an obstacle on either flank, or between two
    /// blocking creatures.
    fn diagonal_clear(&self, from: Pos, dx: i32, dy: i32) -> bool {
        let flank = |fx: i32, fy: i32| {
            let f = Footprint::new(from.offset(fx, fy), self.side);
            let mut obstacle = false;
            let mut creature = false;
            for c in f.cells() {
                if !self.map.in_bounds(c) || self.costs[self.map.terrain_index(c) as usize].obstacle {
                    obstacle = true;
                } else if self.occupant(c) == Occupant::Blocked {
                    creature = true;
                }
            }
            (obstacle, creature)
        };
        let (o1, c1) = flank(dx, 0);
        let (o2, c2) = flank(0, dy);
        !(o1 || o2 || (c1 && c2))
    }

    fn can_stop(&self, p: Pos) -> bool {
        Footprint::new(p, self.side).cells().all(|c| self.map.in_bounds(c) && self.occupant(c) == Occupant::Free)
    }
}

thread_local! {
    static BUCKETS: std::cell::RefCell<Vec<Vec<u32>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Dijkstra with a circular bucket queue (Dial's algorithm): edge costs are small integers.
fn search(map: &GridMap, occupancy: Option<&[Occupant]>, mover: &Mover, origin: Pos, budget: Option<u32>) -> MoveField {
    search_from(map, occupancy, mover, &[origin], budget)
}

/// Dijkstra from every one of `origins` at once (cost 0 at each).
fn search_from(
    map: &GridMap,
    occupancy: Option<&[Occupant]>,
    mover: &Mover,
    origins: &[Pos],
    budget: Option<u32>,
) -> MoveField {
    let origin = origins.first().copied().unwrap_or_default();
    let costs = enter_costs(map, mover);
    let side = mover.side();
    // Origins that keep the whole footprint on the map.
    let (max_x, max_y) = (map.width() - side, map.height() - side);
    let (ox0, oy0, ox1, oy1) = match budget {
        Some(b) => {
            let min_step = costs.iter().filter_map(|c| c.orth).min().unwrap_or(4).max(1);
            let reach = (b / min_step) as i32;
            (
                (origin.x - reach).max(0),
                (origin.y - reach).max(0),
                (origin.x + reach).min(max_x),
                (origin.y + reach).min(max_y),
            )
        }
        None => (0, 0, max_x, max_y),
    };
    let (w, h) = ((ox1 - ox0 + 3).max(3), (oy1 - oy0 + 3).max(3));
    let (x0, y0) = (ox0 - 1, oy0 - 1);
    let n = (w * h) as usize;
    let mut squares = vec![BORDER; n];
    let to_u16 = |v: Option<u32>| v.map_or(IMPASSABLE, |v| v.min(IMPASSABLE as u32 - 1) as u16);
    // Per-terrain square for a 1×1 footprint; creatures are applied on top.
    let plain: Vec<Square> = costs
        .iter()
        .map(|e| {
            let orth = to_u16(e.orth);
            let stop = if orth == IMPASSABLE { 0 } else { STOP };
            Square { orth, diag: to_u16(e.diag), flags: stop | if e.obstacle { OBSTACLE } else { 0 } }
        })
        .collect();
    let with_occupant = |mut sq: Square, occ: Occupant| {
        match occ {
            Occupant::Free => {}
            Occupant::PassOnly => sq.flags &= !STOP,
            Occupant::Blocked => {
                sq = Square { orth: IMPASSABLE, diag: IMPASSABLE, flags: (sq.flags | CREATURE) & !STOP };
            }
        }
        sq
    };
    if side == 1 {
        for ly in 1..h - 1 {
            let y = y0 + ly;
            let row = map.terrain_row(y);
            let base = (ly * w) as usize;
            let (xa, xb) = ((x0 + 1) as usize, (x0 + w - 1) as usize);
            for (k, &t) in row[xa..xb].iter().enumerate() {
                let mut sq = plain[t as usize];
                if let Some(occ) = occupancy {
                    sq = with_occupant(sq, occ[y as usize * map.width() as usize + xa + k]);
                }
                squares[base + 1 + k] = sq;
            }
        }
    } else {
        for ly in 1..h - 1 {
            for lx in 1..w - 1 {
                let o = Pos::new(x0 + lx, y0 + ly);
                let mut sq = Square { orth: 0, diag: 0, flags: STOP };
                for c in Footprint::new(o, side).cells() {
                    if !map.in_bounds(c) {
                        sq = BORDER;
                        break;
                    }
                    let one = with_occupant(
                        plain[map.terrain_index(c) as usize],
                        occupancy.map_or(Occupant::Free, |v| v[map.index(c)]),
                    );
                    sq.orth = sq.orth.max(one.orth);
                    sq.diag = sq.diag.max(one.diag);
                    sq.flags = (sq.flags | (one.flags & (OBSTACLE | CREATURE))) & (one.flags | !STOP);
                }
                if sq.orth == IMPASSABLE {
                    sq.flags &= !STOP;
                }
                squares[(ly * w + lx) as usize] = sq;
            }
        }
    }
    let mut field = MoveField { origin, x0, y0, w, h, cost: vec![UNREACHED; n], squares, budget };
    let starts: Vec<usize> = origins
        .iter()
        .filter(|o| o.x <= max_x && o.y <= max_y && o.x >= 0 && o.y >= 0)
        .filter_map(|&o| field.local(o))
        .collect();
    if starts.is_empty() {
        return field;
    }
    let wi = w as isize;
    let deltas = STEPS.map(|(d, diag, fx, fy)| (d(wi), diag, fx, fy(wi)));
    let squares = &field.squares[..];
    let cost = &mut field.cost[..];
    let limit = budget.unwrap_or(u32::MAX - 1);
    let max_edge = squares.iter().map(|s| s.diag).filter(|&d| d != IMPASSABLE).max().unwrap_or(6) as usize;
    // A power of two, so the bucket of a cost is a mask, not a division.
    let ring = (max_edge + 1).next_power_of_two();
    let mask = ring - 1;
    BUCKETS.with_borrow_mut(|buckets| {
        if buckets.len() < ring {
            buckets.resize_with(ring, Vec::new);
        }
        for b in buckets.iter_mut() {
            b.clear();
        }
        for &start in &starts {
            cost[start] = 0;
            buckets[0].push(start as u32);
        }
        let mut pending = starts.len();
        let mut current: u32 = 0;
        while pending > 0 {
            let slot = current as usize & mask;
            let mut list = std::mem::take(&mut buckets[slot]);
            while let Some(i) = list.pop() {
                pending -= 1;
                let i = i as usize;
                if cost[i] != current {
                    continue; // stale entry
                }
                for &(delta, diag, fx, fy) in &deltas {
                    let j = (i as isize + delta) as usize;
                    let sq = squares[j];
                    let step = if diag { sq.diag } else { sq.orth };
                    if step == IMPASSABLE {
                        continue;
                    }
                    let c = current + step as u32;
                    if c > limit || c >= cost[j] || (diag && !corner_clear(squares, i, fx, fy)) {
                        continue;
                    }
                    cost[j] = c;
                    // Steps cost ≥ 2 and < ring: no push lands in the slot being drained.
                    buckets[c as usize & mask].push(j as u32);
                    pending += 1;
                }
            }
            buckets[slot] = list;
            current += 1;
        }
    });
    field
}

/// MOVE-1 / MOVE-E1: every square one move can reach within the mover's budget.
pub fn reachable(
    map: &GridMap,
    occupancy: Option<&[Occupant]>,
    mover: &Mover,
    origin: Pos,
) -> Result<MoveField, MoveError> {
    if mover.speed < 1 || mover.posture.movement_resistance().is_none() {
        return Err(MoveError::CannotMove);
    }
    Ok(search(map, occupancy, mover, origin, Some(budget_quarters(mover.budget_steps()))))
}

/// Cheapest cost from `origin` to every square of the map, with no budget (for AI planning).
pub fn cost_field(map: &GridMap, occupancy: Option<&[Occupant]>, mover: &Mover, origin: Pos) -> MoveField {
    search(map, occupancy, mover, origin, None)
}

/// Cheapest cost from `origin` to every square within `budget` quarter steps (the others
/// unreached): `cost_field` where only the near squares matter, searching a window of the map
/// instead of all of it (a 256×256 map is 65,536 squares; a turn's walk covers a few hundred).
/// Every cost it gives is the unbounded search's: a square's cheapest path passes only squares
/// cheaper than it, all of which the bounded search expands.
pub fn cost_field_within(
    map: &GridMap,
    occupancy: Option<&[Occupant]>,
    mover: &Mover,
    origin: Pos,
    budget: u32,
) -> MoveField {
    search(map, occupancy, mover, origin, Some(budget))
}

/// Cheapest cost to every square of the map from the nearest of `origins`, with no budget (for
/// AI planning: "how far is the nearest square from which I could strike?"). Costs are of moving
/// out from the origins, which on symmetric terrain equals moving toward them.
pub fn cost_field_from(map: &GridMap, occupancy: Option<&[Occupant]>, mover: &Mover, origins: &[Pos]) -> MoveField {
    search_from(map, occupancy, mover, origins, None)
}

/// Check an explicit path (a move command): each step legal, the end free, the total within
/// budget. Returns the cost in quarter steps.
pub fn validate_path(
    map: &GridMap,
    occupancy: Option<&[Occupant]>,
    mover: &Mover,
    path: &[Pos],
) -> Result<u32, MoveError> {
    if mover.speed < 1 || mover.posture.movement_resistance().is_none() {
        return Err(MoveError::CannotMove);
    }
    let searcher = Searcher { map, occupancy, costs: enter_costs(map, mover), side: mover.side() };
    let mut total = 0u32;
    for pair in path.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        if dx.abs() > 1 || dy.abs() > 1 || (dx == 0 && dy == 0) {
            return Err(MoveError::NotAdjacent(a, b));
        }
        let diag = dx != 0 && dy != 0;
        let Some(cost) = searcher.enter(b, diag) else { return Err(MoveError::Blocked(b)) };
        if diag && !searcher.diagonal_clear(a, dx, dy) {
            return Err(MoveError::CornerCut(a, b));
        }
        total += cost;
    }
    if let Some(&end) = path.last()
        && path.len() > 1
        && !searcher.can_stop(end)
    {
        return Err(MoveError::EndsOnCreature(end));
    }
    if total > budget_quarters(mover.budget_steps()) {
        return Err(MoveError::TooFar { cost_quarters: total, budget_steps: mover.budget_steps() });
    }
    Ok(total)
}

#[cfg(test)]
mod tests;
