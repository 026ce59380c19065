//! What an enemy could do to a creature standing on a square next round: the danger the
//! planner charges each square with, asked of the battle's numbers "as if in reach".

use super::odds::odds;
use super::situation::striking_weapons;
use crate::battle::{Armed, Battle, CreatureId, Fighter, Placement};
use crate::rules::grid::{Footprint, Pos, footprint_distance};
use crate::rules::movement::MoveField;
use std::cell::RefCell;
use std::rc::Rc;

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
    for w in striking_weapons(enemy) {
        // Moves it can make and still attack; MOVE-E1: a move goes up to speed + ¾ steps.
        let moves = enemy.moves_beside(w);
        if d > farthest_attack(enemy, w, moves) {
            continue;
        }
        if !w.weapon.range.ranged
            && d > w.weapon.range.max
            && !walks_into_reach(b, enemy, at.origin, w.weapon.range.max, moves)
        {
            continue;
        }
        // The battle's numbers for this weapon from where the enemy stands, as if in reach:
        // our protection and cover, our defense dice in this posture, our rear arc.
        let e = *engagement
            .get_or_insert_with(|| b.engage_in_reach_by(enemy, enemy.placement(), me.id, at).expect("both exist"));
        // The enemy as given: one out of sight is as its foes remember it.
        let Ok(n) = b.attack_numbers_by(enemy, &e, &w.key, &[], true) else { continue };
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

/// Whom else of a creature's side an enemy could attack next round: the targets its attacks
/// are divided among.
pub(super) struct FriendsInReach {
    /// Friends in reach of any of its attacks (after its moves).
    pub any: usize,
    /// Friends it could shoot from where it stands (in range, along a line: ATK-E2, PERC-E1).
    pub shot: usize,
}

impl Threat {
    /// Its part of the enemy's attacks when they are divided among the friends in reach and
    /// this creature, evenly: safety in numbers, which a pack needs to close in at all (each
    /// enemy was counted against each of us in full, so nobody ever approached a group). A
    /// shooter that would shoot this square from where it stands divides its volley only
    /// among those it could also shoot from there: counted by distance, an archer stepping out
    /// of a corridor under an enemy archer's eye took the volley as shared with friends still
    /// in the corridor, and was shot down undefended.
    ///
    /// `shooter_exchange`: `me` is a shooter weighing a square in an enemy shooter's line. That
    /// enemy picks whom to shoot by the damage it can do, and one who kept no AP to defend is
    /// that target: its volley, undefended, is counted in full rather than shared. With the
    /// share, an archer spent its last AP on a long shot and the enemy archer's first arrow,
    /// undefended, took it down (`open_field`). Only for shooters: counted so for every
    /// creature, a pack closing on archers held back and lost (`normal` so changed against
    /// `normal`: `wolf_den` 16–26%, `archers_wall` 33%); for shooters, `open_field` 76.7%,
    /// The Ledge 66.8%, `darkness` 54.4%, every other level 49–50% (1,000 duels each).
    pub(super) fn shared(self, friends: &FriendsInReach, shooter_exchange: bool) -> Threat {
        let from_here = self.ranged > 0.0 && self.ranged >= self.any;
        let share = 1.0 + if from_here { friends.shot } else { friends.any } as f64;
        let k = 1.0 / share;
        let k_open = if shooter_exchange && from_here { 1.0 } else { k };
        Threat {
            any: self.any * k,
            open: self.open * k_open,
            ko: self.ko * k,
            ko_open: self.ko_open * k_open,
            ranged: self.ranged * k,
            cover: self.cover,
        }
    }
}

/// How many of `me`'s friends (standing, other than `me`) `enemy` could attack next round:
/// in reach of a blow after walking its moves around walls, or of a shot after its moves, or
/// about to close to blows with it before it acts again (`joining_before`); and how many it
/// could shoot from where it stands.
pub(super) fn friends_in_reach(b: &Battle, me: CreatureId, enemy: &Fighter) -> FriendsInReach {
    let side = b.fighter(me).side;
    let (mut blow, mut shot, mut blow_range, mut blow_moves, mut range) = (-1, -1, 0, 0, -1);
    for w in striking_weapons(enemy) {
        let moves = enemy.moves_beside(w);
        if w.weapon.range.ranged {
            // Counted in its range after walking, not out to the overreach.
            shot = shot.max(w.weapon.range.max + enemy.walk_quarters(moves) as i32 / 4);
            range = range.max(w.weapon.range.max);
        } else {
            let reach = farthest_attack(enemy, w, moves);
            if reach > blow {
                (blow, blow_range, blow_moves) = (reach, w.weapon.range.max, moves);
            }
        }
    }
    let mut friends = FriendsInReach { any: 0, shot: 0 };
    let joins = joining_before(b, me, enemy.id);
    // The foes a joining friend could go for instead, looked up once.
    let mut foes: Option<Vec<Footprint>> = None;
    for c in b.creatures().iter().filter(|c| c.id != me && c.side == side && c.can_act()) {
        let d = footprint_distance(c.footprint(), enemy.footprint());
        let line = || b.line_of_fire(enemy.id, enemy.origin, c.id, c.origin);
        if (d <= blow && walks_into_reach(b, enemy, c.origin, blow_range, blow_moves))
            || d <= shot
            || (joins(c.id)
                && closes_to_blows(b, c, enemy, d, foes.get_or_insert_with(|| other_foes(b, side, enemy.id))))
        {
            friends.any += 1;
        }
        if d <= range && line() {
            friends.shot += 1;
        }
    }
    friends
}

/// Whether a friend takes its turn after `me`'s and before `enemy`'s next (the turn order is
/// the battle's, kept from round to round): a friend that then closes to blows with the enemy
/// stands in its reach when it strikes back, as `me` would. Counted only among friends in
/// reach already, a pack waited one by one at the edge of a lone fighter's reach, each for
/// another to go first, until the stall pushed it (two rounds against a man who never moved).
fn joining_before(b: &Battle, me: CreatureId, enemy: CreatureId) -> impl Fn(CreatureId) -> bool + '_ {
    let order = b.order();
    // Each creature's slot, looked up once: asked for every friend of every foe weighed, a
    // search of the order each time is quadratic on a crowded field.
    let mut slots = vec![None; b.creatures().len()];
    for (i, &id) in order.iter().enumerate() {
        slots[id as usize] = Some(i);
    }
    let slot = move |id: CreatureId| slots.get(id as usize).copied().flatten();
    let (mine, theirs) = (slot(me), slot(enemy));
    move |friend| match (mine, theirs, slot(friend)) {
        (Some(m), Some(e), Some(f)) => {
            let after_me = |x: usize| (x + order.len() - m) % order.len();
            after_me(f) > 0 && after_me(f) < after_me(e)
        }
        _ => false,
    }
}

/// The conscious hostiles `side` perceives other than `enemy`, where they stand.
fn other_foes(b: &Battle, side: usize, enemy: CreatureId) -> Vec<Footprint> {
    let foes = b.perceived_hostiles(side).into_iter().filter(|&o| o != enemy).map(|o| b.fighter(o));
    foes.filter(|o| o.can_act()).map(|o| o.footprint()).collect()
}

/// Could `friend` come to blows this turn with `enemy`, `d` squares away, when no other foe
/// (`others`) stands nearer it (the one it would go for: a friend that could reach three foes
/// joins one): walk, around walls, into a melee weapon's reach with the moves it can make and
/// still strike?
fn closes_to_blows(b: &Battle, friend: &Fighter, enemy: &Fighter, d: i32, others: &[Footprint]) -> bool {
    let nearer = others.iter().any(|&o| footprint_distance(friend.footprint(), o) < d);
    !nearer
        && striking_weapons(friend).filter(|w| !w.weapon.range.ranged).any(|w| {
            let moves = friend.moves_beside(w);
            d <= farthest_attack(friend, w, moves)
                && walks_into_reach(b, friend, enemy.origin, w.weapon.range.max, moves)
        })
}

/// The farthest (SPACE distance) `enemy` could attack with `w` from after `moves` moves: a
/// shot after walking the moves in a straight line, out to twice its range (overreach); a blow
/// as far as `walks_into_reach` may allow, so this cheap bound never hides a square the walk
/// would reach (a bound of walked steps + reach hid squares two diagonals off a straight run).
fn farthest_attack(enemy: &Fighter, w: &Armed, moves: i32) -> i32 {
    let walked = enemy.walk_quarters(moves) as i32;
    if w.weapon.range.ranged { 2 * w.weapon.range.max + walked / 4 } else { (walked + 6 * w.weapon.range.max) / 4 }
}

/// Could `enemy` walk, in `moves` moves (MOVE-E1: speed + 3/4 steps each), around walls, to
/// within `range` of a creature at `at`? Straight distance said yes through the walls of a
/// winding corridor, so squares behind them were charged with blows that could not come, and
/// friends there were counted as sharing the blows that could.
fn walks_into_reach(b: &Battle, enemy: &Fighter, at: Pos, range: i32, moves: i32) -> bool {
    // A larger creature strikes from beside a square it could not stand on: distance decides.
    if enemy.size.footprint() > 1 {
        return true;
    }
    let budget = f64::from(enemy.walk_quarters(moves)) / 4.0;
    // The last steps to reach may be diagonal (1.5 each): lenient rather than blind.
    walk_field(b, enemy).cost_steps(at).is_some_and(|steps| steps - 1.5 * f64::from(range) <= budget)
}

/// What a kept walking field was worked out for: the terrain, the walker, where it stood and
/// how far out it was searched. Compared field by field (asked for every square weighed, so no
/// hashing on the way).
#[derive(PartialEq)]
struct WalkKey {
    map: u64,
    seed: u64,
    level: String,
    enemy: CreatureId,
    origin: Pos,
    speed: i32,
    bound: u32,
}

/// Enemies' walking fields kept while they stand still: every decision of a round asks again.
const WALKS_KEPT: usize = 32;

thread_local! {
    static WALKS: RefCell<Vec<(WalkKey, Rc<MoveField>)>> = const { RefCell::new(Vec::new()) };
}

/// The walking costs of `enemy` from where it stands (creatures ignored: they move), kept while
/// it stands there on this map: out to the farthest any of its blows could need
/// (`walks_into_reach`: a whole turn's moves beside the blow, plus 1.5 steps a square of
/// reach), not over the whole map. The answers are the same; the search is not: on a 256×256
/// field of 256 against 256 a whole-map search per enemy was three quarters of a decision.
fn walk_field(b: &Battle, enemy: &Fighter) -> Rc<MoveField> {
    let bound = striking_weapons(enemy)
        .filter(|w| !w.weapon.range.ranged)
        .map(|w| enemy.walk_quarters(enemy.moves_beside(w)) + 6 * w.weapon.range.max.max(0) as u32)
        .max()
        .unwrap_or(0);
    let found = WALKS.with_borrow(|w| {
        w.iter()
            .find(|(k, _)| {
                k.map == b.map().fingerprint()
                    && k.enemy == enemy.id
                    && k.origin == enemy.origin
                    && k.speed == enemy.speed
                    && k.bound == bound
                    && k.seed == b.seed()
                    && k.level == b.level_file()
            })
            .map(|(_, f)| f.clone())
    });
    if let Some(hit) = found {
        return hit;
    }
    let field = Rc::new(b.journey_costs_within(enemy.id, enemy.origin, bound));
    let key = WalkKey {
        map: b.map().fingerprint(),
        seed: b.seed(),
        level: b.level_file().to_string(),
        enemy: enemy.id,
        origin: enemy.origin,
        speed: enemy.speed,
        bound,
    };
    WALKS.with_borrow_mut(|w| {
        if w.len() >= WALKS_KEPT {
            w.remove(0);
        }
        w.push((key, field.clone()));
    });
    field
}

/// FLOW-10: the dice a hazard would cost `me` for standing at `at` (its attack's expected
/// damage, never defended, plus its drain), by the battle's numbers.
pub(super) fn hazard_cost(b: &Battle, me: CreatureId, at: Pos) -> f64 {
    b.hazard_numbers(me, at)
        .map_or(0.0, |h| odds(b.ruleset().dice_points, h.dice, 1, h.protection, 0, 1).0.expected + h.drain as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{builtin_compendium, parse_level};

    fn battle(map: &[&str], creatures: &str) -> Battle {
        let rows: Vec<String> = map.iter().map(|r| format!("\"{r}\"")).collect();
        let text = format!(
            r#"(name: "threat", map: [{}], legend: {{ '.': "floor", 'W': "wall" }},
                terrains: {{ "floor": (), "wall": (blocks_movement: true, blocks_sight: true) }},
                sides: [(name: "Us"), (name: "Them")], creatures: [{creatures}])"#,
            rows.join(", ")
        );
        let level = parse_level("threat.level.ron", &text, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
        Battle::new(&level, builtin_compendium(), 1).unwrap()
    }

    // RULES: ATK-E2, PERC-E1 — an archer's volley is divided only among those it has a line
    // to from where it stands; a friend behind the wall is another target only for its dagger.
    #[test]
    fn a_volley_is_shared_only_with_friends_in_its_line() {
        let b = battle(
            &["WWWWWWWWWWWW", "W..........W", "W......W...W", "W......W...W", "WWWWWWWWWWWW"],
            r#"(name: "Me", template: "human_fighter", side: "Us", at: (5, 3), facing: W),
               (name: "Friend", template: "human_fighter", side: "Us", at: (9, 2), facing: W),
               (name: "Archer", template: "archer", side: "Them", at: (1, 2), facing: E)"#,
        );
        let archer = b.fighter(2);
        assert!(b.line_of_fire(2, archer.origin, 0, b.fighter(0).origin), "the archer sees me");
        assert!(!b.line_of_fire(2, archer.origin, 1, b.fighter(1).origin), "the wall hides my friend");
        let friends = friends_in_reach(&b, 0, archer);
        assert_eq!((friends.any, friends.shot), (1, 0), "in reach after moving, but not in its line");
        let t = threat(&b, b.fighter(0), b.fighter(0).placement(), archer);
        assert!(t.ranged > 0.0 && t.ranged >= t.any, "its volley from where it stands is its worst");
        let shared = t.shared(&friends, false);
        assert!((shared.any - t.any).abs() < 1e-12, "the volley is all mine: {} of {}", shared.any, t.any);
        // With the friend in its line too, the volley is halved.
        let open = battle(
            &["WWWWWWWWWWWW", "W..........W", "W..........W", "W..........W", "WWWWWWWWWWWW"],
            r#"(name: "Me", template: "human_fighter", side: "Us", at: (5, 3), facing: W),
               (name: "Friend", template: "human_fighter", side: "Us", at: (9, 2), facing: W),
               (name: "Archer", template: "archer", side: "Them", at: (1, 2), facing: E)"#,
        );
        let friends = friends_in_reach(&open, 0, open.fighter(2));
        assert_eq!((friends.any, friends.shot), (1, 1));
        let t = threat(&open, open.fighter(0), open.fighter(0).placement(), open.fighter(2));
        assert!((t.shared(&friends, false).any - t.any / 2.0).abs() < 1e-12);
        // A shooter in that line who keeps no AP to defend takes the volley in full: the enemy
        // archer picks the one who cannot defend. Kept AP still share it.
        let exchange = t.shared(&friends, true);
        assert!((exchange.any - t.any / 2.0).abs() < 1e-12);
        assert!((exchange.open - t.open).abs() < 1e-12 && exchange.open > t.shared(&friends, false).open);
    }

    // RULES: MOVE-11, MOVE-12, SPACE-E7 — a square with a chasm behind it, where an enemy's
    // warhammer would knock us over the edge, is the more dangerous by the fall (its dice,
    // undefended, times the chance the blow hurts); the blow alone, undefended, is the same.
    #[test]
    fn a_blow_that_would_throw_us_over_the_edge_counts_the_fall() {
        let ground = |behind: &str| {
            let text = format!(
                r#"(name: "edge", map: ["WWWWWWWW", "W{behind}....W", "WWWWWWWW"],
                    legend: {{ '.': "floor", 'W': "wall", '_': "chasm" }},
                    terrains: {{ "floor": (), "wall": (blocks_movement: true, blocks_sight: true), "chasm": (drop: 6) }},
                    sides: [(name: "Us"), (name: "Them")],
                    creatures: [
                        (name: "Me", template: "human_fighter", side: "Us", at: (3, 1), facing: E),
                        (name: "Hammer", template: "hammer_guard", side: "Them", at: (4, 1), facing: W),
                    ])"#
            );
            let level = parse_level("edge.level.ron", &text, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
            let b = Battle::new(&level, builtin_compendium(), 1).unwrap();
            threat(&b, b.fighter(0), b.fighter(0).placement(), b.fighter(1))
        };
        let (edge, firm) = (ground("__"), ground(".."));
        assert!(firm.any > 0.0, "the hammer strikes from beside us");
        assert!(edge.any > firm.any + 1.0, "the fall adds dice: {} against {}", edge.any, firm.any);
        assert!((edge.open - firm.open).abs() < 1e-12, "the blow alone is the same");
    }

    // RULES: MOVE-1, MOVE-E1 — a blow comes only from where the enemy can walk: three squares
    // away through a wall is no threat when the way round is longer than its moves.
    #[test]
    fn blows_do_not_pass_through_walls() {
        let map = [
            "WWWWWWWWWWWWWWWWWWWWWWWW",
            "W.........W............W",
            "W.........W............W",
            "WWWWWWWWWWWWWWWWWWWWWWWW",
        ];
        let walled = battle(
            &map,
            r#"(name: "Me", template: "human_fighter", side: "Us", at: (12, 1), facing: W),
               (name: "Foe", template: "human_fighter", side: "Them", at: (8, 1), facing: E)"#,
        );
        let foe = walled.fighter(1);
        assert_eq!(threat(&walled, walled.fighter(0), walled.fighter(0).placement(), foe).any, 0.0);
        let mut gap = map;
        gap[2] = "W......................W";
        let open = battle(
            &gap,
            r#"(name: "Me", template: "human_fighter", side: "Us", at: (12, 1), facing: W),
               (name: "Foe", template: "human_fighter", side: "Them", at: (8, 1), facing: E)"#,
        );
        assert!(
            threat(&open, open.fighter(0), open.fighter(0).placement(), open.fighter(1)).any > 0.0,
            "the way along is open"
        );
    }

    // RULES: MOVE-E1, ATK-4 — the planner's melee danger is the engine's threat view (one
    // walking budget, `Fighter::walk_quarters`) with a margin: it is never blind where the
    // engine says a blow can land next round, and it reaches at most one square beyond (its
    // lenient last diagonal steps).
    #[test]
    fn melee_danger_is_the_engines_reach_with_a_margin_of_one_square() {
        // A room 22 × 7 inside its walls.
        let wall = "W".repeat(24);
        let floor = format!("W{}W", ".".repeat(22));
        let open: Vec<&str> = std::iter::once(wall.as_str())
            .chain(std::iter::repeat_n(floor.as_str(), 7))
            .chain(std::iter::once(wall.as_str()))
            .collect();
        let b = battle(
            &open,
            r#"(name: "Me", template: "human_fighter", side: "Us", at: (21, 6), facing: W),
               (name: "Sword", template: "human_fighter", side: "Them", at: (8, 4), facing: E)"#,
        );
        let view = b.threat_map(0, None);
        let me = b.fighter(0);
        let engine = |p: Pos| view.at(p).enemies > 0;
        let (mut both, mut margin) = (0, 0);
        for y in 1..8 {
            for x in 1..23 {
                let p = Pos::new(x, y);
                let ai = threat(&b, me, Placement { origin: p, ..me.placement() }, b.fighter(1)).any > 0.0;
                assert!(ai || !engine(p), "{p}: the engine says a blow can land here");
                if ai && !engine(p) {
                    margin += 1;
                    let near = (-1..=1).any(|dy| (-1..=1).any(|dx| engine(p.offset(dx, dy))));
                    assert!(near, "{p}: more than one square beyond the engine's reach");
                }
                both += usize::from(ai && engine(p));
            }
        }
        assert!(both > 60, "a sword walking two moves covers a wide ring: {both}");
        assert!(engine(Pos::new(16, 4)) && !engine(Pos::new(17, 4)), "7.5 steps walked, then reach 1");
        assert!(margin < both, "the margin is a rim, not another ring: {margin}");
    }

    // RULES: MOVE-E1 — whether a foe walks into reach of a square around walls is the same from
    // the walking field searched out to its blow's farthest need as from the whole map's: on a
    // winding map wider than that bound, every square, for each of its melee weapons.
    #[test]
    fn the_bounded_walk_answers_as_the_whole_map() {
        let mut rows = vec!["W".repeat(40)];
        for y in 1..11 {
            let row: String = (0..40)
                .map(|x| if x == 0 || x == 39 || (x % 6 == 3 && (y + x / 6) % 3 != 0) { 'W' } else { '.' })
                .collect();
            rows.push(row);
        }
        rows.push("W".repeat(40));
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let b = battle(
            &rows,
            r#"(name: "Me", template: "human_fighter", side: "Us", at: (1, 1), facing: E),
               (name: "Brute", template: "human_spearman", side: "Them", at: (20, 5), facing: W)"#,
        );
        let enemy = b.fighter(1);
        let whole = b.journey_costs(enemy.id, enemy.origin);
        let bounded = walk_field(&b, enemy);
        let mut near = 0;
        for w in striking_weapons(enemy).filter(|w| !w.weapon.range.ranged) {
            let (range, moves) = (w.weapon.range.max, enemy.moves_beside(w));
            for y in 0..12 {
                for x in 0..40 {
                    let at = Pos::new(x, y);
                    let budget = f64::from(enemy.walk_quarters(moves)) / 4.0;
                    let by_whole = whole.cost_steps(at).is_some_and(|s| s - 1.5 * f64::from(range) <= budget);
                    assert_eq!(walks_into_reach(&b, enemy, at, range, moves), by_whole, "{at:?} with {}", w.key);
                    near += usize::from(by_whole);
                }
            }
        }
        assert!(near > 0, "some squares are in its reach");
        assert!(bounded.cost_steps(Pos::new(1, 1)).is_none(), "the far corner is past the bound");
        assert!(whole.cost_steps(Pos::new(1, 1)).is_some(), "but walkable");
    }
}
