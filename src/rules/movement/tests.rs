//! MOVE-* scenarios for the movement search.

use super::*;

// RULES: MOVE-E1 — a field from several squares at once is, everywhere, the cheapest of the
// fields from each of them.
#[test]
fn a_field_from_many_origins_is_the_cheapest_of_each() {
    let map = GridMap::from_ascii("..........\n.####.....\n....#..~~.\n....#..~~.\n..........\n").unwrap();
    let mover = Mover::walker(4);
    let origins = [Pos::new(0, 0), Pos::new(9, 4), Pos::new(6, 2)];
    let many = cost_field_from(&map, None, &mover, &origins);
    for y in 0..map.height() {
        for x in 0..map.width() {
            let p = Pos::new(x, y);
            let best = origins.iter().filter_map(|&o| cost_field(&map, None, &mover, o).cost_quarters(p)).min();
            assert_eq!(many.cost_quarters(p), best, "{p}");
        }
    }
}
use crate::rules::grid::Terrain;

fn map(rows: &str) -> GridMap {
    GridMap::from_ascii(rows).unwrap()
}

// RULES: MOVE-1, MOVE-E1, SPACE-6 — on open ground one move of speed S reaches exactly the
// squares within SPACE-6 distance S.
#[test]
fn move_e1_open_ground_matches_distance() {
    let m = GridMap::open(21, 21);
    let o = Pos::new(10, 10);
    for speed in 1..=6 {
        let f = reachable(&m, None, &Mover::walker(speed), o).unwrap();
        let got: Vec<Pos> = f.destinations().collect();
        let want = (0..21)
            .flat_map(|y| (0..21).map(move |x| Pos::new(x, y)))
            .filter(|p| crate::rules::grid::distance(o, *p) <= speed)
            .count();
        assert_eq!(got.len(), want, "speed {speed}");
    }
    // Two diagonals cost 3; a lone diagonal costs 1.
    let f = reachable(&m, None, &Mover::walker(3), o).unwrap();
    assert_eq!(f.cost_steps(Pos::new(12, 12)), Some(3.0));
    assert_eq!(f.cost_steps(Pos::new(11, 11)), Some(1.5));
}

// RULES: MOVE-5, MOVE-E1 — difficult ground doubles the cost; smooth halves it; one of each
// cancels.
#[test]
fn move_5_difficult_and_smooth() {
    let rough = map("~~~~~~~");
    let f = reachable(&rough, None, &Mover::walker(4), Pos::new(0, 0)).unwrap();
    assert!(f.can_end_at(Pos::new(2, 0)));
    assert!(!f.can_end_at(Pos::new(3, 0)));
    let terrains = vec![
        Terrain { name: "slope".into(), smooth: true, ..Terrain::default() },
        Terrain { name: "rough slope".into(), smooth: true, difficult: true, ..Terrain::default() },
    ];
    let smooth = GridMap::new(9, 1, terrains.clone(), vec![0; 9]).unwrap();
    let f = reachable(&smooth, None, &Mover::walker(3), Pos::new(0, 0)).unwrap();
    assert!(f.can_end_at(Pos::new(7, 0)), "3 steps of budget, half cost: 7 squares (3.5 floors to 3)");
    assert!(!f.can_end_at(Pos::new(8, 0)));
    let cancel = GridMap::new(9, 1, terrains, vec![1; 9]).unwrap();
    let f = reachable(&cancel, None, &Mover::walker(3), Pos::new(0, 0)).unwrap();
    assert!(f.can_end_at(Pos::new(3, 0)) && !f.can_end_at(Pos::new(4, 0)));
}

// RULES: MOVE-7 — the source's example: speed 2 at resistance 2 moves 1 step.
#[test]
fn move_7_resistance_example() {
    let mud = GridMap::new(5, 1, vec![Terrain { resistance: 1, ..Terrain::default() }], vec![0; 5]).unwrap();
    let f = reachable(&mud, None, &Mover::walker(2), Pos::new(0, 0)).unwrap();
    assert!(f.can_end_at(Pos::new(1, 0)) && !f.can_end_at(Pos::new(2, 0)));
}

// RULES: POST-3, MOVE-E1 — crouching adds +1 resistance, prone +2; Sit cannot move.
#[test]
fn post_3_posture_resistance() {
    let m = GridMap::open(10, 1);
    let mut mv = Mover::walker(6);
    mv.posture = Posture::Crouch;
    let f = reachable(&m, None, &mv, Pos::new(0, 0)).unwrap();
    assert!(f.can_end_at(Pos::new(3, 0)) && !f.can_end_at(Pos::new(4, 0)));
    mv.posture = Posture::Prone;
    let f = reachable(&m, None, &mv, Pos::new(0, 0)).unwrap();
    assert!(f.can_end_at(Pos::new(2, 0)) && !f.can_end_at(Pos::new(3, 0)));
    mv.posture = Posture::Sit;
    assert_eq!(reachable(&m, None, &mv, Pos::new(0, 0)).unwrap_err(), MoveError::CannotMove);
}

// RULES: MOVE-6 — speed below 1 cannot move.
#[test]
fn move_6_speed_below_one() {
    let m = GridMap::open(3, 3);
    assert_eq!(reachable(&m, None, &Mover::walker(0), Pos::new(1, 1)).unwrap_err(), MoveError::CannotMove);
}

// RULES: MOVE-8, MOVE-E2 — sprint doubles the budget.
#[test]
fn move_8_sprint_doubles_speed() {
    let m = GridMap::open(20, 1);
    let mut mv = Mover::walker(3);
    mv.sprint = true;
    let f = reachable(&m, None, &mv, Pos::new(0, 0)).unwrap();
    assert!(f.can_end_at(Pos::new(6, 0)) && !f.can_end_at(Pos::new(7, 0)));
}

// RULES: MOVE-9, MOVE-E3 — a knee-high wall costs +1 resistance to cross; a tall one cannot be
// crossed.
#[test]
fn move_9_cross_over_low_wall() {
    let m = map(".=..");
    let f = reachable(&m, None, &Mover::walker(3), Pos::new(0, 0)).unwrap();
    // Entering the low wall costs 2, stepping off it 1: total 3.
    assert!(!f.can_end_at(Pos::new(3, 0)));
    assert!(f.can_end_at(Pos::new(2, 0)));
    assert_eq!(f.cost_steps(Pos::new(2, 0)), Some(3.0));
    let wall = map(".#..");
    let f = reachable(&wall, None, &Mover::walker(6), Pos::new(0, 0)).unwrap();
    assert!(!f.can_end_at(Pos::new(2, 0)));
}

// RULES: SPACE-E6 — no diagonal past an obstacle corner; a path around costs more.
#[test]
fn space_e6_corner_cutting_forbidden() {
    let m = map("..\n.#\n..");
    // y=1 row is ".#": the wall is at (1,1).
    let f = reachable(&m, None, &Mover::walker(3), Pos::new(0, 1)).unwrap();
    // (1,2) is diagonal from (0,1), flanked by the wall at (1,1): must go via (0,2).
    assert_eq!(f.cost_steps(Pos::new(1, 2)), Some(2.0));
    let mv = Mover::walker(3);
    let err = validate_path(&m, None, &mv, &[Pos::new(0, 1), Pos::new(1, 2)]).unwrap_err();
    assert_eq!(err.rule(), "SPACE-E6");
}

// RULES: SPACE-9, SPACE-E5, MOVE-16 — blocking creatures are walked around; passable ones
// can be crossed but not stopped on.
#[test]
fn space_e5_passing_and_stopping() {
    let m = GridMap::open(5, 1);
    let mut occ = vec![Occupant::Free; 5];
    occ[1] = Occupant::Blocked;
    let f = reachable(&m, Some(&occ), &Mover::walker(4), Pos::new(0, 0)).unwrap();
    assert!(!f.can_end_at(Pos::new(2, 0)));
    occ[1] = Occupant::PassOnly;
    let f = reachable(&m, Some(&occ), &Mover::walker(4), Pos::new(0, 0)).unwrap();
    assert!(!f.can_end_at(Pos::new(1, 0)));
    assert!(f.can_end_at(Pos::new(2, 0)));
    let mv = Mover::walker(4);
    let err = validate_path(&m, Some(&occ), &mv, &[Pos::new(0, 0), Pos::new(1, 0)]).unwrap_err();
    assert_eq!(err.rule(), "SPACE-E5");
}

// RULES: SPACE-E4 — a Large 2×2 mover needs room for its whole footprint.
#[test]
fn space_e4_large_mover_needs_room() {
    let m = map("......\n......\n...#..\n......");
    let mv = Mover { size: Size::Large, speed: 8, sprint: false, posture: Posture::Standing, depth: 0, burden: 0 };
    let f = reachable(&m, None, &mv, Pos::new(0, 0)).unwrap();
    assert!(f.can_end_at(Pos::new(1, 0)));
    // Origin (2,1) would cover (3,1), the wall.
    assert!(!f.can_end_at(Pos::new(2, 1)));
    // Straight east is blocked for a 2×2 body, so it must go around, over 4 steps.
    assert!(f.can_end_at(Pos::new(4, 0)));
    assert!(f.cost_steps(Pos::new(4, 0)).unwrap() > 4.0);
}

#[test]
fn paths_are_cheapest_and_valid() {
    let m = map(".....\n.###.\n.....");
    let mv = Mover::walker(8);
    let f = reachable(&m, None, &mv, Pos::new(0, 1)).unwrap();
    let path = f.path_to(Pos::new(4, 1)).unwrap();
    assert_eq!(validate_path(&m, None, &mv, &path).unwrap(), f.cost_quarters(Pos::new(4, 1)).unwrap());
    let too_far = validate_path(&m, None, &Mover::walker(2), &path).unwrap_err();
    assert_eq!(too_far.rule(), "MOVE-E1");
}

// RULES: MOVE-E1, SPACE-E5, SPACE-E6 — the bucket search agrees with an independent
// Dijkstra (the `pathfinding` crate) over the plain step rules, on random maps with
// creatures, for Medium and Large movers.
#[test]
fn move_e1_fast_search_matches_reference_dijkstra() {
    use rand::{RngExt, SeedableRng};
    let terrains = vec![
        Terrain::floor(),
        Terrain::rough(),
        Terrain { name: "mud".into(), resistance: 1, ..Terrain::default() },
        Terrain::low_wall(),
        Terrain::wall(),
        Terrain { name: "slope".into(), smooth: true, ..Terrain::default() },
    ];
    for seed in 0..40u64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let (w, h) = (18, 14);
        let cells: Vec<u16> = (0..w * h).map(|_| rng.random_range(0..6u16)).collect();
        let mut cells = cells;
        cells[0] = 0;
        cells[1] = 0;
        cells[w as usize] = 0;
        cells[w as usize + 1] = 0;
        let m = GridMap::new(w, h, terrains.clone(), cells).unwrap();
        let occ: Vec<Occupant> = (0..w * h)
            .map(|i| match (i > 2 * w, rng.random_range(0..20)) {
                (true, 0) => Occupant::Blocked,
                (true, 1) => Occupant::PassOnly,
                _ => Occupant::Free,
            })
            .collect();
        let size = if seed % 2 == 0 { Size::Medium } else { Size::Large };
        let mover = Mover { size, speed: 5, sprint: seed % 3 == 0, posture: Posture::Standing, depth: 0, burden: 0 };
        let searcher = Searcher { map: &m, occupancy: Some(&occ), costs: enter_costs(&m, &mover), side: mover.side() };
        let start = Pos::new(0, 0);
        let reference = pathfinding::prelude::dijkstra_all(&start, |&p| {
            let mut next = Vec::new();
            for dx in -1..=1 {
                for dy in -1..=1 {
                    if (dx, dy) == (0, 0) {
                        continue;
                    }
                    let diag = dx != 0 && dy != 0;
                    if let Some(c) = searcher.enter(p.offset(dx, dy), diag)
                        && (!diag || searcher.diagonal_clear(p, dx, dy))
                    {
                        next.push((p.offset(dx, dy), c));
                    }
                }
            }
            next
        });
        let field = cost_field(&m, Some(&occ), &mover, start);
        let reach = reachable(&m, Some(&occ), &mover, start).unwrap();
        let budget = budget_quarters(mover.budget_steps());
        for y in 0..h {
            for x in 0..w {
                let p = Pos::new(x, y);
                let want = if p == start { Some(0) } else { reference.get(&p).map(|&(_, c)| c) };
                assert_eq!(field.cost_quarters(p), want, "seed {seed} {p}");
                let stop = searcher.can_stop(p);
                assert_eq!(
                    reach.can_end_at(p),
                    p == start || (stop && want.is_some_and(|c| c <= budget)),
                    "seed {seed} {p}"
                );
                if let Some(path) = reach.path_to(p).filter(|_| reach.can_end_at(p) && p != start) {
                    assert_eq!(validate_path(&m, Some(&occ), &mover, &path), Ok(want.unwrap()), "seed {seed} {p}");
                }
            }
        }
    }
}

#[test]
fn cost_field_covers_the_whole_map() {
    let m = map(".....\n.###.\n.....");
    let f = cost_field(&m, None, &Mover::walker(1), Pos::new(0, 0));
    assert_eq!(f.cost_steps(Pos::new(4, 2)), Some(6.0));
    assert_eq!(f.cost_quarters(Pos::new(2, 1)), None);
}
