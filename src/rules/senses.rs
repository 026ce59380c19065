//! The senses a creature perceives by (PERC-1, PERC-6), the one it relies on (PERC-4), losing
//! senses (blinded, deafened: FLOW-D3's mapping) and smell's path distance (PERC-6).

use super::grid::{Footprint, GridMap, Pos};
use serde::{Deserialize, Serialize};

/// One way of perceiving (PERC-6). Visual-like senses are played as vision, auditory-like ones
/// as hearing or tremor, olfactory-like ones as smell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Sense {
    #[default]
    Vision,
    Hearing,
    Smell,
    /// A non-visual sense that ignores light and facing (tremorsense, PERC-D9).
    Tremor,
    /// PERC-6: perceives anything within range, through walls and darkness.
    Supernatural,
}

impl Sense {
    pub const ALL: [Sense; 5] = [Sense::Vision, Sense::Hearing, Sense::Smell, Sense::Tremor, Sense::Supernatural];

    pub fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        match self {
            Sense::Vision => "sight",
            Sense::Hearing => "hearing",
            Sense::Smell => "smell",
            Sense::Tremor => "tremorsense",
            Sense::Supernatural => "supernatural sense",
        }
    }
    /// What a creature is while it has lost this sense.
    pub fn lost_word(self) -> &'static str {
        match self {
            Sense::Vision => "blinded",
            Sense::Hearing => "deafened",
            Sense::Smell => "without smell",
            Sense::Tremor => "without tremorsense",
            Sense::Supernatural => "without its supernatural sense",
        }
    }
}

/// A weapon that takes a sense from each creature it hurts (blinding powder, a deafening
/// clap), for that creature's next `turns` turns (Engine decision: counted in the victim's own
/// turns, so a blinding always costs it that many turns of sight, whenever in the round it
/// lands).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SenseLoss {
    pub sense: Sense,
    pub turns: u32,
}

/// The longest a sense may be taken for, and the longest sense range a file may give.
pub const MAX_SENSE_LOSS_TURNS: u32 = 20;
pub const MAX_SENSE_RANGE: i32 = 200;

/// PERC-6 smell: is `to` within `range` steps of `from` along the shortest path that goes
/// around what air cannot pass (Engine decision: squares that stop a line of effect, i.e.
/// walls and closed doors; a low wall or a chasm lets the odour through), counting corners and
/// turns? Steps are counted as SPACE-6 counts them (every second diagonal costs 2): a Dijkstra
/// over half-steps (2 straight, 3 diagonal), floored. A diagonal may not squeeze between two
/// airtight squares (the corner pinch of PERC-E1).
pub fn smell_reaches(map: &GridMap, from: Footprint, to: Footprint, range: i32) -> bool {
    if range < 1 {
        return false;
    }
    if super::grid::footprint_distance(from, to) > range {
        return false;
    }
    let limit = (2 * range + 1) as usize; // half-steps whose floor(÷2) is still ≤ range
    // The search stays inside the box of squares within `range` of the source.
    let (x0, y0) = ((from.origin.x - range).max(0), (from.origin.y - range).max(0));
    let x1 = (from.origin.x + from.side - 1 + range).min(map.width() - 1);
    let y1 = (from.origin.y + from.side - 1 + range).min(map.height() - 1);
    if x0 > x1 || y0 > y1 {
        return false; // the source lies off the map
    }
    let w = (x1 - x0 + 1) as usize;
    let slot = |p: Pos| (p.y - y0) as usize * w + (p.x - x0) as usize;
    let inside = |p: Pos| p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1;
    let airtight = |p: Pos| map.effect_blockers()[map.index(p)];
    let mut best = vec![u32::MAX; w * (y1 - y0 + 1) as usize];
    // A bucket queue: costs are small integers bounded by `limit`.
    let mut buckets: Vec<Vec<Pos>> = vec![Vec::new(); limit + 1];
    for c in from.cells().filter(|&c| inside(c)) {
        best[slot(c)] = 0;
        buckets[0].push(c);
    }
    for cost in 0..=limit {
        while let Some(p) = buckets[cost].pop() {
            if best[slot(p)] as usize != cost {
                continue;
            }
            if to.contains(p) {
                return true;
            }
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)] {
                let q = p.offset(dx, dy);
                if !inside(q) || (airtight(q) && !to.contains(q)) {
                    continue;
                }
                let diagonal = dx != 0 && dy != 0;
                if diagonal && airtight(p.offset(dx, 0)) && airtight(p.offset(0, dy)) {
                    continue;
                }
                let next = cost + if diagonal { 3 } else { 2 };
                if next <= limit && (next as u32) < best[slot(q)] {
                    best[slot(q)] = next as u32;
                    buckets[next].push(q);
                }
            }
        }
    }
    false
}

/// PERC-7 / PERC-8: the difficulty of finding something: the size row times the disguise grade.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Disguise {
    /// Casually placed, not disguised: ×1.
    None,
    /// Simply disguised: ×2.
    Simple,
    /// Carefully disguised, deliberately hidden, blending in: ×3.
    Careful,
}

pub fn search_difficulty(size_row: i64, disguise: Disguise) -> i64 {
    size_row
        * match disguise {
            Disguise::None => 1,
            Disguise::Simple => 2,
            Disguise::Careful => 3,
        }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::creature::Size;

    fn map(rows: &str) -> GridMap {
        GridMap::from_ascii(rows).expect("test map")
    }

    // RULES: PERC-6 — smell counts the way around walls, not the straight line.
    #[test]
    fn perc_6_smell_goes_around_walls() {
        // A wall between two squares 2 apart in a straight line.
        let m = map("......\n.#....\n.#....\n.#....\n......");
        let a = Footprint::single(Pos::new(0, 2));
        let b = Footprint::single(Pos::new(2, 2));
        // Around the wall's north end: (0,2)→(0,3)→(1,4)→(2,3)→(2,2): 2 straight + 2 diagonal
        // = 4 + 6 = 10 half-steps = 5 steps.
        assert!(!smell_reaches(&m, a, b, 4));
        assert!(smell_reaches(&m, a, b, 5));
        // Without the wall, 2 steps do.
        let open = map("......\n......\n......\n......\n......");
        assert!(smell_reaches(&open, a, b, 2));
        assert!(!smell_reaches(&open, a, b, 1));
    }

    // RULES: PERC-6 — an airtight room keeps its smell in.
    #[test]
    fn perc_6_no_smell_through_a_closed_room() {
        let m = map(".....\n.###.\n.#.#.\n.###.\n.....");
        let inside = Footprint::single(Pos::new(2, 2));
        let outside = Footprint::single(Pos::new(0, 2));
        assert!(!smell_reaches(&m, inside, outside, 50));
        // The corner pinch holds too: two diagonal walls seal a gap.
        let pinch = map("#.\n.#");
        assert!(!smell_reaches(&pinch, Footprint::single(Pos::new(0, 0)), Footprint::single(Pos::new(1, 1)), 5));
    }

    // RULES: PERC-7, PERC-8 — search costs 3 AP; difficulty = size row × disguise.
    #[test]
    fn perc_8_search_difficulty_table() {
        assert_eq!(crate::rules::costs::SEARCH_AP, 3);
        assert_eq!(search_difficulty(Size::Medium.search_difficulty(), Disguise::Careful), 6);
        assert_eq!(search_difficulty(Size::Tiny.search_difficulty(), Disguise::Simple), 6);
        assert_eq!(search_difficulty(Size::Large.search_difficulty(), Disguise::None), 1);
    }
}
