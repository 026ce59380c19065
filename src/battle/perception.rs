//! Who perceives whom (PERC-E1..E6, PERC-4, PERC-6, FACE-4), what each side knows, and which sides may see an
//! event.

use super::state::*;
use super::types::*;
use crate::rules::facing::{Actor, Sector, sector_for};
use crate::rules::grid::{Footprint, Pos, footprint_distance};
use crate::rules::los::{BlindSide, clear_line};
use crate::rules::senses::{Sense, smell_reaches};
use crate::rules::view_memo::field_of_view_kept;

impl Battle {
    /// Does `viewer` perceive `target` right now (PERC-E2)?
    pub fn perceives(&self, viewer: CreatureId, target: CreatureId) -> bool {
        self.perceives[viewer as usize * self.n() + target as usize]
    }

    /// Does any conscious member of `side` perceive `target` (or is it their own)?
    pub fn side_perceives(&self, side: usize, target: CreatureId) -> bool {
        let t = &self.creatures[target as usize];
        if t.side == side {
            return !matches!(t.presence, Presence::Waiting(_));
        }
        self.creatures.iter().any(|m| m.side == side && m.can_act() && self.perceives(m.id, target))
    }

    /// `side_perceives(side, t)` for every creature `t` of the other sides at once (its own
    /// are left false): the rows of the side's conscious members joined. Asked creature by
    /// creature, each answer walks the members again; on a field of 256 against 256 the AI's
    /// look at its foes was a fifth of a decision.
    pub(super) fn perceived_by(&self, side: usize) -> Vec<bool> {
        let n = self.n();
        let mut seen = vec![false; n];
        for m in self.creatures.iter().filter(|m| m.side == side && m.can_act()) {
            let row = &self.perceives[m.id as usize * n..(m.id as usize + 1) * n];
            for (known, &sees) in seen.iter_mut().zip(row) {
                *known |= sees;
            }
        }
        for (t, c) in self.creatures.iter().enumerate() {
            if c.side == side {
                seen[t] = false;
            }
        }
        seen
    }

    /// Full perception test for one pair (PERC-E1..E5, FACE-4).
    pub(super) fn compute_perceives(&self, viewer: CreatureId, target: CreatureId) -> bool {
        if viewer == target {
            return true;
        }
        let (v, t) = (&self.creatures[viewer as usize], &self.creatures[target as usize]);
        self.perceives_placed(v, v.placement(), t, t.origin)
    }

    /// PERC-E1..E6, PERC-4, PERC-6 for `v` standing at `at` and `t` at `t_origin` (the query
    /// API's "what if").
    pub(super) fn perceives_placed(&self, v: &Fighter, at: Placement, t: &Fighter, t_origin: Pos) -> bool {
        if v.id == t.id {
            return true;
        }
        if !v.can_act() || !t.is_active() {
            return false;
        }
        // PERC-4: the ranges it perceives by now (a lost habitual sense shrinks them all to 1).
        let ranges = v.sense_ranges();
        let range = |s: Sense| ranges[s.index()];
        // PERC-E2: a creature with no senses left perceives only itself.
        if ranges == [0; 5] {
            return false;
        }
        let (vf, tf) = (Footprint::new(at.origin, v.size.footprint()), Footprint::new(t_origin, t.size.footprint()));
        let d = footprint_distance(vf, tf);
        // PERC-E2: adjacent creatures are always perceived, unless invisible (PERC-E6).
        if d <= 1 && !t.invisible {
            return true;
        }
        // PERC-E4; under 001's Hide and Spot, a side that locked on perceives it as usual.
        if t.hidden.is_some() && !t.locked_on.contains(&v.side) {
            return false;
        }
        // PERC-E6: an invisible attacker is located on the square it struck from.
        if t.betrayed_to.contains(&(v.id, t_origin)) {
            return true;
        }
        // The line is traced at most once, and only if a sense needs it.
        let mut line_known: Option<bool> = None;
        let mut line =
            || *line_known.get_or_insert_with(|| vf.cells().any(|a| tf.cells().any(|b| clear_line(&self.map, a, b))));
        let noisy = t.noisy_round.is_some_and(|r| r + 1 >= self.round);
        // Vision: range, blind side, light, line; never an invisible target (PERC-E6).
        if !t.invisible && d <= range(Sense::Vision) {
            let blind = self.ruleset.facing
                && sector_for(vf, at.facing, self.ruleset.facing_arcs, tf, Actor::Perceiver) == Some(Sector::Rear);
            let lit = v.senses.darkvision || tf.cells().any(|c| !self.map.terrain(c).dark);
            if !blind && lit && line() {
                return true;
            }
        }
        // PERC-E5: hearing needs an audible target and a line sound passes along.
        if d <= range(Sense::Hearing) && noisy && line() {
            return true;
        }
        // PERC-6: supernatural senses perceive anything within range.
        if d <= range(Sense::Supernatural) {
            return true;
        }
        // A non-visual sense (tremor): ignores light and facing, needs an active target.
        if d <= range(Sense::Tremor) && noisy {
            return true;
        }
        // PERC-6: smell, by the way around walls.
        d <= range(Sense::Smell) && smell_reaches(&self.map, vf, tf, range(Sense::Smell))
    }

    /// Recompute every pair involving `id` (as viewer or target).
    pub(super) fn refresh_perception_of(&mut self, id: CreatureId) {
        let n = self.n();
        for other in 0..n as CreatureId {
            let a = self.compute_perceives(id, other);
            self.perceives[id as usize * n + other as usize] = a;
            let b = self.compute_perceives(other, id);
            self.perceives[other as usize * n + id as usize] = b;
        }
    }

    /// A snapshot of what each side perceives, to diff after a change: `side_perceives` for
    /// every side and present creature. Worked out row by row of the perception table (each
    /// conscious member's row joined into its side's), not creature by creature over every
    /// member: after every command, and on a field of 512 the column-wise way was a fifth of a
    /// round's time.
    pub(super) fn side_knowledge(&self) -> Vec<bool> {
        let n = self.n();
        let mut k: Vec<bool> = (0..self.sides.len()).flat_map(|s| self.perceived_by(s)).collect();
        for (t, c) in self.creatures.iter().enumerate() {
            k[c.side * n + t] = !matches!(c.presence, Presence::Waiting(_));
            if !c.is_active() {
                for s in 0..self.sides.len() {
                    k[s * n + t] = false;
                }
            }
        }
        k
    }

    /// Where `side` last perceived `creature`, if it still believes it is there.
    pub fn last_seen(&self, side: usize, creature: CreatureId) -> Option<Pos> {
        self.last_seen[side * self.n() + creature as usize]
    }

    /// Keep `creature` as `side` saw it last, as it goes out of the side's sight.
    fn remember_as_seen(&mut self, side: usize, creature: CreatureId) {
        let slot = side * self.n() + creature as usize;
        self.seen_as[slot] = Some(std::sync::Arc::new(self.creatures[creature as usize].clone()));
        self.lost_round[slot] = self.round;
    }

    /// The hostile creatures `side` lost sight of in the last `rounds` rounds (this one
    /// included), still standing as far as it knows, each as and where it last saw them
    /// (`remembered_as`): what its memory says, never where they are now. A planner that forgot
    /// a foe the moment it stepped out of its sight stepped straight back into it.
    pub fn lately_lost(&self, side: usize, rounds: u32) -> Vec<Fighter> {
        let n = self.n();
        self.creatures
            .iter()
            .filter(|o| self.hostile_sides(side, o.side) && !self.side_perceives(side, o.id))
            .filter(|o| self.lost_round[side * n + o.id as usize] + rounds > self.round)
            .filter_map(|o| self.remembered_as(side, o.id))
            // As the side saw it when it went out of sight: one it saw go down went out of its
            // sight down (it is told of no fall it does not see), so `seen_down` adds nothing.
            .filter(|ghost| ghost.can_act())
            .collect()
    }

    /// The creature as `side` last saw it, while the side still believes it where it saw it
    /// (`last_seen`): its state when it went out of sight, standing at that sighting.
    pub fn remembered_as(&self, side: usize, creature: CreatureId) -> Option<Fighter> {
        let at = self.last_seen(side, creature)?;
        let mut f = (**self.seen_as[side * self.n() + creature as usize].as_ref()?).clone();
        f.origin = at;
        Some(f)
    }

    /// Whether `side` saw `creature` go down (fall unconscious or die, FLOW-7) and has not
    /// seen it wake since: its own view of the log, so a fall out of its sight is not known.
    /// A hunter looking for the creatures it remembers passes over these.
    pub fn seen_down(&self, side: usize, creature: CreatureId) -> bool {
        let name = &self.sides[side].name;
        // The event is matched before the side's name is looked for: the scan runs over the
        // whole log for a creature never down, and most entries are about something else.
        self.log
            .iter()
            .rev()
            .find_map(|e| {
                let down = match e.event {
                    Event::Unconscious { creature: c } | Event::Died { creature: c } if c == creature => true,
                    Event::Woke { creature: c } if c == creature => false,
                    _ => return None,
                };
                e.visible_to.contains(name).then_some(down)
            })
            .unwrap_or(false)
    }

    /// Tell every side what it gained or lost sight of since it was last told (Spotted /
    /// LostSight; own creatures excluded), and update each side's memory of where it saw them.
    /// Called after every change that can alter perception, before anything names a creature
    /// that just came into view; also at the end of every command.
    pub(super) fn sync_perception(&mut self) {
        let after = self.side_knowledge();
        let n = self.n();
        for s in 0..self.sides.len() {
            for t in 0..n {
                let slot = s * n + t;
                let (was, is) = (self.announced[slot], after[slot]);
                if is {
                    self.last_seen[slot] = Some(self.creatures[t].origin);
                } else if let Some(p) = self.last_seen[slot] {
                    // The memory goes when a member stands next to the spot and sees nothing
                    // there, or when the side saw the creature leave the battle; a creature
                    // that died or fled out of sight is still believed where it was seen.
                    let looked = self.creatures.iter().any(|m| {
                        m.side == s && m.can_act() && footprint_distance(m.footprint(), Footprint::single(p)) <= 1
                    });
                    if looked || (was && !self.creatures[t].is_active()) {
                        self.last_seen[slot] = None;
                    }
                }
                self.announced[slot] = is;
                if self.creatures[t].side == s || is == was {
                    continue;
                }
                if was && self.creatures[t].is_active() {
                    self.remember_as_seen(s, t as CreatureId);
                }
                let side = self.sides[s].name.clone();
                let creature = t as CreatureId;
                let event = if is {
                    Event::Spotted { side: side.clone(), creature }
                } else {
                    Event::LostSight { side: side.clone(), creature }
                };
                self.log_to(event, vec![side]);
            }
        }
    }

    /// Has `side` been told of `creature`: its own, or one it was told it perceives (Spotted
    /// and not yet LostSight). Who may see an event is decided by this, so an event can never
    /// name a creature to a side before the side has been told it perceives it.
    pub(super) fn knows(&self, side: usize, creature: CreatureId) -> bool {
        self.creatures[creature as usize].side == side || self.announced[side * self.n() + creature as usize]
    }

    /// Log an event that each side may see differently: `whole` is what happened, `view(s)`
    /// what side `s` sees of it (None: nothing). Sides seeing the same thing share one entry,
    /// in side order; views that are not the whole event are marked partial, and if no side
    /// sees the whole, it is logged for nobody (the complete record).
    pub(super) fn log_views(&mut self, whole: Event, view: impl Fn(&Battle, usize) -> Option<Event>) {
        let views: Vec<Option<Event>> = (0..self.sides.len()).map(|s| view(self, s)).collect();
        if !views.iter().any(|v| v.as_ref() == Some(&whole)) {
            self.log_to(whole.clone(), Vec::new());
        }
        let mut done = vec![false; views.len()];
        for s in 0..views.len() {
            let Some(event) = views[s].clone().filter(|_| !done[s]) else { continue };
            let mut to = Vec::new();
            for t in s..views.len() {
                if !done[t] && views[t].as_ref() == Some(&event) {
                    done[t] = true;
                    to.push(self.sides[t].name.clone());
                }
            }
            if event == whole {
                self.log_to(event, to);
            } else {
                self.log_partial(event, to);
            }
        }
    }

    /// A creature walked `path` (from where it stood to where it stands now). Each side sees
    /// only the stretches of the walk where it perceived the walker, each as Spotted, Moved and
    /// LostSight in that order; the walker's side sees it all. Other sides' memory of the
    /// walker ends where they last saw it; their knowledge of it is settled here.
    pub(super) fn log_walk(&mut self, id: CreatureId, path: &[Pos], cost_quarters: u32, sprint: bool) {
        let n = self.n();
        let own = self.creatures[id as usize].side;
        let last = path.len() - 1;
        // Per side, whether it perceived the walker on each square of the path: before the move
        // at the start (as it was), now at the end, in between as its members would have.
        let seen: Vec<Vec<bool>> = (0..self.sides.len())
            .map(|s| {
                if s == own {
                    return vec![true; path.len()];
                }
                let walker = &self.creatures[id as usize];
                (0..path.len())
                    .map(|i| match i {
                        0 => self.announced[s * n + id as usize],
                        i if i == last => self.side_perceives(s, id),
                        i => self.creatures.iter().any(|m| {
                            m.side == s && m.can_act() && self.perceives_placed(m, m.placement(), walker, path[i])
                        }),
                    })
                    .collect()
            })
            .collect();
        let moved = |from: usize, to: usize| Event::Moved {
            creature: id,
            path: path[from..=to].to_vec(),
            cost_quarters: if (from, to) == (0, last) { cost_quarters } else { 0 },
            sprint,
        };
        // Those who saw all of it share one entry.
        let whole: Vec<usize> = (0..self.sides.len()).filter(|&s| seen[s].iter().all(|&v| v)).collect();
        for &s in whole.iter().filter(|&&s| s != own) {
            self.last_seen[s * n + id as usize] = Some(path[last]);
        }
        let names = whole.iter().map(|&s| self.sides[s].name.clone()).collect();
        self.log_to(moved(0, last), names);
        for (s, seen) in seen.iter().enumerate() {
            if seen.iter().all(|&v| v) {
                continue;
            }
            let side = self.sides[s].name.clone();
            let mut i = 0;
            while i <= last {
                if !seen[i] {
                    i += 1;
                    continue;
                }
                let start = i;
                while i < last && seen[i + 1] {
                    i += 1;
                }
                if start > 0 {
                    self.log_to(Event::Spotted { side: side.clone(), creature: id }, vec![side.clone()]);
                }
                if i > start {
                    self.log_partial(moved(start, i), vec![side.clone()]);
                }
                self.last_seen[s * n + id as usize] = Some(path[i]);
                if i < last {
                    self.remember_as_seen(s, id);
                    self.log_to(Event::LostSight { side: side.clone(), creature: id }, vec![side.clone()]);
                }
                i += 1;
            }
        }
        for (s, seen) in seen.iter().enumerate() {
            if s != own {
                self.announced[s * n + id as usize] = seen[last];
            }
        }
    }

    /// Sides that may see an event about these creatures: their own sides, and every side that
    /// knows of one of them.
    pub(super) fn witnesses(&self, subjects: &[CreatureId]) -> Vec<String> {
        (0..self.sides.len())
            .filter(|&s| subjects.iter().any(|&c| self.knows(s, c)))
            .map(|s| self.sides[s].name.clone())
            .collect()
    }

    pub(super) fn log_about(&mut self, event: Event, subjects: &[CreatureId]) {
        let w = self.witnesses(subjects);
        self.log_to(event, w);
    }

    /// Log an event that names all of `subjects` to the sides that know every one of them
    /// (`log_about` tells a side that knows any one).
    pub(super) fn log_among(&mut self, event: Event, subjects: &[CreatureId]) {
        let whole = event.clone();
        self.log_views(whole, |b, s| subjects.iter().all(|&c| b.knows(s, c)).then(|| event.clone()));
    }
}

/// What a side may be shown (the window and the AI read these): the squares it sees and the
/// creatures on them.
impl Battle {
    /// PERC-2, PERC-E1, PERC-E3, FACE-4, PERC-4: the squares `side`'s creatures see now (in
    /// vision range, on a clear line, not in their blind rear, lit unless they see in the
    /// dark), indexed like the map.
    pub fn seen_squares(&self, side: usize) -> Vec<bool> {
        self.squares_in_view(side, false)
    }

    /// The squares `side`'s creatures would see were each to turn round (the blind rear arc,
    /// FACE-4, left out; range, line and light as `seen_squares`): a search for the unseen
    /// need not walk to look at what a creature has only behind its back (turning is free).
    pub fn squares_seen_turning(&self, side: usize) -> Vec<bool> {
        self.squares_in_view(side, true)
    }

    fn squares_in_view(&self, side: usize, turning: bool) -> Vec<bool> {
        let mut seen = vec![false; (self.map.width() * self.map.height()) as usize];
        // Most maps have no dark terrain: then every square of a field is seen, and the
        // terrain under each need not be looked up (256 searchers on a 256×256 field spent
        // most of a decision on those look-ups).
        let any_dark = self.map.terrains().iter().any(|t| t.dark);
        for m in self.creatures.iter().filter(|m| m.side == side && m.can_act()) {
            let blind = (self.ruleset.facing && !turning)
                .then_some(BlindSide { facing: m.facing, arcs: self.ruleset.facing_arcs });
            for eye in m.footprint().cells() {
                // PERC-4, FLOW-D3: a blinded creature sees no squares; one that lost its
                // habitual sense sees only the squares around it.
                let vision = m.sense_range(crate::rules::senses::Sense::Vision);
                if vision == 0 {
                    continue;
                }
                // Remembered: a searcher asks for its side's view at every decision, and only
                // the creature that moved since sees anything new.
                let field = field_of_view_kept(&self.map, eye, vision, blind);
                if !any_dark || m.senses.darkvision {
                    for &i in field.iter() {
                        seen[i as usize] = true;
                    }
                    continue;
                }
                for &i in field.iter() {
                    if !self.map.terrain(self.map.pos_of(i as usize)).dark {
                        seen[i as usize] = true;
                    }
                }
            }
        }
        seen
    }

    /// May `side` be shown this creature now: its own (once arrived), or one it perceives.
    pub fn shown_to(&self, side: usize, creature: CreatureId) -> bool {
        self.side_perceives(side, creature)
    }

    /// The present creature on `at` that `side` may be shown: the smallest if two share it (a
    /// rider on its mount, MOVE-E8: the mount is the one under its other squares).
    pub fn shown_creature_at(&self, side: usize, at: Pos) -> Option<&Fighter> {
        self.creatures
            .iter()
            .filter(|c| c.is_active() && c.footprint().contains(at) && self.shown_to(side, c.id))
            .min_by_key(|c| c.size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{builtin_compendium, load_level};

    // RULES: PERC-E1, PERC-E2 — what each side is told it perceives after every command is, for
    // every side and creature, whether a conscious member perceives it (its own: once arrived),
    // and nothing gone from the field: the table joined row by row (and `perceived_by`, one
    // side's rows) answers as `side_perceives` asked creature by creature, through AI battles in the dark, with hiders, and one with a
    // latecomer.
    #[test]
    fn a_sides_knowledge_is_what_its_members_perceive() {
        let mut checked = 0;
        for level in ["darkness", "crypt", "the_chapel", "hold_the_gate"] {
            let path = std::path::PathBuf::from(format!("levels/{level}.level.ron"));
            let level = load_level(&path, builtin_compendium()).unwrap_or_else(|e| panic!("{e}"));
            let mut b = Battle::new(&level, builtin_compendium(), 3).unwrap();
            while b.outcome().is_none() && b.round() < 12 {
                let k = b.side_knowledge();
                for s in 0..b.sides.len() {
                    let joined = b.perceived_by(s);
                    for t in 0..b.n() {
                        let asked = b.creatures[t].is_active() && b.side_perceives(s, t as CreatureId);
                        assert_eq!(k[s * b.n() + t], asked, "side {s}, creature {t}, round {}", b.round());
                        checked += usize::from(asked);
                        // Another side's creature: the members' rows joined answer alike.
                        if b.creatures[t].side != s {
                            assert_eq!(joined[t], b.side_perceives(s, t as CreatureId), "side {s}, creature {t}");
                        }
                    }
                }
                let (c, w) = b.awaiting().unwrap();
                let cmd = crate::ai::decide(&b, c, w);
                b.submit(c, cmd).unwrap();
            }
        }
        assert!(checked > 1000, "the sides perceived something: {checked}");
    }
}
