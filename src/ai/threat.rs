//! What an enemy could do to a creature standing on a square next round: the danger the
//! planner charges each square with, asked of the battle's numbers "as if in reach".

use super::odds::odds;
use crate::battle::{Battle, CreatureId, Fighter, Placement};
use crate::rules::grid::{Footprint, Pos, footprint_distance};

/// Expected damage `enemy` could deal to `me` standing at `at` next round, if it can get there:
/// counting its move, its best weapon, and whether our rear faces it.
#[derive(Clone, Copy, Default)]
pub(super) struct Threat {
    /// With its best weapon, against our best defense.
    pub any: f64,
    /// With its best weapon, if we cannot defend (no AP kept).
    pub open: f64,
    /// The chance it knocks us out (damage reaching our pool), defended and not.
    pub ko: f64,
    pub ko_open: f64,
    /// With its best ranged weapon: the part that stays while both sides hold their ground.
    pub ranged: f64,
    /// The square has terrain cover from this enemy (ATK-E5).
    pub cover: bool,
}

pub(super) fn threat(b: &Battle, me: &Fighter, at: Placement, enemy: &Fighter) -> Threat {
    let mut best = Threat::default();
    if !enemy.can_act() {
        return best;
    }
    let d = footprint_distance(enemy.footprint(), Footprint::new(at.origin, me.size.footprint()));
    let mut engagement = None;
    // Traced at most once per enemy, and only when a ranged weapon would raise the threat.
    let mut held_line = None;
    for w in &enemy.weapons {
        if w.weapon.area.is_some() || w.ammo == Some(0) || w.weapon.ap > enemy.max_ap {
            continue;
        }
        // Moves it can make and still attack; MOVE-E1: a move goes up to speed + ¾ steps.
        let moves = (enemy.max_ap - w.weapon.ap).max(0);
        let reach = w.weapon.range.max + ((4 * enemy.speed + 3) * moves) / 4;
        if d > reach + if w.weapon.range.ranged { w.weapon.range.max } else { 0 } {
            continue;
        }
        // The battle's numbers for this weapon from where the enemy stands, as if in reach:
        // our protection and cover, our defense dice in this posture, our rear arc.
        let e = *engagement
            .get_or_insert_with(|| b.engage_in_reach(enemy.id, enemy.placement(), me.id, at).expect("both exist"));
        let Ok(n) = b.attack_numbers(&e, &w.key, &[], true) else { continue };
        // CRE-6: what it takes to knock us out with this weapon.
        let pool = w.weapon.targets.iter().filter_map(|a| me.attrs.pool(*a)).map(|p| p.current).max().unwrap_or(0);
        let (o, ko) = odds(n.points, n.dice, n.segments, n.protection, n.defense_dice, pool.max(1));
        let (undefended, ko_open) = odds(n.points, n.dice, n.segments, n.protection, 0, pool.max(1));
        best.cover |= n.cover;
        // Attacks it can fit in its AP.
        let attacks = if d <= w.weapon.range.max { (enemy.max_ap / w.weapon.ap.max(1)).max(1) } else { 1 };
        // MOVE-11, MOVE-12: a blow that would throw us over an edge (pushed along the line from
        // where the enemy stands now) adds the fall, times the chance the blow hurts.
        let fall = n.forced.filter(|f| f.fall_dice > 0).map_or(0.0, |f| {
            let hurts = odds(n.points, n.dice, n.segments, n.protection, n.defense_dice, 1).1;
            hurts * odds(n.points, f.fall_dice, 1, f.fall_protection, 0, 1).0.expected
        });
        let expected = (o.expected + fall) * attacks as f64;
        best.any = best.any.max(expected);
        best.open = best.open.max(undefended.expected * attacks as f64);
        let at_least_once = |p: f64| 1.0 - (1.0 - p).powi(attacks);
        best.ko = best.ko.max(at_least_once(ko));
        best.ko_open = best.ko_open.max(at_least_once(ko_open));
        // Fire that stays round after round comes along a line it has from where it stands
        // (ATK-E2, PERC-E1; it may step into range): a wall between us shelters from it.
        if w.weapon.range.ranged
            && expected > best.ranged
            && *held_line.get_or_insert_with(|| b.line_of_fire(enemy.id, enemy.origin, me.id, at.origin))
        {
            best.ranged = best.ranged.max(expected);
        }
    }
    best
}

/// How far a threat shrinks when divided among several of us: share^-x (1 = evenly; tuned
/// with `duel`).
const SHARE_EXPONENT: f64 = 1.0;

impl Threat {
    /// Its part of the enemy's attacks when they are divided among `share` of us.
    pub(super) fn shared(self, share: f64) -> Threat {
        let k = 1.0 / share.max(1.0).powf(SHARE_EXPONENT);
        Threat {
            any: self.any * k,
            open: self.open * k,
            ko: self.ko * k,
            ko_open: self.ko_open * k,
            ranged: self.ranged * k,
            cover: self.cover,
        }
    }
}

/// How many of `me`'s friends (standing, other than `me`) `enemy` could reach next round.
pub(super) fn friends_in_reach(b: &Battle, me: CreatureId, enemy: &Fighter) -> usize {
    let side = b.fighter(me).side;
    let reach = enemy
        .weapons
        .iter()
        .filter(|w| w.weapon.area.is_none() && w.ammo != Some(0) && w.weapon.ap <= enemy.max_ap)
        .map(|w| w.weapon.range.max + ((4 * enemy.speed + 3) * (enemy.max_ap - w.weapon.ap).max(0)) / 4)
        .max()
        .unwrap_or(0);
    b.creatures()
        .iter()
        .filter(|c| c.id != me && c.side == side && c.can_act())
        .filter(|c| footprint_distance(c.footprint(), enemy.footprint()) <= reach)
        .count()
}

/// FLOW-10: the dice a hazard would cost `me` for standing at `at` (its attack's expected
/// damage, never defended, plus its drain), by the battle's numbers.
pub(super) fn hazard_cost(b: &Battle, me: CreatureId, at: Pos) -> f64 {
    b.hazard_numbers(me, at)
        .map_or(0.0, |h| odds(b.ruleset().dice_points, h.dice, 1, h.protection, 0, 1).0.expected + h.drain as f64)
}
