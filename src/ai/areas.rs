//! Where to place an area weapon (AREA-*): on the perceived enemies and their neighbours, for
//! the most expected damage to enemies against friends caught in it.

use super::odds::preview_odds;
use super::tactical::BestAttack;
use crate::battle::{Battle, Command, CreatureId, Target};
use crate::level::compendium::AreaSpec;
use crate::rules::facing::Facing;
use crate::rules::grid::Pos;

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
