//! DICE-13 [Ext] Expense of Fate: right after a roll made with its own attribute dice, a
//! creature may set any of those dice to any face; every changed die is then removed from the
//! attribute, and no effect prevents the loss (000_5f4122b8a83d6727.txt:89).
//!
//! Engine decisions (the seed leaves them open): the roller's own dice are the first `own` dice
//! of the roll — a roll of "Might + 2" has Might's dice first and the two added dice after, a
//! shield's Block die comes after the defender's own — and a die "changed" to the face it
//! already shows is no change, so it is refused rather than charged.

use super::dice::DicePoints;
use std::fmt;

/// One die set by Expense of Fate: its index in the roll and its new face.
pub type FateDie = (u32, u8);

/// Why a set of dice may not be changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FateError {
    /// The index names no die of the roller's own attribute.
    NotOwn { die: u32, own: usize },
    /// Six-sided dice only (DICE-1).
    NoSuchFace { face: u8 },
    /// The same die named twice.
    Twice { die: u32 },
    /// The die already shows that face.
    Unchanged { die: u32, face: u8 },
}

impl fmt::Display for FateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FateError::NotOwn { die, own } => write!(
                f,
                "die {} is not one of the roller's own attribute dice (dice 1–{own} are)",
                u64::from(*die) + 1
            ),
            FateError::NoSuchFace { face } => write!(f, "a die has faces 1–6, not {face}"),
            FateError::Twice { die } => write!(f, "die {} is named twice", u64::from(*die) + 1),
            FateError::Unchanged { die, face } => {
                write!(f, "die {} already shows {face}: nothing to change", u64::from(*die) + 1)
            }
        }
    }
}

/// The faces after `set`, or why `set` is not allowed: each entry names one of the first `own`
/// dice, once, with a face 1–6 other than the one it shows.
pub fn apply(faces: &[u8], own: usize, set: &[FateDie]) -> Result<Vec<u8>, FateError> {
    let own = own.min(faces.len());
    let mut out = faces.to_vec();
    let mut named = vec![false; own];
    for &(die, face) in set {
        let i = die as usize;
        if i >= own {
            return Err(FateError::NotOwn { die, own });
        }
        if !(1..=6).contains(&face) {
            return Err(FateError::NoSuchFace { face });
        }
        if std::mem::replace(&mut named[i], true) {
            return Err(FateError::Twice { die });
        }
        if faces[i] == face {
            return Err(FateError::Unchanged { die, face });
        }
        out[i] = face;
    }
    Ok(out)
}

/// The own dice to raise to the best face of `points` for the most points, at most `spend` of them: the
/// ones scoring least first (faces 3–6 score 0, face 1 scores 1), earlier dice on ties.
pub fn best_raise(points: DicePoints, faces: &[u8], own: usize, spend: usize) -> Vec<FateDie> {
    let mut dice: Vec<(u32, u32)> = faces
        .iter()
        .take(own)
        .enumerate()
        .filter(|(_, f)| !points.scores_most(**f))
        .map(|(i, &f)| (i as u32, points.face_points(f)))
        .collect();
    dice.sort_by_key(|&(i, p)| (p, i));
    let best = points.best_face();
    let mut set: Vec<FateDie> = dice.into_iter().take(spend).map(|(i, _)| (i, best)).collect();
    set.sort_unstable();
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    // RULES: DICE-13 — any of the roller's own dice may be set to any face; the set is checked
    // die by die.
    #[test]
    fn dice_13_sets_only_the_rollers_own_dice_to_real_faces() {
        let faces = [5, 1, 3, 6];
        assert_eq!(apply(&faces, 3, &[(0, 2), (2, 1)]), Ok(vec![2, 1, 1, 6]));
        assert_eq!(apply(&faces, 3, &[(3, 2)]), Err(FateError::NotOwn { die: 3, own: 3 }), "an added die");
        assert_eq!(apply(&faces, 3, &[(0, 7)]), Err(FateError::NoSuchFace { face: 7 }));
        assert_eq!(apply(&faces, 3, &[(0, 0)]), Err(FateError::NoSuchFace { face: 0 }));
        assert_eq!(apply(&faces, 3, &[(0, 2), (0, 1)]), Err(FateError::Twice { die: 0 }));
        assert_eq!(apply(&faces, 3, &[(1, 1)]), Err(FateError::Unchanged { die: 1, face: 1 }));
        assert_eq!(apply(&faces, 9, &[(3, 2)]), Ok(vec![5, 1, 3, 2]), "own is capped by the roll");
        assert_eq!(apply(&faces, 3, &[(u32::MAX, 2)]), Err(FateError::NotOwn { die: u32::MAX, own: 3 }));
        assert!(FateError::NotOwn { die: 3, own: 3 }.to_string().contains("die 4"));
    }

    // RULES: DICE-13, DICE-2 — the best raise turns the 0-point faces to 2 before the 1s.
    #[test]
    fn dice_13_raises_the_dice_scoring_least_first() {
        let faces = [1, 4, 2, 6, 1];
        let meshal = DicePoints::Meshal;
        assert_eq!(best_raise(meshal, &faces, 5, 1), vec![(1, 2)]);
        assert_eq!(best_raise(meshal, &faces, 5, 3), vec![(0, 2), (1, 2), (3, 2)]);
        assert_eq!(best_raise(meshal, &faces, 5, 9), vec![(0, 2), (1, 2), (3, 2), (4, 2)], "the 2 stays");
        assert_eq!(best_raise(meshal, &faces, 2, 9), vec![(0, 2), (1, 2)], "own dice only");
        assert_eq!(meshal.points(&[1, 4, 2, 6, 1]), 4);
    }

    // RULES: DICE-13, DICE-2 — under 001's points a raise sets faces to 6, and a 5 (which
    // scores the same) is left as it is.
    #[test]
    fn dice_13_001_raises_to_six_and_keeps_fives() {
        let high = DicePoints::HighFaces001;
        let faces = [1, 5, 2, 6, 4];
        assert_eq!(best_raise(high, &faces, 5, 9), vec![(0, 6), (2, 6), (4, 6)]);
        assert_eq!(high.points(&[6, 5, 6, 6, 6]), 5);
    }
}
