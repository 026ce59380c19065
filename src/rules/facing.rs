//! Facing (FACE-*): 8 facings and the sector of any square or token relative to a creature.

use super::grid::{Footprint, Pos};
use super::ruleset::FacingArcs;
use serde::{Deserialize, Serialize};

/// FACE-E2: the 8 facings on squares. `N` points to +y.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Facing {
    #[default]
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

impl Facing {
    pub const ALL: [Facing; 8] =
        [Facing::N, Facing::NE, Facing::E, Facing::SE, Facing::S, Facing::SW, Facing::W, Facing::NW];

    pub fn delta(self) -> (i32, i32) {
        match self {
            Facing::N => (0, 1),
            Facing::NE => (1, 1),
            Facing::E => (1, 0),
            Facing::SE => (1, -1),
            Facing::S => (0, -1),
            Facing::SW => (-1, -1),
            Facing::W => (-1, 0),
            Facing::NW => (-1, 1),
        }
    }

    pub fn name(self) -> &'static str {
        ["N", "NE", "E", "SE", "S", "SW", "W", "NW"][self as usize]
    }

    pub fn parse(s: &str) -> Option<Facing> {
        Facing::ALL.into_iter().find(|f| f.name().eq_ignore_ascii_case(s.trim()))
    }

    pub fn opposite(self) -> Facing {
        Facing::ALL[(self as usize + 4) % 8]
    }

    /// The facing closest to the direction from `from` to `to` (ties go clockwise from N).
    pub fn toward(from: (f64, f64), to: (f64, f64)) -> Facing {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        if dx == 0.0 && dy == 0.0 {
            return Facing::N;
        }
        // Bearing clockwise from north, in eighths of a turn.
        let bearing = dx.atan2(dy).to_degrees().rem_euclid(360.0);
        Facing::ALL[((bearing / 45.0).round() as usize) % 8]
    }

    /// Facing from the centre of one footprint toward another's.
    pub fn toward_footprint(from: Footprint, to: Footprint) -> Facing {
        let (ax, ay) = from.centre2();
        let (bx, by) = to.centre2();
        Facing::toward_delta(bx - ax, by - ay)
    }

    /// `toward` for a whole-number direction, in integers (the planner asks it for every square
    /// it weighs). A boundary between two facings lies at an odd multiple of 22.5°, whose
    /// tangent √2 − 1 is irrational: no whole-number direction ties, so this is exact.
    pub fn toward_delta(dx: i32, dy: i32) -> Facing {
        let (ax, ay) = (i128::from(dx.unsigned_abs()), i128::from(dy.unsigned_abs()));
        let (min, max) = (ax.min(ay), ax.max(ay));
        if max == 0 {
            return Facing::N;
        }
        // Diagonal when min / max > tan 22.5° = √2 − 1, i.e. (min + max)² > 2·max² (in i128:
        // no overflow for any i32 direction).
        let diagonal = (min + max) * (min + max) > 2 * max * max;
        match (diagonal, dx > 0, dy > 0) {
            (true, true, true) => Facing::NE,
            (true, true, false) => Facing::SE,
            (true, false, false) => Facing::SW,
            (true, false, true) => Facing::NW,
            (false, _, _) if ay > ax => {
                if dy > 0 {
                    Facing::N
                } else {
                    Facing::S
                }
            }
            (false, _, _) => {
                if dx > 0 {
                    Facing::E
                } else {
                    Facing::W
                }
            }
        }
    }
}

/// FACE-3: horizontal sectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Sector {
    Front,
    Left,
    Right,
    Rear,
}

impl Sector {
    pub fn name(self) -> &'static str {
        match self {
            Sector::Front => "front",
            Sector::Left => "left",
            Sector::Right => "right",
            Sector::Rear => "rear",
        }
    }
    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// A set of sectors: a square on an exact boundary belongs to both (FACE-E2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SectorSet(u8);

impl SectorSet {
    pub const EMPTY: SectorSet = SectorSet(0);
    pub fn contains(self, s: Sector) -> bool {
        self.0 & s.bit() != 0
    }
    pub fn with(self, s: Sector) -> SectorSet {
        SectorSet(self.0 | s.bit())
    }
    pub fn union(self, o: SectorSet) -> SectorSet {
        SectorSet(self.0 | o.0)
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn iter(self) -> impl Iterator<Item = Sector> {
        [Sector::Front, Sector::Left, Sector::Right, Sector::Rear].into_iter().filter(move |s| self.contains(*s))
    }
    pub fn only(self, s: Sector) -> bool {
        self.0 == s.bit()
    }
}

/// Whose borderline case is being decided (GEN-4, GEN-E3, FACE-6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    /// An attacker wants the weakest side of its target: rear > side > front.
    Attacker,
    /// A perceiver wants to see: front > side > rear.
    Perceiver,
}

impl SectorSet {
    /// FACE-E2 (Engine decision): pick the sector most favourable to the acting creature.
    pub fn resolve(self, actor: Actor) -> Option<Sector> {
        let order = match actor {
            Actor::Attacker => [Sector::Rear, Sector::Left, Sector::Right, Sector::Front],
            Actor::Perceiver => [Sector::Front, Sector::Left, Sector::Right, Sector::Rear],
        };
        order.into_iter().find(|s| self.contains(*s))
    }
}

/// FACE-E2: the sector(s) of the point `target2` seen from `centre2` (both in doubled coordinates,
/// so footprint centres of even-sided tokens stay integral). Empty when the points coincide.
pub fn sectors_of_point(centre2: (i32, i32), facing: Facing, arcs: FacingArcs, target2: (i32, i32)) -> SectorSet {
    let (vx, vy) = (target2.0 - centre2.0, target2.1 - centre2.1);
    if vx == 0 && vy == 0 {
        return SectorSet::EMPTY;
    }
    let (fx, fy) = facing.delta();
    // Forward and rightward components; diagonal facings scale both by √2 alike, so every
    // comparison below stays exact in integers.
    let f = vx * fx + vy * fy;
    let l = vx * fy - vy * fx;
    let side = if l > 0 { Sector::Right } else { Sector::Left };
    let s = SectorSet::EMPTY;
    match arcs {
        FacingArcs::Quarters => {
            let al = l.abs();
            if f > al {
                s.with(Sector::Front)
            } else if f == al && f > 0 {
                s.with(Sector::Front).with(side)
            } else if -f > al {
                s.with(Sector::Rear)
            } else if -f == al && f < 0 {
                s.with(Sector::Rear).with(side)
            } else {
                s.with(side)
            }
        }
        FacingArcs::Wide => {
            // |Δ| < 60° ⇔ l² < 3f² with f > 0; tan 60° is irrational, so no square ties.
            let inside = (l as i64).pow(2) < 3 * (f as i64).pow(2);
            if inside && f > 0 {
                s.with(Sector::Front)
            } else if inside && f < 0 {
                s.with(Sector::Rear)
            } else {
                s.with(side)
            }
        }
    }
}

/// All sectors of a token's squares relative to a creature (boundaries included).
pub fn sectors_of_footprint(viewer: Footprint, facing: Facing, arcs: FacingArcs, other: Footprint) -> SectorSet {
    let c = viewer.centre2();
    // One square: the common case, asked for every square a planner weighs.
    if other.side == 1 {
        let p = other.origin;
        return if viewer.contains(p) {
            SectorSet::EMPTY
        } else {
            sectors_of_point(c, facing, arcs, (2 * p.x + 1, 2 * p.y + 1))
        };
    }
    other
        .cells()
        .filter(|p| !viewer.contains(*p))
        .fold(SectorSet::EMPTY, |acc, p| acc.union(sectors_of_point(c, facing, arcs, (2 * p.x + 1, 2 * p.y + 1))))
}

/// The one sector that counts for an action, favouring the actor (FACE-6, FACE-E2).
pub fn sector_for(
    viewer: Footprint,
    facing: Facing,
    arcs: FacingArcs,
    other: Footprint,
    actor: Actor,
) -> Option<Sector> {
    sectors_of_footprint(viewer, facing, arcs, other).resolve(actor)
}

/// The sectors of the square at `offset` from a Medium creature at the origin.
pub fn sectors_of_offset(offset: Pos, facing: Facing, arcs: FacingArcs) -> SectorSet {
    sectors_of_point((1, 1), facing, arcs, (2 * offset.x + 1, 2 * offset.y + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Sector::*;

    fn set(list: &[Sector]) -> SectorSet {
        list.iter().fold(SectorSet::EMPTY, |s, x| s.with(*x))
    }

    // RULES: FACE-3, FACE-E2 — the digest's adjacent-square lookup, facing N, both systems.
    #[test]
    fn face_e2_lookup_facing_north() {
        type Case = ((i32, i32), &'static [Sector], &'static [Sector]);
        let cases: [Case; 8] = [
            ((-1, 1), &[Front, Left], &[Front]),
            ((0, 1), &[Front], &[Front]),
            ((1, 1), &[Front, Right], &[Front]),
            ((-1, 0), &[Left], &[Left]),
            ((1, 0), &[Right], &[Right]),
            ((-1, -1), &[Left, Rear], &[Rear]),
            ((0, -1), &[Rear], &[Rear]),
            ((1, -1), &[Right, Rear], &[Rear]),
        ];
        for ((x, y), quarters, wide) in cases {
            let p = Pos::new(x, y);
            assert_eq!(sectors_of_offset(p, Facing::N, FacingArcs::Quarters), set(quarters), "000 {x},{y}");
            assert_eq!(sectors_of_offset(p, Facing::N, FacingArcs::Wide), set(wide), "004 {x},{y}");
        }
    }

    // RULES: FACE-E2 — the lookup facing NE: N is F|L, E is F|R, NW is L, SE is R, SW is rear.
    #[test]
    fn face_e2_lookup_facing_northeast() {
        let q = |x, y| sectors_of_offset(Pos::new(x, y), Facing::NE, FacingArcs::Quarters);
        let w = |x, y| sectors_of_offset(Pos::new(x, y), Facing::NE, FacingArcs::Wide);
        assert_eq!(q(0, 1), set(&[Front, Left]));
        assert_eq!(q(1, 1), set(&[Front]));
        assert_eq!(q(1, 0), set(&[Front, Right]));
        assert_eq!(q(-1, 1), set(&[Left]));
        assert_eq!(q(1, -1), set(&[Right]));
        assert_eq!(q(-1, 0), set(&[Left, Rear]));
        assert_eq!(q(-1, -1), set(&[Rear]));
        assert_eq!(q(0, -1), set(&[Right, Rear]));
        assert_eq!(w(0, 1), set(&[Front]));
        assert_eq!(w(1, 0), set(&[Front]));
        assert_eq!(w(-1, 0), set(&[Rear]));
        assert_eq!(w(0, -1), set(&[Rear]));
        assert_eq!(w(-1, 1), set(&[Left]));
    }

    // RULES: FACE-6, FACE-E2, GEN-4 — a rear diagonal counts as rear for an attacker, side for an
    // observer.
    #[test]
    fn face_6_boundaries_favour_the_actor() {
        let me = Footprint::single(Pos::new(0, 0));
        let behind_left = Footprint::single(Pos::new(-1, -1));
        let arcs = FacingArcs::Quarters;
        assert_eq!(sector_for(me, Facing::N, arcs, behind_left, Actor::Attacker), Some(Rear));
        assert_eq!(sector_for(me, Facing::N, arcs, behind_left, Actor::Perceiver), Some(Left));
    }

    // RULES: FACE-E2 — a Large token half behind a creature counts as behind for its attack.
    #[test]
    fn face_e2_multi_square_token_takes_best_square() {
        let me = Footprint::single(Pos::new(0, 0));
        // A 2×2 brute occupying (1..2, -1..0): its squares are right and rear-right of me.
        let brute = Footprint::new(Pos::new(1, -1), 2);
        let all = sectors_of_footprint(me, Facing::N, FacingArcs::Quarters, brute);
        assert!(all.contains(Right) && all.contains(Rear) && !all.contains(Front));
        assert_eq!(all.resolve(Actor::Attacker), Some(Rear));
        // Seen from the brute (facing W), my square is in its front.
        let s = sector_for(brute, Facing::W, FacingArcs::Quarters, me, Actor::Perceiver);
        assert_eq!(s, Some(Front));
    }

    // RULES: FACE-3 — at range, 90° quarters: (3,5) is front, (5,3) is right.
    #[test]
    fn face_3_sectors_at_range() {
        let q = |x, y| sectors_of_offset(Pos::new(x, y), Facing::N, FacingArcs::Quarters);
        assert_eq!(q(3, 5), set(&[Front]));
        assert_eq!(q(5, 3), set(&[Right]));
        assert_eq!(q(-4, -4), set(&[Left, Rear]));
        // 004: front reaches to 60° off the axis: (5,3) is at 59° → front.
        assert_eq!(sectors_of_offset(Pos::new(5, 3), Facing::N, FacingArcs::Wide), set(&[Front]));
        assert_eq!(sectors_of_offset(Pos::new(5, 2), Facing::N, FacingArcs::Wide), set(&[Right]));
    }

    #[test]
    fn facing_toward_and_parse() {
        assert_eq!(Facing::toward((0.0, 0.0), (3.0, 3.0)), Facing::NE);
        assert_eq!(Facing::toward((0.0, 0.0), (-5.0, 0.5)), Facing::W);
        assert_eq!(Facing::parse("sw"), Some(Facing::SW));
        assert_eq!(Facing::parse("up"), None);
        assert_eq!(Facing::N.opposite(), Facing::S);
    }

    // FACE-E2: the integer bearing agrees with the trigonometric one on every direction.
    #[test]
    fn toward_delta_agrees_with_the_bearing() {
        for dx in -90i32..=90 {
            for dy in -90i32..=90 {
                let float = Facing::toward((0.0, 0.0), (dx as f64, dy as f64));
                assert_eq!(Facing::toward_delta(dx, dy), float, "direction {dx},{dy}");
            }
        }
        // Far directions close to a boundary (tan 22.5° ≈ 0.41421356).
        assert_eq!(Facing::toward_delta(41_421, 100_000), Facing::N);
        assert_eq!(Facing::toward_delta(41_422, 100_000), Facing::NE);
        // The extremes do not overflow.
        assert_eq!(Facing::toward_delta(i32::MIN, i32::MIN), Facing::SW);
        assert_eq!(Facing::toward_delta(0, i32::MAX), Facing::N);
    }
}
