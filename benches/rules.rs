//! Speed targets of the rules core (issue 2). Figures are recorded in README.md.

use bracket_pathfinding::prelude::{Algorithm2D, BaseMap, FieldOfViewAlg, Point};
use criterion::{Criterion, criterion_group, criterion_main};
use meshal_tactics::rules::attack::{AttackOdds, damage_distribution};
use meshal_tactics::rules::grid::{GridMap, Pos, Terrain};
use meshal_tactics::rules::los::field_of_view_into;
use meshal_tactics::rules::movement::{Mover, cost_field, reachable};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

const SIDE: i32 = 64;

/// 64×64 with 20% random walls; the centre kept open for the viewer.
fn walled_map(seed: u64) -> GridMap {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut cells: Vec<u16> = (0..SIDE * SIDE).map(|_| u16::from(rng.random_bool(0.2))).collect();
    cells[(32 * SIDE + 32) as usize] = 0;
    GridMap::new(SIDE, SIDE, vec![Terrain::floor(), Terrain::wall()], cells).unwrap()
}

/// 64×64 of mixed resistance: floor, rough (difficult), mud (+1), low walls, a few walls.
fn mixed_map(seed: u64) -> GridMap {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let terrains = vec![
        Terrain::floor(),
        Terrain::rough(),
        Terrain { name: "mud".into(), resistance: 1, ..Terrain::default() },
        Terrain::low_wall(),
        Terrain::wall(),
    ];
    let mut cells: Vec<u16> = (0..SIDE * SIDE)
        .map(|_| match rng.random_range(0..100) {
            0..=59 => 0,
            60..=74 => 1,
            75..=84 => 2,
            85..=91 => 3,
            _ => 4,
        })
        .collect();
    cells[(32 * SIDE + 32) as usize] = 0;
    GridMap::new(SIDE, SIDE, terrains, cells).unwrap()
}

struct BracketMap<'a>(&'a GridMap);

impl BaseMap for BracketMap<'_> {
    fn is_opaque(&self, idx: usize) -> bool {
        self.0.sight_blockers()[idx]
    }
}

impl Algorithm2D for BracketMap<'_> {
    fn dimensions(&self) -> Point {
        Point::new(self.0.width(), self.0.height())
    }
}

fn fov(c: &mut Criterion) {
    let maps: Vec<GridMap> = (0..8).map(walled_map).collect();
    let origin = Pos::new(32, 32);
    let mut g = c.benchmark_group("fov_64x64_20pct_walls_r20");
    let mut out = Vec::with_capacity(2048);
    let mut i = 0;
    g.bench_function("meshal_centre_to_centre", |b| {
        b.iter(|| {
            i = (i + 1) % maps.len();
            field_of_view_into(&maps[i], origin, 20, None, &mut out);
            black_box(out.len())
        })
    });
    let bracket: Vec<BracketMap> = maps.iter().map(BracketMap).collect();
    for (name, alg) in [
        ("bracket_symmetric_shadowcasting", FieldOfViewAlg::SymmetricShadowcasting),
        ("bracket_recursive_shadowcasting", FieldOfViewAlg::RecursiveShadowcasting),
    ] {
        let mut i = 0;
        g.bench_function(name, |b| {
            b.iter(|| {
                i = (i + 1) % bracket.len();
                black_box(alg.field_of_view(Point::new(32, 32), 20, &bracket[i]).len())
            })
        });
    }
    g.finish();
}

fn movement(c: &mut Criterion) {
    let maps: Vec<GridMap> = (0..8).map(mixed_map).collect();
    let origin = Pos::new(32, 32);
    let sprinter = Mover { sprint: true, ..Mover::walker(6) };
    let mut i = 0;
    c.bench_function("reachable_speed6_sprint_mixed_64x64", |b| {
        b.iter(|| {
            i = (i + 1) % maps.len();
            black_box(reachable(&maps[i], None, &sprinter, origin).unwrap().origin())
        })
    });
    let mut i = 0;
    c.bench_function("cost_field_whole_map_64x64", |b| {
        b.iter(|| {
            i = (i + 1) % maps.len();
            black_box(cost_field(&maps[i], None, &Mover::walker(6), origin).cost_quarters(Pos::new(0, 0)))
        })
    });
}

/// The same cost model as `rules::movement` (quarter steps: orthogonal 4R, diagonal 6R, no
/// corner cutting past obstacles), as a successor function for the `pathfinding` crate.
fn successors(map: &GridMap, p: Pos) -> Vec<(Pos, u32)> {
    let enter = |q: Pos| -> Option<u32> {
        if !map.in_bounds(q) {
            return None;
        }
        let t = map.terrain(q);
        let crossing = match (t.blocks_movement, t.cross_height) {
            (false, _) => 0,
            (true, Some(h)) if h <= 2 => h.max(1),
            _ => return None,
        };
        Some((1 + t.resistance + i32::from(t.difficult) + crossing) as u32)
    };
    let mut out = Vec::with_capacity(8);
    for dy in -1..=1 {
        for dx in -1..=1 {
            if (dx, dy) == (0, 0) {
                continue;
            }
            let q = p.offset(dx, dy);
            let Some(r) = enter(q) else { continue };
            if dx != 0 && dy != 0 && (map.blocks_movement(p.offset(dx, 0)) || map.blocks_movement(p.offset(0, dy))) {
                continue;
            }
            out.push((q, if dx != 0 && dy != 0 { 6 * r } else { 4 * r }));
        }
    }
    out
}

fn movement_vs_pathfinding(c: &mut Criterion) {
    let maps: Vec<GridMap> = (0..8).map(mixed_map).collect();
    let origin = Pos::new(32, 32);
    let mut g = c.benchmark_group("pathfinding_crate_same_jobs");
    let mut i = 0;
    g.bench_function("reachable_speed6_sprint_dijkstra_reach", |b| {
        b.iter(|| {
            i = (i + 1) % maps.len();
            let m = &maps[i];
            let budget = 4 * 12 + 3;
            let n = pathfinding::prelude::dijkstra_reach(&origin, |p| successors(m, *p))
                .take_while(|item| item.total_cost <= budget)
                .count();
            black_box(n)
        })
    });
    let mut i = 0;
    g.bench_function("cost_field_whole_map_dijkstra_all", |b| {
        b.iter(|| {
            i = (i + 1) % maps.len();
            let m = &maps[i];
            black_box(pathfinding::prelude::dijkstra_all(&origin, |p| successors(m, *p)).len())
        })
    });
    g.finish();
}

fn damage(c: &mut Criterion) {
    let odds = AttackOdds { dice: 10, segments: 1, protection: 1, defense_dice: 6, ..Default::default() };
    c.bench_function("damage_distribution_10_dice_vs_defense_6", |b| {
        b.iter(|| black_box(damage_distribution(black_box(&odds)).expected_damage))
    });
}

criterion_group!(benches, fov, movement, movement_vs_pathfinding, damage);
criterion_main!(benches);
