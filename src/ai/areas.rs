//! Where to place an area weapon (AREA-*): on the perceived enemies and their neighbours, for
//! the most expected damage to enemies against friends caught in it.

use super::odds::preview_odds;
use super::tactical::BestAttack;
use crate::battle::{Battle, Command, CreatureId, Target};
use crate::level::compendium::AreaSpec;
use crate::rules::area::curve_length;
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
                // Squares it could not centre it on would only be refused.
                squares.into_iter().filter(|&p| b.may_centre_area(me, &w.key, p)).map(Target::Square).collect()
            }
            Some(AreaSpec::Curve { length }) => curves_through_enemies(b, me, *length),
            _ => Facing::ALL.iter().map(|&d| Target::Toward(d)).collect(),
        };
        'targets: for target in targets {
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
                } else if t.target != me && tf.is_active() && tf.attrs.is_unconscious() {
                    // ATK-17: a friend lying unconscious cannot defend, and with coup de grâce
                    // (FLOW-7, on unless the level's ruleset turns it off) any hit kills it;
                    // without, the damage takes it nearer death (CRE-7). No blast is worth a
                    // fallen friend: the skirmish's Company killed one of its own in 7 of 200
                    // battles against itself, a fireball or a blunderbuss on the foes over it.
                    continue 'targets;
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

/// Most one-bend curves tried per enemy: the shortest detours first (a curve of 64 steps on a
/// large map would otherwise mean thousands of previews a decision).
const BENDS_PER_ENEMY: usize = 40;

/// AREA-E5: the curves worth trying from where `me` stands: straight at each perceived enemy in
/// reach, through one enemy to a second, and bent once on the way to an enemy at a square beside
/// something that stops effects or beside a friend (the reasons to bend: round a corner, past a
/// friend), each within the length as the rules count it (`curve_length`). The engine judges
/// each (line of effect along the curve, the map's edge) through `attack_preview`.
fn curves_through_enemies(b: &Battle, me: CreatureId, length: i32) -> Vec<Target> {
    let f = b.fighter(me);
    let o = f.origin;
    let rel = |p: Pos| Pos::new(p.x - o.x, p.y - o.y);
    let fits = |points: &[Pos]| curve_length(&points.iter().map(|&p| rel(p)).collect::<Vec<_>>()) <= i64::from(length);
    let enemies: Vec<Pos> = b
        .perceived_hostiles(f.side)
        .into_iter()
        .map(|e| b.fighter(e).origin)
        .filter(|&e| e != o && fits(&[e]))
        .collect();
    let friends: Vec<Pos> = b
        .creatures()
        .iter()
        .filter(|c| c.id != me && c.is_active() && !b.hostile(me, c.id))
        .map(|c| c.origin)
        .collect();
    let map = b.map();
    let worth_bending_at = |p: Pos| {
        (-1..=1).any(|dy| {
            (-1..=1).any(|dx| {
                let q = p.offset(dx, dy);
                (map.in_bounds(q) && map.terrain(q).blocks_effect()) || friends.contains(&q)
            })
        })
    };
    let mut out: Vec<Vec<Pos>> = Vec::new();
    for &e in &enemies {
        out.push(vec![e]);
        for &e2 in enemies.iter().filter(|&&e2| e2 != e && fits(&[e, e2])) {
            out.push(vec![e, e2]);
        }
        let mut bends: Vec<(i64, Pos)> = Vec::new();
        for dy in -length..=length {
            for dx in -length..=length {
                let bend = o.offset(dx, dy);
                if bend != o && bend != e && map.in_bounds(bend) && fits(&[bend, e]) && worth_bending_at(bend) {
                    bends.push((curve_length(&[rel(bend), rel(e)]), bend));
                }
            }
        }
        bends.sort();
        out.extend(bends.into_iter().take(BENDS_PER_ENEMY).map(|(_, bend)| vec![bend, e]));
    }
    out.sort();
    out.dedup();
    out.into_iter().map(Target::Curve).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{builtin_compendium, parse_level};

    // RULES: FLOW-7, ATK-17, AREA-E7 — a friend lying unconscious among the foes is never
    // caught in the blast: it cannot defend, and (coup de grâce, on by default) any hit kills
    // it. Three foes stand round it: the fireball over all three goes elsewhere.
    #[test]
    fn an_area_never_catches_a_fallen_friend() {
        let text = r#"(name: "fallen friend", map: ["WWWWWWWWWWWW", "W..........W", "W..........W", "W..........W",
                "W..........W", "W..........W", "WWWWWWWWWWWW"],
            legend: { '.': "floor", 'W': "wall" },
            terrains: { "floor": (), "wall": (blocks_movement: true, blocks_sight: true) },
            sides: [(name: "Us"), (name: "Them")],
            creatures: [
                (name: "Caster", template: "caster", side: "Us", at: (1, 3), facing: E),
                (name: "Fallen", template: "human_fighter", side: "Us", at: (7, 3), facing: E),
                (name: "A", template: "human_fighter", side: "Them", at: (6, 3), facing: E),
                (name: "B", template: "human_fighter", side: "Them", at: (8, 3), facing: W),
                (name: "C", template: "human_fighter", side: "Them", at: (7, 2), facing: S),
            ])"#;
        let level = parse_level("fallen.level.ron", text, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
        let mut b = Battle::new(&level, builtin_compendium(), 1).unwrap();
        let caught = |b: &Battle| {
            let area = best_area(b, 0, 3).expect("a blast worth throwing");
            b.attack_preview(0, &area.command).unwrap().iter().map(|t| t.target).collect::<Vec<_>>()
        };
        assert!(caught(&b).contains(&1), "standing, the friend is weighed at 1.5 times: three foes outweigh it");
        b.adjust_for_scenario(1, |f| {
            if let Some(might) = &mut f.attrs.pools[crate::rules::creature::Attribute::Might.index()] {
                might.current = 0;
            }
        });
        assert!(b.fighter(1).attrs.is_unconscious());
        let fallen = caught(&b);
        assert!(!fallen.contains(&1), "the fallen friend is spared: {fallen:?}");
        assert!(!fallen.is_empty(), "a foe is still caught: {fallen:?}");
    }
}
