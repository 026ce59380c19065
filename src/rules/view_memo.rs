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
//! thousands of squares. The fields are `field_of_view_into`'s own answers, so nothing that
//! reads them changes by the memo.

use super::grid::{GridMap, Pos};
use super::los::{BlindSide, field_of_view_into};
use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

/// The squares all kept fields may hold together (8 bytes a square: 32 MiB).
const SQUARES_KEPT: usize = 4 << 20;

type ViewKey = (u64, Pos, i32, Option<BlindSide>);

#[derive(Default)]
struct ViewMemo {
    fields: HashMap<ViewKey, Rc<[Pos]>>,
    /// Keys in the order they were added: the oldest goes first when the squares run over.
    order: VecDeque<ViewKey>,
    squares: usize,
}

thread_local! {
    static VIEWS: RefCell<ViewMemo> = RefCell::new(ViewMemo::default());
}

/// `field_of_view_into`'s squares for a viewer at `origin`, traced once per map, square, range
/// and blind side on this thread.
pub fn field_of_view_kept(map: &GridMap, origin: Pos, range: i32, blind: Option<BlindSide>) -> Rc<[Pos]> {
    let key = (map.fingerprint(), origin, range, blind);
    if let Some(hit) = VIEWS.with_borrow(|m| m.fields.get(&key).cloned()) {
        return hit;
    }
    let mut out = Vec::new();
    field_of_view_into(map, origin, range, blind, &mut out);
    let field: Rc<[Pos]> = out.into();
    VIEWS.with_borrow_mut(|m| {
        while m.squares + field.len() > SQUARES_KEPT {
            let Some(old) = m.order.pop_front() else { break };
            if let Some(gone) = m.fields.remove(&old) {
                m.squares -= gone.len();
            }
        }
        m.squares += field.len();
        m.order.push_back(key);
        m.fields.insert(key, field.clone());
    });
    field
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::facing::Facing;
    use crate::rules::ruleset::FacingArcs;

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
                        let mut traced = Vec::new();
                        field_of_view_into(&map, Pos::new(x, y), range, blind, &mut traced);
                        for _ in 0..2 {
                            assert_eq!(&*field_of_view_kept(&map, Pos::new(x, y), range, blind), &traced[..]);
                        }
                    }
                }
            }
        }
        // The same viewer, range and blind side on another map: traced there, not remembered.
        let walled = GridMap::from_ascii(".#........\n.#........\n.#........\n.#........\n.#........").expect("a map");
        let mut traced = Vec::new();
        field_of_view_into(&walled, Pos::new(0, 0), 5, None, &mut traced);
        assert_ne!(&*field_of_view_kept(&map, Pos::new(0, 0), 5, None), &traced[..], "the maps differ in view");
        assert_eq!(&*field_of_view_kept(&walled, Pos::new(0, 0), 5, None), &traced[..]);
    }
}
