//! Dice: point rolls, number rolls, attempts, contests, re-rolls, and exact point distributions.

use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::sync::OnceLock;

/// Which faces score points (DICE-2; the dice Variants row "Points"). Every roll for points,
/// every exact distribution and every attempt chance goes through one of these, so a battle's
/// numbers follow its `Ruleset`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DicePoints {
    /// 000 (default, DICE-2): face 1 gives 1 point, face 2 gives 2 points, faces 3-6 nothing.
    #[default]
    Meshal,
    /// 001: faces 5 and 6 give 1 point each, faces 1-4 nothing (001_1172b9e802f06534.txt:7,
    /// :162). A die's mean is 1/3 point instead of 1/2.
    HighFaces001,
}

impl DicePoints {
    /// The points one face scores.
    #[inline]
    pub fn face_points(self, face: u8) -> u32 {
        match (self, face) {
            (DicePoints::Meshal, 1) => 1,
            (DicePoints::Meshal, 2) => 2,
            (DicePoints::HighFaces001, 5 | 6) => 1,
            _ => 0,
        }
    }

    /// The face scoring the most (what a player raising a roll by Expense of Fate picks):
    /// 2 by DICE-2, 6 under 001 (5 scores the same; 6 is the one named).
    pub fn best_face(self) -> u8 {
        match self {
            DicePoints::Meshal => 2,
            DicePoints::HighFaces001 => 6,
        }
    }

    /// Whether a face already scores as much as a die can.
    pub fn scores_most(self, face: u8) -> bool {
        self.face_points(face) == self.face_points(self.best_face())
    }

    /// Sum of points over a set of faces.
    pub fn points(self, faces: &[u8]) -> u32 {
        faces.iter().map(|&f| self.face_points(f)).sum()
    }

    /// `nP` (DICE-4: no dice, no points).
    pub fn roll_points<R: Rng + ?Sized>(self, rng: &mut R, count: i32) -> u32 {
        self.points(&roll_faces(rng, count))
    }

    /// Exact distribution of `nP`: element k is P(points = k). A count ≤ 0 gives `[1.0]` (DICE-4).
    pub fn distribution(self, count: i32) -> Cow<'static, [f64]> {
        let table = self.table();
        let n = count.max(0) as usize;
        if n <= TABLE_DICE {
            Cow::Borrowed(&table[n])
        } else {
            let mut d = table[TABLE_DICE].clone();
            for _ in TABLE_DICE..n {
                d = self.add_one_die(&d);
            }
            Cow::Owned(d)
        }
    }

    /// P(nP > difficulty): the chance an attempt succeeds (DICE-6).
    pub fn attempt_chance(self, count: i32, difficulty: i64) -> f64 {
        let d = self.distribution(count);
        let floor = difficulty.max(0) as usize;
        d.iter().skip(floor + 1).sum()
    }

    /// One die's chances of 0, 1 and 2 points.
    fn one_die(self) -> [f64; 3] {
        let mut p = [0.0; 3];
        for face in 1..=6 {
            p[self.face_points(face) as usize] += 1.0 / 6.0;
        }
        p
    }

    fn add_one_die(self, prev: &[f64]) -> Vec<f64> {
        let die = self.one_die();
        let mut out = vec![0.0; prev.len() + 2];
        for (k, &p) in prev.iter().enumerate() {
            for (points, &q) in die.iter().enumerate() {
                out[k + points] += p * q;
            }
        }
        out
    }

    fn table(self) -> &'static [Vec<f64>] {
        static MESHAL: OnceLock<Vec<Vec<f64>>> = OnceLock::new();
        static HIGH_FACES: OnceLock<Vec<Vec<f64>>> = OnceLock::new();
        let cell = match self {
            DicePoints::Meshal => &MESHAL,
            DicePoints::HighFaces001 => &HIGH_FACES,
        };
        cell.get_or_init(|| {
            let mut rows = Vec::with_capacity(TABLE_DICE + 1);
            rows.push(vec![1.0]);
            for n in 1..=TABLE_DICE {
                let next = self.add_one_die(&rows[n - 1]);
                rows.push(next);
            }
            rows
        })
    }
}

/// Sum of faces (DICE-3).
pub fn sum(faces: &[u8]) -> u32 {
    faces.iter().map(|&f| f as u32).sum()
}

/// Roll `count` six-sided dice. DICE-4: a count of zero or less rolls nothing (result 0).
pub fn roll_faces<R: Rng + ?Sized>(rng: &mut R, count: i32) -> Vec<u8> {
    (0..count.max(0)).map(|_| rng.random_range(1..=6u8)).collect()
}

/// `nΣ` (DICE-3, DICE-4).
pub fn roll_sum<R: Rng + ?Sized>(rng: &mut R, count: i32) -> u32 {
    sum(&roll_faces(rng, count))
}

/// DICE-6: success only if the result is strictly greater than the difficulty; a negative
/// difficulty counts as 0.
#[inline]
pub fn attempt_succeeds(result: i64, difficulty: i64) -> bool {
    result > difficulty.max(0)
}

/// DICE-8 / DICE-E2: the outcome of a contest; a draw has no winner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ContestOutcome {
    First,
    Second,
    Draw,
}

/// DICE-8: the higher result wins; equal results draw.
pub fn contest(first: i64, second: i64) -> ContestOutcome {
    use std::cmp::Ordering::*;
    match first.cmp(&second) {
        Greater => ContestOutcome::First,
        Less => ContestOutcome::Second,
        Equal => ContestOutcome::Draw,
    }
}

/// DICE-7: a progressive attempt accumulates one roll per period until the total exceeds the
/// difficulty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProgressiveAttempt {
    pub difficulty: i64,
    pub total: i64,
    pub periods: u32,
}

impl ProgressiveAttempt {
    pub fn new(difficulty: i64) -> Self {
        ProgressiveAttempt { difficulty: difficulty.max(0), total: 0, periods: 0 }
    }
    /// Add one period's result; returns true once the attempt has succeeded.
    pub fn add(&mut self, result: i64) -> bool {
        self.total += result;
        self.periods += 1;
        self.succeeded()
    }
    pub fn succeeded(&self) -> bool {
        attempt_succeeds(self.total, self.difficulty)
    }
}

/// DICE-7: with no time limit, skip rolling: time = difficulty × 2 ÷ dice × period.
/// Returns `None` when no dice can be rolled (the attempt never finishes).
pub fn progressive_time(difficulty: i64, dice: i32, period: f64) -> Option<f64> {
    (dice > 0).then(|| difficulty.max(0) as f64 * 2.0 / dice as f64 * period)
}

/// DICE-8: a progressive contest: both accumulate; the first whose total reaches `target` wins.
/// Reaching it together is a draw. Returns None while neither has reached it.
pub fn progressive_contest(first_total: i64, second_total: i64, target: i64) -> Option<ContestOutcome> {
    match (first_total >= target, second_total >= target) {
        (true, true) => Some(ContestOutcome::Draw),
        (true, false) => Some(ContestOutcome::First),
        (false, true) => Some(ContestOutcome::Second),
        (false, false) => None,
    }
}

/// DICE-10: re-roll exactly the dice the effect names (those matching `which`), in place.
/// Returns how many dice were re-rolled.
pub fn reroll<R: Rng + ?Sized>(rng: &mut R, faces: &mut [u8], which: impl Fn(u8) -> bool) -> usize {
    let mut n = 0;
    for face in faces.iter_mut() {
        if which(*face) {
            *face = rng.random_range(1..=6u8);
            n += 1;
        }
    }
    n
}

/// DICE-9: joint effort adds the helpers' results; precision tasks take the highest.
pub fn assist_joint(results: &[i64]) -> i64 {
    results.iter().sum()
}
pub fn assist_best(results: &[i64]) -> i64 {
    results.iter().copied().max().unwrap_or(0)
}

/// Dice counts whose exact distribution is kept precomputed. Larger counts are computed on demand.
pub const TABLE_DICE: usize = 64;

/// Mean of a distribution given as probabilities per value.
pub fn mean(dist: &[f64]) -> f64 {
    dist.iter().enumerate().map(|(k, p)| k as f64 * p).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    const MESHAL: DicePoints = DicePoints::Meshal;

    // RULES: DICE-2 — the source's example: faces 3, 1, 2, 6 give 3 points.
    #[test]
    fn dice_2_point_faces_match_source_example() {
        assert_eq!(MESHAL.points(&[3, 1, 2, 6]), 3);
        assert_eq!((1..=6).map(|f| MESHAL.face_points(f)).collect::<Vec<_>>(), vec![1, 2, 0, 0, 0, 0]);
    }

    // RULES: DICE-3
    #[test]
    fn dice_3_number_roll_sums_faces() {
        assert_eq!(sum(&[3, 1, 2, 6]), 12);
    }

    // RULES: DICE-4 — zero or negative dice always give 0.
    #[test]
    fn dice_4_no_dice_gives_zero() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for n in [-5, -1, 0] {
            assert_eq!(MESHAL.roll_points(&mut rng, n), 0);
            assert_eq!(roll_sum(&mut rng, n), 0);
            assert_eq!(MESHAL.distribution(n).as_ref(), &[1.0]);
        }
    }

    // RULES: DICE-6 — strictly greater; negative difficulty counts as 0.
    #[test]
    fn dice_6_attempt_needs_strictly_greater_and_floor_zero() {
        assert!(!attempt_succeeds(3, 3));
        assert!(attempt_succeeds(4, 3));
        assert!(!attempt_succeeds(0, -2));
        assert!(attempt_succeeds(1, -2));
    }

    // RULES: DICE-7 — the source's example shape: a total must exceed the difficulty; the no-limit
    // shortcut is difficulty × 2 ÷ dice × period.
    #[test]
    fn dice_7_progressive_attempt_and_time_formula() {
        let mut p = ProgressiveAttempt::new(30);
        for _ in 0..9 {
            assert!(!p.add(3));
        }
        assert!(!p.add(3)); // total 30 is not > 30
        assert!(p.add(1));
        assert_eq!(p.periods, 11);
        assert_eq!(progressive_time(30, 4, 1.0), Some(15.0));
        assert_eq!(progressive_time(30, 0, 1.0), None);
    }

    // RULES: DICE-8, DICE-E2 — higher wins, equal is a draw with no winner.
    #[test]
    fn dice_8_contest_with_draws() {
        assert_eq!(contest(3, 2), ContestOutcome::First);
        assert_eq!(contest(1, 2), ContestOutcome::Second);
        assert_eq!(contest(2, 2), ContestOutcome::Draw);
        assert_eq!(progressive_contest(6, 2, 6), Some(ContestOutcome::First));
        assert_eq!(progressive_contest(6, 6, 6), Some(ContestOutcome::Draw));
        assert_eq!(progressive_contest(5, 2, 6), None);
    }

    // RULES: DICE-9
    #[test]
    fn dice_9_assistance() {
        assert_eq!(assist_joint(&[2, 1, 3]), 6);
        assert_eq!(assist_best(&[2, 1, 3]), 3);
    }

    // RULES: DICE-10 — only the named dice are re-rolled.
    #[test]
    fn dice_10_reroll_only_named_dice() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut faces = vec![1, 3, 4, 2, 6];
        let n = reroll(&mut rng, &mut faces, |f| MESHAL.face_points(f) == 0);
        assert_eq!(n, 3);
        assert_eq!(faces[0], 1);
        assert_eq!(faces[3], 2);
    }

    // RULES: DICE-2 — the digest's derived odds table, reproduced from the exact distribution.
    #[test]
    fn dice_2_exact_odds_match_digest_table() {
        // (n, difficulty, percent as printed in RULES.md §1)
        let rows = [
            (1, 0, 33),
            (1, 1, 17),
            (2, 0, 56),
            (2, 2, 8),
            (3, 1, 48),
            (4, 2, 33),
            (5, 3, 27),
            (6, 4, 20),
            (7, 5, 16),
            (8, 6, 13),
            (8, 7, 6),
        ];
        for (n, d, pct) in rows {
            let p = MESHAL.attempt_chance(n, d) * 100.0;
            assert!((p - pct as f64).abs() <= 0.5 + 1e-9, "n={n} d={d}: {p} vs {pct}");
        }
        assert!((mean(&MESHAL.distribution(10)) - 5.0).abs() < 1e-12);
    }

    // RULES: DICE-2 — exact distribution agrees with 100,000 seeded samples.
    #[test]
    fn dice_2_exact_distribution_matches_sampling() {
        let mut rng = ChaCha8Rng::seed_from_u64(2024);
        let n = 6;
        let samples = 100_000;
        let mut counts = [0u32; 13];
        for _ in 0..samples {
            counts[MESHAL.roll_points(&mut rng, n) as usize] += 1;
        }
        let exact = MESHAL.distribution(n);
        assert!((exact.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        for (k, &c) in counts.iter().enumerate() {
            let p = exact[k];
            let sd = (p * (1.0 - p) / samples as f64).sqrt();
            let observed = c as f64 / samples as f64;
            assert!((observed - p).abs() <= 5.0 * sd + 1e-6, "k={k}: {observed} vs {p}");
        }
    }

    #[test]
    fn large_dice_counts_beyond_the_table_still_work() {
        let d = MESHAL.distribution(70);
        assert_eq!(d.len(), 141);
        assert!((d.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!((mean(&d) - 35.0).abs() < 1e-9);
    }

    // RULES: DICE-2 — the 001 variant (dice Variants, "Points"): faces 5 and 6 score 1 point
    // each, nothing else scores; nP is then binomial(n, 1/3), exactly, and sampling agrees.
    #[test]
    fn dice_2_001_high_faces_score_one_point_each() {
        let high = DicePoints::HighFaces001;
        assert_eq!((1..=6).map(|f| high.face_points(f)).collect::<Vec<_>>(), vec![0, 0, 0, 0, 1, 1]);
        assert_eq!(high.points(&[3, 1, 2, 6]), 1);
        assert_eq!(high.distribution(0).as_ref(), &[1.0]);
        let n = 7;
        let exact = high.distribution(n);
        for k in 0..=n as usize {
            let choose = (0..k).fold(1.0, |c, i| c * (n as usize - i) as f64 / (i + 1) as f64);
            let binomial = choose * (1.0f64 / 3.0).powi(k as i32) * (2.0f64 / 3.0).powi(n - k as i32);
            assert!((exact[k] - binomial).abs() < 1e-12, "k={k}: {} vs {binomial}", exact[k]);
        }
        assert!(exact[n as usize + 1..].iter().all(|&p| p == 0.0), "no die scores 2");
        assert!((mean(&high.distribution(9)) - 3.0).abs() < 1e-12);
        // P(3 dice > 0) = 1 − (2/3)³ = 19/27 under 001, against 70% (DICE-2's table) by default.
        assert!((high.attempt_chance(3, 0) - 19.0 / 27.0).abs() < 1e-12);
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let samples = 60_000;
        let mut counts = [0u32; 8];
        for _ in 0..samples {
            counts[high.roll_points(&mut rng, n) as usize] += 1;
        }
        for (k, &c) in counts.iter().enumerate() {
            let p = exact[k];
            let sd = (p * (1.0 - p) / samples as f64).sqrt();
            assert!((c as f64 / samples as f64 - p).abs() <= 5.0 * sd + 1e-6, "k={k}");
        }
    }
}
