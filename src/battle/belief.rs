//! A side's belief: the battle as one side knows it, for an AI that plays ahead on a copy.
//!
//! A look-ahead that simulated the true battle would read what its side does not perceive —
//! where a hidden enemy lurks, a latecomer's round, the dice still to come. The belief keeps
//! only what the side knows: a creature of another side it does not perceive now stands where
//! the side last saw it, as it was then (`Battle::remembered_as`: its pools and posture when it
//! went out of sight), if the side still believes it there and did not see it go down; the
//! others it does not perceive are out of the copy. The log holds only the entries the side
//! saw, no other side's memory of sightings is kept, and the dice come from a fresh generator
//! seeded by the caller (the true generator's state would tell the future rolls), drawn afresh
//! at every turn's start from that seed, the round and whose turn it is. Other sides'
//! readied attacks (TIME-E10, told to their own side only) are not in the copy either.

use super::state::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

impl Battle {
    /// The battle as `side` believes it, rolling its dice from `seed`.
    pub fn belief_of(&self, side: usize, seed: u64) -> Battle {
        let mut b = self.clone();
        let n = b.n();
        let name = b.sides[side].name.clone();
        for t in 0..n {
            let unknown = b.creatures[t].side != side && !self.side_perceives(side, t as super::CreatureId);
            if unknown && !matches!(b.creatures[t].presence, Presence::Dead) {
                b.creatures[t].presence = Presence::Fled;
            }
            // TIME-E10: another side's readied attacks are told to it alone.
            if b.creatures[t].side != side {
                b.creatures[t].readied = None;
            }
        }
        // Those it remembers are put back where it saw them, as it saw them: a look-ahead that
        // forgot a foe the moment it stepped round a corner walked into its ambush. A remembered
        // body that would share squares with another (someone has since stepped there), or that
        // rode, carried or was carried (its partner's state may be another sighting's), stays out.
        // A second pass: every unseen creature must be out before any is placed, or a square
        // would be refused for one still standing where the side cannot see it.
        for t in 0..n {
            let id = t as super::CreatureId;
            let unknown = b.creatures[t].side != side && !self.side_perceives(side, id);
            if !unknown || self.seen_down(side, id) {
                continue;
            }
            let Some(ghost) = self.remembered_as(side, id) else { continue };
            let tied = ghost.riding.is_some() || ghost.rider.is_some() || ghost.carrying.is_some();
            if tied || ghost.presence != Presence::Active {
                continue;
            }
            // The creature is out of the copy here, so its own squares do not count against it.
            if b.free_spot_where(id, ghost.origin, 0, |_| true) == Some(ghost.origin) {
                b.creatures[t] = Fighter { readied: None, dragging: None, ..ghost };
            }
        }
        for t in 0..n {
            b.refresh_perception_of(t as super::CreatureId);
        }
        b.log.retain(|e| e.visible_to.contains(&name));
        for s in 0..b.sides.len() {
            if s != side {
                b.last_seen[s * n..(s + 1) * n].fill(None);
                b.seen_as[s * n..(s + 1) * n].fill(None);
            }
        }
        // Every side is told what it perceives in the copy now, without logging it: the copy's
        // later log then tells only what changes from here.
        b.announced = b.side_knowledge();
        b.rng = ChaCha8Rng::seed_from_u64(seed);
        b.dice_by_turn = Some(seed);
        b
    }
}
