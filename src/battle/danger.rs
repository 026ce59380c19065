//! Spatial questions a player asks before moving: "how many moves to get there?" and "where
//! can the enemies I see strike next round, and where would that come from my rear?". Both
//! are answered here, from the engine's own movement and facing rules, so the board's
//! overlays cannot disagree with what the battle would allow.

use super::Battle;
use super::{CreatureId, Fighter};
use crate::rules::costs::MOVE_AP;
use crate::rules::facing::{Actor, Sector, sector_for};
use crate::rules::grid::{Footprint, Pos, footprint_distance};
use crate::rules::los::sight_line;
use crate::rules::movement::reachable;
use std::collections::VecDeque;

/// Per square of the map: could a perceived enemy strike a creature standing there next
/// round, how many could, and would one of them strike from its rear arc.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ThreatMap {
    pub width: i32,
    pub squares: Vec<ThreatSquare>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThreatSquare {
    /// Enemies that could strike here (melee after moving, or a shot).
    pub enemies: u8,
    /// ATK-11, FACE-4: one of them would strike from the rear arc of the creature asked about
    /// (standing here, facing as it does now): that strike cannot be defended.
    pub from_rear: bool,
}

impl ThreatMap {
    pub fn at(&self, p: Pos) -> ThreatSquare {
        if p.x < 0 || p.y < 0 || p.x >= self.width {
            return ThreatSquare::default();
        }
        self.squares.get((p.y * self.width + p.x) as usize).copied().unwrap_or_default()
    }
}

impl Battle {
    /// MOVE-1, TIME-8: how many moves (1 AP each) `id` needs this turn to end on each square
    /// it can reach with the AP it has, creatures standing where they are: (square, moves).
    /// Each further move starts from a square a move can end on, by the engine's own field.
    pub fn moves_to_squares(&self, id: CreatureId) -> Vec<(Pos, u8)> {
        let (best, _) = self.move_layers(id);
        (0..best.len()).filter(|&i| best[i] != u8::MAX && best[i] > 0).map(|i| (self.map.pos_of(i), best[i])).collect()
    }

    /// MOVE-1, TIME-8: the fewest moves this turn that end on `at`, each as the path of one
    /// Move command (start square first), as `moves_to_squares` counts them; None if no number
    /// of moves the AP pay for gets there (or `at` is where it stands).
    pub fn walk_in_moves(&self, id: CreatureId, at: Pos) -> Option<Vec<Vec<Pos>>> {
        if !self.map.in_bounds(at) {
            return None;
        }
        let (best, came_from) = self.move_layers(id);
        let k = best[self.map.index(at)];
        if k == 0 || k == u8::MAX {
            return None;
        }
        // The squares each move ends on, from the last back to the first.
        let mut ends = vec![at];
        while ends.len() < k as usize {
            let before = came_from[self.map.index(*ends.last()?)];
            ends.push(self.map.pos_of(before as usize));
        }
        ends.reverse();
        let (occupancy, mover) = (self.occupancy_for(id), self.mover(id, false));
        let mut from = self.creatures[id as usize].origin;
        let mut paths = Vec::new();
        for end in ends {
            let field = reachable(&self.map, Some(&occupancy), &mover, from).ok()?;
            paths.push(field.path_to(end)?);
            from = end;
        }
        Some(paths)
    }

    /// The moves to each square (`u8::MAX`: none) and the square the last of them starts from.
    fn move_layers(&self, id: CreatureId) -> (Vec<u8>, Vec<u32>) {
        let f = &self.creatures[id as usize];
        let moves = if f.long_term.is_some() { 0 } else { f.ap / MOVE_AP };
        let occupancy = self.occupancy_for(id);
        let mover = self.mover(id, false);
        let map = &self.map;
        let mut best = vec![u8::MAX; (map.width() * map.height()) as usize];
        let mut came_from = vec![u32::MAX; best.len()];
        best[map.index(f.origin)] = 0;
        let mut frontier = VecDeque::from([f.origin]);
        for k in 1..=moves.clamp(0, 8) as u8 {
            let mut next = VecDeque::new();
            for from in frontier {
                let Ok(field) = reachable(map, Some(&occupancy), &mover, from) else { continue };
                for p in field.destinations() {
                    let i = map.index(p);
                    if best[i] > k {
                        best[i] = k;
                        came_from[i] = map.index(from) as u32;
                        next.push_back(p);
                    }
                }
            }
            frontier = next;
        }
        (best, came_from)
    }

    /// Where the hostile creatures `side` perceives could strike next round (with their full
    /// AP, after moving), as that side knows them: only perceived creatures, at the squares
    /// they are seen on. `facing_of` is the creature of the side whose rear arc is asked
    /// about (e.g. the one in turn), as it faces now.
    pub fn threat_map(&self, side: usize, facing_of: Option<CreatureId>) -> ThreatMap {
        let map = &self.map;
        let (w, h) = (map.width(), map.height());
        let mut squares = vec![ThreatSquare::default(); (w * h) as usize];
        let me = facing_of.and_then(|c| self.creatures.get(c as usize));
        for enemy in self.perceived_hostiles(side).into_iter().map(|e| &self.creatures[e as usize]) {
            if !enemy.can_act() {
                continue;
            }
            let mut hits = vec![(false, false); squares.len()];
            self.mark_enemy_reach(enemy, me, &mut hits);
            for (s, (hit, rear)) in squares.iter_mut().zip(hits) {
                if hit {
                    s.enemies = s.enemies.saturating_add(1);
                    s.from_rear |= rear;
                }
            }
        }
        ThreatMap { width: w, squares }
    }

    /// TIME-12, ATK-11: would these commands (in order) leave `me` without the AP a defense needs, where an
    /// enemy its side perceives could strike it before its next turn? The perceived enemies
    /// that could (empty: safe, or AP kept). Asked of a copy: what the command would do is
    /// what the engine does (a move's end square, an attack's AP); its dice are not looked at.
    pub fn left_defenceless(&self, me: CreatureId, commands: &[super::Command]) -> Vec<CreatureId> {
        let mut after = self.clone();
        for command in commands {
            // Only the creature's own turn is asked about; a reaction window ends the question.
            if after.awaiting() != Some((me, None)) || after.submit(me, command.clone()).is_err() {
                return Vec::new();
            }
        }
        let f = after.creatures[me as usize].clone();
        if f.ap >= crate::rules::costs::DEFEND_AP || !f.can_act() {
            return Vec::new();
        }
        let i = self.map.index(f.origin);
        after
            .perceived_hostiles(f.side)
            .into_iter()
            .filter(|&e| {
                let enemy = &after.creatures[e as usize];
                let mut hits = vec![(false, false); after.squares_len()];
                enemy.can_act() && {
                    after.mark_enemy_reach(enemy, Some(&f), &mut hits);
                    hits[i].0
                }
            })
            .collect()
    }

    fn squares_len(&self) -> usize {
        (self.map.width() * self.map.height()) as usize
    }

    /// For one enemy: the squares it could strike next round, and whether from `me`'s rear.
    fn mark_enemy_reach(&self, enemy: &Fighter, me: Option<&Fighter>, hits: &mut [(bool, bool)]) {
        let map = &self.map;
        let side = enemy.size.footprint();
        let my_side = me.map_or(1, |m| m.size.footprint());
        let costs = self.journey_costs(enemy.id, enemy.origin);
        let arcs = self.ruleset().facing_arcs;
        let in_rear = |q: Pos, from: Footprint| {
            me.is_some_and(|m| {
                sector_for(Footprint::new(q, my_side), m.facing, arcs, from, Actor::Attacker) == Some(Sector::Rear)
            })
        };
        for w in &enemy.weapons {
            if w.ammo == Some(0) || w.weapon.ap > enemy.max_ap {
                continue;
            }
            // MOVE-E1: each move goes up to speed + ¾ steps; the AP the weapon leaves pay them.
            let moves = enemy.moves_beside(w);
            let budget = enemy.walk_quarters(moves);
            let reach = w.weapon.range.max;
            if w.weapon.range.ranged || w.weapon.area.is_some() {
                // A shot along a line from where it stands (it may step closer first).
                let steps = (moves * enemy.speed).max(0);
                for (i, hit) in hits.iter_mut().enumerate() {
                    let q = map.pos_of(i);
                    if (hit.0 && (me.is_none() || hit.1)) || map.terrain(q).blocks_movement {
                        continue;
                    }
                    let d = footprint_distance(enemy.footprint(), Footprint::new(q, my_side));
                    if d <= reach + steps && sight_line(map, enemy.origin, q).visible {
                        let rear = in_rear(q, enemy.footprint());
                        *hit = (true, hit.1 || rear);
                    }
                }
                continue;
            }
            // Melee: squares within reach of a square its footprint can walk to.
            let stands: Vec<Pos> = (0..hits.len())
                .map(|i| map.pos_of(i))
                .filter(|&p| costs.cost_quarters(p).is_some_and(|c| c <= budget))
                .collect();
            for p in stands {
                let from = Footprint::new(p, side);
                for dy in -reach - my_side + 1..=reach + side - 1 {
                    for dx in -reach - my_side + 1..=reach + side - 1 {
                        let q = p.offset(dx, dy);
                        if !map.in_bounds(q) || map.terrain(q).blocks_movement {
                            continue;
                        }
                        let d = footprint_distance(from, Footprint::new(q, my_side));
                        if d < 1 || d > reach {
                            continue;
                        }
                        let i = map.index(q);
                        let rear = in_rear(q, from);
                        hits[i] = (true, hits[i].1 || rear);
                    }
                }
            }
        }
    }
}
