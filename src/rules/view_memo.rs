//! A memo of fields of view (PERC-2, PERC-E1, FACE-4): what a viewer on one square sees of one
//! map, within one range, with one blind side. A side's view is the union of its creatures'
//! fields, and a searcher asks for its side's view at every decision; between two of them
//! only the creature that moved sees anything new. On a 256×256 field of 256 against 256
//! tracing every field again was seven tenths of a round's time before contact (35 s a
//! round); remembered, each field is traced once per square a creature stands on.
//!
//! Kept per thread (a look-ahead's play-outs run on the thread that decides), keyed by the
//! map's fingerprint (its terrain as it stands: an opened door gives new fields), and bounded
//! by the squares held, not the fields: a viewer with a long sight on an open map sees tens of
//! thousands of squares. The fields are `field_of_view_into`'s own answers, as map indices, so
//! nothing that reads them changes by the memo.

use super::grid::{GridMap, Pos};
use super::los::{BlindSide, field_of_view_into};
use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

/// The squares all kept fields of one thread may hold together (4 bytes a square: 8 MiB, a
/// side of 256 with 40 squares' sight on an open 256×256 field, about 1.3 M, with room).
const SQUARES_KEPT: usize = 2 << 20;

type ViewKey = (u64, Pos, i32, Option<BlindSide>);

struct ViewMemo {
    fields: HashMap<ViewKey, Rc<[u32]>>,
    /// Keys in the order they were added: the oldest goes first when the squares run over.
    order: VecDeque<ViewKey>,
    squares: usize,
    limit: usize,
}

impl ViewMemo {
    fn new(limit: usize) -> ViewMemo {
        ViewMemo { fields: HashMap::new(), order: VecDeque::new(), squares: 0, limit }
    }

    /// Keep `field` under `key` (a key not kept yet), dropping the oldest fields while the
    /// squares held would run over the limit. An empty field (a viewer off the map) is not kept.
    fn keep(&mut self, key: ViewKey, field: Rc<[u32]>) {
        if field.is_empty() || field.len() > self.limit {
            return;
        }
        while self.squares + field.len() > self.limit {
            let Some(old) = self.order.pop_front() else { break };
            if let Some(gone) = self.fields.remove(&old) {
                self.squares -= gone.len();
            }
        }
        self.squares += field.len();
        self.order.push_back(key);
        self.fields.insert(key, field);
    }
}

thread_local! {
    static VIEWS: RefCell<ViewMemo> = RefCell::new(ViewMemo::new(SQUARES_KEPT));
}

/// `field_of_view_into`'s squares for a viewer at `origin`, as map indices (`GridMap::index`),
/// traced once per map, square, range and blind side on this thread.
pub fn field_of_view_kept(map: &GridMap, origin: Pos, range: i32, blind: Option<BlindSide>) -> Rc<[u32]> {
    let key = (map.fingerprint(), origin, range, blind);
    if let Some(hit) = VIEWS.with_borrow(|m| m.fields.get(&key).cloned()) {
        return hit;
    }
    let mut out = Vec::new();
    field_of_view_into(map, origin, range, blind, &mut out);
    let field: Rc<[u32]> = out.iter().map(|&p| map.index(p) as u32).collect();
    VIEWS.with_borrow_mut(|m| m.keep(key, field.clone()));
    field
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::facing::Facing;
    use crate::rules::ruleset::FacingArcs;

    fn traced(map: &GridMap, origin: Pos, range: i32, blind: Option<BlindSide>) -> Vec<u32> {
        let mut out = Vec::new();
        field_of_view_into(map, origin, range, blind, &mut out);
        out.iter().map(|&p| map.index(p) as u32).collect()
    }

    // RULES: PERC-E1 — a remembered field is the traced one, for every viewer square, range and
    // blind side; and a changed map (a new fingerprint) is traced anew.
    #[test]
    fn a_kept_field_is_the_traced_field() {
        let map = GridMap::from_ascii("..........\n...#......\n...#..#...\n..........\n......#...").expect("a map");
        let blinds = [None, Some(BlindSide { facing: Facing::N, arcs: FacingArcs::Quarters })];
        for y in 0..5 {
            for x in 0..10 {
                for range in [0, 2, 5, 40] {
                    for blind in blinds {
                        let traced = traced(&map, Pos::new(x, y), range, blind);
                        for _ in 0..2 {
                            assert_eq!(&*field_of_view_kept(&map, Pos::new(x, y), range, blind), &traced[..]);
                        }
                    }
                }
            }
        }
        // The same viewer, range and blind side on another map: traced there, not remembered.
        let walled = GridMap::from_ascii(".#........\n.#........\n.#........\n.#........\n.#........").expect("a map");
        let other = traced(&walled, Pos::new(0, 0), 5, None);
        assert_ne!(&*field_of_view_kept(&map, Pos::new(0, 0), 5, None), &other[..], "the maps differ in view");
        assert_eq!(&*field_of_view_kept(&walled, Pos::new(0, 0), 5, None), &other[..]);
    }

    // The memo holds at most its limit of squares, dropping the oldest fields first, and its
    // count of squares is the fields' own.
    #[test]
    fn the_memo_drops_its_oldest_fields_past_its_limit() {
        let mut memo = ViewMemo::new(10);
        let key = |x: i32| (1u64, Pos::new(x, 0), 3, None);
        for (x, len) in [(0, 4), (1, 4), (2, 0), (3, 11), (4, 3), (5, 5)] {
            memo.keep(key(x), (0..len).collect());
            assert!(memo.squares <= 10, "{} squares held", memo.squares);
            assert_eq!(memo.squares, memo.fields.values().map(|f| f.len()).sum::<usize>());
            assert_eq!(memo.order.len(), memo.fields.len());
        }
        // 4 + 4, then 3 drops the first 4, then 5 drops the second: (4, 3) and (5, 5) are left;
        // the empty field and the one larger than the whole memo were never kept.
        let mut kept: Vec<i32> = memo.fields.keys().map(|k| k.1.x).collect();
        kept.sort_unstable();
        assert_eq!(kept, vec![4, 5]);
    }
}
