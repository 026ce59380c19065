//! Where to place an area weapon (AREA-*): on the perceived enemies and their neighbours, for
//! the most expected damage to enemies against friends caught in it.

use super::odds::preview_odds;
use super::tactical::BestAttack;
use crate::battle::{Battle, Command, CreatureId, Target};
use crate::level::compendium::AreaSpec;
use crate::rules::facing::Facing;
use crate::rules::grid::{Pos, distance};

/// The best placement of an area weapon usable now: expected damage to enemies minus 1.5 × to
/// friends (each creature as the battle would protect it, no defense assumed for friends).
pub(super) fn best_area(b: &Battle, me: CreatureId, ap: i32) -> Option<BestAttack> {
    let f = b.fighter(me);
    let mut best: Option<BestAttack> = None;
    for w in f.weapons.iter().filter(|w| w.weapon.area.is_some() && w.weapon.ap <= ap && w.ammo != Some(0)) {
        let targets: Vec<Target> = match w.weapon.area.as_ref() {
            Some(AreaSpec::Circle { .. } | AreaSpec::Ring { .. }) => {
                let mut squares: Vec<Pos> = Vec::new();
                for e in b.perceived_hostiles(f.side) {
                    let o = b.fighter(e).origin;
                    for dy in -1..=1 {
                        for dx in -1..=1 {
                            squares.push(o.offset(dx, dy));
                        }
                    }
                }
                squares.sort();
                squares.dedup();
                squares.into_iter().map(Target::Square).collect()
            }
            Some(AreaSpec::Curve { length }) => curves_through_enemies(b, me, *length),
            _ => Facing::ALL.iter().map(|&d| Target::Toward(d)).collect(),
        };
        for target in targets {
            let cmd = Command::Attack { weapon: w.key.clone(), target, additives: vec![] };
            let Ok(hit) = b.attack_preview(me, &cmd) else { continue };
            let mut value = 0.0;
            for t in &hit {
                let tf = b.fighter(t.target);
                let (o, _) = preview_odds(t, 0, 1);
                if b.hostile(me, t.target) {
                    // What the side cannot perceive does not count: it does not know it is there.
                    if tf.can_act() && b.side_perceives(f.side, t.target) {
                        value += o.expected;
                    }
                } else {
                    value -= 1.5 * o.expected;
                }
            }
            if value > 0.0 && best.as_ref().is_none_or(|x| value > x.value) {
                best = Some(BestAttack { value, dealt: value, rear: false, command: cmd, ap: w.weapon.ap });
            }
        }
    }
    best
}

/// AREA-E5: the curves worth trying from where `me` stands: straight at each perceived enemy in
/// reach, through one enemy to a second, and bent once on the way to an enemy (round a corner
/// or a friend), every bend square whose detour still fits the length. The engine judges each
/// (line of effect along the curve, the map's edge) through `attack_preview`.
fn curves_through_enemies(b: &Battle, me: CreatureId, length: i32) -> Vec<Target> {
    let f = b.fighter(me);
    let o = f.origin;
    let enemies: Vec<Pos> = b
        .perceived_hostiles(f.side)
        .into_iter()
        .map(|e| b.fighter(e).origin)
        .filter(|&e| e != o && distance(o, e) <= length)
        .collect();
    let mut out: Vec<Vec<Pos>> = Vec::new();
    for &e in &enemies {
        out.push(vec![e]);
        for &e2 in enemies.iter().filter(|&&e2| e2 != e && distance(o, e) + distance(e, e2) <= length) {
            out.push(vec![e, e2]);
        }
        let slack = length - distance(o, e);
        if slack < 1 {
            continue;
        }
        for dy in -length..=length {
            for dx in -length..=length {
                let bend = o.offset(dx, dy);
                if bend != o && bend != e && distance(o, bend) + distance(bend, e) <= length && b.map().in_bounds(bend)
                {
                    out.push(vec![bend, e]);
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out.into_iter().map(Target::Curve).collect()
}
