//! Area templates (AREA-*): circle, sector/cone, ring, ray and curve, under both coverage
//! conventions.

use super::facing::Facing;
use super::grid::{GridMap, Pos, distance};
use super::los::{LineStep, line_of_effect, trace};
use super::ruleset::AreaCoverage;
use serde::{Deserialize, Serialize};

/// AREA-1 / AREA-2: the template shapes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Shape {
    /// AREA-E1: radius in steps (centre = step 0, AREA-3).
    Circle { radius: i32 },
    /// AREA-E2: the rim at `radius`; `width` widens it by floor(width/2) on both sides.
    Ring { radius: i32, width: i32 },
    /// AREA-E3: a cone of `length` steps and `angle` degrees aimed along `facing`.
    Sector { length: i32, angle: f64, facing: Facing },
    /// AREA-E4: a line of `length` steps and `width` squares aimed along `facing`.
    Ray { length: i32, width: i32, facing: Facing },
    /// AREA-E5: a polyline from the origin square's centre through the centres of
    /// `vertices[..segments]` (offsets from the origin), each segment covering squares as
    /// AREA-E4. Made by [`curve`], which holds it to `length`.
    Curve { length: i32, vertices: [Pos; MAX_CURVE_SEGMENTS], segments: u8 },
}

/// AREA-E5: most segments a curve may have.
pub const MAX_CURVE_SEGMENTS: usize = 4;

/// Why a polyline is not a curve of AREA-E5.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CurveError {
    /// A curve needs at least its end.
    NoVertex,
    TooManySegments {
        segments: usize,
    },
    /// Vertex `index` (from 1) is where the previous one is: a segment of no length.
    Repeated {
        index: usize,
    },
    /// Its SPACE-6 length exceeds the template's.
    TooLong {
        length: i64,
        most: i32,
    },
}

impl std::fmt::Display for CurveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CurveError::NoVertex => write!(f, "a curve needs at least the square it ends on"),
            CurveError::TooManySegments { segments } => {
                write!(f, "a curve has at most {MAX_CURVE_SEGMENTS} segments, not {segments}")
            }
            CurveError::Repeated { index } => write!(f, "bend {index} is on the square before it"),
            CurveError::TooLong { length, most } => {
                write!(f, "the curve is {length} steps long; the template reaches {most}")
            }
        }
    }
}

/// SPACE-6 length of the polyline from the origin (0, 0) through `vertices` (offsets): each
/// segment's exact length (a diagonal step 1.5) summed in half steps, the fraction dropped once
/// at the end (GEN-3), so a staircase of single diagonals counts 3 for every 2 as a straight
/// diagonal does. In i64: no overflow on absurd offsets.
pub fn curve_length(vertices: &[Pos]) -> i64 {
    let mut from = Pos::new(0, 0);
    let mut halves = 0i64;
    for &v in vertices {
        let (dx, dy) = ((i64::from(v.x) - i64::from(from.x)).abs(), (i64::from(v.y) - i64::from(from.y)).abs());
        halves += 2 * dx.max(dy) + dx.min(dy);
        from = v;
    }
    halves / 2
}

/// AREA-E5: the curve of `length` through `vertices` (offsets from the origin square, the last
/// one its end), or why it is none: 1 to 4 segments, none of zero length, SPACE-6 length ≤ L.
pub fn curve(length: i32, vertices: &[Pos]) -> Result<Shape, CurveError> {
    if vertices.is_empty() {
        return Err(CurveError::NoVertex);
    }
    if vertices.len() > MAX_CURVE_SEGMENTS {
        return Err(CurveError::TooManySegments { segments: vertices.len() });
    }
    let mut from = Pos::new(0, 0);
    for (i, &v) in vertices.iter().enumerate() {
        if v == from {
            return Err(CurveError::Repeated { index: i + 1 });
        }
        from = v;
    }
    let total = curve_length(vertices);
    if total > i64::from(length) {
        return Err(CurveError::TooLong { length: total, most: length });
    }
    let mut stored = [Pos::new(0, 0); MAX_CURVE_SEGMENTS];
    stored[..vertices.len()].copy_from_slice(vertices);
    Ok(Shape::Curve { length, vertices: stored, segments: vertices.len() as u8 })
}

/// The vertices of a curve (offsets from its origin).
fn curve_vertices(vertices: &[Pos; MAX_CURVE_SEGMENTS], segments: u8) -> &[Pos] {
    &vertices[..usize::from(segments).min(MAX_CURVE_SEGMENTS)]
}

/// Squares covered by a template placed at `origin` on an open plane (no walls), in offset
/// coordinates from the origin square. Sorted by (y descending, x ascending) for display.
pub fn template(shape: Shape, coverage: AreaCoverage) -> Vec<Pos> {
    let mut cells = raw_cells(shape, coverage, Pos::new(0, 0));
    cells.sort_by_key(|p| (-p.y, p.x));
    cells.dedup();
    cells
}

/// Squares covered on a real map: the template, clipped to the map, with line of effect from the
/// origin (AREA-E6): walls stop areas.
pub fn covered(map: &GridMap, origin: Pos, shape: Shape, coverage: AreaCoverage) -> Vec<Pos> {
    if let Shape::Curve { vertices, segments, length } = shape {
        return curve_on_map(map, origin, curve_vertices(&vertices, segments), length);
    }
    let mut cells: Vec<Pos> = raw_cells(shape, coverage, origin)
        .into_iter()
        .filter(|p| map.in_bounds(*p) && !solid(map, *p) && line_of_effect(map, origin, *p))
        .collect();
    cells.sort_by_key(|p| (-p.y, p.x));
    cells.dedup();
    cells
}

/// AREA-E5 with AREA-E4's stop and AREA-E6 (Engine decision: the curve's line of effect runs
/// along the curve itself, not from the origin, or it could never bend round a corner): the
/// segments in order, each square the line crosses, until a square that blocks effects (or
/// the map's edge, or a corner between two such squares) ends the whole curve there.
fn curve_on_map(map: &GridMap, origin: Pos, vertices: &[Pos], length: i32) -> Vec<Pos> {
    let mut cells = curve_cells(origin, vertices, length, |p| !map.in_bounds(p) || map.terrain(p).blocks_effect());
    cells.sort_by_key(|p| (-p.y, p.x));
    cells.dedup();
    cells
}

/// The squares of a curve from `origin` through `vertices` (offsets), segment by segment, the
/// origin excluded (AREA-E7), until a square for which `stops` holds (or a corner between two)
/// ends it; none when it is longer than `length`. Unsorted, with repeats.
fn curve_cells(origin: Pos, vertices: &[Pos], length: i32, stops: impl Fn(Pos) -> bool) -> Vec<Pos> {
    let mut cells = Vec::new();
    if curve_length(vertices) > i64::from(length) {
        return cells;
    }
    let mut from = origin;
    for v in vertices {
        let to = origin.offset(v.x, v.y);
        let mut blocked = false;
        trace(from, to, |step| {
            blocked = match step {
                LineStep::Cell(p) => p != from && stops(p),
                LineStep::Corner(p, q) => stops(p) && stops(q),
            };
            if let LineStep::Cell(p) = step
                && !blocked
                && p != origin
            {
                cells.push(p);
            }
            !blocked
        });
        if blocked {
            break;
        }
        from = to;
    }
    cells
}

/// A wall square holds no creature and no open ground: areas do not cover it.
fn solid(map: &GridMap, p: Pos) -> bool {
    map.blocks_movement(p) && map.terrain(p).cross_height.is_none()
}

fn square_range(r: i32) -> impl Iterator<Item = (i32, i32)> {
    (-r..=r).flat_map(move |y| (-r..=r).map(move |x| (x, y)))
}

/// The D&D origin: the grid intersection at the north-east corner of the origin square, in
/// doubled coordinates relative to the origin square's centre. Square centres are (2x, 2y).
const DND_CORNER2: (i32, i32) = (1, 1);

fn unit(f: Facing) -> (f64, f64) {
    let (x, y) = f.delta();
    let n = ((x * x + y * y) as f64).sqrt();
    (x as f64 / n, y as f64 / n)
}

fn raw_cells(shape: Shape, coverage: AreaCoverage, origin: Pos) -> Vec<Pos> {
    let at = |x: i32, y: i32| origin.offset(x, y);
    let o = Pos::new(0, 0);
    let mut out = Vec::new();
    match (shape, coverage) {
        (Shape::Circle { radius }, AreaCoverage::Meshal) => {
            // AREA-E1: every square within SPACE-6 distance r: r=1 is 3×3.
            for (x, y) in square_range(radius.max(0)) {
                if distance(o, Pos::new(x, y)) <= radius {
                    out.push(at(x, y));
                }
            }
        }
        (Shape::Ring { radius, width }, AreaCoverage::Meshal) => {
            // AREA-E2.
            let half = width.max(0) / 2;
            for (x, y) in square_range(radius.max(0) + half) {
                let d = distance(o, Pos::new(x, y));
                if d >= radius - half && d <= radius + half {
                    out.push(at(x, y));
                }
            }
        }
        (Shape::Sector { length, angle, facing }, AreaCoverage::Meshal) => {
            // AREA-E3: bearing within ±α/2, boundary inclusive (favour the actor), plus the ray.
            let (ux, uy) = unit(facing);
            let cos_half = (angle.clamp(0.0, 360.0) / 2.0).to_radians().cos();
            for (x, y) in square_range(length.max(0)) {
                let d = distance(o, Pos::new(x, y));
                if d < 1 || d > length {
                    continue;
                }
                let n = ((x * x + y * y) as f64).sqrt();
                if (x as f64 * ux + y as f64 * uy) / n >= cos_half - 1e-9 {
                    out.push(at(x, y));
                }
            }
            out.extend(ray_cells(facing, length, origin));
        }
        (Shape::Ray { length, width, facing }, _) if width <= 1 => {
            if coverage == AreaCoverage::Dnd {
                // AREA-D3: D&D lines keep the same count in every direction: `length` squares.
                let (dx, dy) = facing.delta();
                out.extend((1..=length.max(0)).map(|k| at(dx * k, dy * k)));
            } else {
                out.extend(ray_cells(facing, length, origin));
            }
        }
        (Shape::Ray { length, width, facing }, _) => {
            // Engine decision: a wide ray covers squares whose centre lies within width/2 of the
            // axis, ahead of the origin, within the length, plus the axis itself.
            let (ux, uy) = unit(facing);
            let half = width as f64 / 2.0;
            for (x, y) in square_range(length.max(0) + width) {
                let (fx, fy) = (x as f64, y as f64);
                let along = fx * ux + fy * uy;
                let across = (fx * uy - fy * ux).abs();
                let d = distance(o, Pos::new(x, y));
                if along > 0.0 && across <= half + 1e-9 && d <= length {
                    out.push(at(x, y));
                }
            }
            out.extend(ray_cells(facing, length, origin));
        }
        (Shape::Curve { length, vertices, segments }, _) => {
            // AREA-E5 on an open plane: nothing stops it. D&D has no curve of its own, so both
            // conventions share this one.
            out.extend(curve_cells(origin, curve_vertices(&vertices, segments), length, |_| false));
        }
        (Shape::Circle { radius }, AreaCoverage::Dnd) => {
            // AREA-D1: centred on an intersection; a square counts when most of it (its centre)
            // lies inside the circle.
            let r2 = (2 * radius.max(0)).pow(2);
            for (x, y) in square_range(radius.max(0) + 1) {
                let (cx, cy) = (2 * x - DND_CORNER2.0, 2 * y - DND_CORNER2.1);
                if cx * cx + cy * cy <= r2 {
                    out.push(at(x, y));
                }
            }
        }
        (Shape::Ring { radius, width }, AreaCoverage::Dnd) => {
            let half = width.max(0) / 2;
            let outer = (2 * (radius + half)).pow(2);
            let inner = (2 * (radius - half - 1)).max(0).pow(2);
            for (x, y) in square_range(radius.max(0) + half + 1) {
                let (cx, cy) = (2 * x - DND_CORNER2.0, 2 * y - DND_CORNER2.1);
                let d2 = cx * cx + cy * cy;
                if d2 <= outer && (radius - half - 1 < 0 || d2 > inner) {
                    out.push(at(x, y));
                }
            }
        }
        (Shape::Sector { length, facing, .. }, AreaCoverage::Dnd) => {
            // AREA-D2 / AREA-D3: D&D cones have a fixed shape, "width equals distance": row k
            // holds k squares (even rows lean clockwise), and a diagonal cone is built from
            // anti-diagonal rows, so the count is L(L+1)/2 in every direction. The angle is
            // ignored.
            let (fx, fy) = facing.delta();
            for k in 1..=length.max(0) {
                if fx != 0 && fy != 0 {
                    for a in 1..=k {
                        out.push(at(a * fx, (k + 1 - a) * fy));
                    }
                } else {
                    let (rx, ry) = (fy, -fx);
                    for j in -((k - 1) / 2)..=(k / 2) {
                        out.push(at(k * fx + j * rx, k * fy + j * ry));
                    }
                }
            }
        }
    }
    out
}

/// AREA-E4: the squares whose interior the centre line crosses, toward `facing`, until the
/// SPACE-6 distance passes `length`. The origin square is excluded (AREA-E7).
fn ray_cells(facing: Facing, length: i32, origin: Pos) -> Vec<Pos> {
    let (dx, dy) = facing.delta();
    let far = Pos::new(origin.x + dx * length.max(0) * 2, origin.y + dy * length.max(0) * 2);
    let mut out = Vec::new();
    trace(origin, far, |step| {
        if let LineStep::Cell(p) = step {
            if distance(origin, p) > length {
                return false;
            }
            if p != origin {
                out.push(p);
            }
        }
        true
    });
    out
}

/// AREA-E7: a creature is inside when any of its squares is covered.
pub fn footprint_inside(cells: &[Pos], footprint: super::grid::Footprint) -> bool {
    footprint.cells().any(|c| cells.contains(&c))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(shape: Shape) -> usize {
        template(shape, AreaCoverage::Meshal).len()
    }

    // RULES: AREA-3, AREA-E1 — centre is step 0: radius 1 covers 3×3; r=2 is 21; r=3 is 37.
    #[test]
    fn area_e1_circle_counts() {
        assert_eq!(count(Shape::Circle { radius: 0 }), 1);
        assert_eq!(count(Shape::Circle { radius: 1 }), 9);
        assert_eq!(count(Shape::Circle { radius: 2 }), 21);
        assert_eq!(count(Shape::Circle { radius: 3 }), 37);
    }

    // RULES: AREA-E3, AREA-4 — a 30° cone of 6 steps: 12 squares aimed orthogonally, 10
    // diagonally, with the axis and (4..6, ±1) in the orthogonal case.
    #[test]
    fn area_e3_cone_worked_results() {
        let north = template(Shape::Sector { length: 6, angle: 30.0, facing: Facing::N }, AreaCoverage::Meshal);
        assert_eq!(north.len(), 12);
        for y in 1..=6 {
            assert!(north.contains(&Pos::new(0, y)));
        }
        for y in 4..=6 {
            assert!(north.contains(&Pos::new(1, y)) && north.contains(&Pos::new(-1, y)));
        }
        assert_eq!(count(Shape::Sector { length: 6, angle: 30.0, facing: Facing::NE }), 10);
        assert_eq!(count(Shape::Sector { length: 6, angle: 30.0, facing: Facing::E }), 12);
        assert_eq!(count(Shape::Sector { length: 6, angle: 30.0, facing: Facing::SW }), 10);
    }

    // RULES: AREA-E2 — a ring covers d == r; a width widens it by floor(w/2) each side.
    #[test]
    fn area_e2_ring() {
        assert_eq!(count(Shape::Ring { radius: 2, width: 0 }), 21 - 9);
        assert_eq!(count(Shape::Ring { radius: 2, width: 2 }), 37 - 1);
    }

    // RULES: AREA-E4 — a ray covers squares whose interior the line crosses: along a diagonal,
    // only the diagonal squares, until the distance passes the length.
    #[test]
    fn area_e4_ray() {
        let n = template(Shape::Ray { length: 4, width: 1, facing: Facing::N }, AreaCoverage::Meshal);
        assert_eq!(n, vec![Pos::new(0, 4), Pos::new(0, 3), Pos::new(0, 2), Pos::new(0, 1)]);
        let ne = template(Shape::Ray { length: 6, width: 1, facing: Facing::NE }, AreaCoverage::Meshal);
        assert_eq!(ne, vec![Pos::new(4, 4), Pos::new(3, 3), Pos::new(2, 2), Pos::new(1, 1)]);
        let wide = template(Shape::Ray { length: 3, width: 3, facing: Facing::E }, AreaCoverage::Meshal);
        assert_eq!(wide.len(), 9);
    }

    // RULES: AREA-D1, AREA-D2, AREA-D3 — D&D convention: intersection centre, even diameters;
    // lines keep their count in every direction.
    #[test]
    fn area_d1_dnd_conventions() {
        let c1 = template(Shape::Circle { radius: 1 }, AreaCoverage::Dnd);
        assert_eq!(c1.len(), 4);
        let c2 = template(Shape::Circle { radius: 2 }, AreaCoverage::Dnd);
        assert_eq!(c2.len(), 12, "a 4×4 block less its corners");
        let n = template(Shape::Ray { length: 5, width: 1, facing: Facing::N }, AreaCoverage::Dnd);
        let ne = template(Shape::Ray { length: 5, width: 1, facing: Facing::NE }, AreaCoverage::Dnd);
        assert_eq!(n.len(), ne.len());
        let cone = |facing| template(Shape::Sector { length: 3, angle: 0.0, facing }, AreaCoverage::Dnd);
        // Width equals distance: rows of 1, 2 and 3 squares, in every direction.
        let north = cone(Facing::N);
        assert_eq!(north.len(), 6);
        assert_eq!(north.iter().filter(|p| p.y == 3).count(), 3);
        assert_eq!(north.iter().filter(|p| p.y == 2).count(), 2);
        for f in Facing::ALL {
            assert_eq!(cone(f).len(), 6, "{f:?}");
        }
    }

    // RULES: AREA-E5 — a curve is a polyline of up to 4 segments between square centres, its
    // SPACE-6 length at most L; each segment covers the squares its line crosses (AREA-E4).
    #[test]
    fn area_e5_curve_segments_cover_as_rays() {
        let p = Pos::new;
        // Three east, then three north: a hook of 6 steps, 6 squares (the origin excluded).
        let hook = template(curve(6, &[p(3, 0), p(3, 3)]).unwrap(), AreaCoverage::Meshal);
        assert_eq!(hook, vec![p(3, 3), p(3, 2), p(3, 1), p(1, 0), p(2, 0), p(3, 0)]);
        // A single diagonal segment is the diagonal ray's squares.
        let diag = template(curve(6, &[p(4, 4)]).unwrap(), AreaCoverage::Meshal);
        assert_eq!(diag, template(Shape::Ray { length: 6, width: 1, facing: Facing::NE }, AreaCoverage::Meshal));
        // SPACE-6 length: (4, 2) is 4 + 2/2 = 5 steps; then 2 more north is 7.
        assert_eq!(curve_length(&[p(4, 2)]), 5);
        assert_eq!(curve_length(&[p(4, 2), p(4, 4)]), 7);
        // SPACE-6, GEN-3: four single diagonals are 6 steps, as the straight diagonal is.
        assert_eq!(curve_length(&[p(1, 1), p(2, 2), p(3, 3), p(4, 4)]), 6);
        assert_eq!(curve_length(&[p(4, 4)]), 6);
        assert_eq!(curve_length(&[p(1, 1), p(2, 1)]), 2, "1.5 + 1 = 2.5 → 2");
        assert!(curve(4, &[p(1, 1), p(2, 2), p(3, 3), p(4, 4)]).is_err());
        assert_eq!(curve(6, &[p(4, 2), p(4, 4)]), Err(CurveError::TooLong { length: 7, most: 6 }));
        assert_eq!(curve(6, &[]), Err(CurveError::NoVertex));
        assert_eq!(
            curve(9, &[p(1, 0), p(2, 0), p(3, 0), p(4, 0), p(5, 0)]),
            Err(CurveError::TooManySegments { segments: 5 })
        );
        assert_eq!(curve(6, &[p(1, 0), p(1, 0)]), Err(CurveError::Repeated { index: 2 }));
        assert_eq!(curve(6, &[p(0, 0)]), Err(CurveError::Repeated { index: 1 }));
        let far = p(i32::MAX, i32::MIN);
        assert!(matches!(curve(6, &[far, p(0, 1)]), Err(CurveError::TooLong { .. })), "no overflow");
        assert!(CurveError::TooLong { length: 7, most: 6 }.to_string().contains("7 steps"));
    }

    // RULES: AREA-E5, AREA-E6 — on a map the curve bends round a wall its straight line could
    // not pass, and a wall on a segment ends the curve there.
    #[test]
    fn area_e5_curve_bends_round_walls_and_stops_at_them() {
        let m = GridMap::from_ascii(".......\n.......\n.#####.\n.......\n.......").unwrap();
        // From (0, 0) (south-west), round the wall's west end to (3, 3) behind it.
        let p = Pos::new;
        let round = covered(&m, p(0, 0), curve(7, &[p(0, 3), p(3, 3)]).unwrap(), AreaCoverage::Meshal);
        assert!(round.contains(&p(3, 3)) && round.contains(&p(0, 2)), "{round:?}");
        assert!(!covered(&m, p(0, 0), Shape::Circle { radius: 4 }, AreaCoverage::Meshal).contains(&p(3, 3)));
        // Straight north from (2, 0) meets the wall at (2, 2): the curve ends at (2, 1).
        let blocked = covered(&m, p(2, 0), curve(7, &[p(0, 3), p(3, 3)]).unwrap(), AreaCoverage::Meshal);
        assert_eq!(blocked, vec![p(2, 1)]);
    }

    // RULES: AREA-E6, AREA-E7 — walls stop areas; a creature is inside if any square is covered.
    #[test]
    fn area_e6_walls_block_areas() {
        let m = GridMap::from_ascii(".......\n.......\n...#...\n.......\n.......").unwrap();
        let cells = covered(&m, Pos::new(3, 1), Shape::Circle { radius: 3 }, AreaCoverage::Meshal);
        assert!(!cells.contains(&Pos::new(3, 3)), "behind the wall at (3,2)");
        assert!(!cells.contains(&Pos::new(3, 2)), "the wall itself is not open ground");
        // The line to (2,3) crosses the wall square's interior; the one to (1,3) only grazes its
        // corner (PERC-E1), so it is covered.
        assert!(!cells.contains(&Pos::new(2, 3)));
        assert!(cells.contains(&Pos::new(1, 3)));
        let brute = crate::rules::grid::Footprint::new(Pos::new(5, 3), 2);
        assert!(footprint_inside(&cells, brute));
    }
}
