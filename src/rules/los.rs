//! Line of sight, cover and field of view (PERC-2, PERC-E1, PERC-E2, ATK-15, ATK-E5, FACE-4).
//!
//! PERC-E1 (Engine decision): a line runs from the centre of one square to the centre of another.
//! It is blocked by the interior of a blocking square, or by a corner pinch (the line passes
//! exactly through a grid point whose two flanking squares both block). The traversal is done in
//! exact integer arithmetic, so A sees B exactly when B sees A.

use super::facing::{Actor, Facing, sectors_of_point};
use super::grid::{GridMap, Pos, distance_delta};
use super::line_memo::LineQuery;
use super::ruleset::FacingArcs;
use std::sync::OnceLock;

/// One element of a traced line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineStep {
    /// A square whose interior the segment crosses (both end squares included).
    Cell(Pos),
    /// The segment passes exactly through the corner shared by these two flanking squares.
    Corner(Pos, Pos),
}

/// Walk the centre-to-centre segment from `a` to `b`, calling `visit` for every step in order.
/// `visit` returns false to stop early.
pub fn trace(a: Pos, b: Pos, mut visit: impl FnMut(LineStep) -> bool) {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let (nx, ny) = (dx.abs() as i64, dy.abs() as i64);
    let (sx, sy) = (dx.signum(), dy.signum());
    let mut cur = a;
    if !visit(LineStep::Cell(cur)) {
        return;
    }
    let (mut i, mut j) = (0i64, 0i64);
    while i < nx || j < ny {
        // The (i+1)-th vertical grid line is crossed at t = (2i+1) / 2nx, the (j+1)-th
        // horizontal one at t = (2j+1) / 2ny. Compare without dividing.
        let order = if j >= ny {
            std::cmp::Ordering::Less
        } else if i >= nx {
            std::cmp::Ordering::Greater
        } else {
            ((2 * i + 1) * ny).cmp(&((2 * j + 1) * nx))
        };
        match order {
            std::cmp::Ordering::Less => {
                cur.x += sx;
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                cur.y += sy;
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                if !visit(LineStep::Corner(cur.offset(sx, 0), cur.offset(0, sy))) {
                    return;
                }
                cur = cur.offset(sx, sy);
                i += 1;
                j += 1;
            }
        }
        if !visit(LineStep::Cell(cur)) {
            return;
        }
    }
}

/// The outcome of a line-of-sight check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SightLine {
    pub visible: bool,
    /// ATK-E5: the target would have cover against an attack from the origin.
    pub cover: bool,
    /// The squares whose interior the line crosses, ends included, up to where it was blocked.
    pub traced: Vec<Pos>,
    /// Why the target has cover (ATK-E5): the square next to it that shelters it, and how.
    pub cover_by: Option<(Pos, CoverReason)>,
}

/// The two ways a square next to the defender gives cover (ATK-E5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoverReason {
    /// The line crosses a low-cover square (a low wall) next to the defender.
    LowCover,
    /// The line grazes a sight-blocking square next to the defender: peeking around a corner.
    Corner,
}

impl CoverReason {
    pub fn explain(self) -> &'static str {
        match self {
            CoverReason::LowCover => "the line crosses low cover next to the target",
            CoverReason::Corner => "the line grazes a wall corner next to the target",
        }
    }
}

/// PERC-E1: is the line between two squares clear of sight blockers?
pub fn clear_line(map: &GridMap, a: Pos, b: Pos) -> bool {
    remembered(map, LineQuery::Sight, a, b, || {
        clear_by_table(map, map.sight_blockers(), a, b).unwrap_or_else(|| clear_line_traced(map, a, b))
    })
}

/// `compute`'s answer for two squares on the map, from the map's memo when it was asked before.
#[inline]
fn remembered(map: &GridMap, q: LineQuery, a: Pos, b: Pos, compute: impl FnOnce() -> bool) -> bool {
    if map.in_bounds(a) && map.in_bounds(b) {
        map.line_memo().get(q, map.index(a), map.index(b), compute)
    } else {
        compute()
    }
}

fn clear_line_traced(map: &GridMap, a: Pos, b: Pos) -> bool {
    let mut clear = true;
    trace(a, b, |step| {
        clear = match step {
            LineStep::Cell(p) => p == a || p == b || !map.blocks_sight(p),
            LineStep::Corner(p, q) => !(map.blocks_sight(p) && map.blocks_sight(q)),
        };
        clear
    });
    clear
}

/// AREA-E6 / ATK-E2: line of effect is blocked only by movement-blocking terrain (walls, closed
/// doors), not by fog or darkness. Low walls that can be crossed do not stop it.
pub fn line_of_effect(map: &GridMap, a: Pos, b: Pos) -> bool {
    remembered(map, LineQuery::Effect, a, b, || {
        clear_by_table(map, map.effect_blockers(), a, b).unwrap_or_else(|| line_of_effect_traced(map, a, b))
    })
}

fn line_of_effect_traced(map: &GridMap, a: Pos, b: Pos) -> bool {
    let solid = |p: Pos| !map.in_bounds(p) || map.terrain(p).blocks_effect();
    let mut clear = true;
    trace(a, b, |step| {
        clear = match step {
            LineStep::Cell(p) => p == a || p == b || !solid(p),
            LineStep::Corner(p, q) => !(solid(p) && solid(q)),
        };
        clear
    });
    clear
}

/// The same test from the precomputed line tables (built by [`trace`], so the answers are the
/// same), when both squares are on the map and close enough: a few lookups instead of a walk.
#[inline]
fn clear_by_table(map: &GridMap, blocks: &[bool], a: Pos, b: Pos) -> Option<bool> {
    if !map.in_bounds(a) || !map.in_bounds(b) {
        return None;
    }
    let table = fov_table();
    let ray = table.ray_at(b.x - a.x, b.y - a.y)?;
    let w = map.width() as isize;
    let base = map.index(a) as isize;
    let idx = |(x, y): (i8, i8)| (base + y as isize * w + x as isize) as usize;
    // Probes lie inside the box spanned by the two squares, so they are on the map.
    Some(table.probes[ray.start as usize..ray.end as usize].iter().all(|p| !(blocks[idx(p.a)] && blocks[idx(p.b)])))
}

/// PERC-E1 + ATK-E5: trace from `from` to `to`, reporting visibility and whether `to` has cover
/// against an attack from `from`.
pub fn sight_line(map: &GridMap, from: Pos, to: Pos) -> SightLine {
    let mut traced = Vec::new();
    let (visible, cover, why) = sight(map, from, to, Some(&mut traced));
    SightLine { visible, cover, traced, cover_by: if cover { why } else { None } }
}

/// ATK-E5: would `to` have cover against an attack from `from` (and be visible)? The same trace
/// as [`sight_line`] without keeping the squares: for callers that ask it thousands of times.
pub fn has_cover(map: &GridMap, from: Pos, to: Pos) -> bool {
    remembered(map, LineQuery::Cover, from, to, || {
        cover_by_table(map, from, to).unwrap_or_else(|| sight(map, from, to, None).1)
    })
}

/// [`has_cover`] from the line tables (built by [`trace`]: the same probes in the same order).
fn cover_by_table(map: &GridMap, from: Pos, to: Pos) -> Option<bool> {
    if !map.in_bounds(from) || !map.in_bounds(to) {
        return None;
    }
    let table = fov_table();
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    let ray = table.ray_at(dx, dy)?;
    if dx.abs() <= 1 && dy.abs() <= 1 {
        return Some(false);
    }
    let blocks = map.sight_blockers();
    let w = map.width() as isize;
    let base = map.index(from) as isize;
    let idx = |(x, y): (i8, i8)| (base + y as isize * w + x as isize) as usize;
    let near_target = |(x, y): (i8, i8)| (x as i32 - dx).abs() <= 1 && (y as i32 - dy).abs() <= 1;
    let mut cover = false;
    for p in &table.probes[ray.start as usize..ray.end as usize] {
        let (bp, bq) = (blocks[idx(p.a)], blocks[idx(p.b)]);
        if bp && bq {
            return Some(false);
        }
        if p.a == p.b {
            // A square the line crosses: a low wall next to the target shelters it.
            if near_target(p.a) && map.terrain(from.offset(p.a.0 as i32, p.a.1 as i32)).low_cover {
                cover = true;
            }
        } else if (bp && near_target(p.a)) || (bq && near_target(p.b)) {
            // Peeking around a corner: grazing a blocker next to the target.
            cover = true;
        }
    }
    Some(cover)
}

/// (visible, cover, why the first cover) of the line from `from` to `to`; the squares crossed
/// go to `traced`.
fn sight(
    map: &GridMap,
    from: Pos,
    to: Pos,
    mut traced: Option<&mut Vec<Pos>>,
) -> (bool, bool, Option<(Pos, CoverReason)>) {
    let near_target = |p: Pos| (p.x - to.x).abs() <= 1 && (p.y - to.y).abs() <= 1 && p != to;
    let attacker_adjacent = (from.x - to.x).abs() <= 1 && (from.y - to.y).abs() <= 1;
    let mut visible = true;
    let mut cover = false;
    let mut why = None;
    trace(from, to, |step| {
        match step {
            LineStep::Cell(p) => {
                if let Some(t) = traced.as_deref_mut() {
                    t.push(p);
                }
                if p != from && p != to {
                    if map.blocks_sight(p) {
                        visible = false;
                    } else if map.terrain(p).low_cover && near_target(p) {
                        cover = true;
                        why = why.or(Some((p, CoverReason::LowCover)));
                    }
                }
            }
            LineStep::Corner(p, q) => {
                let (bp, bq) = (map.blocks_sight(p), map.blocks_sight(q));
                if bp && bq {
                    visible = false;
                } else if (bp && near_target(p)) || (bq && near_target(q)) {
                    // Peeking around a corner: grazing a blocker next to the target.
                    cover = true;
                    why = why.or(Some((if bp && near_target(p) { p } else { q }, CoverReason::Corner)));
                }
            }
        }
        visible
    });
    (visible, visible && cover && !attacker_adjacent, why)
}

/// Offsets with precomputed line tables; longer sight lines are traced directly.
const TABLE_RADIUS: i32 = 48;

/// One test on the way to a target: blocked when both squares block (a plain square repeats
/// itself, a corner pinch names its two flanks).
#[derive(Clone, Copy)]
struct Probe {
    a: (i8, i8),
    b: (i8, i8),
}

struct Ray {
    dx: i8,
    dy: i8,
    distance: u8,
    start: u32,
    end: u32,
}

struct FovTable {
    rays: Vec<Ray>,
    probes: Vec<Probe>,
    /// The ray for each offset, indexed by (dy + R) × (2R + 1) + (dx + R); u32::MAX for (0, 0).
    by_offset: Vec<u32>,
}

impl FovTable {
    fn ray_at(&self, dx: i32, dy: i32) -> Option<&Ray> {
        if dx.abs() > TABLE_RADIUS || dy.abs() > TABLE_RADIUS {
            return None;
        }
        let side = 2 * TABLE_RADIUS + 1;
        let i = self.by_offset[((dy + TABLE_RADIUS) * side + dx + TABLE_RADIUS) as usize];
        self.rays.get(i as usize)
    }
}

fn fov_table() -> &'static FovTable {
    static TABLE: OnceLock<FovTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut offsets = Vec::new();
        for dy in -TABLE_RADIUS..=TABLE_RADIUS {
            for dx in -TABLE_RADIUS..=TABLE_RADIUS {
                let d = distance_delta(dx, dy);
                if d <= TABLE_RADIUS && (dx, dy) != (0, 0) {
                    offsets.push((d, dx, dy));
                }
            }
        }
        offsets.sort();
        let mut rays = Vec::with_capacity(offsets.len());
        let mut probes = Vec::new();
        let o = Pos::new(0, 0);
        for (d, dx, dy) in offsets {
            let start = probes.len() as u32;
            let target = Pos::new(dx, dy);
            trace(o, target, |step| {
                match step {
                    LineStep::Cell(p) if p != o && p != target => {
                        probes.push(Probe { a: (p.x as i8, p.y as i8), b: (p.x as i8, p.y as i8) })
                    }
                    LineStep::Corner(p, q) => {
                        probes.push(Probe { a: (p.x as i8, p.y as i8), b: (q.x as i8, q.y as i8) })
                    }
                    _ => {}
                }
                true
            });
            rays.push(Ray { dx: dx as i8, dy: dy as i8, distance: d as u8, start, end: probes.len() as u32 });
        }
        let side = 2 * TABLE_RADIUS + 1;
        let mut by_offset = vec![u32::MAX; (side * side) as usize];
        for (i, r) in rays.iter().enumerate() {
            by_offset[((r.dy as i32 + TABLE_RADIUS) * side + r.dx as i32 + TABLE_RADIUS) as usize] = i as u32;
        }
        FovTable { rays, probes, by_offset }
    })
}

/// Which squares are hidden by a viewer's blind side (FACE-4, PERC-5): the rear, with boundaries
/// decided for the perceiver (FACE-E2). Adjacent squares are always perceived (PERC-E2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlindSide {
    pub facing: Facing,
    pub arcs: FacingArcs,
}

impl BlindSide {
    #[inline]
    fn hides(&self, dx: i32, dy: i32) -> bool {
        if dx.abs() <= 1 && dy.abs() <= 1 {
            return false;
        }
        sectors_of_point((1, 1), self.facing, self.arcs, (2 * dx + 1, 2 * dy + 1)).resolve(Actor::Perceiver)
            == Some(super::facing::Sector::Rear)
    }
}

/// PERC-2 / PERC-E1 / PERC-E2: every square a viewer at `origin` can see within `range` steps
/// (SPACE-6 distance), ordered by distance; the viewer's own square first. Blocking squares at
/// the edge of sight are included (you see the wall). Darkness, Hidden and senses are the
/// battle's business; this is the geometry.
pub fn field_of_view_into(map: &GridMap, origin: Pos, range: i32, blind: Option<BlindSide>, out: &mut Vec<Pos>) {
    out.clear();
    if !map.in_bounds(origin) {
        return;
    }
    out.push(origin);
    let table = fov_table();
    let blocks = map.sight_blockers();
    let w = map.width();
    let (width, height) = (map.width(), map.height());
    let base = map.index(origin) as isize;
    let idx = |(x, y): (i8, i8)| (base + y as isize * w as isize + x as isize) as usize;
    for ray in &table.rays {
        if ray.distance as i32 > range {
            break;
        }
        let (tx, ty) = (origin.x + ray.dx as i32, origin.y + ray.dy as i32);
        if tx < 0 || ty < 0 || tx >= width || ty >= height {
            continue;
        }
        if blind.is_some_and(|b| b.hides(ray.dx as i32, ray.dy as i32)) {
            continue;
        }
        // Probes lie inside the box spanned by origin and target, so they are on the map.
        let probes = &table.probes[ray.start as usize..ray.end as usize];
        if probes.iter().all(|p| !(blocks[idx(p.a)] && blocks[idx(p.b)])) {
            out.push(Pos::new(tx, ty));
        }
    }
    if range > TABLE_RADIUS {
        for y in (origin.y - range).max(0)..=(origin.y + range).min(height - 1) {
            for x in (origin.x - range).max(0)..=(origin.x + range).min(width - 1) {
                let (dx, dy) = (x - origin.x, y - origin.y);
                let d = distance_delta(dx, dy);
                if d > TABLE_RADIUS
                    && d <= range
                    && !blind.is_some_and(|b| b.hides(dx, dy))
                    && clear_line(map, origin, Pos::new(x, y))
                {
                    out.push(Pos::new(x, y));
                }
            }
        }
    }
}

pub fn field_of_view(map: &GridMap, origin: Pos, range: i32, blind: Option<BlindSide>) -> Vec<Pos> {
    let mut out = Vec::new();
    field_of_view_into(map, origin, range, blind, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // RULES: PERC-E1, AREA-E6 — the table lookups give exactly the traced answers, both for
    // sight and for lines of effect, on random maps with walls and low walls.
    #[test]
    fn table_lines_equal_traced_lines() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
        for _ in 0..20 {
            let (w, h) = (rng.random_range(5..60), rng.random_range(5..60));
            let mut text = String::new();
            for _ in 0..h {
                for _ in 0..w {
                    text.push(match rng.random_range(0..10) {
                        0 | 1 => '#',
                        2 => '=',
                        _ => '.',
                    });
                }
                text.push('\n');
            }
            let map = GridMap::from_ascii(&text).unwrap();
            for _ in 0..2000 {
                let a = Pos::new(rng.random_range(0..w), rng.random_range(0..h));
                let b = Pos::new(rng.random_range(0..w), rng.random_range(0..h));
                assert_eq!(clear_line(&map, a, b), clear_line_traced(&map, a, b), "{a} {b}");
                assert_eq!(has_cover(&map, a, b), sight(&map, a, b, None).1, "cover {a} {b}");
                assert_eq!(line_of_effect(&map, a, b), line_of_effect_traced(&map, a, b), "{a} {b}");
            }
        }
    }
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn map(rows: &str) -> GridMap {
        GridMap::from_ascii(rows).unwrap()
    }

    fn random_map(seed: u64, w: i32, h: i32, walls: f64) -> GridMap {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let cells = (0..w * h).map(|_| u16::from(rng.random_bool(walls))).collect();
        GridMap::new(w, h, vec![crate::rules::grid::Terrain::floor(), crate::rules::grid::Terrain::wall()], cells)
            .unwrap()
    }

    #[test]
    fn trace_visits_interior_squares_and_corners() {
        let mut steps = Vec::new();
        trace(Pos::new(0, 0), Pos::new(2, 2), |s| {
            steps.push(s);
            true
        });
        assert_eq!(
            steps,
            vec![
                LineStep::Cell(Pos::new(0, 0)),
                LineStep::Corner(Pos::new(1, 0), Pos::new(0, 1)),
                LineStep::Cell(Pos::new(1, 1)),
                LineStep::Corner(Pos::new(2, 1), Pos::new(1, 2)),
                LineStep::Cell(Pos::new(2, 2)),
            ]
        );
        let mut cells = Vec::new();
        trace(Pos::new(0, 0), Pos::new(3, 1), |s| {
            if let LineStep::Cell(p) = s {
                cells.push((p.x, p.y));
            }
            true
        });
        assert_eq!(cells, vec![(0, 0), (1, 0), (2, 1), (3, 1)]);
    }

    // RULES: PERC-2, PERC-E1 — symmetric: A sees B exactly when B sees A, on random maps.
    #[test]
    fn perc_e1_line_of_sight_is_symmetric() {
        for seed in 0..20 {
            let m = random_map(seed, 24, 24, 0.25);
            let mut rng = ChaCha8Rng::seed_from_u64(seed + 1000);
            for _ in 0..400 {
                let a = Pos::new(rng.random_range(0..24), rng.random_range(0..24));
                let b = Pos::new(rng.random_range(0..24), rng.random_range(0..24));
                assert_eq!(clear_line(&m, a, b), clear_line(&m, b, a), "{a} {b} seed {seed}");
                assert_eq!(sight_line(&m, a, b).visible, clear_line(&m, a, b));
            }
        }
    }

    // RULES: PERC-E1 — grazing a corner does not block; a corner pinch (both flanks) does.
    #[test]
    fn perc_e1_corner_graze_and_pinch() {
        // y=1 row "#..": wall at (0,1); the diagonal (0,0)→(2,2) passes the corner at (1,1)
        // touching (1,0) and (0,1) — only one is a wall.
        let graze = map("...\n#..\n...");
        assert!(clear_line(&graze, Pos::new(0, 0), Pos::new(1, 1)));
        let pinch = map("...\n#..\n.#.");
        assert!(!clear_line(&pinch, Pos::new(0, 0), Pos::new(1, 1)));
        assert!(!clear_line(&pinch, Pos::new(1, 1), Pos::new(0, 0)));
        let wall = map(".#.");
        assert!(!clear_line(&wall, Pos::new(0, 0), Pos::new(2, 0)));
    }

    // RULES: ATK-15, ATK-E5 — cover from a low wall next to the defender, from peeking around a
    // corner, not when the attacker is adjacent, not when the low wall is far from the defender.
    #[test]
    fn atk_e5_cover_on_the_grid() {
        // Defender at (0,0), low wall at (1,0), attacker east at (4,0).
        let m = map("....\n.=..");
        let s = sight_line(&m, Pos::new(4, 0), Pos::new(0, 0));
        assert!(s.visible && s.cover);
        assert_eq!(s.cover_by, Some((Pos::new(1, 0), CoverReason::LowCover)), "the low wall is why");
        // Adjacent attacker across the low wall? (2,0) is not adjacent to (0,0): cover.
        assert!(sight_line(&m, Pos::new(2, 0), Pos::new(0, 0)).cover);
        // Attacker adjacent: no cover.
        assert!(!sight_line(&m, Pos::new(1, 1), Pos::new(0, 0)).cover);
        // Low wall not adjacent to the defender: no cover.
        let far = map(".....\n...=.");
        assert!(!sight_line(&far, Pos::new(4, 0), Pos::new(0, 0)).cover);
        // Peeking: wall at (1,0); attacker at (3,2) sees (0,0)... through the corner at (1,1)?
        let corner = map("....\n....\n.#..");
        let s = sight_line(&corner, Pos::new(2, 2), Pos::new(0, 0));
        assert!(s.visible && s.cover, "{s:?}");
        assert_eq!(s.cover_by, Some((Pos::new(1, 0), CoverReason::Corner)), "the wall's corner is why");
        assert_eq!(sight_line(&far, Pos::new(4, 0), Pos::new(0, 0)).cover_by, None);
    }

    // RULES: PERC-E2, FACE-4, PERC-5 — field of view agrees with single lines; the rear is blind
    // except adjacent squares.
    #[test]
    fn perc_e2_field_of_view_matches_lines_and_blind_side() {
        let m = random_map(7, 40, 40, 0.2);
        let o = Pos::new(20, 20);
        let fov = field_of_view(&m, o, 12, None);
        let set: std::collections::HashSet<Pos> = fov.iter().copied().collect();
        for y in 0..40 {
            for x in 0..40 {
                let p = Pos::new(x, y);
                let want = crate::rules::grid::distance(o, p) <= 12 && clear_line(&m, o, p);
                assert_eq!(set.contains(&p), want, "{p}");
            }
        }
        let open = GridMap::open(21, 21);
        let blind = BlindSide { facing: Facing::N, arcs: FacingArcs::Quarters };
        let seen: std::collections::HashSet<Pos> =
            field_of_view(&open, Pos::new(10, 10), 5, Some(blind)).into_iter().collect();
        assert!(seen.contains(&Pos::new(10, 9)), "adjacent rear is perceived");
        assert!(!seen.contains(&Pos::new(10, 7)), "rear is blind");
        assert!(seen.contains(&Pos::new(7, 7)), "rear diagonal boundary counts as side for a perceiver");
        assert!(seen.contains(&Pos::new(14, 10)));
    }

    #[test]
    fn fov_beyond_table_radius_falls_back_to_tracing() {
        let m = random_map(3, 120, 120, 0.02);
        let o = Pos::new(60, 60);
        let fov: std::collections::HashSet<Pos> = field_of_view(&m, o, 70, None).into_iter().collect();
        let p = Pos::new(60 + 55, 60);
        assert_eq!(fov.contains(&p), clear_line(&m, o, p));
    }

    // RULES: AREA-E6 — line of effect ignores fog and darkness, is stopped by walls.
    #[test]
    fn area_e6_line_of_effect() {
        let m = map("..%..\n..#..");
        assert!(line_of_effect(&m, Pos::new(0, 1), Pos::new(4, 1)));
        assert!(!line_of_effect(&m, Pos::new(0, 0), Pos::new(4, 0)));
    }
}
