//! A memo of line answers between two squares of one map: clear sight (PERC-E1), line of effect
//! (ATK-E2) and cover (ATK-E5) depend only on the terrain, which stays put for a whole battle
//! (doors and rubble give the map a new memo). The planner asks the same few thousand pairs
//! again and again — every creature of a side scans the squares around the same enemies, every
//! decision re-weighs the same engagements — so a remembered answer replaces a walk along the
//! line (about a fifth of a battle's time before).
//!
//! A fixed-size, direct-mapped table of atomic words: bounded memory on any map (a 256×256 map
//! has 4·10⁹ pairs), shared by a battle's clones (a look-ahead's simulations) without locks, and
//! a lost race only means an answer is worked out twice. The answers are the functions' own, so
//! nothing that reads the map changes by it.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// The questions remembered per pair.
#[derive(Clone, Copy)]
pub(crate) enum LineQuery {
    Sight = 0,
    Effect = 1,
    Cover = 2,
}

/// log2 of the largest table (2^16 words, 512 KiB); small maps get one no bigger than their
/// number of pairs.
const MAX_BITS: u32 = 16;
const MIN_BITS: u32 = 10;
const VALID: u64 = 1 << 63;

#[derive(Default)]
pub(crate) struct LineMemo {
    /// Allocated on the first question: most maps built (levels checked, the calculator) never
    /// trace a line.
    slots: OnceLock<Box<[AtomicU64]>>,
    bits: u32,
}

impl std::fmt::Debug for LineMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LineMemo({} slots)", 1u64 << self.bits)
    }
}

impl LineMemo {
    /// A memo for a map of `cells` squares.
    pub(crate) fn for_cells(cells: usize) -> LineMemo {
        let pairs = (cells as u64).saturating_mul(cells as u64).max(1);
        let bits = (64 - (pairs - 1).leading_zeros()).clamp(MIN_BITS, MAX_BITS);
        LineMemo { slots: OnceLock::new(), bits }
    }

    /// The answer to `q` for the squares with indices `a` and `b` (each below 2^16), working it
    /// out with `compute` the first time.
    #[inline]
    pub(crate) fn get(&self, q: LineQuery, a: usize, b: usize, compute: impl FnOnce() -> bool) -> bool {
        let key = ((a as u64) << 16) | b as u64;
        let slots = self.slots.get_or_init(|| (0..1usize << self.bits).map(|_| AtomicU64::new(0)).collect());
        let slot = &slots[(key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize];
        let word = slot.load(Ordering::Relaxed);
        let (known, value) = (1u64 << (2 * q as u64), 1u64 << (2 * q as u64 + 1));
        let same_pair = word & VALID != 0 && (word >> 16) & 0xFFFF_FFFF == key;
        if same_pair && word & known != 0 {
            return word & value != 0;
        }

        let answer = compute();
        let kept = if same_pair { word & 0x3F } else { 0 };
        let flags = kept | known | if answer { value } else { 0 };
        slot.store(VALID | (key << 16) | flags, Ordering::Relaxed);
        answer
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_each_question_apart_and_evicts_by_pair() {
        let memo = LineMemo::for_cells(4);
        assert!(memo.get(LineQuery::Sight, 1, 2, || true));
        // Remembered: the closure is not asked again.
        assert!(memo.get(LineQuery::Sight, 1, 2, || panic!("asked twice")));
        assert!(!memo.get(LineQuery::Cover, 1, 2, || false));
        assert!(!memo.get(LineQuery::Cover, 1, 2, || panic!("asked twice")));
        assert!(memo.get(LineQuery::Sight, 1, 2, || panic!("lost the other answer")));
        // Direction matters (cover is not symmetric).
        assert!(!memo.get(LineQuery::Sight, 2, 1, || false));
        // Every pair of a 4-square map, asked twice, gives its own answer back.
        for a in 0..4 {
            for b in 0..4 {
                memo.get(LineQuery::Effect, a, b, || (a + b) % 2 == 0);
            }
        }
        for a in 0..4 {
            for b in 0..4 {
                assert_eq!(memo.get(LineQuery::Effect, a, b, || (a + b) % 2 == 0), (a + b) % 2 == 0);
            }
        }
    }

    #[test]
    fn the_table_is_bounded_on_the_largest_map() {
        let memo = LineMemo::for_cells(256 * 256);
        assert_eq!(memo.bits, MAX_BITS);
        assert_eq!(LineMemo::for_cells(4).bits, MIN_BITS);
        // The last square's index still fits the key.
        assert!(memo.get(LineQuery::Effect, 65_535, 65_535, || true));
        assert!(memo.get(LineQuery::Effect, 65_535, 65_535, || false));
    }
}
