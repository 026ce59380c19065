//! The square grid (SPACE-*): positions, distance, footprints, terrain and the map.

use serde::{Deserialize, Serialize};

/// A square. x grows east, y grows north.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Pos {
    pub x: i32,
    pub y: i32,
}

impl Pos {
    pub const fn new(x: i32, y: i32) -> Self {
        Pos { x, y }
    }
    pub fn offset(self, dx: i32, dy: i32) -> Pos {
        Pos::new(self.x + dx, self.y + dy)
    }
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// SPACE-6: every 2 diagonals count 3 steps, a lone diagonal 1:
/// `max(|dx|,|dy|) + floor(min(|dx|,|dy|) / 2)`.
#[inline]
pub fn distance_delta(dx: i32, dy: i32) -> i32 {
    let (ax, ay) = (dx.abs(), dy.abs());
    ax.max(ay) + ax.min(ay) / 2
}

/// SPACE-E7 (Engine decision): the SPACE-6 rule over (horizontal distance, height
/// difference): a creature down a pit 3 steps deep is 3 steps from one beside its rim.
#[inline]
pub fn distance_with_height(horizontal: i32, height: i32) -> i32 {
    if height == 0 { horizontal } else { distance_delta(horizontal, height) }
}

#[inline]
pub fn distance(a: Pos, b: Pos) -> i32 {
    distance_delta(b.x - a.x, b.y - a.y)
}

/// The squares a token covers: a `side`×`side` block whose south-west square is `origin`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Footprint {
    pub origin: Pos,
    pub side: i32,
}

impl Footprint {
    pub fn new(origin: Pos, side: i32) -> Self {
        Footprint { origin, side: side.max(1) }
    }
    pub fn single(p: Pos) -> Self {
        Footprint::new(p, 1)
    }
    /// Its squares, row by row from the origin.
    pub fn cells(self) -> FootprintCells {
        FootprintCells { origin: self.origin, side: self.side.max(0), dx: 0, dy: 0 }
    }
    pub fn contains(self, p: Pos) -> bool {
        p.x >= self.origin.x
            && p.y >= self.origin.y
            && p.x < self.origin.x + self.side
            && p.y < self.origin.y + self.side
    }
    /// Centre in doubled coordinates (so half squares stay integral).
    pub fn centre2(self) -> (i32, i32) {
        (2 * self.origin.x + self.side, 2 * self.origin.y + self.side)
    }
}

/// A footprint's squares, row by row (a nested `flat_map` was a measurable part of every
/// line and perception question the planner asks).
#[derive(Clone, Debug)]
pub struct FootprintCells {
    origin: Pos,
    side: i32,
    dx: i32,
    dy: i32,
}

impl Iterator for FootprintCells {
    type Item = Pos;

    #[inline]
    fn next(&mut self) -> Option<Pos> {
        if self.dy >= self.side {
            return None;
        }
        let p = self.origin.offset(self.dx, self.dy);
        self.dx += 1;
        if self.dx == self.side {
            (self.dx, self.dy) = (0, self.dy + 1);
        }
        Some(p)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = ((self.side - self.dy) * self.side - self.dx).max(0) as usize;
        (left, Some(left))
    }
}

impl ExactSizeIterator for FootprintCells {}

impl std::iter::FusedIterator for FootprintCells {}

/// SPACE-E4: distance between multi-square tokens = the minimum over pairs of occupied squares.
pub fn footprint_distance(a: Footprint, b: Footprint) -> i32 {
    // The closest pair is found per axis: the gap between the two intervals.
    let gap = |a0: i32, asz: i32, b0: i32, bsz: i32| {
        if b0 >= a0 + asz {
            b0 - (a0 + asz - 1)
        } else if a0 >= b0 + bsz {
            a0 - (b0 + bsz - 1)
        } else {
            0
        }
    };
    distance_delta(gap(a.origin.x, a.side, b.origin.x, b.side), gap(a.origin.y, a.side, b.origin.y, b.side))
}

/// One terrain type: the majority content of a square (SPACE-E3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
#[serde(deny_unknown_fields)]
pub struct Terrain {
    /// A level names a terrain by its key; a file need not (and a saved one does not) say it.
    #[serde(skip_serializing)]
    pub name: String,
    /// Extra movement resistance (MOVE-7, MOVE-E1).
    #[serde(skip_serializing_if = "is_zero")]
    pub resistance: i32,
    /// 000 difficult ground: +1 resistance (MOVE-5, MOVE-E1).
    #[serde(skip_serializing_if = "is_false")]
    pub difficult: bool,
    /// 000 smooth movement: cancels one difficult, else halves the cost (MOVE-5, MOVE-E1).
    #[serde(skip_serializing_if = "is_false")]
    pub smooth: bool,
    /// Walls, cliffs, trees (SPACE-9). A blocker with `cross_height` can be crossed (MOVE-9).
    #[serde(skip_serializing_if = "is_false")]
    pub blocks_movement: bool,
    /// Height in steps of a crossable obstacle (MOVE-9, MOVE-E3); None = cannot be crossed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cross_height: Option<i32>,
    #[serde(skip_serializing_if = "is_false")]
    pub blocks_sight: bool,
    /// Half-height feature that gives cover (ATK-15, ATK-E5) without blocking sight.
    #[serde(skip_serializing_if = "is_false")]
    pub low_cover: bool,
    /// Concealing terrain for hiding (PERC-E4).
    #[serde(skip_serializing_if = "is_false")]
    pub concealing: bool,
    /// Unlit (PERC-E3).
    #[serde(skip_serializing_if = "is_false")]
    pub dark: bool,
    /// SPACE-E7, MOVE-12: a square without support — a pit or the chasm below a ledge — whose
    /// floor lies this many steps below the ground around it (0 = solid ground). Engine
    /// decision: no voluntary move enters it (MOVE-10's jump down is not offered: a creature
    /// only falls in, by forced movement); sight and effects cross it.
    #[serde(skip_serializing_if = "is_zero")]
    pub drop: i32,
    /// FLOW-10: a dangerous square (fire, deep water) that attacks or drains a creature that
    /// ends a move or starts its turn in it (Engine decision, `battle/hazard.rs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hazard: Option<super::hazard::Hazard>,
}

fn is_false(b: &bool) -> bool {
    !*b
}
fn is_zero(n: &i32) -> bool {
    *n == 0
}

impl Default for Terrain {
    fn default() -> Self {
        Terrain {
            name: "floor".into(),
            resistance: 0,
            difficult: false,
            smooth: false,
            blocks_movement: false,
            cross_height: None,
            blocks_sight: false,
            low_cover: false,
            concealing: false,
            dark: false,
            drop: 0,
            hazard: None,
        }
    }
}

impl Terrain {
    /// AREA-E6 / ATK-E2: it stops a line of effect (a wall that cannot be crossed; a low wall
    /// that can be stepped over does not).
    pub fn blocks_effect(&self) -> bool {
        self.blocks_movement && self.cross_height.is_none()
    }
    pub fn floor() -> Self {
        Terrain::default()
    }
    pub fn wall() -> Self {
        Terrain { name: "wall".into(), blocks_movement: true, blocks_sight: true, ..Terrain::default() }
    }
    pub fn low_wall() -> Self {
        Terrain {
            name: "low wall".into(),
            blocks_movement: true,
            cross_height: Some(1),
            low_cover: true,
            ..Terrain::default()
        }
    }
    pub fn rough() -> Self {
        Terrain { name: "rough".into(), difficult: true, ..Terrain::default() }
    }
    /// A pit or chasm `depth` steps deep (SPACE-E7, MOVE-12).
    pub fn chasm(depth: i32) -> Self {
        Terrain { name: "chasm".into(), drop: depth, ..Terrain::default() }
    }
}

/// Largest map side the engine accepts (bounded so no input can exhaust memory).
pub const MAX_SIDE: i32 = 256;

/// A rectangular map of terrain indices, with per-square flags unpacked for hot loops.
#[derive(Clone, Debug)]
pub struct GridMap {
    width: i32,
    height: i32,
    terrains: Vec<Terrain>,
    cells: Vec<u16>,
    blocks_sight: Vec<bool>,
    blocks_move: Vec<bool>,
    /// AREA-E6 / ATK-E2: what stops a line of effect (movement blockers that cannot be crossed).
    blocks_effect: Vec<bool>,
    has_smooth: bool,
    /// Some square is a drop (SPACE-E7): heights matter on this map.
    has_drops: bool,
    /// How many squares changed since the map was built (doors, rubble): for caches.
    revision: u32,
    /// Line answers already worked out on this terrain (shared by clones; a new one on change).
    line_memo: std::sync::Arc<super::line_memo::LineMemo>,
    /// Identifies the terrain as it stands (`fingerprint`).
    fingerprint: u64,
}

/// Why a map could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MapError {
    BadSize { width: i32, height: i32 },
    CellCount { expected: usize, got: usize },
    UnknownTerrain { index: usize, terrain: u16 },
}

impl std::fmt::Display for MapError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MapError::BadSize { width, height } => {
                write!(f, "map size {width}×{height} is outside 1×1 to {MAX_SIDE}×{MAX_SIDE}")
            }
            MapError::CellCount { expected, got } => write!(f, "expected {expected} cells, got {got}"),
            MapError::UnknownTerrain { index, terrain } => write!(f, "cell {index} names unknown terrain {terrain}"),
        }
    }
}

impl std::error::Error for MapError {}

impl GridMap {
    /// `cells` are row-major with row 0 = y 0 (the southern edge).
    pub fn new(width: i32, height: i32, terrains: Vec<Terrain>, cells: Vec<u16>) -> Result<Self, MapError> {
        if width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE {
            return Err(MapError::BadSize { width, height });
        }
        let expected = (width * height) as usize;
        if cells.len() != expected {
            return Err(MapError::CellCount { expected, got: cells.len() });
        }
        if let Some((index, &terrain)) = cells.iter().enumerate().find(|(_, t)| **t as usize >= terrains.len()) {
            return Err(MapError::UnknownTerrain { index, terrain });
        }
        let blocks_sight = cells.iter().map(|&t| terrains[t as usize].blocks_sight).collect();
        let blocks_move = cells.iter().map(|&t| terrains[t as usize].blocks_movement).collect();
        let blocks_effect = cells.iter().map(|&t| terrains[t as usize].blocks_effect()).collect();
        let has_smooth = cells.iter().any(|&t| terrains[t as usize].smooth);
        let has_drops = cells.iter().any(|&t| terrains[t as usize].drop > 0);
        Ok(GridMap {
            width,
            height,
            terrains,
            cells,
            blocks_sight,
            blocks_move,
            blocks_effect,
            has_smooth,
            has_drops,
            revision: 0,
            line_memo: std::sync::Arc::new(super::line_memo::LineMemo::for_cells(expected)),
            fingerprint: 0,
        }
        .with_fingerprint())
    }

    fn with_fingerprint(mut self) -> Self {
        self.fingerprint = self.terrain_hash();
        self
    }

    fn terrain_hash(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (self.width, self.height, &self.cells, format!("{:?}", self.terrains)).hash(&mut h);
        h.finish()
    }

    /// An open map of one terrain.
    pub fn open(width: i32, height: i32) -> Self {
        GridMap::new(width, height, vec![Terrain::floor()], vec![0; (width.max(1) * height.max(1)) as usize])
            .expect("open map within bounds")
    }

    /// Parse the small text grid of `rules los`: `#` wall, `=` low cover, `.` floor, `~` rough,
    /// `%` dark floor. The last line is y = 0 (south), as on a printed map.
    pub fn from_ascii(text: &str) -> Result<Self, String> {
        let rows: Vec<&str> = text.lines().map(|l| l.trim_end()).filter(|l| !l.is_empty()).collect();
        if rows.is_empty() {
            return Err("the map has no rows".into());
        }
        let width = rows[0].chars().count();
        let height = rows.len();
        if width as i32 > MAX_SIDE || height as i32 > MAX_SIDE {
            return Err(format!("map is {width}×{height}; the limit is {MAX_SIDE}×{MAX_SIDE}"));
        }
        let terrains = vec![
            Terrain::floor(),
            Terrain::wall(),
            Terrain::low_wall(),
            Terrain::rough(),
            Terrain { name: "dark".into(), dark: true, ..Terrain::default() },
        ];
        let mut cells = vec![0u16; width * height];
        for (line_no, row) in rows.iter().enumerate() {
            if row.chars().count() != width {
                return Err(format!("line {}: row has {} columns, expected {width}", line_no + 1, row.chars().count()));
            }
            let y = height - 1 - line_no;
            for (x, ch) in row.chars().enumerate() {
                cells[y * width + x] = match ch {
                    '.' => 0,
                    '#' => 1,
                    '=' => 2,
                    '~' => 3,
                    '%' => 4,
                    other => {
                        return Err(format!(
                            "line {}, column {}: unknown map character {other:?} (use # = . ~ %)",
                            line_no + 1,
                            x + 1
                        ));
                    }
                };
            }
        }
        GridMap::new(width as i32, height as i32, terrains, cells).map_err(|e| e.to_string())
    }

    pub fn width(&self) -> i32 {
        self.width
    }
    pub fn height(&self) -> i32 {
        self.height
    }
    pub fn has_smooth(&self) -> bool {
        self.has_smooth
    }
    /// Changes since the map was built (ATK-E6: doors, rubble); a cache of anything derived
    /// from the map keys on it.
    pub fn revision(&self) -> u32 {
        self.revision
    }
    /// A hash of the terrain as it stands (size, squares, terrain kinds): two maps with the same
    /// fingerprint are walked and seen alike. Caches that outlive one battle key on it, since
    /// two battles of one level file and seed may stand on different maps (an edited level).
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }
    pub(crate) fn line_memo(&self) -> &super::line_memo::LineMemo {
        &self.line_memo
    }
    /// SPACE-E7: how far below the ground the footprint stands (the deepest drop under it).
    pub fn depth_under(&self, fp: Footprint) -> i32 {
        if !self.has_drops {
            return 0;
        }
        fp.cells().filter(|&c| self.in_bounds(c)).map(|c| self.terrain(c).drop).max().unwrap_or(0)
    }
    #[inline]
    pub fn in_bounds(&self, p: Pos) -> bool {
        p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height
    }
    #[inline]
    pub fn index(&self, p: Pos) -> usize {
        (p.y * self.width + p.x) as usize
    }
    pub fn pos_of(&self, index: usize) -> Pos {
        Pos::new(index as i32 % self.width, index as i32 / self.width)
    }
    pub fn terrain(&self, p: Pos) -> &Terrain {
        &self.terrains[self.cells[self.index(p)] as usize]
    }
    pub fn terrain_index(&self, p: Pos) -> u16 {
        self.cells[self.index(p)]
    }
    /// Terrain indices of one row (y), west to east.
    pub fn terrain_row(&self, y: i32) -> &[u16] {
        let w = self.width as usize;
        &self.cells[y as usize * w..(y as usize + 1) * w]
    }
    pub fn terrains(&self) -> &[Terrain] {
        &self.terrains
    }
    /// Out-of-bounds squares block sight and movement.
    #[inline]
    pub fn blocks_sight(&self, p: Pos) -> bool {
        !self.in_bounds(p) || self.blocks_sight[self.index(p)]
    }
    #[inline]
    pub fn blocks_movement(&self, p: Pos) -> bool {
        !self.in_bounds(p) || self.blocks_move[self.index(p)]
    }
    pub fn sight_blockers(&self) -> &[bool] {
        &self.blocks_sight
    }
    pub fn movement_blockers(&self) -> &[bool] {
        &self.blocks_move
    }
    /// Squares that stop a line of effect (AREA-E6, ATK-E2).
    pub fn effect_blockers(&self) -> &[bool] {
        &self.blocks_effect
    }
    /// Replace one square's terrain (a broken wall becoming rubble, ATK-E6).
    pub fn set_terrain(&mut self, p: Pos, terrain: u16) {
        if self.in_bounds(p) && (terrain as usize) < self.terrains.len() {
            let i = self.index(p);
            self.cells[i] = terrain;
            self.blocks_sight[i] = self.terrains[terrain as usize].blocks_sight;
            self.blocks_move[i] = self.terrains[terrain as usize].blocks_movement;
            self.blocks_effect[i] = self.terrains[terrain as usize].blocks_effect();
            self.has_smooth = self.cells.iter().any(|&t| self.terrains[t as usize].smooth);
            self.has_drops = self.cells.iter().any(|&t| self.terrains[t as usize].drop > 0);
            self.revision = self.revision.wrapping_add(1);
            self.line_memo = std::sync::Arc::new(super::line_memo::LineMemo::for_cells(self.cells.len()));
            self.fingerprint = self.terrain_hash();
        }
    }
}

/// SPACE-5, SPACE-E2, SPACE-E6: adjacent = one of the 8 neighbours; a diagonal neighbour is cut
/// off only when both squares flanking the corner are obstacles.
pub fn adjacent(map: &GridMap, a: Pos, b: Pos) -> bool {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    if dx.abs() > 1 || dy.abs() > 1 || (dx == 0 && dy == 0) {
        return false;
    }
    if dx != 0 && dy != 0 {
        return !(map.blocks_movement(a.offset(dx, 0)) && map.blocks_movement(a.offset(0, dy)));
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    // RULES: SPACE-6 — the digest's worked examples. SPACE-2 — one square is one step, and
    // what is under a step is ignored: the diagonal neighbour (1.5 steps) is 1 step away.
    #[test]
    fn space_6_distance_examples() {
        let o = Pos::new(0, 0);
        assert_eq!(distance(o, Pos::new(1, 0)), 1);
        assert_eq!(distance(o, Pos::new(1, 1)), 1);
        assert_eq!(distance(o, Pos::new(2, 2)), 3);
        assert_eq!(distance(o, Pos::new(3, 3)), 4);
        assert_eq!(distance(o, Pos::new(4, 1)), 4);
        assert_eq!(distance(o, Pos::new(4, 2)), 5);
        assert_eq!(distance(Pos::new(4, 2), o), 5);
        assert_eq!(distance(o, Pos::new(-4, 2)), 5);
    }

    // RULES: SPACE-E4 — distance between multi-square tokens is the closest pair.
    #[test]
    fn space_e4_footprint_distance() {
        let large = Footprint::new(Pos::new(0, 0), 2);
        assert_eq!(footprint_distance(large, Footprint::single(Pos::new(2, 0))), 1);
        assert_eq!(footprint_distance(large, Footprint::single(Pos::new(3, 3))), 3);
        assert_eq!(footprint_distance(large, Footprint::single(Pos::new(1, 1))), 0);
        assert_eq!(footprint_distance(large, Footprint::single(Pos::new(-1, 4))), 3);
        assert_eq!(large.cells().count(), 4);
        assert_eq!(large.centre2(), (2, 2));
    }

    // RULES: SPACE-5, SPACE-E2, SPACE-E6 — 8 neighbours; a diagonal is cut only by two obstacles.
    #[test]
    fn space_e2_adjacency_and_corner_pinch() {
        let map = GridMap::from_ascii("...\n#..\n.#.").unwrap();
        // y=0 row is ".#.", y=1 row is "#..".
        let a = Pos::new(0, 0);
        assert!(!adjacent(&map, a, Pos::new(1, 1)), "both flanking squares are walls");
        assert!(adjacent(&map, Pos::new(1, 1), Pos::new(2, 2)));
        assert!(!adjacent(&map, a, Pos::new(2, 0)));
        let open = GridMap::open(3, 3);
        let n = (-1..=1)
            .flat_map(|dx| (-1..=1).map(move |dy| (dx, dy)))
            .filter(|&(dx, dy)| adjacent(&open, Pos::new(1, 1), Pos::new(1 + dx, 1 + dy)))
            .count();
        assert_eq!(n, 8);
    }

    #[test]
    fn ascii_map_errors_name_line_and_column() {
        let e = GridMap::from_ascii("..\n.x").unwrap_err();
        assert!(e.contains("line 2, column 2"), "{e}");
        let e = GridMap::from_ascii("..\n...").unwrap_err();
        assert!(e.contains("line 2"), "{e}");
        assert!(GridMap::new(0, 5, vec![Terrain::floor()], vec![]).is_err());
        assert!(GridMap::new(300, 5, vec![Terrain::floor()], vec![0; 1500]).is_err());
    }
}
