//! Intent beyond this turn: how many turns a creature standing on a square needs before it can
//! strike an enemy it perceives, and what that strike is worth. A one-turn planner scores a
//! charge as "dealt 0" when nobody is reachable *this* turn, so monsters loitered out of reach
//! while shooters picked them off; with this, a square two turns from a strike is worth part of
//! that strike, discounted per turn, and squares on the walking way there beat squares beside it.

use super::odds::odds;
use super::situation::striking_weapons;
use crate::battle::{Battle, CreatureId, Fighter};
use crate::rules::grid::{Footprint, Pos, footprint_distance};
use crate::rules::movement::MoveField;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// Each further turn a strike lies away, it is worth this much less (tuned with `duel`).
pub(super) const TURN_DISCOUNT: f64 = 0.6;

/// Where a creature could strike from, and how far every square is from there.
pub(super) struct StrikeMap {
    /// Walking cost from every square to the nearest square from which it strikes someone.
    field: Rc<MoveField>,
    /// The best expected damage of one of its attacks on a conscious enemy it perceives, no
    /// defense assumed: what closing in is for.
    pub value: f64,
    /// AP of the attack that is worth it (a creature keeps that much to strike on arrival).
    pub ap: i32,
}

impl StrikeMap {
    /// Walking steps from `at` to the nearest striking square, if one can be walked to.
    pub fn steps(&self, at: Pos) -> Option<f64> {
        self.field.cost_steps(at)
    }

    /// Turns until it can strike from `at` (1: next turn), for a creature of `speed` with `max_ap`.
    pub fn turns(&self, at: Pos, speed: i32, max_ap: i32) -> Option<i32> {
        let moves = (self.steps(at)? / f64::from(speed.max(1))).ceil() as i32;
        let next = (max_ap - self.ap).max(0);
        Some(if moves <= next { 1 } else { 1 + (moves - next + max_ap - 1) / max_ap.max(1) })
    }

    /// What a square it strikes from now is worth, striking there a blow worth `blow` (against
    /// its foe's defense): that blow, up to the best strike the map knows, and never less than
    /// the strike one turn away (`TURN_DISCOUNT` of it), or waiting would beat striking. Worth
    /// the best strike wherever it struck, a dagger scratching a brute that parries it was
    /// pulled as hard as a clean blow: The Bridge's guards walked one by one into its reach
    /// (`normal` against the baseline 77.4 -> 79.6%, the Guards' seat 62.6 -> 66.6%; 5,000
    /// duels a level).
    pub fn struck_value(&self, blow: f64) -> f64 {
        blow.min(self.value).max(TURN_DISCOUNT * self.value)
    }

    /// What standing at `at` is worth as a step toward the strike: discounted per turn it is
    /// away, and a little more per move within the turn, so that nearer is always better (a
    /// creature one turn out had no reason to close further, and two such sides waited).
    pub fn approach_value(&self, at: Pos, speed: i32, max_ap: i32) -> f64 {
        let (Some(turns), Some(steps)) = (self.turns(at, speed, max_ap), self.steps(at)) else { return 0.0 };
        let moves = steps / f64::from(speed.max(1));
        self.value * TURN_DISCOUNT.powi(turns) * (1.0 - 0.05 * moves.min(10.0))
    }
}

/// Striking squares' fields kept: one per walker, weapons' reach and enemies' squares.
const FIELDS_KEPT: usize = 8;

thread_local! {
    /// Fields by what they were worked out from (`field_key`): the several decisions of one
    /// turn share one, and so do creatures alike (a pack of wolves) while the enemies stand
    /// where they stood, however hurt (the field is geometry; the strike's worth is kept apart,
    /// in `WORTH`).
    static FIELDS: RefCell<Vec<(u64, Rc<MoveField>)>> = const { RefCell::new(Vec::new()) };
    /// The last strike's worth worked out (`strike_worth`).
    static WORTH: Cell<Option<(u64, (f64, i32))>> = const { Cell::new(None) };
}

/// The strike map of `me` against these enemies (conscious, perceived), as they stand now.
pub(super) fn strike_map(b: &Battle, me: &Fighter, enemies: &[CreatureId]) -> Rc<StrikeMap> {
    let (value, ap) = strike_worth(b, me, enemies);
    let key = field_key(b, me, enemies);
    let field = match FIELDS.with_borrow(|c| c.iter().find(|(k, _)| *k == key).map(|(_, f)| f.clone())) {
        Some(hit) => hit,
        None => {
            let field = Rc::new(build(b, me, enemies));
            FIELDS.with_borrow_mut(|c| {
                if c.len() >= FIELDS_KEPT {
                    c.remove(0);
                }
                c.push((key, field.clone()));
            });
            field
        }
    };
    Rc::new(StrikeMap { field, value, ap })
}

/// What one strike on these enemies is worth to `me` and its AP: the best expected damage of
/// its attacks, no defense assumed, as the battle's numbers give it from where the creature
/// stood when first asked this round and while nobody's pools change (the decisions of one
/// turn weigh closing in by the same worth).
/// Kept by the old strike map's key, so the worth is what it always was: it does not follow a
/// weapon running out of ammunition within the round (the field above does), which leaves an
/// archer with an empty quiver valuing the walk to its dagger's squares by its bow's worth
/// until the round or a pool changes.
fn strike_worth(b: &Battle, me: &Fighter, enemies: &[CreatureId]) -> (f64, i32) {
    let key = worth_key(b, me, enemies);
    if let Some(hit) = WORTH.get().filter(|(k, _)| *k == key).map(|(_, w)| w) {
        return hit;
    }
    let (mut value, mut ap) = (0.0f64, 1);
    for w in striking_weapons(me) {
        for &e in enemies {
            let t = b.fighter(e);
            if let Ok(en) = b.engage_in_reach(me.id, me.placement(), e, t.placement())
                && let Ok(n) = b.attack_numbers(&en, &w.key, &[], true)
            {
                let v = odds(n.points, n.dice, n.segments, n.protection, 0, 1).0.expected;
                if v > value {
                    (value, ap) = (v, w.weapon.ap);
                }
            }
        }
    }
    WORTH.set(Some((key, (value, ap))));
    (value, ap)
}

fn worth_key(b: &Battle, me: &Fighter, enemies: &[CreatureId]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (b.seed(), b.round(), b.level_file(), me.id, me.attrs).hash(&mut h);
    (b.map().fingerprint(), b.map().depth_under(me.footprint())).hash(&mut h);
    for &e in enemies {
        let f = b.fighter(e);
        (e, f.origin, f.attrs).hash(&mut h);
    }
    h.finish()
}

/// Everything `build` reads: the battle and its map (its fingerprint: the terrain as it stands,
/// doors opened and objects broken included), the walker (its size with its body height, which
/// decides what it climbs over and out of, its burden and the drop it stands in), its weapons'
/// reach and the enemies' squares.
fn field_key(b: &Battle, me: &Fighter, enemies: &[CreatureId]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (b.seed(), b.level_file(), b.map().fingerprint()).hash(&mut h);
    let walker = b.mover(me.id, false);
    (walker.size, walker.speed, walker.depth, walker.burden).hash(&mut h);
    for w in striking_weapons(me) {
        (w.weapon.range.min, w.weapon.range.max).hash(&mut h);
    }
    for &e in enemies {
        let f = b.fighter(e);
        (e, f.origin, f.size.footprint()).hash(&mut h);
    }
    h.finish()
}

/// Walking costs to the nearest square from which `me` strikes one of `enemies`.
fn build(b: &Battle, me: &Fighter, enemies: &[CreatureId]) -> MoveField {
    let map = b.map();
    let side = me.size.footprint();
    // Squares found already (by another weapon, or beside another enemy) are not traced again.
    let width = map.width() as usize;
    let mut found = vec![false; width * map.height() as usize];
    for w in striking_weapons(me) {
        let range = w.weapon.range;
        for &e in enemies {
            let t = b.fighter(e);
            let tf = t.footprint();
            let r = range.max + side;
            for y in (t.origin.y - r).max(0)..=(t.origin.y + tf.side + r).min(map.height() - side) {
                for x in (t.origin.x - r).max(0)..=(t.origin.x + tf.side + r).min(map.width() - side) {
                    let p = Pos::new(x, y);
                    if found[y as usize * width + x as usize] {
                        continue;
                    }
                    let mine = Footprint::new(p, side);
                    let d = footprint_distance(mine, tf);
                    // ATK-4: within reach, and past a whip's too-close band.
                    if d > range.max || (range.min > 0 && d <= range.min) || d == 0 {
                        continue;
                    }
                    if mine.cells().any(|c| map.blocks_movement(c)) {
                        continue;
                    }
                    // ATK-E2, PERC-E1: from afar it needs a line to strike along and to see by.
                    if d > 1 && !b.line_of_fire(me.id, p, e, t.origin) {
                        continue;
                    }
                    found[y as usize * width + x as usize] = true;
                }
            }
        }
    }
    // In `Pos` order (x, then y), as the search has always been given them.
    let seeds: Vec<Pos> = (0..width as i32)
        .flat_map(|x| (0..map.height()).map(move |y| Pos::new(x, y)))
        .filter(|p| found[p.y as usize * width + p.x as usize])
        .collect();
    b.journey_costs_from(me.id, &seeds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{builtin_compendium, parse_level};

    // RULES: ATK-4 — where an archer strikes from follows the weapons it can still use:
    // with arrows, from where it stands down the hall; with its quiver empty, only from beside
    // the enemy with its dagger. (A map kept by the round and the creatures' attributes alone
    // went on seeing the bow for the rest of the round.)
    #[test]
    fn the_striking_squares_follow_the_weapons_left() {
        let text = r#"(name: "intent", map: ["WWWWWWWWWWWW", "W..........W", "WWWWWWWWWWWW"],
            legend: { '.': "floor", 'W': "wall" },
            terrains: { "floor": (), "wall": (blocks_movement: true, blocks_sight: true) },
            sides: [(name: "Us"), (name: "Them")],
            creatures: [
                (name: "Cato", template: "archer", side: "Us", at: (1, 1), facing: E),
                (name: "Brute", template: "human_fighter", side: "Them", at: (10, 1), facing: W),
            ])"#;
        let level = parse_level("intent.level.ron", text, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
        let mut b = Battle::new(&level, builtin_compendium(), 1).unwrap();
        let at = Pos::new(1, 1);
        let with_arrows = strike_map(&b, b.fighter(0), &[1]).steps(at);
        assert_eq!(with_arrows, Some(0.0), "the bow reaches down the hall");
        b.adjust_for_scenario(0, |f| f.weapons.iter_mut().for_each(|w| w.ammo = w.ammo.map(|_| 0)));
        let without = strike_map(&b, b.fighter(0), &[1]).steps(at);
        assert_eq!(without, Some(8.0), "to the square beside the enemy, for the dagger");
    }
}
