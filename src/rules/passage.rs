//! Choke squares (SPACE-9, SPACE-E6): whether a creature on a square cuts the way between the
//! open squares around it. A corridor one square wide is such a square, and so is its mouth:
//! the diagonal steps beside the mouth would cut the corridor's wall corners, so the only way
//! in is through the mouth itself.

use super::grid::{GridMap, Pos};

/// How far around the square a way past it is looked for: a detour that leaves this window
/// is no way past in a fight (and the test stays a few dozen squares, asked freely).
pub const DETOUR_RADIUS: i32 = 3;

const AROUND: [(i32, i32); 8] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];

/// SPACE-E6: a diagonal step from `a` to `b` may not squeeze past a wall's corner; a
/// creature on one of the two corner squares does not stop it alone (a lone creature's corner
/// is passed, two creatures' are not, and only `at` is counted here).
fn step_open(map: &GridMap, a: Pos, b: Pos) -> bool {
    a.x == b.x || a.y == b.y || (!map.blocks_movement(Pos::new(b.x, a.y)) && !map.blocks_movement(Pos::new(a.x, b.y)))
}

/// Would a creature of one square on `at` (which blocks walkers within a size category of it,
/// SPACE-9) cut apart two open squares next to it, counting only the ways around it within
/// `DETOUR_RADIUS` squares? Walls are terrain that blocks movement, even where it can be
/// climbed (SPACE-E6 treats it as an obstacle for corners all the same); other creatures are
/// not looked at: they move.
pub fn cuts_the_way(map: &GridMap, at: Pos) -> bool {
    const WIDTH: usize = (2 * DETOUR_RADIUS + 1) as usize;
    let r = DETOUR_RADIUS;
    let slot = |p: Pos| (p.y - at.y + r) as usize * WIDTH + (p.x - at.x + r) as usize;
    let open = |p: Pos| p != at && (p.x - at.x).abs() <= r && (p.y - at.y).abs() <= r && !map.blocks_movement(p);
    // The squares a walker could step to from `at`: those the creature on it stands between.
    let beside: Vec<Pos> =
        AROUND.iter().map(|&(dx, dy)| at.offset(dx, dy)).filter(|&p| open(p) && step_open(map, at, p)).collect();
    let Some(&start) = beside.first() else { return false };
    let mut seen = [false; WIDTH * WIDTH];
    seen[slot(start)] = true;
    let mut todo = vec![start];
    while let Some(p) = todo.pop() {
        for &(dx, dy) in &AROUND {
            let q = p.offset(dx, dy);
            if open(q) && !seen[slot(q)] && step_open(map, p, q) {
                seen[slot(q)] = true;
                todo.push(q);
            }
        }
    }
    beside.iter().any(|&p| !seen[slot(p)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::grid::Terrain;

    fn map(rows: &[&str]) -> GridMap {
        let terrains = vec![Terrain::default(), Terrain { blocks_movement: true, ..Terrain::default() }];
        let cells = rows.iter().flat_map(|r| r.bytes().map(|c| u16::from(c == b'#'))).collect();
        GridMap::new(rows[0].len() as i32, rows.len() as i32, terrains, cells).expect("a valid map")
    }

    // RULES: SPACE-9, SPACE-E6 — a body in a corridor one square wide, or in its mouth (the
    // diagonals beside the mouth cut the corridor's wall corners), leaves no way past; in a
    // room, at a dead end or in a corridor two squares wide there is one.
    #[test]
    fn a_body_cuts_the_way_only_where_there_is_no_way_round() {
        let m = map(&[
            "##########",
            "#....#...#",
            "#....#...#",
            "###.####.#",
            "###.####.#",
            "#......#.#",
            "#......#.#",
            "##########",
        ]);
        assert!(cuts_the_way(&m, Pos::new(3, 3)), "inside the corridor");
        assert!(cuts_the_way(&m, Pos::new(3, 2)), "its mouth: (2,2)-(3,3) and (4,2)-(3,3) cut wall corners");
        assert!(cuts_the_way(&m, Pos::new(3, 5)), "the other mouth");
        assert!(!cuts_the_way(&m, Pos::new(1, 1)), "a room's corner");
        assert!(!cuts_the_way(&m, Pos::new(2, 2)), "beside the mouth: the way round it is open");
        assert!(!cuts_the_way(&m, Pos::new(4, 6)), "in a room");
        assert!(cuts_the_way(&m, Pos::new(8, 3)), "a corridor along the wall");
        let wide = map(&["#######", "#.....#", "#.....#", "#######"]);
        assert!(!cuts_the_way(&wide, Pos::new(3, 1)), "two squares wide: round by the other lane");
        let dead_end = map(&["#####", "#...#", "###.#", "#####"]);
        assert!(!cuts_the_way(&dead_end, Pos::new(3, 2)), "a dead end leads nowhere to cut");
        assert!(cuts_the_way(&dead_end, Pos::new(3, 1)), "but the square before it does");
    }
}
